//! The URL parser against the examples of its RFCs, rule by rule, at both
//! strictness levels; and the properties: every http(s) URL it accepts the
//! `url` crate (WHATWG) accepts too, and parse → display → parse and
//! normalisation are stable.

use proptest::prelude::*;
use std::net::{Ipv4Addr, Ipv6Addr};
use urlgrep::parse::{self, Host, News, Parts, Reject, Strictness, Url};
use urlgrep::Scheme;

fn ok(s: &str) -> Url<'_> {
    match Url::parse(s.as_bytes()) {
        Ok(u) => u,
        Err(r) => panic!("{s:?} rejected: {r}"),
    }
}

fn strict(s: &str) -> Result<Url<'_>, Reject> {
    Url::parse_with(s.as_bytes(), Strictness::Rfc1738)
}

fn no(s: &str) -> Reject {
    match Url::parse(s.as_bytes()) {
        Ok(u) => panic!("{s:?} accepted: {u:?}"),
        Err(r) => r,
    }
}

/// Every `<URL:…>` of the RFC 1738 text (lines joined) and the examples of
/// its §5 BNF, accepted at both levels.
#[test]
fn rfc1738_text_examples() {
    let all = [
        "file://vms.host.edu/disk$user/my/notes/note12345.txt",
        "ftp://@host.com/",
        "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
        "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
        "ftp://ds.internic.net/rfc/rfc1034.txt",
        "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
        "ftp://ds.internic.net/rfc",
        "ftp://foo:@host.com/",
        "ftp://host.com/",
        "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z",
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://myname@host.dom/%2Fetc/motd",
        "ftp://myname@host.dom//etc/motd",
        "ftp://myname@host.dom/etc/motd",
        "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
        "ftp://quake.think.com/pub/wais/doc/protspec.txt",
        "ftp://uu.psi.com/wp/nir.txt",
        "http://ds.internic.net/instructions/overview.html#WARNING",
        "http://www.acl.lanl.gov/URI/archive/uri-archive.index.html",
        "news:*",
        "news:comp.infosystems.www",
        "news:comp.infosystems.www.misc",
        "prospero://host.dom//pros/name",
        "prospero://host.dom//pros/name;field=value",
        "prospero://host.dom:1525/hso;a=b;c=d",
        "wais://quake.think.com/wais-discussion-archives?lynch",
        "wais://quake.think.com/wais-discussion-archives",
        "wais://quake.think.com:210/db/TEXT/0x123",
        "gopher://gopher.micro.umn.edu/00/Information%20About%20Gopher/About%20Gopher",
        "gopher://gopher.micro.umn.edu/",
        "gopher://gopher.micro.umn.edu",
        "file://localhost/etc/motd",
        "file:///etc/motd",
        "mailto:mpm@boombox.micro.umn.edu",
        "nntp://news.example.org/comp.infosystems.www/42",
        "nntp://news.example.org:119/comp.infosystems.www",
        "telnet://user:password@host.example:23/",
        "telnet://host.example",
        "news:1234@host.example",
    ];
    for s in all {
        ok(s);
        if let Err(r) = strict(s) {
            panic!("{s:?} rejected under RFC 1738: {r}");
        }
    }
}

/// RFC 3986 §1.1.2, RFC 5538, RFC 4266 and RFC 8089 Appendix B examples.
#[test]
fn successor_rfc_examples() {
    let all = [
        // RFC 3986 §1.1.2
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        // RFC 3986 §3
        "foo://example.com:8042/over/there?name=ferret#nose",
        "urn:example:animal:ferret:nose",
        // the brief
        "ldap:///o=University%20of%20Michigan,c=US",
        "urn:ietf:rfc:2648",
        // RFC 8141 §2: an NID of 2 to 32 letters, digits and hyphens
        "URN:ISBN:0451450523",
        "urn:schemas-microsoft-com:office:office",
        "urn:ab:c/d?+r?=q#f",
        "urn:a1234567890123456789012345678901:x",
        // RFC 5538 §3 and §4
        "nntp://news.server.example/example.group.this/12345",
        "nntp://wild.server.example/example.group.n%2Fa/12345",
        "nntp://news.server.example/example.group.this",
        "news://news.server.example/example.group.this",
        "news://news.server.example/*",
        "news://news.server.example/",
        "news://wild.server.example/example.group.th%3Fse",
        "news:example.group.*",
        "news:example.group.this",
        "news://news.gmane.org/gmane.ietf.tools",
        "nntp://news.gmane.org/gmane.ietf.tools/742",
        "news://news.gmane.org/p0624081dc30b8699bf9b@%5B10.20.30.108%5D",
        // RFC 4266 §2
        "gopher://gopher.example:70/1",
        "gopher://gopher.example/7search%09rfc%201738",
        "gopher://gopher.example/1sel%09%09+VIEWS",
        // RFC 8089 Appendix B
        "file:///path/to/file",
        "file:/path/to/file",
        "file://host.example.com/path/to/file",
        // RFC 9110 §4.2
        "https://www.example.com/",
        "http://[2001:db8::1]:8080/a?b#c",
        "http://user@example.com/",
        "HTTP://EXAMPLE.COM/",
        // RFC 3987 IRIs
        "http://bücher.example/straße?q=ü#frag",
        "http://例え.テスト/パス",
    ];
    for s in all {
        ok(s);
    }
}

#[test]
fn components() {
    let u = ok("http://user:pw@Example.COM:8080/a/b?c=d#e");
    assert_eq!(u.scheme(), Scheme::Http);
    assert_eq!(u.scheme_name(), b"http");
    assert_eq!(u.authority(), Some(&b"user:pw@Example.COM:8080"[..]));
    assert_eq!(u.user(), Some(&b"user"[..]));
    assert_eq!(u.password(), Some(&b"pw"[..]));
    assert_eq!(u.host(), Some(Host::Domain(b"Example.COM")));
    assert_eq!(u.port(), Some(8080));
    assert_eq!(u.path(), b"/a/b");
    assert_eq!(u.query(), Some(&b"c=d"[..]));
    assert_eq!(u.fragment(), Some(&b"e"[..]));
    assert_eq!(u.parts(), Parts::Generic);
    assert_eq!(u.to_string(), "http://user:pw@Example.COM:8080/a/b?c=d#e");

    let u = ok("http://10.0.0.1/");
    assert_eq!(u.host(), Some(Host::Ipv4(Ipv4Addr::new(10, 0, 0, 1))));
    let u = ok("http://[::1]:80");
    assert_eq!(u.host(), Some(Host::Ipv6(Ipv6Addr::LOCALHOST)));
    assert_eq!(u.host_bytes(), Some(&b"[::1]"[..]));
    let u = ok("foo://[v7.a:b]/");
    assert_eq!(u.host(), Some(Host::IpFuture(b"v7.a:b")));
    let u = ok("ldap:///o=University%20of%20Michigan,c=US");
    assert_eq!(u.host(), None);
    assert_eq!(u.host_bytes(), Some(&b""[..]));
    let u = ok("http://bücher.example/");
    assert_eq!(u.host(), Some(Host::Iri("bücher.example".as_bytes())));
}

#[test]
fn scheme_specific_parts() {
    let p = |s| ok(s).parts();
    assert_eq!(
        p("ftp://info.cern.ch/pub/www/doc;type=d"),
        Parts::Ftp { path: b"/pub/www/doc", typecode: Some(b'd') }
    );
    assert_eq!(
        p("ftp://h.example/a;type=A"),
        Parts::Ftp { path: b"/a", typecode: Some(b'a') }
    );
    assert_eq!(
        p("ftp://h.example/a"),
        Parts::Ftp { path: b"/a", typecode: None }
    );
    assert_eq!(p("news:*"), Parts::News(News::All));
    assert_eq!(
        p("news:comp.infosystems.www"),
        Parts::News(News::Groups(b"comp.infosystems.www"))
    );
    assert_eq!(
        p("news:p0624@example.com"),
        Parts::News(News::Article(b"p0624@example.com"))
    );
    assert_eq!(p("news://h.example/"), Parts::News(News::All));
    assert_eq!(
        p("nntp://h.example/comp.lang.c/12345"),
        Parts::Nntp { group: b"comp.lang.c", article: Some(12345) }
    );
    assert_eq!(
        p("nntp://h.example/comp.lang.c"),
        Parts::Nntp { group: b"comp.lang.c", article: None }
    );
    assert_eq!(
        p("gopher://gopher.micro.umn.edu/00/Info"),
        Parts::Gopher {
            kind: Some(b'0'),
            selector: b"0/Info",
            search: None,
            plus: None
        }
    );
    assert_eq!(
        p("gopher://h.example/7find%09rfc?x%09+ASK"),
        Parts::Gopher {
            kind: Some(b'7'),
            selector: b"find",
            search: Some(b"rfc?x"),
            plus: Some(b"+ASK")
        }
    );
    assert_eq!(
        p("gopher://h.example"),
        Parts::Gopher { kind: None, selector: b"", search: None, plus: None }
    );
    assert_eq!(
        p("wais://quake.think.com/wais-discussion-archives?lynch"),
        Parts::Wais {
            database: b"wais-discussion-archives",
            kind: None,
            path: None,
            search: Some(b"lynch")
        }
    );
    assert_eq!(
        p("wais://h.example/db/TEXT/doc1"),
        Parts::Wais {
            database: b"db",
            kind: Some(b"TEXT"),
            path: Some(b"doc1"),
            search: None
        }
    );
    let u = ok("prospero://host.dom//pros/name;field=value;a=b");
    assert_eq!(
        u.parts(),
        Parts::Prospero { path: b"//pros/name", fields: b"field=value;a=b" }
    );
    if let Parts::Prospero { fields, .. } = u.parts() {
        let f: Vec<_> = parse::prospero_fields(fields).collect();
        assert_eq!(f, [(&b"field"[..], &b"value"[..]), (b"a", b"b")]);
    }
    assert_eq!(
        p("telnet://joe:secret@h.example/"),
        Parts::Telnet { user: Some(b"joe"), password: Some(b"secret") }
    );
    assert_eq!(
        p("file://localhost/etc/motd"),
        Parts::File { local: true, path: b"/etc/motd" }
    );
    assert_eq!(
        p("file://host.example.com/path/to/file"),
        Parts::File { local: false, path: b"/path/to/file" }
    );
    assert_eq!(
        p("file:/path/to/file"),
        Parts::File { local: true, path: b"/path/to/file" }
    );
    let u = ok("mailto:a@b.example,c@d.example?subject=hi&body=x%20y");
    let Parts::Mailto(m) = u.parts() else { panic!("{:?}", u.parts()) };
    assert_eq!(m.addresses().count(), 2);
    assert_eq!(m.headers().count(), 2);
    assert_eq!(u.path(), b"a@b.example,c@d.example");
    assert_eq!(u.query(), Some(&b"subject=hi&body=x%20y"[..]));
}

/// One negative case (at least) per rule, with its reason.
#[test]
fn rejects_with_reasons() {
    let cases = [
        // scheme (RFC 3986 §3.1)
        ("", Reject::Empty),
        ("http:", Reject::Empty),
        ("1a://b", Reject::BadScheme),
        ("a_b://c", Reject::BadScheme),
        ("nocolon", Reject::BadScheme),
        // http (RFC 9110 §4.2)
        ("http://", Reject::EmptyHost),
        ("http:///path", Reject::EmptyHost),
        ("http:foo", Reject::EmptyHost),
        ("http://user@/", Reject::EmptyHost),
        ("https://a.b/c d", Reject::BadCharacter),
        ("http://a.b/<x>", Reject::BadCharacter),
        ("http://a.b/x?y#z#w", Reject::BadCharacter),
        ("http://a.b/\u{7f}", Reject::BadCharacter),
        // hosts (RFC 1738 §5, RFC 3986 §3.2.2)
        ("http://-a.b/", Reject::BadLabel),
        ("http://a-.b/", Reject::BadLabel),
        ("http://a..b/", Reject::BadLabel),
        ("http://a.1b/", Reject::BadLabel),
        ("http://LOSEweightFAST!/ad.html", Reject::BadLabel),
        ("http://a b/", Reject::BadCharacter),
        ("http://xn--zz.example/", Reject::BadIdn),
        ("http://300.1.1.1/", Reject::BadIpv4),
        ("http://1.2.3/", Reject::BadIpv4),
        ("http://[zz]/", Reject::BadIpv6),
        ("http://[::1/", Reject::BadIpv6),
        ("http://[::1]x/", Reject::BadIpv6),
        ("http://[v1.x]/", Reject::BadIpv6),
        ("http://[fe80::1%25eth0]/", Reject::BadIpv6),
        // port (RFC 3986 §3.2.3)
        ("http://a.b:70000/", Reject::BadPort),
        ("http://a.b:8o/", Reject::BadPort),
        ("http://[::1]:x/", Reject::BadPort),
        // escapes (RFC 3986 §2.1)
        ("http://a.b/%zz", Reject::BadEscape),
        ("http://a.b/%4", Reject::BadEscape),
        ("http://a.b/?%", Reject::BadEscape),
        ("http://a%2/", Reject::BadLabel),
        // userinfo where the scheme has none (RFC 1738 §5 hostport)
        ("gopher://u@h.example/", Reject::Userinfo),
        ("nntp://u@h.example/g", Reject::Userinfo),
        ("file://u@h.example/x", Reject::Userinfo),
        // ftp (RFC 1738 §3.2)
        ("ftp://h.example/a;type=x", Reject::BadTypecode),
        ("ftp://h.example/a;type=", Reject::BadTypecode),
        ("ftp://h.example/a;type=ai", Reject::BadTypecode),
        ("ftp:h.example", Reject::EmptyHost),
        // telnet (RFC 4248)
        ("telnet://h.example/x", Reject::BadPath),
        ("telnet://h.example/?x", Reject::BadPath),
        // wais (RFC 1738 §3.9)
        ("wais://h.example/db/type", Reject::BadPath),
        ("wais://h.example/a/b/c/d", Reject::BadPath),
        ("wais://h.example/a/b/c?q", Reject::BadPath),
        ("wais://h.example", Reject::BadPath),
        // prospero (RFC 1738 §3.11)
        ("prospero://h.example/a;novalue", Reject::BadPath),
        ("prospero://h.example/a;b=c=d", Reject::BadPath),
        ("prospero://h.example", Reject::BadPath),
        // file (RFC 8089)
        ("file:relative/path", Reject::BadPath),
        ("file://h.example", Reject::BadPath),
        ("file:///a?b", Reject::BadPath),
        ("file://h.example:21/x", Reject::BadPort),
        // nntp (RFC 5538 §3)
        ("nntp://h.example/", Reject::BadNews),
        ("nntp://h.example/g/12a", Reject::BadNews),
        ("nntp://h.example/g/12345678901234567", Reject::BadNews),
        ("nntp://h.example/g!x", Reject::BadNews),
        ("nntp://h.example/g?x", Reject::BadPath),
        ("nntp:g", Reject::EmptyHost),
        // news (RFC 5538 §4)
        ("news:", Reject::Empty),
        ("news:a/b", Reject::BadNews),
        ("news:a?b", Reject::BadNews),
        ("news:@example.com", Reject::BadNews),
        ("news:a@", Reject::BadNews),
        ("news:a@b@c", Reject::BadNews),
        ("news:a@%5Bx%3Ey%5D", Reject::BadNews),
        ("news://h.example", Reject::BadNews),
        // mailto (RFC 6068)
        ("mailto:joe", Reject::BadMailto),
        (
            "mailto:joe@example.com?cc=bob@example.com?body=hello",
            Reject::BadHeader,
        ),
        ("mailto:a@b?c", Reject::BadHeader),
        ("mailto:a b@c", Reject::BadMailto),
        // urn (RFC 8141 §2: NID ":" NSS)
        ("URN:NBN", Reject::BadPath),
        ("urn:alert:", Reject::BadPath),
        ("urn:a:b", Reject::BadPath),
        ("urn:example.com:x", Reject::BadPath),
        ("urn:-ab:x", Reject::BadPath),
        ("urn:ab:/x", Reject::BadPath),
        ("urn://ab/x:y", Reject::BadPath),
        // generic (RFC 3986 §3)
        ("urn:a b", Reject::BadCharacter),
        ("foo://a/b c", Reject::BadCharacter),
        ("foo:#frag", Reject::Empty),
        ("foo://a:b/", Reject::BadPort),
        // not UTF-8, or not an RFC 3987 code point
        ("http://a.b/\u{fffe}", Reject::BadCharacter),
        ("http://a.b/\u{e000}", Reject::BadCharacter),
    ];
    for (s, want) in cases {
        assert_eq!(no(s), want, "{s:?}");
        assert_eq!(parse::validate(s.as_bytes(), false), Err(want), "{s:?}");
    }
    assert_eq!(
        Url::parse(b"http://a.b/\xff").map(|u| u.scheme()),
        Err(Reject::BadCharacter)
    );
    // iprivate only in the query (RFC 3987 §2.2).
    ok("http://a.b/?\u{e000}");
}

/// The default level's documented leniencies (README, Validation): `_` in
/// host labels (RFC 3986 reg-name), and `[`, `]`, `|` in path, query and
/// fragment (real mail; WHATWG); the strict level refuses them.
#[test]
fn default_level_leniencies() {
    for s in [
        "http://other_side.blogspot.com/",
        "http://a.example/list[1]/item",
        "http://a.example/search?q=cache:x&lr=lang_en|lang_sv#a[b]",
        "ftp://a.example/pub/[dir]/",
    ] {
        let u = ok(s);
        assert!(strict(s).is_err(), "{s:?} passed the strict level");
        assert!(url::Url::parse(s).is_ok(), "url crate rejects {s:?}");
        assert_eq!(u.as_bytes(), s.as_bytes());
    }
    assert_eq!(
        ok("http://a_b.example/").host_bytes(),
        Some(&b"a_b.example"[..])
    );
    assert_eq!(no("http://a_b-.example/"), Reject::BadLabel);
}

#[test]
fn strict_is_rfc1738() {
    let bad = [
        ("http://a.b/~user/", Reject::BadCharacter),
        ("http://a.b/{x}", Reject::BadCharacter),
        ("http://bücher.example/", Reject::BadCharacter),
        ("http://a.b/é", Reject::BadCharacter),
        ("http://[::1]/", Reject::BadCharacter),
        ("http://u:p@a.b/", Reject::Userinfo),
        ("http://a.b/x?y/z", Reject::BadCharacter),
        ("http://a.b?x", Reject::BadPath),
        ("http://a.b:/", Reject::BadPort),
        ("http://a.b./", Reject::BadLabel),
        ("http://a.b_c.d/", Reject::BadLabel),
        ("http://a.b/list[1]", Reject::BadCharacter),
        ("http://a.b/?l=en|sv", Reject::BadCharacter),
        ("ftp://h.example/a;b", Reject::BadCharacter),
        ("file:/etc/motd", Reject::EmptyHost),
        ("news://h.example/g", Reject::BadNews),
        ("news:1group", Reject::BadNews),
        ("news:a@b_c", Reject::BadNews),
        ("news:a+b@%5Bx%5D", Reject::BadNews),
        ("mailto:a@b,c@d", Reject::BadMailto),
        ("ldap:///o=x", Reject::EmptyHost),
        ("nntp://h.example/1group", Reject::BadNews),
    ];
    for (s, want) in bad {
        assert_eq!(strict(s).err(), Some(want), "{s:?}");
        assert_eq!(parse::validate(s.as_bytes(), true), Err(want), "{s:?}");
    }
    // The strict level never accepts what the default one refuses, even
    // where RFC 1738's grammar would (`hostnumber` with leading zeros).
    for s in ["http://010.0.0.1/", "http://00.0000000000000000.000.00/"] {
        assert!(no(s) == Reject::BadIpv4 && strict(s).is_err(), "{s:?}");
    }
    // The fuzz target `validate` found this one (strict accepted it).
    let s = "http://00.0000000000000.0000000000000000000000000000000000.000000000000000000";
    assert!(parse::validate(s.as_bytes(), true).is_err(), "{s:?}");
    // RFC 5538 `article-number = 1*16DIGIT`; RFC 1738 has no bound.
    let s = "nntp://h.example/comp.lang.c/123456789012345678";
    assert!(no(s) == Reject::BadNews && strict(s).is_err(), "{s:?}");
    for s in [
        "http://a.b/%7Euser/;x=y?a=b;c",
        "ftp://u:p@h.example/a/b;type=i",
        "gopher://h.example/1a?b",
        "urn:ietf:rfc:2648",
    ] {
        assert!(strict(s).is_ok(), "{s:?}: {:?}", strict(s));
    }
}

#[test]
fn security_notes() {
    assert!(ok("gopher://mail.example:25/").port_is_unusual());
    assert!(ok("http://a.example:443/").port_is_unusual());
    assert!(!ok("http://a.example:80/").port_is_unusual());
    assert!(!ok("http://a.example:8080/").port_is_unusual());
    assert!(!ok("http://a.example/").port_is_unusual());
    assert!(!ok("ldap://a.example:389/").port_is_unusual());
    assert!(ok("foo://a.example:25/").port_is_unusual());
    assert_eq!(
        ok("ftp://joe:secret@h.example/pub").redacted(),
        "ftp://joe:***@h.example/pub"
    );
    assert_eq!(
        &*parse::redact(b"http://a:b@c.example/"),
        b"http://a:***@c.example/"
    );
}

#[test]
fn url_is_send_sync_copy() {
    fn check<T: Send + Sync + Copy>() {}
    check::<Url<'static>>();
    check::<Host<'static>>();
    check::<Parts<'static>>();
}

/// The accepted http(s) URLs of the sample corpus (real text) go to the
/// property too.
fn corpus_http() -> Vec<String> {
    include_str!("data/parse-http.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && Url::parse(l.as_bytes()).is_ok())
        .map(str::to_owned)
        .collect()
}

#[test]
fn corpus_sample_is_accepted_by_the_url_crate() {
    let urls = corpus_http();
    assert!(urls.len() > 400, "{}", urls.len());
    for u in urls {
        assert!(url::Url::parse(&u).is_ok(), "url crate rejects {u:?}");
        stable(&u);
    }
}

/// parse → display → parse gives the same components; normalisation is
/// idempotent and stays valid.
fn stable(s: &str) {
    let a = match Url::parse(s.as_bytes()) {
        Ok(a) => a,
        Err(_) => return,
    };
    let shown = a.to_string();
    let b = Url::parse(shown.as_bytes()).expect("display reparses");
    assert_eq!(a, b);
    let n = a.normalized();
    let c = Url::parse(n.as_bytes())
        .unwrap_or_else(|r| panic!("{s:?} normalised to {n:?}: {r}"));
    assert_eq!(c.normalized(), n, "{s:?}");
    assert_eq!(c.scheme(), a.scheme());
}

/// A grammar-shaped strategy for http(s) URLs: mostly valid, with the
/// characters that break the rules mixed in.
fn http_url() -> impl Strategy<Value = String> {
    let label = prop_oneof![
        8 => "[a-zA-Z0-9][a-zA-Z0-9-]{0,8}[a-zA-Z0-9]?",
        1 => "xn--[a-z0-9-]{1,6}",
        1 => "[a-z_~é-]{1,4}",
    ];
    let top = prop_oneof![
        8 => "[a-zA-Z][a-zA-Z0-9-]{0,5}[a-zA-Z0-9]",
        1 => "[0-9]{1,3}",
        1 => "bücher|例え|ｅｘａｍｐｌｅ",
    ];
    let host = prop_oneof![
        6 => (proptest::collection::vec(label, 0..3), top).prop_map(
            |(mut ls, t)| { ls.push(t); ls.join(".") }
        ),
        1 => (0u16..300, 0u16..300, 0u16..300, 0u16..300)
            .prop_map(|(a, b, c, d)| format!("{a}.{b}.{c}.{d}")),
        1 => "\\[[0-9a-fA-F:.]{2,20}\\]",
        1 => "\\[(([0-9a-f]{1,4}:){1,3}|::)[0-9a-f]{1,4}\\]",
        1 => "[a-zA-Z0-9.%\\[\\]:@!$&'()*+,;=é-]{0,12}",
    ];
    let userinfo = prop_oneof![
        6 => Just(String::new()),
        1 => "[a-zA-Z0-9%:;&=!$'()*+,._~-]{0,8}@",
    ];
    let port = prop_oneof![
        6 => Just(String::new()),
        1 => ":[0-9]{0,6}",
    ];
    let segment = prop_oneof![
        20 => "[a-zA-Z0-9%:@!$&'()*+,;=._~é-]{0,8}",
        1 => "[ \u{e000}<>\\\\^`{|}\"]",
    ];
    let path = proptest::collection::vec(segment, 0..5)
        .prop_map(|v| v.iter().map(|s| format!("/{s}")).collect::<String>());
    let query = prop_oneof![
        4 => Just(String::new()),
        2 => "\\?[a-zA-Z0-9%:@/?!$&'()*+,;=._~é\u{e000}-]{0,12}",
        1 => "\\?[a-z#{} ]{0,4}",
    ];
    let fragment = prop_oneof![
        4 => Just(String::new()),
        1 => "#[a-zA-Z0-9%:@/?!$&'()*+,;=._~é#-]{0,8}",
    ];
    ("https?", userinfo, host, port, path, query, fragment).prop_map(
        |(s, u, h, p, pa, q, f)| format!("{s}://{u}{h}{p}{pa}{q}{f}"),
    )
}

/// The strategy reaches both sides: many accepted URLs (so the cross-check
/// has something to check) and many rejected ones.
#[test]
fn strategy_mixes_accepted_and_rejected() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = http_url();
    let mut accepted = 0;
    for _ in 0..1000 {
        let tree = strategy.new_tree(&mut runner).expect("value");
        accepted += usize::from(Url::parse(tree.current().as_bytes()).is_ok());
    }
    assert!((200..900).contains(&accepted), "{accepted} of 1000 accepted");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every http(s) URL urlgrep accepts, the `url` crate accepts too.
    #[test]
    fn accepted_http_urls_are_accepted_by_the_url_crate(s in http_url()) {
        if Url::parse(s.as_bytes()).is_ok() {
            prop_assert!(url::Url::parse(&s).is_ok(), "url crate rejects {:?}", s);
        }
        stable(&s);
    }

    /// No input makes the parser panic; the display of a parsed URL
    /// reparses to the same components.
    #[test]
    fn no_panic_and_stable(s in "[a-z]{1,6}:[ -~é\u{e000}\u{fffe}]{0,30}") {
        let _ = parse::validate(s.as_bytes(), true);
        let _ = parse::redact(s.as_bytes());
        stable(&s);
    }

    #[test]
    fn no_panic_on_bytes(b in proptest::collection::vec(any::<u8>(), 0..40)) {
        let mut v = b"http://".to_vec();
        v.extend_from_slice(&b);
        for s in [&b[..], &v[..]] {
            let _ = parse::validate(s, false);
            let _ = parse::validate(s, true);
            if let Ok(u) = Url::parse(s) {
                let _ = (u.normalized(), u.redacted(), u.port_is_unusual());
            }
        }
    }
}
