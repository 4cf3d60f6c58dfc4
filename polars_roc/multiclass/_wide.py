"""One-vs-rest AUC per group and class straight from the wide score columns (no long form).

Each class's AUC is the binary core's kernel (:func:`polars_roc._core.kernels.auc_of`: the
Mann-Whitney U from average ranks, or the weighted placements) on that class's score column
against "the case is of this class". All classes of all groups are aggregations of ONE
``group_by().agg()``, so Polars ranks the class columns of every group in parallel, without
the (classes × rows)-row long frame, its hashing and its copies.
"""

from __future__ import annotations

from itertools import combinations

import polars as pl

from polars_roc._core import kernels
from polars_roc.multiclass._long import Names


def per_class_auc(
    coded: pl.LazyFrame, k: int, *, names: list[str], weighted: bool, n: Names
) -> pl.LazyFrame:
    """
    ``*names, cls, auc, n_pos, n_neg`` per group and class, sorted by group then class.

    `auc` is null for a class without cases (or without other cases) in the group, or with
    a NaN score among the cases that count.
    """
    w = pl.col(n.weight) if weighted else None
    measures = []
    for i in range(k):
        r = kernels.Rows(pl.col(f"{n.prefix}{i}"), pl.col(n.code) == i, w)
        n_pos, n_neg = kernels.class_totals(r)
        measures += [
            kernels.auc_of(r).alias(f"{n.prefix}auc{i}"),
            n_pos.alias(f"{n.prefix}pos{i}"),
            n_neg.alias(f"{n.prefix}neg{i}"),
        ]
    wide = coded.group_by(names).agg(measures) if names else coded.select(measures)

    def listed(key: str) -> pl.Expr:
        return pl.concat_list([pl.col(f"{n.prefix}{key}{i}") for i in range(k)])

    codes = pl.Series(range(k), dtype=pl.UInt32)
    # The per-class columns to rows: lists exploded (a union of k selections of a cached
    # frame cost more than the AUCs themselves).
    long = wide.select(
        *names,
        pl.lit(codes.implode()).alias(n.cls),
        listed("auc").alias("auc"),
        listed("pos").alias("n_pos"),
        listed("neg").alias("n_neg"),
    ).explode([n.cls, "auc", "n_pos", "n_neg"])
    return long.sort([*names, n.cls], nulls_last=True)


def per_pair_auc(
    coded: pl.LazyFrame, k: int, *, names: list[str], weighted: bool, n: Names
) -> pl.LazyFrame:
    """
    ``*names, code (a), other (b), auc, n_a, n_b`` per group and class pair ``a < b``.

    Hand & Till's ``(A(a|b) + A(b|a)) / 2``: ``A(a|b)`` is the binary kernel on the cases of
    a and b, scored by a's column, a the positive class. Null when
    either is undefined (a class without cases in the group, or a NaN it reads).
    """
    code = pl.col(n.code)
    w = pl.col(n.weight) if weighted else None

    def kernel(a: int, b: int) -> kernels.Rows:
        # Filtered, not masked: ranking the pair's cases alone is 1.7x faster than ranking
        # the whole group with the other classes' cases null (1M rows, 10 classes).
        inside = code.is_in([a, b])
        score = pl.col(f"{n.prefix}{a}").filter(inside)
        weight = None if w is None else w.filter(inside)
        return kernels.Rows(score, (code == a).filter(inside), weight)

    pairs = list(combinations(range(k), 2))
    measures = []
    for a, b in pairs:
        ab, ba = kernel(a, b), kernel(b, a)
        n_a, n_b = kernels.class_totals(ab)
        measures += [
            kernels.auc_of(ab).alias(f"{n.prefix}ab{a}_{b}"),
            kernels.auc_of(ba).alias(f"{n.prefix}ba{a}_{b}"),
            n_a.alias(f"{n.prefix}a{a}_{b}"),
            n_b.alias(f"{n.prefix}b{a}_{b}"),
        ]
    # One top-level aggregation per binary AUC (Polars runs them in parallel), the pairs
    # to rows as in per_class_auc.
    wide = coded.group_by(names).agg(measures) if names else coded.select(measures)

    def listed(key: str) -> pl.Expr:
        return pl.concat_list([pl.col(f"{n.prefix}{key}{a}_{b}") for a, b in pairs])

    firsts = pl.Series([a for a, _ in pairs], dtype=pl.UInt32)
    seconds = pl.Series([b for _, b in pairs], dtype=pl.UInt32)
    long = wide.select(
        *names,
        pl.lit(firsts.implode()).alias(n.code),
        pl.lit(seconds.implode()).alias(n.other),
        ((listed("ab") + listed("ba")) / 2).alias("auc"),
        listed("a").alias("n_a"),
        listed("b").alias("n_b"),
    ).explode([n.code, n.other, "auc", "n_a", "n_b"])
    return long.sort([*names, n.code, n.other], nulls_last=True)
