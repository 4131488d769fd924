//! Delimited URLs: `<URL:…>`, `<scheme:…>`, `"scheme:…"` and
//! `'scheme:…'`.
//!
//! RFC 1738, Appendix "Recommendations for URLs in Context":
//!
//! > For this purpose, is recommended that angle brackets ("<" and ">"),
//! > along with the prefix "URL:", be used to delimit the boundaries of the
//! > URL. […] In some cases, extra whitespace (spaces, linebreaks, tabs,
//! > etc.) may need to be added to break long URLs across lines.  The
//! > whitespace should be ignored when extracting the URL.
//! >
//! > No whitespace should be introduced after a hyphen ("-") character.
//! > Because some typesetters and printers may (erroneously) introduce a
//! > hyphen at the end of line when breaking a line, the interpreter of a
//! > URL containing a line break immediately after a hyphen should ignore
//! > all unencoded whitespace around the line break, and should be aware
//! > that the hyphen may or may not actually be part of the URL.
//!
//! RFC 3986, Appendix C "Delimiting a URI in Context":
//!
//! > In practice, URIs are delimited in a variety of ways, but usually
//! > within double-quotes `"http://example.com/"`, angle brackets
//! > `<http://example.com/>`, or just by using whitespace […]
//! > The prefix "URL:" (with or without a trailing space) was formerly
//! > recommended as a way to help distinguish a URI from other bracketed
//! > designators […] For robustness, software that accepts user-typed URI
//! > should attempt to recognize and strip both delimiters and embedded
//! > whitespace.
//!
//! What this module implements from those sentences:
//!
//! - whitespace inside the delimiters (space, tab, CR, LF, FF, VT) is
//!   removed and the match is flagged [`Flags::JOINED`];
//! - a line break right after `-` keeps the hyphen (we cannot know it was a
//!   typesetter's) and sets [`Flags::HYPHEN_BREAK`], so a user can decide;
//! - a continuation line that repeats the quote prefix of a mail reply
//!   (`> `, `>> `) has the prefix removed too, up to as many `>` as the
//!   opening line starts with, whatever text stands before the opening
//!   delimiter on that line ([`Flags::QUOTE_PREFIX`]);
//! - a wrapper that does not close within the cap, or meets a blank line,
//!   a `<`, a control byte or the end of input first, is not a wrapper: the
//!   caller falls back to a bare reading of its start;
//! - `<URL:…>` and `<scheme:…>` join every whitespace, as both RFCs say
//!   (`<mailto: user@example.org>` is `mailto:user@example.org`): in
//!   text, `<` and `>` are delimiters and nothing else. In `"scheme:…"`
//!   only whitespace that contains a line break is joined ([`Join::Lines`]):
//!   `"` is also the quotation mark of prose, and `"http://a.b is nice"`
//!   ends at the space (Appendix C's whitespace is what was "added to
//!   break a long URI across lines");
//! - a quoted HTML attribute value (`href="…"`, [`Join::Attribute`]) is
//!   the URL a browser takes, the whole value: spaces within a line are
//!   kept, percent-encoded as `%20` (RFC 3986 §2.1; the WHATWG URL
//!   parser encodes them so), tabs dropped, and whitespace holding a line
//!   break removed as in the other delimiters ([`Flags::SPACE_ENCODED`]).
//!
//! The reader restarts from the opening delimiter when it runs out of
//! buffered input ([`Incomplete`]); the stream layer keeps the opening in
//! its buffer, so no state needs to survive a refill.

use super::{Flags, Hay, Incomplete, LOOK_BEHIND};
use crate::parse::MAX_SCHEME_LEN;

/// Which whitespace inside the delimiters [`read`] removes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Join {
    /// Every run of whitespace: `<URL:…>` (RFC 1738 appendix) and
    /// `<…>` (RFC 3986 Appendix C).
    All,
    /// Only runs holding a line break: `"…"` and `'…'` in text.
    Lines,
    /// A quoted HTML attribute value: runs holding a line break are
    /// removed, spaces within a line percent-encoded, tabs dropped.
    Attribute,
}

/// A delimited URL that closed.
#[derive(Debug)]
pub(crate) struct Closed {
    /// Index just past the closing delimiter.
    pub end: usize,
    /// The URL with whitespace and quote prefixes removed, or `None` when
    /// nothing was removed and the URL is `hay[url_start..url_end]`.
    pub joined: Option<Vec<u8>>,
    /// Start of the URL text inside the delimiters.
    pub url_start: usize,
    /// End of the URL text inside the delimiters (trailing whitespace out).
    pub url_end: usize,
    /// `JOINED`, `HYPHEN_BREAK`, `QUOTE_PREFIX`.
    pub flags: Flags,
}

/// Reads a delimited URL whose text starts at `from` and ends at `closer`.
///
/// `open` is the index of the opening delimiter (the cap counts from
/// there, and the line it stands on gives the [`quote_depth`] of
/// continuation lines, read only when a line break is met); `join` says
/// which whitespace is removed.
/// Returns `Ok(None)` when the delimiters do not close.
#[inline]
pub(crate) fn read(
    hay: &Hay<'_>,
    open: usize,
    from: usize,
    closer: u8,
    join: Join,
    cap: usize,
) -> Result<Option<Closed>, Incomplete> {
    // The common case, as the loop of `read_all` meets it first: the
    // first stop is the closer (a blank after the opening is a stop).
    let limit = open.saturating_add(cap);
    let i = skip_run(hay.bytes, from, limit, closer, stops(closer));
    if i < limit && hay.bytes.get(i) == Some(&closer) {
        return Ok(Some(Closed {
            end: i + 1,
            joined: None,
            url_start: from,
            url_end: i,
            flags: Flags::default(),
        }));
    }
    read_all(hay, open, from, closer, join, cap)
}

/// [`read`] in full: leading blanks, joins, quote prefixes.
#[inline(never)]
fn read_all(
    hay: &Hay<'_>,
    open: usize,
    from: usize,
    closer: u8,
    join: Join,
    cap: usize,
) -> Result<Option<Closed>, Incomplete> {
    let limit = open.saturating_add(cap);
    let mut depth = None;
    let mut flags = Flags::default();
    let mut joined: Option<Vec<u8>> = None;
    // A space was percent-encoded ([`Join::Attribute`]).
    let mut encoded = false;
    // Leading whitespace (after `URL:`) is a delimiter, not a join.
    let mut i = skip_blanks(hay, from, limit)?;
    let url_start = i;
    let mut seg = i; // start of the current run of URL bytes
    let stops = stops(closer);
    loop {
        // Bytes that are neither the closer, whitespace, `<` nor a
        // control byte need no decision: skip them in a tight loop.
        let run_end = limit.min(hay.bytes.len());
        i = skip_run(hay.bytes, i, run_end, closer, stops);
        if i >= limit {
            return Ok(None);
        }
        let Some(b) = hay.get(i)? else { return Ok(None) };
        if b == closer {
            if encoded && attribute_name(&hay.bytes[seg..i]) {
                return Ok(None);
            }
            let url_end = i;
            let joined = joined.map(|mut v| {
                v.extend_from_slice(&hay.bytes[seg..i]);
                v
            });
            return Ok(Some(Closed {
                end: i + 1,
                joined,
                url_start,
                url_end,
                flags,
            }));
        }
        if is_space(b) {
            let gap = gap(hay, i, open, &mut depth, limit)?;
            let Some(gap) = gap else { return Ok(None) };
            if gap.next < limit && hay.get(gap.next)? == Some(closer) {
                if encoded && attribute_name(&hay.bytes[seg..i]) {
                    return Ok(None);
                }
                // Trailing whitespace before the closer: not a join.
                let url_end = i;
                let joined = joined.map(|mut v| {
                    v.extend_from_slice(&hay.bytes[seg..i]);
                    v
                });
                let end = gap.next + 1;
                return Ok(Some(Closed {
                    end,
                    joined,
                    url_start,
                    url_end,
                    flags,
                }));
            }
            if join == Join::Lines && !gap.line_break {
                return Ok(None);
            }
            // Room for a few lines at once: grown by pieces, the joined
            // text cost a `realloc` a line (a fifth of the time of a
            // joined candidate).
            let v = joined.get_or_insert_with(|| Vec::with_capacity(256));
            v.extend_from_slice(&hay.bytes[seg..i]);
            if join == Join::Attribute && !gap.line_break {
                // A quote beside the space is script, not a value
                // (`src="…ord=' + same + '?"` in a `document.write`).
                let quote = |b: Option<u8>| matches!(b, Some(b'"' | b'\''));
                if quote(hay.bytes.get(i - 1).copied())
                    || quote(hay.get(gap.next)?)
                {
                    return Ok(None);
                }
                encoded = true;
                // WHATWG URL: tabs are removed, spaces percent-encoded.
                for &b in &hay.bytes[i..gap.next] {
                    match b {
                        b'\t' => {}
                        b' ' => v.extend_from_slice(b"%20"),
                        _ => {
                            const HEX: &[u8; 16] = b"0123456789ABCDEF";
                            let hex = |n: u8| HEX[usize::from(n & 15)];
                            v.extend_from_slice(&[b'%', hex(b >> 4), hex(b)]);
                        }
                    }
                }
                flags.insert(Flags::SPACE_ENCODED);
                i = gap.next;
                seg = i;
                continue;
            }
            flags.insert(Flags::JOINED);
            if gap.line_break && i > url_start && hay.bytes[i - 1] == b'-' {
                flags.insert(Flags::HYPHEN_BREAK);
            }
            if gap.quote_prefix {
                flags.insert(Flags::QUOTE_PREFIX);
            }
            i = gap.next;
            seg = i;
            continue;
        }
        if b == b'<' || b < b' ' || b == 0x7F {
            return Ok(None);
        }
        i += 1;
    }
}

/// Whether `word`, the last word of an attribute value with spaces in
/// it, is an attribute name and its `=` (`target=`): the value's own
/// closing quote is missing, and the quote met is the next attribute's
/// (`href="http://a.example/ target="_blank"`); the value is no URL.
fn attribute_name(word: &[u8]) -> bool {
    match word.split_last() {
        Some((b'=', name)) => {
            name.first().is_some_and(u8::is_ascii_alphabetic)
                && name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'-')
        }
        _ => false,
    }
}

/// The first index in `i..end` of `bytes` whose byte is in `stops` (the
/// table of `closer`: the closer, whitespace, `<`, C0 controls and DEL,
/// the bytes [`read`] stops at), or `end`. Eight bytes at a time: each
/// lane whose byte may stop sets its high bit in [`maybe_stops`]; the
/// lowest such lane is looked up in the table, and when it is no stop
/// after all the search goes on after it. The table reads the last few
/// bytes.
fn skip_run(
    bytes: &[u8],
    i: usize,
    end: usize,
    closer: u8,
    stops: &[bool; 256],
) -> usize {
    // `read`'s only closers; any other reads as `"`, as in [`stops`].
    match closer {
        b'>' => skip_words::<b'>'>(bytes, i, end, stops),
        b'\'' => skip_words::<b'\''>(bytes, i, end, stops),
        _ => skip_words::<b'"'>(bytes, i, end, stops),
    }
}

/// [`skip_run`] for the closer `CLOSER` (`>`, `'` or `"`); sixteen bytes
/// a step while none may stop. Out of line, so that its constants stay in
/// registers.
#[inline(never)]
fn skip_words<const CLOSER: u8>(
    bytes: &[u8],
    mut at: usize,
    end: usize,
    stops: &[bool; 256],
) -> usize {
    let end = end.min(bytes.len());
    let word = |at: usize| {
        bytes
            .get(at..end)
            .and_then(|b| b.first_chunk())
            .map(|w| maybe_stops::<CLOSER>(u64::from_le_bytes(*w)))
    };
    loop {
        let pair = bytes.get(at..end).and_then(|b| b.first_chunk::<16>());
        let hits = match pair {
            Some(pair) => {
                let (lo, hi) = pair.split_at(8);
                let half = |h: &[u8]| {
                    let w = h.try_into().map_or(0, u64::from_le_bytes);
                    maybe_stops::<CLOSER>(w)
                };
                let (lo, hi) = (half(lo), half(hi));
                if lo | hi == 0 {
                    at += 16;
                    continue;
                }
                if lo == 0 {
                    at += 8;
                    hi
                } else {
                    lo
                }
            }
            None => match word(at) {
                Some(0) => {
                    at += 8;
                    continue;
                }
                Some(hits) => hits,
                None => break,
            },
        };
        let k = at + (hits.trailing_zeros() / 8) as usize;
        if bytes.get(k).is_some_and(|&b| stops[usize::from(b)]) {
            return k;
        }
        at = k + 1;
    }
    while at < end && !stops[usize::from(bytes[at])] {
        at += 1;
    }
    at
}

/// The lanes of `w` whose byte may be a stop of [`skip_run`] for the
/// closer `CLOSER`, as their high bit; every stop's lane is set, and the
/// lowest lane set is a stop unless a byte 0xFE or 0xFF stands below it
/// (then it may be a `~`), or, for `"`, it is a `!`. Each test is a
/// subtraction (or addition) that leaves a lane's high bit set where it
/// matches: a byte below 0x21 (0x23 for `"`) wraps below zero; `<` (and
/// `>` with it, one bit apart) xor-ed to zero wraps when 1 is subtracted;
/// 0x7F + 1 reaches 0x80. A borrow moves only up from a lane that matched;
/// a carry only up from 0xFE or 0xFF. Bytes above 0x7F are masked out once
/// at the end (every byte compared is ASCII, so no test sets their lane).
#[inline(always)]
fn maybe_stops<const CLOSER: u8>(w: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    const LT: u64 = ONES * b'<' as u64;
    let low = match CLOSER {
        b'"' => w.wrapping_sub(ONES * 0x23),
        _ => w.wrapping_sub(ONES * 0x21),
    };
    let angles = match CLOSER {
        // `<` and `>` differ in bit 0x02 alone
        b'>' => ((w & !(ONES * 0x02)) ^ LT).wrapping_sub(ONES),
        _ => (w ^ LT).wrapping_sub(ONES),
    };
    let closer = match CLOSER {
        b'\'' => (w ^ (ONES * 0x27)).wrapping_sub(ONES),
        _ => 0,
    };
    let del = w.wrapping_add(ONES);
    (low | angles | closer | del) & !w & HIGH
}

static STOPS_ANGLE: [bool; 256] = stop_table(b'>');
static STOPS_QUOTE: [bool; 256] = stop_table(b'"');
static STOPS_APOSTROPHE: [bool; 256] = stop_table(b'\'');

/// The table of the bytes [`read`] stops at for `closer` (`>`, `'`, or
/// else `"`).
fn stops(closer: u8) -> &'static [bool; 256] {
    match closer {
        b'>' => &STOPS_ANGLE,
        b'\'' => &STOPS_APOSTROPHE,
        _ => &STOPS_QUOTE,
    }
}

const fn stop_table(closer: u8) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c == closer || c == b'<' || c < b' ' || c == 0x7F || c == b' ';
        b += 1;
    }
    t
}

/// A run of whitespace inside delimiters.
struct Gap {
    /// First byte after the run (and after any quote prefix).
    next: usize,
    /// The run contains a line break.
    line_break: bool,
    /// A quote prefix was removed after the line break.
    quote_prefix: bool,
}

/// Reads the whitespace run at `i`; `None` when it holds a blank line.
/// `depth` caches the [`quote_depth`] of the line of `open`.
fn gap(
    hay: &Hay<'_>,
    mut i: usize,
    open: usize,
    depth: &mut Option<usize>,
    limit: usize,
) -> Result<Option<Gap>, Incomplete> {
    let mut breaks = 0;
    let mut quote_prefix = false;
    loop {
        if i >= limit {
            return Ok(None);
        }
        match hay.get(i)? {
            Some(b'\n') => breaks += 1,
            Some(b'\r') => {
                // CR LF is one break; a lone CR is one too.
                if hay.get(i + 1)? != Some(b'\n') {
                    breaks += 1;
                }
            }
            Some(b) if is_space(b) => {}
            Some(b'>')
                if breaks > 0
                    && !quote_prefix
                    && *depth.get_or_insert_with(|| {
                        quote_depth(hay.bytes, open)
                    }) > 0 =>
            {
                let quote_depth = depth.unwrap_or(0);
                let mut j = i;
                let mut depth = 0;
                while depth < quote_depth && j < limit {
                    match hay.get(j)? {
                        Some(b'>') => depth += 1,
                        Some(b' ' | b'\t') => {}
                        _ => break,
                    }
                    j += 1;
                }
                quote_prefix = true;
                i = j;
                continue;
            }
            _ => break,
        }
        if breaks > 1 {
            return Ok(None);
        }
        i += 1;
    }
    Ok(Some(Gap { next: i, line_break: breaks > 0, quote_prefix }))
}

/// Skips spaces and tabs and at most one line break.
fn skip_blanks(
    hay: &Hay<'_>,
    mut i: usize,
    limit: usize,
) -> Result<usize, Incomplete> {
    let mut breaks = 0;
    while i < limit {
        match hay.get(i)? {
            Some(b' ' | b'\t' | b'\r') => {}
            Some(b'\n') if breaks == 0 => breaks += 1,
            _ => break,
        }
        i += 1;
    }
    Ok(i)
}

/// The whitespace RFC 1738 means: space, tab, CR, LF, VT, FF.
#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C)
}

/// How far before the opening delimiter [`quote_depth`] looks for the start
/// of its line. The stream keeps [`LOOK_BEHIND`] bytes before a trigger,
/// and the trigger stands at most a scheme and two bytes after the opening,
/// so these bytes are always in the window: the slice and reader searches
/// see the same quote depth.
const QUOTE_REACH: usize = LOOK_BEHIND - MAX_SCHEME_LEN - 8;

/// How many `>` the line holding `open` starts with: the quote prefix of a
/// mail reply (`> `, `>> `, `> > `), whatever text stands between it and
/// `open` (`> The draft is at <URL:…`). Zero when the line start is more
/// than [`QUOTE_REACH`] bytes back.
///
/// The look-back ignores the scanner's floor on purpose: it reads only
/// bytes of the same line, so a parallel slice that starts at that line
/// sees what a whole-input scan sees.
pub(crate) fn quote_depth(hay: &[u8], open: usize) -> usize {
    let open = open.min(hay.len());
    let lowest = open.saturating_sub(QUOTE_REACH);
    let mut start = open;
    while start > lowest && !matches!(hay[start - 1], b'\n' | b'\r') {
        start -= 1;
    }
    if start > 0 && !matches!(hay[start - 1], b'\n' | b'\r') {
        return 0; // the line start is out of reach
    }
    let mut depth = 0;
    for &b in &hay[start..open] {
        match b {
            b'>' => depth += 1,
            b' ' | b'\t' => {}
            _ => break,
        }
    }
    depth
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str, join: Join) -> Option<(String, Flags)> {
        let hay = Hay { bytes: text.as_bytes(), eof: true };
        let c = read(&hay, 0, 1, b'>', join, 2048).unwrap()?;
        let bytes = match c.joined {
            Some(v) => v,
            None => text.as_bytes()[c.url_start..c.url_end].to_vec(),
        };
        Some((String::from_utf8(bytes).unwrap(), c.flags))
    }

    #[test]
    fn joins_and_flags() {
        let (u, f) = url("<http://a.b/\n   c>", Join::All).unwrap();
        assert_eq!(u, "http://a.b/c");
        assert!(f.contains(Flags::JOINED));
        let (u, f) = url("<http://a-\n  b/>", Join::All).unwrap();
        assert_eq!(u, "http://a-b/");
        assert!(f.contains(Flags::HYPHEN_BREAK));
        let (u, f) = url("< http://a.b/ >", Join::All).unwrap();
        assert_eq!(u, "http://a.b/");
        assert!(!f.contains(Flags::JOINED));
    }

    /// The eight-at-a-time run skip stops where the table loop does: every
    /// byte value at every lane, after every lead, and random runs.
    #[test]
    fn skip_run_equals_the_table_loop() {
        let naive = |b: &[u8], i: usize, end: usize, t: &[bool; 256]| {
            (i..end).find(|&k| t[usize::from(b[k])]).unwrap_or(end)
        };
        for (closer, table) in [
            (b'>', &STOPS_ANGLE),
            (b'"', &STOPS_QUOTE),
            (b'\'', &STOPS_APOSTROPHE),
        ] {
            for stop in 0..=255u8 {
                for at in 0..20 {
                    let mut b = vec![b'a'; 24];
                    b[at] = stop;
                    for from in 0..4 {
                        for end in [at, at + 1, 17, 24] {
                            assert_eq!(
                                skip_run(&b, from, end, closer, table),
                                naive(&b, from, end.max(from), table),
                                "{closer} {stop} {at} {from} {end}"
                            );
                        }
                    }
                }
            }
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..20_000 {
                let b: Vec<u8> = (0..40)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Mostly URL bytes, some of every kind.
                        match x % 16 {
                            0 => (x >> 8) as u8,
                            _ => b'a' + (x >> 8) as u8 % 26,
                        }
                    })
                    .collect();
                let from = (x >> 20) as usize % 8;
                assert_eq!(
                    skip_run(&b, from, b.len(), closer, table),
                    naive(&b, from, b.len(), table),
                    "{b:?}"
                );
            }
        }
    }

    /// The fast path of [`read`] answers as [`read_all`] does: random
    /// delimited texts (blanks, breaks, quote prefixes, stray closers and
    /// controls), every closer, both join rules, short caps, windows that
    /// end early.
    #[test]
    fn read_equals_read_all() {
        let pieces: &[&[u8]] = &[
            b"http://a.example/",
            b"x",
            b"%20",
            b" ",
            b"\t",
            b"\n",
            b"\r\n",
            b"\n> ",
            b">",
            b"<",
            b"\"",
            b"'",
            b"-",
            b"\x7f",
            b"\x01",
            b"\xc3\xa9",
            b"\xff~",
            b"abcdefghijklmnop",
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..50_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let closer = [b'>', b'"', b'\''][x as usize % 3];
            let mut text = vec![[b'<', b'"', b'\''][x as usize % 3]];
            for k in 0..(x >> 4) % 12 {
                let p = pieces[(x >> (k * 3 % 55)) as usize % pieces.len()];
                text.extend_from_slice(p);
            }
            let cap = [8, 40, 2048][(x >> 8) as usize % 3];
            let join = [Join::All, Join::Lines, Join::Attribute]
                [(x >> 12) as usize % 3];
            let eof = x >> 13 & 1 == 1;
            let hay = Hay { bytes: &text, eof };
            let fast = read(&hay, 0, 1, closer, join, cap);
            let full = read_all(&hay, 0, 1, closer, join, cap);
            assert_eq!(format!("{fast:?}"), format!("{full:?}"), "{text:?}");
        }
    }

    #[test]
    fn stop_tables_hold_every_byte_the_loop_decides_on() {
        for (closer, table) in [
            (b'>', &STOPS_ANGLE),
            (b'"', &STOPS_QUOTE),
            (b'\'', &STOPS_APOSTROPHE),
        ] {
            for b in 0..=255u8 {
                let decides = b == closer
                    || is_space(b)
                    || b == b'<'
                    || b < b' '
                    || b == 0x7F;
                assert_eq!(table[usize::from(b)], decides, "{closer} {b}");
            }
        }
    }

    /// Issue 34: whitespace within a line inside `<…>` is joined (RFC
    /// 3986 Appendix C), in quotes it is not; an attribute value keeps
    /// its spaces percent-encoded and drops its tabs.
    #[test]
    fn join_rules() {
        let (u, f) = url("<mailto: user@example.org>", Join::All).unwrap();
        assert_eq!(u, "mailto:user@example.org");
        assert!(f.contains(Flags::JOINED));
        assert!(url("<mailto: user@example.org>", Join::Lines).is_none());
        let (u, f) =
            url("<mailto:x@y.z?Subject=A b\tc >", Join::Attribute).unwrap();
        assert_eq!(u, "mailto:x@y.z?Subject=A%20bc");
        assert!(f.contains(Flags::SPACE_ENCODED));
        assert!(!f.contains(Flags::JOINED));
        // script around the value, a value left open: the bare reading
        assert!(url("<http://a.b/?x=' + y + '>", Join::Attribute).is_none());
        assert!(url("<http://a.b/ target=>", Join::Attribute).is_none());
        assert!(url("<http://a.b/ x=1&target=>", Join::Attribute).is_some());
        let (u, f) = url("<http://a.b/x\n   y z>", Join::Attribute).unwrap();
        assert_eq!(u, "http://a.b/xy%20z");
        assert!(f.contains(Flags::JOINED));
        assert!(f.contains(Flags::SPACE_ENCODED));
    }

    #[test]
    fn does_not_close() {
        assert!(url("<http://a.b/\n\nc>", Join::All).is_none());
        assert!(url("<http://a.b/ <c>", Join::All).is_none());
        assert!(url("<http://a.b/ c", Join::All).is_none());
        assert!(url("<http://a.b/ c>", Join::Lines).is_none());
        assert!(url("<http://a.b/ c\n\n>", Join::Attribute).is_none());
    }

    #[test]
    fn quote_prefix() {
        let text = b"> <URL:x\n> >";
        assert_eq!(quote_depth(text, 2), 1);
        assert_eq!(quote_depth(b"ab <", 3), 0);
        assert_eq!(quote_depth(b"x\n>> <", 5), 2);
        // text between the quote prefix and the opening
        assert_eq!(quote_depth(b"> > see <", 8), 2);
        assert_eq!(quote_depth(b"x\r\n> The draft is at <", 23), 1);
        // a line start out of reach counts as no prefix
        let mut long = b"> ".to_vec();
        long.extend(std::iter::repeat_n(b'x', QUOTE_REACH));
        long.push(b'<');
        assert_eq!(quote_depth(&long, long.len() - 1), 0);
    }

    /// Regression: a wrapper in a quoted reply with text before it on its
    /// line was cut at the continuation line's quote mark, which closed it
    /// (`<URL:http://a/b/` + `> c/d>` gave `http://a/b/`).
    #[test]
    fn quoted_reply_with_text_before_the_wrapper() {
        let text = b"> see <URL:http://a.b/long/\n> path/x.txt> ok\n";
        let hay = Hay { bytes: text, eof: true };
        assert_eq!(quote_depth(text, 6), 1);
        let c = read(&hay, 6, 11, b'>', Join::All, 2048).unwrap().unwrap();
        assert_eq!(
            c.joined.as_deref(),
            Some(&b"http://a.b/long/path/x.txt"[..])
        );
        assert!(c.flags.contains(Flags::QUOTE_PREFIX));
    }
}
