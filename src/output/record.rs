//! The records of the JSON Lines output, built from what a writer is
//! given: the one place that says which field of a hit goes where. A
//! match record is built as a [`MatchRef`] (borrowed, no allocation per
//! URL: what [`super::Format::RecordRefs`] shows), and made a
//! [`super::json::MatchRecord`] from that for the serde path
//! ([`super::json`]) and the owned records of [`super::Format::Records`];
//! the fast writer of match records (`json_lines.rs`) writes the same
//! bytes by hand, and `json_lines/tests.rs` holds the two equal on every
//! field.

use super::emit::{path_bytes, Ctx, Run, Tally, Url};
use super::escape::json_text;
use super::json::{
    EndRecord, ErrorRecord, HtmlRecord, MailRecord, Origin, PartJson,
    PartRecord, RejectRecord, SummaryRecord,
};
use super::json_fast;
use super::record_ref::{MailRef, MatchFlags, MatchRef, MetaRef, RefMemo};
use super::url::host_within;
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

/// The match record of `url`, as the JSON output holds it (the fast
/// writer's tests compare with it).
#[cfg(test)]
pub(super) fn match_record<'a>(
    cx: &'a Ctx<'_>,
    url: &'a Url<'a>,
) -> super::json::MatchRecord<'a> {
    match_ref(cx, url).into_record()
}

/// The match record of `url`, borrowed: every field of a match record
/// is taken from the hit here, and nowhere else.
#[cfg(test)]
pub(super) fn match_ref<'a>(
    cx: &'a Ctx<'_>,
    url: &'a Url<'a>,
) -> MatchRef<'a> {
    build_match_ref(cx, url, None)
}

/// [`match_ref`], with what the records before it left in `memo` (the
/// input's name, the message's id and `date_utc`): the same record,
/// made with less work.
pub(super) fn match_ref_memo<'a>(
    cx: &'a Ctx<'_>,
    url: &'a Url<'a>,
    memo: &'a mut RefMemo,
) -> MatchRef<'a> {
    build_match_ref(cx, url, Some(memo))
}

fn build_match_ref<'a>(
    cx: &'a Ctx<'_>,
    url: &'a Url<'a>,
    memo: Option<&'a mut RefMemo>,
) -> MatchRef<'a> {
    let hit = url.hit;
    let message = hit.record.as_ref().filter(|r| r.mail().is_some());
    let source = &url.input.source;
    let path = match source {
        Source::Path(p) => Some(path_bytes(p)),
        Source::Stdin => None,
    };
    let kept = memo.map(|memo| {
        memo.keep(
            path.as_deref(),
            || origin(&cx.opts.stdin_label, source),
            message.and_then(|r| r.mail()?.meta.map(|m| &**m)),
            message.and_then(|r| r.id),
        )
    });
    let (text, escaped) = json_text(url.text);
    let host = host_within(hit.url, hit.host, borrowed(&text));
    let html = hit.record.as_ref().and_then(|r| r.html());
    let flags = MatchFlags {
        found: hit.flags,
        escaped,
        qp_repair: hit.repaired,
        text_host_differs: html.is_some_and(|h| h.text_host_differs()),
    };
    let mail = hit.record.as_ref().and_then(|r| {
        let m = r.mail()?;
        let (message_id, message_id_truncated) = match &kept {
            Some(k) => (k.id.map(|(id, _)| Cow::Borrowed(id)), k.id_cut()),
            None => {
                let id = r.id.map(json_fast::cap_bytes);
                let cut = id.is_some_and(|(_, cut)| cut);
                (id.map(|(id, _)| json_text(id).0), cut)
            }
        };
        Some(MailRef {
            message: r.index,
            message_offset: r.offset,
            message_id,
            message_id_truncated,
            part: m.part as u64,
            location: m.location.name(),
            encoding: m.encoding.name(),
            decoded: m.decoded,
            meta: m.meta.map(|meta| {
                match &kept {
                    Some(k) => MetaRef::with_date(meta, k.date_utc),
                    None => MetaRef::new(meta),
                }
                .shared(meta)
            }),
        })
    });
    let html = html.map(|h| HtmlRecord {
        place: Cow::Borrowed(h.place().name()),
        element: h.element().map(Cow::Borrowed),
        attribute: h.attribute().map(Cow::Borrowed),
        link_text: h.link_text().map(Cow::Borrowed),
    });
    let o = kept
        .and_then(|k| k.origin)
        .unwrap_or_else(|| origin(&cx.opts.stdin_label, &url.input.source));
    MatchRef {
        path: o.path,
        path_escaped: o.path_escaped,
        source: o.source,
        offset: hit.at.start,
        line: hit.at.line,
        column: hit.at.column,
        kind: hit.kind.name(),
        url: text,
        scheme: url.scheme,
        host,
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
        record: hit.record.as_ref().and_then(part_json),
    }
}

/// The text of `t` when it is borrowed (what lives as long as the hit).
fn borrowed<'a>(t: &Cow<'a, str>) -> Option<&'a str> {
    match t {
        Cow::Borrowed(s) => Some(s),
        Cow::Owned(_) => None,
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
/// characters and each `--header` name to
/// [`super::json::HEADER_VALUES_CAP`] values, with the flags that say so.
pub(super) fn meta_record(meta: &Metadata) -> MailRecord<'_> {
    MetaRef::new(meta).to_record()
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
