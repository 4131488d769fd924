//! Plain lines: one URL a line, with the grep-style prefixes asked for
//! (`PATH:LINE:OFFSET:URL`), and ` reject: REASON: TEXT` lines under
//! `--rejects`.

use super::escape;
use super::printer::{Ctx, Emit, Url};
use crate::parse::Reject;
use std::io::{self, Write};

/// The plain-lines writer.
#[derive(Debug)]
pub(super) struct PlainLines;

/// The grep-style prefix of a line: name, line number, offset.
fn prefix<W: Write>(
    out: &mut W,
    cx: &Ctx<'_>,
    url: &Url<'_>,
    offset: bool,
) -> io::Result<()> {
    if cx.opts.with_filename {
        cx.name(out, &url.input.source, b':')?;
    }
    if cx.opts.line_number {
        write!(out, "{}:", url.hit.at.line)?;
    }
    if offset {
        write!(out, "{}:", url.hit.at.start)?;
    }
    Ok(())
}

impl<W: Write> Emit<W> for PlainLines {
    fn url(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()> {
        prefix(out, cx, url, cx.opts.byte_offset)?;
        out.write_all(&escape::url(url.text))?;
        out.write_all(b"\n")?;
        if cx.opts.line_buffered {
            out.flush()?;
        }
        Ok(())
    }

    fn reject(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
        reject: Reject,
    ) -> io::Result<()> {
        prefix(out, cx, url, true)?;
        write!(out, " reject: {}: ", reject.name())?;
        // A rejected text may hold any byte: escaped, so that no control
        // reaches a terminal.
        out.write_all(&escape::text(url.text))?;
        out.write_all(b"\n")
    }
}
