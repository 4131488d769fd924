//! Output: the selection layer and one printer per format (plain lines,
//! counts, file lists, JSON Lines, statistics), the JSON record types, and the
//! statistics counters. All ordering decisions are the
//! [`crate::Driver`]'s; the printer writes what it is given, in order.

mod by_stats;
mod context;
mod count;
mod emit;
pub mod escape;
mod files;
mod hll;
pub mod json;
mod json_fast;
mod json_lines;
mod options;
mod plain;
mod printer;
mod record;
mod record_refs;
mod record_visitor;
mod records;
mod seen;
mod select;
pub mod stats;
mod stats_report;
mod topk;
mod url;
mod url_stats;

pub use options::{Format, PrinterOptions, RecordSender};
pub use printer::Printer;
pub use record_visitor::RecordVisitor;
pub use url::{host, host_from, host_of, redact, tld};
