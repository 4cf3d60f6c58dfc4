"""
Number formats and group colours shared by every chart and the HTML report.

One rule per kind of number, the same in tables, labels, tooltips and the slider:

* **thresholds**: :data:`THRESHOLD_DIGITS` significant digits, trailing zeros kept
  (``0.2800``, ``0.2730``, ``0.001573``, ``712.0``, ``12350``), in scientific notation below
  :data:`SCIENTIFIC_BELOW` (``6.990e-22``). Python prints them with :func:`threshold_text`;
  Vega with the expression :func:`threshold_expr` (d3's ``".4r"``, :data:`THRESHOLD_FORMAT`,
  or ``".3e"`` for tiny values), which rounds the same way (half away from zero on the exact
  binary value). Tooltips show the text column :func:`text_column` names (the charts add it
  to their data), so a tooltip prints what a table prints.
* **rates** (TPR, FPR, PPV, F1, Youden's J, accuracy, AUC, ...): :data:`RATE_DECIMALS`
  decimals (``0.873``) — :func:`rate_text` and :data:`RATE_FORMAT`; a standard error or a
  raw partial AUC (small numbers) one decimal more (:data:`SMALL_FORMAT`).
* **scores** (the histogram's bin edges): as thresholds.
* **counts**: thousands separators, at most two decimals for weight sums.

Colours: a group keeps its colour in every chart of a page, and in every composed chart,
because every builder gives the colour scale the same domain — the group's distinct values
sorted (:func:`color_domain`), not the order of the rows or of the AUCs. One meaning per
colour: :data:`PALETTE` colours models (groups) only; the classes of a label (negatives,
positives) take :data:`CLASS_COLORS`, the classes of a multiclass report
:data:`MULTICLASS_PALETTE` (no grey or purple: those are the label's classes), and measures
(TPR, FPR, PPV, ...) a dash each (:data:`MEASURE_DASHES`) in near-black shades
(:data:`MEASURE_SHADES`), or, when the dash tells groups apart, the dark
:data:`MEASURE_PALETTE`: no colour of one set is in another.

Examples
--------
>>> from polars_roc.charts.style import rate_text, threshold_text
>>> [threshold_text(t) for t in (0.28, 0.273, 0.00157341, 712, 12345.6, float("inf"))]
['0.2800', '0.2730', '0.001573', '712.0', '12350', '+inf']
>>> threshold_text(6.98976e-22), threshold_text(-0.00099996)
('6.990e-22', '-1.000e-3')
>>> rate_text(0.87349)
'0.873'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import polars as pl

__all__ = [
    "CLASS_COLORS",
    "COUNT_FORMAT",
    "MEASURE_DASHES",
    "MEASURE_PALETTE",
    "MEASURE_SHADES",
    "MULTICLASS_PALETTE",
    "PALETTE",
    "RATE_DECIMALS",
    "RATE_FORMAT",
    "SCIENTIFIC_BELOW",
    "SMALL_FORMAT",
    "THRESHOLD_DIGITS",
    "THRESHOLD_FORMAT",
    "color_domain",
    "color_range",
    "rate_text",
    "text_column",
    "threshold_expr",
    "threshold_text",
]

#: Significant digits of a threshold, everywhere.
THRESHOLD_DIGITS = 4
#: The d3 format of a threshold of size at least :data:`SCIENTIFIC_BELOW` (Vega): the same
#: text as :func:`threshold_text`; :func:`threshold_expr` prints every size.
THRESHOLD_FORMAT = f".{THRESHOLD_DIGITS}r"
#: Non-zero thresholds smaller than this (in size) print in scientific notation.
SCIENTIFIC_BELOW = 1e-3
#: Decimals of a rate (TPR, FPR, PPV, AUC, ...), everywhere.
RATE_DECIMALS = 3
#: The d3 format of a rate (Vega).
RATE_FORMAT = f".{RATE_DECIMALS}f"
#: The d3 format of small quantities with one more decimal: a standard error, a raw pAUC.
SMALL_FORMAT = f".{RATE_DECIMALS + 1}f"
#: The d3 format of a count (weight sums may be fractional).
COUNT_FORMAT = ",.2~f"
#: The colours groups take, in the order of :func:`color_domain` (Vega's "tableau10"),
#: repeated when there are more groups.
PALETTE = (
    "#4c78a8",
    "#f58518",
    "#e45756",
    "#72b7b2",
    "#54a24b",
    "#eeca3b",
    "#b279a2",
    "#ff9da6",
    "#9d755d",
    "#bab0ac",
)
#: The colours of a label's classes (negatives, positives), in every chart that shows them.
CLASS_COLORS = ("#9a9a9a", "#6a3d9a")
#: The colours of a multiclass report's classes (ColorBrewer "Dark2" less its purple, pink
#: and grey, which the label's classes and the models use): not the models'.
MULTICLASS_PALETTE = ("#1b9e77", "#d95f02", "#e6ab02", "#a6761d", "#66a61e")
#: The colours of measures (TPR, FPR, PPV, NPV, F1, Youden's J, accuracy, ...), in order:
#: dark and muted, none a model's or a class's.
MEASURE_PALETTE = (
    "#1a1a1a",
    "#8c510a",
    "#01665e",
    "#3f007d",
    "#c51b7d",
    "#7f7f7f",
    "#08306b",
    "#543005",
)
#: The dash of each measure, in the measures' order (repeated when there are more).
MEASURE_DASHES = ((1, 0), (7, 3), (2, 2), (9, 3, 2, 3), (4, 5), (12, 3), (1, 3))
#: The shades of the measures' lines (near black and dark grey, in turn).
MEASURE_SHADES = ("#111111", "#5c5c5c")


def threshold_text(value: float | None) -> str:
    """
    A threshold as text: 4 significant digits, trailing zeros kept; scientific below 1e-3.

    The same text as the charts' Vega expression :func:`threshold_expr` (d3's
    ``format(".4r")``, or ``format(".3e")`` for a non-zero size below 1e-3).

    Parameters
    ----------
    value
        The threshold; None (undefined) gives ``"—"``, infinities ``"+inf"`` / ``"−inf"``.

    Returns
    -------
    str

    Examples
    --------
    >>> from polars_roc.charts.style import threshold_text
    >>> threshold_text(0.5954397202808415), threshold_text(-1.5), threshold_text(0.0)
    ('0.5954', '-1.500', '0.000')
    >>> threshold_text(0.000157341)
    '1.573e-4'
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if math.isinf(value):
        return "+inf" if value > 0 else "−inf"
    if value == 0:
        return "0." + "0" * (THRESHOLD_DIGITS - 1)
    exact = Decimal(abs(float(value)))
    exponent = exact.adjusted()  # the power of ten of the first significant digit
    quantum = Decimal(1).scaleb(exponent - THRESHOLD_DIGITS + 1)
    rounded = exact.quantize(quantum, rounding=ROUND_HALF_UP)
    if rounded.adjusted() > exponent:  # 9.9996 -> 10.00: one digit more before the point
        quantum = quantum.scaleb(1)
        rounded = exact.quantize(quantum, rounding=ROUND_HALF_UP)
    if abs(value) < SCIENTIFIC_BELOW:  # d3's ".3e": mantissa, "e", exponent without zeros
        text = f"{rounded:.{THRESHOLD_DIGITS - 1}e}".replace("E", "e").replace("e+", "e")
        return f"-{text}" if value < 0 else text
    decimals = max(0, -quantum.as_tuple().exponent)  # type: ignore[operator]
    text = f"{rounded:.{decimals}f}"
    return f"-{text}" if value < 0 else text


def threshold_expr(value: str) -> str:
    """
    A Vega expression printing the threshold `value` (an expression) as :func:`threshold_text`.

    Examples
    --------
    >>> from polars_roc.charts.style import threshold_expr
    >>> threshold_expr("datum.t")[:45]
    "!isValid(datum.t) ? '—' : !isFinite(datum.t) "
    """
    small = f"{value} !== 0 && abs({value}) < {SCIENTIFIC_BELOW}"
    return (
        f"!isValid({value}) ? '—' : !isFinite({value}) ? ({value} > 0 ? '+inf' : '−inf') : "
        f"replace({small} ? format({value}, '.{THRESHOLD_DIGITS - 1}e') : "
        f"format({value}, '{THRESHOLD_FORMAT}'), '−', '-')"
    )


def text_column(column: str) -> str:
    """
    The column holding the printed text of a threshold or score column `column`.

    Examples
    --------
    >>> from polars_roc.charts.style import text_column
    >>> text_column("threshold")
    '_text_threshold'
    """
    return f"_text_{column}"


def rate_text(value: float | None) -> str:
    """
    A rate (or an AUC) as text with 3 decimals; ``"—"`` when undefined (null).

    Examples
    --------
    >>> from polars_roc.charts.style import rate_text
    >>> rate_text(0.5), rate_text(None)
    ('0.500', '—')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{value:.{RATE_DECIMALS}f}"


def color_domain(*frames: pl.DataFrame | None, column: str) -> list[Any]:
    """
    The colour scale's domain: the distinct non-null values of `column`, sorted.

    Every builder colouring a group column uses this domain, so a group has the same colour
    in every chart drawn from frames with the same groups (a chart that leaves a group out,
    e.g. an AUC that is null, keeps the others' colours). Nulls are left out of the domain
    (Vega gives them the next colour).

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.charts.style import color_domain
    >>> color_domain(pl.DataFrame({"model": ["logit", "gbm", None, "gbm"]}), column="model")
    ['gbm', 'logit']
    """
    values: set[Any] = set()
    for frame in frames:
        if frame is not None and column in frame.columns:
            values.update(frame[column].drop_nulls().unique().to_list())
    return sorted(values, key=_sort_key)


def _sort_key(value: Any) -> tuple[int, Any]:
    """Numbers before strings, each in their own order (a column holds one kind)."""
    if isinstance(value, bool | int | float):
        return (0, value)
    return (1, str(value))


def color_range(domain: Sequence[Any]) -> list[str]:
    """The colours of a domain's values, in its order (the palette repeated if needed)."""
    return [PALETTE[i % len(PALETTE)] for i in range(len(domain))]
