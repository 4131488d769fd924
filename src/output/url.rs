//! Small URL helpers for output: the host for statistics and JSON, and
//! password redaction (the parser's). Escaping is [`super::escape`]'s.

use std::borrow::Cow;

/// The authority of `scheme://authority/…`, or `None` for URLs without
/// one.
fn authority(url: &[u8]) -> Option<(usize, &[u8])> {
    let colon = memchr::memchr(b':', url)?;
    let rest = url.get(colon + 1..)?;
    let after = rest.strip_prefix(b"//")?;
    let end = after
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(after.len());
    Some((colon + 3, after.get(..end)?))
}

/// The host of a URL, lower-cased: the host of its authority as the
/// parser reads it ([`crate::parse::Url::host_bytes`], brackets of an IP
/// literal kept), or the domain of the first `mailto:` address; `None`
/// when it has neither. Text the parser rejects is read by shape.
///
/// ```
/// use urlgrep::output::host;
/// assert_eq!(host(b"HTTP://u:p@WWW.A.B:80/x").as_deref(), Some("www.a.b"));
/// assert_eq!(host(b"mailto:x@Y.Z?subject=a").as_deref(), Some("y.z"));
/// assert_eq!(host(b"http://[::1]:8/").as_deref(), Some("[::1]"));
/// assert_eq!(host(b"news:comp.x"), None);
/// ```
pub fn host(url: &[u8]) -> Option<String> {
    if let Ok(u) = crate::parse::Url::parse(url) {
        if let Some(h) = u.host_bytes().filter(|h| !h.is_empty()) {
            return Some(String::from_utf8_lossy(h).to_lowercase());
        }
    }
    let raw = if let Some((_, auth)) = authority(url) {
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
        let colon = memchr::memchr(b':', url)?;
        if !url.get(..colon)?.eq_ignore_ascii_case(b"mailto") {
            return None;
        }
        let addr = url.get(colon + 1..)?;
        let end = addr
            .iter()
            .position(|&b| matches!(b, b'?' | b',' | b'#'))
            .unwrap_or(addr.len());
        let addr = addr.get(..end)?;
        addr.get(memchr::memrchr(b'@', addr)? + 1..)?
    };
    if raw.is_empty() {
        return None;
    }
    Some(String::from_utf8_lossy(raw).to_lowercase())
}

/// The top-level domain of a host name (its last label, without a
/// trailing dot); `None` for IP addresses and single-label names.
///
/// ```
/// use urlgrep::output::tld;
/// assert_eq!(tld("www.a.org."), Some("org"));
/// assert_eq!(tld("10.0.0.1"), None);
/// assert_eq!(tld("localhost"), None);
/// ```
pub fn tld(host: &str) -> Option<&str> {
    let host = host.strip_suffix('.').unwrap_or(host);
    if host.starts_with('[') {
        return None;
    }
    let (_, last) = host.rsplit_once('.')?;
    if last.is_empty() || last.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(last)
}

/// The URL with the password of `scheme://user:password@host` replaced
/// by `***` (RFC 3986 §7.5, RFC 1738 §6); other URLs unchanged. This is
/// [`crate::parse::redact`].
///
/// ```
/// use urlgrep::output::redact;
/// assert_eq!(&*redact(b"ftp://me:secret@h.example/f"), b"ftp://me:***@h.example/f");
/// assert_eq!(&*redact(b"http://h.example/a:b@c"), b"http://h.example/a:b@c");
/// ```
pub fn redact(url: &[u8]) -> Cow<'_, [u8]> {
    crate::parse::redact(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert_eq!(host(b"http://a.b").as_deref(), Some("a.b"));
        assert_eq!(host(b"http://a.b?x").as_deref(), Some("a.b"));
        assert_eq!(host(b"http://:80/"), None);
        assert_eq!(host(b"mailto:nobody"), None);
        assert_eq!(host(b"file:///etc"), None);
    }

    #[test]
    fn redaction() {
        assert_eq!(&*redact(b"http://u@h/"), b"http://u@h/");
        assert_eq!(&*redact(b"http://u:@h/"), b"http://u:***@h/");
        assert_eq!(&*redact(b"telnet://a:b:c@h"), b"telnet://a:***@h");
        assert_eq!(&*redact(b"mailto:a:b@c"), b"mailto:a:b@c");
    }
}
