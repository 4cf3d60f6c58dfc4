"""
A survival report without a label: ``compute(label=None, time_to_event=, event=)`` and
``polars-roc report --time-to-event T --event E`` without ``--label``.

It leads with AUC(t) (scikit-survival's cumulative/dynamic AUC, the oracle here) and holds no
plain AUC that would take the event flag for a label and ignore censoring.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import polars_roc as pr
from tests.conftest import ROOT
from tests.report.test_report import tables
from tests.report.test_report_survival import HORIZONS, TIME_AUC, churn

sksurv_metrics = pytest.importorskip("sksurv.metrics")
sksurv_util = pytest.importorskip("sksurv.util")


@pytest.fixture(scope="module")
def customers() -> pl.DataFrame:
    return churn(500, seed=7).drop("label")


def test_auc_t_without_a_label_is_scikit_survivals(customers: pl.DataFrame) -> None:
    data = pr.report.compute(
        customers.lazy(), "score", None, by="model", time_to_event="days", event="churned",
        horizons=HORIZONS,
    )  # fmt: skip
    assert data.roles["label"] is None
    assert data.auc.height == 0  # no plain AUC of the event flag
    assert data.curve.height == 0
    for model in ("gbm", "logit"):
        rows = customers.filter(pl.col("model") == model)
        y = sksurv_util.Surv.from_arrays(rows["churned"].to_numpy(), rows["days"].to_numpy())
        want, _ = sksurv_metrics.cumulative_dynamic_auc(y, y, rows["score"].to_numpy(), HORIZONS)
        got = data.survival.table.filter(pl.col("model") == model)["auc"].to_numpy()
        np.testing.assert_allclose(got, want, rtol=1e-12)
    # the same section as a report with a label gives
    labelled = pr.report.compute(
        customers.with_columns(label=pl.col("churned")).lazy(), by="model", ci=None,
        time_to_event="days", event="churned", horizons=HORIZONS,
    )  # fmt: skip
    assert_frame_equal(data.survival.table, labelled.survival.table)
    assert_frame_equal(
        data.survival.table.select(TIME_AUC),
        customers.roc.time_auc(
            "score", time="days", event="churned", horizons=HORIZONS, by="model"
        ),
    )


def test_the_page_holds_auc_t_alone(customers: pl.DataFrame) -> None:
    page = pr.report.to_html(
        customers, "score", None, by="model", time_to_event="days", event="churned",
        horizons=HORIZONS, js="cdn",
    )  # fmt: skip
    assert page.count("<section") == 1
    assert '<section id="survival">' in page
    for absent in ('id="auc"', 'id="roc"', "AUC by group", "Best cutpoints", "positive class"):
        assert absent not in page
    assert "<b>label</b> none: a survival report" in page
    assert "<b>event</b> churned" in page
    shown = tables(page)["survival-table"]
    assert [row["model"] for row in shown] == ["gbm"] * 3 + ["logit"] * 3
    assert 'id="spec-survival"' in page


def test_with_a_label_auc_t_comes_first(customers: pl.DataFrame) -> None:
    rows = customers.with_columns(label=pl.col("churned"))
    page = pr.report.to_html(
        rows, by="model", ci=None, time_to_event="days", event="churned", horizons=HORIZONS,
        js="cdn",
    )  # fmt: skip
    assert page.index('<section id="survival">') < page.index('<section id="auc">')
    assert page.index('href="#survival"') < page.index('href="#auc"')


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "label=None needs time_to_event= and event="),
        ({"time_to_event": "days"}, "label=None needs time_to_event= and event="),
        ({"segment": "model"}, "segment= needs a label: the Segments section"),
        ({"case": "model"}, "case= needs a label"),
        ({"slices": ["model"]}, "slices= needs a label"),
        ({"pos_label": 1}, "pos_label= needs a label"),
        ({"decision_curve": True}, "decision_curve= needs a label"),
    ],
    ids=["nothing", "no-event", "segment", "case", "slices", "pos-label", "decision-curve"],
)
def test_what_needs_a_label_is_refused(
    customers: pl.DataFrame, kwargs: dict[str, object], message: str
) -> None:
    survival = {"time_to_event": "days", "event": "churned"}
    given = kwargs if "time_to_event" in kwargs or not kwargs else {**survival, **kwargs}
    with pytest.raises(ValueError, match=message):
        pr.report.compute(customers.lazy(), "score", None, **given)


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    """The command in a subprocess, the worktree first on the path."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "polars_roc", *argv],
        capture_output=True, text=True, env=env, check=False, timeout=300,
    )  # fmt: skip


def test_cli_survival_report_without_label(customers: pl.DataFrame, tmp_path: Path) -> None:
    data, out = tmp_path / "customers.parquet", tmp_path / "report.html"
    customers.write_parquet(data)
    flags = ["--time-to-event", "days", "--event", "churned", "--horizons", "90,180,365"]
    done = run("report", str(data), "--score", "score", "--by", "model", *flags,
               "--js", "cdn", "-o", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "AUC(t) at horizons of days" in done.stdout
    assert "AUC by group" not in done.stdout
    page = out.read_text()
    assert page.count("<section") == 1
    assert '<section id="survival">' in page
    no_label = run("report", str(data), "--score", "score", "-o", str(out))
    assert no_label.returncode == 2
    assert "--label is required (the class column), unless --time-to-event" in no_label.stderr
    segment = run("report", str(data), "--score", "score", *flags, "--segment", "model",
                  "-o", str(out))  # fmt: skip
    assert segment.returncode == 2
    assert "--segment needs --label: a survival report" in segment.stderr
    assert "Traceback" not in no_label.stderr + segment.stderr
