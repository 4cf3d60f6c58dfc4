"""
The argument types and value sets of polars_roc, for annotating code that calls it.

Each is the one definition the package itself uses (``pr.typing.Direction`` is the type of
every `direction` argument), as narwhals and polars-ds keep theirs in a ``typing`` module.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> from polars_roc.typing import Direction, NanPolicy
>>> def my_auc(df: pl.DataFrame, direction: Direction = "higher") -> float:
...     return df.roc.auc(direction=direction)["auc"].item()
>>> my_auc(pl.DataFrame({"score": [0.9, 0.1], "label": [1, 0]}), "lower")
0.0
>>> import typing
>>> typing.get_args(NanPolicy)
('propagate', 'omit', 'raise')
"""

from __future__ import annotations

from typing import Literal

from polars_roc._core.binning import Strategy
from polars_roc._core.checks import NanPolicy
from polars_roc._core.convex import Frame
from polars_roc._core.direction import Direction
from polars_roc._core.schemes import Thresholds
from polars_roc._core.validate import By

__all__ = [
    "CI",
    "Adjust",
    "Alternative",
    "Average",
    "By",
    "CutpointMethod",
    "Direction",
    "FprScale",
    "Frame",
    "MulticlassDirection",
    "MulticlassMethod",
    "NanPolicy",
    "ScoreChartKind",
    "Strategy",
    "Thresholds",
]

#: Interval methods of an AUC (``ci=``); each function takes the subset it computes
#: (``tpr_at_fpr`` and the threshold tables only ``"bootstrap"``), None for no interval.
CI = Literal["delong", "bootstrap"]
#: How a best cutpoint is chosen (``best_threshold(method=)``, the report).
CutpointMethod = Literal["youden", "closest_topleft", "cost"]
#: The alternative hypothesis of ``compare`` (AUC of model a against model b).
Alternative = Literal["two-sided", "greater", "less"]
#: Multiple-testing adjustment of p-values (``compare(adjust=)``); ``"fdr_bh"`` (statsmodels'
#: name) and ``"bh"`` are both Benjamini-Hochberg.
Adjust = Literal["holm", "bonferroni", "bh", "fdr_bh"]
#: Bins of a calibration curve: equal-width, or equal-count (quantiles of the score).
#: Multiclass AUC: one class against the rest, or each pair of classes.
MulticlassMethod = Literal["ovr", "ovo"]
#: Averaging of multiclass AUCs (None: one row per class or pair).
Average = Literal["macro", "weighted", "micro"] | None
#: Multiclass score direction: ``"auto"`` reads each pair's direction off the data (pROC).
MulticlassDirection = Literal["higher", "lower", "auto"]
#: The FPR axis of ROC charts and of the report's panels.
FprScale = Literal["linear", "log"]
#: How :func:`polars_roc.charts.score_chart` draws the scores of each class.
ScoreChartKind = Literal["histogram", "density", "sorted", "strip"]
