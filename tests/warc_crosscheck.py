#!/usr/bin/env python3
"""Cross-check urlgrep's web-archive record reader against warcio (issue 30).

warcio (PyPI), the format's reference reader, and `examples/warc_records`
(urlgrep's `warc::Records`) read every file of the shared sample archive
(`corpora/warc/pywb-sample-warcs.tar.gz`: WARC and ARC files written by
wget, wpull, pywb, bad and truncated ones). For each record both must
agree on: the record count, the type, the target URI, the date (as
written), the record id, the content type, the offset
(`get_record_offset()`: for `.gz` the gzip member's, urlgrep's
`gz_offset`), the record's length (`get_record_length()`: for plain
files head + block, for `.gz` the member's length) and the payload's
length (`content_stream()`: after the HTTP head, chunked and content
codings undone).

A file where either reader meets a fault is compared up to the fault, and
urlgrep's error must name an offset. Where the two readers differ on
purpose, the file is listed in KNOWN with the reason, and that difference
is checked too.

Usage (run by .ci/run with the venv .ci/run builds):

    target/warcio-venv/bin/python tests/warc_crosscheck.py [--lister PATH] [-v]

Without warcio it says SKIPPED and exits 0, unless CI is set, where that
is a failure (exit 1). The shared folder is $URLGREP_SHARED, else
../shared beside the repository (tests/support/shared.rs's rule).
"""

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile

WARCIO_VERSION = "1.7.4"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARBALL = "corpora/warc/pywb-sample-warcs.tar.gz"

# Files where urlgrep and warcio differ on purpose, and how.
KNOWN = {
    # warcio refuses a file gzipped whole ("non-chunked gzip file
    # detected") after its first record; urlgrep reads every record, all
    # in member 0 (WARC 1.1 Annex D: one member a record is recommended,
    # a whole-file gzip is still gzip).
    "example-bad.warc.gz.bad": "reads-more",
    # ARC header lines with archive-length "-1" and "abc": warcio reads
    # them as 0, urlgrep reports the line (a bad head) and goes on at the
    # next good header line; the records both find must agree.
    "bad.arc": "faults-skipped",
}


def unavailable(why):
    if os.environ.get("CI"):
        print(f"warc_crosscheck: {why}, and CI is set: FAILED", file=sys.stderr)
        sys.exit(1)
    print(f"SKIPPED: warc_crosscheck: {why}", file=sys.stderr)
    sys.exit(0)


def shared_root():
    return os.environ.get("URLGREP_SHARED") or os.path.join(ROOT, "..", "shared")


def warcio_records(path):
    """warcio's records of `path`, and its first fault (index, message)."""
    from warcio.archiveiterator import ArchiveIterator

    records, fault = [], None
    warnings = io.StringIO()
    with open(path, "rb") as f, contextlib.redirect_stderr(warnings):
        it = ArchiveIterator(f, arc2warc=False)
        try:
            for rec in it:
                head = rec.rec_headers
                uri = head.get_header("WARC-Target-URI") or head.get_header("uri")
                date = head.get_header("WARC-Date") or head.get_header("archive-date")
                payload = len(rec.content_stream().read())
                before = warnings.tell()
                offset, length = it.get_record_offset(), it.get_record_length()
                rtype = "warcinfo" if rec.rec_type == "arc_header" else rec.rec_type
                records.append(
                    {
                        "offset": offset,
                        "length": length,
                        "type": rtype,
                        "target_uri": uri,
                        "date": date,
                        "record_id": head.get_header("WARC-Record-ID"),
                        "content_type": rec.content_type,
                        "payload_length": payload,
                        "arc_header": rec.rec_type == "arc_header",
                    }
                )
                if warnings.tell() != before and fault is None:
                    # The block was not followed by its end: a fault after
                    # this record (which warcio has given whole).
                    fault = (len(records), warnings.getvalue().strip().splitlines()[0])
        except Exception as e:  # warcio's ArchiveLoadFailed and others
            if fault is None:
                fault = (len(records), f"{type(e).__name__}: {str(e).strip()[:80]}")
    return records, fault


def our_records(lister, path):
    """urlgrep's records of `path` and its errors (each with the number of
    records before it)."""
    out = subprocess.run([lister, path], capture_output=True, check=True)
    records, errors = [], []
    for line in out.stdout.splitlines():
        obj = json.loads(line)
        if "error" in obj:
            errors.append((len(records), obj))
        else:
            records.append(obj)
    return records, errors


def comparable(ours, size, gz):
    """urlgrep's records in warcio's terms: offset and record length."""
    rows = []
    for i, r in enumerate(ours):
        if gz:
            offset = r["gz_offset"]
            nxt = ours[i + 1]["gz_offset"] if i + 1 < len(ours) else size
            length = nxt - offset
        else:
            offset = r["offset"]
            length = r["head_length"] + r["content_length"]
        rows.append(
            {
                "offset": offset,
                "length": length,
                "type": r["type"],
                "target_uri": r["target_uri"],
                "date": r["date"],
                "record_id": r["record_id"],
                "content_type": r["content_type"],
                "payload_length": r["payload_length"],
            }
        )
    return rows


def differences(w, o, arc_header, payload=True):
    keys = ["offset", "length", "type", "target_uri", "date", "record_id", "content_type"]
    if arc_header:
        # warcio reads ARC's version block by its lines, as a head, not by
        # its archive-length (75 declared, 76 written in example.arc), and
        # gives no payload; urlgrep gives the block (75 octets) as the
        # payload of a `warcinfo`, whose body it does not search.
        keys.remove("length")
    elif payload:
        keys.append("payload_length")
    return [(k, w[k], o[k]) for k in keys if w[k] != o[k]]


def check_file(lister, path, verbose):
    name = os.path.basename(path)
    gz = open(path, "rb").read(2) == b"\x1f\x8b"
    size = os.path.getsize(path)
    wrecs, wfault = warcio_records(path)
    orecs, oerrs = our_records(lister, path)
    rows = comparable(orecs, size, gz)
    problems = []
    for _, err in oerrs:
        if not isinstance(err.get("offset"), int) or "offset" not in err["error"]:
            problems.append(f"an error without an offset: {err}")
    known = KNOWN.get(name)
    ofault = oerrs[0][0] if oerrs else None
    if wfault is None and ofault is None:
        if len(wrecs) != len(rows):
            problems.append(f"{len(wrecs)} records (warcio) != {len(rows)} (urlgrep)")
        upto = min(len(wrecs), len(rows))
    else:
        # Up to the first fault either reader met.
        cuts = [c for c in (wfault and wfault[0], ofault) if c is not None]
        upto = min(cuts)
        if wfault and not oerrs and known != "reads-more":
            problems.append(f"warcio met a fault ({wfault[1]}), urlgrep none")
    for w, o in zip(wrecs[:upto], rows[:upto]):
        if gz and known == "reads-more":
            o = dict(o, length=w["length"])  # one member: no member length
        for key, a, b in differences(w, o, w["arc_header"]):
            problems.append(f"record at {w['offset']}: {key} {a!r} (warcio) != {b!r} (urlgrep)")
    if known == "reads-more" and not len(rows) > len(wrecs):
        problems.append("urlgrep was to read past warcio's stop")
    if known == "faults-skipped":
        # Every record urlgrep gives is one of warcio's, the same.
        by_offset = {w["offset"]: w for w in wrecs}
        if not oerrs:
            problems.append("urlgrep reported no fault")
        for o in rows:
            w = by_offset.get(o["offset"])
            if w is None:
                problems.append(f"urlgrep's record at {o['offset']} is not warcio's")
                continue
            # bad.arc's record at 202 has a 1-octet block, "\n", under an
            # http URL: an empty HTTP head for warcio (payload 0), no HTTP
            # message for urlgrep (payload 1): not compared.
            for key, a, b in differences(w, o, w["arc_header"], payload=False):
                problems.append(f"record at {w['offset']}: {key} {a!r} (warcio) != {b!r} (urlgrep)")
    status = "ok" if not problems else "FAILED"
    note = f"{len(wrecs)} records (warcio), {len(rows)} (urlgrep)"
    if wfault or oerrs:
        note += f"; faults: warcio {wfault[1] if wfault else 'none'!r}"
        note += f", urlgrep {[e['error'] for _, e in oerrs]}"
    print(f"{status}: {name}: {note}")
    for p in problems[:10]:
        print(f"    {p}")
    if verbose:
        for w, o in zip(wrecs, rows):
            print(f"    {w}\n    {o}")
    return not problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    ap.add_argument("--lister", default=os.path.join(target, "debug", "examples", "warc_records"))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    try:
        import warcio  # noqa: F401
        from importlib.metadata import version

        found = version("warcio")
    except ImportError:
        unavailable(f"warcio is missing (pip install warcio=={WARCIO_VERSION})")
    if found != WARCIO_VERSION:
        print(f"warc_crosscheck: warcio {found}, pinned {WARCIO_VERSION}", file=sys.stderr)
    tarball = os.path.join(shared_root(), TARBALL)
    if not os.path.exists(tarball):
        unavailable(f"{tarball} absent (set URLGREP_SHARED to the shared folder)")
    if not os.path.exists(args.lister):
        subprocess.run(["cargo", "build", "--quiet", "--example", "warc_records"], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory(prefix="urlgrep-warc.") as tmp:
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="data")
        files = sorted(
            os.path.join(d, n) for d, _, ns in os.walk(tmp) for n in ns if not n.endswith(".md")
        )
        results = [check_file(args.lister, f, args.verbose) for f in files]
    passed = sum(results)
    print(f"warc_crosscheck: {passed} passed, {len(results) - passed} failed")
    sys.exit(0 if passed == len(results) and results else 1)


if __name__ == "__main__":
    main()
