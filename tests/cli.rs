//! Integration tests of the `urlgrep` binary.
//!
//! Table of contents:
//!
//! 1. Exit status and errors: `exit_status_*`, `unreadable_*`,
//!    `truncated_gzip_*`, `broken_pipe_*`, `write_errors_*` (a full,
//!    read-only or closed stdout).
//! 2. Inputs: `stdin_*`, `files_from_*`, `folder_*`, `symlink_*`,
//!    `compressed_copies_*`.
//! 3. Plain output: `filename_*`, `prefixes_*`, `unique_*`, `count_*`,
//!    `filters_*`, `rejects_*`, `redact_*`, `find_*` (issue 19).
//! 4. JSON Lines: `json_*` (records deserialised with unknown fields
//!    denied).
//!
//! Statistics (`stats_*`, `merge_*`) are in `tests/cli_stats.rs`.
//! Mail (`mail_*`) and the determinism on the corpora of
//! `../shared/corpora` (`corpus_*`) are in `tests/cli_mail.rs`; the flags
//! of issue 16 in `tests/cli_names.rs`, `cli_walk.rs` and `cli_flags.rs`.
//!
//! Regressions are named after what they reproduce.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

#[path = "support/records.rs"]
mod records;

mod support;

use support::{code, p, run, sample_dir, stderr, stdout, BIN, SAMPLE};

// 1. Exit status and errors

#[test]
fn exit_status_found_none_error() {
    let (_d, f) = sample_dir();
    assert_eq!(code(&run(&[p(&f)], b"")), 0);
    assert_eq!(code(&run::<&str>(&[], b"no urls here\n")), 1);
    let o = run(&["/nonexistent/x"], b"");
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "urlgrep: /nonexistent/x: No such file or directory (os error 2)\n"
    );
    // an error wins over found
    assert_eq!(code(&run(&[p(&f), "/nonexistent/x"], b"")), 2);
    // a usage error is an error
    assert_eq!(code(&run(&["--kind", "nope", p(&f)], b"")), 2);
}

#[test]
fn unreadable_file_among_readable_ones() {
    let (d, f) = sample_dir();
    let g = d.path().join("z.txt");
    std::fs::write(&g, "http://z.example/\n").unwrap();
    // Open succeeds, read fails (EIO): urlgrep's own memory at offset 0.
    let mem = "/proc/self/mem";
    let o = run(&["-j2", p(&f), mem, p(&g)], b"");
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with(&format!("{}:http://a.example/x\n", p(&f))));
    assert!(out.ends_with(&format!("{}:http://z.example/\n", p(&g))));
    assert!(stderr(&o).starts_with("urlgrep: /proc/self/mem: "));
}

#[test]
fn unreadable_permission_denied_is_reported() {
    let (d, f) = sample_dir();
    let locked = d.path().join("locked.txt");
    std::fs::write(&locked, "http://l.example/\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000))
        .unwrap();
    if std::fs::File::open(&locked).is_ok() {
        eprintln!("skipped: running as root, permissions are not enforced");
        return;
    }
    let o = run(&[p(&f), p(&locked)], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("Permission denied"), "{}", stderr(&o));
    assert!(stdout(&o).contains("http://a.example/x"));
}

#[test]
fn truncated_gzip_reports_offset_and_keeps_matches() {
    let dir = tempfile::tempdir().unwrap();
    let text = "http://t.example/a\n".repeat(5000);
    let gz = gzip(text.as_bytes());
    let cut = dir.path().join("cut.gz");
    std::fs::write(&cut, &gz[..gz.len() / 2]).unwrap();
    let o = run(&[p(&cut)], b"");
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    let prefix = format!("urlgrep: {}: offset ", p(&cut));
    assert!(err.starts_with(&prefix), "{err}");
    let n = stdout(&o).lines().count();
    assert!(n > 100 && n < 5000, "{n} matches kept");
}

#[test]
fn broken_pipe_exits_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("many.txt");
    std::fs::write(&f, "http://p.example/x\n".repeat(200_000)).unwrap();
    let mut child = Command::new(BIN)
        .arg(p(&f))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    out.read_exact(&mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0);
    assert_eq!(stderr(&o), "");
}

/// Issue 20 (E1): a run that cannot write its results says so and exits
/// 2, as grep does: a full device (ENOSPC), a stdout open only for
/// reading (EBADF); `--help` and `--version` too.
#[cfg(unix)]
#[test]
fn write_errors_exit_2_with_a_message() {
    let (_d, f) = sample_dir();
    let with_stdout = |args: &[&str], out: Stdio| {
        Command::new(BIN)
            .args(args)
            .env_remove("CI")
            .stdout(out)
            .stderr(Stdio::piped())
            .output()
            .unwrap()
    };
    let full = || Stdio::from(std::fs::File::create("/dev/full").unwrap());
    let read_only = || Stdio::from(std::fs::File::open(&f).unwrap());
    let cases: [&[&str]; 6] = [
        &[p(&f)],
        &["--json", p(&f)],
        &["--stats", p(&f)],
        &["--help"],
        &["-V"],
        &["--generate", "man"],
    ];
    for args in cases {
        for (what, o) in [
            ("ENOSPC", with_stdout(args, full())),
            ("EBADF", with_stdout(args, read_only())),
        ] {
            assert_eq!(code(&o), 2, "{args:?} {what}");
            assert!(
                stderr(&o).starts_with("urlgrep: write error: "),
                "{args:?} {what}: {}",
                stderr(&o)
            );
        }
    }
    // `>/dev/null` is no error, nor a read-write `/dev/null` (Python's
    // `subprocess.DEVNULL`, systemd's `StandardOutput=null`; also what the
    // Rust runtime opens on a stdout the shell closed with `>&-`, which
    // `write_errors_closed_stdout_exits_2` tells apart).
    for null in [
        std::fs::File::create("/dev/null").unwrap(),
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .unwrap(),
    ] {
        let o = with_stdout(&[p(&f)], Stdio::from(null));
        assert_eq!((code(&o), stderr(&o).as_str()), (0, ""));
    }
}

/// A stdout the shell closed (`>&-`) is a write error as for grep (exit 2,
/// "write error") when something is written, and no error when nothing
/// is; the Rust runtime reopens fd 1 on `/dev/null` before `main`, so
/// this passes only because fd 1 is looked at before it does.
#[cfg(target_os = "linux")]
#[test]
fn write_errors_closed_stdout_exits_2() {
    let (d, f) = sample_dir();
    let empty = d.path().join("empty.txt");
    std::fs::write(&empty, "no address here\n").unwrap();
    let closed = |args: &[&str]| {
        Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" >&-")
            .arg(BIN)
            .args(args)
            .env_remove("CI")
            .stderr(Stdio::piped())
            .output()
            .unwrap()
    };
    let cases: [&[&str]; 5] = [
        &[p(&f)],
        &["--stats", p(&f)],
        &["--help"],
        &["-V"],
        &["--generate", "man"],
    ];
    for args in cases {
        let o = closed(args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(
            stderr(&o),
            "urlgrep: write error: Bad file descriptor (os error 9)\n",
            "{args:?}"
        );
    }
    let o = closed(&[p(&empty)]);
    assert_eq!((code(&o), stderr(&o).as_str()), (1, ""));
}

// 2. Inputs

#[test]
fn stdin_is_labelled_with_source() {
    let o = run(&["-H", "--source", "feed.txt"], SAMPLE.as_bytes());
    assert!(stdout(&o).starts_with("feed.txt:http://a.example/x\n"));
    let o = run(&["-H", "-"], b"http://s.example/\n");
    assert_eq!(stdout(&o), "<stdin>:http://s.example/\n");
}

#[test]
fn files_from_list_and_stdin() {
    let (d, f) = sample_dir();
    let g = d.path().join("g.txt");
    std::fs::write(&g, "http://g.example/\n").unwrap();
    let list = format!("{}\n\n{}\n", p(&g), p(&f));
    let o = run(&["--files-from", "-"], list.as_bytes());
    let out = stdout(&o);
    assert!(out.starts_with(&format!("{}:http://g.example/\n", p(&g))));
    assert!(out.contains(&format!("{}:http://a.example/x\n", p(&f))));
}

#[test]
fn folder_walk_is_sorted_and_recursive() {
    let dir = tempfile::tempdir().unwrap();
    for (name, host) in [("b/2", "b2"), ("a", "a"), ("b/1", "b1"), ("c", "c")]
    {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, format!("http://{host}.example/\n")).unwrap();
    }
    let o = run(&["--no-filename", p(dir.path())], b"");
    assert_eq!(
        stdout(&o),
        "http://a.example/\nhttp://b1.example/\nhttp://b2.example/\n\
         http://c.example/\n"
    );
}

#[test]
fn symlinks_in_folders_followed_only_with_follow() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("o"), "http://o.example/\n").unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    std::fs::write(dir.path().join("d/f"), "http://f.example/\n").unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join("d/link"))
        .unwrap();
    // a loop: only a problem when following
    std::os::unix::fs::symlink(dir.path(), dir.path().join("d/loop")).unwrap();
    let o = run(&["--no-filename", p(dir.path())], b"");
    assert_eq!(stdout(&o), "http://f.example/\n");
    assert_eq!(code(&o), 0);
    let o = run(&["--no-filename", "-L", p(dir.path())], b"");
    assert!(stdout(&o).contains("http://o.example/"), "{}", stdout(&o));
    assert!(stderr(&o).contains("loop"), "{}", stderr(&o));
    assert_eq!(code(&o), 2);
}

#[test]
fn fifo_in_folder_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), "http://a.example/\n").unwrap();
    let fifo = dir.path().join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo not available");
        return;
    }
    let o = run(&["--no-filename", p(dir.path())], b"");
    assert_eq!(stdout(&o), "http://a.example/\n");
    assert_eq!(code(&o), 0);
}

/// The same bytes in every compressed form urlgrep reads.
fn compressed_forms(data: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let half = data.len() / 2;
    let mut multi = gzip(&data[..half]);
    multi.extend(gzip(&data[half..]));
    let bz = {
        let mut e = bzip2::write::BzEncoder::new(
            Vec::new(),
            bzip2::Compression::fast(),
        );
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let xz = {
        let mut e = xz2::write::XzEncoder::new(Vec::new(), 1);
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let zst = zstd::stream::encode_all(data, 1).unwrap();
    vec![
        ("gz", gzip(data)),
        ("multi.gz", multi),
        ("bz2", bz),
        ("xz", xz),
        ("zst", zst),
    ]
}

#[test]
fn compressed_copies_give_the_same_matches() {
    let dir = tempfile::tempdir().unwrap();
    let text = SAMPLE.repeat(300);
    let plain = dir.path().join("plain");
    std::fs::write(&plain, &text).unwrap();
    let want = run(&["-nb", "--rejects", p(&plain)], b"");
    assert_eq!(stdout(&want).lines().count(), 300 * 6);
    for (ext, bytes) in compressed_forms(text.as_bytes()) {
        // a name that does not say it is compressed: magic bytes decide
        let f = dir.path().join(format!("copy-{ext}.txt"));
        std::fs::write(&f, &bytes).unwrap();
        let got = run(&["-nb", "--rejects", p(&f)], b"");
        assert_eq!(stdout(&got), stdout(&want), "{ext}");
        assert_eq!(code(&got), 0, "{ext}: {}", stderr(&got));
        // and through stdin
        let got = run(&["-nb", "--rejects"], &bytes);
        assert_eq!(stdout(&got), stdout(&want), "{ext} on stdin");
    }
}

// 3. Plain output

#[test]
fn filename_shown_for_several_files_or_a_folder() {
    let (d, f) = sample_dir();
    let one = stdout(&run(&[p(&f)], b""));
    assert!(one.starts_with("http://a.example/x\n"));
    let two = stdout(&run(&[p(&f), p(&f)], b""));
    assert!(two.starts_with(&format!("{}:http://", p(&f))));
    let dir = stdout(&run(&[p(d.path())], b""));
    assert!(dir.starts_with(&format!("{}:http://", p(&f))));
    let none = stdout(&run(&["--no-filename", p(&f), p(&f)], b""));
    assert!(none.starts_with("http://a.example/x\n"));
}

#[test]
fn prefixes_line_and_byte_offset() {
    let o = run(&["-Hnb"], SAMPLE.as_bytes());
    let out = stdout(&o);
    let first: Vec<&str> = out.lines().take(2).collect();
    assert_eq!(
        first,
        [
            "<stdin>:2:38:http://a.example/x",
            "<stdin>:2:62:ftp://ds.internic.net/rfc/"
        ]
    );
    assert_eq!(&SAMPLE[62..67], "<URL:");
}

#[test]
fn unique_prints_each_url_once() {
    let o = run(&["-u"], SAMPLE.as_bytes());
    let out = stdout(&o);
    assert_eq!(out.matches("http://a.example/x\n").count(), 1);
    assert_eq!(out.lines().count(), 4);
}

#[test]
fn count_per_file_like_grep() {
    let (d, f) = sample_dir();
    let empty = d.path().join("empty");
    std::fs::write(&empty, "").unwrap();
    let o = run(&["-c", p(&f), p(&empty)], b"");
    assert_eq!(stdout(&o), format!("{}:5\n{}:0\n", p(&f), p(&empty)));
    assert_eq!(stdout(&run(&["-c", "-u"], SAMPLE.as_bytes())), "4\n");
}

#[test]
fn filters_by_kind_and_scheme() {
    let kinds = run(&["--kind", "wrapped,angle"], SAMPLE.as_bytes());
    assert_eq!(
        stdout(&kinds),
        "ftp://ds.internic.net/rfc/\nmailto:me@m.example\n"
    );
    let schemes =
        run(&["--scheme", "HTTPS", "--scheme", "ftp"], SAMPLE.as_bytes());
    assert_eq!(
        stdout(&schemes),
        "ftp://ds.internic.net/rfc/\nhttps://q.example/y\n"
    );
    let none = run(&["--scheme", "gopher"], SAMPLE.as_bytes());
    assert_eq!(code(&none), 1);
}

/// Issue 19: the first try of a new user, and the opt-in detectors.
#[test]
fn find_scheme_less_only_when_asked() {
    let text = b"see www.example.com/page and bob@example.com, python.org.\n";
    let o = run::<&str>(&[], text);
    assert_eq!((code(&o), stdout(&o)), (1, String::new()));
    let o = run(&["--find", "all"], text);
    assert_eq!(
        stdout(&o),
        "www.example.com/page\nbob@example.com\npython.org\n"
    );
    let o = run(&["--find", "email,www", "--kind", "www"], text);
    assert_eq!(stdout(&o), "www.example.com/page\n");
    let o = run(&["--find", "domain", "--json"], b"see python.org/x\n");
    let recs = records(&o);
    let Rec::Match { kind, url, scheme, host, .. } = &recs[1] else {
        panic!("{:?}", recs[1])
    };
    assert_eq!(
        (kind.as_str(), url.as_str(), scheme.as_str(), host.as_deref()),
        ("domain", "python.org/x", "http", Some("python.org"))
    );
    let o = run(&["--find", "email", "--json"], b"a bob@Example.com\n");
    let Rec::Match { scheme, host, .. } = &records(&o)[1] else {
        panic!("{}", stdout(&o))
    };
    assert_eq!(
        (scheme.as_str(), host.as_deref()),
        ("mailto", Some("example.com"))
    );
    // RFC 3986 §4.2 network-path references: their own detector
    let o = run(&["--find", "network-path", "--json"], b"(//cdn.example/a)\n");
    // `example` is no TLD
    assert!(!stdout(&o).contains(r#""match""#), "{}", stdout(&o));
    let text = b"get //cdn.example.com/a.js or http://b.example.org/\n";
    let o = run(&["--find", "network-path", "--json"], text);
    let Rec::Match { kind, url, scheme, host, .. } = &records(&o)[1] else {
        panic!("{}", stdout(&o))
    };
    assert_eq!(
        (kind.as_str(), url.as_str(), scheme.as_str(), host.as_deref()),
        (
            "network-path",
            "//cdn.example.com/a.js",
            "http",
            Some("cdn.example.com")
        )
    );
    let o = run(&["--find", "all", "--kind", "network-path"], text);
    assert_eq!(stdout(&o), "//cdn.example.com/a.js\n");
    let o = run::<&str>(&[], text);
    assert_eq!(stdout(&o), "http://b.example.org/\n");
    let o = run(&["--find", "ftp"], text);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--find \"ftp\""), "{}", stderr(&o));
}

#[test]
fn rejects_show_offset_and_reason() {
    let o = run(&["--rejects", "--kind", "bare"], SAMPLE.as_bytes());
    let at = SAMPLE.find("http://b.example").unwrap();
    let line = format!("{at}: reject: bad-port: http://b.example:99999/");
    assert!(stdout(&o).lines().any(|l| l == line), "{}", stdout(&o));
    let o = run(&["--rejects", "-H", "-n"], SAMPLE.as_bytes());
    let line = format!("<stdin>:5:{at}: reject: bad-port: ");
    assert!(stdout(&o).contains(&line), "{}", stdout(&o));
}

/// Issue 7, output safety: a rejected candidate's raw 8-bit bytes (0x9B
/// is CSI on an 8-bit terminal) and C1 controls come out percent-encoded.
#[test]
fn rejects_never_print_terminal_controls() {
    let text = b"<URL:http://a\xff\x9bb/> <URL:http://c\xc2\x9bd/>\n";
    let o = run(&["--rejects", "--mail", "off"], text);
    let out = o.stdout.clone();
    assert!(!out.iter().any(|&b| b == 0x9b || b == 0xff), "{out:?}");
    let s = stdout(&o);
    assert!(s.contains("reject: bad-character: http://a%FF%9Bb/"), "{s}");
    assert!(s.contains("http://c%C2%9Bd/"), "{s}");
}

/// Issue 20 (U3): a right-to-left override makes `…/\u{202E}gpj.exe`
/// read `…/exe.jpg`. RFC 3987 §4.1 forbids bidi formatting characters in
/// IRIs: in every delimited form and in every component the candidate is
/// rejected as `bidi-control`, and `--rejects` shows the control escaped.
#[test]
fn bidi_controls_rejected_in_every_url_form() {
    let forms = [
        "<http://a.example/\u{202E}gpj.exe>",
        "<URL:http://a.example/x\u{202E}y>",
        "\"http://a.example/\u{202E}y\"",
        "<http://ex\u{202E}ample.com/>",
        "<http://a.example/?q=\u{2066}x>",
        "<http://a.example/#\u{200F}x>",
        "<mailto:ceo@ex\u{202E}ample.com>",
        "http://a.example/\u{061C}x",
    ];
    for form in forms {
        let text = format!("see {form} now\n");
        let o = run(&["--mail", "off"], text.as_bytes());
        assert_eq!(code(&o), 1, "{form}: {}", stdout(&o));
        let o = run(&["--rejects", "--mail", "off"], text.as_bytes());
        let s = stdout(&o);
        assert!(s.contains(" reject: bidi-control: "), "{form}: {s}");
        assert!(s.is_ascii(), "{form}: {s}");
        assert!(
            s.contains("%E2%80%")
                || s.contains("%E2%81%A6")
                || s.contains("%D8%9C"),
            "{form}: {s}"
        );
    }
    // The same override written as an HTML reference in a mail body.
    let mail = "From a@b Mon Jan  1 00:00:00 2024\n\
        Content-Type: text/html\n\n\
        <a href=\"http://a.example/&#x202E;gpj.exe\">x</a>\n";
    let o = run(&["--mail", "on"], mail.as_bytes());
    assert!(!stdout(&o).contains('\u{202E}'), "{}", stdout(&o));
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    // Nor does its host reach the statistics.
    let o = run(
        &["--stats-tsv", "--mail", "off"],
        "<mailto:ceo@ex\u{202E}ample.com>\n".as_bytes(),
    );
    let s = stdout(&o);
    assert!(s.contains("reject\tbidi-control\t1"), "{s}");
    assert!(!s.contains("host\t"), "{s}");
}

#[test]
fn redact_hides_passwords() {
    let text =
        b"ftp://anon:secret@f.example/pub <URL:telnet://u:pw@t.example>";
    let o = run(&["--redact"], text);
    assert_eq!(
        stdout(&o),
        "ftp://anon:***@f.example/pub\ntelnet://u:***@t.example\n"
    );
    let o = run(&["--redact", "--json"], text);
    assert!(!stdout(&o).contains("secret"));
}

// 4. JSON Lines

use records::{gzip, records, Rec};

#[test]
fn json_envelope_deserialises_with_unknown_fields_denied() {
    let (_d, f) = sample_dir();
    let o = run(&["--json", "--rejects", p(&f), "/nonexistent/y"], b"");
    let recs = records(&o);
    assert!(matches!(
        &recs[0],
        Rec::Begin { path: Some(_), source: None, .. }
    ));
    let Rec::Match { offset, line, column, kind, url, host, flags, .. } =
        &recs[2]
    else {
        panic!("{:?}", recs[2])
    };
    assert_eq!((*offset, *line, *column), (62, 2, 29));
    assert_eq!(
        (kind.as_str(), url.as_str()),
        ("wrapped", "ftp://ds.internic.net/rfc/")
    );
    assert_eq!(host.as_deref(), Some("ds.internic.net"));
    assert_eq!(flags, &["joined"]);
    assert!(recs.iter().any(
        |r| matches!(r, Rec::Reject { reason, .. } if reason == "bad-port")
    ));
    let n = recs.len();
    assert!(matches!(
        &recs[n - 3],
        Rec::End { matches: 5, rejected: 1, candidates: 6, .. }
    ));
    assert!(matches!(&recs[n - 2], Rec::Error { .. }));
    assert!(matches!(&recs[n - 1], Rec::Summary { files: 1, errors: 1, .. }));
    assert_eq!(code(&o), 2);
}

#[test]
fn json_stdin_uses_source_and_escapes_non_utf8() {
    let o = run(
        &["--json", "--rejects", "--source", "in"],
        b"<URL:http://e.example/caf\xe9> http://ok.example/\n",
    );
    let recs = records(&o);
    assert!(matches!(
        &recs[0],
        Rec::Begin { path: Some(p), source: Some(s), .. }
            if p == "-" && s == "in"
    ));
    assert!(matches!(
        &recs[2],
        Rec::Match { url, flags, path: Some(p), source: Some(_), .. }
            if url == "http://ok.example/" && flags.is_empty() && p == "-"
    ));
    // Whether the validator takes it or not, the bytes come out escaped.
    match &recs[1] {
        Rec::Match { url, flags, .. } => {
            assert_eq!(url, "http://e.example/caf%E9");
            assert_eq!(flags, &["escaped"]);
        }
        Rec::Reject { url, .. } => assert_eq!(url, "http://e.example/caf%E9"),
        other => panic!("{other:?}"),
    }
}

/// Issue 20 (U1, U2): hostile file names. Each name holds one unsafe
/// character (ESC with an OSC title sequence, BEL, newline, a C1 CSI, a
/// right-to-left override, a byte that is not UTF-8, and `%`); in plain,
/// `-c`, JSON and stderr output none reaches the reader raw, the plain
/// name unescapes to the file's bytes, and JSON names reopen the file.
#[cfg(unix)]
#[test]
fn hostile_file_names_are_escaped_everywhere() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    use urlgrep::output::escape::unescape;
    let dir = tempfile::tempdir().unwrap();
    let names: [&[u8]; 7] = [
        b"e\x1b]0;pwned\x07\nforged.txt:mailto:ceo@evil.example",
        b"c1\xc2\x9b31m.txt",
        "rlo\u{202e}gpj.exe".as_bytes(),
        "iso\u{2066}x\u{200f}.txt".as_bytes(),
        b"caf\xe9.txt",
        b"caf%E9.txt",
        b"tab\tcr\r.txt",
    ];
    for n in names {
        std::fs::write(
            dir.path().join(OsStr::from_bytes(n)),
            "http://a.example/\n",
        )
        .unwrap();
    }
    let d = p(dir.path());
    // No byte of a C0 or C1 control, DEL or a bidi control, and UTF-8.
    let clean = |out: &[u8], what: &str| {
        let s = std::str::from_utf8(out)
            .unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
        for line in s.lines() {
            assert!(
                !line.chars().any(urlgrep::output::escape::is_unsafe),
                "{what}: {line:?}"
            );
        }
    };
    let plain = run(&[d], b"");
    clean(&plain.stdout, "plain");
    let text = stdout(&plain);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), names.len(), "{lines:?}");
    let mut got: Vec<Vec<u8>> = lines
        .iter()
        .map(|l| {
            let name = l.strip_suffix(":http://a.example/").unwrap();
            let path = unescape(name.as_bytes());
            assert!(Path::new(OsStr::from_bytes(&path)).is_file(), "{l}");
            path
        })
        .collect();
    let mut want: Vec<Vec<u8>> = names
        .iter()
        .map(|n| {
            dir.path()
                .join(OsStr::from_bytes(n))
                .as_os_str()
                .as_bytes()
                .to_vec()
        })
        .collect();
    got.sort();
    want.sort();
    assert_eq!(got, want);
    // The two café files stay distinct.
    assert!(
        stdout(&plain).contains("caf%E9.txt:")
            && stdout(&plain).contains("caf%25E9.txt:")
    );
    let count = run(&["-c", d], b"");
    clean(&count.stdout, "-c");
    assert_eq!(stdout(&count).lines().count(), names.len());
    let json = run(&["--json", d], b"");
    clean(&json.stdout, "json");
    let mut reopened = 0;
    for rec in records(&json) {
        if let Rec::Begin { path: Some(path), path_escaped, .. } = rec {
            let bytes = if path_escaped {
                unescape(path.as_bytes())
            } else {
                path.into_bytes()
            };
            let f = Path::new(OsStr::from_bytes(&bytes));
            assert!(f.is_file(), "{f:?}");
            reopened += 1;
        }
    }
    assert_eq!(reopened, names.len());
    // stderr: a missing file with a hostile name, and an error message.
    let missing =
        dir.path().join(OsStr::from_bytes(b"gone\x1b[2J\n\xc2\x9b.txt"));
    let o = Command::new(BIN).arg(&missing).env_remove("CI").output().unwrap();
    assert_eq!(code(&o), 2);
    clean(&o.stderr, "stderr");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("gone%1B[2J%0A%C2%9B.txt: "),
        "{}",
        stderr(&o)
    );
    // A hostile --source label.
    let o = run(
        &["-H", "--source", "in\x1b]0;x\x07\u{202e}"],
        b"http://a.example/\n",
    );
    assert_eq!(stdout(&o), "in%1B]0;x%07%E2%80%AE:http://a.example/\n");
}
