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

from polars_roc._core.names import fresh
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
    lf: pl.LazyFrame, adjust: Adjust | None, *, by: Sequence[str] | None = None
) -> pl.LazyFrame:
    """
    Add ``p_adjusted`` from ``p_value`` over all rows, or within each `by` group (a family).

    Nothing is added when `adjust` is None. The rows keep their order.

    Examples
    --------
    >>> lf = pl.LazyFrame({"g": [1, 1, 2], "p_value": [0.01, 0.04, 0.03]})
    >>> with_adjusted(lf, "holm", by=["g"]).collect()["p_adjusted"].to_list()
    [0.02, 0.04, 0.03]
    """
    if adjust is None:
        return lf

    def compute(p: pl.Series) -> pl.Series:
        values = adjusted(p.cast(pl.Float64).fill_null(np.nan).to_numpy(), adjust)
        return pl.Series(p.name, values, dtype=pl.Float64).fill_nan(None)

    p_adjusted = pl.col("p_value").map_batches(compute, return_dtype=pl.Float64)
    if not by:
        return lf.with_columns(p_adjusted.alias("p_adjusted"))
    row = fresh("_row", lf.collect_schema().names())
    indexed = lf.with_row_index(row)
    families = indexed.group_by(list(by)).agg(row, p_adjusted.alias("p_adjusted"))
    exploded = families.explode(row, "p_adjusted").select(row, "p_adjusted")
    return indexed.join(exploded, on=row, how="left").sort(row).drop(row)
