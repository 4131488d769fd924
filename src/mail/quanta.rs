//! Base64 quanta decoded (RFC 2045 §6.8): the decoder under
//! [`super::decode::base64`].
//!
//! Why `base64-simd` for the body of a run and not the `base64` crate: the
//! latter checks and decodes one character at a time (about four
//! instructions a character; 6% of a spool run's instructions); the
//! former checks and decodes 32 characters at once with SSSE3/AVX2 where
//! the CPU has them (detected at run time) and falls back to a table
//! decoder elsewhere. Its strict no-padding mode is used only on whole
//! quanta of the alphabet, where every decoder agrees; the last quantum,
//! where the lenient rules apply (padding optional, trailing bits
//! ignored), is read here. The answers are the `base64` crate's lenient
//! engine's, held to it by the tests below.

use base64_simd::AsOut;

/// The padding character (RFC 2045 §6.8).
const PAD: u8 = b'=';

/// Set for a byte outside the alphabet in [`VALUE`].
const OUTSIDE: u8 = 0xff;

/// RFC 2045 §6.8, Table 1: each byte's value, [`OUTSIDE`] for bytes that
/// are not in the alphabet.
static VALUE: [u8; 256] = {
    let alphabet =
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut t = [OUTSIDE; 256];
    let mut i = 0;
    while i < alphabet.len() {
        t[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// Decodes the base64 characters `run` into the front of `out`, which
/// must hold `run.len().div_ceil(4) * 3` bytes; returns how many bytes it
/// wrote, or `None` where the run is not one encoding:
///
/// - every character but the last one to four is in the alphabet;
/// - the last one to four (the final quantum) are two to four characters
///   of the alphabet, then optionally `=` up to the quantum's end
///   (`YQ`, `YQ=`, `YQ==`, `YWI`, `YWI=`); a lone character carries
///   fewer than 8 bits and is refused;
/// - bits left over in the final quantum are ignored.
///
/// These are the answers of the `base64` crate's `decode_slice` with
/// `DecodePaddingMode::Indifferent` and trailing bits allowed.
pub(crate) fn decode(run: &[u8], out: &mut [u8]) -> Option<usize> {
    if run.is_empty() {
        return Some(0);
    }
    // Every quantum but the last one, which may be short or padded.
    let body = (run.len() - 1) / 4 * 4;
    let (quads, last) = run.split_at(body);
    let (head, tail) = out.split_at_mut_checked(body / 4 * 3)?;
    // Whole quanta, no `=`: exactly `head.len()` bytes, so the crate's
    // length assertion holds.
    base64_simd::STANDARD_NO_PAD.decode(quads, head.as_out()).ok()?;
    Some(head.len() + last_quantum(last, tail)?)
}

/// The final quantum `last` (one to four characters) into `out`: two to
/// four characters of the alphabet, then `=` to its end or nothing.
fn last_quantum(last: &[u8], out: &mut [u8]) -> Option<usize> {
    let n = last.iter().position(|&b| b == PAD).unwrap_or(last.len());
    // Padding in the first two places, or a character after it (a run's
    // last quantum is at most four characters).
    if !(2..=4).contains(&n) || last[n..].iter().any(|&b| b != PAD) {
        return None;
    }
    let mut v = 0u32;
    for (i, &b) in last[..n].iter().enumerate() {
        let value = VALUE[usize::from(b)];
        if value == OUTSIDE {
            return None;
        }
        v |= u32::from(value) << (26 - 6 * i);
    }
    // Two characters make a byte, three two, four three.
    let len = n - 1;
    out.get_mut(..len)?.copy_from_slice(&v.to_be_bytes()[..len]);
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::{
        GeneralPurpose, GeneralPurposeConfig,
    };
    use base64::engine::DecodePaddingMode;
    use base64::Engine;
    use proptest::prelude::*;

    /// The engine [`decode`] answers as.
    const CRATE: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );

    fn ours(run: &[u8]) -> Option<Vec<u8>> {
        let mut out = vec![0; run.len().div_ceil(4) * 3];
        let n = decode(run, &mut out)?;
        out.truncate(n);
        Some(out)
    }

    fn theirs(run: &[u8]) -> Option<Vec<u8>> {
        let mut out = vec![0; run.len().div_ceil(4) * 3];
        let n = CRATE.decode_slice(run, &mut out).ok()?;
        out.truncate(n);
        Some(out)
    }

    #[test]
    fn decodes_and_refuses() {
        assert_eq!(ours(b"aHR0cDovL2EuYi8="), Some(b"http://a.b/".to_vec()));
        assert_eq!(ours(b"YQ"), Some(b"a".to_vec()));
        assert_eq!(ours(b"YQ=="), Some(b"a".to_vec()));
        assert_eq!(ours(b"YWI="), Some(b"ab".to_vec()));
        assert_eq!(ours(b"YWJj"), Some(b"abc".to_vec()));
        assert_eq!(ours(b""), Some(Vec::new()));
        assert_eq!(ours(b"Y"), None);
        assert_eq!(ours(b"YQ==YQ=="), None);
        assert_eq!(ours(b"YW=j"), None);
        assert_eq!(ours(b"Y==="), None);
        assert_eq!(ours(b"YWJj!WJj"), None);
        // Trailing bits ignored: `YR` is 'a' with two bits left over.
        assert_eq!(ours(b"YR"), Some(b"a".to_vec()));
        // An output too short is refused, never a panic.
        assert_eq!(decode(b"YWJjYWJj", &mut [0; 5]), None);
    }

    /// The cases the properties below once failed on, shrunk by proptest
    /// (they were seed files; a seed becomes a named test): 73 zero
    /// bytes then 181 others, their encoding unpadded and cut by two;
    /// and the lone `A`.
    #[test]
    fn past_failures_as_the_crate() {
        let mut data = vec![0u8; 73];
        data.extend_from_slice(&[
            1, 238, 221, 7, 87, 207, 63, 4, 101, 48, 77, 218, 155, 1, 124,
            103, 68, 216, 98, 128, 77, 174, 107, 214, 84, 100, 176, 236, 229,
            217, 254, 46, 244, 29, 32, 2, 17, 134, 197, 148, 219, 236, 58,
            165, 153, 152, 143, 196, 94, 212, 2, 14, 75, 67, 20, 251, 147, 97,
            61, 140, 100, 118, 5, 101, 202, 241, 40, 171, 83, 254, 129, 59,
            88, 75, 166, 181, 160, 47, 11, 63, 85, 53, 203, 45, 19, 233, 215,
            16, 5, 43, 164, 105, 115, 169, 229, 247, 152, 88, 66, 187, 84, 62,
            101, 16, 174, 234, 244, 174, 43, 191, 195, 3, 144, 229, 1, 202,
            56, 129, 198, 142, 162, 83, 33, 153, 169, 180, 137, 187, 45, 85,
            86, 32, 15, 130, 82, 12, 4, 255, 217, 146, 16, 196, 142, 121, 236,
            0, 6, 207, 22, 78, 75, 126, 121, 210, 149, 236, 150, 146, 23, 236,
            51, 155, 171, 37, 38, 77, 75, 30, 67, 212, 231, 24, 135, 221, 43,
            226, 57, 108, 226, 24, 55,
        ]);
        let mut enc = CRATE.encode(&data).into_bytes();
        while enc.last() == Some(&PAD) {
            enc.pop();
        }
        enc.truncate(enc.len() - 2);
        assert_eq!(ours(&enc), theirs(&enc));
        assert_eq!(ours(b"A"), theirs(b"A"));
    }

    /// Every run of up to six characters over letters at both ends of
    /// the alphabet, `+`, `/`, `=` and bytes outside it, as the crate.
    #[test]
    fn short_runs_as_the_crate() {
        let chars = b"AQz+/=!\n\x80";
        let mut run = Vec::new();
        for len in 0..=6u32 {
            for mut k in 0..chars.len().pow(len) {
                run.clear();
                for _ in 0..len {
                    run.push(chars[k % chars.len()]);
                    k /= chars.len();
                }
                assert_eq!(ours(&run), theirs(&run), "{run:?}");
            }
        }
    }

    /// A byte outside the alphabet, or `=`, at each place of a run long
    /// enough for the SIMD loop, and at each place of its last quantum.
    #[test]
    fn one_odd_byte_anywhere_as_the_crate() {
        let data: Vec<u8> = (0..=255u8).cycle().take(300).collect();
        let enc = CRATE.encode(&data).into_bytes();
        for odd in [b'=', b'!', b'\n', b'-', b'_', 0x80, 0xff, 0] {
            for at in 0..enc.len() {
                let mut run = enc.clone();
                run[at] = odd;
                assert_eq!(ours(&run), theirs(&run), "{odd} at {at}");
                run.truncate(at + 1);
                assert_eq!(ours(&run), theirs(&run), "{odd} ends {at}");
            }
        }
    }

    proptest! {
        #[test]
        fn encodings_as_the_crate(
            data in proptest::collection::vec(any::<u8>(), 0..300),
            cut in 0usize..4,
            pad in any::<bool>(),
        ) {
            let mut enc = CRATE.encode(&data).into_bytes();
            if !pad {
                while enc.last() == Some(&PAD) {
                    enc.pop();
                }
            }
            enc.truncate(enc.len().saturating_sub(cut));
            prop_assert_eq!(ours(&enc), theirs(&enc));
            if cut == 0 {
                prop_assert_eq!(ours(&enc), Some(data));
            }
        }

        #[test]
        fn hostile_runs_as_the_crate(
            run in proptest::collection::vec(
                prop_oneof![
                    8 => proptest::sample::select(
                        b"ABCXYZabcxyz0189+/".to_vec()
                    ),
                    1 => Just(PAD),
                    1 => any::<u8>(),
                ],
                0..200,
            ),
        ) {
            prop_assert_eq!(ours(&run), theirs(&run));
        }
    }
}
