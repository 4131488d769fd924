//! Lines of uuencoded data, which hold no names.
//!
//! POSIX `uuencode` (historical algorithm) writes a body of lines, each
//! a length character (`0x20` plus the count of octets, at most 45:
//! `M`) and then the octets three at a time as four characters of
//! `0x20`..`0x60`; so a full line is `M` and sixty characters, none a
//! lower-case letter. Such a line is encoded data, as a base64 body is
//! (RFC 2045 §6.8), not text: a name or address read in it
//! (`VT.AR/&(#7TO,1FR`, `A@3X.GG`) is noise. Full lines, which all but
//! the last line of a body are, held 172 of the 71,973 `--find all`
//! matches of the 20 Newsgroups corpus and no true one. A shorter line
//! is left as text: `3. BE A SF.NET FOUNDRY GUIDE.` (SpamAssassin) has
//! the 29 characters its `3` (19 octets) would say.

use crate::scan::{Hay, Incomplete};

/// A full uuencoded line: `M` and 60 characters.
const FULL_LINE: usize = 61;

/// Whether the line holding `at` is a full line of uuencoded data (see
/// the module docs). Reads at most [`FULL_LINE`] bytes before `at`,
/// within the scanner's look-behind, and to the end of the line after
/// it.
pub(super) fn in_uuencoded_line(
    hay: &Hay<'_>,
    at: usize,
) -> Result<bool, Incomplete> {
    let bytes = hay.bytes;
    let lowest = at.saturating_sub(FULL_LINE);
    let before = bytes.get(lowest..at).unwrap_or_default();
    let start = match before.iter().rposition(|&b| b == b'\n') {
        Some(i) => lowest + i + 1,
        None if lowest == 0 => 0,
        None => return Ok(false), // longer than a uuencoded line
    };
    if bytes.get(start) != Some(&b'M') {
        return Ok(false);
    }
    let end = start + FULL_LINE;
    for i in start + 1..end {
        match hay.get(i)? {
            Some(b' '..=b'`') => {}
            _ => return Ok(false),
        }
    }
    Ok(matches!(hay.get(end)?, None | Some(b'\n' | b'\r')))
}
