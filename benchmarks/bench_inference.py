"""
Benchmark: DeLong and bootstrap intervals (a script, not a test).

Targets (issue 4), each measured as a ratio within one run:

1. ``auc(ci="delong")`` over 100k groups / 10M rows costs <= 2x plain ``auc``;
2. 2000 stratified bootstrap replicates of the AUC on 10k rows are >= 10x faster than a
   Python loop of ``sklearn.metrics.roc_auc_score`` over 2000 stratified resamples;
3. 100 segments at once cost <= ~2x one segment of the same total size.

Run: ``.venv/bin/python benchmarks/bench_inference.py [--rows 10_000_000] [--groups 100_000]``.
Times are medians of ``--repeats`` runs (the sklearn loop runs once: it is the slow side).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import polars as pl
from timing import median_time

import polars_roc  # noqa: F401  (registers .roc)


def scored(n: int, groups: int, seed: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.random(n) < 0.3
    score = np.round(rng.normal(size=n) + label, 3)  # rounded: ties, as in real scorecards
    return pl.DataFrame({"group": rng.integers(0, groups, n), "score": score, "label": label})


def bench_delong(rows: int, groups: int, repeats: int) -> None:
    lf = scored(rows, groups, seed=0).lazy()
    plain = median_time(lambda: lf.roc.auc(by="group").collect(), repeats)
    delong = median_time(lambda: lf.roc.auc(by="group", ci="delong").collect(), repeats)
    print(f"delong: {rows:,} rows / {groups:,} groups")
    print(f"  plain auc          {plain:8.3f} s")
    print(f"  auc(ci='delong')   {delong:8.3f} s   ratio {delong / plain:5.2f}x  (target <= 2x)")


def bench_bootstrap(rows: int, n_boot: int, repeats: int, loop_boot: int) -> None:
    from sklearn.metrics import roc_auc_score

    frame = scored(rows, 1, seed=1)
    ours = median_time(lambda: frame.roc.auc(ci="bootstrap", n_boot=n_boot, seed=0), repeats)
    labels, scores = frame["label"].to_numpy(), frame["score"].to_numpy()
    pos, neg = np.flatnonzero(labels), np.flatnonzero(~labels)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(loop_boot):
        idx = np.concatenate([rng.choice(pos, len(pos)), rng.choice(neg, len(neg))])
        roc_auc_score(labels[idx], scores[idx])
    loop = (time.perf_counter() - start) * n_boot / loop_boot
    note = "" if loop_boot == n_boot else f" (timed {loop_boot}, scaled to {n_boot})"
    print(f"bootstrap: {n_boot} replicates of the AUC on {rows:,} rows")
    print(f"  sklearn loop       {loop:8.3f} s{note}")
    print(f"  auc(ci='bootstrap'){ours:8.3f} s   speed-up {loop / ours:5.1f}x  (target >= 10x)")

    segments = scored(rows, 100, seed=2)
    one = segments.with_columns(group=pl.lit(0))
    single = median_time(lambda: one.roc.auc(by="group", ci="bootstrap", n_boot=n_boot), repeats)
    many = median_time(lambda: segments.roc.auc(by="group", ci="bootstrap", n_boot=n_boot), repeats)
    print(f"  1 segment of {rows:,}    {single:8.3f} s")
    print(f"  100 segments, same rows {many:6.3f} s   ratio {many / single:5.2f}x  (target <= ~2x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--rows", type=int, default=10_000_000, help="rows for the DeLong case")
    parser.add_argument("--groups", type=int, default=100_000, help="groups for the DeLong case")
    parser.add_argument("--boot-rows", type=int, default=10_000)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--loop-boot", type=int, default=2000, help="sklearn loop replicates")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    bench_delong(args.rows, args.groups, args.repeats)
    bench_bootstrap(args.boot_rows, args.n_boot, args.repeats, args.loop_boot)


if __name__ == "__main__":
    main()
