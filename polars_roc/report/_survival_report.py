"""
The survival report: a score, a time to event and an event column, and no label.

``compute(lf, score, label=None, time_to_event=T, event=E)`` (the command line's
``--time-to-event T --event E`` without ``--label``) reports AUC(t), the cumulative/dynamic
AUC at each horizon (:mod:`polars_roc.report._survival`): the event flag is not a label, so
no plain AUC, curve or cutpoint treats it as one and ignores censoring. The sections that
need a label (segments, model comparison, slices, value and decision panels) are refused
with the reason.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame(
...     {
...         "risk": [0.9, 0.5, 0.7, 0.6, 0.8, 0.4, 0.3, 0.45],
...         "days": [10, 40, 25, 90, 60, 120, 150, 200],
...         "died": [1, 1, 0, 1, 0, 1, 0, 0],
...     }
... )
>>> data = pr.report.compute(df, "risk", None, time_to_event="days", event="died",
...                          horizons=[50, 100])
>>> data.survival.table["auc"].round(4).to_list(), data.auc.height
([0.7846, 1.0], 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from polars_roc._core import validate
from polars_roc.report import _survival as report_survival
from polars_roc.report._data import Progress, ReportData
from polars_roc.report.options import ReportOptions

__all__ = ["check", "compute"]

#: What a survival report without a label cannot show, by argument.
NEEDS_LABEL = {
    "segment": "the Segments section",
    "case": "the Model comparison section",
    "slices": "the Weakest slices section",
    "classes": "the one-vs-rest classes",
    "gain_tp": "the value panel",
    "decision_curve": "the decision curve",
    "pos_label": "the positive class",
}


def check(time_to_event: str | None, event: str | None, asked: dict[str, Any]) -> None:
    """
    A report without a label needs time and event, and none of the label's sections.

    Examples
    --------
    >>> check("days", "died", {"segment": None})
    >>> check(None, None, {})
    Traceback (most recent call last):
    ...
    ValueError: label=None needs time_to_event= and event= (a survival report)
    <BLANKLINE>
    Hint: pass label=<the class column>, or time_to_event='days', event='died'.
    """
    if time_to_event is None or event is None:
        msg = (
            "label=None needs time_to_event= and event= (a survival report)"
            "\n\nHint: pass label=<the class column>, or time_to_event='days', event='died'."
        )
        raise ValueError(msg)
    for name, what in NEEDS_LABEL.items():
        if asked.get(name):
            msg = (
                f"{name}= needs a label: {what} compares classes, and a survival report has "
                f"none\n\nHint: pass label=<the class column>, or drop {name}=."
            )
            raise ValueError(msg)


def compute(
    lf: pl.LazyFrame,
    score: str,
    *,
    time_to_event: str,
    event: str,
    horizons: float | Sequence[float] | None,
    names: list[str],
    weight: str | None,
    options: ReportOptions,
    say: Progress,
) -> ReportData:
    """The report's data: the row count and the "Survival horizons" section, nothing else."""
    schema = lf.collect_schema()
    validate.column(schema, score, "score")
    if weight is not None:
        validate.column(schema, weight, "weight")
    policies = {"direction": options.direction, "nan_policy": options.nan_policy}
    report_survival.check(
        schema, score, time=time_to_event, event=event, horizons=horizons, names=names,
        policies=policies,
    )  # fmt: skip
    ci, n_boot, seed, level = options.ci, options.n_boot, options.seed, options.level
    say("[1/2] counting rows")
    n_rows = lf.select(pl.len()).collect().item()
    boots = f", {n_boot:,} bootstrap replicates" if ci == "bootstrap" else ""
    say(f"[2/2] AUC(t) at the horizons of {time_to_event} (event {event}{boots})")
    survived = report_survival.compute(
        lf, score, time=time_to_event, event=event, horizons=horizons, names=names,
        policies=policies, weight=weight,
        boot=(n_boot, seed, level) if ci == "bootstrap" else None,
    )  # fmt: skip
    roles = {
        "score": score,
        "label": None,
        "by": names,
        "weight": weight,
        "pos_label": None,
        "ci": ci,
        "level": level,
        "method": options.method,
        "range": options.partial_range,
        **({"n_boot": n_boot, "seed": seed} if ci == "bootstrap" else {}),
        **policies,
    }
    empty = pl.DataFrame()
    return ReportData(
        auc=empty,
        curve=empty,
        partial_auc=empty,
        best_threshold=empty,
        thresholds=empty,
        score_chart=None,
        n_rows=n_rows,
        roles=roles,
        notes=list(survived.notes),
        options=options,
        survival=survived,
    )
