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
                b'%' if hex(bytes, i + 1, limit)
                    && hex(bytes, i + 2, limit) =>
                {
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
#[inline]
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
mod tests {
    use super::super::tests::{same_reading as same, Reading};
    use super::super::{Step, Triggers};
    use super::*;
    use proptest::prelude::*;

    /// Pieces of URL-ish text: every byte class the walk or the full
    /// reading decides on, near misses of the common shape.
    const PIECES: &[&[u8]] = &[
        b"n.example",
        b"a",
        b"Z9",
        b"-",
        b".",
        b"/",
        b"?",
        b"#",
        b"%",
        b"%4a",
        b"%g1",
        b"&",
        b"&lt;",
        b"&gt;",
        b"&amp;",
        b"&#39;",
        b"&nbsp;",
        b"=",
        b":",
        b":80",
        b"@",
        b" ",
        b"\n",
        b"\r\n",
        b"\t",
        b"'",
        b"~",
        b"(",
        b")",
        b"[",
        b"]",
        b"[::1]",
        b"\xc3\xa9",
        b"\xe2\x80\x9d",
        b"\xff",
        b"xn--",
        b"xn--bcher-kva",
        b"_",
        b",",
        b";",
        b"!",
        b"*",
        b"\"",
        b"<",
        b">",
        b"{",
        b"|",
        b"^",
        b"`",
        b"\\",
        b"\x00",
        b"http://",
        b"https://",
    ];

    /// `prefix`, a scheme with `//`, then `tail`: the one-pass reading at
    /// its colon and the full one ([`Config::bare_read`]), at the level,
    /// cap and window given; `None` when the one-pass reading leaves it.
    fn readings(
        scheme: &[u8],
        tail: &[u8],
        eof: bool,
        max_url: usize,
    ) -> Option<(Reading, Reading)> {
        let mut text = b"x ".to_vec();
        let s = text.len();
        text.extend_from_slice(scheme);
        let c = text.len();
        text.extend_from_slice(b"://");
        text.extend_from_slice(tail);
        let cfg = Config { max_url, ..Config::default() };
        let hay = Hay { bytes: &text, eof };
        let k = parse::registered_prefix(&text[s..], c - s)?;
        let fast = read(&cfg, &hay, s, c, k)?;
        let full = cfg.bare_read(&hay, s, c, true, None);
        Some((Ok(Some(fast)), full))
    }

    /// Random text of [`PIECES`] after the scheme, long enough at times
    /// for the masks of a block or two (`host_masked`, `skip`).
    fn tail() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(0..PIECES.len(), 0..40).prop_map(|ix| {
            ix.into_iter().flat_map(|i| PIECES[i].iter().copied()).collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        /// Where the one-pass reading answers, its answer is the full
        /// reading's: run, flags, verdict (the validator's, host range
        /// included) and resume, at every cap, at the end of input and
        /// of a window.
        #[test]
        fn one_pass_equals_the_full_reading(
            tail in tail(),
            https in any::<bool>(),
            eof in any::<bool>(),
            max_url in prop_oneof![Just(8192usize), 1usize..40],
        ) {
            let scheme: &[u8] = if https { b"HTTPS" } else { b"http" };
            if let Some((fast, full)) = readings(scheme, &tail, eof, max_url) {
                prop_assert!(
                    same(&fast, &full),
                    "{:?} eof {eof} cap {max_url}: {fast:?} != {full:?}",
                    String::from_utf8_lossy(&tail)
                );
            }
        }
    }

    /// The one-pass reading answers the common shapes (so the property
    /// above holds it to something), and leaves the unusual ones.
    #[test]
    fn one_pass_answers_the_common_shapes() {
        let answers = |tail: &[u8]| readings(b"http", tail, true, 8192);
        for tail in [
            &b"n.example/ "[..],
            b"n.example",
            b"n.example\n",
            b"a.b/c/d.html?x=1&y=2#top ",
            b"a.b?q=%4A~'x:y@z,w;v=!*$+z ",
            b"a-b.c9.example/~user/ ",
        ] {
            let (fast, full) = answers(tail).unwrap_or_else(|| {
                panic!("{:?} not answered", String::from_utf8_lossy(tail))
            });
            assert!(same(&fast, &full), "{fast:?} != {full:?}");
        }
        for tail in [
            &b"n.example:80/ "[..],
            b"u@n.example/ ",
            b"n.example/c. ",
            b"n.example/c) ",
            b"n.example- ",
            b"n.example/%zz ",
            b"n.example/a&lt;b ",
            b"n.example/#a#b ",
            b"xn--bcher-kva.example/ ",
            b"n.example/\xc3\xa9 ",
            b"-a.example/ ",
            b"n.example/",
        ] {
            let eof = tail != b"n.example/";
            assert!(
                readings(b"http", tail, eof, 8192).is_none(),
                "{:?} answered",
                String::from_utf8_lossy(tail)
            );
        }
        // The cap: at it the full reading says too long.
        assert!(readings(b"http", b"n.example/ ", true, 17).is_none());
        assert!(readings(b"http", b"n.example/ ", true, 18).is_some());
    }

    /// Where [`host`] takes a name, the validator's scan of an
    /// authority takes it, to the same end, as no IDNA name: random
    /// names of labels, dots, hyphens, `xn--` and stray bytes, long
    /// labels and long names among them.
    #[test]
    fn host_is_the_validators_host() {
        let parts: &[&[u8]] = &[
            b"a",
            b"Z",
            b"7",
            b"-",
            b".",
            b"xn--",
            b"ab--",
            b"_",
            b"/",
            b":",
            b"\xc3\xa9",
            b" ",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut taken = 0;
        for round in 0..20_000 {
            let mut name = Vec::new();
            let len = round % 24;
            while name.len() < len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                name.extend_from_slice(
                    parts[(state >> 8) as usize % parts.len()],
                );
            }
            // Long labels and names: 60..=66 letters, 250..=256 bytes.
            if round % 7 == 0 {
                let at = (state >> 20) as usize % (name.len() + 1);
                let n = if round % 2 == 0 {
                    60 + round % 7
                } else {
                    250 + round % 7
                };
                let long: Vec<u8> = (0..n)
                    .map(|k| {
                        if round % 2 == 1 && k % 10 == 9 {
                            b'.'
                        } else {
                            b'q'
                        }
                    })
                    .collect();
                name.splice(at..at, long);
            }
            for limit in [name.len(), name.len() / 2] {
                let Some(end) = host(&name, 0, limit) else { continue };
                taken += 1;
                assert_eq!(
                    parse::hostname_prefix(&name[..limit], true),
                    (end, Some(false)),
                    "{:?}",
                    String::from_utf8_lossy(&name)
                );
            }
        }
        assert!(taken > 2000, "{taken}");
    }

    /// The masks' plain class is [`PLAIN_PATH`].
    #[test]
    fn the_plain_class_is_plain_path() {
        for b in 0..=255u8 {
            assert_eq!(crate::simd::plain(b), PLAIN_PATH[usize::from(b)]);
        }
    }

    /// Where the masks of the block a name starts in decide
    /// ([`host_masked`]), they decide as the walk ([`host`]) does:
    /// names of labels, dots, hyphens, `xn--`, digits and stray bytes,
    /// cut at every length up to 40, then 32 bytes of filler, with
    /// every kernel.
    #[test]
    fn host_by_masks_is_host_by_walk() {
        let parts: &[&[u8]] = &[
            b"a",
            b"Z",
            b"q",
            b"7",
            b"-",
            b"--",
            b".",
            b"..",
            b"xn--",
            b"ab--",
            b"_",
            b"/",
            b":",
            b"\xc3\xa9",
            b" ",
            b"\xff",
        ];
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        let mut decided = 0;
        for _ in 0..20_000 {
            let mut name = Vec::new();
            while name.len() < 40 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                name.extend_from_slice(
                    parts[(state >> 8) as usize % parts.len()],
                );
            }
            let cut = (state >> 40) as usize % 41;
            name.truncate(cut);
            name.extend_from_slice(b" filler filler filler filler fill");
            let Some(block) = name.first_chunk::<BLOCK>() else {
                continue;
            };
            for kernel in Kernel::all() {
                let Some(fast) = host_masked(block, &kernel.url(block)) else {
                    continue;
                };
                decided += 1;
                assert_eq!(
                    fast,
                    host(&name, 0, name.len()),
                    "{:?} {}",
                    String::from_utf8_lossy(&name),
                    kernel.name()
                );
            }
        }
        assert!(decided > 20_000, "{decided}");
    }

    /// The candidates of a whole scan of `text` (rejects included, as
    /// `--rejects` prints them), with where the scan resumes after each.
    fn scan(cfg: &Config, text: &[u8]) -> Vec<String> {
        let hay = Hay { bytes: text, eof: true };
        let (mut pos, mut floor) = (0, 0);
        let mut found = Vec::new();
        while let Step::Found(raw, resume) = cfg.step(hay, pos, floor) {
            found.push(format!("{raw:?} {resume}"));
            pos = resume;
            floor = resume;
        }
        found
    }

    /// The whole scan over random text made of the pieces, schemes,
    /// words a scheme may be glued to, and spaces: with the one-pass
    /// reading and without it ([`OFF`]), the same candidates (rejects
    /// included) and resumes, with every colon a trigger and without, at
    /// both levels, with the detectors off, on but `defanged`, all on.
    #[test]
    fn scan_with_one_pass_reports_the_full_readings() {
        let extra: &[&[u8]] = &[
            b"http://",
            b"https://",
            b"n.example/",
            b" ",
            b"s",
            b"See",
            b"x-",
            b"<URL:",
            b"hxxp://",
            b"http:",
            b"HTTPS:",
            b"\"http:\"",
        ];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut answered = 0;
        for round in 0..6000 {
            let mut text = Vec::new();
            let len = 8 + round % 64;
            while text.len() < len {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // The extra pieces as often as all the others.
                let i = (state >> 8) as usize % (2 * PIECES.len());
                text.extend_from_slice(match i.checked_sub(PIECES.len()) {
                    Some(k) => extra[k % extra.len()],
                    None => PIECES[i],
                });
            }
            for triggers in [Triggers::Simd, Triggers::EveryColon] {
                for strict in [false, true] {
                    for finds in [
                        Finds::NONE,
                        Finds::EMAIL
                            .union(Finds::WWW)
                            .union(Finds::DOMAIN)
                            .union(Finds::NETWORK_PATH)
                            .union(Finds::UNREGISTERED),
                        Finds::ALL,
                    ] {
                        let cfg = Config {
                            triggers,
                            strict,
                            finds,
                            ..Config::default()
                        };
                        let fast = scan(&cfg, &text);
                        OFF.with(|off| off.set(true));
                        let full = scan(&cfg, &text);
                        OFF.with(|off| off.set(false));
                        assert_eq!(
                            fast,
                            full,
                            "{:?}",
                            String::from_utf8_lossy(&text)
                        );
                        let hay = Hay { bytes: &text, eof: true };
                        answered += (0..text.len())
                            .filter(|&c| {
                                at_colon(&cfg, &hay, c, 0)
                                    .is_some_and(|f| f.is_some())
                            })
                            .count();
                    }
                }
            }
        }
        assert!(answered > 1500, "{answered}");
    }

    /// Issue 32's note: an `http` URL neither reading answers (a port,
    /// a trailing `.`, userinfo, a bracketed or percent-encoded host, a
    /// `-` first) ran the one-pass reading or the lean one twice, once
    /// at the colon and once more in `Config::bare` after the walk back.
    /// Each runs once a colon now, and the candidate is the full
    /// reading's.
    #[test]
    fn each_reading_runs_once_a_colon() {
        let cfg = Config::default();
        for text in [
            &b"see http://a.example:99999/ x"[..],
            b"see http://a.example:8080/ x",
            b"see http://a.example/p. x",
            b"see https://u@a.example/ x",
            b"see http://[::1]/ x",
            b"see http://%41.example/ x",
            b"see http://-a.example/ x",
            b"see HTTPS://a.example/\xc3\xa9 x",
        ] {
            let hay = Hay { bytes: text, eof: true };
            READS.with(|n| n.set(0));
            let fast = cfg.step(hay, 0, 0);
            let reads = READS.with(|n| n.get());
            OFF.with(|off| off.set(true));
            let full = cfg.step(hay, 0, 0);
            OFF.with(|off| off.set(false));
            let show = String::from_utf8_lossy(text);
            assert_eq!(reads, 1, "{show}");
            assert_eq!(format!("{fast:?}"), format!("{full:?}"), "{show}");
        }
    }
}
