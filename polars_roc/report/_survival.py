"""
The report's "Survival horizons" section: AUC(t) at each horizon, its counts, the mean AUC.

``compute(..., time_to_event=, event=, horizons=)`` (``--time-to-event T --event E
--horizons 90,180,365`` on the command line) adds it: the cumulative/dynamic AUC(t) of
:func:`polars_roc.survival.time_auc` per group (IPCW weights from the Kaplan–Meier curve of
the censoring times of each group, scikit-survival's ``cumulative_dynamic_auc``), drawn with
:func:`polars_roc.charts.time_auc_chart`, and a table per group and horizon of AUC(t), its
cases (events at or before t), controls (still event-free after t) and the rows censored at or
before t (neither). A null AUC(t) says why (no event yet, no one followed past t). Without
horizons the section takes the quartiles of the observed event times, and says so.

Examples
--------
>>> import polars as pl
>>> df = pl.DataFrame(
...     {
...         "risk": [0.9, 0.5, 0.7, 0.6, 0.8, 0.4, 0.3, 0.45],
...         "days": [10, 40, 25, 90, 60, 120, 150, 200],
...         "died": [1, 1, 0, 1, 0, 1, 0, 0],
...     }
... )
>>> data = compute(df.lazy(), "risk", time="days", event="died", horizons=[50, 100], names=[])
>>> counts = ["n_cases", "n_controls", "n_censored"]
>>> data.table.select("horizon", pl.col("auc").round(4), *counts).rows()
[(50, 0.7846, 2, 5, 1), (100, 1.0, 3, 3, 2)]
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from polars_roc import charts, survival
from polars_roc._core import validate
from polars_roc._core.names import fresh
from polars_roc.charts.style import rate_text
from polars_roc.report._figures import COLUMNS, merge_groups
from polars_roc.report._text import key_cell

#: The section's heading (its key is ``"survival"``).
HEADINGS = {"survival": "Survival horizons"}
#: The quantiles of the observed event times taken as horizons when none are given.
DEFAULT_QUANTILES = (0.25, 0.5, 0.75)
#: Bootstrap intervals of AUC(t) are drawn when replicates times rows stay below this.
MAX_BOOT_ROWS = 20_000_000
#: A longer AUC(t) table is folded (a <details> element the reader opens).
FOLD_ROWS = 40
#: ``(n_boot, seed, level)`` of the section's bootstrap intervals.
Boot = tuple[int, "int | None", float]


@dataclass(frozen=True)
class SurvivalData:
    """
    The section's frames and how its horizons were chosen.

    Attributes
    ----------
    time, event
        The time-to-event and event columns.
    horizons
        The horizons, ascending.
    chosen
        ``"given"``, or ``"quartiles"`` when the horizons are the quartiles of the event times.
    table
        ``*by, horizon, auc, n_cases, n_controls, n_censored, mean_auc, <flag>`` (+
        ``auc_lower, auc_upper`` with bootstrap intervals): the columns of
        :func:`polars_roc.survival.time_auc`, the rows censored at or before the horizon, and
        whether the group holds a NaN score (column `flag`).
    notes
        What the reader must know (weights ignored, horizons past the follow-up).
    flag
        The name of the NaN-score column (``nan_score`` unless a group column has it).
    level
        The level of the bootstrap intervals, or None without them.
    """

    time: str
    event: str
    horizons: list[float]
    chosen: str
    table: pl.DataFrame
    notes: list[str] = field(default_factory=list)
    flag: str = "nan_score"
    level: float | None = None


def check(
    schema: pl.Schema,
    score: str,
    *,
    time: str | None,
    event: str | None,
    horizons: float | Sequence[float] | None,
    names: list[str],
    policies: dict[str, Any],
) -> bool:
    """
    Check the section's roles and horizons on the schema (no data read); whether it is asked.

    Examples
    --------
    >>> import polars as pl
    >>> schema = pl.Schema({"p": pl.Float64, "t": pl.Int64, "e": pl.Boolean})
    >>> check(schema, "p", time="t", event="e", horizons=[90], names=[], policies={})
    True
    >>> check(schema, "p", time=None, event=None, horizons=[90], names=[], policies={})
    Traceback (most recent call last):
    ...
    ValueError: horizons= needs time_to_event= and event= (the survival horizons section)
    <BLANKLINE>
    Hint: time_to_event='days', event='churned', horizons=[90, 180, 365].
    """
    hint = "\n\nHint: time_to_event='days', event='churned', horizons=[90, 180, 365]."
    if time is None and event is None:
        if horizons is not None:
            msg = "horizons= needs time_to_event= and event= (the survival horizons section)"
            raise ValueError(msg + hint)
        return False
    if time is None or event is None:
        given, missing = ("time_to_event", "event") if event is None else ("event", "time_to_event")
        msg = f"{given}= needs {missing}= too (the survival horizons section)"
        raise ValueError(msg + hint)
    validate.column(schema, time, "time_to_event")
    validate.column(schema, event, "event")
    if time in (score, event, *names):
        msg = f"time_to_event column {time!r} is already the score, event or a by column"
        raise ValueError(msg + "\n\nHint: pass time_to_event=<the time to event or censoring>.")
    # time_auc checks the dtypes and the horizons when it builds its (lazy) query.
    lf = pl.LazyFrame(schema=schema)
    points = 0.0 if horizons is None else horizons
    survival.time_auc(lf, score, time=time, event=event, horizons=points, by=names, **policies)
    return True


def default_horizons(lf: pl.LazyFrame, time: str, event: str) -> list[float]:
    """
    The quartiles of the observed event times (observed values, ``"nearest"``), distinct.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"t": [5, 1, 9, 3, 7, 2, 8], "e": [1, 1, 1, 1, 0, 0, 1]})
    >>> default_horizons(df.lazy(), "t", "e")  # event times 1, 3, 5, 8, 9
    [3.0, 5.0, 8.0]
    """
    times = pl.col(time).filter(pl.col(event).cast(pl.Boolean) & pl.col(time).is_not_null())
    quantiles = [times.quantile(q, "nearest").alias(str(q)) for q in DEFAULT_QUANTILES]
    timed = pl.col(time).is_not_null().any().alias("_timed")
    *found, any_time = lf.select(*quantiles, timed).collect().row(0)
    if not any_time:
        msg = (
            f"time column {time!r} holds no time (only nulls): the survival horizons have "
            "no rows\n\nHint: check the time column (the time to the event or to censoring)."
        )
        raise ValueError(msg)
    if found[0] is None:
        msg = (
            f"event column {event!r} holds no observed event: the survival horizons have no "
            "cases\n\nHint: check the event coding (1 or True = event), or pass horizons."
        )
        raise ValueError(msg)
    return sorted({float(value) for value in found})


def compute(
    lf: pl.LazyFrame,
    score: str,
    *,
    time: str,
    event: str,
    horizons: float | Sequence[float] | None,
    names: list[str],
    policies: dict[str, Any] | None = None,
    weight: str | None = None,
    boot: Boot | None = None,
) -> SurvivalData:
    """
    Run the section's queries: AUC(t) per group and horizon, and the censored counts.

    With `boot` (``(n_boot, seed, level)``), percentile bootstrap intervals of AUC(t).
    """
    policies = policies or {}
    chosen = "given" if horizons is not None else "quartiles"
    points = default_horizons(lf, time, event) if horizons is None else horizons
    table = survival.time_auc(
        lf, score, time=time, event=event, horizons=points, by=names or None, **policies
    ).collect()
    grid = table["horizon"].cast(pl.Float64).unique().sort().to_list()
    flag = fresh("nan_score", names)
    h = fresh("_h", [*names, flag])
    censored = _censored(lf, score, time, event, grid, names, policies, flag, h)
    table = (
        table.with_columns(pl.col("horizon").cast(pl.Float64).alias(h))
        .join(censored, on=[*names, h], how="left", nulls_equal=True)
        .drop(h)
        .select(*names, "horizon", "auc", "n_cases", "n_controls", "n_censored", "mean_auc", flag)
    )
    notes = []
    if boot is not None:
        bounds, note = _intervals(lf, score, time, event, grid, names, policies, boot, h)
        if bounds is None:
            notes.append(note)
        else:
            on = [*names, h]
            table = (
                table.with_columns(pl.col("horizon").cast(pl.Float64).alias(h))
                .join(bounds, on=on, how="left", nulls_equal=True, maintain_order="left")
                .drop(h)
            )
    if weight is not None:
        notes.append(
            f"The survival horizons count every row once: AUC(t) takes no weights (weight "
            f"column {weight!r} is not used there)."
        )
    past = table.filter(pl.col("n_controls") == 0, pl.col("n_cases") > 0)["horizon"].unique()
    if past.len():
        shown = ", ".join(f"{h:g}" for h in past.sort().to_list())
        notes.append(
            f"Survival horizon(s) {shown} lie at or past the last follow-up"
            + (" of some group" if names else "")
            + ": no one is still event-free there, so AUC(t) and the mean AUC are undefined "
            "(null)."
        )
    level = None if boot is None or "auc_lower" not in table.columns else boot[2]
    return SurvivalData(time, event, grid, chosen, table, notes, flag, level)


def _counted(
    lf: pl.LazyFrame, score: str, time: str, event: str, policies: dict[str, Any]
) -> tuple[pl.Expr, pl.Expr]:
    """Whether a row counts in AUC(t) (its score, time and event known), and its NaN flag."""
    counted = pl.all_horizontal(pl.col(score, time, event).is_not_null())
    dtype = lf.collect_schema()[score]
    nan = pl.col(score).is_nan() if dtype.is_float() else pl.lit(value=False)
    if policies.get("nan_policy") == "omit":
        counted &= ~nan
    return counted, nan


def _censored(
    lf: pl.LazyFrame,
    score: str,
    time: str,
    event: str,
    grid: list[float],
    names: list[str],
    policies: dict[str, Any],
    flag: str,
    h: str,
) -> pl.DataFrame:
    """``*names, h, flag, n_censored``: rows censored at or before each horizon, one pass."""
    counted, nan = _counted(lf, score, time, event, policies)
    censored = counted & ~pl.col(event).cast(pl.Boolean)
    t = pl.col(time).cast(pl.Float64)
    taken = [*names, flag, h]
    keys = [fresh(f"_{j}", taken) for j in range(len(grid))]
    sums = [(censored & (t <= at)).sum().alias(key) for key, at in zip(keys, grid, strict=True)]
    flags = (nan & counted).any().alias(flag)
    per = lf.group_by(names).agg(*sums, flags) if names else lf.select(*sums, flags)
    at = dict(zip(keys, grid, strict=True))
    return (
        per.collect()
        .unpivot(index=[*names, flag], variable_name=h, value_name="n_censored")
        .with_columns(pl.col(h).replace_strict(at, return_dtype=pl.Float64))
        .with_columns(pl.col("n_censored").cast(pl.UInt32))
    )


def _intervals(
    lf: pl.LazyFrame,
    score: str,
    time: str,
    event: str,
    grid: list[float],
    names: list[str],
    policies: dict[str, Any],
    boot: Boot,
    h: str,
) -> tuple[pl.DataFrame | None, str]:
    """
    ``*names, h, auc_lower, auc_upper``: percentile bootstrap intervals of AUC(t).

    :func:`polars_roc.survival.time_auc` with ``ci="bootstrap"`` (the report's replicates and
    seed); None and why when the resampled rows would exceed :data:`MAX_BOOT_ROWS`.
    """
    n_boot, seed, level = boot
    counted, _ = _counted(lf, score, time, event, policies)
    n_rows = lf.select(counted.sum()).collect().item()
    if n_rows * n_boot > MAX_BOOT_ROWS:
        return None, (
            f"No intervals for AUC(t): {n_boot:,} resamples of {n_rows:,} rows exceed "
            f"the section's {MAX_BOOT_ROWS:,} resampled rows (use fewer bootstrap replicates)."
        )
    bounds = survival.time_auc(
        lf, score, time=time, event=event, horizons=grid, by=names or None, ci="bootstrap",
        n_boot=n_boot, seed=seed, level=level, **policies,
    )  # fmt: skip
    horizon = pl.col("horizon").cast(pl.Float64).alias(h)
    return bounds.select(*names, horizon, "auc_lower", "auc_upper").collect(), ""


def why(row: dict[str, Any], flag: str = "nan_score") -> str | None:
    """
    Why a group's AUC(t) is null, from its counts.

    Examples
    --------
    >>> why({"auc": None, "n_cases": 0, "n_controls": 5, "nan_score": False})
    'no event by t'
    >>> why({"auc": None, "n_cases": 4, "n_controls": 0, "nan_score": False})
    'no one followed past t'
    """
    if row["auc"] is not None:
        return None
    if not row["n_cases"] and not row["n_controls"]:
        return "no rows"
    if not row["n_cases"]:
        return "no event by t"
    if not row["n_controls"]:
        return "no one followed past t"
    if row.get(flag):
        return "NaN score"
    return "censoring curve at 0"


def _cell(value: Any, *, reason: str | None = None, rate: bool = False) -> str:
    if value is None:
        title = f"undefined: {reason}" if reason else "undefined"
        text = f"— ({reason})" if reason else "—"
        return f'<td class="null" title="{html.escape(title)}">{html.escape(text)}</td>'
    text = rate_text(value) if rate else f"{value:,}" if isinstance(value, int) else f"{value:g}"
    return f'<td class="num">{text}</td>'


def horizon_table(data: SurvivalData, names: list[str]) -> str:
    """The per group and horizon table; a null AUC(t) says why in its cell."""
    ci = [] if data.level is None else [f"AUC(t) {100 * data.level:g}% CI"]
    heads = [*names, "horizon", "AUC(t)", *ci, "cases", "controls", "censored before t"]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    rows = []
    for row in data.table.iter_rows(named=True):
        cells = [key_cell(row[n]) for n in names]
        cells += [_cell(row["horizon"]), _cell(row["auc"], reason=why(row, data.flag), rate=True)]
        if ci:
            lower, upper = row["auc_lower"], row["auc_upper"]
            known = lower is not None and upper is not None
            text = f"{rate_text(lower)}–{rate_text(upper)}" if known else "—"
            cells.append(f'<td class="num ci">{text}</td>')
        cells += [_cell(row[c]) for c in ("n_cases", "n_controls", "n_censored")]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "".join(rows)
    out = f'<table id="survival-table"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'
    if len(rows) <= FOLD_ROWS:
        return out
    return f"<details><summary>AUC(t) table ({len(rows):,} rows)</summary>{out}</details>"


def builders(data: SurvivalData | None, names: list[str]) -> dict[str, Callable[[], Any]]:
    """The section's chart: AUC(t) against the horizon, a line per group."""
    if data is None:
        return {}
    color = names[0] if names else None
    facet = names[1] if len(names) > 1 else None  # later group columns merged into it
    frame = merge_groups(data.table.drop("n_censored", data.flag), names)  # no extra groups

    def chart() -> Any:
        across = COLUMNS if facet is not None else None
        return charts.time_auc_chart(frame, color=color, facet=facet, columns=across, size=260)

    return {"survival": chart}


def section(data: SurvivalData, names: list[str], chart: Callable[[str], str]) -> str:
    """The section's HTML body: how the horizons were chosen, the chart, the two tables."""
    shown = ", ".join(f"{h:g}" for h in data.horizons)
    if data.chosen == "quartiles":
        chosen = (
            f"Horizons {shown}: the quartiles of the observed event times (no horizons were "
            "given; pass horizons=[...] or --horizons 90,180,365 to choose them)."
        )
    else:
        chosen = f"Horizons {shown} (in the units of column {data.time})."
    caption = (
        f"Time to event {data.time}, event {data.event}. {chosen} At each horizon t, the "
        "cases are the rows with an event at or before t, weighted by the inverse of the "
        "Kaplan–Meier curve of the censoring times of their group (IPCW); the controls are "
        "the rows still event-free after t; rows censored at or before t are neither. AUC(t) "
        "is scikit-survival's cumulative/dynamic AUC. "
    )
    if data.level is not None:
        caption += (
            f"The band and the CI column are {100 * data.level:g}% percentile bootstrap "
            "intervals (the report's replicates and seed; rows resampled within each group, "
            "each replicate with its own censoring curve)."
        )
    else:
        caption += "No confidence intervals (ci='bootstrap', --ci bootstrap, adds them)."
    mean_caption = (
        "Mean AUC over the horizons, each AUC(t) weighted by the drop of the Kaplan–Meier "
        "survival curve over its interval (as scikit-survival); null when any AUC(t) is null."
    )
    return (
        f'<p class="caption">{html.escape(caption)}</p>'
        + chart("survival")
        + horizon_table(data, names)
        + f'<p class="caption">{html.escape(mean_caption)}</p>'
        + mean_table(data, names)
    )


def mean_table(data: SurvivalData, names: list[str]) -> str:
    """The mean AUC per group; a null one says why."""
    summary = (pl.col("mean_auc").first(), pl.col("auc").is_null().any().alias("gap"))
    grouped = data.table.group_by(names, maintain_order=True) if names else None
    means = grouped.agg(*summary) if grouped is not None else data.table.select(*summary)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in [*names, "mean AUC"])
    rows = []
    for row in means.iter_rows(named=True):
        reason = "an AUC(t) is null" if row["gap"] else "no event by the last horizon"
        cells = [key_cell(row[n]) for n in names]
        cells.append(_cell(row["mean_auc"], reason=reason, rate=True))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "".join(rows)
    return (
        f'<table id="survival-mean-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )
