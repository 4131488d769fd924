//! A small per-thread cache of verdicts: mail repeats its URLs (every
//! message of a mailing list carries the same `List-*` header URLs; 1,854
//! distinct URLs among the 14,373 of the first 8 MB of the SpamAssassin
//! spool), and a verdict depends on the URL's bytes and the level only.

use super::{Reject, Scheme, Verdict};
use std::cell::RefCell;
use std::sync::OnceLock;

/// Slots of the cache, direct-mapped by a hash of the URL.
const SLOTS: usize = 512;
/// Longer URLs are validated every time (few repeat, and a slot stays
/// small: the cache is about 60 KiB a thread).
const LONGEST: usize = 104;

#[derive(Clone, Copy)]
struct Slot {
    /// Length of the URL in `key`; 0 for an empty slot (an empty
    /// candidate is never validated).
    len: u8,
    strict: bool,
    verdict: Result<Verdict, Reject>,
    key: [u8; LONGEST],
}

const EMPTY: Slot = Slot {
    len: 0,
    strict: false,
    verdict: Err(Reject::Empty),
    key: [0; LONGEST],
};

thread_local! {
    static CACHE: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
}

/// [`super::validate`], remembering the verdicts of this thread's last
/// URLs (up to [`LONGEST`] bytes): a URL met again is compared, not parsed.
pub(crate) fn validate(url: &[u8], strict: bool) -> Result<Verdict, Reject> {
    if url.is_empty() || url.len() > LONGEST {
        return super::verdict(url, strict);
    }
    CACHE.with(|cell| {
        let Ok(mut slots) = cell.try_borrow_mut() else {
            return super::verdict(url, strict);
        };
        if slots.is_empty() {
            slots.resize(SLOTS, EMPTY);
        }
        match slots.get_mut(slot_of(url, strict)) {
            Some(slot) => through(slot, url, strict),
            None => super::verdict(url, strict),
        }
    })
}

/// The verdict on `url` (at most [`LONGEST`] bytes) from `slot` when it
/// holds that URL at that level, else from the parser, then kept there.
fn through(
    slot: &mut Slot,
    url: &[u8],
    strict: bool,
) -> Result<Verdict, Reject> {
    let len = usize::from(slot.len);
    if len == url.len() && slot.strict == strict && slot.key[..len] == *url {
        return slot.verdict;
    }
    let verdict = super::verdict(url, strict);
    let Some(key) = slot.key.get_mut(..url.len()) else {
        return verdict;
    };
    key.copy_from_slice(url);
    slot.len = url.len() as u8;
    slot.strict = strict;
    slot.verdict = verdict;
    verdict
}

/// The schemes with a grammar of their own ([`Scheme::name`] is `Some`),
/// in their order of declaration: `scheme as usize` is the index.
const OWN_GRAMMAR: [Scheme; 11] = [
    Scheme::Ftp,
    Scheme::Http,
    Scheme::Https,
    Scheme::Gopher,
    Scheme::Mailto,
    Scheme::News,
    Scheme::Nntp,
    Scheme::Telnet,
    Scheme::Wais,
    Scheme::File,
    Scheme::Prospero,
];

/// The verdict on `name://` and nothing after it, `name` any spelling of
/// `scheme`, at the level `strict`: the parser's own answer on the
/// lower-case name, asked once per process; `None` for
/// [`Scheme::Other`], whose answer the level and the name decide (generic
/// syntax allows an empty authority, RFC 3986 §3.2). The scanner meets
/// `http://` followed by a space wherever a scheme was typed alone, and
/// a text made of them (issue 21) asked the cache at each.
///
/// Every scheme with a grammar of its own decides by its [`Scheme`], not
/// by how its name is spelled (tested on every spelling).
pub(crate) fn empty_authority(
    scheme: Scheme,
    strict: bool,
) -> Option<Result<Verdict, Reject>> {
    static TABLE: OnceLock<NameTable> = OnceLock::new();
    look_up(TABLE.get_or_init(|| name_table("://")), scheme, strict)
}

/// The verdict on `name:` and nothing after it, `name` any spelling of
/// `scheme`, at the level `strict`, as [`empty_authority`] gives it for
/// `name://`: the parser's answer on the lower-case name, asked once per
/// process; `None` for [`Scheme::Other`]. The scanner meets the name
/// alone between delimiters (`"http:"`, `<mailto:>`: issue 32, `"http:`
/// repeated asked the cache at every other colon).
pub(crate) fn scheme_alone(
    scheme: Scheme,
    strict: bool,
) -> Option<Result<Verdict, Reject>> {
    static TABLE: OnceLock<NameTable> = OnceLock::new();
    look_up(TABLE.get_or_init(|| name_table(":")), scheme, strict)
}

/// The parser's verdicts on the name of each scheme with a grammar of its
/// own followed by a suffix, at both levels (lenient, strict).
type NameTable = [[Result<Verdict, Reject>; 2]; 11];

/// [`NameTable`] for `suffix`.
fn name_table(suffix: &str) -> NameTable {
    OWN_GRAMMAR.map(|scheme| {
        let url = format!("{}{suffix}", scheme.name().unwrap_or_default());
        [false, true].map(|strict| super::verdict(url.as_bytes(), strict))
    })
}

/// The verdict of `table` on `scheme` at level `strict`; `None` for
/// `Other`, declared last, past the table.
fn look_up(
    table: &NameTable,
    scheme: Scheme,
    strict: bool,
) -> Option<Result<Verdict, Reject>> {
    table.get(scheme as usize).map(|row| row[usize::from(strict)])
}

/// The slot of `url`: a hash of its length, its first and last eight
/// bytes and eight from the middle (URLs of one site share their start;
/// a collision only costs a parse).
fn slot_of(url: &[u8], strict: bool) -> usize {
    // URLs shorter than a word hash by their length and first byte.
    let word = |at: usize| {
        url.get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let n = url.len();
    let h = word(0)
        ^ word(n.saturating_sub(8)).rotate_left(21)
        ^ word((n / 2).saturating_sub(4)).rotate_left(42)
        ^ u64::from(url.first().copied().unwrap_or(0)) << 48
        ^ ((n as u64) << 1 | u64::from(strict));
    let h = h.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 55) as usize % SLOTS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`empty_authority`] and [`scheme_alone`] are the parser's answers
    /// on `name://` and `name:` for every spelling of every name with a
    /// grammar of its own, at both levels.
    #[test]
    fn empty_authority_is_the_parsers_answer_in_any_case() {
        for scheme in OWN_GRAMMAR {
            let name = scheme.name().unwrap_or_default().as_bytes();
            for case in 0..1u32 << name.len() {
                let mut url: Vec<u8> = name
                    .iter()
                    .enumerate()
                    .map(|(i, b)| match case >> i & 1 {
                        1 => b.to_ascii_uppercase(),
                        _ => *b,
                    })
                    .collect();
                assert_eq!(Scheme::from_name(&url), scheme);
                url.push(b':');
                for strict in [false, true] {
                    assert_eq!(
                        scheme_alone(scheme, strict),
                        Some(super::super::verdict(&url, strict)),
                        "{:?}",
                        String::from_utf8_lossy(&url)
                    );
                }
                url.extend_from_slice(b"//");
                for strict in [false, true] {
                    assert_eq!(
                        empty_authority(scheme, strict),
                        Some(super::super::verdict(&url, strict)),
                        "{:?}",
                        String::from_utf8_lossy(&url)
                    );
                }
            }
        }
        assert_eq!(empty_authority(Scheme::Other, false), None);
        assert_eq!(scheme_alone(Scheme::Other, true), None);
        for (i, scheme) in OWN_GRAMMAR.into_iter().enumerate() {
            assert_eq!(scheme as usize, i, "{scheme:?}");
        }
    }

    /// One slot met by URLs of one length that differ in one byte, at
    /// both levels: each answer is the parser's, never the neighbour's.
    #[test]
    fn a_slot_answers_only_for_its_own_url_and_level() {
        let mut slot = EMPTY;
        let urls: [&[u8]; 6] = [
            b"http://a_b.example/x",
            b"http://a_b.example/y",
            b"http://a_b.example/%",
            b"http://ab.example/xy",
            b"mailto:a_b@example/",
            b"http://a_b.example/x",
        ];
        let mut seen = std::collections::HashSet::new();
        // URL after URL at one level, then level after level per URL.
        for strict in [false, true, false] {
            for (i, u) in urls.iter().enumerate() {
                let want = super::super::verdict(u, strict);
                seen.insert(want);
                assert_eq!(through(&mut slot, u, strict), want, "{i}");
                // Met again at once: answered from the slot.
                assert_eq!(through(&mut slot, u, strict), want, "{i}");
            }
        }
        for (i, u) in urls.iter().enumerate() {
            for strict in [false, true, false] {
                let want = super::super::verdict(u, strict);
                assert_eq!(through(&mut slot, u, strict), want, "{i}");
            }
        }
        // The URLs and levels do get different verdicts.
        assert!(seen.len() >= 3, "{seen:?}");
    }

    /// The cached verdict is the parser's, whatever was cached before:
    /// random candidates (many colliding in 512 slots), each met several
    /// times in both levels, in shuffled order.
    #[test]
    fn cached_verdicts_equal_the_parser() {
        let pieces: &[&[u8]] = &[
            b"http://",
            b"https://",
            b"mailto:",
            b"news:",
            b"ftp://",
            b"a_b.example",
            b"h.example",
            b"/p",
            b"?q=1",
            b"#f",
            b"[::1]",
            b":99999",
            b"%zz",
            b"\xc3\xa9",
            b"\xff",
            b"x@y.example",
            b"..",
            b" ",
        ];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut urls: Vec<Vec<u8>> = Vec::new();
        for _ in 0..3000 {
            let n = 1 + next() as usize % 6;
            let mut u = Vec::new();
            for _ in 0..n {
                u.extend_from_slice(pieces[next() as usize % pieces.len()]);
            }
            urls.push(u);
        }
        // Longer than a slot holds, too.
        urls.push([b"http://h.example/".as_slice(), &[b'a'; 200]].concat());
        let mut differ = 0;
        for round in 0..4 {
            for i in 0..urls.len() {
                let u = &urls[(i * 7919 + round * 13) % urls.len()];
                for strict in [false, true] {
                    let want = super::super::verdict(u, strict);
                    assert_eq!(validate(u, strict), want, "{u:?} {strict}");
                }
                differ += usize::from(
                    super::super::verdict(u, false)
                        != super::super::verdict(u, true),
                );
            }
        }
        // The levels do differ on some of these: the key holds the level.
        assert!(differ > 0);
    }
}
