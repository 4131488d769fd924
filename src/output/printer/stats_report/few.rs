//! A few counters found by a linear search ([`Few`]): the statistics'
//! dimensions that every URL adds to (scheme, kind, mail location and
//! encoding) have a handful of keys in an input, and the fold's
//! `(scheme, kind)` pairs a handful in a batch.

/// Counters of keys `K`, in the order the keys first came, each found by
/// a linear search. Adds come in `L` lanes (the report's dimensions; one
/// for the fold), each remembering the counter its last add went to: a
/// URL nearly always has the scheme, kind, location and encoding of the
/// one before it (the search and its string compares, through `memcmp`,
/// were a sixth of the statistics' own time).
#[derive(Debug)]
pub(super) struct Few<K, const L: usize> {
    counters: Vec<(K, u64)>,
    last: [usize; L],
}

impl<K, const L: usize> Default for Few<K, L> {
    fn default() -> Self {
        Few { counters: Vec::new(), last: [0; L] }
    }
}

impl<K, const L: usize> Few<K, L> {
    /// Adds `n` to the counter of the key that `is` tells, in `lane`
    /// (below `L`): the lane's last counter when `is` holds of it, else
    /// the first that it holds of, else a new counter of `key()`;
    /// returns the counter's index (for [`Few::add_at`]).
    #[inline]
    pub(super) fn add_where(
        &mut self,
        lane: usize,
        n: u64,
        is: impl Fn(&K) -> bool,
        key: impl FnOnce() -> K,
    ) -> usize {
        let Some(last) = self.last.get_mut(lane) else {
            return usize::MAX;
        };
        if let Some(e) = self.counters.get_mut(*last).filter(|e| is(&e.0)) {
            e.1 += n;
            return *last;
        }
        match self.counters.iter().position(|e| is(&e.0)) {
            Some(i) => *last = i,
            None => {
                *last = self.counters.len();
                self.counters.push((key(), 0));
            }
        }
        if let Some(e) = self.counters.get_mut(*last) {
            e.1 += n;
        }
        *last
    }

    /// Adds `n` to the counter at `index` (as [`Few::add_where`] gave
    /// it, its key known to the caller); `false` when there is none.
    #[inline]
    pub(super) fn add_at(&mut self, index: usize, n: u64) -> bool {
        match self.counters.get_mut(index) {
            Some(e) => {
                e.1 += n;
                true
            }
            None => false,
        }
    }

    /// The counters, in the order their keys first came.
    pub(super) fn counters(&self) -> &[(K, u64)] {
        &self.counters
    }

    /// No counter, every lane at the first.
    pub(super) fn clear(&mut self) {
        self.counters.clear();
        self.last = [0; L];
    }
}

#[cfg(test)]
mod tests {
    use super::Few;

    /// The counts are those of a map, in the order the keys first came,
    /// whatever lane each add comes in.
    #[test]
    fn counts_each_key_in_order_of_first_add() {
        let mut few: Few<(u8, String), 2> = Few::default();
        let adds = [(0, "a", 1), (1, "b", 2), (0, "a", 3), (0, "c", 1)];
        for round in 0..3 {
            for &(lane, key, n) in &adds {
                let dim = lane as u8;
                few.add_where(
                    lane,
                    n,
                    |k| k.0 == dim && k.1 == key,
                    || (dim, key.to_owned()),
                );
            }
            // The last add of lane 1 was "b": a counter of lane 0 of
            // the same bytes is another key.
            few.add_where(
                1,
                1,
                |k| k.0 == 1 && k.1 == "a",
                || (1, "a".into()),
            );
            let want = [
                ((0, "a".to_owned()), 4 * (round + 1)),
                ((1, "b".to_owned()), 2 * (round + 1)),
                ((0, "c".to_owned()), round + 1),
                ((1, "a".to_owned()), round + 1),
            ];
            assert_eq!(few.counters(), want);
        }
        few.clear();
        assert!(few.counters().is_empty());
    }
}
