//! The conformance cases of `corpora/conformance.toml`: every case through
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
    let finder = urlgrep::Finder::new();
    let mut failures = Vec::new();
    let cases = cases::load();
    for case in &cases {
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
