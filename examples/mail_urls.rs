//! Prints the URLs of mail files, one per line, for cross-checks:
//!
//! ```text
//! cargo run --release --example mail_urls -- [--raw] [--qp-repair] PATH...
//! ```
//!
//! Each line is `file<TAB>message<TAB>part<TAB>location<TAB>encoding<TAB>
//! decoded<TAB>url`; with `--raw` the files are scanned as plain text and
//! the middle columns are `-`. Directories are walked.

use std::io::{self, Write};
use urlgrep::mail::{Format, MailFinder, MailMatch};

fn main() -> io::Result<()> {
    let mut raw = false;
    let mut repair = false;
    let mut paths = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--raw" => raw = true,
            "--qp-repair" => repair = true,
            _ => paths.push(arg),
        }
    }
    let finder =
        MailFinder::builder().qp_repair(repair).build(urlgrep::Finder::new());
    let out = io::stdout();
    let mut out = io::BufWriter::new(out.lock());
    for path in paths {
        let mut files: Vec<_> = walkdir::WalkDir::new(&path)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| e.into_path())
            .collect();
        files.sort();
        for file in files {
            let hay = std::fs::read(&file)?;
            let name = file.display().to_string();
            if raw {
                for m in finder.finder().find_iter(&hay) {
                    out.write_all(
                        format!("{name}\t-\t-\t-\t-\t-\t").as_bytes(),
                    )?;
                    out.write_all(m.url())?;
                    out.write_all(b"\n")?;
                }
                continue;
            }
            let format = match Format::sniff(&hay) {
                Format::Unknown => Format::Message,
                f => f,
            };
            let mut err = Ok(());
            let Ok(()) =
                finder.find(&hay, format, &mut |m: &MailMatch<'_>| {
                    let head = format!(
                        "{name}\t{}\t{}\t{}\t{}\t{}\t",
                        m.message(),
                        m.part(),
                        m.location().name(),
                        m.encoding().name(),
                        u8::from(m.decoded()),
                    );
                    err = out
                        .write_all(head.as_bytes())
                        .and_then(|()| out.write_all(m.as_match().url()))
                        .and_then(|()| out.write_all(b"\n"));
                    err.is_ok()
                });
            err?;
        }
    }
    out.flush()
}
