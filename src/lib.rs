//! urlgrep finds URLs in large text archives — mbox and Maildir spools,
//! Usenet news, mailing-list digests, RFC texts — at the speed of memory.
//!
//! It scans bytes, not strings (any input is scanned, never refused), finds
//! RFC 1738 `<URL:…>` wrappers broken across lines, angle-bracketed and
//! quoted URLs (RFC 3986 Appendix C) and bare URLs ended where a reader
//! would end them, and validates every candidate before it is a match.
//!
//! # Overview
//!
//! - [`Finder`] (built by [`FinderBuilder`]) is reusable and cheap to clone.
//! - [`Finder::find_iter`] lazily yields the [`Match`]es of a slice;
//!   [`Finder::candidates`] yields every [`Candidate`], rejected ones with
//!   their [`Reject`] reason.
//! - [`Finder::find_reader`] searches any `Read` with bounded memory and
//!   pushes each match, with its absolute [`Position`], into a [`Sink`].
//!
//! # Example
//!
//! ```
//! let text = b"Note the warning in <URL:http://ds.internic.\n   net/instructions/overview.html#WARNING>.";
//! let finder = urlgrep::Finder::new();
//! let m = finder.find_iter(text).next().unwrap();
//! assert_eq!(m.url(), b"http://ds.internic.net/instructions/overview.html#WARNING");
//! assert_eq!(m.kind(), urlgrep::Kind::Wrapped);
//! assert!(m.flags().contains(urlgrep::Flags::JOINED));
//! ```
//!
//! # Conformance
//!
//! - RFC 1738 appendix "Recommendations for URLs in Context" and RFC 3986
//!   Appendix C: wrappers, whitespace removal, the hyphen at a line break
//!   (kept and flagged: [`Flags::HYPHEN_BREAK`]).
//! - Deviation: in `"…"` only whitespace holding a line break is removed,
//!   since `"http://a.b is nice"` is prose; `<URL:…>` and `<…>` remove
//!   all. A quoted HTML attribute value (`href="…"`) is the whole value,
//!   its spaces percent-encoded ([`Flags::SPACE_ENCODED`]).
//! - Bare URLs need a registered scheme followed by `//`, or one of the
//!   opaque `mailto:`, `news:`, `urn:`; delimited ones any registered
//!   scheme; `<URL:…>` any syntactically valid scheme.

#![deny(unsafe_code)]
#![deny(missing_docs)]

pub mod container;
mod driver;
pub mod filter;
pub mod input;
pub mod mail;
pub mod output;
pub mod parse;
pub mod scan;
mod search;
// The crate's one module of `unsafe` code (issue 32): SIMD byte classes.
pub mod simd;
pub mod warc;

pub use container::{
    Archive, Fields, HitLines, MailFields, MailMode, PartFields, PartValue,
    Provenance, RecordPart, TarMember, WebRecord,
};
pub use driver::{
    BatchUrls, Driver, DriverBuilder, Fold, Folds, Hit, InputDone, Pick,
    Report, Wants,
};
pub use parse::{Host, Strictness, Url};
pub use parse::{Reject, Scheme, Verdict};
pub use scan::{Finds, Flags, Kind, Span, Triggers};
pub use search::{
    Candidate, CandidateIter, FindIter, Finder, FinderBuilder, Match,
    OwnedMatch, Position, ReaderIter, Sink,
};
