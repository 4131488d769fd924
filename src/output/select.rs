//! The selection layer in front of the printers: `--kind`, `--scheme`,
//! `--redact` and `--unique`, the same for every output format.

use super::escape::json_text;
use super::seen::Seen;
use super::url::redact;
use crate::driver::{Hit, Pick};
use crate::filter::Filter;
use crate::parse::{self, host_by_shape};
use crate::scan::Kind;
use std::borrow::Cow;
use std::sync::Arc;

/// Which candidates reach the printers, and as what text.
#[derive(Debug, Default)]
pub(super) struct Selection {
    /// What selects a candidate by itself.
    choice: Choice,
    /// Each URL printed only the first time it is seen.
    unique: bool,
    /// 64-bit hashes of the URLs printed, for `--unique`.
    seen: Seen,
}

/// What selects a candidate by itself (all but `--unique`), and its
/// text: cheap to clone, shared with the driver's workers
/// ([`Selection::pick`]).
#[derive(Clone, Debug, Default)]
struct Choice {
    /// Only these kinds (all when empty).
    kinds: Vec<Kind>,
    /// Only these schemes, lower-case (all when empty).
    schemes: Vec<String>,
    /// Passwords replaced with `***`.
    redact: bool,
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
        let choice = Choice { kinds, schemes, redact, filter };
        Selection { choice, unique, seen: Seen::new() }
    }

    /// Whether the scheme is asked (`--scheme`).
    #[inline]
    pub(super) fn by_scheme(&self) -> bool {
        self.choice.by_scheme()
    }

    /// Whether some candidates are left out: `--kind`, `--scheme` or a
    /// filter.
    pub(super) fn reads_hits(&self) -> bool {
        let c = &self.choice;
        !c.kinds.is_empty() || !c.schemes.is_empty() || c.filter.is_some()
    }

    /// Whether every candidate is selected, as its URL: no `--kind`,
    /// `--scheme`, filter, `--redact` or `--unique`.
    pub(super) fn takes_all(&self) -> bool {
        !self.reads_hits() && !self.choice.redact && !self.unique
    }

    /// Whether `hit`, of scheme `scheme` (lower-case; read only when
    /// [`Selection::by_scheme`] or a printer needs it) is selected: its
    /// kind and scheme, then the filter on its printed text and its host
    /// (the validator's, or read by shape for a rejected candidate and a
    /// `mailto` address).
    #[inline]
    pub(super) fn selects(&self, hit: &Hit<'_>, scheme: &str) -> bool {
        self.choice.selects(hit, scheme)
    }

    /// What [`Selection::selects`] says of a candidate, its scheme read
    /// from it as [`scheme_of`] reads it when `--scheme` asks: the
    /// selection as the driver's workers ask it of each candidate they
    /// only count ([`crate::Report::counts_only_if`]; `-c` with
    /// `--host` stores, copies and reports no URL).
    pub(super) fn pick(&self) -> Pick {
        let choice = self.choice.clone();
        Arc::new(move |hit: &Hit<'_>| {
            // The scheme is read only when `--scheme` asks.
            if !choice.by_scheme() {
                return choice.selects(hit, "");
            }
            choice.selects(hit, &hit_scheme(hit, true))
        })
    }

    /// The text printed for `url`: redacted when asked.
    #[inline]
    pub(super) fn text<'u>(&self, url: &'u [u8]) -> Cow<'u, [u8]> {
        self.choice.text(url)
    }

    /// Whether `text` is printed: always, or under `--unique` only the
    /// first time.
    #[inline]
    pub(super) fn first(&mut self, text: &[u8]) -> bool {
        !self.unique || self.seen.insert(text)
    }
}

/// [`host_by_shape`] of `url`, a `mailto:` address's domain found by
/// `memchr` (the end of the address, then its last `@`): the byte loop
/// of `host_by_shape` was 287 instructions an address, 84 a URL of the
/// spool under `--host-file` (issue 32).
#[inline]
fn shape_host(url: &[u8]) -> Option<&[u8]> {
    let mailto =
        url.get(..7).is_some_and(|s| s.eq_ignore_ascii_case(b"mailto:"));
    let Some(rest) = url.get(7..).filter(|r| mailto && !r.starts_with(b"//"))
    else {
        return host_by_shape(url);
    };
    let end = memchr::memchr3(b'?', b',', b'#', rest).unwrap_or(rest.len());
    let addr = rest.get(..end)?;
    let host = addr.get(memchr::memrchr(b'@', addr)? + 1..)?;
    (!host.is_empty()).then_some(host)
}

impl Choice {
    #[inline]
    fn by_scheme(&self) -> bool {
        !self.schemes.is_empty()
    }

    /// [`Selection::selects`].
    #[inline]
    fn selects(&self, hit: &Hit<'_>, scheme: &str) -> bool {
        (self.kinds.is_empty() || self.kinds.contains(&hit.kind))
            && (self.schemes.is_empty()
                || self.schemes.iter().any(|s| s == scheme))
            && self.filter.as_ref().is_none_or(|f| {
                let text = self.text(hit.url);
                if !f.needs_host() {
                    return f.keep(&text, None);
                }
                let host = hit.host.or_else(|| shape_host(hit.url));
                f.keep(&text, host)
            })
    }

    /// [`Selection::text`].
    #[inline]
    fn text<'u>(&self, url: &'u [u8]) -> Cow<'u, [u8]> {
        if self.redact {
            redact(url)
        } else {
            Cow::Borrowed(url)
        }
    }
}

/// The scheme of `hit`, lower-case: for a scheme-less find (an address, a
/// `www.` name) the one it implies, else the one written, read only when
/// `read` (a plain listing without `--scheme` never needs it: one pass
/// less a URL), else empty.
#[inline]
pub(super) fn hit_scheme<'h>(hit: &Hit<'h>, read: bool) -> Cow<'h, str> {
    match hit.kind.implied_scheme() {
        Some(implied) => Cow::Borrowed(implied),
        None if read => scheme_of(hit.url),
        None => Cow::Borrowed(""),
    }
}

/// The lower-case scheme name as written in `url`. Inline, the test
/// of nearly every URL (`http:`, `https:`: no search for its colon);
/// the rest ([`scheme_named`]) out of line.
#[inline]
pub(super) fn scheme_of(url: &[u8]) -> Cow<'_, str> {
    if url.starts_with(b"http:") {
        return Cow::Borrowed("http");
    }
    if url.starts_with(b"https:") {
        return Cow::Borrowed("https");
    }
    scheme_named(url)
}

/// [`scheme_of`] of a URL that starts with neither `http:` nor `https:`.
#[inline(never)]
fn scheme_named(url: &[u8]) -> Cow<'_, str> {
    let name = parse::scheme_name(url);
    // The schemes of nearly every URL, written in lower case: no UTF-8
    // check (its call cost a hundred instructions a URL of `--json`).
    match name {
        b"http" => return Cow::Borrowed("http"),
        b"https" => return Cow::Borrowed("https"),
        b"mailto" => return Cow::Borrowed("mailto"),
        b"ftp" => return Cow::Borrowed("ftp"),
        _ => {}
    }
    match json_text(name).0 {
        Cow::Borrowed(s) if !s.bytes().any(|b| b.is_ascii_uppercase()) => {
            Cow::Borrowed(s)
        }
        s => Cow::Owned(s.to_ascii_lowercase()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The scheme as read before the common names were matched.
    fn whole(url: &[u8]) -> Cow<'_, str> {
        match json_text(parse::scheme_name(url)).0 {
            Cow::Borrowed(s) if !s.bytes().any(|b| b.is_ascii_uppercase()) => {
                Cow::Borrowed(s)
            }
            s => Cow::Owned(s.to_ascii_lowercase()),
        }
    }

    proptest! {
        #[test]
        fn the_scheme_as_read_whole(
            url in prop_oneof![
                "(http|https|mailto|ftp|HTTP|Https|mailTo|ftps|htt|x)(:.{0,8})?",
                any::<Vec<u8>>().prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
            ],
            raw in any::<Vec<u8>>(),
        ) {
            prop_assert_eq!(scheme_of(url.as_bytes()), whole(url.as_bytes()));
            prop_assert_eq!(scheme_of(&raw), whole(&raw));
        }

        /// The host a filter reads is `host_by_shape`'s.
        #[test]
        fn the_host_by_shape_of_a_mailto_address(
            url in "(mailto|MailTo|mailt|http|x)(:|://|:/)?[a-c@?,#:/\\[\\]]{0,12}",
            raw in any::<Vec<u8>>(),
        ) {
            prop_assert_eq!(shape_host(url.as_bytes()), host_by_shape(url.as_bytes()));
            prop_assert_eq!(shape_host(&raw), host_by_shape(&raw));
        }
    }

    #[test]
    fn the_host_of_a_mailto_address() {
        for url in [
            "mailto:a@b.example?subject=x",
            "MAILTO:a@B.example,c@d.example",
            "mailto:a@b@c.example#x",
            "mailto://a@b.example/x",
            "mailto:a@",
            "mailto:abc",
            "mailto:",
            "mailto",
            "mailto:?@x",
        ] {
            let url = url.as_bytes();
            assert_eq!(shape_host(url), host_by_shape(url), "{url:?}");
        }
        assert_eq!(
            shape_host(b"mailto:a@b.example?x"),
            Some(&b"b.example"[..])
        );
    }
}
