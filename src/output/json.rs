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
//! - An input is named by `"path"`, or by `"source"` for stdin (`<stdin>`
//!   unless `--source NAME` says otherwise).
//! - `offset` is the byte offset of the match's first byte (delimiters
//!   included) in the decompressed input; `line` and `column` are 1-based,
//!   the column counted in bytes.
//! - `url` is the URL with wrapper whitespace removed (and the password
//!   replaced by `***` under `--redact`). Output is always valid UTF-8:
//!   bytes that are not UTF-8 are percent-encoded (`%E9`) and the flag
//!   `"escaped"` says so. `host` is `null` when the URL has none.
//! - `flags`: `joined` (whitespace removed), `hyphen-break` (a line break
//!   after `-`), `trimmed` (trailing punctuation left out), `quote-prefix`
//!   (a mail quote prefix removed), `escaped` (see `url`).
//! - `reject` records appear only with `--rejects`; `reason` is a stable
//!   name, `message` the readable text.
//! - An input that cannot be opened gets an `error` record and no
//!   `begin`/`end`; an error while reading comes before its `end`.
//! - `end` counts what the input held (after `--kind`/`--scheme`, before
//!   `--unique`): `candidates` = `matches` + `rejected`.
//! - New fields may be added; consumers should ignore fields they do not
//!   know.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

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

/// The name of an input: exactly one of the two is set.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Origin<'a> {
    /// A file's path.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub path: Option<Cow<'a, str>>,
    /// The label of stdin.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub source: Option<Cow<'a, str>>,
}

/// A URL found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRecord<'a> {
    /// A file's path.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub path: Option<Cow<'a, str>>,
    /// The label of stdin.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub source: Option<Cow<'a, str>>,
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
}

/// A candidate the validator rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RejectRecord<'a> {
    /// A file's path.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub path: Option<Cow<'a, str>>,
    /// The label of stdin.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub source: Option<Cow<'a, str>>,
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
    /// A file's path.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub path: Option<Cow<'a, str>>,
    /// The label of stdin.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub source: Option<Cow<'a, str>>,
    /// What went wrong.
    #[serde(borrow)]
    pub message: Cow<'a, str>,
}

/// The counts of one input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndRecord<'a> {
    /// A file's path.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub path: Option<Cow<'a, str>>,
    /// The label of stdin.
    #[serde(default, borrow, skip_serializing_if = "Option::is_none")]
    pub source: Option<Cow<'a, str>>,
    /// Bytes searched (decompressed).
    pub bytes: u64,
    /// `matches` + `rejected`.
    pub candidates: u64,
    /// URLs found.
    pub matches: u64,
    /// Candidates rejected.
    pub rejected: u64,
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
}

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
