"""
pROC 1.18 run live: curves, AUC, partial AUC, DeLong, ``roc.test``, ``coords`` and power.

One Rscript computes every expected value (see conftest.py) on pROC's aSAH data (tests/data)
and on messy simulated frames: heavy ties, a pool of five scores, tiny groups, a continuous
pair. Each frame has two markers ``x1, x2`` on the same cases (``case``), label 1 = case.
pROC is called with ``levels = c(0, 1), direction = "<"`` (higher score = case), as ours.

Differences on purpose, asserted as such (not hidden by a tolerance):

* pROC's thresholds are midpoints between consecutive distinct scores (and -Inf for the
  lowest); ours are the scores themselves (a row is positive iff ``score >= threshold``);
  the curve's points are the same.
* pROC's ``youden`` in ``coords`` is ``se + sp`` (its weight ``r = 1``); ours is
  ``tpr - fpr = se + sp - 1``.
* Where a count is 0, pROC's ``ppv``/``npv`` are NaN; ours are null.
* pROC's McClish correction is NA below the diagonal; ours keeps the corrected value
  (below 0.5), equal to pROC's with ``allow.invalid.partial.auc.correct = TRUE``.
* ``coords(r, "best")`` lists every tied optimum; ``best_threshold`` returns one row, the
  tied optimum of highest threshold (pROC's tied point of lowest sensitivity).
* ``roc.test``'s paired ``conf.int`` is two-sided whatever the alternative and is not
  clipped (1.507 on the "small" frame); ours is one-sided for a one-sided test and clipped
  to [-1, 1], the range of a difference of AUCs.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm

import polars_roc as pr
from tests.conftest import DATA
from tests.r_oracles.conftest import require_r, run_r

require_r("pROC")

TIGHT = 1e-9  # closed forms: pROC and ours must agree to this (absolute)


def _frames() -> pl.DataFrame:
    """aSAH and the simulated frames in long form: ``data, case, label, x1, x2``."""
    asah = pl.read_csv(DATA / "aSAH.csv")
    parts = [
        pl.DataFrame(
            {
                "data": "asah",
                "label": (asah["outcome"] == "Poor").cast(pl.Int64),
                "x1": asah["s100b"].cast(pl.Float64),
                "x2": asah["wfns"].cast(pl.Float64),
            }
        ),
        pl.DataFrame(
            {
                "data": "asah_ndka",
                "label": (asah["outcome"] == "Poor").cast(pl.Int64),
                "x1": asah["ndka"].cast(pl.Float64),
                "x2": asah["s100b"].cast(pl.Float64),
            }
        ),
    ]
    rng = np.random.default_rng(20261202)
    n = 60  # integer scores 0..5: many ties inside and across classes
    y = rng.random(n) < 0.35
    parts.append(_sim("ties", y, rng.integers(0, 6, n) + 2 * y, rng.integers(0, 4, n) + y))
    n = 25  # a pool of five scores
    y = rng.random(n) < 0.5
    pool = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    parts.append(_sim("pool", y, rng.choice(pool, n), rng.choice(pool, n)))
    y = np.array([1, 0, 1, 0, 0], dtype=bool)  # 2 cases, 3 controls, one tie across classes
    parts.append(_sim("small", y, np.array([0.9, 0.4, 0.4, 0.1, 0.7]), np.arange(5.0)))
    n = 40  # continuous, no ties, two correlated markers
    y = rng.random(n) < 0.4
    base = rng.normal(size=n) + 1.2 * y
    parts.append(_sim("normal", y, base + rng.normal(0, 0.5, n), base + rng.normal(0, 1.5, n)))
    frame = pl.concat(parts)
    return frame.with_columns(case=pl.int_range(pl.len()).over("data"))


def _sim(name: str, y: np.ndarray, x1: np.ndarray, x2: np.ndarray) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "data": name,
            "label": y.astype(np.int64),
            "x1": x1.astype(np.float64),
            "x2": x2.astype(np.float64),
        }
    )


FRAMES = _frames()
DATASETS = FRAMES["data"].unique(maintain_order=True).to_list()
MARKERS = ["x1", "x2"]
# pROC's partial.auc = c(hi, lo) on "sp" is our fpr = (1 - hi, 1 - lo); on "se", tpr = (lo, hi).
RANGES = [("sp", 1.0, 0.9), ("sp", 0.9, 0.8), ("sp", 0.8, 0.5), ("se", 1.0, 0.9),
          ("se", 0.9, 0.7), ("se", 0.5, 0.0)]  # fmt: skip
THRESHOLDS = [0.5, 1.0, 2.5, 3.0]  # coords at given thresholds (some between, some on scores)

R_CODE = r"""
frames <- inp("frames")
curves <- list(); areas <- list(); partial <- list(); tests <- list(); best <- list()
at <- list(); power2 <- list()
ranges <- inp("ranges")
for (d in unique(frames$data)) {
  f <- frames[frames$data == d, ]
  rocs <- list()
  for (m in c("x1", "x2")) {
    r <- roc(f$label, f[[m]], levels = c(0, 1), direction = "<", quiet = TRUE)
    rocs[[m]] <- r
    k <- coords(r, "all", transpose = FALSE, ret = c("threshold", "specificity",
      "sensitivity", "accuracy", "tn", "tp", "fn", "fp", "npv", "ppv", "1-specificity",
      "1-sensitivity", "1-npv", "1-ppv", "precision", "recall", "youden"))
    curves[[length(curves) + 1]] <- cbind(data = d, marker = m, k)
    b <- coords(r, "best", best.method = "youden", transpose = FALSE,
                ret = c("threshold", "specificity", "sensitivity"))
    best[[length(best) + 1]] <- cbind(data = d, marker = m, b)
    g <- coords(r, c(0.5, 1, 2.5, 3), input = "threshold", transpose = FALSE,
                ret = c("threshold", "sensitivity", "specificity", "tp", "fp"))
    at[[length(at) + 1]] <- cbind(data = d, marker = m, g)
    v <- if (min(sum(f$label == 1), sum(f$label == 0)) > 1) var(r) else NA
    ci <- ci.auc(r, method = "delong")
    pw <- power.roc.test(r)$power
    areas[[length(areas) + 1]] <- data.frame(data = d, marker = m, auc = as.numeric(auc(r)),
      var = v, lower = ci[1], upper = ci[3], power = pw,
      n_pos = length(r$cases), n_neg = length(r$controls))
    for (i in seq_len(nrow(ranges))) {
      focus <- ranges$focus[i]; rng <- c(ranges$hi[i], ranges$lo[i])
      raw <- auc(r, partial.auc = rng, partial.auc.focus = focus)
      std <- suppressWarnings(auc(r, partial.auc = rng, partial.auc.focus = focus,
                                  partial.auc.correct = TRUE))
      std_all <- auc(r, partial.auc = rng, partial.auc.focus = focus,
                     partial.auc.correct = TRUE, allow.invalid.partial.auc.correct = TRUE)
      partial[[length(partial) + 1]] <- data.frame(data = d, marker = m, focus = focus,
        hi = ranges$hi[i], lo = ranges$lo[i], pauc = as.numeric(raw),
        pauc_std = as.numeric(std), pauc_std_all = as.numeric(std_all))
    }
  }
  for (alt in c("two.sided", "less", "greater")) {
    t <- roc.test(rocs$x1, rocs$x2, method = "delong", paired = TRUE, alternative = alt)
    ci <- if (is.null(t$conf.int)) c(NA, NA) else t$conf.int
    tests[[length(tests) + 1]] <- data.frame(data = d, paired = TRUE, alternative = alt,
      statistic = unname(t$statistic), df = NA, p = t$p.value, lower = ci[1], upper = ci[2])
    u <- roc.test(rocs$x1, rocs$x2, method = "delong", paired = FALSE, alternative = alt)
    tests[[length(tests) + 1]] <- data.frame(data = d, paired = FALSE, alternative = alt,
      statistic = unname(u$statistic), df = unname(u$parameter), p = u$p.value,
      lower = NA, upper = NA)
  }
  if (d %in% c("asah", "asah_ndka", "normal")) {
    for (method in c("delong", "obuchowski")) {
      p <- power.roc.test(rocs$x1, rocs$x2, power = 0.9, method = method)
      power2[[length(power2) + 1]] <- data.frame(data = d, method = method,
        ncases = p$ncases, ncontrols = p$ncontrols)
    }
  }
}
out("curves", do.call(rbind, curves))
out("best", do.call(rbind, best))
out("at", do.call(rbind, at))
out("areas", do.call(rbind, areas))
out("partial", do.call(rbind, partial))
out("tests", do.call(rbind, tests))
out("power2", do.call(rbind, power2))

# power.roc.test's one-curve modes on numbers
grid <- inp("power_grid")
one <- list()
for (i in seq_len(nrow(grid))) {
  g <- grid[i, ]
  alt <- sub("-", ".", g$alternative)
  pw <- power.roc.test(ncases = g$n_pos, ncontrols = g$n_neg, auc = g$auc,
                       sig.level = g$alpha, alternative = alt)$power
  size <- power.roc.test(auc = g$auc, power = g$power, kappa = g$kappa, sig.level = g$alpha,
                         alternative = alt)
  root <- power.roc.test(ncases = g$n_pos, ncontrols = g$n_neg, power = g$power,
                         sig.level = g$alpha, alternative = alt)$auc
  # the power pROC gives at our detectable AUC: the requested power if our root is exact
  back <- power.roc.test(ncases = g$n_pos, ncontrols = g$n_neg, auc = g$ours_detectable,
                         sig.level = g$alpha, alternative = alt)$power
  one[[i]] <- data.frame(i = i, power = pw, ncases = size$ncases,
                         ncontrols = size$ncontrols, detectable = root, back = back)
}
out("power1", do.call(rbind, one))
"""

POWER_GRID = pl.DataFrame(
    {
        "n_pos": [41.0, 20.0, 100.0, 12.0, 41.0, 30.0],
        "n_neg": [72.0, 30.0, 50.0, 60.0, 72.0, 90.0],
        "auc": [0.73, 0.65, 0.8, 0.9, 0.73, 0.6],
        "alpha": [0.05, 0.01, 0.05, 0.1, 0.05, 0.01],
        "power": [0.9, 0.8, 0.95, 0.5, 0.9, 0.8],
        "kappa": [1.7, 1.0, 0.5, 3.0, 1.7, 2.0],
        "alternative": ["two-sided"] * 4 + ["one-sided"] * 2,
    }
)


@pytest.fixture(scope="module")
def r(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    ranges = pl.DataFrame(RANGES, schema=["focus", "hi", "lo"], orient="row")
    detectable = [
        pr.detectable_auc(
            g["n_pos"], g["n_neg"], power=g["power"], alpha=g["alpha"], alternative=g["alternative"]
        )
        for g in POWER_GRID.iter_rows(named=True)
    ]
    grid = POWER_GRID.with_columns(ours_detectable=pl.Series(detectable, dtype=pl.Float64))
    inputs = {"frames": FRAMES, "ranges": ranges, "power_grid": grid}
    return run_r(tmp_path_factory.mktemp("proc"), R_CODE, inputs, ["pROC"])


def _one(data: str, marker: str | None = None) -> pl.DataFrame:
    part = FRAMES.filter(pl.col("data") == data)
    if marker is None:
        return part
    return part.select("case", "label", pl.col(marker).alias("score"))


def _rows(frame: pl.DataFrame, **keys: object) -> pl.DataFrame:
    return frame.filter(*(pl.col(k) == v for k, v in keys.items()))


def _close(got: list[float | None], expected: list[float | None], tol: float = TIGHT) -> None:
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        if e is None:
            assert g is None
        else:
            assert g is not None
            assert g == pytest.approx(e, abs=tol, rel=0)


CASES = [(d, m) for d in DATASETS for m in MARKERS]


@pytest.mark.parametrize(("data", "marker"), CASES)
def test_curve_points_and_thresholds(r: dict[str, pl.DataFrame], data: str, marker: str) -> None:
    ours = _one(data, marker).roc.curve(pos_label=1)
    theirs = _rows(r["curves"], data=data, marker=marker).reverse()  # pROC: ascending
    assert ours.height == theirs.height
    _close(ours["tpr"].to_list(), theirs["sensitivity"].to_list())
    _close(ours["fpr"].to_list(), (1 - theirs["specificity"]).to_list())
    for column in ["tp", "fp", "tn", "fn"]:
        assert ours[column].to_list() == theirs[column].round(0).cast(pl.Int64).to_list()
    # On purpose: pROC's threshold is the midpoint below each of our distinct scores.
    t = ours["threshold"].to_numpy()
    midpoints = (t[1:-1] + t[2:]) / 2
    assert theirs["threshold"][0] == np.inf == t[0]
    assert theirs["threshold"][1:-1].to_list() == midpoints.tolist()
    assert theirs["threshold"][-1] == -np.inf


@pytest.mark.parametrize(("data", "marker"), CASES)
def test_coords_measures(r: dict[str, pl.DataFrame], data: str, marker: str) -> None:
    ours = _one(data, marker).roc.thresholds(pos_label=1)
    theirs = _rows(r["curves"], data=data, marker=marker).reverse()

    def _nan_to_null(name: str) -> list[float | None]:
        return theirs[name].fill_nan(None).to_list()

    pairs = {"accuracy": "accuracy", "tnr": "specificity", "tpr": "recall", "fnr": "1-sensitivity"}
    for mine, name in pairs.items():
        _close(ours[mine].to_list(), theirs[name].to_list())
    # On purpose: NaN in pROC where a count is 0 (the +inf and lowest rows), null in ours.
    for mine, name in {"ppv": "ppv", "npv": "npv", "fdr": "1-ppv"}.items():
        undefined = theirs[name].is_nan()
        assert (ours[mine].is_null() == undefined).all()
        _close(ours[mine].to_list(), _nan_to_null(name))
    _close(ours["ppv"].to_list(), _nan_to_null("precision"))
    npv = theirs["1-npv"].fill_nan(None)
    _close(ours["npv"].to_list(), (1 - npv).to_list())
    # On purpose: pROC's youden is se + sp (weight r = 1); ours is se + sp - 1.
    _close(ours["youden"].to_list(), (theirs["youden"] - 1).to_list())


@pytest.mark.parametrize(("data", "marker"), CASES)
def test_coords_at_given_thresholds(r: dict[str, pl.DataFrame], data: str, marker: str) -> None:
    ours = _one(data, marker).roc.thresholds(pos_label=1, thresholds=THRESHOLDS)
    theirs = _rows(r["at"], data=data, marker=marker)
    ours = ours.sort("threshold")
    assert ours["threshold"].to_list() == theirs["threshold"].to_list() == THRESHOLDS
    _close(ours["tpr"].to_list(), theirs["sensitivity"].to_list())
    _close(ours["tnr"].to_list(), theirs["specificity"].to_list())
    assert ours["tp"].to_list() == theirs["tp"].round(0).cast(pl.Int64).to_list()
    assert ours["fp"].to_list() == theirs["fp"].round(0).cast(pl.Int64).to_list()


@pytest.mark.parametrize(("data", "marker"), CASES)
def test_best_youden_point(r: dict[str, pl.DataFrame], data: str, marker: str) -> None:
    ours = _one(data, marker).roc.best_threshold(pos_label=1, method="youden")
    theirs = _rows(r["best"], data=data, marker=marker).sort("sensitivity")
    assert ours.height == 1
    # On purpose: pROC lists every tied optimum; ours is the one of highest threshold (the
    # fewest predicted positives), i.e. pROC's tied point of lowest sensitivity.
    got = ours.select("tpr", "tnr").row(0)
    assert got == pytest.approx(theirs.select("sensitivity", "specificity").row(0), abs=TIGHT)
    youden = theirs["sensitivity"] + theirs["specificity"] - 1
    assert (youden - youden[0]).abs().max() < TIGHT  # every point pROC lists is tied
    assert ours["youden"].item() == pytest.approx(youden[0], abs=TIGHT, rel=0)


@pytest.mark.parametrize(("data", "marker"), CASES)
def test_auc_and_delong(r: dict[str, pl.DataFrame], data: str, marker: str) -> None:
    ours = _one(data, marker).roc.auc(pos_label=1, ci="delong").row(0, named=True)
    theirs = _rows(r["areas"], data=data, marker=marker).row(0, named=True)
    assert (ours["n_pos"], ours["n_neg"]) == (theirs["n_pos"], theirs["n_neg"])
    assert ours["auc"] == pytest.approx(theirs["auc"], abs=TIGHT, rel=0)
    assert ours["auc_se"] ** 2 == pytest.approx(theirs["var"], abs=TIGHT, rel=0)
    assert ours["auc_lower"] == pytest.approx(theirs["lower"], abs=TIGHT, rel=0)
    assert ours["auc_upper"] == pytest.approx(theirs["upper"], abs=TIGHT, rel=0)
    assert pr.roc_power(ours["n_pos"], ours["n_neg"], ours["auc"]) == pytest.approx(
        theirs["power"], abs=TIGHT, rel=0
    )


@pytest.mark.parametrize(("data", "marker"), CASES)
@pytest.mark.parametrize(("focus", "hi", "lo"), RANGES)
def test_partial_auc_both_foci_and_mcclish(
    r: dict[str, pl.DataFrame], data: str, marker: str, focus: str, hi: float, lo: float
) -> None:
    bounds = {"fpr": (1 - hi, 1 - lo)} if focus == "sp" else {"tpr": (lo, hi)}
    ours = _one(data, marker).roc.partial_auc(pos_label=1, **bounds).row(0, named=True)
    theirs = _rows(r["partial"], data=data, marker=marker, focus=focus, hi=hi, lo=lo)
    theirs_row = theirs.row(0, named=True)
    assert ours["pauc"] == pytest.approx(theirs_row["pauc"], abs=TIGHT, rel=0)
    assert ours["pauc_std"] == pytest.approx(theirs_row["pauc_std_all"], abs=TIGHT, rel=0)
    # On purpose: below the diagonal pROC's default correction is NA; ours stays below 0.5.
    if theirs_row["pauc_std"] is None:
        assert ours["pauc_std"] < 0.5
    else:
        assert ours["pauc_std"] == pytest.approx(theirs_row["pauc_std"], abs=TIGHT, rel=0)


@pytest.mark.parametrize("data", DATASETS)
@pytest.mark.parametrize("paired", [True, False])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_roc_test_delong(
    r: dict[str, pl.DataFrame], data: str, *, paired: bool, alternative: str
) -> None:
    long = _one(data).unpivot(
        index=["case", "label"], on=["x1", "x2"], variable_name="model", value_name="score"
    )
    ours = long.roc.compare(pos_label=1, case="case", paired=paired, alternative=alternative)
    row = ours.row(0, named=True)
    assert (row["model_a"], row["model_b"]) == ("x1", "x2")  # pROC's roc1, roc2
    alt = alternative.replace("-", ".")
    theirs = _rows(r["tests"], data=data, paired=paired, alternative=alt).row(0, named=True)
    assert row["statistic"] == pytest.approx(theirs["statistic"], abs=TIGHT, rel=0)
    assert row["p_value"] == pytest.approx(theirs["p"], abs=TIGHT, rel=0)
    if not paired:
        assert row["df"] == pytest.approx(theirs["df"], abs=TIGHT, rel=0)
        return
    assert row["df"] is None
    # On purpose: pROC's conf.int is the two-sided one whatever the alternative, and is not
    # clipped; ours is one-sided for a one-sided test, and clipped to [-1, 1].
    two_sided = _rows(r["tests"], data=data, paired=True, alternative="two.sided")
    lower, upper = two_sided.select("lower", "upper").row(0)
    assert (theirs["lower"], theirs["upper"]) == (lower, upper)
    sd = (upper - lower) / (2 * norm.ppf(0.975))
    if alternative == "two-sided":
        expected = (max(-1.0, lower), min(1.0, upper))
    elif alternative == "less":
        expected = (-1.0, min(1.0, row["diff"] + norm.ppf(0.95) * sd))
    else:
        expected = (max(-1.0, row["diff"] - norm.ppf(0.95) * sd), 1.0)
    assert (row["diff_lower"], row["diff_upper"]) == pytest.approx(expected, abs=TIGHT, rel=0)


@pytest.mark.parametrize("method", ["delong", "obuchowski"])
@pytest.mark.parametrize("data", ["asah", "asah_ndka", "normal"])
def test_two_curve_sample_size(r: dict[str, pl.DataFrame], data: str, method: str) -> None:
    long = _one(data).unpivot(
        index=["case", "label"], on=["x1", "x2"], variable_name="model", value_name="score"
    )
    got = long.roc.compare(pos_label=1, case="case", power=0.9, power_method=method)
    theirs = _rows(r["power2"], data=data, method=method).row(0, named=True)
    row = got.row(0, named=True)
    assert row["n_pos_needed"] == pytest.approx(theirs["ncases"], rel=TIGHT)
    assert row["n_neg_needed"] == pytest.approx(theirs["ncontrols"], rel=TIGHT)


@pytest.mark.parametrize("i", range(POWER_GRID.height))
def test_one_curve_power_and_sample_size(r: dict[str, pl.DataFrame], i: int) -> None:
    g = POWER_GRID.row(i, named=True)
    theirs = r["power1"].row(i, named=True)
    common = {"alpha": g["alpha"], "alternative": g["alternative"]}
    got = pr.roc_power(g["n_pos"], g["n_neg"], g["auc"], **common)
    assert got == pytest.approx(theirs["power"], abs=TIGHT, rel=0)
    n_pos, n_neg = pr.roc_sample_size(g["auc"], power=g["power"], kappa=g["kappa"], **common)
    assert n_pos == pytest.approx(theirs["ncases"], rel=TIGHT)
    assert n_neg == pytest.approx(theirs["ncontrols"], rel=TIGHT)
    # detectable AUC: pROC's uniroot stops at its tolerance, so back-check our root instead
    assert theirs["back"] == pytest.approx(g["power"], abs=TIGHT, rel=0)
    ours = pr.detectable_auc(g["n_pos"], g["n_neg"], power=g["power"], **common)
    assert ours == pytest.approx(theirs["detectable"], abs=1e-4)


def test_frames_are_messy_as_intended() -> None:
    """The simulated frames hold what they claim: ties across classes, a tiny group."""
    ties = _one("ties")
    assert ties["x1"].n_unique() <= 8
    assert ties.group_by("x1").agg(pl.col("label").n_unique()).filter(pl.col("label") == 2).height
    small = _one("small")
    assert (small["label"].sum(), small.height) == (2, 5)
