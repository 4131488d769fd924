#!/usr/bin/env python3
"""Cross-check urlgrep against other projects' public test suites.

The cases are under tests/data/peers/, one file per peer test file, quoted
with a `# source:` and `# licence:` line. Each case is one line of
tab-separated fields:

    locator  find  input  [expected URL]...

`locator` is the line or test function in the peer file; `find` is `-` (the
default mode: URLs with a scheme) or the `--find` list the case needs
(scheme-less `www`, `domain`, `email`, `network-path` forms); `input` is the
text, with `\\t`, `\\n`, `\\r`, `\\\\` and `\\u{HEX}` escapes; the expected URLs
are the peer's, in order (none: the peer finds no link). `# compare: first`
in a file means the peer checks the first link only (linkify-it);
`# compare: unordered`, that it compares the links as a multiset, in any
order (URL-Detector's `assertEqualsNoOrder`).

A comment `# class b: reason` or `# class c: reason` right above a case
records a known disagreement: (b) the peer's policy differs and urlgrep's
answer has RFC grounds (README, Conformance), (c) out of scope for
urlgrep. Class (a), urlgrep wrong, is fixed, not recorded.

Usage (stdlib only; run after `cargo build`):

    python3 tests/peer_cases.py [--bin target/debug/urlgrep] [-v]

It prints, per source, the cases, agreements and disagreements by class,
and lists every disagreement with no class (exit status 1 when there is
one) and every recorded class whose case now agrees (stale, also 1).
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "data", "peers")


def unescape(s):
    """Decode the data format's escapes."""
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\" or i + 1 == len(s):
            out.append(c)
            i += 1
            continue
        n = s[i + 1]
        if n == "u" and s[i + 2:i + 3] == "{":
            end = s.index("}", i)
            out.append(chr(int(s[i + 3:end], 16)))
            i = end + 1
            continue
        out.append({"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}.get(n, "\\" + n))
        i += 2
    return "".join(out)


def read_cases(path):
    """The cases of one file, with the file's compare mode."""
    cases = []
    compare = "all"
    klass = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# compare:"):
                compare = line.split(":", 1)[1].strip()
                continue
            m = re.match(r"# class ([bc]): (.*)", line)
            if m:
                klass = (m.group(1), m.group(2))
                continue
            if line.startswith("#") or not line.strip():
                if not line.startswith("#"):
                    klass = None
                continue
            fields = line.split("\t")
            locator, find, text = fields[0], fields[1], unescape(fields[2])
            expected = [unescape(u) for u in fields[3:]]
            cases.append((locator, find, text, expected, klass))
            klass = None
    return compare, cases


def run(binary, find, text):
    """The URLs urlgrep prints for `text`, in order."""
    args = [binary, "--json"]
    if find != "-":
        args += ["--find", find]
    p = subprocess.run(args, input=text.encode("utf-8"), capture_output=True, check=False)
    urls = []
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        r = json.loads(line)
        if r.get("type") == "match":
            urls.append(r["url"])
    return urls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "target", "debug", "urlgrep"))
    ap.add_argument("-v", action="store_true", help="list classed disagreements too")
    opts = ap.parse_args()
    bad = 0
    totals = collections.Counter()
    print(f"{'source':38} {'cases':>5} {'agree':>5} {'b':>3} {'c':>3} {'open':>4}")
    for name in sorted(os.listdir(PEERS)):
        if not name.endswith(".txt"):
            continue
        compare, cases = read_cases(os.path.join(PEERS, name))
        n = collections.Counter()
        lines = []
        for locator, find, text, expected, klass in cases:
            got = run(opts.bin, find, text)
            seen = got[:1] if compare == "first" and expected else got
            if compare == "unordered":
                seen, expected = sorted(seen), sorted(expected)
            n["cases"] += 1
            if seen == expected:
                n["agree"] += 1
                if klass:
                    lines.append(f"  STALE {name} {locator}: class {klass[0]} but agrees")
                    bad += 1
                continue
            key = klass[0] if klass else "open"
            n[key] += 1
            if key == "open" or opts.v:
                tag = f"class {klass[0]}: {klass[1]}" if klass else "OPEN"
                lines.append(f"  {name} {locator} [{find}] {text!r}\n"
                             f"      peer {expected}\n      ours {got}\n      {tag}")
            if key == "open":
                bad += 1
        totals.update(n)
        print(f"{name:38} {n['cases']:5} {n['agree']:5} {n['b']:3} {n['c']:3} {n['open']:4}")
        for line in lines:
            print(line)
    print(f"{'total':38} {totals['cases']:5} {totals['agree']:5} {totals['b']:3} "
          f"{totals['c']:3} {totals['open']:4}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
