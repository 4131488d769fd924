//! Batches: the candidates of one unit, owning their URLs, and the sinks
//! that fill them.

use super::found::Found;
use super::report::{Fold, Folds, Hit, Pick, Report};
use crate::container::{self, Provenance, RecordSink, Records};
use crate::input::{Compression, Input};
use crate::parse::Reject;
use crate::search::lines::LineCounter;
use crate::search::{Candidate, CandidateIter, FindIter, Match, Position};
use std::convert::Infallible;
use std::fmt;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

/// Batches that were reported, cleared, for the workers to fill again:
/// a fresh batch grows by reallocation and touches new pages, which cost
/// more than the search of an mbox slice (page faults and `realloc`
/// copies were a third of the time of `-j1` on a mail spool). Boxed: a
/// unit's batch moves from its worker to the inbox to the reporter and
/// back here, and copying the struct at each move (twelve a unit) cost
/// more than the search of a short file's header (issue 21).
// The boxes are kept whole: `take` hands one out with no allocation.
#[allow(clippy::vec_box)]
#[derive(Clone, Default)]
pub(super) struct Spare(
    Arc<Mutex<Vec<Box<Batch>>>>,
    Arc<AtomicU8>,
    Arc<Mutex<Option<Pick>>>,
    Arc<Mutex<Option<Folds>>>,
);

/// What the batches taken count instead of storing ([`Spare::counts`]):
/// bits of [`Spare::REJECTS`], [`Spare::MATCHES`], [`Spare::RECORDS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Counts(u8);

impl fmt::Debug for Spare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Spare")
    }
}

impl Counts {
    /// Whether it counts what `bit` ([`Spare::REJECTS`]…) says.
    #[inline(always)]
    pub(super) fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }
}

impl Spare {
    /// At most this many batches wait; with one in hand per worker and
    /// [`super::schedule::Shared::window`] units in flight, more would rarely be reused.
    pub(super) const KEEP: usize = 8;
    /// What a batch is cut back to (bytes of URLs and of hits) when the
    /// pool would otherwise hold more than `KEEP * LARGEST` (16 MiB),
    /// whatever the input; a 4 MiB slice of a mail spool fills about
    /// 1.4 MiB, more with `--find all`.
    pub(super) const LARGEST: usize = 2 << 20;

    /// Rejected candidates are counted, not stored.
    pub(super) const REJECTS: u8 = 1;
    /// Matches are counted, not stored.
    pub(super) const MATCHES: u8 = 2;
    /// Hits keep no record ([`Found::record`]).
    pub(super) const RECORDS: u8 = 4;

    /// A cleared batch, or a new one.
    pub(super) fn take(&self) -> Box<Batch> {
        let mut batch: Box<Batch> =
            self.0.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default();
        self.count_in(&mut batch);
        batch
    }

    /// Makes `batch` count what the batches taken count
    /// ([`Spare::count_for`]).
    pub(super) fn count_in(&self, batch: &mut Batch) {
        batch.counts = self.counts();
        batch.pick = self.2.lock().ok().and_then(|p| p.clone());
        let folds = self.3.lock().ok().and_then(|f| f.clone());
        match folds {
            // (A batch of the pool keeps its fold, cleared: only this
            // run's, as `count_for` dropped the others.)
            Some(new) if batch.fold.is_none() => batch.fold = Some(new()),
            Some(_) => {}
            None => batch.fold = None,
        }
    }

    /// Sets what the batches taken from now on count without storing it,
    /// from what `report` reads ([`Report::wants_rejects`],
    /// [`Report::wants_matches`], [`Report::wants_records`]), and which
    /// of those they count ([`Report::counts_only_if`]).
    pub(super) fn count_for(&self, report: &impl Report) {
        let bits = [
            (!report.wants_rejects(), Spare::REJECTS),
            (!report.wants_matches(), Spare::MATCHES),
            (!report.wants_records(), Spare::RECORDS),
        ]
        .iter()
        .filter(|(yes, _)| *yes)
        .fold(0, |all, (_, bit)| all | bit);
        self.1.store(bits, Ordering::Relaxed);
        if let Ok(mut pick) = self.2.lock() {
            *pick = report.counts_only_if();
        }
        if let Ok(mut folds) = self.3.lock() {
            *folds = report.wants_matches().then(|| report.folds()).flatten();
        }
        // The folds of an earlier run were another report's.
        if let Ok(mut pool) = self.0.lock() {
            for batch in pool.iter_mut() {
                batch.fold = None;
            }
        }
    }

    /// What the batches count instead of storing ([`Spare::count_for`]).
    pub(super) fn counts(&self) -> Counts {
        Counts(self.1.load(Ordering::Relaxed))
    }

    /// Clears `batch` and keeps it for [`Spare::take`]. The pool holds
    /// at most `KEEP * LARGEST` in all: a batch that would take it past
    /// that is cut back to [`Spare::LARGEST`] (dropped when even that
    /// does not fit). Cut back, not dropped: the pages it keeps are
    /// already mapped, and a dense slice (one URL in 200 bytes fills
    /// 4.7 MiB) would otherwise make every next batch start from
    /// nothing. The bound is on the pool, not on each batch: `--find
    /// all` fills more than `LARGEST` in a slice of a mail spool, and
    /// batches cut back to it each time grew again into fresh pages
    /// (6,113 page faults a `-j1` run of the spool, 3,266 without
    /// detectors).
    pub(super) fn give(&self, mut batch: Box<Batch>) {
        batch.clear();
        let Ok(mut v) = self.0.lock() else { return };
        if v.len() >= Spare::KEEP {
            return;
        }
        let pooled: usize = v.iter().map(|b| b.held()).sum();
        let bound = Spare::KEEP * Spare::LARGEST;
        if pooled + batch.held() > bound {
            if pooled + Spare::LARGEST > bound {
                return;
            }
            let urls = Spare::LARGEST / 4;
            let each = size_of::<Found>() + Records::ENTRY;
            let hits = (Spare::LARGEST - urls) / each.max(1);
            batch.hits.shrink_to(hits);
            batch.records.shrink_to(hits);
            batch.urls.shrink_to(urls);
        }
        v.push(batch);
    }
}

/// The candidates of one unit, owning their URLs.
#[derive(Default)]
pub(super) struct Batch {
    pub(super) hits: Vec<Found>,
    /// The record halves of the hits that have one ([`Found::record`]):
    /// kept aside, a hit outside a record costs half the bytes.
    pub(super) records: Records,
    pub(super) urls: Vec<u8>,
    /// Bytes searched.
    pub(super) bytes: u64,
    /// Newlines in the slice (slices only).
    pub(super) newlines: u64,
    /// Absolute offset where a whole-file scan would go on.
    pub(super) resume: u64,
    pub(super) compression: Option<Compression>,
    /// Input bytes (as stored) read for this part (stream parts only).
    pub(super) raw: u64,
    /// The input could be opened (a `begin` and `end` are reported).
    pub(super) opened: bool,
    /// Searched as records (mail).
    pub(super) framed: bool,
    /// Records (mail messages) searched (records only).
    pub(super) messages: u64,
    /// The read of the slice ended early, at this offset (absolute), for
    /// this reason: what was read before it is in the batch.
    pub(super) ended: Option<(u64, io::Error)>,
    /// Limits the mail search met: absolute offset, what.
    pub(super) warnings: Vec<(u64, &'static str)>,
    /// Faults of the container (a damaged record passed over): how many
    /// hits came before each, its absolute offset, what.
    pub(super) faults: Vec<(usize, u64, String)>,
    /// The bytes of text the container searched, when it inflated them
    /// itself ([`RecordSink::searched`]).
    pub(super) searched: Option<u64>,
    /// A part of a slice sent before the slice ends (its line and
    /// message numbers relative to the slice, as a slice's batch), and
    /// whether that slice is its file's first.
    pub(super) sliced: Option<bool>,
    /// A part of a relative slice (a `.warc.gz` slice, whose offsets
    /// count from its start in the decompressed stream): the reporter
    /// moves them by the bytes the slices before it inflated to
    /// ([`FileState::place`](super::plan::FileState), as for a whole
    /// slice).
    pub(super) relative: bool,
    /// What is counted, not stored ([`Spare::count_for`]): rejected
    /// candidates in `rejected`, matches in `matched`, hits without
    /// their records.
    pub(super) counts: Counts,
    /// Rejected candidates counted, not stored ([`Batch::counts`]).
    pub(super) rejected: u64,
    /// Rejected candidates stored in `hits`: a batch with none is
    /// offered whole to [`Report::urls`] without a look at each hit.
    pub(super) stored_rejects: u64,
    /// Matches counted, not stored ([`Batch::counts`]).
    pub(super) matched: u64,
    /// Which of the candidates counted are counted (all when `None`):
    /// [`Report::counts_only_if`].
    pub(super) pick: Option<Pick>,
    /// Where its matches outside records are folded, when the report
    /// folds them ([`Report::folds`]), until [`Batch::stored_match`].
    pub(super) fold: Option<Box<dyn Fold>>,
    /// Matches folded into `fold`.
    pub(super) folded: u64,
    /// A match was stored in `hits`: the matches after it are stored
    /// too, so that every match folded comes before every match
    /// reported ([`Report::folds`]).
    pub(super) stored_match: bool,
    /// A part of a plain (newline-aligned) slice: the slice's start. The
    /// reporter drops it when the slice before spilled past that start:
    /// the slice is then scanned again whole when it ends
    /// ([`Driver::join`](super::config::Driver)).
    pub(super) plain: Option<u64>,
}

impl Batch {
    /// The bytes it holds (its vectors' capacities).
    pub(super) fn held(&self) -> usize {
        self.hits.capacity() * size_of::<Found>()
            + self.records.held()
            + self.urls.capacity()
            + self.fold.as_ref().map_or(0, |f| f.held())
    }

    /// Takes the candidates found so far (with their warnings) out, as
    /// a part to send on; the search goes on in the vectors of a batch
    /// of `spare`. A part taken fresh left the search to grow new
    /// vectors while the parts reported filled the pool (up to its 16
    /// MiB) unused: a third of the peak heap at the repro of issue 33.2.
    pub(super) fn take_part(&mut self, spare: &Spare) -> Box<Batch> {
        let mut part = spare.take();
        std::mem::swap(&mut part.hits, &mut self.hits);
        std::mem::swap(&mut part.records, &mut self.records);
        std::mem::swap(&mut part.urls, &mut self.urls);
        part.warnings = std::mem::take(&mut self.warnings);
        part.faults = std::mem::take(&mut self.faults);
        part.rejected = std::mem::take(&mut self.rejected);
        part.stored_rejects = std::mem::take(&mut self.stored_rejects);
        part.matched = std::mem::take(&mut self.matched);
        std::mem::swap(&mut part.fold, &mut self.fold);
        part.folded = std::mem::take(&mut self.folded);
        part.stored_match = std::mem::take(&mut self.stored_match);
        part.opened = true;
        part
    }

    pub(super) fn failed() -> Box<Batch> {
        Box::new(Batch { opened: false, ..Batch::default() })
    }

    /// Empties the batch, keeping what its vectors allocated.
    pub(super) fn clear(&mut self) {
        let mut hits = std::mem::take(&mut self.hits);
        let mut records = std::mem::take(&mut self.records);
        let mut urls = std::mem::take(&mut self.urls);
        let mut fold = self.fold.take();
        hits.clear();
        records.clear();
        urls.clear();
        if let Some(f) = &mut fold {
            f.clear();
        }
        *self = Batch { hits, records, urls, fold, ..Batch::default() };
    }

    /// Whether the rejected candidates are only counted, every one of
    /// them (no [`Batch::pick`] reads each): a search may then pass
    /// over them inside the scanner's step and give their number
    /// ([`RecordSink::rejected`], [`Scanned::take_rejected`]).
    #[inline(always)]
    pub(super) fn counts_rejects(&self) -> bool {
        self.counts.has(Spare::REJECTS) && self.pick.is_none()
    }

    /// The candidates found: those stored and the matches only counted
    /// or folded (how full a part is).
    pub(super) fn filled(&self) -> usize {
        let more = self.matched.saturating_add(self.folded);
        self.hits.len().saturating_add(more as usize)
    }

    /// Stores a candidate (found in `record`, repaired when `repaired`);
    /// returns `false` when it was only counted ([`Batch::counts`]), or
    /// left out of the count by [`Batch::pick`].
    #[inline(always)]
    pub(super) fn push(
        &mut self,
        at: Position,
        m: &Match<'_>,
        reject: Option<Reject>,
        repaired: bool,
        record: Option<&Provenance<'_>>,
    ) -> bool {
        match reject {
            Some(_) if self.counts.has(Spare::REJECTS) => {
                if self.pick.is_none()
                    || self.picked(at, m, reject, repaired, record)
                {
                    self.rejected += 1;
                }
                return false;
            }
            None if self.counts.has(Spare::MATCHES) => {
                if self.pick.is_none()
                    || self.picked(at, m, reject, repaired, record)
                {
                    self.matched += 1;
                }
                return false;
            }
            None if self.fold.is_some()
                && record.is_none()
                && !self.stored_match =>
            {
                self.fold_in(at, m, repaired);
                return false;
            }
            None => self.stored_match = true,
            Some(_) => self.stored_rejects += 1,
        }
        let from = self.urls.len();
        self.urls.extend_from_slice(m.url());
        let to = self.urls.len();
        let defanged = m.defanged().map(|d| {
            self.urls.extend_from_slice(d);
            (to, self.urls.len())
        });
        self.hits.push(Found {
            at,
            url: (from, to),
            defanged,
            kind: m.kind(),
            scheme: m.scheme(),
            host: m.host,
            flags: m.flags(),
            reject,
            record: None,
            repaired,
        });
        true
    }

    /// Whether [`Batch::pick`] keeps a candidate only counted. Out of
    /// line: inlined in [`Batch::push`], its code cost the unfiltered
    /// `-c` a branch miss a URL (6% of its CPU on a URL a line).
    #[inline(never)]
    fn picked(
        &self,
        at: Position,
        m: &Match<'_>,
        reject: Option<Reject>,
        repaired: bool,
        record: Option<&Provenance<'_>>,
    ) -> bool {
        let Some(pick) = &self.pick else { return true };
        let records = !self.counts.has(Spare::RECORDS);
        pick(&hit_of(at, m, reject, record.filter(|_| records), repaired))
    }

    /// Folds a match outside a record into [`Batch::fold`] (there is
    /// one). Out of line, as [`Batch::picked`].
    #[inline(never)]
    fn fold_in(&mut self, at: Position, m: &Match<'_>, repaired: bool) {
        let Some(fold) = &mut self.fold else { return };
        fold.add(&hit_of(at, m, None, None, repaired));
        self.folded += 1;
    }

    /// Pushes what a container's search found.
    #[inline(always)]
    pub(super) fn push_found(&mut self, f: &container::Found<'_, '_>) {
        let record = f.record.as_ref();
        // (a hit in a record was never marked repaired)
        let repaired = f.repaired && record.is_none();
        if !self.push(f.at, f.m, f.reject, repaired, record)
            || self.counts.has(Spare::RECORDS)
        {
            return;
        }
        let Some(record) = record else { return };
        let k = self.records.push(record);
        if let Some(h) = self.hits.last_mut() {
            h.record = k;
        }
    }

    /// Moves the decompressed offsets of the hits, records and faults by
    /// `bytes` (a relative slice's, once the slices before it are known).
    pub(super) fn shift_offsets(&mut self, bytes: u64) {
        for f in &mut self.hits {
            f.at.start += bytes;
            f.at.end += bytes;
        }
        self.records.shift_offsets(bytes);
        for (_, offset, _) in &mut self.faults {
            *offset += bytes;
        }
    }

    /// Counts the line and message numbers of a slice's hits on from
    /// `lines` newlines and `messages` messages before it.
    pub(super) fn shift(&mut self, lines: u64, messages: u64) {
        for f in &mut self.hits {
            if f.at.line > 0 {
                f.at.line += lines;
            }
        }
        self.records.shift(messages);
    }

    /// Collects the candidates of a slice scan (`scan.bytes`, which start
    /// at absolute offset `scan.base` right after a newline, or at 0)
    /// until the batch holds `most` hits (the scan then goes on, from
    /// `it` and `counter`, into the next part); returns whether `it`
    /// ended. `line` is relative: the number of newlines before the
    /// candidate in the slice, plus 1; [`Batch::report`] adds the
    /// newlines before the slice.
    pub(super) fn collect_some<'h>(
        &mut self,
        it: &mut impl Scanned<'h>,
        scan: Scan<'_>,
        counter: &mut LineCounter,
        most: usize,
    ) -> bool {
        let ended = self.collect_until(it, scan, counter, most);
        // The rejected candidates the scan passed over, if it did.
        self.rejected += it.take_rejected();
        ended
    }

    /// [`Batch::collect_some`] but for the rejected candidates counted.
    #[inline(always)]
    fn collect_until<'h>(
        &mut self,
        it: &mut impl Scanned<'h>,
        scan: Scan<'_>,
        counter: &mut LineCounter,
        most: usize,
    ) -> bool {
        // (Matches folded count as stored: a part holds as many.)
        while self.hits.len().saturating_add(self.folded as usize) < most {
            let Some(c) = it.next_found() else { return true };
            let span = c.as_match().span();
            let (l, col) = match scan.lines {
                true => counter.at(scan.bytes, 0, span.start as u64),
                false => (0, 0),
            };
            let at = Position {
                start: scan.base + span.start as u64,
                end: scan.base + span.end as u64,
                line: l,
                column: col,
            };
            self.push(at, c.as_match(), c.reject(), false, None);
        }
        false
    }
}

/// The candidates of a slice scan ([`Batch::collect_some`]): every one
/// ([`CandidateIter`]), or the matches alone with the rejected ones
/// counted ([`FindIter`], when the batch [`Batch::counts_rejects`]).
pub(super) trait Scanned<'h> {
    /// The next candidate.
    fn next_found(&mut self) -> Option<Candidate<'h>>;

    /// The rejected candidates passed over, not returned, since the
    /// last call.
    fn take_rejected(&mut self) -> u64;
}

impl<'h> Scanned<'h> for CandidateIter<'_, 'h> {
    #[inline(always)]
    fn next_found(&mut self) -> Option<Candidate<'h>> {
        self.next()
    }

    fn take_rejected(&mut self) -> u64 {
        0
    }
}

impl<'h> Scanned<'h> for FindIter<'_, 'h> {
    #[inline(always)]
    fn next_found(&mut self) -> Option<Candidate<'h>> {
        self.next().map(Candidate::accepted)
    }

    fn take_rejected(&mut self) -> u64 {
        FindIter::take_rejected(self)
    }
}

/// The hit a match is, as a pick or a fold is given it (not stored: it
/// borrows the match).
#[inline(always)]
fn hit_of<'m>(
    at: Position,
    m: &'m Match<'_>,
    reject: Option<Reject>,
    record: Option<&Provenance<'m>>,
    repaired: bool,
) -> Hit<'m> {
    Hit {
        at,
        url: m.url(),
        kind: m.kind(),
        scheme: m.scheme(),
        host: m.host.and_then(|(a, b)| m.url().get(a as usize..b as usize)),
        flags: m.flags(),
        reject,
        record: record.copied(),
        repaired,
        defanged: m.defanged(),
    }
}

/// A batch collects what a container's search of a slice in hand finds.
impl RecordSink for Batch {
    type Error = Infallible;

    #[inline(always)]
    fn found(
        &mut self,
        f: &container::Found<'_, '_>,
    ) -> Result<bool, Infallible> {
        self.push_found(f);
        Ok(true)
    }

    fn limit(&mut self, offset: u64, what: &'static str) {
        self.warnings.push((offset, what));
    }

    fn record(&mut self) {
        self.messages += 1;
    }

    fn fault(&mut self, offset: u64, what: String) {
        self.faults.push((self.hits.len(), offset, what));
    }

    fn searched(&mut self, bytes: u64) {
        self.searched = Some(bytes);
    }

    fn reads_records(&self) -> bool {
        !self.counts.has(Spare::RECORDS)
    }

    fn counts_rejects(&self) -> bool {
        Batch::counts_rejects(self)
    }

    /// Counted only when the batch counts every reject: a report that
    /// reads them (statistics, `-m`, a selection) is given those handed
    /// to it, as before (the mail search hands over none).
    fn rejected(&mut self, n: u64) {
        if self.counts_rejects() {
            self.rejected += n;
        }
    }
}

/// What a slice scan reads: the slice's `bytes` from absolute offset
/// `base`, and whether lines are counted.
#[derive(Clone, Copy)]
pub(super) struct Scan<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) base: u64,
    pub(super) lines: bool,
}

/// Where a long stream sends the matches it has found so far.
pub(super) trait Parts {
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
pub(super) type Part<'p> = &'p mut dyn Parts;

/// Collects the mail matches of a slice read as a stream (a slice too
/// long to hold: one long message runs it to the next separator),
/// sending them on in parts of [`PART_HITS`] when it can: a message of
/// 3.5 M URLs held them all until its slice ended, one such slice per
/// thread (1.15 GB at `-j2`, issue 33.2).
pub(super) struct RangeCollect<'b, 'p> {
    pub(super) batch: &'b mut Batch,
    /// Where a part's vectors are taken from.
    pub(super) spare: &'b Spare,
    /// Where parts go (none for a slice searched inside another unit),
    /// the slice's input, and whether it is its file's first slice.
    pub(super) part: Option<(Part<'p>, &'b Input, bool)>,
    /// The slice's offsets are relative ([`Batch::relative`]).
    pub(super) relative: bool,
    /// The run stopped, or the report wants no more of the input.
    pub(super) stopped: bool,
    /// A report that may stop wanting the input: the next part goes at
    /// this many matches ([`Eager`]).
    pub(super) eager: Eager,
}

/// The size of a part sent to a report that may stop wanting the input
/// ([`super::Report::may_stop`], grep's `-m`): 1, then twice the last,
/// up to [`PART_HITS`]. The first match goes at once, and the report
/// stops the reading within as many candidates again as it was sent;
/// a part per candidate made `-m` with a count never reached run at
/// half speed.
#[derive(Clone, Copy, Debug)]
pub(super) struct Eager(usize);

impl Default for Eager {
    fn default() -> Eager {
        Eager(1)
    }
}

impl Eager {
    /// Whether `hits` matches are a part to send now (the next part is
    /// then twice as big).
    fn due(&mut self, hits: usize) -> bool {
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

impl RecordSink for RangeCollect<'_, '_> {
    type Error = io::Error;

    fn found(&mut self, f: &container::Found<'_, '_>) -> io::Result<bool> {
        self.batch.push_found(f);
        self.sent_on();
        Ok(!self.stopped)
    }

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
}

/// Collects the results of a reader search, sending them on in parts.
pub(super) struct Collect<'b, 'p> {
    pub(super) batch: &'b mut Batch,
    /// Where a part's vectors are taken from.
    pub(super) spare: &'b Spare,
    pub(super) input: &'b Input,
    pub(super) part: Part<'p>,
    /// Input bytes (as stored) read so far, and how many of them the
    /// parts sent on account for.
    pub(super) raw: &'b AtomicU64,
    pub(super) sent: u64,
    /// When the last part was sent: a slow stream (`tail -f`) sends what
    /// it has at least this often.
    pub(super) last: std::time::Instant,
    /// `raw` when the clock was last read: it is read again only once
    /// the stream has read more (or every [`CLOCK_EVERY`] matches).
    pub(super) clocked: u64,
    /// The run stopped (a part said so): the search ends.
    pub(super) stopped: bool,
    /// The size of the next part to a report that may stop ([`Eager`]).
    pub(super) eager: Eager,
    /// [`Parts::eager`], asked once: asked at every match it was a
    /// call through `dyn` a URL (issue 33).
    pub(super) may_stop: bool,
}

/// Matches of a stream (and of a held input) are sent on in parts of
/// this many, or sooner when the stream is slow. Parts of 16 k hits
/// (1.9 MB) took 750 more page faults than these on 200 k URLs from
/// stdin, and 4-6% more CPU, for the same instructions: a part's vectors
/// come back through the spare pool, and a small part's stay warm.
pub(super) const PART_HITS: usize = 4 * 1024;

/// A plain slice's hits are sent on in parts of this many (about 0.5
/// MB at 24-byte URLs), as a slice's worker goes on while its parts
/// wait ([`Parts::put`]). Parts of 16 k held 70 MB at the peak of
/// `-j2 --stats` on 4 M hosts, these 64 MB.
pub(super) const PLAIN_PART_HITS: usize = 4 * 1024;

/// A stream sends what it has found at least this often.
pub(super) const PART_EVERY: std::time::Duration =
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
    pub(super) fn sent_on(&mut self) {
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
}

/// Counts the bytes read: decompressed ones for the offset of an error,
/// stored ones (into `shared`) for progress.
pub(super) struct Counted<'a, R> {
    pub(super) rdr: R,
    pub(super) bytes: u64,
    pub(super) shared: Option<&'a AtomicU64>,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.rdr.read(buf)?;
        self.bytes += n as u64;
        if let Some(s) = self.shared {
            s.store(self.bytes, Ordering::Relaxed);
        }
        Ok(n)
    }
}

mod report;
#[cfg(test)]
mod tests;
