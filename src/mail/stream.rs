//! One message searched as a stream: for a message too long to hold
//! ([`super::MailFinderBuilder::whole_message_len`]), in bounded memory
//! whatever the sizes of its header, its parts and its lines.
//!
//! The message arrives in pieces ([`StreamMsg::feed`]) and is read line
//! by line as [`super::walk::Walk`] reads one held in memory: the header
//! of each entity is gathered (up to [`HEADER_WINDOW`], then read in
//! windows of whole fields; a field longer than that is searched as it
//! is, in windows) and read by the same walk; multipart bodies are
//! followed by a stack of open boundaries (RFC 2046 §5.1.1: a delimiter
//! line is `--boundary` at the start of a line, the line break before it
//! belongs to it; an outer boundary ends the parts inside it), nested at
//! most [`MAX_DEPTH`] deep; `message/rfc822` bodies are read as a
//! message; each part's text goes through a [`Leaf`].
//!
//! Framing is the caller's: the stream is fed one message's bytes.

mod head;

use super::config::MailFinder;
use super::frame::Message;
use super::header::Mime;
use super::leaf::{Leaf, MsgInfo, Spec};
use super::stage::{Decoder, LONG_LINE};
use super::walk::{nests, Scratch, MAX_DEPTH};
use super::{Encoding, Location, MailSink};
use crate::scan::Span;
use head::{Head, OwnedMime};

/// A header longer than this is read in windows of whole fields.
pub(super) const HEADER_WINDOW: usize = 256 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Before the first delimiter line.
    Preamble,
    Parts,
    /// After the close delimiter: the boundary is no longer looked for.
    Epilogue,
}

/// An open multipart entity.
#[derive(Debug)]
struct Frame {
    boundary: Vec<u8>,
    digest: bool,
    depth: usize,
    part: usize,
    state: State,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Head,
    Body,
}

/// A message being searched; see the module docs.
pub(super) struct StreamMsg<'f> {
    mf: &'f MailFinder,
    info: MsgInfo,
    /// Bytes not yet read; `inb[0]` is at absolute offset `inb_at`.
    inb: Vec<u8>,
    inb_at: u64,
    /// Where reading goes on in `inb`, and where the text handed to the
    /// part ends (before it: the line break held back, which belongs to
    /// a delimiter line if one follows).
    pos: usize,
    fed: usize,
    /// `pos` is at the start of a line.
    line_start: bool,
    next_part: usize,
    frames: Vec<Frame>,
    mode: Mode,
    head: Head,
    leaf: Leaf,
    /// The too long header field.
    raw: Leaf,
    scratch: Scratch,
    /// The sink stopped the search.
    stopped: bool,
}

impl<'f> StreamMsg<'f> {
    /// Starts message `index`, its first byte at absolute offset `at`,
    /// telling `sink` (see [`MailSink::message`]); `None` when the sink
    /// stopped.
    pub(super) fn start<S: MailSink>(
        mf: &'f MailFinder,
        index: usize,
        at: u64,
        sink: &mut S,
    ) -> Result<Option<StreamMsg<'f>>, S::Error> {
        let msg =
            Message { index, span: Span::default(), origin: at, bytes: &[] };
        if !sink.message(&msg)? {
            return Ok(None);
        }
        let mut s = StreamMsg {
            mf,
            info: MsgInfo { index, offset: at, id: None, meta: None },
            inb: Vec::new(),
            inb_at: at,
            pos: 0,
            fed: 0,
            line_start: true,
            next_part: 0,
            frames: Vec::new(),
            mode: Mode::Head,
            head: Head::default(),
            leaf: Leaf::default(),
            raw: Leaf::default(),
            scratch: Scratch::default(),
            stopped: false,
        };
        s.start_head(true, 0, false, at);
        Ok(Some(s))
    }

    /// Reads the next bytes of the message; `Ok(false)` when the sink
    /// stopped.
    pub(super) fn feed<S: MailSink>(
        &mut self,
        bytes: &[u8],
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        self.inb.extend_from_slice(bytes);
        self.run(false, sink)
    }

    /// Ends the message: everything still held is read and searched.
    pub(super) fn finish<S: MailSink>(
        mut self,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        if !self.run(true, sink)? {
            return Ok(false);
        }
        // What is left is the held line break, part of the last part.
        let (fed, len) = (self.fed, self.inb.len());
        if !self.feed_leaf(fed, len, sink)? {
            return Ok(false);
        }
        self.end_entity(len, sink)
    }

    /// Bytes held, for the memory tests.
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        self.inb.capacity()
            + self.head.buf.capacity()
            + self.leaf.held()
            + self.raw.held()
    }

    fn abs(&self, at: usize) -> u64 {
        self.inb_at + at as u64
    }

    fn start_head(
        &mut self,
        message: bool,
        depth: usize,
        digest: bool,
        at: u64,
    ) {
        let h = &mut self.head;
        h.buf.clear();
        if h.buf.capacity() > 2 * HEADER_WINDOW {
            h.buf = Vec::new();
        }
        h.at = at;
        h.start = at;
        h.message = message;
        h.envelope = message;
        h.digest = digest;
        h.depth = depth;
        h.part = self.next_part;
        h.fields_seen = false;
        h.first_window = true;
        h.mime = OwnedMime::default();
        h.raw = false;
        self.next_part += 1;
        self.mode = Mode::Head;
    }

    /// Reads what `inb` holds (all of it when `eof`), then drops what was
    /// read.
    fn run<S: MailSink>(
        &mut self,
        eof: bool,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        if self.stopped || !self.read(eof, sink)? {
            self.stopped = true;
            return Ok(false);
        }
        // Drop what was read; what is held stays.
        let keep = self.fed.min(self.pos);
        self.inb.drain(..keep);
        self.inb_at += keep as u64;
        self.pos -= keep;
        self.fed -= keep;
        if self.inb.capacity() > 4 << 20 && self.inb.len() < LONG_LINE {
            self.inb.shrink_to(LONG_LINE);
        }
        let mut settled = self.abs(self.fed);
        if self.leaf.is_open() {
            settled = settled.min(self.leaf.need());
        }
        if self.mode == Mode::Head {
            settled = settled.min(self.head.at);
        }
        if self.raw.is_open() {
            settled = settled.min(self.raw.need());
        }
        sink.settled(settled);
        Ok(true)
    }

    fn read<S: MailSink>(
        &mut self,
        eof: bool,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        loop {
            let len = self.inb.len();
            if self.pos >= len {
                break;
            }
            let go_on = match self.mode {
                Mode::Head => match self.head_line(eof, sink)? {
                    Some(g) => g,
                    None => break,
                },
                Mode::Body => match self.body(eof, sink)? {
                    Some(g) => g,
                    None => break,
                },
            };
            if !go_on {
                return Ok(false);
            }
        }
        if self.mode == Mode::Body && self.line_start {
            // The text up to the last line start, less its line break.
            let end = self.pos - self.eol_before(self.pos);
            let fed = self.fed;
            if end > fed && !self.feed_leaf(fed, end, sink)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The length of the line break right before `at` that is not yet
    /// handed on.
    fn eol_before(&self, at: usize) -> usize {
        let b = &self.inb[self.fed..at];
        if b.ends_with(b"\r\n") {
            2
        } else if b.ends_with(b"\n") {
            1
        } else {
            0
        }
    }

    /// The end of the line at `pos` (after its `\n`), and whether the
    /// line is whole; `None` when more bytes are needed.
    fn line_end(&self, eof: bool) -> Option<(usize, bool)> {
        let rest = &self.inb[self.pos..];
        match memchr::memchr(b'\n', rest) {
            Some(k) => Some((self.pos + k + 1, true)),
            None if eof => Some((self.inb.len(), true)),
            None if rest.len() > LONG_LINE => Some((self.inb.len(), false)),
            None => None,
        }
    }

    /// The open multipart whose delimiter `line` is (the outermost one),
    /// and whether it is the close delimiter.
    fn delimiter(&self, line: &[u8]) -> Option<(usize, bool)> {
        let rest = line.strip_prefix(b"--")?;
        self.frames.iter().enumerate().find_map(|(i, f)| {
            if f.state == State::Epilogue {
                return None;
            }
            let after = rest.strip_prefix(&f.boundary[..])?;
            let close = after.starts_with(b"--");
            (close || after.iter().all(u8::is_ascii_whitespace))
                .then_some((i, close))
        })
    }

    /// The header ends, its body starting at `body` (after the empty line
    /// that ended it, or at the first line that is no field). Reads it and
    /// starts the body as its type says.
    fn head_done<S: MailSink>(
        &mut self,
        body: usize,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        self.pos = body;
        self.fed = body;
        self.line_start = true;
        self.begin_body(self.abs(body), sink)
    }

    /// Reads the header and starts the body (at absolute `body`) as the
    /// entity's type says: a multipart's preamble, a message's header, or
    /// a part's text.
    fn begin_body<S: MailSink>(
        &mut self,
        body: u64,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        if self.head.raw {
            self.head.raw = false;
            self.long_done();
            if !self.raw.finish(self.mf, &self.info, sink)? {
                return Ok(false);
            }
        }
        if !self.head_window(sink)? {
            return Ok(false);
        }
        let depth = self.head.depth;
        let part = self.head.part;
        let mime = self.head.mime.mime();
        if depth >= MAX_DEPTH && nests(&mime, self.head.digest) {
            sink.limit(self.head.start, super::TOO_DEEP);
        }
        if depth < MAX_DEPTH {
            if mime.is(b"multipart/") {
                if let Some(boundary) = mime.boundary {
                    let frame = Frame {
                        boundary: boundary.to_vec(),
                        digest: mime.is(b"multipart/digest"),
                        depth,
                        part,
                        state: State::Preamble,
                    };
                    self.frames.push(frame);
                    self.leaf.start(Spec::plain(part, Location::Body), body);
                    self.mode = Mode::Body;
                    return Ok(true);
                }
            } else if mime.is(b"message/rfc822")
                || mime.is(b"message/news")
                || mime.is(b"message/global")
                || (self.head.digest && mime.content_type.is_empty())
            {
                self.start_head(true, depth + 1, false, body);
                return Ok(true);
            }
        }
        let spec = spec(self.mf, &mime, part);
        self.leaf.start(spec, body);
        self.mode = Mode::Body;
        Ok(true)
    }

    /// Ends the entity being read at `end` (its text is all handed on):
    /// a header is read and its body (empty) begun and ended, down to
    /// the part's text, which is ended.
    fn end_entity<S: MailSink>(
        &mut self,
        end: usize,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let end = self.abs(end);
        loop {
            match self.mode {
                Mode::Head => {
                    if !self.begin_body(end, sink)? {
                        return Ok(false);
                    }
                }
                Mode::Body => {
                    return self.leaf.finish(self.mf, &self.info, sink)
                }
            }
        }
    }

    /// Hands `inb[from..to]` to the part being read.
    fn feed_leaf<S: MailSink>(
        &mut self,
        from: usize,
        to: usize,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        if to <= from {
            return Ok(true);
        }
        self.fed = to.max(self.fed);
        if self.mode == Mode::Head {
            // A header's bytes are gathered as they are read.
            return Ok(true);
        }
        let at = self.abs(from);
        let StreamMsg { leaf, inb, mf, info, .. } = self;
        leaf.feed(mf, &inb[from..to], at, info, sink)
    }

    /// A delimiter line of frame `i` from `at` to `end`.
    fn delimiter_met<S: MailSink>(
        &mut self,
        i: usize,
        close: bool,
        at: usize,
        end: usize,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let eol = at - self.eol_before(at);
        let state = self.frames[i].state;
        if state == State::Preamble {
            // The preamble runs to the end of the first delimiter line
            // (as `walk::split_multipart` cuts it).
            let fed = self.fed;
            if !self.feed_leaf(fed, end, sink)? {
                return Ok(false);
            }
            self.pos = end;
            self.line_start = true;
            if close {
                // No part: the body is read as one text.
                self.frames[i].state = State::Epilogue;
                return Ok(true);
            }
            if !self.leaf.finish(self.mf, &self.info, sink)? {
                return Ok(false);
            }
        } else {
            let fed = self.fed;
            if !self.feed_leaf(fed, eol, sink)? {
                return Ok(false);
            }
            if self.mode == Mode::Head {
                // The part ends in its header: without the line break
                // that belongs to the delimiter.
                let n = at - eol;
                let len = self.head.buf.len();
                if self.head.buf.ends_with(&self.inb[eol..at]) {
                    self.head.buf.truncate(len - n);
                }
            }
            if !self.end_entity(eol, sink)? {
                return Ok(false);
            }
            self.frames.truncate(i + 1);
            self.fed = eol;
            self.pos = end;
            self.line_start = true;
            if close {
                // The epilogue: from the line break before the close
                // delimiter line on, as `walk::split_multipart` cuts it.
                self.frames[i].state = State::Epilogue;
                let part = self.frames[i].part;
                self.leaf
                    .start(Spec::plain(part, Location::Body), self.abs(eol));
                self.mode = Mode::Body;
                return self.feed_leaf(eol, end, sink);
            }
        }
        self.frames.truncate(i + 1);
        self.frames[i].state = State::Parts;
        let f = &self.frames[i];
        let (depth, digest) = (f.depth + 1, f.digest);
        self.fed = end;
        self.start_head(false, depth, digest, self.abs(end));
        Ok(true)
    }

    /// Reads body lines up to the next delimiter line (handled), or as far
    /// as `inb` goes; `None` when more bytes are needed.
    fn body<S: MailSink>(
        &mut self,
        eof: bool,
        sink: &mut S,
    ) -> Result<Option<bool>, S::Error> {
        let len = self.inb.len();
        if !self.line_start {
            // Inside a line too long to hold: text up to its end.
            return match memchr::memchr(b'\n', &self.inb[self.pos..]) {
                Some(k) => {
                    self.pos += k + 1;
                    self.line_start = true;
                    Ok(Some(true))
                }
                None => {
                    self.pos = len;
                    let fed = self.fed;
                    self.feed_leaf(fed, len, sink).map(Some)
                }
            };
        }
        // The next line that starts with `--`, if a boundary is open.
        let rest = &self.inb[self.pos..];
        let dash = if self.frames.is_empty() {
            None
        } else if rest.starts_with(b"--") {
            Some(self.pos)
        } else {
            dashes().find(rest).map(|k| self.pos + k + 1)
        };
        let Some(at) = dash else {
            // Every whole line held is text.
            if let Some(k) = memchr::memrchr(b'\n', rest) {
                self.pos += k + 1;
            }
            if self.pos == len {
                return Ok(Some(true));
            }
            // The last line is unfinished.
            if eof {
                self.pos = len;
                return Ok(Some(true));
            }
            if len - self.pos > LONG_LINE {
                self.pos = len;
                self.line_start = false;
                let fed = self.fed;
                return self.feed_leaf(fed, len, sink).map(Some);
            }
            return Ok(None);
        };
        self.pos = at;
        let Some((end, whole)) = self.line_end(eof) else {
            return Ok(None);
        };
        if whole {
            if let Some((i, close)) = self.delimiter(&self.inb[at..end]) {
                return self.delimiter_met(i, close, at, end, sink).map(Some);
            }
        }
        self.pos = end;
        self.line_start = whole;
        if !whole {
            let fed = self.fed;
            return self.feed_leaf(fed, end, sink).map(Some);
        }
        Ok(Some(true))
    }
}

/// The searcher for a line that starts with `--`, built once (`memmem::find`
/// builds one a call).
fn dashes() -> &'static memchr::memmem::Finder<'static> {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\n--"));
    &FINDER
}

/// How a part's text is read, from its type (as
/// [`super::walk::Walk::leaf`] decides).
fn spec(mf: &MailFinder, mime: &Mime<'_>, part: usize) -> Spec {
    let text = mime.is(b"text/");
    let encoding = mime.encoding.encoding();
    let decoding = encoding != Encoding::Identity;
    let html = mf.cfg.html && mime.is(b"text/html");
    let content = if decoding && mime.flowed && mime.is(b"text/plain") {
        Some(Decoder::Flowed { delsp: mime.delsp })
    } else if html {
        Some(Decoder::Html)
    } else {
        None
    };
    Spec {
        part,
        location: Location::Body,
        encoding,
        search: !decoding || text,
        content,
        tail_content: html.then_some(Decoder::Html),
    }
}

#[cfg(test)]
mod tests;
