"""
Inference on ROC areas: tests comparing two models (DeLong, or the bootstrap).

DeLong et al. (1988) write the AUC as the mean of *placements*: a positive's placement
``V10`` is the fraction of negatives scoring below it, a negative's ``V01`` the fraction of
positives scoring above it (ties count one half). The AUC's variance is
``S10 / n_pos + S01 / n_neg`` with ``S10``, ``S01`` the sample variances (ddof = 1) of the
placements. Sun & Xu (2014) compute placements from midranks: the midrank of a positive
among all rows minus its midrank among the positives is the number of negatives below it
(ties one half). Here that is two ``rank()`` windows per group, so the whole computation is
a lazy Polars query with no Python loop (see :mod:`polars_roc._core.delong`). The
intervals are computed by ``auc(ci=...)``, ``partial_auc(ci=...)`` and
``tpr_at_fpr(ci=...)``; :mod:`polars_roc.inference.intervals` names them.

Examples
--------
>>> import polars as pl
>>> import polars_roc as pr
>>> df = pl.DataFrame(
...     {"score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3], "label": [0, 0, 1, 1, 1, 0, 1, 0]}
... )
>>> df.roc.auc(ci="delong")
shape: (1, 6)
┌────────┬───────┬───────┬──────────┬───────────┬───────────┐
│ auc    ┆ n_pos ┆ n_neg ┆ auc_se   ┆ auc_lower ┆ auc_upper │
│ ---    ┆ ---   ┆ ---   ┆ ---      ┆ ---       ┆ ---       │
│ f64    ┆ i64   ┆ i64   ┆ f64      ┆ f64       ┆ f64       │
╞════════╪═══════╪═══════╪══════════╪═══════════╪═══════════╡
│ 0.9375 ┆ 4     ┆ 4     ┆ 0.088388 ┆ 0.764262  ┆ 1.0       │
└────────┴───────┴───────┴──────────┴───────────┴───────────┘
"""

from __future__ import annotations

from typing import Any, Literal

import polars as pl

from polars_roc._core import validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import COMPARE, COMPARE_VARIANCE, EQUIVALENCE, MARGIN
from polars_roc._core.compat import opaque
from polars_roc._core.delong import (
    cluster_variances,
    delong_table,
    integer_covariance,
    integer_variance,
    obuchowski,
)
from polars_roc._core.direction import Direction, directed
from polars_roc._core.distributions import difference_test
from polars_roc._core.frames import same_kind
from polars_roc._core.groups import join_groups
from polars_roc._core.names import fresh
from polars_roc._core.validate import By
from polars_roc.inference import _bootstrap_tests as bootstrap_tests
from polars_roc.inference import _margins as margins
from polars_roc.inference import _pair_checks as pair_checks
from polars_roc.inference import _plans as plans
from polars_roc.inference.multiple_testing import check_adjust, with_adjusted
from polars_roc.inference.venkatraman import Roles, venkatraman_compare
from polars_roc.typing import Adjust, Alternative

__all__ = ["Alternative", "compare"]

_ALTERNATIVES = ("two-sided", "greater", "less")


def _clustered_pairs(
    pairs: pl.LazyFrame, ordered: pl.LazyFrame, pair_keys: list[str]
) -> pl.LazyFrame:
    """
    Pairs with ``_paired_var`` (clustered variance of ``auc_a - auc_b``) and ``_split``.

    Per cluster, the two models' placement sums differ by ``a = Σ(V10_a - V10_b) - m Δ``
    and ``b = Σ(V01_a - V01_b) - n Δ`` (``Δ = auc_a - auc_b``): Obuchowski's variance of
    them is ``V_a + V_b - 2 C`` with his covariance terms, exactly 0 for identical curves.
    `_split` counts the matched cases whose cluster differs between the two models.
    `ordered`: the matched cases sorted by case, so every sum runs in a fixed order.
    """
    y = pl.col("_y_a")
    gap = pl.col("_d_a") - pl.col("_d_b")  # counts: V10 = _d / n_neg, 1 - V01 = _d / n_pos
    sums = ordered.group_by(*pair_keys, "_cluster_a", maintain_order=True).agg(
        _m=y.sum().cast(pl.Float64),
        _n=(~y).sum().cast(pl.Float64),
        _g10=gap.filter(y).sum(),
        _g01=gap.filter(~y).sum(),
        _split=(pl.col("_cluster_a") != pl.col("_cluster_b")).sum(),
    )
    sides = pairs.select(*pair_keys, "auc_a", "auc_b", "n_pos_a", "n_neg_a")
    sums = sums.join(sides, on=pair_keys, nulls_equal=True).sort([*pair_keys, "_cluster_a"])
    m, n = (pl.col(c).cast(pl.Float64) for c in ("n_pos_a", "n_neg_a"))
    delta = pl.col("auc_a") - pl.col("auc_b")
    a = pl.col("_g10") / n - pl.col("_m") * delta
    b = -pl.col("_g01") / m - pl.col("_n") * delta
    variances = sums.group_by(pair_keys, maintain_order=True).agg(
        _paired_var=obuchowski(a, b, m, n), _split=pl.col("_split").sum()
    )
    return pairs.join(variances, on=pair_keys, how="left", nulls_equal=True)


@same_kind
@directed
def compare(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    model: str = "model",
    case: str | None = None,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    paired: bool | None = None,
    alternative: Alternative = "two-sided",
    level: float = 0.95,
    method: Literal["delong", "bootstrap", "venkatraman"] = "delong",
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    n_boot: int = 2000,
    seed: int | None = 0,
    adjust: Adjust | None = None,
    power: float | None = None,
    progress: bool | None = None,
    cluster: str | None = None,
    power_method: Literal["delong", "obuchowski"] = "delong",
    n_perm: int = 2000,
    margin: float | None = None,
    equivalence: tuple[float, float] | None = None,
    plan: plans.Plan | None = None,
    n_pos: float | None = None,
    n_neg: float | None = None,
) -> pl.LazyFrame:
    """
    DeLong's (or a bootstrap) test of two AUCs, for every pair of models, per group.

    Long-format input: one row per case and model. For each group and each pair of models
    ``model_a < model_b`` (in the model column's sort order), ``diff = auc_a - auc_b`` is
    tested against 0.

    * **Paired** (the same cases scored by both models, matched by `case`): DeLong's test,
      ``Z = diff / sqrt(V_a + V_b - 2 C)`` against the standard normal, where ``C`` is the
      covariance of the two AUCs from the placements' covariances (ddof = 1):
      ``C = cov(V10_a, V10_b) / n_pos + cov(V01_a, V01_b) / n_neg``. The interval is
      ``diff ± z · sd``. Identical curves give ``Z = 0`` and ``p = 1``.
    * **Unpaired** (different cases): ``D = diff / sqrt(V_a + V_b)`` against Student's t
      with the Welch-type ``df = (V_a + V_b)² / (V_a² / (N_a - 1) + V_b² / (N_b - 1))``,
      ``N = n_pos + n_neg`` of each curve (as pROC); interval ``diff ± t_df · sd``.
    * ``paired=None`` decides per group and pair, as pROC: paired iff both models hold
      exactly the same cases, each with the same label under both, matched by `case`, or
      without `case` by position (the same number of rows with the same labels in the same
      order). With `case`, a pair that runs the unpaired test because some cases lack a
      partner (no row, or another label, under the other model) warns with their count;
      ``paired=True`` raises with it instead; ``paired=False`` always runs the unpaired
      test, silently. The `paired` column says which test ran. Null case ids are an error.

    ``method="bootstrap"`` runs pROC's bootstrap test instead (paired or not, by the same
    rule), of the AUCs or, with ``fpr=(lo, hi)`` / ``tpr=(lo, hi)``, of the raw partial
    areas (then in ``auc_a, auc_b``): see :mod:`polars_roc.inference._bootstrap_tests`.

    With more than two models every pair is tested; ``adjust="holm"``, ``"bonferroni"`` or
    ``"bh"`` (Benjamini-Hochberg) adds ``p_adjusted``, corrected over all the rows returned
    (:mod:`polars_roc.inference.multiple_testing`). A group with fewer than two models
    yields no rows. Results are null when a curve is undefined; the interval, statistic and
    p-value also where a class has fewer than 2 rows. For a one-sided `alternative` the
    interval is one-sided, with the far end at ±1 (the range of a difference of AUCs);
    intervals are clipped to [-1, 1].

    Parameters
    ----------
    lf
        Scored rows in long format.
    score, label, by, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    model
        Column naming the model that produced each score.
    weight
        Not supported: DeLong's, the bootstrap and the Venkatraman tests are defined on
        unweighted cases (pROC has no weights); a weight column is refused with a
        ValueError. Compare weighted AUCs one by one with ``auc(weight=...,
        ci="bootstrap")``, or repeat each row by its integer weight.
    case
        Column identifying the case (patient, customer): pairs the two models' rows.
        Each case appears at most once per model and group.
    paired
        True (paired test, or an error), False (unpaired test), None (decide from the data).
    alternative
        ``"two-sided"``, ``"greater"`` (``auc_a > auc_b``) or ``"less"``.
    level
        Confidence level of the interval of the difference.
    method, fpr, tpr, n_boot, seed
        ``"delong"``, ``"bootstrap"`` or ``"venkatraman"``; the partial-area range,
        replicates and random seed of the bootstrap test. ``"venkatraman"`` tests that the
        two whole curves are equal (pROC's ``roc.test(method="venkatraman")``, see
        :mod:`polars_roc.inference.venkatraman`): `statistic` is pROC's E, `p_value` the
        share of `n_perm` permutations (seeded by `seed`) reaching it; two-sided, no
        interval, no `fpr`/`tpr`/`power`/`cluster`.
    adjust
        None, ``"holm"``, ``"bonferroni"`` or ``"bh"``: adds ``p_adjusted``.
    power, plan, n_pos, n_neg
        Plan a paired study to detect the observed difference, as pROC's
        ``power.roc.test(roc1, roc2)`` with ``roc1`` the curve of `model_a`: Obuchowski &
        McClish (1997, eq. 2) tie ``√n·|diff| = z_α·√V₀ + z_β·√V_A`` (``n`` positives,
        ``V₀ = 2(V_a - C)`` taking `model_a` as the null, ``V_A = V_a + V_b - 2C``, per
        positive; ``z_α`` from the test's level ``1 - level``, halved when two-sided).
        `plan` says which unknown is solved for (pROC's argument left ``NULL``):
        ``"sample_size"`` (the default when `power` is given) adds ``n_pos_needed,
        n_neg_needed``, the positives and negatives (at the observed ratio) that reach
        `power`; ``"power"`` adds ``power``, the power of the test at the data's size or at
        `n_pos` / `n_neg` (one of them alone keeps the data's ratio); ``"alpha"`` adds
        ``alpha``, the significance level (two-sided: both tails) at which that size
        reaches `power`. pROC plans two curves only at their own size; a given size scales
        DeLong's variance part by part (``S₁₀ / n_pos + S₀₁ / n_neg``) and sets ``κ`` of
        Obuchowski's. Null for an unpaired pair, a negative ``V₀`` (pROC's NaN) or no
        variance; the sample size also for no difference; ``alpha`` also where no level
        reaches `power` (two-sided, pROC returns a "level" above 1). A partial area is planned with
        ``method="bootstrap", fpr=(lo, hi), power_method="obuchowski"`` (pROC's curves
        with ``partial.auc`` over specificity): ``diff`` is then the difference of the raw
        partial areas and the variances Obuchowski's over that FPR range; pROC's aSAH
        planning over specificity (1, 0.9) asks 0.51 cases: the partial areas are small
        and so are their binormal variances. Not with `cluster`.
    power_method
        The variances ``V_a, V_b, C`` that plan the study (with `power` or `plan`;
        ``"obuchowski"`` without either is an error):
        ``"delong"`` (default) the DeLong variances and covariance of the observed AUCs;
        ``"obuchowski"`` Obuchowski's binormal ones, as pROC's ``method="obuchowski"``:
        each curve's binormal ``A, B`` is pROC's least-squares fit of
        ``Φ⁻¹(1 - fpr) = A + B·Φ⁻¹(tpr)`` over its points (one per distinct score), leaving
        out the points where a rate is 0 or 1 (infinite quantiles), and the correlations of
        the two models' scores over the positives and over the negatives (Pearson) give the
        covariance. Null where pROC stops or returns NaN: a curve with fewer than two points
        inside the unit square or all at one `tpr` (pROC: "ROC curve not smoothable"), a
        constant score within a class (no correlation), a negative ``V₀``.
    margin
        Non-inferiority of `model_b` to `model_a` (the second model in the column's order,
        e.g. an Enum ``["champion", "challenger"]``, against the first): ``H0: auc_b - auc_a
        <= -margin``, ``statistic = (margin - diff) / sd`` (``diff = auc_a - auc_b``, `sd`
        DeLong's, clustered or not, or the bootstrap's, also for ``fpr=`` partial areas),
        one-sided ``p_value = 1 - F(statistic)`` (normal; Student's t with `df` unpaired).
        Adds a `margin` column; the interval of `diff` stays two-sided at `level`. See
        :mod:`polars_roc.inference._margins`.
    equivalence
        ``(lo, hi)``: equivalence of the two areas, ``lo < auc_b - auc_a < hi``, by two
        one-sided tests (the larger p-value, the smaller statistic); adds
        ``equivalence_lower, equivalence_upper``. Not with `margin` or a one-sided
        `alternative`.
    cluster
        Column of cluster ids (a patient with several lesions, a customer with several
        accounts; each case belongs to one cluster, the same under every model). DeLong's
        method: every variance and covariance is Obuchowski's (1997), from the placements
        summed per cluster: paired, ``V_a + V_b - 2 C`` is his formula over the per-cluster
        differences of the two models' sums; unpaired, each model's clustered variance,
        with the Welch-type `df` counting clusters instead of rows. One cluster per row
        gives today's numbers (to rounding). ``method="bootstrap"`` draws whole clusters
        (stratified as :func:`polars_roc.inference.bootstrap`); not with `power`.
    direction
        ``"higher"`` (a higher score means positive) or ``"lower"`` (the same as negating
        the score, with thresholds kept in score units); never guessed from the data.
    nan_policy
        NaN scores: ``"propagate"`` (default: the group's results are null), ``"omit"``
        (skipped like nulls) or ``"raise"`` (an error naming the column and the count).
    progress
        A progress bar on standard error while the bootstrap runs: True, False or None
        (auto: only on a terminal, not under pytest, and with tqdm installed; ``pip install
        polars_roc[progress]``). It ticks once per chunk of replicates, after ~2 s.
    n_perm
        Permutations of ``method="venkatraman"`` (pROC's ``boot.n``).

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, model_a, model_b, auc_a, auc_b, diff, diff_lower, diff_upper, statistic,
        p_value, paired, df``: `paired` tells which test ran, `df` the t test's degrees of
        freedom (null for the normal tests); the DeLong test adds ``var_a, var_b, cov``:
        each AUC's variance and, for a paired test, their covariance (pROC's ``var`` and
        ``cov``; clustered, Obuchowski's); + ``p_adjusted`` with `adjust`; +
        ``n_pos_needed, n_neg_needed`` / ``power`` / ``alpha`` with `power` or `plan`
        (`power_method` sets their variance); `statistic, p_value` are the margin's test
        + ``margin`` with `margin`, + ``equivalence_lower, equivalence_upper`` with
        `equivalence`.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {
    ...         "case": list(range(8)) * 2,
    ...         "model": ["a"] * 8 + ["b"] * 8,
    ...         "label": [0, 0, 1, 1, 1, 0, 1, 0] * 2,
    ...         "score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.3]
    ...         + [0.3, 0.2, 0.6, 0.5, 0.1, 0.7, 0.8, 0.4],
    ...     }
    ... )
    >>> df.roc.compare(case="case").select("model_a", "model_b", "diff", "statistic", "p_value")
    shape: (1, 5)
    ┌─────────┬─────────┬────────┬───────────┬──────────┐
    │ model_a ┆ model_b ┆ diff   ┆ statistic ┆ p_value  │
    │ ---     ┆ ---     ┆ ---    ┆ ---       ┆ ---      │
    │ str     ┆ str     ┆ f64    ┆ f64       ┆ f64      │
    ╞═════════╪═════════╪════════╪═══════════╪══════════╡
    │ a       ┆ b       ┆ 0.3125 ┆ 1.099853  ┆ 0.271396 │
    └─────────┴─────────┴────────┴───────────┴──────────┘
    >>> boot = df.roc.compare(case="case", method="bootstrap", n_boot=500, seed=1, adjust="holm")
    >>> boot.select("diff", "paired", "p_adjusted").row(0)[:2]
    (0.3125, True)

    The cases a study needs to detect the observed difference with 90% power, from DeLong's
    variances or from Obuchowski's binormal ones (pROC's ``power.roc.test(..., method=
    "obuchowski")``):

    >>> sim = pr.datasets.simulate(2000, models=["gbm", "logit"], seed=7)
    >>> sizes = [
    ...     sim.roc.compare(case="case", power=0.9, power_method=method)
    ...     for method in ("delong", "obuchowski")
    ... ]
    >>> pl.concat(sizes).select("diff", pl.col("n_pos_needed", "n_neg_needed").round(2))
    shape: (2, 3)
    ┌──────────┬──────────────┬──────────────┐
    │ diff     ┆ n_pos_needed ┆ n_neg_needed │
    │ ---      ┆ ---          ┆ ---          │
    │ f64      ┆ f64          ┆ f64          │
    ╞══════════╪══════════════╪══════════════╡
    │ 0.197296 ┆ 18.36        ┆ 137.91       │
    │ 0.197296 ┆ 32.41        ┆ 243.42       │
    └──────────┴──────────────┴──────────────┘

    pROC's other modes: the power of the test at the data's size and at 20 positives and
    100 negatives, and the significance level at which 15 positives (negatives at the
    data's ratio) reach 90% power:

    >>> at_size = sim.roc.compare(case="case", plan="power")
    >>> smaller = sim.roc.compare(case="case", plan="power", n_pos=20, n_neg=100)
    >>> level = sim.roc.compare(case="case", plan="alpha", power=0.9, n_pos=15)
    >>> [round(f.item(0, -1), 4) for f in (at_size, smaller, level)]
    [1.0, 0.9038, 0.1105]

    Is `b` no worse than `a` by more than 0.4 (non-inferiority)? ``statistic = (0.4 -
    diff) / sd``:

    >>> df.roc.compare(case="case", margin=0.4).select("diff", "statistic", "p_value")
    shape: (1, 3)
    ┌────────┬───────────┬──────────┐
    │ diff   ┆ statistic ┆ p_value  │
    │ ---    ┆ ---       ┆ ---      │
    │ f64    ┆ f64       ┆ f64      │
    ╞════════╪═══════════╪══════════╡
    │ 0.3125 ┆ 0.307959  ┆ 0.379057 │
    └────────┴───────────┴──────────┘

    Two cases per patient: the clustered test is wider where a patient's cases agree.

    >>> patients = df.with_columns(patient=pl.col("case") // 2)
    >>> clustered = patients.roc.compare(case="case", cluster="patient")
    >>> clustered.select("diff", "statistic", "p_value")
    shape: (1, 3)
    ┌────────┬───────────┬──────────┐
    │ diff   ┆ statistic ┆ p_value  │
    │ ---    ┆ ---       ┆ ---      │
    │ f64    ┆ f64       ┆ f64      │
    ╞════════╪═══════════╪══════════╡
    │ 0.3125 ┆ 0.802788  ┆ 0.422097 │
    └────────┴───────────┴──────────┘
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, pos_label=pos_label)
    validate.column(schema, model, "model")
    roles = {score: "score", label: "label", **dict.fromkeys(names, "by")}
    if model in roles:
        msg = f"model column {model!r} is already the {roles[model]} column"
        raise ValueError(msg)
    if case is not None:
        validate.column(schema, case, "case")
        if case in roles or case == model:
            msg = f"case column {case!r} is already the {roles.get(case, 'model')} column"
            raise ValueError(msg)
    if paired not in (None, True, False):
        msg = f"paired must be True, False or None, got {paired!r}"
        raise ValueError(msg)
    if paired is True and case is None:
        msg = (
            "paired=True needs the column that matches the cases across models"
            "\n\nHint: pass case=<case id column>."
        )
        raise ValueError(msg)
    if alternative not in _ALTERNATIVES:
        msg = (
            f"alternative must be one of {list(_ALTERNATIVES)}, got {alternative!r}"
            f"\n\nHint: alternative='two-sided'."
        )
        raise ValueError(msg)
    validate.level(level)
    check_adjust(adjust)
    margin, equivalence = margins.check(margin, equivalence)
    if (margin is not None or equivalence is not None) and alternative != "two-sided":
        msg = (
            f"margin= and equivalence= set the test's sides; alternative={alternative!r} "
            f"does not apply\n\nHint: leave alternative out."
        )
        raise ValueError(msg)
    if cluster is not None:
        validate.cluster(schema, cluster, roles={**roles, model: "model"})
    if weight is not None:
        validate.column(schema, weight, "weight")
        msg = (
            f"compare does not take weight={weight!r}: DeLong's test, the bootstrap test and "
            f"the Venkatraman test are defined on unweighted cases (pROC has no weights)"
            f"\n\nHint: compare the weighted AUCs one by one with auc(weight=..., "
            f"ci='bootstrap'), or repeat each row by its integer weight."
        )
        raise ValueError(msg)
    if power is not None:
        validate.open_unit(power, "power")
    plan, n_pos, n_neg = plans.check(
        plan, power, power_method, n_pos, n_neg, method=method, fpr=fpr, tpr=tpr
    )
    if cluster is not None and plan is not None:
        msg = "studies are planned unclustered\n\nHint: drop cluster= or the plan (power=, plan=)."
        raise ValueError(msg)
    if method == "venkatraman":
        unsupported = {"fpr": fpr, "tpr": tpr, "power": power, "cluster": cluster}
        unsupported |= {"margin": margin, "equivalence": equivalence, "alternative": alternative}
        design = Roles(score, label, model, case, pos_label, tuple(names))
        tested = venkatraman_compare(
            lf, design, paired=paired, n_perm=n_perm, seed=seed, unsupported=unsupported
        )
        return with_adjusted(tested, adjust)
    if bootstrap_tests.wanted(method, fpr=fpr, tpr=tpr, n_boot=n_boot, seed=seed):
        cols: dict[str, Any] = {"model": model, "case": case, "pos_label": pos_label}
        cols["cluster"] = cluster
        test: dict[str, Any] = {"paired": paired, "alternative": alternative, "level": level}
        boot: dict[str, Any] = {"n_boot": n_boot, "seed": seed, "fpr": fpr, "tpr": tpr}
        boot["progress"] = progress  # progress
        tested = bootstrap_tests.compare(lf, score, label, names=names, **cols, **test, **boot)
        tested = margins.with_margin_test(tested, margin, equivalence).drop("_sd")
        if plan is not None and fpr is not None:
            tested = plans.partial_plan(
                tested,
                lf,
                score,
                label,
                model=model,
                case=case,
                names=names,
                pos_label=pos_label,
                plan=plan,
                power=power,
                n_pos=n_pos,
                n_neg=n_neg,
                alternative=alternative,
                level=level,
                fpr=fpr,
            )
        return with_adjusted(tested, adjust)
    # Only the columns the test reads, model and case under names not in the frame: no other
    # column meets an internal one. As pROC: without case ids, two models score the same
    # cases when they hold the same number of rows with the same labels in the same order;
    # the row's position within its model (and group) is then its case id.
    taken = list(schema)
    model_column, case_column = fresh("__roc_model", taken), fresh("__roc_case", taken)
    cluster_column = fresh("__roc_cluster", taken)
    case_id = pl.col(case) if case is not None else pl.int_range(pl.len()).over([*names, model])
    ids = [] if cluster is None else [validate.checked_cluster(cluster).alias(cluster_column)]
    rows = lf.select(
        *names, score, label, pl.col(model).alias(model_column), case_id.alias(case_column), *ids
    )
    keys = [*names, model_column]
    extra = [case_column, *([] if cluster is None else [cluster_column])]
    placed, table = delong_table(
        rows, score, label, names=keys, weight=None, pos_label=pos_label, extra=extra
    )
    if cluster is not None:  # each model's clustered variance and its number of clusters
        variances = cluster_variances(placed, table, keys, cluster_column)
        table = table.drop("_var").join(variances, on=keys, how="left", nulls_equal=True)
        table = table.with_columns(_clusters=pl.col("n_clusters").fill_null(0.0))
    # Past the coding every column is ours (the groups run under reserved names).
    placed = placed.rename({model_column: "_model", case_column: "_case"})
    placed = placed.rename({cluster_column: "_cluster"}) if cluster is not None else placed
    table = table.rename({model_column: "_model"})
    dup = placed.group_by(*names, "_model").agg(
        _dup=pl.col("_case").filter(pl.col("_case").is_duplicated()).first(),
        _null_cases=pl.col("_case").is_null().sum(),
    )
    table = table.join(dup, on=[*names, "_model"], how="left", nulls_equal=True)
    # Rows, and the independent units of the Welch-type df: clusters when clustered.
    size = pl.col("n_pos") + pl.col("n_neg")
    units = pl.col("_clusters") if cluster is not None else size
    table = opaque(
        table.with_columns(_n=size, _units=units), pair_checks.check_summary(model, case)
    )
    side = ["_model", "auc", "n_pos", "n_neg", "_var", "_n", "_units"]
    a = table.select(*names, *(pl.col(c).alias(f"{c}_a") for c in side))
    b = table.select(*names, *(pl.col(c).alias(f"{c}_b") for c in side))
    pairs = join_groups(a, b, names, how="inner").filter(pl.col("_model_a") < pl.col("_model_b"))
    pair_keys = [*names, "_model_a", "_model_b"]
    own = ["_cluster"] if cluster is not None else []
    binormal_power = plan is not None and power_method == "obuchowski"
    own += ["_s"] if binormal_power else []
    cells = placed.select(*names, "_model", "_case", "_y", "_d", *own)
    left = cells.rename({"_model": "_model_a", "_y": "_y_a", "_d": "_d_a"})
    right = cells.rename({"_model": "_model_b", "_y": "_y_b", "_d": "_d_b"})
    for kept in own:  # the cluster ids, the scores
        left, right = left.rename({kept: f"{kept}_a"}), right.rename({kept: f"{kept}_b"})
    matched = left.join(right, on=[*names, "_case"], how="inner", nulls_equal=True).filter(
        (pl.col("_model_a") < pl.col("_model_b")) & (pl.col("_y_a") == pl.col("_y_b"))
    )
    y = pl.col("_y_a")
    # The paired variance from the per-case differences of placements (gaps): the same
    # number as var_a + var_b - 2 cov, and exactly 0 for identical curves. Twice a placement
    # count is a whole number: exact integer sums, the same bits on every run and engine
    # (the quarter restores the placements' scale).
    twice_a, twice_b = ((2 * pl.col(c)).cast(pl.Int64, strict=False) for c in ("_d_a", "_d_b"))
    twice_gap = twice_a - twice_b
    ordered = matched.sort([*pair_keys, "_case"])  # cases in order for the clustered sums
    covariances = ordered.group_by(pair_keys, maintain_order=True).agg(
        _matched=pl.len(),
        _g10=integer_variance(twice_gap.filter(y)) / 4,
        _g01=integer_variance(twice_gap.filter(~y)) / 4,
        _c10=integer_covariance(twice_a.filter(y), twice_b.filter(y)) / 4,
        _c01=integer_covariance(twice_a.filter(~y), twice_b.filter(~y)) / 4,
        _v10=integer_covariance(twice_a.filter(y), twice_gap.filter(y)) / 4,
        _v01=integer_covariance(twice_a.filter(~y), twice_gap.filter(~y)) / 4,
    )
    pairs = pairs.join(covariances, on=pair_keys, how="left", nulls_equal=True)
    if cluster is not None:
        pairs = _clustered_pairs(pairs, ordered, pair_keys)
    if binormal_power:
        pairs = plans.binormal_pairs(
            pairs,
            rows.select(*names, score, label, model_column),
            ordered,
            score=score,
            label=label,
            keys=keys,
            pos_label=pos_label,
            pair_keys=pair_keys,
        )
    same_cases = (pl.col("_matched") == pl.col("_n_a")) & (pl.col("_n_a") == pl.col("_n_b"))
    is_paired = same_cases.fill_null(False) if paired is not False else pl.lit(False)
    v_a, v_b = pl.col("_var_a"), pl.col("_var_b")
    # `_d` are counts, so V10 = _d / n_neg and 1 - V01 = _d / n_pos.
    m, n = (pl.col(c).cast(pl.Float64) for c in ("n_pos_a", "n_neg_a"))
    paired_variance = pl.col("_g10") / (m * n**2) + pl.col("_g01") / (n * m**2)
    # DeLong's covariance of the two AUCs from its own definition (no cancellation).
    covariance = pl.col("_c10") / (m * n**2) + pl.col("_c01") / (n * m**2)
    # V0 = 2 (V_a - C): twice the covariance of model a's placements with the gaps; each
    # variance kept as its positives' and negatives' parts for a plan at another size.
    parts = {
        "_v0_pos": 2 * pl.col("_v10") / (m * n**2),
        "_v0_neg": 2 * pl.col("_v01") / (n * m**2),
        "_va_pos": pl.col("_g10") / (m * n**2),
        "_va_neg": pl.col("_g01") / (n * m**2),
    }
    if cluster is not None:
        paired_variance = pl.col("_paired_var")
        covariance = (v_a + v_b - paired_variance) / 2
    variance = pl.when(pl.col("paired")).then(paired_variance).otherwise(v_a + v_b)
    diff = pl.col("auc_a") - pl.col("auc_b")
    sd = pl.col("_sd")
    units_a, units_b = pl.col("_units_a"), pl.col("_units_b")
    welch = (v_a + v_b) ** 2 / (v_a**2 / (units_a - 1) + v_b**2 / (units_b - 1))
    pairs = pairs.with_columns(paired=is_paired, **parts)
    if case is not None and paired is not False:
        pairs = opaque(pairs, pair_checks.check_partners(model, case, paired))
    if cluster is not None:
        pairs = opaque(pairs, pair_checks.check_clusters(model, cluster))
    out = (
        pairs.with_columns(diff=diff, _sd=variance.clip(lower_bound=0.0).sqrt())
        .with_columns(
            statistic=pl.when(sd > 0)
            .then(pl.col("diff") / sd)
            .when((sd == 0) & (pl.col("diff") == 0))
            .then(0.0)
            .when(sd == 0)  # a difference with no variance: certain (pROC's Z = ±Inf, p = 0)
            .then(pl.col("diff").sign() * float("inf")),
            df=pl.when(~pl.col("paired") & (sd > 0)).then(welch),
        )
        .with_columns(_test=difference_test(alternative, level))
        .unnest("_test")
        .sort(pair_keys, nulls_last=True)
    )
    out = margins.with_margin_test(out, margin, equivalence)
    out = out.select(
        *names,
        pl.col("_model_a").alias("model_a"),
        pl.col("_model_b").alias("model_b"),
        *COMPARE[2:],
        *(
            value.alias(name)
            for value, name in zip(
                (v_a, v_b, pl.when(pl.col("paired")).then(covariance)),
                COMPARE_VARIANCE,
                strict=True,
            )
        ),
        *(
            []
            if plan is None
            else plans.planned(
                plan,
                power=power,
                power_method=power_method,
                n_pos=n_pos,
                n_neg=n_neg,
                alternative=alternative,
                level=level,
            )
        ),
        *([] if margin is None else [MARGIN]),
        *([] if equivalence is None else EQUIVALENCE),
    )
    return with_adjusted(out, adjust)
