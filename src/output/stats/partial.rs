//! The partial format of `--stats-tsv` and `urlgrep merge` (see
//! [`super`] for its dimensions): written, read back, compared.

use super::{is_max_dim, Counts};
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
    /// dimension's sum in A and in B (percent, one decimal), tab-separated
    /// under a header line.
    pub fn write_compare<W: Write>(
        &self,
        other: &Counts,
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
            let share = |n: u64, of: u64| match of {
                0 => "-".to_string(),
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

fn escape(s: &str) -> String {
    if !s.contains(['\t', '\n', '\\']) {
        return s.to_string();
    }
    s.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n")
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
