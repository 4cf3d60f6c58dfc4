"""The report's value and decision panels and their CLI flags."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import polars_roc as pr
from polars_roc.charts.style import threshold_text
from polars_roc.cli import main


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("value") / "scores.parquet"
    frame = pr.datasets.simulate(600, models=["logit", "gbm"], seed=5)
    amount = np.random.default_rng(0).lognormal(4, 1, frame.height).round(2)
    frame.with_columns(amount=pl.Series(amount)).write_parquet(path)
    return path


def report(path: Path, out: Path, *flags: str) -> int:
    roles = ["--score", "score", "--label", "label", "--by", "model"]
    return main(["report", str(path), *roles, "--js", "cdn", "--quiet", "-o", str(out), *flags])


def test_value_panel_shows_the_value_optimal_threshold(scores: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    flags = ("--gain-tp", "amount", "--cost-fp", "20", "--capacity", "0.05", "--decision-curve")
    assert report(scores, out, *flags) == 0
    page = out.read_text()
    assert '<section id="value">' in page
    assert '<section id="decision">' in page  # the scores are probabilities
    frame = pl.read_parquet(scores)
    expected = frame.roc.best_threshold(
        method="value", gain_tp="amount", cost_fp=20.0, capacity=0.05, by="model"
    )
    table = re.search(r'<table id="value-best">(.*?)</table>', page, re.S)
    assert table is not None
    for model, threshold in expected.select("model", "threshold").iter_rows():
        assert f"<td>{model}</td><td>{threshold_text(threshold)}</td>" in table.group(1)


def test_value_flags_need_gain_tp(
    scores: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert report(scores, tmp_path / "x.html", "--capacity", "0.02") == 2
    assert "--capacity only applies with --gain-tp" in capsys.readouterr().err
    assert report(scores, tmp_path / "x.html", "--gain-tp", "nope") == 2
    assert "gain_tp column 'nope' not found" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def test_no_decision_panel_without_probabilities_or_asking() -> None:
    frame = pr.datasets.simulate(300, seed=1)
    assert set(pr.report.compute(frame.lazy(), ci=None).decisions) == set()
    scaled = frame.with_columns(pl.col("score") * 10)
    data = pr.report.compute(scaled.lazy(), by="model", ci=None, gain_tp=1.0, decision_curve=True)
    assert set(data.decisions) == {"value", "value_best"}
    assert any(note.startswith("No decision curve") for note in data.notes)
