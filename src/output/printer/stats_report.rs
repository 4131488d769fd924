//! Statistics: every selected candidate tallied by scheme, kind, host,
//! TLD, mail location and encoding, URLs per message and reject reason,
//! written after the run as a readable report, one JSON object, or the
//! additive TSV partials ([`super::stats`] has the counters).

mod few;
mod fold;

use crate::driver::{Fold, Folds, InputDone};
use crate::filter::same_bytes;
use crate::input::Input;
use crate::output::by_stats::ByStats;
use crate::output::emit::{Ctx, Emit, Run, Tally, Url};
use crate::output::escape;
use crate::output::stats::{per_message_bucket, Counts, Period, SummaryOf};
use crate::output::url::{self, host_bytes};
use crate::output::url_stats::UrlStats;
use crate::parse::Reject;
use few::Few;
use fold::StatsFold;
use std::io::{self, Write};
use std::sync::Arc;

/// How the statistics are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Text,
    Json,
    Tsv,
}

/// The statistics writer.
#[derive(Debug)]
pub(super) struct StatsReport {
    shape: Shape,
    /// Counters of the inputs that ended (but the `total` dimension,
    /// which the printer keeps, and the URL and host tallies).
    total: Counts,
    /// Unique URLs and hosts, top hosts and TLDs: bounded sketches, or
    /// exact under `--exact-stats`.
    url_stats: UrlStats,
    cur: Current,
    /// `--by`: the dimensions `by-P`, `by-P-messages`, `by-P-scheme`,
    /// `by-P-host`, in bounded summaries.
    by: Option<ByStats>,
}

/// Counters of the current input.
#[derive(Debug, Default)]
struct Current {
    counts: Counts,
    /// The dimensions every URL adds to (scheme, kind, mail location and
    /// encoding), tallied in a small vector and added to `counts` when
    /// the input ends: a map look-up per URL and dimension, with its
    /// hashing, was a third of the statistics' time on dense input.
    few: Few<(Dim, String), { Dim::ALL.len() }>,
    /// The message whose URLs are being counted, and how many so far.
    message: Option<u64>,
    message_urls: u64,
    /// Messages with at least one URL.
    messages_with_urls: u64,
    /// The `--by` key of the current message (cached per message).
    period: Option<String>,
}

/// The dimensions of [`Current::few`], each a lane of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dim {
    Location,
    Encoding,
    Scheme,
    Kind,
}

impl Dim {
    const ALL: [Dim; 4] =
        [Dim::Location, Dim::Encoding, Dim::Scheme, Dim::Kind];

    fn name(self) -> &'static str {
        match self {
            Dim::Location => "location",
            Dim::Encoding => "encoding",
            Dim::Scheme => "scheme",
            Dim::Kind => "kind",
        }
    }
}

impl Few<(Dim, String), { Dim::ALL.len() }> {
    #[inline]
    fn add(&mut self, dim: Dim, key: &str) {
        self.add_n(dim, key, 1);
    }

    /// Adds `n` to the counter of `dim` and `key`.
    #[inline]
    fn add_n(&mut self, dim: Dim, key: &str, n: u64) {
        // (compared by words: `==` on the strings was a `memcmp` call)
        let is = |k: &(Dim, String)| {
            k.0 == dim && same_bytes(k.1.as_bytes(), key.as_bytes())
        };
        self.add_where(dim as usize, n, is, || (dim, key.to_owned()));
    }

    /// Adds the counters to `counts`.
    fn add_to(&self, counts: &mut Counts) {
        for ((dim, key), n) in self.counters() {
            counts.add(dim.name(), key, *n);
        }
    }
}

impl Current {
    /// Counts the URLs of the message that ended.
    fn end_message(&mut self) {
        if self.message.take().is_some() {
            let key = per_message_bucket(self.message_urls);
            self.counts.add("urls-per-message", &key, 1);
            self.messages_with_urls += 1;
        }
        self.message_urls = 0;
    }
}

impl StatsReport {
    fn new(shape: Shape, exact: bool, by: Option<Period>) -> StatsReport {
        StatsReport {
            shape,
            total: Counts::new(),
            url_stats: UrlStats::new(exact),
            cur: Current::default(),
            by: by.map(|p| ByStats::new(p, exact)),
        }
    }

    /// The readable report.
    pub(super) fn text(exact: bool, by: Option<Period>) -> StatsReport {
        StatsReport::new(Shape::Text, exact, by)
    }

    /// One JSON object.
    pub(super) fn json(exact: bool, by: Option<Period>) -> StatsReport {
        StatsReport::new(Shape::Json, exact, by)
    }

    /// The additive TSV partials.
    pub(super) fn tsv(exact: bool, by: Option<Period>) -> StatsReport {
        StatsReport::new(Shape::Tsv, exact, by)
    }
}

impl<W: Write> Emit<W> for StatsReport {
    fn needs_scheme(&self) -> bool {
        true
    }

    fn tallies(&self) -> bool {
        true
    }

    fn begin(&mut self, _: &mut W, _: &Ctx<'_>, _: &Input) -> io::Result<()> {
        self.cur = Current::default();
        Ok(())
    }

    fn url(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        url: &Url<'_>,
    ) -> io::Result<()> {
        let hit = url.hit;
        let cur = &mut self.cur;
        let mail = hit.record.as_ref().and_then(|r| Some((r, r.mail()?)));
        let part = hit.record.as_ref().and_then(|r| r.part());
        let mut new_message = hit.record.is_none();
        if let Some(r) = &hit.record {
            if cur.message != Some(r.index) {
                cur.end_message();
                cur.message = Some(r.index);
                new_message = true;
            }
            cur.message_urls += 1;
        }
        if let Some((_, m)) = mail {
            cur.few.add(Dim::Location, m.location.name());
            cur.few.add(Dim::Encoding, m.encoding.name());
        }
        cur.few.add(Dim::Scheme, url.scheme);
        cur.few.add(Dim::Kind, hit.kind.name());
        let host = host_bytes(hit.url, hit.host);
        if let Some(by) = &mut self.by {
            if new_message || cur.period.is_none() {
                let key = match (by.period(), part) {
                    (Period::Site, w) => w
                        .and_then(|w| url::host(w.page()?.as_bytes()))
                        .unwrap_or_else(|| "unknown".to_string()),
                    (p, Some(w)) => p.key_rfc3339(w.date()),
                    (p, None) => {
                        p.key(mail.and_then(|(_, m)| m.meta?.date_utc))
                    }
                };
                if hit.record.is_some() {
                    by.message(&key);
                }
                cur.period = Some(key);
            }
            let period = cur.period.as_deref().unwrap_or("unknown");
            // (a host is UTF-8: ASCII, or as `host_from` gives it)
            let host =
                host.as_deref().and_then(|h| std::str::from_utf8(h).ok());
            by.add(period, url.scheme, host);
        }
        self.url_stats.add(hit.url, host.as_deref());
        Ok(())
    }

    /// URLs outside records are folded on the workers, but under `--by`
    /// (whose period keys are read a URL at a time).
    fn folds(&self) -> Option<Folds> {
        if self.by.is_some() {
            return None;
        }
        let new: Folds = Arc::new(|| Box::new(StatsFold::default()));
        Some(new)
    }

    /// What [`Emit::url`] does for each URL of the fold: none is in a
    /// record, so none starts a message.
    fn folded(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: &Input,
        fold: &dyn Fold,
    ) -> io::Result<u64> {
        let Some(fold) = fold.as_any().downcast_ref::<StatsFold>() else {
            return Err(io::Error::other("a fold of another report"));
        };
        for ((scheme, kind), n) in fold.few() {
            self.cur.few.add_n(Dim::Scheme, scheme, *n);
            self.cur.few.add_n(Dim::Kind, kind.name(), *n);
        }
        self.url_stats.add_folded(fold.urls(), fold.hosts());
        Ok(fold.len() as u64)
    }

    fn reject(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: &Url<'_>,
        reject: Reject,
    ) -> io::Result<()> {
        self.cur.counts.add("reject", reject.name(), 1);
        Ok(())
    }

    fn end(
        &mut self,
        _: &mut W,
        _: &Ctx<'_>,
        _: &Input,
        done: &InputDone,
        _: &Tally,
    ) -> io::Result<()> {
        let mut cur = std::mem::take(&mut self.cur);
        cur.end_message();
        cur.few.add_to(&mut cur.counts);
        if let Some(n) = done.messages {
            let without = n.saturating_sub(cur.messages_with_urls);
            if without > 0 {
                cur.counts.add("urls-per-message", "0", without);
            }
        }
        if !cur.counts.is_empty() {
            self.total.merge(&cur.counts);
        }
        Ok(())
    }

    /// The text and JSON reports read the host, TLD and sketch counters
    /// where they are ([`UrlStats::keys`]), not from these.
    fn counts(&self) -> Counts {
        let mut c = self.total.clone();
        if self.shape == Shape::Tsv {
            self.url_stats.add_to(&mut c);
        }
        if let Some(by) = &self.by {
            by.add_to(&mut c);
        }
        c
    }

    fn finish(
        &mut self,
        out: &mut W,
        cx: &Ctx<'_>,
        run: &Run<'_>,
    ) -> io::Result<()> {
        if self.shape == Shape::Tsv {
            return run.counts.write_tsv(out);
        }
        let keys = self.url_stats.keys();
        let summary = SummaryOf {
            counts: run.counts,
            unique_urls: self.url_stats.exact_unique_urls(),
            elapsed: Some(run.elapsed),
            top: cx.opts.top,
            keys: Some(&keys),
        };
        if self.shape == Shape::Text {
            return summary.write_text(out);
        }
        escape::write_json_pretty(&mut *out, &summary.to_json())?;
        out.write_all(b"\n")
    }
}
