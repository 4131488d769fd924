//! The Arrow columns of `scan_arrow`, built in Rust from the match
//! records (borrowed, on the scan's thread: src/run.rs): [`COLUMNS`] says each column's name, type and where in a
//! `MatchRecord` its value is; [`Columns`] collects a batch of rows into
//! the buffers of the Arrow columnar format (validity bitmaps, `i32`
//! offsets, values), which Python wraps with `pyarrow.Array.from_buffers`
//! (python/urlgrep/__init__.py): no Python object per value.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use std::borrow::Cow;
use urlgrep::output::json::{MailRecord, MatchRecord, PartRecord};

/// A column's Arrow type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// `string` (UTF-8, `i32` offsets).
    Str,
    /// `uint64`.
    U64,
    /// `bool`.
    Bool,
    /// `list<string>`.
    ListStr,
}

impl Type {
    /// The name `python/urlgrep/__init__.py` maps to a pyarrow type.
    pub fn name(self) -> &'static str {
        match self {
            Type::Str => "string",
            Type::U64 => "uint64",
            Type::Bool => "bool",
            Type::ListStr => "list<string>",
        }
    }
}

/// A record's value in one column (`None`: null).
pub enum Val<'a> {
    Str(Option<&'a str>),
    U64(Option<u64>),
    Bool(Option<bool>),
    ListStr(Option<&'a [Cow<'a, str>]>),
}

/// Where a column's value is in a match record.
type Get = for<'a> fn(&'a MatchRecord<'a>) -> Val<'a>;

fn mail<'a>(m: &'a MatchRecord<'a>) -> Option<&'a MailRecord<'a>> {
    m.mail.as_deref()
}

fn web<'a>(m: &'a MatchRecord<'a>) -> Option<&'a PartRecord<'a>> {
    m.record.as_deref()
}

/// The number in field `name` of the match's `record` object.
fn web_u64(m: &MatchRecord<'_>, name: &str) -> Val<'static> {
    Val::U64(web(m).and_then(|w| w.u64(name)))
}

/// The string in field `name` of the match's `record` object.
fn web_str<'a>(m: &'a MatchRecord<'a>, name: &str) -> Val<'a> {
    Val::Str(web(m).and_then(|w| w.str(name)))
}

/// The columns, one row per match record: the record's fields, its
/// `mail` (with `from`), `html` and `record` (web-archive record)
/// objects flattened. Every column is nullable. A `*_truncated` flag is
/// null where its object is absent (`from_truncated`: null when the
/// message has no `from`), else true or false.
pub const COLUMNS: &[(&str, Type, Get)] = &[
    ("path", Type::Str, |m| Val::Str(m.path.as_deref())),
    ("path_escaped", Type::Bool, |m| Val::Bool(Some(m.path_escaped))),
    ("offset", Type::U64, |m| Val::U64(Some(m.offset))),
    ("line", Type::U64, |m| Val::U64(Some(m.line))),
    ("column", Type::U64, |m| Val::U64(Some(m.column))),
    ("kind", Type::Str, |m| Val::Str(Some(&m.kind))),
    ("url", Type::Str, |m| Val::Str(Some(&m.url))),
    ("scheme", Type::Str, |m| Val::Str(Some(&m.scheme))),
    ("host", Type::Str, |m| Val::Str(m.host.as_deref())),
    ("flags", Type::ListStr, |m| Val::ListStr(Some(&m.flags))),
    ("defanged", Type::Str, |m| Val::Str(m.defanged.as_deref())),
    ("reference", Type::Str, |m| Val::Str(m.reference.as_deref())),
    ("message", Type::U64, |m| Val::U64(mail(m).map(|x| x.message))),
    ("message_offset", Type::U64, |m| {
        Val::U64(mail(m).map(|x| x.message_offset))
    }),
    ("message_id", Type::Str, |m| {
        Val::Str(mail(m).and_then(|x| x.message_id.as_deref()))
    }),
    ("message_id_truncated", Type::Bool, |m| {
        Val::Bool(mail(m).map(|x| x.message_id_truncated))
    }),
    ("part", Type::U64, |m| Val::U64(mail(m).map(|x| x.part))),
    ("location", Type::Str, |m| Val::Str(mail(m).map(|x| &*x.location))),
    ("encoding", Type::Str, |m| Val::Str(mail(m).map(|x| &*x.encoding))),
    ("decoded", Type::Bool, |m| Val::Bool(mail(m).map(|x| x.decoded))),
    ("from_address", Type::Str, |m| {
        Val::Str(mail(m).and_then(|x| x.from.as_ref()?.address.as_deref()))
    }),
    ("from_name", Type::Str, |m| {
        Val::Str(mail(m).and_then(|x| x.from.as_ref()?.name.as_deref()))
    }),
    ("from_truncated", Type::Bool, |m| {
        Val::Bool(mail(m).and_then(|x| Some(x.from.as_ref()?.truncated)))
    }),
    ("subject", Type::Str, |m| {
        Val::Str(mail(m).and_then(|x| x.subject.as_deref()))
    }),
    ("subject_truncated", Type::Bool, |m| {
        Val::Bool(mail(m).map(|x| x.subject_truncated))
    }),
    ("date", Type::Str, |m| Val::Str(mail(m).and_then(|x| x.date.as_deref()))),
    ("date_truncated", Type::Bool, |m| {
        Val::Bool(mail(m).map(|x| x.date_truncated))
    }),
    ("date_utc", Type::Str, |m| {
        Val::Str(mail(m).and_then(|x| x.date_utc.as_deref()))
    }),
    ("html_in", Type::Str, |m| Val::Str(m.html.as_ref().map(|h| &*h.place))),
    ("html_element", Type::Str, |m| {
        Val::Str(m.html.as_ref().and_then(|h| h.element.as_deref()))
    }),
    ("html_attribute", Type::Str, |m| {
        Val::Str(m.html.as_ref().and_then(|h| h.attribute.as_deref()))
    }),
    ("link_text", Type::Str, |m| {
        Val::Str(m.html.as_ref().and_then(|h| h.link_text.as_deref()))
    }),
    ("record_index", Type::U64, |m| web_u64(m, "index")),
    ("record_offset", Type::U64, |m| web_u64(m, "offset")),
    ("record_gz_offset", Type::U64, |m| web_u64(m, "gz_offset")),
    ("record_format", Type::Str, |m| web_str(m, "format")),
    ("record_type", Type::Str, |m| web_str(m, "type")),
    ("record_target_uri", Type::Str, |m| web_str(m, "target_uri")),
    ("record_date", Type::Str, |m| web_str(m, "date")),
    ("record_id", Type::Str, |m| web_str(m, "id")),
    ("record_content_type", Type::Str, |m| web_str(m, "content_type")),
];

/// String bytes in one column past which a batch ends early: its `i32`
/// offsets stay far from overflowing (a record adds at most a few MiB).
const DATA_CAP: usize = 1 << 30;

/// A bitmap (LSB first, as Arrow's).
#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    fn with_capacity(bits: usize) -> Bits {
        Bits { bytes: Vec::with_capacity(bits.div_ceil(8)), len: 0 }
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.len = 0;
    }

    fn push(&mut self, bit: bool) {
        if self.len.is_multiple_of(8) {
            self.bytes.push(0);
        }
        if bit {
            if let Some(last) = self.bytes.last_mut() {
                *last |= 1 << (self.len % 8);
            }
        }
        self.len += 1;
    }
}

/// UTF-8 strings: offsets (`i32`, little-endian, as Arrow's buffer) and
/// data.
struct Strings {
    offsets: Vec<u8>,
    data: Vec<u8>,
    count: usize,
}

impl Strings {
    fn new(rows: usize, data: usize) -> Strings {
        let mut offsets = Vec::with_capacity((rows + 1) * 4);
        offsets.extend_from_slice(&0i32.to_le_bytes());
        Strings { offsets, data: Vec::with_capacity(data), count: 0 }
    }

    fn push(&mut self, s: &str) {
        self.data.extend_from_slice(s.as_bytes());
        self.end();
    }

    /// No strings, the room kept.
    fn clear(&mut self) {
        self.offsets.truncate(4);
        self.data.clear();
        self.count = 0;
    }

    /// Ends the current string (empty for a null).
    fn end(&mut self) {
        let at = i32::try_from(self.data.len()).unwrap_or(i32::MAX);
        self.offsets.extend_from_slice(&at.to_le_bytes());
        self.count += 1;
    }
}

/// One column being built.
struct Builder {
    ty: Type,
    valid: Bits,
    nulls: usize,
    /// `Str`: the strings; `ListStr`: the list items.
    strings: Strings,
    /// `U64`.
    values: Vec<u8>,
    /// `Bool`.
    bits: Bits,
    /// `ListStr`: the lists' offsets into `strings` (`i32`,
    /// little-endian).
    lists: Vec<u8>,
}

impl Builder {
    /// A column of `rows` rows at most, its strings about `data` bytes.
    fn new(ty: Type, rows: usize, data: usize) -> Builder {
        let fixed = |n: usize| if ty == Type::U64 { n * 8 } else { 0 };
        let lists = if ty == Type::ListStr { (rows + 1) * 4 } else { 0 };
        let mut lists = Vec::with_capacity(lists);
        lists.extend_from_slice(&0i32.to_le_bytes());
        let (srows, sdata) = match ty {
            Type::Str | Type::ListStr => (rows, data),
            Type::U64 | Type::Bool => (0, 0),
        };
        Builder {
            ty,
            valid: Bits::with_capacity(rows),
            nulls: 0,
            strings: Strings::new(srows, sdata),
            values: Vec::with_capacity(fixed(rows)),
            bits: Bits::with_capacity(if ty == Type::Bool { rows } else { 0 }),
            lists,
        }
    }

    fn push(&mut self, v: Val<'_>) {
        let present = match v {
            Val::Str(s) => {
                match s {
                    Some(s) => self.strings.push(s),
                    None => self.strings.end(),
                }
                s.is_some()
            }
            Val::U64(n) => {
                self.values.extend_from_slice(&n.unwrap_or(0).to_le_bytes());
                n.is_some()
            }
            Val::Bool(b) => {
                self.bits.push(b.unwrap_or(false));
                b.is_some()
            }
            Val::ListStr(items) => {
                for s in items.unwrap_or(&[]) {
                    self.strings.push(s);
                }
                let n = i32::try_from(self.strings.count).unwrap_or(i32::MAX);
                self.lists.extend_from_slice(&n.to_le_bytes());
                items.is_some()
            }
        };
        self.valid.push(present);
        if !present {
            self.nulls += 1;
        }
    }

    /// No rows, the room kept.
    fn clear(&mut self) {
        self.valid.clear();
        self.nulls = 0;
        self.strings.clear();
        self.values.clear();
        self.bits.clear();
        self.lists.truncate(4);
    }

    /// The column for Python: `(length, null_count, validity or None,
    /// buffers)`; the buffers are `[offsets, data]` (`string`),
    /// `[values]` (`uint64`, `bool`) or `[offsets, item offsets, item
    /// data]` (`list<string>`).
    fn to_py<'py>(
        &self,
        py: Python<'py>,
        len: usize,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let valid = if self.nulls > 0 {
            PyBytes::new(py, &self.valid.bytes).into_any()
        } else {
            py.None().into_bound(py)
        };
        let buffers = match self.ty {
            Type::Str => vec![
                PyBytes::new(py, &self.strings.offsets),
                PyBytes::new(py, &self.strings.data),
            ],
            Type::U64 => vec![PyBytes::new(py, &self.values)],
            Type::Bool => vec![PyBytes::new(py, &self.bits.bytes)],
            Type::ListStr => vec![
                PyBytes::new(py, &self.lists),
                PyBytes::new(py, &self.strings.offsets),
                PyBytes::new(py, &self.strings.data),
            ],
        };
        (len, self.nulls, valid, buffers).into_pyobject(py)
    }
}

/// A batch of rows being built, a [`Builder`] per column of
/// [`COLUMNS`].
pub struct Columns {
    cols: Vec<Builder>,
    rows: usize,
}

impl std::fmt::Debug for Columns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Columns").field("rows", &self.rows).finish()
    }
}

impl Columns {
    /// No rows yet, room for `rows` (and per column the string bytes
    /// of `hint`, the previous batch's [`Columns::sizes`]).
    pub fn new(rows: usize, hint: &[usize]) -> Columns {
        let cols = COLUMNS.iter().enumerate().map(|(i, &(_, ty, _))| {
            Builder::new(ty, rows, hint.get(i).copied().unwrap_or(0))
        });
        Columns { cols: cols.collect(), rows: 0 }
    }

    /// The string bytes of each column, the hint of the next batch.
    pub fn sizes(&self) -> Vec<usize> {
        self.cols.iter().map(|c| c.strings.data.len()).collect()
    }

    /// Rows so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Whether a column's strings are near the `i32` offsets' limit:
    /// the batch should end.
    pub fn full(&self) -> bool {
        self.cols.iter().any(|c| c.strings.data.len() >= DATA_CAP)
    }

    /// Adds the row of `m`.
    pub fn push(&mut self, m: &MatchRecord<'_>) {
        for (b, &(_, _, get)) in self.cols.iter_mut().zip(COLUMNS) {
            b.push(get(m));
        }
        self.rows += 1;
    }

    /// The columns for Python, in [`COLUMNS`]' order.
    pub fn to_py<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let rows = self.rows;
        self.cols.iter().map(|b| b.to_py(py, rows)).collect()
    }

    /// No rows, the buffers kept for the next batch (no fresh pages to
    /// fault in).
    pub fn clear(&mut self) {
        self.cols.iter_mut().for_each(Builder::clear);
        self.rows = 0;
    }
}

/// `[(name, type name), ...]`: the columns of `scan_arrow`, for its
/// schema.
#[pyfunction]
#[pyo3(name = "_arrow_columns")]
pub fn arrow_columns() -> Vec<(&'static str, &'static str)> {
    COLUMNS.iter().map(|&(name, ty, _)| (name, ty.name())).collect()
}
