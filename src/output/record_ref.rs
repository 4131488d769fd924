//! [`MatchRef`]: a match record borrowed from its hit, for a reader that
//! copies its fields at once (the Python module's Arrow columns,
//! through [`RecordVisitor::with_matches`](super::RecordVisitor::with_matches)).
//! It holds what a [`MatchRecord`] holds, built by `record.rs` (the one
//! place that says which field of a hit goes where) without an
//! allocation per URL: the flags a bitset, the `mail` and `html` objects
//! inline, the message's `date_utc` in a fixed buffer, its `--header`
//! values left in the message's metadata. [`MatchRef::to_record`] makes
//! the [`MatchRecord`] of the JSON output from it, so the two cannot
//! differ. [`RefMemo`] keeps what the match records of a writer share
//! (an input's name, a message's `date_utc`), made once rather than once
//! a URL.

use super::escape::json_text;
use super::json::Origin;
use super::json::{
    FromRecord, HtmlRecord, MailRecord, MatchRecord, PartRecord,
    HEADER_VALUES_CAP,
};
use super::json_fast;
use crate::mail::date::UtcTime;
use crate::mail::Metadata;
use crate::scan::Flags;
use std::borrow::Cow;
use std::sync::Arc;

/// A match record, borrowed: the fields of [`MatchRecord`], with
/// `flags`, `mail` and `html` held without allocating.
#[derive(Clone, Debug)]
pub struct MatchRef<'a> {
    /// [`MatchRecord::path`].
    pub path: Option<Cow<'a, str>>,
    /// [`MatchRecord::source`].
    pub source: Option<Cow<'a, str>>,
    /// [`MatchRecord::path_escaped`].
    pub path_escaped: bool,
    /// [`MatchRecord::offset`].
    pub offset: u64,
    /// [`MatchRecord::line`].
    pub line: u64,
    /// [`MatchRecord::column`].
    pub column: u64,
    /// [`MatchRecord::kind`].
    pub kind: &'static str,
    /// [`MatchRecord::url`].
    pub url: Cow<'a, str>,
    /// [`MatchRecord::scheme`].
    pub scheme: &'a str,
    /// [`MatchRecord::host`].
    pub host: Option<Cow<'a, str>>,
    /// [`MatchRecord::flags`], as a set.
    pub flags: MatchFlags,
    /// [`MatchRecord::defanged`].
    pub defanged: Option<Cow<'a, str>>,
    /// [`MatchRecord::reference`].
    pub reference: Option<Cow<'a, str>>,
    /// [`MatchRecord::mail`].
    pub mail: Option<MailRef<'a>>,
    /// [`MatchRecord::html`].
    pub html: Option<HtmlRecord<'a>>,
    /// [`MatchRecord::record`] (a web archive's record: its fields in a
    /// vector).
    pub record: Option<PartRecord<'a>>,
}

/// The `flags` of a match record, as a set: those of the find, then
/// `escaped`, `qp-repair` and `text-host-differs`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchFlags {
    pub(super) found: Flags,
    pub(super) escaped: bool,
    pub(super) qp_repair: bool,
    pub(super) text_host_differs: bool,
}

impl MatchFlags {
    /// The names, in the order of the record's `flags` list.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        self.found
            .names()
            .chain(self.escaped.then_some("escaped"))
            .chain(self.qp_repair.then_some("qp-repair"))
            .chain(self.text_host_differs.then_some("text-host-differs"))
    }
}

/// The `mail` object of a match record, borrowed
/// ([`MailRecord`]'s fields).
#[derive(Clone, Debug)]
pub struct MailRef<'a> {
    /// [`MailRecord::message`].
    pub message: u64,
    /// [`MailRecord::message_offset`].
    pub message_offset: u64,
    /// [`MailRecord::message_id`].
    pub message_id: Option<Cow<'a, str>>,
    /// [`MailRecord::message_id_truncated`].
    pub message_id_truncated: bool,
    /// [`MailRecord::part`].
    pub part: u64,
    /// [`MailRecord::location`].
    pub location: &'static str,
    /// [`MailRecord::encoding`].
    pub encoding: &'static str,
    /// [`MailRecord::decoded`].
    pub decoded: bool,
    /// The message's metadata fields, when they were asked for.
    pub meta: Option<MetaRef<'a>>,
}

/// The metadata fields of a `mail` object ([`MailRecord`]'s `from`,
/// `subject`, `date`, `date_utc` and `headers`), each string cut as
/// [`MailRecord`] says.
#[derive(Clone, Debug)]
pub struct MetaRef<'a> {
    /// [`MailRecord::from`].
    pub from: Option<FromRecord<'a>>,
    /// [`MailRecord::subject`].
    pub subject: Option<&'a str>,
    /// [`MailRecord::subject_truncated`].
    pub subject_truncated: bool,
    /// [`MailRecord::date`].
    pub date: Option<&'a str>,
    /// [`MailRecord::date_truncated`].
    pub date_truncated: bool,
    /// [`MailRecord::date_utc`] ([`DateUtc::as_str`]).
    pub date_utc: Option<DateUtc>,
    /// Where `headers` come from ([`MetaRef::headers`]).
    meta: &'a Metadata,
    /// The same metadata as shared by the message's URLs, when the
    /// fields were read from that ([`MetaRef::source`]).
    shared: Option<&'a Arc<Metadata>>,
}

/// The metadata a [`MetaRef`]'s fields were read from, held
/// ([`MetaRef::source`]): while it is held, that metadata lives and
/// stays as it was, so a [`MetaRef`] read from the same
/// ([`MetaRef::is_from`]) has the same fields. A reader that copies
/// each record's fields (the Python module's Arrow columns) copies a
/// message's once, and repeats them for its other URLs without
/// comparing them.
#[derive(Clone, Debug)]
pub struct MetaSource(Arc<Metadata>);

/// An RFC 3339 instant in UTC (`2001-01-05T20:00:00Z`), in a fixed
/// buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateUtc([u8; 20]);

impl DateUtc {
    /// The text.
    pub fn as_str(&self) -> &str {
        // RFC 3339 in UTC: ASCII digits and punctuation.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// The text's bytes (ASCII: [`DateUtc::as_str`] without checking
    /// them again).
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// `s` cut by [`json_fast::cap_str`], and whether it was.
fn cap(s: Option<&str>) -> (Option<&str>, bool) {
    match s.map(json_fast::cap_str) {
        Some((s, cut)) => (Some(s), cut),
        None => (None, false),
    }
}

impl<'a> MetaRef<'a> {
    /// The fields of `meta`, each string cut to
    /// [`super::json::FIELD_CAP`] characters.
    pub(super) fn new(meta: &'a Metadata) -> MetaRef<'a> {
        MetaRef::with_date(meta, meta.date_utc.map(|d| DateUtc(d.rfc3339())))
    }

    /// [`MetaRef::new`], with `date_utc` the text of `meta.date_utc`,
    /// made by the caller ([`RefMemo::date_utc`]).
    pub(super) fn with_date(
        meta: &'a Metadata,
        date_utc: Option<DateUtc>,
    ) -> MetaRef<'a> {
        let (subject, subject_truncated) = cap(meta.subject.as_deref());
        let (date, date_truncated) = cap(meta.date.as_deref());
        MetaRef {
            from: meta.from.as_ref().map(|f| {
                let (address, a_cut) = cap(f.address.as_deref());
                let (name, n_cut) = cap(f.name.as_deref());
                FromRecord {
                    address: address.map(Cow::Borrowed),
                    name: name.map(Cow::Borrowed),
                    truncated: a_cut || n_cut,
                }
            }),
            subject,
            subject_truncated,
            date,
            date_truncated,
            date_utc,
            meta,
            shared: None,
        }
    }

    /// The fields, read from `shared` (the metadata its message's URLs
    /// share): [`MetaRef::source`] can hold it.
    pub(super) fn shared(self, shared: &'a Arc<Metadata>) -> MetaRef<'a> {
        debug_assert!(std::ptr::eq(self.meta, &**shared));
        MetaRef { shared: Some(shared), ..self }
    }

    /// The metadata these fields were read from, held (`None` when they
    /// were read from metadata that was not shared: never for a match
    /// record's `mail` object).
    pub fn source(&self) -> Option<MetaSource> {
        self.shared.map(|a| MetaSource(Arc::clone(a)))
    }

    /// Whether these fields were read from the metadata `source` holds
    /// (the same allocation, alive since it is held): they are then
    /// those of the [`MetaRef`] it was taken from.
    pub fn is_from(&self, source: &MetaSource) -> bool {
        self.shared.is_some_and(|a| Arc::ptr_eq(a, &source.0))
    }

    /// [`MailRecord::headers`] and [`MailRecord::headers_truncated`]:
    /// each `--header` name's values, at most [`HEADER_VALUES_CAP`] a
    /// name, each cut to [`super::json::FIELD_CAP`] characters (`None`
    /// without `--header`).
    #[allow(clippy::type_complexity)]
    pub fn headers(&self) -> (Option<Vec<(&'a str, Vec<&'a str>)>>, bool) {
        let meta = self.meta;
        if meta.header_names.is_empty() {
            return (None, false);
        }
        let mut truncated = false;
        let headers = meta
            .headers()
            .into_iter()
            .map(|(n, v)| {
                truncated |= v.len() > HEADER_VALUES_CAP;
                let v = v.into_iter().take(HEADER_VALUES_CAP).map(|s| {
                    let (s, cut) = json_fast::cap_str(s);
                    truncated |= cut;
                    s
                });
                (n, v.collect())
            })
            .collect();
        (Some(headers), truncated)
    }

    /// The mail record holding these fields only (the message's own
    /// fields left empty).
    pub(super) fn to_record(&self) -> MailRecord<'a> {
        let (headers, headers_truncated) = self.headers();
        MailRecord {
            from: self.from.clone(),
            subject: self.subject.map(Cow::Borrowed),
            subject_truncated: self.subject_truncated,
            date: self.date.map(Cow::Borrowed),
            date_truncated: self.date_truncated,
            date_utc: self.date_utc.map(|d| Cow::Owned(d.as_str().to_owned())),
            headers: headers.map(|h| {
                h.into_iter()
                    .map(|(n, v)| {
                        (
                            Cow::Borrowed(n),
                            v.into_iter().map(Cow::Borrowed).collect(),
                        )
                    })
                    .collect()
            }),
            headers_truncated,
            ..empty_mail()
        }
    }
}

/// What the match records of a writer share, kept from one record to
/// the next (`printer/records.rs`): its input's name (the path's UTF-8
/// check and escape made once an input, not once a URL), and the last
/// message's id text and `date_utc` text (once a message). Each is kept
/// with what it was made from (the path's bytes, the id's bytes, the
/// instant) and used only for the same, else made again: a record built
/// with it is the record built without.
#[derive(Debug, Default)]
pub(crate) struct RefMemo {
    /// A path's bytes, its JSON text, and whether that is escaped.
    path: Option<(Vec<u8>, String, bool)>,
    /// A message id's bytes, its text (cut) and whether it was cut.
    id: Option<(Vec<u8>, String, bool)>,
    /// An instant and its text.
    date: Option<(UtcTime, DateUtc)>,
}

/// What a [`RefMemo`] gives one match record ([`RefMemo::keep`]).
pub(super) struct Kept<'a> {
    /// The record's input name; `None` for stdin (not kept: nothing to
    /// check or escape).
    pub origin: Option<Origin<'a>>,
    /// The message id's text, and whether it was cut.
    pub id: Option<(&'a str, bool)>,
    /// The text of the metadata's `date_utc`.
    pub date_utc: Option<DateUtc>,
}

impl Kept<'_> {
    /// Whether the message id was cut.
    pub fn id_cut(&self) -> bool {
        self.id.is_some_and(|(_, cut)| cut)
    }
}

impl RefMemo {
    /// The values of a match record from the file of `path` (its bytes;
    /// `None`: stdin), whose name `origin` makes (`record.rs`'s
    /// `origin`), in a message with `meta` and `id` (as [`MetaRef::new`]
    /// and `record.rs` make them), each made again only when what it is
    /// made from changed.
    pub(super) fn keep<'a, 'o>(
        &'a mut self,
        path: Option<&[u8]>,
        origin: impl FnOnce() -> Origin<'o>,
        meta: Option<&Metadata>,
        id: Option<&[u8]>,
    ) -> Kept<'a> {
        if let Some(bytes) = path {
            if self.path.as_ref().is_none_or(|(b, _, _)| **b != *bytes) {
                let o = origin();
                let text = o.path.map(Cow::into_owned).unwrap_or_default();
                self.path = Some((bytes.to_vec(), text, o.path_escaped));
            }
        }
        if let Some(id) = id {
            if self.id.as_ref().is_none_or(|(b, _, _)| **b != *id) {
                let (cut_id, cut) = json_fast::cap_bytes(id);
                let text = json_text(cut_id).0.into_owned();
                self.id = Some((id.to_vec(), text, cut));
            }
        }
        let date_utc = match (meta.and_then(|m| m.date_utc), self.date) {
            (None, _) => None,
            (Some(t), Some((at, text))) if at == t => Some(text),
            (Some(t), _) => {
                let text = DateUtc(t.rfc3339());
                self.date = Some((t, text));
                Some(text)
            }
        };
        let this = &*self;
        Kept {
            origin: match (path, &this.path) {
                (Some(_), Some((_, text, escaped))) => Some(Origin {
                    path: Some(Cow::Borrowed(text)),
                    source: None,
                    path_escaped: *escaped,
                }),
                _ => None,
            },
            id: id
                .and(this.id.as_ref())
                .map(|(_, text, cut)| (text.as_str(), *cut)),
            date_utc,
        }
    }
}

/// A mail record with no field set.
fn empty_mail() -> MailRecord<'static> {
    MailRecord {
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
    }
}

impl<'a> MailRef<'a> {
    /// The `mail` object of the JSON output.
    pub fn to_record(&self) -> MailRecord<'a> {
        let base = match &self.meta {
            Some(meta) => meta.to_record(),
            None => empty_mail(),
        };
        MailRecord {
            message: self.message,
            message_offset: self.message_offset,
            message_id: self.message_id.clone(),
            message_id_truncated: self.message_id_truncated,
            part: self.part,
            location: Cow::Borrowed(self.location),
            encoding: Cow::Borrowed(self.encoding),
            decoded: self.decoded,
            ..base
        }
    }
}

impl<'a> MatchRef<'a> {
    /// The match record of the JSON output (`--json` writes it, and
    /// [`Format::Records`](super::Format::Records) hands it out owned).
    pub fn to_record(&self) -> MatchRecord<'a> {
        self.clone().into_record()
    }

    /// [`MatchRef::to_record`], taking the record.
    pub fn into_record(self) -> MatchRecord<'a> {
        MatchRecord {
            path: self.path,
            path_escaped: self.path_escaped,
            source: self.source,
            offset: self.offset,
            line: self.line,
            column: self.column,
            kind: Cow::Borrowed(self.kind),
            url: self.url,
            scheme: Cow::Borrowed(self.scheme),
            host: self.host,
            flags: self.flags.names().map(Cow::Borrowed).collect(),
            defanged: self.defanged,
            reference: self.reference,
            mail: self.mail.as_ref().map(|m| Box::new(m.to_record())),
            html: self.html.map(Box::new),
            record: self.record.map(Box::new),
        }
    }
}
