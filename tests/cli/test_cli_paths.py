"""
The CLI's input and output paths over every shape (issue 28 items 8 and 9).

An input path is the file it names, never a glob pattern: a ``[``, ``*`` or ``?`` in a name
is part of the name. Each case places a decoy beside the input that a pattern would match
(its AUC is 0.0, the input's 1.0) and checks the report read the input: the AUC printed and
the AUC written to the page. The output may never be an input, by identity (device and
inode: hard links, symlinks, any spelling): status 2, one line, the input's bytes unchanged.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import polars as pl
import pytest

from polars_roc.cli import main
from tests.report.test_report import tables

#: AUC 1.0: every positive scores above every negative (6 rows).
GOOD = pl.DataFrame({"p": [0.9, 0.8, 0.7, 0.4, 0.3, 0.1], "y": [1, 1, 1, 0, 0, 0]})
#: AUC 0.0, 8 rows: what a pattern would wrongly read instead.
DECOY = pl.DataFrame({"p": [0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.2, 0.1], "y": [0, 0, 0, 0, 1, 1, 1, 1]})


def write(frame: pl.DataFrame, path: Path) -> None:
    if path.suffix == ".csv":
        frame.write_csv(path)
    elif path.suffix == ".parquet":
        frame.write_parquet(path)
    else:
        frame.write_ipc(path)


def report(
    capsys: pytest.CaptureFixture[str], path: Path | str, out: Path | str, *extra: str
) -> tuple[int, str, str]:
    argv = ["report", str(path), "--score", "p", "--label", "y", "-q", "--js", "cdn"]
    status = main([*argv, "-o", str(out), *extra])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def printed_auc(stdout: str) -> float:
    """The AUC of the one-group table printed on stdout (its first column)."""
    found = re.search(r"^│\s*([0-9.]+)\s*┆", stdout, flags=re.MULTILINE)
    assert found, stdout
    return float(found.group(1))


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("polars-roc: error: "), err
    assert "Traceback" not in err
    return lines[0]


# name of the input, and a decoy name its pattern would match
SHAPES = [
    ("scores[1].csv", "scores1.csv"),
    ("scores[ab].parquet", "scoresa.parquet"),
    ("s*res.csv", "sXres.csv"),
    ("sc?res.arrow", "scXres.arrow"),
    ("with space.csv", "with_space.csv"),
    ("ünïcødé ✓ [x].csv", "ünïcødé ✓ x.csv"),
    ("[*?].parquet", "a.parquet"),
]


@pytest.mark.parametrize(("name", "decoy"), SHAPES)
def test_the_input_is_the_file_named_not_a_pattern(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, decoy: str
) -> None:
    data = tmp_path / name
    write(GOOD, data)
    write(DECOY, tmp_path / decoy)
    before = data.read_bytes()
    out = tmp_path / "out.html"
    status, stdout, err = report(capsys, data, out)
    assert status == 0, err
    assert printed_auc(stdout) == 1.0
    (row,) = tables(out.read_text())["auc-table"]
    assert float(row["AUC"]) == 1.0
    assert (row["positives"], row["negatives"]) == ("3", "3")
    assert data.read_bytes() == before


def test_a_bracketed_name_that_matches_nothing_else_is_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "scores[1].csv"  # as a pattern it matches nothing: not "file not found"
    write(GOOD, data)
    status, stdout, err = report(capsys, data, tmp_path / "out.html")
    assert status == 0, err
    assert printed_auc(stdout) == 1.0


def test_a_pattern_naming_no_file_is_not_found(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    write(GOOD, tmp_path / "a1.csv")
    status, _, err = report(capsys, tmp_path / "a*.csv", tmp_path / "out.html")
    assert status == 2
    assert "file not found" in one_line(err)


def test_a_bracketed_directory_of_parquet_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "parts[1]"
    folder.mkdir()
    write(GOOD.head(3), folder / "a.parquet")
    write(GOOD.tail(3), folder / "b.parquet")
    decoy = tmp_path / "parts1"
    decoy.mkdir()
    write(DECOY, decoy / "a.parquet")
    status, stdout, err = report(capsys, folder, tmp_path / "out.html")
    assert status == 0, err
    assert printed_auc(stdout) == 1.0


# ------------------------------------------------------------- the output is never an input


def spelled(tmp_path: Path, data: Path, how: str) -> Path:
    """Another path to the same file (or the same path)."""
    if how == "same":
        return data
    if how == "hard link":
        link = tmp_path / "other" / "hard.csv"
        link.parent.mkdir(exist_ok=True)
        os.link(data, link)
        return link
    if how == "symlink":
        link = tmp_path / "soft.html"
        link.symlink_to(data)
        return link
    if how == "symlink to a symlink":
        first = tmp_path / "first"
        first.symlink_to(data)
        second = tmp_path / "second.html"
        second.symlink_to(first)
        return second
    if how == "directory symlink":
        folder = tmp_path / "alias"
        folder.symlink_to(data.parent, target_is_directory=True)
        return folder / data.name
    if how == "dotted":
        (tmp_path / "sub").mkdir(exist_ok=True)
        return data.parent / "sub" / ".." / data.name
    raise AssertionError(how)


HOWS = ["same", "hard link", "symlink", "symlink to a symlink", "directory symlink", "dotted"]


@pytest.mark.parametrize("how", HOWS)
@pytest.mark.parametrize("name", ["scores.csv", "scores[1].csv", "a b ✓*.csv"])
def test_output_onto_the_input_by_identity_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, how: str
) -> None:
    data = tmp_path / name
    write(GOOD, data)
    before = data.read_bytes()
    out = spelled(tmp_path, data, how)
    status, _, err = report(capsys, data, out)
    assert status == 2
    assert "would overwrite the input" in one_line(err)
    assert data.read_bytes() == before


def test_output_onto_the_input_through_a_hard_linked_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "scores.csv"
    write(GOOD, data)
    link = tmp_path / "scores[1].csv"  # the input is read through a bracketed hard link
    os.link(data, link)
    before = data.read_bytes()
    status, _, err = report(capsys, link, data)
    assert status == 2
    assert "would overwrite the input" in one_line(err)
    assert data.read_bytes() == before


def test_output_onto_a_decoy_is_not_an_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The file a pattern would match is not an input: writing it is allowed."""
    data = tmp_path / "scores[1].csv"
    write(GOOD, data)
    decoy = tmp_path / "scores1.csv"
    write(DECOY, decoy)
    status, _, err = report(capsys, data, decoy)
    assert status == 0, err
    assert decoy.read_text().startswith("<!DOCTYPE html>")


def test_output_inside_a_bracketed_input_directory_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "parts[1]"
    folder.mkdir()
    write(GOOD, folder / "a.parquet")
    before = (folder / "a.parquet").read_bytes()
    alias = tmp_path / "alias"
    alias.symlink_to(folder, target_is_directory=True)
    status, _, err = report(capsys, folder, alias / "report.html")
    assert status == 2
    assert "would overwrite the input" in one_line(err)
    assert (folder / "a.parquet").read_bytes() == before
    assert not (folder / "report.html").exists()


def test_class_scores_refuse_a_hard_linked_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "wide[1].csv"
    pl.DataFrame({"a": [0.9, 0.2, 0.1], "b": [0.1, 0.8, 0.9], "y": ["a", "b", "b"]}).write_csv(data)
    before = data.read_bytes()
    link = tmp_path / "link.html"
    os.link(data, link)
    argv = ["report", str(data), "--class-scores", "a,b", "--label", "y", "-q", "--js", "cdn"]
    status = main([*argv, "-o", str(link)])
    err = capsys.readouterr().err
    assert status == 2
    assert "would overwrite the input" in one_line(err)
    assert data.read_bytes() == before


@pytest.mark.parametrize("name", ["scores[1].parquet", "s*.csv", "s?.csv", "s{a,b}.csv"])
def test_engines_refuse_a_name_they_would_read_as_a_pattern(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    """DuckDB (and Spark) expand patterns with no way to turn it off: refuse, never misread."""
    pytest.importorskip("duckdb")
    data = tmp_path / name
    write(GOOD, data)
    write(DECOY, tmp_path / "scores1.parquet")
    status, _, err = report(capsys, data, tmp_path / "out.html", "--engine", "duckdb")
    assert status == 2
    assert "--engine duckdb would read" in one_line(err)
    assert "rename it or use --engine polars" in err
