"""`scan`, `stats` and `scan_arrow` against the CLI, errors, early stop,
Ctrl-C and the GIL."""

import gc
import os
import signal
import threading
import time

import pytest
import urlgrep

from conftest import CORPORA, cli_json, cli_path


def threads_now():
    """The scans' threads of this process: the driver's thread
    (`urlgrep-scan`) and its pool's (`urlgrep-N`); pyarrow's own
    (jemalloc) are not counted."""
    names = []
    for t in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{t}/comm") as f:
                names.append(f.read().strip())
        except (FileNotFoundError, ProcessLookupError):
            pass  # ended meanwhile (before the open, or before the read)
    return sum(1 for n in names if n.startswith("urlgrep"))


def bytes_read():
    """Bytes this process has read (`rchar` of /proc/self/io)."""
    with open("/proc/self/io") as f:
        for line in f:
            if line.startswith("rchar:"):
                return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


#: No scan thread before any scan.
BASELINE = 0


def settled():
    """The thread count once the scans' threads are gone: a closed scan
    joins its thread, whose rayon pool's workers end just after (a
    dropped pool does not wait for them); waited for, up to 10 s."""
    deadline = time.monotonic() + 10
    while threads_now() > BASELINE and time.monotonic() < deadline:
        time.sleep(0.01)
    return threads_now()


def records_of(records, *types):
    return [r for r in records if r["type"] in types]


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A 24 MiB file with a URL a line (made here, no download)."""
    path = tmp_path_factory.mktemp("big") / "big.txt"
    line = b"see http://host%d.example/page?q=%d and more text here\n"
    with open(path, "wb") as f:
        for i in range(0, 400_000):
            f.write(line % (i % 997, i))
    return path


@pytest.mark.parametrize(
    "flags,kwargs",
    [
        ([], {"metadata": True}),
        (["--rejects"], {"metadata": True, "rejects": True}),
        (["--find", "all", "--html-context"], {"metadata": True, "find": "all", "html_context": True}),
        (["--mail", "off", "-j", "1"], {"metadata": True, "mail": "off", "jobs": 1}),
        (["--host", "python.org", "-e", "^https?:"], {"metadata": True, "host": "python.org", "regexp": "^https?:"}),
        (["--header", "X-Mailer", "--redact", "--unique"], {"metadata": True, "header": "X-Mailer", "redact": True, "unique": True}),
    ],
)
def test_scan_equals_cli_json(flags, kwargs):
    want, _ = cli_json(*flags, CORPORA)
    want = records_of(want, "match", "reject", "error")
    got = list(urlgrep.scan(str(CORPORA), **kwargs))
    assert len(got) > 10
    assert got == want


def test_scan_without_metadata_leaves_it_out():
    got = [r for r in urlgrep.scan(CORPORA / "mail" / "python-dev") if "mail" in r]
    assert got and not any("from" in r["mail"] or "subject" in r["mail"] for r in got)
    with_meta = [r for r in urlgrep.scan(CORPORA / "mail" / "python-dev", metadata=True)]
    assert any("subject" in r["mail"] for r in with_meta)


def test_stats_equals_cli():
    # --stats --json is one object over several lines.
    import json, subprocess
    p = subprocess.run([cli_path(), "--stats", "--json", CORPORA / "rfc", CORPORA / "mail"], capture_output=True)
    want = json.loads(p.stdout)
    got = urlgrep.stats([CORPORA / "rfc", str(CORPORA / "mail")])
    for d in (want, got):
        d.pop("elapsed_secs")
        d.pop("mib_per_sec")
    assert got == want
    assert got["matches"] > 100


def test_scan_arrow_equals_scan():
    pa = pytest.importorskip("pyarrow")
    reader = urlgrep.scan_arrow(CORPORA, metadata=True, batch_size=100)
    assert isinstance(reader, pa.RecordBatchReader)
    assert reader.schema == urlgrep.ARROW_SCHEMA
    table = reader.read_all()
    rows = table.to_pylist()
    records = list(urlgrep.scan(CORPORA, metadata=True))
    assert len(rows) == len(records) > 100
    assert table.num_rows == len(rows)
    for row, r in zip(rows, records):
        mail = r.get("mail") or {}
        html = r.get("html") or {}
        sender = mail.get("from") or {}
        assert row["path"] == r["path"]
        assert (row["offset"], row["line"], row["column"]) == (r["offset"], r["line"], r["column"])
        assert (row["kind"], row["url"], row["scheme"], row["host"]) == (r["kind"], r["url"], r["scheme"], r["host"])
        assert row["flags"] == r["flags"]
        assert row["defanged"] == r.get("defanged")
        assert row["message"] == mail.get("message")
        assert row["message_id"] == mail.get("message_id")
        assert row["part"] == mail.get("part")
        assert row["location"] == mail.get("location")
        assert row["decoded"] == mail.get("decoded")
        assert row["subject"] == mail.get("subject")
        assert row["date_utc"] == mail.get("date_utc")
        assert row["from_address"] == sender.get("address")
        assert row["link_text"] == html.get("link_text")
        for flag in ("message_id_truncated", "subject_truncated", "date_truncated"):
            assert row[flag] == (mail.get(flag, False) if mail else None)
        assert row["from_truncated"] == (sender.get("truncated", False) if "from" in mail else None)
    assert sum(1 for r in rows if r["subject"]) > 10


def test_scan_arrow_batches_outlive_their_scan():
    """The arrays are the scan's own buffers, not copies: a batch kept
    stays whole after its reader, its scan and the other batches are
    gone and their memory is reused."""
    pa = pytest.importorskip("pyarrow")
    want = [(r["path"], r["url"], r.get("mail", {}).get("subject")) for r in urlgrep.scan(CORPORA, metadata=True)]
    reader = urlgrep.scan_arrow(CORPORA, metadata=True, batch_size=50)
    batches = list(reader)
    del reader
    starts = [0]
    for b in batches:
        starts.append(starts[-1] + b.num_rows)
    assert len(batches) > 4 and starts[-1] == len(want)
    kept = batches[1::2]
    del batches
    gc.collect()
    churn = [bytes([i % 251]) * (64 + i % 4000) for i in range(20000)]
    got = pa.Table.from_batches(kept, schema=urlgrep.ARROW_SCHEMA).to_pylist()
    del churn
    want = [w for i in range(1, len(starts) - 1, 2) for w in want[starts[i] : starts[i + 1]]]
    assert [(r["path"], r["url"], r["subject"]) for r in got] == want


def row_of(r):
    """The `scan_arrow` row of the match record `r` (a dict of `scan`):
    its objects flattened as src/columns.rs says."""
    mail = r.get("mail")
    sender = (mail or {}).get("from")
    html = r.get("html") or {}
    web = r.get("record") or {}
    row = {name: r.get(name) for name in (
        "path", "offset", "line", "column", "kind", "url", "scheme", "host",
        "flags", "defanged", "reference")}
    row["path_escaped"] = r.get("path_escaped", False)
    for name in ("message", "message_offset", "message_id", "part", "location",
                 "encoding", "decoded", "subject", "date", "date_utc"):
        row[name] = (mail or {}).get(name)
    for name in ("message_id_truncated", "subject_truncated", "date_truncated"):
        row[name] = mail.get(name, False) if mail is not None else None
    row["from_address"] = (sender or {}).get("address")
    row["from_name"] = (sender or {}).get("name")
    row["from_truncated"] = sender.get("truncated", False) if sender is not None else None
    for name, key in (("html_in", "in"), ("html_element", "element"),
                      ("html_attribute", "attribute"), ("link_text", "link_text")):
        row[name] = html.get(key)
    for name in ("index", "offset", "gz_offset", "format", "type", "target_uri",
                 "date", "id", "content_type"):
        row["record_" + name] = web.get(name)
    return row


@pytest.mark.parametrize("kwargs", [
    dict(metadata=True, html_context=True),
    dict(find="all", keep_defanged=True, qp_repair=True),
    dict(mail="off"),
])
def test_scan_arrow_every_column_equals_scan(kwargs, tmp_path):
    """Every column of every row is the field of `scan`'s record (the
    rows come from borrowed match records, `scan`'s dicts from owned
    ones; both from the one place that builds a record's fields)."""
    pytest.importorskip("pyarrow")
    html = tmp_path / "html.mbox"
    html.write_bytes(
        b"From x@example.org Mon Jan  1 00:00:00 2024\n"
        b"From: =?utf-8?q?Ren=C3=A9?= <x@example.org>\nSubject: look\n"
        b"Date: Mon, 01 Jan 2024 10:00:00 +0100\nMessage-ID: <1@example.org>\n"
        b"Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n"
        b"<a href=3D\"http://evil.example/\">www.paypal.com</a>\n"
        b"<img src=3D\"http://img.example/p.png\"> hxxp://bad[.]example/x\n")
    paths = [CORPORA, html, WARC / "chunked-gzip.warc", WARC / "small.arc.gz"]
    rows = urlgrep.scan_arrow(paths, resolve=True, batch_size=64, **kwargs).read_all().to_pylist()
    records = list(urlgrep.scan(paths, resolve=True, **kwargs))
    assert len(rows) == len(records) > 100
    assert set(rows[0]) == set(row_of(records[0]))
    for row, r in zip(rows, records):
        assert row == row_of(r)
    if kwargs.get("html_context"):
        assert sum(1 for row in rows if row["html_in"]) > 10
        assert any("text-host-differs" in row["flags"] for row in rows)
    if kwargs.get("metadata"):
        assert sum(1 for row in rows if row["date_utc"] and row["from_name"]) > 10
    assert sum(1 for row in rows if row["record_index"] is not None) > 0


def test_scan_arrow_message_fields_repeated_for_a_message_s_urls(tmp_path):
    """The metadata columns (`from_*`, `subject*`, `date*`) of a row
    whose message is the row before's repeat that row's values
    (src/columns.rs, `Columns::same_message`): messages whose fields are
    null, valid, cut, equal to the last message's or not, between rows
    with no message, in batches of every size from 1 (a batch's first
    row repeats nothing) give `scan`'s fields."""
    pa = pytest.importorskip("pyarrow")

    def message(headers, urls):
        return (b"From x@example.org Mon Jan  1 00:00:00 2024\n" + headers
                + b"\n\n" + b" ".join(urls) + b"\n")

    long = b"s" * 3000
    mbox = tmp_path / "a.mbox"
    mbox.write_bytes(b"".join([
        message(b"From: A <a@example.org>\nSubject: one\n"
                b"Date: Mon, 01 Jan 2024 10:00:00 +0000",
                [b"http://a.example/%d" % i for i in range(3)]),
        # The same fields again, another message.
        message(b"From: A <a@example.org>\nSubject: one\n"
                b"Date: Mon, 01 Jan 2024 10:00:00 +0000",
                [b"http://b.example/%d" % i for i in range(2)]),
        # No From, no Date: nulls after values.
        message(b"Subject: two", [b"http://c.example/%d" % i for i in range(4)]),
        # An address without a name, a cut subject, a date not read.
        message(b"From: c@example.org\nSubject: " + long + b"\nDate: someday",
                [b"http://d.example/%d" % i for i in range(3)]),
        message(b"From: =?utf-8?q?Ren=C3=A9?= <r@example.org>\n"
                b"Date: Tue, 02 Jan 2024 10:00:00 +0100",
                [b"http://e.example/%d" % i for i in range(5)]),
        # No header at all.
        message(b"X-Nothing: here", [b"http://f.example/%d" % i for i in range(2)]),
    ]))
    text = tmp_path / "b.txt"
    text.write_bytes(b"http://t.example/1 http://t.example/2\n")
    paths = [mbox, text, mbox]
    records = list(urlgrep.scan(paths, metadata=True))
    assert len(records) == 2 * 19 + 2
    names = ("from_address", "from_name", "from_truncated", "subject",
             "subject_truncated", "date", "date_truncated", "date_utc",
             "message", "url")
    want = [{n: row_of(r)[n] for n in names} for r in records]
    assert any(w["subject_truncated"] for w in want)
    assert any(w["from_name"] is None and w["from_address"] for w in want)
    assert any(w["date"] and w["date_utc"] is None for w in want)
    for size in (1, 2, 3, 4, 5, 7, 1000):
        table = urlgrep.scan_arrow(paths, metadata=True, batch_size=size).read_all()
        for name in names:
            table.column(name).validate(full=True)
        got = table.select(list(names)).to_pylist()
        assert got == want, size


def test_scan_arrow_nulls_before_between_and_after_values(tmp_path):
    """One batch whose mail columns go null, valid, null (text, mail,
    text) and whose html columns stay null: the columns written lazily
    (src/columns.rs) give the same values, validity and null counts."""
    pa = pytest.importorskip("pyarrow")
    text = tmp_path / "a.txt"
    text.write_bytes(b"see http://a.example/one and http://a.example/two\n")
    mbox = tmp_path / "b.mbox"
    mbox.write_bytes(
        b"From x@example.org Mon Jan  1 00:00:00 2024\n"
        b"From: X <x@example.org>\nSubject: hello\n"
        b"Date: Mon, 01 Jan 2024 10:00:00 +0000\n\n"
        b"http://b.example/1 http://b.example/2 http://b.example/3\n")
    later = tmp_path / "c.txt"
    later.write_bytes(b"http://c.example/\n")
    paths = [text, mbox, later, text]
    batches = list(urlgrep.scan_arrow(paths, metadata=True, batch_size=1000))
    assert len(batches) == 1
    table = pa.Table.from_batches(batches)
    records = list(urlgrep.scan(paths, metadata=True))
    assert table.num_rows == len(records) == 8
    mails = [r.get("mail") or {} for r in records]
    assert table.column("subject").to_pylist() == [m.get("subject") for m in mails]
    assert table.column("message").to_pylist() == [m.get("message") for m in mails]
    assert table.column("decoded").to_pylist() == [m.get("decoded") for m in mails]
    assert table.column("subject").null_count == 5
    assert table.column("url").to_pylist() == [r["url"] for r in records]
    assert table.column("url").null_count == 0
    assert table.column("html_in").null_count == 8
    assert table.column("flags").to_pylist() == [r["flags"] for r in records]
    for name in ("subject", "message", "decoded", "url", "flags", "html_in"):
        table.column(name).validate(full=True)


def test_missing_path_raises_file_not_found_with_cli_message(tmp_path):
    missing = tmp_path / "nope.mbox"
    _, p = cli_json(missing)
    cli_message = p.stderr.decode().strip().removeprefix("urlgrep: ")
    with pytest.raises(FileNotFoundError) as e:
        list(urlgrep.scan(missing))
    assert e.value.strerror == cli_message and e.value.errno == 2
    assert cli_message in str(e.value)
    with pytest.raises(FileNotFoundError):
        urlgrep.stats(missing)


def test_records_before_an_error_come_first(tmp_path):
    ok = tmp_path / "a.txt"
    ok.write_bytes(b"http://a.example/\n")
    it = urlgrep.scan([ok, tmp_path / "missing"])
    assert next(it)["url"] == "http://a.example/"
    with pytest.raises(FileNotFoundError):
        next(it)
    assert list(it) == []


def test_scan_arrow_rows_before_an_error_come_first(tmp_path):
    """The rows read before an error are a batch of their own, then the
    error raises (collected: no row); none is lost or repeated."""
    pytest.importorskip("pyarrow")
    ok = tmp_path / "a.txt"
    ok.write_bytes(b"http://a.example/ http://b.example/\n")
    missing = tmp_path / "missing"
    reader = urlgrep.scan_arrow([ok, missing, ok], batch_size=100)
    assert reader.read_next_batch().column("url").to_pylist() == [
        "http://a.example/", "http://b.example/"]
    with pytest.raises(FileNotFoundError):
        reader.read_next_batch()
    table = urlgrep.scan_arrow([ok, missing, ok], on_error="collect").read_all()
    assert table.column("url").to_pylist() == ["http://a.example/", "http://b.example/"] * 2


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_unreadable_raises_permission_error(tmp_path):
    f = tmp_path / "secret.txt"
    f.write_bytes(b"http://a.example/\n")
    f.chmod(0)
    _, p = cli_json(f)
    with pytest.raises(PermissionError) as e:
        list(urlgrep.scan(f))
    assert e.value.strerror == p.stderr.decode().strip().removeprefix("urlgrep: ")


def test_on_error_collect_gives_the_cli_error_record(tmp_path):
    ok = tmp_path / "a.txt"
    ok.write_bytes(b"http://a.example/\n")
    missing = tmp_path / "missing"
    want, _ = cli_json(ok, missing)
    got = list(urlgrep.scan([ok, missing], on_error="collect"))
    assert got == records_of(want, "match", "error")
    assert got[-1]["type"] == "error"
    assert urlgrep.stats([ok, missing], on_error="collect")["errors"] == 1


def test_bad_options_raise_value_error_with_cli_message():
    _, p = cli_json("-e", "a(b", CORPORA / "rfc")
    cli_message = p.stderr.decode().removeprefix("urlgrep: ").rstrip("\n")
    with pytest.raises(ValueError) as e:
        urlgrep.scan(CORPORA, regexp="a(b")
    assert str(e.value) == cli_message
    with pytest.raises(ValueError, match=r'^--mail "maybe": expected auto, on or off$'):
        urlgrep.scan(CORPORA, mail="maybe")
    with pytest.raises(ValueError, match=r"^--host: "):
        urlgrep.scan(CORPORA, host="a..b")
    with pytest.raises(ValueError, match=r"^-j 0: use 1 to 1024 threads$"):
        urlgrep.stats(CORPORA, jobs=0)
    with pytest.raises(ValueError, match=r'^on_error "skip"'):
        urlgrep.scan(CORPORA, on_error="skip")
    with pytest.raises(ValueError, match=r"^-i/--ignore-case has no effect"):
        urlgrep.scan(CORPORA, ignore_case=True)


def test_early_stop_no_hang_no_duplicate_no_thread_left(big):
    before = settled()
    assert before == BASELINE
    first = []
    read = bytes_read()
    with urlgrep.scan(big, jobs=1) as it:
        for r in it:
            first.append(r)
            if len(first) == 3:
                break
    assert [r["url"] for r in first] == [f"http://host{i}.example/page?q={i}" for i in range(3)]
    # Closed: nothing more, and the scan's threads are gone.
    assert list(it) == []
    assert settled() == before
    # It stopped reading: a third of the file at most (measured: 4.2 of
    # 23.8 MB with one thread; a scan run to the end reads it all).
    assert bytes_read() - read < big.stat().st_size / 3
    # Dropped without close: the same.
    it = urlgrep.scan(big)
    assert next(it)["url"] == "http://host0.example/page?q=0"
    del it
    gc.collect()
    assert settled() == before
    # A reader closed early stops its scan too.
    pytest.importorskip("pyarrow")
    reader = urlgrep.scan_arrow(big, batch_size=10)
    batch = reader.read_next_batch()
    assert batch.num_rows == 10
    reader.close()
    del reader
    gc.collect()
    assert settled() == before


def test_scan_of_big_file_is_whole_and_in_order(big):
    urls = [r["url"] for r in urlgrep.scan(big, jobs=2)]
    assert len(urls) == 400_000
    assert urls[:2] == ["http://host0.example/page?q=0", "http://host1.example/page?q=1"]
    assert urls[-1] == "http://host997.example/page?q=399999".replace("997", str(399999 % 997))


def test_gil_is_released(big):
    """A Python thread counts while one call searches: with the GIL
    held through the call it could not count at all."""
    data = big.read_bytes()
    count = 0
    running = True

    def counter():
        nonlocal count
        while running:
            count += 1

    t = threading.Thread(target=counter)
    t.start()
    try:
        while count == 0:
            time.sleep(0.001)
        start = count
        urlgrep.find(data)
        during_find = count - start
        start = count
        urlgrep.stats(big)
        during_stats = count - start
    finally:
        running = False
        t.join()
    assert during_find > 1000
    assert during_stats > 1000


def test_ctrl_c_stops_a_waiting_scan(tmp_path):
    """A scan waiting on a FIFO that gives nothing: SIGINT raises
    KeyboardInterrupt in the consumer, and the scan's thread ends once
    its read does."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    before = settled()
    assert before == BASELINE
    it = urlgrep.scan(fifo)
    writer = os.open(fifo, os.O_WRONLY)  # the scan's read now blocks
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            next(it)
    finally:
        timer.cancel()
        os.close(writer)
    assert list(it) == []
    assert settled() == before


def test_host_file_equals_cli(tmp_path):
    hosts = tmp_path / "hosts.txt"
    hosts.write_text("# kept\npython.org\n0.0.0.0 WWW.W3.ORG\n")
    want, _ = cli_json("--host-file", hosts, "--exclude-host", "mail.python.org", CORPORA)
    got = list(urlgrep.scan(CORPORA, metadata=True, host_file=hosts, exclude_host="mail.python.org"))
    assert len(got) > 5
    assert got == records_of(want, "match")
    with pytest.raises(FileNotFoundError, match=r"^--host-file: .*missing"):
        urlgrep.scan(CORPORA, host_file=tmp_path / "missing")


def test_stats_partial_equals_cli_stats_tsv():
    import subprocess
    for flags, kwargs in (([], {}), (["--by", "month", "--rejects"], {"by": "month", "rejects": True})):
        p = subprocess.run([cli_path(), "--stats-tsv", *flags, CORPORA / "mail"], capture_output=True)
        got = urlgrep.stats(CORPORA / "mail", partial=True, **kwargs)
        assert isinstance(got, bytes) and got == p.stdout
    assert b"by-month\t" in got
    with pytest.raises(ValueError, match=r'^--by "week": expected year, month or day$'):
        urlgrep.stats(CORPORA, by="week")


def key_orders(obj):
    """The key order of every object in `obj` (a JSON value read with
    `object_pairs_hook=list`, or the same as dicts), depth first."""
    if isinstance(obj, dict):
        obj = list(obj.items())
    if isinstance(obj, list) and obj and all(isinstance(p, tuple) and len(p) == 2 for p in obj):
        orders = [[k for k, _ in obj]]
        for _, v in obj:
            orders += key_orders(v)
        return orders
    if isinstance(obj, list):
        return [o for v in obj for o in key_orders(v)]
    return []


@pytest.mark.parametrize(
    "flags,kwargs",
    [
        (["--find", "all", "--html-context", "--header", "X-Mailer", "--header", "Received"],
         {"metadata": True, "find": "all", "html_context": True, "header": ["X-Mailer", "Received"]}),
        (["--rejects", "--mail", "off"], {"metadata": True, "rejects": True, "mail": "off"}),
    ],
)
def test_scan_keys_come_in_cli_json_order(flags, kwargs):
    import json, subprocess
    p = subprocess.run([cli_path(), "--json", *flags, CORPORA], capture_output=True)
    want = [json.loads(line, object_pairs_hook=list) for line in p.stdout.splitlines()]
    want = [r for r in want if dict(r)["type"] in ("match", "reject", "error")]
    got = list(urlgrep.scan(CORPORA, **kwargs))
    assert len(got) == len(want) > 10
    # Nested objects too (`mail`, `from`, `headers`, `html`).
    for g, w in zip(got, want):
        assert key_orders(g) == key_orders(w)
    if "html_context" in kwargs:
        assert any(len(key_orders(g)) > 3 for g in got)


WARC = CORPORA.parent / "tests" / "data" / "warc"


@pytest.mark.parametrize(
    "name,flags,kwargs",
    [
        ("chunked-gzip.warc", [], {}),
        ("chunked-gzip.warc", ["--resolve"], {"resolve": True}),
        ("chunked-gzip.warc", ["--warc", "off"], {"warc": False}),
        ("small.arc.gz", [], {}),
        ("small.arc.gz", ["--resolve", "--find", "all"], {"resolve": True, "find": "all"}),
    ],
)
def test_scan_of_web_archive_equals_cli_json(name, flags, kwargs):
    want, _ = cli_json(*flags, WARC / name)
    want = records_of(want, "match", "reject", "error")
    got = list(urlgrep.scan(WARC / name, metadata=True, **kwargs))
    assert got == want and got
    web = [r for r in got if "record" in r]
    assert bool(web) == kwargs.get("warc", True)


def test_scan_arrow_has_web_record_columns():
    pa = pytest.importorskip("pyarrow")
    for name in ("chunked-gzip.warc", "small.arc.gz"):
        rows = urlgrep.scan_arrow(WARC / name, resolve=True).read_all().to_pylist()
        records = list(urlgrep.scan(WARC / name, resolve=True))
        assert len(rows) == len(records) > 0
        for row, r in zip(rows, records):
            w = r["record"]
            assert (row["record_index"], row["record_offset"], row["record_gz_offset"]) == (
                w["index"], w["offset"], w["gz_offset"])
            assert (row["record_format"], row["record_type"], row["record_target_uri"]) == (
                w["format"], w["type"], w["target_uri"])
            assert (row["record_date"], row["record_id"], row["record_content_type"]) == (
                w["date"], w["id"], w["content_type"])
            assert row["reference"] == r.get("reference")
    assert urlgrep.ARROW_SCHEMA.field("record_gz_offset").type == pa.uint64()


def test_kind_resolved_needs_resolve():
    with pytest.raises(ValueError, match="--kind resolved: found only with --resolve"):
        urlgrep.scan(WARC, kind="resolved")
    assert list(urlgrep.scan(WARC / "small.arc.gz", kind="resolved", resolve=True)) == [
        r for r in urlgrep.scan(WARC / "small.arc.gz", resolve=True) if r["kind"] == "resolved"]
