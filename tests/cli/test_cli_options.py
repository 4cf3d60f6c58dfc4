"""The command's cost and bootstrap options, checked against brute force, and its help text."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from polars_roc.cli import main
from tests.report.test_report import tables


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cli") / "scores.parquet"
    pr.datasets.simulate(400, models=["logit", "gbm"], seed=5).write_parquet(path)
    return path


def report(path: Path, out: Path, *flags: str) -> int:
    roles = ["--score", "score", "--label", "label", "--by", "model"]
    return main(["report", str(path), *roles, "--js", "cdn", "--quiet", "-o", str(out), *flags])


def least_cost(labels: np.ndarray, scores: np.ndarray, cost_fp: float, cost_fn: float) -> float:
    """The smallest cost_fp * FP + cost_fn * FN over every threshold (predict nothing too)."""
    best = cost_fn * labels.sum()  # nothing predicted positive
    for t in np.unique(scores):
        predicted = scores >= t
        cost = cost_fp * (predicted & ~labels).sum() + cost_fn * (~predicted & labels).sum()
        best = min(best, cost)
    return float(best)


def test_cost_flags_choose_the_least_cost_cutpoint(
    scores: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cost.html"
    assert report(scores, out, "--method", "cost", "--cost-fp", "1", "--cost-fn", "6") == 0
    page = out.read_text()
    frame = pl.read_parquet(scores)
    for row in tables(page)["cutpoint-table"]:
        part = frame.filter(pl.col("model") == row["model"])
        labels, values = part["label"].to_numpy(), part["score"].to_numpy()
        cost = 1 * int(row["fp"].replace(",", "")) + 6 * int(row["fn"].replace(",", ""))
        assert cost == least_cost(labels, values, 1.0, 6.0)
    assert "false positive 1, false negative 6" in page
    capsys.readouterr()


def test_prevalence_flag_weighs_the_costs(scores: Path, tmp_path: Path) -> None:
    out = tmp_path / "prevalence.html"
    flags = ["--method", "cost", "--cost-fn", "4", "--prevalence", "0.5"]
    assert report(scores, out, *flags) == 0
    frame = pl.read_parquet(scores)
    for row in tables(out.read_text())["cutpoint-table"]:
        part = frame.filter(pl.col("model") == row["model"])
        labels = part["label"].to_numpy()
        pos, neg = labels.sum(), (~labels).sum()
        tpr, fpr = float(row["TPR"]), float(row["FPR"])
        # brute force: the expected cost at prevalence 0.5 of every threshold
        values = part["score"].to_numpy()
        costs = [4 * 0.5 * 1.0]  # predict nothing: every positive missed
        for t in np.unique(values):
            p = values >= t
            costs.append(4 * 0.5 * (~p & labels).sum() / pos + 0.5 * (p & ~labels).sum() / neg)
        assert 4 * 0.5 * (1 - tpr) + 0.5 * fpr == pytest.approx(min(costs), abs=2e-3)


def test_bootstrap_flags_are_used_and_repeatable(scores: Path, tmp_path: Path) -> None:
    pages = []
    for seed in ("3", "3", "4"):
        out = tmp_path / f"boot{len(pages)}.html"
        flags = ["--ci", "bootstrap", "--n-boot", "200", "--seed", seed]
        assert report(scores, out, *flags) == 0
        pages.append(out.read_text())
    assert "200 replicates, seed 3" in pages[0]
    first, again, other = (tables(page)["auc-table"] for page in pages)
    assert first == again  # the same seed, the same intervals
    assert first != other
    assert "Bootstrap 95% confidence intervals" in pages[0]


def test_flags_for_another_method_are_an_error(
    scores: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert report(scores, tmp_path / "x.html", "--cost-fn", "5") == 2
    err = capsys.readouterr().err
    assert "--cost-fn only applies with --method cost" in err
    assert report(scores, tmp_path / "x.html", "--n-boot", "50") == 2
    assert "--n-boot only applies with --ci bootstrap" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def test_demo_help_prints_a_plain_percent_sign(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    out = capsys.readouterr().out
    assert re.search(r"12% positives", out)
    assert "%%" not in out
    for flag in ("--cost-fp", "--cost-fn", "--prevalence", "--n-boot", "--seed"):
        assert flag in out


def test_delong_is_spelled_right(scores: Path, tmp_path: Path) -> None:
    out = tmp_path / "delong.html"
    assert report(scores, out) == 0
    page = out.read_text()
    assert "DeLong 95%" in page
    assert "Delong" not in page


def test_panel_flags(scores: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "panels.html"
    assert report(scores, out, "--gains-bins", "5", "--fpr-scale", "log") == 0
    page = out.read_text()
    gains = tables(page)["gains-table"]  # one group column: one table
    assert sorted({int(row["bin"]) for row in gains}) == [1, 2, 3, 4, 5]
    assert sum(int(row["rows"]) for row in gains) == pl.read_parquet(scores).height
    assert '"type":"log"' in page
    assert '<section id="calibration">' in page
    assert report(scores, out, "--no-calibration") == 0
    assert '<section id="calibration">' not in out.read_text()
    capsys.readouterr()


def test_bad_panel_flags_are_an_error(
    scores: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert report(scores, tmp_path / "x.html", "--gains-bins", "0") == 2
    assert "--gains-bins must be at least 1, got 0" in capsys.readouterr().err
    assert report(scores, tmp_path / "x.html", "--calibration-bins", "-1") == 2
    assert "--calibration-bins must be at least 1" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:
        report(scores, tmp_path / "x.html", "--no-calibration", "--calibration-bins", "5")
    assert stopped.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
    assert not (tmp_path / "x.html").exists()


def test_help_names_the_panel_flags(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for text in (
        "--gains-bins N bins of the gains tables",
        "--no-calibration leave out the calibration panel",
        "--fpr-scale {linear,log}",
        "bootstrap also shades each ROC curve's confidence band",
    ):
        assert text in out


def test_class_scores_report_each_class_against_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = np.random.default_rng(8)
    y = rng.choice(["cat", "dog", "owl"], 300)
    proba = rng.dirichlet([1, 1, 1], 300) + 0.6 * (y[:, None] == np.array(["cat", "dog", "owl"]))
    proba /= proba.sum(axis=1, keepdims=True)
    path = tmp_path / "three.csv"
    pl.DataFrame(
        {"y": y, "p_cat": proba[:, 0], "p_dog": proba[:, 1], "p_owl": proba[:, 2]}
    ).write_csv(path)
    out = tmp_path / "three.html"
    flags = ["--class-scores", "cat=p_cat,dog=p_dog,owl=p_owl", "--label", "y"]
    assert main(["report", str(path), *flags, "--js", "cdn", "--quiet", "-o", str(out)]) == 0
    rows = tables(out.read_text())["auc-table"]
    assert [row["class"] for row in rows] == ["cat", "dog", "owl"]
    expected = roc_auc_score(y, proba, multi_class="ovr", average=None)
    assert [float(row["AUC"]) for row in rows] == pytest.approx(expected, abs=5e-4)
    assert "each class against the rest" in out.read_text()
    assert main(["report", str(path), *flags, "--pos-label", "cat", "-q", "-o", str(out)]) == 2
    assert "--pos-label does not apply with --class-scores" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["report", str(path), *flags, "--score", "p_cat", "-o", str(out)])
    assert "not allowed with argument" in capsys.readouterr().err


def test_direction_and_nan_policy_flags(
    scores: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "lower.html"
    assert report(scores, out, "--direction", "lower") == 0
    page = out.read_text()
    frame = pl.read_parquet(scores)
    for row in tables(page)["auc-table"]:
        part = frame.filter(pl.col("model") == row["model"])
        expected = roc_auc_score(part["label"], -part["score"])  # a lower score is positive
        assert float(row["AUC"]) == pytest.approx(expected, abs=5e-4)
    assert "lower means positive" in page
    assert "score ≤ threshold" in page
    with_nan = tmp_path / "nan.parquet"
    frame.with_columns(
        score=pl.when(pl.int_range(pl.len()) == 7).then(float("nan")).otherwise("score")
    ).write_parquet(with_nan)
    assert report(with_nan, tmp_path / "omit.html", "--nan-policy", "omit") == 0
    kept = frame.filter(pl.int_range(pl.len()) != 7)
    for row in tables((tmp_path / "omit.html").read_text())["auc-table"]:
        part = kept.filter(pl.col("model") == row["model"])
        expected = roc_auc_score(part["label"], part["score"])
        assert float(row["AUC"]) == pytest.approx(expected, abs=5e-4)
    capsys.readouterr()
    assert report(with_nan, tmp_path / "raise.html", "--nan-policy", "raise") != 0
    assert "NaN" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # argparse refuses a direction it does not know
        report(scores, tmp_path / "x.html", "--direction", "auto")
    assert "invalid choice: 'auto'" in capsys.readouterr().err
