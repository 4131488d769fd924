//! The byte source under the record reader: plain input, or gzip read
//! member by member (RFC 1952 §2.2, "a gzip file consists of a series of
//! members"), so that every byte is known with the offset of the member
//! it came from.
//!
//! One `flate2::bufread::GzDecoder` a source reads the members, reset at
//! each (its inflate state kept, not set up anew: that was 5% of the
//! instructions of `-j1 -c` on a `.warc.gz` of 2.7 KiB members), over a
//! byte-counting reader; the bufread decoder takes from its reader only
//! the member's own bytes, so the count after it ends is the next
//! member's offset. A member that does not inflate is reported once; the
//! source then looks for the next gzip magic (`1f 8b 08`) and goes on
//! there.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

use super::error::{Error, Fault};

mod ahead;

use ahead::Ahead;

/// The gzip magic and the deflate method byte (RFC 1952 §2.3.1).
const MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// The inflated bytes are read in windows of this size.
const WINDOW: usize = 64 * 1024;

/// A `BufRead` that counts the bytes consumed from it, and can be handed
/// back a few bytes (a magic found across two reads).
pub(crate) struct Counting<R> {
    inner: R,
    /// Bytes consumed from `self` (not from `inner`: pushed-back bytes
    /// are subtracted again).
    count: u64,
    back: [u8; 3],
    /// `back[back_at..back_len]` comes before `inner`'s bytes.
    back_at: usize,
    back_len: usize,
}

impl<R: BufRead> Counting<R> {
    fn new(inner: R, count: u64) -> Counting<R> {
        Counting { inner, count, back: [0; 3], back_at: 0, back_len: 0 }
    }

    /// Hands `bytes` (at most 3, just consumed) back.
    fn unread(&mut self, bytes: &[u8]) {
        let n = bytes.len().min(3);
        self.back[..n].copy_from_slice(&bytes[..n]);
        self.back_at = 0;
        self.back_len = n;
        self.count -= n as u64;
    }
}

impl<R: BufRead> Read for Counting<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Counting<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.back_at < self.back_len {
            return Ok(&self.back[self.back_at..self.back_len]);
        }
        loop {
            match self.inner.fill_buf() {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
                Ok(_) => break,
            }
        }
        // Again, to return it: a second look gives the same bytes.
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.count += amt as u64;
        if self.back_at < self.back_len {
            let own = amt.min(self.back_len - self.back_at);
            self.back_at += own;
            self.inner.consume(amt - own);
        } else {
            self.inner.consume(amt);
        }
    }
}

/// The compressed bytes read ahead: a buffer of its own, filled `INPUT`
/// bytes at a time (or to the end), and at each member's start filled to
/// `INPUT` bytes after that start. So the decoder sees every member in the
/// same pieces whatever the reader beneath hands out (a 1-byte
/// `BufReader`, a pipe, a slice of the file that starts at the member):
/// how much a damaged member inflates before its error depends on those
/// pieces, and must not depend on the reader.
pub(crate) struct Window<R> {
    inner: Counting<R>,
    /// `buf[start..end]` is read and not consumed; `buf.len()` is at least
    /// [`HOLD`] once filled (more after an `unread` that did not fit).
    buf: Vec<u8>,
    start: usize,
    end: usize,
    /// Bytes consumed from `self`.
    count: u64,
}

/// The compressed bytes are read in pieces of this size.
const INPUT: usize = 64 * 1024;

/// The window's buffer: a member's first piece is read in place after
/// the bytes before it, and what is left is moved to the front only when
/// fewer than `INPUT` bytes of room follow the member's start. Moving it
/// to the front at every member (a buffer of `INPUT`) moved up to 64 KiB
/// a member: 15% of the instructions of `-j1 -c` on a `.warc.gz` of
/// 2.7 KiB members, 16 times the bytes of the file.
const HOLD: usize = 8 * INPUT;

impl<R: BufRead> Window<R> {
    fn new(inner: Counting<R>, count: u64) -> Window<R> {
        Window { inner, buf: Vec::new(), start: 0, end: 0, count }
    }

    /// Hands `bytes` (just consumed) back.
    fn unread(&mut self, bytes: &[u8]) {
        let n = bytes.len();
        if self.start >= n && self.buf[self.start - n..self.start] == *bytes {
            self.start -= n;
        } else {
            let mut joined = bytes.to_vec();
            joined.extend_from_slice(&self.buf[self.start..self.end]);
            self.end = joined.len();
            self.start = 0;
            self.buf = joined;
        }
        self.count -= n as u64;
    }

    /// Fills the window to `INPUT` bytes after its start (or to the
    /// end), so that the next member's first piece is the `INPUT` bytes
    /// from its first byte; what is left is moved to the front first when
    /// the buffer has no room for that.
    fn realign(&mut self) -> io::Result<()> {
        if self.start + INPUT > self.buf.len().max(HOLD) {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        self.fill_to(self.start + INPUT)
    }

    /// Reads to `INPUT` bytes (the window empty, at the buffer's front),
    /// or to the end.
    fn fill(&mut self) -> io::Result<()> {
        self.fill_to(INPUT)
    }

    /// Reads to `buf[..to]`, or to the end.
    fn fill_to(&mut self, to: usize) -> io::Result<()> {
        if self.buf.len() < to {
            self.buf.resize(to.max(HOLD), 0);
        }
        while self.end < to {
            match self.inner.read(&mut self.buf[self.end..to]) {
                Ok(0) => break,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl<R: BufRead> Read for Window<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Window<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            self.fill()?;
        }
        Ok(&self.buf[self.start..self.end])
    }

    fn consume(&mut self, amt: usize) {
        let n = amt.min(self.end - self.start);
        self.start += n;
        self.count += n as u64;
    }
}

/// The reader of a member's decoder: the window, handed to the decoder
/// for the member and taken back at its end, so that one decoder serves
/// every member (`GzDecoder::reset` takes a reader, and gives the one it
/// had back). Empty between members.
struct Held<R>(Option<Window<R>>);

impl<R: BufRead> Read for Held<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match &mut self.0 {
            Some(w) => w.read(out),
            None => Ok(0),
        }
    }
}

impl<R: BufRead> BufRead for Held<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match &mut self.0 {
            Some(w) => w.fill_buf(),
            None => Ok(&[]),
        }
    }

    fn consume(&mut self, amt: usize) {
        if let Some(w) = &mut self.0 {
            w.consume(amt);
        }
    }
}

/// The decoder of a source's members, kept between them.
type Decoder<R> = Box<GzDecoder<Held<R>>>;

/// A decoder for the member at the start of `raw`: `spare` reset (its
/// header read at its first read, as a new decoder reads it at once:
/// the same bytes, the same errors), or a new one.
fn start_member<R: BufRead>(
    spare: &mut Option<Decoder<R>>,
    raw: Window<R>,
) -> Decoder<R> {
    match spare.take() {
        Some(mut dec) => {
            dec.reset(Held(Some(raw)));
            dec
        }
        None => Box::new(GzDecoder::new(Held(Some(raw)))),
    }
}

/// Where a gzip source is.
enum Gz<R> {
    /// Inside a member.
    Inflating(Decoder<R>),
    /// Between members (or before the first).
    Between(Window<R>),
    /// After a damaged member or garbage: looking for the next magic.
    Resync(Window<R>),
    /// After an error of the reader beneath.
    Gone,
}

enum Mode<R> {
    Plain(Counting<R>),
    /// A gzip source inflated on another thread ([`Source::inflate_ahead`]):
    /// its windows, with where each stands, as they come.
    Ahead(Ahead),
    Gz {
        state: Gz<R>,
        /// The decoder, between members.
        spare: Option<Decoder<R>>,
        buf: Vec<u8>,
        start: usize,
        end: usize,
    },
}

/// The uncompressed bytes of an archive, with their offsets.
pub(crate) struct Source<R> {
    mode: Mode<R>,
    /// The offset of the next byte in the uncompressed stream.
    pos: u64,
    /// For gzip: the compressed offset of the member the next byte comes
    /// from (the last member begun).
    member: Option<u64>,
    /// The next byte is the first of a member (set when a member begins,
    /// cleared by a consume).
    fresh: bool,
    /// For gzip: the uncompressed offset where the last member begun
    /// began.
    member_pos: u64,
    /// A plain source's read error, reported once.
    dead: bool,
}

impl<R: BufRead> Source<R> {
    /// A source over `rdr`, which begins at offset `start` of its file:
    /// gzip when its first bytes are the gzip magic.
    pub(crate) fn new(rdr: R, start: u64) -> Source<R> {
        // The first two bytes, read whatever the reader's buffer holds
        // (a 1-byte buffer gives them one at a time), then handed back.
        let mut rdr = Counting::new(rdr, start);
        let mut first = [0u8; 2];
        let mut got = 0;
        while got < 2 {
            match rdr.fill_buf() {
                Ok([]) | Err(_) => break,
                Ok(b) => {
                    first[got] = b[0];
                    got += 1;
                    rdr.consume(1);
                }
            }
        }
        rdr.unread(&first[..got]);
        let gz = first[..got] == MAGIC[..2];
        if gz {
            Source {
                mode: Mode::Gz {
                    state: Gz::Between(Window::new(rdr, start)),
                    spare: None,
                    buf: Vec::new(),
                    start: 0,
                    end: 0,
                },
                pos: 0,
                member: Some(start),
                fresh: true,
                member_pos: 0,
                dead: false,
            }
        } else {
            let mode = Mode::Plain(rdr);
            Source {
                mode,
                pos: start,
                member: None,
                fresh: true,
                member_pos: start,
                dead: false,
            }
        }
    }

    /// Whether the input is gzip.
    pub(crate) fn is_gz(&self) -> bool {
        matches!(self.mode, Mode::Gz { .. } | Mode::Ahead(_))
    }

    /// The offset of the next byte (uncompressed).
    pub(crate) fn pos(&self) -> u64 {
        self.pos
    }

    /// The compressed offset of the member of the next byte, for gzip.
    pub(crate) fn member(&self) -> Option<u64> {
        self.member
    }

    /// For gzip, the uncompressed offset where the member of the next
    /// byte began.
    pub(crate) fn member_pos(&self) -> Option<u64> {
        self.member.map(|_| self.member_pos)
    }

    /// Whether the next byte begins a gzip member.
    pub(crate) fn fresh(&self) -> bool {
        self.fresh
    }

    /// The next bytes, empty at the end. An error is a damaged member
    /// (the source then goes on at the next member it finds) or a read
    /// error (the end).
    pub(crate) fn fill_buf(&mut self) -> Result<&[u8], Error> {
        let (pos, dead) = (self.pos, &mut self.dead);
        match &mut self.mode {
            Mode::Plain(rdr) => {
                if *dead {
                    return Ok(&[]);
                }
                // Counting's fill_buf retries an interrupted read.
                match rdr.fill_buf() {
                    Ok(b) => Ok(b),
                    Err(e) => {
                        *dead = true;
                        Err(Error::new(pos, None, Fault::Io(e.to_string())))
                    }
                }
            }
            Mode::Ahead(ahead) => {
                let mut at = (pos, self.member, self.member_pos, self.fresh);
                let got = ahead.fill_buf(&mut at);
                (self.pos, self.member, self.member_pos, self.fresh) = at;
                got
            }
            Mode::Gz { state, spare, buf, start, end } => {
                if *start == *end {
                    if buf.len() < WINDOW {
                        buf.resize(WINDOW, 0);
                    }
                    let n = inflate_into(
                        state,
                        spare,
                        buf,
                        pos,
                        &mut self.member,
                        &mut self.fresh,
                        &mut self.member_pos,
                    )?;
                    *start = 0;
                    *end = n;
                }
                Ok(&buf[*start..*end])
            }
        }
    }

    /// Marks `n` bytes of the last `fill_buf` read.
    pub(crate) fn consume(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        self.pos += n as u64;
        self.fresh = false;
        match &mut self.mode {
            Mode::Plain(rdr) => rdr.consume(n),
            Mode::Gz { start, end, .. } => *start = (*start + n).min(*end),
            Mode::Ahead(a) => a.consume(n),
        }
    }
}

/// Inflates the next bytes of a gzip source into `out` (not empty): how
/// many, 0 at the end. `pos` is the offset of the first; `member`,
/// `fresh` and `member_pos` are the source's, moved on as members begin.
fn inflate_into<R: BufRead>(
    state: &mut Gz<R>,
    spare: &mut Option<Decoder<R>>,
    out: &mut [u8],
    pos: u64,
    member: &mut Option<u64>,
    fresh: &mut bool,
    member_pos: &mut u64,
) -> Result<usize, Error> {
    loop {
        let at = *member;
        let step = step(state, spare, out, member, fresh);
        if *fresh {
            *member_pos = pos;
        }
        match step {
            Step::Data(n) => return Ok(n),
            Step::Again => {}
            Step::End => return Ok(0),
            Step::Fault(fault) => return Err(Error::new(pos, at, fault)),
        }
    }
}

enum Step {
    Data(usize),
    Again,
    End,
    Fault(Fault),
}

/// One move of the gzip state machine.
fn step<R: BufRead>(
    state: &mut Gz<R>,
    spare: &mut Option<Decoder<R>>,
    buf: &mut [u8],
    member: &mut Option<u64>,
    fresh: &mut bool,
) -> Step {
    match std::mem::replace(state, Gz::Gone) {
        Gz::Inflating(mut dec) => {
            match dec.read(buf) {
                Ok(0) => {
                    let raw = dec.get_mut().0.take();
                    *spare = Some(dec);
                    match raw {
                        Some(raw) => {
                            *state = Gz::Between(raw);
                            Step::Again
                        }
                        None => Step::End,
                    }
                }
                Ok(n) => {
                    *state = Gz::Inflating(dec);
                    Step::Data(n)
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {
                    *state = Gz::Inflating(dec);
                    Step::Again
                }
                Err(e) => {
                    let raw = dec.get_mut().0.take();
                    *spare = Some(dec);
                    let Some(mut raw) = raw else { return Step::End };
                    // A header refused before any byte was taken: step
                    // past its magic, or the search would stop there again.
                    if Some(raw.count) == *member
                        && raw.fill_buf().is_ok_and(|b| !b.is_empty())
                    {
                        raw.consume(1);
                    }
                    *state = Gz::Resync(raw);
                    let why = if e.kind() == io::ErrorKind::UnexpectedEof {
                        "the input ends inside the member".to_string()
                    } else {
                        e.to_string()
                    };
                    Step::Fault(Fault::BadGzip(why))
                }
            }
        }
        Gz::Between(mut raw) => match raw.fill_buf() {
            Err(e) => Step::Fault(Fault::Io(e.to_string())),
            Ok([]) => {
                *state = Gz::Between(raw);
                Step::End
            }
            Ok(b)
                if b[0] == MAGIC[0]
                    && b.get(1).is_none_or(|&c| c == MAGIC[1]) =>
            {
                *member = Some(raw.count);
                *fresh = true;
                if let Err(e) = raw.realign() {
                    return Step::Fault(Fault::Io(e.to_string()));
                }
                *state = Gz::Inflating(start_member(spare, raw));
                Step::Again
            }
            Ok(_) => {
                // Not a member: skip a byte so that the search cannot
                // stop here again.
                raw.consume(1);
                *state = Gz::Resync(raw);
                Step::Fault(Fault::GzipGarbage)
            }
        },
        Gz::Resync(mut raw) => match find_magic(&mut raw) {
            Ok(()) => {
                *state = Gz::Between(raw);
                Step::Again
            }
            Err(e) => Step::Fault(Fault::Io(e.to_string())),
        },
        Gz::Gone => Step::End,
    }
}

/// Consumes `raw` up to the next `1f 8b 08` (left unconsumed), or to its
/// end.
fn find_magic<R: BufRead>(raw: &mut Window<R>) -> io::Result<()> {
    // How many bytes of the magic end the bytes consumed so far.
    let mut have = 0usize;
    loop {
        let buf = raw.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        let mut i = 0;
        while i < buf.len() {
            if buf[i] == MAGIC[have] {
                have += 1;
                if have == MAGIC.len() {
                    raw.consume(i + 1);
                    raw.unread(&MAGIC);
                    return Ok(());
                }
                i += 1;
            } else if have > 0 {
                // The magic has no repeated byte: start again here.
                have = 0;
            } else {
                match memchr::memchr(MAGIC[0], &buf[i..]) {
                    Some(k) => i += k,
                    None => i = buf.len(),
                }
            }
        }
        let n = buf.len();
        raw.consume(n);
    }
}

/// The offset in `hay` of the first gzip member that begins a record:
/// its magic (`1f 8b 08`), a header flate2 accepts, and deflate data whose
/// first inflated line is a WARC version line (`WARC/1.`) or an ARC
/// header line. `None` when `hay` holds none.
///
/// The cut points of a parallel read of a `.warc.gz` (one member a
/// record) without inflating the file: read a window where a slice is to
/// start, and start it at the member this finds. Cost: a `memchr` for the
/// magic, and at each candidate the inflation of at most one line (4 KiB);
/// a magic inside compressed data passes the header check about once in
/// 2^24 bytes, and then inflates to no record line. A member whose head
/// runs past the end of `hay` is not found.
pub fn find_member(hay: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(i) = memchr::memmem::find(&hay[at..], &MAGIC) {
        let start = at + i;
        if member_begins_record(&hay[start..]) {
            return Some(start);
        }
        at = start + 1;
    }
    None
}

/// Whether the gzip member at the start of `bytes` inflates to a record
/// line.
fn member_begins_record(bytes: &[u8]) -> bool {
    let mut dec = GzDecoder::new(bytes);
    let mut line = [0u8; 4096];
    let mut got = 0;
    while got < line.len() && !line[..got].contains(&b'\n') {
        match dec.read(&mut line[got..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => got += n,
        }
    }
    let line = &line[..got];
    let Some(end) = memchr::memchr(b'\n', line) else { return false };
    let line = &line[..=end];
    super::sniff(line) == Some(super::Format::Warc)
        || super::head::arc_start(line)
}

/// One gzip member of a file: where it starts and ends in the compressed
/// file, and how many bytes it inflates to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    /// Offset of the member's first byte (its magic).
    pub offset: u64,
    /// Offset just past its trailer.
    pub end: u64,
    /// Its inflated size.
    pub inflated: u64,
}

/// The members of a gzip file, from [`gzip_members`].
pub struct GzMembers<R> {
    state: Gz<R>,
    spare: Option<Decoder<R>>,
    buf: Vec<u8>,
}

/// Lists the gzip members of `rdr` (a `.warc.gz` read from its start, or
/// from offset `start` of its file), the cut points of a parallel read.
///
/// Cost: deflate streams carry no length, so a member's end is found only
/// by inflating it: this inflates the whole file once into a 64 KiB
/// window (the time of inflating it, the memory of two windows). A
/// damaged member gives an error, and the listing goes on at the next
/// gzip magic.
pub fn gzip_members<R: BufRead>(rdr: R, start: u64) -> GzMembers<R> {
    GzMembers {
        state: Gz::Between(Window::new(Counting::new(rdr, start), start)),
        spare: None,
        buf: vec![0; WINDOW],
    }
}

impl<R: BufRead> Iterator for GzMembers<R> {
    type Item = Result<Member, Error>;

    fn next(&mut self) -> Option<Result<Member, Error>> {
        let (mut member, mut fresh) = (None, false);
        let mut inflated = 0u64;
        loop {
            let before = member;
            let ended = matches!(self.state, Gz::Inflating(_));
            match step(
                &mut self.state,
                &mut self.spare,
                &mut self.buf,
                &mut member,
                &mut fresh,
            ) {
                Step::Data(n) => inflated += n as u64,
                Step::Again => {
                    if let (true, Gz::Between(raw), Some(offset)) =
                        (ended, &self.state, member)
                    {
                        return Some(Ok(Member {
                            offset,
                            end: raw.count,
                            inflated,
                        }));
                    }
                    if member != before {
                        inflated = 0;
                    }
                }
                Step::End => return None,
                Step::Fault(fault) => {
                    if let Fault::Io(_) = fault {
                        self.state = Gz::Gone;
                    }
                    let offset = member.unwrap_or(0);
                    return Some(Err(Error::new(offset, member, fault)));
                }
            }
        }
    }
}
