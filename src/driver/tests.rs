//! The driver's tests: slices, walks, streams and parts against whole
//! files.

use super::batch::{Batch, Parts};
use super::config::Driver;
use super::how::read_head;
use super::report::{Hit, InputDone, Report};
use crate::container::Containers;
use crate::container::MailMode;
use crate::input::Source;
use crate::input::{self, Input, InputError};
use crate::search::buffer::Buffer;
use crate::search::Finder;
use std::fs::File;
use std::io;
use std::io::Read;
use std::io::Write;

/// What a report saw, as comparable values.
#[derive(Default)]
struct Record(Vec<String>);

impl Report for Record {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.0.push(format!("begin {:?}", input.source));
        Ok(())
    }
    fn hit(&mut self, _: &Input, h: &Hit<'_>) -> io::Result<()> {
        self.0.push(format!(
            "{} {} {} {} {:?} {:?}",
            h.at.start,
            h.at.end,
            h.at.line,
            h.at.column,
            String::from_utf8_lossy(h.url),
            h.reject
        ));
        Ok(())
    }
    fn error(&mut self, err: &InputError) -> io::Result<()> {
        self.0.push(format!("error {err}"));
        Ok(())
    }
    fn warning(&mut self, _: &Input, at: u64, what: &str) -> io::Result<()> {
        self.0.push(format!("warning {at} {what}"));
        Ok(())
    }
    fn end(&mut self, _: &Input, d: &InputDone) -> io::Result<()> {
        self.0.push(format!("end {} {:?}", d.bytes, d.messages));
        Ok(())
    }
}

/// A regular file named on the command line (not walked), of `size`
/// bytes when the walk saw it.
pub(super) fn file_input(path: &std::path::Path, size: Option<u64>) -> Input {
    Input {
        source: Source::Path(path.to_path_buf()),
        size,
        regular: true,
        walked: false,
        anchor: None,
    }
}

fn text() -> Vec<u8> {
    let mut t = Vec::new();
    for i in 0..400 {
        write!(
            t,
            "line {i} http://h{i}.example/p <URL:http://w{i}.exa\n  \
             mple/q{i}> x:y http://bad:99999/ \"ftp://q.r/\n s\"\n\
             > > <URL:http://quoted.example/a-\n> > b>\n"
        )
        .unwrap();
    }
    t
}

fn run(path: &std::path::Path, threads: usize, slice: usize) -> Vec<String> {
    let d = Driver::builder()
        .threads(threads)
        .slice_size(slice)
        .build(Finder::new());
    let inputs = input::walk(&[path.to_path_buf()], Default::default());
    let mut r = Record::default();
    d.run(inputs, &mut r).unwrap();
    r.0
}

#[test]
fn slices_equal_whole_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spool");
    std::fs::write(&path, text()).unwrap();
    let whole = run(&path, 1, 1 << 30);
    assert!(whole.len() > 1000, "{}", whole.len());
    for slice in [1, 2, 3, 7, 50, 64, 333, 4096] {
        for threads in [1, 3] {
            let got = run(&path, threads, slice);
            assert_eq!(got, whole, "slice {slice} threads {threads}");
        }
    }
}

/// A report that only counts rejected candidates.
#[derive(Default)]
struct CountsRejects {
    record: Record,
    counted: u64,
}

impl Report for CountsRejects {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.record.begin(input)
    }
    fn hit(&mut self, input: &Input, h: &Hit<'_>) -> io::Result<()> {
        self.record.hit(input, h)
    }
    fn error(&mut self, err: &InputError) -> io::Result<()> {
        self.record.error(err)
    }
    fn warning(&mut self, i: &Input, at: u64, what: &str) -> io::Result<()> {
        self.record.warning(i, at, what)
    }
    fn end(&mut self, input: &Input, d: &InputDone) -> io::Result<()> {
        self.record.end(input, d)
    }
    fn wants_rejects(&self) -> bool {
        false
    }
    fn rejects_counted(&mut self, _: &Input, n: u64) -> io::Result<()> {
        self.counted += n;
        Ok(())
    }
}

/// A report that only counts the rejected candidates is given their
/// number, and the matches as before, from a file whole and in slices
/// (issue 32: each reject was stored and reported to be counted).
#[test]
fn rejects_only_counted_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("spool");
    std::fs::write(&path, text()).unwrap();
    let whole = run(&path, 1, 1 << 30);
    let rejects = whole.iter().filter(|l| l.contains(" Some(")).count();
    assert!(rejects >= 400, "{rejects}");
    let matches: Vec<String> =
        whole.iter().filter(|l| !l.contains(" Some(")).cloned().collect();
    for (threads, slice) in [(1, 1 << 30), (3, 333), (2, 64), (1, 7)] {
        let d = Driver::builder()
            .threads(threads)
            .slice_size(slice)
            .build(Finder::new());
        let mut r = CountsRejects::default();
        let inputs =
            input::walk(std::slice::from_ref(&path), Default::default());
        d.run(inputs, &mut r).unwrap();
        assert_eq!(r.counted as usize, rejects, "{threads} {slice}");
        assert_eq!(r.record.0, matches, "{threads} {slice}");
    }
}

/// Candidates as long as the caps (and longer: too-long runs,
/// wrappers that never close) straddle slice ends.
#[test]
fn slices_equal_whole_file_at_the_length_caps() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long");
    let mut t = Vec::new();
    for n in [10usize, 60, 63, 64, 65, 200, 2000, 8190, 8200] {
        let seg = "a/".repeat(n / 2);
        writeln!(t, "x http://h.example/{seg} y").unwrap();
        writeln!(t, "<URL:http://w.example/{}>", "b\n ".repeat(n / 3))
            .unwrap();
        write!(t, "<URL:http://u.example/{} never closes\n\n", seg).unwrap();
    }
    std::fs::write(&path, &t).unwrap();
    for (wrapper, url) in [(2048, 8192), (32, 64), (100, 40)] {
        let finder = Finder::builder()
            .max_wrapper_len(wrapper)
            .max_url_len(url)
            .build();
        let get = |threads, slice| {
            let d = Driver::builder()
                .threads(threads)
                .slice_size(slice)
                .build(finder.clone());
            let mut r = Record::default();
            let inputs =
                input::walk(std::slice::from_ref(&path), Default::default());
            d.run(inputs, &mut r).unwrap();
            r.0
        };
        let whole = get(1, 1 << 30);
        assert!(whole.len() > 20, "{whole:?}");
        for slice in [1, 50, 333, 4000, 9000] {
            assert_eq!(
                get(2, slice),
                whole,
                "caps {wrapper}/{url}, slice {slice}"
            );
        }
    }
}

/// A folder walked without sizes: its big files are found big by
/// reading and searched in slices by the worker that found them
/// (with the pool's help); the report is the same as with sizes.
#[test]
fn folder_walked_without_sizes_equals_with_sizes() {
    let dir = tempfile::tempdir().unwrap();
    // Wrapped URLs whose second line holds a URL of its own: a
    // slice that starts there finds it unless it is scanned again
    // from where the wrapped one ended.
    let mut t = text();
    for i in 0..200 {
        write!(t, "<URL:http://a{i}.example/?u=\n http://b.example/>\n")
            .unwrap();
    }
    std::fs::write(dir.path().join("a-text"), t).unwrap();
    let mut mbox = Vec::new();
    for i in 0..300 {
        write!(
            mbox,
            "From a{i}@example.org Thu Aug 22 13:17:22 2002\n\
             Message-ID: <{i}@x>\nSubject: s http://s{i}.example/\n\n\
             body http://b{i}.example/p <URL:http://w{i}.exa\n  \
             mple/> {}\n\n",
            "x ".repeat(i % 40)
        )
        .unwrap();
    }
    std::fs::write(dir.path().join("b-spool"), &mbox).unwrap();
    let mut enc =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&text()).unwrap();
    let sub = dir.path().join("c-sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("gz"), enc.finish().unwrap()).unwrap();
    std::fs::write(sub.join("small"), "x http://small.example/\n").unwrap();
    let get = |threads, slice, skip_stat, mode| {
        let mut b = Driver::builder();
        b.threads(threads).slice_size(slice).mail_mode(mode);
        let d = b.build(Finder::new());
        let opts = input::WalkOptions { skip_stat, ..Default::default() };
        let inputs = input::walk(&[dir.path().to_path_buf()], opts);
        if skip_stat {
            assert!(inputs.iter().all(|i| {
                i.as_ref().is_ok_and(|i| i.size.is_none() && i.regular)
            }));
        }
        let mut r = Record::default();
        d.run(inputs, &mut r).unwrap();
        r.0
    };
    for mode in [MailMode::Auto, MailMode::Off] {
        let want = get(1, 1 << 30, false, mode);
        assert!(want.len() > 2000, "{}", want.len());
        for slice in [64, 333, 4096, 70_000, 1 << 30] {
            for threads in [1, 3] {
                assert_eq!(get(threads, slice, false, mode), want);
                let got = get(threads, slice, true, mode);
                assert_eq!(got, want, "slice {slice} threads {threads}");
            }
        }
    }
}

/// A file of unknown size whose stated size is less than it holds
/// (Linux's /proc files say 0) is read to its end, not cut at it.
#[test]
fn pseudo_file_is_read_to_its_end() {
    let path = std::path::PathBuf::from("/proc/self/limits");
    let Ok(want) = std::fs::read(&path) else {
        eprintln!("skipped: no /proc/self/limits on this system");
        return;
    };
    assert!(want.len() > 64, "{}", want.len());
    let d = Driver::builder().threads(2).slice_size(16).build(Finder::new());
    let input = file_input(&path, None);
    let mut r = Record::default();
    d.run([Ok(input)], &mut r).unwrap();
    assert_eq!(r.0.last(), Some(&format!("end {} None", want.len())));
}

#[test]
fn compressed_equals_plain() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    let gz = dir.path().join("gz");
    std::fs::write(&plain, text()).unwrap();
    let mut enc =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&text()).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let a = run(&plain, 2, 1000);
    let b = run(&gz, 2, 1000);
    assert_eq!(a[1..], b[1..]);
}

#[test]
fn long_streams_are_reported_in_parts_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    let mut plain = Vec::new();
    for name in ["a", "b", "c"] {
        let text = format!("http://{name}.example/x\n").repeat(40_000);
        let mut enc = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        enc.write_all(text.as_bytes()).unwrap();
        let gz = dir.path().join(format!("{name}.gz"));
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let txt = dir.path().join(format!("{name}.txt"));
        std::fs::write(&txt, &text).unwrap();
        paths.push(gz);
        plain.push(txt);
    }
    let get = |paths: &[std::path::PathBuf], threads| {
        let d = Driver::builder().threads(threads).build(Finder::new());
        let mut r = Record::default();
        d.run(input::walk(paths, Default::default()), &mut r).unwrap();
        r.0.into_iter().filter(|l| !l.starts_with("begin")).collect::<Vec<_>>()
    };
    let want = get(&plain, 1);
    assert_eq!(want.len(), 3 * 40_001);
    assert_eq!(get(&paths, 3), want);
    assert_eq!(get(&paths, 1), want);
}

/// Parts that say the run stopped at the first one sent (its count).
struct Stop(usize);

impl Parts for Stop {
    fn send(&mut self, _: &Input, _: Box<Batch>) -> bool {
        self.0 += 1;
        false
    }
    fn due(&mut self) -> bool {
        true
    }
}

/// A part that says the run stopped (its output was closed) ends the
/// search of a big file and of a stream: one part is sent, not every
/// slice's or every 16 Ki matches'.
#[test]
fn a_stopped_run_stops_reading() {
    let dir = tempfile::tempdir().unwrap();
    let text = "http://a.example/x\n".repeat(100_000);
    let path = dir.path().join("big");
    std::fs::write(&path, &text).unwrap();
    let d = Driver::builder().threads(1).slice_size(4096).build(Finder::new());
    let input = file_input(&path, None);
    let mut stop = Stop(0);
    let file = File::open(&path).unwrap();
    let size = text.len() as u64;
    let mut buf = Buffer::default();
    d.search_big(&input, file, size, &mut buf, &mut stop);
    assert_eq!(stop.0, 1);
    let mut stop = Stop(0);
    let file = File::open(&path).unwrap();
    let (batch, _) = d.search_stream(&input, file, None, &mut stop);
    assert_eq!(stop.0, 1);
    assert!(batch.bytes < size, "{}", batch.bytes);
}

#[test]
fn stream_heads_are_read_until_the_sniff_is_decided() {
    let head = |text: &[u8]| {
        let mut h = Vec::new();
        // One byte a read, as a slow stream gives them.
        struct Slow<'a>(&'a [u8]);
        impl Read for Slow<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(buf.len()).min(1);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let containers = Containers::new(
            crate::Finder::new(),
            &crate::container::Settings::default(),
        );
        read_head(&containers, &mut Slow(text), &mut h).unwrap();
        h.len()
    };
    let log = b"2026-11-21 15:00 started http://a.example/\nmore\n";
    assert_eq!(head(log), 43);
    let mbox = b"From a@b Mon Jan  1 00:00:00 1996\nX: y\n";
    assert_eq!(head(mbox), 34);
    let msg = b"X-A: 1\nX-B: 2\n\nbody\n";
    assert!(head(msg) <= 14, "{}", head(msg));
    let urls = b"http://a.example/\nhttp://b.example/\n";
    assert_eq!(head(urls), 18);
}

#[test]
fn long_line_is_streamed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("oneline");
    let mut t = b"http://a.example/ ".repeat(200_000);
    t.extend_from_slice(b"\nhttp://b.example/\n");
    std::fs::write(&path, &t).unwrap();
    let got = run(&path, 2, 1000);
    assert_eq!(got.len(), 200_003);
    assert!(got[200_001].contains("b.example"), "{}", got[200_001]);
}

/// Records the size of the pool that reports.
struct PoolSize(Vec<usize>);

impl Report for PoolSize {
    fn begin(&mut self, _: &Input) -> io::Result<()> {
        self.0.push(rayon::current_num_threads());
        Ok(())
    }
    fn hit(&mut self, _: &Input, _: &Hit<'_>) -> io::Result<()> {
        Ok(())
    }
    fn error(&mut self, _: &InputError) -> io::Result<()> {
        Ok(())
    }
    fn warning(&mut self, _: &Input, _: u64, _: &str) -> io::Result<()> {
        Ok(())
    }
    fn end(&mut self, _: &Input, _: &InputDone) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn no_more_threads_than_units() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for i in 0..3 {
        let p = dir.path().join(format!("f{i}"));
        std::fs::write(&p, b"http://a.example/\n").unwrap();
        paths.push(p);
    }
    let d = Driver::builder().threads(64).build(Finder::new());
    let mut seen = PoolSize(Vec::new());
    d.run(input::walk(&paths, Default::default()), &mut seen).unwrap();
    assert_eq!(seen.0, [3, 3, 3]);
    // Enough units: all threads asked for.
    let d = Driver::builder().threads(2).build(Finder::new());
    let mut seen = PoolSize(Vec::new());
    d.run(input::walk(&paths, Default::default()), &mut seen).unwrap();
    assert_eq!(seen.0, [2, 2, 2]);
}

/// Issue 20, B2: the files of a tree deeper than PATH_MAX are opened
/// through their folder's handle on every path of the driver: listed
/// with their sizes (cut into slices by the planner) and without (read
/// whole, or found big by the worker), with one worker and three.
#[cfg(target_os = "linux")]
#[test]
fn files_past_path_max_are_searched() {
    let dir = tempfile::tempdir().unwrap();
    crate::input::deep::testing::tree(dir.path(), 25);
    let get = |threads, slice, skip_stat| {
        let d = Driver::builder()
            .threads(threads)
            .slice_size(slice)
            .build(Finder::new());
        let opts = input::WalkOptions { skip_stat, ..Default::default() };
        let inputs = input::walk(&[dir.path().to_path_buf()], opts);
        let mut r = Record::default();
        d.run(inputs, &mut r).unwrap();
        r.0
    };
    let want = get(1, 1 << 20, false);
    let urls = want.iter().filter(|l| l.contains(".example/")).count();
    assert_eq!(urls, 25, "{want:?}");
    assert!(!want.iter().any(|l| l.starts_with("error")), "{want:?}");
    for slice in [8, 1 << 20] {
        for threads in [1, 3] {
            for skip_stat in [false, true] {
                let got = get(threads, slice, skip_stat);
                assert_eq!(got, want, "{slice} {threads} {skip_stat}");
            }
        }
    }
}

/// An mbox of a short message, one of `urls` URLs (more than the bytes
/// an mbox slice is held whole up to), and another short one.
fn long_message_mbox(urls: usize) -> Vec<u8> {
    let mut t =
        b"From a@b Mon Jan  1 00:00:00 2001\n\nhttp://first.example/\n\n"
            .to_vec();
    t.extend_from_slice(
        b"From a@b Mon Jan  1 00:00:00 2001\nSubject: long\n\n",
    );
    for i in 0..urls {
        writeln!(t, "http://r{i}.ex/").unwrap();
    }
    t.extend_from_slice(
        b"\nFrom a@b Mon Jan  1 00:00:00 2001\n\nhttp://last.example/\n",
    );
    t
}

/// Parts sent, by their number of hits.
#[derive(Default)]
struct Sizes(Vec<usize>);

impl Parts for Sizes {
    fn send(&mut self, _: &Input, batch: Box<Batch>) -> bool {
        self.0.push(batch.hits.len());
        true
    }
    fn due(&mut self) -> bool {
        true
    }
}

/// Issue 33.2: a long mbox slice (one message of 100,000 URLs) sends its
/// matches on in parts of at most `PART_HITS` as it reads, rather than
/// holding them all until it ends (3.5 M URLs a message held 1.15 GB at
/// `-j2`); none is lost.
#[test]
fn a_long_mbox_slice_sends_its_matches_in_bounded_parts() {
    use super::batch::PART_HITS;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.mbox");
    let urls = 100_000;
    std::fs::write(&path, long_message_mbox(urls)).unwrap();
    let d = Driver::builder()
        .threads(1)
        .slice_size(64)
        .mail_mode(MailMode::Auto)
        .build(Finder::new());
    let size = std::fs::metadata(&path).unwrap().len();
    let input = file_input(&path, Some(size));
    let slices = d.cut(&input, File::open(&path).unwrap(), size).unwrap();
    let hold = super::unit::MAIL_SLICE_HOLD;
    let long = slices.iter().find(|s| s.end - s.start > hold).unwrap();
    let mut sizes = Sizes::default();
    let batch =
        d.search_slice(long, None, &mut Buffer::default(), Some(&mut sizes));
    assert!(sizes.0.len() >= urls / PART_HITS, "{}", sizes.0.len());
    assert!(sizes.0.iter().all(|&n| n <= PART_HITS), "{:?}", sizes.0);
    assert!(batch.hits.len() <= PART_HITS, "{}", batch.hits.len());
    // The first message's URL is in the slice too.
    assert_eq!(sizes.0.iter().sum::<usize>() + batch.hits.len(), urls + 1);
    assert!(batch.ended.is_none());
}

/// Issue 33: a small file read whole (an mbox, or raw text), and an mbox
/// slice held whole, send their matches on in parts as they are found,
/// rather than holding them all until the input ends (200 k URLs in one
/// held file were 23 MB of hits); none is lost.
#[test]
fn a_held_input_sends_its_matches_in_bounded_parts() {
    use super::batch::{PART_HITS, PLAIN_PART_HITS};
    let dir = tempfile::tempdir().unwrap();
    let urls = 3 * PART_HITS + 5;
    let mbox = dir.path().join("held.mbox");
    std::fs::write(&mbox, long_message_mbox(urls)).unwrap();
    let raw = dir.path().join("held.txt");
    let mut text = Vec::new();
    for i in 0..urls {
        writeln!(text, "see http://r{i}.ex/ here").unwrap();
    }
    std::fs::write(&raw, &text).unwrap();
    let d = Driver::builder()
        .threads(1)
        .mail_mode(MailMode::Auto)
        .build(Finder::new());
    // The mbox's first and last messages hold one URL each.
    for (path, want, most) in
        [(&mbox, urls + 2, PART_HITS), (&raw, urls, PLAIN_PART_HITS)]
    {
        let size = std::fs::metadata(path).unwrap().len();
        let input = file_input(path, Some(size));
        let mut sizes = Sizes::default();
        let (batch, error) =
            d.search_whole(&input, &mut Buffer::default(), &mut sizes);
        assert!(error.is_none());
        assert!(sizes.0.len() >= urls / most, "{}", sizes.0.len());
        assert!(sizes.0.iter().all(|&n| n <= most), "{:?}", sizes.0);
        assert!(batch.hits.len() <= most, "{}", batch.hits.len());
        assert_eq!(sizes.0.iter().sum::<usize>() + batch.hits.len(), want);
    }
    // A held slice: the mbox cut into slices no longer than the hold.
    let size = std::fs::metadata(&mbox).unwrap().len();
    let input = file_input(&mbox, Some(size));
    let d = Driver::builder()
        .threads(1)
        .slice_size(64)
        .mail_mode(MailMode::Auto)
        .build(Finder::new());
    let slices = d.cut(&input, File::open(&mbox).unwrap(), size).unwrap();
    let held = slices.iter().find(|s| s.end - s.start > 1 << 16).unwrap();
    assert!(held.end - held.start <= super::unit::MAIL_SLICE_HOLD);
    let mut sizes = Sizes::default();
    let batch =
        d.search_slice(held, None, &mut Buffer::default(), Some(&mut sizes));
    assert!(sizes.0.len() >= urls / PART_HITS, "{}", sizes.0.len());
    assert!(sizes.0.iter().all(|&n| n <= PART_HITS), "{:?}", sizes.0);
    // The first message's URL is in the slice too.
    assert_eq!(sizes.0.iter().sum::<usize>() + batch.hits.len(), urls + 1);
}

/// A file found big by its worker (walked without sizes) sends a long
/// mbox slice's matches on in parts too: at the folder repro of issue
/// 33.2 it held 2.25 GB at `-j2`.
#[test]
fn a_file_found_big_sends_a_long_slice_in_bounded_parts() {
    use super::batch::PART_HITS;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.mbox");
    let urls = 100_000;
    std::fs::write(&path, long_message_mbox(urls)).unwrap();
    let d = Driver::builder()
        .threads(1)
        .slice_size(64)
        .mail_mode(MailMode::Auto)
        .build(Finder::new());
    let size = std::fs::metadata(&path).unwrap().len();
    let input = Input {
        source: Source::Path(path.clone()),
        size: None,
        regular: true,
        walked: true,
        anchor: None,
    };
    let mut sizes = Sizes::default();
    let file = File::open(&path).unwrap();
    let (batch, err) =
        d.search_big(&input, file, size, &mut Buffer::default(), &mut sizes);
    assert!(err.is_none(), "{err:?}");
    assert!(sizes.0.len() >= urls / PART_HITS, "{}", sizes.0.len());
    assert!(sizes.0.iter().all(|&n| n <= PART_HITS), "{:?}", sizes.0);
    assert_eq!(sizes.0.iter().sum::<usize>() + batch.hits.len(), urls + 2);
}

/// The parts of long mbox slices are reported as the slice would be:
/// the same records (line and message numbers counted on) as the file
/// streamed whole, with one worker and two.
#[test]
fn long_mbox_slices_report_as_the_whole_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.mbox");
    let mut text = long_message_mbox(100_000);
    text.extend_from_slice(&long_message_mbox(100_000));
    std::fs::write(&path, &text).unwrap();
    let get = |threads, slice, skip_stat| {
        let d = Driver::builder()
            .threads(threads)
            .slice_size(slice)
            .mail_mode(MailMode::Auto)
            .build(Finder::new());
        // Walked without sizes, the file is found big by its worker
        // (`search_big`).
        let opts = input::WalkOptions { skip_stat, ..Default::default() };
        let inputs = input::walk(&[dir.path().to_path_buf()], opts);
        let mut r = Messages(Record::default());
        d.run(inputs, &mut r).unwrap();
        r.0 .0
    };
    let whole = get(1, 1 << 30, false);
    assert_eq!(whole.len(), 2 * (100_000 + 2) + 2);
    assert!(whole[whole.len() - 2].ends_with(" message 5"), "{whole:?}");
    for threads in [1, 2] {
        for skip_stat in [false, true] {
            let got = get(threads, 64, skip_stat);
            assert!(got == whole, "{threads} threads, {skip_stat} differ");
        }
    }
}

/// A [`Record`] that adds each hit's message number.
struct Messages(Record);

impl Report for Messages {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.0.begin(input)
    }
    fn hit(&mut self, input: &Input, h: &Hit<'_>) -> io::Result<()> {
        self.0.hit(input, h)?;
        if let (Some(last), Some(r)) = (self.0 .0.last_mut(), h.record) {
            last.push_str(&format!(" message {}", r.index));
        }
        Ok(())
    }
    fn error(&mut self, err: &InputError) -> io::Result<()> {
        self.0.error(err)
    }
    fn warning(&mut self, i: &Input, at: u64, what: &str) -> io::Result<()> {
        self.0.warning(i, at, what)
    }
    fn end(&mut self, input: &Input, d: &InputDone) -> io::Result<()> {
        self.0.end(input, d)
    }
}

/// Dense text, every line pair a URL wrapped across its newline: a slice
/// cut there is spilled into by the slice before, and scanned from its
/// start it would find another URL (the one inside the wrapped URL's
/// query).
fn dense_wrapped(units: usize) -> Vec<u8> {
    let mut t = Vec::new();
    for i in 0..units {
        writeln!(
            t,
            "http://a{i}.example/ <URL:http://w{i}.exa\n mple/?u=http://in{i}.ex/>"
        )
        .unwrap();
    }
    t
}

/// Issue 33.6: a plain slice sends its hits on in parts of at most
/// `PLAIN_PART_HITS` (a 4 MiB slice of one URL a line held 175 k hits, 26 MB,
/// until it ended, one such slice per thread); none is lost.
#[test]
fn a_plain_slice_sends_its_hits_in_bounded_parts() {
    use super::batch::PLAIN_PART_HITS as PART_HITS;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense.txt");
    let text = dense_wrapped(50_000);
    std::fs::write(&path, &text).unwrap();
    let d = Driver::builder()
        .threads(1)
        .slice_size(text.len() / 2)
        .build(Finder::new());
    let size = text.len() as u64;
    let input = file_input(&path, Some(size));
    let slices = d.cut(&input, File::open(&path).unwrap(), size).unwrap();
    assert_eq!(slices.len(), 2);
    let first = &slices[0];
    let mut sizes = Sizes::default();
    let batch =
        d.search_slice(first, None, &mut Buffer::default(), Some(&mut sizes));
    let all = Finder::new()
        .candidates(&text)
        .filter(|c| (c.as_match().span().start as u64) < first.end)
        .count();
    assert!(all > 2 * PART_HITS, "{all}");
    assert!(sizes.0.len() >= all / PART_HITS, "{:?}", sizes.0);
    let largest = sizes.0.iter().copied().chain([batch.hits.len()]).max();
    assert!(largest <= Some(PART_HITS), "{largest:?}");
    assert_eq!(sizes.0.iter().sum::<usize>() + batch.hits.len(), all);
    assert!(batch.ended.is_none());
}

/// Plain slices sent in parts report as the whole file, also where the
/// slice before spilled into one (its parts are dropped and it is
/// scanned again), with two workers.
#[test]
fn plain_slices_in_parts_report_as_the_whole_file() {
    use super::batch::PLAIN_PART_HITS as PART_HITS;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense.txt");
    let text = dense_wrapped(40_000);
    std::fs::write(&path, &text).unwrap();
    let spans: Vec<_> =
        Finder::new().candidates(&text).map(|c| c.as_match().span()).collect();
    let whole = run(&path, 1, 1 << 30);
    assert_eq!(whole.len(), spans.len() + 2);
    let mut spilled = 0;
    for slice in [500_000, 500_011, 500_023, 500_037, 500_041] {
        let file = File::open(&path).unwrap();
        let ends =
            super::cut::boundaries(&file, text.len() as u64, slice).unwrap();
        // A slice is spilled into when a candidate straddles its start,
        // and then more than a part of hits follow in it.
        spilled += ends
            .iter()
            .filter(|&&e| {
                let e = e as usize;
                let over = spans.iter().any(|s| s.start < e && s.end > e);
                let after = spans.iter().filter(|s| s.start >= e).count();
                over && after > PART_HITS
            })
            .count();
        let got = run(&path, 2, slice as usize);
        assert!(got == whole, "slice {slice} differs");
        // Walked without sizes, the file is found big by its worker
        // (`search_big`), which searches dense slices itself, in parts.
        let d = Driver::builder()
            .threads(2)
            .slice_size(slice as usize)
            .build(Finder::new());
        let opts =
            input::WalkOptions { skip_stat: true, ..Default::default() };
        let mut r = Record::default();
        d.run(input::walk(&[dir.path().to_path_buf()], opts), &mut r).unwrap();
        assert!(r.0 == whole, "slice {slice} found big differs");
    }
    assert!(spilled > 0, "no slice was spilled into");
}

/// Issue 33.6: a file found big by its worker (walked without sizes,
/// as a folder's files are) sends a dense plain slice's hits on in
/// parts too: its slices were searched a few at a time on the pool and
/// held whole (97 MB at `-j2 -c` on a folder of the 4 M-host file).
#[test]
fn a_file_found_big_sends_plain_slices_in_bounded_parts() {
    use super::batch::PLAIN_PART_HITS;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense.txt");
    let text = dense_wrapped(50_000);
    std::fs::write(&path, &text).unwrap();
    let d = Driver::builder()
        .threads(2)
        .slice_size(text.len() / 3)
        .build(Finder::new());
    let input = Input {
        source: Source::Path(path.clone()),
        size: None,
        regular: true,
        walked: true,
        anchor: None,
    };
    let mut sizes = Sizes::default();
    let file = File::open(&path).unwrap();
    let size = text.len() as u64;
    let (batch, err) =
        d.search_big(&input, file, size, &mut Buffer::default(), &mut sizes);
    assert!(err.is_none(), "{err:?}");
    let all = Finder::new().candidates(&text).count();
    assert!(all > 6 * PLAIN_PART_HITS, "{all}");
    assert!(sizes.0.len() >= all / PLAIN_PART_HITS, "{:?}", sizes.0);
    let largest = sizes.0.iter().max().copied();
    assert!(largest <= Some(PLAIN_PART_HITS), "{largest:?}");
    assert_eq!(sizes.0.iter().sum::<usize>() + batch.hits.len(), all);
}

/// A plain slice that the slice before spilled into is scanned again by
/// the reporter in parts too (`Driver::rescan`): the join's rescan held
/// all its hits at once, one slice's worth at every spilled cut.
#[test]
fn a_spilled_slice_is_scanned_again_in_bounded_parts() {
    use super::batch::PLAIN_PART_HITS;
    use super::plan::FileState;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense.txt");
    let text = dense_wrapped(50_000);
    std::fs::write(&path, &text).unwrap();
    let size = text.len() as u64;
    let input = file_input(&path, Some(size));
    let mut buf = Buffer::default();
    let mut spilled = 0;
    for slice in (0..40).map(|k| text.len() / 2 + 7 * k) {
        let d = Driver::builder()
            .threads(1)
            .slice_size(slice)
            .build(Finder::new());
        let slices = d.cut(&input, File::open(&path).unwrap(), size).unwrap();
        let mut file = FileState::default();
        let mut first = d.search_slice(&slices[0], None, &mut buf, None);
        d.join(&mut file, &slices[0], &mut first, &mut buf).unwrap();
        if file.resume <= slices[1].start {
            continue;
        }
        spilled += 1;
        // The join's way: one batch of all the slice's hits.
        let whole =
            d.search_slice(&slices[1], Some(file.resume), &mut buf, None);
        assert!(whole.hits.len() > 2 * PLAIN_PART_HITS);
        let mut sizes = Sizes::default();
        let last = d.rescan(&mut file, &slices[1], &mut buf, &mut sizes);
        let largest = sizes.0.iter().copied().chain([last.hits.len()]).max();
        assert!(largest <= Some(PLAIN_PART_HITS), "{largest:?}");
        let n = sizes.0.iter().sum::<usize>() + last.hits.len();
        assert_eq!(n, whole.hits.len());
        assert_eq!(file.resume, last.resume);
    }
    assert!(spilled > 0, "no cut spilled");
}
