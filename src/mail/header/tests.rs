//! Tests of the header walk, the MIME fields and the Message-ID.

use super::*;

#[test]
fn splits_header_and_body() {
    let m =
        b"From a@b Thu Aug 22 13:17:22 2002\nSubject: x\n y\nTo: z\n\nbody\n";
    let (h, b) = split(m, true);
    assert_eq!(&m[h.start..h.end], b"Subject: x\n y\nTo: z\n");
    assert_eq!(&m[b.start..b.end], b"body\n");
    let m = b"Subject: x\r\n\r\nbody";
    let (h, b) = split(m, true);
    assert_eq!(&m[h.start..h.end], b"Subject: x\r\n");
    assert_eq!(&m[b.start..b.end], b"body");
    let m = b"not a header line\nSubject: x\n";
    let (h, b) = split(m, true);
    assert!(h.is_empty());
    assert_eq!(b.start, 0);
}

#[test]
fn fields_unfolded_spans() {
    let block = b"List-Unsubscribe: <http://a.b/>,\n\t<mailto:c@d>\nX-A : 1\n";
    let fs: Vec<_> = fields(block).collect();
    assert_eq!(fs.len(), 2);
    assert_eq!(&block[fs[0].name.start..fs[0].name.end], b"List-Unsubscribe");
    assert_eq!(
        &block[fs[0].value.start..fs[0].value.end],
        b" <http://a.b/>,\n\t<mailto:c@d>"
    );
    assert_eq!(&block[fs[1].name.start..fs[1].name.end], b"X-A");
}

#[test]
fn mime_fields() {
    let block = b"Content-Type: multipart/alternative;\n\tboundary=\"----=_NextPart_000\"; charset=x\nContent-Transfer-Encoding: Quoted-Printable\n";
    let m = Mime::parse(block);
    assert!(m.is(b"multipart/"));
    assert!(!m.is(b"text/"));
    assert_eq!(m.boundary, Some(&b"----=_NextPart_000"[..]));
    assert_eq!(m.encoding, TransferEncoding::QuotedPrintable);
    let m =
        Mime::parse(b"Content-Type: text/plain; format=flowed; delsp=yes\n");
    assert!(m.flowed && m.delsp && m.is(b"text/plain"));
    let m = Mime::parse(b"Subject: x\n");
    assert!(m.is(b"text/plain"));
    let m = Mime::parse(b"Content-Type: multipart/mixed; boundary=abc\n");
    assert_eq!(m.boundary, Some(&b"abc"[..]));
    let m = Mime::parse(
        b"CONTENT-TYPE: text/html\ncontent-transfer-encoding: BASE64\n",
    );
    assert!(m.is(b"text/html"));
    assert_eq!(m.encoding, TransferEncoding::Base64);
    for near in [
        &b"Content-Typo: text/html\nContent-Transfer-Encodinf: base64\n"[..],
        b"Content_Type: text/html\nContent-Transfer_Encoding: base64\n",
        b"Content-Types: text/html\nXContent-Transfer-Encoding: base64\n",
    ] {
        let m = Mime::parse(near);
        assert!(m.is(b"text/plain"), "{}", String::from_utf8_lossy(near));
        assert_eq!(m.encoding, TransferEncoding::Identity);
    }
}

#[test]
fn message_ids() {
    let block = b"Subject: a\nMessage-Id:  <x@y>  \n";
    let s = message_id(block).unwrap();
    assert_eq!(&block[s.start..s.end], b"<x@y>");
    assert!(is_skipped_field(b"References"));
    assert!(is_skipped_field(b"DKIM-Signature"));
    assert!(!is_skipped_field(b"List-Archive"));
}

#[test]
fn news_fields_of_groups_and_servers_are_skipped() {
    // Issue 34.2: RFC 5536 §3.1.4, §3.1.5, §3.2.6, §3.2.14.
    for name in ["Path", "Xref", "Newsgroups", "Followup-To", "XREF"] {
        assert!(is_skipped_field(name.as_bytes()), "{name}");
    }
    for name in ["Paths", "Xrefs", "Organization", "Distribution"] {
        assert!(!is_skipped_field(name.as_bytes()), "{name}");
    }
}

/// The one-pass walk gives what `split` and then `fields` give.
fn split_fields_agrees(entity: &[u8], envelope: bool) {
    let mut got = vec![Field {
        name: Span { start: 7, end: 7 },
        value: Span { start: 7, end: 7 },
    }];
    let spans = split_fields(entity, envelope, Some(&mut got));
    let (h, b) = split(entity, envelope);
    assert_eq!(spans, (h, b));
    let want: Vec<Field> = fields(&entity[h.start..h.end]).collect();
    // The first n fields, read alone, are the first n of all.
    for n in 0..4 {
        let none = Span { start: 9, end: 9 };
        let mut first = [Field { name: none, value: none }; 4];
        let (block, k) = first_fields(entity, envelope, &mut first[..n]);
        assert_eq!(block.start, h.start);
        assert_eq!(&first[..k], &want[..n.min(want.len())]);
        // Nothing past what it holds is written.
        assert!(first[n..].iter().all(|f| f.name == none));
    }
    // What was in the vector stays; the fields come after it.
    assert_eq!(got[0].name.start, 7);
    assert_eq!(&got[1..], &want[..], "{:?}", String::from_utf8_lossy(entity));
}

#[test]
fn split_fields_is_split_then_fields() {
    let cases: &[&[u8]] = &[
        b"",
        b"\n",
        b"Subject: x\n",
        b"Subject: x",
        b"Subject: x\n y\n\tz\nTo: a\n\nbody\n",
        b"Subject : x\r\nTo:\r\n\r\nbody",
        b"From a@b Thu Aug 22 13:17:22 2002\n>From x\nA: 1\n\nb",
        b" lead\nA: 1\n\n",
        b"A: 1\nnot a field\nB: 2\n\n",
        b"A: 1\n B\n\n",
        b"A:1\nB:\n\nC: 3\n",
        b"X-Weird: a: b: c\n\n",
        b"A: 1\r\n\r\n",
        b"A: 1\n\r\n",
    ];
    for c in cases {
        split_fields_agrees(c, true);
        split_fields_agrees(c, false);
    }
    for text in [
        &include_bytes!("../../../corpora/mail/blinux-list/00091.eml")[..],
        &include_bytes!("../../../corpora/mail/python-dev/1999-04-part.mbox")
            [..],
        &include_bytes!("../../../corpora/news/20news-bydate/sci.space/61448")
            [..],
    ] {
        split_fields_agrees(text, true);
        // and a body part's header, from each line start
        for (i, _) in text.iter().enumerate().filter(|&(_, &b)| b == b'\n') {
            split_fields_agrees(&text[i + 1..], false);
        }
    }
}

/// `field_start` as two `take_while` counts (its first version).
fn field_start_plain(line: &[u8]) -> Option<(usize, usize)> {
    let name = line
        .iter()
        .take_while(|&&b| (33..=126).contains(&b) && b != b':')
        .count();
    if name == 0 {
        return None;
    }
    let rest = &line[name..];
    let blanks = rest.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    (rest.get(blanks) == Some(&b':')).then_some((name, name + blanks))
}

#[test]
fn field_start_as_the_plain_loops_say() {
    let lines: &[&[u8]] = &[
        b"",
        b":",
        b": x",
        b"A",
        b"A:",
        b"A :",
        b"A \t :x",
        b"A  ",
        b"A b:",
        b"A\x7f:",
        b"A\xc3\xa4:",
        b"A\r:",
        b"A\n:",
        b" A:",
        b"\tA:",
        b"~!:",
        b"Received: from x",
    ];
    let corpus = [
        &include_bytes!("../../../corpora/mail/blinux-list/00091.eml")[..],
        &include_bytes!("../../../corpora/mail/python-dev/1999-04-part.mbox")
            [..],
    ];
    let starts = corpus.iter().flat_map(|text| {
        text.iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| &text[i + 1..])
    });
    for line in lines.iter().copied().chain(starts) {
        assert_eq!(field_start(line), field_start_plain(line));
    }
    // Every byte value in a name, as one and after one.
    for b in 0..=255u8 {
        for line in [[b'A', b, b':'], [b, b':', b'x'], [b'A', b' ', b]] {
            assert_eq!(field_start(&line), field_start_plain(&line));
        }
    }
    // Names read eight bytes at a time: every byte value at every
    // place of the first two words, alone and after another byte
    // that ends a name (whose borrow or carry may reach it).
    let name = *b"Abcdefghijklmnopqr: x";
    for b in 0..=255u8 {
        for i in 0..18 {
            let mut line = name;
            line[i] = b;
            assert_eq!(field_start(&line), field_start_plain(&line));
            for a in [0, b'\t', b' ', b':', 127, 128, 255] {
                for j in 0..i {
                    line[j] = a;
                    assert_eq!(
                        field_start(&line),
                        field_start_plain(&line),
                        "{line:?}"
                    );
                    line[j] = name[j];
                }
            }
        }
    }
}

/// The plain rule: lower-case the name, then compare it with every
/// skipped name (the oracle of the hashed dispatch).
fn is_skipped_field_plain(name: &[u8]) -> bool {
    const SKIPPED: [&[u8]; 29] = [
        b"path",
        b"xref",
        b"newsgroups",
        b"followup-to",
        b"message-id",
        b"references",
        b"in-reply-to",
        b"content-id",
        b"resent-message-id",
        b"supersedes",
        b"original-message-id",
        b"received",
        b"x-received",
        b"date",
        b"dkim-signature",
        b"x-google-dkim-signature",
        b"domainkey-signature",
        b"arc-seal",
        b"arc-message-signature",
        b"arc-authentication-results",
        b"authentication-results",
        b"return-path",
        b"delivered-to",
        b"x-original-to",
        b"envelope-to",
        b"x-envelope-to",
        b"errors-to",
        b"x-beenthere",
        b"x-loop",
    ];
    let lower = name.to_ascii_lowercase();
    SKIPPED.contains(&&lower[..])
}

/// Every field name of the mail and news corpora in the repository,
/// as written, lower-cased, upper-cased, with each byte's case
/// flipped, with a byte changed (one bit) and cut short or made
/// longer: the dispatch decides as the plain rule does.
#[test]
fn skipped_fields_as_the_plain_rule_says() {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let mut names = std::collections::BTreeSet::new();
    let mut dirs = vec![root.join("mail"), root.join("news")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let text = std::fs::read(&path).unwrap();
            let mut fields = Vec::new();
            // Every line start, so that each message's and body
            // part's header is read.
            for (i, _) in text.iter().enumerate().filter(|&(_, &b)| b == b'\n')
            {
                fields.clear();
                let at = &text[i + 1..];
                let (h, _) = split_fields(at, true, Some(&mut fields));
                let block = &at[h.start..];
                for f in &fields {
                    names.insert(block[f.name.start..f.name.end].to_vec());
                }
            }
        }
    }
    assert!(names.len() > 100, "{} names", names.len());
    let skipped = names.iter().filter(|n| is_skipped_field(n)).count();
    assert!(skipped >= 10, "{skipped} skipped names");
    for name in &names {
        let mut variants = vec![
            name.clone(),
            name.to_ascii_lowercase(),
            name.to_ascii_uppercase(),
            name[1..].to_vec(),
            name[..name.len() - 1].to_vec(),
            [&name[..], b"x"].concat(),
        ];
        for i in 0..name.len() {
            let mut v = name.clone();
            v[i] ^= 0x20;
            variants.push(v.clone());
            v[i] ^= 0x21;
            variants.push(v);
        }
        for v in variants {
            assert_eq!(
                is_skipped_field(&v),
                is_skipped_field_plain(&v),
                "{}",
                String::from_utf8_lossy(&v)
            );
        }
    }
}

/// Each skipped name with each byte set to every value (the first and the
/// third byte choose the slot, the length too: cut short and made
/// longer by every byte): the hashed dispatch decides as the plain rule
/// does.
#[test]
fn skipped_fields_near_misses_as_the_plain_rule_says() {
    for name in super::SKIPPED_NAMES {
        let mut checked = 0;
        let mut check = |v: &[u8]| {
            assert_eq!(
                is_skipped_field(v),
                is_skipped_field_plain(v),
                "{}",
                String::from_utf8_lossy(v)
            );
            checked += 1;
        };
        check(name);
        check(&name.to_ascii_uppercase());
        for i in 0..name.len() {
            for b in 0..=255u8 {
                let mut v = name.to_vec();
                v[i] = b;
                check(&v);
                check(&v[..name.len() - 1]);
                v.push(b);
                check(&v);
            }
        }
        assert!(checked > 256 * name.len(), "{checked}");
    }
    // Every name is in the oracle's list, and in its own slot.
    let slots: std::collections::BTreeSet<_> = super::SKIPPED_NAMES
        .iter()
        .map(|n| super::skip_slot(n.len(), n[0], n[2]))
        .collect();
    assert_eq!(slots.len(), super::SKIPPED_NAMES.len());
    assert!(super::SKIPPED_NAMES.iter().all(|n| is_skipped_field_plain(n)));
}

#[test]
fn skipped_fields_in_any_case_and_nothing_near_them() {
    let skipped = [
        "Message-ID",
        "References",
        "In-Reply-To",
        "Content-ID",
        "Resent-Message-ID",
        "Supersedes",
        "Original-Message-ID",
        "Received",
        "X-Received",
        "Date",
        "DKIM-Signature",
        "X-Google-DKIM-Signature",
        "DomainKey-Signature",
        "ARC-Seal",
        "ARC-Message-Signature",
        "ARC-Authentication-Results",
        "Authentication-Results",
        "Return-Path",
        "Delivered-To",
        "X-Original-To",
        "Envelope-To",
        "X-Envelope-To",
        "Errors-To",
        "X-BeenThere",
        "X-Loop",
    ];
    for name in skipped {
        for n in [
            name.to_string(),
            name.to_ascii_lowercase(),
            name.to_ascii_uppercase(),
        ] {
            assert!(is_skipped_field(n.as_bytes()), "{n}");
            let longer = format!("{n}x");
            assert!(!is_skipped_field(longer.as_bytes()), "{longer}");
            assert!(!is_skipped_field(&n.as_bytes()[1..]), "{n}");
        }
    }
    for (a, b) in [
        (&b"Received"[..], &b"received"[..]),
        (b"ReCeIvEd", b"received"),
        (b"X-Google-DKIM-Signature", b"x-google-dkim-signature"),
        (b"Date", b"date"),
    ] {
        assert!(eq_lower(a, b));
    }
    for (a, b) in [
        // `\r` differs from `-` in the case bit only
        (&b"Message\rID"[..], &b"message-id"[..]),
        (b"Message-I", b"message-id"),
        (b"Message_ID", b"message-id"),
        (b"Recei\xc5ed", b"received"),
        (b"Received", b"reveived"),
        (b"X-Google-DKIM-Signaturf", b"x-google-dkim-signature"),
        (b"Y-Google-DKIM-Signature", b"x-google-dkim-signature"),
    ] {
        assert!(!eq_lower(a, b), "{}", String::from_utf8_lossy(a));
    }
    let long = "x".repeat(40);
    for name in [
        "Subject",
        "From",
        "To",
        "Cc",
        "Sender",
        "Reply-To",
        "X-Mailer",
        "",
        "Äate",
        "X-Original-Tp",
        "X-Envelope-Tp",
        &long,
    ] {
        assert!(!is_skipped_field(name.as_bytes()), "{name}");
    }
}
