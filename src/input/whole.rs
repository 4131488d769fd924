//! A regular file read whole, without the read that returns 0.
//!
//! A small file was read until a `read` gave 0 bytes: an open, a read
//! that filled, a read of nothing, a close, the second read one system
//! call of four (6,046 of 12,105 reads on a folder of 6,046 messages).
//! A read that gives fewer bytes than it asked already says the file
//! ended, where that holds ([`Input::short_read_ends`]); and a file
//! whose size is known is at its end when a short read reaches it.

use super::Input;
use std::fs::File;
use std::io::{self, Read};

/// Reads `file` (the regular file of an input) as a plain read does,
/// but gives 0 without a system call after a read that gave fewer bytes
/// than asked and showed the file's end: on a file system where a short
/// read is the end, or at the size the walk saw.
///
/// A file that grows while it is read is read on as before: a read that
/// fills what it was given shows no end, and one that stops short stops
/// where the file ended when it was made, as a read of 0 bytes would
/// then have.
#[derive(Debug)]
pub(crate) struct Whole<R> {
    file: R,
    /// A short read is the end.
    short_ends: bool,
    /// The size the walk saw, if it did.
    size: Option<u64>,
    /// Bytes read so far.
    read: u64,
    /// The end was seen: no more reads.
    ended: bool,
}

impl<'f> Whole<&'f File> {
    /// `file`, opened from `input`.
    pub(crate) fn new(input: &Input, file: &'f File) -> Whole<&'f File> {
        Whole::with(file, input.short_read_ends(), input.size)
    }
}

impl<R: Read> Whole<R> {
    /// `file`, its short reads its end when `short_ends`, its size
    /// `size` when known.
    fn with(file: R, short_ends: bool, size: Option<u64>) -> Whole<R> {
        Whole { file, short_ends, size, read: 0, ended: false }
    }
}

impl<R: Read> Read for Whole<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        let n = self.file.read(buf)?;
        self.read += n as u64;
        if n < buf.len() && (self.short_ends || self.size == Some(self.read)) {
            self.ended = true;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::Whole;
    use std::io::{self, Read};

    /// A reader that gives at most `step` bytes a read of `data`, and
    /// counts its reads.
    struct Steps<'a> {
        data: &'a [u8],
        step: usize,
        reads: usize,
    }

    impl Read for Steps<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.reads += 1;
            let n = buf.len().min(self.step).min(self.data.len());
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    /// Reads `whole` to its end with a buffer of `room` bytes a read:
    /// the bytes and the reads made of the file under it.
    fn read_all(whole: &mut Whole<Steps<'_>>, room: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut buf = vec![0; room];
        loop {
            match whole.read(&mut buf) {
                Ok(0) => return out,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => panic!("{e}"),
            }
        }
    }

    #[test]
    fn a_short_read_ends_the_file_where_that_holds() {
        let data = b"0123456789";
        let steps = Steps { data, step: 64, reads: 0 };
        let mut whole = Whole::with(steps, true, None);
        assert_eq!(read_all(&mut whole, 64), data);
        assert_eq!(whole.file.reads, 1);
        // Filled: no end seen, the next read says it.
        let steps = Steps { data, step: 64, reads: 0 };
        let mut whole = Whole::with(steps, true, None);
        assert_eq!(read_all(&mut whole, 10), data);
        assert_eq!(whole.file.reads, 2);
    }

    #[test]
    fn a_short_read_at_the_size_seen_ends_the_file() {
        let data = b"0123456789";
        let steps = Steps { data, step: 64, reads: 0 };
        let mut whole = Whole::with(steps, false, Some(10));
        assert_eq!(read_all(&mut whole, 64), data);
        assert_eq!(whole.file.reads, 1);
    }

    /// A pseudo-file (`/proc`) gives a record a read and says its size
    /// is 0: its short reads are no end, nor one at another size than
    /// the one seen (the file grew or shrank).
    #[test]
    fn other_short_reads_read_on() {
        let data = b"0123456789";
        for size in [None, Some(0), Some(4), Some(12)] {
            let steps = Steps { data, step: 3, reads: 0 };
            let mut whole = Whole::with(steps, false, size);
            assert_eq!(read_all(&mut whole, 64), data, "{size:?}");
            assert_eq!(whole.file.reads, 5, "{size:?}");
        }
    }

    /// Where a short read is the end: the files a walk lists in a
    /// `/proc` folder are not (a record a read), nor a file named
    /// through a symbolic link (it may lead to another file system); a
    /// regular file named and listed is asked as its folder is.
    #[cfg(target_os = "linux")]
    #[test]
    fn short_reads_end_no_proc_file_nor_a_linked_one() {
        use crate::input::{walk, WalkOptions};
        let opts = || WalkOptions { skip_stat: true, ..Default::default() };
        let proc = walk(&["/proc/self/net".into()], opts());
        assert!(proc.iter().flatten().count() > 3, "{proc:?}");
        for input in proc.iter().flatten() {
            assert!(!input.short_read_ends(), "{input:?}");
        }
        // Enough names of one folder to have it listed (`named`).
        let dir = tempfile::tempdir().unwrap();
        let mut paths = Vec::new();
        for i in 0..40 {
            paths.push(dir.path().join(format!("f{i:02}")));
            std::fs::write(&paths[i], b"x").unwrap();
        }
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&paths[0], &link).unwrap();
        paths.push(link);
        let listed = walk(&[dir.path().into()], opts());
        let named = walk(&paths, opts());
        let ends = |r: &Result<crate::input::Input, _>| {
            r.as_ref().is_ok_and(|i| i.short_read_ends())
        };
        let folder = ends(&listed[0]);
        assert_eq!(ends(&named[39]), folder);
        assert!(!ends(&named[40]));
    }
}
