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

use crate::scan::{Raw, Span, Text};
use crate::search::{Candidate, CandidateIter, Finder, Match};

/// Slots of the cache: sets of [`WAYS`] slots chosen by a hash of the
/// field, the one used last first.
///
/// With the scheme-less detectors on (`--find all`), most fields have a
/// trigger (a `.` or `@`): the first 8 MB of the SpamAssassin spool
/// asked 29,260 times, and 256 direct-mapped slots that kept only fields
/// with matches answered 21,449 (73%), where 92% of those fields had
/// been met word for word before (addresses too: `Delivered-To` 99.5%,
/// `To` 80%, `From` 79%; `Received` and `Message-ID` are not scanned at
/// all, [`super::header::is_skipped_field`]). With sets of two, and
/// fields without matches kept too, the misses went from 7,811 to
/// 2,736.
const SLOTS: usize = 512;

/// Slots of a set.
const WAYS: usize = 2;

/// Longer fields are always scanned, so that the cache stays small (its
/// keys at most 256 KiB a thread, and the matches in them).
const LONGEST: usize = 512;

/// The matches of fields met before, for one scanner configuration.
#[derive(Default)]
pub(super) struct FieldCache {
    /// The finder the answers were found with.
    finder: Option<Finder>,
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
    /// Its rejected candidates (counted, not kept).
    rejected: u64,
    /// Where the run's scan goes on after the field, relative to it.
    resume: usize,
}

/// What the cache says of a field.
enum Answer {
    /// Its matches (none, maybe) are in this slot.
    Slot(usize),
    /// It must be scanned within the run.
    Unknown,
}

impl FieldCache {
    /// Empties the cache if its answers were found with another
    /// configuration.
    fn for_config(&mut self, finder: &Finder) {
        if !self.finder.as_ref().is_some_and(|f| f.same_scan(finder)) {
            self.slots.clear();
            self.finder = Some(finder.clone());
        }
    }

    /// The answer for `field`, from the cache or by scanning it alone.
    fn answer(&mut self, finder: &Finder, field: &[u8]) -> Answer {
        if field.len() > LONGEST {
            return Answer::Unknown;
        }
        if self.slots.is_empty() {
            self.slots.resize_with(SLOTS, Slot::default);
        }
        let hash = hash(field);
        let first = (hash >> 56) as usize % (SLOTS / WAYS) * WAYS;
        let Some(set) = self.slots.get_mut(first..first + WAYS) else {
            return Answer::Unknown;
        };
        if let Some(way) =
            set.iter().position(|s| s.hash == hash && s.key == field)
        {
            // the one used last first: a set is in order of use
            set[..=way].rotate_right(1);
            return Answer::Slot(first);
        }
        // A miss: the field alone, as a window that is not the end.
        self.fresh.clear();
        let mut it = finder.candidates_window(field);
        let mut rejected = 0;
        while let Some(raw) = it.next_raw() {
            match raw.verdict.is_ok() {
                true => self.fresh.push(raw),
                false => rejected += 1,
            }
        }
        if it.incomplete() {
            return Answer::Unknown;
        }
        let floor = it.resume();
        // Kept with or without matches: with the detectors on, fields
        // such as `MIME-Version: 1.0` and `X-Mailer: … 6.00.2800` have a
        // trigger (a dot) and nothing to find, 4,503 of the 7,811
        // misses of that sample when they were not kept. The one used
        // least goes.
        set.rotate_right(1);
        let Some(slot) = set.first_mut() else { return Answer::Unknown };
        slot.hash = hash;
        slot.key.clear();
        slot.key.extend_from_slice(field);
        std::mem::swap(&mut slot.found, &mut self.fresh);
        slot.resume = floor;
        slot.rejected = rejected;
        Answer::Slot(first)
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
/// fields met before taken from `cache`; the rejected candidates are
/// counted as it counts them ([`FieldMatches::take_rejected`]).
pub(super) fn matches<'c, 'h>(
    finder: &'c Finder,
    cache: &'c mut FieldCache,
    text: &'h [u8],
    starts: &'c [usize],
) -> FieldMatches<'c, 'h> {
    cache.for_config(finder);
    FieldMatches {
        finder,
        it: finder.candidates(text),
        cache,
        text,
        starts,
        next: 0,
        cached: None,
        rejected: 0,
    }
}

/// Iterator over the matches of a header run; see [`matches`].
///
/// It is the scan of the whole run (the finder's candidates, from trigger
/// to trigger, the floor where the last candidate ended), but that the
/// triggers of a field no reading entered (the floor at or before its
/// start) are answered for the field at once, from the cache or by
/// scanning the field alone. Fields without a trigger, most of them, are
/// passed over by the trigger search as before, and never looked up.
pub(super) struct FieldMatches<'c, 'h> {
    finder: &'c Finder,
    /// The scan of the run: where the trigger search goes on, and the
    /// look-behind limit (where the last candidate ended).
    it: CandidateIter<'c, 'h>,
    cache: &'c mut FieldCache,
    text: &'h [u8],
    starts: &'c [usize],
    /// Index in `starts` of the first field start after the last
    /// trigger.
    next: usize,
    /// The slot being given, the next of its matches, and where its
    /// field starts.
    cached: Option<(usize, usize, usize)>,
    /// Rejected candidates met (those of the fields answered counted
    /// when answered), not yet taken.
    rejected: u64,
}

impl<'h> FieldMatches<'_, 'h> {
    /// The rejected candidates met since the last call: what
    /// `Finder::find_iter`'s count of the run gives.
    pub(super) fn take_rejected(&mut self) -> u64 {
        std::mem::take(&mut self.rejected)
    }

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
            let c = self.it.next_trigger()?;
            let (start, end) = self.field_of(c);
            let floor = self.it.resume();
            if floor <= start {
                let field = text.get(start..end).unwrap_or_default();
                match self.cache.answer(self.finder, field) {
                    Answer::Slot(slot) => {
                        let (resume, rejected) = self
                            .cache
                            .slots
                            .get(slot)
                            .map_or((0, 0), |s| (s.resume, s.rejected));
                        self.rejected += rejected;
                        self.it.jump(end, start + resume);
                        self.cached = Some((slot, 0, start));
                        continue;
                    }
                    Answer::Unknown => {}
                }
            }
            self.it.jump(c, floor);
            if let Some(raw) = self.it.next_raw_until(end) {
                if let Ok(m) = Candidate::from_raw(raw, text).into_result() {
                    return Some(m);
                }
                self.rejected += 1;
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
    /// finder: the matches are those of a scan of the whole run, and so
    /// is the count of rejected candidates.
    fn check(runs: &[(Vec<u8>, Vec<usize>)]) {
        let mut cache = FieldCache::default();
        let mut rejects = 0;
        for _ in 0..2 {
            for finder in &finders() {
                for (text, starts) in runs {
                    let want: Vec<_> = finder.find_iter(text).collect();
                    let mut it = matches(finder, &mut cache, text, starts);
                    let got: Vec<_> = it.by_ref().collect();
                    assert_eq!(
                        got,
                        want,
                        "{:?} {starts:?}",
                        String::from_utf8_lossy(text)
                    );
                    let rejected = finder
                        .candidates(text)
                        .filter(|c| c.reject().is_some())
                        .count() as u64;
                    assert_eq!(
                        it.take_rejected(),
                        rejected,
                        "{:?} {starts:?}",
                        String::from_utf8_lossy(text)
                    );
                    rejects += rejected;
                }
            }
        }
        assert!(rejects > 0 || runs.len() < 100, "no reject among the runs");
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

    /// With the detectors on, a field with a trigger and nothing to find
    /// is kept too, and a set keeps the field used last.
    #[test]
    fn fields_without_matches_are_kept_and_sets_hold_two() {
        let finder = Finder::builder().find(crate::scan::Finds::ALL).build();
        let mut cache = FieldCache::default();
        let text = b"MIME-Version: 1.0\n";
        assert_eq!(matches(&finder, &mut cache, text, &[0]).count(), 0);
        let kept: Vec<_> =
            cache.slots.iter().filter(|s| !s.key.is_empty()).collect();
        assert_eq!(kept.len(), 1);
        assert!(kept[0].found.is_empty() && kept[0].key == text);
        // Three fields of one set: the two used last stay.
        let mut cache = FieldCache::default();
        let set = |f: &[u8]| (hash(f) >> 56) as usize % (SLOTS / WAYS);
        let fields: Vec<Vec<u8>> = (0..)
            .map(|k| format!("To: a{k}@example.com\n").into_bytes())
            .filter(|f| set(f) == 0)
            .take(3)
            .collect();
        for f in &fields {
            let got: Vec<_> = matches(&finder, &mut cache, f, &[0]).collect();
            assert_eq!(got.len(), 1, "{got:?}");
        }
        let keys: Vec<&[u8]> =
            cache.slots[..WAYS].iter().map(|s| &s.key[..]).collect();
        assert_eq!(keys, [&fields[2][..], &fields[1][..]]);
        // a hit moves its field first
        assert_eq!(matches(&finder, &mut cache, &fields[1], &[0]).count(), 1);
        let keys: Vec<&[u8]> =
            cache.slots[..WAYS].iter().map(|s| &s.key[..]).collect();
        assert_eq!(keys, [&fields[1][..], &fields[2][..]]);
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
