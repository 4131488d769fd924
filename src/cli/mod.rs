//! Command-line front end: arguments, wiring, progress, exit codes.

mod args;
mod filters;
mod out;

use anyhow::{bail, Context};
use args::{Args, By, Mail, MergeArgs};
use clap::Parser;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
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
    let started = Instant::now();
    let mut kinds = Vec::new();
    for k in &args.kind {
        match Kind::from_name(&k.to_ascii_lowercase()) {
            Some(kind) => kinds.push(kind),
            None => bail!(
                "--kind {k:?}: expected one of wrapped, angle, quoted, bare"
            ),
        }
    }
    let mut paths = std::mem::take(&mut args.paths);
    if let Some(list) = &args.files_from {
        paths.extend(read_path_list(list)?);
    }
    let named_several = paths.len() > 1 || args.files_from.is_some();
    if paths.is_empty() && args.files_from.is_none() {
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
    let walk =
        WalkOptions { follow_links: args.follow, skip_stat: !show_progress };
    let stdin_taken = args.files_from.as_deref() == Some("-".as_ref())
        || paths.iter().any(|p| p.as_os_str() == "-");
    let filter = filters::build(&args, stdin_taken)?;
    let inputs = input::Walk::new(paths, walk);
    let format = match (args.stats, args.stats_tsv, args.json, args.count) {
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
        line_buffered: io::stdout().is_terminal(),
        exact_stats: args.exact_stats,
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
    driver.mail_mode(mode).qp_repair(args.qp_repair);
    // Message metadata is read only when an output shows it.
    driver
        .metadata(
            format == Format::Json
                || !args.header.is_empty()
                || opts.by.is_some(),
        )
        .header_fields(&args.header);
    let driver = driver.build(finder);

    // The progress bar needs the total, so on a terminal the walk is done
    // first; otherwise the workers walk as they go.
    type Inputs = Box<dyn Iterator<Item = Result<Input, InputError>> + Send>;
    let (inputs, total): (Inputs, u64) = if show_progress {
        let list: Vec<_> = inputs.collect();
        let total = list
            .iter()
            .filter_map(|i| i.as_ref().ok().and_then(|i| i.size))
            .sum();
        (Box::new(list.into_iter()), total)
    } else {
        (Box::new(inputs), 0)
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

/// Reads a `--files-from` list: one path a line, empty lines skipped.
fn read_path_list(list: &PathBuf) -> anyhow::Result<Vec<PathBuf>> {
    let rdr: Box<dyn BufRead> = if list.as_os_str() == "-" {
        Box::new(BufReader::new(io::stdin()))
    } else {
        let f = std::fs::File::open(list)
            .with_context(|| format!("{}", list.display()))?;
        Box::new(BufReader::new(f))
    };
    let mut paths = Vec::new();
    for line in rdr.split(b'\n') {
        let mut line = line.with_context(|| format!("{}", list.display()))?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            continue;
        }
        paths.push(path_from_bytes(line));
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
    total: u64,
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

    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()> {
        self.printer.end(input, done)
    }

    fn progress(&mut self, bytes: u64) {
        self.done += bytes;
        if !self.enabled {
            return;
        }
        if self.bar.is_none() && self.started.elapsed() >= LONG_RUN {
            let bar = indicatif::ProgressBar::with_draw_target(
                Some(self.total.max(self.done)),
                indicatif::ProgressDrawTarget::stderr(),
            );
            let style = indicatif::ProgressStyle::with_template(
                "{bytes:>10}/{total_bytes} {wide_bar} {binary_bytes_per_sec} \
                 ETA {eta}",
            );
            if let Ok(style) = style {
                bar.set_style(style);
            }
            // Rates count from here, not from a jump to what was done.
            bar.set_position(self.done);
            bar.reset_eta();
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            if self.done > self.total {
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
