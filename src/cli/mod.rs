//! Command-line front end: arguments, wiring, progress, exit codes.

mod args;
mod argv;
mod check;
mod filters;
mod generate;
mod list;
mod out;
mod pathlist;
mod progress;

use anyhow::{bail, Context};
use args::{Args, By, Color, Mail, MergeArgs};
use clap::Parser;
use progress::Progress;
use std::ffi::OsString;
use std::io::{self, BufReader, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;
use urlgrep::input::{self, Input, InputError, WalkOptions};
use urlgrep::output::stats::{Counts, Period, Summary};
use urlgrep::output::{escape, Format, Printer, PrinterOptions};
use urlgrep::{Archive, Driver, Finder, Kind, MailMode};

/// Parses a search's arguments; the walk's globs (`-g`, `--include`,
/// `--exclude`, `--exclude-dir`) are kept in the order given, since the
/// last that matches decides.
fn parse_search(argv: Vec<OsString>) -> Result<Args, clap::Error> {
    parse_search_with(argv, true)
}

/// [`parse_search`], with the paths after the first taken out before
/// clap reads the rest ([`argv::split_paths`]) when `split`.
fn parse_search_with(
    argv: Vec<OsString>,
    split: bool,
) -> Result<Args, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    use input::GlobScope;
    let mut cmd = Args::command();
    cmd.build();
    let (argv, more) = match split {
        true => argv::split_paths(&cmd, argv),
        false => (argv, Vec::new()),
    };
    let mut m = cmd.try_get_matches_from(argv)?;
    let mut order = Vec::new();
    for (id, flag, exclude, scope) in [
        ("globs", "--glob", None, GlobScope::Any),
        ("include", "--include", Some(false), GlobScope::Files),
        ("exclude", "--exclude", Some(true), GlobScope::Files),
        ("exclude_dir", "--exclude-dir", Some(true), GlobScope::Folders),
    ] {
        let (Some(values), Some(at)) =
            (m.get_many::<String>(id), m.indices_of(id))
        else {
            continue;
        };
        for (v, i) in values.zip(at) {
            let (glob, exclude) = match (exclude, v.strip_prefix('!')) {
                (Some(e), _) => (v.clone(), e),
                (None, Some(rest)) => (rest.to_owned(), true),
                (None, None) => (v.clone(), false),
            };
            order.push((i, args::GlobArg { flag, glob, exclude, scope }));
        }
    }
    // Taken out of the matches, not copied: `from_arg_matches` clones
    // them whole, 430 instructions a path of 6,046 named files.
    let mut args = Args::from_arg_matches_mut(&mut m)?;
    order.sort_by_key(|(i, _)| *i);
    args.glob_order = order.into_iter().map(|(_, g)| g).collect();
    args.paths.extend(more.into_iter().map(PathBuf::from));
    Ok(args)
}

/// An input of a walk, named without its leading `./` when `below_cwd`
/// (the working folder searched for `-r` with no path).
fn named(
    input: Result<Input, InputError>,
    below_cwd: bool,
) -> Result<Input, InputError> {
    if !below_cwd {
        return input;
    }
    let strip = |source: &mut input::Source| {
        if let input::Source::Path(p) = source {
            match p.strip_prefix(".") {
                Ok(rest) if !rest.as_os_str().is_empty() => {
                    *p = rest.to_path_buf();
                }
                _ => {}
            }
        }
    };
    match input {
        Ok(mut i) => {
            strip(&mut i.source);
            Ok(i)
        }
        Err(mut e) => {
            strip(&mut e.source);
            Err(e)
        }
    }
}

/// Runs urlgrep; returns the exit status (0 found, 1 none, 2 error).
pub fn run() -> i32 {
    // Before anything is opened: a closed stdin is an error, not empty.
    let _ = input::stdin_open();
    let argv: Vec<OsString> = std::env::args_os().collect();
    let result = if argv.get(1).is_some_and(|a| a == "merge") {
        let rest = argv.iter().skip(2).cloned();
        let name = OsString::from("urlgrep merge");
        MergeArgs::try_parse_from(std::iter::once(name).chain(rest))
            .map_err(clap_exit)
            .and_then(merge)
    } else {
        parse_search(argv).map_err(clap_exit).and_then(search)
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            // Messages quote paths and values: escaped like the output.
            // (`eprintln!` would panic on a full stderr.)
            let msg = format!("{e:#}");
            let msg = match e.downcast_ref::<Lines>() {
                // Line by line: the breaks kept, the rest escaped.
                Some(_) => msg
                    .split('\n')
                    .map(escape::text_str)
                    .collect::<Vec<_>>()
                    .join("\n"),
                None => escape::text_str(&msg).into_owned(),
            };
            let _ = writeln!(io::stderr(), "urlgrep: {msg}");
            2
        }
    }
}

/// An error whose message is several lines, such as the regex crate's
/// with its caret under the fault: printed with its line breaks, each
/// line escaped by the one rule of `output::escape`.
#[derive(Debug)]
struct Lines(String);

impl std::fmt::Display for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Lines {}

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
    check::check(&args)?;
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
    // Read as the search goes: the paths named first, then the list's.
    let list = match &args.files_from {
        Some(list) => Some(pathlist::PathList::open(list)?),
        None => None,
    };
    let named_several = paths.len() > 1 || args.files_from.is_some();
    let recursive = args.recursive || args.dereference_recursive;
    // As grep -r: no path, the working folder, its files named without
    // the `./` (as grep and ripgrep print them).
    let below_cwd = paths.is_empty() && args.files_from.is_none() && recursive;
    if below_cwd {
        paths.push(PathBuf::from("."));
    }
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
    // No bar while URLs stream to the terminal: they would be printed
    // onto it, and they show the progress themselves.
    let tty_out = io::stdout().is_terminal();
    let streams = !(args.stats
        || args.stats_tsv
        || args.count
        || args.files_with_matches
        || args.files_without_match);
    let show_progress = !args.no_progress
        && io::stderr().is_terminal()
        && !(tty_out && streams)
        && std::env::var_os("CI").is_none();
    // The progress bar needs every file's size; without it the search
    // learns a size by reading the file.
    let mut globs = input::Globs::default();
    for g in &args.glob_order {
        globs.push(&g.glob, g.exclude, g.scope).context(g.flag)?;
    }
    let walk = WalkOptions {
        follow_links: args.follow || args.dereference_recursive,
        skip_stat: !show_progress,
        max_depth: args.max_depth,
        globs,
    };
    if args.files {
        let walk = WalkOptions { skip_stat: true, ..walk };
        let walk = input::Walk::new(paths, walk);
        return list::files(walk.map(|i| named(i, below_cwd)), &args);
    }
    let stdin_taken = args.files_from.as_deref() == Some("-".as_ref())
        || paths.iter().any(|p| p.as_os_str() == "-");
    let filter = filters::build(&args, stdin_taken)?;
    let (list, list_errors) = list.unzip();
    let paths = paths.into_iter().chain(list.into_iter().flatten());
    let inputs =
        input::Walk::from_paths(paths, walk).map(move |i| named(i, below_cwd));
    // -A/-B/-C imply --line; each input is read again for its lines.
    let c = args.context;
    let before = args.before_context.or(c);
    let after = args.after_context.or(c);
    let line_mode = !args.only_matching
        && (args.line || before.is_some() || after.is_some());
    if line_mode && stdin_taken {
        bail!(
            "--line (and -A/-B/-C) reads each input again for its lines: \
             not possible for stdin; name a file"
        );
    }
    let format = match (args.stats, args.stats_tsv, args.json, args.count) {
        _ if args.files_with_matches => Format::FilesWithMatches,
        _ if args.files_without_match => Format::FilesWithoutMatch,
        (_, true, _, _) => Format::StatsTsv,
        (true, _, true, _) => Format::StatsJson,
        (true, _, false, _) => Format::Stats,
        (false, _, true, _) => Format::Json,
        (false, _, false, true) => Format::Count,
        _ if line_mode => Format::Lines,
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
        top: args.top.unwrap_or(10),
        line_buffered: args.line_buffered || io::stdout().is_terminal(),
        keep_defanged: args.keep_defanged,
        exact_stats: args.exact_stats,
        null: args.null,
        // -q stops at the first URL: the -m path, with nothing printed.
        quiet: args.quiet,
        max_count: match args.quiet {
            true => Some(args.max_count.map_or(1, |m| m.min(1))),
            false => args.max_count,
        },
        by: args.by.map(|b| match b {
            By::Year => Period::Year,
            By::Month => Period::Month,
            By::Day => Period::Day,
            By::Site => Period::Site,
        }),
        no_messages: args.no_messages,
        color: color_on(
            args.color,
            io::stdout().is_terminal(),
            std::env::var_os("NO_COLOR"),
            std::env::var_os("TERM"),
        ),
        context: line_mode.then(|| (before.unwrap_or(0), after.unwrap_or(0))),
        // What the CLI does not set (a program's record channel).
        ..PrinterOptions::default()
    };
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
        Mail::Auto => MailMode::Auto,
        Mail::Off => MailMode::Off,
    };
    driver
        .archive(Archive::Web, args.warc == args::Warc::Auto)
        .archive(Archive::Tar, args.tar == args::Warc::Auto)
        .resolve(args.resolve)
        .mail_mode(mode)
        .qp_repair(args.qp_repair)
        .skip_binary(!args.text)
        // The mail search reports rejects too when the printer reads
        // them: the URLs found stay those of the mail search (issue
        // 34.3), and the counts those of raw text.
        .rejects(opts.reads_rejects());
    // Message metadata is read only when an output shows it.
    driver
        .metadata(
            format == Format::Json
                || !args.header.is_empty()
                || opts.by.is_some(),
        )
        .header_fields(&args.header)
        // The HTML context costs a tokenizer pass: only when asked.
        .html_context(format == Format::Json && args.html_context)
        // --line: mail hits in decoded text carry its lines.
        .lines(opts.context.filter(|_| format == Format::Lines));
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
    let out = match args.quiet {
        true => out::Checked(Box::new(io::sink()) as Box<dyn Write + Send>),
        false => out::stdout()?,
    };
    let out = io::BufWriter::with_capacity(64 * 1024, out);
    let printer = Printer::new(opts, out, io::stderr());
    let mut report =
        Progress::new(printer, show_progress, tty_out, total, started);
    driver.run(inputs, &mut report)?;
    report.clear();
    // -q: the first URL ends the run, found, whatever came before (grep).
    if args.quiet && report.printer.found() {
        return Ok(0);
    }
    let mut printer = report.printer;
    printer.finish(started.elapsed())?;
    if let Some(e) = list_errors.and_then(|e| e.take()) {
        return Err(e.context("--files-from"));
    }
    Ok(if printer.errors() > 0 {
        2
    } else if printer.found() {
        0
    } else {
        1
    })
}

/// Whether `--color WHEN` colours: `auto` on a terminal unless
/// `NO_COLOR` is set and not empty (no-color.org) or `TERM` is `dumb`.
fn color_on(
    when: Color,
    tty: bool,
    no_color: Option<OsString>,
    term: Option<OsString>,
) -> bool {
    match when {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            tty && no_color.is_none_or(|v| v.is_empty())
                && term.is_none_or(|t| t != "dumb")
        }
    }
}

/// The merge command.
fn merge(args: MergeArgs) -> anyhow::Result<i32> {
    if let Some(pair) = &args.compare {
        let (Some(a), Some(b)) = (pair.first(), pair.get(1)) else {
            bail!("--compare needs two partials");
        };
        let (mut ca, mut cb) = (Counts::new(), Counts::new());
        add_partial(&mut ca, a)?;
        add_partial(&mut cb, b)?;
        let mut out = io::BufWriter::new(out::stdout()?);
        ca.write_compare(&cb, args.top, &mut out)?;
        out.flush()?;
        return Ok(0);
    }
    let mut counts = Counts::new();
    let mut files = args.files.clone();
    if files.is_empty() {
        files.push(PathBuf::from("-"));
    }
    for f in &files {
        add_partial(&mut counts, f)?;
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
            // Keys from a partial may hold anything: the one escaping
            // rule (`\u` for controls and bidi characters).
            escape::write_json_pretty(&mut out, &summary.to_json())?;
            out.write_all(b"\n")?;
        } else {
            summary.write_text(&mut out)?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// Adds the partial `f` (`-`: stdin) to `counts`: refused when it is
/// damaged or cut short; a partial without header and end record (an
/// older urlgrep's) is read with a warning.
fn add_partial(counts: &mut Counts, f: &PathBuf) -> anyhow::Result<()> {
    let checked = if f.as_os_str() == "-" {
        counts.add_tsv(io::stdin().lock()).context("<stdin>")?
    } else {
        let name = f.display();
        let file =
            std::fs::File::open(f).with_context(|| format!("{name}"))?;
        counts
            .add_tsv(BufReader::new(file))
            .with_context(|| format!("{name}"))?
    };
    if checked.unchecked {
        let name = match f.as_os_str() == "-" {
            true => "<stdin>".to_string(),
            false => f.display().to_string(),
        };
        let _ = writeln!(
            io::stderr(),
            "urlgrep: warning: {}: counters without a partial header \
             (written by an older urlgrep or another tool): read as they \
             are; whether they were cut short cannot be told",
            escape::text_str(&name)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn color_auto_is_a_terminal_without_no_color_or_dumb() {
        let on = |tty, no: Option<&str>, term: Option<&str>| {
            color_on(
                Color::Auto,
                tty,
                no.map(Into::into),
                term.map(Into::into),
            )
        };
        assert!(on(true, None, Some("xterm-256color")));
        assert!(on(true, None, None));
        assert!(!on(false, None, Some("xterm")));
        assert!(!on(true, Some("1"), Some("xterm")));
        // no-color.org: an empty NO_COLOR does not count.
        assert!(on(true, Some(""), Some("xterm")));
        assert!(!on(true, None, Some("dumb")));
        assert!(color_on(Color::Always, false, Some("1".into()), None));
        assert!(!color_on(Color::Never, true, None, None));
    }
}
