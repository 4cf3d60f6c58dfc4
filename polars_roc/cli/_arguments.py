"""The command line's argument values: numbers or columns, rate ranges, lists, the labels."""

from __future__ import annotations

import argparse
from typing import Any

import polars as pl

from polars_roc.cli._files import UsageError

__all__ = ["amount", "check_labels", "names", "pos_label", "range"]


def amount(text: str) -> str | float:
    try:
        return float(text)
    except ValueError:
        return text


def range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(part) for part in text.split(","))
    except ValueError:
        msg = f"expected LO,HI (two rates, e.g. 0,0.2), got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    return lo, hi


def names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def pos_label(value: str | None, dtype: pl.DataType, label: str) -> Any:
    """The --pos-label text as a value of the label column's type."""
    if value is None:
        return None
    if dtype == pl.Boolean:
        lowered = value.strip().lower()
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no"):
            return False
    elif dtype.is_integer():
        try:
            return int(value)
        except ValueError:
            pass
    elif dtype.is_float():
        try:
            return float(value)
        except ValueError:
            pass
    else:
        return value
    msg = f"--pos-label {value!r} is not a value of label column {label!r} ({dtype})"
    raise UsageError(msg)


def check_labels(lf: pl.LazyFrame, label: str, dtype: pl.DataType) -> None:
    """Without --pos-label the labels must be Boolean or 0/1: read the distinct labels once."""
    if dtype == pl.Boolean:
        return
    found = lf.select(pl.col(label).drop_nulls().unique().sort().head(11)).collect()[label]
    if dtype.is_numeric() and found.is_in([0, 1]).all():
        return
    values = found.head(10).to_list()
    more = ", ..." if found.len() > 10 else ""
    shown = ", ".join(map(repr, values)) + more
    if found.len() > 2:
        what = f"has more than two values ({shown})"
    else:
        what = f"holds {shown}, not Boolean or 0/1"
    example = f" (e.g. --pos-label {values[-1]})" if values else ""
    msg = f"label column {label!r} {what}: name the positive class with --pos-label{example}"
    raise UsageError(msg)
