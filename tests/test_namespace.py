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
        trap.roc.tpr_at_fpr(0.1),
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
