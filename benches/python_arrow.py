#!/usr/bin/env python3
"""urlgrep.scan_arrow into a pyarrow Table against the CLI's `--json`
(issue 31's benchmark row): time and peak memory.

On one folder (default: the SpamAssassin messages, unpacked under
/tmp/urlgrep-bench-sa from ../shared/corpora), each in its own process
under `/usr/bin/time` (elapsed seconds, peak RSS), median of RUNS runs:

- ``urlgrep --json FOLDER > /dev/null`` (the release CLI);
- ``urlgrep.scan_arrow(FOLDER, metadata=True).read_all()``;
- ``urlgrep.scan(FOLDER, metadata=True)`` consumed (dicts only);
- ``pyarrow.json.read_json`` of the CLI's `--json` output, written
  beforehand (the load alone: what a user does without the module).

    pip install ./bindings/python pyarrow
    cargo build --release
    python3 benches/python_arrow.py [--runs N] [FOLDER]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.environ.get("URLGREP_SHARED", os.path.join(ROOT, "..", "shared"))
WORK = "/tmp/urlgrep-bench-sa"


def spamassassin():
    if not os.path.isdir(WORK):
        tarball = os.path.join(SHARED, "corpora", "spamassassin",
                               "spamassassin-public-corpus.tar.gz")
        with tarfile.open(tarball) as t:
            t.extractall(WORK)
    return WORK


def measure(argv, runs, stdout=subprocess.DEVNULL):
    """Median elapsed seconds and the largest peak RSS (KiB) of `argv`."""
    secs, rss = [], []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r") as out:
            subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", out.name, *argv],
                           stdout=stdout, check=True)
            e, m = out.read().split()[-2:]
        secs.append(float(e))
        rss.append(int(m))
    return statistics.median(secs), max(rss)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--urlgrep", default=os.path.join(ROOT, "target", "release", "urlgrep"))
    p.add_argument("folder", nargs="?")
    args = p.parse_args()
    folder = args.folder or spamassassin()
    py = sys.executable
    rows = []
    rows.append(("urlgrep --json > /dev/null",
                 measure([args.urlgrep, "--json", folder], args.runs)))
    arrow = ("import urlgrep, sys; t = urlgrep.scan_arrow(sys.argv[1], "
             "metadata=True).read_all(); print(t.num_rows, file=sys.stderr)")
    rows.append(("urlgrep.scan_arrow(...).read_all()",
                 measure([py, "-c", arrow, folder], args.runs)))
    dicts = ("import urlgrep, sys; print(sum(1 for _ in urlgrep.scan(sys.argv[1], "
             "metadata=True)), file=sys.stderr)")
    rows.append(("urlgrep.scan(...) consumed",
                 measure([py, "-c", dicts, folder], args.runs)))
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        subprocess.run([args.urlgrep, "--json", folder], stdout=f, check=False)
        load = ("import pyarrow.json as j, sys; t = j.read_json(sys.argv[1]); "
                "print(t.num_rows, file=sys.stderr)")
        rows.append(("pyarrow.json.read_json(--json output)",
                     measure([py, "-c", load, f.name], args.runs)))
    base = rows[0][1][0]
    print(f"| run | median s | x CLI | peak RSS MiB |")
    print("|---|---:|---:|---:|")
    for name, (secs, rss) in rows:
        print(f"| {name} | {secs:.2f} | {secs / base:.2f} | {rss / 1024:.0f} |")


if __name__ == "__main__":
    main()
