"""Plumbing shared by the chart builders: the lazy Altair import, JSON-safe data, panels, labels.

Every builder puts all its layers' rows in one frame, told apart by a ``_mark`` column, so a
layered chart can be faceted (Vega-Lite facets need the data at the top level) and so shared
rows (the chance diagonal, label text) exist once per panel.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import polars as pl
from polars.exceptions import ColumnNotFoundError

from polars_roc._core.columns import groups as registered_groups
from polars_roc.charts._layout import FONT, Panel, Placed, Plot, text_width
from polars_roc.charts.style import (
    COUNT_FORMAT,
    RATE_FORMAT,
    SMALL_FORMAT,
    color_domain,
    color_range,
    text_column,
    threshold_text,
)

if TYPE_CHECKING:
    import altair as alt

#: Threshold and score columns a chart's data also holds as printed text (see
#: :func:`printed`): tooltips show the text, as the report's tables print it.
PRINTED = ("threshold", "bin_start", "bin_end", "score", "mean_score", "min_score", "max_score")

#: At most this many point labels in a panel (more would crowd it: tooltips only).
MAX_POINT_LABELS = 20
FPR_TITLE = "False positive rate (1 − specificity)"
TPR_TITLE = "True positive rate (sensitivity)"


def altair() -> Any:
    """
    Import Altair on first use, with a clear message when it is missing.

    Raises
    ------
    ModuleNotFoundError
        Altair is not installed.
    """
    try:
        import altair as alt
    except ImportError as error:
        msg = (
            "polars_roc.charts needs altair (>= 5.4), which is not installed"
            "\n\nHint: pip install altair (and vl-convert-python to save PNG/SVG)."
        )
        raise ModuleNotFoundError(msg) from error
    return alt


def require(frame: pl.DataFrame, columns: Sequence[str], what: str, hint: str) -> None:
    """Raise ColumnNotFoundError when `frame` lacks one of `columns`."""
    if not isinstance(frame, pl.DataFrame):
        msg = (
            f"{what} must be an eager polars DataFrame, got {type(frame).__name__}"
            f"\n\nHint: {hint} (call .collect() on a LazyFrame)."
        )
        raise TypeError(msg)
    missing = [name for name in columns if name not in frame.columns]
    if missing:
        msg = f"{what} has no column(s) {missing}; it has {frame.columns}\n\nHint: {hint}."
        raise ColumnNotFoundError(msg)


def groups(frame: pl.DataFrame, known: Sequence[str]) -> list[str]:
    """
    The group (`by`) columns of a `.roc` frame whose outputs are `known` (the registry's).

    Every column that is not an output, an interval of one (``x_se, x_lower, x_upper``) or
    internal: see :func:`polars_roc._core.columns.groups`.
    """
    return registered_groups(frame.columns, known)


def check_roles(by: Sequence[str], what: str, **roles: str | None) -> None:
    """Each given role (color=, facet=, ...) must name one of the frame's group columns."""
    for role, name in roles.items():
        if name is not None and name not in by:
            msg = (
                f"{role}={name!r} is not a group column of the {what} frame; its group "
                f"columns are {list(by)}\n\nHint: compute the frame with by=[..., {name!r}] "
                f"or pass {role}= one of {list(by)}."
            )
            raise ColumnNotFoundError(msg)


def default_color(by: Sequence[str], color: str | None, *taken: str | None) -> str | None:
    """
    The colour role: `color` when given, else the first group column no panel role takes.

    Without it every group of a chart would draw in one colour with no legend.

    Examples
    --------
    >>> default_color(["model", "segment"], None), default_color(["model"], None, "model")
    ('model', None)
    >>> default_color(["model", "segment"], "segment"), default_color([], None)
    ('segment', None)
    """
    if color is not None:
        return color
    return next((name for name in by if name not in taken), None)


def finite(frame: pl.DataFrame) -> pl.DataFrame:
    """Map NaN and ±inf to null in every float column: JSON has no Infinity or NaN."""
    floats = [name for name, dtype in frame.schema.items() if dtype.is_float()]
    return frame.with_columns(
        pl.when(pl.col(c).is_finite()).then(pl.col(c)).alias(c) for c in floats
    )


def field(name: str) -> str:
    """A column name as a Vega-Lite field: dots and brackets escaped (they mean nesting)."""
    return name.replace("\\", "\\\\").replace(".", "\\.").replace("[", "\\[").replace("]", "\\]")


def datum(name: str) -> str:
    """A column as a Vega expression, e.g. ``datum["fpr"]``."""
    return f"datum[{json.dumps(name)}]"


def is_mark(name: str) -> str:
    """Vega filter expression selecting the rows of one layer."""
    return f'datum._mark === "{name}"'


def nominal(alt: Any, channel: str, name: str, **kwargs: Any) -> Any:
    """A nominal encoding of a column, built without Altair's shorthand parsing."""
    return getattr(alt, channel)(field=field(name), type="nominal", **kwargs)


def quantitative(alt: Any, channel: str, name: str, **kwargs: Any) -> Any:
    """A quantitative encoding of a column, built without Altair's shorthand parsing."""
    return getattr(alt, channel)(field=field(name), type="quantitative", **kwargs)


def tooltips(alt: Any, frame: pl.DataFrame, by: Sequence[str], names: Sequence[str]) -> list[Any]:
    """Tooltip channels: the group columns, then those of `names` the frame has."""
    out = [alt.Tooltip(field=field(name), type="nominal") for name in by]
    for name in names:
        if name not in frame.columns:
            continue
        if name in PRINTED:
            out.append(threshold_tip(alt, name))
            continue
        if name in ("tp", "fp", "tn", "fn", "n_pos", "n_neg"):
            fmt = COUNT_FORMAT
        elif name in ("auc_se", "pauc"):
            fmt = SMALL_FORMAT  # small numbers: one more decimal, as in the report's tables
        else:
            fmt = RATE_FORMAT
        out.append(alt.Tooltip(field=field(name), type="quantitative", format=fmt))
    return out


def threshold_tip(alt: Any, name: str, title: str | None = None) -> Any:
    """The tooltip of a threshold or score column: its text (:func:`printed`), 4 digits."""
    return alt.Tooltip(field=text_column(name), type="nominal", title=title or name)


def printed(frame: pl.DataFrame) -> pl.DataFrame:
    """
    `frame` with the text of each of its :data:`PRINTED` columns (``_text_<name>``).

    The text is :func:`polars_roc.charts.style.threshold_text`'s: 4 significant digits,
    scientific below 1e-3, ``+inf`` / ``−inf`` for the infinite ends.
    """
    columns = []
    for name in PRINTED:
        if name not in frame.columns or not frame.schema[name].is_numeric():
            continue
        values = frame[name].cast(pl.Float64)
        distinct = values.drop_nulls().unique().to_list()
        texts = {value: threshold_text(value) for value in distinct}
        columns.append(
            values.replace_strict(texts, default=None, return_dtype=pl.String).alias(
                text_column(name)
            )
        )
    return frame.with_columns(columns) if columns else frame


@dataclass(frozen=True)
class Panels:
    """The faceting roles of a chart: a wrapped `facet`, or a `row` / `column` grid."""

    facet: str | None = None
    row: str | None = None
    column: str | None = None
    columns: int | None = None

    def __post_init__(self) -> None:
        if self.facet is not None and (self.row is not None or self.column is not None):
            msg = (
                f"give facet={self.facet!r} or row=/column=, not both"
                "\n\nHint: facet= wraps panels in rows of `columns`; row=/column= make a grid."
            )
            raise ValueError(msg)

    @property
    def names(self) -> list[str]:
        """The columns that split the chart into panels."""
        return [name for name in (self.facet, self.row, self.column) if name is not None]

    def ragged(self, data: Any) -> bool:
        """
        Whether the wrapped panels leave cells of their last row empty.

        Vega-Lite draws a shared x-axis under every column of a wrapped facet, empty cells
        included; a ragged grid gives each panel its own x-axis instead, so empty cells stay
        blank.
        """
        if self.facet is None or self.columns is None or not isinstance(data, pl.DataFrame):
            return False
        if self.facet not in data.columns:
            return False
        n_panels = data.get_column(self.facet).n_unique()
        return n_panels > self.columns and n_panels % self.columns != 0

    def apply(self, alt_: Any, chart: Any) -> alt.LayerChart | alt.FacetChart:
        """Facet `chart` (whose data sits at the top level) by the panel roles, if any."""
        if self.facet is not None:
            columns = alt_.Undefined if self.columns is None else self.columns
            chart = chart.facet(facet=nominal(alt_, "Facet", self.facet), columns=columns)
            if self.ragged(chart.data):  # each panel draws its own FPR axis
                chart = chart.resolve_axis(x="independent")
        else:
            roles = {}
            if self.row is not None:
                roles["row"] = nominal(alt_, "Row", self.row)
            if self.column is not None:
                roles["column"] = nominal(alt_, "Column", self.column)
            chart = chart.facet(**roles) if roles else chart
        return cast("alt.LayerChart | alt.FacetChart", chart)


def per_panel(rows: pl.DataFrame, source: pl.DataFrame, panels: Sequence[str]) -> pl.DataFrame:
    """Repeat `rows` (e.g. the chance diagonal) once for every panel present in `source`."""
    if not panels:
        return rows
    return source.select(panels).unique(maintain_order=True).join(rows, how="cross")


def numbered(frame: pl.DataFrame) -> pl.DataFrame:
    """`frame` with its row number in ``_order``, for :func:`row_order`."""
    return frame.with_row_index("_order")


def row_order(alt: Any) -> Any:
    """
    Draw a line through its rows in the frame's row order (see :func:`numbered`).

    One field: Vega-Lite drops an ``order`` channel given as a list of fields (with a
    console warning) and then sorts line points by x, which scrambles vertical steps.
    """
    return alt.Order(field="_order", type="quantitative")


def combine(**layers: pl.DataFrame | None) -> pl.DataFrame:
    """One JSON-safe frame holding every layer's rows, tagged by a ``_mark`` column."""
    parts = [
        frame.with_columns(_mark=pl.lit(name))
        for name, frame in layers.items()
        if frame is not None and frame.height > 0
    ]
    if not parts:
        return pl.DataFrame({"_mark": []}, schema={"_mark": pl.String})
    return finite(printed(pl.concat(parts, how="diagonal_relaxed")))


def js_key(value: Any) -> str:
    """The string JavaScript makes of a legend value when it indexes an object."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    return str(value)


def legend_labels(labels: Mapping[Any, str]) -> str:
    """A Vega label expression replacing each legend value's label by ``labels[value]``."""
    table = json.dumps({js_key(key): text for key, text in labels.items()})
    return f"{table}[datum.value] || datum.label"


@dataclass(frozen=True)
class Labels:
    """Where per-group texts (AUC, pAUC, AP) go: into the legend, or as text in each panel."""

    #: Vega label expression for the color legend, when each color value has one text.
    legend: str | None
    #: Color values in the order the legend lists them.
    order: list[Any] | None
    #: Text rows (``_text, _align`` and the axis fields at the text's top corner, plus the
    #: group columns) to draw inside the panels; None when there are none.
    rows: pl.DataFrame | None


def _named_text(
    summary: pl.DataFrame, by: Sequence[str], panels: Sequence[str], column: str = "_text"
) -> pl.Series:
    """Each group's text, prefixed by the group columns that the panels do not show."""
    named = [name for name in by if name not in panels]
    if not named:
        return summary[column].alias("_text")
    prefix = pl.concat_str(
        [pl.col(name).cast(pl.String).fill_null("null") for name in named], separator=" · "
    )
    text = pl.concat_str([prefix, pl.lit(" ("), pl.col(column), pl.lit(")")])
    return summary.select(text.alias("_text")).to_series()


def _fitting_text(
    summary: pl.DataFrame, by: Sequence[str], panels: Sequence[str], room: float
) -> pl.Series:
    """
    The groups' texts in the first form in which they all fit in `room` pixels.

    The forms: the full texts named by their groups, else the short ones (``_short``)
    named, else the short ones alone (the colours name the groups).
    """
    choices = [_named_text(summary, by, panels)]
    if "_short" in summary.columns:
        choices.append(_named_text(summary, by, panels, "_short"))
        choices.append(summary["_short"])
    for texts in choices:  # one form for every group, the first in which all fit
        if all(text_width(text) <= room for text in texts):
            return texts.alias("_text")
    return choices[-1].alias("_text")


def _split(frame: pl.DataFrame, keys: Sequence[str]) -> dict[tuple[Any, ...], pl.DataFrame]:
    """A frame's rows per panel (in order of first appearance)."""
    if not keys:
        return {(): frame}
    return {
        tuple(key): part
        for key, part in frame.partition_by(list(keys), as_dict=True, maintain_order=True).items()
    }


def place_labels(
    summary: pl.DataFrame | None,
    *,
    by: Sequence[str],
    color: str | None,
    panels: Sequence[str],
    plot: Plot,
    fields: tuple[str, str],
    align: str = "right",
    span: tuple[float, float] | None = None,
    points: pl.DataFrame | None = None,
    top: bool = False,
) -> Labels:
    """
    Lay out the per-group texts of `summary` and the point labels of `points`, never overlapping.

    A group's text (``_text``) goes in its legend label when colour alone tells the groups
    apart; otherwise each panel gets its groups' texts as stacked lines (see
    :mod:`polars_roc.charts._layout`), named by the group columns the panels do not show.
    When a panel's lines do not all fit, that panel shows none (the legend, the tooltips and
    the tables still give the numbers). `points` (``*by``, the two `fields`, ``_text``) get
    their text next to the point (within :data:`~polars_roc.charts._layout.NEAR` pixels),
    or none when there is no free place there.
    With `top` the lines stack down from the panel's top instead of up from its bottom.
    """
    legend = order = None
    stacked = summary is not None
    if summary is not None and color is not None and summary[color].n_unique() == summary.height:
        values, texts = summary[color].to_list(), summary["_text"].to_list()
        labels = {v: f"{js_key(v)} ({text})" for v, text in zip(values, texts, strict=True)}
        legend, order = legend_labels(labels), values
        stacked = False
    keys = list(panels)
    room = Panel(plot, align=align, span=span, top=top).room
    lines = (
        _split(summary.with_columns(_text=_fitting_text(summary, by, panels, room)), keys)
        if stacked and summary is not None
        else {}
    )
    marked = _split(points, keys) if points is not None and points.height else {}
    out: list[dict[str, Any]] = []
    x_name, y_name = fields
    told = {color, *panels} if color is not None else set(panels)
    unnamed = [name for name in by if name not in told]
    for key in dict.fromkeys([*lines, *marked]):
        panel = Panel(plot, align=align, span=span, top=top)
        mine = marked.get(key)
        if mine is not None:
            panel.keep_clear(list(mine.select(x_name, y_name).iter_rows()))
        group_texts = lines.get(key)
        if group_texts is not None:
            # Stacked upwards (downwards from the top), so the best (first) line is on top.
            rows = list(group_texts.iter_rows(named=True))
            rows = rows if top else rows[::-1]
            spots = [panel.stack(i, row["_text"]) for i, row in enumerate(rows)]
            placed = [spot for spot in spots if spot is not None]
            if len(placed) == len(rows):
                out += [
                    _text_row(row, spot, by, fields, align)
                    for row, spot in zip(rows, placed, strict=True)
                ]
            else:  # not every line fits: none, rather than some groups only
                panel = Panel(plot, align=align, span=span, top=top)
                if mine is not None:
                    panel.keep_clear(list(mine.select(x_name, y_name).iter_rows()))
        if mine is None or mine.height > MAX_POINT_LABELS:
            continue
        for i, row in enumerate(mine.iter_rows(named=True)):
            if row[x_name] is None or row[y_name] is None:
                continue
            if unnamed:  # a text says whose it is unless its colour and panel do
                prefix = " · ".join(js_key(row[name]) for name in unnamed)
                row = {**row, "_text": f"{prefix}: {row['_text']}"}
            # Beside its point or not at all (the point keeps its tooltip): a label far
            # from its dot, e.g. stacked in a corner, reads as belonging to nothing.
            spot = panel.near(i, row["_text"], (row[x_name], row[y_name]))
            if spot is not None:
                out.append(_text_row(row, spot, by, fields, "left"))
    rows_frame = None
    if out:
        schema = {name: summary_dtype(summary, points, name) for name in by}
        rows_frame = pl.DataFrame(
            out,
            schema={
                **schema,
                x_name: pl.Float64,
                y_name: pl.Float64,
                "_text": pl.String,
                "_align": pl.String,
            },
        )
    return Labels(legend, order, rows_frame)


def summary_dtype(summary: pl.DataFrame | None, points: pl.DataFrame | None, name: str) -> Any:
    """The dtype of group column `name` in whichever frame has it."""
    for frame in (summary, points):
        if frame is not None and name in frame.columns:
            return frame.schema[name]
    return pl.String


def _text_row(
    row: dict[str, Any], spot: Placed, by: Sequence[str], fields: tuple[str, str], align: str
) -> dict[str, Any]:
    """A text row at its place: right-aligned texts are anchored at their box's right edge."""
    out = {name: row.get(name) for name in by}
    out.update({fields[0]: spot.x, fields[1]: spot.y, "_text": row["_text"], "_align": align})
    return out


def label_layer(
    alt: Any, x: Any, y: Any, color: Any, limit: float, rows: pl.DataFrame | None = None
) -> list[Any]:
    """Text marks for the rows that :func:`place_labels` laid out (left- and right-aligned)."""
    style = {"color": color} if color is not None else {}
    text = alt.Text(field="_text", type="nominal")
    layers = []
    aligns = ("left", "right") if rows is None else sorted(set(rows["_align"].to_list()))
    for align in aligns:
        marks = alt.Chart().transform_filter(f"{is_mark('label')} && datum._align === '{align}'")
        mark = marks.mark_text(align=align, baseline="top", fontSize=FONT, limit=limit)
        layers.append(mark.encode(x, y, text=text, **style))
    return layers


def color_scale(alt: Any, frame: pl.DataFrame, color: str) -> Any:
    """
    The colour scale of a group column: its sorted values, each with its fixed colour.

    Built from the frame's values (see :func:`polars_roc.charts.style.color_domain`), so
    every chart of the same groups gives a group the same colour, whatever order the rows,
    the legend or the AUCs are in.
    """
    domain: list[Any] = color_domain(frame, column=color)
    if has_null_groups(frame, color):  # named "null" in the chart, after the others
        domain = [*(js_key(value) for value in domain), "null"]
    if not domain:
        return alt.Undefined
    return alt.Scale(domain=domain, range=color_range(domain))


def has_null_groups(frame: pl.DataFrame | None, color: str | None) -> bool:
    """Whether `frame` holds a group whose `color` key is null (see :func:`named_nulls`)."""
    return (
        frame is not None
        and color is not None
        and color in frame.columns
        and frame[color].null_count() > 0
    )


def named_nulls(chart: Any, color: str | None, frame: pl.DataFrame | None) -> Any:
    """
    `chart` with a null `color` key drawn as the group ``"null"``, in its own colour.

    A colour scale's domain cannot hold null, and a value outside the domain gets no
    colour: such a group's curve was not drawn, and the legend left it out. With a null
    key in `frame`, the chart's rows take the key as text (as JavaScript writes it, so
    the legend's texts keyed by :func:`js_key` still match) and null as ``"null"``; the
    colour scale (:func:`color_scale`) and the legend (:func:`color_channel`) list it last.
    """
    if not has_null_groups(frame, color):
        return chart
    key = datum(str(color))
    return chart.transform_calculate(as_=color, calculate=f"{key} === null ? 'null' : '' + {key}")


def color_channel(
    alt: Any, color: str | None, labels: Labels | None, frame: pl.DataFrame | None = None
) -> dict[str, Any]:
    """
    The color encoding on the fixed scale of `frame`'s groups.

    When the legend carries the groups' texts, it lists them in the labels' order (best
    first); the colours stay those of the sorted domain.
    """
    if color is None:
        return {}
    scale = alt.Undefined if frame is None else color_scale(alt, frame, color)
    if labels is not None and labels.legend is not None:
        order = [value for value in labels.order or [] if value is not None]
        if has_null_groups(frame, color):  # keys as text, the null group last
            order = [*(js_key(value) for value in order), "null"]
        legend = alt.Legend(labelExpr=labels.legend, labelLimit=400, values=order)
        return {"color": nominal(alt, "Color", color, legend=legend, scale=scale)}
    return {"color": nominal(alt, "Color", color, scale=scale)}


def chance_line(alt: Any, x: Any, y: Any) -> Any:
    """The dashed grey chance line through the rows tagged ``chance``."""
    chance = alt.Chart().transform_filter(is_mark("chance"))
    return chance.mark_line(color="gray", strokeDash=[4, 4], strokeWidth=1).encode(x, y)


def apart(alt: Any, by: Sequence[str], color: str | None, panels: Panels) -> dict[str, Any]:
    """Keep apart the groups that neither the colour nor the panels tell apart."""
    return detail(alt, [name for name in by if name != color and name not in panels.names])


def detail(alt: Any, names: Sequence[str]) -> dict[str, Any]:
    """Keep groups apart that no other channel tells apart (one line each)."""
    if not names:
        return {}
    return {"detail": [alt.Detail(field=field(name), type="nominal") for name in names]}


def fmt(value: float | None, digits: int = 3) -> str:
    """A number for a label, or "undefined" for null."""
    return "undefined" if value is None else f"{value:.{digits}f}"
