//! The `--by` statistics in bounded memory: matches, messages, schemes
//! and hosts by period, each a Space-Saving summary ([`TopK`]) as the top
//! hosts are.
//!
//! A counter per period and host grew with the input (4 M hosts: 1.61 GB
//! where the run without `--by` took 63 MB). Each dimension is now one
//! summary over its keys (`PERIOD`, or `PERIOD SCHEME`, `PERIOD HOST`):
//! exact while it meets at most twice its capacity of distinct keys, then
//! the largest counts, each over by at most the summary's error, written
//! in the `error` dimension under the dimension's name (`error`/
//! `by-day-host`), as `error`/`host` is for the top hosts.
//!
//! | dimension | keys exact up to | memory at most |
//! |-----------|------------------|----------------|
//! | `by-P`, `by-P-messages` | 32,768 periods each (90 years of days) | ~4 MiB each |
//! | `by-P-scheme`, `by-P-host` | 32,768 keys each | ~4 MiB each |
//!
//! (`by-P-scheme` and `by-P-host` were exact up to 131,072 keys, ~16 MiB
//! each: `--stats --by day` at `-j2` on 4 M hosts took 90 MiB, where
//! issue 33.6 asks for at most 64.)
//!
//! With `--exact-stats` nothing is forgotten and memory grows with the
//! input, as for the other statistics.

use super::stats::{Counts, Period};
use super::topk::TopK;

/// The capacity of the summaries, keyed by period alone or by period
/// and scheme or host: each is exact up to twice this many keys.
const PERIOD_CAPACITY: usize = 1 << 14;

/// The `--by` summaries of a run.
#[derive(Debug)]
pub(super) struct ByStats {
    period: Period,
    /// The dimensions' names and summaries: `by-P`, `by-P-messages`,
    /// `by-P-scheme`, `by-P-host`.
    matches: (String, TopK),
    messages: (String, TopK),
    scheme: (String, TopK),
    host: (String, TopK),
    /// Scratch space for a `PERIOD KEY` key.
    key: String,
}

impl ByStats {
    /// Summaries by `period`: bounded, or with `exact` never forgetting.
    pub(super) fn new(period: Period, exact: bool) -> ByStats {
        let summary = |capacity: usize| match exact {
            // Never evicts.
            true => TopK::with_capacity(usize::MAX / 2),
            false => TopK::with_capacity(capacity),
        };
        let dim = format!("by-{}", period.name());
        ByStats {
            period,
            messages: (format!("{dim}-messages"), summary(PERIOD_CAPACITY)),
            scheme: (format!("{dim}-scheme"), summary(PERIOD_CAPACITY)),
            host: (format!("{dim}-host"), summary(PERIOD_CAPACITY)),
            matches: (dim, summary(PERIOD_CAPACITY)),
            key: String::new(),
        }
    }

    /// The period of the summaries.
    pub(super) fn period(&self) -> Period {
        self.period
    }

    /// Counts a message (with at least one match) of `period`.
    pub(super) fn message(&mut self, period: &str) {
        self.messages.1.add(period, 1);
    }

    /// Counts a match of `period` with `scheme` and `host`.
    pub(super) fn add(
        &mut self,
        period: &str,
        scheme: &str,
        host: Option<&str>,
    ) {
        self.matches.1.add(period, 1);
        for (summary, name) in
            [(&mut self.scheme.1, Some(scheme)), (&mut self.host.1, host)]
        {
            if let Some(name) = name {
                self.key.clear();
                self.key.push_str(period);
                self.key.push(' ');
                self.key.push_str(name);
                summary.add(&self.key, 1);
            }
        }
    }

    /// Adds the four dimensions to `counts`, and for each summary that
    /// forgot keys its error, `error`/`by-P-…`.
    pub(super) fn add_to(&self, counts: &mut Counts) {
        for (dim, summary) in
            [&self.matches, &self.messages, &self.scheme, &self.host]
        {
            let summary = summary.settled();
            for (key, n) in summary.iter() {
                counts.add(dim, key, n);
            }
            if summary.max_error() > 0 {
                counts.add("error", dim, summary.max_error());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 33.6: 300,000 distinct hosts in one period keep at most
    /// twice the summary's capacity of counters, with the error said;
    /// a host met often is still counted.
    #[test]
    fn hosts_by_period_are_bounded() {
        let mut by = ByStats::new(Period::Day, false);
        for i in 0..300_000u32 {
            by.add("2001-05-31", "http", Some(&format!("h{i}.example")));
            by.add("2001-05-31", "http", Some("often.example"));
        }
        let mut c = Counts::new();
        by.add_to(&mut c);
        let hosts = c.dim("by-day-host");
        assert!(
            hosts.len() <= 2 * PERIOD_CAPACITY,
            "{} counters",
            hosts.len()
        );
        assert!(hosts.len() >= PERIOD_CAPACITY);
        let error = c.get("error", "by-day-host");
        assert!(error > 0 && error <= 600_000 / PERIOD_CAPACITY as u64 + 1);
        let often = c.get("by-day-host", "2001-05-31 often.example");
        assert!((300_000..=300_000 + error).contains(&often), "{often}");
        // The dimensions keyed by period alone stay exact.
        assert_eq!(c.get("by-day", "2001-05-31"), 600_000);
        assert_eq!(c.get("by-day-scheme", "2001-05-31 http"), 600_000);
        assert_eq!(c.get("error", "by-day"), 0);
        // Many periods: bounded too.
        let mut by = ByStats::new(Period::Day, false);
        for i in 0..100_000u32 {
            let day = format!("p{i}");
            by.message(&day);
            by.add(&day, "http", None);
        }
        let mut c = Counts::new();
        by.add_to(&mut c);
        assert!(c.dim("by-day").len() <= 2 * PERIOD_CAPACITY);
        assert!(c.dim("by-day-messages").len() <= 2 * PERIOD_CAPACITY);
    }

    #[test]
    fn exact_stats_forget_nothing() {
        let mut by = ByStats::new(Period::Year, true);
        for i in 0..(2 * PERIOD_CAPACITY as u32 + 10) {
            by.add("2001", "http", Some(&format!("h{i}.example")));
        }
        let mut c = Counts::new();
        by.add_to(&mut c);
        assert_eq!(c.dim("by-year-host").len(), 2 * PERIOD_CAPACITY + 10);
        assert_eq!(c.get("error", "by-year-host"), 0);
    }
}
