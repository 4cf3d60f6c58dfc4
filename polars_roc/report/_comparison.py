"""The report's "Model comparison" section: DeLong tests between the models, per segment."""

from __future__ import annotations

import html
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import polars as pl

from polars_roc.inference import compare

#: The section's table headers (the other columns keep the AUC table's labels).
LABELS = {
    "model_a": "model A",
    "model_b": "model B",
    "auc_a": "AUC A",
    "auc_b": "AUC B",
    "diff": "AUC A − AUC B",
    "p_value": "p",
    "p_adjusted": "p (Holm)",
    "paired": "paired",
}
#: The columns of `compare` the section shows, after the segment columns.
SHOWN = ("model_a", "model_b", "auc_a", "auc_b", "diff", "diff_lower", "diff_upper", "p_value")


@dataclass(frozen=True)
class ComparisonData:
    """
    The section's table and what it needs to say how it was tested.

    Attributes
    ----------
    model
        The column naming the models (the report's first `by` column).
    segments
        The other `by` columns: each of their groups is tested on its own.
    case
        The column pairing the models' rows (paired tests), or None (unpaired tests).
    table
        ``*segments, model_a, model_b, auc_a, auc_b, diff, diff_lower, diff_upper,
        p_value, p_adjusted, paired``: every pair of models in every segment, Holm-adjusted
        over all the rows.
    """

    model: str
    segments: list[str]
    case: str | None
    table: pl.DataFrame


def compute(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    names: list[str],
    common: dict[str, Any],
    *,
    case: str | None,
    level: float,
) -> ComparisonData | None:
    """
    Test every pair of models (the first `by` column) within each segment (the others).

    Paired DeLong tests where `case` matches each model's rows (a pair whose cases do not
    all match falls back to the unpaired test, and says so in its `paired` column);
    unpaired ones (Welch-type t, as pROC) without `case`. None without two models.

    Examples
    --------
    >>> import polars_roc as pr
    >>> lf = pr.datasets.simulate(600, seed=1).lazy()
    >>> data = compute(lf, "score", "label", ["model", "segment"], {}, case="case", level=0.95)
    >>> data.table.height, data.table["paired"].all()
    (12, True)
    >>> compute(lf, "score", "label", [], {}, case=None, level=0.95) is None
    True
    """
    if not names:
        return None
    model, segments = names[0], names[1:]
    if _n_models(lf, model) < 2:
        return None
    with warnings.catch_warnings():  # the section's header counts the unpaired pairs
        warnings.filterwarnings("ignore", message="compare ran the unpaired test")
        table = _compare(lf, score, label, model, segments, case, common, level)
    table = table.select(*segments, *SHOWN, "p_adjusted", "paired")
    return ComparisonData(model, segments, case, table)


def _compare(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    model: str,
    segments: list[str],
    case: str | None,
    common: dict[str, Any],
    level: float,
) -> pl.DataFrame:
    return compare(
        lf.filter(pl.col(model).is_not_null()),
        score,
        label,
        model=model,
        case=case,
        by=segments or None,
        paired=None if case is not None else False,
        level=level,
        adjust="holm",
        pos_label=common.get("pos_label"),
        direction=common.get("direction", "higher"),
        nan_policy=common.get("nan_policy", "propagate"),
    ).collect()


def _n_models(lf: pl.LazyFrame, model: str) -> int:
    return int(lf.select(pl.col(model).drop_nulls().n_unique()).collect().item())


def why_not(lf: pl.LazyFrame, names: list[str]) -> str | None:
    """
    The note of a weighted report with two or more models: they are not compared.

    Examples
    --------
    >>> import polars_roc as pr
    >>> why_not(pr.datasets.simulate(100).lazy(), ["model"])[:40]
    'No model comparison: the report is weigh'
    """
    if _n_models(lf, names[0]) < 2:
        return None
    return (
        "No model comparison: the report is weighted, and DeLong's test between models counts "
        "rows (an engine's tally is weighted too): compare the models on the raw rows, "
        "unweighted, with df.roc.compare(case=...)."
    )


def header(data: ComparisonData) -> str:
    """
    The section's opening sentence: which test ran, over which rows, adjusted how.

    Examples
    --------
    >>> frame = pl.DataFrame({"paired": [True, True]})
    >>> header(ComparisonData("model", ["segment"], "case", frame)).split(" (")[0]
    'Paired DeLong test of each pair of models within each segment'
    >>> header(ComparisonData("model", [], None, frame)).split(" (")[0]
    'Unpaired DeLong test of each pair of models'
    """
    where = f" within each {' × '.join(data.segments)}" if data.segments else ""
    n = data.table.height
    if data.case is not None:
        lead = (
            f"Paired DeLong test of each pair of models{where} (rows of each model matched "
            f"by column {data.case}; the test uses the covariance of the two AUCs)."
        )
        unpaired = data.table.filter(~pl.col("paired").fill_null(False)).height
        if unpaired:
            lead += (
                f" {unpaired} of the {n} pairs do not hold the same cases with the same labels "
                "under both models: they got the unpaired test (paired = false)."
            )
    else:
        lead = (
            f"Unpaired DeLong test of each pair of models{where} (Welch-type t, as pROC): "
            "no case column pairs the rows, so each model's rows count as different cases. "
            "When the models scored the same cases, pass the case id (--case, or "
            "to_html(case=...)) for the paired test, which is more powerful."
        )
    order = " Model A is the pair's model with the higher AUC."
    return lead + order + f" p (Holm) is adjusted over the {n} tests (every pair in every segment)."


def better_first(table: pl.DataFrame) -> pl.DataFrame:
    """
    Each pair with the model of the higher AUC as model A: a positive difference to read.

    The p-values are two-sided, so they do not change; the interval turns with the sign.

    Examples
    --------
    >>> row = {"model_a": "a", "model_b": "b", "auc_a": 0.7, "auc_b": 0.8, "diff": -0.1,
    ...        "diff_lower": -0.15, "diff_upper": -0.05}
    >>> better_first(pl.DataFrame([row])).row(0)
    ('b', 'a', 0.8, 0.7, 0.1, 0.05, 0.15)
    """
    flip = pl.col("diff") < 0
    swap = {"model_a": "model_b", "auc_a": "auc_b"}
    turned = {**swap, **{b: a for a, b in swap.items()}}
    return table.with_columns(
        *(
            pl.when(flip).then(pl.col(other)).otherwise(pl.col(c)).alias(c)
            for c, other in turned.items()
        ),
        pl.col("diff").abs(),
        pl.when(flip)
        .then(-pl.col("diff_upper"))
        .otherwise(pl.col("diff_lower"))
        .alias("diff_lower"),
        pl.when(flip)
        .then(-pl.col("diff_lower"))
        .otherwise(pl.col("diff_upper"))
        .alias("diff_upper"),
    )


def section(data: ComparisonData, table: Callable[..., str], level: str) -> str:
    """The section's HTML body: the header sentence and the table, lowest p first."""
    ordered = better_first(data.table).sort(
        pl.col("p_adjusted").is_null(), "p_adjusted", *data.segments, maintain_order=True
    )
    if data.case is not None and ordered["paired"].fill_null(False).all():
        ordered = ordered.drop("paired")  # the header says every test is paired
    elif data.case is None:
        ordered = ordered.drop("paired")
    return f'<p class="caption">{html.escape(header(data))}</p>' + table(
        ordered, "comparison-table", LABELS, intervals=("diff",), level=level
    )
