//! The selection layer in front of the printers: `--kind`, `--scheme`,
//! `--redact` and `--unique`, the same for every output format.

use super::seen::Seen;
use super::url::redact;
use crate::driver::Hit;
use crate::filter::Filter;
use crate::parse::host_by_shape;
use crate::scan::Kind;
use std::borrow::Cow;
use std::sync::Arc;

/// Which candidates reach the printers, and as what text.
#[derive(Debug, Default)]
pub(super) struct Selection {
    /// Only these kinds (all when empty).
    kinds: Vec<Kind>,
    /// Only these schemes, lower-case (all when empty).
    schemes: Vec<String>,
    /// Passwords replaced with `***`.
    redact: bool,
    /// Each URL printed only the first time it is seen.
    unique: bool,
    /// 64-bit hashes of the URLs printed, for `--unique`.
    seen: Seen,
    /// `--host`, `--exclude-host` and `-e` (all when `None`).
    filter: Option<Arc<Filter>>,
}

impl Selection {
    /// A selection of `kinds` and `schemes` (all when empty).
    pub(super) fn new(
        kinds: Vec<Kind>,
        schemes: Vec<String>,
        redact: bool,
        unique: bool,
        filter: Option<Arc<Filter>>,
    ) -> Selection {
        Selection { kinds, schemes, redact, unique, seen: Seen::new(), filter }
    }

    /// Whether the scheme is asked (`--scheme`).
    #[inline]
    pub(super) fn by_scheme(&self) -> bool {
        !self.schemes.is_empty()
    }

    /// Whether some candidates are left out: `--kind`, `--scheme` or a
    /// filter.
    pub(super) fn reads_hits(&self) -> bool {
        !self.kinds.is_empty()
            || !self.schemes.is_empty()
            || self.filter.is_some()
    }

    /// Whether `hit`, of scheme `scheme` (lower-case; read only when
    /// [`Selection::by_scheme`] or a printer needs it) is selected: its
    /// kind and scheme, then the filter on its printed text and its host
    /// (the validator's, or read by shape for a rejected candidate and a
    /// `mailto` address).
    #[inline]
    pub(super) fn selects(&self, hit: &Hit<'_>, scheme: &str) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&hit.kind))
            && (self.schemes.is_empty()
                || self.schemes.iter().any(|s| s == scheme))
            && self.filter.as_ref().is_none_or(|f| {
                let text = self.text(hit.url);
                if !f.needs_host() {
                    return f.keep(&text, None);
                }
                let host = hit.host.or_else(|| host_by_shape(hit.url));
                f.keep(&text, host)
            })
    }

    /// The text printed for `url`: redacted when asked.
    #[inline]
    pub(super) fn text<'u>(&self, url: &'u [u8]) -> Cow<'u, [u8]> {
        if self.redact {
            redact(url)
        } else {
            Cow::Borrowed(url)
        }
    }

    /// Whether `text` is printed: always, or under `--unique` only the
    /// first time.
    #[inline]
    pub(super) fn first(&mut self, text: &[u8]) -> bool {
        !self.unique || self.seen.insert(text)
    }
}
