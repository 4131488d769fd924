//! Batches: the candidates of one unit, owning their URLs, and the sinks
//! that fill them.

use super::found::Found;
use super::report::{Fold, Folds, Hit, Pick, Report};
use crate::container::{self, Provenance, RecordSink, Records};
use crate::input::Compression;
use crate::parse::Reject;
use crate::search::lines::LineCounter;
use crate::search::{Candidate, CandidateIter, FindIter, Match, Position};
use std::convert::Infallible;
use std::fmt;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

pub(super) use parts::{Collect, Eager, Part, Parts, RangeCollect};
pub(super) use parts::{PART_EVERY, PART_HITS, PLAIN_PART_HITS};

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

mod parts;
mod report;
#[cfg(test)]
mod tests;
