#!/usr/bin/env python3
"""Runs iocextract (PyPI) on the cases of tests/data/defanged.toml and
prints its recall (expected URLs found, refanged) and its extra finds,
for the README's comparison with `urlgrep --find defanged`
(tests/defanged.rs prints urlgrep's recall).

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install iocextract requests
    /tmp/venv/bin/python tests/defanged_iocextract.py
"""
import pathlib
import tomllib

import iocextract

path = pathlib.Path(__file__).parent / "data" / "defanged.toml"
cases = tomllib.loads(path.read_text())["case"]
want = got = extra = 0
for case in cases:
    found = set(iocextract.extract_urls(case["input"], refang=True))
    urls = case["urls"]
    # A name without a scheme counts when found with the one iocextract
    # gives it.
    def forms(u):
        if ":" in u:
            return (u,)
        return (u, "http://" + u, "mailto:" + u)

    def seen(u):
        return any(f in found for f in forms(u))

    def wanted(f):
        return any(f in forms(u) for u in urls)

    hit = [u for u in urls if seen(u)]
    more = sorted(f for f in found if not wanted(f))
    want += len(urls)
    got += len(hit)
    extra += len(more)
    if len(hit) < len(urls) or more:
        missing = [u for u in urls if not seen(u)]
        print(f"{case['name']}: missing {missing} extra {more}")
print(f"iocextract recall: {got} of {want} URLs, {extra} other finds")
