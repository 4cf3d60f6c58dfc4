"""Core benchmark: AUC, grouped AUC, weighted AUC and the full curve versus the peers.

Usage::

    python benchmarks/bench_core.py [--rows 10000000] [--groups 100000] [--repeats 3]

Prints the median wall time of each task and its ratio against scikit-learn, polars-ds and
polarbearings, all measured in the same run on the same data. Peers that are not installed
are skipped (``pip install polars-ds polarbearings`` to include them). Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
from sklearn.metrics import roc_auc_score, roc_curve

import polars_roc as pr

try:
    import polarbearings as pb
except ImportError:  # pragma: no cover - optional peer
    pb = None
try:
    import polars_ds as pds
except ImportError:  # pragma: no cover - optional peer
    pds = None


def median_time(task: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        task()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def report(name: str, ours: float, peers: dict[str, float], note: str = "") -> None:
    print(f"\n{name}: polars_roc {ours:.3f}s {note}")
    for peer, seconds in peers.items():
        print(f"  {peer:<34} {seconds:8.3f}s   polars_roc is {seconds / ours:6.2f}x faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--groups", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--sklearn-groups",
        type=int,
        default=2_000,
        help="groups timed in the scikit-learn loop (extrapolated to --groups)",
    )
    args = parser.parse_args()
    n, k, repeats = args.rows, args.groups, args.repeats
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    w = rng.uniform(0.1, 2.0, n)
    g = rng.integers(0, k, n)
    df = pl.DataFrame({"score": s, "label": y, "y": y.astype(np.int32), "w": w, "g": g})
    print(f"{n:,} rows, {k:,} groups, median of {repeats}; polars {pl.__version__}")

    ours = median_time(lambda: df.select(pr.auc("score", "label")).item(), repeats)
    peers = {"sklearn roc_auc_score": median_time(lambda: roc_auc_score(y, s), repeats)}
    if pb is not None:
        peers["polarbearings roc_auc"] = median_time(
            lambda: df.select(pb.roc_auc("y", "score")).item(), repeats
        )
    if pds is not None:
        peers["polars-ds query_roc_auc"] = median_time(
            lambda: df.select(pds.query_roc_auc("y", "score")).item(), repeats
        )
    report("single AUC", ours, peers)

    ours = median_time(lambda: df.roc.auc(by="g"), repeats)
    parts = df.select("g", "score", "y").partition_by("g", as_dict=False)[: args.sklearn_groups]

    def sklearn_loop() -> None:
        for part in parts:
            labels = part["y"].to_numpy()
            if 0 < labels.sum() < len(labels):
                roc_auc_score(labels, part["score"].to_numpy())

    loop = median_time(sklearn_loop, 1) * k / len(parts)
    peers = {f"sklearn loop (x{k // len(parts)} extrapolated)": loop}
    if pb is not None:
        peers["polarbearings group_by.agg"] = median_time(
            lambda: df.group_by("g").agg(pb.roc_auc("y", "score")), repeats
        )
    if pds is not None:
        peers["polars-ds group_by.agg (1 run: slow)"] = median_time(
            lambda: df.group_by("g").agg(pds.query_roc_auc("y", "score")), 1
        )
    report(f"AUC over {k:,} groups", ours, peers, "(df.roc.auc(by=...), sorted, with counts)")

    ours = median_time(lambda: df.select(pr.auc("score", "label", weight="w")).item(), repeats)
    peers = {
        "sklearn roc_auc_score(sample_weight)": median_time(
            lambda: roc_auc_score(y, s, sample_weight=w), repeats
        )
    }
    if pb is not None:
        peers["polarbearings roc_auc(weight)"] = median_time(
            lambda: df.select(pb.roc_auc("y", "score", weight="w")).item(), repeats
        )
    report("weighted AUC", ours, peers)

    ours = median_time(lambda: df.roc.curve(), repeats)
    peers = {
        "sklearn roc_curve(drop_intermediate=False)": median_time(
            lambda: roc_curve(y, s, drop_intermediate=False), repeats
        )
    }
    if pb is not None:
        peers["polarbearings roc_curve"] = median_time(
            lambda: pb.roc_curve(df, "y", "score").collect(), repeats
        )
    report("full ROC curve", ours, peers)


if __name__ == "__main__":
    main()
