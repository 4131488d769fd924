//! The habits of grep, ripgrep and urlscan users (issue 34): `-q`, `-s`,
//! `-i`, `--files`, host lists as published, `--color`, `--line`.

mod support;

use std::io::Write;
use std::path::Path;
use support::{code, run, run_in, spawn_in, stderr, stdout};

const TWO: &[u8] = b"a http://a.example/X\nb http://b.example/y\n";

#[test]
fn quiet_prints_nothing_and_says_found() {
    let o = run(&["-q"], TWO);
    assert_eq!((stdout(&o).as_str(), stderr(&o).as_str()), ("", ""));
    assert_eq!(code(&o), 0);
    let o = run(&["--quiet"], b"no url here\n");
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 1));
    // Selection applies: nothing selected is "none".
    let o = run(&["-q", "--host", "c.example"], TWO);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 1));
    // A flag that prints is refused beside it (it would have no effect).
    for flag in ["-c", "--json", "-l", "--stats", "--files"] {
        let o = run(&["-q", flag], TWO);
        assert_eq!(code(&o), 2, "{flag}");
        assert!(stderr(&o).contains("cannot be used"), "{}", stderr(&o));
    }
}

#[test]
fn quiet_found_wins_over_an_error() {
    // grep: "if -q is used and a line is selected, the exit status is 0
    // even if an error occurred"; the message is still printed.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), TWO).unwrap();
    let o = run_in(dir.path(), &["-q", "missing", "a.txt"], b"");
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("urlgrep: missing: "), "{}", stderr(&o));
    let o = run_in(dir.path(), &["-q", "a.txt", "missing"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run_in(dir.path(), &["-q", "missing"], b"");
    assert_eq!(code(&o), 2);
}

/// `-q`, `-l` and `--files-without-match` stop reading at the first URL
/// (grep: "scanning of each input stops upon first match"): an input of
/// 512 MiB is given on a pipe, and the writer is cut off (EPIPE) long
/// before its end. Without the stop, urlgrep would read every byte and
/// the writer would finish. Output and exit as for one line of it.
#[test]
fn quiet_and_file_lists_stop_at_the_first_url() {
    let line = b"see http://a.example/ and more text\n";
    for flag in ["-q", "-l", "--files-without-match"] {
        let short = run(&[flag, "-"], line);
        let mut child = spawn_in(Path::new("."), &[flag, "-"]);
        let mut input = child.stdin.take().unwrap();
        let feeder = std::thread::spawn(move || {
            let chunk = line.repeat(29_000);
            let mut sent = 0u64;
            while sent < 512 << 20 {
                if input.write_all(&chunk).is_err() {
                    break;
                }
                sent += chunk.len() as u64;
            }
            sent
        });
        let out = child.wait_with_output().unwrap();
        let sent = feeder.join().unwrap();
        assert_eq!(code(&out), code(&short), "{flag}");
        assert_eq!(out.stdout, short.stdout, "{flag}");
        assert!(sent < 64 << 20, "{flag}: {sent} bytes were read");
    }
}

#[test]
fn no_messages_hides_unreadable_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), TWO).unwrap();
    let o = run_in(dir.path(), &["-s", "missing", "a.txt"], b"");
    assert_eq!(stderr(&o), "");
    assert_eq!(
        stdout(&o),
        "a.txt:http://a.example/X\na.txt:http://b.example/y\n"
    );
    // grep -s: the status still says an error happened.
    assert_eq!(code(&o), 2);
    let o = run_in(dir.path(), &["--no-messages", "missing"], b"");
    assert_eq!((stderr(&o).as_str(), code(&o)), ("", 2));
    // Without -s the message is there.
    let o = run_in(dir.path(), &["missing"], b"");
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
}

#[test]
fn ignore_case_for_patterns() {
    let o = run(&["-e", "A\\.EXAMPLE/x"], TWO);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 1));
    let o = run(&["-i", "-e", "A\\.EXAMPLE/x"], TWO);
    assert_eq!(stdout(&o), "http://a.example/X\n");
    let o = run(&["--ignore-case", "--exclude-regexp", "/X"], TWO);
    assert_eq!(stdout(&o), "http://b.example/y\n");
    // Without a pattern, -i would do nothing: refused (issue 34.11's rule).
    let o = run(&["-i"], TWO);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 2));
    assert!(
        stderr(&o).contains("without -e or --exclude-regexp"),
        "{}",
        stderr(&o)
    );
    // Without -i, case counts in an exclusion too.
    let o = run(&["--exclude-regexp", "/x"], TWO);
    assert_eq!(stdout(&o), "http://a.example/X\nhttp://b.example/y\n");
}

#[test]
fn files_lists_the_walk() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("top/sub")).unwrap();
    std::fs::write(d.join("top/b.txt"), TWO).unwrap();
    std::fs::write(d.join("top/a.mbox"), TWO).unwrap();
    std::fs::write(d.join("top/sub/c.log"), b"no url\n").unwrap();
    std::fs::write(d.join("top/skip.bin"), b"x\0y").unwrap();
    std::fs::write(d.join("top/odd\x1bname"), b"").unwrap();
    let o = run_in(d, &["--files", "top"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // The walk's sorted order; no file is read; a name is escaped.
    assert_eq!(
        stdout(&o),
        "top/a.mbox\ntop/b.txt\ntop/odd%1Bname\ntop/skip.bin\ntop/sub/c.log\n"
    );
    // The walk's choices hold: globs, depth.
    let o = run_in(d, &["--files", "-g", "*.txt", "top"], b"");
    assert_eq!(stdout(&o), "top/b.txt\n");
    let o = run_in(d, &["--files", "--max-depth", "1", "top"], b"");
    assert!(!stdout(&o).contains("c.log"), "{}", stdout(&o));
    let o = run_in(d, &["--files", "-0", "top/sub"], b"");
    assert_eq!(o.stdout, b"top/sub/c.log\0");
    // Nothing listed: 1; an error: 2, said unless -s.
    std::fs::create_dir(d.join("empty")).unwrap();
    let o = run_in(d, &["--files", "empty"], b"");
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 1));
    let o = run_in(d, &["--files", "missing", "top/b.txt"], b"");
    assert_eq!((stdout(&o).as_str(), code(&o)), ("top/b.txt\n", 2));
    assert!(stderr(&o).starts_with("urlgrep: missing: "), "{}", stderr(&o));
    let o = run_in(d, &["--files", "-s", "missing"], b"");
    assert_eq!((stderr(&o).as_str(), code(&o)), ("", 2));
}

const HOSTS: &[u8] = b"http://ads.example/ http://x.tracker.example/a \
http://t.example/ http://localhost/ http://0.0.0.0/ http://ok.example/\n";

#[test]
fn host_lists_as_published() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // StevenBlack's hosts file opens with the local names.
    std::fs::write(
        d.join("hosts"),
        "# Title: a hosts file\n127.0.0.1 localhost\n\
         255.255.255.255 broadcasthost\n::1 ip6-localhost\n\
         fe80::1%lo0 localhost\n0.0.0.0 0.0.0.0\n\n\
         0.0.0.0 ads.example # comment\n127.0.0.1\tTracker.example\n",
    )
    .unwrap();
    let o = run_in(d, &["--host-file", "hosts"], HOSTS);
    assert_eq!(stderr(&o), "");
    assert_eq!(
        stdout(&o),
        "http://ads.example/\nhttp://x.tracker.example/a\n"
    );
    let o = run_in(d, &["--exclude-host-file", "hosts"], HOSTS);
    assert_eq!(
        stdout(&o),
        "http://t.example/\nhttp://localhost/\nhttp://0.0.0.0/\nhttp://ok.example/\n"
    );
    // Adblock host rules ($options ignored) and wildcard lines.
    std::fs::write(
        d.join("adblock"),
        "[Adblock Plus 2.0]\n! Title: rules\n||ads.example^\n\
         ||t.example^$third-party\n*.tracker.example\n",
    )
    .unwrap();
    let o = run_in(d, &["--host-file", "adblock"], HOSTS);
    assert_eq!(stderr(&o), "");
    assert_eq!(
        stdout(&o),
        "http://ads.example/\nhttp://x.tracker.example/a\nhttp://t.example/\n"
    );
}

#[test]
fn host_list_bad_lines_all_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut list = String::from("ok.example\n");
    for i in 0..23 {
        list.push_str(&format!("bad line {i}\n"));
    }
    std::fs::write(dir.path().join("list"), list).unwrap();
    let o = run_in(dir.path(), &["--host-file", "list"], HOSTS);
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 2));
    let e = stderr(&o);
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines.len(), 21, "{e}");
    assert_eq!(
        lines[0],
        "urlgrep: --host-file: list:2: \"bad line 0\" is not a domain: \
         ' ' is not allowed in a host name"
    );
    assert!(lines[19].starts_with("urlgrep: --host-file: list:21: "), "{e}");
    assert_eq!(
        lines[20],
        "urlgrep: --host-file: list: 23 lines are not domains (3 more not shown)"
    );
}

/// Issue 33.13 and 33.16 (host half): a line of 10 MiB is no domain; it
/// is read without being kept, and the message says its length instead
/// of quoting it (before: the whole line, 10 MiB, went to stderr).
#[test]
fn host_list_long_line_is_not_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let mut list = b"ok.example\n".to_vec();
    list.extend(vec![b'a'; 10 << 20]);
    list.extend_from_slice(b"\nb.example\n");
    std::fs::write(dir.path().join("list"), list).unwrap();
    let o = run_in(dir.path(), &["--host-file", "list"], HOSTS);
    assert_eq!(code(&o), 2);
    assert_eq!(
        stderr(&o),
        "urlgrep: --host-file: list:2: a line of 10485760 bytes is not a \
         domain (at most 253 bytes; the line is not kept)\n"
    );
}

#[test]
fn color_names_lines_and_urls() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a\x1bb.txt"), TWO).unwrap();
    let o = run_in(d, &["--color", "always", "-Hn", "a\x1bb.txt"], b"");
    // The name is escaped first; the only ESC bytes are the colours'.
    assert_eq!(
        stdout(&o),
        "\x1b[35ma%1Bb.txt\x1b[0m:\x1b[32m1\x1b[0m:\x1b[1;31mhttp://a.example/X\x1b[0m\n\
         \x1b[35ma%1Bb.txt\x1b[0m:\x1b[32m2\x1b[0m:\x1b[1;31mhttp://b.example/y\x1b[0m\n"
    );
    let o = run(&["--colour", "always"], TWO);
    assert_eq!(
        stdout(&o),
        "\x1b[1;31mhttp://a.example/X\x1b[0m\n\x1b[1;31mhttp://b.example/y\x1b[0m\n"
    );
    // -c and -l colour their names.
    let o = run_in(d, &["--color", "always", "-l", "a\x1bb.txt"], b"");
    assert_eq!(stdout(&o), "\x1b[35ma%1Bb.txt\x1b[0m\n");
    let o = run_in(d, &["--color", "always", "-cH", "a\x1bb.txt"], b"");
    assert_eq!(stdout(&o), "\x1b[35ma%1Bb.txt\x1b[0m:2\n");
    // Not on a pipe (auto), nor when asked never.
    for args in [
        &["-Hn"][..],
        &["-Hn", "--color", "never"],
        &["-Hn", "--color", "auto"],
    ] {
        let o = run(args, TWO);
        assert_eq!(
            stdout(&o),
            "<stdin>:1:http://a.example/X\n<stdin>:2:http://b.example/y\n",
            "{args:?}"
        );
    }
    let o = run(&["--color", "sometimes"], TWO);
    assert_eq!(code(&o), 2);
}

const TEXT: &str = "one\ntwo http://a.example/x and <http://b.example/y>\n\
three\nfour\nfive\nsix <URL:http://w.example/\n   more> end\nseven\n";

/// Writes `text` to `name` in a new folder.
fn file(name: &str, text: &[u8]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    dir
}

#[test]
fn line_prints_the_line_of_each_url_once() {
    let dir = file("c.txt", TEXT.as_bytes());
    let o = run_in(dir.path(), &["--line", "c.txt"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Two URLs, one line; a wrapper over two lines prints both.
    assert_eq!(
        stdout(&o),
        "two http://a.example/x and <http://b.example/y>\n\
         six <URL:http://w.example/\n   more> end\n"
    );
    let o = run_in(dir.path(), &["--line", "-Hnb", "c.txt"], b"");
    assert_eq!(
        stdout(&o),
        "c.txt:2:4:two http://a.example/x and <http://b.example/y>\n\
         c.txt:6:68:six <URL:http://w.example/\n\
         c.txt:7:95:   more> end\n"
    );
    // Selection applies: only the lines of selected URLs.
    let o =
        run_in(dir.path(), &["--line", "--host", "w.example", "c.txt"], b"");
    assert_eq!(stdout(&o), "six <URL:http://w.example/\n   more> end\n");
}

/// grep's `-o`: only the URLs, which urlgrep prints by default; the last
/// of `-o` and `--line` wins, and `-o` drops context.
#[test]
fn only_matching_is_the_default_and_the_last_of_it_and_line_wins() {
    let dir = file("c.txt", TEXT.as_bytes());
    let urls = stdout(&run_in(dir.path(), &["c.txt"], b""));
    assert!(urls.starts_with("http://a.example/x\n"), "{urls}");
    for args in [&["-o"][..], &["--line", "-o"], &["-o", "-C", "1"]] {
        let o = run_in(dir.path(), &[args, &["c.txt"]].concat(), b"");
        assert_eq!((stdout(&o), code(&o)), (urls.clone(), 0), "{args:?}");
    }
    let lines = stdout(&run_in(dir.path(), &["--line", "c.txt"], b""));
    assert_ne!(lines, urls);
    let o = run_in(dir.path(), &["-o", "--line", "c.txt"], b"");
    assert_eq!(stdout(&o), lines);
}

#[test]
fn context_lines_as_grep() {
    let dir = file("c.txt", TEXT.as_bytes());
    let o = run_in(dir.path(), &["-n", "-C", "1", "c.txt"], b"");
    assert_eq!(
        stdout(&o),
        "1-one\n2:two http://a.example/x and <http://b.example/y>\n3-three\n\
         --\n5-five\n6:six <URL:http://w.example/\n7:   more> end\n8-seven\n"
    );
    let o = run_in(dir.path(), &["-A", "2", "c.txt"], b"");
    assert_eq!(
        stdout(&o),
        "two http://a.example/x and <http://b.example/y>\nthree\nfour\n--\n\
         six <URL:http://w.example/\n   more> end\nseven\n"
    );
    let o =
        run_in(dir.path(), &["-Hn", "--before-context", "1", "c.txt"], b"");
    assert_eq!(
        stdout(&o),
        "c.txt-1-one\nc.txt:2:two http://a.example/x and <http://b.example/y>\n\
         --\nc.txt-5-five\nc.txt:6:six <URL:http://w.example/\nc.txt:7:   more> end\n"
    );
    // Groups of two files are apart too (grep -C1 a b).
    std::fs::write(dir.path().join("d.txt"), "x http://d.example/\ny\n")
        .unwrap();
    let o = run_in(dir.path(), &["-C", "1", "c.txt", "d.txt"], b"");
    assert!(
        stdout(&o).ends_with(
            "c.txt-seven\n--\nd.txt:x http://d.example/\nd.txt-y\n"
        ),
        "{}",
        stdout(&o)
    );
    // Context that meets the next group runs on, with no `--`.
    let o = run_in(dir.path(), &["-n", "-C", "3", "c.txt"], b"");
    assert!(!stdout(&o).contains("--"), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().count(), 8, "{}", stdout(&o));
}

#[test]
fn line_reads_compressed_files_and_refuses_stdin() {
    let mut gz = Vec::new();
    {
        let mut enc = flate2::write::GzEncoder::new(
            &mut gz,
            flate2::Compression::default(),
        );
        enc.write_all(TEXT.as_bytes()).unwrap();
        enc.finish().unwrap();
    }
    let dir = file("c.txt.gz", &gz);
    let o = run_in(dir.path(), &["-n", "-B1", "c.txt.gz"], b"");
    assert_eq!(
        stdout(&o),
        "1-one\n2:two http://a.example/x and <http://b.example/y>\n--\n\
         5-five\n6:six <URL:http://w.example/\n7:   more> end\n"
    );
    // Stdin cannot be read twice.
    for args in [&["--line"][..], &["-C", "2"], &["--line", "-"]] {
        let o = run(args, TEXT.as_bytes());
        assert_eq!((stdout(&o).as_str(), code(&o)), ("", 2), "{args:?}");
        assert!(
            stderr(&o).contains("not possible for stdin"),
            "{}",
            stderr(&o)
        );
    }
    // A flag it would leave without effect is refused.
    for flag in ["-c", "--json", "-l", "--rejects"] {
        let o = run_in(dir.path(), &["-A", "1", flag, "c.txt.gz"], b"");
        assert_eq!(code(&o), 2, "{flag}");
    }
}

#[test]
fn line_colours_the_url_and_escapes_the_rest() {
    let dir = file(
        "e.txt",
        b"a\x1b[31m http://a.example/%41 \"http://q.example/\"\r\n",
    );
    let o = run_in(dir.path(), &["--line", "--color", "always", "e.txt"], b"");
    // The line's own ESC and `%` are escaped; the colours wrap each URL
    // (inside its quotes); the CR of a CRLF line is not printed.
    assert_eq!(
        stdout(&o),
        "a%1B[31m \x1b[1;31mhttp://a.example/%2541\x1b[0m \
         \"\x1b[1;31mhttp://q.example/\x1b[0m\"\n"
    );
}

#[test]
fn line_in_mail_is_the_decoded_line() {
    // The text as searched, quoted-printable undone (more in cli_line.rs).
    let mbox = b"From a@b Mon Jan  1 00:00:00 2001\nFrom: a@b.example\n\
Content-Transfer-Encoding: quoted-printable\n\nsee http://qp.example/a=\nb/c and text\n";
    let dir = file("m.mbox", mbox);
    let o = run_in(dir.path(), &["-n", "m.mbox"], b"");
    assert_eq!(stdout(&o), "5:http://qp.example/ab/c\n");
    let o = run_in(dir.path(), &["-n", "--line", "m.mbox"], b"");
    assert_eq!(stdout(&o), "5:see http://qp.example/ab/c and text\n");
}

/// A plain listing takes a batch of matches whole (`Report::urls`, no
/// `Hit` built for each, issue 33); `-m` with a count never reached
/// makes the printer take each hit: the output is the same, with every
/// prefix, colour and escape, in text and in mail.
#[test]
fn plain_lines_the_same_whether_a_batch_goes_whole_or_hit_by_hit() {
    let mut text = b"From: a@b.example\nSubject: x\n\n".to_vec();
    for k in 0..3000 {
        let line = format!("{k} http://h{}.example/p?q={k}\x1b[31m ", k % 7);
        text.extend_from_slice(line.as_bytes());
        if k % 5 == 0 {
            text.extend_from_slice(b"<http://angle.example/>\nhttp://x\n");
        }
    }
    let mut plain = text[30..].to_vec();
    plain.extend_from_slice(b"ftp://bad:/\n");
    for flags in [
        &[][..],
        &["-n"],
        &["-b"],
        &["-Hnb"],
        &["--color", "always", "-n"],
        &["--line-buffered", "-n"],
        &["--rejects", "-n"],
    ] {
        for input in [&text, &plain] {
            let whole = run(flags, input);
            let mut each = flags.to_vec();
            each.extend(["-m", "100000000"]);
            let each = run(&each, input);
            assert_eq!(code(&whole), 0, "{flags:?}");
            assert!(stdout(&whole).lines().count() > 3000, "{flags:?}");
            assert_eq!(stdout(&whole), stdout(&each), "{flags:?}");
            assert_eq!(stderr(&whole), stderr(&each), "{flags:?}");
        }
    }
}

/// `-n` writes a line's number again for each URL of the line (kept
/// from the line's second URL on), and a new line's own: as mail and as
/// raw text, on stdin.
#[test]
fn line_numbers_of_many_urls_a_line() {
    let text = b"http://a.example/ http://b.example/ http://c.example/\n\
        x http://d.example/ http://e.example/\n\n\
        http://f.example/\n";
    let want =
        "1:http://a.example/\n1:http://b.example/\n1:http://c.example/\n\
        2:http://d.example/\n2:http://e.example/\n4:http://f.example/\n";
    let o = run(&["-n", "--mail", "off"], text);
    assert_eq!(stdout(&o), want);
    let mut mail = b"From: a@b.example\n\n".to_vec();
    mail.extend_from_slice(text);
    let o = run(&["-n"], &mail);
    let want: String = want
        .lines()
        .map(|l| {
            let (n, url) = l.split_once(':').unwrap();
            format!("{}:{url}\n", n.parse::<u64>().unwrap() + 2)
        })
        .collect();
    assert_eq!(stdout(&o), want);
}
