//! The HTTP message inside a `response`/`request` block (WARC 1.1 §6.3,
//! `application/http`): its head parsed (RFC 9112 §2–§5, bounded), its
//! body given with the transfer coding (RFC 9112 §7.1, chunked) and the
//! content codings (RFC 9110 §8.4.1: gzip, x-gzip, deflate) undone.

use std::cell::RefCell;
use std::io::{self, BufRead, Read};

use flate2::bufread::{DeflateDecoder, GzDecoder, ZlibDecoder};

use super::chunked::{looks_chunked, read_line, read_line_append, Chunked};
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

thread_local! {
    /// Decoders of payloads read before, reset for the next ones: a new
    /// flate2 decoder sets up (and zeroes) its inflate state, 16,000
    /// instructions, for every coded body (2% of the instructions of
    /// `-j1 -c` on a `.warc.gz` whose pages are 40% gzip-coded).
    static DECODERS: RefCell<Vec<Decoder>> = const { RefCell::new(Vec::new()) };
}

/// The compressed bytes of a body handed to a kept decoder: a decoder
/// kept from one payload to the next cannot borrow the payload's reader,
/// so [`Inflate`] copies each piece the body gives into the decoder's
/// feed (the pieces the decoder would have read from the body itself,
/// in the same sizes: how much a damaged stream inflates before its
/// error depends on them). An empty feed before the body's end is
/// `WouldBlock`, on which flate2's bufread decoders stop with their state
/// kept, to go on at the next read (they are made for non-blocking
/// readers); the feed is then refilled.
#[derive(Default)]
struct Feed {
    buf: Vec<u8>,
    pos: usize,
    /// The body has ended.
    end: bool,
}

impl Feed {
    /// Empty, for a new body.
    fn clear(&mut self) {
        self.buf.clear();
        self.pos = 0;
        self.end = false;
    }
}

impl Read for Feed {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Feed {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.buf.len() && !self.end {
            return Err(io::ErrorKind::WouldBlock.into());
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, amt: usize) {
        self.pos = (self.pos + amt).min(self.buf.len());
    }
}

/// A content coding's decoder over a [`Feed`].
enum Decoder {
    /// gzip (RFC 1952), a member at a time: [`Inflate`] goes on to the
    /// next member as `MultiGzDecoder` does.
    Gzip(Box<GzDecoder<Feed>>),
    /// deflate in its zlib wrapper (RFC 1950).
    Zlib(Box<ZlibDecoder<Feed>>),
    /// Raw deflate (RFC 1951).
    Raw(Box<DeflateDecoder<Feed>>),
}

/// The codings [`Decoder`] undoes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Coding {
    Gzip,
    Zlib,
    Raw,
}

impl Decoder {
    /// A decoder of `coding`, kept from a payload before (reset) or new.
    fn take(coding: Coding) -> Decoder {
        let kept = DECODERS.with(|d| {
            let mut d = d.borrow_mut();
            let at = d.iter().position(|k| k.coding() == coding)?;
            Some(d.swap_remove(at))
        });
        match kept {
            Some(mut dec) => {
                dec.reset();
                dec
            }
            None => match coding {
                Coding::Gzip => {
                    Decoder::Gzip(Box::new(GzDecoder::new(Feed::default())))
                }
                Coding::Zlib => {
                    Decoder::Zlib(Box::new(ZlibDecoder::new(Feed::default())))
                }
                Coding::Raw => Decoder::Raw(Box::new(DeflateDecoder::new(
                    Feed::default(),
                ))),
            },
        }
    }

    fn coding(&self) -> Coding {
        match self {
            Decoder::Gzip(_) => Coding::Gzip,
            Decoder::Zlib(_) => Coding::Zlib,
            Decoder::Raw(_) => Coding::Raw,
        }
    }

    fn feed(&mut self) -> &mut Feed {
        match self {
            Decoder::Gzip(d) => d.get_mut(),
            Decoder::Zlib(d) => d.get_mut(),
            Decoder::Raw(d) => d.get_mut(),
        }
    }

    /// Its state reset for a new stream, its feed emptied.
    fn reset(&mut self) {
        let mut feed = std::mem::take(self.feed());
        feed.clear();
        self.restart(feed);
    }

    /// Its state reset for a new stream read from `feed`.
    fn restart(&mut self, feed: Feed) {
        match self {
            Decoder::Gzip(d) => d.reset(feed),
            Decoder::Zlib(d) => d.reset(feed),
            Decoder::Raw(d) => d.reset(feed),
        };
    }

    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self {
            Decoder::Gzip(d) => d.read(out),
            Decoder::Zlib(d) => d.read(out),
            Decoder::Raw(d) => d.read(out),
        }
    }
}

/// A body inflated by a kept [`Decoder`] (given back at the end), as
/// flate2's bufread decoders read it: gzip as `MultiGzDecoder` (member
/// after member to the body's end), zlib and raw deflate as
/// `ZlibDecoder` and `DeflateDecoder`.
struct Inflate<'a> {
    body: Box<dyn BufRead + 'a>,
    dec: Option<Decoder>,
    /// The decoder gave an error: a gzip stream then reads as ended, as
    /// `MultiGzDecoder` reads after an error (no next member).
    failed: bool,
}

impl<'a> Inflate<'a> {
    fn new(body: Box<dyn BufRead + 'a>, coding: Coding) -> Inflate<'a> {
        Inflate { body, dec: Some(Decoder::take(coding)), failed: false }
    }
}

/// The body's next piece into `feed` (emptied first): nothing left
/// there marks the end.
fn refill(body: &mut dyn BufRead, feed: &mut Feed) -> io::Result<()> {
    let piece = body.fill_buf()?;
    feed.buf.clear();
    feed.pos = 0;
    if piece.is_empty() {
        feed.end = true;
    } else {
        feed.buf.extend_from_slice(piece);
        let n = piece.len();
        body.consume(n);
    }
    Ok(())
}

impl Read for Inflate<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let Some(dec) = self.dec.as_mut() else { return Ok(0) };
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            match dec.read(out) {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    refill(&mut *self.body, dec.feed())?;
                }
                // A gzip member's end: another follows unless the body
                // ends here (RFC 1952 §2.2; `MultiGzDecoder`'s rule).
                Ok(0) if dec.coding() == Coding::Gzip && !self.failed => {
                    loop {
                        let feed = dec.feed();
                        if feed.pos < feed.buf.len() {
                            let feed = std::mem::take(feed);
                            dec.restart(feed);
                            break;
                        }
                        if feed.end {
                            return Ok(0);
                        }
                        refill(&mut *self.body, feed)?;
                    }
                }
                Err(e) => {
                    self.failed = true;
                    return Err(e);
                }
                got => return got,
            }
        }
    }
}

impl Drop for Inflate<'_> {
    fn drop(&mut self) {
        if let Some(dec) = self.dec.take() {
            DECODERS.with(|d| {
                let mut d = d.borrow_mut();
                if d.len() < WINDOWS_KEPT {
                    d.push(dec);
                }
            });
        }
    }
}

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
    // The lines are read into `raw` itself, which is made big enough for
    // most heads at once (grown line by line, a head's buffer was moved
    // 7 times: 0.9% of the instructions of `-j1 -c` on a `.warc.gz`).
    let mut raw = Vec::with_capacity(HEAD_CAPACITY);
    loop {
        let room = MAX_HTTP_HEAD - raw.len();
        if room == 0 {
            return Err(bad(Fault::HeadTooLong(MAX_HTTP_HEAD)));
        }
        let start = raw.len();
        let complete = read_line_append(block, &mut raw, room)
            .map_err(|e| to_error(e, offset, gz))?;
        let line = &raw[start..];
        if line.is_empty() {
            break; // the block ends in the head: a head alone
        }
        if !complete && raw.len() >= MAX_HTTP_HEAD {
            return Err(bad(Fault::HeadTooLong(MAX_HTTP_HEAD)));
        }
        let text = trim_end_cr(line.strip_suffix(b"\n").unwrap_or(line));
        if text.is_empty() && start > 0 {
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

/// The room an HTTP head is first read into.
const HEAD_CAPACITY: usize = 2048;

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
                Box::new(Buffered::new(Inflate::new(body, Coding::Gzip)))
            }
            "deflate" if peek.is_empty() => body,
            "deflate" if zlib_header(peek) => {
                Box::new(Buffered::new(Inflate::new(body, Coding::Zlib)))
            }
            // Raw deflate (RFC 1951), as some servers send it and as
            // browsers accept it.
            "deflate" => {
                Box::new(Buffered::new(Inflate::new(body, Coding::Raw)))
            }
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
    use flate2::bufread::MultiGzDecoder;
    use flate2::write::{DeflateEncoder, ZlibEncoder};
    use flate2::{Compression, GzBuilder};
    use std::io::{BufReader, Write};

    /// What a reader gives in reads of 1000 bytes: the bytes, and the
    /// error that ended it (kind and text).
    fn read_all<R: Read>(mut r: R) -> (Vec<u8>, Option<String>) {
        let mut got = Vec::new();
        let mut buf = [0u8; 1000];
        loop {
            match r.read(&mut buf) {
                Ok(0) => return (got, None),
                Ok(n) => got.extend_from_slice(&buf[..n]),
                Err(e) => return (got, Some(format!("{:?}: {e}", e.kind()))),
            }
        }
    }

    /// Text that compresses into several deflate blocks.
    fn text() -> Vec<u8> {
        (0..1500u32)
            .map(|i| format!("line {i} http://h{}.example/p{i}\n", i % 97))
            .collect::<String>()
            .into_bytes()
    }

    fn gzip(data: &[u8], name: &[u8]) -> Vec<u8> {
        let mut e = GzBuilder::new()
            .filename(name)
            .comment(&b"a comment"[..])
            .write(Vec::new(), Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// The streams of each coding: whole, two gzip members, corrupt in
    /// the middle, cut short, with bytes after the end.
    fn streams() -> Vec<(Coding, Vec<u8>)> {
        let data = text();
        let mut zlib = ZlibEncoder::new(Vec::new(), Compression::default());
        zlib.write_all(&data).unwrap();
        let zlib = zlib.finish().unwrap();
        let mut raw = DeflateEncoder::new(Vec::new(), Compression::fast());
        raw.write_all(&data).unwrap();
        let raw = raw.finish().unwrap();
        let gz = gzip(&data, b"page.html");
        let mut two = gzip(&data[..5000], b"a");
        two.extend_from_slice(&gzip(&data[5000..], b"b"));
        let mut all = Vec::new();
        for (coding, whole) in [
            (Coding::Gzip, gz),
            (Coding::Gzip, two),
            (Coding::Zlib, zlib),
            (Coding::Raw, raw),
        ] {
            let mut corrupt = whole.clone();
            let mid = corrupt.len() / 2;
            corrupt[mid] ^= 0x55;
            let cut = whole[..whole.len() * 2 / 3].to_vec();
            let mut after = whole.clone();
            after.extend_from_slice(b"trailing bytes");
            all.extend([whole, corrupt, cut, after].map(|s| (coding, s)));
        }
        all
    }

    #[test]
    fn kept_decoders_read_as_flate2_decoders() {
        // Twice: the second round reads with the decoders the first kept
        // (some of them after an error).
        for round in 0..2 {
            for (i, (coding, stream)) in streams().into_iter().enumerate() {
                for piece in [1, 7, 4096, 1 << 20] {
                    let body = || BufReader::with_capacity(piece, &stream[..]);
                    let want = match coding {
                        Coding::Gzip => read_all(MultiGzDecoder::new(body())),
                        Coding::Zlib => read_all(ZlibDecoder::new(body())),
                        Coding::Raw => read_all(DeflateDecoder::new(body())),
                    };
                    let got = read_all(Inflate::new(Box::new(body()), coding));
                    assert_eq!(
                        got.1, want.1,
                        "round {round}, stream {i}, {piece}"
                    );
                    assert!(
                        got.0 == want.0,
                        "round {round}, stream {i}, {piece}"
                    );
                }
            }
        }
        assert_eq!(
            read_all(Inflate::new(Box::new(&b""[..]), Coding::Gzip)).0,
            b""
        );
    }

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
