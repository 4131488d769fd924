//! The trigger search changes nothing but speed: SIMD, naive and
//! every-colon triggers give the same candidates, in the slice and the
//! reader searches, on generated text and on real corpora.

#[path = "support/shared.rs"]
mod shared;

use proptest::prelude::*;
use std::io;
use urlgrep::{Candidate, Finder, Finds, Match, Position, Sink, Triggers};

const MODES: [Triggers; 3] =
    [Triggers::Simd, Triggers::Naive, Triggers::EveryColon];

/// A candidate as comparable data: span, URL, kind, reject reason.
type Row = (usize, usize, Vec<u8>, String, Option<String>);

fn row(c: &Candidate<'_>) -> Row {
    let m = c.as_match();
    (
        m.span().start,
        m.span().end,
        m.url().to_vec(),
        m.kind().to_string(),
        c.reject().map(|r| r.to_string()),
    )
}

fn slice_rows(t: Triggers, hay: &[u8]) -> Vec<Row> {
    slice_rows_with(t, Finds::NONE, hay)
}

/// With the scheme-less detectors of `finds` on (issue 19): the `@` and
/// `.` triggers have their own oracle, every such byte untested.
fn slice_rows_with(t: Triggers, finds: Finds, hay: &[u8]) -> Vec<Row> {
    let f = Finder::builder().triggers(t).find(finds).build();
    f.candidates(hay).map(|c| row(&c)).collect()
}

/// Reader results as (absolute start, URL, rejected).
struct Collect(Vec<(u64, Vec<u8>, bool)>);

impl Sink for Collect {
    type Error = io::Error;
    fn matched(&mut self, at: &Position, m: &Match<'_>) -> io::Result<bool> {
        self.0.push((at.start, m.url().to_vec(), false));
        Ok(true)
    }
    fn rejected(
        &mut self,
        at: &Position,
        c: &Candidate<'_>,
    ) -> io::Result<bool> {
        self.0.push((at.start, c.as_match().url().to_vec(), true));
        Ok(true)
    }
}

fn reader_rows(
    t: Triggers,
    hay: &[u8],
    cap: usize,
) -> Vec<(u64, Vec<u8>, bool)> {
    let f = Finder::builder().triggers(t).buffer_capacity(cap).build();
    let mut sink = Collect(Vec::new());
    f.find_reader(hay, &mut sink).unwrap();
    sink.0
}

/// Text made of the pieces that matter around a colon.
fn text() -> impl Strategy<Value = Vec<u8>> {
    let pieces: Vec<&'static [u8]> = vec![
        b"http",
        b"HTTP",
        b"://",
        b":",
        b":/",
        b"//",
        b"<",
        b">",
        b"\"",
        b"URL",
        b"url",
        b"mailto",
        b"News",
        b"urn",
        b"sip",
        b"cid",
        b" ",
        b"\n",
        b"\n> ",
        b"a.b",
        b"/",
        b"x",
        b"-",
        b".",
        b"\xff",
        b"(",
        b")",
        b"12",
        b"@",
        b"Subject",
        b"\xc3\xa9",
        b"%4",
        b"xmailto",
        b"\"cid:",
        b"<sip:",
        b"<URL:",
        b"\"tel:",
        b"<mid:",
        b"\" ",
        // the quick look reads 16 bytes before a colon as two words:
        // stops and delimiters at every distance, and runs longer than
        // a word
        b"=",
        b"<=",
        b"\t",
        b"+",
        b"0123456789",
        b"X-Spam-Checker-Version",
        b"Received",
        // the `@` and `.` triggers of the scheme-less detectors
        b"www",
        b"WWW.",
        b"bob",
        b"example.com",
        b".org",
        b"a.b@",
        b"'",
        // refused names the scanner skips past: addresses, versions,
        // file names, hyphens and long labels
        b"10.0.0.1",
        b"1.2",
        b"a-b.c-d",
        b"x.y.z",
        b"notes.txt",
        b"www.www.",
        b"//cdn.example.com/",
        b"(//",
        b"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl",
        // internationalized names: UTF-8 letters of two scripts, a
        // no-break space, an A-label TLD
        "президент".as_bytes(),
        ".рф".as_bytes(),
        "ELPAÍS".as_bytes(),
        "中国語".as_bytes(),
        "\u{a0}".as_bytes(),
        b".xn--p1ai",
        // unregistered schemes before `//`, cut and glued ones, a drive
        b"gemini",
        b"ttp",
        b"Seehttps",
        b"C",
    ];
    proptest::collection::vec(proptest::sample::select(pieces), 0..60)
        .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn slice_search_is_the_same_for_every_trigger_mode(hay in text()) {
        let want = slice_rows(Triggers::EveryColon, &hay);
        for t in MODES {
            prop_assert_eq!(&slice_rows(t, &hay), &want, "{:?}", t);
        }
        for finds in [
            Finds::EMAIL,
            Finds::WWW,
            Finds::DOMAIN,
            Finds::NETWORK_PATH,
            Finds::UNREGISTERED,
            Finds::ALL,
        ] {
            let want = slice_rows_with(Triggers::EveryColon, finds, &hay);
            for t in MODES {
                let got = slice_rows_with(t, finds, &hay);
                prop_assert_eq!(&got, &want, "{:?} {:?}", t, finds);
            }
        }
    }

    #[test]
    fn reader_search_is_the_same_for_every_trigger_mode(
        hay in text(),
        cap in prop::sample::select(vec![1usize, 2, 3, 7, 64, 4096]),
    ) {
        let want = reader_rows(Triggers::EveryColon, &hay, 4096);
        for t in MODES {
            prop_assert_eq!(&reader_rows(t, &hay, cap), &want, "{:?}", t);
        }
    }

    #[test]
    fn slices_of_a_split_are_the_same_for_every_trigger_mode(
        hay in text(),
        cut in 0usize..400,
    ) {
        // `candidates_in` starts with a floor inside the text.
        let start = cut.min(hay.len());
        let rows = |t| {
            let f = Finder::builder().triggers(t).build();
            f.candidates_in(&hay, start..hay.len())
                .map(|c| row(&c))
                .collect::<Vec<_>>()
        };
        let want = rows(Triggers::EveryColon);
        for t in MODES {
            prop_assert_eq!(&rows(t), &want, "{:?}", t);
        }
    }
}

/// A refused host run that goes on over UTF-8 letters is skipped only
/// to where they start: `é` opens the `www.` after it (proptest found
/// `WWW.éwww.www` skipped whole).
#[test]
fn a_refused_name_is_not_skipped_past_utf8() {
    let hay = "WWW.éwww.www and x.中国www.example.com".as_bytes();
    let want = slice_rows_with(Triggers::EveryColon, Finds::ALL, hay);
    assert!(!want.is_empty());
    for t in MODES {
        assert_eq!(slice_rows_with(t, Finds::ALL, hay), want, "{t:?}");
    }
}

#[test]
fn scheme_runs_at_the_length_limit() {
    for zeros in 20..34 {
        for before in [b' ', b'0', b'<'] {
            let mut hay = vec![b'x', before];
            hay.extend(std::iter::repeat_n(b'0', zeros));
            hay.extend(b"mailto:a@b.c <sip:x> x");
            let want = slice_rows(Triggers::EveryColon, &hay);
            for t in MODES {
                assert_eq!(slice_rows(t, &hay), want, "{zeros} {t:?}");
            }
        }
    }
}

/// The small real corpora (RFC 8400–8499 and mini_newsgroups), when
/// `../shared` is there.
#[test]
fn real_corpora_are_the_same_for_every_trigger_mode() {
    use std::io::Read;
    let Some(root) = shared::path("corpora") else {
        return;
    };
    for tarball in
        ["rfc/rfc8400-8499.tar.gz", "20newsgroups/mini_newsgroups.tar.gz"]
    {
        let file = std::fs::File::open(root.join(tarball)).unwrap();
        let mut archive =
            tar::Archive::new(flate2::read::GzDecoder::new(file));
        let mut hay = Vec::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            if entry.header().entry_type().is_file() {
                entry.read_to_end(&mut hay).unwrap();
            }
        }
        let want = slice_rows(Triggers::EveryColon, &hay);
        if tarball.starts_with("rfc") {
            assert!(want.len() > 100, "{tarball}: {} candidates", want.len());
        }
        for t in MODES {
            assert_eq!(slice_rows(t, &hay), want, "{tarball} {t:?}");
        }
        let want = reader_rows(Triggers::EveryColon, &hay, 4096);
        for t in MODES {
            assert_eq!(reader_rows(t, &hay, 4096), want, "{tarball} {t:?}");
        }
        // and with every detector on: the `.` and `@` tests and the
        // skip past refused names against every such byte
        let want = slice_rows_with(Triggers::EveryColon, Finds::ALL, &hay);
        assert!(
            want.iter().filter(|r| r.3 == "domain" && r.4.is_none()).count()
                > 10,
            "{tarball}: too few domains to prove anything"
        );
        for t in MODES {
            let got = slice_rows_with(t, Finds::ALL, &hay);
            assert_eq!(got, want, "{tarball} {t:?} all");
        }
    }
}
