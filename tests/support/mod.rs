//! Running the `urlgrep` binary, for the CLI tests split by theme
//! (`tests/cli_*.rs`).

#![allow(dead_code)]

pub mod corpus;

use std::ffi::OsStr;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_urlgrep");

/// Runs urlgrep with `args`, `stdin` on its standard input, in `dir`.
pub fn run_in<S: AsRef<OsStr>>(
    dir: &std::path::Path,
    args: &[S],
    stdin: &[u8],
) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
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
