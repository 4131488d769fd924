//! File lists: the names of the inputs with a selected URL
//! (`-l/--files-with-matches`) or without one (`--files-without-match`),
//! one a line, or each followed by a NUL under `-0/--null`.

use crate::driver::InputDone;
use crate::input::Input;
use crate::output::emit::{Ctx, Emit, Tally, Url};
use std::io::{self, Write};

/// The file-list writer.
#[derive(Debug)]
pub(super) struct FileNames {
    /// List the inputs with a match (`-l`), else those without.
    with_match: bool,
    /// Names listed so far.
    listed: u64,
}

impl FileNames {
    /// `-l`: the inputs with a selected URL.
    pub(super) fn with_match() -> FileNames {
        FileNames { with_match: true, listed: 0 }
    }

    /// `--files-without-match`: the inputs without one.
    pub(super) fn without_match() -> FileNames {
        FileNames { with_match: false, listed: 0 }
    }
}

impl<W: Write> Emit<W> for FileNames {
    fn counts_only(&self) -> bool {
        true
    }

    fn reads_records(&self) -> bool {
        false
    }

    fn url(&mut self, _: &mut W, _: &Ctx<'_>, _: &Url<'_>) -> io::Result<()> {
        Ok(())
    }

    fn end(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
        _: &InputDone,
        tally: &Tally,
    ) -> io::Result<()> {
        if (tally.printed > 0) != self.with_match {
            return Ok(());
        }
        self.listed += 1;
        cx.name(out, &input.source, b'\n')
    }

    fn listed(&self) -> Option<bool> {
        Some(self.listed > 0)
    }
}
