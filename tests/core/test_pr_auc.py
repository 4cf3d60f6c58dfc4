"""pr_auc: the trapezoidal area under pr_curve() against scikit-learn's auc(recall, precision)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given
from sklearn.metrics import auc, precision_recall_curve

import polars_roc as pr
from tests.conftest import repeat_rows, scored_rows

WEIGHTED = pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])


@WEIGHTED
@given(frame=scored_rows(min_size=1, weighted=True))
@example(frame=pl.DataFrame({"score": [0.5, 0.5], "label": [True, False], "weight": [1.0, 2.0]}))
def test_matches_sklearn_auc_of_the_pr_curve(frame: pl.DataFrame, *, weighted: bool) -> None:
    labels = frame["label"].to_numpy()
    sw = frame["weight"].to_numpy() if weighted else None
    live = np.ones(len(labels), dtype=bool) if sw is None else sw > 0
    weight = "weight" if weighted else None
    expr = frame.select(pr.pr_auc("score", "label", weight=weight)).item()
    table = frame.roc.pr_auc(weight=weight)["pr_auc"].item()
    if not labels[live].any():
        assert expr is None
        assert table is None
        return
    precision, recall, _ = precision_recall_curve(labels, frame["score"], sample_weight=sw)
    expected = auc(recall, precision)
    assert expr == pytest.approx(expected, abs=1e-12)
    assert table == pytest.approx(expected, abs=1e-12)
    by_method = frame.select(pl.col("score").roc.pr_auc("label", weight=weight)).item()
    assert by_method == expr


@given(frame=scored_rows(min_size=1, groups=3))
def test_grouped_equals_one_group_at_a_time(frame: pl.DataFrame) -> None:
    grouped = frame.group_by("group").agg(pr.pr_auc("score", "label"))
    table = frame.roc.pr_auc(by="group")
    for (key,), part in frame.group_by("group"):
        alone = part.select(pr.pr_auc("score", "label")).item()
        assert grouped.filter(pl.col("group") == key)["pr_auc"].item() == alone
        mine = table.filter(pl.col("group") == key)["pr_auc"].item()
        assert mine == (None if alone is None else pytest.approx(alone, abs=1e-12))


@given(frame=scored_rows(min_size=1, weighted=True))
def test_weights_equal_repeated_rows(frame: pl.DataFrame) -> None:
    repeated = repeat_rows(frame)
    weighted = frame.select(pr.pr_auc("score", "label", weight="weight")).item()
    plain = repeated.select(pr.pr_auc("score", "label")).item()
    assert weighted == (None if plain is None else pytest.approx(plain, abs=1e-12))


def test_differs_from_average_precision_as_documented() -> None:
    frame = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})
    ap, area = frame.select(pr.average_precision("p", "y"), pr.pr_auc("p", "y")).row(0)
    assert ap == pytest.approx(0.5 + 0.5 * 2 / 3)
    assert area == pytest.approx(0.5 + 0.5 * (0.5 + 2 / 3) / 2)
    assert frame.select(pr.pr_auc("p", "y", direction="lower")).item() == pytest.approx(
        frame.select(pr.pr_auc(-pl.col("p"), "y")).item()
    )
