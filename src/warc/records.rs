//! The record reader: heads framed by `Content-Length` (WARC 1.1 §4,
//! §5.4) or ARC's archive-length, blocks read through a window, the
//! faults reported and passed over.

use std::io::{self, BufRead, Read};

use super::error::{quote, Error, Fault};
use super::gz::Source;
use super::head::{self, Head, RecordType, MAX_HEAD};
use super::http::{self, Payload};
use super::Format;

/// The longest line the resync looks at whole (an ARC header line); the
/// rest of a longer one is passed over unread.
const MAX_LINE: usize = 64 * 1024;

/// The record being read.
struct Cur {
    offset: u64,
    gz: Option<u64>,
    /// The block's declared length, and what is left of it.
    len: u64,
    left: u64,
    format: Format,
    http: bool,
    /// The input ended inside the block.
    eof: bool,
    /// The record began at a gzip member's start, so it ends with that
    /// member at the latest (as warcio reads it: a member a record).
    bounded: bool,
    /// The block reached its member's end with bytes left.
    cut: bool,
    /// The source broke (a damaged member) inside the block.
    broken: Option<Error>,
}

/// The records of a WARC or ARC file, plain or gzip, read in bounded
/// memory: a head at a time from [`next_record`](Records::next_record),
/// then its block through [`block`](Records::block) or
/// [`payload`](Records::payload).
///
/// Not an `Iterator`: the block reader borrows the reader, which a plain
/// iterator's items cannot.
pub struct Records<R> {
    src: Source<R>,
    format: Option<Format>,
    cur: Option<Cur>,
    /// Looking for the next record start after a fault.
    resync: bool,
    /// A line read into `buf` (complete or not) for the resync to look at
    /// first: the bytes after a block that did not end as it should.
    pending: Option<bool>,
    /// Scratch: the head being read, the line being looked at.
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Records<R> {
    /// Reads the records of `rdr` from its start (gzip when it starts with
    /// the gzip magic, the format sniffed from the first record).
    pub fn new(rdr: R) -> Records<R> {
        Records::with_start(rdr, 0)
    }

    /// Reads the records of `rdr`, which begins at offset `start` of its
    /// file (a slice of it that begins at a record, or for gzip at a
    /// member). For plain input all offsets count from the file's start;
    /// for gzip the member offsets do, and the uncompressed offsets from
    /// the slice's first member.
    pub fn with_start(rdr: R, start: u64) -> Records<R> {
        Records {
            src: Source::new(rdr, start),
            format: None,
            cur: None,
            resync: false,
            pending: None,
            buf: Vec::new(),
            done: false,
        }
    }

    /// Runs `f` with these records, whose gzip members a thread of its
    /// own inflates meanwhile: the same records, offsets and faults, the
    /// inflate beside the search (plain input is read as it is). Only
    /// before the first record is read.
    pub fn inflate_ahead<T>(self, f: impl FnOnce(Records<R>) -> T) -> T
    where
        R: Send,
    {
        let Records { src, format, cur, resync, pending, buf, done } = self;
        src.inflate_ahead(move |src| {
            f(Records { src, format, cur, resync, pending, buf, done })
        })
    }

    /// Whether the input is gzip.
    pub fn is_gzip(&self) -> bool {
        self.src.is_gz()
    }

    /// The format, once a record has been read.
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// The offset in the uncompressed stream of the next byte to read.
    pub fn position(&self) -> u64 {
        self.src.pos()
    }

    /// The head of the next record, having passed over what was left of
    /// the one before (and its end, CRLF CRLF or a newline). An error is
    /// a fault of the container (see the module doc); the next call goes
    /// on at the next record found after it. `None` at the end.
    pub fn next_record(&mut self) -> Option<Result<Head, Error>> {
        if self.done {
            return None;
        }
        if let Err(e) = self.finish() {
            self.resync = true;
            return Some(Err(e));
        }
        loop {
            match self.start() {
                Ok(true) => {}
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Err(e) => {
                    self.resync = true;
                    return Some(Err(e));
                }
            }
            match self.read_head() {
                Ok(Some(head)) => return Some(Ok(head)),
                Ok(None) => {}
                Err(e) => {
                    self.resync = true;
                    return Some(Err(e));
                }
            }
        }
    }

    /// The rest of the current record's block, as stored. Ends early (no
    /// error) where the input or a gzip member does; the next
    /// [`next_record`](Records::next_record) reports that.
    pub fn block(&mut self) -> Block<'_, R> {
        Block { rec: self }
    }

    /// The current record's payload: for HTTP records ([`Head::is_http`])
    /// the HTTP head parsed (at most 64 KiB) and the body with its
    /// transfer and content codings undone; for others the block as it
    /// is. Call it before reading the block: afterwards (or a second
    /// time) it gives the rest of the block as stored. An error (an HTTP head that
    /// does not parse or passes 64 KiB, an unsupported coding) leaves the
    /// rest of the block to be passed over.
    pub fn payload(&mut self) -> Result<Payload<'_>, Error> {
        let (http, arc, offset, gz) = match &self.cur {
            // Once the block has been read from, the rest is as stored.
            Some(cur) => (
                cur.http && cur.left == cur.len,
                cur.format == Format::Arc,
                cur.offset,
                cur.gz,
            ),
            None => (false, false, self.src.pos(), self.src.member()),
        };
        http::payload(self.block(), http, arc, offset, gz)
    }

    /// Passes over the rest of the current record and its end.
    fn finish(&mut self) -> Result<(), Error> {
        let Some(mut cur) = self.cur.take() else { return Ok(()) };
        while cur.left > 0 && !cur.eof && !cur.cut && cur.broken.is_none() {
            let n = match self.src.fill_buf() {
                Ok([]) => {
                    cur.eof = true;
                    0
                }
                Ok(b) => (b.len() as u64).min(cur.left) as usize,
                Err(e) => {
                    cur.broken = Some(e);
                    0
                }
            };
            if n > 0 && cur.bounded && self.src.fresh() {
                cur.cut = true;
            } else {
                self.src.consume(n);
                cur.left -= n as u64;
            }
        }
        if let Some(e) = cur.broken {
            return Err(Error::new(
                cur.offset,
                e.gz_offset(),
                e.fault().clone(),
            ));
        }
        let got = cur.len - cur.left;
        if cur.eof {
            let fault = Fault::Truncated { expected: cur.len, got };
            return Err(Error::new(cur.offset, cur.gz, fault));
        }
        if cur.cut {
            let fault = Fault::PastMember { expected: cur.len, got };
            return Err(Error::new(cur.offset, cur.gz, fault));
        }
        // The end: CRLF CRLF (WARC), a newline (ARC). Blank lines of any
        // count are taken (writers differ); anything else means the
        // length was wrong. A member's end is an end too.
        match self.src.fill_buf() {
            Ok([]) => return Ok(()),
            Ok(b) if b[0] == b'\r' || b[0] == b'\n' => return Ok(()),
            Ok(_) => {}
            Err(e) => {
                let fault = e.fault().clone();
                return Err(Error::new(cur.offset, e.gz_offset(), fault));
            }
        }
        if self.src.fresh() {
            return Ok(());
        }
        // The line that follows, quoted whatever the buffer held, and
        // left for the resync to look at first (it may start a record).
        let complete = self.read_line(MAX_LINE)?.unwrap_or(true);
        self.pending = Some(complete);
        let seen = quote(&self.buf);
        Err(Error::new(cur.offset, cur.gz, Fault::NoRecordEnd(seen)))
    }

    /// Moves to the first byte of the next record: past blank lines, and
    /// after a fault to the next line that starts a record (leaving that
    /// line in `buf`, consumed). `false` at the end.
    fn start(&mut self) -> Result<bool, Error> {
        if !self.resync {
            self.buf.clear();
            loop {
                let b = self.src.fill_buf()?;
                if b.is_empty() {
                    return Ok(false);
                }
                let blank = b
                    .iter()
                    .take_while(|&&c| c == b'\r' || c == b'\n')
                    .count();
                if blank == 0 {
                    break;
                }
                self.src.consume(blank);
            }
            return Ok(true);
        }
        // A resync: line by line (a member's start counts as a line's).
        loop {
            // An error is another damaged member: said, and the next call
            // goes on looking.
            let complete = match self.pending.take() {
                Some(complete) => complete,
                None => match self.read_line(MAX_LINE)? {
                    Some(complete) => complete,
                    None => return Ok(false),
                },
            };
            if complete && self.starts_record(&self.buf) {
                self.resync = false;
                return Ok(true);
            }
            if !complete {
                self.skip_line()?;
            }
        }
    }

    /// Whether `line` (a whole line, its newline included) starts a
    /// record of the file's format.
    fn starts_record(&self, line: &[u8]) -> bool {
        let warc = super::sniff(line) == Some(Format::Warc);
        match self.format {
            Some(Format::Warc) => warc,
            Some(Format::Arc) => head::arc_start(line),
            None => warc || head::arc_start(line),
        }
    }

    /// Reads one line into `buf` (cleared), at most `max` bytes of it:
    /// `Some(true)` when the newline was reached, `Some(false)` when the
    /// line is longer, `None` at the end of input. In a resync, a line
    /// also ends where a gzip member begins.
    fn read_line(&mut self, max: usize) -> Result<Option<bool>, Error> {
        self.buf.clear();
        self.read_line_after(0, max)
    }

    /// [`read_line`](Records::read_line) appending to `buf` (its first
    /// `keep` bytes), in place: at most `max` bytes of the line.
    fn read_line_after(
        &mut self,
        keep: usize,
        max: usize,
    ) -> Result<Option<bool>, Error> {
        loop {
            let line = self.buf.len() - keep;
            if line > 0 && self.resync && self.src.fresh() {
                return Ok(Some(true));
            }
            let b = self.src.fill_buf()?;
            if b.is_empty() {
                return Ok(if line == 0 { None } else { Some(true) });
            }
            let room = max - line;
            let look = &b[..b.len().min(room)];
            if let Some(i) = memchr::memchr(b'\n', look) {
                self.buf.extend_from_slice(&look[..=i]);
                self.src.consume(i + 1);
                return Ok(Some(true));
            }
            let n = look.len();
            self.buf.extend_from_slice(look);
            self.src.consume(n);
            if self.buf.len() - keep >= max {
                return Ok(Some(false));
            }
        }
    }

    /// Passes over the rest of a line.
    fn skip_line(&mut self) -> Result<(), Error> {
        loop {
            let b = self.src.fill_buf()?;
            if b.is_empty() {
                return Ok(());
            }
            if let Some(i) = memchr::memchr(b'\n', b) {
                self.src.consume(i + 1);
                return Ok(());
            }
            let n = b.len();
            self.src.consume(n);
        }
    }

    /// Reads a record's head at the current position (its first line
    /// already in `buf` after a resync). `None` after reporting nothing
    /// (never); an error for a head that does not parse.
    fn read_head(&mut self) -> Result<Option<Head>, Error> {
        let resynced = !self.buf.is_empty();
        let offset = self.src.pos() - self.buf.len() as u64;
        let gz = self.src.member();
        if !resynced {
            match self.read_line(MAX_LINE)? {
                None => return Ok(None),
                Some(true) => {}
                Some(false) => {
                    let seen = quote(&self.buf);
                    self.skip_line()?;
                    return Err(Error::new(offset, gz, Fault::Garbage(seen)));
                }
            }
        }
        let first = std::mem::take(&mut self.buf);
        let result = self.head_from(first, offset, gz);
        if let Ok(head) = &result {
            self.cur = Some(Cur {
                offset,
                gz,
                len: head.content_length,
                left: head.content_length,
                format: head.format,
                http: head.is_http(),
                eof: false,
                bounded: self.src.member_pos() == Some(offset),
                cut: false,
                broken: None,
            });
        }
        result.map(Some)
    }

    /// The head whose first line is `first`.
    fn head_from(
        &mut self,
        first: Vec<u8>,
        offset: u64,
        gz: Option<u64>,
    ) -> Result<Head, Error> {
        let bad = |fault| Error::new(offset, gz, fault);
        let format = match (self.format, super::sniff(&first)) {
            (Some(Format::Arc), _) | (None, Some(Format::Arc)) => Format::Arc,
            (_, Some(Format::Warc)) => Format::Warc,
            (None, None) if head::arc_start(&first) => Format::Arc,
            _ => {
                self.buf = first;
                return Err(bad(Fault::Garbage(quote(&self.buf))));
            }
        };
        self.format = Some(format);
        if format == Format::Arc {
            let line = strip_newline(&first);
            let parts = head::parse_arc_line(line)
                .map_err(|why| bad(Fault::BadHead(why)))?;
            let content_length = head::parse_length(&parts[4]).unwrap_or(0);
            let record_type = if parts[0].starts_with("filedesc:") {
                RecordType::Warcinfo
            } else {
                RecordType::Response
            };
            self.buf = first;
            return Ok(Head {
                format,
                offset,
                gz_offset: gz,
                head_len: self.buf.len() as u64,
                record_type,
                content_length,
                arc: Some(parts),
                fields: head::Fields::default(),
            });
        }
        // WARC: the fields, to the empty line.
        let mut raw = first;
        loop {
            let line_start = raw.len();
            let room = MAX_HEAD.saturating_sub(raw.len());
            if room == 0 {
                return Err(bad(Fault::HeadTooLong(MAX_HEAD)));
            }
            self.buf = std::mem::take(&mut raw);
            let got = self.read_line_append(room)?;
            raw = std::mem::take(&mut self.buf);
            match got {
                None => return Err(bad(Fault::TruncatedHead)),
                Some(false) => return Err(bad(Fault::HeadTooLong(MAX_HEAD))),
                Some(true) => {}
            }
            let line = head::trim_end_cr(strip_newline(&raw[line_start..]));
            if line.is_empty() {
                if !raw.ends_with(b"\n") {
                    return Err(bad(Fault::TruncatedHead));
                }
                break;
            }
        }
        let fields = head::parse_fields(&raw, true)
            .map_err(|why| bad(Fault::BadHead(why)))?;
        let record_type = fields
            .get("WARC-Type")
            .map_or(RecordType::Other(String::new()), RecordType::from_name);
        let length = fields.get("Content-Length");
        let content_length = match length.map(head::parse_length) {
            Some(Some(n)) => n,
            Some(None) => {
                let why = format!(
                    "a bad Content-Length \"{}\"",
                    length.unwrap_or("").escape_debug()
                );
                return Err(bad(Fault::BadHead(why)));
            }
            None => {
                return Err(bad(Fault::BadHead("no Content-Length".into())))
            }
        };
        let head_len = raw.len() as u64;
        self.buf = raw;
        Ok(Head {
            format,
            offset,
            gz_offset: gz,
            head_len,
            record_type,
            content_length,
            arc: None,
            fields,
        })
    }

    /// [`read_line`](Records::read_line) appending to `buf` (a head's
    /// lines read into one buffer: a new one a line was 9 allocations a
    /// record).
    fn read_line_append(&mut self, max: usize) -> Result<Option<bool>, Error> {
        self.read_line_after(self.buf.len(), max)
    }
}

/// `line` without its `\n`.
fn strip_newline(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\n").unwrap_or(line)
}

/// The current record's block, as stored: a window over the stream (see
/// [`Records::block`]).
pub struct Block<'a, R> {
    rec: &'a mut Records<R>,
}

impl<R: BufRead> BufRead for Block<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let Records { src, cur, .. } = &mut *self.rec;
        let Some(cur) = cur else { return Ok(&[]) };
        if cur.left == 0 || cur.eof || cur.cut || cur.broken.is_some() {
            return Ok(&[]);
        }
        match src.fill_buf() {
            Ok([]) => {
                cur.eof = true;
                return Ok(&[]);
            }
            Ok(_) => {}
            Err(e) => {
                cur.broken = Some(e);
                return Ok(&[]);
            }
        }
        if cur.bounded && src.fresh() {
            // The next member began: this record's block ends with its
            // own member (the next record is there).
            cur.cut = true;
            return Ok(&[]);
        }
        // Buffered now: a second look gives the same bytes.
        let b = src.fill_buf().unwrap_or(&[]);
        let n = (b.len() as u64).min(cur.left) as usize;
        Ok(&b[..n])
    }

    fn consume(&mut self, amt: usize) {
        if let Some(cur) = &mut self.rec.cur {
            let n = (amt as u64).min(cur.left);
            cur.left -= n;
            self.rec.src.consume(n as usize);
        }
    }
}

impl<R: BufRead> Read for Block<'_, R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}
