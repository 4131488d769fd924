//! Plain lines: one URL a line, with the grep-style prefixes asked for
//! (`PATH:LINE:OFFSET:URL`), and ` reject: REASON: TEXT` lines under
//! `--rejects`.

use crate::driver::BatchUrls;
use crate::input::Input;
use crate::output::emit::{color, Ctx, Emit, Url};
use crate::output::escape;
use crate::output::json_fast::decimal;
use crate::parse::Reject;
use crate::search::Position;
use std::io::{self, Write};

/// The plain-lines writer.
#[derive(Debug, Default)]
pub(super) struct PlainLines {
    /// The current input's name as every line prints it (escaped, with
    /// its separator), written once at [`Emit::begin`]: escaping the
    /// name again for every URL cost a tenth of a run over a Maildir
    /// folder. Empty without `--with-filename`.
    name: Vec<u8>,
    /// Under `-n` alone, the line number last written, and its digits
    /// and `:` (how many bytes: 0 before the first): a line of many URLs
    /// (issue 33's text) writes it again with one copy, not made anew
    /// and written in two.
    number: (u64, [u8; 24], usize),
}

/// The grep-style prefix of a line: name (`name`, already written out),
/// line number, offset.
#[inline(never)]
fn prefix<W: Write>(
    out: &mut W,
    cx: &Ctx<'_>,
    name: &[u8],
    at: &Position,
    offset: bool,
) -> io::Result<()> {
    if !name.is_empty() {
        out.write_all(name)?;
    }
    if cx.opts.line_number {
        let mut digits = [0; 20];
        let line = decimal(at.line, &mut digits);
        // No writes of empty colour codes (a third of the prefix).
        if cx.opts.color {
            out.write_all(color::LINE)?;
            out.write_all(line)?;
            out.write_all(color::RESET)?;
        } else {
            out.write_all(line)?;
        }
        out.write_all(b":")?;
    }
    if offset {
        out.write_all(decimal(at.start, &mut [0; 20]))?;
        out.write_all(b":")?;
    }
    Ok(())
}

impl PlainLines {
    /// Writes the line of a URL at `at` whose printed text is `text`.
    #[inline(always)]
    fn line<W: Write>(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        at: &Position,
        text: &[u8],
    ) -> io::Result<()> {
        // Most runs print no prefix: not even a call for it then (its
        // entry and exit were 26 instructions a URL). `-n` alone writes
        // its number here, with no call either (issue 33: a URL every
        // 18 bytes spent 84 instructions a URL in the call).
        if !self.name.is_empty() || cx.opts.byte_offset || cx.opts.color {
            if !self.name.is_empty()
                || cx.opts.line_number
                || cx.opts.byte_offset
            {
                prefix(out, cx, &self.name, at, cx.opts.byte_offset)?;
            }
        } else if cx.opts.line_number {
            let (line, digits, len) = &mut self.number;
            if *line != at.line {
                // A new line: its number written as it is made, and kept
                // only when a second URL of the line asks for it (a copy
                // for every URL cost mail a `memcpy` call a URL).
                let mut all = [0; 20];
                let d = decimal(at.line, &mut all);
                out.write_all(d)?;
                out.write_all(b":")?;
                (*line, *len) = (at.line, 0);
            } else {
                if *len == 0 {
                    let mut all = [0; 20];
                    let d = decimal(at.line, &mut all);
                    if let Some(to) = digits.get_mut(..d.len()) {
                        to.copy_from_slice(d);
                    }
                    if let Some(colon) = digits.get_mut(d.len()) {
                        *colon = b':';
                    }
                    *len = d.len() + 1;
                }
                out.write_all(digits.get(..*len).unwrap_or_default())?;
            }
        }
        if cx.opts.color {
            out.write_all(color::URL)?;
            out.write_all(&escape::url(text))?;
            out.write_all(color::RESET)?;
        } else {
            out.write_all(&escape::url(text))?;
        }
        out.write_all(b"\n")?;
        if cx.opts.line_buffered {
            out.flush()?;
        }
        Ok(())
    }
}

impl<W: Write> Emit<W> for PlainLines {
    fn reads_records(&self) -> bool {
        false
    }

    fn begin(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
    ) -> io::Result<()> {
        self.name.clear();
        if cx.opts.with_filename {
            cx.name(&mut self.name, &input.source, b':')?;
        }
        Ok(())
    }

    fn prints_urls_alone(&self) -> bool {
        true
    }

    fn urls(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        urls: BatchUrls<'_>,
    ) -> io::Result<u64> {
        for (at, text) in urls.iter() {
            self.line(out, cx, &at, text)?;
        }
        Ok(urls.len() as u64)
    }

    fn url(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()> {
        self.line(out, cx, &url.hit.at, url.text)
    }

    fn reject(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
        reject: Reject,
    ) -> io::Result<()> {
        prefix(out, cx, &self.name, &url.hit.at, true)?;
        write!(out, " reject: {}: ", reject.name())?;
        // A rejected text may hold any byte: escaped, so that no control
        // reaches a terminal.
        out.write_all(&escape::text(url.text))?;
        out.write_all(b"\n")
    }
}
