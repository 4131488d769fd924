//! Planning: the inputs cut into numbered units of work.

use super::batch::Batch;
use super::config::Driver;
use crate::container::Reading;
use crate::input::{Input, InputError, Source};
use std::collections::VecDeque;
use std::fs::File;
use std::sync::Arc;

/// A unit of work.
pub(super) enum Unit {
    Failed(InputError),
    Whole(Input),
    Slice(SliceUnit),
}

/// A newline-aligned slice `[start, end)` of a big regular file.
pub(super) struct SliceUnit {
    pub(super) input: Input,
    pub(super) file: Arc<File>,
    pub(super) size: u64,
    pub(super) start: u64,
    pub(super) end: u64,
    pub(super) first: bool,
    pub(super) last: bool,
    /// How the slice is read: [`Reading::Raw`] for a newline-aligned
    /// slice; a slice that begins at a record ([`Cut::Records`]) is read
    /// as its container says.
    ///
    /// [`Cut::Records`]: crate::container::Cut::Records
    pub(super) reading: Reading,
}

/// A finished unit.
pub(super) enum Done {
    Failed(InputError),
    Whole { input: Input, batch: Box<Batch>, error: Option<InputError> },
    Slice { slice: SliceUnit, batch: Box<Batch>, error: Option<InputError> },
}

/// Per-file state while the slices of a file are reported.
#[derive(Default)]
pub(super) struct FileState {
    /// Absolute offset where the scan of the whole file would go on.
    pub(super) resume: u64,
    /// Newlines before the current slice.
    pub(super) lines: u64,
    /// Bytes reported.
    pub(super) bytes: u64,
    /// Messages before the current slice.
    pub(super) messages: u64,
    /// An error of an earlier slice was reported: the file's read ended
    /// there (the slices after a file shrank all end early too; one
    /// error says it).
    pub(super) failed: bool,
    /// The report wants no more of the file ([`super::Wants`]): its
    /// later slices are not reported (nor searched, once the workers
    /// learn it).
    pub(super) skip: bool,
}

impl FileState {
    /// Moves a slice's batch (or a part of it) by what the slices before
    /// it held: its line and message numbers, and its offsets when they
    /// count from the slice's own start in the decompressed stream
    /// (`relative`: a `.warc.gz`'s slices). The one place both the join
    /// of a whole slice and a part sent before its slice ends do it.
    pub(super) fn place(&self, batch: &mut Batch, relative: bool) {
        if relative {
            batch.shift_offsets(self.bytes);
        }
        batch.shift(self.lines, self.messages);
    }
}

/// Cuts the inputs into units, in order.
pub(super) struct Planner<'d, I> {
    pub(super) driver: &'d Driver,
    pub(super) inputs: I,
    pub(super) queue: VecDeque<Unit>,
    pub(super) seq: usize,
    /// The inputs ran out.
    pub(super) ended: bool,
}

impl<'d, I: Iterator<Item = Result<Input, InputError>>> Planner<'d, I> {
    pub(super) fn new(driver: &'d Driver, inputs: I) -> Planner<'d, I> {
        let queue = VecDeque::new();
        Planner { driver, inputs, queue, seq: 0, ended: false }
    }

    /// Plans units until `n` wait or the inputs run out; returns how many
    /// wait (so a run of fewer units than threads starts fewer threads).
    pub(super) fn plan_ahead(&mut self, n: usize) -> usize {
        while self.queue.len() < n && !self.ended {
            match self.inputs.next() {
                Some(input) => self.plan(input),
                None => self.ended = true,
            }
        }
        self.queue.len()
    }

    pub(super) fn next(&mut self) -> Option<(usize, Unit)> {
        while self.queue.is_empty() && !self.ended {
            match self.inputs.next() {
                Some(input) => self.plan(input),
                None => self.ended = true,
            }
        }
        let unit = self.queue.pop_front()?;
        let seq = self.seq;
        self.seq += 1;
        Some((seq, unit))
    }

    /// Queues the units of one input.
    pub(super) fn plan(&mut self, input: Result<Input, InputError>) {
        let input = match input {
            Ok(i) => i,
            Err(e) => return self.queue.push_back(Unit::Failed(e)),
        };
        let slice = self.driver.slice as u64;
        let (Source::Path(_), Some(size)) = (&input.source, input.size) else {
            return self.queue.push_back(Unit::Whole(input));
        };
        if size <= slice {
            return self.queue.push_back(Unit::Whole(input));
        }
        let file = match input.open() {
            Ok(f) => f,
            Err(error) => {
                let source = input.source.clone();
                let err = InputError { source, offset: None, error };
                return self.queue.push_back(Unit::Failed(err));
            }
        };
        match self.driver.cut(&input, file, size) {
            Some(slices) if !slices.is_empty() => {
                self.queue.extend(slices.into_iter().map(Unit::Slice))
            }
            // Streamed; or a binary file to skip, which the unit skips
            // (and reports the progress of).
            _ => self.queue.push_back(Unit::Whole(input)),
        }
    }
}

impl Done {
    /// The bytes its batch holds ([`Batch::held`]).
    pub(super) fn held(&self) -> usize {
        match self {
            Done::Failed(_) => 0,
            Done::Whole { batch, .. } | Done::Slice { batch, .. } => {
                batch.held()
            }
        }
    }
}
