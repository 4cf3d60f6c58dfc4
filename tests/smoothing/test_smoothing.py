"""Smoothed ROC curves against pROC's published values and independent oracles."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats
from sklearn.metrics import roc_curve

from tests.conftest import asah_long, repeat_rows

#: pROC 1.18 on aSAH (outcome Poor positive, direction "<"): auc(smooth(roc, method=)).
BINORMAL = {"s100b": 0.740012862077, "ndka": 0.600569923700}
DENSITY = {"s100b": 0.724355068396, "ndka": 0.604461786525}
#: auc(smooth(roc_s100b), partial.auc=c(1, 0.9)) (specificity focus).
BINORMAL_PARTIAL_S100B = 0.028221020406


@pytest.fixture(scope="module")
def asah() -> pl.DataFrame:
    return asah_long().with_columns(label=pl.col("outcome") == "Poor")


def by_model(frame: pl.DataFrame, column: str) -> dict[str, float]:
    return dict(zip(frame["model"], frame[column], strict=True))


def test_binormal_auc_is_procs(asah: pl.DataFrame) -> None:
    got = by_model(asah.roc.smooth_auc(by="model"), "auc")
    for model, expected in BINORMAL.items():
        assert got[model] == pytest.approx(expected, abs=1e-9)


def test_binormal_partial_auc_is_procs(asah: pl.DataFrame) -> None:
    got = asah.roc.smooth_auc(by="model", fpr=(0.0, 0.1))
    assert by_model(got, "pauc")["s100b"] == pytest.approx(BINORMAL_PARTIAL_S100B, abs=1e-9)


def test_density_auc_is_procs(asah: pl.DataFrame) -> None:
    got = by_model(asah.roc.smooth_auc(by="model", method="density"), "auc")
    for model, expected in DENSITY.items():
        assert got[model] == pytest.approx(expected, abs=1e-6)


def test_binormal_fit_is_least_squares_on_sklearn_points(asah: pl.DataFrame) -> None:
    # Oracle: scikit-learn's curve points, scipy's probit and linregress.
    for model in ("s100b", "ndka", "wfns"):
        rows = asah.filter(pl.col("model") == model)
        fpr, tpr, _ = roc_curve(rows["label"], rows["score"], drop_intermediate=False)
        inside = (tpr > 0) & (tpr < 1) & (fpr > 0) & (fpr < 1)
        fit = stats.linregress(stats.norm.ppf(tpr[inside]), stats.norm.ppf(1 - fpr[inside]))
        expected = stats.norm.cdf(fit.intercept / np.sqrt(1 + fit.slope**2))
        got = rows.roc.smooth_auc()
        assert got["auc"].item() == pytest.approx(expected, abs=1e-12)
        assert got["n_points"].item() == inside.sum()


def test_binormal_curve_is_the_fitted_line(asah: pl.DataFrame) -> None:
    rows = asah.filter(pl.col("model") == "s100b")
    fpr, tpr, _ = roc_curve(rows["label"], rows["score"], drop_intermediate=False)
    inside = (tpr > 0) & (tpr < 1) & (fpr > 0) & (fpr < 1)
    fit = stats.linregress(stats.norm.ppf(tpr[inside]), stats.norm.ppf(1 - fpr[inside]))
    curve = rows.roc.smooth(n=11)
    assert curve.height == 13
    grid = np.arange(11) / 10
    expected = 1 - stats.norm.cdf(fit.intercept + fit.slope * stats.norm.ppf(grid))
    np.testing.assert_allclose(curve["tpr"].to_numpy()[1:-1], grid, atol=1e-15)
    np.testing.assert_allclose(curve["fpr"].to_numpy()[1:-1], expected, atol=1e-12)
    assert curve.row(0) == (0.0, 0.0)
    assert curve.row(-1) == (1.0, 1.0)


def exact_density(x: np.ndarray, bw: float, grid: np.ndarray) -> np.ndarray:
    """The kernel sum itself (no binning, no FFT)."""
    return stats.norm.pdf((grid[:, None] - x[None, :]) / bw).mean(axis=1) / bw


def test_density_curve_is_near_the_exact_kernel_sum(asah: pl.DataFrame) -> None:
    # R's binned FFT density differs from the exact kernel sum by the binning error only.
    rows = asah.filter(pl.col("model") == "ndka")
    x, y = rows["score"].to_numpy(), rows["label"].to_numpy()
    iqr = np.subtract(*np.quantile(x, [0.75, 0.25]))
    bw = 0.9 * min(x.std(ddof=1), iqr / 1.34) * len(x) ** -0.2
    grid = np.linspace(x.min() - 3 * bw, x.max() + 3 * bw, 512)
    controls, cases = exact_density(x[~y], bw, grid), exact_density(x[y], bw, grid)
    sp = (np.cumsum(controls) - controls) / controls.sum()
    se = np.cumsum(cases[::-1])[::-1] / cases.sum()
    curve = rows.roc.smooth(method="density")
    np.testing.assert_allclose(curve["fpr"].to_numpy()[1:-1], 1 - sp[::-1], atol=2e-3)
    np.testing.assert_allclose(curve["tpr"].to_numpy()[1:-1], se[::-1], atol=2e-3)


@pytest.mark.parametrize("method", ["binormal", "density"])
def test_area_is_the_trapezoids_of_the_curve(asah: pl.DataFrame, method: str) -> None:
    curves = asah.roc.smooth(by="model", method=method)
    areas = asah.roc.smooth_auc(by="model", method=method)
    for model, part in curves.group_by("model"):
        trapezoid = np.trapezoid(part["tpr"].to_numpy(), part["fpr"].to_numpy())
        tolerance = 1e-12 if method == "density" else 1e-4  # binormal: closed form
        assert by_model(areas, "auc")[model[0]] == pytest.approx(trapezoid, abs=tolerance)


@pytest.mark.parametrize("method", ["binormal", "density"])
def test_grouped_equals_one_group_at_a_time_and_lazy_equals_eager(
    asah: pl.DataFrame, method: str
) -> None:
    grouped = asah.roc.smooth_auc(by="model", method=method)
    lazy = asah.lazy().roc.smooth_auc(by="model", method=method).collect()
    assert lazy.equals(grouped)
    for model in ("s100b", "ndka", "wfns"):
        alone = asah.filter(pl.col("model") == model).roc.smooth_auc(method=method)
        expected = by_model(grouped, "auc")[model]
        assert alone["auc"].item() == pytest.approx(expected, abs=1e-14)  # FFT rounding
    curves = asah.roc.smooth(by="model", method=method)
    assert curves.equals(asah.lazy().roc.smooth(by="model", method=method).collect())
    assert curves["model"].value_counts()["count"].to_list() == [514] * 3


def test_binormal_weights_are_repeated_rows() -> None:
    frame = pl.DataFrame(
        {
            "score": [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.2, 0.7, 0.5],
            "label": [0, 1, 1, 0, 0, 1, 0, 1, 1],
            "weight": [1, 2, 1, 3, 1, 2, 1, 1, 2],
        }
    )
    weighted = frame.roc.smooth_auc(weight="weight")
    repeated = repeat_rows(frame).roc.smooth_auc()
    assert weighted["auc"].item() == pytest.approx(repeated["auc"].item(), abs=1e-12)
    curve_w = frame.roc.smooth(weight="weight", n=9)
    curve_r = repeat_rows(frame).roc.smooth(n=9)
    np.testing.assert_allclose(curve_w["fpr"].to_numpy(), curve_r["fpr"].to_numpy(), atol=1e-12)


def test_density_refuses_weights() -> None:
    frame = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1], "weight": [1.0, 2.0]})
    with pytest.raises(ValueError, match="method='density' takes no weight"):
        frame.roc.smooth_auc(weight="weight", method="density")


@pytest.mark.parametrize("method", ["binormal", "density"])
def test_direction_lower_is_the_negated_score(asah: pl.DataFrame, method: str) -> None:
    lower = asah.roc.smooth_auc(by="model", method=method, direction="lower")
    negated = asah.with_columns(-pl.col("score")).roc.smooth_auc(by="model", method=method)
    np.testing.assert_allclose(lower["auc"].to_numpy(), negated["auc"].to_numpy(), atol=1e-12)


OK = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8]


def test_curves_that_cannot_be_smoothed_are_null_with_the_reason() -> None:
    frame = pl.DataFrame(
        {
            "g": ["one_class"] * 3 + ["separated"] * 4 + ["nan"] * 3 + ["ok"] * 6,
            "score": [0.1, 0.2, 0.3, 0.1, 0.2, 0.8, 0.9, 0.1, float("nan"), 0.5, *OK],
            "label": [1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1],
        }
    )
    binormal = frame.roc.smooth_auc(by="g").drop("auc")
    nulls = frame.roc.smooth_auc(by="g")["auc"].is_null().to_list()
    assert nulls == [True, False, True, True]  # nan, ok, one_class, separated
    assert binormal.rows() == [
        ("nan", 2, 1, 0),
        ("ok", 3, 3, 3),
        ("one_class", 3, 0, 0),
        ("separated", 2, 2, 0),  # no point strictly inside: pROC's "not smoothable"
    ]
    density = frame.roc.smooth_auc(by="g", method="density")
    assert density.filter(pl.col("g").is_in(["nan", "one_class"]))["auc"].null_count() == 2
    assert density.filter(pl.col("g") == "separated")["auc"].item() > 0.9
    curves = frame.roc.smooth(by="g")
    assert curves.filter(pl.col("g") == "one_class").rows() == [("one_class", None, None)]


def test_partial_range_checks() -> None:
    frame = pl.DataFrame({"score": [0.1, 0.9], "label": [0, 1]})
    with pytest.raises(ValueError, match="at most one range"):
        frame.roc.smooth_auc(fpr=(0, 0.1), tpr=(0.9, 1))
    with pytest.raises(ValueError, match="method must be one of"):
        frame.roc.smooth_auc(method="logcondens")
    with pytest.raises(ValueError, match="n must be at least 3"):
        frame.roc.smooth(n=2)


def test_tpr_range_is_the_area_beside_the_curve(asah: pl.DataFrame) -> None:
    # Over the whole TPR range the area left of the curve is 1 - auc of the trapezoids.
    rows = asah.filter(pl.col("model") == "ndka")
    whole = rows.roc.smooth_auc(method="density")["auc"].item()
    beside = rows.roc.smooth_auc(method="density", tpr=(0.0, 1.0))["pauc"].item()
    assert beside == pytest.approx(whole, abs=1e-12)
