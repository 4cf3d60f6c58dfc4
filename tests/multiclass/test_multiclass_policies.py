"""Multiclass `nan_policy` and `direction` against brute force and scikit-learn."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import polars as pl
import polars.selectors as cs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.preprocessing import label_binarize

import polars_roc as pr
from tests.conftest import pairwise_auc

CLASSES = ["a", "b", "c"]
NAN = float("nan")
POOL = [0.0, 0.25, 0.5, 0.75, 1.0]
RAISED = r"holds (at least )?\d+ NaN value\(s\) and nan_policy='raise'"


@st.composite
def rows_with_nan(draw: st.DrawFn, *, groups: int = 1) -> pl.DataFrame:
    """Three score columns drawn from a small pool with NaN and null; some null labels."""
    n = draw(st.integers(0, 20))
    value = st.sampled_from([*POOL, NAN, None]) if draw(st.booleans()) else st.sampled_from(POOL)
    column = st.lists(value, min_size=n, max_size=n)
    label = st.sampled_from([*CLASSES, None])
    return pl.DataFrame(
        {
            "y": draw(st.lists(label, min_size=n, max_size=n)),
            "g": draw(st.lists(st.integers(0, groups - 1), min_size=n, max_size=n)),
            **{c: draw(column) for c in CLASSES},
        },
        schema={"y": pl.String, "g": pl.Int64, **dict.fromkeys(CLASSES, pl.Float64)},
    )


# ---------------------------------------------------------------------------------------
# Oracles: the definition of each policy, by brute force
# ---------------------------------------------------------------------------------------


def counted(frame: pl.DataFrame, policy: str) -> tuple[np.ndarray, np.ndarray]:
    """Labels and the (n, 3) scores of the cases that count under `policy`."""
    y = np.array(frame["y"].to_list(), dtype=object)
    P = frame.select(CLASSES).to_numpy().astype(float)  # null -> NaN here: use the masks
    null = frame.select(pl.any_horizontal(pl.col(CLASSES).is_null())).to_series().to_numpy()
    keep = (y != None) & ~null  # noqa: E711
    if policy == "omit":
        keep &= ~np.isnan(P).any(axis=1)
    return y[keep], P[keep]


def ovr_oracle(frame: pl.DataFrame, policy: str) -> list[float | None]:
    """Per class: the brute-force AUC, None where a counted case has NaN in its column."""
    y, P = counted(frame, policy)
    out = []
    for i, c in enumerate(CLASSES):
        out.append(None if np.isnan(P[:, i]).any() else pairwise_auc(y == c, P[:, i]))
    return out


def ovo_oracle(frame: pl.DataFrame, policy: str) -> list[float | None]:
    """Per pair (Hand & Till): None where a case of the pair has NaN in a column it reads."""
    y, P = counted(frame, policy)
    out = []
    for (i, a), (j, b) in combinations(enumerate(CLASSES), 2):
        inside = (y == a) | (y == b)
        if np.isnan(P[inside][:, [i, j]]).any():
            out.append(None)
            continue
        a_b = pairwise_auc(y[inside] == a, P[inside, i])
        b_a = pairwise_auc(y[inside] == b, P[inside, j])
        out.append(None if a_b is None or b_a is None else (a_b + b_a) / 2)
    return out


def macro(values: list[float | None], present: list[bool]) -> float | None:
    """Mean over the present classes or pairs; None if one of them is None or none is."""
    kept = [v for v, p in zip(values, present, strict=True) if p]
    if not kept or any(v is None for v in kept):
        return None
    return float(np.mean(kept))  # type: ignore[arg-type]


def rounded(frame: pl.DataFrame) -> pl.DataFrame:
    """Floats rounded (a parallel mean may differ in its last bit run to run), rows sorted."""
    return frame.with_columns(cs.float().round(12)).sort(pl.all())


def approx(expected: float | None) -> object:
    return None if expected is None else pytest.approx(expected)


# ---------------------------------------------------------------------------------------
# nan_policy
# ---------------------------------------------------------------------------------------


@settings(max_examples=40)
@given(frame=rows_with_nan(), policy=st.sampled_from(["propagate", "omit"]))
def test_nan_policy_per_class_and_pair_equal_brute_force(frame: pl.DataFrame, policy: str) -> None:
    per_class = frame.roc.multiclass_auc(CLASSES, "y", average=None, nan_policy=policy)
    expected = ovr_oracle(frame, policy)
    assert per_class["auc"].to_list() == [approx(v) for v in expected]
    y, _ = counted(frame, policy)
    assert per_class["n_pos"].to_list() == [int((y == c).sum()) for c in CLASSES]
    present = [bool((y == c).any()) for c in CLASSES]
    want = macro(expected, present)
    got = frame.roc.multiclass_auc(CLASSES, "y", nan_policy=policy)["auc"].item()
    assert got == approx(want)
    expr = frame.select(pr.multiclass_auc(CLASSES, "y", nan_policy=policy)).item()
    assert expr == approx(want)

    pairs = frame.roc.multiclass_auc(CLASSES, "y", method="ovo", average=None, nan_policy=policy)
    expected_pairs = ovo_oracle(frame, policy)
    assert pairs["auc"].to_list() == [approx(v) for v in expected_pairs]
    both = [present[i] and present[j] for i, j in combinations(range(3), 2)]
    want_ovo = macro(expected_pairs, both)
    got_ovo = frame.roc.multiclass_auc(CLASSES, "y", method="ovo", nan_policy=policy)
    assert got_ovo["auc"].item() == approx(want_ovo)
    expr_ovo = pr.multiclass_auc(CLASSES, "y", method="ovo", nan_policy=policy)
    assert frame.select(expr_ovo).item() == approx(want_ovo)


@settings(max_examples=30)
@given(frame=rows_with_nan(), policy=st.sampled_from(["propagate", "omit"]))
def test_nan_policy_micro_equals_brute_force(frame: pl.DataFrame, policy: str) -> None:
    y, P = counted(frame, policy)
    present = [k for k, c in enumerate(CLASSES) if (y == c).any()]  # absent classes skipped
    truth = np.stack([y == CLASSES[k] for k in present], axis=1).ravel() if present else []
    pooled = P[:, present].ravel()
    want = None if np.isnan(pooled).any() else pairwise_auc(truth, pooled)
    got = frame.roc.multiclass_auc(CLASSES, "y", average="micro", nan_policy=policy)
    assert got["auc"].item() == approx(want)
    expr = pr.multiclass_auc(CLASSES, "y", average="micro", nan_policy=policy)
    assert frame.select(expr).item() == approx(want)


@settings(max_examples=30)
@given(frame=rows_with_nan(), policy=st.sampled_from(["propagate", "omit"]))
def test_nan_policy_single_score_pairs_equal_brute_force(frame: pl.DataFrame, policy: str) -> None:
    y, P = counted(frame.select("y", "g", *[pl.col("a").alias(c) for c in CLASSES]), policy)
    s = P[:, 0]
    expected = {}
    for a, b in combinations(CLASSES, 2):
        inside = (y == a) | (y == b)
        if not ((y == a).any() and (y == b).any()):
            continue
        nan = np.isnan(s[inside]).any()
        expected[(a, b)] = None if nan else pairwise_auc(y[inside] == b, s[inside])
    got = frame.roc.multiclass_auc("a", "y", average=None, nan_policy=policy)
    assert {(a, b): v for a, b, v in got.select("class_a", "class_b", "auc").rows()} == {
        k: approx(v) for k, v in expected.items()
    }
    values = list(expected.values())
    want = None if not values or None in values else float(np.mean(values))  # type: ignore[arg-type]
    assert frame.roc.multiclass_auc("a", "y", nan_policy=policy)["auc"].item() == approx(want)
    expr = pr.multiclass_auc("a", "y", classes=CLASSES, nan_policy=policy)
    assert frame.select(expr).item() == approx(want)


@settings(max_examples=25)
@given(frame=rows_with_nan(groups=2))
def test_nan_policy_raise_refuses_any_nan_else_equals_propagate(frame: pl.DataFrame) -> None:
    calls = [
        (CLASSES, lambda p: frame.roc.multiclass_auc(CLASSES, "y", by="g", nan_policy=p)),
        (CLASSES, lambda p: frame.roc.multiclass_auc(CLASSES, "y", method="ovo", nan_policy=p)),
        (["b"], lambda p: frame.roc.multiclass_auc("b", "y", nan_policy=p)),
        (CLASSES, lambda p: frame.roc.multiclass_curve(CLASSES, "y", nan_policy=p)),
        (CLASSES, lambda p: frame.group_by("g").agg(pr.multiclass_auc(CLASSES, "y", nan_policy=p))),
    ]
    for columns, call in calls:
        if frame.select(pl.any_horizontal(pl.col(columns).is_nan()).any()).item():
            with pytest.raises(ValueError, match=RAISED):
                call("raise")
        else:
            assert rounded(call("raise")).equals(rounded(call("propagate")))


@settings(max_examples=25)
@given(frame=rows_with_nan(groups=2))
def test_nan_policy_omit_equals_dropping_the_cases(frame: pl.DataFrame) -> None:
    dropped = frame.filter(~pl.any_horizontal(pl.col(CLASSES).is_nan()))
    omitted = frame.roc.multiclass_curve(CLASSES, "y", by="g", nan_policy="omit")
    plain = dropped.roc.multiclass_curve(CLASSES, "y", by="g")
    groups = plain["g"].unique().to_list()
    assert rounded(omitted.filter(pl.col("g").is_in(groups))).equals(rounded(plain))
    for kwargs in [{"average": None}, {"method": "ovo", "average": None}, {"average": "micro"}]:
        got = frame.roc.multiclass_auc(CLASSES, "y", by="g", nan_policy="omit", **kwargs)
        want = dropped.roc.multiclass_auc(CLASSES, "y", by="g", **kwargs)
        present = pl.col("g").is_in(want["g"].unique().to_list())
        assert rounded(got.filter(present)).equals(rounded(want))


def test_nan_policy_propagate_nulls_only_what_reads_the_nan() -> None:
    frame = pl.DataFrame(
        {
            "y": ["a", "a", "b", "b", "c", "c"],
            "a": [0.8, 0.5, 0.1, 0.3, 0.2, 0.1],
            "b": [0.1, 0.3, 0.7, 0.4, 0.2, 0.5],
            "c": [0.1, NAN, 0.2, 0.3, 0.6, 0.4],  # in a case of class a
        }
    )
    per_class = frame.roc.multiclass_auc(CLASSES, "y", average=None)
    assert per_class["auc"].to_list() == [1.0, 0.875, None]
    pairs = frame.roc.multiclass_auc(CLASSES, "y", method="ovo", average=None)
    assert pairs["auc"].to_list() == [1.0, None, 0.875]  # (a, c) reads column c on a's cases
    curves = frame.roc.multiclass_curve(CLASSES, "y")
    nulls = curves.group_by("class", maintain_order=True).agg(pl.col("tpr").is_null().all())
    assert nulls["tpr"].to_list() == [False, False, True, True, True]


def test_bad_nan_policy_is_an_error() -> None:
    frame = pl.DataFrame({"y": ["a", "b"], "a": [0.1, 0.2], "b": [0.9, 0.8], "c": [0.0, 0.0]})
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        frame.roc.multiclass_auc(CLASSES, "y", nan_policy="drop")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        pr.multiclass_auc(CLASSES, "y", nan_policy="drop")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nan_policy must be one of"):
        frame.roc.multiclass_curve(CLASSES, "y", nan_policy="drop")  # type: ignore[arg-type]


def test_null_score_skips_the_case_for_every_pair() -> None:
    frame = pl.DataFrame(
        {
            "y": ["a", "a", "b", "b", "c", "c"],
            "a": [0.8, 0.5, 0.1, 0.3, 0.2, 0.1],
            "b": [0.1, 0.3, 0.7, 0.4, 0.2, 0.5],
            "c": [0.1, None, 0.2, 0.3, 0.6, 0.4],
        }
    )
    pairs = frame.roc.multiclass_auc(CLASSES, "y", method="ovo", average=None)
    assert pairs.select("class_a", "class_b", "n_a", "n_b").rows() == [
        ("a", "b", 1, 2),
        ("a", "c", 1, 2),
        ("b", "c", 2, 2),
    ]
    assert pairs["auc"].to_list() == ovo_oracle(frame, "propagate")


# ---------------------------------------------------------------------------------------
# direction on the wide form: scikit-learn on order-reversed scores
# ---------------------------------------------------------------------------------------


@st.composite
def probabilities(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Labels (all three classes present) and rows of class probabilities, with ties."""
    n = draw(st.integers(3, 25))
    y = np.array(CLASSES + draw(st.lists(st.sampled_from(CLASSES), min_size=n - 3, max_size=n - 3)))
    raw = draw(st.lists(st.sampled_from([1, 2, 3, 4]), min_size=3 * n, max_size=3 * n))
    P = np.array(raw, dtype=float).reshape(n, 3)
    return y, P / P.sum(axis=1, keepdims=True)


@settings(max_examples=30)
@given(data=probabilities(), weighted=st.booleans())
def test_direction_lower_equals_scikit_learn_on_reversed_scores(
    data: tuple[np.ndarray, np.ndarray], weighted: bool
) -> None:
    y, P = data
    frame = pl.DataFrame({"y": y, **{c: P[:, i] for i, c in enumerate(CLASSES)}})
    # (1 - P) / (k - 1) reverses every column's order and still sums to 1 per row, as
    # scikit-learn's multi_class scoring insists; -P is the multilabel (one-vs-rest) view.
    reversed_p = (1 - P) / 2
    Y = label_binarize(y, classes=CLASSES)
    average = "weighted" if weighted else "macro"
    cases = [
        ({"average": average}, roc_auc_score(y, reversed_p, multi_class="ovr", average=average)),
        ({"average": average}, roc_auc_score(Y, -P, average=average)),
        ({"average": "micro"}, roc_auc_score(Y, -P, average="micro")),
        (
            {"method": "ovo", "average": average},
            roc_auc_score(y, reversed_p, multi_class="ovo", average=average),
        ),
    ]
    for kwargs, expected in cases:
        got = frame.roc.multiclass_auc(CLASSES, "y", direction="lower", **kwargs)
        assert got["auc"].item() == pytest.approx(expected)
        expr = pr.multiclass_auc(CLASSES, "y", direction="lower", **kwargs)  # type: ignore[arg-type]
        assert frame.select(expr).item() == pytest.approx(expected)
    per_class = frame.roc.multiclass_auc(CLASSES, "y", direction="lower", average=None)
    expected_per_class = roc_auc_score(Y, -P, average=None)
    np.testing.assert_allclose(per_class["auc"].to_numpy(), expected_per_class)


def test_direction_lower_curves_equal_scikit_learn_on_negated_scores() -> None:
    rng = np.random.default_rng(3)
    y = rng.choice(CLASSES, 60)
    P = rng.integers(0, 6, (60, 3)) / 5
    frame = pl.DataFrame({"y": y, **{c: P[:, i] for i, c in enumerate(CLASSES)}})
    curves = frame.roc.multiclass_curve(CLASSES, "y", direction="lower")
    Y = label_binarize(y, classes=CLASSES)
    for i, c in enumerate(CLASSES):
        fpr, tpr, thresholds = roc_curve(Y[:, i], -P[:, i], drop_intermediate=False)
        got = curves.filter(pl.col("class") == c)
        np.testing.assert_allclose(got["fpr"], fpr)
        np.testing.assert_allclose(got["tpr"], tpr)
        np.testing.assert_allclose(got["threshold"], -thresholds)  # in score units
    micro = curves.filter(pl.col("class") == "micro")
    fpr, tpr, _ = roc_curve(Y.ravel(), -P.ravel(), drop_intermediate=False)
    np.testing.assert_allclose(micro["fpr"], fpr)
    np.testing.assert_allclose(micro["tpr"], tpr)


def test_direction_on_the_wide_form_is_never_guessed() -> None:
    frame = pl.DataFrame({"y": ["a", "b"], "a": [0.1, 0.2], "b": [0.9, 0.8], "c": [0.0, 0.0]})
    with pytest.raises(ValueError, match="direction='auto' picks a direction per pair"):
        frame.roc.multiclass_auc(CLASSES, "y", direction="auto")
    with pytest.raises(ValueError, match="direction must be 'higher' or 'lower'"):
        frame.roc.multiclass_curve(CLASSES, "y", direction="auto")  # type: ignore[arg-type]
