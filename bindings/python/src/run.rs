//! A run of the library's `Driver` on a thread of its own, its records
//! passed to Python through a bounded channel.
//!
//! In record mode the printer is in `Format::Records`: its record
//! sender puts each `match`, `reject` and `error` record, owned, into
//! the batch, and the batches go through the channel; in columns mode
//! (`scan_arrow`) it is in `Format::RecordRefs`: each `match` record,
//! borrowed, is copied into the Arrow columns of the batch being built
//! ([`Columns`]), on the scan's side, and the finished columns go
//! through the channel, to become pyarrow's buffers as they are (no
//! owned record, no Python work per row, no second copy); in whole mode
//! (the statistics) the printer writes into [`Out`], kept and sent when
//! the run ends. The report in front of the printer ([`Relay`]) stops
//! the run once the consumer is gone: it says `Wants::Nothing` when the
//! stop flag is set, and a send to a dropped receiver fails the run
//! (`BrokenPipe`).

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use urlgrep::input::{Input, InputError};
use urlgrep::output::json::Record;
use urlgrep::output::{
    Format, Printer, PrinterOptions, RecordSender, RecordVisitor,
};
use urlgrep::{Driver, Hit, InputDone, Report, Wants};

use crate::columns::{Batch, Columns, Room};

/// Records in a batch before it is sent.
const BATCH: usize = 512;

/// The longest a record waits in a batch (looked at after each part of
/// an input the driver reports: `When::FullOrOld`).
const BATCH_WAIT: Duration = Duration::from_millis(100);

/// Batches in flight: the scan runs at most this far ahead of Python.
const IN_FLIGHT: usize = 4;

/// How long closing waits for the scan's thread to end.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// An input that could not be read, as the CLI reports it.
#[derive(Clone, Debug)]
pub struct ErrorInfo {
    /// The I/O error's kind (for the exception's class).
    pub kind: io::ErrorKind,
    /// The OS error number, if any.
    pub errno: Option<i32>,
    /// The CLI's message without its `urlgrep: ` prefix:
    /// `PATH: MESSAGE`.
    pub message: String,
}

/// One thing the run gives: a record, an error, or both (an error
/// record in record mode); in columns mode, a batch of rows.
#[derive(Debug)]
pub struct Item {
    /// The `match`, `reject` or `error` record.
    pub record: Option<Record<'static>>,
    /// The error, for an error record.
    pub error: Option<ErrorInfo>,
    /// Columns mode: the rows of the match records before this item's
    /// error (if any), a finished batch of Arrow columns (boxed: it
    /// holds its columns inline, some 3 KiB, and record mode makes an
    /// item per record).
    pub columns: Option<Box<Batch>>,
}

// An item of record mode stays small: with the columns inline, each of
// `scan`'s records moved 3 KiB more, and `scan` took 1.7x its time.
const _: () = assert!(std::mem::size_of::<Item>() <= 512);

impl Item {
    fn record(record: Record<'static>) -> Item {
        Item { record: Some(record), error: None, columns: None }
    }
}

/// What a run gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The whole output, when the run ends (the statistics).
    Whole,
    /// The records, owned, in batches (`scan`).
    Records,
    /// The match records as Arrow columns, in batches of at most this
    /// many rows (`scan_arrow`); errors as items.
    Columns(usize),
}

/// What the channel carries.
#[derive(Debug)]
pub enum Msg {
    /// Items, in order.
    Items(Vec<Item>),
    /// The run ended: the whole output (whole mode), or the error that
    /// ended it.
    Done(Result<Vec<u8>, String>),
}

/// What the printer gave.
#[derive(Default)]
struct State {
    /// What it wrote (whole mode; nothing in record mode).
    output: Vec<u8>,
    /// Items not yet sent.
    batch: Vec<Item>,
    /// Whole mode: the output is kept, no records are made.
    whole: bool,
    /// Columns mode: the rows not yet sent (`None` before the first).
    columns: Option<Columns>,
    /// Columns mode: the most rows in a batch.
    rows: usize,
    /// Columns mode: when the first row of `columns` came.
    first: Option<Instant>,
    /// Columns mode: what each column of the last batch sent took (the
    /// next one's room).
    room: Vec<Room>,
}

impl State {
    /// Columns mode: whether the rows should go now (the batch is full,
    /// or, when `old` says to look at the clock, its first row waited
    /// [`BATCH_WAIT`]).
    fn columns_due(&self, old: bool) -> bool {
        match &self.columns {
            Some(c) => {
                c.rows() >= self.rows
                    || c.full()
                    || (old
                        && self
                            .first
                            .is_some_and(|t| t.elapsed() >= BATCH_WAIT))
            }
            None => false,
        }
    }
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The printer's output.
struct Out(Arc<Mutex<State>>);

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        lock(&self.0).output.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The record sender of record mode: the records `scan` yields go into
/// the batch, the others (`begin`, `end`, `summary`) nowhere.
fn sender(state: Arc<Mutex<State>>) -> RecordSender {
    RecordSender::new(move |rec| {
        if matches!(
            rec,
            Record::Match(_) | Record::Reject(_) | Record::Error(_)
        ) {
            lock(&state).batch.push(Item::record(rec));
        }
        Ok(())
    })
}

/// The record visitor of columns mode: each `match` record's row goes
/// into the columns being built, the other records nowhere (errors come
/// as items, from [`Relay`]).
/// `due` is set once the columns are full (the relay sends them then).
fn visitor(state: Arc<Mutex<State>>, due: Arc<AtomicBool>) -> RecordVisitor {
    RecordVisitor::new(|_| Ok(())).with_matches(move |m| {
        let mut guard = lock(&state);
        let st = &mut *guard;
        let cols = st.columns.get_or_insert_with(|| {
            st.first = Some(Instant::now());
            Columns::new(st.rows.min(1 << 16), &st.room)
        });
        cols.push(m);
        if cols.rows() >= st.rows || cols.full() {
            due.store(true, Ordering::Relaxed);
        }
        Ok(())
    })
}

/// The printer's message output (the CLI's stderr): kept for the
/// message of the next error.
#[derive(Clone, Default)]
struct Messages(Arc<Mutex<Vec<u8>>>);

impl Messages {
    fn take(&self) -> Vec<u8> {
        std::mem::take(
            &mut *self.0.lock().unwrap_or_else(PoisonError::into_inner),
        )
    }
}

impl Write for Messages {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut v = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        v.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// When [`Relay::send`] sends the batch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum When {
    /// When it is full: looked at after each hit, without the clock (a
    /// clock read per URL was 2% of `scan_arrow`'s time).
    Full,
    /// When it is full or old (its first item or row waited
    /// [`BATCH_WAIT`]): looked at after each part of an input the
    /// driver reports, and at an input's end.
    FullOrOld,
    /// Now (an error, the run's end).
    Now,
}

/// The report in front of the printer.
struct Relay {
    printer: Printer<Out, Messages>,
    state: Arc<Mutex<State>>,
    messages: Messages,
    tx: SyncSender<Msg>,
    stop: Arc<AtomicBool>,
    sent: Instant,
    /// A send of [`Report::progress`] that failed (the consumer is
    /// gone), returned by the next call that can.
    failed: Option<io::Error>,
    /// Columns mode: set by the visitor once the columns are full
    /// (nothing else makes a batch due at a hit: records are not
    /// batched, errors go at once), so that a hit looks at this flag
    /// rather than locking the state.
    due: Option<Arc<AtomicBool>>,
}

impl Relay {
    /// Sends the batch when `when` says; in columns mode the rows
    /// before it first, as an item of their own.
    fn send(&mut self, when: When) -> io::Result<()> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        let (force, old) = (when == When::Now, when != When::Full);
        let batch = {
            let mut st = lock(&self.state);
            let due = st.batch.len() >= BATCH
                || (old
                    && !st.batch.is_empty()
                    && self.sent.elapsed() >= BATCH_WAIT);
            let items = (force || due) && !st.batch.is_empty();
            let columns = match st.columns.is_some()
                && (force || items || st.columns_due(old))
            {
                true => st.columns.take(),
                false => None,
            };
            if !items && columns.is_none() {
                return Ok(());
            }
            let mut batch = Vec::with_capacity(st.batch.len() + 1);
            if let Some(c) = columns {
                st.first = None;
                st.room = c.room();
                // Finished here, on the worker that reports (its
                // buffers sealed, those Python is not given freed), so
                // that Python only wraps it.
                batch.push(Item {
                    record: None,
                    error: None,
                    columns: Some(Box::new(Batch::new(c))),
                });
            }
            if items {
                batch.append(&mut st.batch);
            }
            batch
        };
        self.sent = Instant::now();
        self.tx.send(Msg::Items(batch)).map_err(|_| gone())
    }
}

/// The error that ends a run whose consumer is gone.
fn gone() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the consumer stopped")
}

impl Report for Relay {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.printer.begin(input)
    }

    fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()> {
        self.printer.hit(input, hit)?;
        match &self.due {
            Some(due) if !due.swap(false, Ordering::Relaxed) => Ok(()),
            _ => self.send(When::Full),
        }
    }

    fn error(&mut self, err: &InputError) -> io::Result<()> {
        self.messages.take();
        self.printer.error(err)?;
        let text = String::from_utf8_lossy(&self.messages.take()).into_owned();
        let text = text.strip_prefix("urlgrep: ").unwrap_or(&text);
        let info = ErrorInfo {
            kind: err.error.kind(),
            errno: err.error.raw_os_error(),
            message: text.trim_end_matches('\n').to_owned(),
        };
        {
            let mut st = lock(&self.state);
            let whole = st.whole;
            // Record mode: the printer's last record is this error's.
            match st.batch.last_mut() {
                Some(last)
                    if !whole && is_error(last) && last.error.is_none() =>
                {
                    last.error = Some(info);
                }
                _ => st.batch.push(Item {
                    record: None,
                    error: Some(info),
                    columns: None,
                }),
            }
        }
        self.send(When::Now)
    }

    fn warning(
        &mut self,
        input: &Input,
        offset: u64,
        what: &str,
    ) -> io::Result<()> {
        self.printer.warning(input, offset, what)?;
        // The CLI's stderr line; a Python program sees no warnings.
        self.messages.take();
        Ok(())
    }

    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()> {
        self.printer.end(input, done)?;
        self.send(When::FullOrOld)
    }

    fn progress(&mut self, bytes: u64) {
        self.printer.progress(bytes);
        if self.failed.is_none() {
            self.failed = self.send(When::FullOrOld).err();
        }
    }

    fn wants(&self) -> Wants {
        if self.stop.load(Ordering::Relaxed) {
            return Wants::Nothing;
        }
        self.printer.wants()
    }

    fn may_stop(&self) -> bool {
        // The consumer may stop at any time: the stream parts stay small
        // while it is being reported.
        true
    }

    // The printer's hints, passed on (as a report that wraps another
    // must): what it only counts, the driver counts without storing; the
    // statistics fold on the workers.
    urlgrep::pass_on_hints!(printer);
}

fn is_error(item: &Item) -> bool {
    matches!(item.record, Some(Record::Error(_)))
}

/// A run in progress: its items come through `rx`.
pub struct Running {
    /// The items, `None` once closed (in a mutex: a Python object is
    /// shared between threads).
    rx: Mutex<Option<Receiver<Msg>>>,
    /// Set to stop the run.
    pub stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Running {
    /// Starts `driver` over `inputs`, printing with `opts` (whole mode:
    /// the output is sent whole when the run ends; record mode: `opts`'
    /// format is made `Format::Records`, its records sent in batches;
    /// columns mode: `Format::RecordRefs`, its match records' rows sent
    /// as Arrow columns).
    pub fn start<I>(
        driver: Driver,
        inputs: I,
        mut opts: PrinterOptions,
        mode: Mode,
    ) -> io::Result<Running>
    where
        I: IntoIterator<Item = Result<Input, InputError>> + Send + 'static,
        I::IntoIter: Send,
    {
        let (tx, rx) = sync_channel(IN_FLIGHT);
        let stop = Arc::new(AtomicBool::new(false));
        let state = Arc::new(Mutex::new(State {
            whole: mode == Mode::Whole,
            ..State::default()
        }));
        let messages = Messages::default();
        let mut due = None;
        match mode {
            Mode::Whole => {}
            Mode::Records => {
                opts.format = Format::Records;
                opts.records = Some(sender(state.clone()));
            }
            Mode::Columns(rows) => {
                lock(&state).rows = rows.max(1);
                opts.format = Format::RecordRefs;
                let flag = Arc::new(AtomicBool::new(false));
                opts.record_refs = Some(visitor(state.clone(), flag.clone()));
                due = Some(flag);
            }
        }
        let printer = Printer::new(opts, Out(state.clone()), messages.clone());
        let mut relay = Relay {
            printer,
            state: state.clone(),
            messages,
            tx,
            stop: stop.clone(),
            sent: Instant::now(),
            failed: None,
            due,
        };
        let thread = std::thread::Builder::new()
            .name("urlgrep-scan".into())
            .spawn(move || {
            let started = Instant::now();
            let result = driver.run(inputs, &mut relay).and_then(|()| {
                relay.printer.finish(started.elapsed())?;
                relay.send(When::Now)
            });
            let done = match result {
                Ok(()) => {
                    let mut st = lock(&relay.state);
                    Ok(std::mem::take(&mut st.output))
                }
                Err(e) => Err(e.to_string()),
            };
            // The consumer may be gone: nothing to tell then.
            let _ = relay.tx.send(Msg::Done(done));
        })?;
        Ok(Running { rx: Mutex::new(Some(rx)), stop, thread: Some(thread) })
    }

    /// The receiver, taken out (to wait on it without the GIL).
    pub fn take_rx(&mut self) -> Option<Receiver<Msg>> {
        self.rx.get_mut().unwrap_or_else(PoisonError::into_inner).take()
    }

    /// Puts the receiver back.
    pub fn put_rx(&mut self, rx: Receiver<Msg>) {
        *self.rx.get_mut().unwrap_or_else(PoisonError::into_inner) = Some(rx);
    }

    /// A run already over (what a closed scan holds).
    pub fn closed() -> Running {
        Running {
            rx: Mutex::new(None),
            stop: Arc::new(AtomicBool::new(true)),
            thread: None,
        }
    }

    /// Stops the run and waits for its thread: the receiver is dropped
    /// (a blocked send fails) and the report wants nothing more.
    ///
    /// A thread blocked in a read that does not end (a FIFO without a
    /// writer's data) is waited for [`CLOSE_WAIT`], then left to end by
    /// itself: closing never hangs.
    pub fn close(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.take_rx();
        if let Some(t) = self.thread.take() {
            let deadline = Instant::now() + CLOSE_WAIT;
            while !t.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            if t.is_finished() {
                let _ = t.join();
            }
        }
    }

    /// Whether the thread panicked (after the channel closed): joins it.
    pub fn panicked(&mut self) -> bool {
        match self.thread.take() {
            Some(t) => t.join().is_err(),
            None => false,
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.close();
    }
}
