//! The binary's folder walks: `-g/--glob` (with `!`), grep's
//! `--include`/`--exclude`/`--exclude-dir` and `-r`/`-R`, `--max-depth`,
//! binary files skipped in a walk (`-a/--text` searches them), hidden
//! folders searched, and a tree deeper than PATH_MAX searched to the
//! bottom.

mod support;

use std::path::Path;
use support::{code, run_in, stderr, stdout};

/// A tree: `.git/config`, `.Sent/cur/m` (hidden, Maildir++), `a.eml`,
/// `sub/b.txt`, `sub/deep/c.txt`, and `prog` (a NUL in its first block),
/// each with one URL naming it.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = dir.path().join("w");
    let files: [(&str, &[u8]); 6] = [
        (".git/config", b"http://git.example/\n"),
        (".Sent/cur/m", b"http://sent.example/\n"),
        ("a.eml", b"http://eml.example/\n"),
        ("sub/b.txt", b"http://txt.example/\n"),
        ("sub/deep/c.txt", b"http://deep.example/\n"),
        ("prog", b"\x7fELF\0\0\x01 http://bin.example/\n"),
    ];
    for (name, text) in files {
        let p = w.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn urls(dir: &Path, args: &[&str]) -> String {
    let o = run_in(dir, args, b"");
    assert!(code(&o) <= 1, "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn walk_skips_binary_files_and_text_searches_them() {
    let dir = tree();
    let all = "w/.Sent/cur/m:http://sent.example/\n\
               w/.git/config:http://git.example/\n\
               w/a.eml:http://eml.example/\n\
               w/sub/b.txt:http://txt.example/\n\
               w/sub/deep/c.txt:http://deep.example/\n";
    assert_eq!(urls(dir.path(), &["w"]), all);
    // A file bigger than a slice is skipped too (the slicing path).
    assert_eq!(urls(dir.path(), &["--slice-size", "8", "w"]), all);
    let with_bin = urls(dir.path(), &["-a", "w"]);
    let (before, after) = all.split_at(all.find("w/sub").unwrap());
    assert_eq!(
        with_bin,
        format!("{before}w/prog:http://bin.example/\n{after}")
    );
    // Named, it is searched.
    assert_eq!(urls(dir.path(), &["w/prog"]), "http://bin.example/\n");
    // Skipped, it is not listed by -c or --files-without-match either.
    assert!(!urls(dir.path(), &["-c", "w"]).contains("prog"));
}

#[test]
fn walk_skips_compressed_binary_files() {
    use std::io::Write;
    let dir = tree();
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"\0\0\0 http://zbin.example/\n").unwrap();
    std::fs::write(dir.path().join("w/z.gz"), gz.finish().unwrap()).unwrap();
    assert!(!urls(dir.path(), &["w"]).contains("zbin"));
    assert!(urls(dir.path(), &["-a", "w"]).contains("w/z.gz:http://zbin."));
}

#[test]
fn mail_with_a_nul_is_not_binary() {
    let dir = tree();
    let msg = b"From: a@b.example\nSubject: x\n\nhi \0 http://mail.example/\n";
    std::fs::write(dir.path().join("w/msg"), msg).unwrap();
    assert!(urls(dir.path(), &["w"]).contains("w/msg:http://mail.example/"));
}

#[test]
fn glob_includes_and_excludes() {
    let dir = tree();
    assert_eq!(
        urls(dir.path(), &["-g", "*.txt", "w"]),
        "w/sub/b.txt:http://txt.example/\nw/sub/deep/c.txt:http://deep.example/\n"
    );
    // `!` excludes files and whole folders; the last match decides.
    assert_eq!(
        urls(dir.path(), &["-g", "!.git", "-g", "!*.eml", "-g", "!sub/deep", "w"]),
        "w/.Sent/cur/m:http://sent.example/\nw/sub/b.txt:http://txt.example/\n"
    );
    assert_eq!(
        urls(dir.path(), &["-g", "!*.txt", "-g", "c.txt", "w/sub"]),
        "w/sub/deep/c.txt:http://deep.example/\n"
    );
    // Paths named are never filtered.
    assert_eq!(
        urls(dir.path(), &["-g", "!*.eml", "w/a.eml"]),
        "http://eml.example/\n"
    );
    let o = run_in(dir.path(), &["-g", "a[", "w"], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--glob"), "{}", stderr(&o));
}

/// grep's walk flags: `--include` and `--exclude` ask about files only,
/// `--exclude-dir` about folders only; among them and `-g` the last that
/// matches decides, in the order given; a file none matches is left out
/// when the first of grep's is an `--include` (GNU grep's rule).
#[test]
fn grep_include_exclude_and_exclude_dir() {
    let dir = tree();
    let d = dir.path();
    assert_eq!(
        urls(d, &["--include", "*.txt", "w"]),
        "w/sub/b.txt:http://txt.example/\nw/sub/deep/c.txt:http://deep.example/\n"
    );
    // A folder named like an excluded file is still walked.
    assert_eq!(
        urls(d, &["--exclude", "deep", "--exclude", "*.eml", "w/sub"]),
        "w/sub/b.txt:http://txt.example/\nw/sub/deep/c.txt:http://deep.example/\n"
    );
    assert_eq!(
        urls(d, &["--exclude-dir", "deep", "--exclude-dir", ".*", "w"]),
        "w/a.eml:http://eml.example/\nw/sub/b.txt:http://txt.example/\n"
    );
    // The last that matches decides: b.txt comes back.
    assert_eq!(
        urls(d, &["--exclude", "*.txt", "--include", "b.txt", "w/sub"]),
        "w/sub/b.txt:http://txt.example/\n"
    );
    // ... and the first was an --exclude, so what none matches stays.
    assert_eq!(
        urls(d, &["--exclude", "c.*", "--include", "*.eml", "w"]),
        "w/.Sent/cur/m:http://sent.example/\nw/.git/config:http://git.example/\n\
         w/a.eml:http://eml.example/\nw/sub/b.txt:http://txt.example/\n"
    );
    // -g and grep's flags in one order.
    assert_eq!(
        urls(d, &["-g", "!*.txt", "--include", "c.txt", "w/sub"]),
        "w/sub/deep/c.txt:http://deep.example/\n"
    );
    let o = run_in(d, &["--exclude-dir", "a[", "w"], b"");
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--exclude-dir"), "{}", stderr(&o));
}

/// `-r` with no path searches the working folder, as grep -r does (and
/// without it, stdin), naming its files without `./` as grep does (but
/// `-r .` with it); `-R` follows links too.
#[test]
fn recursive_without_a_path_searches_the_working_folder() {
    let dir = tree();
    let w = dir.path().join("w");
    let sub = w.join("sub");
    assert_eq!(
        urls(&sub, &["-r"]),
        "b.txt:http://txt.example/\ndeep/c.txt:http://deep.example/\n"
    );
    assert_eq!(urls(&sub, &["-r", "--files"]), "b.txt\ndeep/c.txt\n");
    assert_eq!(
        urls(&sub, &["-r", "."]),
        "./b.txt:http://txt.example/\n./deep/c.txt:http://deep.example/\n"
    );
    assert_eq!(urls(&sub, &[]), "");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(w.join("sub/deep"), w.join("link"))
            .unwrap();
        let linked = "link/c.txt:http://deep.example/\n";
        assert!(!urls(&w, &["-r", "-g", "*.txt"]).contains(linked));
        assert!(urls(&w, &["-R", "-g", "*.txt"]).contains(linked));
    }
}

#[test]
fn max_depth() {
    let dir = tree();
    assert_eq!(
        urls(dir.path(), &["--max-depth", "0", "w", "w/a.eml"]),
        "w/a.eml:http://eml.example/\n"
    );
    assert_eq!(
        urls(dir.path(), &["--max-depth", "1", "w"]),
        "w/a.eml:http://eml.example/\n"
    );
    assert_eq!(
        urls(dir.path(), &["--max-depth", "2", "-g", "!.git", "w"]),
        "w/a.eml:http://eml.example/\nw/sub/b.txt:http://txt.example/\n"
    );
}

/// A tree 25 folders of 200-byte names deep under `deep/`, made by a
/// shell that descends folder by folder (a path this long cannot be
/// created from the top): `deep/top` and an `f` in every folder, each
/// with one URL naming its level.
#[cfg(target_os = "linux")]
fn deep_tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let name = "d".repeat(200);
    let script = format!(
        "cd deep && echo http://top.example/ > top && \
         for i in $(seq 25); do mkdir {name} && cd -P {name} || exit 1; \
         echo http://level$i.example/ > f; done"
    );
    std::fs::create_dir(dir.path().join("deep")).unwrap();
    let ok = std::process::Command::new("sh")
        .arg("-c")
        .arg(&script)
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(ok.success());
    dir
}

/// The path of the `f` at `level` of [`deep_tree`], as printed.
#[cfg(target_os = "linux")]
fn deep_path(level: usize) -> String {
    format!("deep/{}f", format!("{}/", "d".repeat(200)).repeat(level))
}

/// Output with each 200-byte folder name of [`deep_tree`] shortened to
/// `D`, so that a failure prints readably.
#[cfg(target_os = "linux")]
fn short(out: &[u8]) -> String {
    String::from_utf8_lossy(out).replace(&"d".repeat(200), "D")
}

/// Issue 20, B2: a tree deeper than PATH_MAX is searched to the bottom:
/// below 19 levels the paths of `deep/` pass 4096 bytes, and those
/// folders are walked by handle; the real paths are printed, in walk
/// order (sorted by name: a folder's `D/` before its `f`), the same with
/// one worker and two, with no error.
#[cfg(target_os = "linux")]
#[test]
fn tree_deeper_than_path_max_is_searched() {
    let dir = deep_tree();
    assert!(deep_path(25).len() > 5000);
    let path = |level: usize| format!("deep/{}f", "D/".repeat(level));
    let mut want = String::new();
    for i in (1..=25).rev() {
        want += &format!("{}:http://level{i}.example/\n", path(i));
    }
    want += "deep/top:http://top.example/\n";
    for j in ["-j1", "-j2"] {
        for args in [&[j, "deep"][..], &[j, "--slice-size", "8", "deep"]] {
            let o = run_in(dir.path(), args, b"");
            assert_eq!(short(&o.stderr), "", "{args:?}");
            assert_eq!(code(&o), 0, "{args:?}");
            assert_eq!(short(&o.stdout), want, "{args:?}");
        }
        let o = run_in(dir.path(), &[j, "-c", "deep"], b"");
        let counts = short(&o.stdout);
        let counts: Vec<&str> = counts.lines().collect();
        assert_eq!(counts.len(), 26, "{}", short(&o.stderr));
        assert_eq!(counts[0], format!("{}:1", path(25)));
    }
    // The long path printed is the real one.
    let o = run_in(dir.path(), &["-l", "deep"], b"");
    assert_eq!(stdout(&o).lines().next(), Some(&*deep_path(25)));
    // Globs and --max-depth hold below the hand-over too: the `f` of
    // level i is at depth i + 1.
    let o = run_in(dir.path(), &["-g", "!f", "deep"], b"");
    assert_eq!(short(&o.stdout), "deep/top:http://top.example/\n");
    let glob = format!("/{}f", "*/".repeat(24));
    let o = run_in(dir.path(), &["-g", &glob, "deep"], b"");
    assert_eq!(
        short(&o.stdout),
        format!("{}:http://level24.example/\n", path(24))
    );
    let o = run_in(dir.path(), &["--max-depth", "22", "-l", "deep"], b"");
    let listed = short(&o.stdout);
    let listed: Vec<&str> = listed.lines().collect();
    assert_eq!(listed.len(), 22, "{}", short(&o.stderr));
    assert_eq!(listed[0], path(21));
}
