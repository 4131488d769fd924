//! No panic on arbitrary bytes, slice and reader APIs, default options;
//! plus the invariants every result must keep.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlgrep::{parse, Finder, Kind};
use urlgrep_fuzz::{reader_records, slice_records, Chunked};

fuzz_target!(|data: &[u8]| {
    let finder = Finder::new();
    let cands = slice_records(&finder, data);
    let mut last_start = None;
    for c in &cands {
        let (s, e) = (c.start as usize, c.end as usize);
        assert!(s < e && e <= data.len(), "span {s}..{e} of {}", data.len());
        assert!(last_start < Some(s), "candidates out of order");
        last_start = Some(s);
        if c.reject.is_none() {
            // An accepted URL validates again on its own, to its scheme.
            assert_eq!(parse::validate(&c.url, false), Ok(c.scheme));
            assert!(!c.url.iter().any(u8::is_ascii_whitespace));
            if c.kind == Kind::Bare {
                assert_eq!(&data[s..e], &c.url[..]);
            }
        }
    }
    let urls: Vec<Vec<u8>> =
        finder.find_iter(data).map(|m| m.url().to_vec()).collect();
    let accepted: Vec<Vec<u8>> = cands
        .iter()
        .filter(|c| c.reject.is_none())
        .map(|c| c.url.clone())
        .collect();
    assert_eq!(urls, accepted);

    // Reader API: a small buffer and short reads, and the owned iterator.
    let small = Finder::builder().buffer_capacity(7).build();
    let got = reader_records(&small, Chunked::new(data, &[5, 1, 0, 64]));
    assert_eq!(got.records, cands);
    let owned: Vec<Vec<u8>> = finder
        .reader_iter(data)
        .map(|m| m.map(|m| m.m.url().to_vec()))
        .collect::<Result<_, _>>()
        .unwrap_or_default();
    assert_eq!(owned, accepted);
});
