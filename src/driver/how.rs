//! How an input is searched, decided once per input from its first bytes.

use super::config::{Driver, MailMode};
use crate::input::Input;
use crate::mail;
use crate::search::buffer::read_retry;
use std::io::{self, Read};

/// How one input is searched, decided once from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum How {
    /// A raw scan, rejected candidates included.
    Raw,
    /// As mail of this format.
    Mail(mail::Format),
    /// Raw quoted-printable repaired (`--qp-repair` on text that is not
    /// mail); a stream is read in windows (`mail::repair_reader`).
    Repair,
    /// Not at all: a binary file found in a folder walk
    /// ([`DriverBuilder::skip_binary`](super::DriverBuilder::skip_binary)),
    /// reported neither begun nor ended.
    Skip,
}

impl Driver {
    /// Whether the first bytes of `input` are needed to decide how to
    /// search it: when they are not, it is [`How::Raw`].
    pub(super) fn sniffs(&self, input: &Input) -> bool {
        self.mode != MailMode::Off || self.qp_repair || self.skips(input)
    }

    /// Whether `input` is skipped when its first block is binary: found in
    /// a walk, with skipping on.
    pub(super) fn skips(&self, input: &Input) -> bool {
        self.skip_binary && input.walked
    }

    /// How `input`, whose first bytes (after decompression) are `head`,
    /// is searched. Binary is a NUL byte in the first [`SNIFF_LEN`] bytes,
    /// as grep and ripgrep decide, unless the bytes read as mail (a mail
    /// spool may hold a stray NUL).
    pub(super) fn how(&self, input: &Input, head: &[u8]) -> How {
        let head = head.get(..SNIFF_LEN).unwrap_or(head);
        let skips = self.skips(input);
        let nul = || skips && memchr::memchr(0, head).is_some();
        let unknown = || mail::Format::sniff(head) == mail::Format::Unknown;
        if self.mode == MailMode::Off && !self.qp_repair {
            return if nul() && unknown() { How::Skip } else { How::Raw };
        }
        // Mail searches sniff first: a NUL matters only in what does not
        // read as mail, and most files of a mail folder do (the search
        // for a NUL in each file's first 8 KiB was a fifth of the
        // driver's work on the SpamAssassin folder).
        let sniffed = mail::Format::sniff(head);
        if sniffed == mail::Format::Unknown && nul() {
            return How::Skip;
        }
        // Mail whose lines end in a bare CR (old Mac mail) is not framed:
        // read as mail, its whole head would be one `From ` line and its
        // URLs lost. It is searched raw, as `--mail auto` finds it.
        if cr_only(head) {
            return if self.qp_repair { How::Repair } else { How::Raw };
        }
        let format = match (self.mode, sniffed) {
            (MailMode::Off, _) => None,
            (MailMode::On, mail::Format::Unknown) => {
                Some(mail::Format::Message)
            }
            (MailMode::Auto, mail::Format::Unknown) => None,
            (_, f) => Some(f),
        };
        match format {
            Some(f) => How::Mail(f),
            None if self.qp_repair => How::Repair,
            None => How::Raw,
        }
    }
}

/// Whether the lines of `head` end in a bare CR: a CR and no LF in it.
fn cr_only(head: &[u8]) -> bool {
    memchr::memchr(b'\n', head).is_none()
        && memchr::memchr(b'\r', head).is_some()
}

/// Reads up to [`SNIFF_LEN`] bytes (fewer at the end of the stream).
pub(super) fn read_block<R: Read>(
    rdr: &mut R,
    head: &mut Vec<u8>,
) -> io::Result<()> {
    let mut chunk = [0u8; 4096];
    while head.len() < SNIFF_LEN {
        let want = (SNIFF_LEN - head.len()).min(chunk.len());
        let dst = chunk.get_mut(..want).unwrap_or_default();
        match read_retry(|b| rdr.read(b), dst)? {
            0 => break,
            n => head.extend_from_slice(dst.get(..n).unwrap_or_default()),
        }
    }
    Ok(())
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
        match read_retry(|b| rdr.read(b), dst)? {
            0 => break,
            n => head.extend_from_slice(dst.get(..n).unwrap_or_default()),
        }
    }
    Ok(())
}

/// Whether the complete lines of `head` end the header block it may
/// begin with: an empty line, or a line that is neither a field
/// ([`mail::header::field_colon`], but not `http://…`) nor a
/// continuation.
pub(super) fn header_ended(head: &[u8]) -> bool {
    let mut rest = head;
    while let Some(i) = memchr::memchr(b'\n', rest) {
        let line = rest.get(..i).unwrap_or_default();
        rest = rest.get(i + 1..).unwrap_or_default();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.first().is_some_and(|&b| b == b' ' || b == b'\t') {
            continue;
        }
        let field = mail::header::field_colon(line).is_some_and(|k| {
            !line.get(k + 1..).unwrap_or_default().starts_with(b"//")
        });
        if !field {
            return true;
        }
    }
    false
}
