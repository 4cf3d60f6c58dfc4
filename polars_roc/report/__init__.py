"""The HTML report: frames computed per segment, charts, and one self-contained page.

:class:`ReportOptions` holds the report's settings as one frozen value (checked once);
:func:`compute` gathers the frames (:mod:`~polars_roc.report._data`),
:mod:`~polars_roc.report._figures` chooses the charts, :mod:`~polars_roc.report._page` and
:mod:`~polars_roc.report._business` write the sections, :func:`render` / :func:`to_html`
assemble the page; :func:`one_vs_rest` turns wide multiclass scores into binary rows;
:func:`compute_over_time` gives ``render(..., over_time=)`` its "Over time" section.
"""

from polars_roc.report._build import compute, render, to_html
from polars_roc.report._data import Progress, ReportData
from polars_roc.report._monitoring import OverTimeData, parse_reference
from polars_roc.report._monitoring import compute as compute_over_time
from polars_roc.report._multiclass import one_vs_rest
from polars_roc.report.options import JsMode, ReportOptions

__all__ = [
    "JsMode",
    "OverTimeData",
    "Progress",
    "ReportData",
    "ReportOptions",
    "compute",
    "compute_over_time",
    "one_vs_rest",
    "parse_reference",
    "render",
    "to_html",
]
