//! Owned records: every borrowed string of a [`Record`] copied, so that a
//! record outlives the batch and the input it was written from (what
//! [`crate::output::Format::Records`] hands out).

use super::{
    EndRecord, ErrorRecord, FromRecord, HtmlRecord, MailRecord, MatchRecord,
    Origin, Record, RejectRecord, WebRecordJson,
};
use std::borrow::Cow;

/// `c`, owned.
fn own(c: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(c.into_owned())
}

/// `c`, owned, when there is one.
fn own_opt(c: Option<Cow<'_, str>>) -> Option<Cow<'static, str>> {
    c.map(own)
}

impl Record<'_> {
    /// The record, owning every string it holds.
    pub fn into_owned(self) -> Record<'static> {
        match self {
            Record::Begin(o) => Record::Begin(o.into_owned()),
            Record::Match(m) => Record::Match(m.into_owned()),
            Record::Reject(r) => Record::Reject(r.into_owned()),
            Record::Error(e) => Record::Error(e.into_owned()),
            Record::End(e) => Record::End(e.into_owned()),
            Record::Summary(s) => Record::Summary(s),
        }
    }
}

impl Origin<'_> {
    /// The origin, owned.
    pub fn into_owned(self) -> Origin<'static> {
        Origin {
            path: own_opt(self.path),
            source: own_opt(self.source),
            path_escaped: self.path_escaped,
        }
    }
}

impl MatchRecord<'_> {
    /// The record, owning every string it holds.
    pub fn into_owned(self) -> MatchRecord<'static> {
        MatchRecord {
            path: own_opt(self.path),
            source: own_opt(self.source),
            path_escaped: self.path_escaped,
            offset: self.offset,
            line: self.line,
            column: self.column,
            kind: own(self.kind),
            url: own(self.url),
            scheme: own(self.scheme),
            host: own_opt(self.host),
            flags: self.flags.into_iter().map(own).collect(),
            defanged: own_opt(self.defanged),
            reference: own_opt(self.reference),
            mail: self.mail.map(|m| Box::new(m.into_owned())),
            html: self.html.map(|h| Box::new(h.into_owned())),
            record: self.record.map(|r| Box::new(r.into_owned())),
        }
    }
}

impl WebRecordJson<'_> {
    /// The record, owned.
    pub fn into_owned(self) -> WebRecordJson<'static> {
        WebRecordJson {
            format: own(self.format),
            kind: own(self.kind),
            target_uri: own_opt(self.target_uri),
            date: own_opt(self.date),
            id: own_opt(self.id),
            content_type: own_opt(self.content_type),
            ..self
        }
    }
}

impl HtmlRecord<'_> {
    /// The record, owned.
    pub fn into_owned(self) -> HtmlRecord<'static> {
        HtmlRecord {
            place: own(self.place),
            element: own_opt(self.element),
            attribute: own_opt(self.attribute),
            link_text: own_opt(self.link_text),
        }
    }
}

impl MailRecord<'_> {
    /// The record, owned.
    pub fn into_owned(self) -> MailRecord<'static> {
        MailRecord {
            message: self.message,
            message_offset: self.message_offset,
            message_id: own_opt(self.message_id),
            message_id_truncated: self.message_id_truncated,
            part: self.part,
            location: own(self.location),
            encoding: own(self.encoding),
            decoded: self.decoded,
            from: self.from.map(|f| FromRecord {
                address: own_opt(f.address),
                name: own_opt(f.name),
                truncated: f.truncated,
            }),
            subject: own_opt(self.subject),
            subject_truncated: self.subject_truncated,
            date: own_opt(self.date),
            date_truncated: self.date_truncated,
            date_utc: own_opt(self.date_utc),
            headers: self.headers.map(|h| {
                h.into_iter()
                    .map(|(k, v)| (own(k), v.into_iter().map(own).collect()))
                    .collect()
            }),
            headers_truncated: self.headers_truncated,
        }
    }
}

impl RejectRecord<'_> {
    /// The record, owned.
    pub fn into_owned(self) -> RejectRecord<'static> {
        RejectRecord {
            path: own_opt(self.path),
            source: own_opt(self.source),
            path_escaped: self.path_escaped,
            offset: self.offset,
            line: self.line,
            column: self.column,
            kind: own(self.kind),
            url: own(self.url),
            scheme: own(self.scheme),
            reason: own(self.reason),
            message: own(self.message),
        }
    }
}

impl ErrorRecord<'_> {
    /// The record, owned.
    pub fn into_owned(self) -> ErrorRecord<'static> {
        ErrorRecord {
            path: own_opt(self.path),
            source: own_opt(self.source),
            path_escaped: self.path_escaped,
            message: own(self.message),
        }
    }
}

impl EndRecord<'_> {
    /// The record, owned.
    pub fn into_owned(self) -> EndRecord<'static> {
        EndRecord {
            path: own_opt(self.path),
            source: own_opt(self.source),
            path_escaped: self.path_escaped,
            ..self
        }
    }
}
