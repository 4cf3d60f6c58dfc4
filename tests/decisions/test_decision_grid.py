"""The decision curve's count grid against brute-force counting, on messy groups."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from polars_roc.curves import curve
from polars_roc.decisions._grid import counts_on_grid


def messy(seed: int, n: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    score = rng.choice([0.0, 0.01, 0.25, 0.3, 0.5, 0.99, 1.0, np.inf, 0.7], n)
    key = pl.Series(rng.choice(["x", "y", ""], n)).replace("", None)
    return pl.DataFrame(
        {
            "a": rng.integers(0, 4, n),
            "b": key,
            "score": score,
            "label": rng.random(n) < 0.4,
            "w": rng.integers(1, 4, n).astype(np.float64),
        }
    )


def brute(df: pl.DataFrame, names: list[str], wanted: list[float], weight: bool) -> pl.DataFrame:
    rows = []
    keys = df.select(names).unique().sort(names, nulls_last=True).rows() if names else [()]
    for key in keys:
        part = df
        for name, value in zip(names, key, strict=True):
            part = part.filter(pl.col(name).is_null() if value is None else pl.col(name) == value)
        s, y = part["score"].to_numpy(), part["label"].to_numpy()
        w = part["w"].to_numpy() if weight else np.ones(len(s))
        for t in wanted:
            at = s >= t
            tp, fp = w[at & y].sum(), w[at & ~y].sum()
            rows.append((*key, t, tp, fp, w[~y].sum() - fp, w[y].sum() - tp))
    columns = [*names, "threshold", "tp", "fp", "tn", "fn"]
    return pl.DataFrame(rows, schema=columns, orient="row")


@pytest.mark.parametrize("names", [[], ["a"], ["b"], ["a", "b"]])
@pytest.mark.parametrize("weight", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_counts_equal_brute_force(names: list[str], weight: bool, seed: int) -> None:
    df = messy(seed, 300)
    wanted = [0.01, 0.25, 0.3, 0.5, 0.8, 0.99]
    points = curve(df.lazy(), by=names, weight="w" if weight else None)
    got = counts_on_grid(points, names, wanted).collect()
    expected = brute(df, names, wanted, weight)
    # Ties at a threshold, +inf scores and null keys included; keys sorted, nulls last.
    assert got.select(*names, "threshold").equals(expected.select(*names, "threshold"))
    for column in ("tp", "fp", "tn", "fn"):
        np.testing.assert_array_equal(got[column].cast(pl.Float64), expected[column])


def test_float32_scores_compare_in_float64() -> None:
    # 0.3 as a Float32 is 0.30000001192...: flagged at t = 0.3 (as the curve's join did).
    df = pl.DataFrame({"score": [0.3, 0.2], "label": [1, 0]}).with_columns(
        pl.col("score").cast(pl.Float32)
    )
    got = counts_on_grid(curve(df.lazy()), [], [0.2, 0.3, 0.31]).collect()
    assert got["tp"].to_list() == [1, 1, 0]
    assert got["fp"].to_list() == [1, 0, 0]


def test_group_of_nan_scores_has_null_complements() -> None:
    df = pl.DataFrame({"g": [1, 1, 2], "score": [0.4, float("nan"), 0.6], "label": [1, 0, 1]})
    got = counts_on_grid(curve(df.lazy(), by=["g"]), ["g"], [0.5]).collect()
    assert got["g"].to_list() == [1, 2]
    assert got["tn"].to_list() == [None, 0]


def test_real_infinite_score_beats_the_start_row() -> None:
    # Both sit in the top bin at +inf: the real score is flagged at every threshold.
    df = pl.DataFrame({"score": [float("inf"), 0.5], "label": [1, 0]})
    got = counts_on_grid(curve(df.lazy()), [], [0.6, 0.99]).collect()
    assert got["tp"].to_list() == [1, 1]
    assert got["fn"].to_list() == [0, 0]


def net_benefit_brute(df: pl.DataFrame, wanted: list[float], weight: bool) -> list[float | None]:
    """Net benefit per group (sorted, nulls last) and threshold, counted row by row."""
    out: list[float | None] = []
    for key in df.select("a").unique().sort("a", nulls_last=True)["a"].to_list():
        part = df.filter(pl.col("a") == key).drop_nulls(["score", "label"])
        s, y = part["score"].to_numpy(), part["label"].to_numpy()
        w = part["w"].to_numpy() if weight else np.ones(len(s))
        for t in wanted:
            if np.isnan(s).any():
                out.append(None)
                continue
            at, n = s >= t, w.sum()
            out.append(w[at & y].sum() / n - w[at & ~y].sum() / n * (t / (1 - t)))
    return out


@pytest.mark.parametrize("weight", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_snapped_scores_leave_the_decision_curve_unchanged(weight: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 400
    score = rng.choice([-1.0, 0.0, 0.05, 0.1, 0.3, 0.5, 0.9, 0.99, 1.0, 2.0, np.inf], n)
    score = np.where(rng.random(n) < 0.5, rng.random(n).round(3), score)
    df = pl.DataFrame(
        {
            "a": rng.integers(0, 6, n),
            "score": score,
            "label": rng.random(n) < 0.4,
            "w": rng.integers(1, 4, n).astype(np.float64),
        }
    ).with_columns(
        # A NaN group (null result), null scores and labels skipped.
        score=pl.when((pl.col("a") == 5) & (pl.int_range(pl.len()) % 7 == 0))
        .then(float("nan"))
        .when(pl.int_range(pl.len()) % 11 == 0)
        .then(None)
        .otherwise("score"),
        label=pl.when(pl.int_range(pl.len()) % 13 == 0).then(None).otherwise("label"),
    )
    wanted = [0.05, 0.1, 0.25, 0.3, 0.5, 0.9, 0.99]
    got = df.roc.decision_curve(by="a", thresholds=wanted, weight="w" if weight else None)
    expected = net_benefit_brute(df, wanted, weight)
    assert got["net_benefit"].is_null().to_list() == [v is None for v in expected]
    defined = [(g, e) for g, e in zip(got["net_benefit"], expected, strict=True) if e is not None]
    np.testing.assert_allclose([g for g, _ in defined], [e for _, e in defined], rtol=0, atol=1e-15)
