//! Mail as a container: the mail search ([`crate::mail::MailFinder`]) with
//! its matches handed on as [`Found`] URLs whose record is their message.

use super::lines::{LineLog, LogNewlines, NewlineLog};
use super::record::{Fields, HitLines, MailFields, Provenance};
use super::{Found, RecordSink, Settings};
use crate::mail::{
    Encoding, Format, Location, MailFinder, MailMatch, MailSink, Message,
};
use crate::search::lines::LineCounter;
use crate::search::{Finder, Match, Position};
use std::cell::RefCell;
use std::convert::Infallible;
use std::io::{self, Read};

/// The mail search of `settings`, over `finder`.
pub(super) fn finder(finder: &Finder, settings: &Settings) -> MailFinder {
    MailFinder::builder()
        .qp_repair(settings.qp_repair)
        .metadata(settings.metadata)
        .html_context(settings.html_context)
        .rejects(settings.rejects)
        .lines(settings.lines)
        .header_fields(&settings.header_fields)
        .build(finder.clone())
}

/// Searches `bytes` (a whole input, or an mbox slice at a separator,
/// starting at absolute offset `base`) as mail of format `format`;
/// returns its newlines when `lines` are counted.
pub(super) fn search_slice<S: RecordSink<Error = Infallible>>(
    mail: &MailFinder,
    bytes: &[u8],
    base: u64,
    format: Format,
    lines: bool,
    sink: &mut S,
) -> u64 {
    let counter = lines.then(LineCounter::default);
    let records = sink.reads_records();
    let pos = Positions::Slice { bytes, counter };
    let mut adapter = Adapter { sink, base, pos, records };
    let Ok(()) = mail.find(bytes, format, &mut adapter);
    // The newlines of the slice: counted on from the last match's (the
    // whole slice counted again was 2% of a `--json` run).
    match adapter.pos {
        Positions::Slice { counter: Some(mut l), .. } => {
            let (line, _) = l.at(bytes, 0, bytes.len() as u64);
            line.saturating_sub(1)
        }
        _ => 0,
    }
}

/// Searches the stream `rdr` (its first byte at absolute offset `base`) as
/// mail of format `format`, its newlines logged for line numbers when
/// `lines` are counted (a bit a byte of the window, [`NewlineLog`]).
pub(super) fn search_reader<R, S>(
    mail: &MailFinder,
    rdr: R,
    base: u64,
    format: Format,
    lines: bool,
    sink: &mut S,
) -> io::Result<()>
where
    R: Read,
    S: RecordSink<Error = io::Error>,
{
    let log = RefCell::new(NewlineLog::default());
    let log = lines.then_some(&log);
    let rdr = LogNewlines { rdr, log, at: 0 };
    let records = sink.reads_records();
    let pos = Positions::Log(LineLog(log));
    let mut adapter = Adapter { sink, base, pos, records };
    mail.find_reader(rdr, format, &mut adapter)
}

/// Where a mail match's line number comes from.
enum Positions<'b> {
    /// A slice in hand, counted on from the last match.
    Slice { bytes: &'b [u8], counter: Option<LineCounter> },
    /// A stream's newline log.
    Log(LineLog<'b>),
}

/// A mail sink over a [`RecordSink`]: each match with its message as its
/// record, its offsets moved by `base`.
struct Adapter<'s, 'b, S> {
    sink: &'s mut S,
    base: u64,
    pos: Positions<'b>,
    /// [`RecordSink::reads_records`], asked once.
    records: bool,
}

/// The record of a match given to a sink that reads none
/// ([`RecordSink::reads_records`]): the record built from the match's
/// fields for each URL was 35 instructions a URL of a dense text
/// (issue 33).
const UNREAD: Provenance<'static> = Provenance {
    index: 0,
    offset: 0,
    id: None,
    fields: Fields::Mail(MailFields {
        meta: None,
        part: 0,
        location: Location::Body,
        encoding: Encoding::Identity,
        decoded: false,
        html: None,
        lines: None,
    }),
};

impl<S> Adapter<'_, '_, S> {
    /// The position of match `m`, from absolute offset `start` to `end`
    /// of the search.
    #[inline(always)]
    fn at(&mut self, m: &Match<'_>, start: u64, end: u64) -> Position {
        let base = self.base;
        match &mut self.pos {
            Positions::Slice { bytes, counter } => {
                let span = m.span();
                let (line, column) = match counter {
                    Some(l) => l.at(bytes, 0, span.start as u64),
                    None => (0, 0),
                };
                Position { start: base + start, end: base + end, line, column }
            }
            Positions::Log(log) => log.position(start, end, base),
        }
    }
}

impl<S: RecordSink> MailSink for Adapter<'_, '_, S> {
    type Error = S::Error;

    // Always inlined: the provenance built here is read field by field
    // by the sink's push, and built out of line it cost 85 instructions
    // a match (callgrind, the spool).
    #[inline(always)]
    fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, S::Error> {
        let base = self.base;
        let at = self.at(m.as_match(), m.offset(), m.end_offset());
        if !self.records {
            return self.sink.found(&Found {
                at,
                m: m.as_match(),
                reject: m.reject(),
                record: Some(UNREAD),
                repaired: false,
            });
        }
        let lines = m.lines().map(|c| HitLines {
            lines: c.lines(),
            url: c.url(),
            offset: base + c.offset(),
        });
        let fields = MailFields {
            meta: m.metadata(),
            part: m.part(),
            location: m.location(),
            encoding: m.encoding(),
            decoded: m.decoded(),
            html: m.html(),
            lines,
        };
        let record = Provenance {
            index: m.message() as u64,
            offset: base + m.message_offset(),
            id: m.message_id(),
            fields: Fields::Mail(fields),
        };
        self.sink.found(&Found {
            at,
            m: m.as_match(),
            reject: m.reject(),
            record: Some(record),
            repaired: false,
        })
    }

    fn reads_urls_alone(&self) -> bool {
        !self.records
    }

    // What `matched` does for a sink that reads no records, with no
    // `MailMatch` read.
    #[inline(always)]
    fn matched_url(
        &mut self,
        m: &Match<'_>,
        origin: u64,
    ) -> Result<bool, S::Error> {
        let span = m.span();
        let end = origin + span.end as u64;
        let at = self.at(m, origin + span.start as u64, end);
        self.sink.found(&Found {
            at,
            m,
            reject: None,
            record: Some(UNREAD),
            repaired: false,
        })
    }

    fn message(&mut self, msg: &Message<'_>) -> Result<bool, S::Error> {
        // Later matches are in this message or after it.
        if let Positions::Log(log) = &self.pos {
            log.forget_before(msg.offset());
        }
        self.sink.record();
        Ok(true)
    }

    fn settled(&mut self, offset: u64) {
        if let Positions::Log(log) = &self.pos {
            log.forget_before(offset);
        }
    }

    fn limit(&mut self, offset: u64, what: &'static str) {
        self.sink.limit(self.base + offset, what);
    }

    fn rejected(&mut self, n: u64) {
        self.sink.rejected(n);
    }
}

/// Whether the lines of `head` end in a bare CR: a CR and no LF in it.
pub(super) fn cr_only(head: &[u8]) -> bool {
    memchr::memchr(b'\n', head).is_none()
        && memchr::memchr(b'\r', head).is_some()
}

/// Whether the complete lines of `head` end the header block it may
/// begin with: an empty line, or a line that is neither a field
/// ([`crate::mail::header::field_colon`], but not `http://…`) nor a
/// continuation.
pub(super) fn header_ended(head: &[u8]) -> bool {
    let mut rest = head;
    while let Some(i) = memchr::memchr(b'\n', rest) {
        let line = rest.get(..i).unwrap_or_default();
        rest = rest.get(i + 1..).unwrap_or_default();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
            continue;
        }
        let field = crate::mail::header::field_colon(line).is_some_and(|k| {
            !line.get(k + 1..).unwrap_or_default().starts_with(b"//")
        });
        if !field {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each URL's text and position, from a sink that reads records or
    /// not ([`RecordSink::reads_records`]).
    struct Log<E> {
        records: bool,
        got: Vec<(Vec<u8>, Position)>,
        error: std::marker::PhantomData<E>,
    }

    impl<E> RecordSink for Log<E> {
        type Error = E;
        fn found(&mut self, f: &Found<'_, '_>) -> Result<bool, E> {
            self.got.push((f.m.url().to_vec(), f.at));
            Ok(true)
        }
        fn limit(&mut self, _: u64, _: &'static str) {}
        fn record(&mut self) {}
        fn fault(&mut self, _: u64, _: String) {}
        fn reads_records(&self) -> bool {
            self.records
        }
    }

    fn log<E>(records: bool) -> Log<E> {
        Log { records, got: Vec::new(), error: std::marker::PhantomData }
    }

    /// A sink that reads no records (its URLs handed over alone, with
    /// no `MailMatch` filled) is given the positions (offsets, line and
    /// column) of one that reads them, of a slice and of a stream.
    #[test]
    fn urls_alone_have_the_records_positions() {
        let hay = b"From a@b Thu Aug 22 13:17:22 2002\n\
            Subject: http://s.example/\n\
            Content-Transfer-Encoding: quoted-printable\n\n\
            see http://q.example/a=3Db=\nc http://r.example/ d\n\
            From a@b Thu Aug 22 13:17:22 2002\n\n\
            http://n.example/ http://n.example/x\n";
        let mail = MailFinder::new(Finder::new());
        for lines in [false, true] {
            let mut want = log::<Infallible>(true);
            search_slice(&mail, hay, 7, Format::Mbox, lines, &mut want);
            assert_eq!(want.got.len(), 5);
            let mut got = log::<Infallible>(false);
            search_slice(&mail, hay, 7, Format::Mbox, lines, &mut got);
            assert_eq!(got.got, want.got);
            let mut read = log::<io::Error>(false);
            search_reader(&mail, &hay[..], 7, Format::Mbox, lines, &mut read)
                .unwrap();
            assert_eq!(read.got, want.got);
        }
    }
}
