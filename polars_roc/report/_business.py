"""
The report's business and calibration panels: gains tables, gain, KS and calibration charts.

Per segment (the second group column; the first colours the models, as in every chart of the
page), the report shows:

* a gains table (:func:`polars_roc.gains.gains_table`, deciles by default: ties never split
  across bins) and the cumulative gain chart drawn from it, with the random and
  perfect-model lines;
* the KS chart (:func:`polars_roc.charts.ks_chart`): the positives' and negatives' shares
  scoring at or above each threshold, the largest gap marked, one panel per model and
  segment;
* a calibration panel (:func:`polars_roc.calibration.calibration`, reliability diagram over
  the bins' sizes) when every score lies in [0, 1]; otherwise the section says why it is
  skipped, never a blank panel.

With many segments the page stays readable: the charts and tables show the first
:data:`MAX_SEGMENTS` segments in sorted order (the KS grid the first :data:`KS_SEGMENTS`),
and a note says how many there are; the AUC table and the ROC curves cover every segment.

Examples
--------
>>> import polars_roc as pr
>>> data = pr.report.compute(pr.datasets.simulate(300, seed=1).lazy(), by="model", ci=None)
>>> data.gains["bin"].n_unique(), data.calibration is not None
(10, True)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from polars_roc import calibration as calibrating
from polars_roc import charts, gains
from polars_roc._core.swallowed import swallowed_bins
from polars_roc.charts.style import color_domain, rate_text, threshold_text
from polars_roc.report._figures import COLUMNS, panel_size
from polars_roc.report._text import key_cell

#: Most segments the business panels show (charts and gains tables).
MAX_SEGMENTS = 6
#: Most segments (grid columns) of the KS chart.
KS_SEGMENTS = 4

HEADINGS = {
    "gains": "Gains and lift",
    "ks": "KS (class separation)",
    "calibration": "Calibration",
}

#: Columns of the gains tables shown on the page, and their headers.
_GAINS_COLUMNS = {
    "bin": "bin",
    "min_score": "lowest score",
    "n": "rows",
    "n_pos": "positives",
    "response_rate": "response rate",
    "depth": "depth",
    "gain": "gain",
    "lift": "lift",
    "cum_lift": "cum. lift",
    "ks": "KS",
}


def score_range(score: str) -> list[pl.Expr]:
    """
    Expressions of the lowest and highest non-NaN score, ``_lo`` and ``_hi``.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.report._business import score_range
    >>> frame = pl.DataFrame({"score": [0.2, float("nan"), 0.9]})
    >>> frame.select(score_range("score")).row(0)
    (0.2, 0.9)
    """
    value = pl.col(score).cast(pl.Float64)
    finite = value.filter(value.is_not_nan())
    return [finite.min().alias("_lo"), finite.max().alias("_hi")]


def why_not_calibrated(lo: float | None, hi: float | None, *, lower: bool = False) -> str | None:
    """
    Why the calibration panel is skipped for scores from `lo` to `hi`, or None to draw it.

    With `lower` (``direction="lower"``: a lower score means positive) it is always
    skipped: such scores are not probabilities of the positive class.

    Examples
    --------
    >>> from polars_roc.report._business import why_not_calibrated
    >>> print(why_not_calibrated(0.01, 0.97))
    None
    >>> why_not_calibrated(-2.5, 3.0)  # doctest: +ELLIPSIS
    'Calibration is skipped: the scores run from -2.500 to 3.000, not probabilities in [0, 1]...'
    >>> why_not_calibrated(0.01, 0.97, lower=True)  # doctest: +ELLIPSIS
    'Calibration is skipped: with direction="lower" a lower score means positive...'
    """
    if lower:
        return (
            'Calibration is skipped: with direction="lower" a lower score means positive, so '
            "the scores are not probabilities of the positive class. A reliability diagram "
            "needs those (e.g. 1 minus the score, if it is the negative class's probability)."
        )
    if lo is None or hi is None:
        return "Calibration is skipped: there are no scores (every score is null or NaN)."
    if lo < 0.0 or hi > 1.0:
        return (
            f"Calibration is skipped: the scores run from {threshold_text(lo)} to "
            f"{threshold_text(hi)}, not probabilities in [0, 1]. A reliability diagram "
            "compares a predicted probability with the observed share of positives; "
            "calibrate the scores first (e.g. Platt or isotonic scaling) to draw it."
        )
    return None


def compute(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    common: dict[str, Any],
    *,
    gains_bins: int,
    calibration_bins: int | None,
    skip: str | None,
    level: float = 0.95,
) -> tuple[pl.DataFrame, pl.DataFrame | None, pl.DataFrame | None]:
    """
    The gains table, the calibration curve and its logistic fit (None when skipped).

    The calibration takes `common` less `direction` (it reads probabilities of the positive
    class, and is skipped under ``"lower"``); its bins carry Wilson intervals at `level`
    (closed form from the bins' counts, so they run on a tally), and the fit is
    :func:`polars_roc.calibration.calibration_fit` (slope and intercept, Wald intervals).
    """
    table = gains.gains_table(lf, score, label, bins=gains_bins, **common).collect()
    if skip is not None or calibration_bins is None:
        return table, None, None
    probabilities = {k: v for k, v in common.items() if k != "direction"}
    curve = calibrating.calibration(
        lf, score, label, bins=calibration_bins, ci="wilson", level=level, **probabilities
    )
    fit = calibrating.calibration_fit(lf, score, label, level=level, **probabilities)
    return table, curve.collect(), fit.collect()


#: Columns of the calibration fit table, printed with their intervals.
_FIT_COLUMNS = {"intercept": "intercept (ideal 0)", "slope": "slope (ideal 1)"}


def fit_table(fit: pl.DataFrame, names: Sequence[str], level: str) -> str:
    """
    The calibration slope and intercept per group, each with its interval, as an HTML table.

    Examples
    --------
    >>> import polars as pl
    >>> fit = pl.DataFrame({"intercept": [0.1], "intercept_lower": [-0.2],
    ...     "intercept_upper": [0.4], "slope": [0.9], "slope_lower": [0.7],
    ...     "slope_upper": [1.1], "citl": [0.01], "n_pos": [30], "n_neg": [70]})
    >>> "0.100 (−0.200 to 0.400)" in fit_table(fit, [], "95%")
    True
    """
    heads = [*names, *_FIT_COLUMNS.values(), "mean outcome − mean score"]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    rows = []
    for row in fit.iter_rows(named=True):
        cells = [key_cell(row[name]) for name in names]
        for column in _FIT_COLUMNS:
            value, low, high = (row[column], row[f"{column}_lower"], row[f"{column}_upper"])
            if value is None:
                cells.append('<td class="null" title="undefined: the fit diverged">—</td>')
                continue
            text = _signed(value)
            if low is not None and high is not None:
                text += f" ({_signed(low)} to {_signed(high)})"
            cells.append(f'<td class="num">{text}</td>')
        citl = row["citl"]
        cells.append(
            '<td class="null">—</td>' if citl is None else f'<td class="num">{_signed(citl)}</td>'
        )
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = (
        f"Logistic recalibration, logit P(y = 1) = a + b · logit(score), {level} Wald "
        "intervals: the slope b (below 1 the scores are too extreme, above 1 too timid) and "
        "the intercept a with the slope fixed at 1 (above 0 the scores are too low)."
    )
    return (
        _caption(caption)
        + f'<table id="calibration-fit"><thead><tr>{head}</tr></thead>'
        + f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _signed(value: float) -> str:
    """A coefficient as text with 3 decimals and a true minus sign."""
    return rate_text(value).replace("-", "−")


def shown(frame: pl.DataFrame, segment: str | None, most: int) -> pl.DataFrame:
    """The rows of the first `most` segments in sorted order (all rows without segments)."""
    if segment is None:
        return frame
    kept = color_domain(frame, column=segment)[:most]
    return frame.filter(pl.col(segment).is_in(kept, nulls_equal=True))


def segments_note(frame: pl.DataFrame | None, segment: str | None) -> str | None:
    """A note when there are more segments than the business panels show."""
    if frame is None or segment is None:
        return None
    count = frame.get_column(segment).n_unique()
    if count <= MAX_SEGMENTS:
        return None
    return (
        f"The gains, KS and calibration panels show the first {MAX_SEGMENTS} of {count:,} "
        f"values of {segment} in sorted order (the KS chart the first {KS_SEGMENTS}); the AUC "
        "table and the ROC curves cover every one."
    )


def builders(
    *,
    table: pl.DataFrame | None,
    curve: pl.DataFrame,
    calibration: pl.DataFrame | None,
    names: Sequence[str],
) -> dict[str, Callable[[], Any]]:
    """
    How each business chart is drawn: figure key to a function building its chart.

    The frames have their groups merged (:func:`polars_roc.report._figures.merge_groups`);
    `names` are the group columns kept (at most two: colour, then segment).
    """
    color = names[0] if names else None
    segment = names[1] if len(names) > 1 else None
    out: dict[str, Callable[[], Any]] = {}
    if table is not None:
        rows = shown(table, segment, MAX_SEGMENTS)
        across = min(rows[segment].n_unique(), COLUMNS) if segment else 1
        size = panel_size("gains", across, 400)
        grid: dict[str, Any] = {"facet": segment, "columns": COLUMNS} if segment else {}
        out["gains"] = lambda: charts.gain_chart(rows, color=color, size=size, **grid)
    ks_rows = shown(curve, segment, KS_SEGMENTS)
    if segment is not None:
        ks_across = ks_rows[segment].n_unique()
        ks_grid: dict[str, Any] = {"row": color, "column": segment}
    elif color is not None:
        ks_across = min(ks_rows[color].n_unique(), COLUMNS)
        ks_grid = {"facet": color, "columns": COLUMNS}
    else:
        ks_across, ks_grid = 1, {}
    ks_size = panel_size("ks", ks_across, 340)
    out["ks"] = lambda: charts.ks_chart(ks_rows, size=ks_size, max_points=2000, **ks_grid)
    if calibration is not None:
        bins = shown(calibration, segment, MAX_SEGMENTS)
        cal_across = min(bins[segment].n_unique(), COLUMNS) if segment else 1
        cal_size = panel_size("calibration", cal_across, 380)
        wrap: dict[str, Any] = {"facet": segment, "columns": COLUMNS} if segment else {}
        out["calibration"] = lambda: charts.calibration_chart(
            bins, color=color, size=cal_size, histogram_height=70, **wrap
        )
    return out


def _cell(value: Any, column: str) -> str:
    if value is None:
        return '<td class="null" title="undefined">—</td>'
    if column in ("bin", "n", "n_pos"):
        text = f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"
    elif column in ("min_score", "max_score"):
        text = threshold_text(value)
    elif column in ("lift", "cum_lift"):
        text = f"{value:.2f}"
    else:
        text = rate_text(value)
    return f'<td class="num">{text}</td>'


def gains_tables(table: pl.DataFrame, names: Sequence[str], *, lower: bool = False) -> str:
    """
    The gains tables as HTML: one per segment (the first open), the models one after another.

    Each bin shows the score where it ends, going down the ranking: its lowest score, or
    under ``direction="lower"`` (`lower`: rows ranked lowest score first) its highest.

    Examples
    --------
    >>> import polars_roc as pr
    >>> table = pr.datasets.simulate(200, seed=1).roc.gains_table(by="model", bins=4)
    >>> page = gains_tables(table, ["model"])
    >>> page.count("<table"), page.count("<tr>")
    (1, 13)
    >>> "highest score" in gains_tables(table, ["model"], lower=True)
    True
    """
    color = names[0] if names else None
    segment = names[1] if len(names) > 1 else None
    cutoff = {"min_score": ("max_score", "highest score")} if lower else {}
    headers = dict(cutoff.get(c, (c, h)) for c, h in _GAINS_COLUMNS.items())
    columns = [c for c in headers if c in table.columns]
    head = "".join(
        f"<th>{html.escape(text)}</th>"
        for text in ([color] if color else []) + [headers[c] for c in columns]
    )

    def one(rows: pl.DataFrame, key: str) -> str:
        body = []
        has_bins = "bin" in rows.columns
        empty = swallowed(rows, names).to_list() if has_bins else [None] * rows.height
        for row, ties in zip(rows.iter_rows(named=True), empty, strict=True):
            first = key_cell(row[color]) if color else ""
            cells = [_cell(row[c], c) for c in columns]
            if ties is not None and "bin" in columns:  # the bin that swallowed empty ones
                note = html.escape(f"{row['bin']} (with {ties}: tied scores)")
                why = html.escape(
                    f"A block of tied scores reaches past bin{'s' if '–' in ties else ''} "
                    f"{ties}: ties are never split, so the block sits whole in this bin and "
                    f"bin{'s' if '–' in ties else ''} {ties} {'are' if '–' in ties else 'is'} "
                    "empty."
                )
                cells[columns.index("bin")] = f'<td class="num tied" title="{why}">{note}</td>'
            body.append(f"<tr>{first}{''.join(cells)}</tr>")
        return (
            f'<table class="gains" id="{key}"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table>"
        )

    if segment is None:
        return one(table, "gains-table")
    parts = []
    for index, value in enumerate(color_domain(table, column=segment)[:MAX_SEGMENTS]):
        rows = table.filter(pl.col(segment).eq_missing(value))
        summary = html.escape(f"{segment} = {value}")
        opened = " open" if index == 0 else ""
        table_html = one(rows, f"gains-table-{index}")
        parts.append(f"<details{opened}><summary>{summary}</summary>{table_html}</details>")
    return "".join(parts)


def swallowed(table: pl.DataFrame, names: Sequence[str]) -> pl.Series:
    """
    Per gains-table row, the empty bins its tied scores swallowed (``"2"``, ``"1–3"``), or null.

    A block of tied scores is never split across bins, so when it reaches past the end of
    one or more bins it sits whole in the bin where it ends and the bins it crossed are
    empty and left out of the table (``bin`` skips them).

    Examples
    --------
    >>> import polars as pl
    >>> table = pl.DataFrame({"model": ["a", "a", "a", "b"], "bin": [3, 4, 6, 1]})
    >>> swallowed(table, ["model"]).to_list()
    ['1–2', None, '5', None]
    """
    groups = [name for name in names[:2] if name in table.columns]
    return table.select(swallowed_bins(groups).alias("swallowed")).to_series()


def sections(
    *,
    table: pl.DataFrame | None,
    gains_bins: int,
    calibration_bins: int | None,
    skip: str | None,
    names: Sequence[str],
    chart: Callable[[str], str],
    lower: bool = False,
    fit: pl.DataFrame | None = None,
    level: str = "95%",
) -> list[tuple[str, str, str]]:
    """
    (key, heading, HTML) of the gains, KS and calibration sections, in page order.

    `lower`: the report ran with ``direction="lower"`` (rows ranked lowest score first).
    """
    color = names[0] if names else None
    per = f", one panel per {names[1]}" if len(names) > 1 else ""
    out = []
    if table is not None:
        caption = (
            f"Rows ranked by score, {'lowest' if lower else 'highest'} first, cut into "
            f"{gains_bins} bins of equal size "
            "(ties never split across bins, so a bin may hold more or fewer rows). Gain is "
            "the share of positives reached down to the bin; lift the bin's response rate "
            "over the overall rate; KS the gap between the classes' cumulative shares. The "
            f"chart shows the gain against depth{f', one line per {color}' if color else ''}"
            f"{per}, over the random diagonal and the perfect model (dotted)."
        )
        tables = gains_tables(table, names, lower=lower)
        empty = swallowed(table, names).drop_nulls()
        if empty.len():  # say where ties emptied bins
            tables += (
                '<p class="explain">'
                + html.escape(
                    f"{empty.len():,} bin(s) above hold every row of a block of tied scores "
                    "that reaches past one or more bins; those bins are empty and left out "
                    "(the bin cell and the gain chart's tooltip say which, e.g. "
                    '"3 (with 1–2: tied scores)"); the gain chart has no point for them.'
                )
                + "</p>"
            )
        out.append(("gains", _caption(caption) + tables + chart("gains")))
    if len(names) > 1:
        layout = f" (one row of panels per {color}, one column per {names[1]})"
    else:
        layout = f" (one panel per {color})" if color else ""
    ks_caption = (
        f"The share of positives and of negatives scoring at or {'below' if lower else 'above'} "
        "each threshold; the "
        f"black rule marks the largest gap, the KS statistic, at its threshold{layout}. The "
        "wider the gap, the better the score separates the classes."
    )
    out.append(("ks", _caption(ks_caption) + chart("ks")))
    if calibration_bins is not None:
        if skip is not None:
            body = f'<p class="note">{html.escape(skip)}</p>'
        else:
            body = _caption(
                f"Observed share of positives against the mean score in {calibration_bins} "
                "equal-width bins: a well-calibrated probability lies on the dashed diagonal "
                "(above it the score under-predicts, below it over-predicts). The bars "
                "beneath count the rows in each bin: sparse bins are noisy"
                + (
                    f"; the vertical bars are each bin's {level} Wilson interval."
                    if fit is not None
                    else "."
                )
            ) + chart("calibration")
            if fit is not None:
                segment = names[1] if len(names) > 1 else None
                body += fit_table(shown(fit, segment, MAX_SEGMENTS), names, level)
        out.append(("calibration", body))
    return [
        (
            key,
            HEADINGS[key],
            f'<section id="{key}"><h2>{html.escape(HEADINGS[key])}</h2>{body}</section>',
        )
        for key, body in out
    ]


def _caption(text: str) -> str:
    return f'<p class="caption">{html.escape(text)}</p>'
