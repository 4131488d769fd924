//! The records of the JSON Lines output, built from what a writer is
//! given: the one place that says which field of a hit goes where. The
//! serde path ([`super::json`]) and the owned records of
//! [`super::Format::Records`] take them from here; the fast writer of
//! match records (`json_lines.rs`) writes the same bytes by hand, and
//! `json_lines/tests.rs` holds the two equal on every field.

use super::emit::{path_bytes, Ctx, Run, Tally, Url};
use super::escape::json_text;
use super::json::{
    EndRecord, ErrorRecord, FromRecord, HtmlRecord, MailRecord, MatchRecord,
    Origin, PartJson, PartRecord, RejectRecord, SummaryRecord,
    HEADER_VALUES_CAP,
};
use super::json_fast;
use super::url::host_ref;
use crate::container::Provenance;
use crate::driver::InputDone;
use crate::input::{InputError, Source};
use crate::mail::Metadata;
use crate::parse::Reject;
use crate::scan::Kind;
use std::borrow::Cow;

/// The input's name for JSON; a path that is not UTF-8 is escaped and
/// flagged (`path_escaped`). Stdin is `"path":"-"`, as it is named on
/// the command line, with its label (`--source`) in `source`.
pub(super) fn origin<'a>(
    stdin_label: &'a str,
    source: &'a Source,
) -> Origin<'a> {
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

/// The match record of `url`.
pub(super) fn match_record<'a>(
    cx: &'a Ctx<'_>,
    url: &'a Url<'a>,
) -> MatchRecord<'a> {
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
    let mail = hit.record.as_ref().and_then(|r| Some((r, r.mail()?)));
    let html = hit.record.as_ref().and_then(|r| r.html()).map(|h| {
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
    let mail = mail.map(|(r, m)| {
        let mut rec = match m.meta {
            Some(meta) => meta_record(meta),
            None => mail_record(None),
        };
        let id = r.id.map(json_fast::cap_bytes);
        rec.message = r.index;
        rec.message_offset = r.offset;
        rec.message_id = id.map(|(id, _)| json_text(id).0);
        rec.message_id_truncated = id.is_some_and(|(_, cut)| cut);
        rec.part = m.part as u64;
        rec.location = Cow::Borrowed(m.location.name());
        rec.encoding = Cow::Borrowed(m.encoding.name());
        rec.decoded = m.decoded;
        Box::new(rec)
    });
    let record = hit.record.as_ref().and_then(part_json).map(Box::new);
    let o = origin(&cx.opts.stdin_label, &url.input.source);
    MatchRecord {
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
        defanged: hit
            .defanged
            .filter(|_| hit.kind != Kind::Resolved)
            .map(|d| json_text(d).0),
        reference: hit
            .defanged
            .filter(|_| hit.kind == Kind::Resolved)
            .map(|d| json_text(d).0),
        mail,
        html,
        record,
    }
}

/// The `record` object of a match record, when `r` is a record of a
/// container other than mail: its index and offset, then the fields its
/// part names.
pub(super) fn part_json<'a>(r: &Provenance<'a>) -> Option<PartRecord<'a>> {
    let part = r.part()?;
    let mut fields = vec![
        (Cow::Borrowed("index"), PartJson::U64(r.index)),
        (Cow::Borrowed("offset"), PartJson::U64(r.offset)),
    ];
    part.fields(&mut |name, value| {
        fields.push((Cow::Borrowed(name), value.into()));
    });
    Some(PartRecord { fields })
}

/// A mail record holding only the fields of `meta` (the message's own
/// fields are left empty), each string cut to [`super::json::FIELD_CAP`]
/// characters and each `--header` name to [`HEADER_VALUES_CAP`] values,
/// with the flags that say so.
pub(super) fn meta_record(meta: &Metadata) -> MailRecord<'_> {
    mail_record(Some(meta))
}

/// [`meta_record`], or a mail record without metadata (it was not asked
/// for): no `from`, `subject`, `date`, `date_utc` or `headers`.
fn mail_record(meta: Option<&Metadata>) -> MailRecord<'_> {
    let empty = MailRecord {
        message: 0,
        message_offset: 0,
        message_id: None,
        message_id_truncated: false,
        part: 0,
        location: Cow::Borrowed(""),
        encoding: Cow::Borrowed(""),
        decoded: false,
        from: None,
        subject: None,
        subject_truncated: false,
        date: None,
        date_truncated: false,
        date_utc: None,
        headers: None,
        headers_truncated: false,
    };
    let Some(meta) = meta else { return empty };
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
        ..empty
    }
}

/// `s` cut by [`json_fast::cap_str`], and whether it was.
fn cap(s: Option<&str>) -> (Option<Cow<'_, str>>, bool) {
    match s.map(json_fast::cap_str) {
        Some((s, cut)) => (Some(Cow::Borrowed(s)), cut),
        None => (None, false),
    }
}

/// The record of a rejected candidate.
pub(super) fn reject_record<'a>(
    cx: &'a Ctx<'_>,
    url: &'a Url<'a>,
    reject: Reject,
) -> RejectRecord<'a> {
    let hit = url.hit;
    let o = origin(&cx.opts.stdin_label, &url.input.source);
    RejectRecord {
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
    }
}

/// The record of an input that could not be (fully) read.
pub(super) fn error_record<'a>(
    cx: &'a Ctx<'_>,
    err: &'a InputError,
) -> ErrorRecord<'a> {
    let o = origin(&cx.opts.stdin_label, &err.source);
    ErrorRecord {
        path: o.path,
        path_escaped: o.path_escaped,
        source: o.source,
        message: Cow::Owned(err.to_string()),
    }
}

/// The record of an input's end; `tally` is what was selected of it.
pub(super) fn end_record<'a>(
    cx: &'a Ctx<'_>,
    source: &'a Source,
    done: &InputDone,
    tally: &Tally,
) -> EndRecord<'a> {
    let o = origin(&cx.opts.stdin_label, source);
    EndRecord {
        path: o.path,
        path_escaped: o.path_escaped,
        source: o.source,
        bytes: done.bytes,
        candidates: tally.matches + tally.rejected,
        matches: tally.matches,
        rejected: tally.rejected,
        messages: done.messages,
    }
}

/// The record of the run's end.
pub(super) fn summary_record(run: &Run<'_>) -> SummaryRecord {
    let c = run.counts;
    SummaryRecord {
        files: c.get("total", "files"),
        bytes: c.get("total", "bytes"),
        candidates: c.get("total", "candidates"),
        matches: c.get("total", "matches"),
        rejected: c.get("total", "rejected"),
        errors: c.get("total", "errors"),
        messages: run.mail.then(|| c.get("total", "messages")),
    }
}
