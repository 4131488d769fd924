//! `urlgrep._urlgrep`: the Python module on the urlgrep library (issue
//! 31). `python/urlgrep/__init__.py` re-exports it with the pyarrow glue;
//! the keyword arguments mirror the CLI's flags.
//!
//! - `found`: `find` and `find_iter` over one text, the library's
//!   `Finder`.
//! - `scan`: `scan` and `stats` over files, folders and compressed
//!   inputs, the library's `Driver` on a thread of its own (`run`),
//!   its `--json` records read back as dicts (`record`).

#![deny(unsafe_code)]

mod buffers;
mod columns;
mod dict;
mod found;
mod options;
mod record;
mod run;
mod scan;

use found::{FindIter, PyMatch, Text};
use options::Search;
use pyo3::prelude::*;

/// The URLs in `text` (`str` or bytes), in order, as `Match` objects.
///
/// `find` names the scheme-less detectors to run besides the URL scanner
/// (`"email"`, `"www"`, `"domain"`, `"network-path"`, `"unregistered"`,
/// `"defanged"`, `"all"`; a name or a list), as `--find` does; `scheme`
/// and `kind` keep only those schemes and kinds (`--scheme`, `--kind`);
/// `rejects=True` adds the candidates the validator rejected, each with
/// its `reject` reason (`--rejects`). `strict`, `max_url_len` and
/// `max_wrapper_len` are `--strict`, `--max-url-len` and
/// `--max-wrapper-len`. The GIL is released while the text is searched.
///
/// Raises `ValueError` for a bad option, with the CLI's message.
#[pyfunction]
#[pyo3(signature = (text, *, find=None, scheme=None, kind=None, rejects=false,
    strict=false, max_url_len=None, max_wrapper_len=None))]
#[allow(clippy::too_many_arguments)]
fn find(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    find: Option<&Bound<'_, PyAny>>,
    scheme: Option<&Bound<'_, PyAny>>,
    kind: Option<&Bound<'_, PyAny>>,
    rejects: bool,
    strict: bool,
    max_url_len: Option<usize>,
    max_wrapper_len: Option<usize>,
) -> PyResult<Vec<PyMatch>> {
    let search =
        Search::new(find, scheme, kind, strict, max_url_len, max_wrapper_len)?;
    let finder = search.finder(false)?;
    let text = Text::new(text)?;
    let found = py.detach(|| {
        found::matches(&finder, &search, rejects, text.bytes(), 0, usize::MAX)
            .0
    });
    Ok(found)
}

/// `find`, lazily: an iterator of `Match` objects over a copy of the
/// text's bytes (a `str`'s UTF-8), searched a few matches at a time.
/// Same arguments as `find`.
#[pyfunction]
#[pyo3(signature = (text, *, find=None, scheme=None, kind=None, rejects=false,
    strict=false, max_url_len=None, max_wrapper_len=None))]
#[allow(clippy::too_many_arguments)]
fn find_iter(
    text: &Bound<'_, PyAny>,
    find: Option<&Bound<'_, PyAny>>,
    scheme: Option<&Bound<'_, PyAny>>,
    kind: Option<&Bound<'_, PyAny>>,
    rejects: bool,
    strict: bool,
    max_url_len: Option<usize>,
    max_wrapper_len: Option<usize>,
) -> PyResult<FindIter> {
    let search =
        Search::new(find, scheme, kind, strict, max_url_len, max_wrapper_len)?;
    let finder = search.finder(false)?;
    Ok(FindIter::new(Text::new(text)?, finder, search, rejects))
}

#[pymodule]
fn _urlgrep(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyMatch>()?;
    m.add_class::<FindIter>()?;
    m.add_class::<scan::Scan>()?;
    m.add_function(wrap_pyfunction!(find, m)?)?;
    m.add_function(wrap_pyfunction!(find_iter, m)?)?;
    m.add_function(wrap_pyfunction!(scan::scan, m)?)?;
    m.add_function(wrap_pyfunction!(scan::stats, m)?)?;
    m.add_function(wrap_pyfunction!(columns::arrow_columns, m)?)?;
    Ok(())
}
