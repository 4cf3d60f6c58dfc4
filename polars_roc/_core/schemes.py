"""Threshold schemes: where to evaluate a curve (the ``thresholds=`` argument).

* ``None``: every distinct score (the finest, "stair-step" resolution), plus the
  ``threshold=+inf`` start row at (0, 0).
* a sequence of floats: exactly those thresholds; a row is predicted positive iff
  ``score >= t``, so the counts at ``t`` are those at the smallest distinct score ``>= t``.
* an int ``k``: ``k`` thresholds at quantiles of the **negative** class's scores (the first
  curve point whose FPR reaches ``i / (k + 1)``, ``i = 1..k``; weighted when the rows are),
  so FPR is sampled evenly, plus the two end points (0, 0) and (1, 1).
* :func:`linspace` ``(k)``: ``k`` thresholds evenly spaced from each group's highest to its
  lowest score (both included), plus the ``+inf`` start row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import polars as pl

from polars_roc._core import groups as grouping
from polars_roc._core.counts import threshold_order
from polars_roc._core.groups import group_ids, is_end, per_group
from polars_roc._core.validate import is_integer, is_real, plain


@dataclass(frozen=True)
class Linspace:
    """Threshold scheme: `k` evenly spaced thresholds from each group's top to bottom score."""

    k: int


#: What ``thresholds=`` accepts: None, an int, a sequence of floats, or :func:`linspace`.
Thresholds = int | Sequence[float] | Linspace | None


def linspace(k: int) -> Linspace:
    """
    Threshold scheme: `k` thresholds evenly spaced between each group's extreme scores.

    Per group, the thresholds run from the highest to the lowest score, both included, in
    equal steps; the ``threshold=+inf`` start row (0, 0) is added, so a curve drawn from them
    still runs from (0, 0) to (1, 1). Pass it as ``thresholds=pr.linspace(k)``.

    Parameters
    ----------
    k
        Number of evenly spaced thresholds, at least 2.

    Returns
    -------
    Linspace
        The scheme, for the `thresholds` argument of :func:`thresholds` or ``curve``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.0, 0.3, 0.6, 0.8, 1.0], "label": [0, 1, 0, 1, 1]})
    >>> df.roc.curve(thresholds=pr.linspace(3)).select("threshold", "tp", "fp")
    shape: (4, 3)
    ┌───────────┬─────┬─────┐
    │ threshold ┆ tp  ┆ fp  │
    │ ---       ┆ --- ┆ --- │
    │ f64       ┆ i64 ┆ i64 │
    ╞═══════════╪═════╪═════╡
    │ inf       ┆ 0   ┆ 0   │
    │ 1.0       ┆ 1   ┆ 0   │
    │ 0.5       ┆ 2   ┆ 1   │
    │ 0.0       ┆ 3   ┆ 2   │
    └───────────┴─────┴─────┘
    """
    if not is_integer(k) or k < 2:
        msg = f"linspace needs an int k >= 2 (both extreme scores), got {k!r}"
        msg += "\n\nHint: pr.linspace(20)."
        raise ValueError(msg)
    return Linspace(int(k))


_Kind = Literal["all", "quantile", "linspace", "values"]


def scheme(thresholds: Any) -> tuple[_Kind, int, list[float]]:
    """Check a ``thresholds=`` argument: its kind, its k, its values (raised at call time)."""
    thresholds = plain(thresholds)  # a NumPy integer or array
    if thresholds is None:
        return ("all", 0, [])
    if isinstance(thresholds, Linspace):
        return ("linspace", linspace(thresholds.k).k, [])
    if isinstance(thresholds, bool):
        msg = f"thresholds={thresholds!r} is not a threshold scheme\n\nHint: {SCHEMES}"
        raise ValueError(msg)
    if isinstance(thresholds, int):
        if thresholds < 1:
            msg = (
                f"thresholds={thresholds} asks for fewer than one quantile threshold"
                f"\n\nHint: thresholds=k with k >= 1, e.g. thresholds=20."
            )
            raise ValueError(msg)
        return ("quantile", thresholds, [])
    if isinstance(thresholds, str) or not isinstance(thresholds, Sequence | pl.Series):
        msg = f"thresholds={thresholds!r} is not a threshold scheme\n\nHint: {SCHEMES}"
        raise ValueError(msg)
    values = list(thresholds)
    if not values:
        msg = f"thresholds={thresholds!r} is empty\n\nHint: {SCHEMES}"
        raise ValueError(msg)
    out = []
    for value in values:
        if not is_real(value) or math.isnan(value):
            msg = f"thresholds must be numbers, got {value!r}\n\nHint: {SCHEMES}"
            raise ValueError(msg)
        out.append(float(value))
    return ("values", 0, sorted(set(out), reverse=True))


SCHEMES = (
    "thresholds=None (every distinct score), a list of floats, an int k (k quantiles of the "
    "negative scores) or pr.linspace(k)."
)


def _evaluate(points: pl.LazyFrame, names: list[str], targets: pl.LazyFrame) -> pl.LazyFrame:
    """
    The curve's counts at arbitrary thresholds: those of the smallest distinct score >= t.

    `targets` holds ``_gid, *names, threshold``; `points` a full curve tagged with ``_gid``.
    """
    columns = points.collect_schema().names()
    mass = pl.col("tp") + pl.col("fp")
    # The +inf start row (no rows at or above) sorts after a real +inf score, so the
    # forward join picks the real one: score >= +inf holds for it.
    right = (
        points.filter(~pl.col("threshold").is_nan())
        .with_columns(_mass=mass)
        .sort(["_gid", "threshold", "_mass"], descending=[False, False, True])
        .select(pl.exclude(*names, "_mass"))
    )
    joined = targets.sort("_gid", "threshold").join_asof(
        right, on="threshold", by="_gid", strategy="forward", check_sortedness=False
    )
    return joined.select([c for c in columns if c != "_gid"])


def at_thresholds(
    points: pl.LazyFrame, names: list[str], thresholds: Thresholds, *, ends: bool = True
) -> pl.LazyFrame:
    """
    Evaluate a full ROC curve at the thresholds of a scheme.

    Parameters
    ----------
    points
        A full curve, as from ``curve(...)`` with every distinct score: ``*names, threshold,
        tp, fp, tn, fn, tpr, fpr``, per group in threshold-descending order.
    names
        The group columns.
    thresholds
        The scheme; see the module docstring.
    ends
        Keep each group's end points (0, 0) and (1, 1) for an explicit list of thresholds
        (the quantile and linspace schemes always keep them).

    Returns
    -------
    pl.LazyFrame
        The same columns, one row per group and chosen threshold, threshold descending.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.curves import curve
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.1], "label": [1, 1, 0, 0]})
    >>> at_thresholds(curve(df.lazy()), [], [0.75], ends=False).collect()
    shape: (1, 7)
    ┌───────────┬─────┬─────┬─────┬─────┬─────┬─────┐
    │ threshold ┆ tp  ┆ fp  ┆ tn  ┆ fn  ┆ tpr ┆ fpr │
    │ ---       ┆ --- ┆ --- ┆ --- ┆ --- ┆ --- ┆ --- │
    │ f64       ┆ i64 ┆ i64 ┆ i64 ┆ i64 ┆ f64 ┆ f64 │
    ╞═══════════╪═════╪═════╪═════╪═════╪═════╪═════╡
    │ 0.75      ┆ 2   ┆ 0   ┆ 2   ┆ 0   ┆ 1.0 ┆ 0.0 │
    └───────────┴─────┴─────┴─────┴─────┴─────┴─────┘
    """
    kind, k, values = scheme(thresholds)
    if kind == "all":
        return points
    if kind == "quantile":
        return _negative_quantiles(points, names, k)
    tagged, groups = group_ids(points, names, points)
    if kind == "values":
        targets = groups.join(
            pl.LazyFrame({"threshold": values}, schema={"threshold": pl.Float64}), how="cross"
        )
    else:
        targets = _linspace_targets(tagged, names, k)
    evaluated = _evaluate(tagged, names, targets)
    if ends or kind == "linspace":
        # The ends are read off `tagged`, not `points`: a concat of two plans sharing `points`
        # panics in Polars 1.x's common-subplan elimination.
        columns = points.collect_schema().names()
        first_last = grouping.ends(tagged, names).select(columns)
        evaluated = pl.concat([first_last, evaluated], how="vertical_relaxed")
        evaluated = evaluated.unique([*names, "threshold"], keep="first", maintain_order=True)
    return threshold_order(evaluated, names)


def _negative_quantiles(points: pl.LazyFrame, names: list[str], k: int) -> pl.LazyFrame:
    """Rows where FPR first reaches i / (k + 1), i = 1..k, plus both end points."""
    n_neg = pl.col("fp") + pl.col("tn")  # null for a group without a defined curve
    # Number of targets i / (k + 1) at or below this row's FPR (exact for integer counts).
    reached = pl.when(n_neg > 0).then(
        (pl.col("fp").cast(pl.Float64) * (k + 1) / n_neg).floor().clip(upper_bound=k)
    )
    before = per_group(reached.shift(1), names).fill_null(0)
    keep = is_end(names) | (reached > before).fill_null(False)
    return points.filter(keep)


def _linspace_targets(tagged: pl.LazyFrame, names: list[str], k: int) -> pl.LazyFrame:
    """`k` evenly spaced thresholds per group from its highest to its lowest real score."""
    real = (pl.col("tp") + pl.col("fp") > 0) & pl.col("threshold").is_finite()
    # The group keys ride along (rather than a join back to the ids): one use of the id table
    # fewer keeps Polars 1.x's common-subplan elimination from panicking.
    spans = (
        tagged.filter(real)
        .group_by("_gid", *names)
        .agg(_lo=pl.col("threshold").min(), _hi=pl.col("threshold").max())
    )
    steps = pl.LazyFrame({"_i": range(k)}, schema={"_i": pl.Int64})
    lo, hi, i = pl.col("_lo"), pl.col("_hi"), pl.col("_i")
    threshold = (
        pl.when(i == 0)
        .then(hi)
        .when(i == k - 1)
        .then(lo)
        .otherwise(lo + (hi - lo) * (k - 1 - i) / (k - 1))
    )
    return spans.join(steps, how="cross").select(
        pl.exclude("_lo", "_hi", "_i"), threshold=threshold
    )
