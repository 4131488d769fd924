//! One-way cross-check (STYLE.md, Tests): every http(s) URL the finder
//! accepts is UTF-8 and is accepted by the `url` crate (WHATWG URL
//! Standard). WHATWG is more lenient than the RFCs, so the reverse is not
//! asked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlgrep::{Finder, Scheme};

fuzz_target!(|data: &[u8]| {
    let finder = Finder::new();
    for m in finder.find_iter(data) {
        if !matches!(m.scheme(), Scheme::Http | Scheme::Https) {
            continue;
        }
        let text = match std::str::from_utf8(m.url()) {
            Ok(t) => t,
            Err(e) => panic!("accepted URL is not UTF-8: {:?}: {e}", m.url()),
        };
        if let Err(e) = url::Url::parse(text) {
            panic!("accepted {text:?}, url crate rejects it: {e}");
        }
    }
});
