//! The statistics' fold ([`crate::driver::Report::folds`]): what
//! [`super::StatsReport`] does with each URL outside a record, read on
//! the worker that found it, a batch at a time. The counters of scheme
//! and kind are added up there; what depends on the order of the URLs
//! (the top-k summaries of hosts and TLDs, the exact unique count's
//! limit) is kept per URL as its hashes and its host, and added by the
//! reporter in input order, as each URL given to it would be.

use super::few::Few;
use crate::driver::{Fold, Hit};
use crate::filter::same_bytes;
use crate::output::hll::hash64;
use crate::output::select::hit_scheme;
use crate::output::url::host_bytes;
use crate::scan::Kind;
use std::any::Any;

/// What a fold keeps of a batch: at most about this many bytes once
/// cleared (a batch of a slice searched whole may fold millions).
const KEEP: usize = 1 << 20;

/// The URLs of a batch, folded.
#[derive(Debug, Default)]
pub(super) struct StatsFold {
    /// Each URL, in input order.
    urls: Vec<Folded>,
    /// The hosts of the URLs (as [`host_bytes`] gives them), one after
    /// the other.
    hosts: Vec<u8>,
    /// URLs by scheme (lower-case) and kind; a handful in a batch.
    few: Few<(String, Kind), 1>,
}

/// One URL: its [`hash64`], and its host's (`hosts[at..at + len]`; no
/// host when `len` is [`NO_HOST`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Folded {
    pub(super) url: u64,
    pub(super) host: u64,
    at: usize,
    len: usize,
}

/// [`Folded::len`] of a URL without a host.
const NO_HOST: usize = usize::MAX;

impl StatsFold {
    /// The URLs folded, in input order, each with its host (and the
    /// host's hash).
    pub(super) fn urls(
        &self,
    ) -> impl Iterator<Item = (u64, Option<(&[u8], u64)>)> + Clone {
        self.urls.iter().map(|f| {
            let host = (f.len != NO_HOST)
                .then(|| self.hosts.get(f.at..f.at + f.len))
                .flatten()
                .map(|h| (h, f.host));
            (f.url, host)
        })
    }

    /// The counts by scheme and kind: `(scheme, kind, URLs)`.
    pub(super) fn few(&self) -> &[((String, Kind), u64)] {
        self.few.counters()
    }

    /// The number of URLs folded.
    pub(super) fn len(&self) -> usize {
        self.urls.len()
    }

    /// Counts a URL of `scheme` and `kind`.
    #[inline]
    fn count(&mut self, scheme: &str, kind: Kind) {
        // (compared by words: `==` on the strings was a `memcmp` call)
        let is = |k: &(String, Kind)| {
            k.1 == kind && same_bytes(k.0.as_bytes(), scheme.as_bytes())
        };
        self.few.add_where(0, 1, is, || (scheme.to_owned(), kind));
    }
}

impl Fold for StatsFold {
    fn add(&mut self, hit: &Hit<'_>) {
        // What the printer gives the statistics of a match: its scheme
        // as `Emit::url` is given it, the host as `StatsReport::url`
        // reads it.
        let scheme = hit_scheme(hit, true);
        self.count(&scheme, hit.kind);
        let url = hash64(hit.url);
        let folded = match host_bytes(hit.url, hit.host) {
            Some(h) => {
                let at = self.hosts.len();
                self.hosts.extend_from_slice(&h);
                Folded { url, host: hash64(&h), at, len: h.len() }
            }
            None => Folded { url, host: 0, at: 0, len: NO_HOST },
        };
        self.urls.push(folded);
    }

    fn clear(&mut self) {
        self.urls.clear();
        self.hosts.clear();
        self.few.clear();
        self.urls.shrink_to(KEEP / size_of::<Folded>());
        self.hosts.shrink_to(KEEP);
    }

    fn held(&self) -> usize {
        self.urls.capacity() * size_of::<Folded>() + self.hosts.capacity()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
