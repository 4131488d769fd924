//! The Arrow columns of `scan_arrow`, built in Rust from the match
//! records (borrowed, on the scan's thread: src/run.rs): the
//! `columns!` list says each column's name, type and where in a
//! `MatchRef` its value is ([`COLUMNS`]: the names and types);
//! [`Columns`] collects a batch of rows into the buffers of the Arrow
//! columnar format (validity bitmaps, `i32` offsets, values). A
//! finished batch goes to Python whole, as a [`Batch`]: pyarrow's
//! arrays are made of its buffers (`pyarrow.foreign_buffer` and
//! `pyarrow.Array.from_buffers`, python/urlgrep/__init__.py), with no
//! copy and no Python object per value.
//!
//! The columns of a batch are kept by type (strings, numbers, flags,
//! lists), each type's in an array of its own. A row is pushed by code
//! the `columns!` list writes out, one column after the other: each
//! getter is called directly (inlined), with no dispatch on the type
//! and no call through a pointer per value.

use crate::buffers::{
    buf, Bits, Buf, Lists, Numbers, Repeat, Strings, Values,
};
use crate::dict::Dict;
use pyo3::prelude::*;
use urlgrep::output::json::PartRecord;
use urlgrep::output::{MailRef, MatchFlags, MatchRef, MetaRef, MetaSource};

/// Where a `string` column's value is in a match record (`None`: null):
/// the bytes of a `str` (UTF-8 already, as each getter takes them from
/// a `str`: not checked again).
pub type GetStr = for<'a> fn(&'a MatchRef<'a>) -> Option<&'a [u8]>;
/// Where a `string` column's value is when it is text of the program's
/// own (`&'static`: a kind's or an encoding's name).
pub type GetConst = fn(&MatchRef<'_>) -> Option<&'static [u8]>;
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
    /// `dictionary<int32, string>` ([`Dict`]), the value a [`GetStr`]:
    /// the text columns whose values repeat from row to row.
    Dict,
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
            Get::Dict => "dictionary<int32, string>",
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
fn web_str<'a>(m: &'a MatchRef<'a>, name: &str) -> Option<&'a [u8]> {
    text(web(m).and_then(|w| w.str(name)))
}

/// A string's bytes.
#[inline(always)]
fn text(s: Option<&str>) -> Option<&[u8]> {
    s.map(str::as_bytes)
}

/// Declares [`COLUMNS`] and [`Columns::push`] from one list of
/// `name => Type(getter)`: the push calls each getter directly (inlined,
/// no call through a pointer per value), in the list's order. A column
/// marked `message` (`name => Type message(getter)`) holds a field of
/// the message's metadata: on a row whose metadata is the row before's
/// ([`Columns::same_message`]), it repeats that row's value without
/// reading it (`Dict` and `Bool` columns). A `Dict` column marked
/// `constant` takes text of the program's own ([`GetConst`]): a value
/// at the last one's address is the last one ([`Dict::push_const`]).
macro_rules! columns {
    ($($name:literal => $ty:ident $($once:ident)? ($get:expr),)*) => {
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
                let mut at = [0usize; 5];
                let row = self.rows;
                let same = self.same_message(m);
                $(push_column!(self, m, row, at, same, $ty $($once)?, $get);)*
                self.rows += 1;
            }
        }
    };
}

/// One column's value of [`Columns::push`]: the column at `$at` of its
/// type's vector (`$same`: the row's metadata is the row before's).
macro_rules! push_column {
    (
        $c:ident, $m:ident, $row:ident, $at:ident, $same:ident,
        Dict message, $get:expr
    ) => {{
        if $same {
            if let Some(col) = $c.dicts.get_mut($at[4]) {
                col.repeat($row);
            }
            $at[4] += 1;
        } else {
            push_column!($c, $m, $row, $at, $same, Dict, $get);
        }
    }};
    (
        $c:ident, $m:ident, $row:ident, $at:ident, $same:ident,
        Bool message, $get:expr
    ) => {{
        if $same {
            if let Some(col) = $c.bools.get_mut($at[2]) {
                col.repeat($row);
            }
            $at[2] += 1;
        } else {
            push_column!($c, $m, $row, $at, $same, Bool, $get);
        }
    }};
    (
        $c:ident, $m:ident, $row:ident, $at:ident, $same:ident,
        Dict constant, $get:expr
    ) => {{
        const GET: GetConst = $get;
        if let Some(col) = $c.dicts.get_mut($at[4]) {
            col.push($row, GET($m), |d: &mut Dict, s| d.push_const(s));
        }
        $at[4] += 1;
    }};
    (
        $c:ident, $m:ident, $row:ident, $at:ident, $same:ident,
        Str, $get:expr
    ) => {{
        const GET: GetStr = $get;
        if let Some(col) = $c.strs.get_mut($at[0]) {
            col.push($row, GET($m), Strings::push);
        }
        $at[0] += 1;
    }};
    (
        $c:ident, $m:ident, $row:ident, $at:ident, $same:ident,
        Dict, $get:expr
    ) => {{
        const GET: GetStr = $get;
        if let Some(col) = $c.dicts.get_mut($at[4]) {
            col.push($row, GET($m), |d: &mut Dict, s| d.push(s));
        }
        $at[4] += 1;
    }};
    (
        $c:ident, $m:ident, $row:ident, $at:ident, $same:ident,
        U64, $get:expr
    ) => {{
        const GET: GetU64 = $get;
        if let Some(col) = $c.u64s.get_mut($at[1]) {
            col.push($row, GET($m), |v, n| {
                v.0.extend_from_slice(&n.to_le_bytes())
            });
        }
        $at[1] += 1;
    }};
    (
        $c:ident, $m:ident, $row:ident, $at:ident, $same:ident,
        Bool, $get:expr
    ) => {{
        const GET: GetBool = $get;
        if let Some(col) = $c.bools.get_mut($at[2]) {
            col.push($row, GET($m), Bits::push);
        }
        $at[2] += 1;
    }};
    (
        $c:ident, $m:ident, $row:ident, $at:ident, $same:ident,
        ListStr, $get:expr
    ) => {{
        const GET: GetList = $get;
        if let Some(col) = $c.lists.get_mut($at[3]) {
            col.push($row, GET($m), |v, flags| {
                // Most URLs have no flag: no chain of names to walk.
                if flags != MatchFlags::default() {
                    for s in flags.names() {
                        v.items.push(s.as_bytes());
                    }
                }
                v.end();
            });
        }
        $at[3] += 1;
    }};
}

columns! {
    "path" => Dict(|m| text(m.path.as_deref())),
    "path_escaped" => Bool(|m| Some(m.path_escaped)),
    "offset" => U64(|m| Some(m.offset)),
    "line" => U64(|m| Some(m.line)),
    "column" => U64(|m| Some(m.column)),
    "kind" => Dict constant(|m| Some(m.kind.as_bytes())),
    "url" => Str(|m| Some(m.url.as_bytes())),
    "scheme" => Dict(|m| Some(m.scheme.as_bytes())),
    "host" => Str(|m| text(m.host.as_deref())),
    "flags" => ListStr(|m| Some(m.flags)),
    "defanged" => Str(|m| text(m.defanged.as_deref())),
    "reference" => Str(|m| text(m.reference.as_deref())),
    "message" => U64(|m| mail(m).map(|x| x.message)),
    "message_offset" => U64(|m| mail(m).map(|x| x.message_offset)),
    "message_id" => Dict(|m| text(mail(m).and_then(|x| x.message_id.as_deref()))),
    "message_id_truncated" => Bool(|m| mail(m).map(|x| x.message_id_truncated)),
    "part" => U64(|m| mail(m).map(|x| x.part)),
    "location" => Dict constant(|m| mail(m).map(|x| x.location.as_bytes())),
    "encoding" => Dict constant(|m| mail(m).map(|x| x.encoding.as_bytes())),
    "decoded" => Bool(|m| mail(m).map(|x| x.decoded)),
    "from_address" => Dict message(|m| {
            text(meta(m).and_then(|x| x.from.as_ref()?.address.as_deref()))
        }),
    "from_name" => Dict message(|m| {
            text(meta(m).and_then(|x| x.from.as_ref()?.name.as_deref()))
        }),
    "from_truncated" => Bool message(|m| {
            meta(m).and_then(|x| Some(x.from.as_ref()?.truncated))
        }),
    "subject" => Dict message(|m| text(meta(m).and_then(|x| x.subject))),
    "subject_truncated" => Bool message(|m| {
            mail(m)
                .map(|x| x.meta.as_ref().is_some_and(|t| t.subject_truncated))
        }),
    "date" => Dict message(|m| text(meta(m).and_then(|x| x.date))),
    "date_truncated" => Bool message(|m| {
            mail(m).map(|x| x.meta.as_ref().is_some_and(|t| t.date_truncated))
        }),
    "date_utc" => Dict message(|m| {
            meta(m).and_then(|x| Some(x.date_utc.as_ref()?.as_bytes()))
        }),
    "html_in" => Dict(|m| m.html.as_ref().map(|h| h.place.as_bytes())),
    "html_element" => Dict(|m| text(m.html.as_ref().and_then(|h| h.element.as_deref()))),
    "html_attribute" => Dict(|m| {
            text(m.html.as_ref().and_then(|h| h.attribute.as_deref()))
        }),
    "link_text" => Str(|m| text(m.html.as_ref().and_then(|h| h.link_text.as_deref()))),
    "record_index" => U64(|m| web_u64(m, "index")),
    "record_offset" => U64(|m| web_u64(m, "offset")),
    "record_gz_offset" => U64(|m| web_u64(m, "gz_offset")),
    "record_format" => Dict(|m| web_str(m, "format")),
    "record_type" => Dict(|m| web_str(m, "type")),
    "record_target_uri" => Dict(|m| web_str(m, "target_uri")),
    "record_date" => Dict(|m| web_str(m, "date")),
    "record_id" => Dict(|m| web_str(m, "id")),
    "record_content_type" => Dict(|m| web_str(m, "content_type")),
}

/// String bytes in one column past which a batch ends early: its `i32`
/// offsets stay far from overflowing (a record adds at most a few MiB).
const DATA_CAP: usize = 1 << 30;

/// Rows between two looks at [`DATA_CAP`] ([`Columns::full`]): 16
/// records of a few MiB each stay far below the other GiB of room.
const FULL_EVERY: usize = 16;

/// The most string bytes a column reserves at once ([`Columns::new`]):
/// past it, it grows as it fills.
const ROOM_CAP: usize = 64 << 20;

/// One column being built: its values and their validity.
///
/// Written lazily, as most columns are all valid or all null in a
/// batch (a spool has no `html_*` nor `record_*` values; every match
/// has a `url`): while no value came, the nulls are only counted (the
/// column goes to Python as all null, no buffer); the validity bitmap
/// is written from the first null that follows a value, or the first
/// value that follows nulls. A null is not even counted when it comes:
/// the rows a column is behind the batch are its nulls, written when
/// its next value comes or the batch ends ([`Col::pad`]), so that a null
/// costs nothing in the row's push. Invariant: the value buffers hold
/// `rows` entries once `any` is set, none before; the bitmap holds
/// `rows` bits once `any` is set and `nulls > 0`, none otherwise.
struct Col<V> {
    /// Rows written or counted (the batch's rows once padded).
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

    /// Adds the value of row `row`, written by `write`; a null
    /// (`value` `None`) is left for [`Col::pad`].
    // Inlined into each column of `Columns::push`: the common cases (a
    // value after values, a null) are a few instructions; the changes
    // between them are calls.
    #[inline(always)]
    fn push<T>(
        &mut self,
        row: usize,
        value: Option<T>,
        write: impl FnOnce(&mut V, T),
    ) {
        let Some(value) = value else { return };
        if self.rows != row {
            self.pad(row);
        }
        if !self.any {
            self.first_value();
        }
        write(&mut self.values, value);
        if self.nulls > 0 {
            self.valid.push(true);
        }
        self.rows += 1;
    }

    /// Row `row` holds what row `row - 1` held (a row of the same
    /// message, [`Columns::same_message`]): its value again, or a null
    /// (left for [`Col::pad`], as in [`Col::push`]). The row before had
    /// a value exactly when the column is written up to it (`rows` is
    /// `row`): a null is not written when it comes.
    #[inline(always)]
    fn repeat(&mut self, row: usize)
    where
        V: Repeat,
    {
        if self.rows != row || row == 0 {
            return;
        }
        self.values.repeat_last();
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

    /// Nulls up to row `row` (the rows since the last value, none of
    /// them pushed).
    #[cold]
    #[inline(never)]
    fn pad(&mut self, row: usize) {
        let n = row.saturating_sub(self.rows);
        if !self.any {
            self.nulls += n;
            self.rows += n;
            return;
        }
        for _ in 0..n {
            self.null_after_values();
            self.nulls += 1;
            self.rows += 1;
        }
    }

    /// A null in a column with values (its bits written from the first
    /// such null on).
    fn null_after_values(&mut self) {
        if self.nulls == 0 {
            self.valid.fill(self.rows, true);
        }
        self.values.null_entry();
        self.valid.push(false);
    }

    /// Ends the column at `rows` rows (its last nulls written), and frees
    /// the buffers Python is not given: all of a column with no value,
    /// the bitmap of one with no null.
    fn finish(&mut self, rows: usize) {
        self.pad(rows);
        self.values.seal();
        if !self.any {
            self.values.release();
        }
        if !self.any || self.nulls == 0 {
            self.valid.release();
        }
    }

    /// The column for Python ([`Column`]).
    fn describe(&self) -> Column {
        if !self.any {
            return (self.rows, self.nulls, None, None);
        }
        let valid = (self.nulls > 0).then(|| buf(&self.valid.bytes));
        (self.rows, self.nulls, valid, Some(self.values.buffers()))
    }
}

/// A column of a [`Batch`] for Python: `(length, null_count, validity
/// or None, buffers or None)` (buffers `None`: all null, no buffer).
pub type Column = (usize, usize, Option<Buf>, Option<Vec<Buf>>);

/// Where a column of [`COLUMNS`] is among [`Columns`]' vectors: its
/// type's vector, and its place there.
#[derive(Clone, Copy)]
enum At {
    Str(usize),
    Dict(usize),
    U64(usize),
    Bool(usize),
    ListStr(usize),
}

/// How many columns of [`COLUMNS`] are of type `t`.
const fn count(t: Get) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < COLUMNS.len() {
        if COLUMNS[i].1 as u8 == t as u8 {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The columns of each type.
const STRS: usize = count(Get::Str);
const DICTS: usize = count(Get::Dict);
const U64S: usize = count(Get::U64);
const BOOLS: usize = count(Get::Bool);
const LISTS: usize = count(Get::ListStr);

/// What a column of a batch took ([`Columns::room`]): the room the
/// next batch gives it ([`Columns::new`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    /// It had no value (all null): no room.
    Null,
    /// It had values, this many string bytes a row (0 for numbers and
    /// flags): room for as many rows, and a quarter more bytes.
    Values(usize),
}

/// A batch of rows being built: the columns of [`COLUMNS`], each type's
/// in an array of its own (of a constant length: `Columns::push` then
/// checks no index), with where each value is.
pub struct Columns {
    strs: [Col<Strings>; STRS],
    dicts: [Col<Dict>; DICTS],
    u64s: [Col<Numbers>; U64S],
    bools: [Col<Bits>; BOOLS],
    lists: [Col<Lists>; LISTS],
    /// [`COLUMNS`]' order.
    order: Vec<At>,
    rows: usize,
    /// The metadata of the last row's message, held (`None`: the last
    /// row had none, or there is no row yet).
    message: Option<MetaSource>,
}

/// [`Columns`]' columns as [`Columns::new`] makes them, in vectors.
struct Built {
    strs: Vec<Col<Strings>>,
    dicts: Vec<Col<Dict>>,
    u64s: Vec<Col<Numbers>>,
    bools: Vec<Col<Bits>>,
    lists: Vec<Col<Lists>>,
    order: Vec<At>,
}

impl std::fmt::Debug for Columns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Columns").field("rows", &self.rows).finish()
    }
}

impl Columns {
    /// No rows yet, room for `rows` in each column that had a value in
    /// the previous batch (`room`, its [`Columns::room`]; every column
    /// when there was none), with a quarter more string bytes than it
    /// took a row there, up to [`ROOM_CAP`]. A column all null there
    /// (on a spool: the `html_*` and `record_*` columns, 15 of them)
    /// gets no room: most stay all null, their buffers never used, and
    /// one that is not grows as it fills.
    pub fn new(rows: usize, room: &[Room]) -> Columns {
        let mut c = Built {
            strs: Vec::new(),
            dicts: Vec::new(),
            u64s: Vec::new(),
            bools: Vec::new(),
            lists: Vec::new(),
            order: Vec::with_capacity(COLUMNS.len()),
        };
        for (i, &(_, get)) in COLUMNS.iter().enumerate() {
            let (rows, data) = match room.get(i) {
                Some(Room::Null) => (0, 0),
                Some(&Room::Values(n)) => {
                    (rows, n.saturating_mul(rows).saturating_mul(5) / 4)
                }
                None => (rows, 0),
            };
            let data = data.min(ROOM_CAP);
            let at = match get {
                Get::Str => {
                    c.strs.push(Col::new(rows, Strings::new(rows, data)));
                    At::Str(c.strs.len() - 1)
                }
                Get::Dict => {
                    c.dicts.push(Col::new(rows, Dict::new(rows, data)));
                    At::Dict(c.dicts.len() - 1)
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
        // As many of each type as the arrays hold (the same list counted);
        // a column the vector lacked would only be an empty one.
        let mut strs = c.strs.into_iter();
        let mut dicts = c.dicts.into_iter();
        let mut u64s = c.u64s.into_iter();
        let mut bools = c.bools.into_iter();
        let mut lists = c.lists.into_iter();
        Columns {
            strs: std::array::from_fn(|_| {
                strs.next().unwrap_or_else(|| Col::new(0, Strings::new(0, 0)))
            }),
            dicts: std::array::from_fn(|_| {
                dicts.next().unwrap_or_else(|| Col::new(0, Dict::new(0, 0)))
            }),
            u64s: std::array::from_fn(|_| {
                u64s.next().unwrap_or_else(|| Col::new(0, Numbers(Vec::new())))
            }),
            bools: std::array::from_fn(|_| {
                bools.next().unwrap_or_else(|| Col::new(0, Bits::default()))
            }),
            lists: std::array::from_fn(|_| {
                lists.next().unwrap_or_else(|| Col::new(0, Lists::new(0, 0)))
            }),
            order: c.order,
            rows: 0,
            message: None,
        }
    }

    /// What each column took (the next batch's room): the string bytes
    /// a row (rounded up), or [`Room::Null`] when it had no value.
    pub fn room(&self) -> Vec<Room> {
        let rows = self.rows.max(1);
        self.order
            .iter()
            .map(|&at| {
                let (any, data) = match at {
                    At::Str(i) => {
                        (self.strs[i].any, self.strs[i].values.data_len())
                    }
                    At::Dict(i) => {
                        (self.dicts[i].any, self.dicts[i].values.data_len())
                    }
                    At::ListStr(i) => {
                        (self.lists[i].any, self.lists[i].values.data_len())
                    }
                    At::U64(i) => (self.u64s[i].any, 0),
                    At::Bool(i) => (self.bools[i].any, 0),
                };
                match any {
                    true => Room::Values(data.div_ceil(rows)),
                    false => Room::Null,
                }
            })
            .collect()
    }

    /// Whether the metadata of `m`'s message is the last row's (the
    /// same allocation, alive as `message` holds it): the `message`
    /// columns of [`COLUMNS`] then hold the last row's values. Holds
    /// `m`'s for the next row.
    #[inline(always)]
    fn same_message(&mut self, m: &MatchRef<'_>) -> bool {
        match (meta(m), &self.message) {
            (Some(meta), Some(last)) if meta.is_from(last) => true,
            (Some(meta), _) => {
                self.message = meta.source();
                false
            }
            (None, _) => {
                self.message = None;
                false
            }
        }
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
                || self.dicts.iter().any(|c| c.values.data_len() >= DATA_CAP)
                || self.lists.iter().any(|c| c.values.data_len() >= DATA_CAP))
    }

    /// The columns for Python, in [`COLUMNS`]' order.
    fn describe(&self) -> Vec<Column> {
        self.order
            .iter()
            .map(|&at| match at {
                At::Str(i) => self.strs[i].describe(),
                At::Dict(i) => self.dicts[i].describe(),
                At::U64(i) => self.u64s[i].describe(),
                At::Bool(i) => self.bools[i].describe(),
                At::ListStr(i) => self.lists[i].describe(),
            })
            .collect()
    }
}

/// A finished batch of rows, handed to Python: `scan_arrow`'s arrays
/// are made of its buffers, without a copy (python/urlgrep/__init__.py
/// wraps each with `pyarrow.foreign_buffer(address, size, batch)`, whose
/// `base` keeps this object alive while any of its buffers is).
///
/// Frozen, with no method that changes it: once made, its vectors are
/// neither written, grown nor freed until Python drops it, so the
/// addresses [`Batch::columns`] gives stay valid and their bytes stay as
/// they were for as long as pyarrow holds them.
#[pyclass(frozen, module = "urlgrep", name = "_Batch")]
pub struct Batch(Columns);

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Batch").field(&self.0).finish()
    }
}

impl Batch {
    /// The batch of `columns` (the buffers Python is not given freed).
    /// Made on the scan's side, by the thread that built the columns
    /// (src/run.rs): what it frees goes back to that thread's allocator
    /// while it runs, not from Python's thread, which would wait on it.
    pub fn new(mut columns: Columns) -> Batch {
        let rows = columns.rows;
        // The metadata held goes back now, on the scan's side.
        columns.message = None;
        columns.strs.iter_mut().for_each(|c| c.finish(rows));
        columns.dicts.iter_mut().for_each(|c| c.finish(rows));
        columns.u64s.iter_mut().for_each(|c| c.finish(rows));
        columns.bools.iter_mut().for_each(|c| c.finish(rows));
        columns.lists.iter_mut().for_each(|c| c.finish(rows));
        Batch(columns)
    }

    /// Rows in the batch.
    pub fn rows(&self) -> usize {
        self.0.rows
    }
}

#[pymethods]
impl Batch {
    /// For each column of `_arrow_columns()`, `(length, null_count,
    /// validity, buffers)`: each buffer an `(address, size)` in this
    /// object (valid while it lives), the validity `None` when there is
    /// no null, the buffers `None` when all are null.
    fn columns(&self) -> Vec<Column> {
        self.0.describe()
    }

    /// Rows in the batch.
    fn __len__(&self) -> usize {
        self.0.rows
    }
}

/// `[(name, type name), ...]`: the columns of `scan_arrow`, for its
/// schema.
#[pyfunction]
#[pyo3(name = "_arrow_columns")]
pub fn arrow_columns() -> Vec<(&'static str, &'static str)> {
    COLUMNS.iter().map(|&(name, get)| (name, get.type_name())).collect()
}
