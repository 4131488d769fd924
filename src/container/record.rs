//! Provenance: the record of its container a URL was found in, one type
//! for every container and for every stage from the container's search to
//! the report.

use crate::mail::{Encoding, HtmlLink, Location, Metadata, TextLines};
use std::sync::Arc;

/// The record (a mail message) of its container that a URL was found in:
/// what every container says (index, offset, id) and the container's own
/// fields ([`Fields`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provenance<'a> {
    /// 0-based index of the record in the input (a slice's batch counts
    /// on from the records before it).
    pub index: u64,
    /// Absolute offset of the record (a message's separator line, in an
    /// mbox).
    pub offset: u64,
    /// The record's id as written (a message's `Message-ID`).
    pub id: Option<&'a [u8]>,
    /// What the record's container says of it.
    pub fields: Fields<'a>,
}

/// The fields of a record, by container.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fields<'a> {
    /// A mail message (mbox, Maildir, news article, digest).
    Mail(MailFields<'a>),
    /// A web-archive record (WARC, ARC).
    Web(WebFields<'a>),
}

/// The kind of container a [`Provenance`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ContainerKind {
    /// Mail: mbox, Maildir, news articles, digests.
    Mail,
    /// Web archives: WARC, WET, ARC.
    Web,
}

impl<'a> Provenance<'a> {
    /// The container the record comes from.
    pub fn kind(&self) -> ContainerKind {
        match self.fields {
            Fields::Mail(_) => ContainerKind::Mail,
            Fields::Web(_) => ContainerKind::Web,
        }
    }

    /// The mail fields, when the record is a mail message.
    pub fn mail(&self) -> Option<&MailFields<'a>> {
        match &self.fields {
            Fields::Mail(m) => Some(m),
            Fields::Web(_) => None,
        }
    }

    /// The web-archive record, when the record is one.
    pub fn web(&self) -> Option<&'a Arc<WebRecord>> {
        match self.fields {
            Fields::Web(w) => Some(w.record),
            Fields::Mail(_) => None,
        }
    }

    /// Where in its HTML the URL was, when that was asked for
    /// ([`crate::DriverBuilder::html_context`]) and it was in HTML.
    pub fn html(&self) -> Option<&'a Arc<HtmlLink>> {
        match self.fields {
            Fields::Mail(m) => m.html,
            Fields::Web(w) => w.html,
        }
    }
}

/// What a mail message says of a URL found in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MailFields<'a> {
    /// The message's metadata, when it was asked for
    /// ([`crate::DriverBuilder::metadata`]); shared by its URLs.
    pub meta: Option<&'a Arc<Metadata>>,
    /// The MIME entity, numbered as [`crate::mail::MailMatch::part`] says.
    pub part: usize,
    /// Header or body.
    pub location: Location,
    /// The transfer encoding of the text it was found in.
    pub encoding: Encoding,
    /// Whether its text differs from the bytes its span covers.
    pub decoded: bool,
    /// Where in its `text/html` part it was, when that was asked for
    /// ([`crate::DriverBuilder::html_context`]).
    pub html: Option<&'a Arc<HtmlLink>>,
    /// The lines of the searched (decoded) text that hold it, when they
    /// were asked for ([`crate::DriverBuilder::lines`]) and decoding
    /// changed the text.
    pub lines: Option<HitLines<'a>>,
}

/// The lines of the searched text around a URL found in a record
/// ([`crate::mail::LineContext`], its offset made absolute).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitLines<'a> {
    /// The lines, shared by the URLs on the same lines.
    pub lines: &'a Arc<TextLines>,
    /// The URL's range in the searched text.
    pub url: (u64, u64),
    /// Absolute offset of the searched text's source: the stored offsets
    /// of its lines ([`crate::mail::TextLine::stored`]) count from it.
    pub offset: u64,
}

/// What a web-archive record says of a URL found in its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WebFields<'a> {
    /// The record, shared by its URLs.
    pub record: &'a Arc<WebRecord>,
    /// Where in its HTML payload the URL was, when that was asked for
    /// ([`crate::DriverBuilder::html_context`]).
    pub html: Option<&'a Arc<HtmlLink>>,
}

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
