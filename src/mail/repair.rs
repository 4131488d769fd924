//! Raw quoted-printable repair (`--qp-repair`): for text not known to be
//! MIME, where quoted-printable was pasted or mislabelled.
//!
//! Only URL candidates are touched, and only when quoted-printable shows
//! in or right after them: a soft line break (`=` at the end of a line,
//! RFC 2045 §6.7 rule 5) inside or just after the candidate, or a `=3D`
//! (the encoded `=`) inside it. From the candidate's start, soft breaks
//! are joined and `=3D` decoded until the first blank past the
//! candidate's end, and the result is scanned again. An `=` at the end of
//! a line right after a query parameter name (`?sid=`) is kept: without
//! MIME it is as often a hard break after the `=` (`?sid=` / `12535`, four
//! times on the SpamAssassin corpus) as a soft one. Other `=XX` are left
//! alone: in a URL `=AB` is more often a query value than an escape; so
//! is the lower-case `=3d` (`Click?q=3d-oi9…` on the SpamAssassin corpus),
//! while encoders write `=3D` (RFC 2045 §6.7: upper case must be used).

use super::map::Map;
use crate::scan::{Span, LOOK_BEHIND};
use crate::search::buffer::read_retry;
use crate::search::lines::LineCounter;
use crate::search::{CandidateIter, Finder, Match, Position};
use memchr::memmem;
use std::borrow::Cow;
use std::io::{self, Read};

/// A URL from [`repair_iter`]: as found, or repaired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repaired<'h> {
    m: Match<'h>,
    repaired: bool,
}

impl<'h> Repaired<'h> {
    /// The match; its span covers the original bytes, soft breaks and
    /// escapes included.
    pub fn as_match(&self) -> &Match<'h> {
        &self.m
    }

    /// The match, by value.
    pub fn into_match(self) -> Match<'h> {
        self.m
    }

    /// Whether soft breaks were joined or `=3D` decoded to get it.
    pub fn is_repaired(&self) -> bool {
        self.repaired
    }
}

/// The URLs of `hay`, with raw quoted-printable repaired; see the module
/// docs.
///
/// ```
/// let finder = urlgrep::Finder::new();
/// let text = b"go to http://example.com/lo=\nng?b=3Dc now";
/// let r: Vec<_> = urlgrep::mail::repair_iter(&finder, text).collect();
/// assert_eq!(r[0].as_match().url(), b"http://example.com/long?b=c");
/// assert!(r[0].is_repaired());
/// assert_eq!(r[0].as_match().span().end, 37);
/// ```
pub fn repair_iter<'f, 'h>(
    finder: &'f Finder,
    hay: &'h [u8],
) -> RepairIter<'f, 'h> {
    RepairIter {
        finder,
        hay,
        it: finder.candidates(hay),
        eof: true,
        deferred: None,
    }
}

/// Input bytes one repair may read from its candidate's start: soft
/// breaks and `=3D` joined, up to 8 KiB of output. It bounds what the
/// reader search ([`repair_reader`]) must hold past a candidate; a
/// candidate followed by more soft breaks than this is repaired up to
/// here.
const REPAIR_READ: usize = 32 * 1024;

/// Iterator over repaired matches; see [`repair_iter`].
#[derive(Debug)]
pub struct RepairIter<'f, 'h> {
    finder: &'f Finder,
    hay: &'h [u8],
    it: CandidateIter<'f, 'h>,
    /// `hay` ends the input (else it is a window of [`repair_reader`]).
    eof: bool,
    /// In a window: the scan state to go on from, and how many bytes the
    /// window must hold, when a candidate's repair could read past it.
    deferred: Option<((usize, usize), usize)>,
}

impl<'h> Iterator for RepairIter<'_, 'h> {
    type Item = Repaired<'h>;

    fn next(&mut self) -> Option<Repaired<'h>> {
        loop {
            let (pos, floor) = self.it.state();
            let c = self.it.next()?;
            let span = c.as_match().span();
            if !self.eof {
                // Everything a repair reads must be in the window: the
                // bytes after the candidate (a soft break) and up to
                // REPAIR_READ from its start.
                let need = (span.start + REPAIR_READ).max(span.end) + 3;
                if need > self.hay.len() {
                    // Triggers before the candidate's start gave nothing
                    // (rule: a scan from there finds the same).
                    self.deferred = Some(((span.start.max(pos), floor), need));
                    return None;
                }
            }
            if needs_repair(self.hay, span) {
                if let Some((m, end)) = repair_at(self.finder, self.hay, span)
                {
                    let resume = end.max(self.it.resume());
                    self.it = if self.eof {
                        self.finder.candidates_from(
                            self.hay,
                            resume,
                            usize::MAX,
                        )
                    } else {
                        let mut it = self.finder.candidates_window(self.hay);
                        it.jump(resume, resume);
                        it
                    };
                    return Some(Repaired { m, repaired: true });
                }
            }
            if let Ok(m) = c.into_result() {
                return Some(Repaired { m, repaired: false });
            }
        }
    }
}

/// Searches a reader with raw quoted-printable repaired, as
/// [`repair_iter`] over the whole input would, in bounded memory: a
/// window of the finder's buffer capacity (at least 128 KiB), grown only
/// while one candidate needs it. Each URL goes to `sink` with its
/// absolute position (lines counted when `lines`); `sink` returns
/// `false` to stop. A read error ends the search after what was read is
/// searched, and is returned.
pub fn repair_reader<R: Read>(
    finder: &Finder,
    rdr: R,
    lines: bool,
    sink: impl FnMut(&Position, &Repaired<'_>) -> bool,
) -> io::Result<()> {
    let capacity = finder.inner().capacity.max(4 * REPAIR_READ);
    repair_windows(finder, rdr, capacity, lines, sink)
}

/// [`repair_reader`] with windows of `capacity` bytes (grown while a
/// candidate or its repair needs more).
fn repair_windows<R: Read>(
    finder: &Finder,
    mut rdr: R,
    capacity: usize,
    lines: bool,
    mut sink: impl FnMut(&Position, &Repaired<'_>) -> bool,
) -> io::Result<()> {
    let mut buf: Vec<u8> = Vec::new();
    let (mut abs, mut pos, mut floor) = (0u64, 0usize, 0usize);
    let mut counter = LineCounter::default();
    let mut want = capacity;
    let mut error = None;
    loop {
        let eof = fill(&mut rdr, &mut buf, want, &mut error);
        let mut it = RepairIter {
            finder,
            hay: &buf,
            it: finder.candidates_window(&buf),
            eof,
            deferred: None,
        };
        if eof {
            it.it = finder.candidates_from(&buf, pos, usize::MAX);
        }
        it.it.jump(pos, floor);
        for r in it.by_ref() {
            let span = r.as_match().span();
            let (line, column) = match lines {
                true => counter.at(&buf, abs, abs + span.start as u64),
                false => (0, 0),
            };
            let at = Position {
                start: abs + span.start as u64,
                end: abs + span.end as u64,
                line,
                column,
            };
            if !sink(&at, &r) {
                return error.map_or(Ok(()), Err);
            }
        }
        if eof {
            return error.map_or(Ok(()), Err);
        }
        let (need, next) = match it.deferred {
            Some((state, need)) => (need, state),
            None if it.it.incomplete() => {
                let p = it.it.pending();
                // Double the held part: an unfinished candidate costs
                // linear time however the reader splits it.
                let k = p.saturating_sub(LOOK_BEHIND);
                (k + 2 * (buf.len() - k), (p, it.it.resume()))
            }
            None => (0, (buf.len(), it.it.resume())),
        };
        (pos, floor) = next;
        let keep = pos.saturating_sub(LOOK_BEHIND);
        if lines {
            counter.skip_to(&buf, abs, abs + keep as u64);
        }
        buf.drain(..keep);
        abs += keep as u64;
        pos -= keep;
        floor = floor.saturating_sub(keep);
        // At least a window's worth past what is needed: each round moves on.
        want = need.saturating_sub(keep) + capacity.max(REPAIR_READ);
    }
}

/// Reads into `buf` until it holds `want` bytes or the input ends;
/// whether it ended. A read error ends it too, kept in `error`.
fn fill<R: Read>(
    rdr: &mut R,
    buf: &mut Vec<u8>,
    want: usize,
    error: &mut Option<io::Error>,
) -> bool {
    while buf.len() < want {
        let len = buf.len();
        buf.resize(want, 0);
        match read_retry(|b| rdr.read(b), &mut buf[len..]) {
            Ok(0) => {
                buf.truncate(len);
                return true;
            }
            Ok(n) => buf.truncate(len + n),
            Err(e) => {
                buf.truncate(len);
                *error = Some(e);
                return true;
            }
        }
    }
    false
}

/// A soft break in or right after `span`, or `=3D` in it.
fn needs_repair(hay: &[u8], span: Span) -> bool {
    let Some(text) = hay.get(span.start..span.end) else { return false };
    let after = hay.get(span.end..).unwrap_or(&[]);
    let soft = |s: &[u8]| s.starts_with(b"=\n") || s.starts_with(b"=\r\n");
    let eol = |s: &[u8]| s.starts_with(b"\n") || s.starts_with(b"\r\n");
    soft(after)
        || (text.ends_with(b"=") && eol(after))
        || memmem::find(text, b"=\n").is_some()
        || memmem::find(text, b"=\r\n").is_some()
        || memmem::find(text, b"=3D").is_some()
}

/// Whether `url` ends with a query parameter name (`?name`, `&name` or
/// `;name`), so that an `=` after it separates a value.
fn ends_with_query_name(url: &[u8]) -> bool {
    let tail = url.iter().rev().position(|b| b"?&;=/#".contains(b));
    match tail {
        Some(k) if k > 0 => b"?&;".contains(&url[url.len() - 1 - k]),
        _ => false,
    }
}

/// Joins and decodes from `span.start`, scans again, and returns the
/// repaired match (span in `hay`) and where it ends in `hay`.
fn repair_at(
    finder: &Finder,
    hay: &[u8],
    span: Span,
) -> Option<(Match<'static>, usize)> {
    let cap = 8192;
    let (mut out, mut map) = (Vec::new(), Map::default());
    let mut i = span.start;
    let last = hay.len().min(span.start.saturating_add(REPAIR_READ));
    while i < last && out.len() < cap {
        let b = hay[i];
        let rest = &hay[i..];
        let soft = if rest.starts_with(b"=\n") {
            2
        } else if rest.starts_with(b"=\r\n") {
            3
        } else {
            0
        };
        if soft > 0 {
            if ends_with_query_name(&out) {
                // `?sid=` then a line break: a hard break after the `=`
                // of a query parameter, not a soft one; keep the `=`.
                map.copy(out.len(), i, 1);
                out.push(b'=');
            }
            i += soft;
        } else if rest.starts_with(b"=3D") {
            map.unit(out.len(), i, 3);
            out.push(b'=');
            i += 3;
        } else if i >= span.end
            && (b.is_ascii_whitespace() || b"<>\"".contains(&b))
        {
            break;
        } else {
            map.copy(out.len(), i, 1);
            out.push(b);
            i += 1;
        }
    }
    let c = finder.candidates(&out).next()?;
    let m = c.into_result().ok()?;
    if m.span.start != 0 {
        return None;
    }
    let (start, end) = map.range(m.span.start, m.span.end);
    if hay.get(start..end) == Some(&out[m.span.start..m.span.end]) {
        // Nothing was repaired after all.
        return None;
    }
    let url = Cow::Owned(m.url().to_vec());
    Some((Match { span: Span { start, end }, url, ..m.into_owned() }, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn urls(text: &[u8]) -> Vec<(String, bool)> {
        let f = Finder::new();
        repair_iter(&f, text)
            .map(|r| {
                (
                    String::from_utf8_lossy(r.as_match().url()).into_owned(),
                    r.is_repaired(),
                )
            })
            .collect()
    }

    #[test]
    fn repairs_only_what_needs_it() {
        let got =
            urls(b"a http://a.b/c d <http://e.f/g=\nh> http://i.j/k=3Dl\n");
        assert_eq!(
            got,
            [
                ("http://a.b/c".into(), false),
                ("http://e.f/gh".into(), true),
                ("http://i.j/k=l".into(), true)
            ]
        );
        assert_eq!(
            urls(b"http://a.b/?x=1 y=\nz"),
            [("http://a.b/?x=1".into(), false)]
        );
        let got = urls(b"http://a.b/?sid=\n12&t=3D1 x");
        assert_eq!(got, [("http://a.b/?sid=12&t=1".into(), true)]);
        let got = urls(b"http://a.b/?q=3d-x");
        assert_eq!(got, [("http://a.b/?q=3d-x".into(), false)]);
    }

    #[test]
    fn broken_host_is_repaired() {
        assert_eq!(
            urls(b"http://exam=\r\nple.com/ ok"),
            [("http://example.com/".into(), true)]
        );
    }

    /// A reader that hands out at most a few bytes a call (sizes from a
    /// small generator), and fails at `fail_at` when given.
    struct Trickle<'a> {
        rest: &'a [u8],
        seed: u64,
        fail_at: Option<usize>,
        read: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.fail_at.is_some_and(|f| self.read >= f) {
                return Err(io::Error::other("broken"));
            }
            self.seed =
                self.seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            let mut n = 1 + (self.seed >> 33) as usize % 9000;
            if let Some(f) = self.fail_at {
                n = n.min(f - self.read);
            }
            let n = n.min(buf.len()).min(self.rest.len());
            buf[..n].copy_from_slice(&self.rest[..n]);
            self.rest = &self.rest[n..];
            self.read += n;
            Ok(n)
        }
    }

    /// Text full of what repair and the window rule meet: soft breaks,
    /// `=3D`, wrapped and bracketed URLs, long runs of soft breaks past
    /// REPAIR_READ, long candidates, from a seeded generator.
    fn hostile(seed: u64, len: usize) -> Vec<u8> {
        let pieces: [&[u8]; 14] = [
            b"http://exam=\nple.com/pa=\nth ",
            b"see http://a.example/?sid=\n12&t=3D1 x\n",
            b"<URL:http://wrap.example/\n  more/path>\n",
            b"<http://b.example/long=\r\ner> ",
            b"=\n",
            b"word ",
            b"\n",
            b"http://c.example/q=3d-x ",
            b"mailto:someone@d.example=\n.org ",
            b"\"http://e.example/=3D=3D\" ",
            b"(http://f.example/x_(y)) ",
            b"http://g.example/",
            b"<URL:http://never.closed.example/ ",
            b"ftp://h.example/a=\n",
        ];
        let mut out = Vec::with_capacity(len + 64);
        let mut x = seed;
        while out.len() < len {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let k = (x >> 33) as usize;
            match k % 397 {
                // A run of soft breaks longer than REPAIR_READ after a URL.
                0 => {
                    out.extend_from_slice(b"http://soft.example/a");
                    for _ in 0..(REPAIR_READ / 2 + k % 5000) {
                        out.extend_from_slice(b"=\n");
                    }
                }
                // A long path, past a window's usual reach.
                1 => {
                    out.extend_from_slice(b"http://long.example/");
                    out.extend(std::iter::repeat_n(b'p', 40_000 + k % 30_000));
                    out.extend_from_slice(b"=3D ");
                }
                // A long stretch without a URL: the window may end in the
                // middle of the next candidate, not only before a repair.
                2..=5 => out.extend(b"word ".repeat(4000 + k % 9000)),
                _ => out.extend_from_slice(pieces[k % pieces.len()]),
            }
        }
        out
    }

    type Found = Vec<(u64, u64, u64, u64, Vec<u8>, bool)>;

    fn windowed(f: &Finder, rdr: impl Read, cap: usize) -> (Found, bool) {
        let mut got = Vec::new();
        let r = repair_windows(f, rdr, cap, true, |at, r| {
            let url = r.as_match().url().to_vec();
            got.push((
                at.start,
                at.end,
                at.line,
                at.column,
                url,
                r.is_repaired(),
            ));
            true
        });
        (got, r.is_err())
    }

    fn whole(f: &Finder, text: &[u8]) -> Found {
        let mut lines = LineCounter::default();
        repair_iter(f, text)
            .map(|r| {
                let s = r.as_match().span();
                let (line, col) = lines.at(text, 0, s.start as u64);
                let url = r.as_match().url().to_vec();
                (s.start as u64, s.end as u64, line, col, url, r.is_repaired())
            })
            .collect()
    }

    #[test]
    fn windows_equal_whole() {
        let f = Finder::new();
        for seed in 0..6 {
            let text = hostile(seed, 400_000);
            let want = whole(&f, &text);
            assert!(want.iter().filter(|w| w.5).count() > 100, "seed {seed}");
            for cap in [1, 4096, 200_000] {
                let rdr =
                    Trickle { rest: &text, seed, fail_at: None, read: 0 };
                let (got, failed) = windowed(&f, rdr, cap);
                assert!(!failed);
                assert!(got == want, "seed {seed} capacity {cap}");
            }
        }
    }

    #[test]
    fn window_ending_inside_a_candidate() {
        // The first window ends at every byte of a URL (and of its
        // wrapper): the scan waits for the rest instead of losing it.
        let f = Finder::new();
        let mut text = b"word ".repeat(1000);
        let at = text.len();
        text.extend_from_slice(b"<URL:http://straddle.example/a=\n b/c=3Dd> ");
        text.extend_from_slice(b"http://next.example/x=\ny ");
        let want = whole(&f, &text);
        assert_eq!(want.len(), 2);
        for n in at - 8..at + 48 {
            // The first window is `n` bytes: a window's capacity.
            let (got, failed) = windowed(&f, &text[..], n);
            assert!(!failed);
            assert!(got == want, "first window of {n} bytes: {got:?}");
        }
    }

    #[test]
    fn window_stays_bounded() {
        // 8 MiB of soft breaks and URLs: the window never holds it all.
        let f = Finder::new();
        let text: Vec<u8> = b"http://a.example/x=\n=\ny z\n".repeat(300_000);
        let mut most = 0;
        let mut n = 0;
        let rdr = Trickle { rest: &text, seed: 7, fail_at: None, read: 0 };
        // The sink sees positions only; the window's size is read through
        // how far a match lies behind what was read.
        let reads = std::cell::Cell::new(0usize);
        let counting = CountRead { inner: rdr, total: &reads };
        repair_windows(&f, counting, 4096, false, |at, _| {
            n += 1;
            most = most.max(reads.get() - at.start as usize);
            true
        })
        .unwrap();
        assert_eq!(n, 300_000);
        assert!(most < 4 * REPAIR_READ + 64 * 1024, "held {most} bytes");
    }

    struct CountRead<'c, R> {
        inner: R,
        total: &'c std::cell::Cell<usize>,
    }

    impl<R: Read> Read for CountRead<'_, R> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.total.set(self.total.get() + n);
            Ok(n)
        }
    }

    #[test]
    fn read_error_keeps_what_was_read() {
        let f = Finder::new();
        let text = hostile(3, 300_000);
        let fail_at = 200_000;
        let rdr =
            Trickle { rest: &text, seed: 3, fail_at: Some(fail_at), read: 0 };
        let (got, failed) = windowed(&f, rdr, 4096);
        assert!(failed);
        assert_eq!(got, whole(&f, &text[..fail_at]));
    }
}
