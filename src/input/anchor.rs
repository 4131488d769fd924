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
    /// Where its name starts in the folder's `names`; [`NAMED`] or
    /// [`NAMED_LISTED`] for a file named by path.
    name: usize,
}

/// [`Anchor::name`] of a file named by path: its name is its path's.
#[cfg(target_os = "linux")]
const NAMED: usize = usize::MAX;

/// [`Anchor::name`] of a file named by path and found in its folder's
/// listing as a regular file (no symbolic link followed to it).
#[cfg(target_os = "linux")]
const NAMED_LISTED: usize = usize::MAX - 1;

/// The file systems (`statfs` magic numbers) whose regular files are at
/// their end when a `read` gives fewer bytes than asked: ext2/3/4, XFS,
/// Btrfs, tmpfs, F2FS, overlayfs. A read of their files stops short
/// only at the end of the file (or for a fatal signal); pseudo-file
/// systems do not say so (a `/proc` file gives a record a read), nor
/// FUSE with direct I/O or network file systems, which are left out.
#[cfg(target_os = "linux")]
const SHORT_READ_ENDS: [u32; 6] =
    [0xEF53, 0x5846_5342, 0x9123_683E, 0x0102_1994, 0xF2F5_2010, 0x794C_7630];

/// A folder opened by a walk by handle, and the names of its entries,
/// each closed by a NUL, that its files' [`Anchor`]s point into.
#[cfg(target_os = "linux")]
pub(crate) struct Folder {
    /// The folder, opened (`O_DIRECTORY`).
    pub(crate) fd: std::os::fd::OwnedFd,
    /// The names of its entries, each followed by a NUL (shared with
    /// the same folder opened again: the walk keeps a few open).
    pub(crate) names: std::sync::Arc<Vec<u8>>,
    /// Whether the folder's file system is one of [`SHORT_READ_ENDS`]:
    /// asked (`fstatfs`) at the first question, once for all its files.
    short_ends: std::sync::OnceLock<bool>,
}

#[cfg(target_os = "linux")]
impl Folder {
    /// The folder `fd`, whose entries' names are `names`.
    pub(crate) fn new(
        fd: std::os::fd::OwnedFd,
        names: std::sync::Arc<Vec<u8>>,
    ) -> Folder {
        Folder { fd, names, short_ends: std::sync::OnceLock::new() }
    }

    /// Whether a short read of a regular file of this folder's file
    /// system is its end ([`SHORT_READ_ENDS`]; no when it cannot be
    /// asked).
    fn short_read_ends(&self) -> bool {
        *self.short_ends.get_or_init(|| {
            rustix::fs::fstatfs(&self.fd)
                .is_ok_and(|st| SHORT_READ_ENDS.contains(&(st.f_type as u32)))
        })
    }

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

    /// [`Anchor::named`], for a name its folder's listing gives as a
    /// regular file (no symbolic link followed to it).
    pub(crate) fn named_listed(folder: std::sync::Arc<Folder>) -> Anchor {
        Anchor { folder, name: NAMED_LISTED }
    }

    /// Whether a read of this regular file that gives fewer bytes than
    /// asked is at its end, so that no read need return 0 to say so (one
    /// system call of four a small file): a file met in its folder's
    /// listing as a regular file (not reached through a symbolic link,
    /// which may lead to another file system) of a file system where
    /// that holds ([`SHORT_READ_ENDS`]).
    pub(crate) fn short_read_ends(&self) -> bool {
        self.name != NAMED && self.folder.short_read_ends()
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
        if self.name < NAMED_LISTED {
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

    /// Whether a short read of the file is its end.
    pub(crate) fn short_read_ends(&self) -> bool {
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
