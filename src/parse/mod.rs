//! The validating, scheme-aware URL parser.
//!
//! Every candidate the scanner finds passes through [`validate`] before it
//! becomes a match; a rejected candidate carries a [`Reject`] reason and is
//! never an error. [`Url::parse`] gives the components, each a slice of the
//! input: scheme, user, password, [`Host`], port, path, query, fragment,
//! and the scheme-specific [`Parts`].
//!
//! # Grammars
//!
//! One function per grammar rule, each citing its source:
//!
//! - generic syntax: RFC 3986 §3 (with §3.2.2 `IP-literal`, `IPv6address`,
//!   `IPvFuture`), RFC 3987 §2.2 for IRIs (`ucschar`, `iprivate`);
//! - hosts: RFC 1738 §3.1/§5 `hostname` (labels of letters, digits and
//!   inner hyphens, the last starting with a letter), RFC 1123 §2.1, IDNA
//!   (UTS #46) for internationalised names;
//! - schemes: RFC 9110 §4.2 (http, https), RFC 1738 §3.2 (ftp `;type=`),
//!   RFC 4266 (gopher), RFC 6068 (mailto), RFC 5538 (news, nntp), RFC 4248
//!   (telnet), RFC 1738 §3.9 (wais), RFC 8089 (file), RFC 1738 §3.11
//!   (prospero); every other scheme gets RFC 3986 generic syntax.
//!
//! Two levels ([`Strictness`]): the default follows RFC 3986/3987 and the
//! successors of RFC 1738; [`Strictness::Rfc1738`] accepts only RFC 1738
//! (ASCII, unsafe characters escaped, its §5 BNF as written).
//!
//! Deliberate deviations: `IPvFuture` literals are refused in http(s) URLs
//! (no client can reach one, and WHATWG parsers refuse them); DNS hosts may
//! end in one dot (an absolute name, RFC 1034 §3.1) in the default mode; a
//! `#fragment` (RFC 1808 §2.2) is allowed after any URL at both levels.

mod authority;
mod cache;
mod chars;
mod components;
mod grammars;
mod host;
pub mod html_refs;
mod mailto;
mod normal;
mod registry;
pub mod resolve;
mod scheme;
pub(crate) mod shallow;
mod url;

pub(crate) use cache::{
    empty_authority, scheme_alone, validate as validate_cached,
};
pub(crate) use chars::lanes_within;
#[cfg(test)]
pub(crate) use host::hostname_prefix;
pub(crate) use host::idn_to_ascii;
pub(crate) use host::{ipv4address, ipv6address};
pub use registry::{OBSOLETE_WEB_TAILS, REGISTERED};
pub(crate) use scheme::{
    is_bare_opaque, is_scheme_byte, registered_before, registered_prefix,
    MAX_SCHEME_LEN,
};
pub use scheme::{is_registered, is_scheme_syntax, Scheme};

pub use self::components::{prospero_fields, News, Parts, Url};
pub use self::host::Host;
pub use self::mailto::{Addresses, Mailto};
pub use self::normal::redact;
pub use self::resolve::resolve;
pub use self::url::Strictness;

use std::fmt;

/// Why a candidate is not a URL.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reject {
    /// Nothing after the scheme, or nothing at all.
    Empty,
    /// The scheme is not `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`
    /// followed by `:`.
    BadScheme,
    /// A scheme that needs a host (`//` authority) has none, or it is
    /// empty.
    EmptyHost,
    /// A host name label is empty, too long, starts or ends with a hyphen,
    /// holds a character other than a letter, digit or hyphen, or the last
    /// label does not start with a letter.
    BadLabel,
    /// An internationalised host name that IDNA (UTS #46) refuses.
    BadIdn,
    /// An IPv4 address with an octet above 255 or the wrong number of parts.
    BadIpv4,
    /// A bracketed IP literal that is not a valid IPv6 address (or
    /// `IPvFuture` where allowed).
    BadIpv6,
    /// The port is not a number from 0 to 65535, or not allowed here.
    BadPort,
    /// A `%` not followed by two hex digits.
    BadEscape,
    /// A character the component may not hold unescaped.
    BadCharacter,
    /// A user name or password where the scheme takes none.
    Userinfo,
    /// The path (or query) does not fit the scheme's grammar.
    BadPath,
    /// An ftp `;type=` that is not `a`, `i` or `d`.
    BadTypecode,
    /// A mailto address that is not an RFC 5322 `addr-spec`.
    BadMailto,
    /// A mailto header field that is not `hfname=hfvalue` of `qchar`s.
    BadHeader,
    /// A news group, article (message id) or nntp article number that is
    /// malformed.
    BadNews,
    /// The candidate is longer than the configured cap.
    TooLong,
    /// A bidirectional formatting character (U+200E, U+200F, U+061C,
    /// U+202A–U+202E, U+2066–U+2069) anywhere in the URL: RFC 3987 §4.1
    /// forbids them in IRIs, and a terminal would show the text around
    /// them reordered (`…/\u{202E}gpj.exe` reads `…/exe.jpg`).
    Bidi,
}

impl Reject {
    /// A short, stable, lower-case name, for statistics keys.
    pub fn name(self) -> &'static str {
        match self {
            Reject::Empty => "empty",
            Reject::BadScheme => "bad-scheme",
            Reject::EmptyHost => "empty-host",
            Reject::BadLabel => "bad-label",
            Reject::BadIdn => "bad-idn",
            Reject::BadIpv4 => "bad-ipv4",
            Reject::BadIpv6 => "bad-ipv6",
            Reject::BadPort => "bad-port",
            Reject::BadEscape => "bad-escape",
            Reject::BadCharacter => "bad-character",
            Reject::Userinfo => "userinfo",
            Reject::BadPath => "bad-path",
            Reject::BadTypecode => "bad-typecode",
            Reject::BadMailto => "bad-mailto",
            Reject::BadHeader => "bad-header",
            Reject::BadNews => "bad-news",
            Reject::TooLong => "too-long",
            Reject::Bidi => "bidi-control",
        }
    }
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reject::Empty => "nothing after the scheme",
            Reject::BadScheme => "invalid scheme name",
            Reject::EmptyHost => "empty host",
            Reject::BadLabel => {
                "invalid host name label (letters, digits, inner hyphens)"
            }
            Reject::BadIdn => "internationalised host name refused by IDNA",
            Reject::BadIpv4 => "invalid IPv4 address",
            Reject::BadIpv6 => "invalid IPv6 literal",
            Reject::BadPort => "port is not a number from 0 to 65535",
            Reject::BadEscape => "'%' not followed by two hex digits",
            Reject::BadCharacter => "character not allowed here unescaped",
            Reject::Userinfo => "user or password not allowed in this scheme",
            Reject::BadPath => "path does not fit the scheme's grammar",
            Reject::BadTypecode => "ftp ';type=' is not a, i or d",
            Reject::BadMailto => "invalid mailto address",
            Reject::BadHeader => "invalid mailto header field",
            Reject::BadNews => "invalid news group, article or number",
            Reject::TooLong => "longer than the length cap",
            Reject::Bidi => {
                "bidirectional formatting character (RFC 3987 section 4.1)"
            }
        })
    }
}

impl std::error::Error for Reject {}

/// Validates a whole URL (scheme included, wrapper whitespace already
/// removed) and returns its scheme.
///
/// `strict` selects RFC 1738 only (ASCII, unsafe characters escaped);
/// otherwise RFC 3986/3987 are the measure. This is [`Url::parse_with`]
/// without the components; it does not allocate unless the host is an
/// internationalised name.
pub fn validate(url: &[u8], strict: bool) -> Result<Scheme, Reject> {
    verdict(url, strict).map(|v| v.scheme)
}

/// [`validate`], with what the printers need of the parse: the scheme
/// and where the host is, so that no later stage parses the URL again.
pub fn verdict(url: &[u8], strict: bool) -> Result<Verdict, Reject> {
    self::url::verdict(url, strict)
}

/// The scheme name as written at the start of `url`: the bytes before
/// its first `:` (all of it when there is none). The one place that
/// reads it for the finder, the printers and the statistics.
pub fn scheme_name(url: &[u8]) -> &[u8] {
    match memchr::memchr(b':', url) {
        Some(i) => url.get(..i).unwrap_or_default(),
        None => url,
    }
}

/// The [`Scheme`] of the name [`scheme_name`] reads, from at most the
/// first nine bytes of `url`: a name of nine bytes or more is
/// [`Scheme::Other`], whatever follows. The finder asks it of every
/// rejected candidate.
pub(crate) fn scheme_of(url: &[u8]) -> Scheme {
    let head = url.get(..9).unwrap_or(url);
    let n = match head.iter().position(|&b| b == b':') {
        Some(i) => i,
        None if head.len() < url.len() => return Scheme::Other,
        None => url.len(),
    };
    Scheme::from_prefix(url, n)
}

/// The host of `url` read by its shape, for text the validator did not
/// read (a rejected candidate) or reads no host in (`mailto`): the host
/// of `scheme://authority` (after any `user@`, before a port; an IP
/// literal's brackets kept), or the domain of the first `mailto:`
/// address; `None` when it has neither or it is empty.
pub fn host_by_shape(url: &[u8]) -> Option<&[u8]> {
    let colon = memchr::memchr(b':', url)?;
    let rest = url.get(colon + 1..)?;
    let raw = if let Some(after) = rest.strip_prefix(b"//") {
        let end = after
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b'#'))
            .unwrap_or(after.len());
        let auth = after.get(..end)?;
        let hostport = match memchr::memrchr(b'@', auth) {
            Some(at) => auth.get(at + 1..)?,
            None => auth,
        };
        if hostport.first() == Some(&b'[') {
            let close = memchr::memchr(b']', hostport)?;
            hostport.get(..=close)?
        } else {
            match memchr::memrchr(b':', hostport) {
                Some(i) => hostport.get(..i)?,
                None => hostport,
            }
        }
    } else {
        if !url.get(..colon)?.eq_ignore_ascii_case(b"mailto") {
            return None;
        }
        let end = rest
            .iter()
            .position(|&b| matches!(b, b'?' | b',' | b'#'))
            .unwrap_or(rest.len());
        let addr = rest.get(..end)?;
        addr.get(memchr::memrchr(b'@', addr)? + 1..)?
    };
    (!raw.is_empty()).then_some(raw)
}

/// What the validator says of an accepted URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// The scheme.
    pub scheme: Scheme,
    /// Where the host is in the URL, as a byte range, when it has a
    /// non-empty one: [`Url::host_bytes`] of the default (RFC 3987)
    /// reading, brackets of an IP literal kept. A `mailto` URL has none.
    pub host: Option<(u32, u32)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Scheme {
        match validate(s.as_bytes(), false) {
            Ok(scheme) => scheme,
            Err(r) => panic!("{s:?} rejected: {r}"),
        }
    }

    fn no(s: &str) -> Reject {
        match validate(s.as_bytes(), false) {
            Ok(_) => panic!("{s:?} accepted"),
            Err(r) => r,
        }
    }

    #[test]
    fn accepts_rfc1738_examples() {
        assert_eq!(ok("ftp://info.cern.ch/pub/www/doc;type=d"), Scheme::Ftp);
        assert_eq!(ok("news:comp.infosystems.www"), Scheme::News);
        assert_eq!(ok("http://[::1]:8080/"), Scheme::Http);
        assert_eq!(ok("file:///etc/passwd"), Scheme::File);
        assert_eq!(ok("mailto:a@b.c"), Scheme::Mailto);
        assert_eq!(ok("http://10.0.0.1/"), Scheme::Http);
    }

    #[test]
    fn scheme_of_is_the_scheme_of_the_name() {
        let urls: &[&[u8]] = &[
            b"",
            b":",
            b"http",
            b"http:",
            b"HTTP://",
            b"https://a",
            b"prospero:x",
            b"prosperox:y",
            b"prosperoxy",
            b"prosper",
            b"ftp",
            b"mailto:a@b",
            b"news:x:y",
            b"xhttp://",
            b"sip:a",
            b"a.b:c",
            b"123456789:",
            b"gopher",
            b"gopher:",
            b"file:///",
        ];
        for url in urls {
            for cut in 0..=url.len() {
                let u = &url[..cut];
                assert_eq!(
                    scheme_of(u),
                    Scheme::from_name(scheme_name(u)),
                    "{:?}",
                    String::from_utf8_lossy(u)
                );
            }
        }
    }

    #[test]
    fn rejects_with_reasons() {
        assert_eq!(no("http://"), Reject::EmptyHost);
        assert_eq!(no("http:"), Reject::Empty);
        assert_eq!(no("http://a.b:70000/"), Reject::BadPort);
        assert_eq!(no("http://300.1.1.1/"), Reject::BadIpv4);
        assert_eq!(no("http://-a.b/"), Reject::BadLabel);
        assert_eq!(no("http://[zz]/"), Reject::BadIpv6);
        assert_eq!(no("http://a.b/%zz"), Reject::BadEscape);
        assert_eq!(no("1a://b"), Reject::BadScheme);
        assert_eq!(no("http:foo"), Reject::EmptyHost);
    }

    #[test]
    fn rejects_bidi_controls_in_every_component() {
        let bidi = [
            '\u{200E}', '\u{200F}', '\u{061C}', '\u{202A}', '\u{202B}',
            '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}',
            '\u{2068}', '\u{2069}',
        ];
        let forms = [
            "http://a.example/{}gpj.exe",
            "http://a.example/?q={}x",
            "http://a.example/#{}x",
            "http://ex{}ample.com/",
            "http://u{}:p@a.example/",
            "https://a.example:80/{}",
            "ftp://a.example/{}x",
            "mailto:ceo@ex{}ample.com",
            "mailto:c{}eo@example.com",
            "mailto:ceo@example.com?subject={}x",
            "news:comp.{}x",
            "foo:bar{}",
        ];
        for c in bidi {
            for form in forms {
                let url = form.replace("{}", &c.to_string());
                for strict in [false, true] {
                    assert_eq!(
                        validate(url.as_bytes(), strict),
                        Err(Reject::Bidi),
                        "{url:?} strict={strict}"
                    );
                    assert_eq!(
                        Url::parse_with(
                            url.as_bytes(),
                            if strict {
                                Strictness::Rfc1738
                            } else {
                                Strictness::Rfc3987
                            }
                        )
                        .err(),
                        Some(Reject::Bidi),
                        "{url:?}"
                    );
                }
            }
        }
        // Other non-ASCII text stays an IRI (RFC 3987 §2.2 `ucschar`).
        assert_eq!(ok("http://a.example/\u{00E9}\u{2010}"), Scheme::Http);
        assert_eq!(Reject::Bidi.name(), "bidi-control");
    }
}
