//! Bench corpora, built in memory from the tarballs in `../shared`.
//!
//! Each corpus shape of STYLE.md "Benchmarks" comes from real text: the
//! SpamAssassin and blinux-list messages (one mbox spool, and the
//! blinux-list messages one by one), 20 Newsgroups (almost no URLs), the
//! lines of the spool that hold `://` (URL-dense) and the RFCs (wrappers).

use flate2::read::GzDecoder;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Where the shared corpora live: `../shared/corpora` beside the repo.
pub fn root() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora");
    dir.is_dir().then_some(dir)
}

/// The regular files of a `.tar.gz`, in archive order, as (name, bytes).
pub fn members(path: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut archive = tar::Archive::new(GzDecoder::new(File::open(path)?));
    let mut out = Vec::new();
    for entry in archive.entries()? {
        let mut entry = entry?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = entry.path()?.to_string_lossy().into_owned();
        let mut bytes = Vec::with_capacity(entry.size() as usize);
        entry.read_to_end(&mut bytes)?;
        out.push((name, bytes));
    }
    Ok(out)
}

/// The corpora every bench needs.
pub struct Corpora {
    /// SpamAssassin then blinux-list messages as one mbox (each blinux-list
    /// message gets a `From ` envelope line, as in an mbox spool).
    pub spool: Vec<u8>,
    /// The blinux-list messages, one per file.
    pub messages: Vec<Vec<u8>>,
    /// 20 Newsgroups (bydate, train and test), concatenated.
    pub news: Vec<u8>,
    /// Every line of the spool that contains `://`.
    pub dense: Vec<u8>,
    /// RFC 1500–2499 and 8400–8499, concatenated.
    pub rfcs: Vec<u8>,
}

impl Corpora {
    /// Loads everything from `root`.
    pub fn load(root: &Path) -> std::io::Result<Corpora> {
        let spam = members(
            &root.join("spamassassin/spamassassin-public-corpus.tar.gz"),
        )?;
        let blinux = members(&root.join("blinux-list/blinux-list.tar.gz"))?;
        let mut spool = Vec::new();
        for (_, m) in &spam {
            spool.extend_from_slice(m);
            if !m.ends_with(b"\n") {
                spool.push(b'\n');
            }
        }
        for (_, m) in &blinux {
            spool.extend_from_slice(
                b"From blinux-list@redhat.com Thu Jan  1 00:00:00 1970\n",
            );
            spool.extend_from_slice(m);
            if !m.ends_with(b"\n") {
                spool.push(b'\n');
            }
        }
        let messages = blinux.into_iter().map(|(_, m)| m).collect();
        let news =
            concat(members(&root.join("20newsgroups/20news-bydate.tar.gz"))?);
        let mut rfcs = concat(members(&root.join("rfc/rfc1500-2499.tar.gz"))?);
        rfcs.extend(concat(members(&root.join("rfc/rfc8400-8499.tar.gz"))?));
        let mut dense = Vec::new();
        for line in spool.split_inclusive(|&b| b == b'\n') {
            if memchr::memmem::find(line, b"://").is_some() {
                dense.extend_from_slice(line);
            }
        }
        Ok(Corpora { spool, messages, news, dense, rfcs })
    }
}

fn concat(files: Vec<(String, Vec<u8>)>) -> Vec<u8> {
    let mut out = Vec::new();
    for (_, f) in files {
        out.extend_from_slice(&f);
    }
    out
}
