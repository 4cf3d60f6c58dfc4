"""
The ``polars-roc`` command: an HTML ROC report of a scored file, or of simulated demo data.

``polars-roc report SCORES.parquet --score p --label y --by model,segment -o report.html``
scans the file lazily and writes one HTML page (see :mod:`polars_roc.report`);
``polars-roc demo -o report.html`` does the same on :func:`polars_roc.datasets.simulate` data.
Both print the AUC table to stdout and progress to stderr. A bad file, column or label coding
exits with status 2 and a one-line message.

Examples
--------
>>> from polars_roc.cli import main
>>> main(["report", "no-such-file.csv", "--score", "p", "--label", "y"])
2
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl
from polars.exceptions import PolarsError

from polars_roc import report
from polars_roc._core import validate
from polars_roc._core.progress import Stages  # progress
from polars_roc.cli import _arguments as arguments
from polars_roc.cli import _check as release_gates
from polars_roc.cli import _columns as cli_columns
from polars_roc.cli import _files as files
from polars_roc.cli import _memory as memory
from polars_roc.cli import _survival as cli_survival  # survival horizons
from polars_roc.cli._files import UsageError
from polars_roc.datasets import simulate
from polars_roc.engines import sources as engine_sources
from polars_roc.report.options import MIN_COUNT

__all__ = ["PROG", "main"]

PROG = "polars-roc"

#: The flags that add a report section naming columns of its own, and their attributes.
_SECTIONS = {"--segment": "segment", "--time": "time", "--time-to-event": "time_to_event"}

#: Characters DuckDB and Spark expand as a pattern in a path (Polars reads paths literally).
_GLOB_CHARS = ("*", "?", "[", "{")


def main(argv: Sequence[str] | None = None) -> int:
    """
    Run the command line; returns the exit status (0 ok, 2 bad input).

    Parameters
    ----------
    argv
        Arguments without the program name; default ``sys.argv[1:]``.

    Returns
    -------
    int
        0 on success, 2 when the input cannot be used (the reason goes to stderr).

    Examples
    --------
    >>> from polars_roc.cli import main
    >>> main(["report", "missing.parquet", "--score", "p", "--label", "y"])
    2
    """
    parser = _parser()
    args = parser.parse_args(argv)
    args.notes = []  # notes for the page and stdout, e.g. a group column renamed
    try:  # progress: the steps as a bar or as lines
        with Stages.of(args.progress, args.quiet, _progress(args.quiet)) as args.say:
            return int(args.run(args))
    except (UsageError, PolarsError, ValueError, TypeError, ImportError, OSError) as error:
        print(f"{PROG}: error: {validate.one_line(error)}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="ROC analysis of scored data: a self-contained HTML report per segment.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{report,demo,check}")

    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "-o", "--output", default="report.html", help="HTML file to write (default: %(default)s)"
    )
    options.add_argument(
        "--ci",
        choices=["delong", "bootstrap", "none"],
        default="delong",
        help="AUC interval method; bootstrap also shades each ROC curve's confidence band "
        "(default: %(default)s)",
    )
    options.add_argument(
        "--level", type=float, default=0.95, help="interval confidence level (default: 0.95)"
    )
    area = options.add_mutually_exclusive_group()
    area.add_argument(
        "--fpr",
        type=arguments.range,
        default=(0.0, 0.2),
        metavar="LO,HI",
        help="partial-AUC FPR range (default: 0,0.2)",
    )
    area.add_argument(
        "--tpr", type=arguments.range, metavar="LO,HI", help="partial-AUC TPR range instead"
    )
    options.add_argument(
        "--direction",
        choices=["higher", "lower"],
        default="higher",
        help="which end of the score means positive; never guessed (default: %(default)s)",
    )
    options.add_argument(
        "--nan-policy",
        choices=["propagate", "omit", "raise"],
        default="propagate",
        help="NaN scores: their group's numbers are null (propagate), the rows are skipped "
        "(omit), or the report stops with an error (raise) (default: %(default)s)",
    )
    options.add_argument(
        "--method",
        choices=["youden", "closest_topleft", "cost"],
        default="youden",
        help="how the best cutpoint is chosen (default: %(default)s)",
    )
    options.add_argument(
        "--cost-fp",
        type=float,
        metavar="COST",
        help="cost of a false positive, for --method cost (default: 1)",
    )
    options.add_argument(
        "--cost-fn",
        type=float,
        metavar="COST",
        help="cost of a false negative, for --method cost (default: 1)",
    )
    options.add_argument(
        "--prevalence",
        type=float,
        help="share of positives to weigh the costs by, for --method cost (default: the data's)",
    )
    options.add_argument(
        "--n-boot",
        type=int,
        metavar="N",
        help="bootstrap replicates of the AUC intervals and the ROC band, for --ci bootstrap "
        "(default: 2000)",
    )
    options.add_argument(
        "--seed",
        type=int,
        default=0,
        help="random seed of the bootstrap (and of the demo's simulated data) (default: 0)",
    )
    _panel_flags(options)
    _value_flags(options)
    options.add_argument("--title", help="page title")
    options.add_argument(
        "--js",
        choices=["auto", "inline", "cdn"],
        default="auto",
        help="embed Vega in the page (inline, needs vl-convert-python), load it from a CDN, "
        "or inline when possible (auto, the default)",
    )
    options.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    options.add_argument(  # progress
        "--progress", action=argparse.BooleanOptionalAction,
        help="a bar over the report's steps and bootstraps (needs tqdm: pip install "
        "polars_roc[progress]); default: on when stderr is a terminal, unless --quiet",
    )  # fmt: skip

    rep = sub.add_parser(
        "report",
        parents=[options],
        help="HTML report of a scored CSV/Parquet file",
        description="Scan a scored file lazily and write an HTML ROC report.",
    )
    rep.add_argument("path", help="scored rows: .csv, .tsv, .parquet or .arrow/.ipc/.feather")
    scored = rep.add_mutually_exclusive_group(required=True)
    scored.add_argument("--score", help="score column (higher = more positive)")
    scored.add_argument(
        "--class-scores",
        type=arguments.names,
        metavar="COLS",
        help="wide multiclass scores instead: a score column per class, comma-separated, "
        "each named for its class or given as CLASS=COLUMN; the report shows each class "
        "against the rest",
    )
    rep.add_argument(
        "--label",
        help="class column (not needed with --time-to-event and --event: a survival report "
        "of AUC(t))",
    )
    rep.add_argument(
        "--by", type=arguments.names, default=[], help="group columns, comma-separated"
    )
    rep.add_argument("--weight", help="case-weight column")
    rep.add_argument(  # segments
        "--segment",
        metavar="COL",
        help="a column splitting each group into segments: adds the Segments section "
        "(pooled vs within-segment AUC, forest with summaries, disparity, cross-AUC heatmap)",
    )
    rep.add_argument(
        "--slices",
        type=arguments.names,
        default=None,
        metavar="F1,F2",
        help="feature columns, comma-separated: adds the Weakest slices section (every slice "
        "of one or two of them against the rest of its group, DeLong, BH-adjusted)",
    )
    rep.add_argument(
        "--pos-label", help="the positive class (needed unless labels are Boolean or 0/1)"
    )
    rep.add_argument(
        "--engine",
        choices=["polars", "duckdb", "spark"],
        default="polars",
        help="where the rows are reduced: Polars streaming (default), or DuckDB/Spark reading "
        "the Parquet/CSV path and tallying it there (exact; only the tally comes back)",
    )
    # over time
    rep.add_argument(
        "--time", help='time column: adds an "Over time" section (AUC per window, alerts, PSI)'
    )
    rep.add_argument(
        "--every", default="1mo", help="window length, a Polars duration (default: %(default)s)"
    )
    rep.add_argument(
        "--reference",
        metavar="START..END",
        help="reference period of --time (ends included), e.g. 2024-01-01..2024-03-31: its "
        "windows set the band (mean ± 3 sd) that later windows alert outside",
    )
    rep.add_argument(
        "--min-count",
        type=float,
        metavar="N",
        help="a window alerts only with at least N positives and N negatives (weight sums "
        f"when weighted); smaller windows are drawn, never alerted (default: {MIN_COUNT})",
    )
    cli_survival.flags(rep)  # survival horizons
    release_gates.report_flags(rep)
    rep.set_defaults(run=_report)

    demo = sub.add_parser(
        "demo",
        parents=[options],
        help="HTML report of simulated scores (3 models x 4 segments)",
        description="Simulate scored data (several models and segments, 12% positives) "
        "and write its HTML ROC report.",
    )
    demo.add_argument("--rows", type=int, default=20_000, help="cases (default: %(default)s)")
    demo.set_defaults(run=_demo)
    release_gates.add(sub)
    return parser


def _panel_flags(options: argparse.ArgumentParser) -> None:
    """The flags of the gains, calibration and log-FPR panels."""
    options.add_argument(
        "--gains-bins",
        type=int,
        default=10,
        metavar="N",
        help="bins of the gains tables, highest scores first (default: %(default)s, deciles)",
    )
    calibration = options.add_mutually_exclusive_group()
    calibration.add_argument(
        "--calibration-bins",
        type=int,
        default=10,
        metavar="N",
        help="equal-width bins of the calibration panel, drawn when every score lies in "
        "[0, 1] (default: %(default)s)",
    )
    calibration.add_argument(
        "--no-calibration", action="store_true", help="leave out the calibration panel"
    )
    options.add_argument(
        "--fpr-scale",
        choices=["linear", "log"],
        default="linear",
        help="FPR axis of the ROC and partial-AUC panels: log shows small FPRs, from the "
        "power of ten at or below the smallest non-zero FPR (default: %(default)s)",
    )


def _value_flags(options: argparse.ArgumentParser) -> None:
    """The flags of the value panel (value and decisions)."""
    options.add_argument(
        "--gain-tp",
        type=arguments.amount,
        metavar="COL|X",
        help="value panel: what a flagged positive earns, a column of per-row amounts or a "
        "number; --cost-fp / --cost-fn are then the value's costs (default 0)",
    )
    options.add_argument(
        "--gain-tn",
        type=arguments.amount,
        metavar="COL|X",
        help="value panel: a passed negative's gain",
    )
    options.add_argument(
        "--capacity",
        type=float,
        metavar="SHARE",
        help="value panel: the share of rows that may be flagged (e.g. 0.02), or a row count",
    )
    options.add_argument(
        "--decision-curve",
        action="store_true",
        help="add a decision-curve panel (net benefit, as dcurves), for probabilities",
    )


def _progress(quiet: bool) -> report.Progress:
    """Progress lines on stderr with the time since the start; warnings even when quiet."""
    start = time.perf_counter()

    def say(message: str) -> None:
        if not quiet:
            print(f"{PROG}: {message} ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
        elif message.startswith("warning:"):
            print(f"{PROG}: {message}", file=sys.stderr)

    return say


def _report(args: argparse.Namespace) -> int:
    _options(args)  # the flags before any data is read
    if args.engine != "polars":
        _engine_options(args)
    if args.time is not None and (args.class_scores or args.engine != "polars"):
        msg = "--time works with --score and --engine polars (it reads the rows' times)"
        raise ValueError(msg + "\n\nHint: drop --time, or use --score with --engine polars.")
    if args.reference is not None and args.time is None:
        raise ValueError("--reference needs --time\n\nHint: --time scored_at --every 1mo.")
    if args.min_count is not None and args.reference is None:
        msg = "--min-count applies to the over-time alerts: it needs --time and --reference"
        raise UsageError(msg + "\n\nHint: --time scored_at --reference 2024-01-01..2024-03-31.")
    cli_survival.check_flags(args)  # survival horizons
    if args.label is None:  # a survival report, or a missing flag
        cli_survival.without_label(args)
    if args.class_scores:
        return _class_report(args)
    _once(("--score", args.score), ("--label", args.label), ("--weight", args.weight),
          *(("--by", name) for name in args.by))  # fmt: skip
    lf = files.scan(args.path)
    files.refuse_overwrite(args.path, args.output)
    used = [args.score, *args.by, *([args.weight] if args.weight else [])]
    used += [c for c in (args.label, args.time, args.time_to_event, args.event) if c]
    used += [args.case] if args.case else []
    schema = files.readable(args.path, lf, used)
    _plain_by(schema, args.by)
    for column, role in ((args.score, "score"), (args.weight, "weight")):
        if column is not None and schema.get(column) == pl.String:
            files.text_in_numbers(args.path, lf, column, role)
    pos_label = None
    if args.label is not None:  # else a survival report: compute() checks its roles
        label_dtype = validate.column(schema, args.label, "label")
        pos_label = arguments.pos_label(args.pos_label, label_dtype, args.label)
        roles = {"score": args.score, "label": args.label, "by": args.by, "weight": args.weight}
        validate.roles(schema, **roles, pos_label=pos_label)  # the schema only: no data read
        if pos_label is None:  # before any engine: the hint names --pos-label, not pos_label=
            arguments.check_labels(lf, args.label, label_dtype)
    if args.engine != "polars":  # the engine reads and tallies; the report reads the tally
        lf = engine_sources.tally_file(
            args.path,
            args.engine,
            score=args.score,
            label=args.label,
            by=args.by,
            weight=args.weight,
            pos_label=pos_label,
        )
        args = argparse.Namespace(**{**vars(args), "label": "label", "weight": "weight"})
        pos_label = None
    if args.time is not None:  # a CSV's ISO dates are text until parsed
        lf = cli_columns.iso_times(lf, args.time, args.path)
    sections = [flag for flag, on in _SECTIONS.items() if getattr(args, on) is not None]
    lf, args.by, args.segment = cli_columns.apart(
        lf, args.by, args.segment, args.notes.append, sections=sections
    )
    title = args.title or f"ROC report: {Path(args.path).name}"
    return _write(
        lf,
        args,
        score=args.score,
        label=args.label,
        by=args.by,
        weight=args.weight,
        pos_label=pos_label,
        title=title,
        source=args.path,
        segment=args.segment,  # segments
        case=args.case,
        slices=args.slices,
        **cli_survival.roles(args, schema),  # survival horizons
    )


def _class_report(args: argparse.Namespace) -> int:
    """The report of wide multiclass scores: each class against the rest."""
    if args.pos_label is not None:
        msg = "--pos-label does not apply with --class-scores (each class is positive in turn)"
        raise UsageError(msg)
    if args.segment or args.slices:  # segments, slices
        msg = "--segment and --slices do not apply with --class-scores (yet): report one class"
        raise UsageError(msg + " at a time")
    pairs = [item.partition("=") for item in args.class_scores]
    classes = [name for name, _, _ in pairs]
    if len(set(classes)) < len(classes):
        twice = next(name for name in classes if classes.count(name) > 1)
        msg = f"class {twice!r} is given twice in --class-scores: give each class once"
        raise UsageError(msg)
    scores = {name: column or name for name, _, column in pairs}
    _once(*(("--class-scores", column) for column in scores.values()),
          ("--label", args.label), ("--weight", args.weight),
          *(("--by", name) for name in args.by))  # fmt: skip
    lf = files.scan(args.path)
    files.refuse_overwrite(args.path, args.output)
    used = [*scores.values(), args.label, *args.by, *([args.weight] if args.weight else [])]
    schema = files.readable(args.path, lf, used)
    _plain_by(schema, args.by)
    for column in scores.values():
        if schema.get(column) == pl.String:
            files.text_in_numbers(args.path, lf, column, "score")
    validate.column(schema, args.label, "label")
    _classes_found(lf, list(scores), args.label, args.say)
    lf, args.by, _ = cli_columns.apart(lf, args.by, None, args.notes.append)
    stacked, roles = report.one_vs_rest(lf, scores, args.label, by=args.by, weight=args.weight)
    title = args.title or f"ROC report: {Path(args.path).name} (each class against the rest)"
    return _write(stacked, args, **roles, title=title, source=args.path)


def _once(*roles: tuple[str, str | None]) -> None:
    """Each column in one role only: the first column given twice is an error naming both."""
    seen: dict[str, str] = {}
    for flag, column in roles:
        if column is None:
            continue
        if column in seen:
            where = f"{flag} twice" if seen[column] == flag else f"{seen[column]} and {flag}"
            msg = f"column {column!r} is given twice ({where}): give each role its own column"
            raise UsageError(msg)
        seen[column] = flag


def _plain_by(schema: pl.Schema, by: list[str]) -> None:
    """A --by column holds plain values: a Struct, List or Array cannot name a group."""
    for name in by:
        dtype = schema.get(name)
        if dtype is not None and dtype.is_nested():
            msg = (
                f"--by column {name!r} has dtype {dtype}: groups must be plain values (text, "
                f"numbers, dates, Boolean); derive one first (e.g. a struct field or a list item)"
            )
            raise UsageError(msg)


def _classes_found(lf: pl.LazyFrame, classes: list[str], label: str, say: report.Progress) -> None:
    """
    Each --class-scores class is a label value (compared as text, as the report does).

    None found: an error showing both sides. Some missing: a warning per class.
    """
    text = pl.col(label).cast(pl.String)
    found = lf.select(text.eq(name).any().alias(str(i)) for i, name in enumerate(classes))
    present = found.collect().row(0)
    if any(present):
        for name, ok in zip(classes, present, strict=True):
            if not ok:
                say(f"warning: class {name!r} of --class-scores is not a value of label "
                    f"column {label!r}: it has no positives")  # fmt: skip
        return
    values = lf.select(text.drop_nulls().unique().sort().head(11)).collect().to_series()
    shown = ", ".join(map(repr, values.head(10).to_list())) + (", ..." if values.len() > 10 else "")
    names = ", ".join(map(repr, classes))
    msg = (
        f"--class-scores names classes {names} but label column {label!r} holds {shown}: "
        f"none match; name each class as CLASS=COLUMN (e.g. {values[0]}={classes[0]})"
        if values.len()
        else f"--class-scores: label column {label!r} holds no values (only nulls)"
    )
    raise UsageError(msg)


def _engine_options(args: argparse.Namespace) -> None:
    """--engine duckdb|spark: its package installed, and no flag that needs the raw rows."""
    engine_sources.require(args.engine)
    if any(char in args.path for char in _GLOB_CHARS):  # DuckDB and Spark would expand it
        msg = (
            f"--engine {args.engine} would read {args.path!r} as a pattern (it holds one of "
            f"{' '.join(_GLOB_CHARS)}) and could read other files; rename it or use --engine polars"
        )
        raise UsageError(msg)
    if args.ci == "bootstrap":
        msg = (
            f"--ci bootstrap resamples rows, which --engine {args.engine} tallies away; "
            f"use --ci delong (exact on the tally) or --engine polars"
        )
        raise UsageError(msg)
    if args.class_scores:
        msg = f"--class-scores reads the raw rows; use --engine polars (not {args.engine})"
        raise UsageError(msg)
    for flag, amount in (("--gain-tp", args.gain_tp), ("--gain-tn", args.gain_tn)):
        if isinstance(amount, str):  # a column of per-row amounts, not a number
            msg = (
                f"{flag} column {amount!r} holds per-row amounts, which --engine {args.engine} "
                f"tallies away; use --engine polars, or give {flag} a number (e.g. 100)"
            )
            raise UsageError(msg)
    if args.segment:  # segments
        msg = f"--segment reads the raw rows; use --engine polars (not {args.engine})"
        raise UsageError(msg)
    if args.case:
        msg = f"--case pairs the raw rows; use --engine polars (not {args.engine})"
        raise UsageError(msg)
    if args.slices:
        msg = f"--slices reads the raw rows; use --engine polars (not {args.engine})"
        raise UsageError(msg)


def _demo(args: argparse.Namespace) -> int:
    _options(args)
    if args.rows < 10:
        msg = f"--rows must be at least 10, got {args.rows}"
        raise UsageError(msg)
    memory.fits_in_memory(args.rows)
    args.say(f"simulating {args.rows:,} cases scored by 3 models in 4 segments")
    try:
        frame = simulate(args.rows, seed=args.seed)
        return _write(
            frame.lazy(),
            args,
            score="score",
            label="label",
            by=["model", "segment"],
            weight=None,
            pos_label=None,
            case="case",
            title=args.title or "ROC report: simulated scores",
            source=f"polars_roc.datasets.simulate({args.rows}, seed={args.seed})",
        )
    except MemoryError:
        msg = f"out of memory with --rows {args.rows:,}: use fewer rows"
        raise UsageError(msg) from None


def _options(args: argparse.Namespace) -> report.ReportOptions:
    """The report's options from the flags; a flag for a method not chosen is an error."""
    costs = {"--cost-fp": args.cost_fp, "--cost-fn": args.cost_fn, "--prevalence": args.prevalence}
    given = [flag for flag, value in costs.items() if value is not None]
    valued = args.gain_tp is not None
    pairs = (("--gain-tn", args.gain_tn), ("--capacity", args.capacity))
    extra = [flag for flag, value in pairs if value is not None]  # 0 is given too
    if extra and not valued:
        verb = "applies" if len(extra) == 1 else "apply"
        msg = f"{', '.join(extra)} only {verb} with --gain-tp (the value panel)"
        raise UsageError(msg)
    if valued and args.method == "cost":
        msg = "--gain-tp takes --cost-fp/--cost-fn as the value's costs: not with --method cost"
        raise UsageError(msg)
    given = [flag for flag in given if flag == "--prevalence"] if valued else given
    if given and args.method != "cost":
        verb = "applies" if len(given) == 1 else "apply"
        msg = f"{', '.join(given)} only {verb} with --method cost (got --method {args.method})"
        raise UsageError(msg)
    if args.n_boot is not None and args.ci != "bootstrap":
        msg = f"--n-boot only applies with --ci bootstrap (got --ci {args.ci})"
        raise UsageError(msg)
    given_values = {
        "ci": None if args.ci == "none" else args.ci,
        "level": args.level,
        "fpr": None if args.tpr else args.fpr,
        "tpr": args.tpr,
        "method": args.method,
        "cost_fp": 0.0 if valued and args.cost_fp is None else args.cost_fp,
        "cost_fn": 0.0 if valued and args.cost_fn is None else args.cost_fn,
        "prevalence": args.prevalence,
        "n_boot": args.n_boot,
        "seed": args.seed,
        "gains_bins": args.gains_bins,
        "calibration_bins": None if args.no_calibration else args.calibration_bins,
        "fpr_scale": args.fpr_scale,
        "direction": args.direction,
        "nan_policy": args.nan_policy,
        "js": args.js,
        **({} if not valued else {"gain_tp": args.gain_tp, "capacity": args.capacity}),
        **({} if args.gain_tn is None else {"gain_tn": args.gain_tn}),
        "decision_curve": args.decision_curve,
        "min_count": getattr(args, "min_count", None),
    }
    unset = ("cost_fp", "cost_fn", "n_boot", "min_count")  # not given: the options' defaults
    try:  # the values are checked once, by ReportOptions; its message names the flags
        return report.ReportOptions(
            **{k: v for k, v in given_values.items() if not (k in unset and v is None)}
        )
    except ValueError as error:
        raise UsageError(_as_flags(validate.one_line(error))) from None


def _as_flags(message: str) -> str:
    """An option's message as the command line says it: ``n_boot`` becomes ``--n-boot``."""
    names = "|".join(f.name for f in dataclasses.fields(report.ReportOptions))
    return re.sub(rf"(^|hint: )({names})\b", lambda m: f"{m[1]}--{m[2].replace('_', '-')}", message)


def _write(lf: pl.LazyFrame, args: argparse.Namespace, **roles: Any) -> int:
    say = args.say
    title, source = roles.pop("title"), roles.pop("source")
    options = _options(args).replace(title=title)
    data = report.compute(lf, **roles, options=options, progress=say)
    data.notes.extend(args.notes)
    over_time = None
    if getattr(args, "time", None) is not None:  # over time
        say(f"computing the AUC per {args.every} window of {args.time}")
        over_time = report.compute_over_time(
            lf,
            time=args.time,
            every=args.every,
            reference=report.parse_reference(args.reference),
            level=options.level,
            direction=options.direction,
            nan_policy=options.nan_policy,
            min_count=options.min_count,
            **{
                k: v
                for k, v in roles.items()
                if k not in ("segment", "slices", "case", *cli_survival.ROLES)
            },
        )
    say("drawing charts")
    gates = release_gates.report_table(lf, args) if args.command == "report" else None
    page = report.render(data, source=source, progress=say, over_time=over_time, checks=gates)
    output = Path(args.output)
    output.write_text(page, encoding="utf-8")
    say(f"wrote {output} ({len(page.encode()) / 1e6:.1f} MB)")
    _summary(data)
    cli_survival.summary(data.survival)  # survival horizons
    return 0


def _summary(data: report.ReportData) -> None:
    """The AUC table and the curve sizes, on stdout (a survival report: its notes)."""
    by = data.roles["by"]
    if data.roles["label"] is None:  # the AUC(t) table follows (cli_survival.summary)
        for note in data.notes:
            print(f"note: {note}")
        return
    with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_hide_dataframe_shape=True, tbl_width_chars=200):
        print("AUC by group")
        print(data.auc)
        sizes = (
            data.curve.group_by(by, maintain_order=True).len("points")
            if by
            else data.curve.select(pl.len().alias("points"))
        )
        print("ROC curve sizes (points before thinning for drawing)")
        print(sizes)
    for note in data.notes:
        print(f"note: {note}")
