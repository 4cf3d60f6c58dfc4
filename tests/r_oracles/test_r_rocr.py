"""
ROCR run live: its performance measures at every cutoff, its AUC and its ROC convex hull.

One Rscript (see conftest.py) on ROCR's own ``ROCR.simple`` (tests/data) and on messy
simulated frames (heavy ties, a tiny group). ROCR's cutoffs are ``Inf`` then every distinct
score, descending, and a row is positive iff ``score >= cutoff``: the rows of our threshold
table, in the same order.

Differences on purpose, asserted as such:

* where a count is 0 (the ``Inf`` cutoff has no predicted positive, the lowest no predicted
  negative), ROCR's ratios are NaN; ours are null;
* f1 at the ``Inf`` cutoff: ROCR NaN (0/0 precision), ours 0 (``2 tp / (2 tp + fp + fn)``);
* ``aucpr``: ROCR keeps, per number of true positives, the point of fewest false positives
  (highest precision), starts at precision 1, and fills recall jumps of more than 2 positives
  with Davis & Goadrich's interpolation (as its R code does it, see :func:`rocr_aucpr`); our
  ``pr_auc`` is the trapezoid over every point of ``pr_curve`` (scikit-learn's
  ``auc(recall, precision)``). ROCR.simple: ROCR 0.787521, ours 0.781425.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

import polars_roc  # noqa: F401  (registers the .roc namespaces)
from tests.conftest import DATA
from tests.r_oracles.conftest import require_r, run_r

require_r("ROCR")

TIGHT = 1e-9


def _frames() -> pl.DataFrame:
    simple = pl.read_csv(DATA / "ROCR_simple.csv")
    rng = np.random.default_rng(7)
    n = 80
    y = rng.random(n) < 0.3
    ties = rng.integers(0, 7, n) + 2 * y
    return pl.concat(
        [
            pl.DataFrame(
                {"data": "simple", "score": simple["predictions"], "label": simple["labels"]}
            ),
            pl.DataFrame(
                {"data": "ties", "score": ties.astype(float), "label": y.astype(np.int64)}
            ),
            pl.DataFrame(
                {"data": "small", "score": [0.2, 0.8, 0.8, 0.5, 0.1], "label": [0, 1, 0, 1, 0]}
            ),
        ]
    )


FRAMES = _frames()
DATASETS = FRAMES["data"].unique(maintain_order=True).to_list()
# ROCR measure -> our threshold-table column
MEASURES = {"tpr": "tpr", "fpr": "fpr", "tnr": "tnr", "fnr": "fnr", "ppv": "ppv",
            "npv": "npv", "acc": "accuracy", "f": "f1", "phi": "mcc", "pcfall": "fdr"}  # fmt: skip

R_CODE = r"""
frames <- inp("frames")
measures <- c("tpr", "fpr", "tnr", "fnr", "ppv", "npv", "acc", "f", "phi", "pcfall", "lift",
              "rpp", "prec", "rec")
values <- list(); hulls <- list(); areas <- list()
for (d in unique(frames$data)) {
  f <- frames[frames$data == d, ]
  pred <- prediction(f$score, f$label, label.ordering = c(0, 1))
  for (m in measures) {
    p <- performance(pred, m)
    values[[length(values) + 1]] <- data.frame(data = d, measure = m,
      cutoff = p@x.values[[1]], value = p@y.values[[1]])
  }
  h <- performance(pred, "rch")
  hulls[[length(hulls) + 1]] <- data.frame(data = d, fpr = h@x.values[[1]],
                                           tpr = h@y.values[[1]])
  areas[[length(areas) + 1]] <- data.frame(data = d,
    auc = performance(pred, "auc")@y.values[[1]],
    aucpr = performance(pred, "aucpr")@y.values[[1]])
}
out("values", do.call(rbind, values))
out("hulls", do.call(rbind, hulls))
out("areas", do.call(rbind, areas))
"""


@pytest.fixture(scope="module")
def r(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    return run_r(tmp_path_factory.mktemp("rocr"), R_CODE, {"frames": FRAMES}, ["ROCR"])


def _one(data: str) -> pl.DataFrame:
    return FRAMES.filter(pl.col("data") == data).drop("data")


def _measure(r: dict[str, pl.DataFrame], data: str, measure: str) -> pl.DataFrame:
    return r["values"].filter(pl.col("data") == data, pl.col("measure") == measure)


def rocr_aucpr(tp: np.ndarray, fp: np.ndarray, n_pos: int) -> float:
    """ROCR 1.0-11's ``.performance.aucpr``, line by line (its insertions shift the indices)."""
    best: dict[int, int] = {}
    for t, f in zip(tp.tolist(), fp.tolist(), strict=True):
        best[t] = min(f, best.get(t, f))
    tps = sorted(best)
    fps = [best[t] for t in tps]
    with np.errstate(invalid="ignore"):
        prec = list(np.divide(tps, np.add(fps, tps), dtype=float))
    rec = [t / n_pos for t in tps]
    if fps[0] == 0 and tps[0] == 0:
        prec[0] = 1.0
    for i in range(len(rec) - 1):
        jump = tps[i + 1] - tps[i]
        if jump > 2:
            skew = (fps[i + 1] - fps[i]) / jump
            x = np.arange(1, jump + 1)
            rec[i + 1 : i + 1] = list((x + tps[i]) / n_pos)
            prec[i + 1 : i + 1] = list((x + tps[i]) / (tps[i] + fps[i] + x + skew * x))
    return float(
        sum(0.5 * (rec[i] - rec[i - 1]) * (prec[i] + prec[i - 1]) for i in range(1, len(rec)))
    )


def _close(got: list[float | None], expected: list[float | None]) -> None:
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        if e is None:
            assert g is None
        else:
            assert g == pytest.approx(e, abs=TIGHT, rel=0)


@pytest.mark.parametrize("data", DATASETS)
@pytest.mark.parametrize("measure", list(MEASURES))
def test_measures_at_every_cutoff(r: dict[str, pl.DataFrame], data: str, measure: str) -> None:
    ours = _one(data).roc.thresholds(pos_label=1)
    theirs = _measure(r, data, measure)
    assert ours["threshold"].to_list() == theirs["cutoff"].to_list()
    expected = theirs["value"]
    nan = expected.is_nan()
    if measure == "f":  # on purpose: at the Inf cutoff ROCR's f is NaN, ours 0
        assert nan.to_list() == [True] + [False] * (len(nan) - 1)
        assert ours["f1"][0] == 0.0
        expected = expected.scatter(0, 0.0)
        nan = expected.is_nan()
    # on purpose: NaN in ROCR where a count is 0, null in ours, and nowhere else
    assert ours[MEASURES[measure]].is_null().to_list() == nan.to_list()
    _close(ours[MEASURES[measure]].to_list(), expected.fill_nan(None).to_list())


@pytest.mark.parametrize("data", DATASETS)
def test_lift_and_depth(r: dict[str, pl.DataFrame], data: str) -> None:
    ours = _one(data).roc.gain_curve(pos_label=1)
    lift, rpp = _measure(r, data, "lift"), _measure(r, data, "rpp")
    assert ours["threshold"].to_list() == lift["cutoff"].to_list()
    _close(ours["depth"].to_list(), rpp["value"].to_list())
    assert ours["lift"].is_null().to_list() == lift["value"].is_nan().to_list()
    _close(ours["lift"].to_list(), lift["value"].fill_nan(None).to_list())


@pytest.mark.parametrize("data", DATASETS)
def test_convex_hull(r: dict[str, pl.DataFrame], data: str) -> None:
    ours = _one(data).roc.hull(pos_label=1).sort("fpr", "tpr")
    theirs = r["hulls"].filter(pl.col("data") == data).sort("fpr", "tpr")
    assert ours.height == theirs.height
    _close(ours["fpr"].to_list(), theirs["fpr"].to_list())
    _close(ours["tpr"].to_list(), theirs["tpr"].to_list())
    area = _one(data).roc.hull_auc(pos_label=1)
    x, y = theirs["fpr"].to_numpy(), theirs["tpr"].to_numpy()
    assert area["hull_auc"].item() == pytest.approx(np.trapezoid(y, x), abs=TIGHT)


@pytest.mark.parametrize("data", DATASETS)
def test_auc(r: dict[str, pl.DataFrame], data: str) -> None:
    ours = _one(data).roc.auc(pos_label=1)["auc"].item()
    theirs = r["areas"].filter(pl.col("data") == data)["auc"].item()
    assert ours == pytest.approx(theirs, abs=TIGHT, rel=0)


@pytest.mark.parametrize("data", DATASETS)
def test_aucpr_is_not_our_pr_auc(r: dict[str, pl.DataFrame], data: str) -> None:
    table = _one(data).roc.thresholds(pos_label=1)
    n_pos = table["tp"].max()
    theirs = r["areas"].filter(pl.col("data") == data)["aucpr"].item()
    assert theirs == pytest.approx(
        rocr_aucpr(table["tp"].to_numpy(), table["fp"].to_numpy(), n_pos), abs=TIGHT, rel=0
    )
    ours = _one(data).roc.pr_auc(pos_label=1)["pr_auc"].item()
    if data == "small":  # five rows: here both rules give 2/3
        assert ours == pytest.approx(theirs, abs=TIGHT, rel=0)
    else:
        assert abs(ours - theirs) > 1e-3
