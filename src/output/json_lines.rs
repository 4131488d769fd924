//! JSON Lines: a `begin`, `match`, `reject`, `error` and `end` record per
//! input, and a `summary` after the run ([`super::json`] has the records).

use super::json::{
    EndRecord, ErrorRecord, MailRecord, MatchRecord, Origin, Record,
    RejectRecord, SummaryRecord,
};
use super::printer::{path_bytes, Ctx, Emit, Run, Tally, Url};
use super::url::{host_from, utf8_or_escape};
use crate::driver::InputDone;
use crate::input::{Input, InputError, Source};
use crate::parse::Reject;
use std::borrow::Cow;
use std::io::{self, Write};

/// The JSON Lines writer.
#[derive(Debug)]
pub(super) struct JsonLines;

/// The input's name for JSON.
fn origin<'a>(stdin_label: &'a str, source: &'a Source) -> Origin<'a> {
    match source {
        Source::Stdin => {
            Origin { path: None, source: Some(Cow::Borrowed(stdin_label)) }
        }
        Source::Path(p) => match path_bytes(p) {
            Cow::Borrowed(b) => {
                Origin { path: Some(utf8_or_escape(b).0), source: None }
            }
            Cow::Owned(b) => Origin {
                path: Some(Cow::Owned(utf8_or_escape(&b).0.into_owned())),
                source: None,
            },
        },
    }
}

/// Writes one record and its line break.
fn line<W: Write>(out: &mut W, rec: &Record<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, rec)?;
    out.write_all(b"\n")
}

impl<W: Write> Emit<W> for JsonLines {
    fn needs_scheme(&self) -> bool {
        true
    }

    fn begin(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
    ) -> io::Result<()> {
        line(out, &Record::Begin(origin(&cx.opts.stdin_label, &input.source)))
    }

    fn url(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()> {
        let hit = url.hit;
        let (text, escaped) = utf8_or_escape(url.text);
        let mut flags: Vec<Cow<'_, str>> =
            hit.flags.names().map(Cow::Borrowed).collect();
        if escaped {
            flags.push(Cow::Borrowed("escaped"));
        }
        if hit.repaired {
            flags.push(Cow::Borrowed("qp-repair"));
        }
        let mail = hit.mail.as_ref().map(|m| MailRecord {
            message: m.message,
            message_offset: m.message_offset,
            message_id: m.message_id.map(|id| utf8_or_escape(id).0),
            part: m.part as u64,
            location: Cow::Borrowed(m.location.name()),
            encoding: Cow::Borrowed(m.encoding.name()),
            decoded: m.decoded,
        });
        let o = origin(&cx.opts.stdin_label, &url.input.source);
        let rec = Record::Match(MatchRecord {
            path: o.path,
            source: o.source,
            offset: hit.at.start,
            line: hit.at.line,
            column: hit.at.column,
            kind: Cow::Borrowed(hit.kind.name()),
            url: text,
            scheme: Cow::Borrowed(url.scheme),
            host: host_from(hit.url, hit.host).map(Cow::Owned),
            flags,
            mail,
        });
        line(out, &rec)
    }

    fn reject(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
        reject: Reject,
    ) -> io::Result<()> {
        let hit = url.hit;
        let o = origin(&cx.opts.stdin_label, &url.input.source);
        let rec = Record::Reject(RejectRecord {
            path: o.path,
            source: o.source,
            offset: hit.at.start,
            line: hit.at.line,
            column: hit.at.column,
            kind: Cow::Borrowed(hit.kind.name()),
            url: utf8_or_escape(url.text).0,
            scheme: Cow::Borrowed(url.scheme),
            reason: Cow::Borrowed(reject.name()),
            message: Cow::Owned(reject.to_string()),
        });
        line(out, &rec)
    }

    fn error(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        err: &InputError,
    ) -> io::Result<()> {
        let o = origin(&cx.opts.stdin_label, &err.source);
        let rec = Record::Error(ErrorRecord {
            path: o.path,
            source: o.source,
            message: Cow::Owned(err.to_string()),
        });
        line(out, &rec)
    }

    fn end(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
        done: &InputDone,
        tally: &Tally,
    ) -> io::Result<()> {
        let o = origin(&cx.opts.stdin_label, &input.source);
        let rec = Record::End(EndRecord {
            path: o.path,
            source: o.source,
            bytes: done.bytes,
            candidates: tally.matches + tally.rejected,
            matches: tally.matches,
            rejected: tally.rejected,
            messages: done.messages,
        });
        line(out, &rec)
    }

    fn finish(
        &mut self,
        out: &mut W,
        _: &Ctx<'_>,
        run: &Run<'_>,
    ) -> io::Result<()> {
        let c = run.counts;
        let rec = Record::Summary(SummaryRecord {
            files: c.get("total", "files"),
            bytes: c.get("total", "bytes"),
            candidates: c.get("total", "candidates"),
            matches: c.get("total", "matches"),
            rejected: c.get("total", "rejected"),
            errors: c.get("total", "errors"),
            messages: run.mail.then(|| c.get("total", "messages")),
        });
        line(out, &rec)
    }
}
