//! Parse cost per URL on real http(s) URLs from the corpora
//! (`tests/data/parse-http.txt`, provenance in its header), with the `url`
//! crate (WHATWG) beside it for scale.
//!
//! Run: `cargo bench --bench parse`. Each bench confirms that the expected
//! number of URLs is accepted.

use criterion::{
    black_box, criterion_group, criterion_main, Criterion, Throughput,
};
use urlgrep::parse::{self, Url};

const DATA: &str = include_str!("../tests/data/parse-http.txt");

fn urls() -> Vec<&'static [u8]> {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(str::as_bytes)
        .collect()
}

fn corpus(c: &mut Criterion) {
    let all = urls();
    let accepted: Vec<_> =
        all.iter().copied().filter(|u| Url::parse(u).is_ok()).collect();
    let n_ok = accepted.len();
    assert!(
        n_ok > all.len() * 9 / 10,
        "only {n_ok} of {} accepted",
        all.len()
    );

    let mut g = c.benchmark_group("parse-corpus");
    g.throughput(Throughput::Elements(all.len() as u64));
    g.bench_function("validate", |b| {
        b.iter(|| {
            let n = all
                .iter()
                .filter(|u| parse::validate(black_box(u), false).is_ok())
                .count();
            assert_eq!(n, n_ok);
        })
    });
    g.bench_function("Url::parse", |b| {
        b.iter(|| {
            let n = all
                .iter()
                .filter(|u| Url::parse(black_box(u)).is_ok())
                .count();
            assert_eq!(n, n_ok);
        })
    });
    let strs: Vec<&str> =
        accepted.iter().filter_map(|u| std::str::from_utf8(u).ok()).collect();
    g.throughput(Throughput::Elements(strs.len() as u64));
    g.bench_function("url-crate-accepted", |b| {
        b.iter(|| {
            let n = strs
                .iter()
                .filter(|u| url::Url::parse(black_box(u)).is_ok())
                .count();
            assert_eq!(n, strs.len());
        })
    });
    g.finish();
}

fn typical(c: &mut Criterion) {
    let mut g = c.benchmark_group("parse-one");
    g.throughput(Throughput::Elements(1));
    for (name, u) in [
        ("short", &b"http://www.python.org/~guido/patch/"[..]),
        (
            "typical",
            b"http://mail.python.org/pipermail/python-dev/2000-March/002940.html",
        ),
        ("query", b"https://www.example.com/cgi-bin/search?q=rfc+1738&lang=en"),
        // The most common mailto shape in list mail (SpamAssassin spool).
        ("mailto", b"mailto:exmh-workers-request@spamassassin.taint.org?subject=help"),
    ] {
        assert!(Url::parse(u).is_ok());
        g.bench_function(name, |b| {
            b.iter(|| parse::validate(black_box(u), false).is_ok())
        });
    }
    g.finish();
}

criterion_group!(benches, corpus, typical);
criterion_main!(benches);
