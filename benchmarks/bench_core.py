"""Core benchmark: every target of issue 16 as a ratio measured in the same run.

Usage::

    python benchmarks/bench_core.py [--rows 10000000] [--groups 100000] [--repeats 3]
                                    [--parquet-rows 0] [--only single,curve,...]

``--only expressions`` times issue 29's targets alone: ``pr.auc`` over the groups against a
bare ``rank("average")`` AUC expression and polarbearings, ``pr.auc`` in ``select`` against
polarbearings, and the weighted expression against the weighted frame method.

Prints the median wall time of each task (the tasks of a section run round-robin, so a
shift in machine load hits them alike) and its ratio against scikit-learn, polars-ds,
polarbearings, a naive sort + cum_sum query, a Polars sort of the score column and np.sort,
all measured in the same run on the same data, then one line per target: "met" or
"missed". Peers that are not installed are skipped (``pip install polars-ds
polarbearings`` to include them). ``--parquet-rows N`` also writes N rows as 10 Parquet
files (Float32 scores, 3 models x 1,000 segments) and times the streaming per-segment AUC
in a child process, with its peak RSS: 100000000 is the target's size (0.5 GB of files);
a smaller N is extrapolated linearly. Not a test: timings are noisy on a
shared machine, so compare ratios, not seconds.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from sklearn.metrics import roc_auc_score, roc_curve
from timing import median_time, race

import polars_roc as pr

try:
    import polarbearings as pb
except ImportError:  # pragma: no cover - optional peer
    pb = None
try:
    import polars_ds as pds
except ImportError:  # pragma: no cover - optional peer
    pds = None

TARGETS: list[tuple[str, float, float | None]] = []  # (name, value, bound); <= or >= in name


def report(name: str, ours: float, peers: dict[str, float], note: str = "") -> None:
    print(f"\n{name}: polars_roc {ours:.3f}s {note}", flush=True)
    for peer, seconds in peers.items():
        print(f"  {peer:<44} {seconds:8.3f}s   polars_roc is {seconds / ours:6.2f}x faster")


def at_least(name: str, value: float, bound: float) -> None:
    TARGETS.append((f"{name} >= {bound:g}x", value, bound))


def at_most(name: str, value: float, bound: float) -> None:
    TARGETS.append((f"{name} <= {bound:g}x", value, -bound))


def naive_curve(df: pl.DataFrame) -> pl.DataFrame:
    """The floor of a full curve: one sort, two running sums, one tie filter."""
    score = pl.col("score")
    return (
        df.lazy()
        .sort("score", descending=True)
        .select(score, tp=pl.col("label").cum_sum(), fp=(~pl.col("label")).cum_sum())
        .filter(score.ne_missing(score.shift(-1)))
        .collect()
    )


def single(df: pl.DataFrame, y: Any, s: Any, repeats: int) -> None:
    tasks: dict[str, Callable[[], Any]] = {
        "expr": lambda: df.select(pr.auc("score", "label")).item(),
        "df.roc.auc() (frame method)": lambda: df.roc.auc()["auc"].item(),
        "sklearn roc_auc_score": lambda: roc_auc_score(y, s),
        "Polars sort of the score column": lambda: df.select(pl.col("score").sort()),
        "Polars frame sort by score (score, label)": lambda: (
            df.lazy().select("score", "label").sort("score").collect()
        ),
        "np.sort(score)": lambda: np.sort(s),
    }
    if pb is not None:
        tasks["polarbearings roc_auc"] = lambda: df.select(pb.roc_auc("y", "score")).item()
    if pds is not None:
        tasks["polars-ds query_roc_auc"] = lambda: df.select(pds.query_roc_auc("y", "score")).item()
    peers = race(tasks, repeats)
    expr, frame, sk = (
        peers.pop("expr"),
        peers["df.roc.auc() (frame method)"],
        peers["sklearn roc_auc_score"],
    )
    col_sort = peers["Polars sort of the score column"]
    report("single AUC (df.select(pr.auc(...)))", expr, peers)
    best = min(expr, frame)
    print(f"  fastest of expression and frame method: {best:.3f}s")
    at_least("1. single AUC vs scikit-learn", sk / best, 8)
    if pb is not None:
        at_least("1. single AUC vs polarbearings", peers["polarbearings roc_auc"] / best, 2)
    at_most("1. single AUC / Polars sort of the score column", best / col_sort, 3)
    at_most("5. frame method / expression (single AUC)", frame / expr, 1.1)


def curve(df: pl.DataFrame, y: Any, s: Any, repeats: int) -> None:
    tasks: dict[str, Callable[[], Any]] = {
        "ours": lambda: df.roc.curve(),
        "sklearn roc_curve(drop_intermediate=False)": lambda: roc_curve(
            y, s, drop_intermediate=False
        ),
        "naive sort + cum_sum": lambda: naive_curve(df),
    }
    if pb is not None:
        tasks["polarbearings roc_curve"] = lambda: pb.roc_curve(df, "y", "score").collect()
    peers = race(tasks, repeats)
    ours = peers.pop("ours")
    report("full ROC curve (df.roc.curve())", ours, peers)
    sk, naive = peers["sklearn roc_curve(drop_intermediate=False)"], peers["naive sort + cum_sum"]
    at_least("2. full curve vs scikit-learn", sk / ours, 5)
    at_most("2. full curve / naive sort + cum_sum", ours / naive, 1.5)


def weighted(df: pl.DataFrame, y: Any, s: Any, w: Any, repeats: int) -> None:
    tasks: dict[str, Callable[[], Any]] = {
        "expr": lambda: df.select(pr.auc("score", "label", weight="w")).item(),
        "df.roc.auc(weight=...) (frame method)": lambda: df.roc.auc(weight="w")["auc"].item(),
        "sklearn (sample_weight)": lambda: roc_auc_score(y, s, sample_weight=w),
        "grouped expr": lambda: df.group_by("g").agg(pr.auc("score", "label", weight="w")),
        "grouped frame": lambda: df.roc.auc(by="g", weight="w"),
    }
    if pb is not None:
        tasks["polarbearings roc_auc(weight)"] = lambda: df.select(
            pb.roc_auc("y", "score", weight="w")
        ).item()
    peers = race(tasks, repeats)
    expr, frame = peers.pop("expr"), peers["df.roc.auc(weight=...) (frame method)"]
    by_expr, by_frame = peers.pop("grouped expr"), peers.pop("grouped frame")
    sk = peers["sklearn (sample_weight)"]
    report("weighted AUC (df.select(pr.auc(..., weight=...)))", expr, peers)
    best = min(expr, frame)
    print(f"  fastest of expression and frame method: {best:.3f}s")
    at_least("3. weighted AUC vs scikit-learn", sk / best, 5)
    if pb is not None:
        peer = peers["polarbearings roc_auc(weight)"]
        at_least("3. weighted AUC vs polarbearings", peer / best, 6)
    at_most("5. frame method / expression (weighted AUC)", frame / expr, 1.1)
    print(
        f"  weighted over groups: df.group_by(g).agg(pr.auc(..., weight=...)) {by_expr:.3f}s, "
        f"df.roc.auc(by=g, weight=...) {by_frame:.3f}s ({by_expr / by_frame:.2f}x)"
    )


def grouped(df: pl.DataFrame, k: int, repeats: int, sklearn_groups: int) -> None:
    parts = df.select("g", "score", "y").partition_by("g", as_dict=False)[:sklearn_groups]

    def sklearn_loop() -> None:
        for part in parts:
            labels = part["y"].to_numpy()
            if 0 < labels.sum() < len(labels):
                roc_auc_score(labels, part["score"].to_numpy())

    n = df.height
    tiny = df.with_columns(g=pl.int_range(n) // 2)
    # Groups of 9 rows, one more than the pairwise count takes: the dearest size per row.
    nine = df.with_columns(g=pl.int_range(n) // 9)
    tasks: dict[str, Callable[[], Any]] = {
        "ours": lambda: df.roc.auc(by="g"),
        "df.group_by(g).agg(pr.auc(...))": lambda: df.group_by("g").agg(pr.auc("score", "label")),
        "tiny": lambda: tiny.roc.auc(by="g"),
        "nine": lambda: nine.roc.auc(by="g"),
    }
    if pb is not None:
        tasks["polarbearings group_by.agg"] = lambda: df.group_by("g").agg(pb.roc_auc("y", "score"))
    peers = race(tasks, repeats)
    ours, small, ranked = peers.pop("ours"), peers.pop("tiny"), peers.pop("nine")
    loop = median_time(sklearn_loop, 1) * k / len(parts)
    peers[f"sklearn loop (x{k // len(parts)} extrapolated)"] = loop
    if pds is not None:
        peers["polars-ds group_by.agg (1 run: slow)"] = median_time(
            lambda: df.group_by("g").agg(pds.query_roc_auc("y", "score")), 1
        )
    report(f"AUC over {k:,} groups (df.roc.auc(by=...))", ours, peers)
    at_least("4. grouped AUC vs scikit-learn loop", loop / ours, 200)
    if pb is not None:
        at_least("4. grouped AUC vs polarbearings", peers["polarbearings group_by.agg"] / ours, 1.5)
    print(f"  {n // 2:,} groups of 2 rows: {small:.3f}s ({small / ours:.2f}x the {k:,} groups)")
    print(f"  {n // 9:,} groups of 9 rows: {ranked:.3f}s ({ranked / ours:.2f}x the {k:,} groups)")
    at_most("4. per-row cost of 2-row groups / 100-row groups", small / ours, 2)


def bare_auc(score: pl.Expr, label: pl.Expr) -> pl.Expr:
    """A bare ``rank("average")`` AUC: no coding, no checks, no null or NaN handling."""
    n_pos, n_neg = (c.sum().cast(pl.Float64) for c in (label, ~label))
    u = score.rank("average").filter(label).sum() - n_pos * (n_pos + 1) / 2
    return (u / (n_pos * n_neg)).alias("auc")


def expressions(df: pl.DataFrame, k: int, repeats: int) -> None:
    """Issue 29: the expression path against a bare rank expression, polarbearings, the frame."""
    score, label = pl.col("score"), pl.col("label")
    tasks: dict[str, Callable[[], Any]] = {
        "grouped expr": lambda: df.group_by("g").agg(pr.auc("score", "label")),
        "grouped bare rank expression": lambda: df.group_by("g").agg(bare_auc(score, label)),
        "single expr": lambda: df.select(pr.auc("score", "label")),
        "single bare rank expression": lambda: df.select(bare_auc(score, label)),
        "weighted expr": lambda: df.select(pr.auc("score", "label", weight="w")),
        "weighted frame method": lambda: df.roc.auc(weight="w"),
    }
    if pb is not None:
        tasks["grouped polarbearings"] = lambda: df.group_by("g").agg(pb.roc_auc("y", "score"))
        tasks["single polarbearings"] = lambda: df.select(pb.roc_auc("y", "score"))
    t = race(tasks, repeats)
    print(f"\nexpressions (issue 29), {k:,} groups:")
    for name, seconds in t.items():
        print(f"  {name:<44} {seconds:8.3f}s")
    grouped_ratio = t["grouped expr"] / t["grouped bare rank expression"]
    at_most("29. grouped expr / bare rank expression", grouped_ratio, 1.15)
    if pb is not None:
        at_least(
            "29. grouped expr vs polarbearings", t["grouped polarbearings"] / t["grouped expr"], 1.2
        )
        at_least(
            "29. single expr vs polarbearings", t["single polarbearings"] / t["single expr"], 1.2
        )
    else:
        print("  polarbearings not installed (pip install polarbearings): its targets skipped")
    print(
        f"  single expr / bare rank expression: "
        f"{t['single expr'] / t['single bare rank expression']:.2f}x"
    )
    at_most(
        "29. weighted expr / weighted frame method",
        t["weighted expr"] / t["weighted frame method"],
        3,
    )


def geometry(df: pl.DataFrame, k: int, repeats: int) -> None:
    tasks: dict[str, Callable[[], Any]] = {
        "ours": lambda: df.roc.curve(by="g"),
        "df.roc.hull(by=g)": lambda: df.roc.hull(by="g"),
        "df.roc.optimal(by=g)": lambda: df.roc.optimal(by="g"),
        "df.roc.operating_ranges(by=g)": lambda: df.roc.operating_ranges(by="g"),
    }
    peers = race(tasks, repeats)
    ours = peers.pop("ours")
    report(f"curve over {k:,} groups (df.roc.curve(by=...))", ours, peers)
    for name, seconds in peers.items():
        at_most(f"6. {name} / curve", seconds / ours, 3)
    # The target also asks for Polars expressions: the hull kernel (_core/convex.py) is
    # still a numpy batch callback per query.
    callbacks = sum(
        "map_batches" in (Path(pr.__file__).parent / module).read_text()
        for module in ("_core/convex.py", "hull.py", "iso.py")
    )
    TARGETS.append(("6. hull, optimal, operating ranges with no Python callback", -callbacks, 0.0))


def parquet(rows: int) -> None:
    """Write `rows` rows as 10 Parquet files; time the streaming AUC in a child process."""
    with tempfile.TemporaryDirectory() as folder:
        rng = np.random.default_rng(1)
        per_file = rows // 10
        for i in range(10):
            y = rng.random(per_file) < 0.3
            pl.DataFrame(
                {
                    "model": rng.integers(0, 3, per_file).astype(np.int32),
                    "segment": rng.integers(0, 1000, per_file).astype(np.int32),
                    "score": (rng.normal(size=per_file) + y).astype(np.float32),
                    "label": y,
                }
            ).write_parquet(Path(folder) / f"part-{i}.parquet")
        script = (
            "import json, time, polars as pl, polars_roc as pr\n"
            f"lf = pl.scan_parquet({folder!r} + '/*.parquet')\n"
            "start = time.perf_counter()\n"
            "out = lf.roc.auc(by=['model', 'segment']).collect(engine='streaming')\n"
            "print(json.dumps([time.perf_counter() - start, out.height]))\n"
        )
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        )
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        seconds, groups = json.loads(done.stdout)
    peak_gb = max(peak_kib, before) * 1024 / 1e9
    print(f"\n{rows:,} rows from 10 Parquet files, {groups:,} segments (streaming):")
    print(f"  {seconds:.1f}s, peak RSS {peak_gb:.2f} GB")
    scale = 100_000_000 / rows
    scaled = "" if scale == 1 else f" (x{scale:g} rows extrapolated)"
    at_most(f"7. Parquet AUC seconds{scaled} / 30s", seconds * scale / 30, 1)
    TARGETS.append((f"7. peak RSS{scaled} <= 4 GB", peak_gb * scale, -4.0))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--groups", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--parquet-rows", type=int, default=0)
    parser.add_argument(
        "--only", default="single,curve,weighted,grouped,expressions,geometry,parquet"
    )
    parser.add_argument(
        "--sklearn-groups",
        type=int,
        default=2_000,
        help="groups timed in the scikit-learn loop (extrapolated to --groups)",
    )
    args = parser.parse_args()
    n, k, repeats = args.rows, args.groups, args.repeats
    only = set(args.only.split(","))
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    w = rng.uniform(0.1, 2.0, n)
    g = rng.integers(0, k, n)
    df = pl.DataFrame({"score": s, "label": y, "y": y.astype(np.int32), "w": w, "g": g})
    print(f"{n:,} rows, {k:,} groups, median of {repeats}; polars {pl.__version__}")
    if "single" in only:
        single(df, y, s, repeats)
    if "curve" in only:
        curve(df, y, s, repeats)
    if "weighted" in only:
        weighted(df, y, s, w, repeats)
    if "grouped" in only:
        grouped(df, k, repeats, args.sklearn_groups)
    if "expressions" in only:
        expressions(df, k, repeats)
    if "geometry" in only:
        geometry(df, k, repeats)
    if "parquet" in only and args.parquet_rows:
        parquet(args.parquet_rows)
    print("\nTargets (issues 16 and 29), measured in this run:")
    for name, value, bound in TARGETS:
        met = value >= bound if bound >= 0 else value <= -bound
        print(f"  {'met   ' if met else 'missed'} {name:<62} {value:8.2f}")


if __name__ == "__main__":
    main()
