//! Searches one generated adversarial input (or standard input) with the
//! reader API and prints what it found and how fast; run it under
//! `/usr/bin/time -v` to read the peak memory. The input is generated as
//! it is read, so the peak is the searcher's own.
//!
//! ```text
//! cargo build --release --example adversarial_rss
//! /usr/bin/time -v target/release/examples/adversarial_rss colons 256
//! tar -xzOf ../shared/corpora/spamassassin/*.tar.gz \
//!     | /usr/bin/time -v target/release/examples/adversarial_rss - 0
//! ```

use std::io::{self, Read};
use std::time::Instant;
use urlgrep::{Candidate, Finder, Match, Position, Sink};

#[path = "../benches/adversarial/inputs.rs"]
mod inputs;

#[derive(Default)]
struct Count {
    matches: u64,
    rejected: u64,
}

impl Sink for Count {
    type Error = io::Error;

    fn matched(&mut self, _: &Position, _: &Match<'_>) -> io::Result<bool> {
        self.matches += 1;
        Ok(true)
    }

    fn rejected(
        &mut self,
        _: &Position,
        _: &Candidate<'_>,
    ) -> io::Result<bool> {
        self.rejected += 1;
        Ok(true)
    }
}

/// Counts the bytes that pass through.
struct Counted<R>(R, u64);

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1 += n as u64;
        Ok(n)
    }
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (name, mib) = match &args[..] {
        [name, mib] => (name.as_str(), mib.parse::<u64>().unwrap_or(0)),
        _ => {
            eprintln!(
                "usage: adversarial_rss NAME|- MIB\nnames: {}",
                inputs::NAMES.join(" ")
            );
            std::process::exit(2);
        }
    };
    let rdr: Box<dyn Read> = if name == "-" {
        Box::new(io::stdin().lock())
    } else {
        match inputs::Gen::new(name, mib << 20) {
            Some(g) => Box::new(g),
            None => {
                eprintln!("unknown input {name:?}");
                std::process::exit(2);
            }
        }
    };
    let mut rdr = Counted(rdr, 0);
    let mut count = Count::default();
    let t = Instant::now();
    Finder::new().find_reader(&mut rdr, &mut count)?;
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{name}: {} bytes, {} matches, {} rejected, {:.3} s, {:.0} MB/s",
        rdr.1,
        count.matches,
        count.rejected,
        secs,
        rdr.1 as f64 / secs / 1e6
    );
    Ok(())
}
