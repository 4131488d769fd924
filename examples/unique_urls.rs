//! Writes `N` distinct URLs (default 4,000,000), each with a host of its
//! own, one a line of mail-like text, to standard output: the input of the
//! bounded-statistics measurements (issue 20). Nothing is committed; the
//! file is made when it is measured:
//!
//! ```text
//! cargo run --release --example unique_urls -- 4000000 > /tmp/u4m.txt
//! /usr/bin/time -v target/release/urlgrep --stats /tmp/u4m.txt
//! /usr/bin/time -v target/release/urlgrep -u /tmp/u4m.txt > /dev/null
//! ```
//!
//! About 40 bytes a URL: 4 M URLs are about 160 MB.

use std::io::{self, BufWriter, Write};

fn main() -> io::Result<()> {
    let n: u64 = match std::env::args().nth(1) {
        Some(a) => a.parse().map_err(|e| {
            io::Error::new(io::ErrorKind::InvalidInput, format!("{a:?}: {e}"))
        })?,
        None => 4_000_000,
    };
    let tlds = ["com", "org", "net", "de", "uk", "fr", "io", "example"];
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    // A multiplicative permutation of 0..2^32: distinct, not in order.
    let mut x: u32 = 0;
    for i in 0..n {
        x = x.wrapping_add(0x9E37_79B9);
        let tld = tlds[(i % tlds.len() as u64) as usize];
        writeln!(out, "see http://w{x:08x}.ex.{tld}/p/{i} ok")?;
    }
    out.flush()
}
