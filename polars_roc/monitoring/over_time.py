"""
Model performance over time: any metric per window, its interval, a reference band, alerts.

:func:`over_time` lives here, in layer 3, because its bootstrap intervals are the metric
bootstrap's (:func:`polars_roc.inference.bootstrap`), which sits above the analyses; the
parts that need no resampling (windows, reference rows, the band, score stability, the
estimated AUC) are in :mod:`polars_roc.monitoring`, one layer down, and are read from there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import polars as pl

from polars_roc import areas
from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, summarize
from polars_roc._core.kernels import class_totals, rows
from polars_roc._core.names import PREFIX, fresh, suffixes_clashes
from polars_roc._core.validate import By
from polars_roc.exprs.ranking import auc
from polars_roc.inference.metric_bootstrap import bootstrap
from polars_roc.monitoring import frame as monitoring

__all__ = ["OVER_TIME_COLUMNS", "over_time"]

#: over_time's columns after the `by` columns.
OVER_TIME_COLUMNS = (
    "window_start",
    "window_end",
    "metric",
    "estimate",
    "lower",
    "upper",
    "n",
    "n_pos",
    "ref_mean",
    "ref_lower",
    "ref_upper",
    "alert",
)


def _metrics(metrics: Any, default: pl.Expr) -> dict[str, pl.Expr]:
    """The metrics mapping: the AUC when None, else a non-empty mapping of expressions."""
    if metrics is None:
        return {"auc": default}
    if not isinstance(metrics, Mapping) or not metrics:
        msg = (
            f"metrics must be None (the AUC) or a non-empty mapping of names to expressions, "
            f'got {metrics!r}\n\nHint: metrics={{"auc": pr.auc("score", "label")}}.'
        )
        raise ValueError(msg)
    for name, expr in metrics.items():
        if not isinstance(name, str) or not isinstance(expr, pl.Expr):
            msg = (
                f"metrics maps {name!r} to {expr!r}: expected a str name and a pl.Expr"
                '\n\nHint: metrics={"auc": pr.auc("score", "label")}.'
            )
            raise ValueError(msg)
    return dict(metrics)


@same_kind
@suffixes_clashes
def over_time(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    time: str,
    every: str,
    period: str | None = None,
    by: By = None,
    metrics: Mapping[str, pl.Expr] | None = None,
    ci: Literal["delong", "bootstrap"] | None = None,
    n_boot: int = 2000,
    seed: int | None = 0,
    level: float = 0.95,
    reference: tuple[Any, Any] | pl.Expr | None = None,
    k: float = 3.0,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    Metrics per time window with intervals, the reference band and alerts, per segment.

    The windows are ``group_by_dynamic(time, every=every, period=period, group_by=by)``'s
    (:func:`polars_roc.monitoring.windows`). In each, every metric is computed on the
    window's rows: by default the AUC (:func:`polars_roc.areas.auc`, the same numbers as
    ``df.roc.auc`` on the window), or any mapping of scalar expressions. Intervals:

    * ``ci="delong"``: the AUC's DeLong interval (``df.roc.auc(ci="delong")`` on the
      window); the default metric only;
    * ``ci="bootstrap"``: the stratified percentile bootstrap of every metric, exactly
      :func:`polars_roc.inference.bootstrap` ``(metrics, by=[*by, "window_start"])`` on the
      window's rows (the window's start is part of the random stream's key).

    With a `reference`, the reference windows are those whose rows all lie in it
    (:func:`polars_roc.monitoring.reference_rows`: a ``(start, end)`` pair of the time
    column, ends included, or a Boolean expression); per group and metric ``ref_mean`` is
    the mean of their estimates and ``ref_lower, ref_upper`` are ``ref_mean ∓ k · sd`` (sd
    with ddof 1, as NannyML's thresholds), and `alert` is true for a window outside the
    reference whose estimate leaves the band (:func:`polars_roc.monitoring.reference_band`).

    A window with one class gets null metrics and intervals with its counts, never an
    error; undefined alerts are null. Lazy in, lazy out (the bootstrap runs per window
    inside the query when it is collected).

    Parameters
    ----------
    lf
        Scored, labelled rows with a time column.
    score, label, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    time
        Date, Datetime (any unit or zone) or integer column.
    every, period
        Polars duration strings (``"1mo"``, ``"1w"``, ``"10i"``); `period` defaults to
        `every` (tumbling windows); a longer period gives overlapping windows.
    by
        Segment columns: windows, bands and alerts per segment.
    metrics
        ``{name: scalar expression}``; default ``{"auc": pr.auc(score, label, ...)}``.
    ci
        None, ``"delong"`` (the AUC only) or ``"bootstrap"``.
    n_boot, seed, level
        Bootstrap replicates, seed and the intervals' level.
    reference
        The reference period: ``(start, end)`` or a Boolean expression; None gives null
        bands and alerts.
    k
        Width of the band in standard deviations of the reference windows' estimates.
    direction, nan_policy
        As everywhere; `direction` applies to the default AUC.
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, window_start, window_end, metric, estimate, lower, upper, n, n_pos,
        ref_mean, ref_lower, ref_upper, alert``, sorted by group and window, metrics in the
        order given; `n` and `n_pos` the window's counted rows (weight sums when weighted).
        A `by` column named like one of these keeps its name; ours takes a trailing
        underscore (e.g. ``metric_``), with a ``UserWarning`` naming both.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "week": [1] * 4 + [2] * 4 + [3] * 4 + [4] * 4,
    ...         "score": [0.9, 0.8, 0.3, 0.1] * 3 + [0.2, 0.3, 0.8, 0.9],
    ...         "label": [1, 1, 0, 0] * 4,
    ...     }
    ... )
    >>> out = df.roc.over_time(time="week", every="1i", reference=(1, 3), k=3.0)
    >>> out.select("window_start", "estimate", "n", "n_pos", "ref_mean", "alert")
    shape: (4, 6)
    ┌──────────────┬──────────┬─────┬───────┬──────────┬───────┐
    │ window_start ┆ estimate ┆ n   ┆ n_pos ┆ ref_mean ┆ alert │
    │ ---          ┆ ---      ┆ --- ┆ ---   ┆ ---      ┆ ---   │
    │ i64          ┆ f64      ┆ i64 ┆ i64   ┆ f64      ┆ bool  │
    ╞══════════════╪══════════╪═════╪═══════╪══════════╪═══════╡
    │ 1            ┆ 1.0      ┆ 4   ┆ 2     ┆ 1.0      ┆ false │
    │ 2            ┆ 1.0      ┆ 4   ┆ 2     ┆ 1.0      ┆ false │
    │ 3            ┆ 1.0      ┆ 4   ┆ 2     ┆ 1.0      ┆ false │
    │ 4            ┆ 0.0      ┆ 4   ┆ 2     ┆ 1.0      ┆ true  │
    └──────────────┴──────────┴─────┴───────┴──────────┴───────┘

    Weeks 1 to 3 are the reference (their alerts are false); week 4 leaves their band.
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    if ci is not None:
        validate.ci(ci, ("delong", "bootstrap"))
    validate.level(level)
    if ci == "delong" and metrics is not None:
        msg = (
            "ci='delong' gives the AUC's interval only; custom metrics need ci='bootstrap'"
            "\n\nHint: drop metrics= (the default is the AUC) or pass ci='bootstrap'."
        )
        raise ValueError(msg)
    options: dict[str, Any] = {"pos_label": pos_label} if pos_label is not None else {}
    if weight is not None:
        options["weight"] = weight
    if direction != "higher":
        options["direction"] = direction
    chosen = _metrics(metrics, auc(score, label, **options))

    taken = list(schema)
    ws, we, flag = (fresh(f"{PREFIX}_{part}", taken) for part in ("ws", "we", "ref"))
    is_ref = (
        pl.lit(False)
        if reference is None
        else monitoring.reference_rows(reference, time, schema[time])
    )
    windowed = monitoring.windows(
        lf.with_columns(is_ref.alias(flag)),
        time,
        every=every,
        period=period,
        by=names,
        start=ws,
        end=we,
    )
    keys = [*names, ws, we]
    n_pos, n_neg = class_totals(rows(score, label, weight=weight, pos_label=pos_label))
    counts = summarize(
        windowed,
        keys,
        [(n_pos + n_neg).alias("n"), n_pos.alias("n_pos"), pl.col(flag).all().alias(flag)],
    )
    none = pl.lit(None, dtype=pl.Float64)
    if ci == "bootstrap":
        boot = bootstrap(
            windowed,
            chosen,
            by=[*names, ws],
            label=label,
            n_boot=n_boot,
            seed=seed,
            level=level,
            progress=progress,
        )
        estimates = join_groups(counts, boot, [*names, ws], how="inner")
    elif metrics is None:
        table = areas.auc(windowed, score, label, by=keys, ci=ci, level=level, **options)
        interval = (
            [pl.col("auc_lower").alias("lower"), pl.col("auc_upper").alias("upper")]
            if ci == "delong"
            else [none.alias("lower"), none.alias("upper")]
        )
        estimates = join_groups(
            counts,
            table.select(
                *keys, pl.lit("auc").alias("metric"), pl.col("auc").alias("estimate"), *interval
            ),
            keys,
        )
    else:
        aliases = {f"{PREFIX}_m{i}": name for i, name in enumerate(chosen)}
        wide = summarize(
            windowed,
            keys,
            [
                expr.cast(pl.Float64).alias(a)
                for a, expr in zip(aliases, chosen.values(), strict=True)
            ],
        )
        long = wide.unpivot(
            index=keys, on=list(aliases), variable_name="metric", value_name="estimate"
        ).with_columns(
            pl.col("metric").replace_strict(aliases, return_dtype=pl.String),
            lower=none,
            upper=none,
        )
        estimates = join_groups(counts, long, keys)
    rank = pl.col("metric").replace_strict({name: i for i, name in enumerate(chosen)})
    ordered = estimates.sort([*names, ws, rank], nulls_last=True)
    band = monitoring.reference_band(
        ordered.with_columns(pl.col("estimate").fill_nan(None)),
        [*names, "metric"],
        reference=flag,
        k=k,
    )
    return band.select(
        *names,
        pl.col(ws).alias("window_start"),
        pl.col(we).alias("window_end"),
        *OVER_TIME_COLUMNS[2:],
    )
