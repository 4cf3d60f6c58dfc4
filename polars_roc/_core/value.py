"""Per-row amounts in the counts core: value curves, amount and capacity checks.

The engine behind :func:`polars_roc.decisions.value_curve` and
``best_threshold(method="value", capacity=...)``: the tally carries each amount column's
weighted sum beside ``tp`` and ``fp`` (:mod:`polars_roc._core.counts`), so the value of every
threshold comes out of the one cumulative pass.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from polars_roc._core import validate
from polars_roc._core.counts import accumulate, coded, tally, with_totals
from polars_roc._core.names import fresh

#: An amount: one number for every row, or the name of a column of per-row amounts.
Amount = float | str

#: A capacity: a fraction of the rows in (0, 1], or a positive number of rows.
Capacity = float | int | None

#: The amount arguments, and whether each applies to the positives (else the negatives).
AMOUNTS: dict[str, bool] = {"gain_tp": True, "cost_fp": False, "cost_fn": True, "gain_tn": False}

#: The columns ``best_threshold(method="value")`` adds to the thresholds table.
EXTRA = ("depth", "value", "value_per_case")


def check_amounts(schema: pl.Schema, amounts: Mapping[str, Any]) -> dict[str, float | str]:
    """
    Check each amount is a non-negative finite number or a numeric column; return them.

    Examples
    --------
    >>> check_amounts(pl.Schema({"amount": pl.Float64}), {"gain_tp": "amount", "cost_fp": 2})
    {'gain_tp': 'amount', 'cost_fp': 2.0}
    """
    checked: dict[str, float | str] = {}
    for argument, given in amounts.items():
        value = 0.0 if given is None else given  # best_threshold's default: no such amount
        if isinstance(value, str):
            dtype = validate.column(schema, value, argument)
            if not dtype.is_numeric() or dtype == pl.Boolean:
                msg = (
                    f"{argument} column {value!r} has dtype {dtype}, expected non-negative "
                    f"amounts\n\nHint: pass {argument}=<numeric column> or a number."
                )
                raise pl.exceptions.SchemaError(msg)
            checked[argument] = value
        elif validate.is_real(value) and math.isfinite(value) and value >= 0:
            checked[argument] = float(value)
        else:
            msg = (
                f"{argument} must be a non-negative number or the name of a column of "
                f"per-row amounts, got {value!r}\n\nHint: amounts are sizes, not signed: "
                f"a cost goes in cost_fp / cost_fn, a gain in gain_tp / gain_tn, e.g. "
                f"gain_tp='amount', cost_fp=5.0."
            )
            raise ValueError(msg)
    return checked


def _amount_check(argument: str, column: str, applies: str) -> Any:
    """A batch check: the amounts where they apply are present, finite and non-negative."""

    def check(values: pl.Series) -> pl.Series:
        missing = int(values.is_nan().sum())
        if missing:
            msg = (
                f"{argument} column {column!r} holds {missing} null or NaN amount(s) on "
                f"{applies} rows\n\nHint: fill them (e.g. .fill_null(0)) or drop those rows."
            )
            raise ValueError(msg)
        bad = values.filter(~(values.is_finite() & (values >= 0)))
        if bad.len():
            msg = (
                f"{argument} column {column!r} holds {bad.unique().sort().head(5).to_list()}; "
                f"amounts must be finite and non-negative (the sign comes from the argument)"
                f"\n\nHint: pass a loss as a cost and a profit as a gain, e.g. "
                f"pl.col({column!r}).abs()."
            )
            raise ValueError(msg)
        return values

    return check


def check_capacity(capacity: Any) -> tuple[str, float] | None:
    """
    ``("fraction", c)`` for a capacity in (0, 1], ``("count", n)`` for a row count, or None.

    An int is a count (``capacity=1`` is one row); a float in (0, 1] is a fraction
    (``capacity=1.0`` is every row); a whole float above 1 is a count.

    Examples
    --------
    >>> check_capacity(0.02), check_capacity(500), check_capacity(None)
    (('fraction', 0.02), ('count', 500.0), None)
    """
    if capacity is None:
        return None
    if validate.is_integer(capacity) and capacity >= 1:
        return ("count", float(capacity))
    if validate.is_real(capacity) and math.isfinite(capacity):
        if 0 < capacity <= 1:
            return ("fraction", float(capacity))
        if capacity > 1 and float(capacity).is_integer():
            return ("count", float(capacity))
    msg = (
        f"capacity must be a fraction of the rows in (0, 1] or a positive row count, got "
        f"{capacity!r}\n\nHint: capacity=0.02 (the top 2%) or capacity=500 (500 rows)."
    )
    raise ValueError(msg)


def fits(capacity: tuple[str, float] | None) -> pl.Expr:
    """
    Whether a row of a table with ``tp, fp, tn, fn`` flags no more than the capacity.

    True everywhere without a capacity (None).

    Inclusive: a threshold whose depth equals the capacity fits. Tied scores are flagged
    together, so where a block of ties straddles the capacity the threshold that would
    flag it does not fit and the higher one wins. Weighted rows count their weights (a
    count is then a weight sum). Null (an undefined group) counts as not fitting.
    """
    if capacity is None:
        return pl.lit(True)
    kind, limit = capacity
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    flagged = tp + fp
    # Depth as a correctly rounded quotient: k / n equals the literal capacity exactly
    # when the two are the same decimal (29 / 100 == 0.29, but 0.29 * 100 < 29).
    inside = flagged / (flagged + tn + fn) <= limit if kind == "fraction" else flagged <= limit
    return inside.fill_null(value=False)


def value_points(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    amounts: Mapping[str, float | str],
) -> pl.LazyFrame:
    """
    The ROC curve with the value columns, highest threshold first.

    ``*names, threshold, tp, fp, tn, fn, tpr, fpr, depth, value, value_per_case`` for
    checked `amounts` (see :func:`check_amounts`).

    Examples
    --------
    >>> df = pl.LazyFrame({"score": [0.9, 0.1], "label": [1, 0], "amount": [5.0, 2.0]})
    >>> amounts = {"gain_tp": "amount", "cost_fp": 1.0, "cost_fn": 0.0, "gain_tn": 0.0}
    >>> value_points(df, "score", "label", [], None, None, amounts).collect()["value"].to_list()
    [0.0, 5.0, 4.0]
    """
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    columns = {arg: value for arg, value in amounts.items() if isinstance(value, str)}
    taken = list(schema.names())
    private: dict[str, str] = {}
    for argument in columns:
        private[argument] = fresh(f"_amount_{argument}", [*taken, *private.values()])
    lf = lf.with_columns(pl.col(columns[a]).alias(private[a]) for a in columns)
    rows = coded(
        lf,
        score,
        label,
        names=names,
        weight=weight,
        pos_label=pos_label,
        label_dtype=schema[label],
        masked=bool(names),
        extra=list(private.values()),
    )
    sums = {}
    for argument, name in private.items():
        base = pl.col("tp" if AMOUNTS[argument] else "fp").cast(pl.Float64)
        applies = "positive" if AMOUNTS[argument] else "negative"
        amount = pl.col(name).cast(pl.Float64).fill_null(float("nan"))
        amount = pl.when(base > 0).then(amount)
        amount = amount.map_batches(
            _amount_check(argument, columns[argument], applies),
            return_dtype=pl.Float64,
            is_elementwise=True,
        )
        sums[name] = pl.when(base > 0).then(base * amount).otherwise(0.0)
    carried = list(private.values())
    table = tally(rows.with_columns(**sums), names, ordered=True, amounts=carried)
    points = with_totals(accumulate(table, names, in_order=True, amounts=carried), names)
    positives, negatives = pl.col("_positives"), pl.col("_negatives")
    tp, fp = pl.col("tp").cast(pl.Float64), pl.col("fp").cast(pl.Float64)
    n = (positives + negatives).cast(pl.Float64)

    def running(argument: str, count: pl.Expr) -> pl.Expr:
        value = amounts[argument]
        return pl.col(private[argument]) if isinstance(value, str) else value * count

    def total(argument: str, count: pl.Expr) -> pl.Expr:
        value = amounts[argument]
        if not isinstance(value, str):
            return value * count
        whole = pl.col(private[argument]).max()
        return (whole.over(names) if names else whole) + pl.col(private[argument]) * 0

    missed = total("cost_fn", positives.cast(pl.Float64)) - running("cost_fn", tp)
    passed = total("gain_tn", negatives.cast(pl.Float64)) - running("gain_tn", fp)
    value = running("gain_tp", tp) - running("cost_fp", fp) - missed + passed
    defined = n.is_not_null()
    return points.with_columns(
        tn=negatives - pl.col("fp"),
        fn=positives - pl.col("tp"),
        tpr=pl.when(positives > 0).then(pl.col("tp") / positives),
        fpr=pl.when(negatives > 0).then(pl.col("fp") / negatives),
        depth=pl.when(n > 0).then((tp + fp) / n),
        value=pl.when(defined).then(value),
        value_per_case=pl.when(n > 0).then(value / n),
    ).drop("_positives", "_negatives", *carried)


def value_tolerance(amounts: Mapping[str, float | str], keys: Sequence[str]) -> pl.Expr:
    """
    How far below the best a value still ties: 1e-12 of the amounts' scale in the group.

    Float sums of amounts round differently along different paths (per-row amounts, weights):
    two thresholds of equal value must not be split by that. The scale is a constant
    amount times its class count (read off the table), and for a column of amounts, whose
    total the table does not hold, the group's largest ``|value|`` (`keys`: the groups).
    """
    tp, fp, tn, fn = (pl.col(c).cast(pl.Float64) for c in ("tp", "fp", "tn", "fn"))
    counts = {"gain_tp": tp + fn, "cost_fn": tp + fn, "cost_fp": fp + tn, "gain_tn": fp + tn}
    largest = pl.col("value").abs().max().over(keys)
    scale: pl.Expr = pl.col("value").abs()
    for argument, value in amounts.items():
        scale = scale + (largest if isinstance(value, str) else value * counts[argument])
    return 1e-12 * scale
