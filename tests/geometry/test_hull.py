"""ROC convex hull, dominance and curve crossings, against scipy and brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import polars as pl
import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from polars.exceptions import ColumnNotFoundError, SchemaError
from scipy.spatial import ConvexHull
from sklearn.metrics import roc_curve

import polars_roc as pr
from tests.conftest import pairwise_auc, repeat_rows, scored_rows

# The lecture notes' worked example: confusion matrices (TP, FN, FP, TN) of three classifiers.
MATRICES = {"c1": (40, 60, 30, 70), "c2": (80, 20, 50, 50), "c3": (60, 40, 20, 80)}


def worked_points() -> pl.DataFrame:
    rows = [
        {"model": m, "tpr": tp / (tp + fn), "fpr": fp / (fp + tn)}
        for m, (tp, fn, fp, tn) in MATRICES.items()
    ]
    return pl.DataFrame(rows)


def worked_rows() -> pl.DataFrame:
    """The same three classifiers as hard 0/1 predictions on 100 positives, 100 negatives."""
    frames = []
    for model, (tp, fn, fp, tn) in MATRICES.items():
        label = [True] * (tp + fn) + [False] * (fp + tn)
        prediction = [1] * tp + [0] * fn + [1] * fp + [0] * tn
        frames.append(pl.DataFrame({"model": model, "label": label, "pred": prediction}))
    return pl.concat(frames)


def upper_hull_oracle(xy: np.ndarray) -> set[tuple[float, float]]:
    """Vertices of the ROCCH via scipy: the convex hull's vertices above the diagonal."""
    pts = np.vstack([xy, [[0.0, 0.0], [1.0, 1.0]]])
    vertices = pts[ConvexHull(pts).vertices]
    upper = {(float(x), float(y)) for x, y in vertices if y > x}
    return upper | {(0.0, 0.0), (1.0, 1.0)}


def below_or_on(vx: list[float], vy: list[float], x: float, y: float) -> bool:
    """Whether (x, y) lies on or below the polyline through the hull vertices."""
    for x0, y0, x1, y1 in zip(vx, vy, vx[1:], vy[1:], strict=False):
        if x0 < x1 and x0 <= x <= x1 and y <= y0 + (y1 - y0) * (x - x0) / (x1 - x0) + 1e-12:
            return True
        if x0 == x1 == x and min(y0, y1) - 1e-12 <= y <= max(y0, y1) + 1e-12:
            return True
    return False


# --- the worked example ----------------------------------------------------------------------


def test_worked_example_rates_dominance_and_hull() -> None:
    points = worked_points()
    assert points.select("model", "tpr", "fpr").rows() == [
        ("c1", 0.4, 0.3),
        ("c2", 0.8, 0.5),
        ("c3", 0.6, 0.2),
    ]
    table = pr.dominance(points)
    assert table.columns == ["a", "b", "dominates"]
    assert table.height == 6  # every ordered pair
    winners = table.filter("dominates").select("a", "b").rows()
    assert winners == [("c3", "c1")]  # 3 dominates 1, not 2; nothing else dominates
    hull = pr.hull_of_points(points)
    assert hull.columns == ["model", "fpr", "tpr"]
    assert hull.rows() == [(None, 0.0, 0.0), ("c3", 0.2, 0.6), ("c2", 0.5, 0.8), (None, 1.0, 1.0)]
    # classifier 1 lies strictly below the hull: at FPR 0.3 the hull is at 0.6 + 0.2 / 3
    assert 0.4 < 0.6 + 0.2 * (0.3 - 0.2) / (0.5 - 0.2)
    assert pr.hull_auc_of_points(points).item() == pytest.approx(0.72, abs=1e-15)


def test_worked_example_from_scored_rows_and_point() -> None:
    rows = worked_rows()
    # hard 0/1 predictions scored as scores: each classifier's curve is its one point
    hull = rows.roc.hull("pred", "label", model="model")
    assert hull.select("model", "fpr", "tpr").rows() == [
        ("c1", 0.0, 0.0),  # every curve starts at (0, 0): the first name owns it
        ("c3", 0.2, 0.6),
        ("c2", 0.5, 0.8),
        ("c1", 1.0, 1.0),
    ]
    assert hull["threshold"].to_list() == [float("inf"), 1.0, 1.0, 0.0]
    points = rows.roc.point("pred", "label", by="model")
    assert points.select("model", "tpr", "fpr").rows() == worked_points().rows()
    assert not points["below_diagonal"].any()
    again = pr.hull_of_points(points)
    assert again.select("fpr", "tpr").rows() == hull.select("fpr", "tpr").rows()
    assert pr.dominance(points).filter("dominates").select("a", "b").rows() == [("c3", "c1")]


def test_point_flags_below_diagonal_and_inversion_reflects_it() -> None:
    rows = worked_rows().with_columns(inverted=1 - pl.col("pred"))
    points = rows.roc.point("pred", "label", by="model")
    flipped = rows.roc.point("inverted", "label", by="model")
    assert flipped["below_diagonal"].to_list() == [True, True, True]
    # inverting a classifier maps (fpr, tpr) to (1 - fpr, 1 - tpr)
    np.testing.assert_allclose(flipped["fpr"], 1 - points["fpr"], atol=1e-15)
    np.testing.assert_allclose(flipped["tpr"], 1 - points["tpr"], atol=1e-15)
    # a classifier below the diagonal is never on the hull
    both = pl.concat(
        [points.select("model", "fpr", "tpr"), flipped.select("model", "fpr", "tpr")]
    ).with_columns(pl.concat_str("model", pl.int_range(pl.len()).cast(pl.String)))
    hull = pr.hull_of_points(both)
    assert (hull["tpr"] >= hull["fpr"]).all()


def test_scored_rows_mixed_with_hard_label_points() -> None:
    rows = worked_rows().filter(pl.col("model") != "c3").rename({"pred": "score"})
    rows = rows.with_columns(pl.col("score").cast(pl.Float64))
    extra = worked_points().filter(pl.col("model") == "c3")
    hull = rows.roc.hull(model="model", points=extra)
    assert hull.select("model", "fpr", "tpr").rows()[1:3] == [("c3", 0.2, 0.6), ("c2", 0.5, 0.8)]
    assert hull["threshold"][1] is None  # a given point has no threshold
    area = rows.roc.hull_auc(model="model", points=extra)["hull_auc"].item()
    assert area == pytest.approx(0.72, abs=1e-15)


# --- against scipy ---------------------------------------------------------------------------

GRID = st.integers(0, 8).map(lambda k: k / 8)  # exact binary fractions: exact collinearities


@given(xy=st.lists(st.tuples(GRID, GRID), min_size=1, max_size=25))
@example(xy=[(0.25, 0.5), (0.5, 1.0), (0.125, 0.25)])  # collinear with (0, 0): one vertex
@example(xy=[(0.5, 0.25)])  # below the diagonal: the hull is the diagonal
def test_hull_of_points_matches_scipy_on_grid_clouds(xy: list[tuple[float, float]]) -> None:
    cloud = np.array(xy)
    above = cloud[:, 1] - cloud[:, 0]
    assume(np.ptp(above) > 0 or above[0] != 0)  # scipy needs a 2-d hull
    frame = pl.DataFrame({"fpr": cloud[:, 0], "tpr": cloud[:, 1]})
    got = pr.hull_of_points(frame, model=None)
    assert got.columns == ["fpr", "tpr"]
    assert set(got.rows()) == upper_hull_oracle(cloud)
    assert len(set(got.rows())) == got.height
    assert got["fpr"].is_sorted()
    assert got["tpr"].is_sorted()


@pytest.mark.parametrize("seed", range(8))
def test_hull_of_points_matches_scipy_on_random_clouds(seed: int) -> None:
    rng = np.random.default_rng(seed)
    cloud = rng.beta(1, 3, size=(200, 2)) * [1, 1]
    cloud[:, 1] = 1 - cloud[:, 1]  # mostly in the upper left, like classifiers
    frame = pl.DataFrame({"fpr": cloud[:, 0], "tpr": cloud[:, 1], "model": range(200)})
    got = pr.hull_of_points(frame)
    want = upper_hull_oracle(cloud)
    assert set(got.select("fpr", "tpr").rows()) == want
    owners = dict(zip(frame["model"], zip(frame["fpr"], frame["tpr"], strict=True), strict=True))
    for name, x, y in got.rows():
        assert name is None or owners[name] == (x, y)


def test_hull_of_points_that_thin_one_point_per_pass_matches_scipy() -> None:
    # A concave chain that ends far below the corner (1, 1): each thinning pass drops only
    # the chain's last point, so 96 passes would be needed; the hull kernel stops after its
    # passes and finishes these groups with the monotone chain. A second, easy group must
    # not be disturbed by the first one's slow convergence.
    x = np.arange(1, 101) / 200
    chain = np.column_stack([x, 0.3 * np.sqrt(x)])
    easy = np.array([[0.1, 0.6], [0.2, 0.65], [0.4, 0.9]])
    frame = pl.DataFrame(
        {
            "g": ["chain"] * len(chain) + ["easy"] * len(easy),
            "fpr": np.concatenate([chain[:, 0], easy[:, 0]]),
            "tpr": np.concatenate([chain[:, 1], easy[:, 1]]),
        }
    )
    got = pr.hull_of_points(frame, model=None, by="g")
    for group, cloud in (("chain", chain), ("easy", easy)):
        vertices = got.filter(pl.col("g") == group).select("fpr", "tpr").rows()
        assert set(vertices) == upper_hull_oracle(cloud)
    assert got.filter(pl.col("g") == "chain").height < 10  # 90 and more points thinned


@given(frame=scored_rows(min_size=2, max_size=30, pool=[0.0, 0.1, 0.2, 0.3, 0.4, 0.5]))
def test_curve_hull_is_scipy_hull_of_sklearn_curve(frame: pl.DataFrame) -> None:
    assume(frame["label"].any() and not frame["label"].all())
    fpr, tpr, thresholds = roc_curve(frame["label"], frame["score"], drop_intermediate=False)
    got = frame.roc.hull()
    assert got.columns == ["fpr", "tpr", "threshold"]
    cloud = np.column_stack([fpr, tpr])
    assume(np.ptp(cloud[:, 1] - cloud[:, 0]) > 0)
    want = upper_hull_oracle(cloud)
    assert {(round(x, 12), round(y, 12)) for x, y in got.select("fpr", "tpr").rows()} == {
        (round(x, 12), round(y, 12)) for x, y in want
    }
    # each vertex is the curve's point at its threshold
    at = {t: (x, y) for t, x, y in zip(thresholds, fpr, tpr, strict=True)}
    for x, y, t in got.rows():
        assert at[t] == pytest.approx((x, y), abs=1e-15)


# --- properties ------------------------------------------------------------------------------


@given(frame=scored_rows(min_size=0, max_size=30, weighted=True, groups=3))
def test_hull_auc_bounds_curve_auc_and_curve_lies_below(frame: pl.DataFrame) -> None:
    hulls = frame.roc.hull(by="group", weight="weight")
    areas = frame.roc.hull_auc(by="group", weight="weight")
    assert areas.columns == ["group", "hull_auc"]
    # every group is present, as in the curve; one without a row of positive weight has a
    # null area and its start row alone
    assert set(areas["group"]) == set(frame["group"])
    for (group,), rows in frame.partition_by("group", as_dict=True).items():
        part = rows.filter(pl.col("weight") > 0)
        auc = pairwise_auc(part["label"], part["score"], part["weight"]) if part.height else None
        hull_auc = areas.filter(pl.col("group") == group)["hull_auc"].item()
        vertices = hulls.filter(pl.col("group") == group)
        if auc is None:
            assert hull_auc is None
            assert vertices.height == 1
            assert vertices["fpr"].item() is None
            continue
        assert hull_auc >= auc - 1e-12
        assert hull_auc <= 1.0 + 1e-12
        vx, vy = vertices["fpr"].to_list(), vertices["tpr"].to_list()
        assert (vx[0], vy[0], vx[-1], vy[-1]) == (0.0, 0.0, 1.0, 1.0)
        curve = part.roc.curve(weight="weight")
        for x, y in curve.select("fpr", "tpr").rows():
            assert below_or_on(vx, vy, x, y)
        # strictly convex: every turn clockwise, no collinear vertex
        for a, b, c in zip(vertices.rows(), vertices.rows()[1:], vertices.rows()[2:], strict=False):
            cross = (Fraction(b[1]) - Fraction(a[1])) * (Fraction(c[2]) - Fraction(a[2])) - (
                Fraction(b[2]) - Fraction(a[2])
            ) * (Fraction(c[1]) - Fraction(a[1]))
            assert cross < 0


@given(frame=scored_rows(min_size=1, max_size=30, weighted=True, groups=2))
def test_hull_lazy_grouped_and_weighted_agree(frame: pl.DataFrame) -> None:
    eager = frame.roc.hull(by="group", weight="weight")
    lazy = frame.lazy().roc.hull(by="group", weight="weight")
    assert isinstance(lazy, pl.LazyFrame)
    assert lazy.collect().equals(eager)
    streaming = frame.lazy().roc.hull(by="group", weight="weight").collect(engine="streaming")
    assert streaming.equals(eager)
    # Repeating each row by its weight drops a group of zero weights altogether.
    kept = frame.filter(pl.col("weight") > 0)
    weighed = eager.filter(pl.col("group").is_in(kept["group"].unique().implode()))
    repeated = repeat_rows(frame).roc.hull(by="group")
    assert repeated.select("group", "threshold").equals(weighed.select("group", "threshold"))
    np.testing.assert_allclose(repeated["tpr"], weighed["tpr"], atol=1e-12)
    for (group,), part in frame.partition_by("group", as_dict=True).items():
        alone = part.roc.hull(weight="weight")
        assert alone.equals(eager.filter(pl.col("group") == group).drop("group"))
    shuffled = frame.sample(fraction=1.0, shuffle=True, seed=1)
    assert shuffled.roc.hull(by="group", weight="weight").equals(eager)


def test_hull_across_is_hull_of_all_curves() -> None:
    df = pr.datasets.simulate(3000, seed=3)
    across = df.roc.hull(by="segment", model="model")
    assert across.columns == ["segment", "model", "fpr", "tpr", "threshold"]
    curves = df.roc.curve(by=["segment", "model"])
    for (segment,), part in curves.partition_by("segment", as_dict=True).items():
        got = across.filter(pl.col("segment") == segment)
        want = upper_hull_oracle(part.select("fpr", "tpr").to_numpy())
        assert set(got.select("fpr", "tpr").rows()) == want
        # each vertex is a point of the curve it names, at its threshold
        for _, model, x, y, t in got.rows():
            point = part.filter((pl.col("model") == model) & (pl.col("threshold") == t))
            assert point.select("fpr", "tpr").row(0) == (x, y)
    areas = df.roc.hull_auc(by="segment", model="model")
    single = df.roc.auc(by=["segment", "model"])
    for segment, area in areas.rows():
        best = single.filter(pl.col("segment") == segment)["auc"].max()
        assert area >= best


def test_hull_of_points_groups_and_undefined_points() -> None:
    points = pl.DataFrame(
        {
            "g": ["x", "x", "y", "z"],
            "model": ["a", "b", "a", "a"],
            "fpr": [0.1, 0.4, 0.5, None],
            "tpr": [0.5, 0.9, 0.4, 0.3],
            "threshold": [0.7, 0.2, 0.5, 0.1],
        }
    )
    got = pr.hull_of_points(points, by="g")
    assert got.columns == ["g", "model", "fpr", "tpr", "threshold"]
    assert got.rows() == [
        ("x", None, 0.0, 0.0, None),
        ("x", "a", 0.1, 0.5, 0.7),
        ("x", "b", 0.4, 0.9, 0.2),
        ("x", None, 1.0, 1.0, None),
        ("y", None, 0.0, 0.0, None),
        ("y", None, 1.0, 1.0, None),
        ("z", None, None, None, None),
    ]
    areas = pr.hull_auc_of_points(points, by="g")
    assert areas["hull_auc"].head(2).to_list() == pytest.approx(
        [0.05 / 2 + 0.3 * 1.4 / 2 + 0.6 * 1.9 / 2, 0.5]
    )
    assert areas["hull_auc"][2] is None


def test_undefined_curve_gives_a_null_hull() -> None:
    frame = pl.DataFrame({"g": [1, 1, 2, 2], "score": [0.1, 0.2, 0.3, 0.4], "label": [1, 1, 0, 1]})
    hull = frame.roc.hull(by="g")
    assert hull.filter(pl.col("g") == 1).rows() == [(1, None, None, None)]
    assert frame.roc.hull_auc(by="g")["hull_auc"].to_list() == [None, 1.0]


# --- dominance and crossings -----------------------------------------------------------------


@given(
    xy=st.lists(st.tuples(GRID, GRID), min_size=1, max_size=8),
    groups=st.integers(1, 2),
)
def test_dominance_is_brute_force(xy: list[tuple[float, float]], groups: int) -> None:
    points = pl.DataFrame(
        {
            "name": [f"m{i}" for i in range(len(xy))],
            "g": [i % groups for i in range(len(xy))],
            "f": [p[0] for p in xy],
            "t": [p[1] for p in xy],
        }
    )
    got = pr.dominance(points, fpr="f", tpr="t", model="name", by="g")
    assert got.columns == ["g", "a", "b", "dominates"]
    want = {}
    for (fa, ta, ga, na), (fb, tb, gb, nb) in itertools.permutations(
        zip(points["f"], points["t"], points["g"], points["name"], strict=True), 2
    ):
        if ga == gb:
            want[(ga, na, nb)] = (ta >= tb and fa <= fb) and (ta > tb or fa < fb)
    assert {(g, a, b): d for g, a, b, d in got.rows()} == want


def _segment_value(fpr: np.ndarray, tpr: np.ndarray, x0: float, x1: float) -> tuple[float, float]:
    """The curve's values at both ends of (x0, x1), on the one segment spanning it."""
    for i in range(len(fpr) - 1):
        if fpr[i] <= x0 and x1 <= fpr[i + 1] and fpr[i] < fpr[i + 1]:
            slope = (tpr[i + 1] - tpr[i]) / (fpr[i + 1] - fpr[i])
            return tpr[i] + slope * (x0 - fpr[i]), tpr[i] + slope * (x1 - fpr[i])
    raise AssertionError


@given(
    a=scored_rows(min_size=2, max_size=14, pool=[0.0, 0.2, 0.4, 0.6, 0.8]),
    b=st.lists(st.sampled_from([0.0, 0.2, 0.4, 0.6, 0.8]), min_size=14, max_size=14),
)
def test_crossings_and_curve_dominance_against_segments(a: pl.DataFrame, b: list[float]) -> None:
    assume(a["label"].any() and not a["label"].all())
    rows = pl.concat(
        [
            a.with_columns(model=pl.lit("a")),
            a.with_columns(model=pl.lit("b"), score=pl.Series(b[: a.height])),
        ]
    )
    table = rows.roc.crossings(model="model")
    assert table.columns == ["a", "b", "fpr_from", "fpr_to", "higher"]
    assert table["fpr_from"][0] == 0.0
    assert table["fpr_to"][-1] == 1.0
    assert (table["fpr_from"].shift(-1).head(-1) == table["fpr_to"].head(-1)).all()
    assert (table["higher"].shift(-1).head(-1) != table["higher"].head(-1)).all()  # merged
    curves = {}
    for m in ("a", "b"):
        part = rows.filter(pl.col("model") == m)
        fpr, tpr, _ = roc_curve(part["label"], part["score"], drop_intermediate=False)
        curves[m] = (fpr, tpr)
    breaks = np.unique(np.concatenate([curves["a"][0], curves["b"][0]]))
    sign = set()
    for x0, x1 in itertools.pairwise(breaks):
        (a0, a1), (b0, b1) = (
            _segment_value(*curves["a"], x0, x1),
            _segment_value(*curves["b"], x0, x1),
        )
        for x, d in ((x0, a0 - b0), (x1, a1 - b1), ((x0 + x1) / 2, (a0 + a1 - b0 - b1) / 2)):
            if abs(d) > 1e-9:
                sign.add("a" if d > 0 else "b")
                at = float(x)
                inside = table.filter((pl.col("fpr_from") <= at) & (pl.col("fpr_to") >= at))
                assert ("a" if d > 0 else "b") in inside["higher"].to_list()
    dominance = {(x, y): d for x, y, d in rows.roc.curve_dominance(model="model").rows()}
    assert dominance[("a", "b")] == (sign == {"a"})
    assert dominance[("b", "a")] == (sign == {"b"})


def test_identical_curves_dominate_neither() -> None:
    frame = pl.DataFrame({"score": [0.1, 0.4, 0.35, 0.8] * 2, "label": [0, 0, 1, 1] * 2})
    frame = frame.with_columns(model=pl.Series(["a"] * 4 + ["b"] * 4))
    assert frame.roc.crossings().rows() == [("a", "b", 0.0, 1.0, None)]
    assert frame.roc.curve_dominance()["dominates"].to_list() == [False, False]


# --- bad input -------------------------------------------------------------------------------


def test_bad_input_raises_clear_errors() -> None:
    empty = pl.DataFrame(schema={"model": pl.String, "fpr": pl.Float64, "tpr": pl.Float64})
    with pytest.raises(ValueError, match="empty"):
        pr.hull_of_points(empty)
    with pytest.raises(ValueError, match="empty"):
        pr.dominance(empty)
    outside = pl.DataFrame({"model": ["a"], "fpr": [1.5], "tpr": [0.5]})
    with pytest.raises(ValueError, match=r"\[1.5\], not rates"):
        pr.hull_of_points(outside)
    with pytest.raises(ColumnNotFoundError, match="name column 'model' not found"):
        pr.hull_of_points(pl.DataFrame({"fpr": [0.1], "tpr": [0.5]}))
    with pytest.raises(SchemaError, match="expected rates"):
        pr.hull_of_points(pl.DataFrame({"model": ["a"], "fpr": ["x"], "tpr": [0.5]}))
    twice = pl.DataFrame({"model": ["a", "a"], "fpr": [0.1, 0.2], "tpr": [0.5, 0.6]})
    with pytest.raises(ValueError, match="more than once"):
        pr.dominance(twice)
    rows = worked_rows()
    with pytest.raises(ValueError, match="model="):
        rows.roc.hull("pred", "label", points=worked_points())
    with pytest.raises(ValueError, match="model="):
        rows.roc.crossings("pred", "label", model="label")
