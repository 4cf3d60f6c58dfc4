"""Threshold tables, schemes, cutpoints, operating points and hard-label points."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl
import pytest
import sklearn.metrics
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn.metrics import confusion_matrix, roc_auc_score, roc_curve

import polars_roc as pr
from tests.conftest import scored_rows

POOL = [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]
Case = tuple[list[bool], list[float], list[int]]
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INF = math.inf


@st.composite
def cases(draw: st.DrawFn, *, pool: list[float] = POOL, both: bool = True) -> Case:
    """Labels (both classes unless `both=False`), pooled scores (ties), weights >= 1."""
    n = draw(st.integers(2, 20))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if both and (all(labels) or not any(labels)):
        labels[0] = not labels[0]
    scores = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    weights = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    return labels, scores, weights


def frame(case: Case) -> pl.DataFrame:
    labels, scores, weights = case
    return pl.DataFrame({"label": labels, "score": scores, "w": weights})


def brute_counts(case: Case, t: float, *, weighted: bool) -> tuple[int, int, int, int]:
    """tp, fp, tn, fn of the rule score >= t, by hand."""
    tp = fp = tn = fn = 0
    for y, s, w in zip(*case, strict=True):
        k = w if weighted else 1
        if s >= t:
            tp, fp = tp + k * y, fp + k * (not y)
        else:
            fn, tn = fn + k * y, tn + k * (not y)
    return tp, fp, tn, fn


def definitions(tp: float, fp: float, tn: float, fn: float) -> dict[str, float | None]:
    """Every measure of the threshold table from its textbook definition."""

    def div(a: float, b: float) -> float | None:
        return a / b if b else None

    tpr, fpr, tnr, fnr = div(tp, tp + fn), div(fp, fp + tn), div(tn, fp + tn), div(fn, tp + fn)
    mcc_den = math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))

    def lr(a: float | None, b: float | None) -> float | None:
        if a is None or b is None:
            return None
        if b == 0:
            return INF if a > 0 else None
        return a / b

    return {
        "tpr": tpr,
        "fpr": fpr,
        "tnr": tnr,
        "fnr": fnr,
        "ppv": div(tp, tp + fp),
        "npv": div(tn, tn + fn),
        "fdr": div(fp, tp + fp),
        "accuracy": div(tp + tn, tp + fp + tn + fn),
        "balanced_accuracy": None if tpr is None or tnr is None else (tpr + tnr) / 2,
        "f1": div(2 * tp, 2 * tp + fp + fn),
        "youden": None if tpr is None or fpr is None else tpr - fpr,
        "mcc": div(tp * tn - fp * fn, mcc_den),
        "lr_pos": lr(tpr, fpr),
        "lr_neg": lr(fnr, tnr),
        "closest_topleft": None if fnr is None or fpr is None else fnr**2 + fpr**2,
    }


def assert_row_matches(row: dict[str, object], case: Case, *, weighted: bool) -> None:
    t = row["threshold"]
    assert isinstance(t, float)
    tp, fp, tn, fn = brute_counts(case, t, weighted=weighted)
    assert (row["tp"], row["fp"], row["tn"], row["fn"]) == (tp, fp, tn, fn)
    for name, expected in definitions(tp, fp, tn, fn).items():
        got = row[name]
        if expected is None:
            assert got is None, (name, row)
        else:
            assert got == pytest.approx(expected, abs=1e-12), (name, row)


# The contract's columns (DESIGN.md): the counts, then the measures in the order of the
# textbook definitions above.
COLUMNS = ["threshold", "tp", "fp", "tn", "fn", *definitions(1, 1, 1, 1)]


@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=cases(both=False))
@example(case=([True, False], [0.5, 0.5], [1, 1]))
@example(case=([True, True], [0.5, 0.9], [1, 2]))
def test_every_measure_matches_its_definition(case: Case, *, weighted: bool) -> None:
    table = frame(case).roc.thresholds(weight="w" if weighted else None)
    assert table.columns == COLUMNS
    expected = [INF, *sorted(set(case[1]), reverse=True)]
    assert table["threshold"].to_list() == expected
    for row in table.iter_rows(named=True):
        assert_row_matches(row, case, weighted=weighted)


@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=cases(), data=st.data())
def test_listed_thresholds_are_exactly_those(
    case: Case, data: st.DataObject, *, weighted: bool
) -> None:
    values = data.draw(
        st.lists(st.sampled_from([-1.0, 0.0, 0.2, 0.5, 0.8, 1.0, 2.0, INF, -INF]), min_size=1)
    )
    table = frame(case).roc.thresholds(weight="w" if weighted else None, thresholds=values)
    assert table["threshold"].to_list() == sorted(set(values), reverse=True)
    for row in table.iter_rows(named=True):
        assert_row_matches(row, case, weighted=weighted)
    # curve() with the same list keeps its end points (0, 0) and (1, 1)
    points = frame(case).roc.curve(weight="w" if weighted else None, thresholds=values)
    assert (points["tpr"][0], points["fpr"][0]) == (0.0, 0.0)
    assert (points["tpr"][-1], points["fpr"][-1]) == (1.0, 1.0)


@SETTINGS
@given(case=cases())
def test_table_matches_sklearn_roc_curve_and_confusion_matrix_at_thresholds(case: Case) -> None:
    labels, scores, _ = case
    table = frame(case).roc.thresholds()
    fpr, tpr, thresholds = roc_curve(labels, scores, drop_intermediate=False)
    np.testing.assert_allclose(table["fpr"], fpr)
    np.testing.assert_allclose(table["tpr"], tpr)
    np.testing.assert_array_equal(table["threshold"], thresholds)
    at_thresholds = getattr(sklearn.metrics, "confusion_matrix_at_thresholds", None)
    if at_thresholds is not None:
        tns, fps, fns, tps, ts = at_thresholds(labels, scores)
        real = table.slice(1)
        for name, values in (("tn", tns), ("fp", fps), ("fn", fns), ("tp", tps)):
            np.testing.assert_array_equal(real[name], values)
        np.testing.assert_array_equal(real["threshold"], ts)


def test_sklearn_confusion_matrix_at_thresholds_weighted() -> None:
    at_thresholds = getattr(sklearn.metrics, "confusion_matrix_at_thresholds", None)
    if at_thresholds is None:
        pytest.skip("scikit-learn < 1.8")
    rng = np.random.default_rng(3)
    df = pl.DataFrame(
        {
            "label": rng.random(300) < 0.3,
            "score": rng.integers(0, 30, 300) / 30,
            "w": rng.random(300),
        }
    )
    tns, fps, fns, tps, ts = at_thresholds(df["label"], df["score"], sample_weight=df["w"])
    real = df.roc.thresholds(weight="w").slice(1)
    np.testing.assert_array_equal(real["threshold"], ts)
    for name, values in (("tn", tns), ("fp", fps), ("fn", fns), ("tp", tps)):
        np.testing.assert_allclose(real[name], values, rtol=1e-9, atol=1e-9)


def curve_fprs(case: Case, *, weighted: bool) -> list[float]:
    thresholds = [INF, *sorted(set(case[1]), reverse=True)]
    out = []
    for t in thresholds:
        _, fp, tn, _ = brute_counts(case, t, weighted=weighted)
        out.append(fp / (fp + tn))
    return out


@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=cases(), k=st.integers(1, 12))
def test_quantile_thresholds_sample_fpr_evenly(case: Case, k: int, *, weighted: bool) -> None:
    w = "w" if weighted else None
    table = frame(case).roc.thresholds(weight=w, thresholds=k)
    full = frame(case).roc.thresholds(weight=w)
    # end points kept
    assert table.row(0, named=True) == full.row(0, named=True)
    assert table.row(-1, named=True) == full.row(-1, named=True)
    # every chosen threshold is a distinct score (a quantile of the negative scores)
    assert set(table["threshold"]) <= set(full["threshold"])
    fprs = curve_fprs(case, weighted=weighted)
    chosen = table["fpr"].to_list()
    for i in range(1, k + 1):
        target = i / (k + 1)
        first_reaching = min(f for f in fprs if f >= target - 1e-12)
        assert any(f == pytest.approx(first_reaching) for f in chosen)
    # counts are monotone as the threshold falls
    for column in ("tp", "fp"):
        assert table[column].diff().drop_nulls().min() >= 0  # type: ignore[operator]
    for column in ("tn", "fn"):
        assert table[column].diff().drop_nulls().max() <= 0  # type: ignore[operator]


@given(n_neg=st.integers(1, 60), k=st.integers(1, 20), seed=st.integers(0, 2**16))
@settings(max_examples=40, deadline=None)
def test_quantile_fpr_is_within_one_negative_of_even_spacing(n_neg: int, k: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    neg = rng.permutation(n_neg) / n_neg  # distinct negative scores
    pos = rng.random(7)
    df = pl.DataFrame({"score": np.concatenate([neg, pos]), "label": [False] * n_neg + [True] * 7})
    fpr = df.roc.thresholds(thresholds=k)["fpr"].to_list()
    for i in range(1, k + 1):
        target = i / (k + 1)
        # the first FPR reaching each target, exactly ceil(target * N) / N
        assert math.ceil(target * n_neg - 1e-9) / n_neg in [pytest.approx(f) for f in fpr]


@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=cases(), k=st.integers(2, 9))
def test_linspace_thresholds_are_evenly_spaced(case: Case, k: int, *, weighted: bool) -> None:
    w = "w" if weighted else None
    table = frame(case).roc.thresholds(weight=w, thresholds=pr.linspace(k))
    lo, hi = min(case[1]), max(case[1])
    expected = sorted({INF, *np.linspace(hi, lo, k).tolist()}, reverse=True)
    assert table["threshold"].to_list() == pytest.approx(expected, abs=1e-12)
    assert table["threshold"][1] == hi
    assert table["threshold"][-1] == lo
    for row in table.iter_rows(named=True):
        assert_row_matches(row, case, weighted=weighted)


def test_curve_schemes_keep_end_points_and_drop_intermediate() -> None:
    df = pr.datasets.simulate(2000, models=["m"], segments=["s"])
    for scheme in (None, 5, pr.linspace(7), [0.2, 0.5]):
        points = df.roc.curve(thresholds=scheme, drop_intermediate=True)
        assert points.row(0)[:3] == (INF, 0, 0)
        assert (points["tpr"][-1], points["fpr"][-1]) == (1.0, 1.0)
    assert df.roc.curve(thresholds=5).height == 7


@pytest.mark.parametrize(
    "scheme", [None, 3, [0.1, 0.5, 0.8], pr.linspace(4)], ids=["all", "k", "list", "linspace"]
)
def test_grouped_equals_per_group_lazy_equals_eager(scheme: object) -> None:
    rng = np.random.default_rng(7)
    n = 300
    df = pl.DataFrame(
        {
            "g": pl.Series(rng.choice(["a", "b", "-"], n)).replace("-", None),
            "label": rng.random(n) < 0.4,
            "score": np.round(rng.random(n), 1),
            "w": rng.uniform(0.5, 2.0, n),
        }
    )
    grouped = df.roc.thresholds(by="g", weight="w", thresholds=scheme)
    assert_frame_equal(
        df.lazy().roc.thresholds(by="g", weight="w", thresholds=scheme).collect(), grouped
    )
    for (g,), part in df.group_by("g"):
        mine = grouped.filter(pl.col("g").eq_missing(g)).drop("g")
        assert_frame_equal(mine, part.roc.thresholds(weight="w", thresholds=scheme))


# ---------------------------------------------------------------- best_threshold


def brute_best(
    case: Case,
    method: str,
    *,
    cost_fp: float = 1,
    cost_fn: float = 1,
    prevalence: float | None = None,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
) -> float | None:
    """Exact (Fraction) search over every candidate; ties to the highest threshold."""
    best: tuple[Fraction, float] | None = None
    for t in [INF, *sorted(set(case[1]), reverse=True)]:
        tp, fp, tn, fn = brute_counts(case, t, weighted=False)
        p, n = tp + fn, fp + tn
        if p == 0 or n == 0:
            return None
        r_tp, r_fp = Fraction(tp, p), Fraction(fp, n)
        if fpr is not None and not fpr[0] <= float(r_fp) <= fpr[1]:
            continue
        if tpr is not None and not tpr[0] <= float(r_tp) <= tpr[1]:
            continue
        if method == "youden":
            value = r_tp - r_fp
        elif method == "closest_topleft":
            value = -((1 - r_tp) ** 2 + r_fp**2)
        elif prevalence is None:
            value = -(Fraction(cost_fn) * fn + Fraction(cost_fp) * fp)
        else:
            pi = Fraction(prevalence)
            value = -(Fraction(cost_fn) * pi * (1 - r_tp) + Fraction(cost_fp) * (1 - pi) * r_fp)
        if best is None or value > best[0]:
            best = (value, t)  # thresholds descend: a later equal value never wins
    return None if best is None else best[1]


@pytest.mark.parametrize(
    ("method", "options"),
    [
        ("youden", {}),
        ("closest_topleft", {}),
        ("cost", {"cost_fp": 1.0, "cost_fn": 3.0}),
        ("cost", {"cost_fp": 2.0, "cost_fn": 1.0, "prevalence": 0.25}),
        ("youden", {"fpr": (0.1, 0.5)}),
        ("closest_topleft", {"tpr": (0.5, 1.0)}),
    ],
)
@SETTINGS
@given(case=cases())
@example(case=([True, True, False, True, False, False], [0.9, 0.8, 0.75, 0.5, 0.25, 0.1], [1] * 6))
def test_best_threshold_matches_exhaustive_search(
    case: Case, method: str, options: dict[str, object]
) -> None:
    got = frame(case).roc.best_threshold(method=method, **options)  # type: ignore[arg-type]
    assert got.columns == [*COLUMNS, "n_pos", "n_neg"]
    assert got.height == 1
    assert got["threshold"].item() == brute_best(case, method, **options)  # type: ignore[arg-type]
    if got["threshold"].item() is not None:
        full = frame(case).roc.thresholds()
        chosen = full.filter(pl.col("threshold") == got["threshold"].item())
        assert_frame_equal(got.drop("n_pos", "n_neg"), chosen)


def test_best_threshold_grouped_with_undefined_group() -> None:
    df = pl.DataFrame(
        {
            "g": ["a"] * 4 + ["b"] * 3 + [None] * 4,
            "score": [0.9, 0.7, 0.5, 0.1, 0.3, 0.6, 0.2, 0.9, 0.7, 0.5, 0.1],
            "label": [1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0],
        }
    )
    got = df.roc.best_threshold(by="g")
    assert got["g"].to_list() == ["a", "b", None]
    assert got["threshold"].to_list() == [0.9, None, 0.7]
    lazy = df.lazy().roc.best_threshold(by="g")
    assert_frame_equal(lazy.collect(), got)
    # nothing in range -> a row of nulls
    assert df.roc.best_threshold(fpr=(0.9, 0.95), by="g")["threshold"].to_list() == [None] * 3


def test_best_threshold_cost_with_prevalence_follows_the_iso_slope() -> None:
    # a steeper iso-performance line (rare positives, cheap misses) picks a higher threshold
    df = pr.datasets.simulate(3000, models=["m"], segments=["s"])
    cheap_miss = df.roc.best_threshold(method="cost", prevalence=0.05)["threshold"].item()
    dear_miss = df.roc.best_threshold(method="cost", prevalence=0.05, cost_fn=50.0)[
        "threshold"
    ].item()
    assert cheap_miss > dear_miss


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"cost_fp": 0.0}, "cost_fp"),
        ({"cost_fn": -1.0}, "cost_fn"),
        ({"prevalence": 1.0}, "prevalence"),
        ({"prevalence": 0.0}, "prevalence"),
        ({"method": "f2"}, "method"),
        ({"fpr": (0.5, 0.2)}, "fpr"),
        ({"thresholds": []}, "empty"),
    ],
)
def test_best_threshold_bad_arguments(options: dict[str, object], match: str) -> None:
    df = pl.DataFrame({"score": [0.2, 0.8], "label": [0, 1]})
    with pytest.raises(ValueError, match=match):
        df.lazy().roc.best_threshold(**options)


@pytest.mark.parametrize(
    ("scheme", "match"),
    [
        ([], "empty"),
        (0, "fewer than one"),
        ([0.5, float("nan")], "numbers"),
        ("all", "scheme"),
        (True, "scheme"),
    ],
)
def test_bad_threshold_schemes(scheme: object, match: str) -> None:
    lf = pl.LazyFrame({"score": [0.2, 0.8], "label": [0, 1]})
    with pytest.raises(ValueError, match=match):
        lf.roc.thresholds(thresholds=scheme)
    with pytest.raises(ValueError, match=match):
        lf.roc.curve(thresholds=scheme)


def test_linspace_needs_two() -> None:
    with pytest.raises(ValueError, match="k >= 2"):
        pr.linspace(1)


# ---------------------------------------------------------------- operating points


def polyline(case: Case, *, weighted: bool) -> list[tuple[Fraction, Fraction, float]]:
    """
    ROC vertices (fpr, tpr, threshold), threshold descending.

    Coordinates are the correctly rounded floats of the rates (what any float code holds,
    and what a float target is compared with), then handled in exact arithmetic.
    """
    out = []
    for t in [INF, *sorted(set(case[1]), reverse=True)]:
        tp, fp, tn, fn = brute_counts(case, t, weighted=weighted)
        x, y = float(Fraction(fp, fp + tn)), float(Fraction(tp, tp + fn))
        out.append((Fraction(x), Fraction(y), t))
    return out


def oracle_tpr_at(
    vertices: list[tuple[Fraction, Fraction, float]], f: Fraction
) -> tuple[Fraction, float | None]:
    """Largest TPR of any polyline point at FPR f; its threshold if it is a vertex."""
    best: tuple[Fraction, float | None] | None = None
    for (x0, y0, t0), (x1, y1, t1) in itertools.pairwise(vertices):
        candidates: list[tuple[Fraction, float | None]] = []
        if x0 == f:
            candidates.append((y0, t0))
        if x1 == f:
            candidates.append((y1, t1))
        if x0 < f < x1:
            candidates.append((y0 + (f - x0) * (y1 - y0) / (x1 - x0), None))
        for c in candidates:
            if best is None or c[0] > best[0]:
                best = c
    assert best is not None
    return best


def oracle_fpr_at(
    vertices: list[tuple[Fraction, Fraction, float]], r: Fraction
) -> tuple[Fraction, float | None]:
    """Smallest FPR of any polyline point at TPR r; its threshold if it is a vertex."""
    best: tuple[Fraction, float | None] | None = None
    for (x0, y0, t0), (x1, y1, t1) in itertools.pairwise(vertices):
        candidates: list[tuple[Fraction, float | None]] = []
        if y0 == r:
            candidates.append((x0, t0))
        if y1 == r:
            candidates.append((x1, t1))
        if y0 < r < y1:
            candidates.append((x0 + (r - y0) * (x1 - x0) / (y1 - y0), None))
        for c in candidates:
            if best is None or c[0] < best[0]:
                best = c
    assert best is not None
    return best


TARGETS = [Fraction(i, 12) for i in range(13)] + [Fraction(1, 3), Fraction(2, 5), Fraction(1, 7)]


@pytest.mark.parametrize("weighted", [False, True])
@SETTINGS
@given(case=cases())
@example(case=([True, False, True, False], [0.9, 0.8, 0.7, 0.1], [1, 1, 1, 1]))
@example(case=([True, True, False, False], [0.5, 0.5, 0.5, 0.1], [1, 1, 1, 1]))
def test_operating_points_match_polyline_oracle(case: Case, *, weighted: bool) -> None:
    w = "w" if weighted else None
    vertices = polyline(case, weighted=weighted)
    targets = [float(t) for t in TARGETS]
    at_fpr = frame(case).roc.tpr_at_fpr(fpr=targets, weight=w)
    at_tpr = frame(case).roc.fpr_at_tpr(tpr=targets, weight=w)
    operating_point = ["op_threshold", "op_fpr", "op_tpr"]
    assert at_fpr.columns == at_tpr.columns == ["fpr", "tpr", "threshold", *operating_point]
    assert at_fpr["fpr"].to_list() == targets
    assert at_tpr["tpr"].to_list() == targets
    for target, row in zip(TARGETS, at_fpr.iter_rows(named=True), strict=True):
        tpr, threshold = oracle_tpr_at(vertices, Fraction(float(target)))
        assert row["tpr"] == pytest.approx(float(tpr), abs=1e-12)
        assert row["threshold"] == threshold
    for target, row in zip(TARGETS, at_tpr.iter_rows(named=True), strict=True):
        fpr, threshold = oracle_fpr_at(vertices, Fraction(float(target)))
        assert row["fpr"] == pytest.approx(float(fpr), abs=1e-12)
        assert row["threshold"] == threshold


def test_operating_points_on_vertical_and_horizontal_parts() -> None:
    # vertices: (0,0) (0,1/3) (0,2/3) (1/2,2/3) (1/2,1) (1,1)
    df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.6, 0.5], "label": [1, 1, 0, 1, 0]})
    at_fpr = df.roc.tpr_at_fpr(fpr=[0.0, 0.25, 0.5, 0.75, 1.0])
    assert at_fpr["tpr"].to_list() == pytest.approx([2 / 3, 2 / 3, 1.0, 1.0, 1.0])
    # on the vertical parts: the top vertex and its threshold; in between: null
    assert at_fpr["threshold"].to_list() == [0.8, None, 0.6, None, 0.5]
    at_tpr = df.roc.fpr_at_tpr(tpr=[0.0, 1 / 3, 0.5, 2 / 3, 5 / 6, 1.0])
    assert at_tpr["fpr"].to_list() == pytest.approx([0.0, 0.0, 0.0, 0.0, 0.5, 0.5])
    assert at_tpr["threshold"].to_list() == [INF, 0.9, None, 0.8, None, 0.6]


def test_operating_points_tied_block_is_a_diagonal() -> None:
    # one tied block of 2 positives and 2 negatives: the curve is the chance diagonal
    df = pl.DataFrame({"score": [0.5] * 4, "label": [1, 1, 0, 0]})
    got = df.roc.tpr_at_fpr(fpr=[0.0, 0.5, 1.0])
    assert got["tpr"].to_list() == [0.0, 0.5, 1.0]
    assert got["threshold"].to_list() == [INF, None, 0.5]


def test_operating_points_grouped_lazy_and_undefined() -> None:
    df = pl.DataFrame(
        {
            "g": ["a"] * 5 + ["b"] * 3 + ["c"] * 3,
            "score": [0.9, 0.8, 0.7, 0.6, 0.5, 0.1, 0.2, 0.3, 0.4, float("nan"), 0.3],
            "label": [1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0],
        }
    )
    got = df.roc.tpr_at_fpr(fpr=[0.5, 0.0], by="g")
    assert got["g"].to_list() == ["a", "a", "b", "b", "c", "c"]
    assert got["fpr"].to_list() == [0.5, 0.0] * 3
    assert got["tpr"].to_list()[:2] == pytest.approx([1.0, 2 / 3])
    assert got["tpr"].to_list()[2:] == [None] * 4  # b: no negatives; c: a NaN score
    assert_frame_equal(df.lazy().roc.tpr_at_fpr(fpr=[0.5, 0.0], by="g").collect(), got)
    part = df.filter(pl.col("g") == "a").roc.fpr_at_tpr(tpr=0.5)
    grouped = df.roc.fpr_at_tpr(tpr=0.5, by="g").filter(pl.col("g") == "a").drop("g")
    assert_frame_equal(part, grouped)


@pytest.mark.parametrize("bad", [1.5, -0.1, [0.2, 2.0], [], float("nan")])
def test_operating_point_targets_must_be_rates(bad: object) -> None:
    lf = pl.LazyFrame({"score": [0.2, 0.8], "label": [0, 1]})
    with pytest.raises(ValueError, match="fpr"):
        lf.roc.tpr_at_fpr(fpr=bad)
    with pytest.raises(ValueError, match="tpr"):
        lf.roc.fpr_at_tpr(tpr=bad)


@pytest.mark.parametrize("along", ["fpr", "tpr"])
def test_operating_points_bootstrap_band(along: str) -> None:
    df = pr.datasets.simulate(400, models=["m"], segments=["s"])
    if along == "fpr":
        got = df.roc.tpr_at_fpr(fpr=0.2, ci="bootstrap", seed=1)
        direct = pr.inference.tpr_at_fpr_interval(df.lazy(), fpr=0.2, seed=1).collect()
        point = df.roc.tpr_at_fpr(fpr=0.2)
        reading = "tpr"
    else:
        got = df.roc.fpr_at_tpr(tpr=0.8, ci="bootstrap", seed=1)
        direct = pr.inference.fpr_at_tpr_interval(df.lazy(), tpr=0.8, seed=1).collect()
        point = df.roc.fpr_at_tpr(tpr=0.8)
        reading = "fpr"
    assert_frame_equal(got, direct)
    assert_frame_equal(got.select(point.columns), point)
    row = got.row(0, named=True)
    assert row[f"{reading}_lower"] <= row[reading] <= row[f"{reading}_upper"]
    assert row[f"{reading}_se"] > 0


def test_operating_points_bad_ci() -> None:
    lf = pl.LazyFrame({"score": [0.2, 0.8], "label": [0, 1]})
    with pytest.raises(ValueError, match="ci must be 'bootstrap'"):
        lf.roc.tpr_at_fpr(fpr=0.5, ci="delong")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="ci must be 'bootstrap'"):
        lf.roc.fpr_at_tpr(tpr=0.5, ci=True)  # type: ignore[arg-type]


# ---------------------------------------------------------------- point


@SETTINGS
@given(
    labels=st.lists(st.booleans(), min_size=2, max_size=30),
    data=st.data(),
)
def test_point_matches_sklearn(labels: list[bool], data: st.DataObject) -> None:
    n = len(labels)
    if all(labels) or not any(labels):
        labels[0] = not labels[0]
    preds = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    weights = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    weights[0] = max(weights[0], 1)  # scikit-learn refuses all-zero weights
    df = pl.DataFrame({"label": labels, "pred": preds, "w": weights})
    for weighted in (False, True):
        sw = weights if weighted else None
        got = df.roc.point("pred", weight="w" if weighted else None).row(0, named=True)
        (tn, fp), (fn, tp) = confusion_matrix(labels, preds, labels=[False, True], sample_weight=sw)
        assert (got["tp"], got["fp"], got["tn"], got["fn"]) == (tp, fp, tn, fn)
        tpr = tp / (tp + fn) if tp + fn else None
        fpr = fp / (fp + tn) if fp + tn else None
        assert got["tpr"] == (None if tpr is None else pytest.approx(tpr))
        assert got["fpr"] == (None if fpr is None else pytest.approx(fpr))
        if tpr is None or fpr is None:
            assert got["auc"] is None
            assert got["below_diagonal"] is None
            continue
        # area under (0,0) -> (fpr,tpr) -> (1,1) by trapezoids, and sklearn's AUC of the labels
        area = fpr * tpr / 2 + (1 - fpr) * (tpr + 1) / 2
        assert got["auc"] == pytest.approx(area)
        assert got["auc"] == pytest.approx(roc_auc_score(labels, preds, sample_weight=sw))
        assert got["below_diagonal"] == (tpr < fpr)


def test_point_grouped_string_classes() -> None:
    df = pl.DataFrame(
        {
            "m": ["x", "x", "x", "y", "y", "y", "y"],
            "truth": ["pos", "neg", "pos", "pos", "neg", "neg", None],
            "pred": ["pos", "pos", "neg", "neg", "pos", "neg", "pos"],
        }
    )
    got = df.roc.point("pred", "truth", by="m", pos_label="pos")
    assert got.columns == ["m", "tp", "fp", "tn", "fn", "tpr", "fpr", "auc", "below_diagonal"]
    assert got["tp"].to_list() == [1, 0]
    assert got["fp"].to_list() == [1, 1]
    assert got["tn"].to_list() == [0, 1]
    assert got["fn"].to_list() == [1, 1]
    assert got["below_diagonal"].to_list() == [True, True]
    assert_frame_equal(df.lazy().roc.point("pred", "truth", by="m", pos_label="pos").collect(), got)


def test_point_refuses_float_scores_and_misfit_pos_label() -> None:
    scored = pl.LazyFrame({"pred": [0.9, 0.2], "label": [1, 0]})
    with pytest.raises(pl.exceptions.SchemaError, match="prediction column 'pred'"):
        scored.roc.point("pred")
    codes = pl.LazyFrame({"pred": [1, 0], "label": [1, 0]})
    with pytest.raises(TypeError, match="pos_label 'yes' does not fit"):
        codes.roc.point("pred", pos_label="yes")
    # float class codes work with an explicit pos_label
    floats = pl.DataFrame({"pred": [1.0, 0.0, 1.0], "label": [1.0, 0.0, 0.0]})
    got = floats.roc.point("pred", pos_label=1.0).row(0, named=True)
    assert (got["tp"], got["fp"], got["tn"], got["fn"]) == (1, 1, 1, 0)


@pytest.mark.parametrize("weight", [None, "w"])
def test_best_threshold_of_a_nan_group_still_shows_its_class_sizes(weight: str | None) -> None:
    # A NaN score leaves the group without a defined table (its row is null), but n_pos and
    # n_neg show the class sizes, as auc's do; they were null.
    frame = pl.DataFrame(
        {
            "score": [0.9, float("nan"), 0.3, 0.1, 0.9, 0.2],
            "label": [1, 0, 1, 0, 1, 0],
            "g": ["a", "a", "a", "a", "b", "b"],
            "w": [1.0, 2.0, 1.0, 1.0, 1.0, 3.0],
        }
    )
    got = frame.roc.best_threshold(by="g", weight=weight)
    sizes = frame.roc.auc(by="g", weight=weight).select("g", "n_pos", "n_neg")
    assert got.select("g", "n_pos", "n_neg").equals(sizes)
    assert got["threshold"].to_list() == [None, 0.9]
    assert got.select(pl.len()).item() == 2


@settings(max_examples=60)
@given(
    frame=scored_rows(weighted=True, min_size=2),
    method=st.sampled_from(["youden", "closest_topleft", "cost"]),
    prevalence=st.sampled_from([None, 0.3]),
)
def test_best_threshold_with_integer_weights_equals_repeated_rows(
    frame: pl.DataFrame, method: str, prevalence: float | None
) -> None:
    # Weighted objectives are float sums: rounding once split exact ties, so weights of 2
    # and 3 chose 0.4 where the repeated rows chose 0.6 (J = 2/7 at both).
    repeats = frame["weight"].cast(pl.Int64).to_numpy()
    repeated = frame.select(pl.all().gather(np.repeat(np.arange(frame.height), repeats)))
    options: dict[str, Any] = {"method": method}
    if method == "cost":
        options |= {"cost_fn": 2.0, "prevalence": prevalence}
    got = frame.roc.best_threshold(weight="weight", **options)
    want = repeated.roc.best_threshold(**options)
    assert got["threshold"].item() == want["threshold"].item()


def test_best_threshold_ties_in_float_costs_go_to_the_highest_threshold() -> None:
    # cost_fn=2 at prevalence 0.3: +inf and 0.4 cost the same (0.6) in exact arithmetic.
    frame = pl.DataFrame(
        {"score": [0.2, 0.2, 0, 0.6, 0.2, 0.4, 0, 0.4, 1], "label": [0, 0, 0, 0, 0, 1, 1, 0, 0]}
    )
    got = frame.roc.best_threshold(method="cost", cost_fn=2, prevalence=0.3)
    assert got["threshold"].item() == math.inf
