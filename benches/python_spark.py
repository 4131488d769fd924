#!/usr/bin/env python3
"""examples/spark's two engines side by side (issue 31's Spark row): the
subprocess engine (one urlgrep process per task, JSON text back) and
the module engine (the urlgrep Python module in the executor's Python,
``mapInArrow`` for the records), on a corpus large enough for the search
to count next to Spark's start-up.

The corpus: the mbox spool of benches/compare.py
(/tmp/urlgrep-bench/spool.mbox, written from ../shared/corpora when
missing) cut at message boundaries into PARTS files of about equal size
under /tmp/urlgrep-spark-bench. Each round runs, interleaved, one
``spark-submit --master local[2]`` per engine (``--mode MODES --read
READ``, the driver's defaults otherwise) and one of a script that only
starts and stops a Spark session (the start-up every run pays); the
median, the spread and the ratio to the subprocess engine. Then, per
engine, the median seconds of each Spark job as its log says (``Job N
finished: WHAT, took S s``): where the time goes.

Runs in the Spark venv of .ci/spark-test (target/spark-venv: pyspark,
pandas, pyarrow and the module built into it: run .ci/spark-test once,
then ``maturin develop --release`` there for a fair module):

    cargo build --release
    python3 benches/python_spark.py [--runs N] [--parts N] [--mode stats,jsonl]
    python3 benches/python_spark.py --corpus test --read binary,manifest \
        --urlgrep-arg=--rejects     # .ci/spark-test's corpus and runs
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORK = "/tmp/urlgrep-spark-bench"

START_ONLY = """
from pyspark.sql import SparkSession
s = SparkSession.builder.appName("start").getOrCreate()
s.sparkContext.parallelize([1, 2], 2).count()
s.stop()
"""


def spool():
    sys.path.insert(0, HERE)
    import compare

    return compare.corpora()["spool.mbox"][0]


def split(path, parts):
    """`path` (an mbox) cut into `parts` files at `From ` lines."""
    out = os.path.join(WORK, f"spool-{parts}")
    if os.path.isdir(out):
        return out
    data = open(path, "rb").read()
    os.makedirs(out + ".tmp", exist_ok=True)
    size = len(data) // parts
    start = 0
    for i in range(parts):
        end = len(data) if i == parts - 1 else data.find(b"\nFrom ", start + size)
        end = len(data) if end < 0 else end + 1
        with open(os.path.join(out + ".tmp", f"part-{i:03}.mbox"), "wb") as f:
            f.write(data[start:end])
        start = end
        if start >= len(data):
            break
    os.rename(out + ".tmp", out)
    return out


def test_corpus():
    """The corpus of .ci/spark-test (examples/spark/make_corpus.py): 8
    small files, one of each shape a Spark job hands urlgrep."""
    out = os.path.join(WORK, "test-corpus")
    if not os.path.isdir(out):
        subprocess.run([sys.executable, os.path.join(ROOT, "examples", "spark", "make_corpus.py"),
                        out + ".tmp"], check=True, stdout=subprocess.DEVNULL)
        os.rename(out + ".tmp", out)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--parts", type=int, default=16)
    p.add_argument("--mode", default="stats,jsonl")
    p.add_argument("--read", default="manifest")
    p.add_argument("--corpus", default="spool", choices=("spool", "test"),
                   help="spool: the spool cut into --parts files; test: .ci/spark-test's corpus")
    p.add_argument("--urlgrep-arg", action="append", default=[], metavar="ARG",
                   help="passed to the driver (write --urlgrep-arg=--rejects); repeatable")
    p.add_argument("--urlgrep", default=os.path.join(ROOT, "target", "release", "urlgrep"))
    p.add_argument("--venv", default=os.path.join(ROOT, "target", "spark-venv"))
    args = p.parse_args()
    corpus = split(spool(), args.parts) if args.corpus == "spool" else test_corpus()
    files = sorted(os.listdir(corpus))
    size = sum(os.path.getsize(os.path.join(corpus, f)) for f in files)
    env = dict(os.environ)
    env["PATH"] = os.path.join(args.venv, "bin") + os.pathsep + env["PATH"]
    env["PYSPARK_PYTHON"] = env["PYSPARK_DRIVER_PYTHON"] = os.path.join(args.venv, "bin", "python")
    env["SPARK_LOCAL_IP"] = "127.0.0.1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    driver = os.path.join(ROOT, "examples", "spark", "urlgrep_spark.py")
    tmp = tempfile.mkdtemp(prefix="urlgrep-spark-bench-")
    start_only = os.path.join(tmp, "start_only.py")
    with open(start_only, "w") as f:
        f.write(START_ONLY)
    submit = ["spark-submit", "--master", "local[2]"]
    common = ["--input", os.path.join(corpus, "*"), "--mode", args.mode, "--read", args.read,
              *(f"--urlgrep-arg={a}" for a in args.urlgrep_arg)]
    cases = [
        ("subprocess engine", submit + ["--files", args.urlgrep, driver, "--engine", "subprocess", *common]),
        ("module engine", submit + [driver, "--engine", "module", *common]),
        ("Spark start-up alone", submit + [start_only]),
    ]
    got = {name: [] for name, _ in cases}
    jobs = {name: {} for name, _ in cases}
    try:
        for r in range(args.runs):
            for i, (name, argv) in enumerate(cases):
                argv = argv + (["--output", os.path.join(tmp, f"out-{r}-{i}")] if "--input" in argv else [])
                t0 = time.perf_counter()
                done = subprocess.run(argv, env=env, capture_output=True)
                t = time.perf_counter() - t0
                if done.returncode != 0:
                    sys.exit(f"{name}: spark-submit exited {done.returncode}\n"
                             + done.stderr.decode(errors="replace")[-3000:])
                got[name].append(t)
                log = done.stderr.decode(errors="replace")
                for m in re.finditer(r"Job (\d+) finished: (.*?) at .*?, took ([\d.]+) s", log):
                    key = (int(m.group(1)), m.group(2))
                    jobs[name].setdefault(key, []).append(float(m.group(3)))
                print(f"round {r + 1}: {name} {t:.1f} s", file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"{len(files)} files, {size:,} bytes; --mode {args.mode} --read {args.read} "
          + "".join(f"--urlgrep-arg={a} " for a in args.urlgrep_arg) + "; "
          f"{args.runs} rounds, interleaved")
    print()
    print("| run | median s | min-max s | x subprocess |")
    print("|---|---:|---:|---:|")
    base = statistics.median(got["subprocess engine"])
    for name, _ in cases:
        s = got[name]
        med = statistics.median(s)
        print(f"| {name} | {med:.1f} | {min(s):.1f}-{max(s):.1f} | {med / base:.2f} |")
    for name, _ in cases[:2]:
        print()
        print(f"{name}, Spark jobs (median s): " + "; ".join(
            f"{n} {what} {statistics.median(t):.1f}" for (n, what), t in sorted(jobs[name].items())))


if __name__ == "__main__":
    main()
