//! Tests of the HTML link context.

use super::super::map::Map;
use super::*;

/// The context of the URL that starts at `|` in `html` (the `|` taken
/// out), its href host `host`.
fn at(html: &str, host: Option<&str>) -> HtmlLink {
    let pos = html.find('|').expect("a | in the test");
    let html = html.replacen('|', "", 1);
    let mut index = Index::default();
    index.build(html.as_bytes(), &Layers::default(), 0);
    let span = Span { start: pos, end: pos + 1 };
    index.context(span, host.map(str::as_bytes))
}

fn attr(html: &str) -> (String, String) {
    let l = at(html, None);
    assert_eq!(l.place(), Place::Attribute, "{html}");
    (l.element().unwrap_or("").into(), l.attribute().unwrap_or("").into())
}

#[test]
fn each_element_and_attribute() {
    for (html, e, a) in [
        ("<a href=\"|http://a.b/\">x</a>", "a", "href"),
        ("<A HREF='|http://a.b/'>x</A>", "a", "href"),
        ("<img alt=x src=|http://a.b/i.png>", "img", "src"),
        ("<form method=post action=\"|http://a.b/f\">", "form", "action"),
        ("<map><area shape=rect href=\"|http://a.b/\"></map>", "area", "href"),
        ("<link rel=stylesheet href=\"|http://a.b/s.css\">", "link", "href"),
        ("<iframe src=\"|http://a.b/\"></iframe>", "iframe", "src"),
        ("<table background=\"|http://a.b/bg.gif\">", "table", "background"),
        ("<div style=\"background:url(|http://a.b/x)\">", "div", "style"),
        ("<a title=\"|http://a.b/t\" href=\"/x\">x</a>", "a", "title"),
    ] {
        assert_eq!(attr(html), (e.to_string(), a.to_string()), "{html}");
    }
}

#[test]
fn text_comment_and_raw_text() {
    let l = at("<p>see |http://a.b/ now</p>", None);
    assert_eq!((l.place(), l.element()), (Place::Text, None));
    let l = at("<!-- |http://a.b/ -->", None);
    assert_eq!(l.place(), Place::Comment);
    let l = at("<script>if (a<b) u='|http://a.b/'</script>", None);
    assert_eq!((l.place(), l.element()), (Place::Text, Some("script")));
    let l = at("<style>p{background:url(|http://a.b/)}</style>", None);
    assert_eq!(l.element(), Some("style"));
    // Text inside an anchor is text; only the href has the link text.
    let l = at("<a href=\"http://x.y/\">|http://a.b/</a>", None);
    assert_eq!((l.place(), l.link_text()), (Place::Text, None));
    // A `<` in a script is not a tag: the URL after it is script text.
    let l = at("<script>a<b href='|http://a.b/'</script>", None);
    assert_eq!(l.place(), Place::Text);
}

#[test]
fn link_text_nested_tags_and_references() {
    let l = at(
        "<a href=\"|http://a.b/\">\n  <b>Caf&eacute;</b>&nbsp;&amp;\t\
         <i>more</i>  &#x263A;\n</a>",
        None,
    );
    assert_eq!(l.link_text(), Some("Café & more ☺"));
    // No text (an image link): empty, not absent.
    let l = at("<a href=\"|http://a.b/\"><img src=x></a>", None);
    assert_eq!(l.link_text(), Some(""));
    // An `a` start tag closes the open anchor.
    let l = at("<a href=\"|http://a.b/\">one<a href=\"/2\">two</a>", None);
    assert_eq!(l.link_text(), Some("one"));
    // Unclosed at the end of the part.
    let l = at("<a href=\"|http://a.b/\">to the end ", None);
    assert_eq!(l.link_text(), Some("to the end"));
    // `area` and `img` have no link text.
    assert_eq!(at("<area href=|http://a.b/>", None).link_text(), None);
}

#[test]
fn link_text_is_capped() {
    let long = "x ".repeat(300);
    let html = format!("<a href=\"|http://a.b/\">{long}</a>");
    let text = at(&html, None).link_text().unwrap_or("").to_string();
    // "x x … x": the space that would be the 200th is not kept.
    assert_eq!(text.chars().count(), LINK_TEXT_CAP - 1);
    assert!(text.starts_with("x x") && !text.ends_with(' '));
    let html = format!("<a href=\"|http://a.b/\">{}</a>", "é".repeat(500));
    let text = at(&html, None).link_text().unwrap_or("").to_string();
    assert_eq!(text.chars().count(), LINK_TEXT_CAP);
}

#[test]
fn text_host_differs_positive() {
    for (text, host) in [
        ("www.paypal.com", "evil.example"),
        ("https://www.paypal.com/signin", "paypal.com.evil.example"),
        ("PayPal.com", "paypa1.com"),
        ("<http://bank.example/>", "203.0.113.9"),
        ("bank.com/login", "bank.com.attacker.io"),
        ("192.0.2.1", "bank.example"),
        ("bücher.de", "xn--bchr-kva.de"),
    ] {
        assert!(text_host_differs(text, host.as_bytes()), "{text} {host}");
    }
}

#[test]
fn text_host_differs_negative() {
    for (text, host) in [
        // the same host, another path
        ("example.com/other", "example.com"),
        ("https://example.com/a", "example.com"),
        // a `www.` prefix, case, a trailing dot
        ("www.example.com", "example.com"),
        ("Example.COM.", "www.example.com"),
        // IDN as U-labels and A-labels
        ("BÜCHER.de", "xn--bcher-kva.de"),
        // not a URL or host name
        ("PayPal", "evil.example"),
        ("Click here", "evil.example"),
        ("click www.paypal.com now", "evil.example"),
        ("Sign in to PayPal.", "evil.example"),
        ("readme.txt", "evil.example"),
        // `.example` is reserved, not a top-level domain of the root zone
        ("bank.example", "evil.example"),
        ("john@paypal.com", "evil.example"),
        ("v1.2", "evil.example"),
        ("", "evil.example"),
        // `host:port` is not a scheme
        ("example.com:8080/x", "example.com"),
    ] {
        assert!(!text_host_differs(text, host.as_bytes()), "{text} {host}");
    }
}

#[test]
fn the_flag_through_the_index() {
    let l = at(
        "<a href=\"|http://evil.example/\">www.paypal.com</a>",
        Some("evil.example"),
    );
    assert!(l.text_host_differs());
    let l = at(
        "<a href=\"|http://www.paypal.com/\">paypal.com</a>",
        Some("www.paypal.com"),
    );
    assert!(!l.text_host_differs());
    // Without a host (mailto), never.
    let l = at("<a href=\"|mailto:x@evil.example\">paypal.com</a>", None);
    assert!(!l.text_host_differs());
}

#[test]
fn hostile_input_does_not_panic() {
    let mut index = Index::default();
    for html in [
        &b"<a href=\"http://a.b/"[..],
        b"<a href",
        b"<",
        b"<!--",
        b"<a href=\xff\xfe>\xff</a>",
        b"<script>",
        b"</a></a><a/><a href=>",
        &[0u8; 64],
    ] {
        index.build(html, &Layers::default(), 5);
        for k in 0..html.len() + 8 {
            let _ = index.context(Span { start: k, end: k + 3 }, Some(b"a.b"));
        }
    }
}

#[test]
fn regions_map_through_layers() {
    // "<a href=3D\"http://a.b/\">": quoted-printable, decoded first.
    let src = b"<a href=3D\"http://a.b/\">x</a>";
    let (mut html, mut map) = (Vec::new(), Map::default());
    super::super::decode::quoted_printable(src, &mut html, &mut map);
    let mut index = Index::default();
    index.build(&html, &Layers { maps: vec![&map] }, 100);
    // The value starts after `=3D"` in the stored bytes.
    let l = index.context(Span { start: 100 + 11, end: 100 + 22 }, None);
    assert_eq!(l.attribute(), Some("href"));
    assert_eq!(l.link_text(), Some("x"));
    let l = index.context(Span { start: 100, end: 102 }, None);
    assert_eq!(l.place(), Place::Text);
}
