//! The statistics' fold ([`crate::driver::Report::folds`]): what
//! [`super::StatsReport`] does with each URL outside a record, read on
//! the worker that found it, a batch at a time. The counters of scheme
//! and kind are added up there; what depends on the order of the URLs
//! (the top-k summaries of hosts and TLDs, the exact unique count's
//! limit) is kept per URL as its hash, and per host as its hash and
//! bytes, and added by the reporter in input order, as each URL given
//! to it would be.

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
    /// The [`hash64`] of each URL, in input order.
    urls: Vec<u64>,
    /// The host of each URL that has one, in input order.
    host_of: Vec<Host>,
    /// The hosts (as [`host_bytes`] gives them), one after the other.
    hosts: Vec<u8>,
    /// URLs by scheme (lower-case) and kind; a handful in a batch.
    few: Few<(String, Kind), 1>,
}

/// A URL's host: its [`hash64`], and its bytes, `hosts[at..at + len]`.
#[derive(Clone, Copy, Debug)]
struct Host {
    hash: u64,
    at: usize,
    len: usize,
}

impl StatsFold {
    /// The [`hash64`] of each URL folded, in input order.
    pub(super) fn urls(&self) -> &[u64] {
        &self.urls
    }

    /// The hosts of the URLs folded that have one, in input order, each
    /// with its [`hash64`].
    pub(super) fn hosts(
        &self,
    ) -> impl Iterator<Item = (&[u8], u64)> + Clone + '_ {
        self.host_of.iter().map(|h| {
            let bytes = self.hosts.get(h.at..h.at + h.len);
            (bytes.unwrap_or_default(), h.hash)
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
        self.urls.push(hash64(hit.url));
        if let Some(h) = host_bytes(hit.url, hit.host) {
            let at = self.hosts.len();
            self.hosts.extend_from_slice(&h);
            let hash = hash64(&h);
            self.host_of.push(Host { hash, at, len: h.len() });
        }
    }

    fn clear(&mut self) {
        self.urls.clear();
        self.host_of.clear();
        self.hosts.clear();
        self.few.clear();
        self.urls.shrink_to(KEEP / size_of::<u64>());
        self.host_of.shrink_to(KEEP / size_of::<Host>());
        self.hosts.shrink_to(KEEP);
    }

    fn held(&self) -> usize {
        self.urls.capacity() * size_of::<u64>()
            + self.host_of.capacity() * size_of::<Host>()
            + self.hosts.capacity()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
