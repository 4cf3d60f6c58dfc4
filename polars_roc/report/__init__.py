"""The HTML report: frames computed per segment, charts, and one self-contained page.

:func:`compute` gathers the frames (:mod:`~polars_roc.report._data`),
:mod:`~polars_roc.report._figures` chooses the charts, :mod:`~polars_roc.report._page` and
:mod:`~polars_roc.report._business` write the sections, :func:`render` / :func:`to_html`
assemble the page; :func:`one_vs_rest` turns wide multiclass scores into binary rows.
"""

from polars_roc.report._build import (
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
