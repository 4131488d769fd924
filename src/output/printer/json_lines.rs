//! JSON Lines: a `begin`, `match`, `reject`, `error` and `end` record per
//! input, and a `summary` after the run ([`super::json`] has the records).

use crate::container::{MailFields, Provenance};
use crate::driver::InputDone;
use crate::input::{Input, InputError, Source};
use crate::mail::{Encoding, Location, Metadata};
use crate::output::emit::{path_bytes, Ctx, Emit, Run, Tally, Url};
use crate::output::escape;
use crate::output::json::{HtmlRecord, Record};
use crate::output::json_fast;
use crate::output::record::{
    end_record, error_record, meta_record, origin, reject_record,
    summary_record,
};
use crate::parse::Reject;
use crate::scan::Kind;
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
    /// The `mail` object of the last match record.
    mail: MailJson,
    /// The line keys and number of the last match record.
    line: json_fast::LineKeys,
}

/// The `mail` object of a match record (`,"mail":{…}`), kept with the
/// message and text it was written for: the matches of a message's part
/// share it. Written again for each, its keys, numbers and metadata were
/// a third of a record of a message dense with URLs (issue 33).
#[derive(Debug, Default)]
struct MailJson {
    /// The message (index and offset in the current input: the same is
    /// the same message, as for [`MetaJson`]), its id's and metadata's
    /// addresses, and the part, location, encoding and `decoded` of the
    /// text.
    of: Option<MailKey>,
    json: Vec<u8>,
}

/// What a `mail` object is written from (see [`MailJson::of`]).
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
struct MailKey {
    index: u64,
    offset: u64,
    id: Option<(usize, usize)>,
    meta: Option<usize>,
    part: usize,
    location: Location,
    encoding: Encoding,
    decoded: bool,
}

impl MailJson {
    /// A new input: its messages are not the last input's.
    fn new_input(&mut self) {
        self.of = None;
    }
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
    /// The line being written starts with `json` (it is kept there from
    /// one record to the next: copying it again for each was 53
    /// instructions a record of dense URLs, issue 33).
    in_line: bool,
}

impl Head {
    /// Makes `line` (the line being written, written by nothing else)
    /// the start of a match record of `source`, and nothing after it.
    fn start(
        &mut self,
        line: &mut Vec<u8>,
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
        } else if self.in_line && line.len() >= self.json.len() {
            line.truncate(self.json.len());
            return;
        }
        line.clear();
        line.extend_from_slice(&self.json);
        self.in_line = true;
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

/// Appends the `mail` object of a match record found in message `r`,
/// in its text `m`.
fn mail_object(
    buf: &mut Vec<u8>,
    r: &Provenance<'_>,
    m: &MailFields<'_>,
    meta_json: &mut MetaJson,
) {
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
        meta_json.write(buf, meta, r.index, r.offset);
    }
    buf.push(b'}');
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
        self.mail.new_input();
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
        self.head.start(buf, &cx.opts.stdin_label, &url.input.source);
        let at = &hit.at;
        if self.line.is(at.line) {
            json_fast::position_on_line(
                buf,
                &mut self.line,
                at.start,
                at.column,
                hit.kind,
            );
        } else {
            json_fast::position(buf, at.start, at.line, at.column, hit.kind);
            self.line.note(at.line);
        }
        let escaped = json_fast::text(buf, url.text);
        json_fast::scheme_and_host_key(buf, url.scheme);
        json_fast::host(buf, hit.url, hit.host);
        json_fast::key(buf, b",\"flags\":[");
        let html = hit.record.as_ref().and_then(|r| r.html());
        let differs = html.is_some_and(|h| h.text_host_differs());
        // Most URLs have no flag: no chain of names to walk for them.
        if !hit.flags.is_empty() || escaped || hit.repaired || differs {
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
        }
        buf.push(b']');
        if let Some(d) = hit.defanged {
            // A resolved reference's slot holds the reference as written.
            match hit.kind {
                Kind::Resolved => json_fast::key(buf, b",\"reference\":"),
                _ => json_fast::key(buf, b",\"defanged\":"),
            }
            json_fast::text(buf, d);
        }
        if let Some((r, m)) =
            hit.record.as_ref().and_then(|r| Some((r, r.mail()?)))
        {
            let key = MailKey {
                index: r.index,
                offset: r.offset,
                id: r.id.map(|id| (id.as_ptr() as usize, id.len())),
                meta: m.meta.map(|meta| std::ptr::from_ref(&**meta) as usize),
                part: m.part,
                location: m.location,
                encoding: m.encoding,
                decoded: m.decoded,
            };
            if self.mail.of != Some(key) {
                let json = &mut self.mail.json;
                json.clear();
                mail_object(json, r, m, &mut self.meta);
                self.mail.of = Some(key);
            }
            buf.extend_from_slice(&self.mail.json);
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
        if let Some((r, part)) =
            hit.record.as_ref().and_then(|r| Some((r, r.part()?)))
        {
            json_fast::key(buf, b",\"record\":");
            json_fast::part(buf, r.index, r.offset, &**part);
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
        line(out, &Record::Reject(reject_record(cx, url, reject)))
    }

    fn error(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        err: &InputError,
    ) -> io::Result<()> {
        line(out, &Record::Error(error_record(cx, err)))
    }

    fn end(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
        done: &InputDone,
        tally: &Tally,
    ) -> io::Result<()> {
        let rec = end_record(cx, &input.source, done, tally);
        line(out, &Record::End(rec))
    }

    fn finish(
        &mut self,
        out: &mut W,
        _: &Ctx<'_>,
        run: &Run<'_>,
    ) -> io::Result<()> {
        line(out, &Record::Summary(summary_record(run)))
    }
}

#[cfg(test)]
mod tests;
