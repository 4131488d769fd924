#!/usr/bin/env python3
"""Run urlgrep on Apache Spark: one task per input file, the urlgrep binary
doing the work, Spark doing placement, retries and the merge of statistics.

    spark-submit --files target/release/urlgrep \\
        examples/spark/urlgrep_spark.py \\
        --input 'GLOB' --mode stats|jsonl --output DIR [--read binary|manifest]

Read modes (``--read``):

binary
    Spark reads each file's bytes (``SparkContext.binaryFiles``) and streams
    them into urlgrep's standard input, labelled ``--source <file URI>``:
    any filesystem Spark reads; a file under 2 GiB (one JVM byte array).
manifest
    The driver expands GLOB and hands each task paths that urlgrep opens
    itself (``--files-from -``): the same names on every executor (a shared
    filesystem), no size limit, no bytes through the JVM.
(README.md, "Two read modes".)

Modes (``--mode``):

stats
    Each task runs ``urlgrep --stats-tsv``: additive partial counters
    ``dim<TAB>key<TAB>count``.  They are summed with ``reduceByKey`` and
    written as one TSV file under ``DIR/stats-<read>/``, sorted by dim and
    key, in the format ``urlgrep merge`` reads and writes.
jsonl
    Each task runs ``urlgrep --json``.  The match records (and the reject
    records, when ``--urlgrep-arg=--rejects`` asks for them) are read with
    the declared schema ``RECORD_SCHEMA`` below and written under
    ``DIR/jsonl-<read>/`` as JSON Lines (``--format json``, the default) or
    parquet (``--format parquet``).

Filters (``--host[-file]``, ``--exclude-host[-file]``, ``-e``,
``--exclude-regexp``) go to every urlgrep run, as in a plain run; a host
file is shipped with ``SparkContext.addFile`` (two must not share a name).
``--mode`` and ``--read`` take comma-separated lists, run in one session.

Exit status 0 and 1 are success; any other fails the task (the file named,
urlgrep's stderr quoted; Spark retries). Why not ``RDD.pipe()``: README.md.

Engines (``--engine``): ``subprocess`` (default) runs the binary shipped
with ``--files`` per input, as above; ``module`` calls the ``urlgrep``
Python module in the executor's Python, one task per core scanning its
group of files in one call (``mapInArrow`` with ``urlgrep.scan_arrow`` for
jsonl, ``urlgrep.stats(partial=True)`` for stats; of ``--urlgrep-arg`` it
takes ``--rejects``, ``--html-context`` and ``--by PERIOD``). How to ship
the module to executors, and the two engines' figures: README.md, "In
process".

``.ci/spark-test`` runs this driver in local mode on the corpus of
``make_corpus.py``, with both engines, and compares its output with plain
urlgrep runs.
"""

import argparse
import array
import glob
import os
import subprocess
import sys
import tempfile
import threading
from operator import add

# A match or reject record of `urlgrep --json` as a Spark DDL string.
# `type` is `match`, or `reject` (with `--rejects`: `reason` and `message`
# say why, `host` and `flags` are null); the envelope's other records are
# dropped by the filter on `type`, fields urlgrep adds later are ignored.
# `path` is the file urlgrep opened (manifest mode), or `-` for standard
# input (binary mode), where `source` holds the file's URI.
RECORD_SCHEMA = (
    "type STRING, path STRING, source STRING, offset BIGINT, line BIGINT, "
    "column BIGINT, kind STRING, url STRING, scheme STRING, host STRING, "
    "flags ARRAY<STRING>, reason STRING, message STRING, "
    # A mail input: the URL's message, its sender, subject and date;
    # `headers` with `--header NAME`. A string cut at 200 characters (a
    # --header name at 8 values) has its `*_truncated` flag set.
    "mail STRUCT<message: BIGINT, message_offset: BIGINT, "
    "message_id: STRING, message_id_truncated: BOOLEAN, part: BIGINT, "
    "location: STRING, encoding: STRING, decoded: BOOLEAN, "
    "`from`: STRUCT<address: STRING, name: STRING, truncated: BOOLEAN>, "
    "subject: STRING, subject_truncated: BOOLEAN, date: STRING, "
    "date_truncated: BOOLEAN, date_utc: STRING, "
    "headers: MAP<STRING, ARRAY<STRING>>, headers_truncated: BOOLEAN>, "
    # A URL of an HTML part, with `--html-context`.
    "html STRUCT<`in`: STRING, element: STRING, attribute: STRING, "
    "link_text: STRING>"
)

# The values of `type` that are kept.
RECORD_TYPES = ("match", "reject")

# How much of urlgrep's standard error a failed task quotes.
STDERR_TAIL = 8192

# How many bytes go to urlgrep's standard input per write.
CHUNK = 1 << 20


class UrlgrepError(RuntimeError):
    """urlgrep failed (exit status other than 0 or 1) on an input."""


def locate_binary(name):
    """Returns the path of the urlgrep binary shipped with ``--files``,
    made executable (``--files`` does not keep the mode bits on every
    cluster manager)."""
    from pyspark import SparkFiles

    # SparkFiles' folder, then the working directory, where YARN puts
    # `--files` (under their `#alias` when one is given).
    tried = [SparkFiles.get(name), os.path.abspath(name)]
    path = next((p for p in tried if os.path.isfile(p)), None)
    if path is None:
        raise UrlgrepError(
            f"{name!r} was not shipped to this executor (not in "
            f"{' nor '.join(tried)}): pass `--files /path/to/{name}` to "
            f"spark-submit, under that exact file name"
        )
    if not os.access(path, os.X_OK):
        os.chmod(path, os.stat(path).st_mode | 0o111)
    return path


def run_urlgrep(argv, data, label):
    """Runs urlgrep with ``argv``, writes ``data`` (bytes) to its standard
    input and yields its standard output line by line (bytes, without the
    newline) while it runs.

    Exit status 0 and 1 end the iteration normally; any other status, or
    death by a signal, raises ``UrlgrepError`` naming ``label`` and quoting
    the end of urlgrep's standard error.

    The child gets the executor's environment explicitly (``env=``), never
    the empty one ``RDD.pipe()`` would give it.  Standard input is fed and
    standard error drained by two threads, so that no pipe can fill up and
    stall the child while we read its output.
    """
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
        close_fds=True,
    )
    err = bytearray()

    def feed():
        view = memoryview(data)
        try:
            for start in range(0, len(view), CHUNK):
                proc.stdin.write(view[start : start + CHUNK])
        except (BrokenPipeError, ValueError):
            # urlgrep closed its input (it failed or stopped early); its
            # exit status tells which.
            pass
        finally:
            try:
                proc.stdin.close()
            except BrokenPipeError:
                pass

    def drain():
        for chunk in iter(lambda: proc.stderr.read(65536), b""):
            err.extend(chunk)
            del err[:-STDERR_TAIL]

    threads = [threading.Thread(target=f, daemon=True) for f in (feed, drain)]
    for t in threads:
        t.start()
    finished = False
    try:
        for line in proc.stdout:
            yield line.rstrip(b"\n")
        finished = True
    finally:
        if not finished:
            # The consumer stopped early (task killed or failed): do not
            # leave urlgrep running.
            proc.kill()
        proc.stdout.close()
        status = proc.wait()
        for t in threads:
            t.join()
    if status not in (0, 1):
        how = (
            f"was killed by signal {-status}"
            if status < 0
            else f"exited with status {status}"
        )
        raise UrlgrepError(
            f"urlgrep {how} on {label}; its standard error:\n"
            + err.decode("utf-8", "replace").rstrip()
        )


# A partial's first line, and the start of its last (``#end<TAB>N``, N its
# counter lines): a task's partial that lacks them was cut short.
PARTIAL_HEADER = b"#urlgrep-partial\t1"
PARTIAL_END = b"#end\t"


def parse_stats(lines, label):
    """Parses ``dim<TAB>key<TAB>count`` lines into ``((dim, key), count)``
    pairs; dim and key stay bytes (keys need not be UTF-8). The partial's
    header and end record are checked, not passed on."""
    counters = None
    for number, line in enumerate(lines, 1):
        if line == PARTIAL_HEADER and counters is None:
            counters = 0
            continue
        if line.startswith(PARTIAL_END) and counters is not None:
            if line[len(PARTIAL_END):] != b"%d" % counters:
                raise UrlgrepError(
                    f"urlgrep --stats-tsv on {label}: line {number}: the "
                    f"end record disagrees with {counters} counter lines"
                )
            counters = None
            continue
        if counters is not None:
            counters += 1
        fields = line.split(b"\t")
        if len(fields) != 3 or not fields[2].isdigit():
            raise UrlgrepError(
                f"urlgrep --stats-tsv on {label}: line {number} is not "
                f"dim<TAB>key<TAB>count: {line[:200]!r}"
            )
        yield (fields[0], fields[1]), int(fields[2])
    if counters is not None:
        raise UrlgrepError(
            f"urlgrep --stats-tsv on {label}: the partial ends without its "
            f"end record"
        )


def decode_json(lines, label):
    """Decodes JSON Lines strictly as UTF-8 (urlgrep promises it)."""
    for number, line in enumerate(lines, 1):
        try:
            yield line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise UrlgrepError(
                f"urlgrep --json on {label}: line {number} is not UTF-8: {e}"
            ) from e


def mode_flags(mode):
    return {"stats": ["--stats-tsv"], "jsonl": ["--json"]}[mode]


def filter_argv(filters):
    """The urlgrep arguments of the filters, on an executor: a shipped
    host file is named by its path there."""
    from pyspark import SparkFiles

    argv = []
    for flag, value, shipped in filters:
        argv += [flag, SparkFiles.get(value) if shipped else value]
    return argv


def binary_task(binary, flags, mode, filters=()):
    """The task of binary read mode: one (URI, bytes) pair per file."""

    def task(pairs):
        exe = locate_binary(binary)
        extra = filter_argv(filters)
        for uri, data in pairs:
            argv = [exe, *flags, *extra, "--source", uri, "-"]
            lines = run_urlgrep(argv, data, uri)
            if mode == "stats":
                yield from parse_stats(lines, uri)
            else:
                yield from decode_json(lines, uri)

    return task


def manifest_task(binary, flags, mode, filters=()):
    """The task of manifest read mode: a partition of paths that urlgrep
    opens itself, given on its standard input (``--files-from -``)."""

    def task(paths):
        paths = list(paths)
        if not paths:
            return
        exe = locate_binary(binary)
        label = paths[0] if len(paths) == 1 else f"{len(paths)} files"
        manifest = b"".join(os.fsencode(p) + b"\n" for p in paths)
        argv = [exe, *flags, *filter_argv(filters), "--files-from", "-"]
        lines = run_urlgrep(argv, manifest, label)
        if mode == "stats":
            yield from parse_stats(lines, label)
        else:
            yield from decode_json(lines, label)

    return task


def local_path(pattern):
    """Strips a ``file:`` scheme; refuses other schemes (urlgrep opens
    manifest paths itself, so they must be local or shared mounts)."""
    if pattern.startswith("file://"):
        return pattern[len("file://") :]
    if pattern.startswith("file:"):
        return pattern[len("file:") :]
    head = pattern.split("/", 1)[0]
    if head.endswith(":"):
        raise SystemExit(
            f"urlgrep_spark: --read manifest needs paths that every "
            f"executor can open (a shared filesystem), not {pattern!r}; "
            f"use --read binary for {head}// inputs"
        )
    return pattern


def expand_manifest(patterns):
    """Expands the glob patterns on the driver: regular files, and the
    files under matched folders (recursively, symbolic links not
    followed), sorted, each once."""
    seen = set()
    paths = []
    for pattern in patterns:
        for hit in sorted(glob.glob(local_path(pattern), recursive=True)):
            found = []
            if os.path.isdir(hit):
                for root, dirs, files in os.walk(hit):
                    dirs.sort()
                    found.extend(os.path.join(root, f) for f in sorted(files))
            elif os.path.isfile(hit):
                found.append(hit)
            for path in found:
                path = os.path.abspath(path)
                if "\n" in path:
                    raise SystemExit(
                        f"urlgrep_spark: a manifest cannot hold a path with "
                        f"a newline: {path!r}"
                    )
                if path not in seen:
                    seen.add(path)
                    paths.append(path)
    if not paths:
        raise SystemExit(f"urlgrep_spark: no file matches {patterns}")
    return paths


def read_input(sc, args, read, binary, flags, mode, filters=()):
    """The RDD of urlgrep's output for one read mode: ((dim, key), count)
    pairs in stats mode, JSON strings in jsonl mode."""
    if read == "binary":
        files = sc.binaryFiles(",".join(args.input))
        return files.mapPartitions(binary_task(binary, flags, mode, filters))
    paths = expand_manifest(args.input)
    files = sc.parallelize(paths, len(paths))
    return files.mapPartitions(manifest_task(binary, flags, mode, filters))


# --- the module engine ---------------------------------------------------------


def module_options(urlgrep_args, filters):
    """The keyword arguments of ``urlgrep.scan``/``urlgrep.stats`` for the
    ``--urlgrep-arg`` flags the module engine takes, and the filters
    (host files by their shipped name, found with SparkFiles on the
    executor: see ``module_kwargs``)."""
    opts = {}
    args = list(urlgrep_args)
    while args:
        arg = args.pop(0)
        if arg == "--rejects":
            opts["rejects"] = True
        elif arg == "--html-context":
            opts["html_context"] = True
        elif arg == "--by" and args:
            opts["by"] = args.pop(0)
        elif arg.startswith("--by="):
            opts["by"] = arg[len("--by="):]
        else:
            raise SystemExit(
                f"urlgrep_spark: --engine module does not take "
                f"--urlgrep-arg={arg} (only --rejects, --html-context, "
                f"--by PERIOD); use --engine subprocess"
            )
    keys = {"--host": "host", "--host-file": "host_file",
            "--exclude-host": "exclude_host",
            "--exclude-host-file": "exclude_host_file",
            "--regexp": "regexp", "--exclude-regexp": "exclude_regexp"}
    shipped = []
    for flag, value, is_shipped in filters:
        shipped.append((keys[flag], value, is_shipped))
    return opts, shipped


def module_kwargs(opts, shipped, mode):
    """On an executor: the keyword arguments of one call."""
    from pyspark import SparkFiles

    kwargs = dict(opts)
    # A task scans its group of files with the cores Spark gave it
    # (spark.task.cpus), not every core of the executor.
    kwargs["jobs"] = task_cpus()
    for key, value, is_shipped in shipped:
        kwargs.setdefault(key, []).append(
            SparkFiles.get(value) if is_shipped else value)
    if mode == "jsonl":
        # --json's records: with the message's sender, subject and date.
        kwargs.pop("by", None)
        kwargs["metadata"] = True
    else:
        kwargs.pop("html_context", None)
    return kwargs


def task_cpus():
    """The cores of the running task (``spark.task.cpus``, 1 by
    default)."""
    from pyspark import TaskContext

    context = TaskContext.get()
    try:
        return max(1, int(context.cpus())) if context is not None else 1
    except (AttributeError, TypeError, ValueError):
        return 1


def task_paths(batches):
    """The paths of a task's Arrow batches (manifest read mode), all of
    them: the task scans its group in one call."""
    paths = []
    for batch in batches:
        paths.extend(batch.column("path").to_pylist())
    return paths


def group_label(paths):
    """How an error names a task's group of files."""
    return paths[0] if len(paths) == 1 else f"{len(paths)} files"


def scan_or_raise(urlgrep, paths, label, **kwargs):
    """``urlgrep.scan`` whose input errors fail the task naming ``label``,
    as a failing urlgrep run does."""
    try:
        yield from urlgrep.scan(paths, **kwargs)
    except OSError as e:
        raise UrlgrepError(f"urlgrep (module) failed on {label}: {e}") from e


def as_piped(record, uri):
    """A record of a file the module opened, labelled as urlgrep labels
    piped input (binary read mode): ``path`` ``-``, ``source`` the URI."""
    record["path"] = "-"
    record["source"] = uri
    return record


def record_batch(batch, schema, uri=None):
    """The rows of a ``urlgrep.scan_arrow`` batch (match records, the
    columns of ``urlgrep.ARROW_SCHEMA``) as a batch of ``schema``
    (``RECORD_SCHEMA``), column by column: no Python object per row. A
    ``*_truncated`` flag that is false is null, as an absent member of
    ``--json`` reads. ``uri``: the file's URI of binary read mode (the
    record labelled as piped input). Each array is cast to its field's
    type (``fit``): ``scan_arrow``'s dictionary columns become strings."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n = batch.num_rows

    def fit(array, type):
        return array if type is None or array.type == type else array.cast(type)

    def col(name, type=None):
        return fit(batch.column(name), type)

    def filled(fields, arrays):
        return [fit(arrays.get(f.name, pa.nulls(n, f.type)), f.type)
                for f in fields]

    # No pa.scalar nor pa.array of Python values here: pyarrow imports
    # pandas for those (0.4 s and more in each Python worker).
    def const(value):
        if value is None:
            return pa.nulls(n, pa.string())
        data = value.encode("utf-8")
        size = len(data)
        offsets = (array.array("i", range(0, (n + 1) * size, size)) if size
                   else array.array("i", [0]) * (n + 1))
        return pa.Array.from_buffers(pa.string(), n, [
            None, pa.py_buffer(offsets.tobytes()), pa.py_buffer(data * n)])

    def flag(name):
        c = batch.column(name)
        return pc.if_else(c, c, pa.nulls(n, pa.bool_()))

    def struct(type, arrays, absent):
        return pa.StructArray.from_arrays(
            filled(type, arrays), fields=list(type), mask=pc.is_null(absent))

    mail_t = schema.field("mail").type
    sender = struct(mail_t.field("from").type, {
        "address": col("from_address"), "name": col("from_name"),
        "truncated": flag("from_truncated")}, batch.column("from_truncated"))
    mail = struct(mail_t, {
        "message": col("message", pa.int64()),
        "message_offset": col("message_offset", pa.int64()),
        "message_id": col("message_id"),
        "message_id_truncated": flag("message_id_truncated"),
        "part": col("part", pa.int64()), "location": col("location"),
        "encoding": col("encoding"), "decoded": col("decoded"),
        "from": sender, "subject": col("subject"),
        "subject_truncated": flag("subject_truncated"), "date": col("date"),
        "date_truncated": flag("date_truncated"), "date_utc": col("date_utc"),
    }, batch.column("message"))
    html = struct(schema.field("html").type, {
        "in": col("html_in"), "element": col("html_element"),
        "attribute": col("html_attribute"), "link_text": col("link_text"),
    }, batch.column("html_in"))
    arrays = {
        "type": const("match"),
        "path": col("path") if uri is None else const("-"),
        "source": const(uri),
        "offset": col("offset", pa.int64()), "line": col("line", pa.int64()),
        "column": col("column", pa.int64()), "kind": col("kind"),
        "url": col("url"), "scheme": col("scheme"), "host": col("host"),
        "flags": col("flags", schema.field("flags").type),
        "mail": mail, "html": html,
    }
    return pa.RecordBatch.from_arrays(filled(schema, arrays), schema=schema)


def temp_files(pairs):
    """Each ``(uri, bytes)`` of binary read mode written to a temporary
    file: its URI and the file's name, valid until the next is asked for."""
    for uri, data in pairs:
        with tempfile.NamedTemporaryFile(prefix="urlgrep-") as f:
            f.write(data)
            f.flush()
            yield uri, f.name


def batch_files(batches):
    """The ``(uri, bytes)`` of Arrow batches of ``path`` and ``content``."""
    for batch in batches:
        contents = batch.column("content")
        for i, uri in enumerate(batch.column("path").to_pylist()):
            yield uri, contents[i].as_py()


def module_jsonl_task(opts, shipped, read, schema, batch_rows=8192):
    """The ``mapInArrow`` function of jsonl mode: Arrow batches of paths
    (manifest read) or of ``binaryFile`` rows (binary read) in, Arrow
    batches of match and reject records (``schema``) out. Without
    ``--rejects`` the records come as ``urlgrep.scan_arrow`` columns,
    rearranged by ``record_batch``; with it (rejects are no rows of
    ``scan_arrow``) as ``urlgrep.scan`` dicts."""

    def task(batches):
        import pyarrow as pa
        import urlgrep

        kwargs = module_kwargs(opts, shipped, "jsonl")
        if not kwargs.get("rejects"):
            yield from columns_task(urlgrep, batches, kwargs)
            return
        rows = []

        def records():
            if read == "manifest":
                paths = task_paths(batches)
                if paths:
                    yield from scan_or_raise(
                        urlgrep, paths, group_label(paths), **kwargs)
                return
            for uri, name in temp_files(batch_files(batches)):
                for r in scan_or_raise(urlgrep, name, uri, **kwargs):
                    yield as_piped(r, uri)

        for r in records():
            if r.get("type") in RECORD_TYPES:
                rows.append(r)
            if len(rows) >= batch_rows:
                yield pa.RecordBatch.from_pylist(rows, schema=schema)
                rows = []
        if rows:
            yield pa.RecordBatch.from_pylist(rows, schema=schema)

    def arrow_or_raise(urlgrep, paths, label, kwargs, uri=None):
        try:
            for b in urlgrep.scan_arrow(paths, batch_size=batch_rows, **kwargs):
                yield record_batch(b, schema, uri)
        except OSError as e:
            raise UrlgrepError(f"urlgrep (module) failed on {label}: {e}") from e

    def columns_task(urlgrep, batches, kwargs):
        if read == "manifest":
            # The task's whole group of files in one scan.
            paths = task_paths(batches)
            if paths:
                yield from arrow_or_raise(
                    urlgrep, paths, group_label(paths), kwargs)
            return
        for uri, name in temp_files(batch_files(batches)):
            yield from arrow_or_raise(urlgrep, name, uri, kwargs, uri)

    return task


def module_stats_task(opts, shipped, read):
    """The task of stats mode: ``urlgrep.stats(partial=True)`` of each
    input, parsed as the ``--stats-tsv`` lines."""

    def task(items):
        import urlgrep

        kwargs = module_kwargs(opts, shipped, "stats")

        def stats(path, label):
            try:
                return urlgrep.stats(path, partial=True, **kwargs)
            except OSError as e:
                raise UrlgrepError(
                    f"urlgrep (module) failed on {label}: {e}") from e

        if read == "manifest":
            paths = list(items)
            if paths:
                label = group_label(paths)
                yield from parse_stats(stats(paths, label).splitlines(), label)
            return
        for uri, name in temp_files(items):
            yield from parse_stats(stats(name, uri).splitlines(), uri)

    return task


def balanced_groups(paths, n):
    """``paths`` cut into at most ``n`` groups of about equal bytes (the
    largest file first, each into the lightest group), each group in
    the order of ``paths``."""
    n = max(1, min(n, len(paths)))
    order = {p: i for i, p in enumerate(paths)}

    def size(p):
        try:
            return os.path.getsize(p)
        except OSError:
            return 0  # urlgrep reports it, in its group

    groups = [[0, []] for _ in range(n)]
    for p in sorted(paths, key=size, reverse=True):
        lightest = min(groups, key=lambda g: (g[0], len(g[1])))
        lightest[0] += size(p)
        lightest[1].append(p)
    return [sorted(g, key=order.get) for _, g in groups if g]


def module_input(spark, args, read, mode, opts, shipped):
    """The module engine's output for one read mode: an RDD of
    ((dim, key), count) pairs in stats mode, a DataFrame of records in
    jsonl mode.

    One task per core (``defaultParallelism``), not one per file: the
    module scans a group of files in one call, so it needs no process
    per file, and each task Spark saves is worth far more (0.7 to 1.5 s
    of scheduling, serialisation and Python worker hand-off) than the
    search of a file. In manifest read mode the groups hold about equal
    bytes; in binary read mode the files' partitions are coalesced."""
    sc = spark.sparkContext
    tasks = sc.defaultParallelism
    if read == "manifest":
        groups = balanced_groups(expand_manifest(args.input), tasks)
        # One group per partition; its paths are the partition's rows.
        paths = sc.parallelize(groups, len(groups)).flatMap(lambda g: g)
    if mode == "stats":
        task = module_stats_task(opts, shipped, read)
        if read == "manifest":
            return paths.mapPartitions(task)
        files = sc.binaryFiles(",".join(args.input))
        return files.coalesce(tasks).mapPartitions(task)
    from pyspark.sql.pandas.types import to_arrow_schema
    from pyspark.sql.types import _parse_datatype_string

    struct = _parse_datatype_string(RECORD_SCHEMA)
    task = module_jsonl_task(opts, shipped, read, to_arrow_schema(struct))
    if read == "manifest":
        frame = paths.map(lambda p: (p,)).toDF("path STRING")
    else:
        frame = spark.read.format("binaryFile").load(args.input)
        frame = frame.coalesce(tasks)
    return frame.mapInArrow(task, struct)


# The filter options: (driver option, urlgrep flag, takes a file).
FILTERS = (
    ("host", "--host", False),
    ("host_file", "--host-file", True),
    ("exclude_host", "--exclude-host", False),
    ("exclude_host_file", "--exclude-host-file", True),
    ("regexp", "--regexp", False),
    ("exclude_regexp", "--exclude-regexp", False),
)


def ship_filters(sc, args):
    """The filters as (urlgrep flag, value, shipped) triples; host files
    are added to the job, to be found by file name on the executors."""
    out = []
    names = {}
    for attr, flag, is_file in FILTERS:
        for value in getattr(args, attr):
            if not is_file:
                out.append((flag, value, False))
                continue
            path = os.path.abspath(local_path(value))
            if not os.path.isfile(path):
                raise SystemExit(
                    f"urlgrep_spark: {flag} {value}: not a readable file "
                    f"on the driver"
                )
            name = os.path.basename(path)
            if name not in names:
                names[name] = path
                sc.addFile(path)
            elif names[name] != path:
                raise SystemExit(
                    f"urlgrep_spark: two host files are named {name!r} "
                    f"({names[name]} and {path}); rename one"
                )
            out.append((flag, name, True))
    return out


def write_stats(pairs, out):
    """Sums the partial counters and writes them as one TSV file. The
    ``hll-`` dimensions (HyperLogLog registers of unique URLs and hosts)
    merge by maximum, as ``urlgrep merge`` does."""
    def is_max(kv):
        return kv[0][0].startswith(b"hll-")

    sums = pairs.filter(lambda kv: not is_max(kv)).reduceByKey(add)
    maxima = pairs.filter(is_max).reduceByKey(max)
    totals = sums.union(maxima).sortByKey(numPartitions=1)
    lines = totals.map(lambda kv: b"%s\t%s\t%d" % (kv[0][0], kv[0][1], kv[1]))

    def framed(rows):
        # One partition (sortByKey above): the whole partial, between the
        # header and the end record that `urlgrep merge` checks.
        yield PARTIAL_HEADER
        n = 0
        for row in rows:
            n += 1
            yield row
        yield PARTIAL_END + b"%d" % n

    lines.mapPartitions(framed).saveAsTextFile(out)


def write_jsonl(spark, records, out, fmt):
    """Reads the JSON records with the declared schema (failing on a
    malformed one) and writes the matches and rejects. ``records`` is an
    RDD of JSON text, or (module engine) a DataFrame of that schema."""
    from pyspark.sql import DataFrame
    from pyspark.sql.functions import col

    if not isinstance(records, DataFrame):
        records = (
            spark.read.schema(RECORD_SCHEMA)
            .option("mode", "FAILFAST")
            .json(records)
        )
    frame = records.where(col("type").isin(*RECORD_TYPES))
    frame.write.format(fmt).save(out)


def split_list(text, allowed, what):
    items = [t for t in text.split(",") if t]
    bad = [t for t in items if t not in allowed]
    if bad or not items:
        raise argparse.ArgumentTypeError(
            f"{what} must be one or more of {', '.join(allowed)}, "
            f"comma-separated: {text!r}"
        )
    return list(dict.fromkeys(items))


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="urlgrep_spark.py",
        description="Run urlgrep on Apache Spark, one task per input file.",
    )
    p.add_argument(
        "--input",
        action="append",
        required=True,
        metavar="GLOB",
        help="input files (a Hadoop glob in binary mode, a glob on the "
        "driver's filesystem in manifest mode); repeatable",
    )
    p.add_argument(
        "--mode",
        required=True,
        type=lambda t: split_list(t, ("stats", "jsonl"), "--mode"),
        help="stats, jsonl, or both comma-separated",
    )
    p.add_argument("--output", required=True, metavar="DIR")
    p.add_argument(
        "--read",
        default=["binary"],
        type=lambda t: split_list(t, ("binary", "manifest"), "--read"),
        help="binary (default), manifest, or both comma-separated",
    )
    p.add_argument(
        "--format",
        default="json",
        choices=("json", "parquet"),
        help="file format of jsonl mode's output (default: json)",
    )
    p.add_argument(
        "--engine",
        default="subprocess",
        choices=("subprocess", "module"),
        help="subprocess: run the urlgrep binary shipped with --files "
        "(default); module: call the urlgrep Python module in process",
    )
    p.add_argument(
        "--binary",
        default="urlgrep",
        metavar="NAME",
        help="file name of the binary shipped with --files "
        "(default: urlgrep)",
    )
    for attr, flag, is_file in FILTERS:
        p.add_argument(
            *(["-e", flag] if flag == "--regexp" else [flag]),
            dest=attr,
            action="append",
            default=[],
            metavar="FILE" if is_file else (
                "PATTERN" if "regexp" in flag else "DOMAIN"),
            help=f"passed to urlgrep as {flag}; repeatable"
            + (" (the file is shipped to the executors)" if is_file else ""),
        )
    p.add_argument(
        "--urlgrep-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="an extra argument for every urlgrep run; repeatable "
        "(write --urlgrep-arg=--flag)",
    )
    return p.parse_args(argv)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.appName("urlgrep")
        # One file per task: binaryFiles packs files into a partition
        # until it holds maxPartitionBytes, counting openCostInBytes for
        # each; 1 and 0 give every file its own partition.
        .config("spark.files.maxPartitionBytes", "1")
        .config("spark.files.openCostInBytes", "0")
        # The same for the binaryFile source of --engine module.
        .config("spark.sql.files.maxPartitionBytes", "1")
        .config("spark.sql.files.openCostInBytes", "0")
        .getOrCreate()
    )
    sc = spark.sparkContext
    try:
        filters = ship_filters(sc, args)
        if args.engine == "module":
            opts, shipped = module_options(args.urlgrep_arg, filters)
        for read in args.read:
            for mode in args.mode:
                flags = mode_flags(mode) + args.urlgrep_arg
                out = os.path.join(args.output, f"{mode}-{read}")
                if args.engine == "module":
                    rdd = module_input(spark, args, read, mode, opts, shipped)
                else:
                    rdd = read_input(
                        sc, args, read, args.binary, flags, mode, filters
                    )
                if mode == "stats":
                    write_stats(rdd, out)
                else:
                    write_jsonl(spark, rdd, out, args.format)
                print(f"urlgrep_spark: wrote {out}", file=sys.stderr)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
