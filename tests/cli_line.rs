//! `--line` and `-A/-B/-C` in mail (issue 34, Context): the line that
//! holds a URL as it was searched, after quoted-printable or base64
//! decoding and RFC 2047 encoded words, its context lines from the same
//! decoded text, numbered by the stored lines.

mod support;

use support::{code, run_in, stderr, stdout};

/// Writes `text` to `name` in a new folder.
fn file(name: &str, text: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    dir
}

/// `urlgrep ARGS m.mbox` on `mbox`: its output.
fn lines(mbox: &[u8], args: &[&str]) -> String {
    let dir = file("m.mbox", mbox);
    let mut all = args.to_vec();
    all.push("m.mbox");
    let o = run_in(dir.path(), &all, b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    stdout(&o)
}

/// A base64 text part (CRLF lines inside, two URLs on one line, the
/// second starting on the next stored line) and what follows it.
const BASE64: &[u8] = b"From a@b Mon Jan  1 00:00:00 2001\n\
From: a@b.example\n\
Content-Type: text/plain\n\
Content-Transfer-Encoding: base64\n\
\n\
SGVsbG8sDQpzZWUgdGhlIHBhZ2UNCmh0dHBzOi8vZXhhbXBsZS5vcmcvYjY0L3BhZ2U/eD0xIGFu\n\
ZCBodHRwOi8vdHdvLmV4YW1wbGUvIG5vdw0KdGhhbmtzDQpieWUNCg==\n";

#[test]
fn a_base64_part_shows_its_decoded_line() {
    let url_line =
        "https://example.org/b64/page?x=1 and http://two.example/ now";
    // Once for its two URLs, the CR of its CRLF left out.
    assert_eq!(lines(BASE64, &["--line"]), format!("{url_line}\n"));
    // The number is the stored line the first URL starts on, as -n says.
    assert_eq!(
        lines(BASE64, &["-n"]),
        "6:https://example.org/b64/page?x=1\n7:http://two.example/\n"
    );
    assert_eq!(lines(BASE64, &["-n", "--line"]), format!("6:{url_line}\n"));
    // The context is the decoded text's, never its encoded lines: the
    // lines before and after, numbered by the stored line each starts on.
    assert_eq!(
        lines(BASE64, &["-n", "-C", "5"]),
        format!("6-Hello,\n6-see the page\n6:{url_line}\n7-thanks\n7-bye\n")
    );
    // Both URLs marked in the one line.
    assert_eq!(
        lines(BASE64, &["--line", "--color", "always"]),
        "\x1b[1;31mhttps://example.org/b64/page?x=1\x1b[0m and \
         \x1b[1;31mhttp://two.example/\x1b[0m now\n"
    );
}

/// A quoted-printable part: a soft line break inside a URL, `=3D` in
/// its query.
const QP: &[u8] = b"From a@b Mon Jan  1 00:00:00 2001\n\
From: a@b.example\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
one\n\
two\n\
see http://qp.example/a?b=3Dc&d=\n\
=3De and text\n\
three\n\
four\n\
five\n\
six\n\
seven http://qp.example/=\n\
z end\n\
eight\n";

#[test]
fn a_quoted_printable_part_shows_its_decoded_line() {
    assert_eq!(
        lines(QP, &["-n", "--line"]),
        "7:see http://qp.example/a?b=c&d=e and text\n\
         13:seven http://qp.example/z end\n"
    );
    // -b: the offset of the stored byte the line starts at.
    assert_eq!(
        lines(QP, &["-nb", "--line"]),
        "7:105:see http://qp.example/a?b=c&d=e and text\n\
         13:172:seven http://qp.example/z end\n"
    );
}

#[test]
fn after_and_before_context_in_a_decoded_part() {
    assert_eq!(
        lines(QP, &["-n", "-B", "1", "-A", "2"]),
        "6-two\n\
         7:see http://qp.example/a?b=c&d=e and text\n\
         9-three\n\
         10-four\n\
         --\n\
         12-six\n\
         13:seven http://qp.example/z end\n\
         15-eight\n"
    );
    // Groups that meet run on, with no `--`, each line once.
    assert_eq!(
        lines(QP, &["-C", "3"]),
        "one\ntwo\nsee http://qp.example/a?b=c&d=e and text\nthree\nfour\n\
         five\nsix\nseven http://qp.example/z end\neight\n"
    );
}

#[test]
fn a_header_url_in_an_encoded_word_shows_the_decoded_field() {
    let mbox = b"From a@b Mon Jan  1 00:00:00 2001\n\
From: a@b.example\n\
Subject: =?utf-8?q?read_https://subject.example/x=3Fa=3Db?= today\n\
\n\
body\n";
    assert_eq!(
        lines(mbox, &["-n", "--line"]),
        "3:Subject: read https://subject.example/x?a=b today\n"
    );
}

#[test]
fn stored_text_keeps_its_stored_lines() {
    // An identity part of a message, and a file that is not mail: the
    // lines as stored (`=3D` is not decoded where nothing encodes it).
    let mbox = b"From a@b Mon Jan  1 00:00:00 2001\n\
From: a@b.example\n\
\n\
x\n\
see http://plain.example/a=3Db here\n\
y\n";
    assert_eq!(
        lines(mbox, &["-n", "-C", "1"]),
        "4-x\n5:see http://plain.example/a=3Db here\n6-y\n"
    );
    let dir = file("t.txt", b"a\nsee http://t.example/a=\nb end\nc\n");
    let o = run_in(dir.path(), &["-n", "-C", "1", "t.txt"], b"");
    assert_eq!(stdout(&o), "1-a\n2:see http://t.example/a=\n3-b end\n");
}

#[test]
fn stored_and_decoded_groups_in_one_message() {
    // A URL in an identity part after one in a base64 part: each its own
    // lines, apart.
    let mut mbox = b"From a@b Mon Jan  1 00:00:00 2001\n\
From: a@b.example\n\
Content-Type: multipart/mixed; boundary=XX\n\
\n\
--XX\n"
        .to_vec();
    mbox.extend_from_slice(&BASE64[52..]);
    mbox.extend_from_slice(
        b"--XX\n\nplain http://plain.example/ here\n--XX--\n",
    );
    assert_eq!(
        lines(&mbox, &["-n", "-C", "1"]),
        "9-see the page\n\
         9:https://example.org/b64/page?x=1 and http://two.example/ now\n\
         10-thanks\n\
         --\n\
         12-\n\
         13:plain http://plain.example/ here\n\
         14---XX--\n"
    );
}

#[test]
fn a_url_wrapped_after_another_on_its_line() {
    // The second URL starts on the first one's line and runs on to the
    // next: both lines are its lines (`:`), each printed once, then the
    // context after.
    let mbox = b"From a@b Mon Jan  1 00:00:00 2001\n\
From: a@b.example\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
a http://one.example/ <URL:http://two.=\n\
example/\n\
\x20three/> b\n\
after\n\
last\n";
    assert_eq!(
        lines(mbox, &["-n", "-A", "1"]),
        "5:a http://one.example/ <URL:http://two.example/\n\
         7: three/> b\n\
         8-after\n"
    );
}
