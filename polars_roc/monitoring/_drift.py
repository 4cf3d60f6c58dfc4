"""Population stability index from binned shares: the one formula `psi` and its tables share.

The bins are cut at the reference's quantiles; each side's share of a bin comes from its
empirical distribution function at the edges. A zero share is replaced by
:data:`EMPTY_SHARE` before the logarithm, as Evidently does (``np.place(percents,
percents == 0, 0.0001)``): a bin empty on both sides then adds nothing, a bin empty on one
side adds a large but finite term.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from polars_roc._core import validate

__all__ = ["EMPTY_SHARE", "cut_points", "psi_of_cdfs", "weighted_quantile"]

#: The share a bin empty on one side is given (Evidently's 0.0001).
EMPTY_SHARE = 1e-4


def cut_points(bins: int) -> list[float]:
    """
    The probabilities of the inner bin edges: ``1/bins, ..., (bins-1)/bins``.

    Examples
    --------
    >>> cut_points(4)
    [0.25, 0.5, 0.75]
    """
    if not validate.is_integer(bins) or bins < 2:  # a NumPy integer is an integer
        msg = f"bins must be an integer of at least 2, got {bins!r}\n\nHint: bins=10 (deciles)."
        raise ValueError(msg)
    return [i / int(bins) for i in range(1, int(bins))]


def psi_of_cdfs(expected: Sequence[pl.Expr], actual: Sequence[pl.Expr]) -> pl.Expr:
    """
    ``Σ (a - e) · ln(a / e)`` over the bins whose edges' distribution values are given.

    `expected` and `actual` hold, for each inner edge in ascending order, the share of the
    reference (expected) and of the compared rows (actual) at or below it; the bins are
    ``(-inf, e1], (e1, e2], ..., (e_k, inf)``. Duplicate edges make bins empty on both
    sides, which add nothing. Null when a distribution value is null (a side has no rows).

    Examples
    --------
    >>> import polars as pl
    >>> e = [pl.lit(0.5)]
    >>> a = [pl.lit(0.25)]
    >>> round(pl.select(psi_of_cdfs(e, a)).item(), 6)  # -0.25 · ln(0.5) + 0.25 · ln(1.5)
    0.274653
    """
    terms: list[pl.Expr] = []
    for lo, hi in zip([None, *expected], [*expected, None], strict=True):
        i = len(terms)
        e = _share(lo, hi)
        a = _share(
            None if i == 0 else actual[i - 1],
            None if i == len(expected) else actual[i],
        )
        e, a = (v.clip(lower_bound=0.0) for v in (e, a))
        e, a = (pl.when(v == 0).then(EMPTY_SHARE).otherwise(v) for v in (e, a))
        terms.append((a - e) * (a / e).log())
    return pl.sum_horizontal(terms, ignore_nulls=False)  # no rows on a side: null


def _share(lo: pl.Expr | None, hi: pl.Expr | None) -> pl.Expr:
    """The share between two distribution values (0 below the first edge, 1 above the last)."""
    upper = pl.lit(1.0) if hi is None else hi
    return upper if lo is None else upper - lo


def weighted_quantile(values: pl.Expr, weights: pl.Expr, q: float) -> pl.Expr:
    """
    The linear quantile (numpy's) of `values` repeated by `weights`, as a scalar.

    The rows are sorted and their weights summed up; the element at 0-based position
    ``i`` of the repeated list is the first row whose running weight exceeds ``i``, so with
    whole weights this is ``np.quantile(np.repeat(values, weights), q)`` and a weight of 0
    never counts. Position ``h = (W - 1) q`` with ``W`` the weight total; the value is
    interpolated between the elements at ``floor(h)`` and ``floor(h) + 1``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"x": [3.0, 1.0, 2.0], "w": [1.0, 2.0, 0.0]})
    >>> df.select(weighted_quantile(pl.col("x"), pl.col("w"), 0.5)).item()  # of [1, 1, 3]
    1.0
    """
    order = values.arg_sort()
    ordered, running = values.gather(order), weights.gather(order).cum_sum()
    h = (weights.sum() - 1) * q
    low = h.floor()
    at_low = ordered.filter(running > low).first()
    at_high = ordered.filter(running > low + 1).first().fill_null(ordered.last())
    return at_low + (h - low) * (at_high - at_low)
