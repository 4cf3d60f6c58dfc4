"""
Benchmark: ``df.roc.over_time`` against the AUC table it is built on, and its bootstrap.

Targets (issue 31, benchmarks):

* ``over_time`` on 10M rows, 24 monthly windows x 100 segments, AUC with DeLong intervals:
  at most 3x the cost of ``df.roc.auc(by=[window, segment], ci="delong")`` on a precomputed
  window column, in the same run (the difference is finding the windows, the counts, the
  reference band and the alerts);
* the bootstrap per window (``ci="bootstrap"``) against a Python loop of scikit-learn's
  ``roc_auc_score`` over the same number of stratified resamples (timed on a sample of
  replicates and scaled: the loop is linear in them).

Both sides of each ratio run round-robin (``timing.race``), so a change in the load of a
shared machine hits both alike.

Run: ``.venv/bin/python benchmarks/bench_monitoring.py [--rows 10000000] [--segments 100]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import time

import numpy as np
import polars as pl
from sklearn.metrics import roc_auc_score
from timing import race

import polars_roc  # noqa: F401  (registers .roc)

TARGET = 3.0


def scored(rows: int, segments: int, seed: int = 0) -> pl.DataFrame:
    """Rows over 24 months in `segments` segments, with a signal of AUC about 0.76."""
    rng = np.random.default_rng(seed)
    label = rng.random(rows) < 0.3
    score = 1 / (1 + np.exp(-(rng.normal(size=rows) + label)))
    start = dt.datetime(2023, 1, 1)
    seconds = rng.integers(0, 730 * 86400, rows)
    return pl.DataFrame(
        {"segment": rng.integers(0, segments, rows), "score": score, "label": label}
    ).with_columns(t=pl.lit(start) + pl.Series(seconds * 1000).cast(pl.Duration("ms")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--segments", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-boot", type=int, default=500)
    parser.add_argument("--boot-segments", type=int, default=2)
    parser.add_argument("--loop-boot", type=int, default=20)
    args = parser.parse_args()

    df = scored(args.rows, args.segments)
    windowed = df.with_columns(window=pl.col("t").dt.truncate("1mo"))
    reference = ("2023-01-01", "2023-06-30")

    def ours() -> pl.DataFrame:
        return df.roc.over_time(
            time="t", every="1mo", by="segment", ci="delong", reference=reference
        )

    def table() -> pl.DataFrame:
        return windowed.roc.auc(by=["window", "segment"], ci="delong")

    out = ours()
    check = table()
    assert out.height == check.height, (out.height, check.height)
    seconds = race({"over_time": ours, "auc_table": table}, args.repeats)
    ratio = seconds["over_time"] / seconds["auc_table"]
    print(
        f"over_time, {args.rows:,} rows, 24 windows x {args.segments} segments, DeLong: "
        f"{seconds['over_time']:.2f} s; auc(by=[window, segment], ci='delong') on a "
        f"precomputed window: {seconds['auc_table']:.2f} s; ratio {ratio:.2f}x "
        f"(target <= {TARGET}x): {'met' if ratio <= TARGET else 'NOT met'}"
    )

    # The bootstrap per window, on a few segments, against a scikit-learn loop.
    few = df.filter(pl.col("segment") < args.boot_segments)
    start, start_cpu = time.perf_counter(), time.process_time()
    boot = few.roc.over_time(
        time="t", every="1mo", by="segment", ci="bootstrap", n_boot=args.n_boot, seed=0
    )
    ours_boot, ours_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    rng = np.random.default_rng(1)
    loop = loop_cpu = 0.0
    parts = few.with_columns(w=pl.col("t").dt.truncate("1mo")).partition_by("segment", "w")
    for part in parts:
        y, s = part["label"].to_numpy(), part["score"].to_numpy()
        pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
        begin, begin_cpu = time.perf_counter(), time.process_time()
        for _ in range(args.loop_boot):
            rows = np.r_[
                pos[rng.integers(0, len(pos), len(pos))], neg[rng.integers(0, len(neg), len(neg))]
            ]
            roc_auc_score(y[rows], s[rows])
        loop += (time.perf_counter() - begin) * args.n_boot / args.loop_boot
        loop_cpu += (time.process_time() - begin_cpu) * args.n_boot / args.loop_boot
    print(
        f"bootstrap per window: {boot.height} windows x {args.n_boot} replicates "
        f"({few.height:,} rows): ours {ours_boot:.2f} s, scikit-learn loop (scaled from "
        f"{args.loop_boot} replicates per window) {loop:.2f} s: {loop / ours_boot:.1f}x faster "
        f"(CPU seconds, all threads: ours {ours_cpu:.2f}, loop {loop_cpu:.2f}: "
        f"{loop_cpu / ours_cpu:.1f}x)"
    )


if __name__ == "__main__":
    main()
