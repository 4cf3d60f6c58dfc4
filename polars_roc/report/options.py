"""
The report's settings as one frozen value: what the report computes and how it is drawn.

Every value is checked once, when the options are made, so a bad setting fails before any
data is read; :func:`~polars_roc.report.compute`, :func:`~polars_roc.report.to_html` and the
command line all build one :class:`ReportOptions` (the functions also take the same settings
as keywords and build it from them).

Examples
--------
>>> import polars_roc as pr
>>> options = pr.report.ReportOptions(ci="bootstrap", n_boot=500, fpr=(0.0, 0.1))
>>> options.partial_range
('fpr', (0.0, 0.1))
>>> options.replace(method="cost", cost_fn=5).cost_fn
5.0
>>> pr.report.ReportOptions(level=2)
Traceback (most recent call last):
...
ValueError: level must lie strictly between 0 and 1, got 2
<BLANKLINE>
Hint: level=0.95.
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import polars as pl

from polars_roc._core import checks, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction, flips
from polars_roc._core.value import check_amounts, check_capacity
from polars_roc.typing import CI, CutpointMethod, FprScale

__all__ = [
    "MIN_COUNT",
    "CutpointMethod",
    "FprScale",
    "JsMode",
    "ReportCI",
    "ReportOptions",
    "check_min_count",
]

#: The over-time alerts' default minimum count of positives and of negatives per window.
MIN_COUNT = 10

#: Interval methods of the report's AUC table.
ReportCI = CI
#: How the page gets Vega: embedded, linked from a CDN, or embedded when possible.
JsMode = Literal["auto", "inline", "cdn"]


def check_min_count(value: Any) -> float:
    """
    The over-time alerts' minimum count: a finite number >= 0, else a one-line error.

    Examples
    --------
    >>> check_min_count(5)
    5
    >>> check_min_count(-1)
    Traceback (most recent call last):
    ...
    ValueError: min_count must be a finite number >= 0, got -1
    <BLANKLINE>
    Hint: min_count=10.
    """
    number = isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)
    if not number or not 0 <= value < float("inf"):
        msg = f"min_count must be a finite number >= 0, got {value!r}\n\nHint: min_count=10."
        raise ValueError(msg)
    return int(value) if isinstance(value, numbers.Integral) else float(value)


@dataclass(frozen=True)
class ReportOptions:
    """
    The settings of one report, checked when made.

    Attributes
    ----------
    ci
        Interval method of the AUC table: ``"delong"``, ``"bootstrap"`` or None. When the
        intervals cannot be computed, the table has none and the page says why.
    level
        Confidence level of the intervals.
    fpr, tpr
        The partial-AUC range ``(lo, hi)``; `tpr` is used when given, else `fpr`.
    method
        How the best cutpoint is chosen (see :func:`polars_roc.thresholds.best_threshold`).
    cost_fp, cost_fn, prevalence
        The costs of a false positive and a false negative and the prevalence to weigh them
        by (default the data's), for ``method="cost"``.
    n_boot, seed
        Bootstrap replicates and random seed, for ``ci="bootstrap"``: the AUC intervals and
        the ROC panels' confidence band (TPR at a grid of FPRs). The fixed seed 0 makes a
        re-run give the same intervals; None draws a fresh one.
    gains_bins
        Bins of the gains table per group (10: deciles).
    calibration_bins
        Equal-width bins of the calibration panel, drawn when every score lies in [0, 1]
        (else the page says why not); None leaves the panel out.
    fpr_scale
        ``"log"`` draws the ROC panels' FPR axis on a log scale (see
        :func:`polars_roc.charts.roc_chart`); ``"linear"`` zooms it to FPR 0 to 0.2 when
        every AUC is above 0.95.
    direction, nan_policy
        As in :func:`polars_roc.areas.auc`, for every analysis of the report: under
        ``"lower"`` a lower score means positive (thresholds stay in score units, a row is
        predicted positive iff ``score <= threshold``, and the calibration panel is left
        out: such scores are not probabilities of the positive class). The score chart draws
        the scores as they are and leaves NaN scores out.
    title
        The page's title and heading.
    js
        How the page gets Vega: ``"inline"`` embeds it (needs ``vl-convert-python``),
        ``"cdn"`` links jsDelivr, ``"auto"`` embeds it when it can.
    gain_tp, gain_tn, capacity
        The value panel (value and decisions): what a flagged positive / passed negative
        earns (a column of per-row amounts or a number); with `gain_tp`, `cost_fp` and
        `cost_fn` are the value's costs (>= 0); `capacity` a share of rows or a row count.
    decision_curve
        Add a decision-curve panel (net benefit), for probabilities.
    min_count
        The "Over time" section (:func:`polars_roc.report.compute_over_time`): a window
        alerts only with at least this many positives and this many negatives (weight sums
        when weighted); a smaller window is drawn, never alerted, and the page says why.

    Examples
    --------
    >>> from polars_roc.report import ReportOptions
    >>> ReportOptions(tpr=(0.8, 1.0)).partial_range
    ('tpr', (0.8, 1.0))
    """

    ci: ReportCI | None = "delong"
    level: float = 0.95
    fpr: tuple[float, float] | None = (0.0, 0.2)
    tpr: tuple[float, float] | None = None
    method: CutpointMethod = "youden"
    cost_fp: float = 1.0
    cost_fn: float = 1.0
    prevalence: float | None = None
    n_boot: int = 2000
    seed: int | None = 0
    gains_bins: int = 10
    calibration_bins: int | None = 10
    fpr_scale: FprScale = "linear"
    direction: Direction = "higher"
    nan_policy: NanPolicy = "propagate"
    title: str = "ROC report"
    js: JsMode = "auto"
    # value and decisions
    gain_tp: str | float | None = None
    gain_tn: str | float = 0.0
    capacity: float | None = None
    decision_curve: bool = False
    # over time
    min_count: float = MIN_COUNT

    def __post_init__(self) -> None:
        validate.level(self.level)
        validate.ci(self.ci, ("delong", "bootstrap"))
        if self.method not in ("youden", "closest_topleft", "cost"):
            msg = (
                f"method must be 'youden', 'closest_topleft' or 'cost', got {self.method!r}"
                "\n\nHint: method='youden'."
            )
            raise ValueError(msg)
        if self.gain_tp is None:
            object.__setattr__(self, "cost_fp", validate.cost(self.cost_fp, "cost_fp"))
            object.__setattr__(self, "cost_fn", validate.cost(self.cost_fn, "cost_fn"))
        else:  # value and decisions: amounts >= 0 (columns: checked on the schema)
            costs = {"cost_fp": self.cost_fp, "cost_fn": self.cost_fn}
            check_amounts(pl.Schema(), {k: v for k, v in costs.items() if not isinstance(v, str)})
            check_capacity(self.capacity)
        validate.prevalence(self.prevalence)
        flips(self.direction)
        checks.nan_policy(self.nan_policy)
        validate.n_boot(self.n_boot)
        validate.seed(self.seed)
        validate.whole(self.gains_bins, "gains_bins")
        if self.calibration_bins is not None:
            validate.whole(self.calibration_bins, "calibration_bins")
        validate.choice(self.fpr_scale, ("linear", "log"), "fpr_scale")
        for name in ("fpr", "tpr"):
            bounds = getattr(self, name)
            if bounds is not None:
                object.__setattr__(self, name, validate.unit_range(bounds, name))
        if self.tpr is None and self.fpr is None:
            msg = "the report needs a partial-AUC range\n\nHint: fpr=(0.0, 0.2) or tpr=(0.8, 1.0)."
            raise ValueError(msg)
        if not isinstance(self.title, str):
            msg = f"title must be a string, got {self.title!r}\n\nHint: title='ROC report'."
            raise ValueError(msg)
        validate.choice(self.js, ("auto", "inline", "cdn"), "js")
        object.__setattr__(self, "min_count", check_min_count(self.min_count))

    @property
    def partial_range(self) -> tuple[Literal["fpr", "tpr"], tuple[float, float]]:
        """The partial-AUC range: ``("tpr", (lo, hi))`` when `tpr` is given, else the FPR's."""
        if self.tpr is not None:
            return "tpr", self.tpr
        assert self.fpr is not None  # checked when made
        return "fpr", self.fpr

    def replace(self, **changes: Any) -> ReportOptions:
        """
        These options with some settings changed (checked again).

        Parameters
        ----------
        **changes
            Settings by name, e.g. ``ci="bootstrap"``.

        Returns
        -------
        ReportOptions

        Examples
        --------
        >>> from polars_roc.report import ReportOptions
        >>> ReportOptions().replace(ci=None, title="Scorecards").title
        'Scorecards'
        """
        unknown = sorted(set(changes) - {f.name for f in dataclasses.fields(self)})
        if unknown:
            known = ", ".join(f.name for f in dataclasses.fields(self))
            msg = f"unknown report option {unknown[0]!r}; the options are {known}"
            raise TypeError(msg)
        return dataclasses.replace(self, **changes)

    @classmethod
    def of(cls, options: ReportOptions | None, **settings: Any) -> ReportOptions:
        """
        `options` (default: the defaults) with the keyword `settings` applied.

        Parameters
        ----------
        options
            A :class:`ReportOptions`, or None for the defaults.
        **settings
            Settings by name that override `options`.

        Returns
        -------
        ReportOptions

        Examples
        --------
        >>> from polars_roc.report import ReportOptions
        >>> ReportOptions.of(ReportOptions(level=0.9), ci=None).level
        0.9
        """
        base = cls() if options is None else options
        if not isinstance(base, ReportOptions):
            msg = f"options must be a ReportOptions, got {type(base).__name__}"
            raise TypeError(msg)
        return base.replace(**settings) if settings else base
