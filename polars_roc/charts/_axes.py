"""The FPR and TPR axes of ROC panels: linear on [0, 1], zoomed to an FPR range, or log FPR.

A log scale cannot show FPR = 0, and every ROC curve starts there. On a log FPR axis the
axis starts at a **floor**: the zoom range's lower bound when it is above 0, else the power of
ten at or below the smallest non-zero FPR of the drawn frames (the first step of the
sparsest curve), never below :data:`LOG_FLOOR` and :data:`LOG_FLOOR_EMPTY` when no FPR is
above 0. Points with an FPR below the floor (FPR = 0 among them) are drawn on the floor, at
the axis' left edge; tooltips and labels keep their exact values. The chance diagonal
``tpr = fpr`` is drawn as the curve it becomes on a log axis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import polars as pl

from polars_roc._core import validate
from polars_roc.charts._altair import FPR_TITLE, TPR_TITLE, per_panel, quantitative
from polars_roc.charts._layout import Plot
from polars_roc.typing import FprScale

#: Lowest floor of a log FPR axis.
LOG_FLOOR = 1e-6
#: Floor of a log FPR axis when no drawn FPR is above 0.
LOG_FLOOR_EMPTY = 1e-3
#: The column a log FPR axis reads: the FPR raised to the floor.
LOG_FIELD = "_fpr_x"
_UNIT_TICKS = [0, 0.2, 0.4, 0.6, 0.8, 1]


@dataclass(frozen=True)
class FprAxis:
    """An ROC panel's FPR axis: shown range ``[lo, hi]``, linear or log (``lo`` the floor)."""

    lo: float = 0.0
    hi: float = 1.0
    log: bool = False

    @property
    def zoom(self) -> tuple[float, float] | None:
        """The shown range when it is not the whole of [0, 1] on a linear axis."""
        if self.log or (self.lo, self.hi) != (0.0, 1.0):
            return (self.lo, self.hi)
        return None

    @property
    def field(self) -> str:
        """The data column the x channel reads."""
        return LOG_FIELD if self.log else "fpr"

    @property
    def clip(self) -> dict[str, Any]:
        """Mark properties that keep marks inside a narrowed axis."""
        return {"clip": True} if self.zoom is not None else {}

    def plot(self, size: int) -> Plot:
        """The pixel geometry of one square panel."""
        return Plot(size, size, x_domain=(self.lo, self.hi), x_log=self.log)

    def placed(self, frame: pl.DataFrame) -> pl.DataFrame:
        """`frame` with the column the axis reads (on a log axis, FPR raised to the floor)."""
        if not self.log or "fpr" not in frame.columns:
            return frame
        return frame.with_columns(pl.col("fpr").clip(lower_bound=self.lo).alias(LOG_FIELD))

    def thinning(self, frame: pl.DataFrame) -> tuple[pl.DataFrame, str, float]:
        """The frame, column and x span to thin a curve by (on a log axis, in decades)."""
        if not self.log:
            return frame, "fpr", self.hi - self.lo
        decades = pl.col("fpr").clip(lower_bound=self.lo).log10().alias("_log_fpr")
        return frame.with_columns(decades), "_log_fpr", math.log10(self.hi / self.lo)

    def chance(self, source: pl.DataFrame, panels: list[str]) -> pl.DataFrame:
        """The chance diagonal, once per panel (a curve of 60 points on a log axis)."""
        if not self.log:
            return per_panel(pl.DataFrame({"fpr": [0.0, 1.0], "tpr": [0.0, 1.0]}), source, panels)
        a, b = math.log10(self.lo), math.log10(self.hi)
        steps = [10 ** (a + (b - a) * i / 59) for i in range(60)]
        return per_panel(pl.DataFrame({"fpr": steps, "tpr": steps}), source, panels)

    def channels(self, alt: Any, x: str = "fpr", y: str = "tpr") -> tuple[Any, Any]:
        """The X and Y encodings: FPR (as this axis shows it) and TPR on [0, 1]."""
        unit = alt.Scale(domain=[0, 1], nice=False)
        y_channel = quantitative(
            alt,
            "Y",
            y,
            title=TPR_TITLE,
            scale=unit,
            axis=alt.Axis(values=_UNIT_TICKS, format=".1f"),
        )
        if self.log:
            scale = alt.Scale(type="log", domain=[self.lo, self.hi], nice=False)
            axis = alt.Axis(values=decades(self.lo, self.hi), format="~g")
            name = LOG_FIELD if x == "fpr" else x
            title = f"{FPR_TITLE}, log scale"
            return quantitative(alt, "X", name, title=title, scale=scale, axis=axis), y_channel
        if self.zoom is None:
            scale, axis = unit, alt.Axis(values=_UNIT_TICKS, format=".1f")
        else:
            scale = alt.Scale(domain=[self.lo, self.hi], nice=False)
            axis = alt.Axis(values=round_ticks(self.lo, self.hi), format="~g")
        return quantitative(alt, "X", x, title=FPR_TITLE, scale=scale, axis=axis), y_channel


def decades(lo: float, hi: float) -> list[float]:
    """
    The powers of ten from `lo` to `hi`, with `hi` itself when it is not one.

    Examples
    --------
    >>> from polars_roc.charts._axes import decades
    >>> decades(0.001, 1.0), decades(0.01, 0.2)
    ([0.001, 0.01, 0.1, 1.0], [0.01, 0.1, 0.2])
    """
    first, last = math.ceil(math.log10(lo) - 1e-9), math.floor(math.log10(hi) + 1e-9)
    values = [float(f"1e{power}") for power in range(first, last + 1)]
    if not values or not math.isclose(values[-1], hi):
        values.append(hi)
    return values


def fpr_axis(
    zoom: tuple[float, float] | None,
    fpr_scale: FprScale = "linear",
    frames: tuple[pl.DataFrame | None, ...] = (),
) -> FprAxis:
    """
    The FPR axis of `zoom` and `fpr_scale`, its log floor read off the frames' ``fpr``.

    Examples
    --------
    >>> import polars as pl
    >>> from polars_roc.charts._axes import fpr_axis
    >>> curve = pl.DataFrame({"fpr": [0.0, 0.004, 0.5, 1.0]})
    >>> fpr_axis(None, "log", (curve,))
    FprAxis(lo=0.001, hi=1.0, log=True)
    >>> fpr_axis((0.0, 0.2), "log", (curve,)), fpr_axis((0.0, 0.2))
    (FprAxis(lo=0.001, hi=0.2, log=True), FprAxis(lo=0.0, hi=0.2, log=False))
    """
    validate.choice(fpr_scale, ("linear", "log"), "fpr_scale")
    lo, hi = (0.0, 1.0) if zoom is None else validate.unit_range(zoom, "zoom")
    if fpr_scale == "linear":
        return FprAxis(lo, hi)
    if lo <= 0.0:
        smallest = [
            frame.get_column("fpr").filter(frame.get_column("fpr") > 0).min()
            for frame in frames
            if frame is not None and "fpr" in frame.columns and frame.height
        ]
        found = [float(value) for value in smallest if isinstance(value, int | float)]
        if found:
            lo = max(LOG_FLOOR, float(f"1e{math.floor(math.log10(min(found)) + 1e-9)}"))
        else:
            lo = LOG_FLOOR_EMPTY
        if lo >= hi:
            lo = max(LOG_FLOOR, hi / 100)
    return FprAxis(lo, hi, log=True)


def unit_axes(
    alt: Any, x: str = "fpr", y: str = "tpr", zoom: tuple[float, float] | None = None
) -> tuple[Any, Any]:
    """
    FPR and TPR axes on [0, 1] with no padding (equal aspect when width == height).

    With `zoom` the FPR axis shows only ``[lo, hi]`` (strong models hug the left edge).
    """
    lo, hi = zoom if zoom is not None else (0.0, 1.0)
    return FprAxis(lo, hi).channels(alt, x, y)


def round_ticks(lo: float, hi: float) -> list[float]:
    """Four to eight ticks at round values (steps of 1, 2, 2.5 or 5 times a power of ten)."""
    span = hi - lo
    for power in range(-4, 1):
        for unit in (1, 2, 2.5, 5):
            step = unit * 10.0**power
            if span / step <= 7:
                first = math.ceil(lo / step - 1e-9)
                count = math.floor(hi / step + 1e-9) - first + 1
                return [round((first + i) * step, 10) for i in range(count)]
    return [lo, hi]


def zoom_range(zoom: tuple[float, float] | None) -> tuple[float, float] | None:
    """Check a zoom range of the FPR axis: ``0 <= lo < hi <= 1``."""
    if zoom is None:
        return None
    return validate.unit_range(zoom, "zoom")


def panel_plot(size: int, zoom: tuple[float, float] | None) -> Plot:
    """The pixel geometry of one square ROC panel."""
    return Plot(size, size, x_domain=zoom or (0.0, 1.0))
