//! The scanner's rules on tiny inputs, in linkify's `|…|` notation.

use super::*;

/// A bare reading's answer (`Config::bare_read` and the shortcuts held
/// equal to it: `lean`, `one_pass`).
pub(super) type Reading = Result<Option<(Raw, usize)>, Incomplete>;

/// Two readings the same, field by field: `Raw` has no `PartialEq` (its
/// verdict's does).
pub(super) fn same_reading(a: &Reading, b: &Reading) -> bool {
    match (a, b) {
        (Ok(Some((x, rx))), Ok(Some((y, ry)))) => {
            x.span == y.span
                && x.text == y.text
                && x.kind == y.kind
                && x.flags == y.flags
                && x.verdict == y.verdict
                && rx == ry
        }
        (Err(Incomplete), Err(Incomplete)) => true,
        _ => false,
    }
}

/// Runs the scanner over `text` and marks each accepted URL `|…|` in
/// the spirit of linkify's tests, joined text after `=`.
fn marked(text: &str) -> String {
    marked_with(Finds::NONE, text)
}

/// [`marked`] with the detectors `finds` on.
fn marked_with(finds: Finds, text: &str) -> String {
    let cfg = Config { finds, ..Config::default() };
    let hay = Hay { bytes: text.as_bytes(), eof: true };
    let (mut pos, mut floor, mut out, mut last) = (0, 0, String::new(), 0);
    while let Step::Found(raw, resume) = cfg.step(hay, pos, floor) {
        if raw.verdict.is_ok() {
            out.push_str(&text[last..raw.span.start]);
            out.push('|');
            out.push_str(&text[raw.span.start..raw.span.end]);
            out.push('|');
            if let Text::Joined(v) = &raw.text {
                out.push('=');
                out.push_str(std::str::from_utf8(v).unwrap());
            }
            last = raw.span.end;
        }
        pos = resume;
        floor = resume;
    }
    out.push_str(&text[last..]);
    out
}

#[test]
fn wrapped() {
    assert_eq!(marked("see <URL:http://a.b/c>."), "see |<URL:http://a.b/c>|.");
    assert_eq!(
        marked("<URL:ftp://ds.in\n      ternic.net/rfc>"),
        "|<URL:ftp://ds.in\n      ternic.net/rfc>|=ftp://ds.internic.net/rfc"
    );
    assert_eq!(marked("<url: http://a.b/>"), "|<url: http://a.b/>|");
    // never closes: bare reading of its start
    assert_eq!(marked("<URL:http://a.b/c\n\nx>"), "<URL:|http://a.b/c|\n\nx>");
}

#[test]
fn angle_and_quoted() {
    assert_eq!(marked("<mailto:a@b.c>"), "|<mailto:a@b.c>|");
    assert_eq!(marked("x=\"http://a.b/\">"), "x=|\"http://a.b/\"|>");
    assert_eq!(marked("\"http://a.b/ is\""), "\"|http://a.b/| is\"");
    assert_eq!(marked("<sip:a@b.c>"), "|<sip:a@b.c>|");
}

/// Issue 19, classes 1 and 6.
#[test]
fn single_quotes_and_any_scheme_in_angles() {
    assert_eq!(
        marked("<a href='https://d.example.net/g?id=4'>x</a>"),
        "<a href=|'https://d.example.net/g?id=4'|>x</a>"
    );
    assert_eq!(
        marked("href='http://news.example.com'>"),
        "href=|'http://news.example.com'|>"
    );
    assert_eq!(marked("'sip:a@b.c'"), "|'sip:a@b.c'|");
    // not closed on the line: the bare reading, its quote given back
    assert_eq!(marked("'http://a.b/c and more"), "'|http://a.b/c| and more");
    assert_eq!(
        marked("<svn+ssh://repo.example.org/trunk>"),
        "|<svn+ssh://repo.example.org/trunk>|"
    );
    assert_eq!(marked("<x-y.z://h.example/>"), "|<x-y.z://h.example/>|");
    // unregistered: out of `<…>` only when asked for, with an
    // authority, as a word of its own that is no cut or glued `http`
    let any = |text| marked_with(Finds::UNREGISTERED, text);
    assert_eq!(
        any("\"svn+ssh://repo.example.org/trunk\""),
        "|\"svn+ssh://repo.example.org/trunk\"|"
    );
    assert_eq!(
        any("(svn+ssh://repo.example.org/trunk)"),
        "(|svn+ssh://repo.example.org/trunk|)"
    );
    for text in [
        "\"svn+ssh://repo.example.org/trunk\"",
        "(svn+ssh://repo.example.org/trunk) gemini://a.example/",
    ] {
        assert_eq!(marked(text), text);
    }
    for text in [
        "<o:p></o:p>",
        "<std::string>",
        "<xsl:value-of select=\"x\"/>",
        "x_svn+ssh://repo.example.org/trunk",
        "1abc://repo.example.org/trunk",
        "ttps://repo.example.org/ tp://repo.example.org/",
        "ab:// x:///y",
        "C://Users/bob/file.txt (D://temp)",
        "'o:p'",
        "hppt://example.com HTPP://a.example htps://a.example",
        "fpt://files.example \"htttp://a.example\"",
    ] {
        assert_eq!(any(text), text);
    }
}

/// Issue 34.1: whitespace inside `<…>` is removed (RFC 3986
/// Appendix C), after the scheme's colon too; in quotes only across
/// a line break.
#[test]
fn whitespace_inside_angles() {
    assert_eq!(
        marked("R. A. Hettinga <mailto: rah@example.com>"),
        "R. A. Hettinga |<mailto: rah@example.com>|=mailto:rah@example.com"
    );
    assert_eq!(
        marked("<ftp://a.example/pub/ gopher_protocol>."),
        "|<ftp://a.example/pub/ gopher_protocol>|=ftp://a.example/pub/gopher_protocol."
    );
    assert_eq!(
        marked("<mailto:tismer at example.com> <mailto:a@b.c >"),
        "<mailto:tismer at example.com> |<mailto:a@b.c >|"
    );
    assert_eq!(
        marked("\"see http://a.example/ and more words\""),
        "\"see |http://a.example/| and more words\""
    );
    assert_eq!(
        marked("\"http://a.example/ is nice\" \"mailto: a@b.c\""),
        "\"|http://a.example/| is nice\" \"mailto: a@b.c\""
    );
}

/// Issue 34.2: a quoted HTML attribute value holding a URL is the
/// whole value, its spaces percent-encoded; script or a value left
/// open is read as before.
#[test]
fn attribute_values() {
    assert_eq!(
        marked("<a href=\"mailto:x@example.org?Subject=Abuse Report\">"),
        "<a href=|\"mailto:x@example.org?Subject=Abuse Report\"|\
         =mailto:x@example.org?Subject=Abuse%20Report>"
    );
    assert_eq!(
        marked("<IMG SRC = 'http://a.example/MAP BBQ.gif'>"),
        "<IMG SRC = |'http://a.example/MAP BBQ.gif'|=http://a.example/MAP%20BBQ.gif>"
    );
    assert_eq!(
        marked("<form action=\"http://a.example/x?a=b c\tx\">"),
        "<form action=|\"http://a.example/x?a=b c\tx\"|=http://a.example/x?a=b%20cx>"
    );
    for text in [
        // not a URL attribute, not an attribute, script, left open
        "<p title=\"http://a.example/ x\">",
        "say=\"http://a.example/ x\"",
        "'<img src=\"http://a.example/;ord=' + n + '?\">'",
        "<a href=\"http://a.example/ target=\"_blank\">",
    ] {
        let url = if text.contains(";ord=") {
            "http://a.example/;ord="
        } else {
            "http://a.example/"
        };
        let want = text.replace(url, &format!("|{url}|"));
        assert_eq!(marked(text), want);
    }
    // a value the validator refuses: the bare reading of its start
    assert_eq!(
        marked("<a href=\"mailto:a@example.org &subject=x y\">"),
        "<a href=\"|mailto:a@example.org| &subject=x y\">"
    );
}

/// Issue 34.3: a web scheme glued to the word before it starts the
/// URL; the letters alone, a longer registered tail or `<…>` do not.
#[test]
fn glued_web_schemes() {
    assert_eq!(
        marked("Seehttps://example.org/x and comHTTP://a.example/."),
        "See|https://example.org/x| and com|HTTP://a.example/|."
    );
    assert_eq!(
        marked("(hhttp://a.example/) x.example.comftp://f.example/p"),
        "(h|http://a.example/|) x.example.com|ftp://f.example/p|"
    );
    // with unregistered names asked for too: `Ahttp` is no scheme
    assert_eq!(
        marked_with(Finds::UNREGISTERED, "Ahttp://repo.example.org/"),
        "A|http://repo.example.org/|"
    );
    for text in [
        "mysftp://a.example/ Seehttp: x Seehttp:/a",
        "git+https://a.example/r 4http:// xhttps://",
        "nohttpx://a.example/",
    ] {
        assert_eq!(marked(text), text);
    }
    assert_eq!(marked("<xhttp://a.example/>"), "|<xhttp://a.example/>|");
}

/// `shttp` (RFC 2660) is registered but marked obsolete: a word that
/// ends in `s` glued to `http` is the word and `http`, as SpamAssassin's
/// `ignorethishttp://delimtest13.org` (t/uri_text.t) reads; `shttp:`
/// itself is still read as its scheme.
#[test]
fn an_obsolete_scheme_tail_does_not_keep_a_glued_one() {
    assert_eq!(
        marked("ignorethishttp://a.example/ xshttp://b.example/"),
        "ignorethis|http://a.example/| xs|http://b.example/|"
    );
    assert_eq!(marked("shttp://c.example/"), "|shttp://c.example/|");
}

/// A web scheme after a `.` glued to it (an ellipsis, a sentence's end:
/// URI::Find's `can...http://bit.ly/8yEdeb`) starts the URL too; no
/// registered scheme ends in `.http`.
#[test]
fn web_schemes_after_a_dot() {
    assert_eq!(
        marked("house can...http://bit.ly/8yEdeb e.g.https://a.example/x"),
        "house can...|http://bit.ly/8yEdeb| e.g.|https://a.example/x|"
    );
    assert_eq!(marked("end.FTP://f.example/p"), "end.|FTP://f.example/p|");
    for text in ["a-http://a.example/", "a+http://a.example/", "x.ttp://a/"] {
        assert_eq!(marked(text), text);
    }
}

#[test]
fn bare() {
    assert_eq!(marked("(see http://a.b/c)."), "(see |http://a.b/c|).");
    assert_eq!(marked("HTTP://A.B/"), "|HTTP://A.B/|");
    assert_eq!(marked("news:comp.x, ok"), "|news:comp.x|, ok");
    assert_eq!(marked("URL:http://a.b/"), "URL:|http://a.b/|");
}

#[test]
fn not_urls() {
    for text in [
        "Subject: Re: http: nothing",
        "at 12:34:56",
        "C::foo and C:\\TEMP",
        "http:// alone",
        "sip:a@b.c bare opaque needs a wrapper",
        "x-http://a.b",
    ] {
        assert_eq!(marked(text), text);
    }
}

/// A `_` or `~` right before the scheme (Markdown's emphasis and
/// strike-through) is closed by a trailing run of the same byte, which
/// is given back; without the opener both are unreserved (RFC 3986
/// §2.3) and end the URL as written.
#[test]
fn an_emphasis_mark_before_the_scheme_closes_at_the_end() {
    assert_eq!(marked("_http://a.b/c_"), "_|http://a.b/c|_");
    assert_eq!(marked("see _http://a.b/c_."), "see _|http://a.b/c|_.");
    assert_eq!(marked("__http://a.b/c__, x"), "__|http://a.b/c|__, x");
    assert_eq!(marked("~~http://a.b/~~"), "~~|http://a.b/|~~");
    assert_eq!(marked("_http://a.b/c_.d_"), "_|http://a.b/c_.d|_");
    // the mark inside the URL stays; no opener, no closer
    assert_eq!(marked("_http://a.b/c_d"), "_|http://a.b/c_d|");
    assert_eq!(marked("http://a.b/c_"), "|http://a.b/c_|");
    assert_eq!(marked("http://a.b/~"), "|http://a.b/~|");
    // another mark before closes nothing
    assert_eq!(marked("~http://a.b/c_"), "~|http://a.b/c_|");
    // the closer given back leaves punctuation before it to trim
    assert_eq!(marked("_http://a.b/c._"), "_|http://a.b/c|._");
}

/// Issue 32: a name alone between delimiters (`"http:"`, `<news:>`,
/// `'MAILTO:'`) is read without [`delimited::read`] and validated from
/// the scheme's table ([`Config::name_alone`]): every field of the
/// candidate, its resume, and the rest of the scan are the full
/// reading's, for schemes of every grammar and case, both levels, the
/// wrapper cap around the candidate, and a window's end.
#[test]
fn a_name_alone_is_read_as_the_full_reading_reads_it() {
    let names = [
        "http", "HTTPS", "Ftp", "mailto", "news", "NNTP", "file", "gopher",
        "telnet", "wais", "prospero", "urn", "sip", "data", "jar",
    ];
    let opens = [('"', '"', Kind::Quoted), ('\'', '\'', Kind::Quoted)];
    let opens = opens.into_iter().chain([('<', '>', Kind::Angle)]);
    let mut seen = 0;
    for (open, close, kind) in opens {
        for name in names {
            for before in ["", "x ", "href=", "a\n> "] {
                let text = format!("{before}{open}{name}:{close} tail");
                let bytes = text.as_bytes();
                let s = before.len() + 1;
                let c = s + name.len();
                for eof in [true, false] {
                    for strict in [false, true] {
                        for max_wrapper in [8, name.len() + 2, 2048] {
                            let cfg = Config {
                                strict,
                                max_wrapper,
                                ..Config::default()
                            };
                            let hay = Hay { bytes, eof };
                            let got = cfg.step(hay, 0, 0);
                            let scheme =
                                parse::registered_prefix(&bytes[s..], c - s);
                            assert!(scheme.is_some(), "{name}");
                            let read = delimited::read(
                                &hay,
                                s - 1,
                                s,
                                close as u8,
                                delimited::Join::Lines,
                                max_wrapper,
                            );
                            let Ok(Some(closed)) = read else {
                                // Past the cap: not closed, so not taken
                                // by the lean path either.
                                assert!(
                                    !matches!(&got, Step::Found(r, _)
                                        if r.span.start == s - 1),
                                    "{text:?} cap {max_wrapper}: {got:?}"
                                );
                                continue;
                            };
                            let (want, resume) =
                                cfg.closed(&hay, s - 1, closed, kind);
                            let Step::Found(raw, at) = got else {
                                panic!("{text:?}: {got:?}");
                            };
                            assert_eq!(
                                (raw.span, &raw.text, raw.kind, raw.flags),
                                (want.span, &want.text, want.kind, want.flags),
                                "{text:?}"
                            );
                            assert_eq!(raw.verdict, want.verdict, "{text:?}");
                            assert_eq!(at, resume, "{text:?}");
                            seen += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(seen > 300, "{seen}");
}
