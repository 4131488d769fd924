use super::*;

/// Every key settled with its count, sorted by key, and the error
/// bound: two summaries fed the same adds compare equal.
fn sorted_settled(t: &TopK) -> (Vec<(String, u64)>, u64) {
    let s = t.settled();
    let mut v: Vec<_> = s.iter().map(|(k, n)| (k.to_string(), n)).collect();
    v.sort();
    (v, s.max_error())
}

fn top(t: &TopK, n: usize) -> Vec<(String, u64)> {
    let mut v: Vec<_> =
        t.settled().iter().map(|(k, n)| (k.to_string(), n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

/// A run of `n` adds of one key, made as one add of `n`, leaves the
/// summary as the `n` adds do, evictions and all (what
/// [`super::super::url_stats::UrlStats`] does with runs of a TLD).
#[test]
fn a_run_added_at_once_is_its_adds() {
    let mut state = 7u64;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
        state >> 33
    };
    for capacity in [2, 4, 16] {
        let (mut one, mut runs) =
            (TopK::with_capacity(capacity), TopK::with_capacity(capacity));
        let (mut key, mut run) = (String::new(), 0);
        for _ in 0..20_000 {
            // Runs of 1–4 of keys drawn from a skewed set.
            let k = format!("k{}", next() % (1 + next() % 200));
            for _ in 0..1 + next() % 4 {
                one.add(&k, 1);
                if run > 0 && k != key {
                    runs.add(&key, run);
                    run = 0;
                }
                key.clone_from(&k);
                run += 1;
            }
        }
        runs.add(&key, run);
        let (a, b) = (sorted_settled(&one), sorted_settled(&runs));
        assert!(a.1 > 0, "{capacity}: no eviction");
        assert_eq!(a, b, "{capacity}");
    }
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
    assert_eq!(t.settled().len(), 8);
    assert_eq!(t.settled().max_error(), 0);
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
    assert!(t.settled().len() <= 128);
    let err = t.settled().max_error();
    assert!(err > 0 && err <= n / 64, "{err} {n}");
    let got = top(&t, 3);
    let names: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["heavy-a", "heavy-b", "heavy-c"]);
    for ((_, est), truth) in got.iter().zip([10_000u64, 5_000, 2_000]) {
        assert!(*est >= truth && *est <= truth + err, "{est} {truth}");
    }
}

/// The summary as a map of owned keys: what [`TopK`] must equal.
#[derive(Default)]
struct Model {
    counts: std::collections::HashMap<String, (u64, u64)>,
    floor: u64,
}

impl Model {
    fn add(&mut self, key: &str, n: u64, capacity: usize) {
        if let Some((c, _)) = self.counts.get_mut(key) {
            *c += n;
            return;
        }
        if self.counts.len() >= 2 * capacity {
            let mut all: Vec<(u64, u64)> =
                self.counts.values().copied().collect();
            all.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            let last = all[capacity - 1];
            self.counts.retain(|_, &mut (c, h)| {
                let kept = c > last.0 || (c == last.0 && h <= last.1);
                if !kept {
                    self.floor = self.floor.max(c);
                }
                kept
            });
        }
        let h = hash64(key.as_bytes());
        self.counts.insert(key.to_owned(), (self.floor + n, h));
    }
}

#[test]
fn equals_a_map_of_owned_keys_through_evictions() {
    // Keys of many lengths (the arena is compacted now and then),
    // skewed counts, 200 evictions.
    let capacity = 50;
    let mut t = TopK::with_capacity(capacity);
    let mut m = Model::default();
    let mut x = 1u64;
    for i in 0..20_000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        let r = x >> 33;
        let key = if r.is_multiple_of(3) {
            format!("hot{}", r % 7)
        } else {
            format!("k{}{}", "é".repeat((r % 5) as usize), r % 5000)
        };
        let n = 1 + i % 4;
        t.add(&key, n);
        m.add(&key, n, capacity);
    }
    assert!(m.floor > 0);
    assert_eq!(t.settled().max_error(), m.floor);
    let mut got: Vec<(String, u64)> =
        t.settled().iter().map(|(k, n)| (k.to_owned(), n)).collect();
    let mut want: Vec<(String, u64)> =
        m.counts.iter().map(|(k, &(n, _))| (k.clone(), n)).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn batched_adds_count_as_adds_one_at_a_time() {
    // A table past BATCHED_SLOTS (8,192 keys held at most: 16,384
    // slots), with evictions, read with adds waiting in the batch.
    let capacity = 4096;
    let mut t = TopK::with_capacity(capacity);
    let mut m = Model::default();
    let mut x = 7u64;
    let mut batched = false;
    for i in 0..60_000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        let r = x >> 33;
        let key = if r.is_multiple_of(4) {
            format!("hot{}", r % 11)
        } else {
            format!("h{}.example", r % 30_000)
        };
        t.add(&key, 1 + i % 3);
        m.add(&key, 1 + i % 3, capacity);
        batched |= !t.waiting.is_empty();
    }
    assert!(batched && !t.waiting.is_empty());
    assert!(m.floor > 0);
    let s = t.settled();
    assert_eq!(s.max_error(), m.floor);
    let mut got: Vec<(String, u64)> =
        s.iter().map(|(k, n)| (k.to_owned(), n)).collect();
    let mut want: Vec<(String, u64)> =
        m.counts.iter().map(|(k, &(n, _))| (k.clone(), n)).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
}

/// [`TopK::add_each`] leaves the summary as [`TopK::add_hashed`] of
/// each key does, with the prefetch hints and without (the scalar twin):
/// from a small table into a prefetched one, through evictions, with
/// adds waiting in the batch before it.
#[test]
fn adds_of_each_key_in_place_are_its_adds() {
    for prefetch in [Prefetch::on(), Prefetch::off()] {
        let capacity = 4096;
        let (mut one, mut each) =
            (TopK::with_capacity(capacity), TopK::with_capacity(capacity));
        let mut x = 11u64;
        let mut keys: Vec<String> = Vec::new();
        for round in 0..40 {
            keys.clear();
            for _ in 0..1 + round * 97 % 3001 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                let r = x >> 33;
                keys.push(match r % 4 {
                    0 => format!("hot{}", r % 13),
                    _ => format!("h{}.example", r % 40_000),
                });
            }
            for k in &keys {
                one.add(k, 1);
            }
            if round % 5 == 0 {
                // An add waiting in `each`'s batch comes first.
                one.add("w.example", 2);
                each.add("w.example", 2);
            }
            let hashed: Vec<(&[u8], u64)> = keys
                .iter()
                .map(|k| (k.as_bytes(), hash64(k.as_bytes())))
                .collect();
            each.add_each_with(hashed.iter().copied(), prefetch);
        }
        assert!(each.slots.len() >= BATCHED_SLOTS, "{}", each.slots.len());
        let (a, b) = (sorted_settled(&one), sorted_settled(&each));
        assert!(a.1 > 0, "no eviction");
        assert_eq!(a, b, "{prefetch:?}");
    }
}

#[test]
fn eviction_by_spread_and_by_selection_agree_with_the_model() {
    // Counts far apart (the kth more than SPREAD above the floor:
    // `kth`), then a long tail of new keys (`kth_by_spread`), with
    // ties of count at the cut.
    let capacity = 20;
    let mut t = TopK::with_capacity(capacity);
    let mut m = Model::default();
    let mut x = 3u64;
    for i in 0..30_000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        let r = x >> 33;
        let (key, n) = match i {
            0..2_000 => (format!("far{}", r % 60), 1 + (r % 5) * 5_000),
            _ if r.is_multiple_of(5) => (format!("hot{}", r % 9), 1),
            _ => (format!("t{}", r % 10_000), 1 + r % 2),
        };
        t.add(&key, n);
        m.add(&key, n, capacity);
        if i % 1000 == 999 {
            let mut got: Vec<(String, u64)> =
                t.settled().iter().map(|(k, n)| (k.to_owned(), n)).collect();
            let mut want: Vec<(String, u64)> =
                m.counts.iter().map(|(k, &(n, _))| (k.clone(), n)).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{i}");
            assert_eq!(t.settled().max_error(), m.floor);
        }
    }
}

/// Four slots to a cache line: the table of 65,536 keys is 2 MiB.
#[test]
fn a_slot_is_16_bytes() {
    assert_eq!(size_of::<Slot>(), 16);
    let mut arena = Vec::new();
    let at = push_entry(&mut arena, b"example.com", 0x1234_5678_9abc_def0);
    assert_eq!(at, Some(0));
    assert_eq!(arena.len(), entry_size(11));
    assert_eq!(entry(&arena, 0), (0x1234_5678, &b"example.com"[..]));
}

#[test]
fn the_arena_stays_bounded_by_the_keys_held() {
    let mut t = TopK::with_capacity(8);
    for i in 0..10_000u32 {
        t.add(&format!("{i:0>100}"), 1);
        // At most 16 keys of 100 bytes held; the arena keeps at most
        // as many bytes of dropped keys, and what came in since.
        assert!(t.arena.len() <= 4 * 16 * 100, "{i}: {}", t.arena.len());
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

/// Keys whose hashes share the slot's tag (the low 32 bits), of one
/// length and of two, are counted apart: a probe tells them by their
/// entries (the header's length and high bits, then the bytes), in a
/// small table and in a large one (whose adds are batched).
#[test]
fn keys_of_one_tag_are_counted_apart() {
    // Pairs of keys of one tag among 2^20 (about 128), one of keys of
    // the same length and one of two lengths.
    let mut by_tag = std::collections::HashMap::new();
    let mut pairs = Vec::new();
    for i in 0..1u32 << 20 {
        let k = format!("{i}.example");
        if let Some(other) = by_tag.insert(hash64(k.as_bytes()) as u32, k) {
            pairs.push((other, format!("{i}.example")));
        }
    }
    let same = pairs.iter().find(|(a, b)| a.len() == b.len()).unwrap();
    let two = pairs.iter().find(|(a, b)| a.len() != b.len()).unwrap();
    for filler in [0, 10_000] {
        let mut t = TopK::with_capacity(1 << 16);
        for i in 0..filler {
            t.add(&format!("f{i}"), 1);
        }
        let mut want = vec![(same.0.clone(), 3), (same.1.clone(), 5)];
        want.extend([(two.0.clone(), 2), (two.1.clone(), 4)]);
        for (k, n) in &want {
            for _ in 0..*n {
                t.add(k, 1);
            }
        }
        let (got, _) = sorted_settled(&t);
        let got: Vec<_> =
            got.into_iter().filter(|(k, _)| !k.starts_with('f')).collect();
        want.sort();
        assert_eq!(got, want, "{filler} other keys");
    }
}
