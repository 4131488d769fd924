//! The mail finder and its builder: what a mail search is asked to do.

use super::config::{Config, MailFinder};
use super::frame::{self, messages, next_separator, Format, Message};
use super::stream::StreamMsg;
use super::walk::{last_separator, with_scratch, Scratch, Walk};
use super::{MailMatch, MailSink};
use crate::scan::Span;
use crate::search::Finder;
use std::io::{self, Read};
use std::sync::Arc;

/// The default of [`MailFinderBuilder::whole_message_len`].
pub const WHOLE_MESSAGE_LEN: usize = 4 << 20;

/// A streamed message is read in pieces of this size.
const CHUNK: usize = 1 << 20;

/// Builds a [`MailFinder`].
#[derive(Clone, Debug)]
pub struct MailFinderBuilder {
    pub(super) cfg: Config,
}

impl Default for MailFinderBuilder {
    fn default() -> MailFinderBuilder {
        MailFinderBuilder {
            cfg: Config {
                headers: true,
                html: true,
                whole: WHOLE_MESSAGE_LEN,
                chunk: CHUNK,
                qp_repair: false,
                field_cache: true,
                metadata: false,
                html_context: false,
                lines: None,
                header_fields: Arc::from([]),
                rejects: false,
            },
        }
    }
}

impl MailFinderBuilder {
    /// A builder with the defaults.
    pub fn new() -> MailFinderBuilder {
        MailFinderBuilder::default()
    }

    /// Scan header fields (identifier, trace, date and signature fields
    /// excepted). By default,
    /// headers are scanned.
    pub fn headers(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.headers = yes;
        self
    }

    /// Decode HTML character references in `text/html` parts. By default,
    /// they are decoded.
    pub fn html(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.html = yes;
        self
    }

    /// The longest message that is held whole while it is searched; a
    /// longer one is read as a stream, in pieces of about 1 MiB, with the
    /// state of its header, its parts and its decoders carried from one
    /// piece to the next (see `DESIGN.md`), so that memory stays bounded
    /// whatever the message's size. Both readings find the same URLs; the
    /// choice depends on the message's length only, so a message gives
    /// the same answer from a file, a stream or an archive. By default,
    /// 4 MiB.
    pub fn whole_message_len(&mut self, len: usize) -> &mut MailFinderBuilder {
        self.cfg.whole = len;
        self
    }

    /// The size of the pieces a long message held in memory is streamed
    /// in (1 MiB): a knob for tests and fuzzing, which show that the
    /// pieces change no match.
    #[doc(hidden)]
    pub fn stream_piece_len(&mut self, len: usize) -> &mut MailFinderBuilder {
        self.cfg.chunk = len.max(1);
        self
    }

    /// Repair raw quoted-printable in identity-encoded text parts (see
    /// [`super::repair_iter`]); such matches have [`super::Encoding::QpRepair`]. By
    /// default, no repair.
    pub fn qp_repair(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.qp_repair = yes;
        self
    }

    /// Remember the matches of header fields met before, per thread, and
    /// answer a field met again from them (see `DESIGN.md`). Off, every
    /// field is scanned: the same matches, found more slowly; for tests
    /// and side-by-side measurements. By default, on.
    pub fn field_cache(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.field_cache = yes;
        self
    }

    /// Read each message's metadata (sender, subject, date, the fields
    /// of [`MailFinderBuilder::header_fields`]; see [`super::Metadata`])
    /// and give it with its matches ([`MailMatch::metadata`]). It is
    /// read once per message, from the fields the search splits anyway.
    /// By default, it is not read.
    pub fn metadata(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.metadata = yes;
        self
    }

    /// Give each match in a `text/html` part its HTML context: the
    /// element and attribute it is in, an anchor's link text, and whether
    /// that text names another host ([`MailMatch::html`]; see
    /// [`super::html`]). The part is then tokenized once besides the
    /// search. Only a part of a message held whole is given it (see
    /// [`MailFinderBuilder::whole_message_len`]). By default, it is not.
    pub fn html_context(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.html_context = yes;
        self
    }

    /// Give the candidates the validator rejected too, each with its
    /// reason ([`MailMatch::reject`]), as the raw search does; the URLs
    /// found are the same. Only the text of a message held whole (see
    /// [`MailFinderBuilder::whole_message_len`]), outside
    /// quoted-printable repair, gives them. By default, it does not.
    pub fn rejects(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.rejects = yes;
        self
    }

    /// Give each match in text that decoding changed the lines of that
    /// text that hold it, with up to `before` and `after` lines around
    /// them ([`MailMatch::lines`]; see [`super::lines`]). Only a part of
    /// a message held whole is given them. By default, none.
    pub fn lines(
        &mut self,
        context: Option<(usize, usize)>,
    ) -> &mut MailFinderBuilder {
        self.cfg.lines = context;
        self
    }

    /// Other fields whose decoded values the metadata holds, by name
    /// (any case); set, they turn [`MailFinderBuilder::metadata`] on. By
    /// default, none.
    pub fn header_fields<I, S>(&mut self, names: I) -> &mut MailFinderBuilder
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.cfg.header_fields = names
            .into_iter()
            .map(|n| n.as_ref().to_ascii_lowercase())
            .collect();
        if !self.cfg.header_fields.is_empty() {
            self.cfg.metadata = true;
        }
        self
    }

    /// Builds the mail finder around `finder`.
    pub fn build(&self, finder: Finder) -> MailFinder {
        MailFinder { finder, cfg: Arc::new(self.cfg.clone()) }
    }
}

impl MailFinder {
    /// A mail finder with the default settings around `finder`.
    pub fn new(finder: Finder) -> MailFinder {
        MailFinderBuilder::new().build(finder)
    }

    /// A builder to configure a mail finder.
    pub fn builder() -> MailFinderBuilder {
        MailFinderBuilder::new()
    }

    /// The URL finder it wraps.
    pub fn finder(&self) -> &Finder {
        &self.finder
    }

    /// Searches every message of `hay` (framed as `format` says; see
    /// [`messages`]; [`Format::Unknown`] is read as one message), pushing
    /// each message and then its URLs into `sink`, in order. Spans are
    /// relative to `hay`.
    pub fn find<S: MailSink>(
        &self,
        hay: &[u8],
        format: Format,
        sink: &mut S,
    ) -> Result<(), S::Error> {
        with_scratch(|scratch| {
            self.search_all(hay, format, 0, 0, scratch, sink).map(|_| ())
        })
    }

    /// Searches one message of `hay` (from [`messages`] or
    /// [`Message::new`]); returns `Ok(false)` when the sink stopped.
    pub fn find_message<S: MailSink>(
        &self,
        hay: &[u8],
        msg: &Message<'_>,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        with_scratch(|scratch| self.search(hay, msg, None, 0, scratch, sink))
    }

    /// Every match of [`MailFinder::find`], owned.
    pub fn matches(
        &self,
        hay: &[u8],
        format: Format,
    ) -> Vec<MailMatch<'static>> {
        let mut out = Vec::new();
        let Ok(()) = self.find(hay, format, &mut |m: &MailMatch<'_>| {
            out.push(m.clone().into_owned());
            true
        });
        out
    }

    /// Searches a reader as [`MailFinder::find`] searches a slice, in
    /// bounded memory: an mbox is read in chunks of about 1 MiB, cut at
    /// separator lines, and its messages searched as each is complete; a
    /// message longer than [`MailFinderBuilder::whole_message_len`] (and
    /// any other format, one message, when it is that long) is searched
    /// as a stream while it is read. [`MailMatch::offset`] and
    /// [`MailMatch::message`] count from the start of the reader.
    pub fn find_reader<R: Read, S: MailSink>(
        &self,
        mut rdr: R,
        format: Format,
        sink: &mut S,
    ) -> Result<(), S::Error>
    where
        S::Error: From<io::Error>,
    {
        let mut buf = Vec::new();
        let mut scratch = Scratch::default();
        let (mut origin, mut index) = (0u64, 0usize);
        let mbox = format == Format::Mbox;
        // The message being streamed, and whether `buf` starts inside
        // one of its lines (a line too long to hold was handed on).
        let mut streamed: Option<StreamMsg<'_>> = None;
        let mut mid_line = false;
        // A read error ends the input there: what was read before it is
        // searched, then the error is returned.
        let mut failed = None;
        loop {
            let eof = match (&mut rdr).take(CHUNK as u64).read_to_end(&mut buf)
            {
                Ok(n) => n == 0,
                Err(e) => {
                    failed = Some(e);
                    true
                }
            };
            if let Some(msg) = streamed.as_mut() {
                // Up to the next separator line, or the last whole line.
                let from = usize::from(mid_line);
                let end =
                    match mbox.then(|| next_separator(&buf, from)).flatten() {
                        Some(k) => Some(k),
                        None if eof => Some(buf.len()),
                        None => None,
                    };
                let upto = end.unwrap_or_else(|| {
                    match memchr::memrchr(b'\n', &buf) {
                        Some(k) => k + 1,
                        None if buf.len() > CHUNK => buf.len(),
                        None => 0,
                    }
                });
                if !msg.feed(&buf[..upto], sink)? {
                    return Ok(());
                }
                if upto > 0 {
                    mid_line = buf[upto - 1] != b'\n';
                }
                origin += upto as u64;
                buf.drain(..upto);
                if end.is_none() {
                    continue;
                }
                if let Some(msg) = streamed.take() {
                    if !msg.finish(sink)? {
                        return Ok(());
                    }
                }
                index += 1;
                mid_line = false;
            }
            if eof && buf.is_empty() && (mbox || index > 0) {
                break;
            }
            // The messages held whole: an mbox's up to its last separator,
            // one message's at the end.
            let cut = match (eof, mbox) {
                (true, _) => buf.len(),
                (false, true) => match last_separator(&buf) {
                    Some(at) if at > 0 => at,
                    _ => 0,
                },
                (false, false) => 0,
            };
            // (An empty input is one empty message, but for an mbox.)
            if cut > 0 || (eof && !mbox && index == 0) {
                let Some(count) = self.search_all(
                    &buf[..cut],
                    format,
                    origin,
                    index,
                    &mut scratch,
                    sink,
                )?
                else {
                    return Ok(());
                };
                index += count;
                origin += cut as u64;
                buf.drain(..cut);
            }
            if eof {
                break;
            }
            // The message being read is too long to hold: streamed.
            if buf.len() > self.cfg.whole {
                streamed = self.stream_start(
                    &mut buf,
                    index,
                    &mut origin,
                    &mut mid_line,
                    sink,
                )?;
                if streamed.is_none() {
                    return Ok(());
                }
            }
        }
        match failed {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Starts streaming message `index`, which `buf` (at absolute
    /// `origin`) begins: its whole lines are handed on and dropped from
    /// `buf`; `None` when the sink stopped.
    fn stream_start<'m, S: MailSink>(
        &'m self,
        buf: &mut Vec<u8>,
        index: usize,
        origin: &mut u64,
        mid_line: &mut bool,
        sink: &mut S,
    ) -> Result<Option<StreamMsg<'m>>, S::Error> {
        let Some(mut msg) = StreamMsg::start(self, index, *origin, sink)?
        else {
            return Ok(None);
        };
        let upto = match memchr::memrchr(b'\n', buf) {
            Some(k) => k + 1,
            None => buf.len(),
        };
        if !msg.feed(&buf[..upto], sink)? {
            return Ok(None);
        }
        *mid_line = upto > 0 && buf[upto - 1] != b'\n';
        *origin += upto as u64;
        buf.drain(..upto);
        Ok(Some(msg))
    }

    /// Searches message `index`, `bytes` at absolute offset `at`, as a
    /// stream (it is longer than [`MailFinderBuilder::whole_message_len`]).
    fn search_streamed<S: MailSink>(
        &self,
        bytes: &[u8],
        index: usize,
        at: u64,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let Some(mut msg) = StreamMsg::start(self, index, at, sink)? else {
            return Ok(false);
        };
        for piece in bytes.chunks(self.cfg.chunk) {
            if !msg.feed(piece, sink)? {
                return Ok(false);
            }
        }
        msg.finish(sink)
    }

    /// Frames `hay` as `format` says and searches each message, the
    /// first numbered `index`, `hay` starting at absolute offset
    /// `origin`; the number of messages, or `None` when the sink
    /// stopped. An mbox message is framed with the walk of its header
    /// ([`frame::frame_mbox`]), which the search then reuses.
    pub(super) fn search_all<S: MailSink>(
        &self,
        hay: &[u8],
        format: Format,
        origin: u64,
        index: usize,
        scratch: &mut Scratch,
        sink: &mut S,
    ) -> Result<Option<usize>, S::Error> {
        let mut count = 0;
        if format != Format::Mbox {
            for mut msg in messages(hay, format) {
                msg.index += index;
                msg.origin = origin;
                count += 1;
                if msg.span.end - msg.span.start > self.cfg.whole {
                    let bytes = &hay[msg.span.start..msg.span.end];
                    let at = origin + msg.span.start as u64;
                    if !self.search_streamed(bytes, msg.index, at, sink)? {
                        return Ok(None);
                    }
                    continue;
                }
                if !sink.message(&msg)?
                    || !self.search(hay, &msg, None, origin, scratch, sink)?
                {
                    return Ok(None);
                }
            }
            return Ok(Some(count));
        }
        let mut start = 0;
        while start < hay.len() {
            let mut fields = std::mem::take(&mut scratch.fields);
            let framed = frame::frame_mbox(hay, start, &mut fields);
            scratch.fields = fields;
            let span = Span { start, end: framed.end };
            if framed.end - start > self.cfg.whole {
                let at = origin + start as u64;
                let bytes = &hay[start..framed.end];
                if !self.search_streamed(bytes, index + count, at, sink)? {
                    return Ok(None);
                }
                count += 1;
                start = framed.end.max(start + 1);
                continue;
            }
            let mut msg = Message::new(hay, index + count, span);
            msg.origin = origin;
            count += 1;
            if !sink.message(&msg)?
                || !self.search(
                    hay,
                    &msg,
                    framed.split,
                    origin,
                    scratch,
                    sink,
                )?
            {
                return Ok(None);
            }
            start = framed.end.max(start + 1);
        }
        Ok(Some(count))
    }

    /// Searches one message; `split`: its header block and body, already
    /// split, with the header's fields in `scratch.fields`.
    pub(super) fn search<S: MailSink>(
        &self,
        hay: &[u8],
        msg: &Message<'_>,
        split: Option<(Span, Span)>,
        origin: u64,
        scratch: &mut Scratch,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        if msg.span.end > hay.len() {
            // A message framed from another slice: nothing to search.
            return Ok(true);
        }
        let mut walk = Walk {
            mf: self,
            hay,
            msg,
            part: 0,
            scratch,
            sink,
            origin,
            id: None,
            meta: super::meta::Slot::Off,
        };
        match split {
            Some((header, body)) => walk.split_entity(header, body, 0, false),
            None => walk.entity(msg.span, 0, true, false),
        }
    }
}
