//! The one escaping rule for everything urlgrep prints that is not a
//! validated URL: file paths, `--source` names, Message-IDs, rejected
//! candidates, error messages.
//!
//! Such text may hold any byte. Printed raw, a file named
//! `e\x1b]0;pwned\x07\nforged.txt:mailto:ceo@evil.example` would set the
//! terminal's title and forge an output line of its own, and a right-to-left
//! override (U+202E) would show `…gpj.exe` as `…exe.jpg`. So these
//! characters are *unsafe*:
//!
//! - the C0 controls U+0000–U+001F (tab and newline included) and DEL;
//! - the C1 controls U+0080–U+009F (U+009B is CSI on a terminal);
//! - the bidirectional formatting characters of RFC 3987 §4.1 and
//!   Unicode's isolates: U+200E, U+200F, U+061C, U+202A–U+202E,
//!   U+2066–U+2069.
//!
//! Plain output ([`text`]) percent-encodes each byte of an unsafe
//! character, each byte that is not UTF-8, and `%` itself (`%25`), and
//! keeps everything else: the result is printable UTF-8 on one line, and
//! [`unescape`] gives the original bytes back, so `100%.txt` prints as
//! `100%25.txt` and a name can always be reopened. A URL that passed
//! validation holds none of these characters (the parser refuses them) and
//! is printed as it is ([`url`]); should one ever hold one, it gets the same
//! rule.
//!
//! JSON output ([`write_json`]) escapes the same characters with `\u`
//! escapes, which a JSON parser reverses exactly; text that is not UTF-8 is
//! percent-encoded by [`json_text`] (`%` included) and flagged, so that the
//! flag tells a consumer to [`unescape`] it.
//!
//! With NUL-separated output (`-0`, not built yet) names would stay raw:
//! NUL separation is the safe channel for programs.

use serde::Serialize;
use std::borrow::Cow;
use std::io;

/// Whether `c` is printed escaped: a C0 or C1 control, DEL, or a
/// bidirectional formatting character (see the module docs).
///
/// ```
/// use urlgrep::output::escape::is_unsafe;
/// assert!(is_unsafe('\u{1b}') && is_unsafe('\u{9b}') && is_unsafe('\u{202e}'));
/// assert!(!is_unsafe('é') && !is_unsafe('%'));
/// ```
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200E}'
                | '\u{200F}'
                | '\u{061C}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
        )
}

/// Whether `bytes` is printable as it is: UTF-8 without an unsafe
/// character. Printable ASCII, what nearly all text here is, is settled
/// without decoding.
#[inline]
fn is_clean(bytes: &[u8]) -> bool {
    is_printable_ascii(bytes) || is_clean_utf8(bytes)
}

/// [`is_clean`] of text that is not all printable ASCII: decoded. Out of
/// line, so that the ASCII test, the common case, saves no registers
/// for it (a quarter of `is_clean`'s instructions were its entry and exit).
#[inline(never)]
fn is_clean_utf8(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(s) => !s.chars().any(is_unsafe),
        Err(_) => false,
    }
}

/// Whether every byte of `bytes` is printable ASCII (0x20 to 0x7E), eight
/// bytes at a time with no early exit. URLs are short (about 40 bytes):
/// the byte fold this replaces was made vector code whose set-up and
/// tail cost 98 instructions a URL (callgrind, `--find all` on the first
/// 8 MB of the spool).
#[inline]
fn is_printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    // A byte is outside when its high bit is set (0x80 and up), when
    // adding 1 sets it (0x7F), or when subtracting 0x20 borrows from a
    // byte whose high bit was clear (below 0x20). A carry or borrow only
    // crosses into the next byte from a byte that is itself outside, so
    // "any byte outside" is exact.
    let outside = |w: u64| {
        (w | w.wrapping_add(ONES) | (w.wrapping_sub(0x20 * ONES) & !w)) & HIGH
    };
    let word =
        |w: &[u8]| <[u8; 8]>::try_from(w).map_or(HIGH, u64::from_ne_bytes);
    let Some(tail) = bytes.len().checked_sub(8) else {
        return bytes.iter().all(|&b| (0x20..0x7F).contains(&b));
    };
    // The last eight bytes, read again where they overlap the words: no
    // copy of a short tail (a `memcpy` call).
    let mut acc = outside(bytes.get(tail..).map_or(HIGH, word));
    for w in bytes.chunks_exact(8) {
        acc |= outside(word(w));
    }
    acc == 0
}

fn push_percent(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    out.push(b'%');
    out.push(HEX[usize::from(b >> 4)]);
    out.push(HEX[usize::from(b & 0xF)]);
}

/// `bytes` for plain output and stderr: unsafe characters, bytes that are
/// not UTF-8, and `%` percent-encoded byte by byte; borrowed when nothing
/// needs it. [`unescape`] reverses it.
///
/// ```
/// use urlgrep::output::escape::text;
/// assert_eq!(&*text(b"a.txt"), b"a.txt");
/// assert_eq!(&*text(b"e\x1b]0;x\x07\nf"), b"e%1B]0;x%07%0Af");
/// assert_eq!(&*text(b"caf\xe9 100%"), b"caf%E9 100%25");
/// assert_eq!(&*text("a\u{202e}b".as_bytes()), b"a%E2%80%AEb");
/// ```
pub fn text(bytes: &[u8]) -> Cow<'_, [u8]> {
    if !bytes.contains(&b'%') && is_clean(bytes) {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let mut buf = [0u8; 4];
            let enc = c.encode_utf8(&mut buf).as_bytes();
            if c == '%' || is_unsafe(c) {
                for &b in enc {
                    push_percent(&mut out, b);
                }
            } else {
                out.extend_from_slice(enc);
            }
        }
        for &b in chunk.invalid() {
            push_percent(&mut out, b);
        }
    }
    Cow::Owned(out)
}

/// [`text`] of a string, as a string (for messages).
pub fn text_str(s: &str) -> Cow<'_, str> {
    match text(s.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(s),
        // `text` writes only ASCII escapes and whole UTF-8 characters.
        Cow::Owned(v) => Cow::Owned(String::from_utf8_lossy(&v).into_owned()),
    }
}

/// A URL that passed validation, for plain output: as it is (it holds no
/// unsafe character), or, should it hold one, escaped by [`text`].
pub fn url(bytes: &[u8]) -> Cow<'_, [u8]> {
    if is_clean(bytes) {
        Cow::Borrowed(bytes)
    } else {
        text(bytes)
    }
}

/// A name the statistics counted (a host, scheme, TLD, period: any key
/// of a partial, which `urlgrep merge` reads from a file), for plain
/// output: as it is when it holds no unsafe character (as a URL is, by
/// [`url`]), otherwise escaped by [`text`].
///
/// ```
/// use urlgrep::output::escape::name;
/// assert_eq!(name("a.example"), "a.example");
/// assert_eq!(name("e\x1b]0;x\x07\u{202e}"), "e%1B]0;x%07%E2%80%AE");
/// ```
pub fn name(s: &str) -> Cow<'_, str> {
    match url(s.as_bytes()) {
        Cow::Borrowed(_) => Cow::Borrowed(s),
        // `text` writes only ASCII escapes and whole UTF-8 characters.
        Cow::Owned(v) => Cow::Owned(String::from_utf8_lossy(&v).into_owned()),
    }
}

/// The bytes [`text`] (or a flagged [`json_text`]) was made from: every
/// `%` followed by two hex digits is decoded, anything else kept.
///
/// ```
/// use urlgrep::output::escape::{text, unescape};
/// let name = b"caf\xe9\n100%25\x9b";
/// assert_eq!(unescape(&text(name)), name);
/// ```
pub fn unescape(escaped: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(escaped.len());
    let mut i = 0;
    while let Some(&b) = escaped.get(i) {
        if b == b'%' {
            let hi = escaped.get(i + 1).and_then(|&h| hex(h));
            let lo = escaped.get(i + 2).and_then(|&l| hex(l));
            if let (Some(hi), Some(lo)) = (hi, lo) {
                // Two hex digits: at most 0xFF.
                out.push((hi * 16 + lo) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b);
        i += 1;
    }
    out
}

/// `bytes` as a JSON string value: UTF-8 as it is (the JSON writer
/// escapes unsafe characters with `\u`), and `false`; otherwise bytes
/// that are not UTF-8 and `%` percent-encoded, and `true`: the flag tells
/// a consumer to [`unescape`] the text to get the bytes back.
///
/// ```
/// use urlgrep::output::escape::json_text;
/// assert_eq!(json_text(b"caf%E9"), ("caf%E9".into(), false));
/// assert_eq!(json_text(b"caf\xe9 %"), ("caf%E9 %25".into(), true));
/// ```
pub fn json_text(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(s), false);
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '%' {
                out.push_str("%25");
            } else {
                out.push(c);
            }
        }
        for &b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    (Cow::Owned(out), true)
}

/// A JSON formatter that also writes unsafe characters as `\u` escapes
/// (serde_json itself escapes only the C0 controls, `"` and `\`).
#[derive(Clone, Debug, Default)]
pub struct SafeFormatter<F>(pub F);

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter
    for SafeFormatter<F>
{
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Nearly every string is ASCII without DEL: nothing to look for
        // (serde_json escapes the C0 controls before it gets here).
        if fragment.bytes().fold(0u8, |acc, b| acc | u8::from(b >= 0x7f)) == 0
        {
            return self.0.write_string_fragment(w, fragment);
        }
        let mut rest = fragment;
        while let Some((i, c)) =
            rest.char_indices().find(|&(_, c)| is_unsafe(c))
        {
            let (clean, after) = rest.split_at(i);
            self.0.write_string_fragment(w, clean)?;
            // Every unsafe character is in the Basic Multilingual Plane:
            // one `\uXXXX` each.
            write!(w, "\\u{:04x}", u32::from(c))?;
            rest = after.get(c.len_utf8()..).unwrap_or_default();
        }
        self.0.write_string_fragment(w, rest)
    }

    // The other methods are the wrapped formatter's.
    fn begin_array<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
    ) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
    ) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
    ) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
    ) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
    ) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
    ) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
    ) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Writes `value` as one line of compact JSON with unsafe characters
/// `\u`-escaped (no newline).
pub fn write_json<W: io::Write, T: Serialize + ?Sized>(
    w: W,
    value: &T,
) -> serde_json::Result<()> {
    let fmt = SafeFormatter(serde_json::ser::CompactFormatter);
    value.serialize(&mut serde_json::Serializer::with_formatter(w, fmt))
}

/// [`write_json`], indented.
pub fn write_json_pretty<W: io::Write, T: Serialize + ?Sized>(
    w: W,
    value: &T,
) -> serde_json::Result<()> {
    let fmt = SafeFormatter(serde_json::ser::PrettyFormatter::new());
    value.serialize(&mut serde_json::Serializer::with_formatter(w, fmt))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive_printable(bytes: &[u8]) -> bool {
        bytes.iter().all(|&b| (0x20..0x7F).contains(&b))
    }

    /// Every byte value at every place of the words and the tail, next
    /// to printable bytes at both ends of the range (a borrow or carry
    /// from one byte into its neighbour must not hide or fake a find).
    #[test]
    fn printable_ascii_is_exact_for_each_byte_and_place() {
        for fill in [b' ', b'~', b'a'] {
            for len in 1..=24 {
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut v = vec![fill; len];
                        v[at] = b;
                        assert_eq!(
                            is_printable_ascii(&v),
                            naive_printable(&v),
                            "{v:?}"
                        );
                    }
                }
            }
        }
        assert!(is_printable_ascii(b""));
    }

    proptest! {
        #[test]
        fn printable_ascii_is_the_byte_test(v in proptest::collection::vec(any::<u8>(), 0..40)) {
            prop_assert_eq!(is_printable_ascii(&v), naive_printable(&v));
        }
    }

    const UNSAFE: [char; 14] = [
        '\0', '\n', '\u{1b}', '\u{7f}', '\u{80}', '\u{9b}', '\u{9f}',
        '\u{200e}', '\u{200f}', '\u{061c}', '\u{202a}', '\u{202e}',
        '\u{2066}', '\u{2069}',
    ];

    #[test]
    fn every_unsafe_character_is_escaped_in_text_and_json() {
        for c in UNSAFE {
            let s = format!("a{c}b");
            let t = text(s.as_bytes());
            assert!(t.iter().all(|b| (0x20..0x7f).contains(b)), "{c:?}");
            assert_eq!(unescape(&t), s.as_bytes());
            let mut j = Vec::new();
            write_json(&mut j, &s).unwrap();
            let j = String::from_utf8(j).unwrap();
            assert!(j.is_ascii(), "{c:?}: {j}");
            assert_eq!(serde_json::from_str::<String>(&j).unwrap(), s);
        }
        for c in ['é', '\u{a0}', '\u{2010}', '\u{202f}', '\u{2065}', '😀'] {
            assert!(!is_unsafe(c), "{c:?}");
            let s = format!("a{c}b");
            assert_eq!(&*text(s.as_bytes()), s.as_bytes());
        }
    }

    #[test]
    fn text_is_reversible_and_borrowed_when_clean() {
        assert!(matches!(text(b"plain/name.txt"), Cow::Borrowed(_)));
        assert!(matches!(text("caf\u{e9}".as_bytes()), Cow::Borrowed(_)));
        for name in [&b"caf\xe9.txt"[..], b"caf%E9.txt", b"%", b"%%41\xff"] {
            assert_eq!(unescape(&text(name)), name);
        }
        assert_ne!(text(b"caf\xe9.txt"), text(b"caf%E9.txt"));
        assert_eq!(&*url(b"http://a.b/%41"), b"http://a.b/%41");
        assert_eq!(&*url(b"http://a.b/\x1b"), b"http://a.b/%1B");
    }

    #[test]
    fn json_text_flags_what_it_encoded() {
        let (a, fa) = json_text(b"caf\xe9.txt");
        let (b, fb) = json_text(b"caf%E9.txt");
        assert_eq!((a.as_ref(), fa), ("caf%E9.txt", true));
        assert_eq!((b.as_ref(), fb), ("caf%E9.txt", false));
        assert_eq!(unescape(json_text(b"a%\xe9").0.as_bytes()), b"a%\xe9");
    }

    #[test]
    fn pretty_json_escapes_keys_too() {
        let v = serde_json::json!({ "k\u{202e}": ["\u{9b}"] });
        let mut j = Vec::new();
        write_json_pretty(&mut j, &v).unwrap();
        let j = String::from_utf8(j).unwrap();
        assert!(j.contains("k\\u202e") && j.contains("\\u009b"), "{j}");
    }
}
