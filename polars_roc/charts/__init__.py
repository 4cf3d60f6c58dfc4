"""
Altair charts of ROC analysis: frame in, chart out.

Each builder takes the eager frame a ``.roc`` method returns (or, for :func:`score_chart`,
the scored rows), plus column roles (``color=``, ``facet=``, ...), and returns an untitled
Altair chart to compose with ``+``, ``|`` and ``&``. Altair is imported when a chart is built,
not when :mod:`polars_roc` is imported, and no global Altair state (themes, data
transformers, renderers) is changed.

Large frames are thinned for drawing (see :mod:`polars_roc.charts._thin` for the error
bound), so a curve of millions of thresholds stays under Altair's 5,000-row limit and the
page stays small; labels and tooltips show exact values. ``+inf`` thresholds (and any NaN)
are written as null, since JSON has no Infinity.

Examples
--------
>>> import polars_roc as pr
>>> df = pr.datasets.simulate(1000, seed=2)
>>> chart = pr.charts.roc_chart(df.roc.curve(by="model"), color="model")
>>> chart.to_dict()["width"]
300
"""

from polars_roc.charts._calibration import calibration_chart
from polars_roc.charts._decisions import decision_curve_chart, value_chart
from polars_roc.charts._explorer import threshold_explorer
from polars_roc.charts._gains import gain_chart
from polars_roc.charts._geometry import hull_chart
from polars_roc.charts._intervals import auc_interval_chart, average_curve_chart
from polars_roc.charts._ks import ks_chart
from polars_roc.charts._monitoring import over_time_chart, stability_chart
from polars_roc.charts._pr_det import det_chart, pr_chart
from polars_roc.charts._roc import partial_auc_chart, roc_chart
from polars_roc.charts._scores import score_chart
from polars_roc.charts._segments import cross_auc_chart, disparity_chart  # segments
from polars_roc.charts._slices import slice_chart
from polars_roc.charts._survival import time_auc_chart
from polars_roc.charts._thresholds import threshold_chart

__all__ = [
    "auc_interval_chart",
    "average_curve_chart",
    "calibration_chart",
    "cross_auc_chart",  # segments",
    "decision_curve_chart",
    "det_chart",
    "disparity_chart",  # segments",
    "gain_chart",
    "hull_chart",
    "ks_chart",
    "over_time_chart",
    "partial_auc_chart",
    "pr_chart",
    "roc_chart",
    "score_chart",
    "slice_chart",
    "stability_chart",
    "threshold_chart",
    "threshold_explorer",
    "time_auc_chart",
    "value_chart",
]
