"""
The report's "Over time" section: the AUC per window and group, its alerts, the PSI.

Computed apart from the rest of the report (:func:`compute`), from the same rows and roles,
and handed to :func:`polars_roc.report.render` (``over_time=``): the section holds the
over-time chart (one panel per value of the first group column, one line per value of the
second), the table of alerting windows, the PSI chart and a table of the latest window's
PSI and KS test; :func:`headline` is the one line the top of the page states about the
latest window.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from polars_roc import charts
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction
from polars_roc.charts.style import rate_text
from polars_roc.monitoring import score_stability
from polars_roc.monitoring.over_time import over_time
from polars_roc.report._text import key_cell, key_text
from polars_roc.report.options import MIN_COUNT, check_min_count

__all__ = [
    "OverTimeData",
    "compute",
    "figures",
    "headline",
    "parse_reference",
    "section",
]

#: The section's key (element ids) and heading.
KEY, HEADING = "over-time", "Over time"

#: The section's table headers.
LABELS = {
    "window_start": "window",
    "estimate": "AUC",
    "lower": "lower",
    "upper": "upper",
    "n": "rows",
    "n_pos": "positives",
    "n_neg": "negatives",
    "ref_lower": "reference band lower",
    "ref_upper": "reference band upper",
    "change": "change",
    "reason": "not alerted because",
    "psi": "PSI",
    "ks": "KS",
    "ks_p_value": "KS p",
    "n_ref": "reference rows",
}


@dataclass(frozen=True)
class OverTimeData:
    """What the section shows: the AUC per window (DeLong) and the score stability."""

    frame: pl.DataFrame
    stability: pl.DataFrame | None
    names: list[str]
    time: str
    every: str
    reference: tuple[Any, Any] | None
    k: float
    #: The smallest count of positives and of negatives of an alerting window.
    min_count: float = MIN_COUNT


def parse_reference(text: str | None) -> tuple[Any, Any] | None:
    """
    ``"a..b"`` as a ``(start, end)`` pair: integers when both ends are, else ISO text.

    Examples
    --------
    >>> parse_reference("2024-01-01..2024-03-31"), parse_reference("1..6")
    (('2024-01-01', '2024-03-31'), (1, 6))
    """
    if text is None:
        return None
    start, sep, end = text.partition("..")
    if not sep or not start or not end:
        msg = (
            f"--reference takes START..END, got {text!r}"
            "\n\nHint: --reference 2024-01-01..2024-03-31"
        )
        raise ValueError(msg)
    if start.lstrip("-").isdigit() and end.lstrip("-").isdigit():
        return int(start), int(end)
    return start, end


def compute(
    lf: pl.LazyFrame | pl.DataFrame,
    score: str,
    label: str,
    *,
    time: str,
    every: str,
    reference: tuple[Any, Any] | None,
    by: list[str],
    weight: str | None = None,
    pos_label: Any = None,
    k: float = 3.0,
    level: float = 0.95,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    min_count: float = MIN_COUNT,
) -> OverTimeData:
    """
    The AUC per window with DeLong intervals, and (with a reference) the score stability.

    A window alerts when its AUC leaves the reference band and it holds at least
    `min_count` positives and `min_count` negatives; a smaller window is shown, never
    alerted, and the section says why (``reason``). Each alert says whether the AUC fell
    below the band or rose above it (``change``).

    Parameters
    ----------
    lf
        Scored rows with a time column.
    score, label, by, weight, pos_label
        The report's column roles.
    time, every, reference, k, level
        As in :func:`polars_roc.monitoring.over_time` (`reference` a ``(start, end)`` pair
        or None: no band, no alerts, no stability).
    direction, nan_policy
        As everywhere.
    min_count
        The smallest count of positives and of negatives (weight sums when weighted) of
        a window that may alert (default :data:`MIN_COUNT`).

    Returns
    -------
    OverTimeData
        The frames the section shows.
    """
    roles: dict[str, Any] = {"direction": direction, "nan_policy": nan_policy}
    min_count = check_min_count(min_count)
    lf = lf.lazy()  # a DataFrame too
    frame = over_time(
        lf,
        score,
        label,
        time=time,
        every=every,
        by=by,
        ci="delong",
        level=level,
        reference=reference,
        k=k,
        weight=weight,
        pos_label=pos_label,
        **roles,
    ).collect()
    frame = counted(frame, min_count)
    stability = None
    if reference is not None:
        stability = score_stability(
            lf, score, time=time, every=every, reference=reference, by=by, **roles
        ).collect()
    return OverTimeData(frame, stability, list(by), time, every, reference, k, min_count)


def _number(column: str) -> pl.Expr:
    """A count as text: ``1`` for 1.0, two decimals for a weight sum."""
    return pl.col(column).round(2).cast(pl.String).str.replace(r"\.0$", "")


#: The columns :func:`counted` adds to the over-time frame.
ADDED = ("n_neg", "change", "reason")


def counted(frame: pl.DataFrame, min_count: float) -> pl.DataFrame:
    """
    The windows with ``n_neg``, ``change`` and ``reason``; a small window never alerts.

    ``change`` is ``"fell"`` (the AUC below the reference band) or ``"rose"`` (above it);
    ``reason`` says why an out-of-band window does not alert (too few positives or
    negatives), null otherwise.

    Examples
    --------
    >>> frame = pl.DataFrame({"window_start": [1, 2, 3], "estimate": [0.5, 0.95, 0.3],
    ...     "n": [45, 200, 300], "n_pos": [1, 50, 60], "ref_lower": [0.7] * 3,
    ...     "ref_upper": [0.9] * 3, "alert": [True, True, True]})
    >>> out = counted(frame, 10)
    >>> out["alert"].to_list(), out["change"].to_list()
    ([False, True, True], ['fell', 'rose', 'fell'])
    >>> out["reason"][0]
    '1 positive(s) < 10'
    """
    n_neg = (pl.col("n") - pl.col("n_pos")).alias("n_neg")
    frame = frame.with_columns(n_neg)
    out_of_band = pl.col("alert").fill_null(False)
    change = (
        pl.when(pl.col("estimate") < pl.col("ref_lower"))
        .then(pl.lit("fell"))
        .when(pl.col("estimate") > pl.col("ref_upper"))
        .then(pl.lit("rose"))
    )
    few_pos = pl.col("n_pos") < min_count
    few_neg = pl.col("n_neg") < min_count
    why = pl.concat_str(
        pl.when(few_pos).then(_number("n_pos") + pl.lit(" positive(s)")),
        pl.when(few_neg).then(_number("n_neg") + pl.lit(" negative(s)")),
        separator=" and ",
        ignore_nulls=True,
    ) + pl.lit(f" < {min_count:g}")
    small = few_pos | few_neg
    return frame.with_columns(
        pl.when(out_of_band).then(change).alias("change"),
        pl.when(out_of_band & small).then(why).alias("reason"),
        (out_of_band & ~small.fill_null(True)).alias("alert"),
    )


def figures(data: OverTimeData) -> dict[str, Callable[[], Any]]:
    """
    The section's chart builders by key (each called when the page is drawn).

    One panel per value of the first group column, one line per value of the second.
    """
    names = data.names
    facet = names[0] if names else None
    color = names[1] if len(names) > 1 else None
    columns = 2 if facet else None
    # the section's own columns are no groups of the chart (its `alert` already honours
    # min_count: a small window gets no ring)
    windows = data.frame.drop(ADDED, strict=False)
    builders: dict[str, Callable[[], Any]] = {
        KEY: lambda: charts.over_time_chart(
            windows, color=color, facet=facet, columns=columns, width=380
        )
    }
    if data.stability is not None:
        stability = data.stability
        builders[f"{KEY}-psi"] = lambda: charts.stability_chart(
            stability, color=color, facet=facet, columns=columns, width=380, height=120
        )
    return builders


def _window(value: Any) -> str:
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def headline(data: OverTimeData) -> str:
    """
    The latest window's alerts in one line (the top of the page states it).

    Examples
    --------
    >>> import polars as pl
    >>> frame = pl.DataFrame(
    ...     {"segment": ["a", "b"], "window_start": [3, 3], "estimate": [0.81, 0.62],
    ...      "ref_lower": [0.78, 0.8], "ref_upper": [0.9, 0.9], "alert": [False, True],
    ...      "change": [None, "fell"], "reason": [None, None]}
    ... )
    >>> headline(OverTimeData(frame, None, ["segment"], "t", "1i", (1, 2), 3.0))
    'Latest window (3): 1 alert: segment b, AUC 0.620 fell below its reference band 0.800 to 0.900.'
    """
    frame = data.frame
    if frame.height == 0:
        return "Over time: no windows."
    latest = frame.filter(pl.col("window_start") == pl.col("window_start").max())
    when = _window(latest["window_start"][0])
    if data.reference is None:
        return f"Latest window ({when}): no reference period given, so no alerts."
    alerts = latest.filter(pl.col("alert").fill_null(False))
    small = latest.filter(pl.col("reason").is_not_null()).height
    unalerted = (
        f" ({small} out-of-band group(s) hold fewer than {data.min_count:g} positives or "
        "negatives: not alerted)"
        if small
        else ""
    )
    if alerts.height == 0:
        return f"Latest window ({when}): no alerts{unalerted}."
    items = []
    for row in alerts.iter_rows(named=True):
        group = ", ".join(f"{name} {key_text(row[name])}" for name in data.names) or "all rows"
        moved = {"fell": "fell below", "rose": "rose above"}.get(row["change"], "left")
        items.append(
            f"{group}, AUC {rate_text(row['estimate'])} {moved} its reference band "
            f"{rate_text(row['ref_lower'])} to {rate_text(row['ref_upper'])}"
        )
    noun = "alert" if alerts.height == 1 else "alerts"
    return f"Latest window ({when}): {alerts.height} {noun}: {'; '.join(items)}{unalerted}."


def _table(frame: pl.DataFrame, columns: list[str], key: str, names: list[str]) -> str:
    head = "".join(f"<th>{html.escape(LABELS.get(c, c))}</th>" for c in columns)
    rows = []
    for row in frame.select(columns).iter_rows():
        cells = []
        for column, value in zip(columns, row, strict=True):
            if column in names:  # a group key, as the data holds it
                cells.append(key_cell(value))
            elif value is None:
                cells.append('<td class="null" title="undefined">—</td>')
            elif isinstance(value, float):
                cells.append(f'<td class="num">{rate_text(value)}</td>')
            elif isinstance(value, int) and not isinstance(value, bool):
                cells.append(f'<td class="num">{value:,}</td>')
            else:
                cells.append(f"<td>{html.escape(_window(value))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "".join(rows)
    return f'<table id="{key}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _chart(key: str, drawn: set[str]) -> str:
    if key not in drawn:
        return ""
    return f'<div class="chart" id="chart-{key}" data-spec="spec-{key}"></div>'


def section(data: OverTimeData, drawn: set[str]) -> tuple[str, str, str]:
    """(key, heading, HTML) of the section."""
    names = data.names
    reference = (
        f"The grey band is the reference: mean ± {data.k:g} sd of the AUCs of the windows "
        f"inside {_window(data.reference[0])} to {_window(data.reference[1])}; red rings "
        "mark later windows that leave it."
        if data.reference is not None
        else "No reference period was given (--reference START..END), so no band or alerts."
    )
    minimum = (
        f" A window alerts only with at least {data.min_count:g} positives and "
        f"{data.min_count:g} negatives (min_count, --min-count): a smaller one is drawn but "
        "never alerted."
        if data.reference is not None
        else ""
    )
    caption = (
        f"AUC per {data.every} window of {data.time}, with its DeLong interval (shaded). "
        f"{reference} A window with one class has no AUC.{minimum}"
    )
    parts = [f'<p class="caption">{html.escape(caption)}</p>', _chart(KEY, drawn)]
    alerts = data.frame.filter(pl.col("alert").fill_null(False))
    small = data.frame.filter(pl.col("reason").is_not_null())
    columns = [*names, "window_start", "estimate", "lower", "upper", "n_pos", "n_neg"]
    band = ["ref_lower", "ref_upper"]
    if data.reference is not None:
        parts.append(
            f'<p class="caption">{alerts.height} alerting window(s); "fell": the AUC is below '
            'its reference band, "rose": above it.</p>'
            + (
                _table(alerts, [*columns, *band, "change"], "over-time-alerts", names)
                if alerts.height
                else ""
            )
        )
    if small.height:
        parts.append(
            f'<p class="caption">{small.height} window(s) outside the reference band hold '
            f"fewer than {data.min_count:g} positives or negatives: not alerted.</p>"
            + _table(small, [*columns, *band, "change", "reason"], "over-time-small", names)
        )
    if data.stability is not None:
        latest = data.stability.filter(pl.col("window_start") == pl.col("window_start").max())
        parts += [
            '<p class="caption">Population stability index of the scores against the '
            "reference rows, per window (0.1: some shift, 0.25: a large shift), and the "
            "latest window's PSI and two-sample Kolmogorov-Smirnov test.</p>",
            _chart(f"{KEY}-psi", drawn),
            _table(
                latest,
                [*names, "window_start", "psi", "ks", "ks_p_value", "n", "n_ref"],
                "psi-table",
                names,
            ),
        ]
    body = f'<section id="{KEY}"><h2>{HEADING}</h2>{"".join(parts)}</section>'
    return KEY, HEADING, body
