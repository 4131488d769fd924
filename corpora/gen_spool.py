#!/usr/bin/env python3
"""Write a big mbox spool for benchmarks by concatenating real messages.

Usage:
    python3 corpora/gen_spool.py --size 64 --out /tmp/spool.mbox
    python3 corpora/gen_spool.py --size 256 --source /tmp/corp/python-dev \
        --source corpora/mail --seed 7 --out -

Messages come from the files under each --source (default: corpora/mail and
corpora/news beside this script).  A file that starts with an mbox "From "
line is split into its messages at "From " lines (pipermail style: only a
line "From <addr> <asctime>" after a blank line starts a message); any other
file is one message (an .eml or a news article) and gets a "From " envelope
line.  The messages are written in a fixed round-robin order (or shuffled
with --seed) until the output reaches --size MiB; the last message is
written whole, so the file may be slightly larger.  Message bytes are
copied unchanged (CRLF and 8-bit bytes included); a message that does not
end in a newline gets one, and a blank line separates messages, as mbox
wants.  Stdlib only.
"""

import argparse
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_SOURCES = [os.path.join(HERE, "mail"), os.path.join(HERE, "news")]
ENVELOPE = b"From urlgrep-spool@example.invalid Thu Jan  1 00:00:00 1970\n"
# An mbox separator: "From " sender, then an asctime date at the end.
FROM_LINE = re.compile(
    rb"^From \S+.*\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) "
    rb"\w{3} +\d+ \d\d:\d\d:\d\d \d{4}\s*$"
)


def split_mbox(data):
    """Splits mbox bytes into messages at "From " separator lines."""
    starts = [0]
    pos = 0
    for line in data.splitlines(keepends=True):
        if pos > 0 and FROM_LINE.match(line):
            starts.append(pos)
        pos += len(line)
    starts.append(len(data))
    return [data[a:b] for a, b in zip(starts, starts[1:]) if b > a]


def messages(path):
    """The messages of one file, each starting with a "From " line."""
    with open(path, "rb") as f:
        data = f.read()
    if not data:
        return []
    if data.startswith(b"From "):
        return split_mbox(data)
    return [ENVELOPE + data]


def collect(sources):
    out = []
    for src in sources:
        if os.path.isfile(src):
            out.extend(messages(src))
            continue
        for root, dirs, files in os.walk(src):
            dirs.sort()
            for name in sorted(files):
                if name.startswith(".") or name.endswith((".py", ".md")):
                    continue
                out.extend(messages(os.path.join(root, name)))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--size", type=float, required=True, help="MiB to write")
    p.add_argument("--out", default="-", help="output file, - for stdout")
    p.add_argument("--source", action="append", help="file or directory")
    p.add_argument("--seed", type=int, help="shuffle messages with this seed")
    args = p.parse_args(argv)
    msgs = collect(args.source or DEFAULT_SOURCES)
    if not msgs:
        p.error("no messages found in the sources")
    if args.seed is not None:
        random.Random(args.seed).shuffle(msgs)
    target = int(args.size * 1024 * 1024)
    out = sys.stdout.buffer if args.out == "-" else open(args.out, "wb")
    written = 0
    count = 0
    try:
        while written < target:
            for msg in msgs:
                if written >= target:
                    break
                if not msg.endswith(b"\n"):
                    msg += b"\n"
                if not msg.endswith(b"\n\n") and not msg.endswith(b"\r\n\r\n"):
                    msg += b"\n"
                out.write(msg)
                written += len(msg)
                count += 1
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    print(
        f"gen_spool: {count} messages, {written} bytes from {len(msgs)} "
        f"distinct messages",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
