//! Where the scheme-byte run before a colon starts: the first thing
//! [`super::Config::at_trigger`] asks at every scheme trigger (issue 21:
//! the walk back a byte at a time was ~32 of the ~430 instructions of a
//! `http:// ` candidate). The 8 bytes before the colon are classified as
//! one word; the walk a byte at a time ([`walk_back`], the old code and
//! the oracle of the test) runs only for runs of 8 scheme bytes or more.

use crate::parse::{self, lanes_within};

/// Where the scheme-byte run that ends at the colon `c` starts (at most
/// [`parse::MAX_SCHEME_LEN`] + 1 bytes, never before `floor`), or `None`
/// for a run too long to be a scheme. The 8 bytes before `c` are
/// classified as one word; only when all are scheme bytes, at or after
/// the floor, (or `c` is too near the start) does the walk a byte at a
/// time run ([`walk_back`]).
/// Scheme bytes: a letter (`b | 0x20` in `a..=z`, exactly the letters),
/// or `+`..=`9` but for `,` and `/`; bytes above 127 are none.
#[inline(always)]
pub(super) fn start(bytes: &[u8], c: usize, floor: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const LOWS: u64 = u64::from_ne_bytes([0x7f; 8]);
    let word = c
        .checked_sub(8)
        .and_then(|f| bytes.get(f..c))
        .and_then(|w| <[u8; 8]>::try_from(w).ok());
    let Some(word) = word else { return walk_back(bytes, c, floor) };
    let w = u64::from_le_bytes(word);
    let x = w & LOWS;
    let one = |b: u8| lanes_within(x, b, b);
    let scheme = (lanes_within(x | (ONES * 0x20), b'a', b'z')
        | (lanes_within(x, b'+', b'9') & !one(b',') & !one(b'/')))
        & !w;
    let stops = !scheme & HIGHS;
    // Bytes before the floor bound the run as a stop does (the walk never
    // goes before it; dense candidates put the floor in this word).
    if stops == 0 {
        if c - 8 < floor {
            return Some(floor);
        }
        return walk_back(bytes, c, floor);
    }
    // The last stop: the high bit of byte `i` is bit `8 * i + 7`.
    Some(floor.max(c - 8 + (63 - stops.leading_zeros() as usize) / 8 + 1))
}

/// [`start`] a byte at a time. Out of line: long names and the
/// first bytes of a window.
#[inline(never)]
fn walk_back(bytes: &[u8], c: usize, floor: usize) -> Option<usize> {
    let lowest = floor.max(c.saturating_sub(parse::MAX_SCHEME_LEN + 1));
    let window = bytes.get(lowest..c)?;
    let s = match window.iter().rposition(|&b| !parse::is_scheme_byte(b)) {
        Some(i) => lowest + i + 1,
        None => lowest,
    };
    if s == lowest && s > floor && parse::is_scheme_byte(bytes[s - 1]) {
        return None; // a run too long to be a scheme
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time start of the scheme run equals the old walk
    /// a byte at a time, at every colon and floor of random text.
    #[test]
    fn start_equals_walk_back() {
        let mixed = b"aZz09+-.,/:@`{[<\"' \n\xff\x80Hp";
        // Long runs too: past the word, and past the longest scheme.
        let runs = b"ab+.9-Z:";
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for (alphabet, len) in [0, 3, 9, 17, 40, 80]
            .into_iter()
            .flat_map(|n| [(&mixed[..], n), (&runs[..], n)])
        {
            for _ in 0..200 {
                let hay: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        alphabet[(x % alphabet.len() as u64) as usize]
                    })
                    .collect();
                for c in 0..hay.len() {
                    for floor in 0..=c {
                        assert_eq!(
                            start(&hay, c, floor),
                            walk_back(&hay, c, floor),
                            "{hay:?} c {c} floor {floor}"
                        );
                    }
                }
            }
        }
    }
}
