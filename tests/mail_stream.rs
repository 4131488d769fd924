//! Mail of any size (issue 15): the hostile and merely large messages,
//! generated here (none are stored), each searched from a file, from
//! standard input and gzipped, at several thread counts and slice sizes:
//! the URL count is the one generated, and every reading prints the same
//! bytes. The sizes are those of the issue scaled down to a few MiB past
//! the 4 MiB above which a message is searched as a stream; the full
//! sizes, with their peak memory, are measured by `benches/mail_rss.py`.

mod support;

use base64::Engine;
use std::io::Write;
use std::path::Path;
use support::{code, run, stderr};

/// The base64 of `text` in lines of 76 characters.
fn base64_lines(text: &[u8]) -> Vec<u8> {
    let enc = base64::engine::general_purpose::STANDARD.encode(text);
    let mut out = Vec::with_capacity(enc.len() * 78 / 76 + 2);
    for line in enc.as_bytes().chunks(76) {
        out.extend_from_slice(line);
        out.extend_from_slice(b"\n");
    }
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

fn urls(n: usize, host: &str) -> Vec<u8> {
    (0..n)
        .flat_map(|i| format!("see http://{host}{i}.example/p\n").into_bytes())
        .collect()
}

/// Searches `mail` (named `name`) every way with `args`, checks that
/// every reading prints what the file read with `-j1` prints, and
/// returns that output.
fn every_way(name: &str, mail: &[u8], args: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(name);
    std::fs::write(&file, mail).unwrap();
    let gz = dir.path().join(format!("{name}.gz"));
    std::fs::write(&gz, gzip(mail)).unwrap();
    let p = |path: &Path| path.display().to_string();
    let search = |extra: &[&str], target: &str, stdin: &[u8]| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend_from_slice(extra);
        all.push(target);
        let o = run(&all, stdin);
        assert!(code(&o) <= 1, "{name} {all:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "", "{name} {all:?}");
        o.stdout
    };
    let want = search(&["-j1"], &p(&file), b"");
    let readings: [(&[&str], String, &[u8]); 5] = [
        (&["-j2"], p(&file), b""),
        (&["-j2", "--slice-size=1048576"], p(&file), b""),
        (&["-j2", "--slice-size=65536"], p(&file), b""),
        (&["-j1"], "-".into(), mail),
        (&["-j2"], p(&gz), b""),
    ];
    for (extra, target, stdin) in readings {
        let got = search(extra, &target, stdin);
        // The gzipped file and standard input are named as they are.
        let path = format!("\"path\":\"{}\"", p(&file));
        let got = String::from_utf8_lossy(&got)
            .replace(&format!("\"path\":\"{target}\""), &path)
            .replace(",\"source\":\"<stdin>\"", "")
            .into_bytes();
        assert!(got == want, "{name}: {extra:?} {target} differs");
    }
    want
}

/// The URLs printed: match records of JSON, lines of the rest.
fn count(out: &[u8]) -> usize {
    let lines = out.split(|&b| b == b'\n').filter(|l| !l.is_empty());
    if out.starts_with(b"{") {
        let record = b"\"type\":\"match\"";
        lines.filter(|l| l.windows(record.len()).any(|w| w == record)).count()
    } else {
        lines.count()
    }
}

#[test]
fn a_base64_part_of_any_length_is_decoded() {
    // The 68 MB part with 1,800,000 URLs, scaled to 7 MB.
    let n = 200_000;
    let mut mail = b"From a@b Thu Aug 22 13:17:22 2002\n\
        Message-ID: <big@x>\nContent-Type: text/plain\n\
        Content-Transfer-Encoding: base64\n\n"
        .to_vec();
    mail.extend_from_slice(&base64_lines(&urls(n, "u")));
    assert!(mail.len() > 6 << 20);
    let out = every_way("b64.mbox", &mail, &["--mail", "on", "-n"]);
    assert_eq!(count(&out), n);
}

#[test]
fn a_long_message_gives_one_answer_from_file_stdin_and_gzip() {
    // The 23 MB message: a long text part, then a base64 part
    // with the URLs; read from standard input, its second part lost its
    // MIME header and a third of its URLs.
    let n = 30_000;
    let mut mail = b"Message-ID: <two@x>\n\
        Content-Type: multipart/mixed; boundary=B\n\n--B\n\
        Content-Type: text/plain\n\n"
        .to_vec();
    mail.extend_from_slice(
        &b"filler line of plain text without links\n".repeat(150_000),
    );
    mail.extend_from_slice(
        b"\n--B\nContent-Type: text/plain\n\
        Content-Transfer-Encoding: base64\n\n",
    );
    mail.extend_from_slice(&base64_lines(&urls(n, "v")));
    mail.extend_from_slice(b"--B--\n");
    let out = every_way("two.eml", &mail, &["--mail", "on", "--json"]);
    assert_eq!(count(&out), n);
    // One message, the base64 part numbered 2.
    let text = String::from_utf8_lossy(&out);
    let matches: Vec<&str> =
        text.lines().filter(|l| l.contains("\"type\":\"match\"")).collect();
    assert!(matches.iter().all(|l| l.contains("\"message\":0,")));
    assert!(
        matches.iter().all(|l| l.contains("\"part\":2,")),
        "{}",
        matches[0]
    );
}

#[test]
fn a_long_message_in_a_spool_is_one_message_in_every_slice() {
    // Short messages around a long one: a file's slices, read whole or
    // as a stream, count and number the messages as standard input does.
    let short = |i: usize| {
        format!(
            "From a@b Thu Aug 22 13:17:22 2002\nMessage-ID: <{i}@x>\n\n\
             short http://s{i}.example/\n\n"
        )
        .into_bytes()
    };
    let mut mail: Vec<u8> = (0..3000).flat_map(short).collect();
    mail.extend_from_slice(
        b"From b@c Thu Aug 22 13:17:22 2002\nMessage-ID: <long@x>\n\
        Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n",
    );
    for i in 0..200_000 {
        mail.extend_from_slice(
            format!("<a href=3D\"http://l{i}.example/?a=3D1&amp;b=3D2\">x</a>=\n\n")
                .as_bytes(),
        );
    }
    mail.extend((3000..6000).flat_map(short));
    assert!(mail.len() > 9 << 20);
    let out = every_way("spool.mbox", &mail, &["--mail", "on", "--json"]);
    assert_eq!(count(&out), 6000 + 200_000);
    let text = String::from_utf8_lossy(&out);
    let long =
        text.lines().find(|l| l.contains("l0.example")).unwrap_or_default();
    assert!(long.contains("\"message\":3000,"), "{long}");
    assert!(long.contains("http://l0.example/?a=1&b=2"), "{long}");
    let last = text
        .lines()
        .rfind(|l| l.contains("\"type\":\"match\""))
        .unwrap_or_default();
    assert!(last.contains("\"message\":6000,"), "{last}");
}

#[test]
fn a_long_header_many_parts_and_references_stay_found() {
    // 15.7 M header fields, 13.4 M empty parts and 64 MiB of references
    // in the issue; a few MiB of each here.
    let mut fields = b"Subject: many fields\n".to_vec();
    for i in 0..200_000 {
        fields.extend_from_slice(
            format!("X-F: a\nX-U: <http://f{i}.example/>\n").as_bytes(),
        );
    }
    fields.extend_from_slice(b"\nbody http://body.example/\n");
    let out = every_way("fields.eml", &fields, &["--mail", "on", "-n"]);
    assert_eq!(count(&out), 200_001);

    let mut parts = b"Content-Type: multipart/mixed; boundary=b\n\n".to_vec();
    parts.extend_from_slice(&b"--b\n\n".repeat(1_000_000));
    parts.extend_from_slice(b"--b\n\nlast http://last.example/\n--b--\n");
    let out = every_way("parts.eml", &parts, &["--mail", "on", "--json"]);
    assert_eq!(count(&out), 1);
    assert!(String::from_utf8_lossy(&out).contains("\"part\":1000001,"));

    let mut html = b"Content-Type: text/html\n\n".to_vec();
    for i in 0..100_000 {
        html.extend_from_slice(
            format!(
                "&amp;&#x41;&lt;http://r{i}.example/?a=1&amp;b=2&gt;&nbsp;\n"
            )
            .as_bytes(),
        );
    }
    let out = every_way("refs.eml", &html, &["--mail", "on"]);
    assert_eq!(count(&out), 100_000);
    assert!(String::from_utf8_lossy(&out)
        .starts_with("http://r0.example/?a=1&b=2\n"));
}

/// What a mail match says, by absolute offsets.
fn record(m: &urlgrep::mail::MailMatch<'_>) -> String {
    format!(
        "{} {} {:?} {} {} {} {} {} {} {:?}",
        m.offset(),
        m.end_offset(),
        String::from_utf8_lossy(m.as_match().url()),
        m.message(),
        m.message_offset(),
        m.part(),
        m.location().name(),
        m.encoding().name(),
        m.decoded(),
        m.message_id().map(String::from_utf8_lossy),
    )
}

/// The stream against the walk on real mail: every message of the
/// shared corpora searched as a stream (as one over 4 MiB is), in pieces
/// of 4,093 bytes, gives the matches of the walk of it held whole.
#[test]
fn corpora_streamed_equal_walked() {
    use urlgrep::mail::{Format, MailFinder};
    use urlgrep::Finder;
    let whole = MailFinder::new(Finder::new());
    let streamed = MailFinder::builder()
        .whole_message_len(0)
        .stream_piece_len(4093)
        .build(Finder::new());
    let mut total = 0;
    for (dir, file) in [
        ("spamassassin", "spamassassin-public-corpus.tar.gz"),
        ("python-dev", "python-dev-1999-04_2000-03.tar.gz"),
        ("blinux-list", "blinux-list.tar.gz"),
    ] {
        let Some(files) = support::corpus::corpus(dir, file) else {
            return;
        };
        for (name, bytes) in files {
            let format = match Format::sniff(&bytes) {
                Format::Unknown => Format::Message,
                f => f,
            };
            let want: Vec<String> =
                whole.matches(&bytes, format).iter().map(record).collect();
            let got: Vec<String> =
                streamed.matches(&bytes, format).iter().map(record).collect();
            if got != want {
                let k =
                    got.iter().zip(&want).take_while(|(a, b)| a == b).count();
                panic!(
                    "{dir}/{name}: {} streamed, {} walked; first difference at {k}:\n  {:?}\n  {:?}",
                    got.len(),
                    want.len(),
                    got.get(k),
                    want.get(k)
                );
            }
            total += want.len();
        }
    }
    assert!(total > 100_000, "{total} matches in the corpora");
}

/// Multiparts nested deeper than the walk follows: the bottom is still
/// searched (as stored), and stderr says where the limit was met, with
/// the exit status left alone; alike for a message held whole and one
/// read as a stream.
#[test]
fn nesting_past_the_limit_warns_and_searches_on() {
    for pad in [0, 5 << 20] {
        let mut mail = b"Subject: deep\n".to_vec();
        for d in 0..40 {
            mail.extend_from_slice(
                format!(
                    "Content-Type: multipart/mixed; boundary=b{d}\n\n\
                     {}--b{d}\n",
                    if d == 0 { "x\n".repeat(pad / 2) } else { String::new() }
                )
                .as_bytes(),
            );
        }
        mail.extend_from_slice(
            b"Content-Type: text/plain\n\nhttp://bottom.example/\n",
        );
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("deep.eml");
        std::fs::write(&file, &mail).unwrap();
        let o = run(&["--mail", "on", "-b", &file.display().to_string()], b"");
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        assert!(String::from_utf8_lossy(&o.stdout)
            .contains("http://bottom.example/"));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "padding {pad}: {err}");
        assert!(
            err.contains(": warning: MIME nesting deeper than 32 levels"),
            "padding {pad}: {err}"
        );
        // The offset is where the first part past the limit starts.
        let at = err
            .split(": offset ")
            .nth(1)
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(usize::MAX);
        assert!(
            mail[at..]
                .starts_with(b"Content-Type: multipart/mixed; boundary=b32"),
            "padding {pad}: offset {at}"
        );
    }
}
