//! How an input is searched, decided once per input from its first bytes.

use super::config::{Driver, MailMode};
use crate::mail;
use std::io::{self, Read};

impl Driver {
    /// How an input that begins with `head` is searched: as mail of the
    /// format returned, or raw (`None`).
    pub(super) fn mail_format(&self, head: &[u8]) -> Option<mail::Format> {
        let head = head.get(..SNIFF_LEN).unwrap_or(head);
        match (self.mode, mail::Format::sniff(head)) {
            (MailMode::Off, _) => None,
            (MailMode::On, mail::Format::Unknown) => {
                Some(mail::Format::Message)
            }
            (MailMode::Auto, mail::Format::Unknown) => None,
            (_, f) => Some(f),
        }
    }

    /// Whether the first bytes of an input are needed to decide how to
    /// search it.
    pub(super) fn sniffs(&self) -> bool {
        self.mode != MailMode::Off || self.qp_repair
    }
}

/// How many first bytes of an input decide whether it is mail.
pub(super) const SNIFF_LEN: usize = 8 * 1024;

/// Reads the head of a stream to sniff: up to [`SNIFF_LEN`] bytes, but no
/// more than it takes to decide, so that a slow stream (`tail -f`) is not
/// held up: the sniff is decided once it sees mail, or once the lines
/// read end what could be a header block.
pub(super) fn read_head<R: Read>(
    rdr: &mut R,
    head: &mut Vec<u8>,
) -> io::Result<()> {
    let mut chunk = [0u8; 4096];
    while head.len() < SNIFF_LEN
        && !(memchr::memchr(b'\n', head).is_some()
            && mail::Format::sniff(head) != mail::Format::Unknown)
        && !header_ended(head)
    {
        let want = (SNIFF_LEN - head.len()).min(chunk.len());
        let dst = chunk.get_mut(..want).unwrap_or_default();
        match rdr.read(dst) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(dst.get(..n).unwrap_or_default()),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Whether the complete lines of `head` end the header block it may
/// begin with: an empty line, or a line that is neither a field
/// (`Name: value`, but not `http://…`) nor a continuation.
pub(super) fn header_ended(head: &[u8]) -> bool {
    let mut rest = head;
    while let Some(i) = memchr::memchr(b'\n', rest) {
        let line = rest.get(..i).unwrap_or_default();
        rest = rest.get(i + 1..).unwrap_or_default();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
            continue;
        }
        let field = match memchr::memchr(b':', line) {
            Some(k) => {
                let name = line.get(..k).unwrap_or_default();
                let value = line.get(k + 1..).unwrap_or_default();
                !name.is_empty()
                    && name.iter().all(|&b| b.is_ascii_graphic())
                    && !value.starts_with(b"//")
            }
            None => false,
        };
        if !field {
            return true;
        }
    }
    false
}
