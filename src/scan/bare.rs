//! Where a bare URL ends: the reader's rules.
//!
//! A bare URL runs from its scheme to the first byte that cannot be in a
//! URL in running text, then gives back what a reader would not count:
//!
//! - hard stops: ASCII whitespace and control bytes, `<>"{}|\^` and the
//!   backtick (RFC 1738 §2.2 "unsafe" characters, RFC 3986 Appendix C);
//!   invalid UTF-8; Unicode spaces, general punctuation such as `“”…`,
//!   `«»`, and CJK / full-width punctuation (`。，、）」』`);
//! - a `)` or `]` with no unclosed `(` or `[` before it in the URL ends it
//!   (`(see http://a.b/c)`), while balanced pairs stay (`…/Foo_(bar)`);
//! - trailing `.,;:!?*'` are given back (`see http://a.b/c.`).

use super::Hay;
use super::Incomplete;

/// The result of reading a bare URL forward from its colon.
#[derive(Debug)]
pub(crate) struct BareEnd {
    /// End of the URL after trailing punctuation was given back.
    pub end: usize,
    /// End of the run before trimming (where the hard stop is).
    pub hard_end: usize,
    /// Trailing punctuation was given back.
    pub trimmed: bool,
    /// The run reached the length cap before a stop.
    pub too_long: bool,
}

/// Reads forward from `from` (just after the scheme's colon) and finds the
/// end of a bare URL that started at `start`. `cap` bounds `end - start`.
pub(crate) fn bare_end(
    hay: &Hay<'_>,
    start: usize,
    from: usize,
    cap: usize,
) -> Result<BareEnd, Incomplete> {
    let limit = start.saturating_add(cap);
    let (mut paren, mut bracket) = (0usize, 0usize);
    let mut i = from;
    let mut too_long = false;
    loop {
        // Most bytes of a URL need no decision: skip them in a tight loop.
        let run_end = limit.min(hay.bytes.len());
        while i < run_end && PLAIN[usize::from(hay.bytes[i])] {
            i += 1;
        }
        if i >= limit {
            too_long = true;
            break;
        }
        let Some(b) = hay.get(i)? else { break };
        match b {
            b'(' => paren += 1,
            b'[' => bracket += 1,
            b')' if paren == 0 => break,
            b')' => paren -= 1,
            b']' if bracket == 0 => break,
            b']' => bracket -= 1,
            0x80..=0xFF => match utf8_char(hay, i)? {
                Some((c, len)) if !ends_url(c) => {
                    i += len;
                    continue;
                }
                _ => break,
            },
            _ if is_hard_stop(b) => break,
            _ => {}
        }
        i += 1;
    }
    let hard_end = i;
    let mut end = i;
    while end > from && is_trailing_punct(hay.bytes[end - 1]) {
        end -= 1;
    }
    Ok(BareEnd { end, hard_end, trimmed: end < hard_end, too_long })
}

/// Bytes that [`bare_end`] passes over with nothing to decide: printable
/// ASCII but the hard stops and the brackets it counts.
static PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = !is_hard_stop(c) && !matches!(c, b'(' | b')' | b'[' | b']');
        b += 1;
    }
    t
};

/// ASCII bytes that always end a bare URL.
#[inline]
pub(crate) const fn is_hard_stop(b: u8) -> bool {
    b <= b' '
        || b == 0x7F
        || matches!(b, b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\')
        || matches!(b, b'^' | b'`')
}

/// Punctuation a reader puts after a URL rather than in it.
#[inline]
fn is_trailing_punct(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'*' | b'\'')
}

/// Decodes the UTF-8 scalar at `i`; `None` when the bytes there are not
/// valid UTF-8 (including a sequence cut by the end of input).
pub(crate) fn utf8_char(
    hay: &Hay<'_>,
    i: usize,
) -> Result<Option<(char, usize)>, Incomplete> {
    let Some(lead) = hay.get(i)? else { return Ok(None) };
    let len = match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return Ok(None),
    };
    // Ask for every byte so that a sequence cut by a buffer boundary asks
    // for more input instead of being judged invalid.
    for k in 1..len {
        match hay.get(i + k)? {
            Some(b) if b & 0xC0 == 0x80 => {}
            _ => return Ok(None),
        }
    }
    Ok(std::str::from_utf8(&hay.bytes[i..i + len])
        .ok()
        .and_then(|s| s.chars().next())
        .map(|c| (c, len)))
}

/// Non-ASCII characters that end a URL in running text: spaces, general
/// punctuation (quotes, dashes, ellipsis), guillemets, and CJK and
/// full-width punctuation.
fn ends_url(c: char) -> bool {
    matches!(c,
        '\u{0080}'..='\u{00A0}'   // C1 controls, no-break space
        | '\u{00AB}' | '\u{00BB}' // « »
        | '\u{1680}'
        | '\u{2000}'..='\u{206F}' // general punctuation, spaces
        | '\u{3000}'..='\u{303F}' // CJK symbols and punctuation
        | '\u{FE10}'..='\u{FE1F}' // vertical forms
        | '\u{FE30}'..='\u{FE4F}' // CJK compatibility forms
        | '\u{FEFF}'
        | '\u{FF01}'..='\u{FF0F}' // full-width ! " # … /
        | '\u{FF1A}'..='\u{FF20}' // full-width : ; < = > ? @
        | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FF65}' // full-width brackets, halfwidth 。「」、・
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end_of(text: &str) -> &str {
        let hay = Hay { bytes: text.as_bytes(), eof: true };
        let colon = text.find(':').unwrap();
        let r = bare_end(&hay, 0, colon + 1, 1 << 20).unwrap();
        &text[..r.end]
    }

    #[test]
    fn readers_end() {
        assert_eq!(end_of("http://a.b/c."), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c)."), "http://a.b/c");
        assert_eq!(end_of("http://a.b/W_(x))"), "http://a.b/W_(x)");
        assert_eq!(end_of("http://a.b/[1]]"), "http://a.b/[1]");
        assert_eq!(end_of("http://a.b/c',"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c>d"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/ü/x y"), "http://a.b/ü/x");
        assert_eq!(end_of("http://a.b/c。次"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c）"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c”"), "http://a.b/c");
    }

    #[test]
    fn plain_bytes_are_those_the_loop_passes_over() {
        for b in 0..=255u8 {
            let plain = b.is_ascii()
                && !is_hard_stop(b)
                && !matches!(b, b'(' | b')' | b'[' | b']');
            assert_eq!(PLAIN[usize::from(b)], plain, "{b}");
        }
    }

    #[test]
    fn invalid_utf8_ends() {
        let hay = Hay { bytes: b"http://a.b/c\xe9d", eof: true };
        assert_eq!(bare_end(&hay, 0, 5, 100).unwrap().end, 12);
    }

    #[test]
    fn cut_sequence_asks_for_more() {
        let hay = Hay { bytes: b"http://a.b/\xc3", eof: false };
        assert!(bare_end(&hay, 0, 5, 100).is_err());
    }
}
