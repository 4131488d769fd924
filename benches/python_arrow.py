#!/usr/bin/env python3
"""urlgrep.scan_arrow into a pyarrow Table against the CLI's `--json`
(issue 31's benchmark row): time and peak memory.

On one folder (default: the SpamAssassin messages, unpacked under
/tmp/urlgrep-bench-sa from ../shared/corpora), each in its own process
under `/usr/bin/time` (elapsed seconds, peak RSS), RUNS rounds with the
cases interleaved; the median, the spread (least-most) and the ratio to
the CLI:

- ``urlgrep --json FOLDER > /dev/null`` (the release CLI);
- ``urlgrep.scan_arrow(FOLDER, metadata=True).read_all()``;
- ``urlgrep.scan(FOLDER, metadata=True)`` consumed (dicts only);
- ``python -c "import pyarrow, urlgrep"``: the interpreter's start and
  the imports alone, which every Python row pays;
- ``pyarrow.json.read_json`` of the CLI's `--json` output, written
  beforehand (the load alone: what a user does without the module).

Then one process times its parts (``time.perf_counter``): the imports,
``scan_arrow``'s batches, ``Scan._next_columns`` alone (the Rust side
without pyarrow), and ``scan``'s dicts.

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


def timed(argv, stdout=subprocess.DEVNULL):
    """Elapsed seconds and peak RSS (KiB) of one run of `argv`."""
    with tempfile.NamedTemporaryFile("r") as out:
        subprocess.run(["/usr/bin/time", "-f", "%e %M", "-o", out.name, *argv],
                       stdout=stdout, check=True)
        e, m = out.read().split()[-2:]
    return float(e), int(m)


def measure_all(runs, cases):
    """Each case run once a round, RUNS rounds (interleaved: a change of
    the machine's load falls on every case alike); per case the median,
    the least and the most seconds, and the largest peak RSS."""
    got = {name: [] for name, _ in cases}
    for _ in range(runs):
        for name, argv in cases:
            got[name].append(timed(argv))
    return [(name, statistics.median(s for s, _ in got[name]),
             min(s for s, _ in got[name]), max(s for s, _ in got[name]),
             max(m for _, m in got[name])) for name, _ in cases]


SPLIT = """
import sys, time
t0 = time.perf_counter()
import pyarrow, urlgrep
t1 = time.perf_counter()
r = urlgrep.scan_arrow(sys.argv[1], metadata=True)
n = 0
for b in r:
    n += b.num_rows
t2 = time.perf_counter()
s = urlgrep.scan(sys.argv[1], metadata=True)
while s._next_columns(8192) is not None:
    pass
t3 = time.perf_counter()
m = sum(1 for _ in urlgrep.scan(sys.argv[1], metadata=True))
t4 = time.perf_counter()
print(f"import pyarrow+urlgrep {t1 - t0:.3f} s; scan_arrow batches {t2 - t1:.3f} s "
      f"({n} rows); Scan._next_columns alone (no pyarrow) {t3 - t2:.3f} s; "
      f"scan dicts {t4 - t3:.3f} s")
"""


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--urlgrep", default=os.path.join(ROOT, "target", "release", "urlgrep"))
    p.add_argument("folder", nargs="?")
    args = p.parse_args()
    folder = args.folder or spamassassin()
    py = sys.executable
    arrow = ("import urlgrep, sys; t = urlgrep.scan_arrow(sys.argv[1], "
             "metadata=True).read_all(); print(t.num_rows, file=sys.stderr)")
    dicts = ("import urlgrep, sys; print(sum(1 for _ in urlgrep.scan(sys.argv[1], "
             "metadata=True)), file=sys.stderr)")
    imports = "import pyarrow, urlgrep"
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        subprocess.run([args.urlgrep, "--json", folder], stdout=f, check=False)
        load = ("import pyarrow.json as j, sys; t = j.read_json(sys.argv[1]); "
                "print(t.num_rows, file=sys.stderr)")
        rows = measure_all(args.runs, [
            ("urlgrep --json > /dev/null", [args.urlgrep, "--json", folder]),
            ("urlgrep.scan_arrow(...).read_all()", [py, "-c", arrow, folder]),
            ("urlgrep.scan(...) consumed", [py, "-c", dicts, folder]),
            ("python -c 'import pyarrow, urlgrep' (start-up alone)", [py, "-c", imports]),
            ("pyarrow.json.read_json(--json output)", [py, "-c", load, f.name]),
        ])
    base = rows[0][1]
    print(f"{args.runs} rounds, interleaved")
    print()
    print("| run | median s | min-max s | x CLI | peak RSS MiB |")
    print("|---|---:|---:|---:|---:|")
    for name, med, lo, hi, rss in rows:
        print(f"| {name} | {med:.2f} | {lo:.2f}-{hi:.2f} | {med / base:.2f} | {rss / 1024:.0f} |")
    print()
    split = subprocess.run([py, "-c", SPLIT, folder], capture_output=True, text=True, check=True)
    print(split.stdout.strip())


if __name__ == "__main__":
    main()
