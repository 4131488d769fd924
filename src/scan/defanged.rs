//! Defanged URLs (`Finds::DEFANGED`, `--find defanged`): URLs written
//! so that no one follows them by accident, as threat reports and abuse
//! desks write them, read back ("refanged") and validated as any other.
//!
//! The forms read are the ones the common write-ups use (iocextract's
//! and ioc-fanger's refanging tables, the CERT and vendor reports they
//! were built from), and none ordinary prose uses:
//!
//! - the schemes `hxxp`, `hxxps`, `hxxxp`, `hxxxps`, `fxp`, `fxps` (any
//!   case: `hXXp`), read as `http`, `https`, `ftp`, `ftps`;
//! - the separator `[:]//` or `[://]` after any of those or after `http`,
//!   `https`, `ftp`, `ftps`;
//! - in the rest of the URL: `[.]`, `(.)`, `{.}`, `[dot]`, `(dot)` for `.`
//!   (any case), `[@]` for `@`, `[:]` for `:` (a port).
//!
//! A URL is read here only when one of these was met: `http://a.example/`
//! is the ordinary scanner's. The refanged text is cut where a bare URL
//! ends ([`super::bare::bare_end`], on the refanged bytes) and validated;
//! its span is the written text, so the written form stays at hand
//! (`Match::defanged`).

use super::{
    bare, names, Config, Flags, Hay, Incomplete, Kind, Raw, Span, Text,
};
use crate::parse;

/// The defanged schemes and what they stand for.
const SCHEMES: [(&[u8], &[u8]); 6] = [
    (b"hxxp", b"http"),
    (b"hxxps", b"https"),
    (b"hxxxp", b"http"),
    (b"hxxxps", b"https"),
    (b"fxp", b"ftp"),
    (b"fxps", b"ftps"),
];

/// The schemes a defanged separator may follow as they are.
const PLAIN: [&[u8]; 4] = [b"http", b"https", b"ftp", b"ftps"];

/// The defanged tokens inside a URL and the byte each stands for.
const TOKENS: [(&[u8], u8); 7] = [
    (b"[.]", b'.'),
    (b"(.)", b'.'),
    (b"{.}", b'.'),
    (b"[dot]", b'.'),
    (b"(dot)", b'.'),
    (b"[@]", b'@'),
    (b"[:]", b':'),
];

/// Reads a defanged URL whose scheme's colon is at `c`; `None` when
/// nothing defanged stands there (the ordinary reading goes on).
pub(super) fn read(
    cfg: &Config,
    hay: &Hay<'_>,
    c: usize,
    floor: usize,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    let bytes = hay.bytes;
    // The separator: `://`, `[:]//` or `[://]`.
    let bracket = c > floor && bytes[c - 1] == b'[';
    let (name_end, after, sep_defanged) = if bracket {
        let next = [hay.get(c + 1)?, hay.get(c + 2)?, hay.get(c + 3)?];
        match next {
            [Some(b']'), Some(b'/'), Some(b'/')] => (c - 1, c + 4, true),
            [Some(b'/'), Some(b'/'), Some(b']')] => (c - 1, c + 4, true),
            _ => return Ok(None),
        }
    } else {
        if (hay.get(c + 1)?, hay.get(c + 2)?) != (Some(b'/'), Some(b'/')) {
            return Ok(None);
        }
        (c, c + 3, false)
    };
    // The scheme: letters that start a word.
    let mut s = name_end;
    while s > floor && name_end - s < 6 && bytes[s - 1].is_ascii_alphabetic() {
        s -= 1;
    }
    if s > floor && bytes[s - 1].is_ascii_alphanumeric() {
        return Ok(None);
    }
    let name = &bytes[s..name_end];
    let refanged = SCHEMES
        .iter()
        .find(|(d, _)| d.eq_ignore_ascii_case(name))
        .map(|&(_, r)| (r, true))
        .or_else(|| {
            PLAIN
                .iter()
                .find(|p| p.eq_ignore_ascii_case(name))
                .map(|_| (name, false))
        });
    let Some((scheme, scheme_defanged)) = refanged else {
        return Ok(None);
    };
    let limit = after.saturating_add(cfg.max_url);
    // An ordinary `http://…` is defanged only by a token in its rest:
    // none can open before the run's first hard stop, and then the
    // ordinary reading takes it, with nothing allocated here.
    if !(scheme_defanged || sep_defanged || token_may_open(hay, after, limit)?)
    {
        return Ok(None);
    }
    // The rest, refanged, with where each byte was written.
    let mut url = Vec::with_capacity(64);
    url.extend_from_slice(scheme);
    url.extend_from_slice(b"://");
    let mut written = vec![after; url.len()];
    let tokens = walk(hay, after, limit, true, &mut url, &mut written)?;
    if !(scheme_defanged || sep_defanged || tokens > 0) {
        return Ok(None);
    }
    let from = scheme.len() + 1;
    let text = Hay { bytes: &url, eof: true };
    let end =
        bare::bare_end(&text, 0, from, usize::MAX, bare::Host::Dns, None)?;
    if end.end <= from + 2 {
        return Ok(None);
    }
    url.truncate(end.end);
    let span = Span { start: s, end: written[end.end - 1] };
    let mut flags = Flags::DEFANGED;
    if end.trimmed {
        flags.insert(Flags::TRIMMED);
    }
    let verdict = parse::validate_cached(&url, cfg.strict);
    // As a bare reading: a rejected run is not read again.
    let resume = match verdict {
        Ok(_) => span.end,
        Err(_) => written[end.hard_end.max(1) - 1].max(span.end),
    };
    let raw = Raw {
        span,
        text: Text::Joined(url),
        kind: Kind::Bare,
        flags,
        verdict,
    };
    Ok(Some((raw, resume)))
}

/// Copies the URL text from `i` into `url`, refanged, with where each
/// byte was written in `written` (one entry a byte of `url`: the index
/// after it); returns how many tokens were refanged. `authority`: the
/// text starts in a URL's authority (a `'` there ends it).
///
/// The walk stops where `bare_end` would stop on the refanged text (a
/// hard stop, an unclosed `)` or `]`, a delimiter's character
/// reference, a non-ASCII URL end, a `'` in the authority), so that no
/// byte is walked again by the triggers after it: time stays linear
/// whatever the text (a run of `http://a)` is read once).
/// Whether [`walk`] from `i` could meet a token: `false` only when a hard
/// stop comes before any `[`, `(` or `{`, and before any byte where
/// `walk` might stop or branch otherwise (`)`, `]`, `'`, `&`, non-ASCII),
/// so that `walk` would count no token there.
fn token_may_open(
    hay: &Hay<'_>,
    mut i: usize,
    limit: usize,
) -> Result<bool, Incomplete> {
    while i < limit {
        let Some(b) = hay.get(i)? else { return Ok(false) };
        match b {
            b'[' | b'(' | b'{' => return Ok(true),
            b')' | b']' | b'\'' | b'&' | 0x80..=0xFF => return Ok(true),
            _ if bare::is_hard_stop(b) => return Ok(false),
            _ => i += 1,
        }
    }
    Ok(false)
}

fn walk(
    hay: &Hay<'_>,
    mut i: usize,
    limit: usize,
    mut authority: bool,
    url: &mut Vec<u8>,
    written: &mut Vec<usize>,
) -> Result<usize, Incomplete> {
    let mut tokens = 0;
    let (mut paren, mut bracket) = (0usize, 0usize);
    while i < limit {
        let Some(b) = hay.get(i)? else { break };
        if matches!(b, b'[' | b'(' | b'{') {
            if let Some((len, to)) = token(hay, i)? {
                url.push(to);
                i += len;
                written.push(i);
                tokens += 1;
                continue;
            }
        }
        match b {
            _ if bare::is_hard_stop(b) => break,
            b'(' => paren += 1,
            b'[' => bracket += 1,
            b')' if paren == 0 => break,
            b')' => paren -= 1,
            b']' if bracket == 0 => break,
            b']' => bracket -= 1,
            b'/' | b'?' | b'#' => authority = false,
            b'\'' if authority => break,
            b'&' if bare::delimiter_reference(hay, i)? => break,
            0x80..=0xFF => match bare::utf8_char(hay, i)? {
                Some((ch, len)) if !bare::ends_url(ch) => {
                    url.extend_from_slice(&hay.bytes[i..i + len]);
                    i += len;
                    // one entry a byte: the map stays indexed by `url`
                    written.extend(std::iter::repeat_n(i, len));
                    continue;
                }
                _ => break,
            },
            _ => {}
        }
        url.push(b);
        i += 1;
        written.push(i);
    }
    Ok(tokens)
}

/// Whether the `.` at `dot` may stand in a dot token, `[.]`, `(.)` or
/// `{.}`: the trigger of a defanged name without a scheme ([`name`]).
/// A closer past the window may be one (the reader refills and [`name`]
/// decides), as `//` past the window keeps a colon.
pub(super) fn token_dot(hay: &[u8], dot: usize) -> bool {
    let opener = dot.checked_sub(1).and_then(|p| hay.get(p));
    matches!(
        (opener, hay.get(dot + 1)),
        (Some(b'['), Some(b']') | None)
            | (Some(b'('), Some(b')') | None)
            | (Some(b'{'), Some(b'}') | None)
    )
}

/// A defanged name without a scheme whose first dot token's `.` is at
/// `dot` ([`token_dot`]): a host name (`evil[.]example[.]com/x`, read
/// as [`Kind::Domain`]) or an address (`bad[@]evil[.]example`, as
/// [`Kind::Email`]), printed refanged as it stands. It starts a word,
/// and its last label is a top-level domain of the root zone, as the
/// `domain` detector asks.
pub(super) fn name(
    cfg: &Config,
    hay: &Hay<'_>,
    dot: usize,
    floor: usize,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    let bytes = hay.bytes;
    let Some(t) = dot.checked_sub(1).filter(|&t| t > floor) else {
        return Ok(None);
    };
    if token(hay, t)?.is_none_or(|(_, to)| to != b'.') {
        return Ok(None);
    }
    // Back over the labels before the token, and a local part and its
    // `[@]` before them.
    let label = |b: u8| b.is_ascii_alphanumeric() || b == b'-' || b == b'.';
    let mut s = t;
    while s > floor && t - s < 253 && label(bytes[s - 1]) {
        s -= 1;
    }
    let mut address = false;
    if s >= floor + 3 && s + 3 <= t && &bytes[s - 3..s] == b"[@]" {
        let local = |b: u8| label(b) || b == b'_' || b == b'+';
        let mut l = s - 3;
        while l > floor && s - l < 64 + 3 && local(bytes[l - 1]) {
            l -= 1;
        }
        if l < s - 3 {
            address = true;
            s = l;
        }
    }
    if s == t || !bytes[s].is_ascii_alphanumeric() {
        return Ok(None);
    }
    let opens = |b: u8| {
        b.is_ascii_whitespace()
            || matches!(
                b,
                b'(' | b'[' | b'{' | b'<' | b'"' | b'\'' | b',' | b';' | b'>'
            )
    };
    if s > floor && !opens(bytes[s - 1]) {
        return Ok(None);
    }
    let mut text = Vec::with_capacity(64);
    let mut written = Vec::with_capacity(64);
    let limit = s.saturating_add(cfg.max_url);
    walk(hay, s, limit, true, &mut text, &mut written)?;
    // Where the name ends: an address at its domain's end; a host name
    // as a bare URL after `http://` would.
    let (end, trimmed, hard_end) = if address {
        let at = memchr::memchr(b'@', &text).unwrap_or(0);
        let mut e = at + 1;
        while e < text.len()
            && (text[e].is_ascii_alphanumeric()
                || matches!(text[e], b'-' | b'.'))
        {
            e += 1;
        }
        let hard = e;
        while e > at + 1 && text[e - 1] == b'.' {
            e -= 1;
        }
        (e, e < hard, hard)
    } else {
        let mut full = b"http://".to_vec();
        full.extend_from_slice(&text);
        let hay = Hay { bytes: &full, eof: true };
        let end =
            bare::bare_end(&hay, 0, 5, usize::MAX, bare::Host::Dns, None)?;
        (
            end.end.saturating_sub(7),
            end.trimmed,
            end.hard_end.saturating_sub(7),
        )
    };
    text.truncate(end);
    let host_start = if address {
        memchr::memchr(b'@', &text).map_or(0, |a| a + 1)
    } else {
        0
    };
    let host_end = text[host_start..]
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#' | b':'))
        .map_or(text.len(), |p| host_start + p);
    let host = &text[host_start..host_end];
    let top = host.rsplit(|&b| b == b'.').next().unwrap_or_default();
    // The token must be in the host, and the host end in a TLD.
    if written.get(host_end.wrapping_sub(1)).is_none_or(|&w| w <= dot)
        || top.len() < 2
        || !top.iter().all(u8::is_ascii_alphabetic)
        || !names::is_tld(top)
        || !host.contains(&b'.')
    {
        return Ok(None);
    }
    let span = Span { start: s, end: written[end - 1] };
    let (kind, verdict) = if address {
        (
            Kind::Email,
            names::implied(cfg, b"mailto:", &text, parse::Scheme::Mailto),
        )
    } else {
        (
            Kind::Domain,
            names::implied(cfg, b"http://", &text, parse::Scheme::Http),
        )
    };
    let mut flags = Flags::DEFANGED;
    if trimmed {
        flags.insert(Flags::TRIMMED);
    }
    let resume = match verdict {
        Ok(_) => span.end,
        Err(_) => {
            written[hard_end.max(1).min(written.len()) - 1].max(span.end)
        }
    };
    let raw = Raw { span, text: Text::Joined(text), kind, flags, verdict };
    Ok(Some((raw, resume)))
}

/// The defanged token at `i` (which holds `[`, `(` or `{`), any case:
/// its length and the byte it stands for.
fn token(hay: &Hay<'_>, i: usize) -> Result<Option<(usize, u8)>, Incomplete> {
    'tokens: for (t, to) in TOKENS {
        for (k, &want) in t.iter().enumerate() {
            match hay.get(i + k)? {
                Some(b) if b.eq_ignore_ascii_case(&want) => {}
                _ => continue 'tokens,
            }
        }
        return Ok(Some((t.len(), to)));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::super::{Finds, Step};
    use super::*;

    /// `(written, refanged)` of each accepted defanged URL of `text`.
    fn found(text: &str) -> Vec<(String, String)> {
        let cfg = Config { finds: Finds::DEFANGED, ..Config::default() };
        let hay = Hay { bytes: text.as_bytes(), eof: true };
        let (mut pos, mut floor, mut out) = (0, 0, Vec::new());
        while let Step::Found(raw, resume) = cfg.step(hay, pos, floor) {
            if raw.verdict.is_ok() && raw.flags.contains(Flags::DEFANGED) {
                let w = &text[raw.span.start..raw.span.end];
                let Text::Joined(v) = &raw.text else { panic!("{w}") };
                let v = String::from_utf8(v.clone()).unwrap();
                out.push((w.to_owned(), v));
            }
            pos = resume;
            floor = resume;
        }
        out
    }

    #[test]
    fn refangs() {
        let pairs = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            found("see hxxp://evil[.]example/x.exe, and hXXps[:]//a(.)b.example."),
            pairs(&[
                ("hxxp://evil[.]example/x.exe", "http://evil.example/x.exe"),
                ("hXXps[:]//a(.)b.example", "https://a.b.example"),
            ])
        );
        assert_eq!(
            found("http[://]x{.}example[dot]com[:]8080/p fxp://u[@]f(dot)example/"),
            pairs(&[
                ("http[://]x{.}example[dot]com[:]8080/p", "http://x.example.com:8080/p"),
                ("fxp://u[@]f(dot)example/", "ftp://u@f.example/"),
            ])
        );
        // a trailing token is punctuation: `evil[.]` ends at `evil`
        assert_eq!(
            found("(hxxxp://evil[.]example[.]) ok"),
            pairs(&[("hxxxp://evil[.]example", "http://evil.example")])
        );
    }

    /// Linear time: the walk ends where the bare reading ends, so runs of
    /// triggers without whitespace are read once. Before, each trigger
    /// walked to the next space (up to the 8 KiB cap): 20,000 `http://a)`
    /// took 13 s in a debug build; 100,000 of each run here would take
    /// many minutes, and take about a second now.
    #[test]
    fn dense_runs_are_read_once() {
        let cfg = Config { finds: Finds::DEFANGED, ..Config::default() };
        for unit in [
            "http://a)",
            "hxxp://a)",
            "hxxp://a'",
            "hxxp://a&lt;",
            "(a[.]com)",
        ] {
            let text = unit.repeat(100_000);
            let hay = Hay { bytes: text.as_bytes(), eof: true };
            let (mut pos, mut floor, mut n) = (0, 0, 0);
            while let Step::Found(_, resume) = cfg.step(hay, pos, floor) {
                n += 1;
                pos = resume;
                floor = resume;
            }
            assert_eq!(n, 100_000, "{unit}");
        }
    }

    /// A defanged name without a scheme: a host name or an address that
    /// starts a word and ends in a root-zone TLD, as it stands.
    #[test]
    fn names_without_a_scheme() {
        let pairs = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            found(
                "Domains: evil[.]example[.]com, (cdn(.)example{.}net/x.js)."
            ),
            pairs(&[
                ("evil[.]example[.]com", "evil.example.com"),
                ("cdn(.)example{.}net/x.js", "cdn.example.net/x.js"),
            ])
        );
        assert_eq!(
            found("From: bad[@]evil[.]example[.]com."),
            pairs(&[("bad[@]evil[.]example[.]com", "bad@evil.example.com")])
        );
        // no TLD, glued to a word, after a path or scheme, no dot token
        let dense = "a[:]b v1[.]2 e[.]g[.] x/evil[.]com y_evil[.]com";
        for text in [dense, "my[.]invalid zz://a[.]com a.example.com"] {
            assert_eq!(found(text), vec![], "{text}");
        }
    }

    #[test]
    fn not_defanged() {
        for text in [
            "http://a.example/ and a[:]b and x[.]y and https://a.example/[x]",
            "ahxxp://evil[.]example/ hxxp[:]evil and hxxq://a.example/",
            "see hxxp:// alone and ftp[:]// too",
        ] {
            assert_eq!(found(text), vec![], "{text}");
        }
    }
}
