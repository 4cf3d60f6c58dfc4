"""
``polars-roc check``: release gates on a scored file, with an exit status a pipeline acts on.

``polars-roc check FILE --score s --label y --model m --champion A --challenger B
[--case id] [--by seg] [--margin 0.02] [--min-auc 0.7] [--time t --every 1mo --reference
START..END] [--max-psi 0.25] [-o checks.json|csv]`` prints the check table
(:func:`polars_roc.gates.checks`), writes it with ``-o``, and exits 0 when every check
passes, 1 when any fails, 2 on bad input (one line naming the flag or column). The input
file is only read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import polars as pl

from polars_roc.cli import _arguments as arguments
from polars_roc.cli import _files as files
from polars_roc.cli._files import UsageError
from polars_roc.gates import checks
from polars_roc.report import parse_reference

__all__ = ["add", "report_flags", "report_table", "run"]

#: What ``-o`` writes, by suffix.
WRITERS = (".json", ".csv")


def _band(text: str) -> tuple[float, float]:
    lo, _, hi = text.partition(",")
    try:
        return float(lo), float(hi)
    except ValueError:
        msg = f"--slope takes LO,HI, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None


def add(sub: Any) -> None:
    """Add the ``check`` subcommand to the command's subparsers."""
    cmd = sub.add_parser(
        "check",
        help="release gates: exit 0 when the challenger passes every check, 1 when not",
        description="Check a challenger against a champion per segment; exit 0 (pass), "
        "1 (a check fails) or 2 (bad input).",
    )
    cmd.add_argument("path", help="scored rows in long format: .csv, .tsv, .parquet, .arrow")
    cmd.add_argument("--score", required=True, help="score column (higher = more positive)")
    cmd.add_argument("--label", required=True, help="class column")
    cmd.add_argument("--model", required=True, help="column naming the model of each row")
    cmd.add_argument("--champion", required=True, help="the current model's name")
    cmd.add_argument("--challenger", required=True, help="the candidate model's name")
    cmd.add_argument("--case", help="case id column: pairs the two models' rows")
    cmd.add_argument("--by", help="segment column: every check runs per segment")
    cmd.add_argument("--pos-label", help="the positive class (unless Boolean or 0/1)")
    cmd.add_argument("--margin", type=float, help="non-inferiority margin in AUC, e.g. 0.02")
    cmd.add_argument("--min-auc", type=float, help="lowest accepted AUC lower bound, e.g. 0.7")
    cmd.add_argument("--time", help="time column: the last window's alert (and PSI)")
    cmd.add_argument("--every", default="1mo", help="window length (default: %(default)s)")
    cmd.add_argument("--reference", metavar="START..END", help="reference period of --time")
    cmd.add_argument("--max-psi", type=float, help="largest accepted PSI of the last window")
    cmd.add_argument("--min-p", type=float, help="smallest accepted disparity p-value")
    cmd.add_argument("--slope", type=_band, metavar="LO,HI", help="calibration slope band")
    cmd.add_argument("--level", type=float, default=0.95, help="confidence level (0.95)")
    cmd.add_argument("-o", "--output", help="write the table: checks.json or checks.csv")
    cmd.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    cmd.set_defaults(run=run, progress=False)


def report_flags(rep: argparse.ArgumentParser) -> None:
    """The ``report`` flags that put the check table at the top of the page."""
    gates = rep.add_argument_group("release gates (the checks at the top of the page)")
    gates.add_argument("--checks", action="store_true", help="add the release gates")
    gates.add_argument("--model", help="column naming the model of each row")
    gates.add_argument("--champion", help="the current model's name")
    gates.add_argument("--challenger", help="the candidate model's name")
    gates.add_argument(
        "--case",
        help="case id column: pairs the models' rows (here and in the Model comparison "
        "section, which tests the models of the first --by column paired with it)",
    )
    gates.add_argument("--margin", type=float, help="non-inferiority margin in AUC")
    gates.add_argument("--min-auc", type=float, help="lowest accepted AUC lower bound")
    gates.add_argument("--max-psi", type=float, help="largest accepted PSI (with --time)")
    gates.add_argument("--min-p", type=float, help="smallest accepted disparity p-value")
    gates.add_argument("--slope", type=_band, metavar="LO,HI", help="calibration slope band")


def report_table(lf: pl.LazyFrame, args: argparse.Namespace) -> pl.DataFrame | None:
    """The report's check table, when ``--checks`` or ``--champion`` asks for one."""
    if not (args.checks or args.champion is not None):
        return None
    for flag in ("model", "champion", "challenger"):
        if getattr(args, flag) is None:
            msg = f"--checks needs --{flag}\n\nHint: --model model --champion A --challenger B."
            raise UsageError(msg)
    schema = lf.collect_schema()
    by = [name for name in args.by if name != args.model] or None  # the report's model group
    pos_label = arguments.pos_label(args.pos_label, schema[args.label], args.label)
    return _table(lf, args, by=by, pos_label=pos_label)


def _table(lf: pl.LazyFrame, args: argparse.Namespace, **roles: Any) -> pl.DataFrame:
    """The check table the flags ask for."""
    timed = args.time is not None and args.reference is not None
    return checks(
        lf,
        args.score,
        args.label,
        model=args.model,
        champion=args.champion,
        challenger=args.challenger,
        case=args.case,
        margin=args.margin,
        min_auc=args.min_auc,
        time=args.time if timed else None,
        every=args.every,
        reference=parse_reference(args.reference) if timed else None,
        max_psi=args.max_psi,
        min_p=args.min_p,
        slope=args.slope,
        level=args.level,
        **roles,
    ).collect()


def run(args: argparse.Namespace) -> int:
    """Run the checks; 0 when all pass, 1 when any fails (bad input raises)."""
    if args.output is not None and Path(args.output).suffix.lower() not in WRITERS:
        msg = f"-o {args.output!r}: write checks.json or checks.csv"
        raise UsageError(msg)
    if (args.time is None) != (args.reference is None):
        msg = "--time and --reference go together (the alert needs a reference period)"
        raise UsageError(msg)
    if args.max_psi is not None and args.time is None:
        raise UsageError("--max-psi needs --time and --reference")
    if args.output is not None:
        files.refuse_overwrite(args.path, args.output)
    lf = files.scan(args.path)
    roles = {
        "--score": args.score, "--label": args.label, "--model": args.model,
        "--case": args.case, "--by": args.by, "--time": args.time,
    }  # fmt: skip
    used = [name for name in roles.values() if name is not None]
    schema = files.readable(args.path, lf, used)
    for flag, name in roles.items():
        if name is not None and name not in schema:
            msg = f"{flag}: column {name!r} not found in {args.path!r}"
            raise UsageError(msg)
    pos_label = arguments.pos_label(args.pos_label, schema[args.label], args.label)
    table = _table(lf, args, by=args.by, pos_label=pos_label)
    if not args.quiet:
        with pl.Config(tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=200, tbl_width_chars=200):
            print(table)
    if args.output is not None:
        if args.output.lower().endswith(".json"):
            table.write_json(args.output)
        else:
            table.write_csv(args.output)
    passed = table.height > 0 and bool(table["passed"].all())
    if not args.quiet:
        failed = table.filter(~pl.col("passed")).height
        verdict = "pass" if passed else f"FAIL ({failed} of {table.height} checks)"
        print(f"polars-roc check: {verdict}", file=sys.stderr)
    return 0 if passed else 1
