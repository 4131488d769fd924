//! `urlgrep --generate KIND`: the man page and the shell completions,
//! made from the clap definitions (as ripgrep 14 does), never by hand,
//! and from the whole command tree: `urlgrep merge` included.

use super::args::{Args, Generate, MergeArgs};
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::{self, Write};

/// Writes what `kind` asks for to `out`.
pub fn generate(kind: Generate, out: &mut impl Write) -> io::Result<()> {
    let shell = match kind {
        Generate::Man => return man(out),
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
        Generate::CompletePowershell => Shell::PowerShell,
    };
    // `merge` is dispatched by hand (src/cli/mod.rs, before clap sees
    // the arguments); for the completions it is the subcommand it is.
    let mut cmd =
        Args::command().subcommand(merge()).disable_help_subcommand(true);
    clap_complete::generate(shell, &mut cmd, "urlgrep", out);
    Ok(())
}

/// `urlgrep merge` as a subcommand of the tree.
fn merge() -> clap::Command {
    MergeArgs::command().name("merge").bin_name("urlgrep merge")
}

/// The man page, its `.TH` line first: roff's apostrophe string (`.ds
/// Aq`, which clap_mangen puts first) may follow it, and tools that
/// recognise a man page by its first line (`file`, `lexgrog`) find it.
/// `urlgrep merge` is a section of the same page, `URLGREP MERGE`, its
/// synopsis, description, options and examples as subsections.
fn man(out: &mut impl Write) -> io::Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Args::command()).render(&mut page)?;
    let th = page
        .split_inclusive(|&b| b == b'\n')
        .position(|line| line.starts_with(b".TH "));
    let lines: Vec<&[u8]> = page.split_inclusive(|&b| b == b'\n').collect();
    if let Some(i) = th {
        out.write_all(lines[i])?;
    }
    for (k, line) in lines.iter().enumerate() {
        if Some(k) != th {
            out.write_all(line)?;
        }
    }
    let merge = clap_mangen::Man::new(merge());
    let mut section = Vec::new();
    merge.render_synopsis_section(&mut section)?;
    merge.render_description_section(&mut section)?;
    merge.render_options_section(&mut section)?;
    merge.render_extra_section(&mut section)?;
    out.write_all(b".SH \"URLGREP MERGE\"\n")?;
    for line in section.split_inclusive(|&b| b == b'\n') {
        // The page's roff preamble (`.ie \n(.g .ds Aq …`) is already
        // written; each section heading becomes a subsection.
        if line.starts_with(b".ie ") || line.starts_with(b".el ") {
            continue;
        }
        match line.strip_prefix(b".SH ") {
            Some(rest) => {
                out.write_all(b".SS ")?;
                out.write_all(rest)?;
            }
            None => out.write_all(line)?,
        }
    }
    Ok(())
}
