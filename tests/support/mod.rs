//! Running the `urlgrep` binary, for the CLI tests split by theme
//! (`tests/cli_*.rs`).

#![allow(dead_code)]

pub mod corpus;
pub mod shared;

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_urlgrep");

/// Starts urlgrep with `args` in `dir`, its standard streams piped (and
/// `CI` unset, so that it behaves as on a user's machine).
pub fn spawn_in<S: AsRef<OsStr>>(
    dir: &std::path::Path,
    args: &[S],
) -> std::process::Child {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs urlgrep with `args`, `stdin` on its standard input, in `dir`.
pub fn run_in<S: AsRef<OsStr>>(
    dir: &std::path::Path,
    args: &[S],
    stdin: &[u8],
) -> Output {
    let mut child = spawn_in(dir, args);
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

/// Runs urlgrep with `args` and `stdin` in the current folder.
pub fn run<S: AsRef<OsStr>>(args: &[S], stdin: &[u8]) -> Output {
    run_in(std::path::Path::new("."), args, stdin)
}

/// The exit status (-1 for a signal).
pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// Standard error, lossily.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output, lossily.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A path as `&str` (the tests' paths are UTF-8).
pub fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A small text with every kind of URL and one reject (`tests/cli.rs`,
/// `tests/cli_stats.rs`).
pub const SAMPLE: &str = "From a@b Mon Jan  1 00:00:00 1996\n\
see http://a.example/x. and <URL:ftp://ds.internic.\n    net/rfc/>\n\
> quoted \"https://q.example/y\" and <mailto:me@m.example>\n\
bad http://b.example:99999/ end\n\
dup http://a.example/x\n";

pub fn sample_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("sample.txt");
    std::fs::write(&f, SAMPLE).unwrap();
    (dir, f)
}
