"""The metric bootstrap's two evaluation paths, each against scikit-learn over the same resamples.

The bootstrap computes our AUC, average precision, Brier score and log loss from each
replicate's row counts, and runs any other expression as a query over the resampled rows
(here: the same metrics behind an extra alias, which it cannot recognise, and a user's mean).
Oracle: the documented resampling scheme replayed by hand, each resample scored by
scikit-learn. Both paths must give its numbers, on tied and distinct scores, Boolean and 0/1
labels, and a second score column that the replicates are not laid out by.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, brier_score_loss, log_loss, roc_auc_score

import polars_roc as pr
from polars_roc._core.resampling import group_rng


def metrics(score: str) -> dict[str, pl.Expr]:
    return {
        "auc": pr.auc(score, "label"),
        "ap": pr.average_precision(score, "label"),
        "brier": pr.brier_score(score, "label"),
        "log_loss": pr.log_loss(score, "label"),
    }


def scorers(y: np.ndarray, p: np.ndarray) -> list[float]:
    return [
        roc_auc_score(y, p),
        average_precision_score(y, p),
        brier_score_loss(y, p),
        log_loss(y, p),
    ]


def replayed(df: pl.DataFrame, seed: int, n_boot: int, score: str) -> np.ndarray:
    """(n_boot, 4): scikit-learn on each resample, drawn as metric_bootstrap documents."""
    df = df.sort(df.columns, nulls_last=True, maintain_order=True)
    labels = df["label"].to_numpy()
    strata = [np.flatnonzero(labels == v) for v in np.unique(labels)]
    rng = group_rng(seed, [])
    drawn = [rows[rng.integers(0, len(rows), size=(n_boot, len(rows)))] for rows in strata]
    y, p = labels.astype(int), df[score].to_numpy()
    return np.array([scorers(y[rows], p[rows]) for rows in np.concatenate(drawn, axis=1)])


def check(row: dict, values: np.ndarray, estimate: float) -> None:
    close = {"rel": 1e-9, "abs": 1e-12}
    assert row["estimate"] == pytest.approx(estimate, **close)
    assert row["se"] == pytest.approx(values.std(ddof=1), **close)
    bounds = np.quantile(values, [0.025, 0.975])
    assert (row["lower"], row["upper"]) == pytest.approx(tuple(bounds), **close)


@settings(max_examples=15, deadline=None)
@given(
    n=st.integers(6, 60),
    decimals=st.sampled_from([1, 2, None]),
    integer_labels=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_count_and_query_paths_match_resamples_scored_by_sklearn(
    n: int, decimals: int | None, *, integer_labels: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    label = np.r_[True, False, rng.random(n - 2) < 0.4]
    first = 1 / (1 + np.exp(-(rng.normal(size=n) + label)))
    second = rng.random(n)  # not the column the replicates are laid out by
    if decimals is not None:
        first, second = np.round(first, decimals), np.round(second, decimals)
    df = pl.DataFrame(
        {"first": first, "second": second, "label": label.astype(int) if integer_labels else label}
    )
    ours = {
        f"{score}/{name}": e for score in ("first", "second") for name, e in metrics(score).items()
    }
    hidden = {f"{name}/hidden": e.alias(name) for name, e in ours.items()}
    mean = {"mean": pl.col("second").mean()}
    got = df.roc.bootstrap({**ours, **hidden, **mean}, n_boot=40, seed=seed % 1000)
    rows = {row["metric"]: row for row in got.iter_rows(named=True)}
    y = label.astype(int)
    for score, p in (("first", first), ("second", second)):
        values = replayed(df, seed % 1000, 40, score)
        for j, (name, estimate) in enumerate(zip(metrics(score), scorers(y, p), strict=True)):
            check(rows[f"{score}/{name}"], values[:, j], estimate)
            check(rows[f"{score}/{name}/hidden"], values[:, j], estimate)


def test_expressions_reading_no_column_or_a_selector_see_the_same_resamples() -> None:
    rng = np.random.default_rng(3)
    n = 40
    label = rng.random(n) < 0.4
    df = pl.DataFrame({"first": rng.random(n), "second": rng.random(n), "label": label})
    exprs = {
        "rows": pl.len(),
        "both": pl.sum_horizontal(pl.col("first", "second")).mean(),
        "median": pl.col("second").median(),  # a sorting expression
    }
    got = df.roc.bootstrap(exprs, n_boot=60, seed=4)
    canonical = df.sort(df.columns, maintain_order=True)
    labels = canonical["label"].to_numpy()
    strata = [np.flatnonzero(labels == v) for v in np.unique(labels)]
    draw = group_rng(4, [])
    drawn = [rows[draw.integers(0, len(rows), size=(60, len(rows)))] for rows in strata]
    first, second = canonical["first"].to_numpy(), canonical["second"].to_numpy()
    values = np.array(
        [
            [len(rows), (first[rows] + second[rows]).mean(), np.median(second[rows])]
            for rows in np.concatenate(drawn, axis=1)
        ]
    )
    estimates = [n, (first + second).mean(), np.median(second)]
    for j, row in enumerate(got.iter_rows(named=True)):
        check(row, values[:, j], estimates[j])
