"""Benchmark: the full threshold table against scikit-learn, on one big group and many groups.

Usage::

    python benchmarks/bench_thresholds.py [ROWS] [GROUPS] [ROWS_PER_GROUP] [REPEATS]

Defaults: 10,000,000 rows; 100,000 groups of 20 rows; 5 repeats. Prints the median time of
each step and the ratio to scikit-learn measured in the same run. scikit-learn has no grouped
API: its per-group time is measured on a sample of groups (a Python loop over
``precision_recall_curve`` + ``roc_curve``) and scaled to all groups, which the output says.
"""

from __future__ import annotations

import sys

import numpy as np
import polars as pl
from sklearn.metrics import precision_recall_curve, roc_curve
from timing import median_time

import polars_roc as pr


def scored(n: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.random(n) < 0.1
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * label - 1.5)))
    return pl.DataFrame({"label": label, "score": np.round(score, 6)})


def one_group(n: int, repeats: int) -> None:
    df = scored(n)
    y, s = df["label"].to_numpy(), df["score"].to_numpy()

    def sklearn() -> None:
        precision_recall_curve(y, s)
        roc_curve(y, s, drop_intermediate=False)

    ours = median_time(lambda: df.lazy().roc.thresholds().collect(), repeats)
    theirs = median_time(sklearn, repeats)
    rows = df.roc.thresholds().height
    print(f"one group, {n:,} rows ({rows:,} thresholds):")
    print(f"  polars_roc thresholds()                       {ours:8.3f} s")
    print(f"  sklearn precision_recall_curve + roc_curve    {theirs:8.3f} s")
    print(f"  ratio polars_roc / sklearn                    {ours / theirs:8.2f}")
    curve = median_time(lambda: df.lazy().roc.curve().collect(), repeats)
    print(f"  (polars_roc curve() alone                     {curve:8.3f} s)")


def many_groups(groups: int, per_group: int, repeats: int) -> None:
    n = groups * per_group
    df = scored(n, seed=1).with_columns(g=pl.int_range(pl.len()) % groups)
    ours = median_time(lambda: df.lazy().roc.thresholds(by="g").collect(), repeats)
    sample = min(groups, 2000)
    parts = [
        (p["label"].to_numpy(), p["score"].to_numpy())
        for _, p in df.filter(pl.col("g") < sample).group_by("g")
    ]

    def sklearn() -> None:
        for y, s in parts:
            if y.all() or not y.any():
                continue
            precision_recall_curve(y, s)
            roc_curve(y, s, drop_intermediate=False)

    theirs = median_time(sklearn, max(1, repeats // 2)) * groups / sample
    print(f"{groups:,} groups of {per_group} rows ({n:,} rows):")
    print(f"  polars_roc thresholds(by='g')                 {ours:8.3f} s")
    print(f"  sklearn loop, scaled from {sample:,} groups       {theirs:8.3f} s")
    print(f"  ratio polars_roc / sklearn                    {ours / theirs:8.3f}")


def main(argv: list[str]) -> None:
    rows = int(argv[1]) if len(argv) > 1 else 10_000_000
    groups = int(argv[2]) if len(argv) > 2 else 100_000
    per_group = int(argv[3]) if len(argv) > 3 else 20
    repeats = int(argv[4]) if len(argv) > 4 else 5
    print(f"polars {pl.__version__}, polars_roc {pr.__version__}, {pl.thread_pool_size()} threads")
    one_group(rows, repeats)
    many_groups(groups, per_group, repeats)


if __name__ == "__main__":
    main(sys.argv)
