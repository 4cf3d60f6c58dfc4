"""Multiclass benchmark: one-vs-rest macro AUC per segment and one-vs-one, versus the peers.

Usage::

    python benchmarks/bench_multiclass.py [--rows 1000000] [--classes 10] [--segments 100]

Prints the median wall time (and the process's CPU time) of each task (issue 12's targets):

* OvR macro AUC per segment: ``df.roc.multiclass_auc(by="segment")`` and the expression in
  ``group_by().agg()``, against a scikit-learn loop over the segments
  (``roc_auc_score(multi_class="ovr")`` per segment; the rows are split by segment before the
  clock starts, so the loop is timed at its fastest). Target: at least 20x faster.
* OvO (Hand & Till) on all rows: ``df.roc.multiclass_auc(method="ovo")`` against the cost
  of 45 binary AUCs (``pr.auc``) on the pair subsets, of the 90 that Hand & Till's M needs
  (A(a|b) and A(b|a) for each pair), and against scikit-learn.

Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np
import polars as pl
from sklearn.metrics import roc_auc_score

import polars_roc as pr

CPU: list[str] = []


def median_time(task: Callable[[], Any], repeats: int) -> float:
    """Median wall time; the CPU time of the process (all threads) is kept in `CPU`."""
    times, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        task()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    CPU.append(f"{statistics.median(cpu):.3f}s")
    return statistics.median(times)


def data(rows: int, classes: int, segments: int, seed: int = 0) -> pl.DataFrame:
    """Softmax scores with some signal for the true class; ties from rounding to 1e-4."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, classes, rows)
    logits = rng.normal(size=(rows, classes))
    logits[np.arange(rows), y] += 1.0
    p = np.exp(logits)
    p /= p.sum(axis=1, keepdims=True)
    columns = {f"p{k}": p[:, k] for k in range(classes)}
    return pl.DataFrame({"segment": rng.integers(0, segments, rows), "y": y, **columns})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--segments", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    df = data(args.rows, args.classes, args.segments)
    scores = {k: f"p{k}" for k in range(args.classes)}
    print(f"{args.rows:,} rows, {args.classes} classes, {args.segments} segments")

    ours = median_time(lambda: df.roc.multiclass_auc(scores, "y", by="segment"), args.repeats)
    expr = pr.multiclass_auc(scores, "y")
    ours_expr = median_time(lambda: df.group_by("segment").agg(expr), args.repeats)
    y, proba = df["y"].to_numpy(), df.select(scores.values()).to_numpy()
    order = np.argsort(df["segment"].to_numpy(), kind="stable")
    parts = np.split(order, np.flatnonzero(np.diff(df["segment"].to_numpy()[order])) + 1)

    def sklearn_loop() -> list[float]:
        return [roc_auc_score(y[i], proba[i], multi_class="ovr") for i in parts]

    sk = median_time(sklearn_loop, 1)
    print(f"\nOvR macro per segment: frame {ours:.3f}s, expression {ours_expr:.3f}s")
    print(f"  scikit-learn loop {sk:.3f}s: frame {sk / ours:.1f}x faster,", end=" ")
    print(f"expression {sk / ours_expr:.1f}x faster")

    ovo = median_time(lambda: df.roc.multiclass_auc(scores, "y", method="ovo"), args.repeats)

    def binary_pairs(both: bool) -> list[Any]:
        out = []
        for a, b in combinations(range(args.classes), 2):
            subset = df.filter(pl.col("y").is_in([a, b]))
            sides = [(a, b), (b, a)] if both else [(a, b)]
            aucs = [pr.auc(f"p{c}", pl.col("y") == c).alias(f"a{c}") for c, _ in sides]
            out.append(subset.select(aucs).row(0))
        return out

    pairs = median_time(lambda: binary_pairs(both=False), args.repeats)
    both = median_time(lambda: binary_pairs(both=True), args.repeats)
    sk_ovo = median_time(lambda: roc_auc_score(y, proba, multi_class="ovo"), 1)
    n_pairs = args.classes * (args.classes - 1) // 2
    print(f"\nOvO (Hand & Till) on all rows: {ovo:.3f}s")
    print(f"  {n_pairs} binary AUCs on the pair subsets {pairs:.3f}s: ratio {ovo / pairs:.2f}")
    print(f"  {2 * n_pairs} (A(a|b) and A(b|a)) {both:.3f}s: ratio {ovo / both:.2f}")
    print(f"  scikit-learn {sk_ovo:.3f}s: {sk_ovo / ovo:.1f}x faster")
    # On a shared machine wall times swing with the load; CPU time (all threads) does less.
    tasks = ["ovr frame", "ovr expression", "sklearn ovr loop", "ovo", "45 AUCs", "90 AUCs"]
    pairs_cpu = zip([*tasks, "sklearn ovo"], CPU, strict=True)
    print("\nCPU time:", ", ".join(f"{t} {c}" for t, c in pairs_cpu))


if __name__ == "__main__":
    main()
