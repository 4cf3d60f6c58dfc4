"""One registry of output columns (issue 27 item 3): charts never take outputs for groups."""

from __future__ import annotations

import polars as pl

import polars_roc as pr
from polars_roc import charts
from polars_roc._core import columns
from polars_roc.report import _business as business
from polars_roc.report import _page as page


def line_data(spec: dict) -> list[dict]:
    rows = spec["datasets"][spec["data"]["name"]]
    return [row for row in rows if row["_mark"] == "line"]


def test_threshold_chart_on_bootstrap_output_draws_one_line_per_rate() -> None:
    df = pr.datasets.simulate(300, seed=2).filter(pl.col("model") == "logit")
    table = df.roc.thresholds(thresholds=[0.2, 0.5, 0.8], ci="bootstrap", n_boot=50, seed=1)
    assert {"tpr_lower", "tpr_upper", "fpr_lower", "fpr_upper"} <= set(table.columns)
    spec = charts.threshold_chart(table, measures=["tpr", "fpr"], best=None).to_dict()
    rows = line_data(spec)
    encoding = spec["layer"][0]["encoding"]
    detail = encoding.get("detail", [])
    detail = [detail] if isinstance(detail, dict) else detail
    split_by = [encoding["color"]["field"], *(d["field"] for d in detail)]
    lines = {tuple(row.get(f) for f in split_by) for row in rows}
    # One line per rate through the three thresholds (the bounds are no groups).
    assert sorted(lines) == [("fpr",), ("tpr",)]
    for line in lines:
        ts = [row["threshold"] for row in rows if row["measure"] == line[0]]
        assert sorted(ts) == [0.2, 0.5, 0.8]


def test_interval_columns_belong_to_their_column() -> None:
    assert columns.interval("auc") == ("auc_se", "auc_lower", "auc_upper")
    assert columns.groups(["g", "auc", "auc_se", "auc_lower", "n_pos", "n_neg"], columns.AUC) == [
        "g"
    ]
    assert columns.groups(["g", "_x", "threshold"], columns.CURVE) == ["g"]


def test_analyses_return_the_registered_columns() -> None:
    df = pr.datasets.simulate(200, seed=3)
    one = df.filter(pl.col("model") == "logit")
    by = ["model"]
    assert df.roc.curve(by=by).columns == [*by, *columns.CURVE]
    assert df.roc.thresholds(by=by).columns == [*by, *columns.THRESHOLDS]
    assert df.roc.best_threshold(by=by).columns == [*by, *columns.BEST_THRESHOLD]
    assert df.roc.ks(by=by).columns == [*by, *columns.KS]
    assert df.roc.auc(by=by).columns == [*by, *columns.AUC]
    assert df.roc.pr_curve(by=by).columns == [*by, *columns.PR_CURVE]
    assert df.roc.gains_table(by=by).columns == [*by, *columns.GAINS_TABLE]
    assert df.roc.gain_curve(by=by).columns == [*by, *columns.GAIN_CURVE]
    assert one.roc.calibration().columns == list(columns.CALIBRATION)
    assert one.roc.tpr_at_fpr(fpr=0.1).columns == list(columns.AT_RATE)
    ci = one.roc.auc(ci="bootstrap", n_boot=20, seed=1)
    assert ci.columns == [*columns.AUC, *columns.interval("auc")]


def test_report_display_columns_come_from_the_registry() -> None:
    assert set(page._CUTPOINT_COLUMNS) <= set(columns.THRESHOLDS)
    assert set(business._GAINS_COLUMNS) <= set(columns.GAINS_TABLE)
