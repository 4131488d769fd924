//! The lean path of the bare reading: a registered `scheme://` with
//! nothing after it (issue 21).
//!
//! A scheme typed alone (`see http:// for the spec`, an editor's
//! template, `http:// http:// …` repeated) is a candidate the validator
//! rejects: its authority is empty. The full reading walks the run with
//! [`bare::bare_end`] and asks the verdict cache; here the run is known
//! to be `//` from the byte after it, and the verdict from the scheme
//! ([`parse::empty_authority`]). The candidate is the full reading's, to
//! the byte: same span, text, kind, flags, verdict and resume (the
//! tests below hold the two readings to each other on every byte after
//! `//`, at both levels, length caps and window ends).

use super::{bare, Config, Flags, Hay, Incomplete, Kind, Raw, Span, Text};
use crate::parse::{self, Scheme};

/// The bare candidate `hay[s..c + 3]` when `hay[c + 1..c + 3]` is `//`
/// and the byte after it ends a bare URL at once ([`bare::ends_at_once`])
/// within the length cap; `Ok(None)` when the full reading must decide.
/// `scheme`: the scheme of `hay[s..c]` when registered.
#[inline]
pub(super) fn empty_authority(
    cfg: &Config,
    hay: &Hay<'_>,
    s: usize,
    c: usize,
    scheme: Option<Scheme>,
) -> Result<Option<(Raw, usize)>, Incomplete> {
    super::one_pass::counted();
    let end = c + 3;
    // At the cap the full reading says "too long" before it reads the
    // byte after `//`.
    if end >= s.saturating_add(cfg.max_url) {
        return Ok(None);
    }
    if !bare::ends_at_once(hay.get(end)?) {
        return Ok(None);
    }
    let span = Span { start: s, end };
    let verdict =
        match scheme.and_then(|k| parse::empty_authority(k, cfg.strict)) {
            Some(verdict) => verdict,
            None => match hay.bytes.get(s..end) {
                Some(url) => parse::validate_cached(url, cfg.strict),
                None => return Ok(None),
            },
        };
    let raw = Raw {
        span,
        text: Text::In(span),
        kind: Kind::Bare,
        flags: Flags::default(),
        verdict,
    };
    // Accepted or not, the run ends here: the full reading resumes at
    // the end of an accepted URL, at the hard stop of a rejected run.
    Ok(Some((raw, end)))
}

#[cfg(test)]
mod tests {
    use super::super::testing::pieces;
    use super::super::tests::{same_reading as same, Reading};
    use super::super::{Step, Triggers};
    use super::*;

    /// The lean reading and the full one ([`Config::bare_read`]) of
    /// `hay` at the colon `c`, scheme from `s`.
    fn both(
        cfg: &Config,
        hay: &Hay<'_>,
        s: usize,
        c: usize,
    ) -> (Reading, Reading) {
        let scheme = parse::registered_prefix(&hay.bytes[s..], c - s);
        let lean = empty_authority(cfg, hay, s, c, scheme);
        let full = cfg.bare_read(hay, s, c, scheme.is_some(), None);
        (lean, full)
    }

    /// Every byte after `scheme://`, the end of input and the end of a
    /// window, registered schemes of every grammar (and one that is
    /// not), both levels, length caps around the run: where the lean
    /// path answers, its answer is the full reading's, and it answers
    /// `http:// ` (the input of issue 21).
    #[test]
    fn lean_equals_full_reading() {
        let names: &[&[u8]] = &[
            b"http",
            b"HTTPS",
            b"Ftp",
            b"mailto",
            b"news",
            b"file",
            b"gopher",
            b"telnet",
            b"nntp",
            b"wais",
            b"prospero",
            b"sip",
            b"ldap",
            b"gemini",
            b"urn",
        ];
        let mut answered = 0;
        for name in names {
            for after in (0..=255u8).map(Some).chain([None]) {
                for eof in [true, false] {
                    let mut text = b"x ".to_vec();
                    let s = text.len();
                    text.extend_from_slice(name);
                    let c = text.len();
                    text.extend_from_slice(b"://");
                    if let Some(b) = after {
                        text.push(b);
                        text.extend_from_slice(b"a.b/ ");
                    }
                    for strict in [false, true] {
                        for max_url in [1, 4, name.len() + 3, 16, 8192] {
                            let cfg = Config {
                                strict,
                                max_url,
                                ..Config::default()
                            };
                            let hay = Hay { bytes: &text, eof };
                            let (lean, full) = both(&cfg, &hay, s, c);
                            match &lean {
                                Ok(None) => continue,
                                _ => answered += 1,
                            }
                            assert!(
                                same(&lean, &full),
                                "{:?} eof {eof} strict {strict} cap {max_url}: \
                                 {lean:?} != {full:?}",
                                String::from_utf8_lossy(&text)
                            );
                        }
                    }
                }
            }
        }
        assert!(answered > 5000, "{answered}");
        let cfg = Config::default();
        let hay = Hay { bytes: b"http:// http://", eof: true };
        assert!(matches!(
            empty_authority(&cfg, &hay, 0, 4, Some(Scheme::Http)),
            Ok(Some(_))
        ));
    }

    /// The whole scan, with every colon a trigger and without: on text
    /// made of `scheme://`, terminators and URL bytes, the candidates
    /// (rejects included, as `--rejects` prints them) are those of the
    /// reading without the lean path, which the test gets by scanning
    /// each `//` run again with [`Config::bare_read`].
    #[test]
    fn scan_with_lean_path_reports_the_full_readings() {
        let parts: &[&[u8]] = &[
            b"http://",
            b"HTTPS://",
            b"ftp://",
            b"mailto://",
            b"sip://",
            b"file://",
            b" ",
            b"\n",
            b")",
            b"]",
            b"<",
            b">",
            b"\"",
            b"'",
            b"&",
            b"(",
            b"a.b",
            b"/",
            b":",
            b"\xc3\xa9",
            b"\x00",
            b",",
        ];
        let mut state = 0x243F_6A88_85A3_08D3u64;
        for round in 0..3000 {
            let mut text = Vec::new();
            pieces(&mut state, parts, &mut text, 8 + round % 48);
            for triggers in [Triggers::Simd, Triggers::EveryColon] {
                for strict in [false, true] {
                    let cfg = Config { strict, triggers, ..Config::default() };
                    let hay = Hay { bytes: &text, eof: true };
                    let (mut pos, mut floor) = (0, 0);
                    while let Step::Found(raw, resume) =
                        cfg.step(hay, pos, floor)
                    {
                        if raw.kind == Kind::Bare
                            && text[raw.span.start..].contains(&b':')
                        {
                            let s = raw.span.start;
                            let c = s + text[s..]
                                .iter()
                                .position(|&b| b == b':')
                                .unwrap_or(0);
                            let full = cfg.bare_read(
                                &hay,
                                s,
                                c,
                                parse::registered_prefix(&text[s..], c - s)
                                    .is_some(),
                                None,
                            );
                            let mine: Result<
                                Option<(Raw, usize)>,
                                Incomplete,
                            > = Ok(Some((raw.clone(), resume)));
                            assert!(
                                same(&mine, &full),
                                "{:?} at {s}: {mine:?} != {full:?}",
                                String::from_utf8_lossy(&text)
                            );
                        }
                        pos = resume;
                        floor = resume;
                    }
                }
            }
        }
    }
}
