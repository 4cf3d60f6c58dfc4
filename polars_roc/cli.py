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
import csv
import dataclasses
import glob
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
from polars_roc.datasets import simulate
from polars_roc.engines import sources as engine_sources

__all__ = ["PROG", "READERS", "UsageError", "main"]

PROG = "polars-roc"

#: File suffixes the `report` command reads, and how.
READERS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "ipc",
    ".ipc": "ipc",
    ".feather": "ipc",
}


class UsageError(Exception):
    """A problem with the command's input that the user can fix: printed on one line."""


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
    args.say = _progress(args.quiet)
    try:
        return int(args.run(args))
    except (UsageError, PolarsError, ValueError, TypeError, ImportError, OSError) as error:
        print(f"{PROG}: error: {report.one_line(error)}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="ROC analysis of scored data: a self-contained HTML report per segment.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{report,demo}")

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
        type=_range,
        default=(0.0, 0.2),
        metavar="LO,HI",
        help="partial-AUC FPR range (default: 0,0.2)",
    )
    area.add_argument("--tpr", type=_range, metavar="LO,HI", help="partial-AUC TPR range instead")
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
        type=_names,
        metavar="COLS",
        help="wide multiclass scores instead: a score column per class, comma-separated, "
        "each named for its class or given as CLASS=COLUMN; the report shows each class "
        "against the rest",
    )
    rep.add_argument("--label", required=True, help="class column")
    rep.add_argument("--by", type=_names, default=[], help="group columns, comma-separated")
    rep.add_argument("--weight", help="case-weight column")
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
    """The flags of the value panel (value and decisions, issue 32)."""
    options.add_argument(
        "--gain-tp",
        type=_amount,
        metavar="COL|X",
        help="value panel: what a flagged positive earns, a column of per-row amounts or a "
        "number; --cost-fp / --cost-fn are then the value's costs (default 0)",
    )
    options.add_argument(
        "--gain-tn", type=_amount, metavar="COL|X", help="value panel: a passed negative's gain"
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


def _amount(text: str) -> str | float:
    try:
        return float(text)
    except ValueError:
        return text


def _range(text: str) -> tuple[float, float]:
    try:
        lo, hi = (float(part) for part in text.split(","))
    except ValueError:
        msg = f"expected LO,HI (two rates, e.g. 0,0.2), got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    return lo, hi


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _scan(path: str) -> pl.LazyFrame:
    """A lazy scan of the scored file; the data is read only when the report's queries run."""
    file = Path(path)
    if not any(char in path for char in "*?[") and not file.exists():
        msg = f"file not found: {path!r}"
        raise UsageError(msg)
    if file.is_file() and file.stat().st_size == 0:
        msg = f"{path!r} is empty (0 bytes): no header and no rows"
        raise UsageError(msg)
    suffix = "".join(file.suffixes[-1:]).lower()
    kind = READERS.get(suffix)
    if kind is None and file.is_dir():
        kind = "parquet"  # a partitioned Parquet data set
        if not any(p.is_file() and not p.name.startswith((".", "_")) for p in file.rglob("*")):
            msg = f"directory {path!r} holds no data files (expected Parquet files)"
            raise UsageError(msg)
    if kind is None:
        msg = (
            f"cannot read {path!r}: unknown file type {suffix!r}; "
            f"expected one of {', '.join(sorted(READERS))}"
        )
        raise UsageError(msg)
    if kind in ("csv", "tsv"):
        return pl.scan_csv(
            path, separator="\t" if kind == "tsv" else ",", infer_schema_length=10_000
        )
    if kind == "ipc":
        return pl.scan_ipc(path)
    return pl.scan_parquet(path)


def _refuse_overwrite(path: str, output: str) -> None:
    """The report must not land on an input file, nor inside an input directory."""
    target = Path(output).resolve()
    sources = [Path(p) for p in glob.glob(path)] if any(c in path for c in "*?[") else [Path(path)]
    for source in (s.resolve() for s in sources):
        if target == source or (source.is_dir() and target.is_relative_to(source)):
            msg = (
                f"-o {output!r} would overwrite the input {path!r}; "
                f"write the report elsewhere, e.g. -o report.html"
            )
            raise UsageError(msg)


def _readable(path: str, lf: pl.LazyFrame, columns: list[str]) -> pl.Schema:
    """
    The file's schema, after checking it has rows and (CSV) that the used columns parse.

    Polars' reading errors become one line naming the file; a ragged CSV names its line.
    """
    csv_file = Path(path).suffix.lower() in (".csv", ".tsv")
    try:
        schema = lf.collect_schema()
        if lf.head(1).collect().height == 0:
            if csv_file and _lines(path) > 1:
                msg = (
                    f"cannot read {path!r}: no row parses after the header, though the file "
                    f"has more lines (an unclosed quote?)"
                )
                raise UsageError(msg)
            header = ", ".join(schema.names())
            msg = f"{path!r} has no rows (only a header: {header})"
            raise UsageError(msg)
        if csv_file:  # a CSV is checked only by reading it: one pass over the used columns
            lf.select(pl.col(c).null_count() for c in columns if c in schema).collect()
    except (PolarsError, OSError) as error:
        if csv_file and _blank(path):
            msg = f"{path!r} has no header and no rows (only blank lines)"
            raise UsageError(msg) from None
        where = _ragged_line(path) if csv_file else None
        reason = where or report.one_line(error)
        msg = f"cannot read {path!r}: {reason}"
        raise UsageError(msg) from None
    return schema


def _lines(path: str) -> int:
    """The number of non-blank lines of a text file (read only when it seems to have no rows)."""
    with Path(path).open("rb") as handle:
        return sum(1 for line in handle if line.strip())


def _blank(path: str) -> bool:
    """Whether a (small) file holds only whitespace."""
    file = Path(path)
    return file.is_file() and file.stat().st_size <= 1 << 16 and not file.read_bytes().strip()


def _ragged_line(path: str) -> str | None:
    """Where a CSV's rows stop matching its header, or None."""
    separator = "\t" if Path(path).suffix.lower() == ".tsv" else ","
    try:
        with Path(path).open(newline="", encoding="utf-8") as handle:
            reader = csv.reader(handle, delimiter=separator)
            header = next(reader, [])
            for row in reader:
                if row and len(row) != len(header):
                    return (
                        f"line {reader.line_num} has {len(row)} fields, the header "
                        f"{len(header)} (a ragged or malformed CSV)"
                    )
    except (UnicodeDecodeError, csv.Error):
        return "not a UTF-8 text CSV"
    return None


def _text_in_numbers(path: str, lf: pl.LazyFrame, column: str, role: str) -> None:
    """A CSV column read as text where numbers are expected: show the first such value."""
    number = pl.col(column).str.strip_chars().cast(pl.Float64, strict=False)
    bad = (
        lf.with_row_index("line", offset=2)  # line 1 is the header
        .filter(pl.col(column).is_not_null() & number.is_null())
        .select("line", column)
        .head(1)
        .collect()
    )
    if bad.height:
        line, value = bad.row(0)
        msg = (
            f"{role} column {column!r} has dtype String: line {line} of {path!r} reads "
            f"{value!r}, not a number; fix the file or pass the right --{role}"
        )
        raise UsageError(msg)


def _pos_label(value: str | None, dtype: pl.DataType, label: str) -> Any:
    """The --pos-label text as a value of the label column's type."""
    if value is None:
        return None
    if dtype == pl.Boolean:
        lowered = value.strip().lower()
        if lowered in ("true", "1", "yes"):
            return True
        if lowered in ("false", "0", "no"):
            return False
    elif dtype.is_integer():
        try:
            return int(value)
        except ValueError:
            pass
    elif dtype.is_float():
        try:
            return float(value)
        except ValueError:
            pass
    else:
        return value
    msg = f"--pos-label {value!r} is not a value of label column {label!r} ({dtype})"
    raise UsageError(msg)


def _check_labels(lf: pl.LazyFrame, label: str, dtype: pl.DataType) -> None:
    """Without --pos-label the labels must be Boolean or 0/1: read the distinct labels once."""
    if dtype == pl.Boolean:
        return
    found = lf.select(pl.col(label).drop_nulls().unique().sort().head(11)).collect()[label]
    if dtype.is_numeric() and found.is_in([0, 1]).all():
        return
    values = found.head(10).to_list()
    more = ", ..." if found.len() > 10 else ""
    shown = ", ".join(map(repr, values)) + more
    if found.len() > 2:
        what = f"has more than two values ({shown})"
    else:
        what = f"holds {shown}, not Boolean or 0/1"
    example = f" (e.g. --pos-label {values[-1]})" if values else ""
    msg = f"label column {label!r} {what}: name the positive class with --pos-label{example}"
    raise UsageError(msg)


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
    if args.class_scores:
        return _class_report(args)
    lf = _scan(args.path)
    _refuse_overwrite(args.path, args.output)
    used = [args.score, args.label, *args.by, *([args.weight] if args.weight else [])]
    schema = _readable(args.path, lf, used)
    for column, role in ((args.score, "score"), (args.weight, "weight")):
        if column is not None and schema.get(column) == pl.String:
            _text_in_numbers(args.path, lf, column, role)
    label_dtype = validate.column(schema, args.label, "label")
    pos_label = _pos_label(args.pos_label, label_dtype, args.label)
    roles = {"score": args.score, "label": args.label, "by": args.by, "weight": args.weight}
    validate.roles(schema, **roles, pos_label=pos_label)  # the schema only: no data read
    if pos_label is None:  # before any engine: the hint names --pos-label, not pos_label=
        _check_labels(lf, args.label, label_dtype)
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
    )


def _class_report(args: argparse.Namespace) -> int:
    """The report of wide multiclass scores: each class against the rest."""
    if args.pos_label is not None:
        msg = "--pos-label does not apply with --class-scores (each class is positive in turn)"
        raise UsageError(msg)
    pairs = [item.partition("=") for item in args.class_scores]
    scores = {name: column or name for name, _, column in pairs}
    lf = _scan(args.path)
    _refuse_overwrite(args.path, args.output)
    used = [*scores.values(), args.label, *args.by, *([args.weight] if args.weight else [])]
    schema = _readable(args.path, lf, used)
    for column in scores.values():
        if schema.get(column) == pl.String:
            _text_in_numbers(args.path, lf, column, "score")
    stacked, roles = report.one_vs_rest(lf, scores, args.label, by=args.by, weight=args.weight)
    title = args.title or f"ROC report: {Path(args.path).name} (each class against the rest)"
    return _write(stacked, args, **roles, title=title, source=args.path)


def _engine_options(args: argparse.Namespace) -> None:
    """--engine duckdb|spark: its package installed, and no flag that needs the raw rows."""
    engine_sources.require(args.engine)
    if args.ci == "bootstrap":
        msg = (
            f"--ci bootstrap resamples rows, which --engine {args.engine} tallies away; "
            f"use --ci delong (exact on the tally) or --engine polars"
        )
        raise UsageError(msg)
    if args.class_scores:
        msg = f"--class-scores reads the raw rows; use --engine polars (not {args.engine})"
        raise UsageError(msg)


def _demo(args: argparse.Namespace) -> int:
    _options(args)
    if args.rows < 10:
        msg = f"--rows must be at least 10, got {args.rows}"
        raise UsageError(msg)
    args.say(f"simulating {args.rows:,} cases scored by 3 models in 4 segments")
    frame = simulate(args.rows, seed=args.seed)
    return _write(
        frame.lazy(),
        args,
        score="score",
        label="label",
        by=["model", "segment"],
        weight=None,
        pos_label=None,
        title=args.title or "ROC report: simulated scores",
        source=f"polars_roc.datasets.simulate({args.rows}, seed={args.seed})",
    )


def _options(args: argparse.Namespace) -> report.ReportOptions:
    """The report's options from the flags; a flag for a method not chosen is an error."""
    costs = {"--cost-fp": args.cost_fp, "--cost-fn": args.cost_fn, "--prevalence": args.prevalence}
    given = [flag for flag, value in costs.items() if value is not None]
    valued = args.gain_tp is not None
    extra = [f for f, v in (("--gain-tn", args.gain_tn), ("--capacity", args.capacity)) if v]
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
    }
    unset = ("cost_fp", "cost_fn", "n_boot")  # not given: the options' defaults
    try:  # the values are checked once, by ReportOptions; its message names the flags
        return report.ReportOptions(
            **{k: v for k, v in given_values.items() if not (k in unset and v is None)}
        )
    except ValueError as error:
        raise UsageError(_as_flags(report.one_line(error))) from None


def _as_flags(message: str) -> str:
    """An option's message as the command line says it: ``n_boot`` becomes ``--n-boot``."""
    names = "|".join(f.name for f in dataclasses.fields(report.ReportOptions))
    return re.sub(rf"(^|hint: )({names})\b", lambda m: f"{m[1]}--{m[2].replace('_', '-')}", message)


def _write(lf: pl.LazyFrame, args: argparse.Namespace, **roles: Any) -> int:
    say = args.say
    title, source = roles.pop("title"), roles.pop("source")
    options = _options(args).replace(title=title)
    data = report.compute(lf, **roles, options=options, progress=say)
    say("drawing charts")
    page = report.render(data, source=source, progress=say)
    output = Path(args.output)
    output.write_text(page, encoding="utf-8")
    say(f"wrote {output} ({len(page.encode()) / 1e6:.1f} MB)")
    _summary(data)
    return 0


def _summary(data: report.ReportData) -> None:
    """The AUC table and the curve sizes, on stdout."""
    by = data.roles["by"]
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
