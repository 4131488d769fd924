//! The push search: text handed over in pieces, as a decoder produces it,
//! searched as one text.
//!
//! Why not the reader search ([`super::Finder::find_reader`]): the mail
//! stream decodes a part as its bytes arrive, and the decoded text is
//! produced, not read; turning it into an `io::Read` would put a copy
//! and a callback inversion between the decoder and the scanner. The
//! window rule is the reader search's: bytes before the scan position
//! are dropped but for [`LOOK_BEHIND`], and an unfinished candidate waits
//! for the next piece, so the matches are those of a slice search over
//! the whole text, whatever the pieces.

use super::finder::{Candidate, Finder, Match};
use crate::scan::{Hay, Step, LOOK_BEHIND};

/// A search fed by [`Push::push`]; positions count from the first byte
/// ever pushed since the last [`Push::reset`].
#[derive(Debug, Default)]
pub(crate) struct Push {
    buf: Vec<u8>,
    /// Offset in the pushed text of `buf[0]`.
    abs: u64,
    /// Every trigger before `pos` has been handled; look-behind stops at
    /// `floor`.
    pos: usize,
    floor: usize,
    /// Rejected candidates passed over, not yet taken
    /// ([`Push::take_rejected`]).
    rejected: u64,
}

impl Push {
    /// Forgets everything: the next push starts a new text at offset 0.
    pub(crate) fn reset(&mut self) {
        self.buf.clear();
        (self.abs, self.pos, self.floor, self.rejected) = (0, 0, 0, 0);
    }

    /// The rejected candidates passed over since the last call (counted,
    /// not handed to the callback of [`Push::push`]).
    pub(crate) fn take_rejected(&mut self) -> u64 {
        std::mem::take(&mut self.rejected)
    }

    /// Offset in the pushed text of the oldest byte still kept: no later
    /// match starts before it.
    pub(crate) fn kept_from(&self) -> u64 {
        self.abs
    }

    /// Offset in the pushed text of the next byte to push.
    #[cfg(test)]
    pub(crate) fn end(&self) -> u64 {
        self.abs + self.buf.len() as u64
    }

    /// Bytes held.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.buf.capacity()
    }

    /// Appends `text` and hands each accepted URL found with the text so
    /// far to `found`, with the window it borrows from and the offset of
    /// that window's first byte; `eof` ends the text (a candidate still
    /// open is then decided). Returns `Err` with the callback's error, or
    /// `Ok(false)` when the callback stopped the search.
    pub(crate) fn push<E>(
        &mut self,
        finder: &Finder,
        text: &[u8],
        eof: bool,
        mut found: impl FnMut(&Match<'_>, &[u8], u64) -> Result<bool, E>,
    ) -> Result<bool, E> {
        self.buf.extend_from_slice(text);
        let cfg = &finder.inner().cfg;
        let hay = Hay { bytes: &self.buf, eof };
        let (buf, abs) = (&self.buf[..], self.abs);
        // Each URL handed over from inside the step (issue 33), rejected
        // candidates passed over there and counted; `stopped`: the
        // resume of the URL the callback stopped at, or its error.
        let mut stopped: Option<(usize, Result<(), E>)> = None;
        let mut each = |raw, resume| {
            let c = Candidate::from_raw(raw, buf);
            match found(&c.body, buf, abs) {
                Ok(true) => true,
                Ok(false) => {
                    stopped = Some((resume, Ok(())));
                    false
                }
                Err(e) => {
                    stopped = Some((resume, Err(e)));
                    false
                }
            }
        };
        let (pos, floor) = (self.pos, self.floor);
        let count = &mut self.rejected;
        let end = cfg.step_each(hay, pos, floor, usize::MAX, count, &mut each);
        let go_on = match (stopped, end) {
            (Some((resume, stop)), _) => {
                (self.pos, self.floor) = (resume, resume);
                stop?;
                false
            }
            (None, Step::Done { floor }) => {
                (self.pos, self.floor) = (self.buf.len(), floor);
                true
            }
            (None, Step::NeedMore { at, floor }) => {
                (self.pos, self.floor) = (at, floor);
                true
            }
            // Never: the pushed step hands its candidates over.
            (None, Step::Found(_, resume)) => {
                (self.pos, self.floor) = (resume, resume);
                true
            }
        };
        let keep = self.pos.saturating_sub(LOOK_BEHIND);
        if keep > 0 {
            self.buf.drain(..keep);
            self.abs += keep as u64;
            self.pos -= keep;
            self.floor = self.floor.saturating_sub(keep);
        }
        Ok(go_on)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The URLs and their offsets, pushed in pieces of `step` bytes.
    fn pushed(text: &[u8], step: usize) -> Vec<(u64, Vec<u8>)> {
        let f = Finder::new();
        let mut p = Push::default();
        let mut out = Vec::new();
        let mut collect = |m: &Match<'_>, _: &[u8], abs: u64| {
            out.push((abs + m.span().start as u64, m.url().to_vec()));
            Ok::<_, std::convert::Infallible>(true)
        };
        for piece in text.chunks(step.max(1)) {
            let Ok(_) = p.push(&f, piece, false, &mut collect);
        }
        let Ok(_) = p.push(&f, b"", true, &mut collect);
        out
    }

    #[test]
    fn pieces_find_what_the_slice_search_finds() {
        let text = b"see http://a.example/x, <URL:http://b.\n  example/y> \
            and \"mailto:c@d.example\" (http://e.example/(f)) end http://g.ex";
        let whole: Vec<_> = Finder::new()
            .find_iter(text)
            .map(|m| (m.span().start as u64, m.url().to_vec()))
            .collect();
        assert_eq!(whole.len(), 5);
        for step in [1, 2, 3, 7, 16, 64, 1000] {
            assert_eq!(pushed(text, step), whole, "pieces of {step}");
        }
    }

    /// Pushed in pieces of `step` bytes, the callback stopping the
    /// search at each URL (`Ok(false)`), or failing at it (`Err`), and
    /// the caller going on with an empty push until one finds nothing:
    /// each URL once, where it stands.
    fn stopped_at_each(
        text: &[u8],
        step: usize,
        fail: bool,
    ) -> Vec<(u64, Vec<u8>)> {
        let f = Finder::new();
        let mut p = Push::default();
        let mut out = Vec::new();
        let mut stop = |m: &Match<'_>, _: &[u8], abs: u64| {
            out.push((abs + m.span().start as u64, m.url().to_vec()));
            if fail {
                Err(())
            } else {
                Ok(false)
            }
        };
        let pieces = text.chunks(step.max(1)).map(|p| (p, false));
        for (piece, eof) in pieces.chain([(&b""[..], true)]) {
            let mut go_on = p.push(&f, piece, eof, &mut stop) == Ok(true);
            while !go_on {
                go_on = p.push(&f, b"", eof, &mut stop) == Ok(true);
            }
        }
        out
    }

    proptest::proptest! {
        /// A search stopped at a URL goes on after it: what the slice
        /// search finds, whatever the pieces.
        #[test]
        fn stopped_pushes_find_what_the_slice_search_finds(
            ix in proptest::collection::vec(0..PIECES.len(), 0..16),
            step in 1usize..40,
            fail: bool,
        ) {
            let text: Vec<u8> =
                ix.iter().flat_map(|&i| PIECES[i].iter().copied()).collect();
            let whole: Vec<_> = Finder::new()
                .find_iter(&text)
                .map(|m| (m.span().start as u64, m.url().to_vec()))
                .collect();
            proptest::prop_assert_eq!(stopped_at_each(&text, step, fail), whole);
        }
    }

    /// Pieces of text with URLs of every kind, and rejected candidates.
    const PIECES: &[&[u8]] = &[
        b"http://a.example/x ",
        b"http:// ",
        b"<URL:http://b.\n  example/y> ",
        b"\"mailto:c@d.example\" ",
        b"(http://e.example/(f)) ",
        b"http://a.b:99999/ ",
        b"www.x.example ",
        b"x ",
        b"\n",
    ];

    #[test]
    fn window_stays_bounded() {
        let f = Finder::new();
        let mut p = Push::default();
        let piece = vec![b'x'; 4096];
        for _ in 0..1000 {
            let Ok(_) = p.push(&f, &piece, false, |_, _, _| {
                Ok::<_, std::convert::Infallible>(true)
            });
        }
        assert!(p.buf.len() <= 4096 + LOOK_BEHIND, "kept {}", p.buf.len());
        assert_eq!(p.end(), 4096 * 1000);
    }
}
