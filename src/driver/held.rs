//! Collects the matches of bytes held in hand (a small file read whole,
//! an mbox slice held whole), sending them on in parts as a stream's
//! are: a held file of 200 k URLs kept 200 k hits (23 MB, 6,500 page
//! faults) until it ended, and `-n` on it took 1.5× the CPU of the same
//! bytes on stdin (issue 33). A part's vectors come back to the search
//! through the spare pool, so the hits stay in memory that is warm.

use super::batch::{Batch, Part, Spare, PART_HITS};
use crate::container::{self, RecordSink};
use crate::input::Input;
use std::convert::Infallible;

/// Where the parts of a held search go.
pub(super) struct HeldParts<'b, 'p> {
    /// The unit's parts.
    pub(super) part: Part<'p>,
    /// The unit's input.
    pub(super) input: &'b Input,
    /// `Some(first)` for a slice (its line and message numbers are
    /// relative to it, and whether it is its file's first), `None` for
    /// a whole input.
    pub(super) sliced: Option<bool>,
}

/// A sink over a [`Batch`] that sends the batch's matches on every
/// [`PART_HITS`] of them ([`super::batch::Parts::put`]: a unit not due
/// yet goes on while the results waiting hold little).
pub(super) struct HeldCollect<'b, 'p> {
    pub(super) batch: &'b mut Batch,
    /// Where a part's vectors are taken from.
    pub(super) spare: &'b Spare,
    /// Where parts go (none: the batch holds every match).
    pub(super) parts: Option<HeldParts<'b, 'p>>,
    /// The run stopped (a part said so): no more parts are sent. The
    /// search of the held bytes goes on to their end, as it did when they
    /// went whole: a sink that may stop made the mail walk's code around
    /// every match longer (+16 instructions a URL of the spool).
    pub(super) stopped: bool,
}

impl HeldCollect<'_, '_> {
    /// Sends the matches found so far on when they are a part.
    #[inline(always)]
    fn sent_on(&mut self) {
        if self.batch.filled() < PART_HITS {
            return;
        }
        self.send();
    }

    #[inline(never)]
    fn send(&mut self) {
        let Some(p) = &mut self.parts else { return };
        if self.stopped {
            return;
        }
        let mut batch = self.batch.take_part(self.spare);
        batch.sliced = p.sliced;
        self.stopped = !p.part.put(p.input, batch);
    }
}

impl RecordSink for HeldCollect<'_, '_> {
    type Error = Infallible;

    #[inline(always)]
    fn found(
        &mut self,
        f: &container::Found<'_, '_>,
    ) -> Result<bool, Infallible> {
        self.batch.push_found(f);
        self.sent_on();
        Ok(true)
    }

    fn limit(&mut self, offset: u64, what: &'static str) {
        self.batch.limit(offset, what);
    }

    fn record(&mut self) {
        self.batch.record();
    }

    fn fault(&mut self, offset: u64, what: String) {
        self.batch.fault(offset, what);
    }

    fn searched(&mut self, bytes: u64) {
        self.batch.searched(bytes);
    }

    fn reads_records(&self) -> bool {
        RecordSink::reads_records(&*self.batch)
    }

    fn counts_rejects(&self) -> bool {
        RecordSink::counts_rejects(&*self.batch)
    }

    fn rejected(&mut self, n: u64) {
        RecordSink::rejected(&mut *self.batch, n);
    }
}
