"""The report's "Over time" section: `--time --every --reference` on the command line."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from polars_roc.cli import main
from tests.report.test_report import tables


def scores(path: Path) -> pl.DataFrame:
    """Six months in two regions; 'north' loses its signal in month 6."""
    rng = np.random.default_rng(3)
    n = 3000
    month = rng.integers(1, 7, n)
    region = rng.choice(["north", "south"], n)
    y = rng.random(n) < 0.3
    signal = np.where((region == "north") & (month == 6), 0.0, 2.0)
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + signal * y - 1)))
    frame = pl.DataFrame(
        {
            "at": [dt.datetime(2024, int(m), 10, 8) for m in month],
            "region": region,
            "p": p,
            "y": y,
        }
    )
    frame.write_parquet(path)
    return frame


def test_cli_adds_the_over_time_section_and_the_headline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, out = tmp_path / "scores.parquet", tmp_path / "report.html"
    frame = scores(data)
    argv = ["report", str(data), "--score", "p", "--label", "y", "--by", "region"]
    argv += ["--time", "at", "--every", "1mo", "--reference", "2024-01-01..2024-04-30"]
    status = main([*argv, "--js", "cdn", "--ci", "none", "-o", str(out)])
    _, err = capsys.readouterr()
    assert status == 0, err
    page = out.read_text()
    notes = re.findall(r'<p class="note">([^<]*)</p>', page)
    assert notes[0].startswith("Latest window (2024-06-01T00:00:00): 1 alert: region north, AUC")
    assert '<a href="#over-time">Over time</a>' in page
    assert 'id="chart-over-time"' in page
    assert 'id="chart-over-time-psi"' in page
    alerts = tables(page)["over-time-alerts"]
    assert [(row["region"], row["window_start"]) for row in alerts] == [
        ("north", "2024-06-01T00:00:00")
    ]
    june = frame.filter(pl.col("region") == "north", pl.col("at").dt.month() == 6)
    assert float(alerts[0]["estimate"]) == pytest.approx(
        roc_auc_score(june["y"], june["p"]), abs=5e-4
    )
    psi = tables(page)["psi-table"]
    assert [row["region"] for row in psi] == ["north", "south"]


def test_section_without_a_reference_says_so() -> None:
    rows = pr.datasets.simulate(600, seed=1).with_columns(t=pl.int_range(pl.len()) % 4)
    data = pr.report.compute(rows.lazy(), by="model", ci=None)
    over_time = pr.report.compute_over_time(
        rows.lazy(), "score", "label", time="t", every="1i", reference=None, by=["model"]
    )
    page = pr.report.render(data, js="cdn", over_time=over_time)
    assert "Latest window (3): no reference period given, so no alerts." in page
    assert "No reference period was given" in page
    assert over_time.stability is None


def test_parse_reference_and_flag_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert pr.report.parse_reference("-3..7") == (-3, 7)
    with pytest.raises(ValueError, match=r"--reference takes START\.\.END"):
        pr.report.parse_reference("2024-01-01")
    data = tmp_path / "scores.parquet"
    scores(data)
    base = ["report", str(data), "--score", "p", "--label", "y", "-o", str(tmp_path / "r.html")]
    assert main([*base, "--reference", "2024-01-01..2024-02-01"]) == 2
    assert "--reference needs --time" in capsys.readouterr().err
    assert main([*base, "--time", "at", "--engine", "duckdb"]) == 2
    assert "--time works with --score and --engine polars" in capsys.readouterr().err
    assert main([*base, "--time", "region"]) == 2
    assert "time column 'region' has dtype String" in capsys.readouterr().err
