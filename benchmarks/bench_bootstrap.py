"""
Benchmark: ``df.roc.bootstrap`` over many small groups against ``auc(ci="bootstrap")``.

Target (issue 28, item 16): the metric bootstrap of ``{"auc": pr.auc("score", "label")}``
grouped by a segment column within 3x of ``df.roc.auc(by=..., ci="bootstrap")``, the
bootstrap built into the AUC, with the same replicates, over 2,000 and over 20,000 groups.
Before the change the metric bootstrap ran Python (and Polars) once per group: 29 s against
1.6 s over 2,000 groups, 262 s over 20,000 groups of 10 rows (50 replicates).

Each layout is ``GROUPS:ROWS`` (groups of ROWS rows each, 30% positives); both calls are
timed in turn (``--repeats`` times, the median kept), so a change in machine load hits both.

Run: ``.venv/bin/python benchmarks/bench_bootstrap.py [--layouts 2000:100,20000:10]
[--n-boot 50]``.
"""

from __future__ import annotations

import argparse

import numpy as np
import polars as pl
from timing import race

import polars_roc as pr

TARGET = 3.0


def scored(groups: int, rows: int, seed: int) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = groups * rows
    label = rng.random(n) < 0.3
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + label)))
    return pl.DataFrame({"g": np.repeat(np.arange(groups), rows), "score": score, "label": label})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--layouts", default="2000:100,20000:10", help="GROUPS:ROWS, ...")
    parser.add_argument("--n-boot", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=1)
    args = parser.parse_args()
    metrics = {"auc": pr.auc("score", "label")}
    for layout in args.layouts.split(","):
        groups, rows = (int(part) for part in layout.split(":"))
        df = scored(groups, rows, seed=1)
        times = race(
            {
                "metric": lambda df=df: df.roc.bootstrap(
                    metrics, by="g", n_boot=args.n_boot, seed=0
                ),
                "auc": lambda df=df: df.roc.auc(
                    "score", "label", by="g", ci="bootstrap", n_boot=args.n_boot, seed=0
                ),
            },
            args.repeats,
        )
        ratio = times["metric"] / times["auc"]
        verdict = "met" if ratio <= TARGET else "missed"
        print(
            f"{groups:,} groups x {rows} rows, {args.n_boot} replicates: "
            f"df.roc.bootstrap {times['metric']:.2f} s, auc(ci='bootstrap') {times['auc']:.2f} s, "
            f"ratio {ratio:.2f} (target <= {TARGET:g}x: {verdict})"
        )


if __name__ == "__main__":
    main()
