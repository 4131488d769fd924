//! A decoder as a stage of a stream: it takes its input in pieces,
//! decodes what is settled (what later input cannot change), carries the
//! rest, and keeps the offset maps of what it decoded for as long as a
//! match may still need them.
//!
//! A stage runs the decoders of [`super::decode`] unchanged over windows of
//! its input: each window ends where the decoder's own settle rule says
//! ([`super::decode::qp_settle`] and the others), so that the windows'
//! outputs, one after the other, are the output of one call over the
//! whole input, and their maps, each kept with the offsets of its
//! window, map as the whole map would.

use super::decode;
use super::map::{Layers, Map};
use std::collections::VecDeque;

/// Which decoder a stage runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoder {
    /// Quoted-printable (RFC 2045 §6.7).
    Qp,
    /// Base64 (RFC 2045 §6.8).
    Base64,
    /// `format=flowed` (RFC 3676 §4.2).
    Flowed { delsp: bool },
    /// HTML character references.
    Html,
}

/// A line longer than this is cut without its end: stages carry at most
/// this much (plus what the last piece brought).
pub(super) const LONG_LINE: usize = 64 * 1024;

/// One decoded window: where its output and input start, and its maps
/// (base64 has two steps, the others one).
#[derive(Debug, Default)]
struct Window {
    out_start: u64,
    out_len: usize,
    in_start: u64,
    in_len: usize,
    maps: [Map; 2],
    steps: usize,
    /// The window's input, kept by the stage nearest to the stored bytes
    /// for the "decoded" test of a match.
    src: Vec<u8>,
}

impl Window {
    fn layers(&self) -> Layers<'_> {
        Layers { maps: self.maps[..self.steps].iter().collect() }
    }
}

/// A decoder over a stream; see the module docs.
#[derive(Debug)]
pub(super) struct Stage {
    decoder: Decoder,
    /// Unsettled input, starting at input offset `in_next`.
    carry: Vec<u8>,
    in_next: u64,
    out_next: u64,
    /// The output of the last [`Stage::feed`].
    out: Vec<u8>,
    /// Base64's first step.
    chars: Vec<u8>,
    wins: VecDeque<Window>,
    spare: Vec<Window>,
    keep_src: bool,
}

impl Stage {
    /// A stage whose input starts at offset `at`; `keep_src`: keep the
    /// input for [`Stage::input`].
    pub(super) fn new(decoder: Decoder, at: u64, keep_src: bool) -> Stage {
        Stage {
            decoder,
            carry: Vec::new(),
            in_next: at,
            out_next: 0,
            out: Vec::new(),
            chars: Vec::new(),
            wins: VecDeque::new(),
            spare: Vec::new(),
            keep_src,
        }
    }

    /// Decodes what `input` (appended to the carried input) settles, or
    /// everything when `eof`; the settled output is [`Stage::output`].
    pub(super) fn feed(&mut self, input: &[u8], eof: bool) {
        let from_carry = !self.carry.is_empty();
        if from_carry {
            self.carry.extend_from_slice(input);
        }
        let data: &[u8] = if from_carry { &self.carry } else { input };
        let settled = if eof {
            data.len()
        } else {
            match self.decoder {
                Decoder::Qp => decode::qp_settle(data, LONG_LINE),
                Decoder::Base64 => decode::base64_settle(data, LONG_LINE),
                Decoder::Flowed { .. } => {
                    decode::flowed_settle(data, LONG_LINE)
                }
                Decoder::Html => {
                    data.len().saturating_sub(decode::REFERENCE_REACH)
                }
            }
        };
        self.out.clear();
        let mut win = self.spare.pop().unwrap_or_default();
        for m in &mut win.maps {
            m.clear();
        }
        win.src.clear();
        let [first, second] = &mut win.maps;
        let used = match self.decoder {
            Decoder::Qp => {
                decode::quoted_printable(
                    &data[..settled],
                    &mut self.out,
                    first,
                );
                win.steps = 1;
                settled
            }
            Decoder::Base64 => {
                decode::base64(
                    &data[..settled],
                    &mut self.chars,
                    first,
                    &mut self.out,
                    second,
                );
                win.steps = 2;
                settled
            }
            Decoder::Flowed { delsp } => {
                win.steps = 1;
                decode::unflow_to(data, settled, delsp, &mut self.out, first)
            }
            Decoder::Html => {
                win.steps = 1;
                decode::html_references_to(data, settled, &mut self.out, first)
            }
        };
        win.out_start = self.out_next;
        win.out_len = self.out.len();
        win.in_start = self.in_next;
        win.in_len = used;
        if self.keep_src {
            win.src.extend_from_slice(&data[..used]);
        }
        self.in_next += used as u64;
        self.out_next += self.out.len() as u64;
        if used > 0 {
            self.wins.push_back(win);
        } else {
            self.spare.push(win);
        }
        if from_carry {
            self.carry.drain(..used);
        } else {
            self.carry.extend_from_slice(&input[used..]);
        }
    }

    /// The output of the last [`Stage::feed`].
    pub(super) fn output(&self) -> &[u8] {
        &self.out
    }

    /// Offset of the next output byte.
    #[cfg(test)]
    pub(super) fn out_end(&self) -> u64 {
        self.out_next
    }

    /// Drops the windows whose output ends at or before `out`: no match
    /// will start there. Returns the input offset from which the stage
    /// still needs its input mapped.
    pub(super) fn forget_before(&mut self, out: u64) -> u64 {
        while let Some(w) = self.wins.front() {
            if w.out_start + w.out_len as u64 > out {
                break;
            }
            if let Some(w) = self.wins.pop_front() {
                if self.spare.len() < 4 {
                    self.spare.push(w);
                }
            }
        }
        self.wins.front().map_or(self.in_next, |w| w.in_start)
    }

    fn window(&self, out: u64) -> Option<&Window> {
        let k = self.wins.partition_point(|w| w.out_start <= out);
        let w = self.wins.get(k.checked_sub(1)?)?;
        (out < w.out_start + w.out_len as u64).then_some(w)
    }

    /// The input range of output bytes `[start, end)`, as
    /// [`Layers::range`] gives it within one window; `None` when they are
    /// no longer (or not yet) held.
    pub(super) fn range(&self, start: u64, end: u64) -> Option<(u64, u64)> {
        let a = self.window(start)?;
        let local = (start - a.out_start) as usize;
        let last = end.max(start + 1) - 1;
        if last < a.out_start + a.out_len as u64 {
            let len = (last + 1 - start) as usize;
            let (s, e) = a.layers().range(local, local + len);
            return Some((a.in_start + s as u64, a.in_start + e as u64));
        }
        let (s, e) = a.layers().range(local, local + 1);
        let b = self.window(last)?;
        let bl = (last - b.out_start) as usize;
        let (_, e2) = b.layers().range(bl, bl + 1);
        Some((
            a.in_start + s as u64,
            (b.in_start + e2 as u64).max(a.in_start + e as u64),
        ))
    }

    /// Appends the input bytes `[start, end)` to `out`, when the stage
    /// keeps its input and still holds them all.
    pub(super) fn input(
        &self,
        start: u64,
        end: u64,
        out: &mut Vec<u8>,
    ) -> bool {
        let mut at = start;
        let k = self
            .wins
            .partition_point(|w| w.in_start + w.in_len as u64 <= start);
        for w in self.wins.range(k..) {
            if at >= end {
                break;
            }
            if w.in_start > at || w.src.len() != w.in_len {
                return false;
            }
            let from = (at - w.in_start) as usize;
            let to = ((end - w.in_start) as usize).min(w.in_len);
            out.extend_from_slice(&w.src[from..to]);
            at = w.in_start + to as u64;
        }
        at >= end
    }

    /// Bytes held (carry, windows, scratch), for the memory tests.
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        let wins: usize = self
            .wins
            .iter()
            .chain(&self.spare)
            .map(|w| {
                w.src.capacity() + w.maps.iter().map(Map::bytes).sum::<usize>()
            })
            .sum();
        self.carry.capacity()
            + self.out.capacity()
            + self.chars.capacity()
            + wins
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The output of a stage fed `src` in pieces of `step`, and the input
    /// range of every output byte.
    fn staged(
        d: Decoder,
        src: &[u8],
        step: usize,
    ) -> (Vec<u8>, Vec<(u64, u64)>) {
        let mut st = Stage::new(d, 0, true);
        let mut out = Vec::new();
        let mut ranges = Vec::new();
        let pieces: Vec<&[u8]> = src.chunks(step.max(1)).collect();
        for (k, piece) in pieces.iter().enumerate() {
            let start = st.out_end();
            let eof = k + 1 == pieces.len();
            st.feed(piece, eof);
            out.extend_from_slice(st.output());
            for q in start..st.out_end() {
                ranges.push(st.range(q, q + 1).unwrap_or((u64::MAX, 0)));
            }
        }
        if pieces.is_empty() {
            st.feed(b"", true);
        }
        (out, ranges)
    }

    /// The same by one call of the whole decoder.
    fn whole(d: Decoder, src: &[u8]) -> (Vec<u8>, Vec<(u64, u64)>) {
        let mut st = Stage::new(d, 0, true);
        st.feed(src, true);
        let out = st.output().to_vec();
        let ranges = (0..out.len() as u64)
            .map(|q| st.range(q, q + 1).unwrap_or((u64::MAX, 0)))
            .collect();
        (out, ranges)
    }

    #[test]
    fn pieces_decode_as_the_whole() {
        let qp = b"see http://a.example/x?y=3D1&z=\n=3D2 and =\r\nmore=20text\nend=";
        let b64 = b"aHR0cDovL2EuZXhhbXBsZS94\r\nP3k9MSBodHRwOi8v\nYi5leGFtcGxlLw==\nYQ==\n";
        let flowed =
            b"> see http://a.b/ \n> c and \n> d\nplain \n-- \nsig \nlast";
        let html = b"<a href=\"http://a.b/?x=1&amp;y=&#50;&#x33;\">&amp&lt;&copy;&nbsp;";
        for (d, src) in [
            (Decoder::Qp, &qp[..]),
            (Decoder::Base64, &b64[..]),
            (Decoder::Flowed { delsp: false }, &flowed[..]),
            (Decoder::Flowed { delsp: true }, &flowed[..]),
            (Decoder::Html, &html[..]),
        ] {
            let want = whole(d, src);
            assert!(!want.0.is_empty());
            for step in [1, 2, 3, 5, 7, 13, 64] {
                assert_eq!(
                    staged(d, src, step),
                    want,
                    "{d:?} in pieces of {step}"
                );
            }
        }
    }

    #[test]
    fn forgotten_windows_are_dropped() {
        let mut st = Stage::new(Decoder::Qp, 100, true);
        let line = b"a=3Db http://x.example/\n";
        for _ in 0..1000 {
            st.feed(line, false);
        }
        assert!(st.wins.len() == 1000);
        let end = st.out_end();
        let need = st.forget_before(end - 5);
        assert_eq!(st.wins.len(), 1);
        assert_eq!(need, 100 + 999 * line.len() as u64);
        let mut src = Vec::new();
        assert!(st.input(need, need + 5, &mut src));
        assert_eq!(src, b"a=3Db");
    }
}
