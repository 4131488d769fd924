//! Cutting big files into newline-aligned slices (and mbox slices at
//! separator lines), and putting a slice's batch back in its file.

use super::batch::{Batch, Part};
use super::config::Driver;
use super::how::{How, SNIFF_LEN};
use super::plan::{FileState, SliceUnit};
use crate::container::{Containers, Cut, Reading};
use crate::input::{Compression, Input};
use crate::search::buffer::{read_at, Buffer, READS_AT};
use std::fs::File;
use std::io;
use std::sync::Arc;

impl Driver {
    /// The slices of a big regular `file` of `size` bytes, or `None` when
    /// it is searched whole (streamed): compressed (a `.warc.gz` too, for
    /// one worker), one mail message, raw repair, or a line too long to
    /// split at. No slices at all when it
    /// is a binary file to skip ([`How::Skip`]).
    pub(super) fn cut(
        &self,
        input: &Input,
        file: File,
        size: u64,
    ) -> Option<Vec<SliceUnit>> {
        let slice = self.slice as u64;
        let mut head = vec![0u8; SNIFF_LEN];
        if !READS_AT {
            return None;
        }
        let n = read_at(&file, &mut head, 0).unwrap_or(0);
        let head = head.get(..n).unwrap_or_default();
        let reading = if Compression::detect(head) != Compression::None {
            // A container that reads its input compressed may cut it (a
            // `.warc.gz` at its members); other compressed input is
            // streamed.
            let reading = self.containers.reads_compressed(head)?;
            if self.threads == 1 {
                // One worker would search the slices one after another,
                // each starting an inflating thread of its own and
                // draining it at its end, the worker alone on the last
                // batches: streamed whole, the file has one such thread
                // and one drain (issue 30).
                return None;
            }
            reading
        } else {
            match self.how(input, head) {
                How::Skip => return Some(Vec::new()),
                How::Read(r) => r,
            }
        };
        let bounds = match reading.cut() {
            Cut::Records => record_boundaries(
                &self.containers,
                reading,
                &file,
                size,
                slice,
            )?,
            Cut::Lines => boundaries(&file, size, slice)?,
            // One message, or raw repair: searched whole.
            Cut::Whole => return None,
        };
        let file = Arc::new(file);
        let count = bounds.len();
        let mut start = 0;
        let mut slices = Vec::with_capacity(count);
        for (k, end) in bounds.into_iter().enumerate() {
            slices.push(SliceUnit {
                input: input.clone(),
                file: Arc::clone(&file),
                size,
                start,
                end,
                first: k == 0,
                last: k + 1 == count,
                reading,
            });
            start = end;
        }
        Some(slices)
    }

    /// Puts the batch of `slice` in its file, as a scan of the whole file
    /// would have found it: scanned again from where the last candidate
    /// of the slice before ended when that spilled into this one (an
    /// error of that scan leaves `batch` as it was), line and message
    /// numbers counted on from the slices before it, which `file` then
    /// counts it with. The reporter does this for parallel slices,
    /// [`Driver::search_big`] for the slices of a file it found big.
    pub(super) fn join(
        &self,
        file: &mut FileState,
        slice: &SliceUnit,
        batch: &mut Box<Batch>,
        buf: &mut Buffer,
    ) -> io::Result<()> {
        let mut rescan = Ok(());
        if file.resume > slice.start {
            let mut b = self.search_slice(slice, Some(file.resume), buf, None);
            match b.ended.take() {
                None => self.spare.give(std::mem::replace(batch, b)),
                Some((_, e)) => {
                    self.spare.give(b);
                    rescan = Err(e);
                }
            }
        }
        self.count_on(file, slice, batch);
        rescan
    }

    /// Scans a plain `slice` that the slice before spilled into again,
    /// from where the scan of the whole file goes on (`file.resume`),
    /// sending its hits on to `part` in parts as it scans, then counts
    /// it in its file ([`Driver::count_on`]). Returns its last part; a
    /// read that ended early is in its `ended`. [`Driver::join`]'s
    /// rescan held a dense slice's hits all at once.
    pub(super) fn rescan(
        &self,
        file: &mut FileState,
        slice: &SliceUnit,
        buf: &mut Buffer,
        part: Part<'_>,
    ) -> Box<Batch> {
        let from = Some(file.resume);
        let mut batch = self.search_slice(slice, from, buf, Some(part));
        self.count_on(file, slice, &mut batch);
        batch
    }

    /// Counts the batch of `slice`, scanned from where the scan of the
    /// whole file goes on, in its file: offsets, line and message
    /// numbers counted on from the slices before it, which `file` then
    /// counts it with.
    pub(super) fn count_on(
        &self,
        file: &mut FileState,
        slice: &SliceUnit,
        batch: &mut Batch,
    ) {
        file.resume = file.resume.max(batch.resume);
        file.place(batch, slice.reading.relative());
        file.lines += batch.newlines;
        file.bytes += batch.bytes;
        file.messages += batch.messages;
    }
}

/// The ends of newline-aligned slices of about `slice` bytes, the last
/// one `size`; `None` when a line is too long to split at (the file is
/// then streamed, with bounded memory, by one worker).
pub(super) fn boundaries(
    file: &File,
    size: u64,
    slice: u64,
) -> Option<Vec<u64>> {
    pub(super) const LONGEST_LINE: u64 = 1 << 20;
    let mut ends = Vec::new();
    let mut start = 0u64;
    let mut probe = vec![0u8; 64 * 1024];
    while size - start > slice {
        // The first newline at or after `start + slice - 1`; lines are
        // short, so the first probe is small.
        let mut at = start + slice - 1;
        let mut len = 4096;
        let end = loop {
            if at >= size || at - (start + slice - 1) > LONGEST_LINE {
                break None;
            }
            let n = read_at(file, probe.get_mut(..len)?, at).ok()?;
            len = probe.len();
            if n == 0 {
                break None;
            }
            let got = probe.get(..n)?;
            if let Some(i) = memchr::memchr(b'\n', got) {
                break Some(at + i as u64 + 1);
            }
            at += n as u64;
        };
        match end {
            Some(e) if e < size => {
                ends.push(e);
                start = e;
            }
            Some(_) => break,
            None if at >= size => break,
            None => return None,
        }
    }
    ends.push(size);
    Some(ends)
}

/// The ends of slices of about `slice` bytes of a file of records (an
/// mbox), each ending right before a record begins
/// ([`Containers::next_cut`]: a separator line), the last one `size`;
/// `None` when no record begins for too long (the file is then streamed
/// by one worker).
pub(super) fn record_boundaries(
    containers: &Containers,
    reading: Reading,
    file: &File,
    size: u64,
    slice: u64,
) -> Option<Vec<u64>> {
    pub(super) const LONGEST_MESSAGE: u64 = 64 << 20;
    // A separator this close to the end of a probe may be cut short.
    pub(super) const TAIL: usize = 1024;
    // Messages are a few KiB: the first probe at a cut is small (a 256
    // KiB probe at every cut read 6% more than the spool's size with 4
    // MiB slices), and grows fourfold while no separator is in it.
    pub(super) const FIRST_PROBE: usize = 16 * 1024;
    let mut ends = Vec::new();
    let mut start = 0u64;
    let mut probe = vec![0u8; 256 * 1024];
    while size - start > slice {
        // The probe starts one byte early: a separator at probe index 1
        // counts only after a newline at index 0.
        let first = start + slice - 1;
        let mut at = first;
        let mut len = FIRST_PROBE;
        let end = loop {
            if at >= size {
                break None;
            }
            if at - first > LONGEST_MESSAGE {
                return None;
            }
            let n = read_at(file, probe.get_mut(..len)?, at).ok()?;
            len = (len * 4).min(probe.len());
            if n == 0 {
                break None;
            }
            let got = probe.get(..n)?;
            let eof = at + n as u64 >= size;
            let limit = if eof { n } else { n.saturating_sub(TAIL) };
            if let Some(k) = containers.next_cut(reading, got, 1) {
                if k < limit {
                    break Some(at + k as u64);
                }
            }
            if eof || limit < 2 {
                break None;
            }
            at += (limit - 1) as u64;
        };
        match end {
            Some(e) if e < size => {
                ends.push(e);
                start = e;
            }
            _ => break,
        }
    }
    ends.push(size);
    Some(ends)
}
