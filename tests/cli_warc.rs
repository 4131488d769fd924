//! Web archives (issue 30): WARC and ARC records read as records. A
//! record's head, its HTTP head and `request` records are not searched;
//! every URL carries its record; a damaged record is reported with its
//! offset and the search goes on, nothing before it lost; a file, its
//! gzip form and stdin give the same URLs.

mod support;

use std::path::{Path, PathBuf};
use support::{code, run, run_in, shared, stderr};

/// The fixtures of tests/data/warc (tests/data/warc/make.py wrote them).
fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/warc").join(name)
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The shared sample archives, unpacked into a temp dir.
fn samples() -> Option<(tempfile::TempDir, PathBuf)> {
    let tarball = shared::path("corpora/warc/pywb-sample-warcs.tar.gz")?;
    let dir = tempfile::tempdir().expect("a temp dir");
    let gz = flate2::read::GzDecoder::new(
        std::fs::File::open(tarball).expect("the tarball opens"),
    );
    tar::Archive::new(gz).unpack(dir.path()).expect("it unpacks");
    let root = dir.path().join("pywb-sample-archive");
    Some((dir, root))
}

#[test]
fn target_uris_and_http_heads_are_not_found() {
    let path = data("chunked-gzip.warc");
    let path = path.to_str().expect("UTF-8");
    let web = run(&[path], b"");
    assert_eq!(code(&web), 0, "{}", stderr(&web));
    let urls = stdout(&web);
    assert_eq!(
        urls,
        "http://links.example/one\nhttps://img.example/two.png\n"
    );
    // Read as text, the record's own target URI is found.
    let text = run(&["--warc", "off", path], b"");
    assert!(
        stdout(&text).contains("http://site.example/page"),
        "{}",
        stdout(&text)
    );
}

#[test]
fn every_url_carries_its_record() {
    let path = data("chunked-gzip.warc");
    let o = run(&["--json", path.to_str().expect("UTF-8")], b"");
    let mut matches = 0;
    for line in stdout(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        if v["type"] != "match" {
            continue;
        }
        matches += 1;
        let r = &v["record"];
        assert_eq!(r["target_uri"], "http://site.example/page", "{line}");
        assert_eq!(r["date"], "2026-11-27T11:00:01.5Z", "{line}");
        assert_eq!(r["type"], "response", "{line}");
        assert_eq!(r["format"], "warc", "{line}");
        assert_eq!(r["content_type"], "text/html; charset=utf-8", "{line}");
        assert_eq!(r["index"], 1, "{line}");
        assert!(r["id"]
            .as_str()
            .is_some_and(|id| id.starts_with("<urn:uuid:")));
    }
    assert_eq!(matches, 2);
}

#[test]
fn shared_archives_give_each_url_its_record() {
    let Some((_dir, root)) = samples() else { return };
    let o = run_in(&root, &["--json", "-j2", "."], b"");
    let mut matches = 0;
    for line in stdout(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        if v["type"] != "match" {
            continue;
        }
        matches += 1;
        let r = &v["record"];
        assert!(r["target_uri"].is_string(), "{line}");
        assert!(r["date"].is_string(), "{line}");
        if r["format"] == "warc" {
            assert!(r["id"].is_string(), "{line}");
        }
        // Never the record's own target URI found in its head: a URL is
        // past its record's offset.
        assert!(v["offset"].as_u64() > r["offset"].as_u64(), "{line}");
    }
    assert!(matches > 50, "{matches} matches");
    // The same at one thread, byte for byte.
    let one = run_in(&root, &["--json", "-j1", "."], b"");
    assert_eq!(stdout(&one), stdout(&o));
}

#[test]
fn a_fault_is_reported_and_nothing_before_it_is_lost() {
    let good = std::fs::read(data("chunked-gzip.warc")).expect("fixture");
    let truncated = std::fs::read(data("truncated.warc")).expect("fixture");
    let dir = tempfile::tempdir().expect("a temp dir");
    // A good file, then a record cut short, then the good records again.
    let mut bytes = good.clone();
    let fault_at = bytes.len();
    let cut = truncated.len() - 40;
    bytes.extend_from_slice(&truncated[..cut]);
    let path = dir.path().join("cut.warc");
    std::fs::write(&path, &bytes).expect("written");
    let o = run(&[path.to_str().expect("UTF-8")], b"");
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(
            "http://links.example/one\nhttps://img.example/two.png\n"
        ),
        "{}",
        stdout(&o)
    );
    // The error names the file and an offset at or past the good part.
    let err = stderr(&o);
    let offset: u64 = err
        .split("offset ")
        .nth(1)
        .and_then(|s| s.split(':').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no offset in {err:?}"));
    assert!(offset >= fault_at as u64, "{err}");
    assert!(err.contains("cut.warc"), "{err}");
}

#[test]
fn garbage_between_records_is_passed_over() {
    let path = data("garbage.warc");
    let o = run(&["--json", path.to_str().expect("UTF-8")], b"");
    assert_eq!(code(&o), 2);
    let out = stdout(&o);
    // The error record, then the record after the garbage still read.
    assert!(out.contains("\"type\":\"error\""), "{out}");
    assert!(out.contains("\"messages\":2"), "{out}");
    assert!(stderr(&o).contains("offset 259: garbage between records"));
}

#[test]
fn unsupported_codings_are_reported_not_guessed() {
    let o = run(&[data("br.warc").to_str().expect("UTF-8")], b"");
    assert_eq!(code(&o), 2);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("unsupported coding \"br\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_file_its_gzip_and_stdin_give_the_same() {
    let Some((_dir, root)) = samples() else { return };
    let plain = root.join("example.warc");
    let per_record = root.join("example.warc.gz");
    let a = run(&[plain.to_str().expect("UTF-8")], b"");
    let b = run(&[per_record.to_str().expect("UTF-8")], b"");
    let bytes = std::fs::read(&per_record).expect("sample");
    let c = run(&["-"], &bytes);
    assert_eq!(stdout(&b), stdout(&c));
    assert_eq!(stdout(&a), stdout(&b));
    assert!(!stdout(&a).is_empty());
    // The ARC sample, plain and gzip.
    let arc = run(&[root.join("example.arc").to_str().expect("UTF-8")], b"");
    let arc_gz =
        run(&[root.join("example.arc.gz").to_str().expect("UTF-8")], b"");
    assert_eq!(stdout(&arc), stdout(&arc_gz));
    assert!(!stdout(&arc).is_empty());
}

#[test]
fn gzip_records_name_their_member() {
    let Some((_dir, root)) = samples() else { return };
    let path = root.join("example.warc.gz");
    let o = run(&["--json", path.to_str().expect("UTF-8")], b"");
    let line = stdout(&o)
        .lines()
        .find(|l| l.contains("\"type\":\"match\""))
        .map(str::to_owned)
        .expect("a match");
    let v: serde_json::Value = serde_json::from_str(&line).expect("JSON");
    let gz = v["record"]["gz_offset"].as_u64().expect("a member offset");
    // The member there inflates to the record's head.
    let bytes = std::fs::read(&path).expect("sample");
    let mut member = flate2::read::GzDecoder::new(&bytes[gz as usize..]);
    let mut head = [0u8; 8];
    std::io::Read::read_exact(&mut member, &mut head).expect("inflates");
    assert_eq!(&head, b"WARC/1.0");
}

/// A WARC `resource` record holding `block`.
fn resource(uri: &str, content_type: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: {uri}\r\n\
         WARC-Date: 2026-11-27T12:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:{uri}>\r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

#[test]
fn binary_payloads_are_not_searched() {
    let mut warc = resource(
        "http://a.example/",
        "text/plain",
        b"see http://text.example/x\n",
    );
    warc.extend(resource(
        "http://a.example/cert",
        "application/pkix-cert",
        b"0\x82\x01\x00http://ocsp.example0\x00\x01",
    ));
    let o = run(&["-"], &warc);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "http://text.example/x\n");
    // Read as text, the binary block's URL is found.
    let o = run(&["--warc", "off", "-"], &warc);
    assert!(stdout(&o).contains("ocsp.example"), "{}", stdout(&o));
}

#[test]
fn by_site_gives_the_site_to_host_table() {
    let path = data("chunked-gzip.warc");
    let o = run(
        &["--stats-tsv", "--by", "site", path.to_str().expect("UTF-8")],
        b"",
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let out = stdout(&o);
    for row in [
        "by-site\tsite.example\t2",
        "by-site-host\tsite.example links.example\t1",
        "by-site-host\tsite.example img.example\t1",
        "by-site-messages\tsite.example\t1",
    ] {
        assert!(out.lines().any(|l| l == row), "{row:?} not in\n{out}");
    }
    // By day, the record's WARC-Date.
    let o = run(
        &["--stats-tsv", "--by", "day", path.to_str().expect("UTF-8")],
        b"",
    );
    assert!(
        stdout(&o).lines().any(|l| l == "by-day\t2026-11-27\t2"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn html_payloads_give_their_html_context() {
    let path = data("chunked-gzip.warc");
    let o =
        run(&["--json", "--html-context", path.to_str().expect("UTF-8")], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let html: Vec<(String, String)> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|v| v["type"] == "match")
        .map(|v| {
            let h = &v["html"];
            (h["element"].to_string(), h["attribute"].to_string())
        })
        .collect();
    assert_eq!(
        html,
        [
            ("\"a\"".to_string(), "\"href\"".to_string()),
            ("\"img\"".to_string(), "\"src\"".to_string())
        ]
    );
}

/// A `response` record of `html` for page `uri`.
fn page(uri: &str, html: &str) -> Vec<u8> {
    let http =
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}");
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n\
         WARC-Date: 2026-11-27T12:00:00Z\r\n\
         WARC-Record-ID: <urn:uuid:page>\r\n\
         Content-Type: application/http; msgtype=response\r\n\
         Content-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    r.extend_from_slice(http.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    r
}

#[test]
fn resolve_gives_relative_references_in_document_order() {
    let warc = page(
        "http://a/b/c/d;p?q",
        "<a href=\"../g\">g</a> see http://abs.example/x\n\
         <img src='g;x?y#s'> <a href='#top'>top</a>",
    );
    let o = run(&["--resolve", "--json", "-"], &warc);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let got: Vec<(String, String, Option<String>)> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|v| v["type"] == "match")
        .map(|v| {
            (
                v["kind"].as_str().unwrap_or_default().to_owned(),
                v["url"].as_str().unwrap_or_default().to_owned(),
                v["reference"].as_str().map(str::to_owned),
            )
        })
        .collect();
    let r = |u: &str, refer: &str| {
        ("resolved".to_owned(), u.to_owned(), Some(refer.to_owned()))
    };
    assert_eq!(
        got,
        [
            r("http://a/b/g", "../g"),
            ("bare".to_owned(), "http://abs.example/x".to_owned(), None),
            r("http://a/b/c/g;x?y#s", "g;x?y#s"),
        ]
    );
    // Off by default; --kind resolved needs it.
    let o = run(&["-"], &warc);
    assert_eq!(stdout(&o), "http://abs.example/x\n");
    let o = run(&["--kind", "resolved", "-"], &warc);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--kind resolved: found only with --resolve"));
}

/// A `.warc.gz` bigger than a slice is cut at the gzip members that begin
/// records and searched in parallel: the same output as a stream read
/// whole (stdin), at every slice size and thread count.
#[test]
fn a_warc_gz_in_slices_is_the_whole_read() {
    let Some((_dir, root)) = samples() else { return };
    let path = root.join("iana.warc.gz");
    let bytes = std::fs::read(&path).expect("sample");
    let args = ["--json", "--html-context", "--resolve"];
    let whole = run(&[&args[..], &["-"]].concat(), &bytes);
    assert_eq!(code(&whole), 0, "{}", stderr(&whole));
    let whole = stdout(&whole).replace(
        "\"path\":\"-\",\"source\":\"<stdin>\"",
        "\"path\":\"iana.warc.gz\"",
    );
    assert!(whole.matches("\"type\":\"match\"").count() > 50);
    // `-m` with a count never reached sends a slice's matches in parts
    // as they are found (a report that may stop): each part's offsets
    // are moved by the slices before it, as a whole slice's are.
    for m in [&[][..], &["-m", "1000000"]] {
        for slice in ["1000", "65536"] {
            for jobs in ["-j1", "-j2"] {
                let cut = ["--slice-size", slice, jobs, "iana.warc.gz"];
                let o = run_in(&root, &[&args[..], m, &cut].concat(), b"");
                assert_eq!(code(&o), 0, "{}", stderr(&o));
                assert!(
                    stdout(&o) == whole,
                    "{m:?} --slice-size {slice} {jobs} differs"
                );
            }
        }
    }
}
