//! Every kernel equals the scalar one, the oracle.

use super::{Classes, Kernel, Masks, BLOCK};
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
