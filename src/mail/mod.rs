//! Mail and news awareness: message framing, MIME transfer decoding, and
//! URLs per message.
//!
//! Raw mail hides URLs behind transfer encodings: a quoted-printable soft
//! line break cuts a URL in two, `=3D` stands for `=`, and base64 text
//! parts hide their URLs completely. [`MailFinder`] wraps a
//! [`Finder`] and, for each message of a file, scans
//!
//! - the header fields (folds read as RFC 5322 §2.2.3 says), for URLs such as those
//!   of `List-Unsubscribe`, `List-Archive`, `List-Help`, `List-Post`
//!   (RFC 2369) and `Archived-At` (RFC 5064) — but never the message
//!   identifiers of `Message-ID`, `References`, `In-Reply-To`,
//!   `Content-ID`, `Resent-Message-ID`, `Supersedes`, nor the trace,
//!   date and signature fields (`Received`, `Date`, `DKIM-Signature`,
//!   `ARC-*`, `Authentication-Results`), which hold no URLs;
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
//! Decoding is bounded per part: a part longer than
//! [`MailFinderBuilder::max_part_len`] is scanned raw.
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

mod decode;
mod field_cache;
mod frame;
pub(crate) mod header;
mod map;
mod repair;

pub use frame::{
    is_separator, messages, next_separator, Format, Message, Messages,
};
pub use repair::{repair_iter, RepairIter, Repaired};

use crate::scan::Span;
use crate::search::{Finder, Match};
use header::{Field, Mime, TransferEncoding};
use map::{Layers, Map};
use std::borrow::Cow;
use std::cell::RefCell;
use std::convert::Infallible;
use std::io::{self, Read};
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
    part: usize,
    location: Location,
    encoding: Encoding,
    decoded: bool,
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

    /// A URL. Return `Ok(false)` to stop the search.
    fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, Self::Error>;

    /// A message, before its URLs. Return `Ok(false)` to stop. By default,
    /// ignored.
    fn message(&mut self, msg: &Message<'_>) -> Result<bool, Self::Error> {
        let _ = msg;
        Ok(true)
    }
}

impl<F: FnMut(&MailMatch<'_>) -> bool> MailSink for F {
    type Error = Infallible;

    fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, Infallible> {
        Ok(self(m))
    }
}

/// Builds a [`MailFinder`].
#[derive(Clone, Debug)]
pub struct MailFinderBuilder {
    cfg: Config,
}

#[derive(Clone, Debug)]
struct Config {
    headers: bool,
    html: bool,
    max_part: usize,
    qp_repair: bool,
    field_cache: bool,
}

impl Default for MailFinderBuilder {
    fn default() -> MailFinderBuilder {
        MailFinderBuilder {
            cfg: Config {
                headers: true,
                html: true,
                max_part: 16 << 20,
                qp_repair: false,
                field_cache: true,
            },
        }
    }
}

impl MailFinderBuilder {
    /// A builder with the defaults.
    pub fn new() -> MailFinderBuilder {
        MailFinderBuilder::default()
    }

    /// Scan header fields (identifier, trace, date and signature fields
    /// excepted). By default,
    /// headers are scanned.
    pub fn headers(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.headers = yes;
        self
    }

    /// Decode HTML character references in `text/html` parts. By default,
    /// they are decoded.
    pub fn html(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.html = yes;
        self
    }

    /// The longest body part that is decoded; a longer one is scanned raw,
    /// so memory stays bounded by this length per search. By default,
    /// 16 MiB.
    pub fn max_part_len(&mut self, len: usize) -> &mut MailFinderBuilder {
        self.cfg.max_part = len;
        self
    }

    /// Repair raw quoted-printable in identity-encoded text parts (see
    /// [`repair_iter`]); such matches have [`Encoding::QpRepair`]. By
    /// default, no repair.
    pub fn qp_repair(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.qp_repair = yes;
        self
    }

    /// Remember the matches of header fields met before, per thread, and
    /// answer a field met again from them (see `DESIGN.md`). Off, every
    /// field is scanned: the same matches, found more slowly; for tests
    /// and side-by-side measurements. By default, on.
    pub fn field_cache(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.field_cache = yes;
        self
    }

    /// Builds the mail finder around `finder`.
    pub fn build(&self, finder: Finder) -> MailFinder {
        MailFinder { finder, cfg: Arc::new(self.cfg.clone()) }
    }
}

/// Finds URLs message by message; see the [module docs](self). Reusable
/// and cheap to clone.
#[derive(Clone, Debug)]
pub struct MailFinder {
    finder: Finder,
    cfg: Arc<Config>,
}

impl MailFinder {
    /// A mail finder with the default settings around `finder`.
    pub fn new(finder: Finder) -> MailFinder {
        MailFinderBuilder::new().build(finder)
    }

    /// A builder to configure a mail finder.
    pub fn builder() -> MailFinderBuilder {
        MailFinderBuilder::new()
    }

    /// The URL finder it wraps.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Searches every message of `hay` (framed as `format` says; see
    /// [`messages`]; [`Format::Unknown`] is read as one message), pushing
    /// each message and then its URLs into `sink`, in order. Spans are
    /// relative to `hay`.
    pub fn find<S: MailSink>(
        &self,
        hay: &[u8],
        format: Format,
        sink: &mut S,
    ) -> Result<(), S::Error> {
        with_scratch(|scratch| {
            self.search_all(hay, format, 0, 0, scratch, sink).map(|_| ())
        })
    }

    /// Searches one message of `hay` (from [`messages`] or
    /// [`Message::new`]); returns `Ok(false)` when the sink stopped.
    pub fn find_message<S: MailSink>(
        &self,
        hay: &[u8],
        msg: &Message<'_>,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        with_scratch(|scratch| self.search(hay, msg, None, 0, scratch, sink))
    }

    /// Every match of [`MailFinder::find`], owned.
    pub fn matches(
        &self,
        hay: &[u8],
        format: Format,
    ) -> Vec<MailMatch<'static>> {
        let mut out = Vec::new();
        let Ok(()) = self.find(hay, format, &mut |m: &MailMatch<'_>| {
            out.push(m.clone().into_owned());
            true
        });
        out
    }

    /// Searches a reader as [`MailFinder::find`] searches a slice, with
    /// bounded memory for an mbox: messages are read in chunks of about
    /// 1 MiB, cut at separator lines, and searched as each chunk is
    /// complete; [`MailMatch::offset`] and [`MailMatch::message`] count
    /// from the start of the reader. A message longer than
    /// [`MailFinderBuilder::max_part_len`] is searched in pieces (its
    /// later pieces without its header). Any other format is read whole:
    /// it is one message.
    pub fn find_reader<R: Read, S: MailSink>(
        &self,
        mut rdr: R,
        format: Format,
        sink: &mut S,
    ) -> Result<(), S::Error>
    where
        S::Error: From<io::Error>,
    {
        let mut buf = Vec::new();
        let mut scratch = Scratch::default();
        let (mut origin, mut index) = (0u64, 0usize);
        let chunk = 1 << 20;
        loop {
            let eof = if format == Format::Mbox {
                let n = (&mut rdr).take(chunk as u64).read_to_end(&mut buf)?;
                n == 0
            } else {
                rdr.read_to_end(&mut buf)?;
                true
            };
            let cut = if eof {
                buf.len()
            } else {
                match last_separator(&buf) {
                    Some(at) if at > 0 => at,
                    _ if buf.len() > self.cfg.max_part.max(chunk) => buf.len(),
                    _ => continue,
                }
            };
            let hay = &buf[..cut];
            let Some(count) = self.search_all(
                hay,
                format,
                origin,
                index,
                &mut scratch,
                sink,
            )?
            else {
                return Ok(());
            };
            index += count;
            origin += cut as u64;
            buf.drain(..cut);
            if eof {
                return Ok(());
            }
        }
    }

    /// Frames `hay` as `format` says and searches each message, the
    /// first numbered `index`, `hay` starting at absolute offset
    /// `origin`; the number of messages, or `None` when the sink
    /// stopped. An mbox message is framed with the walk of its header
    /// ([`frame::frame_mbox`]), which the search then reuses.
    fn search_all<S: MailSink>(
        &self,
        hay: &[u8],
        format: Format,
        origin: u64,
        index: usize,
        scratch: &mut Scratch,
        sink: &mut S,
    ) -> Result<Option<usize>, S::Error> {
        let mut count = 0;
        if format != Format::Mbox {
            for mut msg in messages(hay, format) {
                msg.index += index;
                msg.origin = origin;
                count += 1;
                if !sink.message(&msg)?
                    || !self.search(hay, &msg, None, origin, scratch, sink)?
                {
                    return Ok(None);
                }
            }
            return Ok(Some(count));
        }
        let mut start = 0;
        while start < hay.len() {
            let mut fields = std::mem::take(&mut scratch.fields);
            let framed = frame::frame_mbox(hay, start, &mut fields);
            scratch.fields = fields;
            let span = Span { start, end: framed.end };
            let mut msg = Message::new(hay, index + count, span);
            msg.origin = origin;
            count += 1;
            if !sink.message(&msg)?
                || !self.search(
                    hay,
                    &msg,
                    framed.split,
                    origin,
                    scratch,
                    sink,
                )?
            {
                return Ok(None);
            }
            start = framed.end.max(start + 1);
        }
        Ok(Some(count))
    }

    /// Searches one message; `split`: its header block and body, already
    /// split, with the header's fields in `scratch.fields`.
    fn search<S: MailSink>(
        &self,
        hay: &[u8],
        msg: &Message<'_>,
        split: Option<(Span, Span)>,
        origin: u64,
        scratch: &mut Scratch,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        if msg.span.end > hay.len() {
            // A message framed from another slice: nothing to search.
            return Ok(true);
        }
        let mut walk = Walk {
            mf: self,
            hay,
            msg,
            part: 0,
            scratch,
            sink,
            origin,
            id: None,
        };
        match split {
            Some((header, body)) => walk.split_entity(header, body, 0, false),
            None => walk.entity(msg.span, 0, true, false),
        }
    }
}

/// The scratch buffers of this thread's searches: a folder of small
/// messages would otherwise grow new ones for each file (allocation and
/// `realloc` copies were about 5% of `-j1` on the SpamAssassin folder).
/// A search that starts inside a sink's callback on the same thread gets
/// buffers of its own.
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            let out = f(&mut scratch);
            scratch.trim();
            out
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Buffers reused across the parts of a search.
#[derive(Default)]
struct Scratch {
    /// Header text between skipped fields.
    runs: Vec<Span>,
    /// Where the fields that are scanned start in the header block, and
    /// in the run being scanned.
    starts: Vec<usize>,
    in_run: Vec<usize>,
    /// The matches of header fields met before.
    seen: field_cache::FieldCache,
    /// The fields of the header being read.
    fields: Vec<Field>,
    a: Vec<u8>,
    b: Vec<u8>,
    c: Vec<u8>,
    ma: Map,
    mb: Map,
    mc: Map,
}

impl Scratch {
    /// Buffers kept between searches are at most this big (bytes); a
    /// bigger one (a long decoded part) is given back, so that what a
    /// thread keeps stays small whatever it searched.
    const KEEP: usize = 1 << 20;

    /// Drops the buffers that grew past [`Scratch::KEEP`].
    fn trim(&mut self) {
        let big = |bytes: usize| bytes > Scratch::KEEP;
        if big(self.runs.capacity() * std::mem::size_of::<Span>())
            || big(self.fields.capacity() * std::mem::size_of::<Field>())
            || big(self.a.capacity())
            || big(self.b.capacity())
            || big(self.c.capacity())
            || big(self.ma.bytes())
            || big(self.mb.bytes())
            || big(self.mc.bytes())
        {
            *self = Scratch::default();
        }
    }
}

/// Deepest multipart nesting that is walked; deeper parts are scanned raw.
const MAX_DEPTH: usize = 32;

struct Walk<'w, 'h, S> {
    mf: &'w MailFinder,
    /// The message's `Message-ID`, read with its header.
    id: Option<&'h [u8]>,
    /// Absolute offset of `hay[0]`.
    origin: u64,
    hay: &'h [u8],
    msg: &'w Message<'h>,
    part: usize,
    scratch: &'w mut Scratch,
    sink: &'w mut S,
}

impl<'h, S: MailSink> Walk<'_, 'h, S> {
    /// Scans one entity (a message or a body part) at `span`: its header,
    /// then its body by its media type. `digest`: a missing type means
    /// `message/rfc822` (RFC 2046 §5.1.5).
    fn entity(
        &mut self,
        span: Span,
        depth: usize,
        message: bool,
        digest: bool,
    ) -> Result<bool, S::Error> {
        let hay = self.hay;
        // One pass finds where the header ends and its fields.
        let mut fields = std::mem::take(&mut self.scratch.fields);
        fields.clear();
        let (h, b) = header::split_fields(
            &hay[span.start..span.end],
            message,
            Some(&mut fields),
        );
        self.scratch.fields = fields;
        let shift = |s: Span| Span {
            start: span.start + s.start,
            end: span.start + s.end,
        };
        self.split_entity(shift(h), shift(b), depth, digest)
    }

    /// Scans an entity split into its header block `h` and its `body`
    /// (in the slice), the header's fields (relative to `h`) in
    /// `scratch.fields`; see [`Walk::entity`].
    fn split_entity(
        &mut self,
        h: Span,
        body: Span,
        depth: usize,
        digest: bool,
    ) -> Result<bool, S::Error> {
        let hay = self.hay;
        let part = self.part;
        self.part += 1;
        let fields = std::mem::take(&mut self.scratch.fields);
        let block = &hay[h.start..h.end];
        let mime = self.headers(h.start, block, &fields, part, depth == 0);
        self.scratch.fields = fields;
        let Some(mime) = mime? else {
            return Ok(false);
        };
        if depth < MAX_DEPTH {
            if mime.is(b"multipart/") {
                if let Some(boundary) = mime.boundary {
                    let parts =
                        split_multipart(&hay[body.start..body.end], boundary);
                    if let (Some(first), Some(last)) =
                        (parts.first().copied(), parts.last().copied())
                    {
                        // The preamble and the epilogue (where mailing
                        // lists add their footers) are scanned as they
                        // are, so that nothing a raw scan finds is lost.
                        let plain = Mime::default();
                        let preamble = Span {
                            start: body.start,
                            end: body.start + first.start,
                        };
                        if !self.leaf(preamble, &plain, part)? {
                            return Ok(false);
                        }
                        let digest = mime.is(b"multipart/digest");
                        for p in parts {
                            let p = Span {
                                start: body.start + p.start,
                                end: body.start + p.end,
                            };
                            if !self.entity(p, depth + 1, false, digest)? {
                                return Ok(false);
                            }
                        }
                        let epilogue = Span {
                            start: body.start + last.end,
                            end: body.end,
                        };
                        return self.leaf(epilogue, &plain, part);
                    }
                }
            } else if mime.is(b"message/rfc822")
                || mime.is(b"message/news")
                || mime.is(b"message/global")
                || (digest && mime.content_type.is_empty())
            {
                return self.entity(body, depth + 1, true, false);
            }
        }
        self.leaf(body, &mime, part)
    }

    /// Scans the fields of a header block that starts at `at`, message
    /// identifiers and the other skipped fields left out (see
    /// `header::is_skipped_field`), and reads its MIME fields on the way; `None`
    /// when the sink stopped.
    ///
    /// Folded fields are scanned as they are, not unfolded: a fold is a
    /// line break before a blank (RFC 5322 §2.2.3), and a URL ends at the
    /// blank whether the line break is there or not, while inside `<…>`
    /// the scanner removes the whitespace. Runs of fields between
    /// skipped fields are scanned in place, with no copy.
    fn headers(
        &mut self,
        at: usize,
        block: &'h [u8],
        fields: &[Field],
        part: usize,
        top: bool,
    ) -> Result<Option<Mime<'h>>, S::Error> {
        let mut mime = Mime::default();
        let mut runs = std::mem::take(&mut self.scratch.runs);
        runs.clear();
        let mut starts = std::mem::take(&mut self.scratch.starts);
        starts.clear();
        let mut run = 0;
        for f in fields {
            let name = &block[f.name.start..f.name.end];
            let value = &block[f.value.start..f.value.end];
            mime.field(name, value);
            if top
                && self.id.is_none()
                && name.eq_ignore_ascii_case(b"message-id")
            {
                self.id = Some(value.trim_ascii()).filter(|v| !v.is_empty());
            }
            if header::is_skipped_field(name) {
                runs.push(Span { start: run, end: f.name.start });
                run = f.value.end;
            } else {
                starts.push(f.name.start);
            }
        }
        runs.push(Span { start: run, end: block.len() });
        let mut go_on = true;
        if self.mf.cfg.headers {
            let ctx = Context {
                part,
                location: Location::Header,
                encoding: Encoding::Identity,
                base: 0,
                origin: self.origin,
            };
            let layers = Layers::default();
            let mut in_run = std::mem::take(&mut self.scratch.in_run);
            let mut next = starts.iter().peekable();
            for r in &runs {
                let text = &self.hay[at + r.start..at + r.end];
                // The fields of the run, where they start in it.
                in_run.clear();
                while let Some(&&s) = next.peek() {
                    if s >= r.end {
                        break;
                    }
                    in_run.push(s.saturating_sub(r.start));
                    next.next();
                }
                // Blanks and line breaks alone hold no URL: half the runs
                // of a spam header are the line break between two
                // `Received` fields.
                if text.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let ctx = Context { base: at + r.start, ..ctx };
                go_on = if self.mf.cfg.field_cache {
                    let found = field_cache::matches(
                        &self.mf.finder,
                        &mut self.scratch.seen,
                        text,
                        &in_run,
                    )
                    .map(|m| (m, false));
                    emit_all(
                        self.hay, self.msg, self.id, text, &layers, &ctx,
                        found, self.sink,
                    )?
                } else {
                    emit(
                        self.mf, self.hay, self.msg, self.id, text, &layers,
                        &ctx, false, self.sink,
                    )?
                };
                if !go_on {
                    break;
                }
            }
            self.scratch.in_run = in_run;
        }
        self.scratch.runs = runs;
        self.scratch.starts = starts;
        Ok(go_on.then_some(mime))
    }

    /// Scans a body that is not multipart.
    fn leaf(
        &mut self,
        body: Span,
        mime: &Mime<'_>,
        part: usize,
    ) -> Result<bool, S::Error> {
        let hay = self.hay;
        let raw = &hay[body.start..body.end];
        let cfg = &self.mf.cfg;
        let text_type = mime.is(b"text/");
        let mut encoding = match mime.encoding {
            TransferEncoding::Identity => Encoding::Identity,
            TransferEncoding::QuotedPrintable => Encoding::QuotedPrintable,
            TransferEncoding::Base64 => Encoding::Base64,
        };
        if encoding == Encoding::Base64 {
            // Text after the last base64 line (a mailing list's footer
            // added to a base64 part) is scanned as it is.
            let cut = decode::base64_end(raw);
            if cut < raw.len() {
                let tail = Span { start: body.start + cut, end: body.end };
                let plain =
                    Mime { encoding: TransferEncoding::Identity, ..*mime };
                let head = Span { start: body.start, end: body.start + cut };
                return Ok(self.leaf(head, mime, part)?
                    && self.leaf(tail, &plain, part)?);
            }
        }
        if encoding != Encoding::Identity && !text_type {
            // Images, attachments: skipped.
            return Ok(true);
        }
        if raw.len() > cfg.max_part {
            encoding = Encoding::Identity;
        }
        let sc = &mut *self.scratch;
        for (buf, map) in [
            (&mut sc.a, &mut sc.ma),
            (&mut sc.b, &mut sc.mb),
            (&mut sc.c, &mut sc.mc),
        ] {
            buf.clear();
            map.clear();
        }
        // Each step reads `text` and writes the next free buffer.
        let mut layers: Vec<&Map> = Vec::new();
        let mut text: &[u8] = raw;
        match encoding {
            Encoding::QuotedPrintable => {
                decode::quoted_printable(raw, &mut sc.a, &mut sc.ma);
                text = &sc.a;
                layers.push(&sc.ma);
            }
            Encoding::Base64 => {
                decode::base64(
                    raw, &mut sc.b, &mut sc.mb, &mut sc.a, &mut sc.ma,
                );
                text = &sc.a;
                layers.push(&sc.mb);
                layers.push(&sc.ma);
            }
            _ => {}
        }
        let decoding = encoding != Encoding::Identity;
        if decoding && mime.flowed && mime.is(b"text/plain") {
            decode::unflow(text, mime.delsp, &mut sc.c, &mut sc.mc);
            text = &sc.c;
            layers.push(&sc.mc);
        } else if cfg.html
            && mime.is(b"text/html")
            && memchr::memchr(b'&', text).is_some()
        {
            decode::html_references(text, &mut sc.c, &mut sc.mc);
            text = &sc.c;
            layers.push(&sc.mc);
        }
        let repair =
            cfg.qp_repair && encoding == Encoding::Identity && text_type;
        let ctx = Context {
            part,
            location: Location::Body,
            encoding,
            base: body.start,
            origin: self.origin,
        };
        let layers = Layers { maps: layers };
        emit(
            self.mf, hay, self.msg, self.id, text, &layers, &ctx, repair,
            self.sink,
        )
    }
}

/// Where the text being scanned sits.
#[derive(Clone, Copy)]
struct Context {
    part: usize,
    location: Location,
    encoding: Encoding,
    /// Offset in the slice of position 0 of the first layer's source.
    base: usize,
    /// Absolute offset of the slice.
    origin: u64,
}

/// Scans `text`, maps each match back through `layers`, and pushes it.
#[allow(clippy::too_many_arguments)]
fn emit<S: MailSink>(
    mf: &MailFinder,
    hay: &[u8],
    msg: &Message<'_>,
    id: Option<&[u8]>,
    text: &[u8],
    layers: &Layers<'_>,
    ctx: &Context,
    repair: bool,
    sink: &mut S,
) -> Result<bool, S::Error> {
    if repair {
        let found = repair_iter(&mf.finder, text).map(|r| {
            let repaired = r.is_repaired();
            (r.into_match(), repaired)
        });
        emit_all(hay, msg, id, text, layers, ctx, found, sink)
    } else {
        let found = mf.finder.find_iter(text).map(|m| (m, false));
        emit_all(hay, msg, id, text, layers, ctx, found, sink)
    }
}

/// Maps each match `found` in `text` back through `layers`, and pushes
/// it; the flag says whether quoted-printable repair made it.
#[allow(clippy::too_many_arguments)]
fn emit_all<'t, S: MailSink>(
    hay: &[u8],
    msg: &Message<'_>,
    id: Option<&[u8]>,
    text: &[u8],
    layers: &Layers<'_>,
    ctx: &Context,
    found: impl Iterator<Item = (Match<'t>, bool)>,
    sink: &mut S,
) -> Result<bool, S::Error> {
    debug_assert!(
        !layers.maps.is_empty()
            || hay.get(ctx.base..ctx.base + text.len()) == Some(text)
    );
    for (m, repaired) in found {
        let decoded_span = m.span;
        let (s, e) = layers.range(decoded_span.start, decoded_span.end);
        let span = Span { start: ctx.base + s, end: ctx.base + e };
        // With no layer, `text` is `hay` from `ctx.base` on, and a match
        // is its original bytes: only decoded text needs the compare.
        let decoded = repaired
            || (!layers.maps.is_empty()
                && hay.get(span.start..span.end)
                    != text.get(decoded_span.start..decoded_span.end));
        let mm = MailMatch {
            m: Match { span, ..m },
            origin: ctx.origin,
            message: msg.index,
            message_span: msg.span,
            message_id: id.map(Cow::Borrowed),
            part: ctx.part,
            location: ctx.location,
            encoding: if repaired { Encoding::QpRepair } else { ctx.encoding },
            decoded,
        };
        if !sink.matched(&mm)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The start of the last separator line of `buf` whose line is complete.
fn last_separator(buf: &[u8]) -> Option<usize> {
    memchr::memmem::rfind_iter(buf, b"\nFrom ").map(|k| k + 1).find(|&at| {
        memchr::memchr(b'\n', &buf[at..]).is_some() && is_separator(buf, at)
    })
}

/// The body parts of a multipart body (RFC 2046 §5.1.1): each starts after
/// a delimiter line `--boundary` and ends before the line break that
/// precedes the next delimiter; the close delimiter `--boundary--` ends
/// the list. Preamble and epilogue are not parts.
fn split_multipart(body: &[u8], boundary: &[u8]) -> Vec<Span> {
    let mut needle = Vec::with_capacity(boundary.len() + 2);
    needle.extend_from_slice(b"--");
    needle.extend_from_slice(boundary);
    let mut parts = Vec::new();
    let mut open: Option<usize> = None;
    for k in memchr::memmem::find_iter(body, &needle) {
        if k > 0 && body[k - 1] != b'\n' {
            continue;
        }
        let after = &body[k + needle.len()..];
        let close = after.starts_with(b"--");
        let line_end = memchr::memchr(b'\n', after)
            .map_or(body.len(), |i| k + needle.len() + i + 1);
        let rest = &body[k + needle.len()..line_end];
        if !close && !rest.iter().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        if let Some(start) = open.take() {
            let mut end = k.saturating_sub(1).max(start);
            if end > start && body[end - 1] == b'\r' {
                end -= 1;
            }
            parts.push(Span { start, end });
        }
        if close {
            return parts;
        }
        open = Some(line_end);
    }
    // No close delimiter: the last part runs to the end.
    if let Some(start) = open {
        parts.push(Span { start, end: body.len() });
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(msg: &[u8]) -> Vec<String> {
        let f = MailFinder::new(Finder::new());
        f.matches(msg, Format::sniff(msg))
            .iter()
            .map(|m| String::from_utf8_lossy(m.as_match().url()).into_owned())
            .collect()
    }

    #[test]
    fn public_types_are_send_sync() {
        fn check<T: Send + Sync>() {}
        check::<MailFinder>();
        check::<MailMatch<'static>>();
        check::<Message<'static>>();
        check::<Repaired<'static>>();
    }

    /// A search started from a sink's callback gets its own scratch
    /// buffers and does not disturb the one that called it.
    #[test]
    fn a_search_inside_a_sink_callback() {
        let f = MailFinder::new(Finder::new());
        let outer =
            b"Subject: a\nContent-Transfer-Encoding: quoted-printable\n\n\
            see http://a.example/one=\n/two and http://b.example/\n";
        let inner = b"Subject: b\n\nhttp://c.example/\n";
        let mut seen = Vec::new();
        let mut nested = Vec::new();
        let Ok(()) = f.find(outer, Format::Message, &mut |m: &MailMatch<
            '_,
        >| {
            seen.push(m.as_match().url().to_vec());
            let Ok(()) =
                f.find(inner, Format::Message, &mut |n: &MailMatch<'_>| {
                    nested.push(n.as_match().url().to_vec());
                    true
                });
            true
        });
        assert_eq!(
            seen,
            [&b"http://a.example/one/two"[..], b"http://b.example/"]
        );
        assert_eq!(nested, [&b"http://c.example/"[..]; 2]);
        // and the thread's buffers still work afterwards
        assert_eq!(
            urls(outer),
            ["http://a.example/one/two", "http://b.example/"]
        );
    }

    #[test]
    fn multipart_epilogue_is_scanned() {
        let msg = b"Content-Type: multipart/mixed; boundary=b\n\n\
            pre http://pre.example/\n--b\n\
            Content-Type: image/png\nContent-Transfer-Encoding: base64\n\n\
            aGk=\n--b--\n\
            ___\nList: https://footer.example/listinfo\n";
        assert_eq!(
            urls(msg),
            ["http://pre.example/", "https://footer.example/listinfo"]
        );
    }

    #[test]
    fn multipart_boundaries() {
        let body = b"pre\n--b\nA: 1\n\none\n--b \r\ntwo\r\n--bc\n--b--\nepi";
        let parts = split_multipart(body, b"b");
        let texts: Vec<&[u8]> =
            parts.iter().map(|p| &body[p.start..p.end]).collect();
        assert_eq!(texts, [&b"A: 1\n\none"[..], &b"two\r\n--bc"[..]]);
    }

    #[test]
    fn identifiers_are_not_urls() {
        let msg = b"Message-ID: <http://a.b/c>\nReferences: <http://d.e/f>\nList-Help: <http://g.h/i>\n\n";
        assert_eq!(urls(msg), ["http://g.h/i"]);
    }

    #[test]
    fn nested_multipart_base64_and_html() {
        let msg = b"Content-Type: multipart/mixed; boundary=\"out\"\n\n\
--out\n\
Content-Type: multipart/alternative; boundary=in\n\n\
--in\n\
Content-Type: text/plain\n\
Content-Transfer-Encoding: base64\n\n\
c2VlIGh0dHA6Ly9leGFtcGxlLmNvbS9iNjQgbm93\n\
--in\n\
Content-Type: text/html; charset=us-ascii\n\
Content-Transfer-Encoding: quoted-printable\n\n\
<a href=3D\"http://example.com/?a=3D1&amp;b=3D2\">x</a>\n\
--in--\n\
--out\n\
Content-Type: image/png\n\
Content-Transfer-Encoding: base64\n\n\
aHR0cDovL2hpZGRlbi5leGFtcGxlLw==\n\
--out--\n";
        let f = MailFinder::new(Finder::new());
        let ms = f.matches(msg, Format::Message);
        let got: Vec<_> = ms
            .iter()
            .map(|m| {
                (
                    String::from_utf8_lossy(m.as_match().url()).into_owned(),
                    m.part(),
                    m.encoding(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("http://example.com/b64".to_string(), 2, Encoding::Base64),
                (
                    "http://example.com/?a=1&b=2".to_string(),
                    3,
                    Encoding::QuotedPrintable
                ),
            ]
        );
        let s = ms[1].as_match().span();
        assert_eq!(
            &msg[s.start..s.end],
            b"\"http://example.com/?a=3D1&amp;b=3D2\""
        );
        let s = ms[0].as_match().span();
        let enc = &msg[s.start..s.end];
        assert!(
            enc.starts_with(b"dHA6")
                || enc.starts_with(b"aHR0")
                || enc.len() > 20,
            "{enc:?}"
        );
    }

    #[test]
    fn max_part_len_scans_raw() {
        let msg = b"Content-Transfer-Encoding: quoted-printable\n\nhttp://a.b/c=3Dd\n";
        let f = MailFinder::builder().max_part_len(4).build(Finder::new());
        let ms = f.matches(msg, Format::Message);
        assert_eq!(ms[0].as_match().url(), b"http://a.b/c=3Dd");
        assert!(!ms[0].decoded());
        assert_eq!(urls(msg), ["http://a.b/c=d"]);
    }

    #[test]
    fn reader_equals_slice() {
        let mut spool = Vec::new();
        for i in 0..3000 {
            spool.extend_from_slice(
                format!(
                    "From a@b Thu Aug 22 13:17:22 2002\nMessage-ID: <{i}@x>\n\
                     \nsee http://example.com/{i} and {}\n\n",
                    "filler ".repeat(i % 500)
                )
                .as_bytes(),
            );
        }
        let f = MailFinder::new(Finder::new());
        let whole = f.matches(&spool, Format::Mbox);
        let mut got = Vec::new();
        let mut sink = Collect(&mut got);
        f.find_reader(&spool[..], Format::Mbox, &mut sink).unwrap();
        assert_eq!(whole.len(), 3000);
        assert_eq!(got.len(), whole.len());
        for (a, b) in got.iter().zip(&whole) {
            assert_eq!(a.offset(), b.offset());
            assert_eq!(a.message(), b.message());
            assert_eq!(a.message_offset(), b.message_offset());
            assert_eq!(a.as_match().url(), b.as_match().url());
            assert_eq!(a.message_id(), b.message_id());
        }
    }

    /// What a search pushes into its sink, in order, by absolute offsets
    /// (a reader search's spans are in its buffer).
    #[derive(Debug, PartialEq)]
    enum Event {
        /// Index, offset, length.
        Message(usize, u64, usize),
        /// Offset and end, message and its offset, URL, message ID,
        /// part, location, encoding, decoded.
        Match(
            (u64, u64),
            (usize, u64),
            Vec<u8>,
            Option<Vec<u8>>,
            (usize, Location, Encoding, bool),
        ),
    }

    #[derive(Default)]
    struct Events(Vec<Event>);

    impl MailSink for Events {
        type Error = io::Error;
        fn matched(&mut self, m: &MailMatch<'_>) -> io::Result<bool> {
            self.0.push(Event::Match(
                (m.offset(), m.end_offset()),
                (m.message(), m.message_offset()),
                m.as_match().url().to_vec(),
                m.message_id().map(<[u8]>::to_vec),
                (m.part(), m.location(), m.encoding(), m.decoded()),
            ));
            Ok(true)
        }
        fn message(&mut self, msg: &Message<'_>) -> io::Result<bool> {
            let len = msg.span().end - msg.span().start;
            self.0.push(Event::Message(msg.index(), msg.offset(), len));
            Ok(true)
        }
    }

    /// The search as it was before framing read the header: each message
    /// of [`messages`] searched whole, its header walked over it.
    fn find_plain(f: &MailFinder, hay: &[u8], format: Format) -> Vec<Event> {
        let mut sink = Events::default();
        for msg in messages(hay, format) {
            sink.message(&msg).unwrap();
            f.find_message(hay, &msg, &mut sink).unwrap();
        }
        sink.0
    }

    /// `find` and `find_reader` push what [`find_plain`] pushes.
    fn find_agrees(f: &MailFinder, hay: &[u8]) -> usize {
        let want = find_plain(f, hay, Format::Mbox);
        let mut got = Events::default();
        f.find(hay, Format::Mbox, &mut got).unwrap();
        assert_eq!(got.0, want, "{:?}", String::from_utf8_lossy(hay));
        let mut read = Events::default();
        f.find_reader(hay, Format::Mbox, &mut read).unwrap();
        assert_eq!(read.0, want, "{:?}", String::from_utf8_lossy(hay));
        want.len()
    }

    #[test]
    fn find_is_plain_find_every_short_spool() {
        let f = MailFinder::new(Finder::new());
        let mut events = 0;
        frame::tests::every_spool(4, |hay| events += find_agrees(&f, hay));
        assert!(events > 10_000, "{events}");
    }

    /// The bundled mail excerpts as one spool: the python-dev mbox, the
    /// SpamAssassin files (each begins with its separator line) and two
    /// blinux-list messages given one.
    fn corpora_spool() -> Vec<u8> {
        let mut spool =
            include_bytes!("../../corpora/mail/python-dev/1999-04-part.mbox")
                .to_vec();
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpora/mail/spamassassin");
        let mut files = 0;
        for sub in std::fs::read_dir(&dir).unwrap() {
            for file in std::fs::read_dir(sub.unwrap().path()).unwrap() {
                spool.extend(std::fs::read(file.unwrap().path()).unwrap());
                files += 1;
            }
        }
        assert!(files >= 8, "{files} files in {}", dir.display());
        for eml in [
            &include_bytes!("../../corpora/mail/blinux-list/00091.eml")[..],
            &include_bytes!("../../corpora/mail/blinux-list/00151.eml")[..],
        ] {
            spool.extend_from_slice(b"From a@b Thu Aug 22 13:17:22 2002\n");
            spool.extend_from_slice(eml);
        }
        spool
    }

    #[test]
    fn find_is_plain_find_corpora() {
        let spool = corpora_spool();
        let crlf = frame::tests::crlf(&spool);
        for f in [
            MailFinder::new(Finder::new()),
            MailFinder::builder().headers(false).build(Finder::new()),
        ] {
            for hay in [&spool, &crlf] {
                let events = find_agrees(&f, hay);
                assert!(events > 150, "{events}");
            }
        }
    }

    /// The cache of header fields changes no match: the excerpts, their
    /// messages twice over (the second time every field is met again),
    /// searched with the cache and without, with two scanner settings.
    #[test]
    fn the_field_cache_changes_no_match() {
        let spool = corpora_spool();
        let mut twice = spool.clone();
        twice.extend_from_slice(&spool);
        let crlf = frame::tests::crlf(&twice);
        for finder in [Finder::new(), Finder::builder().angle(false).build()] {
            let on = MailFinder::new(finder.clone());
            let off = MailFinder::builder().field_cache(false).build(finder);
            for hay in [&twice, &crlf] {
                let want = off.matches(hay, Format::Mbox);
                let got = on.matches(hay, Format::Mbox);
                let header = got
                    .iter()
                    .filter(|m| m.location() == Location::Header)
                    .count();
                assert!(header > 50, "{header} header matches");
                assert_eq!(got, want);
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn find_is_plain_find(
            kinds in proptest::collection::vec(0..frame::tests::LINES.len(), 0..40),
            crlf: u64,
            open: bool,
        ) {
            let f = MailFinder::new(Finder::new());
            find_agrees(&f, &frame::tests::spool(&kinds, crlf, open));
        }
    }

    struct Collect<'v>(&'v mut Vec<MailMatch<'static>>);

    impl MailSink for Collect<'_> {
        type Error = io::Error;
        fn matched(&mut self, m: &MailMatch<'_>) -> io::Result<bool> {
            self.0.push(m.clone().into_owned());
            Ok(true)
        }
    }

    #[test]
    fn qp_repair_option() {
        let msg = b"Subject: x\n\nhttp://a.b/c=3Dd\n";
        let f = MailFinder::builder().qp_repair(true).build(Finder::new());
        let ms = f.matches(msg, Format::Message);
        assert_eq!(ms[0].as_match().url(), b"http://a.b/c=d");
        assert_eq!(ms[0].encoding(), Encoding::QpRepair);
        assert_eq!(urls(msg), ["http://a.b/c=3Dd"]);
    }
}
