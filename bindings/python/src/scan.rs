//! `scan` and `stats`: the library's `Driver` over files, folders and
//! compressed inputs, its `--json` records (or `--stats --json` object)
//! given to Python; the GIL is released while Python waits for them.

use crate::columns::Batch;
use crate::options::{self, FilterArgs, Search};
use crate::record;
use crate::run::{ErrorInfo, Item, Mode, Msg, Running};
use pyo3::exceptions::{
    PyFileNotFoundError, PyOSError, PyPermissionError, PyRuntimeError,
};
use pyo3::prelude::*;
use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;
use urlgrep::input::{self, Globs, WalkOptions};
use urlgrep::output::json::Record;
use urlgrep::output::stats::Period;
use urlgrep::output::{Format, PrinterOptions};
use urlgrep::Driver;

/// How long Python waits for the scan before it looks for a signal
/// (Ctrl-C): a stop within a second.
const SIGNAL_WAIT: Duration = Duration::from_millis(100);

/// What `on_error` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnError {
    /// Raise the error (`FileNotFoundError`, `PermissionError`,
    /// `OSError`) where it happens; the scan stops.
    Raise,
    /// Yield the CLI's JSON error record and go on, as the CLI does.
    Collect,
}

impl OnError {
    fn new(s: &str) -> PyResult<OnError> {
        match s {
            "raise" => Ok(OnError::Raise),
            "collect" => Ok(OnError::Collect),
            _ => Err(options::value_error(format!(
                "on_error {s:?}: expected \"raise\" or \"collect\""
            ))),
        }
    }
}

/// The exception of an input error: its class from the I/O error's
/// kind, `errno` the OS error's number and `strerror` the CLI's message
/// (`PATH: MESSAGE`, as `urlgrep: PATH: MESSAGE` on its stderr).
fn exception(e: &ErrorInfo) -> PyErr {
    let msg = e.message.clone();
    match (e.kind, e.errno) {
        (io::ErrorKind::NotFound, Some(n)) => {
            PyFileNotFoundError::new_err((n, msg))
        }
        (io::ErrorKind::NotFound, None) => PyFileNotFoundError::new_err(msg),
        (io::ErrorKind::PermissionDenied, Some(n)) => {
            PyPermissionError::new_err((n, msg))
        }
        (io::ErrorKind::PermissionDenied, None) => {
            PyPermissionError::new_err(msg)
        }
        (_, Some(n)) => PyOSError::new_err((n, msg)),
        (_, None) => PyOSError::new_err(msg),
    }
}

/// The options every scan shares, read from the keyword arguments.
struct Common {
    paths: Vec<PathBuf>,
    search: Search,
    filter: FilterArgs,
    walk: WalkOptions,
    jobs: Option<usize>,
    mail: urlgrep::MailMode,
    text: bool,
    qp_repair: bool,
    /// `--warc auto` (true) or `off`.
    warc: bool,
    /// `--tar auto` (true) or `off`.
    tar: bool,
    /// `--resolve`.
    resolve: bool,
}

impl Common {
    /// The driver, with what the output needs.
    fn driver(&self, rejects: bool) -> urlgrep::DriverBuilder {
        let mut b = Driver::builder();
        if let Some(n) = self.jobs {
            b.threads(n);
        }
        b.web_archives(self.warc)
            .archive(urlgrep::Archive::Tar, self.tar)
            .resolve(self.resolve)
            .mail_mode(self.mail)
            .qp_repair(self.qp_repair)
            .skip_binary(!self.text)
            .rejects(rejects);
        b
    }

    /// The inputs, walked as the workers go.
    fn inputs(&self) -> input::Walk {
        input::Walk::from_paths(
            self.paths.clone().into_iter(),
            self.walk.clone(),
        )
    }

    /// The printer options of `format`.
    fn printer(
        &self,
        format: Format,
        rejects: bool,
    ) -> PyResult<PrinterOptions> {
        Ok(PrinterOptions {
            format,
            with_filename: true,
            rejects,
            kinds: self.search.kind.clone(),
            schemes: self.search.scheme.clone(),
            filter: self.filter.build()?,
            stdin_label: "<stdin>".to_owned(),
            top: 10,
            ..PrinterOptions::default()
        })
    }
}

/// Reads the shared keyword arguments.
#[allow(clippy::too_many_arguments)]
fn common(
    paths: &Bound<'_, PyAny>,
    mail: &str,
    jobs: Option<usize>,
    find: Option<&Bound<'_, PyAny>>,
    scheme: Option<&Bound<'_, PyAny>>,
    kind: Option<&Bound<'_, PyAny>>,
    host: Option<&Bound<'_, PyAny>>,
    exclude_host: Option<&Bound<'_, PyAny>>,
    host_file: Option<&Bound<'_, PyAny>>,
    exclude_host_file: Option<&Bound<'_, PyAny>>,
    regexp: Option<&Bound<'_, PyAny>>,
    exclude_regexp: Option<&Bound<'_, PyAny>>,
    ignore_case: bool,
    strict: bool,
    text: bool,
    qp_repair: bool,
    follow: bool,
    max_depth: Option<usize>,
    glob: Option<&Bound<'_, PyAny>>,
    warc: bool,
    tar: bool,
    resolve: bool,
) -> PyResult<Common> {
    let search = Search::new(find, scheme, kind, strict, None, None)?;
    if search.kind.contains(&urlgrep::Kind::Resolved) && !resolve {
        return Err(options::value_error(
            "--kind resolved: found only with --resolve",
        ));
    }
    let filter = FilterArgs {
        host: options::names(host)?,
        exclude_host: options::names(exclude_host)?,
        host_file: optional_paths(host_file)?,
        exclude_host_file: optional_paths(exclude_host_file)?,
        regexp: options::names(regexp)?,
        exclude_regexp: options::names(exclude_regexp)?,
        ignore_case,
    };
    // Checked now: a bad pattern raises at the call, not at the first
    // record.
    filter.build()?;
    let globs = Globs::new(&options::names(glob)?)
        .map_err(|e| options::value_error(format!("--glob: {e}")))?;
    Ok(Common {
        paths: options::paths(paths)?,
        search,
        filter,
        walk: WalkOptions {
            follow_links: follow,
            skip_stat: true,
            max_depth,
            globs,
        },
        jobs: options::threads(jobs)?,
        mail: options::mail_mode(mail)?,
        text,
        qp_repair,
        warc,
        tar,
        resolve,
    })
}

/// Paths, none for `None`.
fn optional_paths(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<PathBuf>> {
    match obj {
        Some(o) if !o.is_none() => options::paths(o),
        _ => Ok(Vec::new()),
    }
}

/// The records of a scan, in input order: an iterator of dicts with the
/// names and values of `urlgrep --json` (`match` records; `reject`
/// records with `rejects=True`; `error` records with
/// `on_error="collect"`). The scan runs on a thread of its own, at most
/// a few batches ahead; closing the iterator (`close()`, `with`, or
/// dropping it) stops it.
#[pyclass(module = "urlgrep", name = "Scan")]
pub struct Scan {
    run: Running,
    ready: VecDeque<Item>,
    on_error: OnError,
    done: bool,
    /// Columns mode (`scan_arrow`): the rows come built, as Arrow
    /// columns, from the scan's thread.
    columns: bool,
}

impl Scan {
    /// Waits for the next message with the GIL released, looking for
    /// Ctrl-C every [`SIGNAL_WAIT`]; `None` when the channel closed.
    fn wait(&mut self, py: Python<'_>) -> PyResult<Option<Msg>> {
        loop {
            let Some(rx) = self.run.take_rx() else { return Ok(None) };
            let (rx, got) = py.detach(move || {
                let got = rx.recv_timeout(SIGNAL_WAIT);
                (rx, got)
            });
            self.run.put_rx(rx);
            match got {
                Ok(msg) => return Ok(Some(msg)),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        self.close(py);
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Ok(None),
            }
        }
    }

    /// The next item, or `None` at the end; the run's own failure
    /// raised.
    fn next_item(&mut self, py: Python<'_>) -> PyResult<Option<Item>> {
        loop {
            if let Some(item) = self.ready.pop_front() {
                return Ok(Some(item));
            }
            if self.done {
                return Ok(None);
            }
            match self.wait(py)? {
                Some(Msg::Items(items)) => self.ready.extend(items),
                Some(Msg::Done(Ok(_))) => {
                    self.done = true;
                    self.close(py);
                }
                Some(Msg::Done(Err(e))) => {
                    self.done = true;
                    self.close(py);
                    return Err(PyOSError::new_err(e));
                }
                None => {
                    self.done = true;
                    let panicked = self.run.panicked();
                    self.close(py);
                    if panicked {
                        return Err(PyRuntimeError::new_err(
                            "urlgrep: the scan thread panicked",
                        ));
                    }
                }
            }
        }
    }
}

impl Scan {
    /// The next item, its error raised under `on_error="raise"`.
    fn next_checked(&mut self, py: Python<'_>) -> PyResult<Option<Item>> {
        let Some(item) = self.next_item(py)? else { return Ok(None) };
        if let Some(e) = &item.error {
            if self.on_error == OnError::Raise {
                let err = exception(e);
                self.done = true;
                self.ready.clear();
                self.close(py);
                return Err(err);
            }
        }
        Ok(Some(item))
    }

    /// The next record (an error raised under `on_error="raise"`).
    fn next_record(
        &mut self,
        py: Python<'_>,
    ) -> PyResult<Option<Record<'static>>> {
        while let Some(item) = self.next_checked(py)? {
            if let Some(r) = item.record {
                return Ok(Some(r));
            }
        }
        Ok(None)
    }
}

#[pymethods]
impl Scan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        while let Some(r) = self.next_record(py)? {
            if let Some(d) = record::to_py(py, &r)? {
                return Ok(Some(d.into_any().unbind()));
            }
        }
        Ok(None)
    }

    /// The next match records as Arrow columns, for `scan_arrow`: a
    /// `_Batch` (src/columns.rs), whose `columns()` gives for each
    /// column of `_arrow_columns()` `(length, null_count, validity,
    /// buffers)`, of at most `_arrow_rows` rows, as the scan's thread
    /// built them (`rows` is not looked at). Records of other types are
    /// left out; errors are handled as by iteration. `None` at the end.
    /// A scan started without `_arrow_rows` has no columns:
    /// `RuntimeError`.
    #[pyo3(name = "_next_columns")]
    fn next_columns(
        &mut self,
        py: Python<'_>,
        rows: usize,
    ) -> PyResult<Option<Batch>> {
        let _ = rows;
        if !self.columns {
            return Err(PyRuntimeError::new_err(
                "urlgrep: _next_columns: the scan was not started with \
                 _arrow_rows",
            ));
        }
        while let Some(item) = self.next_checked(py)? {
            if let Some(batch) = item.columns.filter(|b| b.rows() > 0) {
                return Ok(Some(*batch));
            }
        }
        Ok(None)
    }

    /// Stops the scan and waits for its thread to end; the iterator then
    /// gives nothing more. Called by `with` and when it is dropped.
    fn close(&mut self, py: Python<'_>) {
        self.done = true;
        self.ready.clear();
        let run = &mut self.run;
        run.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        run.take_rx();
        // The thread needs no GIL; other Python threads run meanwhile.
        let mut taken = std::mem::replace(run, Running::closed());
        py.detach(move || taken.close());
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&mut self, py: Python<'_>, _args: &Bound<'_, PyAny>) -> bool {
        self.close(py);
        false
    }
}

/// Scans files, folders (walked) and compressed inputs, in parallel,
/// and yields one dict per record, with the fields and names of
/// `urlgrep --json`: see the README's Python section.
#[pyfunction]
#[pyo3(signature = (paths, *, mail="auto", jobs=None, find=None, scheme=None,
    kind=None, host=None, exclude_host=None, host_file=None,
    exclude_host_file=None, regexp=None, exclude_regexp=None,
    ignore_case=false, rejects=false, metadata=false, html_context=false,
    header=None, strict=false, redact=false, unique=false, max_count=None,
    keep_defanged=false, text=false, qp_repair=false, follow=false,
    max_depth=None, glob=None, warc=true, tar=true, resolve=false, on_error="raise",
    _arrow_rows=None))]
#[allow(clippy::too_many_arguments)]
pub fn scan(
    paths: &Bound<'_, PyAny>,
    mail: &str,
    jobs: Option<usize>,
    find: Option<&Bound<'_, PyAny>>,
    scheme: Option<&Bound<'_, PyAny>>,
    kind: Option<&Bound<'_, PyAny>>,
    host: Option<&Bound<'_, PyAny>>,
    exclude_host: Option<&Bound<'_, PyAny>>,
    host_file: Option<&Bound<'_, PyAny>>,
    exclude_host_file: Option<&Bound<'_, PyAny>>,
    regexp: Option<&Bound<'_, PyAny>>,
    exclude_regexp: Option<&Bound<'_, PyAny>>,
    ignore_case: bool,
    rejects: bool,
    metadata: bool,
    html_context: bool,
    header: Option<&Bound<'_, PyAny>>,
    strict: bool,
    redact: bool,
    unique: bool,
    max_count: Option<u64>,
    keep_defanged: bool,
    text: bool,
    qp_repair: bool,
    follow: bool,
    max_depth: Option<usize>,
    glob: Option<&Bound<'_, PyAny>>,
    warc: bool,
    tar: bool,
    resolve: bool,
    on_error: &str,
    _arrow_rows: Option<usize>,
) -> PyResult<Scan> {
    let on_error = OnError::new(on_error)?;
    let c = common(
        paths,
        mail,
        jobs,
        find,
        scheme,
        kind,
        host,
        exclude_host,
        host_file,
        exclude_host_file,
        regexp,
        exclude_regexp,
        ignore_case,
        strict,
        text,
        qp_repair,
        follow,
        max_depth,
        glob,
        warc,
        tar,
        resolve,
    )?;
    let header = options::names(header)?;
    options::headers(&header)?;
    if keep_defanged && !c.search.finds()?.contains(urlgrep::Finds::DEFANGED) {
        return Err(options::value_error(
            "--keep-defanged has no effect without --find defanged (or all)",
        ));
    }
    let finder = c.search.finder(true)?;
    let mut driver = c.driver(rejects);
    driver
        .metadata(metadata || !header.is_empty())
        .header_fields(&header)
        .html_context(html_context);
    let driver = driver.build(finder);
    let opts = PrinterOptions {
        redact,
        unique,
        max_count,
        keep_defanged,
        ..c.printer(Format::Json, rejects)?
    };
    // `_arrow_rows` (scan_arrow's batch size): the rows built on the
    // scan's thread, from borrowed records.
    let mode = _arrow_rows.map_or(Mode::Records, Mode::Columns);
    let run = Running::start(driver, c.inputs(), opts, mode)
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    Ok(Scan {
        run,
        ready: VecDeque::new(),
        on_error,
        done: false,
        columns: mode != Mode::Records,
    })
}

/// The statistics of a scan as a dict, the numbers of `urlgrep --stats
/// --json` (the same arguments as `scan`, and `top`, `exact_stats`,
/// `by`: `"year"`, `"month"` or `"day"`). `partial=True` gives instead
/// the additive partial counters of `--stats-tsv` as bytes (summed by
/// `urlgrep merge`, or by Spark). An input that cannot be read raises
/// (`on_error="raise"`) or is counted under `errors`
/// (`on_error="collect"`).
#[pyfunction]
#[pyo3(signature = (paths, *, mail="auto", jobs=None, find=None, scheme=None,
    kind=None, host=None, exclude_host=None, host_file=None,
    exclude_host_file=None, regexp=None, exclude_regexp=None,
    ignore_case=false, strict=false, text=false, qp_repair=false,
    follow=false, max_depth=None, glob=None, rejects=false, top=10,
    exact_stats=false, by=None, partial=false, warc=true, tar=true, resolve=false,
    on_error="raise"))]
#[allow(clippy::too_many_arguments)]
pub fn stats(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    mail: &str,
    jobs: Option<usize>,
    find: Option<&Bound<'_, PyAny>>,
    scheme: Option<&Bound<'_, PyAny>>,
    kind: Option<&Bound<'_, PyAny>>,
    host: Option<&Bound<'_, PyAny>>,
    exclude_host: Option<&Bound<'_, PyAny>>,
    host_file: Option<&Bound<'_, PyAny>>,
    exclude_host_file: Option<&Bound<'_, PyAny>>,
    regexp: Option<&Bound<'_, PyAny>>,
    exclude_regexp: Option<&Bound<'_, PyAny>>,
    ignore_case: bool,
    strict: bool,
    text: bool,
    qp_repair: bool,
    follow: bool,
    max_depth: Option<usize>,
    glob: Option<&Bound<'_, PyAny>>,
    rejects: bool,
    top: usize,
    exact_stats: bool,
    by: Option<&str>,
    partial: bool,
    warc: bool,
    tar: bool,
    resolve: bool,
    on_error: &str,
) -> PyResult<Py<PyAny>> {
    let on_error = OnError::new(on_error)?;
    let c = common(
        paths,
        mail,
        jobs,
        find,
        scheme,
        kind,
        host,
        exclude_host,
        host_file,
        exclude_host_file,
        regexp,
        exclude_regexp,
        ignore_case,
        strict,
        text,
        qp_repair,
        follow,
        max_depth,
        glob,
        warc,
        tar,
        resolve,
    )?;
    let by = match by.map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("year") => Some(Period::Year),
        Some("month") => Some(Period::Month),
        Some("day") => Some(Period::Day),
        Some(other) => {
            return Err(options::value_error(format!(
                "--by {other:?}: expected year, month or day"
            )))
        }
    };
    let finder = c.search.finder(false)?;
    // The mail search hands its rejects over, as `--stats` has it: each
    // is counted by its reason.
    let mut driver = c.driver(true);
    // --by reads each message's date.
    let driver = driver.metadata(by.is_some()).build(finder);
    let format = if partial { Format::StatsTsv } else { Format::StatsJson };
    let opts =
        PrinterOptions { top, exact_stats, by, ..c.printer(format, rejects)? };
    let run = Running::start(driver, c.inputs(), opts, Mode::Whole)
        .map_err(|e| PyOSError::new_err(e.to_string()))?;
    let mut scan = Scan {
        run,
        ready: VecDeque::new(),
        on_error,
        done: false,
        columns: false,
    };
    let mut output = None;
    loop {
        if let Some(item) = scan.ready.pop_front() {
            if let (Some(e), OnError::Raise) = (&item.error, on_error) {
                scan.close(py);
                return Err(exception(e));
            }
            continue;
        }
        match scan.wait(py)? {
            Some(Msg::Items(items)) => scan.ready.extend(items),
            Some(Msg::Done(Ok(out))) => output = Some(out),
            Some(Msg::Done(Err(e))) => return Err(PyOSError::new_err(e)),
            None => break,
        }
    }
    if scan.run.panicked() {
        return Err(PyRuntimeError::new_err(
            "urlgrep: the scan thread panicked",
        ));
    }
    let out = output.unwrap_or_default();
    if partial {
        return Ok(pyo3::types::PyBytes::new(py, &out).into_any().unbind());
    }
    let v: serde_json::Value = serde_json::from_slice(&out).map_err(|e| {
        PyRuntimeError::new_err(format!("urlgrep: stats: {e}"))
    })?;
    Ok(record::json_to_py(py, &v)?.unbind())
}
