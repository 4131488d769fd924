//! Character classes as `const` byte tables, each built from the named sets
//! of its RFC, with the ABNF beside it; and the two lexical rules every
//! component shares: `pct-encoded` and the UTF-8 code points of RFC 3987.
//!
//! `%` is in no table: [`run`] handles escapes itself, so a table says which
//! *unescaped* bytes a component may hold.

use super::Reject;

/// A byte class: `TABLE[b as usize]` is true when `b` is in the class.
pub(crate) type Class = [bool; 256];

/// The class holding exactly `bytes`.
const fn set(bytes: &[u8]) -> Class {
    let mut t = [false; 256];
    let mut i = 0;
    while i < bytes.len() {
        t[bytes[i] as usize] = true;
        i += 1;
    }
    t
}

/// The class of the bytes `lo..=hi`.
const fn range(lo: u8, hi: u8) -> Class {
    let mut t = [false; 256];
    let mut i = lo as usize;
    while i <= hi as usize {
        t[i] = true;
        i += 1;
    }
    t
}

/// The union of two classes.
const fn or(a: Class, b: Class) -> Class {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = a[i] || b[i];
        i += 1;
    }
    t
}

/// `a` without the bytes of `b`.
const fn minus(a: Class, b: Class) -> Class {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = a[i] && !b[i];
        i += 1;
    }
    t
}

// ---------------------------------------------------------------------------
// RFC 5234 Appendix B.1 core rules.

/// `ALPHA = %x41-5A / %x61-7A`
pub(crate) const ALPHA: Class = or(range(b'A', b'Z'), range(b'a', b'z'));
/// `DIGIT = %x30-39`
pub(crate) const DIGIT: Class = range(b'0', b'9');
/// `ALPHA / DIGIT` (RFC 1738 §5 `alphadigit`).
pub(crate) const ALNUM: Class = or(ALPHA, DIGIT);

// ---------------------------------------------------------------------------
// RFC 3986 §2.

/// RFC 3986 §2.3:
/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`
pub(crate) const UNRESERVED: Class = or(ALNUM, set(b"-._~"));
/// RFC 3986 §2.2:
/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";"
/// / "="`
pub(crate) const SUB_DELIMS: Class = set(b"!$&'()*+,;=");
/// RFC 3986 §3.2.1: `userinfo = *( unreserved / pct-encoded / sub-delims /
/// ":" )`
pub(crate) const USERINFO: Class = or(or(UNRESERVED, SUB_DELIMS), set(b":"));
/// RFC 3986 §3.2.2: `reg-name = *( unreserved / pct-encoded / sub-delims )`
pub(crate) const REG_NAME: Class = or(UNRESERVED, SUB_DELIMS);
/// RFC 3986 §3.3: `pchar = unreserved / pct-encoded / sub-delims / ":" /
/// "@"`
pub(crate) const PCHAR: Class = or(REG_NAME, set(b":@"));
/// RFC 3986 §3.3: a whole path, `*( pchar / "/" )`.
pub(crate) const PATH: Class = or(PCHAR, set(b"/"));
/// RFC 3986 §3.4 and §3.5: `query = fragment = *( pchar / "/" / "?" )`
pub(crate) const QUERY: Class = or(PATH, set(b"?"));
/// [`PATH`] plus `[`, `]` and `|`, which RFC 3986 leaves out of paths but
/// real URLs in mail carry unescaped (`list[1]`, Google's `lang_en|lang_sv`)
/// and browsers accept (WHATWG): the default level takes them, so that the
/// balanced `[…]` the scanner keeps inside a bare URL (issue 2) is not
/// thrown away again here; the strict level does not.
pub(crate) const PATH_LAX: Class = or(PATH, set(b"[]|"));
/// [`QUERY`] plus `[`, `]` and `|`; see [`PATH_LAX`].
pub(crate) const QUERY_LAX: Class = or(QUERY, set(b"[]|"));
/// RFC 3986 §3.2.2: `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved /
/// sub-delims / ":" )`, the part after the dot.
pub(crate) const IPV_FUTURE: Class = USERINFO;

// ---------------------------------------------------------------------------
// RFC 1738 §5 (the strict level).

/// RFC 1738 §5: `safe = "$" | "-" | "_" | "." | "+"`
const SAFE_1738: Class = set(b"$-_.+");
/// RFC 1738 §5: `extra = "!" | "*" | "'" | "(" | ")" | ","`
const EXTRA_1738: Class = set(b"!*'(),");
/// RFC 1738 §5: `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="`
const RESERVED_1738: Class = set(b";/?:@&=");
/// RFC 1738 §5: `unreserved = alpha | digit | safe | extra`; with `escape`
/// this is `uchar = unreserved | escape`.
pub(crate) const UCHAR: Class = or(or(ALNUM, SAFE_1738), EXTRA_1738);
/// RFC 1738 §5: `xchar = unreserved | reserved | escape`
pub(crate) const XCHAR: Class = or(UCHAR, RESERVED_1738);
/// RFC 1738 §5: `user = password = *[ uchar | ";" | "?" | "&" | "=" ]`
pub(crate) const LOGIN_1738: Class = or(UCHAR, set(b";?&="));
/// RFC 1738 §5 (http): `hsegment = search = *[ uchar | ";" | ":" | "@" |
/// "&" | "=" ]`, plus the `/` between segments.
pub(crate) const HPATH_1738: Class = or(UCHAR, set(b";:@&=/"));
/// RFC 1738 §5 (http, wais): `search = *[ uchar | ";" | ":" | "@" | "&" |
/// "=" ]`
pub(crate) const SEARCH_1738: Class = or(UCHAR, set(b";:@&="));
/// RFC 1738 §5 (ftp, file, prospero): `fsegment = psegment = *[ uchar | "?"
/// | ":" | "@" | "&" | "=" ]`, plus the `/` between segments.
pub(crate) const FPATH_1738: Class = or(UCHAR, set(b"?:@&=/"));
/// RFC 1738 §5 (prospero): `fieldname = fieldvalue = *[ uchar | "?" | ":" |
/// "@" | "&" ]`
pub(crate) const FIELD_1738: Class = or(UCHAR, set(b"?:@&"));
/// RFC 1738 §5 (news): `article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" |
/// "=" ] "@" host`, the part before the `@`.
pub(crate) const ARTICLE_1738: Class = or(UCHAR, set(b";/?:&="));
/// RFC 1738 §5 (news): `group = alpha *[ alpha | digit | "-" | "." | "+" |
/// "_" ]`; also RFC 5538 §3 `group-char = ALPHA / DIGIT / "-" / "+" / "_" /
/// "."`.
pub(crate) const GROUP_CHAR: Class = or(ALNUM, set(b"-.+_"));
/// RFC 5538 §4: `newsgroups = *( group-char / pct-encoded / "*" )`
pub(crate) const NEWSGROUPS: Class = or(GROUP_CHAR, set(b"*"));

// ---------------------------------------------------------------------------
// RFC 6068 and RFC 5322 (mailto), RFC 5536 (message ids).

/// RFC 6068 §2: `qchar = unreserved / pct-encoded / some-delims`;
/// `some-delims = "!" / "$" / "'" / "(" / ")" / "*" / "+" / "," / ";" / ":"
/// / "@"`
pub(crate) const QCHAR: Class = or(UNRESERVED, set(b"!$'()*+,;:@"));
/// RFC 5322 §3.2.3: `atext = ALPHA / DIGIT / "!" / "#" / "$" / "%" / "&" /
/// "'" / "*" / "+" / "-" / "/" / "=" / "?" / "^" / "_" / "`" / "{" / "|" /
/// "}" / "~"`
pub(crate) const ATEXT: Class = or(ALNUM, set(b"!#$%&'*+-/=?^_`{|}~"));
/// RFC 5322 §3.2.4: `qtext = %d33 / %d35-91 / %d93-126`
pub(crate) const QTEXT: Class =
    or(or(set(b"!"), range(35, 91)), range(93, 126));
/// RFC 6068 §2: `dtext-no-obs = %d33-90 / %d94-126`
pub(crate) const DTEXT: Class = or(range(33, 90), range(94, 126));
/// RFC 5536 §3.1.3: `mdtext = %d33-61 / %d63-90 / %d94-126`
pub(crate) const MDTEXT: Class = minus(DTEXT, set(b">"));
/// RFC 5234 `VCHAR = %x21-7E` and `WSP = SP / HTAB`, the bytes a
/// `quoted-pair` (RFC 5322 §3.2.1) may escape.
pub(crate) const QUOTABLE: Class = or(range(0x21, 0x7e), set(b" \t"));

/// Which non-ASCII code points a component admits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Iri {
    /// None: URIs (RFC 3986) and RFC 1738.
    No,
    /// RFC 3987 §2.2 `ucschar`, in `iunreserved`.
    Ucs,
    /// `ucschar / iprivate`, in `iquery` only.
    Private,
}

/// The high bit of each of the eight bytes of `x` (little-endian lanes)
/// that is in `lo..=hi`, a word at a time. Every byte of `x` must be
/// below 0x80 (mask the word with 0x7F first): then no addition carries
/// out of its lane. `x + (0x80 - lo)` reaches the high bit when the byte
/// is at least `lo`, `x + (0x7F - hi)` when it is above `hi`.
#[inline(always)]
pub(crate) fn lanes_within(x: u64, lo: u8, hi: u8) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let at_least = x.wrapping_add(ONES * (0x80 - u64::from(lo)));
    let above = x.wrapping_add(ONES * (0x7F - u64::from(hi)));
    at_least & !above & HIGH
}

/// RFC 2234 `HEXDIG`, the value of one hex digit.
#[inline]
pub(crate) fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// RFC 3986 §2.1: `pct-encoded = "%" HEXDIG HEXDIG`, at `s[pos]` (the `%`);
/// the decoded byte.
#[inline]
pub(crate) fn pct_encoded(s: &[u8], pos: usize) -> Option<u8> {
    match s.get(pos..pos + 3) {
        Some([b'%', a, b]) => Some((hex_value(*a)? << 4) | hex_value(*b)?),
        _ => None,
    }
}

/// RFC 3987 §2.2: `ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF /
/// %x10000-1FFFD / … / %xD0000-DFFFD / %xE1000-EFFFD` and
/// `iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD`.
pub(crate) fn is_ucschar(c: u32, private: bool) -> bool {
    match c {
        0xa0..=0xd7ff | 0xf900..=0xfdcf | 0xfdf0..=0xffef => true,
        0xe000..=0xf8ff => private,
        0x1_0000..=0xd_ffff => c & 0xffff <= 0xfffd,
        0xe_1000..=0xe_fffd => true,
        0xf_0000..=0x10_ffff => private && c & 0xffff <= 0xfffd,
        _ => false,
    }
}

/// One UTF-8 encoded code point at `s[pos]` (a non-ASCII byte) that RFC
/// 3987 admits here; its length in bytes.
pub(crate) fn iri_char(s: &[u8], pos: usize, iri: Iri) -> Option<usize> {
    if iri == Iri::No {
        return None;
    }
    let len = match s.get(pos)? {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let bytes = s.get(pos..pos + len)?;
    let c = std::str::from_utf8(bytes).ok()?.chars().next()?;
    is_ucschar(u32::from(c), iri == Iri::Private).then_some(len)
}

/// The first position at or after `pos` whose byte is not in `class`
/// (`s.len()` if none).
#[inline]
pub(crate) fn skip(s: &[u8], mut pos: usize, class: &Class) -> usize {
    // Eight bytes at a time while all are in the class: the lookups are
    // and-ed, one branch per eight bytes.
    while let Some(chunk) = s.get(pos..pos + 8) {
        if !chunk.iter().fold(true, |ok, &b| ok & class[usize::from(b)]) {
            break;
        }
        pos += 8;
    }
    let tail = s.get(pos..).unwrap_or_default();
    match tail.iter().position(|&b| !class[usize::from(b)]) {
        None => s.len(),
        Some(n) => pos + n,
    }
}

/// Advances from `pos` over bytes of `class`, well-formed `pct-encoded`
/// escapes and the code points `iri` admits; returns where it stopped.
///
/// A `%` that does not start a well-formed escape is [`Reject::BadEscape`].
#[inline]
pub(crate) fn run(
    s: &[u8],
    mut pos: usize,
    class: &Class,
    iri: Iri,
) -> Result<usize, Reject> {
    // Pseudocode: skip the class with a tight loop; at the first byte
    // outside it, consume an escape or an IRI code point and go on, or stop.
    loop {
        pos = skip(s, pos, class);
        match s.get(pos) {
            Some(b'%') => {
                if pct_encoded(s, pos).is_none() {
                    return Err(Reject::BadEscape);
                }
                pos += 3;
            }
            Some(&b) if b >= 0x80 => match iri_char(s, pos, iri) {
                Some(n) => pos += n,
                None => return Ok(pos),
            },
            _ => return Ok(pos),
        }
    }
}

/// The whole of `s` is `*( class / pct-encoded / iri )`, else
/// [`Reject::BadCharacter`] (or [`Reject::BadEscape`]).
#[inline]
pub(crate) fn all(s: &[u8], class: &Class, iri: Iri) -> Result<(), Reject> {
    if run(s, 0, class, iri)? == s.len() {
        Ok(())
    } else {
        Err(Reject::BadCharacter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_follow_the_abnf() {
        assert!(UNRESERVED[usize::from(b'~')] && !UCHAR[usize::from(b'~')]);
        assert!(PCHAR[usize::from(b'@')] && !PCHAR[usize::from(b'/')]);
        assert!(QUERY[usize::from(b'?')] && !QUERY[usize::from(b'#')]);
        assert!(!QCHAR[usize::from(b'&')] && !QCHAR[usize::from(b'=')]);
        assert!(!MDTEXT[usize::from(b'>')] && MDTEXT[usize::from(b'<')]);
        assert!(!DTEXT[usize::from(b'[')] && !DTEXT[usize::from(b'\\')]);
        assert!(!QTEXT[usize::from(b'"')] && !QTEXT[usize::from(b'\\')]);
        for b in 0x80..=0xff {
            assert!(!PATH[b] && !XCHAR[b] && !ATEXT[b]);
        }
        for b in b"{}|\\^~[]`<>#%\"" {
            assert!(!XCHAR[usize::from(*b)], "{}", *b as char);
        }
    }

    #[test]
    fn escapes() {
        assert_eq!(pct_encoded(b"%2f", 0), Some(b'/'));
        assert_eq!(pct_encoded(b"%2", 0), None);
        assert_eq!(pct_encoded(b"%g0", 0), None);
        assert_eq!(run(b"a%20b/", 0, &PCHAR, Iri::No), Ok(5));
        assert_eq!(run(b"a%2", 0, &PCHAR, Iri::No), Err(Reject::BadEscape));
    }

    #[test]
    fn iri_code_points() {
        let s = "aé\u{e000}".as_bytes();
        assert_eq!(run(s, 0, &PCHAR, Iri::No), Ok(1));
        assert_eq!(run(s, 0, &PCHAR, Iri::Ucs), Ok(3));
        assert_eq!(run(s, 0, &PCHAR, Iri::Private), Ok(s.len()));
        // Not UTF-8, and a non-character (U+FFFE).
        assert_eq!(run(b"a\xe9", 0, &PCHAR, Iri::Ucs), Ok(1));
        assert_eq!(run("\u{fffe}".as_bytes(), 0, &PCHAR, Iri::Ucs), Ok(0));
        assert!(is_ucschar(0x1_0000, false) && !is_ucschar(0x1_fffe, false));
        assert!(!is_ucschar(0xe_0fff, false) && is_ucschar(0xe_1000, false));
        assert!(all(b"ab c", &PCHAR, Iri::No).is_err());
    }
}
