"""
Benchmark: ``df.roc.slices`` as a ratio to ``auc(by=[f1, f2])`` summed over the feature pairs.

Target (issue 41): at 1M rows, 3 features of 4 bands and ``depth=2``, within 5x the sum over
the three feature pairs of ``lf.roc.auc(by=[f1, f2])`` on the same (already banded) rows.

Run: ``.venv/bin/python benchmarks/bench_slices.py [--rows 1_000_000] [--repeats 3]``.
Times are medians of ``--repeats`` runs, the tasks run in turn.
"""

from __future__ import annotations

import argparse
import itertools

import numpy as np
import polars as pl
from timing import race

import polars_roc as pr  # noqa: F401  (registers .roc)

FEATURES = ["f1", "f2", "f3"]


def scored(n: int, seed: int) -> pl.LazyFrame:
    """`n` rows, three features of four values each (as the bands slices would cut)."""
    rng = np.random.default_rng(seed)
    features = {f: rng.integers(0, 4, n) for f in FEATURES}
    label = rng.random(n) < 0.2
    score = np.round(rng.normal(size=n) + label, 3)
    return pl.DataFrame({**features, "score": score, "label": label}).lazy()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    lf = scored(args.rows, seed=0)
    pairs = list(itertools.combinations(FEATURES, 2))

    def baseline() -> None:
        for f1, f2 in pairs:
            lf.roc.auc(by=[f1, f2]).collect()

    tasks = {
        "auc(by=[f1, f2]) x 3 pairs": baseline,
        "slices(depth=2)": lambda: lf.roc.slices(features=FEATURES, depth=2).collect(),
    }
    times = race(tasks, args.repeats)
    base, ours = times["auc(by=[f1, f2]) x 3 pairs"], times["slices(depth=2)"]
    print(f"slices at {args.rows:,} rows, 3 features x 4 values, depth 2")
    print(f"  auc(by=[f1, f2]) x 3 pairs {base:8.3f} s")
    print(f"  slices(depth=2)            {ours:8.3f} s   ratio {ours / base:5.2f}x  (target <= 5x)")


if __name__ == "__main__":
    main()
