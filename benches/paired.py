#!/usr/bin/env python3
"""Paired wall-time ratios of commands against a reference command.

Each round runs every case once, one after the other (the order after
the reference reversed every other round), and each case's wall time is
divided by the reference's of the same round: the machine's drift over
minutes (a shared VM's speed moves by 20% and more) hits both sides of a
ratio alike. Prints, per case, the wall median, its spread and the CPU
median (user + system of the child, from wait4), and for the others the
median of the per-round ratios with its quartiles and how many rounds
were at or under 1.25 (issue 30's target).

    python3 benches/paired.py RUNS ref='CMD …' name='CMD …' …

Issue 30's row (the 200 MiB `.warc.gz` of benches/gen_warc.py at `-j1`
against inflating its gzip members alone):

    F=/tmp/urlgrep-bench/warc/spamassassin.warc.gz
    cargo build --release --examples
    python3 benches/paired.py 31 "floor=target/release/examples/warc_inflate $F" \\
        "urlgrep=target/release/urlgrep -j1 -c $F"

A command is split at spaces (no quoting); stdout goes to /dev/null.
"""

import os
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    runs = int(sys.argv[1])
    cases = [a.split("=", 1) for a in sys.argv[2:]]
    null = os.open(os.devnull, os.O_WRONLY)
    res = {n: [] for n, _ in cases}
    for r in range(runs):
        order = cases if r % 2 == 0 else [cases[0]] + cases[:0:-1]
        for name, cmd in order:
            t = time.perf_counter()
            p = subprocess.Popen(cmd.split(), stdout=null)
            _, _, ru = os.wait4(p.pid, 0)
            res[name].append((time.perf_counter() - t, ru.ru_utime + ru.ru_stime))
    print("load", [round(x, 2) for x in os.getloadavg()])
    ref = cases[0][0]
    for name, _ in cases:
        walls = [x[0] for x in res[name]]
        cpus = [x[1] for x in res[name]]
        line = (f"{name:8s} wall median {statistics.median(walls):.3f} "
                f"min {min(walls):.3f} max {max(walls):.3f} "
                f"cpu {statistics.median(cpus):.3f}")
        if name != ref and runs > 1:
            rat = [x[0] / y[0] for x, y in zip(res[name], res[ref])]
            q = statistics.quantiles(rat, n=4)
            line += (f"  /{ref}: median {statistics.median(rat):.3f} "
                     f"q1 {q[0]:.3f} q3 {q[2]:.3f} "
                     f"<=1.25: {sum(x <= 1.25 for x in rat)}/{len(rat)}")
        print(line)


if __name__ == "__main__":
    main()
