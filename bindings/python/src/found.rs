//! `find`, `find_iter` and `Match`: the library's [`Finder`] over one
//! text, each match given as `urlgrep --json` would print it.

use crate::options::Search;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::PyString;
use urlgrep::output::escape::json_text;
use urlgrep::{Candidate, Finder};

/// A URL found in a text (or, with `rejects=True`, a candidate the
/// validator rejected).
///
/// `url`, `kind`, `scheme`, `host` and `flags` are what `urlgrep --json`
/// prints for it; `start` and `end` are byte offsets into the UTF-8
/// bytes of the text (for a `str`) or into the bytes, delimiters
/// included (`<URL:…>`): `start` is the `--json` record's `offset`.
#[pyclass(frozen, get_all, module = "urlgrep", name = "Match")]
#[derive(Clone, Debug)]
pub struct PyMatch {
    /// The URL, wrapper whitespace removed; bytes that are not UTF-8 are
    /// percent-encoded (`%` as `%25`) and flagged `escaped`.
    pub url: String,
    /// Byte offset of the first byte, delimiters included.
    pub start: usize,
    /// Byte offset just past the last byte, delimiters included.
    pub end: usize,
    /// `wrapped`, `angle`, `quoted`, `bare`, `email`, `www`, `domain`
    /// or `network-path`.
    pub kind: &'static str,
    /// The scheme, lower case (the implied one for `email` and `www`).
    pub scheme: String,
    /// The host, lower case, or `None` (always `None` for a reject).
    pub host: Option<String>,
    /// What was done to get the URL out of its text (`joined`,
    /// `trimmed`, `defanged`, …), as `--json` names them.
    pub flags: Vec<String>,
    /// `None` for a match; for a rejected candidate the reason's name
    /// (`bad-port`, `bad-label`, …), as `--rejects` prints it.
    pub reject: Option<&'static str>,
    /// The URL as written, when it was defanged (`url` is refanged).
    pub defanged: Option<String>,
}

#[pymethods]
impl PyMatch {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        // Python's own quoting of each string.
        let r = |s: &str| -> PyResult<String> {
            Ok(PyString::new(py, s).repr()?.to_cow()?.into_owned())
        };
        let mut s = format!(
            "Match(url={}, start={}, end={}, kind={}",
            r(&self.url)?,
            self.start,
            self.end,
            r(self.kind)?
        );
        if !self.flags.is_empty() {
            let names: PyResult<Vec<String>> =
                self.flags.iter().map(|f| r(f)).collect();
            s.push_str(&format!(", flags=[{}]", names?.join(", ")));
        }
        if let Some(reason) = self.reject {
            s.push_str(&format!(", reject={}", r(reason)?));
        }
        s.push(')');
        Ok(s)
    }

    fn __str__(&self) -> String {
        self.url.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.extract::<PyRef<'_, PyMatch>>().is_ok_and(|o| {
            (
                &self.url,
                self.start,
                self.end,
                self.kind,
                &self.flags,
                self.reject,
            ) == (&o.url, o.start, o.end, o.kind, &o.flags, o.reject)
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (&self.url, self.start, self.end).hash(&mut h);
        h.finish()
    }
}

/// The text's bytes, held without the GIL: a `str`'s UTF-8 or a
/// bytes-like object's bytes.
pub enum Text {
    /// A `str`.
    Str(PyBackedStr),
    /// `bytes` (a `bytearray` or `memoryview` copied).
    Bytes(PyBackedBytes),
}

impl Text {
    /// Reads `str`, `bytes`, `bytearray` or `memoryview`.
    pub fn new(obj: &Bound<'_, PyAny>) -> PyResult<Text> {
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(Text::Str(s.clone().try_into()?));
        }
        if let Ok(b) = obj.extract::<PyBackedBytes>() {
            return Ok(Text::Bytes(b));
        }
        if !obj.is_instance_of::<pyo3::types::PyMemoryView>() {
            let name = obj.get_type().name()?;
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "text: expected str or bytes, not {name}"
            )));
        }
        // A `memoryview`: `bytes(obj)`, a copy.
        let bytes =
            obj.py().get_type::<pyo3::types::PyBytes>().call1((obj,))?;
        Ok(Text::Bytes(bytes.extract::<PyBackedBytes>()?))
    }

    /// The bytes.
    pub fn bytes(&self) -> &[u8] {
        match self {
            Text::Str(s) => s.as_bytes(),
            Text::Bytes(b) => b,
        }
    }
}

/// A candidate as the Python `Match`, `None` when `search` (`kind=`,
/// `scheme=`) leaves it out or it is a reject not asked for.
pub fn to_match(
    c: Candidate<'_>,
    search: &Search,
    rejects: bool,
) -> Option<PyMatch> {
    if c.reject().is_some() && !rejects {
        return None;
    }
    let m = c.as_match();
    let scheme = json_text(m.scheme_name()).0.to_ascii_lowercase();
    if !search.selects(m.kind(), &scheme) {
        return None;
    }
    let (url, escaped) = json_text(m.url());
    let reject = c.reject().map(|r| r.name());
    let mut flags: Vec<String> =
        m.flags().names().map(str::to_owned).collect();
    // As `--json`: a match's non-UTF-8 URL is flagged, a reject's not.
    if escaped && reject.is_none() {
        flags.push("escaped".to_owned());
    }
    let host = match reject {
        Some(_) => None,
        None => urlgrep::output::host_from(m.url(), m.host()),
    };
    Some(PyMatch {
        url: url.into_owned(),
        start: m.span().start,
        end: m.span().end,
        kind: m.kind().name(),
        scheme,
        host,
        flags,
        reject,
        defanged: m.defanged().map(|d| json_text(d).0.into_owned()),
    })
}

/// The matches of `hay` from `from`, at most `limit`, and where the scan
/// goes on (`None`: the end).
pub fn matches(
    finder: &Finder,
    search: &Search,
    rejects: bool,
    hay: &[u8],
    from: usize,
    limit: usize,
) -> (Vec<PyMatch>, Option<usize>) {
    let mut it = finder.candidates_from(hay, from, usize::MAX);
    let mut out = Vec::new();
    while out.len() < limit {
        match it.next() {
            Some(c) => out.extend(to_match(c, search, rejects)),
            None => return (out, None),
        }
    }
    (out, Some(it.resume()))
}

/// The lazy search of `find_iter`: an owned copy of the bytes, and where
/// the scan goes on.
#[pyclass(module = "urlgrep", name = "FindIter")]
pub struct FindIter {
    text: Text,
    finder: Finder,
    search: Search,
    rejects: bool,
    /// Where the next scan starts; `None` once the text is done.
    at: Option<usize>,
    /// Matches found and not yet given.
    ready: std::collections::VecDeque<PyMatch>,
}

impl FindIter {
    /// A lazy search of `text`.
    pub fn new(
        text: Text,
        finder: Finder,
        search: Search,
        rejects: bool,
    ) -> FindIter {
        FindIter {
            text,
            finder,
            search,
            rejects,
            at: Some(0),
            ready: Default::default(),
        }
    }
}

#[pymethods]
impl FindIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<PyMatch> {
        while self.ready.is_empty() {
            let from = self.at?;
            // A few at a time: the first comes at once, and a long text
            // is not scanned ahead of its consumer.
            let (found, next) = matches(
                &self.finder,
                &self.search,
                self.rejects,
                self.text.bytes(),
                from,
                16,
            );
            self.ready.extend(found);
            self.at = next;
        }
        self.ready.pop_front()
    }
}
