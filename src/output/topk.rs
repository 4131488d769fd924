//! A bounded heavy-hitters summary for the top hosts and TLDs: Space-Saving
//! (Metwally, Agrawal, El Abbadi 2005), evicting in batches.
//!
//! Up to `2 × capacity` keys are counted exactly. When a new key would
//! pass that, the summary keeps the `capacity` largest counts (ties broken
//! by a stable hash of the key, [`super::hll::hash64`], so that the result
//! depends neither on the map's random hash order nor on string
//! comparisons) and forgets the rest, in place;
//! `floor` becomes the largest count forgotten. A key that is new after an
//! eviction starts at `floor + n`, as Space-Saving starts a new key at the
//! smallest count it holds: every count is then at least the true count
//! and at most `floor` above it, and `floor` is at most `N / capacity`
//! for `N` counted occurrences. While no key was forgotten (`floor` 0),
//! every count is exact. Eviction costs O(capacity) once every
//! `capacity` new keys: O(1) amortised per key.

use super::hll::hash64;
use std::collections::HashMap;

/// Keys counted exactly before the first eviction: `2 × CAPACITY`.
pub const CAPACITY: usize = 1 << 16;

/// A Space-Saving summary of string keys.
#[derive(Clone, Debug)]
pub struct TopK {
    /// Each key's count and its stable hash (the tie-break).
    counts: HashMap<Box<str>, (u64, u64)>,
    capacity: usize,
    floor: u64,
    /// Scratch space of [`TopK::evict`].
    order: Vec<(u64, u64)>,
}

impl Default for TopK {
    fn default() -> TopK {
        TopK::with_capacity(CAPACITY)
    }
}

impl TopK {
    /// A summary that keeps at least `capacity` keys (at least 1).
    pub fn with_capacity(capacity: usize) -> TopK {
        TopK {
            counts: HashMap::new(),
            capacity: capacity.max(1),
            floor: 0,
            order: Vec::new(),
        }
    }

    /// Adds `n` to `key`.
    pub fn add(&mut self, key: &str, n: u64) {
        self.add_hashed(key, || hash64(key.as_bytes()), n);
    }

    /// Adds `n` to `key`, whose [`hash64`] `hash` gives when it is new.
    pub fn add_hashed(
        &mut self,
        key: &str,
        hash: impl FnOnce() -> u64,
        n: u64,
    ) {
        if let Some((c, _)) = self.counts.get_mut(key) {
            *c = c.saturating_add(n);
            return;
        }
        if self.counts.len() >= 2 * self.capacity {
            self.evict();
        }
        self.counts.insert(key.into(), (self.floor.saturating_add(n), hash()));
    }

    /// Keeps the `capacity` largest counts, ties by smaller hash (keys
    /// whose count and hash are both equal to the last one kept are all
    /// kept: a few more than `capacity` at most).
    fn evict(&mut self) {
        let k = self.capacity;
        self.order.clear();
        self.order.extend(self.counts.values().copied());
        if self.order.len() <= k {
            return;
        }
        let (_, &mut last, _) =
            self.order.select_nth_unstable_by(k - 1, |a, b| {
                b.0.cmp(&a.0).then(a.1.cmp(&b.1))
            });
        let keep =
            |&(n, h): &(u64, u64)| n > last.0 || (n == last.0 && h <= last.1);
        let mut floor = self.floor;
        self.counts.retain(|_, v| {
            let kept = keep(v);
            if !kept {
                floor = floor.max(v.0);
            }
            kept
        });
        self.floor = floor;
    }

    /// How far above its true count any count may be: 0 while every key
    /// was kept (the counts are exact).
    pub fn max_error(&self) -> u64 {
        self.floor
    }

    /// Every key held, with its count.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        self.counts.iter().map(|(k, &(n, _))| (&**k, n))
    }

    /// The number of keys held (all distinct keys while exact).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.counts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn top(t: &TopK, n: usize) -> Vec<(String, u64)> {
        let mut v: Vec<_> =
            t.iter().map(|(k, n)| (k.to_string(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v.truncate(n);
        v
    }

    #[test]
    fn exact_while_the_keys_fit() {
        let mut t = TopK::with_capacity(4);
        for (k, n) in [("a", 3), ("b", 1), ("c", 7), ("a", 2), ("d", 1)] {
            t.add(k, n);
        }
        for k in ["e", "f", "g", "h"] {
            t.add(k, 1);
        }
        assert_eq!(t.len(), 8);
        assert_eq!(t.max_error(), 0);
        assert_eq!(top(&t, 2), [("c".into(), 7), ("a".into(), 5)]);
    }

    #[test]
    fn heavy_hitters_survive_a_long_tail_with_bounded_error() {
        // Three heavy keys among 100,000 singletons.
        let mut t = TopK::with_capacity(64);
        let mut n = 0u64;
        for i in 0..100_000u64 {
            t.add(&format!("tail{i}"), 1);
            n += 1;
            if i % 10 == 0 {
                t.add("heavy-a", 1);
                n += 1;
            }
            if i % 20 == 0 {
                t.add("heavy-b", 1);
                n += 1;
            }
            if i % 50 == 0 {
                t.add("heavy-c", 1);
                n += 1;
            }
        }
        assert!(t.len() <= 128);
        let err = t.max_error();
        assert!(err > 0 && err <= n / 64, "{err} {n}");
        let got = top(&t, 3);
        let names: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(names, ["heavy-a", "heavy-b", "heavy-c"]);
        for ((_, est), truth) in got.iter().zip([10_000u64, 5_000, 2_000]) {
            assert!(*est >= truth && *est <= truth + err, "{est} {truth}");
        }
    }

    #[test]
    fn eviction_does_not_depend_on_hash_order() {
        let run = || {
            let mut t = TopK::with_capacity(3);
            for i in 0..50u64 {
                t.add(&format!("k{}", i % 17), 1 + i % 3);
            }
            top(&t, 6)
        };
        // Each map has its own random hash keys.
        assert_eq!(run(), run());
    }
}
