"""Hypothesis campaign at the edges: group columns named like our columns, extreme weights,
integer scores beyond 2**53, against the brute-force pairwise oracle and scikit-learn."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score

import polars_roc as pr
from tests.conftest import pairwise_auc

#: Output-like and internal-like names a user's group column might carry.
GROUP_NAMES = [
    "g", "tpr", "fpr", "tn", "fn", "tp", "fp", "auc", "n_pos", "n_neg", "threshold",
    "precision", "recall", "_d", "_positives", "_negatives", "_positive", "_weight", "_s",
    "_y", "_w", "_gid", "_step", "average_precision", "__roc_by0",
]  # fmt: skip
SCALES = [1.0, 1e154, 1e200, 1e300, 1e-163, 1e-200, 1e-300]


@st.composite
def edge_frames(draw: st.DrawFn) -> tuple[pl.DataFrame, str]:
    n = draw(st.integers(2, 24))
    name = draw(st.sampled_from(GROUP_NAMES))
    big = draw(st.booleans())
    if big:  # integers beyond 2**53: distinct in Int64, ties in Float64
        scores: Any = [2**60 + d for d in draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))]
    else:
        scores = draw(st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0]), min_size=n, max_size=n))
    scale = draw(st.sampled_from(SCALES))
    base = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    frame = pl.DataFrame(
        {
            name: draw(st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n)),
            "score": scores,
            "label": draw(st.lists(st.booleans(), min_size=n, max_size=n)),
            "base": [float(b) for b in base],
            "w": [b * scale for b in base],
        }
    )
    return frame, name


@settings(max_examples=60)
@given(edge_frames())
def test_auc_per_group_matches_the_pairwise_oracle(case: tuple[pl.DataFrame, str]) -> None:
    frame, name = case
    outputs = {"auc", "n_pos", "n_neg"}
    if name in outputs:
        with pytest.raises(ValueError, match=f"output column {name!r}"):
            frame.roc.auc(by=name, weight="w")
        return
    got = frame.roc.auc(by=name, weight="w")
    plain = frame.roc.auc(by=name)
    for group, part in frame.group_by(name):
        labels = part["label"].to_numpy()
        scores = [int(s) if isinstance(s, int) else s for s in part["score"].to_list()]
        exact = [(s - min(scores)) for s in scores]  # exact differences, small in Float64
        want_w = pairwise_auc(labels, exact, part["base"].to_numpy())
        want = pairwise_auc(labels, exact)
        row = got.filter(pl.col(name) == group[0])
        row_plain = plain.filter(pl.col(name) == group[0])
        expr = part.select(pr.auc("score", "label", weight="w")).item()
        if want is None:
            assert row["auc"].item() is None
            assert expr is None
        else:
            assert row["auc"].item() == pytest.approx(want_w, rel=1e-9)
            assert expr == pytest.approx(want_w, rel=1e-9)
            assert row_plain["auc"].item() == pytest.approx(want, rel=1e-12)


@settings(max_examples=40)
@given(edge_frames())
def test_curve_and_precision_per_group_match_brute_force(case: tuple[pl.DataFrame, str]) -> None:
    frame, name = case
    curve_outputs = {"threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"}
    if name in curve_outputs:
        with pytest.raises(ValueError, match=f"output column {name!r}"):
            frame.roc.curve(by=name)
        return
    curve = frame.roc.curve(by=name, weight="w")
    ap = frame.roc.average_precision(by=name, weight="w") if name not in (
        "average_precision", "n_pos", "n_neg"
    ) else None  # fmt: skip
    for group, part in frame.group_by(name):
        labels = part["label"].to_numpy()
        scores = np.array([s - min(part["score"]) for s in part["score"].to_list()])
        weights = part["base"].to_numpy()
        rows = curve.filter(pl.col(name) == group[0])
        # each distinct score once, plus the start row: integer scores never merge
        assert rows.height == len(set(part["score"].to_list())) + 1
        last = rows.row(-1, named=True)
        if labels.any() and (~labels).any():
            assert last["tpr"] == pytest.approx(1.0)
            assert last["fpr"] == pytest.approx(1.0)
        if ap is not None and labels.any():
            want = average_precision_score(labels, scores, sample_weight=weights)
            got = ap.filter(pl.col(name) == group[0])["average_precision"].item()
            assert got == pytest.approx(want, rel=1e-9)
