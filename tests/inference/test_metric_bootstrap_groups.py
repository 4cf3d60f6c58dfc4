"""
``df.roc.bootstrap`` over many groups (issue 28 items 12 and 16).

The bootstrap now runs every group in one pass (canonical order, layout and estimates once,
replicates from count matrices with each group's own generator). Checked here: a metric may
read the `by` column by its name (item 12); metrics come in the order given; each group's
numbers are those of the group alone (grouped == one group at a time); and an independent
oracle, the documented resamples replayed by hand per group and scored by scikit-learn.
``tests/inference/test_bootstrap_pin.py`` pins the numbers of the per-group code bit for bit.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from sklearn.metrics import average_precision_score, brier_score_loss, log_loss, roc_auc_score

import polars_roc as pr
from polars_roc._core.resampling import group_rng


def scored(groups: int, seed: int, *, most: int = 30) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    sizes = rng.integers(4, most, size=groups)
    n = int(sizes.sum())
    label = np.concatenate([np.r_[True, False, rng.random(k - 2) < 0.4] for k in sizes])
    score = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + label))), 2)  # ties too
    order = rng.permutation(n)
    g = np.repeat([f"g{i:03d}" for i in range(groups)], sizes)
    return pl.DataFrame({"g": g[order], "score": score[order], "label": label[order]})


def test_a_metric_reading_the_by_column_works() -> None:
    """Item 12: it failed naming the internal __roc_by0; it must see the user's column."""
    df = pl.DataFrame(
        {
            "g": ["a"] * 6 + ["b"] * 6,
            "score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.9] * 2,
            "label": [0, 0, 1, 1, 0, 1] * 2,
        }
    )
    metrics = {"auc": pr.auc("score", "label"), "is_a": (pl.col("g") == "a").mean()}
    out = df.roc.bootstrap(metrics, by="g", n_boot=20, seed=0)
    assert out.columns == ["g", "metric", "estimate", "se", "lower", "upper"]
    is_a = out.filter(pl.col("metric") == "is_a")
    assert is_a["estimate"].to_list() == [1.0, 0.0]
    assert is_a["se"].to_list() == [0.0, 0.0]
    lazy = df.lazy().roc.bootstrap(metrics, by="g", n_boot=20, seed=0).collect()
    assert lazy.equals(out)


def test_a_non_scalar_metric_names_itself() -> None:
    df = scored(3, 1)
    with pytest.raises(ValueError, match="'rows' gives several values per group"):
        df.roc.bootstrap({"rows": pl.col("score")}, by="g", n_boot=5, seed=0)


def test_metrics_come_in_the_order_given_with_two_by_columns() -> None:
    df = scored(12, 2).with_columns(h=pl.col("g").str.slice(0, 3), k=pl.col("g").str.slice(3))
    names = ["log_loss", "mean", "auc", "brier", "ap"]
    exprs = {
        "log_loss": pr.log_loss("score", "label"),
        "mean": pl.col("score").mean(),
        "auc": pr.auc("score", "label"),
        "brier": pr.brier_score("score", "label"),
        "ap": pr.average_precision("score", "label"),
    }
    out = df.roc.bootstrap(exprs, by=["h", "k"], n_boot=10, seed=1)
    for _, part in out.group_by("h", "k"):
        assert part["metric"].to_list() == names
    assert (
        out.select("h", "k")
        .unique(maintain_order=True)
        .equals(out.select("h", "k").unique().sort("h", "k"))
    )


def test_grouped_equals_one_group_at_a_time() -> None:
    df = scored(25, 3)
    metrics = {"auc": pr.auc("score", "label"), "ap": pr.average_precision("score", "label")}
    together = df.roc.bootstrap(metrics, by="g", n_boot=30, seed=5)
    for name in ("g000", "g007", "g024"):
        alone = df.filter(pl.col("g") == name).roc.bootstrap(metrics, by="g", n_boot=30, seed=5)
        assert together.filter(pl.col("g") == name).equals(alone)
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=9)
    assert shuffled.roc.bootstrap(metrics, by="g", n_boot=30, seed=5).equals(together)


def replayed(group: pl.DataFrame, key: str, seed: int, n_boot: int) -> np.ndarray:
    """(n_boot, 4) scikit-learn scores of the group's resamples, drawn as documented."""
    canon = group.sort(group.columns, nulls_last=True, maintain_order=True)
    labels = canon["label"].to_numpy()
    strata = [np.flatnonzero(labels == v) for v in np.unique(labels)]
    rng = group_rng(seed, [key])
    drawn = [rows[rng.integers(0, len(rows), size=(n_boot, len(rows)))] for rows in strata]
    y, p = labels.astype(int), canon["score"].to_numpy()
    out = []
    for rows in np.concatenate(drawn, axis=1):
        yy, pp = y[rows], p[rows]
        out.append(
            [
                roc_auc_score(yy, pp),
                average_precision_score(yy, pp),
                brier_score_loss(yy, pp),
                log_loss(yy, pp, labels=[0, 1]),
            ]
        )
    return np.array(out)


def test_many_groups_match_resamples_scored_by_sklearn() -> None:
    df = scored(40, 4, most=20)
    metrics = {
        "auc": pr.auc("score", "label"),
        "ap": pr.average_precision("score", "label"),
        "brier": pr.brier_score("score", "label"),
        "log_loss": pr.log_loss("score", "label"),
    }
    got = df.roc.bootstrap(metrics, by="g", n_boot=25, seed=11)
    close = {"rel": 1e-9, "abs": 1e-12}
    for key in ("g000", "g013", "g027", "g039"):
        group = df.filter(pl.col("g") == key)
        values = replayed(group, key, 11, 25)
        y, p = group["label"].to_numpy().astype(int), group["score"].to_numpy()
        estimates = [
            roc_auc_score(y, p),
            average_precision_score(y, p),
            brier_score_loss(y, p),
            log_loss(y, p),
        ]
        rows = got.filter(pl.col("g") == key).iter_rows(named=True)
        for j, row in enumerate(rows):
            assert row["estimate"] == pytest.approx(estimates[j], **close)
            assert row["se"] == pytest.approx(values[:, j].std(ddof=1), **close)
            bounds = tuple(np.quantile(values[:, j], [0.025, 0.975]))
            assert (row["lower"], row["upper"]) == pytest.approx(bounds, **close)
