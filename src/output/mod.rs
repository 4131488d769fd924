//! Output: printers (plain, grep-style, counts, JSON Lines), the JSON
//! record types, and statistics. All ordering decisions are the
//! [`crate::Driver`]'s; the printer writes what it is given, in order.

pub mod escape;
mod hll;
pub mod json;
mod printer;
mod seen;
pub mod stats;
mod topk;
mod url;
mod url_stats;

pub use printer::{Format, Printer, PrinterOptions};
pub use url::{host, redact, tld};
