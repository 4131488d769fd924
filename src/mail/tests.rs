//! Tests of the mail search: framing, headers, decoding layers, the
//! field cache and the search of a reader, against the whole search.

use super::walk::split_multipart;
use super::*;
use crate::search::Finder;
use std::io;

fn urls(msg: &[u8]) -> Vec<String> {
    let f = MailFinder::new(Finder::new());
    f.matches(msg, Format::sniff(msg))
        .iter()
        .map(|m| String::from_utf8_lossy(m.as_match().url()).into_owned())
        .collect()
}

#[test]
fn public_types_are_send_sync() {
    fn check<T: Send + Sync>() {}
    check::<MailFinder>();
    check::<MailMatch<'static>>();
    check::<Message<'static>>();
    check::<Repaired<'static>>();
}

/// A search started from a sink's callback gets its own scratch
/// buffers and does not disturb the one that called it.
#[test]
fn a_search_inside_a_sink_callback() {
    let f = MailFinder::new(Finder::new());
    let outer = b"Subject: a\nContent-Transfer-Encoding: quoted-printable\n\n\
        see http://a.example/one=\n/two and http://b.example/\n";
    let inner = b"Subject: b\n\nhttp://c.example/\n";
    let mut seen = Vec::new();
    let mut nested = Vec::new();
    let Ok(()) = f.find(outer, Format::Message, &mut |m: &MailMatch<'_>| {
        seen.push(m.as_match().url().to_vec());
        let Ok(()) =
            f.find(inner, Format::Message, &mut |n: &MailMatch<'_>| {
                nested.push(n.as_match().url().to_vec());
                true
            });
        true
    });
    assert_eq!(seen, [&b"http://a.example/one/two"[..], b"http://b.example/"]);
    assert_eq!(nested, [&b"http://c.example/"[..]; 2]);
    // and the thread's buffers still work afterwards
    assert_eq!(urls(outer), ["http://a.example/one/two", "http://b.example/"]);
}

#[test]
fn multipart_epilogue_is_scanned() {
    let msg = b"Content-Type: multipart/mixed; boundary=b\n\n\
        pre http://pre.example/\n--b\n\
        Content-Type: image/png\nContent-Transfer-Encoding: base64\n\n\
        aGk=\n--b--\n\
        ___\nList: https://footer.example/listinfo\n";
    assert_eq!(
        urls(msg),
        ["http://pre.example/", "https://footer.example/listinfo"]
    );
}

#[test]
fn multipart_boundaries() {
    let body = b"pre\n--b\nA: 1\n\none\n--b \r\ntwo\r\n--bc\n--b--\nepi";
    let parts = split_multipart(body, b"b");
    let texts: Vec<&[u8]> =
        parts.iter().map(|p| &body[p.start..p.end]).collect();
    assert_eq!(texts, [&b"A: 1\n\none"[..], &b"two\r\n--bc"[..]]);
}

#[test]
fn identifiers_are_not_urls() {
    let msg = b"Message-ID: <http://a.b/c>\nReferences: <http://d.e/f>\nList-Help: <http://g.h/i>\n\n";
    assert_eq!(urls(msg), ["http://g.h/i"]);
}

#[test]
fn nested_multipart_base64_and_html() {
    let msg = b"Content-Type: multipart/mixed; boundary=\"out\"\n\n\
--out\n\
Content-Type: multipart/alternative; boundary=in\n\n\
--in\n\
Content-Type: text/plain\n\
Content-Transfer-Encoding: base64\n\n\
c2VlIGh0dHA6Ly9leGFtcGxlLmNvbS9iNjQgbm93\n\
--in\n\
Content-Type: text/html; charset=us-ascii\n\
Content-Transfer-Encoding: quoted-printable\n\n\
<a href=3D\"http://example.com/?a=3D1&amp;b=3D2\">x</a>\n\
--in--\n\
--out\n\
Content-Type: image/png\n\
Content-Transfer-Encoding: base64\n\n\
aHR0cDovL2hpZGRlbi5leGFtcGxlLw==\n\
--out--\n";
    let f = MailFinder::new(Finder::new());
    let ms = f.matches(msg, Format::Message);
    let got: Vec<_> = ms
        .iter()
        .map(|m| {
            (
                String::from_utf8_lossy(m.as_match().url()).into_owned(),
                m.part(),
                m.encoding(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("http://example.com/b64".to_string(), 2, Encoding::Base64),
            (
                "http://example.com/?a=1&b=2".to_string(),
                3,
                Encoding::QuotedPrintable
            ),
        ]
    );
    let s = ms[1].as_match().span();
    assert_eq!(
        &msg[s.start..s.end],
        b"\"http://example.com/?a=3D1&amp;b=3D2\""
    );
    let s = ms[0].as_match().span();
    let enc = &msg[s.start..s.end];
    assert!(
        enc.starts_with(b"dHA6") || enc.starts_with(b"aHR0") || enc.len() > 20,
        "{enc:?}"
    );
}

#[test]
fn reader_equals_slice() {
    let mut spool = Vec::new();
    for i in 0..3000 {
        spool.extend_from_slice(
            format!(
                "From a@b Thu Aug 22 13:17:22 2002\nMessage-ID: <{i}@x>\n\
                 \nsee http://example.com/{i} and {}\n\n",
                "filler ".repeat(i % 500)
            )
            .as_bytes(),
        );
    }
    let f = MailFinder::new(Finder::new());
    let whole = f.matches(&spool, Format::Mbox);
    let mut got = Vec::new();
    let mut sink = Collect(&mut got);
    f.find_reader(&spool[..], Format::Mbox, &mut sink).unwrap();
    assert_eq!(whole.len(), 3000);
    assert_eq!(got.len(), whole.len());
    for (a, b) in got.iter().zip(&whole) {
        assert_eq!(a.offset(), b.offset());
        assert_eq!(a.message(), b.message());
        assert_eq!(a.message_offset(), b.message_offset());
        assert_eq!(a.as_match().url(), b.as_match().url());
        assert_eq!(a.message_id(), b.message_id());
    }
}

/// What a search pushes into its sink, in order, by absolute offsets
/// (a reader search's spans are in its buffer).
#[derive(Debug, PartialEq)]
enum Event {
    /// Index, offset, length.
    Message(usize, u64, usize),
    /// Offset and end, message and its offset, URL, message ID,
    /// part, location, encoding, decoded.
    Match(
        (u64, u64),
        (usize, u64),
        Vec<u8>,
        Option<Vec<u8>>,
        (usize, Location, Encoding, bool),
    ),
}

#[derive(Default)]
struct Events(Vec<Event>);

impl MailSink for Events {
    type Error = io::Error;
    fn matched(&mut self, m: &MailMatch<'_>) -> io::Result<bool> {
        self.0.push(Event::Match(
            (m.offset(), m.end_offset()),
            (m.message(), m.message_offset()),
            m.as_match().url().to_vec(),
            m.message_id().map(<[u8]>::to_vec),
            (m.part(), m.location(), m.encoding(), m.decoded()),
        ));
        Ok(true)
    }
    fn message(&mut self, msg: &Message<'_>) -> io::Result<bool> {
        let len = msg.span().end - msg.span().start;
        self.0.push(Event::Message(msg.index(), msg.offset(), len));
        Ok(true)
    }
}

/// The search as it was before framing read the header: each message
/// of [`messages`] searched whole, its header walked over it.
fn find_plain(f: &MailFinder, hay: &[u8], format: Format) -> Vec<Event> {
    let mut sink = Events::default();
    for msg in messages(hay, format) {
        sink.message(&msg).unwrap();
        f.find_message(hay, &msg, &mut sink).unwrap();
    }
    sink.0
}

/// `find` and `find_reader` push what [`find_plain`] pushes.
fn find_agrees(f: &MailFinder, hay: &[u8]) -> usize {
    let want = find_plain(f, hay, Format::Mbox);
    let mut got = Events::default();
    f.find(hay, Format::Mbox, &mut got).unwrap();
    assert_eq!(got.0, want, "{:?}", String::from_utf8_lossy(hay));
    let mut read = Events::default();
    f.find_reader(hay, Format::Mbox, &mut read).unwrap();
    assert_eq!(read.0, want, "{:?}", String::from_utf8_lossy(hay));
    want.len()
}

#[test]
fn find_is_plain_find_every_short_spool() {
    let f = MailFinder::new(Finder::new());
    let mut events = 0;
    frame::tests::every_spool(4, |hay| events += find_agrees(&f, hay));
    assert!(events > 10_000, "{events}");
}

/// The bundled mail excerpts as one spool: the python-dev mbox, the
/// SpamAssassin files (each begins with its separator line) and two
/// blinux-list messages given one.
fn corpora_spool() -> Vec<u8> {
    let mut spool =
        include_bytes!("../../corpora/mail/python-dev/1999-04-part.mbox")
            .to_vec();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/mail/spamassassin");
    let mut files = 0;
    for sub in std::fs::read_dir(&dir).unwrap() {
        for file in std::fs::read_dir(sub.unwrap().path()).unwrap() {
            spool.extend(std::fs::read(file.unwrap().path()).unwrap());
            files += 1;
        }
    }
    assert!(files >= 8, "{files} files in {}", dir.display());
    for eml in [
        &include_bytes!("../../corpora/mail/blinux-list/00091.eml")[..],
        &include_bytes!("../../corpora/mail/blinux-list/00151.eml")[..],
    ] {
        spool.extend_from_slice(b"From a@b Thu Aug 22 13:17:22 2002\n");
        spool.extend_from_slice(eml);
    }
    spool
}

#[test]
fn find_is_plain_find_corpora() {
    let spool = corpora_spool();
    let crlf = frame::tests::crlf(&spool);
    for f in [
        MailFinder::new(Finder::new()),
        MailFinder::builder().headers(false).build(Finder::new()),
    ] {
        for hay in [&spool, &crlf] {
            let events = find_agrees(&f, hay);
            assert!(events > 150, "{events}");
        }
    }
}

/// The cache of header fields changes no match: the excerpts, their
/// messages twice over (the second time every field is met again),
/// searched with the cache and without, with two scanner settings.
#[test]
fn the_field_cache_changes_no_match() {
    let spool = corpora_spool();
    let mut twice = spool.clone();
    twice.extend_from_slice(&spool);
    let crlf = frame::tests::crlf(&twice);
    for finder in [Finder::new(), Finder::builder().angle(false).build()] {
        let on = MailFinder::new(finder.clone());
        let off = MailFinder::builder().field_cache(false).build(finder);
        for hay in [&twice, &crlf] {
            let want = off.matches(hay, Format::Mbox);
            let got = on.matches(hay, Format::Mbox);
            let header = got
                .iter()
                .filter(|m| m.location() == Location::Header)
                .count();
            assert!(header > 50, "{header} header matches");
            assert_eq!(got, want);
        }
    }
}

proptest::proptest! {
    #[test]
    fn find_is_plain_find(
        kinds in proptest::collection::vec(0..frame::tests::LINES.len(), 0..40),
        crlf: u64,
        open: bool,
    ) {
        let f = MailFinder::new(Finder::new());
        find_agrees(&f, &frame::tests::spool(&kinds, crlf, open));
    }
}

struct Collect<'v>(&'v mut Vec<MailMatch<'static>>);

impl MailSink for Collect<'_> {
    type Error = io::Error;
    fn matched(&mut self, m: &MailMatch<'_>) -> io::Result<bool> {
        self.0.push(m.clone().into_owned());
        Ok(true)
    }
}

#[test]
fn qp_repair_option() {
    let msg = b"Subject: x\n\nhttp://a.b/c=3Dd\n";
    let f = MailFinder::builder().qp_repair(true).build(Finder::new());
    let ms = f.matches(msg, Format::Message);
    assert_eq!(ms[0].as_match().url(), b"http://a.b/c=d");
    assert_eq!(ms[0].encoding(), Encoding::QpRepair);
    assert_eq!(urls(msg), ["http://a.b/c=3Dd"]);
}

/// RFC 2047: a URL inside an encoded word is found in its decoded text,
/// flagged decoded, its span the encoded word; a word without a colon
/// leaves the field as it was scanned before.
#[test]
fn urls_in_encoded_words() {
    let msg = b"Subject: =?utf-8?q?see_http://a.example/caf=C3=A9?= now\n\
        X-Note: =?utf-8?b?aHR0cDovL2IuZXhhbXBsZS94?=\n\
        X-Plain: =?utf-8?q?nothing?= http://c.example/\n\
        \n\
        body\n";
    let f = MailFinder::new(Finder::new());
    let found = f.matches(msg, Format::sniff(msg));
    let got: Vec<_> = found
        .iter()
        .map(|m| {
            let s = m.as_match().span();
            (
                String::from_utf8_lossy(m.as_match().url()).into_owned(),
                String::from_utf8_lossy(&msg[s.start..s.end]).into_owned(),
                m.decoded(),
            )
        })
        .collect();
    let want = [
        (
            "http://a.example/café",
            "=?utf-8?q?see_http://a.example/caf=C3=A9?=",
            true,
        ),
        ("http://b.example/x", "=?utf-8?b?aHR0cDovL2IuZXhhbXBsZS94?=", true),
        ("http://c.example/", "http://c.example/", false),
    ];
    let want: Vec<_> = want
        .iter()
        .map(|(u, s, d)| (u.to_string(), s.to_string(), *d))
        .collect();
    assert_eq!(got, want);
}

/// Metadata is read only when asked for, once per message, and shared
/// by its matches.
#[test]
fn metadata_per_message() {
    let msg = b"From x Fri Jan  5 12:00:00 2001\n\
        From: =?utf-8?q?Ren=C3=A9?= <r@a.example>\n\
        Subject: one\n\
        Date: Fri, 5 Jan 2001 12:00:00 -0800\n\
        \n\
        http://a.example/ http://b.example/\n\
        \n\
        From y Fri Jan  5 12:00:00 2001\n\
        Subject: two\n\
        \n\
        http://c.example/\n";
    let plain = MailFinder::new(Finder::new()).matches(msg, Format::Mbox);
    assert!(plain.iter().all(|m| m.metadata().is_none()));
    let f = MailFinder::builder().metadata(true).build(Finder::new());
    let found = f.matches(msg, Format::Mbox);
    assert_eq!(found.len(), 3);
    let (a, b, c) = (&found[0], &found[1], &found[2]);
    let meta = a.metadata().unwrap();
    assert!(std::sync::Arc::ptr_eq(meta, b.metadata().unwrap()));
    let from = meta.from.as_ref().unwrap();
    assert_eq!(from.name.as_deref(), Some("René"));
    assert_eq!(from.address.as_deref(), Some("r@a.example"));
    assert_eq!(meta.subject.as_deref(), Some("one"));
    assert_eq!(
        meta.date_utc.map(|d| d.to_string()).as_deref(),
        Some("2001-01-05T20:00:00Z")
    );
    let other = c.metadata().unwrap();
    assert_eq!(other.subject.as_deref(), Some("two"));
    assert!(other.from.is_none() && other.date_utc.is_none());
}

/// A sink that reads URLs alone ([`MailSink::reads_urls_alone`]): each
/// URL's text and offsets, however it came.
#[derive(Default)]
struct Alone(Vec<(Vec<u8>, u64, u64)>);

impl MailSink for Alone {
    type Error = io::Error;
    fn matched(&mut self, m: &MailMatch<'_>) -> io::Result<bool> {
        let url = m.as_match().url().to_vec();
        self.0.push((url, m.offset(), m.end_offset()));
        Ok(true)
    }
    fn reads_urls_alone(&self) -> bool {
        true
    }
    fn matched_url(&mut self, m: &Match<'_>, origin: u64) -> io::Result<bool> {
        let span = m.span();
        let (start, end) =
            (origin + span.start as u64, origin + span.end as u64);
        self.0.push((m.url().to_vec(), start, end));
        Ok(true)
    }
}

/// What a sink that reads URLs alone is given equals the matches and
/// offsets of the full records, in order, quoted-printable and base64
/// bodies, headers and the reader search included.
fn alone_agrees(f: &MailFinder, hay: &[u8]) {
    let mut all = Vec::new();
    f.find(hay, Format::Mbox, &mut Collect(&mut all)).unwrap();
    let want: Vec<_> = all
        .iter()
        .map(|m| (m.as_match().url().to_vec(), m.offset(), m.end_offset()))
        .collect();
    let mut got = Alone::default();
    f.find(hay, Format::Mbox, &mut got).unwrap();
    assert_eq!(got.0, want, "{:?}", String::from_utf8_lossy(hay));
    let mut read = Alone::default();
    f.find_reader(hay, Format::Mbox, &mut read).unwrap();
    assert_eq!(read.0, want, "{:?}", String::from_utf8_lossy(hay));
}

#[test]
fn urls_alone_are_the_records_urls() {
    let f = MailFinder::new(Finder::new());
    let hay = b"From a@b Thu Aug 22 13:17:22 2002\nSubject: http://s.example/\n\
        Content-Transfer-Encoding: quoted-printable\n\nsee http://q.example/a=3Db=\n\
        c http://r.example/ d\n\
        From a@b Thu Aug 22 13:17:22 2002\nContent-Transfer-Encoding: base64\n\n\
        aHR0cDovL2IuZXhhbXBsZS94IGh0dHA6Ly9jLmV4YW1wbGUveQ==\n\
        From a@b Thu Aug 22 13:17:22 2002\n\nhttp://n.example/ http://n.example/\n";
    alone_agrees(&f, hay);
    let mut all = Vec::new();
    f.find(hay, Format::Mbox, &mut Collect(&mut all)).unwrap();
    assert_eq!(all.len(), 7);
    alone_agrees(&f, &corpora_spool());
    // Read as streams, in pieces.
    for piece in [1, 7, 64, 4096] {
        let f = MailFinder::builder()
            .whole_message_len(16)
            .stream_piece_len(piece)
            .build(Finder::new());
        alone_agrees(&f, hay);
    }
}

proptest::proptest! {
    #[test]
    fn urls_alone_are_the_records_urls_of_any_spool(
        kinds in proptest::collection::vec(0..frame::tests::LINES.len(), 0..40),
        crlf: u64,
        open: bool,
        piece in proptest::option::of(1usize..64),
    ) {
        let mut f = MailFinder::builder();
        if let Some(piece) = piece {
            f.whole_message_len(16).stream_piece_len(piece);
        }
        let f = f.build(Finder::new());
        alone_agrees(&f, &frame::tests::spool(&kinds, crlf, open));
    }
}
