#!/usr/bin/env python3
"""Check that urlgrep's output is byte-identical to a base revision's.

Builds urlgrep (release) twice -- at the base git revision and from the
current working tree (or another revision or checkout) -- runs both
binaries over the corpora in every output mode, and compares stdout,
stderr and the exit code byte for byte.  Each case (corpus x mode) is
reported as `same` or `DIFFERENT`, the latter with the first differing
lines and a sorted diff count (lines only in the base / only in the new
output, as multisets, so a reordering shows as a difference of 0/0).
The exit status is 1 when any case differs (unless --expect-diff), 2 on
a setup error (build failure, unknown corpus), 0 otherwise.

Usage:
  python3 benches/equivalence.py --base REV [--new REV_OR_DIR]
      [--corpus NAME]... [--mode NAME]... [--quick]
      [--save DIR] [--saved-base DIR] [--expect-diff] [--show N]

  --base REV        the base revision (e.g. 492a612); it is checked out
                    with `git worktree add` under /tmp/urlgrep-equiv/src/
                    and built there with a target folder of its own that
                    is kept between runs (rebuilds are incremental).
  --new REV_OR_DIR  what to compare: a revision (checked out the same
                    way) or a checkout folder; default: this working
                    tree, uncommitted changes included, built in its own
                    target folder.
  --quick           small corpora only (a developer's loop, < 1 minute
                    after the builds); the full run takes a few minutes.
  --corpus, --mode  restrict the run (repeatable; `--list` names them).
  --work DIR        the folder of the worktrees, builds and lock
                    (default /tmp/urlgrep-equiv): runs with different
                    work folders go on side by side.  The corpora stay
                    in /tmp/urlgrep-equiv/data for every run (their
                    paths are in the outputs), prepared under an
                    exclusive lock and read under a shared one.
  --save DIR        keep the outputs: DIR/base/CORPUS/MODE.out|.err
                    (about 1 GB for the full run); for differing cases
                    also DIR/new/CORPUS/MODE.out|.err and the sorted
                    diff, DIR/diff/CORPUS/MODE.only-base|.only-new; the
                    report in DIR/report.txt; the exit codes and the
                    commands in DIR/manifest.json.
  --saved-base DIR  compare against the base outputs of an earlier
                    `--save DIR` run instead of building a base; a case
                    it did not run with the same command (e.g. a full
                    save and a --quick run) is `NO BASE`, a difference.
  --expect-diff     for changes that alter output on purpose: print a
                    diff summary per case (counts and the first --show
                    lines only in the base / only in the new output) and
                    exit 0 whatever differs.

What it checks (the modes; every mode runs on every corpus):
  plain, -Hnb, --json, --json --mail off, --mail on, --stats,
  --stats --json, --stats-tsv, --rejects, -c, -u, --qp-repair, and the
  plain and --json modes again at -j1 and -j2; `--find email,www,domain`
  plain, --json and --rejects (the scheme-less detectors by name, so
  that a new detector in `all` is no difference); plus `urlgrep merge`
  (and `merge --json`) over the base's --stats-tsv partials of all
  corpora.
  The other modes run with the default thread count.

The corpora: the repository's own corpora/, and from ../shared/corpora
(unpacked as benches/compare.py does; its SpamAssassin/blinux-list mbox
spool is reused): the SpamAssassin and blinux-list folders, the spool,
the python-dev mbox archives, mini_newsgroups, the RFCs; gzip copies of
the spool and of a few messages (searched as .gz files); and stdin: the
spool and its gzip copy piped into `urlgrep -`.  --quick uses the repo's
corpora, one python-dev month, mini_newsgroups, a few RFCs, the gzip
messages, and that month on stdin, plain and gzipped.

The statistics modes print the elapsed time and MiB/s; those two numbers
(and only they, only in those modes) are masked as `#` before comparing.
All inputs are given by absolute paths under /tmp, so outputs saved by
one checkout compare with another's.  One run at a time: a lock file in
the work folder serialises the runs that share it.
"""

import argparse
import collections
import fcntl
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402  (the corpora and their unpacking)

REPO = compare.REPO
WORK = "/tmp/urlgrep-equiv"  # set by --work
DATA = "/tmp/urlgrep-equiv/data"  # the same for every work folder
BENCH = compare.WORK
# A per-run timeout: a hang is a difference, not a stuck script.
TIMEOUT = 600

# (name, arguments, timed): `timed` modes print the elapsed time.
MODES = [
    ("plain", [], False),
    ("Hnb", ["-Hnb"], False),
    ("json", ["--json"], False),
    ("json-mail-off", ["--json", "--mail", "off"], False),
    ("mail-on", ["--mail", "on"], False),
    ("stats", ["--stats"], True),
    ("stats-json", ["--stats", "--json"], True),
    ("stats-tsv", ["--stats-tsv"], False),
    ("rejects", ["--rejects"], False),
    ("count", ["-c"], False),
    ("unique", ["-u"], False),
    ("qp-repair", ["--qp-repair"], False),
    ("plain-j1", ["-j1"], False),
    ("plain-j2", ["-j2"], False),
    ("json-j1", ["--json", "-j1"], False),
    ("json-j2", ["--json", "-j2"], False),
    # the scheme-less detectors (issue 19), by name: `--find all` grows
    # when a detector is added, these stay comparable
    ("find", ["--find", "email,www,domain"], False),
    ("find-json", ["--find", "email,www,domain", "--json"], False),
    ("find-rejects", ["--find", "email,www,domain", "--rejects"], False),
]
MERGE_MODES = [("merge", [], True), ("merge-json", ["--json"], True)]

RFC_FEW = ["rfc1500-2499/rfc1738.txt", "rfc1500-2499/rfc1808.txt",
           "rfc1500-2499/rfc2045.txt", "rfc1500-2499/rfc2368.txt",
           "rfc1500-2499/rfc2396.txt", "rfc8400-8499/rfc8446.txt"]
# The corpus names of corpora(), for --list.
FULL = ["repo-corpora", "mini_newsgroups", "spamassassin", "blinux-list",
        "spool.mbox", "python-dev", "rfc", "gz", "stdin-spool",
        "stdin-spool-gz"]
QUICK = ["repo-corpora", "mini_newsgroups", "python-dev-1999-04", "rfc-few",
         "gz-msgs", "stdin-month", "stdin-month-gz"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def git(*args, cwd=REPO):
    return subprocess.run(["git", *args], cwd=cwd, check=True,
                          capture_output=True, text=True).stdout.strip()


# ---------------------------------------------------------------- corpora

def gzip_copy(src, dst):
    """Writes a reproducible gzip copy of `src` (mtime 0) once."""
    if os.path.exists(dst):
        return
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    with open(src, "rb") as i, open(dst + ".tmp", "wb") as raw, \
            gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                          mtime=0) as o:
        shutil.copyfileobj(i, o, 1 << 20)
    os.rename(dst + ".tmp", dst)


def tree_stamp(root):
    """A digest of the files under `root`: names, sizes and contents."""
    import hashlib
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = os.path.join(dirpath, name)
            h.update(os.path.relpath(path, root).encode() + b"\0")
            with open(path, "rb") as fh:
                h.update(fh.read())
            h.update(b"\0")
    return h.hexdigest()


def corpora(quick):
    """name -> (paths, stdin file or None); quick or full set."""
    bench = compare.corpora()  # unpacks, writes the spool once
    shared = compare.SHARED
    compare.unpack(f"{shared}/python-dev/python-dev-1999-04_2000-03.tar.gz",
                   DATA)
    compare.unpack(f"{shared}/20newsgroups/mini_newsgroups.tar.gz", DATA)
    # The repository's corpora/, copied so that paths do not depend on
    # the checkout the script runs from.
    repo_corpora = os.path.join(DATA, "repo-corpora")
    stamp = tree_stamp(os.path.join(REPO, "corpora"))
    stamp_file = os.path.join(DATA, "repo-corpora.stamp")
    try:
        with open(stamp_file) as fh:
            same = fh.read() == stamp
    except OSError:
        same = False
    if not same or not os.path.isdir(repo_corpora):
        shutil.rmtree(repo_corpora, ignore_errors=True)
        shutil.copytree(os.path.join(REPO, "corpora"), repo_corpora)
        with open(stamp_file, "w") as fh:
            fh.write(stamp)
    spool = bench["spool.mbox"][0]
    month = os.path.join(DATA, "python-dev", "1999-04.txt")
    gz = os.path.join(DATA, "gz")
    msgs = os.path.join(gz, "msgs")
    few = (bench["spamassassin"][:10] + bench["blinux-list"][:10]
           + [os.path.join(BENCH, "rfc", "rfc1500-2499", "rfc1738.txt")])
    for f in few:
        gzip_copy(f, os.path.join(
            msgs, os.path.basename(os.path.dirname(f)) + "-"
            + os.path.basename(f) + ".gz"))
    gzip_copy(month, os.path.join(gz, "1999-04.txt.gz"))
    rfc_few = [os.path.join(BENCH, "rfc", f) for f in RFC_FEW]
    common = {
        "repo-corpora": ([repo_corpora], None),
        "mini_newsgroups": ([os.path.join(DATA, "mini_newsgroups")], None),
    }
    if quick:
        return {
            **common,
            "python-dev-1999-04": ([month], None),
            "rfc-few": (rfc_few, None),
            "gz-msgs": ([msgs, os.path.join(gz, "1999-04.txt.gz")], None),
            "stdin-month": (["-"], month),
            "stdin-month-gz": (["-"], os.path.join(gz, "1999-04.txt.gz")),
        }
    gzip_copy(spool, os.path.join(gz, "spool.mbox.gz"))
    return {
        **common,
        "spamassassin": ([os.path.join(BENCH, "spamassassin")], None),
        "blinux-list": ([os.path.join(BENCH, "blinux-list")], None),
        "spool.mbox": ([spool], None),
        "python-dev": ([os.path.join(DATA, "python-dev")], None),
        "rfc": ([os.path.join(BENCH, "rfc")], None),
        "gz": ([os.path.join(gz, "spool.mbox.gz"), msgs], None),
        "stdin-spool": (["-"], spool),
        "stdin-spool-gz": (["-"], os.path.join(gz, "spool.mbox.gz")),
    }


# ----------------------------------------------------------------- builds

def checkout(rev, slot):
    """Checks `rev` out (detached) in the worktree WORK/src/SLOT; returns
    (folder, commit)."""
    commit = git("rev-parse", "--verify", rev + "^{commit}")
    path = os.path.join(WORK, "src", slot)
    if os.path.exists(os.path.join(path, ".git")):
        git("checkout", "-q", "--detach", "--force", commit, cwd=path)
    else:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        git("worktree", "add", "-f", "--detach", path, commit)
    # The same dependency versions as this checkout (Cargo.lock is not in
    # git), and no registry look-up when nothing changed.
    lock = os.path.join(REPO, "Cargo.lock")
    if os.path.exists(lock):
        shutil.copyfile(lock, os.path.join(path, "Cargo.lock"))
    return path, commit


def build(src, target, slot):
    """Builds the release binary in `src` and copies it to WORK/bin/SLOT
    (so that the next build in the same target folder cannot replace it);
    returns the copy's path."""
    cmd = ["cargo", "build", "--release", "--bin", "urlgrep",
           "--message-format=json-render-diagnostics"]
    cargo_toml = open(os.path.join(src, "Cargo.toml")).read()
    if re.search(r"(?m)^\[features\][^\[]*^cli\s*=", cargo_toml):
        cmd += ["--features", "cli"]
    env = dict(os.environ)
    if target:
        env["CARGO_TARGET_DIR"] = target
    log(f"building {slot}: {src}")
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=src, env=env, stdout=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        raise SystemExit(f"equivalence: the {slot} build failed in {src}")
    exe = None
    for line in p.stdout.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if (msg.get("reason") == "compiler-artifact"
                and msg.get("target", {}).get("name") == "urlgrep"
                and msg.get("executable")):
            exe = msg["executable"]
    if exe is None:
        raise SystemExit(f"equivalence: no urlgrep binary from {src}")
    dst = os.path.join(WORK, "bin", slot, "urlgrep")
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy2(exe, dst)
    log(f"built {slot} in {time.monotonic() - t0:.0f} s")
    return dst


def binary(spec, slot):
    """(binary, label) for a revision, a checkout folder or None (this
    working tree)."""
    if spec is None or os.path.isdir(spec):
        src = os.path.abspath(spec or REPO)
        try:
            desc = git("describe", "--always", "--dirty", cwd=src)
        except subprocess.CalledProcessError:
            desc = "not a git checkout"
        # This tree builds in its own target folder; another checkout in
        # one under WORK, so that its target folder is left alone.
        target = (None if os.path.samefile(src, REPO)
                  else os.path.join(WORK, "target-dirs",
                                    src.strip("/").replace("/", "_")))
        return build(src, target, slot), f"{src} ({desc})"
    path, commit = checkout(spec, slot)
    return (build(path, os.path.join(WORK, "target"), slot),
            f"{spec} ({commit[:12]})")


# ------------------------------------------------------------------- runs

def mask_timing(data):
    """Masks the elapsed time and MiB/s of the statistics reports."""
    data = re.sub(rb'("(?:elapsed_secs|mib_per_sec)":\s*)-?[0-9][0-9.eE+-]*',
                  rb'\1"#"', data)
    return re.sub(rb"(?m)^(elapsed +)[0-9.]+ s(  \()?[0-9.]*( MiB/s\))?",
                  rb"\1# s\2#\3", data)


def run(exe, argv, stdin_file, timed, cwd=None):
    """(stdout, stderr, exit code) of one run (in DATA unless `cwd`)."""
    stdin = open(stdin_file, "rb") if stdin_file else subprocess.DEVNULL
    try:
        p = subprocess.run([exe] + argv, stdin=stdin, capture_output=True,
                           cwd=cwd or DATA, timeout=TIMEOUT)
        out, err, rc = p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired:
        out, err, rc = b"", b"timeout\n", "timeout"
    finally:
        if stdin_file:
            stdin.close()
    return (mask_timing(out) if timed else out), err, rc


def first_difference(a, b):
    """(line number, base lines, new lines) around the first difference."""
    al, bl = a.split(b"\n"), b.split(b"\n")
    i = 0
    while i < len(al) and i < len(bl) and al[i] == bl[i]:
        i += 1
    return i + 1, al[i:i + 3], bl[i:i + 3]


def sorted_diff(a, b):
    """Lines only in `a` and only in `b`, as sorted multisets."""
    ca = collections.Counter(a.splitlines())
    cb = collections.Counter(b.splitlines())
    return sorted((ca - cb).elements()), sorted((cb - ca).elements())


def show(line, width=200):
    s = line.decode("utf-8", "backslashreplace")
    return s if len(s) <= width else s[:width] + "..."


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)


class Report:
    def __init__(self):
        self.lines = []
        self.different = []
        self.same = 0

    def say(self, line=""):
        print(line, flush=True)
        self.lines.append(line)


def compare_case(rep, key, base, new, args, shown):
    """Compares one case's (stdout, stderr, rc) pairs; returns the sorted
    diff of stdout (or None when it is the same)."""
    (bo, be, brc), (no, ne, nrc) = base, new
    if bo == no and be == ne and brc == nrc:
        rep.say(f"same       {key:<36} rc {brc}, {len(bo):,} bytes")
        rep.same += 1
        return None
    rep.different.append(key)
    only_b, only_n = sorted_diff(bo, no)
    rep.say(f"DIFFERENT  {key:<36} rc {brc}/{nrc}, stdout {len(bo):,}/"
            f"{len(no):,} bytes, {len(only_b):,} lines only in base, "
            f"{len(only_n):,} only in new")
    for what, x, y in (("stdout", bo, no), ("stderr", be, ne)):
        if x == y:
            continue
        line, xs, ys = first_difference(x, y)
        rep.say(f"    {what}: first difference at line {line}:")
        for s in xs:
            rep.say(f"      - {show(s)}")
        for s in ys:
            rep.say(f"      + {show(s)}")
    if args.expect_diff:
        for label, lines in (("only in base", only_b),
                             ("only in new", only_n)):
            if lines:
                rep.say(f"    {label} (first {min(shown, len(lines))}):")
                for s in lines[:shown]:
                    rep.say(f"      {show(s)}")
    return only_b, only_n


def main():
    global WORK
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[2:]))
    ap.add_argument("--base", help="base revision")
    ap.add_argument("--new", help="revision or checkout folder "
                    "(default: this working tree)")
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--mode", action="append")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--save", metavar="DIR")
    ap.add_argument("--saved-base", metavar="DIR")
    ap.add_argument("--expect-diff", action="store_true")
    ap.add_argument("--show", type=int, default=5, metavar="N")
    ap.add_argument("--work", metavar="DIR", default=WORK,
                    help="worktrees, builds and lock (default %(default)s)")
    ap.add_argument("--list", action="store_true",
                    help="name the corpora and modes, and stop")
    args = ap.parse_args()
    modes = MODES + MERGE_MODES
    if args.list:
        print("modes:", " ".join(m for m, _, _ in modes))
        print("corpora (full):", " ".join(FULL))
        print("corpora (--quick):", " ".join(QUICK))
        return 0
    if (args.base is None) == (args.saved_base is None):
        ap.error("give exactly one of --base and --saved-base")
    if not os.path.isdir(compare.SHARED):
        log("../shared/corpora is absent; nothing to compare")
        return 2
    if args.mode:
        unknown = set(args.mode) - {m for m, _, _ in modes}
        if unknown:
            ap.error(f"unknown mode(s): {', '.join(sorted(unknown))}")
        modes = [m for m in modes if m[0] in args.mode]

    WORK = os.path.abspath(args.work)
    os.makedirs(WORK, exist_ok=True)
    os.makedirs(DATA, exist_ok=True)
    lock = open(os.path.join(WORK, "lock"), "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        log("waiting for another equivalence run to finish")
        fcntl.flock(lock, fcntl.LOCK_EX)

    t0 = time.monotonic()
    saved = None
    if args.saved_base:
        with open(os.path.join(args.saved_base, "manifest.json")) as fh:
            saved = json.load(fh)
        base_exe, base_label = None, f"saved: {saved['base']}"
    else:
        base_exe, base_label = binary(args.base, "base")
    new_exe, new_label = binary(args.new, "new")
    t_build = time.monotonic() - t0

    t1 = time.monotonic()
    # The corpora are shared by every work folder: prepared under an
    # exclusive lock, then read under a shared one until the run ends.
    data_lock = open(os.path.join(os.path.dirname(DATA), "data.lock"), "w")
    fcntl.flock(data_lock, fcntl.LOCK_EX)
    all_corpora = corpora(args.quick)
    fcntl.flock(data_lock, fcntl.LOCK_SH)
    assert list(all_corpora) == (QUICK if args.quick else FULL)
    if args.corpus:
        unknown = set(args.corpus) - set(all_corpora)
        if unknown:
            log(f"unknown corpus {', '.join(sorted(unknown))}; "
                f"this set has {', '.join(all_corpora)}")
            return 2
        all_corpora = {k: v for k, v in all_corpora.items()
                       if k in args.corpus}
    t_data = time.monotonic() - t1

    rep = Report()
    rep.say(f"base: {base_label}")
    rep.say(f"new:  {new_label}")
    manifest = {"base": base_label, "new": new_label, "cases": {}}
    t2 = time.monotonic()
    tsv = []  # the base's --stats-tsv partials, for the merge modes
    cases = 0

    def case(corpus, mode, argv, stdin_file, timed, cwd=None):
        """Runs, compares and records one case (in `cwd` if given)."""
        nonlocal cases
        key = f"{corpus}/{mode}"
        if saved is not None:
            base = saved_base(args.saved_base, saved, corpus, mode, argv,
                              stdin_file)
            if base is None:
                rep.say(f"NO BASE    {key} (not run, or run otherwise, "
                        "by the saved base)")
                rep.different.append(key)
                return None
        else:
            base = run(base_exe, argv, stdin_file, timed, cwd)
        new = run(new_exe, argv, stdin_file, timed, cwd)
        cases += 1
        diff = compare_case(rep, key, base, new, args, args.show)
        record(args, manifest, key, corpus, mode, argv, stdin_file, base,
               new, diff)
        return base

    for corpus, (paths, stdin_file) in all_corpora.items():
        for mode, margs, timed in modes:
            if mode.startswith("merge"):
                continue
            base = case(corpus, mode, margs + paths, stdin_file, timed)
            if mode == "stats-tsv" and base is not None:
                # Named relative to the folder the merge runs in, so that
                # its arguments are the same whatever the work folder.
                write(os.path.join(WORK, "tsv", corpus + ".tsv"), base[0])
                tsv.append(corpus + ".tsv")
    # A saved base merged the partials of all its corpora: with a subset
    # of them there is nothing to compare the merge with.
    if saved is not None and args.corpus:
        tsv = []
        rep.say("(merge not compared: --corpus with --saved-base)")
    for mode, margs, timed in modes:
        if mode.startswith("merge") and tsv:
            case("stats-tsv-partials", mode, ["merge"] + margs + tsv, None,
                 timed, cwd=os.path.join(WORK, "tsv"))
    t_runs = time.monotonic() - t2

    rep.say()
    rep.say(f"{cases} cases run, {rep.same} same, "
            f"{len(rep.different)} different; build {t_build:.0f} s, "
            f"corpora {t_data:.0f} s, runs {t_runs:.0f} s "
            f"({cases * (1 if saved else 2)} runs)")
    if rep.different:
        rep.say("different: " + " ".join(rep.different))
    if args.save:
        write(os.path.join(args.save, "report.txt"),
              ("\n".join(rep.lines) + "\n").encode())
        with open(os.path.join(args.save, "manifest.json"), "w") as fh:
            json.dump(manifest, fh, indent=1, sort_keys=True)
        log(f"outputs saved in {args.save}")
    if rep.different and not args.expect_diff:
        return 1
    return 0


def saved_base(folder, saved, corpus, mode, argv, stdin_file):
    """The (stdout, stderr, exit code) an earlier `--save` run kept for
    this case, or None when it did not run this exact command."""
    case = saved["cases"].get(f"{corpus}/{mode}")
    if (case is None or case["argv"] != ["urlgrep"] + argv
            or case["stdin"] != stdin_file):
        return None
    d = os.path.join(folder, "base", corpus, mode)
    with open(d + ".out", "rb") as out, open(d + ".err", "rb") as err:
        return out.read(), err.read(), case["base_rc"]


def record(args, manifest, key, corpus, mode, argv, stdin_file, base, new,
           diff):
    """Notes the case in the manifest and, with --save, keeps its
    outputs and its sorted diff."""
    manifest["cases"][key] = {
        "argv": ["urlgrep"] + argv, "stdin": stdin_file,
        "base_rc": base[2], "new_rc": new[2],
        "same": diff is None,
    }
    if not args.save:
        return
    # The new outputs only where they differ: the full set is some GB.
    sides = [("base", base)] + ([("new", new)] if diff is not None else [])
    for side, (out, err, _) in sides:
        d = os.path.join(args.save, side, corpus, mode)
        write(d + ".out", out)
        write(d + ".err", err)
    if diff is not None:
        d = os.path.join(args.save, "diff", corpus, mode)
        write(d + ".only-base", b"".join(s + b"\n" for s in diff[0]))
        write(d + ".only-new", b"".join(s + b"\n" for s in diff[1]))


if __name__ == "__main__":
    sys.exit(main())
