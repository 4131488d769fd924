//! Loader of `tests/data/conformance.toml`, shared by the integration tests
//! that run the conformance cases (`#[path = "data/cases.rs"] mod cases;`).
//! The file format is described at the top of the TOML file.

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::PathBuf;

/// One expected match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    pub url: Vec<u8>,
    pub kind: urlgrep::Kind,
    pub flags: BTreeSet<String>,
}

/// One conformance case.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub source: String,
    pub input: Vec<u8>,
    /// The scheme-less detectors the case runs with (issue 19).
    pub finds: urlgrep::Finds,
    pub matches: Vec<Expect>,
}

/// What a match looks like to a conformance case.
pub fn seen(m: &urlgrep::Match<'_>) -> Expect {
    Expect {
        url: m.url().to_vec(),
        kind: m.kind(),
        flags: m.flags().names().map(str::to_owned).collect(),
    }
}

/// Renders expectations for an assertion message.
pub fn show(list: &[Expect]) -> String {
    let mut out = String::new();
    for e in list {
        out.push_str(&format!(
            "\n    {} {:?} {:?}",
            e.kind,
            String::from_utf8_lossy(&e.url),
            e.flags
        ));
    }
    out
}

/// The path of the case file.
pub fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/conformance.toml")
}

/// Reads and checks every case; panics with the case name on a malformed
/// one (a broken case file must fail the tests, not skip cases).
pub fn load() -> Vec<Case> {
    let path = path();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let table: toml::Table =
        text.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let cases = table
        .get("case")
        .and_then(|v| v.as_array())
        .unwrap_or_else(|| panic!("{}: no [[case]]", path.display()));
    cases.iter().enumerate().map(|(i, v)| case(i, v)).collect()
}

fn case(i: usize, v: &toml::Value) -> Case {
    let t = v.as_table().unwrap_or_else(|| panic!("case #{i}: not a table"));
    let name = string(t, "name", &format!("#{i}"));
    for key in t.keys() {
        assert!(
            ["name", "source", "input", "unescape", "find", "matches"]
                .contains(&key.as_str()),
            "case {name}: unknown key {key:?}"
        );
    }
    let source = string(t, "source", &name);
    let unescape = match t.get("unescape") {
        None => false,
        Some(v) => v
            .as_bool()
            .unwrap_or_else(|| panic!("case {name}: unescape not a bool")),
    };
    let bytes = |s: String| {
        if unescape {
            unescape_bytes(&s)
                .unwrap_or_else(|e| panic!("case {name}: bad escape: {e}"))
        } else {
            s.into_bytes()
        }
    };
    let input = bytes(string(t, "input", &name));
    let mut finds = urlgrep::Finds::NONE;
    for f in t.get("find").and_then(|v| v.as_array()).into_iter().flatten() {
        let f = f.as_str().unwrap_or_else(|| panic!("case {name}: find"));
        let more = urlgrep::Finds::from_name(f)
            .unwrap_or_else(|| panic!("case {name}: find {f:?}"));
        finds = finds.union(more);
    }
    let list = t
        .get("matches")
        .and_then(|v| v.as_array())
        .unwrap_or_else(|| panic!("case {name}: matches missing"));
    let matches = list
        .iter()
        .map(|m| {
            let m = m
                .as_table()
                .unwrap_or_else(|| panic!("case {name}: match not a table"));
            for key in m.keys() {
                assert!(
                    ["url", "kind", "flags"].contains(&key.as_str()),
                    "case {name}: unknown match key {key:?}"
                );
            }
            let kind = string(m, "kind", &name);
            let kind = urlgrep::Kind::from_name(&kind)
                .unwrap_or_else(|| panic!("case {name}: kind {kind:?}"));
            let flags: BTreeSet<String> = match m.get("flags") {
                None => BTreeSet::new(),
                Some(v) => v
                    .as_array()
                    .unwrap_or_else(|| panic!("case {name}: flags"))
                    .iter()
                    .map(|f| {
                        let f = f.as_str().unwrap_or_else(|| {
                            panic!("case {name}: flag not a string")
                        });
                        assert!(
                            urlgrep::Flags::ALL.iter().any(|(_, n)| *n == f),
                            "case {name}: unknown flag {f:?}"
                        );
                        f.to_owned()
                    })
                    .collect(),
            };
            Expect { url: bytes(string(m, "url", &name)), kind, flags }
        })
        .collect();
    Case { name, source, input, finds, matches }
}

fn string(t: &toml::Table, key: &str, name: &str) -> String {
    t.get(key)
        .and_then(|v| v.as_str())
        .unwrap_or_else(|| panic!("case {name}: {key} missing"))
        .to_owned()
}

/// `\xNN`, `\r`, `\n`, `\t`, `\f`, `\\` to bytes.
pub fn unescape_bytes(s: &str) -> Result<Vec<u8>, String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let next = b.get(i + 1).copied();
        let (byte, used) = match next {
            Some(b'r') => (b'\r', 2),
            Some(b'n') => (b'\n', 2),
            Some(b't') => (b'\t', 2),
            Some(b'f') => (0x0C, 2),
            Some(b'\\') => (b'\\', 2),
            Some(b'x') => {
                let hex = s.get(i + 2..i + 4).ok_or("short \\x")?;
                let v = u8::from_str_radix(hex, 16)
                    .map_err(|e| format!("\\x{hex}: {e}"))?;
                (v, 4)
            }
            other => return Err(format!("\\{:?}", other.map(char::from))),
        };
        out.push(byte);
        i += used;
    }
    Ok(out)
}
