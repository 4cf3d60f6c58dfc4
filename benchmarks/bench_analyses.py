"""Benchmark: every round-3 analysis against its nearest core call, in one run.

Usage::

    python benchmarks/bench_analyses.py [GROUPS] [ROWS_PER_GROUP] [REPEATS]

Defaults: 2,000 groups of 10 rows, 3 repeats. The shapes of the Benchmarks page are
(a) ``100000 2``, (b) ``2000 10`` and (c) ``100 100000`` (10M rows). Each analysis and its
core call run in turn (round-robin, :func:`timing.race`), so a shift in machine load hits
both alike; the script prints both medians and their ratio. Not a test: timings are noisy.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import polars as pl
from timing import race

import polars_roc  # noqa: F401  (registers the .roc namespaces)


def scored(groups: int, per_group: int, seed: int = 0) -> pl.LazyFrame:
    """`groups` groups `g` of `per_group` rows: two segments, five folds, a month of days."""
    rng = np.random.default_rng(seed)
    n = groups * per_group
    label = rng.random(n) < 0.4
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * label - 0.5)))
    row = np.arange(n)
    start = datetime(2024, 1, 1)
    return pl.LazyFrame(
        {
            "g": row // per_group,
            "seg": (row % per_group) % 2,
            "k": (row % per_group) % 5,
            "ts": pl.datetime_range(start, start + timedelta(days=59), "1d", eager=True).sample(
                n, with_replacement=True, seed=seed
            ),
            "time": rng.exponential(5.0, n).round(1) + 0.1,
            "event": rng.random(n) < 0.7,
            "label": label,
            "score": score.round(4),
        }
    )


def pairs(lf: pl.LazyFrame) -> dict[str, tuple[Callable[[], Any], Callable[[], Any]]]:
    """Each analysis beside its nearest core call (the name says which)."""
    t19 = [i / 20 for i in range(1, 20)]
    by = {"by": "g"}
    run = lambda q: lambda: q.collect()  # noqa: E731
    auc_g = run(lf.roc.auc(**by))
    auc_gs = run(lf.roc.auc(by=["g", "seg"]))
    month = lf.with_columns(w=pl.col("ts").dt.truncate("1mo"))
    auc_wg = run(month.roc.auc(by=["w", "g"]))
    reference = pl.col("ts") < datetime(2024, 2, 1)
    return {
        "thresholds(ci=clopper_pearson) / ci=wilson": (
            run(lf.roc.thresholds(**by, thresholds=t19, ci="clopper_pearson")),
            run(lf.roc.thresholds(**by, thresholds=t19, ci="wilson")),
        ),
        "calibration_fit / auc": (run(lf.roc.calibration_fit(**by)), auc_g),
        "best_threshold(fold=) / best_threshold": (
            run(lf.roc.best_threshold(**by, fold="k")),
            run(lf.roc.best_threshold(**by)),
        ),
        "decision_curve / auc": (run(lf.roc.decision_curve(**by)), auc_g),
        "time_auc / auc": (
            run(lf.roc.time_auc(time="time", event="event", horizons=[2.0, 5.0], **by)),
            auc_g,
        ),
        "rollup / auc(by=[g, seg])": (run(lf.roc.rollup(segment="seg", **by)), auc_gs),
        "bias_auc / auc(by=[g, seg])": (run(lf.roc.bias_auc(segment="seg", **by)), auc_gs),
        "cross_auc / auc(by=[g, seg])": (run(lf.roc.cross_auc(segment="seg", **by)), auc_gs),
        "disparity(adjust=holm) / adjust=None": (
            run(lf.roc.disparity(segment="seg", **by, adjust="holm")),
            run(lf.roc.disparity(segment="seg", **by, adjust=None)),
        ),
        "disparity / auc(by=[g, seg], ci=delong)": (
            run(lf.roc.disparity(segment="seg", **by)),
            run(lf.roc.auc(by=["g", "seg"], ci="delong")),
        ),
        "over_time(ci=delong) / auc(by=[month, g])": (
            run(lf.roc.over_time(time="ts", every="1mo", ci="delong", **by)),
            auc_wg,
        ),
        "score_stability / auc(by=[month, g])": (
            run(lf.roc.score_stability(time="ts", every="1mo", reference=reference, **by)),
            auc_wg,
        ),
    }


def main(groups: int = 2_000, per_group: int = 10, repeats: int = 3) -> None:
    lf = scored(groups, per_group).collect().lazy()  # built once, outside the timings
    print(f"polars {pl.__version__}, {pl.thread_pool_size()} threads; {groups:,} groups x ", end="")
    print(f"{per_group:,} rows ({groups * per_group:,} rows), median of {repeats}")
    print(f"  {'analysis / core call':<44} {'analysis':>9} {'core':>9} {'ratio':>7}")
    for name, (analysis, core) in pairs(lf).items():
        seconds = race({"analysis": analysis, "core": core}, repeats)
        ratio = seconds["analysis"] / seconds["core"]
        print(f"  {name:<44} {seconds['analysis']:8.3f}s {seconds['core']:8.3f}s {ratio:6.1f}x")
        sys.stdout.flush()


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:4]))
