"""
Venkatraman's permutation test that two ROC curves are the same curve, as pROC computes it.

Venkatraman & Begg (1996, paired) and Venkatraman (2000, unpaired) test the whole curves,
not their areas: two curves with equal AUCs that cross are told apart. pROC's statistic
``E`` (``venkatraman.paired.stat`` / ``venkatraman.unpaired.stat``):

* **Paired** (both models score the same cases): each model's scores are ranked
  (``ties.method="first"``: tied scores ranked in case order). At each rank ``x`` of
  ``1 … n`` a model errs on its positives ranked at most ``x`` and its negatives ranked
  above ``x``; ``E = Σ_x |errors_b(x) - errors_a(x)|``. A permutation exchanges the two
  models' ranks within each case with probability ½ (after jittering each rank by a
  uniform in (-½, ½) to break ties) and ranks again.
* **Unpaired**: each model's curve is written as the expected error
  ``mp·F(x) + (1 - mp)(1 - G(x))`` against the mixed distribution ``mp·F + (1 - mp)·G`` of
  its ranks (F, G the positives' and negatives' rank distributions; ``mp`` the positives'
  share, with pROC's denominator ``2·length(D1)``), and ``E`` is the trapezoidal area
  between the two (pROC's ``approxfun`` with tied abscissae averaged, no extrapolation).
  A permutation pools the two models' jittered ranks within each class, shuffles them
  back and ranks again.

The p-value is the share of ``n_perm`` permutations whose ``E`` reaches the observed one
(pROC's ``sum(EP >= E) / boot.n``); two-sided only. pROC ranks the raw predictor whatever
its direction; here the score is the directed one (negated under ``direction="lower"``).

Examples
--------
>>> import numpy as np
>>> y = np.array([False, False, True, True])
>>> float(paired_statistic(np.array([1, 2, 3, 4]), np.array([2, 1, 4, 3]), y))
0.0
>>> float(paired_statistic(np.array([1, 2, 3, 4]), np.array([3, 4, 1, 2]), y))
8.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl

from polars_roc._core import validate
from polars_roc._core.kernels import Rows, auc_of, coded
from polars_roc._core.resampling import FloatArray, group_rng

__all__ = [
    "Roles",
    "first_ranks",
    "paired_statistic",
    "paired_test",
    "unpaired_statistic",
    "unpaired_test",
    "venkatraman_compare",
    "venkatraman_pairs",
]

_Bool = npt.NDArray[np.bool_]
#: Permutations ranked at once (a (block, n) array of ranks).
_BLOCK = 500


@dataclass(frozen=True)
class Roles:
    """The columns of ``compare``'s long input: who scored what, for which case and group."""

    score: str
    label: str
    model: str
    case: str | None
    pos_label: Any
    names: tuple[str, ...]


def first_ranks(values: npt.ArrayLike) -> FloatArray:
    """
    R's ``rank(ties.method="first")`` along the last axis: ties ranked in position order.

    Examples
    --------
    >>> first_ranks([0.5, 0.1, 0.5]).tolist()
    [2.0, 1.0, 3.0]
    """
    x = np.asarray(values, dtype=np.float64)
    order = np.argsort(x, axis=-1, kind="stable")
    ranks = np.empty_like(x)
    np.put_along_axis(
        ranks,
        order,
        np.arange(1, x.shape[-1] + 1, dtype=np.float64)[None, :]
        if x.ndim == 2
        else np.arange(1, x.shape[-1] + 1, dtype=np.float64),
        -1,
    )
    return ranks


def _errors(ranks: FloatArray, positive: _Bool) -> FloatArray:
    """Positives ranked at most x plus negatives ranked above x, for x = 1 … n (per row)."""
    n = ranks.shape[-1]
    sign = np.where(positive, 1.0, -1.0)
    by_rank = np.zeros(ranks.shape)
    index = ranks.astype(np.int64) - 1
    np.put_along_axis(by_rank, index, np.broadcast_to(sign, ranks.shape), -1)
    negatives = float((~positive).sum())
    return np.asarray(np.cumsum(by_rank, axis=-1) + negatives)[..., :n]


def paired_statistic(r: npt.ArrayLike, s: npt.ArrayLike, positive: _Bool) -> FloatArray:
    """
    The statistic of pROC's ``venkatraman.paired.stat``: ``Σ_x |errors_s(x) - errors_r(x)|``.

    `r`, `s`: the two models' ranks (1 … n, no ties) of the same cases, or 2-d arrays of
    such rows (one per permutation); `positive` the cases' classes.
    """
    r_errors = _errors(np.asarray(r, dtype=np.float64), positive)
    s_errors = _errors(np.asarray(s, dtype=np.float64), positive)
    return np.asarray(np.abs(s_errors - r_errors).sum(axis=-1))


def paired_test(
    x: FloatArray, y: FloatArray, positive: _Bool, *, n_perm: int, rng: np.random.Generator
) -> tuple[float, float]:
    """
    ``(E, p)``: the paired statistic of two models' scores and its permutation p-value.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> y = np.array([False, False, True, True, False, True])
    >>> e, p = paired_test(x, x, y, n_perm=50, rng=rng)
    >>> float(e), float(p)
    (0.0, 1.0)
    """
    r, s = first_ranks(x), first_ranks(y)
    observed = float(paired_statistic(r, s, positive))
    n, reached = len(r), 0
    for start in range(0, n_perm, _BLOCK):
        size = min(_BLOCK, n_perm - start)
        r2 = r + rng.uniform(size=(size, n)) - 0.5
        s2 = s + rng.uniform(size=(size, n)) - 0.5
        keep = 1 - np.round(rng.uniform(size=(size, n)))
        r3 = r2 * keep + (1 - keep) * s  # pROC's exchange: the other model's unjittered rank
        s3 = s2 * keep + (1 - keep) * r
        permuted = paired_statistic(first_ranks(r3), first_ranks(s3), positive)
        reached += int((permuted >= observed).sum())
    return observed, reached / n_perm


def _approx(x: FloatArray, y: FloatArray, at: FloatArray) -> FloatArray:
    """R's ``approxfun(x, y)(at)``: tied x averaged, NaN outside the range."""
    unique, inverse = np.unique(x, return_inverse=True)
    means = np.bincount(inverse, weights=y) / np.bincount(inverse)
    out = np.interp(at, unique, means)
    return np.where((at < unique[0]) | (at > unique[-1]), np.nan, out)


def unpaired_statistic(r: FloatArray, s: FloatArray, positive_r: _Bool, positive_s: _Bool) -> float:
    """
    The statistic of pROC's ``venkatraman.unpaired.stat``: two models' ranks (1 … size).

    Examples
    --------
    >>> y = np.array([False, False, True, True])
    >>> r = np.array([1.0, 2.0, 3.0, 4.0])
    >>> unpaired_statistic(r, r, y, y)
    0.0
    """
    # pROC's mixing proportion divides by length(D1) + length(D1).
    mp = (positive_r.sum() + positive_s.sum()) / (2 * len(r))

    def curve(ranks: FloatArray, positive: _Bool) -> tuple[FloatArray, FloatArray]:
        # Ranks are 1 … n without ties: class counts up to rank x are running sums.
        by_rank = np.zeros(len(ranks), dtype=bool)
        by_rank[ranks.astype(np.int64) - 1] = positive
        f = np.cumsum(by_rank) / positive.sum()
        g = np.cumsum(~by_rank) / (~positive).sum()
        return mp * f + (1 - mp) * g, mp * f + (1 - mp) * (1 - g)

    r_p, r_exp = curve(r, positive_r)
    s_p, s_exp = curve(s, positive_s)
    x = np.sort(np.concatenate([r_p, s_p]))
    y = np.abs(_approx(r_p, r_exp, x) - _approx(s_p, s_exp, x))
    parts = (y[1:] + y[:-1]) * (x[1:] - x[:-1]) / 2
    return float(np.nansum(parts))


def unpaired_test(
    x: FloatArray,
    y: FloatArray,
    positive_x: _Bool,
    positive_y: _Bool,
    *,
    n_perm: int,
    rng: np.random.Generator,
) -> tuple[float, float]:
    """``(E, p)``: the unpaired statistic of two models' scores and its permutation p-value."""
    r, s = first_ranks(x), first_ranks(y)
    observed = unpaired_statistic(r, s, positive_x, positive_y)
    reached = 0
    for _ in range(n_perm):
        r2 = r + rng.uniform(size=len(r)) - 0.5
        s2 = s + rng.uniform(size=len(s)) - 0.5
        for cls in (False, True):
            in_r, in_s = positive_x == cls, positive_y == cls
            pooled = rng.permutation(np.concatenate([r2[in_r], s2[in_s]]))
            r2[in_r], s2[in_s] = pooled[: in_r.sum()], pooled[in_r.sum() :]
        permuted = unpaired_statistic(first_ranks(r2), first_ranks(s2), positive_x, positive_y)
        reached += permuted >= observed
    return observed, reached / n_perm


def _tested(n_perm: int, seed: int | None, names: list[str], paired: bool | None) -> Any:
    """The numpy step: one struct row per pair of models to ``statistic, p_value, paired``."""

    def run(pairs: pl.Series) -> pl.Series:
        out: dict[str, list[Any]] = {"statistic": [], "p_value": [], "paired": []}
        for row in pairs.to_list():
            key = [*(row[n] for n in names), row["_model_a"], row["_model_b"]]
            rng = group_rng(seed, key)
            x, y = (
                np.asarray(row["_s_a"], dtype=np.float64),
                np.asarray(row["_s_b"], dtype=np.float64),
            )
            pos_x, pos_y = np.asarray(row["_y_a"], dtype=bool), np.asarray(row["_y_b"], dtype=bool)
            same = (
                row["_c_a"] == row["_c_b"] and bool((pos_x == pos_y).all())
                if len(x) == len(y)
                else False
            )
            as_paired = same and paired is not False
            if paired is True and not same:
                msg = (
                    f"paired=True but models {row['_model_a']!r} and {row['_model_b']!r} do "
                    f"not score the same cases with the same labels\n\nHint: check the case "
                    f"column, or leave paired=None."
                )
                raise ValueError(msg)
            defined = all(v.size and v.any() and (~v).any() for v in (pos_x, pos_y)) and not (
                np.isnan(x).any() or np.isnan(y).any()
            )
            if not defined:
                statistic, p_value = None, None
            elif as_paired:
                statistic, p_value = paired_test(x, y, pos_x, n_perm=n_perm, rng=rng)
            else:
                statistic, p_value = unpaired_test(x, y, pos_x, pos_y, n_perm=n_perm, rng=rng)
            out["statistic"].append(statistic)
            out["p_value"].append(p_value)
            out["paired"].append(as_paired)
        frame = pl.DataFrame(out, schema=_RESULT.to_schema())
        return frame.to_struct(pairs.name)

    return run


_RESULT = pl.Struct({"statistic": pl.Float64, "p_value": pl.Float64, "paired": pl.Boolean})


def venkatraman_pairs(
    cells: pl.LazyFrame, *, names: list[str], paired: bool | None, n_perm: int, seed: int | None
) -> pl.LazyFrame:
    """
    Venkatraman's test for every pair of models per group, in ``compare``'s columns.

    `cells`: the coded rows ``*names, _model, _case, _s, _y`` (score, positive flag).
    Returns ``*names, model_a, model_b, auc_a, auc_b, diff, diff_lower, diff_upper,
    statistic, p_value, paired, df``: ``statistic`` is E, the interval and ``df`` null.

    Examples
    --------
    >>> cells = pl.LazyFrame(
    ...     {"_model": ["a"] * 4 + ["b"] * 4, "_case": [0, 1, 2, 3] * 2,
    ...      "_s": [0.1, 0.2, 0.3, 0.4, 0.4, 0.3, 0.2, 0.1], "_y": [False, True] * 4}
    ... )
    >>> out = venkatraman_pairs(cells, names=[], paired=None, n_perm=100, seed=0).collect()
    >>> out.select("model_a", "model_b", "statistic", "paired").row(0)
    ('a', 'b', 4.0, True)
    """
    ordered = cells.sort([*names, "_model", "_case"], nulls_last=True)
    r = Rows(pl.col("_s"), pl.col("_y"), None)
    models = ordered.group_by([*names, "_model"], maintain_order=True).agg(
        pl.col("_case").alias("_c"), pl.col("_s"), pl.col("_y"), auc_of(r).alias("auc")
    )
    a = models.rename({c: f"{c}_a" for c in ("_model", "_c", "_s", "_y", "auc")})
    b = models.rename({c: f"{c}_b" for c in ("_model", "_c", "_s", "_y", "auc")})
    joined = a.join(b, on=names, how="inner", nulls_equal=True) if names else a.join(b, how="cross")
    pairs = joined.filter(pl.col("_model_a") < pl.col("_model_b")).sort(
        [*names, "_model_a", "_model_b"], nulls_last=True
    )
    inputs = pl.struct(
        *names, "_model_a", "_model_b", "_c_a", "_c_b", "_s_a", "_s_b", "_y_a", "_y_b"
    )
    test = inputs.map_batches(_tested(n_perm, seed, names, paired), return_dtype=_RESULT)
    empty = pl.lit(None, dtype=pl.Float64)
    return (
        pairs.with_columns(_test=test)
        .unnest("_test")
        .select(
            *names,
            pl.col("_model_a").alias("model_a"),
            pl.col("_model_b").alias("model_b"),
            "auc_a",
            "auc_b",
            (pl.col("auc_a") - pl.col("auc_b")).alias("diff"),
            empty.alias("diff_lower"),
            empty.alias("diff_upper"),
            "statistic",
            "p_value",
            "paired",
            empty.alias("df"),
        )
    )


def venkatraman_compare(
    lf: pl.LazyFrame,
    roles: Roles,
    *,
    paired: bool | None,
    n_perm: int,
    seed: int | None,
    unsupported: dict[str, Any],
) -> pl.LazyFrame:
    """
    ``compare(method="venkatraman")``: check its arguments, code the rows, test every pair.

    `unsupported`: the other arguments of ``compare`` that the test has no use for
    (``fpr``, ``tpr``, ``power``, ``cluster``; ``alternative`` other than two-sided), each
    refused by name when set. Without `case`, a row's position within its model (and group)
    is its case id, as in ``compare``.

    Examples
    --------
    >>> lf = pl.LazyFrame(
    ...     {"model": ["a"] * 4 + ["b"] * 4, "score": [0.1, 0.2, 0.3, 0.4] * 2,
    ...      "label": [0, 1] * 4}
    ... )
    >>> roles = Roles("score", "label", "model", None, None, ())
    >>> out = venkatraman_compare(lf, roles, paired=None, n_perm=10, seed=0, unsupported={})
    >>> out.select("statistic", "p_value").collect().row(0)
    (0.0, 1.0)
    """
    validate.whole(n_perm, "n_perm", minimum=1, hint="n_perm=2000")
    validate.seed(seed)
    alternative = unsupported.pop("alternative", "two-sided")
    if alternative != "two-sided":
        msg = (
            f"method='venkatraman' is two-sided only (pROC's too), got "
            f"alternative={alternative!r}\n\nHint: alternative='two-sided'."
        )
        raise ValueError(msg)
    for name, value in unsupported.items():
        if value is not None:
            msg = (
                f"method='venkatraman' compares whole curves and takes no {name}= "
                f"(got {value!r})\n\nHint: drop {name}=, or use method='delong' / 'bootstrap'."
            )
            raise ValueError(msg)
    names, model = list(roles.names), roles.model
    case_id = pl.col(roles.case) if roles.case is not None else pl.int_range(pl.len())
    rows = lf.with_columns(case_id.over([*names, model]).alias("__roc_case"))
    cells = coded(
        rows,
        roles.score,
        roles.label,
        names=names,
        weight=None,
        pos_label=roles.pos_label,
        extra=[model, "__roc_case"],
    ).rename({model: "_model", "__roc_case": "_case"})
    return venkatraman_pairs(cells, names=names, paired=paired, n_perm=n_perm, seed=seed)
