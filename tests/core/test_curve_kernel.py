"""The undecorated curve kernel internal code calls (`_core.counts.roc_points`), against
scikit-learn per group, with weights, and equal to the public `curve()` it backs."""

from __future__ import annotations

import numpy as np
import polars as pl
from hypothesis import given
from polars.testing import assert_frame_equal
from sklearn.metrics import roc_curve

import polars_roc as pr
from polars_roc._core.counts import counted, roc_points
from tests.conftest import scored_rows


@given(frame=scored_rows(min_size=2, max_size=60, weighted=True, groups=3))
def test_kernel_is_sklearn_per_group_with_weights(frame: pl.DataFrame) -> None:
    got = roc_points(
        frame.lazy(), "score", "label", by=["group"], weight="weight", pos_label=None
    ).collect()
    assert got.columns == ["group", "threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"]
    for (group,), part in frame.group_by("group"):
        mine = got.filter(pl.col("group") == group)
        assert mine.row(0)[1:4] == (float("inf"), 0.0, 0.0)
        part = part.filter(pl.col("weight") > 0)  # zero weights drop the row
        if part.is_empty() or part["label"].all() or not part["label"].any():
            continue
        fpr, tpr, thresholds = roc_curve(
            part["label"], part["score"], sample_weight=part["weight"], drop_intermediate=False
        )
        np.testing.assert_array_equal(mine["threshold"], thresholds)
        np.testing.assert_allclose(mine["tpr"], tpr, rtol=1e-12)
        np.testing.assert_allclose(mine["fpr"], fpr, rtol=1e-12)


def test_kernels_are_the_public_functions_on_prepared_rows() -> None:
    rng = np.random.default_rng(1)
    frame = pl.DataFrame(
        {
            "score": np.round(rng.normal(size=200), 1),
            "label": rng.choice(["yes", "no"], 200),
            "g": rng.integers(0, 3, 200),
        }
    )
    roles = {"by": ["g"], "weight": None, "pos_label": "yes"}
    kernel = roc_points(frame.lazy(), "score", "label", **roles).collect()
    assert_frame_equal(kernel, frame.roc.curve("score", "label", **roles))
    table = counted(frame.lazy(), "score", "label", **roles).collect()
    assert_frame_equal(table, pr.curves.counts(frame, "score", "label", **roles))
