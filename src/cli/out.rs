//! Standard output whose write errors are seen.
//!
//! A run that could not write its results must not exit 0 (grep exits 2
//! with "write error"). `io::Stdout` treats EBADF as success, so
//! `urlgrep FILE 1<FILE` (a read-only stdout) would print nothing and
//! exit 0: [`stdout`] therefore writes through a handle of its own on fd 1
//! (a duplicate, not `io::Stdout`). Every error of [`Checked`] says "write
//! error"; its kind is kept, so a broken pipe is still told apart (a quiet
//! exit 0).
//!
//! A stdout closed by the shell (`>&-`) cannot be seen from `main`: the
//! Rust runtime opens `/dev/null` read-write on a closed fd 1 before it
//! calls `main`, and that is just what Python's `subprocess.DEVNULL` and
//! systemd's `StandardOutput=null` give a program (which must keep
//! working). So fd 1 is looked at earlier: a constructor in the ELF
//! `.init_array`, which the C runtime calls before `main` and so before
//! the Rust runtime's fd sanitizing, records whether fd 1 was open. If it
//! was not, every write to stdout fails with EBADF, as it does for grep:
//! a run that prints something exits 2 with "write error", one that
//! prints nothing exits as it would. The Rust runtime itself (SIGPIPE,
//! the stack guard, arguments) is left as it is. On targets without
//! this (all but Linux and Android) a closed stdout is still written into
//! like `/dev/null`.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether fd 1 was closed when the process started (`>&-`).
static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Called by the C runtime before `main` (the ELF `.init_array`, as
/// glibc and musl run it for the executable; std records the
/// arguments the same way on Linux).
///
/// No safe way finds a closed fd 1 from `main`: the runtime's `/dev/null`
/// on fd 1 looks like any other (`/proc/self/fdinfo/1` shows the same
/// flags, position and inode as `subprocess.DEVNULL`'s), so the check must
/// run first. The `.init_array` entry is the one `unsafe` construct left
/// (the `unsafe_code` lint counts `#[link_section]`); the check itself is
/// safe code (rustix's `fcntl_getfd`).
#[cfg(any(target_os = "linux", target_os = "android"))]
#[used]
// SAFETY: the entry is a plain `extern "C" fn()` as `.init_array`
// wants, and `see_fd_1` is sound that early: one thread, no std runtime
// needed (no allocation, no `io::Stdout`), one `fcntl` system call and
// an atomic store.
#[allow(unsafe_code)]
#[link_section = ".init_array"]
static SEE_FD_1: extern "C" fn() = see_fd_1;

#[cfg(any(target_os = "linux", target_os = "android"))]
extern "C" fn see_fd_1() {
    // `fcntl(F_GETFD)` only reads the flags of a descriptor number; on a
    // closed one it fails with EBADF and changes nothing.
    let closed = rustix::io::fcntl_getfd(rustix::stdio::stdout())
        == Err(rustix::io::Errno::BADF);
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

/// A stdout the shell closed: every write fails with EBADF.
struct Closed;

impl Write for Closed {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from_raw_os_error(libc::EBADF))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The results' output: fd 1 unbuffered, write errors reported.
pub fn stdout() -> io::Result<Checked<Box<dyn Write + Send>>> {
    if CLOSED_AT_START.load(Ordering::Relaxed) {
        return Ok(Checked(Box::new(Closed)));
    }
    Ok(Checked(handle()?))
}

#[cfg(unix)]
fn handle() -> io::Result<Box<dyn Write + Send>> {
    use std::os::fd::AsFd;
    let fd = io::stdout().as_fd().try_clone_to_owned().map_err(tagged)?;
    Ok(Box::new(std::fs::File::from(fd)))
}

#[cfg(not(unix))]
fn handle() -> io::Result<Box<dyn Write + Send>> {
    Ok(Box::new(io::stdout()))
}

/// A writer whose errors say "write error: …" (their kind kept).
#[derive(Debug)]
pub struct Checked<W>(pub W);

fn tagged(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("write error: {e}"))
}

impl<W: Write> Write for Checked<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write(buf).map_err(tagged)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush().map_err(tagged)
    }
}

/// Writes `text` to stdout and flushes: `--help` and `--version`, whose
/// write errors clap would ignore.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = stdout()?;
    out.write_all(text.as_bytes())?;
    out.flush()
}
