//! The match record as the fast writer writes it (its start once per
//! input, its metadata once per message) against the record built in
//! `record.rs` and written by serde, byte for byte: the two writers of a
//! match record held to each other on every field, for every container.

use super::*;
use crate::container::{
    Fields, MailFields, PartFields, Provenance, RecordPart, WebRecord,
};
use crate::driver::Hit;
use crate::mail::{self, Encoding, HtmlLink, Location, Mailbox};
use crate::output::escape;
use crate::output::json::HEADER_VALUES_CAP;
use crate::output::options::PrinterOptions;
use crate::output::record::{match_record, match_ref_memo};
use crate::output::record_ref::{MetaRef, RefMemo};
use crate::scan::{Flags, Kind};
use crate::search::Position;
use proptest::prelude::*;
use std::path::PathBuf;
use std::sync::Arc;

/// The HTML contexts of the links of a small HTML message.
fn links() -> Vec<Arc<HtmlLink>> {
    let hay = b"From a Fri Jan  5 12:00:00 2001\n\
Content-Type: text/html\n\
\n\
<a href=\"http://evil.example/\">www.paypal.com</a>\n\
<a href=\"http://a.example/\">caf\xc3\xa9 \"q\" \\ \xe2\x80\xae</a>\n\
<img src=\"http://img.example/p.png\"> http://text.example/\n\
<!-- http://comment.example/ --><script>x='http://s.example/'</script>\n";
    let finder = mail::MailFinder::builder()
        .html_context(true)
        .build(crate::search::Finder::default());
    let mut out = Vec::new();
    let mut sink = |m: &mail::MailMatch<'_>| {
        out.extend(m.html().cloned());
        true
    };
    let Ok(()) = finder.find(hay, mail::Format::Mbox, &mut sink);
    out
}

/// Strings with every kind of byte a record escapes.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z./:?=&%-]{0,40}",
        "\\PC{0,20}",
        any::<String>(),
        Just("\"\\\u{7f}\u{9b}\u{202e}\u{61c}é\u{0}\n".to_string()),
        // About FIELD_CAP characters: cut or not, at a character.
        "[a-z]{199,201}",
        "\\PC{199,202}",
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        text().prop_map(String::into_bytes),
        // hosts read by shape: `mailto:` addresses, authorities, any case
        "(mailto|MailTo|http|x):(//)?[a-zA-Z0-9@.:\\[\\]\"\\\\é/?#,-]{0,24}"
            .prop_map(String::into_bytes),
        proptest::collection::vec(any::<u8>(), 0..40),
        // About FIELD_CAP bytes (a Message-ID cut or not).
        proptest::collection::vec(any::<u8>(), 198..206),
    ]
}

fn opt<T: std::fmt::Debug>(
    s: impl Strategy<Value = T>,
) -> impl Strategy<Value = Option<T>> {
    proptest::option::of(s)
}

fn metadata() -> impl Strategy<Value = Metadata> {
    let from = opt((opt(text()), opt(text())))
        .prop_map(|f| f.map(|(name, address)| Mailbox { name, address }));
    let date = opt(prop_oneof![
        Just("Thu, 22 Aug 2002 18:26:25 +0700".to_string()),
        Just("Mon, 1 Jan 1900 00:00:00 -1200".to_string()),
        text(),
    ]);
    let headers = proptest::collection::vec(
        (
            text(),
            prop_oneof![
                proptest::collection::vec(text(), 0..3),
                // About HEADER_VALUES_CAP values.
                proptest::collection::vec(
                    "[a-z]{0,3}",
                    HEADER_VALUES_CAP..HEADER_VALUES_CAP + 2
                ),
            ],
        ),
        0..3,
    );
    (from, opt(text()), date, headers).prop_map(
        |(from, subject, date, headers)| Metadata {
            date_utc: date
                .as_deref()
                .and_then(|d| mail::date::parse(d.as_bytes())),
            from,
            subject,
            date,
            header_names: headers.iter().map(|(n, _)| n.clone()).collect(),
            header_values: values_by_index(&headers),
        },
    )
}

/// A web-archive record with every field set or not, its strings any.
fn web_record() -> impl Strategy<Value = WebRecord> {
    (
        prop_oneof![Just("warc"), Just("arc")],
        text(),
        (opt(text()), opt(text()), opt(text()), opt(text())),
        opt(any::<u64>()),
    )
        .prop_map(
            |(format, kind, (target_uri, date, id, content_type), gz)| {
                WebRecord {
                    format,
                    kind,
                    target_uri,
                    date,
                    id,
                    content_type,
                    gz_offset: gz,
                }
            },
        )
}

/// `headers` (name, values) as [`Metadata::header_values`].
fn values_by_index(headers: &[(String, Vec<String>)]) -> Vec<(usize, String)> {
    let each = headers.iter().enumerate();
    each.flat_map(|(i, (_, v))| v.iter().map(move |s| (i, s.clone())))
        .collect()
}

/// One match: which input (of the inputs), which metadata (of the
/// metadata), and the rest of its fields.
#[derive(Debug, Clone)]
struct One {
    input: usize,
    meta: Option<usize>,
    html: Option<usize>,
    mail: bool,
    /// A web-archive record (of the records), when not mail.
    web: Option<usize>,
    url: Vec<u8>,
    host: Option<(usize, usize)>,
    scheme: String,
    id: Option<Vec<u8>>,
    defanged: Option<Vec<u8>>,
    numbers: [u64; 6],
    kind: usize,
    flags: u8,
    repaired: bool,
    location: bool,
    encoding: usize,
    decoded: bool,
}

fn one() -> impl Strategy<Value = One> {
    (
        (
            0usize..4,
            opt(0usize..4),
            opt(0usize..8),
            any::<bool>(),
            opt(0usize..4),
        ),
        (
            bytes(),
            opt((0usize..50, 0usize..50)),
            text(),
            opt(bytes()),
            opt(bytes()),
        ),
        (any::<[u64; 6]>(), 0usize..8, any::<u8>()),
        (any::<bool>(), any::<bool>(), 0usize..4, any::<bool>()),
    )
        .prop_map(|(a, b, c, d)| One {
            input: a.0,
            meta: a.1,
            html: a.2,
            mail: a.3,
            web: a.4,
            url: b.0,
            host: b.1,
            scheme: b.2,
            id: b.3,
            defanged: b.4,
            numbers: c.0,
            kind: c.1,
            flags: c.2,
            repaired: d.0,
            location: d.1,
            encoding: d.2,
            decoded: d.3,
        })
}

fn sources() -> Vec<Source> {
    use std::os::unix::ffi::OsStrExt;
    let odd = std::ffi::OsStr::from_bytes(b"caf\xe9 \"%\\.txt");
    vec![
        Source::Path(PathBuf::from("/tmp/a.mbox")),
        Source::Path(PathBuf::from(odd)),
        Source::Stdin,
        Source::Path(PathBuf::from("b/\u{202e}\n.eml")),
    ]
}

/// Writes `ones` in order with one writer, and each also as the record
/// built whole and written by serde; the two the same for every match.
/// The record built with what the records before it left
/// ([`RefMemo`], as `Format::RecordRefs` builds them) is the same too.
fn same(ones: &[One], metas: &[Metadata], webs: &[WebRecord]) {
    let mut metas: Vec<Arc<Metadata>> =
        metas.iter().cloned().map(Arc::new).collect();
    // The first again, another allocation: the same fields, another
    // message's ([`MetaRef::is_from`] tells them apart).
    if let Some(first) = metas.first() {
        metas.insert(1, Arc::new(Metadata::clone(first)));
    }
    let webs: Vec<Arc<dyn RecordPart>> = webs
        .iter()
        .map(|w| Arc::new(w.clone()) as Arc<dyn RecordPart>)
        .collect();
    let opts = PrinterOptions {
        stdin_label: "<st\"din>".into(),
        ..PrinterOptions::default()
    };
    let cx = Ctx { opts: &opts };
    let inputs: Vec<Input> = sources()
        .into_iter()
        .map(|source| Input {
            source,
            size: None,
            regular: true,
            walked: false,
            anchor: None,
        })
        .collect();
    let links = links();
    assert!(links.len() >= 5, "{}", links.len());
    assert!(links.iter().any(|h| h.text_host_differs()));
    let kinds = [
        Kind::Wrapped,
        Kind::Angle,
        Kind::Quoted,
        Kind::Bare,
        Kind::Email,
        Kind::Www,
        Kind::Domain,
        Kind::NetworkPath,
    ];
    let encodings = [
        Encoding::Identity,
        Encoding::QuotedPrintable,
        Encoding::Base64,
        Encoding::QpRepair,
    ];
    let mut writer = JsonLines::default();
    let mut out: Vec<u8> = Vec::new();
    let mut memo = RefMemo::default();
    let mut last_meta = None;
    for o in ones {
        let mut flags = Flags::default();
        for (k, (f, _)) in Flags::ALL.iter().enumerate() {
            if o.flags & (1 << k) != 0 {
                flags.insert(*f);
            }
        }
        let host = o.host.and_then(|(a, b)| o.url.get(a..a.max(b)));
        let [start, end, line, column, message, message_offset] = o.numbers;
        let web = o.web.and_then(|k| webs.get(k));
        let hit = Hit {
            at: Position { start, end, line, column },
            url: &o.url,
            kind: kinds[o.kind % kinds.len()],
            scheme: crate::parse::Scheme::Http,
            host,
            flags,
            reject: None,
            record: (o.mail || web.is_some()).then(|| Provenance {
                index: message,
                offset: message_offset,
                id: o.id.as_deref(),
                fields: match web {
                    Some(part) if !o.mail => Fields::Part(PartFields {
                        part,
                        html: o.html.and_then(|k| links.get(k)),
                    }),
                    _ => Fields::Mail(MailFields {
                        meta: o.meta.and_then(|k| metas.get(k)),
                        part: (start % 7) as usize,
                        location: if o.location {
                            Location::Header
                        } else {
                            Location::Body
                        },
                        encoding: encodings[o.encoding % encodings.len()],
                        decoded: o.decoded,
                        html: o.html.and_then(|k| links.get(k)),
                        lines: None,
                    }),
                },
            }),
            repaired: o.repaired,
            defanged: o.defanged.as_deref(),
        };
        let url = Url {
            input: &inputs[o.input % inputs.len()],
            hit: &hit,
            text: &o.url,
            scheme: &o.scheme,
        };
        out.clear();
        writer.url(&mut out, &cx, &url).expect("writes to a Vec");
        // The record of `Format::Records` (built once, in record.rs),
        // owned and written by serde.
        let rec = Record::Match(match_record(&cx, &url)).into_owned();
        let kept = match_ref_memo(&cx, &url, &mut memo);
        // Its metadata is held as the message's URLs share it: the same
        // allocation as the last record's is from its source, another
        // (however equal) is not; unshared metadata has no source.
        let shared = hit.record.as_ref().and_then(|r| r.mail()?.meta);
        match (kept.mail.as_ref().and_then(|m| m.meta.as_ref()), shared) {
            (Some(m), Some(a)) => {
                if let Some((source, was)) = &last_meta {
                    assert_eq!(m.is_from(source), Arc::ptr_eq(a, was));
                }
                let source = m.source().expect("a shared metadata's source");
                assert!(m.is_from(&source));
                assert!(MetaRef::new(a).source().is_none());
                last_meta = Some((source, Arc::clone(a)));
            }
            (None, None) => {}
            _ => panic!("a record's metadata is its message's: {o:?}"),
        }
        let kept = kept.into_record();
        assert_eq!(Record::Match(kept).into_owned(), rec, "{o:?}");
        let mut by_serde = Vec::new();
        escape::write_json(&mut by_serde, &rec).expect("serializes");
        by_serde.push(b'\n');
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&by_serde),
            "{o:?}"
        );
    }
}

proptest! {
    #[test]
    fn a_record_as_written_whole(
        metas in proptest::collection::vec(metadata(), 1..4),
        webs in proptest::collection::vec(web_record(), 1..4),
        ones in proptest::collection::vec(one(), 1..24),
    ) {
        same(&ones, &metas, &webs);
    }
}

/// The same input and metadata over and over, then changed one field at
/// a time: what is kept is the same only while its input and metadata
/// are.
#[test]
fn kept_parts_follow_their_input_and_message() {
    let base = Metadata {
        from: Some(Mailbox {
            name: Some("Bob".into()),
            address: Some("bob@a.example".into()),
        }),
        subject: Some("Re: x".into()),
        date: Some("Thu, 22 Aug 2002 18:26:25 +0700".into()),
        date_utc: mail::date::parse(b"Thu, 22 Aug 2002 18:26:25 +0700"),
        header_names: Arc::from(["x-a".to_string()]),
        header_values: vec![(0, "1".into())],
    };
    let mut metas = vec![base.clone(); 6];
    metas[1].subject = Some("Re: y".into());
    metas[2].from = None;
    metas[3].date_utc = mail::date::parse(b"Fri, 23 Aug 2002 18:26:25 +0700");
    metas[4].header_values[0].1 = "2".into();
    metas[5].date = None;
    let mut ones = Vec::new();
    for input in [0, 0, 1, 1, 2, 2, 3, 0] {
        for meta in [
            Some(0),
            Some(0),
            Some(1),
            None,
            Some(2),
            Some(3),
            Some(4),
            Some(5),
            Some(0),
        ] {
            ones.push(One {
                input,
                meta,
                html: None,
                mail: true,
                web: None,
                url: b"http://a.example/".to_vec(),
                host: Some((7, 16)),
                scheme: "http".into(),
                id: Some(b"<1@a>".to_vec()),
                defanged: (input == 1)
                    .then(|| b"hxxp://a[.]example/".to_vec()),
                numbers: [1, 2, 3, 4, 5, 6],
                kind: 3,
                flags: 0,
                repaired: false,
                location: false,
                encoding: 0,
                decoded: false,
            });
        }
    }
    same(&ones, &metas, &[]);
}

/// The `mail` object kept for a message's matches is written again when
/// any field of it changes: the message, its id, its metadata, the part,
/// location, encoding or `decoded` of the text.
#[test]
fn the_kept_mail_object_follows_its_text() {
    let other = Metadata { subject: Some("x".into()), ..Metadata::default() };
    let metas = [Metadata::default(), other];
    let base = One {
        input: 0,
        meta: Some(0),
        html: None,
        mail: true,
        web: None,
        url: b"http://a.example/".to_vec(),
        host: Some((7, 16)),
        scheme: "http".into(),
        // (An id is kept by its address: each `One`'s is its own.)
        id: None,
        defanged: None,
        numbers: [1, 2, 3, 4, 5, 6],
        kind: 3,
        flags: 0,
        repaired: false,
        location: false,
        encoding: 0,
        decoded: false,
    };
    let changes: [fn(&mut One); 8] = [
        |_| {},
        |o| o.meta = Some(1),
        |o| o.meta = None,
        |o| o.id = Some(b"<2@a>".to_vec()),
        |o| o.numbers[0] = 2, // the part
        |o| o.location = true,
        |o| o.encoding = 1,
        |o| o.decoded = true,
    ];
    let mut ones = Vec::new();
    // Each change from and back to the base, in the same message, then
    // the next message.
    for change in changes {
        let mut changed = base.clone();
        change(&mut changed);
        let mut next = base.clone();
        next.numbers[4] += 1;
        for o in [&base, &base, &changed, &changed, &base, &next] {
            ones.push(o.clone());
        }
    }
    same(&ones, &metas, &[]);
}

/// A message's metadata is compared whole once, not once a match: each
/// comparison of a 100 KB Subject read it all (2.7 MB and 150,000 URLs
/// took 11 s of CPU).
#[test]
fn metadata_compared_once_a_message() {
    let big =
        Metadata { subject: Some("s".repeat(100_000)), ..Metadata::default() };
    let other = Metadata { subject: Some("t".into()), ..Metadata::default() };
    let mut m = MetaJson::default();
    let mut out = Vec::new();
    for _ in 0..1000 {
        m.write(&mut out, &big, 3, 100);
    }
    assert_eq!(m.compared, 1);
    let once = out.len() / 1000;
    m.write(&mut out, &other, 4, 200);
    m.write(&mut out, &big, 3, 100);
    assert_eq!(m.compared, 3);
    // The same message in the next input is compared again.
    m.new_input();
    m.write(&mut out, &big, 3, 100);
    assert_eq!(m.compared, 4);
    let want = format!(
        r#","subject":"{}","subject_truncated":true"#,
        "s".repeat(200)
    );
    assert_eq!(once, want.len());
}
