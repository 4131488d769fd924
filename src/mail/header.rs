//! Header blocks (RFC 5322 §2.2, §3.6) and the MIME fields that steer
//! decoding (RFC 2045 §5, §6; RFC 2046 §5.1.1; RFC 3676 §4).

use crate::scan::Span;
use cursor::Cursor;
use memchr::memchr;

mod cursor;

/// Splits an entity (a message or a body part) into its header block and
/// body: the header ends at the first empty line, which is skipped, or at
/// the first line that is neither a field nor a continuation (the body
/// then starts with that line, as mail readers do). Leading mbox envelope
/// lines (`From ` and `>From `) belong to no field and are skipped when
/// `envelope` is set (a whole message, not a body part).
///
/// Returns the header span and the body span, relative to `entity`.
pub(crate) fn split(entity: &[u8], envelope: bool) -> (Span, Span) {
    walk(entity, envelope, &mut ())
}

/// [`split`], and the fields of the header block (what [`fields`] would
/// give for it, relative to the block) pushed onto `out` in the same pass
/// over the lines: the walk that finds where the header ends already
/// finds every field name and its colon.
pub(crate) fn split_fields(
    entity: &[u8],
    envelope: bool,
    out: Option<&mut Vec<Field>>,
) -> (Span, Span) {
    match out {
        Some(out) => walk(entity, envelope, out),
        None => walk(entity, envelope, &mut ()),
    }
}

/// The first fields of the header of `entity` (as [`split_fields`]
/// records them), as many as `out` holds, written to its start; the walk
/// stops at the line that starts the next field. Returns the span of the
/// block those fields stand in (the start of the header block up to where
/// the walk stopped; the fields' spans are relative to its start) and how
/// many fields were found. Mail sniffing looks at two fields, and a walk
/// of the whole header cost a tenth of the search of a short news
/// article; the fields go to an array, as allocating a vector for them
/// cost a quarter of the sniff.
pub(crate) fn first_fields(
    entity: &[u8],
    envelope: bool,
    out: &mut [Field],
) -> (Span, usize) {
    let mut slots = Slots { buf: out, len: 0 };
    let (block, _) = walk(entity, envelope, &mut slots);
    (block, slots.len)
}

/// Where a walk records the fields it finds.
trait Record {
    /// No room for another field: the walk stops at the line that would
    /// start it. A constant `false` but for [`Slots`], so that the
    /// walks of whole headers test nothing (a count kept across the
    /// loop cost a slot on the stack and four instructions a line).
    fn full(&self) -> bool {
        false
    }
    /// Records `field`, its value's end still unset.
    fn record(&mut self, field: Field);
    /// Sets the value end of the field recorded last to `end`, or to
    /// its value's start when that is later.
    fn end_last(&mut self, end: usize);
}

/// Records nothing: a header's end is all that is asked.
impl Record for () {
    fn record(&mut self, _: Field) {}
    fn end_last(&mut self, _: usize) {}
}

impl Record for Vec<Field> {
    fn record(&mut self, field: Field) {
        self.push(field);
    }
    fn end_last(&mut self, end: usize) {
        if let Some(f) = self.last_mut() {
            f.value.end = end.max(f.value.start);
        }
    }
}

/// The first `buf.len()` fields, then no more.
struct Slots<'a> {
    buf: &'a mut [Field],
    /// `buf[..len]` are recorded.
    len: usize,
}

impl Record for Slots<'_> {
    fn full(&self) -> bool {
        self.len >= self.buf.len()
    }
    fn record(&mut self, field: Field) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = field;
            self.len += 1;
        }
    }
    fn end_last(&mut self, end: usize) {
        let last = self.len.checked_sub(1).and_then(|k| self.buf.get_mut(k));
        if let Some(f) = last {
            f.value.end = end.max(f.value.start);
        }
    }
}

/// [`split_fields`], stopping at the line that would start a field when
/// `out` is [`Record::full`] (that line then ends the header span).
fn walk(entity: &[u8], envelope: bool, out: &mut impl Record) -> (Span, Span) {
    let mut pos = 0;
    while envelope
        && (entity[pos..].starts_with(b"From ")
            || entity[pos..].starts_with(b">From "))
    {
        pos = next_line(entity, pos);
    }
    let start = pos;
    let mut lines = Cursor::new(entity, start);
    let mut seen_field = false;
    let mut end = entity.len();
    let mut body = entity.len();
    // Each line is told by its first byte: an empty line ends the header,
    // a blank continues the field before it, anything else must start a
    // field (`Name:`), or the header ends there. Tested in the order of
    // how often they come (a field, a fold, the end): a `match` on the
    // byte was a jump table, an indirect branch a line that the CPU
    // guessed worse.
    while let Some(&lead) = entity.get(pos) {
        if lead > b' ' {
            let name = lines.name_len(pos);
            let Some(colon) = colon_at(&entity[pos..], name) else {
                (end, body) = (pos, pos);
                break;
            };
            if out.full() {
                (end, body) = (pos, pos);
                break;
            }
            let at = pos - start;
            // The field before runs up to this line, without the line
            // break that ends it (`\n`, or `\r\n`: the line before
            // starts at `start` or later).
            if seen_field {
                let cr = pos - 1 > start && entity[pos - 2] == b'\r';
                out.end_last(at - 1 - usize::from(cr));
            }
            out.record(Field {
                name: Span { start: at, end: at + name },
                // The end is set when the field's last line is known.
                value: Span { start: at + colon + 1, end: 0 },
            });
        } else if (lead == b' ' || lead == b'\t') && seen_field {
            // A fold: the field before it goes on.
        } else {
            // An empty line ends the header and is skipped; any other
            // control byte or blank (no field before it) starts no
            // field, and the body starts with its line.
            body = match (lead, entity.get(pos + 1)) {
                (b'\n', _) => pos + 1,
                (b'\r', Some(b'\n')) => pos + 2,
                _ => pos,
            };
            end = pos;
            break;
        }
        seen_field = true;
        pos = lines.next_line();
    }
    if pos >= entity.len() {
        end = entity.len();
        body = entity.len();
    }
    // The last field runs to the block's end, without its final line
    // break (the others to the line of the next, set as it was found).
    if seen_field {
        out.end_last(value_end(&entity[start..end], end - start));
    }
    (Span { start, end }, Span { start: body, end: entity.len() })
}

/// The end of a field's value that runs up to `end` of `block`: without
/// its final line break (`\n` or `\r\n`).
fn value_end(block: &[u8], end: usize) -> usize {
    let mut end = end;
    if block[..end].ends_with(b"\n") {
        end -= 1;
    }
    if block[..end].ends_with(b"\r") {
        end -= 1;
    }
    end
}

/// Where the line after the one at `pos` starts (the end of `s` when it
/// is the last).
pub(crate) fn next_line(s: &[u8], pos: usize) -> usize {
    line_break(&s[pos..]).map_or(s.len(), |k| pos + k + 1)
}

/// The first `\n` of `s` ([`find_byte`]).
#[inline]
fn line_break(s: &[u8]) -> Option<usize> {
    find_byte(b'\n', s)
}

/// The first `b` of `s`, for searches as short as a header's lines (54
/// bytes on average in the spool) or a quoted-printable line's: memchr's
/// SSE2 searcher, called directly. The crate's `memchr` picks AVX2
/// through a function pointer on every call, and that call was 70
/// instructions a header line (callgrind on the spool: 60.8 M of the
/// walk's 132.3 M), more than the search itself.
#[inline]
pub(super) fn find_byte(b: u8, s: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(one) = memchr::arch::x86_64::sse2::memchr::One::new(b) {
        return one.find(s);
    }
    memchr(b, s)
}

/// Whether `line` starts a header field (`Name:`; see [`field_start`]),
/// and the index of its colon.
pub(crate) fn field_colon(line: &[u8]) -> Option<usize> {
    field_start(line).map(|(_, colon)| colon)
}

/// RFC 5322 §3.6.8: `field-name = 1*ftext` (printable ASCII but `:`),
/// then `:`; blanks before the colon are the obsolete syntax of §4.5.
/// The name's length and the colon's index in `line`.
fn field_start(line: &[u8]) -> Option<(usize, usize)> {
    let name = name_len(line);
    colon_at(line, name).map(|colon| (name, colon))
}

/// [`field_start`] given the name's length `name` (the run of `ftext`
/// that starts `line`): the index of the colon.
#[inline]
fn colon_at(line: &[u8], name: usize) -> Option<usize> {
    if name == 0 {
        return None;
    }
    match line.get(name)? {
        b':' => Some(name),
        b' ' | b'\t' => {
            let rest = &line[name..];
            let blanks = rest.iter().position(|&b| b != b' ' && b != b'\t');
            let colon = name + blanks?;
            (line[colon] == b':').then_some(colon)
        }
        _ => None,
    }
}

/// The length of the run of `ftext` that starts `line`: eight bytes at a
/// time while eight are left (most names end in the first or the second
/// word), then by the table.
fn name_len(line: &[u8]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut at = 0;
    while let Some(word) = line.get(at..at + 8) {
        let Ok(word) = <[u8; 8]>::try_from(word) else { break };
        let x = u64::from_le_bytes(word);
        // The high bit of each byte that is below 33, at or above 127,
        // or a colon. A borrow or a carry between bytes only starts at a
        // byte that is itself flagged, and only changes the bytes above
        // it: the lowest flag is exact.
        let below = x.wrapping_sub(ONES * 33) & !x;
        let above = x.wrapping_add(ONES) | x;
        let colon = x ^ (ONES * u64::from(b':'));
        let colon = colon.wrapping_sub(ONES) & !colon;
        let bad = (below | above | colon) & HIGH;
        if bad != 0 {
            return at + (bad.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    let rest = line.get(at..).unwrap_or_default();
    at + rest.iter().position(|&b| !FTEXT[b as usize]).unwrap_or(rest.len())
}

/// RFC 5322 §3.6.8: `ftext = %d33-57 / %d59-126`, printable ASCII but
/// `:`.
static FTEXT: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 33;
    while b <= 126 {
        t[b] = b != b':' as usize;
        b += 1;
    }
    t
};

/// A header field: its name and its raw body (after the colon, folds and
/// the final line break not removed), both relative to the header block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Field {
    pub name: Span,
    pub value: Span,
}

/// The fields of a header block as [`split`] found it.
pub(crate) fn fields(block: &[u8]) -> Fields<'_> {
    Fields { block, pos: 0 }
}

/// Iterator over the fields of a header block.
pub(crate) struct Fields<'a> {
    block: &'a [u8],
    pos: usize,
}

impl Iterator for Fields<'_> {
    type Item = Field;

    fn next(&mut self) -> Option<Field> {
        let block = self.block;
        loop {
            if self.pos >= block.len() {
                return None;
            }
            let start = self.pos;
            let first = next_line(block, start);
            let mut end = first;
            while matches!(block.get(end), Some(b' ' | b'\t')) {
                end = next_line(block, end);
            }
            self.pos = end;
            // The name ends at the first colon of the first line (a name
            // never spans a line break); names are short, so a plain loop
            // finds it sooner than a vector search would start.
            let first_line = &block[start..first];
            let Some(colon) = first_line.iter().position(|&b| b == b':')
            else {
                continue;
            };
            let name = first_line[..colon].trim_ascii_end();
            if name.is_empty() {
                continue;
            }
            let value = start + colon + 1;
            return Some(Field {
                name: Span { start, end: start + name.len() },
                value: Span {
                    start: value,
                    end: value_end(block, end).max(value),
                },
            });
        }
    }
}

/// What the MIME fields of an entity say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Mime<'a> {
    /// `type/subtype`, as written (compare ignoring case); empty when
    /// the field is missing.
    pub content_type: &'a [u8],
    pub boundary: Option<&'a [u8]>,
    pub flowed: bool,
    pub delsp: bool,
    pub encoding: TransferEncoding,
}

/// `Content-Transfer-Encoding` (RFC 2045 §6.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum TransferEncoding {
    /// `7bit`, `8bit`, `binary`, missing or unknown: the bytes as they are.
    #[default]
    Identity,
    QuotedPrintable,
    Base64,
}

impl TransferEncoding {
    /// The encoding a match found in such a part reports.
    pub(crate) fn encoding(self) -> super::Encoding {
        match self {
            TransferEncoding::Identity => super::Encoding::Identity,
            TransferEncoding::QuotedPrintable => {
                super::Encoding::QuotedPrintable
            }
            TransferEncoding::Base64 => super::Encoding::Base64,
        }
    }
}

impl<'a> Mime<'a> {
    /// Reads `Content-Type` and `Content-Transfer-Encoding` from a header
    /// block.
    #[cfg(test)]
    pub fn parse(block: &'a [u8]) -> Mime<'a> {
        let mut mime = Mime::default();
        for f in fields(block) {
            let name = &block[f.name.start..f.name.end];
            mime.field(name, &block[f.value.start..f.value.end]);
        }
        mime
    }

    /// Reads one field, if it is `Content-Type` or
    /// `Content-Transfer-Encoding`.
    #[inline]
    pub fn field(&mut self, name: &[u8], value: &'a [u8]) {
        // Most fields are neither: their length tells, in a call small
        // enough to be inlined into the loop over a header's fields.
        match name.len() {
            12 if eq_lower(name, b"content-type") => self.content_type(value),
            25 if eq_lower(name, b"content-transfer-encoding") => {
                self.transfer_encoding(value);
            }
            _ => {}
        }
    }

    /// RFC 2045 §6.1: `mechanism`, ignoring case.
    fn transfer_encoding(&mut self, value: &[u8]) {
        let v = value.trim_ascii();
        self.encoding = if v.eq_ignore_ascii_case(b"quoted-printable") {
            TransferEncoding::QuotedPrintable
        } else if v.eq_ignore_ascii_case(b"base64") {
            TransferEncoding::Base64
        } else {
            TransferEncoding::Identity
        };
    }

    /// RFC 2045 §5.1: `type "/" subtype *(";" parameter)`.
    fn content_type(&mut self, value: &'a [u8]) {
        let mut parts = Params { s: value };
        let Some(ty) = parts.next() else { return };
        self.content_type = ty.0.trim_ascii();
        for (name, val) in parts {
            let name = name.trim_ascii();
            if name.eq_ignore_ascii_case(b"boundary") && !val.is_empty() {
                self.boundary = Some(val);
            } else if name.eq_ignore_ascii_case(b"format") {
                self.flowed = val.eq_ignore_ascii_case(b"flowed");
            } else if name.eq_ignore_ascii_case(b"delsp") {
                self.delsp = val.eq_ignore_ascii_case(b"yes");
            }
        }
    }

    /// The media type, lower-cased into `buf`, `text/plain` when missing
    /// (RFC 2045 §5.2).
    pub fn is(&self, ty: &[u8]) -> bool {
        let ct = if self.content_type.is_empty() {
            &b"text/plain"[..]
        } else {
            self.content_type
        };
        if let Some(prefix) = ty.strip_suffix(b"/") {
            ct.len() > prefix.len()
                && ct[..prefix.len()].eq_ignore_ascii_case(prefix)
                && ct[prefix.len()] == b'/'
        } else {
            ct.eq_ignore_ascii_case(ty)
        }
    }
}

/// The `;`-separated items of a `Content-Type` value: the first is the
/// type (name only), the rest `name=value` with quotes removed.
struct Params<'a> {
    s: &'a [u8],
}

impl<'a> Iterator for Params<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<(&'a [u8], &'a [u8])> {
        let s = self.s.trim_ascii_start();
        if s.is_empty() {
            return None;
        }
        let eq = find_either(b'=', b';', s);
        let Some(i) = eq.filter(|&i| s[i] == b'=') else {
            let end = eq.unwrap_or(s.len());
            self.s = s.get(end + 1..).unwrap_or(&[]);
            return Some((&s[..end], &[]));
        };
        let name = &s[..i];
        let rest = s[i + 1..].trim_ascii_start();
        if let Some(quoted) = rest.strip_prefix(b"\"") {
            let close = find(b'"', quoted).unwrap_or(quoted.len());
            let after = quoted.get(close + 1..).unwrap_or(&[]);
            let next = find(b';', after).map_or(&[][..], |k| &after[k + 1..]);
            self.s = next;
            return Some((name, &quoted[..close]));
        }
        let end = find(b';', rest).unwrap_or(rest.len());
        self.s = rest.get(end + 1..).unwrap_or(&[]);
        Some((name, rest[..end].trim_ascii()))
    }
}

/// The first `b` of `s`, a `Content-Type` value's piece: such values are
/// short (a parameter or two), and a plain loop is done before the
/// crate's `memchr` has picked its searcher through a function pointer
/// (callgrind on the spool: the parameter reading went from 7.0 M to
/// 6.1 M instructions); memchr's SSE2 searcher called directly
/// ([`find_byte`]) is done sooner still, 16 bytes a step.
fn find(b: u8, s: &[u8]) -> Option<usize> {
    find_byte(b, s)
}

/// The first `a` or `b` of `s` (a `Content-Type` value's piece, see
/// [`find`]): memchr's two-byte SSE2 searcher, called directly. A loop
/// over the bytes cost 103 instructions a parameter and 172 for the
/// media type (callgrind, SpamAssassin folder).
fn find_either(a: u8, b: u8, s: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(two) = memchr::arch::x86_64::sse2::memchr::Two::new(a, b) {
        return two.find(s);
    }
    s.iter().position(|&c| c == a || c == b)
}

/// Fields that are not scanned for URLs:
///
/// - message identifiers (RFC 5322 §3.6.4, RFC 2045 §7, RFC 5536
///   §3.2.12): their `<…>` look like URLs to a scanner but name messages;
/// - trace fields (RFC 5322 §3.6.7 `Return-Path` and `Received`, RFC
///   5321 §4.4) and the date: hosts, addresses and times, whose colons
///   are most of a header's scanner triggers (on the SpamAssassin and
///   blinux-list corpora, 2 URL-like strings in 12,065 messages'
///   `Received` fields, in comments); with them the fields that record
///   a delivery's envelope as a trace does: `Delivered-To` (RFC 9228),
///   the envelope recipients MTAs write (`X-Original-To`, `Envelope-To`,
///   `X-Envelope-To`), the bounce address `Errors-To`, and the loop
///   marks of list managers and filters (`X-BeenThere`, `X-Loop`), which
///   RFC 9228 gives `Delivered-To`'s job of loop detection. Their
///   addresses are the envelope's, not text a writer put there: on the
///   spool they were 8,125 of the 18,932 `--find email` finds of an
///   8 MB sample, the same few list addresses on every message;
/// - signatures (DKIM RFC 6376, ARC RFC 8617, RFC 8601 results): base64
///   and tag lists of field names, never URLs;
/// - the news fields that name groups and servers (RFC 5536): `Path`
///   (§3.1.5, the trace of the servers an article passed, `!`-separated
///   path identities, news's `Received`), `Newsgroups` and `Followup-To`
///   (§3.1.4, §3.2.6: newsgroup names, `component *("." component)`,
///   with no `:` or `/`), `Xref` (§3.2.14: a server's name and
///   `newsgroup-name ":" article-locator`). None can hold a URL; the
///   name scanners read group names as host names (`sci.space` ends in
///   the `space` top-level domain) and `sci.space:59848` as one with a
///   port: 2,918 of the 3,876 `--find domain` finds of mini_newsgroups,
///   none in the mail corpora.
#[inline]
pub(crate) fn is_skipped_field(name: &[u8]) -> bool {
    // One candidate per name, found by a hash of its length and its
    // first and third bytes, so that a name is compared once and never
    // copied: most fields of spam are `Received`, most of news `Path`
    // (both skipped), `From` and `Subject` (whose slots hold a name of
    // another length, or none, which ends the compare at once). The hash
    // and the compare
    // were 23 instructions a field on the spool, the `match` on length
    // and first letter before them 39 (callgrind).
    let Some(&third) = name.get(2) else { return false };
    let candidate = SKIPPED[skip_slot(name.len(), name[0], third)];
    eq_lower(name, candidate)
}

/// The slot of [`SKIPPED`] for a name of `len` bytes that starts with
/// `first`, then any byte, then `third` (case ignored): a multiplicative
/// hash, its multiplier chosen to give each skipped name its own slot
/// (a test holds it to that).
#[inline]
const fn skip_slot(len: usize, first: u8, third: u8) -> usize {
    const M: u32 = 0x77f0_6139;
    let key = (len as u32 & 0xff)
        | ((first | 0x20) as u32) << 8
        | ((third | 0x20) as u32) << 16;
    (key.wrapping_mul(M) >> 26) as usize
}

/// The names [`is_skipped_field`] skips, lower-case, in the order of its
/// list.
const SKIPPED_NAMES: [&[u8]; 29] = [
    b"date",
    b"path",
    b"xref",
    b"x-loop",
    b"received",
    b"arc-seal",
    b"errors-to",
    b"newsgroups",
    b"message-id",
    b"references",
    b"content-id",
    b"supersedes",
    b"x-received",
    b"followup-to",
    b"in-reply-to",
    b"return-path",
    b"envelope-to",
    b"x-beenthere",
    b"delivered-to",
    b"x-original-to",
    b"x-envelope-to",
    b"dkim-signature",
    b"resent-message-id",
    b"original-message-id",
    b"domainkey-signature",
    b"arc-message-signature",
    b"authentication-results",
    b"x-google-dkim-signature",
    b"arc-authentication-results",
];

/// [`SKIPPED_NAMES`] by [`skip_slot`]; an empty slot matches no name
/// (names that reach it have three bytes or more).
static SKIPPED: [&[u8]; 64] = {
    let mut t: [&[u8]; 64] = [b""; 64];
    let mut k = 0;
    while k < SKIPPED_NAMES.len() {
        let n = SKIPPED_NAMES[k];
        let slot = skip_slot(n.len(), n[0], n[2]);
        assert!(t[slot].is_empty(), "two skipped names share a slot");
        t[slot] = n;
        k += 1;
    }
    t
};

/// Whether `name` is `lower` ignoring ASCII case, where `lower` is made of
/// lower-case letters and `-` only (a field name as the RFCs spell it):
/// eight bytes at a time, a letter's byte of `name` with its case bit
/// (0x20) set, `-` as it is.
fn eq_lower(name: &[u8], lower: &[u8]) -> bool {
    if name.len() != lower.len() {
        return false;
    }
    if name.len() < 8 {
        return name.eq_ignore_ascii_case(lower);
    }
    let word = |s: &[u8], at: usize| {
        s.get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_le_bytes)
    };
    // A letter of `lower` (0x61..=0x7a) has bit 0x40, `-` (0x2d) has not:
    // shifted down, it is the case bit a letter may differ in.
    let eq = |at: usize| {
        let want = word(lower, at);
        word(name, at) | ((want & 0x4040_4040_4040_4040) >> 1) == want
    };
    // The first and the last word (they overlap below 16 bytes), then
    // the words between.
    let last = name.len() - 8;
    eq(0) && eq(last) && (8..last).step_by(8).all(eq)
}

/// The `Message-ID` value of a header block, blanks trimmed.
pub(crate) fn message_id(block: &[u8]) -> Option<Span> {
    fields(block).find_map(|f| {
        let name = &block[f.name.start..f.name.end];
        if !name.eq_ignore_ascii_case(b"message-id") {
            return None;
        }
        let v = &block[f.value.start..f.value.end];
        let lead = v.len() - v.trim_ascii_start().len();
        let trimmed = v.trim_ascii();
        if trimmed.is_empty() {
            return None;
        }
        let start = f.value.start + lead;
        Some(Span { start, end: start + trimmed.len() })
    })
}

#[cfg(test)]
mod tests;
