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

/// A reader that fails after its bytes.
struct Failing<'a>(&'a [u8]);

impl std::io::Read for Failing<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.0.is_empty() {
            return Err(std::io::Error::other("disk on fire"));
        }
        let n = self.0.len().min(out.len());
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn read_error_is_reported_once_then_the_end() {
    let warc = b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\nabc\r\n\r\nWARC/1.0\r\n";
    let rdr = std::io::BufReader::new(Failing(warc));
    let mut records = Records::new(rdr);
    assert!(records.next_record().unwrap().is_ok());
    let e = records.next_record().unwrap().unwrap_err();
    assert!(
        matches!(e.fault(), Fault::Io(why) if why.contains("disk on fire")),
        "{e}"
    );
    assert!(records.next_record().is_none());
}

#[test]
fn head_too_long_is_passed() {
    let mut warc = b"WARC/1.0\r\nWARC-Type: resource\r\n".to_vec();
    while warc.len() <= MAX_HEAD {
        warc.extend_from_slice(
            b"X-Filler: 0123456789012345678901234567890123456789\r\n",
        );
    }
    warc.extend_from_slice(b"Content-Length: 1\r\n\r\nx\r\n\r\n");
    let after = warc.len() as u64;
    warc.extend_from_slice(b"WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nok\r\n\r\n");
    let mut records = Records::new(&warc[..]);
    let e = records.next_record().unwrap().unwrap_err();
    assert_eq!(e.fault(), &Fault::HeadTooLong(MAX_HEAD));
    assert_eq!(e.offset(), 0);
    let head = records.next_record().unwrap().unwrap();
    assert_eq!(head.offset(), after);
}

#[test]
fn http_head_too_long_leaves_the_record_to_be_passed() {
    let mut http = b"HTTP/1.1 200 OK\r\n".to_vec();
    while http.len() <= MAX_HTTP_HEAD {
        http.extend_from_slice(
            b"Set-Cookie: 0123456789012345678901234567890123456789\r\n",
        );
    }
    http.extend_from_slice(b"\r\nbody");
    let mut warc = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    warc.extend_from_slice(&http);
    warc.extend_from_slice(b"\r\n\r\nWARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nok\r\n\r\n");
    let mut records = Records::new(&warc[..]);
    records.next_record().unwrap().unwrap();
    let e = records.payload().err().unwrap();
    assert_eq!(e.fault(), &Fault::HeadTooLong(MAX_HTTP_HEAD));
    let next = records.next_record().unwrap().unwrap();
    assert_eq!(next.record_type(), &RecordType::Resource);
}

#[test]
fn public_types_are_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<Head>();
    send_sync::<Error>();
    send_sync::<Fault>();
    send_sync::<RecordType>();
    send_sync::<HttpHead>();
    send_sync::<Member>();
    send::<Records<std::io::BufReader<std::fs::File>>>();
    send::<GzMembers<&[u8]>>();
}

#[test]
fn payload_after_the_block_was_read_is_the_rest() {
    let warc = b"WARC/1.1\r\nWARC-Type: response\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: 23\r\n\r\nHTTP/1.1 200 OK\r\n\r\nbody\r\n\r\n";
    let mut records = Records::new(&warc[..]);
    records.next_record().unwrap().unwrap();
    let mut first = [0u8; 4];
    records.block().read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP");
    let mut payload = records.payload().unwrap();
    assert!(payload.http().is_none());
    let mut rest = Vec::new();
    payload.read_to_end(&mut rest).unwrap();
    assert_eq!(rest, b"/1.1 200 OK\r\n\r\nbody");
}
