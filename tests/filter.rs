//! The host and pattern filters of the `urlgrep` binary (issue 17).
//!
//! Table of contents:
//!
//! 1. Equivalence: the output of `--host`, `--host-file`,
//!    `--exclude-host`, `-e` and `--exclude-regexp` equals the unfiltered
//!    `--json` output filtered by the reference below (a label-suffix
//!    check after `idna`, the `regex` crate), on generated hosts
//!    (`generated_*`) and on real mail (`corpus_*`; the python-dev spool
//!    of `../shared/corpora` is skipped with a message when absent).
//! 2. Every output takes the filter: `outputs_*`.
//! 3. Errors exit 2 with a clear message: `error_*`.

#[path = "support/shared.rs"]
mod shared;

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_urlgrep");

/// Runs urlgrep with `args` and `stdin`.
fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("CI")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("urlgrep starts");
    let mut input = child.stdin.take().expect("a stdin pipe");
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("urlgrep ends");
    feeder.join().expect("the feeder ends");
    out
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The match records of a `--json` run, and the `matches` of its
/// summary.
fn matches(args: &[&str], stdin: &[u8]) -> (Vec<Value>, u64) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let o = run(&all, stdin);
    assert!(o.status.code().is_some_and(|c| c <= 1), "{}", stderr(&o));
    let mut records = Vec::new();
    let mut summary = None;
    for line in stdout(&o).lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON record");
        match v["type"].as_str() {
            Some("match") => records.push(v),
            Some("summary") => summary = v["matches"].as_u64(),
            _ => {}
        }
    }
    (records, summary.expect("a summary record"))
}

// --- The reference ----------------------------------------------------------

/// A domain's comparable form: ASCII lower case, A-labels, no trailing
/// dot; `None` when IDNA refuses it.
fn ascii(domain: &str) -> Option<String> {
    let d = domain.strip_suffix('.').unwrap_or(domain);
    let a = idna::domain_to_ascii(d).ok()?.to_ascii_lowercase();
    (!a.is_empty()).then_some(a)
}

/// Whether `host` is one of `domains` or below one, on label boundaries.
/// An IPv4 address matches only itself.
fn in_domains(host: Option<&str>, domains: &[&str]) -> bool {
    let Some(h) = host.and_then(ascii) else { return false };
    let ipv4 = h
        .rsplit('.')
        .next()
        .is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit()));
    domains
        .iter()
        .filter_map(|d| ascii(d))
        .any(|d| h == d || (!ipv4 && h.ends_with(&format!(".{d}"))))
}

fn host_of(record: &Value) -> Option<&str> {
    record["host"].as_str()
}

fn url_of(record: &Value) -> &str {
    record["url"].as_str().expect("a url")
}

/// The records a reference predicate keeps, as comparable text.
fn keep(records: &[Value], f: impl Fn(&Value) -> bool) -> Vec<String> {
    records.iter().filter(|r| f(r)).map(Value::to_string).collect()
}

fn text(records: &[Value]) -> Vec<String> {
    records.iter().map(Value::to_string).collect()
}

// --- Generated hosts ----------------------------------------------------------

/// Hosts made of these labels, in every case and with or without a
/// trailing dot, lookalikes included; URLs of several schemes.
fn generated() -> Vec<u8> {
    let hosts = [
        "example.com",
        "EXAMPLE.COM.",
        "a.Example.com",
        "www.a.example.com.",
        "badexample.com",
        "example.com.evil.net",
        "example.co",
        "xample.com",
        "bücher.de",
        "WWW.BÜCHER.DE",
        "xn--bcher-kva.de",
        "shop.XN--BCHER-KVA.de.",
        "xn--bcher-kva.de.evil.net",
        "bucher.de",
        "xn--bcher-kva-xyz.de",
        "münchen.example.com",
        "10.0.0.1",
        "192.10.0.0.1",
        "[::1]",
        "localhost",
        "evil.net",
    ];
    let mut out = Vec::new();
    for (i, h) in hosts.iter().enumerate() {
        let line = format!(
            "see http://{h}/p{i} or <https://{h}:8080/q?x={i}> and \
             mailto:user{i}@{h} and ftp://u:pw@{h}/f{i}.\n"
        );
        out.extend_from_slice(line.as_bytes());
    }
    out.extend_from_slice(b"news:comp.example.com urn:isbn:123\n");
    out
}

const DOMAINS: &[&str] = &["Example.COM.", "xn--bcher-kva.de", "10.0.0.1"];

#[test]
fn generated_host_equals_reference() {
    let input = generated();
    let (all, _) = matches(&[], &input);
    assert!(all.len() > 60, "the input has {} URLs", all.len());
    let want = keep(&all, |r| in_domains(host_of(r), DOMAINS));
    // The lookalikes are there and left out.
    assert!(want.len() > 10 && want.len() < all.len() - 20, "{want:?}");
    let mut args = Vec::new();
    for d in DOMAINS {
        args.extend(["--host", d]);
    }
    let (got, total) = matches(&args, &input);
    assert_eq!(text(&got), want);
    assert_eq!(total, want.len() as u64);
    // A comma list, and the U-label form of the IDN.
    let (got, _) =
        matches(&["--host", "example.com,bücher.de,10.0.0.1"], &input);
    assert_eq!(text(&got), want);
}

#[test]
fn generated_host_file_equals_host() {
    let input = generated();
    let dir = tempfile::tempdir().expect("a temp dir");
    let list = dir.path().join("hosts.txt");
    let mut body = String::from("# domains\n\n");
    for d in DOMAINS {
        body.push_str(&format!("  {d}  # one\r\n"));
    }
    std::fs::write(&list, body).expect("the list");
    let (all, _) = matches(&[], &input);
    let want = keep(&all, |r| in_domains(host_of(r), DOMAINS));
    let (got, _) = matches(&["--host-file", p(&list)], &input);
    assert_eq!(text(&got), want);
    // The list from stdin, the input from a file.
    let data = dir.path().join("input.txt");
    std::fs::write(&data, &input).expect("the input");
    let listed = std::fs::read(&list).expect("the list");
    let (got, _) = matches(&["--host-file", "-", p(&data)], &listed);
    // Records compared without the input's name (a path, and stdin).
    let unnamed = |v: &[Value]| -> Vec<String> {
        let mut v = v.to_vec();
        for r in &mut v {
            if let Some(o) = r.as_object_mut() {
                o.remove("path");
                o.remove("source");
            }
        }
        text(&v)
    };
    let want: Vec<Value> =
        all.into_iter().filter(|r| in_domains(host_of(r), DOMAINS)).collect();
    assert_eq!(unnamed(&got), unnamed(&want));
}

#[test]
fn generated_exclude_host_is_the_complement() {
    let input = generated();
    let (all, _) = matches(&[], &input);
    let want = keep(&all, |r| !in_domains(host_of(r), DOMAINS));
    let (got, _) = matches(
        &["--exclude-host", "example.com,xn--bcher-kva.de,10.0.0.1"],
        &input,
    );
    assert_eq!(text(&got), want);
    // An exclusion wins over an inclusion.
    let both = ["a.example.com"];
    let want = keep(&all, |r| {
        in_domains(host_of(r), DOMAINS) && !in_domains(host_of(r), &both)
    });
    let (got, _) = matches(
        &[
            "--host",
            "example.com,bücher.de,10.0.0.1",
            "--exclude-host",
            "A.example.com",
        ],
        &input,
    );
    assert_eq!(text(&got), want);
}

const PATTERNS: &[&str] = &[r"/p1\d*$", r"(?i)^MAILTO:user2", r":8080/"];

#[test]
fn generated_regexp_equals_reference() {
    let input = generated();
    let (all, _) = matches(&[], &input);
    let set = regex::RegexSet::new(PATTERNS).expect("valid patterns");
    let want = keep(&all, |r| set.is_match(url_of(r)));
    assert!(want.len() > 5 && want.len() < all.len() / 2, "{want:?}");
    let mut args = Vec::new();
    for pat in PATTERNS {
        args.extend(["-e", pat]);
    }
    let (got, _) = matches(&args, &input);
    assert_eq!(text(&got), want);
    let want = keep(&all, |r| !set.is_match(url_of(r)));
    let mut args = Vec::new();
    for pat in PATTERNS {
        args.extend(["--exclude-regexp", pat]);
    }
    let (got, _) = matches(&args, &input);
    assert_eq!(text(&got), want);
}

// --- Real mail ------------------------------------------------------------------

/// Checks host and pattern filters against the reference on `args`'s
/// input (paths, or stdin).
fn check_corpus(paths: &[&str], stdin: &[u8]) {
    let (all, _) = matches(paths, stdin);
    assert!(all.len() > 100, "{} URLs", all.len());
    // The registrable-looking ends of some hosts that occur, and
    // lookalikes of them.
    let mut domains: Vec<String> = all
        .iter()
        .filter_map(host_of)
        .filter_map(|h| {
            let labels: Vec<&str> =
                h.trim_end_matches('.').split('.').collect();
            let n = labels.len();
            (n >= 2).then(|| labels[n - 2..].join("."))
        })
        .step_by(7)
        .take(6)
        .collect();
    domains.extend(["python.org".into(), "ython.org".into()]);
    domains.sort();
    domains.dedup();
    let refs: Vec<&str> = domains.iter().map(String::as_str).collect();
    let want = keep(&all, |r| in_domains(host_of(r), &refs));
    assert!(!want.is_empty() && want.len() < all.len(), "{refs:?}");
    let mut args: Vec<&str> = paths.to_vec();
    args.push("--host");
    let list = refs.join(",");
    args.push(&list);
    let (got, total) = matches(&args, stdin);
    assert_eq!(text(&got), want, "--host {list}");
    assert_eq!(total, want.len() as u64);

    let patterns = [r"\.html?$", r"(?i)/pipermail/", r"\?.*="];
    let set = regex::RegexSet::new(patterns).expect("valid patterns");
    let want = keep(&all, |r| set.is_match(url_of(r)));
    assert!(!want.is_empty() && want.len() < all.len());
    let mut args: Vec<&str> = paths.to_vec();
    for pat in &patterns {
        args.extend(["-e", pat]);
    }
    let (got, _) = matches(&args, stdin);
    assert_eq!(text(&got), want);
}

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn p(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

#[test]
fn corpus_mail_samples() {
    let mail = repo("corpora/mail");
    check_corpus(&[p(&mail)], b"");
}

#[test]
fn corpus_python_dev_spool() {
    let Some(tarball) =
        shared::path("corpora/python-dev/python-dev-1999-04_2000-03.tar.gz")
    else {
        return;
    };
    let file = std::fs::File::open(&tarball).expect("the spool");
    // Three months of the spool, fed on stdin.
    let mut spool = Vec::new();
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    for entry in archive.entries().expect("a tar archive") {
        let mut entry = entry.expect("an entry");
        if entry.header().entry_type().is_file() {
            std::io::Read::read_to_end(&mut entry, &mut spool)
                .expect("a member");
        }
        if spool.len() > 3 << 20 {
            break;
        }
    }
    check_corpus(&["--mail", "on"], &spool);
}

// --- Every output takes the filter -----------------------------------------------

#[test]
fn outputs_counts_after_the_filter() {
    let input = generated();
    let (all, _) = matches(&[], &input);
    let n = all.iter().filter(|r| in_domains(host_of(r), &["example.com"]));
    let n = n.count();
    let o = run(&["-c", "--host", "example.com"], &input);
    assert_eq!(stdout(&o), format!("{n}\n"));
    let o = run(&["--stats-tsv", "--host", "example.com"], &input);
    let line = format!("total\tmatches\t{n}\n");
    assert!(stdout(&o).contains(&line), "{}", stdout(&o));
    let o = run(&["--stats", "--host", "example.com"], &input);
    assert!(!stdout(&o).contains("evil.net"), "{}", stdout(&o));
    assert!(stdout(&o).contains("example.com"), "{}", stdout(&o));
    let o = run(&["--host", "example.com"], &input);
    assert_eq!(stdout(&o).lines().count(), n);
    // Nothing kept: exit status 1.
    let o = run(&["--host", "nowhere.invalid"], &input);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
}

/// `-c`, `-l` and `--files-without-match` under a selection (a filter,
/// `--kind`, `--scheme`, `--redact`) say what the URLs printed say, file
/// by file, with the same exit status, on every path (a text, a mail
/// spool, a gzip read as a stream, a file without a kept URL), at one
/// thread and two: the driver counts what the selection keeps without
/// reporting each URL (issue 32).
#[test]
fn outputs_counts_and_lists_equal_the_urls_printed() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let text = generated();
    let mut mbox =
        b"From a@b Mon Jan  1 00:00:00 2001\nSubject: x\n\n".to_vec();
    mbox.extend_from_slice(&text);
    mbox.extend_from_slice(b"\nFrom a@b Mon Jan  1 00:00:00 2001\n\n");
    mbox.extend_from_slice(&text);
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).expect("gzip");
    let list = dir.path().join("list");
    std::fs::write(&list, DOMAINS.join("\n")).expect("the list");
    let files = [
        ("a.txt", text.clone()),
        ("b.mbox", mbox),
        ("c.txt.gz", gz.finish().expect("gzip")),
        (
            "d.txt",
            b"http://evil.net/ ftp://evil.net/ x:y http://a:99999/".to_vec(),
        ),
    ];
    let mut paths = Vec::new();
    for (name, bytes) in &files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).expect("a file");
        paths.push(p(&path).to_owned());
    }
    let selections: [&[&str]; 6] = [
        &["--host", "example.com"],
        &["--host-file", p(&list)],
        &["--exclude-host", "evil.net", "--kind", "bare,angle"],
        &["--scheme", "FTP,mailto"],
        &["--redact", "-e", "[*]{3}"],
        &["--kind", "quoted"],
    ];
    for selection in selections {
        for jobs in ["-j1", "-j2"] {
            let with = |more: &[&str]| {
                let mut args = vec!["-H", jobs];
                args.extend_from_slice(selection);
                args.extend_from_slice(more);
                args.extend(paths.iter().map(String::as_str));
                let o = run(&args, b"");
                assert!(o.stderr.is_empty(), "{args:?}: {}", stderr(&o));
                (stdout(&o), o.status.code())
            };
            let (urls, status) = with(&[]);
            let per_file: Vec<usize> = paths
                .iter()
                .map(|path| {
                    let prefix = format!("{path}:");
                    urls.lines().filter(|l| l.starts_with(&prefix)).count()
                })
                .collect();
            let at = format!("{selection:?} {jobs}");
            let counts: String = paths
                .iter()
                .zip(&per_file)
                .map(|(path, n)| format!("{path}:{n}\n"))
                .collect();
            assert_eq!(with(&["-c"]), (counts, status), "{at}");
            let listed = |with_urls: bool| -> String {
                let names = paths.iter().zip(&per_file);
                names
                    .filter(|(_, n)| (**n > 0) == with_urls)
                    .map(|(path, _)| format!("{path}\n"))
                    .collect()
            };
            assert_eq!(with(&["-l"]), (listed(true), status), "{at}");
            let without = listed(false);
            let found = Some(if without.is_empty() { 1 } else { 0 });
            let got = with(&["--files-without-match"]);
            assert_eq!(got, (without, found), "{at}");
        }
    }
}

#[test]
fn outputs_redacted_text_is_matched() {
    let input = b"ftp://me:secret@h.example/f\n";
    let o = run(&["--redact", "-e", "secret"], input);
    assert_eq!(o.status.code(), Some(1));
    let o = run(&["-e", "secret"], input);
    assert_eq!(stdout(&o), "ftp://me:secret@h.example/f\n");
}

// --- Errors ---------------------------------------------------------------------

/// Runs with `args`; demands exit status 2, no output and a message
/// holding each of `parts`.
fn error(args: &[&str], stdin: &[u8], parts: &[&str]) {
    let o = run(args, stdin);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let msg = stderr(&o);
    assert!(msg.starts_with("urlgrep: "), "{msg}");
    for part in parts {
        assert!(msg.contains(part), "{args:?}: {msg:?} lacks {part:?}");
    }
}

#[test]
fn error_unreadable_host_file() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let missing = dir.path().join("missing.txt");
    error(
        &["--host-file", p(&missing)],
        b"http://a.b/",
        &["--host-file", "missing.txt", "No such file"],
    );
    error(
        &["--exclude-host-file", p(dir.path())],
        b"http://a.b/",
        &["--exclude-host-file", p(dir.path())],
    );
}

#[test]
fn error_bad_domain_names_file_and_line() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let list = dir.path().join("list.txt");
    std::fs::write(&list, "# ok\nexample.com\n\nexa_mple.org\nhttp://x.y/\n")
        .expect("the list");
    let at = format!("{}:5: \"http://x.y/\" is not a domain", p(&list));
    error(&["--host-file", p(&list)], b"", &[&at, "':'"]);
    error(&["--exclude-host-file", p(&list)], b"", &[&at]);
    error(&["--host", "a..b"], b"", &["--host", "\"a..b\"", "empty label"]);
    error(&["--exclude-host", "*.a.b"], b"", &["--exclude-host", "'*'"]);
    error(&["--host-file", "-", "x"], b"a.b\n\xff\xfe\n", &["<stdin>:2:"]);
}

#[test]
fn error_invalid_regex_shows_the_regex_message() {
    error(&["-e", "ok", "-e", "(a"], b"", &["\"(a\"", "unclosed group"]);
    error(
        &["--exclude-regexp", "[z-a]"],
        b"",
        &["invalid regex", "invalid character class range"],
    );
}

#[test]
fn error_stdin_twice() {
    error(&["--host-file", "-"], b"", &["--host-file -", "stdin"]);
    error(
        &["--host-file", "-", "--exclude-host-file", "-", "x"],
        b"",
        &["--exclude-host-file -"],
    );
}

#[test]
fn error_regex_message_keeps_its_lines_and_caret() {
    // Issue 34.5: the regex crate's message is several lines, a caret
    // under the fault; it was printed as one line of `%0A`s.
    let o = run(&["-e", "(unclosed"], b"");
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.starts_with(
            "urlgrep: invalid regex \"(unclosed\": regex parse error:\n    \
             (unclosed\n    ^\nerror: unclosed group\n"
        ),
        "{e:?}"
    );
    assert!(!e.contains("%0A"), "{e:?}");
    // What is unsafe is still escaped, line by line (output/escape.rs).
    let o = run(&["-e", "\u{1b}]0;x\u{7}("], b"");
    let e = stderr(&o);
    assert!(e.contains("%1B]0;x%07(\n"), "{e:?}");
    assert!(!e.contains('\u{1b}') && !e.contains('\u{7}'), "{e:?}");
}

#[test]
fn error_messages_quote_a_bounded_value() {
    // Issue 33.16: a 1 MB line of a host list became a 1 MB stderr line.
    let dir = tempfile::tempdir().expect("a temp dir");
    let list = dir.path().join("list.txt");
    let line = "a".repeat(1_000_000);
    std::fs::write(&list, format!("ok.example\n{line}\n")).expect("a list");
    let o = run(&["--host-file", p(&list)], b"");
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.len() < 1000, "{} bytes: {}", e.len(), &e[..1000]);
    // The host list is read a line at a time: an over-long line is
    // said by its length, never kept (issue 33.13).
    assert!(e.contains(":2: a line of 1000000 bytes"), "{e}");
    // Many alternatives in one pattern: cut, and the length said.
    // (One argument holds at most 128 KiB on Linux.)
    let alternatives: Vec<String> =
        (0..15_000).map(|i| format!("a{i}")).collect();
    let pattern = format!("({}", alternatives.join("|"));
    let o = run(&["-e", &pattern], b"");
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.len() < 4000, "{} bytes: {}", e.len(), &e[..4000]);
    assert!(e.contains(&format!("… ({} bytes)", pattern.len())), "{e}");
}
