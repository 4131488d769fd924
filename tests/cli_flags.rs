//! The binary's refusals of silent no-ops (`--scheme`, length caps,
//! `-j`, conflicting flags), its usage line, and `--generate`.

mod support;

use support::{code, run, stderr, stdout};

#[test]
fn unknown_scheme_suggests_the_nearest() {
    // Issue 34.4: a usage error (exit 2, as the README says), one short
    // line with the nearest registered names; it was a warning listing
    // about 350 schemes, then exit 1.
    let o = run(&["--scheme", "htps"], b"https://a.example/\n");
    assert_eq!(code(&o), 2);
    let e = stderr(&o);
    assert_eq!(
        e,
        "urlgrep: --scheme \"htps\": not a registered scheme; did you mean \
         https, ftps or http? (an unregistered one needs --find \
         unregistered)\n"
    );
    assert_eq!(stdout(&o), "");
    let o = run(&["--scheme", "http,xyzzyq"], b"");
    assert_eq!(code(&o), 2);
    let e = stderr(&o);
    assert!(e.contains("\"xyzzyq\": not a registered scheme (an"), "{e}");
    // Found when the run can find it: --find unregistered (RFC 3986
    // section 3.1), or in a <URL:...> wrapper (RFC 1738 section 2.1).
    let text = b"see gemini://tilde.example/x <gemini://b.example/> \
        and http://a.example/\n";
    let o = run(&["--scheme", "gemini"], text);
    assert_eq!(code(&o), 2);
    let o = run(&["--scheme", "gemini", "--find", "unregistered"], text);
    assert_eq!(code(&o), 0);
    assert_eq!(stdout(&o), "gemini://tilde.example/x\ngemini://b.example/\n");
    assert_eq!(stderr(&o), "");
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

#[test]
fn completions_and_man_page_include_merge() {
    // Issue 34.6: `urlgrep merge --c` completed to `--count`, and the
    // man page had no word of merge.
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let o = run(&["--generate", &format!("complete-{shell}")], b"");
        let s = stdout(&o);
        assert!(s.contains("merge") && s.contains("compare"), "{shell}");
    }
    let o = run(&["--generate", "complete-bash"], b"");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("urlgrep.bash");
    std::fs::write(&script, &o.stdout).unwrap();
    // What bash offers after `urlgrep merge --c` and `urlgrep --c`.
    let complete = |words: &str| {
        let cmd = format!(
            "source '{}'; COMP_WORDS=({words}); \
             COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1)); \
             COMP_LINE=\"${{COMP_WORDS[*]}}\"; COMP_POINT=${{#COMP_LINE}}; \
             _urlgrep urlgrep \"${{COMP_WORDS[COMP_CWORD]}}\" \
             \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display()
        );
        std::process::Command::new("bash").arg("-c").arg(cmd).output()
    };
    match complete("urlgrep merge --c") {
        Ok(got) => {
            let got = String::from_utf8_lossy(&got.stdout).into_owned();
            assert_eq!(got, "--compare\n");
            let top = complete("urlgrep --cou").expect("bash ran once");
            assert_eq!(String::from_utf8_lossy(&top.stdout), "--count\n");
        }
        Err(e) => eprintln!("bash not run: {e}"),
    }
    let o = run(&["--generate", "man"], b"");
    let man = stdout(&o);
    assert!(man.starts_with(".TH urlgrep"), "{}", &man[..200]);
    let merge = man.find(".SH \"URLGREP MERGE\"\n").expect("a merge section");
    let section = &man[merge..];
    assert!(section.contains(".SS OPTIONS\n"), "{section}");
    assert!(section.contains("\\-\\-compare"), "{section}");
    assert!(section.contains("\\-\\-tsv"), "{section}");
    assert_eq!(man.matches(".TH ").count(), 1, "one page");
}

#[test]
fn a_flag_without_effect_is_refused_naming_the_one_it_needs() {
    // Issue 34.11 and 33.17: `--kind www` alone printed nothing, exit 1;
    // --header, --top and --exact-stats were silently ignored, and
    // `-c --html-context` accepted while `--html-context` was refused.
    let text = b"http://a.example/ www.example.com/page\n";
    for (args, flag, needs) in [
        (&["--kind", "www"][..], "--kind www", "--find www"),
        (&["--kind", "bare,email"], "--kind email", "--find email"),
        (&["--header", "List-Id"], "--header", "--json"),
        (&["--header", "List-Id", "--json", "--stats"], "--header", "--json"),
        (&["--html-context"], "--html-context", "--json"),
        (&["-c", "--html-context"], "--html-context", "--json"),
        (&["--json", "--stats", "--html-context"], "--html-context", "--json"),
        (&["--top", "3"], "--top", "--stats"),
        (&["--top", "3", "--stats-tsv"], "--top", "--stats"),
        (&["--exact-stats"], "--exact-stats", "--stats"),
        (&["--exact-stats", "--json"], "--exact-stats", "--stats"),
        (&["--by", "year"], "--by", "--stats"),
    ] {
        let o = run(args, text);
        assert_eq!(code(&o), 2, "{args:?}");
        let e = stderr(&o);
        assert!(e.starts_with(&format!("urlgrep: {flag}")), "{args:?}: {e}");
        assert!(e.contains(needs), "{args:?}: {e}");
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    // With the flag they need, each does what it says.
    for args in [
        &["--kind", "www", "--find", "www"][..],
        &["--kind", "www", "--find", "all"],
        &["--header", "List-Id", "--json"],
        &["--html-context", "--json"],
        &["--top", "3", "--stats"],
        &["--exact-stats", "--stats-tsv"],
        &["--by", "year", "--stats"],
    ] {
        let o = run(args, text);
        assert_eq!(code(&o), 0, "{args:?}: {}", stderr(&o));
    }
    let o = run(&["--kind", "www", "--find", "www"], text);
    assert_eq!(stdout(&o), "www.example.com/page\n");
}

#[test]
fn header_names_are_field_names() {
    // Issue 33.17: RFC 5322 section 3.6.8, field-name = 1*ftext,
    // printable US-ASCII but ':'.
    for bad in ["", "a:b", "a\nb", "a b", "caf\u{e9}", "\u{1b}[31m"] {
        let o = run(&["--json", "--header", bad], b"");
        assert_eq!(code(&o), 2, "{bad:?}");
        let e = stderr(&o);
        assert!(e.contains("not a field name"), "{bad:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    let o = run(&["--json", "--header", "X-a", "--header", "x-A"], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("given twice"), "{}", stderr(&o));
    // A bounded number of names: each costs an entry in every message's
    // metadata (1,000 once took 1.18 GB).
    let names: Vec<String> = (0..33).map(|i| format!("X-{i}")).collect();
    let mut args = vec!["--json".to_string()];
    for n in &names {
        args.extend(["--header".to_string(), n.clone()]);
    }
    let o = run(&args, b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("33 names, at most 32"), "{}", stderr(&o));
    args.truncate(args.len() - 2);
    let mail =
        b"From: a@b.example\nX-0: one\nX-31: two\n\nhttp://a.example/\n";
    let o = run(&args, mail);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\"x-0\":[\"one\"]"), "{out}");
    assert!(out.contains("\"x-31\":[\"two\"]"), "{out}");
}
