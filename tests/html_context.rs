//! HTML link context through the binary (issue 18): the `html` object of
//! `--json` matches in `text/html` parts, and the `text-host-differs`
//! flag, in a multipart message whose HTML is quoted-printable.

use std::process::Output;
use urlgrep::output::json::Record;

mod support;

use support::run;

const SPOOL: &[u8] = b"From a Fri Jan  5 12:00:00 2001\n\
Message-ID: <1@a.example>\n\
Content-Type: multipart/alternative; boundary=\"b\"\n\
\n\
--b\n\
Content-Type: text/plain\n\
\n\
plain http://plain.example/\n\
--b\n\
Content-Type: text/html; charset=utf-8\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
<p>Dear customer, <a href=3D\"http://evil.example/login?a=3D1&amp;b=3D2\">ww=\n\
w.paypal.com</a>, <a href=3D'https://www.example.com/x'><b>Our</b>&nbsp;site=\n\
</a>.<img src=3Dhttp://img.example/p.png> more http://text.example/\n\
<!-- http://comment.example/ --></p>\n\
--b--\n";

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
fn json_matches_in_html_carry_their_context() {
    let out = run(&["--json", "--html-context", "--mail", "on"], SPOOL);
    let m = matches(&out);
    let urls: Vec<&str> =
        m.iter().map(|v| v["url"].as_str().unwrap()).collect();
    assert_eq!(
        urls,
        [
            "http://plain.example/",
            "http://evil.example/login?a=1&b=2",
            "https://www.example.com/x",
            "http://img.example/p.png",
            "http://text.example/",
            "http://comment.example/",
        ]
    );
    // The text/plain part has no html object.
    assert!(m[0].get("html").is_none());
    let html: Vec<&serde_json::Value> =
        m[1..].iter().map(|v| &v["html"]).collect();
    assert_eq!(
        *html[0],
        serde_json::json!({"in": "attribute", "element": "a",
            "attribute": "href", "link_text": "www.paypal.com"})
    );
    assert_eq!(m[1]["flags"], serde_json::json!(["text-host-differs"]));
    assert_eq!(html[1]["link_text"], "Our site");
    assert_eq!(m[2]["flags"], serde_json::json!([]));
    assert_eq!(
        *html[2],
        serde_json::json!({"in": "attribute", "element": "img", "attribute": "src"})
    );
    assert_eq!(*html[3], serde_json::json!({"in": "text"}));
    assert_eq!(*html[4], serde_json::json!({"in": "comment"}));
}

#[test]
fn plain_output_and_offsets_are_unchanged_by_the_context() {
    let plain = run(&["--mail", "on", "-b"], SPOOL);
    let text = String::from_utf8(plain.stdout).unwrap();
    let json = run(&["--json", "--html-context", "--mail", "on"], SPOOL);
    let offsets: Vec<String> = matches(&json)
        .iter()
        .map(|v| format!("{}:{}", v["offset"], v["url"].as_str().unwrap()))
        .collect();
    assert_eq!(text.lines().collect::<Vec<_>>(), offsets);
}

#[test]
fn the_context_is_read_only_when_asked() {
    let plain = run(&["--json", "--mail", "on"], SPOOL);
    let m = matches(&plain);
    assert_eq!(m.len(), 6);
    assert!(m.iter().all(|v| v.get("html").is_none()));
    assert!(m.iter().all(|v| v["flags"] == serde_json::json!([])));
    // It needs --json.
    let alone = run(&["--html-context", "--mail", "on"], SPOOL);
    assert_eq!(alone.status.code(), Some(2));
}

#[test]
fn a_tag_of_many_attributes_does_not_crash() {
    // Issue 33.1: about 7,000 `a=""` in one tag overflowed the stack
    // (exit 134), and the output of the earlier input, still buffered,
    // was lost. The plain spool first, then two hostile parts, the
    // second just under 4 MiB (a message over it gets no HTML context;
    // the unit test of 10^6 attributes is in src/mail/html/tests.rs).
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("a.mbox");
    std::fs::write(&first, SPOOL).unwrap();
    let mut args = vec!["--json".to_string(), "--html-context".to_string()];
    args.push(support::p(&first).to_string());
    for (name, n) in [("b.eml", 20_000), ("c.eml", 800_000)] {
        let mut mail =
            b"From: a@b.example\nContent-Type: text/html\n\n<p ".to_vec();
        mail.extend_from_slice(&b"a=\"\" ".repeat(n));
        mail.extend_from_slice(
            b"href=\"http://in.example/\">http://d.example/\n",
        );
        let path = dir.path().join(name);
        std::fs::write(&path, mail).unwrap();
        args.push(support::p(&path).to_string());
    }
    let out = run(&args, b"");
    assert_eq!(support::code(&out), 0, "{}", support::stderr(&out));
    let m = matches(&out);
    let urls: Vec<_> = m.iter().map(|v| v["url"].as_str().unwrap()).collect();
    assert_eq!(urls.len(), 6 + 4, "{urls:?}");
    assert_eq!(
        urls[6..],
        ["http://in.example/", "http://d.example/"].repeat(2)
    );
    for k in [6, 8] {
        assert_eq!(m[k]["html"]["attribute"], "href");
        assert_eq!(m[k + 1]["html"]["in"], "text");
    }
}
