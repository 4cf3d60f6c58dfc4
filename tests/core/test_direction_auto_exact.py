"""
``direction="auto"`` compares the medians exactly for integer scores near the dtype's ends.

pROC's rule picks ``"lower"`` for a pair (a, b) iff median(a) > median(b). The medians used
to be Float64 (and a weighted median summed its two middles in the scores' own type): scores
within 512 of 2**63 all round to 2**63, so the rule saw equal medians and kept ``"higher"``,
and the sum overflowed. The oracle here is Python's integers: twice each median is the exact
sum of the two middle values of the rows (weights as repeats), and each pair's AUC counts
the pairs of rows.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np
import polars as pl
import pytest

import polars_roc as pr

CLASSES = ["a", "b", "c"]
#: (dtype, the largest value of the classes): every value lies within 300 of it, so all of
#: them are one Float64 (2**63, -2**63 or 2**64) and the sums of two overflow the dtype.
ENDS = [
    (pl.Int64, 2**63 - 1),
    (pl.Int64, -(2**63) + 300),
    (pl.UInt64, 2**64 - 1),
]


def twice_median(values: list[int]) -> int:
    ordered = sorted(values)
    n = len(ordered)
    return ordered[(n - 1) // 2] + ordered[n // 2]


def pair_auc(a: list[int], b: list[int], lower: bool) -> float:
    """P(b's score ranks above a's), ties half: "above" is higher, or lower under `lower`."""
    wins = Fraction(0)
    for x in a:
        for y in b:
            wins += 1 if (y < x if lower else y > x) else Fraction(1, 2) if y == x else 0
    return float(wins / (len(a) * len(b)))


def oracle(values: dict[str, list[int]]) -> dict[tuple[str, str], tuple[str, float]]:
    out = {}
    for first, second in combinations(CLASSES, 2):
        a, b = values[first], values[second]
        lower = twice_median(a) > twice_median(b)
        out[first, second] = ("lower" if lower else "higher", pair_auc(a, b, lower))
    return out


def case(top: int, seed: int) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Scores of each class within 300 below `top`, and integer weights 1..3."""
    rng = np.random.default_rng(seed)
    values = {
        c: [top - int(d) for d in rng.integers(0, 300, size=int(rng.integers(2, 7)))]
        for c in CLASSES
    }
    weights = {c: [int(w) for w in rng.integers(1, 4, size=len(v))] for c, v in values.items()}
    return values, weights


def frame(values: dict[str, list[int]], weights: dict[str, list[int]], dtype: pl.DataType):
    rows = [(c, s, w) for c in CLASSES for s, w in zip(values[c], weights[c], strict=True)]
    return pl.DataFrame(rows, schema={"y": pl.String, "s": dtype, "w": pl.Int64}, orient="row")


def float_rule(values: dict[str, list[int]]) -> dict[tuple[str, str], str]:
    """The directions that Float64 medians would pick (what the old code did)."""
    median = {c: float(np.median(np.array(v, dtype=np.float64))) for c, v in values.items()}
    return {
        (a, b): "lower" if median[a] > median[b] else "higher" for a, b in combinations(CLASSES, 2)
    }


def check(table: pl.DataFrame, want: dict[tuple[str, str], tuple[str, float]]) -> None:
    got = {
        (row["class_a"], row["class_b"]): (row["direction"], row["auc"])
        for row in table.iter_rows(named=True)
    }
    assert set(got) == set(want)
    for pair, (direction, auc) in want.items():
        assert got[pair][0] == direction, pair
        assert got[pair][1] == pytest.approx(auc, abs=1e-12), pair


@pytest.mark.parametrize(("dtype", "top"), ENDS)
def test_a_half_apart_near_the_end_of_the_dtype(dtype: pl.DataType, top: int) -> None:
    # median(a) = top - 3 (odd count) and median(b) = top - 3.5 (the mean of two middles):
    # Float64 sees two equal medians, "higher"; exactly, a's is above b's, "lower".
    values = {
        "a": [top, top - 3, top - 290],
        "b": [top - 1, top - 3, top - 4, top - 200],
        "c": [top - 2, top - 2],
    }
    ones = {c: [1] * len(v) for c, v in values.items()}
    want = oracle(values)
    assert want["a", "b"][0] == "lower" != float_rule(values)["a", "b"]
    assert want["a", "b"][1] != pytest.approx(1 - want["a", "b"][1])  # the choice matters
    df = frame(values, ones, dtype)
    check(df.roc.multiclass_auc("s", "y", direction="auto", average=None), want)
    check(df.roc.multiclass_auc("s", "y", weight="w", direction="auto", average=None), want)
    macro = df.select(pr.multiclass_auc("s", "y", classes=CLASSES, direction="auto")).item()
    assert macro == pytest.approx(np.mean([auc for _, auc in want.values()]), abs=1e-12)


@pytest.mark.parametrize(("dtype", "top"), ENDS)
def test_random_pairs_weights_as_repeats(dtype: pl.DataType, top: int) -> None:
    differs = 0
    for seed in range(12):
        values, weights = case(top, seed)
        repeated = {c: [s for s, w in zip(v, weights[c], strict=True) for _ in range(w)]
                    for c, v in values.items()}  # fmt: skip
        df = frame(values, weights, dtype)
        want = oracle(values)
        check(df.roc.multiclass_auc("s", "y", direction="auto", average=None), want)
        weighted = oracle(repeated)
        check(df.roc.multiclass_auc("s", "y", weight="w", direction="auto", average=None), weighted)
        expr = pr.multiclass_auc("s", "y", classes=CLASSES, weight="w", direction="auto")
        macro = df.select(expr).item()
        assert macro == pytest.approx(np.mean([auc for _, auc in weighted.values()]), abs=1e-12)
        rule = float_rule(repeated)
        differs += sum(rule[pair] != weighted[pair][0] for pair in weighted)
    assert differs > 0  # Float64 medians would have picked another direction somewhere


def test_float_scores_keep_their_medians() -> None:
    # Non-integral scores compare their Float64 medians, as before.
    df = pl.DataFrame({"y": ["a", "a", "b", "b", "b"], "s": [0.5, 0.25, 0.4, 0.3, 0.1]})
    table = df.roc.multiclass_auc("s", "y", direction="auto", average=None)
    assert table["direction"].to_list() == ["lower"]  # median(a) 0.375 > median(b) 0.3
    assert table["auc"].item() == pytest.approx(4 / 6)  # b's score below a's in 4 of 6 pairs
