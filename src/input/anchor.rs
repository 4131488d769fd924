//! Anchors: a file reached through a handle on its folder, not by its
//! path, so that a file whose path the system refuses (longer than
//! `PATH_MAX`, "File name too long") can still be opened. Only folder
//! walks on Linux make them ([`super::Walk`]); elsewhere [`Anchor`] has
//! no value and inputs are opened by path.

#[cfg(target_os = "linux")]
use std::fmt;
use std::fs::File;
use std::io;

/// A file as a handle on the folder that holds it and its name in that
/// folder: `openat(2)` opens it whatever the length of its path, and
/// looks up one name, not the path's every folder. The handle and the
/// names of the folder's entries are shared by the files of one folder,
/// and freed when the last of them is dropped. Two words wide (a file of
/// a walk costs no allocation of its own).
///
/// A file of a folder walk has its name in the folder's names; a file
/// named by path (consecutive names of one folder share its handle) has
/// the last name of its path, so it is opened by [`super::Input::open`],
/// which knows that path.
#[cfg(target_os = "linux")]
#[derive(Clone)]
pub struct Anchor {
    folder: std::sync::Arc<Folder>,
    /// Where its name starts in the folder's `names`; [`NAMED`] for a
    /// file named by path.
    name: usize,
}

/// [`Anchor::name`] of a file named by path: its name is its path's.
#[cfg(target_os = "linux")]
const NAMED: usize = usize::MAX;

/// A folder opened by a walk by handle, and the names of its entries,
/// each closed by a NUL, that its files' [`Anchor`]s point into.
#[cfg(target_os = "linux")]
pub(crate) struct Folder {
    /// The folder, opened (`O_DIRECTORY`).
    pub(crate) fd: std::os::fd::OwnedFd,
    /// The names of its entries, each followed by a NUL (shared with
    /// the same folder opened again: the walk keeps a few open).
    pub(crate) names: std::sync::Arc<Vec<u8>>,
}

#[cfg(target_os = "linux")]
impl Folder {
    /// The name that starts at `at` of `names` (`None` past them).
    pub(crate) fn name(&self, at: usize) -> Option<&std::ffi::CStr> {
        std::ffi::CStr::from_bytes_until_nul(self.names.get(at..)?).ok()
    }
}

#[cfg(target_os = "linux")]
impl fmt::Debug for Folder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Folder")
            .field("fd", &self.fd)
            .field("names", &self.names.len())
            .finish()
    }
}

#[cfg(target_os = "linux")]
impl fmt::Debug for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Anchor")
            .field("dir", &self.folder.fd)
            .field("name", &self.folder.name(self.name))
            .finish()
    }
}

/// A file as a handle on the folder that holds it and its name in that
/// folder. Made only on Linux: here it has no value.
#[cfg(not(target_os = "linux"))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {}

#[cfg(target_os = "linux")]
impl Anchor {
    /// The file whose name starts at `name` of `folder`'s names.
    pub(crate) fn new(folder: std::sync::Arc<Folder>, name: usize) -> Anchor {
        Anchor { folder, name }
    }

    /// The file named by a path whose last name is looked up in
    /// `folder`, the handle of the path's folder.
    pub(crate) fn named(folder: std::sync::Arc<Folder>) -> Anchor {
        Anchor { folder, name: NAMED }
    }

    /// Opens the file for reading (`openat(dir, name, O_RDONLY |
    /// O_CLOEXEC)`, as `File::open` opens a path). A file named by path
    /// opens by [`super::Input::open`] (this gives an `InvalidInput`
    /// error: its name is its path's).
    pub fn open(&self) -> io::Result<File> {
        let Some(name) = self.folder.name(self.name) else {
            let what = "a file name outside its folder's names";
            return Err(io::Error::new(io::ErrorKind::InvalidInput, what));
        };
        self.open_name(name)
    }

    /// Opens the file at `path`: by the name the walk listed, or, for a
    /// file named by path, by the last name of `path`.
    pub(crate) fn open_at(&self, path: &std::path::Path) -> io::Result<File> {
        use std::os::unix::ffi::OsStrExt;
        if self.name != NAMED {
            return self.open();
        }
        let bytes = path.as_os_str().as_bytes();
        let name = match memchr::memrchr(b'/', bytes) {
            Some(slash) => bytes.get(slash + 1..).unwrap_or_default(),
            None => bytes,
        };
        self.open_name(std::ffi::OsStr::from_bytes(name))
    }

    /// Opens `name` in the folder for reading.
    fn open_name<P: rustix::path::Arg>(&self, name: P) -> io::Result<File> {
        use rustix::fs::{openat, Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::CLOEXEC;
        let fd = openat(&self.folder.fd, name, flags, Mode::empty())?;
        Ok(File::from(fd))
    }
}

#[cfg(not(target_os = "linux"))]
impl Anchor {
    /// Opens the file for reading.
    pub fn open(&self) -> io::Result<File> {
        match *self {}
    }

    /// Opens the file at `path`.
    pub(crate) fn open_at(&self, _: &std::path::Path) -> io::Result<File> {
        match *self {}
    }
}

/// The same folder handle (not merely the same folder) and name (for
/// files named by path, the name is the path's: compare the inputs).
#[cfg(target_os = "linux")]
impl PartialEq for Anchor {
    fn eq(&self, other: &Anchor) -> bool {
        std::sync::Arc::ptr_eq(&self.folder, &other.folder)
            && self.name == other.name
    }
}

#[cfg(target_os = "linux")]
impl Eq for Anchor {}
