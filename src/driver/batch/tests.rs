//! Tests of the batches: the pool, parts to a report that may stop, the
//! size of a hit.

use super::*;

/// A cleared batch whose hits hold `bytes` bytes of capacity.
fn holding(bytes: usize) -> Box<Batch> {
    let mut batch = Box::<Batch>::default();
    batch.hits.reserve_exact(bytes / size_of::<Found>().max(1));
    batch
}

/// Parts to a report that may stop: 1, 2, 4… up to `PART_HITS`.
#[test]
fn eager_parts_double() {
    let mut e = Eager::default();
    let mut sizes = Vec::new();
    let mut hits = 0;
    while sizes.len() < 20 {
        hits += 1;
        if e.due(hits) {
            sizes.push(hits);
            hits = 0;
        }
    }
    assert_eq!(sizes[..5], [1, 2, 4, 8, 16]);
    assert_eq!(sizes[19], PART_HITS);
}

/// The pool bounds what it holds in all, not each batch: a batch
/// over `LARGEST` keeps its pages while the pool has room, and is
/// cut back once it would hold more than `KEEP * LARGEST`.
#[test]
fn the_pool_bounds_its_total_not_each_batch() {
    let spare = Spare::default();
    let big = 3 * Spare::LARGEST;
    spare.give(holding(big));
    let held = |s: &Spare| -> Vec<usize> {
        s.0.lock().map(|v| v.iter().map(|b| b.held()).collect()).unwrap()
    };
    let whole = |b: &usize| *b > 2 * Spare::LARGEST;
    assert!(whole(&held(&spare)[0]), "{:?}", held(&spare));
    for _ in 0..Spare::KEEP {
        spare.give(holding(big));
    }
    let all = held(&spare);
    assert!(all.len() <= Spare::KEEP, "{all:?}");
    assert!(all.iter().sum::<usize>() <= Spare::KEEP * Spare::LARGEST);
    // two kept whole, the rest cut back while they fit
    assert_eq!(all.iter().filter(|b| whole(b)).count(), 2, "{all:?}");
    assert!(all.len() > 2, "{all:?}");
}

/// A hit outside mail does not carry the mail half's bytes: a 4 MiB
/// slice of 24-byte URLs held 53 MB a thread with it inline (208
/// bytes a hit; issue 33.6).
#[test]
fn a_hit_outside_mail_is_small() {
    assert!(size_of::<Found>() <= 112, "{}", size_of::<Found>());
}
