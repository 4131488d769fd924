#!/usr/bin/env python3
"""A peer of urlgrep on web archives, for `benches/compare.py --warc`:
reads the records of WARC files with FastWARC or warcio and counts the
matches of Python's `re` over each record's decoded payload.

Usage: warc_peer.py fastwarc|warcio FILE...

Prints the number of matches. The records read are the ones urlgrep
searches: `response`, `resource`, `conversion` and `metadata`.

- fastwarc: `ArchiveIterator(f, record_types=..., parse_http=True,
  auto_decode="transfer")` (chunked undone by FastWARC), then
  `record.reader.read()`, and `zlib.decompress` of a gzip or deflate
  `Content-Encoding`. Not `auto_decode="all"`: FastWARC 2.0.1 undoes
  the gzip content coding of a record, but its iterator then fails on
  the next record ("Gzip decompression error: data error" with
  `"content"`, a silent stop with `"all"`): of the 659 records of
  `gen_warc.py --min-mib 2`, it gave 15 (measured 2026-11-27), plain
  or gzip, where warcio, zlib and urlgrep read all 659.
- warcio: `ArchiveIterator(f)`, records of those types, then
  `record.content_stream().read()` (warcio undoes chunked and gzip).

The regex is benches/compare.py's REGEX in Python syntax: the schemes
urlgrep finds bare, then everything up to whitespace or one of
`[]<>"`. It differs from urlgrep in definition: no `<URL:...>`
wrappers, no trailing-punctuation trimming, no HTML entity decoding, no
host validation, and HTML markup is matched as text.
"""

import re
import sys
import zlib

REGEX = re.compile(
    rb'(?:https?|ftp|file|gopher|nntp|telnet|wais|prospero)://[^\][\s<>"]+'
    rb'|(?:mailto|news|urn):[^\][\s<>"]+')

TYPES = ("response", "resource", "conversion", "metadata")


def with_fastwarc(paths):
    from fastwarc.warc import ArchiveIterator, WarcRecordType
    types = (WarcRecordType.response | WarcRecordType.resource
             | WarcRecordType.conversion | WarcRecordType.metadata)
    n = 0
    for path in paths:
        with open(path, "rb") as fh:
            for rec in ArchiveIterator(fh, record_types=types,
                                       parse_http=True,
                                       auto_decode="transfer"):
                body = rec.reader.read()
                coding = (rec.http_headers.get("Content-Encoding", "")
                          if rec.http_headers is not None else "")
                coding = coding.strip().lower()
                if coding in ("gzip", "x-gzip", "deflate"):
                    try:
                        # 47: a zlib or gzip header, detected; deflate
                        # as sent is zlib-wrapped (RFC 9110 §8.4.1.2).
                        body = zlib.decompress(body, 47)
                    except zlib.error:
                        try:
                            body = zlib.decompress(body, -15)
                        except zlib.error:
                            pass
                n += len(REGEX.findall(body))
    return n


def with_warcio(paths):
    from warcio.archiveiterator import ArchiveIterator
    n = 0
    for path in paths:
        with open(path, "rb") as fh:
            for rec in ArchiveIterator(fh):
                if rec.rec_type in TYPES:
                    n += len(REGEX.findall(rec.content_stream().read()))
    return n


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("fastwarc", "warcio"):
        print(__doc__.splitlines()[3], file=sys.stderr)
        return 2
    peer = with_fastwarc if sys.argv[1] == "fastwarc" else with_warcio
    print(peer(sys.argv[2:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
