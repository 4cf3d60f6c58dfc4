"""Every public scalar expression, and where it runs: the table behind the expressions page.

`TABLE` holds one row per scalar: the expression, its frame twin (if any) and the contexts it
runs in. One parametrised test checks every (row, context) pair; another reads the docs page's
"Scalars as expressions" table and requires it to say exactly what `TABLE` says. To add a
scalar, add a `Scalar(...)` row here and a line to the table of docs/tasks/expressions.md.

The contexts, each checked against an independent computation of the same number:

* select: the expression in ``select`` on one group == the frame method on that group;
* agg: ``group_by().agg()`` == one group at a time (``select`` on each group's rows);
* over: ``with_columns(expr.over(g))`` == the ``agg`` value joined back on ``g``;
* dynamic: ``group_by_dynamic`` windows == ``select`` on each window's rows;
* streaming: ``collect(engine="streaming")`` == the eager ``group_by().agg()``;
* bootstrap: ``df.roc.bootstrap({name: expr})`` runs, its estimate == the ``agg`` value;
* engines: the expression on ``pr.tally`` of a DuckDB relation (weighted rows) == on the rows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score, roc_curve

import polars_roc as pr
from tests.conftest import ROOT

#: The documentation page whose table this file checks (the README links to it).
PAGE = ROOT / "docs" / "tasks" / "expressions.md"
ALL = frozenset({"select", "agg", "over", "dynamic", "streaming", "bootstrap", "engines"})
Frame = Callable[[pl.LazyFrame, list[str]], pl.LazyFrame]


@dataclass(frozen=True)
class Scalar:
    """One public scalar: its expression, frame twin, output column and contexts."""

    name: str
    expr: Callable[..., pl.Expr]  # (weight=None) -> the expression over score, label
    frame: Frame | None = None  # (lf, by) -> *by, <column>
    column: str = ""
    runs: frozenset[str] = ALL
    rel: float = 0.0  # 0: the frame's number bit for bit
    extra: dict[str, object] = field(default_factory=dict)


def _w(f: Callable[..., pl.Expr]) -> Callable[..., pl.Expr]:
    return lambda weight=None: f("score", "label", weight=weight)


TABLE: list[Scalar] = [
    Scalar("auc", _w(pr.auc), lambda lf, by: lf.roc.auc(by=by), "auc"),
    Scalar(
        "gini",
        _w(pr.gini),
        lambda lf, by: lf.roc.auc(by=by).select(*by, gini=2 * pl.col("auc") - 1),
        "gini",
    ),
    Scalar(
        "partial_auc",
        _w(lambda s, y, weight: pr.partial_auc(s, y, fpr=(0.1, 0.6), weight=weight)),
        lambda lf, by: lf.roc.partial_auc(fpr=(0.1, 0.6), by=by),
        "pauc",
    ),
    Scalar(
        "partial_auc(standardized)",
        _w(
            lambda s, y, weight: pr.partial_auc(
                s, y, tpr=(0.2, 0.9), standardized=True, weight=weight
            )
        ),
        lambda lf, by: lf.roc.partial_auc(tpr=(0.2, 0.9), by=by),
        "pauc_std",
    ),
    Scalar("auc_se", _w(pr.auc_se), lambda lf, by: lf.roc.auc(by=by, ci="delong"), "auc_se"),
    Scalar("ks", _w(pr.ks), lambda lf, by: lf.roc.ks(by=by), "ks"),
    Scalar(
        "tpr_at_fpr",
        _w(lambda s, y, weight: pr.tpr_at_fpr(s, y, fpr=0.3, weight=weight)),
        lambda lf, by: lf.roc.tpr_at_fpr(fpr=0.3, by=by),
        "tpr",
    ),
    Scalar(
        "fpr_at_tpr",
        _w(lambda s, y, weight: pr.fpr_at_tpr(s, y, tpr=0.5, weight=weight)),
        lambda lf, by: lf.roc.fpr_at_tpr(tpr=0.5, by=by),
        "fpr",
    ),
    Scalar(
        "average_precision",
        _w(pr.average_precision),
        lambda lf, by: lf.roc.average_precision(by=by),
        "average_precision",
    ),
    Scalar("pr_auc", _w(pr.pr_auc), lambda lf, by: lf.roc.pr_auc(by=by), "pr_auc"),
    Scalar("brier_score", _w(pr.brier_score), rel=1e-12),
    Scalar("log_loss", _w(pr.log_loss), rel=1e-12),
    Scalar("expected_calibration_error", _w(pr.expected_calibration_error), rel=1e-12),
    Scalar(
        "accuracy", lambda weight=None: pr.accuracy("label", pl.col("score") >= 0.5, weight=weight)
    ),
    Scalar(
        "multiclass_auc",
        lambda weight=None: pr.multiclass_auc(
            {0: 1 - pl.col("score"), 1: "score"}, "label", weight=weight
        ),
        lambda lf, by: lf.with_columns(s0=1 - pl.col("score")).roc.multiclass_auc(
            {0: "s0", 1: "score"}, by=by
        ),
        "auc",
        rel=1e-12,
    ),
    # Other issues of this round add their rows here, and a line to the docs page's table.
    Scalar(
        "calibration_slope",
        _w(pr.calibration_slope),
        lambda lf, by: lf.roc.calibration_fit(by=by),
        "slope",
        rel=1e-9,
    ),
    Scalar(
        "calibration_intercept",
        _w(pr.calibration_intercept),
        lambda lf, by: lf.roc.calibration_fit(by=by),
        "intercept",
        rel=1e-9,
    ),
    Scalar(
        "net_benefit",
        lambda weight=None: pr.net_benefit("score", "label", 0.3, weight=weight),
        lambda lf, by: lf.roc.decision_curve(by=by, thresholds=[0.3]),
        "net_benefit",
        rel=1e-12,
    ),
]
BY_NAME = {row.name: row for row in TABLE}


def scored(n_groups: int = 3, n: int = 40, seed: int = 7) -> pl.DataFrame:
    """Groups of probabilities with ties (two decimals), 0/1 labels, weights, a time column."""
    rng = np.random.default_rng(seed)
    size = n_groups * n
    label = rng.integers(0, 2, size)
    score = np.clip(np.round(rng.normal(0.35 + 0.3 * label, 0.2), 2), 0.0, 1.0)
    start = dt.datetime(2026, 1, 1)
    return pl.DataFrame(
        {
            "g": np.repeat(np.arange(n_groups), n),
            "t": [start + dt.timedelta(hours=int(h)) for h in rng.integers(0, 72, size)],
            "score": score,
            "label": label,
            "weight": rng.integers(0, 4, size).astype(float),
        }
    ).sort("t")


def same(a: float | None, b: float | None, rel: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return a == b if rel == 0 else a == pytest.approx(b, rel=rel, abs=rel)


def one_group(frame: pl.DataFrame, expr: pl.Expr) -> float | None:
    value: float | None = frame.select(expr).item()
    return value


def _per_group(frame: pl.DataFrame, expr: pl.Expr, key: str = "g") -> dict[object, float | None]:
    return {k[0]: one_group(part, expr) for k, part in frame.group_by(key)}


def check(row: Scalar, context: str) -> None:
    df = scored()
    expr = row.expr()
    grouped = df.group_by("g").agg(expr.alias("v")).sort("g")
    alone = _per_group(df, expr)
    if context == "select":
        if row.frame is None:
            pytest.skip(f"{row.name} has no frame method")
        for g, value in alone.items():
            twin = row.frame(df.filter(pl.col("g") == g).lazy(), []).collect()[row.column].item()
            assert same(value, twin, row.rel), (g, value, twin)
        by_group = row.frame(df.lazy(), ["g"]).collect().sort("g")
        assert all(
            same(a, b, row.rel) for a, b in zip(grouped["v"], by_group[row.column], strict=True)
        )
    elif context == "agg":
        for g, value in zip(grouped["g"], grouped["v"], strict=True):
            assert same(value, alone[g], row.rel), (g, value, alone[g])
    elif context == "over":
        got = df.with_columns(expr.over("g").alias("v")).select("g", "v")
        joined = df.select("g").join(grouped, on="g", how="left", maintain_order="left")
        assert all(same(a, b, row.rel) for a, b in zip(got["v"], joined["v"], strict=True))
    elif context == "dynamic":
        windows = df.group_by_dynamic("t", every="1d").agg(expr.alias("v"), pl.len())
        for start, value in zip(windows["t"], windows["v"], strict=True):
            part = df.filter((pl.col("t") >= start) & (pl.col("t") < start + dt.timedelta(days=1)))
            assert same(value, one_group(part, expr), row.rel)
    elif context == "streaming":
        streamed = (
            df.lazy().group_by("g").agg(expr.alias("v")).collect(engine="streaming").sort("g")
        )
        assert all(same(a, b, row.rel) for a, b in zip(streamed["v"], grouped["v"], strict=True))
    elif context == "bootstrap":
        out = df.roc.bootstrap({row.name: expr}, by="g", n_boot=20, seed=1).sort("g")
        assert all(same(a, b, 1e-12) for a, b in zip(out["estimate"], grouped["v"], strict=True))
        assert out["se"].is_not_null().all()
    elif context == "engines":
        relation = duckdb.from_arrow(df.select("g", "score", "label").to_arrow())
        tallied = pr.tally(relation, by="g").collect()
        reduced = tallied.group_by("g").agg(row.expr(weight="weight").alias("v")).sort("g")
        assert all(same(a, b, 1e-12) for a, b in zip(reduced["v"], grouped["v"], strict=True))


@pytest.mark.parametrize(
    ("name", "context"), [(row.name, c) for row in TABLE for c in sorted(row.runs)]
)
def test_scalar_runs_where_the_table_says(name: str, context: str) -> None:
    check(BY_NAME[name], context)


def docs_table() -> dict[str, set[str]]:
    """The "Scalars as expressions" page's table: scalar -> contexts marked ✓."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("# Scalars as expressions", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    table = {}
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        name = cells[0].strip("`").removeprefix("pr.").split("(")[0]
        if "standardized" in cells[0]:
            name = "partial_auc(standardized)"
        table[name] = {h for h, c in zip(header[1:], cells[1:], strict=False) if c == "✓"}
    return table


def test_the_docs_table_says_what_the_test_table_checks() -> None:
    expected = {row.name: set(row.runs) for row in TABLE}
    assert docs_table() == expected


# ----- weighted rows: the expression against the frame method, the same kernel -------------


@pytest.mark.parametrize("name", [row.name for row in TABLE if row.frame is not None])
def test_weighted_expression_is_the_weighted_frame_method(name: str) -> None:
    row, df = BY_NAME[name], scored()
    if name == "multiclass_auc":
        pytest.skip("checked unweighted above; its weighted frame is tested in test_multiclass")
    got = df.group_by("g").agg(row.expr(weight="weight").alias("v")).sort("g")["v"]
    frame = row.frame
    assert frame is not None
    weighted = {
        "auc": lambda lf, by: lf.roc.auc(by=by, weight="weight"),
        "gini": lambda lf, by: lf.roc.auc(by=by, weight="weight").select(
            *by, gini=2 * pl.col("auc") - 1
        ),
        "partial_auc": lambda lf, by: lf.roc.partial_auc(fpr=(0.1, 0.6), by=by, weight="weight"),
        "partial_auc(standardized)": lambda lf, by: lf.roc.partial_auc(
            tpr=(0.2, 0.9), by=by, weight="weight"
        ),
        "auc_se": lambda lf, by: lf.roc.auc(by=by, ci="delong", weight="weight"),
        "ks": lambda lf, by: lf.roc.ks(by=by, weight="weight"),
        "tpr_at_fpr": lambda lf, by: lf.roc.tpr_at_fpr(fpr=0.3, by=by, weight="weight"),
        "fpr_at_tpr": lambda lf, by: lf.roc.fpr_at_tpr(tpr=0.5, by=by, weight="weight"),
        "average_precision": lambda lf, by: lf.roc.average_precision(by=by, weight="weight"),
        "pr_auc": lambda lf, by: lf.roc.pr_auc(by=by, weight="weight"),
        "calibration_slope": lambda lf, by: lf.roc.calibration_fit(by=by, weight="weight"),
        "calibration_intercept": lambda lf, by: lf.roc.calibration_fit(by=by, weight="weight"),
        "net_benefit": lambda lf, by: lf.roc.decision_curve(
            by=by, weight="weight", thresholds=[0.3]
        ),
    }[name]
    want = weighted(df.lazy(), ["g"]).collect().sort("g")[row.column]
    assert all(same(a, b, 1e-12) for a, b in zip(got, want, strict=True))


# ----- the new scalars against independent oracles -----------------------------------------


def _placements(y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pos, neg = s[y == 1], s[y == 0]
    cmp = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return cmp.mean(axis=1), cmp.mean(axis=0)


def _oracle_ks(y: np.ndarray, s: np.ndarray) -> float:
    gaps = [0.0] + [np.mean(s[y == 1] >= t) - np.mean(s[y == 0] >= t) for t in np.unique(s)]
    return float(max(gaps))


def _oracle_read(y: np.ndarray, s: np.ndarray, target: float, along: str) -> float:
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    x, v = (fpr, tpr) if along == "fpr" else (tpr, fpr)
    if np.any(x == target):
        hits = v[x == target]
        return float(hits.max() if along == "fpr" else hits.min())
    i = np.flatnonzero(x < target).max()
    j = np.flatnonzero(x > target).min()
    x_a, x_b = x[i], x[j]
    y_a, y_b = v[x == x_a].max(), v[x == x_b].min()
    return float(y_a + (target - x_a) * (y_b - y_a) / (x_b - x_a))


@settings(max_examples=25)
@given(
    labels=st.lists(st.integers(0, 1), min_size=4, max_size=30),
    data=st.data(),
)
def test_new_scalars_match_independent_oracles(labels: list[int], data: st.DataObject) -> None:
    scores = data.draw(
        st.lists(
            st.sampled_from([0.0, 0.2, 0.4, 0.6, 0.8, 1.0]),
            min_size=len(labels),
            max_size=len(labels),
        )
    )
    y, s = np.array(labels), np.array(scores)
    df = pl.DataFrame({"score": s, "label": y})
    out = df.select(
        pr.partial_auc("score", "label", fpr=(0.0, 0.4), standardized=True),
        pr.auc_se("score", "label"),
        pr.ks("score", "label"),
        pr.tpr_at_fpr("score", "label", fpr=0.4),
        pr.fpr_at_tpr("score", "label", tpr=0.7),
    ).row(0, named=True)
    n_pos, n_neg = int(y.sum()), int((1 - y).sum())
    if n_pos == 0 or n_neg == 0:
        assert all(v is None for v in out.values())
        return
    assert out["pauc_std"] == pytest.approx(roc_auc_score(y, s, max_fpr=0.4), abs=1e-12)
    assert out["ks"] == pytest.approx(_oracle_ks(y, s), abs=1e-12)
    assert out["tpr"] == pytest.approx(_oracle_read(y, s, 0.4, "fpr"), abs=1e-12)
    assert out["fpr"] == pytest.approx(_oracle_read(y, s, 0.7, "tpr"), abs=1e-12)
    if n_pos < 2 or n_neg < 2:
        assert out["auc_se"] is None
        return
    v10, v01 = _placements(y, s)
    se = np.sqrt(v10.var(ddof=1) / n_pos + v01.var(ddof=1) / n_neg)
    assert out["auc_se"] == pytest.approx(se, rel=1e-12, abs=1e-15)


@settings(max_examples=10)
@given(weights=st.lists(st.integers(0, 3), min_size=12, max_size=12))
def test_weighted_new_scalars_are_repeated_rows(weights: list[int]) -> None:
    df = scored(1, 12, seed=3).with_columns(weight=pl.Series(weights, dtype=pl.Float64))
    repeated = df.select(pl.all().repeat_by(pl.col("weight").cast(pl.Int64)).explode()).drop_nulls()
    for name in ("partial_auc", "auc_se", "ks", "tpr_at_fpr", "fpr_at_tpr"):
        row = BY_NAME[name]
        assert same(
            df.select(row.expr(weight="weight")).item(), repeated.select(row.expr()).item(), 1e-12
        ), name


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_direction_and_nan_policy_reach_the_new_scalars(direction: str) -> None:
    df = scored(1, 30).with_columns(pl.col("score").cast(pl.Float64))
    nan = df.with_columns(
        score=pl.when(pl.int_range(pl.len()) == 0).then(float("nan")).otherwise("score")
    )
    for make, frame, column in (
        (lambda **k: pr.ks("score", "label", **k), lambda lf, **k: lf.roc.ks(**k), "ks"),
        (
            lambda **k: pr.auc_se("score", "label", **k),
            lambda lf, **k: lf.roc.auc(ci="delong", **k),
            "auc_se",
        ),
        (
            lambda **k: pr.partial_auc("score", "label", fpr=(0, 0.5), **k),
            lambda lf, **k: lf.roc.partial_auc(fpr=(0, 0.5), **k),
            "pauc",
        ),
        (
            lambda **k: pr.tpr_at_fpr("score", "label", fpr=0.2, **k),
            lambda lf, **k: lf.roc.tpr_at_fpr(fpr=0.2, **k),
            "tpr",
        ),
    ):
        assert (
            df.select(make(direction=direction)).item()
            == frame(df, direction=direction)[column].item()
        )
        assert nan.select(make(direction=direction)).item() is None
        omitted = nan.select(make(direction=direction, nan_policy="omit")).item()
        assert omitted == frame(nan, direction=direction, nan_policy="omit")[column].item()
    with pytest.raises((ValueError, pl.exceptions.ComputeError), match="NaN"):
        nan.select(pr.ks("score", "label", nan_policy="raise"))


def test_expression_methods_mirror_the_functions() -> None:
    df = scored(1, 30)
    for name in ("partial_auc", "ks", "tpr_at_fpr", "fpr_at_tpr", "auc_se"):
        args = {
            "partial_auc": {"fpr": (0, 0.3)},
            "tpr_at_fpr": {"fpr": 0.3},
            "fpr_at_tpr": {"tpr": 0.3},
        }.get(name, {})
        method = getattr(pl.col("score").roc, name)("label", **args)
        assert (
            df.select(method).item()
            == df.select(getattr(pr, name)("score", "label", **args)).item()
        )
