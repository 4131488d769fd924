//! The values of a `dictionary<int32, string>` column of `scan_arrow`
//! (src/columns.rs): one `int32` key a row, into a dictionary that holds
//! each distinct string of the batch once.
//!
//! The text columns whose value repeats from row to row (a message's
//! subject, sender, date and id on each of its URLs, an input's path on
//! all of its, the few kinds, schemes and parts) are kept this way: a
//! row costs 4 bytes instead of its string's copy, which roughly halves a
//! spool's table (and the page faults of writing it).
//!
//! A value equal to the row before's takes its key after one comparison
//! (the common case: the rows of one message), one equal to one of the
//! few before it after a few more (the schemes and kinds, which
//! alternate). Any other is looked up in a table of the dictionary's
//! strings by their hash (foldhash with this process's random seed,
//! `foldhash::fast::RandomState`: hashbrown's default, fast on short
//! strings and seeded so that text cannot be written to collide without
//! the seed), and added when new: every string is in the dictionary once, as
//! pandas' categories must be. The table goes when the batch is done
//! ([`Dict::seal`]).

use foldhash::fast::RandomState;
use std::hash::BuildHasher;
use urlgrep::filter::same_bytes as same;

/// An empty slot of [`Dict`]'s table.
const EMPTY: u32 = u32::MAX;

/// The last distinct keys [`Dict::push`] compares a value with before
/// it looks it up in the table.
const RECENT: usize = 4;

/// A key and its string's place in [`Dict`]'s data (`start..end`).
#[derive(Clone, Copy, Default)]
struct Known {
    key: u32,
    start: usize,
    end: usize,
}

/// A dictionary column's values: the keys, the dictionary's strings
/// (Arrow's `utf8` buffers: `i32` offsets, data) and the table that
/// finds a string's key.
pub struct Dict {
    /// `int32` keys, little-endian (Arrow's buffer).
    keys: Vec<u8>,
    /// The dictionary's `i32` offsets, little-endian, from a first 0.
    offsets: Vec<u8>,
    /// The dictionary's string bytes.
    data: Vec<u8>,
    /// Strings in the dictionary.
    len: u32,
    /// The last distinct keys pushed, the last first; the first
    /// `filled` are keys (the others not yet).
    recent: [Known; RECENT],
    filled: usize,
    /// Open addressing (linear probing), a power of two long, at most
    /// half full: each slot the top 32 bits of a string's hash (its
    /// place: [`slot_of`]) and its key (`EMPTY`: none).
    table: Vec<(u32, u32)>,
    hasher: RandomState,
    /// The address and length of the last value of
    /// [`Dict::push_const`], when that made the last key.
    last_const: Option<(usize, usize)>,
}

impl Dict {
    /// An empty column with room for `rows` keys and `data` string bytes.
    pub fn new(rows: usize, data: usize) -> Dict {
        let mut offsets = Vec::with_capacity(64);
        offsets.extend_from_slice(&0i32.to_le_bytes());
        Dict {
            keys: Vec::with_capacity(rows * 4),
            offsets,
            data: Vec::with_capacity(data),
            len: 0,
            recent: [Known::default(); RECENT],
            filled: 0,
            table: Vec::new(),
            hasher: RandomState::default(),
            last_const: None,
        }
    }

    /// Adds a row of value `s` (UTF-8).
    // Inlined into each column of `Columns::push` (as a call, it cost a
    // third more than the string's copy it saves).
    #[inline(always)]
    pub fn push(&mut self, s: &[u8]) {
        let key = match self.recent.first() {
            Some(k) if self.filled > 0 && self.is(k, s) => k.key,
            _ => self.other(s),
        };
        self.keys.extend_from_slice(&key.to_le_bytes());
    }

    /// Adds a row of value `s`, text of the program's own: a value at
    /// the address and of the length of the last one is the last one
    /// (what is `'static` is never written, nor freed and used again),
    /// its key taken without comparing. A column pushed this way takes
    /// no other value ([`Dict::push`]): its last key is always its last
    /// value's.
    #[inline(always)]
    pub fn push_const(&mut self, s: &'static [u8]) {
        let at = (s.as_ptr() as usize, s.len());
        if self.filled > 0 && self.last_const == Some(at) {
            self.repeat();
            return;
        }
        self.push(s);
        self.last_const = Some(at);
    }

    /// Adds a row of the last row's value (there is one: a row was
    /// pushed).
    #[inline(always)]
    pub fn repeat(&mut self) {
        debug_assert!(self.filled > 0);
        let key = self.recent.first().map_or(0, |k| k.key);
        self.keys.extend_from_slice(&key.to_le_bytes());
    }

    /// Whether the string of `k` is `s`.
    #[inline(always)]
    fn is(&self, k: &Known, s: &[u8]) -> bool {
        self.data.get(k.start..k.end).is_some_and(|t| same(t, s))
    }

    /// The key of `s`, not the last one's: one of the recent keys, else
    /// from the table ([`Dict::find_or_add`]); it becomes the last.
    #[inline(never)]
    fn other(&mut self, s: &[u8]) -> u32 {
        let hit = (1..self.filled)
            .find(|&i| self.recent.get(i).is_some_and(|k| self.is(k, s)));
        let known = match hit.and_then(|i| self.recent.get(i).copied()) {
            Some(k) => k,
            None => self.find_or_add(s),
        };
        // The known key to the front, the others one place back.
        let until = hit.unwrap_or(RECENT - 1);
        self.recent.copy_within(0..until, 1);
        if let Some(first) = self.recent.first_mut() {
            *first = known;
        }
        if hit.is_none() {
            self.filled = (self.filled + 1).min(RECENT);
        }
        known.key
    }

    /// A null's row: key 0 (any key in range; its validity bit says null).
    pub fn null_entry(&mut self) {
        self.keys.extend_from_slice(&0u32.to_le_bytes());
    }

    /// The key of `s` and its place, added to the dictionary when new.
    #[cold]
    #[inline(never)]
    fn find_or_add(&mut self, s: &[u8]) -> Known {
        if self.table.len() < (self.len as usize + 1) * 2 {
            self.grow();
        }
        let hash = (self.hasher.hash_one(s) >> 32) as u32;
        let mask = self.table.len() - 1;
        let mut i = slot_of(hash, mask);
        loop {
            let Some(&(h, key)) = self.table.get(i) else {
                // Not reached: `i` is masked to the table's length.
                return Known::default();
            };
            if key == EMPTY {
                return self.add(s, hash, i);
            }
            if h == hash {
                if let Some((start, end)) = self.place(key) {
                    if self.data.get(start..end) == Some(s) {
                        return Known { key, start, end };
                    }
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `s` (hash `hash`) as the next key, in the empty slot `slot`.
    fn add(&mut self, s: &[u8], hash: u32, slot: usize) -> Known {
        let key = self.len;
        let start = self.data.len();
        self.data.extend_from_slice(s);
        let end = self.data.len();
        let at = i32::try_from(end).unwrap_or(i32::MAX);
        self.offsets.extend_from_slice(&at.to_le_bytes());
        if let Some(e) = self.table.get_mut(slot) {
            *e = (hash, key);
        }
        self.len += 1;
        Known { key, start, end }
    }

    /// Where the string of `key` is in `data`.
    fn place(&self, key: u32) -> Option<(usize, usize)> {
        let at = key as usize * 4;
        let read = |i: usize| -> Option<usize> {
            let b = self.offsets.get(i..i + 4)?;
            let n = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            usize::try_from(n).ok()
        };
        Some((read(at)?, read(at + 4)?))
    }

    /// Doubles the table (at least 64 slots), every key placed again.
    fn grow(&mut self) {
        let size = (self.table.len() * 2).max(64);
        let old = std::mem::replace(&mut self.table, vec![(0, EMPTY); size]);
        let mask = size - 1;
        for (hash, key) in old.into_iter().filter(|&(_, k)| k != EMPTY) {
            let mut i = slot_of(hash, mask);
            while self.table.get(i).is_some_and(|&(_, k)| k != EMPTY) {
                i = (i + 1) & mask;
            }
            if let Some(e) = self.table.get_mut(i) {
                *e = (hash, key);
            }
        }
    }

    /// The batch is done: frees the table (only building needs it).
    pub fn seal(&mut self) {
        self.table = Vec::new();
    }

    /// String bytes in the dictionary.
    pub fn data_len(&self) -> usize {
        self.data.len()
    }

    /// Frees the buffers (a column with no value).
    pub fn release(&mut self) {
        self.keys = Vec::new();
        self.offsets = Vec::new();
        self.data = Vec::new();
        self.table = Vec::new();
    }

    /// The buffers: the keys, the dictionary's offsets and its data.
    pub fn buffers(&self) -> [&[u8]; 3] {
        [&self.keys, &self.offsets, &self.data]
    }
}

/// The first slot of a string whose hash is `hash` in a table of
/// `mask + 1` slots.
#[inline]
fn slot_of(hash: u32, mask: usize) -> usize {
    hash as usize & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of a column, and its dictionary's strings.
    fn decode(d: &Dict) -> (Vec<u32>, Vec<Vec<u8>>) {
        let keys = d
            .keys
            .chunks(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        let strings = (0..d.len)
            .map(|k| {
                let (s, e) = d.place(k).expect("a key's place");
                d.data[s..e].to_vec()
            })
            .collect();
        (keys, strings)
    }

    #[test]
    fn each_string_once_and_each_row_its_key() {
        let rows: Vec<Vec<u8>> = (0..5000u32)
            .map(|i| format!("value {}", (i / 3) % 700 + (i % 2)).into_bytes())
            .chain([b"".to_vec(), b"".to_vec(), b"value 1".to_vec()])
            .collect();
        let mut d = Dict::new(0, 0);
        for r in &rows {
            d.push(r);
        }
        d.null_entry();
        let (keys, strings) = decode(&d);
        assert_eq!(keys.len(), rows.len() + 1);
        for (k, r) in keys.iter().zip(&rows) {
            assert_eq!(&strings[*k as usize], r);
        }
        assert_eq!(keys.last(), Some(&0));
        let mut unique = strings.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), strings.len());
        assert_eq!(strings.len(), 702);
    }

    #[test]
    fn constant_values_by_address_and_by_bytes() {
        // The same text at two addresses, and a prefix of it at the
        // first's: each value's key by its bytes, each string once.
        let one: &'static [u8] = b"body";
        let two: &'static [u8] = Box::leak(one.to_vec().into_boxed_slice());
        let other: &'static [u8] = b"header";
        let rows = [one, one, two, other, other, one, &one[..2], two, two];
        let mut d = Dict::new(0, 0);
        for r in rows {
            d.push_const(r);
        }
        d.null_entry();
        d.push_const(one);
        let (keys, strings) = decode(&d);
        assert_eq!(strings, [&b"body"[..], b"header", b"bo"]);
        let want: Vec<u32> = vec![0, 0, 0, 1, 1, 0, 2, 0, 0, 0, 0];
        assert_eq!(keys, want);
    }

    #[test]
    fn same_is_equality_at_every_length_and_place() {
        for n in 0..40 {
            let a: Vec<u8> =
                (0..n as u8).map(|i| i.wrapping_mul(7) ^ 0x5a).collect();
            assert!(same(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 1;
                assert!(!same(&a, &b), "{n} {at}");
            }
        }
    }

    #[test]
    fn alternating_values_then_a_new_empty_one() {
        let rows: [&[u8]; 6] =
            [b"http", b"https", b"http", b"https", b"", b"http"];
        let mut d = Dict::new(0, 0);
        for r in rows {
            d.push(r);
        }
        let (keys, strings) = decode(&d);
        let got: Vec<&[u8]> =
            keys.iter().map(|&k| strings[k as usize].as_slice()).collect();
        assert_eq!(got, rows);
        assert_eq!(strings.len(), 3);
    }
}
