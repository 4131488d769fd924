"""urlgrep: find URLs in text, mail and news spools, and archives.

The urlgrep library (Rust) as a Python module:

- :func:`find` and :func:`find_iter`: the URLs of one text (``str`` or
  bytes), as :class:`Match` objects.
- :func:`scan`: files, folders and compressed inputs searched in
  parallel; one dict per URL, with the fields of ``urlgrep --json``.
- :func:`scan_arrow`: the same as a ``pyarrow.RecordBatchReader``, one
  row per URL (:data:`ARROW_SCHEMA`), for pandas, Polars and DuckDB.
- :func:`stats`: the numbers of ``urlgrep --stats --json`` as a dict.

Keyword arguments are named after the CLI's flags (``--find`` is
``find=``, ``--exclude-host`` is ``exclude_host=``). A bad option raises
``ValueError`` with the CLI's message; an input that cannot be read
raises ``FileNotFoundError``, ``PermissionError`` or ``OSError`` (or,
with ``on_error="collect"``, gives the CLI's error record). The GIL is
released while Rust works, and Ctrl-C stops a scan within a second.
"""

from __future__ import annotations

from ._urlgrep import FindIter, Match, Scan, __version__, _arrow_columns, find, find_iter, scan, stats

__all__ = [
    "ARROW_SCHEMA",
    "FindIter",
    "Match",
    "Scan",
    "__version__",
    "arrow_schema",
    "find",
    "find_iter",
    "scan",
    "scan_arrow",
    "stats",
]

#: The columns of :func:`scan_arrow`, one row per URL, as ``(name, arrow
#: type name)``: the ``--json`` match record, its ``mail`` (with
#: ``from``), ``html`` and ``record`` (web-archive record) objects
#: flattened, ``None`` where the record has no such field. Defined in
#: Rust (src/columns.rs), which builds them.
#: The text columns whose values repeat from row to row (``path``,
#: ``kind``, ``scheme``, the mail, ``html_*`` and ``record_*`` text) are
#: ``dictionary<int32, string>``, each batch with its own dictionary;
#: ``url``, ``host``, ``defanged``, ``reference`` and ``link_text`` are
#: ``string``.
_COLUMNS = _arrow_columns()


def arrow_schema():
    """The ``pyarrow.Schema`` of :func:`scan_arrow` (needs pyarrow)."""
    import pyarrow as pa

    types = {
        "string": pa.string(),
        "bool": pa.bool_(),
        "uint64": pa.uint64(),
        "list<string>": pa.list_(pa.string()),
        "dictionary<int32, string>": pa.dictionary(pa.int32(), pa.string()),
    }
    return pa.schema([pa.field(name, types[t], nullable=True) for name, t in _COLUMNS])


def __getattr__(name):
    # ARROW_SCHEMA without importing pyarrow at import time.
    if name == "ARROW_SCHEMA":
        return arrow_schema()
    raise AttributeError(f"module 'urlgrep' has no attribute {name!r}")


def _array(pa, batch, column, type, all_null):
    """One array from a column of a ``Scan._next_columns`` batch:
    ``(length, null_count, validity, buffers)``, the buffers of Arrow's
    columnar format, each an ``(address, size)`` in ``batch``, wrapped
    without a copy (``pyarrow.foreign_buffer``, whose base, ``batch``,
    lives as long as the buffer). ``buffers`` ``None``: all null, an
    array kept in ``all_null`` by length and type (arrays are immutable,
    and most batches are as long as the last)."""
    length, nulls, validity, buffers = column
    if buffers is None:
        key = (length, type)
        array = all_null.get(key)
        if array is None:
            array = all_null[key] = pa.nulls(length, type)
        return array

    def wrap(buffer):
        address, size = buffer
        # An empty vector's address is no allocation: not handed over.
        return pa.foreign_buffer(address, size, batch) if size else pa.py_buffer(b"")

    validity = None if validity is None else wrap(validity)
    buffers = [wrap(b) for b in buffers]
    if pa.types.is_dictionary(type):
        keys, offsets, data = buffers
        values = pa.Array.from_buffers(type.value_type, (len(offsets) // 4) - 1, [None, offsets, data])
        keys = pa.Array.from_buffers(type.index_type, length, [validity, keys], nulls)
        # Each key is below the dictionary's length (src/dict.rs): not
        # checked again.
        return pa.DictionaryArray.from_arrays(keys, values, safe=False)
    if pa.types.is_list(type):
        offsets, item_offsets, item_data = buffers
        items = pa.Array.from_buffers(
            type.value_type, (len(item_offsets) // 4) - 1, [None, item_offsets, item_data]
        )
        return pa.Array.from_buffers(type, length, [validity, offsets], nulls, children=[items])
    return pa.Array.from_buffers(type, length, [validity, *buffers], nulls)


def _batch(batch, schema, all_null):
    """One record batch from a batch of ``Scan._next_columns``."""
    import pyarrow as pa

    arrays = [
        _array(pa, batch, col, field.type, all_null)
        for col, field in zip(batch.columns(), schema)
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


def scan_arrow(paths, *, batch_size=8192, **kwargs):
    """:func:`scan` as a ``pyarrow.RecordBatchReader``, one row per URL.

    Takes the keyword arguments of :func:`scan` (``rejects`` and
    ``on_error="collect"`` add no rows: only match records are rows) and
    ``batch_size``, the most rows in a batch. The columns are
    :data:`ARROW_SCHEMA`'s: the repeated text columns (``path``, ``kind``,
    ``scheme``, the mail, ``html_*`` and ``record_*`` text) are
    ``dictionary<int32, string>`` (pandas: ``category``; Polars:
    ``Categorical``; ``pyarrow.compute.cast(column, pyarrow.string())``
    decodes one), each batch with its own dictionary. The reader reads the scan as it is consumed;
    closing it (or reading it to the end) stops the scan. pandas:
    ``reader.read_pandas()``; Polars: ``polars.from_arrow(reader.read_all())``;
    DuckDB: ``duckdb.sql("select host, count(*) from reader group by 1")``.
    """
    import pyarrow as pa

    if batch_size < 1:
        raise ValueError(f"batch_size {batch_size}: use 1 or more")
    schema = arrow_schema()
    # The columns are built on the scan's thread, from the records
    # borrowed: no owned record, no dict, no Python work per row.
    records = scan(paths, _arrow_rows=batch_size, **kwargs)

    def batches():
        all_null = {}
        with records:
            while True:
                batch = records._next_columns(batch_size)
                if batch is None:
                    return
                if len(all_null) > 64:
                    all_null.clear()  # batches of many lengths
                yield _batch(batch, schema, all_null)

    return pa.RecordBatchReader.from_batches(schema, batches())
