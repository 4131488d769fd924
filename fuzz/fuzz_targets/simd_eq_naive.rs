//! The SIMD trigger search finds exactly what the naive one does (and
//! what every colon as a trigger does), for options drawn by the fuzzer,
//! in the slice and the reader APIs.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urlgrep::Triggers;
use urlgrep_fuzz::{reader_records, slice_records, Options};

#[derive(Arbitrary, Debug)]
struct Input {
    options: Options,
    capacity: u8,
    text: Vec<u8>,
}

fuzz_target!(|input: Input| {
    let simd =
        slice_records(&input.options.finder(Triggers::Simd), &input.text);
    let naive =
        slice_records(&input.options.finder(Triggers::Naive), &input.text);
    assert_eq!(simd, naive);
    // and the trigger test drops only colons that yield nothing
    let every = slice_records(
        &input.options.finder(Triggers::EveryColon),
        &input.text,
    );
    assert_eq!(every, simd);
    let cap = usize::from(input.capacity);
    let naive_rdr = input
        .options
        .builder()
        .triggers(Triggers::Naive)
        .buffer_capacity(cap)
        .build();
    let got = reader_records(&naive_rdr, &input.text[..]);
    assert_eq!(got.records, simd);
});
