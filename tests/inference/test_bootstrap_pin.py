"""
Regression pin of ``df.roc.bootstrap`` (issue 28 item 16).

The metric bootstrap was vectorised across groups; its numbers must stay the SAME, bit for
bit, as before. ``tests/data/metric_bootstrap_pin.json`` holds the output of the per-group
code (commit 5042daf) on the layouts below, produced once before the change; this test
compares every float exactly (as its ``repr``). The layouts cover: many groups of varied
sizes with tied and distinct scores, an unused column sorted before the score (the
canonical order), one-class groups, a NaN score, a null label, string labels, two `by`
columns with nulls, large groups (several blocks of replicates), and metrics on both the
count path (ours) and the query path (a user's expression, one that sorts). The numbers'
correctness is checked against independent oracles in ``tests/test_uncertainty*.py`` and
``tests/inference/test_metric_bootstrap_groups.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest

import polars_roc as pr

PIN = Path(__file__).parents[1] / "data" / "metric_bootstrap_pin.json"


def metrics() -> dict[str, pl.Expr]:
    return {
        "auc": pr.auc("score", "label"),
        "ap": pr.average_precision("score", "label"),
        "brier": pr.brier_score("score", "label"),
        "log_loss": pr.log_loss("score", "label"),
        "mean": pl.col("score").mean(),
        "median": pl.col("score").median(),
    }


def many_groups(seed: int, groups: int, most: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, most + 1, size=groups)
    g = np.repeat(np.arange(groups), sizes)
    n = len(g)
    label = rng.random(n) < 0.4
    score = np.clip(rng.normal(0.4 + 0.2 * label, 0.2), 0.001, 0.999)
    score = np.where(rng.random(n) < 0.5, np.round(score, 1), score)  # ties in some rows
    order = rng.permutation(n)
    return pl.DataFrame(
        {
            "aaa": rng.integers(0, 3, size=n)[order],  # unused, sorted before the score
            "g": g[order],
            "score": score[order],
            "label": label[order].astype(np.int64),
        }
    )


def edge_groups() -> pl.DataFrame:
    rows: list[tuple[Any, ...]] = []
    rng = np.random.default_rng(5)
    for group in range(8):
        for _ in range(12):
            rows.append((f"s{group}", None if group == 2 else "x", float(rng.random()), group))
    frame = pl.DataFrame(rows, schema=["g", "h", "score", "k"], orient="row")
    label = pl.Series("label", (rng.random(frame.height) < 0.5).astype(np.int64))
    frame = frame.with_columns(label)
    return frame.with_columns(
        # group s0: one class only; s1: a NaN score; s3: a null label
        label=pl.when(pl.col("g") == "s0").then(1).otherwise(pl.col("label")),
        score=pl.when((pl.col("g") == "s1") & (pl.col("k") == 1) & (pl.int_range(pl.len()) == 13))
        .then(float("nan"))
        .otherwise(pl.col("score")),
    ).with_columns(
        label=pl.when((pl.col("g") == "s3") & (pl.int_range(pl.len()) == 40))
        .then(None)
        .otherwise(pl.col("label"))
    )


def string_labels() -> pl.DataFrame:
    rng = np.random.default_rng(9)
    n = 300
    return pl.DataFrame(
        {
            "g": rng.integers(0, 6, size=n),
            "score": np.round(rng.random(n), 2),
            "label": np.where(rng.random(n) < 0.3, "yes", "no"),
        }
    )


def big_groups() -> pl.DataFrame:
    rng = np.random.default_rng(11)
    n = 6000
    label = rng.random(n) < 0.3
    return pl.DataFrame(
        {
            "g": np.repeat([1, 2], n // 2),
            "score": np.clip(rng.normal(0.4 + 0.2 * label, 0.2), 0.001, 0.999),
            "label": label,
        }
    )


def case(name: str, seed: int) -> pl.DataFrame:
    if name == "many":
        return many_groups(1, 40, 30).roc.bootstrap(metrics(), by="g", n_boot=60, seed=seed)
    if name == "tiny":
        return many_groups(2, 200, 10).roc.bootstrap(
            {"auc": pr.auc("score", "label")}, by="g", n_boot=50, seed=seed
        )
    if name == "edges":
        m = {k: v for k, v in metrics().items() if k != "median"}
        return edge_groups().roc.bootstrap(m, by=["h", "k"], n_boot=40, seed=seed)
    if name == "strings":
        m = {"mean": pl.col("score").mean(), "max": pl.col("score").max()}
        return string_labels().roc.bootstrap(m, by="g", n_boot=40, seed=seed)
    if name == "big":
        m = {k: metrics()[k] for k in ("auc", "ap", "brier")}
        return big_groups().roc.bootstrap(m, by="g", n_boot=80, seed=seed)
    if name == "known":  # our metrics only: every group on the count path
        m = {k: metrics()[k] for k in ("auc", "ap", "brier", "log_loss")}
        return many_groups(4, 60, 25).roc.bootstrap(m, by="g", n_boot=45, seed=seed)
    if name == "known-edges":  # the count path beside groups it cannot take
        m = {k: metrics()[k] for k in ("log_loss", "auc")}
        return edge_groups().roc.bootstrap(m, by=["h", "k"], n_boot=30, seed=seed)
    if name == "ungrouped":
        return many_groups(3, 1, 200).drop("g").roc.bootstrap(metrics(), n_boot=70, seed=seed)
    raise AssertionError(name)


CASES = [
    (name, seed)
    for name in ("many", "tiny", "edges", "strings", "big", "ungrouped", "known", "known-edges")
    for seed in (0, 7)
]


def as_text(frame: pl.DataFrame) -> list[list[str]]:
    """Every value as its repr (floats exactly); rows sorted (the order is tested elsewhere)."""
    return sorted([repr(value) for value in row] for row in frame.rows())


@pytest.mark.parametrize(("name", "seed"), CASES)
def test_metric_bootstrap_numbers_are_pinned(name: str, seed: int) -> None:
    expected = json.loads(PIN.read_text())[f"{name}-{seed}"]
    got = as_text(case(name, seed))
    assert len(got) == len(expected)
    for row, pinned in zip(got, expected, strict=True):
        # Pinned to the last bit or two: the group and metric columns exactly, every number
        # within 1e-13 relative. Floating sums are not associative, and numpy and Polars
        # releases change how they split a sum (pairwise blocks, SIMD lanes); average
        # precision's kernel was also shared with the frame method after the pin was made.
        # Both move a number by an ulp or two, never more.
        assert len(row) == len(pinned)
        for value, want in zip(row, pinned, strict=True):
            if value != want:
                assert _is_number(value), (row, pinned)
                assert _is_number(want), (row, pinned)
                assert math.isclose(float(value), float(want), rel_tol=1e-13), (row, pinned)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return not text.startswith("'")


if __name__ == "__main__":  # writes the pin: run ONCE on the code the pin freezes
    pinned = {f"{n}-{s}": as_text(case(n, s)) for n, s in CASES}
    lines = ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in pinned.items())
    PIN.write_text("{\n" + lines + "\n}\n")
