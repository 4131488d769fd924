//! The stream against the walk of a message held whole: the same
//! matches, whatever the pieces the message arrives in.

use super::super::frame::messages;
use super::super::{Format, MailFinder, MailMatch, MailSink, Message};
use super::StreamMsg;
use crate::Finder;
use std::convert::Infallible;
use std::path::Path;

/// What a match says, by absolute offsets.
type Seen = (
    u64,
    u64,
    Vec<u8>,
    usize,
    usize,
    &'static str,
    &'static str,
    bool,
    u64,
    Option<Vec<u8>>,
);

fn seen(m: &MailMatch<'_>) -> Seen {
    (
        m.offset(),
        m.end_offset(),
        m.as_match().url().to_vec(),
        m.message(),
        m.part(),
        m.location().name(),
        m.encoding().name(),
        m.decoded(),
        m.message_offset(),
        m.message_id().map(<[u8]>::to_vec),
    )
}

struct Collect {
    got: Vec<Seen>,
    messages: usize,
    settled: u64,
}

impl MailSink for Collect {
    type Error = Infallible;
    fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, Infallible> {
        assert!(
            m.offset() >= self.settled,
            "a match before the settled offset"
        );
        self.got.push(seen(m));
        Ok(true)
    }
    fn message(&mut self, _: &Message<'_>) -> Result<bool, Infallible> {
        self.messages += 1;
        Ok(true)
    }
    fn settled(&mut self, offset: u64) {
        assert!(offset >= self.settled, "settled went back");
        self.settled = offset;
    }
}

fn sink() -> Collect {
    Collect { got: Vec::new(), messages: 0, settled: 0 }
}

/// Every message of `hay` (framed as `format`), walked whole.
fn walked(mf: &MailFinder, hay: &[u8], format: Format) -> Vec<Seen> {
    mf.matches(hay, format).iter().map(seen).collect()
}

/// Every message of `hay`, each streamed in pieces of `step` bytes.
fn streamed(
    mf: &MailFinder,
    hay: &[u8],
    format: Format,
    step: usize,
) -> Vec<Seen> {
    let mut out = sink();
    for msg in messages(hay, format) {
        let span = msg.span();
        let bytes = &hay[span.start..span.end];
        let Ok(Some(mut s)) =
            StreamMsg::start(mf, msg.index(), span.start as u64, &mut out)
        else {
            panic!("the sink stopped");
        };
        out.settled = 0;
        for piece in bytes.chunks(step.max(1)) {
            let Ok(true) = s.feed(piece, &mut out) else { panic!("stopped") };
        }
        let Ok(true) = s.finish(&mut out) else { panic!("stopped") };
        out.settled = 0;
    }
    out.got
}

fn check(name: &str, hay: &[u8], format: Format, steps: &[usize]) -> usize {
    let mf = MailFinder::builder().metadata(false).build(Finder::new());
    let want = walked(&mf, hay, format);
    for &step in steps {
        let got = streamed(&mf, hay, format, step);
        if got != want {
            let k = got
                .iter()
                .zip(&want)
                .position(|(a, b)| a != b)
                .unwrap_or(got.len().min(want.len()));
            panic!(
                "{name}, pieces of {step}: {} matches streamed, {} walked; first difference at {k}:\n  streamed {:?}\n  walked   {:?}",
                got.len(),
                want.len(),
                got.get(k),
                want.get(k)
            );
        }
    }
    want.len()
}

const MIME: &[u8] = b"From a@b Thu Aug 22 13:17:22 2002\n\
Message-ID: <1@x>\n\
List-Archive: <https://lists.example.org/archive/>\n\
Subject: =?utf-8?q?see_http://subject.example/=C3=A9?=\n\
Content-Type: multipart/mixed; boundary=\"outer\"\n\
\n\
preamble http://preamble.example/\n\
--outer\n\
Content-Type: text/plain; format=flowed\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
see http://a.example/x?y=3D1&z=\n\
=3D2 and http://flowed.example/lo \n\
ng/path\n\
--outer\n\
Content-Type: multipart/alternative; boundary=inner\n\
\n\
--inner\n\
Content-Type: text/html\n\
\n\
<a href=\"http://h.example/?a=1&amp;b=2\">x</a> &lt;http://lt.example/&gt;\n\
--inner\n\
Content-Type: text/plain\n\
Content-Transfer-Encoding: base64\n\
\n\
aHR0cDovL2I2NC5leGFtcGxlL3BhdGg/cT0x\r\n\
IGFuZCBodHRwOi8vdHdvLmV4YW1wbGUv\n\
\n\
-- \n\
footer http://footer.example/\n\
--inner--\n\
inner epilogue http://inner-epi.example/\n\
--outer\n\
Content-Type: message/rfc822\n\
\n\
Message-ID: <2@x>\n\
X-Url: http://nested-header.example/\n\
Content-Type: text/plain\n\
\n\
nested body http://nested.example/\n\
--outer\n\
Content-Type: image/png\n\
Content-Transfer-Encoding: base64\n\
\n\
aHR0cDovL2ltYWdlLmV4YW1wbGUv\n\
--outer--\n\
epilogue http://epilogue.example/\n";

#[test]
fn mime_pieces() {
    let n =
        check("mime", MIME, Format::Mbox, &[1, 2, 3, 5, 7, 16, 61, 100, 4096]);
    assert!(n >= 12, "{n} matches");
    let crlf: Vec<u8> = MIME
        .split(|&b| b == b'\n')
        .flat_map(|l| l.iter().copied().chain(*b"\r\n"))
        .collect();
    check("mime crlf", &crlf, Format::Mbox, &[1, 3, 64, 4096]);
}

#[test]
fn odd_shapes() {
    let cases: &[&[u8]] = &[
        b"",
        b"Subject: x\n",
        b"Subject: http://a.example/",
        b"no header http://a.example/\n",
        b"Content-Type: multipart/mixed; boundary=b\n\n--b--\nhttp://a.example/\n--b\nhttp://c.example/\n",
        b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: message/rfc822\n--b\nX: http://x.example/\n\nhttp://y.example/\n",
        b"Content-Type: multipart/mixed; boundary=b\n\n--b\nX-A: http://a.example/\n--b\r\n\r\nhttp://b.example/",
        b"Content-Type: multipart/digest; boundary=d\n\n--d\n\nX: http://digest.example/\n\nbody http://db.example/\n--d--\n",
        b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\naHR0cDovL2EuZXhhbXBsZS8=\naHR0cDovL2IuZXhhbXBsZS8=\n",
        b"Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\nhttp://a.example/=\n=\nb=",
        b"X: <URL:http://wrapped.\n example/path>\n\n<URL:http://body.\n  example/x-\n  y>\n",
        b"\n\nhttp://a.example/\n",
    ];
    for (k, case) in cases.iter().enumerate() {
        for format in [Format::Message, Format::Mbox] {
            check(&format!("case {k}"), case, format, &[1, 2, 5, 4096]);
        }
    }
}

/// The corpora bundled with the repository, every message streamed.
#[test]
fn bundled_corpora() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut total = 0;
    for p in files {
        let Ok(hay) = std::fs::read(&p) else { continue };
        let format = Format::sniff(&hay);
        if format == Format::Unknown {
            continue;
        }
        total += check(
            &p.display().to_string(),
            &hay,
            format,
            &[97, 4096, 1 << 20],
        );
    }
    assert!(total > 100, "{total} matches in the bundled corpora");
}

/// Feeds `pieces` pieces made by `piece` into one streamed message after
/// `head`, and returns the URLs found and the most the stream held.
fn fed(
    head: &[u8],
    pieces: usize,
    mut piece: impl FnMut(usize) -> Vec<u8>,
    tail: &[u8],
) -> (usize, usize) {
    let mf = MailFinder::new(Finder::new());
    let mut out = sink();
    let Ok(Some(mut s)) = StreamMsg::start(&mf, 0, 0, &mut out) else {
        panic!("stopped")
    };
    let mut most = 0;
    let Ok(true) = s.feed(head, &mut out) else { panic!("stopped") };
    for k in 0..pieces {
        let Ok(true) = s.feed(&piece(k), &mut out) else { panic!("stopped") };
        most = most.max(s.held());
    }
    let Ok(true) = s.feed(tail, &mut out) else { panic!("stopped") };
    most = most.max(s.held());
    let Ok(true) = s.finish(&mut out) else { panic!("stopped") };
    (out.got.len(), most)
}

/// Memory stays bounded whatever the sizes: of a part, a header, a
/// header field, a line, the number of parts or of references.
#[test]
fn held_memory_is_bounded() {
    const BOUND: usize = 2 << 20;
    let b64 = |k: usize| {
        let text: Vec<u8> = (0..2000)
            .flat_map(|i| format!("http://u{k}x{i}.example/\n").into_bytes())
            .collect();
        use base64::Engine;
        let enc = base64::engine::general_purpose::STANDARD.encode(&text);
        let mut out = Vec::new();
        for line in enc.as_bytes().chunks(76) {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
        out
    };
    type Piece = Box<dyn FnMut(usize) -> Vec<u8>>;
    type Case = (&'static str, &'static [u8], Piece, &'static [u8], usize);
    let cases: Vec<Case> = vec![
        (
            "base64 part",
            b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n",
            Box::new(b64),
            b"",
            200 * 2000,
        ),
        (
            "header fields",
            b"Subject: x\n",
            Box::new(|k| {
                format!("X-F{k}: a\nX-G: http://h.example/{k}\n")
                    .repeat(64)
                    .into_bytes()
            }),
            b"\nbody\n",
            64 * 200,
        ),
        (
            "one header field",
            b"X-Long: http://long.example/ ",
            Box::new(|_| {
                b" folded\n continued http://in.example/ ".repeat(2000)
            }),
            b"\n\nhttp://body.example/\n",
            200 * 2000 + 2,
        ),
        (
            "a line of zeros",
            b"Subject: y\n\n",
            Box::new(|_| vec![0u8; 1 << 16]),
            b" http://after.example/\n",
            1,
        ),
        (
            "empty parts",
            b"Content-Type: multipart/mixed; boundary=b\n\n",
            Box::new(|_| b"--b\n\n".repeat(4096)),
            b"--b\n\nhttp://last.example/\n--b--\n",
            1,
        ),
        (
            "references",
            b"Content-Type: text/html\n\n",
            Box::new(|k| {
                format!(
                    "&amp;&#x41;&lt;http://r{k}.example/?a=1&amp;b=2&gt;\n"
                )
                .repeat(100)
                .into_bytes()
            }),
            b"",
            200 * 100,
        ),
    ];
    for (name, head, piece, tail, want) in cases {
        let (found, most) = fed(head, 200, piece, tail);
        assert_eq!(found, want, "{name}: URLs found (held {most})");
        assert!(most < BOUND, "{name}: held {most} bytes");
    }
}

/// The metadata of each match of `msg`, streamed in pieces of `step`
/// bytes with metadata asked for and `X-Tag` among the fields.
fn metas(
    msg: &[u8],
    step: usize,
) -> Vec<(String, Option<super::super::Metadata>)> {
    struct Metas(Vec<(String, Option<super::super::Metadata>)>);
    impl MailSink for Metas {
        type Error = Infallible;
        fn matched(&mut self, m: &MailMatch<'_>) -> Result<bool, Infallible> {
            let url = String::from_utf8_lossy(m.as_match().url()).into_owned();
            self.0.push((url, m.metadata().map(|a| (**a).clone())));
            Ok(true)
        }
    }
    let mf = MailFinder::builder()
        .metadata(true)
        .header_fields(["X-Tag"])
        .build(Finder::new());
    let mut out = Metas(Vec::new());
    let Ok(Some(mut s)) = StreamMsg::start(&mf, 0, 0, &mut out) else {
        panic!("stopped")
    };
    for piece in msg.chunks(step) {
        let Ok(true) = s.feed(piece, &mut out) else { panic!("stopped") };
    }
    let Ok(true) = s.finish(&mut out) else { panic!("stopped") };
    out.0
}

#[test]
fn fields_after_a_long_field_are_read() {
    // Issue 33.8: a field too long to hold (over 256 KiB) hid every
    // field after it from the metadata: Subject and Date were lost.
    let tail = "Subject: the subject\nDate: Fri, 5 Jan 2001 12:00:00 +0000\n\
X-Tag: one\n\nhttp://body.example/\n";
    let msg = format!(
        "From: a@b.example\nX-Tag: zero\nX-Long: {}\n{tail}",
        "a".repeat(300_000)
    );
    // Whole, the long line is seen at once; in pieces, as it comes.
    for step in [msg.len(), 1 << 16, 4099] {
        let got = metas(msg.as_bytes(), step);
        assert_eq!(got.len(), 1);
        let m = got[0].1.as_ref().expect("metadata");
        assert_eq!(m.subject.as_deref(), Some("the subject"), "{step}");
        let date = m.date.as_deref();
        assert_eq!(date, Some("Fri, 5 Jan 2001 12:00:00 +0000"));
        assert!(m.date_utc.is_some());
        let from = m.from.as_ref().and_then(|f| f.address.as_deref());
        assert_eq!(from, Some("a@b.example"));
        assert_eq!(m.headers(), [("x-tag", vec!["zero", "one"])]);
    }
    // The long field itself is a metadata field: its first 16 KiB are
    // kept, and the fields after it read all the same.
    let msg = format!(
        "From: a@b.example\nSubject: {} http://subject.example/\n{tail}",
        "s".repeat(300_000)
    );
    let got = metas(msg.as_bytes(), msg.len());
    let urls: Vec<_> = got.iter().map(|g| g.0.as_str()).collect();
    assert_eq!(urls, ["http://subject.example/", "http://body.example/"]);
    let m = got[1].1.as_ref().expect("metadata");
    let subject = m.subject.as_deref().unwrap_or_default();
    let kept = super::head::LONG_KEPT;
    assert!(subject.starts_with("sss") && subject.len() < kept);
    assert_eq!(m.date.as_deref(), Some("Fri, 5 Jan 2001 12:00:00 +0000"));
    assert_eq!(m.headers()[0].1, ["one"]);
}
