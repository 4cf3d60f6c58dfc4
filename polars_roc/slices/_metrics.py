"""
Any scalar metric per slice against the rest of its group: ``slices(metrics=...)``.

The machinery of :func:`polars_roc.segments.disparity` with ``metrics=``: each tested
slice's rows and the rest of its group are two sides
(:func:`~polars_roc.segments.disparity.sides`), each resampled apart by the stratified
bootstrap (:func:`~polars_roc.segments.disparity.bootstrap_test`, the one resampler of
:mod:`polars_roc._core.resampling`), and the gap gets a normal interval and p-value from
``se(gap) = sqrt(se_slice² + se_rest²)``. The rows are read once per slice
(the work grows with ``rows × slices × n_boot``); the AUC path needs no copies.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import polars as pl
from polars.exceptions import ColumnNotFoundError, PolarsError

from polars_roc.segments.disparity import bootstrap_test, sides

__all__ = ["check_metrics", "metric_gaps", "read_columns"]

_HINT = '\n\nHint: metrics={"brier": pr.brier_score("score", "label")}.'


def check_metrics(metrics: Any, schema: pl.Schema) -> dict[str, pl.Expr] | None:
    """
    None, or the mapping of names to scalar numeric expressions; errors name `metrics`.

    Each expression is run on an empty frame of the schema (no data read; its warnings
    about empty data silenced): an unknown column, a result of other than one row (not an
    aggregation) or a non-numeric result is refused at call time.
    """
    if metrics is None:
        return None
    if not (
        isinstance(metrics, Mapping)
        and metrics
        and all(isinstance(k, str) and isinstance(v, pl.Expr) for k, v in metrics.items())
    ):
        msg = (
            f"metrics must be None (the AUC) or a non-empty mapping of names to expressions, "
            f"got {metrics!r}{_HINT}"
        )
        raise ValueError(msg)
    empty = pl.DataFrame(schema=schema)
    for name, expr in metrics.items():
        try:
            with warnings.catch_warnings():  # of empty data (a mean of no rows): no data here
                warnings.simplefilter("ignore")
                result = empty.select(expr.alias(name))
        except ColumnNotFoundError as error:
            first = str(error).splitlines()[0]
            msg = (
                f"metrics {name!r} reads a column the frame lacks ({first}); it has {list(schema)}"
            )
            raise ColumnNotFoundError(msg + _HINT) from None
        except PolarsError as error:
            first = str(error).splitlines()[0]
            msg = f"metrics {name!r} cannot run on the frame: {first}"
            raise ValueError(msg + _HINT) from None
        dtype = result.schema[name]
        if result.height != 1 or not (dtype.is_numeric() or dtype == pl.Boolean):
            kind = "one number" if result.height == 1 else f"{result.height} values on no rows"
            msg = (
                f"metrics {name!r} must be a scalar numeric expression (an aggregation such "
                f"as .mean()), got {dtype} with {kind}: {expr}"
            )
            raise ValueError(msg + _HINT)
    return dict(metrics)


def read_columns(exprs: dict[str, pl.Expr], schema: pl.Schema) -> list[str]:
    """The frame's columns the metrics read (all of them where one uses a selector)."""
    if any("cs." in str(expr) for expr in exprs.values()):
        return schema.names()
    roots = {name for expr in exprs.values() for name in expr.meta.root_names()}
    return [name for name in schema.names() if name in roots]


def metric_gaps(
    long: pl.LazyFrame,
    counted: pl.LazyFrame,
    exprs: dict[str, pl.Expr],
    *,
    label: str,
    groups: list[str],
    key: str,
    tag: str,
    side: str,
    n_boot: int,
    seed: int | None,
    level: float,
    progress: bool | None,
) -> pl.LazyFrame:
    """
    Each tested slice's metrics beside the rest's, with the bootstrap test of the gap.

    `long` holds every row once per feature combination with its slice text `key`;
    `counted` the tested slices (``*groups, key``, their counts and feature values).
    Adds ``metric, estimate, estimate_rest, gap, gap_lower, gap_upper, p_value`` to
    `counted`, one row per slice and metric.
    """
    tested = counted.select(*groups, pl.col(key).alias(tag))
    spread = sides(long, key, groups, "rest", tag, side, tested=tested)
    gaps = bootstrap_test(
        spread,
        exprs,
        label=label,
        names=groups,
        tag=tag,
        side=side,
        n_boot=n_boot,
        seed=seed,
        level=level,
        progress=progress,
    )
    return counted.join(
        gaps.rename({tag: key, "reference_estimate": "estimate_rest", "diff": "gap"}).rename(
            {"diff_lower": "gap_lower", "diff_upper": "gap_upper"}
        ),
        on=[*groups, key],
        how="inner",
        nulls_equal=True,
    )
