"""
The report's value and decision panels.

With an amount (``--gain-tp COL``, ``--cost-fp X``, ...), the page shows each group's value
curve (:func:`polars_roc.decisions.value_curve`) and its value-optimal threshold per
segment, within ``--capacity`` when given (``best_threshold(method="value")``). With
probabilities (every score in [0, 1], ``direction="higher"``: the calibration panel's test),
it shows the decision curve (net benefit against treat-all and treat-none, as ``dcurves``).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from polars_roc import charts
from polars_roc.charts.style import threshold_text
from polars_roc.decisions import decision_curve, value_curve
from polars_roc.report._text import key_cell
from polars_roc.thresholds import best_threshold

HEADINGS = {"value": "Value of each threshold", "decision": "Decision curve"}

#: The columns of the value-optimal table shown on the page.
_BEST = ("threshold", "depth", "tp", "fp", "value", "value_per_case")
#: Their headers.
_LABELS = {
    "threshold": "threshold",
    "depth": "share flagged",
    "tp": "true positives",
    "fp": "false positives",
    "value": "value",
    "value_per_case": "value per case",
}


def compute(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    common: dict[str, Any],
    *,
    amounts: dict[str, Any] | None,
    capacity: float | None,
    probabilities: bool,
) -> dict[str, pl.DataFrame]:
    """``value`` (curve), ``value_best`` and ``decision`` frames, where they apply."""
    out: dict[str, pl.DataFrame] = {}
    if amounts is not None:
        out["value"] = value_curve(lf, score, label, **amounts, **common).collect()
        best = best_threshold(
            lf, score, label, method="value", capacity=capacity, **amounts, **common
        )
        out["value_best"] = best.collect()
    if probabilities:
        roles = {k: common[k] for k in ("by", "weight", "pos_label", "nan_policy") if k in common}
        out["decision"] = decision_curve(lf, score, label, **roles).collect()
    return out


def builders(
    frames: dict[str, pl.DataFrame],
    names: Sequence[str],
    capacity: float | None,
    merge: Callable[[pl.DataFrame], pl.DataFrame],
) -> dict[str, Callable[[], Any]]:
    """Chart builders of the value and decision panels (one colour per model, a panel each)."""
    color = names[0] if names else None
    facet = names[1] if len(names) > 1 else None
    out: dict[str, Callable[[], Any]] = {}
    if "value" in frames:
        values = merge(frames["value"])
        out["value"] = lambda: charts.value_chart(
            values, capacity=capacity, color=color, facet=facet, columns=3
        )
    if "decision" in frames:
        curve = merge(frames["decision"])
        out["decision"] = lambda: charts.decision_curve_chart(
            curve, color=color, facet=facet, columns=3
        )
    return out


def _table(frame: pl.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(_LABELS.get(c, c))}</th>" for c in frame.columns)
    rows = []
    for row in frame.iter_rows(named=True):
        cells = []
        for column, value in row.items():
            if column not in _LABELS:  # a group key, as the data holds it
                cells.append(key_cell(value))
                continue
            if column == "threshold" and isinstance(value, float):
                text = threshold_text(value)  # 4 significant digits, as everywhere
            else:
                number = isinstance(value, float)
                text = "–" if value is None else f"{value:.4g}" if number else value
            cells.append(f"<td>{html.escape(str(text))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "".join(rows)
    return f'<table id="value-best"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def sections(
    frames: dict[str, pl.DataFrame],
    names: Sequence[str],
    roles: dict[str, Any],
    chart: Callable[[str], str],
) -> list[tuple[str, str, str]]:
    """(key, heading, HTML) of the value and decision sections."""
    out = []
    if "value_best" in frames:
        amounts = ", ".join(f"{k} = {v}" for k, v in roles.get("amounts", {}).items())
        capacity = roles.get("capacity")
        within = f", within a capacity of {capacity}" if capacity is not None else ""
        caption = (
            f"The value of flagging the rows at or above each threshold ({amounts}), against "
            f"the share of rows flagged; the point marks each group's value-optimal "
            f"threshold{within} (hollow: without the capacity). The table lists it per group."
        )
        best = frames["value_best"].select(*names, *_BEST)
        body = f'<p class="caption">{html.escape(caption)}</p>' + _table(best) + chart("value")
        out.append(("value", HEADINGS["value"], body))
    if "decision" in frames:
        caption = (
            "Net benefit TP/n − FP/n · t/(1 − t) at each threshold probability t (the Python "
            "dcurves package's numbers), against treating everyone (dashed) and no one (0)."
        )
        body = f'<p class="caption">{html.escape(caption)}</p>' + chart("decision")
        out.append(("decision", HEADINGS["decision"], body))
    return [(k, h, f'<section id="{k}"><h2>{html.escape(h)}</h2>{b}</section>') for k, h, b in out]
