"""disparity: two segments against the rest are one test; metrics read the score as given."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import roc_auc_score
from statsmodels.stats.multitest import multipletests

import polars_roc as pr

ROWS = pr.datasets.simulate(1_500, seed=11).with_columns(
    sex=pl.when(pl.int_range(pl.len()) % 3 == 0).then(pl.lit("F")).otherwise(pl.lit("M"))
)


def test_two_segments_against_the_rest_are_one_comparison() -> None:
    out = ROWS.roc.disparity(segment="sex", by="model")
    for model in ROWS["model"].unique():
        rows = out.filter(pl.col("model") == model)
        # "F against the rest" is "F against M": the same p-value twice ...
        assert rows["p_value"][0] == pytest.approx(rows["p_value"][1], rel=1e-12)
        # ... adjusted as one test, not Holm over two (which would double it)
        assert rows["p_adjusted"].to_list() == rows["p_value"].to_list()


def test_two_segments_against_the_whole_keep_the_adjustment() -> None:
    out = ROWS.roc.disparity(segment="sex", by="model", reference="overall")
    for model in ROWS["model"].unique():
        rows = out.filter(pl.col("model") == model)
        want = multipletests(rows["p_value"].to_numpy(), method="holm")[1]
        np.testing.assert_allclose(rows["p_adjusted"].to_numpy(), want, rtol=1e-12)


def test_three_segments_against_the_rest_keep_holm() -> None:
    out = ROWS.roc.disparity(segment="segment", by="model")
    for model in ROWS["model"].unique():
        rows = out.filter(pl.col("model") == model)
        assert rows.height == 4
        want = multipletests(rows["p_value"].to_numpy(), method="holm")[1]
        np.testing.assert_allclose(rows["p_adjusted"].to_numpy(), want, rtol=1e-12)


def test_metrics_read_the_score_as_given_under_direction_lower() -> None:
    rows = ROWS.filter(pl.col("model") == "logit")
    metrics = {"mean_score": pl.col("score").mean()}
    out = rows.roc.disparity(segment="sex", metrics=metrics, direction="lower", n_boot=50)
    for segment, estimate in out.select("segment", "estimate").iter_rows():
        assert estimate == pytest.approx(rows.filter(pl.col("sex") == segment)["score"].mean())


def test_the_auc_reads_the_score_in_its_direction() -> None:
    rows = ROWS.filter(pl.col("model") == "logit")
    out = rows.roc.disparity(segment="sex", direction="lower")
    for segment, estimate in out.select("segment", "estimate").iter_rows():
        part = rows.filter(pl.col("sex") == segment)
        want = roc_auc_score(part["label"].to_numpy(), -part["score"].to_numpy())
        assert estimate == pytest.approx(want, abs=1e-12)


def test_a_bad_direction_is_refused() -> None:
    with pytest.raises(ValueError, match="direction must be 'higher' or 'lower'"):
        ROWS.roc.disparity(segment="sex", direction="up")
