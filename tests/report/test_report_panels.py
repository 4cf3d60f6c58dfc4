"""The report's gains, KS and calibration panels, its bootstrap band and its log FPR axis.

Oracles: scikit-learn's ``calibration_curve`` and ``roc_curve``, and counts taken from the
raw rows.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from sklearn.calibration import calibration_curve
from sklearn.metrics import roc_auc_score, roc_curve

import polars_roc as pr
from polars_roc import report
from tests.report.test_report import notes, specs, tables

BY = ["model", "segment"]


@pytest.fixture(scope="module")
def scored() -> pl.DataFrame:
    return pr.datasets.simulate(600, seed=21)


@pytest.fixture(scope="module")
def page(scored: pl.DataFrame) -> str:
    return report.to_html(scored.lazy(), by=BY, ci=None, js="cdn")


def rows_of(spec: dict, mark: str) -> list[dict]:
    (data,) = spec["datasets"].values()
    return [row for row in data if row["_mark"] == mark]


def brute_bins(scores: np.ndarray, labels: np.ndarray, bins: int) -> dict[int, tuple[int, int]]:
    """Bin -> (rows, positives) by the documented rule: ceil(bins * c / n), c = rows >= score."""
    out: dict[int, tuple[int, int]] = {}
    for score, label in zip(scores, labels, strict=True):
        at_or_above = int((scores >= score).sum())
        b = math.ceil(bins * at_or_above / len(scores))
        rows, positives = out.get(b, (0, 0))
        out[b] = (rows + 1, positives + int(label))
    return dict(sorted(out.items()))


def test_gains_tables_per_segment_count_the_raw_rows(scored: pl.DataFrame, page: str) -> None:
    found = tables(page)
    segments = sorted(scored["segment"].unique())
    for index, segment in enumerate(segments):
        rows = found[f"gains-table-{index}"]
        assert f"segment = {segment}" in page
        for model in scored["model"].unique():
            part = scored.filter((pl.col("segment") == segment) & (pl.col("model") == model))
            mine = [row for row in rows if row["model"] == model]
            expected = brute_bins(part["score"].to_numpy(), part["label"].to_numpy(), 10)
            shown = {int(r["bin"]): (int(r["rows"]), int(r["positives"])) for r in mine}
            assert shown == expected
            assert mine[-1]["gain"] == "1.000"


def test_every_business_chart_is_drawn_in_the_shared_colours(
    scored: pl.DataFrame, page: str
) -> None:
    found = specs(page)
    assert {"gains", "ks", "calibration"} <= set(found)
    assert notes(page)[1:] == []  # only the CDN note
    models = sorted(scored["model"].unique())
    for key in ("gains", "calibration"):
        text = str(found[key])
        assert f"'domain': {models!r}" in text, key


def test_calibration_matches_scikit_learn_per_group(scored: pl.DataFrame) -> None:
    data = report.compute(scored.lazy(), by=BY, ci=None, calibration_bins=5)
    assert data.calibration is not None
    for (model, segment), part in scored.group_by(BY):
        mine = data.calibration.filter(
            (pl.col("model") == model) & (pl.col("segment") == segment)
        ).sort("mean_score")
        true, predicted = calibration_curve(part["label"], part["score"], n_bins=5)
        np.testing.assert_allclose(mine["fraction_positive"], true, atol=1e-12)
        np.testing.assert_allclose(mine["mean_score"], predicted, atol=1e-12)


def test_scores_outside_unit_interval_say_why_calibration_is_skipped(
    scored: pl.DataFrame,
) -> None:
    logits = scored.with_columns(score=(pl.col("score") / (1 - pl.col("score"))).log())
    page = report.to_html(logits.lazy(), by=BY, ci=None, js="cdn")
    said = [note for note in notes(page) if "Calibration is skipped" in note]
    assert len(said) == 1
    assert logits["score"].min() < 0  # type: ignore[operator]
    assert "the scores run from -" in said[0]
    assert "not probabilities in [0, 1]" in said[0]
    assert "calibration" not in specs(page)
    assert 'id="chart-calibration"' not in page  # a note in its place, never a blank panel
    assert '<section id="calibration">' in page


def test_calibration_can_be_left_out(scored: pl.DataFrame) -> None:
    page = report.to_html(scored.lazy(), by="model", ci=None, calibration_bins=None, js="cdn")
    assert '<section id="calibration">' not in page
    assert "calibration" not in specs(page)
    assert {"gains", "ks"} <= set(specs(page))


def test_many_segments_show_the_first_six_with_a_note() -> None:
    names = [f"s{i:02d}" for i in range(9)]
    frame = pr.datasets.simulate(900, models=["a", "b"], segments=names, seed=3)
    page = report.to_html(frame.lazy(), by=BY, ci=None, js="cdn")
    assert any("first 6 of 9 values of segment" in note for note in notes(page))
    assert sum(key.startswith("gains-table-") for key in tables(page)) == 6
    found = specs(page)
    shown = {row["segment"] for row in rows_of(found["gains"], "model")}
    assert shown == set(names[:6])
    assert {row["segment"] for row in rows_of(found["ks"], "line")} == set(names[:4])
    assert len(tables(page)["auc-table"]) == 18  # the AUC table keeps every segment
    # the score histograms wrap one panel per (model, segment) pair instead of a 9-wide grid
    assert found["scores"]["facet"]["field"] == "model · segment"
    assert found["scores"]["columns"] == 4


def test_bootstrap_band_is_drawn_and_follows_n_boot_and_seed(scored: pl.DataFrame) -> None:
    lf = scored.lazy()
    data = report.compute(lf, by="model", ci="bootstrap", n_boot=200, seed=5)
    again = report.compute(lf, by="model", ci="bootstrap", n_boot=200, seed=5)
    other = report.compute(lf, by="model", ci="bootstrap", n_boot=200, seed=6)
    assert data.band is not None
    assert again.band is not None
    assert other.band is not None
    assert data.band.equals(again.band)
    assert not data.band.equals(other.band)
    # the band brackets each curve's TPR at the grid's FPRs (scikit-learn's curve, read
    # at the highest TPR reached at each FPR, as the step curve does)
    for model, part in scored.group_by("model"):
        fpr, tpr, _ = roc_curve(part["label"], part["score"])
        rows = data.band.filter(pl.col("model") == model[0])
        for row in rows.iter_rows(named=True):
            lo = np.interp(row["fpr"], fpr, tpr)  # the interpolated curve
            assert row["tpr_lower"] - 1e-9 <= row["tpr"] <= row["tpr_upper"] + 1e-9
            assert row["tpr"] == pytest.approx(lo, abs=0.05)
    page = report.render(data, js="cdn")
    band = rows_of(specs(page)["roc"], "band")
    assert {row["model"] for row in band} == set(scored["model"].unique())
    assert "bootstrap confidence band" in page
    assert "200 replicates" in page


def test_log_fpr_scale_starts_at_the_decade_below_the_smallest_fpr(scored: pl.DataFrame) -> None:
    data = report.compute(scored.lazy(), by="model", ci=None, fpr_scale="log")
    page = report.render(data, js="cdn")
    negatives = max((~part["label"]).sum() for _, part in scored.group_by("model"))
    floor = 10.0 ** math.floor(math.log10(1 / negatives))
    for key in ("roc", "pauc"):
        spec = specs(page)[key]
        x = spec["layer"][0]["encoding"]["x"]
        assert x["scale"]["type"] == "log", key
        assert x["scale"]["domain"][0] == pytest.approx(floor), key
        curve = rows_of(spec, "curve")
        assert min(row["_fpr_x"] for row in curve) == pytest.approx(floor)
        assert min(row["fpr"] for row in curve) == 0.0  # tooltips keep FPR = 0
    assert "log scale" in page
    with pytest.raises(ValueError, match="fpr_scale"):
        report.compute(scored.lazy(), fpr_scale="logit")  # type: ignore[arg-type]


def test_bin_arguments_are_checked_before_reading(scored: pl.DataFrame) -> None:
    with pytest.raises(ValueError, match="gains_bins"):
        report.compute(scored.lazy(), gains_bins=0)
    with pytest.raises(ValueError, match="calibration_bins"):
        report.compute(scored.lazy(), calibration_bins=True)  # type: ignore[arg-type]


def softmax_scores(n: int, seed: int) -> pl.DataFrame:
    """Three classes with noisy class probabilities, two segments."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    logits = rng.normal(size=(n, 3)) + 1.5 * np.eye(3)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return pl.DataFrame(
        {
            "y": y,
            "segment": np.where(rng.random(n) < 0.5, "east", "west"),
            **{f"p{c}": proba[:, c] for c in range(3)},
        }
    )


def test_wide_multiclass_scores_show_each_class_against_the_rest() -> None:
    frame = softmax_scores(900, seed=4)
    scores = {0: "p0", 1: "p1", 2: "p2"}
    rows, roles = report.one_vs_rest(frame.lazy(), scores, "y", by="segment")
    assert roles["by"] == ["class", "segment"]
    data = report.compute(rows, **roles, ci=None)
    for segment, part in frame.group_by("segment"):
        proba = part.select("p0", "p1", "p2").to_numpy()
        expected = roc_auc_score(part["y"], proba, multi_class="ovr", average=None)
        mine = data.auc.filter(pl.col("segment") == segment[0]).sort("class")["auc"]
        np.testing.assert_allclose(mine, expected, atol=1e-12)
    page = report.render(data, js="cdn")
    assert notes(page)[1:] == []
    assert set(specs(page)) >= {"roc", "gains", "ks", "calibration"}
    # string classes naming integer labels, and names that collide with the input's
    clash = frame.rename({"segment": "class"})
    rows, roles = report.one_vs_rest(clash.lazy(), ["p0", "p1"], "y", by="class")
    assert roles["by"] == ["class_", "class"]
    assert rows.collect().filter(pl.col("class_") == "p0")["label"].sum() == 0
    rows, roles = report.one_vs_rest(clash.lazy(), {"0": "p0", "1": "p1"}, "y")
    assert roles["by"] == ["class"]
    positives = rows.collect().group_by("class").agg(pl.col("label").sum()).sort("class")
    assert positives["label"].to_list() == [(frame["y"] == 0).sum(), (frame["y"] == 1).sum()]
    with pytest.raises(ValueError, match="at least 2"):
        report.one_vs_rest(frame.lazy(), ["p0"], "y")
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="p9"):
        report.one_vs_rest(frame.lazy(), ["p0", "p9"], "y")
