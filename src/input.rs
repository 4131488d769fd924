//! Inputs: files, folders, stdin, and decompression by magic bytes.
//!
//! [`walk`] turns the paths of a command line into an ordered list of
//! [`Input`]s: `-` is stdin, a folder is searched recursively in sorted
//! order (symbolic links are followed only when asked), anything else is
//! read as it is — so a FIFO named on the command line is read, while one
//! met in a folder walk is skipped (reading it could block forever).
//! Inside a walk, [`Globs`] (`-g`) and [`WalkOptions::max_depth`] choose
//! the files; hidden files and folders are searched (Maildir++ keeps its
//! folders in `.Name/`).
//!
//! Decompression by magic bytes has its own file (`compress.rs`):
//! [`Compression::detect`] looks at the first bytes, never at the name;
//! gzip (multi-member files such as WARC/WET included), bzip2, xz and
//! zstd are decompressed on the fly by [`decoder`].

mod ahead;
mod anchor;
mod compress;
#[cfg(target_os = "linux")]
pub(crate) mod deep;
#[cfg(target_os = "linux")]
mod named;
mod whole;

pub use ahead::{read_ahead, Ahead};
pub use anchor::Anchor;
pub use compress::{decoder, open_stream, Compression};
pub(crate) use whole::Whole;

use std::cmp::Ordering;
use std::fmt;
use std::fs::File;
use std::io;
use std::path::PathBuf;

/// Where bytes come from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file (or anything else that can be opened by name).
    Path(PathBuf),
}

/// One input to search, in output order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// Where its bytes come from.
    pub source: Source,
    /// The size when it is a regular file, as seen by the walk.
    pub size: Option<u64>,
    /// Known to be a regular file: a path named as one, or a folder
    /// entry listed as one. With `size` unknown (a walk with
    /// [`WalkOptions::skip_stat`]), the search learns its size by
    /// reading it.
    pub regular: bool,
    /// Found in a folder walk, not named: a binary one may be skipped
    /// ([`crate::DriverBuilder::skip_binary`]).
    pub walked: bool,
    /// How to open it by its folder's handle (see [`Anchor`]), on
    /// Linux: a file of a folder walk (links not followed, or deeper
    /// than a path can name), or a regular file named by a path with a
    /// folder in it. `None` for inputs opened by path.
    pub anchor: Option<Anchor>,
}

impl Input {
    /// Opens the input for reading: through its [`Anchor`] when it has
    /// one (its path may be longer than the system accepts), else by its
    /// path. Standard input is not opened: an error.
    pub fn open(&self) -> io::Result<File> {
        match (&self.anchor, &self.source) {
            (Some(anchor), Source::Path(path)) => return anchor.open_at(path),
            (Some(anchor), Source::Stdin) => return anchor.open(),
            (None, _) => {}
        }
        match &self.source {
            Source::Path(path) => File::open(path),
            Source::Stdin => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "standard input is not opened by name",
            )),
        }
    }

    /// Whether a read of this regular file that gives fewer bytes than
    /// asked is at its end ([`Anchor`]'s file systems where that holds,
    /// a file met in its folder's listing): the search then makes no
    /// read that returns 0.
    pub(crate) fn short_read_ends(&self) -> bool {
        self.anchor.as_ref().is_some_and(Anchor::short_read_ends)
    }
}

/// An input that could not be listed or opened.
#[derive(Debug)]
pub struct InputError {
    /// The input, as it would be printed.
    pub source: Source,
    /// Where in the (decompressed) input the error happened, when it
    /// happened while reading.
    pub offset: Option<u64>,
    /// What went wrong.
    pub error: io::Error,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(offset) = self.offset {
            write!(f, "offset {offset}: ")?;
        }
        write!(f, "{}", self.error)
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// How the paths are walked.
#[derive(Clone, Debug, Default)]
pub struct WalkOptions {
    /// Follow symbolic links met inside folders (`-L`). By default, they
    /// are skipped.
    pub follow_links: bool,
    /// List the files met in folders without their size (`size: None`,
    /// `regular: true`): one `stat` a file less, which is a quarter of
    /// the time it takes just to read a folder of small files (20
    /// Newsgroups, `examples/memchr_floor.rs` with and without it). Who
    /// needs the total size first (a progress bar) leaves it off.
    pub skip_stat: bool,
    /// Search at most this many levels below a folder named, as
    /// ripgrep's `--max-depth`: `1` is the folder's own files, `0` none
    /// (only paths named as files are searched). All when `None`.
    pub max_depth: Option<usize>,
    /// Which files of a walk are searched (paths named are always).
    pub globs: Globs,
}

/// `-g/--glob` patterns, as ripgrep reads them: a glob matches the path
/// below the folder walked (one without `/` matches the name, at any
/// depth; a leading `/` anchors it at the folder); `!GLOB` excludes. The
/// last glob that matches a path decides. When there is an include glob,
/// a file that none matches is left out; folders are left out only by an
/// exclude (`!.git`), and then nothing below them is read.
///
/// grep's `--include`, `--exclude` (files only) and `--exclude-dir`
/// (folders only) are globs of a [`GlobScope`] ([`Globs::push`]); among
/// them too the last that matches decides, and a file none matches is
/// left out when the first of them is an `--include` (GNU grep's rule).
#[derive(Clone, Debug, Default)]
pub struct Globs {
    /// (matcher, exclude, matched against the name only, scope).
    globs: Vec<(globset::GlobMatcher, bool, bool, GlobScope)>,
    /// A file that no glob matches is left out.
    includes: bool,
    /// Whether a file-only glob has been pushed yet (the first decides).
    grep_seen: bool,
}

/// Which entries of a walk a glob is asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobScope {
    /// Files and folders (`-g/--glob`).
    Any,
    /// Files only (grep's `--include`, `--exclude`).
    Files,
    /// Folders only (grep's `--exclude-dir`).
    Folders,
}

impl Globs {
    /// Reads `patterns` (each `GLOB` or `!GLOB`, of [`GlobScope::Any`]).
    pub fn new<S: AsRef<str>>(
        patterns: &[S],
    ) -> Result<Globs, globset::Error> {
        let mut globs = Globs::default();
        for p in patterns {
            let p = p.as_ref();
            match p.strip_prefix('!') {
                Some(rest) => globs.push(rest, true, GlobScope::Any)?,
                None => globs.push(p, false, GlobScope::Any)?,
            }
        }
        Ok(globs)
    }

    /// Adds `glob` after those there are: it excludes what it matches
    /// when `exclude`, else includes it, among the entries of `scope`.
    pub fn push(
        &mut self,
        glob: &str,
        exclude: bool,
        scope: GlobScope,
    ) -> Result<(), globset::Error> {
        match scope {
            GlobScope::Any => self.includes |= !exclude,
            GlobScope::Files if !self.grep_seen => {
                self.grep_seen = true;
                self.includes |= !exclude;
            }
            GlobScope::Files | GlobScope::Folders => {}
        }
        let name_only = !glob.contains('/');
        let glob = glob.strip_prefix('/').unwrap_or(glob);
        let glob = glob.strip_suffix('/').unwrap_or(glob);
        let matcher = globset::GlobBuilder::new(glob)
            .literal_separator(true)
            .backslash_escape(true)
            .build()?
            .compile_matcher();
        self.globs.push((matcher, exclude, name_only, scope));
        Ok(())
    }

    /// Whether there are no globs.
    pub fn is_empty(&self) -> bool {
        self.globs.is_empty()
    }

    /// Whether the entry `rel` (its path below the folder walked) is
    /// searched (a file) or walked into (a folder).
    pub fn allows(&self, rel: &std::path::Path, is_dir: bool) -> bool {
        let name = rel.file_name().map(std::path::Path::new);
        let last = self.globs.iter().rev().find(|(m, _, name_only, scope)| {
            let asked = match scope {
                GlobScope::Any => true,
                GlobScope::Files => !is_dir,
                GlobScope::Folders => is_dir,
            };
            asked
                && match (name_only, name) {
                    (true, Some(n)) => m.is_match(n),
                    _ => m.is_match(rel),
                }
        });
        match last {
            Some((_, exclude, _, _)) => !exclude,
            None => is_dir || !self.includes,
        }
    }
}

/// What a named path is: its type, its size when a regular file, and how
/// to open it.
#[derive(Debug)]
struct Looked {
    /// A folder (to walk).
    dir: bool,
    /// A regular file.
    regular: bool,
    /// Its size, when a regular file.
    size: Option<u64>,
    /// Its folder's handle, when it was looked up through one (regular
    /// files only).
    anchor: Option<Anchor>,
}

/// Lists the inputs named by `paths`, in order: `-` is stdin, folders
/// are walked recursively in sorted order. Errors (a missing path, an
/// unreadable folder, a symbolic link loop) take the place of the input
/// they concern, so they can be reported in order. See [`Walk`] for the
/// lazy form.
pub fn walk(
    paths: &[PathBuf],
    opts: WalkOptions,
) -> Vec<Result<Input, InputError>> {
    Walk::new(paths.to_vec(), opts).collect()
}

/// The lazy form of [`walk`]: folders are read as the inputs are taken,
/// so searching can start before the walk ends.
///
/// On Linux, the part of a tree whose paths could pass `PATH_MAX` is
/// walked by folder handles, in the same order: its files are listed
/// with an [`Anchor`] and their real (long) paths, so any depth is
/// searched.
pub struct Walk {
    paths: Box<dyn Iterator<Item = PathBuf> + Send + Sync>,
    dir: Option<(PathBuf, Entries)>,
    /// The folder of `dir` being walked by handles, if any.
    #[cfg(target_os = "linux")]
    deep: Option<deep::Deep>,
    /// The folder handles of the paths named, shared by consecutive
    /// names of one folder.
    #[cfg(target_os = "linux")]
    named: named::Parents,
    opts: WalkOptions,
}

impl fmt::Debug for Walk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Walk");
        d.field("dir", &self.dir.as_ref().map(|(p, _)| p));
        #[cfg(target_os = "linux")]
        d.field("deep", &self.deep);
        d.field("opts", &self.opts).finish()
    }
}

/// The entries of one folder walk, globs applied.
type Entries = walkdir::FilterEntry<
    walkdir::IntoIter,
    Box<dyn FnMut(&walkdir::DirEntry) -> bool + Send + Sync>,
>;

impl Walk {
    /// Walks `paths`.
    pub fn new(paths: Vec<PathBuf>, opts: WalkOptions) -> Walk {
        Walk::from_paths(paths.into_iter(), opts)
    }

    /// Walks the paths `paths` gives, taken one at a time as the walk
    /// needs them (a list read as it is searched: `--files-from`).
    pub fn from_paths<I>(paths: I, opts: WalkOptions) -> Walk
    where
        I: Iterator<Item = PathBuf> + Send + Sync + 'static,
    {
        Walk {
            paths: Box::new(paths),
            dir: None,
            #[cfg(target_os = "linux")]
            deep: None,
            #[cfg(target_os = "linux")]
            named: named::Parents::default(),
            opts,
        }
    }

    /// The next input of the folder being walked, if any.
    fn next_in_dir(&mut self) -> Option<Result<Input, InputError>> {
        loop {
            #[cfg(target_os = "linux")]
            if let Some(deep) = &mut self.deep {
                match deep.next(&self.opts) {
                    Some(item) => return Some(item),
                    None => self.deep = None,
                }
            }
            let (dir, entries) = self.dir.as_mut()?;
            let entry = match entries.next() {
                Some(Ok(e)) => e,
                Some(Err(e)) => {
                    let path = e.path().unwrap_or(dir).to_path_buf();
                    let error = match e.io_error() {
                        Some(io) => io::Error::new(io.kind(), io.to_string()),
                        None => io::Error::other(e.to_string()),
                    };
                    let source = Source::Path(path);
                    return Some(Err(InputError {
                        source,
                        offset: None,
                        error,
                    }));
                }
                None => {
                    self.dir = None;
                    return None;
                }
            };
            // Only regular files: symbolic links (when not followed),
            // FIFOs, sockets and devices inside a folder are skipped.
            if !entry.file_type().is_file() {
                // A folder whose files' paths could be too long goes on
                // by handles (walkdir has listed it, not entered it).
                #[cfg(target_os = "linux")]
                if entry.file_type().is_dir()
                    && deep::by_handle(entry.path())
                    && self.opts.max_depth.is_none_or(|m| entry.depth() < m)
                {
                    entries.skip_current_dir();
                    let (path, depth) = (entry.path(), entry.depth());
                    match deep::Deep::start(dir, path, depth, &self.opts) {
                        Ok(deep) => self.deep = Some(deep),
                        Err(e) => return Some(Err(e)),
                    }
                }
                continue;
            }
            if !self.opts.globs.is_empty() && entry.depth() > 0 {
                let rel = entry.path().strip_prefix(&*dir);
                if !self.opts.globs.allows(rel.unwrap_or(entry.path()), false)
                {
                    continue;
                }
            }
            let size = match self.opts.skip_stat {
                true => None,
                false => entry.metadata().ok().map(|m| m.len()),
            };
            let source = Source::Path(entry.into_path());
            let walked = true;
            let anchor = None;
            return Some(Ok(Input {
                source,
                size,
                regular: true,
                walked,
                anchor,
            }));
        }
    }
}

/// Whether standard input is open: `Err` ("Bad file descriptor") when
/// the process was started with it closed (`urlgrep <&-`). Rust's
/// start-up puts `/dev/null` on a standard descriptor it finds closed,
/// so such a stdin read as empty; grep reports the error and exits 2.
/// Asked once and remembered.
pub fn stdin_open() -> io::Result<()> {
    static CLOSED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *CLOSED.get_or_init(stdin_closed) {
        return Err(io::Error::from_raw_os_error(EBADF));
    }
    Ok(())
}

/// EBADF on Linux.
const EBADF: i32 = 9;

/// Descriptor 0 is the `/dev/null` that Rust's start-up opened on it
/// because it was closed: opened read and write (`O_RDWR`), where a
/// shell's `</dev/null` opens it read-only.
#[cfg(target_os = "linux")]
fn stdin_closed() -> bool {
    let null = std::fs::read_link("/proc/self/fd/0")
        .is_ok_and(|p| p.as_os_str() == "/dev/null");
    if !null {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/0") else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 3 == 2)
}

#[cfg(not(target_os = "linux"))]
fn stdin_closed() -> bool {
    false
}

impl Iterator for Walk {
    type Item = Result<Input, InputError>;

    fn next(&mut self) -> Option<Result<Input, InputError>> {
        loop {
            if let Some(item) = self.next_in_dir() {
                return Some(item);
            }
            let path = self.paths.next()?;
            if path.as_os_str() == "-" {
                if let Err(error) = stdin_open() {
                    let source = Source::Stdin;
                    return Some(Err(InputError {
                        source,
                        offset: None,
                        error,
                    }));
                }
                return Some(Ok(Input {
                    source: Source::Stdin,
                    size: None,
                    regular: false,
                    walked: false,
                    anchor: None,
                }));
            }
            // On Linux through the handle of its folder, shared with
            // the names of the same folder around it (`named`): one
            // name's look-up, not the whole path's, here and when the
            // driver opens it.
            #[cfg(target_os = "linux")]
            let looked = self.named.look(&path, self.opts.skip_stat);
            #[cfg(not(target_os = "linux"))]
            let looked = std::fs::metadata(&path).map(|m| Looked {
                dir: m.is_dir(),
                regular: m.is_file(),
                size: m.is_file().then_some(m.len()),
                anchor: None,
            });
            let meta = match looked {
                Ok(m) => m,
                Err(error) => {
                    let source = Source::Path(path);
                    return Some(Err(InputError {
                        source,
                        offset: None,
                        error,
                    }));
                }
            };
            // On Linux a folder whose links are not followed is walked
            // by handles (`deep`): each file is then opened by its name
            // in its folder's handle, a shorter path walk for the kernel
            // than its whole path, and listed without walkdir's entries
            // (a `-j1` run of a folder of 6,046 messages spent 4.5% of
            // its instructions listing and sorting them). The walk is
            // walkdir's, entry for entry; with links followed, walkdir's
            // own walk still goes first.
            #[cfg(target_os = "linux")]
            if meta.dir && !self.opts.follow_links {
                // Depth 0 is the folder itself: none of its files.
                if self.opts.max_depth == Some(0) {
                    continue;
                }
                match deep::Deep::start(&path, &path, 0, &self.opts) {
                    Ok(deep) => self.deep = Some(deep),
                    Err(e) => return Some(Err(e)),
                }
                continue;
            }
            if meta.dir {
                let mut walk = walkdir::WalkDir::new(&path)
                    .follow_links(self.opts.follow_links)
                    // By name, the bytes after the path's last `/`:
                    // walkdir's sort_by_file_name parses a name out of
                    // each path at every comparison (4% of `-j1` on a
                    // folder of 6,046 messages).
                    .sort_by(by_name);
                if let Some(depth) = self.opts.max_depth {
                    // The folder is depth 0 of walkdir; its files are 1.
                    walk = walk.max_depth(depth);
                }
                let globs = self.opts.globs.clone();
                let root = path.clone();
                // Folders an exclude glob names are not read at all.
                let keep: Box<
                    dyn FnMut(&walkdir::DirEntry) -> bool + Send + Sync,
                > = Box::new(move |e: &walkdir::DirEntry| {
                    if globs.is_empty()
                        || e.depth() == 0
                        || !e.file_type().is_dir()
                    {
                        return true;
                    }
                    let rel = e.path().strip_prefix(&root);
                    globs.allows(rel.unwrap_or(e.path()), true)
                });
                self.dir = Some((path, walk.into_iter().filter_entry(keep)));
                continue;
            }
            let Looked { regular, size, anchor, .. } = meta;
            let source = Source::Path(path);
            let walked = false;
            return Some(Ok(Input { source, size, regular, walked, anchor }));
        }
    }
}

/// Orders the entries of a folder by name. Siblings' paths are their
/// folder's path joined with their names, so on Unix their paths sort as
/// their names do: one `memcmp`, where walkdir's `sort_by_file_name`
/// parses a name out of each path at every comparison (4% of `-j1` on a
/// folder of 6,046 messages) and a search for the last `/` costs more
/// than the comparison (callgrind).
#[cfg(unix)]
fn by_name(a: &walkdir::DirEntry, b: &walkdir::DirEntry) -> Ordering {
    use std::os::unix::ffi::OsStrExt;
    a.path().as_os_str().as_bytes().cmp(b.path().as_os_str().as_bytes())
}

/// Orders the entries of a folder by name.
#[cfg(not(unix))]
fn by_name(a: &walkdir::DirEntry, b: &walkdir::DirEntry) -> Ordering {
    a.file_name().cmp(b.file_name())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn walk_is_sorted_and_reports_missing() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b", "a", "c/d"] {
            let p = dir.path().join(name);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, b"x").unwrap();
        }
        let missing = dir.path().join("nope");
        let got = walk(
            &[dir.path().to_path_buf(), missing.clone()],
            WalkOptions::default(),
        );
        let names: Vec<_> = got
            .iter()
            .map(|r| match r {
                Ok(Input { source: Source::Path(p), .. }) => p
                    .strip_prefix(dir.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                Ok(_) => "stdin".into(),
                Err(e) => format!("error {:?}", e.error.kind()),
            })
            .collect();
        assert_eq!(names, ["a", "b", "c/d", "error NotFound"]);
    }

    /// Files named by path (issue 32): opened through their folder's
    /// handle, and, with sizes not wanted, known from the folder's
    /// listing without a `stat` each (a size of `None` says so), as
    /// walked files are; a folder named is walked, and an error reads as
    /// a `stat` of the path gives it.
    #[cfg(target_os = "linux")]
    #[test]
    fn named_files_cost_what_walked_ones_do() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for i in 0..300 {
            let p = dir.path().join(format!("f{i:03}"));
            std::fs::write(&p, format!("x{i}")).unwrap();
            paths.push(p);
        }
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/g"), b"g").unwrap();
        paths.insert(5, dir.path().join("sub"));
        paths.insert(100, dir.path().join("nope"));
        paths.insert(200, dir.path().join("f001/"));
        for skip_stat in [true, false] {
            let opts = WalkOptions { skip_stat, ..Default::default() };
            let got = walk(&paths, opts);
            assert_eq!(got.len(), 303);
            let mut no_size = 0;
            for (i, r) in got.iter().enumerate() {
                let want = match i {
                    5 => dir.path().join("sub/g"),
                    100 | 200 => {
                        let Err(e) = r else { panic!("{i}: {r:?}") };
                        let stat = std::fs::metadata(&paths[i]).unwrap_err();
                        assert_eq!(e.error.to_string(), stat.to_string());
                        continue;
                    }
                    _ => paths[i].clone(),
                };
                let input = r.as_ref().unwrap();
                assert_eq!(input.source, Source::Path(want.clone()));
                // The first name of a folder is asked by its path; the
                // folder's handle is opened at the second (the file of
                // `sub`, walked, has its walk's handle).
                assert!(input.regular, "{i}");
                assert_eq!(input.anchor.is_some(), i != 0, "{i}");
                let mut text = String::new();
                input.open().unwrap().read_to_string(&mut text).unwrap();
                assert_eq!(text, std::fs::read_to_string(&want).unwrap());
                match input.size {
                    Some(n) => assert_eq!(n, text.len() as u64),
                    None => no_size += 1,
                }
            }
            // The first names of the folder are asked until they pay
            // for its listing (2/5 of its entries, estimated from its
            // size: 4-12 KiB here, 64-192 entries); the others are found
            // in the listing.
            match skip_stat {
                true => assert!(no_size >= 200, "{no_size}"),
                false => assert_eq!(no_size, 0),
            }
        }
    }

    /// A few names of a big folder do not list it (its listing would
    /// cost more than their `stat`s): 125 names of 2,000 are each asked
    /// their size. Before, 16 names started the listing, 8 more read
    /// each chunk, and 100,000 entries listed for 5,000 names cost 48 ms
    /// more than their `stat`s.
    #[cfg(target_os = "linux")]
    #[test]
    fn few_names_of_a_big_folder_do_not_list_it() {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<_> =
            (0..2_000).map(|i| dir.path().join(format!("m{i:05}"))).collect();
        for p in &paths {
            std::fs::write(p, b"x").unwrap();
        }
        let named: Vec<_> = paths.iter().step_by(16).cloned().collect();
        assert_eq!(named.len(), 125);
        let opts = WalkOptions { skip_stat: true, ..Default::default() };
        for r in walk(&named, opts) {
            let input = r.unwrap();
            assert_eq!(input.size, Some(1), "{:?}", input.source);
        }
    }

    /// The folder handles of named files held by inputs are bounded: a
    /// list collected whole (for a progress bar) of two files from each
    /// of 40 folders holds 32, the other files are opened by path; and
    /// names of folders that alternate open no handle.
    #[cfg(target_os = "linux")]
    #[test]
    fn named_folder_handles_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for i in 0..40 {
            let sub = dir.path().join(format!("d{i:02}"));
            std::fs::create_dir(&sub).unwrap();
            for f in ["f", "g"] {
                std::fs::write(sub.join(f), format!("{i}{f}")).unwrap();
                paths.push(sub.join(f));
            }
        }
        let anchored = |paths: &[PathBuf]| {
            let got = walk(paths, WalkOptions::default());
            let inputs: Vec<_> = got.into_iter().map(Result::unwrap).collect();
            for (input, path) in inputs.iter().zip(paths) {
                let mut text = String::new();
                input.open().unwrap().read_to_string(&mut text).unwrap();
                assert_eq!(text, std::fs::read_to_string(path).unwrap());
            }
            inputs.iter().filter(|i| i.anchor.is_some()).count()
        };
        assert_eq!(anchored(&paths), deep::OPEN_FOLDERS);
        paths.sort_by_key(|p| p.file_name().map(|n| n.to_owned()));
        assert_eq!(anchored(&paths), 0);
    }
}
