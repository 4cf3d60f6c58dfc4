"""`polars-roc check` from a subprocess: exit 0 / 1 / 2, the input untouched, hostile names."""

from __future__ import annotations

import csv
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import polars_roc as pr
from tests.gates.test_checks import champion_challenger

# The tree whose polars_roc the tests import, for the subprocess to import the same.
ROOT = Path(pr.__file__).resolve().parents[1]

# A segment column whose name and values quote, separate and break lines.
HOSTILE = 'seg,"x"\n;\t{}'


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "polars_roc", "check", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    frame = champion_challenger(n=20_000).rename({"segment": HOSTILE})
    frame = frame.with_columns(pl.col(HOSTILE) + pl.lit(' "q",\n'))
    path = tmp_path_factory.mktemp("gates") / "scores.parquet"
    frame.write_parquet(path)
    return path


def _roles(path: Path) -> list[str]:
    return [
        str(path), "--score", "score", "--label", "label", "--model", "model",
        "--champion", "champion", "--challenger", "challenger", "--case", "case",
        "--by", HOSTILE,
    ]  # fmt: skip


def _read_csv(path: Path) -> pl.DataFrame:
    """RFC 4180 reading by Python's csv module (Polars' reader keeps a header's doubled quotes)."""
    with path.open(newline="") as handle:
        header, *rows = list(csv.reader(handle))
    columns = list(zip(*rows, strict=True))
    frame = pl.DataFrame({name: list(values) for name, values in zip(header, columns, strict=True)})
    return frame.with_columns(pl.col("passed") == "true")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("suffix", [".json", ".csv"])
def test_fail_exits_1_and_the_table_survives_a_round_trip(
    scored: Path, tmp_path: Path, suffix: str
) -> None:
    before = _digest(scored)
    out = tmp_path / f"checks{suffix}"
    done = _run(*_roles(scored), "--margin", "0.02", "--min-auc", "0.6", "-o", str(out))
    assert done.returncode == 1, done.stderr
    assert "FAIL" in done.stderr
    assert _digest(scored) == before  # the input is only read
    back = pl.read_json(out) if suffix == ".json" else _read_csv(out)
    assert back.columns == ["check", HOSTILE, "value", "limit", "passed", "reason"]
    failing = back.filter(~pl.col("passed"))
    assert failing["check"].to_list() == ["non_inferiority"]
    assert failing[HOSTILE].to_list() == ['west "q",\n']
    assert back[HOSTILE].str.ends_with(' "q",\n').all()


def test_pass_exits_0(scored: Path, tmp_path: Path) -> None:
    done = _run(*_roles(scored), "--margin", "0.10", "-o", str(tmp_path / "checks.json"))
    assert done.returncode == 0, done.stderr
    assert "non_inferiority" in done.stdout
    assert pl.read_json(tmp_path / "checks.json")["passed"].all()


@pytest.mark.parametrize(
    ("change", "names"),
    [
        (["--score", "nope"], "--score: column 'nope'"),
        (["--by", "region"], "--by: column 'region'"),
        (["-o", "checks.html"], "-o 'checks.html'"),
        (["--time", "case"], "--time and --reference"),
        (["--max-psi", "0.2"], "--max-psi needs --time"),
        (["--margin", "2"], "margin must be"),
        (["--challenger", "champion"], "two different models"),
    ],
)
def test_bad_input_exits_2_with_one_line(scored: Path, change: list[str], names: str) -> None:
    args = _roles(scored)
    flag = change[0]
    if flag in args:
        args[args.index(flag) + 1] = change[1]
    else:
        args += change
    if "--margin" not in args:
        args += ["--margin", "0.1"]
    done = _run(*args)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert names in lines[0], done.stderr


def test_output_onto_the_input_is_refused(scored: Path) -> None:
    csv = scored.with_suffix(".csv")
    pl.read_parquet(scored).head(2000).write_csv(csv)
    before = _digest(csv)
    args = _roles(csv)
    done = _run(*args, "--margin", "0.1", "-o", str(csv))
    assert done.returncode == 2
    assert "would overwrite the input" in done.stderr
    assert _digest(csv) == before


def test_missing_file_exits_2() -> None:
    done = _run(*_roles(Path("no-such-file.parquet")), "--margin", "0.1")
    assert done.returncode == 2
    assert "file not found" in done.stderr
