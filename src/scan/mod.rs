//! The scanner: from bytes to URL candidates.
//!
//! The hot loop is a SIMD search for the trigger byte (see [`Triggers`]).
//! At each trigger the scanner walks back over the scheme name and looks
//! at what stands before it, then forward for the end:
//!
//! ```text
//! at colon c:
//!   s = start of the scheme-character run ending at c (bounded look-behind)
//!   if hay[s..c] == "URL" (any case) and hay[s-1] == '<':
//!       read the wrapper to '>'             -> Wrapped, or fall back
//!   else if hay[s..c] is a registered scheme:
//!       if hay[s-1] == '<': read to '>'     -> Angle, or fall back
//!       if hay[s-1] == '"': read to '"'     -> Quoted, or fall back
//!       bare reading, if the scheme is followed by "//" or is opaque
//! ```
//!
//! Every candidate is validated (see [`crate::parse`]) before the scanner
//! decides where to go on: after an accepted URL, at its end; after a
//! rejected bare run, at the run's end (so no byte is read twice and time
//! stays linear); after a closed but rejected delimited URL, at its
//! closing delimiter (its text is not read again as a bare URL).
//!
//! The scanner sees a window of the input and whether the input ends with
//! it. Whenever it would need a byte past the window it says
//! "incomplete" and the caller refills and restarts at the trigger, so
//! the stream and slice APIs find exactly the same candidates.

mod bare;
mod defanged;
mod delimited;
mod lean;
mod names;
mod one_pass;
mod run;
mod step;
mod tld;
mod triggers;

pub(crate) use names::is_tld;
pub(crate) use step::Step;
pub use triggers::Triggers;

use crate::parse::{self, Reject, Verdict};
use std::fmt;

/// A half-open byte range `[start, end)`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord,
)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// Number of bytes covered.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the span is empty.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

/// How a URL was delimited in the text.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `<URL:scheme:…>` (RFC 1738 appendix).
    Wrapped,
    /// `<scheme:…>` (RFC 3986 Appendix C).
    Angle,
    /// `"scheme:…"` (RFC 3986 Appendix C).
    Quoted,
    /// Running text, ended where a reader would end it.
    Bare,
    /// An e-mail address without a scheme (`bob@example.com`, RFC 5322
    /// `addr-spec`); found only with [`Finds::EMAIL`].
    Email,
    /// A `www.` name without a scheme (`www.example.com/page`); found
    /// only with [`Finds::WWW`].
    Www,
    /// A host name without a scheme whose last label is a top-level
    /// domain of the root zone (`example.com/page`); found only with
    /// [`Finds::DOMAIN`].
    Domain,
    /// A network-path reference, a URL without its scheme
    /// (`//example.com/lib.js`, RFC 3986 §4.2); found only with
    /// [`Finds::NETWORK_PATH`].
    NetworkPath,
    /// A relative reference of an HTML document resolved against its
    /// base (RFC 3986 §5.2: the `<base href>`, else the page's own URI):
    /// a web archive's HTML payload read with `--resolve`
    /// ([`crate::DriverBuilder::resolve`]).
    Resolved,
}

impl Kind {
    /// Lower-case name: `wrapped`, `angle`, `quoted`, `bare`, `email`,
    /// `www`, `domain`, `network-path`, `resolved`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Wrapped => "wrapped",
            Kind::Angle => "angle",
            Kind::Quoted => "quoted",
            Kind::Bare => "bare",
            Kind::Email => "email",
            Kind::Www => "www",
            Kind::Domain => "domain",
            Kind::NetworkPath => "network-path",
            Kind::Resolved => "resolved",
        }
    }

    /// The scheme a match of this kind implies when its text has none:
    /// `mailto` for [`Kind::Email`], `http` for [`Kind::Www`],
    /// [`Kind::Domain`] and [`Kind::NetworkPath`] (whose scheme is the
    /// base's, RFC 3986 §5.2.2; text has no base, and `http` is the
    /// scheme of the web pages it is written for).
    pub fn implied_scheme(self) -> Option<&'static str> {
        match self {
            Kind::Email => Some("mailto"),
            Kind::Www | Kind::Domain | Kind::NetworkPath => Some("http"),
            _ => None,
        }
    }

    /// Parses a name as printed by [`Kind::name`].
    pub fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "wrapped" => Kind::Wrapped,
            "angle" => Kind::Angle,
            "quoted" => Kind::Quoted,
            "bare" => Kind::Bare,
            "email" => Kind::Email,
            "www" => Kind::Www,
            "domain" => Kind::Domain,
            "network-path" => Kind::NetworkPath,
            "resolved" => Kind::Resolved,
            _ => return None,
        })
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the scanner did to get a URL out of its text.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Flags(u8);

impl Flags {
    /// Whitespace inside the delimiters was removed.
    pub const JOINED: Flags = Flags(1);
    /// A line break came right after a `-`; the hyphen was kept, but it
    /// may have been a typesetter's (RFC 1738 appendix).
    pub const HYPHEN_BREAK: Flags = Flags(2);
    /// Trailing punctuation was left out of a bare URL.
    pub const TRIMMED: Flags = Flags(4);
    /// A mail quote prefix (`> `) was removed from a continuation line.
    pub const QUOTE_PREFIX: Flags = Flags(8);
    /// Spaces inside a quoted HTML attribute value (`href="…"`) were
    /// kept, percent-encoded as `%20` (RFC 3986 §2.1), as a browser
    /// takes the value.
    pub const SPACE_ENCODED: Flags = Flags(16);
    /// The URL was written defanged (`hxxp://evil[.]example`) and is
    /// given refanged; its written form is [`crate::Match::defanged`].
    pub const DEFANGED: Flags = Flags(32);

    /// All flags with their names, in display order.
    pub const ALL: [(Flags, &'static str); 6] = [
        (Flags::JOINED, "joined"),
        (Flags::HYPHEN_BREAK, "hyphen-break"),
        (Flags::TRIMMED, "trimmed"),
        (Flags::QUOTE_PREFIX, "quote-prefix"),
        (Flags::SPACE_ENCODED, "space-encoded"),
        (Flags::DEFANGED, "defanged"),
    ];

    /// Whether every flag of `other` is set.
    pub fn contains(self, other: Flags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets the flags of `other`.
    pub fn insert(&mut self, other: Flags) {
        self.0 |= other.0;
    }

    /// Whether no flag is set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The names of the set flags.
    pub fn names(self) -> impl Iterator<Item = &'static str> {
        Flags::ALL
            .into_iter()
            .filter(move |(f, _)| self.contains(*f))
            .map(|(_, n)| n)
    }
}

impl fmt::Debug for Flags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

/// The scheme-less detectors to run besides the URL scanner (issue 19);
/// none by default, so that default counts do not change.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Finds(u8);

impl Finds {
    /// No detector: URLs with a scheme only.
    pub const NONE: Finds = Finds(0);
    /// E-mail addresses ([`Kind::Email`]).
    pub const EMAIL: Finds = Finds(1);
    /// `www.` names ([`Kind::Www`]).
    pub const WWW: Finds = Finds(2);
    /// Bare domain names ([`Kind::Domain`]).
    pub const DOMAIN: Finds = Finds(4);
    /// Network-path references ([`Kind::NetworkPath`]).
    pub const NETWORK_PATH: Finds = Finds(8);
    /// URLs of a scheme outside the IANA registry before `//`, in
    /// running text and quotes (`gemini://host/`, `hkp://host`; printed
    /// as [`Kind::Bare`] or [`Kind::Quoted`]). Without it such a scheme
    /// is read only in `<URL:…>` and, before `//`, in `<…>`.
    pub const UNREGISTERED: Finds = Finds(16);
    /// Defanged URLs (`hxxp://evil[.]example`), given refanged with
    /// [`Flags::DEFANGED`].
    pub const DEFANGED: Finds = Finds(32);
    /// Every detector.
    pub const ALL: Finds = Finds(63);

    /// Whether every detector of `other` is on.
    pub fn contains(self, other: Finds) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no detector is on.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The detectors of both.
    pub fn union(self, other: Finds) -> Finds {
        Finds(self.0 | other.0)
    }

    /// Parses `email`, `www`, `domain`, `network-path`, `unregistered`,
    /// `defanged` or `all`.
    pub fn from_name(name: &str) -> Option<Finds> {
        Some(match name {
            "email" => Finds::EMAIL,
            "www" => Finds::WWW,
            "domain" => Finds::DOMAIN,
            "network-path" => Finds::NETWORK_PATH,
            "unregistered" => Finds::UNREGISTERED,
            "defanged" => Finds::DEFANGED,
            "all" => Finds::ALL,
            _ => return None,
        })
    }
}

impl fmt::Debug for Finds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = [
            (Finds::EMAIL, "email"),
            (Finds::WWW, "www"),
            (Finds::DOMAIN, "domain"),
            (Finds::NETWORK_PATH, "network-path"),
            (Finds::UNREGISTERED, "unregistered"),
            (Finds::DEFANGED, "defanged"),
        ];
        f.debug_list()
            .entries(
                names.iter().filter(|(d, _)| self.contains(*d)).map(|p| p.1),
            )
            .finish()
    }
}

/// Scanner settings; built by [`crate::FinderBuilder`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Config {
    pub wrapped: bool,
    pub angle: bool,
    pub quoted: bool,
    pub bare: bool,
    pub max_wrapper: usize,
    pub max_url: usize,
    pub strict: bool,
    pub triggers: Triggers,
    pub finds: Finds,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            wrapped: true,
            angle: true,
            quoted: true,
            bare: true,
            max_wrapper: 2048,
            max_url: 8192,
            strict: false,
            triggers: Triggers::Simd,
            finds: Finds::NONE,
        }
    }
}

/// Bytes before the trigger the scanner may look at: the scheme (at most
/// [`parse::MAX_SCHEME_LEN`]), `<`, and the start of the line for its mail
/// quote prefix (`delimited::quote_depth`, up to 216 bytes back).
pub(crate) const LOOK_BEHIND: usize = 256;

/// The scanner needs bytes past the end of a window that is not the end of
/// input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Incomplete;

/// A window of the input.
#[derive(Clone, Copy)]
pub(crate) struct Hay<'h> {
    pub bytes: &'h [u8],
    /// The input ends with this window.
    pub eof: bool,
}

impl Hay<'_> {
    /// The byte at `i`; `Ok(None)` past the end of input; `Incomplete`
    /// past the end of a window that is not the end of input.
    #[inline]
    pub fn get(&self, i: usize) -> Result<Option<u8>, Incomplete> {
        match self.bytes.get(i) {
            Some(&b) => Ok(Some(b)),
            None if self.eof => Ok(None),
            None => Err(Incomplete),
        }
    }
}

/// The URL text of a candidate, without a borrow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Text {
    /// The URL is these bytes of the window.
    In(Span),
    /// The URL had whitespace removed.
    Joined(Vec<u8>),
}

/// A candidate with positions relative to the window it was found in.
#[derive(Clone, Debug)]
pub(crate) struct Raw {
    pub span: Span,
    pub text: Text,
    pub kind: Kind,
    pub flags: Flags,
    pub verdict: Result<Verdict, Reject>,
}

impl Config {
    /// Looks at the trigger at `c`, which the one-pass reading
    /// ([`one_pass::at_colon`], asked first by the step) left alone.
    fn at_trigger(
        &self,
        hay: &Hay<'_>,
        c: usize,
        floor: usize,
    ) -> Result<Option<(Raw, usize)>, Incomplete> {
        let bytes = hay.bytes;
        if self.finds.contains(Finds::DEFANGED) {
            if let Some(found) = defanged::read(self, hay, c, floor)? {
                return Ok(Some(found));
            }
        }
        let Some(mut s) = run::start(bytes, c, floor) else {
            return Ok(None);
        };
        let run = s;
        while s < c && !bytes[s].is_ascii_alphabetic() {
            s += 1;
        }
        if s == c {
            return Ok(None);
        }
        let name = &bytes[s..c];
        let before = if s > floor { Some(bytes[s - 1]) } else { None };
        if name.eq_ignore_ascii_case(b"URL") {
            if before == Some(b'<') && self.wrapped {
                return self.wrapped(hay, s - 1, c);
            }
            return Ok(None);
        }
        let scheme = parse::registered_before(bytes, s, c);
        let registered = scheme.is_some();
        // A web scheme glued to the word before it (`Seehttps://`):
        // a reader sees the URL from the scheme (issue 34.3). Inside
        // `<…>` the whole name stays the author's (`<x-http://…>`).
        if !registered && before != Some(b'<') && self.bare {
            let slashes =
                (hay.get(c + 1)?, hay.get(c + 2)?) == (Some(b'/'), Some(b'/'));
            if let Some(k) =
                slashes.then(|| glued_scheme(bytes, s, c)).flatten()
            {
                let s = c - k;
                let scheme = parse::registered_prefix(&bytes[s..], k);
                return self.bare(hay, s, c, scheme, None);
            }
        }
        // RFC 3986 Appendix C: `<…>` delimits any URI, so an unregistered
        // scheme is read there too, when `//` (an authority, §3.2)
        // follows: `<svn+ssh://host/trunk>`. Its opaque forms are left
        // alone: `<o:p>`, `<xsl:value-of …>` and `<std::string>` are tags
        // and C++ names, and generic syntax would take them all. In
        // running text and quotes, `name://` is read too, when asked for
        // (`Finds::UNREGISTERED`), if the name stands alone as a word of
        // scheme syntax (see [`unregistered_opens`]): `gemini://`,
        // `hkp://`, `rwhois://`.
        let mut unregistered = false;
        if !registered {
            let slashes =
                (hay.get(c + 1)?, hay.get(c + 2)?) == (Some(b'/'), Some(b'/'));
            let angle = before == Some(b'<') && self.angle;
            // and a host after `//` (`ab://`, `"WHO://"`, `x:///` are not
            // read: RFC 3986 allows an empty authority, text does not
            // mean one)
            unregistered = slashes
                && !angle
                && self.finds.contains(Finds::UNREGISTERED)
                && run == s
                && unregistered_opens(before, name)
                && hay.get(c + 3)?.is_some_and(|b| {
                    b.is_ascii_alphanumeric() || b == b'[' || b >= 0x80
                });
            if !slashes || !(angle || unregistered) {
                return Ok(None);
            }
        }
        // A single quote delimits as the double quote does (RFC 3986
        // Appendix C names `"…"`; HTML attribute values take either, and
        // mail quotes URLs both ways): the URL ends at the matching `'`.
        let delimited = match before {
            Some(b'<') if self.angle => Some((b'>', Kind::Angle)),
            Some(b'"') if self.quoted => Some((b'"', Kind::Quoted)),
            Some(b'\'') if self.quoted => Some((b'\'', Kind::Quoted)),
            _ => None,
        };
        if let Some((closer, kind)) = delimited {
            // The name alone between the delimiters (`"http:"`, `<news:>`):
            // `delimited::read` would close at once, with nothing joined,
            // and the verdict is the scheme's (issue 32: `"http:`
            // repeated read and validated it at every other colon).
            if bytes.get(c + 1) == Some(&closer)
                && c + 1 < (s - 1).saturating_add(self.max_wrapper)
            {
                return Ok(Some(self.name_alone(hay, s, c, scheme, kind)));
            }
            // RFC 3986 Appendix C: whitespace inside `<…>` is removed; in
            // quotes only a line break's (`"` is prose's quotation mark
            // too: `"http://a.b is nice"`), but a quoted HTML attribute
            // value is the whole value (see `delimited`).
            let join = if kind == Kind::Angle {
                delimited::Join::All
            } else if attribute_value(bytes, s - 1, floor) {
                delimited::Join::Attribute
            } else {
                delimited::Join::Lines
            };
            let read = delimited::read(
                hay,
                s - 1,
                s,
                closer,
                join,
                self.max_wrapper,
            )?;
            if let Some(closed) = read {
                let found = self.closed(hay, s - 1, closed, kind);
                // A value with spaces the validator refuses (bytes that
                // are no UTF-8, a space before `?`) is read as before:
                // the bare reading of its start. The value's spaces
                // never cost a URL.
                let refused = found.0.flags.contains(Flags::SPACE_ENCODED)
                    && found.0.verdict.is_err();
                if !refused {
                    return Ok(Some(found));
                }
            }
        }
        if self.bare && (registered || unregistered) {
            // `_` and `~` are no scheme bytes (RFC 3986 §3.1): the URL
            // starts after them, and a trailing run of the same closes
            // them (see `bare::bare_end`).
            let pair = before.filter(|&b| matches!(b, b'_' | b'~'));
            return self.bare(hay, s, c, scheme, pair);
        }
        Ok(None)
    }

    /// A `www.` name, a network-path reference or a bare domain name
    /// whose first dot is at `dot` (the three tests exclude each other:
    /// `www` after a byte that opens a name, a label after `//`, a label
    /// after a byte that opens a name). `skip` may be moved past a
    /// refused name (see [`names::host`]).
    fn name(
        &self,
        hay: &Hay<'_>,
        dot: usize,
        floor: usize,
        skip: &mut usize,
    ) -> Result<Option<(Raw, usize)>, Incomplete> {
        if self.finds.contains(Finds::WWW)
            && names::may_name(hay.bytes, dot, floor)
        {
            return names::www(self, hay, dot, floor);
        }
        if self.finds.contains(Finds::DOMAIN)
            || self.finds.contains(Finds::NETWORK_PATH)
        {
            return names::host(self, hay, dot, floor, skip);
        }
        Ok(None)
    }

    /// `<URL:` at `open`, its colon at `c`.
    fn wrapped(
        &self,
        hay: &Hay<'_>,
        open: usize,
        c: usize,
    ) -> Result<Option<(Raw, usize)>, Incomplete> {
        let read = delimited::read(
            hay,
            open,
            c + 1,
            b'>',
            delimited::Join::All,
            self.max_wrapper,
        )?;
        // Not closed: the scan goes on after `URL:` and finds the URL
        // inside as a bare one (the fallback of the RFC 1738 appendix).
        Ok(read.map(|closed| self.closed(hay, open, closed, Kind::Wrapped)))
    }

    /// The delimited candidate `hay[s - 1..c + 2]` whose text is the
    /// scheme name `hay[s..c]` and its colon alone, the closer at `c + 1`:
    /// what [`delimited::read`] and [`Config::closed`] make of it, the
    /// verdict from [`parse::scheme_alone`] where the scheme has a grammar
    /// of its own. Out of line: rare in mail.
    #[inline(never)]
    fn name_alone(
        &self,
        hay: &Hay<'_>,
        s: usize,
        c: usize,
        scheme: Option<parse::Scheme>,
        kind: Kind,
    ) -> (Raw, usize) {
        let url = Span { start: s, end: c + 1 };
        let verdict =
            match scheme.and_then(|k| parse::scheme_alone(k, self.strict)) {
                Some(verdict) => verdict,
                None => parse::validate_cached(
                    hay.bytes.get(s..c + 1).unwrap_or_default(),
                    self.strict,
                ),
            };
        let raw = Raw {
            span: Span { start: s - 1, end: c + 2 },
            text: Text::In(url),
            kind,
            flags: Flags::default(),
            verdict,
        };
        (raw, c + 2)
    }

    /// Builds and validates a delimited candidate. Inlined: out of line
    /// (as the step's inlining left it once the one-pass reading was
    /// asked in the step) it cost mail 0.3% more.
    #[inline(always)]
    fn closed(
        &self,
        hay: &Hay<'_>,
        open: usize,
        closed: delimited::Closed,
        kind: Kind,
    ) -> (Raw, usize) {
        let span = Span { start: open, end: closed.end };
        let text = match closed.joined {
            Some(v) => Text::Joined(v),
            None => {
                Text::In(Span { start: closed.url_start, end: closed.url_end })
            }
        };
        let bytes = match &text {
            Text::In(s) => &hay.bytes[s.start..s.end],
            Text::Joined(v) => &v[..],
        };
        let verdict = if bytes.is_empty() {
            Err(Reject::Empty)
        } else {
            parse::validate_cached(bytes, self.strict)
        };
        // Accepted or not, the delimiters said where the URL ends: a
        // rejected `<http://a.b/{id}>` must not leave a truncated bare
        // reading of its start behind.
        let resume = closed.end;
        let raw = Raw { span, text, kind, flags: closed.flags, verdict };
        (raw, resume)
    }

    /// A bare URL from scheme start `s`, colon `c`; `scheme` is its
    /// scheme when registered (else `//` follows, [`unregistered_opens`]);
    /// `pair`: the mark before `s` that a trailing run of it closes.
    fn bare(
        &self,
        hay: &Hay<'_>,
        s: usize,
        c: usize,
        scheme: Option<parse::Scheme>,
        pair: Option<u8>,
    ) -> Result<Option<(Raw, usize)>, Incomplete> {
        if hay.bytes.get(c + 1..c + 3) == Some(b"//") {
            if let Some(found) =
                lean::empty_authority(self, hay, s, c, scheme)?
            {
                return Ok(Some(found));
            }
            // The common `http://host/path` in one pass (issue 33.3).
            if let Some(k @ (parse::Scheme::Http | parse::Scheme::Https)) =
                scheme
            {
                if !self.strict && pair.is_none() {
                    if let Some(found) = one_pass::read(self, hay, s, c, k) {
                        return Ok(Some(found));
                    }
                }
            }
        } else if !parse::is_bare_opaque(&hay.bytes[s..c]) {
            let slashes = (hay.get(c + 1)?, hay.get(c + 2)?);
            if slashes != (Some(b'/'), Some(b'/')) {
                return Ok(None);
            }
        }
        self.bare_read(hay, s, c, scheme.is_some(), pair)
    }

    /// The bare reading from scheme start `s`, colon `c`, once `//`
    /// follows or the scheme is opaque: [`bare::bare_end`], then the
    /// validator. `registered`: the scheme is; `pair`: see
    /// [`bare::bare_end`].
    fn bare_read(
        &self,
        hay: &Hay<'_>,
        s: usize,
        c: usize,
        registered: bool,
        pair: Option<u8>,
    ) -> Result<Option<(Raw, usize)>, Incomplete> {
        let host = if registered { bare::Host::Dns } else { bare::Host::Reg };
        let end = bare::bare_end(hay, s, c + 1, self.max_url, host, pair)?;
        if end.end == c + 1 {
            return Ok(None);
        }
        let span = Span { start: s, end: end.end };
        let mut flags = Flags::default();
        if end.trimmed {
            flags.insert(Flags::TRIMMED);
        }
        let verdict = if end.too_long {
            Err(Reject::TooLong)
        } else {
            parse::validate_cached(&hay.bytes[s..end.end], self.strict)
        };
        let resume = if verdict.is_ok() { end.end } else { end.hard_end };
        let raw = Raw {
            span,
            text: Text::In(span),
            kind: Kind::Bare,
            flags,
            verdict,
        };
        Ok(Some((raw, resume)))
    }
}

/// The length of the web scheme (`https`, `http`, `ftp`, any case) that
/// ends the letters before the colon `c` when more letters stand
/// before it (`Seehttps`, `comhttp`, `hhttp`) or a `.` does (`can...http`,
/// `e.g.http`: a sentence's end or an ellipsis; no registered scheme
/// ends in `.http`, `.https` or `.ftp`), so that a reader sees the
/// URL start at the scheme; `None` when the letters are the scheme alone
/// after no `.` (`git+https` is a scheme of its own, read elsewhere), or when a
/// longer tail of them is a registered scheme itself (`sftp`, `tftp`:
/// not an `ftp` glued to `s`; an obsolete one, `shttp`, does not count:
/// [`parse::OBSOLETE_WEB_TAILS`]). `s` is where the scheme run's letters
/// start. RFC 3986 §3.1 lets a scheme hold letters only before its
/// colon, so the glued word cannot be told from a scheme by syntax: only
/// the three schemes a reader recognises on sight are split off.
fn glued_scheme(bytes: &[u8], s: usize, c: usize) -> Option<usize> {
    let mut l = c;
    while l > s && bytes[l - 1].is_ascii_alphabetic() {
        l -= 1;
    }
    let letters = &bytes[l..c];
    let after_dot = l > s && bytes[l - 1] == b'.';
    let k = [&b"https"[..], b"http", b"ftp"].into_iter().find_map(|w| {
        let n = w.len();
        let tail = letters.len().checked_sub(n)?;
        ((tail > 0 || after_dot) && letters[tail..].eq_ignore_ascii_case(w))
            .then_some(n)
    })?;
    let longer = (1..letters.len() - k).any(|j| {
        let name = &letters[j..];
        let obsolete = parse::OBSOLETE_WEB_TAILS
            .iter()
            .any(|o| o.as_bytes().eq_ignore_ascii_case(name));
        !obsolete && parse::registered_prefix(name, name.len()).is_some()
    });
    (!longer).then_some(k)
}

/// The HTML attributes whose value is a URL (HTML 4.01 §6.4 `%URI`
/// attributes in use in mail: `a`, `area`, `link` `href`; `img`,
/// `script`, `iframe`, `frame`, `input` `src`; `form` `action`;
/// `button` `formaction`; `body`, `table`, `td` `background`;
/// `blockquote`, `q` `cite`; `video` `poster`; `img` `longdesc`).
const URL_ATTRIBUTES: [&[u8]; 8] = [
    b"href",
    b"src",
    b"action",
    b"formaction",
    b"background",
    b"cite",
    b"poster",
    b"longdesc",
];

/// Whether the quote at `q` opens the value of an HTML attribute that
/// holds a URL ([`URL_ATTRIBUTES`], any case): `href="`, `src = '`, after
/// a space or tab. Reads at most 24 bytes back, never before `floor`,
/// and never past a line start (a parallel slice starts at one, and must
/// see what a whole-input scan sees).
fn attribute_value(bytes: &[u8], q: usize, floor: usize) -> bool {
    let lowest = floor.max(q.saturating_sub(24));
    let mut i = q;
    let blank = |b: u8| matches!(b, b' ' | b'\t');
    while i > lowest && blank(bytes[i - 1]) {
        i -= 1;
    }
    if i <= lowest || bytes[i - 1] != b'=' {
        return false;
    }
    i -= 1;
    while i > lowest && blank(bytes[i - 1]) {
        i -= 1;
    }
    let end = i;
    while i > lowest && bytes[i - 1].is_ascii_alphabetic() {
        i -= 1;
    }
    let name = &bytes[i..end];
    i > lowest
        && blank(bytes[i - 1])
        && URL_ATTRIBUTES.iter().any(|a| a.eq_ignore_ascii_case(name))
}

/// Whether the unregistered scheme `name`, with `before` the byte before
/// it (`None` at the floor), and `//` after its colon, opens a URL in
/// running text or quotes.
///
/// RFC 3986 §3 gives `scheme "://" authority` one meaning whatever the
/// scheme, and schemes in use are not all registered: on the corpora the
/// unregistered `name://` are `gemini`, `hkp`, `hkps`, `rwhois`, `ccso`,
/// `lpr`, `directory-agent`.
/// The rest are cut or glued words, which are refused:
///
/// - a name that starts a word: after the floor, ASCII whitespace, an
///   opening bracket or a quote (`>` too: HTML text). Not glued to a
///   word (`foo_bar://`, `e.g.x://`) nor after a digit (§3.1: a scheme
///   begins with a letter, and `1abc://` is no `abc://`; the caller
///   passes only names whose run starts with a letter);
/// - two letters or more: one letter and a colon is a DOS or Windows
///   drive (RFC 8089 Appendix E.2), and `C://Users/bob` a path;
/// - not a tail of `http`, `https` or `ftp` (`ttp`, `tp`, `p`, `ttps`,
///   `s`: the scheme cut by a line break or an obfuscator, 117
///   occurrences on the bench corpora), nor a word that ends with one (`hhttp`, `Seehttps`,
///   `comhttp`: a scheme glued to the word before it, read from the
///   scheme by [`glued_scheme`]);
/// - not spelled from the letters of `https` or `ftp` alone (`hppt`,
///   `htpp`, `htttp`, `htps`, `fpt`): a mistyped scheme names no protocol
///   a reader can follow (the defanged `hxxp` and `hxxps` are registered,
///   and read as such). None of the corpora's unregistered names is
///   spelled so.
fn unregistered_opens(before: Option<u8>, name: &[u8]) -> bool {
    let opens = match before {
        None => true,
        Some(b) => {
            b.is_ascii_whitespace()
                || matches!(b, b'(' | b'[' | b'"' | b'\'' | b'>')
        }
    };
    if !opens || name.len() < 2 {
        return false;
    }
    // `a` ends with `b`, any case
    let ends = |a: &[u8], b: &[u8]| {
        a.len() >= b.len() && a[a.len() - b.len()..].eq_ignore_ascii_case(b)
    };
    const COMMON: [&[u8]; 3] = [b"http", b"https", b"ftp"];
    !COMMON.iter().any(|s| ends(s, name) || ends(name, s))
        && !spelled_from(name, b"htps", b"hp")
        && !spelled_from(name, b"ftp", b"fp")
}

/// Whether every byte of `name` is one of `letters` and each of `needs`
/// occurs in it, ASCII case ignored: `hppt` is spelled from `htps` and
/// holds `h` and `p`.
fn spelled_from(name: &[u8], letters: &[u8], needs: &[u8]) -> bool {
    let has = |set: &[u8], b: u8| set.contains(&b.to_ascii_lowercase());
    name.iter().all(|&b| has(letters, b))
        && needs
            .iter()
            .all(|&n| name.iter().any(|&b| b.eq_ignore_ascii_case(&n)))
}

#[cfg(test)]
mod testing;
#[cfg(test)]
mod tests;
