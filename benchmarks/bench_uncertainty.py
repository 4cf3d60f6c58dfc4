"""
Benchmark: ``df.roc.bootstrap`` of several metrics against a Python loop of scikit-learn.

Target (issue 14): 2000 replicates x 5 metrics x 100 segments of 10k rows at least 20x
faster than a Python loop of scikit-learn over the same number of stratified resamples.
The loop is timed over ``--loop-boot`` replicates of one segment and scaled (it is linear
in replicates and segments); ours runs the whole ``--segments x --n-boot`` job.

Run: ``.venv/bin/python benchmarks/bench_uncertainty.py [--segments 100] [--n-boot 2000]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import polars as pl

import polars_roc as pr


def scored(rows: int, segments: int, seed: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = rows * segments
    label = rng.random(n) < 0.3
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + label)))
    return pl.DataFrame(
        {"segment": np.repeat(np.arange(segments), rows), "score": score, "label": label}
    )


METRICS = {
    "auc": pr.auc("score", "label"),
    "average_precision": pr.average_precision("score", "label"),
    "brier_score": pr.brier_score("score", "label"),
    "log_loss": pr.log_loss("score", "label"),
    "mean_score": pl.col("score").mean(),
}


def sklearn_loop(frame: pl.DataFrame, n_boot: int) -> float:
    """Seconds per replicate of one segment, 5 metrics, stratified resamples."""
    from sklearn.metrics import (
        average_precision_score,
        brier_score_loss,
        log_loss,
        roc_auc_score,
    )

    y, s = frame["label"].to_numpy(), frame["score"].to_numpy()
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    for _ in range(n_boot):
        rows = np.r_[
            pos[rng.integers(0, len(pos), len(pos))], neg[rng.integers(0, len(neg), len(neg))]
        ]
        yy, ss = y[rows], s[rows]
        roc_auc_score(yy, ss)
        average_precision_score(yy, ss)
        brier_score_loss(yy, ss)
        log_loss(yy, ss)
        ss.mean()
    return (time.perf_counter() - start) / n_boot


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--segments", type=int, default=100)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--loop-boot", type=int, default=100)
    args = parser.parse_args()
    frame = scored(args.rows, args.segments, seed=0)
    start = time.perf_counter()
    frame.roc.bootstrap(METRICS, by="segment", n_boot=args.n_boot, seed=0)
    ours = time.perf_counter() - start
    per_rep = sklearn_loop(frame.filter(pl.col("segment") == 0), args.loop_boot)
    theirs = per_rep * args.n_boot * args.segments
    jobs = f"{args.segments} segments x {args.rows:,} rows x {args.n_boot} replicates x 5 metrics"
    print(f"metric bootstrap: {jobs}")
    ours_rep = ours / args.n_boot / args.segments
    print(f"  df.roc.bootstrap     {ours:9.2f} s  ({ours_rep * 1e3:.2f} ms per replicate)")
    print(f"  sklearn loop (est.)  {theirs:9.2f} s  ({per_rep * 1e3:.2f} ms per replicate)")
    print(f"  speed-up {theirs / ours:5.1f}x  (target >= 20x)")


if __name__ == "__main__":
    main()
