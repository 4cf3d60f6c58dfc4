"""`df.roc.slices`: every slice of one or two features against the rest of its group."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from polars.exceptions import ColumnNotFoundError
from polars.testing import assert_frame_equal
from sklearn.metrics import roc_auc_score
from statsmodels.stats.multitest import multipletests

import polars_roc as pr

SIM = pr.datasets.simulate(50_000, seed=5).filter(pl.col("model") == "logit")
TOP = pl.col("weight") >= pl.col("weight").quantile(0.75, interpolation="linear")
PLANT = (pl.col("segment") == "west") & TOP
#: Scores shuffled across the planted slice's rows: there the model ranks at random.
PLANTED = SIM.with_columns(
    score=pl.when(PLANT).then(pl.col("score").shuffle(seed=1).over(PLANT)).otherwise("score")
)
SMALL = (
    pr.datasets.simulate(3000, seed=7)
    .with_columns(
        channel=pl.col("case") % 3,  # numeric with fewer distinct values than bins: as is
        region=pl.when(pl.col("case") % 11 == 0).then(None).otherwise(pl.col("segment")),
    )
    .filter(pl.col("model") != "baseline")
)


def test_the_planted_slice_ranks_first() -> None:
    out = PLANTED.roc.slices(features=["segment", "weight"])
    first = out.row(0, named=True)
    edge = SIM.select(pl.col("weight").quantile(0.75, interpolation="linear")).item()
    assert first["slice"] == f"segment = west & weight = [{edge}, inf)"
    assert first["segment"] == "west"
    assert abs(first["auc"] - 0.5) < 0.06
    assert first["p_adjusted"] < 1e-6
    unplanted = SIM.roc.slices(features=["segment", "weight"])
    assert unplanted.row(0, named=True)["slice"] != first["slice"]


def _rows_of(frame: pl.DataFrame, row: dict, features: list[str], bands: dict) -> pl.Series:
    """Which rows of `frame` the output row's slice holds, read from its feature columns."""
    keep = pl.repeat(True, frame.height, eager=True)
    for feature in features:
        value = row[feature]
        if value is None:
            continue
        column = frame[feature]
        if feature in bands:
            lo, hi = (float(v) for v in value.strip("[)").split(", "))
            keep &= (column >= lo) & (column < hi)
        elif value == "null":
            keep &= column.is_null()
        else:
            keep &= column.cast(pl.String) == value
    return keep.fill_null(value=False)


def test_every_auc_equals_scikit_learn_on_the_slice_and_the_rest() -> None:
    features = ["region", "weight", "channel"]
    out = SMALL.roc.slices(features=features, by="model", min_pos=5, min_neg=5)
    assert out.height > 30
    edges = set(np.quantile(SMALL["weight"].to_numpy(), [0.25, 0.5, 0.75]).tolist())
    shown = {float(e) for v in out["weight"].drop_nulls() for e in v.strip("[)").split(", ")}
    assert shown - {float("inf"), float("-inf")} == edges
    for row in out.iter_rows(named=True):
        group = SMALL.filter(pl.col("model") == row["model"])
        inside = _rows_of(group, row, features, bands={"weight"})
        part, rest = group.filter(inside), group.filter(~inside)
        assert (row["n_pos"], row["n_neg"]) == (part["label"].sum(), (~part["label"]).sum())
        assert row["auc"] == pytest.approx(roc_auc_score(part["label"], part["score"]), abs=1e-12)
        expected_rest = roc_auc_score(rest["label"], rest["score"])
        assert row["auc_rest"] == pytest.approx(expected_rest, abs=1e-12)
        assert row["gap"] == pytest.approx(row["auc"] - row["auc_rest"], abs=1e-15)
        assert row["gap_lower"] <= row["gap"] <= row["gap_upper"]
        assert min(row["n_pos"], row["n_neg"]) >= 5


@pytest.mark.parametrize("adjust", ["fdr_bh", "bh", "holm", "bonferroni"])
def test_p_adjusted_equals_statsmodels_within_each_group(adjust: str) -> None:
    out = SMALL.roc.slices(features=["region", "channel"], by="model", adjust=adjust, min_pos=5)
    method = "fdr_bh" if adjust == "bh" else adjust
    for model in ("logit", "gbm"):
        part = out.filter(pl.col("model") == model)
        expected = multipletests(part["p_value"].to_numpy(), method=method)[1]
        np.testing.assert_allclose(part["p_adjusted"].to_numpy(), expected, rtol=1e-12)
    unadjusted = SMALL.roc.slices(features=["region"], by="model", adjust=None, depth=1)
    assert unadjusted["p_adjusted"].to_list() == unadjusted["p_value"].to_list()


def test_a_single_feature_is_disparitys_delong_test() -> None:
    out = SMALL.roc.slices(features=["region"], depth=1, by="model", adjust="holm")
    disparity = SMALL.filter(pl.col("region").is_not_null()).roc.disparity(segment="region")
    assert out.height == 2 * 5  # four regions and null, per model
    got = out.filter(pl.col("region") != "null").sort("model", "region")
    expected = SMALL.roc.disparity(segment="region", by="model").drop_nulls("segment")
    expected = expected.sort("model", "segment")
    np.testing.assert_allclose(got["p_value"], expected["p_value"], rtol=1e-12)
    np.testing.assert_allclose(got["gap"], expected["diff"], rtol=1e-12)
    assert disparity.height == 4


def test_lazy_equals_eager_equals_streaming() -> None:
    kwargs = {"features": ["region", "weight"], "by": "model", "min_pos": 5}
    eager = SMALL.roc.slices(**kwargs)
    lazy = SMALL.lazy().roc.slices(**kwargs)
    assert isinstance(lazy, pl.LazyFrame)
    assert_frame_equal(lazy.collect(), eager)
    assert_frame_equal(lazy.collect(engine="streaming"), eager)


def test_features_and_by_take_expressions() -> None:
    band = (pl.col("weight") > 1).alias("heavy")
    got = SMALL.roc.slices(features=[band, "region"], by=pl.col("model"), min_pos=5)
    expected = SMALL.with_columns(band).roc.slices(
        features=["heavy", "region"], by="model", min_pos=5
    )
    assert_frame_equal(got, expected)
    assert set(got["heavy"].drop_nulls()) == {"true", "false"}


def test_columns_and_order() -> None:
    out = SMALL.roc.slices(features=["region", "channel"], by="model", min_pos=5)
    assert out.columns[:4] == ["model", "slice", "region", "channel"]
    assert out.columns[4:] == ["n_pos", "n_neg", "auc", "auc_rest", "gap", "gap_lower",
                               "gap_upper", "p_value", "p_adjusted"]  # fmt: skip
    gaps = out["gap"].drop_nulls().to_list()
    assert gaps == sorted(gaps)
    single = out.filter(pl.col("slice") == "channel = 1")
    assert single["region"].to_list() == [None, None]
    assert out.filter(pl.col("slice") == "region = null").height == 2


def test_weights_equal_repeated_rows() -> None:
    weighted = SMALL.with_columns(w=(pl.col("case") % 3 + 1).cast(pl.Int64))
    repeated = weighted.select(pl.all().repeat_by("w").explode()).drop("w")
    a = weighted.roc.slices(features=["region"], depth=1, by="model", weight="w", min_pos=5)
    b = repeated.roc.slices(features=["region"], depth=1, by="model", min_pos=5)
    np.testing.assert_allclose(a["auc"], b["auc"], rtol=1e-12)
    np.testing.assert_allclose(a["auc_rest"], b["auc_rest"], rtol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"features": ["nope"]}, ColumnNotFoundError, "features column 'nope' not found"),
        ({"features": ["segment"], "depth": 3}, ValueError, "depth must be 1 or 2"),
        ({"features": ["segment"], "depth": 0}, ValueError, "depth must be 1 or 2"),
        ({"features": ["segment"], "bins": 1}, ValueError, "bins must be at least 2"),
        ({"features": ["score"]}, ValueError, "features column 'score' is already the score"),
        ({"features": ["label"]}, ValueError, "features column 'label' is already the label"),
        ({"features": ["model"], "by": "model"}, ValueError, "already the by column"),
        ({"features": []}, ValueError, "features must be"),
        ({"features": ["segment"], "adjust": "fdr"}, ValueError, "adjust must be"),
        ({"features": ["segment"], "min_pos": 0}, ValueError, "min_pos must be at least 1"),
    ],
)
def test_bad_input_gives_one_line_naming_the_argument(
    kwargs: dict, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match) as info:
        SMALL.lazy().roc.slices(**kwargs)
    assert "\n" not in str(info.value).split("\n\nHint")[0]


def test_tied_scores_give_the_copied_rests_numbers() -> None:
    # The rest's sums come from the group's and the slice's counts tables (unweighted);
    # weighted slices copy the rest's rows and run disparity's DeLong: unit weights agree.
    tied = SMALL.with_columns(pl.col("score").round(1), one=pl.lit(1.0))
    kwargs = {"features": ["region", "weight"], "by": "model", "min_pos": 3, "min_neg": 3}
    fast = tied.roc.slices(**kwargs)
    copied = tied.roc.slices(**kwargs, weight="one")
    assert fast.height == copied.height > 40
    for column in ("auc", "auc_rest", "gap", "gap_lower", "gap_upper", "p_value", "p_adjusted"):
        np.testing.assert_allclose(fast[column], copied[column], rtol=1e-9, atol=1e-12)
