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
use crate::search::Match;
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

/// Hands each match `found` in `text` (whose source starts at
/// `offset`, as [`LineContext::offset`] counts) to `one` with its lines,
/// in order; stops when `one` says `false`. The matches of one group of
/// lines wait until the next group's URL is found: a group's
/// after-context stops at the next group's lines, so that each line is
/// held once whatever `after` and the density of URLs.
pub(super) fn grouped<'t, T, E>(
    text: &[u8],
    context: (usize, usize),
    offset: u64,
    layers: &Layers<'_>,
    found: impl Iterator<Item = (Match<'t>, T)>,
    mut one: impl FnMut(Match<'t>, T, Option<LineContext>) -> Result<bool, E>,
) -> Result<bool, E> {
    let mut liner = Liner::new(text, context);
    let mut held: Vec<(Match<'t>, T)> = Vec::new();
    let mut hand_on = |liner: &mut Liner<'_>,
                       held: &mut Vec<(Match<'t>, T)>,
                       next: Option<usize>|
     -> Result<bool, E> {
        let Some(lines) = liner.close(next, layers) else { return Ok(true) };
        for (m, extra) in held.drain(..) {
            let url = (m.span.start as u64, m.span.end as u64);
            let c = LineContext { lines: Arc::clone(&lines), url, offset };
            if !one(m, extra, Some(c))? {
                return Ok(false);
            }
        }
        Ok(true)
    };
    for (m, extra) in found {
        let (s, e) = (m.span.start, m.span.end);
        if !liner.holds(s, e) {
            if !hand_on(&mut liner, &mut held, Some(s))? {
                return Ok(false);
            }
            liner.open(s, e, layers);
        }
        held.push((m, extra));
    }
    hand_on(&mut liner, &mut held, None)
}

/// Finds the lines of one searched text for its matches, in order.
struct Liner<'t> {
    text: &'t [u8],
    before: usize,
    after: usize,
    /// The open group: its URL lines `text[start..=end]` (`end` their
    /// last line break, or `text.len()`), its lines so far.
    open: Option<(usize, usize, Vec<TextLine>)>,
    /// A line starts here: no line break is looked for before it.
    floor: usize,
    /// Lines that end before this were given to a group before: a next
    /// group's before-context stops there.
    given: usize,
}

impl<'t> Liner<'t> {
    fn new(text: &'t [u8], (before, after): (usize, usize)) -> Liner<'t> {
        Liner { text, before, after, open: None, floor: 0, given: 0 }
    }

    /// The last byte of a URL at `[s, e)`.
    fn last_byte(&self, s: usize, e: usize) -> usize {
        e.max(s + 1).saturating_sub(1).min(self.text.len())
    }

    /// Whether the URL at `[s, e)` is on the open group's URL lines.
    fn holds(&self, s: usize, e: usize) -> bool {
        let last = self.last_byte(s, e);
        self.open.as_ref().is_some_and(|(a, b, _)| s >= *a && last <= *b)
    }

    /// Opens the group of the URL at `[s, e)`: its before-context and
    /// its lines (the open one closed first).
    fn open(&mut self, s: usize, e: usize, layers: &Layers<'_>) {
        let text = self.text;
        let s = s.min(text.len());
        let last = self.last_byte(s, e);
        if s < self.floor {
            self.floor = 0;
        }
        let from = self.floor;
        let start =
            memchr::memrchr(b'\n', text.get(from..s).unwrap_or_default())
                .map_or(from, |i| from + i + 1);
        let end = line_end(text, last);
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
        self.floor = (end + 1).min(text.len());
        self.given = self.floor;
        self.open = Some((start, end, lines));
    }

    /// Closes the open group: up to `after` lines after it, but none
    /// that holds `next`, where the next group's URL starts.
    fn close(
        &mut self,
        next: Option<usize>,
        layers: &Layers<'_>,
    ) -> Option<Arc<TextLines>> {
        let (_, end, mut lines) = self.open.take()?;
        let text = self.text;
        let mut at = end + 1;
        for _ in 0..self.after {
            if at >= text.len() {
                break;
            }
            let le = line_end(text, at);
            if next.is_some_and(|n| n <= le) {
                break;
            }
            lines.push(self.line(at, le, false, layers));
            at = le + 1;
        }
        self.given = self.given.max(at);
        Some(Arc::new(TextLines { lines }))
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
    use crate::scan::Span;

    type Lines = Vec<(Vec<u8>, bool)>;

    /// The lines handed with each URL at the spans `at` of `text`.
    fn grouped_at(
        text: &[u8],
        context: (usize, usize),
        at: &[(usize, usize)],
    ) -> Vec<(Lines, Arc<TextLines>)> {
        let layers = Layers::default();
        let finder = crate::search::Finder::new();
        let m = finder.find_iter(b"http://a.example/").next().unwrap();
        let found = at.iter().map(|&(start, end)| {
            (Match { span: Span { start, end }, ..m.clone() }, false)
        });
        let mut out = Vec::new();
        let Ok(_) = grouped(text, context, 0, &layers, found, |_, _, c| {
            let c = c.unwrap();
            let lines = c.lines().lines();
            let t = lines.iter().map(|l| (l.text().to_vec(), l.holds_url()));
            out.push((t.collect(), Arc::clone(c.lines())));
            Ok::<_, std::convert::Infallible>(true)
        });
        out
    }

    fn l(text: &str, url: bool) -> (Vec<u8>, bool) {
        (text.as_bytes().to_vec(), url)
    }

    #[test]
    fn the_url_line_and_its_context() {
        let text = b"one\ntwo http://a.example/ x\nthree\nfour\n";
        let got = grouped_at(text, (1, 2), &[(8, 25), (26, 27)]);
        let want = vec![
            l("one", false),
            l("two http://a.example/ x", true),
            l("three", false),
            l("four", false),
        ];
        assert_eq!((&got[0].0, &got[1].0), (&want, &want));
        // A second URL on the line shares the lines.
        assert!(Arc::ptr_eq(&got[0].1, &got[1].1));
        // The after-context stops at the next group's line, whose
        // before-context starts after what was given.
        let got = grouped_at(text, (1, 2), &[(8, 25), (35, 37)]);
        assert_eq!(
            got.iter().map(|g| g.0.clone()).collect::<Vec<_>>(),
            [
                vec![
                    l("one", false),
                    l("two http://a.example/ x", true),
                    l("three", false)
                ],
                vec![l("four", true)]
            ]
        );
        // A URL over two lines: both are its lines.
        let text = b"a <URL:http://x.\n example/> b\nc";
        let got = grouped_at(text, (0, 0), &[(2, 26)]);
        assert_eq!(
            got[0].0,
            [l("a <URL:http://x.", true), l(" example/> b", true)]
        );
    }

    /// One line of many URLs is read once, not once per URL; lines dense
    /// in URLs are each held once, whatever the context asked.
    #[test]
    fn each_line_is_held_once() {
        let text = b"http://a.example/ ".repeat(1000);
        let at: Vec<_> = (0..1000).map(|k| (18 * k, 18 * k + 17)).collect();
        let got = grouped_at(&text, (3, 3), &at);
        assert_eq!(got.len(), 1000);
        assert!(got.iter().all(|g| Arc::ptr_eq(&g.1, &got[0].1)));
        let line = &got[0].1.lines()[0];
        assert_eq!((line.text().len(), line.is_cut()), (MAX_LINE, true));
        let text = b"x http://a.example/\n".repeat(1000);
        let at: Vec<_> =
            (0..1000).map(|k| (20 * k + 2, 20 * k + 19)).collect();
        let got = grouped_at(&text, (50, 50), &at);
        let held: usize = got.iter().map(|g| g.1.lines().len()).sum();
        // Each URL's line once: the next URL's line ends the
        // after-context of the one before.
        assert_eq!(held, 1000);
    }
}
