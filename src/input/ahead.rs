//! Decompression on a thread of its own, beside the search (issue 32's
//! compressed target).
//!
//! A compressed input is one stream: it cannot be cut into slices, so
//! one worker both inflated it and searched what came out, one after
//! the other. [`read_ahead`] runs the decoder on a scoped thread that
//! fills chunks of [`CHUNK`] bytes and hands them over a channel at
//! most [`DEPTH`] deep, and gives the search an [`Ahead`] reader of
//! them: the two overlap, as ripgrep's `-z` overlaps its `gzip -d`
//! child process with the search. The bytes, their order and where an
//! error falls in them are the same as the decoder's own; memory is
//! bounded by `(DEPTH + 2) × CHUNK`.
//!
//! The thread ends when the decoder does (its end or an error, which is
//! handed over after the bytes before it), or when the reader is
//! dropped: a send then fails, and the scope's join waits at most for
//! the one chunk being filled. Only inputs read from files take it (see
//! [`crate::driver`]): a chunk is filled before it is handed over, which
//! a slow pipe would make the search wait for.

use std::io::{self, Read};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};

/// The bytes of one chunk handed over.
pub const CHUNK: usize = 256 * 1024;

/// How many filled chunks may wait for the reader.
pub const DEPTH: usize = 2;

/// One hand-over: a chunk's bytes, or the error that ended the decoder.
type Filled = io::Result<Vec<u8>>;

/// Runs `f` with a reader of `rdr`'s bytes, `rdr` read on a thread of
/// its own meanwhile; returns what `f` returns, once that thread ended.
pub fn read_ahead<R, T>(rdr: R, f: impl FnOnce(Ahead) -> T) -> T
where
    R: Read + Send,
{
    let (full_tx, full_rx) = sync_channel::<Filled>(DEPTH);
    let (empty_tx, empty_rx) = channel::<Vec<u8>>();
    std::thread::scope(|scope| {
        scope.spawn(move || fill(rdr, &full_tx, &empty_rx));
        f(Ahead {
            full: full_rx,
            empty: empty_tx,
            chunk: Vec::new(),
            at: 0,
            ended: false,
        })
    })
}

/// The thread's loop: fill a chunk (a used one when the reader gave one
/// back), hand it over; after the end or an error, stop.
fn fill<R: Read>(
    mut rdr: R,
    full: &SyncSender<Filled>,
    empty: &Receiver<Vec<u8>>,
) {
    loop {
        let mut chunk = empty.try_recv().unwrap_or_default();
        chunk.resize(CHUNK, 0);
        let mut len = 0;
        let mut error = None;
        while len < CHUNK {
            let dst = chunk.get_mut(len..).unwrap_or_default();
            match rdr.read(dst) {
                Ok(0) => break,
                Ok(n) => len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        chunk.truncate(len);
        let end = len < CHUNK;
        if len > 0 && full.send(Ok(chunk)).is_err() {
            return;
        }
        if let Some(e) = error {
            // The reader is told after the bytes before the error; a
            // failed send means it is gone, which ends the thread too.
            let _ = full.send(Err(e));
            return;
        }
        if end {
            return;
        }
    }
}

/// A reader of the chunks [`read_ahead`]'s thread fills.
pub struct Ahead {
    /// Filled chunks, in order; disconnected after the last.
    full: Receiver<Filled>,
    /// Read chunks, back to the thread for reuse.
    empty: Sender<Vec<u8>>,
    /// The chunk being read.
    chunk: Vec<u8>,
    /// How much of it was read.
    at: usize,
    /// The end or an error was met: every later read gives 0.
    ended: bool,
}

impl Read for Ahead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at >= self.chunk.len() {
            if self.ended || buf.is_empty() {
                return Ok(0);
            }
            match self.full.recv() {
                Ok(Ok(next)) => {
                    let used = std::mem::replace(&mut self.chunk, next);
                    self.at = 0;
                    if used.capacity() > 0 {
                        // The thread may have ended: the chunk is dropped.
                        let _ = self.empty.send(used);
                    }
                }
                Ok(Err(e)) => {
                    self.ended = true;
                    return Err(e);
                }
                Err(_) => {
                    self.ended = true;
                    return Ok(0);
                }
            }
        }
        let rest = self.chunk.get(self.at..).unwrap_or_default();
        let n = rest.len().min(buf.len());
        if let (Some(dst), Some(src)) = (buf.get_mut(..n), rest.get(..n)) {
            dst.copy_from_slice(src);
        }
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A reader of `bytes` in reads of the given lengths (cycled), then
    /// `fail` as an error at the end if set.
    struct Uneven<'a> {
        bytes: &'a [u8],
        lens: Vec<usize>,
        k: usize,
        fail: bool,
    }

    impl Read for Uneven<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.bytes.is_empty() {
                return match self.fail {
                    true => Err(io::Error::other("disk on fire")),
                    false => Ok(0),
                };
            }
            let want = self.lens[self.k % self.lens.len()].max(1);
            self.k += 1;
            if self.k.is_multiple_of(5) {
                return Err(io::ErrorKind::Interrupted.into());
            }
            let n = want.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Reads `rdr` to its end or error in reads of `step` bytes: the
    /// bytes, and the error's message with its offset.
    fn drain(
        rdr: &mut dyn Read,
        step: usize,
    ) -> (Vec<u8>, Option<(usize, String)>) {
        let mut out = Vec::new();
        let mut buf = vec![0u8; step];
        loop {
            match rdr.read(&mut buf) {
                Ok(0) => return (out, None),
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return (out.clone(), Some((out.len(), e.to_string())))
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The same bytes, and the error at the same offset, as reading
        /// the source itself; at any read lengths on either side.
        #[test]
        fn ahead_reads_what_the_source_gives(
            len in 0usize..(3 * CHUNK + 7),
            lens in prop::collection::vec(1usize..70_000, 1..6),
            step in 1usize..100_000,
            fail: bool,
        ) {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let src = || Uneven { bytes: &bytes, lens: lens.clone(), k: 0, fail };
            let want = drain(&mut src(), step);
            let got = read_ahead(src(), |mut a| drain(&mut a, step));
            prop_assert_eq!(got.0.len(), want.0.len());
            prop_assert!(got.0 == want.0);
            prop_assert_eq!(got.1, want.1);
        }
    }

    /// A reader dropped after its first bytes: the thread ends (the
    /// scope joins), though the source goes on for far more than the
    /// channel holds.
    #[test]
    fn an_early_stop_ends_the_thread() {
        let endless = io::repeat(b'x');
        let first = read_ahead(endless, |mut a| {
            let mut b = [0u8; 10];
            a.read(&mut b).map(|n| b[..n].to_vec())
        });
        assert_eq!(first.unwrap(), b"xxxxxxxxxx");
    }

    /// After the error, reads give 0: the error is told once, as a
    /// decoder that failed stays failed for its caller.
    #[test]
    fn the_error_is_told_once() {
        let src = Uneven { bytes: b"abc", lens: vec![2], k: 0, fail: true };
        read_ahead(src, |mut a| {
            let mut buf = [0u8; 8];
            assert_eq!(a.read(&mut buf).unwrap(), 3);
            assert_eq!(
                a.read(&mut buf).unwrap_err().to_string(),
                "disk on fire"
            );
            assert_eq!(a.read(&mut buf).unwrap(), 0);
        });
    }
}
