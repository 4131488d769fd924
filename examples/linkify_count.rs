//! The linkify peer of the comparison script (`benches/compare.py`): prints
//! the URLs that the `linkify` crate finds in the given files and folders
//! (searched recursively), one per line, like `urlgrep`.
//!
//! linkify works on `&str`, so each file is read as bytes and converted
//! with `String::from_utf8_lossy`: mail and news carry Latin-1 and other
//! 8-bit bytes, which would make a strict conversion fail for the whole
//! file. The lossy copy replaces each invalid sequence by U+FFFD, which
//! ends a URL for linkify as an invalid byte does for urlgrep; that copy
//! is part of what this peer costs, as it is for any user of linkify on
//! mail. Only URLs with a scheme are counted (`LinkKind::Url`), not bare
//! e-mail addresses, as urlgrep does.
//!
//! Run: `cargo run --release --example linkify_count -- PATH...`

use linkify::{LinkFinder, LinkKind};
use std::io::{self, BufWriter, Write};
use std::path::Path;

#[path = "shared/walk.rs"]
mod walk;

fn main() {
    let mut finder = LinkFinder::new();
    finder.kinds(&[LinkKind::Url]);
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut status = 1;
    for arg in std::env::args_os().skip(1) {
        if let Err(e) = search(&finder, Path::new(&arg), &mut out, &mut status)
        {
            if e.kind() == io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("linkify_count: {}: {e}", arg.to_string_lossy());
            status = 2;
        }
    }
    if let Err(e) = out.flush() {
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("linkify_count: {e}");
            status = 2;
        }
    }
    std::process::exit(status);
}

/// Prints the URLs of `path` (a file, or a folder searched recursively in
/// name order); `status` becomes 0 at the first URL.
fn search(
    finder: &LinkFinder,
    path: &Path,
    out: &mut impl Write,
    status: &mut i32,
) -> io::Result<()> {
    walk::each_file(path, &mut |file| {
        let bytes = std::fs::read(file)?;
        let text = String::from_utf8_lossy(&bytes);
        for link in finder.links(&text) {
            out.write_all(link.as_str().as_bytes())?;
            out.write_all(b"\n")?;
            if *status == 1 {
                *status = 0;
            }
        }
        Ok(())
    })
}
