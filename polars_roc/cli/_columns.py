"""
The file's columns as the report needs them: ISO time text parsed, group names kept apart.

A CSV holds its dates as text: ``--time`` parses a text column of ISO dates or datetimes
(:func:`iso_times`), and a value that is neither is an error naming the flag and the line.
The report's frames name columns of their own (``auc``, ``metric``, ``window_start``,
``value``, and with ``--segment`` ``segment``, ...); a ``--by`` or ``--segment`` column
with such a name is read under a name of its own (the name and an underscore,
:func:`apart`), and the command says so.

Examples
--------
>>> import polars as pl
>>> lf = pl.LazyFrame({"metric": ["a"], "score": [0.5]})
>>> said = []
>>> lf, by, segment = apart(lf, ["metric"], None, said.append)
>>> lf.collect_schema().names(), by
(['metric_', 'score'], ['metric_'])
>>> print(said[0])
--by column 'metric' is shown as 'metric_' (the report has a column 'metric' of its own)
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from pathlib import Path

import polars as pl

from polars_roc._core import columns
from polars_roc._core.names import fresh
from polars_roc.cli._files import UsageError
from polars_roc.monitoring import OVER_TIME_COLUMNS, STABILITY_COLUMNS
from polars_roc.segments import ROLLUP_COLUMNS
from polars_roc.segments.disparity import COLUMNS as DISPARITY_COLUMNS

__all__ = ["BASE", "SECTIONS", "apart", "iso_times", "reserved"]


def _with_intervals(names: Iterable[str]) -> set[str]:
    return {*names, *(part for name in names for part in columns.interval(name))}


#: The output columns of the frames every report computes (the registry's tables, the
#: report's AUC table and curve sizes), with their interval columns.
BASE = frozenset(
    _with_intervals(
        [
            name
            for table in vars(columns).values()
            if isinstance(table, tuple) and all(isinstance(item, str) for item in table)
            for name in table
            if name not in ("label", "weight")  # roles: a group cannot be one anyway
        ]
        + ["detectable_auc", "points"]
    )
)
#: The columns the sections a flag adds name: --segment, --time, --time-to-event.
SECTIONS = {
    "--segment": frozenset(_with_intervals(["segment", *ROLLUP_COLUMNS, *DISPARITY_COLUMNS])),
    "--time": frozenset(_with_intervals([*OVER_TIME_COLUMNS, *STABILITY_COLUMNS])),
    "--time-to-event": frozenset(
        _with_intervals(["horizon", "auc", "n_cases", "n_controls", "mean_auc"])
    ),
}


def reserved(*sections: str) -> frozenset[str]:
    """
    The column names the report's frames use, with the sections flagged on.

    Examples
    --------
    >>> "segment" in reserved(), "segment" in reserved("--segment"), "auc" in reserved()
    (False, True, True)
    """
    return BASE.union(*(SECTIONS[flag] for flag in sections))


def apart(
    lf: pl.LazyFrame,
    by: list[str],
    segment: str | None,
    say: Callable[[str], None],
    *,
    sections: Iterable[str] = (),
) -> tuple[pl.LazyFrame, list[str], str | None]:
    """
    The rows with each --by / --segment column named like a report column renamed.

    The report's columns are :func:`reserved`'s for the `sections` flagged on. The new
    name is the old one with an underscore (more if that is taken); `say` is told each
    renaming (a note for the page). Returns the rows, the --by names and the --segment
    name to use.
    """
    names = reserved(*sections)
    taken = {*lf.collect_schema().names(), *names}
    mapping: dict[str, str] = {}
    flags = [("--by", name) for name in by] + ([("--segment", segment)] if segment else [])
    for flag, name in flags:
        if name in names and name not in mapping:
            mapping[name] = fresh(f"{name}_", taken)
            taken.add(mapping[name])
            say(
                f"{flag} column {name!r} is shown as {mapping[name]!r} "
                f"(the report has a column {name!r} of its own)"
            )
    if not mapping:
        return lf, by, segment
    renamed = [mapping.get(name, name) for name in by]
    return lf.rename(mapping), renamed, mapping.get(segment, segment) if segment else None


def iso_times(lf: pl.LazyFrame, column: str, path: str) -> pl.LazyFrame:
    """
    The rows with a text --time column parsed as the ISO dates (or datetimes) it holds.

    The first value decides: ``2024-01-31`` makes a Date column, ``2024-01-31 08:00`` (or
    with a ``T``, seconds, a zone) a Datetime one. A value that does not parse is an error
    naming the flag, the column, the value and its line. A column that is not text, or
    holds only nulls, is returned as it is (the over-time section says what is wrong).
    """
    if lf.collect_schema().get(column) != pl.String:
        return lf
    text = pl.col(column).str.strip_chars()
    first = lf.select(text.drop_nulls().first()).collect().item()
    if first is None:
        return lf
    try:
        day = len(first) == 10 and bool(dt.date.fromisoformat(first))
        if not day:
            dt.datetime.fromisoformat(first)
    except ValueError:  # no ISO text: every value is wrong, the first is shown
        parsed = pl.lit(None, dtype=pl.Date)
    else:
        parsed = (
            text.str.to_date("%Y-%m-%d", strict=False)
            if day
            else text.str.to_datetime(strict=False)
        )
    csv = Path(path).suffix.lower() in (".csv", ".tsv")
    where, offset = ("line", 2) if csv else ("row", 1)  # a CSV's line 1 is its header
    index = fresh("_line", lf.collect_schema().names())
    wrong = text.is_not_null() & parsed.is_null()
    bad = (
        lf.with_row_index(index, offset=offset)
        .filter(wrong)
        .select(index, column)
        .head(1)
        .collect()
    )
    if bad.height:
        line, value = bad.row(0)
        msg = (
            f"--time column {column!r} has dtype String and {where} {line} of {path!r} "
            f"reads {value!r}, not an ISO date or datetime (e.g. 2024-01-31 or "
            f"2024-01-31 08:00)"
        )
        raise UsageError(msg)
    return lf.with_columns(parsed.alias(column))
