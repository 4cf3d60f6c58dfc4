"""The report's "Segments" section: roll-up in words, forest with summaries, disparity, heatmap."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from polars_roc import areas, charts, segments
from polars_roc.report._text import key_text
from polars_roc.segments.disparity import disparity

#: The heatmap is drawn up to this many segments.
MAX_HEATMAP = 30

#: Disparity tests the largest this many segments (by rows) one by one; the rest as one.
MAX_DISPARITY = 30


@dataclass(frozen=True)
class SegmentData:
    """The section's frames: per segment AUC (DeLong), roll-up, disparity, cross-AUC."""

    segment: str
    auc: pl.DataFrame
    rollup: pl.DataFrame
    disparity: pl.DataFrame
    cross: pl.DataFrame | None
    #: How many small segments disparity tested together as one (0: every one alone).
    pooled: int = 0


def capped(lf: pl.LazyFrame, segment: str, n_segments: int) -> tuple[pl.LazyFrame, int]:
    """
    `lf` with all but the :data:`MAX_DISPARITY` largest segments (by rows) relabelled as one.

    Disparity reads every row once per segment, so thousands of segments cost thousands of
    passes; the smaller segments are tested together as ``"other (k segments)"`` (the
    segment column becomes text). Returns the frame and ``k`` (0 when nothing is pooled).

    Examples
    --------
    >>> lf = pl.LazyFrame({"s": [1, 1, 1, 2, 2, 3]})
    >>> out, k = capped(lf, "s", 3)
    >>> k
    0
    """
    if n_segments <= MAX_DISPARITY:
        return lf, 0
    sizes = lf.group_by(segment).len().sort(["len", segment], descending=[True, False])
    kept = sizes.head(MAX_DISPARITY).select(segment).collect()[segment]
    k = n_segments - MAX_DISPARITY
    text = pl.col(segment).cast(pl.String)
    big = pl.col(segment).is_in(kept.drop_nulls().implode())
    if kept.has_nulls():  # a null segment among the largest stays itself
        big = big | pl.col(segment).is_null()
    label = pl.when(big).then(text)
    return lf.with_columns(label.otherwise(pl.lit(f"other ({k:,} segments)")).alias(segment)), k


def compute(
    lf: pl.LazyFrame, score: str, label: str, segment: str, common: dict[str, Any], level: float
) -> SegmentData:
    """
    Run the section's queries: one collect each.

    Examples
    --------
    >>> import polars_roc as pr
    >>> lf = pr.datasets.simulate(600, seed=1).lazy()
    >>> data = compute(lf, "score", "label", "segment", {"by": ["model"]}, 0.95)
    >>> data.rollup.height, data.cross is not None
    (3, True)
    """
    names = list(common.get("by") or [])
    by = [*names, segment]
    auc = areas.auc(lf, score, label, **{**common, "by": by}, ci="delong", level=level).collect()
    kwargs = {**common, "segment": segment}
    rolled = segments.rollup(lf, score, label, **kwargs, level=level).collect()
    n_segments = lf.select(pl.col(segment).n_unique()).collect().item()
    tested, pooled = capped(lf, segment, n_segments)
    gaps = disparity(tested, score, label, **kwargs, level=level).collect()
    cross = None
    if n_segments <= MAX_HEATMAP:
        cross = segments.cross_auc(lf, score, label, **kwargs).collect()
    return SegmentData(segment, auc, rolled, gaps, cross, pooled)


def in_words(row: dict[str, Any]) -> str:
    """
    One roll-up row as a sentence.

    Examples
    --------
    >>> row = {"pooled_auc": 0.78, "within_auc": 0.71, "between": 0.07, "n_segments": 5,
    ...        "q_p_value": 0.01, "i2": 0.6}
    >>> in_words(row)[:82]
    'within-segment AUC 0.710 of pooled 0.780: 0.070 of the headline comes from segment'
    >>> in_words(row)[-72:]
    'the 5 segment AUCs differ more than chance (Cochran p = 0.01, I² = 60%).'
    """
    pooled, within = row.get("pooled_auc"), row.get("within_auc")
    if pooled is None or within is None:
        return "the pooled or within-segment AUC is undefined."
    between = row["between"]
    if abs(between) < 0.0005:
        text = f"within-segment AUC {within:.3f} ≈ pooled {pooled:.3f}: base rates add nothing"
    elif between > 0:
        text = (
            f"within-segment AUC {within:.3f} of pooled {pooled:.3f}: {between:.3f} of the "
            "headline comes from segment base rates"
        )
    else:
        text = (
            f"within-segment AUC {within:.3f} above the pooled {pooled:.3f}: mixing the "
            f"segments costs {-between:.3f}"
        )
    k, p = row.get("n_segments"), row.get("q_p_value")
    if p is None:
        return text + "."
    i2 = row.get("i2") or 0.0
    verdict = "differ more than chance" if p < 0.05 else "are consistent"
    same = " — the question of the disparity table's one test" if k == 2 else ""
    return f"{text}; the {k} segment AUCs {verdict} (Cochran p = {p:.2g}, I² = {i2:.0%}{same})."


def builders(data: SegmentData | None, names: list[str]) -> dict[str, Callable[[], Any]]:
    """The section's chart: the forest with its summary rows, beside the heatmap."""
    if data is None:
        return {}
    facet = names[0] if names else None

    def chart() -> Any:
        forest = charts.auc_interval_chart(data.auc, rollup=data.rollup, facet=facet)
        if data.cross is None or len(names) > 1:  # one heatmap per model: one `by` column
            return forest
        return forest & charts.cross_auc_chart(data.cross, facet=facet)

    return {"segments": chart}


def _tested(gaps: pl.DataFrame, names: list[str]) -> set[int]:
    """The numbers of tested segments (non-null p-values) of the groups."""
    tested = pl.col("p_value").is_not_null().sum().alias("k")
    counts = gaps.group_by(names).agg(tested) if names else gaps.select(tested)
    return set(counts["k"].to_list())


def section(
    data: SegmentData,
    names: list[str],
    table: Callable[[pl.DataFrame, str], str],
    chart: Callable[[str], str],
) -> str:
    """The section's HTML body: the roll-up in words and as a table, the charts, disparity."""
    sentences = []
    for row in data.rollup.iter_rows(named=True):
        who = " · ".join(key_text(row[n]) for n in names)
        lead = f"{who}: " if who else ""
        sentences.append(f"<li>{html.escape(lead + in_words(row))}</li>")
    rollup = data.rollup.select(*names, *segments.ROLLUP_COLUMNS)
    ordered = data.disparity.sort(
        pl.col("p_adjusted").is_null(), "p_adjusted", nulls_last=True, maintain_order=True
    )
    heat = (
        "The heatmap shows each segment's positives against each segment's negatives."
        if data.cross is not None
        else f"No heatmap: more than {MAX_HEATMAP} segments."
    )
    pooled = (
        f" The {MAX_DISPARITY} largest segments by rows are tested one by one; the other "
        f"{data.pooled:,} are tested together as one segment."
        if data.pooled
        else ""
    )
    counts = _tested(data.disparity, names)
    adjusted = (
        "Holm-adjusted over the segments of each group "
        f"({' and '.join(sorted(f'{k} tests' for k in counts if k > 2))}); "
        if any(k > 2 for k in counts)
        else ""
    )
    two = (
        " A group of two segments holds one comparison (one segment against the other: its "
        "two rows are the same test, asking what the roll-up's Cochran p asks), so its p is "
        "not adjusted."
        if 2 in counts
        else ""
    )
    return (
        f'<p class="caption">Segments of column {html.escape(data.segment)}: pooled against '
        "within-segment AUC, the inverse-variance (IVW) mean of the segment AUCs with "
        f"Cochran's Q. {heat}</p><ul>{''.join(sentences)}</ul>"
        + table(rollup, "rollup-table")
        + chart("segments")
        + '<p class="caption">Each segment against the rest of its group (unpaired DeLong '
        f"test of the AUC), {adjusted}significant rows first.{two}{pooled}</p>"
        + table(ordered, "disparity-table")
    )
