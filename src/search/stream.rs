//! The reader search: bounded memory, absolute offsets, line numbers.
//!
//! Why a push sink ([`Sink`]) and not an iterator of borrowed matches: a
//! match borrows the internal buffer, which the next read overwrites, so it
//! cannot escape a plain `Iterator::next`. [`ReaderIter`] is the owned
//! convenience on top (one allocation per match).

use super::buffer::read_retry;
use super::finder::{Candidate, Finder, Inner, Match};
use super::lines::LineCounter;
use crate::scan::{Hay, Raw, Step, LOOK_BEHIND};
use std::io::{self, Read};

/// Where a match or candidate stands in the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Position {
    /// Absolute byte offset of the first byte (delimiters included).
    pub start: u64,
    /// Absolute byte offset one past the last byte.
    pub end: u64,
    /// 1-based line number of `start` (0 when line counting is off).
    pub line: u64,
    /// 1-based byte column of `start` (0 when line counting is off).
    pub column: u64,
}

/// Receives the results of [`Finder::find_reader`].
pub trait Sink {
    /// The error the sink may fail with; read errors convert into it.
    type Error: From<io::Error>;

    /// A URL. Return `Ok(false)` to stop the search.
    fn matched(
        &mut self,
        at: &Position,
        m: &Match<'_>,
    ) -> Result<bool, Self::Error>;

    /// A candidate the validator rejected. Return `Ok(false)` to stop. By
    /// default, ignored.
    fn rejected(
        &mut self,
        at: &Position,
        c: &Candidate<'_>,
    ) -> Result<bool, Self::Error> {
        let _ = (at, c);
        Ok(true)
    }
}

/// A [`Sink`] that counts the rejected candidates without reading them
/// ([`Finder::find_reader_counted`]).
pub(crate) trait Counts {
    /// `n` more rejected candidates, passed over and not handed to
    /// [`Sink::rejected`].
    fn rejected_counted(&mut self, n: u64);
}

/// A match with its position, owning its URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnedMatch {
    /// Where it was.
    pub position: Position,
    /// The match (its span is relative to an internal buffer).
    pub m: Match<'static>,
}

impl Finder {
    /// Searches a reader, pushing each match and rejected candidate into
    /// `sink` with its absolute position. Memory stays bounded: one buffer
    /// of [`crate::FinderBuilder::buffer_capacity`] plus at most one
    /// candidate's length cap.
    pub fn find_reader<R: Read, S: Sink>(
        &self,
        rdr: R,
        sink: &mut S,
    ) -> Result<(), S::Error> {
        let mut stream = Stream::new(self.inner(), rdr);
        while let Some((at, raw)) = stream.next()? {
            let c = Candidate::from_raw(raw, stream.window());
            let go_on = match c.reject {
                None => sink.matched(&at, &c.body)?,
                Some(_) => sink.rejected(&at, &c)?,
            };
            if !go_on {
                break;
            }
        }
        Ok(())
    }

    /// [`Finder::find_reader`] for a sink that only counts the rejected
    /// candidates: they are passed over inside the scanner's step and
    /// their number given to [`Counts::rejected_counted`] (before the
    /// match that follows them, and at the end), none built and handed
    /// to [`Sink::rejected`]. On `http:// ` repeated, a rejected
    /// candidate every 8 bytes, each returned was most of the cost.
    pub(crate) fn find_reader_counted<R: Read, S: Sink + Counts>(
        &self,
        rdr: R,
        sink: &mut S,
    ) -> Result<(), S::Error> {
        let mut stream = Stream::new(self.inner(), rdr);
        stream.counted = true;
        while let Some((at, raw)) = stream.next()? {
            if stream.rejected > 0 {
                sink.rejected_counted(std::mem::take(&mut stream.rejected));
            }
            let c = Candidate::from_raw(raw, stream.window());
            if !sink.matched(&at, &c.body)? {
                return Ok(());
            }
        }
        if stream.rejected > 0 {
            sink.rejected_counted(stream.rejected);
        }
        Ok(())
    }

    /// The matches of a reader as owned values; see
    /// [`Finder::find_reader`].
    pub fn reader_iter<R: Read>(&self, rdr: R) -> ReaderIter<'_, R> {
        ReaderIter { stream: Stream::new(self.inner(), rdr), done: false }
    }
}

/// Iterator over the matches of a reader; see [`Finder::reader_iter`].
#[derive(Debug)]
pub struct ReaderIter<'f, R> {
    stream: Stream<'f, R>,
    done: bool,
}

impl<R: Read> Iterator for ReaderIter<'_, R> {
    type Item = io::Result<OwnedMatch>;

    fn next(&mut self) -> Option<io::Result<OwnedMatch>> {
        while !self.done {
            match self.stream.next() {
                Ok(Some((position, raw))) => {
                    let c = Candidate::from_raw(raw, self.stream.window());
                    if c.reject.is_none() {
                        let m = c.body.into_owned();
                        return Some(Ok(OwnedMatch { position, m }));
                    }
                }
                Ok(None) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
        None
    }
}

/// Alignment of the window start: reads into page-aligned memory keep the
/// SIMD scan at its floor (DESIGN.md, "Rules that keep it fast").
const ALIGN: usize = 4096;

/// The buffered window over a reader.
///
/// Invariants:
/// - `buf[base..base + len]` holds input bytes `[abs, abs + len)`;
///   `base` makes the window start page-aligned.
/// - every trigger before `pos` has been handled; `floor <= pos <= len`.
/// - when bytes are dropped from the front, at least [`LOOK_BEHIND`] bytes
///   before `pos` stay, so the scanner's look-behind sees what it would see
///   in a slice search (or the window starts at input offset 0).
/// - `lines` has counted no further than the window's start when bytes
///   are dropped (it counts on from the window).
#[derive(Debug)]
struct Stream<'f, R> {
    inner: &'f Inner,
    rdr: R,
    buf: Vec<u8>,
    base: usize,
    len: usize,
    abs: u64,
    pos: usize,
    floor: usize,
    eof: bool,
    lines: LineCounter,
    /// Rejected candidates are passed over inside the step and counted
    /// in `rejected` ([`Finder::find_reader_counted`]), not returned.
    counted: bool,
    rejected: u64,
}

thread_local! {
    /// The buffer of the last stream this thread dropped, for the next
    /// one: a web archive searches a stream per record, and a fresh
    /// buffer zeroed for each (`vec![0; …]`, 260 KiB) was 6.6% of the CPU
    /// of a `.warc.gz` of 78,000 records.
    static SPARE: std::cell::Cell<Vec<u8>> = const {
        std::cell::Cell::new(Vec::new())
    };
}

/// A buffer longer than this is not kept for the next stream (one that
/// grew for a long candidate).
const KEEP: usize = 1 << 20;

impl<R> Drop for Stream<'_, R> {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        if buf.len() <= KEEP {
            SPARE.with(|s| s.set(buf));
        }
    }
}

impl<'f, R: Read> Stream<'f, R> {
    fn new(inner: &'f Inner, rdr: R) -> Stream<'f, R> {
        // A buffer left by an earlier stream, its window start aligned
        // as `reserve` aligns it; its old bytes are never read (the
        // window is empty).
        let buf = SPARE.with(|s| s.take());
        let base = buf.as_ptr().align_offset(ALIGN).min(ALIGN).min(buf.len());
        Stream {
            inner,
            rdr,
            buf,
            base,
            len: 0,
            abs: 0,
            pos: 0,
            floor: 0,
            eof: false,
            lines: LineCounter::default(),
            counted: false,
            rejected: 0,
        }
    }

    /// The current window.
    fn window(&self) -> &[u8] {
        &self.buf[self.base..self.base + self.len]
    }

    /// The next candidate, window-relative, with its absolute position.
    fn next(&mut self) -> io::Result<Option<(Position, Raw)>> {
        loop {
            let hay = Hay { bytes: self.window(), eof: self.eof };
            let (cfg, pos, floor) = (&self.inner.cfg, self.pos, self.floor);
            let mut rejected = 0;
            let step = match self.counted {
                true => {
                    let count = &mut rejected;
                    cfg.step_accepted(hay, pos, floor, usize::MAX, count)
                }
                false => cfg.step(hay, pos, floor),
            };
            self.rejected += rejected;
            // (The floor of `Done` and `NeedMore` is the one given but
            // past the rejected candidates passed over.)
            match step {
                Step::Found(raw, resume) => {
                    self.pos = resume;
                    self.floor = resume;
                    let at = self.position(raw.span.start, raw.span.end);
                    return Ok(Some((at, raw)));
                }
                Step::Done { floor } if self.eof => {
                    (self.pos, self.floor) = (self.len, floor);
                    return Ok(None);
                }
                Step::Done { floor } => {
                    (self.pos, self.floor) = (self.len, floor);
                    self.refill(1)?;
                }
                Step::NeedMore { at, floor } => {
                    self.floor = floor;
                    // Read at least as much again as the unfinished
                    // candidate holds: the scanner restarts at its
                    // trigger, and a reader that returns a few bytes per
                    // call would otherwise have it re-read the candidate
                    // after every few bytes, up to the length cap squared
                    // per candidate. Doubling keeps it linear.
                    let pending = self.len - at;
                    self.pos = at;
                    self.refill(pending)?;
                }
            }
        }
    }

    /// The absolute position of window range `[start, end)`.
    fn position(&mut self, start: usize, end: usize) -> Position {
        let (mut line, mut column) = (0, 0);
        if self.inner.lines {
            let window = &self.buf[self.base..self.base + self.len];
            let q = self.abs + start as u64;
            (line, column) = self.lines.at(window, self.abs, q);
        }
        Position {
            start: self.abs + start as u64,
            end: self.abs + end as u64,
            line,
            column,
        }
    }

    /// Drops what is no longer needed and reads more input: at least
    /// `at_least` bytes (at most the buffer capacity, and fewer only at
    /// the end of input).
    fn refill(&mut self, at_least: usize) -> io::Result<()> {
        let keep = self.pos.saturating_sub(LOOK_BEHIND);
        if keep > 0 {
            if self.inner.lines {
                let window = &self.buf[self.base..self.base + self.len];
                let q = self.abs + keep as u64;
                self.lines.skip_to(window, self.abs, q);
            }
            self.buf.copy_within(
                self.base + keep..self.base + self.len,
                self.base,
            );
            self.len -= keep;
            self.abs += keep as u64;
            self.pos -= keep;
            self.floor = self.floor.saturating_sub(keep);
        }
        let want = self.inner.capacity;
        let at_least = at_least.clamp(1, want);
        self.reserve(want);
        let start = self.base + self.len;
        let mut got = 0;
        while got < at_least {
            let dst = &mut self.buf[start + got..start + want];
            match read_retry(|b| self.rdr.read(b), dst)? {
                0 => {
                    self.eof = true;
                    break;
                }
                n => {
                    got += n;
                    self.len += n;
                }
            }
        }
        Ok(())
    }

    /// Makes room for `want` more bytes after the window, keeping the
    /// window start page-aligned.
    fn reserve(&mut self, want: usize) {
        if self.base + self.len + want <= self.buf.len() {
            return;
        }
        let size = (self.len + want).next_multiple_of(ALIGN) + ALIGN;
        let mut buf = vec![0u8; size];
        let base = buf.as_ptr().align_offset(ALIGN).min(ALIGN);
        buf[base..base + self.len]
            .copy_from_slice(&self.buf[self.base..self.base + self.len]);
        self.buf = buf;
        self.base = base;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_lines() {
        let text = b"one\ntwo http://a.b/\n<URL:http://c.\n d/>\n";
        for cap in [1, 2, 3, 7, 64, 4096] {
            let f = Finder::builder().buffer_capacity(cap).build();
            let mut sink = Tally::default();
            f.find_reader(&text[..], &mut sink).unwrap();
            let got: Vec<_> = sink
                .matches
                .iter()
                .map(|(p, u)| (p.start, p.line, p.column, u.clone()))
                .collect();
            assert_eq!(
                got,
                vec![
                    (8, 2, 5, b"http://a.b/".to_vec()),
                    (20, 3, 1, b"http://c.d/".to_vec()),
                ],
                "capacity {cap}"
            );
        }
    }

    /// Every candidate, and how many were rejected: by the full reader
    /// search, or by the counting one.
    #[derive(Default)]
    struct Tally {
        matches: Vec<(Position, Vec<u8>)>,
        rejected: u64,
        counted: u64,
    }

    impl Sink for Tally {
        type Error = io::Error;
        fn matched(
            &mut self,
            at: &Position,
            m: &Match<'_>,
        ) -> io::Result<bool> {
            self.matches.push((*at, m.url().to_vec()));
            Ok(true)
        }
        fn rejected(
            &mut self,
            _: &Position,
            _: &Candidate<'_>,
        ) -> io::Result<bool> {
            self.rejected += 1;
            Ok(true)
        }
    }

    impl Counts for Tally {
        fn rejected_counted(&mut self, n: u64) {
            self.counted += n;
        }
    }

    /// The counting reader search finds the matches the full one finds,
    /// at the same positions, and counts the rejects it hands over,
    /// whatever the buffer (candidates straddling the refills).
    #[test]
    fn counted_reader_search_equals_the_full_one() {
        let mut text = Vec::new();
        for i in 0..50 {
            text.extend_from_slice(b"x http:// \"http: <URL:http://a");
            text.extend_from_slice(format!("{i}.b:99999/> ").as_bytes());
            text.extend_from_slice(
                format!("http://ok{i}.example/\n").as_bytes(),
            );
        }
        for cap in [1, 2, 3, 7, 64, 1 << 20] {
            let f = Finder::builder().buffer_capacity(cap).build();
            let mut full = Tally::default();
            f.find_reader(&text[..], &mut full).unwrap();
            let mut counted = Tally::default();
            f.find_reader_counted(&text[..], &mut counted).unwrap();
            assert_eq!(full.matches.len(), 50, "capacity {cap}");
            assert!(full.rejected >= 100, "capacity {cap}");
            assert_eq!(counted.matches, full.matches, "capacity {cap}");
            assert_eq!(
                (counted.rejected, counted.counted),
                (0, full.rejected),
                "capacity {cap}"
            );
        }
    }

    #[test]
    fn window_stays_bounded_without_newlines() {
        let f = Finder::builder().buffer_capacity(1024).build();
        let big = vec![b'x'; 4 << 20];
        let mut stream = Stream::new(f.inner(), &big[..]);
        while stream.next().unwrap().is_some() {}
        assert!(
            stream.buf.len() < 4 * 4096,
            "buffer grew to {}",
            stream.buf.len()
        );
    }
}
