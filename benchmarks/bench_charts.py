"""Benchmark: building the charts of a 1M-row threshold table (issue 15, item 5).

Usage::

    python benchmarks/bench_charts.py [ROWS] [REPEATS]

Defaults: 1,000,000 rows, 5 repeats. Prints the median time to compute the threshold table
and to build each chart's Vega-Lite spec from it (thinning included), measured in the same
run, each chart's ratio to the frame it draws, and "met"/"missed" for the target: every chart
builder within 2x the time of its frame plus a fixed 0.3 s (Altair's validation) on 1M rows.
The first build of each chart is not timed (imports).
"""

from __future__ import annotations

import sys

import numpy as np
import polars as pl
from timing import median_time

from polars_roc import charts  # importing the package registers `.roc`


def main(rows: int = 1_000_000, repeats: int = 5) -> None:
    rng = np.random.default_rng(0)
    label = rng.random(rows) < 0.3
    frame = pl.DataFrame({"score": rng.normal(size=rows) + label, "label": label})
    table = frame.roc.thresholds()
    curve = frame.roc.curve()
    print(f"{rows:,} rows, {table.height:,} thresholds, median of {repeats}")
    frames = {
        "thresholds": median_time(frame.roc.thresholds, repeats),
        "curve": median_time(frame.roc.curve, repeats),
    }
    for name, seconds in frames.items():
        print(f"  {name + '() frame':<24} {seconds:7.3f} s")
    builds = {
        "threshold_chart": ("thresholds", lambda: charts.threshold_chart(table).to_dict()),
        "threshold_explorer": ("thresholds", lambda: charts.threshold_explorer(table).to_dict()),
        "roc_chart": ("curve", lambda: charts.roc_chart(curve).to_dict()),
    }
    for name, (drawn, build) in builds.items():
        build()  # imports done
        seconds = median_time(build, repeats)
        base = frames[drawn]
        met = "met" if seconds <= 2 * base + 0.3 else "missed"
        print(
            f"  {name:<24} {seconds:7.3f} s  {seconds / base:5.2f}x its frame  "
            f"target <= 2x + 0.3 s: {met}"
        )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
