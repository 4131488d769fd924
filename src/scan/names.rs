//! The scheme-less detectors (issue 19), off by default: e-mail
//! addresses at their `@`, `www.` names and bare domain names at their
//! first `.`.
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
//!                  two or more, the last a TLD of the root zone
//! www  at '.' d:   "www" before d, nothing of a word or URL before it;
//!                  then the bare-URL reading (bare.rs) from d
//! name at '.' d:   the label before d starts after nothing of a word or
//!                  URL; the host's last label is a TLD of the root zone
//!                  (tld.rs); a path or port may follow (bare.rs rules)
//! ```
//!
//! The guards of the `domain` detector against what mail is full of
//! besides names: file names (`setup.py`, `install.sh`, `README.md`,
//! `main.rs`) end in TLDs that are also file extensions, and such a
//! "weak" TLD, like every generic TLD but the old `com net org edu gov
//! mil int biz info` (`self.name`, `Dr.House`), counts only with a path
//! or a port after it (`bit.ly/x`, `example.app:8080`); `notes.txt`,
//! versions (`1.2.3`) and abbreviations (`e.g.`, `i.e.`) end in no TLD,
//! and a name whose first two labels are numbers is a version too
//! (`2.0.9-sf.net`); a `?` or `#` starts a query only before a letter
//! or digit; a two-letter TLD in title case starts a sentence
//! (`Zimbabwe.At the`); a name at the start of a line after a
//! quoted-printable soft break (`=` ending the line before) is the tail
//! of a cut word;
//! a name glued to a word, a path, a URL or an address (`src/main.rs`,
//! `a.b.example.com` from its second dot, `bob@example.com`) is no name.

use super::bare;
use super::tld::TLDS;
use super::{Config, Flags, Hay, Incomplete, Kind, Raw, Span, Text};
use crate::parse::{self, Scheme, Verdict};

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
        && hay.get(at + 1).is_none_or(|b| b.is_ascii_alphanumeric())
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
    // `www` as three bytes with bit 0x20 set (only `W` and `w` fold
    // onto `w`): one compare at every dot.
    let www = match hay.get(start..dot) {
        Some(&[a, b, c]) => {
            u32::from_le_bytes([a, b, c, 0]) | 0x0020_2020 == 0x0077_7777
        }
        _ => false,
    };
    www && (start == floor
        || hay.get(start - 1).is_some_and(|&b| opens_name(b)))
        && hay.get(dot + 1).is_none_or(|b| b.is_ascii_alphanumeric())
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

/// Longest DNS label (RFC 1034 §3.1).
const MAX_LABEL: usize = 63;

/// Whether the `.` at `dot` may follow the first label of a name: a
/// letter or digit before it, a label of at most 63 letters, digits and
/// hyphens starting with a letter or digit at or after `floor`, with
/// nothing of a word or URL before it ([`opens_name`]), and a letter or
/// digit after the dot, or the window ends there.
#[inline]
pub(crate) fn may_domain(hay: &[u8], dot: usize, floor: usize) -> bool {
    if dot <= floor
        || !hay.get(dot - 1).is_some_and(u8::is_ascii_alphanumeric)
        || !hay.get(dot + 1).is_none_or(u8::is_ascii_alphanumeric)
    {
        return false;
    }
    label_start(hay, dot, floor).is_some()
}

/// The start of the label that ends at `dot`, when it opens a name.
fn label_start(hay: &[u8], dot: usize, floor: usize) -> Option<usize> {
    let lowest = floor.max(dot.saturating_sub(MAX_LABEL));
    let mut s = dot;
    while s > lowest
        && hay
            .get(s - 1)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'-')
    {
        s -= 1;
    }
    let opens = s == floor || hay.get(s - 1).is_some_and(|&b| opens_name(b));
    let first = hay.get(s).is_some_and(u8::is_ascii_alphanumeric);
    (opens && first && s < dot).then_some(s)
}

/// Whether `start` begins a line whose line before ends with `=`: a
/// quoted-printable soft line break (RFC 2045 §6.7, rule 5). Only the
/// bytes of the line break and the `=` are read, all before `start`
/// and after the floor's label walk (at most three bytes back).
fn qp_continuation(hay: &[u8], start: usize) -> bool {
    let before = hay.get(..start).unwrap_or_default();
    matches!(before, [.., b'=', b'\r', b'\n'] | [.., b'=', b'\n'])
}

/// Whether `tld` (any case) is a top-level domain of the root zone.
///
/// Names of up to eight bytes (nearly all of the table) are packed into
/// a `u64` and looked up in a hash table of packed names, built once:
/// one or two integer compares, where a binary search over `&str` spent
/// a third of a `--find all` run in `memcmp` (perf, blinux-list).
pub(crate) fn is_tld(tld: &[u8]) -> bool {
    if tld.is_empty() {
        return false;
    }
    if let Some(key) = pack(tld) {
        let table = packed_tlds();
        let mut i = slot(key);
        // open addressing, linear probing; a zero slot ends the chain
        loop {
            match table[i] {
                0 => return false,
                k if k == key => return true,
                _ => i = (i + 1) & (SLOTS - 1),
            }
        }
    }
    let mut buf = [0u8; MAX_LABEL];
    let Some(dst) = buf.get_mut(..tld.len()) else { return false };
    for (d, s) in dst.iter_mut().zip(tld) {
        *d = s.to_ascii_lowercase();
    }
    let name = std::str::from_utf8(dst).unwrap_or("");
    TLDS.binary_search(&name).is_ok()
}

/// `name` lower-cased into a little-endian `u64`, when it has at most
/// eight bytes (the length is implied: names hold no zero byte).
#[inline]
fn pack(name: &[u8]) -> Option<u64> {
    let mut word = [0u8; 8];
    let dst = word.get_mut(..name.len())?;
    for (d, s) in dst.iter_mut().zip(name) {
        *d = s.to_ascii_lowercase();
    }
    Some(u64::from_le_bytes(word))
}

/// Slots of the packed table: a power of two, at least twice the names.
const SLOTS: usize = 4096;

/// The home slot of a packed name (Fibonacci hashing).
#[inline]
fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (SLOTS - 1)
}

/// The TLDs of up to eight bytes, packed, in an open-addressing table
/// of [`SLOTS`] (zero is no name), built once.
fn packed_tlds() -> &'static [u64] {
    static PACKED: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    PACKED.get_or_init(|| {
        let mut table = vec![0u64; SLOTS];
        for key in TLDS.iter().filter_map(|t| pack(t.as_bytes())) {
            let mut i = slot(key);
            while table[i] != 0 && table[i] != key {
                i = (i + 1) & (SLOTS - 1);
            }
            table[i] = key;
        }
        table
    })
}

/// A TLD that names alone do not end in often enough to be told from
/// file names and code (`setup.py`, `self.name`): every one but the
/// two-letter country codes and `com net org edu gov mil int biz info`,
/// and those country codes that are also common file extensions.
fn weak_tld(tld: &[u8]) -> bool {
    const STRONG: &[&[u8]] = &[
        b"com", b"net", b"org", b"edu", b"gov", b"mil", b"int", b"biz",
        b"info",
    ];
    const EXTENSIONS: &[&[u8]] = &[
        b"ac", b"ad", b"ai", b"am", b"ar", b"as", b"bz", b"cc", b"cx", b"in",
        b"la", b"ly", b"md", b"mk", b"ml", b"ms", b"pl", b"pm", b"ps", b"py",
        b"rs", b"sc", b"sh", b"so", b"tk",
    ];
    if tld.len() == 2 {
        return EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(tld));
    }
    !STRONG.iter().any(|e| e.eq_ignore_ascii_case(tld))
}

/// A bare domain name whose first dot is at `dot`, with an optional
/// port, path, query and fragment.
pub(crate) fn domain(
    cfg: &Config,
    hay: &Hay<'_>,
    dot: usize,
    floor: usize,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    if !may_domain(hay.bytes, dot, floor) {
        return Ok(None);
    }
    let Some(start) = label_start(hay.bytes, dot, floor) else {
        return Ok(None);
    };
    // The host: labels and dots, at most 253 bytes.
    let limit = start + MAX_DOMAIN;
    let mut i = dot;
    while i < limit {
        match hay.get(i)? {
            Some(b) if b.is_ascii_alphanumeric() || b == b'-' || b == b'.' => {
                i += 1
            }
            _ => break,
        }
    }
    let run_end = i;
    let bytes = hay.bytes;
    let mut host_end = run_end;
    while host_end > dot && matches!(bytes[host_end - 1], b'.' | b'-') {
        host_end -= 1;
    }
    let host = &bytes[start..host_end];
    let top = host.rsplit(|&b| b == b'.').next().unwrap_or_default();
    let after =
        if host_end < run_end { Some(b'.') } else { hay.get(host_end)? };
    // glued to a word, an address or a file name's tail
    let glued = matches!(after, Some(b'_' | b'@' | b'\\' | b'~'));
    if !is_tld(top) || glued {
        return Ok(None); // not a name: nothing read is kept
    }
    // a sentence glued to the next (`Zimbabwe.At the height`): a
    // two-letter TLD in title case
    if let [first, second] = top {
        if first.is_ascii_uppercase() && second.is_ascii_lowercase() {
            return Ok(None); // not a name: nothing read is kept
        }
    }
    // the tail of a word cut by a quoted-printable soft line break
    // (`www.Life-Settlements-Onli=` / `ne.com`) in undecoded text
    if qp_continuation(bytes, start) {
        return Ok(None); // not a name: nothing read is kept
    }
    // a version (`2.0.9-sf.net`, `1.2.com`): two numeric labels first
    let mut labels = host.split(|&b| b == b'.');
    let numeric =
        |l: Option<&[u8]>| l.is_some_and(|l| l.iter().all(u8::is_ascii_digit));
    if numeric(labels.next()) && numeric(labels.next()) {
        return Ok(None); // not a name: nothing read is kept
    }
    let next = hay.get(host_end + 1)?;
    let port = after == Some(b':') && next.is_some_and(|b| b.is_ascii_digit());
    // `?` and `#` open a query or fragment only when something follows
    // (`NT select.select?` ends a question).
    let query = matches!(after, Some(b'?' | b'#'))
        && next.is_some_and(|b| b.is_ascii_alphanumeric());
    let path = port || query || after == Some(b'/');
    if weak_tld(top) && !path {
        return Ok(None); // not a name: nothing read is kept
    }
    let (end, hard_end, trimmed) = if path {
        let e = bare::bare_end(hay, start, host_end, cfg.max_url)?;
        if e.too_long {
            return Ok(Some(reject(start, e.hard_end, Kind::Domain)));
        }
        (e.end, e.hard_end, e.trimmed)
    } else {
        (host_end, run_end, host_end < run_end)
    };
    let verdict = implied(cfg, b"http://", &bytes[start..end], Scheme::Http);
    let mut raw = found(start, end, hard_end, Kind::Domain, verdict);
    if trimmed {
        raw.0.flags.insert(Flags::TRIMMED);
    }
    Ok(Some(raw))
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
    let domain = &bytes[at + 1..end];
    let top = domain.rsplit(|&b| b == b'.').next().unwrap_or_default();
    let real = tld_like(domain) && is_tld(top);
    if !real || hay.get(hard_end)? == Some(b'@') {
        return Ok(None); // not an address: nothing read is kept
    }
    let verdict = implied(cfg, b"mailto:", &bytes[s..end], Scheme::Mailto);
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
    } else if !tld_like(&text[..host_end])
        || !is_tld(top_label(&text[..host_end]))
    {
        Err(parse::Reject::BadLabel)
    } else {
        implied(cfg, b"http://", text, Scheme::Http)
    };
    let mut raw = found(start, end.end, end.hard_end, Kind::Www, verdict);
    if end.trimmed {
        raw.0.flags.insert(Flags::TRIMMED);
    }
    Ok(Some(raw))
}

/// The verdict on `text` read as the URL `prefix` + `text` implies:
/// built on the stack when short (no allocation per find). Its host is
/// a range of `text`: the implied URL's host, or for an address
/// (`mailto:`) its domain.
fn implied(
    cfg: &Config,
    prefix: &[u8],
    text: &[u8],
    scheme: Scheme,
) -> Result<Verdict, parse::Reject> {
    let mut buf = [0u8; 384];
    let len = prefix.len() + text.len();
    let verdict = match buf.get_mut(..len) {
        Some(dst) => {
            let (head, tail) = dst.split_at_mut(prefix.len());
            head.copy_from_slice(prefix);
            tail.copy_from_slice(text);
            parse::validate_cached(dst, cfg.strict)
        }
        None => parse::validate_cached(&[prefix, text].concat(), cfg.strict),
    }?;
    let host = if scheme == Scheme::Mailto {
        memchr::memrchr(b'@', text)
            .map(|at| (at as u32 + 1, text.len() as u32))
            .filter(|&(a, b)| a < b)
    } else {
        let shift = prefix.len() as u32;
        verdict.host.and_then(|(a, b)| {
            Some((a.checked_sub(shift)?, b.checked_sub(shift)?))
        })
    };
    Ok(Verdict { scheme, host })
}

/// The last label of `host`.
fn top_label(host: &[u8]) -> &[u8] {
    host.rsplit(|&b| b == b'.').next().unwrap_or_default()
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
    verdict: Result<Verdict, parse::Reject>,
) -> (Raw, usize) {
    let span = Span { start, end };
    let resume = if verdict.is_ok() { end } else { hard_end.max(end) };
    let flags = Flags::default();
    (Raw { span, text: Text::In(span), kind, flags, verdict }, resume)
}

/// A rejected candidate `start..end` (cut by the length cap).
fn reject(start: usize, end: usize, kind: Kind) -> (Raw, usize) {
    found(start, end, end, kind, Err(parse::Reject::TooLong))
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
        for text in ["www.", "www.x"] {
            assert_eq!(finds(text), [], "{text}");
        }
        // not www. names, but domain names
        for text in ["awww.example.com", "x.www.example.com"] {
            assert_eq!(finds(text), [(text.into(), Kind::Domain)]);
        }
    }

    #[test]
    fn domains() {
        let got = finds(
            "see example.com, docs.python.org/3/library and bit.ly/abc; \
             ok at example.app:8080/x or news.bbc.co.uk.",
        );
        let want = [
            "example.com",
            "docs.python.org/3/library",
            "bit.ly/abc",
            "example.app:8080/x",
            "news.bbc.co.uk",
        ];
        let got: Vec<&str> = got.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(got, want);
        for text in [
            "run setup.py and install.sh, read README.md, edit main.rs",
            "notes.txt",
            "version 1.2.3 or v2.0.1",
            "e.g. this, i.e. that, etc.",
            "src/main.rs",
            "self.name = x.info_y",
            "Dr.House",
            "a_b.example.com",
            "example.comx",
            "X-Mailman-Version: 2.0.9-sf.net",
            "Beitbridge Zimbabwe.At the height",
            "www.Life-Settlements-Onli=\nne.com</a>",
            "Subject: NT select.select?",
        ] {
            assert_eq!(finds(text), [], "{text}");
        }
        // www. and addresses keep their own kinds
        assert_eq!(finds("www.example.com")[0].1, Kind::Www);
        assert_eq!(finds("bob@example.com")[0].1, Kind::Email);
    }

    #[test]
    fn tld_table() {
        assert!(is_tld(b"com") && is_tld(b"UK") && is_tld(b"xn--p1ai"));
        assert!(!is_tld(b"txt") && !is_tld(b"g") && !is_tld(b"3"));
        assert!(!is_tld(&[b'a'; 100]) && !is_tld(b""));
        // the packed look-up agrees with the table, any case
        for t in TLDS {
            assert!(is_tld(t.as_bytes()), "{t}");
            assert!(is_tld(t.to_ascii_uppercase().as_bytes()), "{t}");
            let mut longer = t.to_string();
            longer.push('x');
            assert_eq!(
                is_tld(longer.as_bytes()),
                TLDS.binary_search(&longer.as_str()).is_ok()
            );
        }
        for pair in TLDS.windows(2) {
            assert!(pair[0] < pair[1], "{} !< {}", pair[0], pair[1]);
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
