//! What the printer is asked to write: the format and the options,
//! read by the printer and by every format's writer.

use super::json::Record;
use super::stats::Period;
use crate::scan::Kind;
use std::fmt;
use std::io;
use std::sync::Arc;

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
    /// Every record of [`Format::Json`], owned, handed to
    /// [`PrinterOptions::records`] instead of written: for programs and
    /// bindings that read records, not JSON text.
    Records,
    /// Every record of [`Format::Json`], borrowed, shown to
    /// [`PrinterOptions::record_refs`]: for readers that copy the fields
    /// at once (the Python module's Arrow columns).
    RecordRefs,
}

impl Format {
    /// Whether it is one of the statistics ([`Format::Stats`],
    /// [`Format::StatsJson`], [`Format::StatsTsv`]), which count every
    /// candidate, rejected ones by reason.
    pub fn tallies(self) -> bool {
        matches!(self, Format::Stats | Format::StatsJson | Format::StatsTsv)
    }
}

/// Where [`Format::Records`](super::Format::Records) sends each record,
/// in the order `--json` writes them. An error it returns stops the run
/// as a write error would.
#[derive(Clone)]
pub struct RecordSender(
    Arc<dyn Fn(Record<'static>) -> io::Result<()> + Send + Sync>,
);

impl RecordSender {
    /// Sends `rec`.
    pub fn send(&self, rec: Record<'static>) -> io::Result<()> {
        (self.0)(rec)
    }

    /// A sender calling `f` with each record.
    pub fn new(
        f: impl Fn(Record<'static>) -> io::Result<()> + Send + Sync + 'static,
    ) -> RecordSender {
        RecordSender(Arc::new(f))
    }
}

impl fmt::Debug for RecordSender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("RecordSender")
    }
}

/// How the printer prints.
#[derive(Clone, Debug, Default)]
pub struct PrinterOptions {
    /// What to write.
    pub format: Format,
    /// Where [`Format::Records`] sends its records (nowhere when `None`).
    pub records: Option<RecordSender>,
    /// Where [`Format::RecordRefs`] shows its records (nowhere when
    /// `None`).
    pub record_refs: Option<super::record_visitor::RecordVisitor>,
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
    /// The first URL selected ends the run (`-q`, grep's rule): the
    /// report then wants nothing more.
    pub quiet: bool,
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

impl PrinterOptions {
    /// Whether a mail search must hand over its rejected candidates for
    /// a printer of these options ([`crate::DriverBuilder::rejects`]):
    /// when it prints them (`--rejects`), counts them by reason
    /// (statistics), reads each (`-m`) or picks among them (`--kind`,
    /// `--scheme`, a filter). Otherwise the driver counts mail's rejects
    /// without storing them, as raw text's; so mail and raw text give
    /// the same counts whatever the options. (The Python module's
    /// `scan` yields no `end` record, so it need not ask.)
    pub fn reads_rejects(&self) -> bool {
        self.rejects
            || self.format.tallies()
            || self.max_count.is_some()
            || !self.kinds.is_empty()
            || !self.schemes.is_empty()
            || self.filter.is_some()
    }
}
