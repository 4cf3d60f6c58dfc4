"""
The HTML of the report page: tables, captions, sections, the page template and its scripts.

How the page gets Vega (inline, cached between runs, or from a CDN):
:mod:`polars_roc.report._vega`.

Numbers print as the charts print them (:mod:`polars_roc.charts.style`): thresholds to 4
significant digits, rates to 3 decimals.

Examples
--------
>>> from polars_roc.report._page import HEADINGS
>>> HEADINGS["roc"]
'ROC curves'
"""

from __future__ import annotations

import datetime
import html
import json
import math
from collections.abc import Callable, Collection
from functools import partial
from typing import Any

import polars as pl

from polars_roc._core.columns import CURVE, interval
from polars_roc.charts.style import rate_text, threshold_text
from polars_roc.report import _business as report_business
from polars_roc.report import _comparison as report_comparison
from polars_roc.report import _decisions as report_decisions
from polars_roc.report import _segments as report_segments
from polars_roc.report import _slices as report_slices
from polars_roc.report import _survival as report_survival  # survival horizons
from polars_roc.report._data import CI_NAMES, ReportData
from polars_roc.report._figures import ZOOM_ABOVE, fpr_zoom, merge_groups
from polars_roc.report._text import key_cell
from polars_roc.report.options import ReportOptions


def spec_script(key: str, spec: dict[str, Any]) -> str:
    """A chart's spec in a JSON script element the page's embed script reads."""
    return f'<script type="application/json" id="spec-{key}">{spec_json(spec)}</script>'


#: Characters escaped inside a JSON block: no markup (``<!--``, ``</script``) can appear in
#: it, so the HTML parser ends it only at its own closing tag; U+2028/9 for
#: JavaScript parsers that take them as line ends.
JSON_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def spec_json(spec: dict[str, Any]) -> str:
    r"""
    A spec as JSON that is safe inside <script> (strict JSON: no NaN or Infinity).

    ``<``, ``>``, ``&`` and U+2028/9 only occur inside JSON strings, where their ``\u``
    escapes mean the same characters.

    Examples
    --------
    >>> spec_json({"name": "<!--<script>"})
    '{"name":"\\u003c!--\\u003cscript\\u003e"}'
    """
    text = json.dumps(spec, allow_nan=False, separators=(",", ":"))
    return text.translate(JSON_ESCAPES)


def meta(data: ReportData, source: str | None) -> str:
    """The page header's line of facts: data, roles, intervals, range, cutpoint, date."""
    roles = data.roles
    pos_label = roles["pos_label"]
    kind, (lo, hi) = roles["range"]
    items = [
        ("data", source or "a LazyFrame"),
        ("rows", f"{data.n_rows:,}"),
        ("score", roles["score"] + (" (lower means positive)" if _lower(roles) else "")),
        ("label", roles["label"]),
        ("positive class", "True / 1" if pos_label is None else repr(pos_label)),
        ("weight", roles["weight"] or "none"),
        ("groups", ", ".join(roles["by"]) or "none"),
        ("intervals", _intervals(roles)),
        ("pAUC range", f"{kind.upper()} {lo:g} to {hi:g}"),
        ("cutpoint", _cutpoint(roles)),
        ("generated", datetime.date.today().isoformat()),
    ]
    if roles["label"] is None:  # a survival report: no class label, no cutpoint
        survived = data.survival
        items = [
            *items[:3],
            ("label", "none: a survival report (AUC(t) from time to event and event)"),
            ("time to event", survived.time),
            ("event", survived.event),
            *items[5:7],
            ("intervals", _intervals(roles) if roles["ci"] == "bootstrap" else "none"),
            items[-1],
        ]
    classes = roles.get("classes")
    if classes:  # multiclass: cases, not stacked rows; the score columns
        items = _class_meta(data.n_rows, roles, classes) + items[7:]
        items.insert(0, ("data", source or "a LazyFrame"))
    return "".join(f"<span><b>{html.escape(k)}</b> {html.escape(str(v))}</span>" for k, v in items)


def _class_meta(
    n_rows: int, roles: dict[str, Any], classes: dict[str, Any]
) -> list[tuple[str, str]]:
    """
    The header's roles for stacked one-vs-rest rows: cases, label, score columns, groups.

    Each case is one stacked row per class, so the cases are the rows over the classes.

    Examples
    --------
    >>> classes = {"column": "class", "label": "y", "scores": {"a": "p_a", "b": "p_b"}}
    >>> roles = {"by": ["class"], "weight": None}
    >>> _class_meta(10, roles, classes)[:2]
    [('cases', '5 (each scored for 2 classes)'), ('label', 'y (each class against the rest)')]
    """
    scores: dict[str, str] = classes["scores"]
    cases = n_rows // max(len(scores), 1)
    others = [name for name in roles["by"] if name != classes["column"]]
    return [
        ("cases", f"{cases:,} (each scored for {len(scores)} classes)"),
        ("label", f"{classes['label']} (each class against the rest)"),
        ("scores", ", ".join(f"{name}: {column}" for name, column in scores.items())),
        ("weight", roles["weight"] or "none"),
        ("groups", ", ".join(["class", *others])),
    ]


def _lower(roles: dict[str, Any]) -> bool:
    """Whether the report ran with ``direction="lower"`` (a lower score means positive)."""
    return bool(roles.get("direction", "higher") == "lower")


def _percent(level: float) -> str:
    return f"{100 * level:g}%"


def _intervals(roles: dict[str, Any]) -> str:
    """The interval method as the header shows it, e.g. "DeLong 95%"."""
    if not roles["ci"]:
        return "none"
    text = f"{CI_NAMES[roles['ci']]} {_percent(roles['level'])}"
    if "n_boot" in roles:
        text += f" ({roles['n_boot']:,} replicates, seed {roles['seed']})"
    return text


def _cutpoint(roles: dict[str, Any]) -> str:
    """The cutpoint method as the header shows it, with its costs."""
    if "costs" not in roles:
        return str(roles["method"])
    cost_fp, cost_fn, prevalence = roles["costs"]
    weighed = "the data's prevalence" if prevalence is None else f"prevalence {prevalence:g}"
    return f"cost (false positive {cost_fp:g}, false negative {cost_fn:g}, {weighed})"


# ---------------------------------------------------------------------------------------------
# Tables and sections

_COUNTS = {"tp", "fp", "tn", "fn", "n_pos", "n_neg"}

_COLUMN_NAMES = {
    "auc": "AUC",
    "auc_se": "SE",
    "auc_lower": "lower",
    "auc_upper": "upper",
    "n_pos": "positives",
    "n_neg": "negatives",
    "pauc": "pAUC",
    "pauc_std": "standardized pAUC",
    "tpr": "TPR",
    "fpr": "FPR",
    "ppv": "PPV",
    "npv": "NPV",
    "f1": "F1",
    "youden": "Youden J",
    "accuracy": "accuracy",
    "detectable_auc": "detectable AUC (80% power)",
    # the segments' roll-up and disparity tables
    "pooled_auc": "pooled AUC",
    "within_auc": "within-segment AUC",
    "between": "between (pooled − within)",
    "mean_auc": "mean AUC",
    "ivw_auc": "IVW AUC",
    "ivw_lower": "IVW lower",
    "ivw_upper": "IVW upper",
    "q": "Cochran Q",
    "q_p_value": "Cochran p",
    "i2": "I²",
    "n_segments": "segments",
    "reference_estimate": "rest of the group",
    "diff": "difference",
    "diff_lower": "lower",
    "diff_upper": "upper",
    "ratio": "ratio",
    "p_value": "p",
    "p_adjusted": "adjusted p",
    # the weakest slices
    "slice": "slice",
    "auc_rest": "AUC of the rest",
    "gap": "gap (AUC − rest)",
    "gap_lower": "gap lower",
    "gap_upper": "gap upper",
    "closest_topleft": "distance to top-left",
}

#: Groups whose detectable AUC is above this (or undefined) are greyed in the AUC table.
DETECT_ABOVE = 0.9

#: The AUC table's line on its "detectable AUC" column.
DETECTABLE = (
    "Detectable AUC: the smallest AUC that a group with these positives and negatives "
    "would tell from chance (0.5) with 80% power at the 5% level (pROC power.roc.test)."
)

#: Columns of the best-cutpoint table shown on the page (of the threshold table's).
_CUTPOINT_COLUMNS = (*CURVE, "ppv", "npv", "accuracy", "f1", "youden")

#: Rates of the cutpoint table printed with their interval when it has one.
_RATES = ("tpr", "fpr", "ppv", "npv")

#: Every section's heading, in page order.
HEADINGS = {
    **report_survival.HEADINGS,  # survival horizons: first, the report's lead
    "auc": "AUC by group",
    "segments": "Segments",  # segments
    **report_slices.HEADINGS,
    "comparison": "Model comparison",
    "roc": "ROC curves",
    "pauc": "Partial AUC",
    "thresholds": "Best cutpoints",
    **report_business.HEADINGS,
    **report_decisions.HEADINGS,  # value and decisions
    "scores": "Score distributions",
    "explorer": "Threshold explorer",
}


#: Columns that are null when a group's curve is undefined; the cell says why.
_EXPLAINED = {"auc", "pauc", "pauc_std", *interval("auc")}


def why_blank(row: dict[str, Any]) -> str | None:
    """
    Why a group's AUC is null, from its class counts: no positives, no negatives, NaN score.

    Examples
    --------
    >>> why_blank({"n_pos": 0, "n_neg": 3}), why_blank({"n_pos": 2, "n_neg": 3})
    ('no positives', 'NaN score')
    """
    n_pos, n_neg = row.get("n_pos"), row.get("n_neg")
    if n_pos is None or n_neg is None:
        return None
    if not n_pos and not n_neg:
        return "no rows"
    if not n_pos:
        return "no positives"
    if not n_neg:
        return "no negatives"
    return "NaN score" if row.get("auc", row.get("pauc")) is None else None


#: Columns printed as p-values: 3 decimals, "<0.001" below.
_P_VALUES = ("p_value", "p_adjusted", "q_p_value")


def _cell(value: Any, column: str, why: str | None = None) -> str:
    if value is None and column == "detectable_auc":
        return (
            '<td class="null" title="no AUC below 1 is detectable at 80% power from these '
            'class counts">none</td>'
        )
    if value is None or (isinstance(value, float) and math.isnan(value)):
        if why is not None:
            reason = html.escape(why)
            return f'<td class="null" title="undefined: {reason}">— ({reason})</td>'
        return '<td class="null" title="undefined">—</td>'
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"<td>{html.escape(str(value))}</td>"
    if isinstance(value, float) and math.isinf(value):
        text = "+inf" if value > 0 else "−inf"
    elif column in _COUNTS:
        text = f"{value:,}" if isinstance(value, int) else f"{value:,.2f}"
    elif isinstance(value, int):
        text = f"{value:,}"
    elif column == "threshold":
        text = threshold_text(value)  # as the charts print it
    elif column in ("auc_se", "pauc"):
        text = f"{value:.4f}"
    elif column in _P_VALUES:  # a p-value below the printed digits is not 0: "<0.001"
        text = "&lt;0.001" if value < 0.001 else f"{value:.3f}"
    else:
        text = rate_text(value)
    return f'<td class="num">{text}</td>'


def interval_text(lower: Any, upper: Any) -> str:
    """
    An interval as the page prints it, e.g. ``"0.742–0.868"`` (a dash when undefined).

    Examples
    --------
    >>> interval_text(0.7421, 0.868), interval_text(None, None)
    ('0.742–0.868', '—')
    """
    if lower is None or upper is None:
        return "—"
    return f"{rate_text(lower)}–{rate_text(upper)}"


def _table(
    frame: pl.DataFrame,
    key: str,
    names: dict[str, str] | None = None,
    *,
    intervals: tuple[str, ...] = (),
    level: str = "95%",
    dim: pl.Series | None = None,
    keys: Collection[str] = (),
) -> str:
    """
    A frame as an HTML table; nulls show as a dash (undefined).

    The columns of `keys` (group columns) print their values as the data holds them
    (:func:`~polars_roc.report._text.key_text`), not as numbers.

    Each column of `intervals` with ``<column>_lower, <column>_upper`` in `frame` is
    followed by a column ``<header> <level> CI`` printing its bounds (the bound columns
    are not shown); the cells of rows where `dim` is true get the class ``dim`` (greyed).
    """
    headers = {**_COLUMN_NAMES, **(names or {})}
    paired = {c for c in intervals if f"{c}_lower" in frame.columns and f"{c}_upper" in frame}
    hidden = {f"{c}_{side}" for c in paired for side in ("lower", "upper")}
    shown = [c for c in frame.columns if c not in hidden]
    heads = []
    for c in shown:
        heads.append(headers.get(c, c))
        if c in paired:
            heads.append(f"{headers.get(c, c)} {level} CI")
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    flags = [False] * frame.height if dim is None else dim.fill_null(True).to_list()
    rows = []
    for row, flag in zip(frame.iter_rows(named=True), flags, strict=True):
        why = why_blank(row)
        cells = []
        for c in shown:
            if c in keys:
                cells.append(key_cell(row[c]))
                continue
            cells.append(_cell(row[c], c, why if c in _EXPLAINED else None))
            if c in paired:
                text = interval_text(row[f"{c}_lower"], row[f"{c}_upper"])
                cells.append(f'<td class="num ci">{text}</td>')
        if flag:  # on the cells, so a row stays a plain <tr>
            cells = [
                cell.replace('<td class="', '<td class="dim ', 1)
                if cell.startswith('<td class="')
                else cell.replace("<td", '<td class="dim"', 1)
                for cell in cells
            ]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "".join(rows)
    return f'<table id="{key}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _too_small(auc: pl.DataFrame) -> tuple[pl.Series | None, str]:
    """Which AUC rows are greyed (too few cases to detect an AUC below 0.9), and why."""
    if "detectable_auc" not in auc.columns:
        return None, ""
    detectable = auc["detectable_auc"]
    small = detectable.is_null() | (detectable > DETECT_ABOVE)
    if not small.any():
        return small, ""
    text = (
        f"Greyed: {small.sum():,} group(s) too small to tell an AUC below {DETECT_ABOVE:g} "
        "from chance (0.5) with 80% power at the 5% level; read their AUC with care. The "
        "detectable AUC is the smallest AUC the group's positives and negatives would show "
        "as better than chance (Obuchowski–McClish binormal variance, as pROC power.roc.test)."
    )
    return small, f'<p class="explain">{html.escape(text)}</p>'


def _chart(key: str, drawn: set[str]) -> str:
    if key not in drawn:
        return ""
    return f'<div class="chart" id="chart-{key}" data-spec="spec-{key}"></div>'


def _caption(text: str) -> str:
    return f'<p class="caption">{html.escape(text)}</p>'


def sections(data: ReportData, drawn: set[str]) -> list[tuple[str, str, str]]:
    """(key, heading, HTML) of each section, in page order."""
    roles = data.roles
    if roles["label"] is None:  # a survival report: AUC(t) alone
        return [survival_section(data, lambda k: _chart(k, drawn))]
    names: list[str] = roles["by"]
    keys = {*names, *roles.get("slices", [])}
    keys |= set() if data.segments is None else {data.segments.segment}
    keys |= set() if data.comparison is None else {"model_a", "model_b"}
    table = partial(_table, keys=keys)  # group keys print as the data holds them
    color = names[0] if names else None
    level = _percent(roles["level"])
    kind, (lo, hi) = roles["range"]
    has_ci = "auc_lower" in data.auc.columns
    auc_names = {"auc_lower": f"{level} CI lower", "auc_upper": f"{level} CI upper"}
    interval = (
        f"{CI_NAMES[roles['ci']]} {level} confidence intervals, clipped to [0, 1]. "
        if has_ci
        else "No confidence intervals. "
    )
    lines = f"one line per {color}" + (
        f", one panel per {', '.join(names[1:])}" if names[1:] else ""
    )
    small, small_note = _too_small(data.auc)
    marked = [c for c in _CUTPOINT_COLUMNS if c in data.best_threshold.columns]
    bounds = [
        f"{c}_{side}"
        for c in _RATES
        for side in ("lower", "upper")
        if f"{c}_{side}" in data.best_threshold.columns
    ]
    wilson = (
        f" Each rate is followed by its {level} Wilson interval (from the cutpoint's counts; "
        "weights read as frequencies)."
        if bounds
        else ""
    )
    zoom = fpr_zoom(data.auc)
    zoomed = (
        f" Every AUC is above {ZOOM_ABOVE:g}: the FPR axis shows {zoom[0]:g} to {zoom[1]:g} "
        "only, where the curves differ."
        if zoom is not None
        else ""
    )
    if roles.get("fpr_scale") == "log":
        zoomed = (
            " The FPR axis is on a log scale; it starts at the power of ten at or below the "
            "smallest non-zero FPR, where points with FPR = 0 are drawn."
        )
    if data.band is not None:
        zoomed += (
            f" The shaded band around each curve is its {level} bootstrap confidence band "
            f"of TPR at each FPR ({roles.get('n_boot', 0):,} replicates, seed "
            f"{roles.get('seed')})."
        )
    body = [
        (
            "auc",
            _caption(
                f"{interval}AUC is null (—) for a group without positives or negatives, or "
                "holding a NaN score; the cell says which. "
                "Weighted data show weight sums as class counts. "
                f"{DETECTABLE}"
            ),
            table(data.auc, "auc-table", auc_names, dim=small),
            small_note,
            _chart("auc", drawn),
        ),
        (
            "roc",
            _caption(
                f"{lines.capitalize() if names else 'The ROC curve'}, over the chance "
                f"diagonal. The dot marks the best cutpoint ({roles['method']}); hover a "
                f"curve for its threshold and counts.{zoomed}"
            ),
            _chart("roc", drawn),
        ),
        (
            "pauc",
            _caption(
                f"Area under the curve over {kind.upper()} {lo:g} to {hi:g} (shaded), raw "
                "and McClish-standardized (0.5 = chance, 1 = perfect)."
            ),
            table(data.partial_auc, "pauc-table"),
            _chart("pauc", drawn),
        ),
        (
            "thresholds",
            _caption(
                f"The best cutpoint of each group ({roles['method']}), predicting positive "
                f"when score {'≤' if _lower(roles) else '≥'} threshold; the chart shows the "
                f"measures against the threshold.{wilson}"
            ),
            table(
                data.best_threshold.select(*names, *marked, *bounds),
                "cutpoint-table",
                intervals=_RATES,
                level=level,
            ),
            _chart("thresholds", drawn),
        ),
        (
            "scores",
            _caption(
                "Scores of each class in 40 shared bins, from every row (weight sums when "
                "weighted). Where the classes overlap, no threshold separates them: that "
                "overlap is what the ROC curve measures."
            ),
            _chart("scores", drawn),
        ),
        (
            "explorer",
            _caption(
                "Move the threshold slider: the points show each curve's operating point at "
                "that threshold, the table its confusion counts and rates."
            ),
            _chart("explorer", drawn),
        ),
    ]
    out = []
    # Two single-panel charts share a row of the page (ROC beside partial AUC).
    half = {"roc", "pauc"} if len(names) <= 1 else set()
    for key, *parts in body:
        heading = HEADINGS[key]
        wide = ' class="half"' if key in half else ""
        title = f"<h2>{html.escape(heading)}</h2>"
        html_ = f'<section id="{key}"{wide}>{title}{"".join(parts)}</section>'
        out.append((key, heading, html_))
    business = report_business.sections(
        table=None if data.gains is None else merge_groups(data.gains, names),
        gains_bins=roles.get("gains_bins", ReportOptions.gains_bins),
        calibration_bins=roles.get("calibration_bins"),
        skip=roles.get("calibration_skipped"),
        names=names[:2],
        chart=lambda key: _chart(key, drawn),
        lower=_lower(roles),
        fit=None if data.calibration_fit is None else merge_groups(data.calibration_fit, names),
        level=level,
    )
    at = next(i for i, (key, _, _) in enumerate(out) if key == "scores")
    out[at:at] = business
    decided = report_decisions.sections(  # value and decisions
        data.decisions, names[:2], roles, lambda key: _chart(key, drawn)
    )
    out[at + len(business) : at + len(business)] = decided
    if data.segments is not None:  # segments: after "AUC by group"
        body_ = report_segments.section(data.segments, names, table, lambda key: _chart(key, drawn))
        section = f'<section id="segments"><h2>Segments</h2>{body_}</section>'
        out.insert(1, ("segments", HEADINGS["segments"], section))
    if data.slices is not None:  # after "Segments"
        features = roles.get("slices", [])
        body_ = report_slices.section(data.slices, features, table, lambda k: _chart(k, drawn))
        section = f'<section id="slices"><h2>{HEADINGS["slices"]}</h2>{body_}</section>'
        out.insert(1 + (data.segments is not None), ("slices", HEADINGS["slices"], section))
    if data.comparison is not None:  # after AUC, Segments and Slices
        body_ = report_comparison.section(data.comparison, table, level)
        section = f'<section id="comparison"><h2>{HEADINGS["comparison"]}</h2>{body_}</section>'
        at = 1 + (data.segments is not None) + (data.slices is not None)
        out.insert(at, ("comparison", HEADINGS["comparison"], section))
    if data.survival is not None:  # survival horizons: the report leads with AUC(t)
        out.insert(0, survival_section(data, lambda k: _chart(k, drawn)))
    return out


def survival_section(data: ReportData, chart: Callable[[str], str]) -> tuple[str, str, str]:
    """(key, heading, HTML) of the "Survival horizons" section."""
    body = report_survival.section(data.survival, data.roles["by"], chart)
    section = f'<section id="survival"><h2>{HEADINGS["survival"]}</h2>{body}</section>'
    return "survival", HEADINGS["survival"], section


# ---------------------------------------------------------------------------------------------
# Page

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       margin: 0 auto; max-width: 1340px; padding: 0 24px 48px; }
h1 { margin: 24px 0 4px; font-size: 24px; }
h2 { margin: 32px 0 8px; font-size: 18px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.meta span { display: inline-block; margin: 0 16px 4px 0; color: #555; }
.meta b { color: #222; font-weight: 600; }
nav { margin: 8px 0 16px; }
nav a { color: #1f5fa8; text-decoration: none; }
.note { background: #fff8e1; border-left: 4px solid #f0b400; padding: 6px 10px; margin: 6px 0; }
.caption { color: #555; margin: 4px 0 8px; max-width: 900px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 6px; border-bottom: 1px solid #eee; text-align: left; font-size: 13px; }
th { background: #f5f5f5; font-weight: 600; }
td.num { text-align: right; }
td.null { color: #999; text-align: center; }
td.dim { color: #aaa; }
td.ci { color: #555; }
.explain { color: #777; font-size: 13px; margin: -8px 0 12px; }
details { margin: 4px 0; }
summary { cursor: pointer; color: #1f5fa8; }
table.gains { margin: 4px 0 10px; }
tbody tr:hover { background: #f8fbff; }
.chart { margin: 8px 0 16px; overflow-x: auto; }
.chart svg { max-width: 100%; height: auto; }
main { display: flex; flex-wrap: wrap; column-gap: 32px; }
main > * { flex: 1 1 100%; min-width: 0; }
main > section.half { flex: 1 1 calc(50% - 16px); }
@media (max-width: 1100px) { main > section.half { flex-basis: 100%; } }
.chart.error { color: #b00020; white-space: pre-wrap; }
footer { margin-top: 40px; color: #777; font-size: 12px; }
"""

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="polars-roc {version}">
<title>{title}</title>
<style>{style}</style>
{scripts}
</head>
<body>
<header>
<h1>{title}</h1>
<div class="meta">{meta}</div>
<nav>{nav}</nav>
{notes}
</header>
<main>
{sections}
</main>
<footer>Generated by polars-roc {version}. Charts drawn with Vega, Vega-Lite and vega-embed
(BSD-3-Clause, University of Washington Interactive Data Lab and contributors).</footer>
{specs}
<script>{embed}</script>
</body>
</html>
"""

# Draw every chart; a chart that fails shows its error in its place (and on the console).
EMBED = """
(function () {
  var options = {renderer: "svg", actions: {export: true, source: false, compiled: false,
                 editor: false}};
  document.querySelectorAll("div.chart[data-spec]").forEach(function (div) {
    function fail(error) {
      div.classList.add("error");
      div.setAttribute("data-status", "error");
      div.textContent = "This chart could not be drawn: " + error;
      console.error(error);
    }
    if (typeof vegaEmbed !== "function") {
      fail("Vega is not loaded (the page loads it from a CDN: is the network reachable?)");
      return;
    }
    try {
      var spec = JSON.parse(document.getElementById(div.getAttribute("data-spec")).textContent);
      vegaEmbed(div, spec, options).then(function () {
        div.setAttribute("data-status", "rendered");
      }).catch(fail);
    } catch (error) {
      fail(error);
    }
  });
})();
"""
