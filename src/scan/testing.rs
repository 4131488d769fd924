//! Test text for the scanner's property tests: pieces picked by a
//! xorshift generator, so that a failing case is the same on every run
//! and machine (no seed file needed).

/// The next state of the xorshift64 generator (Marsaglia 2003).
pub(crate) fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Pieces of `parts` chosen by [`xorshift`] from `state` (bits 8 and
/// up), appended to `text` until it holds at least `len` bytes.
pub(crate) fn pieces(
    state: &mut u64,
    parts: &[&[u8]],
    text: &mut Vec<u8>,
    len: usize,
) {
    while text.len() < len {
        let i = (xorshift(state) >> 8) as usize % parts.len();
        text.extend_from_slice(parts[i]);
    }
}
