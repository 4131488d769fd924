//! The error of a web-archive record: where (the record's offset, the
//! gzip member's) and what.

use std::fmt;

/// What went wrong in a record. Each message is lowercase and quotes the
/// value it did not accept.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// The input ended inside a record's block: `got` of the `expected`
    /// octets (its `Content-Length`, ARC's archive-length) were there.
    Truncated {
        /// The block's declared length.
        expected: u64,
        /// The octets there were.
        got: u64,
    },
    /// A record that began at a gzip member's start whose block runs past
    /// that member's end: `got` of the `expected` octets were in it (WARC
    /// 1.1 Annex D: one record a member; warcio reads so too). The next
    /// member is read as the next record.
    PastMember {
        /// The block's declared length.
        expected: u64,
        /// The octets its member held.
        got: u64,
    },
    /// The input ended inside a record's head.
    TruncatedHead,
    /// A block was not followed by its end (CRLF CRLF for WARC, a newline
    /// for ARC): its length is likely wrong. The bytes quoted are the first
    /// ones found.
    NoRecordEnd(String),
    /// Bytes between records that start no record; the quoted ones are
    /// their first.
    Garbage(String),
    /// A record head that does not parse: which part, and why.
    BadHead(String),
    /// A head longer than the bound (WARC head 256 KiB, HTTP head 64 KiB).
    HeadTooLong(usize),
    /// A gzip member that does not inflate (RFC 1952): flate2's words.
    BadGzip(String),
    /// Bytes after a gzip member that start no member.
    GzipGarbage,
    /// A chunk-size line of `Transfer-Encoding: chunked` (RFC 9112 §7.1)
    /// that is not hex, or the chunk data's CRLF missing.
    BadChunk(String),
    /// A content or transfer coding this reader does not undo (`br`,
    /// `compress`, …), named as the header gives it.
    UnsupportedCoding(String),
    /// A `Content-Encoding` body that does not inflate.
    BadContentCoding(String),
    /// An error of the underlying reader.
    Io(String),
}

/// A fault of a record, with the record's offset in the (uncompressed)
/// stream and, for gzip input, the offset of the member holding it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    offset: u64,
    gz_offset: Option<u64>,
    fault: Fault,
}

impl Error {
    pub(crate) fn new(
        offset: u64,
        gz_offset: Option<u64>,
        fault: Fault,
    ) -> Error {
        Error { offset, gz_offset, fault }
    }

    /// The offset of the record (or of the bytes) at fault in the
    /// uncompressed stream.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The offset of the gzip member holding them in the compressed file,
    /// for gzip input.
    pub fn gz_offset(&self) -> Option<u64> {
        self.gz_offset
    }

    /// What went wrong.
    pub fn fault(&self) -> &Fault {
        &self.fault
    }

    /// This error as an `InvalidData` I/O error (the payload reader's).
    pub(crate) fn into_io(self) -> std::io::Error {
        std::io::Error::new(std::io::ErrorKind::InvalidData, self)
    }
}

/// Up to 32 bytes of `bytes`, quoted with Rust's escapes.
pub(crate) fn quote(bytes: &[u8]) -> String {
    let cut = &bytes[..bytes.len().min(32)];
    let mut text = String::from_utf8_lossy(cut).escape_debug().to_string();
    if cut.len() < bytes.len() {
        text.push('…');
    }
    text
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Truncated { expected, got } => write!(
                f,
                "truncated record: the input ends after {got} of its \
                 {expected} octets"
            ),
            Fault::PastMember { expected, got } => write!(
                f,
                "record runs past the end of its gzip member: the member \
                 ends after {got} of its {expected} octets"
            ),
            Fault::TruncatedHead => f.write_str("truncated record head"),
            Fault::NoRecordEnd(seen) => write!(
                f,
                "record block not followed by its end (found \"{seen}\"): \
                 its length is likely wrong"
            ),
            Fault::Garbage(seen) => {
                write!(f, "garbage between records: \"{seen}\"")
            }
            Fault::BadHead(why) => write!(f, "bad record head: {why}"),
            Fault::HeadTooLong(max) => {
                write!(f, "head longer than {max} octets")
            }
            Fault::BadGzip(why) => write!(f, "damaged gzip member: {why}"),
            Fault::GzipGarbage => {
                f.write_str("bytes after a gzip member that start no member")
            }
            Fault::BadChunk(why) => write!(f, "bad chunk: {why}"),
            Fault::UnsupportedCoding(name) => {
                write!(f, "unsupported coding \"{name}\"")
            }
            Fault::BadContentCoding(why) => {
                write!(f, "content coding does not decode: {why}")
            }
            Fault::Io(why) => write!(f, "read error: {why}"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at offset {}", self.offset)?;
        if let Some(gz) = self.gz_offset {
            write!(f, " (gzip member at {gz})")?;
        }
        write!(f, ": {}", self.fault)
    }
}

impl std::error::Error for Error {}
