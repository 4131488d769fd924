//! The URL references of an HTML document (issue 30, `--resolve`): every
//! value of the attributes that hold one, with its byte range, and the
//! document's `<base href>`.
//!
//! [`html_refs`] tokenizes the document with `html5gum` (the HTML Living
//! Standard §13.2.5 "Tokenization") and reports, for each start tag, the
//! values of [`LinkAttribute`]: `href`, `src`, `action`, `cite`, `data`,
//! `poster`, `formaction`, `background`, `longdesc`, and each image
//! candidate's URL of `srcset` (§4.8.4.3.10 "parse a srcset attribute").
//! The attribute is reported on whatever element carries it (`<a>`,
//! `<img>`, but also an unknown `<x-card href>`): the element name comes
//! with it, for the caller to choose.
//!
//! - Names are matched as the tokenizer folds them, ASCII lower case
//!   (§13.2.5.8, §13.2.5.33): `<A HREF=x>` is `a`/`href`.
//! - Values are as the DOM would hold them: character references decoded
//!   by the tokenizer (§13.2.5.72, `&amp;` is `&`), quotes removed; bytes
//!   that are not UTF-8 are kept as they are (the document's charset is
//!   not converted). An empty value (`href=""`, `<a href>`) is reported,
//!   empty: it names the document itself.
//! - Only start tags that the tokenizer completes count: attributes in
//!   comments, in end tags, in a tag cut off by the end of the document
//!   (§13.2.5.32 and others: "eof-in-tag … emit an end-of-file token", the
//!   tag is dropped), and a repeated attribute of one tag (§13.2.5.33: the
//!   later duplicate "must be removed from the token") are not.
//! - The text of `script`, `style`, `title`, `textarea`, `xmp`, `iframe`,
//!   `noembed`, `noframes` and `plaintext` is not markup (§13.2.6.4.4,
//!   §13.2.6.4.7: the tree builder switches the tokenizer to script data,
//!   RAWTEXT, RCDATA or PLAINTEXT), so `<script>"<a href=x>"</script>`
//!   reports nothing. `noscript` is read as markup: the parse of a user
//!   agent with scripting disabled, as a crawler's (§13.2.6.4.4, "if the
//!   scripting flag is enabled"). The tree builder is otherwise not run:
//!   `<template>` contents and foreign (SVG, MathML) elements are read as
//!   any other tags.
//!
//! The base ([`HtmlRefs::base`]): HTML Standard §4.2.3, "the document base
//! URL … the frozen base URL of the first `base` element in the document
//! that has an `href` attribute", wherever it stands: a `<base href>`
//! after links applies to them too. Its value is reported as written; it
//! is itself resolved against the document's URL (its "fallback base
//! URL") by whoever resolves. Its `href` is also in [`HtmlRefs::refs`].
//!
//! A tag of many attributes keeps the tokenizer's recursion shallow as
//! `mail`'s HTML reading does (the same reader, `parse/shallow.rs`). The work is
//! linear in the document's length, and at most [`MAX_REFS`] references
//! are kept ([`HtmlRefs::capped`] says when more were dropped; the base is
//! still looked for to the end).

use super::shallow::{Shallow, Watch, SHALLOW_AFTER};
use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, ForwardingEmitter, Span as Hspan, State, Tokenizer};
use std::cell::{Cell, RefCell};
use std::convert::Infallible;
use std::ops::Range;
use std::rc::Rc;

/// The most references [`html_refs`] keeps of one document (srcset
/// candidates counted one by one); the rest are dropped and
/// [`HtmlRefs::capped`] is set.
pub const MAX_REFS: usize = 100_000;

/// Element names are cut to this many bytes: real ones are short.
const NAME_CAP: usize = 64;

/// An attribute whose value is a URL reference.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkAttribute {
    /// `href`: `a`, `area`, `link`, `base`.
    Href,
    /// `src`: `img`, `script`, `iframe`, `embed`, `audio`, `video`,
    /// `source`, `track`, `input`.
    Src,
    /// `action`: `form`.
    Action,
    /// `cite`: `blockquote`, `q`, `del`, `ins`.
    Cite,
    /// `data`: `object`.
    Data,
    /// `poster`: `video`.
    Poster,
    /// `formaction`: `button`, `input`.
    Formaction,
    /// `background`: `body`, `table`, `td` (obsolete, still written).
    Background,
    /// `longdesc`: `img`, `iframe` (obsolete, still written).
    Longdesc,
    /// `srcset`: `img`, `source`; one reference per image candidate.
    Srcset,
}

impl LinkAttribute {
    const ALL: [LinkAttribute; 10] = [
        LinkAttribute::Href,
        LinkAttribute::Src,
        LinkAttribute::Action,
        LinkAttribute::Cite,
        LinkAttribute::Data,
        LinkAttribute::Poster,
        LinkAttribute::Formaction,
        LinkAttribute::Background,
        LinkAttribute::Longdesc,
        LinkAttribute::Srcset,
    ];

    /// The attribute's name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            LinkAttribute::Href => "href",
            LinkAttribute::Src => "src",
            LinkAttribute::Action => "action",
            LinkAttribute::Cite => "cite",
            LinkAttribute::Data => "data",
            LinkAttribute::Poster => "poster",
            LinkAttribute::Formaction => "formaction",
            LinkAttribute::Background => "background",
            LinkAttribute::Longdesc => "longdesc",
            LinkAttribute::Srcset => "srcset",
        }
    }

    /// The attribute named `name` (lower case, as the tokenizer gives
    /// it).
    fn from_name(name: &[u8]) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.name().as_bytes() == name)
    }

    /// A bit of its own, for the attributes a tag has had.
    fn bit(self) -> u16 {
        1 << (self as u16)
    }
}

/// One URL reference of an HTML document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlRef {
    /// The value (for `srcset`, one candidate's URL), character references
    /// decoded, not trimmed, not percent-decoded; bytes as the document
    /// holds them (not necessarily UTF-8).
    pub value: Vec<u8>,
    /// Where the value is in the document's bytes: inside the quotes of a
    /// quoted value; a character reference lies wholly inside or outside.
    /// Empty for an empty value (at its place, or just after the
    /// attribute name when there is no `=`).
    pub span: Range<usize>,
    /// The element, ASCII lower case, cut to 64 bytes (not UTF-8 bytes
    /// read as U+FFFD).
    pub element: Box<str>,
    /// The attribute.
    pub attribute: LinkAttribute,
}

impl HtmlRef {
    /// The value as text: not UTF-8 bytes read as U+FFFD.
    pub fn value_str(&self) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(&self.value)
    }
}

/// The URL references of one HTML document, by [`html_refs`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HtmlRefs {
    /// The references in document order (at most [`MAX_REFS`]).
    pub refs: Vec<HtmlRef>,
    /// The `href` of the first `base` element that has one, wherever it
    /// is in the document (HTML Standard §4.2.3).
    pub base: Option<HtmlRef>,
    /// Whether references past [`MAX_REFS`] were dropped.
    pub capped: bool,
}

/// The URL references of the HTML document `bytes` and its base; see the
/// [module docs](self).
///
/// ```
/// use urlgrep::parse::html_refs::{html_refs, LinkAttribute};
/// let doc = b"<A HREF='/a?x=1&amp;y=2'>a</A><base href=http://b/>";
/// let found = html_refs(doc);
/// let a = &found.refs[0];
/// assert_eq!(a.value, b"/a?x=1&y=2");
/// assert_eq!((&*a.element, a.attribute), ("a", LinkAttribute::Href));
/// assert_eq!(&doc[a.span.clone()], b"/a?x=1&amp;y=2");
/// assert_eq!(found.base.map(|b| b.value), Some(b"http://b/".to_vec()));
/// ```
pub fn html_refs(bytes: &[u8]) -> HtmlRefs {
    refs_shallow(bytes, SHALLOW_AFTER, MAX_REFS).0
}

/// [`html_refs`], the tokenizer's chain cut from `shallow_after`
/// attributes of a tag on, at most `cap` references; the reader's
/// [`Watch`] with it.
fn refs_shallow(
    bytes: &[u8],
    shallow_after: u32,
    cap: usize,
) -> (HtmlRefs, Rc<Watch>) {
    let tap = Rc::new(Tap::default());
    let mut c =
        Collector { cap, tap: Rc::clone(&tap), ..Collector::default() };
    let callback =
        |ev: CallbackEvent<'_>, span: Hspan<usize>| -> Option<Infallible> {
            c.event(ev, span);
            None
        };
    // The tree builder's state switches are made by `Taps` itself.
    let emitter = CallbackEmitter::new(callback);
    let watch = Watch::new(shallow_after);
    let reader = Shallow::new(bytes, Rc::clone(&watch));
    let taps =
        Taps { inner: emitter, watch: Rc::clone(&watch), tap, input: bytes };
    // The reader of a byte slice cannot fail.
    let _ = Tokenizer::new_with_emitter(reader, taps).finish();
    // A tag still open at the end was cut off: not a tag (§13.2.5).
    (HtmlRefs { refs: c.refs, base: c.base, capped: c.capped }, watch)
}

/// What the tokenizer did, as the emitter wrapper ([`Taps`]) sees it, for
/// the callback to read: the callback's events come from inside the
/// wrapped emitter's calls, so these are current when it runs.
#[derive(Debug, Default)]
struct Tap {
    /// The reader's position, as the tokenizer moves it.
    pos: Cell<usize>,
    /// The tag being read is a start tag.
    start: Cell<bool>,
    /// Its name, lower case, cut to [`NAME_CAP`] bytes.
    name: RefCell<Vec<u8>>,
    /// Where the current attribute's value began (after an opening
    /// quote), when it has a `=`.
    value_at: Cell<Option<usize>>,
    /// The pieces of the current attribute's value as the tokenizer
    /// pushed them.
    pieces: RefCell<Vec<Piece>>,
}

/// A piece of an attribute value: `decoded` bytes of the value from
/// `raw` of the document, verbatim (the same bytes) or not (a character
/// reference, a CR or CR LF read as LF, a NUL as U+FFFD).
#[derive(Clone, Copy, Debug)]
struct Piece {
    decoded: usize,
    raw: (usize, usize),
    verbatim: bool,
}

/// The callback emitter wrapped: it asks for no parse errors (the
/// tokenizer then skips the checks that only report them), makes the
/// tree builder's state switches after a start tag, tells the
/// [`Watch`] of the [`Shallow`] reader where the tokenizer is, and
/// keeps the [`Tap`].
struct Taps<'a, E> {
    inner: E,
    watch: Rc<Watch>,
    tap: Rc<Tap>,
    input: &'a [u8],
}

impl<E: Emitter> ForwardingEmitter for Taps<'_, E> {
    type Token = E::Token;

    fn inner(&mut self) -> &mut impl Emitter<Token = Self::Token> {
        &mut self.inner
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn emit_error(&mut self, _: html5gum::Error) {}

    fn move_position(&mut self, offset: isize) {
        let p = self.tap.pos.get().saturating_add_signed(offset);
        self.tap.pos.set(p);
        self.inner.move_position(offset);
    }

    fn init_start_tag(&mut self) {
        self.watch.tag();
        self.inner.init_start_tag();
        self.tap.start.set(true);
        self.tap.name.borrow_mut().clear();
    }

    fn init_end_tag(&mut self) {
        self.watch.tag();
        self.inner.init_end_tag();
        self.tap.start.set(false);
        self.tap.name.borrow_mut().clear();
    }

    fn push_tag_name(&mut self, s: &[u8]) {
        self.inner.push_tag_name(s);
        let mut name = self.tap.name.borrow_mut();
        let room = NAME_CAP.saturating_sub(name.len());
        name.extend_from_slice(s.get(..room).unwrap_or(s));
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        // The callback emitter's own switching is off (its default):
        // the next state is the tree builder's, below.
        let _ = self.inner.emit_current_tag();
        if !self.tap.start.get() {
            return None;
        }
        next_state(&self.tap.name.borrow())
    }

    fn init_attribute(&mut self) {
        self.watch.attribute();
        // The previous attribute is flushed (its events sent) here,
        // before the new one's state is reset.
        self.inner.init_attribute();
        self.tap.value_at.set(None);
    }

    fn init_attribute_value(&mut self) {
        self.watch.value();
        self.inner.init_attribute_value();
        self.tap.value_at.set(Some(self.tap.pos.get()));
        self.tap.pieces.borrow_mut().clear();
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        self.inner.push_attribute_value(s);
        let end = self.tap.pos.get();
        let mut pieces = self.tap.pieces.borrow_mut();
        let start = match pieces.last() {
            Some(p) => p.raw.1,
            None => self.tap.value_at.get().unwrap_or(end),
        };
        let verbatim = self.input.get(start..end) == Some(s);
        pieces.push(Piece { decoded: s.len(), raw: (start, end), verbatim });
    }
}

/// The tokenizer state after a start tag named `name`, as the tree
/// builder sets it for an HTML element (§13.2.6.4.4 "in head",
/// §13.2.6.4.7 "in body"; scripting disabled, so `noscript` is markup).
fn next_state(name: &[u8]) -> Option<State> {
    match name {
        b"title" | b"textarea" => Some(State::RcData),
        b"style" | b"xmp" | b"iframe" | b"noembed" | b"noframes" => {
            Some(State::RawText)
        }
        b"script" => Some(State::ScriptData),
        b"plaintext" => Some(State::PlainText),
        _ => None,
    }
}

/// The callback's side: the references of the tag being read, kept
/// until it is complete.
#[derive(Default)]
struct Collector {
    tap: Rc<Tap>,
    cap: usize,
    refs: Vec<HtmlRef>,
    base: Option<HtmlRef>,
    capped: bool,
    /// The start tag being read: its name, its references so far, the
    /// link attributes it has had.
    element: Box<str>,
    pending: Vec<HtmlRef>,
    seen: u16,
    /// The attribute whose value is awaited, and where its name ended.
    attribute: Option<(LinkAttribute, usize)>,
}

impl Collector {
    fn event(&mut self, ev: CallbackEvent<'_>, span: Hspan<usize>) {
        match ev {
            CallbackEvent::OpenStartTag { name } => {
                let name = name.get(..NAME_CAP).unwrap_or(name);
                self.element = String::from_utf8_lossy(name).into();
                self.pending.clear();
                self.seen = 0;
                self.attribute = None;
            }
            CallbackEvent::AttributeName { name } => {
                self.valueless();
                if !self.tap.start.get() {
                    return;
                }
                let Some(a) = LinkAttribute::from_name(name) else { return };
                if self.seen & a.bit() != 0 {
                    return; // a duplicate, removed from the token
                }
                self.seen |= a.bit();
                self.attribute = Some((a, span.end));
            }
            CallbackEvent::AttributeValue { value } => {
                if let Some((a, _)) = self.attribute.take() {
                    self.value(a, value, span.start..span.end);
                }
            }
            CallbackEvent::CloseStartTag { .. } => {
                self.valueless();
                self.complete();
            }
            CallbackEvent::EndTag { .. }
            | CallbackEvent::String { .. }
            | CallbackEvent::Comment { .. }
            | CallbackEvent::Doctype { .. } => {
                self.attribute = None;
                self.pending.clear();
            }
            CallbackEvent::Error(_) => {}
        }
    }

    /// The awaited attribute had no value (`href=""`, `<a href>`): the
    /// callback emitter sends none for an empty one.
    fn valueless(&mut self) {
        if let Some((a, name_end)) = self.attribute.take() {
            let at = self.tap.value_at.get().unwrap_or(name_end);
            if a != LinkAttribute::Srcset {
                self.push(a, Vec::new(), at..at);
            }
        }
    }

    /// A link attribute's value, decoded, at `span` of the document.
    fn value(&mut self, a: LinkAttribute, value: &[u8], span: Range<usize>) {
        if a != LinkAttribute::Srcset {
            self.push(a, value.to_vec(), span);
            return;
        }
        let pieces = self.tap.pieces.borrow().clone();
        let mut map = Decoded::new(&pieces, span);
        for c in srcset_urls(value) {
            let url = value.get(c.clone()).unwrap_or_default().to_vec();
            let raw = map.start(c.start)..map.end(c.end);
            self.push(a, url, raw);
        }
    }

    fn push(
        &mut self,
        attribute: LinkAttribute,
        value: Vec<u8>,
        span: Range<usize>,
    ) {
        let element = self.element.clone();
        self.pending.push(HtmlRef { value, span, element, attribute });
    }

    /// The start tag is complete: its references count.
    fn complete(&mut self) {
        if self.base.is_none() && &*self.element == "base" {
            self.base = self
                .pending
                .iter()
                .find(|r| r.attribute == LinkAttribute::Href)
                .cloned();
        }
        let room = self.cap.saturating_sub(self.refs.len());
        if self.pending.len() > room {
            self.capped = true;
        }
        let take = self.pending.len().min(room);
        self.refs.extend(self.pending.drain(..take));
        self.pending.clear();
    }
}

/// An attribute value's decoded offsets mapped to the document's bytes
/// by the pieces the tokenizer pushed, asked in increasing order (a
/// cursor that only moves on: linear in the pieces for all the asks).
struct Decoded<'p> {
    pieces: &'p [Piece],
    /// The value's span in the document.
    span: Range<usize>,
    /// Whether the pieces cover the value exactly: they do when the
    /// reader's position was followed; otherwise only the whole value's
    /// span is known, and every ask gets its ends.
    exact: bool,
    /// The piece the cursor is at, and the decoded offset it begins at.
    at: usize,
    from: usize,
}

impl<'p> Decoded<'p> {
    fn new(pieces: &'p [Piece], span: Range<usize>) -> Self {
        let decoded: usize = pieces.iter().map(|p| p.decoded).sum();
        let first = pieces.first().map(|p| p.raw.0);
        let last = pieces.last().map(|p| p.raw.1);
        let exact =
            first == Some(span.start) && last == Some(span.end) && decoded > 0;
        Decoded { pieces, span, exact, at: 0, from: 0 }
    }

    /// Moves the cursor to the first piece for which `past` is false of
    /// (the decoded offset where the piece ends).
    fn seek(&mut self, past: impl Fn(usize) -> bool) -> Option<Piece> {
        while let Some(&p) = self.pieces.get(self.at) {
            if !past(self.from + p.decoded) {
                return Some(p);
            }
            self.from += p.decoded;
            self.at += 1;
        }
        None
    }

    /// The document offset where decoded byte `d` begins: inside a
    /// verbatim piece, its twin; in a decoded one, the piece's start.
    fn start(&mut self, d: usize) -> usize {
        if !self.exact {
            return self.span.start;
        }
        match self.seek(|end| d >= end) {
            Some(p) if p.verbatim => p.raw.0 + d.saturating_sub(self.from),
            Some(p) => p.raw.0,
            None => self.span.end,
        }
    }

    /// The document offset where decoded byte `d - 1` ends: inside a
    /// verbatim piece, its twin; in a decoded one, the piece's end.
    fn end(&mut self, d: usize) -> usize {
        if !self.exact {
            return self.span.end;
        }
        match self.seek(|end| d > end) {
            Some(p) if p.verbatim => p.raw.0 + d.saturating_sub(self.from),
            Some(p) => p.raw.1,
            None => self.span.end,
        }
    }
}

/// HTML's ASCII whitespace (Infra): TAB, LF, FF, CR, SPACE.
fn is_blank(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// The URLs of a `srcset` value's image candidates, as ranges of it, by
/// HTML Standard §4.8.4.3.10 "parse a srcset attribute" steps 1–8: blanks
/// and commas skipped, the URL a run of non-blanks (trailing commas
/// removed, and then it has no descriptors), the descriptors up to a
/// comma outside parentheses. A candidate is reported whatever its
/// descriptors (a browser drops one whose descriptors are invalid).
pub fn srcset_urls(value: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut pos = 0;
    let at = |i: usize| value.get(i).copied();
    loop {
        // Step 4: skip ASCII whitespace and commas.
        while at(pos).is_some_and(|b| is_blank(b) || b == b',') {
            pos += 1;
        }
        if pos >= value.len() {
            return out;
        }
        // Step 6: the URL, a run of non-whitespace.
        let start = pos;
        while at(pos).is_some_and(|b| !is_blank(b)) {
            pos += 1;
        }
        let mut end = pos;
        // Step 7: a URL ending in commas has them removed, and no
        // descriptors.
        if at(end - 1) == Some(b',') {
            while end > start && at(end - 1) == Some(b',') {
                end -= 1;
            }
            out.push(start..end);
            continue;
        }
        out.push(start..end);
        // Step 8: the descriptor tokenizer, up to a comma outside
        // parentheses or the end.
        let mut parens = false;
        while let Some(b) = at(pos) {
            pos += 1;
            match b {
                b')' if parens => parens = false,
                b'(' if !parens => parens = true,
                b',' if !parens => break,
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests;
