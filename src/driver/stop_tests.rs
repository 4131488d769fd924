//! A report that stops wanting an input ([`Report::wants`], grep's `-m`):
//! the driver stops reading it, on every path (a stream, a sliced file,
//! a file the worker found big), and reads the inputs after it in full.

use super::config::Driver;
use super::report::{Hit, InputDone, Report, Wants};
use crate::container::MailMode;
use crate::input::{self, Input, InputError};
use crate::search::Finder;
use std::io::{self, Write};

/// Wants `max` hits of each input (or of the run, with `all`).
struct Max {
    max: usize,
    all: bool,
    cur: usize,
    hits: Vec<String>,
    /// The bytes searched of each input, as its `end` says.
    ends: Vec<u64>,
}

impl Max {
    fn new(max: usize, all: bool) -> Max {
        Max { max, all, cur: 0, hits: Vec::new(), ends: Vec::new() }
    }
}

impl Report for Max {
    fn begin(&mut self, _: &Input) -> io::Result<()> {
        if !self.all {
            self.cur = 0;
        }
        Ok(())
    }
    fn hit(&mut self, _: &Input, h: &Hit<'_>) -> io::Result<()> {
        if self.cur < self.max {
            self.cur += 1;
            self.hits.push(String::from_utf8_lossy(h.url).into_owned());
        }
        Ok(())
    }
    fn error(&mut self, err: &InputError) -> io::Result<()> {
        Err(io::Error::other(err.to_string()))
    }
    fn warning(&mut self, _: &Input, _: u64, _: &str) -> io::Result<()> {
        Ok(())
    }
    fn end(&mut self, _: &Input, d: &InputDone) -> io::Result<()> {
        self.ends.push(d.bytes);
        Ok(())
    }
    fn wants(&self) -> Wants {
        match (self.cur >= self.max, self.all) {
            (false, _) => Wants::All,
            (true, false) => Wants::NextInput,
            (true, true) => Wants::Nothing,
        }
    }
    fn may_stop(&self) -> bool {
        true
    }
}

/// 16 MiB of lines, each with one URL (numbered).
fn lines() -> Vec<u8> {
    let mut t = Vec::with_capacity(17 << 20);
    let mut i = 0;
    while t.len() < 16 << 20 {
        writeln!(t, "line {i:07} of the text, see http://h{i}.example/p")
            .unwrap();
        i += 1;
    }
    t
}

/// `text` as gzip of stored blocks (quick to write in a debug build).
fn gzip(text: &[u8]) -> Vec<u8> {
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
    gz.write_all(text).unwrap();
    gz.finish().unwrap()
}

/// Runs `report` over `paths` with `threads` workers and slices of
/// `slice` bytes.
fn run(
    paths: &[std::path::PathBuf],
    threads: usize,
    slice: usize,
    mode: MailMode,
    skip_stat: bool,
    report: &mut Max,
) {
    let d = Driver::builder()
        .threads(threads)
        .slice_size(slice)
        .mail_mode(mode)
        .build(Finder::new());
    let opts = input::WalkOptions { skip_stat, ..Default::default() };
    d.run(input::walk(paths, opts), report).unwrap();
}

/// Issue 34.7: `-m 3` read the whole of each input. A stream (gzip), a
/// sliced file and a file the worker found big now stop once the report
/// wants no more: at most a few windows read of 16 MiB, and the next
/// input (a copy) searched the same way; the hits are the first three.
#[test]
fn an_input_is_read_no_further_than_the_report_wants() {
    let dir = tempfile::tempdir().unwrap();
    let text = lines();
    let plain = dir.path().join("a.txt");
    let gz = dir.path().join("b.gz");
    std::fs::write(&plain, &text).unwrap();
    std::fs::write(&gz, gzip(&text)).unwrap();
    let paths = [plain, gz];
    let first: Vec<String> =
        (0..3).map(|i| format!("http://h{i}.example/p")).collect();
    for threads in [1, 2] {
        for skip_stat in [false, true] {
            for mode in [MailMode::Off, MailMode::Auto] {
                let mut r = Max::new(3, false);
                run(&paths, threads, 1 << 20, mode, skip_stat, &mut r);
                let what = format!("{threads} {skip_stat} {mode:?}");
                assert_eq!(r.ends.len(), 2, "{what}");
                for (k, &bytes) in r.ends.iter().enumerate() {
                    assert!(bytes < 2 << 20, "{what}: input {k}: {bytes}");
                }
                let want: Vec<String> =
                    first.iter().chain(&first).cloned().collect();
                assert_eq!(r.hits, want, "{what}");
            }
        }
    }
}

/// [`Wants::Nothing`] ends the run, `Ok`: the second input is not
/// begun.
#[test]
fn a_report_that_wants_nothing_ends_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let text = lines();
    let gz = dir.path().join("a.gz");
    let other = dir.path().join("b.txt");
    std::fs::write(&gz, gzip(&text)).unwrap();
    std::fs::write(&other, b"http://other.example/\n").unwrap();
    let mut r = Max::new(1, true);
    run(&[gz, other], 1, 1 << 20, MailMode::Off, false, &mut r);
    assert_eq!(r.hits, ["http://h0.example/p"]);
    assert!(r.ends.len() <= 1, "{:?}", r.ends);
}
