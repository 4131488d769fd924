//! Newline-aligned parallel slices (`Finder::candidates_in`,
//! `candidates_from`, `CandidateIter::resume`) give exactly the
//! candidates of the whole-input scan, for any choice of cut points.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urlgrep::Triggers;
use urlgrep_fuzz::{slice_records, sliced_records, Options};

#[derive(Arbitrary, Debug)]
struct Input {
    options: Options,
    /// Picks among the offsets just past a newline; empty = all of them.
    cuts: Vec<u16>,
    text: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let finder = input.options.finder(Triggers::Simd);
    let text = &input.text;
    let after_nl: Vec<usize> = text
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    let mut cuts: Vec<usize> = if input.cuts.is_empty() {
        after_nl.clone()
    } else if after_nl.is_empty() {
        Vec::new()
    } else {
        input
            .cuts
            .iter()
            .map(|&k| after_nl[usize::from(k) % after_nl.len()])
            .collect()
    };
    cuts.sort_unstable();
    cuts.dedup();
    let want = slice_records(&finder, text);
    assert_eq!(sliced_records(&finder, text, &cuts), want);
});
