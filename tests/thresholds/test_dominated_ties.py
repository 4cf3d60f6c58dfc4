"""Among thresholds tied on the objective, never one that another tied threshold dominates."""

from __future__ import annotations

import itertools

import polars as pl
import pytest


def test_constrained_optimum_is_not_dominated() -> None:
    # OptimalCutpoints MinValueSe (Se >= 0.85, max Sp): threshold 3 (Se 1, Sp 0.667);
    # threshold 4 has the same Sp and Se 0.857
    df = pl.DataFrame({"score": list(range(10, 0, -1)), "label": [0, 1, 1, 1, 1, 1, 1, 1, 0, 0]})
    best = df.roc.best_threshold(method="tnr", where=pl.col("tpr") >= 0.85)
    row = best.row(0, named=True)
    assert row["threshold"] == 3
    assert (row["tpr"], row["tnr"]) == (1.0, pytest.approx(2 / 3))


@pytest.mark.parametrize("method", ["tnr", "tpr", "ppv", "npv", "accuracy", "f1"])
def test_brute_force_over_small_tables(method: str) -> None:
    labels_pool = [
        [0, 1, 1, 0, 1, 0, 0, 1],
        [1, 1, 0, 0, 1, 1, 0, 0],
        [0, 0, 1, 1, 1, 0, 1, 0],
        [1, 0, 0, 0, 1, 1, 1, 0],
    ]
    for labels, lo in itertools.product(labels_pool, [0.0, 0.3, 0.6]):
        df = pl.DataFrame({"score": list(range(8, 0, -1)), "label": labels})
        table = df.roc.thresholds().filter(pl.col("tpr") >= lo)
        rows = [r for r in table.iter_rows(named=True) if r[method] is not None]
        top = max(r[method] for r in rows)
        tied = [r for r in rows if r[method] == top]
        undominated = [
            r
            for r in tied
            if not any(
                o["tpr"] >= r["tpr"]
                and o["fpr"] <= r["fpr"]
                and (o["tpr"], o["fpr"]) != (r["tpr"], r["fpr"])
                for o in tied
            )
        ]
        got = df.roc.best_threshold(method=method, where=pl.col("tpr") >= lo).row(0, named=True)
        assert got[method] == top
        assert any(got["threshold"] == r["threshold"] for r in undominated), (labels, lo)
