"""`df.roc.slices(metrics=...)`: any scalar expression per slice against the rest of its group."""

from __future__ import annotations

import warnings

import numpy as np
import polars as pl
import pytest
from polars.exceptions import ColumnNotFoundError
from polars.testing import assert_frame_equal
from scipy.stats import norm
from sklearn.metrics import brier_score_loss, precision_recall_curve
from statsmodels.stats.multitest import multipletests

import polars_roc as pr

DATA = (
    pr.datasets.simulate(2400, seed=11)
    .filter(pl.col("model") != "baseline")
    .with_columns(region=pl.when(pl.col("case") % 13 == 0).then(None).otherwise("segment"))
)
FEATURES = ["region", "weight"]
METRICS = {
    "brier": pr.brier_score("score", "label"),
    "precision_at_recall": pr.precision_at_recall("score", "label", recall=0.8),
    "mean_score": pl.col("score").mean(),
}
#: Metrics the bootstrap counts fast (precision at recall runs one query per replicate).
CHEAP = {"brier": METRICS["brier"], "mean_score": METRICS["mean_score"]}
KW = {"features": FEATURES, "by": "model", "min_pos": 5, "min_neg": 5, "n_boot": 50}


@pytest.fixture(scope="module")
def out() -> pl.DataFrame:
    """Every metric: the estimates do not depend on `n_boot`, so few replicates do."""
    return DATA.roc.slices(metrics=METRICS, **{**KW, "n_boot": 20})


def _inside(group: pl.DataFrame, row: dict) -> pl.Series:
    """The slice's rows of `group`, read from the output row's feature columns (brute force)."""
    keep = pl.repeat(True, group.height, eager=True)
    for feature in FEATURES:
        value = row.get(feature)
        if value is None:
            continue
        column = group[feature]
        if value.startswith("["):
            lo, hi = (float(v) for v in value.strip("[)").split(", "))
            keep &= (column >= lo) & (column < hi)
        elif value == "null":
            keep &= column.is_null()
        else:
            keep &= column == value
    return keep.fill_null(value=False)


def _precision_at_recall(y: np.ndarray, s: np.ndarray, recall: float) -> float:
    precision, reached, _ = precision_recall_curve(y, s)
    return float(precision[reached >= recall].max())


ORACLES = {
    "brier": lambda y, s: brier_score_loss(y, s),
    "precision_at_recall": lambda y, s: _precision_at_recall(y, s, 0.8),
    "mean_score": lambda y, s: float(np.mean(s)),
}


def test_each_metric_equals_the_expression_on_the_slice_and_on_the_rest(out) -> None:
    assert out.columns == [
        "model", "slice", *FEATURES, "n_pos", "n_neg", "metric", "estimate", "estimate_rest",
        "gap", "gap_lower", "gap_upper", "p_value", "p_adjusted",
    ]  # fmt: skip
    slices = out.select("model", "slice").unique()
    assert slices.height > 30
    assert out.height == slices.height * len(METRICS)
    for row in out.iter_rows(named=True):
        group = DATA.filter(pl.col("model") == row["model"])
        inside = _inside(group, row)
        part, rest = group.filter(inside), group.filter(~inside)
        assert (row["n_pos"], row["n_neg"]) == (part["label"].sum(), (~part["label"]).sum())
        assert min(row["n_pos"], row["n_neg"]) >= 5
        oracle = ORACLES[row["metric"]]
        for frame, column in ((part, "estimate"), (rest, "estimate_rest")):
            expected = oracle(frame["label"].to_numpy(), frame["score"].to_numpy())
            assert row[column] == pytest.approx(expected, abs=1e-12)
        assert row["gap"] == pytest.approx(row["estimate"] - row["estimate_rest"], abs=1e-15)
        assert row["gap_lower"] <= row["gap"] <= row["gap_upper"]


def test_the_interval_and_p_value_are_one_normal_test_of_the_bootstrap_se(out) -> None:
    z = norm.ppf(0.975)
    se = (out["gap_upper"] - out["gap_lower"]).to_numpy() / (2 * z)
    centre = (out["gap_upper"] + out["gap_lower"]).to_numpy() / 2
    np.testing.assert_allclose(centre, out["gap"].to_numpy(), atol=1e-12)
    expected = 2 * norm.sf(np.abs(out["gap"].to_numpy()) / se)
    np.testing.assert_allclose(out["p_value"].to_numpy(), expected, rtol=1e-9)


def test_the_se_of_a_mean_is_the_textbook_one() -> None:
    """Stratified bootstrap se of a mean, against the within-class variance formula."""
    out = DATA.roc.slices(
        metrics={"m": pl.col("score").mean()}, features="region", by="model", n_boot=2000
    )
    z = norm.ppf(0.975)
    for row in out.iter_rows(named=True):
        group = DATA.filter(pl.col("model") == row["model"])
        inside = _inside(group, row)
        variance = 0.0
        for frame in (group.filter(inside), group.filter(~inside)):
            n = frame.height
            for part in frame.partition_by("label"):
                k = part.height
                variance += k * part["score"].var(ddof=0) / n**2
        se = (row["gap_upper"] - row["gap_lower"]) / (2 * z)
        assert se == pytest.approx(variance**0.5, rel=0.1)


def test_p_adjusted_is_statsmodels_within_each_model_and_metric(out) -> None:
    for _, family in out.group_by("model", "metric"):
        expected = multipletests(family["p_value"].to_numpy(), method="fdr_bh")[1]
        np.testing.assert_allclose(family["p_adjusted"].to_numpy(), expected, rtol=1e-12)
    holm = DATA.roc.slices(metrics=CHEAP, adjust="holm", **KW)
    for _, family in holm.group_by("model", "metric"):
        expected = multipletests(family["p_value"].to_numpy(), method="holm")[1]
        np.testing.assert_allclose(family["p_adjusted"].to_numpy(), expected, rtol=1e-12)
    none = DATA.roc.slices(metrics=CHEAP, adjust=None, **KW)
    assert none["p_adjusted"].to_list() == none["p_value"].to_list()


def test_sorted_by_metric_as_given_then_gap(out) -> None:
    assert out["metric"].unique(maintain_order=True).to_list() == list(METRICS)
    for _, family in out.group_by("metric", maintain_order=True):
        gaps = family["gap"].drop_nulls()
        assert gaps.to_list() == sorted(gaps.to_list())


def test_lazy_eager_and_streaming_agree() -> None:
    eager = DATA.roc.slices(metrics=CHEAP, **KW)
    lazy = DATA.lazy().roc.slices(metrics=CHEAP, **KW)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), eager)
    assert_frame_equal(lazy.collect(engine="streaming"), eager)


def test_seed_and_n_boot() -> None:
    kw = {**KW, "features": "region", "metrics": {"m": pl.col("score").mean()}}
    one, again = DATA.roc.slices(seed=3, **kw), DATA.roc.slices(seed=3, **kw)
    assert_frame_equal(one, again)
    other = DATA.roc.slices(seed=4, **kw)
    assert_frame_equal(one.select("slice", "estimate"), other.select("slice", "estimate"))
    assert one["gap_lower"].to_list() != other["gap_lower"].to_list()
    assert DATA.roc.slices(seed=None, **kw).height == one.height
    with pytest.raises(ValueError, match="n_boot"):
        DATA.roc.slices(**{**kw, "n_boot": 0})
    with pytest.raises(ValueError, match="seed"):
        DATA.roc.slices(seed=-1, **kw)
    with pytest.raises(ValueError, match="level"):
        DATA.roc.slices(level=1.5, **kw)


def test_metrics_read_the_rows_as_given_whatever_the_direction() -> None:
    kw = {**KW, "features": "region", "metrics": {"m": pl.col("score").mean()}}
    higher, lower = DATA.roc.slices(**kw), DATA.roc.slices(direction="lower", **kw)
    assert_frame_equal(higher, lower)
    assert (higher["estimate"] > 0).all()
    with pytest.raises(ValueError, match="direction"):
        DATA.roc.slices(direction="up", **kw)


def test_a_weight_reaches_the_metrics_through_the_expressions() -> None:
    heavy = DATA.with_columns(w=(pl.col("case") % 3).cast(pl.Float64))
    metric = {"mean": (pl.col("score") * pl.col("w")).sum() / pl.col("w").sum()}
    out = heavy.roc.slices(metrics=metric, **{**KW, "features": "region"})
    for row in out.iter_rows(named=True):
        group = heavy.filter(pl.col("model") == row["model"])
        part = group.filter(_inside(group, row))
        expected = np.average(part["score"].to_numpy(), weights=part["w"].to_numpy())
        assert row["estimate"] == pytest.approx(expected, abs=1e-12)


def test_min_counts_filter_the_slices_as_without_metrics() -> None:
    kw = {**KW, "min_pos": 40, "min_neg": 200}
    plain = DATA.roc.slices(**{k: v for k, v in kw.items() if k != "n_boot"})
    metric = DATA.roc.slices(metrics={"m": pl.col("score").mean()}, **kw)
    key = ["model", "slice", "n_pos", "n_neg"]
    assert_frame_equal(plain.select(key).sort(key), metric.select(key).sort(key))


@pytest.mark.parametrize(
    ("metrics", "error", "match"),
    [
        ({"m": pl.col("nope").mean()}, ColumnNotFoundError, r"^metrics 'm' reads a column"),
        ({"m": pl.col("score")}, ValueError, r"^metrics 'm' must be a scalar numeric"),
        ({"m": pl.col("score").head(2)}, ValueError, r"^metrics 'm' must be a scalar numeric"),
        ({"m": pl.col("segment").first()}, ValueError, r"^metrics 'm' must be a scalar numeric"),
        ({}, ValueError, r"^metrics must be None"),
        ([pl.col("score").mean()], ValueError, r"^metrics must be None"),
        ({"m": "score"}, ValueError, r"^metrics must be None"),
    ],
)
def test_bad_metrics_are_one_line_errors_naming_the_argument(metrics, error, match) -> None:
    with pytest.raises(error, match=match) as caught:
        DATA.lazy().roc.slices(metrics=metrics, **KW)
    assert "\n" not in str(caught.value).split("\n\nHint:")[0]


def test_the_default_output_is_unchanged() -> None:
    out = DATA.roc.slices(features=FEATURES, by="model", min_pos=5, min_neg=5)
    assert out.columns == [
        "model", "slice", *FEATURES, "n_pos", "n_neg", "auc", "auc_rest", "gap", "gap_lower",
        "gap_upper", "p_value", "p_adjusted",
    ]  # fmt: skip


def test_the_chart_draws_one_metric_at_a_time() -> None:
    out = DATA.roc.slices(metrics=CHEAP, **{**KW, "features": "region", "n_boot": 20})
    with pytest.raises(ValueError, match=r"^slice_chart draws one metric at a time"):
        pr.charts.slice_chart(out)
    brier = out.filter(pl.col("metric") == "brier")
    spec = pr.charts.slice_chart(brier, top=3).to_dict()
    points = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "point")
    assert points["encoding"]["x"]["title"] == "brier of the slice minus brier of the rest"
    titles = {t["field"]: t.get("title") for t in points["encoding"]["tooltip"]}
    assert titles["auc"] == "brier"
    assert titles["auc_rest"] == "brier of the rest"
    gaps = {row["gap"] for row in spec["datasets"][next(iter(spec["datasets"]))]} - {0.0}
    assert gaps <= set(brier["gap"].to_list())
    assert len(gaps) == 3


@pytest.mark.parametrize(
    "metric",
    [
        pr.auc("score", "label"),
        pr.ks("score", "label"),
        pr.partial_auc("score", "label", fpr=(0.0, 0.2)),
        pr.recall_at_precision("score", "label", precision=0.7),
        pr.lift_at_depth("score", "label", depth=0.1),
        pr.calibration_slope("score", "label"),
        pr.expected_calibration_error("score", "label"),
        pl.len(),
        pl.col("label").mean(),
    ],
    ids=str,
)
def test_scalar_expressions_pass_the_call_time_check_quietly(metric: pl.Expr) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lazy = DATA.lazy().roc.slices(metrics={"m": metric}, **KW)  # checked, not run
    assert lazy.collect_schema().names()[-8:] == [
        "metric", "estimate", "estimate_rest", "gap", "gap_lower", "gap_upper", "p_value",
        "p_adjusted",
    ]  # fmt: skip


def test_a_slice_without_a_rest_is_null_as_on_the_auc_path() -> None:
    one = DATA.filter(pl.col("model") == "logit").with_columns(k=pl.lit("one"))
    kw = {"features": ["k", "segment"], "depth": 1}
    metric = one.roc.slices(metrics={"m": pl.col("score").mean()}, n_boot=20, **kw)
    auc = one.roc.slices(**kw)
    for out, value in ((metric, "estimate"), (auc, "auc")):
        whole = out.filter(pl.col("slice") == "k = one").row(0, named=True)
        assert whole[value] is not None
        assert [whole[c] for c in ("gap", "gap_lower", "p_value", "p_adjusted")] == [None] * 4
        assert out["slice"][-1] == "k = one"  # null gaps last
    expected = one["score"].mean()
    assert metric.filter(pl.col("slice") == "k = one")["estimate"].item() == pytest.approx(
        expected, abs=1e-12
    )
