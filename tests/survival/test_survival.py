"""Time-dependent AUC against scikit-survival's cumulative_dynamic_auc and brute-force IPCW."""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import polars_roc as pr
from tests.survival.conftest import censored, sksurv_auc

sksurv_datasets = pytest.importorskip("sksurv.datasets")


@pytest.mark.parametrize(("seed", "ties"), [(0, False), (1, True), (2, True), (3, False)])
def test_equals_scikit_survival_on_random_censored_data(seed: int, ties: bool) -> None:
    df = censored(seed, ties=ties)
    times = df["t"].to_numpy()
    horizons = [float(np.quantile(times, q)) for q in (0.2, 0.4, 0.6, 0.8)]
    got = df.roc.time_auc("s", time="t", event="e", horizons=horizons)
    scores, mean = sksurv_auc(df, horizons)
    assert got["auc"].to_numpy() == pytest.approx(scores, rel=1e-12)
    assert got["mean_auc"][0] == pytest.approx(mean, rel=1e-12)


def test_equals_scikit_survival_on_its_example_data() -> None:
    # scikit-survival's own example: the veterans' lung cancer data, Karnofsky score as risk
    x, y = sksurv_datasets.load_veterans_lung_cancer()
    df = pl.DataFrame(
        {"s": -x["Karnofsky_score"].to_numpy(), "t": y["Survival_in_days"], "e": y["Status"]}
    )
    horizons = [30.0, 60.0, 90.0, 180.0, 365.0]
    got = df.roc.time_auc("s", time="t", event="e", horizons=horizons)
    scores, mean = sksurv_auc(df, horizons)
    assert got["auc"].to_numpy() == pytest.approx(scores, rel=1e-12)
    assert got["mean_auc"][0] == pytest.approx(mean, rel=1e-12)
    # a survival score (higher = later) with direction="lower" is the same analysis
    lower = df.with_columns(pl.col("s").neg()).roc.time_auc(
        "s", time="t", event="e", horizons=horizons, direction="lower"
    )
    assert lower["auc"].to_numpy() == pytest.approx(got["auc"].to_numpy(), rel=1e-14)


def brute_force(df: pl.DataFrame, horizon: float) -> float | None:
    """Direct IPCW: reverse Kaplan–Meier by hand, then the pairwise weighted AUC."""
    t, e, s = df["t"].to_numpy(), df["e"].to_numpy(), df["s"].to_numpy()
    g = {}
    survival = 1.0
    for u in np.unique(t):
        at_risk = (t >= u).sum() - ((t == u) & e).sum()
        censored_here = ((t == u) & ~e).sum()
        if at_risk > 0:
            survival *= 1 - censored_here / at_risk
        g[u] = survival
    cases = [(s[i], 1 / g[t[i]]) for i in range(len(t)) if e[i] and t[i] <= horizon]
    controls = [s[j] for j in range(len(t)) if t[j] > horizon]
    if not cases or not controls:
        return None
    num = sum(w * ((sc > c) + 0.5 * (sc == c)) for sc, w in cases for c in controls)
    return num / (sum(w for _, w in cases) * len(controls))


@settings(max_examples=30)
@given(seed=st.integers(0, 10_000), n=st.integers(5, 40))
def test_equals_brute_force_ipcw(seed: int, n: int) -> None:
    df = censored(seed, n=n, ties=True)
    horizons = sorted({float(v) for v in df["t"].head(3)})
    got = df.roc.time_auc("s", time="t", event="e", horizons=horizons)
    for horizon, auc in zip(got["horizon"], got["auc"], strict=True):
        want = brute_force(df, horizon)
        assert (auc is None) == (want is None)
        if want is not None:
            assert auc == pytest.approx(want, rel=1e-12)


def test_grouped_equals_one_group_at_a_time_and_lazy() -> None:
    df = pl.concat([censored(i).with_columns(g=pl.lit(i)) for i in range(3)])
    horizons = [0.3, 0.8]
    grouped = df.roc.time_auc("s", time="t", event="e", horizons=horizons, by="g")
    for g in range(3):
        alone = df.filter(pl.col("g") == g).roc.time_auc(
            "s", time="t", event="e", horizons=horizons
        )
        part = grouped.filter(pl.col("g") == g).drop("g")
        # IPCW weights are float sums: equal to rounding, not always to the bit
        assert_frame_equal(part, alone, check_exact=False, rel_tol=1e-12)
    lazy = df.lazy().roc.time_auc("s", time="t", event="e", horizons=horizons, by="g")
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), grouped, check_exact=False, rel_tol=1e-12)
    streamed = lazy.collect(engine="streaming").sort("g", "horizon")
    assert_frame_equal(streamed, grouped, check_exact=False, rel_tol=1e-12)


def test_curve_integrates_to_the_auc() -> None:
    df = censored(4, ties=True)
    curve = df.roc.time_curve("s", time="t", event="e", horizons=[0.5])
    fpr, tpr = curve["fpr"].to_numpy(), curve["tpr"].to_numpy()
    area = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
    auc = df.roc.time_auc("s", time="t", event="e", horizons=0.5)["auc"].item()
    assert area == pytest.approx(auc, rel=1e-12)


def test_undefined_horizons_are_null_with_counts() -> None:
    df = censored(5, n=50)
    last = float(df["t"].max())
    first_event = float(df.filter("e")["t"].min())
    got = df.roc.time_auc("s", time="t", event="e", horizons=[first_event / 2, last])
    assert got["auc"].to_list() == [None, None]
    assert got["n_cases"][0] == 0
    assert got["n_controls"][1] == 0
    assert got["mean_auc"][0] is None


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"t": [-1.0, 2.0, 3.0, 4.0]}, "negative"),
        ({"t": [float("nan"), 2.0, 3.0, 4.0]}, "NaN time"),
        ({"e": [0, 2, 1, 1]}, "0/1"),
        ({"e": ["a", "b", "a", "b"]}, "Boolean"),
        ({"t": ["x", "y", "z", "w"]}, "numeric"),
    ],
)
def test_bad_input_names_the_column(change: dict, match: str) -> None:
    df = pl.DataFrame({"s": [0.1, 0.2, 0.3, 0.4], "t": [1.0, 2.0, 3.0, 4.0], "e": [1, 0, 1, 1]})
    df = df.with_columns(**{k: pl.Series(v) for k, v in change.items()})
    with pytest.raises(Exception, match=match):
        df.roc.time_auc("s", time="t", event="e", horizons=[2])
    with pytest.raises(ValueError, match="horizons"):
        df.roc.time_auc("s", time="t", event="e", horizons=[])


def test_time_auc_chart() -> None:
    df = pl.concat([censored(i).with_columns(g=pl.lit(f"m{i}")) for i in range(2)])
    table = df.roc.time_auc("s", time="t", event="e", horizons=[0.2, 0.5, 1.0], by="g")
    spec = pr.charts.time_auc_chart(table, color="g").to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["rule", "line"]  # the chance line under one line per group
    banded = table.with_columns(auc_lower=pl.col("auc") - 0.05, auc_upper=pl.col("auc") + 0.05)
    spec = pr.charts.time_auc_chart(banded, facet="g").to_dict()
    assert [layer["mark"]["type"] for layer in spec["spec"]["layer"]] == ["rule", "area", "line"]
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="color="):
        pr.charts.time_auc_chart(table, color="nope")


def test_one_sort_twin_equals_the_weighted_kernel() -> None:
    # time_auc reads every horizon off one sort (_core/dynamic); time_curve expands the rows
    # per horizon and runs the package's weighted curve kernel: the areas must agree.
    df = pl.concat([censored(i, n=120, ties=True).with_columns(g=pl.lit(i % 2)) for i in range(4)])
    horizons = [0.2, 0.4, 0.7, 1.2]
    table = df.roc.time_auc("s", time="t", event="e", horizons=horizons, by="g")
    curve = df.roc.time_curve("s", time="t", event="e", horizons=horizons, by="g")
    areas = curve.group_by("g", "horizon").agg(
        area=((pl.col("fpr").diff() * (pl.col("tpr") + pl.col("tpr").shift()) / 2).sum())
    )
    joined = table.join(areas, on=["g", "horizon"])
    assert len(joined) == len(table)
    assert joined["auc"].to_numpy() == pytest.approx(joined["area"].to_numpy(), rel=1e-12)


def test_more_groups_than_a_small_integer_holds() -> None:
    # Group numbers above int16 take the general stable sort (_core/dynamic._small).
    n_groups = 33_000
    rng = np.random.default_rng(7)
    df = pl.DataFrame(
        {
            "g": np.repeat(np.arange(n_groups), 4),
            "s": rng.normal(size=4 * n_groups),
            "t": np.tile([1.0, 2.0, 3.0, 4.0], n_groups),
            "e": np.tile([True, False, True, False], n_groups),
        }
    )
    grouped = df.roc.time_auc("s", time="t", event="e", horizons=[2.5], by="g")
    for g in (0, 12_345, n_groups - 1):
        part = df.filter(pl.col("g") == g)
        want = brute_force(part, 2.5)
        assert grouped.filter(pl.col("g") == g)["auc"].item() == pytest.approx(want, rel=1e-12)


def test_bootstrap_intervals_are_percentiles_of_explicit_resamples() -> None:
    # The documented scheme, by hand: each group's rows in canonical order (score, time,
    # event), drawn with numpy's generator seeded by the seed and the group's key.
    df = pl.concat([censored(i, n=80).with_columns(g=pl.lit(f"m{i}")) for i in range(2)])
    n_boot, seed, horizons = 40, 3, [0.3, 0.8]
    got = df.roc.time_auc(
        "s", time="t", event="e", horizons=horizons, by="g", ci="bootstrap",
        n_boot=n_boot, seed=seed, level=0.8,
    )  # fmt: skip
    assert got.columns[:5] == ["g", "horizon", "auc", "auc_lower", "auc_upper"]
    for name in ("m0", "m1"):
        rows = df.filter(pl.col("g") == name).sort("s", "t", "e")
        digest = hashlib.blake2b(repr((name,)).encode(), digest_size=8).digest()
        rng = np.random.default_rng([seed, int.from_bytes(digest, "little")])
        draws = rng.integers(0, rows.height, size=(n_boot, rows.height))
        aucs = np.array([[brute_force(rows[i], h) for h in horizons] for i in draws])
        part = got.filter(pl.col("g") == name)
        for j in range(len(horizons)):
            lower, upper = np.quantile(aucs[:, j].astype(float), [0.1, 0.9])
            assert part["auc_lower"][j] == pytest.approx(lower, rel=1e-12)
            assert part["auc_upper"][j] == pytest.approx(upper, rel=1e-12)
    lazy = df.lazy().roc.time_auc(
        "s", time="t", event="e", horizons=horizons, by="g", ci="bootstrap",
        n_boot=n_boot, seed=seed, level=0.8,
    )  # fmt: skip
    assert_frame_equal(lazy.collect(), got, check_exact=False, rel_tol=1e-12)
    with pytest.raises(ValueError, match="ci must be 'bootstrap'"):
        df.roc.time_auc("s", time="t", event="e", horizons=horizons, ci="delong")
    with pytest.raises(ValueError, match="n_boot"):
        df.roc.time_auc("s", time="t", event="e", horizons=horizons, ci="bootstrap", n_boot=0)


@pytest.mark.parametrize("ties", [False, True])
def test_blocks_of_groups_agree_with_one_block(monkeypatch: pytest.MonkeyPatch, ties: bool) -> None:
    # The kernel runs a block of whole groups at a time (_core/dynamic.BLOCK_ROWS), blocks on
    # threads: tiny blocks must give the numbers of one block, and each group its oracle's.
    from polars_roc.survival import _dynamic as dynamic

    df = pl.concat(
        [censored(i, n=60 + 7 * i, ties=ties).with_columns(g=pl.lit(i)) for i in range(9)]
    )
    horizons = [0.2, 0.5, 0.9, 1.4]
    whole = df.roc.time_auc("s", time="t", event="e", horizons=horizons, by="g")
    monkeypatch.setattr(dynamic, "BLOCK_ROWS", 150)
    assert len(dynamic.blocks(np.cumsum([0, *[60 + 7 * i for i in range(9)]]))) > 3
    split = df.roc.time_auc("s", time="t", event="e", horizons=horizons, by="g")
    assert_frame_equal(split, whole, check_exact=False, rel_tol=1e-12)
    weights = df.roc.time_curve("s", time="t", event="e", horizons=horizons, by="g")
    monkeypatch.setattr(dynamic, "BLOCK_ROWS", 1 << 20)
    assert_frame_equal(
        weights, df.roc.time_curve("s", time="t", event="e", horizons=horizons, by="g")
    )
    for g in (0, 4, 8):
        part = df.filter(pl.col("g") == g)
        scores, _ = sksurv_auc(part, horizons)
        got = split.filter(pl.col("g") == g)["auc"].to_numpy()
        assert got == pytest.approx(scores, rel=1e-12)
