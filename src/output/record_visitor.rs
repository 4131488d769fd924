//! [`RecordVisitor`]: where [`Format::RecordRefs`](super::Format::RecordRefs)
//! shows each record, borrowed (its writer is `record_refs.rs`). Apart
//! from the writer, so that the options name it without importing the
//! writers.

use super::json::Record;
use std::fmt;
use std::io;
use std::sync::Arc;

/// The function a [`RecordVisitor`] calls.
type Visit = dyn Fn(&Record<'_>) -> io::Result<()> + Send + Sync;

/// Where [`Format::RecordRefs`](super::Format::RecordRefs) shows each
/// record, borrowed, in the order `--json` writes them. An error it
/// returns stops the run as a write error would.
#[derive(Clone)]
pub struct RecordVisitor(Arc<Visit>);

impl RecordVisitor {
    /// Shows `rec`.
    pub fn visit(&self, rec: &Record<'_>) -> io::Result<()> {
        (self.0)(rec)
    }

    /// A visitor sending each record, owned, to `send` (what
    /// [`Format::Records`](super::Format::Records) hands out).
    pub fn owned(send: super::RecordSender) -> RecordVisitor {
        RecordVisitor::new(move |rec| send.send(rec.clone().into_owned()))
    }

    /// A visitor calling `f` with each record.
    pub fn new(
        f: impl Fn(&Record<'_>) -> io::Result<()> + Send + Sync + 'static,
    ) -> RecordVisitor {
        RecordVisitor(Arc::new(f))
    }
}

impl fmt::Debug for RecordVisitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RecordVisitor")
    }
}
