//! The `mailto` scheme: RFC 6068 §2 (default) and RFC 1738 §3.5 (strict),
//! with the `addr-spec` of RFC 5322 §3.4.1 checked on the percent-decoded
//! text, as RFC 6068 §2 asks.
//!
//! ```text
//! mailtoURI    = "mailto:" [ to ] [ hfields ]
//! to           = addr-spec *("," addr-spec )
//! hfields      = "?" hfield *( "&" hfield )
//! hfield       = hfname "=" hfvalue
//! addr-spec    = local-part "@" domain
//! local-part   = dot-atom-text / quoted-string
//! domain       = dot-atom-text / "[" *dtext-no-obs "]"
//! ```

use super::chars::{
    self, Iri, ATEXT, DTEXT, MDTEXT, QCHAR, QTEXT, QUOTABLE, XCHAR,
};
use super::Reject;

/// The parts of a `mailto` URL: the addresses and the header fields, raw
/// (still percent-encoded) slices of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mailto<'a> {
    to: &'a [u8],
    headers: Option<&'a [u8]>,
}

impl<'a> Mailto<'a> {
    /// The `to` part: the comma-separated addresses before any `?`.
    pub fn to(&self) -> &'a [u8] {
        self.to
    }

    /// The addresses of the `to` part, each a raw `addr-spec` (a `to=`
    /// header field is not included).
    pub fn addresses(&self) -> Addresses<'a> {
        Addresses { cur: Decoded::new(self.to) }
    }

    /// The text after `?`, if any.
    pub fn header_text(&self) -> Option<&'a [u8]> {
        self.headers
    }

    /// The header fields as raw `(hfname, hfvalue)` pairs.
    pub fn headers(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> {
        let text = self.headers.unwrap_or_default();
        text.split(|&b| b == b'&').filter(|_| !text.is_empty()).map(
            |f| match f.iter().position(|&b| b == b'=') {
                Some(i) => (
                    f.get(..i).unwrap_or(f),
                    f.get(i + 1..).unwrap_or_default(),
                ),
                None => (f, &[][..]),
            },
        )
    }
}

/// The addresses of a [`Mailto`], as raw slices.
#[derive(Clone, Debug)]
pub struct Addresses<'a> {
    cur: Decoded<'a>,
}

impl<'a> Iterator for Addresses<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let start = self.cur.pos;
        if start >= self.cur.raw.len() {
            return None;
        }
        addr_spec(&mut self.cur, true).ok()?;
        let addr = self.cur.raw.get(start..self.cur.pos)?;
        if self.cur.raw.get(self.cur.pos) == Some(&b',') {
            self.cur.pos += 1;
        }
        Some(addr)
    }
}

/// RFC 6068 §2: `mailtoURI = "mailto:" [ to ] [ hfields ]`, for the text
/// after `mailto:` and before any fragment; RFC 1738 §3.5
/// (`mailtourl = "mailto:" encoded822addr`, one address) when `strict`.
pub(crate) fn mailto(s: &[u8], strict: bool) -> Result<Mailto<'_>, Reject> {
    if strict {
        // RFC 1738 §5: encoded822addr = 1*xchar
        chars::all(s, &XCHAR, Iri::No)?;
        let mut cur = Decoded::new(s);
        addr_spec(&mut cur, false)?;
        return if cur.pos == s.len() {
            Ok(Mailto { to: s, headers: None })
        } else {
            Err(Reject::BadMailto)
        };
    }
    let (to, headers) = match s.iter().position(|&b| b == b'?') {
        Some(i) => (s.get(..i).unwrap_or(s), s.get(i + 1..)),
        None => (s, None),
    };
    to_part(to)?;
    if let Some(h) = headers {
        hfields(h)?;
    }
    Ok(Mailto { to, headers })
}

/// `atext` (RFC 5322 §3.2.3) that is also a `qchar` (RFC 6068 §2), `%`
/// and `.` excluded: `ALPHA / DIGIT / "!" / "$" / "'" / "*" / "+" / "-" /
/// "_" / "~"`, the bytes of a plain atom.
const PLAIN_ATEXT: chars::Class = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = ATEXT[b] && QCHAR[b] && b != b'.' as usize;
        b += 1;
    }
    t
};

/// The common shape of a default-level mailto URL in one pass:
/// `local@domain` with both sides `dot-atom-text` of [`PLAIN_ATEXT`],
/// then optionally `?` and `hfname=hfvalue` fields of plain `qchar`s
/// joined by `&`; `s` is the text after `mailto:`. Returns the parts and
/// where the `#` of a fragment is (or `s.len()`).
///
/// Every text it accepts [`mailto`] accepts with the same parts: a plain
/// atom is both `qchar`s (so `to_part`'s class check passes) and `atext`
/// (so `addr_spec` reads the same atoms), and no `%` means no escape to
/// decode. On anything else (escapes, non-ASCII, quoted strings, domain
/// literals, several addresses, a malformed field) it returns `None` and
/// the caller takes the general route, which gives the verdict.
pub(crate) fn plain(s: &[u8]) -> Option<(Mailto<'_>, usize)> {
    let mut pos = plain_address(s)?;
    let to = s.get(..pos)?;
    let mut headers = None;
    if s.get(pos) == Some(&b'?') {
        let start = pos + 1;
        pos = plain_hfields(s, start)?;
        headers = Some(s.get(start..pos)?);
    }
    match s.get(pos) {
        None | Some(b'#') => Some((Mailto { to, headers }, pos)),
        Some(_) => None,
    }
}

/// `hfields = "?" hfield *( "&" hfield )`, `hfield = hfname "=" hfvalue`,
/// `hfname = hfvalue = *qchar` without escapes, from `start` (after the
/// `?`) in one loop over the bytes; where the fields end (the end of `s`
/// or a `#`), or `None`.
fn plain_hfields(s: &[u8], start: usize) -> Option<usize> {
    // `value`: the "=" of the current field is behind.
    let mut value = false;
    let tail = s.get(start..)?;
    for (i, &b) in tail.iter().enumerate() {
        if QCHAR[usize::from(b)] {
            continue;
        }
        match b {
            b'=' if !value => value = true,
            b'&' if value => value = false,
            b'#' if value => return Some(start + i),
            _ => return None,
        }
    }
    value.then_some(s.len())
}

/// `addr-spec = local-part "@" domain`, both `dot-atom-text = 1*atext
/// *("." 1*atext)` of [`PLAIN_ATEXT`], in one loop over the bytes; where
/// it ends (at the first byte that continues neither), or `None`.
fn plain_address(s: &[u8]) -> Option<usize> {
    // `atom`: the current atom is not empty; `at`: the "@" is behind.
    let (mut atom, mut at) = (false, false);
    let mut end = s.len();
    for (i, &b) in s.iter().enumerate() {
        if PLAIN_ATEXT[usize::from(b)] {
            atom = true;
        } else if b == b'.' && atom {
            atom = false;
        } else if b == b'@' && atom && !at {
            (atom, at) = (false, true);
        } else {
            end = i;
            break;
        }
    }
    (at && atom).then_some(end)
}

/// RFC 6068 §2: `to = addr-spec *("," addr-spec )`, each `addr-spec` made
/// of `qchar`s (RFC 3987 `ucschar`s allowed in the default mode).
fn to_part(s: &[u8]) -> Result<(), Reject> {
    if s.is_empty() {
        return Ok(());
    }
    chars::all(s, &QCHAR, Iri::Ucs).map_err(|r| match r {
        Reject::BadCharacter => Reject::BadMailto,
        r => r,
    })?;
    let mut cur = Decoded::new(s);
    loop {
        addr_spec(&mut cur, true)?;
        match cur.raw.get(cur.pos) {
            None => return Ok(()),
            Some(b',') => cur.pos += 1,
            Some(_) => return Err(Reject::BadMailto),
        }
    }
}

/// RFC 6068 §2: `hfields = "?" hfield *( "&" hfield )`, `hfield = hfname
/// "=" hfvalue`, `hfname = hfvalue = *qchar` (RFC 3987 `iquery` code points
/// allowed).
fn hfields(s: &[u8]) -> Result<(), Reject> {
    for field in s.split(|&b| b == b'&') {
        let eq =
            field.iter().position(|&b| b == b'=').ok_or(Reject::BadHeader)?;
        let (name, value) = (field.get(..eq), field.get(eq + 1..));
        for part in [name, value].into_iter().flatten() {
            chars::all(part, &QCHAR, Iri::Private).map_err(|r| match r {
                Reject::BadCharacter => Reject::BadHeader,
                r => r,
            })?;
        }
    }
    Ok(())
}

/// A cursor over the percent-decoded bytes of a raw component whose
/// escapes are known to be well-formed.
#[derive(Clone, Debug)]
struct Decoded<'a> {
    raw: &'a [u8],
    pos: usize,
    /// `raw` holds no `%`: every byte stands for itself (the common case,
    /// read without a look for an escape at each byte).
    plain: bool,
}

impl<'a> Decoded<'a> {
    /// A cursor at the start of `raw`.
    fn new(raw: &'a [u8]) -> Decoded<'a> {
        Decoded { raw, pos: 0, plain: !raw.contains(&b'%') }
    }

    /// The next decoded byte.
    fn peek(&self) -> Option<u8> {
        if self.plain {
            return self.raw.get(self.pos).copied();
        }
        match self.raw.get(self.pos)? {
            b'%' => chars::pct_encoded(self.raw, self.pos),
            &b => Some(b),
        }
    }

    /// Steps over the next decoded byte.
    fn bump(&mut self) {
        self.pos += if !self.plain && self.raw.get(self.pos) == Some(&b'%') {
            3
        } else {
            1
        };
    }

    /// The next decoded byte, consumed.
    fn next_byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.bump();
        Some(b)
    }

    /// Is the next raw byte a literal `,` (the address separator)?
    fn at_separator(&self) -> bool {
        self.raw.get(self.pos) == Some(&b',')
    }
}

/// RFC 5322 §3.4.1: `addr-spec = local-part "@" domain` (RFC 6068 §2
/// narrows `domain` to `dot-atom-text / "[" *dtext-no-obs "]"`); `utf8`
/// admits RFC 6532 non-ASCII bytes in atoms and quoted strings.
fn addr_spec(cur: &mut Decoded<'_>, utf8: bool) -> Result<(), Reject> {
    // local-part = dot-atom-text / quoted-string
    if cur.peek() == Some(b'"') {
        quoted_string(cur, utf8)?;
    } else {
        dot_atom_text(cur, utf8)?;
    }
    if cur.next_byte() != Some(b'@') {
        return Err(Reject::BadMailto);
    }
    if cur.peek() == Some(b'[') {
        domain_literal(cur)
    } else {
        dot_atom_text(cur, utf8)
    }
}

/// RFC 5322 §3.2.3: `dot-atom-text = 1*atext *("." 1*atext)`.
fn dot_atom_text(cur: &mut Decoded<'_>, utf8: bool) -> Result<(), Reject> {
    let mut run = 0usize;
    loop {
        let b = match cur.peek() {
            Some(_) if cur.at_separator() => break,
            Some(b) => b,
            None => break,
        };
        if ATEXT[usize::from(b)] || (utf8 && b >= 0x80) {
            run += 1;
        } else if b == b'.' && run > 0 {
            run = 0;
        } else {
            break;
        }
        cur.bump();
    }
    if run == 0 {
        return Err(Reject::BadMailto);
    }
    Ok(())
}

/// RFC 5322 §3.2.4: `quoted-string = DQUOTE *([FWS] qcontent) [FWS]
/// DQUOTE`, `qcontent = qtext / quoted-pair`, `quoted-pair = "\" (VCHAR /
/// WSP)`; folding white space is only `WSP` here (a URL holds no CRLF).
fn quoted_string(cur: &mut Decoded<'_>, utf8: bool) -> Result<(), Reject> {
    cur.bump();
    loop {
        match cur.next_byte().ok_or(Reject::BadMailto)? {
            b'"' => return Ok(()),
            b'\\' => {
                let q = cur.next_byte().ok_or(Reject::BadMailto)?;
                if !QUOTABLE[usize::from(q)] {
                    return Err(Reject::BadMailto);
                }
            }
            b' ' | b'\t' => {}
            b if QTEXT[usize::from(b)] || (utf8 && b >= 0x80) => {}
            _ => return Err(Reject::BadMailto),
        }
    }
}

/// RFC 6068 §2: `"[" *dtext-no-obs "]"`.
fn domain_literal(cur: &mut Decoded<'_>) -> Result<(), Reject> {
    cur.bump();
    loop {
        match cur.next_byte().ok_or(Reject::BadMailto)? {
            b']' => return Ok(()),
            b if DTEXT[usize::from(b)] => {}
            _ => return Err(Reject::BadMailto),
        }
    }
}

/// RFC 5536 §3.1.3: `msg-id-core = id-left "@" id-right`, `id-left =
/// dot-atom-text`, `id-right = dot-atom-text / no-fold-literal`,
/// `no-fold-literal = "[" *mdtext "]"`; checked on the percent-decoded text
/// as RFC 5538 §4 asks.
pub(crate) fn msg_id_core(raw: &[u8]) -> bool {
    let mut cur = Decoded::new(raw);
    let ok = dot_atom_text(&mut cur, false).is_ok()
        && cur.next_byte() == Some(b'@')
        && if cur.peek() == Some(b'[') {
            cur.bump();
            loop {
                match cur.next_byte() {
                    Some(b']') => break true,
                    Some(b) if MDTEXT[usize::from(b)] => {}
                    _ => break false,
                }
            }
        } else {
            dot_atom_text(&mut cur, false).is_ok()
        };
    ok && cur.pos == raw.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Mailto<'_> {
        match mailto(s.as_bytes(), false) {
            Ok(m) => m,
            Err(r) => panic!("{s:?}: {r}"),
        }
    }

    fn no(s: &str) -> Reject {
        match mailto(s.as_bytes(), false) {
            Ok(_) => panic!("{s:?} accepted"),
            Err(r) => r,
        }
    }

    /// RFC 6068 §6.1 and §6.2.
    #[test]
    fn rfc6068_examples() {
        let all = [
            "chris@example.com",
            "infobot@example.com?subject=current-issue",
            "infobot@example.com?body=send%20current-issue",
            "infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
            "list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
            "majordomo@example.com?body=subscribe%20bamboo-l",
            "joe@example.com?cc=bob@example.com&body=hello",
            "gorby%25kremvax@example.com",
            "unlikely%3Faddress@example.com?blat=foop",
            "Mike%26family@example.org",
            "%22not%40me%22@example.org",
            "%22oh%5C%5Cno%22@example.org",
            "%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org",
            "user@example.org?subject=caf%C3%A9",
            "user@example.org?subject=%3D%3Futf-8%3FQ%3Fcaf%3DC3%3DA9%3F%3D",
            "user@example.org?subject=caf%C3%A9&body=caf%C3%A9",
            "user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO",
            "addr1@an.example,addr2@an.example",
            "?to=addr1@an.example,addr2@an.example",
            "addr1@an.example?to=addr2@an.example",
            "John.Doe@example.com",
        ];
        for s in all {
            ok(s);
        }
        let m = ok("addr1@an.example,addr2@an.example?cc=x@y&body=hi");
        let got: Vec<_> = m.addresses().collect();
        assert_eq!(got, [&b"addr1@an.example"[..], b"addr2@an.example"]);
        let h: Vec<_> = m.headers().collect();
        assert_eq!(h, [(&b"cc"[..], &b"x@y"[..]), (b"body", b"hi")]);
        let q = ok("%22a,b%22@x.y,c@d");
        assert_eq!(q.addresses().count(), 2);
    }

    #[test]
    fn rejects() {
        // RFC 6068 §6.1: "using "?" twice, is incorrect".
        assert_eq!(
            no("joe@example.com?cc=bob@example.com?body=hello"),
            Reject::BadHeader
        );
        assert_eq!(no("joe@example.com?cc"), Reject::BadHeader);
        assert_eq!(no("joe"), Reject::BadMailto);
        assert_eq!(no("joe@"), Reject::BadMailto);
        assert_eq!(no("@example.com"), Reject::BadMailto);
        assert_eq!(no("a..b@example.com"), Reject::BadMailto);
        assert_eq!(no("a@b,"), Reject::BadMailto);
        assert_eq!(no("a&b@example.com"), Reject::BadMailto);
        assert_eq!(no("a@b@c"), Reject::BadMailto);
        assert_eq!(no("%22open@example.com"), Reject::BadMailto);
        assert_eq!(no("a@%5Bbad%5Cliteral%5D"), Reject::BadMailto);
        assert_eq!(no("a%2@b"), Reject::BadEscape);
        ok("a@%5B192.0.2.1%5D");
    }

    #[test]
    fn plain_shape() {
        let (m, end) = plain(b"a.b@c.d?x=y&z=#f").expect("plain");
        assert_eq!(
            (m.to(), m.header_text(), end),
            (&b"a.b@c.d"[..], Some(&b"x=y&z="[..]), 14)
        );
        for s in [
            "a@b.", ".a@b", "a..b@c", "a@b@c", "a@", "@b", "a", "a@b,c@d",
            "a@b?x", "a@b?x=y?", "a%20@b", "a@b?x=y&",
        ] {
            assert_eq!(plain(s.as_bytes()), None, "{s:?}");
        }
        assert_eq!(plain_address(b"a-b.c@d.e?"), Some(9));
        assert_eq!(plain_hfields(b"?a=b&=c#", 1), Some(7));
        assert_eq!(plain_hfields(b"?a=b", 1), Some(4));
        for s in ["?", "?a", "?a=b=c", "?a=b&", "?a=b&c", "?a#", "?a=b?c=d"] {
            assert_eq!(plain_hfields(s.as_bytes(), 1), None, "{s:?}");
        }
    }

    #[test]
    fn strict_is_rfc1738() {
        assert!(mailto(b"a@b.c", true).is_ok());
        assert_eq!(mailto(b"a@b.c,d@e.f", true), Err(Reject::BadMailto));
        assert_eq!(mailto(b"a~b@c.d", true), Err(Reject::BadCharacter));
        assert_eq!(
            mailto("é@c.d".as_bytes(), true),
            Err(Reject::BadCharacter)
        );
    }
}
