"""The HTML report: frames computed per segment, charts, and one self-contained page.

:func:`compute` gathers the frames (:mod:`~polars_roc.report.data`),
:mod:`~polars_roc.report.figures` chooses the charts, :mod:`~polars_roc.report.page` and
:mod:`~polars_roc.report.business` write the sections, :func:`render` / :func:`to_html`
assemble the page; :func:`one_vs_rest` turns wide multiclass scores into binary rows.
"""

from polars_roc.report.build import (
    JsMode,
    Progress,
    ReportData,
    compute,
    one_line,
    one_vs_rest,
    render,
    to_html,
)

__all__ = [
    "JsMode",
    "Progress",
    "ReportData",
    "compute",
    "one_line",
    "one_vs_rest",
    "render",
    "to_html",
]
