//! Integration tests of the `urlgrep` binary on mail, and its
//! determinism on the corpora of `../shared/corpora` (skipped when
//! absent): `mail_*`, `corpus_*`. The other CLI tests are in
//! `tests/cli.rs` and `tests/cli_*.rs`.

use std::path::Path;

#[path = "support/records.rs"]
mod records;

use records::{gzip, records, Rec};

mod support;

use support::{code, run, stderr, stdout};

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

// 1. Exit status and errors

/// A 3-message mbox: quoted-printable (a soft break and `=3D` inside a
/// URL), a `>From ` line, a base64 text part, list headers and a
/// Message-ID that looks like a URL.
fn spool() -> String {
    let b64 = "VmlzaXQgaHR0cDovL2I2NC5leGFtcGxlL3BhdGg/eD0xIHRvZGF5Lgo=";
    format!(
        "From a@b Mon Jan  1 00:00:00 1996\n\
         Message-ID: <http://not.a.url/id@x.example>\n\
         List-Unsubscribe: <https://lists.example/unsub?u=1>\n\
         Content-Type: text/plain\n\
         Content-Transfer-Encoding: quoted-printable\n\
         \n\
         See https://qp.example/a?b=3Dc&d=\n\
         =3De&long=3Dsoft-br=\n\
         eak now.\n\
         >From here: http://f.example/\n\
         \n\
         From c@d Tue Jan  2 00:00:00 1996\n\
         Message-ID: <2@x.example>\n\
         MIME-Version: 1.0\n\
         Content-Type: multipart/mixed; boundary=\"XX\"\n\
         \n\
         --XX\n\
         Content-Type: text/plain\n\
         Content-Transfer-Encoding: base64\n\
         \n\
         {b64}\n\
         --XX--\n\
         \n\
         From e@f Wed Jan  3 00:00:00 1996\n\
         Subject: none\n\
         \n\
         no URLs here\n"
    )
}

#[test]
fn mail_decodes_quoted_printable_base64_and_headers() {
    let o = run(&["--mail", "on"], spool().as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "https://lists.example/unsub?u=1\n\
         https://qp.example/a?b=c&d=e&long=soft-break\n\
         http://f.example/\n\
         http://b64.example/path?x=1\n"
    );
    // auto sniffs the same mbox
    assert_eq!(run::<&str>(&[], spool().as_bytes()).stdout, o.stdout);
    let out = stdout(&o);
    assert!(!out.contains("=3D") && !out.contains("not.a.url"), "{out}");
}

#[test]
fn mail_off_is_the_raw_scan() {
    let spool = spool();
    let off = run(&["--mail", "off"], spool.as_bytes());
    // The raw scan: encoded, cut at the soft break, no base64 URL.
    let out = stdout(&off);
    assert!(out.contains("https://qp.example/a?b=3Dc&d=\n"), "{out}");
    assert!(!out.contains("b64.example"), "{out}");
    // ... which is what urlgrep does on text that is not mail.
    let text = spool.replace("From ", "Frum ");
    let auto = run::<&str>(&[], text.as_bytes());
    assert_eq!(auto.stdout, run(&["--mail", "off"], text.as_bytes()).stdout);
    assert!(stdout(&auto).contains("=3D"));
    // --qp-repair repairs raw QP in text that is not mail.
    let fixed = run(&["--qp-repair"], text.as_bytes());
    let out = stdout(&fixed);
    // (Raw repair keeps the `=` of `d=` at a line end: without a MIME
    // header it cannot tell a soft break after `name=` from a value.)
    assert!(out.contains("https://qp.example/a?b=c&d="), "{out}");
    assert!(out.contains("&long=soft-break\n"), "{out}");
    assert!(!out.contains("=3D"), "{out}");
}

/// Mail counts its rejected candidates as raw text does under every
/// flag that reads or picks among them: `-m` (which reads each),
/// `--scheme` and `--kind` (which pick). Before, the mail search handed
/// over no reject then, and its `end` record said `"rejected":0`.
#[test]
fn mail_counts_rejects_as_raw_text_under_m_and_a_selection() {
    let body = "see http:// and http://ok.example/ and http://two.example/\n";
    let mail = format!("From: a@b.example\n\n{body}");
    let counts = |args: &[&str], text: &str| {
        let o = run(args, text.as_bytes());
        let out = stdout(&o);
        let end = out
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|r| r["type"] == "end")
            .unwrap_or_else(|| panic!("no end record: {out}"));
        let n = |k: &str| end[k].as_u64().unwrap_or(u64::MAX);
        (n("candidates"), n("matches"), n("rejected"))
    };
    for flags in [&["-m", "5"][..], &["--scheme", "http"], &["--kind", "bare"]]
    {
        let mut as_mail = vec!["--json", "--mail", "on"];
        as_mail.extend_from_slice(flags);
        let mut as_text = vec!["--json", "--mail", "off"];
        as_text.extend_from_slice(flags);
        let (m, t) = (counts(&as_mail, &mail), counts(&as_text, &mail));
        assert_eq!(m, (3, 2, 1), "{flags:?}");
        assert_eq!(m, t, "{flags:?}");
    }
}

/// `--qp-repair` on text that is not mail reads a stream in windows:
/// a file read whole, the same file searched as a stream (bigger than a
/// slice), stdin and gzip give the same lines, every URL repaired.
#[test]
fn qp_repair_streams_give_what_whole_files_give() {
    let mut text = String::from("Notes pasted from a mail client\n\n");
    let n = 40_000;
    for i in 0..n {
        text.push_str(&format!(
            "item {i}: see http://h{i}.example/lo=\nng/p?a=3D{i}&b=3D2 now\n"
        ));
    }
    assert!(text.len() > 2 << 20);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, &text).unwrap();
    let whole = run(&["-nb", "--qp-repair", p(&file)], b"");
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    let out = stdout(&whole);
    assert_eq!(out.lines().count(), n);
    assert!(
        out.contains("http://h39999.example/long/p?a=39999&b=2"),
        "{out:.300}"
    );
    assert!(!out.contains("=3D"));
    let streamed =
        run(&["-nb", "--qp-repair", "--slice-size=65536", p(&file)], b"");
    let stdin = run(&["-nb", "--qp-repair", "-"], text.as_bytes());
    let gz = run(&["-nb", "--qp-repair", "-"], &gzip(text.as_bytes()));
    for (what, o) in [("sliced", streamed), ("stdin", stdin), ("gzip", gz)] {
        assert_eq!(code(&o), 0, "{what}: {}", stderr(&o));
        // One input: no name before the line and offset.
        assert!(stdout(&o) == out, "{what} differs");
    }
}

#[test]
fn mail_json_records_carry_message_fields() {
    let o = run(&["--json", "--source", "spool"], spool().as_bytes());
    let recs = records(&o);
    let mails: Vec<_> = recs
        .iter()
        .filter_map(|r| match r {
            Rec::Match { mail, url, line, offset, .. } => {
                Some((mail.as_ref().unwrap(), url, *line, *offset))
            }
            _ => None,
        })
        .collect();
    assert_eq!(mails.len(), 4);
    let (m, _, line, _) = &mails[0];
    assert_eq!((m.message, m.part, m.location.as_str()), (0, 0, "header"));
    assert_eq!(*line, 3);
    assert_eq!(
        m.message_id.as_deref(),
        Some("<http://not.a.url/id@x.example>")
    );
    let (m, url, line, offset) = &mails[1];
    assert_eq!(url.as_str(), "https://qp.example/a?b=c&d=e&long=soft-break");
    assert_eq!(
        (m.encoding.as_str(), m.decoded, *line),
        ("quoted-printable", true, 7)
    );
    assert_eq!(&spool()[*offset as usize..][..12], "https://qp.e");
    let (m, _, _, _) = &mails[3];
    assert_eq!((m.message, m.part), (1, 1));
    assert_eq!((m.encoding.as_str(), m.location.as_str()), ("base64", "body"));
    assert_eq!(m.message_id.as_deref(), Some("<2@x.example>"));
    assert_eq!(m.message_offset as usize, spool().find("From c@d").unwrap());
    assert!(recs
        .iter()
        .any(|r| matches!(r, Rec::End { messages: Some(3), matches: 4, .. })));
    assert!(recs
        .iter()
        .any(|r| matches!(r, Rec::Summary { messages: Some(3), .. })));
    // Not mail: no mail fields.
    let o = run(&["--json", "--mail", "off"], spool().as_bytes());
    assert!(records(&o).iter().all(|r| !matches!(
        r,
        Rec::Match { mail: Some(_), .. } | Rec::End { messages: Some(_), .. }
    )));
}

#[test]
fn mail_stats_count_messages() {
    let d = tempfile::tempdir().unwrap();
    let gz = d.path().join("spool.gz");
    std::fs::write(&gz, gzip(spool().as_bytes())).unwrap();
    let o = run(&["--stats", "--json", p(&gz)], b"");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["messages"], 3);
    assert_eq!(v["matches"], 4);
    // one message without URLs, one with 1, one with 3
    assert_eq!(
        v["urls_per_message"],
        serde_json::json!({"0": 1, "1": 1, "2-3": 1})
    );
    assert_eq!(v["encodings"]["base64"], 1);
    assert_eq!(v["locations"]["header"], 1);
    let text = run(&["--stats", p(&gz)], b"");
    assert!(stdout(&text).contains("messages                 3"));
}

#[test]
fn mail_sniffing_leaves_url_lists_alone() {
    let list = "http://a.example/x\nhttp://b.example/y\n";
    let o = run(&["--json"], list.as_bytes());
    assert!(records(&o)
        .iter()
        .all(|r| !matches!(r, Rec::Match { mail: Some(_), .. })));
    // begin, two matches, end, summary
    assert_eq!(records(&o).len(), 5);
}

// 7. Determinism on the corpora

/// Unpacks the regular files of a tarball under ../shared into `dest`,
/// up to about `max_bytes` of them (in archive order).
fn unpack(tarball: &str, dest: &Path, max_bytes: u64) -> bool {
    let Some(path) = support::shared::path(&format!("corpora/{tarball}"))
    else {
        return false;
    };
    let file = std::fs::File::open(&path).unwrap();
    let mut ar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    std::fs::create_dir_all(dest).unwrap();
    let mut total = 0;
    for entry in ar.entries().unwrap() {
        let mut entry = entry.unwrap();
        if entry.header().entry_type() != tar::EntryType::Regular {
            continue;
        }
        total += entry.size();
        if total > max_bytes {
            break;
        }
        assert!(entry.unpack_in(dest).unwrap());
    }
    true
}

/// One file holding every file under `dir`, in sorted order.
fn concatenate(dir: &Path, out: &Path) {
    let mut all = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else if e.file_type().unwrap().is_file() {
                files.push(e.path());
            }
        }
    }
    files.sort();
    for f in files {
        all.extend(std::fs::read(f).unwrap());
    }
    std::fs::write(out, all).unwrap();
}

#[test]
fn corpus_output_is_identical_for_any_threads_and_slices() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("rfc");
    if !unpack("rfc/rfc8400-8499.tar.gz", &corpus, 8 << 20) {
        return;
    }
    let mail = tmp.path().join("mail");
    let spam = "spamassassin/spamassassin-public-corpus.tar.gz";
    if !unpack(spam, &mail, 4 << 20) {
        return;
    }
    let spool = tempfile::tempdir().unwrap();
    let big = spool.path().join("all.txt");
    concatenate(tmp.path(), &big);
    let list = tmp.path().join("list");
    if !unpack("python-dev/python-dev-1999-04_2000-03.tar.gz", &list, 3 << 20)
    {
        return;
    }
    let mbox = spool.path().join("python-dev.mbox");
    concatenate(&list, &mbox);
    // A folder of big files: listed without their sizes, found big by
    // reading, searched in slices all the same.
    let folder = spool.path().to_path_buf();
    for (args, target) in [
        (&["-Hnb", "--rejects"][..], &corpus),
        (&["--json", "--rejects"][..], &mail),
        (&["--json", "--mail", "on"][..], &mail),
        (&["-nb", "--rejects"][..], &big),
        (&["--json"][..], &big),
        (&["--json", "--mail", "on"][..], &mbox),
        (&["-nb", "--mail", "on", "--qp-repair"][..], &mbox),
        (&["-nb", "--json"][..], &folder),
    ] {
        let mut want: Option<Vec<u8>> = None;
        let threads = ["-j1", "-j2", "-j8"];
        let slices = ["--slice-size=65536", "--slice-size=4093"];
        let mut runs: Vec<Vec<&str>> =
            threads.iter().map(|j| vec![*j]).collect();
        if target == &big || target == &mbox || target == &folder {
            runs.extend(slices.iter().map(|s| vec!["-j2", *s]));
        }
        for extra in runs {
            let mut all: Vec<&str> = args.to_vec();
            all.extend(&extra);
            all.push(p(target));
            let o = run(&all, b"");
            assert_eq!(code(&o), 0, "{all:?}: {}", stderr(&o));
            match &want {
                None => {
                    assert!(o.stdout.len() > 10_000, "{all:?}");
                    want = Some(o.stdout);
                }
                Some(w) => assert!(*w == o.stdout, "{all:?} differs"),
            }
        }
    }
}

/// Issue 15: mail whose lines end in a bare CR cannot be framed; it is
/// searched raw under `--mail on` as under `auto` and `off`, from a file
/// and from stdin (it was one `From ` line under `on`: no URL found).
#[test]
fn cr_only_mail_is_searched_raw_whatever_the_mode() {
    let mut text = String::new();
    for i in 0..300 {
        text.push_str(&format!(
            "From a@b Mon Jan  1 00:00:00 1996\rSubject: {i}\r\r\
             see http://h{i}.example/p\r\r"
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("cr.mbox");
    std::fs::write(&f, &text).unwrap();
    let want = run(&["--mail", "off", p(&f)], b"").stdout;
    assert_eq!(want.iter().filter(|&&b| b == b'\n').count(), 300);
    for mode in ["on", "auto"] {
        assert_eq!(run(&["--mail", mode, p(&f)], b"").stdout, want, "{mode}");
        let o = run(&["--mail", mode, "-"], text.as_bytes());
        assert_eq!(o.stdout, want, "{mode} stdin");
    }
}

#[test]
fn mail_news_fields_of_groups_and_servers_are_not_searched() {
    // Issue 34.2: `--find domain` read `sci.space:59848` of `Xref` as a
    // host with a port, and the group names of `Newsgroups` and
    // `Followup-To` and the servers of `Path` as hosts (RFC 5536 §3.1.4,
    // §3.1.5, §3.2.6, §3.2.14). In the body the same text is read as
    // text: `news.example.org` is found, and `sci.space:59848` is not,
    // as any name under a TLD that is also a file extension or a newer
    // gTLD whose `:digits` no path follows (a file and a line, or a group
    // and an article number, not a host and a port).
    let article = b"Path: news.example.org!sci.space!not-for-mail\n\
From: a@b.example\n\
Newsgroups: sci.space,sci.astro\n\
Followup-To: sci.space\n\
Subject: see nasa.gov\n\
Xref: news.example.org sci.space:59848 sci.astro:123\n\
Organization: see www.nasa.gov\n\
\n\
Body: sci.space:59848 and news.example.org\n";
    let o = run(&["--find", "domain,www", "--mail", "on"], article);
    assert_eq!(
        stdout(&o),
        "nasa.gov\nwww.nasa.gov\nnews.example.org\n",
        "{}",
        stderr(&o)
    );
}

/// Issue 34.3: `--rejects` turned mail decoding off, so the URLs found
/// changed (60,411 against 62,678 on SpamAssassin). Now the mail search
/// reports rejects too: the URLs found are the same with and without
/// it (the corpora here, and 8 MiB of SpamAssassin's when `../shared`
/// has it), and the rejects of the mail are listed.
#[test]
fn rejects_keep_the_mail_search() {
    let same = |dir: &Path| -> usize {
        let plain = run(&["-H", "-b", p(dir)], b"");
        let with = run(&["-H", "-b", "--rejects", p(dir)], b"");
        assert_eq!(code(&with), code(&plain), "{}", stderr(&with));
        let with = stdout(&with);
        let (rejects, urls): (Vec<&str>, Vec<&str>) =
            with.lines().partition(|l| l.contains(": reject: "));
        let plain = stdout(&plain);
        let want: Vec<&str> = plain.lines().collect();
        assert!(urls == want, "{}: the URLs differ", dir.display());
        rejects.len()
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/mail");
    for name in ["spamassassin", "python-dev", "blinux-list"] {
        same(&root.join(name));
    }
    // A reject in a decoded part, at the offset of its stored bytes.
    let msg =
        "From: a@b.example\nContent-Transfer-Encoding: quoted-printable\n\n\
               see http://ok.example/ and http://bad.example:99=\n999/ here\n";
    let o = run(&["--rejects", "-b"], msg.as_bytes());
    let at = msg.find("http://bad").unwrap();
    let want = format!("{at}: reject: bad-port: http://bad.example:99999/");
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines, ["67:http://ok.example/".to_string(), want]);
    let tmp = tempfile::tempdir().unwrap();
    let spam = "spamassassin/spamassassin-public-corpus.tar.gz";
    if unpack(spam, tmp.path(), 8 << 20) {
        let rejects = same(tmp.path());
        assert!(rejects > 0, "no rejects in SpamAssassin's mail");
    }
}
