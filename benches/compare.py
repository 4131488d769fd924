#!/usr/bin/env python3
"""Compare urlgrep with the tools a user would pick instead, in one run.

On the same files, hot in the page cache (every file is re-read just
before each timed run), this times:

- urlgrep (release build) on one thread (`-j1`) and on all threads, when
  the binary has `-j` (detected from `--help`; otherwise one row, marked);
- linkify (`examples/linkify_count.rs`, the `linkify` crate);
- ripgrep `-o` and GNU grep `-oE` with the same URL regex;
- the floor: `examples/memchr_floor.rs`, which reads the files as
  urlgrep's reader does and counts `:` with memchr.

Per tool and corpus it reports the median MiB/s over RUNS runs (at least
5), urlgrep's speed-up over it, the URLs found (output lines) and the peak
memory (`/usr/bin/time -v`). The table goes to
`benches/results/<date>.md` with the commands, tool versions and CPU.

The corpora are unpacked from `../shared/corpora` under /tmp/urlgrep-bench
(never in the repository): SpamAssassin and blinux-list as folders of
messages and as one mbox spool, 20 Newsgroups, RFC 1500-2499 + 8400-8499.

With `--json` (issue 18) it times, instead of the peers, urlgrep -j1
plain, with `--json` (sender, subject and date of every message) and with
`--json --header List-Id --header Reply-To`, and each `--also` build plain
and with `--json` (a build from before message metadata gives the rows
"without the new fields"), on the spool and the SpamAssassin folder by
default; the table gives each row against the first.

With `--filters` (issue 17) it times, instead of the peers, urlgrep -j1
without a filter against the same run with `--host-file` of 100,000 and of
1,000,000 generated domains (plus a few that occur in the corpora) and
with `-e` and 10 typical patterns, on the spool and the SpamAssassin
folder by default; the table gives each row's slowdown and peak memory
over the unfiltered run.

With `--warc` (issue 30) it times web archives instead: the files of
`benches/gen_warc.py` (a 200 MiB `.warc.gz` of `response` records and
the WET `.warc.wet.gz` of the same pages, generated when absent with
`--python`, which must have warcio and fastwarc), each given as one
file: urlgrep `-j1 -c`, `-jN -c` and `-j1` printing the URLs; FastWARC
and warcio reading the records and counting Python `re` matches in the
decoded payloads (`benches/warc_peer.py`); and the inflate floor,
`examples/warc_inflate.rs`, which inflates the file member by member
with urlgrep's own flate2 and parses nothing, one decoder reset for each
member as urlgrep's reader does (with `--multi`, one `MultiGzDecoder`;
with `--new`, a new decoder a member, as urlgrep did before 2026-11-27
17:00; with `--layers`, also the bodies' chunked and gzip/deflate
codings). With `--peers-mib N` the peers read only the first N
MiB of the same records instead (the same generator stopped sooner),
beside urlgrep on that file. Then the peak RSS of `urlgrep -j1 -c` on
one record of 1 MiB, 64 MiB and 1 GiB (`gen_warc.py --big`), plain and
gzip, 3 runs each. urlgrep
and the example are built in the checkout's own target folder. The
table goes to `benches/results/<date>-warc.md`.

It times the release build, which is stripped of debug info (the code is
the same); for perf or callgrind, build `cargo build --profile profiling`
(release with `debug = 1`) and profile target/profiling/urlgrep.

With `--as-folder`, the urlgrep rows (this build and each `--also`) are
given a folder corpus as the folder itself (`urlgrep -j1 spamassassin`),
as a user runs it, instead of its files named one by one: urlgrep then
walks the folder by handle (input::deep on Linux), which the file list
never exercises. The peers are given the file list as before (linkify
and the floor cannot walk a folder). The results file says which form
each row was given.

Usage: python3 benches/compare.py [--runs N] [--corpus NAME]... [--no-build]
       [--also NAME=BINARY]... [--filters | --json] [--urlgrep PATH]
       [--as-folder]
       python3 benches/compare.py --warc [--runs N] [--python PYTHON]
"""

import argparse
import datetime
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(REPO, "..", "shared", "corpora")
WORK = "/tmp/urlgrep-bench"
# A target folder of its own: a target folder shared between checkouts of
# the same package may hold another checkout's `urlgrep` binary.
TARGET = os.path.join(WORK, "target")

# The URL regex a user would write for grep or ripgrep: the schemes urlgrep
# finds bare, ended at whitespace and the characters RFC 3986 Appendix C
# names as delimiters.
REGEX = (
    '(https?|ftp|file|gopher|nntp|telnet|wais|prospero)://[^][:space:]<>"]+'
    '|(mailto|news|urn):[^][:space:]<>"]+'
)

MBOX_FROM = b"From blinux-list@redhat.com Thu Jan  1 00:00:00 1970\n"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def write_result(name, lines):
    """Writes a results table to benches/results/`name` and shows it."""
    os.makedirs(os.path.join(REPO, "benches", "results"), exist_ok=True)
    path = os.path.join(REPO, "benches", "results", name)
    with open(path, "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))
    log(f"wrote {path}")


def unpack(tarball, dest):
    """Unpacks `tarball` into `dest` once."""
    mark = os.path.join(dest, ".unpacked-" + os.path.basename(tarball))
    if os.path.exists(mark):
        return
    os.makedirs(dest, exist_ok=True)
    log(f"unpacking {tarball}")
    with tarfile.open(tarball) as t:
        if hasattr(tarfile, "data_filter"):
            t.extractall(dest, filter="data")
        else:
            t.extractall(dest)
    open(mark, "w").close()


def files_under(path):
    """The regular files under `path`, sorted."""
    if os.path.isfile(path):
        return [path]
    out = []
    for root, dirs, files in os.walk(path):
        dirs.sort()
        out.extend(os.path.join(root, f) for f in sorted(files))
    return [f for f in out if not os.path.basename(f).startswith(".")]


# The folder of each folder corpus, for --as-folder.
FOLDERS = {name: f"{WORK}/{name}"
           for name in ("spamassassin", "blinux-list", "20news", "rfc")}


def corpora():
    """name -> list of files (a folder's files, or one spool file)."""
    c = os.path.join(SHARED)
    unpack(f"{c}/spamassassin/spamassassin-public-corpus.tar.gz", WORK)
    unpack(f"{c}/blinux-list/blinux-list.tar.gz", WORK)
    unpack(f"{c}/20newsgroups/20news-bydate.tar.gz", f"{WORK}/20news")
    unpack(f"{c}/rfc/rfc1500-2499.tar.gz", f"{WORK}/rfc")
    unpack(f"{c}/rfc/rfc8400-8499.tar.gz", f"{WORK}/rfc")
    spam = files_under(f"{WORK}/spamassassin")
    blinux = files_under(f"{WORK}/blinux-list")
    mbox = f"{WORK}/spool.mbox"
    if not os.path.exists(mbox):
        log("writing the mbox spool")
        with open(mbox + ".tmp", "wb") as out:
            for f in spam:
                data = open(f, "rb").read()
                out.write(data if data.endswith(b"\n") else data + b"\n")
            for f in blinux:
                data = open(f, "rb").read()
                out.write(MBOX_FROM)
                out.write(data if data.endswith(b"\n") else data + b"\n")
        os.rename(mbox + ".tmp", mbox)
    return {
        "spamassassin": spam,
        "blinux-list": blinux,
        "spool.mbox": [mbox],
        "20news": files_under(f"{WORK}/20news"),
        "rfc": files_under(f"{WORK}/rfc"),
    }


def ensure_tools():
    """Installs ripgrep and GNU time when missing."""
    missing = [p for p, b in (("ripgrep", "rg"), ("time", None))
               if (b and not shutil.which(b))
               or (not b and not os.path.exists("/usr/bin/time"))]
    if not missing:
        return
    log(f"installing {' '.join(missing)}")
    apt = ["apt-get", "install", "-y", "-q"] + missing
    if subprocess.run(apt, stdout=subprocess.DEVNULL).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], stdout=subprocess.DEVNULL)
        if subprocess.run(apt, stdout=subprocess.DEVNULL).returncode != 0:
            if "ripgrep" in missing and shutil.which("cargo"):
                subprocess.run(["cargo", "install", "ripgrep"], check=True)


def build():
    log("building urlgrep and the examples (release)")
    subprocess.run(
        ["cargo", "build", "--release", "--bin", "urlgrep",
         "--example", "linkify_count", "--example", "memchr_floor"],
        cwd=REPO, check=True, env=dict(os.environ, CARGO_TARGET_DIR=TARGET))


def version(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (p.stdout or p.stderr).splitlines()[0].strip()
    except (OSError, IndexError, subprocess.SubprocessError):
        return "unknown"


def tools(also=()):
    """(name, argv prefix) for each tool; `also` adds (name, binary) pairs
    of other urlgrep builds, run at -j1 beside this one (before/after)."""
    urlgrep = os.path.join(TARGET, "release", "urlgrep")
    examples = os.path.join(TARGET, "release", "examples")
    help_text = subprocess.run([urlgrep, "--help"], capture_output=True,
                               text=True).stdout
    has_j = re.search(r"(^|\s)-j\b", help_text) is not None
    out = []
    if has_j:
        out.append(("urlgrep -j1", [urlgrep, "-j1"]))
        out.append((f"urlgrep -j{os.cpu_count()}",
                    [urlgrep, f"-j{os.cpu_count()}"]))
    else:
        out.append(("urlgrep (1 thread, no -j)", [urlgrep]))
    for name, binary in also:
        out.append((f"urlgrep@{name} -j1", [binary, "-j1"]))
    out.append(("linkify", [os.path.join(examples, "linkify_count")]))
    rg = ["rg", "--text", "--no-filename", "--no-line-number",
          "--no-config", "-o", "-e", REGEX]
    out.append(("ripgrep -o -j1", rg[:1] + ["-j1"] + rg[1:]))
    out.append((f"ripgrep -o -j{os.cpu_count()}",
                rg[:1] + [f"-j{os.cpu_count()}"] + rg[1:]))
    out.append(("grep -oE", ["grep", "-a", "-h", "-o", "-E", REGEX]))
    out.append(("memchr floor", [os.path.join(examples, "memchr_floor")]))
    return out, has_j


# Domains that occur in the corpora, added to the generated host lists.
CORPUS_DOMAINS = ["redhat.com", "taint.org", "sourceforge.net", "xent.com",
                  "python.org", "example.com"]

# Ten patterns a user would give -e.
PATTERNS = [
    r"github\.com/[^/]+/[^/]+/issues/",
    r"\.pdf$",
    r"(?i)unsubscribe",
    r"[?&]utm_",
    r"^https?://[^/]*\.gov/",
    r"/cgi-bin/",
    r"sourceforge\.net",
    r"^mailto:.*@.*\.org$",
    r"\.(zip|exe|tar\.gz)$",
    r"(?i)/(login|signin)",
]


def host_list(n):
    """A file of `n` generated domains plus CORPUS_DOMAINS (as
    benches/filter.rs makes them: a name under a TLD, a fifth with one
    more label), written once under WORK."""
    path = os.path.join(WORK, f"hosts-{n}.txt")
    if os.path.exists(path):
        return path
    import random
    rng = random.Random(42)
    abc = "abcdefghijklmnopqrstuvwxyz0123456789"
    tlds = ["com", "net", "org", "info", "ru", "de", "co.uk", "xyz", "top",
            "cn"]

    def label():
        return "".join(rng.choice(abc) for _ in range(rng.randint(4, 14)))

    with open(path + ".tmp", "w") as f:
        f.write("# generated for benches/compare.py --filters\n")
        for d in CORPUS_DOMAINS:
            f.write(d + "\n")
        for _ in range(n):
            tld = rng.choice(tlds)
            if rng.randrange(5) == 0:
                f.write(f"{label()}.{label()}.{tld}\n")
            else:
                f.write(f"{label()}.{tld}\n")
    os.rename(path + ".tmp", path)
    return path


def filter_tools(urlgrep):
    """(name, argv prefix) of the --filters rows; the first is the
    reference."""
    e = []
    for p in PATTERNS:
        e += ["-e", p]
    return [
        ("urlgrep -j1", [urlgrep, "-j1"]),
        ("--host-file 100k", [urlgrep, "-j1", "--host-file",
                              host_list(100_000)]),
        ("--host-file 1M", [urlgrep, "-j1", "--host-file",
                            host_list(1_000_000)]),
        ("-e x10", [urlgrep, "-j1"] + e),
    ]


def json_tools(urlgrep, also):
    """(name, argv prefix) of the --json rows; the first is the
    reference."""
    rows = [
        ("urlgrep -j1", [urlgrep, "-j1"]),
        ("--json", [urlgrep, "-j1", "--json"]),
        ("--json, 2 --header", [urlgrep, "-j1", "--json", "--header",
                                "List-Id", "--header", "Reply-To"]),
    ]
    for name, binary in also:
        binary = os.path.abspath(binary)
        rows += [(f"{name} -j1", [binary, "-j1"]),
                 (f"{name} --json", [binary, "-j1", "--json"])]
    return rows


WARC_DIR = os.path.join(WORK, "warc")


def warc_corpora(python, peers_mib):
    """name -> [file] of the --warc mode, generated when absent: the
    200 MiB archive and its WET, and with `peers_mib` the first
    `peers_mib` MiB of the same records (the same generator stopped
    sooner), on which alone the peers then run."""
    gen = os.path.join(REPO, "benches", "gen_warc.py")
    web = os.path.join(WARC_DIR, "spamassassin.warc.gz")
    wet = os.path.join(WARC_DIR, "spamassassin.warc.wet.gz")
    if not (os.path.exists(web) and os.path.exists(wet)):
        subprocess.run([python, gen], check=True)
    if not os.path.exists(os.path.join(WARC_DIR, "big-64m.warc.gz")):
        subprocess.run([python, gen, "--big"], check=True)
    out = {"spamassassin.warc.gz": [web],
           "spamassassin.warc.wet.gz": [wet]}
    if peers_mib:
        small_dir = os.path.join(WARC_DIR, f"first-{peers_mib}m")
        small = os.path.join(small_dir, "spamassassin.warc.gz")
        if not os.path.exists(small):
            subprocess.run([python, gen, "--min-mib", str(peers_mib),
                            "--out", small_dir], check=True)
        out[f"spamassassin.warc.gz, first {peers_mib} MiB"] = [small]
    return out


def warc_tools(python):
    """(name, argv prefix) of the --warc rows, built in the checkout's own
    target folder (no other checkout's binary can land there)."""
    log("building urlgrep and examples/warc_inflate (release)")
    subprocess.run(["cargo", "build", "--release", "--bin", "urlgrep",
                    "--example", "warc_inflate"], cwd=REPO, check=True)
    release = os.path.join(REPO, "target", "release")
    # Copies, so that a rebuild during the run changes nothing.
    bin_dir = os.path.join(WORK, "warc-bin")
    os.makedirs(bin_dir, exist_ok=True)
    urlgrep = os.path.join(bin_dir, "urlgrep")
    inflate = os.path.join(bin_dir, "warc_inflate")
    shutil.copy2(os.path.join(release, "urlgrep"), urlgrep)
    shutil.copy2(os.path.join(release, "examples", "warc_inflate"), inflate)
    peer = os.path.join(REPO, "benches", "warc_peer.py")
    n = os.cpu_count()
    return urlgrep, [
        ("urlgrep -j1 -c", [urlgrep, "-j1", "-c"]),
        (f"urlgrep -j{n} -c", [urlgrep, f"-j{n}", "-c"]),
        ("urlgrep -j1", [urlgrep, "-j1"]),
        ("inflate floor", [inflate]),
        ("inflate floor --multi", [inflate, "--multi"]),
        ("inflate floor --new", [inflate, "--new"]),
        # Every compressed layer a reader of the pages undoes: the gzip
        # members and the responses' own chunked/gzip/deflate codings.
        ("inflate floor --layers", [inflate, "--layers"]),
    ], [
        ("urlgrep -j1 -c", [urlgrep, "-j1", "-c"]),
        (f"urlgrep -j{n} -c", [urlgrep, f"-j{n}", "-c"]),
        ("urlgrep -j1", [urlgrep, "-j1"]),
        ("FastWARC + re", [python, peer, "fastwarc"]),
        ("warcio + re", [python, peer, "warcio"]),
        ("inflate floor", [inflate]),
        ("inflate floor --layers", [inflate, "--layers"]),
    ]


def urls_of(out_path):
    """URLs found: the number printed (`-c`, the peers), else the lines."""
    with open(out_path, "rb") as fh:
        head = fh.read(4096)
    text = head.decode(errors="replace").strip()
    if re.fullmatch(r"\d+", text):
        return int(text)
    return None


def warc_memory(urlgrep, runs):
    """Peak RSS KiB of `urlgrep -j1 -c` on the big single-record files:
    {file: (median RSS KiB, min, max, median wall s, count)}."""
    out_path = os.path.join(WORK, "out-warc.txt")
    res = {}
    for name in ("big-1m.warc", "big-64m.warc", "big-1g.warc",
                 "big-1m.warc.gz", "big-64m.warc.gz", "big-1g.warc.gz"):
        f = os.path.join(WARC_DIR, name)
        rss, secs = [], []
        for _ in range(3):
            s, _, _, r = run([urlgrep, "-j1", "-c"], [f], out_path)
            rss.append(r)
            secs.append(s)
        res[name] = (statistics.median(rss), min(rss), max(rss),
                     statistics.median(secs), urls_of(out_path),
                     os.path.getsize(f))
        log(f"{name}: peak RSS {statistics.median(rss) / 1024:.1f} MiB")
    return res


def warm(files):
    """Re-reads the files so that the timed run starts from a hot cache."""
    for f in files:
        with open(f, "rb") as fh:
            while fh.read(1 << 20):
                pass


def targets(tool, files, folder):
    """What `tool` is given: the folder for urlgrep rows when --as-folder
    named one (`folder` is then set), else the files."""
    if folder and tool.startswith("urlgrep"):
        return [folder]
    return files


def run(argv, files, out_path, given=None):
    """One timed run: (wall seconds, CPU seconds, output lines, peak RSS
    KiB). `given` replaces `files` on the command line (a folder), the
    files are still the ones warmed. CPU time is the `wait4` rusage of `/usr/bin/time`, which holds
    its reaped child's (microseconds, not `time`'s 10 ms); the peak RSS is
    `time`'s (a forked child's own `ru_maxrss` starts at the size of the
    Python process that forked it)."""
    warm(files)
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf, \
            open(out_path, "wb") as out:
        t0 = time.perf_counter()
        p = subprocess.Popen(["/usr/bin/time", "-v", "-o", tf.name] + argv
                             + (given or files), stdout=out,
                             stderr=subprocess.PIPE)
        # stderr is small (errors only): read it, then reap with rusage.
        err = p.stderr.read()
        _, status, usage = os.wait4(p.pid, 0)
        secs = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        timing = open(tf.name).read()
    if p.returncode not in (0, 1):
        raise RuntimeError(f"{argv[0]} failed ({p.returncode}): "
                           f"{err.decode(errors='replace')[:300]}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                        timing).group(1))
    cpu = usage.ru_utime + usage.ru_stime
    with open(out_path, "rb") as fh:
        lines = sum(chunk.count(b"\n") for chunk in iter(
            lambda: fh.read(1 << 20), b""))
    return secs, cpu, lines, rss


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--corpus", action="append")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--also", action="append", default=[],
                    metavar="NAME=BINARY",
                    help="another urlgrep build to run at -j1 beside this "
                    "one, interleaved (before/after comparisons)")
    ap.add_argument("--json", action="store_true",
                    help="time --json against plain output (issue 18)")
    ap.add_argument("--filters", action="store_true",
                    help="time urlgrep's host and pattern filters "
                    "(default corpora: spool.mbox and spamassassin)")
    ap.add_argument("--urlgrep", metavar="PATH",
                    help="the urlgrep binary for --filters (default: a "
                    "release build in the bench's target folder)")
    ap.add_argument("--as-folder", action="store_true",
                    help="give the urlgrep rows a folder corpus as its "
                    "folder (as users run it), the peers its files")
    ap.add_argument("--warc", action="store_true",
                    help="time web archives: urlgrep against FastWARC, "
                    "warcio and the inflate floor (issue 30)")
    ap.add_argument("--python", default=sys.executable,
                    help="the Python with warcio and fastwarc for --warc "
                    "(e.g. a venv's)")
    ap.add_argument("--peers-mib", type=int, default=0,
                    help="--warc: the peers (FastWARC, warcio) read only "
                    "the first N MiB of the archive's records (default: "
                    "the whole files, beside urlgrep)")
    ap.add_argument("--note", default="",
                    help="a line for the results file (what was measured)")
    args = ap.parse_args()
    runs = max(args.runs, 5)
    if not os.path.isdir(SHARED):
        log("../shared/corpora is absent; nothing to compare")
        return 0
    if args.warc:
        return main_warc(args, runs)
    own = args.filters or args.json
    if not own:
        ensure_tools()
    if not args.no_build and not (own and args.urlgrep):
        build()
    all_corpora = corpora()
    names = args.corpus or list(all_corpora)
    if own:
        names = args.corpus or ["spool.mbox", "spamassassin"]
        urlgrep = args.urlgrep or os.path.join(TARGET, "release", "urlgrep")
        urlgrep = os.path.abspath(urlgrep)
        if args.json:
            also = [a.split("=", 1) for a in args.also if "=" in a]
            tool_list = json_tools(urlgrep, also)
        else:
            tool_list = filter_tools(urlgrep)
        has_j = True
    else:
        also = [a.split("=", 1) for a in args.also if "=" in a]
        tool_list, has_j = tools(also)
    out_path = os.path.join(WORK, "out.txt")
    results = {}
    for name in names:
        files = all_corpora[name]
        size = sum(os.path.getsize(f) for f in files)
        times = {t: [] for t, _ in tool_list}
        cpus = {t: [] for t, _ in tool_list}
        info = {}
        # Interleave the tools run by run, so that load on the shared
        # machine hits them alike.
        folder = FOLDERS.get(name) if args.as_folder else None
        for r in range(runs):
            for tool, argv in tool_list:
                secs, cpu, lines, rss = run(
                    argv, files, out_path, targets(tool, files, folder))
                times[tool].append(secs)
                cpus[tool].append(cpu)
                prev = info.get(tool, (lines, 0))
                info[tool] = (lines, max(prev[1], rss))
            log(f"{name}: run {r + 1}/{runs} done")
        results[name] = (size, len(files), {
            t: (statistics.median(times[t]), statistics.median(cpus[t]),
                info[t][0], info[t][1])
            for t, _ in tool_list})
    if args.json:
        write_filters(results, tool_list, runs, args.note,
                      "urlgrep --json and message metadata (issue 18)",
                      "json")
    elif args.filters:
        write_filters(results, tool_list, runs, args.note)
    else:
        write(results, tool_list, has_j, runs, args.note, args.as_folder)
    return 0


def main_warc(args, runs):
    """The --warc mode: time table and memory table."""
    all_corpora = warc_corpora(args.python, args.peers_mib)
    urlgrep, own, peers = warc_tools(args.python)
    load = os.getloadavg()
    names = args.corpus or list(all_corpora)
    if not args.peers_mib:
        # The peers on every file, beside urlgrep and the floors.
        own = own[:3] + peers[3:5] + own[3:]
    out_path = os.path.join(WORK, "out-warc.txt")
    results = {}
    for name in names:
        files = all_corpora[name]
        size = sum(os.path.getsize(f) for f in files)
        tool_list = peers if "first" in name else own
        times = {t: [] for t, _ in tool_list}
        cpus = {t: [] for t, _ in tool_list}
        info = {}
        for r in range(runs):
            for tool, argv in tool_list:
                secs, cpu, lines, rss = run(argv, files, out_path)
                times[tool].append(secs)
                cpus[tool].append(cpu)
                found = urls_of(out_path)
                prev = info.get(tool, (0, 0))
                info[tool] = (lines if found is None else found,
                              max(prev[1], rss))
            log(f"{name}: run {r + 1}/{runs} done")
        results[name] = (size, files, {
            t: (times[t], cpus[t], info[t][0], info[t][1])
            for t, _ in tool_list}, tool_list)
    memory = warc_memory(urlgrep, runs)
    note = (f"{args.note} " if args.note else "") + (
        "Load average (1, 5, 15 min) at the start: "
        + ", ".join(f"{x:.1f}" for x in load) + "; at the end: "
        + ", ".join(f"{x:.1f}" for x in os.getloadavg()) + ".")
    write_warc(results, runs, note, memory, args.python)
    return 0


def spread(xs):
    """Median and the spread of the runs as (max - min) / median."""
    med = statistics.median(xs)
    return med, (max(xs) - min(xs)) / med if med else 0.0


def write_warc(results, runs, note, memory, python):
    now = datetime.datetime.now(datetime.timezone.utc)
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    m = re.search(r"Model name:\s*(.+)", lscpu)
    cpu = m.group(1).strip() if m else "unknown"
    lines = [
        f"# urlgrep on web archives (issue 30), {now:%Y-%m-%d %H:%M} UTC",
        "",
        f"CPU: {cpu}, {os.cpu_count()} CPUs (`lscpu`), shared with other "
        "builds while measured. Median of "
        f"{runs} runs per row, rows interleaved run by run, the file "
        "re-read just before each run (hot page cache). Wall and CPU "
        "(user + system, from `wait4`) seconds; spread = (max - min) / "
        "median of the runs' wall times, the noise. x floor = row / "
        "`inflate floor` (wall, and CPU). URLs: the count printed (`-c`, "
        "the peers) or the lines printed. Peak RSS from `/usr/bin/time -v` "
        "(max over the runs).",
        "",
    ]
    if note:
        lines += [note, ""]
    commands = {}
    for name, (size, files, per_tool, tool_list) in results.items():
        commands.update(dict(tool_list))
        f_wall = statistics.median(per_tool["inflate floor"][0])
        f_cpu = statistics.median(per_tool["inflate floor"][1])
        lines.append(f"## {name} ({size / (1 << 20):.1f} MiB, "
                     f"{size:,} bytes)")
        lines.append("")
        lines.append("| tool | wall s | spread | x floor (wall) | CPU s | "
                     "x floor (CPU) | compressed MiB/s | URLs | "
                     "peak RSS MiB |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for tool, _ in tool_list:
            walls, cpus, urls, rss = per_tool[tool]
            wall, noise = spread(walls)
            cpu_s = statistics.median(cpus)
            urls_s = f"{urls:,}" if not tool.startswith("inflate") else "-"
            lines.append(
                f"| {tool} | {wall:.2f} | {100 * noise:.0f}% | "
                f"{wall / f_wall:.2f}x | {cpu_s:.2f} | "
                f"{cpu_s / f_cpu:.2f}x | {mib_s(size, wall):,.0f} | "
                f"{urls_s} | {rss / 1024:.1f} |")
        lines.append("")
        lines.append("Wall times of each run (s), in run order:")
        lines.append("")
        for tool, _ in tool_list:
            walls = per_tool[tool][0]
            lines.append(f"- {tool}: " + ", ".join(f"{w:.2f}" for w in walls))
        lines.append("")
    lines += [
        "## Peak memory against record size",
        "",
        "`urlgrep -j1 -c` on one `resource` record (`text/plain`, repeated "
        "text with URLs, `benches/gen_warc.py --big`); median / min / max "
        "peak RSS over the runs:",
        "",
        "| file | file bytes | record bytes | URLs | wall s | peak RSS MiB "
        "(median / min / max) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, (rss, lo, hi, secs, urls, fsize) in memory.items():
        record = {"1g": 1 << 30, "64m": 64 << 20, "1m": 1 << 20}[
            name.split("-")[1].split(".")[0]]
        lines.append(
            f"| {name} | {fsize:,} | {record:,} | "
            f"{urls if urls is None else f'{urls:,}'} | {secs:.2f} | "
            f"{rss / 1024:.1f} / {lo / 1024:.1f} / {hi / 1024:.1f} |")
    lines += ["", "## Commands", "",
              "Each command is followed by the one file:", ""]
    for tool, argv in commands.items():
        shown = [os.path.basename(a) if os.path.isabs(a) else a
                 for a in argv]
        lines.append(f"- {tool}: `{' '.join(shown)}`")
    lines += ["", "The files: `python benches/gen_warc.py` and "
              "`python benches/gen_warc.py --big` (how, exactly, in its "
              "docstring).", "", "## Versions", ""]
    rev = subprocess.run(["git", "describe", "--always", "--dirty"],
                         cwd=REPO, capture_output=True, text=True)
    lines.append(f"- urlgrep: {rev.stdout.strip()} (release build)")
    lines.append(f"- rustc: {version(['rustc', '--version'])}")
    tree = subprocess.run(["cargo", "tree", "-e", "normal", "-i", "flate2",
                           "--depth", "0"], cwd=REPO, capture_output=True,
                          text=True).stdout.strip()
    back = subprocess.run(["cargo", "tree", "-e", "normal", "-p", "flate2",
                           "--depth", "1"], cwd=REPO, capture_output=True,
                          text=True).stdout.strip().splitlines()
    lines.append(f"- flate2: {tree or 'unknown'}; its backend: "
                 f"{', '.join(b.strip('├└─│ ') for b in back[1:]) or '?'}")
    pyv = subprocess.run(
        [python, "-c", "import sys, importlib.metadata as m; "
         "print(sys.version.split()[0], m.version('warcio'), "
         "m.version('fastwarc'))"], capture_output=True, text=True)
    parts = pyv.stdout.split()
    if len(parts) == 3:
        lines.append(f"- Python {parts[0]}, warcio {parts[1]}, "
                     f"FastWARC {parts[2]} (PyPI)")
    lines.append("")
    write_result(f"{now:%Y-%m-%d}-warc.md", lines)


def mib_s(size, secs):
    return size / (1 << 20) / secs


def write(results, tool_list, has_j, runs, note, as_folder=False):
    now = datetime.datetime.now(datetime.timezone.utc)
    cpu = "unknown"
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    m = re.search(r"Model name:\s*(.+)", lscpu)
    if m:
        cpu = m.group(1).strip()
    ref = tool_list[0][0]
    lines = [
        f"# urlgrep comparison, {now:%Y-%m-%d %H:%M} UTC",
        "",
        f"CPU: {cpu}, {os.cpu_count()} CPUs (`lscpu`). Median of {runs} "
        "runs per tool, tools interleaved run by run, every file re-read "
        "just before each run (hot page cache). MiB/s = input bytes / wall "
        "time. Speed-up = "
        f"`{ref}` MiB/s / tool MiB/s. URLs = output lines. Peak RSS from "
        "`/usr/bin/time -v` (max over the runs). CPU MiB/s = input bytes "
        "/ (user + system time from `wait4`), median: on a loaded machine "
        "it is the steadier measure.",
        "",
    ]
    if note:
        lines += [note, ""]
    for name, (size, nfiles, per_tool) in results.items():
        floor = per_tool["memchr floor"][0]
        lines.append(f"## {name} ({size / (1 << 20):.1f} MiB, "
                     f"{nfiles} file{'s' if nfiles > 1 else ''})")
        lines.append("")
        lines.append("| tool | MiB/s | speed-up of urlgrep | % of floor "
                     "| CPU MiB/s | CPU % of floor | URLs | peak RSS MiB |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        floor_cpu = max(per_tool["memchr floor"][1], 0.005)
        ref_secs = per_tool[ref][0]
        for tool, _ in tool_list:
            secs, cpu, urls, rss = per_tool[tool]
            cpu = max(cpu, 0.005)
            speed = (f"{secs / ref_secs:.2f}x" if tool != "memchr floor"
                     else "")
            urls_s = f"{urls:,}" if tool != "memchr floor" else "-"
            lines.append(
                f"| {tool} | {mib_s(size, secs):,.0f} | {speed} | "
                f"{100 * floor / secs:.0f}% | {mib_s(size, cpu):,.0f} | "
                f"{100 * floor_cpu / cpu:.0f}% | {urls_s} | {rss / 1024:.1f} |")
        lines.append("")
    given = ("Each command is followed by the corpus's files (a folder's "
             "files in name order, or the one spool file)")
    if as_folder:
        given += ("; with `--as-folder` the urlgrep rows are given a "
                  "folder corpus as its folder instead")
    lines += ["## Commands", "", given + ":", ""]
    for tool, argv in tool_list:
        shown = [os.path.basename(argv[0])] + argv[1:]
        lines.append(f"- {tool}: `{' '.join(shown)}`")
    if not has_j:
        lines.append("- this urlgrep build has no `-j`: one thread only")
    lines += ["", "## Versions", ""]
    urlgrep_rev = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=REPO,
        capture_output=True, text=True).stdout.strip()
    lines.append(f"- urlgrep: {urlgrep_rev} (release build)")
    lines.append(f"- rustc: {version(['rustc', '--version'])}")
    lines.append("- linkify: crate 0.10 (examples/linkify_count.rs)")
    lines.append(f"- ripgrep: {version(['rg', '--version'])}")
    lines.append(f"- grep: {version(['grep', '--version'])}")
    lines.append("")
    write_result(f"{now:%Y-%m-%d-%H%M}.md", lines)


def write_filters(results, tool_list, runs, note,
                  title="urlgrep filters (issue 17)", suffix="filters"):
    """The --filters (and --json) table: each row against the first."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ref = tool_list[0][0]
    lines = [
        f"# {title}, {now:%Y-%m-%d %H:%M} UTC",
        "",
        f"Median of {runs} runs per row, rows interleaved run by run, "
        "files re-read before each run. Slower = row time / "
        f"`{ref}` time - 1, wall and CPU (user + system, from `wait4`). "
        "Peak RSS from `/usr/bin/time -v` (max over the runs).",
        "",
    ]
    if note:
        lines += [note, ""]
    for name, (size, nfiles, per_tool) in results.items():
        lines.append(f"## {name} ({size / (1 << 20):.1f} MiB, "
                     f"{nfiles} file{'s' if nfiles > 1 else ''})")
        lines.append("")
        lines.append("| run | wall s | slower (wall) | CPU s | slower "
                     "(CPU) | lines | peak RSS MiB | RSS over the first |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
        r_secs, r_cpu, _, r_rss = per_tool[ref]
        for tool, _ in tool_list:
            secs, cpu, urls, rss = per_tool[tool]
            lines.append(
                f"| {tool} | {secs:.3f} | {100 * (secs / r_secs - 1):+.1f}% "
                f"| {cpu:.4f} | {100 * (cpu / max(r_cpu, 0.0001) - 1):+.1f}% "
                f"| {urls:,} | {rss / 1024:.1f} | "
                f"{(rss - r_rss) / 1024:+.1f} |")
        lines.append("")
    lines += ["## Commands", ""]
    for tool, argv in tool_list:
        shown = [os.path.basename(argv[0])] + [
            os.path.basename(a) if a.startswith(WORK) else
            (f"'{a}'" if any(c in a for c in "\\?*()[]^$|") else a)
            for a in argv[1:]]
        lines.append(f"- {tool}: `{' '.join(shown)}`")
    rev = subprocess.run(["git", "describe", "--always", "--dirty"],
                         cwd=REPO, capture_output=True, text=True)
    lines += ["", f"urlgrep {rev.stdout.strip()} (release build)."]
    if suffix == "filters":
        lines[-1] += (" The host lists are generated by `host_list()` "
                      f"(seed 42) with {', '.join(CORPUS_DOMAINS)} added.")
    lines.append("")
    write_result(f"{now:%Y-%m-%d-%H%M}-{suffix}.md", lines)


if __name__ == "__main__":
    sys.exit(main())
