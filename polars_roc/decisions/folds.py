"""Out-of-fold cutpoints: a threshold chosen on the other folds, judged on the held-out one.

An optimum chosen and measured on the same rows is optimistic (cutpointr #33/#34,
scikit-learn's ``TunedThresholdClassifierCV(cv=)``). Here each fold ``k`` of each group is
held out in turn: the cutpoint is chosen on the group's other folds, by whatever rule the
caller applies (``best_threshold``'s method, ``where``, ``capacity``), and every measure is
read at that threshold off the held-out fold's own threshold table. An in-sample row (the
cutpoint chosen and measured on all the group's rows) sits beside them, so the optimism is
the difference.

Lazy throughout: the training sets are the rows joined to the group's other fold labels (a
row appears once per fold it trains), so no fold is known before the query runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

from polars_roc._core import validate
from polars_roc._core.counts import roc_points
from polars_roc._core.groups import join_groups
from polars_roc._core.names import fresh
from polars_roc._core.value import value_points

__all__ = ["cutpoints", "out_of_fold"]

#: ``(rows, by) -> table``: the chosen cutpoint per group (``*by, threshold, ...``), or the
#: full threshold table per group (every distinct score, threshold descending).
_Chooser = Callable[[pl.LazyFrame, list[str]], pl.LazyFrame]


def _check_fold(lf: pl.LazyFrame, fold: str, names: list[str], roles: Sequence[str]) -> None:
    validate.column(lf.collect_schema(), fold, "fold")
    if fold in names or fold in roles:
        msg = (
            f"fold column {fold!r} cannot also be a role or a `by` column\n\nHint: pass a "
            f"separate column of fold labels, e.g. pr.stratified_folds('label', 5)."
        )
        raise ValueError(msg)


def _at(
    chosen: pl.LazyFrame, table: pl.LazyFrame, keys: list[str], columns: list[str]
) -> pl.LazyFrame:
    """
    Each chosen threshold's row of `table` (per `keys`): that of the smallest score >= it.

    A row is flagged iff ``score >= t``, so the held-out counts at a chosen ``t`` are those
    at the lowest distinct held-out score at or above it; a chosen ``+inf`` (flag nothing)
    reads the start row, or a real ``+inf`` score's row.
    """
    gid = fresh("_gid", [*keys, *columns])
    ids = table.select(keys).unique().with_row_index(gid)
    mass = pl.col("tp") + pl.col("fp")
    right = (
        join_groups(table, ids, keys, how="inner")
        .filter(~pl.col("threshold").is_nan())
        .with_columns(_mass=mass)
        .sort([gid, "threshold", "_mass"], descending=[False, False, True])
        .select(gid, pl.col("threshold").alias("_at"), *[c for c in columns if c != "threshold"])
    )
    left = join_groups(chosen.select(*keys, "threshold"), ids, keys).with_columns(
        _at=pl.col("threshold")
    )
    joined = left.sort(gid, "_at").join_asof(
        right, on="_at", by=gid, strategy="forward", check_sortedness=False
    )
    return joined.select(*keys, *columns)


def out_of_fold(
    lf: pl.LazyFrame,
    choose: _Chooser,
    measure: _Chooser,
    *,
    fold: str,
    names: list[str],
    columns: list[str],
    roles: Sequence[str] = (),
) -> pl.LazyFrame:
    """
    Per group, one row per held-out fold and one in-sample row.

    ``*names, fold, *columns, in_sample``; the in-sample row has ``fold`` null and
    ``in_sample`` true.

    Parameters
    ----------
    lf
        Scored rows with a `fold` column; rows with a null fold are left out.
    choose
        The cutpoint rule: ``choose(rows, by)`` gives one row per group with its
        ``threshold`` (null where the group has no candidate).
    measure
        ``measure(rows, by)`` gives each group's full threshold table with `columns`.
    fold
        The column of fold labels.
    names
        The group columns.
    columns
        The measured columns, ``threshold`` first.
    roles
        The other role columns (score, label, weight), which the fold must not be.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.LazyFrame(
    ...     {"score": [0.9, 0.2, 0.8, 0.3], "label": [1, 0, 1, 0], "k": [0, 0, 1, 1]}
    ... )
    >>> best = lambda rows, by: rows.roc.best_threshold(by=by)
    >>> table = lambda rows, by: rows.roc.thresholds(by=by)
    >>> out = out_of_fold(df, best, table, fold="k", names=[], columns=["threshold", "tpr"])
    >>> out.collect().rows()
    [(0, 0.8, 1.0, False), (1, 0.9, 0.0, False), (None, 0.8, 1.0, True)]
    """
    _check_fold(lf, fold, names, roles)
    lf = lf.filter(pl.col(fold).is_not_null())
    held = fresh("_heldout", lf.collect_schema().names())
    pairs = lf.select(*names, pl.col(fold).alias(held)).unique()
    train = join_groups(lf, pairs, names, how="inner").filter(pl.col(fold) != pl.col(held))
    chosen = choose(train, [*names, held]).rename({held: fold})
    measured = _at(chosen, measure(lf, [*names, fold]), [*names, fold], columns)
    # Every held-out fold has a row, also where its training folds gave no candidate.
    folds = lf.select(*names, fold).unique()
    out_of = join_groups(folds, measured, [*names, fold]).with_columns(in_sample=pl.lit(False))
    dtype = lf.collect_schema()[fold]
    inside = choose(lf, names).select(
        *names, pl.lit(None, dtype=dtype).alias(fold), *columns, in_sample=pl.lit(True)
    )
    out = pl.concat([out_of.select(*names, fold, *columns, "in_sample"), inside])
    return out.sort([*names, "in_sample", fold], nulls_last=True)


def cutpoints(
    lf: pl.LazyFrame,
    best: Callable[..., pl.LazyFrame],
    measured: Callable[[pl.LazyFrame, list[str], None], pl.LazyFrame],
    roles: dict[str, Any],
    rule: dict[str, Any],
    fold: str,
    names: list[str],
    amounts: Mapping[str, float | str] | None,
) -> pl.LazyFrame:
    """
    ``best_threshold(..., fold=)`` by :func:`out_of_fold`.

    `best` (``best_threshold``) runs with the column `roles` and the `rule` (method,
    costs, ``where``, ``capacity``, ...) on the training rows; every column of the
    threshold table (`measured` of the curve, with the value columns for `amounts`) is read
    on each held-out fold.
    """
    score, label, weight, pos_label = (roles[r] for r in ("score", "label", "weight", "pos_label"))

    def choose(rows: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
        return best(rows, by=keys, **roles, **rule)

    def table(rows: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
        if amounts:
            return measured(
                value_points(rows, score, label, keys, weight, pos_label, amounts), keys, None
            )
        return measured(
            roc_points(rows, score, label, by=keys, weight=weight, pos_label=pos_label), keys, None
        )

    columns = [c for c in table(lf, names).collect_schema().names() if c not in names]
    used = [c for c in (score, label, weight) if c is not None]
    _check_fold(lf, fold, names, used)
    if fold in (*columns, "in_sample"):
        msg = (
            f"fold column {fold!r} is also an output column of best_threshold\n\nHint: "
            f"rename it, e.g. .rename({{{fold!r}: 'fold'}})."
        )
        raise ValueError(msg)
    # The fold runs under a name of our own: the query builds columns of its own (value,
    # depth, ...) that a user's fold column may bear.
    inner = fresh("__roc_fold", [*lf.collect_schema().names(), *columns])
    out = out_of_fold(
        lf.rename({fold: inner}),
        choose,
        table,
        fold=inner,
        names=names,
        columns=columns,
        roles=used,
    )
    return out.rename({inner: fold})
