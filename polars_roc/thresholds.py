"""Threshold analysis: measures at chosen thresholds, operating points and cutpoints.

Everything here reads the ROC curve of :func:`polars_roc.curves.curve` (itself derived from
the counts core), so a threshold table, an operating point and a cutpoint always agree with
the curve. LazyFrame in, LazyFrame out; nothing here collects.

Threshold schemes (the ``thresholds=`` argument of :func:`thresholds` and
:func:`polars_roc.curves.curve`):

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

from polars_roc import _labels, _validate
from polars_roc._validate import By
from polars_roc.curves import curve, per_group

INF = float("inf")

#: The threshold table's columns, in order, after the `by` columns.
COLUMNS = (
    "threshold",
    "tp",
    "fp",
    "tn",
    "fn",
    "tpr",
    "fpr",
    "tnr",
    "fnr",
    "ppv",
    "npv",
    "fdr",
    "accuracy",
    "balanced_accuracy",
    "f1",
    "youden",
    "mcc",
    "lr_pos",
    "lr_neg",
)


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
    if not isinstance(k, int) or isinstance(k, bool) or k < 2:
        msg = f"linspace needs an int k >= 2 (both extreme scores), got {k!r}"
        msg += "\n\nHint: pr.linspace(20)."
        raise ValueError(msg)
    return Linspace(k)


_Kind = Literal["all", "quantile", "linspace", "values"]


def _scheme(thresholds: Any) -> tuple[_Kind, int, list[float]]:
    """Check a ``thresholds=`` argument: its kind, its k, its values (raised at call time)."""
    if thresholds is None:
        return ("all", 0, [])
    if isinstance(thresholds, Linspace):
        return ("linspace", linspace(thresholds.k).k, [])
    if isinstance(thresholds, bool):
        msg = f"thresholds={thresholds!r} is not a threshold scheme\n\nHint: {_SCHEMES}"
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
        msg = f"thresholds={thresholds!r} is not a threshold scheme\n\nHint: {_SCHEMES}"
        raise ValueError(msg)
    values = list(thresholds)
    if not values:
        msg = f"thresholds={thresholds!r} is empty\n\nHint: {_SCHEMES}"
        raise ValueError(msg)
    out = []
    for value in values:
        if not isinstance(value, int | float) or isinstance(value, bool) or math.isnan(value):
            msg = f"thresholds must be numbers, got {value!r}\n\nHint: {_SCHEMES}"
            raise ValueError(msg)
        out.append(float(value))
    return ("values", 0, sorted(set(out), reverse=True))


_SCHEMES = (
    "thresholds=None (every distinct score), a list of floats, an int k (k quantiles of the "
    "negative scores) or pr.linspace(k)."
)


def _ordered(frame: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """Sort by group, then threshold descending (the curve's order)."""
    return frame.sort(
        [*names, "threshold"],
        descending=[False] * len(names) + [True],
        nulls_last=True,
        maintain_order=True,
    )


def _group_ids(
    frame: pl.LazyFrame, names: list[str], source: pl.LazyFrame
) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """
    Tag `frame` with an integer group id `_gid` (one per group of `source`).

    As-of joins match `by` keys with null never equal to null; an id column keeps groups
    whose key is null.
    """
    if not names:
        gid = pl.LazyFrame({"_gid": [0]}, schema={"_gid": pl.UInt32})
        return frame.with_columns(_gid=pl.lit(0, dtype=pl.UInt32)), gid
    groups = source.select(names).unique().with_row_index("_gid")
    return frame.join(groups, on=names, how="left", nulls_equal=True), groups


def _is_end(names: list[str]) -> pl.Expr:
    """Whether a row is the first or the last of its group."""
    position = per_group(pl.int_range(pl.len()), names)
    return (position == 0) | (position == per_group(pl.len(), names) - 1)


def _ends(points: pl.LazyFrame, names: list[str]) -> pl.LazyFrame:
    """The first (0, 0) and last (1, 1) row of each group's curve."""
    return points.filter(_is_end(names))


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
    kind, k, values = _scheme(thresholds)
    if kind == "all":
        return points
    if kind == "quantile":
        return _negative_quantiles(points, names, k)
    tagged, groups = _group_ids(points, names, points)
    if kind == "values":
        targets = groups.join(
            pl.LazyFrame({"threshold": values}, schema={"threshold": pl.Float64}), how="cross"
        )
    else:
        targets = _linspace_targets(tagged, groups, k)
    evaluated = _evaluate(tagged, names, targets)
    if ends or kind == "linspace":
        evaluated = pl.concat([_ends(points, names), evaluated], how="vertical_relaxed")
        evaluated = evaluated.unique([*names, "threshold"], keep="first", maintain_order=True)
    return _ordered(evaluated, names)


def _negative_quantiles(points: pl.LazyFrame, names: list[str], k: int) -> pl.LazyFrame:
    """Rows where FPR first reaches i / (k + 1), i = 1..k, plus both end points."""
    n_neg = pl.col("fp") + pl.col("tn")  # null for a group without a defined curve
    # Number of targets i / (k + 1) at or below this row's FPR (exact for integer counts).
    reached = pl.when(n_neg > 0).then(
        (pl.col("fp").cast(pl.Float64) * (k + 1) / n_neg).floor().clip(upper_bound=k)
    )
    before = per_group(reached.shift(1), names).fill_null(0)
    keep = _is_end(names) | (reached > before).fill_null(False)
    return points.filter(keep)


def _linspace_targets(tagged: pl.LazyFrame, groups: pl.LazyFrame, k: int) -> pl.LazyFrame:
    """`k` evenly spaced thresholds per group from its highest to its lowest real score."""
    real = (pl.col("tp") + pl.col("fp") > 0) & pl.col("threshold").is_finite()
    spans = (
        tagged.filter(real)
        .group_by("_gid")
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
    return (
        groups.join(spans, on="_gid")
        .join(steps, how="cross")
        .select(pl.exclude("_lo", "_hi", "_i"), threshold=threshold)
    )


def measures() -> list[pl.Expr]:
    """
    The threshold table's measures from ``tp, fp, tn, fn``: undefined ratios are null.

    ``+inf`` appears only where a ratio is truly infinite: ``lr_pos`` at FPR 0 with TPR > 0,
    ``lr_neg`` at TNR 0 with FNR > 0.
    """
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    defined = tn.is_not_null() & fn.is_not_null()  # null totals: a NaN score in the group

    def ratio(a: pl.Expr, b: pl.Expr) -> pl.Expr:
        return pl.when(defined & (b > 0)).then(a / b)

    tpr, fpr = ratio(tp, tp + fn), ratio(fp, fp + tn)
    tnr, fnr = ratio(tn, fp + tn), ratio(fn, tp + fn)
    mcc_denominator = ((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)).sqrt()
    return [
        tnr.alias("tnr"),
        fnr.alias("fnr"),
        ratio(tp, tp + fp).alias("ppv"),
        ratio(tn, tn + fn).alias("npv"),
        ratio(fp, tp + fp).alias("fdr"),
        ratio(tp + tn, tp + fp + tn + fn).alias("accuracy"),
        ((tpr + tnr) / 2).alias("balanced_accuracy"),
        ratio(2 * tp, 2 * tp + fp + fn).alias("f1"),
        (tpr - fpr).alias("youden"),
        ratio(tp * tn - fp * fn, mcc_denominator).alias("mcc"),
        _likelihood_ratio(tpr, fpr).alias("lr_pos"),
        _likelihood_ratio(fnr, tnr).alias("lr_neg"),
    ]


def _likelihood_ratio(top: pl.Expr, bottom: pl.Expr) -> pl.Expr:
    """``top / bottom``; +inf for x / 0 with x > 0; null for 0 / 0 or an undefined rate."""
    return pl.when(bottom > 0).then(top / bottom).when((bottom == 0) & (top > 0)).then(INF)


def thresholds(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    thresholds: Thresholds = None,
) -> pl.LazyFrame:
    """
    Confusion counts and every standard measure, per group and threshold.

    A row is predicted positive iff ``score >= threshold``. With the default
    ``thresholds=None`` there is one row per distinct score plus the ``threshold=+inf`` row
    (nothing predicted positive), exactly the rows of ``curve()``.

    Measures: ``tpr = tp / P``, ``fpr = fp / N``, ``tnr = tn / N``, ``fnr = fn / P``,
    ``ppv = tp / (tp + fp)``, ``npv = tn / (tn + fn)``, ``fdr = fp / (tp + fp)``,
    ``accuracy = (tp + tn) / (P + N)``, ``balanced_accuracy = (tpr + tnr) / 2``,
    ``f1 = 2 tp / (2 tp + fp + fn)``, ``youden = tpr - fpr`` (J), ``mcc`` (Matthews),
    ``lr_pos = tpr / fpr``, ``lr_neg = fnr / tnr``. A ratio with a zero denominator is null,
    except a likelihood ratio x / 0 with x > 0, which is ``+inf``. A group with a NaN score
    has null measures.

    Parameters
    ----------
    lf
        Scored rows.
    score
        Numeric score column; higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    by
        Column name(s) to group by.
    weight
        Optional non-negative case weights (counts become Float64 weight sums).
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    thresholds
        Where to evaluate: None (every distinct score), a list of floats (exactly those), an
        int k (k quantiles of the negative scores plus both end points), or
        :func:`linspace` ``(k)``. See :mod:`polars_roc.thresholds`.

    Returns
    -------
    pl.LazyFrame
        ``*by, threshold, tp, fp, tn, fn, tpr, fpr, tnr, fnr, ppv, npv, fdr, accuracy,
        balanced_accuracy, f1, youden, mcc, lr_pos, lr_neg``, threshold descending per group.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.1], "label": [1, 0, 1, 0]})
    >>> df.roc.thresholds().select("threshold", "tp", "fp", "ppv", "youden", "lr_pos")
    shape: (5, 6)
    ┌───────────┬─────┬─────┬──────────┬────────┬────────┐
    │ threshold ┆ tp  ┆ fp  ┆ ppv      ┆ youden ┆ lr_pos │
    │ ---       ┆ --- ┆ --- ┆ ---      ┆ ---    ┆ ---    │
    │ f64       ┆ i64 ┆ i64 ┆ f64      ┆ f64    ┆ f64    │
    ╞═══════════╪═════╪═════╪══════════╪════════╪════════╡
    │ inf       ┆ 0   ┆ 0   ┆ null     ┆ 0.0    ┆ null   │
    │ 0.9       ┆ 1   ┆ 0   ┆ 1.0      ┆ 0.5    ┆ inf    │
    │ 0.8       ┆ 1   ┆ 1   ┆ 0.5      ┆ 0.0    ┆ 1.0    │
    │ 0.7       ┆ 2   ┆ 1   ┆ 0.666667 ┆ 0.5    ┆ 2.0    │
    │ 0.1       ┆ 2   ┆ 2   ┆ 0.5      ┆ 0.0    ┆ 1.0    │
    └───────────┴─────┴─────┴──────────┴────────┴────────┘
    >>> df.roc.thresholds(thresholds=[0.5])["accuracy"].to_list()
    [0.75]
    """
    return _table(lf, score, label, by=by, weight=weight, pos_label=pos_label, scheme=thresholds)


def _table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    by: By,
    weight: str | None,
    pos_label: Any,
    scheme: Thresholds,
) -> pl.LazyFrame:
    """The threshold table (the body of :func:`thresholds`, whose argument shadows it)."""
    names = _validate.as_names(by)
    _scheme(scheme)  # fail at call time
    points = curve(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    table = at_thresholds(points, names, scheme, ends=False)
    return table.with_columns(measures()).select(*names, *COLUMNS)


def _objective(
    method: str, cost_fp: float, cost_fn: float, prevalence: float | None, *, weighted: bool
) -> pl.Expr:
    """
    The quantity `best_threshold` maximizes, null where undefined.

    Scaled by the group's constant ``P * N`` (or its square) so that unweighted counts give
    exact integer arithmetic and exact ties: J = tpr - fpr ranks as ``tp * N - fp * P``.
    """
    kind = pl.Float64 if weighted else pl.Int128
    tp, fp, tn, fn = (pl.col(c).cast(kind) for c in ("tp", "fp", "tn", "fn"))
    n_pos, n_neg = tp + fn, fp + tn
    both = (n_pos > 0) & (n_neg > 0)
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


def best_threshold(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    method: Literal["youden", "closest_topleft", "cost"] = "youden",
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    prevalence: float | None = None,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    thresholds: Thresholds = None,
) -> pl.LazyFrame:
    """
    The optimal threshold per group: its row of the :func:`thresholds` table.

    The `method` decides what is optimal:

    * ``"youden"``: maximize J = tpr - fpr;
    * ``"closest_topleft"``: minimize the distance to (0, 1), ``(1 - tpr)² + fpr²``;
    * ``"cost"``: minimize the expected cost ``cost_fn * P * (1 - tpr) + cost_fp * N * fpr``
      (= ``cost_fn * fn + cost_fp * fp``), with P, N the class counts (or weight sums) of the
      group, or ``prevalence`` and ``1 - prevalence`` when `prevalence` is given (the
      iso-performance line of slope ``cost_fp * (1 - prevalence) / (cost_fn * prevalence)``).

    Every row of the table is a candidate, the ``+inf`` row (predict nothing) included.
    Ties: exactly one row per group is returned; among equally good thresholds the
    **highest** threshold wins (the fewest predicted positives). A group with no candidate
    (no positives or no negatives for a rate-based objective, a NaN score, or no point in the
    `fpr` / `tpr` range) gets one row of nulls. Ties are exact for unweighted counts: the
    objectives are compared in integer arithmetic (J as ``tp * N - fp * P``, the squared
    distance scaled by ``(P * N)²``); weighted sums compare as floats.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`thresholds`.
    method
        ``"youden"``, ``"closest_topleft"`` or ``"cost"``.
    cost_fp, cost_fn
        Cost of a false positive and of a false negative (``"cost"`` only); both > 0.
    prevalence
        Share of positives to assume, in (0, 1) (``"cost"`` only); default: the data's.
    fpr, tpr
        ``(lo, hi)``: search only the ROC points with FPR (TPR) in ``[lo, hi]``, e.g. the
        best cutpoint within a partial-AUC region.
    thresholds
        The candidate thresholds, a scheme as in :func:`thresholds`.

    Returns
    -------
    pl.LazyFrame
        The :func:`thresholds` columns, one row per group, sorted by group.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.6, 0.4, 0.1], "label": [1, 1, 0, 1, 0, 0]}
    ... )

    Thresholds 0.8 and 0.6 tie at J = 2/3; the higher one is returned:

    >>> df.roc.best_threshold().select("threshold", "tpr", "fpr", "youden")
    shape: (1, 4)
    ┌───────────┬──────────┬─────┬──────────┐
    │ threshold ┆ tpr      ┆ fpr ┆ youden   │
    │ ---       ┆ ---      ┆ --- ┆ ---      │
    │ f64       ┆ f64      ┆ f64 ┆ f64      │
    ╞═══════════╪══════════╪═════╪══════════╡
    │ 0.8       ┆ 0.666667 ┆ 0.0 ┆ 0.666667 │
    └───────────┴──────────┴─────┴──────────┘
    >>> df.roc.best_threshold(fpr=(0.2, 0.5))["threshold"].item()
    0.6
    >>> df.roc.best_threshold(method="cost", cost_fn=5.0)["threshold"].item()
    0.6
    """
    if method not in ("youden", "closest_topleft", "cost"):
        msg = (
            f"method must be 'youden', 'closest_topleft' or 'cost', got {method!r}"
            f"\n\nHint: method='youden'."
        )
        raise ValueError(msg)
    cost_fp = _validate.cost(cost_fp, "cost_fp")
    cost_fn = _validate.cost(cost_fn, "cost_fn")
    _validate.prevalence(prevalence)
    names = _validate.as_names(by)
    table = _table(
        lf, score, label, by=names, weight=weight, pos_label=pos_label, scheme=thresholds
    )
    objective = _objective(method, cost_fp, cost_fn, prevalence, weighted=weight is not None)
    allowed = objective.is_not_null()
    for bounds, rate in ((fpr, "fpr"), (tpr, "tpr")):
        if bounds is not None:
            lo, hi = _validate.unit_range(bounds, rate)
            allowed = allowed & pl.col(rate).is_between(lo, hi)
    candidates = table.with_columns(_objective=objective).filter(allowed)
    columns = list(COLUMNS)
    keys = names or ["_g"]
    if not names:  # one group: a constant key, so the group is kept when it has no candidate
        table = table.with_columns(_g=pl.lit(True))
        candidates = candidates.with_columns(_g=pl.lit(True))
    best = candidates.group_by(keys).agg(
        pl.col(columns).sort_by(["_objective", "threshold"]).last()
    )
    groups = table.select(keys).unique()
    out = groups.join(best, on=keys, how="left", nulls_equal=True)
    return out.sort(keys, nulls_last=True).select(*names, *columns)


def _operating_points(
    lf: pl.LazyFrame,
    targets: list[float],
    along: Literal["fpr", "tpr"],
    score: str,
    label: str,
    *,
    by: By,
    weight: str | None,
    pos_label: Any,
    ci: Any = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
) -> pl.LazyFrame:
    """
    The ROC curve read at given FPRs (``along="fpr"``) or TPRs (``along="tpr"``).

    The curve is the polyline through the vertices of ``curve()``. For a target x, the
    vertices are gathered into levels of equal x: a level is a vertical (horizontal) part.
    The segment leaving level a ends at the *lowest* vertex of the next level b, and starts
    at the *highest* vertex of a; at an exact hit the answer is the best vertex of the level
    (largest TPR for ``tpr_at_fpr``, smallest FPR for ``fpr_at_tpr``) and its threshold.
    ``ci="bootstrap"`` hands over to :mod:`polars_roc.inference` for the bootstrap band.
    """
    if _validate.ci(ci, ("bootstrap",)):
        from polars_roc import inference  # imports this module

        interval = (
            inference.tpr_at_fpr_interval if along == "fpr" else inference.fpr_at_tpr_interval
        )
        return interval(
            lf,
            targets,
            score,
            label,
            by=by,
            weight=weight,
            pos_label=pos_label,
            level=level,
            n_boot=n_boot,
            seed=seed,
        )
    names = _validate.as_names(by)
    x, y = along, "tpr" if along == "fpr" else "fpr"
    points = curve(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    valid = points.filter(pl.col(x).is_not_null() & pl.col(y).is_not_null())
    # tpr_at_fpr: at a vertical part the top (largest tpr, lowest threshold) is exact;
    # fpr_at_tpr: at a horizontal part the left end (smallest fpr, highest threshold).
    exact_y = pl.col(y).max() if along == "fpr" else pl.col(y).min()
    exact_t = pl.col("threshold").min() if along == "fpr" else pl.col("threshold").max()
    levels = valid.group_by(*names, x).agg(
        _y_lo=pl.col(y).min(), _y_hi=pl.col(y).max(), _y_exact=exact_y, _t_exact=exact_t
    )
    levels, groups = _group_ids(levels, names, points)
    levels = levels.select(pl.exclude(names)).sort("_gid", x)
    wanted = pl.LazyFrame(
        {"_i": range(len(targets)), "_target": targets},
        schema={"_i": pl.Int64, "_target": pl.Float64},
    )
    left = groups.join(wanted, how="cross").sort("_gid", "_target")
    below = levels.select(
        "_gid", _x_a=pl.col(x), _y_a=pl.col("_y_hi"), _y_exact="_y_exact", _t_exact="_t_exact"
    )
    above = levels.select("_gid", _x_b=pl.col(x), _y_b=pl.col("_y_lo"))
    joined = left.join_asof(
        below,
        left_on="_target",
        right_on="_x_a",
        by="_gid",
        strategy="backward",
        coalesce=False,
        check_sortedness=False,
    ).join_asof(
        above,
        left_on="_target",
        right_on="_x_b",
        by="_gid",
        strategy="forward",
        allow_exact_matches=False,
        coalesce=False,
        check_sortedness=False,
    )
    t, x_a, y_a, x_b, y_b = (pl.col(c) for c in ("_target", "_x_a", "_y_a", "_x_b", "_y_b"))
    hit = x_a == t
    value = (
        pl.when(hit).then(pl.col("_y_exact")).otherwise(y_a + (t - x_a) * (y_b - y_a) / (x_b - x_a))
    )
    threshold = pl.when(hit).then(pl.col("_t_exact"))
    out = joined.with_columns(
        pl.col("_target").alias(x), value.alias(y), threshold.alias("threshold")
    )
    out = out.sort([*names, "_i"], nulls_last=True, maintain_order=True)
    return out.select(*names, "fpr", "tpr", "threshold")


def tpr_at_fpr(
    lf: pl.LazyFrame,
    fpr: float | Sequence[float],
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    ci: Literal["bootstrap"] | None = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
) -> pl.LazyFrame:
    """
    The TPR the ROC curve reaches at given false positive rates.

    The ROC curve is the polyline through the vertices of ``curve()``, read by linear
    interpolation between vertices. Where the curve is vertical at the target FPR the result
    is the largest TPR there (the best attainable), with the threshold that attains it.
    Between vertices the point is reachable only by randomizing between two thresholds, so
    `threshold` is null. Works on any LazyFrame of scored rows (e.g. a bootstrap resample,
    with the replicate as a `by` column).

    Parameters
    ----------
    lf
        Scored rows.
    fpr
        One target false positive rate, or a list, each in [0, 1].
    score, label, by, weight, pos_label
        Column roles, as in :func:`thresholds`.
    ci
        ``"bootstrap"`` adds ``tpr_se, tpr_lower, tpr_upper``: stratified bootstrap bands of
        `tpr` (see :func:`polars_roc.inference.tpr_at_fpr_interval`).
    level, n_boot, seed
        Confidence level, bootstrap replicates and random seed (``ci="bootstrap"`` only).

    Returns
    -------
    pl.LazyFrame
        ``*by, fpr, tpr, threshold`` (+ ``tpr_se, tpr_lower, tpr_upper``): one row per group
        and target, targets in the order given. `tpr` is null for a group without positives
        or negatives, or with a NaN score.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> df.roc.tpr_at_fpr([0.0, 0.25, 0.5])
    shape: (3, 3)
    ┌──────┬──────────┬───────────┐
    │ fpr  ┆ tpr      ┆ threshold │
    │ ---  ┆ ---      ┆ ---       │
    │ f64  ┆ f64      ┆ f64       │
    ╞══════╪══════════╪═══════════╡
    │ 0.0  ┆ 0.666667 ┆ 0.8       │
    │ 0.25 ┆ 0.666667 ┆ null      │
    │ 0.5  ┆ 1.0      ┆ 0.6       │
    └──────┴──────────┴───────────┘
    """
    targets = _validate.rates(fpr, "fpr")
    return _operating_points(
        lf,
        targets,
        "fpr",
        score,
        label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci=ci,
        level=level,
        n_boot=n_boot,
        seed=seed,
    )


def fpr_at_tpr(
    lf: pl.LazyFrame,
    tpr: float | Sequence[float],
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    ci: Literal["bootstrap"] | None = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
) -> pl.LazyFrame:
    """
    The FPR the ROC curve needs to reach given true positive rates.

    Linear interpolation between the vertices of ``curve()``; where the curve is horizontal
    at the target TPR the result is the smallest FPR there (the best attainable), with the
    threshold that attains it; between vertices `threshold` is null (only a randomized mix
    of two thresholds attains the point). Works on any LazyFrame of scored rows.

    Parameters
    ----------
    lf
        Scored rows.
    tpr
        One target true positive rate (sensitivity), or a list, each in [0, 1].
    score, label, by, weight, pos_label
        Column roles, as in :func:`thresholds`.
    ci
        ``"bootstrap"`` adds ``fpr_se, fpr_lower, fpr_upper``: stratified bootstrap bands of
        `fpr` (see :func:`polars_roc.inference.fpr_at_tpr_interval`).
    level, n_boot, seed
        Confidence level, bootstrap replicates and random seed (``ci="bootstrap"`` only).

    Returns
    -------
    pl.LazyFrame
        ``*by, fpr, tpr, threshold`` (+ ``fpr_se, fpr_lower, fpr_upper``): one row per group
        and target, in the order given.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    >>> df.roc.fpr_at_tpr([0.5, 2 / 3, 1.0])
    shape: (3, 3)
    ┌─────┬──────────┬───────────┐
    │ fpr ┆ tpr      ┆ threshold │
    │ --- ┆ ---      ┆ ---       │
    │ f64 ┆ f64      ┆ f64       │
    ╞═════╪══════════╪═══════════╡
    │ 0.0 ┆ 0.5      ┆ null      │
    │ 0.0 ┆ 0.666667 ┆ 0.8       │
    │ 0.5 ┆ 1.0      ┆ 0.6       │
    └─────┴──────────┴───────────┘
    """
    targets = _validate.rates(tpr, "tpr")
    return _operating_points(
        lf,
        targets,
        "tpr",
        score,
        label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci=ci,
        level=level,
        n_boot=n_boot,
        seed=seed,
    )


def point(
    lf: pl.LazyFrame,
    prediction: str,
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
) -> pl.LazyFrame:
    """
    A hard-label (deterministic) classifier as one point in ROC space.

    Its ROC "curve" runs (0, 0) → (fpr, tpr) → (1, 1), so its area is
    ``auc = (tpr + tnr) / 2`` (the balanced accuracy). `below_diagonal` flags a classifier
    worse than chance (``tpr < fpr``): flipping its predictions mirrors it above.

    Parameters
    ----------
    lf
        Rows with a predicted and a true class.
    prediction
        Predicted class column, coded like `label` (Boolean, 0/1, or `pos_label`).
    label
        True class column.
    by
        Column name(s) to group by: one point per group.
    weight
        Optional non-negative case weights (counts become Float64 weight sums).
    pos_label
        The positive class, for both columns. Default: True / 1.

    Returns
    -------
    pl.LazyFrame
        ``*by, tp, fp, tn, fn, tpr, fpr, auc, below_diagonal``, sorted by group. Rates are
        null for a group without positives (tpr) or negatives (fpr).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"pred": [1, 1, 0, 0, 1], "label": [1, 0, 1, 0, 1]})
    >>> df.roc.point("pred")
    shape: (1, 8)
    ┌─────┬─────┬─────┬─────┬──────────┬─────┬──────────┬────────────────┐
    │ tp  ┆ fp  ┆ tn  ┆ fn  ┆ tpr      ┆ fpr ┆ auc      ┆ below_diagonal │
    │ --- ┆ --- ┆ --- ┆ --- ┆ ---      ┆ --- ┆ ---      ┆ ---            │
    │ i64 ┆ i64 ┆ i64 ┆ i64 ┆ f64      ┆ f64 ┆ f64      ┆ bool           │
    ╞═════╪═════╪═════╪═════╪══════════╪═════╪══════════╪════════════════╡
    │ 2   ┆ 1   ┆ 1   ┆ 1   ┆ 0.666667 ┆ 0.5 ┆ 0.583333 ┆ false          │
    └─────┴─────┴─────┴─────┴──────────┴─────┴──────────┴────────────────┘
    """
    names = _validate.as_names(by)
    schema = lf.collect_schema()
    for column, role in ((prediction, "prediction"), (label, "label")):
        dtype = _validate.column(schema, column, role)
        if not _validate.is_label_dtype(dtype):
            msg = (
                f"{role} column {column!r} has dtype {dtype}, expected Boolean, integer, "
                f"string or categorical class codes\n\nHint: pass {role}=<class column>."
            )
            raise pl.exceptions.SchemaError(msg)
        if dtype.is_float() and pos_label is None:
            msg = (
                f"{role} column {column!r} has dtype {dtype}: it looks like a score, not "
                f"class codes\n\nHint: threshold the score first, or pass pos_label= to use "
                f"float class codes."
            )
            raise pl.exceptions.SchemaError(msg)
        if pos_label is not None:
            _validate._pos_label_fits(column, dtype, pos_label)
    for name in names:
        _validate.column(schema, name, "by")
    if weight is not None:
        dtype = _validate.column(schema, weight, "weight")
        if not dtype.is_numeric() or dtype == pl.Boolean:
            msg = (
                f"weight column {weight!r} has dtype {dtype}, expected non-negative numbers"
                f"\n\nHint: pass weight=<numeric column> or weight=None."
            )
            raise pl.exceptions.SchemaError(msg)
    y = _labels.positive(label, pos_label)
    yhat = _labels.positive(prediction, pos_label)
    w = None if weight is None else _labels.weight(weight)
    keep = _labels.kept(yhat, y, w)
    if w is None:
        cells = {
            "tp": (y & yhat).cast(pl.Int64),
            "fp": (~y & yhat).cast(pl.Int64),
            "tn": (~y & ~yhat).cast(pl.Int64),
            "fn": (y & ~yhat).cast(pl.Int64),
        }
    else:
        cells = {
            "tp": w * (y & yhat),
            "fp": w * (~y & yhat),
            "tn": w * (~y & ~yhat),
            "fn": w * (y & ~yhat),
        }
    counted = lf.filter(keep).select(*names, **cells)
    summed = (
        counted.group_by(names).agg(pl.all().sum()).sort(names, nulls_last=True)
        if names
        else counted.select(pl.all().sum())
    )
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    tpr = pl.when(tp + fn > 0).then(tp / (tp + fn))
    fpr = pl.when(fp + tn > 0).then(fp / (fp + tn))
    return summed.with_columns(tpr=tpr, fpr=fpr).with_columns(
        auc=(1 + pl.col("tpr") - pl.col("fpr")) / 2,
        below_diagonal=pl.col("tpr") < pl.col("fpr"),
    )
