#!/usr/bin/env python3
"""Cross-check urlgrep's message metadata against Python's `email` package.

For every message, Python reads `Date` with
`email.utils.parsedate_to_datetime` (a date without a known zone is taken
as UTC, as RFC 5322 §3.3 reads `-0000`), `Subject` and the `From` display
name with `email.header.decode_header`, and the `From` address with
`email.utils.parseaddr`; urlgrep's reading comes from
`examples/mail_meta.rs`. Each field is compared and the disagreements
are sorted into categories with a few examples each.

Usage (stdlib only; not run in CI):

    cargo run --release --example mail_meta -- PATH... > meta.jsonl
    python3 tests/meta_crosscheck.py meta.jsonl PATH...

Files that start with an mbox `From ` line are read with `mailbox.mbox`
and matched to urlgrep's messages by Message-ID (the two frame mboxes
differently: Python splits at every `From ` line); other files are one
message each, matched by path. Header values with raw 8-bit bytes are
counted and left out (Python's compat32 gives them back as `Header`
objects of the unknown-8bit charset, not as text).
"""

import collections
import datetime
import email
import email.header
import email.policy
import email.utils
import json
import mailbox
import os
import re
import sys

LIMIT = int(os.environ.get("EXAMPLES", "5"))


def files_of(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for name in sorted(names):
                    yield os.path.join(root, name)
        else:
            yield path


def text(value):
    """A raw header value as str, or None when it holds 8-bit bytes."""
    if value is None:
        return None
    if isinstance(value, email.header.Header):
        return None
    return str(value)


def py_decode(raw):
    """decode_header, each chunk decoded by its charset."""
    try:
        parts = email.header.decode_header(raw)
    except email.errors.HeaderParseError:
        return None
    out = []
    for chunk, charset in parts:
        if isinstance(chunk, str):
            out.append(chunk)
            continue
        try:
            out.append(chunk.decode(charset or "ascii", "replace"))
        except LookupError:
            out.append(chunk.decode("utf-8", "replace"))
    return "".join(out)


def py_date(raw):
    try:
        d = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if d is None:
        return None
    if d.tzinfo is None:
        d = d.replace(tzinfo=datetime.timezone.utc)
    return d.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def squash(s):
    return re.sub(r"\s+", " ", s or "").strip()


def python_messages(path):
    with open(path, "rb") as f:
        head = f.read(5)
    if head == b"From ":
        for msg in mailbox.mbox(path, create=False):
            yield msg
    else:
        with open(path, "rb") as f:
            yield email.message_from_binary_file(
                f, policy=email.policy.compat32)


def main():
    ours_path, paths = sys.argv[1], sys.argv[2:]
    by_file = {}
    by_id = collections.defaultdict(list)
    for line in open(ours_path, encoding="utf-8"):
        rec = json.loads(line)
        by_file.setdefault(rec["file"], []).append(rec)
        if rec["message_id"]:
            by_id[(rec["file"], rec["message_id"].strip())].append(rec)
    stats = collections.Counter()
    diffs = collections.defaultdict(list)
    seen = collections.Counter()

    def note(kind, *example):
        stats[kind] += 1
        if len(diffs[kind]) < LIMIT:
            diffs[kind].append(example)

    for path in files_of(paths):
        mbox = open(path, "rb").read(5) == b"From "
        msgs = list(python_messages(path))
        # The same framing when the counts agree: pair in order.
        in_order = mbox and len(msgs) == len(by_file.get(path, []))
        if mbox:
            stats["mbox files framed alike" if in_order
                  else "mbox files framed differently"] += 1
        for k, msg in enumerate(msgs):
            if in_order:
                ours = by_file[path][k]
            elif mbox:
                # The n-th message with an ID pairs with urlgrep's n-th
                # (archives repeat messages).
                key = (path, (text(msg.get("Message-ID")) or "").strip())
                recs = by_id.get(key, [])
                n = seen[key]
                seen[key] += 1
                if not key[1] or n >= len(recs):
                    stats["messages not matched (no Message-ID, or more "
                          "than urlgrep framed)"] += 1
                    continue
                ours = recs[n]
            else:
                recs = by_file.get(path, [])
                if len(recs) != 1:
                    stats["files not one message for urlgrep"] += 1
                    continue
                ours = recs[0]
            stats["messages"] += 1
            # Date.
            raw = text(msg.get("Date"))
            if msg.get("Date") is not None and raw is None:
                stats["date: 8-bit, skipped"] += 1
            elif raw is not None:
                stats["date: compared"] += 1
                theirs = py_date(raw)
                if theirs == ours["date_utc"]:
                    stats["date: agree"] += 1
                elif theirs is None:
                    note("date: only urlgrep reads it", raw, ours["date_utc"])
                elif ours["date_utc"] is None:
                    note("date: only Python reads it", raw, theirs)
                else:
                    note("date: both read, differ", raw, theirs,
                         ours["date_utc"])
            # Subject.
            raw = text(msg.get("Subject"))
            if msg.get("Subject") is not None and raw is None:
                stats["subject: 8-bit, skipped"] += 1
            elif raw is not None:
                stats["subject: compared"] += 1
                theirs = py_decode(raw)
                if "=?" in raw:
                    stats["subject: with encoded words"] += 1
                if theirs is not None and squash(theirs) == squash(
                        ours["subject"]):
                    stats["subject: agree"] += 1
                elif theirs is not None and re.sub(r"\s", "", theirs) == \
                        re.sub(r"\s", "", ours["subject"] or ""):
                    note("subject: differ in blanks only", raw, theirs,
                         ours["subject"])
                else:
                    note("subject: differ", raw, theirs, ours["subject"])
            # From.
            raw = text(msg.get("From"))
            if msg.get("From") is not None and raw is None:
                stats["from: 8-bit, skipped"] += 1
            elif raw is not None:
                stats["from: compared"] += 1
                name, addr = email.utils.parseaddr(raw)
                name = py_decode(name) if name else None
                if (addr or None) == ours["from_address"]:
                    stats["from address: agree"] += 1
                elif re.match(r"^\S+ at \S+", raw) and "@" not in raw:
                    note("from address: pipermail `user at host` (urlgrep "
                         "reads user@host, Python the first word)", raw, addr,
                         ours["from_address"])
                else:
                    note("from address: differ", raw, addr,
                         ours["from_address"])
                if squash(name) == squash(ours["from_name"]):
                    stats["from name: agree"] += 1
                else:
                    note("from name: differ", raw, name, ours["from_name"])
    for k in sorted(stats):
        print(f"{stats[k]:8}  {k}")
    for k in sorted(diffs):
        print(f"\n== {k} ({stats[k]})")
        for ex in diffs[k]:
            print("   ", " | ".join(repr(x) for x in ex))


if __name__ == "__main__":
    main()
