//! Raw quoted-printable repair (`--qp-repair`): for text not known to be
//! MIME, where quoted-printable was pasted or mislabelled.
//!
//! Only URL candidates are touched, and only when quoted-printable shows
//! in or right after them: a soft line break (`=` at the end of a line,
//! RFC 2045 §6.7 rule 5) inside or just after the candidate, or a `=3D`
//! (the encoded `=`) inside it. From the candidate's start, soft breaks
//! are joined and `=3D` decoded until the first blank past the
//! candidate's end, and the result is scanned again. An `=` at the end of
//! a line right after a query parameter name (`?sid=`) is kept: without
//! MIME it is as often a hard break after the `=` (`?sid=` / `12535`, four
//! times on the SpamAssassin corpus) as a soft one. Other `=XX` are left
//! alone: in a URL `=AB` is more often a query value than an escape; so
//! is the lower-case `=3d` (`Click?q=3d-oi9…` on the SpamAssassin corpus),
//! while encoders write `=3D` (RFC 2045 §6.7: upper case must be used).

use super::map::Map;
use crate::scan::Span;
use crate::search::{CandidateIter, Finder, Match};
use memchr::memmem;
use std::borrow::Cow;

/// A URL from [`repair_iter`]: as found, or repaired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repaired<'h> {
    m: Match<'h>,
    repaired: bool,
}

impl<'h> Repaired<'h> {
    /// The match; its span covers the original bytes, soft breaks and
    /// escapes included.
    pub fn as_match(&self) -> &Match<'h> {
        &self.m
    }

    /// The match, by value.
    pub fn into_match(self) -> Match<'h> {
        self.m
    }

    /// Whether soft breaks were joined or `=3D` decoded to get it.
    pub fn is_repaired(&self) -> bool {
        self.repaired
    }
}

/// The URLs of `hay`, with raw quoted-printable repaired; see the module
/// docs.
///
/// ```
/// let finder = urlgrep::Finder::new();
/// let text = b"go to http://example.com/lo=\nng?b=3Dc now";
/// let r: Vec<_> = urlgrep::mail::repair_iter(&finder, text).collect();
/// assert_eq!(r[0].as_match().url(), b"http://example.com/long?b=c");
/// assert!(r[0].is_repaired());
/// assert_eq!(r[0].as_match().span().end, 37);
/// ```
pub fn repair_iter<'f, 'h>(
    finder: &'f Finder,
    hay: &'h [u8],
) -> RepairIter<'f, 'h> {
    RepairIter { finder, hay, it: finder.candidates(hay) }
}

/// Iterator over repaired matches; see [`repair_iter`].
#[derive(Debug)]
pub struct RepairIter<'f, 'h> {
    finder: &'f Finder,
    hay: &'h [u8],
    it: CandidateIter<'f, 'h>,
}

impl<'h> Iterator for RepairIter<'_, 'h> {
    type Item = Repaired<'h>;

    fn next(&mut self) -> Option<Repaired<'h>> {
        loop {
            let c = self.it.next()?;
            let span = c.as_match().span();
            if needs_repair(self.hay, span) {
                if let Some((m, end)) = repair_at(self.finder, self.hay, span)
                {
                    let resume = end.max(self.it.resume());
                    self.it = self.finder.candidates_from(
                        self.hay,
                        resume,
                        usize::MAX,
                    );
                    return Some(Repaired { m, repaired: true });
                }
            }
            if let Ok(m) = c.into_result() {
                return Some(Repaired { m, repaired: false });
            }
        }
    }
}

/// A soft break in or right after `span`, or `=3D` in it.
fn needs_repair(hay: &[u8], span: Span) -> bool {
    let Some(text) = hay.get(span.start..span.end) else { return false };
    let after = hay.get(span.end..).unwrap_or(&[]);
    let soft = |s: &[u8]| s.starts_with(b"=\n") || s.starts_with(b"=\r\n");
    let eol = |s: &[u8]| s.starts_with(b"\n") || s.starts_with(b"\r\n");
    soft(after)
        || (text.ends_with(b"=") && eol(after))
        || memmem::find(text, b"=\n").is_some()
        || memmem::find(text, b"=\r\n").is_some()
        || memmem::find(text, b"=3D").is_some()
}

/// Whether `url` ends with a query parameter name (`?name`, `&name` or
/// `;name`), so that an `=` after it separates a value.
fn ends_with_query_name(url: &[u8]) -> bool {
    let tail = url.iter().rev().position(|b| b"?&;=/#".contains(b));
    match tail {
        Some(k) if k > 0 => b"?&;".contains(&url[url.len() - 1 - k]),
        _ => false,
    }
}

/// Joins and decodes from `span.start`, scans again, and returns the
/// repaired match (span in `hay`) and where it ends in `hay`.
fn repair_at(
    finder: &Finder,
    hay: &[u8],
    span: Span,
) -> Option<(Match<'static>, usize)> {
    let cap = 8192;
    let (mut out, mut map) = (Vec::new(), Map::default());
    let mut i = span.start;
    while i < hay.len() && out.len() < cap {
        let b = hay[i];
        let rest = &hay[i..];
        let soft = if rest.starts_with(b"=\n") {
            2
        } else if rest.starts_with(b"=\r\n") {
            3
        } else {
            0
        };
        if soft > 0 {
            if ends_with_query_name(&out) {
                // `?sid=` then a line break: a hard break after the `=`
                // of a query parameter, not a soft one; keep the `=`.
                map.copy(out.len(), i, 1);
                out.push(b'=');
            }
            i += soft;
        } else if rest.starts_with(b"=3D") {
            map.unit(out.len(), i, 3);
            out.push(b'=');
            i += 3;
        } else if i >= span.end
            && (b.is_ascii_whitespace() || b"<>\"".contains(&b))
        {
            break;
        } else {
            map.copy(out.len(), i, 1);
            out.push(b);
            i += 1;
        }
    }
    let c = finder.candidates(&out).next()?;
    let m = c.into_result().ok()?;
    if m.span.start != 0 {
        return None;
    }
    let (start, end) = map.range(m.span.start, m.span.end);
    if hay.get(start..end) == Some(&out[m.span.start..m.span.end]) {
        // Nothing was repaired after all.
        return None;
    }
    let url = Cow::Owned(m.url().to_vec());
    Some((Match { span: Span { start, end }, url, ..m.into_owned() }, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(text: &[u8]) -> Vec<(String, bool)> {
        let f = Finder::new();
        repair_iter(&f, text)
            .map(|r| {
                (
                    String::from_utf8_lossy(r.as_match().url()).into_owned(),
                    r.is_repaired(),
                )
            })
            .collect()
    }

    #[test]
    fn repairs_only_what_needs_it() {
        let got =
            urls(b"a http://a.b/c d <http://e.f/g=\nh> http://i.j/k=3Dl\n");
        assert_eq!(
            got,
            [
                ("http://a.b/c".into(), false),
                ("http://e.f/gh".into(), true),
                ("http://i.j/k=l".into(), true)
            ]
        );
        assert_eq!(
            urls(b"http://a.b/?x=1 y=\nz"),
            [("http://a.b/?x=1".into(), false)]
        );
        let got = urls(b"http://a.b/?sid=\n12&t=3D1 x");
        assert_eq!(got, [("http://a.b/?sid=12&t=1".into(), true)]);
        let got = urls(b"http://a.b/?q=3d-x");
        assert_eq!(got, [("http://a.b/?q=3d-x".into(), false)]);
    }

    #[test]
    fn broken_host_is_repaired() {
        assert_eq!(
            urls(b"http://exam=\r\nple.com/ ok"),
            [("http://example.com/".into(), true)]
        );
    }
}
