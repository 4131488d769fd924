//! `--line` and `-A/-B/-C N`: the line that holds each URL, and lines
//! around it, as grep prints them (`PATH:LINE:TEXT` for a line with a
//! URL, `PATH-LINE-TEXT` for context, `--` between groups apart).
//!
//! The driver hands the printer URLs and their offsets, not the text
//! around them, so an input is read a second time, from its start, as
//! its URLs come (in input order, so one pass): the lines are the
//! stored lines, after decompression. What cannot be read twice (stdin,
//! a FIFO) gets the URL alone, as plain output prints it. A line is kept
//! up to [`MAX_LINE`] bytes.
//!
//! In mail, a URL found in text that decoding changed (quoted-printable,
//! base64, `format=flowed`, HTML references, RFC 2047 encoded words)
//! comes with the lines of that text as searched ([`HitLines`]): those
//! are printed, and its context lines are those of the same text. Their
//! numbers are stored line numbers, read from the input as for the
//! other lines: the URL's line is the line its URL starts on (as `-n`
//! says), another line the line its first byte was decoded from.

use crate::container::HitLines;
use crate::driver::InputDone;
use crate::input::{open_stream, Input};
use crate::mail::TextLine;
use crate::output::emit::{color, Ctx, Emit, Tally, Url};
use crate::output::escape;
use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};

/// The longest line kept: the same cut as mail's decoded lines.
pub(crate) use crate::mail::lines::MAX_LINE;

/// A line read again.
#[derive(Debug, Default)]
struct Line {
    /// 1-based.
    number: u64,
    /// Absolute offset of its first byte, and of its end (its line
    /// break, or the end of input).
    start: u64,
    end: u64,
    /// Its first [`MAX_LINE`] bytes, without the line break.
    text: Vec<u8>,
    /// The ranges of URLs in it to highlight, relative to `start`.
    marks: Vec<(usize, usize)>,
    /// It was cut at [`MAX_LINE`].
    cut: bool,
    /// A line of decoded text: the offset of that text's source (it
    /// tells one text from another); `start` and `end` are then in the
    /// text, `stored` where its first byte is stored.
    source: Option<u64>,
    stored: u64,
}

/// Stored lines kept (start, end, number) for the numbers of decoded
/// lines: lines a little behind the reading are found here.
const RECENT: usize = 64;

/// The lines of one input, read forward.
struct Lines {
    rdr: BufReader<Box<dyn Read + Send>>,
    /// The next line's number and offset.
    number: u64,
    offset: u64,
    eof: bool,
}

impl Lines {
    fn open(input: &Input) -> io::Result<Lines> {
        let (_, rdr) = open_stream(input.open()?)?;
        Ok(Lines::new(rdr))
    }

    fn new(rdr: Box<dyn Read + Send>) -> Lines {
        let rdr = BufReader::with_capacity(64 * 1024, rdr);
        Lines { rdr, number: 1, offset: 0, eof: false }
    }

    /// The next line, its text cut at [`MAX_LINE`]; `None` at the end.
    fn next(&mut self) -> io::Result<Option<Line>> {
        if self.eof {
            return Ok(None);
        }
        let mut line = Line {
            number: self.number,
            start: self.offset,
            ..Line::default()
        };
        let mut len = 0u64;
        let mut any = false;
        loop {
            let buf = self.rdr.fill_buf()?;
            if buf.is_empty() {
                self.eof = true;
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (piece, used, ended) = match memchr::memchr(b'\n', buf) {
                Some(i) => (buf.get(..i).unwrap_or_default(), i + 1, true),
                None => (buf, buf.len(), false),
            };
            let room = MAX_LINE.saturating_sub(line.text.len());
            let kept = piece.get(..room.min(piece.len())).unwrap_or_default();
            line.text.extend_from_slice(kept);
            len += piece.len() as u64;
            self.rdr.consume(used);
            if ended {
                self.offset += 1;
                break;
            }
        }
        self.offset += len;
        self.number += 1;
        line.end = line.start + len;
        line.stored = line.start;
        line.cut = len > line.text.len() as u64;
        Ok(Some(line))
    }
}

/// The context writer.
#[derive(Default)]
pub(super) struct ContextLines {
    /// The input's name, escaped and coloured, without its separator;
    /// empty without `--with-filename`.
    name: Vec<u8>,
    /// The current input's lines, once a URL asked for them; `None`
    /// when it cannot be read again (then URLs are printed alone).
    lines: Option<Lines>,
    opened: bool,
    /// The lines with URLs not yet written (one, or more for a URL that
    /// spans lines), and the lines read before them (at most `-B`).
    pending: Vec<Line>,
    before: VecDeque<Line>,
    /// Context lines still owed after the last line with a URL.
    after_left: usize,
    /// The after-context of the last decoded group, not yet written: a
    /// next URL's group may hold them.
    after_pending: Vec<Line>,
    /// The last stored line read and not yet passed by the stored-line
    /// reading, and the last few read (start, end, number).
    cur: Option<Line>,
    recent: VecDeque<(u64, u64, u64)>,
    /// The last decoded line written: its text, its end.
    last_key: Option<(u64, u64)>,
    /// The number of the last line written, in this input (0: none
    /// yet, so a group of another input is apart, as grep has it).
    last: u64,
    /// Something was written (a `--` goes before the next group apart).
    wrote: bool,
}

impl std::fmt::Debug for ContextLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ContextLines")
    }
}

impl ContextLines {
    /// Writes one line: `NAME:LINE:OFFSET:TEXT` (`-` for context).
    fn write<W: Write>(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        line: &Line,
        sep: u8,
    ) -> io::Result<()> {
        let context = cx.opts.context.is_some_and(|(b, a)| b + a > 0);
        let apart = match line.source {
            Some(src) => self
                .last_key
                .is_none_or(|(s, e)| s != src || line.start > e + 1),
            None => {
                self.last_key.is_some()
                    || self.last == 0
                    || line.number > self.last + 1
            }
        };
        if context && self.wrote && apart {
            out.write_all(b"--\n")?;
        }
        self.wrote = true;
        self.last = line.number;
        self.last_key = line.source.map(|s| (s, line.end));
        if !self.name.is_empty() {
            out.write_all(&self.name)?;
            out.write_all(&[sep])?;
        }
        if cx.opts.line_number {
            let (on, off) = cx.paint(color::LINE);
            out.write_all(on)?;
            write!(out, "{}", line.number)?;
            out.write_all(off)?;
            out.write_all(&[sep])?;
        }
        if cx.opts.byte_offset {
            write!(out, "{}", line.stored)?;
            out.write_all(&[sep])?;
        }
        let text = line.text.strip_suffix(b"\r").unwrap_or(&line.text);
        let mut at = 0;
        for &(a, b) in &line.marks {
            let (a, b) = (a.clamp(at, text.len()), b.clamp(at, text.len()));
            out.write_all(&escape::text(text.get(at..a).unwrap_or_default()))?;
            let (on, off) = cx.paint(color::URL);
            out.write_all(on)?;
            out.write_all(&escape::text(text.get(a..b).unwrap_or_default()))?;
            out.write_all(off)?;
            at = b;
        }
        out.write_all(&escape::text(text.get(at..).unwrap_or_default()))?;
        if line.cut {
            // Cut at MAX_LINE: said, not hidden.
            out.write_all("…".as_bytes())?;
        }
        out.write_all(b"\n")
    }

    /// Writes the pending lines with URLs.
    fn flush_pending<W: Write>(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
    ) -> io::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        if pending.is_empty() {
            return Ok(());
        }
        for line in &pending {
            self.write(out, cx, line, b':')?;
        }
        if pending.iter().all(|l| l.source.is_none()) {
            self.after_left = cx.opts.context.map_or(0, |(_, a)| a);
        }
        Ok(())
    }

    /// The next stored line: the one held back, or the next read.
    fn next_line(&mut self) -> io::Result<Option<Line>> {
        if let Some(line) = self.cur.take() {
            return Ok(Some(line));
        }
        let Some(lines) = &mut self.lines else { return Ok(None) };
        let Some(line) = lines.next()? else { return Ok(None) };
        if self.recent.len() == RECENT {
            self.recent.pop_front();
        }
        self.recent.push_back((line.start, line.end, line.number));
        Ok(Some(line))
    }

    /// The number of the stored line that holds `offset`, read on to
    /// (the line kept back for the stored-line reading); `None` when
    /// the input cannot be read again or ended first. An offset behind
    /// the lines kept gets the oldest kept.
    fn number_at(&mut self, offset: u64) -> io::Result<Option<u64>> {
        loop {
            // Kept lines are in order: the first that ends at or after
            // `offset` holds it.
            if let Some(r) = self.recent.iter().find(|r| offset <= r.1) {
                return Ok(Some(r.2));
            }
            let Some(line) = self.next_line()? else { return Ok(None) };
            if offset <= line.end {
                self.cur = Some(line);
            }
        }
    }

    /// Writes the after-context held of the last decoded group (all of
    /// it, or those before `before` in text `source`).
    fn flush_after<W: Write>(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        before: Option<(u64, u64)>,
    ) -> io::Result<()> {
        for l in std::mem::take(&mut self.after_pending) {
            let held = before.is_some_and(|(src, first)| {
                l.source == Some(src) && l.start >= first
            });
            if !held {
                self.write(out, cx, &l, b'-')?;
            }
        }
        Ok(())
    }

    /// A URL that comes with its decoded lines.
    fn decoded<W: Write>(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
        hl: &HitLines<'_>,
    ) -> io::Result<()> {
        let src = hl.offset;
        let (start, end) = (hl.url.0, hl.url.1.max(hl.url.0 + 1));
        let all = hl.lines.lines();
        // Another URL on lines already pending: marked there, and the
        // lines it runs on to (wrapped) added, with its after-context.
        if let Some(first) = self.pending.first() {
            if first.source == Some(src)
                && start >= first.start
                && self.pending.last().is_some_and(|l| start <= l.end)
            {
                let last = self.pending.last().map_or(0, |l| l.end);
                self.after_pending.clear();
                for l in all.iter().filter(|l| l.range().0 > last) {
                    let line = self.decoded_line(l, src, src + l.stored())?;
                    match l.holds_url() {
                        true => self.pending.push(line),
                        false => self.after_pending.push(line),
                    }
                }
                mark(&mut self.pending, start, end, url.hit.url);
                return Ok(());
            }
        }
        self.flush_pending(out, cx)?;
        let first = all.first().map_or(0, |l| l.range().0);
        self.flush_after(out, cx, Some((src, first)))?;
        // The stored lines up to this text: owed after-context of a
        // URL of stored text is written, the rest passed.
        if let Some(l) = all.first() {
            let at = src + l.stored();
            let behind = self.recent.back().is_some_and(|r| at <= r.1);
            if !behind && self.after_left > 0 {
                if let Some(line) = self.read_to(out, cx, at)? {
                    self.cur = Some(line);
                }
            }
        }
        self.before.clear();
        self.after_left = 0;
        let mut url_line = true;
        for l in all {
            // The URL's line is numbered by the line the URL starts on.
            let at = match l.holds_url() && url_line {
                true => url.hit.at.start,
                false => src + l.stored(),
            };
            let mut line = self.decoded_line(l, src, at)?;
            if line.number == 0 {
                line.number = url.hit.at.line;
            }
            let a = line.start;
            if l.holds_url() {
                url_line = false;
                self.pending.push(line);
            } else if !self.pending.is_empty() {
                self.after_pending.push(line);
            } else if self.last_key.is_none_or(|(s, e)| s != src || a > e) {
                self.write(out, cx, &line, b'-')?;
            }
        }
        mark(&mut self.pending, start, end, url.hit.url);
        Ok(())
    }

    /// A decoded line of the text whose source is at `src`, numbered by
    /// the stored line that holds `at` (0 when the input cannot be
    /// read again).
    fn decoded_line(
        &mut self,
        l: &TextLine,
        src: u64,
        at: u64,
    ) -> io::Result<Line> {
        let (start, end) = l.range();
        Ok(Line {
            number: self.number_at(at)?.unwrap_or(0),
            start,
            end,
            text: l.text().to_vec(),
            marks: Vec::new(),
            cut: l.is_cut(),
            source: Some(src),
            stored: src + l.stored(),
        })
    }

    /// Reads on to the line that holds `offset`: lines before it are
    /// after-context owed, or kept as before-context. `None` when the
    /// input ended first.
    fn read_to<W: Write>(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        offset: u64,
    ) -> io::Result<Option<Line>> {
        let keep = cx.opts.context.map_or(0, |(b, _)| b);
        loop {
            let Some(line) = self.next_line()? else { return Ok(None) };
            if offset <= line.end {
                return Ok(Some(line));
            }
            if self.after_left > 0 {
                self.after_left -= 1;
                self.write(out, cx, &line, b'-')?;
            } else if keep > 0 {
                if self.before.len() == keep {
                    self.before.pop_front();
                }
                self.before.push_back(line);
            }
        }
    }
}

impl<W: Write> Emit<W> for ContextLines {
    fn begin(
        &mut self,
        _: &mut W,
        cx: &Ctx<'_>,
        input: &Input,
    ) -> io::Result<()> {
        self.name.clear();
        if cx.opts.with_filename {
            // Ctx::name writes its separator last: dropped here, as the
            // separator differs for context lines.
            cx.name(&mut self.name, &input.source, b':')?;
            self.name.pop();
        }
        self.lines = None;
        self.opened = false;
        self.pending.clear();
        self.before.clear();
        self.after_left = 0;
        self.after_pending.clear();
        self.cur = None;
        self.recent.clear();
        self.last = 0;
        self.last_key = None;
        Ok(())
    }

    fn url(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()> {
        if !self.opened {
            self.opened = true;
            // Only a regular file is read again: a FIFO would give
            // other bytes. A file that cannot be opened again (gone
            // since) gets its URLs alone.
            if url.input.regular {
                self.lines = Lines::open(url.input).ok();
            }
        }
        if let Some(hl) = url.hit.record.as_ref().and_then(|r| r.mail()?.lines)
        {
            return self.decoded(out, cx, url, &hl);
        }
        let (start, end) =
            (url.hit.at.start, url.hit.at.end.max(url.hit.at.start + 1));
        // Another URL on a line already pending: marked there.
        if let Some(first) = self.pending.first() {
            if first.source.is_none()
                && start >= first.start
                && self.pending.last().is_some_and(|l| start <= l.end)
            {
                mark(&mut self.pending, start, end, url.hit.url);
                return Ok(());
            }
        }
        self.flush_pending(out, cx)?;
        self.flush_after(out, cx, None)?;
        let line = match self.read_to(out, cx, start)? {
            Some(line) if start >= line.start => line,
            // Not readable again, or out of order: the URL alone.
            _ => {
                self.lines = None;
                if !self.name.is_empty() {
                    out.write_all(&self.name)?;
                    out.write_all(b":")?;
                }
                return out
                    .write_all(&escape::url(url.text))
                    .and_then(|()| out.write_all(b"\n"));
            }
        };
        // The context before, then the line (and those a wrapped URL
        // runs on to).
        let before = std::mem::take(&mut self.before);
        for l in &before {
            if l.number > self.last {
                self.write(out, cx, l, b'-')?;
            }
        }
        self.after_left = 0;
        let mut last_end = line.end;
        self.pending.push(line);
        while end > last_end + 1 {
            let Some(lines) = &mut self.lines else { break };
            let Some(next) = lines.next()? else { break };
            last_end = next.end;
            self.pending.push(next);
        }
        mark(&mut self.pending, start, end, url.hit.url);
        Ok(())
    }

    fn end(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        _: &Input,
        _: &InputDone,
        _: &Tally,
    ) -> io::Result<()> {
        self.flush_pending(out, cx)?;
        self.flush_after(out, cx, None)?;
        while self.after_left > 0 {
            let Some(line) = self.next_line()? else { break };
            self.after_left -= 1;
            self.write(out, cx, &line, b'-')?;
        }
        self.lines = None;
        self.cur = None;
        Ok(())
    }
}

/// Marks `[start, end)` (absolute) in the lines it covers; a span on
/// one line is narrowed from the stored bytes (delimiters included:
/// `<…>`, `"…"`) to the URL inside them, when it is written there as is.
fn mark(lines: &mut [Line], start: u64, end: u64, url: &[u8]) {
    let covered =
        lines.iter().filter(|l| start.max(l.start) < end.min(l.end)).count();
    for l in lines {
        let (a, b) = (start.max(l.start), end.min(l.end));
        if a >= b {
            continue;
        }
        let rel = |x: u64| usize::try_from(x - l.start).unwrap_or(usize::MAX);
        let (mut a, mut b) = (rel(a), rel(b));
        let span = l.text.get(a..b.min(l.text.len())).unwrap_or_default();
        if covered == 1 {
            if let Some(i) = memchr::memmem::find(span, url) {
                (a, b) = (a + i, a + i + url.len());
            }
        }
        l.marks.push((a, b));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &'static [u8]) -> Vec<(u64, u64, u64, usize)> {
        let mut l = Lines::new(Box::new(text));
        let mut all = Vec::new();
        while let Some(line) = l.next().expect("a read") {
            all.push((line.number, line.start, line.end, line.text.len()));
        }
        all
    }

    #[test]
    fn lines_and_offsets() {
        assert_eq!(
            lines(b"a\nbc\n\nd"),
            [(1, 0, 1, 1), (2, 2, 4, 2), (3, 5, 5, 0), (4, 6, 7, 1)]
        );
        assert_eq!(lines(b""), []);
        assert_eq!(lines(b"x\n"), [(1, 0, 1, 1)]);
    }

    /// A long line is counted whole and kept up to MAX_LINE.
    #[test]
    fn long_lines_are_cut() {
        let long: &'static [u8] = Box::leak(
            [vec![b'a'; 5 * MAX_LINE], b"\nb\n".to_vec()]
                .concat()
                .into_boxed_slice(),
        );
        let n = 5 * MAX_LINE as u64;
        assert_eq!(lines(long), [(1, 0, n, MAX_LINE), (2, n + 1, n + 2, 1)]);
    }

    #[test]
    fn marks_narrow_to_the_url() {
        let mut l = vec![Line {
            number: 1,
            start: 10,
            end: 30,
            text: b"see <http://a.b/> x".to_vec(),
            marks: vec![],
            ..Line::default()
        }];
        mark(&mut l, 14, 27, b"http://a.b/");
        assert_eq!(l[0].marks, [(5, 16)]);
        // Over two lines: the stored span, each part.
        let mut l = vec![
            Line {
                number: 1,
                start: 0,
                end: 5,
                text: b"<URL:".to_vec(),
                marks: vec![],
                ..Line::default()
            },
            Line {
                number: 2,
                start: 6,
                end: 10,
                text: b"a:b>".to_vec(),
                marks: vec![],
                ..Line::default()
            },
        ];
        mark(&mut l, 0, 10, b"a:b");
        assert_eq!(
            (l[0].marks.clone(), l[1].marks.clone()),
            (vec![(0, 5)], vec![(0, 4)])
        );
    }
}
