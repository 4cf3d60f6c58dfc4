"""Scale: per-segment exact AUC over partitioned Parquet, by four paths, with time and peak RSS.

Usage::

    python benchmarks/bench_scale.py [--rows 100000000] [--files 10] [--dir /tmp/roc_scale]

Writes `--rows` scored rows (3 models x `--segments` segments, Float32 scores, nearly every
score distinct within a group) as `--files` Parquet files under `--dir` (kept and reused when
their rows match), then computes the AUC of every (model, segment) by:

* ``polars``         ``pl.scan_parquet(...).roc.auc(by=...)`` in Polars' streaming engine;
* ``duckdb tally``   ``pr.tally(duckdb.read_parquet(...), by=...)``, then ``.roc.auc`` on it;
* ``duckdb auc_table`` ``pr.auc_table(...)``: the whole AUC inside DuckDB;
* ``duckdb bins``    ``pr.tally(..., bins=1000)``: binned in DuckDB, with its error bound and
  its true error against the exact AUC.

Each path runs in its own fresh Python process; its peak RSS is that child's maximum resident
set size from the kernel (``os.wait4``: the per-child form of
``resource.getrusage(RUSAGE_CHILDREN)``, which would mix the paths since it keeps the largest
child so far), and its time is the child's wall time around the query (imports and start-up
excluded). Targets (2 cores): every path within 24 GB, the binned DuckDB tally under 30 s;
each printed "met" or "missed". The exact paths must agree to 1e-9, or the script fails.
Needs duckdb and narwhals. Not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import polars as pl

import polars_roc as pr

BY = ["model", "segment"]
PATHS = ("polars", "duckdb tally", "duckdb auc_table", "duckdb bins")
#: Targets: (path or None for every path, what, limit)
RSS_LIMIT_GB = 24.0
BINNED_LIMIT_S = 30.0


def generate(folder: Path, rows: int, files: int, segments: int, seed: int = 0) -> None:
    """`rows` scored rows in `files` Parquet files; skipped when they are there already."""
    stamp = folder / "_rows.json"
    wanted = {"rows": rows, "files": files, "segments": segments, "seed": seed}
    if stamp.exists() and json.loads(stamp.read_text()) == wanted:
        return
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.parquet"):
        old.unlink()
    rng = np.random.default_rng(seed)
    per_file = -(-rows // files)
    for index in range(files):
        n = min(per_file, rows - index * per_file)
        label = rng.random(n) < 0.3
        model = rng.integers(0, 3, n, dtype=np.int8)
        segment = rng.integers(0, segments, n).astype(np.int16)
        shift = label * (0.4 + 0.3 * model + 0.0004 * segment)
        score = 1.0 / (1.0 + np.exp(-(rng.standard_normal(n) + shift)))
        frame = pl.DataFrame(
            {
                "model": model,
                "segment": segment,
                "score": score.astype(np.float32),
                "label": label,
            }
        )
        frame.write_parquet(folder / f"part-{index:03d}.parquet", row_group_size=1_000_000)
        print(f"  wrote part {index + 1}/{files} ({n:,} rows)", file=sys.stderr, flush=True)
    stamp.write_text(json.dumps(wanted))


def run_path(path: str, folder: Path, out: Path, bins: int) -> dict[str, Any]:
    """One path, in this (child) process: the AUC table to `out`, the seconds it took."""
    files = str(folder / "*.parquet")
    start = time.perf_counter()
    extra: dict[str, Any] = {}
    if path == "polars":
        result = pl.scan_parquet(files).roc.auc(by=BY).collect(engine="streaming")
    else:
        relation = duckdb.connect().read_parquet(files)
        if path == "duckdb tally":
            counts = pr.tally(relation, by=BY).collect()
            extra["tally_rows"] = counts.height
            result = counts.roc.auc(by=BY, weight="weight")
        elif path == "duckdb auc_table":
            result = pr.auc_table(relation, by=BY)
        else:
            counts = pr.tally(relation, by=BY, bins=bins).collect()
            extra["tally_rows"] = counts.height
            bound = counts.group_by(BY).agg(pl.col("auc_error_bound").first())
            result = counts.roc.auc(by=BY, weight="weight").join(bound, on=BY)
    seconds = time.perf_counter() - start
    result.sort(BY).write_parquet(out)
    return {"seconds": seconds, **extra}


def measure(path: str, folder: Path, work: Path, bins: int) -> dict[str, Any]:
    """Run one path in a fresh process; its wall time and the kernel's peak RSS of it."""
    out = work / f"{path.replace(' ', '_')}.parquet"
    command = [sys.executable, __file__, "--child", path, "--dir", str(folder)]
    command += ["--out", str(out), "--bins", str(bins)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    report = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"path {path!r} failed with status {child.returncode}")
    # ru_maxrss is in KiB on Linux
    # ru_maxrss is in KiB on Linux; CPU seconds (whole child, start-up included) are the
    # figure that a busy shared machine disturbs least
    cpu = usage.ru_utime + usage.ru_stime
    return {**json.loads(report), "rss_gb": usage.ru_maxrss * 1024 / 1e9, "cpu": cpu, "out": out}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000_000)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--segments", type=int, default=1_000)
    parser.add_argument("--bins", type=int, default=1_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/polars_roc_scale"))
    parser.add_argument("--paths", default=",".join(PATHS), help="comma-separated subset")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_path(args.child, args.dir, args.out, args.bins)))
        return

    data, work = args.dir / "data", args.dir / "results"
    print(f"generating {args.rows:,} rows in {args.files} Parquet files under {data}", flush=True)
    start = time.perf_counter()
    generate(data, args.rows, args.files, args.segments)
    size = sum(f.stat().st_size for f in data.glob("*.parquet")) / 1e9
    print(f"  ready in {time.perf_counter() - start:.0f} s ({size:.2f} GB on disk)")
    work.mkdir(parents=True, exist_ok=True)
    paths = [p.strip() for p in args.paths.split(",") if p.strip()]
    figures = {}
    for path in paths:
        figures[path] = measure(path, data, work, args.bins)
        figure = figures[path]
        print(f"  {path:<17} {figure['seconds']:8.1f} s  {figure['rss_gb']:6.2f} GB", flush=True)

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\n{args.rows:,} rows, 3 models x {args.segments:,} segments ({os.cpu_count()} cores, ")
    print(f"load average now {load}): wall time of the query, CPU time of the whole child")
    exact = None
    for path in ("polars", "duckdb tally", "duckdb auc_table"):
        if path not in figures:
            continue
        table = pl.read_parquet(figures[path]["out"])
        if exact is None:
            exact = table
            continue
        gap = (table["auc"] - exact["auc"]).abs().max()
        if gap is None or gap > 1e-9:
            raise SystemExit(f"{path} differs from {paths[0]} by {gap}")
    for path, figure in figures.items():
        rss_ok = figure["rss_gb"] <= RSS_LIMIT_GB
        line = (
            f"  {path:<17} {figure['seconds']:8.1f} s (CPU {figure['cpu']:6.1f} s)   "
            f"peak RSS {figure['rss_gb']:6.2f} GB "
            f"(<= {RSS_LIMIT_GB:.0f} GB: {'met' if rss_ok else 'missed'})"
        )
        if "tally_rows" in figure:
            line += f"   tally rows {figure['tally_rows']:,}"
        if path == "duckdb bins":
            fast = figure["seconds"] < BINNED_LIMIT_S
            line += f"   (< {BINNED_LIMIT_S:.0f} s: {'met' if fast else 'missed'})"
        print(line)
    if "duckdb bins" in figures and exact is not None:
        binned = pl.read_parquet(figures["duckdb bins"]["out"]).join(
            exact.select(*BY, exact=pl.col("auc")), on=BY
        )
        error = (binned["auc"] - binned["exact"]).abs()
        holds = bool((error <= binned["auc_error_bound"] + 1e-12).all())
        print(
            f"  bins={args.bins}: largest bound {binned['auc_error_bound'].max():.2e}, "
            f"median bound {binned['auc_error_bound'].median():.2e}, largest true error "
            f"{error.max():.2e}, median {error.median():.2e}; bound holds in every group: {holds}"
        )


if __name__ == "__main__":
    main()
