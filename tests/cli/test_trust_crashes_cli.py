"""The command on inputs that crashed, were dropped silently or got a message it cannot act on.

Each failure is exit 2 and one line naming the flag or the column; each success is checked
against an independent computation (scikit-learn's AUC on the rows of a window).
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy.stats import ks_2samp
from sklearn.metrics import roc_auc_score

from polars_roc.cli import main
from tests.report.test_report import notes, tables


def run(
    capsys: pytest.CaptureFixture[str], path: Path, out: Path, *flags: str
) -> tuple[int, str, str]:
    argv = ["report", str(path), "--js", "cdn", "-q", "-o", str(out), *flags]
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("polars-roc: error: "), err
    return lines[0]


def _rows(n: int = 600) -> pl.DataFrame:
    rng = np.random.default_rng(3)
    days = [dt.date(2024, 1, 1) + dt.timedelta(days=int(d)) for d in rng.integers(0, 180, n)]
    label = rng.random(n) < 0.3
    return pl.DataFrame(
        {
            "day": days,
            "score": np.round(rng.random(n) + 0.4 * label, 4),
            "label": label.astype(np.int64),
            "region": rng.choice(["east", "west"], n),
            "amt": np.round(rng.random(n) * 100, 2),
        }
    )


@pytest.fixture(scope="module")
def iso_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("trust") / "scores.csv"
    _rows().write_csv(path)  # the dates as ISO text, as any CSV holds them
    return path


ROLES = ("--score", "score", "--label", "label")


# ----------------------------------------------------- 10, 11: --time on a CSV's ISO dates


def test_time_reads_a_csvs_iso_date_column(
    capsys: pytest.CaptureFixture[str], iso_csv: Path, tmp_path: Path
) -> None:
    out = tmp_path / "r.html"
    flags = ["--time", "day", "--reference", "2024-01-01..2024-02-29"]
    status, _, err = run(capsys, iso_csv, out, *ROLES, *flags)
    assert status == 0, err
    (latest,) = tables(out.read_text())["psi-table"]
    rows = _rows()
    june = rows.filter(pl.col("day").dt.month() == 6)["score"].to_numpy()
    reference = rows.filter(pl.col("day") <= dt.date(2024, 2, 29))["score"].to_numpy()
    assert latest["window"].startswith("2024-06-01")
    assert int(latest["rows"].replace(",", "")) == len(june)
    assert int(latest["reference rows"].replace(",", "")) == len(reference)
    assert float(latest["KS"]) == pytest.approx(ks_2samp(june, reference).statistic, abs=5e-4)


def test_time_on_text_that_is_no_date_names_the_flag(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "months.csv"
    _rows().with_columns(day=pl.lit("March")).write_csv(path)
    flags = ["--time", "day", "--reference", "2024-01-01..2024-02-29"]
    status, _, err = run(capsys, path, tmp_path / "r.html", *ROLES, *flags)
    assert status == 2
    line = one_line(err)
    assert "--time" in line
    assert "'day'" in line
    assert "'March'" in line


def test_a_reversed_reference_is_refused(
    capsys: pytest.CaptureFixture[str], iso_csv: Path, tmp_path: Path
) -> None:
    flags = ["--time", "day", "--reference", "2024-03-01..2024-01-01"]
    status, _, err = run(capsys, iso_csv, tmp_path / "r.html", *ROLES, *flags)
    assert status == 2
    line = one_line(err)
    assert "reference" in line
    assert "after its end" in line


def test_python_over_time_on_text_times_is_a_schema_error() -> None:
    frame = _rows().with_columns(pl.col("day").cast(pl.String))
    with pytest.raises(pl.exceptions.SchemaError, match="time column 'day' has dtype String"):
        frame.roc.over_time(time="day", every="1mo", reference=("2024-01-01", "2024-02-29"))


# ------------------------------------------------------ 12: the user's names are theirs


@pytest.mark.parametrize(
    "name", ["segment", "metric", "window_start", "value", "estimate", "auc", "threshold"]
)
def test_our_output_names_never_forbid_a_column_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    path = tmp_path / "named.parquet"
    rows = _rows().with_columns(pl.col("region").alias(name), model=pl.lit("m"))
    rows.with_columns(days=pl.col("amt").cast(pl.Int64), died=pl.col("label")).write_parquet(path)
    flags = ["--by", name, "--segment", "model", "--time", "day", "--every", "1mo"]
    flags += ["--reference", "2024-01-01..2024-02-29", "--gain-tp", "amt", "--capacity", "0.2"]
    flags += ["--time-to-event", "days", "--event", "died"]
    out = tmp_path / "r.html"
    status, stdout, err = run(capsys, path, out, *ROLES, *flags)
    assert status == 0, err
    assert "could not be drawn" not in err
    said = f"--by column {name!r} is shown as {name + '_'!r}"
    assert f"note: {said}" in stdout  # on stdout, and among the page's notes
    assert any(said in note.replace("&#x27;", "'") for note in notes(out.read_text()))
    # the AUC table on stdout holds the user's groups, each with scikit-learn's AUC
    for region in ("east", "west"):
        part = rows.filter(pl.col("region") == region)
        expected = roc_auc_score(part["label"], part["score"])
        line = next(line for line in stdout.splitlines() if f" {region} " in line)
        assert f"{expected:.6f}".rstrip("0") in line


# ------------------------------------------------- 16: --engine with a --gain-tp column


def test_engine_with_a_gain_column_names_the_flag(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("duckdb")
    path = tmp_path / "s.parquet"
    _rows().write_parquet(path)
    flags = ["--engine", "duckdb", "--ci", "delong", "--gain-tp", "amt"]
    status, _, err = run(capsys, path, tmp_path / "r.html", *ROLES, *flags)
    assert status == 2
    line = one_line(err)
    assert "--gain-tp" in line
    assert "'amt'" in line
    assert "--engine polars" in line
    assert "not found" not in line


# -------------------------------------------------------------------- 17: the smaller ones


def test_capacity_zero_without_gain_tp_is_refused_like_any_capacity(
    capsys: pytest.CaptureFixture[str], iso_csv: Path, tmp_path: Path
) -> None:
    messages = []
    for capacity in ("0", "0.5"):
        status, _, err = run(capsys, iso_csv, tmp_path / "r.html", *ROLES, "--capacity", capacity)
        assert status == 2
        messages.append(one_line(err))
    assert messages[0] == messages[1]
    assert "--capacity" in messages[0]
    assert "--gain-tp" in messages[0]


def test_an_all_null_time_to_event_is_not_called_no_event(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "s.parquet"
    rows = _rows().with_columns(days=pl.lit(None, dtype=pl.Int64), died=pl.col("label"))
    rows.write_parquet(path)
    flags = ["--time-to-event", "days", "--event", "died"]
    status, _, err = run(capsys, path, tmp_path / "r.html", *ROLES, *flags)
    assert status == 2
    line = one_line(err)
    assert "'days'" in line
    assert "no observed event" not in line
    assert re.search(r"null", line)


def test_a_group_keeps_its_name_where_no_section_uses_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "s.parquet"
    _rows().rename({"region": "segment"}).write_parquet(path)
    out = tmp_path / "r.html"
    status, _, err = run(capsys, path, out, *ROLES, "--by", "segment")
    assert status == 0, err
    assert {row["segment"] for row in tables(out.read_text())["auc-table"]} == {"east", "west"}
