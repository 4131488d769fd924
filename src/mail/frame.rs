//! Framing: where the messages of a file begin and end.
//!
//! An mbox file (RFC 4155) is messages, each beginning with a `From `
//! separator line. Body lines that begin with `From ` are meant to be
//! quoted as `>From ` (mboxo, mboxrd), but some archivers do not quote them
//! (Mailman's pipermail; the python-dev corpus has 18 such lines in 9,232
//! messages). So a separator is only a line of this shape, the date asctime
//! style as RFC 4155 §2 says, optionally with a zone:
//!
//! ```text
//! "From " sender 1*SP weekday SP month 1*SP day SP hh:mm[:ss] [SP zone] SP yyyy [SP zone]
//! ```
//!
//! where the sender is anything not blank (pipermail writes
//! `From skip at mojam.com  Wed Apr 21 15:17:32 1999` and
//! `From Fred L. Drake, Jr." <fdrake@acm.org  Thu Apr 22 15:47:35 1999`).
//! A `>From ` line never separates. The quoting is not undone: it only
//! adds `>` before `From ` at the start of a line, which can neither start
//! nor end a URL differently.
//!
//! A Maildir or MH message, a news spool article, or a `.eml` file is one
//! message per file.

use super::header;
use crate::scan::Span;
use memchr::memmem;

/// What a file holds, as far as its first bytes tell.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// An mbox spool: messages after `From ` separator lines.
    Mbox,
    /// One RFC 5322 message or Usenet article (Maildir, MH, news spool,
    /// `.eml`).
    Message,
    /// Not mail.
    Unknown,
}

impl Format {
    /// Guesses the format from the first bytes of a file (for
    /// `--mail auto`): an mbox begins with a separator line; a message
    /// with a header field (`Name: value`) whose name is one mail or news
    /// always carries, or with two header fields in a row.
    ///
    /// ```
    /// use urlgrep::mail::Format;
    /// assert_eq!(Format::sniff(b"From a@b Thu Aug 22 13:17:22 2002\n"), Format::Mbox);
    /// assert_eq!(Format::sniff(b"Return-Path: <a@b>\nX: y\n"), Format::Message);
    /// assert_eq!(Format::sniff(b"Network Working Group\n"), Format::Unknown);
    /// assert_eq!(Format::sniff(b"http://a.example/\nhttp://b.example/\n"), Format::Unknown);
    /// ```
    pub fn sniff(head: &[u8]) -> Format {
        if is_separator(head, 0) {
            return Format::Mbox;
        }
        // Two fields decide, and the first mostly decides alone (mail and
        // news begin with a field they always carry): it is read first,
        // the second only when needed.
        let none = Span::default();
        let mut fields = [header::Field { name: none, value: none }; 2];
        let (block, n) = header::first_fields(head, true, &mut fields[..1]);
        if n == 0 {
            return Format::Unknown;
        }
        let block = &head[block.start..block.end];
        if let Some(format) = from_field(block, fields[0], false) {
            return format;
        }
        let (block, n) = header::first_fields(head, true, &mut fields);
        let block = &head[block.start..block.end];
        from_fields(block, fields.get(..n).unwrap_or_default().iter().copied())
    }
}

/// What the first fields of a header block say (relative to `block`): a
/// field whose value starts with `//` is a URL at a line start, not a
/// field (not mail); a name that mail or news always carries, or two
/// fields in a row, make it a message.
fn from_fields(
    block: &[u8],
    fields: impl IntoIterator<Item = header::Field>,
) -> Format {
    for (count, f) in fields.into_iter().enumerate() {
        if let Some(format) = from_field(block, f, count == 1) {
            return format;
        }
    }
    Format::Unknown
}

/// What one of the first fields says ([`from_fields`]), if it decides;
/// `second` when a field came before it.
fn from_field(block: &[u8], f: header::Field, second: bool) -> Option<Format> {
    const KNOWN: [&[u8]; 12] = [
        b"received",
        b"return-path",
        b"message-id",
        b"from",
        b"date",
        b"subject",
        b"path",
        b"newsgroups",
        b"xref",
        b"delivered-to",
        b"mime-version",
        b"x-original-to",
    ];
    let name = &block[f.name.start..f.name.end];
    let value = block.get(f.value.start..f.value.end);
    if value.is_some_and(|v| v.trim_ascii_start().starts_with(b"//")) {
        // `http://…` at a line start is a URL, not a field.
        return Some(Format::Unknown);
    }
    if !second && name.iter().any(|b| matches!(b, b'<' | b'.' | b'/')) {
        // RFC 5322 §3.6.8 lets a field name hold any printable but `:`,
        // yet `<www.example.org:1234/` or `ftp.example.org:21` begins
        // text (a name and its port); no first field of the 25,436 mail
        // and news files of the bench corpora holds `<`, `.` or `/`.
        return Some(Format::Unknown);
    }
    if second || KNOWN.iter().any(|k| name.eq_ignore_ascii_case(k)) {
        return Some(Format::Message);
    }
    None
}

/// Whether the line at `pos` of `hay` is an mbox separator (see the
/// module docs).
pub fn is_separator(hay: &[u8], pos: usize) -> bool {
    let Some(line) = hay.get(pos..) else { return false };
    let Some(rest) = line.strip_prefix(b"From ") else { return false };
    let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len()).min(512);
    let line = rest[..end.min(rest.len())].trim_ascii_end();
    is_plain_separator(line) || is_separator_words(line)
}

/// The separator line as mbox writers print it (every separator of the
/// SpamAssassin spool), told at fixed places from its end: a sender, one
/// blank, then `Www Mmm dd hh:mm:ss yyyy` (the day may be ` d`). Such a
/// line is a separator ([`is_separator_words`] reads the same words); a
/// line of another shape is left to that general reading, which costs
/// ten times as much.
fn is_plain_separator(line: &[u8]) -> bool {
    let Some((sender, tail)) = line.split_last_chunk::<25>() else {
        return false;
    };
    // " Www Mmm dd hh:mm:ss yyyy", a place at a time.
    #[rustfmt::skip]
    let [
        blank, w0, w1, w2, b' ', m0, m1, m2, b' ', d0, d1, b' ',
        h0, h1, b':', n0, n1, b':', s0, s1, b' ', y0, y1, y2, y3,
    ] = *tail else {
        return false;
    };
    let digits = [d1, h0, h1, n0, n1, s0, s1, y0, y1, y2, y3];
    matches!(blank, b' ' | b'\t')
        && is_weekday(&[w0, w1, w2])
        && is_month(&[m0, m1, m2])
        && (d0 == b' ' || d0.is_ascii_digit())
        && digits.iter().all(u8::is_ascii_digit)
        && sender.iter().any(|&b| b != b' ' && b != b'\t')
}

/// Whether the words of a line (after `From `, trailing blanks removed)
/// make a separator (see the module docs).
fn is_separator_words(line: &[u8]) -> bool {
    // words in reverse: [zone?] year [zone?] time day month weekday sender…
    let mut w = line
        .rsplit(|&b| b == b' ' || b == b'\t')
        .filter(|w| !w.is_empty())
        .take(8);
    let mut next = || w.next().unwrap_or(&[]);
    let mut word = next();
    if is_zone(word) {
        word = next();
    }
    if !is_year(word) {
        return false;
    }
    word = next();
    if is_zone(word) && !is_time(word) {
        word = next();
    }
    is_time(word)
        && is_day(next())
        && is_month(next())
        && is_weekday(next())
        && !next().is_empty()
}

/// A month's name (`Jan` … `Dec`), in any case.
fn is_month(w: &[u8]) -> bool {
    matches!(
        folded(w).as_ref(),
        Some(
            b"jan"
                | b"feb"
                | b"mar"
                | b"apr"
                | b"may"
                | b"jun"
                | b"jul"
                | b"aug"
                | b"sep"
                | b"oct"
                | b"nov"
                | b"dec"
        )
    )
}

/// A weekday's name (`Mon` … `Sun`), in any case.
fn is_weekday(w: &[u8]) -> bool {
    matches!(
        folded(w).as_ref(),
        Some(b"mon" | b"tue" | b"wed" | b"thu" | b"fri" | b"sat" | b"sun")
    )
}

/// A three-byte word with the case bit (0x20) of each byte set: equal to
/// a lower-case name exactly when the word is that name in any case (a
/// letter's cases differ in that bit only, and no byte that is not a
/// letter becomes one when it is set).
fn folded(w: &[u8]) -> Option<[u8; 3]> {
    let &[a, b, c] = w else { return None };
    Some([a | 0x20, b | 0x20, c | 0x20])
}

fn is_year(w: &[u8]) -> bool {
    w.len() == 4 && w.iter().all(u8::is_ascii_digit)
}

fn is_day(w: &[u8]) -> bool {
    (1..=2).contains(&w.len()) && w.iter().all(u8::is_ascii_digit)
}

/// `h:mm`, `hh:mm` or `hh:mm:ss`.
fn is_time(w: &[u8]) -> bool {
    let mut parts = w.split(|&b| b == b':');
    let ok = |p: Option<&[u8]>, lo: usize| {
        p.is_some_and(|p| {
            (lo..=2).contains(&p.len()) && p.iter().all(u8::is_ascii_digit)
        })
    };
    let (h, m, s) = (parts.next(), parts.next(), parts.next());
    ok(h, 1) && ok(m, 2) && (s.is_none() || ok(s, 2)) && parts.next().is_none()
}

/// `+0100`, `-0500`, or an alphabetic zone such as `GMT` or `PDT`.
fn is_zone(w: &[u8]) -> bool {
    match w {
        [b'+' | b'-', d @ ..] => {
            d.len() == 4 && d.iter().all(u8::is_ascii_digit)
        }
        _ => {
            (2..=5).contains(&w.len()) && w.iter().all(u8::is_ascii_uppercase)
        }
    }
}

/// The start of the first separator line at or after `from` (a line
/// start: `from` itself counts only if it is 0 or follows a `\n`). A
/// parallel driver can split a spool at these points.
pub fn next_separator(hay: &[u8], from: usize) -> Option<usize> {
    if from < hay.len()
        && (from == 0 || hay[from - 1] == b'\n')
        && is_separator(hay, from)
    {
        return Some(from);
    }
    let start = from.saturating_sub(1).min(hay.len());
    separator_finder()
        .find_iter(&hay[start..])
        .map(|k| start + k + 1)
        .find(|&at| at >= from && is_separator(hay, at))
}

/// An mbox message framed together with the walk of its header
/// ([`frame_mbox`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Framed {
    /// Where the message ends: the next separator line, or the end.
    pub end: usize,
    /// The header block and the body, in the slice, with the header's
    /// fields (relative to the block) left in the vector passed; `None`
    /// when the header is to be walked over the framed message (a
    /// separator line among the envelope lines or read as a field).
    pub split: Option<(Span, Span)>,
}

/// Frames the mbox message of `hay` that starts at `start` (a separator
/// line, or the bytes before the first one) and splits its header, so
/// that the header's bytes are read once, by the walk that reads its
/// fields, and not also by the search for the next separator (headers
/// are 57% of the bytes of the SpamAssassin spool).
///
/// Gives what [`messages`] and [`header::split_fields`] (envelope lines
/// skipped) over the framed message give. The walk over the rest of
/// `hay` ends at the next
/// separator line at the latest — a separator is neither a field nor a
/// continuation, and starts no empty line — with two exceptions, checked
/// here, where the message ends inside what the walk reads:
///
/// - the walk skips every leading `From ` and `>From ` line as the
///   envelope, while the framing ends the message at the second
///   separator line among them;
/// - a separator line such as `From : Thu Aug 22 13:17:22 2002` is also
///   a field (RFC 5322 §4.5.2: `obs-from = "From" *WSP ":" …`).
///
/// The search for the next separator starts where the body starts, so a
/// separator there (the line that ended the walk) ends the message.
pub(crate) fn frame_mbox(
    hay: &[u8],
    start: usize,
    fields: &mut Vec<header::Field>,
) -> Framed {
    fields.clear();
    let Some(entity) = hay.get(start..) else {
        return Framed { end: hay.len(), split: None };
    };
    // The envelope lines, as the walk skips them: the walk then starts
    // after them, as it would (`envelope` set) over the framed message.
    let mut pos = 0;
    while entity[pos..].starts_with(b"From ")
        || entity[pos..].starts_with(b">From ")
    {
        if pos > 0 && is_separator(entity, pos) {
            return Framed { end: start + pos, split: None };
        }
        pos = header::next_line(entity, pos);
    }
    let at = start + pos;
    let (h, b) = header::split_fields(&hay[at..], false, Some(fields));
    for f in fields.iter() {
        // A separator read as a field has a blank before its colon: its
        // name is `From`, and the colon is not right after it.
        if f.value.start > f.name.end + 1
            && is_separator(hay, at + h.start + f.name.start)
        {
            let end = at + h.start + f.name.start;
            fields.clear();
            return Framed { end, split: None };
        }
    }
    let body = at + b.start;
    let end = next_separator(hay, body.max(start + 1)).unwrap_or(hay.len());
    let header = Span { start: at + h.start, end: at + h.end };
    Framed { end, split: Some((header, Span { start: body, end })) }
}

/// The searcher for `\nFrom `, built once: `memmem::find_iter` builds
/// one per call, which cost as much as the search on a spool of short
/// messages (one call per message).
pub(crate) fn separator_finder() -> &'static memmem::Finder<'static> {
    static FINDER: std::sync::LazyLock<memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memmem::Finder::new(b"\nFrom "));
    &FINDER
}

/// One message of a file. Framing only finds where it begins and ends;
/// its header and body are found when asked for (the search finds them in
/// the same pass that reads the header's fields).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message<'h> {
    pub(crate) index: usize,
    pub(crate) span: Span,
    /// Absolute offset of the slice framed (a reader search's buffer).
    pub(crate) origin: u64,
    /// The message's bytes, `span` of the slice.
    pub(crate) bytes: &'h [u8],
}

impl<'h> Message<'h> {
    /// Builds the message that spans `span` of `hay`.
    /// A span past the end of `hay` is cut to it.
    pub fn new(hay: &'h [u8], index: usize, span: Span) -> Message<'h> {
        let end = span.end.min(hay.len());
        let span = Span { start: span.start.min(end), end };
        let bytes = &hay[span.start..span.end];
        Message { index, span, origin: 0, bytes }
    }

    /// 0-based index of the message in the slice it was framed from.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The whole message in the slice, mbox separator line included.
    pub fn span(&self) -> Span {
        self.span
    }

    /// Absolute offset of the message: its span's start in a slice
    /// search, counted from the reader's start in a reader search
    /// ([`crate::mail::MailFinder::find_reader`]).
    pub fn offset(&self) -> u64 {
        self.origin + self.span.start as u64
    }

    /// The header block (without the separator line or the empty line
    /// that ends it), in the slice.
    pub fn header(&self) -> Span {
        let (h, _) = header::split(self.bytes, true);
        self.shift(h)
    }

    /// The body, after the empty line, in the slice.
    pub fn body(&self) -> Span {
        let (_, b) = header::split(self.bytes, true);
        self.shift(b)
    }

    /// The `Message-ID` value as written (angle brackets kept), if any.
    pub fn message_id(&self) -> Option<&'h [u8]> {
        let (h, _) = header::split(self.bytes, true);
        let block = &self.bytes[h.start..h.end];
        header::message_id(block).map(|s| &block[s.start..s.end])
    }

    /// The message's metadata (see [`super::Metadata`]), with the
    /// fields named in `fields` (lower case) in its `headers`. A search
    /// reads it with the fields it splits anyway
    /// ([`super::MailFinderBuilder::metadata`]); this reads the header
    /// again.
    pub fn metadata(&self, fields: &[String]) -> super::Metadata {
        let mut found = Vec::new();
        let (h, _) = header::split_fields(self.bytes, true, Some(&mut found));
        let block = &self.bytes[h.start..h.end];
        super::Metadata::read(block, &found, &fields.into())
    }

    /// `s`, relative to the message, made relative to the slice.
    fn shift(&self, s: Span) -> Span {
        Span { start: self.span.start + s.start, end: self.span.start + s.end }
    }
}

/// Iterator over the messages of a slice; see [`messages`].
#[derive(Clone, Debug)]
pub struct Messages<'h> {
    hay: &'h [u8],
    format: Format,
    pos: usize,
    index: usize,
}

/// The messages of `hay`, framed as `format` says: an mbox is split at its
/// separator lines (bytes before the first separator, if any, are a
/// message of their own); anything else is one message.
///
/// ```
/// use urlgrep::mail::{messages, Format};
/// let spool = b"From a@b Thu Aug 22 13:17:22 2002\nMessage-ID: <1@b>\n\n>From here\n\nFrom c@d Fri Aug 23 01:02:03 2002\n\nhi\n";
/// let ms: Vec<_> = messages(spool, Format::Mbox).collect();
/// assert_eq!(ms.len(), 2);
/// assert_eq!(ms[0].message_id(), Some(&b"<1@b>"[..]));
/// assert_eq!(ms[1].span().start, 65);
/// ```
pub fn messages(hay: &[u8], format: Format) -> Messages<'_> {
    Messages { hay, format, pos: 0, index: 0 }
}

impl<'h> Iterator for Messages<'h> {
    type Item = Message<'h>;

    fn next(&mut self) -> Option<Message<'h>> {
        let hay = self.hay;
        if self.pos >= hay.len() && !(hay.is_empty() && self.index == 0) {
            return None;
        }
        let start = self.pos;
        let end = match self.format {
            Format::Mbox => {
                next_separator(hay, start + 1).unwrap_or(hay.len())
            }
            _ => hay.len(),
        };
        // An empty file is one empty message only when it is not an mbox.
        if hay.is_empty() && self.format == Format::Mbox {
            self.pos = 1;
            return None;
        }
        self.pos = end.max(start + 1);
        let m = Message::new(hay, self.index, Span { start, end });
        self.index += 1;
        Some(m)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Lines for spools that try the framing: separators (one of them
    /// also a field), an envelope `>From `, a `From ` line that separates
    /// nothing, fields, a fold, an empty line, body text, a
    /// quoted-printable soft break.
    pub(in crate::mail) const LINES: [&str; 12] = [
        "From a@b Thu Aug 22 13:17:22 2002",
        "From : Thu Aug 22 13:17:22 2002",
        ">From a@b Thu Aug 22 13:17:22 2002",
        "From here on",
        "From: a@b",
        "Subject: see http://s.example/",
        " http://c.example/ folded",
        "",
        "body http://b.example/",
        "Message-ID: <1@x>",
        "Content-Transfer-Encoding: quoted-printable",
        "see http://q.example/a=3Db=",
    ];

    /// The spool of lines `kinds` (indexes into [`LINES`]), each ended
    /// by `\r\n` where `crlf` has its bit set, else by `\n`; the last
    /// one left open when `open`.
    pub(in crate::mail) fn spool(
        kinds: &[usize],
        crlf: u64,
        open: bool,
    ) -> Vec<u8> {
        let mut hay = Vec::new();
        for (i, &k) in kinds.iter().enumerate() {
            hay.extend_from_slice(LINES[k % LINES.len()].as_bytes());
            if open && i + 1 == kinds.len() {
                break;
            }
            if crlf >> (i % 64) & 1 == 1 {
                hay.push(b'\r');
            }
            hay.push(b'\n');
        }
        hay
    }

    /// `text` with each `\n` made `\r\n`.
    pub(in crate::mail) fn crlf(text: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() * 2);
        for &b in text {
            if b == b'\n' {
                out.push(b'\r');
            }
            out.push(b);
        }
        out
    }

    /// Every spool of at most `max` lines, all ended alike.
    pub(in crate::mail) fn every_spool(
        max: u32,
        mut check: impl FnMut(&[u8]),
    ) {
        for len in 0..=max {
            for n in 0..LINES.len().pow(len) {
                let kinds: Vec<usize> = (0..len)
                    .scan(n, |n, _| {
                        let k = *n % LINES.len();
                        *n /= LINES.len();
                        Some(k)
                    })
                    .collect();
                for (crlf, open) in [
                    (0, false),
                    (0, true),
                    (u64::MAX, false),
                    (u64::MAX, true),
                ] {
                    check(&spool(&kinds, crlf, open));
                }
            }
        }
    }

    /// How often [`frame_mbox`] split a header and how often it left
    /// the walk to the framed message.
    #[derive(Default)]
    struct Tally {
        split: usize,
        unsplit: usize,
    }

    /// Checks [`frame_mbox`] against [`messages`] and a walk of each
    /// framed message: the same spans, header, body and fields.
    fn frame_agrees(hay: &[u8], tally: &mut Tally) {
        let show = String::from_utf8_lossy(hay);
        let mut fields = Vec::new();
        let mut got = Vec::new();
        let mut start = 0;
        while start < hay.len() {
            let framed = frame_mbox(hay, start, &mut fields);
            got.push(Span { start, end: framed.end });
            let Some((h, b)) = framed.split else {
                tally.unsplit += 1;
                start = framed.end.max(start + 1);
                continue;
            };
            tally.split += 1;
            let mut want = Vec::new();
            let (wh, wb) = header::split_fields(
                &hay[start..framed.end],
                true,
                Some(&mut want),
            );
            let shift =
                |s: Span| Span { start: start + s.start, end: start + s.end };
            assert_eq!((h, b), (shift(wh), shift(wb)), "{show:?}");
            assert_eq!(fields, want, "{show:?}");
            start = framed.end.max(start + 1);
        }
        let want: Vec<Span> =
            messages(hay, Format::Mbox).map(|m| m.span()).collect();
        assert_eq!(got, want, "{show:?}");
    }

    #[test]
    fn frame_mbox_is_messages_then_split_every_short_spool() {
        let mut tally = Tally::default();
        every_spool(4, |hay| frame_agrees(hay, &mut tally));
        // Both ways were taken, many times.
        assert!(tally.split > 10_000, "{}", tally.split);
        assert!(tally.unsplit > 1_000, "{}", tally.unsplit);
    }

    #[test]
    fn frame_mbox_is_messages_then_split_corpora() {
        let mut tally = Tally::default();
        for text in [
            &include_bytes!("../../corpora/mail/python-dev/1999-04-part.mbox")
                [..],
            &include_bytes!("../../corpora/mail/blinux-list/00091.eml")[..],
        ] {
            frame_agrees(text, &mut tally);
            let crlf = crlf(text);
            frame_agrees(&crlf, &mut tally);
        }
        assert!(tally.split > 20, "{}", tally.split);
    }

    proptest! {
        #[test]
        fn frame_mbox_is_messages_then_split(
            kinds in proptest::collection::vec(0..LINES.len(), 0..40),
            crlf: u64,
            open: bool,
        ) {
            frame_agrees(&spool(&kinds, crlf, open), &mut Tally::default());
        }
    }

    /// What `sniff` said when it split the whole header and then read
    /// its fields: the oracle of the two-field walk.
    fn sniff_whole_header(head: &[u8]) -> Format {
        if is_separator(head, 0) {
            return Format::Mbox;
        }
        let (block, _) = header::split(head, true);
        let block = &head[block.start..block.end];
        from_fields(block, header::fields(block))
    }

    #[test]
    fn sniff_reads_two_fields_as_the_whole_header_said() {
        let heads: &[&[u8]] = &[
            b"",
            b"X: 1\n",
            b"X: 1\nY: 2\n",
            b"X:\n //a\nY: 2\n",
            b"X: 1\nY:\n\t//b\n\n",
            b"X: 1\n\nY: 2\n",
            b"X: 1\nnot a field\n",
            b"http://a.example/\nhttp://b.example/\n",
            b">From a\nSubject: x\n",
            b"A: 1\r\nB: 2\r\n",
            b"A: 1\n B\nC: //x\n",
            b"Path: a!b\nFrom: c\n\nbody",
        ];
        for h in heads {
            assert_eq!(
                Format::sniff(h),
                sniff_whole_header(h),
                "{}",
                String::from_utf8_lossy(h)
            );
        }
        for text in [
            &include_bytes!("../../corpora/mail/blinux-list/00091.eml")[..],
            &include_bytes!(
                "../../corpora/news/20news-bydate/sci.space/61448"
            )[..],
            &include_bytes!("../../corpora/mail/python-dev/1999-04-part.mbox")
                [..],
        ] {
            for (i, _) in text.iter().enumerate().filter(|&(_, &b)| b == b'\n')
            {
                let head = &text[i + 1..];
                assert_eq!(Format::sniff(head), sniff_whole_header(head));
            }
        }
    }

    #[test]
    fn separators() {
        let yes: [&[u8]; 6] = [
            b"From a@b Thu Aug 22 13:17:22 2002",
            b"From skip at mojam.com  Wed Apr 21 15:17:32 1999\n",
            b"From Fred L. Drake, Jr.\" <fdrake@acm.org  Thu Apr 22 15:47:35 1999",
            b"From a@b Thu Aug  2 13:17 2002 +0100",
            b"From a@b Thu Aug 22 13:17:22 PDT 2002\r\n",
            b"From MAILER-DAEMON Mon Jan  1 00:00:00 2024",
        ];
        for y in yes {
            assert!(is_separator(y, 0), "{}", String::from_utf8_lossy(y));
        }
        let no: [&[u8]; 6] = [
            b"From this:",
            b"From now on, patches must be mailed to patches@python.org, and must",
            b">From a@b Thu Aug 22 13:17:22 2002",
            b"From: a@b",
            b"From Thu Aug 22 13:17:22 2002",
            b"From a@b Thu Aug 22 13:17:22 02",
        ];
        for n in no {
            assert!(!is_separator(n, 0), "{}", String::from_utf8_lossy(n));
        }
    }

    /// A line the fixed-place reading takes is one the word reading
    /// takes: every line of the corpora, each separator of them with
    /// every byte changed or removed, and the separators above.
    #[test]
    fn plain_separators_are_separators() {
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for text in [
            &include_bytes!("../../corpora/mail/python-dev/1999-04-part.mbox")
                [..],
            &include_bytes!("../../corpora/mail/blinux-list/00091.eml")[..],
            b"From a@b Thu Aug  2 13:17:22 2002\nFrom a Sat Dec 31 23:59:59 1999",
        ] {
            lines.extend(text.split(|&b| b == b'\n').map(<[u8]>::to_vec));
        }
        let seps: Vec<Vec<u8>> = lines
            .iter()
            .filter_map(|l| l.strip_prefix(b"From "))
            .filter(|l| is_plain_separator(l))
            .map(<[u8]>::to_vec)
            .collect();
        assert!(seps.len() >= 10, "{} plain separators", seps.len());
        let mut tried = 0;
        for sep in &seps {
            for i in 0..sep.len() {
                let mut cut = sep.clone();
                cut.remove(i);
                lines.push(cut);
                for b in
                    [b' ', b'\t', b'\r', b'x', b'X', b'0', b'9', b':', 0xe4]
                {
                    let mut l = sep.clone();
                    l[i] = b;
                    lines.push(l);
                }
            }
        }
        for line in &lines {
            let line = line.strip_prefix(b"From ").unwrap_or(line);
            let line = line.trim_ascii_end();
            if is_plain_separator(line) {
                tried += 1;
                assert!(
                    is_separator_words(line),
                    "{}",
                    String::from_utf8_lossy(line)
                );
            }
        }
        assert!(tried > seps.len(), "{tried}");
    }

    #[test]
    fn month_and_weekday_names_in_any_case_only() {
        let months = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
            "Oct", "Nov", "Dec",
        ];
        let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
        // Every three-byte word of the letters and bytes near them.
        let bytes: Vec<u8> = (0x40..=0x7f).chain([b'0', b' ', 0xc1]).collect();
        for &a in &bytes {
            for &b in &bytes {
                for &c in &bytes {
                    let w = [a, b, c];
                    let named = |names: &[&str]| {
                        names
                            .iter()
                            .any(|n| w.eq_ignore_ascii_case(n.as_bytes()))
                    };
                    assert_eq!(is_month(&w), named(&months), "{w:?}");
                    assert_eq!(is_weekday(&w), named(&days), "{w:?}");
                }
            }
        }
        assert!(!is_month(b"Ja") && !is_month(b"Janu") && !is_weekday(b""));
    }

    #[test]
    fn frames_mbox() {
        let spool: &[u8] = b"junk\nFrom a@b Thu Aug 22 13:17:22 2002\nS: 1\n\nFrom here on\n>From x@y Thu Aug 22 13:17:22 2002\n\nFrom c@d Fri Aug 23 01:02:03 2002\nS: 2\n\nz";
        let ms: Vec<_> = messages(spool, Format::Mbox).collect();
        assert_eq!(ms.len(), 3);
        assert_eq!(&spool[ms[0].span.start..ms[0].span.end], b"junk\n");
        let m1 = &spool[ms[1].span.start..ms[1].span.end];
        assert!(m1.starts_with(b"From a@b"));
        assert!(m1.ends_with(b"2002\n\n"));
        assert_eq!(&spool[ms[1].body().start..ms[1].body().end], &m1[40..]);
        assert_eq!(&spool[ms[2].body().start..ms[2].body().end], b"z");
        assert_eq!(ms[2].index(), 2);
        assert_eq!(next_separator(spool, 0), Some(5));
        assert_eq!(next_separator(spool, 5), Some(5));
        assert_eq!(next_separator(spool, 6), Some(ms[2].span.start));
        assert_eq!(messages(b"", Format::Mbox).count(), 0);
        assert_eq!(messages(b"", Format::Message).count(), 1);
    }

    #[test]
    fn sniffs() {
        assert_eq!(Format::sniff(b"Path: a!b\nFrom: c\n"), Format::Message);
        assert_eq!(Format::sniff(b"X-A: 1\nX-B: 2\n"), Format::Message);
        assert_eq!(Format::sniff(b"Note: this\n\nis text"), Format::Unknown);
        // A first line that is a name and a port, not a field name.
        assert_eq!(
            Format::sniff(b"<www.kde.org:1234/\nsub/p:q\n"),
            Format::Unknown
        );
        assert_eq!(
            Format::sniff(b"ftp.kde.org:1234/\nsub/p:q\n"),
            Format::Unknown
        );
        assert_eq!(Format::sniff(b"a/b: 1\nX: 2\n"), Format::Unknown);
        assert_eq!(Format::sniff(b"X: 1\nY.Z: 2\n"), Format::Message);
        assert_eq!(Format::sniff(b""), Format::Unknown);
    }
}
