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
//!
//! The keys live in one arena (`Vec<u8>`), the counts in an
//! open-addressing table (linear probing, at most half full) of 16-byte
//! slots that hold each key's count, the low 32 bits of its [`hash64`]
//! (its tag: the home slot of any table of up to 2^32 slots) and where
//! its entry is in the arena. An entry is 8 bytes of header (the key's
//! length and the high 32 bits of its hash), then the key's bytes, to
//! the next multiple of 8. The hash is usually computed once by the
//! caller (the host's hash also feeds the HyperLogLog): no allocation
//! and no second hash per key. A probe for a new key reads one cache
//! line, the one it then writes (with a separate control array, as in
//! hashbrown, it was three misses in a table far larger than the
//! caches). The table of 65,536 keys is 2 MiB: its slots were 32 bytes
//! (the whole hash, the count, the bytes' place and length), 4 MiB past
//! the level-2 cache, where the home slots' misses of `--stats` on
//! 50,000 hosts were two thirds of the reporter's adds (issue 32). A
//! key's entry is read only when its tag matches, and the whole hash
//! (the eviction's tie-break) only for the keys at the cut's count.
//! Eviction
//! finds its cut from a histogram of the counts above the floor (one
//! pass; the hashes of the keys at the cut's count are gathered and
//! ordered only when some of them are dropped), empties the slots of the
//! keys dropped and moves the others back along their probe runs in one
//! sequential pass (no tombstones), and rebuilds
//! the arena when its bytes of dropped keys pass those of the keys held
//! (so it holds at most twice their bytes; long hosts cannot make it
//! grow without bound).
//!
//! A table of [`BATCHED_SLOTS`] slots or more is past the level-2 cache, and
//! with keys that are mostly new (4 M distinct hosts) the first probe of
//! each was a miss that stalled the run, over half of
//! [`TopK::add_hashed`]. There, adds wait in a batch of [`BATCH`]: the
//! home slots of the whole batch are read first, independent loads the
//! processor overlaps, and then the adds are made in their order, so
//! the counts are those of adding one at a time. [`TopK::settled`] reads
//! the summary with the adds still waiting made. [`TopK::add_each`],
//! whose keys are all known ahead (the statistics' fold), prefetches
//! instead ([`crate::simd::prefetch`]): the home slot of the key
//! [`SLOTS_AHEAD`] keys ahead, with a hint that blocks nothing (the
//! demand loads of a batch held up retirement, half of the reporter's
//! time). Its entry is not prefetched: that needs the slot read first,
//! a demand load that stalled (s18: with the entries prefetched 8 keys
//! ahead, 0.92× the CPU of `--stats` on 50,000 hosts without).

use super::hll::hash64;
use crate::filter::same_bytes as same;
use crate::simd::prefetch::Prefetch;
use std::borrow::Cow;

/// Keys counted exactly before the first eviction: `2 × CAPACITY`
/// (65,536). It was 131,072: the host summary then took up to 16 MiB,
/// and `--stats` at `-j2` on 4 M hosts 92 MiB (issue 33.6: at most 64).
pub const CAPACITY: usize = 1 << 15;

/// Adds that wait for their home slots to be read together.
const BATCH: usize = 16;

/// How many keys ahead [`TopK::add_each`] prefetches a home slot: 24
/// was 0.97–0.99× the CPU of 16, 32 and 48 on 50,000 hosts (s18).
const SLOTS_AHEAD: usize = 24;

/// How many keys ahead [`Settled::iter`] prefetches an arena entry.
const ENTRIES_AHEAD: usize = 16;

/// Tables of at least this many slots (256 KiB) batch their adds; a
/// smaller one stays in the caches (the TLDs': a handful of keys).
const BATCHED_SLOTS: usize = 1 << 13;

/// Counts above the floor that [`TopK::evict`]'s histogram tells apart;
/// larger ones share its last bucket.
const SPREAD: usize = 1 << 12;

/// An add waiting in the batch: its key is the next `len` bytes of
/// [`TopK::waiting_keys`].
#[derive(Clone, Copy, Debug)]
struct Waiting {
    hash: u64,
    n: u64,
    len: usize,
}

/// One key: its count (0: an empty slot), the low 32 bits of its
/// [`hash64`] (its tag: where it probes from) and where its entry is in
/// the arena, in units of [`ALIGN`] bytes.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    count: u64,
    tag: u32,
    at: u32,
}

/// An arena entry's header, and the multiple its entries are padded to.
const ALIGN: usize = 8;

/// The entry at `at` (in units of [`ALIGN`]): the high 32 bits of the
/// key's hash and its bytes.
#[inline]
fn entry(arena: &[u8], at: u32) -> (u32, &[u8]) {
    let start = at as usize * ALIGN;
    let head = arena
        .get(start..start + ALIGN)
        .and_then(|h| <[u8; ALIGN]>::try_from(h).ok())
        .map_or(0, u64::from_le_bytes);
    let len = (head & u64::from(u32::MAX)) as usize;
    let key = arena.get(start + ALIGN..start + ALIGN + len);
    ((head >> 32) as u32, key.unwrap_or_default())
}

/// The bytes an entry of a key of `len` bytes takes in the arena.
fn entry_size(len: usize) -> usize {
    ALIGN + len.next_multiple_of(ALIGN)
}

/// Appends the entry of `key`, whose [`hash64`] is `hash`, to `arena`
/// (a multiple of [`ALIGN`] long); where it is, or `None` (nothing
/// appended) past 32 GiB of arena or for a key of 4 GiB.
fn push_entry(arena: &mut Vec<u8>, key: &[u8], hash: u64) -> Option<u32> {
    let at = u32::try_from(arena.len() / ALIGN).ok()?;
    let len = u32::try_from(key.len()).ok()?;
    let head = u64::from(len) | (hash >> 32) << 32;
    arena.extend_from_slice(&head.to_le_bytes());
    arena.extend_from_slice(key);
    arena.resize(arena.len().next_multiple_of(ALIGN), 0);
    Some(at)
}

/// The home slot of a key whose [`hash64`] (or tag) is `hash` in a
/// table of `mask + 1` slots: from the tag, as the table's slots hold.
#[inline]
fn home(hash: u64, mask: usize) -> usize {
    (hash as u32) as usize & mask
}

/// A Space-Saving summary of string keys.
#[derive(Clone, Debug)]
pub struct TopK {
    /// The table: a power of two long (or empty), at most half full.
    slots: Vec<Slot>,
    /// The number of keys held.
    len: usize,
    /// Their bytes, one after the other (UTF-8: each key is a `&str`).
    arena: Vec<u8>,
    /// Bytes of the arena whose keys were dropped.
    dead: usize,
    capacity: usize,
    floor: u64,
    /// Scratch space of [`TopK::evict`]: keys by count and hash, keys by
    /// count above the floor, hashes of the keys at one count.
    order: Vec<(u64, u64)>,
    spread: Vec<usize>,
    ties: Vec<u64>,
    /// The adds waiting in the batch (see the module's documentation),
    /// and their keys one after the other.
    waiting: Vec<Waiting>,
    waiting_keys: Vec<u8>,
    /// What the batch's reads of the home slots saw, kept so that they
    /// are made.
    seen: u64,
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
            slots: Vec::new(),
            len: 0,
            arena: Vec::new(),
            dead: 0,
            capacity: capacity.max(1),
            floor: 0,
            order: Vec::new(),
            spread: Vec::new(),
            ties: Vec::new(),
            waiting: Vec::new(),
            waiting_keys: Vec::new(),
            seen: 0,
        }
    }

    /// Adds `n` to `key` (nothing when `n` is 0).
    pub fn add(&mut self, key: &str, n: u64) {
        self.add_hashed(key.as_bytes(), hash64(key.as_bytes()), n);
    }

    /// Adds `n` to `key` (the bytes of a `&str`: UTF-8), whose
    /// [`hash64`] is `hash` (the caller has it already: the host's hash
    /// also goes into the HyperLogLog); nothing when `n` is 0. In a
    /// large table the add may wait in the batch: read the summary
    /// through [`TopK::settled`].
    pub fn add_hashed(&mut self, key: &[u8], hash: u64, n: u64) {
        if n == 0 {
            return;
        }
        if self.slots.len() < BATCHED_SLOTS {
            return self.count(key, hash, n);
        }
        self.waiting.push(Waiting { hash, n, len: key.len() });
        self.waiting_keys.extend_from_slice(key);
        if self.waiting.len() >= BATCH {
            self.settle();
        }
    }

    /// Adds 1 to each key of `keys` (with its [`hash64`]) in turn, as
    /// [`TopK::add_hashed`] of each would, the keys read where they are
    /// (no key is copied into a batch: the statistics' fold holds its
    /// hosts). In a large table, with [`Prefetch::detect`]'s hints, the
    /// home slot of the key [`SLOTS_AHEAD`] keys ahead is prefetched, so
    /// that an add finds it in the caches.
    pub fn add_each<'k, I>(&mut self, keys: I)
    where
        I: Iterator<Item = (&'k [u8], u64)> + Clone,
    {
        self.add_each_with(keys, Prefetch::detect());
    }

    /// [`TopK::add_each`] with the hints of `prefetch` (the same counts
    /// with any).
    fn add_each_with<'k, I>(&mut self, keys: I, prefetch: Prefetch)
    where
        I: Iterator<Item = (&'k [u8], u64)> + Clone,
    {
        if !self.waiting.is_empty() {
            self.settle();
        }
        if !prefetch.is_on() {
            for (key, hash) in keys {
                self.count(key, hash, 1);
            }
            return;
        }
        let mut far = keys.clone().map(|(_, h)| h);
        for h in far.by_ref().take(SLOTS_AHEAD) {
            self.prefetch_slot(prefetch, h);
        }
        for (key, hash) in keys {
            if let Some(h) = far.next() {
                self.prefetch_slot(prefetch, h);
            }
            self.count(key, hash, 1);
        }
    }

    /// Prefetches the home slot of a key whose [`hash64`] is `hash`, in a
    /// large table.
    #[inline(always)]
    fn prefetch_slot(&self, prefetch: Prefetch, hash: u64) {
        if self.slots.len() < BATCHED_SLOTS {
            return;
        }
        let mask = self.slots.len() - 1;
        if let Some(s) = self.slots.get(home(hash, mask)) {
            prefetch.read(s);
        }
    }

    /// Prefetches the arena entry (its header) of the key of `s`.
    #[inline(always)]
    fn prefetch_entry(&self, prefetch: Prefetch, s: &Slot) {
        if let Some(head) = self.arena.get(s.at as usize * ALIGN) {
            prefetch.read(head);
        }
    }

    /// Makes the adds waiting in the batch: reads the home slot of each
    /// (the loads are independent: their misses overlap), then adds
    /// each in turn.
    fn settle(&mut self) {
        if let Some(mask) = self.slots.len().checked_sub(1) {
            let mut seen = 0;
            for w in &self.waiting {
                let home = self.slots.get(home(w.hash, mask));
                seen ^= home.map_or(0, |s| s.count);
            }
            self.seen ^= seen;
        }
        let waiting = std::mem::take(&mut self.waiting);
        let keys = std::mem::take(&mut self.waiting_keys);
        let mut at = 0;
        for w in &waiting {
            let key = keys.get(at..at + w.len).unwrap_or_default();
            at += w.len;
            self.count(key, w.hash, w.n);
        }
        // The buffers again, empty, for the next batch.
        self.waiting = waiting;
        self.waiting.clear();
        self.waiting_keys = keys;
        self.waiting_keys.clear();
    }

    /// The summary with every add made: borrowed when none waits in the
    /// batch, else a copy whose batch is made.
    pub fn settled(&self) -> Settled<'_> {
        if self.waiting.is_empty() {
            return Settled(Cow::Borrowed(self));
        }
        let mut copy = self.clone();
        copy.settle();
        Settled(Cow::Owned(copy))
    }

    /// [`TopK::settled`] of a summary given away: the same, owned.
    pub fn into_settled(mut self) -> Settled<'static> {
        if !self.waiting.is_empty() {
            self.settle();
        }
        Settled(Cow::Owned(self))
    }

    /// Adds `n` (not 0) to `key`, whose [`hash64`] is `hash`, now:
    /// inline the add to a key held (nearly every add), out of line a
    /// new key's ([`TopK::insert`]). (Inlined in [`TopK::add_each`]'s
    /// loop: the call and its saved registers were a sixth of an add.)
    #[inline(always)]
    fn count(&mut self, key: &[u8], hash: u64, n: u64) {
        let at = self.probe(key, hash);
        if let Some(s) = at.and_then(|i| self.slots.get_mut(i)) {
            if s.count > 0 {
                s.count = s.count.saturating_add(n);
                return;
            }
        }
        self.insert(key, hash, n, at);
    }

    /// Adds the new `key` with `n` (the floor's and `n`), whose
    /// [`hash64`] is `hash`; `at`, the empty slot a probe found for it.
    #[inline(never)]
    fn insert(&mut self, key: &[u8], hash: u64, n: u64, at: Option<usize>) {
        let mut at = at;
        if self.len >= 2 * self.capacity {
            self.evict();
            at = None;
        }
        if 2 * (self.len + 1) > self.slots.len() {
            self.rebuild((2 * (self.len + 1)).next_power_of_two().max(16));
            at = None;
        }
        let i = match at {
            Some(i) => i,
            None => match self.probe(key, hash) {
                Some(i) => i,
                None => return, // Unreachable: the table has room.
            },
        };
        let Some(s) = self.slots.get_mut(i) else {
            return;
        };
        // Past 32 GiB of keys (never: memory runs out first) a new key
        // is not held.
        let Some(at) = push_entry(&mut self.arena, key, hash) else {
            return;
        };
        *s =
            Slot { count: self.floor.saturating_add(n), tag: hash as u32, at };
        self.len += 1;
    }

    /// The slot of `key`, or the empty slot where it would go; `None`
    /// when the table is empty (or, never, full) or `key` is too long
    /// to be held (4 GiB).
    #[inline(always)]
    fn probe(&self, key: &[u8], hash: u64) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        // The header of `key`'s entry, as `push_entry` writes it: one
        // compare for the length and the high half of the hash.
        let head =
            u64::from(u32::try_from(key.len()).ok()?) | hash >> 32 << 32;
        let mut i = home(hash, mask);
        for _ in 0..self.slots.len() {
            let s = self.slots.get(i)?;
            if s.count == 0 {
                return Some(i);
            }
            if s.tag == hash as u32 && self.holds(s.at, head, key) {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
        None
    }

    /// Whether the entry at `at` is that of `key`, whose entry header is
    /// `head` ([`TopK::probe`]'s test: the header's word, then the
    /// bytes, from one bounds check).
    #[inline(always)]
    fn holds(&self, at: u32, head: u64, key: &[u8]) -> bool {
        let start = at as usize * ALIGN;
        let stored = self.arena.get(start..start + ALIGN + key.len());
        let Some((h, k)) = stored.and_then(|e| e.split_first_chunk()) else {
            return false;
        };
        u64::from_le_bytes(*h) == head && same(k, key)
    }

    /// The whole [`hash64`] of the key of `s` (its tag, and the high
    /// bits from its entry): the eviction's tie-break.
    fn hash_of(&self, s: &Slot) -> u64 {
        let (high, _) = entry(&self.arena, s.at);
        u64::from(high) << 32 | u64::from(s.tag)
    }

    /// The table grown to `size` slots (a power of two, more than twice
    /// the keys held), every key in it again.
    fn rebuild(&mut self, size: usize) {
        let old =
            std::mem::replace(&mut self.slots, vec![Slot::default(); size]);
        let mask = size - 1;
        for s in old.iter().filter(|s| s.count > 0) {
            let mut i = home(u64::from(s.tag), mask);
            while self.slots.get(i).is_some_and(|t| t.count > 0) {
                i = (i + 1) & mask;
            }
            if let Some(t) = self.slots.get_mut(i) {
                *t = *s;
            }
        }
    }

    /// Keeps the `capacity` largest counts, ties by smaller hash (keys
    /// whose count and hash are both equal to the last one kept are all
    /// kept: a few more than `capacity` at most). The largest count
    /// dropped raises `floor`.
    fn evict(&mut self) {
        let k = self.capacity;
        if self.len <= k {
            return;
        }
        let Some(last) = self.kth_by_spread(k).or_else(|| self.kth(k)) else {
            return;
        };
        self.drop_and_reseat(last);
        if self.dead > self.arena.len().saturating_sub(self.dead) {
            self.compact();
        }
    }

    /// The count and hash of the `k`th key (from 1) by count, larger
    /// first, then by hash, smaller first; `None` when `k` keys or fewer
    /// are held.
    fn kth(&mut self, k: usize) -> Option<(u64, u64)> {
        let mut order = std::mem::take(&mut self.order);
        order.clear();
        order.extend(
            self.slots
                .iter()
                .filter(|s| s.count > 0)
                .map(|s| (s.count, self.hash_of(s))),
        );
        self.order = order;
        if self.order.len() <= k {
            return None;
        }
        let (_, &mut last, _) =
            self.order.select_nth_unstable_by(k - 1, |a, b| {
                b.0.cmp(&a.0).then(a.1.cmp(&b.1))
            });
        Some(last)
    }

    /// [`TopK::kth`] from a histogram of the counts above the floor, when
    /// the `k`th count is less than [`SPREAD`] above it (nearly always:
    /// most keys held are new, counted from the floor); `None` otherwise.
    /// One pass over the table counts the keys at each count, a second
    /// takes the hashes of the keys at the `k`th count, and only those are
    /// ordered (where a selection of all `(count, hash)` pairs was half
    /// of an eviction's time).
    fn kth_by_spread(&mut self, k: usize) -> Option<(u64, u64)> {
        let floor = self.floor;
        self.spread.clear();
        self.spread.resize(SPREAD, 0);
        for s in self.slots.iter().filter(|s| s.count > 0) {
            // Every count held is at least the floor (kept keys count at
            // least the largest dropped); a smaller one is for `kth`.
            let above = s.count.checked_sub(floor)?;
            let bucket = above.min(SPREAD as u64 - 1) as usize;
            if let Some(n) = self.spread.get_mut(bucket) {
                *n += 1;
            }
        }
        // Keys counted more than SPREAD above the floor share the last
        // bucket: when the kth is among them, `kth` orders them.
        let mut larger = *self.spread.last()?;
        if larger >= k {
            return None;
        }
        let mut at = None;
        for bucket in (0..SPREAD - 1).rev() {
            let n = self.spread.get(bucket).copied().unwrap_or(0);
            if larger + n >= k {
                at = Some(bucket);
                break;
            }
            larger += n;
        }
        let count = floor + at? as u64;
        let tied = self.spread.get(at?).copied().unwrap_or(0);
        if larger + tied == k {
            // Every key at `count` is kept (as when the kth is the one
            // of them with the largest hash): no pass for their hashes.
            // So it is when all the keys are new, each counted once.
            return Some((count, u64::MAX));
        }
        let mut ties = std::mem::take(&mut self.ties);
        ties.clear();
        ties.extend(
            self.slots
                .iter()
                .filter(|s| s.count == count)
                .map(|s| self.hash_of(s)),
        );
        self.ties = ties;
        // The (k - larger)th smallest hash of those at `count`.
        let nth = (k - larger).checked_sub(1)?;
        let hash = if nth + 1 == self.ties.len() {
            self.ties.iter().copied().max()?
        } else {
            *self.ties.get_mut(..)?.select_nth_unstable(nth).1
        };
        Some((count, hash))
    }

    /// Drops the keys after `last` (by count, larger first, then by hash)
    /// and moves every other key back to where a probe from its hash
    /// finds it (linear probing: a probe stops at the first empty slot),
    /// in one pass that starts after a slot that was empty (the table is
    /// at most half full). Each slot is emptied, and a key kept is put in
    /// the first empty slot from its home on, which is at most where it
    /// was: the keys move only backwards, over slots the pass has just
    /// read (no random access, no allocation). A key's probe run, home to
    /// slot, holds no empty slot, so the pass's start is not in it: the
    /// pass reads the home first. The largest count dropped raises the
    /// floor.
    fn drop_and_reseat(&mut self, last: (u64, u64)) {
        let size = self.slots.len();
        let mask = size.wrapping_sub(1);
        let Some(start) = self.slots.iter().position(|s| s.count == 0) else {
            return;
        };
        for k in 1..=size {
            let i = (start + k) & mask;
            let s = match self.slots.get_mut(i) {
                Some(s) if s.count > 0 => std::mem::take(s),
                _ => continue,
            };
            // (the whole hash read only at the cut's count, and not
            // when every key at that count is kept)
            if s.count < last.0
                || (s.count == last.0
                    && last.1 != u64::MAX
                    && self.hash_of(&s) > last.1)
            {
                self.floor = self.floor.max(s.count);
                self.dead += entry_size(entry(&self.arena, s.at).1.len());
                self.len -= 1;
                continue;
            }
            let mut j = home(u64::from(s.tag), mask);
            while self.slots.get(j).is_some_and(|t| t.count > 0) {
                j = (j + 1) & mask;
            }
            if let Some(t) = self.slots.get_mut(j) {
                *t = s;
            }
        }
    }

    /// Rebuilds the arena with the bytes of the keys held only.
    fn compact(&mut self) {
        let mut arena = Vec::with_capacity(self.arena.len() - self.dead);
        for s in self.slots.iter_mut().filter(|s| s.count > 0) {
            let start = s.at as usize * ALIGN;
            let (_, key) = entry(&self.arena, s.at);
            let old = self.arena.get(start..start + entry_size(key.len()));
            // The arena shrinks: the new place fits in a u32 too.
            s.at = u32::try_from(arena.len() / ALIGN).unwrap_or(u32::MAX);
            arena.extend_from_slice(old.unwrap_or_default());
        }
        self.arena = arena;
        self.dead = 0;
    }
}

/// A [`TopK`] with no add waiting in its batch: what it counted.
#[derive(Debug)]
pub struct Settled<'a>(Cow<'a, TopK>);

impl Settled<'_> {
    /// How far above its true count any count may be: 0 while every key
    /// was kept (the counts are exact).
    pub fn max_error(&self) -> u64 {
        self.0.floor
    }

    /// Every key held, with its count. With [`Prefetch::detect`]'s
    /// hints the entry of the key [`ENTRIES_AHEAD`] keys ahead is
    /// prefetched: the table is in the keys' hashes' order, the arena in
    /// the order they came, so each entry read was a miss (a fifth of the
    /// report's end on 50,000 hosts, s18).
    pub fn iter(&self) -> impl Iterator<Item = (&str, u64)> + '_ {
        let t: &TopK = &self.0;
        let prefetch = Prefetch::detect();
        let held = t.slots.iter().filter(|s| s.count > 0);
        let mut ahead = held.clone();
        if prefetch.is_on() {
            for s in ahead.by_ref().take(ENTRIES_AHEAD) {
                t.prefetch_entry(prefetch, s);
            }
        }
        held.map(move |s| {
            if prefetch.is_on() {
                if let Some(a) = ahead.next() {
                    t.prefetch_entry(prefetch, a);
                }
            }
            let (_, bytes) = entry(&t.arena, s.at);
            // Keys went in as `&str` and are copied whole.
            (std::str::from_utf8(bytes).unwrap_or_default(), s.count)
        })
    }

    /// The number of keys held (all distinct keys while exact).
    pub fn len(&self) -> usize {
        self.0.len
    }
}

#[cfg(test)]
mod tests;
