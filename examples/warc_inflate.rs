//! The inflate floors of a `.warc.gz` (issue 30, Performance): inflates
//! gzip files member by member with the same `flate2` (and the same
//! backend) as urlgrep's WARC reader (src/warc/gz.rs, src/warc/http.rs),
//! and prints the members and the inflated bytes. Nothing is searched:
//! this is the time any reader of the file must spend, and urlgrep `-j1`
//! is measured against it (`benches/compare.py --warc`).
//!
//! ```text
//! cargo run --release --example warc_inflate -- [--multi | --layers] FILE...
//! ```
//!
//! By default (the outer floor) it does as src/warc/gz.rs does: reads each
//! file through a 64 KiB `BufReader`, inflates each member with a new
//! `flate2::bufread::GzDecoder` into a 64 KiB window, and starts the next
//! member where the last one ended. With `--multi` it reads the file with
//! one `flate2::bufread::MultiGzDecoder` instead (one inflate state reset
//! between members), to show what a new decoder per member costs.
//!
//! With `--layers` (the all-layers floor) it also undoes the compressed
//! layer inside the records, which a reader of the pages must undo as
//! well: each member is inflated (as by default) into a buffer, its WARC
//! records are framed by `Content-Length`, and the body of each
//! `application/http` record whose HTTP head says `Content-Encoding:
//! gzip` (or `x-gzip`, `deflate`) is inflated, after its `Transfer-Encoding:
//! chunked` is undone, with the decoders of src/warc/http.rs
//! (`MultiGzDecoder`, `ZlibDecoder`, `DeflateDecoder`) into the same 64 KiB
//! window. It also prints what share of the payload bytes are so coded.
//! The heads are only looked through (a field search, no parse): this is
//! a floor, not a reader; a record that does not frame ends its member.
//! Exits 2 when a file could not be read or does not inflate.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};

use flate2::bufread::{
    DeflateDecoder, GzDecoder, MultiGzDecoder, ZlibDecoder,
};

/// The buffer sizes of src/warc/gz.rs and src/container/warc.rs.
const WINDOW: usize = 64 * 1024;

/// What was inflated.
#[derive(Default)]
struct Counts {
    members: u64,
    /// Bytes inflated from the members.
    bytes: u64,
    /// `--layers`: HTTP bodies (as stored, de-chunked), the content-coded
    /// ones among them, and what those inflated to.
    bodies: u64,
    coded_bodies: u64,
    coded_stored: u64,
    coded_inflated: u64,
    body_bytes: u64,
}

/// Inflates `path` member by member.
fn per_member(path: &str, c: &mut Counts) -> io::Result<()> {
    let mut rdr = BufReader::with_capacity(WINDOW, File::open(path)?);
    let mut buf = vec![0u8; WINDOW];
    while !rdr.fill_buf()?.is_empty() {
        let mut dec = GzDecoder::new(&mut rdr);
        c.bytes += drain(&mut dec, &mut buf)?;
        c.members += 1;
    }
    Ok(())
}

/// Inflates `path` with one `MultiGzDecoder`.
fn multi(path: &str, c: &mut Counts) -> io::Result<()> {
    let rdr = BufReader::with_capacity(WINDOW, File::open(path)?);
    let mut dec = MultiGzDecoder::new(rdr);
    let mut buf = vec![0u8; WINDOW];
    c.bytes += drain(&mut dec, &mut buf)?;
    Ok(())
}

/// Reads `dec` to its end into `buf`: the bytes it gave.
fn drain<R: Read>(dec: &mut R, buf: &mut [u8]) -> io::Result<u64> {
    let mut bytes = 0u64;
    loop {
        match dec.read(buf)? {
            0 => return Ok(bytes),
            n => bytes += n as u64,
        }
    }
}

/// Inflates `path` member by member, and the coded bodies of its records.
fn layers(path: &str, c: &mut Counts) -> io::Result<()> {
    let mut rdr = BufReader::with_capacity(WINDOW, File::open(path)?);
    let mut member: Vec<u8> = Vec::new();
    let mut body = Vec::new();
    let mut buf = vec![0u8; WINDOW];
    while !rdr.fill_buf()?.is_empty() {
        // Read a window at a time into the buffer kept from the member
        // before (zeroed only where it grows), as the outer floor reads.
        let mut dec = GzDecoder::new(&mut rdr);
        let mut len = 0;
        loop {
            if member.len() < len + WINDOW {
                member.resize(len + WINDOW, 0);
            }
            match dec.read(&mut member[len..len + WINDOW])? {
                0 => break,
                n => len += n,
            }
        }
        c.bytes += len as u64;
        c.members += 1;
        let mut rest = &member[..len];
        while let Some((block, after)) = next_record(rest) {
            inner(block, &mut body, &mut buf, c)?;
            rest = after;
        }
    }
    Ok(())
}

/// The next WARC record of `b` (blank lines before it passed over): the
/// HTTP block of a `response` or `resource` record whose head says
/// `application/http` (else empty), and what follows the record.
fn next_record(b: &[u8]) -> Option<(&[u8], &[u8])> {
    let b = &b[b.iter().take_while(|&&x| x == b'\r' || x == b'\n').count()..];
    if !b.starts_with(b"WARC/") {
        return None;
    }
    let (head, rest) = split_head(b)?;
    let len: usize = field(head, b"content-length")?.parse().ok()?;
    let block = rest.get(..len)?;
    let http = field(head, b"content-type")
        .is_some_and(|t| t.starts_with("application/http"));
    Some((if http { block } else { &[] }, &rest[len..]))
}

/// Inflates the body of the HTTP message `block` when it is content-coded.
fn inner(
    block: &[u8],
    body: &mut Vec<u8>,
    buf: &mut [u8],
    c: &mut Counts,
) -> io::Result<()> {
    let Some((head, mut stored)) = split_head(block) else { return Ok(()) };
    let chunked = field(head, b"transfer-encoding")
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
    if chunked {
        dechunk(stored, body);
        stored = body;
    }
    c.bodies += 1;
    c.body_bytes += stored.len() as u64;
    let coding =
        field(head, b"content-encoding").map(|t| t.to_ascii_lowercase());
    let got = match coding.as_deref() {
        Some("gzip" | "x-gzip") if stored.first() == Some(&0x1f) => {
            drain(&mut MultiGzDecoder::new(stored), buf)?
        }
        Some("deflate") if stored.first().is_some_and(|b| b & 0x0f == 8) => {
            drain(&mut ZlibDecoder::new(stored), buf)?
        }
        Some("deflate") => drain(&mut DeflateDecoder::new(stored), buf)?,
        _ => return Ok(()),
    };
    c.coded_bodies += 1;
    c.coded_stored += stored.len() as u64;
    c.coded_inflated += got;
    Ok(())
}

/// A head (to its empty line) and what follows it.
fn split_head(b: &[u8]) -> Option<(&[u8], &[u8])> {
    let end = memchr::memmem::find(b, b"\r\n\r\n")?;
    Some((&b[..end + 2], &b[end + 4..]))
}

/// The value of the first field `name` (lower case) of `head`, trimmed.
fn field<'h>(head: &'h [u8], name: &[u8]) -> Option<&'h str> {
    head.split(|&x| x == b'\n').find_map(|line| {
        let colon = memchr::memchr(b':', line)?;
        if !line[..colon].eq_ignore_ascii_case(name) {
            return None;
        }
        std::str::from_utf8(&line[colon + 1..]).ok().map(str::trim)
    })
}

/// The data of the chunked body `b`, into `out` (cleared).
fn dechunk(mut b: &[u8], out: &mut Vec<u8>) {
    out.clear();
    while let Some(eol) = memchr::memchr(b'\n', b) {
        let line = &b[..eol];
        let digits = line.iter().take_while(|x| x.is_ascii_hexdigit()).count();
        let size = std::str::from_utf8(&line[..digits])
            .ok()
            .and_then(|s| usize::from_str_radix(s, 16).ok());
        let Some(size @ 1..) = size else { return };
        let data = &b[eol + 1..];
        let Some(chunk) = data.get(..size) else { return };
        out.extend_from_slice(chunk);
        b = data.get(size + 2..).unwrap_or_default();
    }
}

fn main() {
    let mut mode = "";
    let mut c = Counts::default();
    let mut status = 0;
    for arg in std::env::args().skip(1) {
        if arg == "--multi" || arg == "--layers" {
            mode = if arg == "--multi" { "multi" } else { "layers" };
            continue;
        }
        let got = match mode {
            "multi" => multi(&arg, &mut c),
            "layers" => layers(&arg, &mut c),
            _ => per_member(&arg, &mut c),
        };
        if let Err(e) = got {
            eprintln!("warc_inflate: {arg}: {e}");
            status = 2;
        }
    }
    println!("{} members, {} bytes", c.members, c.bytes);
    if mode == "layers" {
        let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
        println!(
            "{} HTTP bodies, {} bytes (de-chunked); content-coded: {} \
             ({:.1}%), {} bytes stored ({:.1}%), inflated to {} bytes; \
             {} bytes inflated in all",
            c.bodies,
            c.body_bytes,
            c.coded_bodies,
            pct(c.coded_bodies, c.bodies),
            c.coded_stored,
            pct(c.coded_stored, c.body_bytes),
            c.coded_inflated,
            c.bytes + c.coded_inflated,
        );
    }
    std::process::exit(status);
}
