"""
The scored file the ``report`` command reads: a literal path, read lazily, checked once.

A path is the file (or Parquet directory) it names, never a glob pattern, and the report is
never written onto an input (compared by device and inode, so hard links and symlinks
count). Reading problems become one line naming the file (:class:`UsageError`).
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

import polars as pl
from polars.exceptions import PolarsError

from polars_roc._core.validate import one_line

#: File suffixes the `report` command reads, and how.
READERS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "ipc",
    ".ipc": "ipc",
    ".feather": "ipc",
}


class UsageError(Exception):
    """A problem with the command's input that the user can fix: printed on one line."""


def scan(path: str) -> pl.LazyFrame:
    """
    A lazy scan of the scored file; the data is read only when the report's queries run.

    The path is the file (or Parquet directory) it names, never a glob pattern: a ``[``,
    ``*`` or ``?`` is part of the name (``glob=False``).
    """
    file = Path(path)
    if not file.exists():
        msg = f"file not found: {path!r}"
        raise UsageError(msg)
    if file.is_file() and file.stat().st_size == 0:
        msg = f"{path!r} is empty (0 bytes): no header and no rows"
        raise UsageError(msg)
    suffix = "".join(file.suffixes[-1:]).lower()
    kind = READERS.get(suffix)
    if kind is None and file.is_dir():
        kind = "parquet"  # a partitioned Parquet data set
        if not any(p.is_file() and not p.name.startswith((".", "_")) for p in file.rglob("*")):
            msg = f"directory {path!r} holds no data files (expected Parquet files)"
            raise UsageError(msg)
    if kind is None:
        msg = (
            f"cannot read {path!r}: unknown file type {suffix!r}; "
            f"expected one of {', '.join(sorted(READERS))}"
        )
        raise UsageError(msg)
    if kind in ("csv", "tsv"):
        return pl.scan_csv(
            path, separator="\t" if kind == "tsv" else ",", infer_schema_length=10_000, glob=False
        )
    if kind == "ipc":
        return pl.scan_ipc(path, glob=False)
    return pl.scan_parquet(path, glob=False)


def identity(path: Path) -> tuple[int, int] | None:
    """The (device, inode) of the file a path names, symlinks followed; None if none."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def refuse_overwrite(path: str, output: str) -> None:
    """
    The report must not land on an input file, nor inside an input directory.

    Files are compared by identity (device and inode), so a hard link, a symlink or any
    other spelling of an input is refused, not only the same name.
    """
    source, target = Path(path), Path(output)
    inputs = {identity(source)}
    inside = False
    if source.is_dir():  # any file of the data set, or any place under the directory
        inputs |= {identity(file) for file in source.rglob("*") if file.is_file()}
        parents = Path(os.path.realpath(target)).parents  # symlinks and ".." resolved
        inside = any(identity(parent) == identity(source) for parent in parents)
    inputs.discard(None)
    if inside or identity(target) in inputs:
        msg = (
            f"-o {output!r} would overwrite the input {path!r}; "
            f"write the report elsewhere, e.g. -o report.html"
        )
        raise UsageError(msg)


def readable(path: str, lf: pl.LazyFrame, columns: list[str]) -> pl.Schema:
    """
    The file's schema, after checking it has rows and (CSV) that the used columns parse.

    Polars' reading errors become one line naming the file; a ragged CSV names its line.
    """
    csv_file = Path(path).suffix.lower() in (".csv", ".tsv")
    try:
        schema = lf.collect_schema()
        if lf.head(1).collect().height == 0:
            if csv_file and _lines(path) > 1:
                msg = (
                    f"cannot read {path!r}: no row parses after the header, though the file "
                    f"has more lines (an unclosed quote?)"
                )
                raise UsageError(msg)
            header = ", ".join(schema.names())
            msg = f"{path!r} has no rows (only a header: {header})"
            raise UsageError(msg)
        if csv_file:  # a CSV is checked only by reading it: one pass over the used columns
            lf.select(pl.col(c).null_count() for c in columns if c in schema).collect()
    except (PolarsError, OSError) as error:
        if csv_file and _blank(path):
            msg = f"{path!r} has no header and no rows (only blank lines)"
            raise UsageError(msg) from None
        where = _ragged_line(path) if csv_file else None
        reason = where or one_line(error)
        msg = f"cannot read {path!r}: {reason}"
        raise UsageError(msg) from None
    return schema


def _lines(path: str) -> int:
    """The number of non-blank lines of a text file (read only when it seems to have no rows)."""
    with Path(path).open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def _blank(path: str) -> bool:
    """Whether a (small) file holds only whitespace."""
    file = Path(path)
    return file.is_file() and file.stat().st_size <= 1 << 16 and not file.read_bytes().strip()


def _ragged_line(path: str) -> str | None:
    """Where a CSV's rows stop matching its header, or None."""
    separator = "\t" if Path(path).suffix.lower() == ".tsv" else ","
    try:
        with Path(path).open(newline="", encoding="utf-8") as handle:
            reader = csv.reader(handle, delimiter=separator)
            header = next(reader, [])
            for row in reader:
                if row and len(row) != len(header):
                    return (
                        f"line {reader.line_num} has {len(row)} fields, the header "
                        f"{len(header)} (a ragged or malformed CSV)"
                    )
    except (UnicodeDecodeError, csv.Error):
        return "not a UTF-8 text CSV"
    return None


def text_in_numbers(path: str, lf: pl.LazyFrame, column: str, role: str) -> None:
    """A CSV column read as text where numbers are expected: show the first such value."""
    number = pl.col(column).str.strip_chars().cast(pl.Float64, strict=False)
    bad = (
        lf.with_row_index("line", offset=2)  # line 1 is the header
        .filter(pl.col(column).is_not_null() & number.is_null())
        .select("line", column)
        .head(1)
        .collect()
    )
    if bad.height:
        line, value = bad.row(0)
        msg = (
            f"{role} column {column!r} has dtype String: line {line} of {path!r} reads "
            f"{value!r}, not a number; fix the file or pass the right --{role}"
        )
        raise UsageError(msg)
