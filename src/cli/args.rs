//! The command line, as clap derive definitions.

use clap::{ArgAction, Parser, ValueEnum};
use std::path::PathBuf;

const ABOUT: &str = "Find URLs in text archives: mail and news spools, \
Maildir folders, RFC texts, compressed or not.";

const LONG_ABOUT: &str = "\
Find URLs in text archives: mail and news spools, Maildir folders, RFC \
texts, compressed or not.

urlgrep prints every URL in its inputs, one per line, exactly as a reader \
would have typed it: RFC 1738 <URL:...> wrappers broken across lines are \
joined, <scheme:...> and \"scheme:...\" are unwrapped, bare URLs end where a \
reader would end them, and every candidate is validated. Folders are \
searched recursively in sorted order; gzip, bzip2, xz and zstd input is \
recognised by its first bytes and decompressed. Mail (mbox spools, Maildir \
or MH messages, news articles) is recognised by its first bytes and \
searched message by message: quoted-printable and base64 text parts are \
decoded and headers such as List-Unsubscribe are scanned (never \
Message-ID). Output is in input order whatever the number of threads.";

const EXAMPLES: &str = "\
Examples:
  urlgrep notes.txt                    every URL, one per line
  urlgrep -Hn ~/Maildir                with file name and line number
  urlgrep -u --scheme http,https spool.mbox.gz
                                       each web URL once, from a gzip file
  urlgrep --kind wrapped rfc*.txt      only <URL:...> wrappers
  urlgrep --host example.com -e '/issues/' spool.mbox
                                       example.com and its subdomains,
                                       issue links only
  urlgrep --host-file blocklist.txt -c ~/Maildir
                                       how many links to listed domains
  urlgrep --rejects -H archive/        also what was left out, and why
  zcat news.gz | urlgrep --source news.gz --json
                                       JSON Lines, stdin labelled
  urlgrep --json ~/mail/inbox.mbox     with message index, Message-ID,
                                       part, header/body, encoding
  urlgrep --mail off spool.mbox        raw scan (no MIME decoding)
  urlgrep --stats --top 20 archive/    corpus statistics
  urlgrep --stats-tsv part1/ > p1.tsv; urlgrep merge p1.tsv p2.tsv
                                       partial counts, summed later
  find . -name '*.eml' | urlgrep --files-from -

Exit status: 0 if a URL was found, 1 if none, 2 if an error happened \
(an error wins over found). A broken pipe ends urlgrep quietly with 0.";

/// `urlgrep [OPTIONS] [PATH]...`
#[derive(Debug, Parser)]
#[command(
    name = "urlgrep",
    version,
    // `-h` is --no-filename, as in grep; help is `--help` only.
    disable_help_flag = true,
    override_usage = "urlgrep [OPTIONS] [PATH]...\n       \
                      urlgrep merge [OPTIONS] [FILE]...",
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_long_help = EXAMPLES,
    after_help = "Run 'urlgrep --help' for examples; 'urlgrep merge --help' \
                  for summing --stats-tsv partials."
)]
pub struct Args {
    /// Files or folders to search; stdin when none (on a terminal, a
    /// line on stderr says so) or for `-`; `.` when none with -r.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,

    /// Read the paths to search from FILE, one a line (`-` for stdin).
    #[arg(long, value_name = "FILE")]
    pub files_from: Option<PathBuf>,

    /// The name stdin goes by in output (grep's --label).
    #[arg(
        long,
        visible_alias = "label",
        value_name = "NAME",
        default_value = "<stdin>"
    )]
    pub source: String,

    /// Follow symbolic links inside folders.
    #[arg(short = 'L', long = "follow")]
    pub follow: bool,

    /// Search `.` when no path is named, as grep -r does (folders named
    /// are always searched recursively).
    #[arg(short = 'r', long)]
    pub recursive: bool,

    /// -r and -L together, as grep -R.
    #[arg(short = 'R', long)]
    pub dereference_recursive: bool,

    /// Print the file name before each URL (default when more than one
    /// file, or a folder, is searched).
    #[arg(short = 'H', long, overrides_with = "no_filename")]
    pub with_filename: bool,

    /// Never print file names.
    #[arg(short = 'h', long, overrides_with = "with_filename")]
    pub no_filename: bool,

    /// Print the 1-based line number of each URL.
    #[arg(short = 'n', long)]
    pub line_number: bool,

    /// Print the 0-based byte offset of each URL (of its first byte,
    /// delimiters included, in the decompressed input).
    #[arg(short = 'b', long)]
    pub byte_offset: bool,

    /// Print each URL only the first time it is found.
    #[arg(short = 'u', long)]
    pub unique: bool,

    /// Print only each URL, not its line (the default; as grep -o). The
    /// last of -o and --line wins; -o also drops -A, -B and -C.
    #[arg(short = 'o', long, overrides_with = "line")]
    pub only_matching: bool,

    /// Print the number of URLs in each file instead of the URLs.
    #[arg(short = 'c', long)]
    pub count: bool,

    /// Only URLs of these kinds: wrapped (<URL:...>), angle (<...>),
    /// quoted ("..."), bare, and the scheme-less email, www, domain,
    /// network-path (with --find), and resolved (with --resolve). Repeat
    /// or separate with commas.
    #[arg(long, value_name = "KIND", value_delimiter = ',')]
    pub kind: Vec<String>,

    /// Also find what has no scheme: email (bob@example.com), www
    /// (www.example.com/page), domain (example.com/page, root-zone TLDs
    /// only), network-path (//cdn.example.com/lib.js); unregistered, a
    /// scheme outside the IANA registry before // in running text and
    /// quotes (gemini://host/); defanged, URLs written so as not to be
    /// clicked (hxxp://evil[.]example, printed refanged); or all. Printed
    /// as they stand. Off by default.
    #[arg(long, value_name = "WHAT", value_delimiter = ',')]
    pub find: Vec<String>,

    /// Print defanged URLs (--find defanged) as they were written, not
    /// refanged.
    #[arg(long)]
    pub keep_defanged: bool,

    /// Only URLs with these schemes (any case). Repeat or separate with
    /// commas.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    pub scheme: Vec<String>,

    /// Only URLs whose host is DOMAIN or a subdomain of it (on label
    /// boundaries: example.com matches a.example.com, not
    /// badexample.com; any case; IDN in either form; a mailto URL's host
    /// is its domain). Repeat or separate with commas.
    #[arg(long = "host", value_name = "DOMAIN", value_delimiter = ',')]
    pub host: Vec<String>,

    /// Only URLs whose host is in FILE (or a subdomain): one domain a
    /// line, `#` comments, blank lines ignored; `-` for stdin. Lists as
    /// published are read too: hosts files (`0.0.0.0 host`), `*.domain`
    /// and adblock `||domain^` lines. Every bad line is named (up to 20).
    #[arg(long, value_name = "FILE")]
    pub host_file: Vec<PathBuf>,

    /// Leave out URLs whose host is DOMAIN or a subdomain of it (wins
    /// over --host). Repeat or separate with commas.
    #[arg(long, value_name = "DOMAIN", value_delimiter = ',')]
    pub exclude_host: Vec<String>,

    /// Leave out URLs whose host is in FILE (or a subdomain); the format
    /// of --host-file.
    #[arg(long, value_name = "FILE")]
    pub exclude_host_file: Vec<PathBuf>,

    /// Only URLs that PATTERN (Rust regex syntax) matches somewhere;
    /// with several, any. Repeatable.
    #[arg(short = 'e', long = "regexp", value_name = "PATTERN")]
    pub regexp: Vec<String>,

    /// Leave out URLs that PATTERN matches somewhere (wins over -e).
    /// Repeatable.
    #[arg(long, value_name = "PATTERN")]
    pub exclude_regexp: Vec<String>,

    /// Accept only RFC 1738 URLs (ASCII, unsafe characters escaped).
    #[arg(long)]
    pub strict: bool,

    /// Also print the candidates that were rejected, with their offset
    /// and the reason: `PATH:OFFSET: reject: REASON: TEXT`.
    #[arg(long)]
    pub rejects: bool,

    /// Print `user:***@host` for URLs carrying a password.
    #[arg(long)]
    pub redact: bool,

    /// JSON Lines: one object per URL, and begin/end/summary records.
    /// With --stats, the statistics as one JSON object.
    #[arg(long, conflicts_with = "count")]
    pub json: bool,

    /// Print corpus statistics after the run instead of the URLs.
    #[arg(long, conflicts_with = "count")]
    pub stats: bool,

    /// Print additive partial counters (`dim<TAB>key<TAB>count`) for
    /// `urlgrep merge` instead of the URLs.
    #[arg(long, conflicts_with_all = ["stats", "count"])]
    pub stats_tsv: bool,

    /// How many hosts and TLDs the statistics list (default 10).
    #[arg(long, value_name = "N")]
    pub top: Option<usize>,

    /// Exact statistics: every host and TLD counted, every URL kept (as a
    /// 64-bit hash) for the unique count; memory grows with the input. By
    /// default, top hosts and TLDs are exact up to 65,536 distinct keys
    /// and unique URLs up to 2^19, then bounded summaries (±0.81 %).
    #[arg(long)]
    pub exact_stats: bool,

    /// Worker threads, 1 to 1024 (default: one per core); never more
    /// than there are units of work.
    #[arg(short = 'j', long, value_name = "N")]
    pub threads: Option<usize>,

    /// Longest delimited URL (wrapper) in bytes, delimiters and
    /// whitespace included.
    #[arg(long, value_name = "BYTES", default_value_t = 2048)]
    pub max_wrapper_len: usize,

    /// Longest bare URL in bytes; longer runs are rejected.
    #[arg(long, value_name = "BYTES", default_value_t = 8192)]
    pub max_url_len: usize,

    /// Search mail as mail: frame messages (mbox, Maildir/MH files, news
    /// articles), decode quoted-printable and base64 text parts, scan
    /// headers. auto: inputs whose first bytes look like mail (after
    /// decompression); on: every input (an mbox when it begins with a
    /// `From ` line, else one message); off: raw scans. Mail scans report
    /// no rejects: --rejects makes auto mean off. A message over 4 MiB is
    /// read as a stream, in bounded memory. Not supported as mail: mail
    /// whose lines end in a bare CR (searched raw, whatever WHEN says).
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = Mail::Auto)]
    pub mail: Mail,

    /// Read web archives as such: WARC 1.0/1.1 and ARC files, plain or
    /// .gz (one gzip member a record, or the whole file). Each record's
    /// payload is searched, its HTTP head, chunked and gzip/deflate
    /// codings undone; `request`, `warcinfo` and `revisit` records and
    /// the records' own target URIs are not. With --json each URL carries
    /// its record (target URI, date, id, type, offsets). auto: inputs
    /// whose first bytes are a WARC or ARC record; off: as other text.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = Warc::Auto)]
    pub warc: Warc,

    /// Read tar archives as such: plain or compressed (.tar.gz, .tgz,
    /// .tar.xz…; POSIX pax/ustar and GNU tar). Each regular member is
    /// searched as its first bytes say (a message, an mbox, a web
    /// archive, text), binary and compressed members skipped unless -a.
    /// Offsets and line numbers count in the unpacked archive. auto:
    /// inputs whose first block is a tar header; off: as other bytes.
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = Warc::Auto)]
    pub tar: Warc,

    /// In web archives' HTML payloads, also resolve relative references
    /// (href, src, srcset…) against the page's <base href>, else its
    /// target URI (RFC 3986 §5.2), and print them as kind `resolved`
    /// (--json keeps the reference as written in `reference`).
    /// Same-document references (#top) are left out.
    #[arg(long)]
    pub resolve: bool,

    /// Repair raw quoted-printable in text that is not MIME-encoded: join
    /// `=` soft line breaks and decode `=3D` inside URLs (flagged
    /// `qp-repair`). Reads each such input whole.
    #[arg(long)]
    pub qp_repair: bool,

    // Message metadata (issue 18).
    /// Add the decoded values of header field NAME to each mail match's
    /// `headers` in --json (repeatable; any case).
    #[arg(long = "header", value_name = "NAME")]
    pub header: Vec<String>,

    /// Give each --json match in a text/html part an `html` object: the
    /// element and attribute it is in, an anchor's link text, and the
    /// flag `text-host-differs` (tokenizes every HTML part: 15% more CPU
    /// time than --json on the spool, 40% on the SpamAssassin folder).
    #[arg(long)]
    pub html_context: bool,

    /// Group --stats/--stats-tsv also by the UTC date of each match's
    /// message or web-archive record (dimensions by-PERIOD…; `unknown`:
    /// no parseable date), or by the site of its web-archive record
    /// (`site`: by-site-host is then the site-to-host link table).
    #[arg(long, value_name = "PERIOD", value_enum)]
    pub by: Option<By>,

    /// Never show a progress bar.
    #[arg(long)]
    pub no_progress: bool,

    /// Split regular files larger than this into slices of this size
    /// (testing).
    #[arg(long, value_name = "BYTES", hide = true)]
    pub slice_size: Option<usize>,

    // ---- grep-class flags (issue 16) ----
    /// Print help (`-h` is --no-filename, as in grep).
    #[arg(long, action = ArgAction::HelpLong)]
    pub help: Option<bool>,

    /// Follow each file name with a NUL byte instead of `:` or a line
    /// break (in lines, `-c` and `-l` output); names are then printed
    /// as they are, whatever bytes they hold.
    #[arg(short = '0', long, visible_short_alias = 'Z')]
    pub null: bool,

    /// Print only the names of the files with a URL.
    #[arg(short = 'l', long, conflicts_with_all = ["count", "json", "stats", "stats_tsv"])]
    pub files_with_matches: bool,

    /// Print only the names of the files without a URL.
    #[arg(long, conflicts_with_all = ["files_with_matches", "count", "json", "stats", "stats_tsv"])]
    pub files_without_match: bool,

    /// Stop after N URLs of each input.
    #[arg(short = 'm', long, value_name = "N")]
    pub max_count: Option<u64>,

    /// Flush the output after every line (default on a terminal). The
    /// output is also flushed after each input read from stdin or a FIFO.
    #[arg(long)]
    pub line_buffered: bool,

    /// Search only the files of a folder walk that GLOB matches;
    /// `!GLOB` leaves them out (and folders: `-g '!.git'`). Repeatable;
    /// the last glob that matches decides, as in ripgrep. A glob without
    /// `/` matches the name. Paths named are always searched.
    #[arg(short = 'g', long = "glob", value_name = "GLOB")]
    pub globs: Vec<String>,

    /// Search only the files of a folder walk whose name GLOB matches,
    /// as grep's --include (among --include and --exclude the last that
    /// matches decides; with -g, the order given).
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,

    /// Leave out the files of a folder walk whose name GLOB matches, as
    /// grep's --exclude.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,

    /// Do not walk into the folders whose name GLOB matches, as grep's
    /// --exclude-dir (`--exclude-dir .git`).
    #[arg(long, value_name = "GLOB")]
    pub exclude_dir: Vec<String>,

    /// `-g`, `--include`, `--exclude` and `--exclude-dir` in the order
    /// given (filled after parsing).
    #[arg(skip)]
    pub glob_order: Vec<GlobArg>,

    /// Search at most N levels below each folder named: 1 is its own
    /// files, 0 none (only files named), as in ripgrep.
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,

    /// Search binary files found in a folder walk too. By default a
    /// file with a NUL byte in its first 8 KiB (after decompression)
    /// that is not mail is skipped; files named are always searched.
    #[arg(short = 'a', long)]
    pub text: bool,

    /// Print the man page (roff) or a shell's completion script, and
    /// exit.
    #[arg(long, value_name = "KIND", value_enum)]
    pub generate: Option<Generate>,

    // ---- grep, rg and urlscan habits (issue 34) ----
    /// Print nothing; exit 0 at the first URL selected, even after an
    /// error (1 when none, 2 on an error and none), as grep -q.
    #[arg(short = 'q', long, conflicts_with_all = [
        "count", "json", "stats", "stats_tsv", "files_with_matches",
        "files_without_match", "files",
    ])]
    pub quiet: bool,

    /// Print no message about files that do not exist or cannot be
    /// read (the exit status still says 2), as grep -s.
    #[arg(short = 's', long)]
    pub no_messages: bool,

    /// -e and --exclude-regexp patterns ignore case.
    #[arg(short = 'i', long)]
    pub ignore_case: bool,

    /// List the files a search would read, in its order, and search
    /// none (as rg --files); -0 ends each name with a NUL.
    #[arg(long, conflicts_with_all = [
        "count", "json", "stats", "stats_tsv", "files_with_matches",
        "files_without_match",
    ])]
    pub files: bool,

    /// Colour file names, line numbers and each URL (as ripgrep): auto
    /// colours when stdout is a terminal, NO_COLOR is unset and TERM is
    /// not dumb.
    #[arg(
        long,
        alias = "colour",
        value_name = "WHEN",
        value_enum,
        default_value_t = Color::Auto
    )]
    pub color: Color,

    /// Print the line that holds each URL (once for several URLs)
    /// instead of the URL: PATH:LINE:TEXT. The line as searched: after
    /// decompression, and in mail after quoted-printable, base64 or
    /// RFC 2047 decoding (numbered by the stored line). Each input is
    /// read again for it, so not stdin or a FIFO.
    #[arg(long, conflicts_with_all = [
        "count", "json", "stats", "stats_tsv", "files_with_matches",
        "files_without_match", "quiet", "files", "rejects",
    ])]
    pub line: bool,

    /// With --line (implied): N lines after each line with a URL.
    #[arg(short = 'A', long, value_name = "N", conflicts_with_all = [
        "count", "json", "stats", "stats_tsv", "files_with_matches",
        "files_without_match", "quiet", "files", "rejects",
    ])]
    pub after_context: Option<usize>,

    /// With --line (implied): N lines before each line with a URL.
    #[arg(short = 'B', long, value_name = "N", conflicts_with_all = [
        "count", "json", "stats", "stats_tsv", "files_with_matches",
        "files_without_match", "quiet", "files", "rejects",
    ])]
    pub before_context: Option<usize>,

    /// With --line (implied): N lines before and after; `--` between
    /// groups apart, `PATH-LINE-TEXT` for context lines, as grep.
    #[arg(short = 'C', long, value_name = "N", conflicts_with_all = [
        "count", "json", "stats", "stats_tsv", "files_with_matches",
        "files_without_match", "quiet", "files", "rejects",
    ])]
    pub context: Option<usize>,
}

/// `--color WHEN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// When stdout is a terminal, NO_COLOR is unset and TERM is not
    /// dumb.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// `--generate KIND`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Generate {
    /// The man page, urlgrep.1.
    Man,
    /// Bash completions.
    CompleteBash,
    /// Zsh completions.
    CompleteZsh,
    /// Fish completions.
    CompleteFish,
    /// PowerShell completions.
    CompletePowershell,
}

/// `--mail WHEN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Mail {
    /// Sniff the first bytes of each input.
    Auto,
    /// Every input is mail.
    On,
    /// Raw scans only.
    Off,
}

/// `--warc WHEN`, `--tar WHEN`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Warc {
    /// Sniff the first bytes of each input.
    Auto,
    /// Read such archives as other bytes.
    Off,
}

/// `--by PERIOD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum By {
    /// `2001`.
    Year,
    /// `2001-05`.
    Month,
    /// `2001-05-31`.
    Day,
    /// The site of each web-archive record: the host of its target URI
    /// (`by-site-host`: which sites link to which hosts).
    Site,
}

/// `urlgrep merge [FILE]...`
#[derive(Debug, Parser)]
#[command(
    name = "urlgrep merge",
    about = "Sum the partial counters of `urlgrep --stats-tsv` runs and \
             print the statistics.",
    after_long_help = "\
Examples:
  urlgrep --stats-tsv a/ > a.tsv; urlgrep --stats-tsv b/ > b.tsv
  urlgrep merge a.tsv b.tsv              the report of a/ and b/ together
  cat *.tsv | urlgrep merge --tsv        one partial (merges compose)

Distinct counts are not additive: merge estimates unique URLs from the \
HyperLogLog registers of the partials (marked estimate, about ±0.81 %), \
and unique hosts from theirs once host counts are approximate (exact \
while every partial's are). Elapsed time is not merged."
)]
pub struct MergeArgs {
    /// Partial files (`-` or none: stdin).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Print the statistics as one JSON object.
    #[arg(long, conflicts_with = "tsv")]
    pub json: bool,

    /// Print the summed partial counters.
    #[arg(long)]
    pub tsv: bool,

    /// How many hosts and TLDs to list (with --compare: the N with the
    /// largest count in A or B, per dimension and period).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,

    /// Print two partials side by side: for every counter, its count in
    /// A and in B, the difference and each one's share of its dimension.
    #[arg(
        long,
        num_args = 2,
        value_names = ["A", "B"],
        conflicts_with_all = ["json", "tsv", "files"]
    )]
    pub compare: Option<Vec<PathBuf>>,
}

/// One walk glob as given: `-g`, `--include`, `--exclude` or
/// `--exclude-dir` (the flag, for its errors).
#[derive(Clone, Debug)]
pub struct GlobArg {
    /// The flag it was given by.
    pub flag: &'static str,
    /// The glob, without `-g`'s `!`.
    pub glob: String,
    /// It leaves out what it matches.
    pub exclude: bool,
    /// Which entries it is asked about.
    pub scope: urlgrep::input::GlobScope,
}
