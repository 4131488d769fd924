//! One body part of a streamed message: its text handed over in pieces,
//! undone from its transfer encoding and its content layer (RFC 3676
//! `format=flowed`, HTML references) by [`Stage`]s, searched by a
//! [`Push`], each match mapped back to the stored bytes.
//!
//! It reads a part as [`super::walk::Walk::leaf`] reads one held in
//! memory: the same decoders in the same order, text after the last
//! base64 line searched as it is, encoded parts that are not text
//! skipped. Two things it does not do: `--qp-repair` (repair works on a
//! whole part), and a base64 part's trailing text longer than
//! [`PENDING_MAX`] is decoded with the part, not searched as it is.

use super::config::MailFinder;
use super::meta::Metadata;
use super::stage::{Decoder, Stage};
use super::{decode, Encoding, Location, MailMatch, MailSink};
use crate::scan::Span;
use crate::search::push::Push;
use crate::search::Match;
use std::borrow::Cow;
use std::sync::Arc;

/// Lines after the last base64 line seen that are held back as the
/// part's plain trailing text (a mailing list's footer) at most.
pub(super) const PENDING_MAX: usize = 1 << 20;

/// What every match of a streamed message carries.
#[derive(Debug, Default)]
pub(super) struct MsgInfo {
    pub(super) index: usize,
    /// Absolute offset of the message.
    pub(super) offset: u64,
    pub(super) id: Option<Vec<u8>>,
    pub(super) meta: Option<Arc<Metadata>>,
}

/// How a part's text is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Spec {
    pub(super) part: usize,
    pub(super) location: Location,
    pub(super) encoding: Encoding,
    /// Decoded text is searched: false for an encoded part that is not
    /// text (skipped but for a base64 part's trailing text).
    pub(super) search: bool,
    pub(super) content: Option<Decoder>,
    /// The content layer of the trailing text of a base64 part (HTML
    /// references; `format=flowed` is undone in decoded text only).
    pub(super) tail_content: Option<Decoder>,
}

impl Spec {
    /// Text searched as it is.
    pub(super) fn plain(part: usize, location: Location) -> Spec {
        Spec {
            part,
            location,
            encoding: Encoding::Identity,
            search: true,
            content: None,
            tail_content: None,
        }
    }
}

/// A part being read; reused from part to part.
#[derive(Debug, Default)]
pub(super) struct Leaf {
    spec: Option<Spec>,
    transfer: Option<Stage>,
    content: Option<Stage>,
    push: Push,
    /// Absolute offset of the first byte of text when no stage decodes.
    base: u64,
    /// A base64 part's lines after its last base64 line, from `pending_at`.
    pending: Vec<u8>,
    pending_at: u64,
    /// The stored bytes a match covers, for the "decoded" test.
    src: Vec<u8>,
    /// No match will start before this absolute offset.
    need: u64,
    /// Text was handed on since the part started.
    fed: bool,
}

impl Leaf {
    /// Starts reading a part whose text starts at absolute offset `at`.
    pub(super) fn start(&mut self, spec: Spec, at: u64) {
        self.spec = Some(spec);
        self.fed = false;
        self.push.reset();
        self.pending.clear();
        (self.base, self.need, self.pending_at) = (at, at, at);
        let transfer = match spec.encoding {
            Encoding::QuotedPrintable => Some(Decoder::Qp),
            Encoding::Base64 => Some(Decoder::Base64),
            _ => None,
        };
        self.transfer =
            transfer.filter(|_| spec.search).map(|d| Stage::new(d, at, true));
        self.content = spec.content.filter(|_| spec.search).map(|d| {
            let first = self.transfer.is_none();
            Stage::new(d, if first { at } else { 0 }, first)
        });
        if self.pending.capacity() > PENDING_MAX * 2 {
            self.pending = Vec::new();
        }
    }

    /// Whether a part is being read.
    pub(super) fn is_open(&self) -> bool {
        self.spec.is_some()
    }

    /// No match will start before this absolute offset.
    pub(super) fn need(&self) -> u64 {
        self.need
    }

    /// Bytes held, for the memory tests.
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        let stages = [&self.transfer, &self.content]
            .iter()
            .map(|s| s.as_ref().map_or(0, Stage::held))
            .sum::<usize>();
        stages
            + self.push.held()
            + self.pending.capacity()
            + self.src.capacity()
    }

    /// Reads `text`, the next bytes of the part (whole lines, but for a
    /// line too long to hold), stored at absolute offset `at`.
    pub(super) fn feed<S: MailSink>(
        &mut self,
        mf: &MailFinder,
        text: &[u8],
        at: u64,
        info: &MsgInfo,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let Some(spec) = self.spec else { return Ok(true) };
        if text.is_empty() {
            return Ok(true);
        }
        self.fed = true;
        if spec.encoding != Encoding::Base64 {
            return self.pipe(mf, text, false, info, sink);
        }
        // Lines up to the last base64 line are decoded, the rest held:
        // they are the part's trailing text if no base64 line follows.
        let cut = decode::base64_end(text);
        if cut == 0 {
            if self.pending.is_empty() {
                self.pending_at = at;
            }
            self.pending.extend_from_slice(text);
            if self.pending.len() > PENDING_MAX {
                return self.pipe_pending(mf, false, info, sink);
            }
            return Ok(true);
        }
        if !self.pending.is_empty()
            && !self.pipe_pending(mf, false, info, sink)?
        {
            return Ok(false);
        }
        if !self.pipe(mf, &text[..cut], false, info, sink)? {
            return Ok(false);
        }
        self.pending.extend_from_slice(&text[cut..]);
        self.pending_at = at + cut as u64;
        Ok(true)
    }

    /// Ends the part: what the decoders and the search still hold is
    /// decided, then a base64 part's trailing text is searched as it is.
    pub(super) fn finish<S: MailSink>(
        &mut self,
        mf: &MailFinder,
        info: &MsgInfo,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let Some(spec) = self.spec else { return Ok(true) };
        if !self.fed {
            // An empty part (a multipart's empty preamble, most often).
            self.spec = None;
            return Ok(true);
        }
        if !self.pipe(mf, b"", true, info, sink)? {
            self.spec = None;
            return Ok(false);
        }
        if spec.encoding == Encoding::Base64 && !self.pending.is_empty() {
            let tail = Spec {
                encoding: Encoding::Identity,
                search: true,
                content: spec.tail_content,
                ..spec
            };
            let held = std::mem::take(&mut self.pending);
            self.start(tail, self.pending_at);
            self.pending = held;
            let go_on = self.pipe_pending(mf, true, info, sink);
            self.spec = None;
            return go_on;
        }
        self.spec = None;
        Ok(true)
    }

    /// Hands the held lines to [`Leaf::pipe`] and empties the hold.
    fn pipe_pending<S: MailSink>(
        &mut self,
        mf: &MailFinder,
        eof: bool,
        info: &MsgInfo,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let held = std::mem::take(&mut self.pending);
        let go_on = self.pipe(mf, &held, eof, info, sink);
        self.pending = held;
        self.pending.clear();
        go_on
    }

    /// Decodes `text` through the stages and searches what they settle.
    fn pipe<S: MailSink>(
        &mut self,
        mf: &MailFinder,
        text: &[u8],
        eof: bool,
        info: &MsgInfo,
        sink: &mut S,
    ) -> Result<bool, S::Error> {
        let Some(spec) = self.spec else { return Ok(true) };
        if !spec.search {
            return Ok(true);
        }
        let Leaf { transfer, content, push, base, src, .. } = self;
        if let Some(t) = transfer.as_mut() {
            t.feed(text, eof);
        }
        let decoded = transfer.as_ref().map_or(text, Stage::output);
        if let Some(c) = content.as_mut() {
            c.feed(decoded, eof);
        }
        let (transfer, content) = (&*transfer, &*content);
        let data = match (content, transfer) {
            (Some(c), _) => c.output(),
            (None, Some(t)) => t.output(),
            (None, None) => text,
        };
        let base = *base;
        // Asked once a piece: a sink that reads URLs alone is given them
        // with no record filled (issue 33).
        let alone = sink.reads_urls_alone();
        let go_on = push.push(&mf.finder, data, eof, |m, window, abs| {
            let start = abs + m.span.start as u64;
            let end = abs + m.span.end as u64;
            let mut range = Some((start, end));
            for stage in [content, transfer].into_iter().flatten() {
                range = range.and_then(|(s, e)| stage.range(s, e));
            }
            let first = transfer.as_ref().or(content.as_ref());
            let (from, to, decoded) = match (first, range) {
                (None, _) => (base + start, base + end, false),
                // Whether it was decoded is not read.
                (Some(_), Some((from, to))) if alone => (from, to, true),
                (Some(stage), Some((from, to))) => {
                    src.clear();
                    let same = stage.input(from, to, src)
                        && window.get(m.span.start..m.span.end)
                            == Some(&src[..]);
                    (from, to, !same)
                }
                // A map no longer held: never for a match the search
                // still has (the maps are dropped behind it).
                (Some(_), None) => (base + start, base + end, true),
            };
            let span = Span { start: from as usize, end: to as usize };
            if alone {
                return sink.matched_url(&Match { span, ..m.clone() }, 0);
            }
            let mm = MailMatch {
                m: Match { span, ..m.clone() },
                origin: 0,
                message: info.index,
                message_span: Span {
                    start: info.offset as usize,
                    end: info.offset as usize,
                },
                message_id: info.id.as_deref().map(Cow::Borrowed),
                meta: info.meta.clone(),
                part: spec.part,
                location: spec.location,
                encoding: spec.encoding,
                decoded,
                // The HTML link context is read from a part held whole.
                html: None,
                // Rejects are counted, not handed on (below).
                reject: None,
                // The window holds too little of the text for its lines.
                lines: None,
            };
            sink.matched(&mm)
        })?;
        let rejected = push.take_rejected();
        if rejected > 0 {
            sink.rejected(rejected);
        }
        // What the search keeps, mapped back: the stages drop the maps
        // before it.
        let mut need = push.kept_from();
        let mut stages = [&mut self.content, &mut self.transfer];
        let mut any = false;
        for stage in stages.iter_mut().filter_map(|s| s.as_mut()) {
            need = stage.forget_before(need);
            any = true;
        }
        self.need = if any { need } else { self.base + need };
        if !self.pending.is_empty() {
            self.need = self.need.min(self.pending_at);
        }
        Ok(go_on)
    }
}
