//! The partial format of `--stats-tsv` and `urlgrep merge` (see
//! [`super`] for its dimensions): written, read back, compared.

use super::{is_max_dim, Counts};
use crate::output::escape::is_unsafe;
use std::fmt;
use std::io::{self, BufRead, Write};

/// A line of a partial that is not `dim<TAB>key<TAB>count`.
#[derive(Debug)]
pub struct TsvError {
    line: u64,
    kind: TsvErrorKind,
}

#[derive(Debug)]
enum TsvErrorKind {
    Io(io::Error),
    Fields,
    Count(String),
}

impl fmt::Display for TsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TsvErrorKind::Io(e) => write!(f, "line {}: {e}", self.line),
            TsvErrorKind::Fields => write!(
                f,
                "line {}: expected three tab-separated fields \
                 (dim, key, count)",
                self.line
            ),
            TsvErrorKind::Count(c) => write!(
                f,
                "line {}: count {c:?} is not a non-negative integer",
                self.line
            ),
        }
    }
}

impl std::error::Error for TsvError {}

impl Counts {
    /// Writes two sets of counters side by side (`urlgrep merge
    /// --compare`): for every counter of either, in every dimension but
    /// the `hll-` registers, `dim`, `key`, the count in `self` (A) and in
    /// `other` (B), the difference B − A, and each count's share of its
    /// dimension's sum in A and in B (percent, one decimal; `-` in
    /// `total` and `error`, whose keys are not parts of one whole),
    /// tab-separated under a header line. Hosts and TLDs (`host`, `tld`,
    /// and `by-P-host` per period) are cut to the `top` with the largest
    /// count in A or B, largest first (ties by key), as the report lists
    /// them; every other dimension is whole, sorted by key.
    pub fn write_compare<W: Write>(
        &self,
        other: &Counts,
        top: usize,
        mut wtr: W,
    ) -> io::Result<()> {
        writeln!(wtr, "dim\tkey\ta\tb\tdiff\tshare_a\tshare_b")?;
        let mut dims: Vec<&str> = self.dims().chain(other.dims()).collect();
        dims.sort_unstable();
        dims.dedup();
        for dim in dims.into_iter().filter(|d| !is_max_dim(d)) {
            let (a, b) = (self.dim(dim), other.dim(dim));
            let sum = |v: &[(&str, u64)]| v.iter().map(|r| r.1).sum::<u64>();
            let (sum_a, sum_b) = (sum(&a), sum(&b));
            let mut keys: Vec<&str> =
                a.iter().chain(b.iter()).map(|r| r.0).collect();
            keys.sort_unstable();
            keys.dedup();
            if is_top_dim(dim) {
                let most = |k: &str| self.get(dim, k).max(other.get(dim, k));
                // By period for `by-P-host` (key `PERIOD HOST`), else one
                // group.
                fn group<'k>(dim: &str, k: &'k str) -> &'k str {
                    match dim.starts_with("by-") {
                        true => k.split(' ').next().unwrap_or_default(),
                        false => "",
                    }
                }
                keys.sort_by(|x, y| {
                    group(dim, x)
                        .cmp(group(dim, y))
                        .then(most(y).cmp(&most(x)))
                        .then(x.cmp(y))
                });
                let mut kept = 0;
                let mut last = None;
                keys.retain(|k| {
                    if last != Some(group(dim, k)) {
                        last = Some(group(dim, k));
                        kept = 0;
                    }
                    kept += 1;
                    kept <= top
                });
            }
            let parts = !matches!(dim, "total" | "error");
            let share = |n: u64, of: u64| match of {
                0 => "-".to_string(),
                _ if !parts => "-".to_string(),
                _ => format!("{:.1}", 100.0 * n as f64 / of as f64),
            };
            for key in keys {
                let (na, nb) = (self.get(dim, key), other.get(dim, key));
                let diff = i128::from(nb) - i128::from(na);
                writeln!(
                    wtr,
                    "{}\t{}\t{na}\t{nb}\t{diff:+}\t{}\t{}",
                    escape(dim),
                    escape(key),
                    share(na, sum_a),
                    share(nb, sum_b)
                )?;
            }
        }
        Ok(())
    }

    /// Writes the partial format, sorted.
    pub fn write_tsv<W: Write>(&self, mut wtr: W) -> io::Result<()> {
        for dim in self.dims.keys() {
            for (key, n) in self.dim(dim) {
                writeln!(wtr, "{}\t{}\t{n}", escape(dim), escape(key))?;
            }
        }
        Ok(())
    }

    /// Reads (and adds up) a partial. Empty lines and lines starting
    /// with `#` are skipped.
    pub fn read_tsv<R: BufRead>(rdr: R) -> Result<Counts, TsvError> {
        let mut counts = Counts::new();
        counts.add_tsv(rdr)?;
        Ok(counts)
    }

    /// Adds the counters of a partial to these.
    pub fn add_tsv<R: BufRead>(&mut self, rdr: R) -> Result<(), TsvError> {
        for (i, line) in rdr.lines().enumerate() {
            let line_no = i as u64 + 1;
            let err = |kind| TsvError { line: line_no, kind };
            let line = line.map_err(|e| err(TsvErrorKind::Io(e)))?;
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split('\t');
            let (Some(dim), Some(key), Some(count), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(err(TsvErrorKind::Fields));
            };
            let n: u64 = count
                .parse()
                .map_err(|_| err(TsvErrorKind::Count(count.to_string())))?;
            self.add(&unescape(dim), &unescape(key), n);
        }
        Ok(())
    }
}

/// Whether `dim` is a top list (`--top`): hosts and TLDs.
fn is_top_dim(dim: &str) -> bool {
    matches!(dim, "host" | "tld")
        || (dim.starts_with("by-") && dim.ends_with("-host"))
}

/// A dimension or key as the partial writes it: tab, newline and
/// backslash as `\t`, `\n`, `\\`, and every other character that
/// [`is_unsafe`] (a control, a bidi formatting character) as `\uXXXX`,
/// so that a partial, a comparison, or a key from a hostile partial
/// shows no control on a terminal and still reads back exactly.
fn escape(s: &str) -> String {
    if !s.chars().any(|c| c == '\\' || is_unsafe(c)) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            // Every unsafe character is in the Basic Multilingual Plane.
            c if is_unsafe(c) => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out
}

fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('u') => {
                // `\uXXXX`; anything else after `\u` reads as before
                // (`u`, the rest kept).
                let hex = chars
                    .as_str()
                    .get(..4)
                    .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
                let c = hex
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .and_then(char::from_u32);
                match c {
                    Some(c) => {
                        out.push(c);
                        chars.nth(3);
                    }
                    None => out.push('u'),
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_round_trip_and_merge() {
        let mut a = Counts::new();
        a.add("total", "matches", 3);
        a.add("host", "a\tb\\c", 2);
        let mut out = Vec::new();
        a.write_tsv(&mut out).unwrap();
        assert_eq!(out, b"host\ta\\tb\\\\c\t2\ntotal\tmatches\t3\n");
        let mut b = Counts::read_tsv(&out[..]).unwrap();
        assert_eq!(b, a);
        b.merge(&a);
        assert_eq!(b.get("total", "matches"), 6);
        assert_eq!(b.get("host", "a\tb\\c"), 4);
    }

    #[test]
    fn unsafe_keys_are_written_as_u_escapes_and_read_back() {
        let mut a = Counts::new();
        let key = "e\x1b]0;x\x07\u{202e}\u{9b}.example";
        a.add("host", key, 2);
        let mut out = Vec::new();
        a.write_tsv(&mut out).unwrap();
        assert_eq!(
            out,
            b"host\te\\u001b]0;x\\u0007\\u202e\\u009b.example\t2\n"
        );
        assert_eq!(Counts::read_tsv(&out[..]).unwrap(), a);
        // `\u` not followed by four hex digits reads as it did.
        assert_eq!(unescape("\\uz1"), "uz1");
    }

    #[test]
    fn bad_partials_say_where() {
        let e = Counts::read_tsv(&b"total\tx\t1\nfoo\n"[..]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: expected three tab-separated fields (dim, key, count)"
        );
        let e = Counts::read_tsv(&b"a\tb\t-1\n"[..]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1: count \"-1\" is not a non-negative integer"
        );
    }
}
