"""
Bootstrap test of two ROC areas, full or partial (pROC's ``roc.test(method="bootstrap")``).

For each pair of models, ``diff = A_a - A_b`` (the AUC, or the raw partial area over an FPR
or a TPR range) is divided by the standard deviation of its bootstrap replicates,
``D = diff / sd(diff*)``, and D is referred to the standard normal (Hanley & McNeil;
pROC's bootstrap test). The interval of the difference is ``diff ± z · sd``.

* **Paired** (the same cases scored by both models, matched by `case`): a replicate draws
  cases, stratified by label, and scores both models on the same drawn cases, so the
  replicates carry the two areas' correlation.
* **Unpaired**: each model's rows are resampled independently, stratified by label.

Each pair of models in a group draws from its own stream, seeded by `seed` with the group's
key and the two model names (:func:`polars_roc._core.resampling.group_rng`); rows are put in a
canonical order first (by case when paired, else by label and score), so the result does
not depend on the row order. Replicates are vectorized as in :mod:`polars_roc._core.resampling`:
each is a matrix of counts per distinct score, a chunk of replicates at a time.

Undefined results are null, by the DeLong route's rules: ``auc_a, auc_b, diff`` are null
where a model has a NaN score or lacks a class; the interval, statistic and p-value are
null also where a class of either model has fewer than 2 rows (:data:`MIN_CLASS`), while
the point areas are still reported.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np
import polars as pl

from polars_roc._core import labels, validate
from polars_roc._core.distributions import normal_cdf, normal_quantile
from polars_roc._core.progress import OFF, Ticks, ticks
from polars_roc._core.resampling import (
    Clusters,
    FloatArray,
    IntArray,
    Statistic,
    auc_statistic,
    cluster_rows,
    clusters,
    draw_clusters,
    group_rng,
    partial_auc_statistic,
)

#: Matrix cells per chunk of replicates.
CHUNK_CELLS = 1 << 16

#: Rows each class of each model needs for the test (the point areas need one).
MIN_CLASS = 2

RESULT = ("auc_a", "auc_b", "diff", "diff_lower", "diff_upper", "statistic", "p_value")


def wanted(
    method: Any,
    *,
    fpr: tuple[float, float] | None,
    tpr: tuple[float, float] | None,
    n_boot: int,
    seed: int | None,
) -> bool:
    """Check the test's method and bootstrap arguments; whether the bootstrap test is asked."""
    if method not in ("delong", "bootstrap"):
        msg = f"method must be 'delong' or 'bootstrap', got {method!r}\n\nHint: method='delong'."
        raise ValueError(msg)
    if method == "delong":
        if fpr is not None or tpr is not None:
            msg = "partial areas are compared by bootstrap only\n\nHint: method='bootstrap'."
            raise ValueError(msg)
        return False
    if fpr is not None and tpr is not None:
        msg = "give at most one range: fpr=(lo, hi) or tpr=(lo, hi)\n\nHint: fpr=(0.0, 0.2)."
        raise ValueError(msg)
    validate.n_boot(n_boot)
    validate.seed(seed)
    return True


def area_statistic(fpr: tuple[float, float] | None, tpr: tuple[float, float] | None) -> Statistic:
    """The AUC, or the raw partial area over the given range."""
    if fpr is None and tpr is None:
        return auc_statistic
    fpr = None if fpr is None else validate.unit_range(fpr, "fpr")
    tpr = None if tpr is None else validate.unit_range(tpr, "tpr")
    return partial_auc_statistic(fpr=fpr, tpr=tpr)


def _counts(level: IntArray, drawn: IntArray, n_levels: int) -> FloatArray:
    """``(replicates, K)``: how many drawn rows fall on each distinct score."""
    n_rep = drawn.shape[0]
    flat = (level[drawn] + (np.arange(n_rep) * n_levels)[:, None]).ravel()
    return np.bincount(flat, minlength=n_rep * n_levels).reshape(n_rep, n_levels).astype(float)


class _Curve:
    """One model's rows: distinct scores, each row's level, and its positive flag."""

    def __init__(self, scores: FloatArray, positive: Any, ids: pl.Series | None = None) -> None:
        self.levels, inverse = np.unique(scores, return_inverse=True)
        self.level = inverse.reshape(-1).astype(np.intp)
        self.positive = np.asarray(positive, dtype=bool)
        self.codes: IntArray | None = None
        self.clusters: Clusters | None = None
        if ids is not None:  # strata: positives, negatives, then clusters holding both
            self.codes = np.asarray(ids.rank("dense").to_numpy(), dtype=np.intp)
            self.clusters = clusters(self.codes, (~self.positive).astype(np.intp), 2)

    def too_few(self) -> bool:
        """Fewer than 2 rows (2 clusters when clustered) hold one of the classes."""
        if self.codes is None:
            return self.smallest_class() < MIN_CLASS
        held = [len(np.unique(self.codes[flags])) for flags in (self.positive, ~self.positive)]
        return min(held) < MIN_CLASS

    def drawn_area(self, statistic: Statistic, drawn: IntArray) -> FloatArray:
        """The statistic over replicates given as drawn clusters (``(replicates, k)``)."""
        assert self.clusters is not None
        rows, lengths = cluster_rows(self.clusters, drawn)
        k = len(self.levels)
        flat = self.level[rows] + np.repeat(np.arange(drawn.shape[0]) * k, lengths)
        is_pos = self.positive[rows]
        pos, neg = (
            np.bincount(flat[mask], minlength=drawn.shape[0] * k).reshape(-1, k).astype(float)
            for mask in (is_pos, ~is_pos)
        )
        return statistic(pos, neg, self.levels)[:, 0]

    def smallest_class(self) -> int:
        """The number of rows of the smaller class."""
        n_pos = int(self.positive.sum())
        return min(n_pos, len(self.positive) - n_pos)

    def area(self, statistic: Statistic, pos_rows: IntArray, neg_rows: IntArray) -> FloatArray:
        """The statistic over replicates given as drawn positive and negative row positions."""
        k = len(self.levels)
        pos = _counts(self.level, pos_rows, k)
        neg = _counts(self.level, neg_rows, k)
        return statistic(pos, neg, self.levels)[:, 0]

    def estimate(self, statistic: Statistic) -> float:
        """The statistic on the rows themselves."""
        pos_rows = np.flatnonzero(self.positive)[None, :]
        neg_rows = np.flatnonzero(~self.positive)[None, :]
        return float(self.area(statistic, pos_rows, neg_rows)[0])


def _draws(
    strata: tuple[IntArray, IntArray], n_rep: int, rng: np.random.Generator
) -> tuple[IntArray, IntArray]:
    """Row positions of `n_rep` stratified resamples: positives, then negatives."""
    pos, neg = strata
    return (
        pos[rng.integers(0, len(pos), size=(n_rep, len(pos)))],
        neg[rng.integers(0, len(neg), size=(n_rep, len(neg)))],
    )


def _replicate_diffs(
    a: _Curve,
    b: _Curve,
    statistic: Statistic,
    *,
    paired: bool,
    n_boot: int,
    rng: np.random.Generator,
    bar: Ticks = OFF,
) -> FloatArray:
    """``n_boot`` replicates of ``A_a - A_b`` (`bar` ticks per chunk)."""
    strata_a = (np.flatnonzero(a.positive), np.flatnonzero(~a.positive))
    strata_b = (np.flatnonzero(b.positive), np.flatnonzero(~b.positive))
    width = max(len(a.level), len(b.level))
    chunk = max(1, min(n_boot, CHUNK_CELLS // width))
    out = np.empty(n_boot)
    for start in bar.over(range(0, n_boot, chunk)):  # progress
        n_rep = min(chunk, n_boot - start)
        if a.clusters is not None and b.clusters is not None:  # whole clusters drawn
            clusters_a = draw_clusters(a.clusters, rng, n_rep)
            clusters_b = clusters_a if paired else draw_clusters(b.clusters, rng, n_rep)
            diffs = a.drawn_area(statistic, clusters_a) - b.drawn_area(statistic, clusters_b)
            out[start : start + n_rep] = diffs
            continue
        drawn_a = _draws(strata_a, n_rep, rng)
        drawn_b = drawn_a if paired else _draws(strata_b, n_rep, rng)
        out[start : start + n_rep] = a.area(statistic, *drawn_a) - b.area(statistic, *drawn_b)
    return out


def _test(
    diff: float, replicates: FloatArray, *, alternative: str, level: float
) -> dict[str, float | None]:
    """Interval, statistic and p-value of the difference from its replicates."""
    sd = float(replicates.std(ddof=1)) if len(replicates) > 1 else float("nan")
    if not np.isfinite(sd):
        return dict.fromkeys(("diff_lower", "diff_upper", "statistic", "p_value", "_sd"))
    statistic = diff / sd if sd > 0 else (0.0 if diff == 0 else None)
    two_sided = alternative == "two-sided"
    margin = normal_quantile((1 + level) / 2 if two_sided else level) * sd
    lower, upper = max(-1.0, diff - margin), min(1.0, diff + margin)
    p: float | None = None
    if statistic is not None:
        below, above = (float(normal_cdf(np.array([v]))[0]) for v in (statistic, -statistic))
        p = {"two-sided": min(1.0, 2 * min(below, above)), "greater": above, "less": below}[
            alternative
        ]
    if alternative == "greater":
        upper = 1.0
    elif alternative == "less":
        lower = -1.0
    return {
        "diff_lower": lower,
        "diff_upper": upper,
        "statistic": statistic,
        "p_value": p,
        "_sd": sd,
    }


def _same_cases(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame | None:
    """Both models' scores per case, ordered by case, when they hold the same labelled cases."""
    if a["_case"].is_duplicated().any() or b["_case"].is_duplicated().any():
        return None
    matched = a.join(b, on="_case", how="inner", nulls_equal=True, suffix="_b")
    if not (matched.height == a.height == b.height) or (matched["_y"] != matched["_y_b"]).any():
        return None
    return matched.sort("_case", nulls_last=True)


def _pair_row(
    a: pl.DataFrame,
    b: pl.DataFrame,
    names: tuple[Any, Any],
    rng: np.random.Generator,
    *,
    case: bool,
    paired: bool | None,
    statistic: Statistic,
    alternative: str,
    level: float,
    n_boot: int,
    bar: Ticks = OFF,
) -> dict[str, Any]:
    """The test of one pair of models in one group."""
    matched = _same_cases(a, b) if case and paired is not False else None
    if paired is True and matched is None:
        msg = (
            f"paired=True, but models {names[0]!r} and {names[1]!r} do not hold the same "
            "cases with the same labels\n\nHint: paired=None decides per pair."
        )
        raise ValueError(msg)
    is_paired = matched is not None
    clustered = "_cluster" in a.columns
    if matched is not None:
        ids = matched["_cluster"] if clustered else None
        if clustered and (matched["_cluster"] != matched["_cluster_b"]).any():
            msg = (
                f"the cluster column puts cases in different clusters under models "
                f"{names[0]!r} and {names[1]!r}; a case belongs to one cluster\n\nHint: "
                f"take the cluster id from the case, e.g. a patient id shared by its rows."
            )
            raise ValueError(msg)
        curve_a = _Curve(matched["_s"].to_numpy(), matched["_y"].to_numpy(), ids)
        curve_b = _Curve(matched["_s_b"].to_numpy(), matched["_y"].to_numpy(), ids)
    else:
        order = ["_y", "_s", *(["_cluster"] if clustered else [])]
        a, b = (f.sort(order) for f in (a, b))
        curve_a = _Curve(
            a["_s"].to_numpy(), a["_y"].to_numpy(), a["_cluster"] if clustered else None
        )
        curve_b = _Curve(
            b["_s"].to_numpy(), b["_y"].to_numpy(), b["_cluster"] if clustered else None
        )
    row: dict[str, Any] = dict.fromkeys(RESULT)
    row.update(paired=is_paired, df=None, _sd=None)
    curves = (curve_a, curve_b)
    if not all(c.smallest_class() >= 1 and not np.isnan(c.levels).any() for c in curves):
        return row  # an area is undefined: everything null
    area_a, area_b = curve_a.estimate(statistic), curve_b.estimate(statistic)
    row.update(auc_a=area_a, auc_b=area_b, diff=area_a - area_b)
    if any(c.too_few() for c in curves):
        return row  # the areas are defined; their test is not (as DeLong's)
    diffs = _replicate_diffs(
        curve_a, curve_b, statistic, paired=is_paired, n_boot=n_boot, rng=rng, bar=bar
    )
    row.update(_test(area_a - area_b, diffs, alternative=alternative, level=level))
    return row


def compare(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    *,
    model: str,
    case: str | None,
    names: list[str],
    pos_label: Any,
    paired: bool | None,
    alternative: str,
    level: float,
    n_boot: int,
    seed: int | None,
    fpr: tuple[float, float] | None,
    tpr: tuple[float, float] | None,
    progress: bool | None = None,
    cluster: str | None = None,
) -> pl.LazyFrame:
    """
    The bootstrap test for every pair of models per group, sorted like ``compare``.

    Columns: ``*names, model_a, model_b, auc_a, auc_b, diff, diff_lower, diff_upper,
    statistic, p_value, paired, df, _sd`` (`df` null: the reference is the normal; `_sd`
    the replicates' standard deviation, read by the margin tests, then dropped).
    ``auc_a, auc_b, diff`` are null where an area is undefined (a NaN score, a class
    without rows); the other results are null also where a class of either model has
    fewer than 2 rows, as on the DeLong route. With `cluster`, replicates draw whole
    clusters (strata: clusters of positives only, of negatives only, then clusters holding
    both; paired: the same clusters for both models), and a class needs 2 clusters.
    `progress`: a bar over the replicates of every pair (:mod:`polars_roc._core.progress`).
    """
    bar = ticks(progress, "compare (bootstrap)")  # progress
    schema = lf.collect_schema()
    statistic = area_statistic(fpr, tpr)
    rows = lf.select(
        *names,
        pl.col(model).alias("_model"),
        (pl.col(case) if case is not None else pl.lit(None)).alias("_case"),
        labels.score(score, checked=False).alias("_s"),
        labels.positive(label, pos_label).alias("_y"),
        *([] if cluster is None else [validate.checked_cluster(cluster).alias("_cluster")]),
    ).filter(pl.col("_s").is_not_null() & pl.col("_y").is_not_null())
    out_schema = pl.Schema(
        {
            **{name: schema[name] for name in names},
            "model_a": schema[model],
            "model_b": schema[model],
            **dict.fromkeys(RESULT, pl.Float64()),
            "paired": pl.Boolean(),
            "df": pl.Float64(),
            "_sd": pl.Float64(),
        }
    )

    def run(df: pl.DataFrame) -> pl.DataFrame:
        key = [df[name][0] for name in names] if df.height else []
        models = df["_model"].drop_nulls().unique().sort().to_list()
        out = []
        for a, b in combinations(models, 2):
            row = _pair_row(
                df.filter(pl.col("_model") == a),
                df.filter(pl.col("_model") == b),
                (a, b),
                group_rng(seed, [*key, a, b]),
                case=case is not None,
                paired=paired,
                statistic=statistic,
                alternative=alternative,
                level=level,
                n_boot=n_boot,
                bar=bar,
            )
            out.append({**dict(zip(names, key, strict=True)), "model_a": a, "model_b": b, **row})
        return pl.DataFrame(out, schema=out_schema)

    if not names:
        return rows.map_batches(
            run,
            schema=out_schema,
            predicate_pushdown=False,
            projection_pushdown=False,
            slice_pushdown=False,
        )
    grouped = rows.group_by(names).map_groups(run, schema=out_schema)
    return grouped.sort([*names, "model_a", "model_b"], nulls_last=True, maintain_order=True)
