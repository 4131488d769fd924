//! JSON Lines: a `begin`, `match`, `reject`, `error` and `end` record per
//! input, and a `summary` after the run ([`super::json`] has the records).

use super::escape::{self, json_text};
use super::json::{
    EndRecord, ErrorRecord, FromRecord, HtmlRecord, MailRecord, MatchRecord,
    Origin, Record, RejectRecord, SummaryRecord,
};
use super::json_fast;
use super::printer::{path_bytes, Ctx, Emit, Run, Tally, Url};
use super::url::host_ref;
use crate::driver::InputDone;
use crate::input::{Input, InputError, Source};
use crate::parse::Reject;
use std::borrow::Cow;
use std::io::{self, Write};

/// The JSON Lines writer.
#[derive(Debug, Default)]
pub(super) struct JsonLines {
    /// The line being written (match records, see [`super::json_fast`]).
    buf: Vec<u8>,
}

/// The input's name for JSON; a path that is not UTF-8 is escaped and
/// flagged (`path_escaped`).
fn origin<'a>(stdin_label: &'a str, source: &'a Source) -> Origin<'a> {
    match source {
        Source::Stdin => Origin {
            path: None,
            source: Some(Cow::Borrowed(stdin_label)),
            path_escaped: false,
        },
        Source::Path(p) => {
            let (path, path_escaped) = match path_bytes(p) {
                Cow::Borrowed(b) => json_text(b),
                Cow::Owned(b) => {
                    let (t, e) = json_text(&b);
                    (Cow::Owned(t.into_owned()), e)
                }
            };
            Origin { path: Some(path), source: None, path_escaped }
        }
    }
}

/// Writes one record and its line break.
fn line<W: Write>(out: &mut W, rec: &Record<'_>) -> io::Result<()> {
    escape::write_json(&mut *out, rec)?;
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
        let (text, escaped) = json_text(url.text);
        let mut flags: Vec<Cow<'_, str>> =
            hit.flags.names().map(Cow::Borrowed).collect();
        if escaped {
            flags.push(Cow::Borrowed("escaped"));
        }
        if hit.repaired {
            flags.push(Cow::Borrowed("qp-repair"));
        }
        let html = hit.mail.as_ref().and_then(|m| m.html).map(|h| {
            if h.text_host_differs() {
                flags.push(Cow::Borrowed("text-host-differs"));
            }
            Box::new(HtmlRecord {
                place: Cow::Borrowed(h.place().name()),
                element: h.element().map(Cow::Borrowed),
                attribute: h.attribute().map(Cow::Borrowed),
                link_text: h.link_text().map(Cow::Borrowed),
            })
        });
        // RFC 3339 in UTC: ASCII with nothing to escape, borrowed from
        // here (an allocation a match before).
        let utc = hit.mail.as_ref().and_then(|m| m.meta?.date_utc);
        let utc = utc.map(|d| d.rfc3339());
        let utc = utc.as_ref().and_then(|d| std::str::from_utf8(d).ok());
        let mail = hit.mail.as_ref().map(|m| {
            let meta = m.meta;
            Box::new(MailRecord {
                message: m.message,
                message_offset: m.message_offset,
                message_id: m.message_id.map(|id| json_text(id).0),
                part: m.part as u64,
                location: Cow::Borrowed(m.location.name()),
                encoding: Cow::Borrowed(m.encoding.name()),
                decoded: m.decoded,
                from: meta.and_then(|x| x.from.as_ref()).map(|f| FromRecord {
                    address: f.address.as_deref().map(Cow::Borrowed),
                    name: f.name.as_deref().map(Cow::Borrowed),
                }),
                subject: meta
                    .and_then(|x| x.subject.as_deref())
                    .map(Cow::Borrowed),
                date: meta.and_then(|x| x.date.as_deref()).map(Cow::Borrowed),
                date_utc: utc.map(Cow::Borrowed),
                headers: meta.filter(|x| !x.headers.is_empty()).map(|x| {
                    x.headers
                        .iter()
                        .map(|(n, v)| {
                            let v =
                                v.iter().map(|s| Cow::Borrowed(s.as_str()));
                            (Cow::Borrowed(n.as_str()), v.collect())
                        })
                        .collect()
                }),
            })
        });
        let o = origin(&cx.opts.stdin_label, &url.input.source);
        let rec = MatchRecord {
            path: o.path,
            path_escaped: o.path_escaped,
            source: o.source,
            offset: hit.at.start,
            line: hit.at.line,
            column: hit.at.column,
            kind: Cow::Borrowed(hit.kind.name()),
            url: text,
            scheme: Cow::Borrowed(url.scheme),
            host: host_ref(hit.url, hit.host),
            flags,
            mail,
            html,
        };
        // Written by hand, as serde writes `Record::Match(rec)`.
        self.buf.clear();
        json_fast::match_record(&mut self.buf, &rec);
        self.buf.push(b'\n');
        out.write_all(&self.buf)
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
            path_escaped: o.path_escaped,
            source: o.source,
            offset: hit.at.start,
            line: hit.at.line,
            column: hit.at.column,
            kind: Cow::Borrowed(hit.kind.name()),
            url: json_text(url.text).0,
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
            path_escaped: o.path_escaped,
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
            path_escaped: o.path_escaped,
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
