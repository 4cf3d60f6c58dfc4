"""best_threshold(method="youden" | "closest_topleft", cost_fp=, cost_fn=, prevalence=).

pROC's ``coords(best.method=..., best.weights=c(cost, prevalence))`` (pROC 1.18,
``roc.utils.optim.crit``): Youden weighted as ``se + r·sp``, closest-topleft as
``(1 - se)² + r·(1 - sp)²``, ``r = (1 - prevalence) / (cost·prevalence)``; pROC's ``cost``
is ours ``cost_fn / cost_fp``.

Oracles: pROC 1.18 run live on aSAH (printed below, 6 digits; rerun by
tests/r_oracles/test_r_best_weights.py); a brute force in exact fractions over every
threshold (weights as repeated rows) for the Polars objective and its numpy twin.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import polars_roc as pr  # noqa: F401  (registers .roc)
from polars_roc._core import objectives
from tests.conftest import DATA

INF = float("inf")

#: coords(roc(aSAH$outcome, aSAH$<m>), "best", best.method=, best.weights=c(cost, prev),
#: ret=c("sensitivity", "specificity")) as pROC 1.18 prints it (one best point each).
PROC = [
    ("s100b", "youden", 2, 0.3, 0.634146, 0.805556),
    ("s100b", "youden", 0.5, 0.2, 0.292683, 1.0),
    ("s100b", "youden", 3, 0.6, 0.97561, 0.138889),
    ("s100b", "closest_topleft", 0.5, 0.2, 0.585366, 0.819444),
    ("s100b", "closest_topleft", 3, 0.6, 0.756098, 0.541667),
    ("ndka", "youden", 2, 0.3, 0.512195, 0.708333),
    ("ndka", "youden", 0.5, 0.2, 0.0243902, 1.0),
    ("ndka", "youden", 3, 0.6, 1.0, 0.0138889),
    ("ndka", "closest_topleft", 2, 0.3, 0.536585, 0.680556),
    ("ndka", "closest_topleft", 0.5, 0.2, 0.317073, 0.861111),
    ("ndka", "closest_topleft", 3, 0.6, 0.804878, 0.333333),
    ("wfns", "youden", 0.5, 0.2, 0.0, 1.0),  # pROC's threshold Inf: ours +inf
    ("wfns", "youden", 3, 0.6, 0.95122, 0.513889),
    ("wfns", "closest_topleft", 2, 0.3, 0.634146, 0.833333),
    ("wfns", "closest_topleft", 0.5, 0.2, 0.439024, 0.944444),
    ("wfns", "closest_topleft", 3, 0.6, 0.95122, 0.513889),
]


@pytest.mark.parametrize(("marker", "method", "cost", "prevalence", "se", "sp"), PROC)
def test_weighted_optimum_as_proc(
    marker: str, method: str, cost: float, prevalence: float, se: float, sp: float
) -> None:
    wide = pl.read_csv(DATA / "aSAH.csv")
    kwargs = {"pos_label": "Poor", "method": method, "prevalence": prevalence}
    best = wide.roc.best_threshold(marker, "outcome", cost_fn=cost, **kwargs)
    assert best["tpr"].item() == pytest.approx(se, abs=5e-6)
    assert 1 - best["fpr"].item() == pytest.approx(sp, abs=5e-6)
    # the same weights as relative costs of a false positive
    again = wide.roc.best_threshold(marker, "outcome", cost_fp=1 / cost, **kwargs)
    assert again["threshold"].item() == best["threshold"].item()


def test_unit_weights_are_the_unweighted_optimum() -> None:
    # best.weights = c(1, 0.5), pROC's default: r = 1, the exact integer ranking.
    wide = pl.read_csv(DATA / "aSAH.csv").lazy()
    for method in ("youden", "closest_topleft"):
        plain = wide.roc.best_threshold("ndka", "outcome", pos_label="Poor", method=method)
        unit = wide.roc.best_threshold(
            "ndka", "outcome", pos_label="Poor", method=method, cost_fn=2.0, cost_fp=2.0
        )
        assert unit.collect().equals(plain.collect())


def _brute(rows: list[tuple[float, int]], method: str, ratio: Fraction) -> float:
    """The weighted optimum over +inf and every distinct score, exactly; ties: highest."""
    n_pos = sum(1 for _, y in rows if y)
    n_neg = len(rows) - n_pos
    best: tuple[Fraction, float] | None = None
    for t in [INF, *sorted({s for s, _ in rows}, reverse=True)]:
        tpr = Fraction(sum(1 for s, y in rows if s >= t and y), n_pos)
        fpr = Fraction(sum(1 for s, y in rows if s >= t and not y), n_neg)
        if method == "youden":
            value = tpr + ratio * (1 - fpr)
        else:
            value = -((1 - tpr) ** 2 + ratio * fpr**2)
        if best is None or value > best[0]:
            best = (value, t)
    assert best is not None
    return best[1]


cases = st.integers(2, 25).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 5), min_size=n, max_size=n),
        st.lists(st.integers(0, 1), min_size=n, max_size=n),
        st.lists(st.integers(1, 3), min_size=n, max_size=n),
    )
)
weights = st.tuples(st.sampled_from([0.25, 0.5, 2.0, 3.0]), st.sampled_from([0.2, 0.5, 0.75]))


@settings(max_examples=80, deadline=None)
@given(cases, st.sampled_from(["youden", "closest_topleft"]), weights, st.booleans())
def test_weighted_objectives_against_brute_force(
    case: tuple[list[int], list[int], list[int]],
    method: str,
    cost_prevalence: tuple[float, float],
    weighted: bool,
) -> None:
    raw, labels, repeats = case
    if len(set(labels)) < 2:
        return
    cost, prevalence = cost_prevalence
    df = pl.DataFrame({"score": [s / 10 for s in raw], "label": labels, "w": repeats})
    weight = "w" if weighted else None
    rule: dict[str, Any] = {"method": method, "cost_fn": cost, "prevalence": prevalence}
    chosen = df.roc.best_threshold(weight=weight, **rule)["threshold"].item()
    rows = [
        (s / 10, y)
        for s, y, w in zip(raw, labels, repeats, strict=True)
        for _ in range(w if weighted else 1)
    ]
    ratio = Fraction(1 - Fraction(prevalence)) / (Fraction(cost) * Fraction(prevalence))
    assert chosen == _brute(rows, method, ratio)
    # the numpy twin (the bootstrap's statistic) picks the same row of the curve
    curve = df.roc.curve(weight=weight)
    tp = curve["tp"].cast(pl.Float64).to_numpy()[None, :]
    fp = curve["fp"].cast(pl.Float64).to_numpy()[None, :]
    r = objectives.weights_ratio(method, 1.0, cost, prevalence)
    numbers, ties = objectives.objective_np(method, tp, fp, weighted=weighted, ratio=r)
    index, found = objectives.best_index_np(numbers, ties)
    assert found.tolist() == [True]
    assert curve["threshold"][int(index[0])] == chosen


def test_weighted_rows_equal_repeated_rows_and_groups_equal_alone() -> None:
    wide = pl.read_csv(DATA / "aSAH.csv").with_columns(w=pl.col("age") % 3 + 1)
    repeated = wide.select(pl.all().repeat_by("w").explode()).drop("w")
    rule = {"pos_label": "Poor", "method": "closest_topleft", "cost_fn": 3.0, "prevalence": 0.4}
    columns = ["gender", "threshold", "tpr", "fpr"]
    weighted = wide.roc.best_threshold("s100b", "outcome", by="gender", weight="w", **rule)
    copies = repeated.roc.best_threshold("s100b", "outcome", by="gender", **rule)
    assert weighted.select(columns).equals(copies.select(columns))
    for row in copies.iter_rows(named=True):
        alone = repeated.filter(pl.col("gender") == row["gender"]).roc.best_threshold(
            "s100b", "outcome", **rule
        )
        assert alone["threshold"].item() == row["threshold"]
    lazy = repeated.lazy().roc.best_threshold("s100b", "outcome", by="gender", **rule)
    assert lazy.collect().equals(copies)


def test_bootstrap_interval_follows_the_weighted_rule() -> None:
    # The replicates choose by the same weighted rule: with a large weight on sensitivity
    # every replicate's optimum is a low threshold, so the interval sits below the
    # unweighted one's upper end.
    wide = pl.read_csv(DATA / "aSAH.csv")
    common = {"pos_label": "Poor", "method": "youden", "ci": "bootstrap", "n_boot": 200}
    weighted = wide.roc.best_threshold("s100b", "outcome", cost_fn=20.0, **common)
    plain = wide.roc.best_threshold("s100b", "outcome", **common)
    row = weighted.row(0, named=True)
    assert row["threshold_lower"] <= row["threshold"] <= row["threshold_upper"]
    assert row["threshold"] < plain["threshold"].item()
    assert row["tpr_lower"] > plain["tpr_lower"].item()
