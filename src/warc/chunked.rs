//! `Transfer-Encoding: chunked` undone (RFC 9112 §7.1), over a `BufRead`,
//! without copying the data:
//!
//! ```text
//! chunked-body = *chunk last-chunk trailer-section CRLF
//! chunk        = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
//! chunk-size   = 1*HEXDIG
//! last-chunk   = 1*("0") [ chunk-ext ] CRLF
//! ```
//!
//! A chunk-size line that is not hex is an error (`Fault::BadChunk`); a
//! body that ends early (crawlers cut long responses, `WARC-Truncated`)
//! just ends. LF alone is taken for CRLF (RFC 9112 §2.2 allows a
//! recipient to).

use std::io::{self, BufRead, Read};

use super::error::{quote, Error, Fault};

/// The longest chunk-size line (with its extensions) or trailer line.
const MAX_LINE: usize = 4096;

enum State {
    /// Before a chunk-size line.
    Size,
    /// Inside chunk data: bytes left.
    Data(u64),
    /// After chunk data: its CRLF.
    DataEnd,
    /// After the last chunk (trailer fields, then the end).
    Done,
}

/// The body of a chunked message.
pub(crate) struct Chunked<B> {
    inner: B,
    state: State,
    line: Vec<u8>,
    /// Where the record is, for errors.
    offset: u64,
    gz: Option<u64>,
}

impl<B: BufRead> Chunked<B> {
    pub(crate) fn new(inner: B, offset: u64, gz: Option<u64>) -> Chunked<B> {
        Chunked { inner, state: State::Size, line: Vec::new(), offset, gz }
    }

    fn fault(&self, why: String) -> io::Error {
        Error::new(self.offset, self.gz, Fault::BadChunk(why)).into_io()
    }

    /// Moves the state on until there is data to give, or the end.
    fn advance(&mut self) -> io::Result<()> {
        loop {
            match self.state {
                State::Data(0) => self.state = State::DataEnd,
                State::Data(_) | State::Done => return Ok(()),
                State::DataEnd => {
                    let complete =
                        read_line(&mut self.inner, &mut self.line, MAX_LINE)?;
                    if self.line.is_empty() {
                        self.state = State::Done; // the body ends here
                        return Ok(());
                    }
                    let text = trim_line(&self.line);
                    if !complete || !text.is_empty() {
                        let why = format!(
                            "chunk data not followed by CRLF: \"{}\"",
                            quote(&self.line)
                        );
                        self.state = State::Done;
                        return Err(self.fault(why));
                    }
                    self.state = State::Size;
                }
                State::Size => {
                    let complete =
                        read_line(&mut self.inner, &mut self.line, MAX_LINE)?;
                    if self.line.is_empty() {
                        self.state = State::Done;
                        return Ok(());
                    }
                    let size =
                        if complete { chunk_size(&self.line) } else { None };
                    let Some(size) = size else {
                        let why = format!(
                            "bad chunk size \"{}\"",
                            quote(trim_line(&self.line))
                        );
                        self.state = State::Done;
                        return Err(self.fault(why));
                    };
                    if size == 0 {
                        // The trailer section (§7.1.2): fields up to an
                        // empty line, read and dropped.
                        loop {
                            read_line(
                                &mut self.inner,
                                &mut self.line,
                                MAX_LINE,
                            )?;
                            if trim_line(&self.line).is_empty() {
                                break;
                            }
                        }
                        self.state = State::Done;
                        return Ok(());
                    }
                    self.state = State::Data(size);
                }
            }
        }
    }
}

/// The chunk size of a chunk-size line: hex digits, then optional
/// whitespace (BWS) and `;` extensions.
fn chunk_size(line: &[u8]) -> Option<u64> {
    let line = trim_line(line);
    let digits = line.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    if digits == 0 || digits > 16 {
        return None;
    }
    let rest = &line[digits..];
    let rest =
        &rest[rest.iter().take_while(|&&c| c == b' ' || c == b'\t').count()..];
    if !rest.is_empty() && rest[0] != b';' {
        return None;
    }
    let text = std::str::from_utf8(&line[..digits]).ok()?;
    u64::from_str_radix(text, 16).ok()
}

/// Whether `b` begins like a chunked body (a hex digit): a body stored
/// already dechunked under a `chunked` header is read as it is, as warcio
/// reads it.
pub(crate) fn looks_chunked(b: &[u8]) -> bool {
    b.first().is_some_and(u8::is_ascii_hexdigit)
}

/// `line` without its line end and surrounding spaces.
fn trim_line(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |e| e + 1);
    let start = line[..end]
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(end);
    &line[start..end]
}

/// Reads a line (to `\n`, included) into `out`, at most `max` bytes of
/// it: `true` when the newline came. Empty `out` at the end of input.
pub(crate) fn read_line<B: BufRead>(
    rdr: &mut B,
    out: &mut Vec<u8>,
    max: usize,
) -> io::Result<bool> {
    out.clear();
    read_line_append(rdr, out, max)
}

/// [`read_line`] appending to `out`: at most `max` bytes of the line
/// after what `out` holds.
pub(crate) fn read_line_append<B: BufRead>(
    rdr: &mut B,
    out: &mut Vec<u8>,
    max: usize,
) -> io::Result<bool> {
    let start = out.len();
    loop {
        let b = rdr.fill_buf()?;
        if b.is_empty() {
            return Ok(false);
        }
        let look = &b[..b.len().min(max - (out.len() - start))];
        if let Some(i) = memchr::memchr(b'\n', look) {
            out.extend_from_slice(&look[..=i]);
            rdr.consume(i + 1);
            return Ok(true);
        }
        let n = look.len();
        out.extend_from_slice(look);
        rdr.consume(n);
        if out.len() - start >= max {
            return Ok(false);
        }
    }
}

impl<B: BufRead> BufRead for Chunked<B> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.advance()?;
        let State::Data(left) = self.state else { return Ok(&[]) };
        let b = self.inner.fill_buf()?;
        let n = (b.len() as u64).min(left) as usize;
        Ok(&b[..n])
    }

    fn consume(&mut self, amt: usize) {
        if let State::Data(left) = &mut self.state {
            let n = (amt as u64).min(*left);
            *left -= n;
            self.inner.consume(n as usize);
        }
    }
}

impl<B: BufRead> Read for Chunked<B> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        if avail.is_empty() {
            // An empty window mid-chunk is the end of the input.
            if let State::Data(_) = self.state {
                self.state = State::Done;
            }
            return Ok(0);
        }
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dechunk(body: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        Chunked::new(body, 0, None).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn chunks() {
        let body = b"5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-T: 1\r\n\r\n";
        assert_eq!(dechunk(body).unwrap(), b"hello world");
        assert_eq!(dechunk(b"3\nabc\n0\n\n").unwrap(), b"abc");
        // Cut short: what there is.
        assert_eq!(dechunk(b"a\r\nabc").unwrap(), b"abc");
    }

    #[test]
    fn bad_size() {
        let err = dechunk(b"3\r\nabc\r\nzz\r\nmore").unwrap_err();
        let inner =
            err.get_ref().and_then(|e| e.downcast_ref::<Error>()).unwrap();
        assert!(
            matches!(inner.fault(), Fault::BadChunk(why) if why.contains("zz"))
        );
        assert!(dechunk(b"3\r\nabcX\r\n0\r\n\r\n").is_err());
    }
}
