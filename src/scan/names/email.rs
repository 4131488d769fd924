//! The `email` detector: an address around its `@` (RFC 5322 §3.4.1
//! `addr-spec`), judged as the `mailto:` URI it implies (RFC 6068 §2).

use super::{
    found, idn, implied, is_atext, is_tld, run_end, tld_like, word_opener,
    CLASS, HOST, LOCAL, MAX_DOMAIN,
};
use crate::parse::{self, Scheme, Verdict};
use crate::scan::{Config, Hay, Incomplete, Kind, Raw};

/// Longest local part walked back over (RFC 5321 §4.5.3.1.1).
const MAX_LOCAL: usize = 64;

/// Whether the `@` at `at` may be an address's: an `atext` byte other
/// than `.`, or the `"` closing a quoted local part (RFC 5322 §3.4.1),
/// before it (not before `floor`), and a letter or digit or the `[` of
/// an address literal ([`literal_end`]) after it, or the window ends
/// there.
#[inline]
pub(crate) fn may_address(hay: &[u8], at: usize, floor: usize) -> bool {
    at > floor
        && hay.get(at - 1).is_some_and(|&b| is_atext(b) || b == b'"')
        && hay
            .get(at + 1)
            .is_none_or(|&b| b.is_ascii_alphanumeric() || b == b'[')
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
    let local_byte = |b: &u8| CLASS[usize::from(*b)] & LOCAL != 0;
    let run = bytes.get(lowest..at).unwrap_or_default();
    let mut s = match run.iter().rposition(|b| !local_byte(b)) {
        Some(i) => lowest + i + 1,
        None => lowest,
    };
    if s == lowest && s > floor && bytes.get(s - 1).is_some_and(local_byte) {
        return Ok(None); // longer than a local part may be
    }
    // RFC 5322 §4.4 `obs-local-part = word *("." word)`, a word an atom
    // or a quoted string (`test."foo".bar@…`), which a receiver must
    // accept: walked back a quoted word at a time. Only quoted words of
    // `atext` are taken: their quotes are "semantically invisible" (§3.2.4),
    // so the address is its dot-atom without them.
    let mut quoted = false;
    // A local part that is one quoted string (§3.4.1 `local-part =
    // dot-atom / quoted-string`: `"james"@example.com`) is read the same
    // way, when its opening quote starts a word.
    while s > lowest.max(floor)
        && (bytes[s] == b'.' || s == at)
        && bytes[s - 1] == b'"'
    {
        let close = s - 1;
        let Some(open) = bytes[lowest..close].iter().rposition(|&b| b == b'"')
        else {
            break;
        };
        let open = lowest + open;
        let inner = &bytes[open + 1..close];
        if inner.is_empty() || !inner.iter().all(|&b| is_atext(b)) {
            break;
        }
        let glued = open > floor
            && bytes[open - 1] != b'.'
            && local_byte(&bytes[open - 1]);
        if close + 1 == at && glued {
            return Ok(None); // glued to a word: `x"james"@…`
        }
        quoted = true;
        let before = bytes[lowest..open]
            .iter()
            .rposition(|b| !local_byte(b))
            .map_or(lowest, |i| lowest + i + 1);
        s = before;
        if before == open || bytes[open - 1] != b'.' {
            s = open;
            break;
        }
    }
    // Not the user of a URL (`ftp://u@h`, `mailto:u@h`) nor a path, nor
    // the tail of a quoted local part not read above, nor of a word
    // (`éric@…` is not `ric@…`). A `:` that begins a word has no scheme
    // before it (RFC 3986 §3.1: letters first), so the address after it
    // is no URL's user: `:a@example.com:` is read. A `\` is no `atext`
    // (§3.2.3) but quotes in a quoted string (§3.2.4): `a\b@` is no local
    // part, and `b@` another mailbox.
    if s > floor
        && (matches!(bytes[s - 1], b'/' | b'@' | b'\\')
            || bytes[s - 1] == b':' && !word_opener(bytes, s - 1, floor)
            || (bytes[s - 1] == b'"' && bytes[s] == b'.')
            || idn::after_latin_letter(bytes, s))
    {
        return Ok(None);
    }
    // A `'` that starts the local part opens a quotation, as one before
    // a scheme does (`'hi@example.com'`); inside it is `atext` (RFC 5322
    // §3.2.3: `o'neil@…`). So do `{`, `}`, `|`, `^` and the backtick:
    // `atext` too, but no URI characters (RFC 3986 §2), so no `mailto:`
    // address starts with them unescaped (RFC 6068 §2), and a reader sees
    // `{john@example.org}` as braces around an address. A `*` is plain
    // text's bold (`*bob@example.com*`, box rules, `**…**`), as it opens
    // a name (README); no mailbox starts with one.
    while s < at
        && matches!(
            bytes[s],
            b'.' | b'\'' | b'{' | b'}' | b'|' | b'^' | b'`' | b'*'
        )
    {
        s += 1;
    }
    if hay.get(at + 1)? == Some(b'[') {
        let local = &bytes[s..at];
        if local.is_empty() || local.windows(2).any(|w| w == b"..") {
            return Ok(None);
        }
        let Some(end) = literal_end(hay, at + 1)? else {
            return Ok(None);
        };
        let angle = angled(hay, s, end, floor)?;
        return Ok(Some(address(cfg, bytes, s, at, end, end, quoted, angle)));
    }
    // The domain: labels of letters, digits and hyphens.
    let mut end = run_end(hay, at + 1, at + 1 + MAX_DOMAIN, HOST)?;
    let hard_end = end;
    // `_…_` underlines an address (`_bob@example.com_`, `__x@y.org__`):
    // the leading `_`s are the mark's when a `_` closes the domain.
    if hay.get(hard_end)? == Some(b'_') {
        while s < at && bytes[s] == b'_' {
            s += 1;
        }
    }
    let local = &bytes[s..at];
    if local.is_empty() || local.windows(2).any(|w| w == b"..") {
        return Ok(None);
    }
    while end > at + 1 && matches!(bytes[end - 1], b'.' | b'-') {
        end -= 1;
    }
    let domain = &bytes[at + 1..end];
    let top = domain.rsplit(|&b| b == b'.').next().unwrap_or_default();
    let real = tld_like(domain) && is_tld(top);
    if !real || hay.get(hard_end)? == Some(b'@') {
        return Ok(None); // not an address: nothing read is kept
    }
    // a line of uuencoded data (`A@3X.GG`)
    if super::uuencode::in_uuencoded_line(hay, s)? {
        return Ok(None); // not an address: nothing read is kept
    }
    let angle = end == hard_end && angled(hay, s, end, floor)?;
    Ok(Some(address(cfg, bytes, s, at, end, hard_end, quoted, angle)))
}

/// Whether the address `s..end` stands in angle brackets, `<` right
/// before it and `>` right after (RFC 5322 §3.4 `angle-addr`).
fn angled(
    hay: &Hay<'_>,
    s: usize,
    end: usize,
    floor: usize,
) -> Result<bool, Incomplete> {
    Ok(s > floor && hay.bytes[s - 1] == b'<' && hay.get(end)? == Some(b'>'))
}

/// The address `s..end` (its `@` at `at`, its local part quoted words
/// when `quoted`, in `<…>` when `angle`), judged as the `mailto:` URI it
/// implies.
#[inline]
#[allow(clippy::too_many_arguments)]
fn address(
    cfg: &Config,
    bytes: &[u8],
    s: usize,
    at: usize,
    end: usize,
    hard_end: usize,
    quoted: bool,
    angle: bool,
) -> (Raw, usize) {
    let local = &bytes[s..at];
    // `&` and `#` are `atext` (RFC 5322 §3.2.3: `Mike&family@…`,
    // `Online#3.1@…`), written percent-encoded in the `mailto:` URI the
    // address is judged as (RFC 6068 §2 item 1). `=`, `%`, `?`, `{`,
    // `}`, `|`, `^` and the backtick are `atext` too but still reject it:
    // in text they join a key, a query or a list to the address
    // (`smtp.mailfrom=bob@…`, `{bob|ann}@…`), not a mailbox. In `<…>`
    // nothing is joined to it (RFC 5322 §3.4 `angle-addr`): `=`, `%` and
    // `?` are the mailbox's (a VERP bounce address, `list-a=b.org@…`).
    let keyed = |b: u8| angle && matches!(b, b'=' | b'%' | b'?');
    let escaped = local.iter().any(|&b| matches!(b, b'&' | b'#') || keyed(b));
    // An address literal's `[` and `]` are encoded in the URI too (RFC
    // 6068 §2 item 1: gen-delims but `@` and `:`).
    let literal = bytes.get(at + 1) == Some(&b'[');
    let verdict = if quoted || escaped || literal {
        // The address as its URI: quotes dropped, `&`, `#`, `[` and `]`
        // encoded; its domain is the text's.
        let mut plain = Vec::with_capacity(end - s + 8);
        for (i, &b) in bytes[s..end].iter().enumerate() {
            match b {
                b'"' if s + i < at => {}
                b'&' => plain.extend_from_slice(b"%26"),
                b'#' => plain.extend_from_slice(b"%23"),
                b'=' if s + i < at && angle => plain.extend_from_slice(b"%3D"),
                b'%' if s + i < at && angle => plain.extend_from_slice(b"%25"),
                b'?' if s + i < at && angle => plain.extend_from_slice(b"%3F"),
                b'[' => plain.extend_from_slice(b"%5B"),
                b']' => plain.extend_from_slice(b"%5D"),
                _ => plain.push(b),
            }
        }
        implied(cfg, b"mailto:", &plain, Scheme::Mailto).map(|v| Verdict {
            host: Some(((at - s + 1) as u32, (end - s) as u32)),
            ..v
        })
    } else {
        implied(cfg, b"mailto:", &bytes[s..end], Scheme::Mailto)
    };
    found(s, end, hard_end, Kind::Email, verdict)
}

/// The end of an address literal whose `[` is at `open` (RFC 5322
/// §3.4.1 `domain-literal`, RFC 6068 §2 `"[" *dtext-no-obs "]"`: "the
/// literal Internet address of the particular host"), as RFC 5321
/// §4.1.3 writes one:
///
/// ```text
/// address-literal      = "[" ( IPv4-address-literal /
///                              IPv6-address-literal /
///                              General-address-literal ) "]"
/// IPv4-address-literal = Snum 3("." Snum)
/// IPv6-address-literal = "IPv6:" IPv6-addr
/// Snum                 = 1*3DIGIT ; 0 through 255
/// ```
///
/// `IPv6-addr` is read as RFC 3986 §3.2.2's `IPv6address` (RFC 4291
/// §2.2's text forms, as §4.1.3 defers to it). A general literal
/// (`[4TC]`, a tag other than `IPv6`) is no address: no other tag is
/// standardized. Nor is a literal glued to a word, a `[` or an `@`
/// after its `]`.
fn literal_end(
    hay: &Hay<'_>,
    open: usize,
) -> Result<Option<usize>, Incomplete> {
    // `IPv6:`, six groups and an IPv4 address: 50 bytes inside.
    const MAX_LITERAL: usize = 50;
    let limit = open + 1 + MAX_LITERAL;
    let mut i = open + 1;
    let close = loop {
        match hay.get(i)? {
            Some(b']') => break i,
            // RFC 6068 §2 `dtext-no-obs`
            Some(33..=90 | 94..=126) if i < limit => i += 1,
            _ => return Ok(None),
        }
    };
    let inner = &hay.bytes[open + 1..close];
    let ok = match inner.get(..5) {
        Some(tag) if tag.eq_ignore_ascii_case(b"IPv6:") => {
            parse::ipv6address(&inner[5..]).is_some()
        }
        _ => snums(inner),
    };
    let glued = hay.get(close + 1)?.is_some_and(|b| {
        b.is_ascii_alphanumeric() || matches!(b, b'@' | b'[' | b'_')
    });
    Ok((ok && !glued).then_some(close + 1))
}

/// RFC 5321 §4.1.3 `IPv4-address-literal = Snum 3("." Snum)`, `Snum =
/// 1*3DIGIT` of value 0 through 255 (leading zeros allowed).
fn snums(s: &[u8]) -> bool {
    let mut n = 0;
    for part in s.split(|&b| b == b'.') {
        // The length first: a long run of digits would overflow the sum.
        if part.is_empty() || part.len() > 3 {
            return false;
        }
        let value = part.iter().try_fold(0u16, |v, &b| {
            b.is_ascii_digit().then(|| v * 10 + u16::from(b - b'0'))
        });
        if value.is_none_or(|v| v > 255) {
            return false;
        }
        n += 1;
    }
    n == 4
}
