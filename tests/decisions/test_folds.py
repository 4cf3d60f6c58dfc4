"""Out-of-fold cutpoints against a hand K-fold loop."""

from __future__ import annotations

from typing import Any

import numpy as np
import polars as pl
import pytest

import polars_roc as pr

#: The thresholds table's columns, read off the frame method.
COLUMNS = pl.DataFrame({"score": [0.5], "label": [1]}).roc.thresholds().columns


def frame(n: int = 240, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    return pl.DataFrame(
        {
            "score": (0.25 * y + rng.random(n)).round(2),  # rounded: ties
            "label": y,
            "amount": rng.integers(1, 100, n).astype(float),
            "g": rng.choice(["a", "b"], n),
            "k": rng.integers(0, 4, n),
        }
    )


RULES: list[dict[str, Any]] = [
    {},
    {"method": "f1", "where": pl.col("ppv") >= 0.5},
    {"method": "youden", "capacity": 0.2},
    {"method": "cost", "cost_fn": 4.0, "capacity": 10},
    {"method": "value", "gain_tp": "amount", "cost_fp": 20.0, "capacity": 0.3},
]
IDS = ["youden", "f1-where", "capacity", "cost-count", "value"]


def brute_value(part: pl.DataFrame, t: float | None) -> float | None:
    if t is None:
        return None
    flagged = part["score"].to_numpy() >= t
    y = part["label"].to_numpy()
    return float(part["amount"].to_numpy()[flagged & y].sum() - 20.0 * (flagged & ~y).sum())


def hand_loop(df: pl.DataFrame, rule: dict[str, Any]) -> pl.DataFrame:
    """The K-fold loop by hand: choose on the other folds, measure on the held-out one."""
    rows = []
    for (g, k), held in df.group_by("g", "k"):
        train = df.filter((pl.col("g") == g) & (pl.col("k") != k))
        t = train.roc.best_threshold(**rule)["threshold"].item()
        if t is None:
            measured = {c: None for c in COLUMNS if c != "threshold"}
        else:
            table = held.roc.thresholds(thresholds=[t])
            measured = table.drop("threshold").row(0, named=True)
        row = {"g": g, "k": k, "threshold": t, **measured}
        if rule.get("method") == "value":
            row["value"] = brute_value(held, t)
        rows.append(row)
    return pl.DataFrame(rows).sort("g", "k")


@pytest.mark.parametrize("rule", RULES, ids=IDS)
def test_equals_a_hand_k_fold_loop(rule: dict[str, Any]) -> None:
    df = frame()
    got = df.roc.best_threshold(fold="k", by="g", **rule)
    out = got.filter(~pl.col("in_sample")).sort("g", "k")
    expected = hand_loop(df, rule)
    assert out.select("g", "k").equals(expected.select("g", "k"))
    for column in expected.columns[2:]:
        np.testing.assert_allclose(
            out[column].cast(pl.Float64).fill_null(np.nan),
            expected[column].cast(pl.Float64).fill_null(np.nan),
            atol=1e-9,
            err_msg=column,
        )
    # The in-sample row: the optimum on all the group's rows, measured on them.
    inside = got.filter(pl.col("in_sample")).sort("g")
    assert inside["k"].null_count() == 2
    everyone = df.roc.best_threshold(by="g", **rule).sort("g")
    assert inside["threshold"].to_list() == everyone["threshold"].to_list()
    assert inside["tp"].to_list() == everyone["tp"].to_list()


def test_columns_lazy_and_grouped() -> None:
    df = frame(seed=1)
    eager = df.roc.best_threshold(fold="k", by="g", method="value", gain_tp="amount")
    assert eager.columns == ["g", "k", *COLUMNS, "depth", "value", "value_per_case", "in_sample"]
    lazy = df.lazy().roc.best_threshold(fold="k", by="g", method="value", gain_tp="amount")
    assert lazy.collect().equals(eager)
    alone = df.filter(pl.col("g") == "b").roc.best_threshold(
        fold="k", method="value", gain_tp="amount"
    )
    assert eager.filter(pl.col("g") == "b").drop("g").equals(alone)


def test_optimism_is_visible_and_folds_work_with_direction() -> None:
    sim = pr.datasets.simulate(2000, seed=7).filter(pl.col("model") == "logit")
    sim = sim.with_columns(k=pr.stratified_folds("label", 5, seed=1))
    out = sim.roc.best_threshold(fold="k")
    # The in-sample J is the maximum over every threshold on these rows: no out-of-fold
    # cutpoint, measured on its fold, beats it on average.
    inside = out.filter(pl.col("in_sample"))["youden"].item()
    assert out.filter(~pl.col("in_sample"))["youden"].mean() <= inside
    lower = sim.with_columns(pl.col("score").neg()).roc.best_threshold(fold="k", direction="lower")
    assert lower["threshold"].to_list() == (-out["threshold"]).to_list()


def test_fold_errors() -> None:
    df = frame(n=40)
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="fold column 'nope'"):
        df.roc.best_threshold(fold="nope")
    with pytest.raises(ValueError, match="fold column 'g' is already the by column"):
        df.roc.best_threshold(fold="g", by="g")
    with pytest.raises(ValueError, match="fold column 'score'"):
        df.roc.best_threshold(fold="score")
    with pytest.raises(ValueError, match="ci='bootstrap' supports"):
        df.roc.best_threshold(fold="k", ci="bootstrap")


@pytest.mark.parametrize("name", ["value", "depth", "_heldout", "_gid", "_mass", "_at"])
def test_a_fold_column_may_bear_an_internal_name(name: str) -> None:
    # A fold column named like a column the query builds internally crashed with a
    # DuplicateError and a plan dump.
    df = frame()
    want = df.roc.best_threshold(fold="k", by="g")
    got = df.rename({"k": name}).roc.best_threshold(fold=name, by="g")
    assert got.rename({name: "k"}).equals(want)
    if name in ("value", "depth"):  # output columns of method="value": refused, clearly
        with pytest.raises(ValueError, match=f"fold column '{name}' is also an output column"):
            df.rename({"k": name}).roc.best_threshold(fold=name, method="value", gain_tp=2.0)
        return
    valued = df.rename({"k": name}).roc.best_threshold(fold=name, method="value", gain_tp=2.0)
    want_valued = df.roc.best_threshold(fold="k", method="value", gain_tp=2.0)
    assert valued.rename({name: "k"}).equals(want_valued)


def test_a_fold_column_named_like_an_output_column_is_refused() -> None:
    df = frame(n=40)
    with pytest.raises(ValueError, match="fold column 'tpr' is also an output column"):
        df.rename({"k": "tpr"}).roc.best_threshold(fold="tpr")


@pytest.mark.parametrize("method", ["wilson", "clopper_pearson", "agresti_coull"])
def test_fold_with_a_closed_form_ci_gives_the_held_out_intervals(method: str) -> None:
    from statsmodels.stats.proportion import proportion_confint

    name = {"clopper_pearson": "beta"}.get(method, method)
    out = frame().roc.best_threshold(fold="k", by="g", ci=method, level=0.9)
    plain = frame().roc.best_threshold(fold="k", by="g")
    assert out.select(plain.columns).equals(plain)  # the intervals come beside, nothing moves
    checked = 0
    for row in out.iter_rows(named=True):
        for rate, x, n in (("tpr", "tp", ("tp", "fn")), ("ppv", "tp", ("tp", "fp"))):
            total = row[n[0]] + row[n[1]] if row[n[0]] is not None else 0
            if not total:
                assert row[f"{rate}_lower"] is None
                continue
            want = proportion_confint(row[x], total, alpha=0.1, method=name)
            got = (row[f"{rate}_lower"], row[f"{rate}_upper"])
            assert got == pytest.approx(want, rel=1e-10, abs=1e-12)
            checked += 1
    assert checked >= 10
