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
//! A stdout closed by the shell (`>&-`) is not seen: before `main`, the
//! Rust runtime opens `/dev/null` read-write on a closed fd 1, and that
//! is what Python's `subprocess.DEVNULL` and systemd's `StandardOutput=null`
//! give a program too. Refusing it broke those callers (a run that printed
//! nothing and exited 2), so it is written into like any `/dev/null`.

use std::io::{self, Write};

/// The results' output: fd 1 unbuffered, write errors reported.
pub fn stdout() -> io::Result<Checked<Box<dyn Write + Send>>> {
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
