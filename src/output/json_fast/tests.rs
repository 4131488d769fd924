//! The hand-written JSON strings against serde's, byte for byte (the
//! whole match record is held to serde's in `json_lines/tests.rs`).

use super::*;
use proptest::prelude::*;

/// What serde writes for `value` (through the escaping formatter).
fn by_serde<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    crate::output::escape::write_json(&mut out, value).expect("to a Vec");
    String::from_utf8(out).expect("serde writes UTF-8")
}

/// `s` and `t` as strings, and their bytes as text, the same as serde
/// writes them (a match record's every string goes through these).
fn same(s: &str, t: &str) {
    for x in [s, t] {
        let mut fast = Vec::new();
        string(&mut fast, x);
        assert_eq!(String::from_utf8_lossy(&fast), by_serde(x), "{x:?}");
        let mut fast = Vec::new();
        opt_string(&mut fast, Some(x).filter(|x| !x.is_empty()));
        let want = by_serde(&Some(x).filter(|x| !x.is_empty()));
        assert_eq!(String::from_utf8_lossy(&fast), want, "{x:?}");
    }
    // Bytes, UTF-8 or not: percent-encoded where they are not.
    let mut bytes = s.as_bytes().to_vec();
    bytes.extend_from_slice(b"\xff\xc3");
    bytes.extend_from_slice(t.as_bytes());
    for b in [s.as_bytes(), t.as_bytes(), &bytes] {
        let mut fast = Vec::new();
        let escaped = text(&mut fast, b);
        let (want, want_escaped) = crate::output::escape::json_text(b);
        assert_eq!(String::from_utf8_lossy(&fast), by_serde(&*want));
        assert_eq!(escaped, want_escaped, "{b:?}");
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

#[test]
fn position_as_keys_and_numbers_one_by_one() {
    use crate::scan::Kind;
    let kinds = [
        Kind::Wrapped,
        Kind::Angle,
        Kind::Quoted,
        Kind::Bare,
        Kind::Email,
        Kind::Www,
        Kind::Domain,
        Kind::NetworkPath,
        Kind::Resolved,
    ];
    let mut numbers = vec![0, 1, 9, u64::MAX, u64::MAX - 1];
    let mut p = 10u64;
    while let Some(next) = p.checked_mul(10) {
        numbers.extend([p - 1, p, p + 1]);
        p = next;
    }
    numbers.extend([p - 1, p, p + 1]);
    for (k, &n) in numbers.iter().enumerate() {
        let kind = kinds[k % kinds.len()];
        let m = numbers[(k * 7 + 3) % numbers.len()];
        let mut fast = Vec::new();
        position(&mut fast, n, m, n ^ m, kind);
        let want = format!(
            ",\"offset\":{n},\"line\":{m},\"column\":{},\"kind\":{},\"url\":",
            n ^ m,
            by_serde(kind.name())
        );
        assert_eq!(String::from_utf8_lossy(&fast), want);
    }
}

proptest! {
    /// Records written one after the other with the line's keys kept
    /// (lines the same as the last, or not; numbers of every length)
    /// are each what it is alone.
    #[test]
    fn position_with_kept_lines_as_alone(
        records in proptest::collection::vec(
            (any::<u64>(), prop_oneof![Just(1u64), 0..12u64, any::<u64>()], any::<u64>()),
            1..24,
        ),
    ) {
        use crate::scan::Kind;
        let mut keys = LineKeys::default();
        for (start, line, column) in records {
            let mut kept = Vec::new();
            if keys.is(line) {
                position_on_line(&mut kept, &mut keys, start, column, Kind::Bare);
            } else {
                position(&mut kept, start, line, column, Kind::Bare);
                keys.note(line);
            }
            let want = format!(
                ",\"offset\":{start},\"line\":{line},\"column\":{column},\"kind\":\"bare\",\"url\":"
            );
            prop_assert_eq!(String::from_utf8_lossy(&kept), want);
        }
    }
}

#[test]
fn host_lower_cased_wherever_a_capital_is() {
    for len in 1..20 {
        for at in 0..len {
            for capital in [b'A', b'Z', b'M'] {
                let mut h = vec![b'a'; len];
                h[at] = capital;
                let mut fast = Vec::new();
                host(&mut fast, b"http://x/", Some(&h));
                let want =
                    format!("\"{}\"", h.to_ascii_lowercase().escape_ascii());
                assert_eq!(String::from_utf8_lossy(&fast), want, "{h:?}");
                assert!(!plain_lower(&h));
            }
            // `@` and `[` are next to `A` and `Z`: left as they are.
            for near in [b'@', b'[', b'`', b'{', b'~', b' '] {
                let mut h = vec![b'z'; len];
                h[at] = near;
                assert!(plain_lower(&h), "{h:?}");
                for bad in [b'"', b'\\', 0x7f, 0x1f, 0x80, 0xff] {
                    h[at] = bad;
                    assert!(!plain_lower(&h), "{h:?}");
                }
            }
        }
    }
}

#[test]
fn eight_digits_as_std_writes_them() {
    let sweep = (0..120_000).chain((0..100_000_000).step_by(997));
    for n in sweep.chain([99_999_999, 10_000_000, 9_999_999]) {
        let (word, len) = eight_digits(n);
        let bytes = word.to_le_bytes();
        assert_eq!(&bytes[..len], n.to_string().as_bytes(), "{n}");
    }
}
