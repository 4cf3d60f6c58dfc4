"""Partial AUC over FPR and TPR ranges, against scikit-learn and a fine numerical integral."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score, roc_curve

import polars_roc  # noqa: F401  (registers the .roc namespaces)
from tests.conftest import DATA, scored_rows


def _two_classes(frame: pl.DataFrame) -> bool:
    return frame["label"].any() and not frame["label"].all()


def _area_to(x: np.ndarray, y: np.ndarray, b: float) -> float:
    """Area under the polyline (x ascending) on [0, b], as scikit-learn computes max_fpr."""
    stop = int(np.searchsorted(x, b, "right"))
    if stop == len(x):
        return float(np.trapezoid(y, x))
    y_b = np.interp(b, x[stop - 1 : stop + 1], y[stop - 1 : stop + 1])
    return float(np.trapezoid(np.r_[y[:stop], y_b], np.r_[x[:stop], b]))


def _integral(x: np.ndarray, y: np.ndarray, lo: float, hi: float) -> float:
    return _area_to(x, y, hi) - _area_to(x, y, lo)


@given(frame=scored_rows(min_size=2), max_fpr=st.sampled_from([0.1, 0.25, 0.3, 0.5, 0.8, 1.0]))
def test_standardized_pauc_equals_sklearn_max_fpr(frame: pl.DataFrame, max_fpr: float) -> None:
    got = frame.roc.partial_auc(fpr=(0.0, max_fpr))
    assert got.columns == ["pauc", "pauc_std", "n_pos", "n_neg"]
    if not _two_classes(frame):
        assert got["pauc"].item() is None
        assert got["pauc_std"].item() is None
        return
    expected = roc_auc_score(frame["label"], frame["score"], max_fpr=max_fpr)
    # Below the chance diagonal too (scikit-learn's value is then below 0.5).
    assert got["pauc_std"].item() == pytest.approx(expected, abs=1e-12)


@given(
    frame=scored_rows(min_size=2, pool=None),
    bounds=st.tuples(st.floats(0, 1), st.floats(0, 1)).filter(lambda b: abs(b[0] - b[1]) > 0.01),
    focus=st.sampled_from(["fpr", "tpr"]),
)
def test_pauc_is_the_integral_over_the_range(
    frame: pl.DataFrame, bounds: tuple[float, float], focus: str
) -> None:
    if not _two_classes(frame):
        return
    lo, hi = sorted(bounds)
    fpr, tpr, _ = roc_curve(frame["label"], frame["score"], drop_intermediate=False)
    if focus == "fpr":
        expected = _integral(fpr, tpr, lo, hi)
        chance = (hi**2 - lo**2) / 2
    else:  # specificity integrated over sensitivity (pROC's focus="sensitivity")
        expected = _integral(tpr, 1 - fpr, lo, hi)
        chance = (hi - lo) - (hi**2 - lo**2) / 2
    got = frame.roc.partial_auc(**{focus: (lo, hi)}).row(0, named=True)
    assert got["pauc"] == pytest.approx(expected, abs=1e-12)
    mcclish = (1 + (expected - chance) / ((hi - lo) - chance)) / 2
    assert got["pauc_std"] == pytest.approx(mcclish)
    assert (got["pauc_std"] >= 0.5 - 1e-12) == (expected >= chance - 1e-12)


def test_full_range_is_the_auc() -> None:
    rng = np.random.default_rng(0)
    frame = pl.DataFrame({"score": rng.integers(0, 30, 500), "label": rng.random(500) < 0.3})
    auc = frame.roc.auc()["auc"].item()
    assert frame.roc.partial_auc(fpr=(0, 1))["pauc"].item() == pytest.approx(auc)
    assert frame.roc.partial_auc(tpr=(0, 1))["pauc"].item() == pytest.approx(auc)
    assert frame.roc.partial_auc(fpr=(0, 1))["pauc_std"].item() == pytest.approx(auc)


@given(frame=scored_rows(groups=3, weighted=True))
def test_grouped_lazy_partial_auc_equals_per_group(frame: pl.DataFrame) -> None:
    grouped = frame.lazy().roc.partial_auc(fpr=(0.1, 0.4), by="group", weight="weight")
    assert isinstance(grouped, pl.LazyFrame)
    got = grouped.collect()
    streamed = grouped.collect(engine="streaming")
    for name in got.columns:  # float sums may differ in the last bit with summation order
        assert streamed[name].to_list() == pytest.approx(got[name].to_list())
    for row in got.iter_rows(named=True):
        part = frame.filter(pl.col("group") == row.pop("group"))
        alone = part.roc.partial_auc(fpr=(0.1, 0.4), weight="weight").row(0, named=True)
        assert row == pytest.approx(alone)


# pROC's own tests (tests/testthat/test-auc.R and print_output/) on aSAH, outcome Poor = case:
# partial.auc=c(1, .9) on specificity is fpr=(0, .1); focus="se" ranges are TPR ranges.
PROC = [
    ("wfns", {"fpr": (0.0, 0.1)}, 0.0334417344173442, 0.649693339038653),
    ("wfns", {"fpr": (0.1, 0.2)}, 0.0598373983739837, 0.763749402199904),
    ("wfns", {"fpr": (0.5, 1.0)}, 0.488134475939354, 0.952537903757416),
    ("ndka", {"fpr": (0.0, 0.1)}, 0.0107046070460705, 0.530024247610897),
    ("ndka", {"fpr": (0.1, 0.2)}, 0.0277777777777778, 0.575163398692811),
    ("ndka", {"fpr": (0.5, 1.0)}, 0.416836043360434, 0.667344173441734),
    ("wfns", {"tpr": (0.9, 1.0)}, 0.0400999322493225, 0.68473648552275),
    ("wfns", {"tpr": (0.8, 0.9)}, 0.0609953703703703, 0.770561002178649),
    ("wfns", {"tpr": (0.0, 0.5)}, 0.483358739837398, 0.933434959349593),
    ("ndka", {"tpr": (0.9, 1.0)}, 0.0037940379403794, None),  # below the diagonal: NA
    ("ndka", {"tpr": (0.8, 0.9)}, 0.0242547425474255, 0.554439662043679),
    ("ndka", {"tpr": (0.0, 0.5)}, 0.428523035230352, 0.714092140921409),
    ("s100b", {"fpr": (0.01, 0.1)}, 0.02983, None),
    ("s100b", {"tpr": (0.9, 0.99)}, 0.01376, None),
    ("wfns", {"fpr": (0.0, 1.0)}, 0.823678861788618, 0.823678861788618),
    ("ndka", {"tpr": (0.0, 1.0)}, 0.611957994579946, 0.611957994579946),
]


@pytest.mark.parametrize(("marker", "bounds", "pauc", "pauc_std"), PROC)
def test_partial_auc_on_aSAH_matches_pROC(
    marker: str, bounds: dict[str, tuple[float, float]], pauc: float, pauc_std: float | None
) -> None:
    asah = pl.read_csv(DATA / "aSAH.csv")
    got = asah.roc.partial_auc(marker, "outcome", pos_label="Poor", **bounds).row(0, named=True)
    digits = 5e-6 if marker == "s100b" else 1e-12  # pROC prints s100b's to 4 significant digits
    assert got["pauc"] == pytest.approx(pauc, abs=digits)
    if pauc_std is None and marker == "ndka":  # pROC: NA below the diagonal; ours: below 0.5
        lo, hi = bounds["tpr"]
        chance = (hi - lo) - (hi * hi - lo * lo) / 2
        assert got["pauc_std"] == pytest.approx((1 + (pauc - chance) / (hi - lo - chance)) / 2)
        assert got["pauc_std"] < 0.5
    elif pauc_std is not None:
        assert got["pauc_std"] == pytest.approx(pauc_std, abs=1e-12)
    assert (got["n_pos"], got["n_neg"]) == (41, 72)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "exactly one range"),
        ({"fpr": (0, 0.2), "tpr": (0, 0.2)}, "exactly one range"),
        ({"fpr": (0.3, 0.2)}, "0 <= lo < hi <= 1"),
        ({"fpr": (-0.1, 0.2)}, "0 <= lo < hi <= 1"),
        ({"tpr": (0.5, 1.5)}, "0 <= lo < hi <= 1"),
        ({"fpr": 0.2}, "pair"),
    ],
)
def test_bad_ranges_are_refused(kwargs: dict[str, object], message: str) -> None:
    frame = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1]})
    with pytest.raises(ValueError, match=message):
        frame.roc.partial_auc(**kwargs)
