"""Which way a curve frame's thresholds run: read from the frame, so a chart never guesses.

A curve computed with ``direction="lower"`` (a lower score means positive) predicts a row
positive iff ``score <= threshold``, and its row that predicts nothing sits at
``threshold=-inf`` (``+inf`` under ``"higher"``). The threshold charts read that start row,
so their "at or above" / "at or below" texts, steps and operating points follow the data.
"""

from __future__ import annotations

import polars as pl


def runs_lower(frame: pl.DataFrame) -> bool:
    """
    Whether a curve or threshold frame came from ``direction="lower"``.

    True when its start rows (no row predicted positive: both rates 0, or null for an empty
    class) sit at ``threshold=-inf``. Under ``"higher"`` a ``-inf`` row predicts every row
    positive, so its rates are 1 (or null), never both 0 or null; a frame without start rows
    (filtered by the caller) reads as ``"higher"``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.1, 0.4], "label": [1, 0, 0]})
    >>> runs_lower(df.roc.curve()), runs_lower(df.roc.curve(direction="lower"))
    (False, True)
    """
    if not {"threshold", "tpr", "fpr"} <= set(frame.columns):
        return False
    rates = [pl.col(rate).fill_null(0.0) == 0.0 for rate in ("tpr", "fpr")]
    return _starts_below(frame, rates[0] & rates[1])


def pr_runs_lower(frame: pl.DataFrame) -> bool:
    """
    Whether a precision-recall curve frame came from ``direction="lower"``.

    As :func:`runs_lower`, from the start rows of a PR curve: recall 0 (or null without
    positives) at an infinite threshold, ``-inf`` under ``"lower"``.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.1, 0.4], "label": [1, 0, 0]})
    >>> pr_runs_lower(df.roc.pr_curve()), pr_runs_lower(df.roc.pr_curve(direction="lower"))
    (False, True)
    """
    if not {"threshold", "recall"} <= set(frame.columns):
        return False
    return _starts_below(frame, pl.col("recall").fill_null(0.0) == 0.0)


def _starts_below(frame: pl.DataFrame, start: pl.Expr) -> bool:
    """Whether the rows where `start` holds at an infinite threshold all sit at ``-inf``."""
    rows = frame.filter(pl.col("threshold").is_infinite() & start)
    return rows.height > 0 and bool((rows["threshold"] < 0).all())


def ranks_lowest_first(gains: pl.DataFrame, by: list[str]) -> bool:
    """
    Whether a gain curve or gains table came from ``direction="lower"`` (lowest scores first).

    A gain curve says it by its start row (:func:`runs_lower`: depth 0 at ``-inf``); a gains
    table by its bins, whose scores rise from the first bin to the last in every group with
    two bins or more (they fall under ``"higher"``).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.1, 0.4, 0.3], "label": [1, 0, 0, 1]})
    >>> tables = [df.roc.gains_table(bins=2, direction=d) for d in ("higher", "lower")]
    >>> [ranks_lowest_first(table, []) for table in tables]
    [False, True]
    """
    if "threshold" in gains.columns and "depth" in gains.columns:
        return _starts_below(gains, pl.col("depth") == 0.0)
    if not {"bin", "min_score"} <= set(gains.columns):
        return False
    ordered = pl.col("min_score").sort_by("bin")
    ends = [ordered.first().alias("first"), ordered.last().alias("last")]
    ends_of = gains.group_by(by).agg(ends) if by else gains.select(ends)
    rising = ends_of.filter(pl.col("first") != pl.col("last"))
    return rising.height > 0 and bool((rising["first"] < rising["last"]).all())


def predicted(lower: bool) -> str:
    """The comparison that predicts a row positive: ``"≥"`` (higher) or ``"≤"`` (lower)."""
    return "≤" if lower else "≥"
