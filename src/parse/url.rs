//! [`Url`]: the components of a validated URL, and the parser that splits
//! and checks them: RFC 3986 §3 for the generic syntax, then the grammar of
//! the scheme (RFC 1738 §3.2–3.11 and their successors, RFC 9110 §4.2).

use super::chars::{
    self, Iri, ALPHA, DIGIT, FIELD_1738, FPATH_1738, GROUP_CHAR, HPATH_1738,
    LOGIN_1738, NEWSGROUPS, PATH_LAX, PCHAR, QUERY_LAX, SEARCH_1738, UCHAR,
    USERINFO, XCHAR,
};
use super::host::{self, Host, Rule};
use super::mailto::{self, Mailto};
use super::{Reject, Scheme, Verdict};
use std::fmt;

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

/// The scheme-specific parts of a URL (RFC 1738 §3.2–3.11 and successors),
/// raw slices of the input.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parts<'a> {
    /// A scheme with generic syntax only (RFC 3986 §3), `http` and `https`
    /// included (RFC 9110 §4.2 adds no parts).
    Generic,
    /// RFC 1738 §3.2: `ftp://login/fpath;type=X`.
    Ftp {
        /// The `fpath`, without `;type=`.
        path: &'a [u8],
        /// The `ftptype`, lower-cased: `a`, `i` or `d`.
        typecode: Option<u8>,
    },
    /// RFC 4266 §2 (RFC 1738 §3.4):
    /// `gopher://host/<gophertype><selector>%09<search>%09<gopher+_string>`.
    Gopher {
        /// The one-character item type (decoded when escaped).
        kind: Option<u8>,
        /// The selector (still percent-encoded).
        selector: &'a [u8],
        /// The search string after the first `%09`.
        search: Option<&'a [u8]>,
        /// The Gopher+ string after the second `%09`.
        plus: Option<&'a [u8]>,
    },
    /// RFC 6068: addresses and header fields.
    Mailto(Mailto<'a>),
    /// RFC 5538 §4 (RFC 1738 §3.6): newsgroups or an article.
    News(News<'a>),
    /// RFC 5538 §3 (RFC 1738 §3.7): `nntp://host/group/article-number`.
    Nntp {
        /// The group name (still percent-encoded).
        group: &'a [u8],
        /// The article number.
        article: Option<u64>,
    },
    /// RFC 4248 §2 (RFC 1738 §3.8): `telnet://user:password@host/`.
    Telnet {
        /// The user name.
        user: Option<&'a [u8]>,
        /// The password.
        password: Option<&'a [u8]>,
    },
    /// RFC 1738 §3.9: `wais://host/database[/wtype/wpath][?search]`.
    Wais {
        /// The database name.
        database: &'a [u8],
        /// The `wtype` of a document.
        kind: Option<&'a [u8]>,
        /// The `wpath` of a document.
        path: Option<&'a [u8]>,
        /// The search of a `waisindex`.
        search: Option<&'a [u8]>,
    },
    /// RFC 1738 §3.11: `prospero://host/hsoname;field=value`.
    Prospero {
        /// The `hsoname` (`ppath`).
        path: &'a [u8],
        /// The `;field=value` specs, the first `;` excluded; see
        /// [`prospero_fields`].
        fields: &'a [u8],
    },
    /// RFC 8089 §2 (RFC 1738 §3.10): `file://host/path`.
    File {
        /// No host, or `localhost`: a file on this machine.
        local: bool,
        /// The absolute path.
        path: &'a [u8],
    },
}

/// What a `news` URL names (RFC 5538 §4, RFC 1738 §3.6).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum News<'a> {
    /// `*`, or the empty newsgroups of a `news://server/` URL: all groups.
    All,
    /// A newsgroup name, possibly a wildmat pattern with `*`.
    Groups(&'a [u8]),
    /// A message id without angle brackets, `id-left@id-right`.
    Article(&'a [u8]),
}

/// The `(fieldname, fieldvalue)` pairs of a prospero URL's `fields`.
pub fn prospero_fields(fields: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    fields.split(|&b| b == b';').filter(|_| !fields.is_empty()).map(
        |f| match f.iter().position(|&b| b == b'=') {
            Some(i) => (
                f.get(..i).unwrap_or_default(),
                f.get(i + 1..).unwrap_or_default(),
            ),
            None => (f, &[][..]),
        },
    )
}

/// A validated URL; every component is a slice of the input.
///
/// ```
/// use urlgrep::parse::{Host, Url};
/// let url = Url::parse(b"http://user:pw@Example.COM:8080/a?b#c").unwrap();
/// assert_eq!(url.host(), Some(Host::Domain(b"Example.COM")));
/// assert_eq!(url.port(), Some(8080));
/// assert_eq!(url.path(), b"/a");
/// assert_eq!(url.redacted(), "http://user:***@Example.COM:8080/a?b#c");
/// assert_eq!(url.normalized(), "http://user:pw@example.com:8080/a?b#c");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Url<'a> {
    pub(crate) input: &'a [u8],
    pub(crate) scheme: Scheme,
    pub(crate) scheme_name: &'a [u8],
    pub(crate) authority: Option<&'a [u8]>,
    pub(crate) user: Option<&'a [u8]>,
    pub(crate) password: Option<&'a [u8]>,
    pub(crate) host_text: Option<&'a [u8]>,
    pub(crate) host: Option<Host<'a>>,
    pub(crate) port_text: Option<&'a [u8]>,
    pub(crate) port: Option<u16>,
    pub(crate) path: &'a [u8],
    pub(crate) query: Option<&'a [u8]>,
    pub(crate) fragment: Option<&'a [u8]>,
    pub(crate) parts: Parts<'a>,
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

    /// The whole URL, as given.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.input
    }

    /// The whole URL as text. Every accepted URL is UTF-8 (ASCII, or RFC
    /// 3987 code points), so this is the input itself.
    pub fn as_str(&self) -> &'a str {
        std::str::from_utf8(self.input).unwrap_or_default()
    }

    /// The scheme, case-folded.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The scheme name as written.
    pub fn scheme_name(&self) -> &'a [u8] {
        self.scheme_name
    }

    /// The authority after `//`, if the URL has one (RFC 3986 §3.2).
    pub fn authority(&self) -> Option<&'a [u8]> {
        self.authority
    }

    /// The user name of the `userinfo` (RFC 3986 §3.2.1, RFC 1738 §3.1).
    pub fn user(&self) -> Option<&'a [u8]> {
        self.user
    }

    /// The password: what follows the first `:` of the `userinfo`.
    pub fn password(&self) -> Option<&'a [u8]> {
        self.password
    }

    /// The host; `None` when there is no authority or its host is empty.
    pub fn host(&self) -> Option<Host<'a>> {
        self.host
    }

    /// The host as written (IPv6 brackets included); empty when the
    /// authority has an empty host.
    pub fn host_bytes(&self) -> Option<&'a [u8]> {
        self.host_text
    }

    /// The port number, if one is written.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The port as written (possibly empty: `http://a:/`).
    pub fn port_bytes(&self) -> Option<&'a [u8]> {
        self.port_text
    }

    /// The path (RFC 3986 §3.3); for `mailto` the addresses, for `news`
    /// the newsgroups or article.
    pub fn path(&self) -> &'a [u8] {
        self.path
    }

    /// The query after `?` (RFC 3986 §3.4); for `mailto` the header fields.
    pub fn query(&self) -> Option<&'a [u8]> {
        self.query
    }

    /// The fragment after `#` (RFC 3986 §3.5).
    pub fn fragment(&self) -> Option<&'a [u8]> {
        self.fragment
    }

    /// The scheme-specific parts.
    pub fn parts(&self) -> Parts<'a> {
        self.parts
    }

    /// Is a port written that differs from the scheme's default and lies in
    /// the reserved range below 1024? RFC 1738 §6 and RFC 3986 §7.2 warn of
    /// such URLs (a gopher URL talking to an SMTP server).
    pub fn port_is_unusual(&self) -> bool {
        match self.port {
            Some(p) => p < 1024 && Some(p) != self.default_port(),
            None => false,
        }
    }

    /// The default port of the scheme, for RFC 1738's schemes and a few
    /// common registered ones (IANA service names).
    pub fn default_port(&self) -> Option<u16> {
        if let Some(p) = self.scheme.default_port() {
            return Some(p);
        }
        let mut buf = [0u8; 8];
        let name = self.scheme_name;
        let lower = buf.get_mut(..name.len())?;
        for (d, s) in lower.iter_mut().zip(name) {
            *d = s.to_ascii_lowercase();
        }
        Some(match &*lower {
            b"ws" => 80,
            b"wss" => 443,
            b"ssh" | b"sftp" => 22,
            b"ldap" => 389,
            b"ldaps" => 636,
            b"imap" => 143,
            b"imaps" => 993,
            b"pop" | b"pop3" => 110,
            b"ftps" => 990,
            b"snews" => 563,
            b"rtsp" => 554,
            b"sip" => 5060,
            b"sips" => 5061,
            b"irc" => 6667,
            b"ircs" => 6697,
            b"git" => 9418,
            b"rsync" => 873,
            b"dict" => 2628,
            b"finger" => 79,
            b"tftp" => 69,
            b"smb" => 445,
            b"nfs" => 2049,
            b"ipp" => 631,
            b"coap" => 5683,
            b"xmpp" => 5222,
            _ => return None,
        })
    }
}

impl fmt::Display for Url<'_> {
    /// Prints the URL as given (it is UTF-8 by validation).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.input))
    }
}

/// The components of RFC 3986 §3 before any scheme-specific check.
struct Split<'a> {
    authority: Option<&'a [u8]>,
    path: &'a [u8],
    query: Option<&'a [u8]>,
}

/// RFC 3986 §3: `URI = scheme ":" hier-part [ "?" query ] [ "#" fragment
/// ]`, then the grammar of the scheme.
#[inline]
fn parse(input: &[u8], strict: bool) -> Result<Url<'_>, Reject> {
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
fn range_in(input: &[u8], part: &[u8]) -> Option<(u32, u32)> {
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
fn parse_into<'a>(url: &mut Url<'a>, strict: bool) -> Result<(), Reject> {
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
fn has_bidi(input: &[u8]) -> bool {
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
fn parse_reference(input: &[u8], strict: bool) -> Result<Url<'_>, Reject> {
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
fn mailto_plain<'a>(url: &mut Url<'a>, rest: &'a [u8]) -> bool {
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
fn blank<'a>(input: &'a [u8], scheme: Scheme, name: &'a [u8]) -> Url<'a> {
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
fn http_one_pass<'a>(
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
fn general<'a>(
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

/// The first `b` in `s`: a plain loop, cheaper than `memchr` on the few
/// bytes of an authority.
#[inline]
fn find(b: u8, s: &[u8]) -> Option<usize> {
    s.iter().position(|&c| c == b)
}

/// `http:`, `https:` or `mailto:` (any case) at the start of `input`, the
/// schemes of nearly every URL in mail, recognised from one eight-byte
/// word; the scheme and the length of its name. What it finds,
/// [`scheme`] and [`Scheme::from_name`] find too; `None` leaves the input
/// to them.
#[inline]
fn common_scheme(input: &[u8]) -> Option<(Scheme, usize)> {
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
fn scheme(input: &[u8]) -> Result<(&[u8], &[u8]), Reject> {
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
fn hier_part(body: &[u8]) -> Split<'_> {
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
fn needs_authority(scheme: Scheme, strict: bool) -> bool {
    match scheme {
        Scheme::File => strict,
        Scheme::Other | Scheme::Mailto | Scheme::News => false,
        _ => true,
    }
}

/// RFC 3986 §3.2: `authority = [ userinfo "@" ] host [ ":" port ]`; RFC
/// 1738 §5: `login = [ user [ ":" password ] "@" ] hostport`.
///
/// `after` is what follows `//`; the authority ends at its first `/`, `?`
/// or `#` (RFC 3986 §3.2). One pass over it finds that end, the first `@`
/// and the first `:` after it; returns the end.
fn authority<'a>(
    url: &mut Url<'a>,
    after: &'a [u8],
    strict: bool,
) -> Result<usize, Reject> {
    // The common case in one pass: a DNS name, then the end of the
    // authority or a port; it gives what the general route below gives.
    if let (n, Some(ace)) = host::hostname_prefix(after, !strict) {
        let host_text = after.get(..n).unwrap_or_default();
        let rest = after.get(n..).unwrap_or_default();
        let digits = match rest.first() {
            Some(b':') => {
                rest.iter().skip(1).take_while(|b| b.is_ascii_digit()).count()
                    + 1
            }
            _ => 0,
        };
        let end = n + digits;
        if matches!(after.get(end), None | Some(b'/' | b'?' | b'#')) {
            if ace && !strict {
                host::idn_to_ascii(host_text)?;
            }
            if digits > 0 {
                let p = rest.get(1..digits).unwrap_or_default();
                url.port = host::port(p, strict)?;
                url.port_text = Some(p);
            }
            url.authority = after.get(..end);
            url.host_text = Some(host_text);
            url.host = Some(Host::Domain(host_text));
            return Ok(end);
        }
    }
    authority_general(url, after, strict)
}

/// [`authority`] for any authority: userinfo, IP literals, reg-names.
fn authority_general<'a>(
    url: &mut Url<'a>,
    after: &'a [u8],
    strict: bool,
) -> Result<usize, Reject> {
    /// The bytes the pass stops at.
    const STOP: chars::Class = {
        let mut t = [false; 256];
        t[b'/' as usize] = true;
        t[b'?' as usize] = true;
        t[b'#' as usize] = true;
        t[b'@' as usize] = true;
        t[b':' as usize] = true;
        t
    };
    let (mut at, mut colon) = (None, None);
    let mut end = 0;
    loop {
        let tail = after.get(end..).unwrap_or_default();
        match tail.iter().position(|&b| STOP[usize::from(b)]) {
            None => {
                end = after.len();
                break;
            }
            Some(n) => end += n,
        }
        match after.get(end) {
            Some(b'@') if at.is_none() => (at, colon) = (Some(end), None),
            Some(b':') if colon.is_none() => colon = Some(end),
            Some(b'/' | b'?' | b'#') => break,
            _ => {}
        }
        end += 1;
    }
    let auth = after.get(..end).unwrap_or_default();
    url.authority = Some(auth);
    let (hostport, hp_start) = match at {
        Some(at) => {
            let info = auth.get(..at).unwrap_or_default();
            userinfo(url, info, strict)?;
            (auth.get(at + 1..).unwrap_or_default(), at + 1)
        }
        None => (auth, 0),
    };
    let colon = colon.map(|c| c.saturating_sub(hp_start));
    let (host_text, port_text) = if hostport.first() == Some(&b'[') {
        let close = find(b']', hostport).ok_or(Reject::BadIpv6)?;
        match hostport.get(close + 1..).unwrap_or_default() {
            [] => (hostport, None),
            [b':', port @ ..] => {
                (hostport.get(..=close).unwrap_or(hostport), Some(port))
            }
            _ => return Err(Reject::BadIpv6),
        }
    } else {
        match colon {
            Some(i) => {
                (hostport.get(..i).unwrap_or_default(), hostport.get(i + 1..))
            }
            None => (hostport, None),
        }
    };
    if let Some(p) = port_text {
        url.port = host::port(p, strict)?;
        url.port_text = Some(p);
    }
    url.host_text = Some(host_text);
    if host_text.is_empty() {
        return match url.scheme {
            Scheme::File => Ok(end),
            Scheme::Other if !strict => Ok(end),
            _ => Err(Reject::EmptyHost),
        };
    }
    let (rule, future) = match url.scheme {
        Scheme::Other => (Rule::Generic, true),
        Scheme::File if !strict => (Rule::Generic, true),
        // WHATWG (and so every browser) rejects IPvFuture in http(s) URLs;
        // no HTTP client can reach one.
        Scheme::Http | Scheme::Https => (Rule::Dns, false),
        _ => (Rule::Dns, true),
    };
    url.host = Some(host::host(host_text, rule, strict, future)?);
    Ok(end)
}

/// RFC 3986 §3.2.1: `userinfo = *( unreserved / pct-encoded / sub-delims /
/// ":" )`, user and password split at the first `:`; RFC 1738 §5: `user =
/// password = *[ uchar | ";" | "?" | "&" | "=" ]`.
///
/// RFC 1738's `hostport`-only schemes (http under RFC 1738, gopher, nntp,
/// wais, prospero) and file (RFC 8089 `file-auth`) take no userinfo.
fn userinfo<'a>(
    url: &mut Url<'a>,
    info: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    let allowed = match url.scheme {
        Scheme::Ftp | Scheme::Telnet | Scheme::Other | Scheme::News => true,
        Scheme::Http | Scheme::Https => !strict,
        _ => false,
    };
    if !allowed {
        return Err(Reject::Userinfo);
    }
    let (user, password) = match find(b':', info) {
        Some(i) => (info.get(..i).unwrap_or_default(), info.get(i + 1..)),
        None => (info, None),
    };
    if strict {
        chars::all(user, &LOGIN_1738, Iri::No)?;
        if let Some(p) = password {
            chars::all(p, &LOGIN_1738, Iri::No)?;
        }
    } else {
        chars::all(info, &USERINFO, Iri::Ucs)?;
    }
    url.user = Some(user);
    url.password = password;
    Ok(())
}

/// RFC 3986 §3.5: `fragment = *( pchar / "/" / "?" )` (RFC 3987
/// `ifragment`); RFC 1808 §2.2 for RFC 1738 URLs: `fragment = *( uchar |
/// reserved )`, which is `*xchar`.
fn fragment(s: &[u8], strict: bool) -> Result<(), Reject> {
    if strict {
        chars::all(s, &XCHAR, Iri::No)
    } else {
        chars::all(s, &QUERY_LAX, Iri::Ucs)
    }
}

/// RFC 3986 §3.4: `query = *( pchar / "/" / "?" )` (RFC 3987 `iquery`,
/// private-use code points included), plus `[`, `]`, `|` (see
/// [`chars::PATH_LAX`]).
fn query(s: &[u8]) -> Result<(), Reject> {
    chars::all(s, &QUERY_LAX, Iri::Private)
}

/// RFC 3986 §3.3: `path-abempty / path-absolute / path-rootless /
/// path-empty`, all `*( pchar / "/" )` once the authority is split off
/// (RFC 3987 `ipath`), plus `[`, `]`, `|` (see [`chars::PATH_LAX`]).
fn path(s: &[u8]) -> Result<(), Reject> {
    chars::all(s, &PATH_LAX, Iri::Ucs)
}

/// Checks the path and query of `url` against the scheme's grammar and
/// fills in its [`Parts`]; `body` is everything between `scheme:` and `#`.
fn specific<'a>(
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
        _ => generic(url, strict),
    }
}

/// RFC 3986 §3 for schemes without a grammar of their own; RFC 1738 §5
/// `genericurl = scheme ":" schemepart`, `schemepart = *xchar |
/// ip-schemepart`, `urlpath = *xchar` when strict.
fn generic(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if url.authority.is_none() && url.path.is_empty() && url.query.is_none() {
        return Err(Reject::Empty);
    }
    if strict {
        chars::all(url.path, &XCHAR, Iri::No)?;
        if let Some(q) = url.query {
            chars::all(q, &XCHAR, Iri::No)?;
        }
        return Ok(());
    }
    path(url.path)?;
    url.query.map_or(Ok(()), query)
}

/// RFC 9110 §4.2.1: `http-URI = "http" "://" authority path-abempty [ "?"
/// query ]` (§4.2.2 the same for `https`); RFC 1738 §3.3 when strict:
/// `httpurl = "http://" hostport [ "/" hpath [ "?" search ]]`.
fn http(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if strict {
        chars::all(url.path, &HPATH_1738, Iri::No)?;
        if let Some(q) = url.query {
            if url.path.is_empty() {
                return Err(Reject::BadPath);
            }
            chars::all(q, &SEARCH_1738, Iri::No)?;
        }
        return Ok(());
    }
    path(url.path)?;
    url.query.map_or(Ok(()), query)
}

/// RFC 1738 §3.2: `ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype
/// ]]`, `ftptype = "A" | "I" | "D" | "a" | "i" | "d"`; `fsegment = *[ uchar
/// | "?" | ":" | "@" | "&" | "=" ]` when strict, RFC 3986 `segment`
/// otherwise.
fn ftp(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    let (fpath, typecode) = ftptype(url.path)?;
    if strict {
        chars::all(fpath, &FPATH_1738, Iri::No)?;
        if let Some(q) = url.query {
            chars::all(q, &FPATH_1738, Iri::No)?;
        }
    } else {
        path(fpath)?;
        url.query.map_or(Ok(()), query)?;
    }
    url.parts = Parts::Ftp { path: fpath, typecode };
    Ok(())
}

/// RFC 1738 §3.2.2: the `;type=` suffix of an ftp path and its
/// `ftptype`.
fn ftptype(path: &[u8]) -> Result<(&[u8], Option<u8>), Reject> {
    const KEY: &[u8] = b";type=";
    let at = memchr::memmem::rfind(path, KEY);
    let Some(at) = at else { return Ok((path, None)) };
    let fpath = path.get(..at).unwrap_or_default();
    match path.get(at + KEY.len()..) {
        Some([c]) if matches!(c.to_ascii_lowercase(), b'a' | b'i' | b'd') => {
            Ok((fpath, Some(c.to_ascii_lowercase())))
        }
        _ => Err(Reject::BadTypecode),
    }
}

/// RFC 4266 §2.1 (RFC 1738 §3.4): `gopherurl = "gopher://" hostport [ / [
/// gtype [ selector [ "%09" search [ "%09" gopher+_string ] ] ] ] ]`, `gtype
/// = xchar`, `selector = search = gopher+_string = *xchar`. The selector
/// may hold `?` (an `xchar`), so it runs to the fragment.
fn gopher<'a>(
    url: &mut Url<'a>,
    body: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    if strict {
        chars::all(url.path, &XCHAR, Iri::No)?;
        if let Some(q) = url.query {
            chars::all(q, &XCHAR, Iri::No)?;
        }
    } else {
        path(url.path)?;
        url.query.map_or(Ok(()), query)?;
    }
    // The gopher path: everything after the "/" that ends the authority,
    // a "?" included (it is an xchar of the selector).
    let start = 2 + url.authority.map_or(0, <[u8]>::len) + 1;
    let gopher_path = if url.path.is_empty() {
        &[][..]
    } else {
        body.get(start..).unwrap_or_default()
    };
    let (kind, selector) = match gopher_path.first() {
        None => (None, gopher_path),
        Some(b'%') => (
            chars::pct_encoded(gopher_path, 0),
            gopher_path.get(3..).unwrap_or_default(),
        ),
        Some(&c) => (Some(c), gopher_path.get(1..).unwrap_or_default()),
    };
    let (sel, search, plus) = split_tabs(selector);
    url.parts = Parts::Gopher { kind, selector: sel, search, plus };
    Ok(())
}

/// Splits a gopher selector at its first two `%09` (encoded tabs).
fn split_tabs(s: &[u8]) -> (&[u8], Option<&[u8]>, Option<&[u8]>) {
    let Some(i) = memchr::memmem::find(s, b"%09") else {
        return (s, None, None);
    };
    let sel = s.get(..i).unwrap_or_default();
    let rest = s.get(i + 3..).unwrap_or_default();
    match memchr::memmem::find(rest, b"%09") {
        Some(j) => (sel, rest.get(..j), rest.get(j + 3..)),
        None => (sel, Some(rest), None),
    }
}

/// RFC 5538 §3: `nntpURL = "nntp:" server "/" group [ "/" article-number
/// ]`, `group = 1*( group-char / pct-encoded )`, `article-number =
/// 1*16DIGIT`; RFC 1738 §3.7 when strict: `nntpurl = "nntp://" hostport
/// "/" group [ "/" digits ]`, `group = alpha *[ alpha | digit | "-" | "." |
/// "+" | "_" ]`.
fn nntp(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if url.query.is_some() {
        return Err(Reject::BadPath);
    }
    let rest = url.path.strip_prefix(b"/").ok_or(Reject::BadNews)?;
    let (group, number) = match memchr::memchr(b'/', rest) {
        Some(i) => (rest.get(..i).unwrap_or_default(), rest.get(i + 1..)),
        None => (rest, None),
    };
    let group_ok = if strict {
        rfc1738_group(group)
    } else {
        !group.is_empty() && chars::all(group, &GROUP_CHAR, Iri::No).is_ok()
    };
    if !group_ok {
        return Err(Reject::BadNews);
    }
    let article = match number {
        None => None,
        Some(n) => {
            let ok = !n.is_empty()
                && (strict || n.len() <= 16)
                && n.iter().all(|&b| DIGIT[usize::from(b)]);
            if !ok {
                return Err(Reject::BadNews);
            }
            Some(n.iter().fold(0u64, |v, &d| {
                v.saturating_mul(10).saturating_add(u64::from(d - b'0'))
            }))
        }
    };
    url.parts = Parts::Nntp { group, article };
    Ok(())
}

/// RFC 1738 §5: `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]`.
fn rfc1738_group(s: &[u8]) -> bool {
    s.first().is_some_and(|&b| ALPHA[usize::from(b)])
        && s.iter().all(|&b| GROUP_CHAR[usize::from(b)])
}

/// RFC 4248 §2 (RFC 1738 §3.8): `telnetURL = "telnet://" login [ "/" ]`.
fn telnet(url: &mut Url<'_>) -> Result<(), Reject> {
    if !matches!(url.path, b"" | b"/") || url.query.is_some() {
        return Err(Reject::BadPath);
    }
    url.parts = Parts::Telnet { user: url.user, password: url.password };
    Ok(())
}

/// RFC 1738 §3.9:
///
/// ```text
/// waisdatabase = "wais://" hostport "/" database
/// waisindex    = "wais://" hostport "/" database "?" search
/// waisdoc      = "wais://" hostport "/" database "/" wtype "/" wpath
/// database = wtype = wpath = *uchar
/// ```
///
/// Segments are RFC 3986 `segment`s unless strict.
fn wais(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    let rest = url.path.strip_prefix(b"/").ok_or(Reject::BadPath)?;
    let mut segs = rest.split(|&b| b == b'/');
    let database = segs.next().unwrap_or_default();
    let (kind, wpath) = (segs.next(), segs.next());
    if segs.next().is_some() || kind.is_some() != wpath.is_some() {
        return Err(Reject::BadPath);
    }
    if kind.is_some() && url.query.is_some() {
        return Err(Reject::BadPath);
    }
    let class = if strict { &UCHAR } else { &PCHAR };
    let iri = if strict { Iri::No } else { Iri::Ucs };
    for seg in [Some(database), kind, wpath].into_iter().flatten() {
        chars::all(seg, class, iri)?;
    }
    if let Some(q) = url.query {
        if strict {
            chars::all(q, &SEARCH_1738, Iri::No)?;
        } else {
            query(q)?;
        }
    }
    url.parts = Parts::Wais { database, kind, path: wpath, search: url.query };
    Ok(())
}

/// RFC 8089 §2: `file-URI = file-scheme ":" file-hier-part`,
/// `file-hier-part = ( "//" auth-path ) / local-path`, `auth-path = [
/// file-auth ] path-absolute`, `file-auth = "localhost" / host`; RFC 1738
/// §3.10 when strict: `fileurl = "file://" [ host | "localhost" ] "/"
/// fpath`. No query, port or userinfo.
fn file(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if url.port_text.is_some() {
        return Err(Reject::BadPort);
    }
    if url.query.is_some() || url.path.first() != Some(&b'/') {
        return Err(Reject::BadPath);
    }
    if strict {
        chars::all(url.path, &FPATH_1738, Iri::No)?;
    } else {
        path(url.path)?;
    }
    let local = match url.host_text {
        None | Some(b"") => true,
        Some(h) => h.eq_ignore_ascii_case(b"localhost"),
    };
    url.parts = Parts::File { local, path: url.path };
    Ok(())
}

/// RFC 1738 §3.11:
///
/// ```text
/// prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
/// ppath       = psegment *[ "/" psegment ]
/// psegment    = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
/// fieldspec   = ";" fieldname "=" fieldvalue
/// fieldname   = fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ]
/// ```
///
/// RFC 3986 `segment`s and `pchar` names and values unless strict.
fn prospero(url: &mut Url<'_>, strict: bool) -> Result<(), Reject> {
    if url.path.first() != Some(&b'/') {
        return Err(Reject::BadPath);
    }
    let (ppath, fields) = match memchr::memchr(b';', url.path) {
        Some(i) => {
            (url.path.get(..i).unwrap_or_default(), url.path.get(i + 1..))
        }
        None => (url.path, None),
    };
    if strict {
        chars::all(ppath, &FPATH_1738, Iri::No)?;
        if let Some(q) = url.query {
            chars::all(q, &FPATH_1738, Iri::No)?;
        }
    } else {
        path(ppath)?;
        url.query.map_or(Ok(()), query)?;
    }
    if let Some(fields) = fields {
        for spec in fields.split(|&b| b == b';') {
            let eq = memchr::memchr(b'=', spec).ok_or(Reject::BadPath)?;
            let name = spec.get(..eq).unwrap_or_default();
            let value = spec.get(eq + 1..).unwrap_or_default();
            for part in [name, value] {
                if strict {
                    chars::all(part, &FIELD_1738, Iri::No)?;
                } else if part.contains(&b'=') {
                    return Err(Reject::BadPath);
                } else {
                    chars::all(part, &PCHAR, Iri::Ucs)?;
                }
            }
        }
    }
    url.parts =
        Parts::Prospero { path: ppath, fields: fields.unwrap_or_default() };
    Ok(())
}

/// RFC 6068 §2 (RFC 1738 §3.5): the `mailto` URL; its addresses become the
/// path and its header fields the query.
fn mailto_url<'a>(
    url: &mut Url<'a>,
    body: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    let m = mailto::mailto(body, strict)?;
    url.path = m.to();
    url.query = m.header_text();
    url.parts = Parts::Mailto(m);
    Ok(())
}

/// RFC 5538 §4: `newsURL = "news:" [ server "/" ] ( article / newsgroups
/// )`, `server = "//" authority`, `article = msg-id-core`, `newsgroups =
/// *( group-char / pct-encoded / "*" )`; RFC 1738 §3.6 when strict:
/// `newsurl = "news:" grouppart`, `grouppart = "*" | group | article`.
fn news_url<'a>(
    url: &mut Url<'a>,
    body: &'a [u8],
    strict: bool,
) -> Result<(), Reject> {
    let refs = match body.strip_prefix(b"//") {
        Some(after) if !strict => {
            let slash = memchr::memchr(b'/', after).ok_or(Reject::BadNews)?;
            let auth = after.get(..slash).unwrap_or_default();
            authority(url, auth, strict)?;
            url.path = after.get(slash..).unwrap_or_default();
            after.get(slash + 1..).unwrap_or_default()
        }
        _ => body,
    };
    let news = if refs == b"*" || (refs.is_empty() && url.authority.is_some())
    {
        News::All
    } else if refs.is_empty() {
        return Err(Reject::Empty);
    } else if strict {
        rfc1738_grouppart(refs)?
    } else if refs.contains(&b'@') {
        chars::all(refs, &PCHAR, Iri::No).map_err(|_| Reject::BadNews)?;
        if !mailto::msg_id_core(refs) {
            return Err(Reject::BadNews);
        }
        News::Article(refs)
    } else {
        chars::all(refs, &NEWSGROUPS, Iri::No).map_err(|r| match r {
            Reject::BadEscape => r,
            _ => Reject::BadNews,
        })?;
        News::Groups(refs)
    };
    url.parts = Parts::News(news);
    Ok(())
}

/// RFC 1738 §5: `grouppart = "*" | group | article`, `article = 1*[ uchar
/// | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host`.
fn rfc1738_grouppart(s: &[u8]) -> Result<News<'_>, Reject> {
    match memchr::memchr(b'@', s) {
        Some(at) => {
            let (id, host_text) = (s.get(..at), s.get(at + 1..));
            let id = id.unwrap_or_default();
            let host_text = host_text.unwrap_or_default();
            let ok = !id.is_empty()
                && chars::all(id, &chars::ARTICLE_1738, Iri::No).is_ok()
                && host::host(host_text, Rule::Dns, true, false).is_ok();
            if ok {
                Ok(News::Article(s))
            } else {
                Err(Reject::BadNews)
            }
        }
        None if rfc1738_group(s) => Ok(News::Groups(s)),
        None => Err(Reject::BadNews),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The one-pass http rule gives what the general route gives.
        #[test]
        fn http_one_pass_is_general(
            s in "https?://([a-z.@:]{0,8}|\\[[0-9a-f:]{0,6}\\])(:[0-9]{0,3})?[/a-z?#%.é\u{e000} ]{0,12}"
        ) {
            let b = s.as_bytes();
            let (name, rest) = scheme(b).expect("scheme");
            let scheme = Scheme::from_name(name);
            let fast = match rest.strip_prefix(b"//") {
                Some(after) => {
                    let mut url = blank(b, scheme, name);
                    http_one_pass(&mut url, after).map(|()| url)
                }
                None => return Ok(()),
            };
            let slow = general(b, false, scheme, name, rest);
            match (&fast, &slow) {
                (Ok(f), Ok(g)) => proptest::prop_assert_eq!(f, g),
                (Err(_), Err(_)) => {}
                _ => proptest::prop_assert!(false, "{:?}: {:?} vs {:?}", s, fast, slow),
            }
        }
    }

    proptest::proptest! {
        /// The one-pass authority gives what the general route gives.
        #[test]
        fn authority_fast_is_general(
            s in "[a-zA-Z0-9.-]{0,10}(:[0-9]{0,6})?[/?#:@x_]?[a-z0-9]{0,3}",
            strict: bool,
        ) {
            for scheme in [Scheme::Http, Scheme::Other, Scheme::Gopher] {
                let b = s.as_bytes();
                let mut fast = blank(b, scheme, b"x");
                let mut slow = blank(b, scheme, b"x");
                let f = authority(&mut fast, b, strict);
                let g = authority_general(&mut slow, b, strict);
                proptest::prop_assert_eq!(f, g, "{:?}", s);
                if f.is_ok() {
                    proptest::prop_assert_eq!(fast, slow, "{:?}", s);
                }
            }
        }
    }

    /// Every URL-like candidate of the files under `dir` (recursively):
    /// at each `:`, the scheme bytes before it and the text up to white
    /// space, `<`, `>` or `"` after it, whole and cut before each
    /// punctuation byte, so that ends a reader would trim are tried too.
    fn candidates(dir: &std::path::Path, out: &mut Vec<Vec<u8>>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                candidates(&path, out);
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else { continue };
            for (i, _) in bytes.iter().enumerate().filter(|(_, &b)| b == b':')
            {
                let lowest = i.saturating_sub(32);
                let mut s = i;
                while s > lowest
                    && bytes
                        .get(s - 1)
                        .is_some_and(|&b| super::super::is_scheme_byte(b))
                {
                    s -= 1;
                }
                let tail = bytes.get(i..).unwrap_or_default();
                let len = tail
                    .iter()
                    .take(2048)
                    .position(|&b| b <= b' ' || b"<>\"".contains(&b))
                    .unwrap_or(tail.len().min(2048));
                let Some(token) = bytes.get(s..i + len) else { continue };
                if s == i || len < 2 {
                    continue;
                }
                out.push(token.to_vec());
                for (j, b) in token.iter().enumerate().skip(i - s + 1) {
                    if b".,;:!?)]'&=#/@%".contains(b) {
                        out.extend(token.get(..j).map(<[u8]>::to_vec));
                    }
                }
            }
        }
    }

    /// The fast paths give exactly what the reference gives, verdict,
    /// reason and components, on every candidate of the bundled corpora
    /// (and of the folders in `URLGREP_ORACLE_DIRS`, `:`-separated).
    #[test]
    fn fast_paths_are_the_reference_on_the_corpora() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut all = Vec::new();
        candidates(&root.join("corpora"), &mut all);
        if let Ok(dirs) = std::env::var("URLGREP_ORACLE_DIRS") {
            for d in dirs.split(':') {
                candidates(std::path::Path::new(d), &mut all);
            }
        }
        all.sort_unstable();
        all.dedup();
        assert!(all.len() > 2_000, "only {} candidates", all.len());
        let mut mailto_ok = 0;
        for c in &all {
            for strict in [false, true] {
                let new = parse(c, strict);
                let old = parse_reference(c, strict);
                // `validate` is `Url::parse_with(…).map(|u| u.scheme())`.
                let scheme = if strict {
                    old.and_then(|u| parse_reference(c, false).map(|_| u))
                } else {
                    old
                }
                .map(|u| u.scheme);
                let v = verdict(c, strict);
                assert_eq!(v.map(|v| v.scheme), scheme);
                // The host comes out of the parse as `Url::parse` reads it.
                if let Ok(v) = v {
                    let want = parse(c, false)
                        .ok()
                        .and_then(|u| u.host_text)
                        .filter(|h| !h.is_empty());
                    let got = v.host.map(|(a, b)| &c[a as usize..b as usize]);
                    assert_eq!(got, want, "{:?}", String::from_utf8_lossy(c));
                }
                if let Some((scheme, n)) = common_scheme(c) {
                    let (name, rest) = self::scheme(c).expect("a scheme");
                    assert_eq!(name.len(), n);
                    assert_eq!(c.get(n + 1..), Some(rest));
                    assert_eq!(Scheme::from_name(name), scheme);
                }
                for n in 0..c.len().min(12) {
                    let name = c.get(..n).unwrap_or_default();
                    assert_eq!(
                        Scheme::from_prefix(c, n),
                        Scheme::from_name(name)
                    );
                }
                assert_eq!(
                    new,
                    old,
                    "{:?} strict={strict}",
                    String::from_utf8_lossy(c)
                );
                if !strict && new.is_ok_and(|u| u.scheme == Scheme::Mailto) {
                    mailto_ok += 1;
                }
            }
        }
        eprintln!("{} candidates, {mailto_ok} mailto accepted", all.len());
        assert!(mailto_ok > 30, "only {mailto_ok} mailto URLs accepted");
    }

    proptest::proptest! {
        /// The fast paths give what the reference gives on text close to
        /// their shapes.
        #[test]
        fn fast_paths_are_the_reference(
            s in "(mailto|MailTo|http|https):[a-z.@?=&#%,!~_\"\\[\\]é]{0,24}",
        ) {
            for strict in [false, true] {
                let b = s.as_bytes();
                let old = parse_reference(b, strict);
                proptest::prop_assert_eq!(
                    parse(b, strict), old, "{:?} strict={}", s, strict
                );
                let scheme = if strict {
                    old.and_then(|u| parse_reference(b, false).map(|_| u))
                } else {
                    old
                }
                .map(|u| u.scheme);
                proptest::prop_assert_eq!(verdict(b, strict).map(|v| v.scheme), scheme);
            }
        }
    }

    #[test]
    fn common_schemes() {
        for s in
            ["http://a", "HTTP://a", "hTtPs://a", "MailTo:a@b", "http:abc"]
        {
            let (scheme, n) = common_scheme(s.as_bytes()).expect(s);
            let (name, _) = self::scheme(s.as_bytes()).expect(s);
            assert_eq!((scheme, n), (Scheme::from_name(name), name.len()));
        }
        for s in [
            "http:/",
            "http\x1a//a",
            "httpx://a",
            "mailto\x1aa@b.c",
            "ftp://a.b",
        ] {
            assert_eq!(common_scheme(s.as_bytes()), None, "{s:?}");
        }
    }

    #[test]
    fn rule_functions() {
        assert_eq!(scheme(b"Http:x"), Ok((&b"Http"[..], &b"x"[..])));
        assert_eq!(scheme(b"+a:x"), Err(Reject::BadScheme));
        assert_eq!(scheme(b"a"), Err(Reject::BadScheme));
        assert_eq!(ftptype(b"/a;type=I"), Ok((&b"/a"[..], Some(b'i'))));
        assert_eq!(ftptype(b"/a;type=b"), Err(Reject::BadTypecode));
        assert_eq!(ftptype(b"/a;x=y"), Ok((&b"/a;x=y"[..], None)));
        assert_eq!(split_tabs(b"sel"), (&b"sel"[..], None, None));
        assert_eq!(split_tabs(b"s%09q"), (&b"s"[..], Some(&b"q"[..]), None));
        assert_eq!(
            split_tabs(b"s%09%09p"),
            (&b"s"[..], Some(&b""[..]), Some(&b"p"[..]))
        );
        assert!(rfc1738_group(b"comp.lang.c++"));
        assert!(!rfc1738_group(b"1comp") && !rfc1738_group(b""));
        assert_eq!(
            rfc1738_grouppart(b"a;b@host.example"),
            Ok(News::Article(b"a;b@host.example"))
        );
        assert_eq!(rfc1738_grouppart(b"a@1.2.3"), Err(Reject::BadNews));
        let h = hier_part(b"//a@b:1/p?q");
        assert_eq!(h.authority, Some(&b"a@b:1"[..]));
        assert_eq!((h.path, h.query), (&b"/p"[..], Some(&b"q"[..])));
        let h = hier_part(b"x:y");
        assert_eq!((h.authority, h.path, h.query), (None, &b"x:y"[..], None));
    }
}
