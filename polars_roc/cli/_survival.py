"""
The ``report`` command's survival flags: --time-to-event, --event, --horizons.

With ``--time-to-event T --event E`` the report adds its "Survival horizons" section
(:mod:`polars_roc.report._survival`); ``--horizons 90,180,365`` chooses the horizons, else
they are the quartiles of the observed event times (the command prints them, and so does
the page). A bad value is an error naming the flag.

Examples
--------
>>> horizons("90, 180,365")
[90.0, 180.0, 365.0]
>>> horizons("90,,365")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected comma-separated numbers such as 90,180,365, got '90,,365'
"""

from __future__ import annotations

import argparse
from typing import Any

import polars as pl

from polars_roc.cli._files import UsageError

__all__ = ["ROLES", "check_flags", "flags", "horizons", "roles", "summary", "without_label"]

#: The keywords of ``report.compute`` that the survival flags set.
ROLES = ("time_to_event", "event", "horizons")


def flags(rep: argparse.ArgumentParser) -> None:
    """--time-to-event, --event, --horizons: the report's "Survival horizons" section."""
    rep.add_argument(
        "--time-to-event",
        metavar="COL",
        help="time to the event or to censoring (numeric, >= 0, e.g. days): with --event, "
        'adds a "Survival horizons" section (AUC(t) with IPCW weights, as scikit-survival)',
    )
    rep.add_argument("--event", metavar="COL", help="event column, Boolean or 0/1 (0 = censored)")
    rep.add_argument(
        "--horizons",
        type=horizons,
        metavar="T1,T2,...",
        help="horizons of AUC(t) in the time's units, e.g. 90,180,365 (default: the "
        "quartiles of the observed event times, printed in the report)",
    )


def horizons(text: str) -> list[float]:
    """Comma-separated horizons: numbers >= 0 (argparse names the flag in the error)."""
    parts = [part.strip() for part in text.split(",")]
    if not text.strip() or not all(parts):
        msg = f"expected comma-separated numbers such as 90,180,365, got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    values = []
    for part in parts:
        try:
            value = float(part)
        except ValueError:
            msg = f"{part!r} is not a number (expected e.g. 90,180,365)"
            raise argparse.ArgumentTypeError(msg) from None
        if not value >= 0 or value == float("inf"):
            msg = f"horizons are times >= 0 in the time column's units, got {part}"
            raise argparse.ArgumentTypeError(msg)
        values.append(value)
    return values


def roles(args: argparse.Namespace, schema: pl.Schema) -> dict[str, Any]:
    """The survival roles of compute() from the flags, checked on the file's schema."""
    time, event, horizons = args.time_to_event, args.event, args.horizons
    if time is None and event is None:
        return {}
    for flag, column in (("--time-to-event", time), ("--event", event)):
        if column not in schema:
            msg = f"{flag} column {column!r} not found; the file has {schema.names()}"
            raise UsageError(msg)
    return {"time_to_event": time, "event": event, "horizons": horizons}


def check_flags(args: argparse.Namespace) -> None:
    """--horizons needs --time-to-event and --event; each of those needs the other."""
    time, event = args.time_to_event, args.event
    if args.horizons is not None and (time is None or event is None):
        raise UsageError("--horizons needs --time-to-event COL and --event COL")
    if (time is None) != (event is None):
        given, missing = (
            ("--event", "--time-to-event") if time is None else ("--time-to-event", "--event")
        )
        raise UsageError(f"{given} needs {missing} too (the survival horizons section)")
    if time is not None and (args.class_scores or args.engine != "polars"):
        msg = "--time-to-event works with --score and --engine polars (it reads the rows' times)"
        raise UsageError(msg)


#: The flags that compare classes, so need --label.
NEED_LABEL = (
    ("--class-scores", "class_scores"),
    ("--segment", "segment"),
    ("--slices", "slices"),
    ("--case", "case"),
    ("--pos-label", "pos_label"),
    ("--time", "time"),
    ("--gain-tp", "gain_tp"),
    ("--decision-curve", "decision_curve"),
    ("--checks", "checks"),
    ("--champion", "champion"),
)


def without_label(args: argparse.Namespace) -> None:
    """
    No --label: a survival report (AUC(t) alone), which needs --time-to-event and --event.

    The plain AUC would take the event flag for a label and ignore censoring, so without
    --label the report shows AUC(t) only; a flag that compares classes is an error.
    """
    if args.time_to_event is None:
        msg = (
            "--label is required (the class column), unless --time-to-event COL and --event "
            "COL ask for a survival report of AUC(t)"
        )
        raise UsageError(msg)
    for flag, name in NEED_LABEL:
        if getattr(args, name, None):
            msg = (
                f"{flag} needs --label: a survival report (--time-to-event without --label) "
                "shows AUC(t) only"
            )
            raise UsageError(msg)


def summary(data: Any) -> None:
    """The AUC(t) table on stdout (after the AUC table), with how its horizons were chosen."""
    if data is None:
        return
    shown = ",".join(f"{h:g}" for h in data.horizons)
    how = f"the quartiles of the event times: --horizons {shown}"
    print(f"AUC(t) at horizons of {data.time}" + (f" ({how})" if data.chosen != "given" else ""))
    with pl.Config(tbl_rows=-1, tbl_cols=-1, tbl_hide_dataframe_shape=True, tbl_width_chars=200):
        print(data.table.drop(data.flag))
