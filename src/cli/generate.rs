//! `urlgrep --generate KIND`: the man page and the shell completions,
//! made from the clap definitions (as ripgrep 14 does), never by hand.

use super::args::{Args, Generate};
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::{self, Write};

/// Writes what `kind` asks for to `out`.
pub fn generate(kind: Generate, out: &mut impl Write) -> io::Result<()> {
    let mut cmd = Args::command();
    let shell = match kind {
        Generate::Man => return man(cmd, out),
        Generate::CompleteBash => Shell::Bash,
        Generate::CompleteZsh => Shell::Zsh,
        Generate::CompleteFish => Shell::Fish,
        Generate::CompletePowershell => Shell::PowerShell,
    };
    clap_complete::generate(shell, &mut cmd, "urlgrep", out);
    Ok(())
}

/// The man page, its `.TH` line first: roff's apostrophe string (`.ds
/// Aq`, which clap_mangen puts first) may follow it, and tools that
/// recognise a man page by its first line (`file`, `lexgrog`) find it.
fn man(cmd: clap::Command, out: &mut impl Write) -> io::Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut page)?;
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
    Ok(())
}
