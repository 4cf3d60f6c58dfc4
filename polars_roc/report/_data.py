"""
What the HTML report shows: :class:`ReportData`, filled by :func:`polars_roc.report.compute`.

Examples
--------
>>> import polars_roc as pr
>>> data = pr.report.compute(pr.datasets.simulate(300, seed=1).lazy(), by="model", ci=None)
>>> type(data).__name__, data.auc.height
('ReportData', 3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from polars_roc.report.options import ReportOptions

#: Receives one-line progress messages (e.g. a function printing to stderr).
Progress = Callable[[str], None]
#: Interval methods as the page names them.
CI_NAMES = {"delong": "DeLong", "bootstrap": "Bootstrap"}


@dataclass(frozen=True)
class ReportData:
    """
    What a report shows, computed once: small frames (a row per group or point) and charts.

    Attributes
    ----------
    auc
        ``*by, auc, n_pos, n_neg`` (+ ``auc_se, auc_lower, auc_upper`` with intervals).
    curve
        ROC curves, ``*by, threshold, tp, fp, tn, fn, tpr, fpr``: every distinct score, or
        quantile thresholds for large data (see `notes`).
    partial_auc
        ``*by, pauc, pauc_std, n_pos, n_neg`` over the range in ``roles["range"]``.
    best_threshold
        The best cutpoint's row of the threshold table, per group (every row considered).
    thresholds
        The threshold table per group (``thresholds`` columns), at the thresholds of
        `curve`.
    score_chart
        The score-distribution chart's Vega-Lite spec, drawn from every scored row (None if
        it could not be drawn; `notes` says why).
    n_rows
        Rows in the input.
    roles
        Column roles and options (``score, label, by, weight, pos_label, ci, level, method,
        range``), for the page's header.
    notes
        What the reader must know: intervals not available, approximations, failures.
    gains
        The gains table per group (``gains_table`` columns), or None.
    calibration
        The calibration curve per group (``calibration`` columns), or None when the scores
        are not probabilities in [0, 1] (``roles["calibration_skipped"]`` says why) or the
        panel was not asked for.
    calibration_fit
        The calibration slope and intercept per group (``calibration_fit`` columns), or None
        when the calibration panel is not drawn.
    band
        The bootstrap band of the ROC panels (``tpr_at_fpr(..., ci="bootstrap")`` at a grid
        of FPRs), or None without bootstrap intervals.
    segments
        The "Segments" section's frames (roll-up, disparity, cross-AUC) with
        ``compute(..., segment=...)``, else None.
    survival
        The "Survival horizons" section's AUC(t) table with
        ``compute(..., time_to_event=..., event=...)``, else None.
    comparison
        The "Model comparison" section's tests (every pair of models per segment, Holm),
        when the first `by` column holds two or more models, else None.
    options
        The settings the data was computed with; :func:`polars_roc.report.render` draws the
        page with them (its title, how it gets Vega) unless told otherwise.
    """

    auc: pl.DataFrame
    curve: pl.DataFrame
    partial_auc: pl.DataFrame
    best_threshold: pl.DataFrame
    thresholds: pl.DataFrame
    score_chart: dict[str, Any] | None
    n_rows: int
    roles: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    gains: pl.DataFrame | None = None
    calibration: pl.DataFrame | None = None
    band: pl.DataFrame | None = None
    #: value and decisions: ``value``, ``value_best``, ``decision`` frames.
    decisions: dict[str, pl.DataFrame] = field(default_factory=dict)
    options: ReportOptions | None = None
    # segments: a ``report._segments.SegmentData`` with ``compute(segment=...)``
    segments: Any = None
    calibration_fit: pl.DataFrame | None = None
    # survival horizons: a ``report._survival.SurvivalData`` with
    # ``compute(time_to_event=..., event=...)``, else None
    survival: Any = None
    #: a ``report._comparison.ComparisonData`` when the first `by` column holds 2+ models
    comparison: Any = None
    #: ``compute(..., slices=[...])``: the "Weakest slices" section's frame, else None.
    slices: pl.DataFrame | None = None
