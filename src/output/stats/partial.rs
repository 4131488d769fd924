//! The partial format of `--stats-tsv` and `urlgrep merge` (see
//! [`super`] for its dimensions): written, read back, compared.

use super::{is_max_dim, Counts};
use crate::output::escape::is_unsafe;
use crate::output::hll::{MAX_RANK, REGISTERS};
use std::fmt;
use std::io::{self, BufRead, Write};

/// The first line of a partial written by this urlgrep: it promises an
/// end record ([`END`]), so that a partial cut short is refused.
pub const HEADER: &str = "#urlgrep-partial\t1";

/// The start of a partial's last line, `#end<TAB>N`: N is the number of
/// counter lines since its header.
pub const END: &str = "#end\t";

/// A partial that cannot be read whole: a line that is not
/// `dim<TAB>key<TAB>count`, a count out of range, a partial cut short.
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
    /// Adding the count to the same key passed 2^64 − 1.
    Overflow(String, String),
    /// A HyperLogLog register that no sketch has.
    Register(String, u64),
    /// An end record that is not `#end<TAB>N`, or whose N is not the
    /// number of counter lines read.
    End {
        said: String,
        read: u64,
    },
    /// A header, but no end record before the next header or the end.
    Cut,
    /// An end record without its header.
    Unopened,
    /// Nothing at all.
    Empty,
}

impl fmt::Display for TsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self.line;
        match &self.kind {
            TsvErrorKind::Io(e) => write!(f, "line {line}: {e}"),
            TsvErrorKind::Fields => write!(
                f,
                "line {line}: expected three tab-separated fields \
                 (dim, key, count)"
            ),
            TsvErrorKind::Count(c) => write!(
                f,
                "line {line}: count {:?} is not a non-negative integer \
                 below 2^64",
                escape_cut(c)
            ),
            TsvErrorKind::Overflow(dim, key) => write!(
                f,
                "line {line}: the count of {}/{} passes 2^64 - 1",
                escape_cut(dim),
                escape_cut(key)
            ),
            TsvErrorKind::Register(index, rank) => write!(
                f,
                "line {line}: HyperLogLog register {:?} rank {rank} is out \
                 of range (index 0 to {}, rank 0 to {MAX_RANK})",
                escape_cut(index),
                REGISTERS - 1
            ),
            TsvErrorKind::End { said, read } => write!(
                f,
                "line {line}: the end record says {:?} counter lines, \
                 {read} were read: the partial is damaged",
                escape_cut(said)
            ),
            TsvErrorKind::Cut => write!(
                f,
                "line {line}: the partial ends without its end record: \
                 it was cut short"
            ),
            TsvErrorKind::Unopened => {
                write!(f, "line {line}: an end record without its header")
            }
            TsvErrorKind::Empty => {
                write!(f, "no counters: the partial is empty")
            }
        }
    }
}

/// At most 80 characters of `s`, escaped as the partial writes it: a
/// message quotes a bad line, however long or hostile.
fn escape_cut(s: &str) -> String {
    let cut: String = s.chars().take(80).collect();
    match cut.len() < s.len() {
        true => format!("{}... ({} bytes)", escape(&cut), s.len()),
        false => escape(&cut),
    }
}

/// What reading a partial found beside its counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// Partials read whole: each a header, counters, an end record
    /// whose count agrees.
    pub ended: u64,
    /// Whether counters came without a header (a partial of an urlgrep
    /// before end records, or of another tool): read as they are, with
    /// nothing to tell whether they are whole.
    pub unchecked: bool,
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
            // In u128: the counters of a dimension may pass 2^64 together.
            let sum = |v: &[(&str, u64)]| {
                v.iter().map(|r| u128::from(r.1)).sum::<u128>()
            };
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
            let share = |n: u64, of: u128| match of {
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
                    escape_dim(dim),
                    escape(key),
                    share(na, sum_a),
                    share(nb, sum_b)
                )?;
            }
        }
        Ok(())
    }

    /// Writes the partial format, sorted, between its [`HEADER`] and
    /// its end record.
    pub fn write_tsv<W: Write>(&self, mut wtr: W) -> io::Result<()> {
        writeln!(wtr, "{HEADER}")?;
        let mut lines = 0u64;
        for dim in self.dims.keys() {
            for (key, n) in self.dim(dim) {
                let dim = escape_dim(dim);
                writeln!(wtr, "{dim}\t{}\t{n}", escape(key))?;
                lines += 1;
            }
        }
        writeln!(wtr, "{END}{lines}")
    }

    /// Reads (and adds up) a partial; see [`Counts::add_tsv`].
    pub fn read_tsv<R: BufRead>(rdr: R) -> Result<Counts, TsvError> {
        let mut counts = Counts::new();
        counts.add_tsv(rdr)?;
        Ok(counts)
    }

    /// Adds the counters of one partial, or of several one after the
    /// other (`cat *.tsv`), to these. A partial that starts with
    /// [`HEADER`] must end with its end record, whose count agrees;
    /// counters without a header are read as they are (and said so in
    /// [`Checked::unchecked`]). Refused: a line that is not
    /// `dim<TAB>key<TAB>count`, a count that passes 2^64 − 1 (alone or
    /// added), an `hll-` register out of range, a partial cut short,
    /// and input with no counters at all. Empty lines and other lines
    /// starting with `#` are skipped. On an error some counters may
    /// have been added.
    pub fn add_tsv<R: BufRead>(
        &mut self,
        rdr: R,
    ) -> Result<Checked, TsvError> {
        let mut checked = Checked::default();
        // Counter lines of the open partial, when one is open.
        let mut open: Option<u64> = None;
        let mut any = false;
        let mut line_no = 0;
        for line in rdr.lines() {
            line_no += 1;
            let err = |kind| TsvError { line: line_no, kind };
            let line = line.map_err(|e| err(TsvErrorKind::Io(e)))?;
            if line == HEADER {
                if open.is_some() {
                    return Err(err(TsvErrorKind::Cut));
                }
                open = Some(0);
                any = true;
                continue;
            }
            if let Some(said) = line.strip_prefix(END) {
                let Some(read) = open.take() else {
                    return Err(err(TsvErrorKind::Unopened));
                };
                if said.parse::<u64>().ok() != Some(read)
                    || !said.bytes().all(|b| b.is_ascii_digit())
                {
                    let said = said.to_string();
                    return Err(err(TsvErrorKind::End { said, read }));
                }
                checked.ended += 1;
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.split('\t');
            let (Some(dim), Some(key), Some(count), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(err(TsvErrorKind::Fields));
            };
            let n: u64 = match count.bytes().all(|b| b.is_ascii_digit()) {
                true => count.parse().ok(),
                false => None,
            }
            .ok_or_else(|| err(TsvErrorKind::Count(count.to_string())))?;
            let (dim, key) = (unescape(dim), unescape(key));
            if is_max_dim(&dim) {
                let index = match key.bytes().all(|b| b.is_ascii_digit()) {
                    true => key.parse::<usize>().ok(),
                    false => None,
                };
                if index.is_none_or(|i| i >= REGISTERS) || n > MAX_RANK {
                    return Err(err(TsvErrorKind::Register(key, n)));
                }
            }
            if !self.add_checked(&dim, &key, n) {
                return Err(err(TsvErrorKind::Overflow(dim, key)));
            }
            any = true;
            match &mut open {
                Some(read) => *read += 1,
                None => checked.unchecked = true,
            }
        }
        if open.is_some() {
            return Err(TsvError { line: line_no, kind: TsvErrorKind::Cut });
        }
        if !any {
            return Err(TsvError { line: line_no, kind: TsvErrorKind::Empty });
        }
        Ok(checked)
    }
}

/// Whether `dim` is a top list (`--top`): hosts and TLDs.
fn is_top_dim(dim: &str) -> bool {
    matches!(dim, "host" | "tld")
        || (dim.starts_with("by-") && dim.ends_with("-host"))
}

/// A dimension as the partial writes it: [`escape`], and a `#` that
/// would start the line as `\#`, or the line would read as a comment
/// (no dimension of urlgrep's starts so; one read from `\#…` may).
fn escape_dim(s: &str) -> String {
    match s.starts_with('#') {
        true => format!("\\{}", escape(s)),
        false => escape(s),
    }
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
        assert_eq!(
            out,
            b"#urlgrep-partial\t1\nhost\ta\\tb\\\\c\t2\n\
              total\tmatches\t3\n#end\t2\n"
        );
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
            b"#urlgrep-partial\t1\n\
              host\te\\u001b]0;x\\u0007\\u202e\\u009b.example\t2\n#end\t1\n"
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
            "line 1: count \"-1\" is not a non-negative integer below 2^64"
        );
    }

    fn err(text: &str) -> String {
        Counts::read_tsv(text.as_bytes()).unwrap_err().to_string()
    }

    /// Issue 33.11: a partial cut at any line end, an end record that
    /// disagrees, a count past 2^64 and an HLL register out of range are
    /// refused; concatenated partials and old ones (no header) are read.
    #[test]
    fn damaged_partials_are_refused() {
        let mut a = Counts::new();
        a.add("host", "a.example", 2);
        a.add("total", "matches", 3);
        a.add("total", "bytes", 30);
        let mut whole = Vec::new();
        a.write_tsv(&mut whole).unwrap();
        let text = String::from_utf8(whole).unwrap();
        let ends: Vec<usize> = text.match_indices('\n').map(|m| m.0).collect();
        // Cut after each line but the last: refused (once with zeros).
        for &end in &ends[..ends.len() - 1] {
            let cut = &text[..=end];
            assert!(
                Counts::read_tsv(cut.as_bytes()).is_err(),
                "cut after {end}: {cut:?}"
            );
        }
        assert!(err("").contains("empty"));
        let ok = Counts::new().add_tsv(text.as_bytes()).unwrap();
        assert_eq!(ok, Checked { ended: 1, unchecked: false });
        // Two partials one after the other, and the second cut.
        let two = text.repeat(2);
        let mut c = Counts::new();
        assert_eq!(c.add_tsv(two.as_bytes()).unwrap().ended, 2);
        assert_eq!(c.get("total", "matches"), 6);
        assert!(err(&two[..two.len() - 7]).contains("cut short"));
        assert!(err(&format!("{text}{}", &text[..text.len() - 7]))
            .contains("cut short"));
        assert!(err("#urlgrep-partial\t1\na\tb\t1\n#end\t2\n")
            .contains("says \"2\" counter lines, 1 were read"));
        assert!(err("a\tb\t1\n#end\t1\n").contains("without its header"));
        // Counts past 2^64 - 1: alone or added.
        let max = u64::MAX;
        assert!(err(&format!("a\tb\t{max}0\n")).contains("below 2^64"));
        assert!(err(&format!("a\tb\t{max}\na\tb\t1\n"))
            .contains("line 2: the count of a/b passes 2^64 - 1"));
        assert!(Counts::read_tsv(format!("a\tb\t{max}\n").as_bytes()).is_ok());
        // HyperLogLog registers: index and rank in range, in digits.
        for bad in ["16384\t1", "+1\t1", "1\t52", "x\t1"] {
            assert!(err(&format!("hll-urls\t{bad}\n")).contains("register"));
        }
        assert!(Counts::read_tsv(&b"hll-urls\t16383\t51\n"[..]).is_ok());
        // A dimension read from `\#` is written so, not as a comment.
        let odd = Counts::read_tsv(&b"\\#end\tk\t1\n"[..]).unwrap();
        let mut out = Vec::new();
        odd.write_tsv(&mut out).unwrap();
        assert_eq!(Counts::read_tsv(&out[..]).unwrap(), odd);
        // An old partial: read, said unchecked.
        let old = Counts::new().add_tsv(&b"total\tmatches\t3\n"[..]).unwrap();
        assert_eq!(old, Checked { ended: 0, unchecked: true });
    }

    /// The fuzz target `partial` on partial-shaped bytes: no panic in
    /// reading nor in printing what was read, and a written partial
    /// reads back to the same counters.
    mod any_bytes {
        use super::*;
        use crate::output::stats::Summary;
        use proptest::prelude::*;

        fn piece() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("#urlgrep-partial\t1\n".to_string()),
                Just("#end\t".to_string()),
                Just("hll-urls\t".to_string()),
                Just("total\t".to_string()),
                Just("by-day-host\t".to_string()),
                Just("18446744073709551615".to_string()),
                "[0-9]{1,3}",
                "[\t\n\\#ux0-9a-f\u{1b}\u{202e} -]{1,6}",
                any::<String>(),
            ]
        }

        proptest! {
            #[test]
            fn read_print_and_round_trip(
                pieces in proptest::collection::vec(piece(), 0..24)
            ) {
                let data = pieces.concat();
                let mut counts = Counts::new();
                if let Ok(checked) = counts.add_tsv(data.as_bytes()) {
                    prop_assert!(checked.unchecked || checked.ended > 0);
                }
                let summary = Summary {
                    counts: counts.clone(),
                    unique_urls: None,
                    elapsed: None,
                    top: 3,
                };
                summary.write_text(io::sink()).unwrap();
                let _ = summary.to_json();
                counts.write_compare(&counts, 2, io::sink()).unwrap();
                let mut out = Vec::new();
                counts.write_tsv(&mut out).unwrap();
                let mut back = Counts::new();
                let checked = back.add_tsv(&out[..]).unwrap();
                prop_assert_eq!(checked, Checked { ended: 1, unchecked: false });
                prop_assert_eq!(back, counts);
            }
        }
    }
}
