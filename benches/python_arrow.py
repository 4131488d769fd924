#!/usr/bin/env python3
"""urlgrep.scan_arrow into a pyarrow Table against the CLI's `--json`
(issue 31's benchmark row): time and peak memory.

On one input (default: the mbox spool of benches/compare.py,
/tmp/urlgrep-bench/spool.mbox, written from ../shared/corpora when
missing; ``--sa`` the SpamAssassin folder), each in its own process
(elapsed seconds by ``perf_counter``, CPU and peak RSS by ``os.wait4``),
RUNS rounds with the cases interleaved; the median, the spread
(least-most), the ratio of medians to the CLI and the quartiles of the
per-round ratio (paired):

- ``urlgrep --json INPUT > /dev/null`` (the release CLI);
- ``urlgrep.scan_arrow(INPUT, metadata=True).read_all()``, the whole
  process (the interpreter's start and ``import pyarrow`` included);
- the same call timed inside its process (``time.perf_counter`` around
  the call alone, after the imports): what a notebook user waits;
- ``urlgrep.scan(FOLDER, metadata=True)`` consumed (dicts only);
- ``python -c "import pyarrow, urlgrep"``: the interpreter's start and
  the imports alone, which every Python row pays;
- ``pyarrow.json.read_json`` of the CLI's `--json` output, written
  beforehand (the load alone: what a user does without the module).

``--module DIR`` (repeatable) adds an in-process row per build of the
module (a folder holding a ``urlgrep`` package, put first on
``PYTHONPATH``), interleaved with the others: an A/B of two builds.

Then one process times its parts (``time.perf_counter``): the imports,
``scan_arrow``'s batches, ``Scan._next_columns`` alone (the columns
the scan's thread built, without pyarrow), and ``scan``'s dicts.

    pip install ./bindings/python pyarrow
    cargo build --release
    python3 benches/python_arrow.py [--runs N] [--module DIR ...] [--sa | INPUT]
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
WORK = "/tmp/urlgrep-bench-sa"


def spamassassin():
    if not os.path.isdir(WORK):
        tarball = os.path.join(SHARED, "corpora", "spamassassin",
                               "spamassassin-public-corpus.tar.gz")
        with tarfile.open(tarball) as t:
            t.extractall(WORK)
    return WORK


def spool():
    """The mbox spool of benches/compare.py (written when missing)."""
    sys.path.insert(0, HERE)
    import compare

    return compare.corpora()["spool.mbox"][0]


def timed(argv, inside=False, env=None):
    """Elapsed seconds, peak RSS (KiB) and CPU seconds (user + system,
    every thread) of one run of `argv`, from `perf_counter` around the
    run and the child's own rusage (`os.wait4`): `/usr/bin/time`'s
    elapsed time has 10 ms steps, a tenth of the CLI's run on the spool.
    `inside`: the elapsed and CPU seconds the process prints itself (its
    last stdout line)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE if inside else subprocess.DEVNULL,
                         env=env)
    out = p.stdout.read() if inside else b""
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise subprocess.CalledProcessError(p.returncode, argv)
    cpu = usage.ru_utime + usage.ru_stime
    if inside:
        e, c = out.split()[-2:]
        elapsed, cpu = float(e), float(c)
    return elapsed, usage.ru_maxrss, cpu


def measure_all(runs, cases):
    """Each case run once a round, RUNS rounds (interleaved: a change of
    the machine's load falls on every case alike); per case the median,
    the least and the most seconds, the largest peak RSS, the median CPU
    seconds, and the quartiles of its per-round ratio to the first case's
    wall time (paired: the ratio of the same round)."""
    got = {name: [] for name, _, _ in cases}
    for _ in range(runs):
        for name, argv, env in cases:
            got[name].append(timed(argv, inside="in process" in name, env=env))
    first = [s for s, _, _ in got[cases[0][0]]]

    def quartiles(xs):
        q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
        return q[0], q[1], q[2]

    return [(name, statistics.median(s for s, _, _ in got[name]),
             min(s for s, _, _ in got[name]), max(s for s, _, _ in got[name]),
             max(m for _, m, _ in got[name]),
             statistics.median(c for _, _, c in got[name]),
             quartiles([s / b for (s, _, _), b in zip(got[name], first)]))
            for name, _, _ in cases]


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
s = urlgrep.scan(sys.argv[1], metadata=True, _arrow_rows=8192)
while s._next_columns(8192) is not None:
    pass  # each batch dropped: its buffers freed
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
    p.add_argument("--sa", action="store_true",
                   help="the SpamAssassin folder instead of the spool")
    p.add_argument("--module", action="append", default=[], metavar="DIR",
                   help="also the in-process call with this build of the module "
                        "(DIR holds a urlgrep package; repeatable)")
    p.add_argument("folder", nargs="?")
    args = p.parse_args()
    folder = args.folder or (spamassassin() if args.sa else spool())
    py = sys.executable
    arrow = ("import urlgrep, sys; t = urlgrep.scan_arrow(sys.argv[1], "
             "metadata=True).read_all(); print(t.num_rows, file=sys.stderr)")
    inside = ("import time, sys, pyarrow, urlgrep; t0 = time.perf_counter(); "
              "c0 = time.process_time(); "
              "t = urlgrep.scan_arrow(sys.argv[1], metadata=True).read_all(); "
              "print(time.perf_counter() - t0, time.process_time() - c0)")
    dicts = ("import urlgrep, sys; print(sum(1 for _ in urlgrep.scan(sys.argv[1], "
             "metadata=True)), file=sys.stderr)")
    imports = "import pyarrow, urlgrep"
    with tempfile.NamedTemporaryFile(suffix=".jsonl") as f:
        subprocess.run([args.urlgrep, "--json", folder], stdout=f, check=False)
        load = ("import pyarrow.json as j, sys; t = j.read_json(sys.argv[1]); "
                "print(t.num_rows, file=sys.stderr)")
        builds = [(f"the same, in process, {d}", [py, "-c", inside, folder],
                   dict(os.environ, PYTHONPATH=os.pathsep.join(
                       [d, *filter(None, [os.environ.get("PYTHONPATH")])])))
                  for d in args.module]
        rows = measure_all(args.runs, [
            ("urlgrep --json > /dev/null", [args.urlgrep, "--json", folder], None),
            ("urlgrep.scan_arrow(...).read_all()", [py, "-c", arrow, folder], None),
            ("the same, in process (the call alone)", [py, "-c", inside, folder], None),
            *builds,
            ("urlgrep.scan(...) consumed", [py, "-c", dicts, folder], None),
            ("python -c 'import pyarrow, urlgrep' (start-up alone)", [py, "-c", imports], None),
            ("pyarrow.json.read_json(--json output)", [py, "-c", load, f.name], None),
        ])
    base, cbase = rows[0][1], rows[0][5]
    print(f"{args.runs} rounds, interleaved; load average {os.getloadavg()[0]:.1f} at the end")
    print()
    print("| run | median s | min-max s | x CLI | x CLI paired (q1-q3) "
          "| CPU s (median) | CPU x CLI | peak RSS MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, med, lo, hi, rss, cpu, (q1, q2, q3) in rows:
        print(f"| {name} | {med:.3f} | {lo:.3f}-{hi:.3f} | {med / base:.2f} "
              f"| {q2:.2f} ({q1:.2f}-{q3:.2f}) "
              f"| {cpu:.3f} | {cpu / cbase:.2f} | {rss / 1024:.0f} |")
    print()
    split = subprocess.run([py, "-c", SPLIT, folder], capture_output=True, text=True, check=True)
    print(split.stdout.strip())


if __name__ == "__main__":
    main()
