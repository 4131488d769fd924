//! Web archives: the records of WARC 1.0/1.1 and ARC v1 files, read in
//! bounded memory (issue 30).
//!
//! [`Records`] reads a file (plain, or gzip: one member per record, or one
//! member for the whole file) record by record. Each record's [`Head`]
//! gives its offset in the uncompressed stream, the offset of the gzip
//! member that holds it (as CDX indexes give it, so a reader can seek
//! straight to the record), its type, target URI, date, record id and
//! content type. Its block is then read through [`Records::block`] (the
//! bytes as stored) or [`Records::payload`] (the HTTP head of a
//! `response`/`request` parsed, the body's transfer and content codings
//! undone); either is a window over the stream, never the whole record in
//! memory. Whatever of a record is left unread is skipped by the next
//! [`Records::next_record`].
//!
//! # What each part follows
//! - WARC 1.1 (ISO 28500:2017, the IIPC text) §4: a record is a version
//!   line `WARC/1.1`, named fields in the style of RFC 2616 §4.2 (names
//!   compared case-insensitively, a line that starts with a space or tab
//!   continues the field before it), an empty line, then a block of exactly
//!   `Content-Length` octets (§5.4) and two CRLFs. WARC 1.0 differs only in
//!   its version line. §5.4 `WARC-Date` is a W3C ISO 8601 date
//!   (`2014-01-03T03:03:21Z`, 1.1 allows fractions of a second); it is kept
//!   as written and given again in RFC 3339 form.
//! - WARC 1.1 Annex D (`.warc.gz`): each record compressed as one gzip
//!   member (RFC 1952 §2.2: members simply follow one another); files
//!   gzipped whole are read too, every record then carrying member 0. A
//!   record that begins at a member's start ends with that member at the
//!   latest (as warcio reads it), so a wrong `Content-Length` cannot
//!   swallow the records of the members after it, and a read that starts
//!   at a member gives the records a whole read gives from there.
//! - ARC v1 (the Internet Archive's ARC file format): a `filedesc://`
//!   version block, then records whose header line is `URL IP-address
//!   Archive-date Content-type Archive-length`, that many octets, and a
//!   newline. The date is 14 digits, `yyyymmddhhmmss`, in UTC.
//! - RFC 9112 §2–§5 for the HTTP head inside `application/http` blocks (a
//!   status line without its reason phrase is accepted, RFC 9112 §4:
//!   `reason-phrase` may be empty), §7.1 for `Transfer-Encoding: chunked`;
//!   RFC 9110 §8.4.1 for `Content-Encoding` (`gzip`, `x-gzip`, `deflate`:
//!   zlib-wrapped or raw, as browsers accept both).
//!
//! # Faults
//! A fault of the container (a truncated record, a `Content-Length` past
//! the end, garbage between records, a damaged gzip member, a head that
//! does not parse) comes from [`Records::next_record`] as an [`Error`]
//! naming the record's offset (and member's) and what is wrong; the reader
//! then goes on at the next record header it can find (a line `WARC/1.`,
//! an ARC header line, after a damaged member the next gzip magic). What
//! was read before the fault has been handed out already. A fault of the
//! content (a bad chunk size, corrupt gzip content) comes from the
//! payload's `read` as an [`std::io::Error`] of kind `InvalidData` that
//! wraps an [`Error`]; an unsupported content coding (`br`, …) from
//! [`Records::payload`]. Nothing here panics on input.
//!
//! # Bounds
//! Memory does not grow with a record: a block is read through the
//! reader's buffer (gzip: a 64 KiB window of inflated bytes), a WARC head
//! is read up to [`MAX_HEAD`] (256 KiB), an HTTP head up to
//! [`MAX_HTTP_HEAD`] (64 KiB), a chunk-size line up to 4 KiB, a line
//! looked at in a resync up to 64 KiB (the rest of a longer one passed
//! over). A head past its bound is an error ([`Fault::HeadTooLong`]): a
//! WARC head's record is passed over by a resync, an HTTP head's record
//! by the next [`Records::next_record`], its payload unread.
//!
//! # Cut points
//! [`gzip_members`] lists a `.warc.gz`'s members exactly, inflating it
//! whole; [`find_member`] finds the next member that begins a record in
//! a window of the compressed bytes, inflating one line;
//! [`Records::with_start`] reads from such a member on, its offsets those
//! of the file.
//!
//! # Example
//! ```
//! use std::io::Read;
//! use urlgrep::warc::{Format, RecordType, Records};
//!
//! let warc = b"WARC/1.1\r\nWARC-Type: response\r\n\
//!     WARC-Target-URI: http://example.com/\r\n\
//!     WARC-Date: 2026-11-27T11:00:00Z\r\n\
//!     Content-Type: application/http; msgtype=response\r\n\
//!     Content-Length: 60\r\n\r\n\
//!     HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n\
//!     <a href=x>hi</a>\r\n\r\n";
//! let mut records = Records::new(&warc[..]);
//! let head = records.next_record().unwrap()?;
//! assert_eq!(records.format(), Some(Format::Warc));
//! assert_eq!(head.record_type(), &RecordType::Response);
//! assert_eq!(head.target_uri(), Some("http://example.com/"));
//! assert_eq!(head.date_rfc3339().as_deref(), Some("2026-11-27T11:00:00Z"));
//! let mut payload = records.payload()?;
//! assert_eq!(payload.http().and_then(|h| h.status()), Some(200));
//! let mut body = String::new();
//! payload.read_to_string(&mut body).unwrap();
//! assert_eq!(body, "<a href=x>hi</a>");
//! drop(payload);
//! assert!(records.next_record().is_none());
//! # Ok::<(), urlgrep::warc::Error>(())
//! ```
//!
//! This module sits beside `mail`, below the driver: it imports only std,
//! memchr and flate2.

mod chunked;
mod date;
mod error;
mod gz;
mod head;
mod http;
mod records;

pub use error::{Error, Fault};
pub use gz::{find_member, gzip_members, GzMembers, Member};
pub use head::MAX_HEAD;
pub use head::{Head, RecordType};
pub use http::{HttpHead, Payload, MAX_HTTP_HEAD};
pub use records::{Block, Records};

/// The two archive formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// WARC 1.0 or 1.1 (ISO 28500).
    Warc,
    /// The Internet Archive's ARC, version 1.
    Arc,
}

/// The format whose record begins `head`: `WARC/1.0` or `WARC/1.1` (any
/// `WARC/1.` and a digit), or ARC's `filedesc://` version block. `None`
/// for anything else, gzip included (see [`sniff_gz`]).
pub fn sniff(head: &[u8]) -> Option<Format> {
    if head.len() > 7
        && head.starts_with(b"WARC/1.")
        && head[7].is_ascii_digit()
    {
        Some(Format::Warc)
    } else if head.starts_with(b"filedesc://") {
        Some(Format::Arc)
    } else {
        None
    }
}

/// The format of gzip-compressed input whose first member inflates to a
/// record that [`sniff`] knows. Inflates at most the first few hundred
/// bytes of `head`; `None` when `head` is not gzip, is damaged, or is too
/// short to tell.
pub fn sniff_gz(head: &[u8]) -> Option<Format> {
    use std::io::Read;
    if !head.starts_with(&[0x1f, 0x8b]) {
        return None;
    }
    let mut dec = flate2::bufread::GzDecoder::new(head);
    let mut out = [0u8; 16];
    let mut got = 0;
    while got < out.len() {
        match dec.read(&mut out[got..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
    }
    sniff(&out[..got])
}

#[cfg(test)]
mod tests;
