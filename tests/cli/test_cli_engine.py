"""`polars-roc report --engine duckdb|spark`: the engine tallies the file, the page is the same."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import roc_auc_score

from polars_roc.cli import main
from tests.conftest import DATA
from tests.report.test_report import tables

ASAH = DATA / "aSAH.csv"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("polars-roc: error: ")
    return lines[0]


def page_tables(
    capsys: pytest.CaptureFixture[str], path: Path, out: Path, *flags: str
) -> dict[str, list[dict[str, str]]]:
    argv = ["report", str(path), *flags, "--js", "cdn", "-q", "-o", str(out)]
    status, _, err = run(capsys, *argv)
    assert status == 0, err
    return tables(out.read_text())


def scored(seed: int = 0, n: int = 600) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    outcome = rng.random(n) < 0.35
    return pl.DataFrame(
        {
            "segment": rng.choice(["retail", "business"], n),
            "p": np.round(rng.random(n) * 0.6 + 0.3 * outcome, 2),  # ties
            "outcome": np.where(outcome, "bad", "good"),
            "w": rng.integers(1, 4, n).astype(float),
        }
    )


def same_numbers(left: dict[str, Any], right: dict[str, Any]) -> None:
    """Every table of two pages, cell by cell; numbers compared as numbers (3 vs 3.0).

    An engine's page is built from its tally (weighted rows), where the model comparison's
    DeLong test does not run (a note says so): only the Polars page has that table.
    """
    if "comparison-table" not in left:
        right = {k: v for k, v in right.items() if k != "comparison-table"}
    assert left.keys() == right.keys()
    for key in left:
        assert len(left[key]) == len(right[key]), key
        for a, b in zip(left[key], right[key], strict=True):
            assert a.keys() == b.keys()
            for column in a:
                try:
                    assert float(a[column]) == pytest.approx(float(b[column]), rel=1e-9), column
                except ValueError:
                    assert a[column] == b[column], (key, column)


@pytest.mark.parametrize("suffix", [".parquet", ".csv"])
def test_duckdb_engine_gives_the_polars_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], suffix: str
) -> None:
    frame = scored()
    path = tmp_path / f"scores{suffix}"
    frame.write_parquet(path) if suffix == ".parquet" else frame.write_csv(path)
    flags = ["--score", "p", "--label", "outcome", "--pos-label", "bad", "--by", "segment"]
    flags += ["--weight", "w"]
    polars = page_tables(capsys, path, tmp_path / "polars.html", *flags)
    duck = page_tables(capsys, path, tmp_path / "duck.html", *flags, "--engine", "duckdb")
    same_numbers(duck, polars)
    # and the AUC cells against scikit-learn on the raw rows
    for row in duck["auc-table"]:
        part = frame.filter(pl.col("segment") == row["segment"])
        want = roc_auc_score(part["outcome"] == "bad", part["p"], sample_weight=part["w"])
        assert float(row["AUC"]) == pytest.approx(want, abs=5e-4)


def test_duckdb_engine_reads_a_partitioned_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "scores"
    folder.mkdir()
    frame = scored(1).with_columns(y=pl.col("outcome") == "bad").drop("outcome")
    for index, part in enumerate(frame.iter_slices(250)):
        part.write_parquet(folder / f"part-{index}.parquet")
    flags = ["--score", "p", "--label", "y", "--by", "segment"]
    polars = page_tables(capsys, folder, tmp_path / "polars.html", *flags)
    duck = page_tables(capsys, folder, tmp_path / "duck.html", *flags, "--engine", "duckdb")
    same_numbers(duck, polars)


def test_asah_in_duckdb_matches_proc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--score", "s100b", "--label", "outcome", "--pos-label", "Poor"]
    duck = page_tables(capsys, ASAH, tmp_path / "r.html", *flags, "--engine", "duckdb")
    (row,) = duck["auc-table"]
    assert float(row["AUC"]) == pytest.approx(0.7314, abs=5e-4)  # pROC: auc(aSAH$outcome, s100b)


@pytest.mark.spark
def test_spark_engine_gives_the_polars_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], spark: Any
) -> None:
    path = tmp_path / "scores.parquet"
    scored(2).write_parquet(path)
    flags = ["--score", "p", "--label", "outcome", "--pos-label", "bad", "--by", "segment"]
    polars = page_tables(capsys, path, tmp_path / "polars.html", *flags)
    sparked = page_tables(capsys, path, tmp_path / "spark.html", *flags, "--engine", "spark")
    same_numbers(sparked, polars)


@pytest.mark.parametrize(("engine", "extra"), [("duckdb", "duckdb"), ("spark", "spark")])
def test_a_missing_engine_names_the_pip_extra(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    engine: str,
    extra: str,
) -> None:
    package = {"duckdb": "duckdb", "spark": "pyspark"}[engine]
    monkeypatch.setitem(sys.modules, package, None)  # as if not installed
    path = tmp_path / "s.parquet"
    scored().write_parquet(path)
    argv = ["report", str(path), "--score", "p", "--label", "outcome", "--engine", engine]
    status, _, err = run(capsys, *argv)
    assert status == 2
    line = one_line_error(err)
    assert f"--engine {engine} needs the {package} package" in line
    assert f"pip install 'polars-roc[{extra}]'" in line


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--ci", "bootstrap"], "--ci bootstrap resamples rows, which --engine duckdb tallies"),
        (["--score", "nope"], "score column 'nope' not found"),
        ([], "not Boolean or 0/1: name the positive class with --pos-label"),
    ],
)
def test_engine_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    path = tmp_path / "s.parquet"
    scored().write_parquet(path)
    argv = ["report", str(path), "--label", "outcome", "--engine", "duckdb", "-o"]
    argv += [str(tmp_path / "r.html")]
    if "--score" not in flags:
        argv += ["--score", "p"]
    status, _, err = run(capsys, *argv, *flags)
    assert status == 2
    assert message in one_line_error(err)


def test_engine_refuses_arrow_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.arrow"
    scored().write_ipc(path)
    argv = ["report", str(path), "--score", "p", "--label", "outcome", "--pos-label", "bad"]
    status, _, err = run(capsys, *argv, "--engine", "duckdb", "-o", str(tmp_path / "r.html"))
    assert status == 2
    assert "--engine duckdb reads Parquet" in one_line_error(err)
