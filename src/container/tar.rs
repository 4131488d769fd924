//! Tar archives as a container: the SpamAssassin corpus, 20 Newsgroups, a
//! list's archive and a Maildir backup come as `.tar.gz`, and read as
//! text their messages would be searched with no MIME decoding and as one
//! message. Here each regular member is searched as what its own first
//! bytes say it is — a message, an mbox, a web archive, or text — as a
//! file of a folder walk would be, binary members skipped alike.
//!
//! The format is POSIX.1-2001's (`pax`, with its `ustar` header block:
//! IEEE Std 1003.1-2001, "pax Interchange Format") and GNU tar's
//! extensions: 512-byte header blocks, sizes in octal or base-256, an
//! extended header's `size` record for the next member, long names
//! (`L`/`K`) and old sparse headers (`S`) passed over. Zero blocks (the
//! end of an archive, and its padding) are read past, as `tar
//! --ignore-zeros` does: archives concatenated are all read, and what
//! follows the end is read too (a fault if it is not an archive).
//!
//! Positions are the unpacked archive's: offsets, lines and columns count
//! in the `.tar` bytes (after decompression), headers included, as a raw
//! scan of them would; a message's index counts on across members.
//! Members are read as a stream, in bounded memory (an extended header
//! is held up to [`PAX_MAX`]). A header whose checksum fails is a fault
//! ([`RecordSink::fault`]); the search goes on at the next block that is
//! a header. A nested tar member and a compressed one read as binary.

use super::record::{Fields, PartFields, Provenance, RecordPart};
use super::tar_record::TarMember;
use super::{Containers, Found, RecordSink};
use std::convert::Infallible;
use std::io::{self, Read};
use std::sync::Arc;

/// The size of a tar block.
const BLOCK: usize = 512;

/// The first bytes of a member that decide how it is read (the driver's
/// sniff length: a NUL among them makes it binary).
const MEMBER_SNIFF: usize = 8 * 1024;

/// Largest message member held whole and searched in hand (the mail
/// search's fast path); a longer one is streamed. As the driver's
/// bound for a mail slice held whole.
const HOLD: u64 = 4 << 20;

/// Largest extended header (`x`, `g`) held to read its `size` record;
/// a longer one is passed over, its size record unread.
pub(super) const PAX_MAX: u64 = 1 << 20;

/// Whether `head` begins with a `ustar` header block whose checksum holds.
pub(super) fn sniff(head: &[u8]) -> bool {
    head.get(..BLOCK).is_some_and(|b| {
        b.get(257..262) == Some(&b"ustar"[..]) && checksum_holds(b)
    })
}

/// One header block, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    /// All zeros: the end of an archive, or padding.
    End,
    /// A header: its type flag and the size of its data.
    Header { kind: u8, size: u64, extended: bool },
    /// Not a header (its checksum fails, or its size does not read).
    Bad,
}

/// The header in `b` (one block).
fn block(b: &[u8]) -> Block {
    if b.iter().all(|&x| x == 0) {
        return Block::End;
    }
    if !checksum_holds(b) {
        return Block::Bad;
    }
    let (Some(&kind), Some(size)) = (b.get(156), b.get(124..136)) else {
        return Block::Bad;
    };
    match number(size) {
        // GNU's old sparse header: more sparse blocks follow while
        // `isextended` (byte 482) is set.
        Some(size) => Block::Header {
            kind,
            size,
            extended: kind == b'S' && b.get(482).is_some_and(|&x| x != 0),
        },
        None => Block::Bad,
    }
}

/// Whether the checksum field of `b` (bytes 148..156, octal) is the sum
/// of its bytes with that field taken as spaces: unsigned, as POSIX says,
/// or signed, as some old tars wrote it.
fn checksum_holds(b: &[u8]) -> bool {
    let Some(stored) = b.get(148..156).and_then(number) else {
        return false;
    };
    let (mut unsigned, mut signed) = (0u64, 0i64);
    for (i, &x) in b.iter().enumerate() {
        let x = if (148..156).contains(&i) { b' ' } else { x };
        unsigned += u64::from(x);
        signed += i64::from(x as i8);
    }
    stored == unsigned || i64::try_from(stored).is_ok_and(|s| s == signed)
}

/// A numeric field: octal digits (leading spaces, ended by a space or
/// NUL), or GNU's base-256 (the first byte's high bit set, big-endian).
fn number(field: &[u8]) -> Option<u64> {
    let (&first, rest) = field.split_first()?;
    if first & 0x80 != 0 {
        let mut n = u64::from(first & 0x7f);
        for &x in rest {
            n = n.checked_mul(256)?.checked_add(u64::from(x))?;
        }
        return Some(n);
    }
    let digits = field.iter().skip_while(|&&x| x == b' ');
    let mut n = 0u64;
    let mut any = false;
    for &x in digits {
        match x {
            b'0'..=b'7' => {
                n = n.checked_mul(8)?.checked_add(u64::from(x - b'0'))?;
                any = true;
            }
            b' ' | 0 => break,
            _ => return None,
        }
    }
    // An all-NUL field is 0 (old tars leave unused fields so).
    Some(if any { n } else { 0 })
}

/// What an extended header says of the next member.
#[derive(Debug, Default, PartialEq, Eq)]
struct Pax {
    size: Option<u64>,
    path: Option<Vec<u8>>,
}

/// The `size` and `path` records of an extended header's data (`LEN
/// key=value\n` records, POSIX.1-2001 pax); reading stops at a record
/// that does not read.
fn pax(mut data: &[u8]) -> Pax {
    let mut pax = Pax::default();
    while let Some(space) = memchr::memchr(b' ', data) {
        let len = std::str::from_utf8(data.get(..space).unwrap_or_default())
            .ok()
            .and_then(|n| n.parse::<usize>().ok());
        let Some((len, record)) =
            len.and_then(|len| Some((len, data.get(space + 1..len)?)))
        else {
            break;
        };
        let record = record.strip_suffix(b"\n").unwrap_or(record);
        if let Some(v) = record.strip_prefix(b"size=") {
            pax.size =
                std::str::from_utf8(v).ok().and_then(|v| v.parse().ok());
        } else if let Some(v) = record.strip_prefix(b"path=") {
            pax.path = Some(v.to_vec());
        }
        data = data.get(len..).unwrap_or_default();
    }
    pax
}

/// The name in header block `b`: POSIX ustar's prefix, `/`, and name
/// (GNU headers keep other fields where the prefix would be).
fn header_name(b: &[u8]) -> Vec<u8> {
    let field = |r: std::ops::Range<usize>| {
        let f = b.get(r).unwrap_or_default();
        f.get(..memchr::memchr(0, f).unwrap_or(f.len())).unwrap_or_default()
    };
    let (name, prefix) = (field(0..100), field(345..500));
    if b.get(257..263) == Some(&b"ustar\0"[..]) && !prefix.is_empty() {
        [prefix, b"/", name].concat()
    } else {
        name.to_vec()
    }
}

/// The bytes of `rdr` counted as they pass: the position, and (when
/// lines are counted) the newlines and where the last one was.
struct Tally<R> {
    rdr: R,
    pos: u64,
    lines: bool,
    newlines: u64,
    /// The position just after the last newline.
    line_start: u64,
}

impl<R: Read> Read for Tally<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.rdr.read(buf)?;
        let got = buf.get(..n).unwrap_or_default();
        if self.lines {
            if let Some(last) = memchr::memrchr(b'\n', got) {
                self.newlines +=
                    memchr::memchr_iter(b'\n', got).count() as u64;
                self.line_start = self.pos + last as u64 + 1;
            }
        }
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read> Tally<R> {
    /// Reads a block into `b`; returns the bytes read, fewer than a
    /// block at the end of the input.
    fn block(&mut self, b: &mut [u8; BLOCK]) -> io::Result<usize> {
        let mut got = 0;
        while got < BLOCK {
            let dst = b.get_mut(got..).unwrap_or_default();
            match crate::search::buffer::read_retry(|d| self.read(d), dst)? {
                0 => break,
                n => got += n,
            }
        }
        Ok(got)
    }

    /// Passes over `n` bytes: `Ok(false)` when the input ends first.
    fn skip(&mut self, n: u64) -> io::Result<bool> {
        let copied = io::copy(&mut self.by_ref().take(n), &mut io::sink())?;
        Ok(copied == n)
    }
}

/// The padding after `size` bytes of data, to the next block.
fn padding(size: u64) -> u64 {
    (BLOCK as u64 - size % BLOCK as u64) % BLOCK as u64
}

/// Searches the tar archive `bytes` in hand (a whole small file), as
/// [`search_reader`] searches a stream.
pub(super) fn search_slice<S: RecordSink<Error = Infallible>>(
    c: &Containers,
    bytes: &[u8],
    base: u64,
    sink: &mut S,
) {
    // A slice's read cannot fail, and the sink never does.
    let _ = search_reader(c, bytes, base, &mut Fallible(sink));
}

/// Searches the tar archive `rdr`, whose first byte is at offset `base`:
/// each regular member as its first bytes say. A read error ends the
/// search; a bad header and a cut-short member are faults.
pub(super) fn search_reader<R, S>(
    c: &Containers,
    rdr: R,
    base: u64,
    sink: &mut S,
) -> io::Result<()>
where
    R: Read + Send,
    S: RecordSink<Error = io::Error>,
{
    let mut tally =
        Tally { rdr, pos: 0, lines: c.lines, newlines: 0, line_start: 0 };
    let mut b = [0u8; BLOCK];
    let mut next = Pax::default();
    let mut records = 0u64;
    let mut members = 0u64;
    // The offset of the first bad block of a run passed over.
    let mut bad: Option<u64> = None;
    loop {
        let at = tally.pos;
        match tally.block(&mut b)? {
            BLOCK => {}
            0 => break,
            n => {
                let from = bad.take().unwrap_or(at);
                let what = format!(
                    "not a tar header (passed over {} bytes to the end)",
                    at - from + n as u64
                );
                sink.fault(base + from, what);
                return Ok(());
            }
        }
        let (kind, size, extended) = match block(&b) {
            // The end of an archive, or the padding after it: read on, as
            // `tar --ignore-zeros` does, so that archives concatenated
            // are all read and bytes after the end are not unread.
            Block::End => continue,
            Block::Bad => {
                bad.get_or_insert(at);
                continue;
            }
            Block::Header { kind, size, extended } => (kind, size, extended),
        };
        if let Some(from) = bad.take() {
            let what =
                format!("not a tar header (passed over {} bytes)", at - from);
            sink.fault(base + from, what);
        }
        let pending = std::mem::take(&mut next);
        let size = pending.size.unwrap_or(size);
        if extended && !sparse_blocks(&mut tally, &mut b)? {
            sink.fault(base + at, "tar sparse header cut short".into());
            return Ok(());
        }
        let whole = match kind {
            // An extended header for the next member (`x`; `g`, for all
            // the members after it, is not read), a GNU long name (`L`).
            b'x' | b'g' | b'L' if size <= PAX_MAX => {
                let mut data = Vec::new();
                (&mut tally).take(size).read_to_end(&mut data)?;
                let whole = data.len() as u64 == size;
                match kind {
                    b'x' => {
                        let p = pax(&data);
                        next = Pax {
                            size: p.size.or(pending.size),
                            path: p.path.or(pending.path),
                        };
                    }
                    b'L' => {
                        let end =
                            memchr::memchr(0, &data).unwrap_or(data.len());
                        data.truncate(end);
                        next = Pax { path: Some(data), ..pending };
                    }
                    _ => next = pending,
                }
                whole
            }
            // A regular file (`0`, old tars' NUL) or a contiguous one.
            b'0' | 0 | b'7' => {
                let name = pending.path.unwrap_or_else(|| header_name(&b));
                let member = Member {
                    c,
                    base,
                    header: at,
                    index: members,
                    part: Arc::new(TarMember {
                        name: String::from_utf8_lossy(&name).into_owned(),
                        size,
                    }),
                    start: tally.pos,
                    records,
                    lines_before: tally.newlines,
                    column_before: tally.pos - tally.line_start,
                };
                let read = member.search(&mut tally, size, sink)?;
                records += read.records;
                members += 1;
                if read.stopped {
                    return Ok(());
                }
                read.whole
            }
            _ => tally.skip(size)?,
        };
        if !whole || !tally.skip(padding(size))? {
            sink.fault(base + at, "tar member cut short".into());
            return Ok(());
        }
    }
    if let Some(from) = bad {
        let what = format!(
            "not a tar header (passed over {} bytes)",
            tally.pos - from
        );
        sink.fault(base + from, what);
    }
    Ok(())
}

/// Passes over the sparse blocks after an old GNU sparse header; `false`
/// when the input ends first.
fn sparse_blocks<R: Read>(
    tally: &mut Tally<R>,
    b: &mut [u8; BLOCK],
) -> io::Result<bool> {
    loop {
        if tally.block(b)? < BLOCK {
            return Ok(false);
        }
        if b.get(504).is_none_or(|&x| x == 0) {
            return Ok(true);
        }
    }
}

/// A regular member about to be read: where it begins in the archive,
/// and the lines and records before it.
struct Member<'c> {
    c: &'c Containers,
    base: u64,
    /// The offset of its header block in the archive.
    header: u64,
    /// Its index among the archive's regular members.
    index: u64,
    /// Its record, for the URLs of text (a message's carry the message).
    part: Arc<dyn RecordPart>,
    /// The offset of its first byte in the archive.
    start: u64,
    records: u64,
    lines_before: u64,
    column_before: u64,
}

impl Member<'_> {
    /// Searches the `size` bytes of the member at `tally`'s position.
    fn search<R, S>(
        self,
        tally: &mut Tally<R>,
        size: u64,
        sink: &mut S,
    ) -> io::Result<MemberRead>
    where
        R: Read + Send,
        S: RecordSink<Error = io::Error>,
    {
        let mut head = Vec::with_capacity(MEMBER_SNIFF.min(size as usize));
        (&mut *tally)
            .take(size.min(MEMBER_SNIFF as u64))
            .read_to_end(&mut head)?;
        let (reading, known) = self.c.member_reading(&head);
        let binary = !known && memchr::memchr(0, &head).is_some();
        let rest = size - head.len() as u64;
        if binary && self.c.skip_binary {
            let whole = tally.skip(rest)?;
            return Ok(MemberRead { whole, records: 0, stopped: false });
        }
        // Containers apply the base themselves; raw text and repaired
        // text count from their stream's start.
        let own =
            matches!(reading, super::Reading::Raw | super::Reading::Repair);
        let (inner_base, shift) = match own {
            true => (0, self.base + self.start),
            false => (self.base + self.start, 0),
        };
        let mut member = Shifted {
            sink,
            shift,
            lines_before: self.lines_before,
            column_before: self.column_before,
            records_before: self.records,
            records: 0,
            stopped: false,
            member: (self.index, self.base + self.header),
            part: &self.part,
        };
        // Boxed: the member's reader is one type whatever the archive's,
        // or a tar member's search would instantiate without end.
        if size <= HOLD && matches!(reading, super::Reading::Mail(_)) {
            // A message of a mail corpus: held and searched in hand, as
            // the same file of a folder would be (the mail search's
            // slice path, which gives what its stream path gives).
            let mut whole = head;
            (&mut *tally).take(rest).read_to_end(&mut whole)?;
            let mut held = Held { sink: &mut member, error: None };
            self.c.search_slice(&whole, inner_base, reading, &mut held);
            if let Some(e) = held.error {
                return Err(e);
            }
        } else {
            let body: Box<dyn std::io::Read + Send + '_> = Box::new(
                io::Cursor::new(head).chain((&mut *tally).take(rest)),
            );
            self.c.search_reader(
                body,
                inner_base,
                reading,
                false,
                &mut member,
            )?;
        }
        let (records, stopped) = (member.records, member.stopped);
        let read = tally.pos - self.start;
        if stopped {
            return Ok(MemberRead { whole: true, records, stopped });
        }
        // What the member's search left unread.
        let whole = tally.skip(size.saturating_sub(read))?;
        Ok(MemberRead { whole, records, stopped })
    }
}

/// What the search of a member came to.
struct MemberRead {
    /// All its bytes were there.
    whole: bool,
    /// The records (messages) found in it.
    records: u64,
    /// The sink asked to stop.
    stopped: bool,
}

/// A member's sink over the archive's: positions moved from the member's
/// to the archive's, record indexes counted on from the members before.
struct Shifted<'s> {
    /// A trait object: the member's search is one type whatever the
    /// archive's sink, or it would instantiate without end.
    sink: &'s mut dyn RecordSink<Error = io::Error>,
    /// Added to offsets (raw members, whose search counts from 0).
    shift: u64,
    lines_before: u64,
    /// The bytes of the archive's line before the member's first byte.
    column_before: u64,
    records_before: u64,
    records: u64,
    /// The sink asked to stop.
    stopped: bool,
    /// The member's index and absolute header offset: the record of the
    /// URLs found with none (in text).
    member: (u64, u64),
    part: &'s Arc<dyn RecordPart>,
}

impl RecordSink for Shifted<'_> {
    type Error = io::Error;

    fn found(&mut self, f: &Found<'_, '_>) -> io::Result<bool> {
        let mut at = f.at;
        at.start += self.shift;
        at.end += self.shift;
        if at.line > 0 {
            if at.line == 1 {
                at.column += self.column_before;
            }
            at.line += self.lines_before;
        }
        let record = Some(match f.record {
            Some(mut p) => {
                p.index += self.records_before;
                p
            }
            None => Provenance {
                index: self.member.0,
                offset: self.member.1,
                id: None,
                fields: Fields::Part(PartFields {
                    part: self.part,
                    html: None,
                }),
            },
        });
        let go = self.sink.found(&Found { at, record, ..*f })?;
        self.stopped |= !go;
        Ok(go)
    }

    fn limit(&mut self, offset: u64, what: &'static str) {
        self.sink.limit(offset + self.shift, what);
    }

    fn record(&mut self) {
        self.records += 1;
        self.sink.record();
    }

    fn fault(&mut self, offset: u64, what: String) {
        self.sink.fault(offset + self.shift, what);
    }

    // A member's own count of bytes searched is not the archive's: the
    // driver counts the archive's bytes.
    fn searched(&mut self, _: u64) {}
}

/// A member's sink that may fail, as one that cannot (for the search of
/// a member in hand): an error stops the search and is kept.
struct Held<'s, 'm> {
    sink: &'s mut Shifted<'m>,
    error: Option<io::Error>,
}

impl RecordSink for Held<'_, '_> {
    type Error = Infallible;

    fn found(&mut self, f: &Found<'_, '_>) -> Result<bool, Infallible> {
        match self.sink.found(f) {
            Ok(go) => Ok(go),
            Err(e) => {
                self.error = Some(e);
                Ok(false)
            }
        }
    }

    fn limit(&mut self, offset: u64, what: &'static str) {
        self.sink.limit(offset, what);
    }

    fn record(&mut self) {
        self.sink.record();
    }

    fn fault(&mut self, offset: u64, what: String) {
        self.sink.fault(offset, what);
    }

    fn searched(&mut self, bytes: u64) {
        self.sink.searched(bytes);
    }
}

/// A sink that cannot fail, as one whose error is an I/O error.
struct Fallible<'s, S>(&'s mut S);

impl<S: RecordSink<Error = Infallible>> RecordSink for Fallible<'_, S> {
    type Error = io::Error;

    fn found(&mut self, f: &Found<'_, '_>) -> io::Result<bool> {
        let Ok(go) = self.0.found(f);
        Ok(go)
    }

    fn limit(&mut self, offset: u64, what: &'static str) {
        self.0.limit(offset, what);
    }

    fn record(&mut self) {
        self.0.record();
    }

    fn fault(&mut self, offset: u64, what: String) {
        self.0.fault(offset, what);
    }

    fn searched(&mut self, bytes: u64) {
        self.0.searched(bytes);
    }
}

#[cfg(test)]
#[path = "tar_tests.rs"]
mod tests;
