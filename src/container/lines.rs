//! The newlines of a mail stream that matches still to come may need for
//! their line numbers: one bit a byte, from the oldest offset a match may
//! still have (the mail search says it: [`crate::mail::MailSink::settled`])
//! to the last byte read.
//!
//! Why not the offsets of the newlines: a streamed message of short lines
//! kept 8 bytes a line (`-n` on a 200 MiB message of short lines peaked
//! at 284 MB); a bit a byte of the window is at most an eighth of it.

use crate::search::Position;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};

/// See the module docs.
#[derive(Debug, Default)]
pub(super) struct NewlineLog {
    /// Bit `i` of word `k`: byte `base + 64 k + i` is a newline.
    words: VecDeque<u64>,
    /// A multiple of 64.
    base: u64,
    /// Newlines before `base`, and the last of them.
    dropped: u64,
    last_dropped: Option<u64>,
    /// Newlines in `words[..cursor.word]`, counted at the last look-up
    /// (matches come in order, so each look-up counts on from the last),
    /// and the last of them (absolute): a look-up in a long line takes
    /// its start from here, not from a walk back over the line (which
    /// made `-n` on a message of one 3.6 MB line take 3.8 s).
    cursor: Cursor,
    /// The last look-up: its offset, line and line start (absolute). A
    /// match on the same line, in the same word or the next, is answered
    /// from it (no count of the words before it: dense URLs, issue 33).
    last: Option<(u64, u64, u64)>,
    /// Every offset from `last`'s up to this one (exclusive) is on its
    /// line: the newline that ends it is at `upto - 1`, or no newline
    /// was logged before `upto`. A match there is answered with a
    /// subtraction ([`NewlineLog::at`]): the look-up of a dense line
    /// was 94 instructions a URL (issue 33).
    upto: u64,
    /// One past the last byte logged.
    end: u64,
    /// Words a look-up examined, in all (the linearity test counts them).
    #[cfg(test)]
    examined: u64,
    /// Words the search for the end of a look-up's line examined.
    #[cfg(test)]
    ahead: u64,
}

/// See [`NewlineLog::cursor`].
#[derive(Debug, Default, Clone, Copy)]
struct Cursor {
    word: usize,
    count: u64,
    last: Option<u64>,
}

impl Cursor {
    /// Counts on over word `w`, whose first bit is absolute offset `at`.
    #[inline(always)]
    fn add(&mut self, at: u64, w: u64) {
        self.count += u64::from(w.count_ones());
        if w != 0 {
            self.last = Some(at + 63 - u64::from(w.leading_zeros()));
        }
    }
}

impl NewlineLog {
    /// Logs the newlines of `bytes`, read at absolute offset `at`.
    pub(super) fn log(&mut self, at: u64, bytes: &[u8]) {
        if self.words.is_empty() && at >= self.base + 64 {
            self.base = at & !63;
        }
        let end = at + bytes.len() as u64;
        self.end = self.end.max(end);
        let want = (end.saturating_sub(self.base)).div_ceil(64) as usize;
        if want > self.words.len() {
            self.words.resize(want, 0);
        }
        for i in memchr::memchr_iter(b'\n', bytes) {
            let Some(q) = (at + i as u64).checked_sub(self.base) else {
                continue;
            };
            if let Some(w) = self.words.get_mut((q / 64) as usize) {
                *w |= 1 << (q % 64);
            }
        }
    }

    /// Forgets the newlines before `offset`: no match will be looked up
    /// before it.
    pub(super) fn forget_before(&mut self, offset: u64) {
        while self.base + 64 <= offset {
            let Some(w) = self.words.pop_front() else {
                self.base = offset & !63;
                break;
            };
            self.dropped += u64::from(w.count_ones());
            if w != 0 {
                self.last_dropped =
                    Some(self.base + 63 - u64::from(w.leading_zeros()));
            }
            self.base += 64;
            // The last newline is absolute: it stays (and when it was
            // in the word dropped, it is `last_dropped` too).
            self.cursor = match self.cursor.word {
                0 => Cursor::default(),
                k => Cursor {
                    word: k - 1,
                    count: self.cursor.count - u64::from(w.count_ones()),
                    last: self.cursor.last,
                },
            };
        }
    }

    /// The 1-based line and byte column of absolute offset `q`.
    #[inline]
    pub(super) fn at(&mut self, q: u64) -> (u64, u64) {
        if let Some((p, line, start)) = self.last {
            if p <= q && q < self.upto {
                return (line, q.saturating_sub(start) + 1);
            }
        }
        self.at_counted(q)
    }

    /// Words [`NewlineLog::line_end`] looks at, at most: a look-up
    /// costs a bounded number of steps however long the line, and a
    /// line longer than this is looked up again once every this many
    /// words (counted on from the last look-up, in linear steps).
    const AHEAD: usize = 8;

    /// Where the line of absolute offset `q` (in the window) ends, as
    /// [`NewlineLog::upto`] counts it.
    fn line_end(&mut self, q: u64) -> u64 {
        let Some(rel) = q.checked_sub(self.base) else { return 0 };
        let first = (rel / 64) as usize;
        let mut mask = !0u64 << (rel % 64);
        for k in first..(first + Self::AHEAD).min(self.words.len()) {
            #[cfg(test)]
            {
                self.ahead += 1;
            }
            let w = self.words.get(k).copied().unwrap_or(0) & mask;
            if w != 0 {
                let n =
                    self.base + k as u64 * 64 + u64::from(w.trailing_zeros());
                return n + 1;
            }
            mask = !0;
        }
        let seen = self.base + ((first + Self::AHEAD) as u64) * 64;
        seen.min(self.end)
    }

    /// [`NewlineLog::at`] when `q` is not on the last look-up's line as
    /// far as known: counted, and the end of its line looked for.
    #[inline(never)]
    fn at_counted(&mut self, q: u64) -> (u64, u64) {
        let got = self.at_word(q);
        if q >= self.base {
            self.upto = self.line_end(q);
        }
        got
    }

    /// The line and column of `q` counted from the words of the log.
    fn at_word(&mut self, q: u64) -> (u64, u64) {
        let Some(rel) = q.checked_sub(self.base) else {
            // Before the window: only the newlines dropped are known.
            let start = self.last_dropped.map_or(0, |n| n + 1);
            return (self.dropped + 1, q.saturating_sub(start) + 1);
        };
        if let Some(same) = self.same_line(q) {
            return same;
        }
        let k = ((rel / 64) as usize).min(self.words.len());
        let mut cur = self.cursor;
        if cur.word > k {
            cur = Cursor::default();
        }
        // Dense matches are in the word of the last one or the next: no
        // range of the deque for them (making one cost more than the
        // count, issue 33).
        let from = cur.word;
        if from + 1 == k {
            if let Some(&w) = self.words.get(from) {
                cur.add(self.base + from as u64 * 64, w);
            }
        } else if from < k {
            // The newlines counted word by word, the last one found once
            // at the end, in the last word that has one.
            let mut lastw = None;
            for (j, &w) in self.words.range(from..k).enumerate() {
                cur.count += u64::from(w.count_ones());
                if w != 0 {
                    lastw = Some((from + j, w));
                }
            }
            if let Some((j, w)) = lastw {
                let at = self.base + j as u64 * 64;
                cur.last = Some(at + 63 - u64::from(w.leading_zeros()));
            }
        }
        #[cfg(test)]
        {
            self.examined += k.saturating_sub(from) as u64;
        }
        cur.word = k;
        self.cursor = cur;
        let word = self.words.get(k).copied().unwrap_or(0);
        let below = word & ((1u64 << (rel % 64)) - 1);
        let line =
            self.dropped + cur.count + u64::from(below.count_ones()) + 1;
        // The newline before `q`: in its word, or the last one before it.
        let prev = if below != 0 {
            Some(
                self.base + k as u64 * 64 + 63
                    - u64::from(below.leading_zeros()),
            )
        } else {
            cur.last
        };
        let start = prev.or(self.last_dropped).map_or(0, |n| n + 1);
        self.last = Some((q, line, start));
        (line, q.saturating_sub(start) + 1)
    }

    /// The line and column of `q` from the last look-up, when `q` is at
    /// or after it, no newline comes between them, and both are in the
    /// same word of the log or in two words in a row.
    #[inline]
    fn same_line(&mut self, q: u64) -> Option<(u64, u64)> {
        let (p, line, start) = self.last?;
        // Ordinary text's matches are further apart: no more work then.
        if q < p || q - p >= 128 {
            return None;
        }
        let from = p.checked_sub(self.base)?;
        let to = q.checked_sub(self.base)?;
        let (kp, kq) = ((from / 64) as usize, (to / 64) as usize);
        // Bits at and above `from`, and below `to`, of their words.
        let above = !0u64 << (from % 64);
        let below = (1u64 << (to % 64)) - 1;
        let between = match kq.checked_sub(kp)? {
            0 => *self.words.get(kp)? & above & below,
            1 => {
                (*self.words.get(kp)? & above) | (*self.words.get(kq)? & below)
            }
            _ => return None,
        };
        if between != 0 {
            return None;
        }
        self.last = Some((q, line, start));
        Some((line, q.saturating_sub(start) + 1))
    }

    /// Bytes held, for the memory tests.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.words.capacity() * 8
    }
}

/// The positions of a reader search's matches, with line numbers from
/// its newline log when there is one.
#[derive(Clone, Copy)]
pub(super) struct LineLog<'a>(pub(super) Option<&'a RefCell<NewlineLog>>);

impl LineLog<'_> {
    /// Where the match at offsets `start..end` of the reader is, its
    /// offsets moved by `base`.
    #[inline]
    pub(super) fn position(
        &self,
        start: u64,
        end: u64,
        base: u64,
    ) -> Position {
        let (line, column) = match self.0 {
            Some(log) => log.borrow_mut().at(start),
            None => (0, 0),
        };
        Position { start: base + start, end: base + end, line, column }
    }

    /// No match will come before `offset`.
    pub(super) fn forget_before(&self, offset: u64) {
        if let Some(log) = self.0 {
            log.borrow_mut().forget_before(offset);
        }
    }
}

/// Logs the newlines it reads.
pub(super) struct LogNewlines<'a, R> {
    pub(super) rdr: R,
    pub(super) log: Option<&'a RefCell<NewlineLog>>,
    pub(super) at: u64,
}

impl<R: Read> Read for LogNewlines<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.rdr.read(buf)?;
        if let Some(log) = self.log {
            log.borrow_mut().log(self.at, buf.get(..n).unwrap_or_default());
        }
        self.at += n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::lines::LineCounter;

    #[test]
    fn lines_and_columns_as_counted_whole() {
        let text: Vec<u8> = (0..5000)
            .flat_map(|i| {
                let mut l = vec![b'x'; i * 7 % 150];
                l.push(b'\n');
                l
            })
            .collect();
        // Matches far apart and close together (several on a line, in
        // the same word of the log or the next: answered from the last).
        for step in [37, 5, 63, 64, 65] {
            let mut log = NewlineLog::default();
            for (k, piece) in text.chunks(1000).enumerate() {
                log.log(k as u64 * 1000, piece);
            }
            let mut whole = LineCounter::default();
            let mut q = 0u64;
            while q < text.len() as u64 {
                let got = log.at(q);
                assert_eq!(got, whole.at(&text, 0, q), "offset {q}, {step}");
                // Forget behind, as a stream does; look back once in a
                // while.
                if q.is_multiple_of(3) {
                    log.forget_before(q.saturating_sub(500));
                }
                q += step;
            }
        }
    }

    /// Issue 33.3: a look-up in a long line examines the words since
    /// the last look-up, not the whole line again: linear, counted. (The
    /// walk back to the line's start examined 2.7e8 words here.)
    #[test]
    fn a_long_line_is_looked_up_in_linear_steps() {
        let mut text = b"From: a@b.example\n\n".to_vec();
        text.resize(1 << 20, b' ');
        let mut log = NewlineLog::default();
        log.log(0, &text);
        let mut whole = LineCounter::default();
        let mut looked = 0u64;
        for q in (0..text.len() as u64).step_by(32) {
            let got = log.at(q);
            if q % 4096 == 0 {
                assert_eq!(got, whole.at(&text, 0, q), "offset {q}");
            }
            looked += 1;
        }
        let words = text.len() as u64 / 64;
        assert!(
            log.examined <= words + looked,
            "{} words examined for {looked} look-ups of {words} words",
            log.examined
        );
        // The search for the line's end is bounded a look-up.
        assert!(
            log.ahead <= NewlineLog::AHEAD as u64 * looked,
            "{} words ahead for {looked} look-ups",
            log.ahead
        );
        assert_eq!(log.at(text.len() as u64 - 1), (3, text.len() as u64 - 19));
    }

    /// A stream's look-ups come as it is read: a line not read to its
    /// end yet is known only up to the last byte logged, and the next
    /// read may end it (the quick answer from the last look-up's line
    /// must not run past what was logged when it was made).
    #[test]
    fn lines_as_read_match_the_whole_count() {
        let text: Vec<u8> = (0..3000u64)
            .flat_map(|i| {
                let mut l = vec![b'x'; (i * 37 % 700) as usize];
                if i % 97 == 0 {
                    l.resize(5000, b'y');
                }
                l.push(b'\n');
                l
            })
            .collect();
        for (piece, step) in [(100, 17), (1000, 18), (64, 3), (4096, 130)] {
            let mut log = NewlineLog::default();
            let mut whole = LineCounter::default();
            let mut q = 0u64;
            for (k, bytes) in text.chunks(piece).enumerate() {
                let at = (k * piece) as u64;
                log.log(at, bytes);
                let end = at + bytes.len() as u64;
                while q < end {
                    let got = log.at(q);
                    assert_eq!(got, whole.at(&text, 0, q), "{q} {piece}");
                    q += step;
                }
                log.forget_before(q.saturating_sub(200));
            }
        }
    }

    #[test]
    fn window_stays_small() {
        let mut log = NewlineLog::default();
        let piece = vec![b'\n'; 1 << 16];
        for k in 0..1000u64 {
            log.log(k << 16, &piece);
            log.forget_before((k << 16).saturating_sub(1 << 16));
        }
        // A window of 128 KiB of newlines: 16 KiB of bits (the offsets
        // were 1 MiB), with the deque's doubling.
        assert!(log.held() <= 32 << 10, "{} bytes", log.held());
        assert_eq!(log.at(1000 << 16), (1 + (1000 << 16), 1));
    }
}
