//! The printer: turns the driver's ordered results into output lines.

use super::json::{
    EndRecord, ErrorRecord, MailRecord, MatchRecord, Origin, Record,
    RejectRecord, SummaryRecord,
};
use super::stats::{per_message_bucket, Counts, Summary};
use super::url::{host_of, redact, terminal_safe, tld, utf8_or_escape};
use crate::input::{Input, InputError, Source};
use crate::search::{Hit, InputDone, Report};
use crate::Kind;
use std::borrow::Cow;
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::{self, Write};
use std::time::Duration;

/// What the printer writes.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// One URL a line, with the prefixes asked for
    /// (`PATH:LINE:OFFSET:URL`).
    #[default]
    Plain,
    /// One count of URLs per input (`PATH:COUNT`).
    Count,
    /// JSON Lines; see [`crate::output::json`].
    Json,
    /// The readable statistics report, after the run.
    Stats,
    /// The statistics as one JSON object.
    StatsJson,
    /// The additive partial counters; see [`crate::output::stats`].
    StatsTsv,
}

/// How the printer prints.
#[derive(Clone, Debug, Default)]
pub struct PrinterOptions {
    /// What to write.
    pub format: Format,
    /// Prefix each line with the input's name.
    pub with_filename: bool,
    /// Prefix each line with the line number.
    pub line_number: bool,
    /// Prefix each line with the byte offset.
    pub byte_offset: bool,
    /// Print each URL only the first time it is seen.
    pub unique: bool,
    /// Print rejected candidates too.
    pub rejects: bool,
    /// Replace passwords in URLs with `***`.
    pub redact: bool,
    /// Only these kinds (all when empty).
    pub kinds: Vec<Kind>,
    /// Only these schemes, lower-case (all when empty).
    pub schemes: Vec<String>,
    /// The name of stdin.
    pub stdin_label: String,
    /// How many hosts and TLDs the statistics list.
    pub top: usize,
    /// Flush after every line (for a terminal).
    pub line_buffered: bool,
}

/// Counters of the current input.
#[derive(Debug, Default)]
struct Current {
    matches: u64,
    rejected: u64,
    printed: u64,
    counts: Counts,
    /// The message whose URLs are being counted, and how many so far.
    message: Option<u64>,
    message_urls: u64,
    /// Messages with at least one URL.
    messages_with_urls: u64,
}

impl Current {
    /// Counts the URLs of the message that ended.
    fn end_message(&mut self) {
        if self.message.take().is_some() {
            let key = per_message_bucket(self.message_urls);
            self.counts.add("urls-per-message", &key, 1);
            self.messages_with_urls += 1;
        }
        self.message_urls = 0;
    }
}

/// The `total` counters of a run.
#[derive(Debug, Default)]
struct Totals {
    files: u64,
    bytes: u64,
    candidates: u64,
    matches: u64,
    rejected: u64,
    errors: u64,
    messages: u64,
}

/// Writes results to `out` and errors to `err`; implements [`Report`].
#[derive(Debug)]
pub struct Printer<W, E> {
    opts: PrinterOptions,
    out: W,
    err: E,
    seen: HashSet<Vec<u8>>,
    hashes: HashSet<u64>,
    /// Counters of the inputs that ended (but the `total` dimension).
    total: Counts,
    /// The `total` dimension, kept as plain numbers: it changes for
    /// every input, and a map look-up (with hashing) per counter cost a
    /// few percent of a search of small files.
    totals: Totals,
    found: bool,
    errors: u64,
    cur: Current,
    /// Some input was searched as mail.
    mail: bool,
}

impl<W: Write, E: Write> Printer<W, E> {
    /// A printer.
    pub fn new(opts: PrinterOptions, out: W, err: E) -> Printer<W, E> {
        Printer {
            opts,
            out,
            err,
            seen: HashSet::new(),
            hashes: HashSet::new(),
            total: Counts::new(),
            totals: Totals::default(),
            found: false,
            errors: 0,
            cur: Current::default(),
            mail: false,
        }
    }

    /// Whether any URL was selected.
    pub fn found(&self) -> bool {
        self.found
    }

    /// How many inputs had errors.
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// The counters of the run so far.
    pub fn counts(&self) -> Counts {
        let mut c = self.total.clone();
        let t = &self.totals;
        // The keys exist once an input ended, as when they were added
        // input by input.
        if t.files > 0 {
            c.add("total", "files", t.files);
            c.add("total", "bytes", t.bytes);
            c.add("total", "candidates", t.candidates);
            c.add("total", "matches", t.matches);
            c.add("total", "rejected", t.rejected);
        }
        if t.errors > 0 {
            c.add("total", "errors", t.errors);
        }
        if self.mail {
            c.add("total", "messages", t.messages);
        }
        c
    }

    /// Writes what comes after the last input (a summary record, the
    /// statistics) and flushes.
    pub fn finish(&mut self, elapsed: Duration) -> io::Result<()> {
        let c = &self.counts();
        match self.opts.format {
            Format::Json => {
                let rec = Record::Summary(SummaryRecord {
                    files: c.get("total", "files"),
                    bytes: c.get("total", "bytes"),
                    candidates: c.get("total", "candidates"),
                    matches: c.get("total", "matches"),
                    rejected: c.get("total", "rejected"),
                    errors: c.get("total", "errors"),
                    messages: self.mail.then(|| c.get("total", "messages")),
                });
                self.json(&rec)?;
            }
            Format::Stats | Format::StatsJson => {
                let summary = Summary {
                    counts: c.clone(),
                    unique_urls: Some(self.hashes.len() as u64),
                    elapsed: Some(elapsed),
                    top: self.opts.top,
                };
                if self.opts.format == Format::Stats {
                    summary.write_text(&mut self.out)?;
                } else {
                    serde_json::to_writer_pretty(
                        &mut self.out,
                        &summary.to_json(),
                    )?;
                    self.out.write_all(b"\n")?;
                }
            }
            Format::StatsTsv => c.write_tsv(&mut self.out)?,
            Format::Plain | Format::Count => {}
        }
        self.out.flush()
    }

    fn stats(&self) -> bool {
        matches!(
            self.opts.format,
            Format::Stats | Format::StatsJson | Format::StatsTsv
        )
    }

    fn json(&mut self, rec: &Record<'_>) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, rec)?;
        self.out.write_all(b"\n")
    }

    /// The input's name for plain output.
    fn label<'a>(&'a self, input: &'a Input) -> Cow<'a, [u8]> {
        match &input.source {
            Source::Stdin => Cow::Borrowed(self.opts.stdin_label.as_bytes()),
            Source::Path(p) => path_bytes(p),
        }
    }

    /// The grep-style prefix of a line.
    fn prefix(
        &mut self,
        input: &Input,
        hit: &Hit<'_>,
        offset: bool,
    ) -> io::Result<()> {
        if self.opts.with_filename {
            // Borrows the options, not the whole printer: no copy of the
            // path for every line.
            let label = match &input.source {
                Source::Stdin => {
                    Cow::Borrowed(self.opts.stdin_label.as_bytes())
                }
                Source::Path(p) => path_bytes(p),
            };
            self.out.write_all(&label)?;
            self.out.write_all(b":")?;
        }
        if self.opts.line_number {
            write!(self.out, "{}:", hit.at.line)?;
        }
        if offset {
            write!(self.out, "{}:", hit.at.start)?;
        }
        Ok(())
    }

    fn selected(&self, hit: &Hit<'_>, scheme: &str) -> bool {
        (self.opts.kinds.is_empty() || self.opts.kinds.contains(&hit.kind))
            && (self.opts.schemes.is_empty()
                || self.opts.schemes.iter().any(|s| s == scheme))
    }
}

/// The input's name for JSON.
fn origin<'a>(stdin_label: &'a str, source: &'a Source) -> Origin<'a> {
    match source {
        Source::Stdin => {
            Origin { path: None, source: Some(Cow::Borrowed(stdin_label)) }
        }
        Source::Path(p) => match path_bytes(p) {
            Cow::Borrowed(b) => {
                Origin { path: Some(utf8_or_escape(b).0), source: None }
            }
            Cow::Owned(b) => Origin {
                path: Some(Cow::Owned(utf8_or_escape(&b).0.into_owned())),
                source: None,
            },
        },
    }
}

/// A path's bytes as given (on Unix, exactly).
fn path_bytes(p: &std::path::Path) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(p.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        match p.to_string_lossy() {
            Cow::Borrowed(s) => Cow::Borrowed(s.as_bytes()),
            Cow::Owned(s) => Cow::Owned(s.into_bytes()),
        }
    }
}

/// The lower-case scheme name as written in `url`.
fn scheme_of(url: &[u8]) -> Cow<'_, str> {
    let name = match memchr::memchr(b':', url) {
        Some(i) => url.get(..i).unwrap_or_default(),
        None => url,
    };
    match utf8_or_escape(name).0 {
        Cow::Borrowed(s) if !s.bytes().any(|b| b.is_ascii_uppercase()) => {
            Cow::Borrowed(s)
        }
        s => Cow::Owned(s.to_ascii_lowercase()),
    }
}

impl<W: Write, E: Write> Report for Printer<W, E> {
    fn begin(&mut self, input: &Input) -> io::Result<()> {
        self.cur = Current::default();
        if self.opts.format == Format::Json {
            let rec =
                Record::Begin(origin(&self.opts.stdin_label, &input.source));
            serde_json::to_writer(&mut self.out, &rec)?;
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn hit(&mut self, input: &Input, hit: &Hit<'_>) -> io::Result<()> {
        let stats = self.stats();
        // The scheme is read only where it is used: a plain listing
        // without `--scheme` never needs it (one pass less per URL).
        let needs_scheme = stats
            || self.opts.format == Format::Json
            || !self.opts.schemes.is_empty();
        let scheme = match hit.kind.implied_scheme() {
            Some(implied) => Cow::Borrowed(implied),
            None if needs_scheme => scheme_of(hit.url),
            None => Cow::Borrowed(""),
        };
        if !self.selected(hit, &scheme) {
            return Ok(());
        }
        if let Some(reject) = hit.reject {
            self.cur.rejected += 1;
            if stats {
                self.cur.counts.add("reject", reject.name(), 1);
            }
            if !self.opts.rejects {
                return Ok(());
            }
            let url = if self.opts.redact {
                redact(hit.url)
            } else {
                Cow::Borrowed(hit.url)
            };
            match self.opts.format {
                Format::Plain => {
                    self.prefix(input, hit, true)?;
                    write!(self.out, " reject: {}: ", reject.name())?;
                    // A rejected text may hold any byte but the C0
                    // controls: no raw 8-bit CSI reaches a terminal.
                    self.out.write_all(&terminal_safe(&url))?;
                    self.out.write_all(b"\n")?;
                }
                Format::Json => {
                    let o = origin(&self.opts.stdin_label, &input.source);
                    let rec = Record::Reject(RejectRecord {
                        path: o.path,
                        source: o.source,
                        offset: hit.at.start,
                        line: hit.at.line,
                        column: hit.at.column,
                        kind: Cow::Borrowed(hit.kind.name()),
                        url: utf8_or_escape(&url).0,
                        scheme: Cow::Borrowed(&scheme),
                        reason: Cow::Borrowed(reject.name()),
                        message: Cow::Owned(reject.to_string()),
                    });
                    serde_json::to_writer(&mut self.out, &rec)?;
                    self.out.write_all(b"\n")?;
                }
                _ => {}
            }
            return Ok(());
        }
        self.cur.matches += 1;
        self.found = true;
        if stats {
            if let Some(m) = &hit.mail {
                if self.cur.message != Some(m.message) {
                    self.cur.end_message();
                    self.cur.message = Some(m.message);
                }
                self.cur.message_urls += 1;
                let c = &mut self.cur.counts;
                c.add("location", m.location.name(), 1);
                c.add("encoding", m.encoding.name(), 1);
            }
            let c = &mut self.cur.counts;
            c.add("scheme", &scheme, 1);
            c.add("kind", hit.kind.name(), 1);
            if let Some(h) = host_of(hit.url, hit.kind) {
                if let Some(t) = tld(&h) {
                    c.add("tld", t, 1);
                }
                c.add("host", &h, 1);
            }
            let mut hasher = DefaultHasher::new();
            hit.url.hash(&mut hasher);
            self.hashes.insert(hasher.finish());
            return Ok(());
        }
        let url = if self.opts.redact {
            redact(hit.url)
        } else {
            Cow::Borrowed(hit.url)
        };
        if self.opts.unique && !self.seen.insert(url.to_vec()) {
            return Ok(());
        }
        self.cur.printed += 1;
        match self.opts.format {
            Format::Plain => {
                self.prefix(input, hit, self.opts.byte_offset)?;
                self.out.write_all(&terminal_safe(&url))?;
                self.out.write_all(b"\n")?;
                if self.opts.line_buffered {
                    self.out.flush()?;
                }
            }
            Format::Json => {
                let (text, escaped) = utf8_or_escape(&url);
                let mut flags: Vec<Cow<'_, str>> =
                    hit.flags.names().map(Cow::Borrowed).collect();
                if escaped {
                    flags.push(Cow::Borrowed("escaped"));
                }
                if hit.repaired {
                    flags.push(Cow::Borrowed("qp-repair"));
                }
                let mail = hit.mail.as_ref().map(|m| MailRecord {
                    message: m.message,
                    message_offset: m.message_offset,
                    message_id: m.message_id.map(|id| utf8_or_escape(id).0),
                    part: m.part as u64,
                    location: Cow::Borrowed(m.location.name()),
                    encoding: Cow::Borrowed(m.encoding.name()),
                    decoded: m.decoded,
                });
                let o = origin(&self.opts.stdin_label, &input.source);
                let rec = Record::Match(MatchRecord {
                    path: o.path,
                    source: o.source,
                    offset: hit.at.start,
                    line: hit.at.line,
                    column: hit.at.column,
                    kind: Cow::Borrowed(hit.kind.name()),
                    url: text,
                    scheme: Cow::Borrowed(&scheme),
                    host: host_of(hit.url, hit.kind).map(Cow::Owned),
                    flags,
                    mail,
                });
                serde_json::to_writer(&mut self.out, &rec)?;
                self.out.write_all(b"\n")?;
            }
            _ => {}
        }
        Ok(())
    }

    fn error(&mut self, err: &InputError) -> io::Result<()> {
        self.errors += 1;
        self.totals.errors += 1;
        self.out.flush()?;
        let label = match &err.source {
            Source::Stdin => Cow::Borrowed(self.opts.stdin_label.as_bytes()),
            Source::Path(p) => path_bytes(p),
        };
        let mut line = b"urlgrep: ".to_vec();
        line.extend_from_slice(&label);
        line.extend_from_slice(format!(": {err}\n").as_bytes());
        // A closed stderr must not stop the run.
        let _ = self.err.write_all(&line);
        let _ = self.err.flush();
        if self.opts.format == Format::Json {
            let o = origin(&self.opts.stdin_label, &err.source);
            let rec = Record::Error(ErrorRecord {
                path: o.path,
                source: o.source,
                message: Cow::Owned(err.to_string()),
            });
            serde_json::to_writer(&mut self.out, &rec)?;
            self.out.write_all(b"\n")?;
        }
        Ok(())
    }

    fn end(&mut self, input: &Input, done: &InputDone) -> io::Result<()> {
        let mut cur = std::mem::take(&mut self.cur);
        cur.end_message();
        if let Some(n) = done.messages {
            self.mail = true;
            self.totals.messages += n;
            let without = n.saturating_sub(cur.messages_with_urls);
            if without > 0 && self.stats() {
                cur.counts.add("urls-per-message", "0", without);
            }
        }
        // Straight into the totals: a map per file (with its keys
        // allocated anew) cost more than the search of a small file.
        let t = &mut self.totals;
        t.files += 1;
        t.bytes += done.bytes;
        t.candidates += cur.matches + cur.rejected;
        t.matches += cur.matches;
        t.rejected += cur.rejected;
        if !cur.counts.is_empty() {
            self.total.merge(&cur.counts);
        }
        match self.opts.format {
            Format::Count => {
                if self.opts.with_filename {
                    let label = self.label(input).into_owned();
                    self.out.write_all(&label)?;
                    self.out.write_all(b":")?;
                }
                writeln!(self.out, "{}", cur.printed)?;
            }
            Format::Json => {
                let o = origin(&self.opts.stdin_label, &input.source);
                let rec = Record::End(EndRecord {
                    path: o.path,
                    source: o.source,
                    bytes: done.bytes,
                    candidates: cur.matches + cur.rejected,
                    matches: cur.matches,
                    rejected: cur.rejected,
                    messages: done.messages,
                });
                serde_json::to_writer(&mut self.out, &rec)?;
                self.out.write_all(b"\n")?;
            }
            _ => {}
        }
        Ok(())
    }
}
