"""
The one optimal threshold: Youden's J (KS), closest to the top left, least cost.

Every route to an optimum reads this module: :func:`polars_roc.thresholds.best_threshold`,
:func:`polars_roc.gains.ks`, the bootstrap replicates of the cutpoint
(:mod:`polars_roc._core.replicates`), ``roc_chart(points="youden")``, the KS chart and the
threshold explorer. So they all mark the same threshold.

The rule, stated once:

* the objective is compared **exactly** for unweighted counts: J = tpr - fpr ranks as
  ``tp * N - fp * P`` and the squared distance to (0, 1) as ``(fn * N)² + (fp * P)²``
  (scaled by the group's constant ``P * N``), in integers; ``tpr - fpr`` in floats would
  split exact ties (``2/3 - 0`` is below ``1 - 1/3`` in Float64);
* weighted counts (float sums) and costs compare as floats: an objective within ``1e-12``
  of the best (relative to its scale) ties;
* among tied maxima the **highest** threshold wins (the fewest predicted positives; for a
  curve in score units of ``direction="lower"``, the lowest, `lowest=True`), unless
  another tied threshold has the same FPR and a higher TPR: then the tied threshold of
  that FPR with the highest TPR. So no tied point another tied point dominates is ever
  chosen. For the named objectives with positive costs a dominated point never ties (it
  is strictly worse); for a column objective it can (``tnr`` is equal at two
  thresholds that differ in TPR).

:func:`objective_np` and :func:`best_index_np` are the numpy twins for the bootstrap
replicates (``(replicates, candidates)`` count matrices, candidates highest threshold first);
``tests/thresholds/test_objectives.py`` holds the parity test of the pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

FloatArray = npt.NDArray[np.float64]

#: The named objectives (every other `best_threshold` method is a column to maximize).
METHODS = ("youden", "closest_topleft", "cost")
COUNTS = ("tp", "fp", "tn", "fn")
#: Relative distance below the best at which a float objective still ties.
TIE = 1e-12
#: Below this ``P * N`` the squared distances of unweighted counts fit in int64.
_INT64_PRODUCT = 2**31


def weights_ratio(
    method: str, cost_fp: float | None, cost_fn: float | None, prevalence: float | None
) -> float | None:
    """
    The ratio ``r`` of pROC's ``best.weights`` (weighted Youden / closest-topleft), or None.

    ``r = (1 - prevalence) / (cost · prevalence)`` with pROC's ``cost`` the cost of a false
    negative relative to a false positive (``cost_fn / cost_fp``) and its default prevalence
    0.5: ``r = cost_fp · (1 - prevalence) / (cost_fn · prevalence)``. None (the unweighted
    objective, compared exactly) when `method` is another or ``r`` is 1.

    Examples
    --------
    >>> weights_ratio("youden", None, 2.0, 0.25)
    1.5
    >>> weights_ratio("closest_topleft", None, None, None) is None
    True
    """
    if method not in ("youden", "closest_topleft"):
        return None
    p = 0.5 if prevalence is None else prevalence
    ratio = (1.0 if cost_fp is None else cost_fp) * (1 - p)
    ratio /= (1.0 if cost_fn is None else cost_fn) * p
    return None if ratio == 1.0 else ratio


def _weighted(method: str, tp: Any, fp: Any, fn: Any, n_pos: Any, n_neg: Any, ratio: float) -> Any:
    """``P·N·(se + r·sp) - r·P·N`` or ``-(P·N)²·((1 - se)² + r·(1 - sp)²)``, any array kind."""
    if method == "youden":
        return tp * n_neg - ratio * (fp * n_pos)
    return -((fn * n_neg) ** 2 + ratio * (fp * n_pos) ** 2)


def youden() -> pl.Expr:
    """
    J = tpr - fpr from ``tp, fp, tn, fn``, null without both classes, as one division.

    ``(tp * N - fp * P) / (P * N)``: for unweighted counts below 2**53 the numerator and
    denominator are exact, so equal J within a group are equal floats (``tpr - fpr`` is
    not: ``2/3 - 0`` and ``1 - 1/3`` differ in the last bit).

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"tp": [2, 3], "fp": [0, 1], "tn": [3, 2], "fn": [1, 0]})
    >>> df.select(youden()).to_series().to_list()
    [0.6666666666666666, 0.6666666666666666]
    """
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in COUNTS)
    n_pos, n_neg = tp + fn, fp + tn
    both = tn.is_not_null() & fn.is_not_null() & (n_pos > 0) & (n_neg > 0)
    return pl.when(both).then((tp * n_neg - fp * n_pos) / (n_pos * n_neg)).alias("youden")


def objective(
    method: str,
    *,
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    prevalence: float | None = None,
    weighted: bool,
    ratio: float | None = None,
) -> pl.Expr:
    """
    The quantity maximized for a named `method`, from ``tp, fp, tn, fn``; null if undefined.

    `ratio` (:func:`weights_ratio`) weighs Youden's and the closest-topleft objectives as
    pROC's ``best.weights``: ``se + r·sp`` and ``(1 - se)² + r·(1 - sp)²``, in floats.

    Scaled by the group's constant ``P * N`` (or its square) so that unweighted counts give
    exact integer arithmetic and exact ties: J = tpr - fpr ranks as ``tp * N - fp * P``.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"tp": [2, 3], "fp": [0, 1], "tn": [3, 2], "fn": [1, 0]})
    >>> df.select(objective("youden", weighted=False)).to_series().to_list()
    [6, 6]
    """
    floats = weighted or (ratio is not None and method != "cost")
    kind = pl.Float64 if floats else pl.Int128
    tp, fp, tn, fn = (pl.col(c).cast(kind) for c in COUNTS)
    # Both classes present, from the sums as given (shares of a zero total are NaN, which
    # Polars orders above every number: a group of zero weights once chose +inf).
    both = (tp + fn > 0) & (fp + tn > 0)
    if floats:  # shares of the group's weight: no overflow or underflow in the products
        total = tp + fp + tn + fn
        tp, fp, tn, fn = (c / total for c in (tp, fp, tn, fn))
    n_pos, n_neg = tp + fn, fp + tn
    if ratio is not None and method != "cost":
        return pl.when(both).then(_weighted(method, tp, fp, fn, n_pos, n_neg, ratio))
    if method == "youden":
        return pl.when(both).then(tp * n_neg - fp * n_pos)
    if method == "closest_topleft":
        distance = (fn * n_neg) * (fn * n_neg) + (fp * n_pos) * (fp * n_pos)
        return pl.when(both).then(pl.lit(0, dtype=kind) - distance)
    if prevalence is None:
        return -(cost_fn * fn.cast(pl.Float64) + cost_fp * fp.cast(pl.Float64))
    miss = cost_fn * prevalence * (fn * n_neg).cast(pl.Float64)
    false_alarm = cost_fp * (1 - prevalence) * (fp * n_pos).cast(pl.Float64)
    return pl.when(both).then(-(miss + false_alarm))


def tolerance(
    method: str,
    *,
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    prevalence: float | None = None,
    weighted: bool,
    ratio: float | None = None,
) -> pl.Expr | None:
    """
    How far below the best a float objective of :func:`objective` still ties, or None.

    Unweighted J and distances compare exactly (integers). Weighted shares and costs are
    float sums, in which rounding split exact ties (weights 2 and 3 against the repeated
    rows: J of 2/7 at two thresholds came out 0.28571428571428575 at one): within
    ``1e-12`` of the objective's scale they tie, as in :func:`polars_roc.geometry.iso.optimal`.
    The scale bounds its terms: 1 for shares, the costs times the counts otherwise.
    """
    if ratio is not None and method in ("youden", "closest_topleft"):
        return pl.lit(TIE * (1 + ratio))  # shares, one term weighed by r
    if method not in METHODS or (not weighted and method != "cost"):
        return None  # a column compares as it is; integers compare exactly
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in COUNTS)
    if method != "cost":
        scale: pl.Expr = pl.lit(1.0)
    elif prevalence is None:
        scale = (cost_fn + cost_fp) * (pl.lit(1.0) if weighted else tp + fp + tn + fn)
    else:
        costs = cost_fn * prevalence + cost_fp * (1 - prevalence)
        scale = costs * (pl.lit(1.0) if weighted else (tp + fn) * (fp + tn))
    return TIE * scale


def best_rows(
    table: pl.LazyFrame,
    names: Sequence[str],
    value: pl.Expr,
    *,
    columns: Sequence[str],
    allowed: pl.Expr | None = None,
    tie: pl.Expr | None = None,
    lowest: bool = False,
) -> pl.LazyFrame:
    """
    ``*names, *columns`` of each group's best row: the largest `value`, ties to the top.

    Candidates are the rows where `value` is not null (and `allowed` holds). Values within
    `tie` of the group's best tie; among tied rows the highest ``threshold`` (the lowest
    with `lowest`), unless a tied row of the same FPR has a higher TPR (it dominates):
    then the tied row of that FPR with the highest TPR. Every group of `table` gets one
    row, of nulls when it has no candidate; groups sorted, nulls last. One pass per group,
    independent of row order.

    Examples
    --------
    >>> import polars as pl
    >>> t = pl.LazyFrame({"threshold": [3.0, 2.0, 1.0], "v": [1, 2, 2]})
    >>> best_rows(t, [], pl.col("v"), columns=["threshold"]).collect().item()
    2.0
    >>> best_rows(t, [], pl.col("v"), columns=["threshold"], lowest=True).collect().item()
    1.0
    """
    names = list(names)
    keys = names or ["_g"]
    scored = (
        table.with_columns(_dominance(table.collect_schema()))
        .with_columns(_objective=value)
        .with_row_index("_best_row")
    )
    if not names:  # one group: a constant key, so the group is kept without a candidate
        scored = scored.with_columns(_g=pl.lit(True))
    keep = pl.col("_objective").is_not_null()
    candidates = scored.filter(keep if allowed is None else keep & allowed)
    best_value = pl.col("_objective").max().over(keys)
    if tie is not None:  # float sums: an objective within rounding of the best ties
        candidates = candidates.filter(pl.col("_objective") >= best_value - tie)
    else:
        candidates = candidates.filter(pl.col("_objective") == best_value)

    # Among the tied rows, the highest threshold (lowest with `lowest`), unless a tied row of
    # the same FPR has a higher TPR (a lower threshold that dominates it): then, among the
    # tied rows of that FPR, the highest TPR, ties again to the threshold's end. Arg-maxes
    # per group, then the chosen row's columns (no sort of every column).
    def end(rows: pl.Expr | None) -> pl.Expr:
        threshold = pl.col("threshold") if rows is None else pl.col("threshold").filter(rows)
        return threshold.arg_min() if lowest else threshold.arg_max()

    preferred_fp = pl.col("_fewer_fp").get(end(None))
    same = pl.col("_fewer_fp") == preferred_fp
    top = same & (pl.col("_more_tp") == pl.col("_more_tp").filter(same).max())
    picked = candidates.group_by(keys).agg(pl.col("_best_row").filter(top).get(end(top)))
    rows = scored.select("_best_row", *[c for c in columns if c not in keys])
    best = picked.join(rows, on="_best_row", how="left").drop("_best_row")
    every = scored.select(keys).unique()
    out = every.join(best, on=keys, how="left", nulls_equal=True)
    return out.sort(keys, nulls_last=True).select(*names, *columns)


def _dominance(schema: pl.Schema) -> list[pl.Expr]:
    """``_fewer_fp, _more_tp``: larger is better, from the counts, else the rates, else 0."""
    if {"tp", "fp"} <= set(schema.names()):
        fp, tp = pl.col("fp"), pl.col("tp")
    elif {"tpr", "fpr"} <= set(schema.names()):
        fp, tp = pl.col("fpr"), pl.col("tpr")
    else:
        return [pl.lit(0.0).alias("_fewer_fp"), pl.lit(0.0).alias("_more_tp")]
    worst = float("-inf")
    return [
        (-fp.cast(pl.Float64)).fill_null(worst).alias("_fewer_fp"),
        tp.cast(pl.Float64).fill_null(worst).alias("_more_tp"),
    ]


def curve_optimum(
    points: pl.LazyFrame,
    names: Sequence[str],
    method: str = "youden",
    *,
    lowest: bool = False,
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    prevalence: float | None = None,
) -> pl.LazyFrame:
    """
    Each group's optimal row of a curve or threshold frame (``*names`` then its columns).

    With the counts ``tp, fp, tn, fn`` the objective is :func:`objective` (exact for integer
    counts, float counts read as weighted); a frame of rates only (``tpr, fpr``) ranks the
    floats, within ``1e-12``. `lowest` for a curve of ``direction="lower"`` in score units.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.6, 0.4, 0.1], "label": [1, 1, 0, 1, 0, 0]}
    ... )
    >>> curve_optimum(df.roc.curve().lazy(), []).collect()["threshold"].item()
    0.8
    """
    names = list(names)
    schema = points.collect_schema()
    columns = [c for c in schema.names() if c not in names and not c.startswith("_")]
    tie: pl.Expr | None
    if set(COUNTS) <= set(schema.names()):
        weighted = not schema["tp"].is_integer()
        costs: dict[str, Any] = {"cost_fp": cost_fp, "cost_fn": cost_fn, "prevalence": prevalence}
        value = objective(method, **costs, weighted=weighted)
        tie = tolerance(method, **costs, weighted=weighted)
    elif method in ("youden", "closest_topleft"):  # rates only: floats
        tpr, fpr = pl.col("tpr").cast(pl.Float64), pl.col("fpr").cast(pl.Float64)
        value = tpr - fpr if method == "youden" else -((1 - tpr) ** 2 + fpr**2)
        value = pl.when(value.is_not_nan()).then(value)
        tie = pl.lit(TIE)
    else:
        msg = f"method={method!r} needs the counts tp, fp, tn, fn\n\nHint: pass the curve frame."
        raise ValueError(msg)
    return best_rows(points, names, value, columns=columns, tie=tie, lowest=lowest)


def objective_np(
    method: str,
    tp: FloatArray,
    fp: FloatArray,
    *,
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    prevalence: float | None = None,
    weighted: bool,
    ratio: float | None = None,
) -> tuple[FloatArray, FloatArray | None]:
    """
    The numpy twin of :func:`objective` and :func:`tolerance` over cumulative counts.

    `tp`, `fp` are ``(replicates, candidates)`` cumulative counts whose last column holds the
    class totals ``P, N``. Returns the objective (NaN where undefined: a class is empty) and
    the tie distance per replicate (None where the comparison is exact). Unweighted J and
    distances are compared in int64 (exact while ``P * N < 2**31``; beyond that, as shares
    within ``1e-12``, as for weights).

    Examples
    --------
    >>> import numpy as np
    >>> tp = np.array([[0.0, 1, 2, 2, 3, 3, 3]])
    >>> fp = np.array([[0.0, 0, 0, 1, 1, 2, 3]])
    >>> value, tie = objective_np("youden", tp, fp, weighted=False)
    >>> value.tolist(), tie
    ([[0.0, 3.0, 6.0, 3.0, 6.0, 3.0, 0.0]], None)
    """
    n_pos, n_neg = tp[:, -1:], fp[:, -1:]
    both = (n_pos > 0) & (n_neg > 0)
    ratio = ratio if method != "cost" else None
    exact = not weighted and method != "cost" and bool(np.all(n_pos * n_neg < _INT64_PRODUCT))
    exact = exact and ratio is None
    tie: FloatArray | None = None
    if exact:
        itp, ifp = tp.astype(np.int64), fp.astype(np.int64)
        ip, ineg = itp[:, -1:], ifp[:, -1:]
        if method == "youden":
            whole = itp * ineg - ifp * ip
        else:
            whole = -(((ip - itp) * ineg) ** 2) - (ifp * ip) ** 2
        # Floats hold integers below 2**53 exactly; larger ones are ranked instead (a float
        # could merge neighbours), which keeps their order and ties.
        big = bool(np.any(np.abs(whole) >= 2**53))
        value = _dense_rank(whole) if big else whole.astype(np.float64)
        return np.where(both, value, np.nan), None
    fn = n_pos - tp
    if weighted or method != "cost":  # shares of the replicate's total weight
        total = n_pos + n_neg
        with np.errstate(invalid="ignore", divide="ignore"):
            tp, fp, fn = tp / total, fp / total, fn / total
            n_pos, n_neg = n_pos / total, n_neg / total
    scale: Any
    if ratio is not None:
        value, scale = _weighted(method, tp, fp, fn, n_pos, n_neg, ratio), 1.0 + ratio
    elif method == "youden":
        value, scale = tp * n_neg - fp * n_pos, 1.0
    elif method == "closest_topleft":
        value, scale = -((fn * n_neg) ** 2 + (fp * n_pos) ** 2), 1.0
    elif prevalence is None:
        value = -(cost_fn * fn + cost_fp * fp)
        scale = (cost_fn + cost_fp) * (1.0 if weighted else n_pos + n_neg)
    else:
        miss = cost_fn * prevalence * fn * n_neg
        value = -(miss + cost_fp * (1 - prevalence) * fp * n_pos)
        costs = cost_fn * prevalence + cost_fp * (1 - prevalence)
        scale = costs * (1.0 if weighted else n_pos * n_neg)
    tie = np.broadcast_to(TIE * np.asarray(scale, dtype=np.float64), n_pos.shape).copy()
    defined = both if (method != "cost" or prevalence is not None) else np.ones_like(both)
    return np.where(defined, value, np.nan), tie


def _dense_rank(whole: npt.NDArray[np.int64]) -> FloatArray:
    """Each row's integers as their dense ranks (floats that keep order and ties exactly)."""
    ranks = np.empty(whole.shape, dtype=np.float64)
    for i, row in enumerate(whole):
        ranks[i] = np.unique(row, return_inverse=True)[1]
    return ranks


def best_index_np(
    value: FloatArray, tie: FloatArray | None, allowed: npt.NDArray[np.bool_] | None = None
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.bool_]]:
    """
    The numpy twin of :func:`best_rows`: each replicate's best candidate and whether it has one.

    Candidates run highest threshold first, so the first of the tied maxima is the highest
    threshold. NaN values and those not `allowed` are no candidates.

    Examples
    --------
    >>> import numpy as np
    >>> best_index_np(np.array([[0.0, 3.0, 6.0, 3.0, 6.0]]), None)
    (array([2]), array([ True]))
    """
    ok = ~np.isnan(value) if allowed is None else ~np.isnan(value) & allowed
    masked = np.where(ok, value, -np.inf)
    top = masked.max(axis=1, keepdims=True)
    tied = ok & (masked >= (top if tie is None else top - tie))
    return np.argmax(tied, axis=1), np.asarray(ok.any(axis=1), dtype=np.bool_)


def largest_gap(
    points: pl.LazyFrame, names: Sequence[str], *, lowest: bool = False
) -> pl.LazyFrame:
    """
    ``*names, ks, threshold`` from ROC curve points: the largest ``tpr - fpr`` per group.

    The KS statistic and its threshold, for :func:`polars_roc.gains.ks` and the KS chart:
    the Youden optimum of :func:`curve_optimum` (the same row as ``best_threshold``), and
    its gap as :func:`youden` gives it (``tpr - fpr`` for a frame of rates only). A group
    whose gap is undefined gives nulls.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [4, 3, 2, 1], "label": [1, 0, 1, 0]})
    >>> largest_gap(df.roc.curve().lazy(), [], lowest=False).collect().row(0)
    (0.5, 4.0)
    >>> largest_gap(df.roc.curve().lazy(), [], lowest=True).collect().row(0)
    (0.5, 2.0)
    """
    names = list(names)
    best = curve_optimum(points, names, lowest=lowest)
    counted = set(COUNTS) <= set(best.collect_schema().names())
    gap = youden() if counted else pl.col("tpr").cast(pl.Float64) - pl.col("fpr")
    return best.select(*names, gap.alias("ks"), "threshold")
