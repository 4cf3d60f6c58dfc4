"""
Release gates: one table of named checks that a challenger must pass to replace a champion.

Each check is a row ``check, *by, value, limit, passed, reason``: the check's name, its
group, the number it judges, the limit it is held to (as text: ``">= 0.7"``), whether it
passed and why. A check whose number is undefined (a segment without positives) fails,
with the reason shown: a gate never passes on a null.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from polars_roc import areas
from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import CHECKS
from polars_roc._core.direction import Direction
from polars_roc._core.frames import same_kind
from polars_roc._core.validate import By
from polars_roc.calibration.frame import calibration_fit
from polars_roc.inference.comparison import compare
from polars_roc.inference.multiple_testing import check_adjust
from polars_roc.monitoring.frame import score_stability
from polars_roc.monitoring.over_time import over_time
from polars_roc.segments.disparity import disparity
from polars_roc.typing import Adjust

__all__ = ["checks"]


def _rounded(expr: pl.Expr) -> pl.Expr:
    """A number as short text for a reason: 4 significant decimals, ``"null"`` when null."""
    return expr.round(4).cast(pl.String).fill_null("null")


def _rows(
    lf: pl.LazyFrame, name: str, by: list[str], value: pl.Expr, limit: pl.Expr, ok: pl.Expr,
    reason: pl.Expr,
) -> pl.LazyFrame:  # fmt: skip
    """The check table's rows from a frame of results: a null verdict fails."""
    undefined = pl.format("{} is undefined ({})", pl.lit(name), reason)
    return lf.select(
        pl.lit(name).alias("check"),
        *by,
        value.cast(pl.Float64).alias("value"),
        limit.alias("limit"),
        ok.fill_null(False).alias("passed"),
        pl.when(ok.is_null()).then(undefined).otherwise(reason).alias("reason"),
    )


def _last_window(lf: pl.LazyFrame, by: list[str]) -> pl.LazyFrame:
    """Each group's last window."""
    last = pl.col("window_start") == pl.col("window_start").max()
    return lf.filter(last.over(by) if by else last)


def _check_arguments(
    champion: Any, challenger: Any, slope: Any, max_psi: Any, min_auc: Any, min_p: Any
) -> None:
    if champion is None or challenger is None or champion == challenger:
        msg = (
            f"checks needs two different models, got champion={champion!r} and "
            f"challenger={challenger!r}\n\nHint: champion='current', challenger='candidate'."
        )
        raise ValueError(msg)
    for name, value in (("min_auc", min_auc), ("max_psi", max_psi), ("min_p", min_p)):
        if value is not None and (not validate.is_real(value) or value < 0):
            msg = f"{name} must be a non-negative number, got {value!r}"
            raise ValueError(msg)
    if slope is not None:
        ok = isinstance(slope, list | tuple) and len(slope) == 2
        if not ok or not all(validate.is_real(v) for v in slope) or not slope[0] < slope[1]:
            msg = f"slope must be a band (lo, hi) with lo < hi, got {slope!r}\n\nHint: (0.8, 1.2)."
            raise ValueError(msg)


@same_kind
def checks(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    model: str = "model",
    champion: Any,
    challenger: Any,
    case: str | None = None,
    by: By = None,
    pos_label: Any = None,
    margin: float | None = None,
    min_auc: float | None = None,
    time: str | None = None,
    every: str | None = None,
    reference: tuple[Any, Any] | None = None,
    max_psi: float | None = None,
    min_p: float | None = None,
    slope: tuple[float, float] | None = None,
    cluster: str | None = None,
    level: float = 0.95,
    adjust: Adjust | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Release gates: the checks a challenger must pass to replace the champion, one per row.

    Long-format input (one row per case and model, as :func:`polars_roc.inference.compare`).
    Each check runs only when its limit is given; per `by` group:

    * ``non_inferiority`` (`margin`): the challenger is no worse than the champion by more
      than `margin` in AUC, :func:`~polars_roc.inference.compare`'s ``margin=`` test
      (champion as `model_a`, challenger as `model_b`; paired by `case`, clustered by
      `cluster`): value the p-value (``p_adjusted`` with `adjust`), passed when it is below
      ``1 - level``. Every group must pass, so no adjustment is needed for the gate as a
      whole (an intersection-union test); `adjust` corrects each group's own claim.
    * ``min_auc`` (`min_auc`): the challenger's AUC by its lower DeLong bound (two-sided,
      at `level`), not its point value: passed when the bound is at least `min_auc`.
    * ``alert`` (`time`, `every`, `reference`): no alert in the challenger's last window of
      :func:`polars_roc.monitoring.over_time` (value the window's AUC, limit the band).
    * ``psi`` (`max_psi`, with `time`, `every`, `reference`): the PSI of the challenger's
      scores in the last window against the reference period
      (:func:`polars_roc.monitoring.score_stability`), passed when at most `max_psi`.
    * ``disparity`` (`min_p`, needs `by`): each segment of the last `by` column against the
      rest of its group (:func:`polars_roc.segments.disparity`, Holm-adjusted): passed
      when the adjusted p-value is at least `min_p`.
    * ``calibration_slope`` (`slope` = ``(lo, hi)``): the challenger's calibration slope
      (:func:`polars_roc.calibration.calibration_fit`, scores as probabilities) inside the
      band.

    Parameters
    ----------
    lf
        Scored rows in long format.
    score, label, by, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    model, champion, challenger
        The column naming the models, and the two models' names in it.
    case, cluster
        Case and cluster ids, as in :func:`~polars_roc.inference.compare`.
    margin, min_auc, max_psi, min_p, slope
        The checks' limits (a check runs when its limit is given).
    time, every, reference
        Time column, window length (a Polars duration) and the reference period
        ``(start, end)`` of the monitoring checks.
    direction, nan_policy
        As in :func:`polars_roc.areas.auc` (the calibration slope reads the scores as
        probabilities, whatever the direction).
    level
        Confidence level: tests at ``1 - level``; the AUC's interval.
    adjust
        None, ``"holm"``, ``"bonferroni"`` or ``"bh"`` over the non-inferiority tests.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``check, *by, value, limit, passed, reason``, checks in the order above.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> sim = pr.datasets.simulate(4000, models=["challenger", "champion"], seed=3)
    >>> gates = pr.checks(
    ...     sim, champion="champion", challenger="challenger", case="case", margin=0.02,
    ...     min_auc=0.7,
    ... )
    >>> gates.select("check", pl.col("value").round(4), "limit", "passed")
    shape: (2, 4)
    ┌─────────────────┬────────┬────────┬────────┐
    │ check           ┆ value  ┆ limit  ┆ passed │
    │ ---             ┆ ---    ┆ ---    ┆ ---    │
    │ str             ┆ f64    ┆ str    ┆ bool   │
    ╞═════════════════╪════════╪════════╪════════╡
    │ non_inferiority ┆ 0.0    ┆ < 0.05 ┆ true   │
    │ min_auc         ┆ 0.8575 ┆ >= 0.7 ┆ true   │
    └─────────────────┴────────┴────────┴────────┘
    >>> gates["reason"][1]
    'auc 0.8732 (lower bound 0.8575), 505 positives, 3495 negatives'
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, pos_label=pos_label)
    validate.column(schema, model, "model")
    validate.level(level)
    check_adjust(adjust)
    _check_arguments(champion, challenger, slope, max_psi, min_auc, min_p)
    if (max_psi is not None or time is not None) and (time is None or reference is None):
        msg = "the alert and psi checks need time=, every= and reference=\n\nHint: every='1mo'."
        raise ValueError(msg)
    if min_p is not None and not names:
        msg = "the disparity check needs by= (its last column holds the segments)"
        raise ValueError(msg)
    alpha = 1 - level
    models = pl.col(model).cast(pl.String)
    pair = [str(champion), str(challenger)]
    ordered = lf.filter(models.is_in(pair)).with_columns(models.cast(pl.Enum(pair)))
    mine = lf.filter(models == str(challenger))
    roles: dict[str, Any] = {"by": names, "pos_label": pos_label, "nan_policy": nan_policy}
    directed = {**roles, "direction": direction}
    out: list[pl.LazyFrame] = []
    if margin is not None:
        tested = compare(
            ordered, score, label, model=model, case=case, margin=margin, level=level,
            adjust=adjust, cluster=cluster, **directed,
        )  # fmt: skip
        p = pl.col("p_adjusted" if adjust else "p_value")
        reason = pl.format(
            "challenger - champion auc {} (p {}), margin {}",
            _rounded(-pl.col("diff")), _rounded(p), pl.lit(margin),
        )  # fmt: skip
        limit = pl.lit(f"< {alpha:.4g}")
        out.append(_rows(tested, "non_inferiority", names, p, limit, p < alpha, reason))
    if min_auc is not None:
        auc = areas.auc(mine, score, label, ci="delong", level=level, **directed)
        bound = pl.col("auc_lower")
        reason = pl.format(
            "auc {} (lower bound {}), {} positives, {} negatives",
            _rounded(pl.col("auc")), _rounded(bound), pl.col("n_pos"), pl.col("n_neg"),
        )  # fmt: skip
        limit = pl.lit(f">= {min_auc:.4g}")
        out.append(_rows(auc, "min_auc", names, bound, limit, bound >= min_auc, reason))
    if time is not None and every is not None and reference is not None:
        windows: dict[str, Any] = {"time": time, "every": every, "reference": reference}
        trend = _last_window(over_time(mine, score, label, **windows, **directed), names)
        alert = pl.col("alert")
        reason = pl.format(
            "window from {}: auc {}, band [{}, {}]",
            pl.col("window_start").cast(pl.String), _rounded(pl.col("estimate")),
            _rounded(pl.col("ref_lower")), _rounded(pl.col("ref_upper")),
        )  # fmt: skip
        limit = pl.format(
            "in [{}, {}]", _rounded(pl.col("ref_lower")), _rounded(pl.col("ref_upper"))
        )
        out.append(_rows(trend, "alert", names, pl.col("estimate"), limit, ~alert, reason))
        if max_psi is not None:
            stable = score_stability(
                mine, score, by=names, direction=direction, nan_policy=nan_policy, **windows
            )
            psi = pl.col("psi")
            reason = pl.format(
                "window from {}: psi {} over {} rows against {} reference rows",
                pl.col("window_start").cast(pl.String), _rounded(psi), pl.col("n"),
                pl.col("n_ref"),
            )  # fmt: skip
            limit = pl.lit(f"<= {max_psi:.4g}")
            last = _last_window(stable, names)
            out.append(_rows(last, "psi", names, psi, limit, psi <= max_psi, reason))
    if min_p is not None:
        segment, within = names[-1], names[:-1]
        gaps = disparity(
            mine, score, label, segment=segment, by=within or None, pos_label=pos_label,
            level=level, direction=direction, nan_policy=nan_policy,
        ).rename({"segment": segment})  # fmt: skip
        p = pl.col("p_adjusted")
        reason = pl.format(
            "auc {} against {} for the rest (holm p {})",
            _rounded(pl.col("estimate")), _rounded(pl.col("reference_estimate")), _rounded(p),
        )  # fmt: skip
        limit = pl.lit(f">= {min_p:.4g}")
        out.append(_rows(gaps, "disparity", names, p, limit, p >= min_p, reason))
    if slope is not None:
        lo, hi = slope
        fit = calibration_fit(mine, score, label, level=level, **roles)
        value = pl.col("slope")
        reason = pl.format("calibration slope {}", _rounded(value))
        limit = pl.lit(f"in [{lo:.4g}, {hi:.4g}]")
        out.append(
            _rows(fit, "calibration_slope", names, value, limit, value.is_between(lo, hi), reason)
        )
    if not out:
        msg = (
            "no check asked: give at least one limit\n\nHint: margin=0.02, min_auc=0.7, "
            "max_psi=0.25 (with time=, every=, reference=), min_p=0.05 or slope=(0.8, 1.2)."
        )
        raise ValueError(msg)
    assert tuple(out[0].collect_schema().names()) == ("check", *names, *CHECKS[1:])
    return pl.concat(out, how="vertical")
