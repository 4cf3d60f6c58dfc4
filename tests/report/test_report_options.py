"""The report's settings as one frozen value: checked once, the same as keywords, and reused."""

from __future__ import annotations

import dataclasses
from typing import Any

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_roc as pr
from polars_roc.report import ReportOptions


@pytest.fixture(scope="module")
def scored() -> pl.LazyFrame:
    return pr.datasets.simulate(300, models=["a", "b"], segments=["s"], seed=4).lazy()


def test_options_equal_the_same_keywords(scored: pl.LazyFrame) -> None:
    settings: dict[str, Any] = {
        "ci": None,
        "fpr": (0.0, 0.1),
        "method": "cost",
        "cost_fn": 4.0,
        "gains_bins": 5,
    }
    by_keywords = pr.report.compute(scored, by="model", **settings)
    by_options = pr.report.compute(scored, by="model", options=ReportOptions(**settings))
    for frame in ("auc", "curve", "partial_auc", "best_threshold", "thresholds", "gains"):
        assert_frame_equal(getattr(by_options, frame), getattr(by_keywords, frame))
    assert by_options.roles == by_keywords.roles
    assert by_options.options == by_keywords.options == ReportOptions(**settings)
    # the cost-based cutpoint differs from the default Youden one: the settings were used
    youden = pr.report.compute(scored, by="model", ci=None)
    assert not youden.best_threshold.equals(by_options.best_threshold)


def test_keywords_override_the_options(scored: pl.LazyFrame) -> None:
    base = ReportOptions(ci=None, level=0.9, fpr=(0.0, 0.3))
    data = pr.report.compute(scored, options=base, fpr=(0.0, 0.1))
    assert data.options == dataclasses.replace(base, fpr=(0.0, 0.1))
    assert data.roles["range"] == ("fpr", (0.0, 0.1))
    assert base.fpr == (0.0, 0.3)  # the value given is not changed


def test_options_are_frozen_and_checked_when_made() -> None:
    options = ReportOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.level = 0.9  # type: ignore[misc]
    with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
        ReportOptions(level=1.5)
    with pytest.raises(ValueError, match="n_boot must be at least 2"):
        options.replace(n_boot=1)
    with pytest.raises(ValueError, match="gains_bins must be at least 1, got 0"):
        ReportOptions(gains_bins=0)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        ReportOptions(seed=-1)
    with pytest.raises(ValueError, match="partial-AUC range"):
        ReportOptions(fpr=None)
    with pytest.raises(ValueError, match="js must be"):
        ReportOptions(js="local")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unknown report option 'colour'"):
        options.replace(colour="red")
    assert ReportOptions(cost_fp=2).cost_fp == 2.0  # numbers kept as floats
    assert ReportOptions(tpr=[0.8, 1]).partial_range == ("tpr", (0.8, 1.0))  # type: ignore[arg-type]


def test_a_bad_setting_fails_before_any_data_is_read(tmp_path: pytest.TempPathFactory) -> None:
    missing = pl.scan_parquet(f"{tmp_path}/no-such-file.parquet")
    with pytest.raises(ValueError, match="method must be"):
        pr.report.compute(missing, method="best")
    with pytest.raises(TypeError, match="unknown report option 'leve'"):
        pr.report.to_html(missing, leve=0.9)
    with pytest.raises(TypeError, match="options must be a ReportOptions"):
        pr.report.compute(missing, options={"ci": None})  # type: ignore[arg-type]


def test_render_draws_with_the_options_the_data_was_computed_with(scored: pl.LazyFrame) -> None:
    data = pr.report.compute(scored, ci=None, title="Scorecards", js="cdn")
    page = pr.report.render(data)
    assert "<title>Scorecards</title>" in page
    assert "cdn.jsdelivr.net" in page
    retitled = pr.report.render(data, title="Other")
    assert "<title>Other</title>" in retitled
    assert "cdn.jsdelivr.net" in retitled  # the other settings kept
    page = pr.report.to_html(scored, options=ReportOptions(ci=None, js="cdn", title="T"))
    assert "<title>T</title>" in page
