//! The mail finder and its builder: what a mail search is asked to do.

use super::frame::{self, messages, Format, Message};
use super::walk::{last_separator, with_scratch, Scratch, Walk};
use super::{MailMatch, MailSink};
use crate::scan::Span;
use crate::search::Finder;
use std::io::{self, Read};
use std::sync::Arc;

/// Builds a [`MailFinder`].
#[derive(Clone, Debug)]
pub struct MailFinderBuilder {
    pub(super) cfg: Config,
}

#[derive(Clone, Debug)]
pub(super) struct Config {
    pub(super) headers: bool,
    pub(super) html: bool,
    pub(super) max_part: usize,
    pub(super) qp_repair: bool,
    pub(super) field_cache: bool,
    pub(super) metadata: bool,
    /// Give matches in `text/html` parts their [`super::HtmlLink`].
    pub(super) html_context: bool,
    /// Lower-case names of the fields [`super::Metadata::headers`] holds.
    pub(super) header_fields: Vec<String>,
}

impl Default for MailFinderBuilder {
    fn default() -> MailFinderBuilder {
        MailFinderBuilder {
            cfg: Config {
                headers: true,
                html: true,
                max_part: 16 << 20,
                qp_repair: false,
                field_cache: true,
                metadata: false,
                html_context: false,
                header_fields: Vec::new(),
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

    /// The longest body part that is decoded; a longer one is scanned raw,
    /// so memory stays bounded by this length per search. By default,
    /// 16 MiB.
    pub fn max_part_len(&mut self, len: usize) -> &mut MailFinderBuilder {
        self.cfg.max_part = len;
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
    /// search. By default, it is not.
    pub fn html_context(&mut self, yes: bool) -> &mut MailFinderBuilder {
        self.cfg.html_context = yes;
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

/// Finds URLs message by message; see the [module docs](crate::mail). Reusable
/// and cheap to clone.
#[derive(Clone, Debug)]
pub struct MailFinder {
    pub(super) finder: Finder,
    pub(super) cfg: Arc<Config>,
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

    /// Searches a reader as [`MailFinder::find`] searches a slice, with
    /// bounded memory for an mbox: messages are read in chunks of about
    /// 1 MiB, cut at separator lines, and searched as each chunk is
    /// complete; [`MailMatch::offset`] and [`MailMatch::message`] count
    /// from the start of the reader. A message longer than
    /// [`MailFinderBuilder::max_part_len`] is searched in pieces (its
    /// later pieces without its header). Any other format is read whole:
    /// it is one message.
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
        let chunk = 1 << 20;
        // A read error ends the input there: what was read before it is
        // searched, then the error is returned.
        let mut failed = None;
        loop {
            let read = if format == Format::Mbox {
                (&mut rdr).take(chunk as u64).read_to_end(&mut buf)
            } else {
                rdr.read_to_end(&mut buf).map(|_| 0)
            };
            let eof = match read {
                Ok(n) => format != Format::Mbox || n == 0,
                Err(e) => {
                    failed = Some(e);
                    true
                }
            };
            let cut = if eof {
                buf.len()
            } else {
                match last_separator(&buf) {
                    Some(at) if at > 0 => at,
                    _ if buf.len() > self.cfg.max_part.max(chunk) => buf.len(),
                    _ => continue,
                }
            };
            let hay = &buf[..cut];
            let Some(count) = self.search_all(
                hay,
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
            if eof {
                return match failed {
                    Some(e) => Err(e.into()),
                    None => Ok(()),
                };
            }
        }
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
