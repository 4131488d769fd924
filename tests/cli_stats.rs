//! Integration tests of the `urlgrep` binary: statistics (`--stats`,
//! `--stats --json`, `--stats-tsv` and `urlgrep merge`), moved out of
//! `tests/cli.rs` (its section 5) to keep each file under 900 lines.

use serde::Deserialize;
use std::process::Output;

#[path = "support/records.rs"]
mod records;

mod support;

use records::{records, Rec};
use support::{code, p, run, sample_dir, stderr, stdout, SAMPLE};

#[derive(Debug, Deserialize)]
struct StatsJson {
    files: u64,
    bytes: u64,
    candidates: u64,
    matches: u64,
    rejected: u64,
    unique_urls: Option<u64>,
    schemes: std::collections::BTreeMap<String, u64>,
    kinds: std::collections::BTreeMap<String, u64>,
    rejections: std::collections::BTreeMap<String, u64>,
    top_hosts: Vec<serde_json::Value>,
}

/// Sums the `end` records of a `--json` run: (files, bytes, candidates,
/// matches, rejected).
fn sum_of_ends(o: &Output) -> (u64, u64, u64, u64, u64) {
    let mut s = (0, 0, 0, 0, 0);
    for r in records(o) {
        if let Rec::End { bytes, candidates, matches, rejected, .. } = r {
            s.0 += 1;
            s.1 += bytes;
            s.2 += candidates;
            s.3 += matches;
            s.4 += rejected;
        }
    }
    s
}

#[test]
fn stats_json_equals_sum_of_json_records() {
    let (d, _f) = sample_dir();
    std::fs::write(d.path().join("more"), SAMPLE.repeat(7)).unwrap();
    std::fs::write(d.path().join("none"), "nothing").unwrap();
    let dir = p(d.path());
    // SAMPLE begins with a `From ` line: a raw scan counts its rejects.
    let raw = ["--mail", "off"];
    let stats: StatsJson = serde_json::from_slice(
        &run(&[&raw[..], &["--stats", "--json", dir]].concat(), b"").stdout,
    )
    .unwrap();
    let ends = sum_of_ends(&run(&[&raw[..], &["--json", dir]].concat(), b""));
    assert_eq!(
        (
            stats.files,
            stats.bytes,
            stats.candidates,
            stats.matches,
            stats.rejected
        ),
        ends
    );
    assert_eq!(ends.0, 3);
    assert_eq!(stats.matches, 8 * 5);
    assert_eq!(stats.unique_urls, Some(4));
    assert_eq!(stats.kinds.values().sum::<u64>(), stats.matches);
    assert_eq!(stats.schemes.values().sum::<u64>(), stats.matches);
    assert_eq!(stats.rejections.get("bad-port"), Some(&8));
    assert_eq!(stats.top_hosts[0]["key"], "a.example");
    assert_eq!(stats.top_hosts[0]["count"], 16);
}

#[test]
fn stats_report_is_readable() {
    let o =
        run(&["--mail", "off", "--stats", "--top", "1"], SAMPLE.as_bytes());
    let out = stdout(&o);
    for want in [
        "matches                  5",
        "unique URLs              4",
        "rejections by reason",
        "           1  bad-port",
        "top hosts\n             2  a.example\n\n",
        "MiB/s",
    ] {
        assert!(out.contains(want), "{want:?} not in\n{out}");
    }
}

#[test]
fn merge_of_partials_equals_stats_of_the_whole() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a");
    let b = d.path().join("b");
    std::fs::write(&a, SAMPLE).unwrap();
    std::fs::write(&b, SAMPLE.repeat(3)).unwrap();
    let pa = d.path().join("a.tsv");
    let pb = d.path().join("b.tsv");
    std::fs::write(&pa, run(&["--stats-tsv", p(&a)], b"").stdout).unwrap();
    std::fs::write(&pb, run(&["--stats-tsv", p(&b)], b"").stdout).unwrap();
    let merged = run(&["merge", "--tsv", p(&pa), p(&pb)], b"");
    let whole = run(&["--stats-tsv", p(&a), p(&b)], b"");
    assert_eq!(stdout(&merged), stdout(&whole));
    assert!(stdout(&whole).contains("total\tmatches\t20\n"));
    // SAMPLE is one mbox message: the message counts add up too.
    assert!(stdout(&whole).contains("total\tmessages\t4\n"));
    // from stdin, as a report
    let report = run(&["merge", "-"], &std::fs::read(&pb).unwrap());
    assert!(stdout(&report).contains("matches                 15"));
    let bad = run(&["merge", "-"], b"total\tmatches\n");
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("line 1: expected three"),
        "{}",
        stderr(&bad)
    );
}

/// Issue 20: unique counts of shards merge (HyperLogLog registers in the
/// partials, merged by maximum) within the sketch's stated error.
#[test]
fn merge_of_shards_estimates_unique_urls_within_the_stated_error() {
    let d = tempfile::tempdir().unwrap();
    // 30,000 distinct URLs on 3,000 hosts; the shards overlap by a third.
    let url = |i: u32| format!("see http://h{}.example/p{i} ok\n", i % 3000);
    let shards = [(0u32, 14_000u32), (10_000, 24_000), (20_000, 30_000)];
    let mut partials = Vec::new();
    for (n, (lo, hi)) in shards.iter().enumerate() {
        let f = d.path().join(format!("s{n}"));
        std::fs::write(&f, (*lo..*hi).map(url).collect::<String>()).unwrap();
        let tsv = d.path().join(format!("s{n}.tsv"));
        let o = run(&["--stats-tsv", p(&f)], b"");
        assert_eq!(code(&o), 0);
        assert!(stdout(&o).contains("hll-urls\t"), "{}", stdout(&o));
        std::fs::write(&tsv, o.stdout).unwrap();
        partials.push(tsv);
    }
    let args: Vec<&str> = ["merge", "--json"]
        .into_iter()
        .chain(partials.iter().map(|t| p(t)))
        .collect();
    let o = run(&args, b"");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["matches"], 38_000);
    assert_eq!(v["unique_urls_estimated"], true);
    let est = v["unique_urls"].as_u64().unwrap() as f64;
    // Three standard errors of 0.81 %.
    assert!((est - 30_000.0).abs() <= 30_000.0 * 0.025, "{est}");
    // No shard forgot a host: the union of the host keys is exact.
    assert_eq!(v["unique_hosts"], 3000);
    assert_eq!(v["unique_hosts_estimated"], false);
    // A merge of merges is the same.
    let once = run(&[&["merge", "--tsv"][..], &args[2..]].concat(), b"");
    let again = run(&["merge", "--json", "-"], &once.stdout);
    assert_eq!(again.stdout, o.stdout);
}

/// Issue 20: more distinct hosts than the bounded summary holds. The top
/// hosts stay right (within the stated error, which the report shows);
/// `--exact-stats` gives today's exact counts.
#[test]
fn stats_stay_bounded_and_honest_past_the_summary() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("many");
    let mut text = String::new();
    for i in 0..150_000u32 {
        text.push_str(&format!("http://h{i}.example/\n"));
        if i % 100 == 0 {
            text.push_str("http://heavy.example/\nhttp://second.example/x\n");
        }
        if i % 300 == 0 {
            text.push_str("http://heavy.example/y\n");
        }
    }
    std::fs::write(&f, text).unwrap();
    let stats = |extra: &[&str]| -> serde_json::Value {
        let o = run(&[&["--stats", "--json", p(&f)][..], extra].concat(), b"");
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let exact = stats(&["--exact-stats"]);
    assert_eq!(exact["top_hosts"][0]["key"], "heavy.example");
    assert_eq!(exact["top_hosts"][0]["count"], 2000);
    assert_eq!(exact["top_hosts"][1]["count"], 1500);
    assert_eq!(exact["top_hosts_max_error"], 0);
    assert_eq!(exact["unique_hosts"], 150_002);
    assert_eq!(exact["unique_urls"], 150_003);
    let bounded = stats(&[]);
    let err = bounded["top_hosts_max_error"].as_u64().unwrap();
    assert!(err > 0 && err <= 153_500 / 32_768, "{err}");
    assert_eq!(bounded["top_hosts"][0]["key"], "heavy.example");
    assert_eq!(bounded["top_hosts"][1]["key"], "second.example");
    let c0 = bounded["top_hosts"][0]["count"].as_u64().unwrap();
    assert!((2000..=2000 + err).contains(&c0), "{c0}");
    assert_eq!(bounded["unique_hosts_estimated"], true);
    let hosts = bounded["unique_hosts"].as_u64().unwrap() as f64;
    assert!((hosts - 150_002.0).abs() <= 150_002.0 * 0.025, "{hosts}");
    // Under 2^19 URLs the unique count is still exact.
    assert_eq!(bounded["unique_urls"], 150_003);
    assert_eq!(bounded["unique_urls_estimated"], false);
    let text = stdout(&run(&["--stats", p(&f)], b""));
    assert!(
        text.contains(&format!(
            "top hosts (approximate: each count over by at most {err})"
        )),
        "{text}"
    );
    assert!(text.contains("  (estimate, ±0.81 %)"), "{text}");
}

/// Issue 32 (`--stats`): URLs outside mail are folded into the
/// statistics on the worker that finds them, a batch at a time, and
/// added in input order. The partial (every counter, the sketches'
/// registers, the top hosts past the summary's evictions) is the one
/// the URLs reported one by one give (`--kind` with every kind: the
/// selection reads each URL, so none is folded), at any thread count
/// and slice size; the readable report and JSON are too.
#[test]
fn stats_folded_on_the_workers_equal_stats_of_each_url() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("dense");
    let mut text = String::new();
    for i in 0..70_000u32 {
        // More hosts than the summary keeps exactly (65,536): evictions.
        text.push_str(&format!(
            "see http://h{}.example/p/{i}.html ",
            i % 66_000
        ));
        match i % 7 {
            0 => text.push_str(&format!("<ftp://F{}.Example.ORG/x>", i % 50)),
            1 => text.push_str("mailto:a@b.example http://[::1 "),
            2 => text.push_str(&format!("\"https://x.example.net/{i}\"")),
            3 => text.push_str("http://heavy.example/ news:comp.x"),
            _ => {}
        }
        text.push('\n');
    }
    std::fs::write(&f, text).unwrap();
    let every = "--kind=bare,angle,quoted,wrapped";
    let out = |args: &[&str]| {
        let o = run(&[args, &[p(&f)]].concat(), b"");
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        // (the elapsed time aside)
        stdout(&o)
            .lines()
            .filter(|l| !l.contains("elapsed") && !l.contains("mib_per"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    // The partial holds every counter and the sketches' registers.
    let each = out(&["--stats-tsv", "-j1", every]);
    assert!(each.contains("error\thost\t"), "{each}");
    assert!(each.contains("host\theavy.example\t10000"), "{each}");
    for extra in [
        &["-j1"][..],
        &["-j2", "--slice-size=65536"],
        &["-j2", "--slice-size=4093", every],
    ] {
        let got = out(&[&["--stats-tsv"][..], extra].concat());
        assert_eq!(got, each, "{extra:?}");
    }
    // The report adds the exact unique count.
    let json = ["--stats", "--json"];
    let each = out(&[&json[..], &["-j1", every]].concat());
    assert_eq!(
        out(&[&json[..], &["-j2", "--slice-size=65536"]].concat()),
        each
    );
}

/// Issue 33.6: `--stats --by` keeps bounded summaries per period: past
/// 32,768 distinct hosts the `by-P-host` counters stop growing, and the
/// partial says how far they may be over (`error`/`by-day-host`).
#[test]
fn stats_by_period_keep_bounded_host_counters() {
    let mut text = String::new();
    for i in 0..140_000 {
        text.push_str(&format!("http://h{i}.example/\n"));
    }
    let o = run(&["--stats-tsv", "--by", "day", "-"], text.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    let hosts = out.lines().filter(|l| l.starts_with("by-day-host\t")).count();
    assert!((16_384..=32_768).contains(&hosts), "{hosts} host counters");
    assert!(out.contains("error\tby-day-host\t"), "no error line");
    assert!(out.contains("by-day\tunknown\t140000\n"));
}
