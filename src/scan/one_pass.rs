//! The one-pass reading of the common bare URL (issue 33, defect 3):
//! `http://` or `https://`, a DNS name, then a path and query of plain
//! bytes, ended by a hard stop after a letter, a digit or `/`.
//!
//! The full reading walks the run with [`bare::bare_end`], then hands it
//! to the verdict cache, which hashes and compares it, or parses it again
//! ([`parse::verdict`]): three passes over the same bytes. Here the run
//! is walked once, and what the walk proved is the verdict: the host by
//! a walk of its own, held equal to the validator's authority scan
//! (`parse::hostname_prefix`) by a test, the rest by a
//! table of the bytes that both readings pass over with nothing to
//! decide. Anything else (a port, userinfo, brackets, an `&` that may
//! start a delimiter's reference, a `%` without two hex digits, a second
//! `#`, bytes above 127, punctuation a reader gives back, the length cap,
//! the end of a window) is left to the full reading: `None`.
//!
//! Why the answer is the full reading's, byte for byte:
//!
//! - the run: every byte walked is one [`bare::bare_end`] passes over
//!   without a decision (plain, or `'`/`~` past the authority, which
//!   end only a host), and the walk ends at a hard stop or the end of
//!   input, where [`bare::bare_end`] ends; the run's last byte is a
//!   letter, a digit or `/`, which nothing gives back (no trim, no
//!   trailing `-`);
//! - the verdict: at the default level an `http(s)://` URL is read by
//!   `http_one_pass` (RFC 9110 §4.2.1): `parse::hostname_prefix` on
//!   the authority, then the path, query and fragment by RFC 3986's
//!   tables (`PATH_LAX`, `QUERY_LAX`): every byte walked here is in
//!   them, a `%` has its two hex digits (§2.1), one `#` opens the
//!   fragment (§3.5), and the input is ASCII (no bidirectional
//!   controls, no IRI code points).
//!
//! The tests below hold the two readings to each other on random text.

use super::bare::is_hard_stop;
use super::{
    lean, Config, Finds, Flags, Hay, Incomplete, Kind, Raw, Span, Text,
};
use crate::parse::{self, lanes_within, Scheme, Verdict};
use crate::simd::{Kernel, UrlMasks, BLOCK};

/// Bytes of a path, query or fragment that both readings pass over:
/// printable ASCII that [`bare::bare_end`] takes without a decision
/// (`'` and `~` too: past the authority they end nothing) and that
/// RFC 3986's `query` takes as it stands (`pchar / "/" / "?"`: letters,
/// digits, `-._~`, `!$'*+,;=`, `:@/?`); `%`, `#` and `&` are looked at
/// by the walk, the rest ends it.
static PLAIN_PATH: [bool; 256] = {
    let mut t = [false; 256];
    let set = b"-._~!$'*+,;=:@/?";
    let mut i = 0;
    while i < set.len() {
        t[set[i] as usize] = true;
        i += 1;
    }
    let mut b = 0;
    while b < 128 {
        if (b as u8).is_ascii_alphanumeric() {
            t[b] = true;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
thread_local! {
    /// Turns the one-pass reading off, for the tests that hold the scan
    /// with it to the scan without it.
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// How many times [`read`] and the lean reading
    /// ([`lean::empty_authority`]) ran, for the test that each runs
    /// once a colon.
    static READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts a reading ([`READS`]); nothing outside the tests.
#[inline(always)]
pub(super) fn counted() {
    #[cfg(test)]
    READS.with(|n| n.set(n.get() + 1));
}

/// Whether the one-pass reading is on: always, but in the tests that
/// turn it off ([`OFF`]).
#[inline(always)]
fn on() -> bool {
    #[cfg(test)]
    if OFF.with(|off| off.get()) {
        return false;
    }
    true
}

/// What [`Config::at_trigger`] finds at the colon `c` when the name
/// before it is `http` or `https` standing alone (after the floor, or
/// after a byte that is no scheme byte), in the three common cases,
/// without its walk back, scheme look-up and delimiter tests (issue
/// 33.3, issue 32): `//` and a URL [`read`] answers for (or the lean
/// reading's `http:// `), outside `<…>`, quotes and `_`/`~` pairs; the
/// name alone between delimiters (`"http:"`, [`Config::name_alone`]);
/// and nothing, where neither `/` nor a closer follows and no delimiter
/// stands before. Where `//` follows and neither reading answers, the
/// full bare reading ([`Config::bare_read`]) at once: [`Config::at_trigger`]
/// would come to it through the walk back and both readings again.
/// `None` leaves the colon to [`Config::at_trigger`] (so does the end of
/// a window: there the full path asks for more).
#[inline]
pub(super) fn at_colon(
    cfg: &Config,
    hay: &Hay<'_>,
    c: usize,
    floor: usize,
) -> Option<Option<(Raw, usize)>> {
    /// `http` and `https`, little-endian, as they end a word.
    const HTTP: u64 = u64::from_le_bytes(*b"\0\0\0\0http");
    const HTTPS: u64 = u64::from_le_bytes(*b"\0\0\0https");
    /// Bit 0x20 folds an ASCII letter to lower case (and only `H`, `T`,
    /// `P`, `S` onto `h`, `t`, `p`, `s`).
    const FOLD: u64 = 0x2020_2020_2020_2020;
    if cfg.finds.contains(Finds::DEFANGED) || !on() {
        return None;
    }
    let bytes = hay.bytes;
    // Both bytes after the colon are in the window (else the full
    // reading may ask for more).
    let &[next, second] = bytes.get(c + 1..c + 3)? else {
        return None;
    };
    let word =
        u64::from_le_bytes(*bytes.get(c.checked_sub(8)?..c)?.first_chunk()?);
    let folded = word | FOLD;
    let (scheme, n) = if folded & !0xFF_FFFF == HTTPS {
        (Scheme::Https, 5)
    } else if folded & !0xFFFF_FFFF == HTTP {
        (Scheme::Http, 4)
    } else {
        return None;
    };
    let s = c - n;
    if s < floor {
        return None;
    }
    // The byte before the name, when past the floor: it must end the
    // scheme run.
    let before = (s > floor).then(|| (word >> (8 * (7 - n))) as u8);
    if before.is_some_and(parse::is_scheme_byte) {
        return None;
    }
    let delimited = match before {
        Some(b'<') if cfg.angle => Some((b'>', Kind::Angle)),
        Some(b'"') if cfg.quoted => Some((b'"', Kind::Quoted)),
        Some(b'\'') if cfg.quoted => Some((b'\'', Kind::Quoted)),
        _ => None,
    };
    match delimited {
        Some((closer, kind)) => (next == closer
            && c + 1 < (s - 1).saturating_add(cfg.max_wrapper))
        .then(|| Some(cfg.name_alone(hay, s, c, Some(scheme), kind))),
        // Not `//`: the bare reading of a scheme that is not opaque
        // finds nothing.
        None if next != b'/' => Some(None),
        None if second != b'/'
            || cfg.strict
            || !cfg.bare
            || matches!(before, Some(b'_' | b'~')) =>
        {
            None
        }
        // A host starts with a letter or digit; else the lean reading
        // may answer (`http:// `, issue 21), as the full one tries it
        // first. Where neither answers, what `Config::bare` comes to
        // after the same tries: the run starts at `s` (the byte before
        // is no scheme byte, or the floor), the scheme is registered,
        // and no mark pairs.
        None => match bytes.get(c + 3) {
            Some(b) if b.is_ascii_alphanumeric() => {
                match read(cfg, hay, s, c, scheme) {
                    Some(found) => Some(Some(found)),
                    None => full(cfg, hay, s, c),
                }
            }
            _ => match lean::empty_authority(cfg, hay, s, c, Some(scheme)) {
                Ok(Some(found)) => Some(Some(found)),
                Ok(None) => full(cfg, hay, s, c),
                Err(Incomplete) => None,
            },
        },
    }
}

/// [`Config::bare_read`] of a registered scheme with no mark before it,
/// out of line (rare: a port, userinfo, trailing punctuation); `None`
/// at a window's end, where the full reading asks for more.
#[inline(never)]
fn full(
    cfg: &Config,
    hay: &Hay<'_>,
    s: usize,
    c: usize,
) -> Option<Option<(Raw, usize)>> {
    cfg.bare_read(hay, s, c, true, None).ok()
}

/// The bare candidate of the `http` or `https` URL whose scheme starts at
/// `s` and whose `//` follows the colon `c`, read in one pass (see the
/// module doc); `None` leaves it to the full reading. Only at the
/// default level, with no mark before the scheme (`pair` of
/// `bare::bare_end`).
#[inline]
pub(super) fn read(
    cfg: &Config,
    hay: &Hay<'_>,
    s: usize,
    c: usize,
    scheme: Scheme,
) -> Option<(Raw, usize)> {
    if !on() {
        return None;
    }
    counted();
    let bytes = hay.bytes;
    // The full reading's cap: a run whose stop is at `cap` or past it
    // is too long.
    let cap = s.saturating_add(cfg.max_url);
    let limit = cap.min(bytes.len());
    let host_at = c + 3;
    // The classes of the 32 bytes from the host on, when the window
    // and the cap have them: the host and the start of the path by
    // masks (nearly every URL of URL-dense text ends in them).
    let block = bytes.get(host_at..limit).and_then(|b| b.first_chunk());
    let masks = block.map(|b| (b, Kernel::detect().url(b)));
    let host_end = match masks.and_then(|(b, m)| host_masked(b, &m)) {
        Some(end) => host_at + end?,
        None => host(bytes, host_at, limit)?,
    };
    let plain = masks.map(|(_, m)| (host_at, m.plain));
    let mut i = host_end;
    let quick =
        masks.and_then(|(b, m)| path_masked(b, &m, host_end - host_at));
    // The authority ends at `/`, `?` or `#` (RFC 3986 §3.2), or the run
    // ends after the host: a port, userinfo or anything else in the
    // authority is the full reading's.
    if let Some(end) = quick {
        i = host_at + end;
    } else if i < limit && matches!(bytes[i], b'/' | b'?' | b'#') {
        i = path_with(bytes, i, limit, plain);
    }
    // The stop: a hard stop before the cap, or the end of input (past a
    // window the full reading asks for more).
    match bytes.get(i) {
        Some(&b) if i < cap && is_hard_stop(b) => {}
        None if hay.eof && i < cap => {}
        _ => return None,
    }
    // Nothing a reader gives back: no trailing punctuation, quote,
    // opener or `-` (the host's last byte is a letter or digit).
    let last = bytes[i - 1];
    if !(last.is_ascii_alphanumeric() || last == b'/') {
        return None;
    }
    let host =
        (u32::try_from(host_at - s).ok()?, u32::try_from(host_end - s).ok()?);
    let span = Span { start: s, end: i };
    let raw = Raw {
        span,
        text: Text::In(span),
        kind: Kind::Bare,
        flags: Flags::default(),
        verdict: Ok(Verdict { scheme, host: Some(host) }),
    };
    Some((raw, i))
}

/// The end of the DNS name that starts at `from` and ends before `limit`
/// at its first byte that is not a letter, digit, `-` or `.`, when
/// `parse::hostname_prefix` (the validator's authority scan, at the
/// default level) accepts it as no IDNA name: labels of 1 to 63 bytes
/// that neither start nor end with `-`, the last one starting with a
/// letter, at most 253 bytes in all (RFC 1034 §3.1, RFC 1123 §2.1).
/// `None` also for what this walk leaves to the full reading: a root dot
/// and any label with `--` at its third byte (`xn--`, IDNA's prefix).
/// Out of line: [`read`] takes most hosts by the masks
/// ([`host_masked`]), and this walk inlined into it cost URL-dense text
/// 8 instructions a URL.
#[inline(never)]
fn host(bytes: &[u8], from: usize, limit: usize) -> Option<usize> {
    let name = bytes.get(from..limit)?;
    let label_ok = |a: usize, z: usize| {
        z > a
            && z - a <= 63
            && name[a] != b'-'
            && name[z - 1] != b'-'
            && !(z - a >= 4 && name[a + 2] == b'-' && name[a + 3] == b'-')
    };
    let mut i = 0;
    let mut label = 0;
    loop {
        i = alnum_run(name, i);
        match name.get(i) {
            Some(b'-') => {}
            Some(b'.') => {
                if !label_ok(label, i) {
                    return None;
                }
                label = i + 1;
            }
            _ => break,
        }
        i += 1;
    }
    (label_ok(label, i) && name[label].is_ascii_alphabetic() && i <= 253)
        .then_some(from + i)
}

/// [`host`] by the masks of the block where the name starts: `Some`
/// with its answer (the end's offset in the block, or `None`) when the
/// name ends in the block, `None` when it fills it (the walk decides).
/// The rules of [`host`], a mask each: no empty label (a dot first, two
/// dots, a dot last: no root dot), no label that starts or ends with
/// `-`, none with `--` at its third byte, the last label starting with a
/// letter; a name within 32 bytes is within both length limits.
#[inline]
fn host_masked(block: &[u8; BLOCK], m: &UrlMasks) -> Option<Option<usize>> {
    let name = m.alnum | m.dot | m.dash;
    let end = name.trailing_ones();
    if end >= 32 {
        return None;
    }
    if end == 0 {
        return Some(None);
    }
    let within = (1u32 << end) - 1;
    let (dots, dashes) = (m.dot & within, m.dash & within);
    let starts = ((dots << 1) | 1) & within;
    let last_byte = 1u32 << (end - 1);
    let ends = (dots >> 1) | last_byte;
    let bad = dots & ((dots << 1) | 1 | last_byte) != 0
        || dashes & (starts | ends) != 0
        || (starts << 2) & dashes & (dashes >> 1) != 0;
    // The last label's first byte: a letter, not a digit.
    let last = 31 - starts.leading_zeros() as usize;
    let letter = block[last].is_ascii_alphabetic();
    Some((!bad && letter).then_some(end as usize))
}

/// The end of the path, query and fragment that start with the `/`,
/// `?` or `#` at `i`: the first byte before `limit` that is none of
/// [`PLAIN_PATH`], a `%` with two hex digits, the first `#`, an `&`
/// that starts no reference `bare::bare_end` stops at. `plain`: the
/// plain mask of a block already made (see [`skip`]).
#[inline(always)]
fn path_with(
    bytes: &[u8],
    mut i: usize,
    limit: usize,
    plain: Option<(usize, u32)>,
) -> usize {
    let mut fragment = bytes[i] == b'#';
    i += 1;
    loop {
        i = skip(bytes, i, limit, plain);
        let Some(&b) = bytes.get(i).filter(|_| i < limit) else {
            break;
        };
        match b {
            // RFC 3986 §3.5: one `#`; a second is no URL byte.
            b'#' if !fragment => fragment = true,
            // §2.1: `pct-encoded = "%" HEXDIG HEXDIG`.
            b'%' if hex(bytes, i + 1, limit) && hex(bytes, i + 2, limit) => {
                i += 2
            }
            // Not the start of `&lt;`, `&gt;`, `&quot;`, `&nbsp;` nor
            // of a numeric reference (`bare::delimiter_reference`).
            b'&' if i + 1 < limit
                && !matches!(
                    bytes[i + 1],
                    b'l' | b'g' | b'q' | b'n' | b'#'
                ) => {}
            _ => break,
        }
        i += 1;
    }
    i
}

/// The end of the path after a host that ends at `end` of the block,
/// when the masks settle it: `/` or `?` after the host, then plain bytes
/// up to a byte in the block that the path walk of [`read`] stops at
/// (none of `%`, `#`, `&`, which it looks at). `None` leaves it to the
/// walk.
#[inline]
fn path_masked(
    block: &[u8; BLOCK],
    m: &UrlMasks,
    end: usize,
) -> Option<usize> {
    if !matches!(block.get(end), Some(b'/' | b'?')) {
        return None;
    }
    // `end` < 32: the bits after the `/`.
    let stops = !m.plain & (u32::MAX << end << 1);
    let j = stops.trailing_zeros() as usize;
    match block.get(j) {
        Some(b'%' | b'#' | b'&') | None => None,
        Some(_) => Some(j),
    }
}

/// The first index at or after `i` whose byte of `name` is no ASCII
/// letter or digit (or the length): eight bytes a word while they last.
#[inline(always)]
fn alnum_run(name: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    while let Some(word) = name.get(i..).and_then(|r| r.first_chunk::<8>()) {
        let w = u64::from_le_bytes(*word);
        let x = w & !HIGHS;
        let alnum = (lanes_within(x | (ONES * 0x20), b'a', b'z')
            | lanes_within(x, b'0', b'9'))
            & !w;
        let other = !alnum & HIGHS;
        if other != 0 {
            return i + other.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    while name.get(i).is_some_and(u8::is_ascii_alphanumeric) {
        i += 1;
    }
    i
}

/// Whether `bytes[i]` is a hex digit before `limit`.
#[inline]
fn hex(bytes: &[u8], i: usize, limit: usize) -> bool {
    i < limit && bytes.get(i).is_some_and(u8::is_ascii_hexdigit)
}

/// The first index in `i..end` whose byte is not in [`PLAIN_PATH`], or
/// `end`: by the [`PLAIN_PATH`] masks of 32-byte blocks
/// (`simd::UrlMasks::plain`, the same set), then eight look-ups and-ed
/// a branch, as `bare::skip_plain` does, for the last bytes. `plain`:
/// the mask of the block at an offset, within `end`, already made
/// ([`read`]'s), read by bits when `i` is in it.
#[inline]
fn skip(
    bytes: &[u8],
    mut i: usize,
    end: usize,
    plain: Option<(usize, u32)>,
) -> usize {
    if let Some((at, plain)) = plain {
        if let Some(k) = i.checked_sub(at).filter(|&k| k < BLOCK) {
            let stops = !plain & (u32::MAX << k);
            if stops != 0 {
                return at + stops.trailing_zeros() as usize;
            }
            i = at + BLOCK;
        }
    }
    let kernel = Kernel::detect();
    while let Some(block) = bytes.get(i..end).and_then(|b| b.first_chunk()) {
        let stops = !kernel.url(block).plain;
        if stops != 0 {
            return i + stops.trailing_zeros() as usize;
        }
        i += BLOCK;
    }
    while let Some(chunk) =
        bytes.get(i..end).and_then(|b| b.first_chunk::<8>())
    {
        if !chunk.iter().fold(true, |ok, &b| ok & PLAIN_PATH[usize::from(b)]) {
            break;
        }
        i += 8;
    }
    while i < end && PLAIN_PATH[usize::from(bytes[i])] {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests;
