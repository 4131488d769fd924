//! Times the mail scan against the raw scan on the same bytes in memory:
//!
//! ```text
//! cargo run --release --example mail_bench -- DIR...
//! ```
//!
//! Each DIR is read into memory (every file, as the driver would), then
//! scanned 7 times raw (`Finder::find_iter` over each file) and 7 times
//! with `MailFinder::find`; the best CPU time of each is printed with the
//! URL counts and the ratio.

use std::time::{Duration, Instant};
use urlgrep::mail::{Format, MailFinder, MailMatch};

/// CPU time of this thread in nanoseconds (Linux: the first field of
/// `/proc/thread-self/schedstat`), so that other jobs on a shared machine
/// do not count; wall time elsewhere.
fn cpu_ns(wall: Instant) -> u128 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| wall.elapsed().as_nanos())
}

fn best<F: FnMut() -> usize>(mut f: F) -> (Duration, usize) {
    let mut best = u128::MAX;
    let mut n = 0;
    let origin = Instant::now();
    for _ in 0..7 {
        let t = cpu_ns(origin);
        n = f();
        best = best.min(cpu_ns(origin) - t);
    }
    (Duration::from_nanos(best as u64), n)
}

fn main() -> std::io::Result<()> {
    let finder = urlgrep::Finder::new();
    let mut b = MailFinder::builder();
    b.headers(std::env::var_os("NO_HEADERS").is_none());
    let mail = b.build(finder.clone());
    for dir in std::env::args().skip(1) {
        let mut files = Vec::new();
        for e in walkdir::WalkDir::new(&dir).into_iter().filter_map(Result::ok)
        {
            if e.file_type().is_file() {
                files.push(std::fs::read(e.path())?);
            }
        }
        let bytes: usize = files.iter().map(Vec::len).sum();
        let (raw, raw_n) =
            best(|| files.iter().map(|f| finder.find_iter(f).count()).sum());
        let (dec, dec_n) = best(|| {
            let mut n = 0;
            for f in &files {
                let format = match Format::sniff(f) {
                    Format::Unknown => Format::Message,
                    x => x,
                };
                let Ok(()) = mail.find(f, format, &mut |_: &MailMatch<'_>| {
                    n += 1;
                    true
                });
            }
            n
        });
        let mb = bytes as f64 / 1e6;
        println!(
            "{dir}: {} files, {mb:.1} MB | raw {:.1} ms ({:.0} MB/s, {raw_n} URLs) | mail {:.1} ms ({:.0} MB/s, {dec_n} URLs) | mail/raw {:.2}",
            files.len(),
            raw.as_secs_f64() * 1e3,
            mb / raw.as_secs_f64(),
            dec.as_secs_f64() * 1e3,
            mb / dec.as_secs_f64(),
            dec.as_secs_f64() / raw.as_secs_f64(),
        );
    }
    Ok(())
}
