//! The x86_64 kernels: SSE2 (the baseline), SSSE3 and AVX2.
//!
//! No `unsafe` here: the `[u8; N]` arrays become vectors by value
//! (`_mm_set_epi64x` of their words), and value intrinsics are safe in a
//! function compiled with their feature. Rust asks for
//! `#[target_feature(enable = "sse2")]` on the SSE2 functions too, though
//! every x86_64 CPU has it, so their call in `Kernel::masks` is `unsafe`
//! as well.

use super::{scalar, Classes, LineMasks, Masks, UrlMasks, BLOCK, LINE_BLOCK};
use std::arch::x86_64::{
    __m128i, __m256i, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_movemask_epi8,
    _mm256_or_si256, _mm256_set1_epi8, _mm256_set_epi64x, _mm256_set_m128i,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
    _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8,
    _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x,
    _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16,
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

/// The URL classes of the 16 bytes of `v`, as
/// `(alnum, dot, dash, plain)`. Signed compares: a byte above 127 is
/// negative, below every ASCII range's low bound, so in none.
#[target_feature(enable = "sse2")]
#[inline]
fn url16(v: __m128i) -> [u32; 4] {
    let set = |b: u8| _mm_set1_epi8(b as i8);
    let within = |x: __m128i, lo: u8, hi: u8| {
        _mm_and_si128(
            _mm_cmpgt_epi8(x, set(lo - 1)),
            _mm_cmplt_epi8(x, set(hi + 1)),
        )
    };
    let eq = |b: u8| _mm_cmpeq_epi8(v, set(b));
    let or = _mm_or_si128;
    // `b | 0x20` maps `A-Z` onto `a-z` and no other byte into it.
    let letters = within(or(v, set(0x20)), b'a', b'z');
    let alnum = or(letters, within(v, b'0', b'9'));
    // `*+,-./0-9:;` and `?@` are ranges; the rest of the signs one by one.
    let plain = or(
        or(
            or(alnum, within(v, b'*', b';')),
            or(within(v, b'?', b'@'), eq(b'!')),
        ),
        or(or(eq(b'$'), eq(b'\'')), or(or(eq(b'='), eq(b'_')), eq(b'~'))),
    );
    let mask = |m: __m128i| _mm_movemask_epi8(m) as u32;
    [mask(alnum), mask(eq(b'.')), mask(eq(b'-')), mask(plain)]
}

/// The URL classes of `block`, 16 bytes at a time.
#[target_feature(enable = "sse2")]
#[inline]
pub(super) fn sse2_url(block: &[u8; BLOCK]) -> UrlMasks {
    halves(url16(load16(block, 0)), url16(load16(block, 16)))
}

/// The URL masks of a block from those of its two 16-byte halves, each
/// `(alnum, dot, dash, plain)`.
#[inline(always)]
fn halves(lo: [u32; 4], hi: [u32; 4]) -> UrlMasks {
    let [alnum, dot, dash, plain] =
        std::array::from_fn(|i| lo[i] | hi[i] << 16);
    UrlMasks { alnum, dot, dash, plain }
}

/// The URL classes by nibble lookup (simdjson's stage 1): seven class
/// bits, a byte's bits `URL_LO[low nibble] & URL_HI[high nibble]`, each
/// bit a set of high nibbles times a set of low nibbles:
///
/// | bit | high | low | bytes |
/// |---|---|---|---|
/// | 0 | 3 | 0–9 | digits |
/// | 1 | 4, 6 | 1–F | `A-O`, `a-o` |
/// | 2 | 5, 7 | 0–A | `P-Z`, `p-z` |
/// | 3 | 5 | F | `_` |
/// | 4 | 7 | E | `~` |
/// | 5 | 2 | 1, 4, 7, A–F | `!$'*+,-./` |
/// | 6 | 3, 4 | 0, A, B, D, F | `0:;=?@MO` |
///
/// A letter or digit has a bit of 0–2, a plain byte any bit; `.` and `-`
/// are told by equality. Bytes above 127 look up row 8–F: no bits.
const URL_LO: [u8; 16] = [
    0x45, 0x27, 0x07, 0x07, 0x27, 0x07, 0x07, 0x27, 0x07, 0x07, 0x66, 0x62,
    0x22, 0x62, 0x32, 0x6a,
];
const URL_HI: [u8; 16] =
    [0, 0, 0x20, 0x41, 0x42, 0x0c, 0x02, 0x14, 0, 0, 0, 0, 0, 0, 0, 0];

/// The URL classes of the 16 bytes of `v` by nibble lookup, as
/// `(alnum, dot, dash, plain)`.
#[target_feature(enable = "ssse3")]
#[inline]
fn url16_lookup(v: __m128i) -> [u32; 4] {
    let nibble = _mm_set1_epi8(0x0f);
    let l = _mm_shuffle_epi8(load16(&URL_LO, 0), _mm_and_si128(v, nibble));
    let h = _mm_shuffle_epi8(
        load16(&URL_HI, 0),
        _mm_and_si128(_mm_srli_epi16(v, 4), nibble),
    );
    let bits = _mm_and_si128(l, h);
    let zero = _mm_setzero_si128();
    let none = |m: __m128i| {
        !(_mm_movemask_epi8(_mm_cmpeq_epi8(m, zero)) as u32) & 0xffff
    };
    [
        none(_mm_and_si128(bits, _mm_set1_epi8(0x07))),
        eq16(v, b'.'),
        eq16(v, b'-'),
        none(bits),
    ]
}

/// The URL classes of `block` by nibble lookup, 16 bytes at a time.
#[target_feature(enable = "ssse3")]
pub(super) fn ssse3_url(block: &[u8; BLOCK]) -> UrlMasks {
    halves(url16_lookup(load16(block, 0)), url16_lookup(load16(block, 16)))
}

/// The URL classes of `block` by nibble lookup, one 32-byte vector.
#[target_feature(enable = "avx2")]
pub(super) fn avx2_url(block: &[u8; BLOCK]) -> UrlMasks {
    let v = _mm256_set_epi64x(
        word(block, 24),
        word(block, 16),
        word(block, 8),
        word(block, 0),
    );
    // `vpshufb` looks up within each 128-bit lane: the tables in both.
    let (lo, hi) = (load16(&URL_LO, 0), load16(&URL_HI, 0));
    let (lo, hi) = (_mm256_set_m128i(lo, lo), _mm256_set_m128i(hi, hi));
    let nibble = _mm256_set1_epi8(0x0f);
    let l = _mm256_shuffle_epi8(lo, _mm256_and_si256(v, nibble));
    let h = _mm256_shuffle_epi8(
        hi,
        _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble),
    );
    let bits = _mm256_and_si256(l, h);
    let zero = _mm256_setzero_si256();
    let mask = |m: __m256i| _mm256_movemask_epi8(m) as u32;
    let eq = |b: u8| mask(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(b as i8)));
    UrlMasks {
        alnum: !mask(_mm256_cmpeq_epi8(
            _mm256_and_si256(bits, _mm256_set1_epi8(0x07)),
            zero,
        )),
        dot: eq(b'.'),
        dash: eq(b'-'),
        plain: !mask(_mm256_cmpeq_epi8(bits, zero)),
    }
}

/// The header-line classes of the 16 bytes of `v`, as
/// `(newline, stop)`. A signed compare: `b > 32` holds for 33..=127
/// (a byte above 127 is negative), so a stop is `!(b > 32)`, DEL or
/// `:`.
#[target_feature(enable = "sse2")]
#[inline]
fn lines16(v: __m128i) -> (u64, u64) {
    let set = |b: u8| _mm_set1_epi8(b as i8);
    let mask = |m: __m128i| _mm_movemask_epi8(m) as u32 as u64;
    let newline = mask(_mm_cmpeq_epi8(v, set(b'\n')));
    let above = mask(_mm_cmpgt_epi8(v, set(b' ')));
    let odd = mask(_mm_or_si128(
        _mm_cmpeq_epi8(v, set(127)),
        _mm_cmpeq_epi8(v, set(b':')),
    ));
    (newline, (!above | odd) & 0xffff)
}

/// The header-line classes of `block`, 16 bytes at a time.
#[target_feature(enable = "sse2")]
pub(super) fn sse2_lines(block: &[u8; LINE_BLOCK]) -> LineMasks {
    let (n0, s0) = lines16(load16(block, 0));
    let (n1, s1) = lines16(load16(block, 16));
    let (n2, s2) = lines16(load16(block, 32));
    let (n3, s3) = lines16(load16(block, 48));
    LineMasks {
        newline: n0 | n1 << 16 | n2 << 32 | n3 << 48,
        stop: s0 | s1 << 16 | s2 << 32 | s3 << 48,
    }
}

/// The header-line classes of the 32 bytes of `v`, as
/// `(newline, stop)`, by the signed compare of [`lines16`].
#[target_feature(enable = "avx2")]
#[inline]
fn lines32(v: __m256i) -> (u64, u64) {
    let set = |b: u8| _mm256_set1_epi8(b as i8);
    let mask = |m: __m256i| _mm256_movemask_epi8(m) as u32;
    let newline = mask(_mm256_cmpeq_epi8(v, set(b'\n')));
    let above = _mm256_cmpgt_epi8(v, set(b' '));
    let odd = _mm256_or_si256(
        _mm256_cmpeq_epi8(v, set(127)),
        _mm256_cmpeq_epi8(v, set(b':')),
    );
    let ftext = mask(_mm256_andnot_si256(odd, above));
    (u64::from(newline), u64::from(!ftext))
}

/// The header-line classes of `block`, 32 bytes at a time.
#[target_feature(enable = "avx2")]
pub(super) fn avx2_lines(block: &[u8; LINE_BLOCK]) -> LineMasks {
    let load = |at: usize| {
        _mm256_set_epi64x(
            word(block, at + 24),
            word(block, at + 16),
            word(block, at + 8),
            word(block, at),
        )
    };
    let (n0, s0) = lines32(load(0));
    let (n1, s1) = lines32(load(32));
    LineMasks { newline: n0 | n1 << 32, stop: s0 | s1 << 32 }
}
