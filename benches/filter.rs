//! Host lists of many domains (issue 17): the hash set of label suffixes
//! that `urlgrep::filter` uses, against an aho-corasick automaton over
//! the reversed domains, anchored at label boundaries.
//!
//! The automaton holds `reverse("." + domain)` for each domain and is
//! searched, anchored, in `reverse("." + host)`: a match is a listed
//! domain that ends the host at a label boundary. Both sides lower-case
//! and check the host first, as `Filter::keep` does.
//!
//! Run: `cargo bench --bench filter`. Before the criterion groups it
//! prints, once, the load time of 1,000,000 generated domains into each
//! structure and their size. Each bench asserts the expected number of
//! kept hosts.

use aho_corasick::{AhoCorasick, Anchored, Input, MatchKind, StartKind};
use criterion::{
    black_box, criterion_group, criterion_main, Criterion, Throughput,
};
use std::time::Instant;
use urlgrep::filter::Filter;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn label(&mut self) -> String {
        const ABC: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789-";
        let len = 4 + self.below(11) as usize;
        let mut s = String::with_capacity(len);
        for i in 0..len {
            let n = if i == 0 || i == len - 1 { 36 } else { 37 };
            s.push(char::from(ABC[self.below(n) as usize]));
        }
        s
    }
}

const TLDS: &[&str] =
    &["com", "net", "org", "info", "ru", "de", "co.uk", "xyz", "top", "cn"];

/// `n` generated domains, as a blocklist feed would have them: a name
/// under a TLD, a fifth with one more label.
fn domains(n: usize, seed: u64) -> Vec<String> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let tld = TLDS[rng.below(TLDS.len() as u64) as usize];
            if rng.below(5) == 0 {
                format!("{}.{}.{tld}", rng.label(), rng.label())
            } else {
                format!("{}.{tld}", rng.label())
            }
        })
        .collect()
}

/// Hosts to look up: a quarter listed domains, a quarter subdomains of
/// them (some upper-case, some with a trailing dot), half hosts not
/// listed. Returns the hosts and how many are kept.
fn hosts(list: &[String], n: usize) -> (Vec<String>, usize) {
    let mut rng = Rng(7);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let d = &list[rng.below(list.len() as u64) as usize];
        out.push(match i % 4 {
            0 => d.clone(),
            1 if i % 3 == 0 => format!("WWW.{}.", d.to_uppercase()),
            1 => format!("{}.{d}", rng.label()),
            // Lookalikes: the domain's label run into another.
            2 => format!("{}{d}", rng.label()),
            _ => format!("www.{}.{}", rng.label(), TLDS[i % TLDS.len()]),
        });
    }
    (out, n / 2)
}

fn hash_set(list: &[String]) -> Filter {
    let text = list.join("\n");
    let mut b = Filter::builder();
    b.host_list(text.as_bytes(), "generated").expect("domains");
    b.build().expect("a filter")
}

fn automaton(list: &[String]) -> AhoCorasick {
    let reversed = list.iter().map(|d| {
        let mut r: Vec<u8> = d.bytes().rev().collect();
        r.push(b'.');
        r
    });
    AhoCorasick::builder()
        .start_kind(StartKind::Anchored)
        .match_kind(MatchKind::Standard)
        .build(reversed)
        .expect("an automaton")
}

/// The automaton's look-up, with the checks and lower-casing the hash
/// set's look-up does (`Name::parse` for LDH text).
fn in_automaton(ac: &AhoCorasick, host: &[u8], rev: &mut Vec<u8>) -> bool {
    let host = host.strip_suffix(b".").unwrap_or(host);
    if host.is_empty()
        || !host
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
    {
        return false;
    }
    rev.clear();
    rev.extend(host.iter().rev().map(u8::to_ascii_lowercase));
    rev.push(b'.');
    ac.find(Input::new(rev.as_slice()).anchored(Anchored::Yes)).is_some()
}

/// Resident memory in bytes, from /proc (0 elsewhere).
fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// CPU time of this thread, from /proc (zero elsewhere): the machine
/// may be shared, and wall time then overstates the work.
fn cpu() -> std::time::Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(std::time::Duration::ZERO, std::time::Duration::from_nanos)
}

/// One load of 1,000,000 domains into each structure, printed.
fn load_once() {
    let list = domains(1_000_000, 42);
    let text = list.join("\n");
    let before = rss();
    let (t, c) = (Instant::now(), cpu());
    let mut b = Filter::builder();
    b.host_list(text.as_bytes(), "generated").expect("domains");
    let f = b.build().expect("a filter");
    let hash_time = (t.elapsed(), cpu() - c);
    let hash_rss = rss().saturating_sub(before);
    let (t, c) = (Instant::now(), cpu());
    let ac = automaton(&list);
    let ac_time = (t.elapsed(), cpu() - c);
    eprintln!(
        "load 1,000,000 domains ({:.1} MiB of text): hash set {:.0} ms \
         ({:.0} ms CPU), +{:.1} MiB resident; aho-corasick {:.0} ms \
         ({:.0} ms CPU), {:.1} MiB heap ({:?})",
        text.len() as f64 / (1 << 20) as f64,
        hash_time.0.as_secs_f64() * 1e3,
        hash_time.1.as_secs_f64() * 1e3,
        hash_rss as f64 / (1 << 20) as f64,
        ac_time.0.as_secs_f64() * 1e3,
        ac_time.1.as_secs_f64() * 1e3,
        ac.memory_usage() as f64 / (1 << 20) as f64,
        ac.kind(),
    );
    drop((f, ac));
}

fn lookup(c: &mut Criterion) {
    load_once();
    for (name, n) in [("100k", 100_000), ("1M", 1_000_000)] {
        let list = domains(n, 42);
        let (queries, kept) = hosts(&list, 10_000);
        let f = hash_set(&list);
        let ac = automaton(&list);
        let mut g = c.benchmark_group(format!("filter-lookup-{name}"));
        g.throughput(Throughput::Elements(queries.len() as u64));
        g.bench_function("hash-set", |b| {
            b.iter(|| {
                let n = queries
                    .iter()
                    .filter(|h| f.keep(b"", Some(black_box(h.as_bytes()))))
                    .count();
                assert_eq!(n, kept);
            })
        });
        g.bench_function("aho-corasick", |b| {
            let mut rev = Vec::new();
            b.iter(|| {
                let n = queries
                    .iter()
                    .filter(|h| {
                        in_automaton(&ac, black_box(h.as_bytes()), &mut rev)
                    })
                    .count();
                assert_eq!(n, kept);
            })
        });
        g.finish();
    }
}

fn load(c: &mut Criterion) {
    let list = domains(100_000, 42);
    let mut g = c.benchmark_group("filter-load-100k");
    g.sample_size(10);
    g.throughput(Throughput::Elements(list.len() as u64));
    g.bench_function("hash-set", |b| b.iter(|| hash_set(black_box(&list))));
    g.bench_function("aho-corasick", |b| {
        b.iter(|| automaton(black_box(&list)))
    });
    g.finish();
}

criterion_group!(benches, lookup, load);
criterion_main!(benches);
