//! The step: from a position to the next candidate, through the trigger
//! search and the reading at each trigger.
//!
//! [`Config::step_until`] returns every candidate, accepted or rejected
//! (`--rejects`, [`crate::Finder::candidates`]). [`Config::step_accepted`]
//! is the step of a caller that drops the rejected ones
//! ([`crate::Finder::find_iter`], the pushed search): it goes on past a
//! rejected candidate at once, moving the floor as the caller would
//! have, instead of returning it through the callers and entering the
//! step again (issue 32: on `http:// ` repeated, a rejected candidate
//! every 8 bytes, the returns and the re-entry were half the cost). Both
//! are one loop, so the accepted candidates and the positions are the
//! same.

use super::triggers::Trigger;
use super::{
    defanged, names, one_pass, Config, Hay, Incomplete, Raw, Triggers,
};

/// What a step of the scanner found.
#[derive(Debug)]
pub(crate) enum Step {
    /// A candidate; scanning goes on at `resume` (which is also the new
    /// floor for look-behind).
    Found(Raw, usize),
    /// No trigger at or after `pos`: the whole window was scanned.
    /// `floor`: the look-behind limit after the step (moved past the
    /// rejected candidates [`Config::step_accepted`] passed over; the
    /// floor given otherwise).
    Done { floor: usize },
    /// The trigger at `at` needs bytes past the window; refill and call
    /// again with `pos` set to it and `floor` as the floor.
    NeedMore { at: usize, floor: usize },
}

impl Config {
    /// Finds the next candidate at or after `pos`. Look-behind never goes
    /// before `floor` (the end of the previous candidate).
    pub(crate) fn step(&self, hay: Hay<'_>, pos: usize, floor: usize) -> Step {
        self.step_until(hay, pos, floor, usize::MAX)
    }

    /// Like [`Config::step`], but triggers at or after `stop` are left
    /// alone (a candidate that starts before `stop` may still read past
    /// it): the work unit of a parallel slice.
    #[inline]
    pub(crate) fn step_until(
        &self,
        hay: Hay<'_>,
        pos: usize,
        floor: usize,
        stop: usize,
    ) -> Step {
        self.step_with(hay, pos, floor, stop, true, &mut 0, None)
    }

    /// Like [`Config::step_until`], but only accepted candidates are
    /// returned: a rejected one moves `floor` to where it resumes, and
    /// the search goes on from there, as a caller that dropped it would
    /// have gone on; [`Step::Done`] and [`Step::NeedMore`] say where
    /// the floor is then (the last rejected candidate's resume, or the
    /// floor given).
    ///
    /// `rejected` is counted up by one for each rejected candidate
    /// passed over: what a caller that counts the rejects without
    /// reading them (the driver's `--json` counts, the mail search)
    /// needs, at no return of each.
    #[inline]
    pub(crate) fn step_accepted(
        &self,
        hay: Hay<'_>,
        pos: usize,
        floor: usize,
        stop: usize,
        rejected: &mut u64,
    ) -> Step {
        self.step_with(hay, pos, floor, stop, false, rejected, None)
    }

    /// Like [`Config::step_accepted`], but each accepted candidate is
    /// handed to `each` with its resume, and the search goes on from
    /// there in the same step, as a caller of [`Config::step_accepted`]
    /// would have gone on; [`Step::Found`] is never returned. When `each`
    /// answers `false`, the step ends at once with [`Step::Done`], its
    /// floor that candidate's resume.
    ///
    /// The pushed scan of a text in hand (issue 33): returned through
    /// the step and an iterator, a candidate was copied twice more, and
    /// the step's entry loaded its configuration again for each URL.
    #[inline]
    pub(crate) fn step_each(
        &self,
        hay: Hay<'_>,
        pos: usize,
        floor: usize,
        stop: usize,
        rejected: &mut u64,
        each: &mut dyn FnMut(Raw, usize) -> bool,
    ) -> Step {
        self.step_with(hay, pos, floor, stop, false, rejected, Some(each))
    }

    /// The step; `rejects`: return rejected candidates too. The floor
    /// moved past the rejected candidates passed over comes back in
    /// [`Step::Done`] and [`Step::NeedMore`], where the step has room
    /// for it. One function for both callers, the flag tested per
    /// candidate: two copies of the loop had the trigger's reading
    /// called out of line, not inlined, and mail cost 2.8% more; the
    /// step returned with the floor as a pair cost a URL 17
    /// instructions more (the step copied out of it), and the floor by
    /// `&mut` every candidate 9 more on the path with rejects. `each`:
    /// the sink of [`Config::step_each`], or `None` to return each
    /// candidate.
    #[allow(clippy::too_many_arguments)]
    fn step_with(
        &self,
        hay: Hay<'_>,
        pos: usize,
        floor: usize,
        stop: usize,
        rejects: bool,
        rejected: &mut u64,
        mut each: Option<&mut dyn FnMut(Raw, usize) -> bool>,
    ) -> Step {
        let (mut pos, mut floor) = (pos, floor);
        while let Some((c, trigger)) =
            self.triggers.find_kind(hay.bytes, pos, floor, self.finds)
        {
            if c >= stop {
                break;
            }
            // Where the search goes on when nothing is found: after the
            // trigger, or past a refused name (see `names::host`).
            let mut skip = c + 1;
            let found = match trigger {
                Trigger::Scheme => {
                    match one_pass::at_colon(self, &hay, c, floor) {
                        // Returned from here: through the match below, the
                        // candidate was copied twice more (issue 33).
                        Some(Some((raw, resume)))
                            if rejects || raw.verdict.is_ok() =>
                        {
                            let Some(each) = each.as_deref_mut() else {
                                return Step::Found(raw, resume);
                            };
                            if !each(raw, resume) {
                                return Step::Done { floor: resume };
                            }
                            (pos, floor) = (resume, resume);
                            continue;
                        }
                        Some(found) => Ok(found),
                        None => self.at_trigger(&hay, c, floor),
                    }
                }
                Trigger::Address => names::email(self, &hay, c, floor),
                Trigger::Name => self.name(&hay, c, floor, &mut skip),
                Trigger::Host(start, opened) => names::host_at(
                    self, &hay, start, opened, c, floor, &mut skip,
                ),
                Trigger::Defanged => defanged::name(self, &hay, c, floor),
            };
            match found {
                Ok(Some((raw, resume))) => {
                    if rejects || raw.verdict.is_ok() {
                        let Some(each) = each.as_deref_mut() else {
                            return Step::Found(raw, resume);
                        };
                        if !each(raw, resume) {
                            return Step::Done { floor: resume };
                        }
                        (pos, floor) = (resume, resume);
                        continue;
                    }
                    // The caller's next step, without the return.
                    (pos, floor) = (resume, resume);
                    *rejected += 1;
                }
                // The oracle takes no shortcut: it proves the skip only
                // passes over bytes that yield nothing.
                Ok(None) if self.triggers == Triggers::EveryColon => {
                    pos = c + 1
                }
                Ok(None) => pos = skip.max(c + 1),
                Err(Incomplete) => {
                    return Step::NeedMore { at: c, floor };
                }
            }
        }
        Step::Done { floor }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::same_reading as same;
    use super::*;
    use crate::scan::Finds;
    use proptest::prelude::*;

    /// Pieces of text that make candidates of every kind, accepted and
    /// rejected (issue 32's inputs among them), and the bytes between.
    const PIECES: &[&[u8]] = &[
        b"http://",
        b"http:// ",
        b"\"http:",
        b"https://n.example/p",
        b"ftp://a.b/",
        b"news:",
        b"gopher:// ",
        b"mailto:a@b.example",
        b"<URL:",
        b"<",
        b">",
        b"\"",
        b"'",
        b":",
        b":/",
        b"//",
        b"x.zz ",
        b"www.example.com",
        b"bob@example.org",
        b"hxxp://evil[.]example",
        b"a.b:99999/",
        b"gemini://g.example/",
        b"(",
        b")",
        b" ",
        b"\n",
        b"> ",
        b".",
        b"a",
        b"\xc3\xa9",
    ];

    /// Random text of [`PIECES`].
    fn text() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(0..PIECES.len(), 0..24).prop_map(|ix| {
            ix.into_iter().flat_map(|i| PIECES[i].iter().copied()).collect()
        })
    }

    /// What a caller that drops the rejected candidates sees, by the
    /// full step ([`Config::step_until`]): the accepted candidates with
    /// their resumes, then how the scan ended (the trigger a window needs
    /// more for) and the floor (the callers set the position from how
    /// it ended), and the rejected candidates dropped.
    type Seen = (Vec<(Raw, usize)>, Option<usize>, usize, u64);

    fn by_full_step(cfg: &Config, hay: Hay<'_>, stop: usize) -> Seen {
        let (mut pos, mut floor, mut out, mut rejected) =
            (0, 0, Vec::new(), 0);
        loop {
            match cfg.step_until(hay, pos, floor, stop) {
                Step::Found(raw, resume) => {
                    (pos, floor) = (resume, resume);
                    match raw.verdict.is_ok() {
                        true => out.push((raw, resume)),
                        false => rejected += 1,
                    }
                }
                Step::Done { .. } => return (out, None, floor, rejected),
                Step::NeedMore { at, .. } => {
                    return (out, Some(at), floor, rejected)
                }
            }
        }
    }

    fn by_accepted_step(cfg: &Config, hay: Hay<'_>, stop: usize) -> Seen {
        let (mut pos, mut floor, mut out, mut rejected) =
            (0, 0, Vec::new(), 0);
        loop {
            match cfg.step_accepted(hay, pos, floor, stop, &mut rejected) {
                Step::Found(raw, resume) => {
                    assert!(raw.verdict.is_ok(), "a reject returned");
                    (pos, floor) = (resume, resume);
                    out.push((raw, resume));
                }
                Step::Done { floor } => return (out, None, floor, rejected),
                Step::NeedMore { at, floor } => {
                    return (out, Some(at), floor, rejected)
                }
            }
        }
    }

    /// What the pushed step ([`Config::step_each`]) hands over, and how
    /// it ended; `each` answers `false` at the `upto`-th candidate.
    fn by_each_step(
        cfg: &Config,
        hay: Hay<'_>,
        stop: usize,
        upto: usize,
    ) -> Seen {
        let (mut out, mut rejected) = (Vec::new(), 0);
        let mut each = |raw: Raw, resume: usize| {
            assert!(raw.verdict.is_ok(), "a reject handed over");
            out.push((raw, resume));
            out.len() < upto
        };
        match cfg.step_each(hay, 0, 0, stop, &mut rejected, &mut each) {
            Step::Found(..) => panic!("a candidate returned"),
            Step::Done { floor } => (out, None, floor, rejected),
            Step::NeedMore { at, floor } => (out, Some(at), floor, rejected),
        }
    }

    fn same_seen(a: &Seen, b: &Seen) -> bool {
        a.0.len() == b.0.len()
            && a.0.iter().zip(&b.0).all(|((x, rx), (y, ry))| {
                same(&Ok(Some((x.clone(), *rx))), &Ok(Some((y.clone(), *ry))))
            })
            && (a.1, a.2, a.3) == (b.1, b.2, b.3)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]
        /// The step that passes over rejected candidates finds what the
        /// full step's caller keeps, candidate by candidate, counts the
        /// rejected ones it drops, and ends where it ends (the trigger a
        /// window needs more for, the floor), with the default detectors and all, at the end of
        /// input and of a window, with a stop inside the text.
        #[test]
        fn accepted_step_equals_the_full_step_filtered(
            text in text(),
            all in any::<bool>(),
            eof in any::<bool>(),
            stop in prop_oneof![Just(usize::MAX), 0usize..200],
        ) {
            let finds = if all { Finds::ALL } else { Finds::NONE };
            let cfg = Config { finds, ..Config::default() };
            let hay = Hay { bytes: &text, eof };
            let full = by_full_step(&cfg, hay, stop);
            let fast = by_accepted_step(&cfg, hay, stop);
            prop_assert!(
                same_seen(&full, &fast),
                "{:?}: {full:?} != {fast:?}",
                String::from_utf8_lossy(&text)
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4_000))]
        /// The pushed step hands over what the accepted step returns, in
        /// order, and ends where it ends; stopped at a candidate, it
        /// has handed over the accepted step's first ones and ends at
        /// that candidate's resume.
        #[test]
        fn pushed_step_equals_the_accepted_step(
            text in text(),
            all in any::<bool>(),
            eof in any::<bool>(),
            stop in prop_oneof![Just(usize::MAX), 0usize..200],
            upto in prop_oneof![Just(usize::MAX), 1usize..6],
        ) {
            let finds = if all { Finds::ALL } else { Finds::NONE };
            let cfg = Config { finds, ..Config::default() };
            let hay = Hay { bytes: &text, eof };
            let mut accepted = by_accepted_step(&cfg, hay, stop);
            let pushed = by_each_step(&cfg, hay, stop, upto);
            let show = String::from_utf8_lossy(&text);
            if accepted.0.len() >= upto {
                // Stopped: the first `upto`, then the last one's resume.
                accepted.0.truncate(upto);
                let resume = accepted.0.last().map(|(_, r)| *r);
                accepted.1 = None;
                accepted.2 = resume.unwrap_or(usize::MAX);
                accepted.3 = pushed.3;
            }
            prop_assert!(
                same_seen(&accepted, &pushed),
                "{show:?}: {accepted:?} != {pushed:?}"
            );
        }
    }

    /// Issue 32's `http:// ` repeated: rejected candidates only, passed
    /// over in one step, whose floor ends after the last of them, and
    /// counted.
    #[test]
    fn rejects_are_passed_over_in_one_step() {
        let text = b"http:// ".repeat(100);
        let cfg = Config::default();
        let hay = Hay { bytes: &text, eof: true };
        let mut rejected = 0;
        let step = cfg.step_accepted(hay, 0, 0, usize::MAX, &mut rejected);
        assert!(
            matches!(step, Step::Done { floor } if floor == text.len() - 1)
        );
        assert_eq!(rejected, 100);
        assert!(matches!(cfg.step(hay, 0, 0), Step::Found(_, 7)));
    }
}
