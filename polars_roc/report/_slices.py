"""The report's "Weakest slices" section: the slices whose AUC falls furthest below the rest."""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import polars as pl

from polars_roc import charts
from polars_roc.slices import slices

#: The section's heading, keyed as the page orders sections.
HEADINGS = {"slices": "Weakest slices"}
#: The slices the section's table and chart show.
SHOWN = 15


def compute(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    features: Sequence[str],
    common: dict[str, Any],
    level: float,
) -> pl.DataFrame:
    """
    Every slice of one or two of `features` per group, worst first: one collect.

    Examples
    --------
    >>> import polars_roc as pr
    >>> lf = pr.datasets.simulate(2000, seed=1).lazy()
    >>> out = compute(lf, "score", "label", ["segment", "fold"], {"by": ["model"]}, 0.95)
    >>> out.columns[:4]
    ['model', 'slice', 'segment', 'fold']
    """
    return slices(lf, score, label, features=list(features), level=level, **common).collect()


def builders(frame: pl.DataFrame | None) -> dict[str, Callable[[], Any]]:
    """The section's chart: the weakest slices as a forest of AUC gaps."""
    if frame is None:
        return {}
    return {"slices": lambda: charts.slice_chart(frame, top=SHOWN)}


def section(
    frame: pl.DataFrame,
    features: Sequence[str],
    table: Callable[[pl.DataFrame, str], str],
    chart: Callable[[str], str],
) -> str:
    """The section's HTML body: what was sliced, the chart, the weakest slices' table."""
    named = ", ".join(html.escape(f) for f in features)
    tested = frame.filter(pl.col("p_value").is_not_null()).height
    flagged = frame.filter(pl.col("p_adjusted") < 0.05).height
    return (
        f'<p class="caption">Every slice of one or two of {named} (numeric columns cut at '
        "their quartiles) with at least 10 positives and 10 negatives, against the rest of "
        f"its group (unpaired DeLong test of the AUC); {tested} slices tested, {flagged} "
        "below or above the rest at a Benjamini-Hochberg adjusted p &lt; 0.05. The "
        f"{SHOWN} lowest gaps:</p>" + chart("slices") + table(frame.head(SHOWN), "slices-table")
    )
