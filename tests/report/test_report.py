"""The HTML report: its tables against scikit-learn and brute force, its page self-contained,
and every chart drawn without errors in headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import jsonschema
import numpy as np
import polars as pl
import pytest
from polars.exceptions import ColumnNotFoundError
from polars.testing import assert_frame_equal
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from polars_roc import report
from polars_roc.cli import main
from polars_roc.report import _build as report_build

BY = ["model", "segment"]
CHARTS = [
    "auc",
    "roc",
    "pauc",
    "thresholds",
    "gains",
    "ks",
    "calibration",
    "scores",
    "explorer",
]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


# ---------------------------------------------------------------------------------------------
# Oracles and page parsing, written here independently of the package.


def delong_interval(labels: np.ndarray, scores: np.ndarray, level: float = 0.95):
    """DeLong et al. (1988) by brute-force placement values: (auc, se, lower, upper)."""
    pos, neg = scores[labels], scores[~labels]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    auc = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    se = np.sqrt(v10.var(ddof=1) / len(pos) + v01.var(ddof=1) / len(neg))
    z = norm.ppf(0.5 + level / 2)
    return auc, se, max(0.0, auc - z * se), min(1.0, auc + z * se)


def best_youden(labels: np.ndarray, scores: np.ndarray) -> float:
    """The threshold maximizing tpr - fpr over every distinct score (highest on ties)."""
    best, where = -np.inf, np.inf
    for t in np.unique(scores)[::-1]:
        predicted = scores >= t
        j = (predicted & labels).sum() / labels.sum() - (predicted & ~labels).sum() / (
            ~labels
        ).sum()
        if j > best + 1e-12:
            best, where = j, t
    return float(where)


class _Tables(HTMLParser):
    """Every <table id=...> of a page: its header cells and its body rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, dict[str, list]] = {}
        self._table: dict[str, list] | None = None
        self._part = "rows"
        self._row: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "table":
            self._table = self.tables[dict(attrs)["id"]] = {"head": [], "rows": []}
        elif tag in ("thead", "tbody"):
            self._part = "head" if tag == "thead" else "rows"
        elif tag == "tr":
            self._row = []
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self._row.append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._table is not None:
            self._table[self._part].append(self._row)
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def tables(page: str) -> dict[str, list[dict[str, str]]]:
    """Each table of the page as a list of {header: cell text} rows."""
    parser = _Tables()
    parser.feed(page)
    return {
        key: [dict(zip(table["head"][0], row, strict=True)) for row in table["rows"]]
        for key, table in parser.tables.items()
    }


def specs(page: str) -> dict[str, dict]:
    """The Vega-Lite specs embedded in the page, parsed as strict JSON (no NaN/Infinity)."""

    def refuse(constant: str) -> None:
        raise AssertionError(f"non-JSON constant {constant} in a chart spec")

    found = re.findall(
        r'<script type="application/json" id="spec-(\w+)">(.*?)</script>', page, re.S
    )
    return {key: json.loads(text, parse_constant=refuse) for key, text in found}


def notes(page: str) -> list[str]:
    return re.findall(r'<p class="note">(.*?)</p>', page, re.S)


# ---------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(scope="module")
def scored() -> pl.DataFrame:
    return pr.datasets.simulate(500, seed=11)


@pytest.fixture(scope="module")
def page(scored: pl.DataFrame) -> str:
    return report.to_html(scored.lazy(), by=BY, ci="delong", js="inline")


def _group(frame: pl.DataFrame, row: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
    part = frame.filter(pl.col("model") == row["model"], pl.col("segment") == row["segment"])
    return part["label"].to_numpy(), part["score"].to_numpy()


# ---------------------------------------------------------------------------------------------
# Tables


def test_auc_table_matches_sklearn_and_brute_force_delong(scored: pl.DataFrame, page: str) -> None:
    rows = tables(page)["auc-table"]
    assert len(rows) == 12
    assert {(r["model"], r["segment"]) for r in rows} == set(scored.select(BY).unique().iter_rows())
    for row in rows:
        labels, scores = _group(scored, row)
        _auc, se, lower, upper = delong_interval(labels, scores)
        assert float(row["AUC"]) == pytest.approx(roc_auc_score(labels, scores), abs=5e-4)
        assert float(row["SE"]) == pytest.approx(se, abs=5e-5)
        assert float(row["95% CI lower"]) == pytest.approx(lower, abs=5e-4)
        assert float(row["95% CI upper"]) == pytest.approx(upper, abs=5e-4)
        assert int(row["positives"]) == labels.sum()
        assert int(row["negatives"]) == (~labels).sum()


def test_partial_auc_table_matches_sklearn_max_fpr(scored: pl.DataFrame, page: str) -> None:
    for row in tables(page)["pauc-table"]:
        labels, scores = _group(scored, row)
        expected = roc_auc_score(labels, scores, max_fpr=0.2)
        assert float(row["standardized pAUC"]) == pytest.approx(expected, abs=5e-4)


def test_cutpoint_table_is_the_brute_force_youden_optimum(scored: pl.DataFrame, page: str) -> None:
    rows = tables(page)["cutpoint-table"]
    assert len(rows) == 12
    for row in rows:
        labels, scores = _group(scored, row)
        assert float(row["threshold"]) == pytest.approx(best_youden(labels, scores), rel=1e-5)
        predicted = scores >= float(row["threshold"])
        assert int(row["tp"]) == (predicted & labels).sum()
        assert int(row["fp"]) == (predicted & ~labels).sum()


def test_tpr_range_weights_and_string_labels() -> None:
    frame = pr.datasets.simulate(300, models=["a", "b"], segments=["x"], seed=4).with_columns(
        outcome=pl.when(pl.col("label")).then(pl.lit("bad")).otherwise(pl.lit("good"))
    )
    data = report.compute(
        frame.lazy(),
        label="outcome",
        pos_label="bad",
        by="model",
        weight="weight",
        ci=None,
        tpr=(0.8, 1.0),
    )
    for model, auc in data.auc.select("model", "auc").iter_rows():
        part = frame.filter(pl.col("model") == model)
        expected = roc_auc_score(part["label"], part["score"], sample_weight=part["weight"])
        assert auc == pytest.approx(expected, abs=1e-12)
    page = report.render(data, js="cdn")
    assert "TPR 0.8 to 1" in page
    # the CDN note, and the weighted report's reason for no model comparison: every chart drawn
    assert [n for n in notes(page)[1:] if not n.startswith("No model comparison")] == []
    assert any(n.startswith("No model comparison: the report is weighted") for n in notes(page))
    assert set(specs(page)) == set(CHARTS)


def test_curve_and_threshold_table_are_those_of_the_frame_methods(scored: pl.DataFrame) -> None:
    data = report.compute(scored.lazy(), by=BY, ci=None)
    assert_frame_equal(data.curve, scored.roc.curve(by=BY))
    assert_frame_equal(data.thresholds, scored.roc.thresholds(by=BY))
    assert_frame_equal(data.best_threshold, scored.roc.best_threshold(by=BY, ci="wilson"))


def test_large_curves_are_drawn_from_quantile_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = pr.datasets.simulate(3000, models=["m"], segments=["s"], seed=2).with_columns(
        pl.col("score") + pl.int_range(pl.len()) * 1e-9  # every score distinct
    )
    # the internal size limits, lowered so that a small frame crosses them
    monkeypatch.setattr(report_build, "MAX_CURVE_POINTS", 500)
    monkeypatch.setattr(report_build, "CURVE_QUANTILES", 50)
    data = report.compute(frame.lazy(), ci=None)
    assert data.curve.height <= 50 + 2
    assert any("quantiles of the negative scores" in note for note in data.notes)
    # the tables still use every row
    assert data.auc["auc"].item() == pytest.approx(
        roc_auc_score(frame["label"], frame["score"]), abs=1e-12
    )
    assert data.best_threshold["threshold"].item() == best_youden(
        frame["label"].to_numpy(), frame["score"].to_numpy()
    )


def test_more_than_two_group_columns_share_panels() -> None:
    frame = pr.datasets.simulate(200, models=["a", "b"], segments=["x", "y"], seed=1)
    frame = frame.with_columns(region=pl.col("fold") % 2)
    page = report.to_html(frame.lazy(), by=["model", "segment", "region"], ci=None, js="cdn")
    assert len(tables(page)["auc-table"]) == 8
    assert notes(page)[1:] == []
    assert set(specs(page)) == set(CHARTS)


def test_one_group_and_no_group() -> None:
    frame = pr.datasets.simulate(200, seed=6)
    for by in ("model", None):
        page = report.to_html(frame.lazy(), by=by, ci="delong", js="cdn")
        assert notes(page)[1:] == [], by
        assert set(specs(page)) == set(CHARTS)


def test_a_segment_with_one_class_shows_nulls_and_every_chart() -> None:
    frame = pr.datasets.simulate(300, segments=["east", "west"], seed=4)
    frame = frame.with_columns(label=pl.col("label") & (pl.col("segment") != "east"))
    page = report.to_html(frame.lazy(), by=BY, ci="delong", js="cdn")
    assert notes(page)[1:] == []  # no chart failed (a null cutpoint used to break two)
    assert set(specs(page)) == set(CHARTS)
    east = [row for row in tables(page)["auc-table"] if row["segment"] == "east"]
    assert len(east) == 3
    for row in east:
        assert (row["AUC"], row["positives"], row["95% CI lower"]) == (
            "— (no positives)",
            "0",
            "— (no positives)",
        )
    west = [row for row in tables(page)["auc-table"] if row["segment"] == "west"]
    assert all(row["AUC"] != "—" for row in west)
    for key in ("roc", "thresholds"):  # no marker for the undefined cutpoints
        (data,) = specs(page)[key]["datasets"].values()
        marked = [row for row in data if row["_mark"] in ("point", "best")]
        assert {row["segment"] for row in marked} == {"west"}, key


def test_bad_arguments_fail_before_reading_data() -> None:
    lf = pr.datasets.simulate(50).lazy()
    with pytest.raises(ColumnNotFoundError, match="scor"):
        report.compute(lf, score="scor")
    with pytest.raises(ValueError, match="ci must be"):
        report.compute(lf, ci="wald")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="fpr="):
        report.compute(lf, fpr=(0.3, 0.1))
    data = report.compute(lf, ci=None)
    with pytest.raises(ValueError, match="js must be"):
        report.render(data, js="local")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# The page


def test_inline_page_is_self_contained_and_specs_are_valid_vega_lite(page: str) -> None:
    import altair as alt

    assert "<script src=" not in page
    assert not re.search(r"""(src|href)=["']https?:""", page)
    assert "window.vegaEmbed=" in page
    assert notes(page) == []
    found = specs(page)
    assert list(found) == CHARTS
    assert page.count('<div class="chart"') == len(CHARTS)
    schema = alt.vegalite.v6.schema.core.load_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    for spec in found.values():
        validator.validate(spec)
        assert re.search(r"\bInfinity\b|\bNaN\b", json.dumps(spec)) is None


def test_cdn_page_links_the_versions_altair_targets() -> None:
    import altair as alt

    page = report.to_html(pr.datasets.simulate(100).lazy(), ci=None, js="cdn")
    for name, version in [
        ("vega", alt.VEGA_VERSION),
        ("vega-lite", alt.SCHEMA_VERSION.lstrip("v")),
        ("vega-embed", alt.VEGAEMBED_VERSION),
    ]:
        assert f'<script src="https://cdn.jsdelivr.net/npm/{name}@{version}"></script>' in page
    assert "need a network connection" in notes(page)[0]


def test_without_vl_convert_auto_links_the_cdn_and_inline_refuses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = report.compute(pr.datasets.simulate(100).lazy(), ci=None)
    monkeypatch.setitem(sys.modules, "vl_convert", None)  # import now raises ImportError
    assert "cdn.jsdelivr.net" in report.render(data, js="auto")
    with pytest.raises(ImportError, match="vl-convert-python"):
        report.render(data, js="inline")


# ---------------------------------------------------------------------------------------------
# In a real browser

# Records console errors, warnings and uncaught exceptions in an attribute of <html>, which
# --dump-dom prints; injected into a copy of the page before anything else runs.
CONSOLE_HOOK = """<script>
(function () {
  var seen = [];
  function keep(kind, args) {
    seen.push(kind + ": " + Array.prototype.map.call(args, String).join(" "));
    document.documentElement.setAttribute("data-console", JSON.stringify(seen));
  }
  var error = console.error, warn = console.warn;
  console.error = function () { keep("error", arguments); error.apply(console, arguments); };
  console.warn = function () { keep("warn", arguments); warn.apply(console, arguments); };
  window.addEventListener("error", function (e) { keep("uncaught", [e.message]); });
  window.addEventListener("unhandledrejection", function (e) { keep("rejection", [e.reason]); });
})();
</script>"""


def open_in_chromium(path: Path, tmp_path: Path) -> tuple[str, str]:
    """The page's DOM after its scripts ran, and Chromium's log, with the network cut off."""
    assert CHROMIUM is not None
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--proxy-server=http://127.0.0.1:9",  # nothing may load from the network
        "--enable-logging=stderr",
        "--v=0",
        "--virtual-time-budget=30000",
        "--dump-dom",
        path.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


@pytest.mark.skipif(
    CHROMIUM is None,
    reason="chromium is not installed (CI installs it with .ci/install-browser.sh)",
)
def test_report_renders_every_chart_in_headless_chromium(tmp_path: Path) -> None:
    scores = tmp_path / "scores.parquet"
    pr.datasets.simulate(800, seed=3).write_parquet(scores)
    out = tmp_path / "report.html"
    status = main(
        [
            "report",
            str(scores),
            "--score",
            "score",
            "--label",
            "label",
            "--by",
            "model,segment",
            "--js",
            "inline",
            "--quiet",
            "-o",
            str(out),
        ]
    )
    assert status == 0
    hooked = tmp_path / "hooked.html"
    hooked.write_text(out.read_text().replace("<head>", "<head>\n" + CONSOLE_HOOK, 1))
    dom, log = open_in_chromium(hooked, tmp_path)

    console = re.search(r'<html[^>]*data-console="([^"]*)"', dom)
    messages = json.loads(console.group(1).replace("&quot;", '"')) if console else []
    assert messages == []  # no errors, and no Vega warnings either
    assert "Uncaught" not in log
    charts = re.findall(r'<div class="chart[^"]*" id="chart-(\w+)"[^>]*data-status="(\w+)"', dom)
    assert dict(charts) == dict.fromkeys(CHARTS, "rendered")
    for key in CHARTS:  # each chart view drew an SVG with marks
        body = dom.split(f'id="chart-{key}"', 1)[1].split(' id="chart-', 1)[0]
        assert re.search(r'<svg[^>]*class="marks"', body), key
    explorer = dom.split('id="chart-explorer"', 1)[1]
    assert 'type="range"' in explorer  # the threshold slider
    assert len(tables(dom)["auc-table"]) == 12
