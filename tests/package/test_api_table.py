"""The API overview's table of every `df.roc` method is the package's own, column for column.

The table in ``docs/api/index.md`` (between the two ``api-table`` markers) lists each frame
method with the module that holds it, the columns it returns after ``*by`` (read from the
method's lazy schema on a small frame, so nothing is typed twice) and its ``ci=`` options.
After adding or changing a method, rewrite the table with
``python -m tests.package.test_api_table``.
"""

from __future__ import annotations

import inspect
import typing
from typing import Any

import polars as pl

import polars_roc as pr
from polars_roc.namespace import FRAME_METHODS
from tests.conftest import ROOT

PAGE = ROOT / "docs" / "api" / "index.md"
START, END = "<!-- api-table: start -->", "<!-- api-table: end -->"

#: Arguments each method needs beyond the frame's default roles to show its columns.
ARGUMENTS: dict[str, dict[str, Any]] = {
    "point": {"prediction": "pred"},
    "confusion_matrix": {"label": "label", "prediction": "pred"},
    "mean_cost": {
        "label": "label",
        "prediction": "pred",
        "costs": {(True, False): 1.0, (False, True): 5.0},
    },
    "tpr_at_fpr": {"fpr": 0.1},
    "fpr_at_tpr": {"tpr": 0.5},
    "partial_auc": {"fpr": (0.0, 0.2)},
    "compare": {"model": "model"},
    "cv_auc": {"fold": "fold"},
    "average_curve": {"fold": "fold"},
    "hybrid": {"fpr": [0.1]},
    "optimal_of_points": {"prevalence": 0.3},
    "hybrid_of_points": {"target": [0.1]},
    "bootstrap": {"metrics": {"auc": pr.auc("score", "label")}, "n_boot": 5},
    "multiclass_auc": {"scores": "score", "label": "segment"},
    "multiclass_curve": {
        "scores": dict.fromkeys(("east", "west", "north", "south"), "score"),
        "label": "segment",
    },
    "time_auc": {"time": "t", "event": "e", "horizons": [2.0]},
    "time_curve": {"time": "t", "event": "e", "horizons": [2.0]},
    "over_time": {"time": "t", "every": "1i"},
    "score_stability": {"time": "t", "every": "1i", "reference": pl.col("t") <= 2},
    "checks": {"champion": "logit", "challenger": "gbm", "case": "case", "margin": 0.05},
    "rollup": {"segment": "segment"},
    "slices": {"features": ["segment"], "min_pos": 1, "min_neg": 1},
    "precision_at_recall": {"recall": 0.8},
    "recall_at_precision": {"precision": 0.7},
    "precision_at_depth": {"depth": 0.1},
    "recall_at_depth": {"depth": 0.1},
    "lift_at_depth": {"depth": 0.1},
    "disparity": {"segment": "segment"},
    "cross_auc": {"segment": "segment"},
    "bias_auc": {"segment": "segment"},
}
#: Methods that read a table of points (fpr, tpr) rather than scored rows.
ON_POINTS = {
    "hull_of_points",
    "hull_auc_of_points",
    "dominance",
    "operating_ranges_of_points",
    "optimal_of_points",
    "hybrid_of_points",
}


def _frame() -> pl.LazyFrame:
    df = pr.datasets.simulate(400, seed=1)
    return df.with_columns(
        t=(pl.int_range(pl.len()) % 4 + 1).cast(pl.Int64),
        e=pl.int_range(pl.len()) % 3 > 0,
        pred=pl.col("score") >= pl.col("score").median(),
    ).lazy()


def _points() -> pl.LazyFrame:
    return pl.LazyFrame(
        {"model": ["a"] * 4, "fpr": [0.0, 0.2, 0.5, 1.0], "tpr": [0.0, 0.6, 0.8, 1.0]}
    )


def _ci(function: Any) -> str:
    parameter = inspect.signature(function).parameters.get("ci")
    if parameter is None:
        return ""
    hints = typing.get_type_hints(function)

    def values(annotation: Any) -> list[str]:
        if typing.get_origin(annotation) is typing.Literal:
            return [a for a in typing.get_args(annotation) if isinstance(a, str)]
        return [v for a in typing.get_args(annotation) for v in values(a)]

    return ", ".join(f'`"{v}"`' for v in values(hints["ci"]))


def table() -> str:
    """The markdown table of every frame method, read off the package."""
    rows = [
        "| method | module | columns after `*by` | `ci=` |",
        "| --- | --- | --- | --- |",
    ]
    for name in sorted(FRAME_METHODS):
        function = FRAME_METHODS[name]
        lf = _points() if name in ON_POINTS else _frame()
        columns = function(lf, **ARGUMENTS.get(name, {})).collect_schema().names()
        module = function.__module__
        rows.append(
            f"| `{name}` | `{module}` | {', '.join(f'`{c}`' for c in columns)} | {_ci(function)} |"
        )
    return "\n".join(rows)


def test_the_api_table_lists_every_method_as_it_is() -> None:
    page = PAGE.read_text()
    assert START in page
    assert END in page
    shown = page.split(START, 1)[1].split(END, 1)[0].strip()
    assert shown == table(), "rewrite the table: python -m tests.package.test_api_table"


if __name__ == "__main__":
    text = PAGE.read_text()
    head, rest = text.split(START, 1)
    PAGE.write_text(f"{head}{START}\n{table()}\n{END}{rest.split(END, 1)[1]}")
