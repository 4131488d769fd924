#!/usr/bin/env python3
"""Writes the hand-made WARC and ARC fixtures of tests/warc.rs (issue 30).

    python3 tests/data/warc/make.py

Each file is small and says in its records what it tests. The compressed
bodies are made with Python's gzip/zlib (mtime 0, so the bytes are the
same on every run). The two-member .warc.gz is built by the test itself.
"""

import gzip
import os
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
HTML = (
    b"<!doctype html>\n<html><body>\n"
    b'<a href="http://links.example/one">one</a>\n'
    b'<img src="https://img.example/two.png">\n'
    b"</body></html>\n"
)


def record(rtype, fields, block, length=None):
    head = [b"WARC/1.1", b"WARC-Type: " + rtype]
    head += fields
    head.append(b"Content-Length: %d" % (len(block) if length is None else length))
    return b"\r\n".join(head) + b"\r\n\r\n" + block + b"\r\n\r\n"


def warcinfo():
    return record(
        b"warcinfo",
        [
            b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>",
            b"WARC-Date: 2026-11-27T11:00:00Z",
            b"Content-Type: application/warc-fields",
        ],
        b"software: tests/data/warc/make.py\r\nformat: WARC File Format 1.1\r\n",
    )


def response(uri, http_head, body, rid, length=None):
    return record(
        b"response",
        [
            b"WARC-Record-ID: <urn:uuid:" + rid + b">",
            b"WARC-Date: 2026-11-27T11:00:01.5Z",
            b"WARC-Target-URI: " + uri,
            b"Content-Type: application/http; msgtype=response",
        ],
        http_head + b"\r\n" + body,
        length,
    )


def resource(uri, body, rid):
    return record(
        b"resource",
        [
            b"WARC-Record-ID: <urn:uuid:" + rid + b">",
            b"WARC-Date: 2026-11-27T11:00:02Z",
            b"WARC-Target-URI: " + uri,
            b"Content-Type: text/plain",
            b"X-Folded: first",
            b"  second",
        ],
        body,
    )


def chunk(data, sizes):
    out, at = b"", 0
    for n in sizes:
        out += b"%x\r\n" % n + data[at : at + n] + b"\r\n"
        at += n
    rest = data[at:]
    if rest:
        out += b"%x;ext=1\r\n" % len(rest) + rest + b"\r\n"
    return out + b"0\r\nX-Trailer: t\r\n\r\n"


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def main():
    gz = gzip.compress(HTML, mtime=0)
    write(
        "chunked-gzip.warc",
        warcinfo()
        + response(
            b"http://site.example/page",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
            b"Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n",
            chunk(gz, [10, 1, 30]),
            b"00000000-0000-0000-0000-000000000002",
        ),
    )
    zl = zlib.compress(HTML)
    raw = zlib.compressobj(wbits=-15)
    raw = raw.compress(HTML) + raw.flush()
    write(
        "deflate.warc",
        response(
            b"http://site.example/zlib",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: deflate\r\n",
            zl,
            b"00000000-0000-0000-0000-000000000003",
        )
        + response(
            b"http://site.example/raw",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: deflate\r\n",
            raw,
            b"00000000-0000-0000-0000-000000000004",
        ),
    )
    write(
        "br.warc",
        response(
            b"http://site.example/br",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br\r\n",
            b"\x1b\x2a\x00\xf8\x8d\x94\x6e\x17\x03not really brotli",
            b"00000000-0000-0000-0000-000000000005",
        )
        + resource(b"urn:after-br", b"after", b"00000000-0000-0000-0000-000000000006"),
    )
    full = warcinfo() + resource(b"urn:whole", b"whole record", b"00000000-0000-0000-0000-000000000007")
    cut = response(
        b"http://site.example/cut",
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n",
        HTML,
        b"00000000-0000-0000-0000-000000000008",
    )
    # Cut in its block: 40 bytes of the HTML are there.
    block_at = cut.index(b"<!doctype")
    write("truncated.warc", full + cut[: block_at + 40])
    write(
        "length-past-eof.warc",
        full
        + resource(b"urn:short", b"short block", b"00000000-0000-0000-0000-000000000009").replace(
            b"Content-Length: 11", b"Content-Length: 50000"
        ),
    )
    write(
        "garbage.warc",
        warcinfo()
        + b"this line is no record\r\nnor WARC/1.1 this one\r\n"
        + resource(b"urn:after-garbage", b"found again", b"00000000-0000-0000-0000-00000000000a"),
    )
    bad = chunk(HTML, [20]).replace(b"%x;ext=1\r\n" % (len(HTML) - 20), b"zz\r\n")
    write(
        "bad-chunk.warc",
        response(
            b"http://site.example/bad-chunk",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n",
            bad,
            b"00000000-0000-0000-0000-00000000000b",
        )
        + resource(b"urn:after-bad-chunk", b"next", b"00000000-0000-0000-0000-00000000000c"),
    )
    desc = b"1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n"
    http = b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n" + HTML
    dns = b"20261127110000\nsite.example. 300 IN A 192.0.2.1\n"
    write(
        "small.arc",
        b"filedesc://small.arc 0.0.0.0 20261127110000 text/plain %d\n" % len(desc)
        + desc
        + b"\n"
        + b"http://site.example/ 192.0.2.1 20261127110001 text/html %d\n" % len(http)
        + http
        + b"\n"
        + b"dns:site.example 192.0.2.2 20261127110002 text/dns %d\n" % len(dns)
        + dns
        + b"\n",
    )
    with open(os.path.join(HERE, "small.arc"), "rb") as f:
        arc = f.read()
    write("small.arc.gz", b"".join(gzip.compress(part, mtime=0) for part in split_arc(arc)))


def split_arc(arc):
    """small.arc's records, each with its newline, for one member each."""
    parts, at = [], 0
    while at < len(arc):
        line_end = arc.index(b"\n", at) + 1
        length = int(arc[at:line_end].split(b" ")[-1])
        end = line_end + length + 1
        parts.append(arc[at:end])
        at = end
    return parts


if __name__ == "__main__":
    main()
