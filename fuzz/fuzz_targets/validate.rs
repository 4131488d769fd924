//! No panic on arbitrary bytes for the validator, and strict acceptance
//! implies lax acceptance with the same scheme.
//!
//! When `urlgrep::parse::Url::parse` lands, add it here: no panic, and
//! parse → display → parse is stable.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlgrep::parse::{self, Scheme};

fuzz_target!(|data: &[u8]| {
    let lax = parse::validate(data, false);
    let strict = parse::validate(data, true);
    if let Ok(scheme) = strict {
        assert_eq!(lax, Ok(scheme), "strict accepts what lax rejects");
    }
    if let Err(r) = lax {
        assert!(!r.to_string().is_empty() && !r.name().is_empty());
    }
    let name = data.split(|&b| b == b':').next().unwrap_or(&[]);
    let scheme = Scheme::from_name(name);
    if let Ok(s) = lax {
        assert_eq!(s, scheme);
        assert!(parse::is_scheme_syntax(name));
    }
    let _ = parse::is_registered(name);
});
