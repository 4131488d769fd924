//! Message metadata through the binary (issue 18): `--json` mail objects
//! with `from`, `subject`, `date`, `date_utc`, and `--header NAME`.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use urlgrep::output::json::Record;

const BIN: &str = env!("CARGO_BIN_EXE_urlgrep");

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("CI")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

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
    let asked = run(&["--mail", "on", "--header", "x-tag"], SPOOL);
    assert_eq!(plain.stdout, b"http://a.example/\nhttp://b.example/\n");
    assert_eq!(asked.stdout, plain.stdout);
}
