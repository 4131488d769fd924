//! RFC 3986 §5.4's examples, each its own assertion, listed from the
//! RFC's text (§5.4.1: 23 normal, §5.4.2: 19 abnormal), and properties
//! of [`resolve`] over generated references.

use super::*;
use proptest::prelude::*;

/// RFC 3986 §5.4: "Within a representation with a well defined base URI
/// of http://a/b/c/d;p?q".
const BASE: &str = "http://a/b/c/d;p?q";

/// RFC 3986 §5.4.1 Normal Examples, all 23 in the RFC's order.
#[test]
fn rfc3986_5_4_1_normal_examples() {
    assert_eq!(resolve(BASE, "g:h").as_deref(), Some("g:h"));
    assert_eq!(resolve(BASE, "g").as_deref(), Some("http://a/b/c/g"));
    assert_eq!(resolve(BASE, "./g").as_deref(), Some("http://a/b/c/g"));
    assert_eq!(resolve(BASE, "g/").as_deref(), Some("http://a/b/c/g/"));
    assert_eq!(resolve(BASE, "/g").as_deref(), Some("http://a/g"));
    assert_eq!(resolve(BASE, "//g").as_deref(), Some("http://g"));
    assert_eq!(resolve(BASE, "?y").as_deref(), Some("http://a/b/c/d;p?y"));
    assert_eq!(resolve(BASE, "g?y").as_deref(), Some("http://a/b/c/g?y"));
    assert_eq!(resolve(BASE, "#s").as_deref(), Some("http://a/b/c/d;p?q#s"));
    assert_eq!(resolve(BASE, "g#s").as_deref(), Some("http://a/b/c/g#s"));
    assert_eq!(resolve(BASE, "g?y#s").as_deref(), Some("http://a/b/c/g?y#s"));
    assert_eq!(resolve(BASE, ";x").as_deref(), Some("http://a/b/c/;x"));
    assert_eq!(resolve(BASE, "g;x").as_deref(), Some("http://a/b/c/g;x"));
    assert_eq!(
        resolve(BASE, "g;x?y#s").as_deref(),
        Some("http://a/b/c/g;x?y#s")
    );
    assert_eq!(resolve(BASE, "").as_deref(), Some("http://a/b/c/d;p?q"));
    assert_eq!(resolve(BASE, ".").as_deref(), Some("http://a/b/c/"));
    assert_eq!(resolve(BASE, "./").as_deref(), Some("http://a/b/c/"));
    assert_eq!(resolve(BASE, "..").as_deref(), Some("http://a/b/"));
    assert_eq!(resolve(BASE, "../").as_deref(), Some("http://a/b/"));
    assert_eq!(resolve(BASE, "../g").as_deref(), Some("http://a/b/g"));
    assert_eq!(resolve(BASE, "../..").as_deref(), Some("http://a/"));
    assert_eq!(resolve(BASE, "../../").as_deref(), Some("http://a/"));
    assert_eq!(resolve(BASE, "../../g").as_deref(), Some("http://a/g"));
}

/// RFC 3986 §5.4.2 Abnormal Examples, all 19 in the RFC's order; for
/// `http:g` the strict parser's answer.
#[test]
fn rfc3986_5_4_2_abnormal_examples() {
    assert_eq!(resolve(BASE, "../../../g").as_deref(), Some("http://a/g"));
    assert_eq!(resolve(BASE, "../../../../g").as_deref(), Some("http://a/g"));
    assert_eq!(resolve(BASE, "/./g").as_deref(), Some("http://a/g"));
    assert_eq!(resolve(BASE, "/../g").as_deref(), Some("http://a/g"));
    assert_eq!(resolve(BASE, "g.").as_deref(), Some("http://a/b/c/g."));
    assert_eq!(resolve(BASE, ".g").as_deref(), Some("http://a/b/c/.g"));
    assert_eq!(resolve(BASE, "g..").as_deref(), Some("http://a/b/c/g.."));
    assert_eq!(resolve(BASE, "..g").as_deref(), Some("http://a/b/c/..g"));
    assert_eq!(resolve(BASE, "./../g").as_deref(), Some("http://a/b/g"));
    assert_eq!(resolve(BASE, "./g/.").as_deref(), Some("http://a/b/c/g/"));
    assert_eq!(resolve(BASE, "g/./h").as_deref(), Some("http://a/b/c/g/h"));
    assert_eq!(resolve(BASE, "g/../h").as_deref(), Some("http://a/b/c/h"));
    assert_eq!(
        resolve(BASE, "g;x=1/./y").as_deref(),
        Some("http://a/b/c/g;x=1/y")
    );
    assert_eq!(resolve(BASE, "g;x=1/../y").as_deref(), Some("http://a/b/c/y"));
    assert_eq!(
        resolve(BASE, "g?y/./x").as_deref(),
        Some("http://a/b/c/g?y/./x")
    );
    assert_eq!(
        resolve(BASE, "g?y/../x").as_deref(),
        Some("http://a/b/c/g?y/../x")
    );
    assert_eq!(
        resolve(BASE, "g#s/./x").as_deref(),
        Some("http://a/b/c/g#s/./x")
    );
    assert_eq!(
        resolve(BASE, "g#s/../x").as_deref(),
        Some("http://a/b/c/g#s/../x")
    );
    assert_eq!(resolve(BASE, "http:g").as_deref(), Some("http:g"));
}

/// §5.2.4's two worked examples of remove_dot_segments.
#[test]
fn remove_dot_segments_worked_examples() {
    assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
    assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
    assert_eq!(remove_dot_segments(""), "");
    assert_eq!(remove_dot_segments("/.."), "/");
    assert_eq!(remove_dot_segments("a/.."), "/");
    assert_eq!(remove_dot_segments("../../"), "");
}

/// Appendix B's example, and undefined kept apart from empty (§5.3).
#[test]
fn split_by_appendix_b() {
    let r = split("http://www.ics.uci.edu/pub/ietf/uri/#Related");
    assert_eq!(r.scheme, Some("http"));
    assert_eq!(r.authority, Some("www.ics.uci.edu"));
    assert_eq!(r.path, "/pub/ietf/uri/");
    assert_eq!(r.query, None);
    assert_eq!(r.fragment, Some("Related"));
    let r = split("?#");
    assert_eq!((r.scheme, r.authority, r.path), (None, None, ""));
    assert_eq!((r.query, r.fragment), (Some(""), Some("")));
    assert_eq!(r.recompose(), "?#");
    // `[^:/?#]+:`: a colon after a slash, or first, is no scheme.
    assert_eq!(split("./a:b").scheme, None);
    assert_eq!(split(":a").scheme, None);
    assert_eq!(split("a:b").scheme, Some("a"));
    // The query ends at the first `#`, a `?` in the fragment is its own.
    let r = split("p#f?q");
    assert_eq!((r.path, r.query, r.fragment), ("p", None, Some("f?q")));
    assert_eq!(split("//h?q").authority, Some("h"));
}

/// §5.2.1: the base must have a scheme, of §3.1 syntax.
#[test]
fn relative_base_is_refused() {
    assert_eq!(resolve("b/c/d", "g"), None);
    assert_eq!(resolve("//a/b", "g"), None);
    assert_eq!(resolve("", "g"), None);
    assert_eq!(resolve("1http://a/", "g"), None);
    assert_eq!(resolve("ht tp://a/", "g"), None);
    // Any scheme will do, with or without an authority (§5.2.3).
    assert_eq!(resolve("urn:a:b", "c").as_deref(), Some("urn:c"));
    assert_eq!(resolve("http://a", "g").as_deref(), Some("http://a/g"));
    assert_eq!(resolve("http://a", "?q").as_deref(), Some("http://a?q"));
}

/// §5.2.2: the base's fragment is never used; the reference's is.
#[test]
fn base_fragment_is_dropped() {
    let base = "http://a/b/c?q#frag";
    assert_eq!(resolve(base, "").as_deref(), Some("http://a/b/c?q"));
    assert_eq!(resolve(base, "#x").as_deref(), Some("http://a/b/c?q#x"));
    assert_eq!(resolve(base, "d").as_deref(), Some("http://a/b/d"));
}

/// Leading and trailing ASCII white space is stripped, as HTML strips it
/// from an attribute value; inner white space and other characters are
/// kept as written (nothing decoded or normalised).
#[test]
fn white_space_and_bytes_as_written() {
    let r = |s| resolve(BASE, s);
    assert_eq!(r(" \t\n\x0c\rg \r\n").as_deref(), Some("http://a/b/c/g"));
    assert_eq!(r(" \t ").as_deref(), Some("http://a/b/c/d;p?q"));
    assert_eq!(r("g h").as_deref(), Some("http://a/b/c/g h"));
    assert_eq!(r("g\nh").as_deref(), Some("http://a/b/c/g\nh"));
    // U+00A0 is not ASCII white space: kept.
    assert_eq!(r("\u{a0}g").as_deref(), Some("http://a/b/c/\u{a0}g"));
    assert_eq!(r("%2e%2E/g").as_deref(), Some("http://a/b/c/%2e%2E/g"));
    assert_eq!(r("HTTP://A/%7e").as_deref(), Some("HTTP://A/%7e"));
    assert_eq!(r("é/../ü").as_deref(), Some("http://a/b/c/ü"));
    assert_eq!(resolve("  http://a/b#f ", "x").as_deref(), Some("http://a/x"));
}

/// Long runs of dot segments stay linear: a path of 200,000 `../`
/// resolves (quadratic work would be 10^10 steps), and the output keeps
/// only what survives.
#[test]
fn many_dot_segments() {
    let deep = "a/".repeat(100_000);
    let up = "../".repeat(100_000);
    let reference = format!("{deep}{up}g");
    assert_eq!(resolve(BASE, &reference).as_deref(), Some("http://a/b/c/g"));
    let reference = format!("{up}{deep}");
    let out = resolve(BASE, &reference).unwrap_or_default();
    assert_eq!(out.len(), "http://a/".len() + deep.len());
}

/// A path segment from characters that include `.` and `/`'s
/// neighbours, dot segments likely.
fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(".".to_string()),
        Just("..".to_string()),
        Just(String::new()),
        "[a-z.%;=]{1,4}",
    ]
}

/// A path of such segments, absolute or not.
fn path() -> impl Strategy<Value = String> {
    (any::<bool>(), prop::collection::vec(segment(), 0..6)).prop_map(
        |(slash, segs)| {
            let p = segs.join("/");
            if slash {
                format!("/{p}")
            } else {
                p
            }
        },
    )
}

/// An optional component after its delimiter.
fn opt(delim: &'static str) -> impl Strategy<Value = String> {
    prop::option::of("[a-z./?]{0,4}").prop_map(move |c| {
        c.map(|c| format!("{delim}{c}")).unwrap_or_default()
    })
}

/// An absolute URI: scheme, optional authority, path, query, fragment.
fn absolute() -> impl Strategy<Value = String> {
    ("[a-z][a-z0-9+.-]{0,5}", prop::option::of("[a-z0-9.:@]{0,6}"), path())
        .prop_flat_map(|(scheme, auth, path)| {
            (opt("?"), opt("#")).prop_map(move |(q, f)| {
                let auth = auth
                    .as_ref()
                    .map(|a| format!("//{a}"))
                    .unwrap_or_default();
                // With an authority, the path is empty or begins with
                // "/" (RFC 3986 §3.3).
                let path = if auth.is_empty() || path.starts_with('/') {
                    path.clone()
                } else {
                    format!("/{path}")
                };
                format!("{scheme}:{auth}{path}{q}{f}")
            })
        })
}

/// Any reference: absolute, network-path, absolute- or relative-path,
/// with query and fragment.
fn reference() -> impl Strategy<Value = String> {
    prop_oneof![
        absolute(),
        ("[a-z0-9.]{0,4}", path(), opt("?"), opt("#")).prop_map(
            |(a, p, q, f)| {
                let p = if p.is_empty() || p.starts_with('/') {
                    p
                } else {
                    format!("/{p}")
                };
                format!("//{a}{p}{q}{f}")
            }
        ),
        (path(), opt("?"), opt("#")).prop_map(|(p, q, f)| {
            // A first segment with a colon would read as a scheme.
            let p = if p.split('/').next().unwrap_or("").contains(':') {
                format!("./{p}")
            } else {
                p
            };
            format!("{p}{q}{f}")
        }),
    ]
}

/// Whether `path` holds a `.` or `..` complete segment.
fn has_dot_segment(path: &str) -> bool {
    path.split('/').any(|s| s == "." || s == "..")
}

proptest! {
    /// An absolute reference whose path has no dot segment is its own
    /// target, whatever the base (§5.2.2, strict).
    #[test]
    fn absolute_reference_is_unchanged(
        base in absolute(),
        r in absolute(),
    ) {
        let got = resolve(&base, &r);
        if has_dot_segment(split(&r).path) {
            // Taken as it is, but for its dot segments.
            let s = split(&r);
            let path = remove_dot_segments(s.path);
            let want = Reference { path: &path, ..s }.recompose();
            prop_assert_eq!(got, Some(want));
        } else {
            prop_assert_eq!(got, Some(r));
        }
    }

    /// The target's path holds no `.` or `..` segment — unless the
    /// reference has no path, no authority and no scheme, when the
    /// target's path is the base's as written (§5.2.2: `T.path =
    /// Base.path`, the one branch without remove_dot_segments).
    #[test]
    fn target_has_no_dot_segments(base in absolute(), r in reference()) {
        let got = resolve(&base, &r);
        prop_assert!(got.is_some());
        let got = got.unwrap_or_default();
        let rs = split(&r);
        let s = split(&got);
        if rs.scheme.is_none() && rs.authority.is_none() && rs.path.is_empty()
        {
            prop_assert_eq!(s.path, split(&base).path);
        } else {
            // §5.2.4 in the target as written: no "/./" or "/../" at all,
            // and no "." or ".." segment at its ends either.
            prop_assert!(!has_dot_segment(s.path), "{:?} → {:?}", r, got);
            prop_assert!(!s.path.contains("/./"));
            prop_assert!(!s.path.contains("/../"));
        }
    }

    /// The empty reference is the base without its fragment (§5.2.2,
    /// §5.4.1 `""`).
    #[test]
    fn empty_reference_is_the_base(base in absolute()) {
        let want = match base.split_once('#') {
            Some((before, _)) => before.to_string(),
            None => base.clone(),
        };
        prop_assert_eq!(resolve(&base, ""), Some(want));
    }

    /// Appendix B splits every string, and §5.3 puts it back together.
    #[test]
    fn split_recompose_round_trip(s in "[a-z:/?#.]{0,12}") {
        prop_assert_eq!(split(&s).recompose(), s);
    }
}

proptest! {
    /// One-way cross-check with the WHATWG parser of the `url` crate
    /// (STYLE.md, Tests): for an http base and a reference without a
    /// scheme, of letters, dots, slashes, `?`, `#` and `;`, the target
    /// read by `url` equals `url`'s own join. WHATWG adds what RFC 3986
    /// leaves: `\`, `%2e`, tabs inside, `http:g`, none generated; and it
    /// normalises the base first (§5.2.1 makes that optional), so the
    /// base has no dot segment.
    #[test]
    fn agrees_with_the_url_crate(
        path in "(/([a-z;][a-z.;]{0,2})?){1,4}",
        query in prop::option::of("[a-z./?]{0,3}"),
        r in "[a-z./?#;]{0,10}",
    ) {
        let q = query.map(|q| format!("?{q}")).unwrap_or_default();
        let base = format!("http://h.example{path}{q}");
        let Ok(want) = url::Url::parse(&base).and_then(|b| b.join(&r))
        else {
            return Ok(()); // an authority WHATWG refuses (`//..`)
        };
        let got = resolve(&base, &r).unwrap_or_default();
        prop_assert_eq!(
            url::Url::parse(&got).map(String::from),
            Ok(want.to_string()),
            "{} + {:?} -> {}",
            base,
            r,
            got
        );
    }
}
