//! The parallel driver: many inputs, and slices of one big file, searched
//! on a rayon pool, reported in input order.
//!
//! Work is cut into units, numbered in input order: a whole input (a small
//! file, stdin, a FIFO, a compressed file), or a newline-aligned slice of a
//! big regular file. Workers take units in increasing order and never run
//! more than a window of units ahead of the one being reported, so memory
//! stays O(threads × buffer) plus the matches of the window. The calling
//! thread reports finished units strictly in order, so the output is the
//! same bytes for any thread count.
//!
//! A big file is split right after newlines; each slice is read with
//! `read_at` into the worker's buffer together with [`Driver`]'s overlap
//! (enough bytes for a candidate whose trigger lies in the slice to end: it
//! never reads further than the longer length cap past its trigger). The
//! slices are scanned with [`crate::Finder::candidates_in`]; when the previous
//! slice's last candidate spilled past a slice's start, that slice is
//! scanned again from there with [`crate::Finder::candidates_from`] when it is
//! reported. The result equals a scan of the whole file. A slice sends
//! its hits on in parts as it scans (a dense slice held them all until it
//! ended); the reporter drops the parts of a slice it scans again. Line
//! numbers are counted per slice and summed in order. An mbox slice too long to hold
//! (one long message runs it to the next separator) is read as a stream,
//! and sends its matches on in parts as a stream does: the reporter
//! numbers them on from the slices before it.

mod batch;
mod config;
#[cfg(test)]
mod count_tests;
mod cut;
mod found;
mod held;
mod how;
mod plan;
#[cfg(test)]
mod read_tests;
mod report;
mod schedule;
#[cfg(test)]
mod stop_tests;
#[cfg(test)]
mod tests;
mod unit;

pub use config::{Driver, DriverBuilder};
pub use report::{
    BatchUrls, Fold, Folds, Hit, InputDone, Pick, Report, Wants,
};
