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
use crate::mail::{self, Encoding, Location, MailFinder, MailMatch, MailSink};
use crate::parse::{Reject, Scheme};
use crate::scan::{Flags, Kind, LOOK_BEHIND};
use rayon::prelude::*;
use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::fmt;
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
    /// The message it was found in, when the input was searched as mail
    /// ([`DriverBuilder::mail`]).
    pub mail: Option<MailHit<'a>>,
    /// Raw quoted-printable was repaired to get it (`--qp-repair` on
    /// text that is not mail).
    pub repaired: bool,
}

/// Where in a mail input a [`Hit`] was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MailHit<'a> {
    /// 0-based index of the message in the input.
    pub message: u64,
    /// Absolute offset of the message (its separator line, in an mbox).
    pub message_offset: u64,
    /// The message's `Message-ID`, as written.
    pub message_id: Option<&'a [u8]>,
    /// The MIME entity, numbered as [`MailMatch::part`] says.
    pub part: usize,
    /// Header or body.
    pub location: Location,
    /// The transfer encoding of the text it was found in.
    pub encoding: Encoding,
    /// Whether its text differs from the bytes its span covers.
    pub decoded: bool,
}

/// Whether inputs are searched as mail; see [`DriverBuilder::mail`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MailMode {
    /// Raw scans only.
    #[default]
    Off,
    /// Every input is mail: an mbox when it begins with a separator
    /// line, else one message.
    On,
    /// Inputs whose first bytes look like mail
    /// ([`mail::Format::sniff`]) are searched as mail, others raw.
    Auto,
}

/// What the driver knows about an input once it is done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputDone {
    /// Bytes searched (decompressed).
    pub bytes: u64,
    /// The compression format that was undone.
    pub compression: Option<Compression>,
    /// Messages searched, when the input was searched as mail.
    pub messages: Option<u64>,
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
    mode: MailMode,
    mail: MailFinder,
    qp_repair: bool,
    spare: Spare,
}

/// Batches that were reported, cleared, for the workers to fill again:
/// a fresh batch grows by reallocation and touches new pages, which cost
/// more than the search of an mbox slice (page faults and `realloc`
/// copies were a third of the time of `-j1` on a mail spool).
#[derive(Clone, Default)]
struct Spare(Arc<Mutex<Vec<Batch>>>);

impl fmt::Debug for Spare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Spare")
    }
}

impl Spare {
    /// At most this many batches wait; with one in hand per worker and
    /// [`Shared::window`] units in flight, more would rarely be reused.
    const KEEP: usize = 8;
    /// A batch that holds more than this (bytes of URLs and of hits) is
    /// dropped rather than kept, so that the pool holds at most
    /// `KEEP * LARGEST` (16 MiB) whatever the input; a 4 MiB slice of a
    /// mail spool fills about 1.4 MiB.
    const LARGEST: usize = 2 << 20;

    /// A cleared batch, or a new one.
    fn take(&self) -> Batch {
        self.0.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default()
    }

    /// Clears `batch` and keeps it for [`Spare::take`]; a batch that
    /// grew past [`Spare::LARGEST`] is cut back to it, not dropped: the
    /// pages it keeps are already mapped, and a dense slice (one URL in
    /// 200 bytes fills 4.7 MiB) would otherwise make every next batch
    /// start from nothing.
    fn give(&self, mut batch: Batch) {
        batch.clear();
        let urls = Spare::LARGEST / 4;
        let hits = (Spare::LARGEST - urls) / size_of::<Found>().max(1);
        batch.hits.shrink_to(hits);
        batch.urls.shrink_to(urls);
        if let Ok(mut v) = self.0.lock() {
            if v.len() < Spare::KEEP {
                v.push(batch);
            }
        }
    }
}

/// Builds a [`Driver`].
#[derive(Clone, Debug, Default)]
pub struct DriverBuilder {
    threads: Option<usize>,
    slice: Option<usize>,
    mode: MailMode,
    qp_repair: bool,
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

    /// Whether inputs are searched as mail (by default, [`MailMode::Off`])
    /// and whether raw quoted-printable is repaired
    /// ([`mail::MailFinderBuilder::qp_repair`] in mail, [`mail::repair_iter`]
    /// in other text). The format is sniffed from the first bytes of each
    /// input, after decompression. An mbox bigger than the slice size is
    /// split at separator lines ([`mail::next_separator`]). A mail search
    /// reports URLs only, no rejected candidates; so does a repair search,
    /// which reads its input whole.
    pub fn mail(
        &mut self,
        mode: MailMode,
        qp_repair: bool,
    ) -> &mut DriverBuilder {
        self.mode = mode;
        self.qp_repair = qp_repair;
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
            threads,
            slice: self.slice.unwrap_or(4 << 20),
            // Reads past a trigger are bounded by the caps plus a UTF-8
            // sequence or a quote prefix: LOOK_BEHIND covers those.
            overlap: caps.saturating_add(2 * LOOK_BEHIND),
            lines,
            mode: self.mode,
            mail: MailFinder::builder()
                .qp_repair(self.qp_repair)
                .build(finder.clone()),
            finder,
            qp_repair: self.qp_repair,
            spare: Spare::default(),
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

    /// How an input that begins with `head` is searched: as mail of the
    /// format returned, or raw (`None`).
    fn mail_format(&self, head: &[u8]) -> Option<mail::Format> {
        let head = head.get(..SNIFF_LEN).unwrap_or(head);
        match (self.mode, mail::Format::sniff(head)) {
            (MailMode::Off, _) => None,
            (MailMode::On, mail::Format::Unknown) => {
                Some(mail::Format::Message)
            }
            (MailMode::Auto, mail::Format::Unknown) => None,
            (_, f) => Some(f),
        }
    }

    /// Whether the first bytes of an input are needed to decide how to
    /// search it.
    fn sniffs(&self) -> bool {
        self.mode != MailMode::Off || self.qp_repair
    }

    /// Searches `bytes` (a whole input, or an mbox slice starting at
    /// absolute offset `base` at a separator) as mail.
    fn search_mail_slice(
        &self,
        bytes: &[u8],
        base: u64,
        format: mail::Format,
    ) -> Batch {
        let mut batch = self.spare.take();
        batch.opened = true;
        batch.mail = true;
        let mut sink = SliceCollect {
            batch: &mut batch,
            bytes,
            base,
            lines: self.lines.then(LineCounter::default),
        };
        let Ok(()) = self.mail.find(bytes, format, &mut sink);
        batch.bytes = bytes.len() as u64;
        if self.lines {
            batch.newlines = memchr::memchr_iter(b'\n', bytes).count() as u64;
        }
        batch
    }

    /// Searches `bytes` (a whole input) with raw quoted-printable
    /// repaired.
    fn search_repair(&self, bytes: &[u8]) -> Batch {
        let mut batch = Batch { opened: true, ..Batch::default() };
        let mut lines = self.lines.then(LineCounter::default);
        for r in mail::repair_iter(&self.finder, bytes) {
            let m = r.as_match();
            let span = m.span();
            let (line, column) = match &mut lines {
                Some(l) => l.at(bytes, span.start),
                None => (0, 0),
            };
            let at = Position {
                start: span.start as u64,
                end: span.end as u64,
                line,
                column,
            };
            batch.push(at, m, None);
            if let Some(f) = batch.hits.last_mut() {
                f.repaired = r.is_repaired();
            }
        }
        batch.bytes = bytes.len() as u64;
        batch
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
                let stopped = || shared.stop.load(Ordering::SeqCst);
                let Some(batch) = batch else {
                    // A stopped run asks for the part, to say so.
                    return stopped()
                        || shared.reported.lock().map_or(true, |r| *r >= seq);
                };
                self.deliver(shared, Msg::Part(seq, input.clone(), batch));
                shared.wait_until(|reported| reported >= seq);
                !stopped()
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
                self.spare.give(batch);
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
        let fail = |error, offset| failure(input, error, offset);
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
        // The walk saw a regular file's size; a regular file listed
        // without it is read (a big one fills more than a slice, below);
        // anything else is asked.
        let small = match input.size {
            Some(size) => size <= self.slice as u64,
            None if input.regular => true,
            None => match file.metadata() {
                Ok(m) => m.is_file() && m.len() <= self.slice as u64,
                Err(e) => return (Batch::failed(), Some(fail(e, None))),
            },
        };
        if !small {
            return self.search_stream(input, file, part);
        }
        let limit = (self.slice as u64).saturating_add(1);
        // A regular file of unknown size that fills the first read is
        // asked its size (a `stat` of the open file): a big one is
        // searched in slices, not read whole.
        let probe = input.size.is_none() && input.regular;
        let mut big = None;
        let grow = || {
            if !probe {
                return true;
            }
            match file.metadata() {
                Ok(m) if m.len() > self.slice as u64 => {
                    big = Some(m.len());
                    false
                }
                _ => true,
            }
        };
        let bytes = match buf.fill_from((&file).take(limit), grow) {
            Ok(b) => b,
            Err(e) => return (Batch::failed(), Some(fail(e, None))),
        };
        if let Some(size) = big {
            return self.search_big(input, path, file, size, buf, part);
        }
        if bytes.len() as u64 >= limit && probe {
            // Grown past a slice since the look: sliced when its size
            // says so; a file whose size says less than it holds (a
            // kernel's pseudo-file) is streamed, below.
            match file.metadata() {
                Ok(m) if m.len() >= limit => {
                    return self.search_big(
                        input,
                        path,
                        file,
                        m.len(),
                        buf,
                        part,
                    );
                }
                Ok(_) => {}
                Err(e) => return (Batch::failed(), Some(fail(e, None))),
            }
        }
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
        if self.sniffs() {
            if let Some(f) = self.mail_format(bytes) {
                return (self.search_mail_slice(bytes, 0, f), None);
            }
            if self.qp_repair {
                return (self.search_repair(bytes), None);
            }
        }
        let mut batch = self.spare.take();
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
                return (Batch::failed(), Some(failure(input, error, None)));
            }
        };
        batch.compression = Some(format);
        batch.opened = true;
        let mut counted = Counted { rdr, bytes: 0, shared: None };
        let mut how = None;
        if self.sniffs() {
            let mut head = Vec::with_capacity(SNIFF_LEN);
            if let Err(error) = read_head(&mut counted, &mut head) {
                let err = failure(input, error, Some(counted.bytes));
                return (batch, Some(err));
            }
            how = match self.mail_format(&head) {
                Some(f) => Some(Some(f)),
                None if self.qp_repair => Some(None),
                None => None,
            };
            counted.bytes = 0;
            let rest: Box<dyn Read + Send + '_> = Box::new(counted.rdr);
            counted = Counted {
                rdr: Box::new(io::Cursor::new(head).chain(rest)),
                bytes: 0,
                shared: None,
            };
        }
        if how == Some(None) {
            // Raw repair: the whole input at once.
            let mut all = Vec::new();
            let got = counted.read_to_end(&mut all);
            let mut b = self.search_repair(&all);
            b.compression = Some(format);
            b.raw = raw.load(Ordering::Relaxed);
            let at = (format != Compression::None).then_some(counted.bytes);
            let error = got.err().map(|error| failure(input, error, at));
            return (b, error);
        }
        let log = RefCell::new(NewlineLog::default());
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
            log: self.lines.then_some(&log),
            stopped: false,
        };
        let result = match how {
            Some(Some(f)) => {
                sink.batch.mail = true;
                let rdr = LogNewlines {
                    rdr: &mut counted,
                    log: self.lines.then_some(&log),
                    at: 0,
                };
                self.mail.find_reader(rdr, f, &mut sink)
            }
            _ => finder.find_reader(&mut counted, &mut sink),
        };
        let sink_sent = sink.sent;
        batch.bytes = counted.bytes;
        batch.raw = raw.load(Ordering::Relaxed).saturating_sub(sink_sent);
        let at = (format != Compression::None).then_some(counted.bytes);
        let error = result.err().map(|error| failure(input, error, at));
        (batch, error)
    }

    /// [`Driver::search_slice`] from its start, in the calling thread's
    /// buffer `cell` (a fresh one when that is in use further up the
    /// stack: rayon may run a slice inside another's wait).
    fn search_slice_in(
        &self,
        slice: &SliceUnit,
        cell: &RefCell<Buffer>,
    ) -> io::Result<Batch> {
        match cell.try_borrow_mut() {
            Ok(mut buf) => self.search_slice(slice, None, &mut buf),
            Err(_) => self.search_slice(slice, None, &mut Buffer::default()),
        }
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
        if slice.mail {
            // Mbox slices start and end at separator lines.
            let len = (slice.end - slice.start) as usize;
            let bytes = buf.fill_at(&slice.file, slice.start, len)?;
            let mut batch =
                self.search_mail_slice(bytes, slice.start, mail::Format::Mbox);
            batch.resume = slice.end;
            return Ok(batch);
        }
        let bytes = buf.fill_at(&slice.file, slice.start, want as usize)?;
        let stop = (slice.end - slice.start) as usize;
        let mut batch = self.spare.take();
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
                    batch.report(&input, report)?;
                }
                if let Some(err) = &error {
                    report.error(err)?;
                }
                if batch.opened {
                    let done = InputDone {
                        bytes: batch.bytes,
                        compression: batch.compression,
                        messages: batch.mail.then_some(batch.messages),
                    };
                    report.end(&input, &done)?;
                }
                let size = input.size.unwrap_or(batch.bytes);
                report.progress(size.saturating_sub(progressed));
                self.spare.give(batch);
                Ok(())
            }
            Done::Slice { slice, mut batch, mut error } => {
                if slice.first {
                    *file = FileState::default();
                    report.begin(&slice.input)?;
                }
                if let Err(e) = self.join(file, &slice, &mut batch, buf) {
                    let at = Some(slice.start);
                    error = Some(failure(&slice.input, e, at));
                }
                batch.report(&slice.input, report)?;
                if let Some(err) = &error {
                    report.error(err)?;
                }
                if slice.last {
                    let done = InputDone {
                        bytes: file.bytes,
                        compression: Some(Compression::None),
                        messages: slice.mail.then_some(file.messages),
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

/// The error `error` of `input`, at byte `offset` when known.
fn failure(
    input: &Input,
    error: io::Error,
    offset: Option<u64>,
) -> InputError {
    InputError { source: input.source.clone(), offset, error }
}

/// Sends a part of a long stream on (`Some`; returns whether the run goes
/// on, so that a stopped run, its output closed, stops reading), or asks
/// whether its unit is being reported (`None`; also yes when the run
/// stopped).
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
        batch.report(input, self.report)?;
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
    /// An mbox slice, searched as mail.
    mail: bool,
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
    /// Messages before the current slice.
    messages: u64,
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
        match self.driver.cut(&input, file, size) {
            Some(slices) => {
                self.queue.extend(slices.into_iter().map(Unit::Slice))
            }
            None => self.queue.push_back(Unit::Whole(input)),
        }
    }
}

impl Driver {
    /// The slices of a big regular `file` of `size` bytes, or `None` when
    /// it is searched whole (streamed): compressed, one mail message, raw
    /// repair, or a line too long to split at.
    fn cut(
        &self,
        input: &Input,
        file: File,
        size: u64,
    ) -> Option<Vec<SliceUnit>> {
        let slice = self.slice as u64;
        let mut head = vec![0u8; SNIFF_LEN];
        let n = file.read_at(&mut head, 0).unwrap_or(0);
        let head = head.get(..n).unwrap_or_default();
        let plain = Compression::detect(head) == Compression::None;
        let mut mail = false;
        if plain && self.sniffs() {
            match self.mail_format(head) {
                Some(mail::Format::Mbox) => mail = true,
                // One message, or raw repair: searched whole.
                Some(_) => return None,
                None if self.qp_repair => return None,
                None => {}
            }
        }
        let bounds = match (plain, mail) {
            (true, true) => mbox_boundaries(&file, size, slice)?,
            (true, false) => boundaries(&file, size, slice)?,
            _ => return None,
        };
        let file = Arc::new(file);
        let count = bounds.len();
        let mut start = 0;
        let mut slices = Vec::with_capacity(count);
        for (k, end) in bounds.into_iter().enumerate() {
            slices.push(SliceUnit {
                input: input.clone(),
                file: Arc::clone(&file),
                size,
                start,
                end,
                first: k == 0,
                last: k + 1 == count,
                mail,
            });
            start = end;
        }
        Some(slices)
    }

    /// A big regular file that the walk listed without its size (see
    /// [`input::WalkOptions::skip_stat`]), found big by this worker: its
    /// slices are searched here, one after the other, and sent on as
    /// parts, as the reporter would put parallel slices together
    /// (spilled candidates rescanned, line and message numbers counted
    /// on). A read error ends the file.
    fn search_big(
        &self,
        input: &Input,
        path: &std::path::Path,
        file: File,
        size: u64,
        buf: &mut Buffer,
        part: Part<'_>,
    ) -> (Batch, Option<InputError>) {
        let fail = |error, offset| failure(input, error, offset);
        let Some(slices) = self.cut(input, file, size) else {
            return match File::open(path) {
                Ok(f) => self.search_stream(input, f, part),
                Err(e) => (Batch::failed(), Some(fail(e, None))),
            };
        };
        let mut file = FileState::default();
        let mut done = Batch {
            opened: true,
            compression: Some(Compression::None),
            mail: slices.first().is_some_and(|s| s.mail),
            ..Batch::default()
        };
        // A few slices at a time are searched on the pool: a worker with
        // no unit left takes some (the file keeps its parallel slices),
        // and at most `ahead` batches wait to be sent on.
        let ahead = 2 * self.threads.max(1);
        let searched = slices.chunks(ahead).flat_map(|chunk| {
            let batches: Vec<_> = chunk
                .par_iter()
                .map(|s| SLICE_BUF.with(|b| self.search_slice_in(s, b)))
                .collect();
            chunk.iter().zip(batches)
        });
        let mut error = None;
        for (slice, batch) in searched {
            let mut batch = match batch {
                Ok(b) => b,
                Err(e) => {
                    error = Some(fail(e, Some(slice.start)));
                    break;
                }
            };
            if let Err(e) = self.join(&mut file, slice, &mut batch, buf) {
                error = Some(fail(e, Some(slice.start)));
            }
            batch.raw = slice.end - slice.start;
            if !part(input, Some(batch)) || error.is_some() {
                break;
            }
        }
        done.bytes = file.bytes;
        done.messages = file.messages;
        (done, error)
    }

    /// Puts the batch of `slice` in its file, as a scan of the whole file
    /// would have found it: scanned again from where the last candidate
    /// of the slice before ended when that spilled into this one (an
    /// error of that scan leaves `batch` as it was), line and message
    /// numbers counted on from the slices before it, which `file` then
    /// counts it with. The reporter does this for parallel slices,
    /// [`Driver::search_big`] for the slices of a file it found big.
    fn join(
        &self,
        file: &mut FileState,
        slice: &SliceUnit,
        batch: &mut Batch,
        buf: &mut Buffer,
    ) -> io::Result<()> {
        let mut rescan = Ok(());
        if file.resume > slice.start {
            match self.search_slice(slice, Some(file.resume), buf) {
                Ok(b) => self.spare.give(std::mem::replace(batch, b)),
                Err(e) => rescan = Err(e),
            }
        }
        file.resume = file.resume.max(batch.resume);
        batch.shift(file.lines, file.messages);
        file.lines += batch.newlines;
        file.bytes += batch.bytes;
        file.messages += batch.messages;
        rescan
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

/// How many first bytes of an input decide whether it is mail.
const SNIFF_LEN: usize = 8 * 1024;

/// Reads the head of a stream to sniff: up to [`SNIFF_LEN`] bytes, but no
/// more than it takes to decide, so that a slow stream (`tail -f`) is not
/// held up: the sniff is decided once it sees mail, or once the lines
/// read end what could be a header block.
fn read_head<R: Read>(rdr: &mut R, head: &mut Vec<u8>) -> io::Result<()> {
    let mut chunk = [0u8; 4096];
    while head.len() < SNIFF_LEN
        && !(memchr::memchr(b'\n', head).is_some()
            && mail::Format::sniff(head) != mail::Format::Unknown)
        && !header_ended(head)
    {
        let want = (SNIFF_LEN - head.len()).min(chunk.len());
        let dst = chunk.get_mut(..want).unwrap_or_default();
        match rdr.read(dst) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(dst.get(..n).unwrap_or_default()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Whether the complete lines of `head` end the header block it may
/// begin with: an empty line, or a line that is neither a field
/// (`Name: value`, but not `http://…`) nor a continuation.
fn header_ended(head: &[u8]) -> bool {
    let mut rest = head;
    while let Some(i) = memchr::memchr(b'\n', rest) {
        let line = rest.get(..i).unwrap_or_default();
        rest = rest.get(i + 1..).unwrap_or_default();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
            continue;
        }
        let field = match memchr::memchr(b':', line) {
            Some(k) => {
                let name = line.get(..k).unwrap_or_default();
                let value = line.get(k + 1..).unwrap_or_default();
                !name.is_empty()
                    && name.iter().all(|&b| b.is_ascii_graphic())
                    && !value.starts_with(b"//")
            }
            None => false,
        };
        if !field {
            return true;
        }
    }
    false
}

/// The ends of slices of an mbox of about `slice` bytes, each ending
/// right before a separator line ([`mail::next_separator`]), the last one
/// `size`; `None` when no separator comes for too long (the file is then
/// streamed by one worker).
fn mbox_boundaries(file: &File, size: u64, slice: u64) -> Option<Vec<u64>> {
    const LONGEST_MESSAGE: u64 = 64 << 20;
    // A separator this close to the end of a probe may be cut short.
    const TAIL: usize = 1024;
    // Messages are a few KiB: the first probe at a cut is small (a 256
    // KiB probe at every cut read 6% more than the spool's size with 4
    // MiB slices), and grows fourfold while no separator is in it.
    const FIRST_PROBE: usize = 16 * 1024;
    let mut ends = Vec::new();
    let mut start = 0u64;
    let mut probe = vec![0u8; 256 * 1024];
    while size - start > slice {
        // The probe starts one byte early: a separator at probe index 1
        // counts only after a newline at index 0.
        let first = start + slice - 1;
        let mut at = first;
        let mut len = FIRST_PROBE;
        let end = loop {
            if at >= size {
                break None;
            }
            if at - first > LONGEST_MESSAGE {
                return None;
            }
            let n = file.read_at(probe.get_mut(..len)?, at).ok()?;
            len = (len * 4).min(probe.len());
            if n == 0 {
                break None;
            }
            let got = probe.get(..n)?;
            let eof = at + n as u64 >= size;
            let limit = if eof { n } else { n.saturating_sub(TAIL) };
            if let Some(k) = mail::next_separator(got, 1) {
                if k < limit {
                    break Some(at + k as u64);
                }
            }
            if eof || limit < 2 {
                break None;
            }
            at += (limit - 1) as u64;
        };
        match end {
            Some(e) if e < size => {
                ends.push(e);
                start = e;
            }
            _ => break,
        }
    }
    ends.push(size);
    Some(ends)
}

/// Line numbers of offsets into a buffer, counted incrementally: cheap
/// when the offsets mostly increase.
#[derive(Default)]
struct LineCounter {
    /// Newlines before `pos`.
    newlines: u64,
    pos: usize,
    /// Where the line of `pos` starts.
    line_start: usize,
}

impl LineCounter {
    /// The 1-based line and byte column of offset `q` of `bytes`.
    fn at(&mut self, bytes: &[u8], q: usize) -> (u64, u64) {
        let q = q.min(bytes.len());
        if q >= self.pos {
            let seg = bytes.get(self.pos..q).unwrap_or_default();
            self.newlines += memchr::memchr_iter(b'\n', seg).count() as u64;
            if let Some(i) = memchr::memrchr(b'\n', seg) {
                self.line_start = self.pos + i + 1;
            }
        } else {
            let seg = bytes.get(q..self.pos).unwrap_or_default();
            self.newlines -= memchr::memchr_iter(b'\n', seg).count() as u64;
            let before = bytes.get(..q).unwrap_or_default();
            self.line_start =
                memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        }
        self.pos = q;
        (self.newlines + 1, (q - self.line_start) as u64 + 1)
    }
}

/// The offsets of the newlines read from a stream that later matches may
/// need; those before the current message are dropped.
#[derive(Default)]
struct NewlineLog {
    pending: VecDeque<u64>,
    /// Newlines dropped, and the last of them.
    dropped: u64,
    last_dropped: Option<u64>,
}

impl NewlineLog {
    /// Forgets the newlines before `offset` (the start of a message).
    fn forget_before(&mut self, offset: u64) {
        while let Some(&n) = self.pending.front() {
            if n >= offset {
                break;
            }
            self.pending.pop_front();
            self.dropped += 1;
            self.last_dropped = Some(n);
        }
    }

    /// The 1-based line and byte column of absolute offset `q`.
    fn at(&self, q: u64) -> (u64, u64) {
        let k = self.pending.partition_point(|&n| n < q);
        let prev = match k.checked_sub(1) {
            Some(i) => self.pending.get(i).copied(),
            None => self.last_dropped,
        };
        let start = prev.map_or(0, |n| n + 1);
        (self.dropped + k as u64 + 1, q.saturating_sub(start) + 1)
    }
}

/// Logs the offsets of the newlines it reads.
struct LogNewlines<'a, R> {
    rdr: R,
    log: Option<&'a RefCell<NewlineLog>>,
    at: u64,
}

impl<R: Read> Read for LogNewlines<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.rdr.read(buf)?;
        if let Some(log) = self.log {
            let mut log = log.borrow_mut();
            let got = buf.get(..n).unwrap_or_default();
            for i in memchr::memchr_iter(b'\n', got) {
                log.pending.push_back(self.at + i as u64);
            }
        }
        self.at += n as u64;
        Ok(n)
    }
}

/// Collects the mail matches of a slice search.
struct SliceCollect<'b> {
    batch: &'b mut Batch,
    bytes: &'b [u8],
    /// Absolute offset of `bytes`.
    base: u64,
    lines: Option<LineCounter>,
}

impl MailSink for SliceCollect<'_> {
    type Error = std::convert::Infallible;

    fn matched(
        &mut self,
        m: &MailMatch<'_>,
    ) -> Result<bool, std::convert::Infallible> {
        let span = m.as_match().span();
        let (line, column) = match &mut self.lines {
            Some(l) => l.at(self.bytes, span.start),
            None => (0, 0),
        };
        let at = Position {
            start: self.base + m.offset(),
            end: self.base + m.end_offset(),
            line,
            column,
        };
        self.batch.push_mail(at, m, self.base);
        Ok(true)
    }

    fn message(
        &mut self,
        _: &mail::Message<'_>,
    ) -> Result<bool, std::convert::Infallible> {
        self.batch.messages += 1;
        Ok(true)
    }
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
    /// Searched as mail.
    mail: bool,
    /// Messages searched (mail only).
    messages: u64,
}

/// A candidate whose URL is `urls[url.0..url.1]` of its batch.
struct Found {
    at: Position,
    url: (usize, usize),
    kind: Kind,
    scheme: Scheme,
    flags: Flags,
    reject: Option<Reject>,
    mail: Option<FoundMail>,
    repaired: bool,
}

/// [`MailHit`], its Message-ID at `urls[id.0..id.1]` of its batch.
struct FoundMail {
    /// Relative to the unit (a slice adds the messages before it).
    message: u64,
    message_offset: u64,
    id: Option<(usize, usize)>,
    part: usize,
    location: Location,
    encoding: Encoding,
    decoded: bool,
}

impl Batch {
    fn failed() -> Batch {
        Batch { opened: false, ..Batch::default() }
    }

    /// Empties the batch, keeping what its vectors allocated.
    fn clear(&mut self) {
        let mut hits = std::mem::take(&mut self.hits);
        let mut urls = std::mem::take(&mut self.urls);
        hits.clear();
        urls.clear();
        *self = Batch { hits, urls, ..Batch::default() };
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
            mail: None,
            repaired: false,
        });
    }

    /// Pushes a mail match; `base` is the absolute offset of the slice
    /// searched (0 for a reader search).
    fn push_mail(&mut self, at: Position, m: &MailMatch<'_>, base: u64) {
        // The URLs of a message share its Message-ID: stored once.
        let message = m.message() as u64;
        let same = self
            .hits
            .last()
            .and_then(|f| f.mail.as_ref())
            .and_then(|f| (f.message == message).then_some(f.id));
        self.push(at, m.as_match(), None);
        let id = match same {
            Some(id) => id,
            None => m.message_id().map(|id| {
                let from = self.urls.len();
                self.urls.extend_from_slice(id);
                (from, self.urls.len())
            }),
        };
        if let Some(f) = self.hits.last_mut() {
            f.mail = Some(FoundMail {
                message,
                message_offset: base + m.message_offset(),
                id,
                part: m.part(),
                location: m.location(),
                encoding: m.encoding(),
                decoded: m.decoded(),
            });
        }
    }

    /// Counts the line and message numbers of a slice's hits on from
    /// `lines` newlines and `messages` messages before it.
    fn shift(&mut self, lines: u64, messages: u64) {
        for f in &mut self.hits {
            if f.at.line > 0 {
                f.at.line += lines;
            }
            if let Some(m) = &mut f.mail {
                m.message += messages;
            }
        }
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

    /// Reports the candidates (a slice's after [`Driver::join`] has
    /// counted their numbers on).
    fn report<R: Report>(
        &self,
        input: &Input,
        report: &mut R,
    ) -> io::Result<()> {
        for f in &self.hits {
            let at = f.at;
            let url = self.urls.get(f.url.0..f.url.1).unwrap_or_default();
            let hit = Hit {
                at,
                url,
                kind: f.kind,
                scheme: f.scheme,
                flags: f.flags,
                reject: f.reject,
                mail: f.mail.as_ref().map(|m| MailHit {
                    message: m.message,
                    message_offset: m.message_offset,
                    message_id: m.id.and_then(|(a, b)| self.urls.get(a..b)),
                    part: m.part,
                    location: m.location,
                    encoding: m.encoding,
                    decoded: m.decoded,
                }),
                repaired: f.repaired,
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
    /// The newlines read, for the line numbers of mail matches.
    log: Option<&'b RefCell<NewlineLog>>,
    /// The run stopped (a part said so): the search ends.
    stopped: bool,
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
        self.stopped = !(self.part)(self.input, Some(part));
    }
}

impl Sink for Collect<'_, '_> {
    type Error = io::Error;

    fn matched(&mut self, at: &Position, m: &Match<'_>) -> io::Result<bool> {
        self.batch.push(*at, m, None);
        self.sent_on();
        Ok(!self.stopped)
    }

    fn rejected(
        &mut self,
        at: &Position,
        c: &Candidate<'_>,
    ) -> io::Result<bool> {
        self.batch.push(*at, c.as_match(), c.reject());
        self.sent_on();
        Ok(!self.stopped)
    }
}

impl MailSink for Collect<'_, '_> {
    type Error = io::Error;

    fn matched(&mut self, m: &MailMatch<'_>) -> io::Result<bool> {
        let (line, column) = match self.log {
            Some(log) => {
                let mut log = log.borrow_mut();
                log.forget_before(m.message_offset().min(m.offset()));
                log.at(m.offset())
            }
            None => (0, 0),
        };
        let at =
            Position { start: m.offset(), end: m.end_offset(), line, column };
        self.batch.push_mail(at, m, 0);
        self.sent_on();
        Ok(!self.stopped)
    }

    fn message(&mut self, msg: &mail::Message<'_>) -> io::Result<bool> {
        if let Some(log) = self.log {
            // Later matches are in this message or after it.
            log.borrow_mut().forget_before(msg.offset());
        }
        self.batch.messages += 1;
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

thread_local! {
    /// The buffer of the slices a pool thread searches for a big file
    /// found by another worker (`Driver::search_big`).
    static SLICE_BUF: RefCell<Buffer> = RefCell::default();
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
    ///
    /// A new buffer gets a quarter more than asked: mbox slices end at a
    /// separator, so their lengths differ, and a buffer replaced for a
    /// few bytes more maps (and faults in) every page again. Pages never
    /// written cost no memory.
    fn room(&mut self, len: usize) -> usize {
        let need = len.saturating_add(ALIGN);
        if self.buf.len() < need {
            let size = need.saturating_add(need / 4).next_multiple_of(ALIGN);
            if self.buf.is_empty() {
                self.buf = vec![0u8; size];
            } else {
                // Grown in place (a large block is moved by the kernel,
                // its pages kept): only the new pages fault in.
                self.buf.resize(size, 0);
            }
        }
        self.buf.as_ptr().align_offset(ALIGN).min(ALIGN)
    }

    /// Reads `rdr` to its end (the caller bounds it with `take`).
    /// `grow` is asked once, when the first 64 KiB are read and more
    /// may follow; when it says no, the read stops there.
    fn fill_from<R: Read>(
        &mut self,
        mut rdr: R,
        mut grow: impl FnMut() -> bool,
    ) -> io::Result<&[u8]> {
        const FIRST: usize = 64 * 1024;
        let mut len = 0;
        let mut base = self.room(FIRST);
        let mut asked = false;
        loop {
            if len >= FIRST && !asked {
                asked = true;
                if !grow() {
                    break;
                }
            }
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
            self.0.push(format!("end {} {:?}", d.bytes, d.messages));
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

    /// A folder walked without sizes: its big files are found big by
    /// reading and searched in slices by the worker that found them
    /// (with the pool's help); the report is the same as with sizes.
    #[test]
    fn folder_walked_without_sizes_equals_with_sizes() {
        let dir = tempfile::tempdir().unwrap();
        // Wrapped URLs whose second line holds a URL of its own: a
        // slice that starts there finds it unless it is scanned again
        // from where the wrapped one ended.
        let mut t = text();
        for i in 0..200 {
            write!(t, "<URL:http://a{i}.example/?u=\n http://b.example/>\n")
                .unwrap();
        }
        std::fs::write(dir.path().join("a-text"), t).unwrap();
        let mut mbox = Vec::new();
        for i in 0..300 {
            write!(
                mbox,
                "From a{i}@example.org Thu Aug 22 13:17:22 2002\n\
                 Message-ID: <{i}@x>\nSubject: s http://s{i}.example/\n\n\
                 body http://b{i}.example/p <URL:http://w{i}.exa\n  \
                 mple/> {}\n\n",
                "x ".repeat(i % 40)
            )
            .unwrap();
        }
        std::fs::write(dir.path().join("b-spool"), &mbox).unwrap();
        let mut enc = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        enc.write_all(&text()).unwrap();
        let sub = dir.path().join("c-sub");
        std::fs::create_dir(&sub).unwrap();
        std::fs::write(sub.join("gz"), enc.finish().unwrap()).unwrap();
        std::fs::write(sub.join("small"), "x http://small.example/\n")
            .unwrap();
        let get = |threads, slice, skip_stat, mode| {
            let mut b = Driver::builder();
            b.threads(threads).slice_size(slice).mail(mode, false);
            let d = b.build(Finder::new());
            let opts = input::WalkOptions { skip_stat, ..Default::default() };
            let inputs = input::walk(&[dir.path().to_path_buf()], opts);
            if skip_stat {
                assert!(inputs.iter().all(|i| {
                    i.as_ref().is_ok_and(|i| i.size.is_none() && i.regular)
                }));
            }
            let mut r = Record::default();
            d.run(inputs, &mut r).unwrap();
            r.0
        };
        for mode in [MailMode::Auto, MailMode::Off] {
            let want = get(1, 1 << 30, false, mode);
            assert!(want.len() > 2000, "{}", want.len());
            for slice in [64, 333, 4096, 70_000, 1 << 30] {
                for threads in [1, 3] {
                    assert_eq!(get(threads, slice, false, mode), want);
                    let got = get(threads, slice, true, mode);
                    assert_eq!(got, want, "slice {slice} threads {threads}");
                }
            }
        }
    }

    /// A file of unknown size whose stated size is less than it holds
    /// (Linux's /proc files say 0) is read to its end, not cut at it.
    #[test]
    fn pseudo_file_is_read_to_its_end() {
        let path = std::path::PathBuf::from("/proc/self/limits");
        let Ok(want) = std::fs::read(&path) else {
            eprintln!("skipped: no /proc/self/limits on this system");
            return;
        };
        assert!(want.len() > 64, "{}", want.len());
        let d =
            Driver::builder().threads(2).slice_size(16).build(Finder::new());
        let input =
            Input { source: Source::Path(path), size: None, regular: true };
        let mut r = Record::default();
        d.run([Ok(input)], &mut r).unwrap();
        assert_eq!(r.0.last(), Some(&format!("end {} None", want.len())));
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

    /// A part that says the run stopped (its output was closed) ends the
    /// search of a big file and of a stream: one part is sent, not every
    /// slice's or every 16 Ki matches'.
    #[test]
    fn a_stopped_run_stops_reading() {
        let dir = tempfile::tempdir().unwrap();
        let text = "http://a.example/x\n".repeat(100_000);
        let path = dir.path().join("big");
        std::fs::write(&path, &text).unwrap();
        let d =
            Driver::builder().threads(1).slice_size(4096).build(Finder::new());
        let input = Input {
            source: Source::Path(path.clone()),
            size: None,
            regular: true,
        };
        let mut parts = 0;
        let mut stop = |_: &Input, b: Option<Batch>| {
            parts += usize::from(b.is_some());
            b.is_none()
        };
        let file = File::open(&path).unwrap();
        let size = text.len() as u64;
        let mut buf = Buffer::default();
        d.search_big(&input, &path, file, size, &mut buf, &mut stop);
        assert_eq!(parts, 1);
        let mut parts = 0;
        let mut stop = |_: &Input, b: Option<Batch>| {
            parts += usize::from(b.is_some());
            b.is_none()
        };
        let file = File::open(&path).unwrap();
        let (batch, _) = d.search_stream(&input, file, &mut stop);
        assert_eq!(parts, 1);
        assert!(batch.bytes < size, "{}", batch.bytes);
    }

    #[test]
    fn stream_heads_are_read_until_the_sniff_is_decided() {
        let head = |text: &[u8]| {
            let mut h = Vec::new();
            // One byte a read, as a slow stream gives them.
            struct Slow<'a>(&'a [u8]);
            impl Read for Slow<'_> {
                fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                    let n = self.0.len().min(buf.len()).min(1);
                    buf[..n].copy_from_slice(&self.0[..n]);
                    self.0 = &self.0[n..];
                    Ok(n)
                }
            }
            read_head(&mut Slow(text), &mut h).unwrap();
            h.len()
        };
        let log = b"2026-11-21 15:00 started http://a.example/\nmore\n";
        assert_eq!(head(log), 43);
        let mbox = b"From a@b Mon Jan  1 00:00:00 1996\nX: y\n";
        assert_eq!(head(mbox), 34);
        let msg = b"X-A: 1\nX-B: 2\n\nbody\n";
        assert!(head(msg) <= 14, "{}", head(msg));
        let urls = b"http://a.example/\nhttp://b.example/\n";
        assert_eq!(head(urls), 18);
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
