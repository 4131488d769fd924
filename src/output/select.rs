//! The selection layer in front of the printers: `--kind`, `--scheme`,
//! `--redact` and `--unique`, the same for every output format.

use super::url::redact;
use crate::scan::Kind;
use std::borrow::Cow;
use std::collections::HashSet;

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
    seen: HashSet<Vec<u8>>,
}

impl Selection {
    /// A selection of `kinds` and `schemes` (all when empty).
    pub(super) fn new(
        kinds: Vec<Kind>,
        schemes: Vec<String>,
        redact: bool,
        unique: bool,
    ) -> Selection {
        Selection { kinds, schemes, redact, unique, seen: HashSet::new() }
    }

    /// Whether the scheme is asked (`--scheme`).
    #[inline]
    pub(super) fn by_scheme(&self) -> bool {
        !self.schemes.is_empty()
    }

    /// Whether a candidate of `kind` and `scheme` (lower-case; read only
    /// when [`Selection::by_scheme`] or a printer needs it) is selected.
    #[inline]
    pub(super) fn selects(&self, kind: Kind, scheme: &str) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&kind))
            && (self.schemes.is_empty()
                || self.schemes.iter().any(|s| s == scheme))
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
        !self.unique || self.seen.insert(text.to_vec())
    }
}
