//! The newlines of a mail stream that matches still to come may need for
//! their line numbers: one bit a byte, from the oldest offset a match may
//! still have (the mail search says it: [`crate::mail::MailSink::settled`])
//! to the last byte read.
//!
//! Why not the offsets of the newlines: a streamed message of short lines
//! kept 8 bytes a line (`-n` on a 200 MiB message of short lines peaked
//! at 284 MB); a bit a byte of the window is at most an eighth of it.

use crate::mail::MailMatch;
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
    /// Newlines in `words[..cursor.0]`, counted at the last look-up
    /// (matches come in order, so each look-up counts on from the last).
    cursor: (usize, u64),
}

impl NewlineLog {
    /// Logs the newlines of `bytes`, read at absolute offset `at`.
    pub(super) fn log(&mut self, at: u64, bytes: &[u8]) {
        if self.words.is_empty() && at >= self.base + 64 {
            self.base = at & !63;
        }
        let end = at + bytes.len() as u64;
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
            self.cursor = match self.cursor {
                (0, _) => (0, 0),
                (k, n) => (k - 1, n - u64::from(w.count_ones())),
            };
        }
    }

    /// The 1-based line and byte column of absolute offset `q`.
    pub(super) fn at(&mut self, q: u64) -> (u64, u64) {
        let Some(rel) = q.checked_sub(self.base) else {
            // Before the window: only the newlines dropped are known.
            let start = self.last_dropped.map_or(0, |n| n + 1);
            return (self.dropped + 1, q.saturating_sub(start) + 1);
        };
        let k = ((rel / 64) as usize).min(self.words.len());
        let (mut at, mut count) = self.cursor;
        if at > k {
            (at, count) = (0, 0);
        }
        for w in self.words.range(at..k) {
            count += u64::from(w.count_ones());
        }
        self.cursor = (k, count);
        let word = self.words.get(k).copied().unwrap_or(0);
        let below = word & ((1u64 << (rel % 64)) - 1);
        let line = self.dropped + count + u64::from(below.count_ones()) + 1;
        // The newline before `q`: in its word, or in one before it.
        let prev = if below != 0 {
            Some(
                self.base + k as u64 * 64 + 63
                    - u64::from(below.leading_zeros()),
            )
        } else {
            (0..k).rev().find_map(|j| {
                let w = self.words.get(j).copied().unwrap_or(0);
                (w != 0).then(|| {
                    self.base + j as u64 * 64 + 63
                        - u64::from(w.leading_zeros())
                })
            })
        };
        let start = prev.or(self.last_dropped).map_or(0, |n| n + 1);
        (line, q.saturating_sub(start) + 1)
    }

    /// Bytes held, for the memory tests.
    #[cfg(test)]
    fn held(&self) -> usize {
        self.words.capacity() * 8
    }
}

/// The positions of a mail reader search's matches, with line numbers
/// from its newline log when there is one.
#[derive(Clone, Copy)]
pub(super) struct MailLines<'a>(pub(super) Option<&'a RefCell<NewlineLog>>);

impl MailLines<'_> {
    /// Where `m` is, its offsets moved by `base`.
    pub(super) fn position(&self, m: &MailMatch<'_>, base: u64) -> Position {
        let (line, column) = match self.0 {
            Some(log) => log.borrow_mut().at(m.offset()),
            None => (0, 0),
        };
        Position {
            start: base + m.offset(),
            end: base + m.end_offset(),
            line,
            column,
        }
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
        let mut log = NewlineLog::default();
        for (k, piece) in text.chunks(1000).enumerate() {
            log.log(k as u64 * 1000, piece);
        }
        let mut whole = LineCounter::default();
        let mut q = 0u64;
        while q < text.len() as u64 {
            assert_eq!(log.at(q), whole.at(&text, 0, q), "offset {q}");
            // Forget behind, as a stream does; look back once in a while.
            if q % 3 == 0 {
                log.forget_before(q.saturating_sub(500));
            }
            q += 37;
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
