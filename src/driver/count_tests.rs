//! Reports that read less of each candidate ([`Report::wants_matches`],
//! [`Report::wants_records`]): the driver counts what they only count and
//! keeps no record they do not read, on every path (a file whole, its
//! slices, a mail spool, a long message streamed in parts, a gzip read
//! as a stream); and reports that fold the matches ([`Report::folds`]).

use super::config::Driver;
use super::report::{Fold, Folds, Hit, InputDone, Pick, Report};
use crate::container::MailMode;
use crate::input::{self, Input, InputError};
use crate::search::Finder;
use std::any::Any;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// What a report saw, and what it says it reads.
#[derive(Default)]
struct Seen {
    /// Each hit: its URL, whether rejected, its message if it has one.
    hits: Vec<String>,
    /// Matches counted per input, at its end (and in all).
    per_input: Vec<u64>,
    counted: u64,
    /// It reads each match, each record.
    matches: bool,
    records: bool,
    /// It only counts the rejected candidates.
    counts_rejects: bool,
    /// Rejected candidates counted.
    rejected: u64,
    /// What it counts ([`Report::counts_only_if`]); of the hits it is
    /// given, how many matches and rejects this keeps.
    pick: Option<Pick>,
    picked: (u64, u64),
    /// It folds the matches ([`Report::folds`]); how many were folded.
    folds: bool,
    folded: u64,
}

/// A hit as [`Seen`] writes it down.
fn line(h: &Hit<'_>) -> String {
    format!(
        "{} {:?} reject {:?} record {:?}",
        h.at.start,
        String::from_utf8_lossy(h.url),
        h.reject,
        h.record.map(|r| r.index)
    )
}

/// A fold that keeps each match as [`Seen`] writes a hit down.
#[derive(Default)]
struct Kept(Vec<String>);

impl Fold for Kept {
    fn add(&mut self, h: &Hit<'_>) {
        self.0.push(line(h));
    }
    fn clear(&mut self) {
        self.0.clear();
    }
    fn held(&self) -> usize {
        self.0.capacity() * size_of::<String>()
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Seen {
    fn new(matches: bool, records: bool) -> Seen {
        Seen { matches, records, ..Seen::default() }
    }
}

impl Report for Seen {
    fn begin(&mut self, _: &Input) -> io::Result<()> {
        self.per_input.push(0);
        Ok(())
    }
    fn hit(&mut self, _: &Input, h: &Hit<'_>) -> io::Result<()> {
        if self.pick.as_ref().is_some_and(|pick| pick(h)) {
            match h.reject {
                None => self.picked.0 += 1,
                Some(_) => self.picked.1 += 1,
            }
        }
        self.hits.push(line(h));
        Ok(())
    }
    fn error(&mut self, err: &InputError) -> io::Result<()> {
        self.hits.push(format!("error {err}"));
        Ok(())
    }
    fn warning(&mut self, _: &Input, _: u64, _: &str) -> io::Result<()> {
        Ok(())
    }
    fn end(&mut self, _: &Input, _: &InputDone) -> io::Result<()> {
        Ok(())
    }
    fn wants_matches(&self) -> bool {
        self.matches
    }
    fn matches_counted(&mut self, _: &Input, n: u64) -> io::Result<()> {
        self.counted += n;
        if let Some(last) = self.per_input.last_mut() {
            *last += n;
        }
        Ok(())
    }
    fn wants_records(&self) -> bool {
        self.records
    }
    fn wants_rejects(&self) -> bool {
        !self.counts_rejects
    }
    fn rejects_counted(&mut self, _: &Input, n: u64) -> io::Result<()> {
        self.rejected += n;
        Ok(())
    }
    fn counts_only_if(&self) -> Option<Pick> {
        self.pick.clone()
    }
    fn folds(&self) -> Option<Folds> {
        let new: Folds = Arc::new(|| Box::new(Kept::default()));
        self.folds.then_some(new)
    }
    fn folded(&mut self, _: &Input, fold: &dyn Fold) -> io::Result<()> {
        let Some(kept) = fold.as_any().downcast_ref::<Kept>() else {
            return Err(io::Error::other("not this report's fold"));
        };
        self.folded += kept.0.len() as u64;
        self.hits.extend(kept.0.iter().cloned());
        Ok(())
    }
}

/// A spool of three messages, the middle one long (its URLs one a line),
/// with rejected candidates between them.
fn spool(urls: usize) -> Vec<u8> {
    let mut t = b"From a@b Mon Jan  1 00:00:00 2001\n\nhttp://first.example/ \
                  http://bad:99999/\n\n"
        .to_vec();
    t.extend_from_slice(b"From a@b Mon Jan  1 00:00:00 2001\nSubject: l\n\n");
    for i in 0..urls {
        writeln!(t, "http://r{i}.ex/ x:y http://b{i}:99999/").unwrap();
    }
    t.extend_from_slice(
        b"\nFrom a@b Mon Jan  1 00:00:00 2001\n\nhttp://last.example/\n",
    );
    t
}

/// A folder of the spool and its gzip (read as a stream).
fn folder(urls: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let text = spool(urls);
    std::fs::write(dir.path().join("a-spool"), &text).unwrap();
    let mut enc =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&text).unwrap();
    std::fs::write(dir.path().join("b-spool.gz"), enc.finish().unwrap())
        .unwrap();
    dir
}

/// Runs `report` over the files of `dir`.
fn run(
    dir: &std::path::Path,
    threads: usize,
    slice: usize,
    mode: MailMode,
    mut report: Seen,
) -> Seen {
    let d = Driver::builder()
        .threads(threads)
        .slice_size(slice)
        .mail_mode(mode)
        .build(Finder::new());
    let inputs = input::walk(&[dir.to_path_buf()], Default::default());
    d.run(inputs, &mut report).unwrap();
    report
}

/// A report that only counts the matches is given their number for
/// each input, and the rejected candidates as before, whatever the
/// slices, threads and mail mode (issue 33: each match of `-c` was
/// stored, copied and reported to be counted).
#[test]
fn matches_only_counted_are_counted() {
    let dir = folder(20_000);
    let path = dir.path();
    for mode in [MailMode::Auto, MailMode::Off] {
        let all = run(path, 1, 1 << 30, mode, Seen::new(true, true));
        let matches =
            all.hits.iter().filter(|h| h.contains(" reject None ")).count();
        assert!(all.hits.iter().all(|h| !h.starts_with("error")));
        let rejects: Vec<&String> =
            all.hits.iter().filter(|h| !h.contains(" reject None ")).collect();
        assert_eq!(matches, 2 * (20_000 + 2), "{mode:?}");
        // (the mail search of this finder reports no rejects)
        if mode == MailMode::Off {
            assert!(rejects.len() >= 2 * 20_000, "{}", rejects.len());
        }
        for (threads, slice) in [(1, 1 << 30), (2, 4096), (3, 333), (1, 64)] {
            let got = run(path, threads, slice, mode, Seen::new(false, true));
            let at = format!("{mode:?} {threads} {slice}");
            assert_eq!(got.counted as usize, matches, "{at}");
            assert_eq!(got.per_input, [20_002, 20_002], "{at}");
            let got: Vec<&String> = got.hits.iter().collect();
            assert!(
                got == rejects,
                "{at}: {} rejects, not {}",
                got.len(),
                rejects.len()
            );
        }
    }
}

/// A report that reads no records is given every hit as before, with
/// no record; one that reads them gets them.
#[test]
fn hits_without_records_when_none_are_read() {
    let dir = folder(5_000);
    let path = dir.path();
    let all = run(path, 1, 1 << 30, MailMode::Auto, Seen::new(true, true));
    assert!(all.hits.iter().any(|h| h.ends_with(" record Some(2)")));
    let want: Vec<String> = all
        .hits
        .iter()
        .map(|h| h.rsplit_once(' ').map_or(h.clone(), |(a, _)| a.to_owned()))
        .map(|h| h + " None")
        .collect();
    for (threads, slice) in [(1, 1 << 30), (2, 4096), (3, 333)] {
        let got =
            run(path, threads, slice, MailMode::Auto, Seen::new(true, false));
        assert!(got.hits == want, "{threads} {slice}: the hits differ");
        assert_eq!(got.counted, 0);
    }
}

/// A report that counts only what its [`Pick`] keeps is given the
/// number of matches and rejected candidates the pick keeps of those it
/// would have been given, on every path; the pick sees each hit as the
/// report would, its record only when the report reads records (issue
/// 32: `-c --host` stored, copied and reported each match to count it).
#[test]
fn only_picked_candidates_are_counted() {
    let dir = folder(20_000);
    let path = dir.path();
    // Hits with a record, as the pick saw them.
    let with_record = Arc::new(AtomicU64::new(0));
    let seen = Arc::clone(&with_record);
    let pick: Pick = Arc::new(move |h: &Hit<'_>| {
        if h.record.is_some() {
            seen.fetch_add(1, Ordering::Relaxed);
        }
        match h.host {
            Some(host) => host.ends_with(b"7.ex") || host.starts_with(b"l"),
            None => h.url.len().is_multiple_of(3),
        }
    });
    let picking = |matches: bool, records: bool| Seen {
        pick: Some(Arc::clone(&pick)),
        counts_rejects: !matches,
        ..Seen::new(matches, records)
    };
    for mode in [MailMode::Auto, MailMode::Off] {
        let all = run(path, 1, 1 << 30, mode, picking(true, true));
        let (matches, rejects) = all.picked;
        // r7, r17, … r19997 and the last in each copy.
        assert_eq!(matches, 2 * (2_000 + 1), "{mode:?}");
        if mode == MailMode::Off {
            assert!(rejects > 1_000, "{rejects}");
        }
        for (threads, slice) in [(1, 1 << 30), (2, 4096), (3, 333), (1, 64)] {
            let at = format!("{mode:?} {threads} {slice}");
            for records in [true, false] {
                with_record.store(0, Ordering::Relaxed);
                let got =
                    run(path, threads, slice, mode, picking(false, records));
                assert_eq!(
                    (got.counted, got.rejected),
                    (matches, rejects),
                    "{at}"
                );
                assert_eq!(got.per_input, [matches / 2; 2], "{at}");
                assert!(got.hits.is_empty(), "{at}: {:?}", got.hits.first());
                let framed = with_record.load(Ordering::Relaxed);
                match (records, mode) {
                    (true, MailMode::Auto) => assert!(framed > 0, "{at}"),
                    _ => assert_eq!(framed, 0, "{at}"),
                }
            }
        }
    }
}

/// Issue 32 (`--stats`): a report that folds the matches is given every
/// match outside a record in the folds of its batches, on every path
/// (slices, threads, a gzip read as a stream), and the matches it is
/// given, by fold and by hit, come in input order; a match in a record
/// (mail) comes by hit.
#[test]
fn matches_outside_records_are_folded_in_order() {
    let dir = folder(20_000);
    let path = dir.path();
    let matches = |s: &Seen| -> Vec<String> {
        s.hits
            .iter()
            .filter(|h| h.contains(" reject None "))
            .cloned()
            .collect()
    };
    for mode in [MailMode::Auto, MailMode::Off] {
        let all = run(path, 1, 1 << 30, mode, Seen::new(true, true));
        let want = matches(&all);
        assert_eq!(want.len(), 2 * (20_000 + 2), "{mode:?}");
        for (threads, slice) in [(1, 1 << 30), (2, 4096), (3, 333), (1, 64)] {
            let at = format!("{mode:?} {threads} {slice}");
            let folding = Seen { folds: true, ..Seen::new(true, true) };
            let got = run(path, threads, slice, mode, folding);
            assert!(matches(&got) == want, "{at}: the matches differ");
            let folded = match mode {
                MailMode::Off => want.len() as u64,
                _ => 0,
            };
            assert_eq!(got.folded, folded, "{at}");
            assert_eq!(got.hits.len(), all.hits.len(), "{at}");
        }
    }
}

/// Counts each input's matches and rejected candidates, as `--json`'s
/// `end` record does: matches by hit (or counted), rejects counted.
#[derive(Default)]
struct PerInput {
    /// It reads each match (else it only counts them, as `-c`).
    matches: bool,
    /// Per input, by path: matches, rejected candidates.
    seen: Vec<(String, u64, u64)>,
}

impl PerInput {
    fn last(&mut self) -> &mut (String, u64, u64) {
        if self.seen.is_empty() {
            self.seen.push(Default::default());
        }
        let k = self.seen.len() - 1;
        &mut self.seen[k]
    }
}

impl Report for PerInput {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        let name = format!("{:?}", input.source);
        self.seen.push((name, 0, 0));
        Ok(())
    }
    fn hit(&mut self, _: &Input, h: &Hit<'_>) -> io::Result<()> {
        match h.reject {
            None => self.last().1 += 1,
            Some(_) => self.last().2 += 1,
        }
        Ok(())
    }
    fn error(&mut self, err: &InputError) -> io::Result<()> {
        Err(io::Error::other(err.to_string()))
    }
    fn warning(&mut self, _: &Input, _: u64, _: &str) -> io::Result<()> {
        Ok(())
    }
    fn end(&mut self, _: &Input, _: &InputDone) -> io::Result<()> {
        Ok(())
    }
    fn wants_matches(&self) -> bool {
        self.matches
    }
    fn matches_counted(&mut self, _: &Input, n: u64) -> io::Result<()> {
        self.last().1 += n;
        Ok(())
    }
    fn wants_rejects(&self) -> bool {
        false
    }
    fn rejects_counted(&mut self, _: &Input, n: u64) -> io::Result<()> {
        self.last().2 += n;
        Ok(())
    }
}

/// The defect of s16's notes: the same body gives the same matches and
/// rejected candidates as raw text, as a message (`.eml`, a Maildir
/// file), in an mbox, gzipped (read as a stream, as stdin is), and in a
/// message long enough to be read as a stream; the mail search counted
/// no reject unless it printed them.
#[test]
fn rejects_counted_alike_in_every_container() {
    let mut body = Vec::new();
    for i in 0..40 {
        writeln!(
            body,
            "see http:// and http://ok{i}.example/ \"http: <URL:http://b{i}:99999/>"
        )
        .unwrap();
    }
    let head = b"From: a@b.example\nSubject: s\n\n".to_vec();
    let eml = [head.clone(), body.clone()].concat();
    let sep = b"From a@b Mon Jan  1 00:00:00 2001\n".to_vec();
    // A message over 4 MiB, searched as a stream: its body repeated.
    let times = (4 << 20) / body.len() + 1;
    let long = [head, body.repeat(times)].concat();
    let finder = Finder::new();
    let count = |text: &[u8]| {
        let c: Vec<_> = finder.candidates(text).collect();
        let rejected = c.iter().filter(|c| c.reject().is_some()).count();
        ((c.len() - rejected) as u64, rejected as u64)
    };
    let (matches, rejects) = count(&body);
    assert_eq!((matches, rejects), (40, 80));
    let gz = |text: &[u8]| {
        let mut enc = flate2::write::GzEncoder::new(
            Vec::new(),
            flate2::Compression::fast(),
        );
        enc.write_all(text).unwrap();
        enc.finish().unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("maildir");
    for sub in ["cur", "new", "tmp"] {
        std::fs::create_dir_all(md.join(sub)).unwrap();
    }
    let files: [(&str, Vec<u8>, u64); 8] = [
        ("a.eml", eml.clone(), 1),
        ("b.txt", body.clone(), 1),
        ("c.mbox", [sep.clone(), eml.clone(), sep, eml.clone()].concat(), 2),
        ("maildir/cur/1:2,S", eml.clone(), 1),
        ("d.eml.gz", gz(&eml), 1),
        ("e.txt.gz", gz(&body), 1),
        ("f.eml", long.clone(), times as u64),
        ("g.eml.gz", gz(&long), times as u64),
    ];
    for (name, bytes, _) in &files {
        std::fs::write(dir.path().join(name), bytes).unwrap();
    }
    for (threads, slice) in [(1, 1 << 30), (2, 4096), (3, 333)] {
        for each in [true, false] {
            let d = Driver::builder()
                .threads(threads)
                .slice_size(slice)
                .mail_mode(MailMode::Auto)
                .build(Finder::new());
            let inputs =
                input::walk(&[dir.path().to_path_buf()], Default::default());
            let mut r = PerInput { matches: each, ..PerInput::default() };
            d.run(inputs, &mut r).unwrap();
            assert_eq!(r.seen.len(), files.len(), "{:?}", r.seen);
            for (path, got_matches, got_rejects) in &r.seen {
                let Some((_, _, n)) =
                    files.iter().find(|(name, _, _)| path.contains(name))
                else {
                    panic!("{path}: not one of the inputs");
                };
                assert_eq!(
                    (*got_matches, *got_rejects),
                    (matches * n, rejects * n),
                    "{path}: {threads} threads, slices of {slice}, each {each}"
                );
            }
        }
    }
}
