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

/// One piece of a field value: text as written, or a decoded word.
enum Piece {
    Raw(Span),
    Word(Span, String),
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

/// The encoded word that starts at `value[at..]` (which starts with
/// `=?`): its end and its decoded text. Asked for `at`s in increasing
/// order, with one `scout` for the value.
fn word_at(
    value: &[u8],
    at: usize,
    scout: &mut Scout,
) -> Option<(usize, String)> {
    let rest = value.get(at + 2..)?;
    // Reads at most to the `?` of the next `=?`: linear over all `at`s.
    let q1 = memchr::memchr(b'?', rest)?;
    let charset = &rest[..q1];
    if charset.is_empty()
        || charset.iter().any(|&b| b <= b' ' || b >= 0x7f || b == b'=')
    {
        return None;
    }
    let enc = *rest.get(q1 + 1)?;
    if rest.get(q1 + 2) != Some(&b'?') {
        return None;
    }
    // The text starts after `=?charset?e?`; for increasing `at` its start
    // never goes back (it follows the first `?` after `at + 2`).
    let text_start = at + 2 + q1 + 3;
    let line = scout
        .line_end
        .next(value, text_start, |t| memchr::memchr2(b'\r', b'\n', t));
    let close = scout
        .close
        .next(value, text_start, |t| memchr::memmem::find(t, b"?="));
    // `?=` holds no line break: starting before the line's end, it ends
    // before it too.
    if close >= line {
        return None;
    }
    let text = value.get(text_start..close)?;
    let bytes: Cow<'_, [u8]> = match enc {
        b'Q' | b'q' => Cow::Owned(q_decode(text)),
        b'B' | b'b' => {
            // A byte outside base64 fails the word before a buffer the
            // size of the text is made: the text of a word that fails
            // may hold the next `=?`, and is read again from there.
            if text.iter().any(|&b| !is_base64(b)) {
                return None;
            }
            Cow::Owned(LENIENT.decode(text).ok()?)
        }
        _ => return None,
    };
    let end = close + 2;
    // RFC 2231 §5: `charset*language`.
    let label = charset.split(|&b| b == b'*').next().unwrap_or(charset);
    // The charset decides, never a byte order mark in the text: a
    // Latin-1 word may begin with `þÿ` (FE FF), which `decode` would
    // take for UTF-16 (RFC 2047 §2: the charset names the text's).
    let decoded = match encoding_rs::Encoding::for_label(label) {
        Some(e) => e.decode_without_bom_handling(&bytes).0.into_owned(),
        None => String::from_utf8_lossy(&bytes).into_owned(),
    };
    Some((end, decoded))
}

/// A byte of RFC 2045 §6.8's base64 alphabet, or its pad `=`.
fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=')
}

/// RFC 2047 §4.2: the `Q` encoding.
fn q_decode(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'_' => out.push(b' '),
            b'=' => {
                let hex = text.get(i + 1..i + 3).and_then(|h| {
                    let h = std::str::from_utf8(h).ok()?;
                    u8::from_str_radix(h, 16).ok()
                });
                if let Some(v) = hex {
                    out.push(v);
                    i += 3;
                    continue;
                }
                out.push(b'=');
            }
            _ => out.push(b),
        }
        i += 1;
    }
    out
}

/// The pieces of `value`, in order.
fn pieces(value: &[u8]) -> Vec<Piece> {
    pieces_examined(value).0
}

/// The pieces of `value`, and the bytes examined searching for line ends
/// and closers (at most the value's length each).
fn pieces_examined(value: &[u8]) -> (Vec<Piece>, usize) {
    let mut out: Vec<Piece> = Vec::new();
    let mut scout = Scout::new();
    let mut plain = 0;
    let mut pos = 0;
    while let Some(k) = memchr::memmem::find(&value[pos..], b"=?") {
        let at = pos + k;
        let Some((end, text)) = word_at(value, at, &mut scout) else {
            pos = at + 1;
            continue;
        };
        if plain < at {
            let between = &value[plain..at];
            let after_word = matches!(out.last(), Some(Piece::Word(..)));
            if after_word && between.iter().all(u8::is_ascii_whitespace) {
                out.push(Piece::Gap);
            } else {
                out.push(Piece::Raw(Span { start: plain, end: at }));
            }
        }
        out.push(Piece::Word(Span { start: at, end }, text));
        plain = end;
        pos = end;
    }
    if plain < value.len() {
        out.push(Piece::Raw(Span { start: plain, end: value.len() }));
    }
    (out, scout.line_end.examined + scout.close.examined)
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
    pieces(value)
        .iter()
        .any(|p| matches!(p, Piece::Word(_, t) if t.contains(':')))
}

/// Decodes the encoded words of `value` into `out`, and records in `map`
/// where each decoded byte came from: text as written is copied, a
/// decoded word maps to all of its encoded bytes (so a URL found in it
/// starts at the word's `=?`), blanks between two words are dropped.
pub(crate) fn decode_mapped(value: &[u8], out: &mut Vec<u8>, map: &mut Map) {
    for p in pieces(value) {
        match p {
            Piece::Raw(s) => {
                map.copy(out.len(), s.start, s.end - s.start);
                out.extend_from_slice(&value[s.start..s.end]);
            }
            Piece::Word(s, text) => {
                map.unit(out.len(), s.start, s.end - s.start);
                out.extend_from_slice(text.as_bytes());
            }
            Piece::Gap => {}
        }
    }
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
    let mut out = String::with_capacity(value.len());
    for p in pieces(value) {
        match p {
            Piece::Raw(s) => push_raw(&mut out, &value[s.start..s.end]),
            Piece::Word(_, text) => out.push_str(&text),
            Piece::Gap => {}
        }
    }
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

/// Appends header text as written, unfolded, to `out`.
fn push_raw(out: &mut String, raw: &[u8]) {
    let text = match std::str::from_utf8(raw) {
        Ok(s) => Cow::Borrowed(s),
        // Not `decode`: that reads FE FF or FF FE as a UTF-16 BOM.
        Err(_) => encoding_rs::WINDOWS_1252.decode_without_bom_handling(raw).0,
    };
    for c in text.chars() {
        if c != '\r' && c != '\n' {
            out.push(c);
        }
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
            let (p, examined) = pieces_examined(&value);
            assert!(!p.is_empty());
            assert!(examined <= 2 * value.len(), "{examined} {}", value.len());
        }
        let v = b"=?utf-8?q?a?= =?utf-8?q?b?=".repeat(20_000);
        assert_eq!(decode_text(&v), "ab".repeat(20_000));
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
