//! Normalisation (RFC 3986 §6.2.2–6.2.3) and redaction (RFC 1738 §6, RFC
//! 3986 §7.5) of a [`Url`].

use super::chars::{self, UNRESERVED};
use super::components::Url;
use super::host::{self, Host};
use super::Scheme;
use std::borrow::Cow;
use std::fmt::Write;

impl<'a> Url<'a> {
    /// The URL in a normal form for statistics and de-duplication:
    ///
    /// - scheme and host lower-cased (RFC 3986 §6.2.2.1), an IDN host in
    ///   its punycode form (RFC 3987 §3.1), an IPv6 host in RFC 5952 form;
    /// - escapes of unreserved characters decoded, the others upper-cased,
    ///   and non-ASCII bytes escaped (§6.2.2.2, RFC 3987 §3.1);
    /// - `.` and `..` segments removed from hierarchical paths (§6.2.2.3);
    /// - an empty or default port dropped, and an empty path after a host
    ///   of a known scheme made `/` (§6.2.3).
    ///
    /// ```
    /// use urlgrep::parse::Url;
    /// let url = Url::parse("HTTP://Bücher.Example:80/%7euser/./a/../b".as_bytes()).unwrap();
    /// assert_eq!(url.normalized(), "http://xn--bcher-kva.example/~user/b");
    /// ```
    pub fn normalized(&self) -> String {
        let mut out = String::with_capacity(self.input.len() + 8);
        for &b in self.scheme_name {
            out.push(char::from(b.to_ascii_lowercase()));
        }
        out.push(':');
        if self.authority.is_some() {
            out.push_str("//");
            if let Some(user) = self.user {
                pct_normalize(user, false, &mut out);
                if let Some(pw) = self.password {
                    out.push(':');
                    pct_normalize(pw, false, &mut out);
                }
                out.push('@');
            }
            self.normal_host(&mut out);
            if let Some(p) = self.port {
                if Some(p) != self.default_port() {
                    let _ = write!(out, ":{p}");
                }
            }
        }
        let hierarchical =
            self.authority.is_some() || self.path.first() == Some(&b'/');
        if hierarchical {
            let mut path = String::with_capacity(self.path.len());
            pct_normalize(self.path, false, &mut path);
            let path = remove_dot_segments(&path);
            if path.is_empty()
                && self.authority.is_some()
                && self.scheme != Scheme::Other
            {
                out.push('/');
            }
            out.push_str(&path);
        } else {
            pct_normalize(self.path, false, &mut out);
        }
        if let Some(q) = self.query {
            out.push('?');
            pct_normalize(q, false, &mut out);
        }
        if let Some(f) = self.fragment {
            out.push('#');
            pct_normalize(f, false, &mut out);
        }
        out
    }

    /// Appends the normal form of the host.
    fn normal_host(&self, out: &mut String) {
        match self.host {
            None => {}
            Some(Host::Domain(d)) => pct_normalize(d, true, out),
            Some(Host::Ipv4(a)) => {
                let _ = write!(out, "{a}");
            }
            Some(Host::Ipv6(a)) => {
                let _ = write!(out, "[{a}]");
            }
            Some(Host::IpFuture(s)) => {
                out.push('[');
                pct_normalize(s, true, out);
                out.push(']');
            }
            Some(Host::Iri(s)) => match host::idn_to_ascii(s) {
                Ok(ascii) => out.push_str(&ascii.to_ascii_lowercase()),
                Err(_) => pct_normalize(s, true, out),
            },
            Some(Host::RegName(s)) => pct_normalize(s, true, out),
        }
    }

    /// The URL with its password, if any, replaced by `***` (RFC 3986
    /// §3.2.1 and §7.5: passwords in URLs are a hazard; RFC 1738 §3.1 put
    /// them there).
    ///
    /// ```
    /// use urlgrep::parse::Url;
    /// let url = Url::parse(b"ftp://joe:secret@ftp.example/pub").unwrap();
    /// assert_eq!(url.redacted(), "ftp://joe:***@ftp.example/pub");
    /// let url = Url::parse(b"ftp://joe@ftp.example/pub").unwrap();
    /// assert_eq!(url.redacted(), "ftp://joe@ftp.example/pub");
    /// ```
    pub fn redacted(&self) -> Cow<'a, str> {
        match self.password_range() {
            Some((start, end)) => {
                let s = self.as_str();
                let (head, tail) = (s.get(..start), s.get(end..));
                Cow::Owned(format!(
                    "{}***{}",
                    head.unwrap_or_default(),
                    tail.unwrap_or_default()
                ))
            }
            None => Cow::Borrowed(self.as_str()),
        }
    }

    /// Where the password lies in the input.
    fn password_range(&self) -> Option<(usize, usize)> {
        let pw = self.password?;
        let start =
            (pw.as_ptr() as usize).checked_sub(self.input.as_ptr() as usize)?;
        Some((start, start + pw.len()))
    }
}

/// Redacts the password of a URL (`user:***@host`, for `--redact`).
///
/// A URL the parser accepts is redacted through [`Url::redacted`]; any
/// other text that still has the shape `scheme://user:password@…` gets the
/// same treatment, so a rejected candidate printed with its reason leaks no
/// password either. Borrowed when there is nothing to hide.
///
/// ```
/// use urlgrep::parse::redact;
/// assert_eq!(&*redact(b"http://a:b@c.d/"), b"http://a:***@c.d/");
/// assert_eq!(&*redact(b"http://a:b@c.d:99999/"), b"http://a:***@c.d:99999/");
/// assert_eq!(&*redact(b"http://c.d/a:b@"), b"http://c.d/a:b@");
/// ```
pub fn redact(url: &[u8]) -> Cow<'_, [u8]> {
    let range = match Url::parse(url) {
        Ok(u) => u.password_range(),
        Err(_) => password_by_shape(url),
    };
    match range {
        Some((start, end)) => {
            let mut out = Vec::with_capacity(url.len());
            out.extend_from_slice(url.get(..start).unwrap_or_default());
            out.extend_from_slice(b"***");
            out.extend_from_slice(url.get(end..).unwrap_or_default());
            Cow::Owned(out)
        }
        None => Cow::Borrowed(url),
    }
}

/// The password of `scheme://user:password@host…` found by shape alone:
/// the authority runs from `//` to the first `/`, `?` or `#`; the userinfo
/// to its last `@`; the password from the first `:` in it.
fn password_by_shape(url: &[u8]) -> Option<(usize, usize)> {
    let start = memchr::memmem::find(url, b"://")? + 3;
    let rest = url.get(start..)?;
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let auth = rest.get(..end)?;
    let at = memchr::memrchr(b'@', auth)?;
    let colon = memchr::memchr(b':', auth.get(..at)?)?;
    Some((start + colon + 1, start + at))
}

/// Appends `s` with escapes normalised (RFC 3986 §6.2.2.2): escaped
/// unreserved characters decoded, other escapes upper-case, non-ASCII
/// bytes escaped (RFC 3987 §3.1); `lower` lower-cases ASCII letters.
fn pct_normalize(s: &[u8], lower: bool, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut i = 0;
    while let Some(&b) = s.get(i) {
        let (byte, step) = match chars::pct_encoded(s, i) {
            Some(d) => (d, 3),
            None => (b, 1),
        };
        let plain = if step == 3 {
            UNRESERVED[usize::from(byte)]
        } else {
            byte.is_ascii()
        };
        if plain {
            let c = if lower { byte.to_ascii_lowercase() } else { byte };
            out.push(char::from(c));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 15)]));
        }
        i += step;
    }
}

/// RFC 3986 §5.2.4 `remove_dot_segments`, for an absolute path (or an
/// empty one).
fn remove_dot_segments(path: &str) -> String {
    let Some(rest) = path.strip_prefix('/') else {
        return path.to_owned();
    };
    let mut segs: Vec<&str> = Vec::new();
    let mut it = rest.split('/').peekable();
    while let Some(seg) = it.next() {
        let last = it.peek().is_none();
        match seg {
            "." | ".." => {
                if seg == ".." {
                    segs.pop();
                }
                if last {
                    segs.push("");
                }
            }
            _ => segs.push(seg),
        }
    }
    let mut out = String::with_capacity(path.len());
    for seg in segs {
        out.push('/');
        out.push_str(seg);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(s: &str) -> String {
        match Url::parse(s.as_bytes()) {
            Ok(u) => u.normalized(),
            Err(r) => panic!("{s:?}: {r}"),
        }
    }

    #[test]
    fn rfc3986_section6_examples() {
        // §6.2.2: all three are equivalent.
        assert_eq!(
            norm("example://a/b/c/%7Bfoo%7D"),
            norm("eXAMPLE://a/./b/../b/%63/%7bfoo%7d")
        );
        // §6.2.3.
        assert_eq!(norm("http://example.com"), "http://example.com/");
        assert_eq!(norm("http://example.com:/"), "http://example.com/");
        assert_eq!(norm("http://example.com:80/"), "http://example.com/");
        assert_eq!(norm("https://example.com:80/"), "https://example.com:80/");
        assert_eq!(norm("http://[2001:DB8:0::7]/"), "http://[2001:db8::7]/");
        assert_eq!(norm("http://a/%c3%a9?%41#%7e"), "http://a/%C3%A9?A#~");
        assert_eq!(norm("http://a/é"), "http://a/%C3%A9");
        assert_eq!(norm("mailto:Joe@Example.COM"), "mailto:Joe@Example.COM");
        assert_eq!(norm("urn:ietf:rfc:2648"), "urn:ietf:rfc:2648");
    }

    #[test]
    fn dot_segments() {
        assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
        assert_eq!(remove_dot_segments("/.."), "/");
        assert_eq!(remove_dot_segments("/a/."), "/a/");
        assert_eq!(remove_dot_segments("/a/b/"), "/a/b/");
        assert_eq!(remove_dot_segments(""), "");
    }

    #[test]
    fn redaction() {
        let u = Url::parse(b"telnet://u:p@h.example/").unwrap();
        assert_eq!(u.redacted(), "telnet://u:***@h.example/");
        assert_eq!(
            &*redact(b"ftp://u:@h.example/"),
            b"ftp://u:***@h.example/"
        );
        assert_eq!(&*redact(b"not a url"), b"not a url");
        assert!(matches!(redact(b"http://h.example/"), Cow::Borrowed(_)));
        // By shape, the last "@" of the authority ends the userinfo.
        assert_eq!(&*redact(b"http://u:p@x@h_/"), b"http://u:***@h_/");
    }
}
