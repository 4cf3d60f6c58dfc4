"""Value and decision curves, as ratios measured in the same run.

Usage::

    python benchmarks/bench_decisions.py [--rows 10000000] [--groups 1000] [--dca-rows 1000000]
                                         [--repeats 3]

* ``value_curve(gain_tp=<per-row amount>, cost_fp=5, by=g)`` against ``curve(by=g)`` on
  the same rows (target: at most 1.5x): the amount's running sum rides in the counts
  core's one sort.
* ``decision_curve`` (99 thresholds) against ``dcurves.dca`` on ``--dca-rows`` rows
  (target: at least 20x faster, i.e. a ratio of at most 0.05).

Each pair runs interleaved, round after round; the medians and their ratio are printed
(below 1: the first is faster). Ends with one line per target: "met" or "MISSED". Not a
test: timings are noisy on a shared machine, so compare the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
from timing import race

import polars_roc  # noqa: F401 (registers the .roc namespaces)

TARGETS: list[tuple[str, float, float]] = []  # (name, ratio, at most)


def compare(title: str, ours: Callable[[], Any], theirs: Callable[[], Any], repeats: int) -> float:
    medians = race({"ours": ours, "theirs": theirs}, repeats)
    ratio = medians["ours"] / medians["theirs"]
    print(
        f"  {title:<52} {medians['ours']:8.3f}s vs {medians['theirs']:8.3f}s  ratio {ratio:6.3f}",
        flush=True,
    )
    return ratio


def frame(rows: int, groups: int, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.1
    return pl.DataFrame(
        {
            "g": rng.integers(0, groups, rows),
            "label": y,
            "score": np.clip(0.1 + 0.3 * y + rng.normal(0, 0.2, rows), 0.0005, 0.9995),
            "amount": rng.lognormal(4, 1, rows),
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--dca-rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    df = frame(args.rows, args.groups)
    print(f"\nvalue curve, {df.height:,} rows in {args.groups:,} groups:")
    ratio = compare(
        "value_curve(gain_tp='amount', by='g') / curve(by='g')",
        lambda: df.roc.value_curve(gain_tp="amount", cost_fp=5.0, by="g"),
        lambda: df.roc.curve(by="g"),
        args.repeats,
    )
    TARGETS.append(("value_curve / curve, grouped", ratio, 1.5))

    import dcurves  # the oracle of the tests: optional here too

    small = frame(args.dca_rows, 1, seed=1).with_columns(pl.col("score").round(3))
    pandas = small.select(p="score", y=pl.col("label").cast(pl.Int64)).to_pandas()
    thresholds = [i / 100 for i in range(1, 100)]

    def theirs() -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return dcurves.dca(data=pandas, outcome="y", modelnames=["p"], thresholds=thresholds)

    print(f"\ndecision curve, {small.height:,} rows, 99 thresholds:")
    ratio = compare(
        "decision_curve / dcurves.dca",
        lambda: small.roc.decision_curve(),
        theirs,
        args.repeats,
    )
    TARGETS.append(("decision_curve / dcurves.dca", ratio, 0.05))

    print()
    for name, value, most in TARGETS:
        print(f"{'met' if value <= most else 'MISSED':>6}  {name}: {value:.3f} (at most {most})")


if __name__ == "__main__":
    main()
