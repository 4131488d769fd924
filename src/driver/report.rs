//! The report contract: what the driver tells an output, in input order.

use crate::container::Provenance;
use crate::input::{Compression, Input, InputError};
use crate::parse::{Reject, Scheme};
use crate::scan::{Flags, Kind};
use crate::search::Position;
use std::any::Any;
use std::io;
use std::sync::Arc;

/// Which candidates a report counts ([`Report::counts_only_if`]): those
/// for which it returns `true`. It is asked on the worker that found
/// each candidate, so it must not depend on what was reported before.
pub type Pick = Arc<dyn Fn(&Hit<'_>) -> bool + Send + Sync>;

/// A report's summary of matches, made on the worker that found them
/// ([`Report::folds`]): each match outside a record is folded in as it
/// is found, with no store, copy and report of it, and the summary of a
/// batch is handed to [`Report::folded`] in input order.
pub trait Fold: Send {
    /// Folds in a match (a hit with no [`Hit::reject`] and no
    /// [`Hit::record`]).
    fn add(&mut self, hit: &Hit<'_>);

    /// Forgets every match folded in (the fold is used again for
    /// another batch), keeping a bounded part of what it allocated.
    fn clear(&mut self);

    /// The bytes it holds (what it allocated), counted with the batch's
    /// in the bound on the results waiting to be reported.
    fn held(&self) -> usize;

    /// The fold, for the report that made it to read as its own type.
    fn as_any(&self) -> &dyn Any;
}

/// Makes the empty [`Fold`]s of a run ([`Report::folds`]), one a batch.
pub type Folds = Arc<dyn Fn() -> Box<dyn Fold> + Send + Sync>;

/// One candidate as the driver reports it: a match when `reject` is
/// `None`.
#[derive(Clone, Copy, Debug)]
pub struct Hit<'a> {
    /// Absolute position in the (decompressed) input.
    pub at: Position,
    /// The URL (wrapper whitespace removed).
    pub url: &'a [u8],
    /// How it was delimited.
    pub kind: Kind,
    /// Its scheme (a best guess for a rejected candidate).
    pub scheme: Scheme,
    /// Its host as written, when it has a non-empty one (the validator's
    /// reading, [`crate::Verdict::host`]; `None` for a rejected one).
    pub host: Option<&'a [u8]>,
    /// What was done to get it out of its text.
    pub flags: Flags,
    /// Why the validator rejected it, if it did.
    pub reject: Option<Reject>,
    /// The record it was found in (a mail message, when the input was
    /// searched as mail: [`crate::DriverBuilder::mail_mode`]); none in
    /// raw text.
    pub record: Option<Provenance<'a>>,
    /// Raw quoted-printable was repaired to get it (`--qp-repair` on
    /// text that is not mail).
    pub repaired: bool,
    /// The URL as written when it was defanged (`hxxp://evil[.]example`;
    /// `url` is then refanged): [`crate::Match::defanged`].
    pub defanged: Option<&'a [u8]>,
}

/// What the driver knows about an input once it is done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InputDone {
    /// Bytes searched (decompressed).
    pub bytes: u64,
    /// The compression format that was undone.
    pub compression: Option<Compression>,
    /// Records (mail messages) searched, when the input was searched as
    /// records.
    pub messages: Option<u64>,
}

/// A batch's matches as their positions and URLs alone, in input order
/// ([`Report::urls`]): what a report that prints only those reads, with
/// no [`Hit`] built for each.
#[derive(Clone, Copy)]
pub struct BatchUrls<'a> {
    pub(super) hits: &'a [super::found::Found],
    pub(super) urls: &'a [u8],
}

impl<'a> BatchUrls<'a> {
    /// Each match's position and URL ([`Hit::at`], [`Hit::url`]).
    pub fn iter(&self) -> impl Iterator<Item = (Position, &'a [u8])> + 'a {
        let urls = self.urls;
        self.hits.iter().map(move |f| {
            (f.at, urls.get(f.url.0..f.url.1).unwrap_or_default())
        })
    }

    /// How many matches.
    pub fn len(&self) -> usize {
        self.hits.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.hits.is_empty()
    }
}

impl std::fmt::Debug for BatchUrls<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BatchUrls").field("len", &self.len()).finish()
    }
}

/// Receives the results of [`crate::Driver::run`], in input order. Return an
/// error to stop the run (it is returned by [`crate::Driver::run`]).
pub trait Report {
    /// An input is about to be reported.
    fn begin(&mut self, input: &Input) -> io::Result<()>;

    /// A candidate of the current input (rejected ones included).
    fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()>;

    /// An input, or part of it, could not be read. For an input that
    /// could not be opened, no `begin` or `end` is reported.
    fn error(&mut self, err: &InputError) -> io::Result<()>;

    /// The mail search met a limit at `offset` of the current input
    /// (`what` says which; its bytes were still searched, as stored).
    /// Required, so that a report wrapping another cannot drop it.
    fn warning(
        &mut self,
        input: &Input,
        offset: u64,
        what: &str,
    ) -> io::Result<()>;

    /// The current input is done.
    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()>;

    /// `bytes` more bytes of the inputs (as stored) were searched.
    fn progress(&mut self, bytes: u64) {
        let _ = bytes;
    }

    /// What the report still wants, asked by the driver after each part
    /// of an input it reports (a stream's part, a slice, a whole input).
    /// Once it says [`Wants::NextInput`], the driver stops reading the
    /// current input: its later parts are neither read nor reported,
    /// and its `end` comes with the bytes searched so far (grep's `-m`).
    /// [`Wants::Nothing`] ends the run, which returns `Ok` (grep's `-q`).
    /// A report that wraps another must pass this on.
    fn wants(&self) -> Wants {
        Wants::All
    }

    /// Whether [`Report::wants`] may say less than [`Wants::All`] in this
    /// run (asked once, before it starts): a stream then hands its
    /// candidates to the report in parts of 1, 2, 4… (up to thousands)
    /// while its unit is the one being reported, so that the first
    /// match goes at once and the reading stops within as many
    /// candidates again as the report was given; otherwise candidates
    /// go in parts of thousands, or every 100 ms. A report that wraps
    /// another must pass this on.
    fn may_stop(&self) -> bool {
        false
    }

    /// Whether the report reads each rejected candidate ([`Hit::reject`])
    /// (asked once, before the run). A report that only counts them says
    /// `false`: the driver then counts them without storing them and
    /// gives their number with [`Report::rejects_counted`] (a text dense
    /// in rejected candidates then costs no store of each). A report that
    /// wraps another must pass this on. By default, `true`.
    fn wants_rejects(&self) -> bool {
        true
    }

    /// `n` more rejected candidates of the current input, counted and not
    /// reported by [`Report::hit`] (only when [`Report::wants_rejects`]
    /// said `false`). A report that wraps another must pass this on.
    fn rejects_counted(&mut self, input: &Input, n: u64) -> io::Result<()> {
        let _ = (input, n);
        Ok(())
    }

    /// Whether the report reads each match ([`Report::hit`] of a `Hit`
    /// with no [`Hit::reject`]) (asked once, before the run). A report
    /// that only counts them (a count or a file list, with nothing that
    /// selects among them) says `false`: the driver then counts them
    /// without storing them and gives their number with
    /// [`Report::matches_counted`] (a text dense in URLs then costs no
    /// store, copy and report of each). A report that wraps another
    /// must pass this on. By default, `true`.
    fn wants_matches(&self) -> bool {
        true
    }

    /// `n` more matches of the current input, counted and not reported
    /// by [`Report::hit`] (only when [`Report::wants_matches`] said
    /// `false`). A report that wraps another must pass this on.
    fn matches_counted(&mut self, input: &Input, n: u64) -> io::Result<()> {
        let _ = (input, n);
        Ok(())
    }

    /// Whether the report reads [`Hit::record`], the record (mail
    /// message) a candidate was found in (asked once, before the run).
    /// A report that says `false` is given every hit with `record:
    /// None`, and the driver does not keep each hit's record. A report
    /// that wraps another must pass this on. By default, `true`.
    fn wants_records(&self) -> bool {
        true
    }

    /// Which of the candidates the driver counts rather than reports
    /// (when [`Report::wants_matches`] or [`Report::wants_rejects`] said
    /// `false`) it counts (asked once, before the run): with a [`Pick`],
    /// only those it keeps, asked as each is found; given the hit as
    /// [`Report::hit`] would be, but for [`Hit::record`], which it is
    /// given only when [`Report::wants_records`] says `true`. A report
    /// whose count depends on a selection that reads each candidate
    /// alone (`-c` with `--host`) can then say it only counts them. A
    /// report that wraps another must pass this on. By default, `None`:
    /// every candidate is counted.
    fn counts_only_if(&self) -> Option<Pick> {
        None
    }

    /// Whether the report takes matches folded on the workers (asked
    /// once, before the run): with [`Folds`], each match found outside
    /// a record ([`Hit::record`] `None`) is given, as [`Report::hit`]
    /// would be given it, to the [`Fold`] of the batch it is found in,
    /// on the worker that finds it; the fold then goes to
    /// [`Report::folded`], not each match to [`Report::hit`]. In a
    /// batch, matches are folded until the first one that is not (a
    /// match in a record): those after it are reported by
    /// [`Report::hit`], so every match folded comes before every match
    /// reported, and the fold is handed over before the batch's hits.
    /// The rejected candidates and errors of a batch come after its
    /// fold, even those found among its matches: a report folds only
    /// what it counts in an order that does not matter beside them (the
    /// statistics). Asked only of a report that reads each match
    /// ([`Report::wants_matches`]). A report that wraps another must
    /// pass this on. By default, `None`: every match goes to
    /// [`Report::hit`].
    fn folds(&self) -> Option<Folds> {
        None
    }

    /// The matches of the current input folded in `fold` (one made by
    /// [`Report::folds`]), in input order with the other calls (see
    /// there). A report that wraps another must pass this on.
    fn folded(&mut self, input: &Input, fold: &dyn Fold) -> io::Result<()> {
        let _ = (input, fold);
        Ok(())
    }

    /// Offered a batch's matches as their positions and URLs alone, in
    /// place of a [`Report::hit`] for each (asked once a batch, and only
    /// of a batch whose candidates are all matches, none rejected, with
    /// no error among them): returns `true` when it took them, having
    /// done for each what [`Report::hit`] would have done, `false` (and
    /// nothing done) to be given them one by one. A report whose every
    /// match is printed from its position and URL (a plain listing with
    /// nothing that selects) takes them, with no [`Hit`] built and no
    /// selection asked for each. Not a hint ([`crate::pass_on_hints`]
    /// leaves it out): a report that wraps another and passes each hit
    /// on as it is may pass this on too; one that does more for each
    /// hit leaves it. By default, `false`.
    fn urls(
        &mut self,
        input: &Input,
        urls: BatchUrls<'_>,
    ) -> io::Result<bool> {
        let _ = (input, urls);
        Ok(false)
    }
}

/// In an `impl Report` for a report that wraps another (the field
/// `$inner`), the hints the driver asks before the run, passed on to it:
/// [`Report::wants_rejects`], [`Report::rejects_counted`],
/// [`Report::wants_matches`], [`Report::matches_counted`],
/// [`Report::wants_records`], [`Report::counts_only_if`],
/// [`Report::folds`] and [`Report::folded`]. A wrapper that leaves one
/// out still works, but loses that hint's fast path without a word (the
/// Python module's relay lacked the fold); one list keeps every wrapper
/// in step with the trait.
///
/// ```
/// use std::io;
/// use urlgrep::input::{Input, InputError};
/// use urlgrep::{Hit, InputDone, Report};
///
/// /// Counts the inputs begun, the rest done by `inner`.
/// struct Counting<R> {
///     inner: R,
///     begun: u64,
/// }
///
/// impl<R: Report> Report for Counting<R> {
///     fn begin(&mut self, input: &Input) -> io::Result<()> {
///         self.begun += 1;
///         self.inner.begin(input)
///     }
///     fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()> {
///         self.inner.hit(input, hit)
///     }
///     fn error(&mut self, err: &InputError) -> io::Result<()> {
///         self.inner.error(err)
///     }
///     fn warning(&mut self, i: &Input, at: u64, what: &str) -> io::Result<()> {
///         self.inner.warning(i, at, what)
///     }
///     fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()> {
///         self.inner.end(input, done)
///     }
///     urlgrep::pass_on_hints!(inner);
/// }
/// ```
#[macro_export]
macro_rules! pass_on_hints {
    ($inner:ident) => {
        fn wants_rejects(&self) -> bool {
            self.$inner.wants_rejects()
        }

        fn rejects_counted(
            &mut self,
            input: &$crate::input::Input,
            n: u64,
        ) -> ::std::io::Result<()> {
            self.$inner.rejects_counted(input, n)
        }

        fn wants_matches(&self) -> bool {
            self.$inner.wants_matches()
        }

        fn matches_counted(
            &mut self,
            input: &$crate::input::Input,
            n: u64,
        ) -> ::std::io::Result<()> {
            self.$inner.matches_counted(input, n)
        }

        fn wants_records(&self) -> bool {
            self.$inner.wants_records()
        }

        fn counts_only_if(&self) -> ::std::option::Option<$crate::Pick> {
            self.$inner.counts_only_if()
        }

        fn folds(&self) -> ::std::option::Option<$crate::Folds> {
            self.$inner.folds()
        }

        fn folded(
            &mut self,
            input: &$crate::input::Input,
            fold: &dyn $crate::Fold,
        ) -> ::std::io::Result<()> {
            self.$inner.folded(input, fold)
        }
    };
}

/// What a report still wants of the inputs ([`Report::wants`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Wants {
    /// Every candidate.
    #[default]
    All,
    /// No more of the current input; the inputs after it in full.
    NextInput,
    /// Nothing more: the run ends.
    Nothing,
}
