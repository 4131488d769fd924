"""Shared helpers: the CLI built by cargo beside the module."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
CORPORA = ROOT / "corpora"


def cli_path():
    target = os.environ.get("CARGO_TARGET_DIR") or str(ROOT / "target")
    exe = os.environ.get("URLGREP_BIN") or os.path.join(target, "debug", "urlgrep")
    if not os.path.exists(exe):
        pytest.fail(f"{exe}: build the CLI first (cargo build)")
    return exe


def cli_json(*args):
    """The records of `urlgrep --json ARGS` (exit status 0, 1 or 2)."""
    p = subprocess.run([cli_path(), "--json", *map(str, args)], capture_output=True)
    assert p.returncode in (0, 1, 2), p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()], p


@pytest.fixture(scope="session")
def cli():
    return cli_json
