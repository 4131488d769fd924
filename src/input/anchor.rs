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
/// folder: `openat(2)` opens it whatever the length of its path. The
/// handle and the names of the folder's entries are shared by the files
/// of one folder, and freed when the last of them is dropped. Two words
/// wide (a file of a walk costs no allocation of its own).
#[cfg(target_os = "linux")]
#[derive(Clone)]
pub struct Anchor {
    folder: std::sync::Arc<Folder>,
    /// Where its name starts in the folder's `names`.
    name: usize,
}

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

    /// Opens the file for reading (`openat(dir, name, O_RDONLY |
    /// O_CLOEXEC)`, as `File::open` opens a path).
    pub fn open(&self) -> io::Result<File> {
        use rustix::fs::{openat, Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::CLOEXEC;
        let Some(name) = self.folder.name(self.name) else {
            let what = "a file name outside its folder's names";
            return Err(io::Error::new(io::ErrorKind::InvalidInput, what));
        };
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
}

/// The same folder handle (not merely the same folder) and name.
#[cfg(target_os = "linux")]
impl PartialEq for Anchor {
    fn eq(&self, other: &Anchor) -> bool {
        std::sync::Arc::ptr_eq(&self.folder, &other.folder)
            && self.name == other.name
    }
}

#[cfg(target_os = "linux")]
impl Eq for Anchor {}
