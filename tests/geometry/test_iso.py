"""Iso-performance: optimal classifier, operating ranges and hybrids, against brute force."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from scipy.spatial import ConvexHull
from sklearn.metrics import roc_curve

import polars_roc as pr
from tests.conftest import scored_rows

WORKED = pl.DataFrame({"model": ["c1", "c2", "c3"], "fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]})
PREVALENCE = st.floats(0.01, 0.99)
COST = st.floats(0.05, 20.0)


def expected_cost(fpr: np.ndarray, tpr: np.ndarray, p: float, cost_fp: float, cost_fn: float):
    return p * cost_fn * (1 - tpr) + (1 - p) * cost_fp * fpr


def brute_force_optimum(fpr, tpr, p, cost_fp, cost_fn) -> tuple[float, float, float]:
    """Least expected cost over all points and the trivial classifiers; ties: smallest FPR."""
    fpr = np.append(np.asarray(fpr, dtype=float), [0.0, 1.0])
    tpr = np.append(np.asarray(tpr, dtype=float), [0.0, 1.0])
    cost = expected_cost(fpr, tpr, p, cost_fp, cost_fn)
    best = cost.min()
    tied = np.flatnonzero(cost <= best + 1e-9 * (p * cost_fn + (1 - p) * cost_fp))
    i = tied[np.lexsort((-tpr[tied], fpr[tied]))[0]]
    return float(fpr[i]), float(tpr[i]), float(best)


def scipy_hull(fpr, tpr) -> tuple[np.ndarray, np.ndarray]:
    """ROCCH vertices by FPR, from scipy's convex hull of the points and the corners."""
    pts = np.vstack([np.column_stack([fpr, tpr]), [[0.0, 0.0], [1.0, 1.0]]])
    vertices = pts[ConvexHull(pts).vertices]
    keep = vertices[vertices[:, 1] > vertices[:, 0]]
    chain = np.vstack([[0.0, 0.0], keep[np.lexsort((keep[:, 1], keep[:, 0]))], [1.0, 1.0]])
    return chain[:, 0], chain[:, 1]


# --- optimal ---------------------------------------------------------------------------------


@given(
    frame=scored_rows(min_size=2, max_size=30, pool=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
    p=PREVALENCE,
    cost_fp=COST,
    cost_fn=COST,
)
@example(
    frame=pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6], "label": [True, False, True, False]}),
    p=0.5,
    cost_fp=1.0,
    cost_fn=1.0,
)
def test_optimal_is_brute_force_minimum_of_expected_cost(
    frame: pl.DataFrame, p: float, cost_fp: float, cost_fn: float
) -> None:
    assume(frame["label"].any() and not frame["label"].all())
    fpr, tpr, _ = roc_curve(frame["label"], frame["score"], drop_intermediate=False)
    got = frame.roc.optimal(prevalence=p, cost_fp=cost_fp, cost_fn=cost_fn)
    assert got.columns == ["fpr", "tpr", "threshold", "expected_cost", "accuracy"]
    want_fpr, want_tpr, want_cost = brute_force_optimum(fpr, tpr, p, cost_fp, cost_fn)
    row = got.row(0, named=True)
    assert row["expected_cost"] == pytest.approx(want_cost, abs=1e-12)
    assert (row["fpr"], row["tpr"]) == pytest.approx((want_fpr, want_tpr), abs=1e-12)
    assert row["accuracy"] == pytest.approx(p * row["tpr"] + (1 - p) * (1 - row["fpr"]))
    # the threshold is the curve's at that point: predicting score >= it costs that much
    predicted = frame["score"].to_numpy() >= row["threshold"]
    labels = frame["label"].to_numpy()
    realized = (
        p * cost_fn * (1 - predicted[labels].mean()) + (1 - p) * cost_fp * predicted[~labels].mean()
    )
    assert realized == pytest.approx(want_cost, abs=1e-12)


@given(p=PREVALENCE, cost_fp=COST, cost_fn=COST)
@example(p=0.6, cost_fp=1.0, cost_fn=1.0)  # iso line along the edge c3-c2: the left end
@example(p=0.25, cost_fp=1.0, cost_fn=1.0)  # along the first edge: always negative
def test_optimal_of_points_worked_example(p: float, cost_fp: float, cost_fn: float) -> None:
    got = pr.optimal_of_points(WORKED, prevalence=p, cost_fp=cost_fp, cost_fn=cost_fn)
    assert got.columns == ["model", "fpr", "tpr", "expected_cost", "accuracy"]
    want_fpr, want_tpr, want_cost = brute_force_optimum(
        WORKED["fpr"], WORKED["tpr"], p, cost_fp, cost_fn
    )
    name, fpr, tpr, cost, _ = got.row(0)
    assert (fpr, tpr) == (want_fpr, want_tpr)
    assert cost == pytest.approx(want_cost, abs=1e-12)
    assert name == dict(zip(WORKED["fpr"], WORKED["model"], strict=True)).get(fpr)
    assert name != "c1"  # dominated: never optimal


def test_optimal_ties_pick_the_smaller_fpr() -> None:
    # equal costs at 60% positives: slope 2/3, the edge from c3 (0.2, 0.6) to c2 (0.5, 0.8)
    got = pr.optimal_of_points(WORKED, prevalence=0.6)
    assert got["model"].item() == "c3"
    assert got["accuracy"].item() == pytest.approx(0.6 * 0.6 + 0.4 * 0.8)


def test_optimal_default_prevalence_is_the_groups_own() -> None:
    df = pr.datasets.simulate(2000, seed=2)
    got = df.roc.optimal(by="segment", model="model", cost_fn=4.0)
    assert got.columns == [
        "segment",
        "model",
        "fpr",
        "tpr",
        "threshold",
        "expected_cost",
        "accuracy",
    ]
    for segment, model, fpr, tpr, threshold, cost, _ in got.rows():
        part = df.filter(pl.col("segment") == segment)
        p = part.filter(pl.col("model") == model)["label"].mean()
        best = np.inf
        for (_,), curve in part.partition_by("model", as_dict=True).items():
            f, t, _ = roc_curve(curve["label"], curve["score"], drop_intermediate=False)
            best = min(best, brute_force_optimum(f, t, p, 1.0, 4.0)[2])
        assert cost == pytest.approx(best, abs=1e-12)
        one = part.filter(pl.col("model") == model)
        predicted = one["score"].to_numpy() >= threshold
        labels = one["label"].to_numpy()
        assert (predicted[~labels].mean(), predicted[labels].mean()) == pytest.approx((fpr, tpr))


@given(frame=scored_rows(min_size=1, max_size=30, weighted=True, groups=3), p=PREVALENCE)
def test_optimal_lazy_grouped_agree(frame: pl.DataFrame, p: float) -> None:
    eager = frame.roc.optimal(by="group", weight="weight", prevalence=p, cost_fp=2.0)
    lazy = frame.lazy().roc.optimal(by="group", weight="weight", prevalence=p, cost_fp=2.0)
    assert lazy.collect().equals(eager)
    assert eager["group"].is_sorted()
    assert eager["group"].n_unique() == eager.height
    kept = frame.filter(pl.col("weight") > 0)
    for (group,), part in kept.partition_by("group", as_dict=True).items():
        alone = part.roc.optimal(weight="weight", prevalence=p, cost_fp=2.0)
        assert alone.equals(eager.filter(pl.col("group") == group).drop("group"))
    own = frame.roc.optimal(by="group", weight="weight")  # the group's own prevalence
    for group, *_, cost, accuracy in own.rows():
        part = kept.filter(pl.col("group") == group)
        if part["label"].all() or not part["label"].any():
            assert cost is None
            assert accuracy is None
        else:
            share = part.filter("label")["weight"].sum() / part["weight"].sum()
            assert accuracy >= max(share, 1 - share) - 1e-12  # at least the trivial ones


# --- operating ranges ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_operating_range_bounds_are_adjacent_edge_slopes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    fpr, tpr = rng.random(30) ** 2, 1 - rng.random(30) ** 2
    points = pl.DataFrame({"model": [f"m{i}" for i in range(30)], "fpr": fpr, "tpr": tpr})
    got = pr.operating_ranges_of_points(points, prevalence=0.2)
    assert got.columns == [
        "model",
        "fpr",
        "tpr",
        "slope_lo",
        "slope_hi",
        "prevalence_lo",
        "prevalence_hi",
        "cost_ratio_lo",
        "cost_ratio_hi",
    ]
    hx, hy = scipy_hull(fpr, tpr)
    np.testing.assert_array_equal(got["fpr"], hx)
    slopes = np.diff(hy) / np.diff(hx)  # the hull's edges, left to right
    np.testing.assert_allclose(got["slope_hi"], np.append(np.inf, slopes), rtol=1e-12)
    np.testing.assert_allclose(got["slope_lo"], np.append(slopes, 0.0), rtol=1e-12)
    # the rows tile the slopes and the prevalences
    assert (got["slope_lo"].head(-1) == got["slope_hi"].tail(-1)).all()
    np.testing.assert_allclose(got["prevalence_lo"], 1 / (1 + np.append(np.inf, slopes)))
    np.testing.assert_allclose(got["prevalence_hi"], 1 / (1 + np.append(slopes, 0.0)))
    np.testing.assert_allclose(got["cost_ratio_lo"], np.append(slopes, 0.0) * 0.2 / 0.8)
    # at any prevalence inside a vertex's range, that vertex is optimal at equal costs
    for row in got.iter_rows(named=True):
        lo, hi = row["prevalence_lo"], row["prevalence_hi"]
        if hi - lo > 1e-6:
            p = (lo + hi) / 2
            best = pr.optimal_of_points(points, prevalence=p)
            assert best.select("fpr", "tpr").row(0) == (row["fpr"], row["tpr"])


def test_operating_ranges_reproduce_the_notes_statements() -> None:
    # first hull edge of slope 10, last of slope 11/89: "with less than 9% (1/11) positives,
    # always negative is optimal; with less than 11% negatives, always positive is"
    points = pl.DataFrame({"model": ["a", "b"], "fpr": [0.05, 0.11], "tpr": [0.5, 0.89]})
    got = pr.operating_ranges_of_points(points)
    first, last = got.row(0, named=True), got.row(-1, named=True)
    assert (first["model"], first["fpr"], first["tpr"]) == (None, 0.0, 0.0)
    assert first["prevalence_lo"] == 0.0
    assert first["prevalence_hi"] == pytest.approx(1 / 11)
    assert (last["fpr"], last["tpr"], last["prevalence_hi"]) == (1.0, 1.0, 1.0)
    assert 1 - last["prevalence_lo"] == pytest.approx(0.11)
    assert got["cost_ratio_lo"].is_null().all()  # no prevalence given
    for p, owner in ((0.08, None), (0.10, "a"), (0.88, "b"), (0.90, None)):
        best = pr.optimal_of_points(points, prevalence=p)
        assert best["model"].item() == owner
    assert pr.optimal_of_points(points, prevalence=0.9)["fpr"].item() == 1.0


def test_operating_ranges_on_scored_rows_with_cost_ratio() -> None:
    df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], "label": [1, 0, 1, 1, 0, 0]})
    got = df.roc.operating_ranges()
    hull = df.roc.hull()
    assert got.select("fpr", "tpr", "threshold").equals(hull)
    # the group's own prevalence is 1/2, so the cost ratio equals the slope
    assert got["cost_ratio_lo"].to_list() == got["slope_lo"].to_list()
    half = df.roc.operating_ranges(prevalence=0.2)
    np.testing.assert_allclose(half["cost_ratio_hi"].tail(3), half["slope_hi"].tail(3) / 4)


# --- hybrids ---------------------------------------------------------------------------------


@given(
    frame=scored_rows(min_size=2, max_size=30, pool=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
    targets=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=4),
)
@example(
    frame=pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6], "label": [True, True, False, False]}),
    targets=[0.0, 0.5, 1.0],
)
def test_hybrid_reproduces_target_fpr_on_the_hull(
    frame: pl.DataFrame, targets: list[float]
) -> None:
    assume(frame["label"].any() and not frame["label"].all())
    got = frame.roc.hybrid(fpr=targets)
    assert got.columns == [
        "fpr",
        "tpr",
        "fpr_a",
        "tpr_a",
        "threshold_a",
        "fpr_b",
        "tpr_b",
        "threshold_b",
        "p_b",
    ]
    assert sorted(set(got["fpr"])) == sorted(set(targets))
    fpr, tpr, _ = roc_curve(frame["label"], frame["score"], drop_intermediate=False)
    cloud = np.column_stack([fpr, tpr])
    flat = np.ptp(cloud[:, 1] - cloud[:, 0]) == 0
    hx, hy = (np.array([0.0, 1.0]), np.array([0.0, 1.0])) if flat else scipy_hull(fpr, tpr)
    labels, scores = frame["label"].to_numpy(), frame["score"].to_numpy()
    for row in got.iter_rows(named=True):
        t, p = row["fpr"], row["p_b"]
        assert 0.0 <= p <= 1.0
        mixed = (1 - p) * row["fpr_a"] + p * row["fpr_b"]
        assert mixed == pytest.approx(t, abs=1e-12)
        # a randomized classifier using threshold b with probability p has that FPR and TPR
        for end in ("a", "b"):
            predicted = scores >= row[f"threshold_{end}"]
            assert predicted[~labels].mean() == pytest.approx(row[f"fpr_{end}"], abs=1e-12)
            assert predicted[labels].mean() == pytest.approx(row[f"tpr_{end}"], abs=1e-12)
        # ... the hull's TPR there (the highest, where it rises vertically at FPR 0)
        on_hull = hy[hx <= t].max() if t in hx else np.interp(t, hx, hy)
        assert row["tpr"] == pytest.approx(on_hull, abs=1e-12)
        # a and b are adjacent hull vertices
        ia = np.flatnonzero((hx == row["fpr_a"]) & (hy == row["tpr_a"]))
        ib = np.flatnonzero((hx == row["fpr_b"]) & (hy == row["tpr_b"]))
        assert ia.size == 1
        assert ib.size == 1
        assert ib[0] - ia[0] in (0, 1)


def test_hybrid_of_points_worked_example() -> None:
    got = pr.hybrid_of_points(WORKED, target=[0.1, 0.3, 0.5, 0.75])
    assert got.columns == [
        "fpr",
        "tpr",
        "model_a",
        "fpr_a",
        "tpr_a",
        "model_b",
        "fpr_b",
        "tpr_b",
        "p_b",
    ]
    assert got.select("model_a", "model_b").rows() == [
        (None, "c3"),
        ("c3", "c2"),
        ("c2", "c2"),
        ("c2", None),
    ]
    np.testing.assert_allclose(got["p_b"], [0.5, 1 / 3, 0.0, 0.5], atol=1e-15)
    np.testing.assert_allclose(got["tpr"], [0.3, 0.6 + 0.2 / 3, 0.8, 0.9], atol=1e-15)


def test_grouped_points_with_an_undefined_group() -> None:
    points = pl.DataFrame(
        {"g": [1, 1, 2], "model": ["a", "b", "a"], "fpr": [0.1, 0.3, None], "tpr": [0.6, 0.9, 0.5]}
    )
    best = pr.optimal_of_points(points, by="g", prevalence=0.5)
    assert best.select("g", "model", "fpr", "tpr").rows() == [
        (1, "b", 0.3, 0.9),
        (2, None, None, None),
    ]
    assert best["expected_cost"].to_list() == [pytest.approx(0.5 * 0.1 + 0.5 * 0.3), None]
    assert best["accuracy"].to_list() == [pytest.approx(0.8), None]
    ranges = pr.operating_ranges_of_points(points, by="g")
    assert ranges.filter(pl.col("g") == 2).drop("g").row(0) == (None,) * 9
    hybrid = pr.hybrid_of_points(points, by="g", target=0.2)
    assert hybrid.select("g", "model_a", "model_b").rows() == [(1, "a", "b"), (2, None, None)]
    assert hybrid["tpr"].to_list() == [pytest.approx(0.75), None]


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize("prevalence", [0, 1, 0.0, 1.0, -0.1, 1.5, float("nan"), True, "0.1"])
def test_prevalence_outside_the_unit_interval_is_refused(prevalence: object) -> None:
    df = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1]})
    with pytest.raises(ValueError, match="prevalence must lie strictly between 0 and 1"):
        df.roc.optimal(prevalence=prevalence)
    with pytest.raises(ValueError, match="prevalence"):
        pr.operating_ranges_of_points(WORKED, prevalence=prevalence)


@pytest.mark.parametrize("cost", [0, 0.0, -1.0, float("inf"), float("nan"), None])
def test_non_positive_costs_are_refused(cost: object) -> None:
    df = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1]})
    with pytest.raises(ValueError, match="cost_fp must be a positive finite number"):
        df.roc.optimal(cost_fp=cost)
    with pytest.raises(ValueError, match="cost_fn must be a positive finite number"):
        pr.optimal_of_points(WORKED, prevalence=0.5, cost_fn=cost)


def test_empty_points_and_bad_targets_are_refused() -> None:
    empty = WORKED.clear().lazy()
    for query in (
        pr.optimal_of_points(empty, prevalence=0.5),
        pr.operating_ranges_of_points(empty),
        pr.hybrid_of_points(empty, target=0.1),
    ):
        with pytest.raises(ValueError, match="the set of ROC points is empty"):
            query.collect()
    with pytest.raises(ValueError, match="needs the prevalence"):
        pr.optimal_of_points(WORKED, prevalence=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rates in"):
        pr.hybrid_of_points(WORKED, target=1.5)
    df = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1]})
    with pytest.raises(ValueError, match="rates in"):
        df.roc.hybrid(fpr=[0.1, -0.2])
