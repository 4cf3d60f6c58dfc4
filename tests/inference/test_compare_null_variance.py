"""compare(power=): the null variance V0 computed directly, null where it is negative (pROC NaN)."""

from __future__ import annotations

import polars as pl
import pytest

import polars_roc  # noqa: F401  (registers .roc)


def paired(y: list[int], x1: list[float], x2: list[float]) -> pl.DataFrame:
    n = len(y)
    return pl.DataFrame(
        {
            "case": list(range(n)) * 2,
            "model": ["a"] * n + ["b"] * n,
            "label": y * 2,
            "score": [float(v) for v in x1 + x2],
        }
    )


def test_negative_null_variance_gives_null_as_pr_oc_nan() -> None:
    # pROC power.roc.test(roc1, roc2, power=0.9): NaN (V0 < 0); 3.2847 when clipped at 0
    df = paired([1, 1, 1, 0, 0, 0], [4, 2, 4, 1, 2, 1], [2, 3, 1, 0, 4, 1])
    row = df.roc.compare(case="case", power=0.9).row(0, named=True)
    assert row["diff"] == pytest.approx(0.9444444444444444 - 0.6111111111111112)
    assert row["n_pos_needed"] is None
    assert row["n_neg_needed"] is None


def test_null_variance_without_cancellation_matches_pr_oc() -> None:
    # a perfect model against a weaker one: pROC 1.18 ncases 2.4635616227247263
    df = paired([0, 0, 0, 1, 1, 1], [1, 2, 3, 4, 5, 6], [0.1, 0.4, 0.5, 0.2, 0.3, 0.6])
    row = df.roc.compare(case="case", power=0.9).row(0, named=True)
    assert row["n_pos_needed"] == pytest.approx(2.4635616227247263, rel=1e-14)
    assert row["n_neg_needed"] == pytest.approx(2.4635616227247263, rel=1e-14)
