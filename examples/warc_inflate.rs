//! The inflate floors of a `.warc.gz` (issue 30, Performance): inflates
//! gzip files member by member with the same `flate2` (and the same
//! backend) as urlgrep's WARC reader (src/warc/gz.rs, src/warc/http.rs),
//! and prints the members and the inflated bytes. Nothing is searched:
//! this is the time any reader of the file must spend, and urlgrep `-j1`
//! is measured against it (`benches/compare.py --warc`).
//!
//! ```text
//! cargo run --release --example warc_inflate -- [--multi | --new | --layers] FILE...
//! ```
//!
//! By default (the outer floor) it does as src/warc/gz.rs does: reads each
//! file through a 64 KiB `BufReader`, inflates each member into a 64 KiB
//! window with one `flate2::bufread::GzDecoder`, reset (`GzDecoder::reset`)
//! for each member, and starts the next member where the last one ended.
//! With `--multi` it reads the file with one
//! `flate2::bufread::MultiGzDecoder` instead (which resets its inflate
//! state between members the same way, not knowing where they end); with
//! `--new`, a new `GzDecoder` a member, as src/warc/gz.rs did before it kept
//! its decoder.
//!
//! With `--layers` (the all-layers floor) it also undoes the compressed
//! layer inside the records, which a reader of the pages must undo as
//! well: each member is inflated (as by default) into a buffer, its WARC
//! records are framed by `Content-Length`, and the body of each
//! `application/http` record whose HTTP head says `Content-Encoding:
//! gzip` (or `x-gzip`, `deflate`) is inflated, after its `Transfer-Encoding:
//! chunked` is undone, with the decoders of src/warc/http.rs
//! (`GzDecoder` member after member, `ZlibDecoder`, `DeflateDecoder`, one
//! of each kept and reset for every body, as src/warc/http.rs keeps them)
//! into the same 64 KiB window; a body is copied into the kept decoder's
//! own buffer first (its input cannot borrow the member's buffer), as
//! src/warc/http.rs copies the pieces of a body into its decoder's feed. It also prints what share of the payload bytes are so coded.
//! The heads are only looked through (a field search, no parse): this is
//! a floor, not a reader; a record that does not frame ends its member.
//! Exits 2 when a file could not be read or does not inflate.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};

use flate2::bufread::{
    DeflateDecoder, GzDecoder, MultiGzDecoder, ZlibDecoder,
};

/// The file, handed to the kept member decoder for a member and taken
/// back at its end (`GzDecoder::reset` takes a reader): src/warc/gz.rs's
/// `Held`.
struct Held(Option<BufReader<File>>);

impl Read for Held {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match &mut self.0 {
            Some(r) => r.read(out),
            None => Ok(0),
        }
    }
}

impl BufRead for Held {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match &mut self.0 {
            Some(r) => r.fill_buf(),
            None => Ok(&[]),
        }
    }

    fn consume(&mut self, amt: usize) {
        if let Some(r) = &mut self.0 {
            r.consume(amt);
        }
    }
}

/// Inflates `path` member by member with one decoder, reset at each.
fn members(
    path: &str,
    c: &mut Counts,
    mut each: impl FnMut(&mut GzDecoder<Held>, &mut Counts) -> io::Result<()>,
) -> io::Result<()> {
    let rdr = BufReader::with_capacity(WINDOW, File::open(path)?);
    let mut dec = GzDecoder::new(Held(None));
    let mut rdr = Some(rdr);
    loop {
        let Some(mut r) = rdr.take() else { return Ok(()) };
        if r.fill_buf()?.is_empty() {
            return Ok(());
        }
        dec.reset(Held(Some(r)));
        each(&mut dec, c)?;
        c.members += 1;
        rdr = dec.get_mut().0.take();
    }
}

/// The decoders of the bodies' content codings, kept from one body to
/// the next and reset, each reading a buffer of its own.
struct Inner {
    gzip: GzDecoder<Cursor<Vec<u8>>>,
    zlib: ZlibDecoder<Cursor<Vec<u8>>>,
    raw: DeflateDecoder<Cursor<Vec<u8>>>,
}

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

/// Inflates `path` member by member, one decoder reset at each.
fn per_member(path: &str, c: &mut Counts) -> io::Result<()> {
    let mut buf = vec![0u8; WINDOW];
    members(path, c, |dec, c| {
        c.bytes += drain(dec, &mut buf)?;
        Ok(())
    })
}

/// Inflates `path` member by member, a new decoder for each.
fn new_each(path: &str, c: &mut Counts) -> io::Result<()> {
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
    let mut member: Vec<u8> = Vec::new();
    let mut body = Vec::new();
    let mut buf = vec![0u8; WINDOW];
    let mut inner = Inner {
        gzip: GzDecoder::new(Cursor::default()),
        zlib: ZlibDecoder::new(Cursor::default()),
        raw: DeflateDecoder::new(Cursor::default()),
    };
    members(path, c, |dec, c| {
        // Read a window at a time into the buffer kept from the member
        // before (zeroed only where it grows), as the outer floor reads.
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
        let mut rest = &member[..len];
        while let Some((block, after)) = next_record(rest) {
            decode(block, &mut body, &mut buf, &mut inner, c)?;
            rest = after;
        }
        Ok(())
    })
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
fn decode(
    block: &[u8],
    body: &mut Vec<u8>,
    buf: &mut [u8],
    inner: &mut Inner,
    c: &mut Counts,
) -> io::Result<()> {
    let Some((head, stored)) = split_head(block) else { return Ok(()) };
    let chunked = field(head, b"transfer-encoding")
        .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"));
    let coding =
        field(head, b"content-encoding").map(|t| t.to_ascii_lowercase());
    let coding = match coding.as_deref() {
        Some("gzip" | "x-gzip") => Some(true),
        Some("deflate") => Some(false),
        _ => None,
    };
    body.clear();
    if chunked {
        dechunk(stored, body);
    } else if coding.is_some() {
        body.extend_from_slice(stored);
    }
    let len =
        if chunked || coding.is_some() { body.len() } else { stored.len() };
    c.bodies += 1;
    c.body_bytes += len as u64;
    let Some(gzip) = coding else { return Ok(()) };
    let first = body.first().copied();
    let input = Cursor::new(std::mem::take(body));
    let got = match gzip {
        true if first == Some(0x1f) => {
            // Member after member, as src/warc/http.rs reads them.
            let dec = &mut inner.gzip;
            dec.reset(input);
            let mut got = drain(dec, buf)?;
            while (dec.get_ref().position() as usize)
                < dec.get_ref().get_ref().len()
            {
                let input = std::mem::take(dec.get_mut());
                dec.reset(input);
                got += drain(dec, buf)?;
            }
            *body = std::mem::take(dec.get_mut()).into_inner();
            got
        }
        false if first.is_some_and(|b| b & 0x0f == 8) => {
            inner.zlib.reset(input);
            let got = drain(&mut inner.zlib, buf)?;
            *body = std::mem::take(inner.zlib.get_mut()).into_inner();
            got
        }
        false => {
            inner.raw.reset(input);
            let got = drain(&mut inner.raw, buf)?;
            *body = std::mem::take(inner.raw.get_mut()).into_inner();
            got
        }
        true => {
            *body = input.into_inner();
            return Ok(());
        }
    };
    c.coded_bodies += 1;
    c.coded_stored += len as u64;
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
    let mut mode = String::new();
    let mut c = Counts::default();
    let mut status = 0;
    for arg in std::env::args().skip(1) {
        if let Some(m) = arg.strip_prefix("--") {
            mode = match m {
                "multi" | "layers" | "new" => m.to_string(),
                _ => {
                    eprintln!("warc_inflate: unknown option {arg}");
                    std::process::exit(2);
                }
            };
            continue;
        }
        let got = match mode.as_str() {
            "multi" => multi(&arg, &mut c),
            "new" => new_each(&arg, &mut c),
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
