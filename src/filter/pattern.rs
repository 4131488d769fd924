//! `-e/--regexp` and `--exclude-regexp`: URL patterns in the Rust regex
//! syntax, compiled once into one multi-pattern automaton and shared by
//! all threads.

use regex::bytes::{RegexSet, RegexSetBuilder};

/// Patterns, any of which may match a URL's text anywhere (unanchored).
/// Matching is on bytes, so a URL that is not UTF-8 is matched too
/// (Unicode classes match only its valid UTF-8).
#[derive(Clone, Debug)]
pub(crate) struct Patterns {
    set: RegexSet,
}

impl Patterns {
    /// Compiles `patterns`, ignoring case when `ignore_case` (`-i`: the
    /// regex crate's `i` flag on every pattern, Unicode simple case
    /// folding; a `(?-i)` inside a pattern still turns it off); on an
    /// error, the pattern at fault and the regex crate's error.
    pub(crate) fn new(
        patterns: &[String],
        ignore_case: bool,
    ) -> Result<Patterns, (String, regex::Error)> {
        let build = |p: &[String]| {
            RegexSetBuilder::new(p).case_insensitive(ignore_case).build()
        };
        match build(patterns) {
            Ok(set) => Ok(Patterns { set }),
            Err(err) => {
                // Name the pattern: compile them one by one (only when
                // the set failed).
                for p in patterns {
                    if let Err(e) = build(std::slice::from_ref(p)) {
                        return Err((p.clone(), e));
                    }
                }
                Err((patterns.join(" | "), err))
            }
        }
    }

    /// Whether any pattern matches somewhere in `text`.
    pub(crate) fn is_match(&self, text: &[u8]) -> bool {
        self.set.is_match(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patterns(p: &[&str]) -> Patterns {
        let p: Vec<String> = p.iter().map(|s| s.to_string()).collect();
        Patterns::new(&p, false).expect("valid patterns")
    }

    #[test]
    fn unanchored_any() {
        let p = patterns(&[r"github\.com/.*/issues/", "(?i)TRACK"]);
        assert!(p.is_match(b"https://github.com/a/b/issues/7"));
        assert!(p.is_match(b"http://x.y/?utm=track"));
        assert!(!p.is_match(b"https://github.com/a/b/pulls/7"));
        assert!(p.is_match(b"http://x.y/\xff/track"));
    }

    #[test]
    fn names_the_bad_pattern() {
        let p = vec!["a".to_string(), "b(".to_string()];
        let (bad, err) = Patterns::new(&p, false).expect_err("b( is invalid");
        assert_eq!(bad, "b(");
        assert!(err.to_string().contains("unclosed group"), "{err}");
    }

    #[test]
    fn ignore_case() {
        let p = vec!["EXAMPLE\\.org/Path".to_string()];
        let folded = Patterns::new(&p, true).expect("valid");
        assert!(folded.is_match(b"http://example.ORG/path"));
        assert!(folded.is_match("http://EXAMPLE.org/PATH".as_bytes()));
        let exact = Patterns::new(&p, false).expect("valid");
        assert!(!exact.is_match(b"http://example.org/path"));
        // A pattern may still ask for case.
        let p = vec!["(?-i)ABC".to_string()];
        assert!(!Patterns::new(&p, true).expect("valid").is_match(b"abc"));
    }
}
