//! Corpus statistics as additive counters.
//!
//! Every statistic urlgrep reports is a sum, so partial counts from many
//! runs (one per machine, or per file) add up to the counts of the whole:
//! [`Counts::merge`] is the only way counts are combined, on one machine
//! (per file, then the run) and across machines (`urlgrep merge`).
//!
//! The partial format (`--stats-tsv`) is one counter a line,
//! `dim<TAB>key<TAB>count`, sorted by dimension and key; tabs, newlines
//! and backslashes in a key are written `\t`, `\n`, `\\`. Dimensions:
//!
//! | dim      | keys                                                    |
//! |----------|---------------------------------------------------------|
//! | `total`  | `files`, `bytes`, `candidates`, `matches`, `rejected`, `errors`, `messages` |
//! | `reject` | reject reason names (`bad-port`, …)                     |
//! | `scheme` | lower-case scheme names of matches                      |
//! | `kind`   | `wrapped`, `angle`, `quoted`, `bare` (matches)          |
//! | `host`   | lower-case hosts of matches                             |
//! | `tld`    | top-level domains of those hosts                        |
//! | `location` | `header`, `body`: where mail matches were (`--mail`)  |
//! | `encoding` | `identity`, `quoted-printable`, `base64`, `qp-repair` (mail matches) |
//! | `urls-per-message` | messages by URL count: `0`, `1`, `2-3`, `4-7`, … |
//!
//! `total`/`messages` counts the messages of the inputs searched as mail;
//! `urls-per-message` sums to it.
//! Unique URL counts and elapsed time are not additive and are not part
//! of the partials.

use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Additive counters, by dimension and key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    dims: BTreeMap<String, HashMap<String, u64>>,
}

/// A line of a partial that is not `dim<TAB>key<TAB>count`.
#[derive(Debug)]
pub struct TsvError {
    line: u64,
    kind: TsvErrorKind,
}

#[derive(Debug)]
enum TsvErrorKind {
    Io(io::Error),
    Fields,
    Count(String),
}

impl fmt::Display for TsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TsvErrorKind::Io(e) => write!(f, "line {}: {e}", self.line),
            TsvErrorKind::Fields => write!(
                f,
                "line {}: expected three tab-separated fields \
                 (dim, key, count)",
                self.line
            ),
            TsvErrorKind::Count(c) => write!(
                f,
                "line {}: count {c:?} is not a non-negative integer",
                self.line
            ),
        }
    }
}

impl std::error::Error for TsvError {}

impl Counts {
    /// No counts.
    pub fn new() -> Counts {
        Counts::default()
    }

    /// Whether no counter was added.
    pub fn is_empty(&self) -> bool {
        self.dims.is_empty()
    }

    /// Adds `n` to the counter `dim`/`key`.
    pub fn add(&mut self, dim: &str, key: &str, n: u64) {
        let keys = match self.dims.get_mut(dim) {
            Some(k) => k,
            None => self.dims.entry(dim.to_string()).or_default(),
        };
        match keys.get_mut(key) {
            Some(c) => *c = c.saturating_add(n),
            None => {
                keys.insert(key.to_string(), n);
            }
        }
    }

    /// The counter `dim`/`key` (0 when absent).
    pub fn get(&self, dim: &str, key: &str) -> u64 {
        self.dims.get(dim).and_then(|k| k.get(key)).copied().unwrap_or(0)
    }

    /// Adds every counter of `other`.
    pub fn merge(&mut self, other: &Counts) {
        for (dim, keys) in &other.dims {
            for (key, &n) in keys {
                self.add(dim, key, n);
            }
        }
    }

    /// The counters of `dim`, sorted by key.
    pub fn dim(&self, dim: &str) -> Vec<(&str, u64)> {
        let mut v: Vec<_> = self
            .dims
            .get(dim)
            .map(|k| k.iter().map(|(k, &n)| (k.as_str(), n)).collect())
            .unwrap_or_default();
        v.sort_unstable();
        v
    }

    /// The `n` largest counters of `dim`, largest first (ties by key).
    pub fn top(&self, dim: &str, n: usize) -> Vec<(&str, u64)> {
        let mut v = self.dim(dim);
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v.truncate(n);
        v
    }

    /// Writes the partial format, sorted.
    pub fn write_tsv<W: Write>(&self, mut wtr: W) -> io::Result<()> {
        for dim in self.dims.keys() {
            for (key, n) in self.dim(dim) {
                writeln!(wtr, "{}\t{}\t{n}", escape(dim), escape(key))?;
            }
        }
        Ok(())
    }

    /// Reads (and adds up) a partial. Empty lines and lines starting
    /// with `#` are skipped.
    pub fn read_tsv<R: BufRead>(rdr: R) -> Result<Counts, TsvError> {
        let mut counts = Counts::new();
        counts.add_tsv(rdr)?;
        Ok(counts)
    }

    /// Adds the counters of a partial to these.
    pub fn add_tsv<R: BufRead>(&mut self, rdr: R) -> Result<(), TsvError> {
        for (i, line) in rdr.lines().enumerate() {
            let line_no = i as u64 + 1;
            let err = |kind| TsvError { line: line_no, kind };
            let line = line.map_err(|e| err(TsvErrorKind::Io(e)))?;
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split('\t');
            let (Some(dim), Some(key), Some(count), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(err(TsvErrorKind::Fields));
            };
            let n: u64 = count
                .parse()
                .map_err(|_| err(TsvErrorKind::Count(count.to_string())))?;
            self.add(&unescape(dim), &unescape(key), n);
        }
        Ok(())
    }
}

fn escape(s: &str) -> String {
    if !s.contains(['\t', '\n', '\\']) {
        return s.to_string();
    }
    s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n")
}

fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// The `urls-per-message` key of a message with `n` URLs: `0`, `1`,
/// then powers of two (`2-3`, `4-7`, …).
pub fn per_message_bucket(n: u64) -> String {
    if n < 2 {
        return n.to_string();
    }
    let lo = 1u64 << (63 - n.leading_zeros());
    format!("{lo}-{}", lo.saturating_mul(2) - 1)
}

/// The lower bound of a `urls-per-message` key, for sorting.
fn bucket_low(key: &str) -> u64 {
    key.split('-').next().and_then(|k| k.parse().ok()).unwrap_or(u64::MAX)
}

/// Everything the statistics report shows.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// The additive counters.
    pub counts: Counts,
    /// Distinct URLs among the matches, when known (not additive).
    pub unique_urls: Option<u64>,
    /// Wall-clock time of the run, when known.
    pub elapsed: Option<Duration>,
    /// How many hosts and TLDs to list.
    pub top: usize,
}

const TOTALS: [&str; 7] = [
    "files",
    "bytes",
    "candidates",
    "matches",
    "rejected",
    "errors",
    "messages",
];

impl Summary {
    fn mib_per_sec(&self) -> Option<f64> {
        let secs = self.elapsed?.as_secs_f64();
        let bytes = self.counts.get("total", "bytes") as f64;
        (secs > 0.0).then(|| bytes / (1024.0 * 1024.0) / secs)
    }

    /// The readable report.
    pub fn write_text<W: Write>(&self, mut w: W) -> io::Result<()> {
        let c = &self.counts;
        let total = |k| c.get("total", k);
        let bytes = total("bytes");
        writeln!(w, "files       {:>14}", total("files"))?;
        writeln!(
            w,
            "bytes       {:>14}  ({:.1} MiB)",
            bytes,
            bytes as f64 / (1024.0 * 1024.0)
        )?;
        if total("messages") > 0 {
            writeln!(w, "messages    {:>14}", total("messages"))?;
        }
        writeln!(w, "candidates  {:>14}", total("candidates"))?;
        writeln!(w, "matches     {:>14}", total("matches"))?;
        if let Some(u) = self.unique_urls {
            writeln!(w, "unique URLs {u:>14}")?;
        }
        writeln!(w, "rejected    {:>14}", total("rejected"))?;
        if total("errors") > 0 {
            writeln!(w, "errors      {:>14}", total("errors"))?;
        }
        if let Some(e) = self.elapsed {
            write!(w, "elapsed     {:>14.3} s", e.as_secs_f64())?;
            if let Some(r) = self.mib_per_sec() {
                write!(w, "  ({r:.1} MiB/s)")?;
            }
            writeln!(w)?;
        }
        let sections = [
            ("rejections by reason", c.top("reject", usize::MAX)),
            ("matches by scheme", c.top("scheme", usize::MAX)),
            ("matches by kind", c.top("kind", usize::MAX)),
            ("top hosts", c.top("host", self.top)),
            ("top TLDs", c.top("tld", self.top)),
            ("mail matches by location", c.top("location", usize::MAX)),
            ("mail matches by encoding", c.top("encoding", usize::MAX)),
            ("messages by URL count", self.per_message()),
        ];
        for (title, rows) in sections {
            if rows.is_empty() {
                continue;
            }
            writeln!(w, "\n{title}")?;
            for (key, n) in rows {
                writeln!(w, "  {n:>12}  {key}")?;
            }
        }
        Ok(())
    }

    /// The `urls-per-message` counters, fewest URLs first.
    fn per_message(&self) -> Vec<(&str, u64)> {
        let mut v = self.counts.dim("urls-per-message");
        v.sort_by_key(|(k, _)| bucket_low(k));
        v
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> Value {
        let c = &self.counts;
        let mut obj = Map::new();
        for k in TOTALS {
            obj.insert(k.into(), json!(c.get("total", k)));
        }
        obj.insert("unique_urls".into(), json!(self.unique_urls));
        obj.insert(
            "elapsed_secs".into(),
            json!(self.elapsed.map(|e| e.as_secs_f64())),
        );
        obj.insert("mib_per_sec".into(), json!(self.mib_per_sec()));
        let table = |dim| {
            let m: Map<String, Value> = c
                .dim(dim)
                .into_iter()
                .map(|(k, n)| (k.into(), json!(n)))
                .collect();
            Value::Object(m)
        };
        obj.insert("rejections".into(), table("reject"));
        obj.insert("schemes".into(), table("scheme"));
        obj.insert("kinds".into(), table("kind"));
        obj.insert("locations".into(), table("location"));
        obj.insert("encodings".into(), table("encoding"));
        obj.insert("urls_per_message".into(), table("urls-per-message"));
        let top = |dim| {
            let rows: Vec<Value> = c
                .top(dim, self.top)
                .into_iter()
                .map(|(k, n)| json!({ "key": k, "count": n }))
                .collect();
            Value::Array(rows)
        };
        obj.insert("top_hosts".into(), top("host"));
        obj.insert("top_tlds".into(), top("tld"));
        Value::Object(obj)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_round_trip_and_merge() {
        let mut a = Counts::new();
        a.add("total", "matches", 3);
        a.add("host", "a\tb\\c", 2);
        let mut out = Vec::new();
        a.write_tsv(&mut out).unwrap();
        assert_eq!(out, b"host\ta\\tb\\\\c\t2\ntotal\tmatches\t3\n");
        let mut b = Counts::read_tsv(&out[..]).unwrap();
        assert_eq!(b, a);
        b.merge(&a);
        assert_eq!(b.get("total", "matches"), 6);
        assert_eq!(b.get("host", "a\tb\\c"), 4);
    }

    #[test]
    fn bad_partials_say_where() {
        let e = Counts::read_tsv(&b"total\tx\t1\nfoo\n"[..]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: expected three tab-separated fields (dim, key, count)"
        );
        let e = Counts::read_tsv(&b"a\tb\t-1\n"[..]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: count \"-1\" is not a non-negative integer"
        );
    }

    #[test]
    fn per_message_buckets() {
        let keys: Vec<_> =
            [0, 1, 2, 3, 4, 7, 8, 1000].map(per_message_bucket).into();
        assert_eq!(
            keys,
            ["0", "1", "2-3", "2-3", "4-7", "4-7", "8-15", "512-1023"]
        );
        assert_eq!(bucket_low("512-1023"), 512);
    }

    #[test]
    fn top_breaks_ties_by_key() {
        let mut c = Counts::new();
        for (k, n) in [("b", 2), ("a", 2), ("c", 5), ("d", 1)] {
            c.add("host", k, n);
        }
        assert_eq!(c.top("host", 3), [("c", 5), ("a", 2), ("b", 2)]);
    }
}
