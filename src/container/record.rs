//! Provenance: the record of its container a URL was found in, one type
//! for every container and for every stage from the container's search to
//! the report.

use crate::mail::{Encoding, HtmlLink, Location, Metadata, TextLines};
use std::any::Any;
use std::fmt::Debug;
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
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Fields<'a> {
    /// A mail message (mbox, Maildir, news article, digest).
    Mail(MailFields<'a>),
    /// A record of any other container (web archives: WARC, ARC), which
    /// says what it holds through [`RecordPart`].
    Part(PartFields<'a>),
}

impl<'a> Provenance<'a> {
    /// The container the record comes from: `mail`, or the
    /// [`RecordPart::kind`] of its part (`web`).
    pub fn kind(&self) -> &'static str {
        match self.fields {
            Fields::Mail(_) => "mail",
            Fields::Part(p) => p.part.kind(),
        }
    }

    /// The mail fields, when the record is a mail message.
    pub fn mail(&self) -> Option<&MailFields<'a>> {
        match &self.fields {
            Fields::Mail(m) => Some(m),
            Fields::Part(_) => None,
        }
    }

    /// The record's part, when it is not mail (a web-archive record:
    /// [`crate::WebRecord`], by [`RecordPart::as_any`]).
    pub fn part(&self) -> Option<&'a Arc<dyn RecordPart>> {
        match self.fields {
            Fields::Part(p) => Some(p.part),
            Fields::Mail(_) => None,
        }
    }

    /// Where in its HTML the URL was, when that was asked for
    /// ([`crate::DriverBuilder::html_context`]) and it was in HTML.
    pub fn html(&self) -> Option<&'a Arc<HtmlLink>> {
        match self.fields {
            Fields::Mail(m) => m.html,
            Fields::Part(p) => p.html,
        }
    }
}

impl PartialEq for Fields<'_> {
    fn eq(&self, other: &Fields<'_>) -> bool {
        match (self, other) {
            (Fields::Mail(a), Fields::Mail(b)) => a == b,
            (Fields::Part(a), Fields::Part(b)) => {
                Arc::ptr_eq(a.part, b.part) && a.html == b.html
            }
            _ => false,
        }
    }
}

impl Eq for Fields<'_> {}

/// One value of a record part's JSON object ([`RecordPart::fields`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartValue<'a> {
    /// `null`: the record does not say.
    Null,
    /// A number.
    U64(u64),
    /// A string (escaped when written).
    Str(&'a str),
}

impl<'a> From<Option<&'a str>> for PartValue<'a> {
    fn from(s: Option<&'a str>) -> PartValue<'a> {
        s.map_or(PartValue::Null, PartValue::Str)
    }
}

impl From<Option<u64>> for PartValue<'_> {
    fn from(n: Option<u64>) -> Self {
        n.map_or(PartValue::Null, PartValue::U64)
    }
}

/// What a record of a container other than mail says of the URLs found
/// in it, shared by them: the one place its fields are named. The JSON
/// of a match carries it as its `record` object (`index` and `offset`,
/// then [`RecordPart::fields`]), both JSON writers and the Python module
/// read it through [`RecordPart::fields`], and the statistics through
/// [`RecordPart::page`] and [`RecordPart::date`]. A new container
/// implements it in its own file; nothing else names its fields.
pub trait RecordPart: Debug + Send + Sync + 'static {
    /// The container's name (`web`).
    fn kind(&self) -> &'static str;

    /// Calls `field` with each field of its JSON object after `index`
    /// and `offset`, in the order they are written.
    fn fields<'s>(
        &'s self,
        field: &mut dyn FnMut(&'static str, PartValue<'s>),
    );

    /// The page (URI) the record came from, for `--by site`.
    fn page(&self) -> Option<&str> {
        None
    }

    /// When the record was made, RFC 3339 in UTC, for `--by` periods.
    fn date(&self) -> Option<&str> {
        None
    }

    /// Itself, to be downcast to the container's type.
    fn as_any(&self) -> &dyn Any;
}

/// What a record of a container other than mail says of a URL.
#[derive(Clone, Copy, Debug)]
pub struct PartFields<'a> {
    /// The record's part, shared by its URLs.
    pub part: &'a Arc<dyn RecordPart>,
    /// Where in its HTML payload the URL was, when that was asked for
    /// ([`crate::DriverBuilder::html_context`]).
    pub html: Option<&'a Arc<HtmlLink>>,
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
