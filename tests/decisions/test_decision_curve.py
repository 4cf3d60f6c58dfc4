"""Decision curves and net benefit against the Python `dcurves` package."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_roc as pr

dcurves = pytest.importorskip("dcurves")

THRESHOLDS = [i / 100 for i in range(1, 100)]


def risks(n: int = 400, seed: int = 0, groups: int = 1) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = np.clip(0.3 + 0.35 * (y - 0.3) + rng.normal(0, 0.2, n), 0.001, 0.999).round(2)
    return pl.DataFrame({"p": p, "y": y.astype(np.int64), "g": rng.integers(0, groups, n)})


def dca(df: pl.DataFrame, thresholds: list[float], prevalence: float | None = None) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = dcurves.dca(
            data=df.select("p", "y").to_pandas(),
            outcome="y",
            modelnames=["p"],
            thresholds=thresholds,
            prevalence=prevalence,
        )
    model, everyone = out[out.model == "p"], out[out.model == "all"]
    none = out[out.model == "none"]
    return model, everyone, none


@pytest.mark.parametrize("prevalence", [None, 0.05, 0.5])
@pytest.mark.parametrize("seed", [0])
def test_equals_dcurves(prevalence: float | None, seed: int) -> None:
    df = risks(seed=seed)
    got = df.roc.decision_curve("p", "y", prevalence=prevalence)
    model, everyone, none = dca(df, THRESHOLDS, prevalence)
    assert got["threshold"].to_list() == THRESHOLDS
    np.testing.assert_allclose(got["net_benefit"], model.net_benefit, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got["treat_all"], everyone.net_benefit, rtol=0, atol=1e-12)
    np.testing.assert_allclose(got["treat_none"], none.net_benefit, rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        got["interventions_avoided"], model.net_intervention_avoided, rtol=0, atol=1e-10
    )


def test_grouped_equals_dcurves_per_group_and_lazy_equals_eager() -> None:
    df = risks(n=600, seed=2, groups=3)
    wanted = [0.05, 0.1, 0.25, 0.33, 0.5, 0.8]
    grouped = df.roc.decision_curve("p", "y", by="g", thresholds=wanted)
    lazy = df.lazy().roc.decision_curve("p", "y", by="g", thresholds=wanted).collect()
    assert grouped.equals(lazy)
    for (g,), part in df.group_by("g"):
        model, _, _ = dca(part, wanted)
        mine = grouped.filter(pl.col("g") == g)
        np.testing.assert_allclose(mine["net_benefit"], model.net_benefit, atol=1e-12)


@settings(max_examples=15)
@given(
    data=st.lists(
        st.tuples(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]), st.booleans(), st.integers(1, 3)),
        min_size=1,
        max_size=20,
    )
)
def test_weights_are_repeated_rows_and_expression_agrees(data: list[Any]) -> None:
    df = pl.DataFrame(data, schema=["p", "y", "w"], orient="row")
    wanted = [0.2, 0.5, 0.7]
    weighted = df.roc.decision_curve("p", "y", weight="w", thresholds=wanted)
    repeated = df.select(pl.all().repeat_by("w").explode())
    plain = repeated.roc.decision_curve("p", "y", thresholds=wanted)
    np.testing.assert_allclose(weighted["net_benefit"], plain["net_benefit"], atol=1e-12)
    for t, nb in zip(wanted, plain["net_benefit"], strict=True):
        y, p = repeated["y"].to_numpy(), repeated["p"].to_numpy()
        brute = ((p >= t) & y).sum() / len(y) - ((p >= t) & ~y).sum() / len(y) * t / (1 - t)
        assert nb == pytest.approx(brute)
        expr = df.select(pr.net_benefit("p", "y", t, weight="w")).item()
        assert expr == pytest.approx(brute)


def test_expression_in_group_by_and_namespace() -> None:
    df = risks(n=300, seed=4, groups=2)
    frame = df.roc.decision_curve("p", "y", by="g", thresholds=[0.2])
    agg = df.group_by("g").agg(pl.col("p").roc.net_benefit("y", 0.2)).sort("g")
    np.testing.assert_allclose(agg["net_benefit"], frame["net_benefit"], atol=1e-12)
    nan = pl.DataFrame({"p": [0.5, float("nan")], "y": [1, 0]})
    assert nan.select(pr.net_benefit("p", "y", 0.3)).item() is None


def test_bootstrap_band_uses_the_package_bootstrap() -> None:
    df = risks(n=500, seed=5, groups=2)
    wanted = [0.1, 0.3, 0.5]
    out = df.roc.decision_curve("p", "y", by="g", thresholds=wanted, ci="bootstrap", n_boot=200)
    again = df.roc.decision_curve("p", "y", by="g", thresholds=wanted, ci="bootstrap", n_boot=200)
    assert out.equals(again)  # seeded per group
    assert (out["net_benefit_lower"] <= out["net_benefit"]).all()
    assert (out["net_benefit"] <= out["net_benefit_upper"]).all()
    # A group's stream is seeded by its key: the same group alone gives the same band.
    alone = df.filter(pl.col("g") == 1).roc.decision_curve(
        "p", "y", by="g", thresholds=wanted, ci="bootstrap", n_boot=200
    )
    mine = out.filter(pl.col("g") == 1)
    assert mine.equals(alone)


def test_bootstrap_statistic_twin_equals_the_point_formula() -> None:
    from polars_roc.decisions.decision_curve import net_benefit_statistic

    df = risks(n=200, seed=6)
    levels = np.sort(df["p"].unique().to_numpy())
    y, p = df["y"].to_numpy().astype(bool), df["p"].to_numpy()
    pos = np.array([[((p == v) & y).sum() for v in levels]], dtype=float)
    neg = np.array([[((p == v) & ~y).sum() for v in levels]], dtype=float)
    wanted = [0.05, 0.2, 0.37, 0.6, 0.95]
    for prevalence in (None, 0.2):
        twin = net_benefit_statistic(wanted, prevalence)(pos, neg, levels)[0]
        frame = df.roc.decision_curve("p", "y", thresholds=wanted, prevalence=prevalence)
        np.testing.assert_allclose(twin, frame["net_benefit"], atol=1e-12)


@pytest.mark.parametrize("thresholds", [[0.0, 0.5], [0.5, 1.0], [1.2], [-0.1], "a", [None], []])
def test_bad_thresholds(thresholds: Any) -> None:
    df = risks(n=20)
    with pytest.raises(ValueError, match="thresholds must be threshold probabilities"):
        df.roc.decision_curve("p", "y", thresholds=thresholds)


@pytest.mark.parametrize("threshold", [0.0, 1.0, 2])
def test_bad_expression_threshold(threshold: float) -> None:
    with pytest.raises(ValueError, match="threshold must be threshold probabilities"):
        pr.net_benefit("p", "y", threshold)


def test_bad_prevalence_and_ci() -> None:
    df = risks(n=20)
    with pytest.raises(ValueError, match="prevalence must lie strictly between 0 and 1"):
        df.roc.decision_curve("p", "y", prevalence=1.0)
    with pytest.raises(ValueError, match="ci must be 'bootstrap'"):
        df.roc.decision_curve("p", "y", ci="delong")
