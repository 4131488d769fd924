//! The `urlgrep` command line; see `urlgrep --help`.

mod cli;

fn main() {
    std::process::exit(cli::run());
}
