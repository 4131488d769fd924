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
    walk(Records::new(rdr))
}

/// The same, the gzip members inflated on a thread of their own
/// (`Records::inflate_ahead`).
fn transcript_ahead<R: std::io::BufRead + Send>(rdr: R) -> Vec<String> {
    Records::new(rdr).inflate_ahead(walk)
}

fn walk<R: std::io::BufRead>(mut records: Records<R>) -> Vec<String> {
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
                let got = transcript_ahead(BufReader::with_capacity(
                    size,
                    &input[..],
                ));
                assert_eq!(got, want, "{name}, buffer {size}, inflated ahead");
            }
        }
    }
}

/// A `resource` record of `len` payload bytes with a URL every 24.
fn resource(n: usize, len: usize) -> Vec<u8> {
    let body: Vec<u8> = b"see http://r.example/x.\n"
        .iter()
        .copied()
        .cycle()
        .take(len)
        .collect();
    let mut rec = format!(
        "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: \
         http://r{n}.example/\r\nContent-Type: text/plain\r\n\
         Content-Length: {len}\r\n\r\n"
    )
    .into_bytes();
    rec.extend_from_slice(&body);
    rec.extend_from_slice(b"\r\n\r\n");
    rec
}

/// Many members, some longer than the read-ahead's batches and some a
/// few bytes, with garbage, a damaged member and damaged fixtures among
/// them: the thread hands them over in batches of many windows, a member
/// cut across two batches; the transcript is the one read in place.
#[test]
fn many_members_across_read_ahead_batches() {
    let mut data = Vec::new();
    for i in 0..30 {
        let len = (i * 37 % 11) * 40_000 + i;
        let mut member = gzip(&resource(i, len));
        if i % 9 == 4 {
            // A member cut short: a fault, then the next member.
            member.truncate(member.len() - 9);
        }
        data.extend_from_slice(&member);
        if i % 5 == 2 {
            data.extend_from_slice(b"junk between members");
        }
        if i % 7 == 3 {
            data.extend_from_slice(&gzip(&fixture(FIXTURES[i % 7])));
        }
    }
    let want = transcript(&data[..]);
    let payload: usize = want.iter().map(String::len).sum();
    assert!(payload > 4_000_000, "{payload}");
    assert!(want.iter().any(|t| t.starts_with("fault:")));
    for size in [7, 8192] {
        let got = transcript_ahead(BufReader::with_capacity(size, &data[..]));
        assert_eq!(got, want, "buffer {size}, inflated ahead");
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
        // The members inflated on another thread: the same, faults and
        // offsets included.
        prop_assert_eq!(transcript_ahead(&data[..]), items);
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
        prop_assert_eq!(transcript_ahead(&data[..]), items);
    }
}

/// Found by the `warc` fuzz target: a block not followed by its end
/// quoted what the read buffer held after it, so the fault's text (and
/// the transcript) differed with a 1-byte buffer.
#[test]
fn record_end_fault_whatever_the_buffer() {
    let data = b"nWARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: \
        http://fuzz.example/\r\nContent-Type: application/http; \
        msgtype=response\r\nContent-LengTh: 157\r\n\r\nHTTP/1.1 200 OK\r\n\
        Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n\r\n\r\nWARC/1.1\r\n\
        WARC-Type: request\r\nWARC-Target-URI: http://fuzz.example/\r\n\
        Content-Type: application/octet-stream\r\nContent-Length: 104\r\n\
        \r\nvd\r\n\r\n nWARC/1.1\r\nWARC-Type: revisit\r\n\
        WARC-Target-URI: http://fuzz.example/\r\nContent-Type: \
        application/http; msgtype=response\r\nContent-Length: 174\r\n\r\n\
        HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\ne\r\n\
        0\r\n\r\n\r\n\r\n";
    let want = transcript(&data[..]);
    assert!(want.iter().any(|t| t.contains("not followed by its end")));
    for size in 1..17 {
        let got = transcript(BufReader::with_capacity(size, &data[..]));
        assert_eq!(got, want, "buffer {size}");
    }
}

/// Found by the `warc` fuzz target: a damaged gzip member inflated 917
/// bytes before its error through a 1-byte reader and none through the
/// default one (flate2 drops what a failing call inflated), so the
/// fault's offset differed. The compressed bytes are now read in pieces
/// of their own, each member from its first byte.
#[test]
fn damaged_member_whatever_the_buffer() {
    let hex = [
        "1f8b08000000000004ff238e410ac2301444f781dc21176893ba92880be94651",
        "5042c475906f5a68936ff20bdad3db80e26e18e63dc6dc76a6954ddd70565265",
        "df085a24784e90e9d7b9e481aaab3968d111a196f231cd730d2f37e2001292e3",
        "ac8d8120d057e01087feeea88f41166423c6ec69714f13648c21c39f3841f0d4",
        "69b1569c71b6b7f652fe889552e27c2cd5b2e5ec036d42ae4fa9000000",
    ]
    .concat();
    let data: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    let want = transcript(&data[..]);
    assert!(want.iter().any(|t| t.contains("damaged gzip member")));
    for size in 1..17 {
        let got = transcript(BufReader::with_capacity(size, &data[..]));
        assert_eq!(got, want, "buffer {size}");
    }
}
