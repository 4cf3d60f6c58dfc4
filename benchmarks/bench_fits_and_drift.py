"""Grouped calibration fits and score stability at many small groups, as same-run ratios.

At 2,000 groups × 10 rows (run as ``python benchmarks/bench_fits_and_drift.py``):

* ``group_by(g).agg(pr.calibration_slope(...))`` / ``calibration_fit(by=g)`` (target 1.5x:
  the expression fits every group in one vectorised call);
* ``calibration_fit(by=g)`` / ``auc(by=g)`` (target 10x);
* ``score_stability(by=g)`` / ``auc(by=[window, g])`` (target 3x).

Tasks run round-robin (:func:`timing.race`), medians printed with their ratios.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from timing import race

import polars_roc as pr

GROUPS, ROWS, REPEATS = 2_000, 10, 15


def main() -> None:
    rng = np.random.default_rng(0)
    n = GROUPS * ROWS
    truth = rng.uniform(0.05, 0.95, n)
    df = pl.DataFrame(
        {
            "g": np.repeat(np.arange(GROUPS), ROWS),
            "p": 1 / (1 + np.exp(-2 * np.log(truth / (1 - truth)))),  # overconfident
            "y": rng.uniform(size=n) < truth,
            "t": np.tile(np.arange(ROWS) % 2, GROUPS),
        }
    )
    times = race(
        {
            "calibration_fit": lambda: df.roc.calibration_fit("p", "y", by="g"),
            "agg(calibration_slope)": lambda: df.group_by("g").agg(pr.calibration_slope("p", "y")),
            "auc(by=g)": lambda: df.roc.auc("p", "y", by="g"),
            "score_stability": lambda: df.roc.score_stability(
                "p", time="t", every="1i", reference=(0, 0), by="g"
            ),
            "auc(by=[t, g])": lambda: df.roc.auc("p", "y", by=["t", "g"]),
        },
        REPEATS,
    )
    for name, seconds in times.items():
        print(f"{name:>24}: {seconds * 1000:8.1f} ms")
    ratios = [
        (
            "agg(calibration_slope) / calibration_fit",
            "agg(calibration_slope)",
            "calibration_fit",
            1.5,
        ),
        ("calibration_fit / auc(by=g)", "calibration_fit", "auc(by=g)", 10.0),
        ("score_stability / auc(by=[t, g])", "score_stability", "auc(by=[t, g])", 3.0),
    ]
    for label, top, bottom, target in ratios:
        ratio = times[top] / times[bottom]
        print(f"{label:>42}: {ratio:5.2f}x (target {target}x)")


if __name__ == "__main__":
    main()
