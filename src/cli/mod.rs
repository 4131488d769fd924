//! Command-line front end: arguments, wiring, progress, exit codes.

mod args;
mod filters;
mod generate;
mod out;

use anyhow::{bail, Context};
use args::{Args, By, Mail, MergeArgs};
use clap::Parser;
use std::ffi::OsString;
use std::io::{self, BufReader, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use urlgrep::input::{self, Input, InputError, WalkOptions};
use urlgrep::output::stats::{Counts, Period, Summary};
use urlgrep::output::{escape, Format, Printer, PrinterOptions};
use urlgrep::{Driver, Finder, Hit, InputDone, Kind, MailMode, Report};

/// Runs urlgrep; returns the exit status (0 found, 1 none, 2 error).
pub fn run() -> i32 {
    let argv: Vec<OsString> = std::env::args_os().collect();
    let result = if argv.get(1).is_some_and(|a| a == "merge") {
        let rest = argv.iter().skip(2).cloned();
        let name = OsString::from("urlgrep merge");
        MergeArgs::try_parse_from(std::iter::once(name).chain(rest))
            .map_err(clap_exit)
            .and_then(merge)
    } else {
        Args::try_parse_from(argv).map_err(clap_exit).and_then(search)
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            // Messages quote paths and values: escaped like the output.
            // (`eprintln!` would panic on a full stderr.)
            let msg = format!("{e:#}");
            let _ =
                writeln!(io::stderr(), "urlgrep: {}", escape::text_str(&msg));
            2
        }
    }
}

/// `--help` and `--version` are written here, so that a write error
/// exits 2 with a message (clap ignores it and exits 0); any other
/// argument error exits as clap decides (a usage message, status 2).
fn clap_exit(e: clap::Error) -> anyhow::Error {
    use clap::error::ErrorKind;
    if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
    {
        e.exit()
    }
    let text = if io::stdout().is_terminal() {
        e.render().ansi().to_string()
    } else {
        e.render().to_string()
    };
    match out::print(&text) {
        Ok(()) => std::process::exit(0),
        Err(err) => err.into(),
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>().is_some_and(|j| {
                j.io_error_kind() == Some(io::ErrorKind::BrokenPipe)
            })
    })
}

/// The search command.
fn search(mut args: Args) -> anyhow::Result<i32> {
    if let Some(kind) = args.generate {
        // Through the checked stdout: a full, read-only or closed one
        // is a write error here too.
        let mut out = io::BufWriter::new(out::stdout()?);
        generate::generate(kind, &mut out)?;
        out.flush()?;
        return Ok(0);
    }
    let started = Instant::now();
    let mut kinds = Vec::new();
    for k in &args.kind {
        match Kind::from_name(&k.to_ascii_lowercase()) {
            Some(kind) => kinds.push(kind),
            None => bail!(
                "--kind {k:?}: expected one of wrapped, angle, quoted, bare, \
                 email, www, domain, network-path"
            ),
        }
    }
    check(&args)?;
    let mut finds = urlgrep::Finds::NONE;
    for f in &args.find {
        match urlgrep::Finds::from_name(&f.to_ascii_lowercase()) {
            Some(more) => finds = finds.union(more),
            None => bail!(
                "--find {f:?}: expected email, www, domain, network-path, \
                 unregistered, defanged or all"
            ),
        }
    }
    if args.keep_defanged && !finds.contains(urlgrep::Finds::DEFANGED) {
        bail!(
            "--keep-defanged has no effect without --find defanged (or all)"
        );
    }
    let mut paths = std::mem::take(&mut args.paths);
    if let Some(list) = &args.files_from {
        paths.extend(read_path_list(list)?);
    }
    let named_several = paths.len() > 1 || args.files_from.is_some();
    if paths.is_empty() && args.files_from.is_none() {
        // As grep: no path, stdin. On a terminal, say so rather than
        // wait in silence (ripgrep would search `.`; a URL search of a
        // home folder by accident is costly).
        if io::stdin().is_terminal() {
            eprintln!(
                "urlgrep: reading standard input (end it with Ctrl-D; \
                 'urlgrep --help' for usage)"
            );
        }
        paths.push(PathBuf::from("-"));
    }
    // Names are shown for several inputs or a folder (as grep -r does);
    // whether an input is a folder is asked only when that decides it:
    // a stat per named file cost a fifth of the system time of a search
    // of 18,846 files named on the command line.
    let with_filename = !args.no_filename
        && (args.with_filename
            || named_several
            || paths.iter().any(|p| p.is_dir()));
    let show_progress = !args.no_progress
        && io::stderr().is_terminal()
        && std::env::var_os("CI").is_none();
    // The progress bar needs every file's size; without it the search
    // learns a size by reading the file.
    let globs = input::Globs::new(&args.globs).context("--glob")?;
    let walk = WalkOptions {
        follow_links: args.follow,
        skip_stat: !show_progress,
        max_depth: args.max_depth,
        globs,
    };
    let stdin_taken = args.files_from.as_deref() == Some("-".as_ref())
        || paths.iter().any(|p| p.as_os_str() == "-");
    let filter = filters::build(&args, stdin_taken)?;
    let inputs = input::Walk::new(paths, walk);
    let format = match (args.stats, args.stats_tsv, args.json, args.count) {
        _ if args.files_with_matches => Format::FilesWithMatches,
        _ if args.files_without_match => Format::FilesWithoutMatch,
        (_, true, _, _) => Format::StatsTsv,
        (true, _, true, _) => Format::StatsJson,
        (true, _, false, _) => Format::Stats,
        (false, _, true, _) => Format::Json,
        (false, _, false, true) => Format::Count,
        _ => Format::Plain,
    };
    let opts = PrinterOptions {
        format,
        with_filename,
        line_number: args.line_number,
        byte_offset: args.byte_offset,
        unique: args.unique,
        rejects: args.rejects,
        redact: args.redact,
        kinds,
        schemes: args.scheme.iter().map(|s| s.to_ascii_lowercase()).collect(),
        filter,
        stdin_label: args.source.clone(),
        top: args.top,
        line_buffered: args.line_buffered || io::stdout().is_terminal(),
        keep_defanged: args.keep_defanged,
        exact_stats: args.exact_stats,
        null: args.null,
        max_count: args.max_count,
        by: args.by.map(|b| match b {
            By::Year => Period::Year,
            By::Month => Period::Month,
            By::Day => Period::Day,
        }),
    };
    if opts.by.is_some()
        && !matches!(
            format,
            Format::Stats | Format::StatsJson | Format::StatsTsv
        )
    {
        bail!("--by groups statistics: use it with --stats or --stats-tsv");
    }
    let lines = args.line_number || format == Format::Json;
    let finder = Finder::builder()
        .max_wrapper_len(args.max_wrapper_len)
        .max_url_len(args.max_url_len)
        .strict(args.strict)
        .find(finds)
        .line_numbers(lines)
        .build();
    let mut driver = Driver::builder();
    if let Some(n) = args.threads {
        driver.threads(n);
    }
    if let Some(s) = args.slice_size {
        driver.slice_size(s);
    }
    let mode = match args.mail {
        Mail::On => MailMode::On,
        // A mail search reports no rejects.
        Mail::Auto if args.rejects => MailMode::Off,
        Mail::Auto => MailMode::Auto,
        Mail::Off => MailMode::Off,
    };
    driver.mail_mode(mode).qp_repair(args.qp_repair).skip_binary(!args.text);
    // Message metadata is read only when an output shows it.
    driver
        .metadata(
            format == Format::Json
                || !args.header.is_empty()
                || opts.by.is_some(),
        )
        .header_fields(&args.header)
        // The HTML context costs a tokenizer pass: only when asked.
        .html_context(format == Format::Json && args.html_context);
    let driver = driver.build(finder);

    // The progress bar needs the total, so on a terminal the walk is done
    // first; otherwise the workers walk as they go.
    type Inputs = Box<dyn Iterator<Item = Result<Input, InputError>> + Send>;
    let (inputs, total): (Inputs, Option<u64>) = if show_progress {
        let list: Vec<_> = inputs.collect();
        // Stdin, a pipe or a device has no size: a byte counter then.
        let total = list
            .iter()
            .filter_map(|i| i.as_ref().ok())
            .map(|i| i.size)
            .sum::<Option<u64>>();
        (Box::new(list.into_iter()), total)
    } else {
        (Box::new(inputs), None)
    };
    let out = io::BufWriter::with_capacity(64 * 1024, out::stdout()?);
    let printer = Printer::new(opts, out, io::stderr());
    let mut report = Progress {
        printer,
        bar: None,
        enabled: show_progress,
        total,
        done: 0,
        started,
    };
    driver.run(inputs, &mut report)?;
    if let Some(bar) = report.bar.take() {
        bar.finish_and_clear();
    }
    let mut printer = report.printer;
    printer.finish(started.elapsed())?;
    Ok(if printer.errors() > 0 {
        2
    } else if printer.found() {
        0
    } else {
        1
    })
}

/// The most worker threads `-j` takes: past this, threads only cost
/// memory (`-j 100000` once started 15,800 threads and took 480 MB).
const MAX_THREADS: usize = 1024;

/// Refuses what would otherwise be a silent no-op: a scheme urlgrep
/// never finds, a length cap of 0, a thread count of 0 or past
/// [`MAX_THREADS`].
fn check(args: &Args) -> anyhow::Result<()> {
    let wrapped_only = !args.kind.is_empty()
        && args.kind.iter().all(|k| k.eq_ignore_ascii_case("wrapped"));
    for s in &args.scheme {
        let name = s.as_bytes();
        if !urlgrep::parse::is_scheme_syntax(name) {
            bail!(
                "--scheme {s:?}: not a scheme name (RFC 3986 section 3.1: \
                 a letter, then letters, digits, '+', '-' or '.')"
            );
        }
        // RFC 1738 section 2.1: any scheme may stand in a <URL:...>
        // wrapper; outside one, an unregistered scheme is found only
        // before `//`, in <...> or with --find unregistered
        // (`gemini://host/`). Most such names are typos of a registered
        // one: said on stderr, and the run goes on.
        if !urlgrep::parse::is_registered(name) && !wrapped_only {
            eprintln!(
                "urlgrep: warning: --scheme {s:?} is not a registered \
                 scheme: it is found in <URL:...>, as <{s}://host...>, and \
                 as {s}://host... with --find unregistered; the registered \
                 ones: {}",
                urlgrep::parse::REGISTERED.join(", ")
            );
        }
    }
    if args.max_url_len == 0 {
        bail!("--max-url-len 0: no URL would be found; use 1 or more");
    }
    if args.max_wrapper_len == 0 {
        bail!("--max-wrapper-len 0: no wrapper would be found; use 1 or more");
    }
    if let Some(n) = args.threads {
        if n == 0 || n > MAX_THREADS {
            bail!("-j {n}: use 1 to {MAX_THREADS} threads");
        }
    }
    Ok(())
}

/// Reads a `--files-from` list: NUL-separated names when the list holds
/// a NUL byte (`find -print0`; a name cannot hold one, so the two forms
/// cannot be confused), else one name a line (a CR before the line
/// break is dropped); empty names are skipped.
fn read_path_list(list: &PathBuf) -> anyhow::Result<Vec<PathBuf>> {
    let mut all = Vec::new();
    if list.as_os_str() == "-" {
        io::stdin().lock().read_to_end(&mut all).context("<stdin>")?;
    } else {
        std::fs::File::open(list)
            .and_then(|mut f| f.read_to_end(&mut all))
            .with_context(|| format!("{}", list.display()))?;
    }
    let nul = memchr::memchr(0, &all).is_some();
    let sep = if nul { 0 } else { b'\n' };
    let mut paths = Vec::new();
    for name in all.split(|&b| b == sep) {
        let name = match nul {
            true => name,
            false => name.strip_suffix(b"\r").unwrap_or(name),
        };
        if !name.is_empty() {
            paths.push(path_from_bytes(name.to_vec()));
        }
    }
    Ok(paths)
}

#[cfg(unix)]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(OsString::from_vec(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// The printer, plus a progress bar on a terminal once the run is long.
struct Progress<W: Write, E: Write> {
    printer: Printer<W, E>,
    bar: Option<indicatif::ProgressBar>,
    enabled: bool,
    /// The stored size of all inputs, when every one has a size.
    total: Option<u64>,
    done: u64,
    started: Instant,
}

/// A run shorter than this shows no progress bar.
const LONG_RUN: Duration = Duration::from_millis(1500);

impl<W: Write, E: Write> Report for Progress<W, E> {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.printer.begin(input)
    }

    fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()> {
        self.printer.hit(input, hit)
    }

    fn error(&mut self, err: &InputError) -> io::Result<()> {
        if let Some(bar) = &self.bar {
            bar.suspend(|| self.printer.error(err))
        } else {
            self.printer.error(err)
        }
    }

    fn warning(
        &mut self,
        input: &Input,
        offset: u64,
        what: &str,
    ) -> io::Result<()> {
        if let Some(bar) = &self.bar {
            bar.suspend(|| self.printer.warning(input, offset, what))
        } else {
            self.printer.warning(input, offset, what)
        }
    }

    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()> {
        self.printer.end(input, done)
    }

    fn progress(&mut self, bytes: u64) {
        self.done += bytes;
        if !self.enabled {
            return;
        }
        if self.bar.is_none() && self.started.elapsed() >= LONG_RUN {
            // Bytes as stored: a compressed file counts its compressed
            // bytes, whose total is known.
            let bar = indicatif::ProgressBar::with_draw_target(
                self.total.map(|t| t.max(self.done)),
                indicatif::ProgressDrawTarget::stderr(),
            );
            let style =
                indicatif::ProgressStyle::with_template(match self.total {
                    Some(_) => {
                        "{bytes:>10}/{total_bytes} {wide_bar} \
                         {binary_bytes_per_sec} ETA {eta}"
                    }
                    None => {
                        "{spinner} {bytes:>10} read {binary_bytes_per_sec}"
                    }
                });
            if let Ok(style) = style {
                bar.set_style(style);
            }
            // Rates count from here, not from a jump to what was done.
            bar.set_position(self.done);
            bar.reset_eta();
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            if self.total.is_some_and(|t| self.done > t) {
                bar.set_length(self.done);
            }
            bar.set_position(self.done);
        }
    }
}

/// The merge command.
fn merge(args: MergeArgs) -> anyhow::Result<i32> {
    if let Some(pair) = &args.compare {
        let read = |f: &PathBuf| -> anyhow::Result<Counts> {
            let name = f.display();
            let file =
                std::fs::File::open(f).with_context(|| format!("{name}"))?;
            Counts::read_tsv(BufReader::new(file))
                .with_context(|| format!("{name}"))
        };
        let (Some(a), Some(b)) = (pair.first(), pair.get(1)) else {
            bail!("--compare needs two partials");
        };
        let (a, b) = (read(a)?, read(b)?);
        let mut out = io::BufWriter::new(out::stdout()?);
        a.write_compare(&b, &mut out)?;
        out.flush()?;
        return Ok(0);
    }
    let mut counts = Counts::new();
    let mut files = args.files.clone();
    if files.is_empty() {
        files.push(PathBuf::from("-"));
    }
    for f in &files {
        let name = f.display();
        if f.as_os_str() == "-" {
            counts
                .add_tsv(io::stdin().lock())
                .with_context(|| "<stdin>".to_string())?;
        } else {
            let file =
                std::fs::File::open(f).with_context(|| format!("{name}"))?;
            counts
                .add_tsv(BufReader::new(file))
                .with_context(|| format!("{name}"))?;
        }
    }
    let mut out = io::BufWriter::new(out::stdout()?);
    if args.tsv {
        counts.write_tsv(&mut out)?;
    } else {
        let summary = Summary {
            counts,
            unique_urls: None,
            elapsed: None,
            top: args.top,
        };
        if args.json {
            serde_json::to_writer_pretty(&mut out, &summary.to_json())?;
            out.write_all(b"\n")?;
        } else {
            summary.write_text(&mut out)?;
        }
    }
    out.flush()?;
    Ok(0)
}
