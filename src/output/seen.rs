//! The set of URLs seen, for `-u`: a keyed 64-bit hash per URL, not the
//! URL. (The statistics' exact unique count is `url_stats::distinct`.)
//!
//! Memory: 9 bytes a slot (the hash and hashbrown's control byte) at a load
//! of 7/16 to 7/8, so 10–21 bytes per URL. The set is split into 256
//! tables by the hash's top byte, each growing on its own: a doubling
//! copies 1/256 of the set, so the peak during growth stays within that
//! bound too (one table of all URLs would briefly hold both its old and
//! its new array, 27 bytes per URL).
//!
//! The hash is SipHash-1-3 with this process's random keys (`std`'s
//! `RandomState`): two distinct URLs share a hash with probability 2^-64
//! per pair (about 10^-6 for 6 million URLs), and text cannot be crafted
//! to collide on purpose, which would hide a URL from `-u`.

use std::collections::HashSet;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher, RandomState};

/// Hands a hash that is already random to the table as it is, rotated so
/// that neither the slot (low bits) nor the control byte (top 7 bits) is
/// the shard's constant top byte.
#[derive(Default)]
struct Rotate(u64);

impl Hasher for Rotate {
    fn finish(&self) -> u64 {
        self.0.rotate_left(32)
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used; fold anything else in for safety.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Table = HashSet<u64, BuildHasherDefault<Rotate>>;

/// URLs seen, as keyed 64-bit hashes.
#[derive(Debug)]
pub struct Seen {
    keys: RandomState,
    tables: Vec<Table>,
    len: usize,
    /// The URLs a table is expected to hold ([`Seen::expecting`]; 0:
    /// no guess).
    expect: usize,
}

impl Default for Seen {
    fn default() -> Seen {
        Seen {
            keys: RandomState::new(),
            tables: (0..256).map(|_| Table::default()).collect(),
            len: 0,
            expect: 0,
        }
    }
}

impl Seen {
    /// An empty set.
    pub fn new() -> Seen {
        Seen::default()
    }

    /// An empty set that expects about `n` URLs (the statistics' exact
    /// count, which stops at a limit): a full table grows to an eighth
    /// of its share at once, then to its share, where from empty it
    /// doubled ten times (the rehashes were half of the exact count's
    /// instructions). Past its share a table doubles as before. (The
    /// statistics' exact count is `output::url_stats`' own now.)
    #[cfg(test)]
    pub fn expecting(n: usize) -> Seen {
        // A table's share, and an eighth of its spread (the counts of
        // uniform hashes in 256 tables differ by about √(n/256)).
        let share = n / 256;
        Seen { expect: share + share / 8, ..Seen::default() }
    }

    /// Adds `url`; `true` when it was not seen before.
    pub fn insert(&mut self, url: &[u8]) -> bool {
        self.insert_hash(self.keys.hash_one(url))
    }

    /// Adds the URL whose 64-bit hash is `h` (any hash that is uniform in
    /// its top byte); `true` when it was not seen before.
    pub fn insert_hash(&mut self, h: u64) -> bool {
        let Some(t) = self.tables.get_mut((h >> 56) as usize) else {
            return false;
        };
        if t.len() == t.capacity() && t.len() < self.expect {
            let step = if t.len() < self.expect / 8 { 8 } else { 1 };
            t.reserve(self.expect / step - t.len());
        }
        let fresh = t.insert(h);
        self.len += usize::from(fresh);
        fresh
    }

    /// The number of distinct URLs added.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_each_url_once() {
        let mut s = Seen::new();
        for round in 0..2 {
            for i in 0..50_000u32 {
                let fresh =
                    s.insert(format!("http://a.example/{i}").as_bytes());
                assert_eq!(fresh, round == 0, "{i}");
            }
        }
        assert_eq!(s.len(), 50_000);
        // Every table is used.
        assert!(s.tables.iter().all(|t| !t.is_empty()));
    }

    /// A set that expects its URLs counts as one that does not, and
    /// past its share grows as before.
    #[test]
    fn expecting_counts_as_new() {
        let (mut a, mut b) = (Seen::new(), Seen::expecting(20_000));
        let mut x = 5u64;
        for i in 0..60_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            // A third of the hashes come again.
            let h = if i % 3 == 0 { x % 4096 } else { x } ^ (i % 3) << 56;
            assert_eq!(a.insert_hash(h), b.insert_hash(h), "{i}");
        }
        assert_eq!(a.len(), b.len());
        assert!(b.tables.iter().all(|t| t.capacity() >= 20_000 / 256));
    }
}
