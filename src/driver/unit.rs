//! Searching one unit: a whole input, a stream, or a slice.

use super::batch::{
    Batch, Collect, Counted, Eager, Part, Parts, RangeCollect, Scan, Scanned,
    PART_EVERY, PLAIN_PART_HITS,
};
use super::config::Driver;
use super::held::{HeldCollect, HeldParts};
use super::how::{read_block, read_head, How, SNIFF_LEN};
use super::plan::{Done, FileState, SliceUnit, Unit};
use crate::container::Reading;
use crate::input::{self, Compression, Input, InputError, Source};
use crate::search::buffer::{read_at, read_retry, Buffer};
use crate::search::lines::LineCounter;
use rayon::prelude::*;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read};
use std::sync::atomic::{AtomicU64, Ordering};

impl Driver {
    /// Searches `bytes` (a whole input, or a slice starting at absolute
    /// offset `base` where a record begins) as its container says
    /// (`reading` is not [`Reading::Raw`]).
    /// The matches go on in parts when `parts` says where
    /// ([`HeldCollect`]).
    pub(super) fn search_records(
        &self,
        bytes: &[u8],
        base: u64,
        reading: Reading,
        parts: Option<HeldParts<'_, '_>>,
    ) -> Box<Batch> {
        let mut batch = self.spare.take();
        batch.opened = true;
        batch.framed = reading.records();
        batch.newlines = match parts {
            None => {
                self.containers.search_slice(bytes, base, reading, &mut *batch)
            }
            Some(parts) => {
                let mut sink = HeldCollect {
                    batch: &mut batch,
                    spare: &self.spare,
                    parts: Some(parts),
                    stopped: false,
                };
                self.containers.search_slice(bytes, base, reading, &mut sink)
            }
        };
        batch.bytes = bytes.len() as u64;
        batch
    }

    /// Searches one unit.
    pub(super) fn search(
        &self,
        unit: Unit,
        buf: &mut Buffer,
        part: Part<'_>,
    ) -> Done {
        match unit {
            Unit::Failed(err) => Done::Failed(err),
            Unit::Whole(input) => {
                let (batch, error) = self.search_whole(&input, buf, part);
                Done::Whole { input, batch, error }
            }
            Unit::Slice(slice) => {
                let mut batch =
                    self.search_slice(&slice, None, buf, Some(part));
                let error = batch.ended.take().map(|(at, error)| InputError {
                    source: slice.input.source.clone(),
                    offset: Some(at),
                    error,
                });
                Done::Slice { slice, batch, error }
            }
        }
    }

    /// A whole input: read into the buffer when it is a small regular
    /// file, else streamed (stdin, FIFOs, compressed files).
    pub(super) fn search_whole(
        &self,
        input: &Input,
        buf: &mut Buffer,
        part: Part<'_>,
    ) -> (Box<Batch>, Option<InputError>) {
        let fail = |error, offset| failure(input, error, offset);
        if input.source == Source::Stdin {
            return self.search_stream(input, io::stdin(), None, part);
        }
        let file = match input.open() {
            Ok(f) => f,
            Err(e) => return (Batch::failed(), Some(fail(e, None))),
        };
        // The walk saw a regular file's size; a regular file listed
        // without it is read (a big one fills more than a slice, below);
        // anything else is asked.
        let small = match input.size {
            Some(size) => size <= self.slice as u64,
            None if input.regular => true,
            None => match file.metadata() {
                Ok(m) => m.is_file() && m.len() <= self.slice as u64,
                Err(e) => return (Batch::failed(), Some(fail(e, None))),
            },
        };
        if !small {
            let size =
                input.size.or_else(|| file.metadata().ok().map(|m| m.len()));
            return self.search_stream(input, file, size, part);
        }
        let limit = (self.slice as u64).saturating_add(1);
        // A regular file of unknown size that fills the first read is
        // asked its size (a `stat` of the open file): a big one is
        // searched in slices, not read whole.
        let probe = input.size.is_none() && input.regular;
        let mut big = None;
        let grow = || {
            if !probe {
                return true;
            }
            match file.metadata() {
                Ok(m) if m.len() > self.slice as u64 => {
                    big = Some(m.len());
                    false
                }
                _ => true,
            }
        };
        // Read with no read of 0 bytes where a short one shows the end.
        let whole = input::Whole::new(input, &file);
        let (bytes, read_error) = buf.fill_from(whole.take(limit), grow);
        let read = bytes.len() as u64;
        // What was read before an error is searched, then the error is
        // reported at its offset; so is a file that ended before the size
        // the walk saw (it shrank while it was read).
        let ended = match (read_error, input.size) {
            (Some(e), _) => Some(fail(e, Some(read))),
            (None, Some(size)) if read < size => {
                Some(fail(shrank(read, size), Some(read)))
            }
            _ => None,
        };
        if let Some(err) = ended {
            return self.search_ended(input, bytes, err, part);
        }
        if let Some(size) = big {
            return self.search_big(input, file, size, buf, part);
        }
        if bytes.len() as u64 >= limit && probe {
            // Grown past a slice since the look: sliced when its size
            // says so; a file whose size says less than it holds (a
            // kernel's pseudo-file) is streamed, below.
            match file.metadata() {
                Ok(m) if m.len() >= limit => {
                    return self.search_big(input, file, m.len(), buf, part);
                }
                Ok(_) => {}
                Err(e) => return (Batch::failed(), Some(fail(e, None))),
            }
        }
        if bytes.len() as u64 >= limit {
            // It grew since we looked: stream it instead.
            return match input.open() {
                Ok(f) => self.search_stream(input, f, Some(limit), part),
                Err(e) => (Batch::failed(), Some(fail(e, None))),
            };
        }
        self.search_bytes(input, bytes, part)
    }

    /// What was read of an input before its read ended early with `err`
    /// (a read error, or the file shrank): searched, and `err` reported,
    /// not the error the search then meets. A compressed input's decoder
    /// fails at the cut ("incomplete deflate stream"), which hid the
    /// read's error (issue 33.12).
    pub(super) fn search_ended(
        &self,
        input: &Input,
        bytes: &[u8],
        err: InputError,
        part: Part<'_>,
    ) -> (Box<Batch>, Option<InputError>) {
        let (batch, _cut) = self.search_bytes(input, bytes, part);
        (batch, Some(err))
    }

    /// The whole of an input, read: decompressed when it is compressed,
    /// then searched as [`Driver::how`] says.
    fn search_bytes(
        &self,
        input: &Input,
        bytes: &[u8],
        part: Part<'_>,
    ) -> (Box<Batch>, Option<InputError>) {
        let format = Compression::detect(bytes);
        if format != Compression::None {
            return self.search_stream(
                input,
                bytes,
                Some(bytes.len() as u64),
                part,
            );
        }
        match self.how(input, bytes) {
            How::Skip => return (Batch::failed(), None),
            How::Read(Reading::Raw) => {}
            How::Read(r) => {
                let parts = HeldParts { part, input, sliced: None };
                return (self.search_records(bytes, 0, r, Some(parts)), None);
            }
        }
        // The hits go on in parts, as a plain slice's do: a held file of
        // one URL a line kept them all until it ended.
        let mut batch = self.spare.take();
        let it = self.finder.candidates(bytes);
        // A report that only counts the rejects is given their number:
        // none is returned through the scan, built and pushed.
        match batch.counts_rejects() {
            true => self.collect_held(
                &mut batch,
                it.accepted(),
                bytes,
                input,
                part,
            ),
            false => self.collect_held(&mut batch, it, bytes, input, part),
        }
        batch.bytes = bytes.len() as u64;
        (batch, None)
    }

    /// Collects the candidates `it` of raw text held whole, sending them
    /// on in parts of [`PLAIN_PART_HITS`], as a plain slice does.
    fn collect_held<'h>(
        &self,
        batch: &mut Batch,
        mut it: impl Scanned<'h>,
        bytes: &[u8],
        input: &Input,
        part: Part<'_>,
    ) {
        batch.opened = true;
        let mut lines = LineCounter::default();
        let scan = Scan { bytes, base: 0, lines: self.lines };
        self.collect_in_parts(
            batch, &mut it, scan, &mut lines, input, part, None,
        );
    }

    /// Collects `it` into `batch`, sending the hits on to `part` in parts
    /// of [`PLAIN_PART_HITS`] ([`Parts::put`]); `slice`: the first flag
    /// and start of the slice they are a part of, none for a whole input.
    #[allow(clippy::too_many_arguments)]
    fn collect_in_parts<'h>(
        &self,
        batch: &mut Batch,
        it: &mut impl Scanned<'h>,
        scan: Scan<'_>,
        lines: &mut LineCounter,
        input: &Input,
        part: Part<'_>,
        slice: Option<(bool, u64)>,
    ) {
        while !batch.collect_some(it, scan, lines, PLAIN_PART_HITS) {
            let mut p = batch.take_part(&self.spare);
            if let Some((first, start)) = slice {
                p.sliced = Some(first);
                p.plain = Some(start);
            }
            if !part.put(input, p) {
                break;
            }
        }
    }

    /// A stream, decompressed when its magic bytes say so. `stored` is
    /// its size when it is a file (or a lower bound): a compressed file
    /// of at least [`AHEAD_MIN`] bytes is decompressed on a thread of
    /// its own while it is searched ([`input::read_ahead`]).
    pub(super) fn search_stream<R: Read + Send>(
        &self,
        input: &Input,
        rdr: R,
        stored: Option<u64>,
        part: Part<'_>,
    ) -> (Box<Batch>, Option<InputError>) {
        let raw = AtomicU64::new(0);
        let mut rdr = Counted { rdr, bytes: 0, shared: Some(&raw) };
        // A container that reads its input compressed (a `.warc.gz`,
        // inflated record by record so that each knows its gzip member)
        // is given the stored bytes.
        let peek = match self.peek_compressed(&mut rdr) {
            Ok(p) => p,
            Err(error) => {
                return (Batch::failed(), Some(failure(input, error, None)));
            }
        };
        let framed = self.containers.reads_compressed(&peek);
        let rdr = io::Cursor::new(peek).chain(rdr);
        let (format, rdr): (_, Box<dyn Read + Send + '_>) = match framed {
            Some(_) => (Compression::Gzip, Box::new(rdr)),
            None => match input::open_stream(rdr) {
                Ok(x) => x,
                Err(error) => {
                    let err = failure(input, error, None);
                    return (Batch::failed(), Some(err));
                }
            },
        };
        // Big enough to pay for a thread: the decoder's (here) or the web
        // archive's member reader's (in the container).
        let ahead =
            self.read_ahead && stored.is_some_and(|size| size >= AHEAD_MIN);
        if ahead && framed.is_none() && format != Compression::None {
            return input::read_ahead(rdr, |rdr| {
                self.search_decoded(
                    input,
                    Box::new(rdr),
                    format,
                    None,
                    &raw,
                    part,
                )
            });
        }
        let framed = framed.map(|reading| (reading, ahead));
        self.search_decoded(input, rdr, format, framed, &raw, part)
    }

    /// [`Driver::search_stream`] once the stream is decompressed (or a
    /// container reads it compressed, `framed`: how, and whether its
    /// members are inflated on a thread of their own): sniffed, then
    /// searched. `raw` counts the stored bytes read, for the progress.
    fn search_decoded(
        &self,
        input: &Input,
        rdr: Box<dyn Read + Send + '_>,
        format: Compression,
        framed: Option<(Reading, bool)>,
        raw: &AtomicU64,
        part: Part<'_>,
    ) -> (Box<Batch>, Option<InputError>) {
        let mut batch = Box::<Batch>::default();
        self.spare.count_in(&mut batch);
        batch.compression = Some(format);
        batch.opened = true;
        let mut counted = Counted { rdr, bytes: 0, shared: None };
        let (mut reading, mut ahead) = (Reading::Raw, false);
        if let Some((r, a)) = framed {
            (reading, ahead) = (r, a);
        } else if self.sniffs(input) {
            let mut head = Vec::with_capacity(SNIFF_LEN);
            // The binary test wants the whole first block; the mail sniff
            // stops as soon as it can decide.
            let mut got = Ok(());
            if self.skips(input) {
                got = read_block(&mut counted, &mut head);
            }
            if let Err(error) = got.and_then(|()| {
                read_head(&self.containers, &mut counted, &mut head)
            }) {
                let err = failure(input, error, Some(counted.bytes));
                return (batch, Some(err));
            }
            reading = match self.how(input, &head) {
                How::Read(r) => r,
                How::Skip => return (Batch::failed(), None),
            };
            counted.bytes = 0;
            let rest: Box<dyn Read + Send + '_> = Box::new(counted.rdr);
            counted = Counted {
                rdr: Box::new(io::Cursor::new(head).chain(rest)),
                bytes: 0,
                shared: None,
            };
        }
        let may_stop = part.eager();
        let mut sink = Collect {
            may_stop,
            batch: &mut batch,
            spare: &self.spare,
            input,
            part,
            raw,
            sent: 0,
            // The first match after a quiet spell goes out at once.
            last: std::time::Instant::now()
                .checked_sub(PART_EVERY)
                .unwrap_or_else(std::time::Instant::now),
            clocked: u64::MAX,
            stopped: false,
            eager: Eager::default(),
        };
        sink.batch.framed = reading.records();
        let result = self.containers.search_reader(
            &mut counted,
            0,
            reading,
            ahead,
            &mut sink,
        );
        let sink_sent = sink.sent;
        batch.bytes = batch.searched.take().unwrap_or(counted.bytes);
        batch.raw = raw.load(Ordering::Relaxed).saturating_sub(sink_sent);
        let at = Some(counted.bytes);
        let error = result.err().map(|error| failure(input, error, at));
        (batch, error)
    }

    /// The first stored bytes of a stream when a container may read it
    /// compressed: gzip's magic, then up to [`PEEK_COMPRESSED`] bytes
    /// (a gzip stream is no slow interactive one); empty otherwise, and
    /// no byte read.
    fn peek_compressed<R: Read>(&self, rdr: &mut R) -> io::Result<Vec<u8>> {
        let mut peek = Vec::new();
        if !self.containers.reads_any_compressed() {
            return Ok(peek);
        }
        let mut chunk = [0u8; PEEK_COMPRESSED];
        let mut want = 2;
        while peek.len() < want {
            let dst = chunk.get_mut(..want - peek.len()).unwrap_or_default();
            match read_retry(|b| rdr.read(b), dst)? {
                0 => break,
                n => peek.extend_from_slice(dst.get(..n).unwrap_or_default()),
            }
            if peek.len() == 2 {
                if !peek.starts_with(&[0x1f, 0x8b]) {
                    break;
                }
                want = PEEK_COMPRESSED;
            }
        }
        Ok(peek)
    }

    /// [`Driver::search_slice`] from its start, in the calling thread's
    /// buffer `cell` (a fresh one when that is in use further up the
    /// stack: rayon may run a slice inside another's wait). A plain
    /// slice of more hits than a part ([`PLAIN_PART_HITS`]) stops there:
    /// `None`, and [`Driver::search_big`] searches it again itself,
    /// sending its hits on in parts.
    pub(super) fn search_slice_in(
        &self,
        slice: &SliceUnit,
        cell: &RefCell<Buffer>,
    ) -> Option<Box<Batch>> {
        let mut cap = Capped { spare: &self.spare, capped: false };
        let part: Option<Part<'_>> = match slice.reading.records() {
            true => None,
            false => Some(&mut cap),
        };
        let batch = match cell.try_borrow_mut() {
            Ok(mut buf) => self.search_slice(slice, None, &mut buf, part),
            Err(_) => {
                self.search_slice(slice, None, &mut Buffer::default(), part)
            }
        };
        if cap.capped {
            self.spare.give(batch);
            return None;
        }
        Some(batch)
    }

    /// A slice of a big file, scanned from its start or, when the
    /// previous slice spilled into it, from `resume` (absolute). A read
    /// that ended early is in [`Batch::ended`], and what it read before
    /// that is searched. With a `part` to send to, a plain slice sends
    /// its hits on in parts of [`PLAIN_PART_HITS`] ([`Parts::put`]), an
    /// mbox slice held whole in parts of [`PART_HITS`](super::batch::PART_HITS)
    /// ([`HeldCollect`]), and an mbox slice too long to hold its matches
    /// as it reads them.
    pub(super) fn search_slice(
        &self,
        slice: &SliceUnit,
        resume: Option<u64>,
        buf: &mut Buffer,
        part: Option<Part<'_>>,
    ) -> Box<Batch> {
        let want = slice
            .end
            .saturating_add(self.overlap as u64)
            .min(slice.size)
            .saturating_sub(slice.start);
        let len = (slice.end - slice.start) as usize;
        let records = slice.reading.records();
        if records && (len as u64 > MAIL_SLICE_HOLD || !slice.reading.held()) {
            return self.search_record_range(slice, part);
        }
        if records {
            // Such slices start and end where records do.
            let (bytes, error) = buf.fill_at(&slice.file, slice.start, len);
            let ended = slice_ended(slice, bytes.len(), len, error);
            let parts = part.map(|part| HeldParts {
                part,
                input: &slice.input,
                sliced: Some(slice.first),
            });
            let mut batch =
                self.search_records(bytes, slice.start, slice.reading, parts);
            batch.resume = slice.end;
            batch.ended = ended;
            return batch;
        }
        let (bytes, error) =
            buf.fill_at(&slice.file, slice.start, want as usize);
        let ended = slice_ended(slice, bytes.len(), len, error);
        let stop = len.min(bytes.len());
        let mut batch = self.spare.take();
        let it = match resume {
            None => self.finder.candidates_in(bytes, 0..stop),
            Some(r) => {
                let from = r.saturating_sub(slice.start) as usize;
                self.finder.candidates_from(bytes, from, stop)
            }
        };
        batch.opened = true;
        let mut lines = LineCounter::default();
        let scan = Scan { bytes, base: slice.start, lines: self.lines };
        // A report that only counts the rejects is given their number
        // (as `search_bytes`).
        let resume = match batch.counts_rejects() {
            true => {
                let mut it = it.accepted();
                self.collect_slice(
                    &mut batch, &mut it, scan, &mut lines, slice, part,
                );
                it.resume()
            }
            false => {
                let mut it = it;
                self.collect_slice(
                    &mut batch, &mut it, scan, &mut lines, slice, part,
                );
                it.resume()
            }
        };
        batch.resume = slice.start + resume as u64;
        if self.lines {
            // Counted on from the last candidate's line.
            let (line, _) = lines.at(bytes, 0, stop as u64);
            batch.newlines = line.saturating_sub(1);
        }
        batch.bytes = stop as u64;
        batch.ended = ended;
        batch
    }

    /// The candidates of a plain slice's scan `it` into `batch`; with a
    /// `part` to send to, in parts of [`PLAIN_PART_HITS`].
    fn collect_slice<'h>(
        &self,
        batch: &mut Batch,
        it: &mut impl Scanned<'h>,
        scan: Scan<'_>,
        lines: &mut LineCounter,
        slice: &SliceUnit,
        part: Option<Part<'_>>,
    ) {
        let Some(part) = part else {
            batch.collect_some(it, scan, lines, usize::MAX);
            return;
        };
        // The hits go on in parts: a 4 MiB slice of one URL a line
        // held 175 k hits (26 MB) until it ended, one such slice a
        // thread (issue 33.6).
        let marks = Some((slice.first, slice.start));
        self.collect_in_parts(
            batch,
            it,
            scan,
            lines,
            &slice.input,
            part,
            marks,
        );
    }

    /// A slice of records too long to hold (a long message runs it to the
    /// next separator), read as a stream: the same matches as a slice
    /// held whole (the container's reader and slice searches treat a
    /// record by its length alone), in bounded memory.
    pub(super) fn search_record_range(
        &self,
        slice: &SliceUnit,
        part: Option<Part<'_>>,
    ) -> Box<Batch> {
        let mut batch = self.spare.take();
        batch.opened = true;
        batch.framed = true;
        let len = slice.end - slice.start;
        let mut range = FileRange {
            count: self.lines,
            file: &slice.file,
            at: slice.start,
            left: len,
            newlines: 0,
        };
        let mut sink = RangeCollect {
            batch: &mut batch,
            spare: &self.spare,
            part: part.map(|p| (p, &slice.input, slice.first)),
            relative: slice.reading.relative(),
            stopped: false,
            eager: Eager::default(),
        };
        let ahead = self.read_ahead && len >= AHEAD_MIN;
        let result = self.containers.search_reader(
            &mut range,
            slice.start,
            slice.reading,
            ahead,
            &mut sink,
        );
        let stopped = sink.stopped;
        let read = len - range.left;
        batch.bytes = read;
        batch.newlines = range.newlines;
        if let Some(text) = batch.searched.take() {
            // Inflated by the container: its text is what was searched,
            // and its line numbers count within each record.
            batch.bytes = text;
            batch.newlines = 0;
        }
        batch.resume = slice.end;
        batch.ended = match result {
            Err(e) => Some((slice.start + read, e)),
            Ok(()) if read < len && !stopped => {
                let at = slice.start + read;
                Some((at, shrank(at, slice.size)))
            }
            Ok(()) => None,
        };
        batch
    }

    /// A big regular file that the walk listed without its size (see
    /// [`crate::input::WalkOptions::skip_stat`]), found big by this worker: its
    /// slices are searched here, one after the other, and sent on as
    /// parts, as the reporter would put parallel slices together
    /// (spilled candidates rescanned, line and message numbers counted
    /// on). A read error ends the file.
    pub(super) fn search_big(
        &self,
        input: &Input,
        file: File,
        size: u64,
        buf: &mut Buffer,
        part: Part<'_>,
    ) -> (Box<Batch>, Option<InputError>) {
        let fail = |error, offset| failure(input, error, offset);
        let Some(slices) = self.cut(input, file, size) else {
            return match input.open() {
                Ok(f) => self.search_stream(input, f, Some(size), part),
                Err(e) => (Batch::failed(), Some(fail(e, None))),
            };
        };
        if slices.is_empty() {
            // A binary file skipped.
            return (Batch::failed(), None);
        }
        let mut file = FileState::default();
        let mut done = Box::new(Batch {
            opened: true,
            compression: Some(Compression::None),
            framed: slices.first().is_some_and(|s| s.reading.records()),
            ..Batch::default()
        });
        // A few slices at a time are searched on the pool: a worker with
        // no unit left takes some (the file keeps its parallel slices),
        // and at most `ahead` batches wait to be sent on. A long mbox
        // slice is searched here alone, its matches sent on in parts as
        // it reads (numbered on from the slices before it), not held.
        let ahead = 2 * self.threads.max(1);
        let long = |s: &SliceUnit| {
            s.reading.held() && s.end - s.start > MAIL_SLICE_HOLD
        };
        let mut error = None;
        let mut k = 0;
        'slices: while let Some(first) = slices.get(k) {
            let mut end = k + 1;
            while !long(first)
                && end < slices.len()
                && end - k < ahead
                && slices.get(end).is_some_and(|s| !long(s))
            {
                end += 1;
            }
            let chunk = slices.get(k..end).unwrap_or_default();
            k = end;
            let batches: Vec<_> = if long(first) {
                let mut shifted = Shifted {
                    inner: &mut *part,
                    lines: file.lines,
                    messages: file.messages,
                };
                vec![Some(self.search_record_range(first, Some(&mut shifted)))]
            } else {
                chunk
                    .par_iter()
                    .map(|s| SLICE_BUF.with(|b| self.search_slice_in(s, b)))
                    .collect()
            };
            for (slice, found) in chunk.iter().zip(batches) {
                let mut batch = match found {
                    Some(mut batch) => {
                        if let Some((at, e)) = batch.ended.take() {
                            error = Some(fail(e, Some(at)));
                        }
                        let joined =
                            self.join(&mut file, slice, &mut batch, buf);
                        if let Err(e) = joined {
                            error = Some(fail(e, Some(slice.start)));
                        }
                        batch
                    }
                    // A plain slice of more hits than a part is searched
                    // here, from where the scan of the file goes on, and
                    // sends its hits on in parts as it scans: a chunk of
                    // dense slices held all their hits at once (4 slices
                    // of one URL a line, ~100 MB at `-j2`, issue 33.6).
                    None => {
                        let from =
                            (file.resume > slice.start).then_some(file.resume);
                        let mut shifted = Shifted {
                            inner: &mut *part,
                            lines: file.lines,
                            messages: file.messages,
                        };
                        let mut batch = self.search_slice(
                            slice,
                            from,
                            buf,
                            Some(&mut shifted),
                        );
                        if let Some((at, e)) = batch.ended.take() {
                            error = Some(fail(e, Some(at)));
                        }
                        self.count_on(&mut file, slice, &mut batch);
                        batch
                    }
                };
                batch.raw = slice.end - slice.start;
                if !part.send(input, batch) || error.is_some() {
                    break 'slices;
                }
            }
        }
        done.bytes = file.bytes;
        done.messages = file.messages;
        (done, error)
    }
}

/// The parts of a long mbox slice of a file [`Driver::search_big`]
/// searches, sent on as parts of the whole input: numbered on from the
/// `lines` newlines and `messages` messages before the slice, as
/// [`Driver::join`] numbers its batch.
struct Shifted<'a, 'p> {
    inner: &'a mut (dyn Parts + 'p),
    lines: u64,
    messages: u64,
}

impl Parts for Shifted<'_, '_> {
    fn send(&mut self, input: &Input, mut batch: Box<Batch>) -> bool {
        batch.shift(self.lines, self.messages);
        batch.sliced = None;
        self.inner.send(input, batch)
    }

    fn due(&mut self) -> bool {
        self.inner.due()
    }

    fn eager(&self) -> bool {
        self.inner.eager()
    }
}

/// The parts of a plain slice searched on the pool for
/// [`Driver::search_big`]: the first one stops the search, which the
/// worker then does again, in order, with parts it can send on.
struct Capped<'s> {
    spare: &'s super::batch::Spare,
    capped: bool,
}

impl Parts for Capped<'_> {
    fn send(&mut self, _: &Input, batch: Box<Batch>) -> bool {
        self.spare.give(batch);
        self.capped = true;
        false
    }

    fn due(&mut self) -> bool {
        true
    }
}

/// How many stored bytes of a gzip stream are peeked at to tell a
/// container that reads it compressed (the first member's header and
/// enough deflate to inflate a record's first line).
const PEEK_COMPRESSED: usize = 512;

/// The smallest compressed file decompressed on a thread of its own
/// ([`input::read_ahead`]): a thread's start (tens of µs) is small
/// beside inflating 256 KiB, and a folder of small `.gz` files starts
/// none.
pub(super) const AHEAD_MIN: u64 = 256 * 1024;

/// An mbox slice longer than this is read as a stream, not held (1 MiB
/// in the unit tests, so that they need no 8 MiB message).
pub(super) const MAIL_SLICE_HOLD: u64 =
    if cfg!(test) { 1 << 20 } else { 8 << 20 };

/// A range of a file, read with `pread`; counts its newlines when
/// `count` (line numbers are asked for).
struct FileRange<'a> {
    count: bool,
    file: &'a File,
    at: u64,
    left: u64,
    newlines: u64,
}

impl Read for FileRange<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want =
            buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = read_at(self.file, &mut buf[..want], self.at)?;
        self.at += n as u64;
        self.left -= n as u64;
        if self.count {
            self.newlines +=
                memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        }
        Ok(n)
    }
}

/// The error of a file that ended at byte `read` of the `size` its
/// `stat` said: it shrank while it was read.
fn shrank(read: u64, size: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!(
            "ended at byte {read} of the {size} its size said \
             (it shrank while it was read)"
        ),
    )
}

/// How the read of a slice ended early, if it did: a read error, or the
/// file shrank under it (`got` of the `len` bytes of the slice itself).
fn slice_ended(
    slice: &SliceUnit,
    got: usize,
    len: usize,
    error: Option<io::Error>,
) -> Option<(u64, io::Error)> {
    let at = slice.start + got as u64;
    match error {
        Some(e) => Some((at, e)),
        None if got < len => Some((at, shrank(at, slice.size))),
        None => None,
    }
}

/// The error `error` of `input`, at byte `offset` when known.
pub(super) fn failure(
    input: &Input,
    error: io::Error,
    offset: Option<u64>,
) -> InputError {
    InputError { source: input.source.clone(), offset, error }
}

thread_local! {
    /// The buffer of the slices a pool thread searches for a big file
    /// found by another worker (`Driver::search_big`).
    static SLICE_BUF: RefCell<Buffer> = RefCell::default();
}
