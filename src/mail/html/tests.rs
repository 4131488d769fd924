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

/// The tokens of `html` (spans included, errors not asked for), read
/// with the chain cut from `after` attributes on.
fn tokens(html: &[u8], after: u32) -> (Vec<html5gum::Token<usize>>, u64) {
    let watch = Watch::new(after);
    let reader = Shallow::new(html, Rc::clone(&watch));
    let mut emitter =
        html5gum::emitters::default::DefaultEmitter::<usize>::new_with_span();
    emitter.naively_switch_states(true);
    let t =
        Tokenizer::new_with_emitter(reader, Quiet(emitter, Rc::clone(&watch)))
            .map(|t| match t {
                Ok(t) => t,
            })
            .collect();
    (t, watch.cuts())
}

/// Tags of many attributes in the shapes that reach the cut: blanks of
/// each kind after closing quotes, `>`, `/>`, `=` and EOF after them,
/// values with blanks, `&`, other quotes, names with `"`, end tags with
/// attributes, and `" ` in text and link text.
fn many_shapes() -> Vec<Vec<u8>> {
    let pieces: [&[u8]; 16] = [
        b"=\"\" ",
        b"=\"x\"\t",
        b"=\"http://a.example/ x\"\n",
        b"=\" \"\r\n",
        b"=\"&amp;\" ",
        b" = \"y\"\x0c",
        b"='z' ",
        b"=u ",
        b"\"q ",
        b"=\"v\"  =w ",
        b"=\"v\" /",
        b"=\"v\"/ ",
        b"=\"<\" ",
        b"=\">\" ",
        b"=\"a=\"b ",
        b"=\"\"",
    ];
    let ends: [&[u8]; 6] = [b">", b" >", b"/>", b" />", b"", b"\">"];
    let mut seed = 0x2545_f491_u32;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed as usize % n
    };
    let mut docs = Vec::new();
    for d in 0..60 {
        let mut h = Vec::new();
        h.extend_from_slice(
            b"say \"hi\" there <a href=\"http://a.example/\" ",
        );
        for k in 0..40 + next(40) {
            h.extend_from_slice(format!("a{k}").as_bytes());
            h.extend_from_slice(pieces[next(pieces.len())]);
        }
        let end = ends[if d % 10 == 9 { 4 } else { next(ends.len()) }];
        h.extend_from_slice(end);
        h.extend_from_slice(b"\"link\" text</a a=\"1\" b=\"2\">x <p q=\"1\" ");
        if !end.is_empty() {
            h.extend_from_slice(b"r=\"2\" >\"t\" u</p>");
        }
        docs.push(h);
    }
    docs
}

#[test]
fn the_cut_chain_tokenizes_the_same() {
    // Issue 33.1: a blank after a closing quote fed as `/` changes no
    // token. The uncut chain runs on a thread with a big stack.
    let docs = many_shapes();
    let uncut = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let t: Vec<_> =
                docs.iter().map(|h| tokens(h, u32::MAX).0).collect();
            (docs, t)
        })
        .expect("a thread")
        .join()
        .expect("no panic");
    let mut cuts = 0;
    for (h, want) in uncut.0.iter().zip(&uncut.1) {
        let (t, n) = tokens(h, 0);
        assert_eq!(&t, want, "{}", String::from_utf8_lossy(h));
        assert_eq!(&tokens(h, SHALLOW_AFTER).0, want);
        cuts += n;
        // The index agrees at every byte.
        let (mut cut, mut whole) = (Index::default(), Index::default());
        cut.build_shallow(h, &Layers::default(), 0, 0);
        let h2 = h.clone();
        whole = std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(move || {
                whole.build_shallow(&h2, &Layers::default(), 0, u32::MAX);
                whole
            })
            .expect("a thread")
            .join()
            .expect("no panic");
        for k in 0..h.len() {
            let s = Span { start: k, end: k + 1 };
            assert_eq!(cut.context(s, None), whole.context(s, None), "{k}");
        }
    }
    assert!(cuts > 1000, "{cuts}");
}

#[test]
fn a_million_attributes_do_not_overflow_the_stack() {
    // Issue 33.1: about 7,000 `a=""` in one tag overflowed the stack of
    // the main thread; this test runs on a 2 MiB test thread.
    let mut h = b"<p ".to_vec();
    h.extend_from_slice(&b"a=\"\" ".repeat(1_000_000));
    h.extend_from_slice(b"href=\"http://in.example/\">http://out.example/");
    let mut index = Index::default();
    index.build(&h, &Layers::default(), 0);
    let at = |s: &str| {
        let k = memchr::memmem::rfind(&h, s.as_bytes()).expect("in the test");
        index.context(Span { start: k, end: k + 1 }, None)
    };
    assert_eq!(at("http://in").place(), Place::Attribute);
    assert_eq!(at("http://in").attribute(), Some("href"));
    assert_eq!(at("http://in").element(), Some("p"));
    assert_eq!(at("http://out").place(), Place::Text);
}
