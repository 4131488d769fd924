//! Small URL helpers for output: the host for statistics and JSON,
//! password redaction (the parser's), and UTF-8 for JSON.

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
    host_with(url, None)
}

/// [`host`] of a match of `kind`: for a scheme-less find
/// ([`crate::Kind::implied_scheme`]: `bob@example.com`, `www.example.com/x`)
/// the host of the URL it implies (`example.com`, `www.example.com`).
///
/// ```
/// use urlgrep::{output::host_of, Kind};
/// assert_eq!(host_of(b"Bob@Example.com", Kind::Email).as_deref(), Some("example.com"));
/// assert_eq!(host_of(b"www.A.example:8/x", Kind::Www).as_deref(), Some("www.a.example"));
/// ```
pub fn host_of(url: &[u8], kind: crate::Kind) -> Option<String> {
    host_with(url, kind.implied_scheme())
}

fn host_with(url: &[u8], implied: Option<&str>) -> Option<String> {
    if let Some(scheme) = implied {
        let sep = if scheme == "mailto" { ":" } else { "://" };
        let mut full = format!("{scheme}{sep}").into_bytes();
        full.extend_from_slice(url);
        return host_with(&full, None);
    }
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

/// `bytes` made safe for a terminal: invalid UTF-8, C0 controls, DEL and
/// C1 control characters (U+0080–U+009F, CSI among them) are
/// percent-encoded, byte by byte; anything else is kept. URLs that passed
/// validation never need it; rejected candidates (`--rejects`) may.
pub fn terminal_safe(bytes: &[u8]) -> Cow<'_, [u8]> {
    let unsafe_char = |c: char| c.is_control();
    // Printable ASCII, what nearly every URL is: no decoding needed.
    // (A fold with no early exit: the compiler makes it vector code.)
    let outside = bytes.iter().fold(0u8, |acc, &b| {
        acc | u8::from(b.wrapping_sub(0x20) >= 0x7F - 0x20)
    });
    if outside == 0 {
        return Cow::Borrowed(bytes);
    }
    let clean = match std::str::from_utf8(bytes) {
        Ok(s) => !s.chars().any(unsafe_char),
        Err(_) => false,
    };
    if clean {
        return Cow::Borrowed(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let mut buf = [0u8; 4];
            let enc = c.encode_utf8(&mut buf).as_bytes();
            if unsafe_char(c) {
                for b in enc {
                    out.extend_from_slice(format!("%{b:02X}").as_bytes());
                }
            } else {
                out.extend_from_slice(enc);
            }
        }
        for b in chunk.invalid() {
            out.extend_from_slice(format!("%{b:02X}").as_bytes());
        }
    }
    Cow::Owned(out)
}

/// `bytes` as UTF-8 text: valid UTF-8 as it is, any other byte
/// percent-encoded (`%E9`); the flag says whether anything was encoded.
///
/// ```
/// use urlgrep::output::utf8_or_escape;
/// assert_eq!(utf8_or_escape(b"http://a.b/\xe9"), ("http://a.b/%E9".into(), true));
/// ```
pub fn utf8_or_escape(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return (Cow::Borrowed(s), false);
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for chunk in bytes.utf8_chunks() {
        out.push_str(chunk.valid());
        for b in chunk.invalid() {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    (Cow::Owned(out), true)
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
