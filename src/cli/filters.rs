//! `--host`, `--host-file`, `--exclude-host`, `--exclude-host-file`,
//! `-e/--regexp` and `--exclude-regexp`, mapped onto a
//! [`urlgrep::filter::Filter`].

use super::args::Args;
use anyhow::{bail, Context};
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::sync::Arc;
use urlgrep::filter::{Filter, FilterBuilder};
use urlgrep::output::escape;

/// The filter the arguments ask for, `None` when they ask for none.
/// `stdin_taken` says whether stdin is already an input (then a list
/// cannot be read from `-`).
pub fn build(
    args: &Args,
    stdin_taken: bool,
) -> anyhow::Result<Option<Arc<Filter>>> {
    let mut b = Filter::builder();
    for d in &args.host {
        b.host(d).context("--host")?;
    }
    for d in &args.exclude_host {
        b.exclude_host(d).context("--exclude-host")?;
    }
    let lists = args.host_file.iter().map(|f| (f, false));
    let excluded = args.exclude_host_file.iter().map(|f| (f, true));
    let mut stdin_read = stdin_taken;
    for (path, exclude) in lists.chain(excluded) {
        let flag = if exclude { "--exclude-host-file" } else { "--host-file" };
        if path.as_os_str() == "-" {
            if stdin_read {
                bail!("{flag} -: stdin is already read for another input");
            }
            stdin_read = true;
        }
        if let Err(e) = read_list(&mut b, path, exclude) {
            // A list's bad lines come one a line (each escaped, as the
            // last is where the error is printed); the last is the error.
            let msg = format!("{e:#}");
            let mut lines: Vec<&str> = msg.lines().collect();
            let last = lines.pop().unwrap_or_default();
            let mut err = io::stderr().lock();
            for line in lines {
                let line = escape::text_str(line);
                let _ = writeln!(err, "urlgrep: {flag}: {line}");
            }
            bail!("{flag}: {last}");
        }
    }
    b.ignore_case(args.ignore_case);
    for p in &args.regexp {
        b.regexp(p);
    }
    for p in &args.exclude_regexp {
        b.exclude_regexp(p);
    }
    // Only a pattern fails here: the regex crate's message, lines kept.
    let filter = b.build().map_err(|e| super::Lines(e.to_string()))?;
    Ok((!filter.is_empty()).then(|| Arc::new(filter)))
}

/// Reads one list into the builder.
fn read_list(
    b: &mut FilterBuilder,
    path: &Path,
    exclude: bool,
) -> anyhow::Result<u64> {
    let stdin = path.as_os_str() == "-";
    let name =
        if stdin { "<stdin>".to_string() } else { path.display().to_string() };
    let rdr: Box<dyn BufRead> = if stdin {
        urlgrep::input::stdin_open().context("<stdin>")?;
        Box::new(io::stdin().lock())
    } else {
        let file = std::fs::File::open(path).with_context(|| name.clone())?;
        Box::new(BufReader::with_capacity(256 * 1024, file))
    };
    Ok(if exclude {
        b.exclude_host_list(rdr, &name)?
    } else {
        b.host_list(rdr, &name)?
    })
}
