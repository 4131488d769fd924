//! Profiling driver (not a bench): the raw scan over every file under the
//! given folders, `Finder::find_iter` counted, as benches/linkify.rs times it.
//!
//! Run: `cargo run --profile profiling --example raw_scan -- DIR [ROUNDS]
//! [FIND]`; FIND names the detectors as `--find` does (`all`, `email`, …;
//! default none). ROUNDS 0 prints instead, for output comparisons
//! between builds: every match of `Finder::find_iter` (span, kind,
//! flags, URL) and every candidate of `Finder::candidates`, its reject
//! reason included. With `RAW_SCAN_CANDIDATES` set in the environment
//! the rounds count `Finder::candidates` (every candidate, the driver's
//! path) instead of `Finder::find_iter`.

use std::path::Path;
use urlgrep::{Finder, Finds};

#[path = "shared/walk.rs"]
mod walk;

fn main() {
    let mut args = std::env::args_os().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: raw_scan DIR [ROUNDS] [FIND]");
        std::process::exit(2);
    };
    let rounds: usize = args
        .next()
        .and_then(|r| r.to_str().and_then(|r| r.parse().ok()))
        .unwrap_or(1);
    let mut finds = Finds::NONE;
    if let Some(names) = args.next() {
        for name in names.to_string_lossy().split(',') {
            match Finds::from_name(name) {
                Some(f) => finds = finds.union(f),
                None => {
                    eprintln!("raw_scan: no detector {name}");
                    std::process::exit(2);
                }
            }
        }
    }
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
    let finder = Finder::builder().find(finds).build();
    if rounds == 0 {
        dump(&finder, &texts);
        return;
    }
    // With RAW_SCAN_CANDIDATES set, every candidate is counted
    // (`Finder::candidates`, the driver's path), rejects included.
    let all = std::env::var_os("RAW_SCAN_CANDIDATES").is_some();
    let mut n = 0usize;
    for _ in 0..rounds {
        n += texts
            .iter()
            .map(|t| match all {
                true => finder.candidates(t).count(),
                false => finder.find_iter(t).count(),
            })
            .sum::<usize>();
    }
    let bytes: usize = texts.iter().map(Vec::len).sum();
    println!("{} files, {bytes} bytes, {n} URLs", texts.len());
}

/// The matches and candidates of every text, one a line, the fields
/// split by tabs (a match's reject is `None`, an accepted candidate's).
fn dump(finder: &Finder, texts: &[Vec<u8>]) {
    use std::io::Write;
    let out = std::io::stdout();
    let mut out = std::io::BufWriter::new(out.lock());
    let mut line =
        |tag: &str, k: usize, m: &urlgrep::Match<'_>, why: String| {
            let s = m.span();
            let url = String::from_utf8_lossy(m.url());
            let (kind, flags) = (m.kind(), m.flags());
            let host =
                m.host().map(|h| String::from_utf8_lossy(h).into_owned());
            writeln!(
                out,
                "{tag}\t{k}\t{}-{}\t{why}\t{kind}\t{flags:?}\t{host:?}\t{url}",
                s.start, s.end
            )
        };
    for (k, t) in texts.iter().enumerate() {
        for m in finder.find_iter(t) {
            if line("match", k, &m, "None".into()).is_err() {
                return;
            }
        }
        for c in finder.candidates(t) {
            let why = format!("{:?}", c.reject());
            if line("cand", k, c.as_match(), why).is_err() {
                return;
            }
        }
    }
}
