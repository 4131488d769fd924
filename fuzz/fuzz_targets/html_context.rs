//! The HTML link context (`--html-context`, issue 33): no panic and no
//! stack overflow on arbitrary bytes read as a `text/html` part (or as
//! any mbox or message), whatever its tags; the context changes no match
//! (the same matches with it and without); every context is well formed
//! (an attribute only in an attribute value, link text within its cap);
//! searching again gives the same contexts (the thread's index is
//! reused); the reader search gives the contexts of the slice search. A
//! piece repeated (up to 256 KiB) reaches tags of many attributes,
//! where the tokenizer's chain is cut (`src/mail/html/shallow.rs`).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::io;
use urlgrep::mail::html::{Place, LINK_TEXT_CAP};
use urlgrep::mail::{Format, MailFinder, MailMatch, MailSink};
use urlgrep_fuzz::Options;

#[derive(Arbitrary, Debug)]
struct Input {
    options: Options,
    /// Behind a `text/html` header (else as `mbox` says).
    html: bool,
    mbox: bool,
    text: Vec<u8>,
    /// `repeat.1` repeated `repeat.0` times, inserted at `at`.
    repeat: Option<(u16, Vec<u8>)>,
    at: u16,
}

/// A match (URL, offsets, message, part) and its HTML context.
type Record = (u64, u64, usize, usize, Vec<u8>, Option<String>);

#[derive(Default)]
struct Collect(Vec<Record>);

impl MailSink for Collect {
    type Error = io::Error;
    fn matched(&mut self, m: &MailMatch<'_>) -> io::Result<bool> {
        let html = m.html().map(|h| {
            assert_eq!(h.attribute().is_some(), h.place() == Place::Attribute);
            if let Some(t) = h.link_text() {
                assert!(t.chars().count() <= LINK_TEXT_CAP, "{t:?}");
            }
            format!("{h:?}")
        });
        self.0.push((
            m.offset(),
            m.end_offset(),
            m.message(),
            m.part(),
            m.as_match().url().to_vec(),
            html,
        ));
        Ok(true)
    }
}

/// The records without their contexts.
fn urls(r: &[Record]) -> Vec<Record> {
    r.iter()
        .map(|(a, b, c, d, u, _)| (*a, *b, *c, *d, u.clone(), None))
        .collect()
}

fuzz_target!(|input: Input| {
    let mut text = Vec::new();
    if input.html {
        text.extend_from_slice(
            b"From: a@b.example\nContent-Type: text/html\n\n",
        );
    }
    let at = usize::from(input.at).min(input.text.len());
    text.extend_from_slice(&input.text[..at]);
    if let Some((n, piece)) = &input.repeat {
        // At most 256 KiB: 52,428 `a="" ` (a crash needed about 7,000).
        let n = usize::from(*n).min((1 << 18) / piece.len().max(1));
        text.extend_from_slice(&piece.repeat(n));
    }
    text.extend_from_slice(&input.text[at..]);
    let format =
        if input.mbox && !input.html { Format::Mbox } else { Format::Message };
    let finder = input.options.finder(urlgrep::Triggers::Simd);
    let with = MailFinder::builder().html_context(true).build(finder.clone());
    let without = MailFinder::builder().build(finder);
    let mut first = Collect::default();
    if with.find(&text, format, &mut first).is_err() {
        return;
    }
    let mut plain = Collect::default();
    if without.find(&text, format, &mut plain).is_err() {
        return;
    }
    assert!(plain.0.iter().all(|r| r.5.is_none()), "a context not asked for");
    assert_eq!(urls(&first.0), plain.0, "with the context and without");
    let mut again = Collect::default();
    if with.find(&text, format, &mut again).is_err() {
        return;
    }
    assert_eq!(first.0, again.0, "searched again");
    let mut read = Collect::default();
    if let Err(e) = with.find_reader(&text[..], format, &mut read) {
        panic!("reading a slice failed: {e}");
    }
    assert_eq!(first.0, read.0, "slice against reader");
});
