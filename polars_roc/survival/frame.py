"""
Survival outcomes: cumulative/dynamic AUC(t) with inverse-probability-of-censoring weights.

For a horizon ``t``, the **cases** are the rows with an event at or before ``t``
(``time <= t`` and ``event``) and the **controls** the rows still event-free after ``t``
(``time > t``); rows censored at or before ``t`` are neither. Each case counts with the weight
``1 / G(time)``, where ``G`` is the Kaplan–Meier curve of the *censoring* times of its group
(Uno et al. 2007; Hung & Chiang 2010), and each control with weight 1; AUC(t) is then the
weighted AUC of the package's kernel (ties in the score count one half). This is
scikit-survival's ``cumulative_dynamic_auc`` with the same rows as train and test data.

Ties in time, as scikit-survival: at a tied time, events come before censorings, so
``G(t) = Π_{s <= t} (1 - c_s / (r_s - d_s))`` with ``r_s`` the rows at risk at ``s``
(``time >= s``), ``d_s`` the events and ``c_s`` the censorings at ``s``; a case is weighted by
``G`` at its own time, censorings at that time included; ``censoring_at="before"`` weighs it
by ``G(T-)``, the curve of the earlier times only, as riskRegression's ``Score`` does. ``G``
is a running product per group (:mod:`polars_roc.survival._dynamic`: the rows sorted by group
and time and by group and score, no Python loop over rows).

``mean_auc`` weighs AUC(t_k) by the drop of the Kaplan–Meier survival curve ``S`` of the
group over ``(t_{k-1}, t_k]`` (``t_0`` with S = 1), divided by ``1 - S(t_K)``, as
scikit-survival does.

Case weights (``weight=``, frequencies) multiply the IPCW weights of the cases and weigh
the controls; both Kaplan–Meier curves are weighted (``r_s``, ``d_s``, ``c_s`` are weight
sums), so that an integer weight k is the row repeated k times.

A horizon before the first event has no cases, one at or after the last time no controls:
its AUC is null and ``n_cases`` / ``n_controls`` show why. A case whose censoring curve has
dropped to 0 (every row still at risk censored at once) cannot be weighted: the horizons it
belongs to are null.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame(
...     {
...         "risk": [0.9, 0.5, 0.7, 0.6, 0.8, 0.4, 0.3, 0.45],
...         "days": [10, 40, 25, 90, 60, 120, 150, 200],
...         "died": [1, 1, 0, 1, 0, 1, 0, 0],
...     }
... )
>>> df.roc.time_auc("risk", time="days", event="died", horizons=[50, 100])
shape: (2, 5)
┌─────────┬──────────┬─────────┬────────────┬──────────┐
│ horizon ┆ auc      ┆ n_cases ┆ n_controls ┆ mean_auc │
│ ---     ┆ ---      ┆ ---     ┆ ---        ┆ ---      │
│ i64     ┆ f64      ┆ u32     ┆ u32        ┆ f64      │
╞═════════╪══════════╪═════════╪════════════╪══════════╡
│ 50      ┆ 0.784615 ┆ 2       ┆ 5          ┆ 0.871264 │
│ 100     ┆ 1.0      ┆ 3       ┆ 3          ┆ 0.871264 │
└─────────┴──────────┴─────────┴────────────┴──────────┘
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import polars as pl

from polars_roc._core import labels, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.compat import opaque
from polars_roc._core.counts import roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import in_memory, same_kind
from polars_roc._core.names import fresh
from polars_roc._core.progress import Ticks, ticks
from polars_roc._core.resampling import group_rng
from polars_roc._core.validate import By
from polars_roc.survival._dynamic import case_weights, dynamic_table, sorted_rows

__all__ = ["time_auc", "time_curve"]

#: Output columns of :func:`time_auc` after `by`.
_TIME_AUC_COLUMNS = ("horizon", "auc", "n_cases", "n_controls", "mean_auc")


def _horizons(horizons: Any) -> list[float]:
    values = [horizons] if isinstance(horizons, int | float) else horizons
    try:
        out = [float(h) for h in values]
    except (TypeError, ValueError):
        out = []
    if not out or any(h != h or h < 0 for h in out) or isinstance(horizons, bool):
        msg = (
            f"horizons must be one or more non-negative numbers, got {horizons!r}"
            "\n\nHint: horizons=[90, 180, 365] (in the time column's units)."
        )
        raise ValueError(msg)
    return sorted(set(out))


def _before(censoring_at: Any) -> bool:
    """True for ``censoring_at="before"`` (``G(T-)``), False for ``"time"``; else an error."""
    validate.choice(censoring_at, ("time", "before"), "censoring_at")
    return bool(censoring_at == "before")


def _horizon_column(horizon: pl.Expr, points: list[float], dtype: pl.DataType) -> pl.Expr:
    """The horizons as Int64 on an integer time column when each is one, else as Float64."""
    whole = all(p == int(p) and p < 2**63 for p in points)  # 2**63 and above leave Int64
    return horizon.cast(pl.Int64) if whole and dtype.is_integer() else horizon


def _checked_event(event: str, dtype: pl.DataType) -> pl.Expr:
    if dtype == pl.Boolean:
        return pl.col(event)
    if not dtype.is_integer():
        msg = (
            f"event column {event!r} must be Boolean or 0/1 integers, got {dtype}"
            "\n\nHint: event=True (or 1) for an observed event, False (or 0) for censoring."
        )
        raise pl.exceptions.SchemaError(msg)

    def check(values: pl.Series) -> pl.Series:
        bad = values.drop_nulls().filter(~values.drop_nulls().is_in([0, 1]))
        if bad.len() > 0:
            msg = (
                f"event column {event!r} holds {bad.unique().head(5).to_list()}, not 0/1"
                "\n\nHint: 1 for an observed event, 0 for censoring."
            )
            raise ValueError(msg)
        return values == 1

    return pl.col(event).map_batches(check, return_dtype=pl.Boolean, is_elementwise=True)


def _checked_time(time: str, dtype: pl.DataType) -> pl.Expr:
    if not dtype.is_numeric():
        msg = (
            f"time column {time!r} must be numeric (e.g. days), got {dtype}"
            "\n\nHint: convert dates to durations first, e.g. "
            "(pl.col('end') - pl.col('start')).dt.total_days()."
        )
        raise pl.exceptions.SchemaError(msg)

    def check(values: pl.Series) -> pl.Series:
        if values.dtype.is_float() and values.is_nan().any():
            msg = (
                f"time column {time!r} holds {values.is_nan().sum()} NaN time(s)"
                "\n\nHint: use null for an unknown time (the row is left out), or fill it."
            )
            raise ValueError(msg)
        negative = values.drop_nulls().filter(values.drop_nulls() < 0)
        if negative.len() > 0:
            msg = (
                f"time column {time!r} holds {negative.len()} negative time(s), e.g. "
                f"{negative.head(3).to_list()}\n\nHint: times are durations from a start, >= 0."
            )
            raise ValueError(msg)
        return values.cast(pl.Float64)

    return pl.col(time).map_batches(check, return_dtype=pl.Float64, is_elementwise=True)


def _checked_weight(weight: str, schema: pl.Schema) -> pl.Expr:
    """The case weights as Float64, checked (finite, non-negative) when the rows are read."""
    validate.weight_column(schema, weight)
    return labels.weight(weight)


def _rows(
    lf: pl.LazyFrame,
    score: str,
    *,
    time: str,
    event: str,
    names: list[str],
    weight: str | None = None,
) -> tuple[pl.LazyFrame, list[str], dict[str, str]]:
    """
    ``*keys, score, _t, _e`` (+ ``_k``, the case weight): the checked rows.

    ``_t`` is null where a row does not count (a null score, time, event or weight, or a
    zero weight); such rows stay, so that a group in which no row counts keeps its rows
    (null AUCs, zero counts).
    """
    schema = lf.collect_schema()
    for role, column in (("score", score), ("time", time), ("event", event)):
        validate.column(schema, column, role)
    for column in names:
        validate.column(schema, column, "by")
    taken = [*schema.names(), *names]
    own = {k: fresh(f"_{k}", taken) for k in ("t", "e", "h", "y", "w", "g", "u", "k")}
    t, e = pl.col(own["t"]), pl.col(own["e"])
    weights = [] if weight is None else [_checked_weight(weight, schema).alias(own["k"])]
    rows = lf.select(
        *names,
        pl.col(score),
        _checked_time(time, schema[time]).alias(own["t"]),
        _checked_event(event, schema[event]).alias(own["e"]),
        *weights,
    )
    keys = names or [own["g"]]
    if not names:
        rows = rows.with_columns(pl.lit(True).alias(own["g"]))
    counts = pl.col(score).is_not_null() & t.is_not_null() & e.is_not_null()
    if weight is not None:
        counts &= pl.col(own["k"]).is_not_null() & (pl.col(own["k"]) > 0)
    return rows.with_columns(pl.when(counts).then(t).alias(own["t"])), keys, own


def _weighted(
    rows: pl.LazyFrame, keys: list[str], own: dict[str, str], *, weighted: bool, before: bool
) -> pl.LazyFrame:
    """The rows with ``_w``: ``1 / G(time)`` (``G(time-)``) for a counted event, else 1."""
    case = own["k"] if weighted else None

    def weights(df: pl.DataFrame) -> pl.DataFrame:
        order = sorted_rows(df, keys, time=own["t"], event=own["e"], weight=case)
        ipcw = case_weights(order, df.height, before=before)
        return df.with_columns(pl.Series(own["w"], ipcw))

    schema = rows.collect_schema()
    schema[own["w"]] = pl.Float64()
    return opaque(rows, weights, schema=schema)


def _expanded(
    weighted: pl.LazyFrame,
    score: str,
    horizons: list[float],
    own: dict[str, str],
    *,
    case_weight: bool,
) -> pl.LazyFrame:
    """
    One row per counted row and horizon where it is a case or a control (for curves).

    A case weighs its case weight times ``1 / G``, a control its case weight. A row that
    does not count stays once per horizon with a null score, so that its group keeps its
    start row, as the curve of a group without counted rows does.
    """
    grid = pl.LazyFrame({own["h"]: horizons}, schema={own["h"]: pl.Float64})
    t, e, h = pl.col(own["t"]), pl.col(own["e"]), pl.col(own["h"])
    k = pl.col(own["k"]) if case_weight else pl.lit(1.0)
    case, control = e & (t <= h), t > h
    ipcw = pl.col(own["w"]) if not case_weight else pl.col(own["w"]) * k
    return (
        weighted.join(grid, how="cross")
        .filter(case | control | t.is_null())
        .with_columns(
            case.fill_null(value=False).alias(own["y"]),
            pl.when(case).then(ipcw).otherwise(k).alias(own["w"]),
            pl.when(t.is_not_null()).then(pl.col(score)).alias(score),
        )
    )


def _auc_table(
    rows: pl.LazyFrame,
    score: str,
    keys: list[str],
    horizons: list[float],
    own: dict[str, str],
    *,
    weighted: bool,
    before: bool,
) -> pl.LazyFrame:
    """
    ``*keys, _h, auc, n_cases, n_controls, mean_auc`` from two sorts (``survival._dynamic``).

    One row per group and horizon, sorted by the keys (nulls last) and the horizon. The
    counts are UInt32 row counts, or Float64 sums of the case weights when `weighted`.
    ``mean_auc`` (:func:`time_auc`) is summed over the horizons in their order.
    """
    schema = rows.collect_schema()
    size = pl.Float64() if weighted else pl.UInt32()
    columns: dict[str, pl.DataType] = {k: schema[k] for k in keys}
    columns.update(
        {own["h"]: pl.Float64(), "auc": pl.Float64(), "n_cases": size, "n_controls": size},
        mean_auc=pl.Float64(),
    )
    out_schema = pl.Schema(columns)
    n_horizons = len(horizons)
    grid = np.asarray(horizons, dtype=np.float64)
    case = own["k"] if weighted else None

    def table(df: pl.DataFrame) -> pl.DataFrame:
        order = sorted_rows(df, keys, time=own["t"], event=own["e"], score=score, weight=case)
        found = dynamic_table(order, df.height, grid, before=before)
        counts, has_nan, n_groups = found.counts, found.has_nan, order.keys.height
        with np.errstate(divide="ignore", invalid="ignore"):
            auc = counts.u / (counts.case_weight * counts.controls)
        defined = (counts.cases > 0) & (counts.controls > 0) & ~has_nan[:, None]
        defined &= ~found.unweighted
        auc = np.where(defined, auc, np.nan)
        repeated = order.keys.select(pl.all().repeat_by(n_horizons).explode())
        long = pl.DataFrame(
            {
                own["h"]: np.tile(grid, n_groups),
                "auc": auc.ravel(),
                "n_cases": counts.cases.ravel(),
                "n_controls": counts.controls.ravel(),
                "mean_auc": np.repeat(_mean_auc(auc, found.survival), n_horizons),
            }
        ).fill_nan(None)
        out = pl.concat([repeated, long], how="horizontal")
        return out.cast(out_schema).select(out_schema.names())

    needed = [*keys, score, own["t"], own["e"], *([] if case is None else [case])]
    return opaque(rows.select(needed), table, schema=out_schema)


def _mean_auc(auc: np.ndarray, survival: np.ndarray) -> np.ndarray:
    """
    Per group: AUC(t_k) weighted by the drop of ``S`` over ``(t_{k-1}, t_k]``, over ``1 - S(t_K)``.

    NaN (null) where an AUC is undefined or ``S`` never drops (scikit-survival's weights).
    """
    total, before = np.zeros(len(auc)), np.ones(len(auc))
    for j in range(auc.shape[1]):  # left to right, as a sum over the horizons
        total += auc[:, j] * (before - survival[:, j])
        before = survival[:, j]
    last = before
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / (1 - last)
    defined = ~np.isnan(auc).any(axis=1) & (last < 1)
    return np.where(defined, mean, np.nan)


@same_kind
@directed
@in_memory  # its work is one callback over the whole frame (see docs/benchmarks.md)
def time_auc(
    lf: pl.LazyFrame,
    score: str = "score",
    *,
    time: str,
    event: str,
    horizons: float | Sequence[float],
    by: By = None,
    weight: str | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    censoring_at: Literal["time", "before"] = "time",
    ci: Literal["bootstrap"] | None = None,
    n_boot: int = 2000,
    seed: int | None = 0,
    level: float = 0.95,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    Cumulative/dynamic AUC(t) per group and horizon, with IPCW weights (scikit-survival's).

    See the module description for the definition, the tie rule and ``mean_auc``.

    Parameters
    ----------
    lf
        One row per subject (or per subject and segment).
    score
        Risk score: a higher score means an earlier event (``direction="lower"`` for a
        survival score where higher means later).
    time
        Numeric time to the event or to censoring (>= 0), e.g. days.
    event
        Boolean or 0/1: True (1) where the event was observed, False (0) where censored.
    horizons
        One or more horizons ``t`` in the time column's units.
    by
        Column name(s) to group by: each group has its own censoring curve.
    weight
        Case weights (non-negative numbers; frequencies, e.g. a sampling design's): a case
        counts with its weight times its IPCW weight, a control with its weight, and the
        Kaplan–Meier curves of the censoring and of the events are weighted. An integer
        weight k is the row repeated k times; a null or zero weight drops the row. With
        weights `n_cases` and `n_controls` are Float64 weight sums.
    direction
        ``"higher"`` or ``"lower"``: which end of the score means risk.
    nan_policy
        NaN scores: ``"propagate"`` (the group's AUCs are null), ``"omit"`` or ``"raise"``.
    censoring_at
        Where a case reads the censoring curve: ``"time"``, ``G(T)`` at its own time,
        censorings at that time included (scikit-survival's ``cumulative_dynamic_auc``), or
        ``"before"``, ``G(T-)`` just before it (riskRegression's ``Score``). They differ only
        where a censoring shares its time with a case.
    ci
        ``"bootstrap"`` adds ``auc_lower, auc_upper``: percentile intervals from `n_boot`
        resamples of each group's rows (drawn with replacement, each resample with its own
        censoring curve; a group's draws come from a stream seeded by `seed` and its key, as
        every bootstrap of the package). An interval is null when a resample has no case or
        no control at the horizon.
    n_boot, seed, level
        Resamples, random seed (None: unseeded) and confidence level of ``ci="bootstrap"``.
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: on a terminal, not under pytest, when tqdm is installed, ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, horizon, auc, n_cases, n_controls, mean_auc``: one row per group and
        horizon (ascending); `n_cases`, `n_controls` count rows (sum the weights, with
        `weight`); `mean_auc` repeats on each row of its group. With ``ci="bootstrap"``,
        ``auc_lower, auc_upper`` after ``auc``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"risk": [0.9, 0.7, 0.4, 0.2], "t": [1, 3, 5, 9], "e": [1, 1, 0, 1]}
    ... )
    >>> df.roc.time_auc("risk", time="t", event="e", horizons=[2, 4])["auc"].to_list()
    [1.0, 1.0]

    A weight of 2 is the row twice:

    >>> df = pl.DataFrame(
    ...     {"risk": [0.9, 0.3, 0.4, 0.2], "t": [1, 3, 5, 9], "e": [1, 1, 0, 1], "w": [2, 1, 1, 1]}
    ... )
    >>> twice = pl.concat([df, df.head(1)])
    >>> df.roc.time_auc("risk", time="t", event="e", horizons=4, weight="w")["auc"].item()
    0.8333333333333334
    >>> twice.roc.time_auc("risk", time="t", event="e", horizons=4)["auc"].item()
    0.8333333333333334
    """
    points = _horizons(horizons)
    names = validate.as_names(by)
    before = _before(censoring_at)
    wanted = validate.ci(ci, ("bootstrap",))
    if wanted:
        validate.level(level)
        n_boot = validate.n_boot(n_boot)
        validate.seed(seed)
    out = _table(
        lf, score, time=time, event=event, horizons=points, names=names, weight=weight,
        before=before,
    )  # fmt: skip
    if not wanted:
        return out
    bounds = _bootstrap(
        lf, score, time=time, event=event, horizons=points, names=names, weight=weight,
        before=before, n_boot=n_boot, seed=seed, level=level,
        bar=ticks(progress, "time_auc bootstrap"),
    )  # fmt: skip
    on = [*names, "horizon"]
    joined = out.join(bounds, on=on, how="left", nulls_equal=True, maintain_order="left")
    return joined.select(*on, "auc", "auc_lower", "auc_upper", *_TIME_AUC_COLUMNS[2:])


def _table(
    lf: pl.LazyFrame,
    score: str,
    *,
    time: str,
    event: str,
    horizons: list[float],
    names: list[str],
    weight: str | None,
    before: bool,
) -> pl.LazyFrame:
    """``*names, horizon, auc, n_cases, n_controls, mean_auc`` (:func:`time_auc` without ci)."""
    rows, keys, own = _rows(lf, score, time=time, event=event, names=names, weight=weight)
    weighted = weight is not None
    out = _auc_table(rows, score, keys, horizons, own, weighted=weighted, before=before)
    horizon = _horizon_column(pl.col(own["h"]), horizons, lf.collect_schema()[time])
    return out.select(*names, horizon.alias("horizon"), *_TIME_AUC_COLUMNS[1:])


#: Rows of resampled data per chunk of :func:`_bootstrap` (replicates stacked as a group).
_CHUNK_ROWS = 2_000_000


def _bootstrap(
    lf: pl.LazyFrame,
    score: str,
    *,
    time: str,
    event: str,
    horizons: list[float],
    names: list[str],
    weight: str | None,
    before: bool,
    n_boot: int,
    seed: int | None,
    level: float,
    bar: Ticks,
) -> pl.LazyFrame:
    """
    ``*names, horizon, auc_lower, auc_upper``: percentile bootstrap intervals of AUC(t).

    Each group's counted rows (score, time and event known, a positive case weight), put in
    a canonical order (by score, time, event, weight), are drawn `n_boot` times with
    replacement from the group's stream (:func:`polars_roc._core.resampling.group_rng`:
    `seed` and the group's key); a row keeps its case weight. Each
    replicate is a group of :func:`_table` (its own censoring curve), a chunk of
    replicates at a time. A replicate with an undefined AUC(t) (no case or no control drawn)
    makes that interval null; so does a group without counted rows.
    """
    roles = [score, time, event, *([] if weight is None else [weight])]
    counted = pl.all_horizontal(pl.col(roles).is_not_null())
    if weight is not None:
        counted &= pl.col(weight) > 0
    rows = lf.select(*names, *roles).filter(counted)
    taken = [*names, *roles]
    rep, index = fresh("_rep", taken), fresh("_i", taken)
    schema = _table(
        rows, score, time=time, event=event, horizons=horizons, names=names, weight=weight,
        before=before,
    )  # fmt: skip
    columns = schema.collect_schema()
    out_schema = pl.Schema(
        {
            **{c: columns[c] for c in [*names, "horizon"]},
            "auc_lower": pl.Float64(),
            "auc_upper": pl.Float64(),
        }
    )
    alpha = 1 - level

    def bounds(df: pl.DataFrame) -> pl.DataFrame:
        df = df.sort(roles, maintain_order=True).with_row_index(index)
        members = (
            df.group_by(names, maintain_order=True).agg(index)
            if names
            else df.select(pl.col(index).implode())
        )
        groups = [
            (np.asarray(row[-1], dtype=np.int64), group_rng(seed, row[:-1]))
            for row in members.iter_rows()
            if len(row[-1])
        ]
        bar.expect(n_boot * len(groups))
        per_chunk = max(1, _CHUNK_ROWS // max(df.height, 1))
        parts = [pl.DataFrame(schema=columns).select(*names, "horizon", "auc")]
        for start in bar.over(range(0, n_boot, per_chunk)):
            size = min(per_chunk, n_boot - start)
            drawn = [ids[rng.integers(0, ids.size, size=(size, ids.size))] for ids, rng in groups]
            if not drawn:
                break
            labels = np.concatenate([np.repeat(np.arange(size), d.shape[1]) for d in drawn])
            stacked = df[np.concatenate([d.ravel() for d in drawn])].with_columns(
                pl.Series(rep, labels)
            )
            aucs = _table(
                stacked.lazy(), score, time=time, event=event, horizons=horizons,
                names=[*names, rep], weight=weight, before=before,
            )  # fmt: skip
            parts.append(aucs.select(*names, "horizon", "auc").collect(engine="in-memory"))
        auc = pl.col("auc")
        null = auc.is_null().any() | (pl.len() < n_boot)
        return (
            pl.concat(parts)
            .group_by(*names, "horizon", maintain_order=True)
            .agg(
                pl.when(~null).then(auc.quantile(alpha / 2, "linear")).alias("auc_lower"),
                pl.when(~null).then(auc.quantile(1 - alpha / 2, "linear")).alias("auc_upper"),
            )
            .cast(dict(out_schema))  # type: ignore[arg-type]
        )

    return opaque(rows, bounds, schema=out_schema)


@same_kind
@directed
def time_curve(
    lf: pl.LazyFrame,
    score: str = "score",
    *,
    time: str,
    event: str,
    horizons: float | Sequence[float],
    by: By = None,
    weight: str | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    censoring_at: Literal["time", "before"] = "time",
) -> pl.LazyFrame:
    """
    The ROC(t) curves whose areas :func:`time_auc` gives: IPCW-weighted cases per horizon.

    Parameters
    ----------
    lf, score, time, event, horizons, by, weight, direction, nan_policy, censoring_at
        As in :func:`time_auc`; `tp`, `fn` are the cases' weights times their IPCW weights,
        `fp`, `tn` the controls' weights.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, horizon, threshold, tp, fp, tn, fn, tpr, fpr``: as :func:`polars_roc.curve`
        with `tp`, `fn` the IPCW-weighted cases and `fp`, `tn` the controls. Where a case
        of the horizon cannot be weighted (its censoring curve fell to 0, so that no row is
        left as a control either), `tp`, `fn` and `tpr` are null, as :func:`time_auc` is.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"risk": [0.9, 0.7, 0.4, 0.2], "t": [1, 3, 5, 9], "e": [1, 1, 0, 1]}
    ... )
    >>> df.roc.time_curve("risk", time="t", event="e", horizons=2)["tpr"].to_list()
    [0.0, 1.0, 1.0, 1.0, 1.0]
    """
    points = _horizons(horizons)
    names = validate.as_names(by)
    rows, keys, own = _rows(lf, score, time=time, event=event, names=names, weight=weight)
    weighted = weight is not None
    ipcw = _weighted(rows, keys, own, weighted=weighted, before=_before(censoring_at))
    expanded = _expanded(ipcw, score, points, own, case_weight=weighted)
    # A case whose censoring curve fell to 0 has no weight (1 / G is inf): its group's
    # horizon counts it with weight 0 and is marked, so its case counts come out null.
    w, unweighted = pl.col(own["w"]), pl.col(own["u"])
    per = [*names, own["h"]]
    expanded = expanded.with_columns(
        w.is_infinite().any().over(per).alias(own["u"]),
        pl.when(w.is_infinite()).then(0.0).otherwise(w).alias(own["w"]),
    )
    curve = roc_points(
        expanded, score, own["y"], by=[*per, own["u"]], weight=own["w"], pos_label=None
    )
    curve = curve.with_columns(pl.when(~unweighted).then(pl.col(c)) for c in ("tp", "fn", "tpr"))
    horizon = _horizon_column(pl.col(own["h"]), points, lf.collect_schema()[time])
    columns = ["threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"]
    return curve.select(*names, horizon.alias("horizon"), *columns)
