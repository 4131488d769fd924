//! What the printer is asked to write: the format and the options,
//! read by the printer and by every format's writer.

use super::stats::Period;
use crate::scan::Kind;

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
