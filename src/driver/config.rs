//! The driver's configuration and its builder.

use super::batch::Spare;
use crate::container::{Archive, Containers, MailMode, Settings};
use crate::scan::LOOK_BEHIND;
use crate::search::Finder;

/// Searches inputs in parallel and reports them in order.
#[derive(Clone, Debug)]
pub struct Driver {
    pub(super) finder: Finder,
    pub(super) threads: usize,
    pub(super) slice: usize,
    pub(super) overlap: usize,
    pub(super) lines: bool,
    pub(super) containers: Containers,
    pub(super) skip_binary: bool,
    pub(super) read_ahead: bool,
    pub(super) spare: Spare,
}

/// Builds a [`Driver`].
#[derive(Clone, Debug, Default)]
pub struct DriverBuilder {
    pub(super) threads: Option<usize>,
    pub(super) slice: Option<usize>,
    pub(super) skip_binary: bool,
    pub(super) read_ahead: Option<bool>,
    /// What the containers are asked to do.
    pub(super) containers: Settings,
}

impl DriverBuilder {
    /// A builder with the defaults.
    pub fn new() -> DriverBuilder {
        DriverBuilder::default()
    }

    /// Worker threads. By default, one per core.
    pub fn threads(&mut self, n: usize) -> &mut DriverBuilder {
        self.threads = Some(n.max(1));
        self
    }

    /// Regular files larger than this are searched in slices of about
    /// this size (the slice is also the largest buffer a worker reads a
    /// file into). By default, 4 MiB.
    pub fn slice_size(&mut self, bytes: usize) -> &mut DriverBuilder {
        self.slice = Some(bytes.max(1));
        self
    }

    /// Whether inputs are searched as mail. The format is sniffed from
    /// the first bytes of each input, after decompression; an mbox bigger
    /// than the slice size is split at separator lines
    /// ([`crate::mail::next_separator`]). A mail search reports
    /// rejected candidates only with [`DriverBuilder::rejects`]. By
    /// default, [`MailMode::Off`].
    pub fn mail_mode(&mut self, mode: MailMode) -> &mut DriverBuilder {
        self.containers.mode = mode;
        self
    }

    /// Whether inputs of the archive format `archive` are read as such,
    /// sniffed from their first bytes, their URLs carrying their record
    /// ([`crate::Fields::Part`]). Web archives (WARC 1.0/1.1, ARC; plain
    /// or gzip): each record's payload is searched (not its head, nor
    /// `request`, `warcinfo` and `revisit` records). Tar archives: each
    /// regular member searched as its first bytes say ([`Archive::Tar`]).
    /// By default, none is.
    pub fn archive(
        &mut self,
        archive: Archive,
        yes: bool,
    ) -> &mut DriverBuilder {
        let on = &mut self.containers.archives;
        on.retain(|a| *a != archive);
        if yes {
            on.push(archive);
        }
        self
    }

    /// [`DriverBuilder::archive`] for web archives ([`Archive::Web`]).
    pub fn web_archives(&mut self, yes: bool) -> &mut DriverBuilder {
        self.archive(Archive::Web, yes)
    }

    /// Whether the relative references of web archives' HTML payloads
    /// (`href`, `src`, `srcset`…) are resolved against the document's
    /// base (its `<base href>`, else the record's target URI; RFC 3986
    /// §5.2) and reported as URLs of kind [`crate::Kind::Resolved`], the
    /// reference as written kept ([`crate::Hit::defanged`]'s place). By
    /// default, they are not.
    pub fn resolve(&mut self, yes: bool) -> &mut DriverBuilder {
        self.containers.resolve = yes;
        self
    }

    /// Whether raw quoted-printable is repaired
    /// ([`crate::mail::MailFinderBuilder::qp_repair`] in mail,
    /// [`crate::mail::repair_iter`] in other text). A repair search of
    /// text that is not mail reports URLs only and reads its input whole.
    /// By default, it is not.
    pub fn qp_repair(&mut self, yes: bool) -> &mut DriverBuilder {
        self.containers.qp_repair = yes;
        self
    }

    /// Whether a mail search reports the candidates the validator
    /// rejected too ([`crate::mail::MailFinderBuilder::rejects`]: those
    /// of messages held whole); the URLs found are the same. A raw search
    /// always reports them. By default, it does not.
    pub fn rejects(&mut self, yes: bool) -> &mut DriverBuilder {
        self.containers.rejects = yes;
        self
    }

    /// Whether binary files found in a folder walk
    /// ([`crate::input::Input::walked`]) are skipped: a NUL byte in the
    /// first 8 KiB (after decompression) of an input that is not mail
    /// ([`crate::mail::Format::sniff`]). A skipped input is reported
    /// neither begun nor ended (as grep and ripgrep leave binary files of
    /// a recursive search out). Inputs named are always searched. By
    /// default, none is skipped.
    pub fn skip_binary(&mut self, yes: bool) -> &mut DriverBuilder {
        self.skip_binary = yes;
        self.containers.skip_binary = yes;
        self
    }

    /// Whether each message's metadata is read and given with its hits
    /// ([`crate::MailFields::meta`]; see
    /// [`crate::mail::MailFinderBuilder::metadata`]). By default, it is
    /// not.
    pub fn metadata(&mut self, yes: bool) -> &mut DriverBuilder {
        self.containers.metadata = yes;
        self
    }

    /// Whether hits in `text/html` parts carry their HTML context
    /// ([`crate::MailFields::html`]; see
    /// [`crate::mail::MailFinderBuilder::html_context`]). By default,
    /// they do not.
    pub fn html_context(&mut self, yes: bool) -> &mut DriverBuilder {
        self.containers.html_context = yes;
        self
    }

    /// Whether hits in text that decoding changed carry the lines of
    /// the searched text that hold them, with `before` and `after`
    /// lines around ([`crate::MailFields::lines`]; see
    /// [`crate::mail::MailFinderBuilder::lines`]). By default, they do
    /// not.
    pub fn lines(
        &mut self,
        context: Option<(usize, usize)>,
    ) -> &mut DriverBuilder {
        self.containers.lines = context;
        self
    }

    /// Other fields the metadata holds, by name
    /// ([`crate::mail::MailFinderBuilder::header_fields`]); set, they turn
    /// [`DriverBuilder::metadata`] on. By default, none.
    pub fn header_fields<I, S>(&mut self, names: I) -> &mut DriverBuilder
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.containers.header_fields =
            names.into_iter().map(|n| n.as_ref().to_string()).collect();
        self
    }

    /// Whether a big compressed file is decompressed on a thread of its
    /// own while it is searched ([`crate::input::read_ahead`]): the
    /// same bytes, in less time when a core is free, for the same CPU
    /// time. By default, it is.
    pub fn read_ahead(&mut self, yes: bool) -> &mut DriverBuilder {
        self.read_ahead = Some(yes);
        self
    }

    /// Builds the driver around `finder`, whose settings it follows:
    /// lines are counted when the finder counts them
    /// ([`crate::FinderBuilder::line_numbers`]), and its length caps
    /// bound how far past a slice a candidate may read.
    pub fn build(&self, finder: Finder) -> Driver {
        let threads = self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        });
        let cfg = &finder.inner().cfg;
        let caps = cfg.max_wrapper.saturating_add(cfg.max_url);
        let lines = finder.inner().lines;
        Driver {
            threads,
            slice: self.slice.unwrap_or(4 << 20),
            // Reads past a trigger are bounded by the caps plus a UTF-8
            // sequence or a quote prefix: LOOK_BEHIND covers those.
            overlap: caps.saturating_add(2 * LOOK_BEHIND),
            lines,
            containers: Containers::new(finder.clone(), &self.containers),
            finder,
            skip_binary: self.skip_binary,
            read_ahead: self.read_ahead.unwrap_or(true),
            spare: Spare::default(),
        }
    }
}

impl Driver {
    /// A builder.
    pub fn builder() -> DriverBuilder {
        DriverBuilder::new()
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }
}
