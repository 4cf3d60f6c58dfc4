"""
A self-contained HTML report of scored data: AUC table, curves, pAUC, cutpoints and scores.

:func:`compute` runs the report's queries on a LazyFrame, each one a lazy query collected
once (a scanned file is streamed, never loaded whole), and returns the small frames and the
charts a report shows; :func:`render` lays them out as one HTML page; :func:`to_html` does
both.

How the page gets Vega: with ``vl-convert-python`` installed, the page embeds Vega, Vega-Lite
and vega-embed inline (``vl_convert.javascript_bundle()``, about 0.9 MB, the bundle Altair's
``inline=True`` uses), so it opens offline and stays the same for years. Without it, the page
loads them from the jsDelivr CDN (the versions Altair targets) and says so at the top.
``js="inline"`` makes a missing ``vl-convert-python`` an error; ``js="cdn"`` always links.

Large data: curves with more than :data:`MAX_CURVE_POINTS` distinct (group, score) pairs are
drawn from :data:`CURVE_QUANTILES` thresholds per group at evenly spaced quantiles of the
negative scores (exact counts at each; FPR steps of about ``1 / CURVE_QUANTILES`` between
drawn points), and the charts thin what they draw (see :mod:`polars_roc.charts`). The AUC,
pAUC and best-cutpoint tables always use every row.

Examples
--------
>>> import polars_roc as pr
>>> lf = pr.datasets.simulate(500, seed=1).lazy()
>>> page = pr.report.to_html(lf, by=["model", "segment"], js="cdn")
>>> page.startswith("<!DOCTYPE html>") and 'id="auc-table"' in page
True
"""

from __future__ import annotations

import datetime
import html
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any, Literal

import polars as pl

from polars_roc import areas, charts, curves, report_figures
from polars_roc import thresholds as cutpoints
from polars_roc._core import validate
from polars_roc._core.validate import By
from polars_roc._core.version import __version__
from polars_roc.charts.style import rate_text, threshold_text
from polars_roc.report_figures import merge_groups, panel_roles

#: Receives one-line progress messages (e.g. a function printing to stderr).
Progress = Callable[[str], None]
JsMode = Literal["auto", "inline", "cdn"]

#: Above this many distinct (group, score) pairs, curves are drawn from quantile thresholds.
MAX_CURVE_POINTS = 200_000
#: Thresholds per group (quantiles of the negative scores) for the curves of large data.
CURVE_QUANTILES = 2_000

CDN = "https://cdn.jsdelivr.net/npm"
#: Interval methods as the page names them.
CI_NAMES = {"delong": "DeLong", "bootstrap": "Bootstrap"}


@dataclass(frozen=True)
class ReportData:
    """
    What a report shows, computed once: small frames (a row per group or point) and charts.

    Attributes
    ----------
    auc
        ``*by, auc, n_pos, n_neg`` (+ ``auc_se, auc_lower, auc_upper`` with intervals).
    curve
        ROC curves, ``*by, threshold, tp, fp, tn, fn, tpr, fpr``: every distinct score, or
        quantile thresholds for large data (see `notes`).
    partial_auc
        ``*by, pauc, pauc_std, n_pos, n_neg`` over the range in ``roles["range"]``.
    best_threshold
        The best cutpoint's row of the threshold table, per group (every row considered).
    thresholds
        The threshold table per group (``thresholds`` columns), at the thresholds of
        `curve`.
    score_chart
        The score-distribution chart's Vega-Lite spec, drawn from every scored row (None if
        it could not be drawn; `notes` says why).
    n_rows
        Rows in the input.
    roles
        Column roles and options (``score, label, by, weight, pos_label, ci, level, method,
        range``), for the page's header.
    notes
        What the reader must know: intervals not available, approximations, failures.
    """

    auc: pl.DataFrame
    curve: pl.DataFrame
    partial_auc: pl.DataFrame
    best_threshold: pl.DataFrame
    thresholds: pl.DataFrame
    score_chart: dict[str, Any] | None
    n_rows: int
    roles: dict[str, Any]
    notes: list[str] = field(default_factory=list)


def _quiet(message: str) -> None:
    """Discard a progress message."""


def compute(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    ci: Literal["delong", "bootstrap"] | None = "delong",
    level: float = 0.95,
    fpr: tuple[float, float] | None = (0.0, 0.2),
    tpr: tuple[float, float] | None = None,
    method: Literal["youden", "closest_topleft", "cost"] = "youden",
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    prevalence: float | None = None,
    n_boot: int = 2000,
    seed: int | None = 0,
    progress: Progress | None = None,
) -> ReportData:
    """
    Run the report's queries: AUC table, curves, partial AUC, cutpoints, score distributions.

    Column roles and arguments are checked against the schema before any data is read.
    Each step is one lazy query collected once, so a scanned file is read once per step
    and never held whole in memory.

    Parameters
    ----------
    lf
        Scored rows, e.g. ``pl.scan_parquet(path)``.
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`.
    ci
        Interval method of the AUC table: ``"delong"``, ``"bootstrap"`` or None. When the
        intervals cannot be computed, the table has none and `notes` says why.
    level
        Confidence level of the intervals.
    fpr, tpr
        The partial-AUC range ``(lo, hi)``; `tpr` is used when given, else `fpr`.
    method
        How the best cutpoint is chosen (see :func:`polars_roc.thresholds.best_threshold`).
    cost_fp, cost_fn, prevalence
        The costs of a false positive and a false negative and the prevalence to weigh them
        by (default the data's), for ``method="cost"``.
    n_boot, seed
        Bootstrap replicates and random seed, for ``ci="bootstrap"``.
    progress
        Called with a one-line message as each step starts.

    Returns
    -------
    ReportData

    Examples
    --------
    >>> import polars_roc as pr
    >>> lf = pr.datasets.simulate(400, seed=2).lazy()
    >>> data = pr.report.compute(lf, by="model", ci=None)
    >>> data.auc.columns, data.n_rows
    (['model', 'auc', 'n_pos', 'n_neg'], 1200)
    >>> data.best_threshold["model"].to_list()
    ['baseline', 'gbm', 'logit']
    """
    say = progress or _quiet
    names = validate.as_names(by)
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    validate.level(level)
    validate.ci(ci, ("delong", "bootstrap"))
    if method not in ("youden", "closest_topleft", "cost"):
        msg = (
            f"method must be 'youden', 'closest_topleft' or 'cost', got {method!r}"
            "\n\nHint: method='youden'."
        )
        raise ValueError(msg)
    costs = {
        "cost_fp": validate.cost(cost_fp, "cost_fp"),
        "cost_fn": validate.cost(cost_fn, "cost_fn"),
    }
    validate.prevalence(prevalence)
    if isinstance(n_boot, bool) or not isinstance(n_boot, int) or n_boot < 2:
        msg = f"n_boot must be an integer of at least 2, got {n_boot!r}\n\nHint: n_boot=2000."
        raise ValueError(msg)
    if tpr is not None:
        kind, bounds = "tpr", validate.unit_range(tpr, "tpr")
    elif fpr is not None:
        kind, bounds = "fpr", validate.unit_range(fpr, "fpr")
    else:
        msg = "the report needs a partial-AUC range\n\nHint: fpr=(0.0, 0.2) or tpr=(0.8, 1.0)."
        raise ValueError(msg)
    common: dict[str, Any] = {"by": names or None, "weight": weight, "pos_label": pos_label}
    notes: list[str] = []

    say("[1/6] counting rows and distinct scores")
    points = pl.struct(*names, score).hash(seed=0).approx_n_unique()
    n_rows, n_points = lf.select(pl.len(), points.alias("points")).collect().row(0)
    resolution: int | None = None
    if n_points > MAX_CURVE_POINTS:
        resolution = CURVE_QUANTILES
        notes.append(
            f"The curves and the threshold table have about {n_points:,} distinct scores; "
            f"they are drawn at {CURVE_QUANTILES:,} thresholds per group (quantiles of the "
            "negative scores, exact counts at each). AUC, pAUC and the best cutpoints use "
            "every row."
        )

    say("[2/6] AUC by group" + (f" with {CI_NAMES[ci]} intervals" if ci else ""))
    resampling = {"n_boot": n_boot, "seed": seed} if ci == "bootstrap" else {}
    auc = _auc_table(lf, score, label, {**common, **resampling}, ci, level, notes)

    say("[3/6] ROC curves and threshold table")
    curve = curves.curve(lf, score, label, thresholds=resolution, **common).collect()
    # The threshold table is the curve's rows with the measures added (what
    # `thresholds.thresholds` computes from the same curve), so the curve is computed once.
    measured = curve.with_columns(cutpoints.measures())
    table = measured.select(*names, *cutpoints.COLUMNS)

    say(f"[4/6] partial AUC over {kind.upper()} {bounds[0]:g} to {bounds[1]:g}")
    fpr_range, tpr_range = (bounds, None) if kind == "fpr" else (None, bounds)
    # The full curve is at hand: read the area off it instead of counting the rows again.
    pauc = (
        areas.partial_auc(lf, score, label, fpr=fpr_range, tpr=tpr_range, **common)
        if resolution is not None
        else areas.partial_auc_of_curve(curve.lazy(), fpr=fpr_range, tpr=tpr_range, by=names)
    ).collect()

    say(f"[5/6] best cutpoints ({method})")
    chosen: dict[str, Any] = {**costs, "prevalence": prevalence} if method == "cost" else {}
    best = cutpoints.best_threshold(lf, score, label, method=method, **chosen, **common).collect()

    say("[6/6] score distributions")
    chart = _score_chart(lf, score, label, names, weight, pos_label, notes)
    if chart is None:
        say(f"warning: {notes[-1]}")

    roles = {
        "score": score,
        "label": label,
        "by": names,
        "weight": weight,
        "pos_label": pos_label,
        "ci": ci,
        "level": level,
        "method": method,
        "range": (kind, bounds),
        **({"costs": (costs["cost_fp"], costs["cost_fn"], prevalence)} if method == "cost" else {}),
        **({"n_boot": n_boot, "seed": seed} if ci == "bootstrap" else {}),
    }
    return ReportData(
        auc=auc,
        curve=curve,
        partial_auc=pauc,
        best_threshold=best,
        thresholds=table,
        score_chart=chart,
        n_rows=n_rows,
        roles=roles,
        notes=notes,
    )


def _auc_table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    common: dict[str, Any],
    ci: Literal["delong", "bootstrap"] | None,
    level: float,
    notes: list[str],
) -> pl.DataFrame:
    """The AUC table, with intervals when they can be computed (else a note says why)."""
    if ci is not None:
        try:
            return areas.auc(lf, score, label, ci=ci, level=level, **common).collect()
        except (ImportError, NotImplementedError) as error:
            notes.append(f"AUC intervals ({ci}) are not available: {one_line(error)}")
    return areas.auc(lf, score, label, **common).collect()


def _score_chart(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    names: list[str],
    weight: str | None,
    pos_label: Any,
    notes: list[str],
) -> dict[str, Any] | None:
    """Per-class score histograms in one panel per group, drawn from every scored row."""
    rows = merge_groups(lf, names)
    facet, row, column = panel_roles(names)
    try:
        chart = charts.score_chart(
            rows,
            score,
            label,
            weight=weight,
            pos_label=pos_label,
            kind="histogram",
            bins=40,
            width=160 if names else 320,
            height=110 if names else 200,
            facet=facet,
            row=row,
            column=column,
        )
        spec: dict[str, Any] = chart.to_dict()
    except Exception as error:  # a chart must not cost the reader the report's tables
        notes.append(f"The {_HEADINGS['scores']} chart could not be drawn: {one_line(error)}")
        return None
    return spec


def one_line(error: BaseException) -> str:
    r"""
    An exception's message on one line: its first paragraph, then its hint if it has one.

    Parameters
    ----------
    error
        An exception whose message may span lines (polars-roc messages end in a hint).

    Returns
    -------
    str

    Examples
    --------
    >>> from polars_roc.report import one_line
    >>> one_line(ValueError("level must lie in (0, 1), got 2\n\nHint: level=0.95."))
    'level must lie in (0, 1), got 2 (hint: level=0.95.)'
    """
    text = str(error).split("\n\nThis error occurred", 1)[0]
    head, _, hint = text.partition("\n\nHint:")
    line = " ".join(head.split()) or type(error).__name__
    return f"{line} (hint: {' '.join(hint.split())})" if hint else line


# ---------------------------------------------------------------------------------------------
# Rendering


@dataclass(frozen=True)
class _Figure:
    """One chart of the page: its key (element ids) and its Vega-Lite spec."""

    key: str
    spec: dict[str, Any]


def render(
    data: ReportData,
    *,
    title: str = "ROC report",
    source: str | None = None,
    js: JsMode = "auto",
    progress: Progress | None = None,
) -> str:
    """
    One self-contained HTML page from computed report data.

    Parameters
    ----------
    data
        What :func:`compute` returned.
    title
        The page's title and heading.
    source
        Where the data came from (e.g. a file name), shown in the header.
    js
        How the page gets Vega: ``"inline"`` embeds it (needs ``vl-convert-python``),
        ``"cdn"`` links jsDelivr, ``"auto"`` embeds it when it can.
    progress
        Called with a one-line warning for each chart that could not be drawn (the page
        shows the same note).

    Returns
    -------
    str
        The HTML page.

    Examples
    --------
    >>> import polars_roc as pr
    >>> data = pr.report.compute(pr.datasets.simulate(300, seed=3).lazy(), by="model", ci=None)
    >>> page = pr.report.render(data, title="Scorecards", js="cdn")
    >>> "<title>Scorecards</title>" in page and "cdn.jsdelivr.net" in page
    True
    """
    if js not in ("auto", "inline", "cdn"):
        msg = f"js must be 'auto', 'inline' or 'cdn', got {js!r}\n\nHint: js='auto'."
        raise ValueError(msg)
    say = progress or _quiet
    if js != "cdn":
        say("embedding Vega, Vega-Lite and vega-embed in the page")
    scripts, js_note = _javascript(js)
    if js_note:
        say(f"note: {js_note}")
    notes = list(data.notes)
    figures = _figures(data, notes, say)
    if js_note:
        notes.insert(0, js_note)
    sections = _sections(data, {figure.key for figure in figures})
    specs = "\n".join(
        f'<script type="application/json" id="spec-{f.key}">{_json(f.spec)}</script>'
        for f in figures
    )
    return _PAGE.format(
        title=html.escape(title),
        style=_STYLE,
        scripts=scripts,
        meta=_meta(data, source),
        notes="".join(f'<p class="note">{html.escape(note)}</p>' for note in notes),
        nav=" · ".join(f'<a href="#{key}">{html.escape(name)}</a>' for key, name, _ in sections),
        sections="\n".join(body for _, _, body in sections),
        specs=specs,
        embed=_EMBED,
        version=_version(),
    )


def to_html(
    lf: pl.LazyFrame,
    score: str = "score",
    label: str = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    ci: Literal["delong", "bootstrap"] | None = "delong",
    level: float = 0.95,
    fpr: tuple[float, float] | None = (0.0, 0.2),
    tpr: tuple[float, float] | None = None,
    method: Literal["youden", "closest_topleft", "cost"] = "youden",
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    prevalence: float | None = None,
    n_boot: int = 2000,
    seed: int | None = 0,
    title: str = "ROC report",
    source: str | None = None,
    js: JsMode = "auto",
    progress: Progress | None = None,
) -> str:
    """
    The HTML report of scored rows: :func:`compute`, then :func:`render`.

    The page holds the per-group AUC table with intervals and its forest plot, the ROC
    curves with the best cutpoints marked, the partial AUC over the chosen range, the best
    cutpoints' threshold table and measures, the score distributions, and a threshold
    explorer (a slider moving the operating point).

    Parameters
    ----------
    lf
        Scored rows, e.g. ``pl.scan_csv(path)``.
    score, label, by, weight, pos_label, ci, level, fpr, tpr, method, progress
        As in :func:`compute`.
    cost_fp, cost_fn, prevalence, n_boot, seed
        As in :func:`compute`.
    title, source, js
        As in :func:`render`.

    Returns
    -------
    str
        The HTML page.

    Examples
    --------
    >>> import polars as pl
    >>> import polars_roc as pr
    >>> df = pl.DataFrame({"score": [0.9, 0.8, 0.7, 0.3, 0.2], "label": [1, 0, 1, 0, 0]})
    >>> page = pr.report.to_html(df.lazy(), ci=None, js="cdn")
    >>> page.count('<div class="chart"')
    6
    """
    data = compute(
        lf,
        score,
        label,
        by=by,
        weight=weight,
        pos_label=pos_label,
        ci=ci,
        level=level,
        fpr=fpr,
        tpr=tpr,
        method=method,
        cost_fp=cost_fp,
        cost_fn=cost_fn,
        prevalence=prevalence,
        n_boot=n_boot,
        seed=seed,
        progress=progress,
    )
    return render(data, title=title, source=source, js=js, progress=progress)


def _figures(data: ReportData, notes: list[str], say: Progress) -> list[_Figure]:
    """Every chart's spec; a chart that fails to build is left out with a note."""
    names = data.roles["by"]
    auc, curve, pauc, best, table = (
        merge_groups(frame, names)
        for frame in (data.auc, data.curve, data.partial_auc, data.best_threshold, data.thresholds)
    )
    builders = report_figures.builders(
        auc=auc, curve=curve, pauc=pauc, best=best, table=table, roles=data.roles
    )
    figures = []
    for key, build in builders.items():
        try:
            figures.append(_Figure(key, build().to_dict()))
        except Exception as error:  # one failed chart must not cost the reader the rest
            note = f"The {_HEADINGS[key]} chart could not be drawn: {one_line(error)}"
            notes.append(note)
            say(f"warning: {note}")
    if data.score_chart is not None:
        figures.insert(4, _Figure("scores", data.score_chart))
    return figures


def _javascript(js: JsMode) -> tuple[str, str | None]:
    """Script elements that define `vegaEmbed`, and a note for the reader when not inline."""
    import altair as alt

    if js in ("auto", "inline"):
        try:
            vl_convert = import_module("vl_convert")
        except ImportError:
            if js == "inline":
                msg = (
                    "an offline (inline) report needs the vl-convert-python package"
                    "\n\nHint: pip install vl-convert-python, or use js='cdn'."
                )
                raise ImportError(msg) from None
        else:
            minor = ".".join(alt.SCHEMA_VERSION.lstrip("v").split(".")[:2])
            known = vl_convert.get_vegalite_versions()
            version = "v" + minor.replace(".", "_") if minor in known else None
            bundle = vl_convert.javascript_bundle(vl_version=version)
            bundle = re.sub(r"</(script)", r"<\\/\1", bundle, flags=re.IGNORECASE)
            return f"<script>\n{bundle}\n</script>", None
    vega_lite = alt.SCHEMA_VERSION.lstrip("v")
    tags = "\n".join(
        f'<script src="{CDN}/{name}@{version}"></script>'
        for name, version in (
            ("vega", alt.VEGA_VERSION),
            ("vega-lite", vega_lite),
            ("vega-embed", alt.VEGAEMBED_VERSION),
        )
    )
    note = (
        f"The charts load Vega {alt.VEGA_VERSION}, Vega-Lite {vega_lite} and vega-embed "
        f"{alt.VEGAEMBED_VERSION} from {CDN}, so they need a network connection; with "
        "vl-convert-python installed the report embeds them and works offline."
    )
    return tags, note


def _json(spec: dict[str, Any]) -> str:
    """A spec as JSON that is safe inside <script> (strict JSON: no NaN or Infinity)."""
    return json.dumps(spec, allow_nan=False, separators=(",", ":")).replace("</", "<\\/")


def _version() -> str:
    return __version__


def _meta(data: ReportData, source: str | None) -> str:
    roles = data.roles
    pos_label = roles["pos_label"]
    kind, (lo, hi) = roles["range"]
    items = [
        ("data", source or "a LazyFrame"),
        ("rows", f"{data.n_rows:,}"),
        ("score", roles["score"]),
        ("label", roles["label"]),
        ("positive class", "True / 1" if pos_label is None else repr(pos_label)),
        ("weight", roles["weight"] or "none"),
        ("groups", ", ".join(roles["by"]) or "none"),
        ("intervals", _intervals(roles)),
        ("pAUC range", f"{kind.upper()} {lo:g} to {hi:g}"),
        ("cutpoint", _cutpoint(roles)),
        ("generated", datetime.date.today().isoformat()),
    ]
    return "".join(f"<span><b>{html.escape(k)}</b> {html.escape(str(v))}</span>" for k, v in items)


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
}

#: Columns of the best-cutpoint table shown on the page (of the threshold table's).
_CUTPOINT_COLUMNS = (
    "threshold",
    "tp",
    "fp",
    "tn",
    "fn",
    "tpr",
    "fpr",
    "ppv",
    "npv",
    "accuracy",
    "f1",
    "youden",
)

_HEADINGS = {
    "auc": "AUC by group",
    "roc": "ROC curves",
    "pauc": "Partial AUC",
    "thresholds": "Best cutpoints",
    "scores": "Score distributions",
    "explorer": "Threshold explorer",
}


def _cell(value: Any, column: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
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
    else:
        text = rate_text(value)
    return f'<td class="num">{text}</td>'


def _table(frame: pl.DataFrame, key: str, names: dict[str, str] | None = None) -> str:
    """A frame as an HTML table; nulls show as a dash (undefined)."""
    headers = {**_COLUMN_NAMES, **(names or {})}
    head = "".join(f"<th>{html.escape(headers.get(c, c))}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(_cell(v, c) for v, c in zip(row, frame.columns, strict=True)) + "</tr>"
        for row in frame.iter_rows()
    )
    return f'<table id="{key}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _chart(key: str, drawn: set[str]) -> str:
    if key not in drawn:
        return ""
    return f'<div class="chart" id="chart-{key}" data-spec="spec-{key}"></div>'


def _caption(text: str) -> str:
    return f'<p class="caption">{html.escape(text)}</p>'


def _sections(data: ReportData, drawn: set[str]) -> list[tuple[str, str, str]]:
    """(key, heading, HTML) of each section, in page order."""
    roles = data.roles
    names: list[str] = roles["by"]
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
    marked = [c for c in _CUTPOINT_COLUMNS if c in data.best_threshold.columns]
    body = [
        (
            "auc",
            _caption(
                f"{interval}AUC is null (—) for a group without positives or negatives; "
                "weighted data show weight sums as class counts."
            ),
            _table(data.auc, "auc-table", auc_names),
            _chart("auc", drawn),
        ),
        (
            "roc",
            _caption(
                f"{lines.capitalize() if names else 'The ROC curve'}, over the chance "
                f"diagonal. The dot marks the best cutpoint ({roles['method']}); hover a "
                "curve for its threshold and counts."
            ),
            _chart("roc", drawn),
        ),
        (
            "pauc",
            _caption(
                f"Area under the curve over {kind.upper()} {lo:g} to {hi:g} (shaded), raw "
                "and McClish-standardized (0.5 = chance, 1 = perfect)."
            ),
            _table(data.partial_auc, "pauc-table"),
            _chart("pauc", drawn),
        ),
        (
            "thresholds",
            _caption(
                f"The best cutpoint of each group ({roles['method']}), predicting positive "
                "when score ≥ threshold; the chart shows the measures against the threshold."
            ),
            _table(data.best_threshold.select(*names, *marked), "cutpoint-table"),
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
    for key, *parts in body:
        heading = _HEADINGS[key]
        html_ = f'<section id="{key}"><h2>{html.escape(heading)}</h2>{"".join(parts)}</section>'
        out.append((key, heading, html_))
    return out


# ---------------------------------------------------------------------------------------------
# Page

_STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       margin: 0 auto; max-width: 1280px; padding: 0 24px 48px; }
h1 { margin: 24px 0 4px; font-size: 24px; }
h2 { margin: 32px 0 8px; font-size: 18px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.meta span { display: inline-block; margin: 0 16px 4px 0; color: #555; }
.meta b { color: #222; font-weight: 600; }
nav { margin: 8px 0 16px; }
nav a { color: #1f5fa8; text-decoration: none; }
.note { background: #fff8e1; border-left: 4px solid #f0b400; padding: 6px 10px; margin: 6px 0; }
.caption { color: #555; margin: 4px 0 8px; max-width: 900px; }
table { border-collapse: collapse; margin: 8px 0 16px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 10px; border-bottom: 1px solid #eee; text-align: left; }
th { background: #f5f5f5; font-weight: 600; }
td.num { text-align: right; }
td.null { color: #999; text-align: center; }
tbody tr:hover { background: #f8fbff; }
.chart { margin: 8px 0 16px; overflow-x: auto; }
.chart.error { color: #b00020; white-space: pre-wrap; }
footer { margin-top: 40px; color: #777; font-size: 12px; }
"""

_PAGE = """<!DOCTYPE html>
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
_EMBED = """
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
