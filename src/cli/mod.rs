//! Command-line front end: argument parsing and exit codes.

use std::io::Write;

/// Runs urlgrep over the paths in the arguments; returns the exit status
/// (0 found, 1 none, 2 error).
pub fn run() -> i32 {
    let finder = urlgrep::Finder::new();
    let mut found = false;
    let mut error = false;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for path in std::env::args_os().skip(1) {
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("urlgrep: {}: {e}", path.to_string_lossy());
                error = true;
                continue;
            }
        };
        for m in finder.reader_iter(file) {
            match m {
                Ok(m) => {
                    found = true;
                    let _ = out.write_all(m.m.url());
                    let _ = out.write_all(b"\n");
                }
                Err(e) => {
                    eprintln!("urlgrep: {}: {e}", path.to_string_lossy());
                    error = true;
                    break;
                }
            }
        }
    }
    if error {
        2
    } else if found {
        0
    } else {
        1
    }
}
