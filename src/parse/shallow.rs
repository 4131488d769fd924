//! A reader that keeps the tokenizer's call chain shallow in a tag of
//! many attributes (issue 33.1).
//!
//! Shared by the two HTML readers: `mail`'s link context (`mail/html.rs`)
//! and the references of `--resolve` (`parse/html_refs.rs`).
//!
//! html5gum 0.9 inlines some state switches as direct calls, and one
//! chain of them is a cycle: `name="value"` and a blank after the
//! closing quote go from the after-attribute-value-(quoted) state
//! (HTML Living Standard §13.2.5.39) through before-attribute-name,
//! attribute-name, before-attribute-value and attribute-value
//! (double-quoted) back to it, without returning to the tokenizer's
//! loop. Each such attribute of one tag took a few stack frames more:
//! a tag with about 7,000 of them overflowed the stack and aborted the
//! process, output still buffered lost.
//!
//! The cycle is broken without changing a token: in a tag past
//! [`SHALLOW_AFTER`] attributes, the blank right after a double-quoted
//! value's closing quote is fed to the tokenizer as `/`, unless a `>`
//! follows it. The `/` leads to the self-closing-start-tag state
//! (§13.2.5.40) by a switch that returns to the loop, and that state
//! reconsumes the next character in before-attribute-name, as the blank
//! would have led to: the same attributes, names, values and spans
//! (one byte for one), only a parse error more, which is not asked for.
//! A `>` right after the `/` would set the self-closing flag, hence the
//! exception (that `>` ends the tag anyway).
//!
//! The emitter ([`Watch`]'s other side, in each reader) says where the
//! tokenizer is: a tag begun, an attribute begun, a value begun. A value
//! begun right after a `"` is double-quoted, and the first `"` read after
//! it closes it (a double-quoted value holds none).

use html5gum::{Readable, Reader, StringReader};
use std::cell::Cell;
use std::convert::Infallible;
use std::rc::Rc;

/// The attributes a tag holds before the blanks after its closing
/// quotes are fed as `/`: more than real tags hold, few enough for the
/// 2 MiB stack of a worker thread in a debug build.
pub(crate) const SHALLOW_AFTER: u32 = 32;

/// Where the tokenizer is, as its emitter and its reader see it.
#[derive(Debug, Default)]
pub(crate) struct Watch {
    /// Attributes of the tag being read so far.
    attributes: Cell<u32>,
    quote: Cell<Quote>,
    /// The last byte handed to the tokenizer.
    last: Cell<u8>,
    /// `attributes` from which blanks are fed as `/`.
    after: Cell<u32>,
    /// Blanks fed as `/`.
    cuts: Cell<u64>,
}

/// A double-quoted attribute value, as far as it was read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Quote {
    #[default]
    None,
    /// Begun: its opening quote read.
    Open,
    /// Its closing quote was the last byte read.
    Closed,
}

impl Watch {
    /// A watch that feeds blanks as `/` from `after` attributes on.
    pub(crate) fn new(after: u32) -> Rc<Self> {
        let w = Watch::default();
        w.after.set(after);
        Rc::new(w)
    }

    /// The emitter began a start or end tag.
    pub(crate) fn tag(&self) {
        self.attributes.set(0);
        self.quote.set(Quote::None);
    }

    /// The emitter began an attribute.
    pub(crate) fn attribute(&self) {
        self.attributes.set(self.attributes.get().saturating_add(1));
    }

    /// The emitter began an attribute value: double-quoted if the byte
    /// just read is `"` (the before-attribute-value state, §13.2.5.36,
    /// begins no other value right after one).
    pub(crate) fn value(&self) {
        let q =
            if self.last.get() == b'"' { Quote::Open } else { Quote::None };
        self.quote.set(q);
    }

    /// How many blanks were fed as `/`.
    #[cfg(test)]
    pub(crate) fn cuts(&self) -> u64 {
        self.cuts.get()
    }

    /// The tokenizer was handed `bytes`.
    fn handed(&self, bytes: &[u8]) {
        let q = match self.quote.get() {
            Quote::Open => match memchr::memchr(b'"', bytes) {
                Some(i) if i + 1 == bytes.len() => Quote::Closed,
                Some(_) => Quote::None,
                None => Quote::Open,
            },
            _ => Quote::None,
        };
        self.quote.set(q);
        if let Some(&b) = bytes.last() {
            self.last.set(b);
        }
    }
}

/// A [`StringReader`] that feeds a blank after a closing quote as `/`
/// when its [`Watch`] says so.
pub(crate) struct Shallow<'a> {
    inner: StringReader<'a>,
    input: &'a [u8],
    /// Bytes of `input` handed out.
    pos: usize,
    watch: Rc<Watch>,
}

impl<'a> Shallow<'a> {
    pub(crate) fn new(input: &'a [u8], watch: Rc<Watch>) -> Self {
        Shallow { inner: input.to_reader(), input, pos: 0, watch }
    }
}

impl Reader for Shallow<'_> {
    type Error = Infallible;

    fn read_byte(&mut self) -> Result<Option<u8>, Infallible> {
        let Ok(b) = self.inner.read_byte();
        let Some(b) = b else { return Ok(None) };
        self.pos += 1;
        let w = &self.watch;
        let fed = if w.quote.get() == Quote::Closed
            && w.attributes.get() >= w.after.get()
            && matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
            && self.input.get(self.pos) != Some(&b'>')
        {
            w.cuts.set(w.cuts.get() + 1);
            b'/'
        } else {
            b
        };
        w.handed(&[fed]);
        Ok(Some(fed))
    }

    fn try_read_string(
        &mut self,
        s: &[u8],
        case_sensitive: bool,
    ) -> Result<bool, Infallible> {
        let Ok(read) = self.inner.try_read_string(s, case_sensitive);
        if read {
            self.pos += s.len();
            // What was read equals `s` (but for case), and `"` has none.
            self.watch.handed(s);
        }
        Ok(read)
    }

    fn read_until<'b>(
        &'b mut self,
        needle: &[u8],
        char_buf: &'b mut [u8; 4],
    ) -> Result<Option<&'b [u8]>, Infallible> {
        // A string reader hands out slices of its input, each as long as
        // what it consumed.
        let Ok(chunk) = self.inner.read_until(needle, char_buf);
        if let Some(c) = chunk {
            self.pos += c.len();
            self.watch.handed(c);
        }
        Ok(chunk)
    }
}
