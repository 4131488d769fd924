//! Tests of the scheme-less detectors: addresses, `www.` names, domain
//! names and network-path references, and their guards.

use super::*;
use crate::scan::{Finds, Step};

/// Accepted matches of `text` with every detector on.
fn finds(text: &str) -> Vec<(String, Kind)> {
    let cfg = Config { finds: Finds::ALL, ..Config::default() };
    let hay = Hay { bytes: text.as_bytes(), eof: true };
    let (mut pos, mut out) = (0, Vec::new());
    while let Step::Found(raw, resume) = cfg.step(hay, pos, pos) {
        if raw.verdict.is_ok() {
            let s = &text[raw.span.start..raw.span.end];
            out.push((s.to_owned(), raw.kind));
        }
        pos = resume;
    }
    out
}

#[test]
fn addresses() {
    let got = finds("mail bob@example.com, or <a.b+c@mail.example.org>.");
    assert_eq!(
        got,
        [
            ("bob@example.com".into(), Kind::Email),
            ("a.b+c@mail.example.org".into(), Kind::Email)
        ]
    );
    // a mailto URL is one match, not two
    let got = finds("mailto:bob@example.com");
    assert_eq!(got, [("mailto:bob@example.com".into(), Kind::Bare)]);
    for text in [
        "user@localhost",
        "a..b@example.com",
        "see:u@example.com",
        "/home/u@example.com",
        "@example.com",
        "x@1.2.3.4",
        "bob@example.c0m",
    ] {
        assert_eq!(finds(text), [], "{text}");
    }
    assert_eq!(finds("x.@example.com"), []);
}

#[test]
fn a_quote_before_a_local_part_delimits_it() {
    // as before a scheme: `'` opens a quotation (Django urlize tests,
    // test_quotation_marks); inside the local part it stays (atext)
    for text in [
        "before 'hi@example.com' afterward",
        "x 'hi@example.com",
        "''hi@example.com",
    ] {
        assert_eq!(
            finds(text),
            [("hi@example.com".into(), Kind::Email)],
            "{text}"
        );
    }
    let got = finds("o'neil@example.com and a'@example.com");
    assert_eq!(
        got,
        [
            ("o'neil@example.com".into(), Kind::Email),
            ("a'@example.com".into(), Kind::Email)
        ]
    );
    assert_eq!(finds("'@example.com"), []);
}

/// A `:` that begins a word has no scheme before it (RFC 3986 §3.1: a
/// scheme starts with a letter), so the address after it is no URL's
/// user (autolink-java's `specialSeparation`); glued to a word it is.
#[test]
fn a_colon_that_begins_a_word_opens_an_address() {
    for text in [":a@example.com:", "x :a@example.com", "x\n:a@example.com"] {
        assert_eq!(
            finds(text),
            [("a@example.com".into(), Kind::Email)],
            "{text}"
        );
    }
    for text in ["see:a@example.com", "x:a@example.com", "(:a@example.com"] {
        assert_eq!(finds(text), [], "{text}");
    }
}

/// A `\` is no `atext` (RFC 5322 §3.2.3; it quotes a character only
/// inside a quoted string, §3.2.4 `quoted-pair`), so `a\b@…` is no
/// local part, and its tail `b@…` names another mailbox: not read, as
/// `nick:f@…` and `nick..f@…` are not (CommonMark spec, Autolinks:
/// `<foo\+@bar.example.com>`).
#[test]
fn a_backslash_before_a_local_part_is_no_address_start() {
    for text in [
        "<foo\\+@bar.example.com>",
        "a\\b@example.com",
        "CORP\\jsmith@example.com",
        "x \\jsmith@example.com",
    ] {
        assert_eq!(finds(text), [], "{text}");
    }
    assert_eq!(
        finds("a\\ b@example.com"),
        [("b@example.com".into(), Kind::Email)]
    );
}

/// RFC 5322 §4.4 obs-local-part: quoted words of atext between dots.
#[test]
fn obsolete_local_parts() {
    for text in ["test.\"foo\".bar@gmail.co.uk", "a.\"b\".\"c\".d@example.com"]
    {
        assert_eq!(finds(&format!("{text}!")), [(text.into(), Kind::Email)]);
    }
    assert_eq!(
        finds("\"foo\".bar@example.com"),
        [("\"foo\".bar@example.com".into(), Kind::Email)]
    );
    // never the tail after a quoted word that is not one
    for text in [
        "x \"quoted text\".bar@example.com",
        "test.\"fo o\".bar@example.com",
        "x\".bar@example.com",
    ] {
        assert_eq!(finds(text), [], "{text}");
    }
}

/// RFC 5322 §3.4.1: a local part that is one quoted string of `atext`
/// (bleach's `"james"@example.com`), when its quote starts a word.
#[test]
fn quoted_string_local_parts() {
    for text in ["\"james\"@example.com", "\"j'ames\"@example.com"] {
        assert_eq!(
            finds(&format!("to {text}.")),
            [(text.into(), Kind::Email)],
            "{text}"
        );
    }
    assert_eq!(
        finds("a.\"b\"@example.com"),
        [("a.\"b\"@example.com".into(), Kind::Email)]
    );
    for text in [
        "x\"james\"@example.com",
        "\"ja>mes\"@example.com",
        "\"a b\"@example.com",
        "\"\"@example.com",
        "mailto:\"a\"@example.com",
    ] {
        assert_eq!(finds(text), [], "{text}");
    }
}

/// Plain text's emphasis around an address: `*bold*` and `_underline_`
/// (marked's `**me@example.com**`, `__test@test.com__`; box rules and
/// signatures in news: `*thester@nyx.cs.du.edu*`). A leading `_` stays
/// when none closes the domain (`Cc: _musicman@netnoir.net`).
#[test]
fn emphasis_around_an_address() {
    for text in [
        "*bob@example.com*",
        "**bob@example.com**",
        "_bob@example.com_",
        "__bob@example.com__",
        "* bob@example.com",
        "*bob@example.com  *",
    ] {
        assert_eq!(
            finds(text),
            [("bob@example.com".into(), Kind::Email)],
            "{text}"
        );
    }
    assert_eq!(
        finds("Cc: _musicman@example.net"),
        [("_musicman@example.net".into(), Kind::Email)]
    );
    assert_eq!(
        finds("From _b__@example.com x"),
        [("_b__@example.com".into(), Kind::Email)]
    );
    // a wildcard is no address
    assert_eq!(finds("whitelist_from *@example.com"), []);
}

/// RFC 5322 §3.2.3: `&` and `#` are `atext`, so `Mike&family@…` is an
/// address (rails_autolink's `and&re…`, autolink-java's `allowedText`),
/// judged as its `mailto:` URI with them percent-encoded (RFC 6068 §2
/// item 1); the text is printed as written.
#[test]
fn ampersand_and_hash_local_parts() {
    for text in [
        "Mike&family@example.com",
        "Online#3.20.1@newsletter.example.com",
        "X8&!@example.ca",
        "\"a&b\"@example.com",
    ] {
        assert_eq!(
            finds(&format!("to {text}.")),
            [(text.into(), Kind::Email)],
            "{text}"
        );
    }
    // a key's `=`, a query's `?` and a list's `|` still join no mailbox
    for text in [
        "smtp.mailfrom=bob@example.com",
        "a=1&to=bob@example.com",
        "sites?bob@example.com",
        "Engineer|bob@example.com",
    ] {
        assert_eq!(finds(text), [], "{text}");
    }
}

/// An address in angle brackets (RFC 5322 §3.4 `angle-addr = "<"
/// addr-spec ">"`) is delimited: no key or query is glued to it, so a
/// `=`, `%` or `?` in its local part is the mailbox's, percent-encoded in
/// its `mailto:` URI (RFC 6068 §2 item 1). Mailing lists' VERP bounce
/// addresses are written so (SpamAssassin's t/uri_text.t).
#[test]
fn angle_addresses_keep_their_equals() {
    for text in [
        "sentto-4934-foo=addr.com@verper.com",
        "bounce-a%b@lists.example.org",
        "ask?x@example.org",
    ] {
        assert_eq!(
            finds(&format!("Return-Path: <{text}>")),
            [(text.into(), Kind::Email)],
            "{text}"
        );
    }
    // not closed by `>`, or opened by no `<`: as before
    for text in ["<smtp.mailfrom=bob@example.com x", "a=<b>c=bob@example.com>"]
    {
        assert_eq!(finds(text), [], "{text}");
    }
}

/// A literal of long digit runs is no address, and its sum does not
/// overflow (a panic in a debug build, met in the SpamAssassin folder).
#[test]
fn literal_digit_runs_do_not_overflow() {
    assert_eq!(finds("a@[123456789012345678901234567.1.1.1] x"), []);
}

/// An address at a domain literal (RFC 5322 §3.4.1, RFC 6068 §2
/// `"[" *dtext-no-obs "]"`) holding an Internet address, as RFC 5321
/// §4.1.3 writes one: four `Snum` (leading zeros allowed) or `IPv6:`
/// and an IPv6 address. A general literal, another tag, a malformed
/// address or a literal glued to a word is none.
#[test]
fn addresses_at_an_address_literal() {
    for text in [
        "bob@[192.0.2.1]",
        "kU-l6DS@[082.015.228.189]",
        "\"_3Sc_\"@[193.165.124.143]",
        "bob@[IPv6:2001:db8::1]",
        "bob@[ipv6:2001:db8:1:2:3:4:192.0.2.1]",
    ] {
        assert_eq!(
            finds(&format!("<{text}>, and {text}.")),
            [(text.into(), Kind::Email), (text.into(), Kind::Email)],
            "{text}"
        );
    }
    for text in [
        "bob@[1ae]",
        "bob@[4TC]",
        "bob@[192.0.2]",
        "bob@[192.0.2.256]",
        "bob@[192.0.2.1.5]",
        "bob@[1922.0.2.1]",
        "bob@[2001:db8::1]",
        "bob@[IPv6:2001:db8:::1]",
        "bob@[IPv7:2001:db8::1]",
        "bob@[192.0.2.1]x",
        "bob@[192.0.2.1]@example.com",
        "bob@[192.0.2.1",
        "a=bob@[192.0.2.1]",
    ] {
        assert_eq!(finds(&format!("{text} ")), [], "{text}");
    }
}

/// A `=` or `:` that begins a word opens a name (anchorme.js's
/// `PS =example.net, PE`); glued to a word it is a value's or a token's
/// tail, and `=` with two uppercase hex digits is a quoted-printable
/// escape (RFC 2045 §6.7).
#[test]
fn names_after_a_word_opening_equals_or_colon() {
    assert_eq!(
        finds("PS =example.net, PE :www.example.org/x\n=sub.example.com"),
        [
            ("example.net".into(), Kind::Domain),
            ("www.example.org/x".into(), Kind::Www),
            ("sub.example.com".into(), Kind::Domain)
        ]
    );
    for text in [
        "a=example.net",
        "x:example.com",
        "?u=www.example.com",
        "=3Dwww.example.com",
        " =3Dexample.com",
        "==example.net",
        "SRC=3D\"http=\n://www.example.com/x.gif\"",
    ] {
        assert_eq!(finds(text), [], "{text}");
    }
}

/// An ellipsis that begins a word is punctuation before a name, as
/// SpamAssassin's `.....www.delimtest16.com..........` (t/uri_text.t)
/// reads; glued to a word, after a control, a lone `.` or a rule of
/// dashes (a MIME delimiter line) it is not.
#[test]
fn names_after_a_word_opening_ellipsis() {
    assert_eq!(
        finds("\n.....www.a.example.com.......... x ...example.net\n"),
        [
            ("www.a.example.com".into(), Kind::Www),
            ("example.net".into(), Kind::Domain)
        ]
    );
    for text in ["x.www.example.com", "a-www.example.com"] {
        assert_eq!(finds(text), [(text.into(), Kind::Domain)], "{text}");
    }
    for text in [
        "net\u{14}..co.fr",
        "honor[.cloudmark.com]",
        " .cnet.com",
        "\n--EG3OZ08L.0DOB2JAQ-euro.apple.com",
        "x=\n..cnet.com/b.gif",
    ] {
        assert_eq!(finds(text), [], "{text:?}");
    }
    assert_eq!(
        finds("..www.b.example.org"),
        [("www.b.example.org".into(), Kind::Www)]
    );
}

#[test]
fn www_names() {
    let got = finds("see www.example.com/page and (WWW.Example.org).");
    assert_eq!(
        got,
        [
            ("www.example.com/page".into(), Kind::Www),
            ("WWW.Example.org".into(), Kind::Www)
        ]
    );
    // inside a URL it is the URL's
    let got = finds("http://www.example.com/");
    assert_eq!(got, [("http://www.example.com/".into(), Kind::Bare)]);
    for text in ["www.", "www.x"] {
        assert_eq!(finds(text), [], "{text}");
    }
    // a `'` or `~` in the name ends it, as after `http://`
    // (Autolinker's spec): the name, then `'s`
    for text in
        ["www.yahoo.com's today", "www.yahoo.com's/foo", "www.yahoo.com.'s"]
    {
        assert_eq!(
            finds(text),
            [("www.yahoo.com".into(), Kind::Www)],
            "{text}"
        );
    }
    assert_eq!(
        finds("www.yahoo.com/it's"),
        [("www.yahoo.com/it's".into(), Kind::Www)]
    );
    // after a port too, and for a domain name and a network path
    // (Autolinker's tld and protocol-relative specs)
    for (text, want, kind) in [
        ("www.yahoo.com:8080's", "www.yahoo.com:8080", Kind::Www),
        ("yahoo.com:8080's/path", "yahoo.com:8080", Kind::Domain),
        ("x //yahoo.com:8080's/p", "//yahoo.com:8080", Kind::NetworkPath),
        ("yahoo.com:8080/it's", "yahoo.com:8080/it's", Kind::Domain),
    ] {
        assert_eq!(finds(text), [(want.into(), kind)], "{text}");
    }
    // not www. names, but domain names
    for text in ["awww.example.com", "x.www.example.com"] {
        assert_eq!(finds(text), [(text.into(), Kind::Domain)]);
    }
}

/// RFC 3986 Appendix C: whitespace inside `<…>` (any) or `"…"` (a line
/// break) that a `www.` name opens is removed, as for a URI with a
/// scheme; where the joined text is no URL the bare reading stands.
#[test]
fn www_names_joined_inside_delimiters() {
    let joined = |text: &str| {
        let cfg = Config { finds: Finds::ALL, ..Config::default() };
        let hay = Hay { bytes: text.as_bytes(), eof: true };
        let (mut pos, mut out) = (0, Vec::new());
        while let Step::Found(raw, resume) = cfg.step(hay, pos, pos) {
            if raw.verdict.is_ok() {
                let s = match &raw.text {
                    Text::In(s) => text[s.start..s.end].to_owned(),
                    Text::Joined(v) => String::from_utf8(v.clone()).unwrap(),
                };
                out.push((s, raw.flags.contains(Flags::JOINED)));
            }
            pos = resume;
        }
        out
    };
    let want = vec![("www.kde.org:1234/sub/path?a=1#x".to_owned(), true)];
    assert_eq!(joined("<www.kde.org:1234/\nsub/  path?\n\ta=1#x>"), want);
    assert_eq!(joined("\"www.kde.org:1234/\nsub/path?\na=1#x\""), want);
    // the bare reading where nothing is joined or the joined text fails
    assert_eq!(
        joined("<www.example.com> and \"www.example.org/a b\""),
        [
            ("www.example.com".to_owned(), false),
            ("www.example.org/a".to_owned(), false)
        ]
    );
    assert_eq!(
        joined("<www.example.com and more>"),
        [("www.example.com".to_owned(), false)]
    );
    // a domain name or network path as a `www.` name (KDE KTextToHTML,
    // testGetUrl2), from the same host on only
    let want = vec![("ftp.kde.org:1234/sub/path?a=1#x".to_owned(), true)];
    assert_eq!(joined("<ftp.kde.org:1234/\nsub/  path?\n\ta=1#x>"), want);
    assert_eq!(joined("\"ftp.kde.org:1234/\nsub/path?\na=1#x\""), want);
    let want = vec![("//kde.org/sub/path".to_owned(), true)];
    assert_eq!(joined("<//kde.org/\nsub/path>"), want);
    assert_eq!(
        joined("<example.com/a\n.b> <example.com\n.evil/x>"),
        [
            ("example.com/a.b".to_owned(), true),
            ("example.com".to_owned(), false)
        ]
    );
}

#[test]
fn www_names_with_a_u_label_first() {
    // RFC 5890: a U-label may begin with a non-ASCII letter (Django's
    // urlize tests, test_idn: `www.ça.ws`)
    let got = finds("see www.ça.ws and www.éa.org/x, not www.\u{2014}x");
    assert_eq!(
        got,
        [("www.ça.ws".into(), Kind::Www), ("www.éa.org/x".into(), Kind::Www)]
    );
    assert!(may_name("www.ça".as_bytes(), 3, 0));
    assert!(!may_name(b"www.-x", 3, 0));
}

#[test]
fn domains() {
    let got = finds(
        "see example.com, docs.python.org/3/library and bit.ly/abc; \
         ok at example.app:8080/x or news.bbc.co.uk.",
    );
    let want = [
        "example.com",
        "docs.python.org/3/library",
        "bit.ly/abc",
        "example.app:8080/x",
        "news.bbc.co.uk",
    ];
    // A port under such a TLD counts when a path follows it; under
    // another TLD it counts alone.
    assert_eq!(
        finds("at example.cc:8080/x or example.org:8080.")
            .iter()
            .map(|(s, _)| s.as_str())
            .collect::<Vec<_>>(),
        ["example.cc:8080/x", "example.org:8080"]
    );
    let got: Vec<&str> = got.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(got, want);
    for text in [
        "run setup.py and install.sh, read README.md, edit main.rs",
        // mail servers' configuration files (`.cf` and `.mc` are also the
        // country codes of the Central African Republic and Monaco)
        "edit local.cf, sendmail.cf and sendmail.mc",
        "notes.txt",
        "version 1.2.3 or v2.0.1",
        "e.g. this, i.e. that, etc.",
        "src/main.rs",
        "self.name = x.info_y",
        "Dr.House",
        "a_b.example.com",
        "example.comx",
        "X-Mailman-Version: 2.0.9-sf.net",
        "Beitbridge Zimbabwe.At the height",
        "www.Life-Settlements-Onli=\nne.com</a>",
        "Subject: NT select.select?",
        // a file and a line under a TLD that is also a file extension
        "genpkglist.cc:604:33: macro \"headerFree\" requires 2 arguments",
        "File setup.py:14, in <module>",
        "at Core.pm:1622",
    ] {
        assert_eq!(finds(text), [], "{text}");
    }
    // www. and addresses keep their own kinds
    assert_eq!(finds("www.example.com")[0].1, Kind::Www);
    assert_eq!(finds("bob@example.com")[0].1, Kind::Email);
}

/// An IPv4 address (RFC 3986 §3.2.2 `IPv4address`) is a host for the
/// `domain` find when a port or path follows it, as a TLD that is also a
/// file extension needs one: alone it is as often a version
/// (`retrieving revision 1.91.2.1`).
#[test]
fn ipv4_hosts_with_a_port_or_path() {
    let got = finds(
        "see 192.168.0.1/admin, (4.4.4.4:8080) or 10.0.0.1/?q=1 and \
         \"127.0.0.1:631/printers\".",
    );
    let got: Vec<&str> = got.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(
        got,
        [
            "192.168.0.1/admin",
            "4.4.4.4:8080",
            "10.0.0.1/?q=1",
            "127.0.0.1:631/printers"
        ]
    );
    assert_eq!(finds("at 192.0.2.1/x")[0].1, Kind::Domain);
    for text in [
        "Joe went to 192.168.0.1 today.",
        "retrieving revision 1.91.2.1",
        "1.2.3.4.5/x",
        "01.2.3.4/x",
        "1.2.3.256/x",
        "1.2.3/x",
        "v1.2.3.4/x",
        "x1.2.3.4/x",
        "1.2.3.4a/x",
        "1.2.3.4_/x",
        "1.2.3.4.com.x/x",
        // a network prefix (CIDR notation), a multicast group's TTL
        "routes 10.0.0.0/8, 128.9.0.0/16.",
        "mask 192.24.12.0/255.255.252.0 or",
        "c=IN IP4 224.2.17.12/127",
        "c=IN IP4 224.2.1.1/127/3",
    ] {
        assert_eq!(finds(text), [], "{text}");
    }
}

/// RFC 3986 §4.2: `//` and an authority, in running text only
/// after a byte that opens a name, with a host whose last label is a
/// TLD; under the same guards as `domain`.
#[test]
fn network_paths() {
    let got = finds(
        "load //cdn.example.com/lib.js, src=\"//ajax.example.org/x.js\" \
         url(//fonts.example.net/css) and (//www.example.org).",
    );
    let want = [
        ("//cdn.example.com/lib.js", Kind::NetworkPath),
        ("//ajax.example.org/x.js", Kind::NetworkPath),
        ("//fonts.example.net/css", Kind::NetworkPath),
        ("//www.example.org", Kind::NetworkPath),
    ];
    let want: Vec<(String, Kind)> =
        want.iter().map(|(s, k)| (s.to_string(), *k)).collect();
    assert_eq!(got, want);
    // after a space or bracket of another script it opens a host
    assert_eq!(finds("x «//yahoo.com»")[0].0, "//yahoo.com");
    assert_eq!(finds("「//example.com」")[0].0, "//example.com");
    // the URL that holds `//` is the URL's; the rest is no path
    for text in [
        "http://example.com/",
        "svn+ssh://repo.example.org/trunk",
        "a//b.example.com",
        "///c.example.com",
        "x=//d.example.com/",
        "// see example",
        "//server/share",
        "//localhost:8080/x",
        "//setup.py",
        "//1.2.3/x",
        "//example.comx",
        // a letter of any script glued to `//` (Autolinker's spec)
        "протокол//россия.рф",
        "x ж//yahoo.com",
        "访问//example.com",
    ] {
        let got = finds(text);
        assert!(
            got.iter().all(|(_, k)| *k != Kind::NetworkPath),
            "{text}: {got:?}"
        );
    }
    assert_eq!(finds("http://example.com/")[0].1, Kind::Bare);
    // the implied URL's host, shifted onto the text
    let cfg = Config { finds: Finds::NETWORK_PATH, ..Config::default() };
    let text = b" //Cdn.Example.com:8080/x";
    let hay = Hay { bytes: text, eof: true };
    let Step::Found(raw, _) = cfg.step(hay, 0, 0) else { panic!("no find") };
    // relative to the match, which starts at its `//`
    assert_eq!(raw.span.start, 1);
    let host = raw.verdict.ok().and_then(|v| v.host);
    assert_eq!(host, Some((2, 17)), "{raw:?}");
    assert_eq!(&text[1 + 2..1 + 17], b"Cdn.Example.com");
}

/// Root-zone TLDs the Public Suffix List holds only below them (`ac.za`,
/// `*.er`, `*.fk`): `bob@mweb.co.za` and `www.sun.ac.za/x` are found
/// (IANA's root zone lists ZA, ER, FK, NP, MM, CK, JM, PG).
#[test]
fn tlds_listed_only_below_them() {
    for tld in ["za", "er", "fk", "np", "mm", "ck", "jm", "pg"] {
        assert!(is_tld(tld.as_bytes()), "{tld}");
    }
    assert_eq!(
        finds("mail bob@mweb.co.za or www.sun.ac.za/x"),
        [
            ("bob@mweb.co.za".into(), Kind::Email),
            ("www.sun.ac.za/x".into(), Kind::Www)
        ]
    );
}

#[test]
fn tld_table() {
    assert!(is_tld(b"com") && is_tld(b"UK") && is_tld(b"xn--p1ai"));
    assert!(!is_tld(b"txt") && !is_tld(b"g") && !is_tld(b"3"));
    assert!(!is_tld(&[b'a'; 100]) && !is_tld(b""));
    // the packed look-up agrees with the table, any case
    for t in TLDS {
        assert!(is_tld(t.as_bytes()), "{t}");
        assert!(is_tld(t.to_ascii_uppercase().as_bytes()), "{t}");
        let mut longer = t.to_string();
        longer.push('x');
        assert_eq!(
            is_tld(longer.as_bytes()),
            TLDS.binary_search(&longer.as_str()).is_ok()
        );
    }
    for pair in TLDS.windows(2) {
        assert!(pair[0] < pair[1], "{} !< {}", pair[0], pair[1]);
    }
}

/// The word-at-a-time lower-casing of [`pack`] is
/// `to_ascii_lowercase`, for every byte at every place.
#[test]
fn pack_lowercases_as_the_standard_library() {
    for b in 0..=255u8 {
        for len in 1..=8 {
            for at in 0..len {
                let mut name = vec![b'a'; len];
                name[at] = b;
                let mut want = [0u8; 8];
                for (d, s) in want.iter_mut().zip(&name) {
                    *d = s.to_ascii_lowercase();
                }
                assert_eq!(pack(&name), Some(u64::from_le_bytes(want)));
            }
        }
    }
    assert_eq!(pack(b""), None);
    assert_eq!(pack(b"abcdefghi"), None);
}

#[test]
fn tld_shape() {
    assert!(tld_like(b"example.com"));
    assert!(!tld_like(b"example"));
    assert!(!tld_like(b".com"));
    assert!(!tld_like(b"1.2.3.4"));
    assert!(!tld_like(b"example.c"));
}

#[test]
fn a_uuencoded_line_holds_no_names() {
    // POSIX uuencode: a length character (`M`: 45 octets), then sixty
    // characters of 0x20..0x60 (20 Newsgroups, comp.os.ms-windows.misc)
    let line = format!("M VT.AR/&(#7TO,1FR A@3X.GG {}", "0".repeat(34));
    assert_eq!(line.len(), 61);
    for text in [
        format!("{line}\n"),
        format!("begin 644 a\n{line}\r\n`\nend\n"),
        line.clone(),
    ] {
        assert_eq!(finds(&text), [], "{text}");
    }
    // a character more or fewer than a full line, or a shorter line
    // (SpamAssassin): text
    let short = "3. BE A SF.NET FOUNDRY GUIDE.";
    assert_eq!(finds(short), [("SF.NET".into(), Kind::Domain)]);
    for text in [format!("{line}0"), line[..60].to_owned()] {
        assert_eq!(finds(&text).len(), 2, "{text}");
    }
}
