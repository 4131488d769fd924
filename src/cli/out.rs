//! Standard output whose write errors are seen.
//!
//! A run that could not write its results must not exit 0 (grep exits 2
//! with "write error"). Two things in the Rust runtime hide such errors:
//!
//! - `io::Stdout` treats EBADF as success, so `urlgrep FILE 1<FILE` (a
//!   read-only stdout) would print nothing and exit 0;
//! - before `main`, the runtime reopens a closed fd 1 on `/dev/null`
//!   (read-write), so `urlgrep FILE >&-` would write into nothing.
//!
//! [`stdout`] therefore writes through a handle of its own on fd 1 (a
//! duplicate, not `io::Stdout`), and on Linux refuses a stdout that is the
//! runtime's read-write `/dev/null` (a shell's `>/dev/null` opens it
//! write-only). Every error of [`Checked`] says "write error"; its kind is
//! kept, so a broken pipe is still told apart (a quiet exit 0).

use std::io::{self, Write};

/// The results' output: fd 1 unbuffered, write errors reported.
pub fn stdout() -> io::Result<Checked<Box<dyn Write + Send>>> {
    Ok(Checked(handle()?))
}

#[cfg(unix)]
fn handle() -> io::Result<Box<dyn Write + Send>> {
    use std::os::fd::AsFd;
    if closed_at_start() {
        // EBADF, what a write to a closed descriptor gives.
        return Err(tagged(io::Error::from_raw_os_error(9)));
    }
    let fd = io::stdout().as_fd().try_clone_to_owned().map_err(tagged)?;
    Ok(Box::new(std::fs::File::from(fd)))
}

#[cfg(not(unix))]
fn handle() -> io::Result<Box<dyn Write + Send>> {
    Ok(Box::new(io::stdout()))
}

/// Whether fd 1 is the `/dev/null` the runtime opened read-write because
/// fd 1 was closed when the program started (Linux; `false` elsewhere or
/// when `/proc` cannot say). `1<>/dev/null` looks the same and is refused
/// too: nobody asks for that.
#[cfg(unix)]
fn closed_at_start() -> bool {
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    if target.as_os_str() != "/dev/null" {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    // `flags:` is octal; the access mode is its two low bits (O_RDWR 2).
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & 3 == 2)
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
