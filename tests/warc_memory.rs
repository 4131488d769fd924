//! Peak memory of the web-archive reader (issue 30): a 1 GiB record,
//! made on the fly, read through its payload (HTTP head, chunked body) in
//! the memory of a small one. Measured by the process's peak resident set
//! (Linux `/proc/self/status` VmHWM, reset through `clear_refs`), in a
//! test binary of its own so that no other test allocates beside it;
//! elsewhere it checks the bytes only. Reading the payload with
//! `read_to_end` into a `Vec` instead makes the peak grow by 1,048,804 KiB
//! and the test fail; the windowed read grew it by 16 KiB alone (124 KiB
//! beside the other tests).

use std::io::{BufReader, Read, Write};

use urlgrep::warc::{RecordType, Records};

/// A stream of byte runs, some written, some `n` copies of `a`: a
/// record of any size without its bytes in memory.
struct Runs {
    runs: std::collections::VecDeque<(Vec<u8>, u64)>,
}

impl Read for Runs {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        while let Some((bytes, fill)) = self.runs.front_mut() {
            if !bytes.is_empty() {
                let n = bytes.len().min(out.len());
                out[..n].copy_from_slice(&bytes[..n]);
                bytes.drain(..n);
                return Ok(n);
            }
            if *fill > 0 {
                let n = (*fill).min(out.len() as u64) as usize;
                out[..n].fill(b'a');
                *fill -= n as u64;
                return Ok(n);
            }
            self.runs.pop_front();
        }
        Ok(0)
    }
}

/// The process's resident set now, and its peak since `reset_peak`
/// (Linux: /proc/self/status, VmRSS and VmHWM, in KiB).
fn rss_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Writing 5 to clear_refs resets the peak (VmHWM) to the current RSS.
fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

#[test]
fn a_gigabyte_record_in_bounded_memory() {
    const GIB: u64 = 1 << 30;
    const CHUNK: u64 = 1 << 20;
    let mut runs = std::collections::VecDeque::new();
    let http = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n";
    let chunk_head = format!("{CHUNK:x}\r\n");
    let block_len = http.len() as u64
        + (GIB / CHUNK) * (chunk_head.len() as u64 + CHUNK + 2)
        + b"0\r\n\r\n".len() as u64;
    let head = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://big.example/\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {block_len}\r\n\r\n"
    );
    runs.push_back((head.into_bytes(), 0));
    runs.push_back((http.to_vec(), 0));
    for _ in 0..GIB / CHUNK {
        runs.push_back((chunk_head.clone().into_bytes(), CHUNK));
        runs.push_back((b"\r\n".to_vec(), 0));
    }
    runs.push_back((b"0\r\n\r\n\r\n\r\n".to_vec(), 0));
    let tail = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 3\r\n\r\nend\r\n\r\n";
    runs.push_back((tail.to_vec(), 0));
    let before = rss_kib("VmRSS:");
    let measured = before.is_some() && reset_peak();
    let mut records = Records::new(BufReader::new(Runs { runs }));
    let head = records.next_record().unwrap().unwrap();
    assert_eq!(head.content_length(), block_len);
    let mut payload = records.payload().unwrap();
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let n = payload.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        total += n as u64;
    }
    drop(payload);
    assert_eq!(total, GIB);
    let (next, body) = {
        let head = records.next_record().unwrap().unwrap();
        (head, payload_of(&mut records))
    };
    assert_eq!(next.record_type(), &RecordType::Resource);
    assert_eq!(body, b"end");
    if measured {
        let grew =
            rss_kib("VmHWM:").unwrap_or(0).saturating_sub(before.unwrap_or(0));
        // Bounded: a window of the stream, never the record (1 GiB).
        assert!(
            grew < 64 * 1024,
            "peak grew by {grew} KiB reading a 1 GiB record"
        );
        let _ = writeln!(
            std::io::stderr(),
            "a 1 GiB record: peak RSS grew by {grew} KiB"
        );
    }
}

fn payload_of<R: std::io::BufRead>(records: &mut Records<R>) -> Vec<u8> {
    let mut out = Vec::new();
    records.payload().unwrap().read_to_end(&mut out).unwrap();
    out
}
