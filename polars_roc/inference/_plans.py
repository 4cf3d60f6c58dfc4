"""
Planning a paired study from a comparison of two curves: pROC's ``power.roc.test(roc1, roc2)``.

Obuchowski & McClish (1997, formula 2) tie four numbers together for the test of
``Δ = θ₁ - θ₂``: ``√n·|Δ| = z_α·√V₀ + z_β·√V_A`` with ``n`` positives, ``V₀`` and ``V_A`` the
variances of the difference per positive under the null (curve 1 taken as both curves) and
under the alternative. :func:`planned` solves it for whichever of the sample size, the power
and the significance level ``compare(plan=...)`` asks for, per pair of models and group:

* ``V₀ = 2(V₁ - C)``, ``V_A = V₁ + V₂ - 2C`` from DeLong's variances and covariance of the
  observed AUCs (each split into its positives' and negatives' part, so that a planned size
  ``n_pos, n_neg`` scales each part by its own count: ``S₁₀/n_pos + S₀₁/n_neg``), or from
  Obuchowski's binormal variances at ``κ = n_neg / n_pos`` (pROC's ``method="obuchowski"``,
  also for a partial area over an FPR range).
* At the data's size this is pROC's number; pROC plans two curves only at their own size,
  ``n_pos=`` / ``n_neg=`` are ours (the other count at the data's ratio when one is given).
"""

from __future__ import annotations

from typing import Any, Literal, cast

import polars as pl

from polars_roc._core import binormal, labels, validate
from polars_roc._core.columns import COMPARE_PLAN
from polars_roc._core.counts import counted, with_totals
from polars_roc._core.distributions import normal_quantile

__all__ = ["PLANS", "Plan", "binormal_pairs", "check", "partial_plan", "planned"]

#: What the plan solves for (pROC's argument left ``NULL``).
Plan = Literal["sample_size", "power", "alpha"]
PLANS = tuple(COMPARE_PLAN)
_POWER_METHODS = ("delong", "obuchowski")


def _size(value: object, name: str) -> float | None:
    if value is None:
        return None
    if not validate.is_real(value):
        msg = f"{name} must be a number of cases, got {value!r}"
        raise TypeError(msg)
    number = float(cast("float", value))
    if not 0 < number < float("inf"):
        msg = f"{name} must be a positive number of cases, got {value!r}"
        raise ValueError(msg)
    return number


def check(
    plan: object,
    power: float | None,
    power_method: object,
    n_pos: object,
    n_neg: object,
    *,
    method: str,
    fpr: tuple[float, float] | None,
    tpr: tuple[float, float] | None,
) -> tuple[Plan | None, float | None, float | None]:
    """The plan asked for (None for none) and the planned size; errors name the fix."""
    if power_method not in _POWER_METHODS:
        msg = (
            f"power_method must be 'delong' or 'obuchowski', got {power_method!r}\n\nHint: "
            f"power_method='obuchowski' for pROC's binormal variance, else leave it out."
        )
        raise ValueError(msg)
    if plan is None and power is not None:
        plan = "sample_size"
    if plan is not None and plan not in PLANS:
        msg = f"plan must be one of {list(PLANS)}, got {plan!r}\n\nHint: plan='power'."
        raise ValueError(msg)
    sizes = (_size(n_pos, "n_pos"), _size(n_neg, "n_neg"))
    if plan is None:
        if power_method != "delong" or sizes != (None, None):
            given = "power_method='obuchowski'" if power_method != "delong" else "n_pos/n_neg"
            msg = (
                f"{given} needs power= or plan= (it only sets how a study is planned)"
                f"\n\nHint: pass power=0.9 (the sample size), plan='power' or plan='alpha'."
            )
            raise ValueError(msg)
        return None, None, None
    if plan == "power" and power is not None:
        msg = "plan='power' solves for the power: power= does not apply\n\nHint: drop power=."
        raise ValueError(msg)
    if plan != "power" and power is None:
        msg = f"plan={plan!r} needs the wanted power\n\nHint: pass power=0.9."
        raise ValueError(msg)
    if plan == "sample_size" and sizes != (None, None):
        msg = (
            "plan='sample_size' solves for n_pos and n_neg: they do not apply"
            "\n\nHint: plan='power' for the power at a given size."
        )
        raise ValueError(msg)
    if method != "delong" and not (method == "bootstrap" and fpr is not None):
        msg = (
            f"planning a study needs method='delong' (the bootstrap gives no variance to plan "
            f"with), got method={method!r}\n\nHint: leave method out."
        )
        raise ValueError(msg)
    if tpr is not None or (fpr is not None and power_method != "obuchowski"):
        msg = (
            "a partial area is planned with Obuchowski's binormal variance over an FPR range "
            "only (as pROC)\n\nHint: fpr=(lo, hi) with power_method='obuchowski' and "
            "method='bootstrap'."
        )
        raise ValueError(msg)
    return plan, *sizes  # type: ignore[return-value]


def binormal_pairs(
    pairs: pl.LazyFrame,
    rows: pl.LazyFrame,
    ordered: pl.LazyFrame,
    *,
    score: str,
    label: str,
    keys: list[str],
    pos_label: Any,
    pair_keys: list[str],
) -> pl.LazyFrame:
    """
    Pairs with each curve's binormal ``_A_a, _B_a, _A_b, _B_b`` and the score correlations.

    The curves' points are the counts core's (:func:`polars_roc._core.counts.counted`), one fit per
    group and model (:func:`polars_roc._core.binormal.fit`); ``_ra`` / ``_rn`` are Pearson's
    correlations of the two models' scores over the matched positives / negatives
    (`ordered`: the matched cases, columns ``_s_a, _s_b, _y_a``).
    """
    table = counted(rows, score, label, by=keys, weight=None, pos_label=pos_label)
    table = with_totals(table, keys)
    tp, fp = pl.col("tp"), pl.col("fp")
    fit = binormal.fit(tp, fp, pl.col("_positives"), pl.col("_negatives"))
    fits = table.group_by(keys).agg(fit).rename({keys[-1]: "_model"})
    names = keys[:-1]
    for side in ("a", "b"):
        own = fits.rename({"_model": f"_model_{side}", "_A": f"_A_{side}", "_B": f"_B_{side}"})
        pairs = pairs.join(own, on=[*names, f"_model_{side}"], how="left", nulls_equal=True)
    y = pl.col("_y_a")
    s_a, s_b = pl.col("_s_a").cast(pl.Float64), pl.col("_s_b").cast(pl.Float64)
    correlations = ordered.group_by(pair_keys, maintain_order=True).agg(
        _ra=binormal.correlation(s_a.filter(y), s_b.filter(y)),
        _rn=binormal.correlation(s_a.filter(~y), s_b.filter(~y)),
    )
    return pairs.join(correlations, on=pair_keys, how="left", nulls_equal=True)


def _variances(
    power_method: str, m: pl.Expr, n: pl.Expr, fpr: tuple[float, float] | None
) -> tuple[pl.Expr, pl.Expr]:
    """``(V₀, V_A)`` of the difference with `m` positives and `n` negatives."""
    if power_method == "obuchowski":
        kappa = n / m
        a_a, b_a, a_b, b_b = (pl.col(c) for c in ("_A_a", "_B_a", "_A_b", "_B_b"))
        v1 = binormal.variance(a_a, b_a, kappa, fpr)
        v2 = binormal.variance(a_b, b_b, kappa, fpr)
        cov = binormal.covariance(a_a, b_a, a_b, b_b, pl.col("_rn"), pl.col("_ra"), kappa, fpr, fpr)
        return (2 * v1 - 2 * cov) / m, (v1 + v2 - 2 * cov) / m
    # DeLong's parts at the data's size (`_v0_pos` = 2 S₁₀-part / m, ...), rescaled.
    m0, n0 = (pl.col(c).cast(pl.Float64) for c in ("n_pos_a", "n_neg_a"))
    v0 = pl.col("_v0_pos") * m0 / m + pl.col("_v0_neg") * n0 / n
    va = pl.col("_va_pos") * m0 / m + pl.col("_va_neg") * n0 / n
    return v0, va


def planned(
    plan: Plan,
    *,
    power: float | None,
    power_method: str,
    n_pos: float | None,
    n_neg: float | None,
    alternative: str,
    level: float,
    fpr: tuple[float, float] | None = None,
) -> list[pl.Expr]:
    """
    The plan's columns over a pairs frame (``diff, paired, n_pos_a, n_neg_a`` and variances).

    ``"sample_size"``: ``n_pos_needed = (z_α·√V₀ + z_β·√V_A)² / Δ²`` per positive,
    ``n_neg_needed`` at the data's ratio; ``"power"``: ``Φ((|Δ| - z_α·√V₀) / √V_A)`` at the
    planned size; ``"alpha"``: the level (doubled when two-sided) at which the planned size
    reaches `power`, ``1 - Φ((|Δ| - z_β·√V_A) / √V₀)``. Null for an unpaired pair, a negative
    ``V₀`` (pROC's NaN) or no variance under the alternative; the sample size also where
    ``Δ = 0``; the level also where no level reaches `power` (two-sided, pROC returns a
    number above 1).
    """
    halved = (1 - level) / 2 if alternative == "two-sided" else 1 - level
    z_alpha = normal_quantile(1 - halved)
    m_data, n_data = (pl.col(c).cast(pl.Float64) for c in ("n_pos_a", "n_neg_a"))
    defined = pl.col("paired")
    delta = pl.col("diff")
    if plan == "sample_size":
        v0, va = _variances(power_method, m_data, n_data, fpr)
        assert power is not None
        z_beta = normal_quantile(power)
        cases = binormal.sample_size(
            v0 * m_data, va * m_data, delta, z_alpha=z_alpha, z_beta=z_beta
        )
        cases = pl.when(defined & (delta != 0)).then(cases)
        n_pos_needed, n_neg_needed = COMPARE_PLAN["sample_size"]
        return [cases.alias(n_pos_needed), (cases * n_data / m_data).alias(n_neg_needed)]
    m = m_data if n_pos is None else pl.lit(n_pos)
    n = n_data if n_neg is None else pl.lit(n_neg)
    if n_pos is None and n_neg is not None:
        m = n * m_data / n_data
    elif n_neg is None and n_pos is not None:
        n = m * n_data / m_data
    v0, va = _variances(power_method, m, n, fpr)
    defined = defined & (v0 >= 0) & (va > 0)
    if plan == "power":
        z_power = (delta.abs() - z_alpha * v0.sqrt()) / va.sqrt()
        return [pl.when(defined).then(binormal.phi(z_power)).alias(*COMPARE_PLAN["power"])]
    assert power is not None
    z = (delta.abs() - normal_quantile(power) * va.sqrt()) / v0.sqrt()
    tail = 1 - binormal.phi(z)
    level_needed = tail * 2 if alternative == "two-sided" else tail
    # Two-sided, a "level" above 1 (pROC returns it) means no level reaches the power: null.
    reached = defined & (v0 > 0) & (level_needed <= 1)
    return [pl.when(reached).then(level_needed).alias(*COMPARE_PLAN["alpha"])]


def partial_plan(
    tested: pl.LazyFrame,
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    model: str,
    case: str | None,
    names: list[str],
    pos_label: Any,
    plan: Plan,
    power: float | None,
    n_pos: float | None,
    n_neg: float | None,
    alternative: str,
    level: float,
    fpr: tuple[float, float],
) -> pl.LazyFrame:
    """
    The bootstrap test of partial areas (`tested`) with the plan of its difference.

    pROC's ``power.roc.test`` on curves with ``partial.auc`` over specificity: Obuchowski's
    binormal variances of the partial areas over the FPR range `fpr`, ``Δ`` the difference
    of the raw partial areas (``diff``). The cases are matched as the test matches them (by
    `case`, else by position within each model).
    """
    case_id = pl.col(case) if case is not None else pl.int_range(pl.len()).over([*names, model])
    rows = lf.select(
        *names,
        pl.col(model).alias("_model"),
        case_id.alias("_case"),
        labels.score(score, checked=False).alias("_s"),
        labels.positive(label, pos_label).alias("_y"),
    ).filter(pl.col("_s").is_not_null() & pl.col("_y").is_not_null())
    keys = [*names, "_model"]
    sides = rows.group_by(keys).agg(
        n_pos=pl.col("_y").sum().cast(pl.Int64), n_neg=(~pl.col("_y")).sum().cast(pl.Int64)
    )
    pairs = tested.rename({"model_a": "_model_a", "model_b": "_model_b"})
    for side in ("a", "b"):
        own = sides.rename({"_model": f"_model_{side}", "n_pos": f"n_pos_{side}"})
        own = own.rename({"n_neg": f"n_neg_{side}"})
        pairs = pairs.join(own, on=[*names, f"_model_{side}"], how="left", nulls_equal=True)
    cells = rows.select(*names, "_model", "_case", "_y", "_s")
    left = cells.rename({"_model": "_model_a", "_y": "_y_a", "_s": "_s_a"})
    right = cells.rename({"_model": "_model_b", "_y": "_y_b", "_s": "_s_b"})
    pair_keys = [*names, "_model_a", "_model_b"]
    ordered = (
        left.join(right, on=[*names, "_case"], how="inner", nulls_equal=True)
        .filter((pl.col("_model_a") < pl.col("_model_b")) & (pl.col("_y_a") == pl.col("_y_b")))
        .sort([*pair_keys, "_case"])
    )
    pairs = binormal_pairs(
        pairs,
        rows.select(*keys, "_s", "_y"),
        ordered,
        score="_s",
        label="_y",
        keys=keys,
        pos_label=True,
        pair_keys=pair_keys,
    )
    columns = planned(
        plan,
        power=power,
        power_method="obuchowski",
        n_pos=n_pos,
        n_neg=n_neg,
        alternative=alternative,
        level=level,
        fpr=fpr,
    )
    kept = tested.collect_schema().names()
    return pairs.with_columns(columns).select(
        *(pl.col(f"_{c}").alias(c) if c in ("model_a", "model_b") else pl.col(c) for c in kept),
        *(c.meta.output_name() for c in columns),
    )
