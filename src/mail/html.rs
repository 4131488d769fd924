//! HTML link context (issue 18): for a URL found in a `text/html` part,
//! the element and attribute it came from, an anchor's link text, and
//! whether that text names another host than the link's.
//!
//! The part is read by a WHATWG tokenizer (`html5gum`, the HTML Living
//! Standard §13.2.5 "Tokenization"), with the state switches of a tree
//! builder approximated by the element name (§13.2.6: `script`, `style`,
//! `title`, `textarea`, … hold raw text, so a `<` in a script is not a
//! tag). The tokenizer does not find URLs: the part is still searched
//! as text, exactly as without this context, so nothing found without
//! it is lost; each URL found is then placed in the region of the
//! document it starts in.
//!
//! - In an attribute value: [`Place::Attribute`], the element and the
//!   attribute (lower case, as the tokenizer folds them, §13.2.5.6 and
//!   §13.2.5.32), for every attribute — `a href`, `img src`, `form
//!   action`, `area href`, `link href`, `iframe src`, but also `style`
//!   or `title`.
//! - In a comment: [`Place::Comment`].
//! - Anywhere else: [`Place::Text`], with the element when it is one
//!   whose content is raw text (`script`, `style`, `title`, …).
//!
//! The link text of an `a` element with an `href` is its text content
//! (§4.5.1; what `textContent` gives): tags stripped, character
//! references decoded by the tokenizer, any run of white space (Unicode
//! `White_Space`, so `&nbsp;` too) collapsed to one space and trimmed,
//! capped at [`LINK_TEXT_CAP`] characters. It ends at `</a>` or at the
//! next `<a`: an `a` start tag inside an anchor closes it (the adoption
//! agency algorithm, §13.2.6.4.7). An `area` has no content and gets no
//! link text. Bytes that are not UTF-8 read as U+FFFD: the part's
//! charset is not converted, as for the search itself.
//!
//! `text-host-differs` ([`HtmlLink::text_host_differs`]): the link text,
//! trimmed of surrounding brackets and quotes and of trailing
//! punctuation, is one word that reads as a URL (with a scheme, read by
//! the validator as the href is) or as a host name (dot-separated
//! labels whose last is a top-level domain of the root zone, or an IPv4
//! address, optionally followed by a path), and its host differs from
//! the href's. Hosts compare as IDNA A-labels (UTS #46, so `BÜCHER.de`
//! equals `xn--bcher-kva.de`), case-insensitively, without a trailing
//! dot and without one leading `www.` label (the same site by common
//! convention). A different path on the same host, or text that is not
//! a URL or host name (`PayPal`, `click here`, an e-mail address), never
//! sets it. A link without a host (`mailto:`) never sets it.

use super::map::Layers;
use super::{MailMatch, MailSink, Message};
use crate::parse::shallow::{Shallow, Watch, SHALLOW_AFTER};
use crate::scan::{is_tld, Span};
use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{naive_next_state, Emitter, ForwardingEmitter};
use html5gum::{Span as Hspan, Tokenizer};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The longest link text kept, in characters.
pub const LINK_TEXT_CAP: usize = 200;

/// Element and attribute names are cut to this many bytes: real ones are
/// short, and a hostile part could otherwise make each region big.
const NAME_CAP: usize = 64;

/// Where in an HTML document a URL was.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// In an attribute value.
    Attribute,
    /// In running text (or the raw text of `script`, `style`, …).
    Text,
    /// In a comment.
    Comment,
}

impl Place {
    /// `attribute`, `text` or `comment`.
    pub fn name(self) -> &'static str {
        match self {
            Place::Attribute => "attribute",
            Place::Text => "text",
            Place::Comment => "comment",
        }
    }
}

/// The HTML context of a URL found in a `text/html` part; see the
/// [module docs](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlLink {
    place: Place,
    element: Option<Box<str>>,
    attribute: Option<Box<str>>,
    link_text: Option<Box<str>>,
    text_host_differs: bool,
}

impl HtmlLink {
    /// Attribute value, text or comment.
    pub fn place(&self) -> Place {
        self.place
    }

    /// The element (lower case): the attribute's, or for text the
    /// raw-text element it is in (`script`, `style`, …); `None` for
    /// running text and comments.
    pub fn element(&self) -> Option<&str> {
        self.element.as_deref()
    }

    /// The attribute (lower case), for [`Place::Attribute`].
    pub fn attribute(&self) -> Option<&str> {
        self.attribute.as_deref()
    }

    /// The link text of an anchor's `href` (possibly empty: an image
    /// link); `None` elsewhere.
    pub fn link_text(&self) -> Option<&str> {
        self.link_text.as_deref()
    }

    /// Whether the link text reads as a URL or host name whose host
    /// differs from the link's.
    pub fn text_host_differs(&self) -> bool {
        self.text_host_differs
    }
}

/// A region of the document in the searched slice's coordinates.
#[derive(Clone, Copy, Debug)]
struct Region {
    start: usize,
    end: usize,
    place: Place,
    /// `names[element.0..element.1]`; empty for none.
    element: (u32, u32),
    attribute: (u32, u32),
    /// `anchors[anchor]` when this is an anchor's `href`.
    anchor: Option<u32>,
}

/// The regions of one HTML part, in document order.
#[derive(Default)]
pub(super) struct Index {
    regions: Vec<Region>,
    /// Element and attribute names, one after another.
    names: Vec<u8>,
    /// Link texts, one after another; `anchors` says where each is.
    texts: String,
    anchors: Vec<(u32, u32)>,
}

/// The index of this thread, reused (cleared) part after part; a build
/// started while it is lent gets one of its own.
pub(super) fn with_index<R>(f: impl FnOnce(&mut Index) -> R) -> R {
    thread_local! {
        static INDEX: RefCell<Index> = RefCell::new(Index::default());
    }
    INDEX.with(|cell| match cell.try_borrow_mut() {
        Ok(mut index) => {
            let out = f(&mut index);
            if index.regions.capacity() > 1 << 16
                || index.texts.capacity() > 1 << 20
                || index.names.capacity() > 1 << 20
            {
                *index = Index::default();
            }
            out
        }
        Err(_) => f(&mut Index::default()),
    })
}

/// What the tokenizer's callback keeps between events.
#[derive(Default)]
struct State {
    /// The start tag being read: its name in `names`, whether it is `a`.
    element: (u32, u32),
    is_a: bool,
    attribute: (u32, u32),
    /// The anchor the `a` tag being read opens.
    pending: Option<u32>,
    /// The anchor whose content is being read, and its length so far in
    /// characters.
    open: Option<u32>,
    chars: usize,
    space: bool,
    /// Inside a raw-text element (its name).
    raw: Option<(u32, u32)>,
}

impl Index {
    /// Indexes the HTML `html`, whose byte `k` maps through `layers` to
    /// the source byte `base + k'` of the searched slice.
    pub(super) fn build(
        &mut self,
        html: &[u8],
        layers: &Layers<'_>,
        base: usize,
    ) {
        self.build_shallow(html, layers, base, SHALLOW_AFTER);
    }

    /// [`build`](Self::build), the tokenizer's chain cut from
    /// `shallow_after` attributes of a tag on (see [`crate::parse::shallow`]).
    fn build_shallow(
        &mut self,
        html: &[u8],
        layers: &Layers<'_>,
        base: usize,
        shallow_after: u32,
    ) {
        self.regions.clear();
        self.names.clear();
        self.texts.clear();
        self.anchors.clear();
        let mut st = State::default();
        let this = &mut *self;
        let callback = |ev: CallbackEvent<'_>,
                        span: Hspan<usize>|
         -> Option<std::convert::Infallible> {
            this.event(&mut st, ev, span, layers, base);
            None
        };
        let mut emitter = CallbackEmitter::new(callback);
        emitter.naively_switch_states(true);
        let watch = Watch::new(shallow_after);
        let reader = Shallow::new(html, Rc::clone(&watch));
        // The reader of a byte slice cannot fail.
        let _ = Tokenizer::new_with_emitter(reader, Quiet(emitter, watch))
            .finish();
        if let Some(k) = st.open {
            self.close(k);
        }
    }

    fn name(&mut self, name: &[u8]) -> (u32, u32) {
        let name = name.get(..NAME_CAP).unwrap_or(name);
        let from = self.names.len();
        self.names.extend_from_slice(name);
        (clamp(from), clamp(self.names.len()))
    }

    /// Records `r`, whose `start..end` is a span of the tokenized text,
    /// at its place in the searched slice.
    fn region(&mut self, r: Region, layers: &Layers<'_>, base: usize) {
        if r.end <= r.start {
            return;
        }
        let (start, end) = if layers.maps.is_empty() {
            (r.start, r.end)
        } else {
            layers.range(r.start, r.end)
        };
        self.regions.push(Region {
            start: base + start,
            end: base + end,
            ..r
        });
    }

    fn close(&mut self, k: u32) {
        if let Some(a) = self.anchors.get_mut(k as usize) {
            a.1 = clamp(self.texts.len());
        }
    }

    fn event(
        &mut self,
        st: &mut State,
        ev: CallbackEvent<'_>,
        span: Hspan<usize>,
        layers: &Layers<'_>,
        base: usize,
    ) {
        match ev {
            CallbackEvent::OpenStartTag { name } => {
                st.element = self.name(name);
                st.is_a = name == b"a";
                st.pending = None;
                st.raw = None;
                if st.is_a {
                    if let Some(k) = st.open.take() {
                        self.close(k);
                    }
                    let at = clamp(self.texts.len());
                    st.pending = u32::try_from(self.anchors.len()).ok();
                    self.anchors.push((at, at));
                }
            }
            CallbackEvent::AttributeName { name } => {
                st.attribute = self.name(name);
            }
            CallbackEvent::AttributeValue { .. } => {
                let href = st.is_a && self.get(st.attribute) == b"href";
                let anchor = if href { st.pending } else { None };
                let (e, a) = (st.element, st.attribute);
                let place = Place::Attribute;
                let r = Region {
                    start: span.start,
                    end: span.end,
                    place,
                    element: e,
                    attribute: a,
                    anchor,
                };
                self.region(r, layers, base);
            }
            CallbackEvent::CloseStartTag { .. } => {
                if st.is_a {
                    st.open = st.pending;
                    st.chars = 0;
                    st.space = false;
                }
                let name = self.get(st.element);
                if naive_next_state(name).is_some() {
                    st.raw = Some(st.element);
                }
            }
            CallbackEvent::EndTag { name } => {
                if name == b"a" {
                    if let Some(k) = st.open.take() {
                        self.close(k);
                    }
                }
                st.raw = None;
            }
            CallbackEvent::String { value } => {
                if let Some(raw) = st.raw {
                    let r = Region {
                        start: span.start,
                        end: span.end,
                        place: Place::Text,
                        element: raw,
                        attribute: (0, 0),
                        anchor: None,
                    };
                    self.region(r, layers, base);
                } else if st.open.is_some() {
                    self.link_text(st, value);
                }
            }
            CallbackEvent::Comment { .. } => {
                let r = Region {
                    start: span.start,
                    end: span.end,
                    place: Place::Comment,
                    element: (0, 0),
                    attribute: (0, 0),
                    anchor: None,
                };
                self.region(r, layers, base);
            }
            _ => {}
        }
    }

    /// Appends `value` to the open anchor's text, white space collapsed,
    /// up to the cap.
    fn link_text(&mut self, st: &mut State, value: &[u8]) {
        if st.chars >= LINK_TEXT_CAP {
            return;
        }
        for c in String::from_utf8_lossy(value).chars() {
            if c.is_whitespace() {
                st.space = true;
                continue;
            }
            if st.chars + usize::from(st.space && st.chars > 0)
                >= LINK_TEXT_CAP
            {
                st.chars = LINK_TEXT_CAP;
                return;
            }
            if st.space && st.chars > 0 {
                self.texts.push(' ');
                st.chars += 1;
            }
            st.space = false;
            self.texts.push(c);
            st.chars += 1;
        }
    }

    fn get(&self, (a, b): (u32, u32)) -> &[u8] {
        self.names.get(a as usize..b as usize).unwrap_or_default()
    }

    /// The context of a URL at `span` of the searched slice (its
    /// delimiters included: a quoted `href` value's span covers its
    /// quotes), its host `host` (the validator's reading): the last
    /// region that overlaps the span.
    pub(super) fn context(&self, span: Span, host: Option<&[u8]>) -> HtmlLink {
        let i = self.regions.partition_point(|r| r.start < span.end);
        let region = i
            .checked_sub(1)
            .and_then(|i| self.regions.get(i))
            .filter(|r| span.start < r.end);
        let Some(r) = region else {
            return HtmlLink {
                place: Place::Text,
                element: None,
                attribute: None,
                link_text: None,
                text_host_differs: false,
            };
        };
        let name = |range| {
            let b = self.get(range);
            (!b.is_empty()).then(|| String::from_utf8_lossy(b).into())
        };
        let link_text = r.anchor.and_then(|k| {
            let (a, b) = *self.anchors.get(k as usize)?;
            self.texts.get(a as usize..b as usize)
        });
        let text_host_differs = match (link_text, host) {
            (Some(text), Some(host)) => text_host_differs(text, host),
            _ => false,
        };
        HtmlLink {
            place: r.place,
            element: name(r.element),
            attribute: name(r.attribute),
            link_text: link_text.map(Into::into),
            text_host_differs,
        }
    }
}

/// The HTML link context of one HTML document in hand (a web archive's
/// payload): its regions indexed once, then asked for each URL found in
/// it, as a `text/html` part of a message is.
pub struct HtmlDocument(Index);

impl HtmlDocument {
    /// Indexes `html` (tokenized by html5gum, as a mail part is).
    pub fn index(html: &[u8]) -> HtmlDocument {
        let mut index = Index::default();
        index.build(html, &Layers::default(), 0);
        HtmlDocument(index)
    }

    /// The context of a URL whose bytes (delimiters included) are
    /// `span` of the document, its host `host` (the validator's).
    pub fn context(&self, span: Span, host: Option<&[u8]>) -> HtmlLink {
        self.0.context(span, host)
    }
}

/// An emitter that asks for no parse errors: the tokenizer then skips
/// the character checks that only report them (a third of its time on
/// mail), and tokenizes the same. It tells its [`Watch`] where the
/// tokenizer is.
struct Quiet<E>(E, Rc<Watch>);

impl<E: Emitter> ForwardingEmitter for Quiet<E> {
    type Token = E::Token;

    fn inner(&mut self) -> &mut impl Emitter<Token = Self::Token> {
        &mut self.0
    }

    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn emit_error(&mut self, _: html5gum::Error) {}

    fn init_start_tag(&mut self) {
        self.1.tag();
        self.0.init_start_tag();
    }

    fn init_end_tag(&mut self) {
        self.1.tag();
        self.0.init_end_tag();
    }

    fn init_attribute(&mut self) {
        self.1.attribute();
        self.0.init_attribute();
    }

    fn init_attribute_value(&mut self) {
        self.1.value();
        self.0.init_attribute_value();
    }
}

fn clamp(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Whether `text` (a link text) reads as a URL or host name whose host
/// differs from `host`; see the [module docs](self).
pub(super) fn text_host_differs(text: &str, host: &[u8]) -> bool {
    let Some(named) = text_host(text) else { return false };
    let Ok(host) = std::str::from_utf8(host) else { return true };
    same_site(&named) != same_site(host)
}

/// The host `text` names, when it reads as one URL or host name.
fn text_host(text: &str) -> Option<String> {
    let t = text
        .trim()
        .trim_matches(|c| {
            matches!(c, '<' | '>' | '(' | ')' | '[' | ']' | '"' | '\'')
                || matches!(c, '\u{201c}' | '\u{201d}' | '\u{ab}' | '\u{bb}')
        })
        .trim_end_matches(['.', ',', ';', ':', '!', '?']);
    if t.is_empty() || t.chars().any(char::is_whitespace) {
        return None;
    }
    let scheme_end = t.find(':').filter(|&k| {
        crate::parse::is_scheme_syntax(
            t.as_bytes().get(..k).unwrap_or_default(),
        )
    });
    if let Some(k) = scheme_end {
        // `host:port` reads as a scheme too: only `scheme://` is a URL.
        if t.get(k + 1..).is_some_and(|r| r.starts_with("//")) {
            let v = crate::parse::verdict(t.as_bytes(), false).ok()?;
            let (a, b) = v.host?;
            return t.get(a as usize..b as usize).map(str::to_string);
        }
    }
    if t.contains('@') {
        // An e-mail address names a mailbox, not a site.
        return None;
    }
    let end = t.find(['/', '?', '#']).unwrap_or(t.len());
    let hostport = t.get(..end)?;
    let host = match hostport.rfind(':') {
        Some(k) if hostport[k + 1..].bytes().all(|b| b.is_ascii_digit()) => {
            hostport.get(..k)?
        }
        _ => hostport,
    };
    let host = host.strip_suffix('.').unwrap_or(host);
    is_host_name(host).then(|| host.to_string())
}

/// A host name of two or more labels whose last is a top-level domain
/// (an internationalised one in its A-label form), or an IPv4 address.
fn is_host_name(host: &str) -> bool {
    let labels: Vec<&str> = host.split('.').collect();
    if labels.len() < 2 || labels.iter().any(|l| l.is_empty()) {
        return false;
    }
    if labels.len() == 4
        && labels
            .iter()
            .all(|l| l.len() <= 3 && l.bytes().all(|b| b.is_ascii_digit()))
    {
        return host.parse::<std::net::Ipv4Addr>().is_ok();
    }
    let label_ok = |l: &str| {
        !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    if !labels.iter().all(|l| label_ok(l)) {
        return false;
    }
    let Ok(ascii) = idna::domain_to_ascii(host) else { return false };
    let tld = ascii.rsplit('.').next().unwrap_or_default();
    is_tld(tld.as_bytes())
}

/// A host as compared: A-labels, lower case, no trailing dot, no leading
/// `www.`.
fn same_site(host: &str) -> String {
    let host = host.strip_suffix('.').unwrap_or(host);
    let ascii = idna::domain_to_ascii(host)
        .unwrap_or_else(|_| host.to_ascii_lowercase());
    match ascii.strip_prefix("www.") {
        Some(rest) if rest.contains('.') => rest.to_string(),
        _ => ascii,
    }
}

/// A sink that gives each match its HTML context before passing it on.
pub(super) struct Linked<'a, S> {
    pub(super) index: &'a Index,
    pub(super) inner: &'a mut S,
}

impl<S: MailSink> MailSink for Linked<'_, S> {
    type Error = S::Error;

    fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, S::Error> {
        let link =
            self.index.context(m.as_match().span(), m.as_match().host());
        let mut m = m.clone();
        m.html = Some(Arc::new(link));
        self.inner.matched(&m)
    }

    fn message(&mut self, msg: &Message<'_>) -> Result<bool, S::Error> {
        self.inner.message(msg)
    }

    fn rejected(&mut self, n: u64) {
        self.inner.rejected(n);
    }
}

#[cfg(test)]
mod tests;
