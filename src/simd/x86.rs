//! The x86_64 kernels: SSE2 (the baseline), SSSE3 and AVX2.
//!
//! No `unsafe` here: the `[u8; N]` arrays become vectors by value
//! (`_mm_set_epi64x` of their words), and value intrinsics are safe in a
//! function compiled with their feature. Rust asks for
//! `#[target_feature(enable = "sse2")]` on the SSE2 functions too, though
//! every x86_64 CPU has it, so their call in `Kernel::masks` is `unsafe`
//! as well.

use super::{scalar, Classes, Masks, BLOCK};
use std::arch::x86_64::{
    __m128i, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_movemask_epi8,
    _mm256_set1_epi8, _mm256_set_epi64x, _mm256_set_m128i,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
    _mm_and_si128, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8,
    _mm_set_epi64x, _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16,
};

/// The little-endian word at `at` of `bytes`.
#[inline(always)]
fn word<const N: usize>(bytes: &[u8; N], at: usize) -> i64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    i64::from_le_bytes(w)
}

/// The 16 bytes at `at` of `bytes` as a vector.
#[target_feature(enable = "sse2")]
#[inline]
fn load16<const N: usize>(bytes: &[u8; N], at: usize) -> __m128i {
    _mm_set_epi64x(word(bytes, at + 8), word(bytes, at))
}

/// The bytes of `v` equal to `b`.
#[target_feature(enable = "sse2")]
#[inline]
fn eq16(v: __m128i, b: u8) -> u32 {
    _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8))) as u32
}

/// The SSE2 kernel: equalities by vector, the class by table.
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn sse2(block: &[u8; BLOCK], c: &Classes) -> Masks {
    let (va, vb) = (load16(block, 0), load16(block, 16));
    Masks {
        eq: [
            eq16(va, c.eq[0]) | eq16(vb, c.eq[0]) << 16,
            eq16(va, c.eq[1]) | eq16(vb, c.eq[1]) << 16,
        ],
        class: scalar::class16(&block[..16], c)
            | scalar::class16(&block[16..], c) << 16,
    }
}

/// The class of the 16 bytes of `v` (simdjson's nibble lookup).
#[target_feature(enable = "ssse3")]
#[inline]
fn class16(v: __m128i, lo: __m128i, hi: __m128i, want: u8) -> u32 {
    let nibble = _mm_set1_epi8(0x0f);
    let l = _mm_shuffle_epi8(lo, _mm_and_si128(v, nibble));
    let h = _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(v, 4), nibble));
    let hit = _mm_and_si128(_mm_and_si128(l, h), _mm_set1_epi8(want as i8));
    let none = _mm_cmpeq_epi8(hit, _mm_setzero_si128());
    !(_mm_movemask_epi8(none) as u32) & 0xffff
}

/// The SSSE3 kernel: two 16-byte halves.
#[target_feature(enable = "ssse3")]
pub(super) fn ssse3(block: &[u8; BLOCK], c: &Classes) -> Masks {
    let (va, vb) = (load16(block, 0), load16(block, 16));
    let (lo, hi) = (load16(&c.lo, 0), load16(&c.hi, 0));
    Masks {
        eq: [
            eq16(va, c.eq[0]) | eq16(vb, c.eq[0]) << 16,
            eq16(va, c.eq[1]) | eq16(vb, c.eq[1]) << 16,
        ],
        class: class16(va, lo, hi, c.want) | class16(vb, lo, hi, c.want) << 16,
    }
}

/// The AVX2 kernel: one 32-byte vector.
#[target_feature(enable = "avx2")]
pub(super) fn avx2(block: &[u8; BLOCK], c: &Classes) -> Masks {
    let v = _mm256_set_epi64x(
        word(block, 24),
        word(block, 16),
        word(block, 8),
        word(block, 0),
    );
    let eq = |b: u8| {
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8)))
            as u32
    };
    // `vpshufb` looks up within each 128-bit lane: the tables in both.
    let lo = load16(&c.lo, 0);
    let hi = load16(&c.hi, 0);
    let (lo, hi) = (_mm256_set_m128i(lo, lo), _mm256_set_m128i(hi, hi));
    let nibble = _mm256_set1_epi8(0x0f);
    let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble));
    let h = _mm256_shuffle_epi8(
        hi,
        _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble),
    );
    let hit = _mm256_and_si256(
        _mm256_and_si256(l, h),
        _mm256_set1_epi8(c.want as i8),
    );
    let none = _mm256_cmpeq_epi8(hit, _mm256_setzero_si256());
    Masks {
        eq: [eq(c.eq[0]), eq(c.eq[1])],
        class: !(_mm256_movemask_epi8(none) as u32),
    }
}

/// The bytes of `block` equal to `b`, 16 at a time.
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn sse2_eq(block: &[u8; BLOCK], b: u8) -> u32 {
    eq16(load16(block, 0), b) | eq16(load16(block, 16), b) << 16
}
