"""Score distributions by class: histogram, density, sorted-score plot, jittered strip plot.

When an ROC curve looks odd, look at the decision statistic itself: these charts show where
each class's scores fall. They take the scored rows (eager or lazy, any size): the rows are
reduced in Polars (binned, or sampled for the point plots) before Altair sees them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import polars as pl

from polars_roc._core import checks, labels, validate
from polars_roc._core.checks import NanPolicy
from polars_roc._core.direction import Direction, flips
from polars_roc.charts._altair import (
    Panels,
    altair,
    combine,
    field,
    is_mark,
    nominal,
    quantitative,
    threshold_tip,
)
from polars_roc.charts.style import CLASS_COLORS as _COLORS
from polars_roc.charts.style import COUNT_FORMAT
from polars_roc.typing import ScoreChartKind as Kind

if TYPE_CHECKING:
    import altair as alt

KINDS = ("histogram", "density", "sorted", "strip")
#: Class names shown in the legend, and their colours: grey and purple, colours no group
#: takes (groups take the palette of :mod:`polars_roc.charts.style`).
CLASSES = ["negative", "positive"]
CLASS_COLORS = list(_COLORS)
#: Pixels at the bottom of the sorted-score plot kept for the two class barcodes.
RUG = 30
#: Grid points of the binned kernel density estimate, at most and at least per curve.
DENSITY_GRID = 400
DENSITY_GRID_MIN = 32


def coded_rows(
    scores: pl.DataFrame | pl.LazyFrame,
    score: str,
    label: str,
    *,
    weight: str | None,
    pos_label: Any,
    panels: list[str],
    nan_policy: NanPolicy = "propagate",
) -> pl.LazyFrame:
    """
    ``*panels, _score, _class, _w``: the rows that count, with finite scores, coded.

    NaN scores are left out under every `nan_policy` but ``"raise"``, which refuses them.
    """
    lf = scores.lazy()
    validate.roles(
        lf.collect_schema(),
        score=score,
        label=label,
        by=panels,
        weight=weight,
        pos_label=pos_label,
    )
    coded = lf.select(
        *panels,
        _score=labels.score(
            checks.apply_nan_policy(pl.col(score), nan_policy, score), checked=False
        ),
        _positive=labels.positive(label, pos_label),
        _w=pl.lit(1.0) if weight is None else labels.weight(weight),
    )
    keep = labels.kept(pl.col("_score"), pl.col("_positive"), pl.col("_w"))
    keep = keep & pl.col("_score").is_finite()
    name = pl.when(pl.col("_positive")).then(pl.lit("positive")).otherwise(pl.lit("negative"))
    return coded.filter(keep).select(*panels, "_score", "_w", _class=name)


def histogram_rows(rows: pl.LazyFrame, panels: list[str], bins: int) -> pl.DataFrame:
    """``*panels, _class, bin_start, bin_end, count``: weighted counts in shared bins."""
    lo, hi = rows.select(lo=pl.col("_score").min(), hi=pl.col("_score").max()).collect().row(0)
    if lo is None:
        return pl.DataFrame()
    width = (hi - lo) / bins if hi > lo else 1.0
    start = lo if hi > lo else lo - 0.5
    # numpy.histogram's rule: bins closed on the left, the last one on both sides, and a
    # score is compared with the edges themselves (k * width + start) where rounding could
    # put it on the wrong side.
    s = pl.col("_score")
    guess = ((s - start) / width).floor().clip(0, bins - 1)
    below = s < guess * width + start
    above = (s >= (guess + 1) * width + start) & (guess < bins - 1)
    index = (guess - below.cast(pl.Float64) + above.cast(pl.Float64)).cast(pl.Int64)
    counted = rows.group_by(*panels, "_class", _bin=index).agg(count=pl.col("_w").sum())
    edges = pl.col("_bin").cast(pl.Float64) * width + start
    return (
        counted.select(*panels, "_class", "count", bin_start=edges, bin_end=edges + width)
        .sort([*panels, "_class", "bin_start"])
        .collect()
    )


def density_grid(max_points: int, n_panels: int) -> int:
    """Grid points per density curve: two curves a panel share `max_points` (32 to 400)."""
    return max(DENSITY_GRID_MIN, min(DENSITY_GRID, max_points // (2 * max(n_panels, 1))))


def density_rows(rows: pl.LazyFrame, panels: list[str], points: int = DENSITY_GRID) -> pl.DataFrame:
    """
    ``*panels, _class, score, density``: a Gaussian kernel density per class and panel.

    Binned estimate: weights are summed on a grid of `points` points, then convolved with the
    kernel; the bandwidth is Silverman's rule ``0.9 * min(sd, IQR / 1.34) * n ** -0.2`` with
    the weighted sd and Kish's effective sample size.
    """
    keys = [*panels, "_class"]
    w, s = pl.col("_w"), pl.col("_score")
    mean = (w * s).sum() / w.sum()
    stats = (
        rows.group_by(keys)
        .agg(
            _n=w.sum().pow(2) / w.pow(2).sum(),
            _sd=((w * (s - mean).pow(2)).sum() / w.sum()).sqrt(),
            _iqr=s.quantile(0.75) - s.quantile(0.25),
            _total=w.sum(),
        )
        .collect()
    )
    if stats.height == 0:
        return pl.DataFrame()
    lo, hi = rows.select(lo=s.min(), hi=s.max()).collect().row(0)
    fallback = max(hi - lo, 1.0) / 100
    bandwidths = []
    for sd, iqr, n in stats.select("_sd", "_iqr", "_n").iter_rows():
        spread = min(sd, iqr / 1.34) if iqr > 0 else sd
        bandwidths.append(0.9 * spread * n**-0.2 if spread > 0 else fallback)
    stats = stats.with_columns(_h=pl.Series(bandwidths, dtype=pl.Float64))
    pad = 3 * max(bandwidths)
    start, stop = lo - pad, hi + pad
    spacing = (stop - start) / (points - 1)
    grid = start + spacing * np.arange(points)
    index = ((s - start) / spacing).round().cast(pl.Int64).alias("_bin")
    binned = rows.group_by(*keys, index).agg(_mass=w.sum()).collect()
    out = []
    for key, h, total in stats.select(pl.struct(keys), "_h", "_total").iter_rows():
        mine = binned.filter(pl.all_horizontal(pl.col(k).eq_missing(v) for k, v in key.items()))
        mass = np.zeros(points)
        np.add.at(mass, mine["_bin"].to_numpy(), mine["_mass"].to_numpy())
        reach = math.ceil(4 * h / spacing)
        offsets = spacing * np.arange(-reach, reach + 1)
        kernel = np.exp(-0.5 * (offsets / h) ** 2) / (h * math.sqrt(2 * math.pi))
        density = np.convolve(mass, kernel, mode="full")[reach : reach + points] / total
        out.append(
            pl.DataFrame({"score": grid, "density": density}).with_columns(
                *(pl.lit(v).alias(k) for k, v in key.items())
            )
        )
    return pl.concat(out, how="vertical_relaxed").select(*keys, "score", "density")


def sorted_rows(
    rows: pl.LazyFrame, panels: list[str], share: int, *, lower: bool = False
) -> pl.DataFrame:
    """
    ``*panels, _class, score, rank``: rows in score order; every k-th row when too many.

    The order runs from the least to the most positive score: ascending, or descending with
    `lower` (``direction="lower"``).
    """
    position = pl.int_range(pl.len())
    size = pl.len()
    if panels:
        position, size = position.over(panels), size.over(panels)
    order = [*panels, "_score", "_class"]
    descending = [False] * len(panels) + [lower, False]
    ordered = rows.sort(order, descending=descending).with_columns(_i=position, _n=size)
    stride = (pl.col("_n") / share).ceil().clip(1)
    keep = (pl.col("_i") % stride == 0) | (pl.col("_i") == pl.col("_n") - 1)
    rank = (pl.col("_i").cast(pl.Float64) + 0.5) / pl.col("_n")
    return ordered.filter(keep).select(*panels, "_class", score="_score", rank=rank).collect()


def strip_rows(rows: pl.LazyFrame, panels: list[str], share: int, seed: int) -> pl.DataFrame:
    """``*panels, _class, score, _jitter``: up to `share` // 2 random rows per class."""
    keys = [*panels, "_class"]
    order = pl.int_range(pl.len()).shuffle(seed).over(keys)
    sample = rows.filter(order < max(share // 2, 1)).sort([*keys, "_score"]).collect()
    jitter = np.random.default_rng(seed).uniform(-1.0, 1.0, sample.height)
    return sample.select(*panels, "_class", score="_score", _jitter=pl.Series(jitter))


def score_chart(
    scores: pl.DataFrame | pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    weight: str | None = None,
    pos_label: Any = None,
    kind: Kind | Sequence[Kind] = "histogram",
    bins: int = 40,
    facet: str | None = None,
    row: str | None = None,
    column: str | None = None,
    columns: int | None = None,
    width: int = 300,
    height: int = 200,
    max_points: int = 2000,
    seed: int = 0,
    direction: Direction = "higher",
    nan_policy: NanPolicy = "propagate",
) -> alt.LayerChart | alt.FacetChart | alt.HConcatChart:
    """
    Score distributions of the two classes, from the scored rows themselves.

    ``kind`` picks the chart, or a list of kinds put side by side:

    * ``"histogram"``: per-class (weighted) counts in `bins` shared bins, overlaid;
    * ``"density"``: per-class Gaussian kernel density (each class integrates to 1, so the
      shapes compare however imbalanced the classes are);
    * ``"sorted"``: every row by its rank in score order (x, from 0 to 1, from the least to
      the most positive score) and its score (y), coloured by class: where the positives sit
      in the ranking;
    * ``"strip"``: score by class, jittered.

    Rows with a null score, label or weight, a zero weight, or a non-finite score are left
    out. The drawn rows stay near `max_points` in all, shared evenly by the panels (``share
    = max_points // panels``), so many panels do not exceed Altair's 5,000-row limit. The
    point plots ignore weights: the sorted plot draws every k-th row in score order (about
    `share` per panel), the strip plot a random sample of up to ``share // 2`` rows per
    class (seeded). The density is evaluated on ``share // 2`` grid points per class, at
    most 400 and at least 32 (so beyond ``max_points / 64`` panels the 32-point floor
    decides: 4,992 rows at 78 panels).

    The scores are drawn in their own units. A NaN score has no place on the axis, so it is
    left out under ``nan_policy="propagate"`` (the default) as under ``"omit"``; ``"raise"``
    refuses it. The analyses say what NaN does to their numbers.

    Parameters
    ----------
    scores
        Scored rows, eager or lazy.
    score, label, weight, pos_label
        Column roles, as in :func:`polars_roc.curves.curve`.
    kind
        ``"histogram"``, ``"density"``, ``"sorted"``, ``"strip"``, or a list of them.
    bins
        Number of histogram bins.
    facet, row, column, columns
        Columns splitting the chart into panels (e.g. model, segment).
    width, height
        Size of each panel, in pixels.
    max_points
        Row budget of the point plots and the density, for all panels together.
    seed
        Random seed of the strip plot's sample and jitter.
    direction
        ``"lower"`` when a lower score means positive: the sorted plot then ranks the rows
        from the highest score down, so the most positive rows sit right as under
        ``"higher"``. The other plots draw the scores as they are.
    nan_policy
        ``"propagate"`` or ``"omit"`` (NaN scores are not drawn) or ``"raise"`` (an error
        naming the column and the count).

    Returns
    -------
    alt.LayerChart, alt.FacetChart or alt.HConcatChart
        Untitled; faceted when a panel role is given; side by side for a list of kinds.

    Examples
    --------
    >>> import polars_roc as pr
    >>> from polars_roc.charts import score_chart
    >>> df = pr.datasets.simulate(2000, models=["logit"], seed=1)
    >>> spec = score_chart(df, kind="histogram", bins=20).to_dict()
    >>> spec["layer"][0]["mark"]["type"]
    'bar'
    >>> spec = score_chart(df, kind=["density", "sorted", "strip"]).to_dict()
    >>> [view["layer"][0]["mark"]["type"] for view in spec["hconcat"]]
    ['area', 'circle', 'circle']
    """
    alt_ = altair()
    kinds = [kind] if isinstance(kind, str) else list(kind)
    bad = [k for k in kinds if k not in KINDS]
    if bad or not kinds:
        msg = f"kind must be one of {list(KINDS)} or a list of them, got {kind!r}"
        raise ValueError(msg + '\n\nHint: kind="histogram" or kind=["density", "strip"].')
    bins = validate.whole(bins, "bins", hint="bins=40")
    lower = flips(direction)
    panels = Panels(facet, row, column, columns)
    names = panels.names
    rows = coded_rows(
        scores, score, label, weight=weight, pos_label=pos_label, panels=names,
        nan_policy=nan_policy,
    )  # fmt: skip
    rows = rows.cache()
    n_panels = max(1, rows.select(names).unique().collect().height) if names else 1
    share = max(max_points // n_panels, 2)
    hue = nominal(
        alt_,
        "Color",
        "_class",
        title="class",
        scale=alt_.Scale(domain=CLASSES, range=CLASS_COLORS),
    )
    klass = alt_.Tooltip(field="_class", type="nominal", title="class")
    panel_tips = [alt_.Tooltip(field=field(n), type="nominal") for n in names]
    x_score = quantitative(alt_, "X", "score", title=score)
    charts = []
    for k in kinds:
        if k == "histogram":
            data = combine(bar=histogram_rows(rows, names, bins))
            x = quantitative(alt_, "X", "bin_start", title=score, bin="binned")
            y = quantitative(alt_, "Y", "count", title="weighted count" if weight else "count")
            y = y.stack(None)
            tips = [
                *panel_tips,
                klass,
                threshold_tip(alt_, "bin_start", "from"),
                threshold_tip(alt_, "bin_end", "to"),
                alt_.Tooltip(field="count", type="quantitative", format=COUNT_FORMAT),
            ]
            mark = alt_.Chart().transform_filter(is_mark("bar")).mark_bar(opacity=0.55)
            layer = mark.encode(x, x2=alt_.X2(field="bin_end"), y=y, color=hue, tooltip=tips)
        elif k == "density":
            data = combine(density=density_rows(rows, names, density_grid(max_points, n_panels)))
            y = quantitative(alt_, "Y", "density", title="density")
            tips = [*panel_tips, klass, threshold_tip(alt_, "score")]
            mark = alt_.Chart().transform_filter(is_mark("density"))
            layer = mark.mark_area(opacity=0.35, line=True).encode(
                x_score, y.stack(None), color=hue, tooltip=tips
            )
        elif k == "sorted":
            data = combine(point=sorted_rows(rows, names, share, lower=lower))
            x = quantitative(alt_, "X", "rank", title="rank in score order (fraction of rows)")
            x = x.scale(domain=[0, 1], nice=False)
            # The scores above, and one barcode per class along the bottom: where each
            # class's rows sit in the ranking.
            y = quantitative(alt_, "Y", "score", title=score).scale(range=[height - RUG, 0])
            tips = [*panel_tips, klass, threshold_tip(alt_, "score")]
            mark = alt_.Chart().transform_filter(is_mark("point"))
            on_top = alt_.Order(field="_class", type="nominal", sort="ascending")  # positives
            layers = [
                mark.mark_circle(size=12, opacity=0.7).encode(
                    x, y, color=hue, order=on_top, tooltip=tips
                )
            ]
            for klass_name, offset in zip(CLASSES, (RUG - 10, 5), strict=True):
                rug = mark.transform_filter(f'datum._class === "{klass_name}"')
                rug = rug.mark_tick(thickness=1, size=8, opacity=0.6)
                layers.append(rug.encode(x, y=alt_.value(height - offset), color=hue))
            layer = layers
        else:
            data = combine(point=strip_rows(rows, names, share, seed))
            y = nominal(alt_, "Y", "_class", title="class", sort=CLASSES)
            offset = quantitative(alt_, "YOffset", "_jitter", scale=alt_.Scale(domain=[-1.5, 1.5]))
            tips = [*panel_tips, klass, threshold_tip(alt_, "score")]
            mark = alt_.Chart().transform_filter(is_mark("point"))
            layer = mark.mark_circle(size=14, opacity=0.5).encode(
                x_score, y, yOffset=offset, color=hue, tooltip=tips
            )
        parts = layer if isinstance(layer, list) else [layer]
        chart = alt_.layer(*parts, data=data).properties(width=width, height=height)
        charts.append(panels.apply(alt_, chart))
    if len(charts) == 1:
        return charts[0]
    return cast("alt.HConcatChart", alt_.hconcat(*charts))
