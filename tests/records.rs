//! `Format::Records` and `Format::RecordRefs`: every record of `--json`
//! handed to a function, owned or borrowed. Written back with the JSON
//! writer's serializer (a borrowed one during the call), the records of a
//! run are the `--json` output byte for byte, on the bundled corpora
//! searched as mail (with metadata and HTML context) and raw (with
//! rejects), at one thread and at two.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use urlgrep::input::{Input, InputError, Walk, WalkOptions};
use urlgrep::output::escape::write_json;
use urlgrep::output::json::Record;
use urlgrep::output::{
    Format, Printer, PrinterOptions, RecordSender, RecordVisitor,
};
use urlgrep::{Driver, Finder, MailMode};

/// The inputs under `dir`, in walk order.
fn inputs(dir: &Path) -> Vec<Result<Input, InputError>> {
    Walk::new(vec![dir.to_path_buf()], WalkOptions::default()).collect()
}

/// The run's output in `opts`' format.
fn run(
    dir: &Path,
    opts: PrinterOptions,
    mail: bool,
    threads: usize,
) -> Vec<u8> {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut printer = Printer::new(opts, &mut out, &mut err);
    let mut driver = Driver::builder();
    driver.threads(threads);
    if mail {
        driver
            .web_archives(true)
            .mail_mode(MailMode::Auto)
            .metadata(true)
            .html_context(true)
            .rejects(true);
    }
    let finder = Finder::builder().line_numbers(true).build();
    driver.build(finder).run(inputs(dir), &mut printer).expect("runs");
    printer.finish(std::time::Duration::ZERO).expect("finishes");
    drop(printer);
    out
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora").join(name)
}

/// The records of a run, written as `--json` writes them.
fn records(dir: &Path, mail: bool, threads: usize) -> (Vec<u8>, usize) {
    let got: Arc<Mutex<Vec<Record<'static>>>> = Arc::default();
    let sink = Arc::clone(&got);
    let opts = PrinterOptions {
        format: Format::Records,
        records: Some(RecordSender::new(move |rec| {
            sink.lock().expect("not poisoned").push(rec);
            Ok(())
        })),
        rejects: true,
        ..PrinterOptions::default()
    };
    let out = run(dir, opts, mail, threads);
    assert!(out.is_empty(), "Records writes nothing");
    let got = got.lock().expect("not poisoned");
    let mut json = Vec::new();
    for rec in got.iter() {
        write_json(&mut json, rec).expect("serializes");
        json.push(b'\n');
    }
    (json, got.len())
}

#[test]
fn records_are_the_json_output() {
    for (name, mail) in [("mail", true), ("news", true), ("rfc", false)] {
        same_records(&corpus(name), name, mail, records);
        same_records(&corpus(name), name, mail, record_refs);
    }
}

/// The web-archive samples (records with a web record part, faults).
#[test]
fn records_of_web_archives_are_the_json_output() {
    let root =
        std::env::var_os("URLGREP_SHARED").map(PathBuf::from).unwrap_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"),
        );
    let tarball = root.join("corpora/warc/pywb-sample-warcs.tar.gz");
    if !tarball.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} absent under CI",
            tarball.display()
        );
        eprintln!("SKIPPED: {} absent", tarball.display());
        return;
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let gz = flate2::read::GzDecoder::new(
        std::fs::File::open(&tarball).expect("opens"),
    );
    tar::Archive::new(gz).unpack(dir.path()).expect("unpacks");
    let dir = dir.path().join("pywb-sample-archive");
    same_records(&dir, "warc", true, records);
    same_records(&dir, "warc", true, record_refs);
}

/// How a test collects a run's records as JSON text ([`records`],
/// [`record_refs`]), and how many there were.
type Collect = fn(&Path, bool, usize) -> (Vec<u8>, usize);

/// The records `collect` gets of `dir` are its `--json` output, at one
/// thread and two.
fn same_records(dir: &Path, name: &str, mail: bool, collect: Collect) {
    {
        let opts = PrinterOptions {
            format: Format::Json,
            rejects: true,
            ..PrinterOptions::default()
        };
        let want = run(dir, opts, mail, 1);
        for threads in [1, 2] {
            let (got, n) = collect(dir, mail, threads);
            assert!(n > 10, "{name}: {n} records");
            assert!(
                got == want,
                "{name} at -j{threads}: {} bytes of records, {} of JSON",
                got.len(),
                want.len()
            );
        }
    }
}

/// The error a run in `opts` ends with.
fn failed(opts: PrinterOptions) -> String {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut printer = Printer::new(opts, &mut out, &mut err);
    let finder = Finder::builder().build();
    let got = Driver::builder()
        .threads(1)
        .build(finder)
        .run(inputs(&corpus("rfc")), &mut printer);
    got.expect_err("the consumer's error ends the run").to_string()
}

/// An error of the sender or the visitor stops the run, as a write error
/// does.
#[test]
fn a_failing_consumer_stops_the_run() {
    let gone = || std::io::Error::other("consumer gone");
    let opts = PrinterOptions {
        format: Format::Records,
        records: Some(RecordSender::new(move |_| Err(gone()))),
        ..PrinterOptions::default()
    };
    assert_eq!(failed(opts), "consumer gone");
    let opts = PrinterOptions {
        format: Format::RecordRefs,
        record_refs: Some(RecordVisitor::new(move |_| Err(gone()))),
        ..PrinterOptions::default()
    };
    assert_eq!(failed(opts), "consumer gone");
}

/// The records of a run, each written as `--json` writes it while it is
/// shown, and how many there were.
fn record_refs(dir: &Path, mail: bool, threads: usize) -> (Vec<u8>, usize) {
    let got: Arc<Mutex<(Vec<u8>, usize)>> = Arc::default();
    let sink = Arc::clone(&got);
    let opts = PrinterOptions {
        format: Format::RecordRefs,
        record_refs: Some(RecordVisitor::new(move |rec| {
            let mut g = sink.lock().expect("not poisoned");
            write_json(&mut g.0, rec)?;
            g.0.push(b'\n');
            g.1 += 1;
            Ok(())
        })),
        rejects: true,
        ..PrinterOptions::default()
    };
    let out = run(dir, opts, mail, threads);
    assert!(out.is_empty(), "RecordRefs writes nothing");
    let got = std::mem::take(&mut *got.lock().expect("not poisoned"));
    got
}
