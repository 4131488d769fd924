//! The binary's refusals of silent no-ops (`--scheme`, length caps,
//! `-j`, conflicting flags), its usage line, and `--generate`.

mod support;

use support::{code, run, stderr, stdout};

#[test]
fn unknown_scheme_lists_the_known_ones() {
    // A warning, not a refusal: an unregistered scheme is found before
    // `//` in `<...>` and with --find unregistered (RFC 3986 section 3),
    // but most such names are typos.
    let o = run(&["--scheme", "htps"], b"http://a.example/\n");
    assert_eq!(code(&o), 1);
    let e = stderr(&o);
    assert!(e.contains("warning: --scheme \"htps\""), "{e}");
    assert!(e.contains("http, https") && e.contains("mailto"), "{e}");
    assert_eq!(stdout(&o), "");
    let text = b"see gemini://tilde.example/x <gemini://b.example/> \
        and http://a.example/\n";
    let o = run(&["--scheme", "gemini"], text);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "gemini://b.example/\n");
    assert!(stderr(&o).contains("--find unregistered"), "{}", stderr(&o));
    let o = run(&["--scheme", "gemini", "--find", "unregistered"], text);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "gemini://tilde.example/x\ngemini://b.example/\n");
    for bad in ["", "ht tp", "http:", "1abc"] {
        let o = run(&["--scheme", bad], b"");
        assert_eq!(code(&o), 2, "{bad:?}");
        assert!(stderr(&o).contains("not a scheme name"), "{}", stderr(&o));
    }
    // Known ones still work, any case.
    let o = run(
        &["--scheme", "HTTP,ftp"],
        b"http://a.example/ svn://b.example/\n",
    );
    assert_eq!((stdout(&o).as_str(), code(&o)), ("http://a.example/\n", 0));
    // An unregistered scheme is found in wrappers, when asked for those.
    let o = run(&["--scheme", "foo", "--kind", "wrapped"], b"<URL:foo:bar>\n");
    assert_eq!(stdout(&o), "foo:bar\n");
}

#[test]
fn zero_caps_and_threads_are_refused() {
    for (flag, value) in [
        ("--max-url-len", "0"),
        ("--max-wrapper-len", "0"),
        ("-j", "0"),
        ("-j", "100000"),
    ] {
        let o = run(&[flag, value], b"http://a.example/\n");
        assert_eq!(code(&o), 2, "{flag} {value}");
        let e = stderr(&o);
        assert!(e.contains(&format!("{flag} {value}")), "{e}");
        assert_eq!(stdout(&o), "");
    }
    let o = run(&["-j", "1024"], b"http://a.example/\n");
    assert_eq!((stdout(&o).as_str(), code(&o)), ("http://a.example/\n", 0));
}

#[test]
fn conflicting_flags_are_named() {
    for (a, b, name_a, name_b) in [
        ("--stats", "-c", "--stats", "--count"),
        ("--json", "-c", "--json", "--count"),
        (
            "-l",
            "--files-without-match",
            "--files-with-matches",
            "--files-without-match",
        ),
        ("--stats-tsv", "--stats", "--stats-tsv", "--stats"),
    ] {
        let o = run(&[a, b], b"");
        assert_eq!(code(&o), 2, "{a} {b}");
        let e = stderr(&o);
        assert!(e.contains(name_a) && e.contains(name_b), "{e}");
    }
}

#[test]
fn usage_line_shows_merge() {
    let o = run(&["--help"], b"");
    let out = stdout(&o);
    assert!(out.contains("Usage: urlgrep [OPTIONS] [PATH]...\n"), "{out}");
    assert!(out.contains("urlgrep merge [OPTIONS] [FILE]..."), "{out}");
}

#[test]
fn generate_man_is_roff() {
    let o = run(&["--generate", "man"], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let man = stdout(&o);
    assert!(man.starts_with(".TH urlgrep"), "{}", &man[..man.len().min(200)]);
    assert!(man.contains("files\\-without\\-match"), "the flags are in it");
}

#[test]
fn generate_completions() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let o = run(&["--generate", &format!("complete-{shell}")], b"");
        assert_eq!(code(&o), 0, "{shell}: {}", stderr(&o));
        assert!(stdout(&o).contains("files-without-match"), "{shell}");
    }
    let o = run(&["--generate", "complete-bash"], b"");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("urlgrep.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    // `bash -n` parses without running; skipped where there is no bash.
    match std::process::Command::new("bash").arg("-n").arg(&script).output() {
        Ok(check) => assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        ),
        Err(e) => eprintln!("bash not run: {e}"),
    }
    let bad = run(&["--generate", "complete-tcsh"], b"");
    assert_eq!(code(&bad), 2);
}
