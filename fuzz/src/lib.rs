//! Shared pieces of the urlgrep fuzz targets: finder options drawn by the
//! fuzzer, a reader that returns the chunks the fuzzer chose, and a
//! comparable record of a candidate for the slice and reader APIs.

use arbitrary::Arbitrary;
use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;
use urlgrep::{
    Candidate, Finder, FinderBuilder, Finds, Flags, Kind, Match, Position, Reject,
    Scheme, Sink, Triggers,
};

/// Finder options drawn by the fuzzer. Small length caps (the builder
/// raises them to at least 8) make the caps themselves reachable.
#[derive(Arbitrary, Clone, Debug)]
pub struct Options {
    pub wrapped: bool,
    pub angle: bool,
    pub quoted: bool,
    pub bare: bool,
    pub strict: bool,
    /// The scheme-less detectors (issue 19).
    pub email: bool,
    pub www: bool,
    pub domain: bool,
    pub network_path: bool,
    pub unregistered: bool,
    pub max_wrapper_len: Option<u16>,
    pub max_url_len: Option<u16>,
}

impl Options {
    /// A builder with these options (and the default trigger search).
    pub fn builder(&self) -> FinderBuilder {
        let mut b = Finder::builder();
        b.wrapped(self.wrapped)
            .angle(self.angle)
            .quoted(self.quoted)
            .bare(self.bare)
            .strict(self.strict);
        let mut finds = Finds::NONE;
        if self.email {
            finds = finds.union(Finds::EMAIL);
        }
        if self.www {
            finds = finds.union(Finds::WWW);
        }
        if self.domain {
            finds = finds.union(Finds::DOMAIN);
        }
        if self.network_path {
            finds = finds.union(Finds::NETWORK_PATH);
        }
        if self.unregistered {
            finds = finds.union(Finds::UNREGISTERED);
        }
        b.find(finds);
        if let Some(n) = self.max_wrapper_len {
            b.max_wrapper_len(usize::from(n));
        }
        if let Some(n) = self.max_url_len {
            b.max_url_len(usize::from(n));
        }
        b
    }

    /// How far past the start of a reported candidate the reader search
    /// may have read: the length caps (as the builder clamps them), two
    /// buffers of `capacity` (the builder's minimum is 1) and slack for
    /// the look-behind and a UTF-8 sequence. Beyond it, the window grew
    /// with the input.
    pub fn read_ahead_bound(&self, capacity: usize) -> u64 {
        let wrapper =
            self.max_wrapper_len.map_or(2048, |n| usize::from(n).max(8));
        let url = self.max_url_len.map_or(8192, |n| usize::from(n).max(8));
        (wrapper + url + 2 * capacity.max(1) + 128) as u64
    }

    /// A finder with these options and the given trigger search.
    pub fn finder(&self, triggers: Triggers) -> Finder {
        self.builder().triggers(triggers).build()
    }
}

/// One candidate, accepted or rejected, in a form both APIs produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub start: u64,
    pub end: u64,
    pub url: Vec<u8>,
    pub kind: Kind,
    pub scheme: Scheme,
    pub flags: Flags,
    pub reject: Option<Reject>,
}

impl Record {
    fn new(start: u64, end: u64, m: &Match<'_>, r: Option<Reject>) -> Self {
        Record {
            start,
            end,
            url: m.url().to_vec(),
            kind: m.kind(),
            scheme: m.scheme(),
            flags: m.flags(),
            reject: r,
        }
    }

    /// From a candidate of a slice search (spans are input offsets).
    pub fn from_slice(c: &Candidate<'_>) -> Record {
        let m = c.as_match();
        let s = m.span();
        Record::new(s.start as u64, s.end as u64, m, c.reject())
    }
}

/// Every candidate of a slice search.
pub fn slice_records(finder: &Finder, hay: &[u8]) -> Vec<Record> {
    finder.candidates(hay).map(|c| Record::from_slice(&c)).collect()
}

/// A sink that records matches and rejected candidates with positions,
/// and, given the byte count of a [`Chunked`] reader, the furthest the
/// search had read past the start of a reported candidate.
#[derive(Default)]
pub struct Collect {
    pub records: Vec<Record>,
    pub positions: Vec<Position>,
    pub consumed: Option<Rc<Cell<u64>>>,
    pub max_ahead: u64,
}

impl Collect {
    fn note(&mut self, at: &Position) {
        self.positions.push(*at);
        if let Some(read) = &self.consumed {
            let ahead = read.get().saturating_sub(at.start);
            self.max_ahead = self.max_ahead.max(ahead);
        }
    }
}

impl Sink for Collect {
    type Error = io::Error;

    fn matched(&mut self, at: &Position, m: &Match<'_>) -> io::Result<bool> {
        self.records.push(Record::new(at.start, at.end, m, None));
        self.note(at);
        Ok(true)
    }

    fn rejected(
        &mut self,
        at: &Position,
        c: &Candidate<'_>,
    ) -> io::Result<bool> {
        let m = c.as_match();
        self.records.push(Record::new(at.start, at.end, m, c.reject()));
        self.note(at);
        Ok(true)
    }
}

/// Every candidate of a reader search, with positions.
pub fn reader_records<R: Read>(finder: &Finder, rdr: R) -> Collect {
    search_into(finder, rdr, Collect::default())
}

/// Every candidate of a search of a [`Chunked`] reader, with positions
/// and the read-ahead ([`Collect::max_ahead`]).
pub fn chunked_records(finder: &Finder, rdr: Chunked<'_>) -> Collect {
    let sink =
        Collect { consumed: Some(rdr.consumed.clone()), ..Collect::default() };
    search_into(finder, rdr, sink)
}

fn search_into<R: Read>(
    finder: &Finder,
    rdr: R,
    mut sink: Collect,
) -> Collect {
    // The readers used here never fail.
    if let Err(e) = finder.find_reader(rdr, &mut sink) {
        panic!("reader search failed: {e}");
    }
    sink
}

/// A reader that hands out its data in chunks of the sizes the fuzzer
/// chose (cycling through them), never more than asked for; a size of 0
/// is one `Interrupted` error, which the search must retry (the read after
/// it then returns at least one byte, so the input always advances).
pub struct Chunked<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    k: usize,
    interrupted: bool,
    /// Bytes handed out so far.
    pub consumed: Rc<Cell<u64>>,
}

impl<'a> Chunked<'a> {
    pub fn new(data: &'a [u8], sizes: &[u16]) -> Chunked<'a> {
        Chunked {
            data,
            sizes: sizes.iter().map(|&n| n.into()).collect(),
            k: 0,
            interrupted: false,
            consumed: Rc::default(),
        }
    }
}

impl Read for Chunked<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.data.is_empty() || buf.is_empty() {
            return Ok(0);
        }
        let size = match self.sizes.get(self.k % self.sizes.len().max(1)) {
            Some(&n) => n,
            None => usize::MAX,
        };
        self.k = self.k.wrapping_add(1);
        if size == 0 && !self.interrupted {
            self.interrupted = true;
            return Err(io::ErrorKind::Interrupted.into());
        }
        self.interrupted = false;
        let n = size.max(1).min(buf.len()).min(self.data.len());
        let (head, rest) = self.data.split_at(n);
        buf[..n].copy_from_slice(head);
        self.data = rest;
        self.consumed.set(self.consumed.get() + n as u64);
        Ok(n)
    }
}

/// The 1-based line and byte column of offset `at` in `hay`.
pub fn line_column(hay: &[u8], at: usize) -> (u64, u64) {
    let before = &hay[..at];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
    let line_start =
        before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    (line, (at - line_start + 1) as u64)
}

/// The candidates of the parallel-slice algorithm of
/// [`Finder::candidates_in`]: `hay` is cut right after the newlines at
/// `cuts` (offsets just past a `\n`, ascending, deduplicated), the slices
/// are scanned independently, and a slice is scanned again from the
/// previous slice's resume point when a candidate spilled into it.
pub fn sliced_records(
    finder: &Finder,
    hay: &[u8],
    cuts: &[usize],
) -> Vec<Record> {
    let starts: Vec<usize> =
        std::iter::once(0).chain(cuts.iter().copied()).collect();
    let mut got = Vec::new();
    let mut resume = 0;
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(hay.len());
        if start >= end {
            continue;
        }
        let mut it = if resume <= start {
            finder.candidates_in(hay, start..end)
        } else {
            finder.candidates_from(hay, resume, end)
        };
        got.extend(it.by_ref().map(|c| Record::from_slice(&c)));
        resume = it.resume().max(resume);
    }
    got
}
