#!/usr/bin/env python3
"""Cross-check urlgrep's mail decoding against Python's `email` package.

Python decodes the text parts of each message (quoted-printable, base64;
HTML character references unescaped in text/html parts) and a simple
regex takes the http(s) URLs. Each one is then looked up among the body
URLs urlgrep found in the same file, and the misses are sorted into
categories with a few examples each.

Usage (stdlib only; not run in CI):

    cargo run --release --example mail_urls -- DIR > urlgrep.tsv
    python3 tests/mail_crosscheck.py DIR urlgrep.tsv

`DIR` holds one message per file (Maildir, MH, the SpamAssassin and
blinux-list corpora); a file that starts with an mbox `From ` line is read
as one message, as the corpora are.
"""

import collections
import email
import email.policy
import html
import os
import re
import sys

URL = re.compile(rb"https?://[^\s<>\"'{}|\\^`\x00-\x20\x7f-\xff]+", re.I)
TRAIL = b".,;:!?*"
LIMIT = int(os.environ.get("EXAMPLES", "8"))


def trim(url):
    """Trailing punctuation and unbalanced closing brackets off."""
    while url:
        last = url[-1:]
        if last in [bytes([c]) for c in TRAIL]:
            url = url[:-1]
        elif last == b")" and url.count(b"(") < url.count(b")"):
            url = url[:-1]
        elif last == b"]" and url.count(b"[") < url.count(b"]"):
            url = url[:-1]
        else:
            break
    return url


def python_urls(path):
    with open(path, "rb") as f:
        msg = email.message_from_binary_file(f, policy=email.policy.compat32)
    urls = []
    for part in msg.walk():
        if part.get_content_maintype() != "text":
            continue
        payload = part.get_payload(decode=True)
        if not isinstance(payload, bytes):
            continue
        if part.get_content_subtype() == "html":
            payload = html.unescape(payload.decode("latin-1")).encode(
                "latin-1", "replace"
            )
        for m in URL.finditer(payload):
            u = trim(m.group(0))
            if len(u) > len(b"https://"):
                urls.append(u)
    return urls


def main():
    root, tsv = sys.argv[1], sys.argv[2]
    ours = collections.defaultdict(list)
    with open(tsv, "rb") as f:
        for line in f:
            cols = line.rstrip(b"\n").split(b"\t")
            if len(cols) == 7 and cols[3] == b"body":
                ours[os.fsdecode(cols[0])].append(cols[6])
    files = sorted(
        os.path.join(d, n) for d, _, ns in os.walk(root) for n in ns
    )
    cats = collections.Counter()
    examples = collections.defaultdict(list)
    total = 0
    for path in files:
        mine = ours.get(path, [])
        mine_set = set(mine)
        mine_lower = {u.lower() for u in mine}
        for u in python_urls(path):
            total += 1
            if u in mine_set:
                cats["found"] += 1
                continue
            if u.lower() in mine_lower:
                cat = "found, other case"
            elif any(m.startswith(u) for m in mine):
                cat = "urlgrep longer"
            elif any(u.startswith(m) for m in mine):
                cat = "urlgrep shorter"
            else:
                cat = "missing"
            cats[cat] += 1
            if len(examples[cat]) < LIMIT:
                near = [m for m in mine if m[:12] == u[:12]][:2]
                examples[cat].append((path, u, near))
    print(f"python URLs: {total} in {len(files)} files")
    for cat, n in cats.most_common():
        print(f"{n:7}  {cat}")
    for cat, exs in examples.items():
        print(f"\n== {cat}")
        for path, u, near in exs:
            print(f"  {os.path.relpath(path, root)}\n    python:  {u!r}")
            for m in near:
                print(f"    urlgrep: {m!r}")


if __name__ == "__main__":
    main()
