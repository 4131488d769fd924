//! The web-archive reader (`urlgrep::warc`, issue 30) on archives the
//! fuzzer builds: records of every type, HTTP responses chunked or not,
//! plain, one gzip member a record or gzipped whole, then (when it says
//! so) damaged by wrong lengths, garbage between records and flipped
//! bytes. No panic and an end; the same transcript (heads, payloads,
//! faults) through a read buffer of 1 to 16 bytes as through the default
//! one; and undamaged, every record comes out, with its target URI and
//! its payload (chunks undone), and no fault.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::io::{BufRead, BufReader, Read, Write};
use urlgrep::warc::Records;

const TYPES: [&str; 8] = [
    "warcinfo",
    "response",
    "resource",
    "request",
    "metadata",
    "revisit",
    "conversion",
    "x-other",
];

#[derive(Arbitrary, Debug)]
struct Rec {
    kind: u8,
    uri: Vec<u8>,
    http: bool,
    chunk: Option<u8>,
    body: Vec<u8>,
    length_delta: i8,
    garbage: Vec<u8>,
}

#[derive(Arbitrary, Debug)]
struct Input {
    records: Vec<Rec>,
    gz: u8,
    buffer: u8,
    damage: bool,
    flips: Vec<(u16, u8)>,
}

/// A record's bytes, and what its payload must be.
fn build(rec: &Rec, damage: bool) -> (Vec<u8>, String, Vec<u8>) {
    let kind = TYPES[rec.kind as usize % TYPES.len()];
    let tail: String = rec
        .uri
        .iter()
        .map(|&c| c as char)
        .filter(|c| c.is_ascii_graphic())
        .collect();
    let uri = format!("http://fuzz.example/{tail}");
    let http = rec.http && matches!(kind, "response" | "request" | "revisit");
    let mut block = Vec::new();
    if http {
        block.extend_from_slice(b"HTTP/1.1 200 OK\r\n");
        if rec.chunk.is_some() {
            block.extend_from_slice(b"Transfer-Encoding: chunked\r\n");
        }
        block.extend_from_slice(b"\r\n");
        match rec.chunk {
            Some(size) => {
                let size = usize::from(size).max(1);
                for piece in rec.body.chunks(size) {
                    block.extend(format!("{:x}\r\n", piece.len()).bytes());
                    block.extend_from_slice(piece);
                    block.extend_from_slice(b"\r\n");
                }
                block.extend_from_slice(b"0\r\n\r\n");
            }
            None => block.extend_from_slice(&rec.body),
        }
    } else {
        block.extend_from_slice(&rec.body);
    }
    let mut length = block.len() as i64;
    if damage {
        length += i64::from(rec.length_delta);
    }
    let content_type = if http {
        "application/http; msgtype=response"
    } else {
        "application/octet-stream"
    };
    let mut out = Vec::new();
    if damage {
        out.extend_from_slice(&rec.garbage);
    }
    out.extend(
        format!(
            "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\n\
             Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
            length.max(0)
        )
        .bytes(),
    );
    out.extend_from_slice(&block);
    out.extend_from_slice(b"\r\n\r\n");
    (out, uri, rec.body.clone())
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

/// Everything a read gives: heads, payloads, faults.
fn transcript<R: BufRead>(rdr: R) -> Vec<String> {
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
                        out.push(format!("body {body:?} {end:?}"));
                    }
                    Err(e) => out.push(format!("payload: {e}")),
                }
            }
            Err(e) => out.push(format!("fault: {e}")),
        }
        assert!(out.len() < 1 << 20, "the reader does not end");
    }
    out
}

fuzz_target!(|input: Input| {
    let mut bytes = Vec::new();
    let mut want = Vec::new();
    for rec in input.records.iter().take(16) {
        let (record, uri, body) = build(rec, input.damage);
        bytes.push(record);
        want.push((uri, body));
    }
    let mut data = match input.gz % 3 {
        0 => bytes.concat(),
        1 => bytes.iter().flat_map(|r| gzip(r)).collect(),
        _ => gzip(&bytes.concat()),
    };
    if input.damage && !data.is_empty() {
        for &(at, bits) in &input.flips {
            let n = data.len();
            data[usize::from(at) % n] ^= bits;
        }
    }
    let whole = transcript(&data[..]);
    let small = usize::from(input.buffer % 16) + 1;
    assert_eq!(transcript(BufReader::with_capacity(small, &data[..])), whole);
    if input.damage {
        return;
    }
    let mut records = Records::new(&data[..]);
    for (uri, body) in &want {
        let head = records.next_record().expect("a record").expect("no fault");
        assert_eq!(head.target_uri(), Some(uri.as_str()));
        let mut got = Vec::new();
        records
            .payload()
            .expect("a payload")
            .read_to_end(&mut got)
            .expect("read");
        assert_eq!(&got, body);
    }
    assert!(records.next_record().is_none());
});
