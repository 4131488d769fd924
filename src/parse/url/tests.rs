//! Tests of the parser: the one-pass paths against the general one, the
//! verdict against the parse, and the grammars scheme by scheme.

use super::super::authority::authority_general;
use super::super::components::News;
use super::super::grammars::{
    ftptype, rfc1738_group, rfc1738_grouppart, split_tabs,
};
use super::*;

proptest::proptest! {
    /// The one-pass http rule gives what the general route gives.
    #[test]
    fn http_one_pass_is_general(
        s in "https?://([a-z.@:]{0,8}|\\[[0-9a-f:]{0,6}\\])(:[0-9]{0,3})?[/a-z?#%.é\u{e000} ]{0,12}"
    ) {
        let b = s.as_bytes();
        let (name, rest) = scheme(b).expect("scheme");
        let scheme = Scheme::from_name(name);
        let fast = match rest.strip_prefix(b"//") {
            Some(after) => {
                let mut url = blank(b, scheme, name);
                http_one_pass(&mut url, after).map(|()| url)
            }
            None => return Ok(()),
        };
        let slow = general(b, false, scheme, name, rest);
        match (&fast, &slow) {
            (Ok(f), Ok(g)) => proptest::prop_assert_eq!(f, g),
            (Err(_), Err(_)) => {}
            _ => proptest::prop_assert!(false, "{:?}: {:?} vs {:?}", s, fast, slow),
        }
    }
}

proptest::proptest! {
    /// The one-pass authority gives what the general route gives.
    #[test]
    fn authority_fast_is_general(
        s in "[a-zA-Z0-9.-]{0,10}(:[0-9]{0,6})?[/?#:@x_]?[a-z0-9]{0,3}",
        strict: bool,
    ) {
        for scheme in [Scheme::Http, Scheme::Other, Scheme::Gopher] {
            let b = s.as_bytes();
            let mut fast = blank(b, scheme, b"x");
            let mut slow = blank(b, scheme, b"x");
            let f = authority(&mut fast, b, strict);
            let g = authority_general(&mut slow, b, strict);
            proptest::prop_assert_eq!(f, g, "{:?}", s);
            if f.is_ok() {
                proptest::prop_assert_eq!(fast, slow, "{:?}", s);
            }
        }
    }
}

/// Every URL-like candidate of the files under `dir` (recursively):
/// at each `:`, the scheme bytes before it and the text up to white
/// space, `<`, `>` or `"` after it, whole and cut before each
/// punctuation byte, so that ends a reader would trim are tried too.
fn candidates(dir: &std::path::Path, out: &mut Vec<Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            candidates(&path, out);
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else { continue };
        for (i, _) in bytes.iter().enumerate().filter(|(_, &b)| b == b':') {
            let lowest = i.saturating_sub(32);
            let mut s = i;
            while s > lowest
                && bytes
                    .get(s - 1)
                    .is_some_and(|&b| super::super::is_scheme_byte(b))
            {
                s -= 1;
            }
            let tail = bytes.get(i..).unwrap_or_default();
            let len = tail
                .iter()
                .take(2048)
                .position(|&b| b <= b' ' || b"<>\"".contains(&b))
                .unwrap_or(tail.len().min(2048));
            let Some(token) = bytes.get(s..i + len) else { continue };
            if s == i || len < 2 {
                continue;
            }
            out.push(token.to_vec());
            for (j, b) in token.iter().enumerate().skip(i - s + 1) {
                if b".,;:!?)]'&=#/@%".contains(b) {
                    out.extend(token.get(..j).map(<[u8]>::to_vec));
                }
            }
        }
    }
}

/// The fast paths give exactly what the reference gives, verdict,
/// reason and components, on every candidate of the bundled corpora
/// (and of the folders in `URLGREP_ORACLE_DIRS`, `:`-separated).
#[test]
fn fast_paths_are_the_reference_on_the_corpora() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    candidates(&root.join("corpora"), &mut all);
    if let Ok(dirs) = std::env::var("URLGREP_ORACLE_DIRS") {
        for d in dirs.split(':') {
            candidates(std::path::Path::new(d), &mut all);
        }
    }
    all.sort_unstable();
    all.dedup();
    assert!(all.len() > 2_000, "only {} candidates", all.len());
    let mut mailto_ok = 0;
    for c in &all {
        for strict in [false, true] {
            let new = parse(c, strict);
            let old = parse_reference(c, strict);
            // `validate` is `Url::parse_with(…).map(|u| u.scheme())`.
            let scheme = if strict {
                old.and_then(|u| parse_reference(c, false).map(|_| u))
            } else {
                old
            }
            .map(|u| u.scheme);
            let v = verdict(c, strict);
            assert_eq!(v.map(|v| v.scheme), scheme);
            // The host comes out of the parse as `Url::parse` reads it.
            if let Ok(v) = v {
                let want = parse(c, false)
                    .ok()
                    .and_then(|u| u.host_text)
                    .filter(|h| !h.is_empty());
                let got = v.host.map(|(a, b)| &c[a as usize..b as usize]);
                assert_eq!(got, want, "{:?}", String::from_utf8_lossy(c));
            }
            if let Some((scheme, n)) = common_scheme(c) {
                let (name, rest) = self::scheme(c).expect("a scheme");
                assert_eq!(name.len(), n);
                assert_eq!(c.get(n + 1..), Some(rest));
                assert_eq!(Scheme::from_name(name), scheme);
            }
            for n in 0..c.len().min(12) {
                let name = c.get(..n).unwrap_or_default();
                assert_eq!(Scheme::from_prefix(c, n), Scheme::from_name(name));
            }
            assert_eq!(
                new,
                old,
                "{:?} strict={strict}",
                String::from_utf8_lossy(c)
            );
            if !strict && new.is_ok_and(|u| u.scheme == Scheme::Mailto) {
                mailto_ok += 1;
            }
        }
    }
    eprintln!("{} candidates, {mailto_ok} mailto accepted", all.len());
    assert!(mailto_ok > 30, "only {mailto_ok} mailto URLs accepted");
}

proptest::proptest! {
    /// The fast paths give what the reference gives on text close to
    /// their shapes.
    #[test]
    fn fast_paths_are_the_reference(
        s in "(mailto|MailTo|http|https):[a-z.@?=&#%,!~_\"\\[\\]é]{0,24}",
    ) {
        for strict in [false, true] {
            let b = s.as_bytes();
            let old = parse_reference(b, strict);
            proptest::prop_assert_eq!(
                parse(b, strict), old, "{:?} strict={}", s, strict
            );
            let scheme = if strict {
                old.and_then(|u| parse_reference(b, false).map(|_| u))
            } else {
                old
            }
            .map(|u| u.scheme);
            proptest::prop_assert_eq!(verdict(b, strict).map(|v| v.scheme), scheme);
        }
    }
}

#[test]
fn common_schemes() {
    for s in ["http://a", "HTTP://a", "hTtPs://a", "MailTo:a@b", "http:abc"] {
        let (scheme, n) = common_scheme(s.as_bytes()).expect(s);
        let (name, _) = self::scheme(s.as_bytes()).expect(s);
        assert_eq!((scheme, n), (Scheme::from_name(name), name.len()));
    }
    for s in
        ["http:/", "http\x1a//a", "httpx://a", "mailto\x1aa@b.c", "ftp://a.b"]
    {
        assert_eq!(common_scheme(s.as_bytes()), None, "{s:?}");
    }
}

#[test]
fn rule_functions() {
    assert_eq!(scheme(b"Http:x"), Ok((&b"Http"[..], &b"x"[..])));
    assert_eq!(scheme(b"+a:x"), Err(Reject::BadScheme));
    assert_eq!(scheme(b"a"), Err(Reject::BadScheme));
    assert_eq!(ftptype(b"/a;type=I"), Ok((&b"/a"[..], Some(b'i'))));
    assert_eq!(ftptype(b"/a;type=b"), Err(Reject::BadTypecode));
    assert_eq!(ftptype(b"/a;x=y"), Ok((&b"/a;x=y"[..], None)));
    assert_eq!(split_tabs(b"sel"), (&b"sel"[..], None, None));
    assert_eq!(split_tabs(b"s%09q"), (&b"s"[..], Some(&b"q"[..]), None));
    assert_eq!(
        split_tabs(b"s%09%09p"),
        (&b"s"[..], Some(&b""[..]), Some(&b"p"[..]))
    );
    assert!(rfc1738_group(b"comp.lang.c++"));
    assert!(!rfc1738_group(b"1comp") && !rfc1738_group(b""));
    assert_eq!(
        rfc1738_grouppart(b"a;b@host.example"),
        Ok(News::Article(b"a;b@host.example"))
    );
    assert_eq!(rfc1738_grouppart(b"a@1.2.3"), Err(Reject::BadNews));
    let h = hier_part(b"//a@b:1/p?q");
    assert_eq!(h.authority, Some(&b"a@b:1"[..]));
    assert_eq!((h.path, h.query), (&b"/p"[..], Some(&b"q"[..])));
    let h = hier_part(b"x:y");
    assert_eq!((h.authority, h.path, h.query), (None, &b"x:y"[..], None));
}
