"""
Kernel-density smoothing of ROC curves, as pROC's ``smooth(method="density")`` computes it.

pROC estimates the densities of the negatives' and the positives' scores with R's
``density()`` on one common grid: the bandwidth is ``bw.nrd0`` of the pooled scores, the
grid runs from ``min - 3·bw`` to ``max + 3·bw`` (``cut = 3``) in ``n`` points. R's
``density()`` does not evaluate the kernel sum at the grid points: it bins the scores
linearly onto ``n`` points of a wider grid (``4·bw`` beyond each end; C's ``BinDist``), takes
the circular convolution with the Gaussian kernel by FFT over ``2n`` points, and
interpolates linearly (``approx``) back to the output grid. The smoothed curve then reads
the densities as weights: at the k-th grid point the specificity is the negatives' mass
below it and the sensitivity the positives' mass at or above it (pROC's
``roc_utils_perfs_dens``), plus pROC's anchors at (0, 1) and (1, 0).

The kernel grid is R's before 4.4.0 (``density(old.coords=TRUE)``), the one pROC's
published values were computed with; R 4.4.0 spaced it by ``(2n - 1)/(n - 1)`` instead of
2 grid widths per ``n`` points, which moves an AUC by about 1e-5.

Every group is smoothed at once: the binning is one ``np.add.at``, the FFTs run along
the last axis of a (groups, 2n) array, in blocks of groups to bound memory.

Examples
--------
>>> import numpy as np
>>> neg = Scores(np.array([0.1, 0.2, 0.4]), np.array([3]))
>>> pos = Scores(np.array([0.3, 0.5, 0.6]), np.array([3]))
>>> fpr, tpr = density_curves(neg, pos, np.array([0.1]), np.array([0.1]), np.array([0.6]), n=512)
>>> fpr.shape, float(fpr[0, 0]), float(tpr[0, -1])
((1, 514), 0.0, 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

__all__ = ["Scores", "density_curves"]

#: Groups smoothed per block of FFTs: (block, 2n) complex arrays stay small.
BLOCK = 256
#: R's ``cut`` (grid beyond the data, in bandwidths) and the binning grid's extension.
CUT, EXTENSION = 3.0, 4.0


@dataclass(frozen=True)
class Scores:
    """One class's scores of every group, flat: ``values`` group after group, ``sizes``."""

    values: FloatArray
    sizes: npt.NDArray[np.int64]

    def block(self, part: slice) -> Scores:
        """The scores of the groups in `part` (a slice of group positions)."""
        ends = np.cumsum(self.sizes)
        first = int(ends[part.start - 1]) if part.start else 0
        sizes = self.sizes[part]
        return Scores(self.values[first : first + int(sizes.sum())], sizes)


def _binned(scores: Scores, lo: FloatArray, delta: FloatArray, n: int) -> FloatArray:
    """R's ``BinDist``: each value's mass 1/size split linearly between two grid points."""
    groups = len(scores.sizes)
    out = np.zeros((groups, 2 * n))
    group = np.repeat(np.arange(groups), scores.sizes)
    mass = 1.0 / scores.sizes[group]
    position = (scores.values - lo[group]) / delta[group]
    index = np.floor(position).astype(np.int64)
    fraction = position - index
    inside = (index >= 0) & (index <= n - 2)
    np.add.at(out, (group[inside], index[inside]), (1 - fraction[inside]) * mass[inside])
    np.add.at(out, (group[inside], index[inside] + 1), fraction[inside] * mass[inside])
    below, above = index == -1, index == n - 1
    np.add.at(out, (group[below], 0), fraction[below] * mass[below])
    np.add.at(out, (group[above], index[above]), (1 - fraction[above]) * mass[above])
    return out


def _gaussian(bw: FloatArray, span: FloatArray, n: int) -> FloatArray:
    """The kernel at R's ``kords``: 0 … 2·span in 2n steps, the upper half mirrored."""
    step = 2 * span / (2 * n - 1)
    k = np.arange(2 * n, dtype=np.float64)
    distance = np.where(k <= n, k, 2 * n - k)[None, :] * step[:, None]
    z = distance / bw[:, None]
    return np.asarray(np.exp(-0.5 * z * z) / (np.sqrt(2 * np.pi) * bw[:, None]))


def _densities(
    scores: Scores, bw: FloatArray, start: FloatArray, end: FloatArray, n: int
) -> FloatArray:
    """R's ``density(x, bw=, from=, to=, n=)$y`` for each group: (groups, n)."""
    lo, up = start - EXTENSION * bw, end + EXTENSION * bw
    delta = (up - lo) / (n - 1)
    y = _binned(scores, lo, delta, n)
    kernel = _gaussian(bw, up - lo, n)
    smooth = np.fft.ifft(np.fft.fft(y, axis=1) * np.conj(np.fft.fft(kernel, axis=1)), axis=1)
    ords = np.maximum(0.0, smooth.real[:, :n])
    # approx(xords, kords, x): x = seq(from, to, n) read on the grid seq(lo, up, n).
    grid = np.linspace(0.0, 1.0, n)[None, :]
    position = ((start - lo) / delta)[:, None] + grid * ((end - start) / delta)[:, None]
    index = np.clip(np.floor(position).astype(np.int64), 0, n - 2)
    fraction = position - index
    rows = np.arange(len(bw))[:, None]
    return np.asarray(ords[rows, index] * (1 - fraction) + ords[rows, index + 1] * fraction)


def density_curves(
    negatives: Scores,
    positives: Scores,
    bw: FloatArray,
    low: FloatArray,
    high: FloatArray,
    *,
    n: int,
) -> tuple[FloatArray, FloatArray]:
    """
    The smoothed curves ``(fpr, tpr)``, (groups, n + 2) each, from (0, 0) to (1, 1).

    `negatives` / `positives`: each group's scores of one class (at least one each); `bw`
    the groups' bandwidths (pROC's ``bw.nrd0`` of the pooled scores), `low` / `high` their
    pooled minimum and maximum: the grid runs from ``low - 3·bw`` to ``high + 3·bw``.
    """
    fprs, tprs = [np.zeros((0, n + 2))], [np.zeros((0, n + 2))]
    for first in range(0, len(bw), BLOCK):
        part = slice(first, first + BLOCK)
        width = bw[part]
        start, end = low[part] - CUT * width, high[part] + CUT * width
        controls = _densities(negatives.block(part), width, start, end, n)
        cases = _densities(positives.block(part), width, start, end, n)
        # pROC: sp = the controls' mass strictly below the k-th point, se = cases' at or above.
        specificity = (np.cumsum(controls, axis=1) - controls) / controls.sum(1, keepdims=True)
        sensitivity = np.cumsum(cases[:, ::-1], axis=1)[:, ::-1] / cases.sum(1, keepdims=True)
        ones, zeros = np.ones((len(width), 1)), np.zeros((len(width), 1))
        sp = np.hstack([zeros, specificity, ones])
        se = np.hstack([ones, sensitivity, zeros])
        fprs.append(1 - sp[:, ::-1])
        tprs.append(se[:, ::-1])
    return np.vstack(fprs), np.vstack(tprs)
