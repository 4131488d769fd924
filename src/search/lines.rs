//! Line and column numbers of offsets, counted incrementally.

/// Line numbers of offsets into a buffer, counted incrementally: cheap
/// when the offsets mostly increase.
#[derive(Default)]
pub(crate) struct LineCounter {
    /// Newlines before `pos`.
    newlines: u64,
    pos: usize,
    /// Where the line of `pos` starts.
    line_start: usize,
}

impl LineCounter {
    /// The 1-based line and byte column of offset `q` of `bytes`.
    pub(crate) fn at(&mut self, bytes: &[u8], q: usize) -> (u64, u64) {
        let q = q.min(bytes.len());
        if q >= self.pos {
            let seg = bytes.get(self.pos..q).unwrap_or_default();
            self.newlines += memchr::memchr_iter(b'\n', seg).count() as u64;
            if let Some(i) = memchr::memrchr(b'\n', seg) {
                self.line_start = self.pos + i + 1;
            }
        } else {
            let seg = bytes.get(q..self.pos).unwrap_or_default();
            self.newlines -= memchr::memchr_iter(b'\n', seg).count() as u64;
            let before = bytes.get(..q).unwrap_or_default();
            self.line_start =
                memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
        }
        self.pos = q;
        (self.newlines + 1, (q - self.line_start) as u64 + 1)
    }
}
