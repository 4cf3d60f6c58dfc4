"""
Monitoring without resampling: time windows, reference rows, score stability, estimated AUC.

A model in production is scored every day; its labels arrive weeks later, and the question
is whether it is still as good as at launch. This module holds the parts of that answer that
need no bootstrap (layer 2, beside the other analyses):

* :func:`windows` puts each row in its time windows, exactly as
  ``group_by_dynamic(time, every=, period=)`` does (tumbling windows by truncation, which
  needs no sort and streams; overlapping ones through ``group_by_dynamic`` itself);
* :func:`reference_rows` turns a ``(start, end)`` pair of the time column or a Boolean
  expression into the reference rows;
* :func:`score_stability`: per window, the PSI and the two-sample Kolmogorov-Smirnov test of
  the scores against the reference rows;
* :func:`estimated_auc`: the label-free AUC expected from calibrated scores, beside the
  realised AUC where labels exist;
* :func:`reference_band`: ``ref_mean ± k·sd`` over the reference windows' estimates and the
  alerts of the windows outside it.

:func:`polars_roc.monitoring.over_time` (layer 3) builds on these: its windows' intervals
come from the metric bootstrap, which lives above the analyses.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
import polars as pl
from polars.exceptions import SchemaError

from polars_roc._core import labels, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups, summarize
from polars_roc._core.kernels import class_totals, rows
from polars_roc._core.names import PREFIX, fresh, suffixes_clashes
from polars_roc._core.validate import By
from polars_roc.exprs.ranking import auc
from polars_roc.monitoring._drift import cut_points, psi_of_cdfs, weighted_quantile
from polars_roc.monitoring._kolmogorov import ks_2samp_p_value
from polars_roc.monitoring.expression import estimated_auc as estimated_auc_expr

__all__ = [
    "STABILITY_COLUMNS",
    "estimated_auc",
    "reference_band",
    "reference_rows",
    "score_stability",
    "windows",
]

#: score_stability's columns after the `by` columns.
STABILITY_COLUMNS = ("window_start", "window_end", "psi", "ks", "ks_p_value", "n", "n_ref")

_Reference = tuple[Any, Any] | pl.Expr


def _time_dtype(schema: pl.Schema, time: str, by: Sequence[str]) -> pl.DataType:
    """The time column's dtype: Date, Datetime (any unit or zone) or an integer."""
    dtype = validate.column(schema, time, "time")
    if not (isinstance(dtype, pl.Date | pl.Datetime) or dtype.is_integer()):
        msg = (
            f"time column {time!r} has dtype {dtype}, expected Date, Datetime or an integer"
            f"\n\nHint: parse it first, e.g. pl.col({time!r}).str.to_datetime()."
        )
        raise SchemaError(msg)
    if time in by:
        msg = f"time column {time!r} cannot also be a `by` group\n\nHint: drop it from by=."
        raise ValueError(msg)
    return dtype


def _integer_every(value: Any, name: str) -> int:
    """An integer time's window length: ``"10i"`` (Polars' notation) or 10."""
    text = str(value)
    number = text[:-1] if text.endswith("i") else text
    if not number.isdigit() or int(number) <= 0:
        msg = (
            f"{name}={value!r} is not a window length for an integer time column"
            f'\n\nHint: {name}="10i" (Polars\' integer duration) or {name}=10.'
        )
        raise ValueError(msg)
    return int(number)


def _duration(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value:
        msg = f'{name} must be a Polars duration string, got {value!r}\n\nHint: {name}="1mo".'
        raise ValueError(msg)
    return value


def _window_bounds(t: pl.Expr, dtype: pl.DataType, every: Any) -> tuple[pl.Expr, pl.Expr]:
    """Tumbling windows: the start (truncated time) and end of each row's window."""
    if dtype.is_integer():
        n = _integer_every(every, "every")
        start = (t // n) * n
        return start, start + n
    start = t.dt.truncate(_duration(every, "every"))
    return start, start.dt.offset_by(every)


@same_kind
def windows(
    lf: pl.LazyFrame,
    time: str,
    *,
    every: str,
    period: str | None = None,
    by: By = None,
    start: str = "window_start",
    end: str = "window_end",
) -> pl.LazyFrame:
    """
    Each row with the time windows it falls in: ``group_by_dynamic``'s windows, as columns.

    The windows are those of ``group_by_dynamic(time, every=every, period=period,
    group_by=by, closed="left", start_by="window")``: ``[start, start + period)``, a new one
    every `every`. With `period` None or equal to `every` (tumbling windows) each row is in
    one window, found by truncating its time (no sort: it streams); with a longer period a
    row is in several windows and is repeated once per window (through ``group_by_dynamic``
    itself, which sorts by ``(*by, time)``). Rows with a null time are dropped. Time zones
    and units are kept (a Date column gets Date bounds, where ``group_by_dynamic`` gives
    Datetime ones); an integer time takes ``every="10i"`` (or ``10``).

    Parameters
    ----------
    lf
        Rows with a time column.
    time
        Date, Datetime (any unit or zone) or integer column.
    every, period
        Polars duration strings (``"1mo"``, ``"7d"``, ``"10i"``); `period` defaults to
        `every`.
    by
        Group columns: windows are formed within each group.
    start, end
        Names of the two columns added.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        The rows (repeated per window) with `start` and `end`.

    Examples
    --------
    >>> import datetime as dt
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"t": [dt.date(2024, 1, 5), dt.date(2024, 2, 10)], "x": [1, 2]})
    >>> pr.monitoring.windows(df, "t", every="1mo").select("x", "window_start").rows()
    [(1, datetime.date(2024, 1, 1)), (2, datetime.date(2024, 2, 1))]
    >>> pr.monitoring.windows(df, "t", every="1mo", period="2mo")["x"].to_list()  # Jan-Feb, Feb-Mar
    [1, 2, 2]
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    dtype = _time_dtype(schema, time, names)
    for column in (start, end):
        if column in schema:
            msg = f"the frame already has a column {column!r}\n\nHint: pass start=/end= names."
            raise ValueError(msg)
    t = pl.col(time)
    rows = lf.filter(t.is_not_null())
    tumbling = period is None or str(period) == str(every)
    if tumbling:
        lo, hi = _window_bounds(t, dtype, every)
        return rows.with_columns(lo.alias(start), hi.alias(end))
    if dtype.is_integer():
        every_, period_ = (
            f"{_integer_every(v, n)}i" for v, n in ((every, "every"), (period, "period"))
        )
    else:
        every_, period_ = _duration(every, "every"), _duration(period, "period")
    index = fresh(f"{PREFIX}_t", list(schema))
    others = [c for c in schema if c not in names]
    grouped = (
        rows.with_columns(t.alias(index))
        .sort([*names, index])
        .group_by_dynamic(
            index,
            every=every_,
            period=period_,
            group_by=names or None,
            closed="left",
            start_by="window",
            include_boundaries=True,
        )
        .agg(pl.col(others))
    )
    bounds = [pl.col("_lower_boundary").alias(start), pl.col("_upper_boundary").alias(end)]
    if isinstance(dtype, pl.Date):  # group_by_dynamic gives Datetime bounds for a Date index
        bounds = [bound.cast(pl.Date) for bound in bounds]
    return grouped.explode(others).select(*names, *others, *bounds)


def _bound(value: Any, dtype: pl.DataType, time: str) -> tuple[pl.Expr, bool]:
    """A reference bound as a literal of the time column's type; True for a whole day."""
    if isinstance(value, str):
        try:
            value = (
                dt.date.fromisoformat(value)
                if len(value) == 10
                else dt.datetime.fromisoformat(value)
            )
        except ValueError:
            msg = f"reference bound {value!r} is not an ISO date or datetime\n\nHint: '2024-01-31'."
            raise ValueError(msg) from None
    whole_day = isinstance(dtype, pl.Datetime) and type(value) is dt.date
    if dtype.is_integer():
        if not validate.is_integer(value):
            msg = f"reference bound {value!r} does not fit integer time column {time!r}"
            raise ValueError(msg + "\n\nHint: reference=(0, 99).")
        return pl.lit(value, dtype=dtype), False
    if not isinstance(value, dt.date):
        msg = f"reference bound {value!r} does not fit time column {time!r} ({dtype})"
        raise ValueError(msg + "\n\nHint: reference=(datetime.date(2024, 1, 1), ...).")
    if whole_day or isinstance(dtype, pl.Date):
        day = value.date() if isinstance(value, dt.datetime) else value
        return pl.lit(day, dtype=pl.Date), whole_day
    dtype = cast("pl.Datetime", dtype)  # reference_rows let only Date, Datetime, integers in
    zone = dtype.time_zone
    aware = isinstance(value, dt.datetime) and value.tzinfo is not None
    literal = pl.lit(value)
    if zone is None and aware:
        literal = literal.dt.convert_time_zone("UTC").dt.replace_time_zone(None)
    elif zone is not None:
        literal = (
            literal.dt.convert_time_zone(zone) if aware else literal.dt.replace_time_zone(zone)
        )
    return literal.cast(pl.Datetime(dtype.time_unit, zone)), False


def _in_order(reference: Sequence[Any]) -> None:
    """A (start, end) pair whose start comes after its end holds no row: an error."""
    try:
        start, end = (_moment(v) for v in reference)
    except ValueError:
        return  # not ISO text: _bound says so
    if isinstance(start, dt.date) and isinstance(end, dt.date):
        day = not isinstance(end, dt.datetime)  # an end date includes its whole day
        start, end = (
            v if isinstance(v, dt.datetime) else dt.datetime(v.year, v.month, v.day)
            for v in (start, end)
        )
        start, end = start.replace(tzinfo=None), end.replace(tzinfo=None)
        after = start >= end + dt.timedelta(days=1) if day else start > end
    elif validate.is_real(start) and validate.is_real(end):
        after = start > end
    else:
        return  # not comparable here: _bound says what is wrong
    if after:
        msg = (
            f"reference starts at {reference[0]!r}, after its end {reference[1]!r}: no row "
            f"lies in it\n\nHint: reference=({reference[1]!r}, {reference[0]!r})."
        )
        raise ValueError(msg)


def _moment(value: Any) -> Any:
    """An ISO text bound as the date or datetime it names; anything else as it is."""
    if not isinstance(value, str):
        return value
    return dt.date.fromisoformat(value) if len(value) == 10 else dt.datetime.fromisoformat(value)


def reference_rows(reference: Any, time: str, dtype: pl.DataType) -> pl.Expr:
    """
    The reference rows as a Boolean expression (a null counts as false).

    `reference` is a Boolean expression, or a ``(start, end)`` pair of the time column's
    values, both ends included: dates, datetimes, integers or ISO strings. A date bound on a
    Datetime column covers its whole day (``("2024-01-01", "2024-03-31")`` includes
    ``2024-03-31 23:59``); a naive datetime on a zoned column is read in that zone.

    Examples
    --------
    >>> import datetime as dt
    >>> import polars as pl
    >>> df = pl.DataFrame({"t": [dt.datetime(2024, 3, 31, 23), dt.datetime(2024, 4, 1)]})
    >>> df.select(reference_rows(("2024-01-01", "2024-03-31"), "t", pl.Datetime("us")))
    shape: (2, 1)
    ┌───────┐
    │ t     │
    │ ---   │
    │ bool  │
    ╞═══════╡
    │ true  │
    │ false │
    └───────┘
    """
    if isinstance(reference, pl.Expr):
        return reference.fill_null(False)
    if not isinstance(reference, tuple | list) or len(reference) != 2:
        msg = (
            f"reference must be a (start, end) pair of {time!r} values or a Boolean "
            f"expression, got {reference!r}\n\nHint: reference=('2024-01-01', '2024-03-31')."
        )
        raise ValueError(msg)
    if not (isinstance(dtype, pl.Date | pl.Datetime) or dtype.is_integer()):
        msg = (
            f"time column {time!r} has dtype {dtype}: a (start, end) reference needs Date, "
            f"Datetime or integer times\n\nHint: parse it first, e.g. "
            f"pl.col({time!r}).str.to_date()."
        )
        raise SchemaError(msg)
    _in_order(reference)
    (lo, lo_day), (hi, hi_day) = (_bound(v, dtype, time) for v in reference)
    t = pl.col(time)
    above = (t.dt.date() if lo_day else t) >= lo
    below = (t.dt.date() if hi_day else t) <= hi
    return (above & below).fill_null(False)


def reference_band(
    table: pl.LazyFrame, keys: Sequence[str], *, reference: str, k: float
) -> pl.LazyFrame:
    """
    ``ref_mean, ref_lower, ref_upper, alert`` over a table of window estimates.

    Per `keys` (the groups and the metric), ``ref_mean`` is the mean of the `estimate` of
    the windows where the Boolean column `reference` is true (undefined estimates left
    out) and ``ref_lower, ref_upper`` are ``ref_mean ∓ k · sd`` with ``sd`` their standard
    deviation (ddof 1; null with fewer than two). `alert` is false for a reference window,
    true for another window whose estimate leaves the band, false inside it, and null
    where the estimate or the band is undefined. The `reference` column is dropped.

    Examples
    --------
    >>> import polars as pl
    >>> t = pl.LazyFrame({"estimate": [0.8, 0.82, 0.81, 0.7], "ref": [True, True, True, False]})
    >>> reference_band(t, [], reference="ref", k=3.0).collect()["alert"].to_list()
    [False, False, False, True]
    """
    if not validate.is_real(k) or not k > 0:
        msg = f"k must be a positive number of standard deviations, got {k!r}\n\nHint: k=3.0."
        raise ValueError(msg)
    ref = pl.col(reference)
    kept = pl.col("estimate").filter(ref & pl.col("estimate").is_not_null())

    def per_key(expr: pl.Expr) -> pl.Expr:
        return expr.over(list(keys)) if keys else expr

    mean, sd = per_key(kept.mean()), per_key(kept.std(ddof=1))
    band = table.with_columns(ref_mean=mean, ref_lower=mean - k * sd, ref_upper=mean + k * sd)
    est = pl.col("estimate")
    left = (est < pl.col("ref_lower")) | (est > pl.col("ref_upper"))
    return band.with_columns(alert=pl.when(ref).then(False).otherwise(left)).drop(reference)


def _ks_table(
    rows: pl.LazyFrame, ref: pl.LazyFrame, names: list[str], window: list[str], mass: pl.Expr
) -> pl.LazyFrame:
    """
    ``*names, *window, ks``: the largest gap between each window's and the reference's ECDFs.

    With `names`, both frames carry ``_gid``, a number per group (null keys included: an
    as-of join by a null key never matches).

    Both distribution functions are step functions, so the gap is largest at a window
    score, just there or just below it: at each distinct window score ``v`` the window's
    ``F(v)`` and ``F(v-)`` come from its running counts, the reference's from an as-of join
    on its own running counts (the last reference score at or below ``v``). No reference
    row is repeated per window. `mass` counts a score's rows (``pl.len()``) or sums their
    weights: a weighted ECDF.
    """
    s = pl.col("_s")
    group = ["_gid"] if names else []  # a number per group: an as-of join misses null keys
    ref_points = (
        ref.group_by(*group, "_s")
        .agg(_c=mass)
        .with_columns(_cum=pl.col("_c").cum_sum().over(group or pl.lit(True), order_by="_s"))
        .with_columns(_n=pl.col("_c").sum().over(group or pl.lit(True)))
        .select(
            *group,
            "_s",
            _r_le=pl.col("_cum") / pl.col("_n"),
            _r_lt=(pl.col("_cum") - pl.col("_c")) / pl.col("_n"),
            _r_at=s,
        )
    )
    keys = [*names, *window]
    win_points = (
        rows.group_by(*keys, *group, "_s")
        .agg(_c=mass)
        .with_columns(_cum=pl.col("_c").cum_sum().over(keys, order_by="_s"))
        .with_columns(_n=pl.col("_c").sum().over(keys))
        .with_columns(
            _w_le=pl.col("_cum") / pl.col("_n"),
            _w_lt=(pl.col("_cum") - pl.col("_c")) / pl.col("_n"),
        )
        .sort("_s")
    )
    joined = win_points.join_asof(
        ref_points.sort("_s"),
        on="_s",
        by=group or None,
        strategy="backward",
        check_sortedness=False,
    )  # both sorted by score
    r_le = pl.col("_r_le").fill_null(0.0)
    r_lt = pl.when(pl.col("_r_at") == s).then(pl.col("_r_lt")).otherwise(pl.col("_r_le"))
    gap = pl.max_horizontal(
        (pl.col("_w_le") - r_le).abs(), (pl.col("_w_lt") - r_lt.fill_null(0.0)).abs()
    )
    return joined.group_by(keys).agg(ks=gap.max())


def _ks_p_values(s: pl.Series) -> pl.Series:
    d = s.struct.field("ks").to_numpy().astype("float64")
    n1 = s.struct.field("n").cast(pl.Float64).fill_null(0.0).to_numpy()
    n2 = s.struct.field("n_ref").cast(pl.Float64).fill_null(0.0).to_numpy()
    whole = (n1 == np.floor(n1)) & (n2 == np.floor(n2))  # weight sums: frequency weights only
    d = np.where(whole, d, np.nan)
    return pl.Series(s.name, ks_2samp_p_value(d, n1, n2)).fill_nan(None)


@same_kind
@suffixes_clashes
@directed
def score_stability(
    lf: pl.LazyFrame,
    score: str = "score",
    *,
    time: str,
    every: str,
    reference: _Reference,
    by: By = None,
    bins: int = 10,
    period: str | None = None,
    weight: str | None = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    Per time window: PSI and the two-sample Kolmogorov-Smirnov test against the reference.

    The reference rows (:func:`reference_rows`) are the expected distribution of each `by`
    group; every window of the group (:func:`windows`, reference windows included) is
    compared with them. ``psi`` is :func:`polars_roc.psi`'s index (bins at the reference's
    quantiles, a zero share counted as 0.0001, as Evidently does); ``ks`` the largest gap
    between the two empirical distribution functions, and ``ks_p_value`` its two-sided
    p-value, as scipy's ``ks_2samp`` (``method="auto"``): exact while neither sample holds
    more than 10,000 rows, else scipy's asymptotic branch (the one-sample Kolmogorov
    distribution ``kstwo`` at ``round(n n_ref / (n + n_ref))`` rows): to 1e-6 of scipy's
    in both. No scipy at run time.

    Rows with a null score are skipped; a NaN score makes its window's (or, in the
    reference, every window's) numbers null. A group without reference rows gets null
    numbers with its counts.

    Parameters
    ----------
    lf
        Scored rows with a time column.
    score
        Numeric score column.
    time, every, period
        The windows, as :func:`windows` (``group_by_dynamic``'s).
    reference
        ``(start, end)`` of the time column (ends included), or a Boolean expression.
    by
        Group columns (e.g. a segment): each group against its own reference rows.
    bins
        PSI bins (at least 2).
    weight
        Optional non-negative row weights: PSI's quantiles and shares and both ECDFs of the
        KS statistic are those of the rows repeated by weight (an integer weight is a
        repeated row, a weight of 0 or null a dropped one), and `n`, `n_ref` are weight
        sums. The KS p-value treats weights as frequencies: it is computed, as for the
        repeated rows, where both weight sums are whole numbers, and null otherwise (a
        weighted KS statistic has no standard null distribution; no effective size is
        guessed).
    direction
        ``"higher"`` or ``"lower"`` (the score negated: PSI bins closed on the left in
        score units; KS unchanged); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the window's numbers are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, window_start, window_end, psi, ks, ks_p_value, n, n_ref``, sorted by group and
        window: `n` the window's rows, `n_ref` the reference's.
        A `by` column named like one of these keeps its name; ours takes a trailing
        underscore (e.g. ``n_``), with a ``UserWarning`` naming both.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"t": [1, 1, 1, 2, 2, 2], "score": [0.1, 0.2, 0.3, 0.5, 0.6, 0.7]})
    >>> df.roc.score_stability(time="t", every="1i", reference=(1, 1), bins=2)
    shape: (2, 7)
    ┌──────────────┬────────────┬──────────┬─────┬────────────┬─────┬───────┐
    │ window_start ┆ window_end ┆ psi      ┆ ks  ┆ ks_p_value ┆ n   ┆ n_ref │
    │ ---          ┆ ---        ┆ ---      ┆ --- ┆ ---        ┆ --- ┆ ---   │
    │ i64          ┆ i64        ┆ f64      ┆ f64 ┆ f64        ┆ u32 ┆ u32   │
    ╞══════════════╪════════════╪══════════╪═════╪════════════╪═════╪═══════╡
    │ 1            ┆ 2          ┆ 0.0      ┆ 0.0 ┆ 1.0        ┆ 3   ┆ 3     │
    │ 2            ┆ 3          ┆ 6.601445 ┆ 1.0 ┆ 0.1        ┆ 3   ┆ 3     │
    └──────────────┴────────────┴──────────┴─────┴────────────┴─────┴───────┘
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.score_type(score, validate.column(schema, score, "score"))
    dtype = _time_dtype(schema, time, names)
    validate.weight_column(schema, weight)
    qs = cut_points(bins)
    s, w = pl.col("_s"), pl.col("_w")
    weighted = weight is not None
    coded = lf.select(
        *names,
        time,
        *([pl.struct(names).rank("dense").alias("_gid")] if names else []),
        _s=pl.col(score).cast(pl.Float64),
        _r=reference_rows(reference, time, dtype),
        _w=pl.lit(1.0) if weight is None else labels.weight(weight),
    ).filter(s.is_not_null() & w.is_not_null() & (w > 0))
    mass = w.sum() if weighted else pl.len()

    def quantile(q: float) -> pl.Expr:
        return weighted_quantile(s, w, q) if weighted else s.quantile(q, "linear")

    def mean(flag: str) -> pl.Expr:
        return (pl.col(flag) * w).sum() / w.sum() if weighted else pl.col(flag).mean()

    ref = coded.filter(pl.col("_r"))
    k = len(qs)
    edges = summarize(
        ref,
        names,
        [
            *(quantile(q).alias(f"_q{i}") for i, q in enumerate(qs)),
            mass.alias("n_ref"),
            s.is_nan().any().alias("_ref_nan"),
        ],
    )

    # Each side's share at or below every edge: flags on the rows (the edges joined per
    # group), then plain means per group: no per-group broadcast of an aggregate.
    def shares(prefix: str) -> list[pl.Expr]:
        return [(s <= pl.col(f"_q{i}")).alias(f"{prefix}{i}") for i in range(k)]

    ref_shares = summarize(
        join_groups(ref, edges, names).select(*names, *shares("_e"), "_w"),
        names,
        [mean(f"_e{i}") for i in range(k)],
    )
    ref_table = join_groups(edges, ref_shares, names)
    window = [fresh(f"{PREFIX}_ws", list(schema)), fresh(f"{PREFIX}_we", list(schema))]
    rows = windows(
        coded, time, every=every, period=period, by=names, start=window[0], end=window[1]
    )
    keys = [*names, *window]
    placed = join_groups(rows, edges.select(*names, *(f"_q{i}" for i in range(k))), names)
    flagged = placed.select(*keys, *shares("_a"), s.is_nan().alias("_w_nan"), "_w")
    counted = flagged.group_by(keys).agg(
        *(mean(f"_a{i}").alias(f"_a{i}") for i in range(k)),
        mass.alias("n"),
        pl.col("_w_nan").any(),
    )
    per_window = join_groups(
        counted, ref_table.select(*names, *(f"_e{i}" for i in range(k)), "n_ref", "_ref_nan"), names
    ).with_columns(_nan=pl.col("_w_nan") | pl.col("_ref_nan").fill_null(False))
    psi = psi_of_cdfs(
        [pl.col(f"_e{i}") for i in range(len(qs))], [pl.col(f"_a{i}") for i in range(len(qs))]
    )
    ks = _ks_table(rows.filter(~s.is_nan()), ref.filter(~s.is_nan()), names, window, mass)
    table = join_groups(per_window, ks, keys).with_columns(
        n_ref=pl.col("n_ref").fill_null(0).cast(pl.Float64 if weighted else pl.UInt32)
    )
    undefined = pl.col("_nan") | (pl.col("n_ref") == 0)
    table = table.with_columns(
        psi=pl.when(~undefined).then(psi),
        ks=pl.when(~undefined).then(pl.col("ks")),
    ).with_columns(
        ks_p_value=pl.struct("ks", "n", "n_ref").map_batches(
            _ks_p_values, return_dtype=pl.Float64, is_elementwise=True
        )
    )
    return table.select(
        *names,
        pl.col(window[0]).alias("window_start"),
        pl.col(window[1]).alias("window_end"),
        "psi",
        "ks",
        "ks_p_value",
        "n",
        "n_ref",
    ).sort([*names, "window_start"], nulls_last=True)


@same_kind
@suffixes_clashes
def estimated_auc(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str | None = None,
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    The label-free AUC of calibrated scores per group, beside the realised AUC if labelled.

    ``estimated_auc`` is :func:`polars_roc.estimated_auc`: every row a positive with weight
    ``p`` and a negative with weight ``1 - p`` on the weighted AUC kernel, the AUC to expect
    once labels arrive *if the scores are calibrated probabilities*. With a `label` column,
    ``auc, n_pos, n_neg`` of the rows labelled so far are added, for the comparison that
    tells whether the estimate can be trusted. A score outside [0, 1] is an error.

    Parameters
    ----------
    lf
        Scored rows.
    score
        Probability of the positive class.
    label
        Optional class column (rows with a null label count in the estimate only).
    by
        Group columns, e.g. a time window and a segment.
    weight
        Optional non-negative row weights: the estimate weighs each row's two halves by it
        (:func:`polars_roc.estimated_auc`), the realised AUC is the weighted one, and `n`,
        `n_pos`, `n_neg` are weight sums. An integer weight is a repeated row, a weight of
        0 (or null) a dropped one.
    pos_label
        The positive class of `label` (as everywhere).
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).
        There is no `direction`: a probability negated is no probability.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, estimated_auc, n`` (+ ``auc, n_pos, n_neg`` with a label), sorted by group.
        A `by` column named like one of these keeps its name; ours takes a trailing
        underscore (e.g. ``n_``), with a ``UserWarning`` naming both.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.2, 0.8, 0.6, 0.3], "label": [0, 1, None, None]})
    >>> df.roc.estimated_auc(label="label")
    shape: (1, 5)
    ┌───────────────┬─────┬─────┬───────┬───────┐
    │ estimated_auc ┆ n   ┆ auc ┆ n_pos ┆ n_neg │
    │ ---           ┆ --- ┆ --- ┆ ---   ┆ ---   │
    │ f64           ┆ u32 ┆ f64 ┆ i64   ┆ i64   │
    ╞═══════════════╪═════╪═════╪═══════╪═══════╡
    │ 0.763158      ┆ 4   ┆ 1.0 ┆ 1     ┆ 1     │
    └───────────────┴─────┴─────┴───────┴───────┘
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.score_type(score, validate.column(schema, score, "score"))
    validate.weight_column(schema, weight)
    if weight is None:
        n = pl.col(score).count()
    else:
        w = labels.weight(weight)
        n = w.filter(pl.col(score).is_not_null() & (w > 0)).sum()
    measures = [estimated_auc_expr(score, weight=weight), n.alias("n")]
    if label is not None:
        validate.roles(schema, score=score, label=label, by=names, pos_label=pos_label)
        n_pos, n_neg = class_totals(rows(score, label, weight=weight, pos_label=pos_label))
        measures += [
            auc(score, label, weight=weight, pos_label=pos_label).alias("auc"),
            n_pos.alias("n_pos"),
            n_neg.alias("n_neg"),
        ]
    return summarize(lf, names, measures)
