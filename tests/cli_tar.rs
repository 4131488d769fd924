//! Tar archives read as such: each member searched as the file it holds
//! would be (a message decoded as mail, text as text, binary skipped), so
//! that a mail corpus as a `.tar.gz` gives the URLs of its folder; a
//! file, its gzip form and stdin give the same output; positions count
//! in the unpacked archive; a damaged header is reported at its offset
//! and the members after it are still searched.

mod support;

use std::path::Path;
use support::{code, p, run, run_in, shared, stderr, stdout};

/// A message whose URL is only found once its quoted-printable body is
/// decoded (a soft line break inside it, RFC 2045 §6.7 rule 5).
const QP_MESSAGE: &[u8] = b"From: Ann <ann@example.org>\n\
Subject: a link\n\
Message-ID: <qp@example.org>\n\
Content-Type: text/plain; charset=us-ascii\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
see http://qp.example/a-long-=\n\
path/page.html for it\n";

/// An mbox of two messages.
const MBOX: &[u8] = b"From a@b Mon Jan  1 00:00:00 2001\n\
From: b@example.org\n\
Message-ID: <one@example.org>\n\
\n\
http://mbox.example/one\n\
\n\
From a@b Mon Jan  1 00:00:00 2001\n\
From: c@example.org\n\
Message-ID: <two@example.org>\n\
\n\
http://mbox.example/two\n";

/// The members of the test archive: (name, bytes).
fn members() -> Vec<(String, Vec<u8>)> {
    let long = format!("{}/notes.txt", "deep".repeat(40));
    vec![
        ("mail/1".into(), QP_MESSAGE.to_vec()),
        ("text.txt".into(), b"a page: <http://text.example/x>.\n".to_vec()),
        ("bin.dat".into(), b"\0\x01\x02 http://binary.example/ \0".to_vec()),
        ("spool.mbox".into(), MBOX.to_vec()),
        (long, b"and http://long-name.example/ too\n".to_vec()),
    ]
}

/// `members` as a tar archive (GNU long names where needed), with a
/// folder between them.
fn archive(members: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    let mut dir = tar::Header::new_gnu();
    dir.set_entry_type(tar::EntryType::Directory);
    dir.set_size(0);
    dir.set_mode(0o755);
    b.append_data(&mut dir, "mail/", std::io::empty()).expect("a folder");
    for (name, bytes) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        b.append_data(&mut h, name, &bytes[..]).expect("a member");
    }
    b.into_inner().expect("the archive")
}

/// The members written out as a folder.
fn unpacked(members: &[(String, Vec<u8>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temp dir");
    for (name, bytes) in members {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent"))
            .expect("folders");
        std::fs::write(path, bytes).expect("a member written");
    }
    dir
}

fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e =
        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).expect("compressed");
    e.finish().expect("compressed")
}

fn sorted(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.lines().map(str::to_owned).collect();
    v.sort();
    v
}

#[test]
fn members_are_searched_as_the_files_they_hold() {
    let members = members();
    let tar = archive(&members);
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("a.tar");
    std::fs::write(&path, &tar).expect("written");
    let o = run(&[p(&path)], b"");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        sorted(&stdout(&o)),
        [
            "http://long-name.example/",
            "http://mbox.example/one",
            "http://mbox.example/two",
            "http://qp.example/a-long-path/page.html",
            "http://text.example/x",
        ]
    );
    // The same URLs as the files themselves, walked as a folder.
    let folder = unpacked(&members);
    let walked = run(&["-h", p(folder.path())], b"");
    assert_eq!(sorted(&stdout(&o)), sorted(&stdout(&walked)));
    // Read as bytes, the message is not decoded and the binary member
    // is searched.
    let raw = stdout(&run(&["--tar", "off", p(&path)], b""));
    assert!(raw.contains("http://binary.example/"), "{raw}");
    assert!(!raw.contains("http://qp.example/a-long-path/"), "{raw}");
    // -a searches binary members too.
    let all = stdout(&run(&["-a", p(&path)], b""));
    assert!(all.contains("http://binary.example/"), "{all}");
}

#[test]
fn a_file_its_gzip_and_stdin_give_the_same_records() {
    let tar = archive(&members());
    let dir = tempfile::tempdir().expect("a temp dir");
    let plain = dir.path().join("a.tar");
    let gz = dir.path().join("a.tar.gz");
    std::fs::write(&plain, &tar).expect("written");
    std::fs::write(&gz, gzip(&tar)).expect("written");
    let json = |args: &[&str], stdin: &[u8]| {
        let o = run(args, stdin);
        assert_eq!(code(&o), 0, "{}", stderr(&o));
        stdout(&o)
            .lines()
            .filter(|l| l.contains("\"type\":\"match\""))
            .map(|l| {
                let v: serde_json::Value =
                    serde_json::from_str(l).expect("JSON");
                format!(
                    "{} {} {} {} {}",
                    v["offset"], v["line"], v["column"], v["url"], v["mail"]
                )
            })
            .collect::<Vec<_>>()
    };
    let file = json(&["--json", p(&plain)], b"");
    assert_eq!(file.len(), 5, "{file:?}");
    assert_eq!(json(&["--json", p(&gz)], b""), file);
    assert_eq!(json(&["--json"], &tar), file);
    assert_eq!(
        json(&["--json", "-j2", "--slice-size", "4096", p(&plain)], b""),
        file
    );
}

#[test]
fn positions_count_in_the_unpacked_archive() {
    let tar = archive(&members());
    let o = run(&["--json"], &tar);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut seen = 0;
    let mut messages = Vec::new();
    for l in stdout(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
        if v["type"] != "match" {
            continue;
        }
        let url = v["url"].as_str().expect("a URL");
        let at = v["offset"].as_u64().expect("an offset") as usize;
        // Line and column, counted in the archive's bytes.
        let before = &tar[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = at
            - before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
            + 1;
        assert_eq!(
            (v["line"].as_u64(), v["column"].as_u64()),
            (Some(line as u64), Some(col as u64)),
            "{url}"
        );
        if url != "http://qp.example/a-long-path/page.html" {
            let here = &tar[at..];
            let bare = here.starts_with(url.as_bytes());
            let delimited =
                here.get(1..).is_some_and(|h| h.starts_with(url.as_bytes()));
            assert!(bare || delimited, "{url} at {at}");
        }
        if let Some(m) = v["mail"]["message"].as_u64() {
            messages.push(m);
        }
        seen += 1;
    }
    assert_eq!(seen, 5);
    // A message's index counts on across members: the QP message is 0,
    // the mbox's two are 1 and 2.
    assert_eq!(messages, [0, 1, 2]);
}

#[test]
fn a_text_members_urls_carry_its_name() {
    let tar = archive(&members());
    let o = run(&["--json"], &tar);
    let mut named = Vec::new();
    for l in stdout(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
        if v["type"] == "match" && v["mail"].is_null() {
            let r = &v["record"];
            assert_eq!(r["format"], "tar", "{l}");
            named.push(format!("{} {} {}", v["url"], r["name"], r["size"]));
        }
    }
    let long = format!("{}/notes.txt", "deep".repeat(40));
    assert_eq!(
        named,
        [
            "\"http://text.example/x\" \"text.txt\" 33".to_owned(),
            format!("\"http://long-name.example/\" \"{long}\" 34"),
        ]
    );
}

#[test]
fn a_damaged_header_is_reported_and_the_members_after_it_are_read() {
    let members = members();
    let mut tar = archive(&members);
    // The second header block (the first member's, after the folder's):
    // a byte of its name changed, so that its checksum fails.
    tar[512 + 3] ^= 0x20;
    let o = run(&["-c"], &tar);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("offset 512: not a tar header"),
        "{}",
        stderr(&o)
    );
    // The QP message is passed over (its header is gone); the others are
    // found.
    assert_eq!(stdout(&o).trim(), "4");
    // A member cut short.
    let cut = &archive(&members)[..2048 + 100];
    let o = run(&["-c"], cut);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(stderr(&o).contains("cut short"), "{}", stderr(&o));
}

#[test]
fn archives_concatenated_are_all_read() {
    // `cat a.tar b.tar`: the first archive's end blocks are read past, as
    // `tar --ignore-zeros` reads them.
    let one = archive(&members());
    let two = [one.clone(), one.clone()].concat();
    let o = run(&["--json"], &two);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches("\"type\":\"match\"").count(), 10, "{text}");
    let end = format!("\"bytes\":{},", two.len());
    assert!(text.contains(&end), "{text}");
}

#[test]
fn max_count_stops_in_a_member() {
    let o = run(&["-m", "2"], &archive(&members()));
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
}

/// 20 Newsgroups' sample as its tarball and as its folder: the same
/// URLs, every article read as mail (one message each).
#[test]
fn a_news_corpus_tarball_reads_as_its_folder() {
    let Some(tarball) =
        shared::path("corpora/20newsgroups/mini_newsgroups.tar.gz")
    else {
        return;
    };
    let dir = tempfile::tempdir().expect("a temp dir");
    let gz = flate2::read::GzDecoder::new(
        std::fs::File::open(&tarball).expect("the tarball opens"),
    );
    tar::Archive::new(gz).unpack(dir.path()).expect("it unpacks");
    let folder = run_in(dir.path(), &["-h", "--find", "all", "."], b"");
    let archive = run(&["--find", "all", p(&tarball)], b"");
    assert_eq!(code(&archive), 0, "{}", stderr(&archive));
    let urls = sorted(&stdout(&archive));
    assert!(urls.len() > 100, "{}", urls.len());
    assert_eq!(urls, sorted(&stdout(&folder)));
    let files = walkdir_files(dir.path());
    let end = run(&["--json", p(&tarball)], b"");
    let end = stdout(&end);
    let end = end
        .lines()
        .find(|l| l.contains("\"type\":\"end\""))
        .expect("an end record");
    assert!(
        end.contains(&format!("\"messages\":{files}")),
        "{end} ({files} files)"
    );
}

fn walkdir_files(dir: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let entry = entry.expect("an entry");
        let kind = entry.file_type().expect("a type");
        if kind.is_dir() {
            n += walkdir_files(&entry.path());
        } else if kind.is_file() {
            n += 1;
        }
    }
    n
}

/// A message over the 4 MiB a member is held for is streamed: the same
/// URLs, at the same places, as one held.
#[test]
fn a_long_message_member_is_streamed_alike() {
    let mut long = QP_MESSAGE.to_vec();
    long.extend(b"filler line\n".repeat((4 << 20) / 12 + 10));
    long.extend_from_slice(b"last http://end.example/qp-=\nbreak\n");
    assert!(long.len() > 4 << 20);
    let members = vec![
        ("short".to_owned(), QP_MESSAGE.to_vec()),
        ("long".to_owned(), long),
        ("after".to_owned(), QP_MESSAGE.to_vec()),
    ];
    let tar = archive(&members);
    let o = run(&["--json"], &tar);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let got: Vec<(u64, String)> = stdout(&o)
        .lines()
        .filter(|l| l.contains("\"type\":\"match\""))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            let at = v["offset"].as_u64().expect("an offset");
            (at, v["url"].as_str().expect("a URL").to_owned())
        })
        .collect();
    let urls: Vec<&str> = got.iter().map(|(_, u)| u.as_str()).collect();
    assert_eq!(
        urls,
        [
            "http://qp.example/a-long-path/page.html",
            "http://qp.example/a-long-path/page.html",
            "http://end.example/qp-break",
            "http://qp.example/a-long-path/page.html",
        ]
    );
    // Each URL's offset is where its text begins in the archive.
    for (at, url) in &got {
        let head = &url.as_bytes()[..12];
        assert_eq!(&tar[*at as usize..*at as usize + 12], head, "{url}");
    }
}
