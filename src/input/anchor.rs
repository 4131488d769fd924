//! Anchors: a file reached through a handle on its folder, not by its
//! path, so that a file whose path the system refuses (longer than
//! `PATH_MAX`, "File name too long") can still be opened. Only folder
//! walks on Linux make them ([`super::Walk`]); elsewhere [`Anchor`] has
//! no value and inputs are opened by path.

use std::fs::File;
use std::io;

/// A file as a handle on the folder that holds it and its name in that
/// folder: `openat(2)` opens it whatever the length of its path. The
/// handle is shared by the files of one folder, and closed when the last
/// of them is dropped. One pointer wide, so that every [`super::Input`]
/// (most have none) stays small.
#[cfg(target_os = "linux")]
#[derive(Clone, Debug)]
pub struct Anchor(std::sync::Arc<Inner>);

/// What an [`Anchor`] points to.
#[cfg(target_os = "linux")]
#[derive(Debug)]
struct Inner {
    /// The folder, opened (`O_DIRECTORY`).
    dir: std::sync::Arc<std::os::fd::OwnedFd>,
    /// The file's name in it (one path component).
    name: std::ffi::CString,
}

/// A file as a handle on the folder that holds it and its name in that
/// folder. Made only on Linux: here it has no value.
#[cfg(not(target_os = "linux"))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Anchor {}

#[cfg(target_os = "linux")]
impl Anchor {
    /// The file `name` of the folder `dir`.
    pub(crate) fn new(
        dir: std::sync::Arc<std::os::fd::OwnedFd>,
        name: std::ffi::CString,
    ) -> Anchor {
        Anchor(std::sync::Arc::new(Inner { dir, name }))
    }

    /// Opens the file for reading (`openat(dir, name, O_RDONLY |
    /// O_CLOEXEC)`, as `File::open` opens a path).
    pub fn open(&self) -> io::Result<File> {
        use rustix::fs::{openat, Mode, OFlags};
        let flags = OFlags::RDONLY | OFlags::CLOEXEC;
        let Inner { dir, name } = &*self.0;
        let fd = openat(&**dir, name.as_c_str(), flags, Mode::empty())?;
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
        let (a, b) = (&*self.0, &*other.0);
        std::sync::Arc::ptr_eq(&a.dir, &b.dir) && a.name == b.name
    }
}

#[cfg(target_os = "linux")]
impl Eq for Anchor {}
