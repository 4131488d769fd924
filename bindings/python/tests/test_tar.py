"""Tar archives: `scan` reads each member as the file it holds, as the
CLI's default `--tar auto` does."""

import io
import tarfile

import urlgrep

from conftest import cli_json

#: A message whose URL is found only once its quoted-printable body is
#: decoded (a soft line break inside it).
MESSAGE = (
    b"From: Ann <ann@example.org>\n"
    b"Subject: a link\n"
    b"Content-Transfer-Encoding: quoted-printable\n"
    b"\n"
    b"see http://qp.example/a-long-=\n"
    b"path/page.html\n"
)


def write_tar(path):
    with tarfile.open(path, "w:gz") as tar:
        for name, data in [
            ("mail/1", MESSAGE),
            ("notes.txt", b"and <http://text.example/x>\n"),
            ("bin.dat", b"\0 http://binary.example/ \0"),
        ]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


def test_scan_reads_a_tarball_as_the_cli_does(tmp_path):
    path = tmp_path / "corpus.tar.gz"
    write_tar(path)
    got = urlgrep.scan([str(path)], metadata=True)
    got = [r for r in got if r["type"] == "match"]
    assert [r["url"] for r in got] == [
        "http://qp.example/a-long-path/page.html",
        "http://text.example/x",
    ]
    want, _ = cli_json(path)
    assert got == [r for r in want if r["type"] == "match"]


def test_tar_false_reads_the_archive_as_bytes(tmp_path):
    path = tmp_path / "corpus.tar.gz"
    write_tar(path)
    got = [r for r in urlgrep.scan([str(path)], tar=False) if r["type"] == "match"]
    want, _ = cli_json("--tar", "off", path)
    assert got == [r for r in want if r["type"] == "match"]
    urls = [r["url"] for r in got]
    # Read as bytes, the binary member is searched and the message not
    # decoded.
    assert "http://binary.example/" in urls
    assert "http://qp.example/a-long-path/page.html" not in urls
    assert urlgrep.stats([str(path)], tar=False)["matches"] == len(got)
