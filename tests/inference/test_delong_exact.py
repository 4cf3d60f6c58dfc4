"""DeLong variances and covariances against exact rational arithmetic (``Fraction``).

Twice a placement is a whole number, so the unweighted DeLong variance, the paired
covariance and the variance of a paired difference have exact rational values; the code
takes their sums in 128-bit integers and rounds a few times at the end. Brute force here:
placements counted pair by pair with ``Fraction``, nothing from the package.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import polars as pl
import pytest

import polars_roc as pr

ULPS = 8e-16  # a few roundings at the end: the result within a few units of the last place


def placements(scores: list[int], labels: list[bool]) -> tuple[list[Fraction], list[Fraction]]:
    """V10 of each positive and V01 of each negative, pair by pair (ties one half)."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]

    def share(x: int, others: list[int], below: bool) -> Fraction:
        wins = sum(2 if (o < x if below else o > x) else 1 if o == x else 0 for o in others)
        return Fraction(wins, 2 * len(others))

    return [share(x, neg, True) for x in pos], [share(x, pos, False) for x in neg]


def covariance(a: list[Fraction], b: list[Fraction]) -> Fraction:
    m = len(a)
    mean_a, mean_b = sum(a, Fraction(0)) / m, sum(b, Fraction(0)) / m
    return sum(((x - mean_a) * (y - mean_b) for x, y in zip(a, b, strict=True)), Fraction(0)) / (
        m - 1
    )


def delong_variance(v10: list[Fraction], v01: list[Fraction]) -> Fraction:
    return covariance(v10, v10) / len(v10) + covariance(v01, v01) / len(v01)


def sample(n: int, seed: int, *, levels: int) -> tuple[list[int], list[bool], list[int]]:
    """Integer scores with many ties, a label, and a second model's scores on the same cases."""
    rng = np.random.default_rng(seed)
    labels = (rng.random(n) < 0.35).tolist()
    base = rng.normal(size=n) + 1.3 * np.array(labels)
    first = np.floor(base * levels).astype(int).tolist()
    second = np.floor((base + rng.normal(size=n)) * levels).astype(int).tolist()
    return first, labels, second


@pytest.mark.parametrize(("n", "seed", "levels"), [(12, 0, 2), (60, 1, 1), (400, 2, 3)])
def test_the_variance_is_the_exact_one_rounded(n: int, seed: int, levels: int) -> None:
    scores, labels, _ = sample(n, seed, levels=levels)
    exact = delong_variance(*placements(scores, labels))
    df = pl.DataFrame({"score": scores, "label": labels})
    se = df.roc.auc(ci="delong")["auc_se"].item()
    assert se**2 == pytest.approx(float(exact), rel=ULPS)
    # every route gives the same bits: frame, select, group_by().agg(), over(), streaming
    assert df.select(pr.auc_se("score", "label")).item() == se
    grouped = df.with_columns(g=pl.lit(1)).group_by("g").agg(pr.auc_se("score", "label"))
    assert grouped["auc_se"].item() == se
    assert df.select(pr.auc_se("score", "label").over(pl.lit(1)))["auc_se"][0] == se
    streamed = df.lazy().roc.auc(ci="delong").collect(engine="streaming")
    assert streamed["auc_se"].item() == se


def test_grouped_variances_are_each_groups_exact_one() -> None:
    scores, labels, _ = sample(300, 3, levels=2)
    groups = [i % 7 for i in range(300)]
    df = pl.DataFrame({"g": groups, "score": scores, "label": labels})
    table = df.roc.auc(by="g", ci="delong").sort("g")
    for g, se in zip(table["g"], table["auc_se"], strict=True):
        rows = [i for i in range(300) if groups[i] == g]
        exact = delong_variance(*placements([scores[i] for i in rows], [labels[i] for i in rows]))
        assert se**2 == pytest.approx(float(exact), rel=ULPS)


@pytest.mark.parametrize(("n", "seed"), [(40, 4), (250, 5)])
def test_paired_variances_and_covariance_are_the_exact_ones(n: int, seed: int) -> None:
    first, labels, second = sample(n, seed, levels=2)
    v10_a, v01_a = placements(first, labels)
    v10_b, v01_b = placements(second, labels)
    var_a, var_b = delong_variance(v10_a, v01_a), delong_variance(v10_b, v01_b)
    cov = covariance(v10_a, v10_b) / len(v10_a) + covariance(v01_a, v01_b) / len(v01_a)
    gap10 = [x - y for x, y in zip(v10_a, v10_b, strict=True)]
    gap01 = [x - y for x, y in zip(v01_a, v01_b, strict=True)]
    paired = delong_variance(gap10, gap01)
    assert paired == var_a + var_b - 2 * cov  # the algebra the brute force relies on
    long = pl.DataFrame(
        {
            "case": list(range(n)) * 2,
            "model": ["a"] * n + ["b"] * n,
            "label": labels * 2,
            "score": first + second,
        }
    )
    row = long.roc.compare(case="case").row(0, named=True)
    assert row["var_a"] == pytest.approx(float(var_a), rel=ULPS)
    assert row["var_b"] == pytest.approx(float(var_b), rel=ULPS)
    assert row["cov"] == pytest.approx(float(cov), rel=4 * ULPS)
    auc_a = sum(v10_a, Fraction(0)) / len(v10_a)
    auc_b = sum(v10_b, Fraction(0)) / len(v10_b)
    statistic = float(auc_a - auc_b) / math.sqrt(float(paired))
    assert row["statistic"] == pytest.approx(statistic, rel=4 * ULPS)
    again = long.lazy().roc.compare(case="case").collect(engine="streaming").row(0, named=True)
    assert again == row  # the same bits on another engine
