"""`find` and `find_iter` against the CLI's `--json` over the same bytes."""

import random

import pytest
import urlgrep

from conftest import CORPORA, cli_json


def corpus_files():
    return sorted(p for p in CORPORA.rglob("*") if p.is_file() and not p.name.startswith("."))


def as_record(m):
    """A Match as the fields of a `--json` match or reject record."""
    if m.reject:
        return ("reject", m.start, m.kind, m.url, m.scheme, m.reject)
    return ("match", m.start, m.kind, m.url, m.scheme, m.host, tuple(m.flags), m.defanged)


def cli_record(r):
    if r["type"] == "reject":
        return ("reject", r["offset"], r["kind"], r["url"], r["scheme"], r["reason"])
    return ("match", r["offset"], r["kind"], r["url"], r["scheme"], r["host"], tuple(r["flags"]), r.get("defanged"))


def compare_folder(folder, *flags, find_args):
    """Every file of `folder`: `find` over its bytes equals the CLI's
    records of that file (raw scans: `--mail off`, binary included)."""
    records, _ = cli_json("--mail", "off", "--text", *flags, folder)
    by_path = {}
    for r in records:
        if r["type"] in ("match", "reject"):
            by_path.setdefault(r["path"], []).append(cli_record(r))
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    assert files
    total = 0
    for f in files:
        got = [as_record(m) for m in urlgrep.find(f.read_bytes(), **find_args)]
        want = by_path.get(str(f), [])
        assert got == want, f
        total += len(got)
    return total


@pytest.mark.parametrize("sub", ["mail", "news", "rfc"])
def test_find_equals_cli_on_corpora(sub):
    total = compare_folder(CORPORA / sub, "--rejects", find_args={"rejects": True})
    assert total > 0


def test_find_all_detectors_equals_cli_on_corpora():
    total = compare_folder(
        CORPORA, "--rejects", "--find", "all", find_args={"rejects": True, "find": "all"}
    )
    assert total > 1000


def test_find_equals_cli_on_random_bytes(tmp_path):
    rng = random.Random(31)
    pieces = [b"http://", b"https://a.b/", b"<URL:", b">", b"\"", b" ", b"\n", b"www.",
              b"@", b".com", b"mailto:", b"%", b"\xe9", b"\x00", b"hxxp://", b"[.]", b"-\n"]
    for i in range(40):
        buf = bytearray()
        while len(buf) < 8192:
            if rng.random() < 0.5:
                buf += rng.choice(pieces)
            else:
                buf += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12)))
        (tmp_path / f"r{i:02}").write_bytes(bytes(buf))
    total = compare_folder(
        tmp_path, "--rejects", "--find", "all", find_args={"rejects": True, "find": "all"}
    )
    assert total > 100


def test_str_offsets_are_utf8_bytes():
    text = "café → http://a.example/x"
    (m,) = urlgrep.find(text)
    assert text.encode()[m.start:m.end] == b"http://a.example/x"
    assert (m.url, m.kind, m.scheme, m.host, m.flags, m.reject) == (
        "http://a.example/x", "bare", "http", "a.example", [], None)


def test_find_iter_equals_find():
    data = (CORPORA / "mail" / "python-dev" / "1999-04-part.mbox").read_bytes()
    eager = urlgrep.find(data, rejects=True, find="all")
    it = urlgrep.find_iter(data, rejects=True, find="all")
    assert iter(it) is it
    assert list(it) == eager
    assert len(eager) > 20
    assert list(it) == []


def test_find_iter_holds_a_copy():
    buf = bytearray(b"see http://a.example/ and http://b.example/")
    it = urlgrep.find_iter(buf)
    buf[:] = b"x" * len(buf)
    assert [m.url for m in it] == ["http://a.example/", "http://b.example/"]


def test_selection_by_scheme_and_kind():
    text = "<URL:ftp://a.example/x> http://b.example/ mailto:c@d.example bob@example.com"
    assert [m.url for m in urlgrep.find(text, scheme="ftp")] == ["ftp://a.example/x"]
    assert [m.url for m in urlgrep.find(text, scheme=["HTTP", "mailto"])] == [
        "http://b.example/", "mailto:c@d.example"]
    assert [m.url for m in urlgrep.find(text, kind="wrapped")] == ["ftp://a.example/x"]
    assert [m.kind for m in urlgrep.find(text, find="email", kind="email")] == ["email"]


def test_repr_and_fields():
    (m,) = urlgrep.find("<URL:http://a.\n b/x'y>")
    assert repr(m) == "Match(url=\"http://a.b/x'y\", start=0, end=22, kind='wrapped', flags=['joined'])"
    assert str(m) == "http://a.b/x'y"
    (r,) = urlgrep.find("http://a.b:99999/", rejects=True)
    assert r.reject == "bad-port" and "reject='bad-port'" in repr(r)
    assert r.host is None


def test_memoryview_and_bytearray():
    data = b"x http://a.example/ y"
    assert urlgrep.find(memoryview(data)) == urlgrep.find(bytearray(data)) == urlgrep.find(data)


def test_bad_options_raise_value_error_with_cli_message():
    with pytest.raises(ValueError, match=r'^--find "emial": expected email, www'):
        urlgrep.find("x", find="emial")
    with pytest.raises(ValueError, match=r"^--kind email: found only with --find email"):
        urlgrep.find("x", kind="email")
    with pytest.raises(ValueError, match=r'^--scheme "htps": not a registered scheme'):
        urlgrep.find("x", scheme="htps")
    with pytest.raises(ValueError, match=r"^--max-url-len 0"):
        urlgrep.find("x", max_url_len=0)
    with pytest.raises(TypeError):
        urlgrep.find(12)
