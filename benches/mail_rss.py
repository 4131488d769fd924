#!/usr/bin/env python3
"""Peak memory and time of the mail search on the hostile inputs of issue 15.

Generates each input at its full size under a scratch folder (none is kept
in the repository), searches it with `urlgrep -j2 --mail on` as a file,
from standard input and gzipped, and prints a Markdown table: URLs found
(and whether every reading found the same), peak RSS (from wait4), and CPU
time per byte against ordinary mail (the spool, `--mail on -c`) measured
in the same run.

    cargo build --release
    python3 benches/mail_rss.py [--bin target/release/urlgrep]
        [--spool /tmp/urlgrep-bench/spool.mbox] [--dir /tmp/urlgrep-rss]
        [--only NAME,...]
"""

import argparse
import base64
import gzip
import os
import subprocess
import sys
import time

MIB = 1 << 20


def b64_lines(data):
    return base64.encodebytes(data)


def gen_b64(f):
    """68 MB mbox: one base64 text part holding 1,800,000 URLs."""
    f.write(b"From a@b Thu Aug 22 13:17:22 2002\nMessage-ID: <b64@x>\n"
            b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n")
    step = 100_000
    for k in range(0, 1_800_000, step):
        text = b"".join(b"see http://u%d.example/p\n" % i
                        for i in range(k, k + step))
        # Each block is an encoding of its own, padded: decoding goes on
        # after the padding (concatenated encodings).
        f.write(b64_lines(text))
    return 1_800_000


def gen_two(f):
    """23 MB message: a 10.5 MB text part, then a base64 part of 300,000 URLs."""
    f.write(b"Message-ID: <two@x>\nContent-Type: multipart/mixed; boundary=B\n\n"
            b"--B\nContent-Type: text/plain\n\n")
    f.write(b"filler line of plain text without links\n" * (10_500_000 // 40))
    f.write(b"\n--B\nContent-Type: text/plain\n"
            b"Content-Transfer-Encoding: base64\n\n")
    urls = b"".join(b"http://v%d.example/\n" % i for i in range(300_000))
    f.write(b64_lines(urls))
    f.write(b"--B--\n")
    return 300_000


def gen_big(f):
    """A 256 MiB single message of short lines, one URL in 16."""
    f.write(b"Message-ID: <big@x>\nSubject: big\n\n")
    n = 0
    block = []
    size = 0
    line = 0
    while size < 256 * MIB:
        if line % 16 == 0:
            s = b"see http://w%d.example/\n" % line
            n += 1
        else:
            s = b"a short line\n"
        block.append(s)
        size += len(s)
        line += 1
        if len(block) >= 100_000:
            f.write(b"".join(block))
            block = []
    f.write(b"".join(block))
    return n


def gen_zeros(f):
    """A Subject: line, then 2 GiB of zeros (the issue's 9.4 MB .gz)."""
    f.write(b"Subject: zeros http://z.example/\n")
    chunk = bytes(64 * MIB)
    for _ in range(32):
        f.write(chunk)
    return 1


def gen_fields(f):
    """15.7 M tiny header fields, then a body with one URL."""
    f.write(b"Subject: fields\n")
    block = b"X: a\n" * 100_000
    for _ in range(157):
        f.write(block)
    f.write(b"\nbody http://fields.example/\n")
    return 1


def gen_refs(f):
    """64 MiB of HTML character references in a text/html part."""
    f.write(b"Content-Type: text/html\n\n<p>")
    line = b"&amp;" * 15 + b"&#x41;&lt;\n"
    f.write(line * (64 * MIB // len(line)))
    f.write(b"<a href=\"http://refs.example/?a=1&amp;b=2\">x</a>\n")
    return 1


def gen_parts(f):
    """13.4 M empty MIME parts."""
    f.write(b"Content-Type: multipart/mixed; boundary=b\n\n")
    block = b"--b\n\n" * 100_000
    for _ in range(134):
        f.write(block)
    f.write(b"--b\n\nlast http://parts.example/\n--b--\n")
    return 1


def gen_lines(f):
    """A 200 MiB message of short lines, searched with --json and -n."""
    f.write(b"Subject: lines\n\n")
    f.write(b"a\n" * (100 * MIB))
    f.write(b"http://lines.example/\n")
    return 1


INPUTS = [
    ("b64", "b64.mbox", gen_b64, "68 MB mbox, one base64 text part, 1.8 M URLs"),
    ("two", "two.eml", gen_two, "23 MB message, text part then base64 part"),
    ("big", "big.eml", gen_big, "256 MiB single message"),
    ("zeros", "zeros.eml", gen_zeros, "Subject: line, then 2 GiB of zeros"),
    ("fields", "fields.eml", gen_fields, "15.7 M header fields"),
    ("refs", "refs.eml", gen_refs, "64 MiB of HTML references"),
    ("parts", "parts.eml", gen_parts, "13.4 M empty MIME parts"),
    ("lines", "lines.eml", gen_lines, "200 MiB of short lines, --json -n"),
]


def measured(cmd, stdin_path=None, timeout=None):
    """Runs `cmd` in a forked child and reads its rusage with wait4."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        if stdin_path:
            fd = os.open(stdin_path, os.O_RDONLY)
            os.dup2(fd, 0)
        else:
            fd = os.open(os.devnull, os.O_RDONLY)
            os.dup2(fd, 0)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        try:
            if timeout:
                os.execvp("timeout", ["timeout", "-s", "INT", str(timeout)] + cmd)
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    os.close(w)
    t = time.monotonic()
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status, ru = os.wait4(pid, 0)
    wall = time.monotonic() - t
    return (b"".join(chunks), ru.ru_utime + ru.ru_stime, wall,
            ru.ru_maxrss, os.waitstatus_to_exitcode(status))


def count(out):
    try:
        return int(out.split()[-1])
    except (ValueError, IndexError):
        return -1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/urlgrep")
    ap.add_argument("--spool", default="/tmp/urlgrep-bench/spool.mbox")
    ap.add_argument("--dir", default="/tmp/urlgrep-rss")
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    binary = os.path.abspath(args.bin)
    base = [binary, "-j2", "--mail", "on"]

    # Ordinary mail, the same flags.
    spool_size = os.path.getsize(args.spool)
    spool_cpu = []
    for _ in range(3):
        out, cpu, wall, rss, _ = measured(base + ["-c", args.spool])
        spool_cpu.append(cpu)
    spool_cpu.sort()
    per_byte = spool_cpu[1] / spool_size
    print(f"ordinary mail: {args.spool}, {spool_size / MIB:.0f} MiB, "
          f"{spool_cpu[1]:.3f} s CPU (median of 3), "
          f"{per_byte * 1e9:.2f} ns/byte, peak {rss / 1024:.0f} MiB\n")
    print("| input | URLs expected | file / stdin / gzip | peak RSS file / stdin / gzip (MiB) | CPU ns/byte (× ordinary mail) |")
    print("|---|---|---|---|---|")
    for name, fname, gen, desc in INPUTS:
        if only and name not in only:
            continue
        path = os.path.join(args.dir, fname)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                want = gen(f)
            with open(path + ".want", "w") as f:
                f.write(str(want))
        want = int(open(path + ".want").read())
        gz = path + ".gz"
        if not os.path.exists(gz):
            subprocess.run(["gzip", "-1", "-k", "-f", path], check=True)
        size = os.path.getsize(path)
        flags = ["--json", "-n"] if name == "lines" else ["-c"]
        counts, rsses, cpus = [], [], []
        for target, stdin in [(path, None), ("-", path), (gz, None)]:
            out, cpu, wall, rss, code = measured(base + flags + [target], stdin)
            if name == "lines":
                n = out.count(b'"type":"match"')
            else:
                n = count(out)
            counts.append(n)
            rsses.append(rss / 1024)
            cpus.append(cpu)
        same = "same" if len(set(counts)) == 1 else "DIFFER"
        ns = cpus[0] / size * 1e9
        print(f"| {desc} ({size / MIB:.0f} MiB) | {want:,} | "
              f"{' / '.join(f'{c:,}' for c in counts)} ({same}) | "
              f"{' / '.join(f'{r:.0f}' for r in rsses)} | "
              f"{ns:.2f} ({cpus[0] / size / per_byte:.1f}×) |")
        sys.stdout.flush()
    if not only or "devzero" in only:
        out, cpu, wall, rss, code = measured(
            base + ["-c", "/dev/zero"], timeout=5)
        print(f"| `--mail on /dev/zero` for 5 s | 0 | {count(out)} | "
              f"{rss / 1024:.0f} | - |")


if __name__ == "__main__":
    main()
