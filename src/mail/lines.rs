//! The lines of the searched text around a URL, when asked for
//! ([`super::MailFinderBuilder::lines`]): the text as it was searched,
//! after quoted-printable or base64 decoding, `format=flowed` and HTML
//! references, or RFC 2047 encoded words in a header; what `--line`
//! and `-A/-B/-C` print for mail.
//!
//! Only text that decoding changed gets them ([`super::MailMatch::lines`]
//! is `None` for text searched as stored: its stored lines are the
//! lines searched). Context lines are those of the same searched text
//! (the part, or the run of header fields), never beyond it. A message
//! read as a stream (longer than
//! [`super::MailFinderBuilder::whole_message_len`]) holds only a
//! window of its decoded text: its matches get none.
//!
//! The lines of one text are found for its matches in order, each byte
//! looked at a bounded number of times (once per line group it is in:
//! its match lines, at most `before` groups after it, `after` groups
//! before it), so a long line with many URLs costs linear time; the
//! URLs on the same lines share one copy of them.

use super::map::Layers;
use std::sync::Arc;

/// The most bytes of one line kept; the rest is cut (and said).
pub const MAX_LINE: usize = 16 * 1024;

/// One line of the searched text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextLine {
    text: Box<[u8]>,
    cut: bool,
    start: u64,
    end: u64,
    stored: u64,
    url: bool,
}

impl TextLine {
    /// Its first [`MAX_LINE`] bytes, without the line break.
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// Whether it was longer than [`MAX_LINE`].
    pub fn is_cut(&self) -> bool {
        self.cut
    }

    /// Where it starts in the searched text, and where it ends (its
    /// line break, or the end of the text).
    pub fn range(&self) -> (u64, u64) {
        (self.start, self.end)
    }

    /// Offset of the stored byte its first byte was decoded from,
    /// relative to [`LineContext::offset`].
    pub fn stored(&self) -> u64 {
        self.stored
    }

    /// Whether the URL runs over it (not a context line).
    pub fn holds_url(&self) -> bool {
        self.url
    }
}

/// The lines around the URLs of one line (or of the lines a wrapped URL
/// runs over), in order: up to `before` lines, the URL's, up to `after`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextLines {
    lines: Vec<TextLine>,
}

impl TextLines {
    /// The lines, in order.
    pub fn lines(&self) -> &[TextLine] {
        &self.lines
    }
}

/// A URL's lines, shared with the URLs on the same lines, and where it
/// is in them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineContext {
    lines: Arc<TextLines>,
    url: (u64, u64),
    offset: u64,
}

impl LineContext {
    /// The lines.
    pub fn lines(&self) -> &Arc<TextLines> {
        &self.lines
    }

    /// The URL's range in the searched text (delimiters included, as
    /// its span).
    pub fn url(&self) -> (u64, u64) {
        self.url
    }

    /// Where the searched text's source starts, as
    /// [`super::MailMatch::offset`] counts (absolute in a reader search,
    /// in the slice in a slice search); it also tells one searched text
    /// from another.
    pub fn offset(&self) -> u64 {
        self.offset
    }
}

/// Finds the lines of one searched text for its matches, in order.
pub(super) struct Liner<'t> {
    text: &'t [u8],
    before: usize,
    after: usize,
    /// `text[start..=end]` are the URL lines of the last group (`end`
    /// its last line break, or `text.len()`).
    last: Option<(usize, usize, Arc<TextLines>)>,
    /// A line starts here: no line break is looked for before it.
    floor: usize,
    /// Lines that end before this were given to a group before (as its
    /// URL's or after-context): a next group's before-context stops
    /// there, as the printer has them already.
    given: usize,
    offset: u64,
}

impl<'t> Liner<'t> {
    /// A liner for `text`, whose source starts at `offset` (as
    /// [`LineContext::offset`] counts).
    pub(super) fn new(
        text: &'t [u8],
        (before, after): (usize, usize),
        offset: u64,
    ) -> Liner<'t> {
        Liner { text, before, after, last: None, floor: 0, given: 0, offset }
    }

    /// The lines of the URL at `[s, e)` of the text.
    pub(super) fn get(
        &mut self,
        s: usize,
        e: usize,
        layers: &Layers<'_>,
    ) -> LineContext {
        let text = self.text;
        let s = s.min(text.len());
        let last_byte = e.max(s + 1).saturating_sub(1).min(text.len());
        let url = (s as u64, e as u64);
        if let Some((a, b, lines)) = &self.last {
            if s >= *a && last_byte <= *b {
                let lines = Arc::clone(lines);
                return LineContext { lines, url, offset: self.offset };
            }
        }
        if s < self.floor {
            self.floor = 0;
        }
        let from = self.floor;
        let start =
            memchr::memrchr(b'\n', text.get(from..s).unwrap_or_default())
                .map_or(from, |i| from + i + 1);
        let end = line_end(text, last_byte);
        let mut lines = Vec::new();
        // Before: walked back from `start`.
        let mut at = start;
        for _ in 0..self.before {
            if at == 0 || at <= self.given {
                break;
            }
            let prev_end = at - 1;
            let prev =
                memchr::memrchr(b'\n', &text[..prev_end]).map_or(0, |i| i + 1);
            lines.push(self.line(prev, prev_end, false, layers));
            at = prev;
        }
        lines.reverse();
        let mut at = start;
        loop {
            let le = line_end(text, at);
            lines.push(self.line(at, le, true, layers));
            if le >= end {
                break;
            }
            at = le + 1;
        }
        let mut at = end + 1;
        for _ in 0..self.after {
            if at >= text.len() {
                break;
            }
            let le = line_end(text, at);
            lines.push(self.line(at, le, false, layers));
            at = le + 1;
        }
        self.given = at;
        self.floor = (end + 1).min(text.len());
        let lines = Arc::new(TextLines { lines });
        self.last = Some((start, end, Arc::clone(&lines)));
        LineContext { lines, url, offset: self.offset }
    }

    /// The line `text[start..end]`.
    fn line(
        &self,
        start: usize,
        end: usize,
        url: bool,
        layers: &Layers<'_>,
    ) -> TextLine {
        let whole = self.text.get(start..end).unwrap_or_default();
        let kept = whole.get(..MAX_LINE).unwrap_or(whole);
        // The stored byte its first byte came from (an empty line's
        // line break, or the byte before the end of the text).
        let stored = match start < self.text.len() {
            true => layers.range(start, start + 1).0,
            false => layers.range(start.saturating_sub(1), start).1,
        };
        TextLine {
            text: kept.into(),
            cut: kept.len() < whole.len(),
            start: start as u64,
            end: end as u64,
            stored: stored as u64,
            url,
        }
    }
}

/// Where the line holding `at` ends: its line break, or the end.
fn line_end(text: &[u8], at: usize) -> usize {
    memchr::memchr(b'\n', text.get(at..).unwrap_or_default())
        .map_or(text.len(), |i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(c: &LineContext) -> Vec<(&[u8], bool)> {
        c.lines().lines().iter().map(|l| (l.text(), l.holds_url())).collect()
    }

    #[test]
    fn the_url_line_and_its_context() {
        let text = b"one\ntwo http://a.example/ x\nthree\nfour\n";
        let layers = Layers::default();
        let mut l = Liner::new(text, (1, 2), 0);
        let c = l.get(8, 25, &layers);
        assert_eq!(
            texts(&c),
            [
                (&b"one"[..], false),
                (b"two http://a.example/ x", true),
                (b"three", false),
                (b"four", false)
            ]
        );
        // A second URL on the line shares the lines.
        let d = l.get(26, 27, &layers);
        assert!(Arc::ptr_eq(c.lines(), d.lines()));
        // Before-context given to a group before is not given again.
        let e = l.get(35, 37, &layers);
        assert_eq!(texts(&e), [(&b"four"[..], true)]);
        // A URL over two lines: both are its lines.
        let text = b"a <URL:http://x.\n example/> b\nc";
        let mut l = Liner::new(text, (0, 0), 0);
        let c = l.get(2, 26, &layers);
        assert_eq!(
            texts(&c),
            [(&b"a <URL:http://x."[..], true), (b" example/> b", true)]
        );
    }

    /// One line of many URLs is read once, not once per URL.
    #[test]
    fn a_long_line_is_shared() {
        let text = b"http://a.example/ ".repeat(1000);
        let layers = Layers::default();
        let mut l = Liner::new(&text, (3, 3), 0);
        let first = l.get(0, 17, &layers);
        for k in 1..1000 {
            let c = l.get(18 * k, 18 * k + 17, &layers);
            assert!(Arc::ptr_eq(first.lines(), c.lines()));
        }
        let line = &first.lines().lines()[0];
        assert_eq!((line.text().len(), line.is_cut()), (MAX_LINE, true));
    }
}
