"""Bootstrap of any metric, threshold and cutpoint intervals, bootstrap tests, p adjustment.

Oracles: slow Python loops over explicitly drawn resamples (the documented schemes, with the
same per-group seeds), scored by scikit-learn or by our own point functions; statsmodels'
``multipletests`` and a textbook loop for the p-value adjustments.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from itertools import combinations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.metrics import brier_score_loss, roc_auc_score

import polars_roc as pr
from polars_roc._core.resampling import group_rng
from tests.conftest import engine_resamples

METRICS = {
    "auc": pr.auc("score", "label"),
    "brier": pr.brier_score("score", "label"),
    "mean_score": pl.col("score").mean(),  # a user's own expression
}


def scored(n: int = 60, seed: int = 0, *, ties: bool = False, groups: int = 1) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.random(n * groups) < 0.4
    score = 1 / (1 + np.exp(-(rng.normal(size=n * groups) + 1.2 * label)))
    if ties:
        score = np.round(score, 1)
    group = np.repeat([f"g{i}" for i in range(groups)], n)
    return pl.DataFrame({"group": group, "score": score, "label": label})


def percentile(values: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    lo, hi = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


# ---------------------------------------------------------------------------------------
# bootstrap(metrics): the documented scheme, replayed by hand and scored by scikit-learn
# ---------------------------------------------------------------------------------------


def metric_replicates(df: pl.DataFrame, key: list, seed: int, n_boot: int) -> np.ndarray:
    """(n_boot, 3): auc, brier, mean score of each resample, drawn as the module documents."""
    df = df.sort(df.columns, nulls_last=True, maintain_order=True)
    labels = df["label"].to_numpy()
    strata = [np.flatnonzero(labels == v) for v in np.unique(labels)]  # False, True
    rng = group_rng(seed, key)
    drawn = [rows[rng.integers(0, len(rows), size=(n_boot, len(rows)))] for rows in strata]
    positions = np.concatenate(drawn, axis=1)
    y, s = labels.astype(int), df["score"].to_numpy()
    out = np.empty((n_boot, 3))
    for i, rows in enumerate(positions):
        out[i] = roc_auc_score(y[rows], s[rows]), brier_score_loss(y[rows], s[rows]), s[rows].mean()
    return out


@pytest.mark.parametrize("grouped", [False, True], ids=["whole", "by"])
def test_bootstrap_matches_resamples_scored_by_sklearn(*, grouped: bool) -> None:
    df = scored(50, seed=1, ties=True, groups=2)
    if not grouped:
        df = df.drop("group")
    by = "group" if grouped else None
    got = pr.bootstrap(df, METRICS, by=by, n_boot=300, seed=7)
    parts = df.partition_by("group") if grouped else [df]
    for part in parts:
        key = [part["group"][0]] if grouped else []
        values = metric_replicates(part, key, 7, 300)
        rows = got.filter(pl.col("group") == key[0]) if grouped else got
        y, s = part["label"].to_numpy().astype(int), part["score"].to_numpy()
        estimates = [roc_auc_score(y, s), brier_score_loss(y, s), s.mean()]
        for j, (name, estimate) in enumerate(zip(METRICS, estimates, strict=True)):
            row = rows.row(j, named=True)
            assert row["metric"] == name
            assert row["estimate"] == pytest.approx(estimate)
            assert row["se"] == pytest.approx(values[:, j].std(ddof=1))
            assert (row["lower"], row["upper"]) == pytest.approx(percentile(values[:, j]))


def test_bootstrap_is_order_free_lazy_eager_and_per_group() -> None:
    df = scored(80, seed=2, groups=3)
    eager = df.roc.bootstrap(METRICS, by="group", n_boot=200, seed=3)
    assert eager.columns == ["group", "metric", "estimate", "se", "lower", "upper"]
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=9)
    assert_frame_equal(shuffled.roc.bootstrap(METRICS, by="group", n_boot=200, seed=3), eager)
    lazy = df.lazy().roc.bootstrap(METRICS, by="group", n_boot=200, seed=3)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), eager)
    alone = df.filter(pl.col("group") == "g1").roc.bootstrap(
        METRICS, by="group", n_boot=200, seed=3
    )
    assert_frame_equal(alone, eager.filter(pl.col("group") == "g1"))
    other_seed = df.roc.bootstrap(METRICS, by="group", n_boot=200, seed=4)
    assert not other_seed.equals(eager)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), power=st.sampled_from([1.0, 3.0]))
def test_rank_metrics_are_invariant_to_increasing_transforms(seed: int, power: float) -> None:
    df = scored(40, seed=seed % 1000, ties=True).drop("group")
    auc = {"auc": pr.auc("score", "label")}
    base = df.roc.bootstrap(auc, n_boot=50, seed=seed)
    moved = df.with_columns(pl.col("score") ** power * 10 - 3).roc.bootstrap(
        auc, n_boot=50, seed=seed
    )
    assert_frame_equal(base, moved)


def test_bootstrap_does_not_depend_on_the_thread_count() -> None:
    code = (
        "import polars as pl, polars_roc as pr, numpy as np;"
        "rng = np.random.default_rng(0);"
        "df = pl.DataFrame({'g': rng.integers(0, 4, 2000), 'score': rng.random(2000),"
        " 'label': rng.random(2000) < 0.3});"
        "out = df.roc.bootstrap({'auc': pr.auc('score', 'label')}, by='g', n_boot=100, seed=1);"
        "print(out['lower'].to_list(), out['upper'].to_list(), out['se'].to_list())"
    )
    outputs = set()
    for threads in ("1", "4"):
        env = {**os.environ, "POLARS_MAX_THREADS": threads}
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1


def test_bootstrap_undefined_and_bad_arguments() -> None:
    one_class = pl.DataFrame({"score": [0.1, 0.2, 0.3], "label": [True, True, True]})
    out = one_class.roc.bootstrap({"auc": pr.auc("score", "label")}, n_boot=20, seed=0)
    assert out.row(0) == ("auc", None, None, None, None)
    nan = pl.DataFrame({"score": [0.1, float("nan"), 0.3, 0.4], "label": [True, False] * 2})
    out = nan.roc.bootstrap({"auc": pr.auc("score", "label")}, n_boot=20, seed=0)
    assert out.row(0) == ("auc", None, None, None, None)
    df = scored(30)
    with pytest.raises(ValueError, match="mapping"):
        df.roc.bootstrap([pr.auc("score", "label")])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="expected one"):
        df.roc.bootstrap({"s": pl.col("score")}, n_boot=5, seed=0)
    with pytest.raises(ValueError, match="n_boot"):
        df.roc.bootstrap(METRICS, n_boot=0)
    with pytest.raises(pl.exceptions.ColumnNotFoundError):
        df.roc.bootstrap(METRICS, label="outcome")
    with pytest.raises(ValueError, match="collides"):
        df.rename({"group": "metric"}).roc.bootstrap(METRICS, by="metric")


# ---------------------------------------------------------------------------------------
# thresholds(ci=) and best_threshold(ci=): our point functions over the engine's resamples
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("ties", [False, True], ids=["distinct", "tied"])
def test_threshold_intervals_match_a_loop_of_thresholds(*, ties: bool) -> None:
    df = scored(70, seed=4, ties=ties).drop("group")
    wanted = [0.7, 0.5, 0.3]
    got = df.roc.thresholds(thresholds=wanted, ci="bootstrap", n_boot=200, seed=5)
    tables = [r.roc.thresholds(thresholds=wanted) for r in engine_resamples(df, [], 5, 200)]
    for i, t in enumerate(wanted):
        row = got.row(i, named=True)
        assert row["threshold"] == t
        for rate in ("tpr", "fpr"):
            values = np.array([table[rate][i] for table in tables])
            assert (row[f"{rate}_lower"], row[f"{rate}_upper"]) == pytest.approx(percentile(values))


@pytest.mark.parametrize(
    "options",
    [{}, {"method": "closest_topleft"}, {"method": "cost", "cost_fn": 3.0}, {"fpr": (0.0, 0.3)}],
    ids=["youden", "topleft", "cost", "fpr-range"],
)
def test_cutpoint_intervals_match_a_loop_of_best_threshold(options: dict) -> None:
    df = scored(60, seed=6, ties=True, groups=2)
    got = df.roc.best_threshold(by="group", ci="bootstrap", n_boot=150, seed=2, **options)
    for part in df.partition_by("group"):
        key = [part["group"][0]]
        best = [r.roc.best_threshold(**options) for r in engine_resamples(part, key, 2, 150)]
        row = got.filter(pl.col("group") == key[0]).row(0, named=True)
        for name in ("threshold", "tpr", "fpr"):
            values = np.array([b[name].item() for b in best], dtype=float)
            expected = percentile(values)
            assert (row[f"{name}_lower"], row[f"{name}_upper"]) == pytest.approx(expected)


def test_threshold_intervals_arguments() -> None:
    df = scored(30)
    with pytest.raises(ValueError, match="list of thresholds"):
        df.roc.thresholds(ci="bootstrap")
    with pytest.raises(ValueError, match="thresholds=None"):
        df.roc.best_threshold(ci="bootstrap", thresholds=[0.5])
    with pytest.raises(ValueError, match="ci must be"):
        df.roc.thresholds(thresholds=[0.5], ci="delong")  # type: ignore[arg-type]
    one_class = pl.DataFrame({"score": [0.1, 0.2], "label": [True, True]})
    out = one_class.roc.best_threshold(ci="bootstrap", n_boot=10, seed=0)
    assert out["threshold_lower"].to_list() == [None]


# ---------------------------------------------------------------------------------------
# compare(adjust=): statsmodels and a textbook loop
# ---------------------------------------------------------------------------------------


def textbook(p: list[float], method: str) -> list[float]:
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    if method == "bonferroni":
        return [min(1.0, m * v) for v in p]
    if method == "holm":
        running = 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (m - rank) * p[i]))
            out[i] = running
        return out
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, min(1.0, m * p[i] / (rank + 1)))
        out[i] = running
    return out


def segments() -> pl.DataFrame:
    return pr.datasets.simulate(400, seed=5)


@pytest.mark.parametrize("adjust", ["holm", "bonferroni", "bh"])
def test_adjusted_p_values_match_the_textbook(adjust: str) -> None:
    got = segments().roc.compare(case="case", by="segment", adjust=adjust)
    p = got["p_value"].to_list()
    assert got["p_adjusted"].to_list() == pytest.approx(textbook(p, adjust))
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    name = {"holm": "holm", "bonferroni": "bonferroni", "bh": "fdr_bh"}[adjust]
    expected = multitest.multipletests(p, method=name)[1]
    assert got["p_adjusted"].to_list() == pytest.approx(list(expected))


def test_adjust_skips_undefined_tests_and_checks_its_argument() -> None:
    df = segments()
    one_class = df.filter(pl.col("segment") == "east").with_columns(label=pl.lit(True))
    mixed = pl.concat([df.filter(pl.col("segment") != "east"), one_class])
    got = mixed.roc.compare(case="case", by="segment", adjust="holm")
    defined = got.filter(pl.col("p_value").is_not_null())
    assert got.filter(pl.col("p_value").is_null())["p_adjusted"].null_count() == 3
    assert defined["p_adjusted"].to_list() == pytest.approx(
        textbook(defined["p_value"].to_list(), "holm")
    )
    with pytest.raises(ValueError, match="adjust must be"):
        df.roc.compare(case="case", adjust="fdr")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# compare(method="bootstrap"): resamples replayed by hand, areas by sklearn / partial_auc
# ---------------------------------------------------------------------------------------


def normal_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def pair_area(frame: pl.DataFrame, fpr: tuple[float, float] | None) -> float:
    if fpr is None:
        return roc_auc_score(frame["label"].to_numpy(), frame["score"].to_numpy())
    return pr.areas.partial_auc(frame, fpr=fpr)["pauc"].item()


@pytest.mark.parametrize("fpr", [None, (0.0, 0.3)], ids=["auc", "pauc"])
def test_paired_bootstrap_test_matches_resampled_cases(fpr: tuple[float, float] | None) -> None:
    df = segments().filter(pl.col("model") != "baseline")
    got = df.roc.compare(case="case", method="bootstrap", n_boot=100, seed=3, fpr=fpr)
    row = got.row(0, named=True)  # 100 replicates: one chunk (see bootstrap_tests)
    assert (row["model_a"], row["model_b"], row["paired"]) == ("gbm", "logit", True)
    # One row per case, ordered by case as the test orders them.
    wide = df.pivot(on="model", index=["case", "label"], values="score").sort("case")
    y = wide["label"].to_numpy()
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    rng = group_rng(3, ["gbm", "logit"])
    drawn = np.c_[
        pos[rng.integers(0, len(pos), size=(100, len(pos)))],
        neg[rng.integers(0, len(neg), size=(100, len(neg)))],
    ]

    def area(model: str, rows: np.ndarray | slice) -> float:
        frame = wide[rows].select(pl.col(model).alias("score"), "label")
        return pair_area(frame, fpr)

    diffs = np.array([area("gbm", r) - area("logit", r) for r in drawn])
    diff = area("gbm", slice(None)) - area("logit", slice(None))
    assert row["diff"] == pytest.approx(diff)
    z = diff / diffs.std(ddof=1)
    assert row["statistic"] == pytest.approx(z)
    assert row["p_value"] == pytest.approx(normal_p(z))


def test_unpaired_bootstrap_test_resamples_each_model() -> None:
    df = segments().filter(pl.col("model") != "baseline")
    got = df.roc.compare(method="bootstrap", n_boot=100, seed=3).row(0, named=True)
    assert got["paired"] is False
    rng = group_rng(3, ["gbm", "logit"])
    replicates = []
    for model in ("gbm", "logit"):
        part = df.filter(pl.col("model") == model).sort("label", "score")
        y, s = part["label"].to_numpy(), part["score"].to_numpy()
        pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
        drawn = np.c_[
            pos[rng.integers(0, len(pos), size=(100, len(pos)))],
            neg[rng.integers(0, len(neg), size=(100, len(neg)))],
        ]
        replicates.append(np.array([roc_auc_score(y[r], s[r]) for r in drawn]))
    sd = (replicates[0] - replicates[1]).std(ddof=1)
    assert got["statistic"] == pytest.approx(got["diff"] / sd)


def test_bootstrap_test_agrees_with_delong_and_checks_arguments() -> None:
    df = segments()
    delong = df.roc.compare(case="case")
    boot = df.roc.compare(case="case", method="bootstrap", n_boot=2000, seed=1)
    assert boot["diff"].to_list() == pytest.approx(delong["diff"].to_list())
    # Two estimates of the same standard error: within Monte Carlo and method error.
    ratio = (boot["diff"] / boot["statistic"]) / (delong["diff"] / delong["statistic"])
    assert ratio.to_list() == pytest.approx([1.0] * 3, abs=0.15)
    with pytest.raises(ValueError, match="bootstrap only"):
        df.roc.compare(case="case", fpr=(0.0, 0.2))
    with pytest.raises(ValueError, match="method must be"):
        df.roc.compare(method="jackknife")  # type: ignore[arg-type]
    odd = df.filter(~((pl.col("model") == "gbm") & (pl.col("case") == 0)))
    with pytest.raises(ValueError, match="same cases"):
        odd.roc.compare(case="case", paired=True, method="bootstrap", n_boot=10, seed=0)
    assert (
        not odd.roc.compare(case="case", method="bootstrap", n_boot=10, seed=0)
        .filter(pl.col("model_a") == "baseline", pl.col("model_b") == "gbm")["paired"]
        .item()
    )


# ---------------------------------------------------------------------------------------
# The band on the ROC chart
# ---------------------------------------------------------------------------------------


def test_roc_chart_band_is_one_area_per_group() -> None:
    pytest.importorskip("altair")
    df = segments()
    grid = [i / 10 for i in range(11)]
    band = df.roc.tpr_at_fpr(fpr=grid, by="model", ci="bootstrap", n_boot=100, seed=0)
    chart = pr.charts.roc_chart(df.roc.curve(by="model"), color="model", band=band)
    spec = chart.to_dict()
    area = spec["layer"][1]
    assert area["mark"]["type"] == "area"
    assert area["encoding"]["y"]["field"] == "tpr_lower"
    assert area["encoding"]["y2"]["field"] == "tpr_upper"
    assert area["encoding"]["color"]["field"] == "model"
    rows = [r for r in spec["datasets"][spec["data"]["name"]] if r["_mark"] == "band"]
    assert len(rows) == band.drop_nulls("tpr_lower").height
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="band"):
        pr.charts.roc_chart(df.roc.curve(by="model"), band=band.drop("tpr_upper"))


def test_pairs_of_models_are_all_tested() -> None:
    df = segments()
    got = df.roc.compare(case="case", method="bootstrap", n_boot=50, seed=0)
    models = sorted(df["model"].unique().to_list())
    assert list(zip(got["model_a"], got["model_b"], strict=True)) == list(combinations(models, 2))
