//! Where a bare URL ends: the reader's rules.
//!
//! A bare URL runs from its scheme to the first byte that cannot be in a
//! URL in running text, then gives back what a reader would not count:
//!
//! - hard stops: ASCII whitespace and control bytes, `<>"{}|\^` and the
//!   backtick (RFC 1738 §2.2 "unsafe" characters, RFC 3986 Appendix C;
//!   a `{…}` in a URI-like string is a template expression, RFC 6570
//!   §1.1, not part of a URL: `…/dns-query{?dns}` is `…/dns-query`);
//!   invalid UTF-8; Unicode spaces, general punctuation such as `“”…`,
//!   `«»`, and CJK / full-width punctuation (`。，、）」』`);
//! - an HTML character reference to `<`, `>` or `"` (`&lt;`, `&gt;`,
//!   `&quot;` and their numeric forms): HTML-escaped text (crawl dumps,
//!   web archives of lists) writes the delimiters of RFC 3986 Appendix C
//!   so, and the characters cannot be in a URL;
//! - a `)` or `]` with no unclosed `(` or `[` before it in the URL ends it
//!   (`(see http://a.b/c)`), while balanced pairs stay (`…/Foo_(bar)`);
//! - trailing `.,;:!?*` are given back (`see http://a.b/c.`), and so is
//!   a trailing `(` or `[`, and a trailing `'` that closes no `'` opened
//!   in the URL (`…/c',` but not `…/Rock_'n'`); a trailing reference to
//!   `'` (`&#39;`, `&#x27;`, `&apos;`) is given back as a `'` is.

use super::Hay;
use super::Incomplete;

/// The host of a bare URL, for [`bare_end`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Host {
    /// An unregistered scheme's RFC 3986 §3.2.2 `reg-name`, where `'` is
    /// a sub-delim and `~` unreserved.
    Reg,
    /// A registered scheme's DNS name (after `//`).
    Dns,
    /// A scheme-less find's DNS name: the run from `from` is in its
    /// authority (a port, or the rest of the name) until `/`, `?`, `#`.
    Named,
}

/// The result of reading a bare URL forward from its colon.
#[derive(Debug)]
pub(crate) struct BareEnd {
    /// End of the URL after trailing punctuation was given back.
    pub end: usize,
    /// End of the run before trimming (where the hard stop is).
    pub hard_end: usize,
    /// Trailing punctuation was given back.
    pub trimmed: bool,
    /// The run reached the length cap before a stop.
    pub too_long: bool,
}

/// Reads forward from `from` (just after the scheme's colon) and finds the
/// end of a bare URL that started at `start`. `cap` bounds `end - start`.
/// `host`: what kind of host the URL has and where its authority is
/// ([`Host`]). `pair`: the `_` or `~` right before the scheme, when
/// one stands there: a trailing run of the same byte closes it
/// (`_http://a.b/c_`, Markdown's emphasis; `~~http://a.b/~~`, its
/// strike-through) and is given back, though both are unreserved
/// (RFC 3986 §2.3) and may end a URL that no such mark opens.
pub(crate) fn bare_end(
    hay: &Hay<'_>,
    start: usize,
    from: usize,
    cap: usize,
    host: Host,
    pair: Option<u8>,
) -> Result<BareEnd, Incomplete> {
    let dns_host = host != Host::Reg;
    let limit = start.saturating_add(cap);
    let (mut paren, mut bracket) = (0usize, 0usize);
    let mut i = from;
    let mut too_long = false;
    loop {
        // Most bytes of a URL need no decision: skip them in a tight loop.
        i = skip_plain(hay.bytes, i, limit.min(hay.bytes.len()));
        if i >= limit {
            too_long = true;
            break;
        }
        let Some(b) = hay.get(i)? else { break };
        match b {
            b'(' => paren += 1,
            b'[' if footnote_after_host(hay, from, i, limit)? => break,
            b'[' => bracket += 1,
            b')' if paren == 0 => break,
            b')' => paren -= 1,
            b']' if bracket == 0 => break,
            b']' => bracket -= 1,
            b'&' if delimiter_reference(hay, i)? => break,
            b'\'' | b'~'
                if dns_host && ends_host(hay, host, from, i, limit)? =>
            {
                break
            }
            0x80..=0xFF => match utf8_char(hay, i)? {
                Some((c, len)) if !ends_url(c) => {
                    i += len;
                    continue;
                }
                _ => break,
            },
            _ if is_hard_stop(b) => break,
            _ => {}
        }
        i += 1;
    }
    let hard_end = i;
    // A run cut by the cap was not ended by a reader: its openers stay
    // (the rejected candidate spans the cap).
    let mut end = trimmed(&hay.bytes[from..hard_end], !too_long) + from;
    if let Some(mark) = pair.filter(|_| !too_long) {
        let closers = hay.bytes[from..end]
            .iter()
            .rev()
            .take_while(|&&b| b == mark)
            .count();
        if closers > 0 {
            end = trimmed(&hay.bytes[from..end - closers], true) + from;
        }
    }
    // A `-` at a line break is a URL broken there (the host goes on
    // below: `http://www.dcc-` then `servers.net/`), not a dash after it;
    // at a line break itself, not before punctuation given back there
    // (`http://google.com-.` at a line's end ends at `com`), one dash
    // (a run of them breaks no host), and a letter or digit below.
    // Most URLs end in no `-`: that is looked at first.
    if end > from
        && hay.bytes[end - 1] == b'-'
        && dns_host
        && !too_long
        && !(end == hard_end
            && hay.bytes[..end - 1].last() != Some(&b'-')
            && goes_on_below(hay, hard_end)?)
    {
        end = from + host_dash(&hay.bytes[from..end], host == Host::Named);
    }
    Ok(BareEnd { end, hard_end, trimmed: end < hard_end, too_long })
}

/// Whether a line break starts at `i` and the line below starts with a
/// letter or digit, where a host broken after a `-` would go on; after
/// the quote marks and blanks of quoted mail (`> servers.net/`).
fn goes_on_below(hay: &Hay<'_>, i: usize) -> Result<bool, Incomplete> {
    let mut k = i;
    if hay.get(k)? == Some(b'\r') {
        k += 1;
    }
    match hay.get(k)? {
        Some(b'\n') => k += 1,
        _ if k > i => {}
        _ => return Ok(false),
    }
    // The quote marks of mail or the indentation of a text (RFCs indent
    // 18 or more): a bounded run of them.
    let limit = k + 128;
    while k < limit && matches!(hay.get(k)?, Some(b'>' | b' ' | b'\t')) {
        k += 1;
    }
    Ok(hay.get(k)?.is_some_and(|b| b.is_ascii_alphanumeric()))
}

/// Whether the `[` at `i` stands in the authority of the URL whose text
/// after the scheme's colon starts at `from`, not where a host begins
/// (right after `//` or a userinfo's `@`), and its `[…]` ends the run (a
/// stop, a closer or trailing punctuation after the `]`): a `[` opens an
/// IP-literal host and nothing else in an authority (RFC 3986 §3.2.2), so
/// a reader sees `(http://example.org[1])` end before the footnote mark.
/// A `[…]` the URL goes on after (`http://example[.]com/`, defanged) is
/// left to the validator and `--find defanged`; in the path, query and
/// fragment a `[` is counted as a bracket.
fn footnote_after_host(
    hay: &Hay<'_>,
    from: usize,
    i: usize,
    limit: usize,
) -> Result<bool, Incomplete> {
    let Some(rest) = hay.bytes.get(from..i).and_then(authority) else {
        return Ok(false);
    };
    if rest.is_empty() || rest.ends_with(b"@") {
        return Ok(false);
    }
    let mut k = i + 1;
    loop {
        match hay.get(k)? {
            _ if k >= limit => return Ok(false),
            Some(b']') => break,
            Some(b) if is_hard_stop(b) || b == b'[' => return Ok(false),
            Some(_) => k += 1,
            None => return Ok(false),
        }
    }
    Ok(match hay.get(k + 1)? {
        None => true,
        Some(b) => {
            is_hard_stop(b)
                || is_trailing_punct(b)
                || matches!(b, b')' | b']' | b'[' | b'\'')
        }
    })
}

/// The authority `run` (a bare URL's text after its scheme's colon, up
/// to some byte) is all in, after its `//`: `None` when it has no `//`
/// or a `/`, `?` or `#` has ended the authority (RFC 3986 §3.2).
fn authority(run: &[u8]) -> Option<&[u8]> {
    let rest = run.strip_prefix(b"//")?;
    (!rest.iter().any(|&b| matches!(b, b'/' | b'?' | b'#'))).then_some(rest)
}

/// The length of `run` (a trimmed bare URL after its colon, or a
/// scheme-less name from its start when `named`) once the
/// `-` that ends its authority is given back, with the punctuation
/// before it: a host name label ends in a letter or digit and a port is
/// digits (RFC 1123 §2.1, RFC 3986 §3.2.3), so `http://example.org- where`
/// is `http://example.org` and a dash. A `-` ending a path stays
/// (`…/foo-`, §2.3 unreserved), and so does one at a line break (the
/// caller's: a URL broken after a hyphen goes on below).
fn host_dash(run: &[u8], named: bool) -> usize {
    // A scheme-less name's run is its authority from its first byte.
    let in_authority = match named {
        true => !run.iter().any(|&b| matches!(b, b'/' | b'?' | b'#')),
        false => authority(run).is_some(),
    };
    if !in_authority {
        return run.len();
    }
    // The dashes, and the sentence punctuation before them (`….-`).
    let mut end = run.len();
    while end > 2 && (run[end - 1] == b'-' || is_trailing_punct(run[end - 1]))
    {
        end -= 1;
    }
    end
}

/// [`trim`], without its call when the run ends in a letter, a digit
/// or `/`, which [`trim`] never gives back (most URLs end so: its call
/// was ~30 instructions a URL of `http://n.example/ ` repeated).
#[inline(always)]
fn trimmed(run: &[u8], openers: bool) -> usize {
    match run.last() {
        Some(&b) if b.is_ascii_alphanumeric() || b == b'/' => run.len(),
        _ => trim(run, openers),
    }
}

/// The length of `run` (a bare URL after its colon) once a reader's
/// trailing punctuation is given back:
///
/// - `.,;:!?*` (sentence punctuation, RFC 3986 Appendix C: "trailing
///   punctuation" is not part of the URI);
/// - a `(` or `[` (it opens nothing the URL closes), when `openers`;
/// - a trailing `'` that closes no `'` opened in the URL: quotes pair up
///   from the left, so a trailing run of them stays when the URL then
///   holds an even count (`…/Rock_'n'`, `…/''`) and gives back its last
///   one when odd (`…/c',` ends at `c`, `…/a'''` at `a''`).
fn trim(run: &[u8], openers: bool) -> usize {
    let mut end = run.len();
    while let Some(&last) = run[..end].last() {
        if last == b';' {
            let head = &run[..end];
            if let Some(r) =
                QUOTE_REFERENCES.iter().find(|r| head.ends_with(r))
            {
                end -= r.len();
                continue;
            }
            if ends_in_reference(&head[..end - 1]) {
                break;
            }
        }
        match last {
            b'\'' => {
                // The quotes are counted only when one ends the run (most
                // URLs end in none): this is on every bare URL's path.
                let head = &run[..end];
                let start = head
                    .iter()
                    .rposition(|&b| b != b'\'')
                    .map_or(0, |i| i + 1);
                let before =
                    memchr::memchr_iter(b'\'', &head[..start]).count();
                // Quotes pair up from the left: an even count in the URL
                // is balanced and stays, an odd one gives back its last.
                let run = end - start;
                let keep = if (before + run).is_multiple_of(2) {
                    run
                } else {
                    run - 1
                };
                if keep > 0 {
                    return start + keep;
                }
                end = start;
                continue;
            }
            b'(' | b'[' if openers => {}
            _ if is_trailing_punct(last) => {}
            _ => break,
        }
        end -= 1;
    }
    end
}

/// Whether `head` ends in an HTML character reference that a `;` after
/// it closes: `&amp` (any case of the two forms HTML 4.01 §5.3.2 gives)
/// or a numeric `&#NN`, `&#xHH` (§5.3.1). In escaped HTML `&amp;` is the
/// URL's `&` and stays inside a bare URL, so at its end the `;` is the
/// reference's, not trailing punctuation (`?x=&amp;` keeps it, `&amp;;`
/// gives back one). The delimiters' references end the URL before them
/// and the quote's are given back ([`trim`]).
fn ends_in_reference(head: &[u8]) -> bool {
    if head.ends_with(b"&amp") || head.ends_with(b"&AMP") {
        return true;
    }
    // n <= head.len(), so the split cannot panic.
    let n = head.iter().rev().take_while(|b| b.is_ascii_hexdigit()).count();
    if n == 0 || n > 7 {
        return false;
    }
    let (rest, number) = head.split_at(head.len() - n);
    if rest.ends_with(b"&#") {
        number.iter().all(u8::is_ascii_digit)
    } else {
        rest.ends_with(b"&#x") || rest.ends_with(b"&#X")
    }
}

/// Bytes that [`bare_end`] passes over with nothing to decide: printable
/// ASCII but the hard stops and the brackets it counts.
static PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = !is_hard_stop(c) && !is_counted(c);
        b += 1;
    }
    t
};

/// The first index in `i..end` of `bytes` whose byte is not [`PLAIN`],
/// or `end`: eight table look-ups and-ed, one branch per eight bytes,
/// while all are plain.
#[inline]
fn skip_plain(bytes: &[u8], mut i: usize, end: usize) -> usize {
    while let Some(chunk) =
        bytes.get(i..end).and_then(|b| b.first_chunk::<8>())
    {
        if !chunk.iter().fold(true, |ok, &b| ok & PLAIN[usize::from(b)]) {
            break;
        }
        i += 8;
    }
    while i < end && PLAIN[usize::from(bytes[i])] {
        i += 1;
    }
    i
}

/// Bytes [`bare_end`] decides on that are not hard stops.
const fn is_counted(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'[' | b']' | b'&' | b'\'' | b'~')
}

/// Whether the `'` or `~` at `i` ends the URL whose text after the
/// scheme's colon starts at `from`: it stands in the authority (after
/// `//`, or for a [`Host::Named`] from `from`; before any `/`, `?` or
/// `#`) and no `@` follows it there, so it
/// would be in the host. A host name is letters, digits and hyphens
/// (RFC 1123 §2.1; the `http`, `https` and `ftp` hosts are DNS names,
/// RFC 9110 §4.2.1, RFC 1738 §3.1), so a reader sees
/// `http://example.org'/>` end before the quote, as in HTML attribute
/// values closed by `'`, and `~~http://google.com~~` (Markdown
/// strikethrough) end before the tildes. In userinfo
/// (`https://user'x@host/`, `http://~me@host/`: RFC 3986 §3.2.1
/// sub-delims and unreserved) and the path (`/~user/`) it stays.
fn ends_host(
    hay: &Hay<'_>,
    host: Host,
    from: usize,
    i: usize,
    limit: usize,
) -> Result<bool, Incomplete> {
    let run = hay.bytes.get(from..i).unwrap_or_default();
    let in_authority = match host {
        Host::Named => !run.iter().any(|&b| matches!(b, b'/' | b'?' | b'#')),
        _ => authority(run).is_some(),
    };
    if !in_authority {
        return Ok(false);
    }
    let mut k = i + 1;
    while k < limit {
        match hay.get(k)? {
            Some(b'@') => return Ok(false),
            Some(b'/' | b'?' | b'#') | None => return Ok(true),
            Some(b) if is_hard_stop(b) => return Ok(true),
            Some(_) => k += 1,
        }
    }
    Ok(true)
}

/// HTML character references to the delimiters `<`, `>` and `"`, and to
/// the no-break space U+00A0, which ends a bare URL as a space does
/// (lower case names, as HTML writes them; decimal and hex forms).
const DELIMITER_REFERENCES: &[&[u8]] = &[
    b"&lt;", b"&gt;", b"&quot;", b"&#60;", b"&#62;", b"&#34;", b"&#x3c;",
    b"&#x3e;", b"&#x22;", b"&#x3C;", b"&#x3E;", b"&nbsp;", b"&#160;",
    b"&#xa0;", b"&#xA0;",
];

/// References to `'`; see [`trim`].
const QUOTE_REFERENCES: &[&[u8]] = &[b"&#39;", b"&#x27;", b"&apos;"];

/// Whether an HTML character reference to a delimiter starts at `i` (an
/// `&`).
pub(super) fn delimiter_reference(
    hay: &Hay<'_>,
    i: usize,
) -> Result<bool, Incomplete> {
    let second = hay.get(i + 1)?;
    if !matches!(second, Some(b'l' | b'g' | b'q' | b'n' | b'#')) {
        return Ok(false);
    }
    for r in DELIMITER_REFERENCES {
        let mut all = true;
        for (k, &want) in r.iter().enumerate().skip(1) {
            if hay.get(i + k)? != Some(want) {
                all = false;
                break;
            }
        }
        if all {
            return Ok(true);
        }
    }
    Ok(false)
}

/// ASCII bytes that always end a bare URL.
#[inline]
pub(crate) const fn is_hard_stop(b: u8) -> bool {
    b <= b' '
        || b == 0x7F
        || matches!(b, b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\')
        || matches!(b, b'^' | b'`')
}

/// Whether the byte after `scheme://` (`None`: the end of input) ends a
/// bare URL where it stands, so that [`bare_end`] gives back the run
/// `//` whole: a hard stop, or a `)` or `]` (the run opened none).
/// `&`, `'`, `~` and bytes above 127 need a look past them: `false`,
/// left to [`bare_end`].
pub(crate) fn ends_at_once(b: Option<u8>) -> bool {
    match b {
        None => true,
        Some(b) => b < 0x80 && (is_hard_stop(b) || matches!(b, b')' | b']')),
    }
}

/// Punctuation a reader puts after a URL rather than in it (the quote
/// `'` is decided by [`trim`]).
#[inline]
fn is_trailing_punct(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'*')
}

/// Decodes the UTF-8 scalar at `i`; `None` when the bytes there are not
/// valid UTF-8 (including a sequence cut by the end of input).
pub(crate) fn utf8_char(
    hay: &Hay<'_>,
    i: usize,
) -> Result<Option<(char, usize)>, Incomplete> {
    let Some(lead) = hay.get(i)? else { return Ok(None) };
    let len = match lead {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return Ok(None),
    };
    // Ask for every byte so that a sequence cut by a buffer boundary asks
    // for more input instead of being judged invalid.
    for k in 1..len {
        match hay.get(i + k)? {
            Some(b) if b & 0xC0 == 0x80 => {}
            _ => return Ok(None),
        }
    }
    Ok(std::str::from_utf8(&hay.bytes[i..i + len])
        .ok()
        .and_then(|s| s.chars().next())
        .map(|c| (c, len)))
}

/// Non-ASCII characters that end a URL in running text: spaces, general
/// punctuation (quotes, dashes, ellipsis), guillemets, and CJK and
/// full-width punctuation.
///
/// The General Punctuation block U+2000–U+206F ends a URL but for the
/// zero-width non-joiner and joiner U+200C/U+200D: they are `ucschar`
/// (RFC 3987 §2.2) and stand inside words of Indic and Arabic scripts.
/// The rest of the block is spaces (U+2000–U+200B, U+202F, U+205F),
/// line and paragraph separators (U+2028/9), the bidirectional
/// formatting characters that RFC 3987 §4.1 says an IRI "MUST NOT
/// contain" (U+200E/F, U+202A–U+202E, and the isolates U+2066–U+2069
/// that Unicode added since), other invisible format characters
/// (U+2060–U+2064, U+206A–U+206F) a reader cannot type back, and the
/// punctuation a reader puts around a URL (`‘’“”…–—`).
pub(super) fn ends_url(c: char) -> bool {
    matches!(c,
        '\u{0080}'..='\u{00A0}'   // C1 controls, no-break space
        | '\u{00AB}' | '\u{00BB}' // « »
        | '\u{1680}'
        | '\u{2000}'..='\u{200B}' // spaces, zero-width space
        | '\u{200E}'..='\u{206F}' // marks, punctuation, separators
        | '\u{3000}'..='\u{303F}' // CJK symbols and punctuation
        | '\u{FE10}'..='\u{FE1F}' // vertical forms
        | '\u{FE30}'..='\u{FE4F}' // CJK compatibility forms
        | '\u{FEFF}'
        | '\u{FF01}'..='\u{FF0F}' // full-width ! " # … /
        | '\u{FF1A}'..='\u{FF20}' // full-width : ; < = > ? @
        | '\u{FF3B}'..='\u{FF40}'
        | '\u{FF5B}'..='\u{FF65}' // full-width brackets, halfwidth 。「」、・
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end_of(text: &str) -> &str {
        let hay = Hay { bytes: text.as_bytes(), eof: true };
        let colon = text.find(':').unwrap();
        let r =
            bare_end(&hay, 0, colon + 1, 1 << 20, Host::Dns, None).unwrap();
        &text[..r.end]
    }

    #[test]
    fn trimmed_is_trim() {
        for head in [&b""[..], b"a", b"x'", b"&amp", b"a;", b"(", b"''"] {
            for last in 0..=255u8 {
                let mut run = head.to_vec();
                run.push(last);
                for openers in [false, true] {
                    assert_eq!(
                        trimmed(&run, openers),
                        trim(&run, openers),
                        "{run:?} {openers}"
                    );
                }
            }
        }
        assert_eq!(trimmed(b"", true), trim(b"", true));
    }

    #[test]
    fn skip_plain_equals_the_byte_loop() {
        let naive = |b: &[u8], i: usize, end: usize| {
            (i..end).find(|&k| !PLAIN[usize::from(b[k])]).unwrap_or(end)
        };
        for stop in 0..=255u8 {
            for at in 0..20 {
                let mut b = vec![b'a'; 24];
                b[at] = stop;
                for from in 0..4 {
                    for end in [at, at + 1, 17, 24] {
                        let end = end.max(from);
                        assert_eq!(
                            skip_plain(&b, from, end),
                            naive(&b, from, end),
                            "{stop} {at} {from} {end}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn readers_end() {
        assert_eq!(end_of("http://a.b/c."), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c)."), "http://a.b/c");
        assert_eq!(end_of("http://a.b/W_(x))"), "http://a.b/W_(x)");
        assert_eq!(end_of("http://a.b/[1]]"), "http://a.b/[1]");
        // `[` opens an IP literal only where a host begins (§3.2.2).
        assert_eq!(end_of("http://a.example[1])"), "http://a.example");
        assert_eq!(end_of("http://a.example:80[1]"), "http://a.example:80");
        assert_eq!(end_of("http://[::1]:80/[1] x"), "http://[::1]:80/[1]");
        assert_eq!(end_of("http://u@[::1]/ x"), "http://u@[::1]/");
        assert_eq!(end_of("http://a.example[1]. x"), "http://a.example");
        // A `[…]` the URL goes on after is no footnote (defanged text).
        assert_eq!(end_of("http://c[.]example/ x"), "http://c[.]example/");
        assert_eq!(end_of("http://c[.]example[1] x"), "http://c[.]example");
        // A host or port does not end in `-` (RFC 1123 §2.1); a path may.
        assert_eq!(end_of("http://a.example- x"), "http://a.example");
        assert_eq!(end_of("http://a.example.-- x"), "http://a.example");
        assert_eq!(end_of("http://a.example:8- x"), "http://a.example:8");
        assert_eq!(end_of("http://a.example/b- x"), "http://a.example/b-");
        assert_eq!(end_of("http://u-@a.example x"), "http://u-@a.example");
        // At a line break the host goes on below: no dash given back.
        assert_eq!(end_of("http://www.dcc-\nservers.net/"), "http://www.dcc-");
        assert_eq!(
            end_of("http://www.dcc-\r\nservers.net/"),
            "http://www.dcc-"
        );
        // an RFC's indentation (RFC 1614's `ftp://iicm.tu-`)
        assert_eq!(
            end_of("ftp://iicm.tu-\n                  graz.ac.at/pub/"),
            "ftp://iicm.tu-"
        );
        // quoted mail: the SpamAssassin folder's `> http://www.dcc-`
        assert_eq!(
            end_of("http://www.dcc-\n> servers.net/"),
            "http://www.dcc-"
        );
        // Not when nothing goes on below (a blank line, the end, a
        // space), nor after a run of dashes, which breaks no host:
        // SpamAssassin's `-----http://www.delimtest19.com----------`.
        assert_eq!(end_of("http://a.example-\n\nx"), "http://a.example");
        assert_eq!(end_of("http://a.example-\n"), "http://a.example");
        assert_eq!(end_of("http://a.example-\n (x)"), "http://a.example");
        assert_eq!(end_of("http://a.example---\nb.c/"), "http://a.example");
        // Punctuation given back between the dash and the break: a dash
        // after the host, not a host broken (Autolinker's `com-.`).
        assert_eq!(end_of("http://google.com-.\nx"), "http://google.com");
        assert_eq!(end_of("http://a.example:8-,\r\n"), "http://a.example:8");
        assert_eq!(end_of("http://a.b/c',"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c>d"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/ü/x y"), "http://a.b/ü/x");
        assert_eq!(end_of("http://a.b/c。次"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c）"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c”"), "http://a.b/c");
    }

    /// Issue 19, classes 2 to 4.
    #[test]
    fn quotes_brackets_and_joiners() {
        // a balanced `'` stays, an unbalanced one goes
        assert_eq!(end_of("http://a.b/Rock_'n' "), "http://a.b/Rock_'n'");
        assert_eq!(end_of("http://a.b/'x'."), "http://a.b/'x'");
        assert_eq!(end_of("http://a.b/it's'"), "http://a.b/it's'");
        assert_eq!(
            end_of("http://a.b/Rock_'n'_roll'"),
            "http://a.b/Rock_'n'_roll"
        );
        assert_eq!(end_of("http://a.b/c'"), "http://a.b/c");
        // quotes pair up from the left
        assert_eq!(end_of("http://a.b/'' "), "http://a.b/''");
        assert_eq!(end_of("http://a.b/x'''."), "http://a.b/x''");
        assert_eq!(end_of("http://a.b/x'''',"), "http://a.b/x''''");
        assert_eq!(end_of("http://a.b/c'),"), "http://a.b/c");
        // a trailing opener opens nothing
        assert_eq!(end_of("http://a.b/path( x"), "http://a.b/path");
        assert_eq!(end_of("http://a.b/p[."), "http://a.b/p");
        assert_eq!(end_of("http://a.b/f(x)(."), "http://a.b/f(x)");
        // the joiners stay; spaces, separators and bidi controls end
        assert_eq!(end_of("http://a.b/क्\u{200D}ष"), "http://a.b/क्\u{200D}ष");
        assert_eq!(
            end_of("http://a.b/می\u{200C}خواهم"),
            "http://a.b/می\u{200C}خواهم"
        );
        for stop in [
            '\u{2009}', '\u{200B}', '\u{200E}', '\u{200F}', '\u{2028}',
            '\u{2029}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}',
            '\u{2026}',
        ] {
            let text = format!("http://a.b/c{stop}d");
            assert_eq!(end_of(&text), "http://a.b/c", "{stop:?}");
        }
    }

    #[test]
    fn templates_and_html_references() {
        // a `{…}` is a template expression (RFC 6570), not the URL's
        assert_eq!(end_of("http://a.b/q{?dns} x"), "http://a.b/q");
        // references to `<`, `>` and `"` end it; `&amp;` does not
        assert_eq!(end_of("http://a.b/c&gt; x"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&lt;/a&gt;"), "http://a.b/c");
        assert_eq!(
            end_of("http://a.b/?a=1&amp;b=2&quot;}"),
            "http://a.b/?a=1&amp;b=2"
        );
        assert_eq!(end_of("http://a.b/c&#62;"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&#x3E;"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&#34;"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&g"), "http://a.b/c&g");
        assert_eq!(end_of("http://a.b/c&gtx"), "http://a.b/c&gtx");
        // a trailing reference to `'` goes as a `'` does
        assert_eq!(end_of("http://a.b/c&#39; x"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&#x27;,"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&apos;"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/it&#39;s x"), "http://a.b/it&#39;s");
    }

    #[test]
    fn reference_cut_by_the_window_asks_for_more() {
        let hay = Hay { bytes: b"http://a.b/c&g", eof: false };
        assert!(bare_end(&hay, 0, 5, 100, Host::Dns, None).is_err());
    }

    #[test]
    fn plain_bytes_are_those_the_loop_passes_over() {
        for b in 0..=255u8 {
            let plain = b.is_ascii()
                && !is_hard_stop(b)
                && !matches!(
                    b,
                    b'(' | b')' | b'[' | b']' | b'&' | b'\'' | b'~'
                );
            assert_eq!(PLAIN[usize::from(b)], plain, "{b}");
        }
    }

    #[test]
    fn a_quote_in_the_host_ends_it() {
        let end = |text: &[u8]| {
            let hay = Hay { bytes: text, eof: true };
            let from = memchr::memchr(b':', text).unwrap() + 1;
            bare_end(&hay, 0, from, 1000, Host::Dns, None).unwrap().end
        };
        // in the host: the URL ends there
        assert_eq!(end(b"http://example.org'/>"), 18);
        assert_eq!(end(b"https://a.com'https://b.com"), 13);
        assert_eq!(end(b"http://a.example:80'x"), 19);
        // in userinfo (an `@` follows in the authority), the path, the
        // query, or an opaque URL: it stays
        assert_eq!(end(b"https://user'x@host/"), 20);
        assert_eq!(end(b"http://a.b/it's"), 15);
        assert_eq!(end(b"http://a.b?q='x'"), 16);
        assert_eq!(end(b"mailto:o'brien@a.b"), 18);
    }

    #[test]
    fn the_semicolon_of_a_character_reference_stays() {
        // escaped HTML: `&amp;` is the URL's `&` (Django urlize tests)
        assert_eq!(end_of("http://e.com?x=&amp; "), "http://e.com?x=&amp;");
        assert_eq!(end_of("http://e.com?x=&amp;;;"), "http://e.com?x=&amp;");
        assert_eq!(end_of("http://e.com/?a&amp;."), "http://e.com/?a&amp;");
        assert_eq!(end_of("http://a.b/?x=1&#38; y"), "http://a.b/?x=1&#38;");
        assert_eq!(end_of("http://a.b/?x=&#x26;,"), "http://a.b/?x=&#x26;");
        // not a reference: sentence punctuation goes
        assert_eq!(end_of("http://a.b/?x=1&b; then"), "http://a.b/?x=1&b");
        assert_eq!(end_of("http://a.b/?x=&; y"), "http://a.b/?x=&");
        assert_eq!(end_of("http://a.b/?x=&#; y"), "http://a.b/?x=&#");
        assert_eq!(end_of("http://a.b/amp;"), "http://a.b/amp");
        // a quote's reference is still given back
        assert_eq!(end_of("http://a.b/c&#39;"), "http://a.b/c");
    }

    #[test]
    fn a_no_break_space_reference_ends_it() {
        // `&nbsp;` is a space, as U+00A0 is (escaped HTML)
        assert_eq!(end_of("http://a.b/c&nbsp;and"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&#160;x"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&#xA0;x"), "http://a.b/c");
        assert_eq!(end_of("http://a.b/c&#xa0;x"), "http://a.b/c");
        // other references stay
        assert_eq!(end_of("http://a.b/?a=1&n=2"), "http://a.b/?a=1&n=2");
        assert_eq!(end_of("http://a.b/?x&nb=1"), "http://a.b/?x&nb=1");
        assert_eq!(end_of("http://a.b/?x=&#1600;"), "http://a.b/?x=&#1600;");
    }

    #[test]
    fn a_tilde_in_the_host_ends_it() {
        let end = |text: &[u8]| {
            let hay = Hay { bytes: text, eof: true };
            let from = memchr::memchr(b':', text).unwrap() + 1;
            bare_end(&hay, 0, from, 1000, Host::Dns, None).unwrap().end
        };
        // Markdown strikethrough around a URL (cmark-gfm, Interop)
        assert_eq!(end(b"http://google.com~~"), 17);
        assert_eq!(end(b"http://a.example:80~"), 19);
        // in userinfo, the path, the query or the fragment it stays
        assert_eq!(end(b"http://~user@a.b/"), 17);
        assert_eq!(end(b"http://a.b/~user/"), 17);
        assert_eq!(end(b"http://a.b/c~~"), 14);
        assert_eq!(end(b"http://a.b?q=~x"), 15);
    }

    #[test]
    fn invalid_utf8_ends() {
        let hay = Hay { bytes: b"http://a.b/c\xe9d", eof: true };
        assert_eq!(
            bare_end(&hay, 0, 5, 100, Host::Dns, None).unwrap().end,
            12
        );
    }

    #[test]
    fn cut_sequence_asks_for_more() {
        let hay = Hay { bytes: b"http://a.b/\xc3", eof: false };
        assert!(bare_end(&hay, 0, 5, 100, Host::Dns, None).is_err());
    }
}
