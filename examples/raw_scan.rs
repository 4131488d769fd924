//! Profiling driver (not a bench): the raw scan over every file under the
//! given folders, `Finder::find_iter` counted, as benches/linkify.rs times it.
//!
//! Run: `cargo run --profile profiling --example raw_scan -- DIR [ROUNDS]`

use std::path::Path;
use urlgrep::Finder;

#[path = "shared/walk.rs"]
mod walk;

fn main() {
    let mut args = std::env::args_os().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: raw_scan DIR [ROUNDS]");
        std::process::exit(2);
    };
    let rounds: usize = args
        .next()
        .and_then(|r| r.to_str().and_then(|r| r.parse().ok()))
        .unwrap_or(1);
    let mut texts = Vec::new();
    if let Err(e) = walk::each_file(Path::new(&dir), &mut |p: &Path| {
        if let Ok(b) = std::fs::read(p) {
            texts.push(b);
        }
        Ok(())
    }) {
        eprintln!("raw_scan: {e}");
        std::process::exit(2);
    }
    let finder = Finder::new();
    let mut n = 0usize;
    for _ in 0..rounds {
        n += texts.iter().map(|t| finder.find_iter(t).count()).sum::<usize>();
    }
    let bytes: usize = texts.iter().map(Vec::len).sum();
    println!("{} files, {bytes} bytes, {n} URLs", texts.len());
}
