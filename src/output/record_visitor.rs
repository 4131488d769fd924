//! [`RecordVisitor`]: where [`Format::RecordRefs`](super::Format::RecordRefs)
//! shows each record, borrowed (its writer is `printer/records.rs`).
//! Apart from the writer, so that the options name it without importing
//! the writers.

use super::json::Record;
use super::record_ref::MatchRef;
use std::fmt;
use std::io;
use std::sync::Arc;

/// The function a [`RecordVisitor`] calls.
type Visit = dyn Fn(&Record<'_>) -> io::Result<()> + Send + Sync;

/// The function a [`RecordVisitor`] calls with each match record, when
/// it has one ([`RecordVisitor::with_matches`]).
type VisitMatch = dyn Fn(&MatchRef<'_>) -> io::Result<()> + Send + Sync;

/// Where [`Format::RecordRefs`](super::Format::RecordRefs) shows each
/// record, borrowed, in the order `--json` writes them. An error it
/// returns stops the run as a write error would.
#[derive(Clone)]
pub struct RecordVisitor {
    visit: Arc<Visit>,
    matches: Option<Arc<VisitMatch>>,
}

impl RecordVisitor {
    /// Shows `rec`.
    pub fn visit(&self, rec: &Record<'_>) -> io::Result<()> {
        (self.visit)(rec)
    }

    /// Shows the match record `m`: to the function of
    /// [`RecordVisitor::with_matches`], else as a [`Record`].
    pub fn visit_match(&self, m: MatchRef<'_>) -> io::Result<()> {
        match &self.matches {
            Some(f) => f(&m),
            None => (self.visit)(&Record::Match(m.into_record())),
        }
    }

    /// A visitor sending each record, owned, to `send` (what
    /// [`Format::Records`](super::Format::Records) hands out).
    pub fn owned(send: super::RecordSender) -> RecordVisitor {
        let each = send.clone();
        RecordVisitor::new(move |rec| each.send(rec.clone().into_owned()))
            .with_matches(move |m| {
                send.send(Record::Match(m.to_record().into_owned()))
            })
    }

    /// A visitor calling `f` with each record.
    pub fn new(
        f: impl Fn(&Record<'_>) -> io::Result<()> + Send + Sync + 'static,
    ) -> RecordVisitor {
        RecordVisitor { visit: Arc::new(f), matches: None }
    }

    /// The visitor, calling `f` with each match record instead, as a
    /// [`MatchRef`]: its fields are a match record's, without the
    /// allocations a [`Record`] makes per URL (the flags' list, the
    /// boxes of `mail` and `html`). The other records still go to the
    /// function of [`RecordVisitor::new`].
    pub fn with_matches(
        self,
        f: impl Fn(&MatchRef<'_>) -> io::Result<()> + Send + Sync + 'static,
    ) -> RecordVisitor {
        RecordVisitor { matches: Some(Arc::new(f)), ..self }
    }
}

impl fmt::Debug for RecordVisitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RecordVisitor")
    }
}
