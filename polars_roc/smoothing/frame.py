"""
Smoothed ROC curves and the areas under them, as pROC's ``smooth()`` and ``auc(smooth)``.

Two smoothings, pROC's defaults:

* ``method="binormal"``: the least-squares line ``qnorm(1 - fpr) = A + B·qnorm(tpr)`` through
  the empirical curve's points where both quantiles are finite, read at ``n`` equally spaced
  sensitivities; its area is ``Φ(A / √(1 + B²))``. Null (with ``n_points`` below 2) when
  fewer than two points are finite or they share one sensitivity: pROC's "ROC curve not
  smoothable".
* ``method="density"``: Gaussian kernel densities of the negatives' and the positives'
  scores (bandwidth ``bw.nrd0`` of the pooled scores, ``n`` points from ``min - 3·bw`` to
  ``max + 3·bw``), computed as R's ``density()`` does (linear binning, FFT convolution,
  interpolation), read as the curve's weights (see
  :mod:`polars_roc.smoothing._density`). It needs a positive and a negative.

Each group is one row of a table built by Polars; one numpy call smooths every group of
the table at once (no Python loop over groups).

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame({"score": [0.1, 0.3, 0.35, 0.4, 0.6, 0.8], "label": [0, 0, 1, 0, 1, 1]})
>>> df.roc.smooth_auc(method="density")["auc"].round(4).item()
0.8671
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import polars as pl

from polars_roc._core import binormal, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import PARTIAL_SMOOTH_AUC, SMOOTH, SMOOTH_AUC
from polars_roc._core.counts import coded
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, summarize
from polars_roc._core.validate import By
from polars_roc._core.vertices import mcclish
from polars_roc.smoothing._density import Scores, density_curves
from polars_roc.smoothing._kernels import binormal_area, binormal_curves, clipped_area

__all__ = ["Method", "smooth", "smooth_auc"]

#: pROC's smoothing methods that need no optional package.
Method = Literal["binormal", "density"]
_METHODS = ("binormal", "density")
#: The smoothed curve per group: two lists of rates and the area over the asked range.
_CURVE = pl.Struct({"fpr": pl.List(pl.Float64), "tpr": pl.List(pl.Float64), "area": pl.Float64})


def _check(method: Any, n: Any, weight: str | None) -> int:
    validate.choice(method, _METHODS, "method")
    points = validate.whole(n, "n", minimum=3, hint="n=512 (pROC's default)")
    if method == "density" and weight is not None:
        msg = (
            f"method='density' takes no weight (got weight={weight!r}): R's bw.nrd0 "
            f"bandwidth counts rows, so weights would not act as repeated rows\n\n"
            f"Hint: method='binormal' takes weights, or repeat the rows."
        )
        raise ValueError(msg)
    return points


def _density_groups(
    lf: pl.LazyFrame, score: str, label: str, names: list[str], pos_label: Any
) -> pl.LazyFrame:
    """Per group each class's scores (``_neg``, ``_pos``), the bandwidth, the pooled range."""
    schema = lf.collect_schema()
    rows = coded(
        lf,
        score,
        label,
        names=names,
        weight=None,
        pos_label=pos_label,
        label_dtype=schema[label],
        masked=bool(names),
    )
    s = pl.col("threshold").cast(pl.Float64)
    positive, negative = pl.col("tp") == 1, pl.col("fp") == 1
    sd = s.std()
    iqr = s.quantile(0.75, "linear") - s.quantile(0.25, "linear")  # R's type 7
    spread = pl.min_horizontal(sd, iqr / 1.34)
    first = s.abs().max()  # bw.nrd0's |x[1]|: reached only when every score is the same
    floor = pl.when(spread > 0).then(spread).when(sd > 0).then(sd).when(first > 0).then(first)
    bw = 0.9 * floor.otherwise(1.0) * s.count().cast(pl.Float64) ** -0.2
    measures = [
        s.filter(negative).implode().alias("_neg"),
        s.filter(positive).implode().alias("_pos"),
        bw.alias("_bw"),
        s.min().alias("_low"),
        s.max().alias("_high"),
        s.is_nan().any().alias("_nan"),
    ]
    return summarize(rows, names, measures)


def _smoothed(
    method: str, n: int, along: Literal["fpr", "tpr"] | None, bounds: tuple[float, float]
) -> Any:
    """The numpy step: a struct column of per-group inputs to a struct of curves and areas."""

    def run(groups: pl.Series) -> pl.Series:
        frame = groups.struct.unnest()
        size = frame.height
        fpr, tpr = np.full((size, n + 2), np.nan), np.full((size, n + 2), np.nan)
        area = np.full(size, np.nan)
        if method == "binormal":
            a = frame["_A"].to_numpy().astype(np.float64)
            b = frame["_B"].to_numpy().astype(np.float64)
            ok = np.isfinite(a) & np.isfinite(b)
            fpr[ok], tpr[ok] = binormal_curves(a[ok], b[ok], n=n)
            area[ok] = binormal_area(a[ok], b[ok])
        else:
            ok = ((frame["n_pos"] > 0) & (frame["n_neg"] > 0) & ~frame["_nan"]).to_numpy()
            kept = frame.filter(pl.Series(ok))

            def scores(column: str) -> Scores:
                sizes = kept[column].list.len().to_numpy().astype(np.int64)
                values = kept[column].list.explode().drop_nulls().to_numpy()
                return Scores(values.astype(np.float64), sizes)

            numbers = (kept[c].to_numpy().astype(np.float64) for c in ("_bw", "_low", "_high"))
            fpr[ok], tpr[ok] = density_curves(scores("_neg"), scores("_pos"), *numbers, n=n)
            area[ok] = clipped_area(fpr[ok], tpr[ok], 0.0, 1.0)
        if along is not None:
            x, y = (fpr, tpr) if along == "fpr" else (tpr, 1 - fpr)
            area[ok] = clipped_area(x[ok], y[ok], *bounds)
        ok_rows = pl.Series(ok)
        lists = {
            name: pl.when(ok_rows).then(
                pl.Series(values).cast(pl.List(pl.Float64)).list.eval(pl.element().fill_nan(None))
            )
            for name, values in (("fpr", fpr), ("tpr", tpr))
        }
        out = pl.DataFrame().select(**lists, area=pl.Series(area, nan_to_null=True))
        return out.to_struct(groups.name)

    return run


def _table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    method: str,
    n: int,
    along: Literal["fpr", "tpr"] | None = None,
    bounds: tuple[float, float] = (0.0, 1.0),
) -> pl.LazyFrame:
    """Per group: ``*names, n_pos, n_neg, n_points`` and ``_curve`` (fpr, tpr, area)."""
    groups = binormal.curve_fits(lf, score, label, names=names, weight=weight, pos_label=pos_label)
    if method == "density":
        groups = join_groups(groups, _density_groups(lf, score, label, names, pos_label), names)
    inputs = [c for c in groups.collect_schema().names() if c not in names]
    step = _smoothed(method, n, along, bounds)
    curve = pl.struct(inputs).map_batches(step, return_dtype=_CURVE).alias("_curve")
    return groups.with_columns(curve)


@same_kind
@directed
def smooth(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    method: Method = "binormal",
    n: int = 512,
) -> pl.LazyFrame:
    """
    The smoothed ROC curve per group, as pROC's ``smooth(roc, method=, n=)``.

    Parameters
    ----------
    lf
        Scored rows.
    score, label, by, weight, pos_label
        Column roles; see :func:`polars_roc.curves.curve`. ``method="density"`` takes no
        `weight` (its bandwidth counts rows).
    direction
        ``"higher"`` (a higher score means positive; pROC's ``direction="<"``) or
        ``"lower"``.
    nan_policy
        NaN scores: ``"propagate"`` (the group's curve is null), ``"omit"`` or ``"raise"``.
    method
        ``"binormal"`` (pROC's default) or ``"density"``; see
        :mod:`polars_roc.smoothing.frame`.
    n
        Points of the smoothed curve, before pROC's two end points (pROC's default 512).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, fpr, tpr``: pROC's ``n + 2`` points per group from (0, 0) to (1, 1), or one
        row of nulls for a curve that cannot be smoothed (see :func:`smooth_auc`'s
        ``n_pos, n_neg, n_points`` for why).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.2, 0.7],
    ...      "label": [0, 1, 0, 1, 0, 1, 0, 1]}
    ... )
    >>> df.roc.smooth(n=5)
    shape: (7, 2)
    ┌──────────┬──────┐
    │ fpr      ┆ tpr  │
    │ ---      ┆ ---  │
    │ f64      ┆ f64  │
    ╞══════════╪══════╡
    │ 0.0      ┆ 0.0  │
    │ 0.0      ┆ 0.0  │
    │ 0.155832 ┆ 0.25 │
    │ 0.25     ┆ 0.5  │
    │ 0.367966 ┆ 0.75 │
    │ 1.0      ┆ 1.0  │
    │ 1.0      ┆ 1.0  │
    └──────────┴──────┘
    """
    points = _check(method, n, weight)
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    validate.no_clash(names, SMOOTH)
    table = _table(
        lf, score, label, names=names, weight=weight, pos_label=pos_label, method=method, n=points
    )
    curves = table.select(*names, pl.col("_curve").struct.field("fpr", "tpr"))
    return curves.explode("fpr", "tpr").select(*names, *SMOOTH)


@same_kind
@directed
def smooth_auc(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    method: Method = "binormal",
    n: int = 512,
) -> pl.LazyFrame:
    """
    The area under the smoothed ROC curve per group, as pROC's ``auc(smooth(roc))``.

    Parameters
    ----------
    lf
        Scored rows.
    fpr, tpr
        A partial area over the FPR range ``fpr=(lo, hi)`` (pROC's ``partial.auc`` with
        ``partial.auc.focus="specificity"`` over ``(1 - lo, 1 - hi)``) or the TPR range
        ``tpr=(lo, hi)`` (focus "sensitivity"); at most one. Leave both out for the whole
        area.
    score, label, by, weight, pos_label, direction, nan_policy, method, n
        As in :func:`smooth`.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, auc, n_pos, n_neg, n_points``, or with a range
        ``*by, pauc, pauc_std, n_pos, n_neg, n_points`` (`pauc_std` McClish's
        standardization, as :func:`polars_roc.areas.partial_auc`). The whole binormal area
        is pROC's closed form ``Φ(A / √(1 + B²))``; every other area the trapezoids of the
        smoothed points. `n_points` counts the empirical curve's points strictly inside the
        unit square (the binormal fit needs two). Null for a group that cannot be smoothed
        (no positive or no negative, a NaN score, fewer than two binormal points).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.2, 0.7],
    ...      "label": [0, 1, 0, 1, 0, 1, 0, 1]}
    ... )
    >>> df.roc.smooth_auc()
    shape: (1, 4)
    ┌──────────┬───────┬───────┬──────────┐
    │ auc      ┆ n_pos ┆ n_neg ┆ n_points │
    │ ---      ┆ ---   ┆ ---   ┆ ---      │
    │ f64      ┆ i64   ┆ i64   ┆ i64      │
    ╞══════════╪═══════╪═══════╪══════════╡
    │ 0.726839 ┆ 4     ┆ 4     ┆ 3        │
    └──────────┴───────┴───────┴──────────┘
    """
    points = _check(method, n, weight)
    if fpr is not None and tpr is not None:
        msg = "give at most one range: fpr=(lo, hi) or tpr=(lo, hi)\n\nHint: fpr=(0.0, 0.2)."
        raise ValueError(msg)
    names = validate.as_names(by)
    along: Literal["fpr", "tpr"] | None = (
        "fpr" if fpr is not None else "tpr" if tpr is not None else None
    )
    given = fpr if fpr is not None else tpr
    bounds = (0.0, 1.0) if along is None else validate.unit_range(given, along)
    outputs = SMOOTH_AUC if along is None else PARTIAL_SMOOTH_AUC
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    validate.no_clash(names, outputs)
    table = _table(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        method=method,
        n=points,
        along=along,
        bounds=bounds,
    )
    area = pl.col("_curve").struct.field("area")
    if along is None:
        return table.with_columns(auc=area).select(*names, *outputs)
    standardized = mcclish(pl.col("pauc"), *bounds, along)
    result = table.with_columns(pauc=area).with_columns(pauc_std=standardized)
    return result.select(*names, *outputs)
