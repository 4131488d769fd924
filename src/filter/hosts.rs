//! Domain sets: `--host` and `--exclude-host` lists, matched on label
//! boundaries.
//!
//! A domain matches a host that is the domain itself or a subdomain of it
//! (RFC 1034 §3.1: a domain is the subtree below its node), so
//! `example.com` matches `a.example.com` and not `badexample.com`. Both
//! sides are brought to one form first: ASCII lower case (RFC 4343: DNS
//! names compare case-insensitively), no trailing dot (RFC 1034 §3.1: the
//! root label), and A-labels for internationalised names (RFC 5890 §2.3.2.1,
//! through UTS #46 processing with the `idna` crate), so that a U-label and
//! its A-label match each other.
//!
//! # Structure
//!
//! A host has few labels, so a host is looked up as itself and as each of
//! its label suffixes (`a.example.com`, `example.com`, `com`), only those
//! with a label count some entry has, the home slots of all of them read
//! before any is probed (their cache misses overlap). The set is an
//! open-addressing hash table of 8-byte slots (a 32-bit tag of the hash
//! and a 32-bit offset) over one arena of length-prefixed names: no
//! allocation per entry, about 33 MB for 1,000,000 generated domains. An aho-corasick automaton over
//! the reversed domains was measured against it (`benches/filter.rs`) and
//! is slower to load, larger and slower to query; see the README.

use std::hash::BuildHasher;

/// The longest domain name in its ASCII form, without a trailing dot
/// (RFC 1035 §2.3.4: 255 octets on the wire, 253 as text).
pub(crate) const MAX_NAME: usize = 253;

/// RFC 1035 §2.3.4: labels are 63 octets or less.
const MAX_LABEL: usize = 63;

/// Why a text is not a domain name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Invalid {
    /// Nothing is left once a trailing dot is removed.
    Empty,
    /// Two dots in a row, or a leading dot.
    EmptyLabel,
    /// A label longer than 63 bytes.
    LongLabel,
    /// A name longer than 253 bytes.
    LongName,
    /// A byte that no host name holds (RFC 1123 §2.1: letters, digits,
    /// hyphens; the underscore is let through, as in `_dmarc`).
    Character(u8),
    /// UTS #46 processing failed (or the bytes are not UTF-8).
    Idna,
}

impl Invalid {
    /// Says why, for an error message.
    pub(crate) fn describe(self) -> String {
        match self {
            Invalid::Empty => "it is empty".into(),
            Invalid::EmptyLabel => "it has an empty label".into(),
            Invalid::LongLabel => "a label is longer than 63 bytes".into(),
            Invalid::LongName => "it is longer than 253 bytes".into(),
            Invalid::Character(b) if b.is_ascii_graphic() || b == b' ' => {
                format!("{:?} is not allowed in a host name", char::from(b))
            }
            Invalid::Character(b) => {
                format!("byte 0x{b:02X} is not allowed in a host name")
            }
            Invalid::Idna => "it is not a valid internationalised domain \
                              name (UTS #46)"
                .into(),
        }
    }
}

/// A domain name in its one form: lower-case ASCII, A-labels, no
/// trailing dot. Lives on the stack: looking a host up allocates nothing
/// unless the host needs IDNA or percent-decoding.
pub(crate) struct Name {
    buf: [u8; MAX_NAME],
    len: usize,
}

impl Name {
    /// The name's bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }

    /// The name of `text`: a host as written in a URL or a list line.
    ///
    /// Pure LDH text is lower-cased as it is; text with other bytes is
    /// percent-decoded (RFC 3986 §3.2.2: a reg-name may be
    /// percent-encoded) and processed by UTS #46 (RFC 3987 §3.1 step 2),
    /// which maps case and width and turns U-labels into A-labels.
    pub(crate) fn parse(text: &[u8]) -> Result<Name, Invalid> {
        let ldh = text.iter().all(|&b| is_name_byte(b) || b == b'.');
        if ldh {
            return Name::ascii(text);
        }
        if text.is_ascii() && !text.contains(&b'%') {
            // Not a name whatever IDNA says; name the first bad byte.
            let bad = text
                .iter()
                .copied()
                .find(|&b| !is_name_byte(b) && b != b'.')
                .unwrap_or(b'?');
            return Err(Invalid::Character(bad));
        }
        let decoded = percent_decode(text);
        let ascii =
            idna::domain_to_ascii_cow(&decoded, idna::AsciiDenyList::EMPTY)
                .map_err(|_| Invalid::Idna)?;
        Name::ascii(ascii.as_bytes())
    }

    /// Lower-cases and checks an ASCII name; drops one trailing dot.
    fn ascii(text: &[u8]) -> Result<Name, Invalid> {
        let text = text.strip_suffix(b".").unwrap_or(text);
        if text.is_empty() {
            return Err(Invalid::Empty);
        }
        if text.len() > MAX_NAME {
            return Err(Invalid::LongName);
        }
        let mut name = Name { buf: [0; MAX_NAME], len: text.len() };
        let mut label = 0;
        for (slot, &b) in name.buf.iter_mut().zip(text) {
            if b == b'.' {
                if label == 0 {
                    return Err(Invalid::EmptyLabel);
                }
                label = 0;
            } else if is_name_byte(b) {
                label += 1;
                if label > MAX_LABEL {
                    return Err(Invalid::LongLabel);
                }
            } else {
                return Err(Invalid::Character(b));
            }
            *slot = b.to_ascii_lowercase();
        }
        Ok(name)
    }
}

/// RFC 1123 §2.1 letters, digits and hyphen, plus the underscore.
fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// `%XX` decoded; a `%` not followed by two hex digits is kept.
fn percent_decode(text: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !text.contains(&b'%') {
        return std::borrow::Cow::Borrowed(text);
    }
    let hex = |b: u8| char::from(b).to_digit(16);
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        let pair = text
            .get(i + 1)
            .copied()
            .and_then(hex)
            .zip(text.get(i + 2).copied().and_then(hex));
        match (b, pair) {
            (b'%', Some((hi, lo))) => {
                // Two hex digits are below 256.
                out.push(u8::try_from(hi * 16 + lo).unwrap_or(b'%'));
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A set of domain names, each matching itself and its subdomains.
///
/// Invariants: `slots.len()` is `1 << bits`, a power of two at least twice
/// `len` (so every probe ends at an empty slot) and at most `1 << 32`; a
/// slot is 0 when empty, else the high 32 bits of the entry's hash (the
/// tag) over the entry's arena offset plus one; an entry's probe starts at
/// the top `bits` bits of its tag, so the table grows without reading the
/// arena or hashing again; the arena holds each entry once, as a length
/// byte and the name's bytes.
#[derive(Clone, Debug)]
pub(crate) struct DomainSet {
    arena: Vec<u8>,
    slots: Vec<u64>,
    bits: u32,
    len: usize,
    seed: u64,
    /// The fewest and most labels an entry has.
    min_labels: usize,
    max_labels: usize,
}

/// The multiplier of the word hash (FxHash's, from Firefox).
const K: u64 = 0x517c_c1b7_2722_0a95;

/// Label suffixes of a host looked up together ([`DomainSet::any`]).
const BATCH: usize = 8;

impl DomainSet {
    /// An empty set.
    pub(crate) fn new() -> DomainSet {
        // A random seed: the table's layout is not predictable from the
        // list or from the hosts of the input.
        let seed = std::collections::hash_map::RandomState::new()
            .hash_one(0x75726c67_72657021u64);
        DomainSet {
            arena: Vec::new(),
            slots: vec![0; 16],
            bits: 4,
            len: 0,
            seed,
            min_labels: usize::MAX,
            max_labels: 0,
        }
    }

    /// How many distinct names the set holds.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Adds a name; false when the set is full (4 GiB of names).
    pub(crate) fn insert(&mut self, name: &Name) -> bool {
        let bytes = name.as_bytes();
        if (self.len + 1) * 2 > self.slots.len() && !self.grow() {
            return false;
        }
        let h = self.hash(bytes);
        let Err(free) = self.probe(bytes, h) else {
            return true;
        };
        let Some(offset_plus_one) = u32::try_from(self.arena.len() + 1)
            .ok()
            .filter(|&o| o < u32::MAX - 256)
        else {
            return false;
        };
        // Names are at most 253 bytes.
        self.arena.push(u8::try_from(bytes.len()).unwrap_or(u8::MAX));
        self.arena.extend_from_slice(bytes);
        if let Some(slot) = self.slots.get_mut(free) {
            *slot = (h >> 32) << 32 | u64::from(offset_plus_one);
        }
        self.len += 1;
        let labels = label_count(bytes);
        self.min_labels = self.min_labels.min(labels);
        self.max_labels = self.max_labels.max(labels);
        true
    }

    /// Frees what the loading reserved beyond its needs.
    pub(crate) fn shrink(&mut self) {
        self.arena.shrink_to_fit();
    }

    /// Whether `host` (a normalised name) is an entry or a subdomain of
    /// one. A host whose last label is all digits is an IPv4 address
    /// (RFC 3986 §3.2.2: the rule for telling them apart) and matches
    /// only an equal entry: `0.1` must not match `10.0.0.1`.
    pub(crate) fn matches(&self, host: &[u8]) -> bool {
        let labels = label_count(host);
        let last = host.rsplit(|&b| b == b'.').next().unwrap_or_default();
        if last.iter().all(u8::is_ascii_digit) {
            return self.contains(host);
        }
        // Each suffix that starts a label and has a label count some
        // entry has, longest first, in batches (see `any`).
        let mut batch = [(&b""[..], 0u64); BATCH];
        let mut len = 0;
        let mut rest = host;
        let mut n = labels;
        loop {
            if n < self.min_labels {
                break;
            }
            if n <= self.max_labels {
                if let Some(e) = batch.get_mut(len) {
                    *e = (rest, self.hash(rest));
                    len += 1;
                }
                if len == BATCH {
                    if self.any(&batch) {
                        return true;
                    }
                    len = 0;
                }
            }
            match memchr::memchr(b'.', rest) {
                Some(dot) => rest = rest.get(dot + 1..).unwrap_or_default(),
                None => break,
            }
            n -= 1;
        }
        self.any(batch.get(..len).unwrap_or_default())
    }

    /// Whether any of the names (with their hashes) is an entry. The
    /// home slots of all are read first: in a table far larger than the
    /// caches (16 MiB of slots for 1,000,000 domains) each is a miss, and
    /// independent loads overlap their misses where a probe after a
    /// probe waited for each in turn. An empty home slot says "no"
    /// without a probe.
    fn any(&self, names: &[(&[u8], u64)]) -> bool {
        let mut homes = [0u64; BATCH];
        for (home, &(_, h)) in homes.iter_mut().zip(names) {
            *home = self.slots.get(self.home(h >> 32)).copied().unwrap_or(0);
        }
        homes.iter().zip(names).any(|(&home, &(name, h))| {
            home != 0 && self.probe(name, h).is_ok()
        })
    }

    /// Whether `name` is an entry.
    fn contains(&self, name: &[u8]) -> bool {
        self.probe(name, self.hash(name)).is_ok()
    }

    /// Where a probe for the tag `tag` starts.
    fn home(&self, tag: u64) -> usize {
        // `bits` is 4 to 32: the shift keeps the top `bits` of 32.
        usize::try_from(tag >> (32 - self.bits)).unwrap_or(0)
    }

    /// `Ok` when `name` (of hash `h`) is an entry, else `Err` with the
    /// empty slot that ended the probe.
    fn probe(&self, name: &[u8], h: u64) -> Result<(), usize> {
        let mask = self.slots.len() - 1;
        let tag = h >> 32;
        let mut i = self.home(tag);
        loop {
            let Some(&slot) = self.slots.get(i) else { return Err(i) };
            if slot == 0 {
                return Err(i);
            }
            if slot >> 32 == tag && self.entry(slot) == Some(name) {
                return Ok(());
            }
            i = (i + 1) & mask;
        }
    }

    /// The name a slot points to.
    fn entry(&self, slot: u64) -> Option<&[u8]> {
        let offset =
            usize::try_from(slot & 0xFFFF_FFFF).ok()?.checked_sub(1)?;
        let len = usize::from(*self.arena.get(offset)?);
        self.arena.get(offset + 1..offset + 1 + len)
    }

    /// Doubles the table and places every slot again by its tag; false
    /// when the table has 2^32 slots already.
    fn grow(&mut self) -> bool {
        if self.bits >= 32 {
            return false;
        }
        let bigger = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        self.bits += 1;
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut i = self.home(slot >> 32);
            while let Some(s) = self.slots.get_mut(i) {
                if *s == 0 {
                    *s = slot;
                    break;
                }
                i = (i + 1) & mask;
            }
        }
        true
    }

    /// A word-at-a-time multiplicative hash (FxHash's step) from a
    /// random seed, finished by MurmurHash3's `fmix64` so that the high
    /// bits that pick a slot depend on every input bit.
    fn hash(&self, name: &[u8]) -> u64 {
        let step = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
        let mut h = self.seed;
        let mut words = name.chunks_exact(8);
        for w in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(w);
            h = step(h, u64::from_le_bytes(b));
        }
        let rest = words.remainder();
        let mut b = [0u8; 8];
        if let Some(dst) = b.get_mut(..rest.len()) {
            dst.copy_from_slice(rest);
        }
        h = step(h, u64::from_le_bytes(b) ^ (name.len() as u64) << 56);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ h >> 33
    }
}

/// How many labels a name has.
fn label_count(name: &[u8]) -> usize {
    memchr::memchr_iter(b'.', name).count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Vec<u8> {
        match Name::parse(s.as_bytes()) {
            Ok(n) => n.as_bytes().to_vec(),
            Err(e) => panic!("{s:?}: {e:?}"),
        }
    }

    fn set(domains: &[&str]) -> DomainSet {
        let mut s = DomainSet::new();
        for d in domains {
            let n = Name::parse(d.as_bytes()).expect("a domain");
            assert!(s.insert(&n));
        }
        s
    }

    fn matches(s: &DomainSet, host: &str) -> bool {
        Name::parse(host.as_bytes()).is_ok_and(|n| s.matches(n.as_bytes()))
    }

    #[test]
    fn normal_form() {
        assert_eq!(name("WWW.Example.COM."), b"www.example.com");
        assert_eq!(name("bücher.de"), b"xn--bcher-kva.de");
        assert_eq!(name("XN--BCHER-KVA.de"), b"xn--bcher-kva.de");
        assert_eq!(name("B%C3%BCcher.de"), b"xn--bcher-kva.de");
        assert_eq!(name("_dmarc.a.b"), b"_dmarc.a.b");
        assert_eq!(name("10.0.0.1"), b"10.0.0.1");
    }

    #[test]
    fn not_names() {
        let bad = |s: &str| Name::parse(s.as_bytes()).err();
        assert_eq!(bad(""), Some(Invalid::Empty));
        assert_eq!(bad("."), Some(Invalid::Empty));
        assert_eq!(bad("a..b"), Some(Invalid::EmptyLabel));
        assert_eq!(bad(".a"), Some(Invalid::EmptyLabel));
        assert_eq!(bad("a b"), Some(Invalid::Character(b' ')));
        assert_eq!(bad("*.a.b"), Some(Invalid::Character(b'*')));
        assert_eq!(bad("[::1]"), Some(Invalid::Character(b'[')));
        assert_eq!(bad(&"a".repeat(64)), Some(Invalid::LongLabel));
        let long = vec!["a".repeat(60); 5].join(".");
        assert_eq!(bad(&long), Some(Invalid::LongName));
        assert!(Name::parse(b"a\xffb").is_err());
        assert!(Name::parse(b"xn--a.\xe2\x80\xae").is_err());
    }

    #[test]
    fn label_boundaries() {
        let s = set(&["example.com", "Bücher.DE."]);
        assert!(matches(&s, "example.com"));
        assert!(matches(&s, "a.b.EXAMPLE.com."));
        assert!(!matches(&s, "badexample.com"));
        assert!(!matches(&s, "example.com.evil.net"));
        assert!(!matches(&s, "com"));
        assert!(matches(&s, "xn--bcher-kva.de"));
        assert!(matches(&s, "www.bücher.de"));
        assert!(!matches(&s, "xn--bcher-kva.de.evil"));
        assert!(!matches(&s, "bucher.de"));
    }

    #[test]
    fn addresses_match_whole() {
        let s = set(&["0.1", "10.0.0.1"]);
        assert!(matches(&s, "10.0.0.1"));
        assert!(!matches(&s, "192.10.0.0.1"));
        assert!(!matches(&s, "10.0.1.0"));
        assert!(matches(&s, "0.1"));
    }

    #[test]
    fn suffixes_past_a_batch_are_looked_up() {
        // 12 labels: the suffixes are looked up in batches of BATCH (8);
        // the entry is found in the first batch, the second, or not.
        let host = "a.b.c.d.e.f.g.h.i.j.k.l";
        let labels: Vec<&str> = host.split('.').collect();
        for from in 0..labels.len() {
            let domain = labels[from..].join(".");
            // A second entry of 12 labels keeps every count looked up.
            let s = set(&[&domain, "x.b.c.d.e.f.g.h.i.j.k.l"]);
            assert!(matches(&s, host), "{domain}");
            assert!(!matches(&s, &format!("{host}.m")), "{domain}");
        }
    }

    #[test]
    fn many_entries() {
        let mut s = DomainSet::new();
        for i in 0..10_000 {
            let d = format!("d{i}.example");
            assert!(s.insert(&Name::parse(d.as_bytes()).expect("a domain")));
        }
        // Duplicates are kept once.
        assert!(s.insert(&Name::parse(b"d7.example").expect("a domain")));
        assert_eq!(s.len(), 10_000);
        for i in (0..10_000).step_by(97) {
            assert!(matches(&s, &format!("x.d{i}.example")));
            assert!(!matches(&s, &format!("x.e{i}.example")));
        }
        assert!(s.slots.len() >= 2 * s.len());
    }
}
