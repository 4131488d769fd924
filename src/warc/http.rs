//! The HTTP message inside a `response`/`request` block (WARC 1.1 §6.3,
//! `application/http`): its head parsed (RFC 9112 §2–§5, bounded), its
//! body given with the transfer coding (RFC 9112 §7.1, chunked) and the
//! content codings (RFC 9110 §8.4.1: gzip, x-gzip, deflate) undone.

use std::cell::RefCell;
use std::io::{self, BufRead, Read};

use flate2::bufread::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

use super::chunked::{looks_chunked, read_line, Chunked};
use super::error::{quote, Error, Fault};
use super::head::{parse_fields, trim_end_cr, Fields};

/// The longest HTTP head read; a longer one is an error
/// (`Fault::HeadTooLong`) and its record's payload is not read.
pub const MAX_HTTP_HEAD: usize = 64 * 1024;

/// The window of each decoder.
const DECODE_WINDOW: usize = 32 * 1024;

thread_local! {
    /// Decoder windows of payloads read before, for the next ones: a
    /// `std::io::BufReader` a coded payload zeroed its 32 KiB at its first
    /// read (3% of the instructions of `-j1 -c` on a `.warc.gz` whose
    /// pages are 40% gzip-coded).
    static WINDOWS: RefCell<Vec<Box<[u8]>>> = const { RefCell::new(Vec::new()) };
}

/// At most this many windows are kept per thread (one a coding layer).
const WINDOWS_KEPT: usize = 4;

/// A decoder's output, buffered in a window of [`DECODE_WINDOW`] bytes
/// taken from (and given back to) the thread's [`WINDOWS`]: read as
/// `std::io::BufReader::with_capacity(DECODE_WINDOW, …)` reads (a read of
/// at least the window into an empty buffer goes to the decoder directly,
/// a shorter one through the window, which is filled a whole window at a
/// time), so the decoder is asked for the same pieces as before.
struct Buffered<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    filled: usize,
}

impl<R: Read> Buffered<R> {
    fn new(inner: R) -> Buffered<R> {
        let buf = WINDOWS
            .with(|w| w.borrow_mut().pop())
            .filter(|b| b.len() == DECODE_WINDOW)
            .unwrap_or_else(|| vec![0u8; DECODE_WINDOW].into_boxed_slice());
        Buffered { inner, buf, pos: 0, filled: 0 }
    }
}

impl<R> Drop for Buffered<R> {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        WINDOWS.with(|w| {
            let mut w = w.borrow_mut();
            if w.len() < WINDOWS_KEPT {
                w.push(buf);
            }
        });
    }
}

impl<R: Read> Read for Buffered<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.filled && out.len() >= self.buf.len() {
            return self.inner.read(out);
        }
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Buffered<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.filled {
            self.filled = self.inner.read(&mut self.buf)?;
            self.pos = 0;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.filled);
    }
}

/// The head of the HTTP message in a record's block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpHead {
    start_line: String,
    status: Option<u16>,
    fields: Fields,
    len: u64,
}

impl HttpHead {
    /// The status line of a response (`HTTP/1.1 200 OK`) or the request
    /// line of a request, without its line end.
    pub fn start_line(&self) -> &str {
        &self.start_line
    }

    /// A response's status code.
    pub fn status(&self) -> Option<u16> {
        self.status
    }

    /// The first field named `name` (ignoring ASCII case).
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields.get(name)
    }

    /// The fields in order.
    pub fn fields(&self) -> impl Iterator<Item = (&str, &str)> {
        self.fields.iter()
    }

    /// The body's `Content-Type`.
    pub fn content_type(&self) -> Option<&str> {
        self.field("Content-Type")
    }

    /// The head's length in the block, its empty line included.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the head is empty (never: it has a start line).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A record's payload: the HTTP head when there is one, and a reader of
/// the body (for other records, of the block) with its codings undone.
/// Reads in windows; a fault of the content comes from `read` as an
/// `InvalidData` error wrapping an [`Error`].
pub struct Payload<'a> {
    http: Option<HttpHead>,
    body: Box<dyn Read + 'a>,
}

impl Payload<'_> {
    /// The HTTP head, for HTTP records.
    pub fn http(&self) -> Option<&HttpHead> {
        self.http.as_ref()
    }
}

impl Read for Payload<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.body.read(out)
    }
}

/// An I/O error from a decoder as a record's error.
fn to_error(e: io::Error, offset: u64, gz: Option<u64>) -> Error {
    match e.get_ref().and_then(|inner| inner.downcast_ref::<Error>()) {
        Some(ours) => ours.clone(),
        None => Error::new(offset, gz, Fault::BadContentCoding(e.to_string())),
    }
}

/// Errors of the decoders named with the record.
struct Tagged<T> {
    inner: T,
    offset: u64,
    gz: Option<u64>,
}

impl<T: Read> Read for Tagged<T> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.inner.read(out) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(to_error(e, self.offset, self.gz).into_io())
                }
                ok => return ok,
            }
        }
    }
}

/// The payload of a block (see `Records::payload`).
pub(crate) fn payload<'a, B: BufRead + 'a>(
    mut block: B,
    http: bool,
    arc: bool,
    offset: u64,
    gz: Option<u64>,
) -> Result<Payload<'a>, Error> {
    let err = |e| to_error(e, offset, gz);
    if !http || block.fill_buf().map_err(err)?.is_empty() {
        return Ok(Payload { http: None, body: Box::new(block) });
    }
    // ARC keeps non-HTTP bytes under http URLs too (a failed fetch): its
    // first five bytes, taken whatever the buffer's size, tell.
    let mut first = Vec::new();
    if arc {
        read_line(&mut block, &mut first, 5).map_err(err)?;
    }
    let mut block = io::Cursor::new(first).chain(block);
    if arc && !block.get_ref().0.get_ref().starts_with(b"HTTP/") {
        return Ok(Payload { http: None, body: Box::new(block) });
    }
    let head = read_head(&mut block, offset, gz)?;
    let body = decoded(Box::new(block), &head, offset, gz)?;
    Ok(Payload {
        http: Some(head),
        body: Box::new(Tagged { inner: body, offset, gz }),
    })
}

/// Reads and parses the HTTP head at the start of `block`.
fn read_head<B: BufRead>(
    block: &mut B,
    offset: u64,
    gz: Option<u64>,
) -> Result<HttpHead, Error> {
    let bad = |fault| Error::new(offset, gz, fault);
    let mut raw = Vec::new();
    let mut line = Vec::new();
    loop {
        let room = MAX_HTTP_HEAD - raw.len();
        if room == 0 {
            return Err(bad(Fault::HeadTooLong(MAX_HTTP_HEAD)));
        }
        let complete = read_line(block, &mut line, room)
            .map_err(|e| to_error(e, offset, gz))?;
        raw.extend_from_slice(&line);
        if line.is_empty() {
            break; // the block ends in the head: a head alone
        }
        if !complete && raw.len() >= MAX_HTTP_HEAD {
            return Err(bad(Fault::HeadTooLong(MAX_HTTP_HEAD)));
        }
        let text = trim_end_cr(line.strip_suffix(b"\n").unwrap_or(&line));
        if text.is_empty() && raw.len() > line.len() {
            break;
        }
    }
    let first = raw.split(|&c| c == b'\n').next().unwrap_or(b"");
    let first = trim_end_cr(first);
    let status = start_line(first).map_err(|why| bad(Fault::BadHead(why)))?;
    let fields =
        parse_fields(&raw, false).map_err(|why| bad(Fault::BadHead(why)))?;
    Ok(HttpHead {
        start_line: String::from_utf8_lossy(first).into_owned(),
        status,
        fields,
        len: raw.len() as u64,
    })
}

/// Checks an HTTP start line: a status line (RFC 9112 §4: `HTTP-version
/// SP status-code SP [ reason-phrase ]`) gives its code; a request line
/// (§3: `method SP request-target SP HTTP-version`) none. As warcio
/// reads them: the SP before an empty reason phrase may be missing (some
/// servers write it so), and the version is any `name/version` token
/// (`HTTPX/1.1` is seen in the sample files).
fn start_line(line: &[u8]) -> Result<Option<u16>, String> {
    let is_version = |v: &[u8]| match memchr::memchr(b'/', v) {
        Some(i) => {
            i > 0
                && v[..i].iter().all(u8::is_ascii_alphabetic)
                && v.len() > i + 1
                && v[i + 1..].iter().all(|c| c.is_ascii_digit() || *c == b'.')
        }
        None => false,
    };
    let mut parts = line.splitn(3, |&c| c == b' ');
    let first = parts.next().unwrap_or(b"");
    if is_version(first) {
        let code = parts.next().unwrap_or(b"");
        if code.len() == 3 && code.iter().all(u8::is_ascii_digit) {
            let n = code
                .iter()
                .fold(0u16, |acc, c| acc * 10 + u16::from(c - b'0'));
            return Ok(Some(n));
        }
        return Err(format!("a bad status line \"{}\"", quote(line)));
    }
    let version = line.rsplit(|&c| c == b' ').next().unwrap_or(b"");
    if line.splitn(3, |&c| c == b' ').count() == 3 && is_version(version) {
        return Ok(None);
    }
    Err(format!("not an HTTP start line: \"{}\"", quote(line)))
}

/// The codings of a field's list, lowercased, in order (RFC 9110 §5.6.1
/// lists; `identity` and empty members dropped).
fn codings(value: Option<&str>) -> Vec<String> {
    value
        .unwrap_or("")
        .split(',')
        .map(|c| c.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
        .filter(|c| !c.is_empty() && c != "identity")
        .collect()
}

/// The body of `block` after `head`, decoded.
fn decoded<'a>(
    block: Box<dyn BufRead + 'a>,
    head: &HttpHead,
    offset: u64,
    gz: Option<u64>,
) -> Result<Box<dyn Read + 'a>, Error> {
    let err = |e| to_error(e, offset, gz);
    let mut transfer = codings(head.field("Transfer-Encoding"));
    let mut body = block;
    if transfer.last().map(String::as_str) == Some("chunked") {
        transfer.pop();
        if looks_chunked(body.fill_buf().map_err(err)?) {
            body = Box::new(Chunked::new(body, offset, gz));
        }
    }
    // Transfer codings other than chunked are applied before it, content
    // codings before those: undone from the last.
    let mut all = codings(head.field("Content-Encoding"));
    all.extend(transfer);
    for coding in all.iter().rev() {
        let peek = body.fill_buf().map_err(err)?;
        body = match coding.as_str() {
            // Stored already decoded (a writer that inflated the body and
            // kept the field): read as it is, as warcio does.
            "gzip" | "x-gzip" if peek.first() != Some(&0x1f) => body,
            "gzip" | "x-gzip" => {
                Box::new(Buffered::new(MultiGzDecoder::new(body)))
            }
            "deflate" if peek.is_empty() => body,
            "deflate" if zlib_header(peek) => {
                Box::new(Buffered::new(ZlibDecoder::new(body)))
            }
            // Raw deflate (RFC 1951), as some servers send it and as
            // browsers accept it.
            "deflate" => Box::new(Buffered::new(DeflateDecoder::new(body))),
            other => {
                return Err(Error::new(
                    offset,
                    gz,
                    Fault::UnsupportedCoding(other.to_string()),
                ));
            }
        };
    }
    Ok(Box::new(body))
}

/// Whether `b` starts with a zlib header (RFC 1950 §2.2: CM 8, CINFO at
/// most 7, the check bits); one byte alone is judged by CM and CINFO.
fn zlib_header(b: &[u8]) -> bool {
    match b {
        [cmf, flg, ..] => {
            cmf & 0x0f == 8
                && cmf >> 4 <= 7
                && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0
        }
        [cmf] => cmf & 0x0f == 8 && cmf >> 4 <= 7,
        [] => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_lines() {
        assert_eq!(start_line(b"HTTP/1.1 200 OK"), Ok(Some(200)));
        assert_eq!(start_line(b"HTTP/1.0 302 "), Ok(Some(302)));
        assert_eq!(start_line(b"HTTP/1.0 302"), Ok(Some(302)));
        assert_eq!(start_line(b"GET /x?y HTTP/1.1"), Ok(None));
        assert!(start_line(b"HTTP/1.1 2000 OK").is_err());
        assert!(start_line(b"<html>").is_err());
        assert_eq!(start_line(b"HTTPX/1.1 200 OK"), Ok(Some(200)));
        assert!(start_line(b"hello world again").is_err());
    }

    #[test]
    fn coding_lists() {
        assert_eq!(
            codings(Some("gzip, identity,  Deflate")),
            ["gzip", "deflate"]
        );
        assert!(codings(None).is_empty());
    }

    #[test]
    fn zlib_headers() {
        assert!(zlib_header(&[0x78, 0x9c]));
        assert!(zlib_header(&[0x78, 0x01]));
        assert!(!zlib_header(b"<h"));
    }
}
