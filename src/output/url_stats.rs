//! The per-URL statistics of a run in bounded memory: unique URLs and
//! hosts, top hosts and TLDs.
//!
//! | mode                 | unique URLs                   | hosts, TLDs                 | memory            |
//! |----------------------|-------------------------------|-----------------------------|-------------------|
//! | default              | exact up to 2^19 URLs ([`Distinct`]), then HyperLogLog (±0.81 %) | Space-Saving, exact up to 65,536 distinct keys each | at most ~20 MiB |
//! | `--exact-stats`      | exact ([`Distinct`], 8–12 B a URL) | exact (every key: a 16-byte slot at a load of 1/4 to 1/2, so 32–64 B, and its bytes after an 8-byte header, to a multiple of 8) | grows with the input |
//!
//! Either way the HyperLogLog sketches of URLs and hosts (16 KiB each) are
//! kept and written to the partials, so that `urlgrep merge` can give
//! unique counts across shards.

use super::hll::{hash64, Hll};
use super::stats::{top_of, Counts, Kept};
use super::topk::{Settled, TopK};
use super::url::tld_bytes;
use crate::filter::same_bytes;
use distinct::Distinct;

mod distinct;

/// URLs counted exactly for the unique count before the sketch takes
/// over (default mode): at most 6 MiB (4 merged, 2 buffered). It was
/// 2^20 (21 MiB in a set):
/// with the host summaries, `--stats --by day` at `-j2` on 4 M hosts
/// took 90 MiB (issue 33.6: at most 64).
pub const EXACT_UNIQUE_LIMIT: usize = 1 << 19;

/// Unique URLs and hosts, top hosts and TLDs.
#[derive(Debug)]
pub struct UrlStats {
    exact: bool,
    seen: Option<Distinct>,
    urls: Hll,
    host_sketch: Hll,
    hosts: TopK,
    tlds: TopK,
    /// The TLD of the last adds and how many of them, not yet added to
    /// `tlds`: a run of URLs of one TLD (nearly every URL of a mail
    /// folder) is one add of its length, which gives the same summary
    /// (no other key is added between them, so no eviction comes
    /// between them either).
    tld_run: (Vec<u8>, u64),
}

impl UrlStats {
    /// Bounded statistics, or, with `exact`, exact ones in memory that
    /// grows with the input.
    pub fn new(exact: bool) -> UrlStats {
        let summary = || {
            if exact {
                // Never evicts.
                TopK::with_capacity(usize::MAX / 2)
            } else {
                TopK::default()
            }
        };
        UrlStats {
            exact,
            seen: Some(Distinct::default()),
            urls: Hll::new(),
            host_sketch: Hll::new(),
            hosts: summary(),
            tlds: summary(),
            tld_run: (Vec::new(), 0),
        }
    }

    /// Counts a URL (that passed validation) whose host is `host`
    /// (lower-case, as [`super::url::host_from`] gives it, as UTF-8).
    pub fn add(&mut self, url: &[u8], host: Option<&[u8]>) {
        self.add_hashed(hash64(url), host.map(|h| (h, hash64(h))));
    }

    /// [`UrlStats::add`] of a URL whose [`hash64`] is `url`, its host
    /// given with its [`hash64`]: the hashes made where the URL was
    /// found (the statistics' fold, on the worker).
    pub fn add_hashed(&mut self, url: u64, host: Option<(&[u8], u64)>) {
        self.add_but_host(url, host);
        if let Some((h, hash)) = host {
            self.hosts.add_hashed(h, hash, 1);
        }
    }

    /// [`UrlStats::add_hashed`] of each URL in turn, given as the
    /// [`hash64`] of each URL and the hosts of those that have one
    /// (each with its hash), both in input order: the URLs' adds made
    /// first, then the hosts' (no summary reads another, so the order
    /// between them is free), the host summary's as [`TopK::add_each`].
    pub fn add_folded<'k, I>(&mut self, urls: &[u64], hosts: I)
    where
        I: Iterator<Item = (&'k [u8], u64)> + Clone,
    {
        if self.seen.is_some() {
            for &h in urls {
                self.add_url(h);
            }
        } else {
            for &h in urls {
                self.urls.insert_hash(h);
            }
        }
        for (h, hash) in hosts.clone() {
            self.add_host_but_summary(h, hash);
        }
        self.hosts.add_each(hosts);
    }

    /// [`UrlStats::add_hashed`] but the add to the host summary.
    #[inline]
    fn add_but_host(&mut self, url: u64, host: Option<(&[u8], u64)>) {
        self.add_url(url);
        if let Some((h, hash)) = host {
            self.add_host_but_summary(h, hash);
        }
    }

    /// Counts a URL whose [`hash64`] is `h` in the sketch and the exact
    /// count.
    #[inline]
    fn add_url(&mut self, h: u64) {
        // One stable hash per URL serves the sketch and the exact count
        // (text crafted to collide would lower the count by one a pair:
        // statistics, not `-u`, which keeps a keyed hash).
        self.urls.insert_hash(h);
        if let Some(seen) = &mut self.seen {
            if seen.insert(h)
                && !self.exact
                && seen.merged() > EXACT_UNIQUE_LIMIT
            {
                self.seen = None;
            }
        }
    }

    /// Counts the host `h`, whose [`hash64`] is `hash`, in the TLDs and
    /// the hosts' sketch.
    #[inline]
    fn add_host_but_summary(&mut self, h: &[u8], hash: u64) {
        let (run, n) = &mut self.tld_run;
        if *n > 0 && ends_in_label(h, run) {
            // What `tld_bytes` finds (`run` is a label: no dot).
            *n += 1;
        } else if let Some(t) = tld_bytes(h) {
            if *n > 0 && same_bytes(run, t) {
                *n += 1;
            } else {
                add_run(&mut self.tlds, run, *n);
                run.clear();
                run.extend_from_slice(t);
                *n = 1;
            }
        }
        self.host_sketch.insert_hash(hash);
    }

    /// The exact number of distinct URLs, while it is known.
    pub fn exact_unique_urls(&self) -> Option<u64> {
        // (the hashes added since the last merge may pass the limit)
        let n = self.seen.as_ref()?.len();
        (self.exact || n <= EXACT_UNIQUE_LIMIT).then_some(n as u64)
    }

    /// The host, TLD and sketch counters, read where they are: the
    /// text and JSON reports' end (their copy into a [`Counts`], a
    /// `String` and a map entry a host and a register, 81,000 on
    /// 50,000 hosts, was 5% of `--stats` on 4 M URLs of those hosts).
    pub(crate) fn keys(&self) -> Keys<'_> {
        let tlds = if self.tld_run.1 > 0 {
            let mut with_run = self.tlds.clone();
            add_run(&mut with_run, &self.tld_run.0, self.tld_run.1);
            with_run.into_settled()
        } else {
            self.tlds.settled()
        };
        Keys {
            hosts: self.hosts.settled(),
            tlds,
            urls: &self.urls,
            host_sketch: &self.host_sketch,
        }
    }

    /// Adds the counters to `counts`: the `host` and `tld` dimensions, the
    /// `error` of each when the summary is no longer exact, and the
    /// sketches (`hll-urls`, `hll-hosts`): what [`UrlStats::keys`] reads.
    pub fn add_to(&self, counts: &mut Counts) {
        let keys = self.keys();
        for (dim, summary) in [("host", &keys.hosts), ("tld", &keys.tlds)] {
            counts.reserve(dim, summary.len());
            counts.add_each(dim, summary.iter());
            if summary.max_error() > 0 {
                counts.add("error", dim, summary.max_error());
            }
        }
        for (dim, sketch) in
            [("hll-urls", keys.urls), ("hll-hosts", keys.host_sketch)]
        {
            counts.reserve(dim, sketch.registers().count());
            let registers = sketch.registers();
            let keys = registers.map(|(i, r)| (i.to_string(), u64::from(r)));
            counts.add_each(dim, keys);
        }
    }
}

/// The counters of a [`UrlStats`] that [`UrlStats::add_to`] adds to a
/// [`Counts`] (`host`, `tld`, their `error`, `hll-urls`, `hll-hosts`),
/// read in place ([`Kept`]).
#[derive(Debug)]
pub(crate) struct Keys<'s> {
    hosts: Settled<'s>,
    tlds: Settled<'s>,
    urls: &'s Hll,
    host_sketch: &'s Hll,
}

impl Keys<'_> {
    /// The summary of `dim` (`host`, `tld`).
    fn summary(&self, dim: &str) -> Option<&Settled<'_>> {
        match dim {
            "host" => Some(&self.hosts),
            "tld" => Some(&self.tlds),
            _ => None,
        }
    }

    /// The sketch of `dim` (`hll-urls`, `hll-hosts`).
    fn sketch(&self, dim: &str) -> Option<&Hll> {
        match dim {
            "hll-urls" => Some(self.urls),
            "hll-hosts" => Some(self.host_sketch),
            _ => None,
        }
    }
}

impl Kept for Keys<'_> {
    fn top(&self, dim: &str, n: usize) -> Option<Vec<(&str, u64)>> {
        Some(top_of(self.summary(dim)?.iter().collect(), n))
    }

    fn len(&self, dim: &str) -> Option<usize> {
        Some(self.summary(dim)?.len())
    }

    fn max_error(&self, dim: &str) -> Option<u64> {
        Some(self.summary(dim)?.max_error())
    }

    /// A sketch's dimension exists once a register is set.
    fn has_dim(&self, dim: &str) -> Option<bool> {
        Some(self.sketch(dim)?.registers().next().is_some())
    }

    /// The sketch's own estimate: the same registers.
    fn estimate(&self, dim: &str) -> Option<Option<f64>> {
        let sketch = self.sketch(dim)?;
        let any = sketch.registers().next().is_some();
        Some(any.then(|| sketch.estimate()))
    }
}

/// Whether `host` ends in `.` and `label` (and is no IP literal): its
/// TLD is then `label`, when `label` has no dot and was a TLD.
#[inline]
fn ends_in_label(host: &[u8], label: &[u8]) -> bool {
    let Some(dot) = host.len().checked_sub(label.len() + 1) else {
        return false;
    };
    host.get(dot) == Some(&b'.')
        && host.first() != Some(&b'[')
        && host.get(dot + 1..).is_some_and(|end| same_bytes(end, label))
}

/// Adds a run of `n` adds of `key` to `summary`.
fn add_run(summary: &mut TopK, key: &[u8], n: u64) {
    summary.add_hashed(key, hash64(key), n);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The adds of a fold (the URLs' hashes, then their hosts) count
    /// what the adds of each URL in turn count, past the exact count's
    /// limit and the host summary's first eviction, in a table large
    /// enough to read its adds ahead.
    #[test]
    fn folded_adds_are_each_urls_adds() {
        let (mut each, mut folded) =
            (UrlStats::new(false), UrlStats::new(false));
        let mut seen = 0;
        for batch in 0..5u32 {
            let mut urls = Vec::new();
            let mut hosts = Vec::new();
            for i in 0..150_000u32 {
                let n = batch * 150_000 + i;
                let url =
                    format!("http://h{}.example.{}/{n}", n % 90_000, n % 7);
                let host = (n % 11 != 0).then(|| {
                    super::super::url::host(url.as_bytes()).unwrap_or_default()
                });
                let url_hash = hash64(url.as_bytes());
                let host = host
                    .map(|h| (h.clone().into_bytes(), hash64(h.as_bytes())));
                each.add_hashed(
                    url_hash,
                    host.as_ref().map(|(h, x)| (&h[..], *x)),
                );
                urls.push(url_hash);
                hosts.extend(host);
            }
            folded.add_folded(&urls, hosts.iter().map(|(h, x)| (&h[..], *x)));
            seen += urls.len();
        }
        assert!(seen > EXACT_UNIQUE_LIMIT);
        assert_eq!(each.exact_unique_urls(), None);
        assert_eq!(folded.exact_unique_urls(), None);
        let (mut a, mut b) = (Counts::new(), Counts::new());
        each.add_to(&mut a);
        folded.add_to(&mut b);
        assert!(a.get("error", "host") > 0, "no eviction");
        assert_eq!(a, b);
    }

    /// The reports read from [`UrlStats::keys`] are those read from the
    /// counters [`UrlStats::add_to`] adds: no URL, URLs without hosts,
    /// a TLD run still open, ties, and past the exact count's limit and
    /// the host summary's first eviction (estimates, errors).
    #[test]
    fn reports_of_the_keys_are_those_of_the_counts() {
        use super::super::stats::SummaryOf;
        let cases: [(u32, u32, bool); 5] = [
            (0, 1, false),
            (40, 1, false),
            (3000, 7, false),
            (3000, 7, true),
            (600_000, 70_001, false),
        ];
        for (urls, hosts, exact) in cases {
            let mut s = UrlStats::new(exact);
            for i in 0..urls {
                let url = format!("http://h{}.ex.{}/{i}", i % hosts, i % 3);
                let host = super::super::url::host(url.as_bytes())
                    .filter(|_| urls > 40);
                s.add(url.as_bytes(), host.as_deref().map(str::as_bytes));
            }
            let mut counts = Counts::new();
            counts.add("total", "matches", u64::from(urls));
            let mut all = counts.clone();
            s.add_to(&mut all);
            let keys = s.keys();
            for top in [0, 3, 10, usize::MAX] {
                let of = |counts, keys| SummaryOf {
                    counts,
                    unique_urls: s.exact_unique_urls(),
                    elapsed: None,
                    top,
                    keys,
                };
                let (want, got) = (of(&all, None), of(&counts, Some(&keys)));
                let (mut a, mut b) = (Vec::new(), Vec::new());
                want.write_text(&mut a).unwrap();
                got.write_text(&mut b).unwrap();
                let case = format!("{urls} {hosts} {exact} {top}");
                assert_eq!(
                    String::from_utf8_lossy(&a),
                    String::from_utf8_lossy(&b),
                    "{case}"
                );
                assert_eq!(want.to_json(), got.to_json(), "{case}");
            }
        }
    }

    /// Issue 33.6: the unique count is exact up to 2^19 URLs (it was
    /// 2^20, 21 MiB), then the sketch's.
    #[test]
    fn the_unique_count_is_exact_up_to_the_limit() {
        let mut s = UrlStats::new(false);
        let mut url = Vec::new();
        for i in 0..=EXACT_UNIQUE_LIMIT {
            if i == EXACT_UNIQUE_LIMIT {
                assert_eq!(s.exact_unique_urls(), Some(i as u64));
            }
            url.clear();
            url.extend_from_slice(format!("http://u.example/{i}").as_bytes());
            s.add(&url, None);
        }
        assert_eq!(s.exact_unique_urls(), None);
        assert_eq!(EXACT_UNIQUE_LIMIT, 1 << 19);
    }

    #[test]
    fn exact_and_bounded_agree_while_the_keys_fit() {
        let mut a = UrlStats::new(false);
        let mut b = UrlStats::new(true);
        for i in 0..5000u32 {
            let j = i % 3000;
            let url = format!("http://h{}.example.org/{j}", j % 700);
            let host = super::super::url::host(url.as_bytes());
            a.add(url.as_bytes(), host.as_deref().map(str::as_bytes));
            b.add(url.as_bytes(), host.as_deref().map(str::as_bytes));
        }
        assert_eq!(a.exact_unique_urls(), Some(3000));
        assert_eq!(b.exact_unique_urls(), Some(3000));
        let (mut ca, mut cb) = (Counts::new(), Counts::new());
        a.add_to(&mut ca);
        b.add_to(&mut cb);
        assert_eq!(ca, cb);
        assert_eq!(ca.dim("host").len(), 700);
        assert_eq!(ca.get("tld", "org"), 5000);
        assert_eq!(ca.get("error", "host"), 0);
        let est = ca.estimate("hll-urls").unwrap_or(0.0);
        assert!((est - 3000.0).abs() < 3000.0 * 0.025, "{est}");
    }

    /// The TLDs counted in runs (a host that ends in the run's TLD is
    /// not searched for its last dot) are those of each host: hosts with
    /// a trailing dot, IP literals and addresses, single labels, digits,
    /// a TLD inside another, in runs and alone (issue 32, `--stats`).
    #[test]
    fn tlds_in_runs_are_each_hosts() {
        let hosts = [
            "a.org",
            "[1::2].org",
            "b.org",
            "b.org.",
            "org",
            "x.borg",
            "b.org",
            "[1::2].org",
            "10.0.0.1",
            "1.2.3.org",
            "a.org",
            "org.org",
            "a..org",
            ".org",
            "a.org.",
            "a.com",
            "a.com",
            "",
            "a.b.c.com",
            "com",
            "m.com",
        ];
        let mut s = UrlStats::new(false);
        let mut want = Counts::new();
        for (i, h) in hosts.iter().cycle().take(hosts.len() * 3).enumerate() {
            let url = format!("http://{h}/{i}");
            s.add(url.as_bytes(), Some(h.as_bytes()));
            if let Some(t) = super::super::url::tld(h) {
                want.add("tld", t, 1);
            }
        }
        let mut got = Counts::new();
        s.add_to(&mut got);
        assert_eq!(got.dim("tld"), want.dim("tld"));
        assert!(got.get("tld", "org") > 10, "{:?}", got.dim("tld"));
    }
}
