//! Counts: one line per input with the number of URLs printed of it
//! (`PATH:COUNT`, after `--unique`).

use crate::driver::InputDone;
use crate::input::Input;
use crate::output::emit::{Ctx, Emit, Tally, Url};
use std::io::{self, Write};

/// The counts writer.
#[derive(Debug)]
pub(super) struct CountLines;

impl<W: Write> Emit<W> for CountLines {
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
        if cx.opts.with_filename {
            cx.name(out, &input.source, b':')?;
        }
        writeln!(out, "{}", tally.printed)
    }
}
