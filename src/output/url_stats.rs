//! The per-URL statistics of a run in bounded memory: unique URLs and
//! hosts, top hosts and TLDs.
//!
//! | mode                 | unique URLs                   | hosts, TLDs                 | memory            |
//! |----------------------|-------------------------------|-----------------------------|-------------------|
//! | default              | exact up to 2^19 URLs ([`Seen`]), then HyperLogLog (±0.81 %) | Space-Saving, exact up to 65,536 distinct keys each | at most ~20 MiB |
//! | `--exact-stats`      | exact ([`Seen`], 10–21 B a URL) | exact (every key: a 32-byte slot at a load of 1/4 to 1/2, so 64–128 B, and its bytes) | grows with the input |
//!
//! Either way the HyperLogLog sketches of URLs and hosts (16 KiB each) are
//! kept and written to the partials, so that `urlgrep merge` can give
//! unique counts across shards.

use super::hll::{hash64, Hll};
use super::seen::Seen;
use super::stats::Counts;
use super::topk::TopK;
use super::url::tld;

/// URLs counted exactly for the unique count before the sketch takes
/// over (default mode): at most about 11 MiB. It was 2^20 (21 MiB):
/// with the host summaries, `--stats --by day` at `-j2` on 4 M hosts
/// took 90 MiB (issue 33.6: at most 64).
pub const EXACT_UNIQUE_LIMIT: usize = 1 << 19;

/// Unique URLs and hosts, top hosts and TLDs.
#[derive(Debug)]
pub struct UrlStats {
    exact: bool,
    seen: Option<Seen>,
    urls: Hll,
    host_sketch: Hll,
    hosts: TopK,
    tlds: TopK,
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
            seen: Some(Seen::new()),
            urls: Hll::new(),
            host_sketch: Hll::new(),
            hosts: summary(),
            tlds: summary(),
        }
    }

    /// Counts a URL (that passed validation) whose host is `host`
    /// (lower-case, as [`super::url::host_from`] gives it).
    pub fn add(&mut self, url: &[u8], host: Option<&str>) {
        // One stable hash per URL serves the sketch and the exact count
        // (text crafted to collide would lower the count by one a pair:
        // statistics, not `-u`, which keeps a keyed hash).
        let h = hash64(url);
        self.urls.insert_hash(h);
        if let Some(seen) = &mut self.seen {
            seen.insert_hash(h);
            if !self.exact && seen.len() > EXACT_UNIQUE_LIMIT {
                self.seen = None;
            }
        }
        if let Some(h) = host {
            if let Some(t) = tld(h) {
                self.tlds.add(t, 1);
            }
            let hash = hash64(h.as_bytes());
            self.host_sketch.insert_hash(hash);
            self.hosts.add_hashed(h, hash, 1);
        }
    }

    /// The exact number of distinct URLs, while it is known.
    pub fn exact_unique_urls(&self) -> Option<u64> {
        self.seen.as_ref().map(|s| s.len() as u64)
    }

    /// Adds the counters to `counts`: the `host` and `tld` dimensions, the
    /// `error` of each when the summary is no longer exact, and the
    /// sketches (`hll-urls`, `hll-hosts`).
    pub fn add_to(&self, counts: &mut Counts) {
        for (dim, summary) in [("host", &self.hosts), ("tld", &self.tlds)] {
            let summary = summary.settled();
            for (key, n) in summary.iter() {
                counts.add(dim, key, n);
            }
            if summary.max_error() > 0 {
                counts.add("error", dim, summary.max_error());
            }
        }
        for (dim, sketch) in
            [("hll-urls", &self.urls), ("hll-hosts", &self.host_sketch)]
        {
            for (i, rank) in sketch.registers() {
                counts.add(dim, &i.to_string(), u64::from(rank));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            a.add(
                url.as_bytes(),
                super::super::url::host(url.as_bytes()).as_deref(),
            );
            b.add(
                url.as_bytes(),
                super::super::url::host(url.as_bytes()).as_deref(),
            );
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
}
