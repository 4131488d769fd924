//! Hand-written documents for [`html_refs`]: each reference's value,
//! element, attribute, and its span read back from the document.

use super::*;

/// `(element, attribute, value, the document's bytes at the span)` of
/// every reference of `doc`.
fn refs(doc: &str) -> Vec<(String, &'static str, String, String)> {
    let found = html_refs(doc.as_bytes());
    assert!(!found.capped);
    found.refs.iter().map(|r| row(doc.as_bytes(), r)).collect()
}

fn row(doc: &[u8], r: &HtmlRef) -> (String, &'static str, String, String) {
    let raw = doc.get(r.span.clone()).expect("the span is in the document");
    (
        r.element.to_string(),
        r.attribute.name(),
        r.value_str().into_owned(),
        String::from_utf8_lossy(raw).into_owned(),
    )
}

fn r(
    element: &str,
    attribute: &'static str,
    value: &str,
    raw: &str,
) -> (String, &'static str, String, String) {
    (element.to_string(), attribute, value.to_string(), raw.to_string())
}

#[test]
fn quoted_unquoted_and_single_quoted() {
    let doc =
        r#"<a href="/d">x</a> <img src=/u.png alt=x> <form action='/s'>"#;
    assert_eq!(
        refs(doc),
        [
            r("a", "href", "/d", "/d"),
            r("img", "src", "/u.png", "/u.png"),
            r("form", "action", "/s", "/s"),
        ]
    );
    // The spans are inside the quotes.
    let found = html_refs(doc.as_bytes());
    assert_eq!(found.refs[0].span, 9..11);
    assert_eq!(found.refs[2].span, 56..58);
    assert_eq!(found.base, None);
}

#[test]
fn character_references_are_decoded() {
    let doc = "<a href=\"/q?a=1&amp;b=2&#38;c=&#x33;\">\
               <a href=/r?x=&lt;&gt>\
               <a href='?a=1&copy=2&copy;'>";
    assert_eq!(
        refs(doc),
        [
            r("a", "href", "/q?a=1&b=2&c=3", "/q?a=1&amp;b=2&#38;c=&#x33;"),
            r("a", "href", "/r?x=<>", "/r?x=&lt;&gt"),
            // §13.2.5.73: a reference without `;` followed by `=` in an
            // attribute is not one ("historical reasons").
            r("a", "href", "?a=1&copy=2\u{a9}", "?a=1&copy=2&copy;"),
        ]
    );
}

#[test]
fn line_breaks_nul_and_bytes_that_are_not_utf8() {
    // CR LF reads as LF (§13.2.3.5), NUL as U+FFFD in a value; other
    // bytes are kept as they are.
    let doc = b"<a href=\"a\r\nb\"><img src=\"\xe9t\xe9.png\">";
    let found = html_refs(doc);
    assert_eq!(found.refs[0].value, b"a\nb");
    assert_eq!(&doc[found.refs[0].span.clone()], b"a\r\nb");
    assert_eq!(found.refs[1].value, b"\xe9t\xe9.png");
    assert_eq!(found.refs[1].value_str(), "\u{fffd}t\u{fffd}.png");
    assert_eq!(&doc[found.refs[1].span.clone()], b"\xe9t\xe9.png");
    let doc = b"<a href='a\0b'>";
    let found = html_refs(doc);
    assert_eq!(found.refs[0].value_str(), "a\u{fffd}b");
    assert_eq!(&doc[found.refs[0].span.clone()], b"a\0b");
}

#[test]
fn every_link_attribute_on_any_element() {
    let doc = "<a href=1><img src=2 longdesc=3 srcset=4><form action=5>\
               <blockquote cite=6><object data=7><video poster=8>\
               <button formaction=9><body background=10>\
               <x-card href=11 title=12 style=13>";
    let got: Vec<_> =
        refs(doc).into_iter().map(|(e, a, v, _)| (e, a, v)).collect();
    let want = [
        ("a", "href", "1"),
        ("img", "src", "2"),
        ("img", "longdesc", "3"),
        ("img", "srcset", "4"),
        ("form", "action", "5"),
        ("blockquote", "cite", "6"),
        ("object", "data", "7"),
        ("video", "poster", "8"),
        ("button", "formaction", "9"),
        ("body", "background", "10"),
        ("x-card", "href", "11"),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|&(e, a, v)| (e.to_string(), a, v.to_string()))
        .collect();
    assert_eq!(got, want);
}

#[test]
fn upper_case_names_are_folded() {
    let doc = "<A HREF='/x'>x</A><IMG SrC=\"/y\"><Base HREF=http://b/>";
    assert_eq!(
        refs(doc),
        [
            r("a", "href", "/x", "/x"),
            r("img", "src", "/y", "/y"),
            r("base", "href", "http://b/", "http://b/"),
        ]
    );
    let base = html_refs(doc.as_bytes()).base.expect("a base");
    assert_eq!(base.value, b"http://b/");
}

#[test]
fn the_first_base_with_an_href_wherever_it_is() {
    // HTML §4.2.3: the first `base` element with an `href`, even after
    // the links it applies to; one without `href` does not count, and a
    // later one is not the base.
    let doc = "<a href=a.html>a</a><base target=_top>\
               <p><base href=\"http://one.example/dir/\">\
               <base href=\"http://two.example/\"><img src=b.png>";
    let found = html_refs(doc.as_bytes());
    let base = found.base.expect("a base");
    assert_eq!(base.value, b"http://one.example/dir/");
    assert_eq!(&doc.as_bytes()[base.span], b"http://one.example/dir/");
    let values: Vec<_> = found.refs.iter().map(|r| r.value_str()).collect();
    assert_eq!(
        values,
        ["a.html", "http://one.example/dir/", "http://two.example/", "b.png"]
    );
    // An empty href is an href: the first base, naming the document.
    let found = html_refs(b"<base href=\"\"><base href=http://x/>");
    let base = found.base.expect("a base");
    assert_eq!((base.value.len(), base.span), (0, 12..12));
    // A base in a comment, a script or a cut-off tag is none.
    let doc = b"<!-- <base href=c> --><script><base href=s></script>\
                <base href=t";
    assert_eq!(html_refs(doc), HtmlRefs::default());
}

#[test]
fn srcset_candidates_with_descriptors() {
    let doc = "<img srcset=\"a.png 1x, b.png 2x,c.png 100w ,, d.png, \
               e.png (x,y) 1x, f,g.png 3x, h.png,,,\">";
    let got: Vec<_> =
        refs(doc).into_iter().map(|(_, a, v, raw)| (a, v, raw)).collect();
    let want: Vec<_> =
        ["a.png", "b.png", "c.png", "d.png", "e.png", "f,g.png", "h.png"]
            .iter()
            .map(|u| ("srcset", u.to_string(), u.to_string()))
            .collect();
    assert_eq!(got, want);
    // A candidate's span is its URL's bytes, through character
    // references, which a candidate holds whole (`&#x2C;` is a comma
    // inside a URL, not between candidates).
    let doc = "<img srcset=' a&amp;b.png 1x , c&#x2C;d.png&#32;2x,\n\
               e.png&#44;f.png'>";
    assert_eq!(
        refs(doc),
        [
            r("img", "srcset", "a&b.png", "a&amp;b.png"),
            r("img", "srcset", "c,d.png", "c&#x2C;d.png"),
            r("img", "srcset", "e.png,f.png", "e.png&#44;f.png"),
        ]
    );
    assert_eq!(refs("<img srcset=''><img srcset=' , '>"), []);
}

#[test]
fn srcset_urls_by_the_parsing_steps() {
    let urls = |v: &str| -> Vec<String> {
        srcset_urls(v.as_bytes())
            .into_iter()
            .map(|c| v[c].to_string())
            .collect()
    };
    assert_eq!(urls("a"), ["a"]);
    assert_eq!(urls("a,b"), ["a,b"]);
    assert_eq!(urls("a, b"), ["a", "b"]);
    assert_eq!(urls("a,, b"), ["a", "b"]);
    assert_eq!(urls("a 1x (2,3) 4, b"), ["a", "b"]);
    assert_eq!(urls("a (1, b"), ["a"]);
    assert_eq!(urls("a 1x\tb 2x"), ["a"]);
    assert_eq!(urls("\t\n\x0c\r ,"), Vec::<String>::new());
}

#[test]
fn comments_scripts_and_raw_text_are_not_markup() {
    let doc = "<!-- <a href=c1> --><script>x='<a href=s1>'</script>\
               <style>a{} <img src=s2></style><title><a href=t1></title>\
               <textarea><a href=t2></textarea><xmp><a href=x1></xmp>\
               <iframe src=ok1><a href=i1></iframe>\
               <noscript><img src=ok2></noscript>\
               <![CDATA[<a href=d1>]]><a href=ok3>\
               </a href=e1><a href=ok4 <!-- href=no>";
    let values: Vec<_> =
        refs(doc).into_iter().map(|(e, a, v, _)| (e, a, v)).collect();
    let want: Vec<_> = [
        ("iframe", "src", "ok1"),
        ("img", "src", "ok2"),
        ("a", "href", "ok3"),
        ("a", "href", "ok4"),
    ]
    .iter()
    .map(|&(e, a, v)| (e.to_string(), a, v.to_string()))
    .collect();
    assert_eq!(values, want);
}

#[test]
fn a_repeated_attribute_keeps_the_first() {
    // §13.2.5.33: the later duplicate is removed from the token.
    let doc = "<a href=1 HREF=2 src=3 href=4 src=5>";
    assert_eq!(refs(doc), [r("a", "href", "1", "1"), r("a", "src", "3", "3")]);
}

#[test]
fn empty_values_name_the_document() {
    let doc = "<a href=\"\">x</a><a href>y</a><a href='' >z</a>";
    let found = html_refs(doc.as_bytes());
    let got: Vec<_> =
        found.refs.iter().map(|r| (r.value.len(), r.span.clone())).collect();
    // At the value's place between its quotes; after the name without
    // `=`.
    assert_eq!(got, [(0, 9..9), (0, 23..23), (0, 38..38)]);
}

#[test]
fn a_truncated_document_keeps_what_was_complete() {
    let whole = "<a href=\"http://a/\">a</a><img src='b.png'>\
                 <!-- c --><a href=\"http://d/\" title=x>";
    let all = html_refs(whole.as_bytes()).refs;
    assert_eq!(all.len(), 3);
    // Cut at every byte: the references are those of the tags complete
    // before the cut, never a part of one.
    for cut in 0..=whole.len() {
        let doc = &whole.as_bytes()[..cut];
        let got = html_refs(doc).refs;
        let want: Vec<_> = all
            .iter()
            .filter(|r| {
                let close = whole[r.span.end..].find('>').expect("a tag end");
                r.span.end + close < cut
            })
            .cloned()
            .collect();
        assert_eq!(got, want, "cut at {cut}");
    }
}

#[test]
fn the_cap_drops_the_rest_but_still_finds_the_base() {
    let mut doc = "<img src=a srcset='b 1x, c 2x'>".repeat(3);
    doc.push_str("<base href=http://b/>");
    let (found, _) = refs_shallow(doc.as_bytes(), SHALLOW_AFTER, 4);
    assert!(found.capped);
    let values: Vec<_> = found.refs.iter().map(|r| r.value_str()).collect();
    assert_eq!(values, ["a", "b", "c", "a"]);
    assert_eq!(found.base.map(|b| b.value), Some(b"http://b/".to_vec()));
    // The real cap: 150,000 anchors give 100,000 references.
    let doc = "<a href=x>".repeat(150_000);
    let found = html_refs(doc.as_bytes());
    assert!(found.capped);
    assert_eq!(found.refs.len(), MAX_REFS);
}

#[test]
fn a_long_srcset_of_references_maps_in_linear_time() {
    // 100,000 candidates, each with a character reference: a mapping
    // that walked the pieces from the start for each candidate would
    // take some 10^10 steps; the cursor takes a few per piece.
    let n = 100_000;
    let mut doc = b"<img srcset=\"".to_vec();
    for _ in 0..n {
        doc.extend_from_slice(b"a&amp;b 1x, ");
    }
    doc.extend_from_slice(b"\">");
    let found = html_refs(&doc);
    assert_eq!(found.refs.len(), n);
    for (k, r) in found.refs.iter().enumerate() {
        assert_eq!(r.value, b"a&b");
        assert_eq!(r.span.start, 13 + 12 * k);
        assert_eq!(&doc[r.span.clone()], b"a&amp;b");
    }
}

#[test]
fn a_million_attributes_do_not_overflow_the_stack() {
    // Issue 33.1's guard, as in mail's HTML reading: this test runs on a
    // 2 MiB test thread.
    let mut h = b"<p ".to_vec();
    h.extend_from_slice(&b"a=\"\" ".repeat(1_000_000));
    h.extend_from_slice(b"href=\"http://in.example/\" src=\"s\">");
    let (found, watch) = refs_shallow(&h, SHALLOW_AFTER, MAX_REFS);
    assert!(watch.cuts() > 900_000, "{}", watch.cuts());
    let values: Vec<_> = found.refs.iter().map(|r| r.value_str()).collect();
    assert_eq!(values, ["http://in.example/", "s"]);
}

#[test]
fn the_cut_chain_finds_the_same() {
    // Blanks after closing quotes fed as `/` from the first attribute on
    // change nothing found (the uncut chain on a thread with a big stack).
    let docs: Vec<Vec<u8>> = vec![
        b"<a title=\"x\" href=\"h\" src='s'\tdata=d >".to_vec(),
        b"<img alt=\"\" srcset=\"a 1x, b 2x\"\n src=\"c\"/>".to_vec(),
        b"<a x=\"1\" href=\"h\"\r\n>t</a><a y=\"2\" href=\"&amp;\" >".to_vec(),
        b"<a href=\"1\" \"q href=\"2\" =\"3\" cite=\"4\">".to_vec(),
    ];
    let whole = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn({
            let docs = docs.clone();
            move || {
                let f = |d: &Vec<u8>| refs_shallow(d, u32::MAX, MAX_REFS).0;
                docs.iter().map(f).collect::<Vec<_>>()
            }
        })
        .expect("a thread")
        .join()
        .expect("no panic");
    let mut cuts = 0;
    for (d, want) in docs.iter().zip(&whole) {
        let (got, watch) = refs_shallow(d, 0, MAX_REFS);
        assert_eq!(&got, want, "{}", String::from_utf8_lossy(d));
        assert!(!got.refs.is_empty());
        cuts += watch.cuts();
    }
    assert!(cuts > 3, "{cuts}");
}

#[test]
fn public_types_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<HtmlRef>();
    check::<HtmlRefs>();
    check::<LinkAttribute>();
}

proptest::proptest! {
    /// On HTML-ish noise: no panic, every span inside the document and
    /// in order, and a value with no character reference, CR or NUL in
    /// its span is the span's bytes.
    #[test]
    fn spans_hold_their_values(
        doc in proptest::collection::vec(
            proptest::sample::select(&[
                "<a ", "<img ", "<base ", "</a>", "<!--", "-->", "<script>",
                "</script>", " href", " src", " srcset", " HREF", "=", "\"",
                "'", " ", ",", "\r\n", "\0", "&amp;", "&#x2C;", "&lt", ">",
                "/>", "x", "1x", "(", ")", "é", "<a href=x>", "<a href='u v'>",
                "<img src=\"a&amp;b\" srcset=\"p 1x, q\">", "<base href=b>",
            ][..]),
            0..40,
        )
    ) {
        // (Whole tags among the pieces, so that most documents have
        // references.)
        let doc = doc.concat();
        let doc = doc.as_bytes();
        let found = html_refs(doc);
        let mut last = 0;
        for r in found.refs.iter().chain(&found.base) {
            proptest::prop_assert!(r.span.start <= r.span.end);
            proptest::prop_assert!(r.span.end <= doc.len());
            let raw = &doc[r.span.clone()];
            if !raw.iter().any(|b| matches!(b, b'&' | b'\r' | b'\0')) {
                proptest::prop_assert_eq!(raw, &r.value[..]);
            }
        }
        for r in &found.refs {
            proptest::prop_assert!(r.span.start >= last);
            last = r.span.end;
        }
    }
}
