"""
Wide multiclass scores in the report: each class against the rest, as binary groups.

With one score column per class (``{class: column}``, as ``predict_proba`` gives them), the
report shows each class against the rest: :func:`one_vs_rest` stacks the columns into rows
of ``*by, class, score, label`` where `label` is True for the rows of that class, so every
panel of the report (AUC table, curves, cutpoints, gains, calibration) is the one-vs-rest
view of its class, coloured by class. Each class's AUC is scikit-learn's
``roc_auc_score(y == c, proba[:, c])``, the per-class value of
``roc_auc_score(..., multi_class="ovr", average=None)``.

A multiclass label without wide scores changes nothing: the report needs ``pos_label`` to
name the positive class (that class against the rest, read from the one score column).

Examples
--------
>>> import polars as pl
>>> from polars_roc.report._multiclass import one_vs_rest
>>> frame = pl.DataFrame({"y": ["a", "b", "c"], "p_a": [0.7, 0.2, 0.1],
...                       "p_b": [0.2, 0.5, 0.3], "p_c": [0.1, 0.3, 0.6]})
>>> rows, roles = one_vs_rest(frame.lazy(), {"a": "p_a", "b": "p_b", "c": "p_c"}, "y")
>>> roles["by"], roles["score"], roles["label"]
(['class'], 'score', 'label')
>>> rows.collect().filter(pl.col("class") == "b").to_dicts()[1]
{'class': 'b', 'score': 0.5, 'label': True}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from polars_roc._core import validate
from polars_roc._core.names import fresh_names


def one_vs_rest(
    lf: pl.LazyFrame,
    scores: Mapping[Any, str] | Sequence[str],
    label: str,
    *,
    by: validate.By = None,
    weight: str | None = None,
) -> tuple[pl.LazyFrame, dict[str, Any]]:
    """
    Stack wide class scores into binary one-vs-rest rows, and the report's roles for them.

    Parameters
    ----------
    lf
        Scored rows with one score column per class.
    scores
        ``{class: column}``, or the score columns alone when each is named for its class.
        A class given as a string matches the label's values written as strings (so
        ``"1"`` names the integer label 1).
    label
        The class column.
    by, weight
        Group columns and a case-weight column, kept on every stacked row.

    Returns
    -------
    tuple[pl.LazyFrame, dict[str, Any]]
        The stacked rows (``*by, class, score, label[, weight]``; `class` is the first
        group column, so it colours the report's charts) and the roles to pass to
        :func:`polars_roc.report.compute` (``score, label, by, weight, pos_label,
        classes``: `classes` names the class column, the label and each class's score
        column, so the page counts cases, not stacked rows, and names the score columns).
        The new columns' names avoid the input's group and weight names.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> from polars_roc.report._multiclass import one_vs_rest
    >>> frame = pl.DataFrame({"y": [0, 1, 2, 1], "0": [0.6, 0.2, 0.1, 0.3],
    ...                       "1": [0.3, 0.7, 0.2, 0.4], "2": [0.1, 0.1, 0.7, 0.3]})
    >>> rows, roles = one_vs_rest(frame.lazy(), ["0", "1", "2"], "y")
    >>> pr.report.compute(rows, **roles, ci=None).auc["auc"].to_list()
    [1.0, 1.0, 1.0]
    """
    names = validate.as_names(by)
    pairs = list(scores.items()) if isinstance(scores, Mapping) else [(c, c) for c in scores]
    if len(pairs) < 2:
        msg = (
            f"wide multiclass scores need a column per class (at least 2), got {len(pairs)}"
            "\n\nHint: scores={'a': 'p_a', 'b': 'p_b', 'c': 'p_c'}."
        )
        raise ValueError(msg)
    schema = lf.collect_schema()
    columns = [column for _, column in pairs]
    validate.roles(schema, score=columns[0], label=label, by=names, weight=weight)
    for column in columns[1:]:
        validate.column(schema, column, "score")
    taken = {*names, *([weight] if weight else [])}
    class_, score, is_class = fresh_names(["class", "score", "label"], taken)

    def of_class(value: Any) -> pl.Expr:
        if isinstance(value, str) and schema[label] != pl.String:
            return pl.col(label).cast(pl.String).eq(value)
        return pl.col(label).eq(value)

    parts = [
        lf.select(
            *names,
            pl.lit(str(value)).alias(class_),
            pl.col(column).cast(pl.Float64).alias(score),
            of_class(value).alias(is_class),
            *([pl.col(weight)] if weight else []),
        )
        for value, column in pairs
    ]
    roles = {
        "score": score,
        "label": is_class,
        "by": [class_, *names],
        "weight": weight,
        "pos_label": None,
        "classes": {
            "column": class_,
            "label": label,
            "scores": {str(value): column for value, column in pairs},
        },
    }
    return pl.concat(parts, how="vertical"), roles
