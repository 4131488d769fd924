//! Byte classes 32 bytes at a time: the crate's one module of `unsafe`
//! code (issue 32).
//!
//! For a block of [`BLOCK`] bytes, [`Kernel::eq`] gives the bitmask of
//! one byte (bit `i` for byte `i`), and [`Kernel::masks`] gives three
//! bitmasks (bit `i` for byte `i`): the bytes equal to each of two chosen
//! bytes, and the bytes of a general class, looked up in two 16-entry
//! nibble tables as simdjson's stage 1 does ([`Classes`]). The kernels:
//!
//! - `avx2`: one 32-byte vector (`vpcmpeqb`, `vpshufb`, `vpmovmskb`),
//!   when the CPU has AVX2;
//! - `ssse3`: two 16-byte vectors (`pshufb`), when the CPU has SSSE3;
//! - `sse2`: the two equalities by vector, the class by the scalar table
//!   (SSE2 has no byte shuffle); every x86_64 CPU has SSE2;
//! - `scalar`: a loop over the bytes, on every target. It is the oracle:
//!   the tests (`src/simd/tests.rs`, a proptest over every kernel the CPU
//!   runs) and the fuzz target `simd_classes` compare each kernel with it.
//!
//! [`Kernel::url`] gives the classes the one-pass reading of a bare URL
//! walks over (`scan::one_pass`: a host's letters and digits, dots and
//! hyphens; a path's plain bytes): by a nibble lookup of seven class
//! bits with SSSE3 and AVX2, by byte ranges and equalities with SSE2;
//! its scalar twin is the oracle as for the others.
//!
//! [`Kernel::lines`] gives, for a block of [`LINE_BLOCK`] (64) bytes,
//! the two classes the header walk (`mail::header`) asks about: line
//! ends (`\n`) and the bytes that end a field name (all but RFC 5322's
//! `ftext`): with AVX2 two 32-byte vectors, with SSE2 and SSSE3 four
//! 16-byte ones; its scalar twin is the oracle.
//!
//! [`Kernel::detect`] picks the best kernel once per process and caches
//! it; `URLGREP_SIMD=off` in the environment forces `scalar` (CI runs the
//! tests a second time so).
//!
//! # What a reviewer checks
//!
//! - `unsafe` is only the call of a `#[target_feature]` function from
//!   code compiled without that feature (three blocks in
//!   [`Kernel::masks`] and in [`Kernel::url`], one in [`Kernel::eq`]
//!   and two in [`Kernel::lines`]): each such call is on a
//!   `Level` that only [`all`](Kernel::all) makes, after
//!   `is_x86_feature_detected!` said yes (SSE2: always, the x86_64
//!   baseline, asserted at compile time). `Level` is private, so no
//!   other code makes one.
//! - Loads are safe: a `[u8; 32]` array becomes a vector through
//!   `_mm_set_epi64x` / `_mm256_set_epi64x` of its `u64` words, never
//!   through a pointer.
//! - Value intrinsics are safe inside `#[target_feature]` functions
//!   (Rust 1.87). Rust asks for the attribute even for SSE2, which every
//!   x86_64 target enables, hence the SSE2 calls' `unsafe` too.
//! - Not done yet: aarch64 NEON (the scalar kernel runs there), and the
//!   scalar kernel under Miri.

#![allow(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod prefetch;
mod scalar;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

use std::sync::OnceLock;

// Every x86_64 target has SSE2 (`Level::Sse2` relies on it).
#[cfg(target_arch = "x86_64")]
const _: () = assert!(cfg!(target_feature = "sse2"));

/// The bytes of one block.
pub const BLOCK: usize = 32;

/// What a kernel classifies: two bytes by equality and one class by
/// nibble tables. Byte `b` is in the class when
/// `lo[b & 15] & hi[b >> 4] & want != 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Classes {
    /// The two bytes told by equality ([`Masks::eq`]).
    pub eq: [u8; 2],
    /// Class bits by low nibble.
    pub lo: [u8; 16],
    /// Class bits by high nibble.
    pub hi: [u8; 16],
    /// The class bits that count.
    pub want: u8,
}

impl Classes {
    /// The two bytes `eq` and the class of exactly the bytes of `set`, or
    /// `None` when `set` needs more than 8 class bits (it groups its
    /// bytes by high nibble into more than 8 distinct sets of low
    /// nibbles).
    pub fn new(eq: [u8; 2], set: &[u8]) -> Option<Self> {
        // The low nibbles of `set`'s bytes, per high nibble.
        let mut rows = [0u16; 16];
        for &b in set {
            rows[usize::from(b >> 4)] |= 1 << (b & 15);
        }
        let mut distinct: Vec<u16> = Vec::new();
        let (mut lo, mut hi) = ([0u8; 16], [0u8; 16]);
        for (h, &row) in rows.iter().enumerate() {
            if row == 0 {
                continue;
            }
            let k = match distinct.iter().position(|&r| r == row) {
                Some(k) => k,
                None => {
                    distinct.push(row);
                    distinct.len() - 1
                }
            };
            if k >= 8 {
                return None;
            }
            let bit = 1u8 << k;
            hi[h] |= bit;
            for (l, slot) in lo.iter_mut().enumerate() {
                if row & (1 << l) != 0 {
                    *slot |= bit;
                }
            }
        }
        Some(Classes { eq, lo, hi, want: 0xff })
    }

    /// Whether `b` is in the class (the scalar definition).
    #[inline]
    pub fn contains(&self, b: u8) -> bool {
        self.lo[usize::from(b & 15)] & self.hi[usize::from(b >> 4)] & self.want
            != 0
    }
}

/// The bitmasks of one block: bit `i` for byte `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Masks {
    /// The bytes equal to `Classes::eq[0]` and `Classes::eq[1]`.
    pub eq: [u32; 2],
    /// The bytes of the class.
    pub class: u32,
}

impl Masks {
    /// Only the first `len` bytes' bits.
    fn clip(self, len: usize) -> Masks {
        let keep = clip(len);
        Masks {
            eq: [self.eq[0] & keep, self.eq[1] & keep],
            class: self.class & keep,
        }
    }
}

/// The bits of the first `len` bytes of a block.
fn clip(len: usize) -> u32 {
    match u32::try_from(len) {
        Ok(n) if n < 32 => (1u32 << n) - 1,
        _ => u32::MAX,
    }
}

/// The bytes of [`plain`] besides ASCII letters and digits.
const PLAIN_SIGNS: &[u8] = b"-._~!$'*+,;=:@/?";

/// Whether `b` is a plain byte of a URL's path, query or fragment:
/// an ASCII letter or digit or one of `-._~!$'*+,;=:@/?` (RFC 3986
/// `pchar / "/" / "?"` without `pct-encoded`); [`UrlMasks::plain`].
pub const fn plain(b: u8) -> bool {
    if b.is_ascii_alphanumeric() {
        return true;
    }
    let mut i = 0;
    while i < PLAIN_SIGNS.len() {
        if PLAIN_SIGNS[i] == b {
            return true;
        }
        i += 1;
    }
    false
}

/// The URL byte classes of one block ([`Kernel::url`]): bit `i` for
/// byte `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UrlMasks {
    /// ASCII letters and digits.
    pub alnum: u32,
    /// `.`
    pub dot: u32,
    /// `-`
    pub dash: u32,
    /// The bytes of [`plain`].
    pub plain: u32,
}

/// The bytes of a block of [`Kernel::lines`].
pub const LINE_BLOCK: usize = 64;

/// Whether `b` ends a header field's name: it is not RFC 5322 §3.6.8's
/// `ftext = %d33-57 / %d59-126` (a control byte, a blank, `:`, DEL or
/// a byte above 127); [`LineMasks::stop`].
pub const fn name_stop(b: u8) -> bool {
    b <= b' ' || b >= 127 || b == b':'
}

/// The header-line classes of one block of [`LINE_BLOCK`] bytes
/// ([`Kernel::lines`]): bit `i` for byte `i`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineMasks {
    /// `\n`
    pub newline: u64,
    /// The bytes that end a field name ([`name_stop`]).
    pub stop: u64,
}

/// Which instructions a kernel uses. Private: a vector level is only
/// made after the CPU was seen to have its features.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Sse2,
    #[cfg(target_arch = "x86_64")]
    Ssse3,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

/// Whether the environment has `URLGREP_SIMD=off`: the scalar twins,
/// the oracles, run instead of the vector kernels and hints (CI runs the
/// tests a second time so).
pub(crate) fn forced_off() -> bool {
    std::env::var_os("URLGREP_SIMD").is_some_and(|v| v == "off")
}

/// A byte-class kernel this CPU runs (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Level);

impl Kernel {
    /// The best kernel of this CPU, picked once per process; the scalar
    /// one when the environment has `URLGREP_SIMD=off`.
    pub fn detect() -> Kernel {
        static PICKED: OnceLock<Kernel> = OnceLock::new();
        *PICKED.get_or_init(|| {
            if forced_off() {
                return Kernel(Level::Scalar);
            }
            Kernel::all().into_iter().last().unwrap_or(Kernel(Level::Scalar))
        })
    }

    /// The scalar kernel, the oracle.
    pub fn scalar() -> Kernel {
        Kernel(Level::Scalar)
    }

    /// Every kernel this CPU runs, scalar first and the best last.
    pub fn all() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut all = vec![Kernel(Level::Scalar)];
        #[cfg(target_arch = "x86_64")]
        {
            all.push(Kernel(Level::Sse2));
            if std::arch::is_x86_feature_detected!("ssse3") {
                all.push(Kernel(Level::Ssse3));
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                all.push(Kernel(Level::Avx2));
            }
        }
        all
    }

    /// The kernel's name: `scalar`, `sse2`, `ssse3` or `avx2`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Level::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Level::Sse2 => "sse2",
            #[cfg(target_arch = "x86_64")]
            Level::Ssse3 => "ssse3",
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => "avx2",
        }
    }

    /// The masks of `block`.
    #[inline]
    pub fn masks(self, block: &[u8; BLOCK], classes: &Classes) -> Masks {
        match self.0 {
            Level::Scalar => scalar::masks(block, classes),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline (the `const`
            // assertion below fails the build of a target without it).
            Level::Sse2 => unsafe { x86::sse2(block, classes) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Ssse3` is only made by `Kernel::all` after
            // `is_x86_feature_detected!("ssse3")`, so the CPU runs the
            // SSSE3 instructions `x86::ssse3` is compiled with.
            Level::Ssse3 => unsafe { x86::ssse3(block, classes) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Avx2` is only made by `Kernel::all` after
            // `is_x86_feature_detected!("avx2")`, so the CPU runs the
            // AVX2 instructions `x86::avx2` is compiled with.
            Level::Avx2 => unsafe { x86::avx2(block, classes) },
        }
    }

    /// The bytes of `block` equal to `b` (the one-byte kernel, e.g. for
    /// line ends). Every vector level runs it with SSE2: two compares
    /// that inline into the caller, where an AVX2 function (one compare)
    /// is a call that cannot be inlined into code built without AVX2.
    ///
    /// Not used by the header walk, which reads [`lines`](Kernel::lines)
    /// a block at a time: line ends by this mask, 32 bytes
    /// at a time, cost more than memchr's SSE2 search per line (callgrind,
    /// SpamAssassin folder `-j1`: 298.7 M instructions in all before,
    /// 302.0 M with the AVX2 call, 300.5 M with SSE2 inlined).
    #[inline]
    pub fn eq(self, block: &[u8; BLOCK], b: u8) -> u32 {
        match self.0 {
            Level::Scalar => scalar::eq(block, b),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline (the `const`
            // assertion above fails the build of a target without it).
            _ => unsafe { x86::sse2_eq(block, b) },
        }
    }

    /// The URL byte classes of `block` ([`UrlMasks`]): by nibble
    /// lookup with SSSE3 and AVX2 (a call, about 20 instructions), by
    /// byte ranges and equalities with SSE2 (about 80, inlined).
    #[inline]
    pub fn url(self, block: &[u8; BLOCK]) -> UrlMasks {
        match self.0 {
            Level::Scalar => scalar::url(block),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline (the `const`
            // assertion above fails the build of a target without it).
            Level::Sse2 => unsafe { x86::sse2_url(block) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Ssse3` is only made by `Kernel::all` after
            // `is_x86_feature_detected!("ssse3")`.
            Level::Ssse3 => unsafe { x86::ssse3_url(block) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Avx2` is only made by `Kernel::all` after
            // `is_x86_feature_detected!("avx2")`.
            Level::Avx2 => unsafe { x86::avx2_url(block) },
        }
    }

    /// The header-line classes of `block` ([`LineMasks`]): by two
    /// 32-byte vectors with AVX2, four 16-byte ones with SSE2 (SSSE3
    /// adds nothing here), a byte at a time with the scalar kernel. The
    /// header walk asks for one block per 64 bytes of header, about one
    /// per line: with AVX2 a block costs 34 instructions, the call
    /// included, with SSE2 about 65 (callgrind).
    #[inline(always)]
    pub fn lines(self, block: &[u8; LINE_BLOCK]) -> LineMasks {
        match self.0 {
            Level::Scalar => scalar::lines(block),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of the x86_64 baseline (the `const`
            // assertion above fails the build of a target without it).
            Level::Sse2 | Level::Ssse3 => unsafe { x86::sse2_lines(block) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Level::Avx2` is only made by `Kernel::all` after
            // `is_x86_feature_detected!("avx2")`.
            Level::Avx2 => unsafe { x86::avx2_lines(block) },
        }
    }

    /// [`lines`](Kernel::lines) of up to [`LINE_BLOCK`] bytes (a block's
    /// worth or the short last one), bits past `bytes.len()` clear; the
    /// bytes after [`LINE_BLOCK`] are not looked at.
    #[inline]
    pub fn lines_of(self, bytes: &[u8]) -> LineMasks {
        match bytes.first_chunk::<LINE_BLOCK>() {
            Some(block) => self.lines(block),
            None => {
                let mut block = [0u8; LINE_BLOCK];
                block[..bytes.len()].copy_from_slice(bytes);
                let m = self.lines(&block);
                // `bytes` is shorter than 64 here.
                let keep = (1u64 << bytes.len()) - 1;
                LineMasks { newline: m.newline & keep, stop: m.stop & keep }
            }
        }
    }

    /// [`eq`](Kernel::eq) of up to [`BLOCK`] bytes, bits past
    /// `bytes.len()` clear.
    #[inline]
    pub fn eq_of(self, bytes: &[u8], b: u8) -> u32 {
        match bytes.first_chunk::<BLOCK>() {
            Some(block) => self.eq(block, b),
            None => {
                let mut block = [0u8; BLOCK];
                block[..bytes.len()].copy_from_slice(bytes);
                self.eq(&block, b) & clip(bytes.len())
            }
        }
    }

    /// The masks of up to [`BLOCK`] bytes (a block's worth or the short
    /// last one), bits past `bytes.len()` clear; the bytes after
    /// [`BLOCK`] are not looked at.
    #[inline]
    pub fn masks_of(self, bytes: &[u8], classes: &Classes) -> Masks {
        match bytes.first_chunk::<BLOCK>() {
            Some(block) => self.masks(block, classes),
            None => {
                let mut block = [0u8; BLOCK];
                block[..bytes.len()].copy_from_slice(bytes);
                self.masks(&block, classes).clip(bytes.len())
            }
        }
    }
}
