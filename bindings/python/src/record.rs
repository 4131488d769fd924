//! The records `scan` yields, and their conversion to Python.
//!
//! A record is the library's owned record of `--json`
//! (`urlgrep::output::json::Record`, handed over by
//! `Format::Records`): the conversion builds each dict straight from the
//! record's struct, its keys in the struct's field order, which is the
//! order `--json` writes them in, and leaving out what serde leaves out
//! (the fields marked `skip_serializing_if`: an absent `Option`, a false
//! flag). One function per kind of record. The keys are interned
//! Python strings, made once.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::borrow::Cow;
use urlgrep::output::json::{
    ErrorRecord, FromRecord, HtmlRecord, MailRecord, MatchRecord, PartJson,
    PartRecord, Record, RejectRecord,
};

/// A `--json` record as its dict: `match`, `reject` and `error`
/// records; `None` for the others (`begin`, `end`, `summary`), which
/// `scan` does not yield.
pub fn to_py<'py>(
    py: Python<'py>,
    rec: &Record<'_>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    Ok(match rec {
        Record::Match(m) => Some(match_dict(py, m)?),
        Record::Reject(r) => Some(reject_dict(py, r)?),
        Record::Error(e) => Some(error_dict(py, e)?),
        Record::Begin(_) | Record::End(_) | Record::Summary(_) => None,
    })
}

/// Sets `key` when `v` is `Some` (serde's `skip_serializing_if =
/// "Option::is_none"`).
fn set_some<'py, T: IntoPyObject<'py>>(
    d: &Bound<'py, PyDict>,
    key: &Bound<'py, PyString>,
    v: Option<T>,
) -> PyResult<()> {
    match v {
        Some(v) => d.set_item(key, v),
        None => Ok(()),
    }
}

/// Sets `key` when `v` is true (serde's `skip_serializing_if =
/// "std::ops::Not::not"`).
fn set_true<'py>(
    d: &Bound<'py, PyDict>,
    key: &Bound<'py, PyString>,
    v: bool,
) -> PyResult<()> {
    if v {
        d.set_item(key, true)?;
    }
    Ok(())
}

fn opt<'a>(c: &'a Option<Cow<'_, str>>) -> Option<&'a str> {
    c.as_deref()
}

/// `type`, then the input's name (`path`, `source`, `path_escaped`),
/// as every record of an input starts.
fn head<'py>(
    py: Python<'py>,
    kind: &Bound<'py, PyString>,
    path: &Option<Cow<'_, str>>,
    source: &Option<Cow<'_, str>>,
    path_escaped: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "type"), kind)?;
    set_some(&d, intern!(py, "path"), opt(path))?;
    set_some(&d, intern!(py, "source"), opt(source))?;
    set_true(&d, intern!(py, "path_escaped"), path_escaped)?;
    Ok(d)
}

/// A `match` record.
fn match_dict<'py>(
    py: Python<'py>,
    m: &MatchRecord<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d =
        head(py, intern!(py, "match"), &m.path, &m.source, m.path_escaped)?;
    d.set_item(intern!(py, "offset"), m.offset)?;
    d.set_item(intern!(py, "line"), m.line)?;
    d.set_item(intern!(py, "column"), m.column)?;
    d.set_item(intern!(py, "kind"), &*m.kind)?;
    d.set_item(intern!(py, "url"), &*m.url)?;
    d.set_item(intern!(py, "scheme"), &*m.scheme)?;
    d.set_item(intern!(py, "host"), opt(&m.host))?;
    d.set_item(
        intern!(py, "flags"),
        PyList::new(py, m.flags.iter().map(|v| &**v))?,
    )?;
    set_some(&d, intern!(py, "defanged"), opt(&m.defanged))?;
    set_some(&d, intern!(py, "reference"), opt(&m.reference))?;
    if let Some(mail) = &m.mail {
        d.set_item(intern!(py, "mail"), mail_dict(py, mail)?)?;
    }
    if let Some(html) = &m.html {
        d.set_item(intern!(py, "html"), html_dict(py, html)?)?;
    }
    if let Some(web) = &m.record {
        d.set_item(intern!(py, "record"), web_dict(py, web)?)?;
    }
    Ok(d)
}

/// A match record's `mail` object.
fn mail_dict<'py>(
    py: Python<'py>,
    m: &MailRecord<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "message"), m.message)?;
    d.set_item(intern!(py, "message_offset"), m.message_offset)?;
    d.set_item(intern!(py, "message_id"), opt(&m.message_id))?;
    set_true(&d, intern!(py, "message_id_truncated"), m.message_id_truncated)?;
    d.set_item(intern!(py, "part"), m.part)?;
    d.set_item(intern!(py, "location"), &*m.location)?;
    d.set_item(intern!(py, "encoding"), &*m.encoding)?;
    d.set_item(intern!(py, "decoded"), m.decoded)?;
    if let Some(from) = &m.from {
        d.set_item(intern!(py, "from"), from_dict(py, from)?)?;
    }
    set_some(&d, intern!(py, "subject"), opt(&m.subject))?;
    set_true(&d, intern!(py, "subject_truncated"), m.subject_truncated)?;
    set_some(&d, intern!(py, "date"), opt(&m.date))?;
    set_true(&d, intern!(py, "date_truncated"), m.date_truncated)?;
    set_some(&d, intern!(py, "date_utc"), opt(&m.date_utc))?;
    if let Some(headers) = &m.headers {
        // A BTreeMap: its keys in order, as serde writes them.
        let h = PyDict::new(py);
        for (name, values) in headers {
            h.set_item(
                &**name,
                PyList::new(py, values.iter().map(|v| &**v))?,
            )?;
        }
        d.set_item(intern!(py, "headers"), h)?;
    }
    set_true(&d, intern!(py, "headers_truncated"), m.headers_truncated)?;
    Ok(d)
}

/// A mail object's `from`.
fn from_dict<'py>(
    py: Python<'py>,
    f: &FromRecord<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "address"), opt(&f.address))?;
    d.set_item(intern!(py, "name"), opt(&f.name))?;
    set_true(&d, intern!(py, "truncated"), f.truncated)?;
    Ok(d)
}

/// A match record's `html` object.
fn html_dict<'py>(
    py: Python<'py>,
    h: &HtmlRecord<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(intern!(py, "in"), &*h.place)?;
    set_some(&d, intern!(py, "element"), opt(&h.element))?;
    set_some(&d, intern!(py, "attribute"), opt(&h.attribute))?;
    set_some(&d, intern!(py, "link_text"), opt(&h.link_text))?;
    Ok(d)
}

/// A match record's `record` object (a web-archive record): its fields
/// in order, as its container names them.
fn web_dict<'py>(
    py: Python<'py>,
    w: &PartRecord<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, value) in &w.fields {
        let name = PyString::intern(py, name);
        match value {
            PartJson::Null => d.set_item(name, py.None())?,
            PartJson::U64(n) => d.set_item(name, n)?,
            PartJson::Str(s) => d.set_item(name, &**s)?,
        }
    }
    Ok(d)
}

/// A `reject` record.
fn reject_dict<'py>(
    py: Python<'py>,
    r: &RejectRecord<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d =
        head(py, intern!(py, "reject"), &r.path, &r.source, r.path_escaped)?;
    d.set_item(intern!(py, "offset"), r.offset)?;
    d.set_item(intern!(py, "line"), r.line)?;
    d.set_item(intern!(py, "column"), r.column)?;
    d.set_item(intern!(py, "kind"), &*r.kind)?;
    d.set_item(intern!(py, "url"), &*r.url)?;
    d.set_item(intern!(py, "scheme"), &*r.scheme)?;
    d.set_item(intern!(py, "reason"), &*r.reason)?;
    d.set_item(intern!(py, "message"), &*r.message)?;
    Ok(d)
}

/// An `error` record.
fn error_dict<'py>(
    py: Python<'py>,
    e: &ErrorRecord<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d =
        head(py, intern!(py, "error"), &e.path, &e.source, e.path_escaped)?;
    d.set_item(intern!(py, "message"), &*e.message)?;
    Ok(d)
}

/// The statistics object (`--stats --json`, which has no owned record
/// form: one object a run, read back from its text) as Python objects:
/// `dict`, `list`, `str`, `int`, `float`, `bool`, `None`.
pub fn json_to_py<'py>(
    py: Python<'py>,
    v: &serde_json::Value,
) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_bound_py_any(py)?,
            (None, Some(i)) => i.into_bound_py_any(py)?,
            _ => n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?,
        },
        Value::String(s) => s.into_bound_py_any(py)?,
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(json_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, json_to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
