//! Corpus statistics as additive counters.
//!
//! Every statistic urlgrep reports is a sum, so partial counts from many
//! runs (one per machine, or per file) add up to the counts of the whole:
//! [`Counts::merge`] is the only way counts are combined, on one machine
//! (per file, then the run) and across machines (`urlgrep merge`).
//!
//! The partial format (`--stats-tsv`) is one counter a line,
//! `dim<TAB>key<TAB>count`, sorted by dimension and key; tabs, newlines
//! and backslashes in a key are written `\t`, `\n`, `\\`, controls and
//! bidi characters `\uXXXX`. The counters stand between a header line,
//! `#urlgrep-partial<TAB>1`, and an end record, `#end<TAB>N` (N counter
//! lines), so that a partial cut short is refused ([`Counts::add_tsv`]). Dimensions:
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
//! | `error`  | `host`, `tld`, `by-P-host`, …: how far a count of that dimension may be above the true count (absent while exact) |
//! | `hll-urls`, `hll-hosts` | HyperLogLog registers of the URLs and hosts matched: `INDEX<TAB>RANK` |
//! | `by-P` | with `--by P` (`year`, `month`, `day`): matches by the UTC date of their message, key the period (`2001`, `2001-05`, `2001-05-31`, or `unknown`: no parseable date, or not mail) |
//! | `by-P-messages` | messages with at least one match, by period |
//! | `by-P-scheme`, `by-P-host` | matches by period and scheme (host): key `PERIOD SCHEME` (`PERIOD HOST`), one space between |
//!
//! The period is in the dimension's keys, so partials of many runs (and
//! the Spark driver's) still merge by addition. During a run each `by-`
//! dimension is a bounded Space-Saving summary (`by_stats.rs`): exact up
//! to 32,768 keys (periods, `PERIOD HOST`, `PERIOD SCHEME`), then the
//! largest counts, each over by at most `error`/`by-P-…`.
//!
//! `total`/`messages` counts the messages of the inputs searched as mail;
//! `urls-per-message` sums to it.
//!
//! The `hll-` dimensions are the one exception to summing: they merge by
//! taking the larger value of each key (the union of two HyperLogLog
//! sketches), so the unique URLs and hosts of shards merge too, within the
//! sketch's 0.81 % standard error (see `hll.rs`). A tool that sums
//! partials itself (the Spark example) takes the maximum for them.
//! Elapsed time is not part of the partials.
//!
//! Hosts and TLDs come from a bounded Space-Saving summary during a run:
//! exact while a run meets at most 65,536 distinct hosts (or TLDs), and
//! after that the largest counts, each over by at most `error`/`host`
//! (see `url_stats.rs` for the memory each mode needs).

mod partial;

use super::hll::{Hll, STD_ERROR};
pub use partial::{Checked, TsvError, END, HEADER};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};

use std::io::{self, Write};
use std::time::Duration;

/// The grouping of `--by`: statistics grouped by the UTC date of each
/// match's message (or web-archive record), or by the site of its
/// web-archive record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Period {
    /// `2001`.
    Year,
    /// `2001-05`.
    Month,
    /// `2001-05-31`.
    Day,
    /// The host of the web-archive record's target URI (the page the URL
    /// is on): `by-site-host` is then the site-to-host link table.
    Site,
}

impl Period {
    /// `year`, `month` or `day`.
    pub fn name(self) -> &'static str {
        match self {
            Period::Year => "year",
            Period::Month => "month",
            Period::Day => "day",
            Period::Site => "site",
        }
    }

    /// The key of the period `date` falls in; `unknown` without a date
    /// (and for [`Period::Site`], which has none).
    pub fn key(self, date: Option<crate::mail::date::UtcTime>) -> String {
        let Some(date) = date else { return "unknown".to_string() };
        let (y, m, d) = date.ymd();
        match self {
            Period::Year => format!("{y:04}"),
            Period::Month => format!("{y:04}-{m:02}"),
            Period::Day => format!("{y:04}-{m:02}-{d:02}"),
            Period::Site => "unknown".to_string(),
        }
    }

    /// The key of the period of an RFC 3339 date in UTC (a web-archive
    /// record's, `2014-01-03T03:03:21Z`): its first 4, 7 or 10
    /// characters; `unknown` without one (and for [`Period::Site`]).
    pub fn key_rfc3339(self, date: Option<&str>) -> String {
        let len = match self {
            Period::Year => 4,
            Period::Month => 7,
            Period::Day => 10,
            Period::Site => return "unknown".to_string(),
        };
        date.and_then(|d| d.get(..len))
            .filter(|k| k.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
            .map_or_else(|| "unknown".to_string(), str::to_owned)
    }
}

/// Additive counters, by dimension and key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    dims: BTreeMap<String, HashMap<String, u64>>,
}

impl Counts {
    /// No counts.
    pub fn new() -> Counts {
        Counts::default()
    }

    /// Whether no counter was added.
    pub fn is_empty(&self) -> bool {
        self.dims.is_empty()
    }

    /// Adds `n` to the counter `dim`/`key` (in an `hll-` dimension:
    /// raises it to `n`).
    pub fn add(&mut self, dim: &str, key: &str, n: u64) {
        let max = is_max_dim(dim);
        let keys = match self.dims.get_mut(dim) {
            Some(k) => k,
            None => self.dims.entry(dim.to_string()).or_default(),
        };
        match keys.get_mut(key) {
            Some(c) => counted(c, n, max),
            None => {
                keys.insert(key.to_string(), n);
            }
        }
    }

    /// [`Counts::add`] of each `(key, n)` of `items` in `dim`: the
    /// dimension found once, each key hashed once (an add hashes a new
    /// key twice, and copies it: the host and register counters of the
    /// report's end, 80,000 on 50,000 hosts, cost 900 instructions
    /// each).
    pub(crate) fn add_each<K: Into<String>>(
        &mut self,
        dim: &str,
        items: impl IntoIterator<Item = (K, u64)>,
    ) {
        let mut items = items.into_iter().peekable();
        if items.peek().is_none() {
            return;
        }
        let max = is_max_dim(dim);
        let keys = match self.dims.get_mut(dim) {
            Some(k) => k,
            None => self.dims.entry(dim.to_string()).or_default(),
        };
        keys.reserve(items.size_hint().0);
        for (key, n) in items {
            counted(keys.entry(key.into()).or_insert(0), n, max);
        }
    }

    /// Makes room for `n` more keys of `dim` (nothing when `n` is 0: a
    /// dimension exists once it has a counter).
    pub(crate) fn reserve(&mut self, dim: &str, n: usize) {
        if n > 0 {
            self.dims.entry(dim.to_string()).or_default().reserve(n);
        }
    }

    /// [`Counts::add`], but `false` (and nothing changed) when the sum
    /// would pass `u64::MAX`: how a partial is read.
    pub fn add_checked(&mut self, dim: &str, key: &str, n: u64) -> bool {
        let now = self.get(dim, key);
        if !is_max_dim(dim) && now.checked_add(n).is_none() {
            return false;
        }
        self.add(dim, key, n);
        true
    }

    /// The number of distinct elements estimated from the HyperLogLog
    /// registers of `dim` (`hll-urls`, `hll-hosts`); `None` when there
    /// are none or they are not registers.
    pub fn estimate(&self, dim: &str) -> Option<f64> {
        let keys = self.dims.get(dim)?;
        let mut sketch = Hll::new();
        for (index, &rank) in keys {
            if !sketch.raise(index.parse().ok()?, rank) {
                return None;
            }
        }
        Some(sketch.estimate())
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

    /// The number of counters of `dim`.
    pub fn dim_len(&self, dim: &str) -> usize {
        self.dims.get(dim).map_or(0, HashMap::len)
    }

    /// The `n` largest counters of `dim`, largest first (ties by key).
    pub fn top(&self, dim: &str, n: usize) -> Vec<(&str, u64)> {
        let v: Vec<_> = self
            .dims
            .get(dim)
            .map(|k| k.iter().map(|(k, &n)| (k.as_str(), n)).collect())
            .unwrap_or_default();
        top_of(v, n)
    }

    /// The dimensions that have counters, sorted.
    pub fn dims(&self) -> impl Iterator<Item = &str> {
        self.dims.keys().map(String::as_str)
    }
}

/// The `n` largest counters of `v` (distinct keys), largest first, ties
/// by key: [`Counts::top`].
pub(super) fn top_of(mut v: Vec<(&str, u64)>, n: usize) -> Vec<(&str, u64)> {
    // A tie is ordered by the keys' first 8 bytes as numbers
    // ([`prefix`]) before the strings: the hosts of `--stats` on
    // 50,000 hosts seen as often each are all tied, and each compare
    // of strings was a `memcmp` call. (Computed in each compare, not
    // kept with the key: under `--exact-stats` this vector holds a
    // counter of each of millions of hosts.)
    let order = |a: &(&str, u64), b: &(&str, u64)| {
        b.1.cmp(&a.1)
            .then_with(|| prefix(a.0).cmp(&prefix(b.0)))
            .then_with(|| a.0.cmp(b.0))
    };
    // The first `n` chosen, then only they ordered: the order is
    // total (keys differ), so this is the whole sort's prefix (a sort
    // of 50,000 hosts by key, then by count, for the ten shown was a
    // tenth of `--stats` on a million URLs).
    if n < v.len() {
        v.select_nth_unstable_by(n, order);
        v.truncate(n);
    }
    v.sort_unstable_by(order);
    v
}

/// The first 8 bytes of `key` as a big-endian number, zero-padded: of
/// two keys, the one with the smaller prefix is the smaller (a key
/// that is a prefix of the other pads to the same number or less).
fn prefix(key: &str) -> u64 {
    if let Some(word) = key.as_bytes().first_chunk::<8>() {
        return u64::from_be_bytes(*word);
    }
    let mut word = 0;
    for (i, &b) in key.as_bytes().iter().enumerate() {
        word |= u64::from(b) << (56 - 8 * i);
    }
    word
}

/// Adds `n` to the counter `c`: a sum, or the larger of the two in a
/// dimension of maxima ([`is_max_dim`]).
fn counted(c: &mut u64, n: u64, max: bool) {
    *c = if max { (*c).max(n) } else { c.saturating_add(n) };
}

/// Whether `dim` merges by maximum (HyperLogLog registers).
pub(super) fn is_max_dim(dim: &str) -> bool {
    dim.starts_with("hll-")
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

/// The periods of `--by`, in report order.
const PERIODS: [Period; 4] =
    [Period::Year, Period::Month, Period::Day, Period::Site];

/// A top list's title, saying how far its counts may be over.
fn top_title(title: &str, error: u64) -> String {
    if error == 0 {
        title.to_string()
    } else {
        format!("{title} (approximate: each count over by at most {error})")
    }
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
    /// Distinct URLs among the matches, when known exactly; otherwise
    /// the report estimates them from the `hll-urls` sketch.
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
    /// The summary read where its counters are.
    fn of(&self) -> SummaryOf<'_> {
        SummaryOf {
            counts: &self.counts,
            unique_urls: self.unique_urls,
            elapsed: self.elapsed,
            top: self.top,
            keys: None,
        }
    }

    /// The readable report.
    pub fn write_text<W: Write>(&self, w: W) -> io::Result<()> {
        self.of().write_text(w)
    }

    /// Distinct URLs, and whether the number is an estimate.
    pub fn unique_urls(&self) -> Option<(u64, bool)> {
        self.of().unique_urls()
    }

    /// Distinct hosts, and whether the number is an estimate: exact while
    /// the host counts are (no `error`/`host`), then from `hll-hosts`.
    pub fn unique_hosts(&self) -> Option<(u64, bool)> {
        self.of().unique_hosts()
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> Value {
        self.of().to_json()
    }
}

/// Counters kept outside a [`Counts`] (`url_stats.rs`' `Keys`: the
/// hosts, TLDs and sketches), read in place: each method answers what
/// the same question of the [`Counts`] they would be added to answers,
/// or `None` for a dimension that is not theirs.
pub(crate) trait Kept: std::fmt::Debug {
    /// [`Counts::top`] of `dim`.
    fn top(&self, dim: &str, n: usize) -> Option<Vec<(&str, u64)>>;
    /// [`Counts::dim_len`] of `dim`.
    fn len(&self, dim: &str) -> Option<usize>;
    /// [`Counts::get`] of `error`/`dim`.
    fn max_error(&self, dim: &str) -> Option<u64>;
    /// Whether the [`Counts`] would have the dimension `dim`.
    fn has_dim(&self, dim: &str) -> Option<bool>;
    /// [`Counts::estimate`] of `dim`.
    fn estimate(&self, dim: &str) -> Option<Option<f64>>;
}

/// A [`Summary`] whose counters are borrowed: the statistics' report
/// reads the run's counters where they are (a copy of them, 80,000
/// keys and registers on 50,000 hosts, was a quarter of the report's
/// end).
#[derive(Clone, Debug)]
pub(crate) struct SummaryOf<'c> {
    /// [`Summary::counts`].
    pub(crate) counts: &'c Counts,
    /// [`Summary::unique_urls`].
    pub(crate) unique_urls: Option<u64>,
    /// [`Summary::elapsed`].
    pub(crate) elapsed: Option<Duration>,
    /// [`Summary::top`].
    pub(crate) top: usize,
    /// The host, TLD and sketch counters, when they are read where the
    /// run keeps them (`counts` has none of them then).
    pub(crate) keys: Option<&'c dyn Kept>,
}

impl SummaryOf<'_> {
    /// [`Counts::top`] of `dim`.
    fn top(&self, dim: &str, n: usize) -> Vec<(&str, u64)> {
        match self.keys.and_then(|k| k.top(dim, n)) {
            Some(top) => top,
            None => self.counts.top(dim, n),
        }
    }

    /// How far a count of `dim` may be over (`error`/`dim`).
    fn error(&self, dim: &str) -> u64 {
        match self.keys.and_then(|k| k.max_error(dim)) {
            Some(e) => e,
            None => self.counts.get("error", dim),
        }
    }

    /// [`Counts::estimate`] of `dim`.
    fn estimate(&self, dim: &str) -> Option<f64> {
        match self.keys.and_then(|k| k.estimate(dim)) {
            Some(e) => e,
            None => self.counts.estimate(dim),
        }
    }

    fn mib_per_sec(&self) -> Option<f64> {
        let secs = self.elapsed?.as_secs_f64();
        let bytes = self.counts.get("total", "bytes") as f64;
        (secs > 0.0).then(|| bytes / (1024.0 * 1024.0) / secs)
    }

    /// The readable report.
    pub(crate) fn write_text<W: Write>(&self, mut w: W) -> io::Result<()> {
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
        let estimated = format!("  (estimate, ±{:.2} %)", 100.0 * STD_ERROR);
        if let Some((u, est)) = self.unique_urls() {
            let note = if est { estimated.as_str() } else { "" };
            writeln!(w, "unique URLs {u:>14}{note}")?;
        }
        if let Some((u, est)) = self.unique_hosts() {
            let note = if est { estimated.as_str() } else { "" };
            writeln!(w, "unique hosts{u:>14}{note}")?;
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
            ("rejections by reason".to_string(), c.top("reject", usize::MAX)),
            ("matches by scheme".to_string(), c.top("scheme", usize::MAX)),
            ("matches by kind".to_string(), c.top("kind", usize::MAX)),
            (
                top_title("top hosts", self.error("host")),
                self.top("host", self.top),
            ),
            (
                top_title("top TLDs", self.error("tld")),
                self.top("tld", self.top),
            ),
            (
                "mail matches by location".to_string(),
                c.top("location", usize::MAX),
            ),
            (
                "mail matches by encoding".to_string(),
                c.top("encoding", usize::MAX),
            ),
            ("messages by URL count".to_string(), self.per_message()),
        ];
        let by: Vec<(String, Vec<(&str, u64)>)> = PERIODS
            .iter()
            .map(|p| {
                let dim = format!("by-{}", p.name());
                (format!("matches by {}", p.name()), c.dim(&dim))
            })
            .collect();
        let sections = sections.into_iter().chain(by);
        for (title, rows) in sections {
            if rows.is_empty() {
                continue;
            }
            writeln!(w, "\n{title}")?;
            for (key, n) in rows {
                writeln!(w, "  {n:>12}  {}", super::escape::name(key))?;
            }
        }
        Ok(())
    }

    /// Distinct URLs, and whether the number is an estimate.
    pub(crate) fn unique_urls(&self) -> Option<(u64, bool)> {
        match self.unique_urls {
            Some(u) => Some((u, false)),
            None => {
                self.estimate("hll-urls").map(|e| (e.round() as u64, true))
            }
        }
    }

    /// Distinct hosts, and whether the number is an estimate: exact while
    /// the host counts are (no `error`/`host`), then from `hll-hosts`.
    pub(crate) fn unique_hosts(&self) -> Option<(u64, bool)> {
        let exact = self.error("host") == 0;
        let (registers, len) = match self.keys {
            Some(k) => (k.has_dim("hll-hosts"), k.len("host")),
            None => (None, None),
        };
        let registers = registers
            .unwrap_or_else(|| self.counts.dims.contains_key("hll-hosts"));
        if exact && (self.unique_urls.is_some() || registers) {
            let len = len.unwrap_or_else(|| self.counts.dim_len("host"));
            return Some((len as u64, false));
        }
        self.estimate("hll-hosts").map(|e| (e.round() as u64, true))
    }

    /// The `urls-per-message` counters, fewest URLs first.
    fn per_message(&self) -> Vec<(&str, u64)> {
        let mut v = self.counts.dim("urls-per-message");
        v.sort_by_key(|(k, _)| bucket_low(k));
        v
    }

    /// The report as one JSON object.
    pub(crate) fn to_json(&self) -> Value {
        let c = &self.counts;
        let mut obj = Map::new();
        for k in TOTALS {
            obj.insert(k.into(), json!(c.get("total", k)));
        }
        let unique = self.unique_urls();
        obj.insert("unique_urls".into(), json!(unique.map(|u| u.0)));
        obj.insert(
            "unique_urls_estimated".into(),
            json!(unique.is_some_and(|u| u.1)),
        );
        let hosts = self.unique_hosts();
        obj.insert("unique_hosts".into(), json!(hosts.map(|u| u.0)));
        obj.insert(
            "unique_hosts_estimated".into(),
            json!(hosts.is_some_and(|u| u.1)),
        );
        obj.insert("top_hosts_max_error".into(), json!(self.error("host")));
        obj.insert("top_tlds_max_error".into(), json!(self.error("tld")));
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
            let rows: Vec<Value> = self
                .top(dim, self.top)
                .into_iter()
                .map(|(k, n)| json!({ "key": k, "count": n }))
                .collect();
            Value::Array(rows)
        };
        obj.insert("top_hosts".into(), top("host"));
        obj.insert("top_tlds".into(), top("tld"));
        for p in PERIODS {
            let dim = format!("by-{}", p.name());
            if c.dims.contains_key(&dim) {
                obj.insert(format!("by_{}", p.name()), self.by_json(p));
            }
        }
        Value::Object(obj)
    }

    /// `{"PERIOD":{"matches":…,"messages":…,"schemes":{…},"top_hosts":[…]}}`
    /// from the `by-P` dimensions.
    fn by_json(&self, p: Period) -> Value {
        let c = &self.counts;
        let dim = format!("by-{}", p.name());
        let mut out = Map::new();
        for (period, n) in c.dim(&dim) {
            let pairs = |kind: &str| -> Vec<(String, u64)> {
                let prefix = format!("{period} ");
                c.dim(&format!("{dim}-{kind}"))
                    .into_iter()
                    .filter_map(|(k, n)| {
                        k.strip_prefix(&prefix).map(|k| (k.to_string(), n))
                    })
                    .collect()
            };
            let schemes: Map<String, Value> = pairs("scheme")
                .into_iter()
                .map(|(k, n)| (k, json!(n)))
                .collect();
            let mut hosts = pairs("host");
            hosts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            hosts.truncate(self.top);
            let hosts: Vec<Value> = hosts
                .into_iter()
                .map(|(k, n)| json!({ "key": k, "count": n }))
                .collect();
            out.insert(
                period.into(),
                json!({
                    "matches": n,
                    "messages": c.get(&format!("{dim}-messages"), period),
                    "schemes": schemes,
                    "top_hosts": hosts,
                }),
            );
        }
        Value::Object(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `add_each` gives what an `add` of each item gives: sums, maxima
    /// in an `hll-` dimension, keys already counted, and no dimension
    /// made by no items.
    #[test]
    fn add_each_is_add_of_each() {
        let items = [("a", 3), ("b", 1), ("a", 2), ("c", 0)];
        for dim in ["host", "hll-urls"] {
            let (mut one, mut each) = (Counts::new(), Counts::new());
            for c in [&mut one, &mut each] {
                c.add(dim, "b", 4);
            }
            for (k, n) in items {
                one.add(dim, k, n);
            }
            each.add_each(dim, items);
            each.add_each("none", Vec::<(String, u64)>::new());
            assert_eq!(each, one, "{dim}");
            assert!(each.dims().all(|d| d != "none"));
        }
    }

    /// The summary of borrowed counters writes what the summary of its
    /// own copy writes.
    #[test]
    fn summary_of_borrowed_counts_is_the_summary() {
        let mut counts = Counts::new();
        counts.add("total", "matches", 5);
        counts.add("host", "a.example", 3);
        counts.add("host", "b.example", 2);
        counts.add("hll-urls", "7", 3);
        let summary = Summary {
            counts: counts.clone(),
            unique_urls: None,
            elapsed: Some(Duration::from_millis(5)),
            top: 1,
        };
        let of = SummaryOf {
            counts: &counts,
            unique_urls: None,
            elapsed: Some(Duration::from_millis(5)),
            top: 1,
            keys: None,
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        summary.write_text(&mut a).unwrap();
        of.write_text(&mut b).unwrap();
        assert_eq!(a, b);
        assert_eq!(summary.to_json(), of.to_json());
        assert!(String::from_utf8(a).unwrap().contains("a.example"));
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

    /// The top `n` (chosen, then ordered) is the prefix of every counter
    /// sorted by count, then key: every `n`, counts with many ties.
    #[test]
    fn top_is_the_prefix_of_the_whole_order() {
        let mut c = Counts::new();
        let mut x = 5u64;
        for i in 0..300u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            c.add("host", &format!("h{}", (x >> 33) % 1000), 1 + i % 4);
        }
        let mut all = c.dim("host");
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        assert!(all.len() > 200, "{}", all.len());
        for n in 0..=all.len() + 1 {
            let want = &all[..n.min(all.len())];
            assert_eq!(c.top("host", n), want, "{n}");
        }
        assert_eq!(c.dim_len("host"), all.len());
        assert_eq!(c.dim_len("none"), 0);
    }

    /// Ties are in the keys' order when keys share their first 8 bytes
    /// or fewer, are shorter than 8 bytes, a prefix of another, hold a
    /// NUL or bytes past ASCII (the prefix compared as a number first).
    #[test]
    fn top_orders_ties_by_key_past_the_prefix() {
        let stems = ["", "a", "ab", "a\0", "ab\0", "abcdefg", "abcdefgh"];
        let tails = ["", "\0", "x", "ü", "é", "abcdefghi", "\u{7f}"];
        let mut c = Counts::new();
        for (i, stem) in stems.iter().enumerate() {
            for (j, tail) in tails.iter().enumerate() {
                c.add(
                    "host",
                    &format!("{stem}{tail}"),
                    1 + (i + j) as u64 % 2,
                );
            }
        }
        let mut all = c.dim("host");
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        assert!(all.len() > 40, "{}", all.len());
        assert_eq!(c.top("host", usize::MAX), all);
        for n in [1, 5, 20] {
            assert_eq!(c.top("host", n), &all[..n], "{n}");
        }
    }
}
