//! What every format's writer shares: the [`Emit`] trait it implements,
//! what it is given ([`Ctx`], [`Url`], [`Tally`], [`Run`]) and the helpers
//! the formats use alike. Below the formats and the printer: it imports
//! neither.

use super::escape;
use super::options::PrinterOptions;
use super::stats::Counts;
use crate::driver::{BatchUrls, Fold, Folds, Hit, InputDone};
use crate::input::{Input, InputError, Source};
use crate::parse::Reject;
use std::borrow::Cow;
use std::io::{self, Write};
use std::time::Duration;

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

    /// Whether it only counts the URLs it is given (`-c`, `-l`,
    /// `--files-without-match`): its [`Emit::url`] writes nothing and
    /// reads nothing of the URL. The printer may then be given a number
    /// of matches instead of each ([`crate::driver::Report::wants_matches`]).
    fn counts_only(&self) -> bool {
        false
    }

    /// Whether it reads the record (mail message) of a URL
    /// ([`Hit::record`]): a format that prints none says `false`, and
    /// the driver keeps no record for each hit.
    fn reads_records(&self) -> bool {
        true
    }

    /// The folds it takes of the URLs outside records instead of each
    /// ([`crate::driver::Report::folds`]; the printer asks only a writer
    /// that [`Emit::tallies`], when nothing selects among the URLs):
    /// what it would do with each URL, made on the workers. By default,
    /// `None`.
    fn folds(&self) -> Option<Folds> {
        None
    }

    /// URLs folded in `fold` (one made by [`Emit::folds`]), as if each
    /// had come to [`Emit::url`]; returns how many.
    fn folded(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: &Input,
        _: &dyn Fold,
    ) -> io::Result<u64> {
        Ok(0)
    }

    /// Whether it prints every URL it is given from its position and
    /// text alone ([`Emit::urls`]), its prefixes and colours decided by
    /// the options alone: a plain listing.
    fn prints_urls_alone(&self) -> bool {
        false
    }

    /// A batch's URLs, each as [`Emit::url`] would write it with its
    /// URL as its text (asked only when [`Emit::prints_urls_alone`]);
    /// returns how many.
    fn urls(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: BatchUrls<'_>,
    ) -> io::Result<u64> {
        Ok(0)
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
