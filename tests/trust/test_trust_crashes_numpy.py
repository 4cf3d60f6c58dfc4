"""NumPy scalars are numbers for every public function that takes numbers and no frame.

Frame functions convert their arguments once (``same_kind``, swept in
``tests/core/test_numpy_args.py``); the functions here take plain numbers or build
expressions. Each case is called with Python numbers and with the same values as NumPy
scalars (exact in float32, so both mean the same number); the answers must be equal.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import polars as pl
import pytest

import polars_roc as pr

ROWS = pr.datasets.simulate(200, models=["a"], seed=2).with_columns(t=pl.int_range(pl.len()) // 50)


#: pROC's list-form example (power.roc.test(list(A1=2.6, B1=1, A2=1.9, B2=1, rn=0.6,
#: ra=0.6, delta=0.037), ...)), for the binormal planning functions.
PAIR = pr.inference.BinormalPair(a1=2.6, b1=1.0, a2=1.9, b2=1.0, rn=0.6, ra=0.6, delta=0.037)


def py(value: float) -> float:
    return value


def numpy_scalar(value: float) -> Any:
    return np.int64(value) if isinstance(value, int) else np.float32(value)


# name -> a call taking a converter of its numbers (Python or NumPy)
CASES: dict[str, Callable[[Callable[[Any], Any]], Any]] = {
    "roc_power": lambda v: pr.roc_power(v(41), v(72), v(0.75), alpha=v(0.0625)),
    "roc_sample_size": lambda v: pr.roc_sample_size(
        v(0.75), power=v(0.875), alpha=v(0.0625), kappa=v(2)
    ),
    "detectable_auc": lambda v: pr.detectable_auc(v(41), v(72), power=v(0.875), alpha=v(0.125)),
    "binormal_sample_size": lambda v: pr.inference.binormal_sample_size(
        PAIR, power=v(0.875), alpha=v(0.0625), kappa=v(2)
    ),
    "binormal_power": lambda v: pr.inference.binormal_power(PAIR, v(40), alpha=v(0.0625)),
    "binormal_alpha": lambda v: pr.inference.binormal_alpha(PAIR, v(40), power=v(0.875)),
    "precision_at_recall": lambda v: ROWS.select(
        pr.precision_at_recall("score", "label", recall=v(0.5))
    ),
    "recall_at_precision": lambda v: ROWS.select(
        pr.recall_at_precision("score", "label", precision=v(0.5))
    ),
    "precision_at_depth": lambda v: ROWS.select(
        pr.precision_at_depth("score", "label", depth=v(0.25))
    ),
    "recall_at_depth": lambda v: ROWS.select(pr.recall_at_depth("score", "label", depth=v(20))),
    "lift_at_depth": lambda v: ROWS.select(pr.lift_at_depth("score", "label", depth=v(0.25))),
    "psi": lambda v: ROWS.select(pr.psi("score", reference=pl.col("t") == 0, bins=v(5))),
    "expected_calibration_error": lambda v: ROWS.select(
        pr.expected_calibration_error("score", "label", bins=v(5))
    ),
    "stratified_folds": lambda v: ROWS.select(pr.stratified_folds("label", k=v(3), seed=v(1))),
    "simulate": lambda v: pr.datasets.simulate(v(50), prevalence=v(0.25), seed=v(1)),
    "auc_interval": lambda v: pr.inference.auc_interval(
        ROWS, ci="bootstrap", level=v(0.75), n_boot=v(20), seed=v(1)
    ),
    "tpr_at_fpr_interval": lambda v: pr.inference.tpr_at_fpr_interval(
        ROWS, fpr=v(0.25), level=v(0.75), n_boot=v(20), seed=v(1)
    ),
    "fpr_at_tpr_interval": lambda v: pr.inference.fpr_at_tpr_interval(
        ROWS, tpr=v(0.5), level=v(0.75), n_boot=v(20), seed=v(1)
    ),
    "partial_auc_interval": lambda v: pr.inference.partial_auc_interval(
        ROWS, fpr=(v(0.0), v(0.25)), level=v(0.75), n_boot=v(20), seed=v(1)
    ),
    "compute_over_time": lambda v: (
        pr.report.compute_over_time(
            ROWS.lazy(),
            "score",
            "label",
            time="t",
            every="1i",
            reference=(v(0), v(1)),
            by=[],
            k=v(2.5),
            level=v(0.75),
            min_count=v(5),
        ).frame
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_numpy_scalars_mean_their_numbers(name: str) -> None:
    expected, got = CASES[name](py), CASES[name](numpy_scalar)
    if isinstance(expected, pl.DataFrame):
        assert got.equals(expected)
    else:
        assert got == expected


def test_power_of_numpy_counts_is_procs() -> None:
    # pROC 1.18: power.roc.test(ncases=41, ncontrols=72, auc=0.73) -> 0.9897453
    assert pr.roc_power(np.int64(41), np.int64(72), np.float64(0.73)) == pytest.approx(
        0.9897453, abs=1e-7
    )


def _public_number_takers() -> set[str]:
    """Public callables (not frame functions, not charts) with a numeric default."""
    found = set()
    for module in (pr, pr.inference, pr.report, pr.datasets):
        for name in module.__all__:
            obj = getattr(module, name)
            if not inspect.isfunction(obj) or hasattr(obj, "__wrapped__"):
                continue
            defaults = [p.default for p in inspect.signature(obj).parameters.values()]
            if any(isinstance(d, int | float) and not isinstance(d, bool) for d in defaults):
                found.add(name)
    return found


def test_every_public_number_taker_is_swept() -> None:
    missing = _public_number_takers() - set(CASES) - {"compute_over_time"}
    assert not missing, f"add a NumPy case for {sorted(missing)}"
