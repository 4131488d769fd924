//! Issue 20: a property test of the writers. Files with hostile names
//! (ESC, BEL, newline, C1 CSI, bidi controls, bytes that are not UTF-8,
//! `%`) and hostile contents (the same bytes inside every URL form, and in
//! a Message-ID) are searched through the library's driver and printed in
//! every format: plain with all prefixes and rejects, counts, JSON Lines,
//! the statistics report and its JSON. Whatever the input:
//!
//! - stdout and stderr are UTF-8, and no line holds a C0 or C1 control,
//!   DEL or a bidi control (`urlgrep::output::escape::is_unsafe`);
//! - every JSON line parses, and every `path` reopens its file;
//! - every error is one line on stderr.

#![cfg(unix)]

use proptest::prelude::*;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use urlgrep::input::{Input, InputError, Source};
use urlgrep::output::escape::{is_unsafe, unescape};
use urlgrep::output::{Format, Printer, PrinterOptions};
use urlgrep::{Driver, Finder, MailMode};

/// Pieces that hostile text is made of.
const PIECES: [&[u8]; 20] = [
    b"\x1b]0;pwned\x07",
    b"\x1b[2J",
    b"\n",
    b"\r",
    b"\t",
    b"\x7f",
    b"\xc2\x9b",
    b"\xc2\x85",
    "\u{202e}".as_bytes(),
    "\u{2066}".as_bytes(),
    "\u{200f}".as_bytes(),
    "\u{061c}".as_bytes(),
    b"\xff",
    b"\xe9",
    b"%",
    b"%41",
    b":",
    b"a",
    b"\"",
    b"\\",
];

fn hostile(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0..PIECES.len(), 1..max)
        .prop_map(|ix| ix.iter().flat_map(|&i| PIECES[i].to_vec()).collect())
}

/// A file name: hostile, without `/` or NUL, made unique by `n`.
fn file_name(mut bytes: Vec<u8>, n: usize) -> Vec<u8> {
    bytes.retain(|&b| b != b'/' && b != 0);
    bytes.extend_from_slice(format!(".{n}").as_bytes());
    bytes
}

/// Text with `bits` inside every URL form, and a mail message whose
/// Message-ID holds them.
fn contents(bits: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let mut text = Vec::new();
    for (open, close) in [
        (&b"<URL:http://a.example/"[..], &b">"[..]),
        (b"<http://b.example/", b">"),
        (b"\"http://c.example/", b"\""),
        (b"see http://d.example/", b" ok"),
        (b"<mailto:x@", b".example>"),
        (b"<http://", b".example/>"),
    ] {
        text.extend_from_slice(open);
        text.extend_from_slice(bits);
        text.extend_from_slice(close);
        text.push(b'\n');
    }
    let mut mail =
        b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <".to_vec();
    mail.extend_from_slice(bits);
    mail.extend_from_slice(b"@x>\nSubject: s\n\nsee http://m.example/ and ");
    mail.extend_from_slice(&text);
    (text, mail)
}

fn path(dir: &Path, name: &[u8]) -> PathBuf {
    dir.join(OsStr::from_bytes(name))
}

/// Runs the driver over `inputs` with a printer of `opts`.
fn print(
    inputs: &[PathBuf],
    opts: PrinterOptions,
    mail: MailMode,
) -> (Vec<u8>, Vec<u8>) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut printer = Printer::new(opts, &mut out, &mut err);
    let list: Vec<Result<Input, InputError>> = inputs
        .iter()
        .map(|p| {
            Ok(Input {
                source: Source::Path(p.clone()),
                size: None,
                regular: true,
                walked: false,
                anchor: None,
            })
        })
        .collect();
    let mut driver = Driver::builder();
    driver.threads(1).mail_mode(mail);
    let finder = Finder::builder().line_numbers(true).build();
    driver.build(finder).run(list, &mut printer).unwrap();
    printer.finish(std::time::Duration::from_millis(1)).unwrap();
    drop(printer);
    (out, err)
}

/// UTF-8, and no unsafe character on any line.
fn assert_clean(bytes: &[u8], what: &str) {
    let text = std::str::from_utf8(bytes)
        .unwrap_or_else(|e| panic!("{what}: not UTF-8: {e}"));
    for line in text.lines() {
        assert!(!line.chars().any(is_unsafe), "{what}: {line:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn writers_never_print_a_control(
        name in hostile(8),
        bits in hostile(6),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let (text, mail) = contents(&bits);
        let plain = path(dir.path(), &file_name(name.clone(), 1));
        let mbox = path(dir.path(), &file_name(name.clone(), 2));
        let missing = path(dir.path(), &file_name(name, 3));
        std::fs::write(&plain, &text).unwrap();
        std::fs::write(&mbox, &mail).unwrap();
        let inputs = [plain, mbox, missing];
        let base = PrinterOptions {
            with_filename: true,
            line_number: true,
            byte_offset: true,
            rejects: true,
            ..PrinterOptions::default()
        };
        for format in [
            Format::Plain,
            Format::Count,
            Format::Json,
            Format::Stats,
            Format::StatsJson,
        ] {
            for mail in [MailMode::Off, MailMode::Auto] {
                let opts = PrinterOptions { format, ..base.clone() };
                let (out, err) = print(&inputs, opts, mail);
                let what = format!("{format:?} {mail:?}");
                assert_clean(&out, &what);
                assert_clean(&err, &what);
                // One error, on one line.
                prop_assert_eq!(err.iter().filter(|&&b| b == b'\n').count(), 1);
                if format == Format::StatsJson {
                    serde_json::from_slice::<serde_json::Value>(&out).unwrap();
                }
                if format != Format::Json {
                    continue;
                }
                for line in std::str::from_utf8(&out).unwrap().lines() {
                    let v: serde_json::Value = serde_json::from_str(line)
                        .unwrap_or_else(|e| panic!("{e}: {line}"));
                    if v["type"] != "begin" {
                        continue;
                    }
                    let p = v["path"].as_str().unwrap();
                    let bytes = if v["path_escaped"] == true {
                        unescape(p.as_bytes())
                    } else {
                        p.as_bytes().to_vec()
                    };
                    prop_assert!(Path::new(OsStr::from_bytes(&bytes)).is_file(), "{}", line);
                }
            }
        }
    }
}
