"""The `.roc` namespaces: lazy stays lazy, eager collects once, docs are the functions' docs."""

from __future__ import annotations

import polars as pl
import pytest

import polars_roc as pr


def _boom(values: pl.Series) -> pl.Series:
    msg = "the query was executed"
    raise RuntimeError(msg)


def test_lazy_methods_never_run_the_query() -> None:
    frame = pl.LazyFrame({"score": [0.1, 0.9], "label": [0, 1], "model": ["a", "a"]})
    trap = frame.with_columns(pl.col("score").map_batches(_boom, return_dtype=pl.Float64))
    built = [
        trap.roc.auc(by="model"),
        trap.roc.auc(by="model", ci="delong"),
        trap.roc.curve(by="model", drop_intermediate=True),
        trap.roc.partial_auc(fpr=(0, 0.2)),
        trap.roc.thresholds(),
        trap.roc.best_threshold(),
        trap.roc.tpr_at_fpr(fpr=0.1),
        trap.roc.pr_curve(),
        trap.roc.hull(),
    ]
    for query in built:
        assert isinstance(query, pl.LazyFrame)
        with pytest.raises(Exception, match="the query was executed"):
            query.collect()


def test_every_frame_method_is_documented_as_its_function() -> None:
    for name, function in pr.namespace.FRAME_METHODS.items():
        for namespace in (pr.namespace.RocFrame, pr.namespace.RocLazyFrame):
            method = getattr(namespace, name)
            assert method.__doc__ == function.__doc__
            assert "Examples" in (method.__doc__ or ""), name


def test_eager_methods_return_dataframes() -> None:
    frame = pl.DataFrame({"score": [0.1, 0.4, 0.35, 0.8], "label": [0, 0, 1, 1]})
    assert isinstance(frame.roc.auc(), pl.DataFrame)
    assert frame.roc.auc().equals(frame.lazy().roc.auc().collect())


def test_eager_methods_are_typed_and_documented_as_dataframes() -> None:
    import inspect

    frame = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1]})
    for name in pr.namespace.FRAME_METHODS:
        eager = inspect.signature(getattr(frame.roc, name))
        lazy = inspect.signature(getattr(frame.lazy().roc, name))
        assert eager.return_annotation is pl.DataFrame, name
        assert lazy.return_annotation is pl.LazyFrame, name
        assert "self" not in eager.parameters, name
        assert "pl.LazyFrame | pl.DataFrame" in (getattr(frame.roc, name).__doc__ or ""), name
    expr = inspect.signature(pl.col("score").roc.auc)
    assert next(iter(expr.parameters)) == "label"
    assert expr.return_annotation is pl.Expr


def test_top_level_functions_return_the_kind_of_frame_given() -> None:
    points = pl.DataFrame({"fpr": [0.1, 0.4], "tpr": [0.6, 0.9], "model": ["a", "b"]})
    rows = pl.DataFrame({"score": [0.1, 0.4, 0.35, 0.8], "label": [0, 0, 1, 1]})
    for function, frame in (
        (pr.hull_of_points, points),
        (pr.dominance, points),
        (pr.hull_auc_of_points, points),
        (pr.curves.curve, rows),
        (pr.areas.auc, rows),
    ):
        assert isinstance(function(frame), pl.DataFrame), function.__name__
        assert isinstance(function(frame.lazy()), pl.LazyFrame), function.__name__
    assert pr.areas.auc(rows).equals(rows.roc.auc())
