//! RFC 2047 encoded words in header fields: `=?charset?Q?text?=` and
//! `=?charset?B?text?=`, decoded to UTF-8.
//!
//! RFC 2047 §2: `encoded-word = "=?" charset "?" encoding "?"
//! encoded-text "?="`; §4.1 (`B`: base64), §4.2 (`Q`: `_` is a space,
//! `=XX` a byte, other printable characters themselves); RFC 2231 §5
//! adds a language after the charset (`=?utf-8*en?Q?…?=`), which is
//! dropped. §6.2: "any 'linear-white-space' that separates a pair of
//! adjacent 'encoded-word's is ignored".
//!
//! The reading is as lenient as Python's `email.header.decode_header`,
//! which archives were written to be read by: an encoded word is found
//! anywhere (also glued to other text, `Re:=?…?=`), its text runs to the
//! first `?=` on its line (blanks included, which §5 forbids but broken
//! encoders write), and base64 with missing padding is read. A word
//! whose text does not decode (bad base64) stays as written (§6.3: "it
//! […] should be displayed as is"). Charsets are those of the Encoding
//! Standard (`encoding_rs`), which reads `iso-8859-1` and `us-ascii` as
//! `windows-1252`; an unknown charset is read as UTF-8, bytes that are
//! not replaced by U+FFFD.

use super::map::Map;
use crate::scan::Span;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;
use std::borrow::Cow;

/// Base64 as RFC 2047 §4.1 words are written: padding optional,
/// trailing bits ignored.
const LENIENT: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true),
);

/// One piece of a field value, met in order by [`walk`].
enum Piece<'a> {
    /// Text as written.
    Raw(Span),
    /// An encoded word, and its decoded text (UTF-8).
    Word(Span, &'a [u8]),
    /// Blanks between two encoded words, ignored (§6.2).
    Gap,
}

/// The first place at or after a position where a needle stands,
/// remembered: asked for positions that never go back, it reads each
/// byte of the value at most once (issue 33.4: every word searched to
/// the end of its line, quadratic in the words of one line).
struct Ahead {
    /// The position last searched from.
    from: usize,
    /// The first hit at or after `from` (the value's length if none):
    /// no hit starts in `from..found`.
    found: usize,
    /// Bytes examined by the searches, for the linearity test.
    examined: usize,
}

impl Ahead {
    fn new() -> Self {
        Ahead { from: usize::MAX, found: 0, examined: 0 }
    }

    /// The first hit at or after `p`, found by `search` on the bytes from
    /// `p` when the remembered one does not answer.
    #[inline]
    fn next(
        &mut self,
        value: &[u8],
        p: usize,
        search: impl Fn(&[u8]) -> Option<usize>,
    ) -> usize {
        if self.from > p || p > self.found {
            let rest = value.get(p..).unwrap_or_default();
            let k = search(rest);
            self.examined += k.map_or(rest.len(), |k| k + 1);
            self.from = p;
            self.found = k.map_or(value.len(), |k| p + k);
        }
        self.found
    }

    /// Whether [`Ahead::next`] answers `p` without a search.
    #[inline]
    fn knows(&self, p: usize) -> bool {
        self.from <= p && p <= self.found
    }
}

/// The line ends and `?=` closers of one value, searched once each.
struct Scout {
    line_end: Ahead,
    close: Ahead,
}

impl Scout {
    fn new() -> Self {
        Scout { line_end: Ahead::new(), close: Ahead::new() }
    }
}

/// The head of the encoded word that starts at `value[at..]` (which
/// starts with `=?`): its charset label as written (`charset*language`)
/// and its encoding letter; the text starts after them, at
/// `at + 2 + label.len() + 3`.
fn head_at(value: &[u8], at: usize) -> Option<(&[u8], u8)> {
    let rest = value.get(at + 2..)?;
    // The charset runs to the first `?`, and stops at a byte no charset
    // holds: reads at most to the `?` of the next `=?`, linear over all
    // `at`s.
    let q1 = rest
        .iter()
        .position(|&b| b == b'?' || b <= b' ' || b >= 0x7f || b == b'=')?;
    if q1 == 0 || rest[q1] != b'?' {
        return None;
    }
    let enc = *rest.get(q1 + 1)?;
    if rest.get(q1 + 2) != Some(&b'?') {
        return None;
    }
    Some((&rest[..q1], enc))
}

/// The text of the encoded word whose text starts at `text_start`,
/// written in encoding `enc` (`Q` or `B`), decoded to bytes in `bytes`;
/// the word's end, and whether its text is its bytes as written (a `Q`
/// text with no `_` or `=`: then `bytes` is left as it was). Asked for increasing `text_start`s
/// (for increasing word starts it never goes back: it follows the first
/// `?` after the `=?`), with one `scout` for the value.
#[inline]
fn text_at(
    value: &[u8],
    text_start: usize,
    enc: u8,
    scout: &mut Scout,
    bytes: &mut Vec<u8>,
) -> Option<(usize, bool)> {
    // The scout's close, when it still answers (a word not closed on
    // its line, text dense in `=?`), or else the bytes near.
    let near = match scout.close.knows(text_start) {
        true => None,
        false => near_close(value, text_start),
    };
    let close = match near {
        Some(close) => close?,
        None => {
            let line = scout.line_end.next(value, text_start, find_line_end);
            let close = scout.close.next(value, text_start, find_close);
            // `?=` holds no line break: starting before the line's end,
            // it ends before it too.
            if close >= line {
                return None;
            }
            close
        }
    };
    let text = value.get(text_start..close)?;
    bytes.clear();
    match enc {
        b'Q' | b'q' => {
            if !text.iter().any(|&b| b == b'_' || b == b'=') {
                return Some((close + 2, true));
            }
            q_decode(text, bytes);
        }
        b'B' | b'b' => {
            // A byte outside base64 fails the word before a buffer the
            // size of the text is made: the text of a word that fails
            // may hold the next `=?`, and is read again from there.
            if text.iter().any(|&b| !is_base64(b)) {
                return None;
            }
            LENIENT.decode_vec(text, bytes).ok()?;
        }
        _ => return None,
    }
    Some((close + 2, false))
}

/// Where `b` first stands in `hay`: the first bytes one at a time, the
/// rest by `memchr` (whose call costs more than the few bytes between
/// two `?` of a run of short words).
#[inline]
fn find_byte(b: u8, hay: &[u8]) -> Option<usize> {
    let near = hay.len().min(16);
    match hay[..near].iter().position(|&c| c == b) {
        Some(i) => Some(i),
        None => memchr::memchr(b, &hay[near..]).map(|i| i + near),
    }
}

/// Bytes [`near_close`] reads.
const NEAR: usize = 32;

/// The closer of a short word, read a byte at a time: among the `NEAR`
/// bytes from `from`, the first `?=` (`Some(Some(at))`) or line break
/// (`Some(None)`: the word is not closed on its line), whichever comes
/// first; `None` if neither does (the searches of a [`Scout`] decide).
#[inline]
fn near_close(value: &[u8], from: usize) -> Option<Option<usize>> {
    let near = value.get(from..)?;
    let near = &near[..near.len().min(NEAR)];
    for (i, &b) in near.iter().enumerate() {
        match b {
            b'\r' | b'\n' => return Some(None),
            b'?' if value.get(from + i + 1) == Some(&b'=') => {
                return Some(Some(from + i));
            }
            _ => {}
        }
    }
    None
}

/// Where the first CR or LF of `t` stands, as [`find_byte`] searches.
#[inline]
fn find_line_end(t: &[u8]) -> Option<usize> {
    let near = t.len().min(16);
    match t[..near].iter().position(|&c| c == b'\r' || c == b'\n') {
        Some(i) => Some(i),
        None => memchr::memchr2(b'\r', b'\n', &t[near..]).map(|i| i + near),
    }
}

/// Whether two words' heads (`=?charset?e?`) are the same bytes: those
/// of 8 to 16 bytes (most) as two overlapping 8-byte words, not by a
/// `memcmp` call.
#[inline]
fn same_head(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if (8..=16).contains(&n) {
        let word = |s: &[u8], i: usize| {
            s.get(i..i + 8)
                .and_then(|c| <[u8; 8]>::try_from(c).ok())
                .map(u64::from_ne_bytes)
        };
        return word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8);
    }
    a == b
}

/// The `?` that [`find_close`] and [`find_open`] look at one by one
/// before a `memmem` search takes over (text dense in `?`: a `?` a
/// byte cost a call each).
const MISSES: usize = 4;

/// Where the first `?=` of `t` starts.
#[inline]
fn find_close(t: &[u8]) -> Option<usize> {
    let mut from = 0;
    for _ in 0..MISSES {
        let q = from + find_byte(b'?', t.get(from..)?)?;
        if t.get(q + 1) == Some(&b'=') {
            return Some(q);
        }
        from = q + 1;
    }
    memchr::memmem::find(t.get(from..)?, b"?=").map(|k| from + k)
}

/// Where the first `=?` at or after `pos` starts in `value`.
#[inline]
fn find_open(value: &[u8], pos: usize) -> Option<usize> {
    let mut from = pos + 1;
    for _ in 0..MISSES {
        let q = from + find_byte(b'?', value.get(from..)?)?;
        if value.get(q - 1) == Some(&b'=') {
            return Some(q - 1);
        }
        from = q + 1;
    }
    memchr::memmem::find(value.get(from - 1..)?, b"=?").map(|k| from - 1 + k)
}

/// A byte of RFC 2045 §6.8's base64 alphabet, or its pad `=`.
fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

/// The value of the two characters after a `=` of the `Q` encoding, as
/// `u8::from_str_radix(h, 16)` reads them: two hex digits, or a `+` sign
/// and one.
#[inline]
fn q_hex(h: &[u8]) -> Option<u8> {
    let digit = |c: u8| char::from(c).to_digit(16);
    match *h {
        [b'+', lo] => digit(lo).and_then(|l| u8::try_from(l).ok()),
        [hi, lo] => {
            let v = digit(hi)? * 16 + digit(lo)?;
            u8::try_from(v).ok()
        }
        _ => None,
    }
}

/// RFC 2047 §4.2: the `Q` encoding, decoded onto `out`.
#[inline]
fn q_decode(text: &[u8], out: &mut Vec<u8>) {
    out.reserve(text.len());
    let mut i = 0;
    while let Some(rest) = text.get(i..) {
        // Characters that stand for themselves, copied as a run.
        let k = rest.iter().position(|&b| b == b'_' || b == b'=');
        out.extend_from_slice(&rest[..k.unwrap_or(rest.len())]);
        let Some(k) = k else { break };
        i += k;
        if rest[k] == b'_' {
            out.push(b' ');
        } else if let Some(v) = text.get(i + 1..i + 3).and_then(q_hex) {
            out.push(v);
            i += 3;
            continue;
        } else {
            out.push(b'=');
        }
        i += 1;
    }
}

/// The text (UTF-8) of a word's decoded bytes in its charset (`None`:
/// unknown, read as UTF-8). The charset decides, never a byte order mark
/// in the text: a Latin-1 word may begin with `þÿ` (FE FF), which
/// `decode` would take for UTF-16 (RFC 2047 §2: the charset names the
/// text's).
#[inline(always)]
fn in_charset<'b>(
    bytes: &'b [u8],
    enc: Option<&'static encoding_rs::Encoding>,
) -> Cow<'b, [u8]> {
    // ASCII is its own text in a charset that is ASCII-compatible, and
    // UTF-8 its own in UTF-8.
    if bytes.is_ascii() && enc.is_none_or(|e| e.is_ascii_compatible()) {
        return Cow::Borrowed(bytes);
    }
    let text = match enc {
        Some(e) => e.decode_without_bom_handling(bytes).0,
        None => String::from_utf8_lossy(bytes),
    };
    match text {
        Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
        Cow::Owned(s) => Cow::Owned(s.into_bytes()),
    }
}

/// The head of the last word met: a word right after it, past blanks,
/// that starts with the same bytes is read without searching for its
/// start or looking at its charset again.
struct Last<'v> {
    /// `=?charset?e?`, as written.
    head: &'v [u8],
    enc: u8,
    charset: Option<&'static encoding_rs::Encoding>,
}

/// What a [`walk`] cost, for the tests.
#[cfg_attr(not(test), allow(dead_code))]
struct Walked {
    /// Bytes examined searching for line ends and closers (at most the
    /// value's length each).
    examined: usize,
    /// Charsets looked up by name.
    lookups: usize,
}

/// Meets the pieces of `value` in order, while `f` says go on. Nothing
/// is allocated per word: its bytes are decoded into one buffer (or are
/// its text as written), and a run of words written alike (RFC 2047
/// §6.2's adjacent words, one charset and encoding) has its charset
/// looked up once.
fn walk(value: &[u8], mut f: impl FnMut(Piece<'_>) -> bool) -> Walked {
    let mut scout = Scout::new();
    let mut bytes = Vec::new();
    let mut last: Option<Last<'_>> = None;
    let mut lookups = 0;
    // Whether a word was met: blanks after one, up to the next, are a gap.
    let mut words = false;
    let mut plain = 0;
    let mut pos = 0;
    let walked = |s: &Scout, lookups| Walked {
        examined: s.line_end.examined + s.close.examined,
        lookups,
    };
    loop {
        // Right after a word: the next one, if only blanks come first and
        // its head is the last one's bytes. The first `=?` from `pos` is
        // then its start, and its head reads as the last one's.
        let same = last.as_ref().filter(|_| pos == plain).and_then(|l| {
            let rest = value.get(pos..)?;
            let k = rest.iter().position(|b| !b.is_ascii_whitespace())?;
            let head = rest.get(k..k + l.head.len())?;
            same_head(head, l.head).then_some((pos + k, l.head.len(), l.enc))
        });
        let (at, head_len, enc, label) = match same {
            // Blanks only from `plain` (`pos`) to `at`: a gap.
            Some((at, head_len, enc)) => (at, head_len, enc, None),
            None => {
                let Some(at) = find_open(value, pos) else { break };
                let Some((label, enc)) = head_at(value, at) else {
                    pos = at + 1;
                    continue;
                };
                (at, 2 + label.len() + 3, enc, Some(label))
            }
        };
        let text_start = at + head_len;
        let Some((end, verbatim)) =
            text_at(value, text_start, enc, &mut scout, &mut bytes)
        else {
            pos = at + 1;
            continue;
        };
        if let Some(label) = label {
            // A head searched and read: its charset, the last word's if
            // the label is the same bytes.
            let charset = match &last {
                Some(l) if l.head.get(2..l.head.len() - 3) == Some(label) => {
                    l.charset
                }
                _ => {
                    lookups += 1;
                    // RFC 2231 §5: `charset*language`.
                    let name = label.split(|&b| b == b'*').next();
                    encoding_rs::Encoding::for_label(name.unwrap_or(label))
                }
            };
            let head = &value[at..text_start];
            last = Some(Last { head, enc, charset });
        }
        let charset = last.as_ref().and_then(|l| l.charset);
        if plain < at {
            let between = &value[plain..at];
            let piece = if label.is_none()
                || words && between.iter().all(u8::is_ascii_whitespace)
            {
                Piece::Gap
            } else {
                Piece::Raw(Span { start: plain, end: at })
            };
            if !f(piece) {
                return walked(&scout, lookups);
            }
        }
        let decoded = match verbatim {
            true => &value[text_start..end - 2],
            false => &bytes[..],
        };
        let text = in_charset(decoded, charset);
        words = true;
        if !f(Piece::Word(Span { start: at, end }, &text)) {
            return walked(&scout, lookups);
        }
        plain = end;
        pos = end;
    }
    if plain < value.len() {
        f(Piece::Raw(Span { start: plain, end: value.len() }));
    }
    walked(&scout, lookups)
}

/// Where `=?` stands in `text` (the position of its `=`): where an
/// encoded word may start; lazily, a `memchr` for the rarer `?`. (A
/// two-byte `memmem` searcher built once cost more: 60.44 M against
/// 59.78 M instructions for the first 8 MB of the spool.)
pub(crate) fn word_starts(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'?', text)
        .filter(|&i| i > 0 && text[i - 1] == b'=')
        .map(|i| i - 1)
}

/// Whether an encoded word of `value` decodes to text with a colon: only
/// then can the decoded text hold a URL that the text as written does
/// not (a colon is every URL's trigger).
pub(crate) fn has_word_with_colon(value: &[u8]) -> bool {
    let mut colon = false;
    walk(value, |p| {
        if let Piece::Word(_, t) = p {
            colon = t.contains(&b':');
        }
        !colon
    });
    colon
}

/// Decodes the encoded words of `value` into `out`, and records in `map`
/// where each decoded byte came from: text as written is copied, a
/// decoded word maps to all of its encoded bytes (so a URL found in it
/// starts at the word's `=?`), blanks between two words are dropped.
pub(crate) fn decode_mapped(value: &[u8], out: &mut Vec<u8>, map: &mut Map) {
    walk(value, |p| {
        match p {
            Piece::Raw(s) => {
                map.copy(out.len(), s.start, s.end - s.start);
                out.extend_from_slice(&value[s.start..s.end]);
            }
            Piece::Word(s, text) => {
                map.unit(out.len(), s.start, s.end - s.start);
                out.extend_from_slice(text);
            }
            Piece::Gap => {}
        }
        true
    });
}

/// An unstructured field value (RFC 5322 §3.2.5, `Subject`, a display
/// name) as a reader sees it: unfolded (§2.2.3: a line break before a
/// blank is removed), encoded words decoded, blanks at both ends
/// trimmed. Text as written that is not UTF-8 is read as `windows-1252`
/// (raw 8-bit headers of old archives are mostly Latin-1).
pub fn decode_text(value: &[u8]) -> String {
    // Most values are one line of UTF-8 with no encoded word: trimmed,
    // they are the answer (the general path costs a few allocations).
    if memchr::memchr3(b'?', b'\r', b'\n', value).is_none() {
        if let Ok(s) = std::str::from_utf8(value) {
            return trim(s).to_string();
        }
    }
    // Built as bytes, each piece UTF-8, and checked once as a whole.
    let mut out = Vec::with_capacity(value.len());
    walk(value, |p| {
        match p {
            Piece::Raw(s) => push_raw(&mut out, &value[s.start..s.end]),
            Piece::Word(_, text) => out.extend_from_slice(text),
            Piece::Gap => {}
        }
        true
    });
    let out = String::from_utf8(out).unwrap_or_else(|e| {
        String::from_utf8_lossy(e.as_bytes()).into_owned()
    });
    let t = trim(&out);
    if t.len() == out.len() {
        return out;
    }
    t.to_string()
}

/// `s.trim()` (Unicode `White_Space` at both ends), ASCII first: a
/// character-by-character trim was a tenth of the metadata's cost.
fn trim(s: &str) -> &str {
    // The ASCII characters of `White_Space`: tab, line feed, vertical
    // tab, form feed, carriage return, space.
    let blank = |c: &u8| matches!(c, b'\t'..=b'\r' | b' ');
    let b = s.as_bytes();
    let start = b.iter().position(|c| !blank(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !blank(c)).map_or(start, |i| i + 1);
    // ASCII bytes are character boundaries.
    let t = s.get(start..end).unwrap_or_default();
    let tb = t.as_bytes();
    if tb.first().is_some_and(|&c| c >= 0x80)
        || tb.last().is_some_and(|&c| c >= 0x80)
    {
        // Other blanks (U+00A0, U+3000, ...) are not ASCII.
        t.trim()
    } else {
        t
    }
}

/// Appends header text as written, unfolded, to `out`, as UTF-8.
fn push_raw(out: &mut Vec<u8>, raw: &[u8]) {
    let text: Cow<'_, [u8]> = match std::str::from_utf8(raw) {
        Ok(_) => Cow::Borrowed(raw),
        // Not `decode`: that reads FE FF or FF FE as a UTF-16 BOM.
        Err(_) => {
            match encoding_rs::WINDOWS_1252.decode_without_bom_handling(raw).0
            {
                Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
                Cow::Owned(s) => Cow::Owned(s.into_bytes()),
            }
        }
    };
    // In UTF-8, the bytes of CR and LF are those characters only.
    for part in text.split(|&b| b == b'\r' || b == b'\n') {
        out.extend_from_slice(part);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_is_str_trim() {
        for s in [
            "",
            " ",
            "a",
            " a b ",
            "\t\x0b\x0c\r\n a\x0b",
            "\u{a0}a\u{3000}",
            " \u{a0} a \u{85}",
            "é ",
            " \u{2028}",
            "\x1c a \x1f",
        ] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
        }
    }

    #[test]
    fn q_and_b_words() {
        assert_eq!(
            decode_text(b"=?utf-8?q?caf=C3=A9_au_lait?="),
            "café au lait"
        );
        assert_eq!(decode_text(b"=?UTF-8?B?Y2Fmw6k=?="), "café");
        // Padding missing.
        assert_eq!(decode_text(b"=?UTF-8?B?Y2Fmw6k?="), "café");
        assert_eq!(decode_text(b"=?iso-8859-1?Q?caf=E9?="), "café");
        assert_eq!(decode_text(b"=?koi8-r?B?8NLJ18XU?="), "Привет");
        // RFC 2231 language.
        assert_eq!(decode_text(b"=?utf-8*en?q?hi?="), "hi");
    }

    #[test]
    fn a_byte_order_mark_is_text_of_the_charset() {
        // Issue 33.7: `Encoding::decode` read FE FF as a UTF-16 BOM.
        assert_eq!(
            decode_text(b"=?iso-8859-1?q?=FE=FFhttp://latin.example/?="),
            "\u{fe}\u{ff}http://latin.example/"
        );
        assert_eq!(decode_text(b"=?iso-8859-1?b?//5h?="), "\u{ff}\u{fe}a");
        // UTF-8's BOM is kept as U+FEFF, as Python keeps it.
        assert_eq!(decode_text(b"=?utf-8?q?=EF=BB=BFa?="), "\u{feff}a");
        // Raw 8-bit text read as windows-1252.
        assert_eq!(decode_text(b"\xfe\xffab\xe9"), "\u{fe}\u{ff}ab\u{e9}");
    }

    #[test]
    fn blanks_between_words_are_ignored() {
        // RFC 2047 §8's examples.
        assert_eq!(decode_text(b"(=?ISO-8859-1?Q?a?=)"), "(a)");
        assert_eq!(decode_text(b"(=?ISO-8859-1?Q?a?= b)"), "(a b)");
        assert_eq!(
            decode_text(b"(=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=)"),
            "(ab)"
        );
        assert_eq!(
            decode_text(b"(=?ISO-8859-1?Q?a?=\r\n    =?ISO-8859-1?Q?b?=)"),
            "(ab)"
        );
        assert_eq!(decode_text(b"(=?ISO-8859-1?Q?a_b?=)"), "(a b)");
    }

    #[test]
    fn not_words_stay_as_written() {
        assert_eq!(decode_text(b"a =? b ?= c"), "a =? b ?= c");
        assert_eq!(decode_text(b"=?utf-8?x?abc?="), "=?utf-8?x?abc?=");
        assert_eq!(decode_text(b"=?utf-8?b?!!!?="), "=?utf-8?b?!!!?=");
        assert_eq!(decode_text(b"=??q?abc?="), "=??q?abc?=");
        // A word does not run over a line break.
        assert_eq!(decode_text(b"=?utf-8?q?a\r\n b?="), "=?utf-8?q?a b?=");
        // Unfolding removes the line break, not the blanks (RFC 5322
        // §2.2.3).
        assert_eq!(decode_text(b" plain \r\n text "), "plain  text");
        assert_eq!(decode_text(b"caf\xe9"), "café");
    }

    #[test]
    fn mapped_decoding_points_at_the_word() {
        let v = b"see =?utf-8?q?http://a.example/=C3=A9?= now";
        let (mut out, mut map) = (Vec::new(), Map::default());
        decode_mapped(v, &mut out, &mut map);
        assert_eq!(out, "see http://a.example/é now".as_bytes());
        let word = (4, v.len() - 4);
        assert_eq!(map.range(4, 10), word);
        assert_eq!(map.range(0, 3), (0, 3));
        assert!(has_word_with_colon(v) && word_starts(v).next().is_some());
        assert_eq!(word_starts(b"?a=b? =").count(), 0);
        assert_eq!(word_starts(b"x=?a=?").collect::<Vec<_>>(), [1, 4]);
        assert!(!has_word_with_colon(b"=?utf-8?q?no_colon?= http://x"));
        assert!(!has_word_with_colon(b"http://x/?a=?b"));
    }

    #[test]
    fn words_of_one_line_are_read_in_linear_time() {
        // Issue 33.4: each word searched to the end of its line. The
        // searches now examine each byte at most once each, for good
        // words, words never closed, and bad base64 that holds the next
        // word's start.
        for (word, n) in [
            (&b"=?utf-8?q?http://w.example/?= "[..], 20_000),
            (b"=?utf-8?q?x ", 20_000),
            (b"=?a?b?x=?a?b?x", 20_000),
        ] {
            let mut value = word.repeat(n);
            value.extend_from_slice(b"?=\r\n tail");
            let mut p = 0;
            let examined = walk(&value, |_| {
                p += 1;
                true
            })
            .examined;
            assert!(p > 0);
            assert!(examined <= 2 * value.len(), "{examined} {}", value.len());
        }
        let v = b"=?utf-8?q?a?= =?utf-8?q?b?=".repeat(20_000);
        assert_eq!(decode_text(&v), "ab".repeat(20_000));
    }

    #[test]
    fn q_hex_reads_as_from_str_radix() {
        for hi in 0..=255u8 {
            for lo in 0..=255u8 {
                let h = [hi, lo];
                let want = std::str::from_utf8(&h)
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                assert_eq!(q_hex(&h), want, "{h:?}");
            }
        }
    }

    #[test]
    fn in_charset_is_the_charset_decoder() {
        let labels = [
            "utf-8",
            "iso-8859-1",
            "utf-16",
            "utf-16be",
            "iso-2022-jp",
            "iso-2022-kr",
            "shift_jis",
            "koi8-r",
            "gb18030",
            "x-unknown",
        ];
        let texts: [&[u8]; 7] = [
            b"",
            b"plain ascii",
            b"\x1b$B",
            b"caf\xc3\xa9",
            b"caf\xe9",
            b"\xfe\xff\x00a",
            b"\xef\xbb\xbfa",
        ];
        for label in labels {
            let enc = encoding_rs::Encoding::for_label(label.as_bytes());
            for t in texts {
                let want = match enc {
                    Some(e) => e.decode_without_bom_handling(t).0,
                    None => String::from_utf8_lossy(t),
                };
                assert_eq!(
                    in_charset(t, enc),
                    want.as_bytes(),
                    "{label} {t:?}"
                );
            }
        }
    }

    #[test]
    fn words_written_alike_look_up_their_charset_once() {
        // Issue 33.4's repro (200,000 words on one line) cost 15x ordinary
        // mail a byte: among others, a charset looked up by name for each
        // word, and the line's words read three times over.
        for v in [
            b"=?utf-8?q?a:b/cd?= ".repeat(20_000),
            b" =?utf-8?q?a:b/cd?=\r\n".repeat(20_000),
            b"=?utf-8?q?a:b/cd?= x =?utf-8?b?YTpi?=\r\n ".repeat(20_000),
        ] {
            let mut words = 0;
            let w = walk(&v, |p| {
                words += usize::from(matches!(p, Piece::Word(..)));
                true
            });
            assert!(words >= 20_000, "{words}");
            assert_eq!(w.lookups, 1);
        }
        let v = b"=?utf-8?q?a:b/cd?= ".repeat(20_000);
        assert_eq!(decode_text(&v), "a:b/cd".repeat(20_000));
        let mixed = b"=?utf-8?q?a?= =?koi8-r?q?b?= ".repeat(10);
        assert_eq!(walk(&mixed, |_| true).lookups, 20);
    }

    #[test]
    fn same_head_is_slice_equality() {
        let a: Vec<u8> = (b'a'..=b'z').collect();
        for n in 0..=a.len() {
            for m in 0..=a.len() {
                assert_eq!(same_head(&a[..n], &a[..m]), n == m);
            }
            for i in 0..n {
                let mut b = a[..n].to_vec();
                b[i] ^= 1;
                assert!(!same_head(&a[..n], &b), "{n} {i}");
            }
        }
    }

    #[test]
    fn no_panic_on_fragments() {
        for v in [
            &b"=?"[..],
            b"=?a",
            b"=?a?",
            b"=?a?q",
            b"=?a?q?",
            b"=?a?q?=",
            b"=?a?q?=",
        ] {
            let _ = decode_text(v);
            let (mut out, mut map) = (Vec::new(), Map::default());
            decode_mapped(v, &mut out, &mut map);
        }
    }
}
