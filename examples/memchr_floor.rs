//! The floor of the comparison script (`benches/compare.py`): reads the
//! given files and folders (recursively, no `stat` per file in a folder)
//! the way urlgrep's reader does — 256 KiB reads into one page-aligned
//! buffer — and counts the colons with `memchr`. No URL tool can read
//! and look at every byte faster than this, so urlgrep's throughput is
//! quoted as a share of it.
//!
//! Run: `cargo run --release --example memchr_floor -- PATH...`

use std::io::{self, Read};
use std::path::Path;

#[path = "shared/walk.rs"]
mod walk;

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
    walk::each_file(path, &mut |path| {
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
    })
}
