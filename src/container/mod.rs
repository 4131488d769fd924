//! The container seam: what an archive format tells the driver.
//!
//! A container says, for an input:
//! - whether it is this container, from its first bytes
//!   (`Containers::reading`);
//! - where its records begin, so that a big file is cut into slices at
//!   safe points (`Containers::next_cut`, `Cut`);
//! - how a record's bytes become searchable text, and what provenance its
//!   URLs carry (`Containers::search_slice`, `Containers::search_reader`,
//!   which hand each URL to a `RecordSink` with its [`Provenance`]).
//!
//! Mail (mbox, Maildir message, news article, digest: [`crate::mail`]) is
//! the first container, web archives (WARC, ARC: [`crate::warc`]) the
//! second, `--qp-repair` on text that is not mail a third, tar archives
//! (whose members are searched through this seam again) a fourth, and
//! raw text the trivial one (no records: the driver searches it with
//! [`crate::Finder`] directly). The driver knows containers only through
//! this module; a new container is its own file here, a `Reading`
//! variant with its arms in this file, and its flag.

mod lines;
mod mail;
mod record;
mod resolve;
mod store;
mod tar;
mod tar_record;
mod warc;
mod web_record;

pub use record::{
    Fields, HitLines, MailFields, PartFields, PartValue, Provenance,
    RecordPart,
};
pub(crate) use store::Records;
pub use tar_record::TarMember;
pub use web_record::WebRecord;

use crate::mail::{Format, MailFinder};
use crate::parse::Reject;
use crate::search::{Finder, Match, Position};
use std::convert::Infallible;
use std::io::{self, Read};

/// Whether inputs are searched as mail; see
/// [`crate::DriverBuilder::mail_mode`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MailMode {
    /// Raw scans only.
    #[default]
    Off,
    /// Every input is mail: an mbox when it begins with a separator
    /// line, else one message.
    On,
    /// Inputs whose first bytes look like mail
    /// ([`crate::mail::Format::sniff`]) are searched as mail, others raw.
    Auto,
}

/// The archive formats besides mail that a run may read as such, each
/// off unless asked for ([`crate::DriverBuilder::archive`]): registering a
/// container is its variant here, and its arms in this file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Archive {
    /// Web archives: WARC 1.0/1.1 and ARC v1, plain or gzip
    /// ([`crate::warc`]; its URLs carry a [`WebRecord`]).
    Web,
    /// Tar archives (POSIX.1-2001 pax and ustar, GNU tar), plain or
    /// compressed: each regular member searched as what its first bytes
    /// say (a message, an mbox, a web archive, text), binary members
    /// skipped as in a folder walk.
    Tar,
}

/// How an input is read, decided once from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// Raw text: no records; searched with [`crate::Finder`].
    Raw,
    /// Mail of this format: records are messages.
    Mail(Format),
    /// Raw quoted-printable repaired (`--qp-repair` on text that is not
    /// mail); a stream is read in windows ([`crate::mail::repair_reader`]).
    Repair,
    /// A web archive (WARC, ARC): records are its records. `gz`: read
    /// compressed, member by member ([`Containers::reads_compressed`]),
    /// and cut into slices at the members that begin records.
    Web {
        /// WARC or ARC.
        format: crate::warc::Format,
        /// The stored bytes are gzip, inflated by the container.
        gz: bool,
    },
    /// A tar archive: each regular member read as its first bytes say,
    /// positions the unpacked archive's.
    Tar,
}

/// Where a big file of a [`Reading`] may be cut into slices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cut {
    /// After any newline.
    Lines,
    /// Where a record begins ([`Containers::next_cut`]).
    Records,
    /// Nowhere: searched whole (a stream).
    Whole,
}

impl Reading {
    /// Where a big file read this way may be cut.
    pub(crate) fn cut(self) -> Cut {
        match self {
            Reading::Raw => Cut::Lines,
            Reading::Mail(Format::Mbox) => Cut::Records,
            Reading::Web { gz: true, .. } => Cut::Records,
            Reading::Mail(_)
            | Reading::Repair
            | Reading::Web { .. }
            | Reading::Tar => Cut::Whole,
        }
    }

    /// Whether the input is searched as records (its URLs carry a
    /// [`Provenance`], and its end the number of records).
    pub(crate) fn records(self) -> bool {
        matches!(self, Reading::Mail(_) | Reading::Web { .. } | Reading::Tar)
    }

    /// Whether a slice of records is held whole to be searched (mail: up
    /// to a bound), or always read as a stream (a `.warc.gz` slice, whose
    /// stored bytes are not what is searched).
    pub(crate) fn held(self) -> bool {
        matches!(self, Reading::Mail(_))
    }

    /// Whether the offsets a slice's search gives count from the slice's
    /// start in the decompressed stream, which only the slices before it
    /// tell (a `.warc.gz` slice): the driver moves them by the bytes the
    /// slices before it inflated to.
    pub(crate) fn relative(self) -> bool {
        matches!(self, Reading::Web { gz: true, .. })
    }
}

/// What the containers are asked to do: the settings the driver's builder
/// gathers ([`crate::DriverBuilder`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Settings {
    pub(crate) mode: MailMode,
    pub(crate) qp_repair: bool,
    pub(crate) metadata: bool,
    pub(crate) header_fields: Vec<String>,
    pub(crate) html_context: bool,
    pub(crate) rejects: bool,
    pub(crate) lines: Option<(usize, usize)>,
    /// The archives read as such (`--warc auto`).
    pub(crate) archives: Vec<Archive>,
    /// Relative references of web-archive HTML are resolved
    /// (`--resolve`).
    pub(crate) resolve: bool,
    /// Binary members of a tar archive are skipped, as binary files of a
    /// folder walk are.
    pub(crate) skip_binary: bool,
}

/// The containers of a run, built once: how each input is read and
/// searched.
#[derive(Clone, Debug)]
pub(crate) struct Containers {
    mode: MailMode,
    qp_repair: bool,
    web: bool,
    /// Tar archives are read as such.
    tar: bool,
    /// Binary members of a tar archive are skipped.
    skip_binary: bool,
    /// HTML context is asked for (`--html-context`).
    html_context: bool,
    /// `--resolve`.
    resolve: bool,
    /// Line numbers are counted ([`crate::FinderBuilder::line_numbers`]).
    lines: bool,
    finder: Finder,
    mail: MailFinder,
}

/// A URL (or a rejected candidate) a container's search found, with its
/// record.
pub(crate) struct Found<'a, 'm> {
    /// Absolute position in the input.
    pub(crate) at: Position,
    /// The match; its URL is the searchable text's.
    pub(crate) m: &'a Match<'m>,
    /// Why the validator rejected it, if it did.
    pub(crate) reject: Option<Reject>,
    /// The record it was found in (none in raw text).
    pub(crate) record: Option<Provenance<'a>>,
    /// Raw quoted-printable was repaired to get it.
    pub(crate) repaired: bool,
}

/// Receives what a container's search finds, in order.
pub(crate) trait RecordSink {
    /// The error the sink may fail with.
    type Error;

    /// A URL or a rejected candidate. Return `Ok(false)` to stop.
    fn found(&mut self, f: &Found<'_, '_>) -> Result<bool, Self::Error>;

    /// A limit was met at absolute offset `offset` (`what` says which;
    /// the bytes are still searched, as stored).
    fn limit(&mut self, offset: u64, what: &'static str);

    /// A record begins (before its URLs).
    fn record(&mut self);

    /// A fault of the container at absolute offset `offset` (`what`
    /// says it): what comes after it was passed over up to the next
    /// record; the search goes on there.
    fn fault(&mut self, offset: u64, what: String);

    /// The search read `bytes` bytes of text, where the driver cannot
    /// count them (a container that inflates its input itself). By
    /// default, ignored.
    fn searched(&mut self, bytes: u64) {
        let _ = bytes;
    }

    /// Whether the sink reads the records of what it is given
    /// ([`Found::record`] but whether there is one); by default, `true`.
    /// A sink that does not may be given a placeholder record: the search
    /// then builds none for each URL.
    fn reads_records(&self) -> bool {
        true
    }

    /// Whether the sink only counts the rejected candidates (it reads
    /// none of them): a search may then pass over them and give their
    /// number to [`RecordSink::rejected`]. By default, `false`.
    fn counts_rejects(&self) -> bool {
        false
    }

    /// `n` more rejected candidates, counted and not handed to
    /// [`RecordSink::found`]: those a search passed over when the sink
    /// [`RecordSink::counts_rejects`], and those the mail search counts
    /// whatever the sink says (it hands over rejects only with
    /// `--rejects`; a sink that reads each reject leaves these out).
    /// By default, ignored.
    fn rejected(&mut self, n: u64) {
        let _ = n;
    }
}

impl Containers {
    /// The containers for `settings`, searching with `finder`.
    pub(crate) fn new(finder: Finder, settings: &Settings) -> Containers {
        Containers {
            mode: settings.mode,
            qp_repair: settings.qp_repair,
            web: settings.archives.contains(&Archive::Web),
            tar: settings.archives.contains(&Archive::Tar),
            skip_binary: settings.skip_binary,
            html_context: settings.html_context,
            resolve: settings.resolve,
            lines: finder.inner().lines,
            mail: mail::finder(&finder, settings),
            finder,
        }
    }

    /// What a web archive's HTML payloads are read for.
    fn html(&self) -> warc::Html {
        warc::Html {
            context: self.html_context,
            resolve: self.resolve,
            lines: self.lines,
        }
    }

    /// Whether an input's first bytes decide how it is read: when they
    /// do not, it is [`Reading::Raw`].
    pub(crate) fn sniffs(&self) -> bool {
        self.mode != MailMode::Off || self.qp_repair || self.web || self.tar
    }

    /// Whether `head` is the beginning of a container (whatever the
    /// settings): a file that is, is not skipped as binary.
    pub(crate) fn recognised(&self, head: &[u8]) -> bool {
        Format::sniff(head) != Format::Unknown
            || self.web_format(head).is_some()
            || (self.tar && tar::sniff(head))
    }

    /// The web archive `head` begins, when web archives are read.
    fn web_format(&self, head: &[u8]) -> Option<crate::warc::Format> {
        self.web.then(|| crate::warc::sniff(head)).flatten()
    }

    /// Whether some container reads its input compressed
    /// ([`Containers::reads_compressed`]): a stream's first stored bytes
    /// are then worth a look.
    pub(crate) fn reads_any_compressed(&self) -> bool {
        self.web
    }

    /// How an input whose stored (compressed) first bytes are `raw` is
    /// read when its container reads it compressed: a `.warc.gz`, whose
    /// records are inflated member by member so that each knows its
    /// member's offset. `None`: the input is decompressed as usual.
    pub(crate) fn reads_compressed(&self, raw: &[u8]) -> Option<Reading> {
        if !self.web {
            return None;
        }
        crate::warc::sniff_gz(raw)
            .map(|format| Reading::Web { format, gz: true })
    }

    /// How an input whose first bytes are `head` is read, and whether
    /// they were recognised ([`Containers::recognised`]).
    pub(crate) fn reading(&self, head: &[u8]) -> (Reading, bool) {
        if self.tar && tar::sniff(head) {
            return (Reading::Tar, true);
        }
        self.member_reading(head)
    }

    /// [`Containers::reading`] of a tar member: a tar in a tar is not
    /// read as one (it reads as binary), so nesting is bounded.
    fn member_reading(&self, head: &[u8]) -> (Reading, bool) {
        if !self.sniffs() {
            return (Reading::Raw, false);
        }
        if let Some(f) = self.web_format(head) {
            return (Reading::Web { format: f, gz: false }, true);
        }
        let sniffed = Format::sniff(head);
        let known = sniffed != Format::Unknown;
        // Mail whose lines end in a bare CR (old Mac mail) is not framed:
        // read as mail, its whole head would be one `From ` line and its
        // URLs lost. It is searched raw, as `--mail auto` finds it.
        if mail::cr_only(head) {
            let r =
                if self.qp_repair { Reading::Repair } else { Reading::Raw };
            return (r, known);
        }
        let format = match (self.mode, sniffed) {
            (MailMode::Off, _) => None,
            (MailMode::On, Format::Unknown) => Some(Format::Message),
            (MailMode::Auto, Format::Unknown) => None,
            (_, f) => Some(f),
        };
        let reading = match format {
            Some(f) => Reading::Mail(f),
            None if self.qp_repair => Reading::Repair,
            None => Reading::Raw,
        };
        (reading, known)
    }

    /// Whether the first bytes of a stream, `head`, are enough to decide
    /// how it is read, so that a slow stream (`tail -f`) is not held up:
    /// they are once they read as a container, or once their complete
    /// lines end what could be a header block.
    pub(crate) fn decided(&self, head: &[u8]) -> bool {
        (memchr::memchr(b'\n', head).is_some() && self.recognised(head))
            || (self.tar && tar::sniff(head))
            || mail::header_ended(head)
    }

    /// Where the next record after `from` begins in `bytes` (a probe of
    /// a big file read this way), if one does.
    pub(crate) fn next_cut(
        &self,
        reading: Reading,
        bytes: &[u8],
        from: usize,
    ) -> Option<usize> {
        match reading {
            Reading::Mail(Format::Mbox) => {
                crate::mail::next_separator(bytes, from)
            }
            Reading::Web { gz: true, .. } => {
                let k = crate::warc::find_member(bytes.get(from..)?)?;
                Some(from + k)
            }
            _ => None,
        }
    }

    /// Searches `bytes`, a whole input or a slice starting at absolute
    /// offset `base` at a record's start, as `reading` says (not
    /// [`Reading::Raw`], which the driver searches itself). Returns the
    /// newlines of `bytes` when lines are counted.
    pub(crate) fn search_slice<S: RecordSink<Error = Infallible>>(
        &self,
        bytes: &[u8],
        base: u64,
        reading: Reading,
        sink: &mut S,
    ) -> u64 {
        match reading {
            Reading::Mail(f) => mail::search_slice(
                &self.mail, bytes, base, f, self.lines, sink,
            ),
            Reading::Repair => {
                // The windowed search over bytes in hand: one path for
                // streams and whole inputs (a slice reader cannot fail).
                let _ = crate::mail::repair_reader(
                    &self.finder,
                    bytes,
                    self.lines,
                    |at, r| repaired(sink, at, r).unwrap_or(false),
                );
                0
            }
            Reading::Web { .. } => {
                let Ok(()) = warc::search(
                    &self.finder,
                    bytes,
                    base,
                    self.html(),
                    false,
                    sink,
                );
                0
            }
            Reading::Tar => {
                tar::search_slice(self, bytes, base, sink);
                0
            }
            Reading::Raw => 0,
        }
    }

    /// Searches the stream `rdr`, whose first byte is at absolute offset
    /// `base`, as `reading` says; a raw stream's positions count from its
    /// start. `ahead`: a gzip web archive's members are inflated on a
    /// thread of their own meanwhile (the driver's choice: big enough to
    /// pay for the thread).
    pub(crate) fn search_reader<R, S>(
        &self,
        rdr: R,
        base: u64,
        reading: Reading,
        ahead: bool,
        sink: &mut S,
    ) -> io::Result<()>
    where
        R: Read + Send,
        S: RecordSink<Error = io::Error>,
    {
        match reading {
            Reading::Mail(f) => {
                mail::search_reader(&self.mail, rdr, base, f, self.lines, sink)
            }
            Reading::Repair => {
                // Raw repair, in windows: bounded memory.
                let mut error = None;
                let got = crate::mail::repair_reader(
                    &self.finder,
                    rdr,
                    self.lines,
                    |at, r| match repaired(sink, at, r) {
                        Ok(go) => go,
                        Err(e) => {
                            error = Some(e);
                            false
                        }
                    },
                );
                match error {
                    Some(e) => Err(e),
                    None => got,
                }
            }
            Reading::Web { .. } => {
                warc::search(&self.finder, rdr, base, self.html(), ahead, sink)
            }
            Reading::Tar => tar::search_reader(self, rdr, base, sink),
            Reading::Raw if sink.counts_rejects() => {
                self.finder.find_reader_counted(rdr, &mut RawSink { sink })
            }
            Reading::Raw => {
                self.finder.find_reader(rdr, &mut RawSink { sink })
            }
        }
    }
}

/// Hands a match of `--qp-repair` to `sink`, marked when it was repaired.
fn repaired<S: RecordSink>(
    sink: &mut S,
    at: &Position,
    r: &crate::mail::Repaired<'_>,
) -> Result<bool, S::Error> {
    sink.found(&Found {
        at: *at,
        m: r.as_match(),
        reject: None,
        record: None,
        repaired: r.is_repaired(),
    })
}

/// A raw reader search's sink over a [`RecordSink`].
struct RawSink<'s, S> {
    sink: &'s mut S,
}

impl<S: RecordSink<Error = io::Error>> crate::search::Sink for RawSink<'_, S> {
    type Error = io::Error;

    fn matched(&mut self, at: &Position, m: &Match<'_>) -> io::Result<bool> {
        let f =
            Found { at: *at, m, reject: None, record: None, repaired: false };
        self.sink.found(&f)
    }

    fn rejected(
        &mut self,
        at: &Position,
        c: &crate::search::Candidate<'_>,
    ) -> io::Result<bool> {
        let f = Found {
            at: *at,
            m: c.as_match(),
            reject: c.reject(),
            record: None,
            repaired: false,
        };
        self.sink.found(&f)
    }
}

impl<S: RecordSink<Error = io::Error>> crate::search::Counts
    for RawSink<'_, S>
{
    fn rejected_counted(&mut self, n: u64) {
        self.sink.rejected(n);
    }
}
