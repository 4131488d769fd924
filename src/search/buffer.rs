//! The aligned read buffer of a worker, and the one read-retry loop.

use std::fs::File;
use std::io::{self, Read};

/// Whether [`read_at`] reads on this system (Unix and Windows): where it
/// does not, big files are streamed, not cut into slices.
pub(crate) const READS_AT: bool = cfg!(any(unix, windows));

/// Reads into `buf` from `file` at `offset`, whatever other threads read
/// of it: `pread` on Unix, `seek_read` on Windows (each read says its
/// offset, so the file's cursor does not matter), and an
/// [`io::ErrorKind::Unsupported`] error elsewhere ([`READS_AT`]).
pub(crate) fn read_at(
    file: &File,
    buf: &mut [u8],
    offset: u64,
) -> io::Result<usize> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_at(file, buf, offset)
    }
    #[cfg(windows)]
    {
        std::os::windows::fs::FileExt::seek_read(file, buf, offset)
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (file, buf, offset);
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "reads at an offset are not supported on this system",
        ))
    }
}

/// Reads into `dst` with `read`, again while it fails with
/// [`io::ErrorKind::Interrupted`]: the one retry loop of every reader.
pub(crate) fn read_retry(
    mut read: impl FnMut(&mut [u8]) -> io::Result<usize>,
    dst: &mut [u8],
) -> io::Result<usize> {
    loop {
        match read(dst) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            r => return r,
        }
    }
}

/// A worker's reusable buffer; its contents start page-aligned, which
/// keeps the SIMD scan at its floor (DESIGN.md).
#[derive(Default)]
pub(crate) struct Buffer {
    pub(crate) buf: Vec<u8>,
}

pub(crate) const ALIGN: usize = 4096;

impl Buffer {
    /// Makes room for `len` bytes; returns where they start.
    ///
    /// A new buffer gets a quarter more than asked: mbox slices end at a
    /// separator, so their lengths differ, and a buffer replaced for a
    /// few bytes more maps (and faults in) every page again. Pages never
    /// written cost no memory.
    pub(crate) fn room(&mut self, len: usize) -> usize {
        let need = len.saturating_add(ALIGN);
        if self.buf.len() < need {
            let size = need.saturating_add(need / 4).next_multiple_of(ALIGN);
            if self.buf.is_empty() {
                self.buf = vec![0u8; size];
            } else {
                // Grown in place (a large block is moved by the kernel,
                // its pages kept): only the new pages fault in.
                self.buf.resize(size, 0);
            }
        }
        self.buf.as_ptr().align_offset(ALIGN).min(ALIGN)
    }

    /// Reads `rdr` to its end (the caller bounds it with `take`).
    /// `grow` is asked once, when the first 64 KiB are read and more
    /// may follow; when it says no, the read stops there. A read error
    /// ends it: the bytes read before it are returned with it.
    pub(crate) fn fill_from<R: Read>(
        &mut self,
        mut rdr: R,
        mut grow: impl FnMut() -> bool,
    ) -> (&[u8], Option<io::Error>) {
        const FIRST: usize = 64 * 1024;
        let mut len = 0;
        let mut base = self.room(FIRST);
        let mut asked = false;
        let mut error = None;
        loop {
            if len >= FIRST && !asked {
                asked = true;
                if !grow() {
                    break;
                }
            }
            if base + len == self.buf.len() {
                let mut bigger = vec![0u8; (self.buf.len() * 2).max(ALIGN)];
                let nb = bigger.as_ptr().align_offset(ALIGN).min(ALIGN);
                if let (Some(dst), Some(src)) = (
                    bigger.get_mut(nb..nb + len),
                    self.buf.get(base..base + len),
                ) {
                    dst.copy_from_slice(src);
                }
                self.buf = bigger;
                base = nb;
            }
            let dst = self.buf.get_mut(base + len..).unwrap_or_default();
            match read_retry(|b| rdr.read(b), dst) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        (self.buf.get(base..base + len).unwrap_or_default(), error)
    }

    /// Reads `len` bytes of `file` at `offset` (fewer at its end, or
    /// before a read error, which is returned with them).
    pub(crate) fn fill_at(
        &mut self,
        file: &File,
        offset: u64,
        len: usize,
    ) -> (&[u8], Option<io::Error>) {
        let base = self.room(len);
        let mut got = 0;
        let mut error = None;
        while got < len {
            let dst =
                self.buf.get_mut(base + got..base + len).unwrap_or_default();
            let at = offset + got as u64;
            match read_retry(|b| read_at(file, b, at), dst) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        (self.buf.get(base..base + got).unwrap_or_default(), error)
    }
}
