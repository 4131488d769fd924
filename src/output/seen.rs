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
}

impl Default for Seen {
    fn default() -> Seen {
        Seen {
            keys: RandomState::new(),
            tables: (0..256).map(|_| Table::default()).collect(),
        }
    }
}

impl Seen {
    /// An empty set.
    pub fn new() -> Seen {
        Seen::default()
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
        t.insert(h)
    }

    /// The number of distinct URLs added.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.tables.iter().map(Table::len).sum()
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
}
