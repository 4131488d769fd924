//! Every byte-class kernel of this CPU (`urlgrep::simd`) gives the masks
//! of the scalar one, the oracle, for tables, bytes, offsets and lengths
//! drawn by the fuzzer: every block of the slice and its short last one,
//! the one-byte kernel (`Kernel::eq_of`) and the URL classes
//! (`Kernel::url`, every whole block) and the header-line classes
//! (`Kernel::lines_of`, at every offset) too.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urlgrep::simd::{Classes, Kernel, BLOCK};

#[derive(Arbitrary, Debug)]
struct Input {
    eq: [u8; 2],
    lo: [u8; 16],
    hi: [u8; 16],
    want: u8,
    /// A set table instead of the raw one (`Classes::new`).
    set: Option<Vec<u8>>,
    /// Where the slice starts in `text` (its alignment).
    shift: u8,
    text: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let classes = match &input.set {
        Some(set) => match Classes::new(input.eq, set) {
            Some(c) => c,
            None => return,
        },
        None => Classes {
            eq: input.eq,
            lo: input.lo,
            hi: input.hi,
            want: input.want,
        },
    };
    let from = usize::from(input.shift).min(input.text.len());
    let s = &input.text[from..];
    let scalar = Kernel::scalar();
    for kernel in Kernel::all() {
        let mut at = 0;
        loop {
            let rest = &s[at..];
            assert_eq!(
                kernel.masks_of(rest, &classes),
                scalar.masks_of(rest, &classes),
                "{} at {at}",
                kernel.name()
            );
            for b in classes.eq {
                assert_eq!(kernel.eq_of(rest, b), scalar.eq_of(rest, b));
            }
            // The URL classes of every whole block.
            if let Some(block) = rest.first_chunk::<BLOCK>() {
                assert_eq!(kernel.url(block), scalar.url(block));
            }
            if rest.len() <= BLOCK {
                break;
            }
            at += BLOCK;
        }
    }
    // The header-line classes at every offset, the short last blocks
    // included.
    for kernel in Kernel::all() {
        for at in 0..=s.len() {
            let rest = &s[at..];
            assert_eq!(
                kernel.lines_of(rest),
                scalar.lines_of(rest),
                "{} lines at {at}",
                kernel.name()
            );
        }
    }
    if let Some(set) = &input.set {
        let m = scalar.masks_of(s, &classes);
        for (i, &b) in s.iter().take(BLOCK).enumerate() {
            assert_eq!(m.class >> i & 1 == 1, set.contains(&b));
        }
    }
});
