//! The header of an entity of a streamed message, gathered line by line
//! and read by [`Walk::headers`] in windows of whole fields (RFC 5322
//! §2.2: a field is its line and the continuation lines after it); a
//! field too long to hold is searched as its bytes come.

use super::super::frame::Message;
use super::super::header::{self, Mime, TransferEncoding};
use super::super::leaf::Spec;
use super::super::meta::Slot;
use super::super::walk::Walk;
use super::super::{Location, MailMatch, MailSink, Metadata};
use super::{StreamMsg, HEADER_WINDOW};
use crate::scan::Span;
use std::borrow::Cow;
use std::sync::Arc;

/// A `Content-Type` and `Content-Transfer-Encoding`, owned.
#[derive(Debug, Default)]
pub(super) struct OwnedMime {
    content_type: Vec<u8>,
    boundary: Option<Vec<u8>>,
    flowed: bool,
    delsp: bool,
    encoding: TransferEncoding,
}

impl OwnedMime {
    pub(super) fn mime(&self) -> Mime<'_> {
        Mime {
            content_type: &self.content_type,
            boundary: self.boundary.as_deref(),
            flowed: self.flowed,
            delsp: self.delsp,
            encoding: self.encoding,
        }
    }

    /// Takes what a window of the header said (a later field wins, as
    /// in one header read whole).
    fn merge(&mut self, m: &Mime<'_>) {
        if !m.content_type.is_empty() {
            self.content_type.clear();
            self.content_type.extend_from_slice(m.content_type);
            self.boundary = m.boundary.map(<[u8]>::to_vec);
            self.flowed = m.flowed;
            self.delsp = m.delsp;
        }
        if m.encoding != TransferEncoding::Identity {
            self.encoding = m.encoding;
        }
    }
}

/// The header of an entity, being gathered.
#[derive(Debug, Default)]
pub(super) struct Head {
    pub(super) buf: Vec<u8>,
    /// Absolute offset of `buf[0]`.
    pub(super) at: u64,
    /// A message (envelope lines skipped), not a body part.
    pub(super) message: bool,
    /// Still among the leading envelope lines.
    pub(super) envelope: bool,
    /// In a `multipart/digest`: no type means `message/rfc822`.
    pub(super) digest: bool,
    pub(super) depth: usize,
    /// Absolute offset of the header's first byte.
    pub(super) start: u64,
    pub(super) part: usize,
    pub(super) fields_seen: bool,
    /// No window of this header was read yet.
    pub(super) first_window: bool,
    pub(super) mime: OwnedMime,
    /// The field being read is too long to hold: its bytes are searched
    /// as they come.
    pub(super) raw: bool,
    /// When that field is one metadata is read from: its first
    /// [`LONG_KEPT`] bytes, read when it ends (issue 33.8: the fields
    /// after it were lost).
    pub(super) long: Option<Vec<u8>>,
}

/// What is kept of a metadata field too long to hold.
pub(super) const LONG_KEPT: usize = 16 * 1024;

impl StreamMsg<'_> {
    /// Reads one line of a header; `None` when more bytes are needed.
    pub(super) fn head_line<S: MailSink>(
        &mut self,
        eof: bool,
        sink: &mut S,
    ) -> Result<Option<bool>, S::Error> {
        if !self.line_start {
            // The rest of a line too long to hold: a field's, searched
            // as it is.
            let (end, whole) =
                match memchr::memchr(b'\n', &self.inb[self.pos..]) {
                    Some(k) => (self.pos + k + 1, true),
                    None => (self.inb.len(), false),
                };
            let at = self.pos;
            self.keep_long(at, end);
            self.pos = end;
            self.fed = end;
            self.line_start = whole;
            return self.feed_raw(at, end, sink).map(Some);
        }
        let Some((end, whole)) = self.line_end(eof) else {
            return Ok(None);
        };
        let line = &self.inb[self.pos..end];
        if whole && line.starts_with(b"--") {
            if let Some((i, close)) = self.delimiter(line) {
                let at = self.pos;
                return self.delimiter_met(i, close, at, end, sink).map(Some);
            }
        }
        let h = &self.head;
        if h.envelope
            && (line.starts_with(b"From ") || line.starts_with(b">From "))
        {
            return self.take_head_line(end, whole, sink).map(Some);
        }
        self.head.envelope = false;
        let lead = line[0];
        let blank =
            lead == b'\n' || (lead == b'\r' && line.get(1) == Some(&b'\n'));
        if blank {
            self.head.buf.extend_from_slice(line);
            return self.head_done(end, sink).map(Some);
        }
        let continuation =
            matches!(lead, b' ' | b'\t') && self.head.fields_seen;
        if continuation {
            if self.head.raw {
                let at = self.pos;
                self.keep_long(at, end);
                self.pos = end;
                self.fed = end;
                self.line_start = whole;
                return self.feed_raw(at, end, sink).map(Some);
            }
            if whole && self.head.buf.len() + line.len() <= HEADER_WINDOW {
                return self.take_head_line(end, whole, sink).map(Some);
            }
            // A field too long to hold: what is gathered is read, the
            // rest of the field searched as it comes.
            if !self.head_window(sink)? {
                return Ok(Some(false));
            }
            return self.go_raw(end, whole, sink).map(Some);
        }
        if let Some(colon) = header::field_colon(line) {
            let long = line.len();
            if self.head.raw {
                self.head.raw = false;
                self.long_done();
                if !self.raw.finish(self.mf, &self.info, sink)? {
                    return Ok(Some(false));
                }
            }
            if self.head.buf.len() + long > HEADER_WINDOW
                && !self.head_window(sink)?
            {
                return Ok(Some(false));
            }
            self.head.fields_seen = true;
            if whole && long <= HEADER_WINDOW {
                return self.take_head_line(end, whole, sink).map(Some);
            }
            let line = &self.inb[self.pos..end];
            let name = line.get(..colon).unwrap_or_default().trim_ascii_end();
            if self.head.depth == 0 && self.wants_field(name) {
                self.head.long = Some(Vec::new());
                self.keep_long(self.pos, end);
            }
            return self.go_raw(end, whole, sink).map(Some);
        }
        // Neither a field nor a continuation: the body starts here.
        let at = self.pos;
        self.head_done(at, sink).map(Some)
    }

    /// Adds the line up to `end` to the header.
    fn take_head_line<S: MailSink>(
        &mut self,
        end: usize,
        whole: bool,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        if !whole || self.head.buf.len() + (end - self.pos) > HEADER_WINDOW {
            // An envelope line too long to hold is dropped from the
            // header but searched.
            let at = self.pos;
            if !self.raw.is_open() {
                self.raw.start(
                    Spec::plain(self.head.part, Location::Header),
                    self.abs(at),
                );
            }
            self.pos = end;
            self.fed = end;
            self.line_start = whole;
            self.head.raw = true;
            return self.feed_raw(at, end, sink);
        }
        let line = &self.inb[self.pos..end];
        if self.head.buf.is_empty() {
            self.head.at = self.abs(self.pos);
        }
        self.head.buf.extend_from_slice(line);
        self.pos = end;
        self.fed = end;
        Ok(true)
    }

    /// Starts searching the field at `pos` as it comes (it is too long to
    /// hold), with its line up to `end`.
    fn go_raw<S: MailSink>(
        &mut self,
        end: usize,
        whole: bool,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        self.head.raw = true;
        self.raw.start(
            Spec::plain(self.head.part, Location::Header),
            self.abs(self.pos),
        );
        let at = self.pos;
        self.pos = end;
        self.fed = end;
        self.line_start = whole;
        self.feed_raw(at, end, sink)
    }

    /// Whether metadata is read from the field `name` of a message's
    /// header.
    fn wants_field(&self, name: &[u8]) -> bool {
        let cfg = &self.mf.cfg;
        cfg.metadata
            && (name.eq_ignore_ascii_case(b"from")
                || name.eq_ignore_ascii_case(b"subject")
                || name.eq_ignore_ascii_case(b"date")
                || cfg
                    .header_fields
                    .iter()
                    .any(|w| name.eq_ignore_ascii_case(w.as_bytes())))
    }

    /// Keeps the bytes `from..to` of a long metadata field, up to
    /// [`LONG_KEPT`].
    fn keep_long(&mut self, from: usize, to: usize) {
        let StreamMsg { head, inb, .. } = self;
        if let Some(kept) = &mut head.long {
            let room = LONG_KEPT.saturating_sub(kept.len());
            let bytes = inb.get(from..to).unwrap_or_default();
            kept.extend_from_slice(bytes.get(..room).unwrap_or(bytes));
        }
    }

    /// The long field ended: what was kept of it is read as metadata,
    /// after the windows before it and before those after it.
    pub(super) fn long_done(&mut self) {
        let Some(kept) = self.head.long.take() else { return };
        let mut fields = Vec::new();
        let (hs, _) = header::split_fields(&kept, false, Some(&mut fields));
        let block = kept.get(hs.start..hs.end).unwrap_or_default();
        let wanted = &self.mf.cfg.header_fields;
        let meta = Metadata::read(block, &fields, wanted);
        self.merge_meta(meta);
    }

    /// Adds `later` to the message's metadata.
    fn merge_meta(&mut self, later: Metadata) -> Arc<Metadata> {
        let merged = match self.info.meta.take() {
            Some(old) => {
                let mut m = Arc::unwrap_or_clone(old);
                m.merge(&later);
                m
            }
            None => later,
        };
        let merged = Arc::new(merged);
        self.info.meta = Some(Arc::clone(&merged));
        merged
    }

    fn feed_raw<S: MailSink>(
        &mut self,
        from: usize,
        to: usize,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let at = self.abs(from);
        let StreamMsg { raw, inb, mf, info, .. } = self;
        raw.feed(mf, &inb[from..to], at, info, sink)
    }

    /// Reads the gathered header as one window of whole fields, and
    /// empties it.
    pub(super) fn head_window<S: MailSink>(
        &mut self,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let h = &mut self.head;
        if !h.fields_seen {
            // No field: nothing to read (envelope lines are no field).
            h.buf.clear();
            h.first_window = false;
            h.at = self.inb_at + self.pos as u64;
            return Ok(true);
        }
        let buf = std::mem::take(&mut h.buf);
        let envelope = h.message && h.first_window;
        let top = h.depth == 0;
        let part = h.part;
        h.first_window = false;
        let mut fields = std::mem::take(&mut self.scratch.fields);
        fields.clear();
        let (hs, _) = header::split_fields(&buf, envelope, Some(&mut fields));
        let block = &buf[hs.start..hs.end];
        // The metadata of every window so far, this one's added: each
        // window's matches and the body's carry all that was read.
        let meta = if top && self.mf.cfg.metadata {
            let wanted = &self.mf.cfg.header_fields;
            let m = Metadata::read(block, &fields, wanted);
            Slot::Read(self.merge_meta(m))
        } else {
            Slot::Off
        };
        let msg = Message::new(&buf, self.info.index, Span::default());
        let known = self.info.id.take();
        let (read, found) = {
            let mut rebase = Rebase {
                sink,
                offset: self.info.offset,
                id: known.as_deref(),
                meta: self.info.meta.as_ref(),
            };
            let mut walk = Walk {
                mf: self.mf,
                id: known.as_deref(),
                meta,
                origin: self.head.at,
                hay: &buf,
                msg: &msg,
                part,
                scratch: &mut self.scratch,
                sink: &mut rebase,
            };
            let mime = walk.headers(hs.start, block, &fields, part, top);
            let found = match (top, &known) {
                (true, None) => walk.id.map(<[u8]>::to_vec),
                _ => None,
            };
            // Read now: the type borrows what the walk borrowed.
            let read = match mime {
                Ok(Some(m)) => {
                    self.head.mime.merge(&m);
                    Ok(true)
                }
                Ok(None) => Ok(false),
                Err(e) => Err(e),
            };
            (read, found)
        };
        self.info.id = known.or(found);
        self.scratch.fields = fields;
        if !read? {
            return Ok(false);
        }
        let mut buf = buf;
        buf.clear();
        self.head.buf = buf;
        self.head.at = self.abs(self.pos);
        Ok(true)
    }
}

/// Hands on the matches of a header window with absolute offsets and
/// the message's identifier and metadata.
struct Rebase<'a, S> {
    sink: &'a mut S,
    offset: u64,
    id: Option<&'a [u8]>,
    meta: Option<&'a Arc<Metadata>>,
}

impl<S: MailSink> MailSink for Rebase<'_, S> {
    type Error = S::Error;

    fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, S::Error> {
        let mut mm = m.clone();
        let span = m.m.span;
        mm.m.span = Span {
            start: (m.origin + span.start as u64) as usize,
            end: (m.origin + span.end as u64) as usize,
        };
        mm.origin = 0;
        let offset = self.offset as usize;
        mm.message_span = Span { start: offset, end: offset };
        if mm.message_id.is_none() {
            mm.message_id = self.id.map(Cow::Borrowed);
        }
        if mm.meta.is_none() {
            mm.meta = self.meta.cloned();
        }
        self.sink.matched(&mm)
    }

    fn limit(&mut self, offset: u64, what: &'static str) {
        self.sink.limit(offset, what);
    }

    fn rejected(&mut self, n: u64) {
        self.sink.rejected(n);
    }
}
