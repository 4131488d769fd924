//! The header walk's view of an entity: line ends and the ends of field
//! names by mask, a block of 64 bytes at a time (issue 32).
//!
//! The walk asked, line after line, where a field's name ends (a word
//! loop) and where its line ends (memchr's SSE2 searcher from the
//! colon on), each search paying its set-up on a line of 52 bytes on
//! average. Here each block of the header is classified once
//! ([`Kernel::lines`]); a line's end is the next bit of the block's
//! line ends, and a name's end a count of trailing zeros in its other
//! mask.

use crate::simd::{Kernel, LINE_BLOCK};

/// The lines of `s` from a start on, one after the other, and the names
/// that start them.
///
/// Invariants: `base <= s.len()`; `stop` holds the name-end bits of the
/// block `s[base..]` (its first [`LINE_BLOCK`] bytes, bits past the end
/// of `s` clear); `newline` holds the line-end bits of that block that
/// [`Cursor::next_line`] has not given yet, all at or after the start of
/// the current line. Blocks follow one another from the start given to
/// [`Cursor::new`].
pub(super) struct Cursor<'a> {
    s: &'a [u8],
    kernel: Kernel,
    base: usize,
    newline: u64,
    stop: u64,
}

impl<'a> Cursor<'a> {
    /// A cursor whose current line starts at `at`.
    pub(super) fn new(s: &'a [u8], at: usize) -> Cursor<'a> {
        let kernel = Kernel::detect();
        let mut cursor = Cursor { s, kernel, base: 0, newline: 0, stop: 0 };
        cursor.load(at.min(s.len()));
        cursor
    }

    /// Puts the block at `base` in view.
    #[inline]
    fn load(&mut self, base: usize) {
        let m = match self.s[base..].first_chunk::<LINE_BLOCK>() {
            Some(block) => self.kernel.lines(block),
            None => self.kernel.lines_of(&self.s[base..]),
        };
        self.base = base;
        (self.newline, self.stop) = (m.newline, m.stop);
    }

    /// Where the line after the current one starts (the end of `s` when
    /// the current one is the last); that line becomes the current one.
    #[inline]
    pub(super) fn next_line(&mut self) -> usize {
        while self.newline == 0 {
            let next = self.base + LINE_BLOCK;
            if next >= self.s.len() {
                self.newline = 0;
                return self.s.len();
            }
            self.load(next);
        }
        let k = self.newline.trailing_zeros() as usize;
        self.newline &= self.newline - 1;
        self.base + k + 1
    }

    /// The length of the run of `ftext` (RFC 5322 §3.6.8) at `pos`, the
    /// start of the current line: `header::name_len` of `s[pos..]`. The
    /// run ends at the line's end at the latest (a line end is no
    /// `ftext`), so the blocks it passes hold no line end to give.
    #[inline]
    pub(super) fn name_len(&mut self, pos: usize) -> usize {
        // The current line starts in the block in view, or right after
        // it (the block's last byte ended the line before).
        if pos >= self.base + LINE_BLOCK {
            self.load(pos - (pos - self.base) % LINE_BLOCK);
        }
        let mut bits = self.stop & (u64::MAX << (pos - self.base));
        while bits == 0 {
            let next = self.base + LINE_BLOCK;
            if next >= self.s.len() {
                return self.s.len() - pos;
            }
            self.load(next);
            bits = self.stop;
        }
        self.base + bits.trailing_zeros() as usize - pos
    }
}

#[cfg(test)]
mod tests {
    use super::Cursor;
    use proptest::prelude::*;

    /// Bytes a header is made of, and the ones at the classes' edges.
    const HEADER_BYTES: &[u8] = b"\n\n\r\t :\x1f\x7f\x80\xffaZ-!~";

    proptest! {
        /// Line after line, the cursor gives the line starts and the
        /// name lengths the scalar searches give, over blocks and their
        /// short last one, from any start.
        #[test]
        fn answers_as_the_scalar_searches(
            s in proptest::collection::vec(
                proptest::sample::select(HEADER_BYTES), 0..=300),
            start in 0usize..80,
        ) {
            let start = start.min(s.len());
            let mut cursor = Cursor::new(&s, start);
            let mut pos = start;
            while pos < s.len() {
                let name = super::super::name_len(&s[pos..]);
                prop_assert_eq!(cursor.name_len(pos), name, "name at {}", pos);
                let line = super::super::next_line(&s, pos);
                prop_assert_eq!(cursor.next_line(), line, "line at {}", pos);
                pos = line;
            }
            prop_assert_eq!(cursor.next_line(), s.len());
        }
    }
}
