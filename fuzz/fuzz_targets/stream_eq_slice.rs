//! The reader API equals the slice API, for arbitrary options, buffer
//! capacities and read sizes (including `Interrupted` reads), positions
//! and line numbers included.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urlgrep::Triggers;
use urlgrep_fuzz::{
    line_column, reader_records, slice_records, Chunked, Options,
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
    let got = reader_records(&finder, Chunked::new(&input.text, &input.reads));
    assert_eq!(got.records, want);
    for p in &got.positions {
        let at = p.start as usize;
        assert_eq!((p.line, p.column), line_column(&input.text, at));
    }
});
