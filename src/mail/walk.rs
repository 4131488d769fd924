//! The walk of one message: its header, its MIME parts (multipart
//! nested up to a depth), each part decoded layer by layer and searched,
//! the matches mapped back to the bytes as stored.

use super::config::MailFinder;
use super::decode;
use super::encoded_word;
use super::field_cache;
use super::frame::{is_separator, Message};
use super::header::{self, Field, Mime, TransferEncoding};
use super::html;
use super::lines;
use super::map::{Layers, Map};
use super::meta::{Picked, Slot};
use super::repair::repair_iter;
use super::{Encoding, Location, MailMatch, MailSink};
use crate::parse::Reject;
use crate::scan::Span;
use crate::search::Match;
use std::borrow::Cow;
use std::cell::RefCell;

/// The scratch buffers of this thread's searches: a folder of small
/// messages would otherwise grow new ones for each file (allocation and
/// `realloc` copies were about 5% of `-j1` on the SpamAssassin folder).
/// A search that starts inside a sink's callback on the same thread gets
/// buffers of its own.
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    thread_local! {
        static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    }
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            let out = f(&mut scratch);
            scratch.trim();
            out
        }
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Buffers reused across the parts of a search.
#[derive(Default)]
pub(super) struct Scratch {
    /// Header text between skipped fields.
    pub(super) runs: Vec<Span>,
    /// Where the fields that are scanned start in the header block, and
    /// in the run being scanned.
    pub(super) starts: Vec<usize>,
    pub(super) in_run: Vec<usize>,
    /// The matches of header fields met before.
    pub(super) seen: field_cache::FieldCache,
    /// The fields of the header being read.
    pub(super) fields: Vec<Field>,
    /// The text after its transfer encoding (quoted-printable or
    /// base64) is undone, and its map to the bytes before.
    pub(super) transfer: Vec<u8>,
    pub(super) transfer_map: Map,
    /// Base64's first step: the encoded characters without line breaks.
    pub(super) base64_chars: Vec<u8>,
    pub(super) base64_chars_map: Map,
    /// The content layer: `format=flowed` lines joined, or HTML
    /// character references decoded.
    pub(super) content: Vec<u8>,
    pub(super) content_map: Map,
    /// A header run with its encoded words decoded, and its map.
    pub(super) words: Vec<u8>,
    pub(super) words_map: Map,
}

impl Scratch {
    /// Buffers kept between searches are at most this big (bytes); a
    /// bigger one (a long decoded part) is given back, so that what a
    /// thread keeps stays small whatever it searched.
    pub(super) const KEEP: usize = 1 << 20;

    /// Drops the buffers that grew past [`Scratch::KEEP`].
    pub(super) fn trim(&mut self) {
        let big = |bytes: usize| bytes > Scratch::KEEP;
        if big(self.runs.capacity() * std::mem::size_of::<Span>())
            || big(self.fields.capacity() * std::mem::size_of::<Field>())
            || big(self.transfer.capacity())
            || big(self.base64_chars.capacity())
            || big(self.content.capacity())
            || big(self.words.capacity())
            || big(self.words_map.bytes())
            || big(self.transfer_map.bytes())
            || big(self.base64_chars_map.bytes())
            || big(self.content_map.bytes())
        {
            *self = Scratch::default();
        }
    }
}

/// Deepest multipart nesting that is walked; deeper parts are scanned raw.
pub(super) const MAX_DEPTH: usize = 32;

pub(super) struct Walk<'w, 'h, S> {
    pub(super) mf: &'w MailFinder,
    /// The message's `Message-ID`, read with its header.
    pub(super) id: Option<&'h [u8]>,
    /// The message's metadata, noted with its header when asked for.
    pub(super) meta: Slot<'w>,
    /// Absolute offset of `hay[0]`.
    pub(super) origin: u64,
    pub(super) hay: &'h [u8],
    pub(super) msg: &'w Message<'h>,
    pub(super) part: usize,
    pub(super) scratch: &'w mut Scratch,
    pub(super) sink: &'w mut S,
}

impl<'w, 'h, S: MailSink> Walk<'w, 'h, S> {
    /// Scans one entity (a message or a body part) at `span`: its header,
    /// then its body by its media type. `digest`: a missing type means
    /// `message/rfc822` (RFC 2046 §5.1.5).
    pub(super) fn entity(
        &mut self,
        span: Span,
        depth: usize,
        message: bool,
        digest: bool,
    ) -> Result<bool, S::Error> {
        let hay = self.hay;
        // One pass finds where the header ends and its fields.
        let mut fields = std::mem::take(&mut self.scratch.fields);
        fields.clear();
        let (h, b) = header::split_fields(
            &hay[span.start..span.end],
            message,
            Some(&mut fields),
        );
        self.scratch.fields = fields;
        let shift = |s: Span| Span {
            start: span.start + s.start,
            end: span.start + s.end,
        };
        self.split_entity(shift(h), shift(b), depth, digest)
    }

    /// Scans an entity split into its header block `h` and its `body`
    /// (in the slice), the header's fields (relative to `h`) in
    /// `scratch.fields`; see [`Walk::entity`].
    pub(super) fn split_entity(
        &mut self,
        h: Span,
        body: Span,
        depth: usize,
        digest: bool,
    ) -> Result<bool, S::Error> {
        let hay = self.hay;
        let part = self.part;
        self.part += 1;
        let fields = std::mem::take(&mut self.scratch.fields);
        let block = &hay[h.start..h.end];
        let mime = self.headers(h.start, block, &fields, part, depth == 0);
        self.scratch.fields = fields;
        let Some(mime) = mime? else {
            return Ok(false);
        };
        if depth >= MAX_DEPTH && nests(&mime, digest) {
            self.sink.limit(self.origin + h.start as u64, super::TOO_DEEP);
        }
        if depth < MAX_DEPTH {
            if mime.is(b"multipart/") {
                if let Some(boundary) = mime.boundary {
                    let parts =
                        split_multipart(&hay[body.start..body.end], boundary);
                    if let (Some(first), Some(last)) =
                        (parts.first().copied(), parts.last().copied())
                    {
                        // The preamble and the epilogue (where mailing
                        // lists add their footers) are scanned as they
                        // are, so that nothing a raw scan finds is lost.
                        let plain = Mime::default();
                        let preamble = Span {
                            start: body.start,
                            end: body.start + first.start,
                        };
                        if !self.leaf(preamble, &plain, part)? {
                            return Ok(false);
                        }
                        let digest = mime.is(b"multipart/digest");
                        for p in parts {
                            let p = Span {
                                start: body.start + p.start,
                                end: body.start + p.end,
                            };
                            if !self.entity(p, depth + 1, false, digest)? {
                                return Ok(false);
                            }
                        }
                        let epilogue = Span {
                            start: body.start + last.end,
                            end: body.end,
                        };
                        return self.leaf(epilogue, &plain, part);
                    }
                }
            } else if mime.is(b"message/rfc822")
                || mime.is(b"message/news")
                || mime.is(b"message/global")
                || (digest && mime.content_type.is_empty())
            {
                return self.entity(body, depth + 1, true, false);
            }
        }
        self.leaf(body, &mime, part)
    }

    /// Scans the fields of a header block that starts at `at`, message
    /// identifiers and the other skipped fields left out (see
    /// `header::is_skipped_field`), and reads its MIME fields on the way; `None`
    /// when the sink stopped.
    ///
    /// Folded fields are scanned as they are, not unfolded: a fold is a
    /// line break before a blank (RFC 5322 §2.2.3), and a URL ends at the
    /// blank whether the line break is there or not, while inside `<…>`
    /// the scanner removes the whitespace. Runs of fields between
    /// skipped fields are scanned in place, with no copy.
    pub(super) fn headers(
        &mut self,
        at: usize,
        block: &'h [u8],
        fields: &[Field],
        part: usize,
        top: bool,
    ) -> Result<Option<Mime<'h>>, S::Error> {
        let mut mime = Mime::default();
        let mut runs = std::mem::take(&mut self.scratch.runs);
        runs.clear();
        let mut starts = std::mem::take(&mut self.scratch.starts);
        starts.clear();
        let mut run = 0;
        let mf: &'w MailFinder = self.mf;
        let note = top && mf.cfg.metadata && matches!(self.meta, Slot::Off);
        let mut picked = Picked::default();
        for f in fields {
            let name = &block[f.name.start..f.name.end];
            let value = &block[f.value.start..f.value.end];
            if note {
                picked.note(name, f.value, &mf.cfg.header_fields);
            }
            // `Message-ID` is a skipped field, the MIME fields are not:
            // each is looked for on its side only.
            if header::is_skipped_field(name) {
                if top
                    && self.id.is_none()
                    && name.eq_ignore_ascii_case(b"message-id")
                {
                    self.id =
                        Some(value.trim_ascii()).filter(|v| !v.is_empty());
                }
                runs.push(Span { start: run, end: f.name.start });
                run = f.value.end;
            } else {
                mime.field(name, value);
                starts.push(f.name.start);
            }
        }
        runs.push(Span { start: run, end: block.len() });
        if note {
            let wanted = &mf.cfg.header_fields;
            self.meta = Slot::Noted { block, picked, wanted };
        }
        let mut go_on = true;
        if self.mf.cfg.headers {
            let ctx = Context {
                part,
                location: Location::Header,
                encoding: Encoding::Identity,
                base: 0,
                origin: self.origin,
                lines: self.mf.cfg.lines,
            };
            let layers = Layers::default();
            // Where encoded words may start (`=?`), searched once over the
            // block as the runs need it: a search per run cost more in
            // calls than in bytes (most runs are a few fields long).
            let mut words = encoded_word::word_starts(block).peekable();
            let mut in_run = std::mem::take(&mut self.scratch.in_run);
            let mut next = starts.iter().peekable();
            for r in &runs {
                let text = &self.hay[at + r.start..at + r.end];
                // The fields of the run, where they start in it.
                in_run.clear();
                while let Some(&&s) = next.peek() {
                    if s >= r.end {
                        break;
                    }
                    in_run.push(s.saturating_sub(r.start));
                    next.next();
                }
                // Blanks and line breaks alone hold no URL: half the runs
                // of a spam header are the line break between two
                // `Received` fields.
                if text.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let ctx = Context { base: at + r.start, ..ctx };
                let meta = &mut self.meta;
                while words.next_if(|&w| w < r.start).is_some() {}
                let word = words.peek().is_some_and(|&w| w < r.end);
                go_on = if word && encoded_word::has_word_with_colon(text) {
                    // RFC 2047: a URL in an encoded word is found in its
                    // decoded text (and points at the word).
                    let sc = &mut *self.scratch;
                    sc.words.clear();
                    sc.words_map.clear();
                    encoded_word::decode_mapped(
                        text,
                        &mut sc.words,
                        &mut sc.words_map,
                    );
                    let layers = Layers { maps: vec![&sc.words_map] };
                    emit(
                        self.mf, self.hay, self.msg, self.id, meta, &sc.words,
                        &layers, &ctx, false, self.sink,
                    )?
                } else if self.mf.cfg.field_cache && !self.mf.cfg.rejects {
                    let mut it = field_cache::matches(
                        &self.mf.finder,
                        &mut self.scratch.seen,
                        text,
                        &in_run,
                    );
                    let found = it.by_ref().map(|m| (m, false, None));
                    let go_on = emit_all(
                        self.hay, self.msg, self.id, meta, text, &layers,
                        &ctx, found, self.sink,
                    )?;
                    rejected(self.sink, it.take_rejected());
                    go_on
                } else {
                    emit(
                        self.mf, self.hay, self.msg, self.id, meta, text,
                        &layers, &ctx, false, self.sink,
                    )?
                };
                if !go_on {
                    break;
                }
            }
            self.scratch.in_run = in_run;
        }
        self.scratch.runs = runs;
        self.scratch.starts = starts;
        Ok(go_on.then_some(mime))
    }

    /// Scans a body that is not multipart.
    pub(super) fn leaf(
        &mut self,
        body: Span,
        mime: &Mime<'_>,
        part: usize,
    ) -> Result<bool, S::Error> {
        let hay = self.hay;
        let raw = &hay[body.start..body.end];
        let cfg = &self.mf.cfg;
        let text_type = mime.is(b"text/");
        let encoding = mime.encoding.encoding();
        if encoding == Encoding::Base64 {
            // Text after the last base64 line (a mailing list's footer
            // added to a base64 part) is scanned as it is.
            let cut = decode::base64_end(raw);
            if cut < raw.len() {
                let tail = Span { start: body.start + cut, end: body.end };
                let plain =
                    Mime { encoding: TransferEncoding::Identity, ..*mime };
                let head = Span { start: body.start, end: body.start + cut };
                return Ok(self.leaf(head, mime, part)?
                    && self.leaf(tail, &plain, part)?);
            }
        }
        if encoding != Encoding::Identity && !text_type {
            // Images, attachments: skipped.
            return Ok(true);
        }
        let sc = &mut *self.scratch;
        for (buf, map) in [
            (&mut sc.transfer, &mut sc.transfer_map),
            (&mut sc.base64_chars, &mut sc.base64_chars_map),
            (&mut sc.content, &mut sc.content_map),
        ] {
            buf.clear();
            map.clear();
        }
        // Each step reads `text` and writes the next free buffer.
        let mut layers: Vec<&Map> = Vec::new();
        let mut text: &[u8] = raw;
        match encoding {
            Encoding::QuotedPrintable => {
                decode::quoted_printable(
                    raw,
                    &mut sc.transfer,
                    &mut sc.transfer_map,
                );
                text = &sc.transfer;
                layers.push(&sc.transfer_map);
            }
            Encoding::Base64 => {
                decode::base64(
                    raw,
                    &mut sc.base64_chars,
                    &mut sc.base64_chars_map,
                    &mut sc.transfer,
                    &mut sc.transfer_map,
                );
                text = &sc.transfer;
                layers.push(&sc.base64_chars_map);
                layers.push(&sc.transfer_map);
            }
            _ => {}
        }
        let decoding = encoding != Encoding::Identity;
        // The HTML context reads the part before its references are
        // decoded (the tokenizer decodes them), through these maps.
        let (html_src, html_maps) = (text, layers.len());
        if decoding && mime.flowed && mime.is(b"text/plain") {
            decode::unflow(
                text,
                mime.delsp,
                &mut sc.content,
                &mut sc.content_map,
            );
            text = &sc.content;
            layers.push(&sc.content_map);
        } else if cfg.html
            && mime.is(b"text/html")
            && memchr::memchr(b'&', text).is_some()
        {
            decode::html_references(
                text,
                &mut sc.content,
                &mut sc.content_map,
            );
            text = &sc.content;
            layers.push(&sc.content_map);
        }
        let repair =
            cfg.qp_repair && encoding == Encoding::Identity && text_type;
        let ctx = Context {
            part,
            location: Location::Body,
            encoding,
            base: body.start,
            origin: self.origin,
            lines: cfg.lines,
        };
        let layers = Layers { maps: layers };
        if cfg.html_context && mime.is(b"text/html") {
            let maps = layers.maps.get(..html_maps).unwrap_or_default();
            let html_layers = Layers { maps: maps.to_vec() };
            return html::with_index(|index| {
                index.build(html_src, &html_layers, body.start);
                let mut sink = html::Linked { index, inner: &mut *self.sink };
                emit(
                    self.mf,
                    hay,
                    self.msg,
                    self.id,
                    &mut self.meta,
                    text,
                    &layers,
                    &ctx,
                    repair,
                    &mut sink,
                )
            });
        }
        emit(
            self.mf,
            hay,
            self.msg,
            self.id,
            &mut self.meta,
            text,
            &layers,
            &ctx,
            repair,
            self.sink,
        )
    }
}

/// Whether an entity of this type holds entities the walk would follow:
/// a multipart with its boundary, or a message (RFC 2046 §5.1, §5.2; in a
/// digest, a part without a type is a message, §5.1.5).
pub(super) fn nests(mime: &Mime<'_>, digest: bool) -> bool {
    (mime.is(b"multipart/") && mime.boundary.is_some())
        || mime.is(b"message/rfc822")
        || mime.is(b"message/news")
        || mime.is(b"message/global")
        || (digest && mime.content_type.is_empty())
}

/// Where the text being scanned sits.
#[derive(Clone, Copy)]
pub(super) struct Context {
    pub(super) part: usize,
    pub(super) location: Location,
    pub(super) encoding: Encoding,
    /// Offset in the slice of position 0 of the first layer's source.
    pub(super) base: usize,
    /// Absolute offset of the slice.
    pub(super) origin: u64,
    /// Lines before and after for [`MailMatch::lines`], when asked for.
    pub(super) lines: Option<(usize, usize)>,
}

/// The closure that fills the held [`MailMatch`] (`$held`) with a match
/// of `$text` and hands it to `$sink`, made once for each use: one
/// closure called from two places stayed out of line, its call 25
/// instructions a URL of a dense text (issue 33).
macro_rules! one_match {
    ($t:lifetime, $hay:ident, $msg:ident, $id:ident, $meta:ident,
     $text:ident, $layers:ident, $ctx:ident, $held:ident, $sink:ident) => {
        |m: Match<$t>, (repaired, reject): (bool, Option<Reject>), lines| {
            let decoded_span = m.span;
            let (s, e) = $layers.range(decoded_span.start, decoded_span.end);
            let span = Span { start: $ctx.base + s, end: $ctx.base + e };
            // With no layer, `text` is `hay` from `ctx.base` on, and a
            // match is its original bytes: only decoded text needs the
            // compare.
            let original = decoded_span.start..decoded_span.end;
            let decoded = repaired
                || (!$layers.maps.is_empty()
                    && $hay.get(span.start..span.end) != $text.get(original));
            let encoding =
                if repaired { Encoding::QpRepair } else { $ctx.encoding };
            let mm = match &mut $held {
                Some(mm) => {
                    // Moved in, then its span set: not built anew
                    // first.
                    mm.m = m;
                    mm.m.span = span;
                    mm.lines = lines;
                    mm.encoding = encoding;
                    mm.decoded = decoded;
                    mm.reject = reject;
                    mm
                }
                None => $held.insert(MailMatch {
                    m: Match { span, ..m },
                    origin: $ctx.origin,
                    message: $msg.index,
                    message_span: $msg.span,
                    message_id: $id.map(Cow::Borrowed),
                    meta: $meta.get(),
                    html: None,
                    lines,
                    part: $ctx.part,
                    location: $ctx.location,
                    encoding,
                    decoded,
                    reject,
                }),
            };
            $sink.matched(mm)
        }
    };
}

/// Scans `text`, maps each match back through `layers`, and pushes it.
#[allow(clippy::too_many_arguments)]
pub(super) fn emit<S: MailSink>(
    mf: &MailFinder,
    hay: &[u8],
    msg: &Message<'_>,
    id: Option<&[u8]>,
    meta: &mut Slot<'_>,
    text: &[u8],
    layers: &Layers<'_>,
    ctx: &Context,
    repair: bool,
    sink: &mut S,
) -> Result<bool, S::Error> {
    if repair {
        let found = repair_iter(&mf.finder, text).map(|r| {
            let repaired = r.is_repaired();
            (r.into_match(), repaired, None)
        });
        emit_all(hay, msg, id, meta, text, layers, ctx, found, sink)
    } else if mf.cfg.rejects {
        let found =
            mf.finder.candidates(text).map(|c| match c.into_result() {
                Ok(m) => (m, false, None),
                Err((m, reject)) => (m, false, Some(reject)),
            });
        emit_all(hay, msg, id, meta, text, layers, ctx, found, sink)
    } else if ctx.lines.is_none() || layers.maps.is_empty() {
        // No lines of its own to group the matches by (see `emit_all`):
        // the matches pushed by the scanner.
        emit_pushed(mf, hay, msg, id, meta, text, layers, ctx, sink)
    } else {
        // The rejected candidates passed over inside the scanner's step,
        // counted: a rejected candidate is a candidate, in mail as in
        // raw text (`--json`'s `rejected`).
        let mut it = mf.finder.find_iter(text);
        let found = it.by_ref().map(|m| (m, false, None));
        let go_on =
            emit_all(hay, msg, id, meta, text, layers, ctx, found, sink)?;
        rejected(sink, it.take_rejected());
        Ok(go_on)
    }
}

/// [`emit`] of the accepted URLs of a text with no lines of its own to
/// group them by: `emit_all` over [`crate::Finder::find_iter`], each
/// match handed over from inside the scanner's step
/// ([`crate::search::Finder::each_url`]), not returned through it and
/// the iterator (issue 33). The rejected candidates passed over are
/// counted, as there.
#[allow(clippy::too_many_arguments)]
fn emit_pushed<'t, S: MailSink>(
    mf: &MailFinder,
    hay: &[u8],
    msg: &Message<'_>,
    id: Option<&[u8]>,
    meta: &mut Slot<'_>,
    text: &'t [u8],
    layers: &Layers<'_>,
    ctx: &Context,
    sink: &mut S,
) -> Result<bool, S::Error> {
    debug_assert!(
        !layers.maps.is_empty()
            || hay.get(ctx.base..ctx.base + text.len()) == Some(text)
    );
    let (out, n) = if sink.reads_urls_alone() {
        // The sink reads a URL's match and offsets alone: no record
        // filled for it.
        pushed(mf, text, |mut m| {
            let (s, e) = layers.range(m.span.start, m.span.end);
            m.span = Span { start: ctx.base + s, end: ctx.base + e };
            sink.matched_url(&m, ctx.origin)
        })
    } else {
        // As in `emit_all`: one record for the text, each match's fields
        // set in it.
        let mut held: Option<MailMatch<'_>> = None;
        let mut one =
            one_match!('t, hay, msg, id, meta, text, layers, ctx, held, sink);
        pushed(mf, text, |m| one(m, (false, None), None))
    };
    let go_on = out?;
    rejected(sink, n);
    Ok(go_on)
}

/// Hands each accepted URL of `text` to `f` from inside the scanner's
/// step ([`crate::search::Finder::each_url`]) until `f` stops or fails:
/// `f`'s last answer and the rejected candidates passed over.
#[inline(always)]
fn pushed<'t, E>(
    mf: &MailFinder,
    text: &'t [u8],
    mut f: impl FnMut(Match<'t>) -> Result<bool, E>,
) -> (Result<bool, E>, u64) {
    let mut out = Ok(true);
    let n = mf.finder.each_url(text, |m| match f(m) {
        Ok(true) => true,
        stop => {
            out = stop;
            false
        }
    });
    (out, n)
}

/// Gives `sink` the `n` rejected candidates counted in a text, if any.
#[inline(always)]
pub(super) fn rejected<S: MailSink>(sink: &mut S, n: u64) {
    if n > 0 {
        sink.rejected(n);
    }
}

/// Maps each match `found` in `text` back through `layers`, and pushes
/// it; the flag says whether quoted-printable repair made it, the reject
/// why the validator rejected it (with [`super::MailFinderBuilder::rejects`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn emit_all<'t, S: MailSink>(
    hay: &[u8],
    msg: &Message<'_>,
    id: Option<&[u8]>,
    meta: &mut Slot<'_>,
    text: &[u8],
    layers: &Layers<'_>,
    ctx: &Context,
    found: impl Iterator<Item = (Match<'t>, bool, Option<Reject>)>,
    sink: &mut S,
) -> Result<bool, S::Error> {
    debug_assert!(
        !layers.maps.is_empty()
            || hay.get(ctx.base..ctx.base + text.len()) == Some(text)
    );
    // One match record for the text, built at its first match (which
    // reads the message's metadata, when asked for) and given each next
    // match's own fields: what the message and the text share is not
    // built, its `Arc`s cloned and dropped again for every URL (61
    // instructions a URL of a dense text, issue 33).
    let mut held: Option<MailMatch<'_>> = None;
    // A closure made twice, one for each use below (`one_match!`).
    // Text as stored needs no lines of its own: the stored ones are it.
    let liner = ctx.lines.filter(|_| !layers.maps.is_empty());
    let found = found.map(|(m, repaired, reject)| (m, (repaired, reject)));
    let Some(context) = liner else {
        let mut one = one_match!(
            't, hay, msg, id, meta, text, layers, ctx, held, sink
        );
        for (m, extra) in found {
            if !one(m, extra, None)? {
                return Ok(false);
            }
        }
        return Ok(true);
    };
    lines::grouped(
        text,
        context,
        ctx.origin + ctx.base as u64,
        layers,
        found,
        one_match!('t, hay, msg, id, meta, text, layers, ctx, held, sink),
    )
}

/// The start of the last separator line of `buf` whose line is complete.
pub(super) fn last_separator(buf: &[u8]) -> Option<usize> {
    memchr::memmem::rfind_iter(buf, b"\nFrom ").map(|k| k + 1).find(|&at| {
        memchr::memchr(b'\n', &buf[at..]).is_some() && is_separator(buf, at)
    })
}

/// The body parts of a multipart body (RFC 2046 §5.1.1): each starts after
/// a delimiter line `--boundary` and ends before the line break that
/// precedes the next delimiter; the close delimiter `--boundary--` ends
/// the list. Preamble and epilogue are not parts.
pub(super) fn split_multipart(body: &[u8], boundary: &[u8]) -> Vec<Span> {
    let mut needle = Vec::with_capacity(boundary.len() + 2);
    needle.extend_from_slice(b"--");
    needle.extend_from_slice(boundary);
    let mut parts = Vec::new();
    let mut open: Option<usize> = None;
    for k in memchr::memmem::find_iter(body, &needle) {
        if k > 0 && body[k - 1] != b'\n' {
            continue;
        }
        let after = &body[k + needle.len()..];
        let close = after.starts_with(b"--");
        let line_end = memchr::memchr(b'\n', after)
            .map_or(body.len(), |i| k + needle.len() + i + 1);
        let rest = &body[k + needle.len()..line_end];
        if !close && !rest.iter().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        if let Some(start) = open.take() {
            let mut end = k.saturating_sub(1).max(start);
            if end > start && body[end - 1] == b'\r' {
                end -= 1;
            }
            parts.push(Span { start, end });
        }
        if close {
            return parts;
        }
        open = Some(line_end);
    }
    // No close delimiter: the last part runs to the end.
    if let Some(start) = open {
        parts.push(Span { start, end: body.len() });
    }
    parts
}
