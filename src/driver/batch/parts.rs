//! The sinks that send a unit's matches on in parts while its search
//! goes on: a long stream's, a streamed slice's, a held input's.

use super::{Batch, Spare};
use crate::container::{self, RecordSink};
use crate::input::Input;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
/// Where a long stream sends the matches it has found so far.
pub(in crate::driver) trait Parts {
    /// Sends a part on; returns whether the run goes on (a run whose
    /// output was closed has stopped, and its streams stop reading).
    fn send(&mut self, input: &Input, batch: Box<Batch>) -> bool;

    /// Sends a part of a plain slice on: as [`Parts::send`], but a unit
    /// not due yet goes on at once while the results waiting to be
    /// reported hold little; it waits only past that bound. (A stream
    /// waits after each part, so that a slow one is read as it is
    /// reported; a dense slice's worker that waited would leave the
    /// other threads idle.)
    fn put(&mut self, input: &Input, batch: Box<Batch>) -> bool {
        self.send(input, batch)
    }

    /// Whether the unit is being reported now, or the run stopped: a part
    /// of a unit not due yet makes its worker wait.
    fn due(&mut self) -> bool;

    /// Whether the report may stop wanting the input
    /// ([`Report::may_stop`]): a part is then sent for each candidate
    /// while the unit is due.
    fn eager(&self) -> bool {
        false
    }
}

/// The parts of a unit in flight.
pub(in crate::driver) type Part<'p> = &'p mut dyn Parts;

/// Collects the mail matches of a slice read as a stream (a slice too
/// long to hold: one long message runs it to the next separator),
/// sending them on in parts of [`PART_HITS`] when it can: a message of
/// 3.5 M URLs held them all until its slice ended, one such slice per
/// thread (1.15 GB at `-j2`, issue 33.2).
pub(in crate::driver) struct RangeCollect<'b, 'p> {
    pub(in crate::driver) batch: &'b mut Batch,
    /// Where a part's vectors are taken from.
    pub(in crate::driver) spare: &'b Spare,
    /// Where parts go (none for a slice searched inside another unit),
    /// the slice's input, and whether it is its file's first slice.
    pub(in crate::driver) part: Option<(Part<'p>, &'b Input, bool)>,
    /// The slice's offsets are relative ([`Batch::relative`]).
    pub(in crate::driver) relative: bool,
    /// The run stopped, or the report wants no more of the input.
    pub(in crate::driver) stopped: bool,
    /// A report that may stop wanting the input: the next part goes at
    /// this many matches ([`Eager`]).
    pub(in crate::driver) eager: Eager,
}

/// The size of a part sent to a report that may stop wanting the input
/// ([`super::Report::may_stop`], grep's `-m`): 1, then twice the last,
/// up to [`PART_HITS`]. The first match goes at once, and the report
/// stops the reading within as many candidates again as it was sent;
/// a part per candidate made `-m` with a count never reached run at
/// half speed.
#[derive(Clone, Copy, Debug)]
pub(in crate::driver) struct Eager(usize);

impl Default for Eager {
    fn default() -> Eager {
        Eager(1)
    }
}

impl Eager {
    /// Whether `hits` matches are a part to send now (the next part is
    /// then twice as big).
    pub(super) fn due(&mut self, hits: usize) -> bool {
        if hits < self.0 {
            return false;
        }
        self.0 = (self.0 * 2).min(PART_HITS);
        true
    }
}

impl RangeCollect<'_, '_> {
    /// Sends the matches found so far on when they are [`PART_HITS`]
    /// (waiting, when the slice is not due, until it is), or sooner
    /// ([`Eager`]) to a report that may stop wanting the input.
    fn sent_on(&mut self) {
        let Some((part, input, first)) = &mut self.part else { return };
        let hits = self.batch.filled();
        if hits < PART_HITS
            && !(part.eager() && self.eager.due(hits) && part.due())
        {
            return;
        }
        let mut batch = self.batch.take_part(self.spare);
        batch.sliced = Some(*first);
        batch.relative = self.relative;
        self.stopped = !part.send(input, batch);
    }
}

/// The `RecordSink` methods a parts sink hands to its batch as they are
/// (all but `found`, which also sends a part on when one is due).
macro_rules! to_the_batch {
    () => {
        fn limit(&mut self, offset: u64, what: &'static str) {
            self.batch.warnings.push((offset, what));
        }

        fn record(&mut self) {
            self.batch.messages += 1;
        }

        fn fault(&mut self, offset: u64, what: String) {
            self.batch.faults.push((self.batch.hits.len(), offset, what));
        }

        fn searched(&mut self, bytes: u64) {
            self.batch.searched = Some(bytes);
        }

        fn reads_records(&self) -> bool {
            RecordSink::reads_records(&*self.batch)
        }

        fn counts_rejects(&self) -> bool {
            self.batch.counts_rejects()
        }

        fn rejected(&mut self, n: u64) {
            RecordSink::rejected(&mut *self.batch, n);
        }
    };
}

impl RecordSink for RangeCollect<'_, '_> {
    type Error = io::Error;

    fn found(&mut self, f: &container::Found<'_, '_>) -> io::Result<bool> {
        self.batch.push_found(f);
        self.sent_on();
        Ok(!self.stopped)
    }

    to_the_batch!();
}

/// Collects the results of a reader search, sending them on in parts.
pub(in crate::driver) struct Collect<'b, 'p> {
    pub(in crate::driver) batch: &'b mut Batch,
    /// Where a part's vectors are taken from.
    pub(in crate::driver) spare: &'b Spare,
    pub(in crate::driver) input: &'b Input,
    pub(in crate::driver) part: Part<'p>,
    /// Input bytes (as stored) read so far, and how many of them the
    /// parts sent on account for.
    pub(in crate::driver) raw: &'b AtomicU64,
    pub(in crate::driver) sent: u64,
    /// When the last part was sent: a slow stream (`tail -f`) sends what
    /// it has at least this often.
    pub(in crate::driver) last: std::time::Instant,
    /// `raw` when the clock was last read: it is read again only once
    /// the stream has read more (or every [`CLOCK_EVERY`] matches).
    pub(in crate::driver) clocked: u64,
    /// The run stopped (a part said so): the search ends.
    pub(in crate::driver) stopped: bool,
    /// The size of the next part to a report that may stop ([`Eager`]).
    pub(in crate::driver) eager: Eager,
    /// [`Parts::eager`], asked once: asked at every match it was a
    /// call through `dyn` a URL (issue 33).
    pub(in crate::driver) may_stop: bool,
}

/// Matches of a stream (and of a held input) are sent on in parts of
/// this many, or sooner when the stream is slow. Parts of 16 k hits
/// (1.9 MB) took 750 more page faults than these on 200 k URLs from
/// stdin, and 4-6% more CPU, for the same instructions: a part's vectors
/// come back through the spare pool, and a small part's stay warm.
pub(in crate::driver) const PART_HITS: usize = 4 * 1024;

/// A plain slice's hits are sent on in parts of this many (about 0.5
/// MB at 24-byte URLs), as a slice's worker goes on while its parts
/// wait ([`Parts::put`]). Parts of 16 k held 70 MB at the peak of
/// `-j2 --stats` on 4 M hosts, these 64 MB.
pub(in crate::driver) const PLAIN_PART_HITS: usize = 4 * 1024;

/// A stream sends what it has found at least this often.
pub(in crate::driver) const PART_EVERY: std::time::Duration =
    std::time::Duration::from_millis(100);

/// Matches found in bytes already read do not read the clock but every
/// this many: the clock read at every match was 66 instructions a URL
/// of a dense stream (a URL every 18 bytes, issue 33).
const CLOCK_EVERY: usize = 1024;

impl Collect<'_, '_> {
    /// Sends the matches found so far on when a part is due: checked at
    /// every match, so what says "not yet" at once (a stream read ahead
    /// of its matches, no report that may stop) is inlined, and the rest
    /// ([`Collect::send_due`]) is not.
    #[inline(always)]
    pub(in crate::driver) fn sent_on(&mut self) {
        let filled = self.batch.filled();
        if filled < PART_HITS
            && !self.may_stop
            && self.raw.load(Ordering::Relaxed) == self.clocked
            && !filled.is_multiple_of(CLOCK_EVERY)
        {
            return;
        }
        self.send_due();
    }

    /// [`Collect::sent_on`] when a part may be due.
    #[inline(never)]
    fn send_due(&mut self) {
        if self.batch.filled() < PART_HITS {
            // A slow stream (`tail -f`) sends what it has every so often,
            // but only when it is being reported: a part of a unit not due
            // yet makes its worker wait. A report that may stop wanting
            // the input (`-m`) is sent parts from one match up ([`Eager`])
            // while it is due.
            if self.may_stop {
                if !self.eager.due(self.batch.filled()) {
                    return;
                }
            } else {
                // What was found since the last read was found at once:
                // the time can have passed only while reading.
                let raw = self.raw.load(Ordering::Relaxed);
                if raw == self.clocked
                    && !self.batch.filled().is_multiple_of(CLOCK_EVERY)
                {
                    return;
                }
                self.clocked = raw;
                if self.last.elapsed() < PART_EVERY {
                    return;
                }
                self.last = std::time::Instant::now();
            }
            if !self.part.due() {
                return;
            }
        }
        let raw = self.raw.load(Ordering::Relaxed);
        let mut part = self.batch.take_part(self.spare);
        part.raw = raw.saturating_sub(self.sent);
        self.sent = raw;
        self.stopped = !self.part.send(self.input, part);
    }
}

impl RecordSink for Collect<'_, '_> {
    type Error = io::Error;

    // Inlined in the container's sink: the call's entry and exit were
    // 23 instructions a URL of a dense stream (issue 33).
    #[inline(always)]
    fn found(&mut self, f: &container::Found<'_, '_>) -> io::Result<bool> {
        self.batch.push_found(f);
        self.sent_on();
        Ok(!self.stopped)
    }

    to_the_batch!();
}
