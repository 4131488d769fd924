//! Trigger search: the only code that looks at every byte.
//!
//! Every candidate, whatever its kind, contains the colon that ends its
//! scheme (`http:`, `mailto:`, and `URL:` for wrappers), so a colon is
//! where the scanner looks. But a colon alone is a poor trigger on real
//! mail: every header line has one (`Subject:`, `Received:`, times like
//! `12:34:56`), 1 byte in 67 to 182 on the corpora against 1 in 640 to
//! 1,800 for `://`. A trigger is therefore a colon that passes a cheap
//! test of the bytes around it ([`may_start`]), a necessary condition for
//! [`super::Config::at_trigger`] to find a candidate there:
//!
//! ```text
//! colon c is a trigger when
//!   hay[c+1..c+3] == "//", or those bytes are past the window; or
//!   hay[c+1] != '<' and
//!   the scheme-byte run before c (walked back exactly as at_trigger does,
//!   never before the floor) holds a name whose byte before is '<', '"'
//!   or "'" (wrappers and delimited URLs); or the name is mailto/news/urn (bare
//!   opaque URLs, any case)
//! ```
//!
//! Most colons are settled by a first look at the 16 bytes before them
//! (32 for long header names) in 8-byte words, a word at a time
//! ([`surely_not_named`]): the nearest byte that cannot be in a scheme
//! (below `+` or above 127: the newline before a header name, the space
//! before a time) bounds the run, and when it is not `"` or `'` and no `<`
//! follows it, only the name can still make a trigger, which an `o`, `s`
//! or `n` before the colon and a compare with the three opaque names
//! settle. Only the rest (1 colon in 19 on the SpamAssassin spool, nearly
//! all of them `<mailto:`) takes the exact walk back ([`named`]). The
//! first look only says "no" where the walk does: the trigger set is the
//! same.
//!
//! Every other colon would make `at_trigger` return "nothing" without
//! looking past the window, so skipping it changes no result, in the
//! slice or the stream. The SIMD search ([`Triggers::Simd`]: `memchr` for
//! the colon) and the naive one ([`Triggers::Naive`]: one byte at a time)
//! apply the same test; the naive one is the oracle of the tests, and the
//! scanner's tests also run with every colon as a trigger
//! ([`Triggers::EveryColon`]) to prove the test only drops colons that
//! yield nothing.
//!
//! On x86-64 with AVX2 the SIMD search calls `memchr`'s AVX2 searcher
//! directly (built once): the search stops at every colon, and going
//! through `memchr::memchr_iter` paid its run-time CPU dispatch at each
//! of them: 63 instructions per colon of the SpamAssassin spool, 37 now.

use super::{names, Finds};
use crate::parse::{is_bare_opaque, lanes_within, MAX_SCHEME_LEN};

/// What a trigger byte starts: the seam between the one search over
/// the bytes and the small scanner of each kind (as linkify dispatches
/// on `:`, `@` and `.`). The scheme trigger is always on; the others
/// only with their detector ([`Finds`]), so the default search is the
/// colon search alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// The `:` that ends a scheme: [`super::Config::at_trigger`].
    Scheme,
    /// The `@` of an e-mail address: [`names::email`].
    Address,
    /// The first `.` of a name: [`names::www`] after `www`, else
    /// [`names::host`] (a domain name, or the host of a network-path
    /// reference after `//`).
    Name,
    /// The `.` of a dot token (`[.]`, `(.)`, `{.}`) with
    /// `Finds::DEFANGED`: [`super::defanged::name`].
    Defanged,
    /// The first `.` of a host whose first label starts at this offset,
    /// opened so: the test's answer, handed to [`names::host_at`] so that
    /// the label is not walked twice.
    Host(usize, names::Opened),
}

/// How triggers are found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Triggers {
    /// `memchr` for the colon (SIMD where the CPU has it), then the cheap
    /// test of the bytes around it.
    #[default]
    Simd,
    /// One byte at a time, the same test; the test oracle.
    Naive,
    /// Every colon is a trigger (`memchr`), with no test: the oracle for
    /// the test itself, and the trigger set before it (slow on mail).
    /// With detectors on, every `@` and `.` of theirs too, and the
    /// scanner goes on one byte after each trigger that found nothing
    /// (no skip past a refused name).
    EveryColon,
}

impl Triggers {
    /// Index of the first trigger at or after `from`, or `None`. `floor`
    /// is the scanner's look-behind limit.
    #[inline]
    pub(crate) fn find(
        self,
        hay: &[u8],
        from: usize,
        floor: usize,
    ) -> Option<usize> {
        let rest = hay.get(from..)?;
        match self {
            Triggers::Simd => {
                #[cfg(target_arch = "x86_64")]
                if let Some(one) = avx2_colon() {
                    return colon_walk(hay, from, floor, |h| one.find(h));
                }
                colon_walk(hay, from, floor, |h| memchr::memchr(b':', h))
            }
            Triggers::Naive => (from..)
                .zip(rest)
                .find(|&(c, &b)| b == b':' && may_start(hay, c, floor))
                .map(|(c, _)| c),
            Triggers::EveryColon => {
                memchr::memchr(b':', rest).map(|i| from + i)
            }
        }
    }
}

impl Triggers {
    /// Index and kind of the first trigger at or after `from`, with the
    /// detectors of `finds` on. With none on this is [`Triggers::find`];
    /// else one search for `:`, `@` and `.` (`memchr3`, or a byte at a
    /// time for [`Triggers::Naive`]) and the test of each byte's kind:
    /// [`may_start`] for `:`, [`names::may_address`] for `@`,
    /// [`names::may_name`] or [`names::host_start`] for `.`.
    /// [`Triggers::EveryColon`]
    /// keeps every such byte of a kind that is on, untested: the oracle.
    #[inline]
    pub(crate) fn find_kind(
        self,
        hay: &[u8],
        from: usize,
        floor: usize,
        finds: Finds,
    ) -> Option<(usize, Trigger)> {
        if finds.is_empty() {
            return self.find(hay, from, floor).map(|c| (c, Trigger::Scheme));
        }
        let rest = hay.get(from..)?;
        let on = On {
            test: self != Triggers::EveryColon,
            email: finds.contains(Finds::EMAIL),
            www: finds.contains(Finds::WWW),
            domain: finds.contains(Finds::DOMAIN),
            network_path: finds.contains(Finds::NETWORK_PATH),
            defanged: finds.contains(Finds::DEFANGED),
        };
        let names = on.www || on.domain || on.network_path || on.defanged;
        if self == Triggers::Naive {
            return (from..from + rest.len())
                .find_map(|i| on.kind(hay, i, floor).map(|t| (i, t)));
        }
        // Only the bytes of the detectors that are on: `.` is common in
        // text, `@` is not. With AVX2 the searchers are called directly
        // (built once), as for the colon: `memchr3_iter` paid its CPU
        // dispatch at every stop, a third of its cost per stop here.
        #[cfg(target_arch = "x86_64")]
        if let Some(set) = avx2_sets() {
            return match (names, on.email) {
                (false, _) => on.first(hay, from, floor, |h| set.at.find(h)),
                (true, false) => {
                    on.first(hay, from, floor, |h| set.dot.find(h))
                }
                (true, true) => {
                    on.first(hay, from, floor, |h| set.all.find(h))
                }
            };
        }
        match (names, on.email) {
            (false, _) => {
                on.first(hay, from, floor, |h| memchr::memchr2(b':', b'@', h))
            }
            (true, false) => {
                on.first(hay, from, floor, |h| memchr::memchr2(b':', b'.', h))
            }
            (true, true) => on.first(hay, from, floor, |h| {
                memchr::memchr3(b':', b'@', b'.', h)
            }),
        }
    }
}

/// The detectors that are on, and whether their bytes are tested.
#[derive(Clone, Copy)]
struct On {
    test: bool,
    email: bool,
    www: bool,
    domain: bool,
    network_path: bool,
    defanged: bool,
}

impl On {
    /// The first kept trigger at or after `from`; `find` gives the next
    /// byte of the set in a slice. One loop with the test inlined in it,
    /// not a closure called through an iterator adapter at every stop.
    #[inline(always)]
    fn first(
        self,
        hay: &[u8],
        from: usize,
        floor: usize,
        find: impl Fn(&[u8]) -> Option<usize>,
    ) -> Option<(usize, Trigger)> {
        let mut at = from;
        while let Some(i) = hay.get(at..).and_then(&find) {
            let c = at + i;
            if let Some(t) = self.kind(hay, c, floor) {
                return Some((c, t));
            }
            // A refused colon before `:` or `/`: as in [`colon_walk`].
            if self.test
                && hay[c] == b':'
                && matches!(hay.get(c + 1), Some(b':' | b'/'))
            {
                match self.dense(hay, c, floor) {
                    Ok(t) => return Some((t, Trigger::Scheme)),
                    Err(resume) => {
                        at = resume;
                        continue;
                    }
                }
            }
            at = c + 1;
        }
        None
    }

    /// [`dense`] from the refused colon at `c`, stopping at the trigger
    /// bytes of the detectors that are on. Out of line: only colon-dense
    /// text gets here.
    #[inline(never)]
    fn dense(
        self,
        hay: &[u8],
        c: usize,
        floor: usize,
    ) -> Result<usize, usize> {
        let names =
            self.www || self.domain || self.network_path || self.defanged;
        match (self.email, names) {
            (false, false) => dense::<false, false>(hay, c, floor),
            (true, false) => dense::<true, false>(hay, c, floor),
            (false, true) => dense::<false, true>(hay, c, floor),
            (true, true) => dense::<true, true>(hay, c, floor),
        }
    }

    /// The kind of trigger the byte at `i` is, if it is one: one branch
    /// on the byte, then its test.
    #[inline(always)]
    fn kind(self, hay: &[u8], i: usize, floor: usize) -> Option<Trigger> {
        let test = self.test;
        match hay.get(i) {
            Some(b':') if !test || may_start(hay, i, floor) => {
                Some(Trigger::Scheme)
            }
            Some(b'@')
                if self.email
                    && (!test || names::may_address(hay, i, floor)) =>
            {
                Some(Trigger::Address)
            }
            // An exact test, the same for the oracle: a dot token is
            // a defanged name's, never a `www.` or domain's.
            Some(b'.')
                if self.defanged && super::defanged::token_dot(hay, i) =>
            {
                Some(Trigger::Defanged)
            }
            Some(b'.') if self.www || self.domain || self.network_path => {
                // Both tests want a letter or digit after the dot (or the
                // window's end): most sentence ends fail here.
                if test
                    && !hay.get(i + 1).is_none_or(|&b| {
                        b.is_ascii_alphanumeric() || b >= 0x80
                    })
                {
                    return None;
                }
                if !test || (self.www && names::may_name(hay, i, floor)) {
                    return Some(Trigger::Name);
                }
                if !(self.domain || self.network_path) {
                    return None;
                }
                // `//` alone: no `/` in reach before the dot, no label
                // walk (most dots of text).
                if !self.domain && !names::may_follow_slashes(hay, i, floor) {
                    return None;
                }
                match names::host_start(hay, i, floor)? {
                    (s, names::Opened::Name) if self.domain => {
                        Some(Trigger::Host(s, names::Opened::Name))
                    }
                    (s, names::Opened::Slashes) if self.network_path => {
                        Some(Trigger::Host(s, names::Opened::Slashes))
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The first colon at or after `from` that passes [`may_start`];
/// `find` gives the first colon of a slice. One loop with the test inlined,
/// no iterator state kept across the test (as [`On::first`]).
/// At a refused colon followed by another or by a `/` (`::` and `:/x`,
/// rare on mail: C++ names, IPv6, `:/:/`) the search hands over to
/// [`dense`], which looks at the 8 bytes after a refused colon as one
/// word: on `::::` a search call per colon cost ~33 instructions, the
/// word ~2 a byte. Sparse colons (mail headers) take the plain loop, as
/// before.
#[inline(always)]
fn colon_walk(
    hay: &[u8],
    from: usize,
    floor: usize,
    find: impl Fn(&[u8]) -> Option<usize>,
) -> Option<usize> {
    let mut at = from;
    while let Some(i) = hay.get(at..).and_then(&find) {
        let c = at + i;
        if may_start(hay, c, floor) {
            return Some(c);
        }
        at = c + 1;
        // `::` and `:/` (`:/:/`); one compare: `b | 0x15` is `?` for
        // `:` and `/` (and for `*+.;>?`, rare after a colon).
        if hay.get(c + 1).is_some_and(|&b| b | 0x15 == b'?') {
            match dense::<false, false>(hay, c, floor) {
                Ok(t) => return Some(t),
                Err(resume) => at = resume,
            }
        }
    }
    None
}

/// From the refused colon at `c`, the 8 bytes after it as one word, its
/// colons walked bit by bit ([`equal_bytes`]), word after word while the
/// last byte of each is a colon: `Ok` with the first trigger, or `Err`
/// with where the search for the next colon goes on (no trigger before).
/// With `AT` (`DOT`) the walk also stops at the first `@` (`.`), the
/// trigger bytes of the detectors that are on: `Err` with its index,
/// where the search for every trigger byte goes on. Out of line: only
/// colon-dense text gets here.
#[inline(never)]
fn dense<const AT: bool, const DOT: bool>(
    hay: &[u8],
    mut c: usize,
    floor: usize,
) -> Result<usize, usize> {
    loop {
        let Some(word) =
            hay.get(c + 1..c + 9).and_then(|w| <[u8; 8]>::try_from(w).ok())
        else {
            return Err(c + 1);
        };
        let w = u64::from_le_bytes(word);
        let base = c + 1;
        // A colon with no scheme byte before it (the byte before the
        // word is the colon at `c`) is no trigger unless `//` or `]`
        // follows it, or the window ends in those two bytes: its scheme
        // run is empty ([`named`] says no). The followers of the last
        // two bytes are the two after the word, when the window has them.
        let colons = equal_bytes(w, b':');
        let after_colon = (colons << 8) | 0x80;
        let (next, next2) = match hay.get(base + 8..base + 10) {
            Some(&[a, b]) => (
                (w >> 8) | u64::from(a) << 56,
                (w >> 16) | u64::from(a) << 48 | u64::from(b) << 56,
            ),
            // Unknown: `/`, so that those colons are tested.
            _ => (
                (w >> 8) | u64::from(b'/') << 56,
                (w >> 16) | u64::from_le_bytes([0, 0, 0, 0, 0, 0, b'/', b'/']),
            ),
        };
        // Scheme bytes before the colons that follow none (`::::` has
        // none to ask about), `//` after them, `]` for `[:]`.
        let lone = colons & !after_colon;
        let named = match lone {
            0 => 0,
            _ => lone & scheme_lanes((w << 8) | u64::from(b':')),
        };
        let slash = colons & equal_bytes(next, b'/');
        let slashes = match slash {
            0 => 0,
            _ => slash & equal_bytes(next2, b'/'),
        };
        let mut mask = named | slashes | (colons & equal_bytes(next, b']'));
        // The other trigger bytes: the colons before the first are this
        // walk's, the rest the search's.
        let others = match (AT, DOT) {
            (false, false) => 0,
            (true, false) => equal_bytes(w, b'@'),
            (false, true) => equal_bytes(w, b'.'),
            (true, true) => equal_bytes(w, b'@') | equal_bytes(w, b'.'),
        };
        let other =
            (others != 0).then(|| (others.trailing_zeros() / 8) as usize);
        if let Some(j) = other {
            mask &= (1u64 << (8 * j)).wrapping_sub(1);
        }
        while mask != 0 {
            let k = base + (mask.trailing_zeros() / 8) as usize;
            mask &= mask - 1;
            if !after_scheme_byte(hay, k, floor)
                && !slashes_after(hay, k)
                && !bracketed(hay, k)
            {
                continue;
            }
            if may_start(hay, k, floor) {
                return Ok(k);
            }
        }
        if let Some(j) = other {
            return Err(base + j);
        }
        // None was a trigger: go on after the word's last byte, in the
        // next word when that byte is a (refused) colon.
        if word[7] != b':' {
            return Err(base + 8);
        }
        c = base + 7;
    }
}

/// The bytes of the 8-byte word `w` (the first byte lowest) that are
/// scheme bytes ([`SCHEME`]: a letter, a digit, `+`, `-` or `.`): the
/// high bit of byte `i` set exactly when byte `i` is one.
#[inline(always)]
fn scheme_lanes(w: u64) -> u64 {
    const LOWS: u64 = u64::from_ne_bytes([0x7f; 8]);
    const CASE: u64 = u64::from_ne_bytes([0x20; 8]);
    let x = w & LOWS;
    let letters = lanes_within(x | CASE, b'a', b'z');
    let signs = lanes_within(x, b'+', b'9')
        & !lanes_within(x, b',', b',')
        & !lanes_within(x, b'/', b'/');
    (letters | signs) & !w
}

/// Whether the colon at `c` stands in `[:]`, as a defanged scheme's
/// colon does (`hxxps[:]//`): a trigger, like `//` after a colon.
#[inline(always)]
fn bracketed(hay: &[u8], c: usize) -> bool {
    c.checked_sub(1).and_then(|p| hay.get(p)) == Some(&b'[')
        && hay.get(c + 1) == Some(&b']')
}

/// Whether the byte before `c` is a scheme byte at or after the floor:
/// when not, the scheme run before `c` is empty and [`named`] says no.
#[inline(always)]
fn after_scheme_byte(hay: &[u8], c: usize, floor: usize) -> bool {
    let before = c.checked_sub(1).filter(|&p| p >= floor);
    before
        .and_then(|p| hay.get(p))
        .is_some_and(|&b| CLASS[b as usize] & SCHEME != 0)
}

/// Whether a `/` follows `c`: `//` or the window's end may follow it,
/// which [`may_start`] keeps whatever the name.
#[inline(always)]
fn slashes_after(hay: &[u8], c: usize) -> bool {
    hay.get(c + 1).is_none_or(|&b| b == b'/')
}

/// The bytes of the 8-byte word `w` (the first byte lowest) equal to `b`:
/// the high bit of byte `i` set exactly when byte `i` is `b` (no borrow
/// between bytes: the low 7 bits are added apart from the high one).
#[inline(always)]
fn equal_bytes(w: u64, b: u8) -> u64 {
    const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);
    let x = w ^ u64::from_ne_bytes([b; 8]);
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// The AVX2 searchers of the detectors' trigger sets: `:@`, `:.` and
/// `:@.`.
#[cfg(target_arch = "x86_64")]
struct Avx2Sets {
    at: memchr::arch::x86_64::avx2::memchr::Two,
    dot: memchr::arch::x86_64::avx2::memchr::Two,
    all: memchr::arch::x86_64::avx2::memchr::Three,
}

/// The AVX2 searchers of the trigger sets, when the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2_sets() -> Option<&'static Avx2Sets> {
    use memchr::arch::x86_64::avx2::memchr::{Three, Two};
    static SETS: std::sync::OnceLock<Option<Avx2Sets>> =
        std::sync::OnceLock::new();
    SETS.get_or_init(|| {
        Some(Avx2Sets {
            at: Two::new(b':', b'@')?,
            dot: Two::new(b':', b'.')?,
            all: Three::new(b':', b'@', b'.')?,
        })
    })
    .as_ref()
}

/// The AVX2 colon searcher, when the CPU has AVX2: called directly, it
/// saves `memchr`'s run-time dispatch at every colon.
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2_colon() -> Option<&'static memchr::arch::x86_64::avx2::memchr::One> {
    use memchr::arch::x86_64::avx2::memchr::One;
    static COLON: std::sync::OnceLock<Option<One>> =
        std::sync::OnceLock::new();
    COLON.get_or_init(|| One::new(b':')).as_ref()
}

/// Byte classes of [`may_start`]: [`SCHEME`] bytes (RFC 3986 §3.1:
/// `ALPHA / DIGIT / "+" / "-" / "."`), of which [`ALPHA`] are letters.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() {
            t[b] = SCHEME | ALPHA;
        } else if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') {
            t[b] = SCHEME;
        }
        b += 1;
    }
    t
};
const SCHEME: u8 = 1;
const ALPHA: u8 = 2;

/// Whether the colon at `c` may end the scheme of a candidate; `false`
/// only when [`super::Config::at_trigger`] would find nothing there.
///
/// The walk back mirrors `at_trigger`: at most [`MAX_SCHEME_LEN`] + 1
/// scheme bytes, never before `floor`; a longer run is no scheme; leading
/// bytes that are not letters are skipped. It uses a byte-class table
/// rather than `is_scheme_byte`'s chain of comparisons: this walk runs at
/// every colon of every mail header.
#[inline(always)]
pub(crate) fn may_start(hay: &[u8], c: usize, floor: usize) -> bool {
    // `//` after the colon, or not known yet: a bare URL may start here.
    match hay.get(c + 1) {
        None => return true,
        Some(b'/') => match hay.get(c + 2) {
            None | Some(b'/') => return true,
            // One `/` (`:/:/:/`, rare in mail): with no scheme byte
            // before the colon (or the floor right there) the scheme run
            // is empty and [`named`] says no. One table look spares the
            // word-wise look below, which finds no stop among `:` and
            // `/` and walks 32 bytes, then the exact walk.
            Some(_) if !after_scheme_byte(hay, c, floor) => return false,
            Some(_) => {}
        },
        // `[:]`: a defanged scheme's colon (`hxxps[:]//`).
        Some(b']') if bracketed(hay, c) => return true,
        Some(_) => {}
    }
    if surely_not_named(hay, c, floor) {
        return false;
    }
    named(hay, c, floor)
}

/// A branch-light first look at a colon not followed by `//` (most mail
/// header and time colons): `true` only when [`named`] would say no.
///
/// It looks at the 16 bytes before the colon as two 8-byte words, the
/// nearest first (then at 16 more if need be), for the nearest "stop": a byte below `+` (controls,
/// space, `"`, `'`, `(`…) or above 127, none of them a scheme byte. When the
/// nearest stop is not `"` or `'` and no `<` stands after it, the scheme run
/// before the colon starts after the stop and the byte before the name
/// is none of `<`, `"`, `'`, whatever the floor. The name then is a suffix
/// of those bytes: when they do not end with `mailto`, `news` or `urn`
/// in any case, the colon is no trigger. `false` means "look closer":
/// no stop in 32 bytes, a `<` or `"` nearer than it, too few bytes before
/// the colon, or an opaque name.
///
/// A `"`, `'` or `<` before the floor is no delimiter (`at_trigger`
/// never looks behind the floor; the run starts at it): it bounds the
/// run as any stop does (issue 32: in `"http:"http:`, the colon after
/// a closed `"http:"` took the exact walk).
#[inline(always)]
fn surely_not_named(hay: &[u8], c: usize, floor: usize) -> bool {
    let Some(from) = c.checked_sub(16) else { return false };
    let Some(
        &[a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7],
    ) = hay.get(from..c)
    else {
        return false;
    };
    let near = u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]);
    let far = u64::from_le_bytes([a0, a1, a2, a3, a4, a5, a6, a7]);
    let nearest = match stop_before(near) {
        Some((clear, lane)) => clear || from + 8 + lane < floor,
        None => match stop_before(far) {
            Some((clear, lane)) => clear || from + lane < floor,
            // Header names of 16 to 31 bytes (`Content-Transfer-Encoding`).
            None => match farther(hay, from, floor) {
                Some(clear) => clear,
                None => return false,
            },
        },
    };
    if !nearest {
        return false;
    }
    // `mailto`, `news`, `urn`: tested only after an `o`, `s` or `n`.
    if !matches!(b7 | 0x20, b'o' | b's' | b'n') {
        return true;
    }
    // The last 8 bytes, folded to lower case (a superset: `|0x20` also
    // maps some non-letters onto letters).
    let low = near | u64::from_ne_bytes([0x20; 8]);
    let opaque = low >> 16 == u64::from_le_bytes(*b"mailto\0\0")
        || low >> 32 == u64::from_le_bytes(*b"news\0\0\0\0")
        || low >> 40 == u64::from_le_bytes(*b"urn\0\0\0\0\0");
    !opaque
}

/// [`stop_before`] on the 16 bytes before `to`, the nearest word first,
/// a delimiter before `floor` taken as a stop (see [`surely_not_named`]);
/// `None` also when there are fewer than 16. Out of line: rarely needed.
#[inline(never)]
fn farther(hay: &[u8], to: usize, floor: usize) -> Option<bool> {
    let from = to.checked_sub(16)?;
    let &[a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7] =
        hay.get(from..to)?
    else {
        return None;
    };
    let near = u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]);
    let far = u64::from_le_bytes([a0, a1, a2, a3, a4, a5, a6, a7]);
    match stop_before(near) {
        Some((clear, lane)) => Some(clear || from + 8 + lane < floor),
        None => {
            stop_before(far).map(|(clear, lane)| clear || from + lane < floor)
        }
    }
}

/// In the 8 bytes `w` (the first byte lowest): `None` when none is a stop
/// (see [`surely_not_named`]) or a `<`; else whether the last of them is
/// a stop other than `"` and `'` (`true`) rather than a `<`, `"` or `'`
/// (`false`), and its index in `w`.
#[inline(always)]
fn stop_before(w: u64) -> Option<(bool, usize)> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const ANGLE: u64 = u64::from_ne_bytes([b'<'; 8]);
    const PLUS: u64 = u64::from_ne_bytes([b'+'; 8]);
    // Bytes below `+` (`"` among them) or above 127, exactly: with the
    // high bit set first, no byte borrows from the next.
    let stops = (!((w | HIGHS) - PLUS) | w) & HIGHS;
    // `<`, none missed; a `=` right after a `<` may be flagged too (the
    // borrow), and `=` is no scheme byte either: it bounds the run too.
    let x = w ^ ANGLE;
    let angles = x.wrapping_sub(ONES) & !x & HIGHS;
    let any = stops | angles;
    if any == 0 {
        return None;
    }
    // The last flagged byte: the high bit of byte `i` is bit `8 * i + 7`.
    let shift = 56 - any.leading_zeros();
    let last = (w >> shift) as u8;
    Some((!matches!(last, b'"' | b'\'' | b'<'), shift as usize / 8))
}

/// The exact test of the name before the colon at `c` (not followed by
/// `//`): whether `at_trigger` may find a delimited or a bare opaque URL
/// (never when a `<` follows the colon). Out of line: most colons never
/// get here.
#[inline(never)]
fn named(hay: &[u8], c: usize, floor: usize) -> bool {
    // A `<` after the colon starts nothing: it ends a bare URL there, and
    // every delimited reading (`<URL:<`, `<sip:<`, `"mailto:<`) stops at
    // it before it closes (issue 21: `<URL:` repeated stopped at each).
    // Tested here, after the first look, which settles most colons of
    // mail, and out of the search loop's code.
    if hay.get(c + 1) == Some(&b'<') {
        return false;
    }
    let lowest = floor.max(c.saturating_sub(MAX_SCHEME_LEN + 1));
    let Some(window) = hay.get(lowest..c) else { return false };
    let s = match window.iter().rposition(|&b| CLASS[b as usize] & SCHEME == 0)
    {
        Some(i) => lowest + i + 1,
        // The run reaches `lowest`: too long to be a scheme when it goes
        // on before it (and `lowest` is not the floor).
        None if lowest > floor
            && CLASS[hay[lowest - 1] as usize] & SCHEME != 0 =>
        {
            return false
        }
        None => lowest,
    };
    let Some(name_at) =
        hay[s..c].iter().position(|&b| CLASS[b as usize] & ALPHA != 0)
    else {
        return false;
    };
    let s = s + name_at;
    // `<URL:`, `<scheme:`, `"scheme:` and `'scheme:`; the wrapper and delimited
    // readers decide the rest.
    if s > floor && matches!(hay[s - 1], b'<' | b'"' | b'\'') {
        return true;
    }
    is_bare_opaque(&hay[s..c])
}

#[cfg(test)]
mod tests;
