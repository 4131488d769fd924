//! The records `scan` yields, and their conversion to Python.
//!
//! For now a record is a line of the library's own `--json` printer
//! (`urlgrep::output::Printer` in `Format::Json`), read back with
//! serde_json: the names and values are the CLI's by construction.
//! [`record`] is the one place that makes a record; when the library
//! gives an owned record per URL (issue 29), only it changes.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyo3::IntoPyObjectExt;
use serde_json::Value;

/// The record a `--json` line gives to `scan`: a `match`, `reject` or
/// `error` record; `None` for the others (`begin`, `end`, `summary`)
/// and for a line that is not JSON (never written by the printer).
pub fn record(line: &[u8]) -> Option<Value> {
    let v: Value = serde_json::from_slice(line).ok()?;
    match v.get("type").and_then(Value::as_str) {
        Some("match" | "reject" | "error") => Some(v),
        _ => None,
    }
}

/// A JSON value as Python objects: `dict`, `list`, `str`, `int`,
/// `float`, `bool`, `None`.
pub fn to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
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
                list.append(to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, item) in map {
                dict.set_item(k, to_py(py, item)?)?;
            }
            dict.into_any()
        }
    })
}
