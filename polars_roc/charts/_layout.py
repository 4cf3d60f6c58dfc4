"""Where the texts inside a panel go, so that no two overlap and none leaves the plot.

Texts are laid out in pixels, in Python, before Vega sees them: a panel's size and its axes'
domains are fixed (``nice=False``), so a pixel position converts exactly to data units and
back. Widths are estimated generously (DejaVu Sans advance widths, rounded up), so a text
never takes more room than its box.

Two kinds of text:

* **stacked lines** (AUC, pAUC, AP per group): right- or left-aligned lines at the bottom of
  the panel (or at its top, where a log FPR axis leaves room), one line per group,
  :data:`LINE` pixels apart;
* **point labels** (a threshold next to its operating point): the first free place around
  the point (right-below, right-above, left-below, left-above, ..., then one line further
  out) that stays inside the plot and overlaps no other text or marked point, its box within
  :data:`NEAR` pixels of the point; a label with no free place is left out (its point keeps
  its tooltip), never moved away from its point.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: Font size of panel texts, in pixels, and the height of one line of them.
FONT = 11
LINE = 14
#: Room kept between a text and the plot's edge, in pixels.
PAD = 5
#: Radius kept free around a marked point, in pixels.
POINT = 6
#: Farthest a point label's box may be from its point, in pixels.
NEAR = POINT + 1 + LINE + 2
#: At most this share of a panel's height is given to stacked lines.
STACK_SHARE = 0.6

# Advance widths (em) of DejaVu Sans, the widest common sans-serif (Arial and Helvetica are
# about 12% narrower), rounded up; characters not listed take OTHER.
_WIDTHS = {
    **dict.fromkeys(" .,:;'!|", 0.33),
    **dict.fromkeys("ijl", 0.30),
    **dict.fromkeys("ft()[]", 0.40),
    **dict.fromkeys("0123456789", 0.64),
    **dict.fromkeys("abcdeghknopqsuvxyz", 0.63),
    **dict.fromkeys("rI", 0.42),
    **dict.fromkeys("mMW", 0.99),
    "w": 0.82,
}
_UPPER = 0.78
OTHER = 0.84

Box = tuple[float, float, float, float]


def text_width(text: str, size: float = FONT) -> float:
    """A generous estimate of a text's width in pixels (sans-serif at `size` pixels)."""
    total = 0.0
    for char in text:
        width = _WIDTHS.get(char)
        if width is None:
            width = _UPPER if char.isupper() else OTHER
        total += width
    return total * size


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes ``(x0, y0, x1, y1)`` intersect."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass(frozen=True)
class Plot:
    """A panel's size in pixels and its axes' domains: pixels to data units."""

    width: float
    height: float
    x_domain: tuple[float, float] = (0.0, 1.0)
    y_domain: tuple[float, float] = (0.0, 1.0)
    #: A log x axis (its domain above 0; x below the domain is drawn at its left edge).
    x_log: bool = False

    def to_pixels(self, x: float, y: float) -> tuple[float, float]:
        """Data units to pixels (origin top left)."""
        (x0, x1), (y0, y1) = self.x_domain, self.y_domain
        if self.x_log:
            share = math.log10(max(x, x0) / x0) / math.log10(x1 / x0)
        else:
            share = (x - x0) / (x1 - x0)
        return share * self.width, (y1 - y) / (y1 - y0) * self.height

    def to_data(self, px: float, py: float) -> tuple[float, float]:
        """Pixels (origin top left) to data units."""
        (x0, x1), (y0, y1) = self.x_domain, self.y_domain
        share = px / self.width
        x = x0 * (x1 / x0) ** share if self.x_log else x0 + share * (x1 - x0)
        return x, y1 - py / self.height * (y1 - y0)

    def inside(self, box: Box) -> bool:
        """Whether a box lies inside the plot, `PAD` pixels from its edges."""
        return (
            box[0] >= PAD
            and box[1] >= PAD
            and box[2] <= self.width - PAD
            and box[3] <= self.height - PAD
        )


@dataclass(frozen=True)
class Placed:
    """A text at its place: its anchor (top corner) in data units, and its box in pixels."""

    index: int
    x: float
    y: float
    box: Box


class Panel:
    """The texts placed so far in one panel."""

    def __init__(
        self,
        plot: Plot,
        *,
        align: str = "right",
        span: tuple[float, float] | None = None,
        top: bool = False,
    ):
        self.plot = plot
        self.align = align
        self.top = top
        left, right = span if span is not None else (0.0, plot.width)
        self.left, self.right = left + PAD, right - PAD
        self.taken: list[Box] = []
        self.lines = 0

    @property
    def room(self) -> float:
        """Widest text a stacked line may hold, in pixels."""
        return max(self.right - self.left, 0.0)

    def fits(self, box: Box) -> bool:
        """Inside the plot and clear of every text placed so far."""
        return self.plot.inside(box) and not any(overlaps(box, other) for other in self.taken)

    def stack(self, index: int, text: str) -> Placed | None:
        """The next stacked line from the bottom (or the top), or None when the stack is full."""
        width = min(text_width(text), self.room)
        if self.lines * LINE + LINE > STACK_SHARE * self.plot.height:
            return None
        x0 = self.right - width if self.align == "right" else self.left
        if self.top:
            bottom = float(PAD + self.lines * LINE + LINE - 1)
        else:
            bottom = self.plot.height - PAD - self.lines * LINE
        box: Box = (x0, bottom - LINE + 1, x0 + width, bottom)
        if any(overlaps(box, other) for other in self.taken):
            return None
        self.lines += 1
        self.taken.append(box)
        return self.placed(index, box, right=self.align == "right")

    def near(self, index: int, text: str, point: tuple[float, float]) -> Placed | None:
        """A free place next to `point` (data units), or None."""
        px, py = self.plot.to_pixels(*point)
        width, height = text_width(text), FONT + 2
        gap = POINT + 1
        candidates = [
            (px + gap, py + 2),
            (px + gap, py - 2 - height),
            (px - gap - width, py + 2),
            (px - gap - width, py - 2 - height),
            (px + gap, py - height / 2),
            (px - gap - width, py - height / 2),
            (px - width / 2, py + gap),
            (px - width / 2, py - gap - height),
            # one line further out, still beside the point
            (px + gap, py + 2 + LINE),
            (px + gap, py - 2 - height - LINE),
            (px - gap - width, py + 2 + LINE),
            (px - gap - width, py - 2 - height - LINE),
        ]
        for x0, y0 in candidates:
            box = (x0, y0, x0 + width, y0 + height)
            if self.fits(box):
                self.taken.append(box)
                return self.placed(index, box)
        return None

    def keep_clear(self, points: Sequence[tuple[float, float]]) -> None:
        """Keep texts off these points (data units)."""
        for x, y in points:
            px, py = self.plot.to_pixels(x, y)
            self.taken.append((px - POINT, py - POINT, px + POINT, py + POINT))

    def placed(self, index: int, box: Box, *, right: bool = False) -> Placed:
        """A text's anchor in data units: its box's top-left (or top-right) corner."""
        x, y = self.plot.to_data(box[2] if right else box[0], box[1])
        return Placed(index, x, y, box)
