//! `--find defanged` and `--keep-defanged` (issue 34): defanged URLs
//! printed refanged, as written on request, the written form in JSON.

mod support;

use support::{code, run, stderr, stdout};

const TEXT: &[u8] = b"IOCs: hxxps[:]//evil[.]example/x.exe and \
    http://ok.example/ and fxp://f(dot)example/p\n";

#[test]
fn defanged_urls_are_refanged() {
    let o = run(&["--find", "defanged"], TEXT);
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "https://evil.example/x.exe\nhttp://ok.example/\nftp://f.example/p\n"
    );
    // part of --find all
    let o = run(&["--find", "all"], TEXT);
    assert!(stdout(&o).starts_with("https://evil.example/x.exe\n"));
    // off by default
    let o = run::<&str>(&[], TEXT);
    assert_eq!(stdout(&o), "http://ok.example/\n");
}

#[test]
fn keep_defanged_prints_them_as_written() {
    let o = run(&["--find", "defanged", "--keep-defanged"], TEXT);
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        "hxxps[:]//evil[.]example/x.exe\nhttp://ok.example/\n\
         fxp://f(dot)example/p\n"
    );
    // a flag without effect is refused, naming the one that gives it one
    let o = run(&["--keep-defanged"], TEXT);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--find defanged"), "{}", stderr(&o));
}

#[test]
fn json_has_the_written_form() {
    let o = run(&["--find", "defanged", "--json"], TEXT);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].contains(
            "\"url\":\"https://evil.example/x.exe\",\"scheme\":\"https\",\
             \"host\":\"evil.example\",\"flags\":[\"defanged\"],\
             \"defanged\":\"hxxps[:]//evil[.]example/x.exe\"}"
        ),
        "{out}"
    );
    assert!(!lines[2].contains("defanged"), "{out}");
    // the host filter sees the refanged host
    let o = run(&["--find", "defanged", "--host", "evil.example"], TEXT);
    assert_eq!(stdout(&o), "https://evil.example/x.exe\n");
}
