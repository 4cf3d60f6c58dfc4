"""Value curves and capacity against brute force over every threshold."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import polars_roc as pr

POOL = [0.1, 0.2, 0.4, 0.5, 0.7, 0.9]  # a small pool forces ties
AMOUNTS = ("gain_tp", "cost_fp", "cost_fn", "gain_tn")


@st.composite
def cases(draw: st.DrawFn, *, groups: int = 1) -> pl.DataFrame:
    n = draw(st.integers(1, 14))
    floats = st.integers(0, 20).map(float)
    return pl.DataFrame(
        {
            "score": draw(st.lists(st.sampled_from(POOL), min_size=n, max_size=n)),
            "label": draw(st.lists(st.booleans(), min_size=n, max_size=n)),
            "amount": draw(st.lists(floats, min_size=n, max_size=n)),
            "other": draw(st.lists(floats, min_size=n, max_size=n)),
            "w": draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)),
            "g": draw(st.lists(st.integers(0, groups - 1), min_size=n, max_size=n)),
        },
        schema_overrides={"w": pl.Int64},
    )


def brute_value(df: pl.DataFrame, t: float, amounts: dict[str, Any]) -> tuple[float, float]:
    """(value, flagged weight) flagging the rows with score >= t, by a plain loop."""
    total = flagged_weight = 0.0
    for row in df.iter_rows(named=True):
        w = row.get("_weight", 1.0)

        def amount(argument: str, row: dict[str, Any] = row) -> float:
            value = amounts[argument]
            return float(row[value] if isinstance(value, str) else value)

        flagged = row["score"] >= t
        flagged_weight += w * flagged
        if row["label"] and flagged:
            total += w * amount("gain_tp")
        elif row["label"]:
            total -= w * amount("cost_fn")
        elif flagged:
            total -= w * amount("cost_fp")
        else:
            total += w * amount("gain_tn")
    return total, flagged_weight


def candidates(df: pl.DataFrame) -> list[float]:
    return [float("inf"), *sorted(set(df["score"].to_list()), reverse=True)]


SETTINGS = [
    {"gain_tp": "amount", "cost_fp": 3.0, "cost_fn": 0.0, "gain_tn": 0.0},
    {"gain_tp": 5.0, "cost_fp": "other", "cost_fn": "amount", "gain_tn": 1.0},
    {"gain_tp": 1.0, "cost_fp": 0.0, "cost_fn": 0.0, "gain_tn": 0.0},
]


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
@pytest.mark.parametrize("amounts", SETTINGS, ids=["gain-column", "mixed", "defaults"])
@settings(max_examples=25)
@given(df=cases())
@example(df=pl.DataFrame({"score": [0.5, 0.5], "label": [True, False], "amount": [2.0, 7.0],
                          "other": [1.0, 1.0], "w": [1, 1], "g": [0, 0]}))  # fmt: skip
def test_value_curve_is_brute_force(df: pl.DataFrame, amounts: dict[str, Any], lazy: bool) -> None:
    frame = df.lazy() if lazy else df
    out = pr.decisions.value_curve(frame, **amounts)
    got = out.collect() if isinstance(out, pl.LazyFrame) else out
    assert got.columns == ["threshold", "depth", "tp", "fp", "value", "value_per_case"]
    assert got["threshold"].to_list() == candidates(df)
    for row in got.iter_rows(named=True):
        value, flagged = brute_value(df, row["threshold"], amounts)
        assert row["value"] == pytest.approx(value, abs=1e-9)
        assert row["depth"] == pytest.approx(flagged / df.height)
        assert row["value_per_case"] == pytest.approx(value / df.height, abs=1e-9)
        assert row["tp"] + row["fp"] == flagged


@settings(max_examples=25)
@given(df=cases())
def test_weights_are_repeated_rows(df: pl.DataFrame) -> None:
    amounts = SETTINGS[1]
    weighted = df.roc.value_curve(weight="w", **amounts)
    repeated = df.select(pl.all().repeat_by("w").explode()).roc.value_curve(**amounts)
    assert weighted["threshold"].to_list() == repeated["threshold"].to_list()
    for column in ("depth", "tp", "fp", "value", "value_per_case"):
        np.testing.assert_allclose(weighted[column], repeated[column].cast(pl.Float64), atol=1e-9)


@settings(max_examples=20)
@given(df=cases(groups=3))
def test_grouped_is_one_group_at_a_time(df: pl.DataFrame) -> None:
    amounts = SETTINGS[1]
    grouped = df.roc.value_curve(by="g", **amounts)
    for (g,), part in df.group_by("g"):
        alone = part.roc.value_curve(**amounts)
        mine = grouped.filter(pl.col("g") == g).drop("g")
        assert mine.equals(alone), (g, mine, alone)


def test_streaming_equals_in_memory() -> None:
    sim = pr.datasets.simulate(2000, seed=3).with_columns(amount=pl.col("score") * 100)
    query = sim.lazy().roc.value_curve(gain_tp="amount", cost_fp=5.0, by="model")
    a, b = query.collect(), query.collect(engine="streaming")
    assert a.sort(a.columns).equals(b.sort(b.columns))


def best_brute(
    df: pl.DataFrame, objective: Any, capacity: float | int | None = None
) -> tuple[float, float]:
    """(threshold, objective) maximizing `objective(t)` among thresholds within capacity;
    the highest threshold wins a tie (objectives within 1e-9)."""
    fits = []
    for t in candidates(df):
        flagged = int((df["score"] >= t).sum())
        if capacity is None:
            ok = True
        elif isinstance(capacity, int):
            ok = flagged <= capacity
        else:
            ok = flagged / df.height <= capacity
        if ok and objective(t) is not None:
            fits.append((t, objective(t)))
    best = max(v for _, v in fits)
    return next((t, v) for t, v in fits if v >= best - 1e-9)  # highest threshold first


def youden(df: pl.DataFrame) -> Any:
    y, s = df["label"].to_numpy(), df["score"].to_numpy()

    def j(t: float) -> float | None:
        if y.all() or not y.any():
            return None
        return float((s[y] >= t).mean() - (s[~y] >= t).mean())

    return j


@pytest.mark.parametrize("capacity", [None, 0.3, 0.5, 1.0, 2, 5])
@settings(max_examples=12)
@given(df=cases())
def test_best_value_with_capacity_is_brute_force(df: pl.DataFrame, capacity: Any) -> None:
    amounts = SETTINGS[0]
    got = df.roc.best_threshold(method="value", capacity=capacity, **amounts)
    threshold, value = best_brute(df, lambda t: brute_value(df, t, amounts)[0], capacity)
    assert got["threshold"].item() == threshold
    assert got["value"].item() == pytest.approx(value)


@pytest.mark.parametrize("capacity", [0.25, 0.5, 3])
@settings(max_examples=12)
@given(df=cases())
def test_capacity_on_youden_is_brute_force(df: pl.DataFrame, capacity: Any) -> None:
    got = df.roc.best_threshold(capacity=capacity)
    j = youden(df)
    if j(0.0) is None:
        assert got["threshold"].item() is None
        return
    threshold, _ = best_brute(df, j, capacity)
    assert got["threshold"].item() == threshold


def test_capacity_boundary_is_inclusive_and_ties_go_up() -> None:
    # 10 rows; the top 2 rows are 20%: capacity 0.2 allows them (depth == capacity).
    df = pl.DataFrame(
        {
            "score": [0.9, 0.8, 0.7, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1],
            "label": [1, 1, 1, 0, 1, 0, 0, 0, 0, 0],
        }
    )
    assert df.roc.best_threshold(method="tpr", capacity=0.2)["threshold"].item() == 0.8
    assert df.roc.best_threshold(method="tpr", capacity=2)["threshold"].item() == 0.8
    # capacity 3 rows: the tied block at 0.7 would make 4, so it does not fit; 0.8 wins.
    assert df.roc.best_threshold(method="tpr", capacity=3)["threshold"].item() == 0.8
    assert df.roc.best_threshold(method="tpr", capacity=0.3)["threshold"].item() == 0.8
    assert df.roc.best_threshold(method="tpr", capacity=0.4)["threshold"].item() == 0.7
    # 0.29 of 100 rows is 29 rows exactly: kept although 0.29 * 100 < 29 in floats.
    big = pl.DataFrame({"score": np.arange(100, 0, -1) / 100, "label": [1] * 29 + [0] * 71})
    assert big.roc.best_threshold(method="tpr", capacity=0.29)["tp"].item() == 29


def test_value_curve_example_numbers() -> None:
    df = pl.DataFrame(
        {"score": [0.9, 0.8, 0.7, 0.2], "label": [1, 0, 1, 0], "amount": [100.0, 50.0, 30.0, 80.0]}
    )
    out = df.roc.value_curve(gain_tp="amount", cost_fp=10.0, cost_fn="amount", gain_tn=1.0)
    # At 0.8: 100 gained, 10 spent on the flagged negative, 30 missed, 1 passed negative.
    assert out["value"].to_list() == [-128.0, 72.0, 61.0, 121.0, 110.0]


def test_nan_score_group_is_null_and_omit_drops_it() -> None:
    df = pl.DataFrame(
        {"score": [0.9, float("nan"), 0.2], "label": [1, 0, 0], "amount": [1.0, 2.0, 3.0]}
    )
    assert df.roc.value_curve(gain_tp="amount")["value"].null_count() == 4
    omitted = df.roc.value_curve(gain_tp="amount", nan_policy="omit")
    assert omitted["value"].to_list() == [0.0, 1.0, 1.0]


@pytest.mark.parametrize(
    ("kwargs", "error", "needle"),
    [
        ({"cost_fp": -1.0}, ValueError, "cost_fp must be a non-negative"),
        ({"gain_tp": float("inf")}, ValueError, "gain_tp must be a non-negative"),
        ({"gain_tn": True}, ValueError, "gain_tn must be"),
        ({"gain_tp": "nope"}, pl.exceptions.ColumnNotFoundError, "gain_tp column 'nope'"),
        ({"cost_fn": "name"}, pl.exceptions.SchemaError, "cost_fn column 'name' has dtype"),
        ({"gain_tp": "neg"}, ValueError, "gain_tp column 'neg' holds [-5.0]"),
        ({"gain_tp": "gap"}, ValueError, "gain_tp column 'gap' holds 1 null"),
    ],
)
def test_bad_amounts_name_the_argument(kwargs: dict[str, Any], error: type, needle: str) -> None:
    df = pl.DataFrame(
        {
            "score": [0.9, 0.5, 0.1],
            "label": [1, 1, 0],
            "neg": [1.0, -5.0, 2.0],
            "gap": [1.0, None, 2.0],
            "name": ["a", "b", "c"],
        }
    )
    with pytest.raises(error, match=needle.replace("[", r"\[").replace("]", r"\]")):
        df.roc.value_curve(**kwargs)


def test_null_amount_where_it_does_not_apply_is_fine() -> None:
    # A cost_fp on a positive row never counts: its null is not an error.
    df = pl.DataFrame({"score": [0.9, 0.1], "label": [1, 0], "c": [None, 2.0]})
    assert df.roc.value_curve(gain_tp=0.0, cost_fp="c")["value"].to_list() == [0.0, 0.0, -2.0]


@pytest.mark.parametrize("capacity", [0, 0.0, -0.1, 1.5, -3, True, "2%", float("nan")])
def test_bad_capacity(capacity: Any) -> None:
    df = pl.DataFrame({"score": [0.9, 0.1], "label": [1, 0]})
    with pytest.raises(ValueError, match="capacity must be a fraction"):
        df.roc.best_threshold(capacity=capacity)


def test_cost_method_keeps_its_checks_and_value_takes_columns() -> None:
    df = pl.DataFrame({"score": [0.9, 0.1], "label": [1, 0], "a": [1.0, 2.0]})
    with pytest.raises(ValueError, match="cost_fp must be a positive"):
        df.roc.best_threshold(method="cost", cost_fp=0.0)
    with pytest.raises(ValueError, match="cost_fp must be a positive"):
        df.roc.best_threshold(method="cost", cost_fp="a")
    with pytest.raises(ValueError, match="ci='bootstrap' supports"):
        df.roc.best_threshold(capacity=0.5, ci="bootstrap")
    out = df.roc.best_threshold(method="value", gain_tp="a", cost_fp="a")
    assert out.select("threshold", "value", "depth").row(0) == (0.9, 1.0, 0.5)


def test_direction_lower_is_the_negated_score() -> None:
    df = pl.DataFrame(
        {"score": [0.9, 0.5, 0.5, 0.2], "label": [1, 0, 1, 0], "amount": [4.0, 1.0, 2.0, 8.0]}
    )
    higher = df.roc.value_curve(gain_tp="amount", cost_fp=1.0)
    lower = df.with_columns(-pl.col("score")).roc.value_curve(
        gain_tp="amount", cost_fp=1.0, direction="lower"
    )
    assert lower["threshold"].to_list() == [-t for t in higher["threshold"].to_list()]
    assert lower.drop("threshold").equals(higher.drop("threshold"))
