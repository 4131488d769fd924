//! JSON Lines: a `begin`, `match`, `reject`, `error` and `end` record per
//! input, and a `summary` after the run ([`super::json`] has the records).

use super::emit::{path_bytes, Ctx, Emit, Run, Tally, Url};
use super::escape::{self, json_text};
use super::json::{
    EndRecord, ErrorRecord, FromRecord, HtmlRecord, MailRecord, Origin,
    Record, RejectRecord, SummaryRecord, HEADER_VALUES_CAP,
};
use super::json_fast;
use crate::driver::InputDone;
use crate::input::{Input, InputError, Source};
use crate::mail::Metadata;
use crate::parse::Reject;
use std::borrow::Cow;
use std::io::{self, Write};

/// The JSON Lines writer.
#[derive(Debug, Default)]
pub(super) struct JsonLines {
    /// The line being written (match records, see [`super::json_fast`]).
    buf: Vec<u8>,
    /// The start of the match records of the current input.
    head: Head,
    /// The metadata fields of the current message's match records.
    meta: MetaJson,
}

/// The start of a match record (`{"type":"match","path":…`), written
/// once per input: the path was checked for UTF-8 and escaped again for
/// every match before (callgrind, `--json` over the spool: a sixth of
/// the record's instructions).
#[derive(Debug, Default)]
struct Head {
    /// What it was written for: stdin, or a path's bytes.
    stdin: bool,
    path: Vec<u8>,
    json: Vec<u8>,
}

impl Head {
    /// Appends the start of a match record of `source`.
    fn write(
        &mut self,
        out: &mut Vec<u8>,
        stdin_label: &str,
        source: &Source,
    ) {
        let same = match source {
            Source::Stdin => self.stdin && !self.json.is_empty(),
            Source::Path(p) => {
                !self.stdin
                    && !self.json.is_empty()
                    && *path_bytes(p) == *self.path
            }
        };
        if !same {
            let o = origin(stdin_label, source);
            self.stdin = *source == Source::Stdin;
            self.path.clear();
            if let Source::Path(p) = source {
                self.path.extend_from_slice(&path_bytes(p));
            }
            self.json.clear();
            json_fast::match_head(
                &mut self.json,
                o.path.as_deref(),
                o.source.as_deref(),
                o.path_escaped,
            );
        }
        out.extend_from_slice(&self.json);
    }
}

/// The metadata fields of a match record (`,"from":…,"date_utc":…`),
/// written once per message and kept with the metadata they were written
/// for: a message's matches share them, and writing them again (a date
/// formatted, five strings escaped) was a third of a record.
#[derive(Debug, Default)]
struct MetaJson {
    of: Option<Metadata>,
    /// Where the metadata last written was (its address) and its
    /// message (index and offset) in the current input: the same again
    /// is the same message, whose metadata is the same, so it is not
    /// compared. Comparing every match's metadata whole was quadratic: a
    /// 2.7 MB Subject holding 150,000 URLs took 11 s of CPU.
    at: Option<(usize, u64, u64)>,
    json: Vec<u8>,
    /// Whole comparisons made (tests count them).
    compared: u64,
}

impl MetaJson {
    /// Appends the metadata fields of `meta`, of message `message` at
    /// `offset`.
    fn write(
        &mut self,
        out: &mut Vec<u8>,
        meta: &Metadata,
        message: u64,
        offset: u64,
    ) {
        let at = (std::ptr::from_ref(meta) as usize, message, offset);
        if self.at != Some(at) {
            self.compared += 1;
            if self.of.as_ref() != Some(meta) {
                self.json.clear();
                json_fast::mail_meta(&mut self.json, &meta_record(meta));
                self.of = Some(meta.clone());
            }
            self.at = Some(at);
        }
        out.extend_from_slice(&self.json);
    }

    /// A new input: its messages are not the last input's, whatever
    /// their address and index.
    fn new_input(&mut self) {
        self.at = None;
    }
}

/// A mail record holding only the fields of `meta` (the others are not
/// read by [`json_fast::mail_meta`]), each string cut to
/// [`super::json::FIELD_CAP`] characters and each `--header` name to
/// [`HEADER_VALUES_CAP`] values, with the flags that say so: a message's
/// fields are repeated in every one of its matches.
fn meta_record(meta: &Metadata) -> MailRecord<'_> {
    let utc = meta.date_utc.map(|d| d.rfc3339());
    // RFC 3339 in UTC: ASCII, nothing to escape.
    let utc = utc.as_ref().and_then(|d| std::str::from_utf8(d).ok());
    let (subject, subject_truncated) = cap(meta.subject.as_deref());
    let (date, date_truncated) = cap(meta.date.as_deref());
    let mut headers_truncated = false;
    let headers = (!meta.header_names.is_empty()).then(|| {
        meta.headers()
            .into_iter()
            .map(|(n, v)| {
                headers_truncated |= v.len() > HEADER_VALUES_CAP;
                let v = v.into_iter().take(HEADER_VALUES_CAP).map(|s| {
                    let (s, cut) = json_fast::cap_str(s);
                    headers_truncated |= cut;
                    Cow::Borrowed(s)
                });
                (Cow::Borrowed(n), v.collect())
            })
            .collect()
    });
    MailRecord {
        message: 0,
        message_offset: 0,
        message_id: None,
        message_id_truncated: false,
        part: 0,
        location: Cow::Borrowed(""),
        encoding: Cow::Borrowed(""),
        decoded: false,
        from: meta.from.as_ref().map(|f| {
            let (address, a_cut) = cap(f.address.as_deref());
            let (name, n_cut) = cap(f.name.as_deref());
            FromRecord { address, name, truncated: a_cut || n_cut }
        }),
        subject,
        subject_truncated,
        date,
        date_truncated,
        date_utc: utc.map(|u| Cow::Owned(u.to_owned())),
        headers,
        headers_truncated,
    }
}

/// `s` cut by [`json_fast::cap_str`], and whether it was.
fn cap(s: Option<&str>) -> (Option<Cow<'_, str>>, bool) {
    match s.map(json_fast::cap_str) {
        Some((s, cut)) => (Some(Cow::Borrowed(s)), cut),
        None => (None, false),
    }
}

/// The input's name for JSON; a path that is not UTF-8 is escaped and
/// flagged (`path_escaped`). Stdin is `"path":"-"`, as it is named on
/// the command line, with its label (`--source`) in `source`.
fn origin<'a>(stdin_label: &'a str, source: &'a Source) -> Origin<'a> {
    match source {
        Source::Stdin => Origin {
            path: Some(Cow::Borrowed("-")),
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
        self.meta.new_input();
        line(out, &Record::Begin(origin(&cx.opts.stdin_label, &input.source)))
    }

    fn url(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()> {
        let hit = url.hit;
        let buf = &mut self.buf;
        buf.clear();
        self.head.write(buf, &cx.opts.stdin_label, &url.input.source);
        json_fast::key(buf, b",\"offset\":");
        json_fast::number(buf, hit.at.start);
        json_fast::key(buf, b",\"line\":");
        json_fast::number(buf, hit.at.line);
        json_fast::key(buf, b",\"column\":");
        json_fast::number(buf, hit.at.column);
        json_fast::key(buf, b",\"kind\":");
        json_fast::name(buf, hit.kind.name());
        json_fast::key(buf, b",\"url\":");
        let escaped = json_fast::text(buf, url.text);
        json_fast::key(buf, b",\"scheme\":");
        json_fast::string(buf, url.scheme);
        json_fast::key(buf, b",\"host\":");
        json_fast::host(buf, hit.url, hit.host);
        json_fast::key(buf, b",\"flags\":[");
        let html = hit.record.as_ref().and_then(|r| r.mail()?.html);
        let differs = html.is_some_and(|h| h.text_host_differs());
        let names = hit.flags.names();
        let names = names.chain(escaped.then_some("escaped"));
        let names = names.chain(hit.repaired.then_some("qp-repair"));
        let names = names.chain(differs.then_some("text-host-differs"));
        for (k, name) in names.enumerate() {
            if k > 0 {
                buf.push(b',');
            }
            json_fast::name(buf, name);
        }
        buf.push(b']');
        if let Some(d) = hit.defanged {
            json_fast::key(buf, b",\"defanged\":");
            json_fast::text(buf, d);
        }
        if let Some((r, m)) =
            hit.record.as_ref().and_then(|r| Some((r, r.mail()?)))
        {
            json_fast::key(buf, b",\"mail\":{\"message\":");
            json_fast::number(buf, r.index);
            json_fast::key(buf, b",\"message_offset\":");
            json_fast::number(buf, r.offset);
            json_fast::key(buf, b",\"message_id\":");
            match r.id.map(json_fast::cap_bytes) {
                Some((id, cut)) => {
                    json_fast::text(buf, id);
                    if cut {
                        json_fast::key(buf, b",\"message_id_truncated\":true");
                    }
                }
                None => buf.extend_from_slice(b"null"),
            }
            json_fast::key(buf, b",\"part\":");
            json_fast::number(buf, m.part as u64);
            json_fast::key(buf, b",\"location\":");
            json_fast::name(buf, m.location.name());
            json_fast::key(buf, b",\"encoding\":");
            json_fast::name(buf, m.encoding.name());
            json_fast::key(buf, b",\"decoded\":");
            json_fast::boolean(buf, m.decoded);
            if let Some(meta) = m.meta {
                self.meta.write(buf, meta, r.index, r.offset);
            }
            buf.push(b'}');
        }
        if let Some(h) = html {
            json_fast::key(buf, b",\"html\":");
            json_fast::html(
                buf,
                &HtmlRecord {
                    place: Cow::Borrowed(h.place().name()),
                    element: h.element().map(Cow::Borrowed),
                    attribute: h.attribute().map(Cow::Borrowed),
                    link_text: h.link_text().map(Cow::Borrowed),
                },
            );
        }
        buf.extend_from_slice(b"}\n");
        out.write_all(buf)
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

#[cfg(test)]
mod tests;
