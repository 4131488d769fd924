//! The mail search: no panic on arbitrary bytes read as an mbox or as one
//! message, with arbitrary scanner options; the cache of header fields
//! met before (`mail::field_cache`) changes no match; the slice search
//! equals the reader search; and searching the same bytes again gives the
//! same matches; every message searched as a stream (as one over 4 MiB
//! is), in pieces of 1 to 64 bytes, gives the matches of the walk of the
//! message held whole. The slice search keeps its thread's cache from input to
//! input and from option set to option set; the reader search starts
//! from an empty one each time.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use std::io;
use urlgrep::mail::{Format, MailFinder, MailMatch, MailSink};
use urlgrep_fuzz::Options;

#[derive(Arbitrary, Debug)]
struct Input {
    options: Options,
    mbox: bool,
    headers: bool,
    piece: u8,
    text: Vec<u8>,
}

/// A match as comparable values.
type Record = (u64, u64, usize, u64, Vec<u8>, Option<Vec<u8>>, String);

#[derive(Default)]
struct Collect(Vec<Record>);

impl MailSink for Collect {
    type Error = io::Error;
    fn matched(&mut self, m: &MailMatch<'_>) -> io::Result<bool> {
        self.0.push((
            m.offset(),
            m.end_offset(),
            m.message(),
            m.message_offset(),
            m.as_match().url().to_vec(),
            m.message_id().map(<[u8]>::to_vec),
            format!(
                "{} {:?} {:?} {} {:?} {:?} {:?}",
                m.part(),
                m.location(),
                m.encoding(),
                m.decoded(),
                m.as_match().kind(),
                m.as_match().scheme(),
                m.as_match().flags()
            ),
        ));
        Ok(true)
    }
}

fuzz_target!(|input: Input| {
    let finder = input.options.finder(urlgrep::Triggers::Simd);
    let mail =
        MailFinder::builder().headers(input.headers).build(finder.clone());
    let plain = MailFinder::builder()
        .headers(input.headers)
        .field_cache(false)
        .build(finder);
    let format = if input.mbox { Format::Mbox } else { Format::Message };
    let text = &input.text;
    let mut first = Collect::default();
    if mail.find(text, format, &mut first).is_err() {
        return;
    }
    let mut again = Collect::default();
    if mail.find(text, format, &mut again).is_err() {
        return;
    }
    assert_eq!(first.0, again.0, "searched again");
    let mut uncached = Collect::default();
    if plain.find(text, format, &mut uncached).is_err() {
        return;
    }
    assert_eq!(first.0, uncached.0, "with the field cache and without");
    let mut read = Collect::default();
    if let Err(e) = mail.find_reader(&text[..], format, &mut read) {
        panic!("reading a slice failed: {e}");
    }
    assert_eq!(first.0, read.0, "slice against reader");
    let streamed = MailFinder::builder()
        .headers(input.headers)
        .whole_message_len(0)
        .stream_piece_len(1 + usize::from(input.piece % 64))
        .build(input.options.finder(urlgrep::Triggers::Simd));
    let mut stream = Collect::default();
    if streamed.find(text, format, &mut stream).is_err() {
        return;
    }
    assert_eq!(first.0, stream.0, "held whole against streamed");
});
