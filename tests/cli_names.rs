//! The binary's file names and grep-class flags: `-0/--null`, `-l`,
//! `--files-without-match`, `-h`, `-m`, `--files-from` (NUL-separated
//! too), `--line-buffered`; names holding `:`, line breaks and invalid
//! UTF-8.

mod support;

use std::ffi::OsString;
use support::{code, run, run_in, stderr, stdout};

/// A folder with `a:b` (three URLs), a name with a line break (none),
/// and on Unix a name that is not UTF-8 (one URL).
fn tree() -> (tempfile::TempDir, Vec<Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("d");
    std::fs::create_dir(&d).unwrap();
    std::fs::write(
        d.join("a:b"),
        "see http://a.example/ and http://b.example/\nhttp://c.example/\n",
    )
    .unwrap();
    std::fs::write(d.join("n\nl"), "nothing here\n").unwrap();
    let mut names = vec![b"d/a:b".to_vec(), b"d/n\nl".to_vec()];
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bad = std::ffi::OsStr::from_bytes(b"x\xff\xfe");
        std::fs::write(d.join(bad), "ftp://f.example/x\n").unwrap();
        names.push(b"d/x\xff\xfe".to_vec());
    }
    (dir, names)
}

/// Splits NUL-terminated records.
fn records(out: &[u8]) -> Vec<&[u8]> {
    assert!(out.is_empty() || out.ends_with(b"\0"), "{out:?}");
    let mut v: Vec<&[u8]> = out.split(|&b| b == 0).collect();
    v.pop();
    v
}

#[test]
fn null_after_names_in_lines() {
    let (dir, names) = tree();
    let o = run_in(dir.path(), &["-0", "-n", "d"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // NAME NUL LINE:URL LF: the name is everything before the NUL.
    let mut got = Vec::new();
    for line in o.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let nul = line.iter().position(|&b| b == 0).unwrap();
        got.push((line[..nul].to_vec(), line[nul + 1..].to_vec()));
    }
    let mut want = vec![
        (names[0].clone(), b"1:http://a.example/".to_vec()),
        (names[0].clone(), b"1:http://b.example/".to_vec()),
        (names[0].clone(), b"2:http://c.example/".to_vec()),
    ];
    if let Some(bad) = names.get(2) {
        want.push((bad.clone(), b"1:ftp://f.example/x".to_vec()));
    }
    assert_eq!(got, want);
}

#[test]
fn null_with_files_with_matches() {
    let (dir, names) = tree();
    let o = run_in(dir.path(), &["-0", "-l", "d"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut want = vec![names[0].as_slice()];
    want.extend(names.get(2).map(|n| n.as_slice()));
    assert_eq!(records(&o.stdout), want);
    // grep's spellings: -Z for -0, --label for --source.
    let z = run_in(dir.path(), &["-Z", "-l", "d"], b"");
    assert_eq!(z.stdout, o.stdout);
    let label =
        run_in(dir.path(), &["--label", "mbox", "-H"], b"http://l.example/\n");
    assert_eq!(label.stdout, b"mbox:http://l.example/\n");
}

#[test]
fn null_with_files_without_match_and_count() {
    let (dir, names) = tree();
    let o = run_in(dir.path(), &["-0", "--files-without-match", "d"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(records(&o.stdout), [names[1].as_slice()]);
    let o = run_in(dir.path(), &["-0", "-c", "d"], b"");
    let mut want = b"d/a:b\x003\nd/n\nl\x000\n".to_vec();
    if let Some(bad) = names.get(2) {
        want.extend_from_slice(bad);
        want.extend_from_slice(b"\x001\n");
    }
    assert_eq!(o.stdout, want);
}

#[test]
fn files_lists_without_null_are_lines() {
    let (dir, _) = tree();
    let o = run_in(dir.path(), &["-l", "d/a:b", "d/n\nl"], b"");
    assert_eq!(stdout(&o), "d/a:b\n");
    assert_eq!(code(&o), 0);
    // No file lacks a URL: nothing listed, exit 1 (as ripgrep).
    let o = run_in(dir.path(), &["--files-without-match", "d/a:b"], b"");
    assert_eq!(stdout(&o), "");
    assert_eq!(code(&o), 1);
    // No file has one: -l lists nothing and exits 1.
    let o = run_in(dir.path(), &["-l", "d/n\nl"], b"");
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 1));
}

#[test]
fn files_with_matches_conflicts_are_named() {
    let o = run(&["-l", "-c", "x"], b"");
    assert_eq!(code(&o), 2);
    let e = stderr(&o);
    assert!(
        e.contains("--files-with-matches") && e.contains("--count"),
        "{e}"
    );
}

#[test]
fn h_is_no_filename_and_help_stays() {
    let (dir, _) = tree();
    let o = run_in(dir.path(), &["-h", "d/a:b", "d/n\nl"], b"");
    assert_eq!(
        stdout(&o),
        "http://a.example/\nhttp://b.example/\nhttp://c.example/\n"
    );
    let o = run(&["--help"], b"");
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("Usage:"), "{}", stdout(&o));
    let o = run(&["-V"], b"");
    assert!(stdout(&o).starts_with("urlgrep "), "{}", stdout(&o));
}

#[test]
fn max_count_per_input() {
    let (dir, _) = tree();
    let o = run_in(dir.path(), &["-m", "2", "-H", "d/a:b", "d/a:b"], b"");
    assert_eq!(
        stdout(&o),
        "d/a:b:http://a.example/\nd/a:b:http://b.example/\n\
         d/a:b:http://a.example/\nd/a:b:http://b.example/\n"
    );
    let o = run_in(dir.path(), &["-m", "1", "-c", "d/a:b"], b"");
    assert_eq!(stdout(&o), "1\n");
    // -m 0 selects nothing: exit 1, as grep.
    let o = run_in(dir.path(), &["-m", "0", "d/a:b"], b"");
    assert_eq!((stdout(&o).as_str(), code(&o)), ("", 1));
    // With -u, the limit counts what is printed.
    let o = run(&["-u", "-m", "2"], b"http://x.example/ http://x.example/ http://y.example/ http://z.example/\n");
    assert_eq!(stdout(&o), "http://x.example/\nhttp://y.example/\n");
}

/// Issue 34.7: `-m N` stops reading an input at its N-th URL, as grep
/// does. The gzip stream on stdin is cut at three quarters: read to the
/// end it fails ("incomplete deflate stream", exit 2); `-m 2` never gets
/// there, in any output format.
#[test]
fn max_count_stops_reading_the_input() {
    let mut text = Vec::new();
    for i in 0..100_000 {
        text.extend_from_slice(
            format!("{i} http://h{i}.example/\n").as_bytes(),
        );
    }
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &text).unwrap();
    let gz = gz.finish().unwrap();
    let cut = &gz[..gz.len() * 3 / 4];
    let o = run(&["-m", "2"], cut);
    assert_eq!((code(&o), stderr(&o).as_str()), (0, ""));
    assert_eq!(stdout(&o), "http://h0.example/\nhttp://h1.example/\n");
    for flags in [&["-c"][..], &["--json"], &["--mail", "on"]] {
        let o = run(&[&["-m", "2"], flags].concat(), cut);
        assert_eq!((code(&o), stderr(&o).as_str()), (0, ""), "{flags:?}");
    }
    // Without -m the cut is met.
    let o = run::<&str>(&["-c"], cut);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
}

/// Under `-m` an input's `end` and the `summary` count the bytes and
/// messages up to the URL that reached the count, not as far as the
/// reading got (which depends on buffers, slices and threads): a file, a
/// stream and any slice size give the same records.
#[test]
fn max_count_end_counts_do_not_depend_on_the_read() {
    let dir = tempfile::tempdir().unwrap();
    let mut mbox = Vec::new();
    for i in 0..20_000 {
        mbox.extend_from_slice(
            format!(
                "From a@b.example Mon Jan  1 00:00:00 2001\n\
                 Subject: {i}\n\nsee http://h{i}.example/p and more text\n\n"
            )
            .as_bytes(),
        );
    }
    std::fs::write(dir.path().join("box"), &mbox).unwrap();
    let tail = |o: &std::process::Output| {
        let out = stdout(o);
        let lines: Vec<&str> = out.lines().collect();
        lines[lines.len().saturating_sub(2)..].join("\n")
    };
    let m = ["-m", "1000", "--json"];
    let file = run_in(dir.path(), &[&m[..], &["box"]].concat(), b"");
    let want = tail(&file).replace("\"path\":\"box\",", "");
    assert!(want.contains("\"messages\":1000"), "{want}");
    assert!(want.contains("\"matches\":1000"), "{want}");
    for args in [
        &["-j1", "-"][..],
        &["-j2", "--slice-size", "65536", "box"],
        &["-j2", "--slice-size", "4093", "box"],
    ] {
        let o = run_in(dir.path(), &[&m[..], args].concat(), &mbox);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        let got = tail(&o)
            .replace("\"path\":\"box\",", "")
            .replace("\"path\":\"-\",\"source\":\"<stdin>\",", "");
        assert_eq!(got, want, "{args:?}");
    }
}

#[test]
fn files_from_nul_separated() {
    let (dir, names) = tree();
    let mut list = Vec::new();
    for n in &names {
        list.extend_from_slice(n);
        list.push(0);
    }
    let o = run_in(dir.path(), &["--files-from", "-", "-c"], &list);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // Without -0 the names are escaped (one rule for all that is printed
    // and is not a validated URL, issue 20): the newline and the bytes
    // that are not UTF-8 show as %XX.
    let mut want = b"d/a:b:3\nd/n%0Al:0\n".to_vec();
    if let Some(bad) = names.get(2) {
        want.extend_from_slice(&urlgrep::output::escape::text(bad));
        want.extend_from_slice(b":1\n");
    }
    assert_eq!(o.stdout, want);
    // Without a NUL the list is one name a line (CR LF too).
    let o = run_in(dir.path(), &["--files-from", "-", "-c"], b"d/a:b\r\n\n");
    assert_eq!(stdout(&o), "d/a:b:3\n");
}

#[test]
fn line_buffered_is_accepted_and_output_unchanged() {
    let input = b"a http://a.example/ b\nhttp://b.example/\n";
    let plain = run(&["-n"], input);
    let buffered = run(&["-n", "--line-buffered"], input);
    assert_eq!(plain.stdout, buffered.stdout);
    assert_eq!(
        stdout(&buffered),
        "1:http://a.example/\n2:http://b.example/\n"
    );
}

/// A slow writer on stdin sees each input's URLs before it ends: the
/// output of one stdin input is flushed when it ends, and with
/// `--line-buffered` after every line.
#[cfg(unix)]
#[test]
fn line_buffered_output_arrives_before_stdin_ends() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(support::BIN)
        .args(["--line-buffered", "--mail", "off"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    input.write_all(b"see http://first.example/ now\n").unwrap();
    input.flush().unwrap();
    let mut line = String::new();
    // Blocks until the line arrives; stdin is still open.
    out.read_line(&mut line).unwrap();
    assert_eq!(line, "http://first.example/\n");
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn names_from_args_keep_their_bytes() {
    let (dir, names) = tree();
    let args: Vec<OsString> = names
        .iter()
        .map(|n| {
            #[cfg(unix)]
            {
                use std::os::unix::ffi::OsStringExt;
                OsString::from_vec(n.clone())
            }
            #[cfg(not(unix))]
            {
                OsString::from(String::from_utf8(n.clone()).unwrap())
            }
        })
        .collect();
    let mut argv = vec![OsString::from("-l"), OsString::from("-0")];
    argv.extend(args);
    let o = run_in(dir.path(), &argv, b"");
    // Every name listed byte for byte as given.
    let mut want = vec![names[0].as_slice()];
    want.extend(names.get(2).map(|n| n.as_slice()));
    assert_eq!(records(&o.stdout), want);
}

/// Plain output writes each input's name once per input (at its
/// beginning) and prints it before every line of that input: each line
/// carries its own file's escaped name, with `-n`, `-b` and `--rejects`
/// lines too, and the next file's lines carry the next name.
#[test]
fn plain_prefix_is_each_inputs_own_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a%1.txt"),
        "http://a.example/\nhttp://b.example/ http://[x/\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("b.txt"), "\nftp://c.example/\n").unwrap();
    let out = run_in(
        dir.path(),
        &["-H", "-n", "-b", "--rejects", "a%1.txt", "b.txt"],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "a%251.txt:1:0:http://a.example/\n\
         a%251.txt:2:18:http://b.example/\n\
         a%251.txt:2:36: reject: bad-ipv6: http://[x/\n\
         b.txt:2:1:ftp://c.example/\n"
    );
}

/// Runs urlgrep with `args` and its standard input closed (`<&-`).
fn run_stdin_closed(args: &[&str]) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" <&-")
        .arg(support::BIN)
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap()
}

/// Issue 33.15: a closed stdin is an error (grep: "Bad file
/// descriptor", exit 2), not an empty input; as an input among others,
/// the others are still searched. The same for the lists read from
/// stdin. A stdin of /dev/null is empty, as before.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdin_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    std::fs::write(&file, "http://f.example/\n").unwrap();
    let file = file.to_str().unwrap();
    for args in [
        &[][..],
        &["-"],
        &["--host-file", "-", file],
        &["--files-from", "-"],
        &["--exclude-host-file", "-", file],
    ] {
        let o = run_stdin_closed(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("Bad file descriptor"), "{args:?}");
    }
    let o = run_stdin_closed(&[file, "-"]);
    assert_eq!(code(&o), 2);
    assert!(stdout(&o).ends_with(":http://f.example/\n"), "{}", stdout(&o));
    let o = std::process::Command::new(support::BIN)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!((code(&o), stderr(&o).as_str()), (1, ""));
}

#[test]
fn files_from_refuses_an_over_long_entry_where_it_is() {
    // Issue 33.13: the list was read whole before any search
    // (`--files-from /dev/zero` reached 7.1 GB). It is read a path at a
    // time now, an entry at most 16 KiB: what precedes an over-long
    // entry is searched, the list stops there, exit 2, its offset said.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "http://a.example/\n").unwrap();
    std::fs::write(dir.path().join("b.txt"), "http://b.example/\n").unwrap();
    let mut list = b"a.txt\n".to_vec();
    list.extend(std::iter::repeat_n(b'x', 3 << 20));
    list.extend_from_slice(b"\nb.txt\n");
    std::fs::write(dir.path().join("list"), &list).unwrap();
    let o = run_in(dir.path(), &["--files-from", "list"], b"");
    assert_eq!(code(&o), 2);
    assert_eq!(stdout(&o), "a.txt:http://a.example/\n");
    assert_eq!(
        stderr(&o),
        "urlgrep: --files-from: list: offset 6: an entry longer than 16384 \
         bytes is not a path\n"
    );
    // The same from stdin, NUL-separated.
    let mut list = b"a.txt\0".to_vec();
    list.extend(std::iter::repeat_n(b'x', 3 << 20));
    list.extend_from_slice(b"\0b.txt\0");
    let o = run_in(dir.path(), &["--files-from", "-"], &list);
    assert_eq!(code(&o), 2);
    assert_eq!(stdout(&o), "a.txt:http://a.example/\n");
    assert!(
        stderr(&o).contains("<stdin>: offset 6: an entry"),
        "{}",
        stderr(&o)
    );
}
