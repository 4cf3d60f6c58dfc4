"""
The output columns of every analysis, written once.

The analyses, the charts and the report read them from here.
Each tuple holds a frame's columns in order, after its group (`by`) columns. An interval
adds columns after them by one rule (:func:`interval`): ``x_se``, ``x_lower`` and ``x_upper``
belong to the column ``x`` (``auc_lower`` to ``auc``, ``tpr_upper`` to ``tpr``). A chart
tells a frame's group columns from its outputs with :func:`groups`: every column that is
not an output of that kind of frame, nor an interval of one, nor internal (``_x``), so the
interval columns of ``ci="bootstrap"`` are never taken for groups.

Examples
--------
>>> interval("auc")
('auc_se', 'auc_lower', 'auc_upper')
>>> groups(["model", "threshold", "tpr", "tpr_lower", "tpr_upper", "fpr"], CURVE)
['model']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: The parts of an interval, in order: ``x_se, x_lower, x_upper``.
INTERVAL = ("se", "lower", "upper")

#: ``curve``: the ROC curve, one row per threshold.
CURVE = ("threshold", "tp", "fp", "tn", "fn", "tpr", "fpr")
#: ``thresholds``: the threshold table (+ ``tpr_lower, tpr_upper, fpr_lower, fpr_upper``).
THRESHOLDS = (
    *CURVE,
    "tnr",
    "fnr",
    "ppv",
    "npv",
    "fdr",
    "accuracy",
    "balanced_accuracy",
    "f1",
    "youden",
    "mcc",
    "lr_pos",
    "lr_neg",
    "closest_topleft",
)
#: ``best_threshold``: the optimum's table row and the class sizes (+ bounds of threshold,
#: tpr, fpr).
BEST_THRESHOLD = (*THRESHOLDS, "n_pos", "n_neg")
#: The attainable operating point of ``tpr_at_fpr`` and ``fpr_at_tpr``.
OPERATING_POINT = ("op_threshold", "op_fpr", "op_tpr")
#: ``tpr_at_fpr`` / ``fpr_at_tpr`` (+ ``tpr_se, ...`` / ``fpr_se, ...``).
AT_RATE = ("fpr", "tpr", "threshold", *OPERATING_POINT)
#: ``pr_curve``.
PR_CURVE = ("threshold", "precision", "recall")
#: ``det_curve``.
DET_CURVE = ("threshold", "fpr", "fnr")
#: ``gain_curve``.
GAIN_CURVE = ("threshold", "depth", "gain", "lift")
#: ``gains_table``.
GAINS_TABLE = (
    "bin",
    "min_score",
    "max_score",
    "n",
    "n_pos",
    "response_rate",
    "depth",
    "gain",
    "lift",
    "cum_lift",
    "ks",
)
#: ``calibration``.
CALIBRATION = ("bin", "mean_score", "fraction_positive", "n")
#: ``calibration(ci=...)``: the interval of ``fraction_positive``.
CALIBRATION_INTERVAL = ("fraction_lower", "fraction_upper")
#: ``calibration_fit``: calibration in the large (``intercept``, the slope fixed at 1), the
#: slope and the intercept of the slope-free fit (``intercept_free``), with their bounds.
CALIBRATION_FIT = (
    "intercept",
    "intercept_lower",
    "intercept_upper",
    "slope",
    "slope_lower",
    "slope_upper",
    "intercept_free",
    "intercept_free_lower",
    "intercept_free_upper",
    "citl",
    "separated",
    "n_pos",
    "n_neg",
)
#: ``ks``.
KS = ("ks", "threshold")
#: ``slices``: after the groups, ``slice``, then one column per feature, then these.
SLICES = (
    "n_pos",
    "n_neg",
    "auc",
    "auc_rest",
    "gap",
    "gap_lower",
    "gap_upper",
    "p_value",
    "p_adjusted",
)
#: ``slices(metrics=...)``: after the groups, ``slice`` and the features; one row per metric.
SLICE_METRICS = (
    "n_pos",
    "n_neg",
    "metric",
    "estimate",
    "estimate_rest",
    "gap",
    "gap_lower",
    "gap_upper",
    "p_value",
    "p_adjusted",
)
#: ``precision_at_recall``: the best precision, the recall it reaches, its threshold.
PRECISION_AT_RECALL = ("precision", "recall", "threshold", "n_pos", "n_neg")
#: ``recall_at_precision``: the best recall, the precision it keeps, its threshold.
RECALL_AT_PRECISION = ("recall", "precision", "threshold", "n_pos", "n_neg")
#: ``precision_at_depth``: the measure, the depth reached and the lowest threshold taken.
PRECISION_AT_DEPTH = ("precision", "depth", "threshold", "n_pos", "n_neg")
#: ``recall_at_depth``.
RECALL_AT_DEPTH = ("recall", "depth", "threshold", "n_pos", "n_neg")
#: ``lift_at_depth``.
LIFT_AT_DEPTH = ("lift", "depth", "threshold", "n_pos", "n_neg")
#: ``auc`` (+ ``auc_se, auc_lower, auc_upper``).
AUC = ("auc", "n_pos", "n_neg")
#: ``partial_auc`` (+ ``pauc_se, pauc_lower, pauc_upper``).
PARTIAL_AUC = ("pauc", "pauc_std", "n_pos", "n_neg")
#: ``average_curve``: the mean TPR and its band (``tpr_lower``, ``tpr_upper``).
AVERAGE_CURVE = ("fpr", "tpr_mean", "tpr_lower", "tpr_upper")
#: ``average_curve(how="threshold")``: also the threshold and the FPR band.
THRESHOLD_AVERAGE = (*AVERAGE_CURVE, "threshold", "fpr_lower", "fpr_upper")
#: ``tally`` (engines): after the groups and the score (``auc_error_bound`` with `bins`).
TALLY = ("label", "weight", "auc_error_bound")
#: ``smooth``: the smoothed curve's points.
SMOOTH = ("fpr", "tpr")
#: ``smooth_auc``: the area under the smoothed curve (whole / over a range).
SMOOTH_AUC = ("auc", "n_pos", "n_neg", "n_points")
PARTIAL_SMOOTH_AUC = ("pauc", "pauc_std", "n_pos", "n_neg", "n_points")
#: ``hull``.
HULL = ("fpr", "tpr", "threshold")
#: ``bootstrap`` (the metric bootstrap).
BOOTSTRAP = ("metric", "estimate", "se", "lower", "upper")
#: ``compare``: one row per pair of models (+ ``p_adjusted`` with an adjustment).
COMPARE = (
    "model_a",
    "model_b",
    "auc_a",
    "auc_b",
    "diff",
    "diff_lower",
    "diff_upper",
    "statistic",
    "p_value",
    "paired",
    "df",
)
#: ``compare`` (DeLong): each AUC's variance and, paired, their covariance.
COMPARE_VARIANCE = ("var_a", "var_b", "cov")
#: ``compare(plan=...)``: the unknown solved for, by plan (pROC's ``power.roc.test``).
COMPARE_PLAN = {
    "sample_size": ("n_pos_needed", "n_neg_needed"),
    "power": ("power",),
    "alpha": ("alpha",),
}


def interval(column: str, *, se: bool = True) -> tuple[str, ...]:
    """
    The interval columns that belong to `column`: ``x_se, x_lower, x_upper`` (or the bounds).

    Examples
    --------
    >>> interval("tpr", se=False)
    ('tpr_lower', 'tpr_upper')
    """
    parts = INTERVAL if se else INTERVAL[1:]
    return tuple(f"{column}_{part}" for part in parts)


def known(outputs: Iterable[str]) -> set[str]:
    """
    The outputs and every interval column that belongs to one of them.

    Examples
    --------
    >>> sorted(known(["auc"]))
    ['auc', 'auc_lower', 'auc_se', 'auc_upper']
    """
    names = set(outputs)
    return names | {part for column in names for part in interval(column)}


def groups(columns: Sequence[str], outputs: Iterable[str]) -> list[str]:
    """
    The group (`by`) columns of a frame of a kind whose `outputs` are given, in order.

    Every column that is not an output, an interval of one (:func:`known`) or internal
    (a leading underscore). A chart never takes an interval bound for a group.
    """
    outs = known(outputs)
    return [name for name in columns if name not in outs and not name.startswith("_")]


# value and decisions
#: ``value_curve``: the value of flagging the rows at or above each threshold.
VALUE_CURVE = ("threshold", "depth", "tp", "fp", "value", "value_per_case")
#: ``decision_curve`` (+ ``net_benefit_lower, net_benefit_upper`` with ``ci``).
DECISION_CURVE = ("threshold", "net_benefit", "treat_all", "treat_none", "interventions_avoided")

# release gates
#: ``compare(margin=δ)`` adds ``margin`` (non-inferiority of model_b to model_a).
MARGIN = "margin"
#: ``compare(equivalence=(lo, hi))`` adds the bounds on ``auc_b - auc_a``.
EQUIVALENCE = ("equivalence_lower", "equivalence_upper")
#: ``checks``: one row per named check, after its group columns.
CHECKS = ("check", "value", "limit", "passed", "reason")
