//! The `urlgrep` command line; see `urlgrep --help`.
//!
//! No `unsafe` but the `.init_array` entry of `cli/out.rs` (issue 32's
//! rules: denied here, allowed on that one item).

#![deny(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod cli;

fn main() {
    std::process::exit(cli::run());
}
