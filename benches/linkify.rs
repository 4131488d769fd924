//! Issue 21's in-memory target: the raw scan over the SpamAssassin bytes
//! against the `linkify` crate over the same bytes, in the same thread.
//!
//! Both count URLs with a scheme, message by message: urlgrep's
//! [`Finder::find_iter`] over the bytes as they are; linkify's
//! `LinkFinder` (kinds `Url`) over each message converted once, before
//! timing, with `String::from_utf8_lossy` (linkify reads `&str` only).
//! Leaving that conversion out of the timed loop is linkify's best case.
//! The two counts differ (the grammars differ); each bench asserts its
//! own count, computed before timing.
//!
//! Run: `nice -n 19 cargo bench --bench linkify`.

// Only `root` and `members`: the bench reads one tarball.
#[allow(dead_code)]
mod corpus;

use criterion::{Criterion, Throughput};
use linkify::{LinkFinder, LinkKind};
use std::time::Duration;
use urlgrep::Finder;

fn main() {
    let Some(root) = corpus::root() else {
        eprintln!("linkify bench: ../shared/corpora is absent; skipped");
        return;
    };
    let tarball = root.join("spamassassin/spamassassin-public-corpus.tar.gz");
    let messages: Vec<Vec<u8>> = match corpus::members(&tarball) {
        Ok(m) => m.into_iter().map(|(_, bytes)| bytes).collect(),
        Err(e) => {
            eprintln!("linkify bench: cannot read {}: {e}", tarball.display());
            return;
        }
    };
    let texts: Vec<String> = messages
        .iter()
        .map(|m| String::from_utf8_lossy(m).into_owned())
        .collect();
    let bytes: usize = messages.iter().map(Vec::len).sum();

    let finder = Finder::new();
    let ours = || -> usize {
        messages.iter().map(|m| finder.find_iter(m).count()).sum()
    };
    let mut links = LinkFinder::new();
    links.kinds(&[LinkKind::Url]);
    let theirs =
        || -> usize { texts.iter().map(|t| links.links(t).count()).sum() };
    let (want_ours, want_theirs) = (ours(), theirs());
    eprintln!(
        "linkify bench: {} messages, {bytes} bytes; urlgrep {want_ours} \
         URLs, linkify {want_theirs}",
        messages.len()
    );

    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .configure_from_args();
    let mut g = c.benchmark_group("in-memory/spamassassin");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("urlgrep", |b| b.iter(|| assert_eq!(ours(), want_ours)));
    g.bench_function("linkify", |b| {
        b.iter(|| assert_eq!(theirs(), want_theirs))
    });
    g.finish();
    c.final_summary();
}
