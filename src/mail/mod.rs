//! Mail and news awareness: message framing, MIME transfer decoding, and
//! URLs per message.
//!
//! Raw mail hides URLs behind transfer encodings: a quoted-printable soft
//! line break cuts a URL in two, `=3D` stands for `=`, and base64 text
//! parts hide their URLs completely. [`MailFinder`] wraps a
//! [`crate::Finder`] and, for each message of a file, scans
//!
//! - the header fields (folds read as RFC 5322 §2.2.3 says), for URLs such as those
//!   of `List-Unsubscribe`, `List-Archive`, `List-Help`, `List-Post`
//!   (RFC 2369) and `Archived-At` (RFC 5064) — but never the message
//!   identifiers of `Message-ID`, `References`, `In-Reply-To`,
//!   `Content-ID`, `Resent-Message-ID`, `Supersedes`, nor the trace,
//!   date and signature fields (`Received`, `Return-Path`,
//!   `Delivered-To` and the other envelope records, `Date`,
//!   `DKIM-Signature`, `ARC-*`, `Authentication-Results`), which hold no
//!   URLs;
//! - the body, walking multipart entities by their boundaries (RFC 2046
//!   §5.1, nested, at most 32 deep) and `message/rfc822` parts (§5.2):
//!   `text/*` parts are decoded from quoted-printable or base64 (RFC 2045
//!   §6.7, §6.8), unflowed when `format=flowed` (RFC 3676 §4.2), and
//!   `text/html` parts have their character references decoded (`&amp;`
//!   → `&`) so that `href`/`src` values and the text read as a browser
//!   reads them. Parts that are neither text nor identity-encoded
//!   (base64 images, attachments) are skipped, which is also where most
//!   of a spool's bytes are. Identity-encoded parts of any type are
//!   scanned as they are, so the mail scan misses nothing a raw scan of
//!   them finds.
//!
//! Every match points into the original bytes: decoders keep a map from
//! decoded positions back to the source, and a match says whether its
//! text differs from the bytes its span covers ([`MailMatch::decoded`]).
//! Charsets are not converted: the scanner reads bytes, and a byte that is
//! not UTF-8 ends a URL as it does in a raw scan.
//!
//! Memory is bounded per search: a message longer than
//! [`MailFinderBuilder::whole_message_len`] is read as a stream, its
//! header, parts and decoders carrying their state from one piece to the
//! next, so that a part of any length is decoded and searched.
//!
//! ```
//! use urlgrep::mail::{Format, Location, MailFinder};
//! let msg = b"Message-ID: <1@example.org>\n\
//!     List-Archive: <https://lists.example.org/archive/>\n\
//!     Content-Type: text/plain\n\
//!     Content-Transfer-Encoding: quoted-printable\n\
//!     \n\
//!     See https://example.org/a?b=3Dc&d=\n\
//!     =3De now.\n";
//! let finder = MailFinder::new(urlgrep::Finder::new());
//! let found = finder.matches(msg, Format::sniff(msg));
//! assert_eq!(found.len(), 2);
//! assert_eq!(found[0].location(), Location::Header);
//! assert_eq!(found[1].as_match().url(), b"https://example.org/a?b=c&d=e");
//! assert!(found[1].decoded());
//! let span = found[1].as_match().span();
//! assert_eq!(&msg[span.start..span.end], b"https://example.org/a?b=3Dc&d=\n=3De");
//! assert_eq!(found[1].message_id(), Some(&b"<1@example.org>"[..]));
//! ```

mod config;
pub mod date;
mod decode;
pub mod encoded_word;
mod field_cache;
mod finder;
mod frame;
pub(crate) mod header;
pub mod html;
mod leaf;
pub mod lines;
mod map;
mod meta;
mod quanta;
mod repair;
mod stage;
mod stream;
#[cfg(test)]
mod tests;
mod walk;

pub use config::MailFinder;
pub use finder::MailFinderBuilder;
pub use frame::{
    is_separator, messages, next_separator, Format, Message, Messages,
};
pub use html::{HtmlDocument, HtmlLink};
pub use lines::{LineContext, TextLine, TextLines};
pub use meta::{mailbox, Mailbox, Metadata};
pub use repair::{repair_iter, repair_reader, RepairIter, Repaired};

use crate::parse::Reject;
use crate::scan::Span;
use crate::search::Match;
use std::borrow::Cow;
use std::convert::Infallible;
use std::sync::Arc;

/// Where in a message a URL was.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    /// In a header field (of the message or of a body part).
    Header,
    /// In a body.
    Body,
}

impl Location {
    /// `header` or `body`.
    pub fn name(self) -> &'static str {
        match self {
            Location::Header => "header",
            Location::Body => "body",
        }
    }
}

/// The transfer encoding of the text a URL was found in.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Encoding {
    /// The bytes as they are (`7bit`, `8bit`, `binary`, none, headers).
    Identity,
    /// `quoted-printable`, decoded (RFC 2045 §6.7).
    QuotedPrintable,
    /// `base64`, decoded (RFC 2045 §6.8).
    Base64,
    /// Raw quoted-printable repaired ([`MailFinderBuilder::qp_repair`]).
    QpRepair,
}

impl Encoding {
    /// `identity`, `quoted-printable`, `base64` or `qp-repair`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Identity => "identity",
            Encoding::QuotedPrintable => "quoted-printable",
            Encoding::Base64 => "base64",
            Encoding::QpRepair => "qp-repair",
        }
    }
}

/// A URL found in a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailMatch<'a> {
    m: Match<'a>,
    origin: u64,
    message: usize,
    message_span: Span,
    message_id: Option<Cow<'a, [u8]>>,
    meta: Option<Arc<Metadata>>,
    html: Option<Arc<HtmlLink>>,
    lines: Option<LineContext>,
    part: usize,
    location: Location,
    encoding: Encoding,
    decoded: bool,
    reject: Option<Reject>,
}

impl<'a> MailMatch<'a> {
    /// The match. Its span covers the original bytes of the URL in the
    /// searched slice (encoded characters, soft line breaks and folds
    /// included; in a reader search, in the internal buffer: use
    /// [`MailMatch::offset`]); its URL is the decoded text.
    pub fn as_match(&self) -> &Match<'a> {
        &self.m
    }

    /// Absolute offset of the first byte of the match: its span's start
    /// in a slice search, in the whole input in a reader search.
    pub fn offset(&self) -> u64 {
        self.origin + self.m.span().start as u64
    }

    /// Absolute offset one past the last byte of the match.
    pub fn end_offset(&self) -> u64 {
        self.origin + self.m.span().end as u64
    }

    /// Absolute offset of the message (its separator line, in an mbox).
    pub fn message_offset(&self) -> u64 {
        self.origin + self.message_span.start as u64
    }

    /// Index of the message in the searched slice or reader, from 0.
    pub fn message(&self) -> usize {
        self.message
    }

    /// Where the message is in the searched slice (in a reader search,
    /// in the internal buffer: use [`MailMatch::message_offset`]).
    pub fn message_span(&self) -> Span {
        self.message_span
    }

    /// The message's `Message-ID`, as written.
    pub fn message_id(&self) -> Option<&[u8]> {
        self.message_id.as_deref()
    }

    /// The message's metadata, when the finder was asked for it
    /// ([`MailFinderBuilder::metadata`]); shared by the message's matches.
    pub fn metadata(&self) -> Option<&Arc<Metadata>> {
        self.meta.as_ref()
    }

    /// Where in its `text/html` part the URL was, when the finder was
    /// asked for it ([`MailFinderBuilder::html_context`]).
    pub fn html(&self) -> Option<&Arc<HtmlLink>> {
        self.html.as_ref()
    }

    /// The lines of the searched text around the URL, when the finder
    /// was asked for them ([`MailFinderBuilder::lines`]) and decoding
    /// changed the text (see the [`lines`] module).
    pub fn lines(&self) -> Option<&LineContext> {
        self.lines.as_ref()
    }

    /// The MIME entity the URL was in, numbered as Python's
    /// `Message.walk()` visits them: the message itself is 0, then its
    /// parts depth first.
    pub fn part(&self) -> usize {
        self.part
    }

    /// Header or body.
    pub fn location(&self) -> Location {
        self.location
    }

    /// The transfer encoding of the text the URL was found in.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Whether the URL's text differs from the bytes its span covers:
    /// decoding, unfolding, unflowing or HTML references changed it.
    pub fn decoded(&self) -> bool {
        self.decoded
    }

    /// Why the validator rejected the candidate, when it did: only with
    /// [`MailFinderBuilder::rejects`]; `None` for a URL.
    pub fn reject(&self) -> Option<Reject> {
        self.reject
    }

    /// An owned copy.
    pub fn into_owned(self) -> MailMatch<'static> {
        MailMatch {
            m: self.m.into_owned(),
            message_id: self.message_id.map(|c| Cow::Owned(c.into_owned())),
            ..self
        }
    }
}

/// Receives the results of [`MailFinder::find`]. A closure
/// `FnMut(&MailMatch) -> bool` is a sink that never fails.
pub trait MailSink {
    /// The error the sink may fail with.
    type Error;

    /// A URL (or a rejected candidate, with
    /// [`MailFinderBuilder::rejects`]: [`MailMatch::reject`] says).
    /// Return `Ok(false)` to stop the search.
    fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, Self::Error>;

    /// Whether [`MailSink::matched`] reads no more of a match than its
    /// [`MailMatch::as_match`], [`MailMatch::offset`],
    /// [`MailMatch::end_offset`] and [`MailMatch::reject`]: then the
    /// search may hand an accepted URL to [`MailSink::matched_url`]
    /// instead, with no [`MailMatch`] filled for it (a URL of a dense
    /// text cost ~40 instructions less, issue 33). Asked once a text.
    /// By default, `false`.
    fn reads_urls_alone(&self) -> bool {
        false
    }

    /// An accepted URL, for a sink whose [`MailSink::reads_urls_alone`]
    /// is `true`: `m` is what [`MailMatch::as_match`] gives, and
    /// `origin` the absolute offset its span counts from (the
    /// [`MailMatch::offset`] is `origin + m.span().start`). Return
    /// `Ok(false)` to stop the search. By default, the URL is passed
    /// over: a sink that says `true` above gives this too.
    fn matched_url(
        &mut self,
        m: &Match<'_>,
        origin: u64,
    ) -> Result<bool, Self::Error> {
        let _ = (m, origin);
        Ok(true)
    }

    /// `n` more rejected candidates, counted and not handed to
    /// [`MailSink::matched`] (without [`MailFinderBuilder::rejects`], or
    /// in a message read as a stream): a rejected candidate is a
    /// candidate, and a sink that counts them (`--json`'s `rejected`)
    /// counts these. Said after the matches of the text they were found
    /// in. By default, ignored.
    fn rejected(&mut self, n: u64) {
        let _ = n;
    }

    /// A message, before its URLs. Return `Ok(false)` to stop. By default,
    /// ignored.
    fn message(&mut self, msg: &Message<'_>) -> Result<bool, Self::Error> {
        let _ = msg;
        Ok(true)
    }

    /// No match will come before absolute offset `offset` (in a reader
    /// search, said as a long message is read, so that a sink keeping
    /// what it needs for matches to come, such as line starts, can drop
    /// the rest). By default, ignored.
    fn settled(&mut self, offset: u64) {
        let _ = offset;
    }

    /// A limit was met at absolute offset `offset` (`what` says which and
    /// what was done: the bytes are still searched, as stored). By
    /// default, ignored.
    fn limit(&mut self, offset: u64, what: &'static str) {
        let _ = (offset, what);
    }
}

/// What [`MailSink::limit`] says when a multipart or message nests
/// deeper than the walk follows (32 levels).
pub const TOO_DEEP: &str =
    "MIME nesting deeper than 32 levels: this part is searched as stored";

impl<F: FnMut(&MailMatch<'_>) -> bool> MailSink for F {
    type Error = Infallible;

    fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, Infallible> {
        Ok(self(m))
    }
}
