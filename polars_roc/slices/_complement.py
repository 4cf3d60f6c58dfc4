"""
Each slice's AUC and DeLong variance, and those of the rest of its group, without copying rows.

The rest R of a slice S in group G is G without S, so its placements are the group's minus
the slice's: for a positive i of R, ``V_i(R) = V_i(G) - V_i(S)`` (``V_i(X)``: the negatives
of X scoring below i, ties one half; ``W_j(X)`` the positives above a negative j). The sums
a DeLong variance needs over R follow from sums over S's rows of quantities read off two
tie-collapsed counts tables, one per group and one per slice (ψ the half-tie indicator,
``L_k`` the slice's negatives strictly below ``k``, ``m_k`` those tied with it, ``T_k(G)``
the group's positives above ``k`` plus a quarter of those tied):

* ``Σ_{R+} V(S) = Σ_{S-} (W(G) - W(S))``;
* ``Σ_{R+} V(G) V(S) = Σ_{S-} (Φ(G) - Φ(S))`` with ``Φ_j(X) = Σ_{i∈X+} ψ(s_i, s_j) V_i(G)``;
* ``Σ_{G+} V(S)² = Σ_{k∈S-} (2 L_k W_k(G) + m_k T_k(G))`` (a pair of the slice's
  negatives counts for a positive above both: above the higher one);

and the same with the classes swapped. Every quantity depends on a row's score and class
only, so the tables hold one row per group (or slice) and distinct score. Unweighted rows
(counts); weighted slices copy the rest's rows (:func:`polars_roc.segments.disparity.sides`).
"""

from __future__ import annotations

import polars as pl

from polars_roc._core.groups import join_groups, per_group

__all__: list[str] = []

c = pl.col


def _running(table: pl.LazyFrame, keys: list[str], pos: str, neg: str) -> pl.LazyFrame:
    """Add ``_pos_above`` and ``_neg_below``: the counts `pos` above / `neg` below each score."""
    ordered = table.with_columns(
        _pos_run=per_group(c(pos).cum_sum(), keys, order_by="_s"),
        _neg_run=per_group(c(neg).cum_sum(), keys, order_by="_s"),
    )
    return ordered.with_columns(
        _pos_above=per_group(c(pos).sum(), keys) - c("_pos_run"),
        _neg_below=c("_neg_run") - c(neg),
    ).drop("_pos_run", "_neg_run")


def group_level(coded: pl.LazyFrame, names: list[str]) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """
    Per group and distinct score: each class's placement in the group and its parts.

    ``_vG`` (a positive's V), ``_wG`` (a negative's W), ``_phiG`` (a negative's Φ),
    ``_psiG`` (a positive's Ψ), ``_tG`` (a negative's T), ``_tpG`` (a positive's T');
    and per group the sums ``_P, _N, _gv1, _gv2, _gw1, _gw2`` and NaN count ``_G_nan``.
    """
    y = c("_y")
    table = coded.group_by(*names, "_s").agg(
        _np=y.sum().cast(pl.Float64), _nn=(~y).sum().cast(pl.Float64)
    )
    counted = _running(table, names, "_np", "_nn")
    placed = counted.with_columns(
        _vG=c("_neg_below") + 0.5 * c("_nn"),
        _wG=c("_pos_above") + 0.5 * c("_np"),
        _tG=c("_pos_above") + 0.25 * c("_np"),
        _tpG=c("_neg_below") + 0.25 * c("_nn"),
    ).with_columns(_pv=c("_np") * c("_vG"), _nw=c("_nn") * c("_wG"))
    weighted = _running(placed, names, "_pv", "_nw")
    rows = weighted.with_columns(
        _phiG=c("_pos_above") + 0.5 * c("_pv"), _psiG=c("_neg_below") + 0.5 * c("_nw")
    ).select(*names, "_s", "_vG", "_wG", "_phiG", "_psiG", "_tG", "_tpG")
    sums = [
        c("_np").sum().alias("_P"),
        c("_nn").sum().alias("_N"),
        (c("_np") * c("_vG")).sum().alias("_gv1"),
        (c("_np") * c("_vG") ** 2).sum().alias("_gv2"),
        (c("_nn") * c("_wG")).sum().alias("_gw1"),
        (c("_nn") * c("_wG") ** 2).sum().alias("_gw2"),
        ((c("_np") + c("_nn")) * c("_s").is_nan()).sum().alias("_G_nan"),
    ]
    totals = placed.group_by(names).agg(sums) if names else placed.select(sums)
    return rows, totals


def slice_sides(
    long: pl.LazyFrame,
    group: tuple[pl.LazyFrame, pl.LazyFrame],
    names: list[str],
    slices: list[str],
) -> pl.LazyFrame:
    """
    Per slice: its AUC, the rest's, their DeLong variances and row counts.

    `long` holds coded rows (``_s, _y``) with the slice keys `slices` (each row once per
    slice it is in), `group` is :func:`group_level`'s. The columns
    :func:`polars_roc.segments.disparity.gap_test` reads: ``estimate``,
    ``reference_estimate``, ``_var, _n, _var_r, _n_r``; and ``_p, _n_neg``.
    """
    rows, totals = group
    keys = [*names, *slices]
    y = c("_y")
    table = long.group_by(*keys, "_s").agg(
        _np=y.sum().cast(pl.Float64), _nn=(~y).sum().cast(pl.Float64)
    )
    joined = table.join(rows, on=[*names, "_s"], how="left", nulls_equal=True)
    counted = _running(joined, keys, "_np", "_nn").rename(
        {"_pos_above": "_sp_above", "_neg_below": "_sn_below"}
    )
    placed = counted.with_columns(
        _vS=c("_sn_below") + 0.5 * c("_nn"),
        _wS=c("_sp_above") + 0.5 * c("_np"),
        _pv=c("_np") * c("_vG"),
        _nw=c("_nn") * c("_wG"),
    )
    weighted = _running(placed, keys, "_pv", "_nw").with_columns(
        _phiS=c("_pos_above") + 0.5 * c("_pv"), _psiS=c("_neg_below") + 0.5 * c("_nw")
    )
    p, n = c("_np"), c("_nn")
    sums = [
        p.sum().alias("_p"),
        n.sum().alias("_n_neg"),
        (p * c("_vS")).sum().alias("_sv1"),
        (p * c("_vS") ** 2).sum().alias("_sv2"),
        (n * c("_wS")).sum().alias("_sw1"),
        (n * c("_wS") ** 2).sum().alias("_sw2"),
        (p * c("_vG")).sum().alias("_a1"),
        (p * c("_vG") ** 2).sum().alias("_a2"),
        (n * c("_wG")).sum().alias("_b1"),
        (n * c("_wG") ** 2).sum().alias("_b2"),
        (n * (c("_wG") - c("_wS"))).sum().alias("_c_neg"),
        (p * (c("_vG") - c("_vS"))).sum().alias("_c_pos"),
        (n * (c("_phiG") - c("_phiS"))).sum().alias("_d_neg"),
        (p * (c("_psiG") - c("_psiS"))).sum().alias("_d_pos"),
        (n * (2 * c("_sn_below") * c("_wG") + n * c("_tG"))).sum().alias("_e_neg"),
        (p * (2 * c("_sp_above") * c("_vG") + p * c("_tpG"))).sum().alias("_e_pos"),
        ((p + n) * c("_s").is_nan()).sum().alias("_nan"),
    ]
    per_slice = join_groups(weighted.group_by(keys).agg(sums), totals, names)
    p_s, n_s = c("_p"), c("_n_neg")
    p_r, n_r = c("_P") - p_s, c("_N") - n_s
    rest = {
        "sv1": c("_gv1") - c("_a1") - c("_c_neg"),
        "sv2": c("_gv2") - c("_a2") - 2 * c("_d_neg") + c("_e_neg") - c("_sv2"),
        "sw1": c("_gw1") - c("_b1") - c("_c_pos"),
        "sw2": c("_gw2") - c("_b2") - 2 * c("_d_pos") + c("_e_pos") - c("_sw2"),
    }
    own = {k: c(f"_{k}") for k in ("sv1", "sv2", "sw1", "sw2")}
    nan_s, nan_r = c("_nan") > 0, c("_G_nan") > c("_nan")
    return per_slice.with_columns(
        estimate=_auc(own, p_s, n_s, nan_s),
        reference_estimate=_auc(rest, p_r, n_r, nan_r),
        _var=_variance(own, p_s, n_s, nan_s),
        _var_r=_variance(rest, p_r, n_r, nan_r),
        _n=p_s + n_s,
        _n_r=p_r + n_r,
    )


def _auc(sums: dict[str, pl.Expr], p: pl.Expr, n: pl.Expr, nan: pl.Expr) -> pl.Expr:
    return pl.when((p > 0) & (n > 0) & ~nan).then(sums["sv1"] / p / n)


def _variance(sums: dict[str, pl.Expr], p: pl.Expr, n: pl.Expr, nan: pl.Expr) -> pl.Expr:
    """DeLong's ``S10 / P + S01 / N`` from the placements' sums and sums of squares."""
    s10 = (sums["sv2"] - sums["sv1"] ** 2 / p) / (p - 1) / (n * n)
    s01 = (sums["sw2"] - sums["sw1"] ** 2 / n) / (n - 1) / (p * p)
    return pl.when((p >= 2) & (n >= 2) & ~nan).then(s10 / p + s01 / n)
