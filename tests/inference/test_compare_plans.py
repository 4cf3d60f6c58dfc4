"""compare(plan=...): every mode of pROC's two-curve power.roc.test, from the data.

Oracles:
* pROC 1.18's published values, tests/testthat/test-power.roc.test.R (xrobin/pROC), quoted
  with their test names; pROC's tests build r.ndka, r.wfns as roc(aSAH$outcome,
  aSAH$<marker>) (41 "Poor" cases, 72 controls), roc1 = ndka.
* pROC 1.18 run live (see tests/r_oracles/test_r_power_plans.py, which reruns them): the
  DeLong variants, the one-sided power and the partial-area plan (printed by
  ``power.roc.test(r.wfns, r.ndka, power = 0.9, method = "obuchowski")`` on curves with
  ``partial.auc = c(1, 0.9), partial.auc.focus = "specificity"``).
* Brute-force DeLong placements (numpy) and scipy's normal for the plan at a given size;
  the modes inverted against each other (a plan's power at its own planned size is the
  power asked for).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm

from tests.conftest import DATA, asah_long

ASAH = {"label": "outcome", "pos_label": "Poor", "case": "case"}


def ndka_wfns(**kwargs: object) -> dict[str, object]:
    got = asah_long().roc.compare(**ASAH, **kwargs)
    return got.filter(pl.col("model_a") == "ndka", pl.col("model_b") == "wfns").row(0, named=True)


# --- pROC's published values (Obuchowski) ------------------------------------------------


def test_power_at_the_data_size_as_published() -> None:
    # test_that("power.roc.test can take 2 ROC curves with Obuchowski variance"):
    # power.roc.test(r.ndka, r.wfns, method = "obuchowski")$power == 0.8061004
    row = ndka_wfns(plan="power", power_method="obuchowski")
    assert row["power"] == pytest.approx(0.8061004, abs=1e-7)


def test_level_for_a_power_as_published() -> None:
    # test_that("power.roc.test sig.level can take 2 ROC curves with Obuchowski variance"):
    # power.roc.test(r.ndka, r.wfns, power = 0.9, sig.level = NULL, method = "obuchowski")
    row = ndka_wfns(power=0.9, plan="alpha", power_method="obuchowski")
    assert row["alpha"] == pytest.approx(0.1150686, abs=1e-7)


# --- pROC 1.18 live (printed with 10 digits) ---------------------------------------------

LIVE = {  # power.roc.test(r.ndka, r.wfns, method = m, ...)
    "obuchowski": {"power": 0.8061004397, "alpha": 0.1150685768, "one_sided": 0.8861761128},
    "delong": {"power": 0.7131593987, "alpha": 0.1836639396, "one_sided": 0.8217329223},
}


@pytest.mark.parametrize("method", ["delong", "obuchowski"])
def test_every_mode_as_proc_live(method: str) -> None:
    expected = LIVE[method]
    power = ndka_wfns(plan="power", power_method=method)["power"]
    assert power == pytest.approx(expected["power"], abs=1e-9)
    alpha = ndka_wfns(power=0.9, plan="alpha", power_method=method)["alpha"]
    assert alpha == pytest.approx(expected["alpha"], abs=1e-9)
    # alternative = "one.sided": our "greater"/"less" (pROC's |delta| either way).
    for alternative in ("greater", "less"):
        got = ndka_wfns(plan="power", power_method=method, alternative=alternative)
        assert got["power"] == pytest.approx(expected["one_sided"], abs=1e-9)


def test_partial_area_sample_size_as_proc() -> None:
    # pROC prints ncases = 0.5061498, ncontrols = 0.8888484, auc1 = 0.03344173 (wfns),
    # auc2 = 0.01070461 (ndka): fewer than one case, since the raw partial areas' binormal
    # variances are tiny (a sample size of pROC's formula, not a study to run).
    models = pl.Enum(["wfns", "ndka"])  # pROC's roc1 = wfns: model_a
    long = asah_long().filter(pl.col("model") != "s100b").with_columns(pl.col("model").cast(models))
    common = {**ASAH, "method": "bootstrap", "fpr": (0.0, 0.1), "power_method": "obuchowski"}
    row = long.roc.compare(**common, power=0.9, n_boot=20).row(0, named=True)
    assert (row["auc_a"], row["auc_b"]) == pytest.approx((0.03344173442, 0.01070460705), abs=1e-10)
    assert row["n_pos_needed"] == pytest.approx(0.5061497683, abs=1e-9)
    assert row["n_neg_needed"] == pytest.approx(0.8888483737, abs=1e-9)
    # pROC: power 1 at the data's size, sig.level 0 for power 0.9.
    assert long.roc.compare(**common, plan="power", n_boot=20)["power"].item() == pytest.approx(1.0)
    alpha = long.roc.compare(**common, power=0.9, plan="alpha", n_boot=20)["alpha"].item()
    assert alpha == pytest.approx(0.0, abs=1e-12)


# --- the modes agree with each other (scipy) ---------------------------------------------


@pytest.mark.parametrize("method", ["delong", "obuchowski"])
def test_power_at_the_planned_size_is_the_power_asked(method: str) -> None:
    plan = ndka_wfns(power=0.8, power_method=method)
    for sizes in ({"n_pos": plan["n_pos_needed"]}, {"n_neg": plan["n_neg_needed"]}):
        got = ndka_wfns(plan="power", power_method=method, **sizes)
        assert got["power"] == pytest.approx(0.8, abs=1e-9)
    both = {"n_pos": plan["n_pos_needed"], "n_neg": plan["n_neg_needed"]}
    assert ndka_wfns(plan="power", power_method=method, **both)["power"] == pytest.approx(0.8)
    level = ndka_wfns(power=0.8, plan="alpha", power_method=method, **both)["alpha"]
    assert level == pytest.approx(0.05, abs=1e-9)


def _placements(pos: np.ndarray, neg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's placements by brute force: V10 per positive, V01 per negative (ties ½)."""
    wins = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return wins.mean(axis=1), wins.mean(axis=0)


@pytest.mark.parametrize(("n_pos", "n_neg"), [(41, 72), (41, 144), (100, 30), (12.5, 400)])
def test_delong_power_at_a_size_against_brute_force(n_pos: float, n_neg: float) -> None:
    # DeLong's variances S10 / n_pos + S01 / n_neg from brute-force placements, each class's
    # part scaled by its own planned count; the power by scipy.
    wide = pl.read_csv(DATA / "aSAH.csv")
    y = (wide["outcome"] == "Poor").to_numpy()
    v10_a, v01_a = _placements(wide["ndka"].to_numpy()[y], wide["ndka"].to_numpy()[~y])
    v10_b, v01_b = _placements(wide["wfns"].to_numpy()[y], wide["wfns"].to_numpy()[~y])
    delta = v10_a.mean() - v10_b.mean()
    g10, g01 = v10_a - v10_b, v01_a - v01_b
    va = np.var(g10, ddof=1) / n_pos + np.var(g01, ddof=1) / n_neg
    v0 = 2 * (np.cov(v10_a, g10)[0, 1] / n_pos + np.cov(v01_a, g01)[0, 1] / n_neg)
    expected = norm.cdf((abs(delta) - norm.ppf(0.975) * np.sqrt(v0)) / np.sqrt(va))
    got = ndka_wfns(plan="power", n_pos=n_pos, n_neg=n_neg)
    assert got["diff"] == pytest.approx(delta, abs=1e-12)
    assert got["power"] == pytest.approx(expected, abs=1e-10)
    z_alpha = (abs(delta) - norm.ppf(0.9) * np.sqrt(va)) / np.sqrt(v0)
    level = ndka_wfns(plan="alpha", power=0.9, n_pos=n_pos, n_neg=n_neg)["alpha"]
    assert level == pytest.approx(2 * norm.sf(z_alpha), abs=1e-10)


def test_plans_are_per_group_and_lazy() -> None:
    long = asah_long()
    kwargs = {**ASAH, "plan": "power", "power_method": "obuchowski"}
    grouped = long.roc.compare(**kwargs, by="gender")
    assert grouped["power"].is_not_null().all()
    for row in grouped.iter_rows(named=True):
        alone = long.filter(pl.col("gender") == row["gender"]).roc.compare(**kwargs)
        match = alone.filter(model_a=row["model_a"], model_b=row["model_b"])
        assert match["power"].item() == pytest.approx(row["power"], rel=1e-12)
    lazy = long.lazy().roc.compare(**kwargs, by="gender").collect()
    assert lazy.equals(grouped)


def test_unpaired_pairs_have_no_plan() -> None:
    row = ndka_wfns(plan="power", paired=False)
    assert row["paired"] is False
    assert row["power"] is None


# --- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"plan": "power", "power": 0.9}, "plan='power' solves for the power"),
        ({"plan": "alpha"}, "plan='alpha' needs the wanted power"),
        ({"plan": "n"}, "plan must be one of"),
        ({"power": 0.9, "n_pos": 10}, "plan='sample_size' solves for n_pos"),
        ({"n_pos": 10}, "n_pos/n_neg needs power= or plan="),
        ({"plan": "power", "n_pos": -1}, "n_pos must be a positive number"),
        ({"plan": "power", "n_neg": float("inf")}, "n_neg must be a positive number"),
        ({"plan": "power", "method": "venkatraman"}, "planning a study needs method='delong'"),
        ({"plan": "power", "method": "bootstrap"}, "planning a study needs method='delong'"),
        (
            {"plan": "power", "method": "bootstrap", "fpr": (0, 0.1)},
            "partial area is planned with Obuchowski",
        ),
        ({"plan": "power", "cluster": "case"}, "studies are planned unclustered"),
        ({"weight": "score"}, "compare does not take weight='score'"),
        ({"weight": "score", "method": "bootstrap"}, "compare does not take weight="),
    ],
)
def test_refusals_name_the_fix(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        asah_long().roc.compare(**ASAH, **kwargs)


def test_sizes_must_be_numbers() -> None:
    with pytest.raises(TypeError, match="n_pos must be a number of cases, got True"):
        asah_long().roc.compare(**ASAH, plan="power", n_pos=True)


def test_messy_groups_give_null_plans_not_errors() -> None:
    # A group whose two models score identically (no variance under the alternative), a
    # tiny group, null scores (skipped), and a normal group planned as when alone.
    rows = {
        "g": ["same"] * 8 + ["tiny"] * 4 + ["ok"] * 12,
        "case": list(range(8)) + list(range(4)) + list(range(12)),
        "label": [0, 1] * 4 + [0, 1, 0, 1] + [0, 1] * 6,
        "a": [
            *[0.1, 0.9, 0.2, 0.8, 0.3, 0.7, 0.4, 0.6],
            *[0.2, 0.4, 0.4, 0.2],
            *[0.1, 0.5, 0.3, 0.4, None, 0.9, 0.2, 0.8, 0.6, 0.7, 0.5, 0.3],
        ],
    }
    wide = pl.DataFrame(rows).with_columns(
        b=pl.when(pl.col("g") == "same").then(pl.col("a")).otherwise(1 - pl.col("a") ** 2)
    )
    long = wide.unpivot(index=["g", "case", "label"], on=["a", "b"], variable_name="model")
    kwargs = {"score": "value", "case": "case", "by": "g"}
    power = long.roc.compare(**kwargs, plan="power").sort("g")
    alpha = long.roc.compare(**kwargs, plan="alpha", power=0.8).sort("g")
    same = power.filter(g="same").row(0, named=True)
    assert (same["diff"], same["power"]) == (0.0, None)
    assert alpha.filter(g="same")["alpha"].item() is None
    # tiny: no difference, so even a level of 1 misses power 0.8 (pROC: 2(1 - Φ(z)) = 1.6)
    tiny = power.filter(g="tiny").row(0, named=True)
    assert tiny["power"] == pytest.approx(0.025)  # Δ = 0, V₀ = V_A: the test's own α / 2
    assert alpha.filter(g="tiny")["alpha"].item() is None
    assert power.filter(g="ok")["power"].item() is not None
    ok = long.filter(pl.col("g") == "ok").roc.compare(score="value", case="case", plan="power")
    assert power.filter(g="ok")["power"].item() == pytest.approx(ok["power"].item(), rel=1e-12)
    assert power["power"].is_nan().not_().all()  # null, never NaN
