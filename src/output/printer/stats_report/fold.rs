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
use crate::output::hll::{hash64, hash64_words};
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
    /// The kind of the last URL counted when its scheme, read from the
    /// URL, was `http`, and the index of its counter in `few`: the next
    /// URL of that kind that starts with `http:` adds to it with no
    /// other test (nearly every URL; the scheme's `Cow` and the search
    /// of `few` were a sixth of [`StatsFold::add`]).
    http: Option<(Kind, usize)>,
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

    /// Counts `hit` by scheme (as [`hit_scheme`] reads it) and kind.
    #[inline]
    fn count(&mut self, hit: &Hit<'_>) {
        if let Some((kind, at)) = self.http {
            if kind == hit.kind
                && hit.url.starts_with(b"http:")
                && self.few.add_at(at, 1)
            {
                return;
            }
        }
        let scheme = hit_scheme(hit, true);
        let kind = hit.kind;
        // (compared by words: `==` on the strings was a `memcmp` call)
        let is = |k: &(String, Kind)| {
            k.1 == kind && same_bytes(k.0.as_bytes(), scheme.as_bytes())
        };
        let at = self.few.add_where(0, 1, is, || (scheme.to_string(), kind));
        // `hit_scheme` reads the URL's scheme when its kind implies none.
        if kind.implied_scheme().is_none() && scheme == "http" {
            self.http = Some((kind, at));
        }
    }

    /// Keeps `host` (ASCII without upper case, as [`host_bytes`] gives
    /// it borrowed) and its [`hash64`], the host's bytes read once (a
    /// word at a time: its case tested, hashed, copied); `false`, with
    /// nothing kept, when it has upper case or non-ASCII bytes.
    #[inline]
    fn keep_lower(&mut self, host: &[u8]) -> bool {
        let at = self.hosts.len();
        let hosts = &mut self.hosts;
        hosts.reserve(host.len() + 8);
        let mut bad = 0;
        let hash = hash64_words(host, |w| {
            bad |= upper_or_high(w);
            hosts.extend_from_slice(&w.to_le_bytes());
        });
        if bad != 0 {
            hosts.truncate(at);
            return false;
        }
        hosts.truncate(at + host.len());
        self.host_of.push(Host { hash, at, len: host.len() });
        true
    }

    /// Keeps the host [`host_bytes`] gives, and its [`hash64`].
    #[cold]
    fn keep_read(&mut self, hit: &Hit<'_>) {
        if let Some(h) = host_bytes(hit.url, hit.host) {
            let at = self.hosts.len();
            self.hosts.extend_from_slice(&h);
            let hash = hash64(&h);
            self.host_of.push(Host { hash, at, len: h.len() });
        }
    }
}

/// The bytes of `w` at or past 0x80 or in `A..=Z`, as their top bits (0:
/// ASCII without upper case; the test of `host_bytes`). Where every byte
/// is below 0x80, adding 0x3f sets the top bit from `A` up and adding
/// 0x25 from past `Z` up, with no carry between bytes.
#[inline(always)]
fn upper_or_high(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let from_a = w.wrapping_add(ONES * 0x3f);
    let past_z = w.wrapping_add(ONES * 0x25);
    (w | (from_a & !past_z)) & (ONES * 0x80)
}

impl Fold for StatsFold {
    fn add(&mut self, hit: &Hit<'_>) {
        // What the printer gives the statistics of a match: its scheme
        // as `Emit::url` is given it, the host as `StatsReport::url`
        // reads it.
        self.count(hit);
        self.urls.push(hash64(hit.url));
        // `host_bytes`: the parsed host when it is lower-case ASCII, else
        // the host read from the URL.
        let parsed = hit.host.filter(|h| !h.is_empty());
        if !parsed.is_some_and(|h| self.keep_lower(h)) {
            self.keep_read(hit);
        }
    }

    fn clear(&mut self) {
        self.urls.clear();
        self.host_of.clear();
        self.hosts.clear();
        self.few.clear();
        self.http = None;
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

#[cfg(test)]
mod tests {
    use super::StatsFold;
    use crate::driver::{Fold, Hit};
    use crate::output::hll::hash64;
    use crate::output::select::hit_scheme;
    use crate::output::url::host_bytes;
    use crate::scan::{Flags, Kind};
    use crate::search::Position;
    use std::collections::HashMap;

    /// The fold's counts by scheme and kind, and its hosts with their
    /// hashes, are those of [`hit_scheme`], [`host_bytes`] and
    /// [`hash64`] of each hit, whatever the run of kinds and schemes
    /// (`http` read from the URL, in another kind, implied, upper case)
    /// and whatever the host (every length to past two words, upper
    /// case, non-ASCII, empty, none, read from the URL).
    #[test]
    fn fold_counts_schemes_and_keeps_hosts_as_each_url_gives_them() {
        // Each URL, its kind and where its parsed host is in it.
        type Case = (Vec<u8>, Kind, Option<(usize, usize)>);
        let mut urls: Vec<Case> = Vec::new();
        for n in 0..=26 {
            let host: String =
                (0..n).map(|i| (b'a' + i % 26) as char).collect();
            let url = format!("http://{host}/x");
            urls.push((
                url.into_bytes(),
                Kind::Bare,
                Some((7, 7 + n as usize)),
            ));
        }
        let kinds = [Kind::Bare, Kind::Angle, Kind::Www, Kind::Email];
        for (i, (url, host)) in [
            ("http://a.example/", Some("a.example")),
            ("http://A.Example/", Some("A.Example")),
            ("HTTP://a.example/", Some("a.example")),
            ("https://b.example:8/", Some("b.example")),
            ("http://b\u{fc}cher.example/", Some("b\u{fc}cher.example")),
            ("http://abcdefgH.example/", Some("abcdefgH.example")),
            ("http://abcdefgh.exampZe/", Some("abcdefgh.exampZe")),
            ("http://Z.example/", Some("Z.example")),
            ("http://@.[.`.{.example/", Some("@.[.`.{.example")),
            ("http://abcdefg\u{e9}.example/", Some("abcdefg\u{e9}.example")),
            ("http://c.example/", Some("")),
            ("http://d.example/", None),
            ("www.e.example/", Some("www.e.example")),
            ("x@f.example", None),
            ("news:comp.x", None),
            ("http:", None),
        ]
        .into_iter()
        .enumerate()
        {
            for kind in kinds.into_iter().cycle().skip(i).take(5) {
                let at = host.map(|h| {
                    let at = url.find(h).unwrap_or(0);
                    (at, at + h.len())
                });
                urls.push((url.as_bytes().to_vec(), kind, at));
            }
        }
        let hits: Vec<Hit<'_>> = urls
            .iter()
            .map(|(url, kind, host)| Hit {
                at: Position { start: 0, end: 0, line: 0, column: 0 },
                url,
                kind: *kind,
                scheme: crate::parse::Scheme::Http,
                host: host.and_then(|(a, b)| url.get(a..b)),
                flags: Flags::default(),
                reject: None,
                record: None,
                repaired: false,
                defanged: None,
            })
            .collect();
        let mut fold = StatsFold::default();
        for round in 0..2 {
            let mut want_counts = HashMap::new();
            let mut want_hosts = Vec::new();
            let mut want_urls = Vec::new();
            for hit in &hits {
                fold.add(hit);
                want_urls.push(hash64(hit.url));
                let key = (hit_scheme(hit, true).into_owned(), hit.kind);
                *want_counts.entry(key).or_insert(0) += 1;
                if let Some(h) = host_bytes(hit.url, hit.host) {
                    want_hosts.push((h.to_vec(), hash64(&h)));
                }
            }
            let counts: HashMap<_, _> = fold.few().iter().cloned().collect();
            assert_eq!(counts.len(), fold.few().len(), "round {round}");
            assert_eq!(counts, want_counts, "round {round}");
            let hosts: Vec<_> =
                fold.hosts().map(|(h, hash)| (h.to_vec(), hash)).collect();
            assert_eq!(hosts, want_hosts, "round {round}");
            assert_eq!(fold.urls(), want_urls, "round {round}");
            fold.clear();
        }
    }
}
