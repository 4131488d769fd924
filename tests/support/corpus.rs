//! The mail corpora of `../shared/corpora`, read from their tarballs.

use std::io::Read;

/// The files of a corpus tarball, in archive order, or `None` when
/// `../shared` is absent (see [`super::shared::path`]).
pub fn corpus(dir: &str, file: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let path = super::shared::path(&format!("corpora/{dir}/{file}"))?;
    let gz = flate2::read::GzDecoder::new(std::fs::File::open(&path).ok()?);
    let mut archive = tar::Archive::new(gz);
    let mut out = Vec::new();
    for entry in archive.entries().ok()? {
        let mut entry = entry.ok()?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let name = entry.path().ok()?.display().to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).ok()?;
        out.push((name, bytes));
    }
    Some(out)
}
