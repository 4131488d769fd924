//! The value buffers of `scan_arrow`'s columns (src/columns.rs), as
//! Arrow's columnar format lays them out: bitmaps, `i32` offsets and
//! string data, `uint64` values, lists of strings; and what a column of
//! each type does for a null, a repeated value and the end of a batch.

use crate::dict::Dict;

/// A bitmap (LSB first, as Arrow's).
#[derive(Default)]
pub struct Bits {
    pub bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    pub fn with_capacity(bits: usize) -> Bits {
        Bits { bytes: Vec::with_capacity(bits.div_ceil(8)), len: 0 }
    }

    /// `n` bits of `bit` into an empty bitmap.
    pub fn fill(&mut self, n: usize, bit: bool) {
        debug_assert_eq!(self.len, 0);
        self.bytes.clear();
        self.bytes.resize(n / 8, if bit { 0xff } else { 0 });
        self.len = n / 8 * 8;
        for _ in 0..n % 8 {
            self.push(bit);
        }
    }

    /// The last bit pushed (false when there is none).
    #[inline]
    pub fn last(&self) -> bool {
        let Some(i) = self.len.checked_sub(1) else { return false };
        self.bytes.get(i / 8).is_some_and(|b| b >> (i % 8) & 1 == 1)
    }

    #[inline]
    pub fn push(&mut self, bit: bool) {
        if self.len.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if bit {
            if let Some(last) = self.bytes.last_mut() {
                *last |= 1 << (self.len % 8);
            }
        }
        self.len += 1;
    }
}

/// UTF-8 strings: offsets (`i32`, little-endian, as Arrow's buffer) and
/// data.
pub struct Strings {
    offsets: Vec<u8>,
    data: Vec<u8>,
}

impl Strings {
    pub fn new(rows: usize, data: usize) -> Strings {
        let mut offsets = Vec::with_capacity((rows + 1) * 4);
        offsets.extend_from_slice(&0i32.to_le_bytes());
        Strings { offsets, data: Vec::with_capacity(data) }
    }

    /// Adds a string: `s` is UTF-8 (`GetStr`).
    #[inline(always)]
    pub fn push(&mut self, s: &[u8]) {
        self.data.extend_from_slice(s);
        self.end();
    }

    /// Ends the current string (empty for a null).
    #[inline]
    pub fn end(&mut self) {
        let at = i32::try_from(self.data.len()).unwrap_or(i32::MAX);
        self.offsets.extend_from_slice(&at.to_le_bytes());
    }

    /// Strings so far.
    pub fn count(&self) -> usize {
        (self.offsets.len() / 4).saturating_sub(1)
    }
}

/// Lists of strings: the lists' offsets into the items (`i32`,
/// little-endian) and the items.
pub struct Lists {
    offsets: Vec<u8>,
    pub items: Strings,
}

impl Lists {
    pub fn new(rows: usize, data: usize) -> Lists {
        let mut offsets = Vec::with_capacity((rows + 1) * 4);
        offsets.extend_from_slice(&0i32.to_le_bytes());
        Lists { offsets, items: Strings::new(rows, data) }
    }

    /// Ends the current list (empty for a null).
    #[inline]
    pub fn end(&mut self) {
        let n = i32::try_from(self.items.count()).unwrap_or(i32::MAX);
        self.offsets.extend_from_slice(&n.to_le_bytes());
    }
}

/// The value buffers of a column of one type.
pub trait Values {
    /// A null's entry: an empty string or list, a zero, false.
    fn null_entry(&mut self);
    /// String bytes held (the next batch's room; `DATA_CAP`).
    fn data_len(&self) -> usize {
        0
    }
    /// Frees the buffers (a column with no value: none goes to Python).
    fn release(&mut self);
    /// The batch is done: frees what only building it needed.
    fn seal(&mut self) {}
    /// The buffers for Python: `[offsets, data]` (`string`), `[values]`
    /// (`uint64`, `bool`) or `[offsets, item offsets, item data]`
    /// (`list<string>`).
    fn buffers(&self) -> Vec<Buf>;
}

impl Values for Strings {
    fn null_entry(&mut self) {
        self.end();
    }
    fn release(&mut self) {
        self.offsets = Vec::new();
        self.data = Vec::new();
    }
    fn data_len(&self) -> usize {
        self.data.len()
    }
    fn buffers(&self) -> Vec<Buf> {
        vec![buf(&self.offsets), buf(&self.data)]
    }
}

impl Values for Dict {
    fn null_entry(&mut self) {
        Dict::null_entry(self);
    }
    fn seal(&mut self) {
        Dict::seal(self);
    }
    fn release(&mut self) {
        Dict::release(self);
    }
    fn data_len(&self) -> usize {
        Dict::data_len(self)
    }
    fn buffers(&self) -> Vec<Buf> {
        self.buffers().into_iter().map(buf).collect()
    }
}

/// The value buffers of a column whose last value can be repeated
/// (`Col::repeat` (src/columns.rs)).
pub trait Repeat {
    /// Adds an entry equal to the last one (there is one).
    fn repeat_last(&mut self);
}

impl Repeat for Dict {
    #[inline(always)]
    fn repeat_last(&mut self) {
        self.repeat();
    }
}

impl Repeat for Bits {
    #[inline(always)]
    fn repeat_last(&mut self) {
        self.push(self.last());
    }
}

/// `uint64` values, little-endian.
pub struct Numbers(pub Vec<u8>);

impl Values for Numbers {
    fn null_entry(&mut self) {
        self.0.extend_from_slice(&[0; 8]);
    }
    fn release(&mut self) {
        self.0 = Vec::new();
    }
    fn buffers(&self) -> Vec<Buf> {
        vec![buf(&self.0)]
    }
}

impl Values for Bits {
    fn null_entry(&mut self) {
        self.push(false);
    }
    fn release(&mut self) {
        self.bytes = Vec::new();
    }
    fn buffers(&self) -> Vec<Buf> {
        vec![buf(&self.bytes)]
    }
}

impl Values for Lists {
    fn null_entry(&mut self) {
        self.end();
    }
    fn release(&mut self) {
        self.offsets = Vec::new();
        self.items.release();
    }
    fn data_len(&self) -> usize {
        self.items.data.len()
    }
    fn buffers(&self) -> Vec<Buf> {
        vec![
            buf(&self.offsets),
            buf(&self.items.offsets),
            buf(&self.items.data),
        ]
    }
}

/// A buffer of a `Batch` (src/columns.rs) for Python: its address and its length in
/// bytes (`pyarrow.foreign_buffer`).
pub type Buf = (usize, usize);

pub fn buf(v: &[u8]) -> Buf {
    (v.as_ptr() as usize, v.len())
}
