//! The floor of the comparison script (`benches/compare.py`): reads the
//! given files and folders (recursively, no `stat` per file in a folder)
//! the way urlgrep's reader does — 256 KiB reads into one page-aligned
//! buffer — and counts the colons with `memchr`. No URL tool can read and look at every byte faster than
//! this, so urlgrep's throughput is quoted as a share of it.
//!
//! Run: `cargo run --release --example memchr_floor -- PATH...`

use std::io::{self, Read};
use std::path::Path;

const ALIGN: usize = 4096;
const CAPACITY: usize = 256 * 1024;

fn main() {
    let mut buf = vec![0u8; CAPACITY + ALIGN];
    let base = buf.as_ptr().align_offset(ALIGN).min(ALIGN);
    let mut colons = 0u64;
    let mut bytes = 0u64;
    for arg in std::env::args_os().skip(1) {
        let window = &mut buf[base..base + CAPACITY];
        if let Err(e) = count(Path::new(&arg), window, &mut colons, &mut bytes)
        {
            eprintln!("memchr_floor: {}: {e}", arg.to_string_lossy());
            std::process::exit(2);
        }
    }
    println!("{colons} colons in {bytes} bytes");
}

fn count(
    path: &Path,
    buf: &mut [u8],
    colons: &mut u64,
    bytes: &mut u64,
) -> io::Result<()> {
    if path.is_dir() {
        folder(path, buf, colons, bytes)
    } else {
        file(path, buf, colons, bytes)
    }
}

/// A folder's entries in name order, their kinds as the folder lists
/// them (no `stat` per file, as urlgrep walks folders).
fn folder(
    path: &Path,
    buf: &mut [u8],
    colons: &mut u64,
    bytes: &mut u64,
) -> io::Result<()> {
    let mut entries = std::fs::read_dir(path)?
        .map(|e| e.and_then(|e| Ok((e.path(), e.file_type()?))))
        .collect::<io::Result<Vec<_>>>()?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (entry, kind) in entries {
        if kind.is_dir() {
            folder(&entry, buf, colons, bytes)?;
        } else if kind.is_file() {
            file(&entry, buf, colons, bytes)?;
        }
    }
    Ok(())
}

fn file(
    path: &Path,
    buf: &mut [u8],
    colons: &mut u64,
    bytes: &mut u64,
) -> io::Result<()> {
    let mut file = std::fs::File::open(path)?;
    loop {
        let n = match file.read(buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        *bytes += n as u64;
        *colons += memchr::memchr_iter(b':', &buf[..n]).count() as u64;
    }
}
