"""
Benchmark: segments (issue 30) as ratios to ``df.roc.auc(by=[model, segment])``, same run.

Targets (issue 30):

1. ``rollup(segment=, by=model)`` with 1,000 segments x 3 models costs <= 2x the AUC per
   (model, segment);
2. ``cross_auc`` over 30 segments costs <= 5x the AUC per (model, segment) of the same rows;
3. ``bias_auc`` with 1,000 segments (not a target: measured beside the roll-up);
4. the disparity bootstrap of a metric expression (``metrics=``) against a Python loop of
   ``sklearn.metrics.roc_auc_score`` over the same number of stratified resamples of each
   segment and of the rest.

Run: ``.venv/bin/python benchmarks/bench_segments.py [--rows 10_000_000] [--repeats 3]``
(`--rows` is the total over the three models). Times are medians of ``--repeats`` runs, the
tasks of each comparison run in turn.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import polars as pl
from timing import race

import polars_roc as pr


def scored(n: int, segments: int, seed: int) -> pl.LazyFrame:
    """`n` rows over three models and `segments` segments; rounded scores (ties)."""
    rng = np.random.default_rng(seed)
    segment = rng.integers(0, segments, n)
    label = rng.random(n) < 0.1 + 0.2 * segment / segments
    score = np.round(rng.normal(size=n) + label + segment / segments, 3)
    model = rng.integers(0, 3, n)
    frame = pl.DataFrame({"model": model, "segment": segment, "score": score, "label": label})
    return frame.lazy()


def ratios(name: str, lf: pl.LazyFrame, method: str, repeats: int, target: float | None) -> None:
    tasks = {
        "auc(by=[model, segment])": lambda: lf.roc.auc(by=["model", "segment"]).collect(),
        method: lambda: getattr(lf.roc, method)(segment="segment", by="model").collect(),
    }
    times = race(tasks, repeats)
    base, ours = times["auc(by=[model, segment])"], times[method]
    goal = f"  (target <= {target:g}x)" if target else ""
    print(f"{name}")
    print(f"  auc(by=[model, segment]) {base:8.3f} s")
    print(f"  {method:<24} {ours:8.3f} s   ratio {ours / base:5.2f}x{goal}")


def rollup_floor(lf: pl.LazyFrame, repeats: int) -> None:
    """The roll-up against what it must compute: the pooled AUC and each segment's DeLong AUC."""

    def floor() -> None:
        lf.roc.auc(by="model").collect()
        lf.roc.auc(by=["model", "segment"], ci="delong").collect()

    tasks = {
        "floor": floor,
        "rollup": lambda: lf.roc.rollup(segment="segment", by="model").collect(),
    }
    times = race(tasks, repeats)
    print("  floor: auc(by=model) + auc(by=[model, segment], ci='delong')")
    print(f"    {times['floor']:8.3f} s; rollup {times['rollup']:8.3f} s", end="")
    print(f"   ratio {times['rollup'] / times['floor']:5.2f}x")


def bench_disparity_bootstrap(rows: int, segments: int, n_boot: int, loop_boot: int) -> None:
    from sklearn.metrics import roc_auc_score

    frame = scored(rows, segments, seed=2).filter(pl.col("model") == 0).collect()
    metrics = {"auc": pr.auc("score", "label")}
    start = time.perf_counter()
    frame.roc.disparity(segment="segment", metrics=metrics, n_boot=n_boot, seed=0)
    ours = time.perf_counter() - start
    rng = np.random.default_rng(0)
    labels, scores = frame["label"].to_numpy(), frame["score"].to_numpy()
    segment = frame["segment"].to_numpy()
    start = time.perf_counter()
    for value in np.unique(segment):
        for side in (segment == value, segment != value):
            pos, neg = np.flatnonzero(side & labels), np.flatnonzero(side & ~labels)
            for _ in range(loop_boot):
                idx = np.concatenate([rng.choice(pos, len(pos)), rng.choice(neg, len(neg))])
                roc_auc_score(labels[idx], scores[idx])
    loop = (time.perf_counter() - start) * n_boot / loop_boot
    note = "" if loop_boot == n_boot else f" (timed {loop_boot}, scaled to {n_boot})"
    print(f"disparity bootstrap: {n_boot} replicates, {segments} segments, {frame.height:,} rows")
    print(f"  sklearn loop             {loop:8.3f} s{note}")
    print(f"  disparity(metrics=...)   {ours:8.3f} s   speed-up {loop / ours:5.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--segments", type=int, default=1000)
    parser.add_argument("--cross-segments", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--boot-rows", type=int, default=30_000)
    parser.add_argument("--n-boot", type=int, default=500)
    parser.add_argument("--loop-boot", type=int, default=50)
    parser.add_argument("--skip", nargs="*", default=[], help="parts to skip, e.g. disparity")
    args = parser.parse_args()
    print(f"polars {pl.__version__}; {args.rows:,} rows, 3 models")
    many = scored(args.rows, args.segments, seed=0).collect().lazy()
    ratios(f"rollup: {args.segments:,} segments", many, "rollup", args.repeats, 2.0)
    rollup_floor(many, args.repeats)
    ratios(f"bias_auc: {args.segments:,} segments", many, "bias_auc", args.repeats, None)
    few = scored(args.rows, args.cross_segments, seed=1).collect().lazy()
    ratios(f"cross_auc: {args.cross_segments} segments", few, "cross_auc", args.repeats, 5.0)
    if "disparity" not in args.skip:
        name = f"disparity (AUC, DeLong vs rest): {args.cross_segments} segments"
        ratios(name, few, "disparity", args.repeats, None)
    if "bootstrap" not in args.skip:
        bench_disparity_bootstrap(args.boot_rows * 3, 5, args.n_boot, args.loop_boot)


if __name__ == "__main__":
    main()
