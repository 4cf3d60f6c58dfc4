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
from tests.report.test_report import notes, tables


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
    assert "fell below its reference band" in notes[0]
    assert '<a href="#over-time">Over time</a>' in page
    assert 'id="chart-over-time"' in page
    assert 'id="chart-over-time-psi"' in page
    alerts = tables(page)["over-time-alerts"]
    assert [(row["region"], row["window"], row["change"]) for row in alerts] == [
        ("north", "2024-06-01T00:00:00", "fell")
    ]
    june = frame.filter(pl.col("region") == "north", pl.col("at").dt.month() == 6)
    assert float(alerts[0]["AUC"]) == pytest.approx(roc_auc_score(june["y"], june["p"]), abs=5e-4)
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


def small_window_rows() -> pl.DataFrame:
    """Windows 0-5 hold 60 positives and 140 negatives each, scored well; window 6 holds
    one positive among 44 negatives, scored below every negative (its AUC is 0)."""
    rng = np.random.default_rng(11)
    parts = []
    for t in range(6):
        y = np.r_[np.ones(60, bool), np.zeros(140, bool)]
        parts.append(pl.DataFrame({"t": t, "y": y, "p": rng.normal(size=200) + 2.0 * y}))
    y = np.r_[True, np.zeros(44, bool)]
    p = np.r_[-10.0, rng.normal(size=44)]
    parts.append(pl.DataFrame({"t": 6, "y": y, "p": p}))
    return pl.concat(parts)


def test_a_window_below_the_minimum_count_is_drawn_but_never_alerted() -> None:
    rows = small_window_rows()
    late = rows.filter(pl.col("t") == 6)
    assert roc_auc_score(late["y"], late["p"]) == 0.0  # far below any reference band
    common = {"time": "t", "every": "1i", "reference": (0, 3), "by": []}
    small = pr.report.compute_over_time(rows.lazy(), "p", "y", **common)  # default 10
    window = small.frame.filter(pl.col("window_start") == 6).row(0, named=True)
    assert (window["n_pos"], window["n_neg"], window["estimate"]) == (1, 44, 0.0)
    assert (window["alert"], window["change"]) == (False, "fell")
    assert window["reason"] == "1 positive(s) < 10"
    # the same window alerts when one positive is enough
    one = pr.report.compute_over_time(rows.lazy(), "p", "y", **common, min_count=1)
    alerted = one.frame.filter(pl.col("alert"))
    assert alerted["window_start"].to_list() == [6]
    assert alerted["change"].to_list() == ["fell"]
    data = pr.report.compute(rows.lazy(), "p", "y", ci=None)
    page = pr.report.render(data, js="cdn", over_time=small)
    assert "no alerts (1 out-of-band group(s) hold fewer than 10 positives" in notes(page)[0]
    shown = tables(page)["over-time-small"]
    assert [(r["window"], r["positives"], r["not alerted because"]) for r in shown] == [
        ("6", "1", "1 positive(s) < 10")
    ]
    assert "over-time-alerts" not in tables(page)
    page = pr.report.render(data, js="cdn", over_time=one)
    assert "1 alert: all rows, AUC 0.000 fell below its reference band" in notes(page)[0]


def test_a_rising_window_says_rose() -> None:
    rng = np.random.default_rng(5)
    parts = []
    for t in range(6):  # weak signal, then a strong one in the last window
        y = rng.random(400) < 0.3
        lift = 4.0 if t == 5 else 0.5
        parts.append(pl.DataFrame({"t": t, "y": y, "p": rng.normal(size=400) + lift * y}))
    rows = pl.concat(parts)
    common = {"time": "t", "every": "1i", "reference": (0, 3), "by": []}
    data = pr.report.compute_over_time(rows.lazy(), "p", "y", **common)
    alerted = data.frame.filter(pl.col("alert"))
    assert alerted["window_start"].to_list() == [5]
    assert alerted["change"].to_list() == ["rose"]
    assert "rose above its reference band" in pr.report._monitoring.headline(data)


def test_min_count_is_checked() -> None:
    rows = small_window_rows().lazy()
    for bad in (-1, float("nan"), "10", True):
        with pytest.raises(ValueError, match="min_count must be a finite number >= 0"):
            pr.report.compute_over_time(
                rows, "p", "y", time="t", every="1i", reference=(0, 3), by=[], min_count=bad
            )
    with pytest.raises(ValueError, match="min_count must be a finite number >= 0"):
        pr.report.ReportOptions(min_count=-2)


def test_cli_min_count_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, out = tmp_path / "rows.parquet", tmp_path / "report.html"
    small_window_rows().write_parquet(data)
    argv = ["report", str(data), "--score", "p", "--label", "y", "--time", "t"]
    argv += ["--every", "1i", "--reference", "0..3", "--js", "cdn", "--ci", "none", "-q"]
    assert main([*argv, "-o", str(out)]) == 0
    assert "no alerts (1 out-of-band" in notes(out.read_text())[0]
    assert main([*argv, "--min-count", "1", "-o", str(out)]) == 0
    assert "1 alert: all rows, AUC 0.000 fell below" in notes(out.read_text())[0]
    capsys.readouterr()
    bad = ["report", str(data), "--score", "p", "--label", "y", "--min-count", "5"]
    assert main([*bad, "-o", str(out)]) == 2
    assert "--min-count applies to the over-time alerts" in capsys.readouterr().err
    assert main([*argv, "--min-count", "-3", "-o", str(out)]) == 2
    assert "--min-count must be a finite number >= 0, got -3" in capsys.readouterr().err


def test_the_chart_draws_one_line_per_group(tmp_path: Path) -> None:
    """The section's own columns (n_neg, change, reason) do not split the chart's lines."""
    frame = scores(tmp_path / "scores.parquet")
    data = pr.report.compute_over_time(
        frame.lazy(), "p", "y", time="at", every="1mo",
        reference=(dt.datetime(2024, 1, 1), dt.datetime(2024, 4, 30)), by=["region"],
    )  # fmt: skip
    assert {"n_neg", "change", "reason"} <= set(data.frame.columns)
    spec = pr.report._monitoring.figures(data)["over-time"]().to_dict()
    want = pr.charts.over_time_chart(
        data.frame.drop("n_neg", "change", "reason"), facet="region", columns=2, width=380
    ).to_dict()
    assert spec == want
    text = repr(spec["spec"]["layer"])
    for column in ("n_neg", "change", "reason"):
        assert f"'field': '{column}'" not in text
