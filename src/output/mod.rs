//! Output: printers (plain, grep-style, counts, JSON Lines), the JSON
//! record types, and statistics. All ordering decisions are the
//! [`crate::Driver`]'s; the printer writes what it is given, in order.

pub mod json;
mod printer;
pub mod stats;
mod url;

pub use printer::{Format, Printer, PrinterOptions};
pub use url::{host, host_of, redact, terminal_safe, tld, utf8_or_escape};
