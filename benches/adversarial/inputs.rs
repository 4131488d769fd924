//! Adversarial inputs as streams: each is generated as it is read, so a
//! program that searches one holds no more of it than the searcher does
//! (shared by `benches/adversarial.rs` and `examples/adversarial_rss.rs`).

use std::io::{self, Read};

/// The inputs, by name.
pub const NAMES: &[&str] = &[
    "random",
    "nul-heavy",
    "one-line",
    "unterminated-wrapper",
    "wrapper-opens",
    "nested-parens",
    "colons",
    "http-repeated",
    "http-space-repeated",
    "schemes-space-cycled",
    "long-urls",
    "quote-http",
    "colon-slash",
    "no-tld",
    "angle-http",
    "quote-prefix-blanks",
];

/// xorshift64*.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

enum Fill {
    /// A unit repeated.
    Cycle(Vec<u8>, usize),
    /// Random bytes.
    Random(Rng),
    /// NUL bytes, one in eight random.
    MostlyNul(Rng),
}

/// A generated input of a fixed length.
pub struct Gen {
    prefix: Vec<u8>,
    fill: Fill,
    left: u64,
}

impl Gen {
    /// The input called `name`, `len` bytes long.
    pub fn new(name: &str, len: u64) -> Option<Gen> {
        let cycle = |unit: &[u8]| Fill::Cycle(unit.to_vec(), 0);
        let (prefix, fill): (&[u8], Fill) = match name {
            "random" => (b"", Fill::Random(Rng(0x0DDB_1A5E_5BAD_5EED))),
            "nul-heavy" => (b"", Fill::MostlyNul(Rng(7))),
            // Prose and a URL in every 1 KiB, never a newline.
            "one-line" => {
                let mut unit = b"lorem ipsum dolor sit amet, ".repeat(36);
                unit.truncate(1000);
                unit.extend_from_slice(b" http://example.org/line/x ");
                (b"", Fill::Cycle(unit, 0))
            }
            "unterminated-wrapper" => (b"<URL:http://a.example/", cycle(b"x")),
            "wrapper-opens" => (b"", cycle(b"<URL:")),
            "nested-parens" => (b"", cycle(b"(")),
            "colons" => (b"", cycle(b":")),
            "http-repeated" => (b"", cycle(b"http://")),
            "http-space-repeated" => (b"", cycle(b"http:// ")),
            // The same class with the names changing: a fix for a repeat
            // of the same bytes does not help here.
            "schemes-space-cycled" => {
                (b"", cycle(b"http:// ftp:// news:// gopher:// "))
            }
            // Issue 32's probe: a quoted scheme with nothing after it,
            // a colon before a lone slash, a name under no TLD (with
            // `--find all`).
            "quote-http" => (b"", cycle(b"\"http:")),
            "colon-slash" => (b"", cycle(b":/")),
            "no-tld" => (b"", cycle(b"x.zz ")),
            // The probe's output-bound one: a valid URL every 9 bytes.
            "angle-http" => (b"", cycle(b"<http://a")),
            // tests/adversarial.rs's quote prefix before a run of blanks
            // (once a window that grew with the input): blanks, no
            // trigger after the first line.
            "quote-prefix-blanks" => {
                (b"> > <URL:http://a.example/\n> ", cycle(b" "))
            }
            // A valid 1 MiB URL (too long for the default cap), again and
            // again.
            "long-urls" => {
                let mut unit = b"see http://example.com/".to_vec();
                unit.resize(1 << 20, b'a');
                unit.extend_from_slice(b" ok\n");
                (b"", Fill::Cycle(unit, 0))
            }
            _ => return None,
        };
        Some(Gen { prefix: prefix.to_vec(), fill, left: len })
    }

    /// The whole input in memory.
    #[allow(dead_code)] // the bench uses it, the example does not
    pub fn bytes(name: &str, len: u64) -> Option<Vec<u8>> {
        let mut v = Vec::new();
        Gen::new(name, len)?.read_to_end(&mut v).ok()?;
        Some(v)
    }
}

impl Read for Gen {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want =
            buf.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let buf = &mut buf[..want];
        let mut n = 0;
        if !self.prefix.is_empty() {
            n = self.prefix.len().min(buf.len());
            buf[..n].copy_from_slice(&self.prefix[..n]);
            self.prefix.drain(..n);
        }
        let rest = &mut buf[n..];
        match &mut self.fill {
            Fill::Cycle(unit, at) => {
                for b in rest.iter_mut() {
                    *b = unit[*at];
                    *at = (*at + 1) % unit.len();
                }
            }
            Fill::Random(rng) => {
                // A byte per step, so the bytes do not depend on the
                // read sizes.
                for b in rest.iter_mut() {
                    *b = (rng.next() >> 32) as u8;
                }
            }
            Fill::MostlyNul(rng) => {
                for b in rest.iter_mut() {
                    let r = rng.next();
                    *b = if r % 8 == 0 { (r >> 8) as u8 } else { 0 };
                }
            }
        }
        self.left -= want as u64;
        Ok(want)
    }
}
