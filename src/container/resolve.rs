//! `--resolve`: the relative references of a web archive's HTML payload
//! (`href`, `src`, `srcset`… values, [`crate::parse::html_refs`]) resolved
//! against the document's base by RFC 3986 §5.2
//! ([`crate::parse::resolve`]): the first `<base href>` (HTML Standard
//! §4.2.3), itself resolved against the page's URI, else the page's URI
//! (the record's `WARC-Target-URI`). Each becomes a URL of kind
//! [`Kind::Resolved`] at the value's place, the reference as written kept
//! beside it. Absolute references are the scanner's, as in any text;
//! same-document references (`#top`, an empty value: RFC 3986 §4.4) are
//! not links to another resource and are left out.

use crate::parse::html_refs::html_refs;
use crate::parse::{resolve, verdict, Scheme};
use crate::scan::{Flags, Kind, Span};
use crate::search::lines::LineCounter;
use crate::search::{Match, Position};
use std::borrow::Cow;
use std::collections::VecDeque;

/// A resolved reference, waiting for its place among the payload's URLs.
pub(super) struct Pending {
    /// Its place in the payload (the attribute value's bytes).
    pub(super) at: Position,
    url: Vec<u8>,
    scheme: Scheme,
    host: Option<(u32, u32)>,
    /// The reference as the document gives it (character references
    /// decoded).
    reference: Vec<u8>,
}

impl Pending {
    /// The match it prints as.
    pub(super) fn as_match(&self) -> Match<'_> {
        Match {
            span: Span {
                start: self.at.start as usize,
                end: self.at.end as usize,
            },
            url: Cow::Borrowed(&self.url),
            kind: Kind::Resolved,
            scheme: self.scheme,
            flags: Flags::default(),
            host: self.host,
            defanged: Some(Cow::Borrowed(&self.reference)),
        }
    }
}

/// The relative references of the HTML document `html`, whose URI is
/// `page`, resolved and validated, in document order; line numbers
/// counted when `lines`.
pub(super) fn resolved(
    html: &[u8],
    page: Option<&str>,
    lines: bool,
) -> VecDeque<Pending> {
    let mut out = VecDeque::new();
    let refs = html_refs(html);
    let page = page.filter(|p| resolve::split(p).scheme.is_some());
    let base = match (&refs.base, page) {
        (Some(b), page) => {
            let b = clean(&b.value);
            match page {
                Some(p) => resolve(p, &b),
                None => resolve::split(&b).scheme.is_some().then_some(b),
            }
        }
        (None, page) => page.map(str::to_owned),
    };
    let Some(base) = base else { return out };
    let mut counter = LineCounter::default();
    let mut refs = refs.refs;
    refs.sort_by_key(|r| r.span.start);
    for r in refs {
        // The base itself is the document's, not a link.
        if &*r.element == "base" {
            continue;
        }
        let reference = clean(&r.value);
        if reference.is_empty()
            || reference.starts_with('#')
            || resolve::split(&reference).scheme.is_some()
        {
            continue;
        }
        let Some(url) = resolve(&base, &reference) else { continue };
        let Ok(v) = verdict(url.as_bytes(), false) else { continue };
        let (start, end) = (r.span.start as u64, r.span.end as u64);
        let (line, column) = match lines {
            true => counter.at(html, 0, start),
            false => (0, 0),
        };
        out.push_back(Pending {
            at: Position { start, end, line, column },
            url: url.into_bytes(),
            scheme: v.scheme,
            host: v.host,
            reference: r.value,
        });
    }
    out
}

/// An attribute value as a reference: ASCII whitespace around it
/// dropped, tabs and line breaks inside removed (as the URL parser of
/// the HTML Standard does), spaces, other controls and bytes that are
/// not UTF-8 percent-encoded (RFC 3986 §2.1).
fn clean(value: &[u8]) -> String {
    let value = value.trim_ascii();
    let text = String::from_utf8_lossy(value);
    let lossless = matches!(text, Cow::Borrowed(_));
    let mut out = String::with_capacity(value.len());
    let push_byte = |out: &mut String, b: u8| {
        out.push_str(&format!("%{b:02X}"));
    };
    if lossless {
        for c in text.chars() {
            match c {
                '\t' | '\n' | '\r' => {}
                ' ' | '\0'..='\x1f' | '\x7f' => push_byte(&mut out, c as u8),
                c => out.push(c),
            }
        }
    } else {
        for &b in value {
            match b {
                b'\t' | b'\n' | b'\r' => {}
                b' ' | 0..=0x1f | 0x7f.. => push_byte(&mut out, b),
                b => out.push(b as char),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(html: &str, page: &str) -> Vec<(String, String)> {
        resolved(html.as_bytes(), Some(page), false)
            .into_iter()
            .map(|p| {
                let u = String::from_utf8(p.url).unwrap();
                let r = String::from_utf8(p.reference).unwrap();
                (u, r)
            })
            .collect()
    }

    #[test]
    fn relative_references_against_the_page() {
        let page = "http://a/b/c/d;p?q";
        let got = urls(
            "<a href='../g'>x</a> <img src=\"g?y\"> <a href='#s'>\
             <a href='http://abs.example/'> <a href=''> <a href='//g'>",
            page,
        );
        assert_eq!(
            got,
            [
                ("http://a/b/g".into(), "../g".into()),
                ("http://a/b/c/g?y".into(), "g?y".into()),
                ("http://g".into(), "//g".into()),
            ]
        );
    }

    #[test]
    fn the_first_base_wherever_it_is_itself_resolved() {
        let got = urls(
            "<a href=x>1</a><base href='/dir/'><base href='http://z/'>",
            "http://site.example/page/index.html",
        );
        assert_eq!(got, [("http://site.example/dir/x".into(), "x".into())]);
    }

    #[test]
    fn values_are_cleaned_as_a_browser_does() {
        let got = urls(
            "<a href=' a b\n.html '>1</a> <a href='p&amp;q'>",
            "http://s.example/",
        );
        assert_eq!(
            got,
            [
                ("http://s.example/a%20b.html".into(), " a b\n.html ".into()),
                ("http://s.example/p&q".into(), "p&q".into()),
            ]
        );
        let bytes = resolved(
            b"<a href='\xe9t\xe9'>",
            Some("http://s.example/"),
            false,
        );
        let url = bytes.front().map(|p| p.url.clone());
        assert_eq!(url.as_deref(), Some(&b"http://s.example/%E9t%E9"[..]));
    }

    #[test]
    fn no_base_no_resolution() {
        assert!(urls("<a href=x>", "not a uri").is_empty());
        assert!(resolved(b"<a href=x>", None, false).is_empty());
        // An absolute <base> is enough.
        let got = resolved(b"<base href='http://b/'><a href=x>", None, false);
        assert_eq!(got.len(), 1);
    }
}
