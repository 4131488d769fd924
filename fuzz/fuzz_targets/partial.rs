//! `urlgrep merge` on arbitrary bytes: no panic in reading a partial
//! (`Counts::add_tsv`), nor in anything merge prints of what was read
//! (the report, its JSON, `--compare`, `--tsv`); and whatever was read,
//! written as a partial and read back, is the same counters, checked
//! whole (header and end record).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::io;
use urlgrep::output::stats::{Counts, Summary};

fuzz_target!(|data: &[u8]| {
    let mut counts = Counts::new();
    // On an error some counters may have been added: printed all the same.
    let read = counts.add_tsv(data);
    // Read whole and no counter outside a header: some partial ended.
    if let Ok(checked) = read {
        assert!(checked.unchecked || checked.ended > 0);
    }
    let summary = Summary {
        counts: counts.clone(),
        unique_urls: None,
        elapsed: None,
        top: 3,
    };
    summary.write_text(io::sink()).expect("a sink takes anything");
    let _ = summary.to_json();
    counts.write_compare(&Counts::new(), 2, io::sink()).expect("sink");
    counts.write_compare(&counts, 2, io::sink()).expect("sink");
    let mut out = Vec::new();
    counts.write_tsv(&mut out).expect("a Vec takes anything");
    let mut back = Counts::new();
    let checked = back.add_tsv(&out[..]).expect("a written partial reads");
    assert_eq!(checked.ended, 1);
    assert!(!checked.unchecked);
    assert_eq!(
        back,
        counts,
        "round trip of {:?}",
        String::from_utf8_lossy(&out)
    );
});
