"""Wall-clock timing shared by the benchmarks: medians, tasks run in turn.

Imported by the ``bench_*.py`` scripts (run as ``python benchmarks/bench_x.py``, so this
folder is on the import path). Not a test: timings are noisy on a shared machine.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_time(task: Callable[[], Any], repeats: int) -> float:
    """Median wall time of `repeats` runs of one task."""
    return race({"task": task}, repeats)["task"]


def race(tasks: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Median seconds of each task, run round-robin: a shift in machine load hits all alike."""
    times: dict[str, list[float]] = {name: [] for name in tasks}
    for _ in range(repeats):
        for name, task in tasks.items():
            start = time.perf_counter()
            task()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(seconds) for name, seconds in times.items()}
