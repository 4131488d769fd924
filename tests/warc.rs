//! The web-archive record reader (issue 30): the hand-made fixtures of
//! `tests/data/warc/` (made by its `make.py`), gzip members built here,
//! a file cut at every byte, and the shared sample archive
//! (`corpora/warc/pywb-sample-warcs.tar.gz`; without it the test says
//! `SKIPPED`, and fails under CI: tests/support/shared.rs).

#[path = "support/shared.rs"]
mod shared;

use std::io::{BufReader, Read, Write};

use urlgrep::warc::{
    find_member, gzip_members, sniff, sniff_gz, Error, Fault, Format, Head,
    RecordType, Records,
};

const HTML: &[u8] = b"<!doctype html>\n<html><body>\n\
<a href=\"http://links.example/one\">one</a>\n\
<img src=\"https://img.example/two.png\">\n\
</body></html>\n";

/// What a reader gave: a head with its payload (or the payload's
/// error), or a fault.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // a test's list
enum Item {
    Record(Head, Result<Vec<u8>, (Vec<u8>, Error)>),
    Fault(Error),
}

fn read_records<R: std::io::BufRead>(rdr: R) -> Vec<Item> {
    collect(Records::new(rdr))
}

/// Every record and fault `records` yields, in order.
fn collect<R: std::io::BufRead>(mut records: Records<R>) -> Vec<Item> {
    let mut items = Vec::new();
    while let Some(next) = records.next_record() {
        match next {
            Ok(head) => {
                let body = payload(&mut records);
                items.push(Item::Record(head, body));
            }
            Err(e) => items.push(Item::Fault(e)),
        }
    }
    items
}

/// The current record's payload, read to its end or its fault.
fn payload<R: std::io::BufRead>(
    records: &mut Records<R>,
) -> Result<Vec<u8>, (Vec<u8>, Error)> {
    let mut payload = match records.payload() {
        Ok(payload) => payload,
        Err(e) => return Err((Vec::new(), e)),
    };
    let mut out = Vec::new();
    let mut buf = [0u8; 7]; // small reads: windows cross chunk ends
    loop {
        match payload.read(&mut buf) {
            Ok(0) => return Ok(out),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => {
                let inner = e
                    .get_ref()
                    .and_then(|i| i.downcast_ref::<Error>())
                    .cloned()
                    .expect("a payload error wraps a warc::Error");
                return Err((out, inner));
            }
        }
    }
}

fn fixture(name: &str) -> Vec<u8> {
    let path =
        format!("{}/tests/data/warc/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(path).expect("fixture")
}

fn record(item: &Item) -> (&Head, &[u8]) {
    match item {
        Item::Record(head, Ok(body)) => (head, body),
        other => panic!("a record with its payload expected, got {other:?}"),
    }
}

fn fault(item: &Item) -> &Error {
    match item {
        Item::Fault(e) => e,
        other => panic!("a fault expected, got {other:?}"),
    }
}

#[test]
fn chunked_gzip_response() {
    let items = read_records(&fixture("chunked-gzip.warc")[..]);
    assert_eq!(items.len(), 2);
    let (info, _) = record(&items[0]);
    assert_eq!(info.record_type(), &RecordType::Warcinfo);
    assert!(!info.record_type().has_body_urls());
    let (head, body) = record(&items[1]);
    assert_eq!(head.format(), Format::Warc);
    assert_eq!(head.record_type(), &RecordType::Response);
    assert!(head.record_type().has_body_urls());
    assert_eq!(head.target_uri(), Some("http://site.example/page"));
    assert_eq!(head.date(), Some("2026-11-27T11:00:01.5Z"));
    assert_eq!(head.date_rfc3339().as_deref(), Some("2026-11-27T11:00:01.5Z"));
    assert_eq!(
        head.record_id(),
        Some("<urn:uuid:00000000-0000-0000-0000-000000000002>")
    );
    assert_eq!(
        head.content_type(),
        Some("application/http; msgtype=response")
    );
    assert_eq!(head.offset(), info.offset() + info.head_len() + 65 + 4);
    assert_eq!(head.gz_offset(), None);
    assert!(head.is_http());
    assert_eq!(body, HTML);
}

#[test]
fn http_head_and_content_type() {
    let data = fixture("chunked-gzip.warc");
    let mut records = Records::new(&data[..]);
    records.next_record().unwrap().unwrap();
    records.next_record().unwrap().unwrap();
    let payload = records.payload().unwrap();
    let http = payload.http().expect("an HTTP head");
    assert_eq!(http.status(), Some(200));
    assert_eq!(http.start_line(), "HTTP/1.1 200 OK");
    assert_eq!(http.content_type(), Some("text/html; charset=utf-8"));
    assert_eq!(http.field("transfer-encoding"), Some("chunked"));
}

#[test]
fn deflate_zlib_and_raw() {
    let items = read_records(&fixture("deflate.warc")[..]);
    assert_eq!(items.len(), 2);
    for (item, uri) in items
        .iter()
        .zip(["http://site.example/zlib", "http://site.example/raw"])
    {
        let (head, body) = record(item);
        assert_eq!(head.target_uri(), Some(uri));
        assert_eq!(body, HTML, "{uri}");
    }
}

#[test]
fn brotli_is_reported_not_guessed() {
    let items = read_records(&fixture("br.warc")[..]);
    assert_eq!(items.len(), 2);
    match &items[0] {
        Item::Record(head, Err((_, e))) => {
            assert_eq!(head.target_uri(), Some("http://site.example/br"));
            assert_eq!(e.fault(), &Fault::UnsupportedCoding("br".into()));
            assert_eq!(e.offset(), 0);
            assert!(e.to_string().contains("\"br\""), "{e}");
        }
        other => panic!("an unsupported coding expected, got {other:?}"),
    }
    let (next, body) = record(&items[1]);
    assert_eq!(next.target_uri(), Some("urn:after-br"));
    assert_eq!(body, b"after");
}

#[test]
fn truncated_record_keeps_what_is_there() {
    let data = fixture("truncated.warc");
    let items = read_records(&data[..]);
    assert_eq!(items.len(), 4, "{items:?}");
    let (whole, body) = record(&items[1]);
    assert_eq!(whole.target_uri(), Some("urn:whole"));
    assert_eq!(body, b"whole record");
    // The cut record: its head, and the 40 bytes of HTML there are.
    let (cut, body) = record(&items[2]);
    assert_eq!(cut.target_uri(), Some("http://site.example/cut"));
    assert_eq!(body, &HTML[..40]);
    let e = fault(&items[3]);
    assert_eq!(e.offset(), cut.offset());
    let got = data.len() as u64 - cut.offset() - cut.head_len();
    assert_eq!(
        e.fault(),
        &Fault::Truncated { expected: cut.content_length(), got }
    );
    assert!(e.to_string().contains(&format!("at offset {}", cut.offset())));
}

#[test]
fn content_length_past_the_end() {
    let data = fixture("length-past-eof.warc");
    let items = read_records(&data[..]);
    assert_eq!(items.len(), 4, "{items:?}");
    let (short, body) = record(&items[2]);
    assert_eq!(short.content_length(), 50000);
    // The block runs to the end: its 11 bytes and the CRLF CRLF.
    assert_eq!(body, b"short block\r\n\r\n");
    let e = fault(&items[3]);
    assert_eq!(e.offset(), short.offset());
    assert!(matches!(
        e.fault(),
        Fault::Truncated { expected: 50000, got: 15 }
    ));
}

#[test]
fn garbage_between_records() {
    let data = fixture("garbage.warc");
    let items = read_records(&data[..]);
    assert_eq!(items.len(), 3, "{items:?}");
    let e = fault(&items[1]);
    let at = find(&data, b"this line");
    assert_eq!(e.offset(), at as u64);
    assert!(
        matches!(e.fault(), Fault::Garbage(seen) if seen.starts_with("this line"))
    );
    let (next, body) = record(&items[2]);
    assert_eq!(
        next.offset(),
        find(&data, b"WARC/1.1\r\nWARC-Type: resource") as u64
    );
    assert_eq!(next.target_uri(), Some("urn:after-garbage"));
    assert_eq!(body, b"found again");
}

#[test]
fn bad_chunk_size() {
    let items = read_records(&fixture("bad-chunk.warc")[..]);
    assert_eq!(items.len(), 2, "{items:?}");
    match &items[0] {
        Item::Record(head, Err((before, e))) => {
            // The chunk before the bad size comes out.
            assert_eq!(before.as_slice(), &HTML[..20]);
            assert_eq!(e.offset(), head.offset());
            assert!(
                matches!(e.fault(), Fault::BadChunk(why) if why.contains("\"zz\""))
            );
        }
        other => panic!("a bad chunk expected, got {other:?}"),
    }
    let (next, body) = record(&items[1]);
    assert_eq!(next.target_uri(), Some("urn:after-bad-chunk"));
    assert_eq!(body, b"next");
}

#[test]
fn folded_fields_and_case() {
    let items = read_records(&fixture("br.warc")[..]);
    let Item::Record(head, _) = &items[1] else { panic!("{items:?}") };
    assert_eq!(head.field("x-folded"), Some("first second"));
    assert_eq!(head.field("WARC-TARGET-URI"), Some("urn:after-br"));
}

#[test]
fn arc_plain_and_gzip() {
    let plain = read_records(&fixture("small.arc")[..]);
    let gz = read_records(&fixture("small.arc.gz")[..]);
    assert_eq!(plain.len(), 3);
    assert_eq!(gz.len(), 3);
    let members = [0u64, 129, 316];
    for (i, (p, g)) in plain.iter().zip(&gz).enumerate() {
        let ((ph, pb), (gh, gb)) = (record(p), record(g));
        assert_eq!(ph.format(), Format::Arc);
        assert_eq!(pb, gb);
        assert_eq!(ph.offset(), gh.offset());
        assert_eq!(ph.target_uri(), gh.target_uri());
        assert_eq!(gh.gz_offset(), Some(members[i]));
    }
    let (desc, _) = record(&plain[0]);
    assert_eq!(desc.record_type(), &RecordType::Warcinfo);
    let (page, body) = record(&plain[1]);
    assert_eq!(page.target_uri(), Some("http://site.example/"));
    assert_eq!(page.date(), Some("20261127110001"));
    assert_eq!(page.date_rfc3339().as_deref(), Some("2026-11-27T11:00:01Z"));
    assert_eq!(page.content_type(), Some("text/html"));
    assert_eq!(body, HTML, "the HTTP head is taken off");
    let (dns, body) = record(&plain[2]);
    assert_eq!(dns.target_uri(), Some("dns:site.example"));
    assert!(body.starts_with(b"20261127110000\n"), "not HTTP: as stored");
    let gzipped = fixture("small.arc.gz");
    let listed: Vec<u64> = gzip_members(&gzipped[..], 0)
        .map(|m| m.expect("a member").offset)
        .collect();
    assert_eq!(listed, members);
    assert_eq!(find_member(&gzipped[1..]), Some(128));
    assert_eq!(find_member(&gzipped[130..]), Some(316 - 130));
    assert_eq!(find_member(&gzipped[317..]), None);
}

/// Three records, each gzipped as its own member, and their member
/// offsets.
fn three_members() -> (Vec<u8>, Vec<u64>, Vec<Vec<u8>>) {
    let plain = fixture("garbage.warc");
    let first = find(&plain, b"this line");
    let second = find(&plain, b"WARC/1.1\r\nWARC-Type: resource");
    let parts = vec![
        plain[..first].to_vec(),
        fixture("br.warc")[340..].to_vec(),
        plain[second..].to_vec(),
    ];
    let mut out = Vec::new();
    let mut offsets = Vec::new();
    for part in &parts {
        offsets.push(out.len() as u64);
        out.extend(gzip(part));
    }
    (out, offsets, parts)
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    enc.write_all(data).unwrap();
    enc.finish().unwrap()
}

#[test]
fn gzip_members_give_their_offsets() {
    let (gz, offsets, parts) = three_members();
    assert_eq!(sniff_gz(&gz), Some(Format::Warc));
    assert_eq!(sniff(&gz), None);
    let items = read_records(&gz[..]);
    assert_eq!(items.len(), 3, "{items:?}");
    let mut at = 0u64;
    for (i, item) in items.iter().enumerate() {
        let (head, _) = record(item);
        assert_eq!(head.gz_offset(), Some(offsets[i]));
        assert_eq!(head.offset(), at, "uncompressed offset");
        at += parts[i].len() as u64;
    }
    let listed: Vec<_> =
        gzip_members(&gz[..], 0).map(|m| m.unwrap()).collect();
    assert_eq!(listed.iter().map(|m| m.offset).collect::<Vec<_>>(), offsets);
    assert_eq!(listed[2].end, gz.len() as u64);
    assert_eq!(listed[1].inflated, parts[1].len() as u64);
    // Cut points found without inflating the file: from any byte, the
    // next member's start.
    for from in 0..gz.len() {
        let want = offsets.iter().find(|&&o| o as usize >= from);
        let got = find_member(&gz[from..]).map(|i| (from + i) as u64);
        assert_eq!(got.as_ref(), want, "from {from}");
    }
    // A slice of the file from its second member on.
    let tail = read_records_from(&gz[offsets[1] as usize..], offsets[1]);
    let (head, _) = record(&tail[0]);
    assert_eq!(head.gz_offset(), Some(offsets[1]));
    assert_eq!(tail.len(), 2);
}

fn read_records_from(data: &[u8], start: u64) -> Vec<Item> {
    collect(Records::with_start(data, start))
}

#[test]
fn member_end_is_a_record_end() {
    // Writers that end a member right after the block, without CRLF
    // CRLF (pywb's url-agnostic samples): no fault.
    let data = fixture("chunked-gzip.warc");
    let second = find(&data, b"WARC/1.1\r\nWARC-Type: response");
    let mut gz = gzip(&data[..second - 4]);
    let at = gz.len() as u64;
    gz.extend(gzip(&data[second..]));
    let items = read_records(&gz[..]);
    assert_eq!(items.len(), 2, "{items:?}");
    let (head, body) = record(&items[1]);
    assert_eq!(head.gz_offset(), Some(at));
    assert_eq!(body, HTML);
}

#[test]
fn block_past_its_member_ends_with_it() {
    // One record a member, the first's Content-Length 50 too long: its
    // block ends with its member, and the next member's record is read
    // (as warcio reads it), not swallowed as the rest of the block.
    let data = fixture("br.warc");
    let first = data[340..].to_vec();
    let long = String::from_utf8_lossy(&first)
        .replace("Content-Length: 5\r\n", "Content-Length: 55\r\n")
        .into_bytes();
    let mut gz = gzip(&long);
    let second = gz.len() as u64;
    gz.extend(gzip(&first));
    let items = read_records(&gz[..]);
    assert_eq!(items.len(), 3, "{items:?}");
    let (head, body) = record(&items[0]);
    assert_eq!(head.content_length(), 55);
    assert_eq!(body, b"after\r\n\r\n");
    let e = fault(&items[1]);
    assert_eq!(e.fault(), &Fault::PastMember { expected: 55, got: 9 });
    assert_eq!((e.offset(), e.gz_offset()), (0, Some(0)));
    let (next, body) = record(&items[2]);
    assert_eq!(next.gz_offset(), Some(second));
    assert_eq!(body, b"after");
    // Read from its member on, the second record is the same.
    let tail = read_records_from(&gz[second as usize..], second);
    let (alone, alone_body) = record(&tail[0]);
    assert_eq!(alone.gz_offset(), next.gz_offset());
    assert_eq!(alone.record_id(), next.record_id());
    assert_eq!(alone_body, body);
}

#[test]
fn whole_file_gzip() {
    let plain = fixture("chunked-gzip.warc");
    let whole = gzip(&plain);
    // One member: no cut point after its start.
    assert_eq!(find_member(&whole), Some(0));
    assert_eq!(find_member(&whole[1..]), None);
    let items = read_records(&whole[..]);
    assert_eq!(items.len(), 2);
    let (head, body) = record(&items[1]);
    assert_eq!(head.gz_offset(), Some(0));
    assert_eq!(body, HTML);
}

#[test]
fn damaged_member_is_named_and_passed() {
    let (mut gz, offsets, _) = three_members();
    // Spoil the deflate data of the second member (past its 10-byte
    // header).
    let mid = offsets[1] as usize + 12;
    for b in &mut gz[mid..mid + 8] {
        *b ^= 0x55;
    }
    let items = read_records(&gz[..]);
    let faults: Vec<&Error> = items
        .iter()
        .filter_map(|i| if let Item::Fault(e) = i { Some(e) } else { None })
        .collect();
    assert!(!faults.is_empty(), "{items:?}");
    assert!(
        faults.iter().all(|e| e.gz_offset() == Some(offsets[1])),
        "{faults:?}"
    );
    let (first, _) = record(&items[0]);
    assert_eq!(first.gz_offset(), Some(0));
    let (last, body) = record(items.last().unwrap());
    assert_eq!(last.gz_offset(), Some(offsets[2]));
    assert_eq!(body, b"found again");
}

/// Cut a file at every byte: no panic, and every record that ends
/// before the cut comes out whole, in order, with its payload.
fn cut_everywhere(data: &[u8], ends: &[(u64, Vec<u8>)]) {
    let whole = read_records(data);
    for cut in 0..=data.len() {
        let items = read_records(&data[..cut]);
        let mut records = items.iter().filter_map(|i| match i {
            Item::Record(head, Ok(body)) => {
                Some((head.offset(), body.clone()))
            }
            _ => None,
        });
        for (i, (end, _)) in ends.iter().enumerate() {
            if *end > cut as u64 {
                break;
            }
            let Item::Record(want, Ok(body)) = &whole[i] else { panic!() };
            assert_eq!(
                records.next(),
                Some((want.offset(), body.clone())),
                "cut at {cut}: record {i}"
            );
        }
    }
}

#[test]
fn cut_at_every_byte() {
    let data = fixture("chunked-gzip.warc");
    let whole = read_records(&data[..]);
    let ends: Vec<(u64, Vec<u8>)> = whole
        .iter()
        .map(|i| {
            let (h, b) = record(i);
            (h.offset() + h.head_len() + h.content_length(), b.to_vec())
        })
        .collect();
    cut_everywhere(&data, &ends);
    let arc = fixture("small.arc");
    let whole = read_records(&arc[..]);
    let ends: Vec<(u64, Vec<u8>)> = whole
        .iter()
        .map(|i| {
            let (h, b) = record(i);
            (h.offset() + h.head_len() + h.content_length(), b.to_vec())
        })
        .collect();
    cut_everywhere(&arc, &ends);
}

#[test]
fn cut_gzip_at_every_byte() {
    let (gz, offsets, _) = three_members();
    let whole = read_records(&gz[..]);
    for cut in 0..=gz.len() {
        let items = read_records(&gz[..cut]);
        // Members wholly before the cut: their records, whole.
        let done = offsets
            .iter()
            .skip(1)
            .chain([&(gz.len() as u64)])
            .filter(|&&e| e <= cut as u64)
            .count();
        for i in 0..done {
            let (want, body) = record(&whole[i]);
            let (got, got_body) = record(&items[i]);
            assert_eq!(
                (got.gz_offset(), got_body),
                (want.gz_offset(), body),
                "cut at {cut}"
            );
        }
    }
}

#[test]
fn shared_samples() {
    let Some(tarball) = shared::path("corpora/warc/pywb-sample-warcs.tar.gz")
    else {
        return;
    };
    let file = std::fs::File::open(tarball).unwrap();
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut seen = std::collections::BTreeMap::new();
    for entry in tar.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry
            .path()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let mut data = Vec::new();
        entry.read_to_end(&mut data).unwrap();
        let items = read_records(BufReader::new(&data[..]));
        if data.starts_with(&[0x1f, 0x8b]) {
            // The cut points found without inflating are the members.
            let listed: Vec<u64> = gzip_members(&data[..], 0)
                .filter_map(Result::ok)
                .map(|m| m.offset)
                .collect();
            let mut found = Vec::new();
            let mut from = 0;
            while let Some(i) = find_member(&data[from..]) {
                found.push((from + i) as u64);
                from += i + 1;
            }
            assert_eq!(found, listed, "{name}");
        }
        let records =
            items.iter().filter(|i| matches!(i, Item::Record(..))).count();
        let faults = items.len() - records;
        seen.insert(name, (records, faults, items));
    }
    // warcio's counts (tests/warc_crosscheck.py compares record by record).
    let want = [
        ("iana.warc.gz", 343, 0),
        ("example.warc", 6, 1),
        ("example.warc.gz", 6, 0),
        ("example.arc", 2, 0),
        ("example.arc.gz", 2, 0),
        ("bad.arc", 1, 2),
        ("example-bad.warc.gz.bad", 6, 0),
        ("missing-status-text.warc", 1, 0),
        ("post-test.warc.gz", 6, 0),
    ];
    for (name, records, faults) in want {
        let (r, f, _) = &seen[name];
        assert_eq!((*r, *f), (records, faults), "{name}");
    }
    // A status line without its reason phrase reads.
    let (_, _, items) = &seen["missing-status-text.warc"];
    let Item::Record(head, Ok(_)) = &items[0] else { panic!("{items:?}") };
    assert_eq!(head.target_uri(), Some("http://iana.org/bads"));
    // iana.warc.gz: 134 chunked responses among them, all decoded.
    let (_, _, items) = &seen["iana.warc.gz"];
    let types = items.iter().filter_map(|i| match i {
        Item::Record(h, Ok(_)) => Some(h.record_type().name().to_string()),
        _ => None,
    });
    assert_eq!(types.count(), 343);
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("in the fixture")
}
