//! [`Finder`], its builder, and the matches of a slice search.

use crate::parse::{Reject, Scheme};
use crate::scan::{
    Config, Finds, Flags, Hay, Kind, Raw, Span, Step, Text, Triggers,
};
use std::borrow::Cow;
use std::sync::Arc;

/// Builds a [`Finder`].
///
/// ```
/// let finder = urlgrep::Finder::builder().quoted(false).build();
/// let urls: Vec<_> = finder.find_iter(b"\"http://a.example/\"").collect();
/// assert_eq!(urls[0].kind(), urlgrep::Kind::Bare);
/// ```
#[derive(Clone, Debug, Default)]
pub struct FinderBuilder {
    cfg: Config,
    capacity: Option<usize>,
    lines: Option<bool>,
}

impl FinderBuilder {
    /// A builder with the defaults.
    pub fn new() -> FinderBuilder {
        FinderBuilder::default()
    }

    /// Recognise RFC 1738 `<URL:…>` wrappers. By default, wrappers are
    /// recognised.
    pub fn wrapped(&mut self, yes: bool) -> &mut FinderBuilder {
        self.cfg.wrapped = yes;
        self
    }

    /// Recognise `<scheme:…>` (RFC 3986 Appendix C). By default, angle
    /// brackets are recognised.
    pub fn angle(&mut self, yes: bool) -> &mut FinderBuilder {
        self.cfg.angle = yes;
        self
    }

    /// Recognise `"scheme:…"` (RFC 3986 Appendix C). By default, double
    /// quotes are recognised.
    pub fn quoted(&mut self, yes: bool) -> &mut FinderBuilder {
        self.cfg.quoted = yes;
        self
    }

    /// Recognise bare URLs in running text. By default, bare URLs are
    /// recognised.
    pub fn bare(&mut self, yes: bool) -> &mut FinderBuilder {
        self.cfg.bare = yes;
        self
    }

    /// The longest a delimited URL may be, delimiters and whitespace
    /// included; a longer one is not a wrapper and its start is read as a
    /// bare URL. By default, 2048 bytes.
    pub fn max_wrapper_len(&mut self, len: usize) -> &mut FinderBuilder {
        self.cfg.max_wrapper = len.max(8);
        self
    }

    /// The longest a bare URL may be; a longer run is rejected as
    /// [`Reject::TooLong`] and scanning goes on after the cap. By default,
    /// 8192 bytes.
    pub fn max_url_len(&mut self, len: usize) -> &mut FinderBuilder {
        self.cfg.max_url = len.max(8);
        self
    }

    /// Accept only RFC 1738 URLs (ASCII, unsafe characters escaped). By
    /// default, RFC 3986 and RFC 3987 are the measure.
    pub fn strict(&mut self, yes: bool) -> &mut FinderBuilder {
        self.cfg.strict = yes;
        self
    }

    /// Which scheme-less detectors run besides the URL scanner:
    /// e-mail addresses ([`Finds::EMAIL`], [`Kind::Email`]) and `www.`
    /// names ([`Finds::WWW`], [`Kind::Www`]), printed as they stand in
    /// the text. By default, none ([`Finds::NONE`]).
    pub fn find(&mut self, finds: Finds) -> &mut FinderBuilder {
        self.cfg.finds = finds;
        self
    }

    /// How triggers are searched; [`Triggers::Naive`] is the test oracle.
    /// By default, [`Triggers::Simd`].
    pub fn triggers(&mut self, triggers: Triggers) -> &mut FinderBuilder {
        self.cfg.triggers = triggers;
        self
    }

    /// How many bytes the reader search asks for in one read (at least 1;
    /// the buffer grows past this only while one candidate needs it, up to
    /// the length caps). By default, 256 KiB.
    pub fn buffer_capacity(&mut self, bytes: usize) -> &mut FinderBuilder {
        self.capacity = Some(bytes.max(1));
        self
    }

    /// Count lines in the reader search, for [`crate::Position::line`].
    /// By default, lines are counted.
    pub fn line_numbers(&mut self, yes: bool) -> &mut FinderBuilder {
        self.lines = Some(yes);
        self
    }

    /// Builds the finder.
    pub fn build(&self) -> Finder {
        Finder {
            inner: Arc::new(Inner {
                cfg: self.cfg.clone(),
                capacity: self.capacity.unwrap_or(256 * 1024),
                lines: self.lines.unwrap_or(true),
            }),
        }
    }
}

/// A reusable, cheap-to-clone URL finder.
///
/// ```
/// let finder = urlgrep::Finder::new();
/// let text = b"Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n   type=d> and (see http://example.com/a_(b)).";
/// let urls: Vec<String> = finder
///     .find_iter(text)
///     .map(|m| String::from_utf8_lossy(m.url()).into_owned())
///     .collect();
/// assert_eq!(urls, ["ftp://info.cern.ch/pub/www/doc;type=d", "http://example.com/a_(b)"]);
/// ```
#[derive(Clone, Debug)]
pub struct Finder {
    inner: Arc<Inner>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub cfg: Config,
    pub capacity: usize,
    pub lines: bool,
}

impl Default for Finder {
    fn default() -> Finder {
        Finder::new()
    }
}

impl Finder {
    /// A finder with the default settings.
    pub fn new() -> Finder {
        FinderBuilder::new().build()
    }

    /// A builder to configure a finder.
    pub fn builder() -> FinderBuilder {
        FinderBuilder::new()
    }

    pub(crate) fn inner(&self) -> &Inner {
        &self.inner
    }

    /// The URLs in `hay`, in order, lazily.
    pub fn find_iter<'f, 'h>(&'f self, hay: &'h [u8]) -> FindIter<'f, 'h> {
        FindIter { it: self.candidates(hay) }
    }

    /// Every candidate in `hay`, accepted or rejected, in order; a rejected
    /// candidate says why ([`Candidate::reject`]).
    pub fn candidates<'f, 'h>(
        &'f self,
        hay: &'h [u8],
    ) -> CandidateIter<'f, 'h> {
        CandidateIter::new(&self.inner.cfg, hay, 0, usize::MAX)
    }

    /// Hands the URLs of `hay` to `each`, in order, until it answers
    /// `false`; returns the rejected candidates passed over. What
    /// [`Finder::find_iter`] gives, pushed: the scanner's step calls
    /// `each` in its loop (issue 33: a URL of a dense text went through
    /// the step's return and the iterator's, ~130 instructions).
    pub(crate) fn each_url<'h>(
        &self,
        hay: &'h [u8],
        mut each: impl FnMut(Match<'h>) -> bool,
    ) -> u64 {
        let mut rejected = 0;
        let mut one =
            |raw: Raw, _: usize| each(Candidate::from_raw(raw, hay).body);
        let whole = Hay { bytes: hay, eof: true };
        // With the whole text in hand the step never needs more.
        let cfg = &self.inner.cfg;
        cfg.step_each(whole, 0, 0, usize::MAX, &mut rejected, &mut one);
        rejected
    }

    /// The candidates whose trigger (the colon after the scheme) lies in
    /// `range`, scanning as if the input started at `range.start`; a
    /// candidate may read past `range.end`. This is the work unit of a
    /// parallel slice: split `hay` right after newlines, scan the slices
    /// independently, then keep slice `k` as it is when the previous
    /// slice's [`CandidateIter::resume`] is at most `range.start`, and
    /// scan it again with [`Finder::candidates_from`] otherwise. The result
    /// equals [`Finder::candidates`] over the whole of `hay`.
    pub fn candidates_in<'f, 'h>(
        &'f self,
        hay: &'h [u8],
        range: std::ops::Range<usize>,
    ) -> CandidateIter<'f, 'h> {
        let start = range.start.min(hay.len());
        CandidateIter::new(&self.inner.cfg, hay, start, range.end)
    }

    /// Like [`Finder::candidates_in`], but resuming a scan whose previous
    /// candidate ended at `resume` (which may lie before `range.start`
    /// only when it equals it, or after it when a candidate spilled over).
    pub fn candidates_from<'f, 'h>(
        &'f self,
        hay: &'h [u8],
        resume: usize,
        stop: usize,
    ) -> CandidateIter<'f, 'h> {
        let start = resume.min(hay.len());
        CandidateIter::new(&self.inner.cfg, hay, start, stop)
    }

    /// The candidates of `window`, a part of an input that goes on after
    /// it (a header field scanned alone): the scan ends, and
    /// [`CandidateIter::incomplete`] says so, where a candidate would
    /// read past the window.
    pub(crate) fn candidates_window<'f, 'h>(
        &'f self,
        window: &'h [u8],
    ) -> CandidateIter<'f, 'h> {
        CandidateIter {
            eof: false,
            ..CandidateIter::new(&self.inner.cfg, window, 0, usize::MAX)
        }
    }

    /// Whether `other` scans as this finder does (the same candidates,
    /// verdicts and caps): answers found with one hold for the other.
    pub(crate) fn same_scan(&self, other: &Finder) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || self.inner.cfg == other.inner.cfg
    }
}

/// A URL found in the text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Match<'h> {
    pub(crate) span: Span,
    pub(crate) url: Cow<'h, [u8]>,
    pub(crate) kind: Kind,
    pub(crate) scheme: Scheme,
    pub(crate) flags: Flags,
    /// The host's byte range in `url`, as the validator found it.
    pub(crate) host: Option<(u32, u32)>,
    /// The URL as written, when it was defanged ([`Flags::DEFANGED`]).
    pub(crate) defanged: Option<Cow<'h, [u8]>>,
}

impl<'h> Match<'h> {
    /// The raw text of the match, delimiters included. In a reader search
    /// it is relative to the internal buffer: use [`crate::Position`].
    pub fn span(&self) -> Span {
        self.span
    }

    /// The URL, with wrapper whitespace removed.
    pub fn url(&self) -> &[u8] {
        &self.url
    }

    /// The URL as borrowed bytes when nothing was removed, else owned.
    pub fn url_cow(&self) -> &Cow<'h, [u8]> {
        &self.url
    }

    /// How the URL was delimited.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// What was done to get the URL out of its text.
    pub fn flags(&self) -> Flags {
        self.flags
    }

    /// The scheme name as written, e.g. `HTTP`; for a match without one
    /// ([`Kind::Email`], [`Kind::Www`]) the scheme it implies.
    pub fn scheme_name(&self) -> &[u8] {
        if let Some(implied) = self.kind.implied_scheme() {
            return implied.as_bytes();
        }
        crate::parse::scheme_name(&self.url)
    }

    /// The host as written (IP literal brackets kept), when the URL has a
    /// non-empty one; the validator found it ([`crate::parse::Verdict`]).
    /// `None` for a rejected candidate.
    pub fn host(&self) -> Option<&[u8]> {
        let (start, end) = self.host?;
        self.url.get(start as usize..end as usize)
    }

    /// An owned copy.
    pub fn into_owned(self) -> Match<'static> {
        Match {
            span: self.span,
            url: Cow::Owned(self.url.into_owned()),
            kind: self.kind,
            scheme: self.scheme,
            flags: self.flags,
            host: self.host,
            defanged: self.defanged.map(|d| Cow::Owned(d.into_owned())),
        }
    }

    /// The URL as it was written when it was defanged
    /// ([`Flags::DEFANGED`]: `hxxp://evil[.]example`, while
    /// [`Match::url`] is `http://evil.example`); `None` otherwise.
    pub fn defanged(&self) -> Option<&[u8]> {
        self.defanged.as_deref()
    }
}

/// A candidate URL: a [`Match`] if the validator accepted it, else the
/// reason it did not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate<'h> {
    pub(crate) body: Match<'h>,
    pub(crate) reject: Option<Reject>,
}

impl<'h> Candidate<'h> {
    /// The candidate's text and position (its scheme is a best guess when
    /// it was rejected).
    pub fn as_match(&self) -> &Match<'h> {
        &self.body
    }

    /// Why the validator rejected it, or `None` when it is a match.
    pub fn reject(&self) -> Option<Reject> {
        self.reject
    }

    /// The match, or the candidate and its reject reason.
    pub fn into_result(self) -> Result<Match<'h>, (Match<'h>, Reject)> {
        match self.reject {
            None => Ok(self.body),
            Some(r) => Err((self.body, r)),
        }
    }

    /// A match as a candidate (not rejected).
    #[inline(always)]
    pub(crate) fn accepted(m: Match<'h>) -> Candidate<'h> {
        Candidate { body: m, reject: None }
    }

    /// Builds a candidate from the scanner's window-relative form.
    #[inline(always)]
    pub(crate) fn from_raw(raw: Raw, window: &'h [u8]) -> Candidate<'h> {
        let url: Cow<'h, [u8]> = match raw.text {
            Text::In(s) => Cow::Borrowed(&window[s.start..s.end]),
            Text::Joined(v) => Cow::Owned(v),
        };
        let defanged = raw
            .flags
            .contains(Flags::DEFANGED)
            .then(|| Cow::Borrowed(&window[raw.span.start..raw.span.end]));
        let (scheme, host, reject) = match raw.verdict {
            Ok(v) => (v.scheme, v.host, None),
            Err(r) => (crate::parse::scheme_of(&url), None, Some(r)),
        };
        Candidate {
            body: Match {
                span: raw.span,
                url,
                kind: raw.kind,
                scheme,
                flags: raw.flags,
                host,
                defanged,
            },
            reject,
        }
    }
}

/// Iterator over the candidates of a slice; see [`Finder::candidates`].
#[derive(Debug)]
pub struct CandidateIter<'f, 'h> {
    cfg: &'f Config,
    hay: &'h [u8],
    /// Where the trigger search goes on.
    pos: usize,
    /// Look-behind limit: where the last candidate ended.
    floor: usize,
    /// Triggers at or after this are left alone.
    stop: usize,
    /// `hay` ends the input (else it is a window: see
    /// [`Finder::candidates_window`]).
    eof: bool,
    /// The scan stopped where a candidate would read past the window.
    incomplete: bool,
    /// Where that unfinished candidate's scan starts again.
    pending: usize,
    /// Rejected candidates passed over ([`CandidateIter::next_accepted`]).
    rejected: u64,
}

impl<'f, 'h> CandidateIter<'f, 'h> {
    fn new(
        cfg: &'f Config,
        hay: &'h [u8],
        start: usize,
        stop: usize,
    ) -> CandidateIter<'f, 'h> {
        CandidateIter {
            cfg,
            hay,
            pos: start,
            floor: start,
            stop,
            eof: true,
            incomplete: false,
            pending: start,
            rejected: 0,
        }
    }

    /// The matches alone: the rejected candidates are passed over inside
    /// the step and only counted ([`FindIter::take_rejected`]).
    pub(crate) fn accepted(self) -> FindIter<'f, 'h> {
        FindIter { it: self }
    }

    /// Where scanning goes on after the last candidate yielded: the end of
    /// an accepted URL or of a closed delimited candidate, the end of a
    /// rejected bare run (the start of the range before
    /// any candidate). See [`Finder::candidates_in`].
    pub fn resume(&self) -> usize {
        self.floor
    }

    /// Whether a window's scan stopped because a candidate would read
    /// past it ([`Finder::candidates_window`]).
    pub(crate) fn incomplete(&self) -> bool {
        self.incomplete
    }

    /// The next trigger at or after where the scan goes on, without
    /// moving.
    pub(crate) fn next_trigger(&self) -> Option<usize> {
        let finds = self.cfg.finds;
        let found =
            self.cfg.triggers.find_kind(self.hay, self.pos, self.floor, finds);
        found.map(|(c, _)| c)
    }

    /// Where the trigger search goes on, and the look-behind limit: the
    /// state [`CandidateIter::jump`] restores.
    pub(crate) fn state(&self) -> (usize, usize) {
        (self.pos, self.floor)
    }

    /// When the scan stopped [`CandidateIter::incomplete`], where it
    /// starts again once the window holds more.
    pub(crate) fn pending(&self) -> usize {
        self.pending
    }

    /// Goes on from `pos`, the look-behind limited at `floor`.
    pub(crate) fn jump(&mut self, pos: usize, floor: usize) {
        (self.pos, self.floor) = (pos, floor);
    }

    /// The next candidate in the scanner's form, its text relative to
    /// the slice: one scan step from the trigger search's position
    /// ([`Candidate::from_raw`] makes it a candidate). When the triggers
    /// before `stop` hold none, the search goes on from `stop`.
    #[inline(always)]
    pub(crate) fn next_raw_until(&mut self, stop: usize) -> Option<Raw> {
        let hay = Hay { bytes: self.hay, eof: self.eof };
        match self.cfg.step_until(hay, self.pos, self.floor, stop) {
            Step::Found(raw, resume) => {
                self.pos = resume;
                self.floor = resume;
                Some(raw)
            }
            Step::Done { .. } => {
                self.pos = stop.min(self.hay.len());
                None
            }
            Step::NeedMore { at, .. } => {
                // Only a window asks; with the whole input in hand the
                // scanner never needs more.
                self.incomplete = !self.eof;
                self.pending = at;
                self.pos = stop.min(self.hay.len());
                None
            }
        }
    }

    /// The next accepted candidate in the scanner's form, up to the
    /// iterator's own stop: [`CandidateIter::next_raw`] with the
    /// rejected candidates passed over inside the step
    /// ([`Config::step_accepted`]) and counted, the position and floor
    /// left where [`CandidateIter::next_raw`] would have left them after
    /// them.
    #[inline(always)]
    pub(crate) fn next_accepted(&mut self) -> Option<Raw> {
        let hay = Hay { bytes: self.hay, eof: self.eof };
        let (stop, count) = (self.stop, &mut self.rejected);
        match self.cfg.step_accepted(hay, self.pos, self.floor, stop, count) {
            Step::Found(raw, resume) => {
                self.pos = resume;
                self.floor = resume;
                Some(raw)
            }
            Step::Done { floor } => {
                self.floor = floor;
                self.pos = self.hay.len();
                None
            }
            Step::NeedMore { at, floor } => {
                self.floor = floor;
                self.incomplete = !self.eof;
                self.pending = at;
                self.pos = self.hay.len();
                None
            }
        }
    }

    /// [`CandidateIter::next_raw_until`] up to the iterator's own stop.
    #[inline(always)]
    pub(crate) fn next_raw(&mut self) -> Option<Raw> {
        match self.next_raw_until(self.stop) {
            Some(raw) => Some(raw),
            None => {
                self.pos = self.hay.len();
                None
            }
        }
    }
}

impl<'h> Iterator for CandidateIter<'_, 'h> {
    type Item = Candidate<'h>;

    #[inline]
    fn next(&mut self) -> Option<Candidate<'h>> {
        let raw = self.next_raw()?;
        Some(Candidate::from_raw(raw, self.hay))
    }
}

/// Iterator over the URLs of a slice; see [`Finder::find_iter`].
#[derive(Debug)]
pub struct FindIter<'f, 'h> {
    it: CandidateIter<'f, 'h>,
}

impl FindIter<'_, '_> {
    /// The rejected candidates passed over since the last call: a
    /// rejected candidate is a candidate, and a caller that counts them
    /// (`--json`'s `rejected`) reads their number here, none returned.
    pub(crate) fn take_rejected(&mut self) -> u64 {
        std::mem::take(&mut self.it.rejected)
    }

    /// Where scanning goes on after the last match: as
    /// [`CandidateIter::resume`] after the candidates passed over.
    pub(crate) fn resume(&self) -> usize {
        self.it.resume()
    }
}

impl<'h> Iterator for FindIter<'_, 'h> {
    type Item = Match<'h>;

    fn next(&mut self) -> Option<Match<'h>> {
        // A rejected candidate is dropped inside the step, before it is
        // made public (its scheme is not looked up).
        let raw = self.it.next_accepted()?;
        Some(Candidate::from_raw(raw, self.it.hay).body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_types_are_send_sync() {
        fn check<T: Send + Sync>() {}
        check::<Finder>();
        check::<Match<'static>>();
        check::<Candidate<'static>>();
        check::<crate::search::Position>();
        check::<Reject>();
    }

    #[test]
    fn borrowed_unless_joined() {
        let f = Finder::new();
        let text = b"<http://a.b/\n c> http://d.e/";
        let ms: Vec<_> = f.find_iter(text).collect();
        assert!(matches!(ms[0].url_cow(), Cow::Owned(_)));
        assert!(matches!(ms[1].url_cow(), Cow::Borrowed(_)));
        assert_eq!(ms[0].span(), Span { start: 0, end: 16 });
    }

    #[test]
    fn slices_equal_whole() {
        let f = Finder::new();
        let text: &[u8] =
            b"a http://a.b/\n<URL:http://c.\n d/> x\nmailto:q@r.s\n";
        let whole: Vec<_> = f.candidates(text).collect();
        // split after each newline
        let nl: Vec<usize> = std::iter::once(0)
            .chain(
                text.iter()
                    .enumerate()
                    .filter(|(_, &b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        let mut got = Vec::new();
        let mut resume = 0;
        for (k, &start) in nl.iter().enumerate() {
            let end = nl.get(k + 1).copied().unwrap_or(text.len());
            if start >= end {
                continue;
            }
            let mut it = if resume <= start {
                f.candidates_in(text, start..end)
            } else {
                f.candidates_from(text, resume, end)
            };
            got.extend(it.by_ref());
            resume = it.resume().max(resume);
        }
        assert_eq!(got, whole);
    }

    #[test]
    fn rejects_are_reported() {
        let f = Finder::new();
        let c: Vec<_> = f.candidates(b"http://a.b:99999/ x").collect();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].reject(), Some(Reject::BadPort));
        assert_eq!(f.find_iter(b"http://a.b:99999/").count(), 0);
    }
}
