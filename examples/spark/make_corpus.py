#!/usr/bin/env python3
"""Writes the small corpus of the Spark test (`.ci/spark-test`) into DIR.

    python3 examples/spark/make_corpus.py DIR [--bad]

The files are the shapes a Spark job hands urlgrep, deterministic (no
randomness, fixed gzip timestamps):

list.mbox     an mbox with CRLF line ends and Latin-1 bytes (in the text
              and inside a URL, which --json must percent-encode), dates
              over several months (for --by month), RFC
              1738 `<URL:...>` wrappers broken across lines, `<...>`,
              `"..."` and bare URLs
news.gz       a multi-member gzip (two members, as in WARC/WET files) of
              news articles
digest        bzip2 without a telling name: only its magic bytes say so
rfc.txt.xz    xz
crawl.warc.gz a web archive as crawlers write it (issue 30): one gzip
              member a record, warcinfo, request and response records
              (HTML pages linking out, one chunked), dated over two
              months; the requests' and the records' own URIs are not
              counted
pages.warc.wet.gz  WET: `conversion` records of the pages' text
empty.txt     an empty file (urlgrep exits 1: no URL)
plain.txt     text with no URL at all

With --bad it writes only `truncated.gz`, a gzip file cut short, on which
urlgrep must fail (exit status 2), for the driver's error path.
"""

import bz2
import gzip
import lzma
import os
import sys


def message(i):
    """One mail message, LF line ends (converted to CRLF later)."""
    return (
        f"From list-owner{i}@lists.example.org Mon Jan  {i % 9 + 1} "
        f"12:00:00 1996\n"
        f"From: R\xe9my Fran\xe7ois <remy{i}@example.fr>\n"
        f"Subject: Caf\xe9 r\xe9sum\xe9 #{i}\n"
        f"{date(i)}"
        f"Message-ID: <{i}.1996@example.fr>\n"
        f"\n"
        f"Le caf\xe9 est ici <URL:http://www.example.fr/caf%E9/\n"
        f"    menu-{i}.html> et l\xe0.\n"
        f"See <http://ftp.example.org/pub/docs/{i}/index.html>, or\n"
        f'"ftp://ftp.example.org/pub/rfc/rfc{1700 + i}.txt" for the text.\n'
        f"Bare: https://www.example.com/a/b?id={i}&x=y. End (see\n"
        f"http://en.example.org/wiki/Thing_({i})).\n"
        f"Long wrapper <URL:http://archive.example.net/very/long/path/that-\n"
        f" was/broken-at-a-hyphen/{i}>\n"
        f"mailto: <URL:mailto:remy{i}@example.fr> and news:comp.lang.rust\n"
        f"Le menu: <URL:http://www.example.fr/r\xe9sum\xe9/{i}\n"
        f"   /index.html> (Latin-1 inside a wrapper)\n"
        f"\n"
    ).encode("latin-1")


def date(i):
    """A `Date:` line for message i: spread over five months of 1996 and
    1997 (for `--by month`), every seventh message without one (counted
    under `unknown`)."""
    if i % 7 == 6:
        return ""
    return f"Date: Mon, {i % 28 + 1} {MONTHS[i % 5]} {1996 + i % 2} " \
        f"12:00:00 +0100\n"


MONTHS = ("Jan", "Feb", "Mar", "Jun", "Dec")


def article(i):
    """One news article."""
    return (
        f"Path: news.example.com!not-for-mail\n"
        f"From: user{i}@example.com\n"
        f"Newsgroups: comp.infosystems.www\n"
        f"Subject: Re: links {i}\n"
        f"Message-ID: <art{i}@news.example.com>\n"
        f"\n"
        f"Try http://www.example.com/~user{i}/ and\n"
        f"<URL:gopher://gopher.example.edu:70/11/{i}> or\n"
        f"<URL:ftp://ftp.example.edu/pub/\n"
        f"        file{i}.tar.Z>\n"
        f"telnet://bbs.example.org:23 is down.\n"
        f"\n"
    ).encode("ascii")


def rfc_page(i):
    return (
        f"RFC {1000 + i}            Example              January 1996\n\n"
        f"   The resource is at <URL:http://www.ietf.example/rfc/{i}.txt>\n"
        f"   and the mirror at ftp://ftp.ietf.example/rfc/rfc{i}.txt.\n"
        f"\f\n"
    ).encode("ascii")


def warc_record(kind, uri, date, block, content_type, k):
    """One WARC/1.1 record (CRLF CRLF after its block)."""
    head = (
        f"WARC/1.1\r\nWARC-Type: {kind}\r\n"
        f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{k:012d}>\r\n"
        f"WARC-Date: {date}\r\n"
        + (f"WARC-Target-URI: {uri}\r\n" if uri else "")
        + f"Content-Type: {content_type}\r\n"
        f"Content-Length: {len(block)}\r\n\r\n"
    ).encode("ascii")
    return head + block + b"\r\n\r\n"


def page_html(i):
    return (
        f"<html><head><title>Page {i}</title></head><body>\n"
        f"<a href=\"http://links.example.net/p{i}\">next</a>\n"
        f"<img src='https://img.example.net/{i}.png'>\n"
        f"<p>See http://www.example.org/docs/{i}.html for more.</p>\n"
        f"</body></html>\n"
    ).encode("ascii")


def chunked(body):
    """`body` in two HTTP/1.1 chunks (RFC 9112 §7.1)."""
    half = len(body) // 2
    parts = [body[:half], body[half:]]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in parts) + b"0\r\n\r\n"


def crawl(n):
    """A .warc.gz of n pages, one gzip member a record."""
    out = [gzip_member(warc_record(
        "warcinfo", None, "2024-01-01T00:00:00Z",
        b"software: make_corpus.py\r\n", "application/warc-fields", 0))]
    for i in range(n):
        uri = f"http://site{i % 3}.example.com/page/{i}"
        date = f"2024-{1 + i % 2:02d}-{1 + i % 28:02d}T12:00:00Z"
        req = (f"GET /page/{i} HTTP/1.1\r\nHost: site{i % 3}.example.com\r\n"
               f"Referer: http://referer.example.com/\r\n\r\n").encode("ascii")
        out.append(gzip_member(warc_record(
            "request", uri, date, req,
            "application/http; msgtype=request", 2 * i + 1)))
        body = page_html(i)
        if i % 4 == 0:
            http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                    b"Transfer-Encoding: chunked\r\n\r\n" + chunked(body))
        else:
            http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                    b"Content-Length: %d\r\n\r\n" % len(body) + body)
        out.append(gzip_member(warc_record(
            "response", uri, date, http,
            "application/http; msgtype=response", 2 * i + 2)))
    return b"".join(out)


def wet(n):
    """A WET file: the pages' text as `conversion` records."""
    out = []
    for i in range(n):
        uri = f"http://site{i % 3}.example.com/page/{i}"
        text = (f"Page {i}\nnext see http://www.example.org/docs/{i}.html "
                f"and https://wet.example.net/{i}\n").encode("ascii")
        out.append(gzip_member(warc_record(
            "conversion", uri, f"2024-02-{1 + i % 28:02d}T12:00:00Z", text,
            "text/plain", 1000 + i)))
    return b"".join(out)


def gzip_member(data):
    return gzip.compress(data, compresslevel=6, mtime=0)


def write(dirname, name, data):
    with open(os.path.join(dirname, name), "wb") as f:
        f.write(data)


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit("usage: make_corpus.py DIR [--bad]")
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    if "--bad" in argv[1:]:
        whole = gzip_member(b"".join(article(i) for i in range(40)))
        write(out, "truncated.gz", whole[: len(whole) // 2])
        return
    mbox = b"".join(message(i) for i in range(60))
    write(out, "list.mbox", mbox.replace(b"\n", b"\r\n"))
    first = b"".join(article(i) for i in range(0, 25))
    second = b"".join(article(i) for i in range(25, 50))
    write(out, "news.gz", gzip_member(first) + gzip_member(second))
    write(out, "digest", bz2.compress(b"".join(message(i) for i in range(20))))
    write(
        out,
        "rfc.txt.xz",
        lzma.compress(b"".join(rfc_page(i) for i in range(30))),
    )
    write(out, "crawl.warc.gz", crawl(12))
    write(out, "pages.warc.wet.gz", wet(12))
    write(out, "empty.txt", b"")
    write(out, "plain.txt", b"No address here, only text.\n" * 50)


if __name__ == "__main__":
    main(sys.argv[1:])
