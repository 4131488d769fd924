//! Output: the selection layer and one printer per format (plain lines,
//! counts, file lists, JSON Lines, statistics), the JSON record types, and the
//! statistics counters. All ordering decisions are the
//! [`crate::Driver`]'s; the printer writes what it is given, in order.

mod by_stats;
mod emit;
pub mod escape;
mod hll;
pub mod json;
mod json_fast;
mod options;
mod printer;
mod record;
mod record_ref;
mod record_visitor;
mod seen;
mod select;
pub mod stats;
mod topk;
mod url;
mod url_stats;

pub use options::{Format, PrinterOptions, RecordSender};
pub use printer::Printer;
pub use record_ref::{
    DateUtc, MailRef, MatchFlags, MatchRef, MetaRef, MetaSource,
};
pub use record_visitor::RecordVisitor;
pub use url::{host, host_from, host_of, redact, tld};
