"""Type stubs of urlgrep (the Rust module `urlgrep._urlgrep` and the
pyarrow glue of `urlgrep/__init__.py`)."""

from __future__ import annotations

import os
from typing import Any, Iterable, Iterator, Literal, Optional, Sequence, Union

import pyarrow

__version__: str

_Text = Union[str, bytes, bytearray, memoryview]
_Names = Union[str, Sequence[str], None]
_Path = Union[str, os.PathLike[str]]
_Paths = Union[_Path, Iterable[_Path]]

class Match:
    """A URL found in a text, or a rejected candidate (`reject` set)."""

    url: str
    start: int
    end: int
    kind: str
    scheme: str
    host: Optional[str]
    flags: list[str]
    reject: Optional[str]
    defanged: Optional[str]

class FindIter(Iterator[Match]):
    """The lazy search of `find_iter`."""

    def __iter__(self) -> FindIter: ...
    def __next__(self) -> Match: ...

class Scan(Iterator[dict[str, Any]]):
    """The records of `scan`; closing it stops the scan."""

    def __iter__(self) -> Scan: ...
    def __next__(self) -> dict[str, Any]: ...
    def close(self) -> None: ...
    def __enter__(self) -> Scan: ...
    def __exit__(self, *args: object) -> bool: ...

def find(
    text: _Text,
    *,
    find: _Names = None,
    scheme: _Names = None,
    kind: _Names = None,
    rejects: bool = False,
    strict: bool = False,
    max_url_len: Optional[int] = None,
    max_wrapper_len: Optional[int] = None,
) -> list[Match]: ...
def find_iter(
    text: _Text,
    *,
    find: _Names = None,
    scheme: _Names = None,
    kind: _Names = None,
    rejects: bool = False,
    strict: bool = False,
    max_url_len: Optional[int] = None,
    max_wrapper_len: Optional[int] = None,
) -> FindIter: ...
def scan(
    paths: _Paths,
    *,
    mail: Literal["auto", "on", "off"] = "auto",
    jobs: Optional[int] = None,
    find: _Names = None,
    scheme: _Names = None,
    kind: _Names = None,
    host: _Names = None,
    exclude_host: _Names = None,
    host_file: Optional[_Paths] = None,
    exclude_host_file: Optional[_Paths] = None,
    regexp: _Names = None,
    exclude_regexp: _Names = None,
    ignore_case: bool = False,
    rejects: bool = False,
    metadata: bool = False,
    html_context: bool = False,
    header: _Names = None,
    strict: bool = False,
    redact: bool = False,
    unique: bool = False,
    max_count: Optional[int] = None,
    keep_defanged: bool = False,
    text: bool = False,
    qp_repair: bool = False,
    follow: bool = False,
    max_depth: Optional[int] = None,
    glob: _Names = None,
    warc: bool = True,
    tar: bool = True,
    resolve: bool = False,
    on_error: Literal["raise", "collect"] = "raise",
) -> Scan: ...
def stats(
    paths: _Paths,
    *,
    mail: Literal["auto", "on", "off"] = "auto",
    jobs: Optional[int] = None,
    find: _Names = None,
    scheme: _Names = None,
    kind: _Names = None,
    host: _Names = None,
    exclude_host: _Names = None,
    host_file: Optional[_Paths] = None,
    exclude_host_file: Optional[_Paths] = None,
    regexp: _Names = None,
    exclude_regexp: _Names = None,
    ignore_case: bool = False,
    strict: bool = False,
    text: bool = False,
    qp_repair: bool = False,
    follow: bool = False,
    max_depth: Optional[int] = None,
    glob: _Names = None,
    rejects: bool = False,
    top: int = 10,
    exact_stats: bool = False,
    by: Optional[Literal["year", "month", "day"]] = None,
    partial: bool = False,
    warc: bool = True,
    tar: bool = True,
    resolve: bool = False,
    on_error: Literal["raise", "collect"] = "raise",
) -> Any:
    """A dict (`--stats --json`), or bytes with `partial=True` (`--stats-tsv`)."""
def scan_arrow(paths: _Paths, *, batch_size: int = 8192, **kwargs: Any) -> pyarrow.RecordBatchReader:
    """`scan` as Arrow batches, one row per URL (`ARROW_SCHEMA`). The text
    columns whose values repeat from row to row (`path`, `kind`, `scheme`,
    the mail, `html_*` and `record_*` text) are `dictionary<int32, string>`,
    a dictionary per batch; `url`, `host`, `defanged`, `reference` and
    `link_text` are `string`."""
def arrow_schema() -> pyarrow.Schema:
    """The schema of `scan_arrow`."""

#: The schema of `scan_arrow`: uint64 numbers, bool flags, `flags` a
#: list of strings, `url`, `host`, `defanged`, `reference`, `link_text`
#: strings, every other text column `dictionary<int32, string>`.
ARROW_SCHEMA: pyarrow.Schema
