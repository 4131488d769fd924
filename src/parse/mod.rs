//! Validation of URL candidates.
//!
//! Every candidate the scanner finds passes through [`validate`] before it
//! becomes a match; a rejected candidate carries a [`Reject`] reason and is
//! never an error.
//!
//! This is the minimal validator of the core issue: scheme syntax, a host
//! for `//` schemes (RFC 3986 §3.2.2 reg-name, IPv4 or bracketed IPv6
//! literal), a port of at most 65535 and well-formed `%XX` escapes. The
//! scheme-aware parser replaces it behind the same signature.

mod scheme;

pub(crate) use scheme::{is_bare_opaque, is_scheme_byte, MAX_SCHEME_LEN};
pub use scheme::{is_registered, is_scheme_syntax, Scheme};

use std::fmt;

/// Why a candidate is not a URL.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reject {
    /// Nothing after the scheme, or nothing at all.
    Empty,
    /// The scheme is not `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    BadScheme,
    /// A scheme that needs a host (`//` authority) has none.
    EmptyHost,
    /// A host name label is empty, too long, or has a bad character.
    BadHost,
    /// An IPv4 address with an octet above 255 or the wrong number of parts.
    BadIpv4,
    /// A bracketed IP literal that is not a valid IPv6 address.
    BadIpv6,
    /// The port is not a number from 0 to 65535.
    BadPort,
    /// A `%` not followed by two hex digits.
    BadEscape,
    /// The candidate is longer than the configured cap.
    TooLong,
}

impl Reject {
    /// A short, stable, lower-case name, for statistics keys.
    pub fn name(self) -> &'static str {
        match self {
            Reject::Empty => "empty",
            Reject::BadScheme => "bad-scheme",
            Reject::EmptyHost => "empty-host",
            Reject::BadHost => "bad-host",
            Reject::BadIpv4 => "bad-ipv4",
            Reject::BadIpv6 => "bad-ipv6",
            Reject::BadPort => "bad-port",
            Reject::BadEscape => "bad-escape",
            Reject::TooLong => "too-long",
        }
    }
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reject::Empty => "nothing after the scheme",
            Reject::BadScheme => "invalid scheme name",
            Reject::EmptyHost => "empty host",
            Reject::BadHost => "invalid host name",
            Reject::BadIpv4 => "invalid IPv4 address",
            Reject::BadIpv6 => "invalid IPv6 literal",
            Reject::BadPort => "port is not a number from 0 to 65535",
            Reject::BadEscape => "'%' not followed by two hex digits",
            Reject::TooLong => "longer than the length cap",
        })
    }
}

impl std::error::Error for Reject {}

/// Validates a whole URL (scheme included, wrapper whitespace already
/// removed) and returns its scheme.
///
/// `strict` selects RFC 1738 only (ASCII, unsafe characters escaped);
/// otherwise RFC 3986/3987 are the measure.
pub fn validate(url: &[u8], strict: bool) -> Result<Scheme, Reject> {
    let colon = memchr::memchr(b':', url).ok_or(Reject::BadScheme)?;
    let name = &url[..colon];
    if !is_scheme_syntax(name) {
        return Err(Reject::BadScheme);
    }
    let scheme = Scheme::from_name(name);
    let rest = &url[colon + 1..];
    if rest.is_empty() {
        return Err(Reject::Empty);
    }
    check_escapes(rest)?;
    if strict && !rest.is_ascii() {
        return Err(Reject::BadHost);
    }
    if let Some(after) = rest.strip_prefix(b"//") {
        let end = after
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b'#'))
            .unwrap_or(after.len());
        authority(&after[..end], scheme)?;
    } else if needs_authority(scheme) {
        return Err(Reject::EmptyHost);
    }
    Ok(scheme)
}

/// Schemes of RFC 1738 §3 whose syntax starts with `//`.
fn needs_authority(scheme: Scheme) -> bool {
    matches!(
        scheme,
        Scheme::Ftp
            | Scheme::Http
            | Scheme::Https
            | Scheme::Gopher
            | Scheme::Nntp
            | Scheme::Telnet
            | Scheme::Wais
            | Scheme::Prospero
    )
}

/// RFC 3986 §3.2: `authority = [ userinfo "@" ] host [ ":" port ]`.
fn authority(auth: &[u8], scheme: Scheme) -> Result<(), Reject> {
    let hostport = match memchr::memrchr(b'@', auth) {
        Some(at) => &auth[at + 1..],
        None => auth,
    };
    let (host, port) = if hostport.first() == Some(&b'[') {
        let close = memchr::memchr(b']', hostport).ok_or(Reject::BadIpv6)?;
        let lit = &hostport[1..close];
        if !is_ipv6(lit) {
            return Err(Reject::BadIpv6);
        }
        match &hostport[close + 1..] {
            [] => (None, None),
            [b':', port @ ..] => (None, Some(port)),
            _ => return Err(Reject::BadPort),
        }
    } else {
        match memchr::memrchr(b':', hostport) {
            Some(i) => (Some(&hostport[..i]), Some(&hostport[i + 1..])),
            None => (Some(hostport), None),
        }
    };
    if let Some(port) = port {
        if !port.is_empty() {
            let ok = port.len() <= 5
                && port.iter().all(u8::is_ascii_digit)
                && port.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'))
                    <= 65535;
            if !ok {
                return Err(Reject::BadPort);
            }
        }
    }
    match host {
        Some([]) if scheme == Scheme::File => Ok(()),
        Some([]) => Err(Reject::EmptyHost),
        Some(h) => host_name(h),
        None => Ok(()),
    }
}

/// RFC 1738 §3.1 hostname / hostnumber, with RFC 3987 letters allowed.
fn host_name(host: &[u8]) -> Result<(), Reject> {
    if host.iter().all(|&b| b.is_ascii_digit() || b == b'.')
        && host.contains(&b'.')
    {
        let parts = host.split(|&b| b == b'.').collect::<Vec<_>>();
        let ok = parts.len() == 4
            && parts.iter().all(|p| {
                !p.is_empty()
                    && p.len() <= 3
                    && p.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'))
                        <= 255
            });
        return if ok { Ok(()) } else { Err(Reject::BadIpv4) };
    }
    let host = host.strip_suffix(b".").unwrap_or(host);
    for label in host.split(|&b| b == b'.') {
        let ok = !label.is_empty()
            && label.len() <= 63
            && label.first() != Some(&b'-')
            && label.last() != Some(&b'-')
            && label.iter().all(|&b| {
                b.is_ascii_alphanumeric()
                    || b == b'-'
                    || b == b'_'
                    || b == b'%'
                    || b >= 0x80
            });
        if !ok {
            return Err(Reject::BadHost);
        }
    }
    Ok(())
}

/// RFC 3986 §3.2.2 IPv6address, checked by the standard library's parser
/// (zone identifiers are not allowed, as in RFC 3986).
fn is_ipv6(lit: &[u8]) -> bool {
    std::str::from_utf8(lit)
        .ok()
        .and_then(|s| s.parse::<std::net::Ipv6Addr>().ok())
        .is_some()
}

/// RFC 3986 §2.1: `pct-encoded = "%" HEXDIG HEXDIG`.
fn check_escapes(s: &[u8]) -> Result<(), Reject> {
    let mut rest = s;
    while let Some(i) = memchr::memchr(b'%', rest) {
        match rest.get(i + 1..i + 3) {
            Some([a, b]) if a.is_ascii_hexdigit() && b.is_ascii_hexdigit() => {
                rest = &rest[i + 3..];
            }
            _ => return Err(Reject::BadEscape),
        }
    }
    Ok(())
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
    fn rejects_with_reasons() {
        assert_eq!(no("http://"), Reject::EmptyHost);
        assert_eq!(no("http:"), Reject::Empty);
        assert_eq!(no("http://a.b:70000/"), Reject::BadPort);
        assert_eq!(no("http://300.1.1.1/"), Reject::BadIpv4);
        assert_eq!(no("http://-a.b/"), Reject::BadHost);
        assert_eq!(no("http://[zz]/"), Reject::BadIpv6);
        assert_eq!(no("http://a.b/%zz"), Reject::BadEscape);
        assert_eq!(no("1a://b"), Reject::BadScheme);
        assert_eq!(no("http:foo"), Reject::EmptyHost);
    }
}
