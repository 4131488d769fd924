//! Hosts and ports: RFC 3986 §3.2.2 (`IP-literal`, `IPv4address`,
//! `reg-name`) and §3.2.3, RFC 1738 §3.1 and §5 (`hostname`, `hostnumber`),
//! RFC 1123 §2.1 and RFC 1034 §3.1 (label lengths), RFC 3987 §3.1 with
//! IDNA (UTS #46, via the `idna` crate) for internationalised names.

use super::chars::{
    self, lanes_within, Iri, ALNUM, ALPHA, DIGIT, IPV_FUTURE, REG_NAME,
};
use super::Reject;
use std::net::{Ipv4Addr, Ipv6Addr};

/// The host of a URL, borrowed from it.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host<'a> {
    /// An ASCII domain name: labels of letters, digits and inner hyphens,
    /// the last one starting with a letter (RFC 1738 §3.1, RFC 1123 §2.1).
    Domain(&'a [u8]),
    /// A dotted-decimal IPv4 address (RFC 3986 §3.2.2 `IPv4address`).
    Ipv4(Ipv4Addr),
    /// A bracketed IPv6 literal (RFC 3986 §3.2.2 `IPv6address`).
    Ipv6(Ipv6Addr),
    /// A bracketed `IPvFuture` literal, without its brackets.
    IpFuture(&'a [u8]),
    /// An internationalised domain name (RFC 3987 `ireg-name`) that is
    /// valid under IDNA; [`crate::parse::Url::normalized`] gives its
    /// punycode form.
    Iri(&'a [u8]),
    /// Any other RFC 3986 `reg-name` (escapes, sub-delims), allowed for
    /// schemes with generic syntax only.
    RegName(&'a [u8]),
}

/// Which host grammar a scheme asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// A name for DNS (RFC 1738 §3.1 `host`, RFC 3986 §3.2.2 last
    /// paragraph), an IPv4 address or an IP literal.
    Dns,
    /// RFC 3986 §3.2.2 `host` in full, for schemes with generic syntax.
    Generic,
}

/// RFC 3986 §3.2.2: `host = IP-literal / IPv4address / reg-name`, with
/// `reg-name` narrowed to a DNS `hostname` (RFC 1738 §5) under
/// [`Rule::Dns`]; `strict` is RFC 1738: `host = hostname | hostnumber`.
///
/// `future` admits `IPvFuture` literals. The caller handles the empty host.
pub(crate) fn host(
    s: &[u8],
    rule: Rule,
    strict: bool,
    future: bool,
) -> Result<Host<'_>, Reject> {
    if s.first() == Some(&b'[') {
        if strict {
            // RFC 1738 §2.2: "[" and "]" are unsafe, and §5 has no literal.
            return Err(Reject::BadCharacter);
        }
        return ip_literal(s, future);
    }
    // The common case first: a DNS name, checked in one pass.
    if let Some(ace) = scan_hostname(s, !strict) {
        if ace && !strict {
            idn_to_ascii(s)?;
        }
        return Ok(Host::Domain(s));
    }
    if s.iter().all(|&b| b.is_ascii_digit() || b == b'.') {
        let addr = if strict { hostnumber(s) } else { ipv4address(s) };
        return match (addr, rule) {
            (Some(a), _) => Ok(Host::Ipv4(a)),
            (None, Rule::Dns) => Err(Reject::BadIpv4),
            // RFC 3986 §3.2.2: what is not an IPv4address is a reg-name.
            (None, Rule::Generic) => Ok(Host::RegName(s)),
        };
    }
    if !strict && s.contains(&b'_') && s.is_ascii() && !top_underscore(s) {
        // RFC 3986 reg-name allows "_", and real hosts use it
        // (`other_side.blogspot.com`); DNS hostnames (RFC 1123) do not.
        // The default level takes it where RFC 1123 takes a hyphen,
        // inside a label (`_dmarc`, `x_` are no host names' labels), in
        // every label but the top-level one, which names a TLD of the
        // root zone (RFC 1034 §3.5, RFC 1123 §2.1: letters, digits,
        // hyphens), and none has a "_" (`example.com_`,
        // `files.example.c_m`); the strict level refuses it everywhere.
        let as_hyphen: Vec<u8> =
            s.iter().map(|&b| if b == b'_' { b'-' } else { b }).collect();
        // An `xn--` label with "_" is no IDNA name: not taken.
        if scan_hostname(&as_hyphen, true) == Some(false) {
            return Ok(Host::Domain(s));
        }
    }
    if s.is_ascii() {
        return match rule {
            Rule::Generic if !strict => reg_name(s),
            _ if s.iter().all(|&b| REG_NAME[usize::from(b)] || b == b'%') => {
                Err(Reject::BadLabel)
            }
            _ => Err(Reject::BadCharacter),
        };
    }
    if strict {
        return Err(Reject::BadCharacter);
    }
    chars::all(s, &REG_NAME, Iri::Ucs)?;
    match (idn_to_ascii(s), rule) {
        (Ok(_), _) => Ok(Host::Iri(s)),
        (Err(r), Rule::Dns) => Err(r),
        (Err(_), Rule::Generic) => Ok(Host::RegName(s)),
    }
}

/// Whether the last label of host `s` (before one trailing dot) holds
/// a `_`.
fn top_underscore(s: &[u8]) -> bool {
    let s = s.strip_suffix(b".").unwrap_or(s);
    let top = s.rsplit(|&b| b == b'.').next().unwrap_or_default();
    top.contains(&b'_')
}

/// RFC 3986 §3.2.2 (RFC 3987 `ireg-name`):
/// `reg-name = *( unreserved / pct-encoded / sub-delims )`.
fn reg_name(s: &[u8]) -> Result<Host<'_>, Reject> {
    chars::all(s, &REG_NAME, Iri::Ucs)?;
    Ok(Host::RegName(s))
}

/// RFC 3986 §3.2.2: `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`.
fn ip_literal(s: &[u8], future: bool) -> Result<Host<'_>, Reject> {
    let inner = s
        .strip_prefix(b"[")
        .and_then(|s| s.strip_suffix(b"]"))
        .ok_or(Reject::BadIpv6)?;
    if matches!(inner.first(), Some(b'v' | b'V')) {
        return if future && ipv_future(inner) {
            Ok(Host::IpFuture(inner))
        } else {
            Err(Reject::BadIpv6)
        };
    }
    ipv6address(inner).map(Host::Ipv6).ok_or(Reject::BadIpv6)
}

/// RFC 3986 §3.2.2:
/// `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`.
pub(crate) fn ipv_future(s: &[u8]) -> bool {
    let Some(rest) = s.strip_prefix(b"v").or_else(|| s.strip_prefix(b"V"))
    else {
        return false;
    };
    let hex = rest.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    match rest.get(hex..) {
        Some([b'.', tail @ ..]) if hex > 0 && !tail.is_empty() => {
            tail.iter().all(|&b| IPV_FUTURE[usize::from(b)])
        }
        _ => false,
    }
}

/// RFC 3986 §3.2.2:
///
/// ```text
/// IPv6address =                            6( h16 ":" ) ls32
///             /                       "::" 5( h16 ":" ) ls32
///             / [               h16 ] "::" 4( h16 ":" ) ls32
///             / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
///             / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
///             / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
///             / [ *4( h16 ":" ) h16 ] "::"              ls32
///             / [ *5( h16 ":" ) h16 ] "::"              h16
///             / [ *6( h16 ":" ) h16 ] "::"
/// ```
///
/// Equivalently: without `::`, exactly eight 16-bit pieces; with one `::`
/// standing for at least one zero piece, at most seven; an `ls32` (which
/// may be an IPv4address) only at the end. No zone identifier.
pub(crate) fn ipv6address(s: &[u8]) -> Option<Ipv6Addr> {
    let mut groups = [0u16; 8];
    let gap = s.windows(2).position(|w| w == b"::");
    let (left, right) = match gap {
        Some(i) => (s.get(..i)?, Some(s.get(i + 2..)?)),
        None => (s, None),
    };
    let n_left = pieces(left, &mut groups, right.is_none())?;
    match right {
        None if n_left == 8 => {}
        None => return None,
        Some(right) => {
            let mut tail = [0u16; 8];
            let n_right = pieces(right, &mut tail, true)?;
            if n_left + n_right > 7 {
                return None;
            }
            let dst = groups.get_mut(8 - n_right..)?;
            dst.copy_from_slice(tail.get(..n_right)?);
        }
    }
    let [a, b, c, d, e, f, g, h] = groups;
    Some(Ipv6Addr::new(a, b, c, d, e, f, g, h))
}

/// `h16 *( ":" h16 )`, the last piece an `ls32` when `ls32` is set, into
/// `out`; the number of 16-bit groups, or `None` when malformed.
fn pieces(s: &[u8], out: &mut [u16; 8], ls32: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    let mut n = 0;
    let mut parts = s.split(|&b| b == b':').peekable();
    while let Some(part) = parts.next() {
        let last = parts.peek().is_none();
        if last && ls32 && part.contains(&b'.') {
            let [a, b, c, d] = ipv4address(part)?.octets();
            *out.get_mut(n)? = u16::from_be_bytes([a, b]);
            *out.get_mut(n + 1)? = u16::from_be_bytes([c, d]);
            n += 2;
        } else {
            *out.get_mut(n)? = h16(part)?;
            n += 1;
        }
    }
    Some(n)
}

/// RFC 3986 §3.2.2: `h16 = 1*4HEXDIG`.
fn h16(s: &[u8]) -> Option<u16> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    s.iter()
        .try_fold(0u16, |n, &b| Some(n << 4 | u16::from(chars::hex_value(b)?)))
}

/// RFC 3986 §3.2.2:
/// `IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet`.
pub(crate) fn ipv4address(s: &[u8]) -> Option<Ipv4Addr> {
    four_octets(s, dec_octet)
}

/// RFC 1738 §5: `hostnumber = digits "." digits "." digits "." digits`,
/// each at most 255 (leading zeros allowed, as the grammar does).
pub(crate) fn hostnumber(s: &[u8]) -> Option<Ipv4Addr> {
    four_octets(s, |d| {
        let v = d.iter().try_fold(0u32, |n, &b| {
            DIGIT[usize::from(b)]
                .then(|| n * 10 + u32::from(b - b'0'))
                .filter(|&v| v <= 255)
        })?;
        (!d.is_empty()).then_some(v).and_then(|v| u8::try_from(v).ok())
    })
}

/// Four parts separated by dots, each read by `octet`.
fn four_octets(
    s: &[u8],
    octet: impl Fn(&[u8]) -> Option<u8>,
) -> Option<Ipv4Addr> {
    let mut out = [0u8; 4];
    let mut parts = s.split(|&b| b == b'.');
    for o in &mut out {
        *o = octet(parts.next()?)?;
    }
    match parts.next() {
        None => Some(Ipv4Addr::from(out)),
        Some(_) => None,
    }
}

/// RFC 3986 §3.2.2:
///
/// ```text
/// dec-octet = DIGIT                 ; 0-9
///           / %x31-39 DIGIT         ; 10-99
///           / "1" 2DIGIT            ; 100-199
///           / "2" %x30-34 DIGIT     ; 200-249
///           / "25" %x30-35          ; 250-255
/// ```
fn dec_octet(s: &[u8]) -> Option<u8> {
    let ok = matches!(s, [_] | [b'1'..=b'9', _, ..])
        && s.len() <= 3
        && s.iter().all(u8::is_ascii_digit);
    if !ok {
        return None;
    }
    let v = s.iter().fold(0u32, |n, &b| n * 10 + u32::from(b - b'0'));
    u8::try_from(v).ok()
}

/// RFC 1738 §5 and RFC 1123 §2.1:
///
/// ```text
/// hostname    = *[ domainlabel "." ] toplabel
/// domainlabel = alphadigit | alphadigit *[ alphadigit | "-" ] alphadigit
/// toplabel    = alpha | alpha *[ alphadigit | "-" ] alphadigit
/// ```
///
/// with RFC 1034 §3.1 limits (labels of at most 63 bytes, names of at most
/// 253) and, when `root` is set, one trailing dot (an absolute name).
///
/// This is the rule as written, label by label; [`scan_hostname`] is the
/// one-pass form the hot path uses, tested against it.
pub(crate) fn hostname(s: &[u8], root: bool) -> bool {
    let s = match s.strip_suffix(b".") {
        Some(t) if root => t,
        _ => s,
    };
    if s.is_empty() || s.len() > 253 {
        return false;
    }
    let mut labels = s.split(|&b| b == b'.').peekable();
    while let Some(label) = labels.next() {
        let ok = if labels.peek().is_some() {
            domainlabel(label)
        } else {
            toplabel(label)
        };
        if !ok {
            return false;
        }
    }
    true
}

/// [`hostname`] in one pass; `Some(true)` when a label starts with `xn--`
/// (IDNA's ASCII-compatible form, to be checked by [`idn_to_ascii`]).
fn scan_hostname(s: &[u8], root: bool) -> Option<bool> {
    match hostname_prefix(s, root) {
        (n, found) if n == s.len() => found,
        _ => None,
    }
}

/// The longest prefix of `s` made of letters, digits, hyphens and dots,
/// and [`scan_hostname`]'s verdict on it: the authority's hot path reads
/// the host and finds where it ends in the same pass, eight bytes at a
/// time ([`ldh_lanes`]), label by label at the dots.
pub(crate) fn hostname_prefix(s: &[u8], root: bool) -> (usize, Option<bool>) {
    let mut ace = false;
    let mut start = 0;
    let mut good = true;
    let mut end = None;
    let mut at = 0;
    let mut label = |i: usize, start: &mut usize| {
        let label = s.get(*start..i).unwrap_or_default();
        good &= label_ends(label);
        ace |= is_ace(label);
        *start = i + 1;
    };
    while let Some(word) = s.get(at..).and_then(|r| r.first_chunk()) {
        let (ldh, mut dots) = ldh_lanes(u64::from_le_bytes(*word));
        let other = !ldh & HIGH;
        if other != 0 {
            // only the dots before the first other byte
            dots &= other.wrapping_sub(1) & !other;
        }
        while dots != 0 {
            label(at + (dots.trailing_zeros() / 8) as usize, &mut start);
            dots &= dots - 1;
        }
        if other != 0 {
            end = Some(at + (other.trailing_zeros() / 8) as usize);
            break;
        }
        at += 8;
    }
    let end = match end {
        Some(end) => end,
        None => {
            let tail = s.get(at..).unwrap_or_default();
            let mut end = s.len();
            for (i, &b) in tail.iter().enumerate() {
                if b == b'.' {
                    label(at + i, &mut start);
                } else if !LDH[usize::from(b)] {
                    end = at + i;
                    break;
                }
            }
            end
        }
    };
    let name = s.get(..end).unwrap_or_default();
    // An absolute name: the last label is the one before the root dot.
    let (name, top) = match name.strip_suffix(b".") {
        Some(t) if root && start == end => {
            let top_start =
                t.iter().rposition(|&b| b == b'.').map_or(0, |i| i + 1);
            (t, t.get(top_start..).unwrap_or_default())
        }
        _ => (name, name.get(start..).unwrap_or_default()),
    };
    good &= !name.is_empty()
        && name.len() <= 253
        && label_ends(top)
        && top.first().is_some_and(|&b| ALPHA[usize::from(b)]);
    (end, good.then_some(ace || is_ace(top)))
}

/// The high bit of each lane.
const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);

/// The lanes of the eight bytes `w` (little-endian) that hold a letter,
/// digit, hyphen or dot, and those that hold a dot, as their high bits.
/// Each range test adds to the low seven bits of a lane, so no carry
/// crosses lanes: `v + (0x80 - lo)` reaches the high bit when `v >= lo`,
/// `v + (0x7F - hi)` when `v > hi`; bytes above 0x7F are in no range.
#[inline]
fn ldh_lanes(w: u64) -> (u64, u64) {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    let v = w & !HIGH;
    // bit 0x20 folds upper-case letters onto lower-case, and nothing
    // else onto them
    let letters = lanes_within(v | (ONES * 0x20), b'a', b'z');
    let digits = lanes_within(v, b'0', b'9');
    let hyphen_dot = lanes_within(v, b'-', b'.');
    let dot = v ^ (ONES * 0x2E);
    let dots = !(dot.wrapping_add(ONES * 0x7F) | dot) & !w & HIGH;
    ((letters | digits | hyphen_dot) & !w & HIGH, dots)
}

/// [`hostname_prefix`] a byte at a time, as it was: the oracle of the
/// word-at-a-time pass.
#[cfg(test)]
fn hostname_prefix_bytes(s: &[u8], root: bool) -> (usize, Option<bool>) {
    let mut ace = false;
    let mut start = 0;
    let mut good = true;
    let mut end = s.len();
    for (i, &b) in s.iter().enumerate() {
        if b == b'.' {
            let label = s.get(start..i).unwrap_or_default();
            good &= label_ends(label);
            ace |= is_ace(label);
            start = i + 1;
        } else if !LDH[usize::from(b)] {
            end = i;
            break;
        }
    }
    let name = s.get(..end).unwrap_or_default();
    let (name, top) = match name.strip_suffix(b".") {
        Some(t) if root && start == end => {
            let top_start =
                t.iter().rposition(|&b| b == b'.').map_or(0, |i| i + 1);
            (t, t.get(top_start..).unwrap_or_default())
        }
        _ => (name, name.get(start..).unwrap_or_default()),
    };
    good &= !name.is_empty()
        && name.len() <= 253
        && label_ends(top)
        && top.first().is_some_and(|&b| ALPHA[usize::from(b)]);
    (end, good.then_some(ace || is_ace(top)))
}

/// The old one-pass scan, kept for the property test below.
#[cfg(test)]
fn scan_hostname_whole(s: &[u8], root: bool) -> Option<bool> {
    let s = match s.strip_suffix(b".") {
        Some(t) if root => t,
        _ => s,
    };
    if s.is_empty() || s.len() > 253 {
        return None;
    }
    let mut ace = false;
    let mut start = 0;
    for (i, &b) in s.iter().enumerate() {
        if b == b'.' {
            let label = s.get(start..i)?;
            if !label_ends(label) {
                return None;
            }
            ace |= is_ace(label);
            start = i + 1;
        } else if !LDH[usize::from(b)] {
            return None;
        }
    }
    let top = s.get(start..)?;
    let top_ok =
        label_ends(top) && top.first().is_some_and(|&b| ALPHA[usize::from(b)]);
    top_ok.then_some(ace || is_ace(top))
}

/// RFC 1123 §2.1 "LDH": letters, digits, hyphen.
const LDH: chars::Class = {
    let mut t = ALNUM;
    t[b'-' as usize] = true;
    t
};

/// A label of 1 to 63 bytes (RFC 1034 §3.1) that neither starts nor ends
/// with a hyphen; its bytes are checked by the caller.
fn label_ends(s: &[u8]) -> bool {
    match (s.first(), s.last()) {
        (Some(&a), Some(&z)) => s.len() <= 63 && a != b'-' && z != b'-',
        _ => false,
    }
}

/// Does the label start with IDNA's `xn--`?
fn is_ace(label: &[u8]) -> bool {
    // Bit 0x20 folds the two letters (and only "X"/"N" onto "x"/"n"); the
    // hyphens are compared as they are.
    match label {
        [a, b, b'-', b'-', ..] => (a | 0x20, b | 0x20) == (b'x', b'n'),
        _ => false,
    }
}

/// RFC 1738 §5: `domainlabel = alphadigit | alphadigit *[ alphadigit | "-"
/// ] alphadigit`, at most 63 bytes (RFC 1034 §3.1).
pub(crate) fn domainlabel(s: &[u8]) -> bool {
    match (s.first(), s.last()) {
        (Some(&a), Some(&z)) => {
            s.len() <= 63
                && ALNUM[usize::from(a)]
                && ALNUM[usize::from(z)]
                && s.iter().all(|&b| ALNUM[usize::from(b)] || b == b'-')
        }
        _ => false,
    }
}

/// RFC 1738 §5: `toplabel = alpha | alpha *[ alphadigit | "-" ]
/// alphadigit`.
pub(crate) fn toplabel(s: &[u8]) -> bool {
    domainlabel(s) && s.first().is_some_and(|&b| ALPHA[usize::from(b)])
}

/// RFC 3987 §3.1 step 2 and RFC 5891: the ASCII form of an internationalised
/// domain name, which must then be a `hostname`. UTS #46 processing with
/// STD3 rules, hyphen checks and DNS lengths (a trailing dot allowed).
pub(crate) fn idn_to_ascii(s: &[u8]) -> Result<String, Reject> {
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    let ascii = Uts46::new()
        .to_ascii(
            s,
            AsciiDenyList::STD3,
            Hyphens::Check,
            DnsLength::VerifyAllowRootDot,
        )
        .map_err(|_| Reject::BadIdn)?;
    if hostname(ascii.as_bytes(), true) {
        Ok(ascii.into_owned())
    } else {
        Err(Reject::BadIdn)
    }
}

/// RFC 3986 §3.2.3: `port = *DIGIT`; RFC 1738 §5: `port = digits`. The
/// value, `None` for an empty port, or [`Reject::BadPort`] when it is not
/// digits or above 65535.
pub(crate) fn port(s: &[u8], strict: bool) -> Result<Option<u16>, Reject> {
    if s.is_empty() {
        return if strict { Err(Reject::BadPort) } else { Ok(None) };
    }
    let v = s.iter().try_fold(0u32, |n, &b| {
        if b.is_ascii_digit() {
            Some(n * 10 + u32::from(b - b'0')).filter(|&v| v <= 65535)
        } else {
            None
        }
    });
    v.and_then(|v| u16::try_from(v).ok()).map(Some).ok_or(Reject::BadPort)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dns(s: &str) -> Result<Host<'_>, Reject> {
        host(s.as_bytes(), Rule::Dns, false, false)
    }

    #[test]
    fn hostname_rule() {
        assert!(hostname(b"a", false));
        assert!(hostname(b"info.cern.ch", false));
        assert!(hostname(b"1st.example-host.com", false));
        assert!(hostname(b"example.com.", true));
        assert!(!hostname(b"example.com.", false));
        assert!(!hostname(b"a..b", false));
        assert!(!hostname(b"-a.b", false));
        assert!(!hostname(b"a-.b", false));
        assert!(!hostname(b"a.1b", false), "toplabel starts with alpha");
        assert!(!hostname(b"a_b.c", false));
        assert!(!hostname(b"", true));
        assert!(hostname(&[b'a'; 63], false));
        assert!(!hostname(&[b'a'; 64], false));
    }

    proptest::proptest! {
        #[test]
        fn one_pass_scan_is_the_rule(s in "[a-zA-Z0-9.x-]{0,12}|xn--[a-z-]{0,4}\\.[a-z0-9.-]{0,4}|[a-z.]{0,4}[:/_][a-z.]{0,4}") {
            for root in [false, true] {
                let scan = scan_hostname(s.as_bytes(), root);
                proptest::prop_assert_eq!(scan, scan_hostname_whole(s.as_bytes(), root));
                proptest::prop_assert_eq!(scan.is_some(), hostname(s.as_bytes(), root));
                if let Some(ace) = scan {
                    proptest::prop_assert_eq!(ace, s.to_ascii_lowercase().split('.').any(|l| l.starts_with("xn--")));
                }
            }
        }
    }

    /// The word-at-a-time pass gives what the byte loop gives: every
    /// byte value in every lane of a host name, and random names of
    /// labels, dots, hyphens and stray bytes, at both levels.
    #[test]
    fn hostname_prefix_equals_the_byte_loop() {
        let base = b"xn--a1b.Example-9.COM.";
        for len in 0..=base.len() {
            for at in 0..len.max(1) {
                for b in 0..=255u8 {
                    let mut s = base[..len].to_vec();
                    if at < len {
                        s[at] = b;
                    }
                    s.extend_from_slice(b"/path");
                    for root in [false, true] {
                        assert_eq!(
                            hostname_prefix(&s, root),
                            hostname_prefix_bytes(&s, root),
                            "{s:?} {root}"
                        );
                    }
                }
            }
        }
        let pieces: &[&[u8]] = &[
            b"a",
            b"Z",
            b"0",
            b"-",
            b".",
            b"xn--",
            b"XN--",
            b"www",
            b"/",
            b":",
            b"_",
            b"\xc3\xa9",
            b"\x80",
            b"\x2e",
            b"\xae",
            b"\x0d",
            b"`",
            b"{",
            b"@",
            b"[",
            &[b'a'; 63],
            &[b'b'; 64],
        ];
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            let mut s = Vec::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            for k in 0..x % 24 {
                let p = pieces[(x >> (k * 2 % 50)) as usize % pieces.len()];
                s.extend_from_slice(p);
            }
            for root in [false, true] {
                assert_eq!(
                    hostname_prefix(&s, root),
                    hostname_prefix_bytes(&s, root),
                    "{s:?} {root}"
                );
            }
        }
    }

    #[test]
    fn ipv4_rules() {
        assert_eq!(
            ipv4address(b"10.0.0.255"),
            Some(Ipv4Addr::new(10, 0, 0, 255))
        );
        assert_eq!(ipv4address(b"10.0.0.256"), None);
        assert_eq!(ipv4address(b"10.0.0"), None);
        assert_eq!(ipv4address(b"10.0.0.1.2"), None);
        assert_eq!(ipv4address(b"010.0.0.1"), None, "dec-octet: no zeros");
        assert_eq!(hostnumber(b"010.0.0.1"), Some(Ipv4Addr::new(10, 0, 0, 1)));
        assert_eq!(hostnumber(b"1.2.3.999"), None);
        assert_eq!(hostnumber(b"1..3.4"), None);
        assert_eq!(dns("300.1.1.1"), Err(Reject::BadIpv4));
        assert_eq!(dns("123"), Err(Reject::BadIpv4));
    }

    #[test]
    fn ipv6_rule() {
        let ok = [
            "::",
            "::1",
            "1::",
            "2001:db8::7",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:1.2.3.4",
            "::ffff:192.0.2.1",
            "1::2:3:4:5:6:7",
            "FEDC:BA98:7654:3210:FEDC:BA98:7654:3210",
        ];
        for s in ok {
            let want: Ipv6Addr = s.parse().unwrap();
            assert_eq!(ipv6address(s.as_bytes()), Some(want), "{s}");
        }
        let bad = [
            "",
            ":",
            ":::",
            "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9",
            "1::2::3",
            "12345::",
            "1.2.3.4::",
            "::1.2.3",
            "1:2:3:4:5:6:7::8",
            "::1:2:3:4:5:6:7:8",
            "fe80::1%eth0",
            ":1::",
            "1::2:",
            "1:2:3:4:5:6:7:1.2.3.4",
        ];
        for s in bad {
            assert_eq!(ipv6address(s.as_bytes()), None, "{s}");
        }
        assert!(ipv_future(b"v1.fe80::a+en1"));
        assert!(
            !ipv_future(b"v.x") && !ipv_future(b"v1.") && !ipv_future(b"v1x")
        );
        assert_eq!(dns("[::1]"), Ok(Host::Ipv6(Ipv6Addr::LOCALHOST)));
        assert_eq!(dns("[v1.x]"), Err(Reject::BadIpv6));
        assert_eq!(
            host(b"[v1.x]", Rule::Dns, false, true),
            Ok(Host::IpFuture(b"v1.x"))
        );
        assert_eq!(dns("[::1"), Err(Reject::BadIpv6));
        assert_eq!(
            host(b"[::1]", Rule::Dns, true, true),
            Err(Reject::BadCharacter)
        );
    }

    #[test]
    fn names_and_idn() {
        assert_eq!(dns("Example.COM"), Ok(Host::Domain(b"Example.COM")));
        assert_eq!(dns("a_b.com"), Ok(Host::Domain(b"a_b.com")));
        assert_eq!(dns("x.a_b.com."), Ok(Host::Domain(b"x.a_b.com.")));
        // issue 19: no "_" in the top-level label
        for name in ["example.com_", "files.example.c_m", "a.b_.", "_"] {
            assert_eq!(dns(name), Err(Reject::BadLabel), "{name}");
        }
        assert_eq!(
            host(b"a_b.com", Rule::Dns, true, false),
            Err(Reject::BadLabel)
        );
        assert_eq!(dns("a b.com"), Err(Reject::BadCharacter));
        assert_eq!(dns("%41.com"), Err(Reject::BadLabel));
        let iri = "bücher.example";
        assert_eq!(dns(iri), Ok(Host::Iri(iri.as_bytes())));
        assert_eq!(
            idn_to_ascii(iri.as_bytes()).as_deref(),
            Ok("xn--bcher-kva.example")
        );
        assert_eq!(
            dns("xn--bcher-kva.example"),
            Ok(Host::Domain(b"xn--bcher-kva.example"))
        );
        assert_eq!(dns("xn--zz.example"), Err(Reject::BadIdn));
        // Full-width digits map to an all-numeric top label.
        assert_eq!(dns("ａ.１２３"), Err(Reject::BadIdn));
        assert_eq!(
            host("bücher.example".as_bytes(), Rule::Dns, true, false),
            Err(Reject::BadCharacter)
        );
        let g =
            |s: &'static str| host(s.as_bytes(), Rule::Generic, false, true);
        assert_eq!(g("a_b%20c"), Ok(Host::RegName(b"a_b%20c")));
        assert_eq!(g("300.1.1.1"), Ok(Host::RegName(b"300.1.1.1")));
        assert_eq!(g("a%zz"), Err(Reject::BadEscape));
        assert_eq!(g("a/b"), Err(Reject::BadCharacter));
    }

    #[test]
    fn port_rule() {
        assert_eq!(port(b"80", false), Ok(Some(80)));
        assert_eq!(port(b"0080", false), Ok(Some(80)));
        assert_eq!(port(b"65535", false), Ok(Some(65535)));
        assert_eq!(port(b"", false), Ok(None));
        assert_eq!(port(b"", true), Err(Reject::BadPort));
        assert_eq!(port(b"65536", false), Err(Reject::BadPort));
        assert_eq!(port(b"99999999999999999999", false), Err(Reject::BadPort));
        assert_eq!(port(b"8a", false), Err(Reject::BadPort));
    }
}
