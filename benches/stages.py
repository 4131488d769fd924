#!/usr/bin/env python3
"""Where a run's time goes, stage by stage (the README's stage-cost table).

Two sources, one per side of the system-call line:

- `callgrind FILE`: the user-space instructions of a callgrind output file
  (build with `cargo build --profile profiling`; run `valgrind
  --tool=callgrind --callgrind-out-file=FILE target/profiling/urlgrep -j1
  INPUT`), summed by stage. A line's cost goes to the stage of the source
  file it comes from, inlined code included (callgrind's fi=/fe=); code of
  the standard library inlined into a urlgrep function goes to that
  function's module; a call from urlgrep into other code (memchr, libc's
  memcpy, malloc, the base64 crate) goes, with everything under it, to the
  stage of the line that calls it.
- `perf [MS_PER_SAMPLE]`: `perf script` output on stdin (from `perf record
  -g`), each sample put to the system call its kernel stack is in (read,
  openat, close, ...), to page faults, or to the user-space object; with
  MS_PER_SAMPLE (the sampling period over the number of runs recorded),
  milliseconds per run too.

Usage:
    python3 benches/stages.py callgrind /tmp/cg.out
    perf script -i perf.data | python3 benches/stages.py perf 0.04
"""

import collections
import re
import sys

# The stages of DESIGN.md's data flow, by module (folder, file).
MAIL = {
    "frame": "frame",
    "header": "header walk",
    "field_cache": "header walk",
    "meta": "header walk",
    "encoded_word": "header walk",
    "date": "header walk",
    "decode": "decode",
    "map": "decode",
    "stage": "decode",
    "leaf": "decode",
    "stream": "mail stream",
}


def by_module(top, sub):
    """The stage of module `urlgrep::top::sub`."""
    if top == "mail":
        return MAIL.get(sub, "MIME walk")
    if top in ("scan", "search"):
        return "scan"
    if top == "parse":
        return "validate"
    if top in ("output", "filter", "cli"):
        return "print"
    if top == "driver":
        return "batch" if sub == "batch" else "driver"
    if top == "input":
        return "folder walk, open (user)"
    return "other"


def stage_of_path(path):
    """The stage of a source file of this crate, else None."""
    if path is None or "/rustc/" in path or "/registry/" in path:
        return None
    m = re.search(r"(?:^|/)src/(\w+)(?:/(\w+))?", path)
    return by_module(m.group(1), m.group(2)) if m else None


def stage_of_fn(name):
    """The stage of a function of this crate (by its path), else None."""
    m = re.search(r"urlgrep::(\w+)(?:::(\w+))?", name or "")
    return by_module(m.group(1), m.group(2)) if m else None


def callgrind(path):
    names = {}

    def resolve(kind, val):
        m = re.match(r"\((\d+)\)(?:\s+(.*))?", val)
        if not m:
            return val
        key = (kind, m.group(1))
        if m.group(2) is not None:
            names[key] = m.group(2)
        return names.get(key, "?")

    cost = collections.Counter()
    total = 0
    fn = fl = cur = cfn = None
    in_call = False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            c = line[0]
            if c.isdigit() or c in "+-*":
                parts = line.split()
                if len(parts) < 2:
                    continue
                ir = int(parts[1])
                if in_call:
                    # The inclusive cost of the call just announced.
                    in_call = False
                    if stage_of_fn(fn) and not stage_of_fn(cfn):
                        cost[stage_of_path(cur) or stage_of_fn(fn)] += ir
                    continue
                total += ir
                if stage_of_fn(fn):
                    cost[stage_of_path(cur) or stage_of_fn(fn)] += ir
                continue
            if "=" not in line:
                continue
            k, v = line.split("=", 1)
            if k == "fn":
                fn = resolve("fn", v)
                cur = fl
            elif k == "fl":
                fl = cur = resolve("fl", v)
            elif k in ("fi", "fe"):
                cur = resolve("fl", v)
            elif k == "cfn":
                cfn = resolve("fn", v)
            elif k in ("cfi", "cfl"):
                resolve("fl", v)
            elif k in ("ob", "cob"):
                resolve("ob", v)
            elif k == "calls":
                in_call = True
    staged = sum(cost.values())
    print(f"instructions: {total:,} ({staged:,} in urlgrep's stages, "
          f"{total - staged:,} outside: start-up, threads, the rest)")
    for k, v in cost.most_common():
        print(f"{v:>14,} {100 * v / total:6.2f}%  {k}")


def perf(ms_per_sample):
    counts = collections.Counter()
    total = 0

    def flush(frames):
        nonlocal total
        if not frames:
            return
        total += 1
        if "[kernel.kallsyms]" in frames[0]:
            name = "other"
            for fr in frames:
                m = re.search(r"(?:__x64_sys_|__do_sys_|ksys_|__se_sys_)(\w+)",
                              fr)
                if m:
                    name = "sys_" + m.group(1)
                    break
                if "exc_page_fault" in fr:
                    name = "page faults"
                    break
            counts["kernel: " + name] += 1
        else:
            m = re.search(r"\(([^)]*)\)\s*$", frames[0])
            counts["user: " + (m.group(1).split("/")[-1] if m else "?")] += 1

    block = []
    for line in sys.stdin:
        if line.strip():
            block.append(line.rstrip())
        else:
            flush(block[1:])
            block = []
    flush(block[1:])
    for k, v in counts.most_common():
        ms = f"{v * ms_per_sample:8.1f} ms" if ms_per_sample else ""
        print(f"{100 * v / total:6.2f}% {ms}  {k}")
    print(f"{total} samples")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "callgrind":
        callgrind(sys.argv[2])
    elif len(sys.argv) >= 2 and sys.argv[1] == "perf":
        perf(float(sys.argv[2]) if len(sys.argv) > 2 else 0.0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
