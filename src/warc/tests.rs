//! Unit tests of the record reader on tiny inputs (the fixtures and the
//! shared files are in tests/warc.rs).

use std::io::Read;

use super::*;

#[test]
fn sniffs() {
    assert_eq!(sniff(b"WARC/1.0\r\n"), Some(Format::Warc));
    assert_eq!(sniff(b"WARC/1.1\r\n"), Some(Format::Warc));
    assert_eq!(
        sniff(b"filedesc://x.arc 0.0.0.0 20140101000000 text/plain 1\n"),
        Some(Format::Arc)
    );
    assert_eq!(sniff(b"WARC/2.0"), None);
    assert_eq!(sniff(b"WARC/1."), None);
    assert_eq!(sniff(b"From a@b"), None);
}

#[test]
fn sniffs_gzip() {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(
        Vec::new(),
        flate2::Compression::default(),
    );
    enc.write_all(b"WARC/1.1\r\nWARC-Type: warcinfo\r\n").unwrap();
    let gz = enc.finish().unwrap();
    assert_eq!(sniff_gz(&gz), Some(Format::Warc));
    assert_eq!(sniff_gz(&gz[..4]), None);
    assert_eq!(sniff_gz(b"WARC/1.0"), None);
}

#[test]
fn one_record() {
    let warc = b"WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://a.example/\r\nContent-Length: 5\r\n\r\nhello\r\n\r\n";
    let mut records = Records::new(&warc[..]);
    let head = records.next_record().unwrap().unwrap();
    assert_eq!(head.record_type(), &RecordType::Resource);
    assert_eq!(head.target_uri(), Some("http://a.example/"));
    assert_eq!(head.content_length(), 5);
    let mut body = Vec::new();
    records.payload().unwrap().read_to_end(&mut body).unwrap();
    assert_eq!(body, b"hello");
    assert!(records.next_record().is_none());
}
