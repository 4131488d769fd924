//! The web-archive container's record part: what a WARC or ARC record
//! says of the URLs found in its payload, and the one place its JSON
//! fields are named ([`RecordPart`]).

use super::record::{PartValue, RecordPart};
use std::any::Any;

/// What a web-archive record (WARC 1.0/1.1, ARC v1) says of the URLs
/// found in its payload: one per record, shared by its URLs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WebRecord {
    /// `warc` or `arc`.
    pub format: &'static str,
    /// The record's type (`WARC-Type`: `response`, `resource`,
    /// `conversion`, `metadata`…; ARC's records are `response`).
    pub kind: String,
    /// The page the payload came from (`WARC-Target-URI`, ARC's URL).
    pub target_uri: Option<String>,
    /// When it was captured, as RFC 3339 (`WARC-Date`, ARC's 14 digits,
    /// read as UTC).
    pub date: Option<String>,
    /// The record's id (`WARC-Record-ID`), as written.
    pub id: Option<String>,
    /// The payload's media type: the HTTP `Content-Type` of a response,
    /// else the record's `Content-Type`.
    pub content_type: Option<String>,
    /// For gzip input, the offset of the gzip member holding the record
    /// in the compressed file (a reader seeks there, as CDX indexes do).
    pub gz_offset: Option<u64>,
}

impl RecordPart for WebRecord {
    fn kind(&self) -> &'static str {
        "web"
    }

    /// `gz_offset`, `format`, `type`, `target_uri`, `date`, `id`,
    /// `content_type`: each written, `null` when the record has none.
    fn fields<'s>(
        &'s self,
        field: &mut dyn FnMut(&'static str, PartValue<'s>),
    ) {
        field("gz_offset", self.gz_offset.into());
        field("format", PartValue::Str(self.format));
        field("type", PartValue::Str(&self.kind));
        field("target_uri", self.target_uri.as_deref().into());
        field("date", self.date.as_deref().into());
        field("id", self.id.as_deref().into());
        field("content_type", self.content_type.as_deref().into());
    }

    fn page(&self) -> Option<&str> {
        self.target_uri.as_deref()
    }

    fn date(&self) -> Option<&str> {
        self.date.as_deref()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
