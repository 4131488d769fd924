//! Scanner throughput, one criterion group per corpus shape, beside the
//! memory floor: a SIMD count of `:` (`memchr`) and of `://` (`memmem`)
//! over the same bytes.
//!
//! Every bench asserts its expected count inside the timed closure; the
//! count is computed once beforehand with the naive trigger search (the
//! oracle) and must equal the SIMD one. The corpora are built in memory
//! from `../shared/corpora`; without them the bench says so and exits.
//!
//! Run: `nice -n 19 cargo bench --bench scan` (or a group:
//! `cargo bench --bench scan -- spool`).

mod corpus;

use criterion::{BenchmarkGroup, Criterion, Throughput};
use std::io;
use std::time::Duration;
use urlgrep::{Finder, Match, Position, Sink, Triggers};

/// Counts the matches of a reader search.
struct Count(usize);

impl Sink for Count {
    type Error = io::Error;

    fn matched(&mut self, _: &Position, _: &Match<'_>) -> io::Result<bool> {
        self.0 += 1;
        Ok(true)
    }
}

fn slice_count(finder: &Finder, hay: &[u8]) -> usize {
    finder.find_iter(hay).count()
}

fn reader_count(finder: &Finder, hay: &[u8]) -> usize {
    let mut sink = Count(0);
    match finder.find_reader(hay, &mut sink) {
        Ok(()) => sink.0,
        Err(e) => panic!("reading a slice failed: {e}"),
    }
}

fn colons(hay: &[u8]) -> usize {
    memchr::memchr_iter(b':', hay).count()
}

fn slashes(hay: &[u8]) -> usize {
    memchr::memmem::find_iter(hay, b"://").count()
}

/// The finders under test: SIMD triggers (timed), naive (the oracle) and
/// every colon a trigger (the oracle of the trigger test).
struct Finders {
    simd: Finder,
    naive: Finder,
    every: Finder,
}

/// The count of `f` over every part, SIMD checked against naive.
fn expected(
    name: &str,
    finders: &Finders,
    parts: &[&[u8]],
    f: fn(&Finder, &[u8]) -> usize,
) -> usize {
    let simd: usize = parts.iter().map(|p| f(&finders.simd, p)).sum();
    let naive: usize = parts.iter().map(|p| f(&finders.naive, p)).sum();
    assert_eq!(simd, naive, "{name}: SIMD and naive triggers disagree");
    let every: usize = parts.iter().map(|p| f(&finders.every, p)).sum();
    assert_eq!(simd, every, "{name}: filtered and all colons disagree");
    simd
}

/// Adds the urlgrep and floor benches over `parts` (searched one by one)
/// to a group.
fn shape(
    c: &mut Criterion,
    group_name: &str,
    finders: &Finders,
    parts: &[&[u8]],
    reader: bool,
) {
    let bytes: usize = parts.iter().map(|p| p.len()).sum();
    let mut g = c.benchmark_group(group_name);
    g.throughput(Throughput::Bytes(bytes as u64));
    let urls = expected(group_name, finders, parts, slice_count);
    eprintln!("{group_name}: {bytes} bytes, {urls} URLs");
    bench(&mut g, "urlgrep/slice", parts, urls, |p| {
        slice_count(&finders.simd, p)
    });
    if reader {
        let n = expected(group_name, finders, parts, reader_count);
        assert_eq!(n, urls, "{group_name}: reader and slice disagree");
        bench(&mut g, "urlgrep/reader", parts, urls, |p| {
            reader_count(&finders.simd, p)
        });
    }
    let n: usize = parts.iter().map(|p| colons(p)).sum();
    bench(&mut g, "floor/memchr-colon", parts, n, colons);
    let n: usize = parts.iter().map(|p| slashes(p)).sum();
    bench(&mut g, "floor/memmem-scheme-slashes", parts, n, slashes);
    g.finish();
}

fn bench(
    g: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: &str,
    parts: &[&[u8]],
    want: usize,
    f: impl Fn(&[u8]) -> usize,
) {
    g.bench_function(id, |b| {
        b.iter(|| {
            let n: usize = parts.iter().map(|p| f(p)).sum();
            assert_eq!(n, want);
            n
        })
    });
}

fn main() {
    let Some(root) = corpus::root() else {
        eprintln!("scan bench: ../shared/corpora is absent; skipped");
        return;
    };
    let corpora = match corpus::Corpora::load(&root) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("scan bench: cannot load the corpora: {e}; skipped");
            return;
        }
    };
    let finders = Finders {
        simd: Finder::builder().triggers(Triggers::Simd).build(),
        naive: Finder::builder().triggers(Triggers::Naive).build(),
        every: Finder::builder().triggers(Triggers::EveryColon).build(),
    };
    let mut c = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .configure_from_args();
    let messages: Vec<&[u8]> =
        corpora.messages.iter().map(|m| &m[..]).collect();
    shape(&mut c, "spool", &finders, &[&corpora.spool], true);
    shape(&mut c, "many-files", &finders, &messages, false);
    shape(&mut c, "no-urls", &finders, &[&corpora.news], false);
    shape(&mut c, "url-dense", &finders, &[&corpora.dense], false);
    shape(&mut c, "wrappers", &finders, &[&corpora.rfcs], false);
    c.final_summary();
}
