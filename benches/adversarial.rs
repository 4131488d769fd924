//! Throughput on adversarial inputs next to ordinary mail: no input may
//! make the search superlinear. Each bench asserts the count it expects.
//!
//! ```text
//! cargo bench --bench adversarial
//! ```
//!
//! Mail is the SpamAssassin public corpus from `../shared/corpora`
//! (skipped with a message when absent), read with `tar -xzOf`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::io;
use std::path::Path;
use std::process::Command;
use std::time::Duration;
use urlgrep::{Finder, Finds, Match, Position, Sink};

#[path = "adversarial/inputs.rs"]
mod inputs;

/// Size of each generated input.
const LEN: u64 = 16 << 20;

/// The SpamAssassin corpus as one mbox-like stream, if it is there.
fn mail() -> Option<Vec<u8>> {
    let tarball = Path::new(
        "../shared/corpora/spamassassin/spamassassin-public-corpus.tar.gz",
    );
    if !tarball.exists() {
        eprintln!(
            "adversarial bench: {} absent, mail skipped",
            tarball.display()
        );
        return None;
    }
    let out = Command::new("tar").arg("-xzOf").arg(tarball).output().ok()?;
    if !out.status.success() {
        eprintln!("adversarial bench: tar failed, mail skipped");
        return None;
    }
    Some(out.stdout)
}

struct Count(u64);

impl Sink for Count {
    type Error = io::Error;

    fn matched(&mut self, _: &Position, _: &Match<'_>) -> io::Result<bool> {
        self.0 += 1;
        Ok(true)
    }
}

fn reader_count(finder: &Finder, hay: &[u8]) -> u64 {
    let mut count = Count(0);
    if let Err(e) = finder.find_reader(hay, &mut count) {
        panic!("reading a slice failed: {e}");
    }
    count.0
}

/// The inputs also searched with every detector on (`--find all`).
const FIND_ALL: &[&str] =
    &["mail", "colons", "no-tld", "quote-http", "colon-slash"];

fn bench(c: &mut Criterion) {
    let default = Finder::new();
    let all = Finder::builder().find(Finds::ALL).build();
    let mut cases: Vec<(String, Vec<u8>)> = Vec::new();
    if let Some(m) = mail() {
        cases.push(("mail".into(), m));
    }
    for name in inputs::NAMES {
        match inputs::Gen::bytes(name, LEN) {
            Some(v) => cases.push((name.to_string(), v)),
            None => panic!("no input {name}"),
        }
    }
    let mut group = c.benchmark_group("adversarial");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, hay) in &cases {
        let finders = match FIND_ALL.contains(&name.as_str()) {
            true => vec![("", &default), ("find-all/", &all)],
            false => vec![("", &default)],
        };
        for (tag, finder) in finders {
            let want = finder.find_iter(hay).count() as u64;
            assert_eq!(reader_count(finder, hay), want, "{tag}{name}");
            group.throughput(Throughput::Bytes(hay.len() as u64));
            group.bench_function(format!("slice/{tag}{name}"), |b| {
                b.iter(|| {
                    assert_eq!(finder.find_iter(hay).count() as u64, want)
                })
            });
            group.bench_function(format!("reader/{tag}{name}"), |b| {
                b.iter(|| assert_eq!(reader_count(finder, hay), want))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
