//! Reads that end early keep what they read: a reader that fails at byte
//! N, and a file that shrinks under its stat size, for every input path
//! (a whole file, a stream raw, as mail and repaired, gzip, slices).

use super::batch::{Batch, Parts};
use super::config::Driver;
use super::tests::file_input;
use crate::container::MailMode;
use crate::input::{Input, Source};
use crate::search::buffer::Buffer;
use crate::search::Finder;
use std::io::{self, Read, Write};

/// A reader of `data` that fails once `at` bytes were read.
struct FailAt {
    data: Vec<u8>,
    pos: usize,
    at: usize,
}

impl Read for FailAt {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos >= self.at {
            return Err(io::Error::other("injected read error"));
        }
        let end = self.data.len().min(self.at).min(self.pos + 4096);
        let n = (end - self.pos).min(buf.len());
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Parts kept, as a reporter would print them.
#[derive(Default)]
struct Keep(Vec<Batch>);

impl Parts for Keep {
    fn send(&mut self, _: &Input, batch: Box<Batch>) -> bool {
        self.0.push(*batch);
        true
    }
    fn due(&mut self) -> bool {
        true
    }
}

/// `n` lines, each with one URL.
fn lines(n: usize) -> Vec<u8> {
    let mut t = Vec::new();
    for i in 0..n {
        writeln!(t, "line {i} see http://h{i}.example/p").unwrap();
    }
    t
}

/// The same lines as an mbox of one message per line.
fn mbox(n: usize) -> Vec<u8> {
    let mut t = Vec::new();
    for i in 0..n {
        write!(
            t,
            "From a@b Mon Jan  1 00:00:00 1996\nSubject: {i}\n\n\
             see http://h{i}.example/p\n\n"
        )
        .unwrap();
    }
    t
}

/// URLs of whole lines that end before byte `at` of `text`.
fn before(text: &[u8], at: usize) -> usize {
    let head = &text[..at.min(text.len())];
    let end = head.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    memchr::memmem::find_iter(&head[..end], b"http://").count()
}

fn driver(mode: MailMode, repair: bool) -> Driver {
    Driver::builder()
        .threads(1)
        .mail_mode(mode)
        .qp_repair(repair)
        .build(Finder::new())
}

fn stdin() -> Input {
    Input {
        source: Source::Stdin,
        size: None,
        regular: false,
        walked: false,
        anchor: None,
    }
}

/// URLs in a batch and the parts sent before it.
fn found(batch: &Batch, parts: &Keep) -> usize {
    batch.hits.len() + parts.0.iter().map(|b| b.hits.len()).sum::<usize>()
}

#[test]
fn a_stream_keeps_what_it_read_before_an_error() {
    let text = lines(3000);
    let at = text.len() / 2;
    let want = before(&text, at);
    assert!(want > 1000);
    for (mode, repair) in
        [(MailMode::Off, false), (MailMode::Off, true), (MailMode::On, false)]
    {
        let d = driver(mode, repair);
        let mut parts = Keep::default();
        let rdr = FailAt { data: text.clone(), pos: 0, at };
        let (batch, err) = d.search_stream(&stdin(), rdr, None, &mut parts);
        let err = err.expect("the error is reported");
        assert_eq!(err.offset, Some(at as u64), "{mode:?} {repair}");
        let got = found(&batch, &parts);
        // A URL cut by the error may or may not be read; none before it
        // is lost.
        assert!(got >= want && got <= want + 1, "{mode:?} {repair}: {got}");
    }
}

#[test]
fn an_mbox_stream_keeps_the_messages_before_an_error() {
    let text = mbox(2000);
    let at = text.len() / 3;
    let want = before(&text, at);
    let d = driver(MailMode::Auto, false);
    let mut parts = Keep::default();
    let rdr = FailAt { data: text.clone(), pos: 0, at };
    let (batch, err) = d.search_stream(&stdin(), rdr, None, &mut parts);
    assert_eq!(err.map(|e| e.offset), Some(Some(at as u64)));
    let got = found(&batch, &parts);
    assert!(got >= want && got <= want + 1, "{got} of {want}");
}

#[test]
fn a_gzip_stream_keeps_what_it_decompressed_before_an_error() {
    let text = lines(20_000);
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&text).unwrap();
    let gz = gz.finish().unwrap();
    let at = gz.len() / 2;
    let d = driver(MailMode::Off, false);
    let mut parts = Keep::default();
    let rdr = FailAt { data: gz, pos: 0, at };
    let (batch, err) = d.search_stream(&stdin(), rdr, None, &mut parts);
    let err = err.expect("the error is reported");
    let read = err.offset.expect("at a decompressed offset") as usize;
    let got = found(&batch, &parts);
    assert!(got > 5000, "{got}");
    assert!(got >= before(&text, read), "{got} at {read}");
}

#[test]
fn a_buffer_fill_returns_what_it_read_before_an_error() {
    let text = lines(5000);
    let at = 100_000;
    let mut buf = Buffer::default();
    let rdr = FailAt { data: text.clone(), pos: 0, at };
    let (bytes, err) = buf.fill_from(rdr, || true);
    assert!(err.is_some());
    assert_eq!(bytes, &text[..at]);
}

#[test]
fn a_file_that_shrank_is_searched_to_its_end_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shrank");
    let text = lines(2000);
    std::fs::write(&path, &text).unwrap();
    let d = driver(MailMode::Off, false);
    // The walk saw it bigger than it is now.
    let size = text.len() as u64 + 5000;
    let input = file_input(&path, Some(size));
    let (batch, err) =
        d.search_whole(&input, &mut Buffer::default(), &mut Keep::default());
    let err = err.expect("a warning");
    assert_eq!(err.offset, Some(text.len() as u64));
    assert!(err.to_string().contains("shrank"), "{err}");
    assert_eq!(batch.hits.len(), 2000);
    assert_eq!(batch.bytes, text.len() as u64);
}

#[test]
fn slices_of_a_file_that_shrank_keep_what_was_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big");
    for text in [lines(40_000), mbox(20_000)] {
        std::fs::write(&path, &text).unwrap();
        let d = Driver::builder()
            .threads(1)
            .slice_size(64 * 1024)
            .mail_mode(MailMode::Auto)
            .build(Finder::new());
        let size = text.len() as u64;
        let input = file_input(&path, Some(size));
        let file = std::fs::File::open(&path).unwrap();
        let slices = d.cut(&input, file, size).expect("sliced");
        // Cut to a bit more than half, in the middle of a slice.
        let keep = text.len() / 2 + 1000;
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(keep as u64)
            .unwrap();
        let mut buf = Buffer::default();
        let (mut got, mut read, mut ended) = (0, 0, None);
        for s in &slices {
            let mut b = d.search_slice(s, None, &mut buf, None);
            got += b.hits.len();
            read += b.bytes;
            if let Some((at, _)) = b.ended.take() {
                ended.get_or_insert(at);
            }
        }
        assert_eq!(read, keep as u64);
        assert_eq!(ended, Some(keep as u64));
        let want = before(&text, keep);
        assert!(got >= want && got <= want + 1, "{got} of {want}");
    }
}

/// `text` gzipped.
fn gzip(text: &[u8]) -> Vec<u8> {
    let mut gz =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text).unwrap();
    gz.finish().unwrap()
}

/// Issue 33.12: a read error in a small compressed file is reported as
/// itself, at its offset, not as the decoder's "incomplete deflate
/// stream" that the cut then causes.
#[test]
fn a_read_error_in_a_small_gzip_file_is_reported_as_itself() {
    let text = lines(20_000);
    let gz = gzip(&text);
    let at = gz.len() / 2;
    let d = driver(MailMode::Off, false);
    let mut buf = Buffer::default();
    let rdr = FailAt { data: gz, pos: 0, at };
    let (bytes, error) = buf.fill_from(rdr, || true);
    let error = error.expect("the injected error");
    let err = super::unit::failure(&stdin(), error, Some(bytes.len() as u64));
    let mut parts = Keep::default();
    let (batch, err) = d.search_ended(&stdin(), bytes, err, &mut parts);
    let err = err.expect("the error is reported");
    assert!(err.to_string().contains("injected read error"), "{err}");
    assert_eq!(err.offset, Some(at as u64));
    assert!(found(&batch, &parts) > 5000, "{}", found(&batch, &parts));
}

/// The same through a file: a small gzip file that shrank under its
/// stat size says so, not "incomplete deflate stream".
#[test]
fn a_small_gzip_file_that_shrank_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.gz");
    let gz = gzip(&lines(20_000));
    let keep = gz.len() / 2;
    std::fs::write(&path, &gz[..keep]).unwrap();
    let input = file_input(&path, Some(gz.len() as u64));
    let d = driver(MailMode::Off, false);
    let mut parts = Keep::default();
    let (batch, err) =
        d.search_whole(&input, &mut Buffer::default(), &mut parts);
    let err = err.expect("an error");
    assert!(err.to_string().contains("shrank"), "{err}");
    assert_eq!(err.offset, Some(keep as u64));
    assert!(found(&batch, &parts) > 5000, "{}", found(&batch, &parts));
}

/// The URLs of a batch and its parts, in order, as text.
fn urls(batch: &Batch, parts: &Keep) -> Vec<u8> {
    let mut out = Vec::new();
    for b in parts.0.iter().chain(std::iter::once(batch)) {
        for h in &b.hits {
            out.extend_from_slice(&b.urls[h.url.0..h.url.1]);
            out.push(b'\n');
        }
    }
    out
}

/// A big compressed stream decompressed on a thread of its own gives the
/// same URLs, and an error at the same offset, as the decoder read in
/// the searching thread; whole, cut by a read error, as mail and not.
#[test]
fn the_read_ahead_finds_what_the_decoder_gives() {
    let text = [lines(30_000), mbox(3_000)].concat();
    let gz = gzip(&text);
    for at in [gz.len() + 1, gz.len() / 3, 10] {
        for mode in [MailMode::Off, MailMode::Auto] {
            let mut got = Vec::new();
            for ahead in [false, true] {
                let d = Driver::builder()
                    .threads(1)
                    .mail_mode(mode)
                    .read_ahead(ahead)
                    .build(Finder::new());
                let mut parts = Keep::default();
                let rdr = FailAt { data: gz.clone(), pos: 0, at };
                // A size that asks for the thread when it is on.
                let size = Some(super::unit::AHEAD_MIN);
                let (batch, err) =
                    d.search_stream(&stdin(), rdr, size, &mut parts);
                let err = err.map(|e| (e.offset, e.error.to_string()));
                got.push((urls(&batch, &parts), err));
            }
            assert!(got[0].0.len() > 1000 || at < gz.len(), "{mode:?} {at}");
            assert!(
                got[0] == got[1],
                "{mode:?} at {at}: {:?} / {:?}",
                got[0].1,
                got[1].1
            );
        }
    }
}

/// A `.warc.gz` bigger than a slice: cut at its gzip members for two
/// workers, streamed whole for one, which would search the slices one
/// after another, starting and draining an inflating thread for each
/// (issue 30).
#[test]
fn a_web_archive_is_cut_for_two_workers_and_streamed_for_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.warc.gz");
    let mut gz = Vec::new();
    for k in 0..400 {
        let body = format!("see http://h{k}.example/p and more words\r\n");
        let record = format!(
            "WARC/1.0\r\nWARC-Type: resource\r\n\
             WARC-Record-ID: <urn:uuid:{k}>\r\n\
             Content-Type: text/plain\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
            body.len()
        );
        gz.extend(gzip(record.as_bytes()));
    }
    std::fs::write(&path, &gz).unwrap();
    let size = gz.len() as u64;
    let input = file_input(&path, Some(size));
    let cut = |threads| {
        let d = Driver::builder()
            .threads(threads)
            .slice_size(4096)
            .web_archives(true)
            .build(Finder::new());
        let file = std::fs::File::open(&path).unwrap();
        d.cut(&input, file, size).map(|s| s.len())
    };
    assert!(cut(2).is_some_and(|n| n > 4), "{:?}", cut(2));
    assert_eq!(cut(1), None);
}
