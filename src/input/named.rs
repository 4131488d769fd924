//! Files named by path (Linux): looked up through a handle on their
//! folder, kept while the names that follow share it (issue 32: named
//! files cost no more than walked ones).
//!
//! A path given on the command line or by `--files-from` was asked its
//! type and size with a `stat` of the whole path, and opened again by the
//! whole path: two look-ups of every folder on the way, where a walked
//! file costs one look-up of its name in its folder's handle
//! ([`super::deep`]). Here consecutive names of one folder share a
//! handle on it, opened at the second name of the run (names of
//! folders that alternate cost what they did): each is asked its type
//! by `statat(folder, name)` and opened by `openat(folder, name)`
//! ([`Anchor::named`]), one name's look-up each.
//!
//! The answers are those of the path: a name is looked up in its folder
//! as the kernel looks up the path's last component (`.`, `..` and a
//! trailing `/` are left to the path), symbolic links are followed as a
//! `stat` of the path follows them, and whatever fails here (a folder
//! that cannot be opened, a name that cannot be asked) is asked again by
//! the whole path, so that an error reads word for word as before.
//!
//! When the sizes are not wanted ([`super::WalkOptions::skip_stat`]),
//! the folder may also be listed, so that a name found in the listing as
//! a regular file or a folder needs no `stat`, as a walked file needs
//! none (its size unknown, as a walked file's: the search learns it by
//! reading). Listing costs about 0.4 of a `stat` an entry here (ext4,
//! `getdents` and the sort: 100,000 entries listed for 5,000 names cost
//! 48 ms more than their `stat`s), so it is bought as a rent is (the
//! ski-rental rule): only once the names asked, a `stat` each, number
//! [`RENT`] (2/5) of the folder's entries, what listing them costs, the
//! entries estimated from the folder's size ([`ENTRY_BYTES`] an entry,
//! ext4's for names of ~40 bytes); and then no further than [`CREDIT`]
//! entries a name asked, in chunks of [`CHUNK`] bytes, should the
//! estimate be short. A few names
//! of a huge folder never list it; the names of a whole folder list it
//! when about 40% of them are asked, and pay at most about twice the
//! `stat`s they would have cost. Other types (links, devices, a name
//! not listed: made since) are asked as before. The listing is a
//! snapshot, as a walk's is: a file removed or replaced after it is
//! found so when it is opened.
//!
//! At most [`OPEN_FOLDERS`] such handles are held by the inputs listed
//! (a list collected whole, for a progress bar, of names from many
//! folders): past them a name is asked by its path, as before.

use super::anchor::Folder;
use super::deep::{head, OPEN_FOLDERS};
use super::{Anchor, Looked};
use rustix::fs::{
    openat, statat, AtFlags, FileType, Mode, OFlags, RawDir, CWD,
};
use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::{Arc, Weak};

/// Bytes of folder entries read at a time (`getdents64`).
const CHUNK: usize = 16 * 1024;

/// The listing starts once the names asked are this share of the
/// entries estimated (a `stat` costs about 2.5 entries listed).
const RENT: (usize, usize) = (2, 5);

/// Bytes of a folder's size an entry, for the estimate (ext4: 30 to 80).
const ENTRY_BYTES: u64 = 64;

/// Entries listed at most a name asked, the first chunk aside.
const CREDIT: usize = 3;

/// The folder handles of a walk's named paths.
#[derive(Debug, Default)]
pub(super) struct Parents {
    /// The folder of the last name looked up: its path, and its handle
    /// when opened (`None` at the first name of the folder, when it
    /// cannot be opened, or when too many are held).
    last: Option<(Vec<u8>, Handle)>,
    /// The listing of the last name's folder, as far as it has gone.
    listing: Listing,
    /// The handles given to inputs, to count those still held.
    held: Vec<Weak<Folder>>,
}

/// The handle of the last name's folder.
#[derive(Debug)]
enum Handle {
    /// Not asked for: one name of the folder so far.
    First,
    /// Opened, or not (`None`: it cannot be, or too many are held).
    Asked(Option<Arc<Folder>>),
}

/// An entry of a [`Listing`].
type Entry = (u64, usize, usize, FileType);

/// A folder's entries, read a chunk at a time, then sorted by name.
#[derive(Debug, Default)]
struct Listing {
    /// Their names, one after the other.
    names: Vec<u8>,
    /// Each entry: the first bytes of its name ([`head`]: names sort by
    /// them first), where its name starts and ends in `names`, its type.
    entries: Vec<Entry>,
    /// Whole and sorted: names can be found in it.
    whole: bool,
    /// Not to be read further (an error, or a handle not readable).
    stopped: bool,
    /// Names of the folder asked by `stat`.
    asked: usize,
    /// The entries the folder's size suggests; `None` until asked.
    estimate: Option<usize>,
    /// The entry of the last name found: names given in order find the
    /// next one next.
    at: usize,
}

impl Listing {
    /// The type of `name`, when the listing is whole and holds it.
    fn find(&mut self, name: &[u8]) -> Option<FileType> {
        if !self.whole {
            return None;
        }
        let names = &self.names;
        let key = |&(_, s, e, _): &Entry| names.get(s..e).unwrap_or_default();
        let near = [self.at + 1, self.at]
            .into_iter()
            .find(|&k| self.entries.get(k).map(key) == Some(name));
        let k = match near {
            Some(k) => k,
            None => {
                let first = head(name);
                let order =
                    |e: &Entry| e.0.cmp(&first).then_with(|| key(e).cmp(name));
                self.entries.binary_search_by(order).ok()?
            }
        };
        self.at = k;
        self.entries.get(k).map(|&(_, _, _, kind)| kind)
    }

    /// A name was asked by `stat`: once the names asked pay for the
    /// listing of `folder` ([`RENT`] of its estimated entries), the next
    /// chunks are read, up to [`CREDIT`] entries a name asked.
    fn asked(&mut self, folder: &Folder) {
        if self.whole || self.stopped {
            return;
        }
        self.asked += 1;
        let estimate = *self.estimate.get_or_insert_with(|| {
            rustix::fs::fstat(&folder.fd).map_or(usize::MAX, |st| {
                let size = u64::try_from(st.st_size).unwrap_or(u64::MAX);
                usize::try_from(size / ENTRY_BYTES).unwrap_or(usize::MAX)
            })
        });
        let (paid, rent) = (self.asked.saturating_mul(RENT.1), RENT.0);
        if paid < estimate.saturating_mul(rent) {
            return;
        }
        while !self.whole
            && !self.stopped
            && self.entries.len() <= self.asked.saturating_mul(CREDIT)
        {
            self.chunk(folder);
        }
    }

    /// Reads the next chunk of the listing of `folder`.
    fn chunk(&mut self, folder: &Folder) {
        let mut buf = Vec::with_capacity(CHUNK);
        let mut raw = RawDir::new(&folder.fd, buf.spare_capacity_mut());
        loop {
            match raw.next() {
                None => {
                    self.end();
                    return;
                }
                Some(Err(_)) => {
                    self.stopped = true;
                    return;
                }
                Some(Ok(e)) => {
                    let name = e.file_name().to_bytes();
                    if name != b"." && name != b".." {
                        let start = self.names.len();
                        self.names.extend_from_slice(name);
                        let end = self.names.len();
                        let first = head(name);
                        self.entries.push((first, start, end, e.file_type()));
                    }
                }
            }
            if raw.is_buffer_empty() {
                return;
            }
        }
    }

    /// The listing is read to its end: sorted, to be searched.
    fn end(&mut self) {
        let names = &self.names;
        let key = |&(_, s, e, _): &Entry| names.get(s..e).unwrap_or_default();
        let order = |a: &Entry, b: &Entry| {
            a.0.cmp(&b.0).then_with(|| key(a).cmp(key(b)))
        };
        self.entries.sort_unstable_by(order);
        self.whole = true;
    }
}

/// `path` as its folder and its last name, when the name can be looked
/// up in the folder as the kernel looks up the path: not `.` or `..`,
/// no trailing `/`, a folder named before it.
fn split(path: &[u8]) -> Option<(&[u8], &[u8])> {
    let slash = memchr::memrchr(b'/', path)?;
    let (dir, name) = (path.get(..slash)?, path.get(slash + 1..)?);
    let plain = !matches!(name, b"" | b"." | b"..");
    (plain && !dir.is_empty()).then_some((dir, name))
}

impl Parents {
    /// The type, size and handle of the file named `path`; an error as
    /// a `stat` of `path` gives it.
    ///
    /// With `listed`, the folder is listed as its names are asked, and
    /// a name found in its listing is not asked its size (`None`).
    pub(super) fn look(
        &mut self,
        path: &Path,
        listed: bool,
    ) -> io::Result<Looked> {
        let bytes = path.as_os_str().as_bytes();
        if let Some((dir, name)) = split(bytes) {
            if let Some(folder) = self.folder(dir) {
                if listed {
                    match self.listing.find(name) {
                        Some(FileType::RegularFile) => {
                            return Ok(Looked {
                                dir: false,
                                regular: true,
                                size: None,
                                anchor: Some(Anchor::named_listed(folder)),
                            });
                        }
                        Some(FileType::Directory) => {
                            return Ok(Looked {
                                dir: true,
                                regular: false,
                                size: None,
                                anchor: None,
                            });
                        }
                        _ => self.listing.asked(&folder),
                    }
                }
                let name = OsStr::from_bytes(name);
                if let Ok(st) = statat(&folder.fd, name, AtFlags::empty()) {
                    let kind = FileType::from_raw_mode(st.st_mode);
                    let regular = kind == FileType::RegularFile;
                    return Ok(Looked {
                        dir: kind == FileType::Directory,
                        regular,
                        size: regular
                            .then(|| u64::try_from(st.st_size).ok())
                            .flatten(),
                        anchor: regular.then(|| Anchor::named(folder)),
                    });
                }
            }
        }
        let meta = std::fs::metadata(path)?;
        let regular = meta.is_file();
        Ok(Looked {
            dir: meta.is_dir(),
            regular,
            size: regular.then_some(meta.len()),
            anchor: None,
        })
    }

    /// The handle of the folder `dir`: the last one when the names share
    /// it, opened at the second name (`None` at the first, when it
    /// cannot be opened, or when [`OPEN_FOLDERS`] are held by inputs
    /// already).
    fn folder(&mut self, dir: &[u8]) -> Option<Arc<Folder>> {
        let handle = match &mut self.last {
            Some((last, handle)) if last.as_slice() == dir => handle,
            _ => {
                self.last = Some((dir.to_vec(), Handle::First));
                return None;
            }
        };
        if let Handle::Asked(folder) = handle {
            return folder.clone();
        }
        self.held.retain(|w| w.strong_count() > 0);
        let folder = match self.held.len() < OPEN_FOLDERS {
            true => open(dir),
            false => None,
        };
        self.listing = Listing::default();
        let folder = folder.map(|(folder, readable)| {
            self.listing.stopped = !readable;
            Arc::new(folder)
        });
        if let Some(f) = &folder {
            self.held.push(Arc::downgrade(f));
        }
        *handle = Handle::Asked(folder.clone());
        folder
    }
}

/// The folder `dir`, opened for reading (to be listed), else for
/// look-ups only (`O_PATH`: a path's look-up needs no read access), and
/// whether it can be listed.
fn open(dir: &[u8]) -> Option<(Folder, bool)> {
    let dir = OsStr::from_bytes(dir);
    let read = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let (fd, readable) = match openat(CWD, dir, read, Mode::empty()) {
        Ok(fd) => (fd, true),
        Err(_) => {
            let look = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
            (openat(CWD, dir, look, Mode::empty()).ok()?, false)
        }
    };
    Some((Folder::new(fd, Arc::new(Vec::new())), readable))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_keeps_what_the_path_says() {
        assert_eq!(split(b"a/b"), Some((&b"a"[..], &b"b"[..])));
        assert_eq!(split(b"/x/y/z"), Some((&b"/x/y"[..], &b"z"[..])));
        assert_eq!(split(b"a//b"), Some((&b"a/"[..], &b"b"[..])));
        for path in [&b"b"[..], b"/b", b"a/", b"a/.", b"a/..", b""] {
            assert_eq!(split(path), None, "{:?}", OsStr::from_bytes(path));
        }
    }

    /// Names in any order are found in the listing, with their types: a
    /// folder, a link (asked: followed, as a path's `stat` follows it),
    /// a name made after the listing (asked).
    #[test]
    fn listed_names_in_any_order() {
        let dir = tempfile::tempdir().unwrap();
        let name = |i: usize| format!("{}{i}", ["m", "", "zz"][i % 3]);
        for i in 0..200 {
            std::fs::write(dir.path().join(name(i)), b"x").unwrap();
        }
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::os::unix::fs::symlink("m0", dir.path().join("link")).unwrap();
        let mut parents = Parents::default();
        let mut order: Vec<usize> = (0..200).map(|i| i * 7 % 200).collect();
        order.extend(0..200);
        let mut unasked = 0;
        for &i in &order {
            let got = parents.look(&dir.path().join(name(i)), true).unwrap();
            assert!(got.regular && !got.dir, "{i}");
            unasked += usize::from(got.size.is_none());
        }
        assert!(unasked >= 300, "{unasked}");
        std::fs::write(dir.path().join("late"), b"x").unwrap();
        for (n, (dir_, regular, size)) in [
            ("sub", (true, false, None)),
            ("link", (false, true, Some(1))),
            ("late", (false, true, Some(1))),
        ] {
            let got = parents.look(&dir.path().join(n), true).unwrap();
            assert_eq!(
                (got.dir, got.regular, got.size),
                (dir_, regular, size)
            );
        }
    }
}
