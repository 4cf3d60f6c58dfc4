"""
A self-contained HTML report of scored data: AUC table, curves, pAUC, cutpoints and scores.

:func:`compute` runs the report's queries on a LazyFrame, each one a lazy query collected
once (a scanned file is streamed, never loaded whole), and returns the small frames and the
charts a report shows; :func:`render` lays them out as one HTML page; :func:`to_html` does
both.

How the page gets Vega: with ``vl-convert-python`` installed, the page embeds Vega, Vega-Lite
and vega-embed inline (``vl_convert.javascript_bundle()``, about 0.9 MB, the bundle Altair's
``inline=True`` uses), so it opens offline and stays the same for years; the bundle is cached
in the user cache directory between runs (:mod:`polars_roc.report._vega`). Without it, the page
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

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from polars_roc import areas, curves
from polars_roc import thresholds as cutpoints
from polars_roc._core import validate
from polars_roc._core.columns import THRESHOLDS
from polars_roc._core.direction import flips
from polars_roc._core.progress import Stages  # progress
from polars_roc._core.validate import By
from polars_roc._core.version import __version__
from polars_roc.inference import detectable_auc
from polars_roc.report import _business as report_business
from polars_roc.report import _checks as report_checks
from polars_roc.report import _comparison as report_comparison
from polars_roc.report import _decisions as report_decisions
from polars_roc.report import _figures as report_figures
from polars_roc.report import _monitoring as report_over_time
from polars_roc.report import _page as report_page
from polars_roc.report import _segments as report_segments
from polars_roc.report import _slices as report_slices
from polars_roc.report import _survival as report_survival  # survival horizons
from polars_roc.report import _survival_report as report_survival_report
from polars_roc.report import _vega as report_vega
from polars_roc.report._data import CI_NAMES, Progress, ReportData
from polars_roc.report._figures import merge_groups
from polars_roc.report._page import HEADINGS
from polars_roc.report.options import ReportCI, ReportOptions
from polars_roc.thresholds import operating

#: Power of the AUC table's "detectable AUC" column.
DETECT_POWER = 0.8
#: Groups whose detectable AUC is above this (or undefined) are greyed in the AUC table.
DETECT_ABOVE = 0.9
#: The Wilson bound columns of the best-cutpoint table (shown in the table, not the charts).
WILSON_BOUNDS = [
    f"{rate}_{side}"
    for rate in ("tpr", "fpr", "ppv", "npv", "lr_pos", "lr_neg")
    for side in ("lower", "upper")
]
#: Above this many distinct (group, score) pairs, curves are drawn from quantile thresholds.
MAX_CURVE_POINTS = 200_000
#: Thresholds per group (quantiles of the negative scores) for the curves of large data.
CURVE_QUANTILES = 2_000


def _quiet(message: str) -> None:
    """Discard a progress message."""


def compute(
    lf: pl.LazyFrame | pl.DataFrame,
    score: str = "score",
    label: str | None = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    options: ReportOptions | None = None,
    progress: Progress | None = None,
    segment: str | None = None,
    # survival horizons
    time_to_event: str | None = None,
    event: str | None = None,
    horizons: float | Sequence[float] | None = None,
    classes: dict[str, Any] | None = None,
    case: str | None = None,
    slices: Sequence[str] | None = None,
    **settings: Any,
) -> ReportData:
    """
    Run the report's queries: AUC table, curves, partial AUC, cutpoints, score distributions.

    Column roles and settings are checked before any data is read (the settings when the
    :class:`~polars_roc.report.ReportOptions` is made, the roles against the schema). Each
    step is one lazy query collected once, so a scanned file is read once per step and never
    held whole in memory.

    Parameters
    ----------
    lf
        Scored rows, e.g. ``pl.scan_parquet(path)`` (or a DataFrame).
    score, label, by, weight, pos_label
        Column roles, as in :func:`polars_roc.areas.auc`. `by` also takes Polars
        expressions, named by their output name, e.g.
        ``by=(pl.col("age") // 10 * 10).alias("age_band")``: the same report as
        ``with_columns`` of them, then ``by=<their names>``.
    options
        The report's settings (:class:`~polars_roc.report.ReportOptions`; default: its
        defaults): interval method and level, partial-AUC range, cutpoint method and costs,
        bootstrap replicates and seed, panel bins, FPR scale, `direction`, `nan_policy`.
    progress
        Called with a one-line message as each step starts. The bootstraps draw their own
        bars as ``progress=None`` decides (on a terminal, outside pytest, with tqdm), or as
        the command line's ``--progress/--no-progress`` says.
    segment
        A column splitting each group into segments: adds the "Segments" section (roll-up,
        forest with summary rows, disparity, cross-AUC heatmap up to 30 segments).
    time_to_event, event, horizons
        The time to the event or to censoring (numeric, >= 0), the event column (Boolean or
        0/1) and the horizons (default: the quartiles of the observed event times): adds
        the "Survival horizons" section, AUC(t) per group and horizon
        (:func:`polars_roc.survival.time_auc`) with its cases, controls and censored rows,
        first on the page. With ``label=None`` the report is a survival report: AUC(t)
        alone, no plain AUC treating the event flag as a label (which would ignore
        censoring); the sections that need a label are refused.
    slices
        Feature columns: adds the "Weakest slices" section, every slice of one or two of
        them against the rest of its group (:func:`polars_roc.slices.slices`).
    classes
        Rows stacked by :func:`~polars_roc.report.one_vs_rest` (its roles hold this): the
        class column, the label and each class's score column, for the page's header (cases,
        not rows) and the classes' own colours.
    case
        The column identifying the case each model scored (one row per case and model):
        the "Model comparison" section, drawn when the first `by` column holds two or more
        models, then tests them paired. Without it the tests are unpaired.
    **settings
        Any setting of :class:`~polars_roc.report.ReportOptions` by name (``ci=None``,
        ``direction="lower"``, ``nan_policy="omit"``, ...): it overrides `options`.

    Returns
    -------
    ReportData

    Examples
    --------
    >>> import polars_roc as pr
    >>> lf = pr.datasets.simulate(400, seed=2).lazy()
    >>> data = pr.report.compute(lf, by="model", ci=None)
    >>> data.auc.columns, data.n_rows
    (['model', 'auc', 'n_pos', 'n_neg', 'detectable_auc'], 1200)
    >>> data.best_threshold["model"].to_list()
    ['baseline', 'gbm', 'logit']
    >>> same = pr.report.compute(lf, by="model", options=pr.report.ReportOptions(ci=None))
    >>> same.auc.equals(data.auc)
    True
    """
    chosen = ReportOptions.of(options, **settings)
    lf = lf.lazy()  # a DataFrame too: each step below is one lazy query
    lf, by = validate.by_expressions(lf, by)  # expressions: added as columns, named
    say = progress or _quiet
    bars = progress.on if isinstance(progress, Stages) else None  # progress
    names = validate.as_names(by)
    if label is None:  # a survival report: AUC(t) from time and event, no class label
        asked = {"segment": segment, "case": case, "slices": slices, "classes": classes,
                 "gain_tp": chosen.gain_tp is not None, "pos_label": pos_label is not None,
                 "decision_curve": chosen.decision_curve}  # fmt: skip
        report_survival_report.check(time_to_event, event, asked)
        assert time_to_event is not None  # checked
        assert event is not None
        return report_survival_report.compute(
            lf, score, time_to_event=time_to_event, event=event, horizons=horizons,
            names=names, weight=weight, options=chosen, say=say,
        )  # fmt: skip
    schema = lf.collect_schema()
    validate.roles(schema, score=score, label=label, by=names, weight=weight, pos_label=pos_label)
    if segment is not None:  # segments: the column's checks before any data is read
        validate.column(schema, segment, "segment")
        if segment in names or segment in (score, label, weight):
            msg = f"segment column {segment!r} is already the by, score, label or weight column"
            raise ValueError(msg + "\n\nHint: pass segment=<a column naming the segments>.")
    if case is not None:
        validate.column(schema, case, "case")
    policies = {"direction": chosen.direction, "nan_policy": chosen.nan_policy}
    surv = {"time": time_to_event, "event": event}  # survival horizons
    surv_on = report_survival.check(
        schema, score, **surv, horizons=horizons, names=names, policies=policies
    )
    ci, level, method, n_boot, seed = (
        chosen.ci, chosen.level, chosen.method, chosen.n_boot, chosen.seed
    )  # fmt: skip
    if ci == "bootstrap" and seed is None:  # a fresh seed, drawn here so the page prints it
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    costs = {"cost_fp": chosen.cost_fp, "cost_fn": chosen.cost_fn}
    prevalence = chosen.prevalence
    gains_bins, calibration_bins = chosen.gains_bins, chosen.calibration_bins
    lower = flips(chosen.direction)
    kind, bounds = chosen.partial_range
    common: dict[str, Any] = {
        "by": names or None,
        "weight": weight,
        "pos_label": pos_label,
        **policies,
    }
    notes: list[str] = []

    models = names if classes is None else []  # stacked classes are not models to compare
    if weight is not None and models:  # DeLong's test counts rows: no weighted test
        skipped = report_comparison.why_not(lf, models)
        notes.extend([] if skipped is None else [skipped])
        models = []
    total = (8 if ci == "bootstrap" else 7) + (segment is not None) + surv_on
    total += bool(models) + bool(slices)
    step = iter(range(1, total + 1))

    def begin(message: str) -> None:
        say(f"[{next(step)}/{total}] {message}")

    begin("counting rows and distinct scores")
    points = pl.struct(*names, score).hash(seed=0).approx_n_unique()
    ranges = report_business.score_range(score)
    segments = pl.struct(names[1:]).n_unique() if len(names) > 1 else pl.lit(1)
    counted = lf.select(pl.len(), points.alias("points"), *ranges, segments.alias("s")).collect()
    n_rows, n_points, score_lo, score_hi, n_segments = counted.row(0)
    skip = report_business.why_not_calibrated(score_lo, score_hi, lower=lower)
    resolution: int | None = None
    if n_points > MAX_CURVE_POINTS:
        resolution = CURVE_QUANTILES
        notes.append(
            f"The curves and the threshold table have about {n_points:,} distinct scores; "
            f"they are drawn at {CURVE_QUANTILES:,} thresholds per group (quantiles of the "
            "negative scores, exact counts at each). AUC, pAUC and the best cutpoints use "
            "every row."
        )

    begin("AUC by group" + (f" with {CI_NAMES[ci]} intervals" if ci else ""))
    resampling = {"n_boot": n_boot, "seed": seed} if ci == "bootstrap" else {}
    resampling |= {"progress": bars} if ci == "bootstrap" else {}  # progress
    auc = _auc_table(lf, score, label, {**common, **resampling}, ci, level, notes)
    # The smallest AUC each group's class counts could tell from 0.5 at 80% power.
    auc = auc.with_columns(detectable_auc("n_pos", "n_neg", power=DETECT_POWER))

    if models:
        begin(f"model comparison ({'paired' if case else 'unpaired'} DeLong, Holm)")
    compared = report_comparison.compute(
        lf, score, label, models, {**common, **policies}, case=case, level=level
    )

    segmented = None
    if segment is not None:
        begin(f"segments of {segment}: roll-up, disparity, cross-AUC")
        segmented = report_segments.compute(lf, score, label, segment, common, level)

    sliced = None
    if slices:
        begin(f"slices of {', '.join(slices)} against the rest of their group")
        sliced = report_slices.compute(lf, score, label, slices, common, level)

    survived = None
    if time_to_event is not None and event is not None:  # survival horizons
        boots = f", {n_boot:,} bootstrap replicates" if ci == "bootstrap" else ""
        begin(f"AUC(t) at the horizons of {time_to_event} (event {event}{boots})")
        survived = report_survival.compute(
            lf, score, time=time_to_event, event=event, horizons=horizons, names=names,
            policies=policies, weight=weight,
            boot=(n_boot, seed, level) if ci == "bootstrap" else None,
        )  # fmt: skip
        notes.extend(survived.notes)

    begin("ROC curves and threshold table")
    curve = curves.curve(lf, score, label, thresholds=resolution, **common).collect()
    # The threshold table is the curve's rows with the measures added (what
    # `thresholds.thresholds` computes from the same curve), so the curve is computed once.
    measured = curve.with_columns(cutpoints.measures())
    table = measured.select(*names, *THRESHOLDS)

    begin(f"partial AUC over {kind.upper()} {bounds[0]:g} to {bounds[1]:g}")
    fpr_range, tpr_range = (bounds, None) if kind == "fpr" else (None, bounds)
    # The full curve is at hand: read the area off it instead of counting the rows again.
    pauc = (
        areas.partial_auc(lf, score, label, fpr=fpr_range, tpr=tpr_range, **common)
        if resolution is not None
        else areas.partial_auc_of_curve(curve.lazy(), fpr=fpr_range, tpr=tpr_range, by=names)
    ).collect()

    begin(f"best cutpoints ({method})")
    weighed: dict[str, Any] = {**costs, "prevalence": prevalence} if method == "cost" else {}
    # Wilson intervals of the chosen row's rates: closed form from its counts, so they run
    # on an engine's tally too (weights read as frequencies).
    best = cutpoints.best_threshold(
        lf, score, label, method=method, ci="wilson", level=level, **weighed, **common
    ).collect()

    begin("score distributions")
    chart = report_figures.score_spec(
        lf, score, label, names, weight, pos_label, notes, n_segments, HEADINGS["scores"]
    )
    if chart is None:
        say(f"warning: {notes[-1]}")

    begin(f"gains tables ({gains_bins} bins)" + ("" if skip else " and calibration"))
    gains_table, calibrated, fit = report_business.compute(
        lf, score, label, common, gains_bins=gains_bins, calibration_bins=calibration_bins,
        skip=skip, level=level,
    )  # fmt: skip
    many = report_business.segments_note(gains_table, names[1] if len(names) > 1 else None)
    gain_tp, gain_tn, capacity = chosen.gain_tp, chosen.gain_tn, chosen.capacity
    amounts = None if gain_tp is None else {"gain_tp": gain_tp, **costs, "gain_tn": gain_tn}
    decision_curve = chosen.decision_curve
    if decision_curve and skip is not None:
        notes.append(f"No decision curve: {skip}")
    decided = report_decisions.compute(
        lf, score, label, common, amounts=amounts, capacity=capacity,
        probabilities=decision_curve and skip is None,
    )  # fmt: skip
    if many is not None:
        notes.append(many)
    band = None
    if ci == "bootstrap":
        begin(f"ROC confidence band ({n_boot:,} bootstrap replicates)")
        band = _band(lf, score, label, {**common, "progress": bars}, level, n_boot, seed, notes)

    roles = {
        "slices": list(slices or []),
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
        "gains_bins": gains_bins,
        "calibration_bins": calibration_bins,
        "calibration_skipped": skip,
        "fpr_scale": chosen.fpr_scale,
        **policies,
        **({"amounts": amounts, "capacity": capacity} if amounts else {}),
        **({"classes": dict(classes)} if classes else {}),  # multiclass
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
        gains=gains_table,
        calibration=calibrated,
        calibration_fit=fit,
        band=band,
        decisions=decided,
        options=chosen,
        segments=segmented,
        survival=survived,  # survival horizons
        comparison=compared,
        slices=sliced,
    )


#: The FPRs at which the report's bootstrap band is computed: every 0.02, every 0.005 up
#: to 0.2 (where a zoomed or log axis looks), and every decade from 1e-4 up.
BAND_GRID = sorted(
    {round(i / 50, 4) for i in range(51)}
    | {round(i / 200, 4) for i in range(41)}
    | {10.0**-k for k in range(1, 5)}
)


def _band(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    common: dict[str, Any],
    level: float,
    n_boot: int,
    seed: int | None,
    notes: list[str],
) -> pl.DataFrame | None:
    """The bootstrap band of TPR at :data:`BAND_GRID` per group (None, with a note, if not)."""
    try:
        return operating.tpr_at_fpr(
            lf, score, label, fpr=BAND_GRID, ci="bootstrap", level=level, n_boot=n_boot,
            seed=seed, **common,
        ).collect()  # fmt: skip
    except (ImportError, NotImplementedError, ValueError) as error:
        notes.append(f"The ROC confidence band is not available: {validate.one_line(error)}")
        return None


def _auc_table(
    lf: pl.LazyFrame,
    score: str,
    label: str,
    common: dict[str, Any],
    ci: ReportCI | None,
    level: float,
    notes: list[str],
) -> pl.DataFrame:
    """The AUC table, with intervals when they can be computed (else a note says why)."""
    if ci is not None:
        try:
            return areas.auc(lf, score, label, ci=ci, level=level, **common).collect()
        except (ImportError, NotImplementedError) as error:
            notes.append(f"AUC intervals ({ci}) are not available: {validate.one_line(error)}")
    return areas.auc(lf, score, label, **common).collect()


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
    options: ReportOptions | None = None,
    source: str | None = None,
    progress: Progress | None = None,
    over_time: report_over_time.OverTimeData | None = None,
    checks: pl.DataFrame | None = None,
    **settings: Any,
) -> str:
    """
    One self-contained HTML page from computed report data.

    Parameters
    ----------
    data
        What :func:`compute` returned.
    options
        The page's settings (:class:`~polars_roc.report.ReportOptions`: its `title` and
        `js`); default: the options `data` was computed with.
    source
        Where the data came from (e.g. a file name), shown in the header.
    progress
        Called with a one-line warning for each chart that could not be drawn (the page
        shows the same note).
    over_time
        The "Over time" section's data (:func:`polars_roc.report.compute_over_time`): the
        section is added last and the latest window's alerts are stated at the top.
    checks
        A check table (:func:`polars_roc.gates.checks`, collected): the "Release gates"
        section comes first and its verdict heads the notes.
    **settings
        Settings of :class:`~polars_roc.report.ReportOptions` by name, e.g. ``title=`` (the
        page's title and heading) and ``js=`` (``"inline"`` embeds Vega, which needs
        ``vl-convert-python``; ``"cdn"`` links jsDelivr; ``"auto"`` embeds it when it can).

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
    chosen = ReportOptions.of(options or data.options, **settings)
    title, js = chosen.title, chosen.js
    say = progress or _quiet
    if js != "cdn":
        say("embedding Vega, Vega-Lite and vega-embed in the page")
    scripts, js_note = report_vega.javascript(js)
    if js_note:
        say(f"note: {js_note}")
    notes = list(data.notes)
    figures = _figures(data, notes, say)
    if js_note:
        notes.insert(0, js_note)
    sections = report_page.sections(data, {figure.key for figure in figures})
    if over_time is not None:  # over time
        figures += _over_time_figures(over_time, notes, say)
        sections.append(report_over_time.section(over_time, {f.key for f in figures}))
        notes.insert(0, report_over_time.headline(over_time))
    if checks is not None:
        sections.insert(0, report_checks.section(checks))
        notes.insert(0, report_checks.headline(checks))
    specs = "\n".join(report_page.spec_script(f.key, f.spec) for f in figures)
    return report_page.PAGE.format(
        title=html.escape(title),
        style=report_page.STYLE,
        scripts=scripts,
        meta=report_page.meta(data, source),
        notes="".join(f'<p class="note">{html.escape(note)}</p>' for note in notes),
        nav=" · ".join(f'<a href="#{key}">{html.escape(name)}</a>' for key, name, _ in sections),
        sections="\n".join(body for _, _, body in sections),
        specs=specs,
        embed=report_page.EMBED,
        version=__version__,
    )


def to_html(
    lf: pl.LazyFrame | pl.DataFrame,
    score: str = "score",
    label: str | None = "label",
    *,
    by: By = None,
    weight: str | None = None,
    pos_label: Any = None,
    options: ReportOptions | None = None,
    source: str | None = None,
    progress: Progress | None = None,
    segment: str | None = None,
    # survival horizons
    time_to_event: str | None = None,
    event: str | None = None,
    horizons: float | Sequence[float] | None = None,
    classes: dict[str, Any] | None = None,
    case: str | None = None,
    slices: Sequence[str] | None = None,
    **settings: Any,
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
        Scored rows, e.g. ``pl.scan_csv(path)``, or a DataFrame.
    score, label, by, weight, pos_label, progress, segment, time_to_event, event, horizons
        As in :func:`compute`.
    classes, slices
        As in :func:`compute`.
    case
        As in :func:`compute`: pairs the models' rows for the "Model comparison" section.
    options, **settings
        The report's settings (:class:`~polars_roc.report.ReportOptions`), and any of them
        by name (``ci=None``, ``title="Scorecards"``, ``direction="lower"``,
        ``nan_policy="omit"``, ...), which override `options`.
    source
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
    >>> page = pr.report.to_html(df, ci=None, js="cdn")
    >>> page.count('<div class="chart"')
    9
    """
    chosen = ReportOptions.of(options, **settings)
    roles = {"by": by, "weight": weight, "pos_label": pos_label, "segment": segment}
    roles |= {"time_to_event": time_to_event, "event": event, "horizons": horizons}
    roles |= {"case": case}
    roles |= {"slices": slices}
    data = compute(lf, score, label, **roles, options=chosen, progress=progress, classes=classes)
    return render(data, source=source, progress=progress)


def _over_time_figures(
    data: report_over_time.OverTimeData, notes: list[str], say: Progress
) -> list[_Figure]:
    """The Over time section's charts; one that fails is left out with a note."""
    figures = []
    for key, build in report_over_time.figures(data).items():
        try:
            figures.append(_Figure(key, build().to_dict()))
        except Exception as error:  # one failed chart must not cost the reader the rest
            note = f"The {key} chart could not be drawn: {validate.one_line(error)}"
            notes.append(note)
            say(f"warning: {note}")
    return figures


def _figures(data: ReportData, notes: list[str], say: Progress) -> list[_Figure]:
    """Every chart's spec; a chart that fails to build is left out with a note."""
    names = data.roles["by"]
    builders = (
        report_survival.builders(data.survival, names)  # a survival report: AUC(t) only
        if data.roles["label"] is None
        else _builders(data, names)
    )
    figures = []
    for key in HEADINGS:  # in page order
        if key == "scores" and data.score_chart is not None:
            figures.append(_Figure("scores", data.score_chart))
        if key not in builders:
            continue
        try:
            spec = report_figures.class_colors(builders[key]().to_dict(), data.roles)
            figures.append(_Figure(key, spec))
        except Exception as error:  # one failed chart must not cost the reader the rest
            note = f"The {HEADINGS[key]} chart could not be drawn: {validate.one_line(error)}"
            notes.append(note)
            say(f"warning: {note}")
    return figures


def _builders(data: ReportData, names: list[str]) -> dict[str, Any]:
    """How each chart of a report with a label is drawn: figure key to its builder."""
    auc, curve, pauc, best, table = (
        merge_groups(frame, names)
        for frame in (
            # the charts read the columns they do not know as groups: keep the table's own
            data.auc.drop("detectable_auc", strict=False),
            data.curve,
            data.partial_auc,
            # the cutpoints' Wilson bounds are for the table only
            data.best_threshold.drop(WILSON_BOUNDS, strict=False),
            data.thresholds,
        )
    )
    band = None if data.band is None else merge_groups(data.band, names)
    builders = report_figures.builders(
        auc=auc, curve=curve, pauc=pauc, best=best, table=table, roles=data.roles, band=band
    )
    merged = [None if f is None else merge_groups(f, names) for f in (data.gains, data.calibration)]
    builders.update(
        report_business.builders(
            table=merged[0], curve=curve, calibration=merged[1], names=names[:2]
        )
    )
    builders.update(report_segments.builders(data.segments, names))  # segments
    builders.update(report_survival.builders(data.survival, names))  # survival
    builders.update(report_slices.builders(data.slices))
    merge = lambda frame: merge_groups(frame, names)  # noqa: E731
    builders.update(
        report_decisions.builders(data.decisions, names[:2], data.roles.get("capacity"), merge)
    )
    return builders
