//! A prefetch hint: asks the processor to bring the cache line of a
//! value into the caches, and goes on at once (issue 32, `--stats`).
//!
//! A prefetch is no load: it never faults, never blocks the
//! instructions after it and changes no value the program reads, so a
//! program gives the same results with or without it; only where its
//! misses are paid changes. The statistics' host summary
//! (`crate::output::topk::TopK`) is 3 MiB read at random, past the
//! level-2 cache: there a demand load of the next keys' slots (safe
//! Rust's only way to touch them early) held up retirement and lost
//! (2026-11-28-s16-stats.md); a prefetch does not.
//!
//! - `x86_64`: `prefetcht0` (`_mm_prefetch` with `_MM_HINT_T0`), SSE,
//!   part of the x86_64 baseline;
//! - the scalar twin: nothing, on every target (aarch64 has its
//!   prefetch intrinsic only on nightly). It is the oracle: the callers'
//!   tests compare what they count with [`Prefetch::on`] and
//!   [`Prefetch::off`].
//!
//! [`Prefetch::detect`] picks once per process; `URLGREP_SIMD=off` in the
//! environment picks [`Prefetch::off`], as it picks the scalar byte-class
//! kernel.
//!
//! # What a reviewer checks
//!
//! One `unsafe` block, the call of `_mm_prefetch` in [`Prefetch::read`]
//! on the address of a live reference: `_mm_prefetch` takes a raw
//! pointer (hence `unsafe`), but a prefetch reads nothing the program
//! sees and cannot fault, whatever the address.

use std::sync::OnceLock;

/// Whether prefetch hints are given: a `Copy` token, picked once and
/// passed to the loops that give them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prefetch(bool);

impl Prefetch {
    /// Hints where this target has them, picked once per process;
    /// [`Prefetch::off`] when the environment has `URLGREP_SIMD=off`.
    pub fn detect() -> Prefetch {
        static PICKED: OnceLock<Prefetch> = OnceLock::new();
        *PICKED.get_or_init(|| {
            if super::forced_off() {
                return Prefetch::off();
            }
            Prefetch::on()
        })
    }

    /// Hints given (on a target that has them: x86_64).
    pub fn on() -> Prefetch {
        Prefetch(cfg!(target_arch = "x86_64"))
    }

    /// No hints: the scalar twin, the oracle.
    pub fn off() -> Prefetch {
        Prefetch(false)
    }

    /// Whether hints are given: a loop may leave out what it reads only
    /// to give them.
    #[inline]
    pub fn is_on(self) -> bool {
        self.0
    }

    /// Asks for the cache line of `value` to be brought in, for a read
    /// soon; nothing when off.
    #[inline(always)]
    pub fn read<T>(self, value: &T) {
        if !self.0 {
            return;
        }
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = std::ptr::from_ref(value).cast::<i8>();
            // SAFETY: `p` is the address of a live reference. A prefetch
            // loads nothing into a register and cannot fault, whatever
            // the address; SSE (`prefetcht0`) is in the x86_64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Prefetch;

    /// A hint changes nothing that is read, on or off.
    #[test]
    fn a_hint_changes_nothing() {
        let v: Vec<u64> = (0..4096).collect();
        for p in [Prefetch::on(), Prefetch::off(), Prefetch::detect()] {
            let mut sum = 0u64;
            for i in 0..v.len() {
                if let Some(x) = v.get(i + 64) {
                    p.read(x);
                }
                sum += v[i];
            }
            assert_eq!(sum, 4095 * 4096 / 2);
        }
        assert!(!Prefetch::off().is_on());
        assert_eq!(Prefetch::on().is_on(), cfg!(target_arch = "x86_64"));
    }
}
