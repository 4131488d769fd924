//! What a message says about itself: its sender, subject and date, and
//! any other fields asked for, read from the header fields the mail walk
//! has already split ([`super::MailFinderBuilder::metadata`]).

use super::date::{self, UtcTime};
use super::encoded_word::decode_text;
use super::header::Field;
use crate::scan::Span;
use std::sync::Arc;

/// A message's metadata, decoded (RFC 2047 encoded words, unfolding).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The first mailbox of the first `From` field.
    pub from: Option<Mailbox>,
    /// The first `Subject` field (RFC 5322 §3.6.5), decoded.
    pub subject: Option<String>,
    /// The first `Date` field as written, unfolded and trimmed.
    pub date: Option<String>,
    /// That date in UTC, when it reads as one ([`date::parse`]).
    pub date_utc: Option<UtcTime>,
    /// The names of the fields asked for
    /// ([`super::MailFinderBuilder::header_fields`]), lower case, in the
    /// order asked: one list shared by every message's metadata.
    pub header_names: Arc<[String]>,
    /// The decoded values of the fields asked for that the message holds,
    /// in header order, each with the index of its name in
    /// `header_names`: a message costs what its fields hold, not a slot
    /// per name asked ([`Metadata::headers`] groups them by name).
    pub header_values: Vec<(usize, String)>,
}

/// A mailbox (RFC 5322 §3.4): a display name and an address.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mailbox {
    /// The display name, decoded and unquoted (or the comment of the old
    /// `address (Name)` form); `None` when empty.
    pub name: Option<String>,
    /// The address (`local@domain`), as written; `None` when empty.
    pub address: Option<String>,
}

impl Metadata {
    /// The fields asked for by name, in the order asked, each with the
    /// decoded values of every field of that name, in header order (none
    /// when the message has no such field).
    pub fn headers(&self) -> Vec<(&str, Vec<&str>)> {
        let mut by_name: Vec<(&str, Vec<&str>)> = self
            .header_names
            .iter()
            .map(|n| (n.as_str(), Vec::new()))
            .collect();
        for (i, v) in &self.header_values {
            if let Some((_, values)) = by_name.get_mut(*i) {
                values.push(v.as_str());
            }
        }
        by_name
    }

    /// Reads the metadata of the header `block` from its `fields`
    /// (spans relative to `block`); `wanted`: the lower-case names of the
    /// other fields asked for.
    pub(crate) fn read(
        block: &[u8],
        fields: &[Field],
        wanted: &Arc<[String]>,
    ) -> Metadata {
        let mut picked = Picked::default();
        for f in fields {
            picked.note(&block[f.name.start..f.name.end], f.value, wanted);
        }
        picked.read(block, wanted)
    }
}

impl Metadata {
    /// Adds what a later part of the same header says (a streamed
    /// message's header is read in windows): the first `From`, `Subject`
    /// and `Date` stay first, the values of the fields asked for are
    /// appended in header order.
    pub(crate) fn merge(&mut self, later: &Metadata) {
        if self.from.is_none() {
            self.from.clone_from(&later.from);
        }
        if self.subject.is_none() {
            self.subject.clone_from(&later.subject);
        }
        if self.date.is_none() {
            self.date.clone_from(&later.date);
            self.date_utc = later.date_utc;
        }
        if self.header_names.is_empty() {
            self.header_names = Arc::clone(&later.header_names);
        }
        self.header_values.extend(later.header_values.iter().cloned());
    }
}

/// The fields metadata is read from, noted while the mail walk reads a
/// header (spans of the values in the header block): decoding waits for
/// the message's first match, so messages without URLs cost a name
/// compare per field.
#[derive(Clone, Debug, Default)]
pub(crate) struct Picked {
    from: Option<Span>,
    subject: Option<Span>,
    date: Option<Span>,
    /// Fields asked for by name: index in `wanted`, value.
    extra: Vec<(usize, Span)>,
}

impl Picked {
    /// Notes field `name` whose value is at `value`.
    pub(crate) fn note(
        &mut self,
        name: &[u8],
        value: Span,
        wanted: &[String],
    ) {
        let slot = match name.len() {
            4 if name.eq_ignore_ascii_case(b"from") => Some(&mut self.from),
            4 if name.eq_ignore_ascii_case(b"date") => Some(&mut self.date),
            7 if name.eq_ignore_ascii_case(b"subject") => {
                Some(&mut self.subject)
            }
            _ => None,
        };
        if let Some(slot) = slot {
            slot.get_or_insert(value);
        }
        for (i, n) in wanted.iter().enumerate() {
            if name.eq_ignore_ascii_case(n.as_bytes()) {
                self.extra.push((i, value));
            }
        }
    }

    /// Decodes the noted fields of `block`.
    pub(crate) fn read(
        &self,
        block: &[u8],
        wanted: &Arc<[String]>,
    ) -> Metadata {
        let text = |s: Span| block.get(s.start..s.end).unwrap_or_default();
        let header_values = self
            .extra
            .iter()
            .map(|&(i, v)| (i, decode_text(text(v))))
            .collect();
        Metadata {
            from: self.from.map(|v| mailbox(text(v))),
            subject: self.subject.map(|v| decode_text(text(v))),
            date: self.date.map(|v| decode_text(text(v))),
            date_utc: self.date.and_then(|v| date::parse(text(v))),
            header_names: Arc::clone(wanted),
            header_values,
        }
    }
}

/// A message's metadata in the mail walk: not asked for, noted and not
/// yet read, or read (and shared by the message's matches).
#[derive(Debug, Default)]
pub(crate) enum Slot<'a> {
    #[default]
    Off,
    Noted {
        block: &'a [u8],
        picked: Picked,
        wanted: &'a Arc<[String]>,
    },
    Read(Arc<Metadata>),
}

impl Slot<'_> {
    /// The metadata, read now if it was only noted.
    pub(crate) fn get(&mut self) -> Option<Arc<Metadata>> {
        if let Slot::Noted { block, picked, wanted } = self {
            *self = Slot::Read(Arc::new(picked.read(block, wanted)));
        }
        match self {
            Slot::Read(meta) => Some(Arc::clone(meta)),
            _ => None,
        }
    }
}

/// The first mailbox of an address list (RFC 5322 §3.4: `name-addr /
/// addr-spec`; a group's name is skipped to its first member).
pub fn mailbox(value: &[u8]) -> Mailbox {
    // The common `Name <addr>` and `addr`, with no quotes, comments,
    // groups, lists or encoded words: read directly.
    let special = |b: &u8| b"\"(),:;\\?".contains(b);
    if !value.iter().any(special) {
        let (name, addr) = match memchr::memchr(b'<', value) {
            Some(lt) => {
                let after = &value[lt + 1..];
                let gt = memchr::memchr(b'>', after).unwrap_or(after.len());
                (&value[..lt], &after[..gt])
            }
            None => (&b""[..], value),
        };
        return Mailbox {
            name: non_empty(decode_text(name)),
            address: non_empty(clean_address(addr)),
        };
    }
    address_and_comment(value).unwrap_or_else(|| any_mailbox(value))
}

/// [`mailbox`] for any shape: quotes, comments, groups, lists.
fn any_mailbox(value: &[u8]) -> Mailbox {
    // The first address: up to a comma outside quotes, comments and
    // angle brackets.
    let mut first = top_level_until(value, b',');
    // `group: a@b, c@d;`: a colon before any `@` or `<` starts a group.
    if let Some(colon) = top_level_find(first, b':') {
        let before = &first[..colon];
        if !before.contains(&b'@') && !before.contains(&b'<') {
            let rest = &value[colon + 1..];
            first = top_level_until(rest, b',');
            first = first.strip_suffix(b";").unwrap_or(first);
        }
    }
    match top_level_find(first, b'<') {
        Some(lt) => {
            let after = &first[lt + 1..];
            let gt = after.iter().position(|&b| b == b'>');
            let addr = &after[..gt.unwrap_or(after.len())];
            let name = unquote(&without_comments(&first[..lt]));
            Mailbox {
                name: non_empty(decode_text(&name)),
                address: non_empty(clean_address(addr)),
            }
        }
        None => {
            let addr = without_comments(first);
            let name = comment(first).map(|c| decode_text(&c));
            Mailbox {
                name: name.and_then(non_empty),
                address: non_empty(clean_address(&addr)),
            }
        }
    }
}

/// The old form `address (Name)` (RFC 5322 §3.4 obsoletes it, archives
/// are full of it), read directly: one comment, nothing nested or
/// escaped in it, and no quotes, angle brackets, commas or colons around
/// it. What the general reading gives for it: the address without the
/// comment, and the comment's text as the name. `None` for any other
/// shape.
fn address_and_comment(value: &[u8]) -> Option<Mailbox> {
    let open = memchr::memchr(b'(', value)?;
    let close = open + memchr::memchr(b')', &value[open..])?;
    let (before, inner, after) =
        (&value[..open], &value[open + 1..close], &value[close + 1..]);
    let plain = |b: &u8| !b"\"(),:<\\".contains(b);
    let simple = before.iter().all(plain)
        && inner.iter().all(|b| !b"()\\".contains(b))
        && after.iter().all(u8::is_ascii_whitespace);
    simple.then(|| Mailbox {
        name: non_empty(decode_text(inner)),
        address: non_empty(clean_address(before)),
    })
}

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// An address as written, trimmed, its runs of blanks and line breaks
/// (folds) one space (archives write `user at host`), and read as UTF-8
/// (RFC 6532), bytes that are not replaced.
///
/// Mailman's pipermail archives hide addresses as `user at host`: with
/// no `@` of its own, an address of exactly those three words is read as
/// `user@host`.
fn clean_address(addr: &[u8]) -> String {
    // Most addresses are one word.
    let word = addr.trim_ascii();
    if !word.iter().any(u8::is_ascii_whitespace) {
        return String::from_utf8_lossy(word).into_owned();
    }
    // The words, in one pass (the first four: `user at host` has three).
    let mut words: [&[u8]; 4] = [&[]; 4];
    let mut n = 0;
    for w in word.split(u8::is_ascii_whitespace).filter(|w| !w.is_empty()) {
        if let Some(slot) = words.get_mut(n) {
            *slot = w;
        }
        n += 1;
    }
    let joined = match words {
        [user, b"at", host, _] if n == 3 && !word.contains(&b'@') => {
            [user, host].join(&b'@')
        }
        _ if n <= 4 => words.get(..n).unwrap_or_default().join(&b' '),
        // Longer: the runs of blanks become one space.
        _ => {
            let all = word.split(u8::is_ascii_whitespace);
            all.filter(|w| !w.is_empty()).collect::<Vec<_>>().join(&b' ')
        }
    };
    match String::from_utf8(joined) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// The scanner state shared by the top-level searches: inside a quoted
/// string, a comment (nested), or angle brackets.
fn top_level_positions(
    value: &[u8],
) -> impl Iterator<Item = (usize, u8)> + '_ {
    let (mut quoted, mut depth, mut angle, mut escaped) =
        (false, 0u32, false, false);
    value.iter().enumerate().filter_map(move |(i, &b)| {
        if escaped {
            escaped = false;
            return None;
        }
        let top = !quoted && depth == 0 && !angle;
        match b {
            b'\\' if quoted || depth > 0 => escaped = true,
            b'"' if depth == 0 && !angle => quoted = !quoted,
            b'(' if !quoted => depth += 1,
            b')' if !quoted && depth > 0 => depth -= 1,
            b'<' if !quoted && depth == 0 => angle = true,
            b'>' if angle => angle = false,
            _ => {}
        }
        top.then_some((i, b))
    })
}

/// The first `needle` outside quotes, comments and angle brackets.
fn top_level_find(value: &[u8], needle: u8) -> Option<usize> {
    if !value.contains(&needle) {
        return None;
    }
    top_level_positions(value).find(|&(_, b)| b == needle).map(|(i, _)| i)
}

/// `value` up to its first top-level `stop`.
fn top_level_until(value: &[u8], stop: u8) -> &[u8] {
    &value[..top_level_find(value, stop).unwrap_or(value.len())]
}

/// `value` without its comments (RFC 5322 §3.2.2), quoted strings kept.
fn without_comments(value: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(value.len());
    let (mut quoted, mut depth, mut escaped) = (false, 0u32, false);
    for &b in value {
        if escaped {
            escaped = false;
            if depth == 0 {
                out.push(b);
            }
            continue;
        }
        match b {
            b'\\' if quoted || depth > 0 => {
                escaped = true;
                if depth == 0 {
                    out.push(b);
                }
                continue;
            }
            b'"' if depth == 0 => quoted = !quoted,
            b'(' if !quoted => {
                depth += 1;
                continue;
            }
            b')' if !quoted && depth > 0 => {
                depth -= 1;
                continue;
            }
            _ => {}
        }
        if depth == 0 {
            out.push(b);
        }
    }
    out
}

/// The text of the first top-level comment, without its parentheses;
/// `None` when there is none or it is never closed.
fn comment(value: &[u8]) -> Option<Vec<u8>> {
    let open = top_level_find(value, b'(')?;
    let mut depth = 0u32;
    let mut escaped = false;
    let mut out = Vec::new();
    for &b in &value[open..] {
        if escaped {
            escaped = false;
            out.push(b);
            continue;
        }
        match b {
            b'\\' => {
                escaped = true;
                continue;
            }
            b'(' => {
                depth += 1;
                if depth == 1 {
                    continue;
                }
            }
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(out);
                }
            }
            _ => {}
        }
        out.push(b);
    }
    // Never closed: no comment.
    None
}

/// A display name with its quoted strings unquoted (RFC 5322 §3.2.4:
/// the quotes go, a quoted pair stands for its character).
fn unquote(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len());
    let (mut quoted, mut escaped) = (false, false);
    for &b in name {
        if escaped {
            out.push(b);
            escaped = false;
        } else if b == b'\\' && quoted {
            escaped = true;
        } else if b == b'"' {
            quoted = !quoted;
        } else {
            out.push(b);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mb(v: &str) -> (Option<String>, Option<String>) {
        let m = mailbox(v.as_bytes());
        (m.name, m.address)
    }

    fn pair(
        n: Option<&str>,
        a: Option<&str>,
    ) -> (Option<String>, Option<String>) {
        (n.map(str::to_string), a.map(str::to_string))
    }

    proptest::proptest! {
        // Cheap cases; the few shapes it declines are rare in a draw.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(
            4096
        ))]

        /// The direct reading of `address (Name)` gives what the general
        /// one gives, and declines every shape it does not know.
        #[test]
        fn address_and_comment_is_the_general_reading(
            before in "[a@b. <>,:;\"\\\\?=\t\u{a0}]{0,8}",
            inner in "[a b()<>,:;\"\\\\?=\u{e9}]{0,8}",
            after in "[ \t\r\nx()]{0,3}",
        ) {
            let v = format!("{before}({inner}){after}");
            if let Some(m) = address_and_comment(v.as_bytes()) {
                proptest::prop_assert_eq!(m, any_mailbox(v.as_bytes()));
            }
        }
    }

    #[test]
    fn addresses_cleaned() {
        for (v, want) in [
            (" a@b.example ", "a@b.example"),
            ("user at host.example", "user@host.example"),
            (" user \r\n at\thost ", "user@host"),
            ("a@b at c", "a@b at c"),
            ("user at", "user at"),
            ("a  b", "a b"),
            ("a b c d", "a b c d"),
            ("a b  c d e\tf", "a b c d e f"),
            ("", ""),
            ("caf\u{e9} at x", "caf\u{e9}@x"),
        ] {
            assert_eq!(clean_address(v.as_bytes()), want, "{v:?}");
        }
        assert_eq!(clean_address(b"a\xff at b"), "a\u{fffd}@b");
    }

    #[test]
    fn address_and_comment_forms() {
        for v in [
            "ann@a.example (Ann Lee)",
            "ann at a.example (Ann Lee)",
            " ann@a.example\t( Ann, Lee <x> \"q\" ) \r\n",
            "ann@a.example (=?utf-8?q?Ren=C3=A9?=)",
            "ann@a.example ()",
            "=?x?q?y?= (Ann)",
        ] {
            let m = address_and_comment(v.as_bytes());
            assert_eq!(m, Some(any_mailbox(v.as_bytes())), "{v:?}");
        }
        for v in [
            "ann@a.example (Ann (Lee))",
            "ann@a.example (Ann \\) Lee)",
            "ann@a.example (Ann) (Lee)",
            "ann@a.example (Ann) x",
            "\"Ann\" (A) <ann@a.example>",
            "a@a.example, b@b.example (B)",
            "g: a@a.example (A);",
            "ann@a.example (Ann",
            "<ann@a.example> (Ann)",
        ] {
            assert_eq!(address_and_comment(v.as_bytes()), None, "{v:?}");
        }
    }

    #[test]
    fn mailbox_forms() {
        assert_eq!(
            mb(" Ann Lee <ann@a.example>"),
            pair(Some("Ann Lee"), Some("ann@a.example"))
        );
        assert_eq!(
            mb("\"Lee, Ann\" <ann@a.example>"),
            pair(Some("Lee, Ann"), Some("ann@a.example"))
        );
        assert_eq!(
            mb("ann@a.example (Ann Lee)"),
            pair(Some("Ann Lee"), Some("ann@a.example"))
        );
        assert_eq!(mb("ann@a.example"), pair(None, Some("ann@a.example")));
        assert_eq!(
            mb("ann at a.example (Ann)"),
            pair(Some("Ann"), Some("ann@a.example"))
        );
        assert_eq!(
            mb("ann at home <a@x>"),
            pair(Some("ann at home"), Some("a@x"))
        );
        assert_eq!(mb("<ann@a.example>"), pair(None, Some("ann@a.example")));
        assert_eq!(
            mb("=?utf-8?q?Ren=C3=A9?= <r@a.example>, b@b.example"),
            pair(Some("René"), Some("r@a.example"))
        );
        assert_eq!(
            mb("\"Q \\\"x\\\" \" (c) <q@a.example>"),
            pair(Some("Q \"x\""), Some("q@a.example"))
        );
        assert_eq!(
            mb("team: ann@a.example, bo@b.example;"),
            pair(None, Some("ann@a.example"))
        );
        assert_eq!(mb(""), pair(None, None));
        assert_eq!(mb("<"), pair(None, None));
        assert_eq!(mb("(((\\"), pair(None, None));
    }

    #[test]
    fn reads_the_first_fields() {
        let block =
            b"From: Ann <a@x.example>\nSubject: =?utf-8?q?caf=C3=A9?=\n\
            Date: Fri, 5 Jan 2001 12:00:00 -0800\nX-Tag: one\nX-Tag: two\n\
            Subject: second\n";
        let mut fields = Vec::new();
        super::super::header::split_fields(block, false, Some(&mut fields));
        let meta = Metadata::read(
            block,
            &fields,
            &Arc::from(["x-tag".to_string(), "x-none".to_string()]),
        );
        assert_eq!(meta.subject.as_deref(), Some("café"));
        assert_eq!(
            meta.from.as_ref().and_then(|f| f.address.as_deref()),
            Some("a@x.example")
        );
        assert_eq!(
            meta.date.as_deref(),
            Some("Fri, 5 Jan 2001 12:00:00 -0800")
        );
        assert_eq!(
            meta.date_utc.map(|d| d.to_string()).as_deref(),
            Some("2001-01-05T20:00:00Z")
        );
        assert_eq!(
            meta.headers(),
            vec![("x-tag", vec!["one", "two"]), ("x-none", vec![])]
        );
    }

    /// A message costs what its fields hold, not a slot per name asked:
    /// the names are shared, the values are those found (32 names once
    /// cost a name copy and a list each, in every message: 304 MB for
    /// 100,000 messages; issue 33.17).
    #[test]
    fn a_message_holds_only_the_fields_it_has() {
        let block = b"Subject: s\nX-Tag: one\nX-Other: o\n";
        let mut fields = Vec::new();
        super::super::header::split_fields(block, false, Some(&mut fields));
        let wanted: Arc<[String]> = (0..32)
            .map(|i| format!("x-h{i}"))
            .chain(["x-tag".into()])
            .collect();
        let meta = Metadata::read(block, &fields, &wanted);
        assert!(Arc::ptr_eq(&meta.header_names, &wanted));
        assert_eq!(meta.header_values, [(32, "one".to_string())]);
        let none = Metadata::read(b"", &[], &wanted);
        assert_eq!(none.header_values.capacity(), 0);
        assert_eq!(none.headers().len(), 33);
        assert!(none.headers().iter().all(|(_, v)| v.is_empty()));
    }
}
