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
//!                  (tld.rs), or the host is an IPv4address (RFC 3986
//!                  §3.2.2) and a port or path follows; a path or port
//!                  may follow (bare.rs rules)
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
//! of a cut word; a line of uuencoded data holds none (uuencode.rs);
//! a name glued to a word, a path, a URL or an address (`src/main.rs`,
//! `a.b.example.com` from its second dot, `bob@example.com`) is no name.

use super::tld::TLDS;
use super::{bare, delimited};
use super::{Config, Finds, Flags, Hay, Incomplete, Kind, Raw, Span, Text};
use crate::parse::{self, Scheme, Verdict};

/// RFC 5322 §3.2.3 `atext`: letters, digits and
/// ``! # $ % & ' * + - / = ? ^ _ ` { | } ~``.
#[inline]
fn is_atext(b: u8) -> bool {
    CLASS[usize::from(b)] & ATEXT != 0
}

/// Byte classes of the detectors' walks, one table look-up a byte: they
/// run at every `.` of the text with `--find domain`.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        let mut class = 0;
        if c.is_ascii_alphanumeric() {
            class |= ALNUM | LABEL | ATEXT;
        }
        if c == b'-' {
            class |= LABEL;
        }
        if c == b'.' {
            class |= LOCAL | HOST;
        }
        if class & LABEL != 0 {
            class |= HOST;
        }
        let mut k = 0;
        let specials = b"!#$%&'*+-/=?^_`{|}~";
        while k < specials.len() {
            if specials[k] == c {
                class |= ATEXT;
            }
            k += 1;
        }
        // opens_name: whitespace and controls, non-ASCII, brackets,
        // quotes and `,;*|`
        if c <= b' ' || c >= 0x7F {
            class |= OPENS;
        }
        let openers = b"([{<>\"',;*|";
        let mut k = 0;
        while k < openers.len() {
            if openers[k] == c {
                class |= OPENS;
            }
            k += 1;
        }
        if class & ATEXT != 0 {
            class |= LOCAL;
        }
        t[b] = class;
        b += 1;
    }
    t
};
/// RFC 5322 §3.2.3 `atext`.
const ATEXT: u8 = 1;
/// A letter or digit.
const ALNUM: u8 = 2;
/// A byte of a DNS label (RFC 1034 §3.5): letter, digit or `-`.
const LABEL: u8 = 4;
/// A byte after which a name may start ([`opens_name`]).
const OPENS: u8 = 8;
/// A byte of a dot-atom local part: `atext` or `.`.
const LOCAL: u8 = 16;
/// A byte of a host run: a label byte or `.`.
const HOST: u8 = 32;

/// The end of the run of `class` bytes from `from`, at most `limit`:
/// [`Incomplete`] when it reaches the end of a window that is not the
/// end of input before `limit`.
#[inline]
fn run_end(
    hay: &Hay<'_>,
    from: usize,
    limit: usize,
    class: u8,
) -> Result<usize, Incomplete> {
    let bytes = hay.bytes;
    let stop = limit.min(bytes.len());
    let mut i = from;
    while i < stop && CLASS[usize::from(bytes[i])] & class != 0 {
        i += 1;
    }
    if i < limit && i >= bytes.len() && !hay.eof {
        return Err(Incomplete);
    }
    Ok(i)
}

/// Whether `b` is a letter or digit (one table look-up).
#[inline]
fn is_alnum(b: u8) -> bool {
    CLASS[usize::from(b)] & ALNUM != 0
}

/// Longest domain read forward (RFC 1034 §3.1).
const MAX_DOMAIN: usize = 253;

/// Whether the `.` at `dot` may end the `www` of a name: `www` (any
/// case) right before it, at or after `floor`, with no byte of a word or
/// of a URL before that, and a letter or digit after the dot (ASCII, or
/// the lead byte of a non-ASCII one: a U-label may begin with it, RFC
/// 5890 §2.3.2.1, `www.ça.ws`; the validator decides), or the window
/// ends there.
#[inline(always)]
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
        || hay.get(start - 1).is_some_and(|&b| opens_name(b))
        || word_opener(hay, start - 1, floor)
        || run_opener(hay, start - 1, floor))
        && hay
            .get(dot + 1)
            .is_none_or(|&b| b.is_ascii_alphanumeric() || b >= 0xC2)
}

/// Bytes after which a name may start: whitespace and controls,
/// brackets, quotes, `,;*|` and non-ASCII (a UTF-8 quote or space);
/// not letters, digits or anything a URL holds (`http://www.…`,
/// `x.www.…`, `/www.…`, `@www.…` are parts of something else).
#[inline]
fn opens_name(b: u8) -> bool {
    CLASS[usize::from(b)] & OPENS != 0
}

/// Whether the byte at `p` is a `=` or `:` that begins a word (at the
/// floor or after whitespace: ` =example.net`, `\n:www.example.org`).
/// Glued to a word, either is part of something else (`?u=example.com`,
/// `x:example.com`, `host:port`); at a word's start no key, scheme
/// (RFC 3986 §3.1: letters before its `:`) or host stands before it, so
/// the name after it starts a word of its own. A `=` and two uppercase
/// hex digits is a quoted-printable escape (RFC 2045 §6.7, rule 1:
/// `=3Dwww.…` is `=www.…` encoded), not an opener; nor is one that
/// begins a line after a soft line break (rule 5: `http=` then
/// `://www.…` is one word).
#[inline]
fn word_opener(hay: &[u8], p: usize, floor: usize) -> bool {
    let qp = |b: Option<&u8>| {
        b.is_some_and(|&b| b.is_ascii_digit() || (b'A'..=b'F').contains(&b))
    };
    (hay.get(p) == Some(&b':')
        || hay.get(p) == Some(&b'=')
            && !(qp(hay.get(p + 1)) && qp(hay.get(p + 2))))
        && (p == floor
            || p > floor
                && hay.get(p - 1).is_some_and(|b| b.is_ascii_whitespace()))
        && !qp_continuation(hay, p)
}

/// Whether the byte at `p` ends an ellipsis that begins a word: two or
/// more `.` at the floor or after whitespace (`.....www.example.com`;
/// the floor is a word's start, as for [`word_opener`]), not on a quoted-printable
/// continuation line (`=` then `.cnet.com/b.gif` is one word). A lone
/// `.` (`[.example.com]`, a name cut) and a rule of dashes (a MIME
/// delimiter line, `--boundary.example.com`, RFC 2046 §5.1.1) open none.
#[inline]
fn run_opener(hay: &[u8], p: usize, floor: usize) -> bool {
    if hay.get(p) != Some(&b'.') {
        return false;
    }
    let mut k = p;
    while k > floor && hay[k - 1] == b'.' {
        k -= 1;
    }
    p - k >= 1
        && (k == floor
            || hay[k - 1].is_ascii_whitespace() && !qp_continuation(hay, k))
}

/// Longest DNS label (RFC 1034 §3.1).
const MAX_LABEL: usize = 63;

/// What opens the name whose first label ends at a dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opened {
    /// A byte that opens a name ([`opens_name`]), or the floor: a domain
    /// name.
    Name,
    /// `//` after such a byte or at the floor: the host of a network-path
    /// reference (RFC 3986 §4.2).
    Slashes,
}

/// The start of the label that ends at `dot` and what opens it, when
/// the dot may follow the first label of a host: a letter or digit
/// before it, a label of at most 63 letters, digits and hyphens starting
/// with a letter or digit at or after `floor`, and a letter or digit
/// after the dot, or the window ends there; before the label, for a
/// domain name nothing of a word or URL ([`opens_name`]), for the host of
/// a network-path reference `//` and then such a byte (never `:` as in
/// `http://`, nor `/`). One walk back over the class table for both
/// detectors: the trigger test of [`host`].
#[inline]
pub(crate) fn host_start(
    hay: &[u8],
    dot: usize,
    floor: usize,
) -> Option<(usize, Opened)> {
    if dot <= floor
        || !hay.get(dot - 1).is_some_and(|&b| {
            is_alnum(b) || b >= 0x80 && idn::label_char_before(hay, dot)
        })
        || !hay.get(dot + 1).is_none_or(|&b| {
            is_alnum(b) || b >= 0x80 && idn::label_char_at(hay, dot + 1)
        })
    {
        return None;
    }
    let lowest = floor.max(dot.saturating_sub(MAX_LABEL));
    let run = hay.get(lowest..dot)?;
    // After the walk, `s` is where the label starts: after the nearest
    // byte that is no label byte, or at `lowest` (the floor, or 63 bytes
    // back, where the byte before decides). Where that byte is UTF-8,
    // the label may go on over letters of an internationalized name.
    let mut s =
        match run.iter().rposition(|&b| CLASS[usize::from(b)] & LABEL == 0) {
            Some(i) => lowest + i + 1,
            None => lowest,
        };
    if s > lowest && hay[s - 1] >= 0x80 {
        s = idn::label_start(hay, lowest, s, dot);
    }
    if !hay.get(s).is_some_and(|&b| is_alnum(b) || b >= 0x80) || s >= dot {
        return None;
    }
    let opens = |at: usize| {
        at == floor
            || hay.get(at.wrapping_sub(1)).is_some_and(|&b| opens_name(b))
                && !idn::after_latin_letter(hay, at)
            || at > floor && word_opener(hay, at - 1, floor)
            || at > floor && run_opener(hay, at - 1, floor)
    };
    if opens(s) {
        return Some((s, Opened::Name));
    }
    // `//` opens a host after a space, bracket or quote of any script,
    // not after a letter of any (README Conformance, network-path).
    let slashes = s.checked_sub(2).filter(|&p| p >= floor)?;
    (hay.get(slashes..s)? == b"//"
        && opens(slashes)
        && !idn::after_letter(hay, slashes))
    .then_some((s, Opened::Slashes))
}

/// Whether the `.` at `dot` may follow the first label of a host after
/// `//` (what [`host_start`] calls [`Opened::Slashes`]): a `/` in the
/// label's reach before it, at most 64 bytes back and after `floor`.
/// One `memrchr`, where the label walk reads byte by byte: the first
/// test of a dot when only network-path references are looked for.
#[inline]
pub(crate) fn may_follow_slashes(
    hay: &[u8],
    dot: usize,
    floor: usize,
) -> bool {
    let lowest = floor.max(dot.saturating_sub(MAX_LABEL + 1));
    hay.get(lowest..dot)
        .is_some_and(|run| memchr::memrchr(b'/', run).is_some())
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
    match pack(tld) {
        Some(key) => {
            let table = &PACKED;
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
        None => is_long_tld(tld),
    }
}

/// [`is_tld`] for a name of more than eight bytes (or none): a binary
/// search of the table. Out of line: few names get here.
#[inline(never)]
fn is_long_tld(tld: &[u8]) -> bool {
    let mut buf = [0u8; MAX_LABEL];
    let Some(dst) = buf.get_mut(..tld.len()) else { return false };
    for (d, s) in dst.iter_mut().zip(tld) {
        *d = s.to_ascii_lowercase();
    }
    let name = std::str::from_utf8(dst).unwrap_or("");
    !name.is_empty() && TLDS.binary_search(&name).is_ok()
}

/// `name` lower-cased into a little-endian `u64`, when it has one to
/// eight bytes (the length is implied: names hold no zero byte). The
/// bytes are copied and lower-cased as one word: `A`-`Z` found by two
/// additions on the low seven bits of each byte, bit `0x20` set on
/// them.
#[inline]
fn pack(name: &[u8]) -> Option<u64> {
    if name.is_empty() || name.len() > 8 {
        return None;
    }
    // Shifted in a byte at a time: a copy into a word array compiled to
    // a `memcpy` call (issue 32: 17 of the ~600 instructions a unit of
    // `x.zz ` repeated with `--find all`).
    let w = name.iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b));
    const LOW7: u64 = u64::from_ne_bytes([0x7F; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let low = w & LOW7;
    // high bit set where the low seven bits are at least `A`, and where
    // they are past `Z`; no byte carries into the next (at most 0xFF)
    let from_a = low + u64::from_ne_bytes([0x80 - b'A'; 8]);
    let past_z = low + u64::from_ne_bytes([0x80 - b'Z' - 1; 8]);
    let upper = from_a & !past_z & !w & HIGH;
    Some(w | (upper >> 2))
}

/// Slots of the packed table: a power of two, at least twice the names.
const SLOTS: usize = 4096;

/// The home slot of a packed name (Fibonacci hashing).
#[inline]
const fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 52) as usize & (SLOTS - 1)
}

/// The TLDs of up to eight bytes, packed, in an open-addressing table
/// of [`SLOTS`] (zero is no name), built at compile time: no lazy
/// initialisation to check at every look-up.
static PACKED: [u64; SLOTS] = {
    let mut table = [0u64; SLOTS];
    let mut t = 0;
    while t < TLDS.len() {
        let name = TLDS[t].as_bytes();
        if name.len() <= 8 {
            // `pack`, in a const context
            let (mut key, mut k) = (0u64, 0);
            while k < name.len() {
                key |= (name[k].to_ascii_lowercase() as u64) << (8 * k);
                k += 1;
            }
            let mut i = slot(key);
            while table[i] != 0 && table[i] != key {
                i = (i + 1) & (SLOTS - 1);
            }
            table[i] = key;
        }
        t += 1;
    }
    table
};

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
        b"ac", b"ad", b"ai", b"am", b"ar", b"as", b"bz", b"cc", b"cf", b"cx",
        b"in", b"la", b"ly", b"mc", b"md", b"mk", b"ml", b"ms", b"pl", b"pm",
        b"ps", b"py", b"rs", b"sc", b"sh", b"so", b"tk",
    ];
    if tld.len() == 2 {
        return EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(tld));
    }
    // An internationalized TLD (`xn--p1ai`, .рф) is no file extension.
    if tld.len() > 4 && tld[..4].eq_ignore_ascii_case(b"xn--") {
        return false;
    }
    !STRONG.iter().any(|e| e.eq_ignore_ascii_case(tld))
}

/// A bare domain name, or the host of a network-path reference
/// (`//example.com/lib.js`, RFC 3986 §4.2), whose first dot is at `dot`,
/// with an optional port, path, query and fragment: the one the
/// detectors that are on and what opens it ([`host_start`]) say.
///
/// When the host's run of labels and dots is read and refused, `skip` is
/// set to the end of its ASCII part: no trigger stands inside it (no `:`
/// or `@`, and every later dot follows a label that follows a dot, which
/// opens neither a name nor `//`; a UTF-8 character would open one), so
/// the trigger search may go on there.
pub(crate) fn host(
    cfg: &Config,
    hay: &Hay<'_>,
    dot: usize,
    floor: usize,
    skip: &mut usize,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    match host_start(hay.bytes, dot, floor) {
        Some((start, opened)) => {
            host_at(cfg, hay, start, opened, dot, floor, skip)
        }
        None => Ok(None),
    }
}

/// [`host`], its label start and opener known (from [`host_start`]).
pub(crate) fn host_at(
    cfg: &Config,
    hay: &Hay<'_>,
    start: usize,
    opened: Opened,
    dot: usize,
    floor: usize,
    skip: &mut usize,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    let (begin, kind) = match opened {
        Opened::Name if cfg.finds.contains(Finds::DOMAIN) => {
            (start, Kind::Domain)
        }
        Opened::Slashes if cfg.finds.contains(Finds::NETWORK_PATH) => {
            (start - 2, Kind::NetworkPath)
        }
        _ => return Ok(None),
    };
    host_name(cfg, hay, (begin, floor), start, dot, skip, kind)
}

/// A host name from `start` (its first dot at `dot`) and what may follow
/// it, found as `kind` from `begin` (`start`, or the `//` before it),
/// the look-behind limited at `floor`.
fn host_name(
    cfg: &Config,
    hay: &Hay<'_>,
    (begin, floor): (usize, usize),
    start: usize,
    dot: usize,
    skip: &mut usize,
    kind: Kind,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    // The host: labels and dots, at most 253 bytes (UTF-8 letters of an
    // internationalized name read where the ASCII run stops at one).
    let limit = start + MAX_DOMAIN;
    let mut run_end = run_end(hay, dot, limit, HOST)?;
    // The skip stops where UTF-8 starts: a non-ASCII character opens a
    // name (`é` before `www.`), so the run past it may hold a trigger.
    *skip = run_end;
    if run_end < limit && hay.get(run_end)?.is_some_and(|b| b >= 0x80) {
        let label = hay.bytes[dot..run_end].rsplit(|&b| b == b'.').next();
        let script = idn::ascii_script(label.unwrap_or_default());
        run_end = idn::host_run_end(hay, run_end, limit, script)?;
    }
    let bytes = hay.bytes;
    let mut host_end = run_end;
    while host_end > dot && matches!(bytes[host_end - 1], b'.' | b'-') {
        host_end -= 1;
    }
    if host_end <= dot + 1 {
        return Ok(None); // one label and a dot (`it.` before a no-break space)
    }
    let host = &bytes[start..host_end];
    let top = host.rsplit(|&b| b == b'.').next().unwrap_or_default();
    let after =
        if host_end < run_end { Some(b'.') } else { hay.get(host_end)? };
    // glued to a word, an address or a file name's tail
    let glued = matches!(after, Some(b'_' | b'@' | b'\\' | b'~'));
    let tld = if top.is_ascii() {
        is_tld(top)
    } else {
        parse::idn_to_ascii(top).is_ok_and(|a| is_tld(a.as_bytes()))
    };
    // RFC 3986 §3.2.2 `IPv4address`: four `dec-octet`s, no leading zero;
    // the run of labels and dots stops at no digit, letter or `.` and
    // digit, so nothing glued follows it.
    let ipv4 = !tld
        && host.len() <= 15
        && host.iter().filter(|&&b| b == b'.').count() == 3
        && parse::ipv4address(host).is_some();
    if !(tld || ipv4) || glued {
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
    // a line of uuencoded data (`VT.AR/&(#7TO,1FR`)
    if uuencode::in_uuencoded_line(hay, start)? {
        return Ok(None); // not a name: nothing read is kept
    }
    // a version (`2.0.9-sf.net`, `1.2.com`): two numeric labels first
    let mut labels = host.split(|&b| b == b'.');
    let numeric =
        |l: Option<&[u8]>| l.is_some_and(|l| l.iter().all(u8::is_ascii_digit));
    if !ipv4 && numeric(labels.next()) && numeric(labels.next()) {
        return Ok(None); // not a name: nothing read is kept
    }
    let next = hay.get(host_end + 1)?;
    // No file name has an internationalized name.
    let weak = !ipv4 && weak_tld(top) && host.is_ascii();
    let mut port =
        after == Some(b':') && next.is_some_and(|b| b.is_ascii_digit());
    if port && weak {
        // `setup.py:14`, `genpkglist.cc:604:33`: a file and a line, as
        // compilers and interpreters write them (GNU Coding Standards
        // §4.4, `sourcefile:lineno: message`), not a host and a port; a
        // port there counts when a path follows it (`x.cc:8080/a`).
        let mut i = host_end + 2;
        while i < host_end + 8
            && hay.get(i)?.is_some_and(|b| b.is_ascii_digit())
        {
            i += 1;
        }
        port = hay.get(i)? == Some(b'/');
    }
    // `?` and `#` open a query or fragment only when something follows
    // (`NT select.select?` ends a question).
    let query = matches!(after, Some(b'?' | b'#'))
        && next.is_some_and(|b| b.is_ascii_alphanumeric());
    let path = port || query || after == Some(b'/');
    if ipv4 && after == Some(b'/') && prefix_length(hay, host_end + 1)? {
        return Ok(None); // a network, `10.0.0.0/8`: nothing read is kept
    }
    // An IPv4 address alone is as often a version (`revision 1.91.2.1`):
    // a host with a port or path only, as under a weak TLD.
    if !path && (weak || ipv4) {
        return Ok(None); // not a name: nothing read is kept
    }
    let (end, hard_end, trimmed) = if path {
        let e = bare::bare_end(
            hay,
            begin,
            host_end,
            cfg.max_url,
            bare::Host::Named,
            None,
        )?;
        if e.too_long {
            return Ok(Some(reject(begin, e.hard_end, kind)));
        }
        (e.end, e.hard_end, e.trimmed)
    } else {
        (host_end, run_end, host_end < run_end)
    };
    // Judged as the URL it implies: `http://` and the name, or `http:`
    // and the network path (the same URL).
    let prefix: &[u8] = if begin < start { b"http:" } else { b"http://" };
    let verdict = implied(cfg, prefix, &bytes[begin..end], Scheme::Http);
    if verdict.is_ok() {
        let host = &bytes[begin..host_end];
        if let Some(j) = joined_name(cfg, hay, host, begin, floor, kind)? {
            return Ok(Some(j));
        }
    }
    let mut raw = found(begin, end, hard_end, kind, verdict);
    if trimmed {
        raw.0.flags.insert(Flags::TRIMMED);
    }
    Ok(Some(raw))
}

/// Whether the text from `from`, after an IPv4 address and `/`, is a
/// prefix length or a mask (`10.0.0.0/8`, `192.24.12.0/255.255.252.0`:
/// CIDR notation, a network, no host and path) or a multicast group's
/// TTL and count (`224.2.17.12/127/3`, SDP): digits, dots and slashes,
/// then no byte a path goes on with.
fn prefix_length(hay: &Hay<'_>, from: usize) -> Result<bool, Incomplete> {
    let mut i = from;
    while hay.get(i)?.is_some_and(|b| b.is_ascii_digit() || b"./".contains(&b))
    {
        i += 1;
    }
    let next = hay.get(i)?;
    Ok(i > from
        && !next.is_some_and(|b| {
            b.is_ascii_alphanumeric() || b"/?#%-_~=&".contains(&b)
        }))
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
    let end = bare::bare_end(
        hay,
        start,
        dot + 1,
        cfg.max_url,
        bare::Host::Named,
        None,
    )?;
    if end.end == dot + 1 {
        return Ok(None);
    }
    if let Some(found) = joined_www(cfg, hay, start, floor)? {
        return Ok(Some(found));
    }
    let text = &hay.bytes[start..end.end];
    let Some(verdict) = www_verdict(cfg, text, end.too_long) else {
        return Ok(None);
    };
    let mut raw = found(start, end.end, end.hard_end, Kind::Www, verdict);
    if end.trimmed {
        raw.0.flags.insert(Flags::TRIMMED);
    }
    Ok(Some(raw))
}

/// A `www.` name from `start` right after a `<` or `"` whose reading
/// inside the delimiters removes whitespace (RFC 3986 Appendix C: "The
/// whitespace should be ignored when the URI is extracted", `<>`
/// "especially recommended as a delimiting style for a reference that
/// contains embedded whitespace"), as for a URI with a scheme: any run
/// inside `<…>`, one holding a line break inside `"…"` (README,
/// Delimiters). `None` when nothing is removed or the joined text is no
/// valid name: the bare reading stands.
fn joined_www(
    cfg: &Config,
    hay: &Hay<'_>,
    start: usize,
    floor: usize,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    let Some((closed, text)) = joined_inside(cfg, hay, start, floor)? else {
        return Ok(None);
    };
    match www_verdict(cfg, &text, text.len() > cfg.max_url) {
        Some(verdict @ Ok(_)) => {
            let span = Span { start, end: closed.url_end };
            let (text, kind, flags) =
                (Text::Joined(text), Kind::Www, closed.flags);
            Ok(Some((Raw { span, text, kind, flags, verdict }, closed.end)))
        }
        _ => Ok(None),
    }
}

/// The reading inside `<…>` or `"…"` of a name from `start`, right after
/// the opener: the delimiters' reading and its text with whitespace
/// removed (any run inside `<…>`, one holding a line break inside
/// `"…"`); `None` when no opener stands there, the delimiters do not
/// close, or nothing is removed.
fn joined_inside(
    cfg: &Config,
    hay: &Hay<'_>,
    start: usize,
    floor: usize,
) -> Result<Option<(delimited::Closed, Vec<u8>)>, Incomplete> {
    let open = match start.checked_sub(1).filter(|&o| o >= floor) {
        Some(o) => o,
        None => return Ok(None),
    };
    let (closer, join) = match hay.bytes[open] {
        b'<' => (b'>', delimited::Join::All),
        b'"' => (b'"', delimited::Join::Lines),
        _ => return Ok(None),
    };
    let read =
        delimited::read(hay, open, start, closer, join, cfg.max_wrapper)?;
    let Some(mut closed) = read else { return Ok(None) };
    Ok(closed.joined.take().map(|text| (closed, text)))
}

/// A domain name or network path `host` from `begin`, the bare reading
/// of which was found, right after a `<` or `"`: read inside the
/// delimiters as a `www.` name is ([`joined_www`], RFC 3986 Appendix
/// C). `None` when nothing is removed, or the joined text does not go on
/// from the same host with a port, path, query or fragment, or is no
/// valid URL: the bare reading stands.
fn joined_name(
    cfg: &Config,
    hay: &Hay<'_>,
    host: &[u8],
    begin: usize,
    floor: usize,
    kind: Kind,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    let Some((closed, text)) = joined_inside(cfg, hay, begin, floor)? else {
        return Ok(None);
    };
    let same_host = text.strip_prefix(host).is_some_and(|rest| {
        matches!(rest.first(), Some(b':' | b'/' | b'?' | b'#'))
    });
    if !same_host || text.len() > cfg.max_url {
        return Ok(None);
    }
    let prefix: &[u8] =
        if kind == Kind::NetworkPath { b"http:" } else { b"http://" };
    match implied(cfg, prefix, &text, Scheme::Http) {
        verdict @ Ok(_) => {
            let span = Span { start: begin, end: closed.url_end };
            let (text, flags) = (Text::Joined(text), closed.flags);
            Ok(Some((Raw { span, text, kind, flags, verdict }, closed.end)))
        }
        Err(_) => Ok(None),
    }
}

/// The verdict on the `www.` name `text`, `None` when it is left to the
/// address detector.
fn www_verdict(
    cfg: &Config,
    text: &[u8],
    too_long: bool,
) -> Option<Result<Verdict, parse::Reject>> {
    // `www.info@example.dk` is an address whose local part starts with
    // `www.`: read as a URL, `www.info` would be userinfo and the host
    // would not be the `www.` name (RFC 3986 §3.2.1). Left to the `@`.
    let authority_end = text
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(text.len());
    let authority = &text[..authority_end];
    if authority.contains(&b'@') {
        return None;
    }
    let host_end =
        authority.iter().position(|&b| b == b':').unwrap_or(authority_end);
    Some(if too_long {
        Err(parse::Reject::TooLong)
    } else if !tld_like(&text[..host_end])
        || !is_tld(top_label(&text[..host_end]))
    {
        Err(parse::Reject::BadLabel)
    } else {
        implied(cfg, b"http://", text, Scheme::Http)
    })
}

/// The verdict on `text` read as the URL `prefix` + `text` implies:
/// built on the stack when short (no allocation per find). Its host is
/// a range of `text`: the implied URL's host, or for an address
/// (`mailto:`) its domain.
pub(super) fn implied(
    cfg: &Config,
    prefix: &[u8],
    text: &[u8],
    scheme: Scheme,
) -> Result<Verdict, parse::Reject> {
    // Most finds are short: a small buffer to clear, the heap beyond.
    let mut buf = [0u8; 160];
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

mod email;
mod idn;
mod uuencode;

pub(crate) use email::{email, may_address};

#[cfg(test)]
mod tests;
