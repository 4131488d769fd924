//! Properties of the web-archive reader (issue 30): the same records
//! whatever the read buffer's size, and no panic and an end on any input
//! (random bytes, fixtures damaged by random edits, plain and gzip).

use std::io::{BufReader, Read, Write};

use proptest::prelude::*;
use urlgrep::warc::Records;

const FIXTURES: [&str; 9] = [
    "chunked-gzip.warc",
    "deflate.warc",
    "br.warc",
    "truncated.warc",
    "length-past-eof.warc",
    "garbage.warc",
    "bad-chunk.warc",
    "small.arc",
    "small.arc.gz",
];

fn fixture(name: &str) -> Vec<u8> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/warc");
    std::fs::read(format!("{dir}/{name}")).expect("fixture")
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// Everything a read gives, as text: heads, payloads, faults.
fn transcript<R: std::io::BufRead>(rdr: R) -> Vec<String> {
    let mut records = Records::new(rdr);
    let mut out = Vec::new();
    while let Some(next) = records.next_record() {
        match next {
            Ok(head) => {
                out.push(format!("{head:?}"));
                match records.payload() {
                    Ok(mut payload) => {
                        let mut body = Vec::new();
                        let end = payload.read_to_end(&mut body);
                        out.push(format!("{body:?} {end:?}"));
                    }
                    Err(e) => out.push(format!("payload: {e}")),
                }
            }
            Err(e) => out.push(format!("fault: {e}")),
        }
    }
    out
}

#[test]
fn same_records_whatever_the_buffer() {
    for name in FIXTURES {
        let data = fixture(name);
        let gz = gzip(&data);
        for input in [&data, &gz] {
            let want = transcript(&input[..]);
            for size in [1, 2, 3, 7, 64] {
                let got =
                    transcript(BufReader::with_capacity(size, &input[..]));
                assert_eq!(got, want, "{name}, buffer {size}");
            }
        }
    }
}

/// An edit of a fixture: flip, insert or delete a byte at a position
/// (taken modulo the length).
#[derive(Clone, Debug)]
enum Edit {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn apply(data: &mut Vec<u8>, edits: &[Edit]) {
    for edit in edits {
        if data.is_empty() {
            return;
        }
        match *edit {
            Edit::Flip(at, bits) => {
                let n = data.len();
                data[at % n] ^= bits | 1;
            }
            Edit::Insert(at, b) => {
                let n = data.len() + 1;
                data.insert(at % n, b);
            }
            Edit::Delete(at) => {
                let n = data.len();
                data.remove(at % n);
            }
        }
    }
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Edit::Flip(a, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Edit::Insert(a, b)),
        any::<usize>().prop_map(Edit::Delete),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn damaged_fixtures_end_without_panic(
        which in 0..FIXTURES.len(),
        gz in any::<bool>(),
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let mut data = fixture(FIXTURES[which]);
        if gz {
            data = gzip(&data);
        }
        apply(&mut data, &edits);
        // Each item consumes input: at most a few per byte.
        let items = transcript(&data[..]);
        prop_assert!(items.len() <= 2 * data.len() + 4);
    }

    #[test]
    fn random_bytes_end_without_panic(
        start in prop_oneof![
            Just(&b"WARC/1.0\r\n"[..]),
            Just(&b"filedesc://x 1.2.3.4 20140101000000 text/plain 3\n"[..]),
            Just(&[0x1fu8, 0x8b, 0x08][..]),
            Just(&b""[..]),
        ],
        tail in proptest::collection::vec(any::<u8>(), 0..600),
    ) {
        let mut data = start.to_vec();
        data.extend(tail);
        let items = transcript(&data[..]);
        prop_assert!(items.len() <= 2 * data.len() + 4);
    }
}
