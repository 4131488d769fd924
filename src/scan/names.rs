//! The scheme-less detectors (issue 19), off by default: e-mail
//! addresses at their `@` and `www.` names at their first `.`.
//!
//! Each is a small scanner behind the trigger seam
//! ([`super::triggers::Trigger`]): the trigger search finds the byte and
//! a cheap test ([`may_address`], [`may_name`]) that the scanner repeats
//! first, so the filtered search never drops a candidate the oracle
//! (every `@` and `.`) would find. A match is printed as it stands in
//! the text; the validator judges it with the scheme it implies
//! (`mailto:` for an address, `http://` for a `www.` name).
//!
//! ```text
//! email at '@' a:  local = dot-atom run before a (RFC 5322 §3.2.3, at
//!                  most 64 bytes, RFC 5321 §4.5.3.1.1), not after ':'
//!                  or '/'; domain = labels after a (RFC 1034 §3.5),
//!                  two or more, the last of letters only
//! www  at '.' d:   "www" before d, nothing of a word or URL before it;
//!                  then the bare-URL reading (bare.rs) from d
//! ```

use super::bare;
use super::{Config, Flags, Hay, Incomplete, Kind, Raw, Span, Text};
use crate::parse::{self, Scheme};

/// RFC 5322 §3.2.3 `atext`: letters, digits and
/// ``! # $ % & ' * + - / = ? ^ _ ` { | } ~``.
#[inline]
fn is_atext(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b)
}

/// Longest local part walked back over (RFC 5321 §4.5.3.1.1).
const MAX_LOCAL: usize = 64;

/// Longest domain read forward (RFC 1034 §3.1).
const MAX_DOMAIN: usize = 253;

/// Whether the `@` at `at` may be an address's: an `atext` byte other
/// than `.` before it (not before `floor`), and a letter or digit after
/// it, or the window ends there.
#[inline]
pub(crate) fn may_address(hay: &[u8], at: usize, floor: usize) -> bool {
    at > floor
        && hay.get(at - 1).is_some_and(|&b| is_atext(b))
        && hay.get(at + 1).map_or(true, |b| b.is_ascii_alphanumeric())
}

/// Whether the `.` at `dot` may end the `www` of a name: `www` (any
/// case) right before it, at or after `floor`, with no byte of a word or
/// of a URL before that, and a letter or digit after the dot, or the
/// window ends there.
#[inline]
pub(crate) fn may_name(hay: &[u8], dot: usize, floor: usize) -> bool {
    let Some(start) = dot.checked_sub(3).filter(|&s| s >= floor) else {
        return false;
    };
    let www =
        hay.get(start..dot).is_some_and(|w| w.eq_ignore_ascii_case(b"www"));
    let before_ok =
        start == floor || hay.get(start - 1).is_some_and(|&b| opens_name(b));
    www && before_ok
        && hay.get(dot + 1).map_or(true, |b| b.is_ascii_alphanumeric())
}

/// Bytes after which a name may start: whitespace and controls,
/// brackets, quotes, `,;*|` and non-ASCII (a UTF-8 quote or space);
/// not letters, digits or anything a URL holds (`http://www.…`,
/// `x.www.…`, `/www.…`, `@www.…` are parts of something else).
#[inline]
fn opens_name(b: u8) -> bool {
    b <= b' '
        || b >= 0x7F
        || matches!(b, b'(' | b'[' | b'{' | b'<' | b'>' | b'"' | b'\'')
        || matches!(b, b',' | b';' | b'*' | b'|')
}

/// An e-mail address around the `@` at `at`.
pub(crate) fn email(
    cfg: &Config,
    hay: &Hay<'_>,
    at: usize,
    floor: usize,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    let bytes = hay.bytes;
    if !may_address(bytes, at, floor) {
        return Ok(None);
    }
    // The local part: a dot-atom, walked back (RFC 5322 §3.2.3:
    // `dot-atom-text = 1*atext *("." 1*atext)`).
    let lowest = floor.max(at.saturating_sub(MAX_LOCAL + 1));
    let mut s = at;
    while s > lowest && (is_atext(bytes[s - 1]) || bytes[s - 1] == b'.') {
        s -= 1;
    }
    if s == lowest && s > floor {
        let b = bytes[s - 1];
        if is_atext(b) || b == b'.' {
            return Ok(None); // longer than a local part may be
        }
    }
    // Not the user of a URL (`ftp://u@h`, `mailto:u@h`) nor a path.
    if s > floor && matches!(bytes[s - 1], b':' | b'/' | b'@') {
        return Ok(None);
    }
    while s < at && bytes[s] == b'.' {
        s += 1;
    }
    let local = &bytes[s..at];
    if local.is_empty() || local.windows(2).any(|w| w == b"..") {
        return Ok(None);
    }
    // The domain: labels of letters, digits and hyphens.
    let limit = at + 1 + MAX_DOMAIN;
    let mut end = at + 1;
    while end < limit {
        match hay.get(end)? {
            Some(b) if b.is_ascii_alphanumeric() || b == b'-' || b == b'.' => {
                end += 1
            }
            _ => break,
        }
    }
    let hard_end = end;
    while end > at + 1 && matches!(bytes[end - 1], b'.' | b'-') {
        end -= 1;
    }
    if !tld_like(&bytes[at + 1..end]) || hay.get(hard_end)? == Some(b'@') {
        return Ok(Some(reject(s, hard_end, Kind::Email)));
    }
    let mut url = b"mailto:".to_vec();
    url.extend_from_slice(&bytes[s..end]);
    let verdict =
        parse::validate_cached(&url, cfg.strict).map(|_| Scheme::Mailto);
    Ok(Some(found(s, end, hard_end, Kind::Email, verdict)))
}

/// A `www.` name whose first dot is at `dot`.
pub(crate) fn www(
    cfg: &Config,
    hay: &Hay<'_>,
    dot: usize,
    floor: usize,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    if !may_name(hay.bytes, dot, floor) {
        return Ok(None);
    }
    let start = dot - 3;
    let end = bare::bare_end(hay, start, dot + 1, cfg.max_url)?;
    if end.end == dot + 1 {
        return Ok(None);
    }
    let text = &hay.bytes[start..end.end];
    let host_end = text
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#' | b':'))
        .unwrap_or(text.len());
    let verdict = if end.too_long {
        Err(parse::Reject::TooLong)
    } else if !tld_like(&text[..host_end]) {
        Err(parse::Reject::BadLabel)
    } else {
        let mut url = b"http://".to_vec();
        url.extend_from_slice(text);
        parse::validate_cached(&url, cfg.strict).map(|_| Scheme::Http)
    };
    let mut raw = found(start, end.end, end.hard_end, Kind::Www, verdict);
    if end.trimmed {
        raw.0.flags.insert(Flags::TRIMMED);
    }
    Ok(Some(raw))
}

/// A host of two or more labels whose last is of letters only, two or
/// more of them (the shape of every top-level domain of the root zone
/// but the IDNA `xn--` ones, RFC 1123 §2.1).
fn tld_like(host: &[u8]) -> bool {
    match host.iter().rposition(|&b| b == b'.') {
        Some(i) => {
            let top = &host[i + 1..];
            i > 0 && top.len() >= 2 && top.iter().all(u8::is_ascii_alphabetic)
        }
        None => false,
    }
}

/// The candidate `start..end`; scanning goes on at `end` when it is
/// accepted, else at `hard_end`.
fn found(
    start: usize,
    end: usize,
    hard_end: usize,
    kind: Kind,
    verdict: Result<Scheme, parse::Reject>,
) -> (Raw, usize) {
    let span = Span { start, end };
    let resume = if verdict.is_ok() { end } else { hard_end.max(end) };
    let flags = Flags::default();
    (Raw { span, text: Text::In(span), kind, flags, verdict }, resume)
}

/// A rejected candidate `start..end` (no top-level domain).
fn reject(start: usize, end: usize, kind: Kind) -> (Raw, usize) {
    found(start, end, end, kind, Err(parse::Reject::BadLabel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::{Finds, Step};

    /// Accepted matches of `text` with every detector on.
    fn finds(text: &str) -> Vec<(String, Kind)> {
        let cfg = Config { finds: Finds::ALL, ..Config::default() };
        let hay = Hay { bytes: text.as_bytes(), eof: true };
        let (mut pos, mut out) = (0, Vec::new());
        while let Step::Found(raw, resume) = cfg.step(hay, pos, pos) {
            if raw.verdict.is_ok() {
                let s = &text[raw.span.start..raw.span.end];
                out.push((s.to_owned(), raw.kind));
            }
            pos = resume;
        }
        out
    }

    #[test]
    fn addresses() {
        let got = finds("mail bob@example.com, or <a.b+c@mail.example.org>.");
        assert_eq!(
            got,
            [
                ("bob@example.com".into(), Kind::Email),
                ("a.b+c@mail.example.org".into(), Kind::Email)
            ]
        );
        // a mailto URL is one match, not two
        let got = finds("mailto:bob@example.com");
        assert_eq!(got, [("mailto:bob@example.com".into(), Kind::Bare)]);
        for text in [
            "user@localhost",
            "a..b@example.com",
            "see:u@example.com",
            "/home/u@example.com",
            "@example.com",
            "x@1.2.3.4",
            "bob@example.c0m",
        ] {
            assert_eq!(finds(text), [], "{text}");
        }
        assert_eq!(finds("x.@example.com"), []);
    }

    #[test]
    fn www_names() {
        let got = finds("see www.example.com/page and (WWW.Example.org).");
        assert_eq!(
            got,
            [
                ("www.example.com/page".into(), Kind::Www),
                ("WWW.Example.org".into(), Kind::Www)
            ]
        );
        // inside a URL it is the URL's
        let got = finds("http://www.example.com/");
        assert_eq!(got, [("http://www.example.com/".into(), Kind::Bare)]);
        for text in ["awww.example.com", "x.www.example.com", "www.", "www.x"]
        {
            assert_eq!(finds(text), [], "{text}");
        }
    }

    #[test]
    fn tld_shape() {
        assert!(tld_like(b"example.com"));
        assert!(!tld_like(b"example"));
        assert!(!tld_like(b".com"));
        assert!(!tld_like(b"1.2.3.4"));
        assert!(!tld_like(b"example.c"));
    }
}
