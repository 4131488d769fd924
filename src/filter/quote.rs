//! Values quoted in error messages, bounded: a 100 MB line of a host
//! list or a pattern of 100,000 alternatives must not become a stderr
//! line of the same size (issue 33.16). What is cut is said, with the
//! length it had.

use std::fmt::Write;

/// The most bytes of a value an error message quotes.
pub(crate) const QUOTED: usize = 200;

/// The most lines of the regex crate's message that are kept.
const LINES: usize = 12;

/// `text` quoted as Rust's `{:?}` does; past [`QUOTED`] bytes, its first
/// ones (cut on a character boundary) and `… (N bytes)`.
///
/// The quote escapes control characters (`\n`, `\u{1b}`), so the result
/// is one line.
pub(crate) fn quoted(text: &str) -> String {
    let (head, cut) = head(text);
    let mut s = format!("{head:?}");
    if cut {
        let _ = write!(s, "… ({} bytes)", text.len());
    }
    s
}

/// A multi-line message (the regex crate's, with its caret line), each
/// line cut at [`QUOTED`] bytes and at most [`LINES`] lines kept; what
/// was cut is said.
pub(crate) fn lines(text: &str) -> String {
    let mut out = String::new();
    let total = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        if i == LINES {
            let _ = write!(out, "\n… ({} more lines)", total - LINES);
            break;
        }
        if i > 0 {
            out.push('\n');
        }
        let (head, cut) = head(line);
        out.push_str(head);
        if cut {
            let _ = write!(out, "… ({} bytes)", line.len());
        }
    }
    out
}

/// The first [`QUOTED`] bytes of `text` at most, on a character
/// boundary, and whether anything was left out.
fn head(text: &str) -> (&str, bool) {
    if text.len() <= QUOTED {
        return (text, false);
    }
    let mut end = QUOTED;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text.get(..end).unwrap_or_default(), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_quoted_whole() {
        assert_eq!(quoted("a b"), "\"a b\"");
        assert_eq!(quoted("a\nb"), "\"a\\nb\"");
        assert_eq!(lines("a\n  ^\nerror"), "a\n  ^\nerror");
    }

    #[test]
    fn long_values_are_cut_and_measured() {
        let long = "x".repeat(1_000_000);
        let q = quoted(&long);
        assert_eq!(q, format!("\"{}\"… (1000000 bytes)", "x".repeat(QUOTED)));
        // A cut never splits a character.
        let wide = "é".repeat(300);
        let q = quoted(&wide);
        assert!(q.starts_with(&format!("\"{}\"", "é".repeat(100))), "{q}");
        assert!(q.ends_with("… (600 bytes)"), "{q}");
        let many = format!("{long}\n^\n{}", "l\n".repeat(100));
        let l = lines(&many);
        assert!(l.len() < 20 * QUOTED, "{}", l.len());
        assert!(l.starts_with(&"x".repeat(QUOTED)), "{l}");
        assert!(l.contains("… (1000000 bytes)\n^\nl\n"), "{l}");
        assert!(l.ends_with("… (90 more lines)"), "{l}");
    }
}
