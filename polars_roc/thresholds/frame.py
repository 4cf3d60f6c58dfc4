"""Threshold analysis: measures at chosen thresholds, operating points and cutpoints.

Everything here reads the ROC curve of :func:`polars_roc.curves.curve` (itself derived from
the counts core), so a threshold table, an operating point and a cutpoint always agree with
the curve. LazyFrame in, LazyFrame out; nothing here collects.

Threshold schemes (the ``thresholds=`` argument of :func:`thresholds` and
:func:`polars_roc.curves.curve`):

* ``None``: every distinct score (the finest, "stair-step" resolution), plus the
  ``threshold=+inf`` start row at (0, 0).
* a sequence of floats: exactly those thresholds; a row is predicted positive iff
  ``score >= t``, so the counts at ``t`` are those at the smallest distinct score ``>= t``.
* an int ``k``: ``k`` thresholds at quantiles of the **negative** class's scores (the first
  curve point whose FPR reaches ``i / (k + 1)``, ``i = 1..k``; weighted when the rows are),
  so FPR is sampled evenly, plus the two end points (0, 0) and (1, 1).
* :func:`linspace` ``(k)``: ``k`` thresholds evenly spaced from each group's highest to its
  lowest score (both included), plus the ``+inf`` start row.
"""

from __future__ import annotations

from typing import Any, Literal

import polars as pl
import polars.selectors as cs

from polars_roc._core import labels, objectives, schemes, validate, value
from polars_roc._core.checks import NanPolicy
from polars_roc._core.columns import BEST_THRESHOLD, THRESHOLDS
from polars_roc._core.counts import roc_points
from polars_roc._core.direction import Direction, directed
from polars_roc._core.frames import same_kind
from polars_roc._core.proportions import PROPORTION_METHODS, ProportionMethod, rate_intervals
from polars_roc._core.replicates import best_statistic, with_best_intervals, with_rate_intervals
from polars_roc._core.schemes import Thresholds, at_thresholds
from polars_roc._core.validate import By
from polars_roc.decisions import folds

__all__ = ["best_threshold", "measures", "point", "thresholds"]

_INF = float("inf")


def measures() -> list[pl.Expr]:
    """
    The threshold table's measures from ``tp, fp, tn, fn``: undefined ratios are null.

    ``+inf`` appears only where a ratio is truly infinite: ``lr_pos`` at FPR 0 with TPR > 0,
    ``lr_neg`` at TNR 0 with FNR > 0.
    """
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    defined = tn.is_not_null() & fn.is_not_null()  # null totals: a NaN score in the group

    def ratio(a: pl.Expr, b: pl.Expr) -> pl.Expr:
        return pl.when(defined & (b > 0)).then(a / b)

    tpr, fpr = ratio(tp, tp + fn), ratio(fp, fp + tn)
    tnr, fnr = ratio(tn, fp + tn), ratio(fn, tp + fn)
    mcc_denominator = ((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)).sqrt()
    return [
        tnr.alias("tnr"),
        fnr.alias("fnr"),
        ratio(tp, tp + fp).alias("ppv"),
        ratio(tn, tn + fn).alias("npv"),
        ratio(fp, tp + fp).alias("fdr"),
        ratio(tp + tn, tp + fp + tn + fn).alias("accuracy"),
        ((tpr + tnr) / 2).alias("balanced_accuracy"),
        ratio(2 * tp, 2 * tp + fp + fn).alias("f1"),
        objectives.youden(),
        ratio(tp * tn - fp * fn, mcc_denominator).alias("mcc"),
        _likelihood_ratio(tpr, fpr).alias("lr_pos"),
        _likelihood_ratio(fnr, tnr).alias("lr_neg"),
        # pROC's coords(ret="closest.topleft") with its default best.weights = c(1, 0.5).
        (fnr**2 + fpr**2).alias("closest_topleft"),
    ]


def _likelihood_ratio(top: pl.Expr, bottom: pl.Expr) -> pl.Expr:
    """``top / bottom``; +inf for x / 0 with x > 0; null for 0 / 0 or an undefined rate."""
    return pl.when(bottom > 0).then(top / bottom).when((bottom == 0) & (top > 0)).then(_INF)


@same_kind
@directed
def thresholds(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    thresholds: Thresholds = None,
    ci: Literal["bootstrap"] | ProportionMethod | None = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    progress: bool | None = None,
    cluster: str | None = None,
) -> pl.LazyFrame:
    """
    Confusion counts and every standard measure, per group and threshold.

    A row is predicted positive iff ``score >= threshold``. With the default
    ``thresholds=None`` there is one row per distinct score plus the ``threshold=+inf`` row
    (nothing predicted positive), exactly the rows of ``curve()``.

    Measures: ``tpr = tp / P``, ``fpr = fp / N``, ``tnr = tn / N``, ``fnr = fn / P``,
    ``ppv = tp / (tp + fp)``, ``npv = tn / (tn + fn)``, ``fdr = fp / (tp + fp)``,
    ``accuracy = (tp + tn) / (P + N)``, ``balanced_accuracy = (tpr + tnr) / 2``,
    ``f1 = 2 tp / (2 tp + fp + fn)``, ``youden = tpr - fpr`` (J), ``mcc`` (Matthews),
    ``lr_pos = tpr / fpr``, ``lr_neg = fnr / tnr``, ``closest_topleft = (1 - tpr)² + fpr²``
    (the squared distance to the corner, pROC's ``coords(ret="closest.topleft")`` with its
    default ``best.weights``). A ratio with a zero denominator is null,
    except a likelihood ratio x / 0 with x > 0, which is ``+inf``. A group with a NaN score
    has null measures.

    Parameters
    ----------
    lf
        Scored rows.
    score
        Numeric score column; higher means more likely positive.
    label
        Class column: Boolean, 0/1 integer, or any coding with `pos_label`.
    by
        Column name(s) to group by.
    weight
        Optional non-negative case weights (counts become Float64 weight sums).
    pos_label
        The positive class. Default: True for Boolean labels, 1 for 0/1 integers.
    thresholds
        Where to evaluate: None (every distinct score), a list of floats (exactly those), an
        int k (k quantiles of the negative scores plus both end points), or
        :func:`linspace` ``(k)``. See :mod:`polars_roc.thresholds`.
    ci
        ``"bootstrap"`` (with a list of `thresholds`) adds ``<measure>_lower,
        <measure>_upper`` for every measure of the table, from ``tpr`` to
        ``closest_topleft``: stratified bootstrap percentile intervals at each threshold
        (pROC's ``ci.thresholds`` and ``ci.coords``), null where a replicate leaves the
        measure undefined or infinite; see :mod:`polars_roc._core.replicates`.
        ``"wilson"``, ``"clopper_pearson"`` or ``"agresti_coull"`` add closed-form
        intervals from the counts alone (no resampling, so they run on a `pr.tally`):
        ``tpr_lower, tpr_upper, fpr_lower, fpr_upper, ppv_lower, ppv_upper, npv_lower,
        npv_upper`` by that method and ``lr_pos_lower, lr_pos_upper, lr_neg_lower,
        lr_neg_upper`` by the log method (Simel et al. 1991); weighted counts are read as
        frequencies. See :mod:`polars_roc._core.proportions`.
    level, n_boot, seed
        Confidence level, bootstrap replicates and random seed (``ci="bootstrap"`` only).
    cluster
        Column of cluster ids (a customer, a patient with several rows), with
        ``ci="bootstrap"``: replicates draw whole clusters, stratified by kind (clusters of
        positives only, of negatives only, then clusters holding both; see
        :mod:`polars_roc._core.resampling`). One cluster per row gives exactly the row
        bootstrap's numbers. Unweighted rows only; null cluster ids are an error.
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

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, threshold, tp, fp, tn, fn, tpr, fpr, tnr, fnr, ppv, npv, fdr, accuracy,
        balanced_accuracy, f1, youden, mcc, lr_pos, lr_neg, closest_topleft``, threshold
        descending per group
        (+ interval columns with `ci`).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.1], "label": [1, 0, 1, 0]})
    >>> df.roc.thresholds().select("threshold", "tp", "fp", "ppv", "youden", "lr_pos")
    shape: (5, 6)
    ┌───────────┬─────┬─────┬──────────┬────────┬────────┐
    │ threshold ┆ tp  ┆ fp  ┆ ppv      ┆ youden ┆ lr_pos │
    │ ---       ┆ --- ┆ --- ┆ ---      ┆ ---    ┆ ---    │
    │ f64       ┆ i64 ┆ i64 ┆ f64      ┆ f64    ┆ f64    │
    ╞═══════════╪═════╪═════╪══════════╪════════╪════════╡
    │ inf       ┆ 0   ┆ 0   ┆ null     ┆ 0.0    ┆ null   │
    │ 0.9       ┆ 1   ┆ 0   ┆ 1.0      ┆ 0.5    ┆ inf    │
    │ 0.8       ┆ 1   ┆ 1   ┆ 0.5      ┆ 0.0    ┆ 1.0    │
    │ 0.7       ┆ 2   ┆ 1   ┆ 0.666667 ┆ 0.5    ┆ 2.0    │
    │ 0.1       ┆ 2   ┆ 2   ┆ 0.5      ┆ 0.0    ┆ 1.0    │
    └───────────┴─────┴─────┴──────────┴────────┴────────┘
    >>> df.roc.thresholds(thresholds=[0.5])["accuracy"].to_list()
    [0.75]
    >>> sim = pr.datasets.simulate(300, seed=2).filter(pl.col("model") == "logit")
    >>> out = sim.roc.thresholds(thresholds=[0.5], ci="bootstrap", n_boot=500, seed=1)
    >>> out.select("tpr", "tpr_lower", "tpr_upper", "fpr", "fpr_lower", "fpr_upper")
    shape: (1, 6)
    ┌───────┬───────────┬───────────┬─────────┬───────────┬───────────┐
    │ tpr   ┆ tpr_lower ┆ tpr_upper ┆ fpr     ┆ fpr_lower ┆ fpr_upper │
    │ ---   ┆ ---       ┆ ---       ┆ ---     ┆ ---       ┆ ---       │
    │ f64   ┆ f64       ┆ f64       ┆ f64     ┆ f64       ┆ f64       │
    ╞═══════╪═══════════╪═══════════╪═════════╪═══════════╪═══════════╡
    │ 0.625 ┆ 0.46875   ┆ 0.8125    ┆ 0.05597 ┆ 0.033582  ┆ 0.084049  │
    └───────┴───────────┴───────────┴─────────┴───────────┴───────────┘
    >>> patients = sim.with_columns(patient=pl.col("case") // 3)  # 3 rows per patient
    >>> out = patients.roc.thresholds(
    ...     thresholds=[0.5], ci="bootstrap", n_boot=500, seed=1, cluster="patient"
    ... )
    >>> bool(out["tpr_lower"].item() <= out["tpr"].item() <= out["tpr_upper"].item())
    True
    """
    table = _table(lf, score, label, by=by, weight=weight, pos_label=pos_label, scheme=thresholds)
    if cluster is not None:
        if ci != "bootstrap":
            msg = (
                f"cluster= changes the bootstrap interval only, got ci={ci!r}"
                "\n\nHint: pass ci='bootstrap' with it."
            )
            raise ValueError(msg)
        roles = {score: "score", label: "label", **dict.fromkeys(validate.as_names(by), "by")}
        validate.cluster(lf.collect_schema(), cluster, roles=roles, weight=weight)
    if ci in PROPORTION_METHODS:  # closed form: from the counts, no resampling
        validate.level(level)
        return table.with_columns(rate_intervals(ci, level))
    if not _check_ci(ci, level, n_boot, seed):
        return table
    if isinstance(thresholds, bool) or not isinstance(thresholds, list | tuple):
        msg = (
            f"ci='bootstrap' needs a list of thresholds, got thresholds={thresholds!r}"
            "\n\nHint: thresholds=[0.3, 0.5] (as pROC's ci.thresholds)."
        )
        raise ValueError(msg)
    return with_rate_intervals(
        table,
        lf,
        score,
        label,
        names=validate.as_names(by),
        weight=weight,
        pos_label=pos_label,
        thresholds=thresholds,
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
        cluster=cluster,
    )


def _check_ci(ci: Any, level: float, n_boot: int, seed: int | None) -> bool:
    """Check the bootstrap arguments; whether an interval is asked for."""
    if not validate.ci(ci, ("bootstrap", *PROPORTION_METHODS)):
        return False
    validate.level(level)
    validate.n_boot(n_boot)
    validate.seed(seed)
    return True


def _table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    by: By,
    weight: str | None,
    pos_label: Any,
    scheme: Thresholds,
) -> pl.LazyFrame:
    """The threshold table (the body of :func:`thresholds`, whose argument shadows it)."""
    names = validate.as_names(by)
    schemes.scheme(scheme)  # fail at call time
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    return _measured(points, names, scheme)


def _measured(points: pl.LazyFrame, names: list[str], scheme: Thresholds) -> pl.LazyFrame:
    """The threshold table of curves (:func:`polars_roc.curves.curve`) at a scheme."""
    table = at_thresholds(points, names, scheme, ends=False)
    extra = cs.by_name(*value.EXTRA, require_all=False)  # with method="value"
    return table.with_columns(measures()).select(*names, *THRESHOLDS, extra)


@same_kind
@directed
def best_threshold(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
    method: str = "youden",
    cost_fp: value.Amount | None = None,
    cost_fn: value.Amount | None = None,
    prevalence: float | None = None,
    fpr: tuple[float, float] | None = None,
    tpr: tuple[float, float] | None = None,
    thresholds: Thresholds = None,
    ci: Literal["bootstrap"] | ProportionMethod | None = None,
    level: float = 0.95,
    n_boot: int = 2000,
    seed: int | None = 0,
    where: pl.Expr | None = None,
    gain_tp: value.Amount = 1.0,
    gain_tn: value.Amount = 0.0,
    capacity: value.Capacity = None,
    fold: str | None = None,
    progress: bool | None = None,
) -> pl.LazyFrame:
    """
    The optimal threshold per group: its row of the :func:`thresholds` table.

    The `method` decides what is optimal:

    * any column of the :func:`thresholds` table (``"tpr"``, ``"f1"``, ``"mcc"``,
      ``"balanced_accuracy"``, ...): maximize it (to minimize a rate, maximize its
      complement: ``"tnr"`` for ``fpr``);
    * ``"youden"``: maximize J = tpr - fpr; weighted, ``tpr + r·tnr``;
    * ``"closest_topleft"``: minimize the distance to (0, 1), ``(1 - tpr)² + fpr²``;
      weighted, ``(1 - tpr)² + r·fpr²``. Either is weighted as pROC's ``best.weights =
      c(cost, prevalence)`` when `cost_fp`, `cost_fn` or `prevalence` is given:
      ``r = cost_fp·(1 - prevalence) / (cost_fn·prevalence)`` (pROC's ``cost`` is
      ``cost_fn / cost_fp``; `prevalence` defaults to 0.5, pROC's, so that costs alone
      give ``r = cost_fp / cost_fn``). The table's `youden` and `closest_topleft` columns
      stay unweighted;
    * ``"cost"``: minimize the expected cost ``cost_fn * P * (1 - tpr) + cost_fp * N * fpr``
      (= ``cost_fn * fn + cost_fp * fp``), with P, N the class counts (or weight sums) of the
      group, or ``prevalence`` and ``1 - prevalence`` when `prevalence` is given (the
      iso-performance line of slope ``cost_fp * (1 - prevalence) / (cost_fn * prevalence)``).
    * ``"value"``: maximize :func:`polars_roc.decisions.value_curve` (+ ``depth, value,
      value_per_case``); `capacity`, `fold`: every method, see :mod:`polars_roc.decisions`.

    `where` restricts the candidates to the rows where a condition over the table's
    columns holds, e.g. the best recall at a precision of at least 0.9:
    ``method="tpr", where=pl.col("ppv") >= 0.9`` (cutpointr's ``metric_constraint``,
    scikit-learn's constrained thresholds). A group where no row satisfies it gets a row
    of nulls with its class counts, not an error.

    Every row of the table is a candidate, the ``+inf`` row (predict nothing) included.
    Ties: exactly one row per group is returned; among equally good thresholds the
    **highest** threshold wins (the fewest predicted positives), but never one that
    another of them dominates (a TPR as high and an FPR as low, one strictly): where a
    lower tied threshold has the same FPR and a higher TPR, the tied threshold of that
    FPR with the highest TPR is returned instead. E.g.
    ``method="tnr", where=pl.col("tpr") >= 0.85`` with two thresholds of the same TNR
    returns the one of the higher TPR (as OptimalCutpoints' ``MinValueSe``). A group with
    no candidate
    (no positives or no negatives for a rate-based objective, a NaN score, or no point in the
    `fpr` / `tpr` range) gets one row of nulls. Ties are exact for unweighted counts: the
    objectives are compared in integer arithmetic (J as ``tp * N - fp * P``, the squared
    distance scaled by ``(P * N)²``). Weighted sums and costs compare as floats, where an
    objective within ``1e-12`` of the best (relative to its scale) ties.

    Parameters
    ----------
    lf, score, label, by, weight, pos_label
        Scored rows and column roles, as in :func:`thresholds`.
    method
        ``"youden"``, ``"closest_topleft"``, ``"cost"``, ``"value"``, or the name of any
        :func:`thresholds` column to maximize (``"tpr"``, ``"f1"``, ``"mcc"``, ...): see
        above.
    cost_fp, cost_fn, gain_tp, gain_tn, capacity, fold
        Costs (``"cost"``: > 0, default 1) and amounts (``"value"``): see :mod:`~.decisions`.
    prevalence
        Share of positives to assume, in (0, 1): ``"cost"`` (default: the data's) and the
        weighted ``"youden"`` / ``"closest_topleft"`` (default 0.5, as pROC).
    fpr, tpr
        ``(lo, hi)``: search only the ROC points with FPR (TPR) in ``[lo, hi]``, e.g. the
        best cutpoint within a partial-AUC region.
    thresholds
        The candidate thresholds, a scheme as in :func:`thresholds`.
    ci
        ``"bootstrap"`` adds ``threshold_lower, threshold_upper, tpr_lower, tpr_upper,
        fpr_lower, fpr_upper``: each stratified resample finds its own optimum by the same
        rule (candidates: every distinct score; needs ``thresholds=None``), and the bounds
        are the percentile intervals of its threshold, tpr and fpr. A resample that picks
        the ``+inf`` row ("always negative") counts with a threshold above every score, so
        a threshold bound is ``+inf`` where its percentile falls there; the bounds are null
        when a resample has no candidate. ``"wilson"``, ``"clopper_pearson"`` or
        ``"agresti_coull"``: the closed-form intervals of the chosen row's rates and
        likelihood ratios, as in :func:`thresholds`.
    level, n_boot, seed
        Confidence level, bootstrap replicates and random seed (``ci="bootstrap"`` only).
    where
        A Boolean expression over the :func:`thresholds` columns; only rows where it is
        true are candidates (null counts as false).
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

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        The :func:`thresholds` columns, then the group's class counts ``n_pos, n_neg``
        (weight sums when weighted): one row per group, sorted by group (+ the bounds
        with `ci`).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame(
    ...     {"score": [0.9, 0.8, 0.7, 0.6, 0.4, 0.1], "label": [1, 1, 0, 1, 0, 0]}
    ... )

    Thresholds 0.8 and 0.6 tie at J = 2/3; the higher one is returned:

    >>> df.roc.best_threshold().select("threshold", "tpr", "fpr", "youden")
    shape: (1, 4)
    ┌───────────┬──────────┬─────┬──────────┐
    │ threshold ┆ tpr      ┆ fpr ┆ youden   │
    │ ---       ┆ ---      ┆ --- ┆ ---      │
    │ f64       ┆ f64      ┆ f64 ┆ f64      │
    ╞═══════════╪══════════╪═════╪══════════╡
    │ 0.8       ┆ 0.666667 ┆ 0.0 ┆ 0.666667 │
    └───────────┴──────────┴─────┴──────────┘
    >>> df.roc.best_threshold(fpr=(0.2, 0.5))["threshold"].item()
    0.6
    >>> df.roc.best_threshold(method="cost", cost_fn=5.0)["threshold"].item()
    0.6

    Weighted as pROC's ``coords(best.method="closest.topleft", best.weights=c(5, 0.5))``:
    a false negative costs five false positives, so the lower threshold is closest:

    >>> topleft = df.roc.best_threshold(method="closest_topleft", cost_fn=5.0, prevalence=0.5)
    >>> topleft["threshold"].item()
    0.6
    >>> sim = pr.datasets.simulate(300, seed=2).filter(pl.col("model") == "logit")
    >>> out = sim.roc.best_threshold(ci="bootstrap", n_boot=500, seed=1)
    >>> out.select("threshold", "threshold_lower", "threshold_upper")
    shape: (1, 3)
    ┌───────────┬─────────────────┬─────────────────┐
    │ threshold ┆ threshold_lower ┆ threshold_upper │
    │ ---       ┆ ---             ┆ ---             │
    │ f64       ┆ f64             ┆ f64             │
    ╞═══════════╪═════════════════╪═════════════════╡
    │ 0.379     ┆ 0.379           ┆ 0.49            │
    └───────────┴─────────────────┴─────────────────┘

    The best recall at a precision of at least 0.9, and a constraint nothing meets:

    >>> df.roc.best_threshold(method="tpr", where=pl.col("ppv") >= 0.9).select(
    ...     "threshold", "tpr", "ppv", "n_pos", "n_neg"
    ... )
    shape: (1, 5)
    ┌───────────┬──────────┬─────┬───────┬───────┐
    │ threshold ┆ tpr      ┆ ppv ┆ n_pos ┆ n_neg │
    │ ---       ┆ ---      ┆ --- ┆ ---   ┆ ---   │
    │ f64       ┆ f64      ┆ f64 ┆ i64   ┆ i64   │
    ╞═══════════╪══════════╪═════╪═══════╪═══════╡
    │ 0.8       ┆ 0.666667 ┆ 1.0 ┆ 3     ┆ 3     │
    └───────────┴──────────┴─────┴───────┴───────┘
    >>> df.roc.best_threshold(method="f1", where=pl.col("fpr") > 1)["threshold"].item() is None
    True
    """
    named = objectives.METHODS
    valued = method == "value"
    if not isinstance(method, str) or method not in (*named, "value", *THRESHOLDS):
        msg = (
            f"method must be 'youden', 'closest_topleft', 'cost', 'value' or a column of the "
            f"thresholds table {list(THRESHOLDS[1:])}, got {method!r}\n\nHint: method='youden', "
            f"or e.g. method='tpr', where=pl.col('ppv') >= 0.9."
        )
        raise ValueError(msg)
    if where is not None and not isinstance(where, pl.Expr):
        msg = (
            f"where must be a polars expression over the thresholds columns, got "
            f"{type(where).__name__}\n\nHint: where=pl.col('ppv') >= 0.9."
        )
        raise TypeError(msg)
    if where is not None:
        unknown = sorted(set(where.meta.root_names()) - set(THRESHOLDS) - {"value", "depth"})
        if unknown:
            msg = (
                f"where refers to {unknown}, which are not thresholds columns "
                f"{list(THRESHOLDS)}\n\nHint: e.g. where=pl.col('ppv') >= 0.9."
            )
            raise pl.exceptions.ColumnNotFoundError(msg)
    amounts = {"gain_tp": gain_tp, "cost_fp": cost_fp, "cost_fn": cost_fn, "gain_tn": gain_tn}
    kept = value.check_amounts(lf.collect_schema(), amounts) if valued else None
    cost_fp = validate.cost(1.0 if cost_fp is None or valued else cost_fp, "cost_fp")
    cost_fn = validate.cost(1.0 if cost_fn is None or valued else cost_fn, "cost_fn")
    validate.prevalence(prevalence)
    names = validate.as_names(by)
    closed_form = ci in PROPORTION_METHODS
    if closed_form:
        validate.level(level)
    interval = not closed_form and _check_ci(ci, level, n_boot, seed)
    if interval and thresholds is not None:
        msg = (
            f"ci='bootstrap' searches every distinct score, got thresholds={thresholds!r}"
            "\n\nHint: leave thresholds=None."
        )
        raise ValueError(msg)
    if interval and (method not in named or where is not None or capacity or fold):
        msg = (
            f"ci='bootstrap' supports the named methods {list(named)} without `where`, "
            f"`capacity` or `fold`, got method={method!r}\n\nHint: drop ci=, or those."
        )
        raise ValueError(msg)
    schemes.scheme(thresholds)  # fail at call time
    if fold is not None:  # the same rule, chosen on the other folds (decisions/folds.py)
        rule: dict[str, Any] = {"method": method, "prevalence": prevalence, "fpr": fpr}
        rule |= {"tpr": tpr, "thresholds": thresholds, "where": where, "capacity": capacity}
        rule |= kept or {"cost_fp": cost_fp, "cost_fn": cost_fn}
        roles = {"score": score, "label": label, "weight": weight, "pos_label": pos_label}
        out = folds.cutpoints(lf, best_threshold, _measured, roles, rule, fold, names, kept)
        return out.with_columns(rate_intervals(ci, level)) if closed_form else out  # type: ignore[arg-type]
    points = roc_points(lf, score, label, by=names, weight=weight, pos_label=pos_label)
    if kept:  # the value columns beside the counts (_core/value.py)
        points = value.value_points(lf, score, label, names, weight, pos_label, kept)
    table = _measured(points, names, thresholds)
    weighted = weight is not None
    costs: dict[str, Any] = {"cost_fp": cost_fp, "cost_fn": cost_fn, "prevalence": prevalence}
    costs["ratio"] = objectives.weights_ratio(method, cost_fp, cost_fn, prevalence)
    if valued:
        objective = pl.col("value")
    elif method in named:
        objective = objectives.objective(method, **costs, weighted=weighted)
    else:
        objective = pl.col(method).cast(pl.Float64)
        objective = pl.when(objective.is_not_nan()).then(objective)
    allowed = value.fits(value.check_capacity(capacity))
    if where is not None:
        allowed = allowed & where.fill_null(value=False)
    for bounds, rate in ((fpr, "fpr"), (tpr, "tpr")):
        if bounds is not None:
            lo, hi = validate.unit_range(bounds, rate)
            allowed = allowed & pl.col(rate).is_between(lo, hi)
    tie = objectives.tolerance(method, **costs, weighted=weighted)
    tie = value.value_tolerance(kept, names or ["_g"]) if kept else tie
    columns = [*THRESHOLDS, *value.EXTRA] if kept else list(THRESHOLDS)
    best = objectives.best_rows(table, names, objective, columns=columns, allowed=allowed, tie=tie)
    keys = names or ["_g"]
    if not names:  # one group: a constant key, so the group is kept when it has no candidate
        points = points.with_columns(_g=pl.lit(True))
        best = best.with_columns(_g=pl.lit(True))
    # The class sizes from the curve's last counts: shown also where a NaN score leaves the
    # group without a defined table (as auc's n_pos, n_neg).
    totals = points.group_by(keys).agg(n_pos=pl.col("tp").max(), n_neg=pl.col("fp").max())
    out = totals.join(best, on=keys, how="left", nulls_equal=True)
    out = out.sort(keys, nulls_last=True).select(*names, *columns, *BEST_THRESHOLD[-2:])
    if closed_form:
        return out.with_columns(rate_intervals(ci, level))  # type: ignore[arg-type]
    if not interval:
        return out
    ranges = {"fpr": fpr, "tpr": tpr}
    for rate, bounds in ranges.items():
        ranges[rate] = None if bounds is None else validate.unit_range(bounds, rate)
    statistic = best_statistic(
        method, **costs, fpr=ranges["fpr"], tpr=ranges["tpr"], weighted=weighted
    )
    return with_best_intervals(
        out,
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        statistic=statistic,
        level=level,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
    )


@same_kind
def point(
    lf: pl.LazyFrame,
    prediction: str,
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
) -> pl.LazyFrame:
    """
    A hard-label (deterministic) classifier as one point in ROC space.

    Its ROC "curve" runs (0, 0) → (fpr, tpr) → (1, 1), so its area is
    ``auc = (tpr + tnr) / 2`` (the balanced accuracy). `below_diagonal` flags a classifier
    worse than chance (``tpr < fpr``): flipping its predictions mirrors it above.

    Parameters
    ----------
    lf
        Rows with a predicted and a true class.
    prediction
        Predicted class column, coded like `label` (Boolean, 0/1, or `pos_label`).
    label
        True class column.
    by
        Column name(s) to group by: one point per group.
    weight
        Optional non-negative case weights (counts become Float64 weight sums).
    pos_label
        The positive class, for both columns. Default: True / 1.

    Returns
    -------
    pl.LazyFrame | pl.DataFrame
        The kind of frame given (``df.roc`` gives a DataFrame).
        ``*by, tp, fp, tn, fn, tpr, fpr, auc, below_diagonal``, sorted by group. Rates are
        null for a group without positives (tpr) or negatives (fpr).

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"pred": [1, 1, 0, 0, 1], "label": [1, 0, 1, 0, 1]})
    >>> df.roc.point("pred")
    shape: (1, 8)
    ┌─────┬─────┬─────┬─────┬──────────┬─────┬──────────┬────────────────┐
    │ tp  ┆ fp  ┆ tn  ┆ fn  ┆ tpr      ┆ fpr ┆ auc      ┆ below_diagonal │
    │ --- ┆ --- ┆ --- ┆ --- ┆ ---      ┆ --- ┆ ---      ┆ ---            │
    │ i64 ┆ i64 ┆ i64 ┆ i64 ┆ f64      ┆ f64 ┆ f64      ┆ bool           │
    ╞═════╪═════╪═════╪═════╪══════════╪═════╪══════════╪════════════════╡
    │ 2   ┆ 1   ┆ 1   ┆ 1   ┆ 0.666667 ┆ 0.5 ┆ 0.583333 ┆ false          │
    └─────┴─────┴─────┴─────┴──────────┴─────┴──────────┴────────────────┘
    """
    names = validate.as_names(by)
    schema = lf.collect_schema()
    for column, role in ((prediction, "prediction"), (label, "label")):
        dtype = validate.column(schema, column, role)
        if not validate.is_label_dtype(dtype):
            msg = (
                f"{role} column {column!r} has dtype {dtype}, expected Boolean, integer, "
                f"string or categorical class codes\n\nHint: pass {role}=<class column>."
            )
            raise pl.exceptions.SchemaError(msg)
        if dtype.is_float() and pos_label is None:
            msg = (
                f"{role} column {column!r} has dtype {dtype}: it looks like a score, not "
                f"class codes\n\nHint: threshold the score first, or pass pos_label= to use "
                f"float class codes."
            )
            raise pl.exceptions.SchemaError(msg)
        if pos_label is not None:
            validate.pos_label_fits(column, dtype, pos_label)
    for name in names:
        validate.column(schema, name, "by")
    validate.weight_column(schema, weight)
    y = labels.positive(label, pos_label)
    yhat = labels.positive(prediction, pos_label, role="prediction")
    w = None if weight is None else labels.weight(weight)
    keep = labels.kept(yhat, y, w)
    if w is None:
        cells = {
            "tp": (y & yhat).cast(pl.Int64),
            "fp": (~y & yhat).cast(pl.Int64),
            "tn": (~y & ~yhat).cast(pl.Int64),
            "fn": (y & ~yhat).cast(pl.Int64),
        }
    else:
        cells = {
            "tp": w * (y & yhat),
            "fp": w * (~y & yhat),
            "tn": w * (~y & ~yhat),
            "fn": w * (y & ~yhat),
        }
    counted = lf.filter(keep).select(*names, **cells)
    summed = (
        counted.group_by(names).agg(pl.all().sum()).sort(names, nulls_last=True)
        if names
        else counted.select(pl.all().sum())
    )
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    tpr = pl.when(tp + fn > 0).then(tp / (tp + fn))
    fpr = pl.when(fp + tn > 0).then(fp / (fp + tn))
    return summed.with_columns(tpr=tpr, fpr=fpr).with_columns(
        auc=(1 + pl.col("tpr") - pl.col("fpr")) / 2,
        below_diagonal=pl.col("tpr") < pl.col("fpr"),
    )
