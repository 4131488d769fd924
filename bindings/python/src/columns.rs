//! The Arrow columns of `scan_arrow`, built in Rust from the match
//! records (borrowed, on the scan's thread: src/run.rs): the
//! `columns!` list says each column's name, type and where in a
//! `MatchRef` its value is ([`COLUMNS`]: the names and types);
//! [`Columns`] collects a batch of rows into the buffers of the Arrow
//! columnar format (validity bitmaps, `i32` offsets, values), which
//! Python wraps with `pyarrow.Array.from_buffers`
//! (python/urlgrep/__init__.py): no Python object per value.
//!
//! The columns of a batch are kept by type (strings, numbers, flags,
//! lists), each type's in a vector of its own. A row is pushed by code
//! the `columns!` list writes out, one column after the other: each
//! getter is called directly (inlined), with no dispatch on the type
//! and no call through a pointer per value.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use urlgrep::output::json::PartRecord;
use urlgrep::output::{MailRef, MatchFlags, MatchRef, MetaRef};

/// Where a `string` column's value is in a match record (`None`: null).
pub type GetStr = for<'a> fn(&'a MatchRef<'a>) -> Option<&'a str>;
/// Where a `uint64` column's value is.
pub type GetU64 = fn(&MatchRef<'_>) -> Option<u64>;
/// Where a `bool` column's value is.
pub type GetBool = fn(&MatchRef<'_>) -> Option<bool>;
/// Where a `list<string>` column's value is (the flags' names).
pub type GetList = fn(&MatchRef<'_>) -> Option<MatchFlags>;

/// A column's Arrow type (where its value is: [`Columns::push`]).
#[derive(Clone, Copy)]
pub enum Get {
    /// `string` (UTF-8, `i32` offsets), the value a [`GetStr`].
    Str,
    /// `uint64`, a [`GetU64`].
    U64,
    /// `bool`, a [`GetBool`].
    Bool,
    /// `list<string>`, a [`GetList`].
    ListStr,
}

impl Get {
    /// The name `python/urlgrep/__init__.py` maps to a pyarrow type.
    pub fn type_name(self) -> &'static str {
        match self {
            Get::Str => "string",
            Get::U64 => "uint64",
            Get::Bool => "bool",
            Get::ListStr => "list<string>",
        }
    }
}

fn mail<'a>(m: &'a MatchRef<'a>) -> Option<&'a MailRef<'a>> {
    m.mail.as_ref()
}

fn meta<'a>(m: &'a MatchRef<'a>) -> Option<&'a MetaRef<'a>> {
    m.mail.as_ref()?.meta.as_ref()
}

fn web<'a>(m: &'a MatchRef<'a>) -> Option<&'a PartRecord<'a>> {
    m.record.as_ref()
}

/// The number in field `name` of the match's `record` object.
fn web_u64(m: &MatchRef<'_>, name: &str) -> Option<u64> {
    web(m).and_then(|w| w.u64(name))
}

/// The string in field `name` of the match's `record` object.
fn web_str<'a>(m: &'a MatchRef<'a>, name: &str) -> Option<&'a str> {
    web(m).and_then(|w| w.str(name))
}

/// Declares [`COLUMNS`] and [`Columns::push`] from one list of
/// `name => Type(getter)`: the push calls each getter directly (inlined,
/// no call through a pointer per value), in the list's order.
macro_rules! columns {
    ($($name:literal => $ty:ident($get:expr),)*) => {
        /// The columns, one row per match record: the record's fields, its
        /// `mail` (with `from`), `html` and `record` (web-archive record)
        /// objects flattened. Every column is nullable. A `*_truncated` flag is
        /// null where its object is absent (`from_truncated`: null when the
        /// message has no `from`), else true or false; `subject_truncated` and
        /// `date_truncated` are false (not null) in a `mail` object without
        /// metadata, as the record's fields are.
        pub const COLUMNS: &[(&str, Get)] = &[$(($name, Get::$ty),)*];

        impl Columns {
            /// Adds the row of `m`.
            #[allow(unused_assignments)] // the last column's `at`
            pub fn push(&mut self, m: &MatchRef<'_>) {
                // Each type's next column (constants once unrolled).
                let mut at = [0usize; 4];
                $(push_column!(self, m, at, $ty, $get);)*
                self.rows += 1;
            }
        }
    };
}

/// One column's value of [`Columns::push`]: the column at `$at` of its
/// type's vector.
macro_rules! push_column {
    ($c:ident, $m:ident, $at:ident, Str, $get:expr) => {{
        const GET: GetStr = $get;
        if let Some(col) = $c.strs.get_mut($at[0]) {
            col.push(GET($m), Strings::push);
        }
        $at[0] += 1;
    }};
    ($c:ident, $m:ident, $at:ident, U64, $get:expr) => {{
        const GET: GetU64 = $get;
        if let Some(col) = $c.u64s.get_mut($at[1]) {
            col.push(GET($m), |v, n| v.0.extend_from_slice(&n.to_le_bytes()));
        }
        $at[1] += 1;
    }};
    ($c:ident, $m:ident, $at:ident, Bool, $get:expr) => {{
        const GET: GetBool = $get;
        if let Some(col) = $c.bools.get_mut($at[2]) {
            col.push(GET($m), Bits::push);
        }
        $at[2] += 1;
    }};
    ($c:ident, $m:ident, $at:ident, ListStr, $get:expr) => {{
        const GET: GetList = $get;
        if let Some(col) = $c.lists.get_mut($at[3]) {
            col.push(GET($m), |v, flags| {
                for s in flags.names() {
                    v.items.push(s);
                }
                v.end();
            });
        }
        $at[3] += 1;
    }};
}

columns! {
    "path" => Str(|m| m.path.as_deref()),
    "path_escaped" => Bool(|m| Some(m.path_escaped)),
    "offset" => U64(|m| Some(m.offset)),
    "line" => U64(|m| Some(m.line)),
    "column" => U64(|m| Some(m.column)),
    "kind" => Str(|m| Some(m.kind)),
    "url" => Str(|m| Some(&m.url)),
    "scheme" => Str(|m| Some(m.scheme)),
    "host" => Str(|m| m.host.as_deref()),
    "flags" => ListStr(|m| Some(m.flags)),
    "defanged" => Str(|m| m.defanged.as_deref()),
    "reference" => Str(|m| m.reference.as_deref()),
    "message" => U64(|m| mail(m).map(|x| x.message)),
    "message_offset" => U64(|m| mail(m).map(|x| x.message_offset)),
    "message_id" => Str(|m| mail(m).and_then(|x| x.message_id.as_deref())),
    "message_id_truncated" => Bool(|m| mail(m).map(|x| x.message_id_truncated)),
    "part" => U64(|m| mail(m).map(|x| x.part)),
    "location" => Str(|m| mail(m).map(|x| x.location)),
    "encoding" => Str(|m| mail(m).map(|x| x.encoding)),
    "decoded" => Bool(|m| mail(m).map(|x| x.decoded)),
    "from_address" => Str(|m| {
            meta(m).and_then(|x| x.from.as_ref()?.address.as_deref())
        }),
    "from_name" => Str(|m| meta(m).and_then(|x| x.from.as_ref()?.name.as_deref())),
    "from_truncated" => Bool(|m| meta(m).and_then(|x| Some(x.from.as_ref()?.truncated))),
    "subject" => Str(|m| meta(m).and_then(|x| x.subject)),
    "subject_truncated" => Bool(|m| {
            mail(m)
                .map(|x| x.meta.as_ref().is_some_and(|t| t.subject_truncated))
        }),
    "date" => Str(|m| meta(m).and_then(|x| x.date)),
    "date_truncated" => Bool(|m| {
            mail(m).map(|x| x.meta.as_ref().is_some_and(|t| t.date_truncated))
        }),
    "date_utc" => Str(|m| {
            meta(m).and_then(|x| Some(x.date_utc.as_ref()?.as_str()))
        }),
    "html_in" => Str(|m| m.html.as_ref().map(|h| &*h.place)),
    "html_element" => Str(|m| m.html.as_ref().and_then(|h| h.element.as_deref())),
    "html_attribute" => Str(|m| m.html.as_ref().and_then(|h| h.attribute.as_deref())),
    "link_text" => Str(|m| m.html.as_ref().and_then(|h| h.link_text.as_deref())),
    "record_index" => U64(|m| web_u64(m, "index")),
    "record_offset" => U64(|m| web_u64(m, "offset")),
    "record_gz_offset" => U64(|m| web_u64(m, "gz_offset")),
    "record_format" => Str(|m| web_str(m, "format")),
    "record_type" => Str(|m| web_str(m, "type")),
    "record_target_uri" => Str(|m| web_str(m, "target_uri")),
    "record_date" => Str(|m| web_str(m, "date")),
    "record_id" => Str(|m| web_str(m, "id")),
    "record_content_type" => Str(|m| web_str(m, "content_type")),
}

/// String bytes in one column past which a batch ends early: its `i32`
/// offsets stay far from overflowing (a record adds at most a few MiB).
const DATA_CAP: usize = 1 << 30;

/// Rows between two looks at [`DATA_CAP`] ([`Columns::full`]): 16
/// records of a few MiB each stay far below the other GiB of room.
const FULL_EVERY: usize = 16;

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

    /// `n` bits of `bit` into an empty bitmap.
    fn fill(&mut self, n: usize, bit: bool) {
        debug_assert_eq!(self.len, 0);
        self.bytes.clear();
        self.bytes.resize(n / 8, if bit { 0xff } else { 0 });
        self.len = n / 8 * 8;
        for _ in 0..n % 8 {
            self.push(bit);
        }
    }

    #[inline]
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

    #[inline]
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
    #[inline]
    fn end(&mut self) {
        let at = i32::try_from(self.data.len()).unwrap_or(i32::MAX);
        self.offsets.extend_from_slice(&at.to_le_bytes());
        self.count += 1;
    }
}

/// Lists of strings: the lists' offsets into the items (`i32`,
/// little-endian) and the items.
struct Lists {
    offsets: Vec<u8>,
    items: Strings,
}

impl Lists {
    fn new(rows: usize, data: usize) -> Lists {
        let mut offsets = Vec::with_capacity((rows + 1) * 4);
        offsets.extend_from_slice(&0i32.to_le_bytes());
        Lists { offsets, items: Strings::new(rows, data) }
    }

    /// Ends the current list (empty for a null).
    #[inline]
    fn end(&mut self) {
        let n = i32::try_from(self.items.count).unwrap_or(i32::MAX);
        self.offsets.extend_from_slice(&n.to_le_bytes());
    }
}

/// The value buffers of a column of one type.
trait Values {
    /// A null's entry: an empty string or list, a zero, false.
    fn null_entry(&mut self);
    /// No values, the room kept.
    fn clear(&mut self);
    /// String bytes held (the next batch's room; [`DATA_CAP`]).
    fn data_len(&self) -> usize {
        0
    }
    /// The buffers for Python: `[offsets, data]` (`string`), `[values]`
    /// (`uint64`, `bool`) or `[offsets, item offsets, item data]`
    /// (`list<string>`).
    fn buffers<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyBytes>>;
}

impl Values for Strings {
    fn null_entry(&mut self) {
        self.end();
    }
    fn clear(&mut self) {
        Strings::clear(self);
    }
    fn data_len(&self) -> usize {
        self.data.len()
    }
    fn buffers<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyBytes>> {
        vec![PyBytes::new(py, &self.offsets), PyBytes::new(py, &self.data)]
    }
}

/// `uint64` values, little-endian.
struct Numbers(Vec<u8>);

impl Values for Numbers {
    fn null_entry(&mut self) {
        self.0.extend_from_slice(&[0; 8]);
    }
    fn clear(&mut self) {
        self.0.clear();
    }
    fn buffers<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyBytes>> {
        vec![PyBytes::new(py, &self.0)]
    }
}

impl Values for Bits {
    fn null_entry(&mut self) {
        self.push(false);
    }
    fn clear(&mut self) {
        Bits::clear(self);
    }
    fn buffers<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyBytes>> {
        vec![PyBytes::new(py, &self.bytes)]
    }
}

impl Values for Lists {
    fn null_entry(&mut self) {
        self.end();
    }
    fn clear(&mut self) {
        self.offsets.truncate(4);
        self.items.clear();
    }
    fn data_len(&self) -> usize {
        self.items.data.len()
    }
    fn buffers<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyBytes>> {
        vec![
            PyBytes::new(py, &self.offsets),
            PyBytes::new(py, &self.items.offsets),
            PyBytes::new(py, &self.items.data),
        ]
    }
}

/// One column being built: its values and their validity.
///
/// Written lazily, as most columns are all valid or all null in a
/// batch (a spool has no `html_*` nor `record_*` values; every match
/// has a `url`): while no value came, the nulls are only counted (the
/// column goes to Python as all null, no buffer); the validity bitmap
/// is written from the first null that follows a value, or the first
/// value that follows nulls. Invariant: the value buffers hold `rows`
/// entries once `any` is set, none before; the bitmap holds `rows` bits
/// once `any` is set and `nulls > 0`, none otherwise.
struct Col<V> {
    /// Rows pushed.
    rows: usize,
    /// Whether a value (not a null) came.
    any: bool,
    valid: Bits,
    nulls: usize,
    values: V,
}

impl<V: Values> Col<V> {
    fn new(rows: usize, values: V) -> Col<V> {
        Col {
            rows: 0,
            any: false,
            valid: Bits::with_capacity(rows),
            nulls: 0,
            values,
        }
    }

    /// Adds a value, written by `write`, or a null (`value` `None`).
    // Inlined into each column of `Columns::push`: the common cases (a
    // value after values, a null after nulls) are a few instructions;
    // the changes between them are calls.
    #[inline(always)]
    fn push<T>(&mut self, value: Option<T>, write: impl FnOnce(&mut V, T)) {
        let Some(value) = value else {
            self.push_null();
            return;
        };
        if !self.any {
            self.first_value();
        }
        write(&mut self.values, value);
        if self.nulls > 0 {
            self.valid.push(true);
        }
        self.rows += 1;
    }

    /// The first value: the nulls before it written now.
    #[cold]
    #[inline(never)]
    fn first_value(&mut self) {
        self.any = true;
        if self.nulls > 0 {
            for _ in 0..self.rows {
                self.values.null_entry();
            }
            self.valid.fill(self.rows, false);
        }
    }

    #[inline(always)]
    fn push_null(&mut self) {
        if self.any {
            self.null_after_values();
        }
        self.nulls += 1;
        self.rows += 1;
    }

    /// A null in a column with values (its bits written from the first
    /// such null on).
    #[inline(never)]
    fn null_after_values(&mut self) {
        if self.nulls == 0 {
            self.valid.fill(self.rows, true);
        }
        self.values.null_entry();
        self.valid.push(false);
    }

    /// No rows, the room kept.
    fn clear(&mut self) {
        self.rows = 0;
        self.any = false;
        self.valid.clear();
        self.nulls = 0;
        self.values.clear();
    }

    /// The column for Python: `(length, null_count, validity or None,
    /// buffers or None)` (`None`: all null, no buffer).
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let none = || py.None().into_bound(py);
        if !self.any {
            return (self.rows, self.nulls, none(), none()).into_pyobject(py);
        }
        let valid = match self.nulls {
            0 => none(),
            _ => PyBytes::new(py, &self.valid.bytes).into_any(),
        };
        let buffers = self.values.buffers(py);
        (self.rows, self.nulls, valid, buffers).into_pyobject(py)
    }
}

/// Where a column of [`COLUMNS`] is among [`Columns`]' vectors: its
/// type's vector, and its place there.
#[derive(Clone, Copy)]
enum At {
    Str(usize),
    U64(usize),
    Bool(usize),
    ListStr(usize),
}

/// A batch of rows being built: the columns of [`COLUMNS`], each type's
/// in a vector of its own, with where each value is.
pub struct Columns {
    strs: Vec<Col<Strings>>,
    u64s: Vec<Col<Numbers>>,
    bools: Vec<Col<Bits>>,
    lists: Vec<Col<Lists>>,
    /// [`COLUMNS`]' order.
    order: Vec<At>,
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
        let mut c = Columns {
            strs: Vec::new(),
            u64s: Vec::new(),
            bools: Vec::new(),
            lists: Vec::new(),
            order: Vec::with_capacity(COLUMNS.len()),
            rows: 0,
        };
        for (i, &(_, get)) in COLUMNS.iter().enumerate() {
            let data = hint.get(i).copied().unwrap_or(0);
            let at = match get {
                Get::Str => {
                    c.strs.push(Col::new(rows, Strings::new(rows, data)));
                    At::Str(c.strs.len() - 1)
                }
                Get::U64 => {
                    let values = Numbers(Vec::with_capacity(rows * 8));
                    c.u64s.push(Col::new(rows, values));
                    At::U64(c.u64s.len() - 1)
                }
                Get::Bool => {
                    c.bools.push(Col::new(rows, Bits::with_capacity(rows)));
                    At::Bool(c.bools.len() - 1)
                }
                Get::ListStr => {
                    c.lists.push(Col::new(rows, Lists::new(rows, data)));
                    At::ListStr(c.lists.len() - 1)
                }
            };
            c.order.push(at);
        }
        c
    }

    /// The string bytes of each column, the hint of the next batch.
    pub fn sizes(&self) -> Vec<usize> {
        self.order
            .iter()
            .map(|&at| match at {
                At::Str(i) => self.strs[i].values.data_len(),
                At::ListStr(i) => self.lists[i].values.data_len(),
                At::U64(_) | At::Bool(_) => 0,
            })
            .collect()
    }

    /// Rows so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Whether a column's strings are near the `i32` offsets' limit:
    /// the batch should end. Looked at every [`FULL_EVERY`] rows only
    /// (this is asked at every row): [`DATA_CAP`] leaves room for many
    /// more rows than that.
    pub fn full(&self) -> bool {
        self.rows.is_multiple_of(FULL_EVERY)
            && (self.strs.iter().any(|c| c.values.data_len() >= DATA_CAP)
                || self.lists.iter().any(|c| c.values.data_len() >= DATA_CAP))
    }

    /// The columns for Python, in [`COLUMNS`]' order.
    pub fn to_py<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.order
            .iter()
            .map(|&at| match at {
                At::Str(i) => self.strs[i].to_py(py),
                At::U64(i) => self.u64s[i].to_py(py),
                At::Bool(i) => self.bools[i].to_py(py),
                At::ListStr(i) => self.lists[i].to_py(py),
            })
            .collect()
    }

    /// No rows, the buffers kept for the next batch (no fresh pages to
    /// fault in).
    pub fn clear(&mut self) {
        self.strs.iter_mut().for_each(Col::clear);
        self.u64s.iter_mut().for_each(Col::clear);
        self.bools.iter_mut().for_each(Col::clear);
        self.lists.iter_mut().for_each(Col::clear);
        self.rows = 0;
    }
}

/// `[(name, type name), ...]`: the columns of `scan_arrow`, for its
/// schema.
#[pyfunction]
#[pyo3(name = "_arrow_columns")]
pub fn arrow_columns() -> Vec<(&'static str, &'static str)> {
    COLUMNS.iter().map(|&(name, get)| (name, get.type_name())).collect()
}
