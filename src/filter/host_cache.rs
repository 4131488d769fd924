//! A small per-thread cache of host verdicts: mail repeats its hosts
//! (6,038 distinct among the 120,049 URLs of the 85 MB benchmark spool),
//! and whether a filter's host sets keep a host depends only on the
//! host's bytes and the sets. A host met again is compared, not
//! normalised ([`super::hosts::Name::parse`]) and looked up as each of
//! its label suffixes in a table too big for the caches (33 MB for
//! 1,000,000 domains): that was 1,450 instructions a URL of the spool
//! with such a list.
//!
//! Two-way set-associative by a hash of the host as written, the way
//! used last first; a slot holds the host's bytes, so an answer is never
//! another host's. Each filter built has an id of its own ([`next_id`]),
//! kept in the slot: two filters used by one thread never read each
//! other's answers.
//!
//! 8,192 slots (512 KiB a thread, made when a host filter is first
//! asked): the spool's 6,038 hosts fit, where its 512 direct-mapped
//! slots missed 7,962 of its 120,051 URLs in each pass, each miss a
//! normalisation and look-ups in that table (issue 32: a tenth of the
//! CPU of `-c --host-file` with 1 M domains on the spool given 10
//! times).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Sets of the cache, of two slots each: 512 KiB a thread.
const SETS: usize = 4096;

/// Longer hosts are decided every time (few repeat; a slot stays one
/// cache line).
const LONGEST: usize = 54;

#[derive(Clone, Copy)]
struct Slot {
    /// The id of the filter whose answer this is; 0 for an empty slot
    /// (no filter has id 0).
    filter: u64,
    /// Length of the host in `key`.
    len: u8,
    /// The answer: the filter's host sets keep the host.
    keep: bool,
    key: [u8; LONGEST],
}

const EMPTY: Slot = Slot { filter: 0, len: 0, keep: false, key: [0; LONGEST] };

thread_local! {
    static CACHE: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
}

/// A new filter id, never 0, never given twice.
pub(super) fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Whether the host sets of the filter `filter` keep `host`: the answer
/// this thread kept for that filter and host, else `decide`'s, then
/// kept (hosts of at most [`LONGEST`] bytes).
pub(super) fn keep(
    filter: u64,
    host: &[u8],
    decide: impl FnOnce() -> bool,
) -> bool {
    if filter == 0 || host.is_empty() || host.len() > LONGEST {
        return decide();
    }
    CACHE.with(|cell| {
        let Ok(mut slots) = cell.try_borrow_mut() else {
            return decide();
        };
        if slots.is_empty() {
            slots.resize(2 * SETS, EMPTY);
        }
        let at = 2 * set_of(host);
        let Some([first, second]) = slots.get_mut(at..at + 2) else {
            return decide();
        };
        let holds = |slot: &Slot| {
            slot.filter == filter
                && usize::from(slot.len) == host.len()
                && slot.key.get(..host.len()).is_some_and(|k| same(k, host))
        };
        if holds(first) {
            return first.keep;
        }
        if holds(second) {
            // The way used last goes first.
            std::mem::swap(first, second);
            return first.keep;
        }
        let keep = decide();
        // The way used less recently gives way; the new answer goes first.
        *second = *first;
        let slot = first;
        if let Some(key) = slot.key.get_mut(..host.len()) {
            key.copy_from_slice(host);
            // At most LONGEST (54) bytes.
            slot.len = u8::try_from(host.len()).unwrap_or(0);
            slot.filter = filter;
            slot.keep = keep;
            #[cfg(test)]
            MISSES.with(|m| m.set(m.get() + 1));
        }
        keep
    })
}

/// `a == b`, without a call to `memcmp`: 8 bytes at a time (the last
/// word overlapping the one before), two overlapping words of 4 under 8
/// bytes, bytes 0, n/2 and n-1 under 4. A `memcmp` call was a third of
/// the host cache's cost a URL, and most of a key compare in the
/// statistics' top-k table (`output::topk`: hosts and TLDs are short),
/// and of the Python module's dictionary columns.
#[inline]
pub fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], i: usize| {
        s.get(i..i + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map(u64::from_ne_bytes)
    };
    let half = |s: &[u8], i: usize| {
        s.get(i..i + 4)
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map(u32::from_ne_bytes)
    };
    match n {
        0 => true,
        1..4 => {
            a.first() == b.first()
                && a.get(n / 2) == b.get(n / 2)
                && a.last() == b.last()
        }
        4..8 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        _ => {
            let mut i = 0;
            while i + 8 < n {
                if word(a, i) != word(b, i) {
                    return false;
                }
                i += 8;
            }
            word(a, n - 8) == word(b, n - 8)
        }
    }
}

/// The set of `host`: a word-at-a-time multiplicative hash (FxHash's
/// step), its top bits.
fn set_of(host: &[u8]) -> usize {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let step = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
    let n = host.len();
    let mut h = n as u64;
    let word = |w: &[u8]| <[u8; 8]>::try_from(w).map_or(0, u64::from_le_bytes);
    for w in host.chunks_exact(8) {
        h = step(h, word(w));
    }
    // The last 8 bytes (overlapping the words before), or the bytes of a
    // shorter host: no copy of the remainder (a `memcpy` call a host).
    let last = match n.checked_sub(8) {
        Some(at) => host.get(at..).map_or(0, word),
        None => host.iter().fold(0, |w, &b| w << 8 | u64::from(b)),
    };
    h = step(h, last);
    // SETS is a power of two: its number of top bits.
    (h >> (64 - SETS.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::same;

    #[test]
    fn same_is_equality() {
        let a: Vec<u8> = (0..60u8).map(|i| b'a' + i % 26).collect();
        for n in 0..=a.len() {
            let key = &a[..n];
            let copy = key.to_vec();
            assert!(same(key, copy.as_slice()), "{n}");
            for at in 0..n {
                let mut other = key.to_vec();
                other[at] ^= 0x20;
                assert!(!same(key, &other), "{n} {at}");
            }
            if n > 0 {
                assert!(!same(key, &a[..n - 1]), "{n}");
            }
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Answers this thread had to decide (test builds).
    pub(super) static MISSES: std::cell::Cell<usize> =
        const { std::cell::Cell::new(0) };
}
