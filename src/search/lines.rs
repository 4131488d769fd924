//! Line and column numbers of offsets, counted incrementally: the one
//! line counter of the slice, stream and mail searches.

/// Line numbers of absolute offsets into an input, counted incrementally
/// from the bytes in hand: cheap when the offsets mostly increase.
///
/// Invariant: `newlines` counts the newlines of the input before `pos`,
/// `line_start` is where the line holding `pos` starts, and no newline
/// lies in `pos..clear_to` (all absolute).
#[derive(Debug, Default)]
pub(crate) struct LineCounter {
    newlines: u64,
    pos: u64,
    line_start: u64,
    /// The next newline at or after `pos` when it is known (else at most
    /// `pos`): an offset up to it is on `pos`'s line, told by a compare.
    /// Looked for when two offsets in a row fall on one line, so text of
    /// one URL a line pays nothing, and a line dense in URLs is searched
    /// once, not counted between every two of them (121 instructions a
    /// URL on a held line of 200 k URLs, issue 33).
    clear_to: u64,
}

impl LineCounter {
    /// The 1-based line and byte column of absolute offset `q`; `bytes`
    /// hold the input from absolute offset `base`, at least from
    /// `min(q, pos)` on (and from its line's start when `q` is before
    /// the last offset asked).
    pub(crate) fn at(
        &mut self,
        bytes: &[u8],
        base: u64,
        q: u64,
    ) -> (u64, u64) {
        let q = q.min(base + bytes.len() as u64);
        if q >= self.pos && q <= self.clear_to {
            self.pos = q;
            return (self.newlines + 1, q - self.line_start + 1);
        }
        let rel = |x: u64| x.saturating_sub(base) as usize;
        if q >= self.pos {
            let seg = bytes.get(rel(self.pos)..rel(q)).unwrap_or_default();
            let (count, last) = newlines(seg);
            self.newlines += count;
            match last {
                Some(i) => self.line_start = self.pos + i as u64 + 1,
                // On the line of the offset before: where it ends.
                None => {
                    let rest = bytes.get(rel(q)..).unwrap_or_default();
                    if let Some(i) = memchr::memchr(b'\n', rest) {
                        self.clear_to = q + i as u64;
                    }
                }
            }
        } else {
            self.clear_to = q;
            let seg = bytes.get(rel(q)..rel(self.pos)).unwrap_or_default();
            let back = memchr::memchr_iter(b'\n', seg).count() as u64;
            self.newlines = self.newlines.saturating_sub(back);
            let before = bytes.get(..rel(q)).unwrap_or_default();
            self.line_start = memchr::memrchr(b'\n', before)
                .map_or(base, |i| base + i as u64 + 1);
        }
        self.pos = q;
        (self.newlines + 1, q.saturating_sub(self.line_start) + 1)
    }

    /// Counts on to absolute offset `q` when it is ahead (before a
    /// reader drops the bytes up to it); never goes back.
    pub(crate) fn skip_to(&mut self, bytes: &[u8], base: u64, q: u64) {
        if q > self.pos {
            self.at(bytes, base, q);
        }
    }
}

/// The number of newlines in `seg` and where the last one is: one pass
/// over a short segment (candidates close together: two `memchr` calls
/// cost ~160 instructions on 8 bytes, issue 21), `memchr`'s count and
/// reverse search over a longer one.
#[inline]
fn newlines(seg: &[u8]) -> (u64, Option<usize>) {
    if seg.len() > 32 {
        let count = memchr::memchr_iter(b'\n', seg).count() as u64;
        return (count, memchr::memrchr(b'\n', seg));
    }
    // Eight bytes at a time: the high bit of each byte that is `\n`,
    // exactly (the low seven bits are added apart from the high one, so
    // no byte borrows from the next).
    const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);
    const NEWLINES: u64 = u64::from_ne_bytes([b'\n'; 8]);
    let (mut count, mut last) = (0, None);
    let mut words = seg.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let x = u64::from_le_bytes(w) ^ NEWLINES;
        let found = !(((x & LOW7) + LOW7) | x | LOW7);
        if found != 0 {
            count += u64::from(found.count_ones());
            last = Some(at + (63 - found.leading_zeros() as usize) / 8);
        }
        at += 8;
    }
    for (i, &b) in words.remainder().iter().enumerate() {
        if b == b'\n' {
            count += 1;
            last = Some(at + i);
        }
    }
    (count, last)
}

#[cfg(test)]
mod tests {
    use super::LineCounter;
    use proptest::prelude::*;

    /// The line and column of `q` in `text`, counted from the start.
    fn counted(text: &[u8], q: usize) -> (u64, u64) {
        let before = &text[..q];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = before.iter().rposition(|&b| b == b'\n');
        (line as u64, (q - start.map_or(0, |i| i + 1) + 1) as u64)
    }

    proptest! {
        /// Any order of offsets, over text of long and short lines (the
        /// line's end looked for once, then offsets told by a compare),
        /// and forwards from a window that starts at the offset before.
        #[test]
        fn any_offsets_agree_with_counting_from_the_start(
            text in proptest::collection::vec(
                prop_oneof![4 => Just(b'x'), 1 => Just(b'\n')], 0..200),
            steps in proptest::collection::vec(-40i64..60, 0..60),
        ) {
            let mut c = LineCounter::default();
            let mut q = 0i64;
            for &step in &steps {
                q = (q + step).clamp(0, text.len() as i64);
                let at = q as usize;
                prop_assert_eq!(c.at(&text, 0, at as u64), counted(&text, at));
            }
            let mut c = LineCounter::default();
            let mut last = 0usize;
            for &step in &steps {
                let at = (last + step.unsigned_abs() as usize).min(text.len());
                let window = &text[last..];
                let got = c.at(window, last as u64, at as u64);
                prop_assert_eq!(got, counted(&text, at));
                last = at;
            }
        }
    }

    /// Every offset, forwards, backwards and from windows, against a
    /// count from the start.
    #[test]
    fn agrees_with_counting_from_the_start() {
        let text = b"ab\ncd\n\nefg\nh";
        let want = |q: usize| {
            let before = &text[..q];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = before.iter().rposition(|&b| b == b'\n');
            let col = q - start.map_or(0, |i| i + 1) + 1;
            (line as u64, col as u64)
        };
        let mut c = LineCounter::default();
        for q in 0..=text.len() {
            assert_eq!(c.at(text, 0, q as u64), want(q), "forward {q}");
        }
        for q in (0..=text.len()).rev() {
            assert_eq!(c.at(text, 0, q as u64), want(q), "backward {q}");
        }
        // Segments both sides of the short-segment pass.
        for step in [1, 5, 31, 32, 33, 70] {
            let long: Vec<u8> = (0..300)
                .map(|i| if i % 7 == 3 { b'\n' } else { b'x' })
                .collect();
            let mut c = LineCounter::default();
            let mut q = 0;
            while q <= long.len() {
                let before = &long[..q];
                let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
                let start = before.iter().rposition(|&b| b == b'\n');
                let col = q - start.map_or(0, |i| i + 1) + 1;
                let want = (line as u64, col as u64);
                assert_eq!(c.at(&long, 0, q as u64), want, "step {step} {q}");
                q += step;
            }
        }
        // A reader's window: the bytes before `base` are gone.
        let mut c = LineCounter::default();
        c.skip_to(text, 0, 4);
        for q in 4..=text.len() {
            let window = &text[4..];
            assert_eq!(c.at(window, 4, q as u64), want(q), "window {q}");
        }
    }
}
