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
    # pandas 2: object; pandas 3 reads a string column as its `str`
    # dtype (StringDtype) by default.
    assert df["url"].dtype == object or isinstance(df["url"].dtype, pd.StringDtype)
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


def test_scan_arrow_same_rows_whatever_the_threads(tmp_path):
    """The rows come in input order, the same at -j1, -j2 and -j4: each
    batch is finished by whichever worker reports it (src/run.rs), in the
    driver's order, and nothing of it depends on which thread that was."""
    pa = pytest.importorskip("pyarrow")
    html = tmp_path / "html.mbox"
    html.write_bytes(
        b"From x@example.org Mon Jan  1 00:00:00 2024\n"
        b"From: X <x@example.org>\nSubject: look\nContent-Type: text/html\n\n"
        + b"<a href=\"http://evil.example/\">www.paypal.com</a>\n" * 50)
    paths = [CORPORA, html, CORPORA]
    kwargs = dict(metadata=True, html_context=True, batch_size=64)
    tables = {}
    for jobs in (1, 2, 4):
        batches = list(urlgrep.scan_arrow(paths, jobs=jobs, **kwargs))
        assert all(0 < b.num_rows <= 64 for b in batches)
        tables[jobs] = pa.Table.from_batches(batches).combine_chunks()
    assert tables[1].num_rows > 200
    assert tables[2].to_pylist() == tables[1].to_pylist()
    assert tables[4].to_pylist() == tables[1].to_pylist()


def test_scan_arrow_columns_null_in_one_batch_valued_in_the_next(tmp_path):
    """A column all null in a batch gets no room in the next
    (src/columns.rs, `Room::Null`): when values come there after all, it
    grows from nothing, and gives `scan`'s values. Text (no mail, no
    html), then html mail, then text again, in batches of 16 rows."""
    pa = pytest.importorskip("pyarrow")
    text = tmp_path / "a.txt"
    text.write_bytes(b"".join(b"see http://a.example/%d\n" % i for i in range(40)))
    mbox = tmp_path / "b.mbox"
    mbox.write_bytes(
        b"From x@example.org Mon Jan  1 00:00:00 2024\n"
        b"From: X <x@example.org>\nSubject: hello\nContent-Type: text/html\n"
        b"Date: Mon, 01 Jan 2024 10:00:00 +0000\n\n"
        + b"".join(b"<a href=\"http://b.example/%d\">here</a>\n" % i for i in range(40)))
    paths = [text, mbox, text, mbox]
    kwargs = dict(metadata=True, html_context=True)
    batches = list(urlgrep.scan_arrow(paths, batch_size=16, jobs=1, **kwargs))
    records = list(urlgrep.scan(paths, jobs=1, **kwargs))
    table = pa.Table.from_batches(batches)
    assert table.num_rows == len(records) == 160
    # Batches all null in the html and mail columns, then valued.
    html_nulls = [b.column("html_in").null_count for b in batches]
    assert 16 in html_nulls and 0 in html_nulls
    for b in batches:
        b.validate(full=True)
    mails = [r.get("mail") or {} for r in records]
    htmls = [r.get("html") or {} for r in records]
    assert table.column("url").to_pylist() == [r["url"] for r in records]
    assert table.column("subject").to_pylist() == [m.get("subject") for m in mails]
    assert table.column("message").to_pylist() == [m.get("message") for m in mails]
    assert table.column("decoded").to_pylist() == [m.get("decoded") for m in mails]
    assert table.column("html_in").to_pylist() == [h.get("in") for h in htmls]
    assert table.column("link_text").to_pylist() == [h.get("link_text") for h in htmls]
    assert table.column("flags").to_pylist() == [r["flags"] for r in records]
