"""
Number formats and group colours shared by every chart and the HTML report.

One rule per kind of number, the same in tables, labels, tooltips and the slider:

* **thresholds**: :data:`THRESHOLD_DIGITS` significant digits, trailing zeros kept, never in
  exponent notation (``0.2800``, ``0.2730``, ``0.001573``, ``712.0``, ``12350``). Python
  prints them with :func:`threshold_text`; Vega with the d3 format :data:`THRESHOLD_FORMAT`
  (``".4r"``), which rounds the same way (half away from zero on the exact binary value).
* **rates** (TPR, FPR, PPV, F1, Youden's J, accuracy, AUC, ...): :data:`RATE_DECIMALS`
  decimals (``0.873``) — :func:`rate_text` and :data:`RATE_FORMAT`; a standard error or a
  raw partial AUC (small numbers) one decimal more (:data:`SMALL_FORMAT`).
* **scores** (the histogram's bin edges): as thresholds.
* **counts**: thousands separators, at most two decimals for weight sums.

Colours: a group keeps its colour in every chart of a page, and in every composed chart,
because every builder gives the colour scale the same domain — the group's distinct values
sorted (:func:`color_domain`), not the order of the rows or of the AUCs.

Examples
--------
>>> from polars_roc.charts.style import rate_text, threshold_text
>>> [threshold_text(t) for t in (0.28, 0.273, 0.00157341, 712, 12345.6, float("inf"))]
['0.2800', '0.2730', '0.001573', '712.0', '12350', '+inf']
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
    "COUNT_FORMAT",
    "PALETTE",
    "RATE_DECIMALS",
    "RATE_FORMAT",
    "SMALL_FORMAT",
    "THRESHOLD_DIGITS",
    "THRESHOLD_FORMAT",
    "color_domain",
    "color_range",
    "rate_text",
    "threshold_text",
]

#: Significant digits of a threshold, everywhere.
THRESHOLD_DIGITS = 4
#: The d3 format of a threshold (Vega): the same text as :func:`threshold_text`.
THRESHOLD_FORMAT = f".{THRESHOLD_DIGITS}r"
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


def threshold_text(value: float | None) -> str:
    """
    A threshold as text: 4 significant digits, trailing zeros kept, no exponent.

    The same text as d3's ``format(".4r")`` (what the charts' tooltips use).

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
    decimals = max(0, -quantum.as_tuple().exponent)  # type: ignore[operator]
    text = f"{rounded:.{decimals}f}"
    return f"-{text}" if value < 0 else text


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
