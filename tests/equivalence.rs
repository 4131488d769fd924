//! The tester of STYLE.md: the same input gives the same candidates —
//! URL, kind, flags, reject reason, absolute offsets, line and column —
//! through every path:
//!
//! - the slice API ([`urlgrep::Finder::candidates`]), the reference;
//! - the reader API with buffer capacities {1, 2, 3, 7, 64, default}, and
//!   readers that return short chunks split at chosen points;
//! - SIMD and naive trigger search ([`urlgrep::Triggers::Naive`] is the
//!   oracle);
//! - newline-aligned slices stitched with `candidates_in`,
//!   `candidates_from` and `CandidateIter::resume`, as the parallel driver
//!   does.
//!
//! Inputs: every conformance case, every sample under `corpora/`, random
//! inputs built from URL-ish fragments (proptest), and each conformance
//! input padded with filler and split at every index (boundary expansion).
//! Last, memory stays bounded on long inputs without a newline.

#[path = "data/cases.rs"]
mod cases;

use proptest::prelude::*;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use urlgrep::{Candidate, Finder, Flags, Kind, Match, Position, Reject};

/// Everything a candidate says about itself, with absolute positions.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Hit {
    start: u64,
    end: u64,
    line: u64,
    column: u64,
    url: Vec<u8>,
    kind: Kind,
    flags: Flags,
    reject: Option<Reject>,
}

impl Hit {
    fn new(at: &Position, m: &Match<'_>, reject: Option<Reject>) -> Hit {
        Hit {
            start: at.start,
            end: at.end,
            line: at.line,
            column: at.column,
            url: m.url().to_vec(),
            kind: m.kind(),
            flags: m.flags(),
            reject,
        }
    }
}

/// Line and column (both 1-based) of byte `at`, counted from scratch.
fn line_column(text: &[u8], at: usize) -> (u64, u64) {
    let before = &text[..at];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let line_start =
        before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    (line, (at - line_start) as u64 + 1)
}

/// Candidates of a slice search as hits (line and column computed here).
fn from_slice<'h>(
    text: &'h [u8],
    cands: impl Iterator<Item = Candidate<'h>>,
) -> Vec<Hit> {
    cands
        .map(|c| {
            let span = c.as_match().span();
            let (line, column) = line_column(text, span.start);
            let at = Position {
                start: span.start as u64,
                end: span.end as u64,
                line,
                column,
            };
            Hit::new(&at, c.as_match(), c.reject())
        })
        .collect()
}

/// The reference: the slice API over the whole input.
fn slice_hits(finder: &Finder, text: &[u8]) -> Vec<Hit> {
    from_slice(text, finder.candidates(text))
}

/// A sink that keeps every candidate, accepted or rejected.
struct Collect(Vec<Hit>);

impl urlgrep::Sink for Collect {
    type Error = io::Error;

    fn matched(&mut self, at: &Position, m: &Match<'_>) -> io::Result<bool> {
        self.0.push(Hit::new(at, m, None));
        Ok(true)
    }

    fn rejected(
        &mut self,
        at: &Position,
        c: &Candidate<'_>,
    ) -> io::Result<bool> {
        self.0.push(Hit::new(at, c.as_match(), c.reject()));
        Ok(true)
    }
}

fn reader_hits<R: Read>(finder: &Finder, rdr: R) -> Vec<Hit> {
    let mut sink = Collect(Vec::new());
    finder.find_reader(rdr, &mut sink).expect("in-memory reader");
    sink.0
}

/// A reader that never returns bytes across the given cut points (nor
/// more than the caller asks for), so reads end exactly at them.
struct SplitReader<'a> {
    data: &'a [u8],
    pos: usize,
    cuts: Vec<usize>,
}

impl<'a> SplitReader<'a> {
    fn new(data: &'a [u8], mut cuts: Vec<usize>) -> SplitReader<'a> {
        cuts.sort_unstable();
        cuts.dedup();
        SplitReader { data, pos: 0, cuts }
    }
}

impl Read for SplitReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let next_cut = self
            .cuts
            .iter()
            .copied()
            .find(|&c| c > self.pos)
            .unwrap_or(self.data.len());
        let end = next_cut.min(self.data.len()).min(self.pos + buf.len());
        let n = end - self.pos;
        buf[..n].copy_from_slice(&self.data[self.pos..end]);
        self.pos = end;
        Ok(n)
    }
}

/// Stitches newline-aligned slices starting at `starts` (each right after
/// a newline, or 0), exactly as the `slices_equal_whole` unit test in
/// src/search/finder.rs does.
fn stitched_hits(finder: &Finder, text: &[u8], starts: &[usize]) -> Vec<Hit> {
    let mut bounds: Vec<usize> = starts.to_vec();
    bounds.push(0);
    bounds.sort_unstable();
    bounds.dedup();
    let mut got = Vec::new();
    let mut resume = 0;
    for (k, &start) in bounds.iter().enumerate() {
        let end = bounds.get(k + 1).copied().unwrap_or(text.len());
        if start >= end {
            continue;
        }
        let mut it = if resume <= start {
            finder.candidates_in(text, start..end)
        } else {
            finder.candidates_from(text, resume, end)
        };
        got.extend(it.by_ref());
        resume = it.resume().max(resume);
    }
    from_slice(text, got.into_iter())
}

/// Offsets right after each newline.
fn line_starts(text: &[u8]) -> Vec<usize> {
    text.iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
        .filter(|&i| i < text.len())
        .collect()
}

const CAPACITIES: [Option<usize>; 6] =
    [Some(1), Some(2), Some(3), Some(7), Some(64), None];

fn finder(triggers: urlgrep::Triggers, capacity: Option<usize>) -> Finder {
    finder_with(triggers, capacity, urlgrep::Finds::NONE)
}

fn finder_with(
    triggers: urlgrep::Triggers,
    capacity: Option<usize>,
    finds: urlgrep::Finds,
) -> Finder {
    let mut b = Finder::builder();
    b.triggers(triggers).find(finds);
    if let Some(cap) = capacity {
        b.buffer_capacity(cap);
    }
    b.build()
}

/// Runs `text` through every path and returns the first disagreement.
fn all_paths_agree(
    text: &[u8],
    capacities: &[Option<usize>],
) -> Result<(), String> {
    all_paths_agree_with(text, capacities, urlgrep::Finds::NONE)
}

/// [`all_paths_agree`] with the scheme-less detectors of `finds` on.
fn all_paths_agree_with(
    text: &[u8],
    capacities: &[Option<usize>],
    finds: urlgrep::Finds,
) -> Result<(), String> {
    let simd = finder_with(urlgrep::Triggers::Simd, None, finds);
    let want = slice_hits(&simd, text);
    let check = |what: String, got: Vec<Hit>| -> Result<(), String> {
        if got == want {
            Ok(())
        } else {
            Err(format!("{what} differs\n  want {want:?}\n  got  {got:?}"))
        }
    };
    for triggers in [urlgrep::Triggers::Simd, urlgrep::Triggers::Naive] {
        let f = finder_with(triggers, None, finds);
        check(format!("{triggers:?} slice"), slice_hits(&f, text))?;
        let starts = line_starts(text);
        check(
            format!("{triggers:?} every-line slices"),
            stitched_hits(&f, text, &starts),
        )?;
        for &cap in capacities {
            let f = finder_with(triggers, cap, finds);
            check(
                format!("{triggers:?} reader capacity {cap:?}"),
                reader_hits(&f, text),
            )?;
        }
    }
    Ok(())
}

fn corpus_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("dir entry").path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else {
                let name =
                    p.file_name().and_then(|n| n.to_str()).unwrap_or("");
                let meta = name.starts_with('.')
                    || [".py", ".md", ".toml"]
                        .iter()
                        .any(|s| name.ends_with(s));
                if !meta {
                    out.push(p);
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora"), &mut out);
    out
}

#[test]
fn conformance_cases_through_every_path() {
    let cases = cases::load();
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(e) =
            all_paths_agree_with(&case.input, &CAPACITIES, case.finds)
        {
            failures.push(format!("case {}: {e}", case.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The e-mail and `www.` detectors (issue 19) through every path, on
/// the conformance inputs and the corpus samples.
#[test]
fn scheme_less_finds_through_every_path() {
    let mut failures = Vec::new();
    let mut texts: Vec<Vec<u8>> =
        cases::load().into_iter().map(|c| c.input).collect();
    texts.push(
        b"mail bob@example.com or www.example.org/x, <a.b@c.example.net>."
            .to_vec(),
    );
    let mut total = 0;
    let f = finder_with(urlgrep::Triggers::Simd, None, urlgrep::Finds::ALL);
    for path in corpus_files() {
        texts.push(std::fs::read(&path).expect("sample file"));
    }
    for text in &texts {
        total += slice_hits(&f, text).len();
        if let Err(e) =
            all_paths_agree_with(text, &CAPACITIES, urlgrep::Finds::ALL)
        {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let urls: usize =
        texts.iter().map(|t| slice_hits(&Finder::new(), t).len()).sum();
    // the detectors did find something more
    assert!(total > urls, "{total} <= {urls}");
}

#[test]
fn corpus_samples_through_every_path() {
    let files = corpus_files();
    assert!(files.len() >= 20, "only {} sample files", files.len());
    let mut total = 0;
    for path in &files {
        let text = std::fs::read(path).expect("sample file");
        total += slice_hits(&Finder::new(), &text).len();
        if let Err(e) = all_paths_agree(&text, &CAPACITIES) {
            panic!("{}: {e}", path.display());
        }
    }
    // The samples are chosen for their URLs; an empty result is a bug.
    assert!(total > 300, "only {total} candidates in corpora/");
}

/// Random newline subsets of the corpus samples as parallel slices.
#[test]
fn corpus_samples_random_slices() {
    let f = Finder::new();
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        // xorshift64*: deterministic, no dependency
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    for path in corpus_files() {
        let text = std::fs::read(&path).expect("sample file");
        let want = slice_hits(&f, &text);
        let starts = line_starts(&text);
        for _ in 0..8 {
            let every = (next() % 50 + 1) as usize;
            let pick: Vec<usize> = starts
                .iter()
                .copied()
                .filter(|_| (next() as usize).is_multiple_of(every))
                .collect();
            assert_eq!(
                stitched_hits(&f, &text, &pick),
                want,
                "{}: slices at {pick:?}",
                path.display()
            );
        }
    }
}

/// Boundary expansion (memchr `Seed::generate`, aho-corasick issue #64):
/// each seed padded with 0..=PAD filler bytes on both sides, read through
/// a reader split at every index, equals the slice search of the seed
/// with its offsets shifted by the left padding.
#[test]
fn boundary_expansion() {
    const PAD: usize = 4;
    let mut seeds: Vec<Vec<u8>> =
        cases::load().into_iter().map(|c| c.input).collect();
    seeds.extend(
        [
            &b"<URL:http://a.b/\n c>"[..],
            b"\"http://a.b/c\"",
            b"http://a.b/\xc3\xa9x",
            b"> <URL:http://a.b/\r\n> c>",
        ]
        .map(<[u8]>::to_vec),
    );
    let simd = Finder::new();
    for seed in &seeds {
        let base = slice_hits(&simd, seed);
        for filler in [b' ', b'\n'] {
            for left in 0..=PAD {
                for right in 0..=PAD {
                    let mut text = vec![filler; left];
                    text.extend_from_slice(seed);
                    text.extend(std::iter::repeat_n(filler, right));
                    let want: Vec<Hit> = base
                        .iter()
                        .map(|h| {
                            let start = h.start as usize + left;
                            let (line, column) = line_column(&text, start);
                            Hit {
                                start: start as u64,
                                end: h.end + left as u64,
                                line,
                                column,
                                ..h.clone()
                            }
                        })
                        .collect();
                    assert_eq!(
                        slice_hits(&simd, &text),
                        want,
                        "padded slice {:?}",
                        String::from_utf8_lossy(&text)
                    );
                    for at in 0..=text.len() {
                        let rdr = SplitReader::new(&text, vec![at]);
                        assert_eq!(
                            reader_hits(&simd, rdr),
                            want,
                            "split at {at} of {:?}",
                            String::from_utf8_lossy(&text)
                        );
                    }
                }
            }
        }
    }
}

/// Fragments random inputs are built from: wrappers, delimiters, line
/// breaks, quote prefixes, brackets, punctuation, 8-bit bytes.
const FRAGMENTS: &[&[u8]] = &[
    b"<URL:",
    b"<url: ",
    b"URL:",
    b"<",
    b">",
    b"\"",
    b"http://",
    b"HTTPS://",
    b"ftp://",
    b"mailto:",
    b"news:",
    b"urn:x:",
    b"sip:",
    b"http:",
    b":",
    b"//",
    // unregistered schemes before `//`, a cut one, a drive letter
    b"gemini://",
    b"hkp",
    b"ttp://",
    b"C://",
    b"'",
    b"a.example",
    b"b.example:8080",
    b"[::1]",
    b"/path",
    b"/x-",
    b"?q=1&r=2",
    b"#frag",
    b"x@y.example",
    b"www.",
    b"\n",
    b"\r\n",
    b"\r",
    b"\n\n",
    b"> ",
    b">> ",
    b"\n> ",
    b"\n   ",
    b" ",
    b"\t",
    b"-",
    b"(",
    b")",
    b"[",
    b"]",
    b"{",
    b".",
    b",",
    b";",
    b"!",
    b"'",
    b"*",
    b"\xc3\xa9",
    b"\xe3\x80\x82",
    b"\xe9",
    b"\xff",
    b"\x0c",
    b"C:\\",
    b"12:34",
];

fn fragment_text() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        4 => proptest::sample::select(FRAGMENTS).prop_map(<[u8]>::to_vec),
        1 => proptest::collection::vec(any::<u8>(), 1..4),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Random URL-ish inputs, random buffer capacity, random read splits,
    /// random parallel slices: all equal the slice search; naive triggers
    /// equal SIMD ones.
    #[test]
    fn random_inputs_agree(
        text in fragment_text(),
        capacity in 1usize..300,
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
        slices in proptest::collection::vec(any::<bool>(), 0..64),
    ) {
        let simd = Finder::new();
        let want = slice_hits(&simd, &text);
        let naive = finder(urlgrep::Triggers::Naive, None);
        prop_assert_eq!(&slice_hits(&naive, &text), &want);
        for triggers in [urlgrep::Triggers::Simd, urlgrep::Triggers::Naive] {
            let f = finder(triggers, Some(capacity));
            let cuts: Vec<usize> =
                cuts.iter().map(|i| i.index(text.len() + 1)).collect();
            let rdr = SplitReader::new(&text, cuts.clone());
            prop_assert_eq!(
                &reader_hits(&f, rdr), &want,
                "{:?} capacity {} cuts {:?}", triggers, capacity, cuts
            );
        }
        let starts: Vec<usize> = line_starts(&text)
            .into_iter()
            .zip(slices.iter().cycle())
            .filter(|(_, &keep)| keep)
            .map(|(s, _)| s)
            .collect();
        prop_assert_eq!(
            &stitched_hits(&simd, &text, &starts), &want,
            "slices at {:?}", starts
        );
    }

    /// No input makes the finder panic, whatever the bytes.
    #[test]
    fn random_bytes_agree(
        text in proptest::collection::vec(any::<u8>(), 0..300),
        capacity in 1usize..64,
    ) {
        let want = slice_hits(&Finder::new(), &text);
        let f = finder(urlgrep::Triggers::Naive, Some(capacity));
        prop_assert_eq!(&reader_hits(&f, &text[..]), &want);
    }
}

/// Long inputs without a newline complete through the reader API, and,
/// where /proc is there, the process's peak memory stays far below the
/// input size. Runs in a child process so that no other test's memory is
/// counted.
#[test]
fn memory_bounded_without_newlines() {
    const CHILD: &str = "URLGREP_MEMORY_CHILD";
    if std::env::var_os(CHILD).is_some() {
        return memory_child();
    }
    let exe = std::env::current_exe().expect("test binary path");
    let out = std::process::Command::new(exe)
        .args(["--exact", "memory_bounded_without_newlines", "--nocapture"])
        .env(CHILD, "1")
        .output()
        .expect("run the child test");
    let log = String::from_utf8_lossy(&out.stdout).into_owned()
        + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{log}");
    assert!(log.contains("memory child done"), "child did not run:\n{log}");
    eprintln!("{log}");
}

fn memory_child() {
    struct Count(u64);
    impl urlgrep::Sink for Count {
        type Error = io::Error;
        fn matched(
            &mut self,
            _: &Position,
            _: &Match<'_>,
        ) -> io::Result<bool> {
            self.0 += 1;
            Ok(true)
        }
        fn rejected(
            &mut self,
            _: &Position,
            _: &Candidate<'_>,
        ) -> io::Result<bool> {
            self.0 += 1;
            Ok(true)
        }
    }
    const MIB: u64 = 1 << 20;
    let f = Finder::new();
    let inputs: Vec<(&str, Box<dyn Read>, u64)> = vec![
        ("64 MiB of x", Box::new(io::repeat(b'x').take(64 * MIB)), 0),
        (
            "an endless bare URL",
            Box::new(
                (&b"http://a.example/"[..])
                    .chain(io::repeat(b'x').take(16 * MIB)),
            ),
            1,
        ),
        (
            "an endless wrapper",
            Box::new(
                (&b"<URL:http://a.example/"[..])
                    .chain(io::repeat(b'y').take(16 * MIB)),
            ),
            1,
        ),
        ("colons everywhere", Box::new(io::repeat(b':').take(8 * MIB)), 0),
        (
            "scheme after scheme",
            Box::new(
                io::Cursor::new(b"http:".repeat(1 << 20))
                    .chain(&b"http://a.example/"[..]),
            ),
            1,
        ),
    ];
    for (what, rdr, want) in inputs {
        let mut sink = Count(0);
        f.find_reader(rdr, &mut sink).expect("in-memory reader");
        assert_eq!(sink.0, want, "{what}: candidates");
        eprintln!("{what}: {} candidates", sink.0);
    }
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        let hwm_kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0);
        eprintln!("peak resident memory: {hwm_kib} KiB");
        assert!(
            hwm_kib > 0 && hwm_kib < 40 * 1024,
            "peak memory {hwm_kib} KiB for 64 MiB without newlines"
        );
    }
    eprintln!("memory child done");
}
