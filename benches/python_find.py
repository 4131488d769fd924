#!/usr/bin/env python3
"""urlgrep.find against the Python URL extractors, on the SpamAssassin
messages (issue 31's benchmark row).

Times, over the same texts (every message of the SpamAssassin public
corpus, read from ../shared/corpora without unpacking it to disk):

- ``urlgrep.find`` on each message's bytes, and on its text (``str``);
- ``urlgrep.find(find="all")`` (scheme-less e-mail, www, bare domains);
- urlextract (``URLExtract().find_urls``, pure Python);
- linkify-it-py (``LinkifyIt().match``, a port of linkify-it);
- the Rust ``Finder`` alone: ``urlgrep --mail off -j1 -c`` over the same
  bytes written as one file in /tmp (read from the page cache).

Each row is the median of RUNS runs (time.perf_counter around the whole
loop over the messages), the speed in MiB/s of the bytes, and the URLs
found. Needs a release build of the module and the peers, pinned:

    pip install ./bindings/python urlextract==1.10.0 linkify-it-py==2.2.0
    cargo build --release
    python3 benches/python_find.py [--runs N] [--peer-runs N] [--limit MESSAGES]

The peers find different things (urlextract also bare domains by TLD,
linkify-it e-mail addresses and `www.` names), so the counts are shown
beside the times; ``find="all"`` is the row that asks urlgrep for the
same kinds.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("URLGREP_SHARED", os.path.join(ROOT, "..", "shared"))
TARBALL = os.path.join(
    SHARED, "corpora", "spamassassin", "spamassassin-public-corpus.tar.gz"
)


def messages(limit):
    """The corpus's messages as bytes, in tar order."""
    out = []
    with tarfile.open(TARBALL) as t:
        for member in t:
            if member.isfile() and "/" in member.name:
                f = t.extractfile(member)
                if f is not None:
                    out.append(f.read())
            if limit and len(out) >= limit:
                break
    return out


def text(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def timed(fn, runs):
    """The median seconds of `fn()` over `runs` runs, and its result."""
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--peer-runs", type=int, default=3,
                   help="runs of the (slow) Python peers")
    p.add_argument("--limit", type=int, default=0, help="first N messages")
    p.add_argument("--urlgrep", default=os.path.join(ROOT, "target", "release", "urlgrep"))
    args = p.parse_args()

    import urlgrep

    data = messages(args.limit)
    # The peers need str; a message that is not UTF-8 is read as Latin-1
    # for them, as a user would.
    texts = [text(d) for d in data]
    total = sum(len(d) for d in data)
    mib = total / (1 << 20)
    print(f"{len(data)} messages, {total} bytes ({mib:.1f} MiB), "
          f"median of {args.runs} runs", file=sys.stderr)

    rows = []

    def row(name, fn, runs=args.runs):
        secs, count = timed(fn, runs)
        rows.append((name, secs, count))
        print(f"  {name}: {secs:.3f} s, {count} URLs", file=sys.stderr)

    row("urlgrep.find (bytes)", lambda: sum(len(urlgrep.find(d)) for d in data))
    row("urlgrep.find (str)", lambda: sum(len(urlgrep.find(t)) for t in texts))
    row('urlgrep.find(find="all")',
        lambda: sum(len(urlgrep.find(d, find="all")) for d in data))

    if os.path.exists(args.urlgrep):
        with tempfile.NamedTemporaryFile(suffix=".txt") as f:
            f.write(b"\n".join(data))
            f.flush()

            def cli():
                out = subprocess.run(
                    [args.urlgrep, "--mail", "off", "-j1", "-c", f.name],
                    capture_output=True, check=False).stdout
                return int(out.strip() or 0)

            row("Rust Finder (urlgrep --mail off -j1 -c)", cli)
    else:
        print(f"  {args.urlgrep}: absent, no Rust row", file=sys.stderr)

    try:
        from urlextract import URLExtract

        extractor = URLExtract()
        failed = set()

        def urlextract_count():
            n = 0
            for i, t in enumerate(texts):
                try:
                    n += len(extractor.find_urls(t))
                except UnicodeDecodeError:
                    # urlextract 1.10.0 fails on a few messages
                    # (uritools decodes percent-escapes as UTF-8): counted
                    # as none, as a caller catching it would.
                    failed.add(i)
            return n

        row("urlextract", urlextract_count, runs=args.peer_runs)
        if failed:
            print(f"  urlextract raised on {len(failed)} messages",
                  file=sys.stderr)
    except ImportError:
        print("  urlextract: not installed", file=sys.stderr)
    try:
        from linkify_it import LinkifyIt

        linkify = LinkifyIt()
        row("linkify-it-py",
            lambda: sum(len(linkify.match(t) or ()) for t in texts),
            runs=args.peer_runs)
    except ImportError:
        print("  linkify-it-py: not installed", file=sys.stderr)

    base = rows[0][1]
    print(f"\n| tool | median s | MiB/s | URLs | urlgrep.find (bytes) faster by |")
    print("|---|---:|---:|---:|---:|")
    for name, secs, count in rows:
        print(f"| {name} | {secs:.3f} | {mib / secs:.1f} | {count} | "
              f"{secs / base:.2f}x |")


if __name__ == "__main__":
    main()
