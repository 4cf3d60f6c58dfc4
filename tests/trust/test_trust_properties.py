"""Issue 28, widened: exactness past 2**53 and the NaN rule over every route, and the
constant-weight invariance over every public function that takes `weight`.

Routes: the frame method, the expression, multiclass (one-vs-rest, one-vs-one, pairs of one
score, the expression) and ``pr.tally`` / ``pr.auc_table`` on each backend installed
(Polars, pandas, PyArrow, DuckDB; Spark is left to tests/engines/test_engines_backends.py). The
oracle for big integers is exact: Python integers and ``fractions.Fraction``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import polars_roc as pr
from polars_roc.namespace import FRAME_METHODS

BIG = 2**53 + 1  # odd: its neighbours are not Float64 numbers either


def exact_auc(labels: list[bool], scores: list[int]) -> Fraction | None:
    """P(pos > neg) + 1/2 P(tie) over all pairs, in exact arithmetic; None if undefined."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    if not pos or not neg:
        return None
    wins = sum(Fraction(1) if p > q else Fraction(1, 2) if p == q else Fraction(0)
               for p in pos for q in neg)  # fmt: skip
    return wins / (len(pos) * len(neg))


# ---------------------------------------------------------------------------------------
# Backends for the engine routes
# ---------------------------------------------------------------------------------------


def _duckdb(frame: pl.DataFrame) -> Any:
    duckdb = pytest.importorskip("duckdb")
    connection = duckdb.connect()
    connection.register("t", frame.to_arrow())
    return connection.sql("select * from t")


BACKENDS: dict[str, Callable[[pl.DataFrame], Any]] = {
    "polars": lambda frame: frame,
    "polars-lazy": lambda frame: frame.lazy(),
    "pandas": lambda frame: (pytest.importorskip("pandas"), frame.to_pandas())[1],
    "pyarrow": lambda frame: (pytest.importorskip("pyarrow"), frame.to_arrow())[1],
    "duckdb": _duckdb,
}


# ---------------------------------------------------------------------------------------
# Integers past 2**53: every route ranks them as integers
# ---------------------------------------------------------------------------------------

offsets = st.lists(st.integers(-3, 3), min_size=2, max_size=8)


@settings(max_examples=10)
@given(data=st.data())
@example(data=None)
def test_big_integers_binary_routes(data: Any) -> None:
    if data is None:
        shift, labels = [1, 0, 3, 2], [True, False, True, False]
    else:
        shift = data.draw(offsets)
        labels = data.draw(st.lists(st.booleans(), min_size=len(shift), max_size=len(shift)))
    scores = [BIG + s for s in shift]
    expected = exact_auc(labels, scores)
    want = None if expected is None else pytest.approx(float(expected), abs=1e-12)
    df = pl.DataFrame({"score": scores, "label": labels}, schema_overrides={"score": pl.Int64})
    assert df.roc.auc()["auc"].item() == want
    assert df.select(pr.auc("score", "label")).item() == want
    assert df.lazy().roc.auc().collect()["auc"].item() == want
    # the same through the engines (a tally, and the AUC in the engine)
    for make in BACKENDS.values():
        frame = make(df)
        tallied = pr.tally(frame).roc.auc(weight="weight").collect()
        assert tallied["auc"].item() == want
        table = pr.auc_table(frame)
        assert (table["auc"].item() if table.height else None) == want


@settings(max_examples=10)
@given(
    shift=st.lists(st.integers(-2, 2), min_size=6, max_size=6),
    classes=st.lists(st.sampled_from("abc"), min_size=6, max_size=6),
)
@example(shift=[1, 0, 3, 2, 1, 0], classes=list("ababcc"))
def test_big_integers_multiclass_routes(shift: list[int], classes: list[str]) -> None:
    # one score per class: past 2**53, class c's rows shifted by `shift`, the others by one
    rows = list(zip(shift, classes, strict=True))
    cols = {c: [BIG + s if k == c else BIG + (s + 1) % 3 - 1 for s, k in rows] for c in "abc"}
    df = pl.DataFrame({"y": classes, **cols})
    present = sorted(set(classes))
    if len(present) < 2:
        return
    per_class = df.roc.multiclass_auc(present, "y", average=None)
    for c in present:
        exact = exact_auc([k == c for k in classes], cols[c])
        got = per_class.filter(pl.col("class") == c)["auc"].item()
        assert got == pytest.approx(float(exact), abs=1e-12)  # type: ignore[arg-type]
    macro = np.mean([float(exact_auc([k == c for k in classes], cols[c])) for c in present])  # type: ignore[arg-type]
    assert df.roc.multiclass_auc(present, "y")["auc"].item() == pytest.approx(macro)
    assert df.select(pr.multiclass_auc(present, "y")).item() == pytest.approx(macro)
    # one-vs-one: Hand & Till's mean of A(a|b) and A(b|a), each exact
    pairs = []
    for i, a in enumerate(present):
        for b in present[i + 1 :]:
            rows = [j for j, k in enumerate(classes) if k in (a, b)]
            ab = exact_auc([classes[j] == a for j in rows], [cols[a][j] for j in rows])
            ba = exact_auc([classes[j] == b for j in rows], [cols[b][j] for j in rows])
            pairs.append((float(ab) + float(ba)) / 2)  # type: ignore[arg-type]
    ovo = df.roc.multiclass_auc(present, "y", method="ovo")["auc"].item()
    assert ovo == pytest.approx(np.mean(pairs))
    assert df.select(pr.multiclass_auc(present, "y", method="ovo")).item() == pytest.approx(
        np.mean(pairs)
    )
    # pairs of one score: A(b > a) on column "a", a before b
    single = df.roc.multiclass_auc("a", "y", average=None)
    for row in single.iter_rows(named=True):
        rows = [j for j, k in enumerate(classes) if k in (row["class_a"], row["class_b"])]
        exact = exact_auc(
            [classes[j] == row["class_b"] for j in rows], [cols["a"][j] for j in rows]
        )
        assert row["auc"] == pytest.approx(float(exact), abs=1e-12)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# The NaN rule: a NaN score makes the group's AUC null on every route; "omit" drops it
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", list(BACKENDS))
def test_nan_score_is_null_on_every_engine_route(backend: str) -> None:
    df = pl.DataFrame(
        {
            "g": [1, 1, 1, 1, 2, 2],
            "score": [0.1, 0.2, float("nan"), 0.9, 0.3, 0.7],
            "label": [0, 0, 1, 1, 1, 0],
        }
    )
    frame = BACKENDS[backend](df)
    # pandas' NaN is its missing marker: read as missing on every route (as pl.from_pandas),
    # so the group's AUC is that of its other rows, whatever the policy.
    nan_auc = 1.0 if backend == "pandas" else None
    for tallied in (pr.tally(frame, by="g"), pr.tally(frame, by="g", bins=2)):
        got = tallied.roc.auc(by="g", weight="weight").collect().sort("g")
        assert got["auc"].to_list() == [nan_auc, 0.0]
    assert pr.auc_table(frame, by="g")["auc"].to_list() == [nan_auc, 0.0]
    omitted = pr.tally(frame, by="g", nan_policy="omit").roc.auc(by="g", weight="weight")
    assert omitted.collect().sort("g")["auc"].to_list() == [1.0, 0.0]
    assert pr.auc_table(frame, by="g", nan_policy="omit")["auc"].to_list() == [1.0, 0.0]
    if backend != "pandas":
        with pytest.raises(ValueError, match="'score'"):
            pr.auc_table(frame, by="g", nan_policy="raise")


def test_nan_score_is_null_on_every_polars_route() -> None:
    nan = float("nan")
    df = pl.DataFrame(
        {
            "y": ["a", "b", "a", "b", "c", "c"],
            "a": [0.9, 0.1, nan, 0.3, 0.2, 0.1],
            "b": [0.1, 0.9, 0.2, 0.7, 0.1, 0.2],
            "c": [0.0, 0.0, 0.8, 0.0, 0.7, 0.7],
        }
    )
    binary = df.with_columns(label=pl.col("y") == "a")
    assert binary.roc.auc("a")["auc"].item() is None
    assert binary.select(pr.auc("a", "label")).item() is None
    assert binary.roc.auc("a", nan_policy="omit")["auc"].item() == 1.0
    classes = ["a", "b", "c"]
    for method in ("ovr", "ovo"):
        assert df.roc.multiclass_auc(classes, "y", method=method)["auc"].item() is None
        assert df.select(pr.multiclass_auc(classes, "y", method=method)).item() is None
        omit = df.roc.multiclass_auc(classes, "y", method=method, nan_policy="omit")
        kept = df.filter(pl.col("a").is_not_nan()).roc.multiclass_auc(classes, "y", method=method)
        assert omit["auc"].item() == pytest.approx(kept["auc"].item())
    assert df.roc.multiclass_auc(classes, "y", average="micro")["auc"].item() is None
    assert df.roc.multiclass_auc("a", "y")["auc"].item() is None
    per_class = df.roc.multiclass_auc(classes, "y", average=None)
    assert per_class["auc"].to_list()[0] is None  # class a reads the NaN
    with pytest.raises(ValueError, match="'a'"):
        df.roc.multiclass_auc(classes, "y", nan_policy="raise")


# ---------------------------------------------------------------------------------------
# A constant positive weight changes no result, over every function that takes `weight`
# ---------------------------------------------------------------------------------------

#: Arguments a frame method needs besides the usual roles (new methods run with none).
EXTRA: dict[str, dict[str, Any]] = {
    "partial_auc": {"fpr": (0.0, 0.5)},
    "tpr_at_fpr": {"fpr": [0.1, 0.5]},
    "fpr_at_tpr": {"tpr": [0.5, 0.9]},
    "hybrid": {"fpr": [0.1, 0.5]},
    "point": {"prediction": "pred"},
    "confusion_matrix": {"label": "label", "prediction": "pred"},
    "mean_cost": {
        "label": "label",
        "prediction": "pred",
        "costs": {(True, False): 1.0, (False, True): 2.0},
    },
    "crossings": {"model": "m"},
    "curve_dominance": {"model": "m"},
    "calibration": {"strategy": "quantile"},  # uniform edges never read the weights
    "multiclass_auc": {"scores": ["a", "b", "c"], "label": "y"},
    "multiclass_curve": {"scores": ["a", "b", "c"], "label": "y"},
    # round 3
    "rollup": {"segment": "m"},
    "disparity": {"segment": "m"},
    "cross_auc": {"segment": "m"},
    "bias_auc": {"segment": "m"},
    "over_time": {"time": "fold", "every": "1i"},
    "score_stability": {"time": "fold", "every": "1i", "reference": pl.col("fold") == 0},
    "time_auc": {"time": "fold", "event": "pred", "horizons": [0.5, 1.5]},
    "time_curve": {"time": "fold", "event": "pred", "horizons": [1.5]},
    # round 4
    "slices": {"features": ["m"], "min_pos": 1, "min_neg": 1},
    "checks": {"model": "m", "champion": "a", "challenger": "b", "margin": 0.1},
}


def _weighted_frame(c: float) -> pl.DataFrame:
    rng = np.random.default_rng(7)
    n = 40
    return pl.DataFrame(
        {
            "score": rng.integers(0, 8, n) / 8,  # ties, and probabilities for calibration
            "label": rng.random(n) < 0.5,
            "g": rng.integers(0, 2, n),
            "m": ["a", "b"] * (n // 2),
            "fold": rng.integers(0, 3, n),
            "pred": rng.random(n) < 0.5,
            "y": rng.choice(["a", "b", "c"], n),
            "a": rng.random(n).round(1),
            "b": rng.random(n).round(1),
            "c": rng.random(n).round(1),
            "w": [c] * n,
        }
    )


#: Weights are frequencies, so a constant weight c is c copies of every row: intervals, tests
#: and variance weights tighten by sqrt(c), as they must. Their estimates may not change.
FREQUENCY_INFERENCE: dict[str, set[str]] = {
    "calibration_fit": {"intercept", "slope", "citl"},
    "rollup": {"pooled_auc", "within_auc", "between"},  # which segments count: variances
    "disparity": {"segment", "metric", "estimate", "reference_estimate", "diff", "ratio"},
    "slices": {"slice", "m", "n_pos", "n_neg", "auc", "auc_rest", "gap"},
}

#: Methods that take `weight` only to refuse it, with the reason (documented): a ValueError
#: naming the argument, checked below instead of the constant-weight invariance.
REFUSES_WEIGHT: dict[str, dict[str, Any]] = {
    "compare": {"model": "m"},  # DeLong's, the bootstrap and Venkatraman's tests: no weights
}

WEIGHTED = sorted(
    n
    for n, f in FRAME_METHODS.items()
    if "weight" in inspect.signature(f).parameters and n not in REFUSES_WEIGHT
)


@pytest.mark.parametrize("name", sorted(REFUSES_WEIGHT))
def test_weight_refusals_name_the_argument(name: str) -> None:
    with pytest.raises(ValueError, match=r"weight='w'.*\n\nHint: "):
        getattr(_weighted_frame(1.0).roc, name)(weight="w", **REFUSES_WEIGHT[name])


def _same_up_to_counts(scaled: pl.DataFrame, ones: pl.DataFrame, c: float, what: str) -> None:
    """Every column equal, except weight sums (counts), which are c times as large."""
    assert scaled.columns == ones.columns, what
    assert scaled.height == ones.height, what
    for column in ones.columns:
        a, b = scaled[column], ones[column]
        if not (a.dtype.is_numeric() and b.dtype.is_numeric()):
            assert a.to_list() == b.to_list(), f"{what}: {column}"
            continue
        x, y = a.cast(pl.Float64).to_numpy(), b.cast(pl.Float64).to_numpy()
        same = np.allclose(x, y, rtol=1e-9, atol=1e-12, equal_nan=True)
        counts = np.allclose(x, c * y, rtol=1e-9, atol=1e-12, equal_nan=True)
        assert same or counts, f"{what}: column {column!r} changed with a constant weight {c}"


@pytest.mark.parametrize("c", [0.1, 3.0])
@pytest.mark.parametrize("name", WEIGHTED)
def test_constant_weight_changes_nothing_in_frame_methods(name: str, c: float) -> None:
    function = FRAME_METHODS[name]
    kwargs = dict(EXTRA.get(name, {}))
    if "by" in inspect.signature(function).parameters and name not in ("point",):
        kwargs["by"] = "g"
    scaled = getattr(_weighted_frame(c).roc, name)(weight="w", **kwargs)
    ones = getattr(_weighted_frame(1.0).roc, name)(weight="w", **kwargs)
    if name in FREQUENCY_INFERENCE:  # c copies of each row: only the estimates stay
        keep = [col for col in ones.columns if col in FREQUENCY_INFERENCE[name] or col == "g"]
        scaled, ones = scaled.select(keep), ones.select(keep)
    _same_up_to_counts(scaled, ones, c, name)


#: The expressions' arguments beyond score and label.
EXPRESSION_ARGS: dict[str, dict[str, Any]] = {
    "tpr_at_fpr": {"fpr": 0.3},
    "fpr_at_tpr": {"tpr": 0.6},
    "net_benefit": {"threshold": 0.3},
    "partial_auc": {"fpr": (0.0, 0.5)},
}


def _expressions() -> dict[str, pl.Expr]:
    """Every public expression that takes `weight`, as called on the weighted frame."""
    out = {}
    for name in sorted(pr.__all__):
        function = getattr(pr, name)
        if not callable(function) or isinstance(function, type):
            continue
        try:
            parameters = inspect.signature(function).parameters
        except (TypeError, ValueError):
            continue
        if "weight" not in parameters or function is FRAME_METHODS.get(name) or name == "tally":
            continue
        if name == "multiclass_auc":
            out[name] = function(["a", "b", "c"], "y", weight="w")
        elif name == "accuracy":
            out[name] = function("label", "pred", weight="w")
        elif name in EXPRESSION_ARGS:
            out[name] = function("score", "label", weight="w", **EXPRESSION_ARGS[name])
        else:
            out[name] = function("score", "label", weight="w")
    return out


@pytest.mark.parametrize("c", [0.1, 0.5, 3.0])
def test_constant_weight_changes_nothing_in_expressions(c: float) -> None:
    expressions = _expressions()
    assert {"auc", "multiclass_auc", "expected_calibration_error"} <= set(expressions)
    for name, expr in expressions.items():
        if name == "auc_se":  # a frequency weight c is c copies: the DeLong error shrinks
            continue
        for grouped in (False, True):

            def run(
                frame: pl.DataFrame, expr: pl.Expr = expr, grouped: bool = grouped
            ) -> pl.DataFrame:
                if grouped:
                    return frame.group_by("g").agg(expr).sort("g")
                return frame.select(expr)

            scaled, ones = run(_weighted_frame(c)), run(_weighted_frame(1.0))
            _same_up_to_counts(scaled, ones, c, f"{name} (grouped={grouped})")
    for strategy in ("uniform", "quantile"):
        ece = pr.expected_calibration_error("score", "label", strategy=strategy, weight="w")
        plain = pr.expected_calibration_error("score", "label", strategy=strategy)
        got = _weighted_frame(c).select(ece).item()
        assert got == pytest.approx(_weighted_frame(c).select(plain).item(), rel=1e-9)


@pytest.mark.parametrize("c", [0.1, 3.0])
@pytest.mark.parametrize("backend", ["polars", "pandas", "duckdb"])
def test_constant_weight_changes_nothing_in_tally(backend: str, c: float) -> None:
    scaled = pr.tally(BACKENDS[backend](_weighted_frame(c)), by="g", weight="w")
    ones = pr.tally(BACKENDS[backend](_weighted_frame(1.0)), by="g", weight="w")
    for method in ("auc", "gains_table", "ks", "curve"):
        a = getattr(scaled.roc, method)(by="g", weight="weight").collect()
        b = getattr(ones.roc, method)(by="g", weight="weight").collect()
        _same_up_to_counts(a, b, c, f"tally on {backend}: {method}")


@pytest.mark.slow
def test_sqlframe_route_big_integers_and_nan() -> None:
    # sqlframe (on DuckDB) starts slowly: one test, both rules
    session = pytest.importorskip("sqlframe.duckdb").DuckDBSession()
    big = session.createDataFrame(
        [(BIG + s, y) for s, y in zip([1, 0, 3, 2], [True, False, True, False], strict=True)],
        schema="score bigint, label boolean",
    )
    expected = float(exact_auc([True, False, True, False], [BIG + s for s in [1, 0, 3, 2]]))  # type: ignore[arg-type]
    assert pr.tally(big).roc.auc(weight="weight").collect()["auc"].item() == expected
    assert pr.auc_table(big)["auc"].item() == expected
    rows = [(1, 0.1, 0), (1, 0.2, 0), (1, float("nan"), 1), (1, 0.9, 1), (2, 0.3, 1), (2, 0.7, 0)]
    nan = session.createDataFrame(rows, schema="g bigint, score double, label bigint")
    got = pr.tally(nan, by="g").roc.auc(by="g", weight="weight").collect().sort("g")
    assert got["auc"].to_list() == [None, 0.0]
    assert pr.auc_table(nan, by="g")["auc"].to_list() == [None, 0.0]


# ---------------------------------------------------------------------------------------
# Every frame method that takes a score: shifting integer scores past 2**53 changes nothing
# but the thresholds (shifted by as much), in values and in row order
# ---------------------------------------------------------------------------------------

SCORED = sorted(
    n
    for n, f in FRAME_METHODS.items()
    if "score" in inspect.signature(f).parameters or n.startswith("multiclass")
)
NOT_SHIFTABLE = dict.fromkeys(
    ("calibration", "calibration_fit", "decision_curve", "estimated_auc"),
    "probabilities must lie in [0, 1]",
)
# PSI bins at the reference's quantiles: scores past 2**53 are Float64 levels there.
NOT_SHIFTABLE["score_stability"] = "its bins are Float64 quantiles of the scores"


def _shiftable_frames() -> tuple[pl.DataFrame, pl.DataFrame]:
    rng = np.random.default_rng(5)
    n = 30
    k = rng.integers(0, 6, n)
    small = pl.DataFrame(
        {
            "label": rng.random(n) < 0.5,
            "g": rng.integers(0, 2, n),
            "m": ["a", "b"] * (n // 2),
            "model": ["a", "b"] * (n // 2),
            "fold": rng.integers(0, 3, n),
            "pred": rng.random(n) < 0.5,
            "w": rng.integers(1, 3, n).astype(float),
            "y": rng.choice(["a", "b", "c"], n),
            "score": k,
            "a": k,
            "b": (k * 7) % 6,
            "c": (k * 5) % 6,
        }
    )
    big = small.with_columns(pl.col("score", "a", "b", "c") + BIG)
    return small, big


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("name", SCORED)
def test_scores_past_2_53_change_nothing_but_thresholds(name: str, *, weighted: bool) -> None:
    if name in NOT_SHIFTABLE:
        pytest.skip(NOT_SHIFTABLE[name])
    parameters = inspect.signature(FRAME_METHODS[name]).parameters
    if weighted and ("weight" not in parameters or name in REFUSES_WEIGHT):
        pytest.skip("no weight")
    kwargs = dict(EXTRA.get(name, {}), **({"weight": "w"} if weighted else {}))
    if name == "compare":
        kwargs["model"] = "m"
    small, big = _shiftable_frames()
    a, b = getattr(big.roc, name)(**kwargs), getattr(small.roc, name)(**kwargs)
    assert a.columns == b.columns
    assert a.height == b.height
    for column in a.columns:
        x, y = a[column], b[column]
        if not (x.dtype.is_numeric() and y.dtype.is_numeric()):
            assert x.to_list() == y.to_list(), column
            continue
        xx, yy = x.cast(pl.Float64).to_numpy(), y.cast(pl.Float64).to_numpy()
        same = np.allclose(xx, yy, equal_nan=True)
        shifted = np.allclose(xx, yy + BIG, rtol=1e-15, equal_nan=True)  # a threshold
        assert same or shifted, f"{name}: column {column!r} differs past 2**53"


@pytest.mark.parametrize("name", SCORED)
def test_nan_policy_in_every_scored_frame_method(name: str) -> None:
    if "nan_policy" not in inspect.signature(FRAME_METHODS[name]).parameters:
        pytest.skip("no nan_policy")
    small = _shiftable_frames()[0].with_columns(pl.col("score", "a").cast(pl.Float64) / 6)
    row = pl.int_range(pl.len()) == 3
    nan = small.with_columns(
        pl.when(row).then(float("nan")).otherwise(pl.col(c)).alias(c) for c in ("score", "a")
    )
    kwargs = dict(EXTRA.get(name, {}), **({"model": "m"} if name == "compare" else {}))
    omitted = getattr(nan.roc, name)(nan_policy="omit", **kwargs)
    dropped = getattr(small.filter(~row).roc, name)(**kwargs)
    assert omitted.columns == dropped.columns
    for column in omitted.columns:
        x, y = omitted[column], dropped[column]
        if x.dtype.is_numeric():
            np.testing.assert_allclose(
                x.cast(pl.Float64).to_numpy(), y.cast(pl.Float64).to_numpy(), err_msg=column
            )
        else:
            assert x.to_list() == y.to_list(), column
    propagated = getattr(nan.roc, name)(**kwargs)
    if name == "counts":  # the sufficient statistic: the NaN is a threshold of its own
        assert propagated["threshold"].is_nan().any()
    elif name == "time_curve":  # the NaN row (censored before the horizon) counts nowhere
        assert propagated.height > 0
    else:  # some measure is null (the groups that read the NaN)
        measures = [c for c, d in propagated.schema.items() if d.is_float() or d == pl.Boolean]
        assert sum(propagated[c].null_count() for c in measures) > 0
    with pytest.raises(ValueError, match="NaN"):
        getattr(nan.roc, name)(nan_policy="raise", **kwargs)
