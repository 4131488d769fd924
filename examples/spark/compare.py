#!/usr/bin/env python3
"""Compares the Spark driver's output with plain urlgrep runs; part of
`.ci/spark-test`.

    compare.py stats EXPECTED.tsv SPARK_DIR
    compare.py jsonl EXPECTED.jsonl SPARK_DIR
    compare.py error URLGREP FILE

stats: the TSV part files under SPARK_DIR, read in order, are EXPECTED.tsv
line for line (`urlgrep merge --tsv` of per-file `--stats-tsv` runs:
sorted by dim and key), and it counts at least one match.
jsonl: the JSON records under SPARK_DIR equal the match and reject records
of EXPECTED.jsonl (`urlgrep --json --rejects` over the same files),
compared by type, file name, position, kind, url, scheme, host, flags and
reason; Spark labels a file by
its URI (binary mode) or its path (manifest mode), the plain run by its
path, so the file is named by its base name.
error: the driver's `run_urlgrep` on FILE fails, naming the file and
quoting urlgrep's standard error.

Prints what it compared; exits 0 when equal, 1 otherwise.
"""

import collections
import glob
import json
import os
import sys


def stats_lines(path):
    with open(path, "rb") as f:
        return [line.rstrip(b"\n") for line in f if line.strip()]


def spark_files(folder, suffix):
    names = sorted(glob.glob(os.path.join(folder, "part-*")))
    names = [n for n in names if n.endswith(suffix) or not suffix]
    if not os.path.exists(os.path.join(folder, "_SUCCESS")):
        sys.exit(f"compare: {folder} has no _SUCCESS: the job did not finish")
    return names


def compare_stats(expected, folder):
    want = stats_lines(expected)
    got = []
    for name in spark_files(folder, ""):
        got.extend(stats_lines(name))
    matches = [w for w in want if w.startswith(b"total\tmatches\t")]
    if not matches or matches[0].endswith(b"\t0"):
        print(f"  {expected} counts no match: nothing to compare")
        return False
    dims = collections.Counter(w.split(b"\t", 1)[0] for w in want)
    print("  " + ", ".join(
        f"{n} {d.decode('utf-8', 'replace')}" for d, n in sorted(dims.items())
    ) + " counters; the totals:")
    for line in want:
        if line.startswith(b"total\t"):
            print("    " + line.decode("utf-8", "replace"))
    if want == got:
        return True
    if collections.Counter(want) == collections.Counter(got):
        print("  the same counters, in another order")
        return False
    want, got = collections.Counter(want), collections.Counter(got)
    for line in sorted(want - got):
        print("  only in the plain CLI run: " + repr(line))
    for line in sorted(got - want):
        print("  only in the Spark run:     " + repr(line))
    return False


def without_nulls(value):
    """`value` with null object members dropped, as Spark writes JSON."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    return value


def match_key(record):
    # Piped input (binary mode) has `"path":"-"` and the file's URI in
    # `source`; a file urlgrep opened (manifest mode) only `path`.
    label = record.get("source") or record.get("path") or ""
    nested = {k: without_nulls(record.get(k)) for k in ("mail", "html")}
    return (
        record.get("type"),
        os.path.basename(label.rstrip("/")),
        record.get("offset"),
        record.get("line"),
        record.get("column"),
        record.get("kind"),
        record.get("url"),
        record.get("scheme"),
        record.get("host"),
        tuple(record.get("flags") or ()),
        record.get("reason"),
        json.dumps(nested, sort_keys=True),
    )


def read_records(names):
    records = collections.Counter()
    for name in names:
        with open(name, encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                record = json.loads(line)
                if record.get("type") not in ("match", "reject"):
                    continue
                records[match_key(record)] += 1
    return records


def compare_jsonl(expected, folder):
    want = read_records([expected])
    got = read_records(spark_files(folder, ".json"))
    files = sorted({key[1] for key in want})
    types = collections.Counter()
    for key, n in want.items():
        types[key[0]] += n
    print("  " + ", ".join(f"{n} {t}" for t, n in sorted(types.items()))
          + f" records in {len(files)} files ({', '.join(files)})")
    escaped = sum(n for key, n in want.items() if "%" in (key[6] or ""))
    print(f"  {escaped} with percent-encoded bytes in url")
    flags = collections.Counter()
    for key, n in want.items():
        for flag in key[-3]:
            flags[flag] += n
    print("  flags: " + ", ".join(f"{f} {n}" for f, n in sorted(flags.items())))
    mail = sum(n for key, n in want.items() if '"mail": {"' in key[-1])
    print(f"  {mail} with a mail object (message, part, sender, date)")
    if not want:
        print("  the plain CLI run found no match: nothing to compare")
        return False
    if want == got:
        return True
    for key in sorted(want - got, key=repr)[:20]:
        print(f"  only in the plain CLI run: {key}")
    for key in sorted(got - want, key=repr)[:20]:
        print(f"  only in the Spark run:     {key}")
    return False


def check_error(binary, path):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import urlgrep_spark

    with open(path, "rb") as f:
        data = f.read()
    label = "file:" + os.path.abspath(path)
    argv = [binary, "--stats-tsv", "--source", label, "-"]
    try:
        for _ in urlgrep_spark.run_urlgrep(argv, data, label):
            pass
    except urlgrep_spark.UrlgrepError as e:
        text = str(e)
        print("  " + text.replace("\n", "\n  "))
        ok = label in text and "status 2" in text
        if not ok:
            print("  the error does not name the file and the status")
        return ok
    print(f"  urlgrep did not fail on {path}")
    return False


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    what, first, second = argv
    if not os.path.exists(first) or not os.path.exists(second):
        print(f"  missing: {first if not os.path.exists(first) else second}")
        return 1
    check = {"stats": compare_stats, "jsonl": compare_jsonl,
             "error": check_error}[what]
    return 0 if check(first, second) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
