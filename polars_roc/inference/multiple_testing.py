"""
Adjusted p-values for many tests at once: Bonferroni, Holm, Benjamini-Hochberg.

:func:`polars_roc.inference.compare` tests every pair of models in every group; with
``adjust=`` it adds ``p_adjusted`` over all the rows it returns. Null p-values (undefined
tests) stay null and do not count among the tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_roc._core.groups import before_block, changed
from polars_roc._core.names import fresh_names
from polars_roc.typing import Adjust

__all__ = ["ADJUSTMENTS", "adjusted", "check_adjust", "with_adjusted"]

#: ``"fdr_bh"`` is statsmodels' name of ``"bh"`` (Benjamini-Hochberg).
ADJUSTMENTS = ("holm", "bonferroni", "bh", "fdr_bh")


def check_adjust(adjust: Any) -> None:
    """Check `adjust` is None or one of the adjustments."""
    if adjust is not None and adjust not in ADJUSTMENTS:
        options = ", ".join(repr(a) for a in ADJUSTMENTS)
        msg = f"adjust must be one of {options} or None, got {adjust!r}\n\nHint: adjust='holm'."
        raise ValueError(msg)


def adjusted(p: npt.ArrayLike, method: Adjust) -> npt.NDArray[np.float64]:
    """
    Adjusted p-values in the input order; NaN stays NaN and is not counted.

    * ``"bonferroni"``: ``min(1, m p)``;
    * ``"holm"``: step-down, ``max_{j <= i} min(1, (m - j + 1) p_(j))`` in ascending order;
    * ``"bh"`` or ``"fdr_bh"``: Benjamini-Hochberg step-up, ``min_{j >= i} min(1, m p_(j) /
      j)`` (statsmodels' ``multipletests(method="fdr_bh")``).

    Examples
    --------
    >>> adjusted([0.01, 0.04, 0.03], "holm").round(4).tolist()
    [0.03, 0.06, 0.06]
    >>> adjusted([0.01, 0.04, 0.03], "bh").round(4).tolist()
    [0.03, 0.04, 0.04]
    >>> adjusted([0.01, 0.04, 0.03], "fdr_bh").round(4).tolist()
    [0.03, 0.04, 0.04]
    """
    values = np.asarray(p, dtype=np.float64)
    out = np.full(values.shape, np.nan)
    defined = np.flatnonzero(~np.isnan(values))
    m = len(defined)
    if m == 0:
        return out
    order = defined[np.argsort(values[defined], kind="stable")]
    ranked = values[order]
    rank = np.arange(1, m + 1)
    if method == "bonferroni":
        result = np.minimum(1.0, m * ranked)
    elif method == "holm":
        result = np.maximum.accumulate(np.minimum(1.0, (m - rank + 1) * ranked))
    else:
        result = np.minimum.accumulate(np.minimum(1.0, m * ranked / rank)[::-1])[::-1]
    out[order] = result
    return out


def with_adjusted(
    lf: pl.LazyFrame,
    adjust: Adjust | None,
    *,
    by: Sequence[str] | None = None,
    pairs_are_one: bool = False,
) -> pl.LazyFrame:
    """
    Add ``p_adjusted``: :func:`adjusted` of ``p_value`` within each `by` group (a family).

    No callback: the rows are sorted by family and p-value (ties in row order, as a stable
    sort), each p-value's rank is its position in its family, and the step-down maximum
    (Holm) or step-up minimum (Benjamini-Hochberg) is a cumulative maximum or minimum over
    each family's run of rows; the rows then go back to their order. Every value is computed
    with the same operations as :func:`adjusted`, so both give the same floats. Null and NaN
    p-values stay null and are not counted. Nothing is added when `adjust` is None.

    With `pairs_are_one`, a family of exactly two tested rows holds one test (two segments
    each against the other, the rest): both keep their p-value.

    Examples
    --------
    >>> df = pl.LazyFrame({"f": [1, 1, 1, 2], "p_value": [0.01, 0.04, 0.03, 0.2]})
    >>> with_adjusted(df, "holm", by=["f"]).collect()["p_adjusted"].round(4).to_list()
    [0.03, 0.06, 0.06, 0.2]
    >>> two = pl.LazyFrame({"f": [1, 1], "p_value": [0.01, 0.04]})
    >>> with_adjusted(two, "holm", by=["f"], pairs_are_one=True).collect()["p_adjusted"].to_list()
    [0.01, 0.04]
    """
    if adjust is None:
        return lf
    row, rank, m = fresh_names(["_row", "_rank", "_m"], set(lf.collect_schema().names()))
    family = list(by or [])
    part: list[Any] = [*family] or [pl.lit(0)]
    p = pl.col("p_value").cast(pl.Float64).fill_nan(None)
    # Sorted by family, then p-value: each family is a run of rows, and a p-value's rank
    # its row number less the rows before its run (a row number per family window is slow
    # with many small families).
    number = pl.int_range(1, pl.len() + 1)
    ranked = (
        lf.with_row_index(row)
        .sort([*family, p, row], nulls_last=True)
        .with_columns(
            p.count().over(part).cast(pl.Float64).alias(m),
            (number - before_block(number, pl.lit(1), changed(family)))
            .cast(pl.Float64)
            .alias(rank),
        )
    )
    size, position = pl.col(m), pl.col(rank)
    if adjust == "bonferroni":
        value = (size * p).clip(upper_bound=1.0)
    elif adjust == "holm":
        value = ((size - position + 1) * p).clip(upper_bound=1.0).cum_max().over(part)
    else:
        value = (size * p / position).clip(upper_bound=1.0).cum_min(reverse=True).over(part)
    if pairs_are_one:
        value = pl.when(size == 2).then(p).otherwise(value)
    return ranked.with_columns(value.alias("p_adjusted")).sort(row).drop(row, rank, m)
