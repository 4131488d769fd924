//! Prints the metadata of every message of mail files as JSON Lines, for
//! `tests/meta_crosscheck.py`:
//!
//! ```text
//! cargo run --release --example mail_meta -- PATH...
//! ```
//!
//! One object a message: `file`, `index` (in the file), `message_id`,
//! `date`, `date_utc`, `subject`, `from_name`, `from_address`. Folders
//! are walked; each file is framed as its first bytes say (an mbox is
//! split at its separator lines).

use std::io::{self, Write};
use urlgrep::mail::{messages, Format};

fn main() -> io::Result<()> {
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    for path in std::env::args().skip(1) {
        let mut files: Vec<_> = walkdir::WalkDir::new(&path)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| e.into_path())
            .collect();
        files.sort();
        for file in files {
            let hay = std::fs::read(&file)?;
            let format = match Format::sniff(&hay) {
                Format::Mbox => Format::Mbox,
                _ => Format::Unknown,
            };
            for msg in messages(&hay, format) {
                let meta = msg.metadata(&[]);
                let from = meta.from.unwrap_or_default();
                let rec = serde_json::json!({
                    "file": file.display().to_string(),
                    "index": msg.index(),
                    "message_id": msg
                        .message_id()
                        .map(|id| String::from_utf8_lossy(id).into_owned()),
                    "date": meta.date,
                    "date_utc": meta.date_utc.map(|d| d.to_string()),
                    "subject": meta.subject,
                    "from_name": from.name,
                    "from_address": from.address,
                });
                serde_json::to_writer(&mut out, &rec)?;
                out.write_all(b"\n")?;
            }
        }
    }
    out.flush()
}
