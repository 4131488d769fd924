//! Where the shared corpora are, and the one rule for tests that need
//! them (issue 34.10): a test whose data is absent says
//! `SKIPPED: … absent` on stderr, past libtest's capture so that a plain
//! `cargo test` shows it, and passes; under CI (`CI` set, as for the
//! progress bar) it fails instead, so that no run there passes without
//! its data. `URLGREP_SHARED` names the shared folder in place of
//! `../shared` beside the repository.

#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;

/// The shared folder: `$URLGREP_SHARED`, else `../shared`.
pub fn root() -> PathBuf {
    match std::env::var_os("URLGREP_SHARED") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// `rel` under the shared folder (`corpora/rfc`), or `None` when it is
/// absent: said on stderr, or a panic under CI.
pub fn path(rel: &str) -> Option<PathBuf> {
    let path = root().join(rel);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} is absent, and CI is set: the corpora tests would pass \
         without their data (set URLGREP_SHARED to the shared folder)",
        path.display()
    );
    // Straight to the handle: `eprintln!` is captured by libtest and
    // shown only for a failing test.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {} absent (set URLGREP_SHARED to the shared folder)",
        path.display()
    );
    None
}
