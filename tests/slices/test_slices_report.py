"""The report's "Weakest slices" section and the command line's ``--slices``."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from polars_roc.cli import main
from tests.report.test_report import tables

FRAME = pr.datasets.simulate(2000, seed=9).rename({"score": "p", "label": "y"})


def test_the_cli_adds_the_weakest_slices_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scores.parquet"
    FRAME.write_parquet(path)
    out = tmp_path / "report.html"
    argv = ["report", str(path), "--score", "p", "--label", "y", "--by", "model"]
    status = main(
        [*argv, "--slices", "segment,fold", "--ci", "none", "--js", "cdn", "-o", str(out)]
    )
    capsys.readouterr()
    assert status == 0
    page = out.read_text()
    assert '<section id="slices"><h2>Weakest slices</h2>' in page
    assert page.index('id="slices"') < page.index('id="roc"')
    rows = tables(page)["slices-table"]
    assert len(rows) == 15
    expected = FRAME.roc.slices("p", "y", features=["segment", "fold"], by="model")
    assert [r["slice"] for r in rows] == expected["slice"].head(15).to_list()
    first = expected.row(0, named=True)
    part = FRAME.filter(pl.col("model") == first["model"], pl.col("segment") == first["segment"])
    if first["fold"] is not None:
        lo, hi = (float(v) for v in first["fold"].strip("[)").split(", "))
        part = part.filter((pl.col("fold") >= lo) & (pl.col("fold") < hi))
    assert first["auc"] == pytest.approx(roc_auc_score(part["y"], part["p"]), abs=1e-12)


def test_without_slices_there_is_no_section() -> None:
    page = pr.report.to_html(FRAME.lazy(), "p", "y", by="model", ci=None, js="cdn")
    assert 'id="slices"' not in page


def test_an_unknown_slice_feature_is_one_line_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scores.parquet"
    FRAME.write_parquet(path)
    argv = ["report", str(path), "--score", "p", "--label", "y", "--slices", "nope"]
    status = main([*argv, "--ci", "none", "--js", "cdn", "-o", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert status != 0
    assert "features column 'nope' not found" in err
