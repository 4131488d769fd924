//! The in-order scheduler: workers take units in order, the worker that
//! finishes the unit due next reports it.

use super::batch::{Batch, Parts};
use super::config::Driver;
use super::plan::{Done, FileState, Planner, SliceUnit, Unit};
use super::report::{InputDone, Report, Wants};
use super::unit::failure;
use crate::input::{Compression, Input, InputError};
use crate::search::buffer::Buffer;
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

impl Driver {
    /// Searches `inputs` (as listed by [`crate::input::walk`] or
    /// [`crate::input::Walk`], which is then walked by the workers as they go)
    /// and reports every candidate, error and input boundary to `report`,
    /// in input order. The worker that finishes the unit due next reports
    /// it (and whatever finished units follow it), so `report` is called
    /// from the pool's threads, one at a time. No more threads start than
    /// there are units of work (the first units are planned before the
    /// pool starts).
    pub fn run<I, R>(&self, inputs: I, report: &mut R) -> io::Result<()>
    where
        I: IntoIterator<Item = Result<Input, InputError>>,
        I::IntoIter: Send,
        R: Report + Send,
    {
        let mut planner = Planner::new(self, inputs.into_iter());
        let threads = if planner.plan_ahead(self.threads) < self.threads
            && planner.ended
        {
            planner.queue.len().clamp(1, self.threads)
        } else {
            self.threads
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("urlgrep-{i}"))
            .build()
            .map_err(io::Error::other)?;
        let window = 4 * self.threads + 4;
        let eager = report.may_stop();
        self.spare.count_for(&*report);
        let shared = Shared {
            planner: Mutex::new(planner),
            inbox: Mutex::new(Inbox::new(window)),
            reporter: Mutex::new(Reporter {
                report,
                next: 0,
                begun: false,
                progressed: 0,
                file: FileState::default(),
                buf: Buffer::default(),
                error: None,
            }),
            reported: Mutex::new(0),
            moved: Condvar::new(),
            waiting: AtomicUsize::new(0),
            pending: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            window,
            eager,
            skip_unit: AtomicUsize::new(0),
            skip_file: AtomicUsize::new(0),
        };
        pool.scope(|scope| {
            for _ in 0..threads {
                let shared = &shared;
                scope.spawn(move |_| self.work(shared));
            }
        });
        let reporter = shared
            .reporter
            .into_inner()
            .map_err(|_| io::Error::other("a worker panicked"))?;
        match reporter.error {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// A worker: takes units in order, searches them, delivers the
    /// results.
    pub(super) fn work<I, R>(&self, shared: &Shared<'_, '_, I, R>)
    where
        I: Iterator<Item = Result<Input, InputError>>,
        R: Report,
    {
        let mut buf = Buffer::default();
        loop {
            if shared.stop.load(Ordering::SeqCst) {
                return;
            }
            let next = match shared.planner.lock() {
                Ok(mut p) => p.next(),
                Err(_) => return,
            };
            let Some((seq, unit)) = next else { return };
            // Stay within the window of the unit being reported. The
            // lowest unreported unit is always taken and never waits
            // here (its number is below `reported + window`), so this
            // cannot deadlock.
            // Nor past a bound on the results waiting to be reported
            // (dense slices fill tens of MiB each): the unit due next never
            // waits, and reporting it wakes the others.
            shared.wait_until(|reported| {
                seq < reported + shared.window
                    && (seq == reported
                        || shared.pending.load(Ordering::SeqCst) < PENDING_MAX)
            });
            // A long stream delivers its matches in parts; one that is not
            // due yet waits after each part, so at most one part per unit
            // is buffered.
            let mut part = UnitParts { driver: self, shared, seq };
            let done = match unit {
                // The report wants no more of its file.
                Unit::Slice(slice) if shared.skips(&slice) => {
                    let mut batch = self.spare.take();
                    batch.resume = slice.end;
                    Done::Slice { slice, batch, error: None }
                }
                unit => self.search(unit, &mut buf, &mut part),
            };
            self.deliver(shared, Msg::Done(seq, done));
        }
    }

    /// Puts a result in the inbox, then reports what is due unless
    /// another worker is reporting (which then reports this one too).
    pub(super) fn deliver<I, R: Report>(
        &self,
        shared: &Shared<'_, '_, I, R>,
        msg: Msg,
    ) {
        let held = match &msg {
            Msg::Part(_, _, batch) => batch.held(),
            Msg::Done(_, done) => done.held(),
        };
        shared.pending.fetch_add(held, Ordering::SeqCst);
        if let Ok(mut inbox) = shared.inbox.lock() {
            match msg {
                Msg::Part(seq, input, batch) => {
                    inbox.parts.entry(seq).or_default().push((input, batch))
                }
                Msg::Done(seq, done) => {
                    inbox.done.insert(seq, done);
                }
            }
        }
        loop {
            let Ok(mut rep) = shared.reporter.try_lock() else {
                // The reporter re-checks the inbox after it lets go.
                return;
            };
            self.report_due(shared, &mut rep);
            let next = rep.next;
            drop(rep);
            // Something due may have arrived while we reported.
            let due = match shared.inbox.lock() {
                Ok(inbox) => {
                    inbox.done.contains(next)
                        || inbox.parts.contains_key(&next)
                }
                Err(_) => false,
            };
            if !due || shared.stop.load(Ordering::SeqCst) {
                return;
            }
        }
    }

    /// Reports what is due, in order.
    pub(super) fn report_due<I, R: Report>(
        &self,
        shared: &Shared<'_, '_, I, R>,
        rep: &mut Reporter<'_, R>,
    ) {
        if rep.error.is_some() {
            return;
        }
        loop {
            let (parts, done) = match shared.inbox.lock() {
                Ok(mut inbox) => (
                    inbox.parts.remove(&rep.next).unwrap_or_default(),
                    inbox.done.remove(rep.next),
                ),
                Err(_) => return,
            };
            let held = parts.iter().map(|(_, b)| b.held()).sum::<usize>()
                + done.as_ref().map_or(0, Done::held);
            shared.pending.fetch_sub(held, Ordering::SeqCst);
            let mut outcome = Ok(());
            let parted = !parts.is_empty();
            for (input, mut batch) in parts {
                outcome = outcome.and_then(|()| rep.part(&input, &mut batch));
                self.spare.give(batch);
            }
            if parted && outcome.is_ok() {
                // A stream whose report wants no more of it stops.
                match rep.report.wants() {
                    Wants::All => {}
                    Wants::NextInput => {
                        // (A slice's part: the file's later slices too.)
                        rep.file.skip = true;
                        shared.skip_unit.store(rep.next + 1, Ordering::SeqCst)
                    }
                    Wants::Nothing => shared.end(),
                }
            }
            let due = done.is_some();
            // The file of a slice, and whether it is its last.
            let sliced = match &done {
                Some(Done::Slice { slice, .. }) => {
                    Some((file_id(&slice.file), slice.last))
                }
                _ => None,
            };
            if let (Some(done), Ok(())) = (done, &outcome) {
                let Reporter { report, file, buf, begun, progressed, .. } =
                    rep;
                let earlier = (*begun, *progressed);
                outcome = self.report_one(done, earlier, file, buf, *report);
                if outcome.is_ok() {
                    match (rep.report.wants(), sliced) {
                        (Wants::Nothing, _) => shared.end(),
                        // The slices of the file still to come are not
                        // searched (nor, already searched, reported).
                        (_, Some((id, false))) if rep.file.skip => {
                            shared.skip_file.store(id, Ordering::SeqCst)
                        }
                        (_, Some((_, true))) => {
                            shared.skip_file.store(0, Ordering::SeqCst)
                        }
                        _ => {}
                    }
                }
                rep.begun = false;
                rep.progressed = 0;
                rep.next += 1;
                if let Ok(mut reported) = shared.reported.lock() {
                    *reported = rep.next;
                }
                shared.wake();
            }
            if let Err(e) = outcome {
                rep.error = Some(e);
                shared.stop.store(true, Ordering::SeqCst);
                shared.wake_all();
                return;
            }
            if !due {
                return;
            }
        }
    }

    /// Reports one unit; `file` carries the state of a sliced file.
    pub(super) fn report_one<R: Report>(
        &self,
        done: Done,
        (begun, progressed): (bool, u64),
        file: &mut FileState,
        buf: &mut Buffer,
        report: &mut R,
    ) -> io::Result<()> {
        match done {
            Done::Failed(err) => report.error(&err),
            Done::Whole { input, batch, error } => {
                if batch.opened {
                    if !begun {
                        report.begin(&input)?;
                    }
                    batch.report(&input, report)?;
                }
                if let Some(err) = &error {
                    report.error(err)?;
                }
                if batch.opened {
                    let done = InputDone {
                        bytes: batch.bytes,
                        compression: batch.compression,
                        messages: batch.framed.then_some(batch.messages),
                    };
                    report.end(&input, &done)?;
                }
                let size = input.size.unwrap_or(batch.bytes);
                report.progress(size.saturating_sub(progressed));
                self.spare.give(batch);
                Ok(())
            }
            Done::Slice { slice, mut batch, mut error } => {
                // (A long mbox slice's first part may have begun it.)
                if slice.first && !begun {
                    *file = FileState::default();
                    report.begin(&slice.input)?;
                }
                if !file.skip {
                    // The slice before spilled into this plain slice (its
                    // parts were dropped): scanned again here, its hits
                    // reported as they are found.
                    if file.resume > slice.start && !slice.reading.records() {
                        let mut direct = Direct {
                            report: &mut *report,
                            spare: &self.spare,
                            lines: file.lines,
                            messages: file.messages,
                            result: Ok(()),
                        };
                        let mut b =
                            self.rescan(file, &slice, buf, &mut direct);
                        direct.result?;
                        if let Some((at, e)) = b.ended.take() {
                            error = Some(failure(&slice.input, e, Some(at)));
                        }
                        self.spare.give(std::mem::replace(&mut batch, b));
                    } else if let Err(e) =
                        self.join(file, &slice, &mut batch, buf)
                    {
                        let at = Some(slice.start);
                        error = Some(failure(&slice.input, e, at));
                    }
                    batch.report(&slice.input, report)?;
                    if let Some(err) = error.as_ref().filter(|_| !file.failed)
                    {
                        file.failed = true;
                        report.error(err)?;
                    }
                    file.skip = report.wants() != Wants::All;
                }
                if slice.last {
                    let done = InputDone {
                        bytes: file.bytes,
                        compression: Some(Compression::None),
                        messages: slice
                            .reading
                            .records()
                            .then_some(file.messages),
                    };
                    report.end(&slice.input, &done)?;
                }
                report.progress(slice.end - slice.start);
                self.spare.give(batch);
                Ok(())
            }
        }
    }
}

/// Workers start no unit but the one due next while the results waiting
/// to be reported hold more than this: memory stays O(threads × slice)
/// plus this, however dense the matches (4 M unique URLs in 163 MB held
/// 236 MiB at `-j2` before).
const PENDING_MAX: usize = 16 << 20;

/// A plain slice's worker sends no more parts on while the results
/// waiting to be reported hold more than this: it waits until its unit
/// is due, or, when it is, for the worker reporting its parts, and
/// reports the rest itself (a due unit's worker searched on ahead of a
/// slower report: 36 parts were held at the peak of `--stats` on 4 M
/// hosts). With [`PLAIN_PART_HITS`] about 8 parts of 24-byte URLs; a
/// worker of a later slice is that far ahead at most.
///
/// [`PLAIN_PART_HITS`]: super::batch::PLAIN_PART_HITS
const PARTS_PENDING_MAX: usize = 4 << 20;

/// The parts of unit `seq`, delivered to the scheduler: a stream's
/// worker that is not due yet waits after each part, so at most one
/// part per stream is buffered; a plain slice's goes on while the parts
/// waiting hold less than [`PARTS_PENDING_MAX`].
struct UnitParts<'a, 'd, 'r, I, R> {
    driver: &'a Driver,
    shared: &'a Shared<'d, 'r, I, R>,
    seq: usize,
}

impl<I, R: Report> Parts for UnitParts<'_, '_, '_, I, R> {
    fn send(&mut self, input: &Input, batch: Box<Batch>) -> bool {
        let (shared, seq) = (self.shared, self.seq);
        self.driver.deliver(shared, Msg::Part(seq, input.clone(), batch));
        shared.wait_until(|reported| reported >= seq);
        !shared.stop.load(Ordering::SeqCst)
            && shared.skip_unit.load(Ordering::SeqCst) != seq + 1
    }

    fn put(&mut self, input: &Input, batch: Box<Batch>) -> bool {
        let (shared, seq) = (self.shared, self.seq);
        self.driver.deliver(shared, Msg::Part(seq, input.clone(), batch));
        let over =
            || shared.pending.load(Ordering::SeqCst) >= PARTS_PENDING_MAX;
        while over() && !shared.stop.load(Ordering::SeqCst) {
            if self.due() {
                // Another worker reports this unit's parts: wait for it
                // and report the rest here, rather than search on ahead
                // of the report.
                if let Ok(mut rep) = shared.reporter.lock() {
                    self.driver.report_due(shared, &mut rep);
                }
                break;
            }
            shared.wait_until(|reported| reported >= seq || !over());
        }
        !shared.stop.load(Ordering::SeqCst)
            && shared.skip_unit.load(Ordering::SeqCst) != seq + 1
    }

    fn eager(&self) -> bool {
        self.shared.eager
    }

    fn due(&mut self) -> bool {
        let shared = self.shared;
        // A stopped run says it is due, so that its streams send, learn
        // that it stopped, and end.
        shared.stop.load(Ordering::SeqCst)
            || shared.reported.lock().map_or(true, |r| *r >= self.seq)
    }
}

/// Where the reporter's scan of a slice again sends its parts: reported
/// at once, numbered on from the `lines` newlines and `messages`
/// messages before the slice.
struct Direct<'a, R> {
    report: &'a mut R,
    spare: &'a super::batch::Spare,
    lines: u64,
    messages: u64,
    /// The report failed: the scan stops, and the run with this error.
    result: io::Result<()>,
}

impl<R: Report> Parts for Direct<'_, R> {
    fn send(&mut self, input: &Input, mut batch: Box<Batch>) -> bool {
        batch.shift(self.lines, self.messages);
        self.result = batch.report(input, self.report);
        self.spare.give(batch);
        self.result.is_ok()
    }

    fn due(&mut self) -> bool {
        true
    }
}

/// What the workers send to the reporting thread.
pub(super) enum Msg {
    /// Matches of a stream unit that is not finished.
    Part(usize, Input, Box<Batch>),
    /// A finished unit.
    Done(usize, Done),
}

/// State shared by the workers.
pub(super) struct Shared<'d, 'r, I, R> {
    pub(super) planner: Mutex<Planner<'d, I>>,
    /// Results not reported yet.
    pub(super) inbox: Mutex<Inbox>,
    /// Held by the worker that reports.
    pub(super) reporter: Mutex<Reporter<'r, R>>,
    /// Units reported so far (a copy of `Reporter::next` to wait on).
    pub(super) reported: Mutex<usize>,
    pub(super) moved: Condvar,
    /// Workers waiting on `moved`.
    pub(super) waiting: AtomicUsize,
    /// Bytes held by the results in the inbox ([`Batch::held`]).
    pub(super) pending: AtomicUsize,
    pub(super) stop: AtomicBool,
    pub(super) window: usize,
    /// The report may stop wanting an input ([`Report::may_stop`]): a
    /// stream's candidates go to it one by one while its unit is due.
    pub(super) eager: bool,
    /// One more than the stream unit whose input the report wants no
    /// more of (0: none): its search stops at its next part.
    pub(super) skip_unit: AtomicUsize,
    /// The sliced file ([`file_id`]) whose input the report wants no
    /// more of (0: none): its slices still to come are not searched.
    pub(super) skip_file: AtomicUsize,
}

/// A sliced file's identity while its slices live: the address of the
/// file they share (cleared when the last is reported, before the file
/// is dropped, so no later file can take it for this one).
fn file_id(file: &Arc<std::fs::File>) -> usize {
    Arc::as_ptr(file) as usize
}

impl<I, R> Shared<'_, '_, I, R> {
    /// Ends the run (not an error): the report wants nothing more.
    fn end(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wake_all();
    }

    /// Whether the report wants no more of the file of `slice`.
    fn skips(&self, slice: &SliceUnit) -> bool {
        self.skip_file.load(Ordering::SeqCst) == file_id(&slice.file)
    }

    /// Waits until `ready(reported)` or the run stops.
    pub(super) fn wait_until(&self, ready: impl Fn(usize) -> bool) {
        let Ok(mut reported) = self.reported.lock() else { return };
        if ready(*reported) {
            return;
        }
        self.waiting.fetch_add(1, Ordering::SeqCst);
        while !ready(*reported) && !self.stop.load(Ordering::SeqCst) {
            reported = match self.moved.wait(reported) {
                Ok(r) => r,
                Err(_) => break,
            };
        }
        self.waiting.fetch_sub(1, Ordering::SeqCst);
    }

    /// Wakes the waiting workers, if any (a notification costs a system
    /// call even when nobody waits).
    pub(super) fn wake(&self) {
        if self.waiting.load(Ordering::SeqCst) > 0 {
            self.wake_all();
        }
    }

    pub(super) fn wake_all(&self) {
        // Taking the lock orders this after a waiter's check.
        drop(self.reported.lock());
        self.moved.notify_all();
    }
}

/// Finished units and stream parts not reported yet.
pub(super) struct Inbox {
    pub(super) parts: BTreeMap<usize, Vec<(Input, Box<Batch>)>>,
    pub(super) done: Slots,
}

impl Inbox {
    /// An inbox for a window of `window` units.
    fn new(window: usize) -> Inbox {
        Inbox { parts: BTreeMap::new(), done: Slots::new(window) }
    }
}

/// Finished units by number: one slot per unit of the window, at `seq %
/// window` (a worker starts no unit at or past `reported + window`, so
/// two units waiting never share a slot). A map of one entry allocated
/// a node for every unit and shifted it out again (a `-j1` run of a
/// folder of 6,046 messages: 1.6% of its instructions). A unit that
/// finds its slot taken all the same (the workers of a stopped run no
/// longer wait for the window) waits in `over`.
pub(super) struct Slots {
    slots: Vec<Option<(usize, Done)>>,
    over: BTreeMap<usize, Done>,
}

impl Slots {
    /// `window` slots (at least one).
    fn new(window: usize) -> Slots {
        let slots = std::iter::repeat_with(|| None).take(window.max(1));
        Slots { slots: slots.collect(), over: BTreeMap::new() }
    }

    /// The slot of unit `seq`.
    fn slot(&mut self, seq: usize) -> Option<&mut Option<(usize, Done)>> {
        let at = seq.checked_rem(self.slots.len())?;
        self.slots.get_mut(at)
    }

    /// Keeps finished unit `seq`.
    pub(super) fn insert(&mut self, seq: usize, done: Done) {
        match self.slot(seq) {
            Some(slot @ None) => *slot = Some((seq, done)),
            _ => {
                self.over.insert(seq, done);
            }
        }
    }

    /// Whether unit `seq` has finished and is waiting.
    pub(super) fn contains(&self, seq: usize) -> bool {
        let at = seq.checked_rem(self.slots.len());
        let slot = at.and_then(|at| self.slots.get(at));
        matches!(slot, Some(Some((s, _))) if *s == seq)
            || self.over.contains_key(&seq)
    }

    /// Takes finished unit `seq` out, if it is waiting.
    pub(super) fn remove(&mut self, seq: usize) -> Option<Done> {
        if let Some(slot) = self.slot(seq) {
            if matches!(slot, Some((s, _)) if *s == seq) {
                return slot.take().map(|(_, done)| done);
            }
        }
        self.over.remove(&seq)
    }
}

/// The reporting state: the unit due next and the report itself.
pub(super) struct Reporter<'r, R> {
    pub(super) report: &'r mut R,
    /// The unit due next.
    pub(super) next: usize,
    /// Whether `next` has had its `begin` reported (by a part).
    pub(super) begun: bool,
    /// Progress reported for `next` by its parts.
    pub(super) progressed: u64,
    pub(super) file: FileState,
    pub(super) buf: Buffer,
    /// The report failed; the run stops.
    pub(super) error: Option<io::Error>,
}

impl<R: Report> Reporter<'_, R> {
    /// Reports a part of the unit due next: a stream's, or a long mbox
    /// slice's (its numbers then counted on from the slices before it,
    /// as [`Driver::join`] counts the slice's batch).
    pub(super) fn part(
        &mut self,
        input: &Input,
        batch: &mut Batch,
    ) -> io::Result<()> {
        // A slice begins its input when it is the file's first.
        let begins = batch.sliced.unwrap_or(true);
        if begins && !self.begun {
            if batch.sliced.is_some() {
                self.file = FileState::default();
            }
            self.report.begin(input)?;
            self.begun = true;
        }
        if batch.sliced.is_some() {
            if self.file.skip {
                return Ok(());
            }
            // The slice before spilled into this plain slice: it is
            // scanned again from there, whole, when it ends.
            if batch.plain.is_some_and(|start| self.file.resume > start) {
                return Ok(());
            }
            self.file.place(batch, batch.relative);
        }
        batch.report(input, self.report)?;
        self.report.progress(batch.raw);
        self.progressed += batch.raw;
        Ok(())
    }
}
