//! Host lists as published: the lines of `--host-file` and
//! `--exclude-host-file`, read a line at a time in bounded memory.
//!
//! A line holds, after `#` comments are cut and spaces trimmed:
//! - one domain (or address): `example.com`, `10.0.0.1`;
//! - a hosts-file entry (the StevenBlack and URLhaus lists): an IP
//!   address, then names, `0.0.0.0 ads.example` (RFC 952's table, as
//!   `/etc/hosts` reads it); the names of the local machine a hosts
//!   file opens with (`localhost`, `broadcasthost`, `ip6-allnodes`, an
//!   address for a name: `0.0.0.0 0.0.0.0`) are skipped;
//! - `*.domain` (a wildcard list): the domain, which matches its
//!   subdomains as every entry does (and itself too);
//! - an adblock host rule, `||domain^`, with `$options` after it
//!   ignored; `!` comments and a `[Adblock Plus 2.0]` header are skipped.
//!
//! Anything else is a bad line. A line longer than [`MAX_LINE`] bytes
//! before its comment can hold no name (a name is at most 253 bytes,
//! RFC 1035 §2.3.4): it is read to its end without being kept, and
//! reported by its length.

use super::hosts::{Invalid, Name, MAX_NAME};
use std::io::{self, BufRead};
use std::net::{Ipv4Addr, Ipv6Addr};

/// The most bytes of one line kept: room for a hosts line with a dozen
/// names and its comment. The rest of a longer line is dropped.
pub(crate) const MAX_LINE: usize = 4096;

/// How many bad lines an error names; the others are counted.
pub(crate) const MAX_BAD: usize = 20;

/// How much of a bad text an error quotes.
const QUOTED: usize = 100;

/// The names of local hosts that open a published hosts file.
const LOCAL: &[&[u8]] = &[
    b"localhost",
    b"localhost.localdomain",
    b"local",
    b"broadcasthost",
    b"ip6-localhost",
    b"ip6-loopback",
    b"ip6-localnet",
    b"ip6-mcastprefix",
    b"ip6-allnodes",
    b"ip6-allrouters",
    b"ip6-allhosts",
];

/// Reads the next line of `rdr` into `line`, keeping at most `cap`
/// bytes of it (without its `\n`); returns the line's whole length, or
/// `None` at the end of the input. Memory stays `cap` whatever the line.
pub(crate) fn next_line<R: BufRead>(
    rdr: &mut R,
    line: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<u64>> {
    line.clear();
    let mut len = 0u64;
    let mut any = false;
    loop {
        let buf = match rdr.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(len));
        }
        any = true;
        let (piece, used, ended) = match memchr::memchr(b'\n', buf) {
            Some(i) => (buf.get(..i).unwrap_or_default(), i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = cap.saturating_sub(line.len());
        line.extend_from_slice(
            piece.get(..room.min(piece.len())).unwrap_or_default(),
        );
        len += piece.len() as u64;
        rdr.consume(used);
        if ended {
            return Ok(Some(len));
        }
    }
}

/// Why a line is bad.
#[derive(Debug)]
pub(crate) enum Bad<'a> {
    /// `text` is not a domain name.
    Name(&'a [u8], Invalid),
    /// Longer than [`MAX_LINE`] before any comment: its length.
    Long(u64),
    /// An adblock rule that is not `||domain^`.
    Rule(&'a [u8]),
}

impl Bad<'_> {
    /// The message, quoting at most [`QUOTED`] bytes of the text.
    pub(crate) fn describe(&self) -> String {
        match self {
            Bad::Name(text, why) => {
                format!("{} is not a domain: {}", quote(text), why.describe())
            }
            Bad::Long(n) => format!(
                "a line of {n} bytes is not a domain (at most {MAX_NAME} \
                 bytes; the line is not kept)"
            ),
            Bad::Rule(text) => format!(
                "{} is not a host rule: read as ||domain^ with optional \
                 $options",
                quote(text)
            ),
        }
    }
}

/// `text` quoted as Rust's `{:?}` does, cut at [`QUOTED`] bytes with its
/// length said.
fn quote(text: &[u8]) -> String {
    let cut = text.get(..QUOTED).unwrap_or(text);
    let shown = String::from_utf8_lossy(cut);
    if cut.len() < text.len() {
        format!("{:?} ({} bytes)", format!("{shown}…"), text.len())
    } else {
        format!("{shown:?}")
    }
}

/// Gives `add` each name of one list line (`line` as read, `len` its
/// whole length); an error names the first bad part.
pub(crate) fn names<'a>(
    line: &'a [u8],
    len: u64,
    mut add: impl FnMut(&Name) -> bool,
) -> Result<bool, Bad<'a>> {
    let text = match memchr::memchr(b'#', line) {
        Some(i) => line.get(..i).unwrap_or_default(),
        // Cut short with no comment in what was kept: no name.
        None if len > line.len() as u64 => return Err(Bad::Long(len)),
        None => line,
    };
    let text = text.trim_ascii();
    let mut one = |t: &'a [u8]| match Name::parse(t) {
        Ok(name) => Ok(add(&name)),
        Err(why) => Err(Bad::Name(t, why)),
    };
    if text.is_empty() || text.starts_with(b"!") || is_adblock_header(text) {
        return Ok(true);
    }
    if let Some(rule) = text.strip_prefix(b"||") {
        let (domain, rest) = match memchr::memchr(b'^', rule) {
            Some(i) => (rule.get(..i).unwrap_or_default(), rule.get(i + 1..)),
            None => return Err(Bad::Rule(text)),
        };
        let rest = rest.unwrap_or_default();
        let rest = rest.strip_prefix(b"|").unwrap_or(rest);
        if !(rest.is_empty() || rest.starts_with(b"$")) {
            return Err(Bad::Rule(text));
        }
        return one(domain);
    }
    if let Some(domain) = text.strip_prefix(b"*.") {
        return one(domain);
    }
    let mut words =
        text.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty());
    let first = words.next().unwrap_or_default();
    let mut rest = words.peekable();
    if rest.peek().is_none() || !is_address(first) {
        // One domain; or words that are none (a space is named).
        return one(text);
    }
    for name in rest {
        if LOCAL.iter().any(|l| name.eq_ignore_ascii_case(l))
            || is_address(name)
        {
            continue;
        }
        if !one(name)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `[Adblock Plus 2.0]`, `[uBlock Origin]`: a list's header line.
fn is_adblock_header(text: &[u8]) -> bool {
    text.len() > 2
        && text.starts_with(b"[")
        && text.ends_with(b"]")
        && text.get(1).is_some_and(u8::is_ascii_alphabetic)
}

/// An IPv4 or IPv6 address as a hosts file writes it (`fe80::1%lo0`:
/// with a zone).
fn is_address(word: &[u8]) -> bool {
    let Ok(word) = std::str::from_utf8(word) else { return false };
    let bare = word.split('%').next().unwrap_or(word);
    word.parse::<Ipv4Addr>().is_ok() || bare.parse::<Ipv6Addr>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names of one line, or the bad part's message.
    fn read(line: &str) -> Result<Vec<String>, String> {
        let mut got = Vec::new();
        let r = names(line.as_bytes(), line.len() as u64, |n| {
            got.push(String::from_utf8_lossy(n.as_bytes()).into_owned());
            true
        });
        r.map(|_| got).map_err(|b| b.describe())
    }

    fn ok(line: &str) -> Vec<String> {
        read(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
    }

    #[test]
    fn one_domain_a_line() {
        assert_eq!(ok("Example.COM  # why"), ["example.com"]);
        assert_eq!(ok("10.0.0.1"), ["10.0.0.1"]);
        assert_eq!(ok("  # only a comment"), Vec::<String>::new());
        assert_eq!(ok(""), Vec::<String>::new());
    }

    #[test]
    fn hosts_files() {
        // StevenBlack's opening lines, then entries.
        for local in [
            "127.0.0.1 localhost",
            "127.0.0.1 localhost.localdomain",
            "127.0.0.1 local",
            "255.255.255.255 broadcasthost",
            "::1 localhost",
            "::1 ip6-localhost",
            "::1 ip6-loopback",
            "fe80::1%lo0 localhost",
            "ff00::0 ip6-localnet",
            "ff00::0 ip6-mcastprefix",
            "ff02::1 ip6-allnodes",
            "ff02::2 ip6-allrouters",
            "ff02::3 ip6-allhosts",
            "0.0.0.0 0.0.0.0",
        ] {
            assert_eq!(ok(local), Vec::<String>::new(), "{local}");
        }
        assert_eq!(ok("0.0.0.0 ads.example.com"), ["ads.example.com"]);
        assert_eq!(ok("127.0.0.1\tA.example # x"), ["a.example"]);
        assert_eq!(ok("::1 v6.example"), ["v6.example"]);
        // /etc/hosts: aliases after the name.
        assert_eq!(
            ok("10.1.2.3 a.example b.example"),
            ["a.example", "b.example"]
        );
        let e = read("0.0.0.0 good.example bad_one!").expect_err("bad");
        assert!(e.starts_with("\"bad_one!\" is not a domain"), "{e}");
        // Two words without an address: not a list line.
        let e = read("not a domain").expect_err("bad");
        assert!(e.contains("' ' is not allowed"), "{e}");
    }

    #[test]
    fn wildcards_and_adblock() {
        assert_eq!(ok("*.tracker.example"), ["tracker.example"]);
        assert_eq!(ok("||ads.example^"), ["ads.example"]);
        assert_eq!(
            ok("||ads.example^$third-party,important"),
            ["ads.example"]
        );
        assert_eq!(ok("||ads.example^|"), ["ads.example"]);
        assert_eq!(ok("! Title: a list"), Vec::<String>::new());
        assert_eq!(ok("[Adblock Plus 2.0]"), Vec::<String>::new());
        let e = read("||ads.example/path^").expect_err("a path");
        assert!(e.contains("'/' is not allowed"), "{e}");
        for bad in ["||ads.example", "||a.example^x", "||a.example^/x"] {
            let e = read(bad).expect_err(bad);
            assert!(e.contains("is not a host rule"), "{e}");
        }
        let e = read("*.*.example").expect_err("bad");
        assert!(e.contains("'*' is not allowed"), "{e}");
        let e = read("@@||ok.example^").expect_err("an exception");
        assert!(e.contains("'@' is not allowed"), "{e}");
    }

    #[test]
    fn quotes_are_cut() {
        let long = "x".repeat(300) + " y";
        let e = read(&long).expect_err("bad");
        assert!(e.contains("…\" (302 bytes) is not a domain"), "{e}");
        assert!(e.len() < 250, "{e}");
    }

    /// A line of 10 MiB is read in [`MAX_LINE`] bytes of memory, and
    /// reported by its length (issue 33.13: `--host-file /dev/zero`
    /// grew without limit, as `read_until` kept the whole line).
    #[test]
    fn long_lines_are_not_kept() {
        let mut data = vec![b'a'; 10 << 20];
        data.extend_from_slice(b"\nb.example\n");
        let mut rdr = io::BufReader::with_capacity(8192, &data[..]);
        let mut line = Vec::new();
        let n = next_line(&mut rdr, &mut line, MAX_LINE).expect("read");
        assert_eq!(n, Some(10 << 20));
        assert_eq!(line.len(), MAX_LINE);
        assert!(line.capacity() <= 2 * MAX_LINE, "{}", line.capacity());
        let e = names(&line, 10 << 20, |_| true).expect_err("too long");
        assert!(e.describe().starts_with("a line of 10485760 bytes"));
        assert_eq!(
            next_line(&mut rdr, &mut line, MAX_LINE).ok(),
            Some(Some(9))
        );
        assert_eq!(line, b"b.example");
        assert_eq!(next_line(&mut rdr, &mut line, MAX_LINE).ok(), Some(None));
        // A long comment is still a comment.
        let mut long = b"a.example # ".to_vec();
        long.extend(vec![b'c'; 3 * MAX_LINE]);
        let mut rdr = &long[..];
        let n = next_line(&mut rdr, &mut line, MAX_LINE).expect("read");
        assert_eq!(n, Some(long.len() as u64));
        let mut got = 0;
        assert!(names(&line, long.len() as u64, |_| {
            got += 1;
            true
        })
        .is_ok());
        assert_eq!(got, 1);
        // A last line without its line break.
        let mut rdr = &b"x.example"[..];
        assert_eq!(
            next_line(&mut rdr, &mut line, MAX_LINE).ok(),
            Some(Some(9))
        );
    }
}
