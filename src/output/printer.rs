//! The printer: the selection layer and the run's counters in front of
//! one format's writer ([`Emit`]); it turns the driver's ordered results
//! into output.

use super::context::ContextLines;
use super::count::CountLines;
use super::escape::{self, json_text};
use super::files::FileNames;
use super::json_lines::JsonLines;
use super::plain::PlainLines;
use super::select::Selection;
use super::stats::{Counts, Period};
use super::stats_report::StatsReport;
use crate::driver::{Hit, InputDone, Report, Wants};
use crate::input::{Input, InputError, Source};
use crate::parse::{self, Reject};
use crate::scan::Kind;
use std::borrow::Cow;
use std::io::{self, Write};
use std::time::Duration;

/// What the printer writes.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// One URL a line, with the prefixes asked for
    /// (`PATH:LINE:OFFSET:URL`).
    #[default]
    Plain,
    /// One count of URLs per input (`PATH:COUNT`).
    Count,
    /// The names of the inputs with a selected URL (`-l`).
    FilesWithMatches,
    /// The names of the inputs without one (`--files-without-match`).
    FilesWithoutMatch,
    /// JSON Lines; see [`crate::output::json`].
    Json,
    /// The line that holds each URL, with the lines around it that
    /// [`PrinterOptions::context`] asks for (`--line`, `-A/-B/-C`).
    Lines,
    /// The readable statistics report, after the run.
    Stats,
    /// The statistics as one JSON object.
    StatsJson,
    /// The additive partial counters; see [`crate::output::stats`].
    StatsTsv,
}

impl Format {
    /// The writer of this format: one line per format.
    fn emitter<W: Write>(
        self,
        exact_stats: bool,
        by: Option<Period>,
    ) -> Box<dyn Emit<W> + Send> {
        match self {
            Format::Plain => Box::new(PlainLines::default()),
            Format::Count => Box::new(CountLines),
            Format::FilesWithMatches => Box::new(FileNames::with_match()),
            Format::FilesWithoutMatch => Box::new(FileNames::without_match()),
            Format::Json => Box::new(JsonLines::default()),
            Format::Lines => Box::new(ContextLines::default()),
            Format::Stats => Box::new(StatsReport::text(exact_stats, by)),
            Format::StatsJson => Box::new(StatsReport::json(exact_stats, by)),
            Format::StatsTsv => Box::new(StatsReport::tsv(exact_stats, by)),
        }
    }
}

/// How the printer prints.
#[derive(Clone, Debug, Default)]
pub struct PrinterOptions {
    /// What to write.
    pub format: Format,
    /// Prefix each line with the input's name.
    pub with_filename: bool,
    /// Prefix each line with the line number.
    pub line_number: bool,
    /// Prefix each line with the byte offset.
    pub byte_offset: bool,
    /// Print each URL only the first time it is seen.
    pub unique: bool,
    /// Print rejected candidates too.
    pub rejects: bool,
    /// Replace passwords in URLs with `***`.
    pub redact: bool,
    /// Only these kinds (all when empty).
    pub kinds: Vec<Kind>,
    /// Only these schemes, lower-case (all when empty).
    pub schemes: Vec<String>,
    /// Only the URLs this filter keeps (all when `None`).
    pub filter: Option<std::sync::Arc<crate::filter::Filter>>,
    /// The name of stdin.
    pub stdin_label: String,
    /// How many hosts and TLDs the statistics list.
    pub top: usize,
    /// Flush after every line (for a terminal, `--line-buffered`).
    pub line_buffered: bool,
    /// Print a defanged URL as it was written (`--keep-defanged`), not
    /// refanged.
    pub keep_defanged: bool,
    /// Exact statistics in memory that grows with the input, instead of
    /// bounded sketches (see `output/url_stats.rs`).
    pub exact_stats: bool,
    /// Follow each file name with a NUL instead of its separator (`-0`):
    /// names are then printed raw, whatever bytes they hold.
    pub null: bool,
    /// At most this many URLs of each input (`-m`): printed ones, or
    /// tallied ones for the statistics. Later candidates of the input,
    /// rejects included, are ignored.
    pub max_count: Option<u64>,
    /// Statistics also by the message's date (UTC), per this period
    /// (`--by`; the driver must read metadata for it).
    pub by: Option<Period>,
    /// Write no message for an input that cannot be read (`-s`); it
    /// still counts as an error.
    pub no_messages: bool,
    /// Colour names, line numbers and URLs in plain output (`--color`);
    /// the codes wrap text already escaped.
    pub color: bool,
    /// Lines of context before and after each line with a URL, for
    /// [`Format::Lines`].
    pub context: Option<(usize, usize)>,
}

/// One output format's writer: what it writes for what the selection
/// lets through, in input order. Each format is one file of this folder.
pub(super) trait Emit<W: Write> {
    /// Whether it reads the scheme of every selected URL.
    fn needs_scheme(&self) -> bool {
        false
    }

    /// Whether it tallies every selected candidate (statistics): it is
    /// then given URLs before `--unique` and redaction, and rejects
    /// whether or not `--rejects` asks for them.
    fn tallies(&self) -> bool {
        false
    }

    /// An input begins.
    fn begin(&mut self, _: &mut W, _: &Ctx<'_>, _: &Input) -> io::Result<()> {
        Ok(())
    }

    /// A selected URL; `text` is what is printed of it.
    fn url(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()>;

    /// A selected rejected candidate.
    fn reject(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: &Url<'_>,
        _: Reject,
    ) -> io::Result<()> {
        Ok(())
    }

    /// An input could not be read (after the message on stderr).
    fn error(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: &InputError,
    ) -> io::Result<()> {
        Ok(())
    }

    /// An input ended; `tally` is what was selected of it.
    fn end(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: &Input,
        _: &InputDone,
        _: &Tally,
    ) -> io::Result<()> {
        Ok(())
    }

    /// The counters it kept over the run (statistics).
    fn counts(&self) -> Counts {
        Counts::new()
    }

    /// Whether the run found what it was asked for, when that is not
    /// "a URL was selected" (`--files-without-match`: a name was listed).
    fn listed(&self) -> Option<bool> {
        None
    }

    /// The run ended: `run` holds the counters of the run.
    fn finish(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: &Run<'_>,
    ) -> io::Result<()> {
        Ok(())
    }
}

/// What every writer may read: the options.
#[derive(Debug)]
pub(super) struct Ctx<'a> {
    pub opts: &'a PrinterOptions,
}

impl Ctx<'_> {
    /// The input's name for plain output.
    pub(super) fn label<'a>(&'a self, source: &'a Source) -> Cow<'a, [u8]> {
        match source {
            Source::Stdin => Cow::Borrowed(self.opts.stdin_label.as_bytes()),
            Source::Path(p) => path_bytes(p),
        }
    }

    /// Writes the input's name and what follows it: `sep`, or a NUL
    /// under `-0`.
    pub(super) fn name<W: Write>(
        &self,
        out: &mut W,
        source: &Source,
        sep: u8,
    ) -> io::Result<()> {
        // Under `-0` a name is raw: NUL separation is the safe channel
        // for programs; otherwise it is escaped like everything printed
        // that is not a validated URL.
        let (on, off) = self.paint(color::NAME);
        if self.opts.null {
            out.write_all(on)?;
            out.write_all(&self.label(source))?;
            out.write_all(off)?;
            return out.write_all(&[0]);
        }
        out.write_all(on)?;
        out.write_all(&escape::text(&self.label(source)))?;
        out.write_all(off)?;
        out.write_all(&[sep])
    }

    /// The codes that start and end `style` under `--color` (empty
    /// without): written around text already escaped, never inside it.
    pub(super) fn paint(&self, style: &'static [u8]) -> (&[u8], &[u8]) {
        match self.opts.color {
            true => (style, color::RESET),
            false => (b"", b""),
        }
    }
}

/// SGR codes (ECMA-48 §8.3.117) for `--color`, ripgrep's defaults.
pub(super) mod color {
    /// A file name: magenta.
    pub const NAME: &[u8] = b"\x1b[35m";
    /// A line number: green.
    pub const LINE: &[u8] = b"\x1b[32m";
    /// A URL: bold red.
    pub const URL: &[u8] = b"\x1b[1;31m";
    /// Back to the terminal's default.
    pub const RESET: &[u8] = b"\x1b[0m";
}

/// A selected candidate as a writer gets it.
#[derive(Debug)]
pub(super) struct Url<'a> {
    pub input: &'a Input,
    pub hit: &'a Hit<'a>,
    /// What is printed of it (redacted under `--redact`).
    pub text: &'a [u8],
    /// Its scheme, lower-case as written; empty unless a writer
    /// [`Emit::needs_scheme`] or `--scheme` asked.
    pub scheme: &'a str,
}

/// What was selected of one input.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Tally {
    /// URLs selected (before `--unique`).
    pub matches: u64,
    /// Rejected candidates selected.
    pub rejected: u64,
    /// URLs printed (after `--unique`).
    pub printed: u64,
}

/// The run's counters, for [`Emit::finish`].
#[derive(Debug)]
pub(super) struct Run<'a> {
    /// Every counter, the `total` dimension included.
    pub counts: &'a Counts,
    /// Some input was searched as mail.
    pub mail: bool,
    pub elapsed: Duration,
}

/// The `total` counters of a run.
#[derive(Debug, Default)]
struct Totals {
    files: u64,
    bytes: u64,
    candidates: u64,
    matches: u64,
    rejected: u64,
    errors: u64,
    messages: u64,
}

/// Writes results to `out` and errors to `err`; implements [`Report`].
pub struct Printer<W, E> {
    opts: PrinterOptions,
    out: W,
    err: E,
    select: Selection,
    emit: Box<dyn Emit<W> + Send>,
    /// What `emit` says of itself, asked once: [`Emit::needs_scheme`]
    /// or `--scheme`, and [`Emit::tallies`].
    scheme: bool,
    tallies: bool,
    /// The `total` dimension, kept as plain numbers: it changes for
    /// every input, and a map look-up (with hashing) per counter cost a
    /// few percent of a search of small files.
    totals: Totals,
    found: bool,
    errors: u64,
    cur: Tally,
    /// Some input was searched as mail.
    mail: bool,
}

impl<W, E> std::fmt::Debug for Printer<W, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Printer").field("opts", &self.opts).finish()
    }
}

impl<W: Write, E: Write> Printer<W, E> {
    /// A printer.
    pub fn new(opts: PrinterOptions, out: W, err: E) -> Printer<W, E> {
        let select = Selection::new(
            opts.kinds.clone(),
            opts.schemes.clone(),
            opts.redact,
            opts.unique,
            opts.filter.clone(),
        );
        let emit: Box<dyn Emit<W> + Send> =
            opts.format.emitter(opts.exact_stats, opts.by);
        Printer {
            scheme: emit.needs_scheme() || select.by_scheme(),
            tallies: emit.tallies(),
            emit,
            opts,
            out,
            err,
            select,
            totals: Totals::default(),
            found: false,
            errors: 0,
            cur: Tally::default(),
            mail: false,
        }
    }

    /// Whether the run found what it was asked for: a URL was selected
    /// (under `--files-without-match`: a name was listed).
    pub fn found(&self) -> bool {
        self.emit.listed().unwrap_or(self.found)
    }

    /// How many inputs had errors.
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// The counters of the run so far.
    pub fn counts(&self) -> Counts {
        let mut c = self.emit.counts();
        let t = &self.totals;
        // The keys exist once an input ended, as when they were added
        // input by input.
        if t.files > 0 {
            c.add("total", "files", t.files);
            c.add("total", "bytes", t.bytes);
            c.add("total", "candidates", t.candidates);
            c.add("total", "matches", t.matches);
            c.add("total", "rejected", t.rejected);
        }
        if t.errors > 0 {
            c.add("total", "errors", t.errors);
        }
        if self.mail {
            c.add("total", "messages", t.messages);
        }
        c
    }

    /// Writes what comes after the last input (a summary record, the
    /// statistics) and flushes.
    pub fn finish(&mut self, elapsed: Duration) -> io::Result<()> {
        let counts = self.counts();
        let run = Run { counts: &counts, mail: self.mail, elapsed };
        let cx = Ctx { opts: &self.opts };
        self.emit.finish(&mut self.out, &cx, &run)?;
        self.out.flush()
    }
}

/// A path's bytes as given (on Unix, exactly).
pub(super) fn path_bytes(p: &std::path::Path) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(p.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        match p.to_string_lossy() {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        }
    }
}

/// The lower-case scheme name as written in `url`.
fn scheme_of(url: &[u8]) -> Cow<'_, str> {
    let name = parse::scheme_name(url);
    // The schemes of nearly every URL, written in lower case: no UTF-8
    // check (its call cost a hundred instructions a URL of `--json`).
    match name {
        b"http" => return Cow::Borrowed("http"),
        b"https" => return Cow::Borrowed("https"),
        b"mailto" => return Cow::Borrowed("mailto"),
        b"ftp" => return Cow::Borrowed("ftp"),
        _ => {}
    }
    match json_text(name).0 {
        Cow::Borrowed(s) if !s.bytes().any(|b| b.is_ascii_uppercase()) => {
            Cow::Borrowed(s)
        }
        s => Cow::Owned(s.to_ascii_lowercase()),
    }
}

impl<W: Write, E: Write> Printer<W, E> {
    /// The URLs of the current input that count towards `-m`: printed
    /// ones, or tallied ones for the statistics.
    fn seen(&self) -> u64 {
        if self.tallies {
            self.cur.matches
        } else {
            self.cur.printed
        }
    }
}

impl<W: Write, E: Write> Report for Printer<W, E> {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.cur = Tally::default();
        let cx = Ctx { opts: &self.opts };
        self.emit.begin(&mut self.out, &cx, input)
    }

    fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()> {
        // The scheme is read only where it is used: a plain listing
        // without `--scheme` never needs it (one pass less per URL).
        let scheme = match hit.kind.implied_scheme() {
            // A scheme-less find (an address, a `www.` name): the scheme
            // it implies.
            Some(implied) => Cow::Borrowed(implied),
            None if self.scheme => scheme_of(hit.url),
            None => Cow::Borrowed(""),
        };
        if !self.select.selects(hit, &scheme) {
            return Ok(());
        }
        let tallies = self.tallies;
        if let Some(max) = self.opts.max_count {
            if self.seen() >= max {
                return Ok(());
            }
        }
        let cx = Ctx { opts: &self.opts };
        let shown = match (self.opts.keep_defanged, hit.defanged) {
            (true, Some(written)) => written,
            _ => hit.url,
        };
        if let Some(reject) = hit.reject {
            self.cur.rejected += 1;
            // Statistics count every reject; other outputs show them
            // under `--rejects` only.
            if !tallies && !self.opts.rejects {
                return Ok(());
            }
            let text = match tallies {
                true => Cow::Borrowed(hit.url),
                false => self.select.text(shown),
            };
            let url = Url { input, hit, text: &text, scheme: &scheme };
            return self.emit.reject(&mut self.out, &cx, &url, reject);
        }
        self.cur.matches += 1;
        self.found = true;
        if tallies {
            let url = Url { input, hit, text: hit.url, scheme: &scheme };
            return self.emit.url(&mut self.out, &cx, &url);
        }
        let text = self.select.text(shown);
        if !self.select.first(&text) {
            return Ok(());
        }
        self.cur.printed += 1;
        let url = Url { input, hit, text: &text, scheme: &scheme };
        self.emit.url(&mut self.out, &cx, &url)?;
        if self.opts.line_buffered {
            self.out.flush()?;
        }
        Ok(())
    }

    fn error(&mut self, err: &InputError) -> io::Result<()> {
        self.errors += 1;
        self.totals.errors += 1;
        self.out.flush()?;
        let cx = Ctx { opts: &self.opts };
        let mut line = b"urlgrep: ".to_vec();
        line.extend_from_slice(&escape::text(&cx.label(&err.source)));
        line.extend_from_slice(b": ");
        line.extend_from_slice(&escape::text(err.to_string().as_bytes()));
        line.push(b'\n');
        // A closed stderr must not stop the run.
        if !self.opts.no_messages {
            let _ = self.err.write_all(&line);
            let _ = self.err.flush();
        }
        self.emit.error(&mut self.out, &cx, err)
    }

    /// A warning is no error: it says on stderr where a limit was met
    /// and leaves the exit status alone.
    fn warning(
        &mut self,
        input: &Input,
        offset: u64,
        what: &str,
    ) -> io::Result<()> {
        self.out.flush()?;
        let cx = Ctx { opts: &self.opts };
        let mut line = b"urlgrep: ".to_vec();
        line.extend_from_slice(&escape::text(&cx.label(&input.source)));
        line.extend_from_slice(
            format!(": offset {offset}: warning: {what}\n").as_bytes(),
        );
        // A closed stderr must not stop the run.
        let _ = self.err.write_all(&line);
        let _ = self.err.flush();
        Ok(())
    }

    /// With `-m`, no more of an input once its count is reached: the
    /// driver stops reading it.
    fn wants(&self) -> Wants {
        match self.opts.max_count {
            Some(max) if self.seen() >= max => Wants::NextInput,
            _ => Wants::All,
        }
    }

    fn may_stop(&self) -> bool {
        self.opts.max_count.is_some()
    }

    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()> {
        let cur = std::mem::take(&mut self.cur);
        if let Some(n) = done.messages {
            self.mail = true;
            self.totals.messages += n;
        }
        // Straight into the totals: a map per file (with its keys
        // allocated anew) cost more than the search of a small file.
        let t = &mut self.totals;
        t.files += 1;
        t.bytes += done.bytes;
        t.candidates += cur.matches + cur.rejected;
        t.matches += cur.matches;
        t.rejected += cur.rejected;
        let cx = Ctx { opts: &self.opts };
        self.emit.end(&mut self.out, &cx, input, done, &cur)?;
        // What a stream or a FIFO gave is out before the next input
        // (`tail -f log | urlgrep | ...` does not wait for 64 KiB).
        if self.opts.line_buffered || !input.regular {
            self.out.flush()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The scheme as read before the common names were matched.
    fn whole(url: &[u8]) -> Cow<'_, str> {
        match json_text(parse::scheme_name(url)).0 {
            Cow::Borrowed(s) if !s.bytes().any(|b| b.is_ascii_uppercase()) => {
                Cow::Borrowed(s)
            }
            s => Cow::Owned(s.to_ascii_lowercase()),
        }
    }

    proptest! {
        #[test]
        fn the_scheme_as_read_whole(
            url in prop_oneof![
                "(http|https|mailto|ftp|HTTP|Https|mailTo|ftps|htt|x)(:.{0,8})?",
                any::<Vec<u8>>().prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
            ],
            raw in any::<Vec<u8>>(),
        ) {
            prop_assert_eq!(scheme_of(url.as_bytes()), whole(url.as_bytes()));
            prop_assert_eq!(scheme_of(&raw), whole(&raw));
        }
    }
}
