"""
Benchmark: ``df.roc.time_auc`` against a scikit-survival loop over the segments.

Target (issue 34): 10M rows, 10 horizons, 100 segments at least 20x faster than a Python
loop calling ``sksurv.metrics.cumulative_dynamic_auc`` once per segment (the same horizons,
each segment its own censoring curve), measured in the same run; the loop is timed on
``--loop-segments`` segments and scaled linearly to all of them.

The floor is what any exact method needs: the rows in time order (for the Kaplan–Meier
curves) and in score order (for the AUC), i.e. two Polars sorts of the rows, timed in the
same run. ``time_auc`` / floor says how much is left above it.

Run: ``.venv/bin/python benchmarks/bench_survival.py [--rows 10000000] [--segments 100]``.
"""

from __future__ import annotations

import argparse

import numpy as np
import polars as pl
from sksurv.metrics import cumulative_dynamic_auc
from sksurv.util import Surv
from timing import race

import polars_roc  # noqa: F401  (registers .roc)

TARGET = 20.0


def simulate(rows: int, segments: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    risk = rng.normal(size=rows)
    event = rng.exponential(1 / np.exp(0.8 * risk))
    censor = rng.exponential(1.5, rows)
    return pl.DataFrame(
        {
            "segment": rng.integers(0, segments, rows),
            "score": risk + rng.normal(scale=0.7, size=rows),
            "time": np.minimum(event, censor),
            "event": event <= censor,
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--segments", type=int, default=100)
    parser.add_argument("--horizons", type=int, default=10)
    parser.add_argument("--loop-segments", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    df = simulate(args.rows, args.segments)
    horizons = [
        float(q) for q in np.quantile(df["time"].to_numpy(), np.linspace(0.1, 0.8, args.horizons))
    ]
    parts = df.partition_by("segment", as_dict=True)
    sample = list(parts.values())[: args.loop_segments]

    def ours() -> None:
        df.roc.time_auc(time="time", event="event", horizons=horizons, by="segment")

    def loop() -> None:
        for part in sample:
            y = Surv.from_arrays(part["event"].to_numpy(), part["time"].to_numpy())
            cumulative_dynamic_auc(y, y, part["score"].to_numpy(), horizons)

    def floor() -> None:
        df.select(pl.col("score").sort(), pl.col("time").sort())

    times = race({"ours": ours, "loop": loop, "floor": floor}, args.repeats)
    scaled = times["loop"] * len(parts) / len(sample)
    ratio = scaled / times["ours"]
    print(
        f"rows {args.rows:,}, segments {len(parts)}, horizons {len(horizons)}, "
        f"medians of {args.repeats}"
    )
    print(
        f"time_auc: {times['ours']:.2f} s; scikit-survival loop "
        f"(scaled from {len(sample)} segments): {scaled:.2f} s"
    )
    print(f"ratio {ratio:.1f}x (target >= {TARGET:.0f}x: {'met' if ratio >= TARGET else 'missed'})")
    floor_ratio = scaled / times["floor"]
    print(
        f"floor (sort scores and times): {times['floor']:.2f} s; time_auc / floor "
        f"{times['ours'] / times['floor']:.1f}x; loop / floor {floor_ratio:.1f}x (the best "
        "ratio any exact method could reach here)"
    )


if __name__ == "__main__":
    main()
