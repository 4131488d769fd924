//! A gzip source inflated on a thread of its own
//! ([`Source::inflate_ahead`]), beside the search of its records (issue
//! 30), as `input::read_ahead` does for other compressed input.
//!
//! The thread inflates straight into a batch buffer, window after window,
//! and hands the batch over once it is nearly full (the first ones
//! sooner, [`FIRST`]): one message, and at most one wake-up, for about
//! [`BATCH`] bytes, not one per window. A
//! `.warc.gz` holds one member per record, a few KiB inflated each, and a
//! window never spans two members (each window's position is its own), so
//! a message per window was a message per record. Each window stays a
//! segment of the batch, with where the source stood at its first byte;
//! the reading side gives the segments one by one, so it sees the same
//! bytes, positions and faults as a source read in place. Used batches go
//! back to the thread and are filled again: no copy, no fresh pages.

use std::io::BufRead;
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};

use super::{inflate_into, Decoder, Error, Gz, Mode, Source};

/// How many batches may wait for the reader.
const AHEAD: usize = 3;

/// A batch's buffer size: 1 MiB, a hand-over (and a wake-up of a
/// waiting side) per MiB inflated. 256 KiB batches cost 3–8% more wall
/// time on a 200 MiB `.warc.gz` at `-j1` (paired runs, s13 results).
const BATCH: usize = 1024 * 1024;

/// A batch goes over once less than this is left in it (a member's
/// inflate goes on into the next batch: a window is as long as the room).
const ROOM: usize = 16 * 1024;

/// The first batch goes over at this many bytes, each next one at twice
/// the last, up to a full one: the reader starts after 16 KiB, not
/// 1 MiB, inflated (a slice of a `.warc.gz` starts a thread of its own,
/// about 10 MB inflated at `--slice-size`'s default).
const FIRST: usize = 16 * 1024;

/// A source's position: offset, member, member start, fresh.
type At = (u64, Option<u64>, u64, bool);

/// Inflated bytes in segments: each segment's end in `bytes`, and where
/// the source stood at its first byte. The segments are contiguous from
/// 0; `bytes` keeps its length ([`BATCH`]) when reused.
#[derive(Default)]
struct Batch {
    bytes: Vec<u8>,
    segs: Vec<(usize, At)>,
}

/// What the inflating thread hands over.
enum Handed {
    /// Inflated bytes.
    Data(Batch),
    /// A fault of the source, and where it stood after it (it goes on, as
    /// a source does).
    Fault(Error, At),
    /// The end, and where the source stood.
    End(At),
}

/// The reading end of [`Source::inflate_ahead`].
pub(super) struct Ahead {
    full: Receiver<Handed>,
    empty: Sender<Batch>,
    batch: Batch,
    /// The next segment of `batch`.
    seg: usize,
    /// The unread part of the current segment.
    start: usize,
    end: usize,
    ended: bool,
}

impl Ahead {
    /// The next bytes, empty at the end; `at` is set where a segment, a
    /// fault or the end moves the source.
    pub(super) fn fill_buf(&mut self, at: &mut At) -> Result<&[u8], Error> {
        while self.start == self.end {
            if let Some(&(end, seg_at)) = self.batch.segs.get(self.seg) {
                // Segments are contiguous: this one starts where the
                // last one ended (`start`).
                self.seg += 1;
                self.end = end;
                *at = seg_at;
                continue;
            }
            if self.ended {
                return Ok(&[]);
            }
            match self.full.recv() {
                Ok(Handed::Data(batch)) => {
                    let used = std::mem::replace(&mut self.batch, batch);
                    // The thread may have ended: then it is dropped.
                    let _ = self.empty.send(used);
                    (self.seg, self.start, self.end) = (0, 0, 0);
                }
                Ok(Handed::Fault(e, fault_at)) => {
                    *at = fault_at;
                    return Err(e);
                }
                Ok(Handed::End(end_at)) => {
                    *at = end_at;
                    self.ended = true;
                }
                // The thread is gone without a word (it cannot panic on
                // input; this is its unwinding): the end where it stood.
                Err(_) => self.ended = true,
            }
        }
        Ok(&self.batch.bytes[self.start..self.end])
    }

    /// Marks `n` bytes of the last `fill_buf` read.
    pub(super) fn consume(&mut self, n: usize) {
        self.start = (self.start + n).min(self.end);
    }
}

impl<R: BufRead> Source<R> {
    /// Runs `f` with a source of the same bytes, positions and faults as
    /// this gzip one, which a thread of its own inflates meanwhile, up to
    /// [`AHEAD`] batches ahead. A plain source is handed to `f` as it is.
    pub(crate) fn inflate_ahead<T>(self, f: impl FnOnce(Source<R>) -> T) -> T
    where
        R: Send,
    {
        let (state, spare) = match self.mode {
            Mode::Gz { state, spare, .. } => (state, spare),
            mode => return f(Source { mode, ..self }),
        };
        let mut gz = Inflater {
            state,
            spare,
            at: (self.pos, self.member, self.member_pos, self.fresh),
        };
        let (full_tx, full_rx) = sync_channel(AHEAD);
        let (empty_tx, empty_rx) = channel();
        std::thread::scope(|scope| {
            scope.spawn(move || gz.run(&full_tx, &empty_rx));
            f(Source {
                mode: Mode::Ahead(Ahead {
                    full: full_rx,
                    empty: empty_tx,
                    batch: Batch::default(),
                    seg: 0,
                    start: 0,
                    end: 0,
                    ended: false,
                }),
                ..self
            })
        })
    }
}

/// The inflating thread's source: a gzip source's state and position.
struct Inflater<R> {
    state: Gz<R>,
    spare: Option<Decoder<R>>,
    at: At,
}

impl<R: BufRead> Inflater<R> {
    /// Reads the source to its end into batches, handed over as they
    /// fill, each fault and the end in their turn; stops when the reader
    /// is gone.
    fn run(&mut self, full: &SyncSender<Handed>, empty: &Receiver<Batch>) {
        let mut batch = Batch::default();
        let mut due = FIRST;
        loop {
            if batch.bytes.len() < BATCH {
                batch.bytes.resize(BATCH, 0);
            }
            let used = batch.segs.last().map_or(0, |s| s.0);
            let (pos, member, member_pos, fresh) = &mut self.at;
            let got = inflate_into(
                &mut self.state,
                &mut self.spare,
                &mut batch.bytes[used..],
                *pos,
                member,
                fresh,
                member_pos,
            );
            let last = match got {
                Ok(0) => Some(Handed::End(self.at)),
                Ok(n) => {
                    batch.segs.push((used + n, self.at));
                    self.at.0 += n as u64;
                    self.at.3 = false;
                    None
                }
                Err(e) => Some(Handed::Fault(e, self.at)),
            };
            let used = batch.segs.last().map_or(0, |s| s.0);
            if (used >= due || BATCH - used < ROOM || last.is_some())
                && used > 0
            {
                due = (due * 2).min(BATCH);
                let mut next = empty.try_recv().unwrap_or_default();
                next.segs.clear();
                let done = std::mem::replace(&mut batch, next);
                if full.send(Handed::Data(done)).is_err() {
                    return;
                }
            }
            if let Some(last) = last {
                let end = matches!(last, Handed::End(_));
                if full.send(last).is_err() || end {
                    return;
                }
            }
        }
    }
}
