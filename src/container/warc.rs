//! Web archives as a container: each WARC or ARC record whose type holds
//! a page's URLs ([`crate::warc::RecordType::has_body_urls`]: `response`, `resource`,
//! `conversion`, `metadata`) is searched through its payload — the HTTP
//! head not searched, chunked transfer and gzip/deflate content codings
//! undone ([`crate::warc`]) — and its URLs carry the record
//! ([`WebRecord`]: target URI, date, id, type, content type, offsets). A
//! record's own target URI, a `request` record and the HTTP heads are not
//! searched: they are the crawl's, not the page's.
//!
//! A fault of the archive (a truncated record, a bad chunk size, garbage
//! between records, a damaged gzip member, an unsupported content coding)
//! is handed to the sink ([`RecordSink::fault`]) with the record's offset;
//! the search goes on at the next record the reader finds.

use super::record::{Fields, PartFields, Provenance, RecordPart};
use super::resolve::{self, Pending};
use super::web_record::WebRecord;
use super::{Found, RecordSink};
use crate::mail::HtmlDocument;
use crate::scan::Span;
use crate::search::{Candidate, Finder, Match, Position, Sink};
use crate::warc::{self, Fault, Head, Records};
use std::collections::VecDeque;
use std::io::{self, BufReader, Read};
use std::sync::Arc;

/// Searches the web archive `rdr` (plain, or gzip: the reader inflates
/// member by member itself, so that each record knows its member's
/// offset), which begins at offset `base` of its file: a slice of a
/// `.warc.gz` begins at a member, its member offsets those of the file,
/// its decompressed offsets from 0. A read error of the input ends the
/// search as a fault. The sink is told the bytes inflated
/// ([`RecordSink::searched`]).
/// `ahead`: a gzip input is inflated on a thread of its own meanwhile
/// ([`Records::inflate_ahead`]): the same records, positions and faults.
pub(super) fn search<R: Read + Send, S: RecordSink>(
    finder: &Finder,
    rdr: R,
    base: u64,
    html: Html,
    ahead: bool,
    sink: &mut S,
) -> Result<(), S::Error> {
    let rdr = BufReader::with_capacity(64 << 10, rdr);
    let records = Records::with_start(rdr, base);
    let mut search = |mut records: Records<_>| {
        let got = each_record(finder, &mut records, html, sink);
        sink.searched(records.position());
        got
    };
    match ahead {
        true => records.inflate_ahead(search),
        false => search(records),
    }
}

/// The records of `records`, searched.
fn each_record<R: std::io::BufRead, S: RecordSink>(
    finder: &Finder,
    records: &mut Records<R>,
    html: Html,
    sink: &mut S,
) -> Result<(), S::Error> {
    let mut index = 0u64;
    // The first bytes of each payload, read to tell a binary one: one
    // buffer for all the records (a `Vec` grown by `read_to_end` for each
    // was 2-3% of the instructions of a `.warc.gz`).
    let mut sniff = vec![0u8; BINARY_SNIFF as usize];
    while let Some(next) = records.next_record() {
        let head = match next {
            Ok(head) => head,
            Err(e) => {
                let io = matches!(e.fault(), Fault::Io(_));
                sink.fault(e.offset(), fault_text(&e));
                if io {
                    // The input itself failed: no record after it can be
                    // read.
                    return Ok(());
                }
                continue;
            }
        };
        sink.record();
        let at = index;
        index += 1;
        if !head.record_type().has_body_urls() {
            continue;
        }
        let mut payload = match records.payload() {
            Ok(p) => p,
            Err(e) => {
                sink.fault(e.offset(), fault_text(&e));
                continue;
            }
        };
        let http = payload.http();
        let start =
            head.offset() + head.head_len() + http.map_or(0, |h| h.len());
        let content_type = http
            .and_then(|h| h.content_type())
            .or_else(|| head.content_type().filter(|_| http.is_none()))
            .map(str::to_owned);
        // A binary payload (an image, a certificate: a NUL in its first
        // 8 KiB, the rule grep and ripgrep apply to files) is not text.
        // An HTML payload held whole (up to HTML_HOLD) gives its URLs
        // their HTML context, and its relative references, when asked.
        let hold = (html.context || html.resolve)
            && content_type.as_deref().is_some_and(is_html);
        let mut held = Vec::new();
        let got = match hold {
            true => (&mut payload).take(BINARY_SNIFF).read_to_end(&mut held),
            false => sniff_into(&mut payload, &mut sniff),
        };
        let got = match got {
            Ok(got) => got,
            Err(e) => {
                sink.fault(head.offset(), content_fault(&e));
                continue;
            }
        };
        let first = if hold { &held[..] } else { &sniff[..got] };
        if memchr::memchr(0, first).is_some() {
            continue;
        }
        let mut doc = None;
        let mut pending = VecDeque::new();
        if hold {
            let rest = HTML_HOLD.saturating_sub(held.len() as u64);
            if let Err(e) = (&mut payload).take(rest).read_to_end(&mut held) {
                sink.fault(head.offset(), content_fault(&e));
                continue;
            }
            if (held.len() as u64) < HTML_HOLD {
                if html.context {
                    doc = Some(HtmlDocument::index(&held));
                }
                if html.resolve {
                    pending = resolve::resolved(
                        &held,
                        head.target_uri(),
                        html.lines,
                    );
                }
            }
        }
        let first = if hold { &held[..] } else { &sniff[..got] };
        let mut payload = io::Cursor::new(first).chain(payload);
        let mut on = OnPayload {
            sink: &mut *sink,
            start,
            index: at,
            offset: head.offset(),
            head: &head,
            content_type,
            record: None,
            id: head.record_id(),
            doc: doc.as_ref(),
            pending,
            error: None,
            stopped: false,
        };
        let mut got = finder.find_reader(&mut payload, &mut on);
        if got.is_ok() && !on.stopped && on.error.is_none() {
            got = on.flush(u64::MAX).map(|_| ());
        }
        let (error, stopped) = (on.error.take(), on.stopped);
        if let Some(e) = error {
            return Err(e);
        }
        if stopped {
            return Ok(());
        }
        if let Err(e) = got {
            // A fault of the content (a bad chunk size, corrupt gzip
            // content): the rest of the record is passed over.
            sink.fault(head.offset(), content_fault(&e));
        }
    }
    Ok(())
}

/// What HTML payloads are read for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Html {
    /// Each URL's HTML context (`--html-context`).
    pub(super) context: bool,
    /// Relative references resolved (`--resolve`).
    pub(super) resolve: bool,
    /// Line numbers are counted.
    pub(super) lines: bool,
}

/// How much of a payload tells whether it is binary.
const BINARY_SNIFF: u64 = 8 * 1024;

/// An HTML payload up to this long is held whole for its HTML context
/// (`--html-context`); a longer one is searched without it, as a mail
/// message read as a stream is.
const HTML_HOLD: u64 = 8 << 20;

/// Reads the first bytes of `payload` into `buf` (fewer than it holds
/// only at the payload's end): how many.
fn sniff_into<R: Read>(payload: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match payload.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Whether a media type is HTML (`text/html`, XHTML).
fn is_html(content_type: &str) -> bool {
    let t = content_type.trim_start().as_bytes();
    let is =
        |p: &[u8]| t.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p));
    is(b"text/html") || is(b"application/xhtml+xml")
}

/// What a record's head says, for its URLs.
fn web_record(head: &Head, content_type: Option<String>) -> WebRecord {
    WebRecord {
        format: match head.format() {
            warc::Format::Arc => "arc",
            _ => "warc",
        },
        kind: head.record_type().name().to_owned(),
        target_uri: head.target_uri().map(str::to_owned),
        date: head.date_rfc3339(),
        id: head.record_id().map(str::to_owned),
        content_type,
        gz_offset: head.gz_offset(),
    }
}

/// What is wrong, for the error the report gives with the offset: the
/// fault, and the gzip member it is in.
fn fault_text(e: &warc::Error) -> String {
    match e.gz_offset() {
        Some(gz) => format!("{} (gzip member at {gz})", e.fault()),
        None => e.fault().to_string(),
    }
}

/// The message of a payload read that failed with `e`.
fn content_fault(e: &io::Error) -> String {
    match e.get_ref().and_then(|i| i.downcast_ref::<warc::Error>()) {
        Some(ours) => fault_text(ours),
        None => format!("payload unreadable: {e}"),
    }
}

/// A payload's search: its URLs handed on with their record, their
/// positions moved to the payload's start.
struct OnPayload<'s, 'r, S: RecordSink> {
    sink: &'s mut S,
    /// Offset of the payload's first byte in the (uncompressed) input.
    start: u64,
    index: u64,
    offset: u64,
    /// The record's head, and its payload's media type, for its
    /// [`WebRecord`]: made at the first URL handed on (a record with none
    /// needs none; five strings, a date and an `Arc` a record were 1.7% of
    /// the instructions of `-j1 -c` on a `.warc.gz`).
    head: &'r Head,
    content_type: Option<String>,
    record: Option<Arc<dyn RecordPart>>,
    /// The record's id (`WARC-Record-ID`), as written.
    id: Option<&'r str>,
    /// The payload's HTML, indexed, when its URLs get their context.
    doc: Option<&'r HtmlDocument>,
    /// Resolved references not handed on yet, in payload order.
    pending: VecDeque<Pending>,
    /// The sink's error, which ended the search.
    error: Option<S::Error>,
    /// The sink asked to stop.
    stopped: bool,
}

impl<S: RecordSink> OnPayload<'_, '_, S> {
    /// Hands on the resolved references before payload offset `before`;
    /// `Ok(false)` once the sink stops.
    fn flush(&mut self, before: u64) -> io::Result<bool> {
        while self.pending.front().is_some_and(|p| p.at.start < before) {
            let Some(p) = self.pending.pop_front() else { break };
            if !self.hand_on(&p.at, &p.as_match(), None)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// A URL of the scanner, after the resolved references before it.
    fn found(
        &mut self,
        at: &Position,
        m: &Match<'_>,
        reject: Option<crate::parse::Reject>,
    ) -> io::Result<bool> {
        if !self.pending.is_empty() && !self.flush(at.start)? {
            return Ok(false);
        }
        self.hand_on(at, m, reject)
    }

    /// Hands a URL at payload position `at` to the sink with its record.
    fn hand_on(
        &mut self,
        at: &Position,
        m: &Match<'_>,
        reject: Option<crate::parse::Reject>,
    ) -> io::Result<bool> {
        let link = self.doc.map(|doc| {
            let span = Span { start: at.start as usize, end: at.end as usize };
            Arc::new(doc.context(span, m.host()))
        });
        let at = Position {
            start: self.start + at.start,
            end: self.start + at.end,
            ..*at
        };
        let (head, content_type) = (self.head, &mut self.content_type);
        let part: &Arc<dyn RecordPart> =
            self.record.get_or_insert_with(|| {
                Arc::new(web_record(head, content_type.take()))
            });
        let record = Provenance {
            index: self.index,
            offset: self.offset,
            id: self.id.map(str::as_bytes),
            fields: Fields::Part(PartFields { part, html: link.as_ref() }),
        };
        let f = Found { at, m, reject, record: Some(record), repaired: false };
        match self.sink.found(&f) {
            Ok(true) => Ok(true),
            Ok(false) => {
                self.stopped = true;
                Ok(false)
            }
            Err(e) => {
                self.error = Some(e);
                Ok(false)
            }
        }
    }
}

impl<S: RecordSink> Sink for OnPayload<'_, '_, S> {
    type Error = io::Error;

    fn matched(&mut self, at: &Position, m: &Match<'_>) -> io::Result<bool> {
        self.found(at, m, None)
    }

    fn rejected(
        &mut self,
        at: &Position,
        c: &Candidate<'_>,
    ) -> io::Result<bool> {
        self.found(at, c.as_match(), c.reject())
    }
}
