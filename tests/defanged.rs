//! The defanged forms of `tests/data/defanged.toml` (issue 34,
//! `--find defanged`): every case not marked `miss` gives exactly its
//! refanged URLs, with the written form at hand and the `defanged` flag;
//! the recall over all cases (misses included) is printed.

use std::path::PathBuf;

struct Case {
    name: String,
    input: String,
    urls: Vec<String>,
    miss: bool,
}

fn load() -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/defanged.toml");
    let text = std::fs::read_to_string(&path).expect("defanged.toml");
    let table: toml::Table = text.parse().expect("defanged.toml parses");
    let cases = table["case"].as_array().expect("[[case]]");
    cases
        .iter()
        .map(|c| {
            let t = c.as_table().expect("a table");
            let s = |k: &str| t[k].as_str().expect(k).to_owned();
            for key in t.keys() {
                assert!(
                    ["name", "source", "input", "urls", "miss"]
                        .contains(&key.as_str()),
                    "unknown key {key}"
                );
            }
            Case {
                name: s("name"),
                input: s("input"),
                urls: t["urls"]
                    .as_array()
                    .expect("urls")
                    .iter()
                    .map(|u| u.as_str().expect("a url").to_owned())
                    .collect(),
                miss: t.get("miss").and_then(|m| m.as_bool()).unwrap_or(false),
            }
        })
        .collect()
}

/// The defanged matches of `text`: (refanged URL, written form).
fn defanged(text: &str) -> Vec<(String, String)> {
    let finder =
        urlgrep::Finder::builder().find(urlgrep::Finds::DEFANGED).build();
    finder
        .find_iter(text.as_bytes())
        .filter(|m| m.flags().contains(urlgrep::Flags::DEFANGED))
        .map(|m| {
            let url = String::from_utf8_lossy(m.url()).into_owned();
            let written = m.defanged().expect("the written form");
            let span = m.span();
            assert_eq!(written, &text.as_bytes()[span.start..span.end]);
            (url, String::from_utf8_lossy(written).into_owned())
        })
        .collect()
}

#[test]
fn defanged_cases() {
    let cases = load();
    let mut names = std::collections::BTreeSet::new();
    let (mut want, mut got, mut wrong) = (0, 0, Vec::new());
    for case in &cases {
        assert!(names.insert(case.name.clone()), "{}: twice", case.name);
        let found: Vec<String> =
            defanged(&case.input).into_iter().map(|(u, _)| u).collect();
        want += case.urls.len();
        got += case.urls.iter().filter(|u| found.contains(u)).count();
        if !case.miss && found != case.urls {
            wrong.push(format!(
                "{}: want {:?}, got {found:?}",
                case.name, case.urls
            ));
        }
    }
    println!("defanged recall: {got} of {want} URLs");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Without `--find defanged` nothing is refanged, and the scan of the
/// ordinary URLs around defanged ones does not change.
#[test]
fn off_by_default() {
    let text = "hxxps[:]//a[.]example/ http://b.example/ hxxp://c[.]example/";
    let plain = urlgrep::Finder::default();
    let urls: Vec<_> = plain
        .find_iter(text.as_bytes())
        .map(|m| String::from_utf8_lossy(m.url()).into_owned())
        .collect();
    assert_eq!(urls, ["http://b.example/"]);
    assert!(plain.find_iter(text.as_bytes()).all(|m| m.defanged().is_none()));
}
