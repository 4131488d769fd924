//! The inflate floor of a `.warc.gz` (issue 30, Performance): inflates
//! gzip files member by member with the same `flate2` (and the same
//! backend) as urlgrep's WARC reader (src/warc/gz.rs), and prints the
//! members and the inflated bytes. Nothing is parsed or searched: this is
//! the time any reader of the file must spend, and urlgrep `-j1` is
//! measured against it (`benches/compare.py --warc`).
//!
//! ```text
//! cargo run --release --example warc_inflate -- [--multi] FILE...
//! ```
//!
//! As src/warc/gz.rs does, it reads each file through a 64 KiB
//! `BufReader`, inflates each member with a new
//! `flate2::bufread::GzDecoder` into a 64 KiB window, and starts the next
//! member where the last one ended. With `--multi` it reads the file with
//! one `flate2::bufread::MultiGzDecoder` instead (one inflate state reset
//! between members), to show what a new decoder per member costs.
//! Exits 2 when a file could not be read or does not inflate.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};

use flate2::bufread::{GzDecoder, MultiGzDecoder};

/// The buffer sizes of src/warc/gz.rs and src/container/warc.rs.
const WINDOW: usize = 64 * 1024;

/// Inflates `path` member by member: (members, inflated bytes).
fn per_member(path: &str) -> io::Result<(u64, u64)> {
    let mut rdr = BufReader::with_capacity(WINDOW, File::open(path)?);
    let mut buf = vec![0u8; WINDOW];
    let (mut members, mut bytes) = (0u64, 0u64);
    while !rdr.fill_buf()?.is_empty() {
        let mut dec = GzDecoder::new(&mut rdr);
        loop {
            match dec.read(&mut buf)? {
                0 => break,
                n => bytes += n as u64,
            }
        }
        members += 1;
    }
    Ok((members, bytes))
}

/// Inflates `path` with one `MultiGzDecoder`: (0, inflated bytes).
fn multi(path: &str) -> io::Result<(u64, u64)> {
    let rdr = BufReader::with_capacity(WINDOW, File::open(path)?);
    let mut dec = MultiGzDecoder::new(rdr);
    let mut buf = vec![0u8; WINDOW];
    let mut bytes = 0u64;
    loop {
        match dec.read(&mut buf)? {
            0 => return Ok((0, bytes)),
            n => bytes += n as u64,
        }
    }
}

fn main() {
    let mut use_multi = false;
    let (mut members, mut bytes) = (0u64, 0u64);
    let mut status = 0;
    for arg in std::env::args().skip(1) {
        if arg == "--multi" {
            use_multi = true;
            continue;
        }
        let got = if use_multi { multi(&arg) } else { per_member(&arg) };
        match got {
            Ok((m, b)) => {
                members += m;
                bytes += b;
            }
            Err(e) => {
                eprintln!("warc_inflate: {arg}: {e}");
                status = 2;
            }
        }
    }
    println!("{members} members, {bytes} bytes");
    std::process::exit(status);
}
