//! The statistics' exact count of distinct URLs ([`super::UrlStats`]):
//! their 64-bit hashes, sorted and each kept once, and the hashes added
//! since, in a buffer that is sorted and merged in when it fills.
//!
//! A set (`super::super::seen::Seen`, hashbrown) missed the caches twice
//! an insert on distinct URLs (a control group, then a bucket, in 9 MiB
//! of tables): 6% of `--stats`' CPU on 4 M distinct URLs for its first
//! 2^19 alone. Here an insert is a push, and the sort and the merge
//! read and write in order. The count is the set's: the number of
//! distinct hashes, whatever the order they came in.
//!
//! The buffer holds up to half as many hashes as are merged (at least
//! [`FIRST`]), so the merges grow with the count and a hash is moved a
//! bounded number of times on average. Memory: 8 bytes a distinct hash,
//! and the buffer's 4 at most; a merge is made in place.

/// The buffer's least size, in hashes.
const FIRST: usize = 1 << 14;

/// Distinct 64-bit hashes, counted exactly.
#[derive(Debug, Default)]
pub(super) struct Distinct {
    /// The hashes merged, sorted, each once.
    sorted: Vec<u64>,
    /// The hashes added since, in any order, repeats kept.
    pending: Vec<u64>,
}

impl Distinct {
    /// Adds the hash `h`; `true` when the buffer was merged in (the
    /// count is then [`Distinct::merged`]).
    #[inline]
    pub(super) fn insert(&mut self, h: u64) -> bool {
        self.pending.push(h);
        if self.pending.len() < (self.sorted.len() / 2).max(FIRST) {
            return false;
        }
        self.merge();
        true
    }

    /// The number of distinct hashes merged (all of them after an
    /// insert that returned `true`).
    pub(super) fn merged(&self) -> usize {
        self.sorted.len()
    }

    /// The number of distinct hashes added.
    pub(super) fn len(&self) -> usize {
        let mut rest = self.pending.clone();
        rest.sort_unstable();
        rest.dedup();
        let new = rest
            .iter()
            .filter(|h| self.sorted.binary_search(h).is_err())
            .count();
        self.sorted.len() + new
    }

    /// Sorts the buffer and merges it into the sorted hashes, from the
    /// back, in place, each hash kept once.
    fn merge(&mut self) {
        let pending = &mut self.pending;
        pending.sort_unstable();
        pending.dedup();
        let sorted = &mut self.sorted;
        let old = sorted.len();
        sorted.reserve_exact(pending.len());
        sorted.resize(old + pending.len(), 0);
        // `sorted[..i]` and `pending[..j]` are still to merge; the
        // merged ones are `sorted[k..]`.
        let (mut i, mut j, mut k) = (old, pending.len(), sorted.len());
        while let (Some(k1), Some(&b)) =
            (k.checked_sub(1), pending.get(j.wrapping_sub(1)))
        {
            let a = i.checked_sub(1).and_then(|i1| sorted.get(i1).copied());
            let put = match a {
                Some(a) if a > b => {
                    i -= 1;
                    a
                }
                Some(a) if a == b => {
                    i -= 1;
                    j -= 1;
                    b
                }
                _ => {
                    j -= 1;
                    b
                }
            };
            if let Some(s) = sorted.get_mut(k1) {
                *s = put;
            }
            k = k1;
        }
        // Repeats left a gap between the hashes in place and the merged.
        if k > i {
            sorted.copy_within(k.., i);
            sorted.truncate(sorted.len() - (k - i));
        }
        pending.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// The count is a set's, through merges with repeats inside the
    /// buffer, across it and the sorted hashes, and hashes at 0 and
    /// `u64::MAX`; `merged` is the count whenever an insert merged.
    #[test]
    fn counts_what_a_set_counts() {
        let (mut d, mut set) = (Distinct::default(), HashSet::new());
        let mut x = 7u64;
        for i in 0..300_000u64 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let h = match i % 5 {
                0 => x % 1000,
                1 => u64::MAX - x % 3,
                _ => x,
            };
            set.insert(h);
            if d.insert(h) {
                assert_eq!(d.merged(), set.len(), "{i}");
            }
            if i % 49_999 == 0 {
                assert_eq!(d.len(), set.len(), "{i}");
            }
        }
        assert_eq!(d.len(), set.len());
        assert!(d.sorted.windows(2).all(|w| w[0] < w[1]));
        assert!(d.sorted.len() > FIRST);
    }
}
