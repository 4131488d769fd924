//! How an input is searched, decided once per input from its first bytes.

use super::config::Driver;
use crate::container::{Containers, Reading};
use crate::input::Input;
use crate::search::buffer::read_retry;
use std::io::{self, Read};

/// How one input is searched, decided once from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum How {
    /// Read as its container says (raw text is the trivial one).
    Read(Reading),
    /// Not at all: a binary file found in a folder walk
    /// ([`DriverBuilder::skip_binary`](super::DriverBuilder::skip_binary)),
    /// reported neither begun nor ended.
    Skip,
}

impl Driver {
    /// Whether the first bytes of `input` are needed to decide how to
    /// search it: when they are not, it is [`Reading::Raw`].
    pub(super) fn sniffs(&self, input: &Input) -> bool {
        self.containers.sniffs() || self.skips(input)
    }

    /// Whether `input` is skipped when its first block is binary: found in
    /// a walk, with skipping on.
    pub(super) fn skips(&self, input: &Input) -> bool {
        self.skip_binary && input.walked
    }

    /// How `input`, whose first bytes (after decompression) are `head`,
    /// is searched. Binary is a NUL byte in the first [`SNIFF_LEN`] bytes,
    /// as grep and ripgrep decide, unless the bytes read as a container
    /// (a mail spool may hold a stray NUL).
    pub(super) fn how(&self, input: &Input, head: &[u8]) -> How {
        let head = head.get(..SNIFF_LEN).unwrap_or(head);
        let skips = self.skips(input);
        let nul = || skips && memchr::memchr(0, head).is_some();
        if !self.containers.sniffs() {
            let skip = nul() && !self.containers.recognised(head);
            return if skip { How::Skip } else { How::Read(Reading::Raw) };
        }
        // Container searches sniff first: a NUL matters only in what is
        // no container, and most files of a mail folder are (the search
        // for a NUL in each file's first 8 KiB was a fifth of the
        // driver's work on the SpamAssassin folder).
        let (reading, known) = self.containers.reading(head);
        if !known && nul() {
            return How::Skip;
        }
        How::Read(reading)
    }
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

/// How many first bytes of an input decide how it is read.
pub(super) const SNIFF_LEN: usize = 8 * 1024;

/// Reads the head of a stream to sniff: up to [`SNIFF_LEN`] bytes, but no
/// more than it takes to decide, so that a slow stream (`tail -f`) is not
/// held up: the sniff is decided once it sees mail, or once the lines
/// read end what could be a header block.
pub(super) fn read_head<R: Read>(
    containers: &Containers,
    rdr: &mut R,
    head: &mut Vec<u8>,
) -> io::Result<()> {
    let mut chunk = [0u8; 4096];
    while head.len() < SNIFF_LEN && !containers.decided(head) {
        let want = (SNIFF_LEN - head.len()).min(chunk.len());
        let dst = chunk.get_mut(..want).unwrap_or_default();
        match read_retry(|b| rdr.read(b), dst)? {
            0 => break,
            n => head.extend_from_slice(dst.get(..n).unwrap_or_default()),
        }
    }
    Ok(())
}
