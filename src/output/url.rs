//! Small URL helpers for output: the host for statistics and JSON, and
//! password redaction (the parser's). Escaping is [`super::escape`]'s.

use std::borrow::Cow;

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
    let parsed = crate::parse::verdict(url, false).ok().and_then(|v| {
        let (start, end) = v.host?;
        url.get(start as usize..end as usize)
    });
    host_from(url, parsed)
}

/// [`host`] of a URL whose parsed host is `parsed` ([`crate::Hit::host`]):
/// no second parse.
pub fn host_from(url: &[u8], parsed: Option<&[u8]>) -> Option<String> {
    raw_host(url, parsed).map(lower)
}

/// The host [`host_from`] lower-cases: the parsed one when it is not
/// empty, else the one read by shape.
fn raw_host<'u>(url: &'u [u8], parsed: Option<&'u [u8]>) -> Option<&'u [u8]> {
    match parsed.filter(|h| !h.is_empty()) {
        Some(h) => Some(h),
        None => crate::parse::host_by_shape(url),
    }
}

/// `raw` as text, lower-cased: ASCII byte by byte (no second UTF-8
/// check, nor the walk by characters `to_lowercase` makes), other text
/// as `to_lowercase` does it, bytes that are not UTF-8 replaced first.
fn lower(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(s) if s.is_ascii() => s.to_ascii_lowercase(),
        _ => String::from_utf8_lossy(raw).to_lowercase(),
    }
}

/// [`host_from`], borrowed when the host is already what it gives
/// (ASCII without upper case: the parsed one, or one read by shape, as
/// a `mailto:` address's domain): no allocation for nearly every URL.
pub(crate) fn host_ref<'u>(
    url: &'u [u8],
    parsed: Option<&'u [u8]>,
) -> Option<Cow<'u, str>> {
    host_within(url, parsed, None)
}

/// [`host_ref`], its borrowed host taken from `text` (text already
/// checked as UTF-8: the match's URL as its record holds it) when the
/// host is there, with no UTF-8 check of its own: `text` is usually the
/// URL the host was read from, and the host then the bytes of `text` at
/// its place in the URL ([`within`]).
pub(crate) fn host_within<'u>(
    url: &'u [u8],
    parsed: Option<&'u [u8]>,
    text: Option<&'u str>,
) -> Option<Cow<'u, str>> {
    let raw = raw_host(url, parsed)?;
    if lower_ascii(raw) {
        let found = text.and_then(|t| within(t, raw));
        return found
            .or_else(|| std::str::from_utf8(raw).ok())
            .map(Cow::Borrowed);
    }
    Some(Cow::Owned(lower(raw)))
}

/// The part of `text` that holds `part` when `part` is a slice of
/// `text`'s own bytes (its address in theirs): found by the addresses,
/// and compared, so that what it gives is always `part`'s bytes.
fn within<'t>(text: &'t str, part: &[u8]) -> Option<&'t str> {
    let start = (part.as_ptr() as usize).checked_sub(text.as_ptr() as usize)?;
    let s = text.get(start..start.checked_add(part.len())?)?;
    crate::filter::same_bytes(s.as_bytes(), part).then_some(s)
}

/// [`host_ref`] as UTF-8 bytes: no UTF-8 check of a borrowed host (it is
/// ASCII), which cost as much as the rest of the host's statistics.
pub(crate) fn host_bytes<'u>(
    url: &'u [u8],
    parsed: Option<&'u [u8]>,
) -> Option<Cow<'u, [u8]>> {
    if let Some(h) = parsed.filter(|h| !h.is_empty()) {
        if lower_ascii(h) {
            return Some(Cow::Borrowed(h));
        }
    }
    host_from(url, parsed).map(|h| Cow::Owned(h.into_bytes()))
}

/// Whether `bytes` are ASCII without upper case; 8 at a time (a test of
/// each byte was a tenth of the statistics' own time on short URLs).
fn lower_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // A byte at or past 0x80, or in `A..=Z`: where every byte is below
    // 0x80, adding 0x3f sets the top bit from `A` up and adding 0x25
    // from past `Z` up, with no carry between bytes.
    let bad = |w: &[u8]| {
        let w = <[u8; 8]>::try_from(w).map_or(u64::MAX, u64::from_le_bytes);
        let from_a = w.wrapping_add(ONES * 0x3f);
        let past_z = w.wrapping_add(ONES * 0x25);
        (w | (from_a & !past_z)) & (ONES * 0x80) != 0
    };
    if bytes.len() < 8 {
        return bytes.iter().all(|&b| b.is_ascii() && !b.is_ascii_uppercase());
    }
    let last = bytes.get(bytes.len() - 8..).unwrap_or_default();
    !bytes.chunks_exact(8).any(bad) && !bad(last)
}

/// [`host`] of a match of `kind`: for a scheme-less find
/// ([`crate::Kind::implied_scheme`]: `bob@example.com`, `www.example.com/x`)
/// the host of the URL it implies (`example.com`, `www.example.com`).
///
/// ```
/// use urlgrep::{output::host_of, Kind};
/// assert_eq!(host_of(b"Bob@Example.com", Kind::Email).as_deref(), Some("example.com"));
/// assert_eq!(host_of(b"www.A.example:8/x", Kind::Www).as_deref(), Some("www.a.example"));
/// assert_eq!(host_of(b"//cdn.example/x", Kind::NetworkPath).as_deref(), Some("cdn.example"));
/// ```
pub fn host_of(url: &[u8], kind: crate::scan::Kind) -> Option<String> {
    match kind.implied_scheme() {
        Some(scheme) => {
            // `mailto:` + address, `http:` + `//host…`, `http://` + name
            let sep = if scheme == "mailto" || url.starts_with(b"//") {
                ":"
            } else {
                "://"
            };
            let mut full = format!("{scheme}{sep}").into_bytes();
            full.extend_from_slice(url);
            host(&full)
        }
        None => host(url),
    }
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
    host.get(tld_range(host.as_bytes())?)
}

/// [`tld`] of a host given as bytes.
pub(crate) fn tld_bytes(host: &[u8]) -> Option<&[u8]> {
    host.get(tld_range(host)?)
}

/// Where [`tld`] is in `host`.
fn tld_range(host: &[u8]) -> Option<std::ops::Range<usize>> {
    // Byte tests: `rsplit_once('.')` compared each dot it found through
    // `memcmp`, a tenth of `--stats` on 4 M distinct hosts.
    let end = match host.last() {
        Some(b'.') => host.len() - 1,
        _ => host.len(),
    };
    let host = host.get(..end)?;
    if host.first() == Some(&b'[') {
        return None;
    }
    let dot = host.iter().rposition(|&b| b == b'.')?;
    let last = host.get(dot + 1..)?;
    if last.is_empty() || last.iter().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(dot + 1..end)
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

    /// The word-at-a-time test of [`lower_ascii`] says what a byte-wise
    /// test says: every length to 40, every byte value at every place
    /// (issue 32, `--stats`).
    #[test]
    fn lower_ascii_is_the_bytewise_test() {
        let bytewise = |b: &[u8]| {
            b.iter().all(|&c| c.is_ascii() && !c.is_ascii_uppercase())
        };
        for len in 0..=40 {
            let base: Vec<u8> =
                (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(lower_ascii(&base), "{len}");
            for at in 0..len {
                for byte in 0..=255u8 {
                    let mut b = base.clone();
                    b[at] = byte;
                    assert_eq!(
                        lower_ascii(&b),
                        bytewise(&b),
                        "{len} {at} {byte}"
                    );
                }
            }
        }
    }

    /// [`host_bytes`] gives [`host_ref`]'s host, as bytes.
    #[test]
    fn host_bytes_are_host_ref() {
        for (url, parsed) in [
            (&b"http://www.a.example/"[..], Some(&b"www.a.example"[..])),
            (b"http://WWW.A.example/", Some(b"WWW.A.example")),
            (b"http://b\xc3\xbccher.de/", Some(b"b\xc3\xbccher.de")),
            (b"mailto:x@Y.Z", None),
            (b"news:x", None),
            (b"http://a/", Some(b"")),
        ] {
            let want = host_ref(url, parsed);
            let got = host_bytes(url, parsed);
            assert_eq!(got.as_deref(), want.as_deref().map(str::as_bytes));
        }
    }

    /// [`host_within`] gives [`host_ref`]'s host (and [`host_from`]'s
    /// text) whatever `text` is: the URL itself (the host borrowed from
    /// it), a copy of it (the same bytes elsewhere), another URL, none;
    /// upper case and `mailto:` hosts read by shape included.
    #[test]
    fn host_within_is_host_ref() {
        for (url, parsed, host) in [
            (
                &b"http://www.a.example/"[..],
                Some(&b"www.a.example"[..]),
                Some("www.a.example"),
            ),
            (
                b"http://WWW.A.example/",
                Some(b"WWW.A.example"),
                Some("www.a.example"),
            ),
            (
                b"http://b\xc3\xbccher.de/",
                Some(b"b\xc3\xbccher.de"),
                Some("b\u{fc}cher.de"),
            ),
            (
                b"http://B\xc3\x9cCHER.de/",
                Some(b"B\xc3\x9cCHER.de"),
                Some("b\u{fc}cher.de"),
            ),
            (b"http://B\xffC/", Some(b"B\xffC"), Some("b\u{fffd}c")),
            (b"mailto:x@y.z", None, Some("y.z")),
            (b"mailto:x@Y.Z", None, Some("y.z")),
            (b"http://a.B:8/x", Some(b""), Some("a.b")),
            (b"news:x", None, None),
        ] {
            // The parsed host as a slice of the URL, as a hit holds it.
            let parsed = parsed.map(|p| {
                let at = url
                    .windows(p.len().max(1))
                    .position(|w| p.is_empty() || w == p)
                    .unwrap();
                &url[at..at + p.len()]
            });
            let want = host_ref(url, parsed);
            assert_eq!(want.as_deref(), host, "{url:?}");
            assert_eq!(host_from(url, parsed).as_deref(), host, "{url:?}");
            let own = std::str::from_utf8(url).ok();
            let copy = own.map(str::to_owned);
            for text in [own, copy.as_deref(), Some("http://x.y/"), None] {
                let got = host_within(url, parsed, text);
                assert_eq!(
                    got.as_deref(),
                    want.as_deref(),
                    "{url:?} {text:?}"
                );
            }
            // Borrowed from the URL's own text when it is there.
            if let (Some(own), Some(Cow::Borrowed(h))) =
                (own, host_within(url, parsed, own))
            {
                let at = h.as_ptr() as usize - own.as_ptr() as usize;
                assert!(at + h.len() <= own.len(), "{url:?}");
            }
        }
    }

    #[test]
    fn tlds_as_bytes() {
        for h in [
            "www.a.org.",
            "a.b.co.uk",
            "10.0.0.1",
            "localhost",
            "[::1]",
            "a.",
            ".",
            "x.y..",
            "",
        ] {
            assert_eq!(
                tld_bytes(h.as_bytes()),
                tld(h).map(str::as_bytes),
                "{h}"
            );
        }
        assert_eq!(tld("www.a.org."), Some("org"));
    }

    #[test]
    fn redaction() {
        assert_eq!(&*redact(b"http://u@h/"), b"http://u@h/");
        assert_eq!(&*redact(b"http://u:@h/"), b"http://u:***@h/");
        assert_eq!(&*redact(b"telnet://a:b:c@h"), b"telnet://a:***@h");
        assert_eq!(&*redact(b"mailto:a:b@c"), b"mailto:a:b@c");
    }
}
