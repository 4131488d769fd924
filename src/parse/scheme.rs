//! URI schemes: the ten of RFC 1738 §3 plus https, and look-ups in the
//! compiled-in list of registered schemes (`registry.rs`: the IANA
//! "Uniform Resource Identifier (URI) Schemes" registry, permanent and
//! provisional).

use super::registry::REGISTERED;

/// A URL scheme, case-folded.
///
/// The ten schemes of RFC 1738 §3 and `https` have their own variants because
/// the parser knows their grammar; every other registered scheme is
/// [`Scheme::Other`] and gets RFC 3986 generic syntax.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scheme {
    /// RFC 1738 §3.2, File Transfer Protocol.
    Ftp,
    /// RFC 1738 §3.3, Hypertext Transfer Protocol.
    Http,
    /// RFC 9110 §4.2.2, HTTP over TLS.
    Https,
    /// RFC 1738 §3.4 and RFC 4266, Gopher.
    Gopher,
    /// RFC 1738 §3.5 and RFC 6068, electronic mail address.
    Mailto,
    /// RFC 1738 §3.6 and RFC 5538, Usenet news.
    News,
    /// RFC 1738 §3.7 and RFC 5538, news via NNTP.
    Nntp,
    /// RFC 1738 §3.8 and RFC 4248, interactive sessions.
    Telnet,
    /// RFC 1738 §3.9, Wide Area Information Servers.
    Wais,
    /// RFC 1738 §3.10 and RFC 8089, host-specific file names.
    File,
    /// RFC 1738 §3.11, Prospero Directory Service.
    Prospero,
    /// Any other scheme: generic syntax (RFC 3986 §3).
    Other,
}

impl Scheme {
    /// Classifies a scheme name, ignoring ASCII case.
    ///
    /// ```
    /// use urlgrep::Scheme;
    /// assert_eq!(Scheme::from_name(b"HTTP"), Scheme::Http);
    /// assert_eq!(Scheme::from_name(b"sip"), Scheme::Other);
    /// ```
    pub fn from_name(name: &[u8]) -> Scheme {
        let mut buf = [0u8; 8];
        let Some(dst) = buf.get_mut(..name.len()) else {
            return Scheme::Other;
        };
        dst.copy_from_slice(name);
        Scheme::from_word(u64::from_le_bytes(buf), name.len())
    }

    /// [`Scheme::from_name`] of `input[..n]`: when `input` has eight
    /// bytes, they are read as one word and the name masked out of it,
    /// without copying the name byte by byte (a `memcpy` call for a
    /// slice of unknown length). The parser calls this for every URL.
    #[inline]
    pub(crate) fn from_prefix(input: &[u8], n: usize) -> Scheme {
        let word = input.get(..8).and_then(|w| <[u8; 8]>::try_from(w).ok());
        match word {
            Some(word) if n < 8 => {
                let mask = (1u64 << (8 * n)) - 1;
                Scheme::from_word(u64::from_le_bytes(word) & mask, n)
            }
            Some(word) if n == 8 => {
                Scheme::from_word(u64::from_le_bytes(word), n)
            }
            _ => Scheme::from_name(input.get(..n).unwrap_or_default()),
        }
    }

    /// The scheme whose name, `len` bytes of at most eight, is packed
    /// little-endian into `word` (the bytes past `len` zero).
    #[inline]
    fn from_word(word: u64, len: usize) -> Scheme {
        // Up to eight bytes packed into a u64 with bit 0x20 set in each:
        // that folds ASCII letters to lower case, and since the names
        // below are all letters, no other byte can fold onto them. Unused
        // bytes stay zero, so the length is part of the key.
        const fn key(name: &[u8]) -> u64 {
            let mut k = 0u64;
            let mut i = 0;
            while i < name.len() && i < 8 {
                k |= ((name[i] | 0x20) as u64) << (8 * i);
                i += 1;
            }
            k
        }
        const FTP: u64 = key(b"ftp");
        const HTTP: u64 = key(b"http");
        const HTTPS: u64 = key(b"https");
        const GOPHER: u64 = key(b"gopher");
        const MAILTO: u64 = key(b"mailto");
        const NEWS: u64 = key(b"news");
        const NNTP: u64 = key(b"nntp");
        const TELNET: u64 = key(b"telnet");
        const WAIS: u64 = key(b"wais");
        const FILE: u64 = key(b"file");
        const PROSPERO: u64 = key(b"prospero");
        let fold = match len {
            0 => 0,
            n => 0x2020_2020_2020_2020u64 >> (8 * (8 - n)),
        };
        match word | fold {
            FTP => Scheme::Ftp,
            HTTP => Scheme::Http,
            HTTPS => Scheme::Https,
            GOPHER => Scheme::Gopher,
            MAILTO => Scheme::Mailto,
            NEWS => Scheme::News,
            NNTP => Scheme::Nntp,
            TELNET => Scheme::Telnet,
            WAIS => Scheme::Wais,
            FILE => Scheme::File,
            PROSPERO => Scheme::Prospero,
            _ => Scheme::Other,
        }
    }

    /// The lower-case name of a scheme with its own grammar, or `None` for
    /// [`Scheme::Other`] (whose name is in the URL itself).
    pub fn name(self) -> Option<&'static str> {
        Some(match self {
            Scheme::Ftp => "ftp",
            Scheme::Http => "http",
            Scheme::Https => "https",
            Scheme::Gopher => "gopher",
            Scheme::Mailto => "mailto",
            Scheme::News => "news",
            Scheme::Nntp => "nntp",
            Scheme::Telnet => "telnet",
            Scheme::Wais => "wais",
            Scheme::File => "file",
            Scheme::Prospero => "prospero",
            Scheme::Other => return None,
        })
    }

    /// The default port of the scheme (RFC 1738 §3, RFC 9110 §4.2.2), if it
    /// has one.
    pub fn default_port(self) -> Option<u16> {
        match self {
            Scheme::Ftp => Some(21),
            Scheme::Http => Some(80),
            Scheme::Https => Some(443),
            Scheme::Gopher => Some(70),
            Scheme::Nntp => Some(119),
            Scheme::Telnet => Some(23),
            Scheme::Wais => Some(210),
            Scheme::Prospero => Some(1525),
            _ => None,
        }
    }
}

/// Schemes recognised as bare URLs without `//` after the colon: the opaque
/// ones that matter in mail and news.
pub(crate) const BARE_OPAQUE: &[&str] = &["mailto", "news", "urn"];

/// Longest scheme name urlgrep walks back over from a colon.
pub(crate) const MAX_SCHEME_LEN: usize = 32;

/// Lower-cases `name` into `out` and returns it, or `None` when it is longer
/// than [`MAX_SCHEME_LEN`].
fn lower(name: &[u8], out: &mut [u8; MAX_SCHEME_LEN]) -> Option<usize> {
    if name.len() > MAX_SCHEME_LEN {
        return None;
    }
    for (dst, src) in out.iter_mut().zip(name) {
        *dst = src.to_ascii_lowercase();
    }
    Some(name.len())
}

/// Is `name` (any case) a registered scheme urlgrep knows?
pub fn is_registered(name: &[u8]) -> bool {
    is_registered_prefix(name, name.len())
}

/// [`is_registered`] of `input[..n]`, the name read as a word when
/// `input` has eight bytes ([`Scheme::from_prefix`]): the scanner asks
/// this at every trigger, where a name always has bytes after it.
#[inline]
pub(crate) fn is_registered_prefix(input: &[u8], n: usize) -> bool {
    registered_prefix(input, n).is_some()
}

/// [`is_registered_prefix`] with the scheme it found: `Some` (with
/// [`Scheme::Other`] for a registered scheme of generic syntax) when
/// `input[..n]` is registered, `None` when not.
#[inline]
pub(crate) fn registered_prefix(input: &[u8], n: usize) -> Option<Scheme> {
    // The RFC 1738 schemes and https, nearly every trigger on real text,
    // are told by one packed compare; the table is searched for the rest.
    let scheme = Scheme::from_prefix(input, n);
    if scheme != Scheme::Other {
        return Some(scheme);
    }
    let name = input.get(..n).unwrap_or(input);
    if name.len() <= 16 {
        // `<o:p>`, `<v:shape>`, `"javascript:…"`: most names met here
        // are short, and most are not registered.
        return short_key(name)
            .and_then(|k| SHORT.binary_search(&k).ok())
            .map(|_| scheme);
    }
    let mut buf = [0u8; MAX_SCHEME_LEN];
    let n = lower(name, &mut buf)?;
    REGISTERED.binary_search(&lossless(&buf[..n])).ok().map(|_| scheme)
}

/// [`registered_prefix`] of the name `bytes[s..c]` that ends at the colon
/// `c`: a name of at most eight bytes is read from the word of the eight
/// bytes before the colon (the scanner's, [`crate::scan`]'s run start
/// reads the same), shifted down, not from a slice that starts at the
/// name (issue 32: `http:// ` repeated asks at every eighth byte).
#[inline]
pub(crate) fn registered_before(
    bytes: &[u8],
    s: usize,
    c: usize,
) -> Option<Scheme> {
    let n = c.saturating_sub(s);
    let word = c
        .checked_sub(8)
        .and_then(|f| bytes.get(f..c))
        .and_then(|w| <[u8; 8]>::try_from(w).ok());
    if let (Some(word), 1..=8) = (word, n) {
        let scheme =
            Scheme::from_word(u64::from_le_bytes(word) >> (64 - 8 * n), n);
        if scheme != Scheme::Other {
            return Some(scheme);
        }
    }
    registered_prefix(bytes.get(s..).unwrap_or_default(), n)
}

/// The names of [`REGISTERED`] of at most sixteen bytes as
/// [`short_key`]s, sorted: a look-up is a binary search over words, not
/// over strings.
static SHORT: [u128; count_short()] = short_keys();

/// How many names of [`REGISTERED`] have at most sixteen bytes.
const fn count_short() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < REGISTERED.len() {
        if REGISTERED[i].len() <= 16 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The keys of [`SHORT`], sorted (an insertion sort at compile time).
const fn short_keys() -> [u128; count_short()] {
    let mut keys = [0u128; count_short()];
    let (mut i, mut n) = (0, 0);
    while i < REGISTERED.len() {
        let name = REGISTERED[i].as_bytes();
        if name.len() <= 16 {
            let mut k = 0u128;
            let mut j = 0;
            while j < name.len() {
                k |= (name[j] as u128) << (8 * j);
                j += 1;
            }
            let mut at = n;
            while at > 0 && keys[at - 1] > k {
                keys[at] = keys[at - 1];
                at -= 1;
            }
            keys[at] = k;
            n += 1;
        }
        i += 1;
    }
    keys
}

/// `name` (at most sixteen bytes) lower-cased and packed little-endian
/// into a word, zeros after it; `None` when a byte is no scheme byte (no
/// registered name holds one, and a zero byte would read as the end).
#[inline]
fn short_key(name: &[u8]) -> Option<u128> {
    let mut k = 0u128;
    for (j, &b) in name.iter().enumerate().take(16) {
        if !is_scheme_byte(b) {
            return None;
        }
        k |= u128::from(b.to_ascii_lowercase()) << (8 * j);
    }
    Some(k)
}

/// Is `name` (any case) one of [`BARE_OPAQUE`]?
pub(crate) fn is_bare_opaque(name: &[u8]) -> bool {
    BARE_OPAQUE.iter().any(|s| s.as_bytes().eq_ignore_ascii_case(name))
}

/// The scheme bytes as `&str`; scheme bytes are ASCII by construction, and
/// anything else simply fails the look-up.
fn lossless(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or("")
}

/// RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
pub fn is_scheme_syntax(name: &[u8]) -> bool {
    match name.split_first() {
        Some((first, rest)) => {
            first.is_ascii_alphabetic()
                && rest.iter().all(|&b| is_scheme_byte(b))
        }
        None => false,
    }
}

/// A byte that may appear after the first of a scheme name.
#[inline]
pub(crate) fn is_scheme_byte(b: u8) -> bool {
    /// `ALPHA / DIGIT / "+" / "-" / "."`
    const SCHEME_BYTE: [bool; 256] = {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            t[b] =
                c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.');
            b += 1;
        }
        t
    };
    SCHEME_BYTE[usize::from(b)]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`registered_before`] is [`registered_prefix`] on every registered
    /// name (and near misses), in any case, at every offset of a text
    /// with and without eight bytes before the colon.
    #[test]
    fn registered_before_is_registered_prefix() {
        let mut names: Vec<String> =
            REGISTERED.iter().map(|n| n.to_string()).collect();
        for n in ["HTTP", "Https", "mailtoo", "ftpx", "xhttp", "a", "zz", "h+"]
        {
            names.push(n.to_string());
        }
        for name in &names {
            for pad in ["", "x", " 1234567", "<<<<<<<<<<"] {
                let text = format!("{pad}{name}://a");
                let bytes = text.as_bytes();
                let c = pad.len() + name.len();
                for s in pad.len()..c {
                    assert_eq!(
                        registered_before(bytes, s, c),
                        registered_prefix(&bytes[s..], c - s),
                        "{text:?} {s}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_fast_path_of_is_registered_agrees_with_the_table() {
        for s in REGISTERED {
            assert!(is_registered(s.as_bytes()), "{s}");
            let upper = s.to_ascii_uppercase();
            assert!(is_registered(upper.as_bytes()), "{upper}");
            if let Some(name) = Scheme::from_name(s.as_bytes()).name() {
                assert_eq!(name, *s);
            }
        }
        for name in ["ftp", "http", "https", "gopher", "mailto", "news"]
            .into_iter()
            .chain(["nntp", "telnet", "wais", "file", "prospero"])
        {
            assert!(REGISTERED.binary_search(&name).is_ok(), "{name}");
        }
    }

    #[test]
    fn a_name_read_with_the_bytes_after_it_is_the_name_alone() {
        let names = REGISTERED
            .iter()
            .map(|s| s.to_string())
            .chain(REGISTERED.iter().map(|s| s.to_ascii_uppercase()))
            .chain(
                ["htt", "httpss", "ftpx", "re", "c", "x", "mailt"]
                    .map(String::from),
            )
            .chain(["", "prosperos", "z39.50", "wais2"].map(String::from));
        for name in names {
            for tail in ["", ":", "://a.b/", ":x", "s://", "sssssssss"] {
                let input = format!("{name}{tail}");
                assert_eq!(
                    is_registered_prefix(input.as_bytes(), name.len()),
                    is_registered(name.as_bytes()),
                    "{input:?} {}",
                    name.len()
                );
            }
        }
    }

    /// The word table holds exactly the short names of [`REGISTERED`],
    /// and a look-up through it answers as the string table does, on
    /// every name and on names one byte away from one.
    #[test]
    fn short_names_are_looked_up_as_words() {
        let short: Vec<&str> =
            REGISTERED.iter().copied().filter(|s| s.len() <= 16).collect();
        assert_eq!(SHORT.len(), short.len());
        assert!(SHORT.windows(2).all(|w| w[0] < w[1]));
        let by_string = |name: &[u8]| {
            let lower = name.to_ascii_lowercase();
            let lower = std::str::from_utf8(&lower).unwrap_or("");
            REGISTERED.binary_search(&lower).is_ok()
        };
        let mut names: Vec<Vec<u8>> = Vec::new();
        for s in &short {
            let b = s.as_bytes();
            names.push(b.to_vec());
            names.push(b.to_ascii_uppercase());
            for i in 0..b.len() {
                for x in [
                    0u8,
                    b'\r',
                    b'_',
                    b'0',
                    0xC3,
                    b.get(i).map_or(0, |c| c ^ 0x20),
                ] {
                    let mut v = b.to_vec();
                    v[i] = x;
                    names.push(v.clone());
                    v.truncate(i + 1);
                    names.push(v);
                }
            }
            names.push([b, &b"\0"[..]].concat());
            names.push([b, &b"x"[..]].concat());
        }
        for name in names.iter().filter(|n| n.len() <= 17) {
            for tail in [&b""[..], b":", b"://host/", b"\0\0\0\0\0\0\0\0"] {
                let input = [name.as_slice(), tail].concat();
                assert_eq!(
                    is_registered_prefix(&input, name.len()),
                    by_string(name),
                    "{input:?}"
                );
            }
        }
    }

    #[test]
    fn lookups_ignore_case() {
        assert!(is_registered(b"HTTP"));
        assert!(is_registered(b"z39.50r"));
        assert!(!is_registered(b"re"));
        assert!(!is_registered(b"c"));
        assert!(is_bare_opaque(b"MailTo"));
        assert!(!is_bare_opaque(b"http"));
        assert_eq!(Scheme::from_name(b"Prospero"), Scheme::Prospero);
        assert_eq!(Scheme::from_name(b"prosperos"), Scheme::Other);
        assert_eq!(Scheme::from_name(b"hTtPs"), Scheme::Https);
        // Bytes that fold onto letters under `| 0x20` but are not letters.
        assert_eq!(Scheme::from_name(b"\x08TTP"), Scheme::Other);
        assert_eq!(Scheme::from_name(b"ftp\0"), Scheme::Other);
        for input in
            [&b"Http://a"[..], b"ftp\0:xyzw", b"prospero:", b"mailto:x"]
        {
            for n in 0..=input.len() {
                let name = input.get(..n).unwrap_or_default();
                assert_eq!(
                    Scheme::from_prefix(input, n),
                    Scheme::from_name(name),
                    "{name:?}"
                );
            }
        }
        assert_eq!(Scheme::from_name(b""), Scheme::Other);
        assert_eq!(Scheme::from_name(b"PROSPERO"), Scheme::Prospero);
        assert_eq!(Scheme::from_name(b"F"), Scheme::Other);
        for b in 0..=255u8 {
            let want = b.is_ascii_alphanumeric() || b"+-.".contains(&b);
            assert_eq!(is_scheme_byte(b), want, "{b}");
        }
    }

    #[test]
    fn scheme_syntax() {
        assert!(is_scheme_syntax(b"a+b-c.d1"));
        assert!(!is_scheme_syntax(b"1a"));
        assert!(!is_scheme_syntax(b""));
        assert!(!is_scheme_syntax(b"a_b"));
    }
}
