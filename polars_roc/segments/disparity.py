"""
Disparity: which segment's metric differs from the rest (or the whole), and how surely.

:func:`disparity` compares each segment of each `by` group with a reference: the group's
other rows (``reference="rest"``) or all of its rows (``"overall"``). It lives in
:mod:`polars_roc.inference` (not beside :mod:`polars_roc.segments`) because any metric
other than the AUC is tested with the stratified bootstrap of
:mod:`polars_roc.inference.metric_bootstrap`, a layer above the analyses.

Both sides of every comparison are built as groups of one long query: each segment's rows,
and the same group's reference rows tagged with the segment (so the rows are read once per
segment; the work grows with ``rows × segments``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
import polars as pl

from polars_roc._core import delong, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction, flips, scored
from polars_roc._core.distributions import difference_test, normal_cdf, normal_quantile
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups
from polars_roc._core.names import fresh, suffixes_clashes
from polars_roc._core.validate import By
from polars_roc.inference.metric_bootstrap import bootstrap
from polars_roc.inference.multiple_testing import check_adjust, with_adjusted
from polars_roc.segments import _segment as segmented
from polars_roc.typing import Adjust

__all__ = ["COLUMNS", "bootstrap_test", "delong_test", "disparity", "gap_test", "sides"]

#: Output columns after the `by` columns.
COLUMNS = (
    "segment",
    "metric",
    "estimate",
    "reference_estimate",
    "diff",
    "diff_lower",
    "diff_upper",
    "ratio",
    "p_value",
    "p_adjusted",
)


def _check_metrics(metrics: Any) -> dict[str, pl.Expr] | None:
    """None, or a non-empty mapping of names to expressions."""
    if metrics is None:
        return None
    if (
        isinstance(metrics, Mapping)
        and metrics
        and all(isinstance(k, str) and isinstance(v, pl.Expr) for k, v in metrics.items())
    ):
        return dict(metrics)
    msg = (
        f"metrics must be None (the AUC) or a non-empty mapping of names to expressions, "
        f'got {metrics!r}\n\nHint: metrics={{"brier": pr.brier_score("score", "label")}}.'
    )
    raise ValueError(msg)


def sides(
    lf: pl.LazyFrame,
    key: str,
    names: list[str],
    reference: str,
    tag: str,
    side: str,
    *,
    tested: pl.LazyFrame | None = None,
) -> pl.LazyFrame:
    """
    Each segment's rows (`side` true) and its reference rows (`side` false), `tag` naming it.

    ``"rest"``: every row of the group tagged with every segment of the group, on the
    segment's side when it is its own; ``"overall"``: every row on the reference side of
    every segment, plus each row on its own segment's side. `tested` (``*names, tag``)
    limits the segments tagged (default: every segment in `lf`).
    """
    segments = lf.select(*names, pl.col(key).alias(tag)).unique() if tested is None else tested
    spread = join_groups(lf, segments, names, how="inner")
    if reference == "rest":
        return spread.with_columns(pl.col(key).eq_missing(pl.col(tag)).alias(side))
    own = lf.with_columns(pl.col(key).alias(tag), pl.lit(True).alias(side))
    return pl.concat([own, spread.with_columns(pl.lit(False).alias(side))], how="vertical")


def _paired_sides(
    table: pl.LazyFrame, keys: list[str], side: str, value: str, extra: list[str]
) -> pl.LazyFrame:
    """The segment side's `value` and `extra` columns beside the reference side's (``_r``)."""
    own = table.filter(pl.col(side)).select(*keys, value, *extra)
    other = table.filter(~pl.col(side)).select(
        *keys,
        pl.col(value).alias("reference_estimate"),
        *(pl.col(c).alias(f"{c}_r") for c in extra),
    )
    return own.join(other, on=keys, how="full", nulls_equal=True, coalesce=True)


def delong_test(
    spread: pl.LazyFrame,
    score: str,
    label: str,
    *,
    names: list[str],
    tag: str,
    side: str,
    weight: str | None,
    pos_label: Any,
    level: float,
) -> pl.LazyFrame:
    """
    The AUC of each side of `spread` (:func:`sides`), and pROC's unpaired DeLong test of their gap.

    Per group `names` and segment `tag`: ``estimate`` (the `side` rows' AUC),
    ``reference_estimate``, ``diff`` with its interval at `level`, and the two-sided
    ``p_value`` (Student's t with Welch-type degrees of freedom). The kernel of
    :func:`disparity` and of :func:`polars_roc.slices.slices`.
    """
    _, table = delong.delong_table(
        spread, score, label, names=[*names, tag, side], weight=weight, pos_label=pos_label
    )
    table = table.with_columns(
        estimate=pl.col("auc"), _n=(pl.col("n_pos") + pl.col("n_neg")).cast(pl.Float64)
    )
    both = _paired_sides(table, [*names, tag], side, "estimate", ["_var", "_n"])
    tested = gap_test(both, level)
    return tested.select(
        *names,
        tag,
        "metric",
        "estimate",
        "reference_estimate",
        "diff",
        "diff_lower",
        "diff_upper",
        "p_value",
    )


def gap_test(both: pl.LazyFrame, level: float) -> pl.LazyFrame:
    """
    The unpaired DeLong test of ``estimate - reference_estimate`` from each side's variance.

    `both` holds ``estimate, reference_estimate`` and each side's DeLong variance and row
    count (``_var, _n`` and ``_var_r, _n_r``); adds ``metric, diff, diff_lower, diff_upper,
    p_value`` (Student's t with Welch-type degrees of freedom, pROC's ``roc.test(paired=
    FALSE)``).
    """
    v_a, v_b = pl.col("_var"), pl.col("_var_r")
    sd = pl.col("_sd")
    welch = (v_a + v_b) ** 2 / (v_a**2 / (pl.col("_n") - 1) + v_b**2 / (pl.col("_n_r") - 1))
    return (
        both.with_columns(
            metric=pl.lit("auc"),
            diff=pl.col("estimate") - pl.col("reference_estimate"),
            _sd=(v_a + v_b).sqrt(),
            paired=pl.lit(False),
        )
        .with_columns(
            statistic=pl.when(sd > 0).then(pl.col("diff") / sd),
            df=pl.when(sd > 0).then(welch),
        )
        .with_columns(_test=difference_test("two-sided", level))
        .unnest("_test")
    )


def _normal_test(level: float) -> pl.Expr:
    """p-value and interval of ``diff`` from its standard error ``_se`` (two-sided normal)."""
    z = normal_quantile((1 + level) / 2)

    def compute(s: pl.Series) -> pl.Series:
        diff = s.struct.field("diff").cast(pl.Float64).fill_null(np.nan).to_numpy()
        se = s.struct.field("_se").cast(pl.Float64).fill_null(np.nan).to_numpy()
        with np.errstate(divide="ignore", invalid="ignore"):
            p = np.where(se > 0, 2 * normal_cdf(-np.abs(diff / se)), np.nan)
        out = pl.DataFrame({"p_value": p, "diff_lower": diff - z * se, "diff_upper": diff + z * se})
        return out.fill_nan(None).to_struct(s.name)

    dtype = pl.Struct({"p_value": pl.Float64, "diff_lower": pl.Float64, "diff_upper": pl.Float64})
    return pl.struct("diff", "_se").map_batches(compute, return_dtype=dtype, is_elementwise=True)


def bootstrap_test(
    spread: pl.LazyFrame,
    metrics: dict[str, pl.Expr],
    *,
    label: str,
    names: list[str],
    tag: str,
    side: str,
    n_boot: int,
    seed: int | None,
    level: float,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    Each metric on each side of `spread` (:func:`sides`) with its bootstrap standard error.

    The sides are resampled apart (:func:`polars_roc.inference.bootstrap`, strata: the
    `label` classes), so ``se(diff) = sqrt(se² + se_r²)``; ``diff`` gets the normal
    interval at `level` and the two-sided normal p-value. The kernel of :func:`disparity`
    and of :func:`polars_roc.slices.slices` with ``metrics=``.

    Parameters
    ----------
    spread
        The rows of both sides, tagged by `tag` (the segment) and `side`.
    metrics
        ``{name: scalar expression}``.
    label
        The class column (the bootstrap's strata).
    names
        The `by` columns.
    tag, side
        The columns naming each row's segment and its side.
    n_boot, seed, level
        Bootstrap replicates, random seed and the interval's level.
    progress
        A progress bar while the bootstrap runs (as :func:`polars_roc.inference.bootstrap`).
    """
    boot = bootstrap(
        spread,
        metrics,
        by=[*names, tag, side],
        label=label,
        n_boot=n_boot,
        seed=seed,
        level=level,
        progress=progress,
    )
    both = _paired_sides(boot, [*names, tag, "metric"], side, "estimate", ["se"])
    tested = (
        both.with_columns(
            diff=pl.col("estimate") - pl.col("reference_estimate"),
            _se=(pl.col("se") ** 2 + pl.col("se_r") ** 2).sqrt(),
        )
        .with_columns(_test=_normal_test(level))
        .unnest("_test")
    )
    return tested.select(
        *names,
        tag,
        "metric",
        "estimate",
        "reference_estimate",
        "diff",
        "diff_lower",
        "diff_upper",
        "p_value",
    )


def _adjusted(
    lf: pl.LazyFrame, families: list[str], adjust: Adjust | None, *, rest: bool
) -> pl.LazyFrame:
    """
    ``p_adjusted`` within each family (group and metric); the p-value when `adjust` is None.

    Against the rest, a family of two tested segments holds one comparison: "a against
    the rest" is "a against b", the same difference with its sign turned and the same
    p-value as "b against the rest". Adjusting over both rows would count that test twice,
    so such a family's ``p_adjusted`` is its ``p_value``.
    """
    if adjust is None:
        return lf.with_columns(p_adjusted=pl.col("p_value"))
    return with_adjusted(lf, adjust, by=families, pairs_are_one=rest)


@segmented.checked
@same_kind
@suffixes_clashes
def disparity(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    segment: str,
    by: By = None,
    metrics: Mapping[str, pl.Expr] | None = None,
    reference: Literal["rest", "overall"] = "rest",
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    n_boot: int = 2000,
    seed: int | None = 0,
    level: float = 0.95,
    adjust: Adjust | None = "holm",
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    Each segment's metric against a reference, with an interval, a p-value and its adjustment.

    Per `by` group, segment and metric: ``estimate`` on the segment's rows, ``reference_estimate``
    on the reference rows (``"rest"``: the group's other rows; ``"overall"``: all of them),
    ``diff = estimate - reference_estimate`` with its interval, ``ratio = estimate /
    reference_estimate``, the two-sided ``p_value`` of ``diff = 0`` and ``p_adjusted`` (Holm,
    Bonferroni or Benjamini-Hochberg over the segments of each group and metric; against
    the rest, two segments are one comparison, so their ``p_adjusted`` is their p-value).

    * ``metrics=None``: the AUC (honouring `weight` and `pos_label`), with the unpaired
      DeLong test (pROC's ``roc.test(paired=FALSE)``): ``D = diff / sqrt(V_a + V_b)``
      against Student's t with Welch-type degrees of freedom. Against the rest the two
      row sets are disjoint, as the test assumes.
    * ``metrics={name: expression}``: any scalar expressions (``pr.auc``,
      ``pr.brier_score``, the user's own), each side resampled by the stratified bootstrap
      of :func:`polars_roc.inference.bootstrap` (strata: the label's classes; `n_boot`,
      `seed`); the two sides are resampled apart, so ``se(diff) = sqrt(se_a² + se_b²)``
      and the interval and p-value are normal ones. The expressions carry their own weight
      and positive class, and read the score as given (`direction` is the AUC's).

    With ``reference="overall"`` the segment's rows are on both sides; both tests treat
    the sides as independent, which overstates the variance of the gap (a conservative
    test): prefer ``"rest"`` for testing, ``"overall"`` for describing.

    Parameters
    ----------
    lf
        Scored rows.
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    segment
        The column naming each row's segment; not a `by` column.
    metrics
        None (the AUC, DeLong) or ``{name: scalar expression}`` (bootstrap).
    reference
        ``"rest"`` or ``"overall"``.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"``; never guessed.
    nan_policy
        NaN scores: ``"propagate"`` (default), ``"omit"`` or ``"raise"``.
    n_boot, seed
        Bootstrap replicates and random seed (with `metrics`).
    level
        Confidence level of the interval of ``diff``.
    adjust
        ``"holm"`` (default), ``"bonferroni"``, ``"bh"``, or None (``p_adjusted`` is then
        the p-value).
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame). ``*by, segment, metric,
        estimate, reference_estimate, diff, diff_lower, diff_upper, ratio, p_value, p_adjusted``,
        sorted by group, segment (nulls last) and metric in the order given.
        A `by` column named like one of these keeps its name; ours takes a trailing
        underscore (e.g. ``segment_``), with a ``UserWarning`` naming both.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pr.datasets.simulate(600, seed=4).filter(pl.col("model") == "logit")
    >>> df = df.with_columns(region=pl.int_range(pl.len()) % 3)
    >>> out = df.roc.disparity(segment="region")
    >>> out.select("segment", "estimate", "reference_estimate", "diff", "p_value", "p_adjusted")
    shape: (3, 6)
    ┌─────────┬──────────┬────────────────────┬───────────┬──────────┬────────────┐
    │ segment ┆ estimate ┆ reference_estimate ┆ diff      ┆ p_value  ┆ p_adjusted │
    │ ---     ┆ ---      ┆ ---                ┆ ---       ┆ ---      ┆ ---        │
    │ i64     ┆ f64      ┆ f64                ┆ f64       ┆ f64      ┆ f64        │
    ╞═════════╪══════════╪════════════════════╪═══════════╪══════════╪════════════╡
    │ 0       ┆ 0.773714 ┆ 0.880558           ┆ -0.106843 ┆ 0.084387 ┆ 0.253162   │
    │ 1       ┆ 0.864914 ┆ 0.831859           ┆ 0.033055  ┆ 0.515927 ┆ 0.515927   │
    │ 2       ┆ 0.894919 ┆ 0.824171           ┆ 0.070747  ┆ 0.185372 ┆ 0.370745   │
    └─────────┴──────────┴────────────────────┴───────────┴──────────┴────────────┘
    """
    names = validate.as_names(by)
    exprs = _check_metrics(metrics)
    if reference not in ("rest", "overall"):
        msg = f"reference must be 'rest' or 'overall', got {reference!r}\n\nHint: reference='rest'."
        raise ValueError(msg)
    validate.level(level)
    check_adjust(adjust)
    flips(direction)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    keyed, key = segmented.keyed(lf, segment)
    taken = [*schema.names(), key]
    tag, side = fresh("__roc_tag", taken), fresh("__roc_side", taken)
    spread = sides(keyed, key, names, reference, tag, side)
    if exprs is None:
        # The AUC reads the score in its direction; the metrics read the rows as given.
        tested = delong_test(
            scored(spread, score, direction),
            score,
            label,
            names=names,
            tag=tag,
            side=side,
            weight=weight,
            pos_label=pos_label,
            level=level,
        )
        order = ["auc"]
    else:
        validate.n_boot(n_boot)
        validate.seed(seed)
        tested = bootstrap_test(
            spread,
            exprs,
            label=label,
            names=names,
            tag=tag,
            side=side,
            n_boot=n_boot,
            seed=seed,
            progress=progress,
            level=level,
        )
        order = list(exprs)
    ratio = pl.when(pl.col("reference_estimate") != 0).then(
        pl.col("estimate") / pl.col("reference_estimate")
    )
    metric_order = pl.col("metric").replace_strict(order, list(range(len(order))))
    out = (
        tested.rename({tag: "segment"})
        .with_columns(ratio=ratio, _order=metric_order)
        .sort([*names, "segment", "_order"], nulls_last=True, maintain_order=True)
    )
    rest = reference == "rest"
    return _adjusted(out, [*names, "metric"], adjust, rest=rest).select(*names, *COLUMNS)
