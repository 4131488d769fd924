//! `--files-from FILE`: the paths to search, read one at a time as the
//! search needs them (issue 33.13): searching starts at once and memory
//! stays bounded whatever the list holds (`--files-from /dev/zero` once
//! reached 7.1 GB before a file was searched).
//!
//! Names are NUL-separated when the first [`SNIFF`] bytes of the list
//! hold a NUL (`find -print0`; a name cannot hold one), else one a line
//! (a CR before the line break is dropped); empty names are skipped. An
//! entry longer than [`LONGEST`] bytes is no path the system would open:
//! the list is refused there, named with the entry's offset.

use anyhow::Context;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The most bytes of the list read to choose the separator.
const SNIFF: usize = 64 * 1024;

/// The longest entry: four times Linux's `PATH_MAX`.
pub(super) const LONGEST: usize = 4 * 4096;

type Source = Box<dyn BufRead + Send + Sync>;

/// The paths of a list, in order; the first error reading it ends them
/// and is kept for [`Errors::take`].
pub(super) struct PathList {
    rdr: Source,
    sep: u8,
    name: String,
    /// Offset of the next entry in the list.
    offset: u64,
    entry: Vec<u8>,
    error: Errors,
}

/// The error that ended a [`PathList`], shared with the caller.
#[derive(Clone, Default)]
pub(super) struct Errors(Arc<Mutex<Option<anyhow::Error>>>);

impl Errors {
    /// The error that ended the list, if one did.
    pub(super) fn take(&self) -> Option<anyhow::Error> {
        self.0.lock().ok().and_then(|mut e| e.take())
    }

    fn set(&self, e: anyhow::Error) {
        if let Ok(mut slot) = self.0.lock() {
            slot.get_or_insert(e);
        }
    }
}

impl PathList {
    /// Opens `list` (`-`: stdin) and reads up to [`SNIFF`] bytes of it.
    pub(super) fn open(list: &Path) -> anyhow::Result<(PathList, Errors)> {
        let stdin = list.as_os_str() == "-";
        let name = match stdin {
            true => "<stdin>".to_string(),
            false => list.display().to_string(),
        };
        let rdr: Source = if stdin {
            urlgrep::input::stdin_open().context("<stdin>")?;
            Box::new(BufReader::new(io::stdin()))
        } else {
            let file =
                std::fs::File::open(list).with_context(|| name.clone())?;
            Box::new(BufReader::with_capacity(64 * 1024, file))
        };
        PathList::new(rdr, name)
    }

    fn new(
        mut rdr: Source,
        name: String,
    ) -> anyhow::Result<(PathList, Errors)> {
        let mut head = Vec::new();
        let mut nul = false;
        while head.len() < SNIFF && !nul {
            let chunk = rdr.fill_buf().with_context(|| name.clone())?;
            if chunk.is_empty() {
                break;
            }
            nul = memchr::memchr(0, chunk).is_some();
            let n = chunk.len();
            head.extend_from_slice(chunk);
            rdr.consume(n);
        }
        let error = Errors::default();
        let list = PathList {
            rdr: Box::new(Cursor::new(head).chain(rdr)),
            sep: if nul { 0 } else { b'\n' },
            name,
            offset: 0,
            entry: Vec::new(),
            error: error.clone(),
        };
        Ok((list, error))
    }

    /// The next entry, empty ones included; `None` at the end or on an
    /// error (kept).
    fn entry(&mut self) -> Option<PathBuf> {
        self.entry.clear();
        let limit = LONGEST as u64 + 1;
        let read =
            (&mut self.rdr).take(limit).read_until(self.sep, &mut self.entry);
        let n = match read {
            Ok(0) => return None,
            Ok(n) => n,
            Err(e) => {
                let at = self.offset;
                let e = anyhow::Error::new(e)
                    .context(format!("{}: offset {at}", self.name));
                self.error.set(e);
                return None;
            }
        };
        let at = self.offset;
        self.offset += n as u64;
        let name = match self.entry.strip_suffix(&[self.sep]) {
            Some(name) => name,
            None if n > LONGEST => {
                self.error.set(anyhow::anyhow!(
                    "{}: offset {at}: an entry longer than {LONGEST} bytes \
                     is not a path",
                    self.name
                ));
                return None;
            }
            None => &self.entry,
        };
        let name = match self.sep {
            b'\n' => name.strip_suffix(b"\r").unwrap_or(name),
            _ => name,
        };
        Some(path_from_bytes(name.to_vec()))
    }
}

impl Iterator for PathList {
    type Item = PathBuf;

    fn next(&mut self) -> Option<PathBuf> {
        loop {
            let path = self.entry()?;
            if !path.as_os_str().is_empty() {
                return Some(path);
            }
        }
    }
}

#[cfg(unix)]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(OsString::from_vec(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(bytes: &[u8]) -> (Vec<PathBuf>, Option<String>) {
        let rdr: Source = Box::new(Cursor::new(bytes.to_vec()));
        let (list, errors) =
            PathList::new(rdr, "l".into()).expect("an in-memory list");
        let paths = list.collect();
        (paths, errors.take().map(|e| format!("{e:#}")))
    }

    fn paths(names: &[&str]) -> Vec<PathBuf> {
        names.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn lines_and_nuls() {
        assert_eq!(list(b"a\r\n\nb c\nd"), (paths(&["a", "b c", "d"]), None));
        assert_eq!(list(b"a\nb\0c\0\0"), (paths(&["a\nb", "c"]), None));
        assert_eq!(list(b""), (vec![], None));
    }

    #[test]
    fn an_over_long_entry_is_refused_where_it_is() {
        let mut bytes = b"a\nbb\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'x', 3 * 1024 * 1024));
        bytes.extend_from_slice(b"\nc\n");
        let (got, err) = list(&bytes);
        assert_eq!(got, paths(&["a", "bb"]));
        let err = err.expect("an error");
        assert_eq!(
            err,
            "l: offset 5: an entry longer than 16384 bytes is not a path"
        );
        // One of exactly LONGEST bytes is a name (and its line break).
        let mut bytes = vec![b'y'; LONGEST];
        bytes.push(b'\n');
        assert_eq!(list(&bytes).0.len(), 1);
    }
}
