//! Header text scanned field by field, the matches of a field met before
//! taken from a per-thread cache.
//!
//! Mail repeats its header fields word for word: every message of a list
//! carries the same `List-*` fields, and those fields hold most of the
//! URLs of a mail spool. In the first 8 MB of the SpamAssassin spool, 87%
//! of the header bytes that are scanned and 98% of the URLs found in
//! headers are in fields that an earlier message carried as they are.
//! Scanning such a field again (its colons, the delimited read, the
//! verdict) was a third of the search's instructions there (callgrind:
//! the header scan was 19.1 M of 60.4 M).
//!
//! A run of header text is still scanned from trigger to trigger, the
//! floor where the last candidate ended, as `Finder::find_iter` scans
//! it. But at the first trigger of a field that no reading entered (the
//! floor at or before the field's start, right after a line break), the
//! field is answered at once, from the cache or by scanning it alone.
//! Fields start where the parallel slices of a file may start
//! ([`Finder::candidates_in`]): look-behind stops at the line break, so a
//! field scanned alone gives what the run's scan gives for it, unless a
//! reading runs past its end.
//!
//! That is the one case the cache must not keep: on a miss the field is
//! scanned as a window that is not the end of the input ([`Hay`] with
//! `eof` unset), and when the scanner asks for a byte past it (an `<`
//! closed in the next field, a URL running to its end), nothing is kept
//! and the field is scanned within the run. A field's answer is
//! therefore the same wherever the field stands, and the cache only
//! changes how fast the answer comes.

use crate::scan::{Config, Hay, Raw, Span, Step, Text};
use crate::search::Candidate;
use crate::{Finder, Match};

/// Slots of the cache, direct-mapped by a hash of the field.
const SLOTS: usize = 256;

/// Longer fields are always scanned, so that the cache stays small (its
/// keys at most 128 KiB a thread, and the matches in them).
const LONGEST: usize = 512;

/// The matches of fields met before, for one scanner configuration.
#[derive(Default)]
pub(super) struct FieldCache {
    /// The configuration the answers were found with.
    cfg: Option<Config>,
    slots: Vec<Slot>,
    /// The matches of the field being scanned on a miss.
    fresh: Vec<Raw>,
}

/// A field and its matches; an empty key is an empty slot (a field is
/// never empty).
#[derive(Default)]
struct Slot {
    hash: u64,
    key: Vec<u8>,
    /// Its accepted candidates, relative to it.
    found: Vec<Raw>,
    /// Where the run's scan goes on after the field, relative to it.
    resume: usize,
}

/// What the cache says of a field.
enum Answer {
    /// Its matches are in this slot.
    Slot(usize),
    /// It has no match; the run's scan goes on at this offset in it.
    Empty(usize),
    /// It must be scanned within the run.
    Unknown,
}

impl FieldCache {
    /// Empties the cache if its answers were found with another
    /// configuration.
    fn for_config(&mut self, cfg: &Config) {
        if self.cfg.as_ref() != Some(cfg) {
            self.slots.clear();
            self.cfg = Some(cfg.clone());
        }
    }

    /// The answer for `field`, from the cache or by scanning it alone.
    fn answer(&mut self, cfg: &Config, field: &[u8]) -> Answer {
        if field.len() > LONGEST {
            return Answer::Unknown;
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Slot::default);
        }
        let hash = hash(field);
        let index = (hash >> 56) as usize % SLOTS;
        let Some(slot) = self.slots.get_mut(index) else {
            return Answer::Unknown;
        };
        if slot.hash == hash && slot.key == field {
            return Answer::Slot(index);
        }
        // A miss: the field alone, as a window that is not the end.
        let hay = Hay { bytes: field, eof: false };
        self.fresh.clear();
        let (mut pos, mut floor) = (0, 0);
        loop {
            match cfg.step_until(hay, pos, floor, usize::MAX) {
                Step::Found(raw, resume) => {
                    if raw.verdict.is_ok() {
                        self.fresh.push(raw);
                    }
                    (pos, floor) = (resume, resume);
                }
                Step::Done => break,
                Step::NeedMore(_) => return Answer::Unknown,
            }
        }
        if self.fresh.is_empty() {
            // Not kept: fields without URLs are cheap to scan, and would
            // push out those with.
            return Answer::Empty(floor);
        }
        slot.hash = hash;
        slot.key.clear();
        slot.key.extend_from_slice(field);
        std::mem::swap(&mut slot.found, &mut self.fresh);
        slot.resume = floor;
        Answer::Slot(index)
    }
}

/// A hash of the bytes of a field, eight at a time.
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    let mut h = bytes.len() as u64;
    for w in words.by_ref() {
        let w = <[u8; 8]>::try_from(w).map_or(0, u64::from_le_bytes);
        h = mix(h, w);
    }
    let mut last = [0u8; 8];
    let rest = words.remainder();
    if let Some(dst) = last.get_mut(..rest.len()) {
        dst.copy_from_slice(rest);
    }
    mix(h, u64::from_le_bytes(last))
}

/// The accepted matches of `text`, a run of header fields whose starts
/// (offsets in `text`, each right after a line break, increasing) are
/// `starts`: what `finder.find_iter(text)` gives, with the matches of
/// fields met before taken from `cache`.
pub(super) fn matches<'c, 'h>(
    finder: &'c Finder,
    cache: &'c mut FieldCache,
    text: &'h [u8],
    starts: &'c [usize],
) -> FieldMatches<'c, 'h> {
    let cfg = &finder.inner().cfg;
    cache.for_config(cfg);
    FieldMatches {
        cfg,
        cache,
        text,
        starts,
        next: 0,
        pos: 0,
        floor: 0,
        cached: None,
    }
}

/// Iterator over the matches of a header run; see [`matches`].
///
/// It is the scan of the whole run ([`Config::step_until`] from trigger
/// to trigger, the floor where the last candidate ended), but that the
/// triggers of a field no reading entered (the floor at or before its
/// start) are answered for the field at once, from the cache or by
/// scanning the field alone. Fields without a trigger, most of them, are
/// passed over by the trigger search as before, and never looked up.
pub(super) struct FieldMatches<'c, 'h> {
    cfg: &'c Config,
    cache: &'c mut FieldCache,
    text: &'h [u8],
    starts: &'c [usize],
    /// Index in `starts` of the first field start after the last
    /// trigger.
    next: usize,
    /// Where the trigger search goes on.
    pos: usize,
    /// Look-behind limit: where the last candidate ended.
    floor: usize,
    /// The slot being given, the next of its matches, and where its
    /// field starts.
    cached: Option<(usize, usize, usize)>,
}

impl<'h> FieldMatches<'_, 'h> {
    /// The field of the run that holds offset `c` (at or after the last
    /// one asked): its start and end.
    fn field_of(&mut self, c: usize) -> (usize, usize) {
        while self.starts.get(self.next).is_some_and(|&s| s <= c) {
            self.next += 1;
        }
        let start = match self.next.checked_sub(1) {
            Some(k) => self.starts.get(k).copied().unwrap_or(0),
            None => 0,
        };
        let end = self.starts.get(self.next).copied();
        (start, end.unwrap_or(self.text.len()).min(self.text.len()))
    }

    /// A cached candidate of the field at `start`, as the run's scan
    /// gives it.
    fn rebuild(&self, raw: &Raw, start: usize) -> Option<Match<'h>> {
        let shift =
            |s: Span| Span { start: start + s.start, end: start + s.end };
        let text = match &raw.text {
            Text::In(s) => Text::In(shift(*s)),
            Text::Joined(v) => Text::Joined(v.clone()),
        };
        let raw = Raw { span: shift(raw.span), text, ..*raw };
        Candidate::from_raw(raw, self.text).into_result().ok()
    }
}

impl<'h> Iterator for FieldMatches<'_, 'h> {
    type Item = Match<'h>;

    fn next(&mut self) -> Option<Match<'h>> {
        loop {
            if let Some((slot, i, start)) = self.cached {
                let found =
                    self.cache.slots.get(slot).and_then(|s| s.found.get(i));
                if let Some(raw) = found {
                    self.cached = Some((slot, i + 1, start));
                    if let Some(m) = self.rebuild(raw, start) {
                        return Some(m);
                    }
                    continue;
                }
                self.cached = None;
            }
            let text = self.text;
            let (c, _) = self.cfg.triggers.find_kind(
                text,
                self.pos,
                self.floor,
                self.cfg.finds,
            )?;
            let (start, end) = self.field_of(c);
            if self.floor <= start {
                let field = text.get(start..end).unwrap_or_default();
                match self.cache.answer(self.cfg, field) {
                    Answer::Slot(slot) => {
                        let resume =
                            self.cache.slots.get(slot).map_or(0, |s| s.resume);
                        self.floor = start + resume;
                        self.pos = end;
                        self.cached = Some((slot, 0, start));
                        continue;
                    }
                    Answer::Empty(resume) => {
                        self.floor = start + resume;
                        self.pos = end;
                        continue;
                    }
                    Answer::Unknown => {}
                }
            }
            let hay = Hay { bytes: text, eof: true };
            match self.cfg.step_until(hay, c, self.floor, end) {
                Step::Found(raw, resume) => {
                    (self.pos, self.floor) = (resume, resume);
                    if let Ok(m) = Candidate::from_raw(raw, text).into_result()
                    {
                        return Some(m);
                    }
                }
                // With the whole run in hand the scanner never needs more.
                Step::Done | Step::NeedMore(_) => self.pos = end,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Header lines that try the cut between fields: readings that run on
    /// into the next field (an `<` closed there, a wrapper broken at a
    /// line end), continuation lines, a field named like a scheme, fields
    /// too long to keep, and fields that repeat.
    const LINES: [&str; 18] = [
        "List-Unsubscribe: <http://a.example/x>,",
        "\t<mailto:l-request@a.example?subject=unsubscribe>",
        "List-Archive: <http://a.example/arch",
        " more> tail http://t.example/",
        "X-Url: <URL:http://w.example/a-",
        "  b>",
        "Subject: see http://s.example/ now",
        "X-Q: \"http://q.example/a\"",
        "To: a@b.example",
        "X-Next:>",
        "http://c.example/field-as-url",
        "X-Time: 12:34:56",
        "X-Bare: mailto:x@y.example news:comp.lang.c",
        "News: comp.lang",
        "X-Deep: > > <http://quote.example/>",
        "X-Open: <http://o.example/",
        "X-Open2: \"mailto:q@",
        "",
    ];

    /// A run of header text made of `LINES[k]` for each `k`, with the
    /// starts of its fields (lines that do not start with a blank).
    fn run(kinds: &[usize], lead: bool, long: bool) -> (Vec<u8>, Vec<usize>) {
        let mut text = Vec::new();
        let mut starts = Vec::new();
        if lead {
            text.push(b'\n');
        }
        for &k in kinds {
            let line = LINES[k % LINES.len()];
            if !line.starts_with([' ', '\t']) {
                starts.push(text.len());
            }
            text.extend_from_slice(line.as_bytes());
            if long && k % 5 == 0 {
                text.extend_from_slice(&[b'a'; LONGEST]);
            }
            text.push(b'\n');
        }
        (text, starts)
    }

    fn finders() -> [Finder; 3] {
        [
            Finder::new(),
            Finder::builder().angle(false).build(),
            Finder::builder().max_wrapper_len(16).strict(true).build(),
        ]
    }

    /// Every run, one after the other through one cache, each with each
    /// finder: the matches are those of a scan of the whole run.
    fn check(runs: &[(Vec<u8>, Vec<usize>)]) {
        let mut cache = FieldCache::default();
        for _ in 0..2 {
            for finder in &finders() {
                for (text, starts) in runs {
                    let want: Vec<_> = finder.find_iter(text).collect();
                    let got: Vec<_> =
                        matches(finder, &mut cache, text, starts).collect();
                    assert_eq!(
                        got,
                        want,
                        "{:?} {starts:?}",
                        String::from_utf8_lossy(text)
                    );
                }
            }
        }
    }

    #[test]
    fn every_run_of_three_lines_as_the_whole_run_scan() {
        let mut runs = Vec::new();
        let n = LINES.len();
        for a in 0..n {
            for b in 0..n {
                for c in 0..n {
                    runs.push(run(&[a, b, c], (a + b + c) % 2 == 0, false));
                }
            }
        }
        check(&runs);
    }

    #[test]
    fn the_cache_answers_and_the_cut_matters() {
        // Repeated fields are answered from the cache...
        let finder = Finder::new();
        let mut cache = FieldCache::default();
        let (text, starts) = run(&[0, 1, 6, 0, 1, 6], true, false);
        let got: Vec<_> = matches(&finder, &mut cache, &text, &starts)
            .map(|m| String::from_utf8_lossy(m.url()).into_owned())
            .collect();
        assert_eq!(got.len(), 6, "{got:?}");
        let kept = cache.slots.iter().filter(|s| !s.key.is_empty()).count();
        assert_eq!(kept, 2);
        // ...and a field whose `<` closes in the next one is not kept:
        // alone, it would read as a bare URL.
        let (text, starts) = run(&[15, 9], false, false);
        let whole: Vec<_> = finder.find_iter(&text).collect();
        let alone: Vec<_> = finder.find_iter(&text[..starts[1]]).collect();
        assert_ne!(whole, alone);
        let got: Vec<_> =
            matches(&finder, &mut cache, &text, &starts).collect();
        assert_eq!(got, whole);
        let kept = cache.slots.iter().filter(|s| !s.key.is_empty()).count();
        assert_eq!(kept, 2);
    }

    proptest! {
        #[test]
        fn runs_through_one_cache_as_the_whole_run_scan(
            runs in prop::collection::vec(
                (
                    prop::collection::vec(0..LINES.len(), 0..12),
                    any::<bool>(),
                    any::<bool>(),
                ),
                1..8,
            )
        ) {
            let runs: Vec<_> = runs
                .iter()
                .map(|(kinds, lead, long)| run(kinds, *lead, *long))
                .collect();
            check(&runs);
        }
    }
}
