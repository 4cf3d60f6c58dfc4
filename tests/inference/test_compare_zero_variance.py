"""compare where the DeLong variance of the difference is 0 (pROC's Z = Inf, p = 0)."""

from __future__ import annotations

import math

import polars as pl

import polars_roc  # noqa: F401  (registers .roc)


def pairs(y: list[int], x1: list[float], x2: list[float], *, paired: bool) -> pl.DataFrame:
    n = len(y)
    return pl.DataFrame(
        {
            "case": list(range(n)) + (list(range(n)) if paired else list(range(n, 2 * n))),
            "model": ["a"] * n + ["b"] * n,
            "label": y * 2,
            "score": [float(v) for v in x1 + x2],
        }
    )


def test_paired_zero_variance_with_a_difference_is_certain() -> None:
    # pROC roc.test(paired): Z = Inf, p = 0 (AUCs 1 and 0, no variance); was null
    df = pairs([0, 0, 1, 1], [1, 2, 3, 4], [4, 3, 2, 1], paired=True)
    for alternative, p in [("two-sided", 0.0), ("greater", 0.0), ("less", 1.0)]:
        row = df.roc.compare(case="case", alternative=alternative).row(0, named=True)
        assert (row["auc_a"], row["auc_b"], row["diff"]) == (1.0, 0.0, 1.0)
        assert row["statistic"] == math.inf
        assert row["p_value"] == p
    flipped = df.with_columns(
        model=pl.when(pl.col("model") == "a").then(pl.lit("z")).otherwise("model")
    )
    row = flipped.roc.compare(case="case").row(0, named=True)
    assert (row["diff"], row["statistic"], row["p_value"]) == (-1.0, -math.inf, 0.0)


def test_unpaired_equal_perfect_curves_have_no_difference() -> None:
    # both AUCs 1: pROC NaN (0 / 0); here no difference, as two identical paired curves
    df = pairs([0, 0, 1, 1], [1, 2, 3, 4], [1, 2, 3, 5], paired=False)
    row = df.roc.compare(case="case", paired=False).row(0, named=True)
    assert (row["auc_a"], row["auc_b"], row["diff"]) == (1.0, 1.0, 0.0)
    assert (row["statistic"], row["p_value"]) == (0.0, 1.0)
