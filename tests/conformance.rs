//! The conformance cases of `tests/data/conformance.toml`: every case through
//! the slice API ([`urlgrep::Finder::find_iter`]) and the reader API
//! ([`urlgrep::Finder::find_reader`] and [`urlgrep::Finder::reader_iter`]).
//! `tests/equivalence.rs` runs the same cases through every buffer size,
//! split point and trigger search.

#[path = "data/cases.rs"]
mod cases;

use cases::{seen, show, Case, Expect};
use std::collections::BTreeSet;
use std::io;

struct Collect(Vec<Expect>);

impl urlgrep::Sink for Collect {
    type Error = io::Error;
    fn matched(
        &mut self,
        _at: &urlgrep::Position,
        m: &urlgrep::Match<'_>,
    ) -> io::Result<bool> {
        self.0.push(seen(m));
        Ok(true)
    }
}

fn check(case: &Case, api: &str, got: &[Expect]) -> Option<String> {
    if got == case.matches.as_slice() {
        return None;
    }
    Some(format!(
        "case {} ({api})\n  source: {}\n  input: {:?}\n  expected:{}\n  got:{}",
        case.name,
        case.source,
        String::from_utf8_lossy(&case.input),
        show(&case.matches),
        show(got),
    ))
}

#[test]
fn case_names_are_unique_and_kebab_case() {
    let cases = cases::load();
    let mut names = BTreeSet::new();
    for c in &cases {
        assert!(
            !c.name.is_empty()
                && c.name.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'
                }),
            "case name {:?} is not kebab-case",
            c.name
        );
        assert!(names.insert(c.name.clone()), "duplicate case {:?}", c.name);
        assert!(!c.source.trim().is_empty(), "case {} has no source", c.name);
    }
    // A guard against a case file that silently lost its cases.
    assert!(cases.len() >= 50, "only {} cases", cases.len());
}

#[test]
fn conformance_cases_pass() {
    let mut failures = Vec::new();
    let cases = cases::load();
    for case in &cases {
        let finder = urlgrep::Finder::builder().find(case.finds).build();
        let slice: Vec<Expect> =
            finder.find_iter(&case.input).map(|m| seen(&m)).collect();
        failures.extend(check(case, "slice", &slice));

        let mut sink = Collect(Vec::new());
        finder
            .find_reader(&case.input[..], &mut sink)
            .expect("in-memory read");
        failures.extend(check(case, "reader", &sink.0));

        let owned: Vec<Expect> = finder
            .reader_iter(&case.input[..])
            .map(|r| seen(&r.expect("in-memory read").m))
            .collect();
        failures.extend(check(case, "reader_iter", &owned));
    }
    assert!(
        failures.is_empty(),
        "{} of {} conformance checks failed:\n{}",
        failures.len(),
        cases.len() * 3,
        failures.join("\n")
    );
}

#[test]
fn unescape_rules() {
    assert_eq!(
        cases::unescape_bytes(r"a\r\n\t\f\\\xe9").unwrap(),
        b"a\r\n\t\x0c\\\xe9"
    );
    assert!(cases::unescape_bytes(r"\q").is_err());
    assert!(cases::unescape_bytes(r"\x4").is_err());
}

/// The documented caps (issue 2: "a wrapper that does not close within a
/// documented cap (default 2 KiB) … falls back to a bare reading of its
/// start"): a wrapper of exactly 2048 bytes, delimiters and whitespace
/// included, is one; a byte more and it is read bare.
#[test]
fn wrapper_length_cap() {
    let finder = urlgrep::Finder::new();
    let wrapper = |len: usize| {
        let mut text = b"<URL:http://a.example/x".to_vec();
        while text.len() < len - 1 {
            text.extend_from_slice(if text.len().is_multiple_of(64) {
                b"\n"
            } else {
                b"y"
            });
        }
        text.push(b'>');
        assert_eq!(text.len(), len);
        text
    };
    let text = wrapper(2048);
    let ms: Vec<_> = finder.find_iter(&text).collect();
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].kind(), urlgrep::Kind::Wrapped);
    assert_eq!(ms[0].span().len(), 2048);
    assert!(!ms[0].url().contains(&b'\n'));

    let text = wrapper(2049);
    let ms: Vec<_> = finder.find_iter(&text).collect();
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].kind(), urlgrep::Kind::Bare);
    assert!(ms[0].url().starts_with(b"http://a.example/xyy"));
    assert!(!ms[0].url().contains(&b'\n'));

    // The cap is configurable.
    let small = urlgrep::Finder::builder().max_wrapper_len(64).build();
    let ms: Vec<_> = small.find_iter(&text).collect();
    assert_eq!(ms[0].kind(), urlgrep::Kind::Bare);
    let ms: Vec<_> = small.find_iter(b"<URL:http://a.example/\n b>").collect();
    assert_eq!(ms[0].url(), b"http://a.example/b");
}

/// A bare URL longer than the URL cap (default 8 KiB) is rejected as too
/// long, never buffered without bound, and scanning goes on after it.
#[test]
fn bare_length_cap() {
    let finder = urlgrep::Finder::new();
    let mut text = b"http://a.example/".to_vec();
    text.resize(9000, b'z');
    text.extend_from_slice(b" http://b.example/");
    let cands: Vec<_> = finder.candidates(&text).collect();
    assert_eq!(cands.len(), 2, "{cands:?}");
    assert_eq!(cands[0].reject(), Some(urlgrep::Reject::TooLong));
    assert_eq!(cands[1].as_match().url(), b"http://b.example/");
    assert_eq!(cands[1].reject(), None);
}

/// STYLE.md: every emitted http(s) URL must also be accepted by the `url`
/// crate — a one-way cross-check (WHATWG is more lenient than the RFCs,
/// so not the reverse). Over the conformance cases and corpora/ samples.
#[test]
fn http_urls_are_accepted_by_the_url_crate() {
    let finder = urlgrep::Finder::new();
    let mut inputs: Vec<(String, Vec<u8>)> =
        cases::load().into_iter().map(|c| (c.name, c.input)).collect();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("corpora dir") {
            let p = e.expect("dir entry").path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let meta = name.starts_with('.')
                || [".py", ".md", ".toml"].iter().any(|s| name.ends_with(s));
            if p.is_dir() {
                stack.push(p);
            } else if !meta {
                let bytes = std::fs::read(&p).expect("sample");
                inputs.push((p.display().to_string(), bytes));
            }
        }
    }
    let (mut checked, mut failures) = (0, Vec::new());
    for (name, input) in &inputs {
        for m in finder.find_iter(input) {
            let is_http = matches!(
                m.scheme_name().to_ascii_lowercase().as_slice(),
                b"http" | b"https"
            );
            if !is_http {
                continue;
            }
            checked += 1;
            let verdict = match std::str::from_utf8(m.url()) {
                Ok(s) => {
                    url::Url::parse(s).map(|_| ()).map_err(|e| e.to_string())
                }
                Err(e) => Err(format!("not UTF-8: {e}")),
            };
            if let Err(e) = verdict {
                failures.push(format!(
                    "{name}: {:?} ({e})",
                    String::from_utf8_lossy(m.url())
                ));
            }
        }
    }
    assert!(checked > 300, "only {checked} http(s) URLs checked");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
