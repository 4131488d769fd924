//! The trigger search's tests: the SIMD search against the naive one,
//! the first look against the exact walk, on every offset and floor.

use super::super::testing::{pieces, xorshift};
use super::*;

const ALL: [Triggers; 3] =
    [Triggers::Simd, Triggers::Naive, Triggers::EveryColon];

/// Every trigger of `hay` from `from` on, with floor `floor`.
fn all(t: Triggers, hay: &[u8], from: usize, floor: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut pos = from;
    while let Some(c) = t.find(hay, pos, floor) {
        out.push(c);
        pos = c + 1;
    }
    out
}

#[test]
fn simd_equals_naive_on_every_offset_and_floor() {
    let hay: &[u8] = b"a:bc::d\xff:e: Subject: <URL:x> \"cid:a\" \
        http://a news:b MAILTO:c urn:d <sip:e http:/ z:// : 'tel:1' \
        <svn+ssh://x";
    for from in 0..=hay.len() + 1 {
        for floor in [0, from.saturating_sub(3), from] {
            assert_eq!(
                all(Triggers::Simd, hay, from, floor),
                all(Triggers::Naive, hay, from, floor),
                "from {from} floor {floor}"
            );
        }
    }
}

/// The word walk after a refused colon: colon-dense text with names,
/// `//` and other bytes at every offset of the 8-byte words.
#[test]
fn simd_equals_naive_on_colon_runs() {
    let parts: &[&[u8]] = &[
        b":", b"::", b":::::::", b"a", b"/", b"//", b"http", b"<", b" ",
        b":/", b":/:/:/", b"[", b"]", b"*", b"?", b";", b">",
    ];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..400 {
        let mut hay = Vec::new();
        pieces(&mut state, parts, &mut hay, 70);
        for from in 0..hay.len() {
            for floor in [0, from] {
                assert_eq!(
                    all(Triggers::Simd, &hay, from, floor),
                    all(Triggers::Naive, &hay, from, floor),
                    "{:?} from {from} floor {floor}",
                    String::from_utf8_lossy(&hay)
                );
            }
        }
    }
    let dense = [b':'; 40];
    assert_eq!(all(Triggers::Simd, &dense, 0, 0), vec![39]);
}

/// Issue 32: the word walk after a refused colon with detectors on
/// stops at their trigger bytes (`@`, `.`): every trigger and its kind,
/// from every offset, are the naive search's, for each set of detectors.
#[test]
fn simd_equals_naive_on_colon_runs_with_detectors() {
    let parts: &[&[u8]] = &[
        b":", b"::", b":::::::", b":/:/:/", b"a", b"/", b"//", b"http", b"<",
        b" ", b".", b"@", b"x.zz ", b"a@b.c", b"www.", b"[.]", b"]", b"[",
    ];
    let sets = [
        Finds::EMAIL,
        Finds::WWW,
        Finds::DOMAIN,
        Finds::NETWORK_PATH,
        Finds::UNREGISTERED,
        Finds::DEFANGED,
        Finds::EMAIL.union(Finds::DOMAIN),
        Finds::ALL,
    ];
    let kinds = |t: Triggers, hay: &[u8], from: usize, floor, finds| {
        let mut out = Vec::new();
        let mut pos = from;
        while let Some((c, kind)) = t.find_kind(hay, pos, floor, finds) {
            out.push((c, kind));
            pos = c + 1;
        }
        out
    };
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for round in 0..400 {
        let mut hay = Vec::new();
        pieces(&mut state, parts, &mut hay, 60);
        let finds = sets[round % sets.len()];
        for from in 0..hay.len() {
            for floor in [0, from] {
                assert_eq!(
                    kinds(Triggers::Simd, &hay, from, floor, finds),
                    kinds(Triggers::Naive, &hay, from, floor, finds),
                    "{:?} from {from} floor {floor} {finds:?}",
                    String::from_utf8_lossy(&hay)
                );
            }
        }
    }
}

#[test]
fn equal_bytes_is_exact() {
    for b in 0..=255u8 {
        let w = u64::from_le_bytes([b, 0, 0x80, b':', 0xff, b ^ 1, b, 0x7f]);
        let got = equal_bytes(w, b);
        let want = w
            .to_le_bytes()
            .iter()
            .enumerate()
            .filter(|&(_, &x)| x == b)
            .fold(0u64, |m, (i, _)| m | 0x80 << (8 * i));
        assert_eq!(got, want, "{b}");
    }
}

#[test]
fn class_table_agrees_with_the_parser() {
    for b in 0..=255u8 {
        let class = CLASS[b as usize];
        assert_eq!(
            class & SCHEME != 0,
            crate::parse::is_scheme_byte(b),
            "{b}"
        );
        assert_eq!(class & ALPHA != 0, b.is_ascii_alphabetic(), "{b}");
    }
}

#[test]
fn the_quick_look_agrees_with_the_exact_one() {
    let names: &[&[u8]] = &[
        b"Received",
        b"mailto",
        b"MAILTO",
        b"xmailto",
        b"1mailto",
        b"news",
        b"News",
        b"urn",
        b"URL",
        b"sip",
        b"http",
        b"12",
        b"0000000000000000000000000000mailto",
        b"00000000000000000000000000000mailto",
        b"",
    ];
    let befores: &[&[u8]] = &[
        b"", b"<", b"\"", b"'", b" ", b"\n", b"x", b"\xc3", b":", b"<a ",
        b"\" ", b"' ", b"(",
    ];
    for pad in 0..48 {
        for name in names {
            for before in befores {
                for gap in 0..3 {
                    let mut hay = vec![b'a'; pad];
                    hay.extend_from_slice(before);
                    hay.extend(std::iter::repeat_n(b' ', gap));
                    hay.extend_from_slice(name);
                    let c = hay.len();
                    hay.extend_from_slice(b":x");
                    for floor in [0, pad / 2, pad, c] {
                        let quick = surely_not_named(&hay, c, floor);
                        let exact = named(&hay, c, floor);
                        assert!(
                            !(quick && exact),
                            "{:?} floor {floor}",
                            String::from_utf8_lossy(&hay)
                        );
                    }
                }
            }
        }
    }
    // and it does say no to a header colon
    let hay = b"Message-ID: <x@y>\nDelivered-To: list@example.org\n\
        Received: from a.example (a.example [10.0.0.1])";
    let c = memchr::memmem::find(hay, b"Received:").unwrap() + 8;
    assert!(surely_not_named(hay, c, 0));
    // and to a quote below the floor (issue 32): the colon after a
    // closed `"http:"` is settled by the first look, one with its quote
    // at or above the floor is not.
    let hay = b"0123456789abcdef\"http:\"http:x";
    let c = hay.len() - 2;
    assert!(surely_not_named(hay, c, c - 4));
    assert!(!named(hay, c, c - 4));
    assert!(!surely_not_named(hay, c, c - 5));
    assert!(named(hay, c, c - 5));
}

/// The trigger set is exactly "`//` after, or [`named`]": the quick
/// look only drops colons the exact walk drops, on pseudo-random text
/// made of the bytes that matter, at every colon and several floors.
#[test]
fn may_start_is_slashes_or_named_on_random_text() {
    let alphabet: &[u8] = b"::::/<<\"\"''  \n\t(+-.09aAoOsSnNlLtTmMiIuUrRwWeE\
        \x00\x7f\x80\xff,;=>@";
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || xorshift(&mut state);
    let words: &[&[u8]] = &[
        b"mailto",
        b"MailTo",
        b"news",
        b"NEWS",
        b"urn",
        b"URL",
        b"http",
        b"Content-Transfer-Encoding",
        b"0123456789abcdef",
        b"abcdefghijklmnop",
        b"Abcdefghijklmnopqrstuvw",
    ];
    let (mut colons, mut kept) = (0, 0);
    for _ in 0..6000 {
        let len = (next() % 80) as usize;
        let mut hay = Vec::with_capacity(len + 8);
        while hay.len() < len {
            let r = next();
            if r % 9 == 0 {
                hay.extend_from_slice(words[(r >> 8) as usize % words.len()]);
            } else {
                hay.push(alphabet[(r >> 8) as usize % alphabet.len()]);
            }
        }
        for c in 0..hay.len() {
            if hay[c] != b':' {
                continue;
            }
            for floor in [0, c / 2, c.saturating_sub(7), c] {
                let slashes = matches!(
                    (hay.get(c + 1), hay.get(c + 2)),
                    (None, _) | (Some(b'/'), None | Some(b'/'))
                );
                let want = slashes || named(&hay, c, floor);
                let got = may_start(&hay, c, floor);
                assert_eq!(
                    got,
                    want,
                    "{:?} c {c} floor {floor}",
                    String::from_utf8_lossy(&hay)
                );
                colons += 1;
                kept += usize::from(got);
            }
        }
    }
    // the text does hold both kinds of colon
    assert!(kept > 1000 && colons - kept > 1000, "{kept} of {colons}");
}

#[test]
fn filtered_triggers_are_a_subset_of_colons() {
    let hay = b"x: http://a <URL:b> 12:30 news:c";
    let colons = all(Triggers::EveryColon, hay, 0, 0);
    let kept = all(Triggers::Simd, hay, 0, 0);
    assert!(kept.iter().all(|c| colons.contains(c)));
    assert_eq!(kept.len(), 3, "{kept:?}");
}

#[test]
fn which_colons_are_triggers() {
    let yes: &[&[u8]] = &[
        b"http://a",
        b"x z://",
        b"<URL:x",
        b"<url: x",
        b"\"cid:x",
        b"'cid:x",
        b"<sip:x",
        b"MailTo:x",
        b"news:x",
        b"(urn:x",
        b"http:",  // the window may end before `//`
        b"http:/", // likewise
    ];
    for hay in yes {
        let c = memchr::memchr(b':', hay).unwrap();
        assert!(may_start(hay, c, 0), "{}", String::from_utf8_lossy(hay));
    }
    let no: &[&[u8]] = &[
        b"Subject: x",
        b"12:34:56",
        b"C::x",
        b"xnews:x",
        b"http:/x",
        b" : x",
        b"<1:x",
        b"<URL:<URL:",
        b"<sip:<x>",
        b"\"mailto:<a@b.c>\"",
    ];
    for hay in no {
        let c = memchr::memchr(b':', hay).unwrap();
        assert!(!may_start(hay, c, 0), "{}", String::from_utf8_lossy(hay));
    }
    // a run of exactly MAX_SCHEME_LEN + 1 bytes is walked, one byte
    // more is too long
    let mut hay = vec![b' '; 2];
    hay.extend([b'0'; MAX_SCHEME_LEN + 1 - 6]);
    hay.extend(b"mailto:x");
    let c = hay.len() - 2;
    assert!(may_start(&hay, c, 0));
    hay[1] = b'0';
    assert!(!may_start(&hay, c, 0));
    // the floor cuts the run as in at_trigger: `mailto` after it
    assert!(may_start(b"xmailto:y", 7, 1));
    assert!(!may_start(b"xmailto:y", 7, 0));
    // and hides the delimiter before it
    assert!(!may_start(b"<sip:x", 4, 1));
    for t in ALL {
        assert_eq!(t.find(b"", 0, 0), None);
        assert_eq!(t.find(b"a", 5, 0), None);
    }
}
