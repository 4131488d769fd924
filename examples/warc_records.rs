//! Lists the records of WARC and ARC files (plain or gzip) as JSON Lines,
//! for `tests/warc_crosscheck.py` (issue 30):
//!
//! ```text
//! cargo run --example warc_records -- FILE...
//! ```
//!
//! One object a record: `file`, `offset` (uncompressed), `gz_offset`
//! (the gzip member's, or null), `type`, `target_uri`, `date` (as
//! written), `date_rfc3339`, `record_id`, `content_type`,
//! `content_length`, `head_length`, `http_status`, `http_content_type`,
//! `payload_length` (the bytes of the payload after the HTTP head, the
//! transfer and content codings undone) and `payload_error` (a fault of
//! the content, or null). A fault of the container is a line of its own:
//! `file`, `error`, `offset`, `gz_offset`. Exits 2 when a file could not
//! be opened.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};

use serde_json::{json, Value};
use urlgrep::warc::{Error, Records};

fn main() -> io::Result<()> {
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    let mut status = 0;
    for path in std::env::args().skip(1) {
        let file = match File::open(&path) {
            Ok(file) => file,
            Err(e) => {
                eprintln!("warc_records: {path}: {e}");
                status = 2;
                continue;
            }
        };
        let mut records =
            Records::new(BufReader::with_capacity(64 * 1024, file));
        while let Some(next) = records.next_record() {
            let line = match next {
                Ok(head) => {
                    let (status, http_type, length, error) =
                        read_payload(&mut records);
                    json!({
                        "file": path,
                        "offset": head.offset(),
                        "gz_offset": head.gz_offset(),
                        "type": head.record_type().name(),
                        "target_uri": head.target_uri(),
                        "date": head.date(),
                        "date_rfc3339": head.date_rfc3339(),
                        "record_id": head.record_id(),
                        "content_type": head.content_type(),
                        "content_length": head.content_length(),
                        "head_length": head.head_len(),
                        "http_status": status,
                        "http_content_type": http_type,
                        "payload_length": length,
                        "payload_error": error,
                    })
                }
                Err(e) => error_line(&path, &e),
            };
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    std::process::exit(status);
}

/// Reads the current record's payload to its end: HTTP status and
/// content type, the payload's length, the fault that stopped it.
fn read_payload<R: io::BufRead>(
    records: &mut Records<R>,
) -> (Value, Value, u64, Value) {
    let mut payload = match records.payload() {
        Ok(payload) => payload,
        Err(e) => return (Value::Null, Value::Null, 0, json!(e.to_string())),
    };
    let status = json!(payload.http().and_then(|h| h.status()));
    let http_type = json!(payload.http().and_then(|h| h.content_type()));
    let mut buf = vec![0u8; 64 * 1024];
    let mut length = 0u64;
    loop {
        match payload.read(&mut buf) {
            Ok(0) => return (status, http_type, length, Value::Null),
            Ok(n) => length += n as u64,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => {
                return (status, http_type, length, json!(e.to_string()))
            }
        }
    }
}

fn error_line(path: &str, e: &Error) -> Value {
    json!({
        "file": path,
        "error": e.to_string(),
        "offset": e.offset(),
        "gz_offset": e.gz_offset(),
    })
}
