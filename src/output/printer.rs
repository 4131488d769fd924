//! The printer: the selection layer and the run's counters in front of
//! one format's writer ([`Emit`]); it turns the driver's ordered results
//! into output.
//!
//! Each format's writer is a module here, below the printer, and is
//! registered in [`Format::emitter`]: a new format is its file, its
//! `mod` line and arm here, and its [`Format`] variant.

mod context;
mod count;
mod files;
mod json_lines;
mod plain;
mod records;
mod stats_report;

use super::emit::{Ctx, Emit, Run, Tally, Url};
use super::escape;
use super::options::{Format, PrinterOptions};
use super::record_visitor::RecordVisitor;
use super::select::{hit_scheme, Selection};
use super::stats::Counts;
use crate::driver::{
    BatchUrls, Fold, Folds, Hit, InputDone, Pick, Report, Wants,
};
use crate::input::{Input, InputError};
use context::ContextLines;
use count::CountLines;
use files::FileNames;
use json_lines::JsonLines;
use plain::PlainLines;
use records::Records;
use stats_report::StatsReport;
use std::borrow::Cow;
use std::io::{self, Write};
use std::time::Duration;

impl Format {
    /// The writer of this format: one line per format.
    fn emitter<W: Write>(
        self,
        opts: &PrinterOptions,
    ) -> Box<dyn Emit<W> + Send> {
        let (exact_stats, by) = (opts.exact_stats, opts.by);
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
            Format::Records => Box::new(Records::new(
                opts.records.clone().map(RecordVisitor::owned),
            )),
            Format::RecordRefs => {
                Box::new(Records::new(opts.record_refs.clone()))
            }
        }
    }
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
    /// Whether a batch's matches are printed from their positions and
    /// URLs alone ([`Report::urls`]): a writer that prints them so
    /// ([`Emit::prints_urls_alone`]), and nothing that selects, counts
    /// towards a stop or prints another text (`--kind`, `--scheme`, a
    /// filter, `--redact`, `--unique`, `-m`, `-q`, `--keep-defanged`,
    /// statistics).
    urls_alone: bool,
    /// The `total` dimension, kept as plain numbers: it changes for
    /// every input, and a map look-up (with hashing) per counter cost a
    /// few percent of a search of small files.
    totals: Totals,
    found: bool,
    errors: u64,
    cur: Tally,
    /// Where `-m`'s count of the current input was reached: the end of
    /// that URL, and the index of its record.
    stop: Option<(u64, Option<u64>)>,
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
        let emit: Box<dyn Emit<W> + Send> = opts.format.emitter(&opts);
        let urls_alone = emit.prints_urls_alone()
            && !emit.tallies()
            && select.takes_all()
            && opts.max_count.is_none()
            && !opts.quiet
            && !opts.keep_defanged;
        Printer {
            urls_alone,
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
            stop: None,
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

    /// The counters of the run so far. A text or JSON statistics report
    /// reads its hosts, TLDs and sketches where the run keeps them when
    /// it ends, so they are not among these counters; the TSV shape (a
    /// partial for `merge`) has them.
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

impl<W: Write, E: Write> Printer<W, E> {
    /// The URLs of the current input that count towards `-m`: printed
    /// ones, or tallied ones for the statistics.
    /// Whether the output names inputs (`-l`, `-L`): one match of an
    /// input is all it needs of it.
    fn names_files(&self) -> bool {
        matches!(
            self.opts.format,
            Format::FilesWithMatches | Format::FilesWithoutMatch
        )
    }

    fn seen(&self) -> u64 {
        if self.tallies {
            self.cur.matches
        } else {
            self.cur.printed
        }
    }
}

/// Notes in `stop` where `-m`'s count (`max`) is reached: at the hit that
/// makes `seen` reach it.
fn note_stop(
    stop: &mut Option<(u64, Option<u64>)>,
    max: Option<u64>,
    seen: u64,
    hit: &Hit<'_>,
) {
    if stop.is_none() && max == Some(seen) {
        *stop = Some((hit.at.end, hit.record.map(|r| r.index)));
    }
}

impl<W: Write, E: Write> Report for Printer<W, E> {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.cur = Tally::default();
        self.stop = None;
        let cx = Ctx { opts: &self.opts };
        self.emit.begin(&mut self.out, &cx, input)
    }

    fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()> {
        let scheme = hit_scheme(hit, self.scheme);
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
            (true, Some(written))
                if hit.kind != crate::scan::Kind::Resolved =>
            {
                written
            }
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
        let seen = self.seen();
        note_stop(&mut self.stop, self.opts.max_count, seen, hit);
        if tallies {
            let url = Url { input, hit, text: hit.url, scheme: &scheme };
            return self.emit.url(&mut self.out, &cx, &url);
        }
        let text = self.select.text(shown);
        if !self.select.first(&text) {
            return Ok(());
        }
        self.cur.printed += 1;
        let seen = self.seen();
        note_stop(&mut self.stop, self.opts.max_count, seen, hit);
        let url = Url { input, hit, text: &text, scheme: &scheme };
        self.emit.url(&mut self.out, &cx, &url)?;
        if self.opts.line_buffered {
            self.out.flush()?;
        }
        Ok(())
    }

    /// What [`Report::hit`] does for each, when nothing but the writer
    /// reads them: a plain listing with nothing that selects, stops or
    /// changes the text.
    fn urls(&mut self, _: &Input, urls: BatchUrls<'_>) -> io::Result<bool> {
        if !self.urls_alone {
            return Ok(false);
        }
        let cx = Ctx { opts: &self.opts };
        let n = self.emit.urls(&mut self.out, &cx, urls)?;
        self.cur.matches += n;
        self.cur.printed += n;
        self.found |= n > 0;
        Ok(true)
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

    /// With `-m`, no more of an input once its count is reached, and
    /// with `-l` or `-L` once it has a match (grep's "scanning of each
    /// input stops upon first match"): the driver stops reading it.
    fn wants(&self) -> Wants {
        if self.opts.quiet && self.found() {
            return Wants::Nothing;
        }
        if self.names_files() && self.cur.printed > 0 {
            return Wants::NextInput;
        }
        match self.opts.max_count {
            Some(max) if self.seen() >= max => Wants::NextInput,
            _ => Wants::All,
        }
    }

    fn may_stop(&self) -> bool {
        self.opts.max_count.is_some() || self.opts.quiet || self.names_files()
    }

    /// A rejected candidate is only counted when it is neither printed
    /// (`--rejects`) nor tallied (statistics), and no `-m` decides
    /// whether it counts (`--kind`, `--scheme` and a filter do, in the
    /// driver: [`Report::counts_only_if`]).
    fn wants_rejects(&self) -> bool {
        self.tallies || self.opts.rejects || self.opts.max_count.is_some()
    }

    fn rejects_counted(&mut self, _: &Input, n: u64) -> io::Result<()> {
        self.cur.rejected += n;
        Ok(())
    }

    /// A match is only counted when the format only counts what it is
    /// given (`-c`, `-l`, `--files-without-match`) and nothing but the
    /// match itself decides whether it counts: no `--unique`, `-m`, `-q`
    /// or statistics (`--kind`, `--scheme` and a filter decide in the
    /// driver: [`Report::counts_only_if`]).
    fn wants_matches(&self) -> bool {
        !self.emit.counts_only()
            || self.tallies
            || self.opts.unique
            || self.opts.quiet
            || self.opts.max_count.is_some()
    }

    /// What [`Report::hit`] does for each match that is only counted.
    fn matches_counted(&mut self, _: &Input, n: u64) -> io::Result<()> {
        self.cur.matches += n;
        self.cur.printed += n;
        self.found |= n > 0;
        Ok(())
    }

    fn wants_records(&self) -> bool {
        self.emit.reads_records()
    }

    /// The candidates only counted are counted when the selection
    /// (`--kind`, `--scheme`, a filter) selects them.
    fn counts_only_if(&self) -> Option<Pick> {
        self.select.reads_hits().then(|| self.select.pick())
    }

    /// The statistics fold the URLs on the workers (`Emit::folds`)
    /// when every URL counts: no selection (`--kind`, `--scheme`, a
    /// filter), no `-m`, no `-q`.
    fn folds(&self) -> Option<Folds> {
        let every = !self.select.reads_hits()
            && self.opts.max_count.is_none()
            && !self.opts.quiet;
        (self.tallies && every).then(|| self.emit.folds()).flatten()
    }

    /// What [`Report::hit`] does for each match folded.
    fn folded(&mut self, input: &Input, fold: &dyn Fold) -> io::Result<()> {
        let cx = Ctx { opts: &self.opts };
        let n = self.emit.folded(&mut self.out, &cx, input, fold)?;
        self.cur.matches += n;
        self.found |= n > 0;
        Ok(())
    }

    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()> {
        let cur = std::mem::take(&mut self.cur);
        // Stopped by `-m`: searched up to the URL that reached the count
        // (and its record), not as far as the reading went, which
        // depends on buffers and slices: a file, a stream and any
        // `-j`/slice size give the same numbers.
        let stopped;
        let done = match self.stop.take() {
            Some((end, index)) => {
                // (A slice's count may not have reached the report when
                // it stopped: the hit's own numbers, not the smaller of
                // the two.)
                stopped = InputDone {
                    bytes: end,
                    messages: done
                        .messages
                        .map(|n| index.map_or(n, |i| i + 1)),
                    ..*done
                };
                &stopped
            }
            None => done,
        };
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
