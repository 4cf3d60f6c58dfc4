"""Venkatraman's test: pROC's E on aSAH, brute-force statistics, permutation p-values."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from polars_roc.inference.venkatraman import (
    first_ranks,
    paired_statistic,
    unpaired_statistic,
)
from tests.conftest import asah_long

#: pROC 1.18, roc.test(method="venkatraman") on aSAH (outcome Poor, direction "<").
PAIRED_E = {("ndka", "s100b"): 692.0, ("s100b", "wfns"): 578.0}
UNPAIRED_E_S100B_NDKA = 0.0541154358211293
#: pROC's p-values at boot.n = 2000 with set.seed(1).
PROC_P = {("ndka", "s100b"): 0.2085, ("s100b", "wfns"): 0.0185}


@pytest.fixture(scope="module")
def asah() -> pl.DataFrame:
    return asah_long().with_columns(label=pl.col("outcome") == "Poor")


def pairs(frame: pl.DataFrame, column: str) -> dict[tuple[str, str], float]:
    keys = zip(frame["model_a"], frame["model_b"], strict=True)
    return dict(zip(keys, frame[column], strict=True))


def r_paired_stat(r: list[float], s: list[float], d: list[bool]) -> float:
    """pROC's venkatraman.paired.stat, loop for loop."""
    n = len(d)
    total = 0.0
    for x in range(1, n + 1):
        r_fn = sum(1 for ri, di in zip(r, d, strict=True) if di and ri <= x)
        r_fp = sum(1 for ri, di in zip(r, d, strict=True) if not di and ri > x)
        s_fn = sum(1 for si, di in zip(s, d, strict=True) if di and si <= x)
        s_fp = sum(1 for si, di in zip(s, d, strict=True) if not di and si > x)
        total += abs((s_fn + s_fp) - (r_fn + r_fp))
    return total


def r_rank_first(values: list[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda i: (values[i], i))
    ranks = [0.0] * len(values)
    for rank, i in enumerate(order, start=1):
        ranks[i] = float(rank)
    return ranks


def r_approxfun(x: list[float], y: list[float], at: float) -> float:
    """approxfun(x, y)(at) with ties averaged (R's default) and NA outside the range."""
    groups: dict[float, list[float]] = {}
    for xi, yi in zip(x, y, strict=True):
        groups.setdefault(xi, []).append(yi)
    xs = sorted(groups)
    ys = [sum(groups[v]) / len(groups[v]) for v in xs]
    if at < xs[0] or at > xs[-1]:
        return math.nan
    for i in range(len(xs) - 1):
        if xs[i] <= at <= xs[i + 1]:
            if xs[i + 1] == xs[i]:
                return ys[i]
            return ys[i] + (at - xs[i]) * (ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i])
    return ys[-1]


def r_unpaired_stat(r: list[float], s: list[float], d1: list[bool], d2: list[bool]) -> float:
    """pROC's venkatraman.unpaired.stat, line for line."""
    mp = (sum(d1) + sum(d2)) / (len(d1) + len(d1))

    def curve(ranks: list[float], d: list[bool]) -> tuple[list[float], list[float]]:
        cases = [v for v, di in zip(ranks, d, strict=True) if di]
        controls = [v for v, di in zip(ranks, d, strict=True) if not di]
        p, e = [], []
        for x in range(1, len(d) + 1):
            fx = sum(v <= x for v in cases) / len(cases)
            gx = sum(v <= x for v in controls) / len(controls)
            p.append(mp * fx + (1 - mp) * gx)
            e.append(mp * fx + (1 - mp) * (1 - gx))
        return p, e

    r_p, r_exp = curve(r, d1)
    s_p, s_exp = curve(s, d2)
    x = sorted(r_p + s_p)
    y = [abs(r_approxfun(r_p, r_exp, v) - r_approxfun(s_p, s_exp, v)) for v in x]
    parts = [(y[i] + y[i - 1]) * (x[i] - x[i - 1]) / 2 for i in range(1, len(x))]
    return sum(p for p in parts if not math.isnan(p))


def test_paired_e_is_procs(asah: pl.DataFrame) -> None:
    got = pairs(asah.roc.compare(case="case", method="venkatraman", n_perm=20), "statistic")
    for pair, expected in PAIRED_E.items():
        assert got[pair] == expected


def test_unpaired_e_is_procs(asah: pl.DataFrame) -> None:
    out = asah.roc.compare(method="venkatraman", paired=False, n_perm=20)
    assert not out["paired"].any()
    got = pairs(out, "statistic")[("ndka", "s100b")]
    assert got == pytest.approx(UNPAIRED_E_S100B_NDKA, abs=1e-12)


def test_p_values_are_within_monte_carlo_error_of_procs(asah: pl.DataFrame) -> None:
    out = asah.roc.compare(case="case", method="venkatraman", n_perm=2000, seed=0)
    got = pairs(out, "p_value")
    for pair, theirs in PROC_P.items():
        # Both are binomial estimates over 2,000 permutations: their difference has
        # variance 2 p (1 - p) / 2000; 4 standard deviations.
        bound = 4 * math.sqrt(2 * theirs * (1 - theirs) / 2000)
        assert abs(got[pair] - theirs) < bound, (pair, got[pair], theirs)


@pytest.mark.parametrize("seed", range(4))
def test_statistics_equal_procs_loops_on_ties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 23
    d = rng.random(n) < 0.4
    d[:2] = [True, False]
    x = rng.integers(0, 5, n).astype(float)  # many ties: ranked in case order
    y = rng.integers(0, 7, n).astype(float)
    r, s = r_rank_first(list(x)), r_rank_first(list(y))
    assert first_ranks(x).tolist() == r
    assert float(paired_statistic(first_ranks(x), first_ranks(y), d)) == r_paired_stat(
        r, s, list(d)
    )
    m = 17
    d2 = rng.random(m) < 0.5
    d2[:2] = [True, False]
    y2 = rng.integers(0, 6, m).astype(float)
    s2 = r_rank_first(list(y2))
    expected = r_unpaired_stat(r, s2, list(d), list(d2))
    got = unpaired_statistic(first_ranks(x), first_ranks(y2), d, d2)
    assert got == pytest.approx(expected, abs=1e-12)


def test_identical_models_never_differ() -> None:
    rng = np.random.default_rng(3)
    score = rng.normal(size=30)
    label = rng.random(30) < 0.5
    frame = pl.DataFrame(
        {
            "model": ["a"] * 30 + ["b"] * 30,
            "case": list(range(30)) * 2,
            "score": np.concatenate([score, score]),
            "label": np.concatenate([label, label]),
        }
    )
    out = frame.roc.compare(case="case", method="venkatraman", n_perm=200)
    assert out.select("statistic", "p_value", "paired").row(0) == (0.0, 1.0, True)


def test_seeded_grouped_order_free_and_lazy(asah: pl.DataFrame) -> None:
    kwargs = {"case": "case", "method": "venkatraman", "n_perm": 200, "seed": 7}
    first = asah.roc.compare(**kwargs)
    shuffled = asah.sample(fraction=1.0, shuffle=True, seed=1).roc.compare(**kwargs)
    assert first.equals(shuffled)
    assert first.equals(asah.lazy().roc.compare(**kwargs).collect())
    grouped = asah.roc.compare(by="gender", **kwargs)
    for (gender,), part in asah.group_by("gender"):
        alone = part.roc.compare(**kwargs)
        mine = grouped.filter(pl.col("gender") == gender).drop("gender")
        assert mine["statistic"].to_list() == alone["statistic"].to_list()


def test_undefined_pairs_are_null() -> None:
    frame = pl.DataFrame(
        {
            "model": ["a"] * 4 + ["b"] * 4,
            "score": [0.1, 0.2, float("nan"), 0.4, 0.4, 0.3, 0.2, 0.1],
            "label": [0, 1, 0, 1] * 2,
        }
    )
    out = frame.roc.compare(method="venkatraman", n_perm=10)
    assert out.select("statistic", "p_value").row(0) == (None, None)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"alternative": "greater"}, "two-sided only"),
        ({"fpr": (0.0, 0.2)}, "takes no fpr="),
        ({"power": 0.9}, "planning a study needs method='delong'|takes no power="),
        ({"n_perm": 0}, "n_perm must be at least 1"),
    ],
)
def test_refusals(asah: pl.DataFrame, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        asah.roc.compare(case="case", method="venkatraman", **kwargs)


def test_paired_true_needs_the_same_cases(asah: pl.DataFrame) -> None:
    short = asah.filter(~((pl.col("model") == "ndka") & (pl.col("case") == 0)))
    with pytest.raises(ValueError, match="paired=True but models"):
        short.roc.compare(case="case", method="venkatraman", paired=True, n_perm=5)
