"""
Benchmark: ``df.roc.bootstrap`` of five metrics against a Python loop of scikit-learn.

Target (issue 14, item 6): 2000 replicates x 5 metrics x 100 segments of 10k rows at least
20x faster than a Python loop of scikit-learn over the same number of stratified resamples.

All figures come from one run, on one machine:

* ours: the whole ``--segments x --n-boot`` job (in rounds, below): our AUC, average precision,
  Brier score and log loss (computed from the replicates' row counts) and a user's own
  expression (the mean score, run as a query over the resampled rows);
* scikit-learn: a Python loop drawing stratified resamples with numpy and scoring each with
  ``roc_auc_score``, ``average_precision_score``, ``brier_score_loss``, ``log_loss`` and a
  numpy mean, timed over ``--loop-boot`` replicates per round and scaled to the whole job
  (the loop is linear in replicates and segments);
* the job runs in ``--rounds`` rounds, each timing a batch of segments with ours and then
  the scikit-learn sample, so both see the same load on a shared machine; the ratio is
  total against total, with the median of the rounds' ratios beside it, and the CPU
  seconds (all threads summed) are given too;
* the query path: the same five metrics hidden behind an alias (so the bootstrap cannot
  recognise ours and runs every one as a query over the resampled rows, as it does any
  user expression), timed on ``--query-segments`` segments and scaled.

Run: ``.venv/bin/python benchmarks/bench_uncertainty.py [--segments 100] [--n-boot 2000]``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import polars as pl
from sklearn.metrics import average_precision_score, brier_score_loss, log_loss, roc_auc_score

import polars_roc as pr

TARGET = 20.0


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

#: The same metrics as expressions the bootstrap does not recognise: all run as queries.
HIDDEN = {name: expr.alias(name) for name, expr in METRICS.items()}


def sklearn_loop(part: pl.DataFrame, n_boot: int, rng: np.random.Generator) -> tuple[float, float]:
    """Wall and CPU seconds of `n_boot` stratified resamples of one segment, 5 metrics."""
    y, s = part["label"].to_numpy(), part["score"].to_numpy()
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    start, start_cpu = time.perf_counter(), time.process_time()
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
    return time.perf_counter() - start, time.process_time() - start_cpu


def timed(frame: pl.DataFrame, metrics: dict[str, pl.Expr], n_boot: int) -> tuple[float, float]:
    """Wall and CPU seconds (CPU summed over all threads) of the whole bootstrap."""
    start, start_cpu = time.perf_counter(), time.process_time()
    frame.roc.bootstrap(metrics, by="segment", n_boot=n_boot, seed=0)
    return time.perf_counter() - start, time.process_time() - start_cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--segments", type=int, default=100)
    parser.add_argument("--n-boot", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument(
        "--loop-boot", type=int, default=20, help="scikit-learn replicates per round"
    )
    parser.add_argument("--query-segments", type=int, default=1)
    args = parser.parse_args()
    frame = scored(args.rows, args.segments, seed=0)
    replicates = args.n_boot * args.segments
    rounds = max(1, min(args.rounds, args.segments))
    batches = np.array_split(np.arange(args.segments), rounds)
    rng = np.random.default_rng(0)

    # Interleaved: each round times a batch of segments with ours, then a sample of the
    # scikit-learn loop, so that both see the same load on a shared machine.
    ours = ours_cpu = loop = loop_cpu = 0.0
    ratios = []
    for i, batch in enumerate(batches):
        part = frame.filter(pl.col("segment").is_in(batch.tolist()))
        wall, cpu = timed(part, METRICS, args.n_boot)
        one = frame.filter(pl.col("segment") == int(batch[0]))
        their_wall, their_cpu = sklearn_loop(one, args.loop_boot, rng)
        ours, ours_cpu, loop, loop_cpu = (
            ours + wall,
            ours_cpu + cpu,
            loop + their_wall,
            loop_cpu + their_cpu,
        )
        ratios.append(their_wall / args.loop_boot * len(batch) * args.n_boot / wall)
        print(
            f"  round {i + 1}/{rounds}: {len(batch)} segments, ratio {ratios[-1]:.1f}x", flush=True
        )
    sampled = args.loop_boot * rounds
    per_rep, per_rep_cpu = loop / sampled, loop_cpu / sampled
    theirs, theirs_cpu = per_rep * replicates, per_rep_cpu * replicates
    sample = frame.filter(pl.col("segment") < args.query_segments)
    query = timed(sample, HIDDEN, args.n_boot)[0] * args.segments / args.query_segments

    jobs = f"{args.segments} segments x {args.rows:,} rows x {args.n_boot} replicates x 5 metrics"
    print(f"metric bootstrap: {jobs}")
    print(
        f"  df.roc.bootstrap             {ours:9.1f} s wall {ours_cpu:9.1f} s CPU "
        f"({ours / replicates * 1e3:.3f} ms/replicate)"
    )
    print(
        f"  scikit-learn loop (scaled)   {theirs:9.1f} s wall {theirs_cpu:9.1f} s CPU "
        f"({per_rep * 1e3:.3f} ms/replicate; {sampled} replicates timed, "
        f"{args.loop_boot} per round)"
    )
    print(
        f"  all five as queries (scaled) {query:9.1f} s wall "
        f"({query / replicates * 1e3:.3f} ms/replicate; {args.query_segments} segment(s) "
        f"timed): {theirs / query:.1f}x scikit-learn"
    )
    print(f"  CPU time: {theirs_cpu / ours_cpu:.1f}x less than scikit-learn (all threads summed)")
    print(f"  median of the {rounds} rounds' ratios: {statistics.median(ratios):.1f}x")
    ratio = theirs / ours
    verdict = "met" if ratio >= TARGET else "missed"
    print(
        f"  speed-up {ratio:.1f}x scikit-learn, wall, same run (target >= {TARGET:.0f}x): {verdict}"
    )


if __name__ == "__main__":
    main()
