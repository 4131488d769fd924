//! Mail framing and decoding: constructed inputs, and the mail corpora of
//! `../shared/corpora` (skipped with a message when it is absent).
//!
//! - `mbox_*`, `maildir_*`: message boundaries are exact.
//! - `spamassassin_*`: quoted-printable URLs are whole and decoded; every
//!   match's span covers the bytes it was decoded from.
//! - `blinux_*`: base64 text parts yield their URLs.
//! - `python_dev_*`: 9,232 messages, as PROVENANCE counts them.

mod support;

use base64::Engine;
use proptest::strategy::Strategy;
use support::corpus::corpus;
use urlgrep::mail::{
    messages, Encoding, Format, Location, MailFinder, MailMatch,
};
use urlgrep::Finder;

fn all(hay: &[u8]) -> Vec<MailMatch<'static>> {
    let format = match Format::sniff(hay) {
        Format::Unknown => Format::Message,
        f => f,
    };
    MailFinder::new(Finder::new()).matches(hay, format)
}

/// Independent quoted-printable decoder for checks (RFC 2045 §6.7).
fn qp_decode(src: &[u8]) -> Vec<u8> {
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut out = Vec::new();
    let mut i = 0;
    while i < src.len() {
        if src[i] == b'=' {
            let rest = &src[i + 1..];
            if rest.starts_with(b"\n") {
                i += 2;
                continue;
            }
            if rest.starts_with(b"\r\n") {
                i += 3;
                continue;
            }
            if let [h, l, ..] = rest {
                if let (Some(h), Some(l)) = (hex(*h), hex(*l)) {
                    out.push(h << 4 | l);
                    i += 3;
                    continue;
                }
            }
        }
        out.push(src[i]);
        i += 1;
    }
    out
}

/// HTML character references decoded, for checks.
fn html(t: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i] == b'&' {
            if let Some(semi) = t[i..].iter().take(12).position(|&b| b == b';')
            {
                let name = &t[i + 1..i + semi];
                let ch = match name {
                    b"amp" => Some('&'),
                    b"quot" => Some('"'),
                    b"lt" => Some('<'),
                    b"gt" => Some('>'),
                    b"nbsp" => Some(' '),
                    [b'#', b'x' | b'X', h @ ..] => std::str::from_utf8(h)
                        .ok()
                        .and_then(|h| u32::from_str_radix(h, 16).ok())
                        .and_then(char::from_u32),
                    [b'#', d @ ..] => std::str::from_utf8(d)
                        .ok()
                        .and_then(|d| d.parse().ok())
                        .and_then(char::from_u32),
                    _ => None,
                };
                if let Some(c) = ch {
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    i += semi + 1;
                    continue;
                }
            }
        }
        out.push(t[i]);
        i += 1;
    }
    out
}

/// Whether `text`, or `text` with HTML references decoded, wrapper
/// whitespace and `>` quote prefixes removed, holds `url`.
fn holds(text: &[u8], url: &[u8]) -> bool {
    let contains = |t: &[u8]| t.windows(url.len()).any(|w| w == url);
    let squeeze = |t: &[u8]| -> Vec<u8> {
        t.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect()
    };
    let unquote = |t: &[u8]| -> Vec<u8> {
        squeeze(t).into_iter().filter(|&b| b != b'>').collect()
    };
    let h = html(text);
    // An HTML attribute value's spaces are printed as `%20` (issue 34.2).
    let unspaced: Vec<u8> = {
        let mut v = Vec::with_capacity(url.len());
        let mut i = 0;
        while i < url.len() {
            if url[i..].starts_with(b"%20") {
                i += 3;
            } else {
                v.push(url[i]);
                i += 1;
            }
        }
        v
    };
    let spaced = |t: &[u8]| {
        unspaced.len() < url.len()
            && squeeze(t).windows(unspaced.len()).any(|w| w == unspaced)
    };
    url.is_empty()
        || contains(text)
        || contains(&squeeze(text))
        || contains(&unquote(text))
        || contains(&h)
        || contains(&squeeze(&h))
        || spaced(text)
        || spaced(&h)
}

/// Whether the original bytes of a match decode to text holding its URL.
fn span_holds_url(hay: &[u8], m: &MailMatch<'_>) -> bool {
    let s = m.as_match().span();
    let orig = &hay[s.start..s.end];
    let url = m.as_match().url();
    match m.encoding() {
        Encoding::Base64 => {
            let chars: Vec<u8> = orig
                .iter()
                .copied()
                .filter(|b| b.is_ascii_alphanumeric() || b"+/".contains(b))
                .collect();
            let engine = base64::engine::general_purpose::STANDARD_NO_PAD;
            // The first and last bytes of the URL may sit in quanta cut by
            // the span: look for its middle.
            let end = url.len().saturating_sub(3);
            let mid = url.get(3..end).unwrap_or(&[]);
            (0..4).any(|skip| {
                let c = chars.get(skip..).unwrap_or(&[]);
                let c = &c[..c.len() - c.len() % 4];
                engine.decode(c).is_ok_and(|d| holds(&d, mid))
            })
        }
        Encoding::QuotedPrintable => holds(&qp_decode(orig), url),
        _ => holds(orig, url),
    }
}

#[test]
fn mbox_boundaries_constructed() {
    let spool: &[u8] = b"From a@example.org Thu Aug 22 13:17:22 2002\n\
Message-ID: <1@x>\n\
\n\
>From here the body goes on\n\
From now on, an unquoted body line\n\
\n\
From b@example.org  Fri Aug 23 01:02:03 2002 +0100\n\
Message-ID: <2@x>\n\
\n\
>>From quoted twice http://a.example/\n\
\n\
From c at example.org  Sat Aug 24 01:02:03 2002\n\
\n\
last http://b.example/";
    let ms: Vec<_> = messages(spool, Format::Mbox).collect();
    assert_eq!(ms.len(), 3);
    let starts: Vec<usize> = ms.iter().map(|m| m.span().start).collect();
    let expect: Vec<usize> = [&b"From a@"[..], b"From b@", b"From c "]
        .iter()
        .map(|p| spool.windows(p.len()).position(|w| w == *p).unwrap())
        .collect();
    assert_eq!(starts, expect);
    assert_eq!(ms[0].span().end, ms[1].span().start);
    assert_eq!(ms[2].span().end, spool.len());
    assert_eq!(ms[1].message_id(), Some(&b"<2@x>"[..]));
    let found = all(spool);
    let got: Vec<(usize, &[u8])> =
        found.iter().map(|m| (m.message(), m.as_match().url())).collect();
    assert_eq!(
        got,
        [(1, &b"http://a.example/"[..]), (2, b"http://b.example/")]
    );
}

#[test]
fn maildir_one_message_per_file() {
    // A Maildir file is one message even when its body holds lines that
    // look like mbox separators.
    let file: &[u8] = b"Return-Path: <a@b>\nMessage-ID: <m@x>\n\n\
From a@example.org Thu Aug 22 13:17:22 2002\nhttp://a.example/\n";
    assert_eq!(Format::sniff(file), Format::Message);
    let ms: Vec<_> = messages(file, Format::Message).collect();
    assert_eq!(ms.len(), 1);
    assert_eq!(ms[0].span().len(), file.len());
    let found = all(file);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].message_id(), Some(&b"<m@x>"[..]));
    assert_eq!(found[0].location(), Location::Body);
}

#[test]
fn python_dev_message_count() {
    let Some(files) =
        corpus("python-dev", "python-dev-1999-04_2000-03.tar.gz")
    else {
        return;
    };
    let mut total = 0;
    for (name, hay) in &files {
        assert_eq!(Format::sniff(hay), Format::Mbox, "{name}");
        for m in messages(hay, Format::Mbox) {
            let s = m.span();
            assert!(
                urlgrep::mail::is_separator(hay, s.start),
                "{name} @{}",
                s.start
            );
            total += 1;
        }
    }
    assert_eq!(total, 9232);
}

#[test]
fn spamassassin_qp_urls_are_whole() {
    let Some(files) =
        corpus("spamassassin", "spamassassin-public-corpus.tar.gz")
    else {
        return;
    };
    let (mut qp, mut decoded, mut checked) = (0, 0, 0);
    for (name, hay) in &files {
        // Every file is one message with its mbox envelope line.
        assert_eq!(messages(hay, Format::sniff(hay)).count(), 1, "{name}");
        for m in all(hay) {
            assert!(span_holds_url(hay, &m), "{name}: {m:?}");
            checked += 1;
            if m.encoding() != Encoding::QuotedPrintable {
                continue;
            }
            qp += 1;
            decoded += usize::from(m.decoded());
            let s = m.as_match().span();
            let url = m.as_match().url();
            // Not cut at a soft line break: after the span, soft breaks
            // lead to a byte that ends a URL.
            let mut rest = &hay[s.end..];
            while let Some(r) = rest
                .strip_prefix(b"=\n")
                .or_else(|| rest.strip_prefix(b"=\r\n"))
            {
                rest = r;
            }
            if rest.len() < hay.len() - s.end {
                let next = qp_decode(&rest[..rest.len().min(3)]);
                let next = next.first().copied().unwrap_or(b' ');
                assert!(
                    !(next.is_ascii_alphanumeric()
                        || b"/%&=#-_~+".contains(&next)),
                    "{name}: {m:?} stops at a soft break"
                );
            }
            // No escape left undecoded, unless the sender encoded twice
            // (`=3D3D`) or split an escape over a soft break (`==\n3D`).
            let orig = &hay[s.start..s.end];
            let twice =
                orig.windows(5).any(|w| w.eq_ignore_ascii_case(b"=3D3D"))
                    || orig.windows(4).any(|w| w == b"=\n3D" || w == b"=\n3d");
            if url.windows(3).any(|w| w == b"=3D") {
                assert!(twice, "{name}: {m:?} keeps =3D");
            }
        }
    }
    eprintln!("{checked} matches, {qp} from quoted-printable, {decoded} changed by decoding");
    assert!(qp > 3000 && decoded > 1000);
}

#[test]
fn blinux_base64_text_parts() {
    let Some(files) = corpus("blinux-list", "blinux-list.tar.gz") else {
        return;
    };
    let finder = Finder::new();
    let (mut b64, mut only_b64_msgs) = (0, 0);
    for (name, hay) in &files {
        let found = all(hay);
        let raw: std::collections::HashSet<Vec<u8>> =
            finder.find_iter(hay).map(|m| m.url().to_vec()).collect();
        let mut hidden = false;
        for m in &found {
            assert!(span_holds_url(hay, m), "{name}: {m:?}");
            if m.encoding() == Encoding::Base64 {
                b64 += 1;
                hidden |= !raw.contains(m.as_match().url());
            }
        }
        only_b64_msgs += usize::from(hidden);
    }
    eprintln!("{b64} URLs from base64 parts; {only_b64_msgs} messages with URLs a raw scan misses");
    assert!(b64 > 500, "{b64}");
    assert!(only_b64_msgs > 100, "{only_b64_msgs}");
}

/// Quoted-printable encodes `plain` with `=` escaped and soft line breaks
/// at the given positions (RFC 2045 §6.7).
fn qp_encode(plain: &[u8], breaks: &[usize]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, &b) in plain.iter().enumerate() {
        if breaks.contains(&i) {
            out.extend_from_slice(b"=\n");
        }
        if b == b'=' {
            out.extend_from_slice(b"=3D");
        } else {
            out.push(b);
        }
    }
    out
}

fn urls_of(found: &[MailMatch<'_>]) -> Vec<Vec<u8>> {
    found.iter().map(|m| m.as_match().url().to_vec()).collect()
}

proptest::proptest! {
    /// Decoding finds in an encoded body the URLs a raw scan finds in the
    /// plain text, and every span decodes back to its URL.
    #[test]
    fn encoded_bodies_map_back(
        words in proptest::collection::vec(
            proptest::sample::select(vec![
                "see", "http://ex.com/p?a=1&b=2", "<https://a.b/x=y>",
                "mailto:q@r.st", "(http://c.d/e_(f))", "ok.", "\n", "==",
            ]),
            1..40,
        ),
        breaks in proptest::collection::vec(0usize..400, 0..12),
    ) {
        let plain = words.join(" ").into_bytes();
        let want: Vec<Vec<u8>> = Finder::new()
            .find_iter(&plain)
            .map(|m| m.url().to_vec())
            .collect();
        let mut msg =
            b"Content-Transfer-Encoding: quoted-printable\n\n".to_vec();
        msg.extend_from_slice(&qp_encode(&plain, &breaks));
        let found = all(&msg);
        proptest::prop_assert_eq!(urls_of(&found), want.clone());
        for m in &found {
            proptest::prop_assert!(span_holds_url(&msg, m), "{:?}", m);
        }
        let engine = base64::engine::general_purpose::STANDARD;
        let encoded = engine.encode(&plain).into_bytes();
        let mut msg = b"Content-Transfer-Encoding: base64\n\n".to_vec();
        for line in encoded.chunks(76) {
            msg.extend_from_slice(line);
            msg.extend_from_slice(b"\r\n");
        }
        let found = all(&msg);
        proptest::prop_assert_eq!(urls_of(&found), want);
        for m in &found {
            proptest::prop_assert!(span_holds_url(&msg, m), "{:?}", m);
        }
    }
}

#[test]
fn sniff_news_and_rfcs() {
    let Some(news) = corpus("20newsgroups", "mini_newsgroups.tar.gz") else {
        return;
    };
    let Some(rfcs) = corpus("rfc", "rfc8400-8499.tar.gz") else {
        return;
    };
    // Every article of a news spool is one message (`--mail auto`).
    for (name, hay) in &news {
        assert_eq!(Format::sniff(hay), Format::Message, "{name}");
        assert_eq!(messages(hay, Format::Message).count(), 1);
    }
    // RFC texts are not mail: the raw scan applies.
    for (name, hay) in &rfcs {
        assert_eq!(Format::sniff(hay), Format::Unknown, "{name}");
    }
}

proptest::proptest! {
    /// No input panics; the reader search equals the slice search.
    #[test]
    fn any_input(
        parts in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(vec![
                    "From a@b Thu Aug 22 13:17:22 2002\n",
                    "Content-Type: multipart/mixed; boundary=b\n",
                    "Content-Type: text/html\n",
                    "Content-Type: message/rfc822\n",
                    "Content-Transfer-Encoding: base64\n",
                    "Content-Transfer-Encoding: quoted-printable\n",
                    "Content-Type: text/plain; format=flowed; delsp=yes\n",
                    "\n", "--b\n", "--b--\n", "=\n", "=3D", "&amp;", "&#",
                    "http://a.b/", "<URL:http://c.d/", "> ", " \n", "aHR0cDovL2EuYi8=",
                    "Message-ID: <x@y>\n", "\r\n", "=\r\n", "Subject: s\n",
                ]).prop_map(|s| s.as_bytes().to_vec()),
                proptest::collection::vec(proptest::num::u8::ANY, 0..8),
            ],
            0..60,
        ),
    ) {
        let hay: Vec<u8> = parts.concat();
        let mail = MailFinder::builder().qp_repair(true).build(Finder::new());
        for format in [Format::Mbox, Format::Message, Format::sniff(&hay)] {
            let want: Vec<_> = mail
                .matches(&hay, format)
                .iter()
                .map(|m| (m.offset(), m.message(), m.as_match().url().to_vec()))
                .collect();
            let mut sink = Collect(Vec::new());
            mail.find_reader(&hay[..], format, &mut sink).unwrap();
            proptest::prop_assert_eq!(sink.0, want);
        }
    }
}

/// Collects offsets, message indexes and URLs from a reader search.
struct Collect(Vec<(u64, usize, Vec<u8>)>);

impl urlgrep::mail::MailSink for Collect {
    type Error = std::io::Error;

    fn matched(&mut self, m: &MailMatch<'_>) -> std::io::Result<bool> {
        self.0.push((m.offset(), m.message(), m.as_match().url().to_vec()));
        Ok(true)
    }
}
