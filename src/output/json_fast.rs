//! The `match` record of `--json` written by hand, byte for byte what
//! serde's derive through [`super::escape::write_json`] writes (a test holds the
//! two to each other), in one pass over each string.
//!
//! Why: with message metadata a match record carries six or more
//! strings, and serde_json escapes each byte by byte before
//! [`super::escape::SafeFormatter`] looks at each fragment again for DEL, C1 and
//! bidi controls; callgrind on the first 8 MB of the spool put 65% of a
//! `--json` run in writing the records, 44% in `serialize_str`. Here a
//! byte that needs no escape costs one table look-up, and only the three
//! UTF-8 lead bytes an unsafe non-ASCII character can start with (`C2`,
//! `D8`, `E2`) make it decode a character.

use super::escape::is_unsafe;
use super::json::{HtmlRecord, MailRecord, FIELD_CAP};
use crate::container::{PartValue, RecordPart};

/// `PLAIN[b]`: byte `b` is copied as it is (printable ASCII but `"` and
/// `\`, and the bytes of non-ASCII characters but the three lead bytes
/// above).
const PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b < 256 {
        t[b] = !matches!(b, 0x22 | 0x5c | 0x7f | 0xc2 | 0xd8 | 0xe2);
        b += 1;
    }
    t
};

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends `s` as a JSON string: serde_json's escapes for `"`, `\` and
/// the C0 controls (`\b \t \n \f \r`, `\u00XX` for the others), and
/// `\uXXXX` for DEL, the C1 controls and the bidi controls, as
/// [`super::escape::SafeFormatter`] writes them.
pub(crate) fn string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    let mut from = 0;
    let mut i = 0;
    while i < bytes.len() {
        i = plain_ascii_end(bytes, i);
        let Some(&b) = bytes.get(i) else { break };
        if PLAIN[b as usize] {
            i += 1;
            continue;
        }
        let (len, esc): (usize, Option<u32>) = match b {
            b'"' | b'\\' | 0..=0x1f | 0x7f => (1, Some(u32::from(b))),
            _ => {
                // A lead byte: the character decides.
                let c = s.get(i..).and_then(|r| r.chars().next());
                match c {
                    Some(c) if is_unsafe(c) => {
                        (c.len_utf8(), Some(u32::from(c)))
                    }
                    Some(c) => (c.len_utf8(), None),
                    None => (1, None),
                }
            }
        };
        if let Some(code) = esc {
            out.extend_from_slice(&bytes[from..i]);
            match code {
                0x22 => out.extend_from_slice(b"\\\""),
                0x5c => out.extend_from_slice(b"\\\\"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x09 => out.extend_from_slice(b"\\t"),
                0x0a => out.extend_from_slice(b"\\n"),
                0x0c => out.extend_from_slice(b"\\f"),
                0x0d => out.extend_from_slice(b"\\r"),
                _ => {
                    out.extend_from_slice(b"\\u");
                    for shift in [12, 8, 4, 0] {
                        out.push(HEX[(code >> shift) as usize & 0xf]);
                    }
                }
            }
            from = i + len;
        }
        i += len;
    }
    out.extend_from_slice(&bytes[from..]);
    out.push(b'"');
}

/// Where the run of printable ASCII other than `"` and `\` that starts at
/// `i` ends, looked at eight bytes at a time (a URL or a path is mostly
/// such a run); it may stop early, never late.
fn plain_ascii_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = bytes.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else { break };
        if escapes(u64::from_le_bytes(word)) {
            break;
        }
        i += 8;
    }
    i
}

/// Bytes `0x01` in each lane of a word.
const LO: u64 = 0x0101_0101_0101_0101;
/// Bit 7 of each lane of a word.
const HI: u64 = 0x8080_8080_8080_8080;

/// Whether one of the eight bytes of `w` is not its own JSON text: below
/// 0x20, above 0x7e, `"` or `\` (the classic SWAR tests, each exact on
/// whether some byte matches: bit 7 of a lane set when it does).
#[inline(always)]
fn escapes(w: u64) -> bool {
    let below = w.wrapping_sub(LO * 0x20) & !w;
    let above = w.wrapping_add(LO) | w;
    let quote = (w ^ (LO * 0x22)).wrapping_sub(LO) & !(w ^ (LO * 0x22));
    let slash = (w ^ (LO * 0x5c)).wrapping_sub(LO) & !(w ^ (LO * 0x5c));
    (below | above | quote | slash) & HI != 0
}

/// `"00"` to `"99"`, two bytes each.
const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// Appends `n` in decimal: two digits a division (a digit a division
/// cost ~100 instructions an offset of the spool).
/// A number under 10 (a column, a part, a line near the top, the first
/// message) is one byte pushed, not a copy of a slice of unknown length
/// (a `memcpy` call: ~20 instructions each, five numbers a record of
/// dense URLs, issue 33).
pub(crate) fn number(out: &mut Vec<u8>, n: u64) {
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    out.extend_from_slice(decimal(n, &mut [0u8; 20]));
}

/// `n` in decimal, written at the end of `digits` (for writers that do
/// not write to a `Vec`: `-n` and `-b` prefixes, where `write!` and
/// `core::fmt` cost 220 instructions a line).
pub(crate) fn decimal(mut n: u64, digits: &mut [u8; 20]) -> &[u8] {
    let mut k = digits.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        k -= 2;
        digits[k..k + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        k -= 2;
        digits[k..k + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        k -= 1;
        digits[k] = b'0' + n as u8;
    }
    &digits[k..]
}

/// Appends `name`, a name of this crate's own (a kind, a location, an
/// encoding, a flag: lower-case ASCII, digits and `-`, nothing to
/// escape), as a JSON string.
pub(crate) fn name(out: &mut Vec<u8>, name: &str) {
    debug_assert!(name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
    out.push(b'"');
    out.extend_from_slice(name.as_bytes());
    out.push(b'"');
}

/// The start of a match record's own fields, built on the stack and
/// appended with one copy: `,"offset":…,"line":…,"column":…,"kind":…,"url":`
/// (three keys, three numbers and a kind appended one by one were ~250
/// instructions a record of dense URLs, issue 33: a capacity check a
/// piece and a `memcpy` call a number).
#[derive(Debug)]
struct Short {
    b: [u8; Short::CAP],
    n: usize,
}

impl Short {
    /// Room for the longest: the keys (`,"offset":`, `,"line":`,
    /// `,"column":` and `,"kind":"network-path","url":`: 57 bytes) and
    /// three numbers of 20 digits.
    const CAP: usize = 128;

    /// Appends `s` (its length known where it is called: no `memcpy`
    /// call).
    #[inline(always)]
    fn lit<const N: usize>(&mut self, s: &[u8; N]) {
        if let Some(d) = self.b.get_mut(self.n..self.n + N) {
            d.copy_from_slice(s);
            self.n += N;
        }
    }

    /// Appends `n` in decimal: under 10^8 (nearly every offset, line
    /// and column) its eight digits made at once in a word
    /// ([`eight_digits`]) and written whole, the leading zeros passed
    /// over.
    #[inline(always)]
    fn num(&mut self, n: u64) {
        let Ok(small) = u32::try_from(n) else {
            return self.long(n);
        };
        if small >= 100_000_000 {
            return self.long(n);
        }
        let (word, len) = eight_digits(small);
        if let Some(d) = self.b.get_mut(self.n..self.n + 8) {
            d.copy_from_slice(&word.to_le_bytes());
            self.n += len;
        }
    }

    /// Appends `,"kind":"kind","url":`.
    #[inline(always)]
    fn kind(&mut self, kind: crate::scan::Kind) {
        use crate::scan::Kind;
        match kind {
            Kind::Wrapped => self.lit(b",\"kind\":\"wrapped\",\"url\":"),
            Kind::Angle => self.lit(b",\"kind\":\"angle\",\"url\":"),
            Kind::Quoted => self.lit(b",\"kind\":\"quoted\",\"url\":"),
            Kind::Bare => self.lit(b",\"kind\":\"bare\",\"url\":"),
            Kind::Email => self.lit(b",\"kind\":\"email\",\"url\":"),
            Kind::Www => self.lit(b",\"kind\":\"www\",\"url\":"),
            Kind::Domain => self.lit(b",\"kind\":\"domain\",\"url\":"),
            Kind::NetworkPath => {
                self.lit(b",\"kind\":\"network-path\",\"url\":");
            }
            Kind::Resolved => self.lit(b",\"kind\":\"resolved\",\"url\":"),
        }
    }

    /// Appends `n` (10^8 or more) in decimal, a byte at a time.
    #[inline(never)]
    fn long(&mut self, n: u64) {
        for &digit in decimal(n, &mut [0u8; 20]) {
            if let Some(d) = self.b.get_mut(self.n) {
                *d = digit;
                self.n += 1;
            }
        }
    }
}

/// `n` (under 10^8) as eight ASCII digits with its leading zeros, the
/// first in the lowest byte, shifted so that its own digits come first,
/// and how many those are. Lanes of a word divided at once: by 10^4
/// (two lanes of 32 bits), by 100 (`* 10486 >> 20`, exact below 43,699)
/// in each, by 10 (`* 103 >> 10`, exact below 179) in each of the four
/// of 16 bits; no lane's product reaches the next.
fn eight_digits(n: u32) -> (u64, usize) {
    let (hi, lo) = (n / 10_000, n % 10_000);
    let x = u64::from(hi) | (u64::from(lo) << 32);
    let hundreds = ((x * 10_486) >> 20) & 0x0000_007f_0000_007f;
    let x = ((x - hundreds * 100) << 16) | hundreds;
    let tens = ((x * 103) >> 10) & 0x000f_000f_000f_000f;
    let x = ((x - tens * 10) << 8) | tens;
    // The leading zeros are the low bytes that are 0 (all but the last
    // when `n` is 0).
    let zeros = (x.trailing_zeros() / 8).min(7) as usize;
    let digits = (x >> (zeros * 8)) | 0x3030_3030_3030_3030;
    (digits, 8 - zeros)
}

/// The middle of a match record's position, `,"line":N,"column":`, kept
/// with its line ([`position_on_line`]): the records of a line of many
/// URLs (issue 33's text) copy it, its number not made again for each
/// (35 instructions).
#[derive(Debug)]
pub(crate) struct LineKeys {
    /// The last record's line, and the length of its bytes (0: not kept,
    /// until the line's second record).
    line: u64,
    n: usize,
    b: [u8; LineKeys::CAP],
}

impl Default for LineKeys {
    fn default() -> LineKeys {
        LineKeys { line: 0, n: 0, b: [0; LineKeys::CAP] }
    }
}

impl LineKeys {
    /// `,"line":` (8 bytes), 20 digits at most and `,"column":` (10).
    const CAP: usize = 40;
}

/// Appends `,"offset":start,"line":line,"column":column,"kind":"kind","url":`
/// (the fields of a match record between its input's and its URL).
pub(crate) fn position(
    out: &mut Vec<u8>,
    start: u64,
    line: u64,
    column: u64,
    kind: crate::scan::Kind,
) {
    let mut s = Short { b: [0; Short::CAP], n: 0 };
    s.lit(b",\"offset\":");
    s.num(start);
    s.lit(b",\"line\":");
    s.num(line);
    s.lit(b",\"column\":");
    s.num(column);
    s.kind(kind);
    out.extend_from_slice(s.b.get(..s.n).unwrap_or_default());
}

impl LineKeys {
    /// Whether `line` is the last record's line: then
    /// [`position_on_line`] writes its record's position, else
    /// [`position`] and [`LineKeys::note`] (a new line at each URL is
    /// mail's case: nothing kept for it).
    #[inline(always)]
    pub(crate) fn is(&self, line: u64) -> bool {
        self.line == line
    }

    /// A record of `line` was written with [`position`].
    #[inline(always)]
    pub(crate) fn note(&mut self, line: u64) {
        (self.line, self.n) = (line, 0);
    }
}

/// [`position`] for a record on the last record's line (issue 33's text:
/// many URLs on a line): its keys and number made at the line's second
/// record and kept in `keys`, copied whole for the next ones (their
/// length known: no `memcpy` call).
pub(crate) fn position_on_line(
    out: &mut Vec<u8>,
    keys: &mut LineKeys,
    start: u64,
    column: u64,
    kind: crate::scan::Kind,
) {
    let mut s = Short { b: [0; Short::CAP], n: 0 };
    s.lit(b",\"offset\":");
    s.num(start);
    let n = s.n;
    if keys.n == 0 {
        s.lit(b",\"line\":");
        s.num(keys.line);
        s.lit(b",\"column\":");
        if let Some(made) = s.b.get(n..n + LineKeys::CAP) {
            keys.b.copy_from_slice(made);
            keys.n = s.n - n;
        }
    } else if let Some(d) = s.b.get_mut(n..n + LineKeys::CAP) {
        d.copy_from_slice(&keys.b);
        s.n = n + keys.n;
    }
    s.num(column);
    s.kind(kind);
    out.extend_from_slice(s.b.get(..s.n).unwrap_or_default());
}

/// Whether `h` is all printable ASCII with no `"`, `\` or upper-case
/// letter: copied as it is, it is its own JSON string, lower-cased.
/// Eight bytes at a time (the SWAR tests of [`escapes`], and
/// `A`–`Z` found among bytes below 0x80 by two additions that carry
/// into bit 7 of no other byte).
fn plain_lower(h: &[u8]) -> bool {
    let mut words = h.chunks_exact(8);
    for chunk in &mut words {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else { return false };
        let w = u64::from_le_bytes(word);
        if escapes(w) {
            return false;
        }
        // Every byte is below 0x7f here: `+ 0x3f` sets bit 7 of those
        // from `A` up, `+ 0x25` of those from `[` up, neither carries.
        let from_a = w.wrapping_add(LO * (0x80 - 0x41));
        let past_z = w.wrapping_add(LO * (0x80 - 0x5b));
        if from_a & !past_z & HI != 0 {
            return false;
        }
    }
    words.remainder().iter().all(|&b| {
        matches!(b, 0x20..=0x7e)
            && !matches!(b, b'"' | b'\\')
            && !b.is_ascii_uppercase()
    })
}

/// Appends the host of a match as [`super::url::host_ref`] gives it, or
/// `null`: a host of printable ASCII (nearly every one: the parsed one,
/// or a `mailto:` address's domain read by shape) is copied and
/// lower-cased in place, with no `String` made and no Unicode case
/// mapping.
pub(crate) fn host(out: &mut Vec<u8>, url: &[u8], parsed: Option<&[u8]>) {
    let raw = match parsed.filter(|h| !h.is_empty()) {
        Some(h) => Some(h),
        None => crate::parse::host_by_shape(url),
    };
    let Some(h) = raw else {
        out.extend_from_slice(b"null");
        return;
    };
    if plain_lower(h) {
        out.push(b'"');
        out.extend_from_slice(h);
        out.push(b'"');
        return;
    }
    let end = plain_ascii_end(h, 0);
    let rest = h.get(end..).unwrap_or_default();
    let plain =
        |b: &u8| matches!(b, 0x20..=0x7e) && !matches!(b, b'"' | b'\\');
    if rest.iter().all(plain) {
        out.push(b'"');
        let from = out.len();
        out.extend_from_slice(h);
        if let Some(copy) = out.get_mut(from..) {
            copy.make_ascii_lowercase();
        }
        out.push(b'"');
        return;
    }
    opt_string(out, super::url::host_ref(url, parsed).as_deref());
}

/// Appends a URL's scheme name as a JSON string: the common ones
/// whole (escaping `http` byte by byte was 140 instructions a record),
/// any other by [`string`].
pub(crate) fn scheme(out: &mut Vec<u8>, s: &str) {
    match s {
        "http" => out.extend_from_slice(b"\"http\""),
        "https" => out.extend_from_slice(b"\"https\""),
        "mailto" => out.extend_from_slice(b"\"mailto\""),
        _ => string(out, s),
    }
}

/// Appends `,"scheme":` and the scheme, then `,"host":`: one copy for
/// the common schemes.
pub(crate) fn scheme_and_host_key(out: &mut Vec<u8>, s: &str) {
    match s {
        "http" => out.extend_from_slice(b",\"scheme\":\"http\",\"host\":"),
        "https" => out.extend_from_slice(b",\"scheme\":\"https\",\"host\":"),
        _ => {
            key(out, b",\"scheme\":");
            scheme(out, s);
            key(out, b",\"host\":");
        }
    }
}

/// A key after the first, written whole: `key(out, b",\"name\":")` (one
/// copy, where four small ones cost 60 instructions a key).
pub(crate) fn key(out: &mut Vec<u8>, comma_name_colon: &[u8]) {
    out.extend_from_slice(comma_name_colon);
}

pub(crate) fn opt_string(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

pub(crate) fn boolean(out: &mut Vec<u8>, yes: bool) {
    out.extend_from_slice(if yes { b"true" } else { b"false" });
}

/// Appends the JSON string of [`super::escape::json_text`]`(bytes)`
/// and returns whether it percent-encoded (the `escaped` flag): a run
/// of printable ASCII with nothing to escape (nearly every URL) is
/// copied as it is, with no UTF-8 check and no second look.
pub(crate) fn text(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
    let end = plain_ascii_end(bytes, 0);
    let rest = bytes.get(end..).unwrap_or_default();
    if rest
        .iter()
        .all(|&b| matches!(b, 0x20..=0x7e) && b != b'"' && b != b'\\')
    {
        out.push(b'"');
        out.extend_from_slice(bytes);
        out.push(b'"');
        return false;
    }
    let (text, escaped) = super::escape::json_text(bytes);
    string(out, &text);
    escaped
}

/// Appends the start of a match record: its type and the input's name
/// (the same for every match of an input).
pub(crate) fn match_head(
    out: &mut Vec<u8>,
    path: Option<&str>,
    source: Option<&str>,
    path_escaped: bool,
) {
    out.extend_from_slice(b"{\"type\":\"match\"");
    if let Some(p) = path {
        key(out, b",\"path\":");
        string(out, p);
    }
    if let Some(s) = source {
        key(out, b",\"source\":");
        string(out, s);
    }
    if path_escaped {
        key(out, b",\"path_escaped\":");
        boolean(out, true);
    }
}

/// Appends the fields of `m` that come from its message's metadata
/// (`from`, `subject`, `date`, `date_utc`, `headers`: the same for every
/// match of a message), each only when it is set.
pub(crate) fn mail_meta(out: &mut Vec<u8>, m: &MailRecord<'_>) {
    if let Some(f) = &m.from {
        key(out, b",\"from\":");
        out.extend_from_slice(b"{\"address\":");
        opt_string(out, f.address.as_deref());
        key(out, b",\"name\":");
        opt_string(out, f.name.as_deref());
        if f.truncated {
            key(out, b",\"truncated\":true");
        }
        out.push(b'}');
    }
    let fields: [(&[u8], _, bool, &[u8]); 3] = [
        (
            b",\"subject\":",
            &m.subject,
            m.subject_truncated,
            b",\"subject_truncated\":true",
        ),
        (
            b",\"date\":",
            &m.date,
            m.date_truncated,
            b",\"date_truncated\":true",
        ),
        (b",\"date_utc\":", &m.date_utc, false, b""),
    ];
    for (name, value, truncated, flag) in fields {
        if let Some(v) = value {
            key(out, name);
            string(out, v);
        }
        if truncated {
            key(out, flag);
        }
    }
    if let Some(headers) = &m.headers {
        key(out, b",\"headers\":");
        out.push(b'{');
        for (k, (name, values)) in headers.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            string(out, name);
            out.extend_from_slice(b":[");
            for (j, v) in values.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                string(out, v);
            }
            out.push(b']');
        }
        out.push(b'}');
    }
    if m.headers_truncated {
        key(out, b",\"headers_truncated\":true");
    }
}

/// `s` cut to [`FIELD_CAP`] characters, and whether it was cut.
pub(crate) fn cap_str(s: &str) -> (&str, bool) {
    // At most FIELD_CAP bytes: at most as many characters.
    if s.len() <= FIELD_CAP {
        return (s, false);
    }
    match s.char_indices().nth(FIELD_CAP) {
        Some((end, _)) => (s.get(..end).unwrap_or(s), true),
        None => (s, false),
    }
}

/// `b` cut to [`FIELD_CAP`] characters, each byte that is not UTF-8
/// counted as one (a Message-ID as written), and whether it was cut.
pub(crate) fn cap_bytes(b: &[u8]) -> (&[u8], bool) {
    if b.len() <= FIELD_CAP {
        return (b, false);
    }
    let (mut n, mut end) = (0, 0);
    for chunk in b.utf8_chunks() {
        let lens = chunk.valid().chars().map(char::len_utf8);
        for len in lens.chain(chunk.invalid().iter().map(|_| 1)) {
            if n == FIELD_CAP {
                return (b.get(..end).unwrap_or(b), true);
            }
            n += 1;
            end += len;
        }
    }
    (b, false)
}

pub(crate) fn html(out: &mut Vec<u8>, h: &HtmlRecord<'_>) {
    out.extend_from_slice(b"{\"in\":");
    string(out, &h.place);
    for (name, value) in [
        (&b",\"element\":"[..], &h.element),
        (b",\"attribute\":", &h.attribute),
        (b",\"link_text\":", &h.link_text),
    ] {
        if let Some(v) = value {
            key(out, name);
            string(out, v);
        }
    }
    out.push(b'}');
}

/// Appends the `record` object of a match in a record of `part`, the
/// record `index` at `offset`: those two, then the part's own fields
/// ([`RecordPart::fields`]), as serde writes [`super::json::PartRecord`].
pub(crate) fn part(
    out: &mut Vec<u8>,
    index: u64,
    offset: u64,
    part: &dyn RecordPart,
) {
    out.extend_from_slice(b"{\"index\":");
    number(out, index);
    key(out, b",\"offset\":");
    number(out, offset);
    part.fields(&mut |name, value| {
        out.push(b',');
        string(out, name);
        out.push(b':');
        match value {
            PartValue::Null => out.extend_from_slice(b"null"),
            PartValue::U64(n) => number(out, n),
            PartValue::Str(s) => string(out, s),
        }
    });
    out.push(b'}');
}

#[cfg(test)]
mod tests;
