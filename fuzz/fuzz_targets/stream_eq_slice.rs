//! The reader API equals the slice API, for arbitrary options, buffer
//! capacities and read sizes (including `Interrupted` reads), positions
//! and line numbers included; and the search never reads further ahead
//! of a reported candidate than the caps and the buffer allow (memory
//! stays bounded whatever the input).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urlgrep::Triggers;
use urlgrep_fuzz::{
    chunked_records, line_column, slice_records, Chunked, Options,
};

#[derive(Arbitrary, Debug)]
struct Input {
    options: Options,
    capacity: u16,
    reads: Vec<u16>,
    text: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let whole = input.options.finder(Triggers::Simd);
    let want = slice_records(&whole, &input.text);
    let finder = input
        .options
        .builder()
        .buffer_capacity(usize::from(input.capacity))
        .build();
    let got =
        chunked_records(&finder, Chunked::new(&input.text, &input.reads));
    assert_eq!(got.records, want);
    let bound = input.options.read_ahead_bound(usize::from(input.capacity));
    assert!(
        got.max_ahead <= bound,
        "read {} ahead, bound {bound}",
        got.max_ahead
    );
    for p in &got.positions {
        let at = p.start as usize;
        assert_eq!((p.line, p.column), line_column(&input.text, at));
    }
});
