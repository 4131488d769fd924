#!/usr/bin/env python3
"""Two or more urlgrep builds side by side: CPU time per corpus, A/B.

compare.py times every peer with /usr/bin/time, whose CPU times have a
resolution of 10 ms: too coarse for runs of 50-100 ms on a loaded machine.
This script runs the given binaries interleaved, run by run, over the
corpora of compare.py (unpacked under /tmp/urlgrep-bench), and reads each
child's user + system time from wait4's rusage (microseconds). It prints,
per corpus, the median CPU time of each build and its ratio to the first.

Usage: python3 benches/ab.py [--runs N] [--corpus NAME]... [--file PATH]... [--arg ARG]...
           [--as-folder] NAME=BINARY NAME=BINARY...

Example (the house refactor against its base):
    python3 benches/ab.py --runs 15 base=/tmp/urlgrep-492a612 \
        new=target/release/urlgrep

`--as-folder` gives every build a folder corpus as its folder (as users
run `urlgrep ~/Maildir`: the folder walk is then timed too) instead of
its files named one by one.

A build may carry arguments of its own, after its binary in the same
word: `all="target/release/urlgrep --find all"` beside
`default=target/release/urlgrep` times one binary two ways in one run.
"""

import argparse
import os
import shlex
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (the corpora and their unpacking)


def cpu_run(argv, files):
    """One run: (user + system seconds, exit status)."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv + files, stdout=null, stderr=null)
        _, status, usage = os.wait4(p.pid, 0)
    return usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--file", action="append", default=[],
                    help="a file to time as a corpus of its own (e.g. the "
                    "4 M URLs of examples/unique_urls.rs)")
    ap.add_argument("--arg", action="append", default=[],
                    help="an argument for every build (default: -j1)")
    ap.add_argument("--as-folder", action="store_true",
                    help="give a folder corpus as its folder, not its files")
    ap.add_argument("builds", nargs="+", metavar="NAME=BINARY")
    args = ap.parse_args()
    builds = [b.split("=", 1) for b in args.builds]
    # `NAME=BINARY ARG...`: the build's own arguments, before the common
    # ones
    builds = [(n, shlex.split(b)) for n, b in builds]
    extra = args.arg or ["-j1"]
    corpora = compare.corpora()
    for f in args.file:
        corpora[os.path.basename(f)] = [f]
    names = args.corpus or list(corpora)
    if args.file and not args.corpus:
        names = [os.path.basename(f) for f in args.file]
    form = ", folders as folders" if args.as_folder else ""
    print(f"CPU seconds (user + system, wait4), median of {args.runs} "
          f"interleaved runs, arguments {' '.join(extra)}{form}")
    print()
    head = " | ".join(f"{n}" for n, _ in builds)
    print(f"| corpus | {head} | " +
          " | ".join(f"{n}/{builds[0][0]}" for n, _ in builds[1:]) + " |")
    print("|---" * (1 + 2 * len(builds) - 1) + "|")
    for name in names:
        files = corpora[name]
        given = files
        if args.as_folder and name in compare.FOLDERS:
            given = [compare.FOLDERS[name]]
        times = {n: [] for n, _ in builds}
        for _ in range(args.runs):
            compare.warm(files)
            for n, binary in builds:
                secs, code = cpu_run(binary + extra, given)
                if code not in (0, 1):
                    sys.exit(f"{n} failed on {name}: exit {code}")
                times[n].append(secs)
        med = {n: statistics.median(t) for n, t in times.items()}
        first = med[builds[0][0]]
        cells = " | ".join(f"{med[n]:.4f}" for n, _ in builds)
        ratios = " | ".join(f"{med[n] / first:.3f}" for n, _ in builds[1:])
        print(f"| {name} | {cells} | {ratios} |", flush=True)


if __name__ == "__main__":
    main()
