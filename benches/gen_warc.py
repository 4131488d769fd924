#!/usr/bin/env python3
"""Web archives for the issue 30 benchmarks, written by warcio (the
format's reference implementation, independent of urlgrep's reader).

Outputs, under /tmp/urlgrep-bench/warc/ (never in the repository):

- `spamassassin.warc.gz`: WARC/1.0, one gzip member per record (warcio's
  `WARCWriter(gzip=True)`, zlib level 9). A `warcinfo` record, then
  `response` records until the file passes `--min-mib` MiB (default 200
  MiB = 209.7 MB; the last record is finished, so it is slightly more).
- `spamassassin.warc.wet.gz`: WET-style WARC/1.0 of the same pages, one
  `conversion` record (`text/plain`, `WARC-Refers-To` the response's
  record id, same target URI and date) per response record, after a
  `warcinfo` record, one gzip member per record.
- with `--big`: `big-1g.warc`, `big-64m.warc` and `big-1m.warc`, one
  `resource` record (`text/plain`) each, of 1 GiB (1,073,741,824
  bytes), 64 MiB and 1 MiB of
  repeated text with URLs (the 4 KiB block `big_block()`), streamed from a
  seekable generator (never held in memory), uncompressed, plus the same
  files gzipped by warcio (`big-1g.warc.gz`, ...).
- with `--min-mib 20 --out DIR`: the first records of the 200 MiB files
  (the same generator, stopped sooner), for the slow peers.

How the response records are made, exactly:

1. `../shared/corpora/spamassassin/spamassassin-public-corpus.tar.gz` is
   unpacked to /tmp/urlgrep-bench (as benches/compare.py does); its files
   are read in sorted path order (dot files skipped).
2. Each file is parsed by Python's `email.message_from_bytes` (policy
   compat32); every part whose content type is `text/html` gives one page:
   `part.get_payload(decode=True)` (base64 and quoted-printable undone, the
   charset left as it is; the part's charset parameter, or iso-8859-1,
   goes into the HTTP Content-Type). Empty payloads are skipped. Parts
   are numbered in that order: page i.
3. The pages are written in passes (pass 0, 1, 2, ...) until the output
   passes the size. Record n (counting from 0 over all passes) of page i
   in pass k has:
   - target URI `http://site{h}.example/{folder}/{file}-{part}.html?p={k}`
     where h = (i * 7919 + k * 104729) % 5000, folder/file the message's
     path under the corpus, part its index among the message's parts;
   - WARC-Date 2026-01-01T00:00:00Z + n seconds, WARC-Record-ID
     `<urn:uuid:...>` from the seeded generator (uuid4 form), so that the
     files are the same on every run with the same Python zlib;
   - an HTTP/1.1 200 head (Date, Server, Content-Type, Connection: close)
     and a body coded by a draw from `random.Random(SEED)` (SEED = 30,
     one `random()` per record, in record order): < 0.40 identity with
     Content-Length; < 0.60 `Transfer-Encoding: chunked` (chunk sizes drawn
     uniformly from 1..8192, lower-case hex, `0\\r\\n\\r\\n` last);
     < 0.90 `Content-Encoding: gzip` (Python `gzip.compress`, level 6,
     mtime 0) with Content-Length; else gzip and then chunked.
   The chunk sizes and record ids come from the same generator, drawn
   after the coding.
4. The WET text of a page is its HTML (decoded with its charset,
   errors replaced) with tags removed by `html.parser.HTMLParser` (a
   line break at `br`, `p`, `div`, `tr`, `li`, `h1`-`h3`, `table`, `td`;
   text of `script` and `style` dropped; character references decoded;
   runs of whitespace within a line collapsed, blank lines dropped),
   UTF-8; pages with no text are skipped in the WET file. A conversion
   record's id comes from `random.Random(<its response's id>)`.
5. Two runs of `--min-mib 2` gave byte-identical files (Python 3.11.7,
   its zlib; 2026-11-27). The default run gives 78,407 responses in
   209,715,452 bytes (pass 65 unfinished) and a WET of 107,558,151.
   warcio 1.7.4 (target/warcio-venv, the cross-check's) wrote files of
   the same sizes (2026-11-27; not compared byte for byte).

Usage: benches/gen_warc.py [--min-mib N] [--big] [--out DIR]

Needs warcio (pinned: warcio==1.8.1), e.g. in a venv outside the
repository: `python3 -m venv /tmp/warcbench-venv &&
/tmp/warcbench-venv/bin/pip install warcio==1.8.1 fastwarc==2.0.1`.
"""

import argparse
import datetime
import email
import email.policy
import gzip
import html.parser
import io
import os
import random
import sys
import uuid

from warcio.warcwriter import WARCWriter

# The bench script beside this one unpacks the corpora with the same
# marker files, so the two share the unpacked tree.
from compare import log, unpack

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(REPO, "..", "shared", "corpora")
WORK = "/tmp/urlgrep-bench"
SEED = 30
EPOCH = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)


def files_under(path):
    out = []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        out.extend(os.path.join(root, f) for f in sorted(files))
    return [f for f in out if not os.path.basename(f).startswith(".")]


class Text(html.parser.HTMLParser):
    """The text of an HTML page, as a WET conversion holds it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag in ("br", "p", "div", "tr", "li", "h1", "h2", "h3",
                     "table", "td"):
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def page_text(body, charset):
    try:
        s = body.decode(charset, errors="replace")
    except LookupError:
        s = body.decode("iso-8859-1")
    p = Text()
    try:
        p.feed(s)
        p.close()
    except Exception:  # html.parser gives up on some spam; keep what it had
        pass
    lines = (" ".join(line.split()) for line in "".join(p.out).split("\n"))
    return "\n".join(line for line in lines if line).encode("utf-8")


def pages():
    """[(folder/file, part index, html bytes, charset, wet text)]."""
    unpack(f"{SHARED}/spamassassin/spamassassin-public-corpus.tar.gz", WORK)
    base = f"{WORK}/spamassassin"
    out = []
    for path in files_under(base):
        with open(path, "rb") as fh:
            msg = email.message_from_bytes(fh.read(),
                                           policy=email.policy.compat32)
        for n, part in enumerate(msg.walk()):
            if part.get_content_type() != "text/html":
                continue
            try:
                body = part.get_payload(decode=True)
            except Exception:
                continue
            if not body:
                continue
            charset = part.get_content_charset() or "iso-8859-1"
            if not all(c.isalnum() or c in "-_.:" for c in charset):
                charset = "iso-8859-1"
            rel = os.path.relpath(path, base)
            out.append((rel, n, body, charset, page_text(body, charset)))
    return out


def chunked(body, rng):
    out = io.BytesIO()
    i = 0
    while i < len(body):
        n = rng.randint(1, 8192)
        piece = body[i:i + n]
        out.write(b"%x\r\n" % len(piece) + piece + b"\r\n")
        i += n
    out.write(b"0\r\n\r\n")
    return out.getvalue()


def http_response(body, charset, when, rng):
    """The HTTP/1.1 message of one response record."""
    draw = rng.random()
    head = [b"HTTP/1.1 200 OK",
            b"Date: " + when.strftime("%a, %d %b %Y %H:%M:%S GMT").encode(),
            b"Server: Apache/2.4.41 (Unix)",
            b"Content-Type: text/html; charset=" + charset.encode()]
    if draw >= 0.60:
        body = gzip.compress(body, compresslevel=6, mtime=0)
        head.append(b"Content-Encoding: gzip")
    if 0.40 <= draw < 0.60 or draw >= 0.90:
        body = chunked(body, rng)
        head.append(b"Transfer-Encoding: chunked")
    else:
        head.append(b"Content-Length: %d" % len(body))
    head.append(b"Connection: close")
    return b"\r\n".join(head) + b"\r\n\r\n" + body


def record_id(rng):
    return f"<urn:uuid:{uuid.UUID(int=rng.getrandbits(128), version=4)}>"


def warc_date(when):
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def warcinfo(writer, name, what):
    info = {"software": "warcio 1.8.1 via urlgrep benches/gen_warc.py",
            "format": "WARC File Format 1.0",
            "description": what}
    rec = writer.create_warcinfo_record(name, info)
    rec.rec_headers.replace_header("WARC-Date", warc_date(EPOCH))
    rec.rec_headers.replace_header(
        "WARC-Record-ID", "<urn:uuid:00000000-0000-4000-8000-000000000000>")
    writer.write_record(rec)


def web(out_dir, min_bytes):
    all_pages = pages()
    log(f"{len(all_pages)} text/html parts")
    rng = random.Random(SEED)
    warc_path = os.path.join(out_dir, "spamassassin.warc.gz")
    wet_path = os.path.join(out_dir, "spamassassin.warc.wet.gz")
    n = 0
    with open(warc_path + ".tmp", "wb") as wf, \
            open(wet_path + ".tmp", "wb") as tf:
        warc = WARCWriter(wf, gzip=True)
        wet = WARCWriter(tf, gzip=True)
        warcinfo(warc, "spamassassin.warc.gz",
                 "HTML parts of the SpamAssassin public corpus as responses")
        warcinfo(wet, "spamassassin.warc.wet.gz",
                 "their text as WET conversion records")
        k = 0
        while wf.tell() < min_bytes:
            for i, (rel, part, body, charset, text) in enumerate(all_pages):
                if wf.tell() >= min_bytes:
                    break
                h = (i * 7919 + k * 104729) % 5000
                uri = f"http://site{h}.example/{rel}-{part}.html?p={k}"
                when = EPOCH + datetime.timedelta(seconds=n)
                http = http_response(body, charset, when, rng)
                rid = record_id(rng)
                rec = warc.create_warc_record(
                    uri, "response", payload=io.BytesIO(http),
                    length=len(http),
                    warc_headers_dict={"WARC-Date": warc_date(when),
                                       "WARC-Record-ID": rid})
                warc.write_record(rec)
                if text:
                    conv = wet.create_warc_record(
                        uri, "conversion", payload=io.BytesIO(text),
                        length=len(text), warc_content_type="text/plain",
                        warc_headers_dict={
                            "WARC-Date": warc_date(when),
                            "WARC-Record-ID": record_id(
                                random.Random(rid)),
                            "WARC-Refers-To": rid})
                    wet.write_record(conv)
                n += 1
            k += 1
            log(f"pass {k}: {n} records, {wf.tell() / (1 << 20):.1f} MiB")
    os.rename(warc_path + ".tmp", warc_path)
    os.rename(wet_path + ".tmp", wet_path)
    log(f"wrote {warc_path} ({os.path.getsize(warc_path):,} bytes, "
        f"{n} responses) and {wet_path} ({os.path.getsize(wet_path):,})")


def big_block():
    """4 KiB of text with URLs, repeated to make the big records."""
    lines = []
    i = 0
    while sum(len(x) for x in lines) < 4096:
        lines.append(f"line {i}: see https://www.example.com/page/{i}?q=x "
                     f"and <URL:ftp://ftp.example.org/pub/f{i}.tar.gz>, "
                     f"mail mailto:user{i}@example.net today.\n".encode())
        i += 1
    return b"".join(lines)[:4095] + b"\n"


class Repeat(io.RawIOBase):
    """`size` bytes of `block` repeated: a seekable stream, never held."""

    def __init__(self, block, size):
        self.block = block
        self.size = size
        self.pos = 0

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, pos, whence=0):
        self.pos = pos if whence == 0 else (
            self.pos + pos if whence == 1 else self.size + pos)
        return self.pos

    def readinto(self, b):
        n = min(len(b), self.size - self.pos, 1 << 20)
        if n <= 0:
            return 0
        off = self.pos % len(self.block)
        out = bytearray()
        while len(out) < n:
            out += self.block[off:off + n - len(out)]
            off = 0
        b[:n] = out
        self.pos += n
        return n


def big(out_dir):
    block = big_block()
    for name, size in (("big-1g", 1 << 30), ("big-64m", 64 << 20),
                       ("big-1m", 1 << 20)):
        for gz in (False, True):
            path = os.path.join(out_dir, name + (".warc.gz" if gz
                                                  else ".warc"))
            if os.path.exists(path):
                continue
            log(f"writing {path}")
            with open(path + ".tmp", "wb") as fh:
                w = WARCWriter(fh, gzip=gz)
                rec = w.create_warc_record(
                    f"http://big.example/{name}.txt", "resource",
                    payload=io.BufferedReader(Repeat(block, size), 1 << 20),
                    length=size, warc_content_type="text/plain",
                    warc_headers_dict={
                        "WARC-Date": warc_date(EPOCH),
                        "WARC-Record-ID":
                            f"<urn:uuid:00000000-0000-4000-8000-"
                            f"{size:012x}>"})
                w.write_record(rec)
            os.rename(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-mib", type=int, default=200)
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--out", default=os.path.join(WORK, "warc"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.big:
        big(args.out)
    else:
        web(args.out, args.min_mib << 20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
