//! `--files`: the files a search would read, in its order, none read.

use super::args::Args;
use super::out;
use std::io::{self, Write};
use urlgrep::input::{Input, InputError, Source};
use urlgrep::output::escape;

/// Lists what `walk` yields, as ripgrep's `--files` does: one name a
/// line (escaped as every printed name is), or NUL-ended raw under
/// `-0`; an input that cannot be listed is said on stderr (not under
/// `-s`). Returns the exit status: 0 when a name was listed, 1 when
/// none, 2 after an error.
pub fn files(
    walk: impl Iterator<Item = Result<Input, InputError>>,
    args: &Args,
) -> anyhow::Result<i32> {
    let mut out = io::BufWriter::with_capacity(64 * 1024, out::stdout()?);
    let (mut listed, mut errors) = (false, false);
    for input in walk {
        let source = match &input {
            Ok(input) => &input.source,
            Err(err) => &err.source,
        };
        let name: &[u8] = match source {
            Source::Stdin => args.source.as_bytes(),
            Source::Path(p) => p.as_os_str().as_encoded_bytes(),
        };
        match &input {
            Ok(_) if args.null => {
                out.write_all(name)?;
                out.write_all(b"\0")?;
                listed = true;
            }
            Ok(_) => {
                out.write_all(&escape::text(name))?;
                out.write_all(b"\n")?;
                listed = true;
            }
            Err(err) => {
                errors = true;
                out.flush()?;
                if !args.no_messages {
                    let mut line = b"urlgrep: ".to_vec();
                    line.extend_from_slice(&escape::text(name));
                    line.extend_from_slice(b": ");
                    let why = err.to_string();
                    line.extend_from_slice(&escape::text(why.as_bytes()));
                    line.push(b'\n');
                    // A closed stderr must not stop the listing.
                    let _ = io::stderr().write_all(&line);
                }
            }
        }
    }
    out.flush()?;
    Ok(match (errors, listed) {
        (true, _) => 2,
        (false, true) => 0,
        (false, false) => 1,
    })
}
