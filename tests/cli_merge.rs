//! Integration tests of `urlgrep merge`: what it prints from hostile or
//! damaged partials, `--compare`, and its help.

mod support;

use support::{code, p, run, stderr, stdout};

/// A partial's host key holding ESC, BEL and U+202E (RIGHT-TO-LEFT
/// OVERRIDE), as a hostile or corrupt partial may.
const HOSTILE: &str = "e\x1b]0;x\x07\u{202e}gpj.example";

fn hostile_partial(dir: &std::path::Path) -> std::path::PathBuf {
    let f = dir.join("h.tsv");
    let text = format!(
        "host\t{HOSTILE}\t3\nhost\tok.example\t1\ntotal\tmatches\t4\n"
    );
    std::fs::write(&f, text).unwrap();
    f
}

fn assert_no_controls(what: &str, out: &str) {
    for c in ['\x1b', '\x07', '\u{202e}'] {
        assert!(!out.contains(c), "{what}: {c:?} printed raw in\n{out:?}");
    }
}

/// Issue 33.10: keys from a partial reach the terminal escaped, in the
/// report, `--compare`, `--tsv` and `--json`, and still read back.
#[test]
fn merge_escapes_keys_from_a_partial() {
    let d = tempfile::tempdir().unwrap();
    let f = hostile_partial(d.path());
    let report = run(&["merge", p(&f)], b"");
    assert_eq!(code(&report), 0, "{}", stderr(&report));
    assert_no_controls("report", &stdout(&report));
    assert!(stdout(&report).contains("e%1B]0;x%07%E2%80%AEgpj.example"));
    let cmp = run(&["merge", "--compare", p(&f), p(&f)], b"");
    assert_no_controls("--compare", &stdout(&cmp));
    let tsv = run(&["merge", "--tsv", p(&f)], b"");
    assert_no_controls("--tsv", &stdout(&tsv));
    assert!(
        stdout(&tsv)
            .contains("host\te\\u001b]0;x\\u0007\\u202egpj.example\t3"),
        "{}",
        stdout(&tsv)
    );
    let json = run(&["merge", "--json", p(&f)], b"");
    assert_no_controls("--json", &stdout(&json));
    // The escaped partial reads back to the same key.
    let again = run(&["merge", "--json", "-"], &tsv.stdout);
    assert_eq!(stdout(&again), stdout(&json));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["top_hosts"][0]["key"], HOSTILE);
}

/// Issue 34.8: `--compare` lists the `--top` hosts (largest in A or B
/// first), and gives no share to the totals, whose keys are no parts of
/// one whole.
#[test]
fn merge_compare_honours_top_and_gives_totals_no_share() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a.tsv");
    let b = d.path().join("b.tsv");
    std::fs::write(
        &a,
        "host\ta.example\t5\nhost\tb.example\t1\nhost\tc.example\t2\n\
         total\tbytes\t1000\ntotal\tmatches\t8\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "host\ta.example\t1\nhost\tb.example\t9\n\
         total\tbytes\t2000\ntotal\tmatches\t10\n",
    )
    .unwrap();
    let out = run(&["merge", "--top", "2", "--compare", p(&a), p(&b)], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "dim\tkey\ta\tb\tdiff\tshare_a\tshare_b\n\
         host\tb.example\t1\t9\t+8\t12.5\t90.0\n\
         host\ta.example\t5\t1\t-4\t62.5\t10.0\n\
         total\tbytes\t1000\t2000\t+1000\t-\t-\n\
         total\tmatches\t8\t10\t+2\t-\t-\n"
    );
    let all = run(&["merge", "--top", "5", "--compare", p(&a), p(&b)], b"");
    assert_eq!(
        stdout(&all).lines().filter(|l| l.starts_with("host")).count(),
        3
    );
}

/// Issue 34.9: the help says what merge prints of unique URLs: an
/// estimate.
#[test]
fn merge_help_tells_of_the_unique_estimate() {
    let help = run(&["merge", "--help"], b"");
    let text = stdout(&help);
    assert!(!text.contains("does not report"), "{text}");
    assert!(text.contains("estimates unique URLs"), "{text}");
    // And so it does.
    let d = tempfile::tempdir().unwrap();
    let input = d.path().join("in.txt");
    std::fs::write(&input, "http://a.example/ http://b.example/\n").unwrap();
    let part = run(&["--stats-tsv", p(&input)], b"");
    let report = run(&["merge", "-"], &part.stdout);
    assert!(stdout(&report).contains("unique URLs"), "{}", stdout(&report));
    assert!(stdout(&report).contains("estimate"), "{}", stdout(&report));
}

/// Issue 33.11: a partial cut at a line end, or whose counts pass 2^64,
/// is refused with status 2; an old partial (no header) is read with a
/// warning.
#[test]
fn merge_refuses_cut_and_overflowing_partials() {
    let d = tempfile::tempdir().unwrap();
    let input = d.path().join("in.txt");
    std::fs::write(&input, "http://a.example/ http://b.example/\n").unwrap();
    let part = run(&["--stats-tsv", p(&input)], b"").stdout;
    let whole = run(&["merge", "-"], &part);
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    assert!(stderr(&whole).is_empty(), "{}", stderr(&whole));
    // Cut after its first half of lines: the totals are lost.
    let text = String::from_utf8(part.clone()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = lines[..lines.len() / 2].join("\n") + "\n";
    let o = run(&["merge", "-"], cut.as_bytes());
    assert_eq!(code(&o), 2, "{}", stdout(&o));
    assert!(stderr(&o).contains("cut short"), "{}", stderr(&o));
    let f = d.path().join("cut.tsv");
    std::fs::write(&f, &cut).unwrap();
    let o = run(&["merge", "--compare", p(&f), p(&f)], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cut.tsv: line"), "{}", stderr(&o));
    // Counts that pass 2^64 - 1 together.
    let big = format!("total\tmatches\t{}\n", u64::MAX);
    let g = d.path().join("big.tsv");
    std::fs::write(&g, &big).unwrap();
    let o = run(&["merge", p(&g), p(&g)], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("passes 2^64"), "{}", stderr(&o));
    // An old partial: read, with a warning.
    let o = run(&["merge", p(&g)], b"");
    assert_eq!(code(&o), 0);
    assert!(stderr(&o).contains("without a partial header"), "{}", stderr(&o));
}
