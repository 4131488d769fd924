//! Folders walked by handle (Linux): the part of a tree whose paths could
//! pass `PATH_MAX` (issue 20, B2), and every folder walk whose links are
//! not followed (issue 21: a file opened by name in its folder's handle
//! costs the kernel one name's look-up, not its whole path's, and the
//! listing costs a third of walkdir's instructions).
//!
//! Linux refuses a path of `PATH_MAX` (4096) bytes or more with "File
//! name too long", so walkdir, which opens every folder by its path,
//! cannot go below a certain depth. [`super::Walk`] hands a folder over to
//! [`Deep`] as soon as one name more could make a path too long: from
//! there, each folder is opened relative to its parent's handle
//! (`openat(2)`), and each file is listed with an [`Anchor`] (its
//! folder's handle and its name), which the driver opens it by
//! ([`super::Input::open`]). Paths are still built, to be printed.
//!
//! The walk is walkdir's, entry for entry: the same sorted order (by the
//! bytes of the names), the same globs, depth limit, symbolic link rules
//! and loop check, and the same error messages at the same places.
//!
//! At most [`OPEN_FOLDERS`] folders being walked hold a descriptor, the
//! innermost ones (walkdir holds at most ten): a folder above them is
//! closed, and opened again through its child's `..` when the walk comes
//! back to it (checked to be the same folder by its device and inode;
//! else by its names from the nearest open folder above it). Each
//! folder's path is a prefix of one path buffer. A tree of 5,000 levels
//! held 5,000 descriptors (2 of its 10 files searched at `ulimit -n
//! 1024`), and a path per level (3,000 levels of 200-byte names: 896 MB).
//! Issue 33.14.

use super::anchor::Folder;
use super::{Anchor, Input, InputError, Source, WalkOptions};
use rustix::fs::{
    fstat, openat, statat, AtFlags, FileType, Mode, OFlags, RawDir, Stat,
};
use std::cmp::Ordering;
use std::ffi::{CStr, OsString};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Linux's `PATH_MAX`: the bytes of a path, its closing NUL included.
const PATH_MAX: usize = 4096;

/// Linux's `NAME_MAX`: the bytes of one name.
const NAME_MAX: usize = 255;

/// Whether the folder `path` is walked by handle: a name below it could
/// make a path of `PATH_MAX` bytes with its NUL. Below a folder that is
/// not, every path is short enough, so walkdir never opens a path that
/// is too long.
pub(super) fn by_handle(path: &Path) -> bool {
    path.as_os_str().len() + 1 + NAME_MAX >= PATH_MAX
}

/// Bytes of folder entries read at a time (`getdents64`): what glibc's
/// `readdir` reads, a few hundred names.
const DIR_BUF: usize = 32 * 1024;

/// One entry of a folder: the first bytes of its name ([`head`]), where
/// its name starts and ends (at its NUL) in the folder's names, and its
/// type as `readdir` gives it.
type Entry = io::Result<(u64, usize, usize, FileType)>;

/// Folders being walked that hold a descriptor, at most: the innermost.
pub(super) const OPEN_FOLDERS: usize = 32;

/// A folder being walked.
#[derive(Debug)]
struct Frame {
    /// The folder, opened, with the names of its entries; `None` while
    /// it is closed (deeper folders hold the descriptors).
    dir: Option<Arc<Folder>>,
    /// The names of its entries, each closed by a NUL.
    names: Arc<Vec<u8>>,
    /// Where its own name starts in its parent's `names` (0 for the
    /// first folder).
    name: usize,
    /// Its device and inode, taken when it is closed.
    id: Option<(u64, u64)>,
    /// The length of its path, as printed: a prefix of [`Deep::path`].
    len: usize,
    /// Its depth below the folder named (walkdir's: that folder is 0).
    depth: usize,
    /// Its entries not yet walked, sorted by name (a read error first).
    entries: std::vec::IntoIter<Entry>,
}

/// The walk of one folder's tree by handles.
#[derive(Debug)]
pub(super) struct Deep {
    /// The folder named, that globs are matched below.
    root: PathBuf,
    /// The folder the walk by handle started at (opened by its path).
    top: PathBuf,
    /// The path of the innermost folder; the others' are its prefixes.
    path: Vec<u8>,
    /// The folders being walked, the innermost last.
    stack: Vec<Frame>,
    /// With links followed: the device and inode of every folder from
    /// the root to the innermost, with the length of its path (a prefix
    /// of `path`), for walkdir's loop check.
    ancestors: Vec<(usize, u64, u64)>,
    /// Folders opened again by their names ([`Deep::reopen`]).
    #[cfg(test)]
    reopened: usize,
}

/// An error about `path`.
fn error(path: PathBuf, error: io::Error) -> InputError {
    InputError { source: Source::Path(path), offset: None, error }
}

/// The entries of the folder `dir` but `.` and `..`, sorted as walkdir
/// sorts them ([`super::by_name`]): by the bytes of the names, a read
/// error (`readdir` gives at most one) first; and their names, each
/// closed by a NUL, in one buffer.
///
/// The folder is read with `getdents64` into one buffer (`RawDir`), each
/// name copied out once, into the names of the folder: `Dir` copied each
/// into a `CString` of its own, then a `CString` per file was kept until
/// the file was searched (two allocations a file).
fn entries(dir: &OwnedFd) -> (Vec<u8>, Vec<Entry>) {
    let mut out = Vec::new();
    let mut names = Vec::new();
    let mut buf = Vec::with_capacity(DIR_BUF);
    let mut raw = RawDir::new(dir, buf.spare_capacity_mut());
    while let Some(entry) = raw.next() {
        match entry {
            Ok(e) => {
                let name = e.file_name().to_bytes_with_nul();
                if name != b".\0" && name != b"..\0" {
                    let start = names.len();
                    names.extend_from_slice(name);
                    let end = names.len() - 1;
                    let first = head(&name[..name.len() - 1]);
                    out.push(Ok((first, start, end, e.file_type())));
                }
            }
            Err(e) => {
                out.push(Err(e.into()));
                break;
            }
        }
    }
    // Names are unique and `readdir` gives at most one error: the
    // unstable sort orders them as the stable one would, with less
    // moving.
    // By `head`, then the bytes; the head taken once per name.
    let name = |s: usize, e: usize| names.get(s..e).unwrap_or_default();
    out.sort_unstable_by(|a, b| match (a, b) {
        (Ok(a), Ok(b)) => {
            a.0.cmp(&b.0).then_with(|| name(a.1, a.2).cmp(name(b.1, b.2)))
        }
        (Ok(_), Err(_)) => Ordering::Greater,
        (Err(_), Ok(_)) => Ordering::Less,
        (Err(_), Err(_)) => Ordering::Equal,
    });
    (names, out)
}

/// The path of the entry `name` of the folder `dir`: `dir.join(name)`,
/// which a name read from a folder (one component, never empty, no `/`)
/// makes a copy with a `/` between, unless `dir` ends with one. Without
/// `join`'s look at the components of both (700 instructions a file).
fn child(dir: &Path, name: &[u8]) -> PathBuf {
    let dir = dir.as_os_str().as_bytes();
    let mut path = Vec::with_capacity(dir.len() + 1 + name.len());
    path.extend_from_slice(dir);
    if dir.last().is_some_and(|&b| b != b'/') {
        path.push(b'/');
    }
    path.extend_from_slice(name);
    PathBuf::from(OsString::from_vec(path))
}

/// The first 8 bytes of `name` as a big-endian number, zeros past its
/// end. Names sort by it first (a name has no NUL, so one padded with
/// zeros sorts before any longer one it begins), by their bytes only
/// when it is equal: the names of a folder of messages differ in their
/// first bytes (`00001.7c53…`), and a `memcmp` call per comparison was
/// two thirds of the sort.
pub(super) fn head(name: &[u8]) -> u64 {
    if let Some(first) = name.first_chunk::<8>() {
        return u64::from_be_bytes(*first);
    }
    let mut word = [0; 8];
    for (w, &c) in word.iter_mut().zip(name) {
        *w = c;
    }
    u64::from_be_bytes(word)
}

/// Opens the folder `name` of `dir` (following a link to it).
fn open_dir(dir: &OwnedFd, name: &CStr) -> io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    Ok(openat(dir, name, flags, Mode::empty())?)
}

/// The device and inode of an open file.
fn dev_ino(fd: &OwnedFd) -> io::Result<(u64, u64)> {
    Ok(id(&fstat(fd)?))
}

/// The device and inode a `stat` gives.
// `c_ulong` on some targets (32 bits on 32-bit ones), `u64` on others.
#[allow(clippy::useless_conversion)]
fn id(st: &Stat) -> (u64, u64) {
    (u64::from(st.st_dev), u64::from(st.st_ino))
}

impl Deep {
    /// Starts below the folder `path` (at `depth`, walkdir's depth, of the
    /// walk of `root`): `root` itself at depth 0, or a folder walkdir has
    /// listed but not entered. Its path is still short enough to open.
    pub(super) fn start(
        root: &Path,
        path: &Path,
        depth: usize,
        opts: &WalkOptions,
    ) -> Result<Deep, InputError> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let dir = rustix::fs::open(path, flags, Mode::empty())
            .map_err(|e| error(path.to_path_buf(), e.into()))?;
        let (names, list) = entries(&dir);
        let mut ancestors = Vec::new();
        if opts.follow_links {
            // walkdir's ancestors: every folder entered, from the root.
            let above: Vec<&Path> = path
                .ancestors()
                .skip(1)
                .take_while(|a| a.starts_with(root))
                .collect();
            for a in above.into_iter().rev() {
                use std::os::unix::fs::MetadataExt;
                if let Ok(m) = std::fs::metadata(a) {
                    let len = a.as_os_str().len();
                    ancestors.push((len, m.dev(), m.ino()));
                }
            }
            if let Ok((dev, ino)) = dev_ino(&dir) {
                ancestors.push((path.as_os_str().len(), dev, ino));
            }
        }
        let names = Arc::new(names);
        let frame = Frame {
            dir: Some(Arc::new(Folder::new(dir, Arc::clone(&names)))),
            names,
            name: 0,
            id: None,
            len: path.as_os_str().len(),
            depth,
            entries: list.into_iter(),
        };
        Ok(Deep {
            root: root.to_path_buf(),
            top: path.to_path_buf(),
            path: path.as_os_str().as_bytes().to_vec(),
            stack: vec![frame],
            ancestors,
            #[cfg(test)]
            reopened: 0,
        })
    }

    /// The path of the innermost folder, or of its ancestor whose path
    /// is `len` bytes long.
    fn path_of(&self, len: usize) -> &Path {
        let bytes = self.path.get(..len).unwrap_or(&self.path);
        Path::new(std::ffi::OsStr::from_bytes(bytes))
    }

    /// Folders holding a descriptor, and bytes of paths held.
    #[cfg(test)]
    fn held(&self) -> (usize, usize) {
        let open = self.stack.iter().filter(|f| f.dir.is_some()).count();
        (open, self.path.capacity())
    }

    /// Walks into the folder `fd` at `path` (its name at `name` of the
    /// innermost folder's names), closing the folder that is then one
    /// more than [`OPEN_FOLDERS`] up.
    fn push(&mut self, fd: OwnedFd, path: PathBuf, name: usize, depth: usize) {
        let (names, list) = entries(&fd);
        let names = Arc::new(names);
        self.path = path.into_os_string().into_vec();
        self.stack.push(Frame {
            dir: Some(Arc::new(Folder::new(fd, Arc::clone(&names)))),
            names,
            name,
            id: None,
            len: self.path.len(),
            depth,
            entries: list.into_iter(),
        });
        let far = self.stack.len().checked_sub(OPEN_FOLDERS + 1);
        if let Some(f) = far.and_then(|k| self.stack.get_mut(k)) {
            if let Some(dir) = f.dir.take() {
                f.id = dev_ino(&dir.fd).ok();
            }
        }
    }

    /// Leaves the innermost folder; opens its parent again when it was
    /// closed (an error when that fails, its entries then skipped).
    fn pop(&mut self) -> Option<InputError> {
        let done = self.stack.pop()?;
        let t = self.stack.len().checked_sub(1)?;
        let top = self.stack.get(t)?;
        self.path.truncate(top.len);
        if top.dir.is_some() {
            return None;
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let up = done.dir.as_ref().and_then(|d| {
            let fd = openat(&d.fd, c"..", flags, Mode::empty()).ok()?;
            (dev_ino(&fd).ok() == top.id).then_some(fd)
        });
        let fd = match up {
            Some(fd) => Ok(fd),
            None => {
                #[cfg(test)]
                {
                    self.reopened += 1;
                }
                self.reopen(t)
            }
        };
        let top = self.stack.get_mut(t)?;
        match fd {
            Ok(fd) => {
                let names = Arc::clone(&top.names);
                top.dir = Some(Arc::new(Folder::new(fd, names)));
                None
            }
            Err(e) => {
                top.entries = Vec::new().into_iter();
                let path = self.path_of(self.path.len()).to_path_buf();
                Some(error(path, e))
            }
        }
    }

    /// Opens folder `t` of the stack again by its names, from the
    /// nearest open folder above it (or the first folder, by its path):
    /// when its child's `..` is not it (it moved, or was reached through
    /// a link).
    fn reopen(&self, t: usize) -> io::Result<OwnedFd> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let above = self.stack.get(..t).unwrap_or_default();
        let open = above.iter().rposition(|f| f.dir.is_some());
        let (mut fd, from) = match open.and_then(|k| {
            let dir = self.stack.get(k)?.dir.as_ref()?;
            Some((openat(&dir.fd, c".", flags, Mode::empty()), k + 1))
        }) {
            Some((fd, from)) => (fd?, from),
            None => (rustix::fs::open(&self.top, flags, Mode::empty())?, 1),
        };
        for k in from..=t {
            let (Some(up), Some(f)) =
                (self.stack.get(k - 1), self.stack.get(k))
            else {
                break;
            };
            let name = up.names.get(f.name..).unwrap_or_default();
            let name = CStr::from_bytes_until_nul(name)
                .map_err(|_| io::Error::from(io::ErrorKind::InvalidData))?;
            fd = openat(&fd, name, flags, Mode::empty())?;
        }
        let want = self.stack.get(t).and_then(|f| f.id);
        if dev_ino(&fd).ok() != want {
            let what = "the folder changed while it was walked";
            return Err(io::Error::other(what));
        }
        Ok(fd)
    }

    /// `path` below the folder named, as globs match it (only asked
    /// when there are globs: taking a prefix off a path reads the
    /// components of both).
    fn below_root<'p>(&self, path: &'p Path) -> &'p Path {
        path.strip_prefix(&self.root).unwrap_or(path)
    }

    /// The next input, or error, of the walk; `None` at its end.
    pub(super) fn next(
        &mut self,
        opts: &WalkOptions,
    ) -> Option<Result<Input, InputError>> {
        loop {
            let frame = self.stack.last_mut()?;
            let Some(entry) = frame.entries.next() else {
                if opts.follow_links {
                    self.ancestors.pop();
                }
                if let Some(e) = self.pop() {
                    return Some(Err(e));
                }
                continue;
            };
            let (_, start, end, mut kind) = match entry {
                Ok(e) => e,
                // As walkdir: a read error of a folder names the root.
                Err(e) => return Some(Err(error(self.root.clone(), e))),
            };
            // The innermost folder is open ([`Deep::pop`]).
            let Some(dir) = frame.dir.clone() else { continue };
            let depth = frame.depth + 1;
            // `entries` made it: never missing.
            let Some(bytes) = dir.names.get(start..end) else { continue };
            let path = child(self.path_of(self.path.len()), bytes);
            // Its name with its NUL, for the calls that take one.
            let name = || dir.name(start).unwrap_or_default();
            let mut target = None;
            if kind == FileType::Unknown {
                let st = statat(&dir.fd, name(), AtFlags::SYMLINK_NOFOLLOW);
                match st {
                    Ok(st) => kind = FileType::from_raw_mode(st.st_mode),
                    Err(e) => return Some(Err(error(path, e.into()))),
                }
            }
            if kind == FileType::Symlink && opts.follow_links {
                match statat(&dir.fd, name(), AtFlags::empty()) {
                    Ok(st) => {
                        kind = FileType::from_raw_mode(st.st_mode);
                        target = Some(st);
                    }
                    Err(e) => return Some(Err(error(path, e.into()))),
                }
            }
            match kind {
                FileType::Directory => {
                    if let Some(st) = target {
                        let id = id(&st);
                        let up = self.ancestors.iter().rev();
                        if let Some((a, ..)) =
                            up.into_iter().find(|(_, d, i)| (*d, *i) == id)
                        {
                            let e = io::Error::other(format!(
                                "File system loop found: {} points to an \
                                 ancestor {}",
                                path.display(),
                                self.path_of(*a).display()
                            ));
                            return Some(Err(error(path, e)));
                        }
                    }
                    let globs = &opts.globs;
                    if !globs.is_empty()
                        && !globs.allows(self.below_root(&path), true)
                    {
                        continue;
                    }
                    if opts.max_depth.is_some_and(|m| depth >= m) {
                        continue;
                    }
                    let fd = match open_dir(&dir.fd, name()) {
                        Ok(fd) => fd,
                        Err(e) => return Some(Err(error(path, e))),
                    };
                    if opts.follow_links {
                        if let Ok((dev, ino)) = dev_ino(&fd) {
                            let len = path.as_os_str().len();
                            self.ancestors.push((len, dev, ino));
                        }
                    }
                    self.push(fd, path, start, depth);
                }
                FileType::RegularFile => {
                    let globs = &opts.globs;
                    if !globs.is_empty()
                        && !globs.allows(self.below_root(&path), false)
                    {
                        continue;
                    }
                    let size = match (opts.skip_stat, target) {
                        (true, _) => None,
                        (false, Some(st)) => u64::try_from(st.st_size).ok(),
                        (false, None) => {
                            let flags = AtFlags::SYMLINK_NOFOLLOW;
                            statat(&dir.fd, name(), flags)
                                .ok()
                                .and_then(|st| u64::try_from(st.st_size).ok())
                        }
                    };
                    return Some(Ok(Input {
                        source: Source::Path(path),
                        size,
                        regular: true,
                        walked: true,
                        anchor: Some(Anchor::new(dir, start)),
                    }));
                }
                // Links not followed, FIFOs, sockets and devices.
                _ => continue,
            }
        }
    }
}

/// Deep trees for tests, built through folder handles (a path this long
/// cannot be made from the top).
#[cfg(test)]
pub(crate) mod testing {
    use rustix::fs::{mkdirat, openat, Mode, OFlags};
    use std::io::Write;
    use std::os::fd::OwnedFd;
    use std::path::Path;

    /// The name of every folder of [`tree`]: 200 bytes.
    pub(crate) fn name() -> String {
        "d".repeat(200)
    }

    /// `levels` folders named [`name`] below `root`, each holding a file
    /// `f` with the URL `http://level{i}.example/`; returns the handle of
    /// every folder, `root`'s first.
    pub(crate) fn tree(root: &Path, levels: usize) -> Vec<OwnedFd> {
        let dirs = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        let file = OFlags::WRONLY | OFlags::CREATE | OFlags::CLOEXEC;
        let mut fds =
            vec![rustix::fs::open(root, dirs, Mode::empty()).unwrap()];
        for i in 1..=levels {
            let up = fds.last().unwrap();
            mkdirat(up, name().as_str(), Mode::from_bits_truncate(0o755))
                .unwrap();
            let fd = openat(up, name().as_str(), dirs, Mode::empty()).unwrap();
            let f = openat(&fd, "f", file, Mode::from_bits_truncate(0o644))
                .unwrap();
            let mut f = std::fs::File::from(f);
            writeln!(f, "http://level{i}.example/").unwrap();
            fds.push(fd);
        }
        fds
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{name, tree};
    use super::*;
    use std::io::Read;

    /// The path of the folder at `level` below `root`.
    fn at(root: &Path, level: usize) -> PathBuf {
        let mut p = root.to_path_buf();
        for _ in 0..level {
            p.push(name());
        }
        p
    }

    /// The order `entries` sorts by: [`head`], then the bytes.
    fn by_bytes(a: &[u8], b: &[u8]) -> Ordering {
        head(a).cmp(&head(b)).then_with(|| a.cmp(b))
    }

    /// Names compare as their bytes do, whatever their lengths and
    /// where they first differ (before, at or past the 8th byte).
    #[test]
    fn names_sort_by_their_bytes() {
        let names: [&[u8]; 14] = [
            b"a",
            b"ab",
            b"abcdefg",
            b"abcdefgh",
            b"abcdefgh0",
            b"abcdefgi",
            b"abcdefgh\xff",
            b"b",
            b"\xff",
            b"\x01",
            b"00001.7c53",
            b"00001.7c52",
            b"00002",
            b"0000",
        ];
        for a in names {
            for b in names {
                assert_eq!(by_bytes(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
        // Files listed with a folder walk come in that order.
        let dir = tempfile::tempdir().unwrap();
        let mut want = Vec::new();
        for n in ["b", "abcdefgh1", "abcdefgh", "a", "abcdefgh0", ".x"] {
            std::fs::write(dir.path().join(n), "x").unwrap();
            want.push(dir.path().join(n));
        }
        want.sort();
        let opts = WalkOptions::default();
        let got: Vec<PathBuf> = super::super::walk(&[dir.path().into()], opts)
            .into_iter()
            .map(|r| match r.unwrap().source {
                Source::Path(p) => p,
                Source::Stdin => unreachable!(),
            })
            .collect();
        assert_eq!(got, want);
    }

    /// Every file of a tree 25 folders deep is listed, in walkdir's
    /// order, with its size and real path; the ones past PATH_MAX have an
    /// anchor that opens them (their path does not).
    #[test]
    fn deep_files_are_listed_and_opened() {
        let dir = tempfile::tempdir().unwrap();
        tree(dir.path(), 25);
        for skip_stat in [false, true] {
            let opts = WalkOptions { skip_stat, ..Default::default() };
            let got = super::super::walk(&[dir.path().to_path_buf()], opts);
            assert_eq!(got.len(), 25);
            for (k, item) in got.into_iter().enumerate() {
                let level = 25 - k;
                let input = item.unwrap();
                let path = at(dir.path(), level).join("f");
                assert_eq!(input.source, Source::Path(path.clone()));
                let text = format!("http://level{level}.example/\n");
                let size = text.len() as u64;
                assert_eq!(input.size, (!skip_stat).then_some(size));
                let mut read = String::new();
                input.open().unwrap().read_to_string(&mut read).unwrap();
                assert_eq!(read, text);
                if path.as_os_str().len() >= PATH_MAX {
                    assert!(input.anchor.is_some(), "{level}");
                    let e = std::fs::File::open(&path).unwrap_err();
                    assert_eq!(e.raw_os_error(), Some(36), "ENAMETOOLONG");
                }
            }
        }
    }

    /// Below the hand-over, links are followed (`-L`) or skipped as
    /// walkdir does, and a loop is reported with walkdir's message, at
    /// the same place: a shallow tree and a deep one give the same.
    #[test]
    fn links_and_loops_as_walkdir() {
        let dir = tempfile::tempdir().unwrap();
        let fds = tree(dir.path(), 24);
        // The same links at level 2 (walkdir's walk) and level 23 (by
        // handle): one to the folder two up, one to the `f` beside it.
        for level in [2, 23] {
            rustix::fs::symlinkat("../..", &fds[level], "up").unwrap();
            rustix::fs::symlinkat("f", &fds[level], "g").unwrap();
        }
        let names = |follow_links| -> Vec<String> {
            let opts = WalkOptions {
                follow_links,
                skip_stat: true,
                ..Default::default()
            };
            let got = super::super::walk(&[dir.path().to_path_buf()], opts);
            let short = |p: &Path| {
                let p = p.strip_prefix(dir.path()).unwrap_or(p);
                p.to_string_lossy().replace(&name(), "D")
            };
            got.iter()
                .map(|r| match r {
                    Ok(Input { source: Source::Path(p), .. }) => short(p),
                    Ok(_) => "stdin".into(),
                    Err(e) => {
                        let at = match &e.source {
                            Source::Path(p) => short(p),
                            Source::Stdin => "stdin".into(),
                        };
                        let root = dir.path().to_string_lossy().into_owned();
                        let msg = e.error.to_string().replace(&root, "");
                        format!("{at}: {}", msg.replace(&name(), "D"))
                    }
                })
                .collect()
        };
        let plain = names(false);
        assert_eq!(plain.len(), 24);
        let d = |n: usize| "D/".repeat(n);
        let followed = names(true);
        // The ancestor two up, the root's path taken out.
        let loop_at = |n: usize| {
            let up = d(n - 2);
            let up = match up.trim_end_matches('/') {
                "" => String::new(),
                up => format!("/{up}"),
            };
            format!(
                "{}up: File system loop found: /{}up points to an \
                 ancestor {up}",
                d(n),
                d(n),
            )
        };
        // Walk order: `D/` before `f`, `f` before `g`, `g` before `up`.
        let mut want = Vec::new();
        for level in (1..=24).rev() {
            want.push(format!("{}f", d(level)));
            if level == 23 || level == 2 {
                want.push(format!("{}g", d(level)));
                want.push(loop_at(level));
            }
        }
        assert_eq!(followed, want);
    }

    /// Issue 33.14: a tree of `3 * OPEN_FOLDERS + 9` levels (paths far
    /// past PATH_MAX) holds at most `OPEN_FOLDERS` folders open while it
    /// is walked, and one path buffer (not a path per level, which grew
    /// as the square of the depth); every file is listed in walkdir's
    /// order and opens through its anchor, the ones of folders opened
    /// again on the way up included. With links followed too, where
    /// the loop check's ancestors are prefixes of that buffer.
    #[test]
    fn a_deep_tree_holds_few_folders_open() {
        let levels = 3 * OPEN_FOLDERS + 9;
        let dir = tempfile::tempdir().unwrap();
        drop(tree(dir.path(), levels));
        for follow_links in [false, true] {
            let opts = WalkOptions { follow_links, ..Default::default() };
            let mut walk =
                super::super::Walk::new(vec![dir.path().into()], opts);
            let (mut most, mut bytes) = (0, 0);
            let mut got = Vec::new();
            while let Some(item) = walk.next() {
                let input = item.unwrap();
                let mut read = String::new();
                input.open().unwrap().read_to_string(&mut read).unwrap();
                got.push(read);
                // Dropped: its folder is then closed, if the walk has.
                drop(input);
                if let Some(deep) = &walk.deep {
                    let (open, held) = deep.held();
                    most = most.max(open);
                    bytes = bytes.max(held);
                }
            }
            let want: Vec<String> = (1..=levels)
                .rev()
                .map(|i| format!("http://level{i}.example/\n"))
                .collect();
            assert_eq!(got, want, "{follow_links}");
            assert!(most <= OPEN_FOLDERS, "{most} open");
            let deepest = at(dir.path(), levels).as_os_str().len();
            assert!(bytes <= 2 * deepest + 512, "{bytes} bytes of paths");
        }
    }

    /// A folder reached through a link is closed while the walk is
    /// deep below it; the `..` of its child there is another folder, so
    /// the folder above the link is opened again by its names: the file
    /// after the link is listed, and opens.
    #[test]
    fn a_folder_above_a_link_is_opened_again_by_its_names() {
        let dir = tempfile::tempdir().unwrap();
        let (root, other) = (dir.path().join("root"), dir.path().join("o"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        let deep = OPEN_FOLDERS + 5;
        drop(tree(&other, deep));
        // Past the hand-over to the walk by handle (about 20 levels).
        let fds = tree(&root, 24);
        let target = other.join(name());
        rustix::fs::symlinkat(target.as_os_str(), &fds[22], "a").unwrap();
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::CLOEXEC;
        let z = openat(&fds[22], "z", flags, Mode::from_bits_truncate(0o644))
            .unwrap();
        rustix::io::write(&z, b"http://z.example/\n").unwrap();
        drop((fds, z));
        let opts = WalkOptions { follow_links: true, ..Default::default() };
        let mut walk = super::super::Walk::new(vec![root.clone()], opts);
        let (mut files, mut reopened) = (Vec::new(), 0);
        while let Some(item) = walk.next() {
            let input = item.unwrap();
            let mut read = String::new();
            input.open().unwrap().read_to_string(&mut read).unwrap();
            files.push(read);
            if let Some(d) = &walk.deep {
                reopened = reopened.max(d.reopened);
            }
        }
        assert_eq!(files.len(), 24 + deep + 1, "{files:?}");
        assert!(files.contains(&"http://z.example/\n".to_string()));
        assert!(reopened > 0, "never opened again by names");
    }
}
