"""Gains-table bins swallowed by ties: which empty bins a block of tied scores crossed.

:func:`polars_roc.gains.gains_table` never splits tied scores across bins, so a block of
ties reaching past the end of one or more bins sits whole in the bin where it ends, and the
bins it crossed are empty and left out (``bin`` skips them). The report's gains table and
the gain chart's tooltips name them, from the ``bin`` column alone.

Examples
--------
>>> import polars as pl
>>> from polars_roc._core.swallowed import bin_text, swallowed_bins
>>> table = pl.DataFrame({"model": ["a", "a", "a", "b"], "bin": [3, 4, 6, 1]})
>>> table.select(swallowed_bins(["model"]))["bin"].to_list()
['1–2', None, '5', None]
>>> table.select(bin_text(["model"]))["bin"].to_list()
['3 (with 1–2: tied scores)', '4', '6 (with 5: tied scores)', '1']
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl


def swallowed_bins(by: Sequence[str]) -> pl.Expr:
    """Per row of a gains table (bins in order per group), the empty bins before it, or null."""
    previous = pl.col("bin").shift(1)
    if by:
        previous = previous.over(list(by))
    first = previous.fill_null(0) + 1
    last = pl.col("bin") - 1
    return (
        pl.when(first == last)
        .then(first.cast(pl.String))
        .when(first < last)
        .then(pl.concat_str([first.cast(pl.String), pl.lit("–"), last.cast(pl.String)]))
        .alias("bin")
    )


def bin_text(by: Sequence[str]) -> pl.Expr:
    """The bin as the report prints it: ``"3 (with 1–2: tied scores)"`` when it swallowed any."""
    empty = swallowed_bins(by)
    number = pl.col("bin").cast(pl.String)
    named = pl.concat_str([number, pl.lit(" (with "), empty, pl.lit(": tied scores)")])
    return pl.when(empty.is_not_null()).then(named).otherwise(number).alias("bin")
