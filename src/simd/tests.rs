//! Every kernel equals the scalar one, the oracle.

use super::{
    name_stop, plain, Classes, Kernel, LineMasks, Masks, UrlMasks, BLOCK,
    LINE_BLOCK,
};
use proptest::prelude::*;

/// The masks of `s` a block at a time, as `(offset, masks)`.
fn all_masks(kernel: Kernel, s: &[u8], c: &Classes) -> Vec<(usize, Masks)> {
    (0..s.len().max(1))
        .step_by(BLOCK)
        .map(|at| (at, kernel.masks_of(&s[at..], c)))
        .collect()
}

/// The masks by definition: a byte at a time, no table walk shared
/// with the kernels.
fn by_definition(s: &[u8], c: &Classes) -> Masks {
    let mut m = Masks::default();
    for (i, &b) in s.iter().take(BLOCK).enumerate() {
        m.eq[0] |= u32::from(b == c.eq[0]) << i;
        m.eq[1] |= u32::from(b == c.eq[1]) << i;
        let class = c.lo[usize::from(b % 16)] & c.hi[usize::from(b / 16)];
        m.class |= u32::from(class & c.want != 0) << i;
    }
    m
}

/// Bytes that stress the kernels: the sign bit (`pshufb` zeroes a lane
/// whose index has it), nibble edges, the chosen bytes.
const EDGES: &[u8] =
    b"\x00\x01\x0f\x10\x7f\x80\x81\x8f\xf0\xfe\xff\n\r\t :@.<\"/";

/// Bytes at the edges of [`UrlMasks`]' ranges, and bytes whose
/// `| 0x20` lands in or next to `a-z`.
const URL_EDGES: &[u8] = b"\x00\x20\x21\x22\x23\x24\x25\x26\x27\x28\x29\x2a\x2f\x30\x39\x3a\x3b\x3c\x3d\x3e\x3f\x40\x41\x5a\x5b\x5e\x5f\x60\x61\x7a\x7b\x7d\x7e\x7f\x80\xaa\xc0\xc1\xda\xdb\xe1\xfa\xff";

/// The URL masks by definition, a byte at a time.
fn url_by_definition(block: &[u8; BLOCK]) -> UrlMasks {
    let mut m = UrlMasks::default();
    for (i, &b) in block.iter().enumerate() {
        m.alnum |= u32::from(b.is_ascii_alphanumeric()) << i;
        m.dot |= u32::from(b == b'.') << i;
        m.dash |= u32::from(b == b'-') << i;
        let sign = b"-._~!$'*+,;=:@/?".contains(&b);
        m.plain |= u32::from(b.is_ascii_alphanumeric() || sign) << i;
    }
    m
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..=256 + 64),
        proptest::collection::vec(
            proptest::sample::select(EDGES),
            0..=256 + 64
        ),
    ]
}

fn classes() -> impl Strategy<Value = Classes> {
    (
        any::<[u8; 2]>(),
        any::<[u8; 16]>(),
        any::<[u8; 16]>(),
        any::<u8>(),
        proptest::sample::select(EDGES),
    )
        .prop_map(|(eq, lo, hi, want, edge)| Classes {
            eq: [eq[0], if want & 1 == 0 { edge } else { eq[1] }],
            lo,
            hi,
            want,
        })
}

#[test]
fn the_kernels_of_this_cpu_are_listed() {
    let all = Kernel::all();
    assert_eq!(all[0], Kernel::scalar());
    #[cfg(target_arch = "x86_64")]
    assert!(all.iter().any(|k| k.name() == "sse2"));
    assert!(all.contains(&Kernel::detect()));
}

/// `URLGREP_SIMD=off` (CI's second test run) picks the scalar kernel;
/// otherwise the best one runs.
#[test]
fn the_environment_picks_the_kernel() {
    let off = std::env::var_os("URLGREP_SIMD").is_some_and(|v| v == "off");
    let best = Kernel::all().last().copied();
    let want = if off { Some(Kernel::scalar()) } else { best };
    assert_eq!(Some(Kernel::detect()), want);
}

/// The plain bytes: RFC 3986's `pchar / "/" / "?"` but `%`: the
/// unreserved, the sub-delims but `&`, `(`, `)`, and `:@/?`.
#[test]
fn plain_is_the_path_bytes_but_percent_and_ampersand() {
    let plain_set: Vec<u8> = (0..=255u8).filter(|&b| plain(b)).collect();
    let mut want: Vec<u8> = (b'0'..=b'9')
        .chain(b'A'..=b'Z')
        .chain(b'a'..=b'z')
        .chain(*b"-._~!$'*+,;=:@/?")
        .collect();
    want.sort_unstable();
    assert_eq!(plain_set, want);
}

#[test]
fn a_set_table_holds_exactly_its_bytes() {
    let set = b"\n:@.<\"";
    let c = Classes::new([b'\n', b':'], set).expect("six bytes fit");
    for b in 0..=255u8 {
        assert_eq!(c.contains(b), set.contains(&b), "{b:#x}");
    }
    // Nine high nibbles with nine distinct rows need nine class bits.
    let wide: Vec<u8> =
        (0..9u8).map(|h| h << 4 | 1).chain([0x02, 0x13, 0x24]).collect();
    let wide: Vec<u8> =
        wide.into_iter().chain((0..9u8).map(|h| h << 4 | (h + 3))).collect();
    assert_eq!(Classes::new([0, 0], &wide), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Every kernel, every alignment of the input in its buffer,
    /// lengths 0..=256, every block and the short last one.
    #[test]
    fn every_kernel_equals_the_scalar_one(
        buf in bytes(),
        c in classes(),
        shift in 0usize..64,
        len in 0usize..=256,
    ) {
        let from = shift.min(buf.len());
        let to = (from + len).min(buf.len());
        let s = &buf[from..to];
        let oracle = all_masks(Kernel::scalar(), s, &c);
        for (at, m) in &oracle {
            prop_assert_eq!(*m, by_definition(&s[*at..], &c));
        }
        for kernel in Kernel::all() {
            prop_assert_eq!(&all_masks(kernel, s, &c), &oracle, "{}", kernel.name());
            // The one-byte kernel gives the masks' equalities.
            for (at, m) in &oracle {
                let rest = &s[*at..];
                prop_assert_eq!(kernel.eq_of(rest, c.eq[0]), m.eq[0]);
                prop_assert_eq!(kernel.eq_of(rest, c.eq[1]), m.eq[1]);
            }
        }
    }

    /// A set's table holds its bytes and no other, through every kernel.
    #[test]
    fn a_set_table_is_exact(
        set in proptest::collection::vec(any::<u8>(), 0..12),
        buf in bytes(),
    ) {
        let Some(c) = Classes::new([b'\n', b':'], &set) else {
            return Ok(());
        };
        for kernel in Kernel::all() {
            for (at, m) in all_masks(kernel, &buf, &c) {
                for (i, b) in buf[at..].iter().take(BLOCK).enumerate() {
                    prop_assert_eq!(m.class >> i & 1 == 1, set.contains(b));
                }
            }
        }
    }
}

fn url_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), BLOCK..=256 + 64),
        proptest::collection::vec(
            proptest::sample::select(URL_EDGES),
            BLOCK..=256 + 64
        ),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The URL classes: every kernel equals the scalar one, and the
    /// scalar one the definition, on every block of the input at every
    /// offset (every alignment in the buffer).
    #[test]
    fn every_url_kernel_equals_the_scalar_one(buf in url_bytes()) {
        for at in 0..=buf.len() - BLOCK {
            let Some(block) = buf[at..].first_chunk::<BLOCK>() else {
                continue;
            };
            let oracle = Kernel::scalar().url(block);
            prop_assert_eq!(oracle, url_by_definition(block));
            for kernel in Kernel::all() {
                prop_assert_eq!(kernel.url(block), oracle, "{}", kernel.name());
            }
        }
    }
}

/// The header-line masks by definition, a byte at a time, of up to
/// [`LINE_BLOCK`] bytes.
fn lines_by_definition(s: &[u8]) -> LineMasks {
    let mut m = LineMasks::default();
    for (i, &b) in s.iter().take(LINE_BLOCK).enumerate() {
        m.newline |= u64::from(b == b'\n') << i;
        let ftext = (33..=126).contains(&b) && b != b':';
        m.stop |= u64::from(!ftext) << i;
    }
    m
}

/// Bytes at the edges of [`LineMasks`]' classes.
const LINE_EDGES: &[u8] =
    b"\x00\x09\x0a\x0b\x0d\x1f\x20\x21\x39\x3a\x3b\x7e\x7f\x80\x81\xa0\xff";

#[test]
fn a_name_stops_at_all_but_ftext() {
    for b in 0..=255u8 {
        let ftext = (33..=57).contains(&b) || (59..=126).contains(&b);
        assert_eq!(name_stop(b), !ftext, "{b:#x}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The header-line classes: every kernel equals the scalar one, and
    /// the scalar one the definition, at every alignment of the input
    /// in its buffer and lengths 0..=256, on every block and the short
    /// last one (bits past the end clear).
    #[test]
    fn every_lines_kernel_equals_the_scalar_one(
        buf in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..=256 + 64),
            proptest::collection::vec(
                proptest::sample::select(LINE_EDGES),
                0..=256 + 64
            ),
        ],
        shift in 0usize..64,
        len in 0usize..=256,
    ) {
        let from = shift.min(buf.len());
        let to = (from + len).min(buf.len());
        let s = &buf[from..to];
        for at in 0..=s.len() {
            let rest = &s[at..];
            let oracle = Kernel::scalar().lines_of(rest);
            prop_assert_eq!(oracle, lines_by_definition(rest));
            for kernel in Kernel::all() {
                prop_assert_eq!(kernel.lines_of(rest), oracle, "{}", kernel.name());
            }
        }
    }
}
