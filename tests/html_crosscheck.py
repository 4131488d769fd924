#!/usr/bin/env python3
"""Cross-check the URLs urlgrep finds in HTML attribute values against the
values a WHATWG tokenizer reads (issue 18).

urlgrep searches a `text/html` part as text, with the six named character
references and the numeric ones decoded (src/mail/decode.rs,
`html_references`), and then places each URL with html5gum's tokenizer
(src/mail/html.rs). This script reads `urlgrep --json` over mail and, for
every match that the tokenizer placed in an attribute value of an
identity-encoded part, reads that value from the stored bytes at the
match's offset (quoted: up to the closing quote; unquoted: up to a blank
or `>`), decodes its references with Python's `html.unescape` (the
HTML Living Standard's full table, legacy names included) and compares
it, trimmed, with urlgrep's URL. The results are sorted into categories
with a few examples each.

Usage (stdlib only; not run in CI):

    urlgrep -j1 --json FOLDER_OR_MBOX... > out.jsonl
    python3 tests/html_crosscheck.py < out.jsonl

Matches in quoted-printable or base64 parts are counted and left out (their
stored bytes are not the value).
"""

import collections
import html
import json
import re
import sys


def value_at(data, at):
    """The attribute value whose match starts at `at` (at its quote)."""
    q = data[at:at + 1]
    if q in (b'"', b"'"):
        end = data.find(q, at + 1)
        return data[at + 1:end if end >= 0 else len(data)]
    end = at
    while end < len(data) and data[end:end + 1] not in b" \t\r\n>":
        end += 1
    return data[at:end]


def main():
    stats = collections.Counter()
    examples = collections.defaultdict(list)
    cached = {}
    for line in sys.stdin:
        r = json.loads(line)
        if r.get("type") != "match" or "html" not in r:
            continue
        h = r["html"]
        stats["HTML matches"] += 1
        stats["  in " + h["in"]] += 1
        if h["in"] != "attribute":
            continue
        if r["mail"]["encoding"] != "identity":
            stats["attribute, not identity-encoded (left out)"] += 1
            continue
        path = r["path"]
        if path not in cached:
            cached = {path: open(path, "rb").read()}
        raw = value_at(cached[path], r["offset"])
        value = html.unescape(raw.decode("utf-8", "replace")).strip()
        joined = re.sub(r"[\r\n]+[ \t]*", "", value)
        url = r["url"]
        if url == value:
            k = "the same"
        elif url == joined:
            k = "the same once line breaks in the value are removed"
        elif value.startswith(url):
            k = "the URL is a prefix of the value (the scanner ended it)"
        else:
            k = "different"
        stats["attribute: " + k] += 1
        if k != "the same" and len(examples[k]) < 5:
            examples[k].append((raw[:100], url[:100]))
    for k, v in sorted(stats.items()):
        print(f"{v:8d}  {k}")
    for k, ex in examples.items():
        print(f"-- {k}")
        for raw, url in ex:
            print(f"   value: {raw!r}")
            print(f"   url:   {url}")


if __name__ == "__main__":
    main()
