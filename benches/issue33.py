#!/usr/bin/env python3
"""Peak memory, CPU time and output size on the repros of issue 33.

Generates each input under a scratch folder (none is kept in the
repository), runs the issue's command line with the release binary at
-j2 under /usr/bin/time (peak RSS, user + sys CPU; not wait4 from this
script, whose forked child would start at the script's own peak), and
prints a Markdown table: bytes out and on stderr, peak RSS, and CPU time
per input byte against ordinary mail searched with the same flags (the
spool, median of 3 runs in the same session).

    cargo build --release
    python3 benches/issue33.py [--bin target/release/urlgrep]
        [--spool /tmp/urlgrep-bench/spool.mbox] [--dir /tmp/urlgrep-i33]
        [--only NAME,...]
"""

import argparse
import os
import subprocess
import sys
import tempfile

MIB = 1 << 20


def measured(cmd, stdin_path=None, timeout=None):
    """(stdout bytes, stderr bytes, CPU s, peak RSS KiB, exit) of `cmd`."""
    with tempfile.TemporaryDirectory() as d:
        tfile = os.path.join(d, "time")
        efile = os.path.join(d, "err")
        pre = ["timeout", "-s", "INT", str(timeout)] if timeout else []
        full = ["/usr/bin/time", "-q", "-f", "%M %U %S %x", "-o", tfile] \
            + pre + cmd
        with open(stdin_path or os.devnull, "rb") as i, \
                open(efile, "wb") as e:
            p = subprocess.Popen(full, stdin=i, stdout=subprocess.PIPE,
                                 stderr=e)
            n = 0
            while True:
                b = p.stdout.read(1 << 16)
                if not b:
                    break
                n += len(b)
            p.wait()
        with open(tfile) as t:
            rss, user, sys_, code = t.read().split()[-4:]
        return (n, os.path.getsize(efile), float(user) + float(sys_),
                int(rss), int(code))

FROM = b"From a@b Mon Jan  1 00:00:00 2001\n"


def gen_r5(f):
    """Defect 2: 4 mbox messages of 3.5 M URLs each (276 MB)."""
    for _ in range(4):
        f.write(FROM + b"\n")
        for k in range(0, 3_500_000, 100_000):
            f.write(b"".join(b"http://r%d.ex/\n" % i
                             for i in range(k, k + 100_000)))


def gen_lines_n(n):
    def gen(f):
        """Defect 3: one streamed message, its URLs on one line."""
        f.write(b"From: a@b.example\n\n" + b"http://n.example/ " * n + b"\n")
    return gen


def gen_url_lines(f):
    """Defect 3's control: its URLs one a line."""
    f.write(b"From: a@b.example\n\n" + b"http://n.example/\n" * 200_000)


def gen_folded_words(f):
    """Defect 4's control: its words one a folded line."""
    f.write(b"From: a@b.example\nSubject:" + b" =?utf-8?q?a:b/cd?=\n" * 200_000
            + b"\nhttp://w.example/\n")


def gen_body_urls(f):
    """Defect 5's control: its URLs in the body, a short Subject."""
    f.write(b"From: a@b.example\nSubject: s\n\n"
            + b"".join(b"see http://s%06d.example/abc " % i
                       for i in range(60_000))
            + b"\n")


def gen_words(f):
    """Defect 4: 200,000 encoded words on one Subject line."""
    f.write(b"From: a@b.example\nSubject: " + b"=?utf-8?q?a:b/cd?= " * 200_000
            + b"\n\nhttp://w.example/\n")


def gen_subject(f):
    """Defect 5: a 2.5 MB Subject holding 60,000 URLs."""
    f.write(b"From: a@b.example\nSubject: "
            + b"".join(b"see http://s%06d.example/abc " % i
                       for i in range(60_000))
            + b"\n\nbody\n")


def gen_hosts(f):
    """Defect 6: 4 M distinct hosts, one URL a line."""
    for k in range(0, 4_000_000, 100_000):
        f.write(b"".join(b"http://h%d.example/\n" % i
                         for i in range(k, k + 100_000)))


def gen_msgs(f):
    """Defect 17: 100,000 small mbox messages."""
    f.write(b"".join(FROM + b"Subject: m %d\nX-A: a\n\nhttp://m%d.ex/\n"
                     % (i, i) for i in range(100_000)))


def gen_hostline(f):
    """Defect 16: a 100 MB bad line in a host file."""
    f.write(b"example.com\n" + b"x" * (100 * MIB) + b"\n")


HEADERS32 = sum((["--header", "X-H%d" % i] for i in range(31)), []) \
    + ["--header", "X-A"]
HEADERS1000 = sum((["--header", "X-H%d" % i] for i in range(1000)), [])
# -ePATTERN: one argument each, for the argument list's limit.
ALTS = ["-ea%d" % i for i in range(99_999)] + ["-e("]

# name, file, generator, description, arguments ("{}" is the file),
# from stdin (True) or named; the spool is searched with the arguments
# but those of the input (before "{}") as ordinary mail.
CASES = [
    ("r5", "r5.mbox", gen_r5, "2: 4 × 3.5 M URLs in an mbox, `-c`",
     ["-c", "{}"], False),
    ("lines200k", "n200k.eml", gen_lines_n(200_000),
     "3: 200 k URLs on one line, `-n` from stdin", ["-n"], True),
    ("lines400k", "n400k.eml", gen_lines_n(400_000),
     "3: 400 k URLs on one line, `-n` from stdin", ["-n"], True),
    ("lines200kc", "l200k.eml", gen_url_lines,
     "3, control: the 200 k URLs one a line, `-n` from stdin", ["-n"], True),
    ("json400k", "n400k.eml", gen_lines_n(400_000),
     "3: 400 k URLs on one line, `--json` from stdin", ["--json"], True),
    ("words", "words.eml", gen_words,
     "4: 200 k encoded words on one Subject, `--json`", ["--json", "{}"],
     False),
    ("wordsc", "wordsc.eml", gen_folded_words,
     "4, control: the words one a folded line, `--json`", ["--json", "{}"],
     False),
    ("subject", "subject.eml", gen_subject,
     "5: 2.5 MB Subject of 60 k URLs, `--json`", ["--json", "{}"], False),
    ("subjectc", "subjectc.eml", gen_body_urls,
     "5, control: the 60 k URLs in the body, `--json`", ["--json", "{}"],
     False),
    ("stats", "hosts.txt", gen_hosts, "6: 4 M hosts, `--stats`",
     ["--stats", "{}"], False),
    ("statsby", "hosts.txt", gen_hosts, "6: 4 M hosts, `--stats --by day`",
     ["--stats", "--by", "day", "{}"], False),
    ("filesfrom", None, None, "13: `--files-from /dev/zero` (5 s)",
     ["--files-from", "/dev/zero"], False),
    ("hostfile", None, None, "13: `--host-file /dev/zero` (5 s)",
     ["--host-file", "/dev/zero", "/dev/null"], False),
    ("hostline", "hostline.txt", gen_hostline,
     "16: a 100 MB bad line in `--host-file`", ["--host-file", "{}",
                                                  "/dev/null"], False),
    ("alts", None, None, "16: 100,000 `-e` alternatives",
     ALTS + ["/dev/null"], False),
    ("msgs", "msgs.mbox", gen_msgs, "17: 100 k messages, `--json`",
     ["--json", "{}"], False),
    ("hdr32", "msgs.mbox", gen_msgs,
     "17: 100 k messages, `--json` and 32 `--header`",
     ["--json"] + HEADERS32 + ["{}"], False),
    ("hdr1000", "msgs.mbox", gen_msgs,
     "17: 100 k messages, `--json` and 1,000 `--header` (refused)",
     ["--json"] + HEADERS1000 + ["{}"], False),
    ("n200kb", "n200k.eml", gen_lines_n(200_000),
     "3, its linear reading: 200 k URLs on one line, `-b` from stdin",
     ["-b"], True),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/urlgrep")
    ap.add_argument("--spool", default="/tmp/urlgrep-bench/spool.mbox")
    ap.add_argument("--dir", default="/tmp/urlgrep-i33")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    binary = os.path.abspath(args.bin)
    base = [binary, "-j2"]

    spool_size = os.path.getsize(args.spool)
    spool = {}

    def ordinary(flags):
        """CPU s per byte of the spool searched with `flags`."""
        key = tuple(flags)
        if key not in spool:
            cpus = sorted(measured(base + flags + [args.spool])[2]
                          for _ in range(3))
            spool[key] = cpus[1] / spool_size
            print(f"ordinary mail: {args.spool}, "
                  f"{spool_size / MIB:.0f} MiB, `-j2 {' '.join(flags)}`: "
                  f"{cpus[1]:.3f} s CPU (median of 3), "
                  f"{spool[key] * 1e9:.2f} ns/byte", file=sys.stderr)
        return spool[key]

    print("| defect: input, flags (all `-j2`) | in (MB) | exit | stdout "
          "(bytes) | stderr (bytes) | peak RSS (MiB) | CPU s | ns/byte "
          "(× ordinary mail, same flags) |")
    print("|---|---|---|---|---|---|---|---|")
    for name, fname, gen, desc, argv, stdin in CASES:
        if only and name not in only:
            continue
        path = None
        size = 0
        if fname:
            path = os.path.join(args.dir, fname)
            if not os.path.exists(path):
                with open(path + ".part", "wb") as f:
                    gen(f)
                os.rename(path + ".part", path)
            size = os.path.getsize(path)
        cmd = base + [path if a == "{}" else a for a in argv]
        timeout = 5 if "/dev/zero" in argv else None
        out, err, cpu, rss, code = measured(
            cmd, path if stdin else None, timeout)
        rel = "-"
        if size and code == 0:
            flags = argv[:argv.index("{}")] if "{}" in argv else argv
            ns = cpu / size * 1e9
            rel = f"{ns:.1f} ({cpu / size / ordinary(flags):.1f}×)"
        print(f"| {desc} | {size / 1e6:.1f} | {code} | {out:,} | {err:,} | "
              f"{rss / 1024:.0f} | {cpu:.2f} | {rel} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
