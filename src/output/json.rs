//! The JSON Lines envelope of `urlgrep --json`.
//!
//! One JSON object a line, each with a `"type"`. For every input, in input
//! order:
//!
//! ```text
//! {"type":"begin","path":"a.mbox"}
//! {"type":"match","path":"a.mbox","offset":120,"line":4,"column":9,
//!  "kind":"wrapped","url":"http://a.example/x","scheme":"http",
//!  "host":"a.example","flags":["joined"]}
//! {"type":"reject","path":"a.mbox","offset":300,"line":9,"column":1,
//!  "kind":"bare","url":"http://a.b:99999/","scheme":"http",
//!  "reason":"bad-port","message":"port is not a number from 0 to 65535"}
//! {"type":"error","path":"a.mbox","message":"offset 4096: corrupt deflate stream"}
//! {"type":"end","path":"a.mbox","bytes":5000,"candidates":2,"matches":1,"rejected":1}
//! ```
//!
//! and after the last input one
//! `{"type":"summary","files":…,"bytes":…,"candidates":…,"matches":…,"rejected":…,"errors":…}`.
//!
//! - Every record of an input has `"path"`: the name it was given, or
//!   `-` for stdin. Stdin also has `"source"`, its label (`<stdin>`
//!   unless `--source NAME` says otherwise). A path that is UTF-8 is
//!   written as it is; one that is not is percent-encoded (`%` itself as
//!   `%25`) and flagged `"path_escaped":true`, so `caf\xE9.txt` is
//!   `"caf%E9.txt"` with the flag and a file named `caf%E9.txt` is
//!   `"caf%E9.txt"` without it; percent-decoding a flagged path gives the
//!   bytes to reopen the file ([`crate::output::escape::unescape`]).
//! - Every string escapes the C0 and C1 controls, DEL and the bidi
//!   formatting characters (U+061C, U+200E/F, U+202A–U+202E,
//!   U+2066–U+2069) as `\u` escapes ([`crate::output::escape`]): a JSON
//!   parser gets the text back exactly, a terminal shows no control.
//! - `offset` is the byte offset of the match's first byte (delimiters
//!   included) in the decompressed input; `line` and `column` are 1-based,
//!   the column counted in bytes.
//! - `url` is the URL with wrapper whitespace removed (and the password
//!   replaced by `***` under `--redact`). Output is always valid UTF-8:
//!   bytes that are not UTF-8 are percent-encoded (`%E9`, and then `%`
//!   as `%25`) and the flag `"escaped"` says so. `host` is `null` when the URL has none.
//! - `flags`: `joined` (whitespace removed), `hyphen-break` (a line break
//!   after `-`), `trimmed` (trailing punctuation left out), `quote-prefix`
//!   (a mail quote prefix removed), `escaped` (see `url`), `qp-repair`
//!   (raw quoted-printable repaired by `--qp-repair` in text that is not
//!   searched as mail), `text-host-differs` (see `html` below),
//!   `space-encoded` (an HTML attribute value's spaces printed `%20`),
//!   `defanged` (`url` refanged from the written form).
//! - `defanged`: the URL as written, for a `defanged` match only
//!   (`hxxp://evil[.]example/`).
//! - An input searched as mail (`--mail`) adds to each `match` a `mail`
//!   object, and to its `end` record (and the `summary`) a `messages`
//!   count:
//!
//!   ```text
//!   {"type":"match",…,"url":"http://a.example/?b=c","flags":[],
//!    "mail":{"message":2,"message_offset":5120,"message_id":"<1@a.example>",
//!    "part":1,"location":"body","encoding":"quoted-printable","decoded":true}}
//!   {"type":"end",…,"matches":7,"rejected":0,"messages":3}
//!   ```
//!
//!   `message` is the 0-based index of the message in the input,
//!   `message_offset` the offset of its first byte (the `From ` line in
//!   an mbox), `message_id` its `Message-ID` as written (`null` when it has
//!   none; one that is not UTF-8 is percent-encoded, `%` as `%25`, with no
//!   flag), `part` the MIME entity (0 the message, then its parts depth
//!   first), `location` `header` or `body`, `encoding` the transfer
//!   encoding of the text (`identity`, `quoted-printable`, `base64`,
//!   `qp-repair`), and `decoded` whether the URL differs from the input
//!   bytes at `offset` (QP/base64 decoding, soft breaks, folds,
//!   `format=flowed`, HTML references). With message metadata (asked
//!   for by `--json`, `--header` or `--by` in the CLI), the `mail` object
//!   also has `from` (`{"address":…,"name":…}`, the first mailbox of
//!   `From`), `subject` (RFC 2047 decoded), `date` (as written) and
//!   `date_utc` (RFC 3339 in UTC, when the date parses), each written
//!   when the message has the field, and with `--header NAME`, `headers`
//!   (`{"name":["value",…]}`). These strings of the message are the
//!   same in each of its matches: each is cut at [`FIELD_CAP`] (200)
//!   characters, and a name keeps at most [`HEADER_VALUES_CAP`] (8)
//!   values, so that a record stays small whatever the message holds; a
//!   cut sets `message_id_truncated`, `subject_truncated`,
//!   `date_truncated`, `headers_truncated`, or in `from` `truncated`
//!   (each written only when set; nothing changes for shorter strings).
//!   `offset`, `line` and `column` point
//!   at the URL's first byte in the input as stored (decompressed); the
//!   URL's encoded form may span several lines. A mail search writes no
//!   `reject` records; its rejected candidates are counted in `end`'s
//!   `candidates` and `rejected` as raw text's are (but under `-m`,
//!   `--kind`, `--scheme` or a host filter, where they count 0).
//! - A URL found in a `text/html` part of mail (with `--json
//!   --html-context`) also has an `html` object ([`crate::mail::html`]):
//!
//!   ```text
//!   {"type":"match",…,"url":"http://evil.example/","flags":["text-host-differs"],
//!    "mail":{…},"html":{"in":"attribute","element":"a","attribute":"href",
//!    "link_text":"www.paypal.com"}}
//!   ```
//!
//!   `in` is `attribute` (with `element` and `attribute`, lower case),
//!   `comment` or `text` (with `element` when that is a raw-text element
//!   such as `script` or `style`); `link_text` is an anchor's text
//!   content for its `href` (tags stripped, references decoded, white
//!   space collapsed, at most 200 characters; empty for an image link).
//!   The flag `text-host-differs` says the link text reads as a URL or
//!   host name whose host is not the link's (`www.` and case aside).
//! - `reject` records appear only with `--rejects`; `reason` is a stable
//!   name, `message` the readable text. A candidate that is not UTF-8 is
//!   percent-encoded in `url` like a match's, but without a flag.
//! - An input that cannot be opened gets an `error` record and no
//!   `begin`/`end`; an error while reading comes before its `end`.
//! - `end` counts what the input held (after `--kind`/`--scheme`, before
//!   `--unique`): `candidates` = `matches` + `rejected`.
//! - New fields may be added; consumers should ignore fields they do not
//!   know.

use serde::{Deserialize, Serialize};

/// The most characters a match record holds of a string of its
/// message's (`message_id`, `from`'s `address` and `name`, `subject`,
/// `date`, each `--header` value), as of `link_text`: these strings are
/// repeated in every match of the message, so a 2.5 MB `Subject` holding
/// 60,000 URLs would otherwise be written 60,000 times. Past it the
/// string is cut (at a character) and flagged `*_truncated`.
pub const FIELD_CAP: usize = 200;

/// The most values of one `--header` name a match record holds (the
/// first ones, in header order); past it `headers_truncated` is set.
pub const HEADER_VALUES_CAP: usize = 8;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// One line of the JSON Lines output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Record<'a> {
    /// An input starts.
    #[serde(borrow)]
    Begin(Origin<'a>),
    /// A URL.
    #[serde(borrow)]
    Match(MatchRecord<'a>),
    /// A rejected candidate (with `--rejects`).
    #[serde(borrow)]
    Reject(RejectRecord<'a>),
    /// An input could not be (fully) read.
    #[serde(borrow)]
    Error(ErrorRecord<'a>),
    /// An input ends.
    #[serde(borrow)]
    End(EndRecord<'a>),
    /// The run ends.
    Summary(SummaryRecord),
}

/// Declares record structs, each with its `into_owned` (and
/// [`owned::Own`]) derived from the same field list: a field is said
/// once, here.
macro_rules! records {
    ($(
        $(#[$m:meta])*
        pub struct $name:ident<$lt:lifetime> {
            $($(#[$fm:meta])* pub $f:ident: $t:ty),* $(,)?
        }
    )*) => {$(
        $(#[$m])*
        pub struct $name<$lt> {
            $($(#[$fm])* pub $f: $t),*
        }

        impl $name<'_> {
            /// The record, owning every string it holds.
            pub fn into_owned(self) -> $name<'static> {
                $name { $($f: owned::Own::own(self.$f)),* }
            }
        }

        impl owned::Own for $name<'_> {
            type Owned = $name<'static>;

            fn own(self) -> $name<'static> {
                self.into_owned()
            }
        }
    )*};
}

records! {
    /// The name of an input: `path` always (`-` for stdin), `source` for
    /// stdin only.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct Origin<'a> {
        /// A file's path as given, or `-` for stdin (always written by
        /// urlgrep; optional for records of older versions).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub path: Option<Cow<'a, str>>,
        /// The label of stdin (`--source`).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub source: Option<Cow<'a, str>>,
        /// Set when the file name is not UTF-8: `path` is then
        /// percent-encoded, `%` included, and
        /// [`unescape`](crate::output::escape::unescape) gives its bytes.
        /// Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub path_escaped: bool,
    }

    /// A URL found.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct MatchRecord<'a> {
        /// A file's path as given, or `-` for stdin (always written by
        /// urlgrep; optional for records of older versions).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub path: Option<Cow<'a, str>>,
        /// The label of stdin (`--source`).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub source: Option<Cow<'a, str>>,
        /// Set when the file name is not UTF-8: `path` is then
        /// percent-encoded, `%` included, and
        /// [`unescape`](crate::output::escape::unescape) gives its bytes.
        /// Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub path_escaped: bool,
        /// Byte offset of the first byte (delimiters included).
        pub offset: u64,
        /// 1-based line.
        pub line: u64,
        /// 1-based byte column.
        pub column: u64,
        /// `wrapped`, `angle`, `quoted` or `bare`.
        #[serde(borrow)]
        pub kind: Cow<'a, str>,
        /// The URL.
        #[serde(borrow)]
        pub url: Cow<'a, str>,
        /// The lower-case scheme.
        #[serde(borrow)]
        pub scheme: Cow<'a, str>,
        /// The lower-case host, if any.
        #[serde(borrow)]
        pub host: Option<Cow<'a, str>>,
        /// What was done to the text; see the module docs.
        #[serde(borrow)]
        pub flags: Vec<Cow<'a, str>>,
        /// The URL as written, when it was defanged (`url` is refanged).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub defanged: Option<Cow<'a, str>>,
        /// The relative reference as written, when the URL is one resolved
        /// (kind `resolved`, `--resolve`).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub reference: Option<Cow<'a, str>>,
        /// The message the URL was in, when the input was searched as mail
        /// (boxed: the other records stay small).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub mail: Option<Box<MailRecord<'a>>>,
        /// Where in its `text/html` part the URL was (mail searched with
        /// `--json --html-context`; boxed like `mail`).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub html: Option<Box<HtmlRecord<'a>>>,
        /// The record the URL was in, when the input was read as an
        /// archive other than mail (a web archive): its index and
        /// offset, then its container's fields (boxed like `mail`).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub record: Option<Box<PartRecord<'a>>>,
    }

    /// Where in an HTML part a URL was ([`crate::mail::HtmlLink`]).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct HtmlRecord<'a> {
        /// `attribute`, `text` or `comment`.
        #[serde(borrow, rename = "in")]
        pub place: Cow<'a, str>,
        /// The element, lower case: the attribute's, or the raw-text element
        /// (`script`, `style`, …) the text is in.
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub element: Option<Cow<'a, str>>,
        /// The attribute, lower case.
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub attribute: Option<Cow<'a, str>>,
        /// An anchor's link text (for its `href`): tags stripped, references
        /// decoded, white space collapsed, at most 200 characters.
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub link_text: Option<Cow<'a, str>>,
    }

    /// Where in a mail input a URL was (`--mail`).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct MailRecord<'a> {
        /// 0-based index of the message in the input.
        pub message: u64,
        /// Byte offset of the message (its `From ` line in an mbox).
        pub message_offset: u64,
        /// The `Message-ID` as written, angle brackets kept, if any (at
        /// most [`FIELD_CAP`] characters).
        #[serde(borrow)]
        pub message_id: Option<Cow<'a, str>>,
        /// Set when `message_id` was cut to [`FIELD_CAP`] characters.
        /// Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub message_id_truncated: bool,
        /// The MIME entity: 0 the message itself, then its parts depth first
        /// (as Python's `Message.walk()` visits them).
        pub part: u64,
        /// `header` or `body`.
        #[serde(borrow)]
        pub location: Cow<'a, str>,
        /// `identity`, `quoted-printable`, `base64` or `qp-repair`.
        #[serde(borrow)]
        pub encoding: Cow<'a, str>,
        /// Whether the URL differs from the bytes at `offset`: decoding,
        /// unfolding, unflowing or HTML references changed it.
        pub decoded: bool,
        /// The first mailbox of `From` (with metadata, when the message has
        /// the field).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub from: Option<FromRecord<'a>>,
        /// `Subject`, decoded (with metadata, when present; at most
        /// [`FIELD_CAP`] characters).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub subject: Option<Cow<'a, str>>,
        /// Set when `subject` was cut. Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub subject_truncated: bool,
        /// `Date` as written (with metadata, when present; at most
        /// [`FIELD_CAP`] characters).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub date: Option<Cow<'a, str>>,
        /// Set when `date` was cut. Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub date_truncated: bool,
        /// That date in UTC, RFC 3339 (`2001-01-05T20:00:00Z`), when it
        /// parses.
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub date_utc: Option<Cow<'a, str>>,
        /// The fields asked for by `--header NAME`: lower-case name → the
        /// decoded values of every field of that name (an empty list when
        /// the message has none); each value at most [`FIELD_CAP`]
        /// characters, at most [`HEADER_VALUES_CAP`] values a name.
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub headers: Option<BTreeMap<Cow<'a, str>, Vec<Cow<'a, str>>>>,
        /// Set when a value of `headers` was cut, or values left out.
        /// Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub headers_truncated: bool,
    }

    /// A message's sender (RFC 5322 §3.4 mailbox).
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct FromRecord<'a> {
        /// The address, `null` when empty.
        #[serde(borrow)]
        pub address: Option<Cow<'a, str>>,
        /// The display name (RFC 2047 decoded, unquoted), `null` when empty.
        #[serde(borrow)]
        pub name: Option<Cow<'a, str>>,
        /// Set when `address` or `name` was cut to [`FIELD_CAP`]
        /// characters. Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub truncated: bool,
    }

    /// A candidate the validator rejected.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct RejectRecord<'a> {
        /// A file's path as given, or `-` for stdin (always written by
        /// urlgrep; optional for records of older versions).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub path: Option<Cow<'a, str>>,
        /// The label of stdin (`--source`).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub source: Option<Cow<'a, str>>,
        /// Set when the file name is not UTF-8: `path` is then
        /// percent-encoded, `%` included, and
        /// [`unescape`](crate::output::escape::unescape) gives its bytes.
        /// Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub path_escaped: bool,
        /// Byte offset of the first byte.
        pub offset: u64,
        /// 1-based line.
        pub line: u64,
        /// 1-based byte column.
        pub column: u64,
        /// How it was delimited.
        #[serde(borrow)]
        pub kind: Cow<'a, str>,
        /// The candidate text.
        #[serde(borrow)]
        pub url: Cow<'a, str>,
        /// The lower-case scheme as written.
        #[serde(borrow)]
        pub scheme: Cow<'a, str>,
        /// Stable reason name (`bad-port`, …).
        #[serde(borrow)]
        pub reason: Cow<'a, str>,
        /// Readable reason.
        #[serde(borrow)]
        pub message: Cow<'a, str>,
    }

    /// An input error.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ErrorRecord<'a> {
        /// A file's path as given, or `-` for stdin (always written by
        /// urlgrep; optional for records of older versions).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub path: Option<Cow<'a, str>>,
        /// The label of stdin (`--source`).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub source: Option<Cow<'a, str>>,
        /// Set when the file name is not UTF-8: `path` is then
        /// percent-encoded, `%` included, and
        /// [`unescape`](crate::output::escape::unescape) gives its bytes.
        /// Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub path_escaped: bool,
        /// What went wrong.
        #[serde(borrow)]
        pub message: Cow<'a, str>,
    }

    /// The counts of one input.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct EndRecord<'a> {
        /// A file's path as given, or `-` for stdin (always written by
        /// urlgrep; optional for records of older versions).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub path: Option<Cow<'a, str>>,
        /// The label of stdin (`--source`).
        #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
        pub source: Option<Cow<'a, str>>,
        /// Set when the file name is not UTF-8: `path` is then
        /// percent-encoded, `%` included, and
        /// [`unescape`](crate::output::escape::unescape) gives its bytes.
        /// Written only when set.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pub path_escaped: bool,
        /// Bytes searched (decompressed).
        pub bytes: u64,
        /// `matches` + `rejected`.
        pub candidates: u64,
        /// URLs found.
        pub matches: u64,
        /// Candidates rejected.
        pub rejected: u64,
        /// Messages, when the input was searched as mail.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub messages: Option<u64>,
    }
}

/// The totals of the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummaryRecord {
    /// Inputs searched.
    pub files: u64,
    /// Bytes searched.
    pub bytes: u64,
    /// Candidates.
    pub candidates: u64,
    /// URLs found.
    pub matches: u64,
    /// Candidates rejected.
    pub rejected: u64,
    /// Inputs that could not be (fully) read.
    pub errors: u64,
    /// Messages, when an input was searched as mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<u64>,
}

mod owned;
mod part;

pub use part::{PartJson, PartRecord};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tagged_and_strict() {
        let line = r#"{"type":"end","path":"a","bytes":1,"candidates":2,"matches":1,"rejected":1}"#;
        let r: Record<'_> = serde_json::from_str(line).unwrap();
        assert!(matches!(r, Record::End(EndRecord { matches: 1, .. })));
        assert_eq!(serde_json::to_string(&r).unwrap(), line);
        let extra = r#"{"type":"begin","path":"a","x":1}"#;
        assert!(serde_json::from_str::<Record<'_>>(extra).is_err());
    }
}
