//! The parser that splits the components of a [`Url`] (kept in
//! `components.rs`, below it) and checks them: RFC 3986 §3 for the
//! generic syntax, then the grammar of the scheme (RFC 1738 §3.2–3.11 and
//! their successors, RFC 9110 §4.2).

use super::authority::authority;
use super::chars::{self, Iri, ALPHA, PATH_LAX, QUERY_LAX, XCHAR};
use super::components::{find, Parts, Url};
use super::grammars::{
    file, ftp, generic, gopher, http, mailto_url, news_url, nntp, prospero,
    telnet, urn, wais,
};
use super::mailto;
use super::{Reject, Scheme, Verdict};

/// How closely a URL must follow the RFCs.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strictness {
    /// RFC 3986 and RFC 3987: what URIs and IRIs allow, non-ASCII letters
    /// included; the successors of RFC 1738 for its schemes.
    #[default]
    Rfc3987,
    /// RFC 1738 only: ASCII, unsafe characters (`~`, `{`, `|`, …) escaped,
    /// the scheme grammars of its §5 as written — and never more than
    /// [`Strictness::Rfc3987`] accepts.
    Rfc1738,
}

impl<'a> Url<'a> {
    /// Parses and validates a whole URL (no surrounding wrapper or
    /// whitespace) under RFC 3986/3987.
    #[inline]
    pub fn parse(input: &'a [u8]) -> Result<Url<'a>, Reject> {
        Url::parse_with(input, Strictness::Rfc3987)
    }

    /// Parses and validates a whole URL under `strictness`.
    #[inline]
    pub fn parse_with(
        input: &'a [u8],
        strictness: Strictness,
    ) -> Result<Url<'a>, Reject> {
        match strictness {
            Strictness::Rfc3987 => parse(input, false),
            // The strict level is a subset of the default one: RFC 1738's
            // grammar also admits what RFC 3986 refuses (`hostnumber`
            // with leading zeros, `010.0.0.1`), and `--strict` must never
            // print a URL the default level would reject (fuzz target
            // `validate` found `http://00.000…`).
            Strictness::Rfc1738 => {
                let url = parse(input, true)?;
                parse(input, false)?;
                Ok(url)
            }
        }
    }
}

/// The components of RFC 3986 §3 before any scheme-specific check.
pub(super) struct Split<'a> {
    pub(super) authority: Option<&'a [u8]>,
    pub(super) path: &'a [u8],
    pub(super) query: Option<&'a [u8]>,
}

/// RFC 3986 §3: `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment
/// ]`, then the grammar of the scheme.
#[inline]
pub(super) fn parse(input: &[u8], strict: bool) -> Result<Url<'_>, Reject> {
    let mut url = blank(input, Scheme::Other, b"");
    parse_into(&mut url, strict)?;
    Ok(url)
}

/// [`validate`](super::validate): [`Url::parse_with`] without handing a
/// [`Url`] back, so that none is copied out (the struct is large; the
/// scanner calls this for every candidate); what the printers need of
/// the parse comes back in the [`Verdict`].
pub(crate) fn verdict(input: &[u8], strict: bool) -> Result<Verdict, Reject> {
    let mut url = blank(input, Scheme::Other, b"");
    parse_into(&mut url, strict)?;
    let host = if strict {
        // See `Url::parse_with`: the strict level is a subset of the
        // default one. The host is the default reading's, as
        // `Url::parse` gives it.
        let mut lax = blank(input, Scheme::Other, b"");
        parse_into(&mut lax, false)?;
        lax.host_text.and_then(|h| range_in(input, h))
    } else {
        url.host_text.and_then(|h| range_in(input, h))
    };
    Ok(Verdict { scheme: url.scheme, host })
}

/// Where `part`, a non-empty slice of `input`, lies in it.
pub(super) fn range_in(input: &[u8], part: &[u8]) -> Option<(u32, u32)> {
    if part.is_empty() {
        return None;
    }
    let start =
        (part.as_ptr() as usize).checked_sub(input.as_ptr() as usize)?;
    let end = start.checked_add(part.len())?;
    if input.get(start..end)?.as_ptr() != part.as_ptr() {
        return None;
    }
    Some((u32::try_from(start).ok()?, u32::try_from(end).ok()?))
}

/// [`parse`] into `url`, a [`blank`] one of the input; on an error `url`
/// holds whatever the rules had filled in.
pub(super) fn parse_into<'a>(
    url: &mut Url<'a>,
    strict: bool,
) -> Result<(), Reject> {
    let input = url.input;
    // The one place every URL passes (validation, `Url::parse`, mailto
    // and the fast paths), before any rule: whatever else is wrong with
    // it, a reordering control is the reason shown.
    if has_bidi(input) {
        return Err(Reject::Bidi);
    }
    let (scheme, name, rest) = match common_scheme(input) {
        Some((scheme, n)) => (
            scheme,
            input.get(..n).unwrap_or_default(),
            input.get(n + 1..).unwrap_or_default(),
        ),
        None => {
            let (name, rest) = self::scheme(input)?;
            (Scheme::from_prefix(input, name.len()), name, rest)
        }
    };
    url.scheme = scheme;
    url.scheme_name = name;
    if !strict {
        match scheme {
            Scheme::Http | Scheme::Https => {
                if let Some(after) = rest.strip_prefix(b"//") {
                    return http_one_pass(url, after);
                }
            }
            Scheme::Mailto if mailto_plain(url, rest) => return Ok(()),
            _ => {}
        }
    }
    *url = general(input, strict, scheme, name, rest)?;
    Ok(())
}

/// RFC 3987 §4.1: "IRIs MUST NOT contain bidirectional formatting
/// characters (LRM, RLM, LRE, RLE, LRO, RLO, and PDF)"; the isolates of
/// Unicode 6.3 (LRI, RLI, FSI, PDI, U+2066–U+2069) and the Arabic letter
/// mark (U+061C) reorder text the same way and are refused with them.
///
/// In UTF-8 they are `D8 9C`, `E2 80 8E`–`8F`, `E2 80 AA`–`AE` and
/// `E2 81 A6`–`A9`; ASCII input (nearly every URL) is settled by one
/// word-at-a-time `is_ascii`.
#[inline]
pub(super) fn has_bidi(input: &[u8]) -> bool {
    if input.is_ascii() {
        return false;
    }
    input.windows(2).enumerate().any(|(i, w)| match *w {
        [0xD8, 0x9C] => true,
        [0xE2, b1] => matches!(
            (b1, input.get(i + 2)),
            (0x80, Some(0x8E | 0x8F | 0xAA..=0xAE))
                | (0x81, Some(0xA6..=0xA9))
        ),
        _ => false,
    })
}

/// [`parse`] as it was before the fast paths that fall back to
/// [`general`]: the oracle they are tested against.
#[cfg(test)]
pub(super) fn parse_reference(
    input: &[u8],
    strict: bool,
) -> Result<Url<'_>, Reject> {
    let (name, rest) = scheme(input)?;
    let scheme = Scheme::from_name(name);
    if !strict && matches!(scheme, Scheme::Http | Scheme::Https) {
        if let Some(after) = rest.strip_prefix(b"//") {
            let mut url = blank(input, scheme, name);
            http_one_pass(&mut url, after)?;
            return Ok(url);
        }
    }
    general(input, strict, scheme, name, rest)
}

/// The default-level `mailto` URL of the common shape (see
/// [`mailto::plain`]) without the general route's separate scans for `?`
/// and `#`, class check and decoding cursor; `false` sends the URL down
/// [`general`], which gives the verdict. What it accepts, [`general`]
/// accepts with the same components (tested on the corpora).
///
/// Returns whether it filled in `url` (a [`blank`] one with its scheme).
#[inline]
pub(super) fn mailto_plain<'a>(url: &mut Url<'a>, rest: &'a [u8]) -> bool {
    let Some((m, end)) = mailto::plain(rest) else { return false };
    let fragment = match rest.get(end) {
        Some(b'#') => match rest.get(end + 1..) {
            Some(f) if self::fragment(f, false).is_ok() => Some(f),
            _ => return false,
        },
        _ => None,
    };
    url.path = m.to();
    url.query = m.header_text();
    url.fragment = fragment;
    url.parts = Parts::Mailto(m);
    true
}

/// An empty URL of `scheme` whose components are filled in by the rules.
pub(super) fn blank<'a>(
    input: &'a [u8],
    scheme: Scheme,
    name: &'a [u8],
) -> Url<'a> {
    Url {
        input,
        scheme,
        scheme_name: name,
        authority: None,
        user: None,
        password: None,
        host_text: None,
        host: None,
        port_text: None,
        port: None,
        path: b"",
        query: None,
        fragment: None,
        parts: Parts::Generic,
    }
}

/// RFC 9110 §4.2.1: `http-URI = "http" "://" authority path-abempty [ "?"
/// query ] [ "#" fragment ]` at the default level, in one pass: the
/// authority ends at the first `/`, `?` or `#`, and the RFC 3986/3987
/// tables of path and query stop at the delimiter that follows them. The
/// hot path of the scanner; it gives what [`general`] gives (tested).
///
/// It fills in `url` (a [`blank`] one) rather than returning a new [`Url`]:
/// the struct is large, and a `Result<Url, _>` built here was copied out
/// with `memcpy` on every call.
pub(super) fn http_one_pass<'a>(
    url: &mut Url<'a>,
    after: &'a [u8],
) -> Result<(), Reject> {
    let end = authority(url, after, false)?;
    let tail = after.get(end..).unwrap_or_default();
    let mut pos = chars::run(tail, 0, &PATH_LAX, Iri::Ucs)?;
    url.path = tail.get(..pos).unwrap_or_default();
    if tail.get(pos) == Some(&b'?') {
        let q = chars::run(tail, pos + 1, &QUERY_LAX, Iri::Private)?;
        url.query = tail.get(pos + 1..q);
        pos = q;
    }
    if tail.get(pos) == Some(&b'#') {
        let f = chars::run(tail, pos + 1, &QUERY_LAX, Iri::Ucs)?;
        url.fragment = tail.get(pos + 1..f);
        pos = f;
    }
    if pos == tail.len() {
        Ok(())
    } else {
        Err(Reject::BadCharacter)
    }
}

/// RFC 3986 §3, split first, then each component checked by the rules of
/// the scheme.
pub(super) fn general<'a>(
    input: &'a [u8],
    strict: bool,
    scheme: Scheme,
    name: &'a [u8],
    rest: &'a [u8],
) -> Result<Url<'a>, Reject> {
    if rest.is_empty() {
        return Err(Reject::Empty);
    }
    // One scan finds the first "?" or "#"; only after a "?" is a second
    // one needed for the "#".
    let hash = match memchr::memchr2(b'?', b'#', rest) {
        Some(i) if rest.get(i) == Some(&b'?') => {
            let after = rest.get(i + 1..).unwrap_or_default();
            memchr::memchr(b'#', after).map(|j| i + 1 + j)
        }
        found => found,
    };
    let (body, fragment) = match hash {
        Some(i) => (rest.get(..i).unwrap_or_default(), rest.get(i + 1..)),
        None => (rest, None),
    };
    if let Some(f) = fragment {
        self::fragment(f, strict)?;
    }
    let mut url = blank(input, scheme, name);
    url.path = body;
    url.fragment = fragment;
    match scheme {
        Scheme::Mailto => mailto_url(&mut url, body, strict)?,
        Scheme::News => news_url(&mut url, body, strict)?,
        _ => {
            let split = hier_part(body);
            url.path = split.path;
            url.query = split.query;
            match split.authority {
                Some(a) => {
                    authority(&mut url, a, strict)?;
                }
                None if needs_authority(scheme, strict) => {
                    return Err(Reject::EmptyHost)
                }
                None => {}
            }
            specific(&mut url, body, strict)?;
        }
    }
    Ok(url)
}

/// `http:`, `https:` or `mailto:` (any case) at the start of `input`, the
/// schemes of nearly every URL in mail, recognised from one eight-byte
/// word; the scheme and the length of its name. What it finds,
/// [`scheme`] and [`Scheme::from_name`] find too; `None` leaves the input
/// to them.
#[inline]
pub(super) fn common_scheme(input: &[u8]) -> Option<(Scheme, usize)> {
    /// The first `n` bytes of `s`, little-endian.
    const fn word(s: &[u8], n: usize) -> u64 {
        let mut w = 0u64;
        let mut i = 0;
        while i < n {
            w |= (s[i] as u64) << (8 * i);
            i += 1;
        }
        w
    }
    /// `n` lanes of 0x20: bit 5 folds an ASCII letter to lower case, and
    /// folds no other byte onto a lower-case letter. The colon's lane
    /// is not folded (0x1a would fold onto it).
    const fn fold(n: usize) -> u64 {
        word(b"\x20\x20\x20\x20\x20\x20", n)
    }
    /// `n` lanes of 0xff.
    const fn mask(n: usize) -> u64 {
        word(b"\xff\xff\xff\xff\xff\xff\xff", n)
    }
    const HTTP: u64 = word(b"http:", 5);
    const HTTPS: u64 = word(b"https:", 6);
    const MAILTO: u64 = word(b"mailto:", 7);
    let w = u64::from_le_bytes(<[u8; 8]>::try_from(input.get(..8)?).ok()?);
    if (w | fold(4)) & mask(5) == HTTP {
        Some((Scheme::Http, 4))
    } else if (w | fold(5)) & mask(6) == HTTPS {
        Some((Scheme::Https, 5))
    } else if (w | fold(6)) & mask(7) == MAILTO {
        Some((Scheme::Mailto, 6))
    } else {
        None
    }
}

/// RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`,
/// followed by `":"`; the name and what follows the colon.
pub(super) fn scheme(input: &[u8]) -> Result<(&[u8], &[u8]), Reject> {
    if input.is_empty() {
        return Err(Reject::Empty);
    }
    let n = input
        .iter()
        .position(|&b| !super::is_scheme_byte(b))
        .ok_or(Reject::BadScheme)?;
    match (input.get(..n), input.get(n), input.get(n + 1..)) {
        (Some(name), Some(b':'), Some(rest))
            if input.first().is_some_and(|&b| ALPHA[usize::from(b)]) =>
        {
            Ok((name, rest))
        }
        _ => Err(Reject::BadScheme),
    }
}

/// RFC 3986 §3: `hier-part = "//" authority path-abempty / path-absolute /
/// path-rootless / path-empty`, with the query split off at the first `?`.
pub(super) fn hier_part(body: &[u8]) -> Split<'_> {
    let (hier, query) = match memchr::memchr(b'?', body) {
        Some(i) => (body.get(..i).unwrap_or_default(), body.get(i + 1..)),
        None => (body, None),
    };
    match hier.strip_prefix(b"//") {
        Some(after) => {
            let end = find(b'/', after).unwrap_or(after.len());
            Split {
                authority: after.get(..end),
                path: after.get(end..).unwrap_or_default(),
                query,
            }
        }
        None => Split { authority: None, path: hier, query },
    }
}

/// The schemes whose grammar starts with `//` (RFC 1738 §3.2–3.11, RFC 9110
/// §4.2); under RFC 1738 every `ip-schemepart` has a host, and RFC 8089
/// lets `file:/path` go without one.
pub(super) fn needs_authority(scheme: Scheme, strict: bool) -> bool {
    match scheme {
        Scheme::File => strict,
        Scheme::Other | Scheme::Mailto | Scheme::News => false,
        _ => true,
    }
}

/// RFC 3986 §3.5: `fragment = *( pchar / "/" / "?" )` (RFC 3987
/// `ifragment`); RFC 1808 §2.2 for RFC 1738 URLs: `fragment = *( uchar |
/// reserved )`, which is `*xchar`.
pub(super) fn fragment(s: &[u8], strict: bool) -> Result<(), Reject> {
    if strict {
        chars::all(s, &XCHAR, Iri::No)
    } else {
        chars::all(s, &QUERY_LAX, Iri::Ucs)
    }
}

/// Checks the path and query of `url` against the scheme's grammar and
/// fills in its [`Parts`]; `body` is everything between `scheme:` and `#`.
pub(super) fn specific<'a>(
    url: &mut Url<'a>,
    body: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    match url.scheme {
        Scheme::Http | Scheme::Https => http(url, strict),
        Scheme::Ftp => ftp(url, strict),
        Scheme::Gopher => gopher(url, body, strict),
        Scheme::Nntp => nntp(url, strict),
        Scheme::Telnet => telnet(url),
        Scheme::Wais => wais(url, strict),
        Scheme::File => file(url, strict),
        Scheme::Prospero => prospero(url, strict),
        Scheme::Other if url.scheme_name.eq_ignore_ascii_case(b"urn") => {
            urn(url, strict)
        }
        _ => generic(url, strict),
    }
}

#[cfg(test)]
mod tests;
