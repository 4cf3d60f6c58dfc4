"""Reduce where the data lives: per-segment AUC in DuckDB versus reading every row into Polars.

Usage::

    python benchmarks/bench_engines.py [--rows 10000000] [--segments 1000] [--repeats 3]

Loads scored rows (3 models x `--segments` segments) into a DuckDB table, twice: with scores
rounded to 2 decimals (about 100 distinct values per group, the tally is small) and with
continuous scores (nearly every score distinct, the tally is as big as the data). On each,
times per-segment AUC by:

* ``polars``        ``df.roc.auc(by=...)`` on the same rows already in Polars' memory;
* ``duckdb->polars`` every row out of the DuckDB table into Polars (``rel.pl()``), then AUC;
* ``tally``         ``pr.tally(rel, by=...)`` in DuckDB, then ``.roc.auc(weight="weight")``;
* ``auc_table``     ``pr.auc_table(rel, by=...)``: the whole AUC in DuckDB;
* ``tally bins``    ``pr.tally(rel, by=..., bins=1000)``: binned, with its error bound and its
  true error against the exact AUC.

Prints medians and ratios against ``duckdb->polars``. Needs duckdb and narwhals. Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import duckdb
import numpy as np
import polars as pl

import polars_roc as pr

BY = ["model", "segment"]


def median_time(task: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = task()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def scored(rows: int, segments: int, decimals: int | None, seed: int = 0) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    label = rng.random(rows) < 0.3
    model = rng.integers(0, 3, rows)
    score = rng.normal(0.0, 1.0, rows) + label * (0.5 + 0.5 * model)
    score = 1.0 / (1.0 + np.exp(-score))
    if decimals is not None:
        score = np.round(score, decimals)
    return pl.DataFrame(
        {
            "model": model.astype(np.int32),
            "segment": rng.integers(0, segments, rows).astype(np.int32),
            "score": score,
            "label": label,
        }
    )


def run(frame: pl.DataFrame, repeats: int) -> None:
    connection = duckdb.connect()
    connection.register("arrow_scores", frame.to_arrow())
    connection.sql("create table scores as select * from arrow_scores")
    relation = connection.table("scores")
    tasks: dict[str, Callable[[], pl.DataFrame]] = {
        "polars": lambda: frame.roc.auc(by=BY),
        "duckdb->polars": lambda: relation.pl().roc.auc(by=BY),
        "tally": lambda: pr.tally(relation, by=BY).roc.auc(by=BY, weight="weight").collect(),
        "auc_table": lambda: pr.auc_table(relation, by=BY),
    }
    times, results = {}, {}
    for name, task in tasks.items():
        times[name], results[name] = median_time(task, repeats)
    size = pr.tally(relation, by=BY).select(pl.len()).collect().item()
    binned_time, binned = median_time(lambda: pr.tally(relation, by=BY, bins=1000), repeats)
    binned = binned.collect()
    times["tally bins=1000"] = binned_time
    exact = results["polars"].sort(BY)
    for name, result in results.items():
        gap = (result.sort(BY)["auc"] - exact["auc"]).abs().max()
        if gap is None or gap > 1e-9:
            raise SystemExit(f"{name} differs from Polars by {gap}")
    auc = binned.roc.auc(by=BY, weight="weight").sort(BY)
    bound = binned.group_by(BY).agg(pl.col("auc_error_bound").first()).sort(BY)
    error = (auc["auc"] - exact["auc"]).abs()
    print(f"  tally rows: {size:,} (bins=1000: {binned.height:,})")
    base = times["duckdb->polars"]
    for name, seconds in times.items():
        print(f"  {name:<16} {seconds:8.3f}s   {base / seconds:6.2f}x duckdb->polars")
    print(
        f"  bins=1000: max bound {bound['auc_error_bound'].max():.2e}, "
        f"max true error {error.max():.2e}, bound holds: "
        f"{bool((error <= bound['auc_error_bound'] + 1e-12).all())}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--segments", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    for decimals, title in ((2, "scores rounded to 2 decimals"), (None, "continuous scores")):
        frame = scored(args.rows, args.segments, decimals)
        print(f"\n{args.rows:,} rows, 3 models x {args.segments:,} segments, {title}:")
        run(frame, args.repeats)


if __name__ == "__main__":
    main()
