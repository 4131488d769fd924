//! Message metadata through the binary (issue 18): `--json` mail objects
//! with `from`, `subject`, `date`, `date_utc`, and `--header NAME`.

use std::process::Output;
use urlgrep::output::json::Record;

mod support;

use support::run;

const SPOOL: &[u8] = b"From a Fri Jan  5 12:00:00 2001\n\
From: \"Lee, Ann\" <ann@a.example>\n\
Subject: =?iso-8859-1?q?r=E9sum=E9?= and\n =?utf-8?b?Y2Fmw6k=?=\n\
Date: Fri, 5 Jan 01 12:00:00 PST\n\
X-Tag: one\n\
X-Tag: =?utf-8?q?t=C3=A9?=\n\
\n\
http://a.example/\n\
\n\
From b Fri Jan  5 12:00:00 2001\n\
Subject: no date\n\
Date: someday\n\
\n\
http://b.example/\n";

fn matches(out: &Output) -> Vec<serde_json::Value> {
    let text = String::from_utf8(out.stdout.clone()).unwrap();
    text.lines()
        .inspect(|l| {
            // Every record reads back with unknown fields denied.
            let _: Record<'_> = serde_json::from_str(l).unwrap();
        })
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "match")
        .collect()
}

#[test]
fn json_mail_objects_carry_metadata() {
    let out = run(&["--json", "--mail", "on"], SPOOL);
    let m = matches(&out);
    assert_eq!(m.len(), 2);
    let a = &m[0]["mail"];
    assert_eq!(a["from"]["address"], "ann@a.example");
    assert_eq!(a["from"]["name"], "Lee, Ann");
    assert_eq!(a["subject"], "résumé and café");
    assert_eq!(a["date"], "Fri, 5 Jan 01 12:00:00 PST");
    assert_eq!(a["date_utc"], "2001-01-05T20:00:00Z");
    assert!(a.get("headers").is_none());
    let b = &m[1]["mail"];
    assert_eq!(b["subject"], "no date");
    assert_eq!(b["date"], "someday");
    assert!(b.get("date_utc").is_none() && b.get("from").is_none());
}

#[test]
fn header_values_are_listed_by_name() {
    let out = run(&["--json", "--mail", "on", "--header", "X-TAG"], SPOOL);
    let m = matches(&out);
    let h = &m[0]["mail"]["headers"];
    assert_eq!(h["x-tag"], serde_json::json!(["one", "té"]));
    assert_eq!(m[1]["mail"]["headers"]["x-tag"], serde_json::json!([]));
}

#[test]
fn plain_output_is_unchanged_by_metadata() {
    let plain = run(&["--mail", "on"], SPOOL);
    assert_eq!(plain.stdout, b"http://a.example/\nhttp://b.example/\n");
    // --header shows only in --json: without it, refused (issue 34.11),
    // where it was once accepted and ignored.
    let asked = run(&["--mail", "on", "--header", "x-tag"], SPOOL);
    assert_eq!(asked.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&asked.stderr).contains("--json"));
    assert_eq!(asked.stdout, b"");
}

fn tsv_rows(out: &Output, dim: &str) -> Vec<(String, u64)> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            (f.next()? == dim).then(|| {
                (
                    f.next().unwrap().to_string(),
                    f.next().unwrap().parse().unwrap(),
                )
            })
        })
        .collect()
}

#[test]
fn stats_by_period_with_unknown() {
    let out = run(&["--stats-tsv", "--by", "month", "--mail", "on"], SPOOL);
    assert!(out.status.success());
    assert_eq!(
        tsv_rows(&out, "by-month"),
        [("2001-01".to_string(), 1), ("unknown".to_string(), 1)]
    );
    assert_eq!(
        tsv_rows(&out, "by-month-scheme"),
        [("2001-01 http".to_string(), 1), ("unknown http".to_string(), 1)]
    );
    assert_eq!(
        tsv_rows(&out, "by-month-host"),
        [
            ("2001-01 a.example".to_string(), 1),
            ("unknown b.example".to_string(), 1)
        ]
    );
    let year = run(&["--stats-tsv", "--by", "year", "--mail", "on"], SPOOL);
    assert_eq!(
        tsv_rows(&year, "by-year-messages")[0],
        ("2001".to_string(), 1)
    );
    // Without --by, no such dimension; --by without statistics is an error.
    let plain = run(&["--stats-tsv", "--mail", "on"], SPOOL);
    assert!(tsv_rows(&plain, "by-month").is_empty());
    let bad = run(&["--by", "month"], SPOOL);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn merge_compare_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.tsv");
    let b = dir.path().join("b.tsv");
    std::fs::write(&a, "scheme\thttp\t3\nscheme\tftp\t1\nhll-urls\t1\t4\n")
        .unwrap();
    std::fs::write(&b, "scheme\thttp\t5\nhost\tx.example\t2\n").unwrap();
    let out = run(
        &["merge", "--compare", a.to_str().unwrap(), b.to_str().unwrap()],
        b"",
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "dim\tkey\ta\tb\tdiff\tshare_a\tshare_b\n\
         host\tx.example\t0\t2\t+2\t-\t100.0\n\
         scheme\tftp\t1\t0\t-1\t25.0\t0.0\n\
         scheme\thttp\t3\t5\t+2\t75.0\t100.0\n"
    );
}

/// `--stats --by month` on the python-dev archives: each month's count
/// is the number of JSON matches whose `date_utc` falls in it.
#[test]
fn corpus_by_month_equals_json_grouped_by_date_utc() {
    let Some(tarball) = support::shared::path(
        "corpora/python-dev/python-dev-1999-04_2000-03.tar.gz",
    ) else {
        return;
    };
    let file = std::fs::File::open(&tarball).expect("the spool");
    let mut spool = Vec::new();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    for entry in archive.entries().expect("a tar archive") {
        let mut entry = entry.expect("an entry");
        if entry.header().entry_type().is_file() {
            std::io::Read::read_to_end(&mut entry, &mut spool)
                .expect("a member");
        }
    }
    let json = run(&["--json", "--mail", "on"], &spool);
    let mut want = std::collections::BTreeMap::<String, u64>::new();
    for m in matches(&json) {
        let month = m["mail"]["date_utc"]
            .as_str()
            .map_or("unknown".to_string(), |d| d[..7].to_string());
        *want.entry(month).or_default() += 1;
    }
    let stats = run(&["--stats-tsv", "--by", "month", "--mail", "on"], &spool);
    let got: std::collections::BTreeMap<String, u64> =
        tsv_rows(&stats, "by-month").into_iter().collect();
    assert!(want.len() >= 12, "{want:?}");
    assert_eq!(got, want);
}

#[test]
fn a_byte_order_mark_in_an_encoded_word_is_latin_text() {
    // Issue 33.7: the word was read as UTF-16 by its `FE FF` and lost.
    let mail = b"From: a@b.example\n\
Subject: =?iso-8859-1?q?=FE=FFhttp://latin.example/?=\n\nx\n";
    let out = run(&["--json"], mail);
    let m = matches(&out);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0]["url"], "http://latin.example/");
    assert_eq!(m[0]["mail"]["subject"], "\u{fe}\u{ff}http://latin.example/");
}

#[test]
fn json_and_by_day_agree_on_dates_out_of_range() {
    // Issue 33.9: `date_utc` clamped the year 10000 to 9999 while
    // `--by day` said 10000-01-01; years RFC 5322 gives no date for
    // (0000, signed, digits other than ASCII) were read as 1900.
    for (date, day) in [
        ("Fri, 31 Dec 9999 23:59:59 -2359", None),
        ("Sat, 1 Jan 0000 00:00:00 +0000", None),
        ("1 Jan -2001 00:00:00 +0000", None),
        ("Mon, 1 Jan \u{0662}\u{0660}\u{0660}\u{0661} 00:00:00 +0000", None),
        ("Fri, 31 Dec 9999 23:59:59 +2359", Some("9999-12-31")),
    ] {
        let mail =
            format!("From: a@b.example\nDate: {date}\n\nhttp://x.example/\n");
        let m = matches(&run(&["--json"], mail.as_bytes()));
        let utc = m[0]["mail"]["date_utc"].as_str();
        assert_eq!(utc.map(|u| &u[..10]), day, "{date}");
        let tsv = run(&["--stats-tsv", "--by", "day"], mail.as_bytes());
        let tsv = String::from_utf8(tsv.stdout).unwrap();
        let want = format!("by-day\t{}\t1\n", day.unwrap_or("unknown"));
        assert!(tsv.contains(&want), "{date}: {tsv}");
    }
}

/// Issue 33.5: a message's strings are repeated in each of its match
/// records, so they are cut (`*_truncated`): a 30 KB `Subject` holding
/// 2,000 URLs and 40 long `X-A` fields gave 2,000 records of over 100 KB
/// each (about 4,000 times the input); now output stays within a small
/// multiple of it.
#[test]
fn json_output_stays_linear_with_a_huge_subject_and_headers() {
    let mut mail = String::from("From: \"");
    mail.push_str(&"N".repeat(5000));
    mail.push_str("\" <a@b.example>\nSubject: ");
    for i in 0..2000 {
        mail.push_str(&format!("http://r{i}.ex/ "));
    }
    mail.push('\n');
    for _ in 0..40 {
        mail.push_str(&format!("X-A: {}\n", "v".repeat(2000)));
    }
    mail.push_str("Message-ID: <");
    mail.push_str(&"i".repeat(1000));
    mail.push_str("@b.example>\n\nhttp://body.example/\n");
    let out =
        run(&["--json", "--header", "x-a", "--mail", "on"], mail.as_bytes());
    assert_eq!(out.status.code(), Some(0));
    let ratio = out.stdout.len() as f64 / mail.len() as f64;
    assert!(
        ratio < 64.0,
        "output {} bytes for {} in",
        out.stdout.len(),
        mail.len()
    );
    let recs = matches(&out);
    assert_eq!(recs.len(), 2001);
    let m = &recs[0]["mail"];
    assert_eq!(m["subject"].as_str().unwrap().chars().count(), 200);
    assert_eq!(m["subject_truncated"], true);
    assert_eq!(m["from"]["name"].as_str().unwrap().chars().count(), 200);
    assert_eq!(m["from"]["truncated"], true);
    assert_eq!(m["message_id"].as_str().unwrap().chars().count(), 200);
    assert_eq!(m["message_id_truncated"], true);
    assert_eq!(m["headers"]["x-a"].as_array().unwrap().len(), 8);
    assert_eq!(m["headers_truncated"], true);
    // Ordinary fields keep their shape: no flag.
    let small = run(&["--json", "--header", "x-tag"], SPOOL);
    let text = String::from_utf8(small.stdout).unwrap();
    assert!(!text.contains("truncated"), "{text}");
}
