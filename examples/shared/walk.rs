//! The walk of the comparison peers (`memchr_floor`, `linkify_count`):
//! the files of a path, as urlgrep walks them.

use std::io;
use std::path::Path;

/// Calls `f` on `path`, or, for a folder, on every regular file below it
/// in name order, their kinds as the folder lists them (no `stat` per
/// file, as urlgrep walks folders).
pub fn each_file(
    path: &Path,
    f: &mut dyn FnMut(&Path) -> io::Result<()>,
) -> io::Result<()> {
    if !path.is_dir() {
        return f(path);
    }
    folder(path, f)
}

fn folder(
    path: &Path,
    f: &mut dyn FnMut(&Path) -> io::Result<()>,
) -> io::Result<()> {
    let mut entries = std::fs::read_dir(path)?
        .map(|e| e.and_then(|e| Ok((e.path(), e.file_type()?))))
        .collect::<io::Result<Vec<_>>>()?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (entry, kind) in entries {
        if kind.is_dir() {
            folder(&entry, f)?;
        } else if kind.is_file() {
            f(&entry)?;
        }
    }
    Ok(())
}
