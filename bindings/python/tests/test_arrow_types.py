"""`scan_arrow`'s column types: the repeated text columns are
`dictionary<int32, string>` (src/dict.rs), each batch's dictionary holds
each value once, and the readers users read them with (pandas, Polars,
DuckDB, when installed) give `scan`'s values."""

import collections

import pytest
import urlgrep

from conftest import CORPORA

#: The columns kept as `string`: each URL's own text.
STRINGS = {"url", "host", "defanged", "reference", "link_text"}
#: Some of the dictionary columns, with where `scan`'s record has them.
MAIL = ("message_id", "location", "encoding", "subject", "date", "date_utc")


def expected(records):
    """Per column name, `scan`'s values (the columns compared here)."""
    want = collections.defaultdict(list)
    for r in records:
        mail = r.get("mail") or {}
        for name in ("path", "kind", "scheme", "url", "host"):
            want[name].append(r.get(name))
        for name in MAIL:
            want[name].append(mail.get(name))
        want["from_address"].append((mail.get("from") or {}).get("address"))
    return want


def test_repeated_text_columns_are_dictionaries_with_each_value_once():
    pa = pytest.importorskip("pyarrow")
    schema = urlgrep.ARROW_SCHEMA
    dictionary = pa.dictionary(pa.int32(), pa.string())
    for field in schema:
        if field.name in STRINGS:
            assert field.type == pa.string(), field
        elif field.name in ("path", "kind", "scheme", "from_name", "record_id", *MAIL):
            assert field.type == dictionary, field
    batches = list(urlgrep.scan_arrow(CORPORA, metadata=True, batch_size=64))
    records = list(urlgrep.scan(CORPORA, metadata=True))
    assert len(batches) > 3
    want = expected(records)
    at = 0
    for b in batches:
        b.validate(full=True)
        for name in ("path", "kind", "scheme", "from_address", *MAIL):
            column = b.column(name)
            assert column.type == dictionary
            values = column.dictionary.to_pylist()
            # Each value once (pandas' categories must be unique), and
            # values that come back after others (kinds, schemes, senders)
            # found again rather than added.
            assert len(values) == len(set(values)), name
            assert column.to_pylist() == want[name][at : at + b.num_rows], name
        at += b.num_rows
    assert at == len(records)
    # The corpora's kinds and schemes alternate: a batch's dictionary
    # holds far fewer values than rows.
    assert max(len(b.column("scheme").dictionary) for b in batches) < 20


def test_pandas_reads_the_table():
    pytest.importorskip("pyarrow")
    pd = pytest.importorskip("pandas")
    df = urlgrep.scan_arrow(CORPORA, metadata=True, batch_size=300).read_pandas()
    want = expected(list(urlgrep.scan(CORPORA, metadata=True)))
    assert len(df) == len(want["url"]) > 100
    assert isinstance(df["subject"].dtype, pd.CategoricalDtype)
    assert df["url"].dtype == object
    for name in ("path", "kind", "scheme", "url", "host", "from_address", *MAIL):
        got = [None if pd.isna(v) else v for v in df[name].astype(object)]
        assert got == want[name], name


def test_polars_reads_the_table():
    pytest.importorskip("pyarrow")
    pl = pytest.importorskip("polars")
    table = urlgrep.scan_arrow(CORPORA, metadata=True, batch_size=300).read_all()
    frame = pl.from_arrow(table)
    want = expected(list(urlgrep.scan(CORPORA, metadata=True)))
    assert frame.height == len(want["url"]) > 100
    for name in ("path", "kind", "scheme", "url", "host", "from_address", *MAIL):
        assert frame[name].cast(pl.Utf8).to_list() == want[name], name


def test_duckdb_reads_the_table():
    pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    urls = urlgrep.scan_arrow(CORPORA, metadata=True, batch_size=300).read_all()
    records = list(urlgrep.scan(CORPORA, metadata=True))
    got = duckdb.sql(
        "select subject, scheme, count(*) from urls group by 1, 2"
    ).fetchall()
    want = collections.Counter(
        ((r.get("mail") or {}).get("subject"), r["scheme"]) for r in records
    )
    assert {(s, k): n for s, k, n in got} == want
    assert len(want) > 10
