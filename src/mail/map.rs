//! Offset maps: from a position in decoded text back to the bytes it came
//! from.
//!
//! A decoder writes its output into a buffer and, beside it, a list of
//! segments. A segment starts at a decoded position and says how the
//! decoded bytes from there up to the next segment relate to the source:
//!
//! - `Copy`: byte for byte (`src + (pos - dec)`);
//! - `Unit(n)`: all its decoded bytes come from the `n` source bytes at
//!   `src` (a `=3D` escape, an `&amp;` reference);
//! - `Base64`: 3 decoded bytes for every 4 source bytes.
//!
//! Decoders are stacked (quoted-printable, then HTML references): a
//! [`Layers`] maps through each map from the last to the first.

/// How the decoded bytes of a segment relate to their source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Copy,
    Unit(u32),
    Base64,
}

/// One segment of a [`Map`]; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seg {
    pub dec: usize,
    pub src: usize,
    pub kind: Kind,
}

/// The segments of one decoding step, sorted by `dec`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Map {
    segs: Vec<Seg>,
    /// The decoded position that the next `Copy` byte must have for it to
    /// extend the last segment without a new one.
    next_dec: usize,
    next_src: usize,
    open_copy: bool,
}

impl Map {
    /// Bytes its segment list holds allocated.
    pub fn bytes(&self) -> usize {
        self.segs.capacity() * std::mem::size_of::<Seg>()
    }

    pub fn clear(&mut self) {
        self.segs.clear();
        self.next_dec = 0;
        self.next_src = 0;
        self.open_copy = false;
    }

    /// Records that decoded bytes `[dec, dec + len)` are a copy of source
    /// bytes `[src, src + len)`.
    pub fn copy(&mut self, dec: usize, src: usize, len: usize) {
        if len == 0 {
            return;
        }
        if !(self.open_copy && self.next_dec == dec && self.next_src == src) {
            self.segs.push(Seg { dec, src, kind: Kind::Copy });
        }
        self.open_copy = true;
        self.next_dec = dec + len;
        self.next_src = src + len;
    }

    /// Records that decoded bytes starting at `dec` (up to the next
    /// segment) came from the `n` source bytes at `src`.
    pub fn unit(&mut self, dec: usize, src: usize, n: usize) {
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        self.segs.push(Seg { dec, src, kind: Kind::Unit(n) });
        self.open_copy = false;
    }

    /// Records that decoded bytes from `dec` on are base64-decoded from
    /// source bytes from `src` on, in whole quanta.
    pub fn base64(&mut self, dec: usize, src: usize) {
        self.segs.push(Seg { dec, src, kind: Kind::Base64 });
        self.open_copy = false;
    }

    fn seg(&self, pos: usize) -> Option<&Seg> {
        let i = self.segs.partition_point(|s| s.dec <= pos);
        self.segs.get(i.checked_sub(1)?)
    }

    /// The source range of the decoded byte at `pos`.
    pub fn byte(&self, pos: usize) -> (usize, usize) {
        let Some(s) = self.seg(pos) else { return (pos, pos + 1) };
        let k = pos - s.dec;
        match s.kind {
            Kind::Copy => (s.src + k, s.src + k + 1),
            Kind::Unit(n) => (s.src, s.src + n as usize),
            // Decoded byte k of a quantum begins in encoded character k
            // and ends in character k + 1.
            Kind::Base64 => {
                let at = s.src + k / 3 * 4 + k % 3;
                (at, at + 2)
            }
        }
    }

    /// The source range of decoded bytes `[start, end)`.
    pub fn range(&self, start: usize, end: usize) -> (usize, usize) {
        let (s, e) = self.byte(start);
        if end <= start + 1 {
            return (s, e);
        }
        (s, self.byte(end - 1).1.max(e))
    }
}

/// A stack of maps, the first one nearest to the original bytes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Layers<'a> {
    pub maps: Vec<&'a Map>,
}

impl Layers<'_> {
    /// The original range of decoded bytes `[start, end)` of the last
    /// layer.
    pub fn range(&self, start: usize, end: usize) -> (usize, usize) {
        self.maps.iter().rev().fold((start, end), |(s, e), m| m.range(s, e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_segments_merge() {
        let mut m = Map::default();
        m.copy(0, 10, 3);
        m.copy(3, 13, 2);
        assert_eq!(m.segs.len(), 1);
        m.copy(5, 20, 2);
        assert_eq!(m.segs.len(), 2);
        assert_eq!(m.byte(6), (21, 22));
        assert_eq!(m.range(1, 7), (11, 22));
    }

    #[test]
    fn units_and_base64() {
        let mut m = Map::default();
        m.copy(0, 0, 2);
        m.unit(2, 2, 3);
        m.copy(3, 5, 1);
        assert_eq!(m.range(0, 4), (0, 6));
        assert_eq!(m.byte(2), (2, 5));
        let mut b = Map::default();
        b.base64(0, 0);
        // "aGVsbG8=" decodes to "hello": 'l' (byte 3) is in quantum 1.
        assert_eq!(b.byte(3), (4, 6));
        assert_eq!(b.range(0, 5), (0, 7));
    }

    #[test]
    fn layers_compose() {
        let mut a = Map::default();
        a.copy(0, 100, 10);
        let mut b = Map::default();
        b.copy(0, 2, 5);
        let l = Layers { maps: vec![&a, &b] };
        assert_eq!(l.range(1, 3), (103, 105));
    }
}
