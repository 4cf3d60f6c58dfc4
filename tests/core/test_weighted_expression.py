"""The weighted AUC expression in every context, against exact brute force and scikit-learn."""

from __future__ import annotations

import math
from fractions import Fraction

import polars as pl
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

import polars_roc as pr

NAN = float("nan")
SCORES = [-0.0, 0.0, 0.25, 0.5, 1.0, None, NAN]  # ties, signed zeros, nulls, NaN
WEIGHTS = [0.0, 0.25, 0.5, 1.0, 2.0, 8.0, None]  # powers of two: every sum is exact
SCHEMA = {"g": pl.Int64, "score": pl.Float64, "label": pl.Boolean, "w": pl.Float64}
AUC = pr.auc("score", "label", weight="w")


def brute_force(rows: list[tuple[float | None, bool | None, float | None]]) -> float | None:
    """Pairwise weighted AUC in exact rationals (weights as frequencies, ties 1/2)."""
    kept = [(s, y, w) for s, y, w in rows if s is not None and y is not None and w]
    if any(math.isnan(s) for s, _, _ in kept):
        return None
    pos = [(s, Fraction(w)) for s, y, w in kept if y]
    neg = [(s, Fraction(w)) for s, y, w in kept if not y]
    n_pos, n_neg = sum(w for _, w in pos), sum(w for _, w in neg)
    if n_pos == 0 or n_neg == 0:
        return None
    u = sum(
        wp * wn * (1 if sp > sn else Fraction(1, 2) if sp == sn else 0)
        for sp, wp in pos
        for sn, wn in neg
    )
    return float(u / (n_pos * n_neg))  # correctly rounded, like an exact U over an exact total


@st.composite
def weighted_rows(draw: st.DrawFn) -> pl.DataFrame:
    """Rows of `g, score, label, w`, every weight times one power of two (2**-600 .. 2**600)."""
    n = draw(st.integers(0, 24))
    scale = 2.0 ** draw(st.sampled_from([-600, 0, 600]))
    return pl.DataFrame(
        {
            "g": draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)),
            "score": draw(st.lists(st.sampled_from(SCORES), min_size=n, max_size=n)),
            "label": draw(st.lists(st.sampled_from([True, False, None]), min_size=n, max_size=n)),
            "w": [
                None if w is None else w * scale
                for w in draw(st.lists(st.sampled_from(WEIGHTS), min_size=n, max_size=n))
            ],
        },
        schema=SCHEMA,
    )


def _frame(
    scores: list[float | None], labels: list[bool | None], w: list[float | None]
) -> pl.DataFrame:
    return pl.DataFrame({"g": [0] * len(scores), "score": scores, "label": labels, "w": w}, SCHEMA)


def _rows(frame: pl.DataFrame) -> list[tuple[float | None, bool | None, float | None]]:
    return list(zip(frame["score"], frame["label"], frame["w"], strict=True))


@given(frame=weighted_rows())
@example(frame=_frame([-0.0, 0.0], [True, False], [1.0, 2.0]))  # signed zeros tie -> 0.5
@example(frame=_frame([0.1, 0.9, 0.5], [True, False, False], [1.0, 2.0, 0.0]))  # zero weight
@example(frame=_frame([NAN, 0.2, 0.3], [True, False, True], [1.0, 1.0, None]))  # NaN -> null
@example(frame=_frame([], [], []))  # no rows -> null
def test_weighted_expression_is_exact_in_every_context(frame: pl.DataFrame) -> None:
    expected = brute_force(_rows(frame))
    assert frame.select(AUC).item() == expected
    for engine in ("in-memory", "streaming"):
        assert frame.lazy().select(AUC).collect(engine=engine).item() == expected
    per_group = {
        g: brute_force(_rows(part)) for (g,), part in frame.partition_by("g", as_dict=True).items()
    }
    for engine in ("in-memory", "streaming"):
        got = frame.lazy().group_by("g").agg(AUC).collect(engine=engine)
        assert dict(got.iter_rows()) == per_group
    over = frame.select("g", AUC.over("g"))
    assert all(per_group[g] == auc for g, auc in over.iter_rows())


@given(
    data=st.lists(
        st.tuples(
            st.floats(-1e3, 1e3, allow_nan=False),
            st.booleans(),
            st.floats(1e-3, 1e3),
            st.integers(0, 1),
        ),
        min_size=2,
        max_size=60,
    )
)
def test_weighted_expression_matches_sklearn(data: list[tuple[float, bool, float, int]]) -> None:
    frame = pl.DataFrame(data, schema=["score", "label", "w", "g"], orient="row")
    parts = [(None, frame), *((g, frame.filter(pl.col("g") == g)) for g in frame["g"].unique())]
    got = dict(frame.group_by("g").agg(AUC).iter_rows())
    got[None] = frame.select(AUC).item()
    for g, part in parts:
        labels = part["label"].to_numpy()
        if labels.all() or not labels.any():
            assert got[g] is None
            continue
        weights = part["w"].to_numpy()
        expected = roc_auc_score(labels, part["score"].to_numpy(), sample_weight=weights)
        assert got[g] == pytest.approx(expected, abs=1e-12)
