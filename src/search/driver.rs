//! The parallel driver: many inputs, and slices of one big file, searched
//! on a rayon pool, reported in input order.
//!
//! Work is cut into units, numbered in input order: a whole input (a small
//! file, stdin, a FIFO, a compressed file), or a newline-aligned slice of a
//! big regular file. Workers take units in increasing order and never run
//! more than a window of units ahead of the one being reported, so memory
//! stays O(threads × buffer) plus the matches of the window. The calling
//! thread reports finished units strictly in order, so the output is the
//! same bytes for any thread count.
//!
//! A big file is split right after newlines; each slice is read with
//! `read_at` into the worker's buffer together with [`Driver`]'s overlap
//! (enough bytes for a candidate whose trigger lies in the slice to end: it
//! never reads further than the longer length cap past its trigger). The
//! slices are scanned with [`Finder::candidates_in`]; when the previous
//! slice's last candidate spilled past a slice's start, that slice is
//! scanned again from there with [`Finder::candidates_from`] when it is
//! reported. The result equals a scan of the whole file. Line numbers are
//! counted per slice and summed in order.

use super::{Candidate, Finder, Match, Position, Sink};
use crate::input::{self, Compression, Input, InputError, Source};
use crate::parse::{Reject, Scheme};
use crate::scan::{Flags, Kind, LOOK_BEHIND};
use std::collections::{BTreeMap, VecDeque};
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// One candidate as the driver reports it: a match when `reject` is
/// `None`.
#[derive(Clone, Copy, Debug)]
pub struct Hit<'a> {
    /// Absolute position in the (decompressed) input.
    pub at: Position,
    /// The URL (wrapper whitespace removed).
    pub url: &'a [u8],
    /// How it was delimited.
    pub kind: Kind,
    /// Its scheme (a best guess for a rejected candidate).
    pub scheme: Scheme,
    /// What was done to get it out of its text.
    pub flags: Flags,
    /// Why the validator rejected it, if it did.
    pub reject: Option<Reject>,
}

/// What the driver knows about an input once it is done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputDone {
    /// Bytes searched (decompressed).
    pub bytes: u64,
    /// The compression format that was undone.
    pub compression: Option<Compression>,
}

/// Receives the results of [`Driver::run`], in input order. Return an
/// error to stop the run (it is returned by [`Driver::run`]).
pub trait Report {
    /// An input is about to be reported.
    fn begin(&mut self, input: &Input) -> io::Result<()>;

    /// A candidate of the current input (rejected ones included).
    fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()>;

    /// An input, or part of it, could not be read. For an input that
    /// could not be opened, no `begin` or `end` is reported.
    fn error(&mut self, err: &InputError) -> io::Result<()>;

    /// The current input is done.
    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()>;

    /// `bytes` more bytes of the inputs (as stored) were searched.
    fn progress(&mut self, bytes: u64) {
        let _ = bytes;
    }
}

/// Searches inputs in parallel and reports them in order.
#[derive(Clone, Debug)]
pub struct Driver {
    finder: Finder,
    threads: usize,
    slice: usize,
    overlap: usize,
    lines: bool,
}

/// Builds a [`Driver`].
#[derive(Clone, Debug, Default)]
pub struct DriverBuilder {
    threads: Option<usize>,
    slice: Option<usize>,
}

impl DriverBuilder {
    /// A builder with the defaults.
    pub fn new() -> DriverBuilder {
        DriverBuilder::default()
    }

    /// Worker threads. By default, one per core.
    pub fn threads(&mut self, n: usize) -> &mut DriverBuilder {
        self.threads = Some(n.max(1));
        self
    }

    /// Regular files larger than this are searched in slices of about
    /// this size (the slice is also the largest buffer a worker reads a
    /// file into). By default, 4 MiB.
    pub fn slice_size(&mut self, bytes: usize) -> &mut DriverBuilder {
        self.slice = Some(bytes.max(1));
        self
    }

    /// Builds the driver around `finder`, whose settings it follows:
    /// lines are counted when the finder counts them
    /// ([`crate::FinderBuilder::line_numbers`]), and its length caps
    /// bound how far past a slice a candidate may read.
    pub fn build(&self, finder: Finder) -> Driver {
        let threads = self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        });
        let cfg = &finder.inner().cfg;
        let caps = cfg.max_wrapper.saturating_add(cfg.max_url);
        let lines = finder.inner().lines;
        Driver {
            finder,
            threads,
            slice: self.slice.unwrap_or(4 << 20),
            // Reads past a trigger are bounded by the caps plus a UTF-8
            // sequence or a quote prefix: LOOK_BEHIND covers those.
            overlap: caps.saturating_add(2 * LOOK_BEHIND),
            lines,
        }
    }
}

impl Driver {
    /// A builder.
    pub fn builder() -> DriverBuilder {
        DriverBuilder::new()
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches `inputs` (as listed by [`input::walk`] or
    /// [`input::Walk`], which is then walked by the workers as they go)
    /// and reports every candidate, error and input boundary to `report`,
    /// in input order. The worker that finishes the unit due next reports
    /// it (and whatever finished units follow it), so `report` is called
    /// from the pool's threads, one at a time.
    pub fn run<I, R>(&self, inputs: I, report: &mut R) -> io::Result<()>
    where
        I: IntoIterator<Item = Result<Input, InputError>>,
        I::IntoIter: Send,
        R: Report + Send,
    {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .thread_name(|i| format!("urlgrep-{i}"))
            .build()
            .map_err(io::Error::other)?;
        let shared = Shared {
            planner: Mutex::new(Planner::new(self, inputs.into_iter())),
            inbox: Mutex::new(Inbox::default()),
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
            stop: AtomicBool::new(false),
            window: 4 * self.threads + 4,
        };
        pool.scope(|scope| {
            for _ in 0..self.threads {
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
    fn work<I, R>(&self, shared: &Shared<'_, '_, I, R>)
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
            shared.wait_until(|reported| seq < reported + shared.window);
            // A long stream delivers its matches in parts; one that is not
            // due yet waits after each part, so at most one part per unit
            // is buffered.
            let mut part = |input: &Input, batch: Option<Batch>| {
                let Some(batch) = batch else {
                    return shared.reported.lock().map_or(true, |r| *r >= seq);
                };
                self.deliver(shared, Msg::Part(seq, input.clone(), batch));
                shared.wait_until(|reported| reported >= seq);
                true
            };
            let done = self.search(unit, &mut buf, &mut part);
            self.deliver(shared, Msg::Done(seq, done));
        }
    }

    /// Puts a result in the inbox, then reports what is due unless
    /// another worker is reporting (which then reports this one too).
    fn deliver<I, R: Report>(&self, shared: &Shared<'_, '_, I, R>, msg: Msg) {
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
                    inbox.done.contains_key(&next)
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
    fn report_due<I, R: Report>(
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
                    inbox.done.remove(&rep.next),
                ),
                Err(_) => return,
            };
            let mut outcome = Ok(());
            for (input, batch) in parts {
                outcome = outcome.and_then(|()| rep.part(&input, &batch));
            }
            let due = done.is_some();
            if let (Some(done), Ok(())) = (done, &outcome) {
                let Reporter { report, file, buf, begun, progressed, .. } =
                    rep;
                let earlier = (*begun, *progressed);
                outcome = self.report_one(done, earlier, file, buf, *report);
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

    /// Searches one unit.
    fn search(&self, unit: Unit, buf: &mut Buffer, part: Part<'_>) -> Done {
        match unit {
            Unit::Failed(err) => Done::Failed(err),
            Unit::Whole(input) => {
                let (batch, error) = self.search_whole(&input, buf, part);
                Done::Whole { input, batch, error }
            }
            Unit::Slice(slice) => {
                let batch = self.search_slice(&slice, None, buf);
                match batch {
                    Ok(batch) => Done::Slice { slice, batch, error: None },
                    Err(error) => Done::Slice {
                        batch: Batch::default(),
                        error: Some(InputError {
                            source: slice.input.source.clone(),
                            offset: Some(slice.start),
                            error,
                        }),
                        slice,
                    },
                }
            }
        }
    }

    /// A whole input: read into the buffer when it is a small regular
    /// file, else streamed (stdin, FIFOs, compressed files).
    fn search_whole(
        &self,
        input: &Input,
        buf: &mut Buffer,
        part: Part<'_>,
    ) -> (Batch, Option<InputError>) {
        let fail = |error, offset| InputError {
            source: input.source.clone(),
            offset,
            error,
        };
        let path = match &input.source {
            Source::Stdin => {
                return self.search_stream(input, io::stdin(), part);
            }
            Source::Path(p) => p,
        };
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => return (Batch::failed(), Some(fail(e, None))),
        };
        // The walk saw a regular file's size; anything else is asked.
        let small = match input.size {
            Some(size) => size <= self.slice as u64,
            None => match file.metadata() {
                Ok(m) => m.is_file() && m.len() <= self.slice as u64,
                Err(e) => return (Batch::failed(), Some(fail(e, None))),
            },
        };
        if !small {
            return self.search_stream(input, file, part);
        }
        let limit = (self.slice as u64).saturating_add(1);
        let bytes = match buf.fill_from(file.take(limit)) {
            Ok(b) => b,
            Err(e) => return (Batch::failed(), Some(fail(e, None))),
        };
        if bytes.len() as u64 >= limit {
            // It grew since we looked: stream it instead.
            return match File::open(path) {
                Ok(f) => self.search_stream(input, f, part),
                Err(e) => (Batch::failed(), Some(fail(e, None))),
            };
        }
        let format = Compression::detect(bytes);
        if format != Compression::None {
            return self.search_stream(input, bytes, part);
        }
        let mut batch = Batch::default();
        let it = self.finder.candidates(bytes);
        batch.collect(it, bytes, 0, self.lines);
        batch.bytes = bytes.len() as u64;
        (batch, None)
    }

    /// A stream, decompressed when its magic bytes say so.
    fn search_stream<R: Read + Send>(
        &self,
        input: &Input,
        rdr: R,
        part: Part<'_>,
    ) -> (Batch, Option<InputError>) {
        let mut batch = Batch::default();
        let raw = AtomicU64::new(0);
        let rdr = Counted { rdr, bytes: 0, shared: Some(&raw) };
        let (format, rdr) = match input::open_stream(rdr) {
            Ok(x) => x,
            Err(error) => {
                let err = InputError {
                    source: input.source.clone(),
                    offset: None,
                    error,
                };
                return (Batch::failed(), Some(err));
            }
        };
        batch.compression = Some(format);
        batch.opened = true;
        let mut counted = Counted { rdr, bytes: 0, shared: None };
        let finder = &self.finder;
        let mut sink = Collect {
            batch: &mut batch,
            input,
            part,
            raw: &raw,
            sent: 0,
            // The first match after a quiet spell goes out at once.
            last: std::time::Instant::now()
                .checked_sub(PART_EVERY)
                .unwrap_or_else(std::time::Instant::now),
        };
        let result = finder.find_reader(&mut counted, &mut sink);
        let sink_sent = sink.sent;
        batch.bytes = counted.bytes;
        batch.raw = raw.load(Ordering::Relaxed).saturating_sub(sink_sent);
        let error = result.err().map(|error| InputError {
            source: input.source.clone(),
            offset: (format != Compression::None).then_some(counted.bytes),
            error,
        });
        (batch, error)
    }

    /// A slice of a big file, scanned from its start or, when the
    /// previous slice spilled into it, from `resume` (absolute).
    fn search_slice(
        &self,
        slice: &SliceUnit,
        resume: Option<u64>,
        buf: &mut Buffer,
    ) -> io::Result<Batch> {
        let want = slice
            .end
            .saturating_add(self.overlap as u64)
            .min(slice.size)
            .saturating_sub(slice.start);
        let bytes = buf.fill_at(&slice.file, slice.start, want as usize)?;
        let stop = (slice.end - slice.start) as usize;
        let mut batch = Batch::default();
        let mut it = match resume {
            None => self.finder.candidates_in(bytes, 0..stop),
            Some(r) => {
                let from = r.saturating_sub(slice.start) as usize;
                self.finder.candidates_from(bytes, from, stop)
            }
        };
        batch.collect(it.by_ref(), bytes, slice.start, self.lines);
        batch.resume = slice.start + it.resume() as u64;
        if self.lines {
            let head = bytes.get(..stop).unwrap_or(bytes);
            batch.newlines = memchr::memchr_iter(b'\n', head).count() as u64;
        }
        batch.bytes = stop as u64;
        Ok(batch)
    }

    /// Reports one unit; `file` carries the state of a sliced file.
    fn report_one<R: Report>(
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
                    batch.report(&input, 0, report)?;
                }
                if let Some(err) = &error {
                    report.error(err)?;
                }
                if batch.opened {
                    let done = InputDone {
                        bytes: batch.bytes,
                        compression: batch.compression,
                    };
                    report.end(&input, &done)?;
                }
                let size = input.size.unwrap_or(batch.bytes);
                report.progress(size.saturating_sub(progressed));
                Ok(())
            }
            Done::Slice { slice, mut batch, mut error } => {
                if slice.first {
                    *file = FileState::default();
                    report.begin(&slice.input)?;
                }
                if !slice.first && file.resume > slice.start {
                    // The previous slice's last candidate spilled into
                    // this one: scan it again from where that one ended.
                    match self.search_slice(&slice, Some(file.resume), buf) {
                        Ok(b) => batch = b,
                        Err(e) => {
                            error = Some(InputError {
                                source: slice.input.source.clone(),
                                offset: Some(slice.start),
                                error: e,
                            })
                        }
                    }
                }
                file.resume = file.resume.max(batch.resume);
                batch.report(&slice.input, file.lines, report)?;
                file.lines += batch.newlines;
                file.bytes += batch.bytes;
                if let Some(err) = &error {
                    report.error(err)?;
                }
                if slice.last {
                    let done = InputDone {
                        bytes: file.bytes,
                        compression: Some(Compression::None),
                    };
                    report.end(&slice.input, &done)?;
                }
                report.progress(slice.end - slice.start);
                Ok(())
            }
        }
    }
}

/// Sends a part of a long stream on (`Some`), or asks whether its unit
/// is being reported (`None`); returns whether it is.
type Part<'p> = &'p mut dyn FnMut(&Input, Option<Batch>) -> bool;

/// What the workers send to the reporting thread.
enum Msg {
    /// Matches of a stream unit that is not finished.
    Part(usize, Input, Batch),
    /// A finished unit.
    Done(usize, Done),
}

/// State shared by the workers.
struct Shared<'d, 'r, I, R> {
    planner: Mutex<Planner<'d, I>>,
    /// Results not reported yet.
    inbox: Mutex<Inbox>,
    /// Held by the worker that reports.
    reporter: Mutex<Reporter<'r, R>>,
    /// Units reported so far (a copy of `Reporter::next` to wait on).
    reported: Mutex<usize>,
    moved: Condvar,
    /// Workers waiting on `moved`.
    waiting: AtomicUsize,
    stop: AtomicBool,
    window: usize,
}

impl<I, R> Shared<'_, '_, I, R> {
    /// Waits until `ready(reported)` or the run stops.
    fn wait_until(&self, ready: impl Fn(usize) -> bool) {
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
    fn wake(&self) {
        if self.waiting.load(Ordering::SeqCst) > 0 {
            self.wake_all();
        }
    }

    fn wake_all(&self) {
        // Taking the lock orders this after a waiter's check.
        drop(self.reported.lock());
        self.moved.notify_all();
    }
}

/// Finished units and stream parts not reported yet.
#[derive(Default)]
struct Inbox {
    parts: BTreeMap<usize, Vec<(Input, Batch)>>,
    done: BTreeMap<usize, Done>,
}

/// The reporting state: the unit due next and the report itself.
struct Reporter<'r, R> {
    report: &'r mut R,
    /// The unit due next.
    next: usize,
    /// Whether `next` has had its `begin` reported (by a part).
    begun: bool,
    /// Progress reported for `next` by its parts.
    progressed: u64,
    file: FileState,
    buf: Buffer,
    /// The report failed; the run stops.
    error: Option<io::Error>,
}

impl<R: Report> Reporter<'_, R> {
    /// Reports a part of the stream unit due next.
    fn part(&mut self, input: &Input, batch: &Batch) -> io::Result<()> {
        if !self.begun {
            self.report.begin(input)?;
            self.begun = true;
        }
        batch.report(input, 0, self.report)?;
        self.report.progress(batch.raw);
        self.progressed += batch.raw;
        Ok(())
    }
}

/// A unit of work.
enum Unit {
    Failed(InputError),
    Whole(Input),
    Slice(SliceUnit),
}

/// A newline-aligned slice `[start, end)` of a big regular file.
struct SliceUnit {
    input: Input,
    file: Arc<File>,
    size: u64,
    start: u64,
    end: u64,
    first: bool,
    last: bool,
}

/// A finished unit.
enum Done {
    Failed(InputError),
    Whole { input: Input, batch: Batch, error: Option<InputError> },
    Slice { slice: SliceUnit, batch: Batch, error: Option<InputError> },
}

/// Per-file state while the slices of a file are reported.
#[derive(Default)]
struct FileState {
    /// Absolute offset where the scan of the whole file would go on.
    resume: u64,
    /// Newlines before the current slice.
    lines: u64,
    /// Bytes reported.
    bytes: u64,
}

/// Cuts the inputs into units, in order.
struct Planner<'d, I> {
    driver: &'d Driver,
    inputs: I,
    queue: VecDeque<Unit>,
    seq: usize,
}

impl<'d, I: Iterator<Item = Result<Input, InputError>>> Planner<'d, I> {
    fn new(driver: &'d Driver, inputs: I) -> Planner<'d, I> {
        Planner { driver, inputs, queue: VecDeque::new(), seq: 0 }
    }

    fn next(&mut self) -> Option<(usize, Unit)> {
        if self.queue.is_empty() {
            let input = self.inputs.next()?;
            self.plan(input);
        }
        let unit = self.queue.pop_front()?;
        let seq = self.seq;
        self.seq += 1;
        Some((seq, unit))
    }

    /// Queues the units of one input.
    fn plan(&mut self, input: Result<Input, InputError>) {
        let input = match input {
            Ok(i) => i,
            Err(e) => return self.queue.push_back(Unit::Failed(e)),
        };
        let slice = self.driver.slice as u64;
        let (Source::Path(path), Some(size)) = (&input.source, input.size)
        else {
            return self.queue.push_back(Unit::Whole(input));
        };
        if size <= slice {
            return self.queue.push_back(Unit::Whole(input));
        }
        let file = match File::open(path) {
            Ok(f) => f,
            Err(error) => {
                let source = input.source.clone();
                let err = InputError { source, offset: None, error };
                return self.queue.push_back(Unit::Failed(err));
            }
        };
        let mut head = [0u8; Compression::MAGIC_LEN];
        let n = file.read_at(&mut head, 0).unwrap_or(0);
        let plain = Compression::detect(head.get(..n).unwrap_or_default())
            == Compression::None;
        let bounds = if plain { boundaries(&file, size, slice) } else { None };
        let Some(bounds) = bounds else {
            return self.queue.push_back(Unit::Whole(input));
        };
        let file = Arc::new(file);
        let count = bounds.len();
        let mut start = 0;
        for (k, end) in bounds.into_iter().enumerate() {
            self.queue.push_back(Unit::Slice(SliceUnit {
                input: input.clone(),
                file: Arc::clone(&file),
                size,
                start,
                end,
                first: k == 0,
                last: k + 1 == count,
            }));
            start = end;
        }
    }
}

/// The ends of newline-aligned slices of about `slice` bytes, the last
/// one `size`; `None` when a line is too long to split at (the file is
/// then streamed, with bounded memory, by one worker).
fn boundaries(file: &File, size: u64, slice: u64) -> Option<Vec<u64>> {
    const LONGEST_LINE: u64 = 1 << 20;
    let mut ends = Vec::new();
    let mut start = 0u64;
    let mut probe = vec![0u8; 64 * 1024];
    while size - start > slice {
        // The first newline at or after `start + slice - 1`; lines are
        // short, so the first probe is small.
        let mut at = start + slice - 1;
        let mut len = 4096;
        let end = loop {
            if at >= size || at - (start + slice - 1) > LONGEST_LINE {
                break None;
            }
            let n = file.read_at(probe.get_mut(..len)?, at).ok()?;
            len = probe.len();
            if n == 0 {
                break None;
            }
            let got = probe.get(..n)?;
            if let Some(i) = memchr::memchr(b'\n', got) {
                break Some(at + i as u64 + 1);
            }
            at += n as u64;
        };
        match end {
            Some(e) if e < size => {
                ends.push(e);
                start = e;
            }
            Some(_) => break,
            None if at >= size => break,
            None => return None,
        }
    }
    ends.push(size);
    Some(ends)
}

/// The candidates of one unit, owning their URLs.
#[derive(Default)]
struct Batch {
    hits: Vec<Found>,
    urls: Vec<u8>,
    /// Bytes searched.
    bytes: u64,
    /// Newlines in the slice (slices only).
    newlines: u64,
    /// Absolute offset where a whole-file scan would go on.
    resume: u64,
    compression: Option<Compression>,
    /// Input bytes (as stored) read for this part (stream parts only).
    raw: u64,
    /// The input could be opened (a `begin` and `end` are reported).
    opened: bool,
}

/// A candidate whose URL is `urls[url.0..url.1]` of its batch.
struct Found {
    at: Position,
    url: (usize, usize),
    kind: Kind,
    scheme: Scheme,
    flags: Flags,
    reject: Option<Reject>,
}

impl Batch {
    fn failed() -> Batch {
        Batch { opened: false, ..Batch::default() }
    }

    fn push(&mut self, at: Position, m: &Match<'_>, reject: Option<Reject>) {
        let from = self.urls.len();
        self.urls.extend_from_slice(m.url());
        self.hits.push(Found {
            at,
            url: (from, self.urls.len()),
            kind: m.kind(),
            scheme: m.scheme(),
            flags: m.flags(),
            reject,
        });
    }

    /// Collects the candidates of a slice scan of `bytes`, which start at
    /// absolute offset `base` right after a newline (or at 0). `line` is
    /// then relative: the number of newlines before the candidate in the
    /// slice, plus 1; [`Batch::report`] adds the newlines before the slice.
    fn collect<'h>(
        &mut self,
        it: impl Iterator<Item = Candidate<'h>>,
        bytes: &[u8],
        base: u64,
        lines: bool,
    ) {
        self.opened = true;
        let (mut counted, mut line, mut line_start) = (0usize, 1u64, 0usize);
        for c in it {
            let span = c.as_match().span();
            let (mut l, mut col) = (0, 0);
            if lines {
                let upto = span.start.min(bytes.len());
                let seg = bytes.get(counted..upto).unwrap_or_default();
                for i in memchr::memchr_iter(b'\n', seg) {
                    line += 1;
                    line_start = counted + i + 1;
                }
                counted = counted.max(upto);
                l = line;
                col = (span.start - line_start) as u64 + 1;
            }
            let at = Position {
                start: base + span.start as u64,
                end: base + span.end as u64,
                line: l,
                column: col,
            };
            self.push(at, c.as_match(), c.reject());
        }
    }

    /// Reports the candidates, adding `lines_before` to slice-relative
    /// line numbers.
    fn report<R: Report>(
        &self,
        input: &Input,
        lines_before: u64,
        report: &mut R,
    ) -> io::Result<()> {
        for f in &self.hits {
            let mut at = f.at;
            if at.line > 0 {
                at.line += lines_before;
            }
            let url = self.urls.get(f.url.0..f.url.1).unwrap_or_default();
            let hit = Hit {
                at,
                url,
                kind: f.kind,
                scheme: f.scheme,
                flags: f.flags,
                reject: f.reject,
            };
            report.hit(input, &hit)?;
        }
        Ok(())
    }
}

/// Collects the results of a reader search, sending them on in parts.
struct Collect<'b, 'p> {
    batch: &'b mut Batch,
    input: &'b Input,
    part: Part<'p>,
    /// Input bytes (as stored) read so far, and how many of them the
    /// parts sent on account for.
    raw: &'b AtomicU64,
    sent: u64,
    /// When the last part was sent: a slow stream (`tail -f`) sends what
    /// it has at least this often.
    last: std::time::Instant,
}

/// Matches of a stream are sent on in parts of this many, or sooner
/// when the stream is slow.
const PART_HITS: usize = 16 * 1024;

/// A stream sends what it has found at least this often.
const PART_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

impl Collect<'_, '_> {
    fn sent_on(&mut self) {
        if self.batch.hits.len() < PART_HITS {
            // A slow stream (`tail -f`) sends what it has every so often,
            // but only when it is being reported: a part of a unit not due
            // yet makes its worker wait.
            if self.last.elapsed() < PART_EVERY {
                return;
            }
            self.last = std::time::Instant::now();
            if !(self.part)(self.input, None) {
                return;
            }
        }
        let raw = self.raw.load(Ordering::Relaxed);
        let part = Batch {
            hits: std::mem::take(&mut self.batch.hits),
            urls: std::mem::take(&mut self.batch.urls),
            opened: true,
            raw: raw.saturating_sub(self.sent),
            ..Batch::default()
        };
        self.sent = raw;
        (self.part)(self.input, Some(part));
    }
}

impl Sink for Collect<'_, '_> {
    type Error = io::Error;

    fn matched(&mut self, at: &Position, m: &Match<'_>) -> io::Result<bool> {
        self.batch.push(*at, m, None);
        self.sent_on();
        Ok(true)
    }

    fn rejected(
        &mut self,
        at: &Position,
        c: &Candidate<'_>,
    ) -> io::Result<bool> {
        self.batch.push(*at, c.as_match(), c.reject());
        self.sent_on();
        Ok(true)
    }
}

/// Counts the bytes read: decompressed ones for the offset of an error,
/// stored ones (into `shared`) for progress.
struct Counted<'a, R> {
    rdr: R,
    bytes: u64,
    shared: Option<&'a AtomicU64>,
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

/// A worker's reusable buffer; its contents start page-aligned, which
/// keeps the SIMD scan at its floor (DESIGN.md).
#[derive(Default)]
struct Buffer {
    buf: Vec<u8>,
}

const ALIGN: usize = 4096;

impl Buffer {
    /// Makes room for `len` bytes; returns where they start.
    fn room(&mut self, len: usize) -> usize {
        let need = len.saturating_add(ALIGN);
        if self.buf.len() < need {
            self.buf = vec![0u8; need.next_multiple_of(ALIGN)];
        }
        self.buf.as_ptr().align_offset(ALIGN).min(ALIGN)
    }

    /// Reads `rdr` to its end (the caller bounds it with `take`).
    fn fill_from<R: Read>(&mut self, mut rdr: R) -> io::Result<&[u8]> {
        let mut len = 0;
        let mut base = self.room(64 * 1024);
        loop {
            if base + len == self.buf.len() {
                let mut bigger = vec![0u8; (self.buf.len() * 2).max(ALIGN)];
                let nb = bigger.as_ptr().align_offset(ALIGN).min(ALIGN);
                if let (Some(dst), Some(src)) = (
                    bigger.get_mut(nb..nb + len),
                    self.buf.get(base..base + len),
                ) {
                    dst.copy_from_slice(src);
                }
                self.buf = bigger;
                base = nb;
            }
            let dst = self.buf.get_mut(base + len..).unwrap_or_default();
            match rdr.read(dst) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(self.buf.get(base..base + len).unwrap_or_default())
    }

    /// Reads `len` bytes of `file` at `offset` (fewer at its end).
    fn fill_at(
        &mut self,
        file: &File,
        offset: u64,
        len: usize,
    ) -> io::Result<&[u8]> {
        let base = self.room(len);
        let mut got = 0;
        while got < len {
            let dst =
                self.buf.get_mut(base + got..base + len).unwrap_or_default();
            match file.read_at(dst, offset + got as u64) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(self.buf.get(base..base + got).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// What a report saw, as comparable values.
    #[derive(Default)]
    struct Record(Vec<String>);

    impl Report for Record {
        fn begin(&mut self, input: &Input) -> io::Result<()> {
            self.0.push(format!("begin {:?}", input.source));
            Ok(())
        }
        fn hit(&mut self, _: &Input, h: &Hit<'_>) -> io::Result<()> {
            self.0.push(format!(
                "{} {} {} {} {:?} {:?}",
                h.at.start,
                h.at.end,
                h.at.line,
                h.at.column,
                String::from_utf8_lossy(h.url),
                h.reject
            ));
            Ok(())
        }
        fn error(&mut self, err: &InputError) -> io::Result<()> {
            self.0.push(format!("error {err}"));
            Ok(())
        }
        fn end(&mut self, _: &Input, d: &InputDone) -> io::Result<()> {
            self.0.push(format!("end {}", d.bytes));
            Ok(())
        }
    }

    fn text() -> Vec<u8> {
        let mut t = Vec::new();
        for i in 0..400 {
            write!(
                t,
                "line {i} http://h{i}.example/p <URL:http://w{i}.exa\n  \
                 mple/q{i}> x:y http://bad:99999/ \"ftp://q.r/\n s\"\n\
                 > > <URL:http://quoted.example/a-\n> > b>\n"
            )
            .unwrap();
        }
        t
    }

    fn run(
        path: &std::path::Path,
        threads: usize,
        slice: usize,
    ) -> Vec<String> {
        let d = Driver::builder()
            .threads(threads)
            .slice_size(slice)
            .build(Finder::new());
        let inputs = input::walk(&[path.to_path_buf()], Default::default());
        let mut r = Record::default();
        d.run(inputs, &mut r).unwrap();
        r.0
    }

    #[test]
    fn slices_equal_whole_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("spool");
        std::fs::write(&path, text()).unwrap();
        let whole = run(&path, 1, 1 << 30);
        assert!(whole.len() > 1000, "{}", whole.len());
        for slice in [1, 2, 3, 7, 50, 64, 333, 4096] {
            for threads in [1, 3] {
                let got = run(&path, threads, slice);
                assert_eq!(got, whole, "slice {slice} threads {threads}");
            }
        }
    }

    /// Candidates as long as the caps (and longer: too-long runs,
    /// wrappers that never close) straddle slice ends.
    #[test]
    fn slices_equal_whole_file_at_the_length_caps() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("long");
        let mut t = Vec::new();
        for n in [10usize, 60, 63, 64, 65, 200, 2000, 8190, 8200] {
            let seg = "a/".repeat(n / 2);
            writeln!(t, "x http://h.example/{seg} y").unwrap();
            writeln!(t, "<URL:http://w.example/{}>", "b\n ".repeat(n / 3))
                .unwrap();
            write!(t, "<URL:http://u.example/{} never closes\n\n", seg)
                .unwrap();
        }
        std::fs::write(&path, &t).unwrap();
        for (wrapper, url) in [(2048, 8192), (32, 64), (100, 40)] {
            let finder = Finder::builder()
                .max_wrapper_len(wrapper)
                .max_url_len(url)
                .build();
            let get = |threads, slice| {
                let d = Driver::builder()
                    .threads(threads)
                    .slice_size(slice)
                    .build(finder.clone());
                let mut r = Record::default();
                let inputs = input::walk(
                    std::slice::from_ref(&path),
                    Default::default(),
                );
                d.run(inputs, &mut r).unwrap();
                r.0
            };
            let whole = get(1, 1 << 30);
            assert!(whole.len() > 20, "{whole:?}");
            for slice in [1, 50, 333, 4000, 9000] {
                assert_eq!(
                    get(2, slice),
                    whole,
                    "caps {wrapper}/{url}, slice {slice}"
                );
            }
        }
    }

    #[test]
    fn compressed_equals_plain() {
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        let gz = dir.path().join("gz");
        std::fs::write(&plain, text()).unwrap();
        let mut enc = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        enc.write_all(&text()).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let a = run(&plain, 2, 1000);
        let b = run(&gz, 2, 1000);
        assert_eq!(a[1..], b[1..]);
    }

    #[test]
    fn long_streams_are_reported_in_parts_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        let mut plain = Vec::new();
        for name in ["a", "b", "c"] {
            let text = format!("http://{name}.example/x\n").repeat(40_000);
            let mut enc = flate2::write::GzEncoder::new(
                Vec::new(),
                flate2::Compression::fast(),
            );
            enc.write_all(text.as_bytes()).unwrap();
            let gz = dir.path().join(format!("{name}.gz"));
            std::fs::write(&gz, enc.finish().unwrap()).unwrap();
            let txt = dir.path().join(format!("{name}.txt"));
            std::fs::write(&txt, &text).unwrap();
            paths.push(gz);
            plain.push(txt);
        }
        let get = |paths: &[std::path::PathBuf], threads| {
            let d = Driver::builder().threads(threads).build(Finder::new());
            let mut r = Record::default();
            d.run(input::walk(paths, Default::default()), &mut r).unwrap();
            r.0.into_iter()
                .filter(|l| !l.starts_with("begin"))
                .collect::<Vec<_>>()
        };
        let want = get(&plain, 1);
        assert_eq!(want.len(), 3 * 40_001);
        assert_eq!(get(&paths, 3), want);
        assert_eq!(get(&paths, 1), want);
    }

    #[test]
    fn long_line_is_streamed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("oneline");
        let mut t = b"http://a.example/ ".repeat(200_000);
        t.extend_from_slice(b"\nhttp://b.example/\n");
        std::fs::write(&path, &t).unwrap();
        let got = run(&path, 2, 1000);
        assert_eq!(got.len(), 200_003);
        assert!(got[200_001].contains("b.example"), "{}", got[200_001]);
    }
}
