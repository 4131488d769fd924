//! The hand-written match record against serde's, byte for byte.

use super::*;
use crate::output::json::FromRecord;
use proptest::prelude::*;
use std::borrow::Cow;
use std::collections::BTreeMap;

fn record<'a>(s: &'a str, t: &'a str, all: bool) -> MatchRecord<'a> {
    let c = |x: &'a str| Cow::Borrowed(x);
    let mut headers = BTreeMap::new();
    headers.insert(c(t), vec![c(s), c(t)]);
    headers.insert(c("x-empty"), vec![]);
    MatchRecord {
        path: all.then(|| c(s)),
        source: (!all).then(|| c(t)),
        path_escaped: all,
        offset: u64::MAX,
        line: 0,
        column: 1234567890,
        kind: c("bare"),
        url: c(t),
        scheme: c("http"),
        host: all.then(|| c(s)),
        flags: if all { vec![c("joined"), c(s)] } else { vec![] },
        defanged: all.then(|| c(t)),
        reference: all.then(|| c(s)),
        mail: all.then(|| {
            Box::new(MailRecord {
                message: 7,
                message_offset: 99,
                message_id: all.then(|| c(t)),
                message_id_truncated: all,
                part: 2,
                location: c("body"),
                encoding: c(s),
                decoded: true,
                // The flags of strings cut at FIELD_CAP, each set.
                from: Some(FromRecord {
                    address: Some(c(t)),
                    name: None,
                    truncated: all,
                }),
                subject: Some(c(s)),
                subject_truncated: all,
                date: all.then(|| c(t)),
                date_truncated: all,
                date_utc: Some(c(t)),
                headers: Some(headers),
                headers_truncated: all,
            })
        }),
        html: all.then(|| {
            Box::new(HtmlRecord {
                place: c("attribute"),
                element: Some(c("a")),
                attribute: None,
                link_text: Some(c(s)),
            })
        }),
        record: Some(Box::new(WebRecordJson {
            index: 3,
            offset: u64::MAX,
            gz_offset: all.then_some(17),
            format: c("warc"),
            kind: c(t),
            target_uri: all.then(|| c(s)),
            date: (!all).then(|| c(t)),
            id: Some(c(s)),
            content_type: all.then(|| c(t)),
        })),
    }
}

fn same(s: &str, t: &str) {
    for all in [false, true] {
        let rec = record(s, t, all);
        let mut fast = Vec::new();
        match_record(&mut fast, &rec);
        let slow = by_serde(&rec);
        assert_eq!(
            String::from_utf8_lossy(&fast),
            String::from_utf8_lossy(&slow),
            "{s:?} {t:?}"
        );
    }
}

#[test]
fn caps_cut_at_a_character() {
    let long = "é".repeat(FIELD_CAP + 1);
    let (cut, yes) = cap_str(&long);
    assert!(yes);
    assert_eq!(cut.chars().count(), FIELD_CAP);
    assert_eq!(cap_str(&long[2..]), (&long[2..], false));
    // Bytes that are not UTF-8 count one each; a character is never split.
    let mut id = vec![0xff; FIELD_CAP - 1];
    id.extend_from_slice("éé".as_bytes());
    let (cut, yes) = cap_bytes(&id);
    assert!(yes);
    assert_eq!(cut, &id[..FIELD_CAP + 1]);
    assert_eq!(cap_bytes(&id[..FIELD_CAP + 1]), (&id[..FIELD_CAP + 1], false));
}

#[test]
fn every_escape_the_same_as_serde() {
    let mut every = String::new();
    for c in (0u32..0x300).chain(0x600..0x620).chain(0x2000..0x2070) {
        every.extend(char::from_u32(c));
    }
    same(&every, "plain");
    same("", "\"\\\u{7f}\u{9b}\u{202e}\u{2069}\u{61c}😀é\u{a0}\u{2010}");
    same("a\u{c2}\u{80}b", "\u{d8}\u{9c}\u{e2}\u{80}\u{8e}");
}

proptest! {
    #[test]
    fn any_strings_the_same_as_serde(s in any::<String>(), t in "\\PC*") {
        same(&s, &t);
    }
}

#[test]
fn a_special_character_at_every_place_of_a_long_run() {
    for special in [
        "\0", "\u{1f}", "\"", "\\", "\u{7f}", "\u{80}", "\u{9f}", "é",
        "\u{202e}", " ", "~", "!",
    ] {
        for at in 0..24 {
            let mut s = "abcdefghijklmnopqrstuvwxyz".to_string();
            s.insert_str(at, special);
            same(&s, &s);
        }
    }
}

#[test]
fn numbers_as_std_writes_them() {
    let mut edges = vec![0, u64::MAX, u64::MAX - 1];
    let mut p = 1u64;
    while let Some(next) = p.checked_mul(10) {
        edges.extend([p - 1, p, p + 1, next / 2]);
        p = next;
    }
    edges.extend([p - 1, p, p + 1]);
    for n in edges {
        let mut out = Vec::new();
        number(&mut out, n);
        assert_eq!(out, n.to_string().into_bytes(), "{n}");
    }
}

proptest! {
    #[test]
    fn any_number_as_std_writes_it(n in any::<u64>(), small in 0u64..100_000) {
        for n in [n, small] {
            let mut out = Vec::new();
            number(&mut out, n);
            prop_assert_eq!(out, n.to_string().into_bytes());
        }
    }
}
