//! A record's head: the WARC named fields (WARC 1.1 §4, §5) or ARC's
//! header line, and what the reader needs of them.

use super::date;
use super::Format;

/// A record's type, `WARC-Type` (WARC 1.1 §6). ARC's version block reads
/// as `Warcinfo`, its URL records as `Response` (as warcio's arc2warc has
/// them).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordType {
    /// §6.2: about the records that follow.
    Warcinfo,
    /// §6.3: a response, as received (an HTTP response for `http(s)`).
    Response,
    /// §6.4: a resource, without protocol head.
    Resource,
    /// §6.5: a request, as sent.
    Request,
    /// §6.6: metadata about another record (WAT-style outlinks included).
    Metadata,
    /// §6.7: a revisit: the content is elsewhere (or unchanged).
    Revisit,
    /// §6.8: a conversion of another record's content (WET text).
    Conversion,
    /// §6.9: a segment of a record too big for one.
    Continuation,
    /// Any other type, as written.
    Other(String),
}

impl RecordType {
    /// The type named `name` (compared ignoring ASCII case).
    pub fn from_name(name: &str) -> RecordType {
        const NAMES: [(&str, RecordType); 8] = [
            ("warcinfo", RecordType::Warcinfo),
            ("response", RecordType::Response),
            ("resource", RecordType::Resource),
            ("request", RecordType::Request),
            ("metadata", RecordType::Metadata),
            ("revisit", RecordType::Revisit),
            ("conversion", RecordType::Conversion),
            ("continuation", RecordType::Continuation),
        ];
        NAMES.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map_or_else(
            || RecordType::Other(name.to_string()),
            |(_, t)| t.clone(),
        )
    }

    /// The type's name as WARC writes it.
    pub fn name(&self) -> &str {
        match self {
            RecordType::Warcinfo => "warcinfo",
            RecordType::Response => "response",
            RecordType::Resource => "resource",
            RecordType::Request => "request",
            RecordType::Metadata => "metadata",
            RecordType::Revisit => "revisit",
            RecordType::Conversion => "conversion",
            RecordType::Continuation => "continuation",
            RecordType::Other(name) => name,
        }
    }

    /// Whether the record's payload holds the URLs of a page: `response`,
    /// `resource`, `conversion` (WET text), `metadata` (WAT-style
    /// outlinks), and types this reader does not know. Not `request` (the
    /// crawler's own request), `warcinfo` (about the file), `revisit` (no
    /// content, or a repeat), `continuation` (a segment, unreadable alone).
    pub fn has_body_urls(&self) -> bool {
        !matches!(
            self,
            RecordType::Request
                | RecordType::Warcinfo
                | RecordType::Revisit
                | RecordType::Continuation
        )
    }
}

/// A record's head: where it is, and its named fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Head {
    pub(crate) format: Format,
    pub(crate) offset: u64,
    pub(crate) gz_offset: Option<u64>,
    pub(crate) head_len: u64,
    pub(crate) record_type: RecordType,
    pub(crate) content_length: u64,
    /// ARC's header line: URL, IP, date, content type, length.
    pub(crate) arc: Option<[String; 5]>,
    /// WARC: the fields in order, names as written, values unfolded.
    pub(crate) fields: Fields,
}

impl Head {
    /// The record's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The offset of the record's first byte in the uncompressed stream.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// For gzip input, the offset of the member holding the record's
    /// first byte in the compressed file (a `.warc.gz` of one member a
    /// record: where to seek to read the record alone).
    pub fn gz_offset(&self) -> Option<u64> {
        self.gz_offset
    }

    /// The head's length in bytes (the version line and fields and their
    /// empty line; ARC's header line): the block starts at `offset +
    /// head_len`.
    pub fn head_len(&self) -> u64 {
        self.head_len
    }

    /// `WARC-Type`.
    pub fn record_type(&self) -> &RecordType {
        &self.record_type
    }

    /// `Content-Length` (ARC: the archive-length): the block's length.
    pub fn content_length(&self) -> u64 {
        self.content_length
    }

    /// The value of the first field named `name` (ignoring ASCII case),
    /// folded lines joined by a space. ARC heads answer the WARC names of
    /// their header line's parts.
    pub fn field(&self, name: &str) -> Option<&str> {
        if let Some(arc) = &self.arc {
            const ARC: [&str; 5] = [
                "WARC-Target-URI",
                "WARC-IP-Address",
                "WARC-Date",
                "Content-Type",
                "Content-Length",
            ];
            let i = ARC.iter().position(|n| n.eq_ignore_ascii_case(name))?;
            return Some(&arc[i]);
        }
        self.fields.get(name)
    }

    /// The named fields in order (WARC; empty for ARC).
    pub fn fields(&self) -> impl Iterator<Item = (&str, &str)> {
        self.fields.iter()
    }

    /// `WARC-Target-URI` (ARC: the header line's URL), the `<…>` that
    /// WARC 1.0's grammar showed around it taken off.
    pub fn target_uri(&self) -> Option<&str> {
        let uri = self.field("WARC-Target-URI")?;
        Some(
            uri.strip_prefix('<')
                .and_then(|u| u.strip_suffix('>'))
                .unwrap_or(uri),
        )
    }

    /// `WARC-Date` as written (ARC: its 14 digits).
    pub fn date(&self) -> Option<&str> {
        self.field("WARC-Date")
    }

    /// The date as RFC 3339 (§5.6), `None` when it does not parse.
    pub fn date_rfc3339(&self) -> Option<String> {
        let text = self.date()?;
        match self.format {
            Format::Warc => date::w3c_to_rfc3339(text),
            Format::Arc => date::arc_to_rfc3339(text),
        }
    }

    /// `WARC-Record-ID` (a `<urn:…>`), as written.
    pub fn record_id(&self) -> Option<&str> {
        self.field("WARC-Record-ID")
    }

    /// The block's `Content-Type` (ARC: the header line's).
    pub fn content_type(&self) -> Option<&str> {
        self.field("Content-Type")
    }

    /// Whether the block is an HTTP message whose head the payload
    /// reader takes off: a WARC `response` or `request` (or `revisit`)
    /// of `Content-Type: application/http`, an ARC record of an `http`
    /// or `https` URL.
    pub fn is_http(&self) -> bool {
        match self.format {
            Format::Arc => self.target_uri().is_some_and(|u| {
                let u = u.as_bytes();
                u.len() > 5 && u[..5].eq_ignore_ascii_case(b"http:")
                    || u.len() > 6 && u[..6].eq_ignore_ascii_case(b"https:")
            }),
            Format::Warc => {
                matches!(
                    self.record_type,
                    RecordType::Response
                        | RecordType::Request
                        | RecordType::Revisit
                ) && self.content_type().is_some_and(|t| {
                    let t = t.trim_start().as_bytes();
                    t.len() >= 16
                        && t[..16].eq_ignore_ascii_case(b"application/http")
                })
            }
        }
    }
}

/// The longest WARC head read (version line and fields): past it the
/// record is reported (`Fault::HeadTooLong`) and the reader resyncs.
pub const MAX_HEAD: usize = 256 * 1024;

/// Parses a head (`raw` from the version or start line to the empty line,
/// line ends CRLF or LF, CRs at line ends ignored) into its fields; the
/// first line was checked by the caller. `strict` (WARC) rejects a line
/// that is no field; otherwise (HTTP) such a line is passed over.
pub(crate) fn parse_fields(
    raw: &[u8],
    strict: bool,
) -> Result<Fields, String> {
    // Checked once: a head that is UTF-8 (as nearly all are) gives its
    // pieces, cut at ASCII bytes, as they are.
    let utf8 = std::str::from_utf8(raw).ok();
    let push_lossy = |text: &mut String, piece: &[u8]| {
        // Where `piece` (a part of `raw`, or an empty slice of its own) is
        // in `raw`.
        let at = (piece.as_ptr() as usize).checked_sub(raw.as_ptr() as usize);
        let whole =
            at.and_then(|at| utf8?.get(at..at.checked_add(piece.len())?));
        match whole {
            Some(s) if std::ptr::eq(s.as_ptr(), piece.as_ptr()) => {
                text.push_str(s)
            }
            _ => push_lossy(text, piece),
        }
    };
    let mut fields = Fields {
        text: String::with_capacity(raw.len()),
        ends: Vec::with_capacity(memchr::memchr_iter(b'\n', raw).count()),
    };
    let mut lines = split_lines(raw);
    lines.next(); // the version line
    for line in lines {
        let line = trim_end_cr(line);
        if line.is_empty() {
            break;
        }
        if line[0] == b' ' || line[0] == b'\t' {
            // RFC 2616 §2.2 LWS: a continuation line, joined by one space.
            let Some((name_end, value_end)) = fields.ends.last_mut() else {
                if !strict {
                    continue;
                }
                return Err("a continuation line before any field".into());
            };
            let more = trim(line);
            if *value_end > *name_end && !more.is_empty() {
                fields.text.push(' ');
            }
            push_lossy(&mut fields.text, more);
            *value_end = fields.text.len();
            continue;
        }
        let Some(colon) = memchr::memchr(b':', line) else {
            if !strict {
                continue;
            }
            return Err(format!(
                "a field line without a colon: \"{}\"",
                super::error::quote(line)
            ));
        };
        let name = trim(&line[..colon]);
        if name.is_empty() || name.iter().any(|&c| c <= b' ' || c >= 0x7f) {
            if !strict {
                continue;
            }
            return Err(format!(
                "a bad field name: \"{}\"",
                super::error::quote(&line[..colon])
            ));
        }
        push_lossy(&mut fields.text, name);
        let name_end = fields.text.len();
        push_lossy(&mut fields.text, trim(&line[colon + 1..]));
        fields.ends.push((name_end, fields.text.len()));
    }
    Ok(fields)
}

/// Appends `bytes` to `text`, a byte that is no UTF-8 as U+FFFD (as
/// `String::from_utf8_lossy`, whose byte-by-byte check of every piece was
/// 1.4% of the instructions of a `.warc.gz`).
fn push_lossy(text: &mut String, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(s) => text.push_str(s),
        Err(_) => text.push_str(&String::from_utf8_lossy(bytes)),
    }
}

/// The pieces of `raw` between its newlines (as `raw.split(|&c| c ==
/// b'\n')` gives them), found with `memchr`.
fn split_lines(raw: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(raw);
    std::iter::from_fn(move || {
        let r = rest?;
        match memchr::memchr(b'\n', r) {
            Some(i) => {
                rest = Some(&r[i + 1..]);
                Some(&r[..i])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// The named fields of a head, in order: their names and values end to
/// end in one string, so that a head costs two allocations, not two a
/// field (they were 5% of the instructions of `-j1 -c` on a `.warc.gz`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Fields {
    text: String,
    /// Each field's name end and value end in `text`; its name begins
    /// where the field before it ends.
    ends: Vec<(usize, usize)>,
}

impl Fields {
    /// The fields in order: (name, value).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut start = 0;
        self.ends.iter().map(move |&(name_end, value_end)| {
            let name = self.text.get(start..name_end).unwrap_or_default();
            let value = self.text.get(name_end..value_end).unwrap_or_default();
            start = value_end;
            (name, value)
        })
    }

    /// The value of the first field named `name` (ignoring ASCII case).
    /// Names of another length are passed over by their ends alone (a
    /// look-up was 460 instructions, 1.3% of `-j1 -c` on a `.warc.gz`).
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        let text = self.text.as_bytes();
        let mut start = 0;
        for &(name_end, value_end) in &self.ends {
            if name_end.checked_sub(start) == Some(name.len())
                && text
                    .get(start..name_end)
                    .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            {
                return Some(
                    self.text.get(name_end..value_end).unwrap_or_default(),
                );
            }
            start = value_end;
        }
        None
    }
}

/// `line` without its trailing CRs (`\r\r\n` ends are seen in the wild).
pub(crate) fn trim_end_cr(mut line: &[u8]) -> &[u8] {
    while let [rest @ .., b'\r'] = line {
        line = rest;
    }
    line
}

/// `bytes` without leading and trailing spaces and tabs.
fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes.iter().position(|&c| c != b' ' && c != b'\t');
    let Some(start) = start else { return b"" };
    let end = bytes
        .iter()
        .rposition(|&c| c != b' ' && c != b'\t')
        .map_or(start, |e| e + 1);
    &bytes[start..end]
}

/// The `Content-Length` value: decimal digits only.
pub(crate) fn parse_length(text: &str) -> Option<u64> {
    let text = text.trim();
    if text.is_empty() || !text.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Parses an ARC v1 header line (`URL IP-address Archive-date
/// Content-type Archive-length`, without its newline): the five parts, or
/// why not. A URL with spaces in it (seen in old files) keeps them: the
/// last four parts are taken from the end.
pub(crate) fn parse_arc_line(line: &[u8]) -> Result<[String; 5], String> {
    let line = trim_end_cr(line);
    let text = String::from_utf8_lossy(line);
    let mut parts: Vec<&str> = text.rsplitn(5, ' ').collect();
    if parts.len() < 5 {
        return Err(format!(
            "an ARC header line of {} parts, not 5: \"{}\"",
            parts.len(),
            super::error::quote(line)
        ));
    }
    parts.reverse();
    let length = parts[4];
    if parse_length(length).is_none() {
        return Err(format!(
            "a bad archive-length \"{}\"",
            length.escape_debug()
        ));
    }
    let date = parts[2];
    if date.len() < 12 || !date.bytes().all(|c| c.is_ascii_digit()) {
        return Err(format!("a bad archive-date \"{}\"", date.escape_debug()));
    }
    if parts[0].is_empty() || parts[0].contains(['\t', '\r', '\n']) {
        return Err("an empty URL".to_string());
    }
    Ok([parts[0], parts[1], parts[2], parts[3], parts[4]].map(str::to_string))
}

/// Whether `line` is an ARC header line: five parts, a URL with a scheme
/// and no spaces, a date of digits, a decimal length.
pub(crate) fn arc_start(line: &[u8]) -> bool {
    let line = trim_end_cr(line.strip_suffix(b"\n").unwrap_or(line));
    match parse_arc_line(line) {
        Ok(parts) => !parts[0].contains(' ') && parts[0].contains(':'),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_fold_and_ignore_case() {
        let raw = b"WARC/1.1\r\nWARC-Type: response\r\nX-Long: one\r\n  two\r\n\ttwo-b\r\ncontent-length:  12 \r\n\r\n";
        let fields = parse_fields(raw, true).unwrap();
        assert_eq!(fields.iter().nth(1), Some(("X-Long", "one two two-b")));
        let head = Head {
            format: Format::Warc,
            offset: 0,
            gz_offset: None,
            head_len: 0,
            record_type: RecordType::Response,
            content_length: 12,
            arc: None,
            fields,
        };
        assert_eq!(head.field("CONTENT-LENGTH"), Some("12"));
        assert_eq!(head.field("x-long"), Some("one two two-b"));
    }

    /// A head with a byte that is no UTF-8 gives it as U+FFFD, the rest
    /// as it is; a value of spaces alone is empty.
    #[test]
    fn fields_not_utf8_and_empty_values() {
        let raw = b"WARC/1.1\r\nA: caf\xc3\xa9\r\nB: x\xffy\r\nC:   \r\n  \r\nD: d\r\n\r\n";
        let fields = parse_fields(raw, true).unwrap();
        let all: Vec<_> = fields.iter().collect();
        assert_eq!(
            all,
            [("A", "caf\u{e9}"), ("B", "x\u{fffd}y"), ("C", ""), ("D", "d")]
        );
        let utf8 = b"WARC/1.1\r\nA: caf\xc3\xa9\r\nC:\r\n\r\n";
        let fields = parse_fields(utf8, true).unwrap();
        assert_eq!(fields.get("a"), Some("caf\u{e9}"));
        assert_eq!(fields.get("c"), Some(""));
    }

    #[test]
    fn bad_field_lines() {
        assert!(parse_fields(b"WARC/1.0\r\n cont\r\n\r\n", true).is_err());
        assert!(parse_fields(b"WARC/1.0\r\nno colon\r\n\r\n", true).is_err());
    }

    #[test]
    fn arc_lines() {
        let p = parse_arc_line(b"http://example.com/ 93.184.216.119 20140216050221 text/html 1591").unwrap();
        assert_eq!(p[0], "http://example.com/");
        assert_eq!(p[4], "1591");
        assert!(parse_arc_line(
            b"http://example.com/ 1.2.3.4 20140216050221 text/html -1"
        )
        .is_err());
        assert!(parse_arc_line(
            b"http://example.com/ 1.2.3.4 20140216050221 text/html abc"
        )
        .is_err());
        assert!(parse_arc_line(b"1 0 LiveWeb Capture").is_err());
        assert!(parse_arc_line(b"").is_err());
    }

    #[test]
    fn types() {
        assert_eq!(RecordType::from_name("Response"), RecordType::Response);
        assert_eq!(
            RecordType::from_name("x-odd"),
            RecordType::Other("x-odd".into())
        );
        assert!(!RecordType::Request.has_body_urls());
        assert!(RecordType::Conversion.has_body_urls());
    }
}
