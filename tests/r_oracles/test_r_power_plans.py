"""
pROC 1.18 run live: every mode of the two-curve ``power.roc.test`` against ``compare(plan=)``.

For each pair of markers on the same cases (aSAH's three markers two by two, and a
simulated continuous pair), each variance (``method = "delong"`` / ``"obuchowski"``) and
each side: the power at the data's size (``power = NULL``), the significance level for power
0.9 (``sig.level = NULL``) and the sample size for power 0.9. For partial areas over
specificity (1, 0.9) and (1, 0.8) (our ``fpr=(0, 0.1)`` / ``(0, 0.2)``), Obuchowski's
variance, the same three modes. pROC is called with ``levels = c(0, 1), direction = "<"``;
``roc1`` is our ``model_a`` (the first in the model column's order). At a size of our
choosing (``n_pos=``, ``n_neg=``; pROC's two-curve form plans only at the data's size) the
oracle is pROC's list form ``power.roc.test(list(A1=, B1=, ...), ncases=, ncontrols=)``
fed the curves' binormal parameters and score correlations, as pROC's own route reads them.

A difference on purpose, asserted as such: where no significance level reaches power 0.9
(the simulated pair's difference is small), pROC's two-sided ``sig.level`` is
``2·(1 - Φ(z))`` above 1; ours is null.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from tests.conftest import DATA
from tests.r_oracles.conftest import require_r, run_r

require_r("pROC")

TIGHT = 1e-9

PAIRS = [("ndka", "wfns"), ("s100b", "wfns"), ("ndka", "s100b"), ("x1", "x2")]
RANGES = [(0.9, (0.0, 0.1)), (0.8, (0.0, 0.2))]  # pROC's specificity bound, our fpr range


def _wide() -> pl.DataFrame:
    asah = pl.read_csv(DATA / "aSAH.csv")
    rng = np.random.default_rng(42)
    n = 150
    label = rng.random(n) < 0.4
    x1 = rng.normal(size=n) + 1.0 * label
    x2 = 0.6 * x1 + rng.normal(size=n) * 0.8 + 0.3 * label
    simulated = pl.DataFrame({"label": label.astype(np.int64), "x1": x1, "x2": x2})
    marked = asah.select(
        label=(pl.col("outcome") == "Poor").cast(pl.Int64),
        s100b=pl.col("s100b").cast(pl.Float64),
        ndka=pl.col("ndka").cast(pl.Float64),
        wfns=pl.col("wfns").cast(pl.Float64),
    )
    return pl.concat([marked, simulated], how="diagonal").with_row_index("case")


WIDE = _wide()

R_CODE = r"""
wide <- inp("wide")
pairs <- inp("pairs")
rows <- list()
for (i in seq_len(nrow(pairs))) {
  a <- pairs$a[i]; b <- pairs$b[i]
  keep <- !is.na(wide[[a]]) & !is.na(wide[[b]])
  for (sp in c(NA, 0.9, 0.8)) {
    mk <- function(m) {
      y <- wide$label[keep]; x <- wide[[m]][keep]
      if (is.na(sp)) roc(y, x, levels = c(0, 1), direction = "<", quiet = TRUE)
      else roc(y, x, levels = c(0, 1), direction = "<", quiet = TRUE,
               partial.auc = c(1, sp), partial.auc.focus = "specificity")
    }
    r1 <- mk(a); r2 <- mk(b)
    methods <- if (is.na(sp)) c("delong", "obuchowski") else "obuchowski"
    for (method in methods) for (alt in c("two.sided", "one.sided")) {
      p <- power.roc.test(r1, r2, method = method, alternative = alt)$power
      s <- power.roc.test(r1, r2, method = method, alternative = alt, power = 0.9,
                          sig.level = NULL)$sig.level
      n <- power.roc.test(r1, r2, method = method, alternative = alt, power = 0.9)
      rows[[length(rows) + 1]] <- data.frame(
        a = a, b = b, sp = ifelse(is.na(sp), 0, sp), method = method, alternative = alt,
        power = p, sig_level = s, ncases = n$ncases, ncontrols = n$ncontrols)
    }
  }
}
out("plans", do.call(rbind, rows))
# At a size pROC's roc form cannot take: its list form from the same curves' binormal
# parameters and correlations (pROC's own var/cov route reads exactly these).
sized <- list()
for (i in seq_len(nrow(pairs))) {
  a <- pairs$a[i]; b <- pairs$b[i]
  keep <- !is.na(wide[[a]]) & !is.na(wide[[b]])
  y <- wide$label[keep]
  for (sp in c(NA, 0.9)) {
    mk <- function(m) {
      if (is.na(sp)) roc(y, wide[[m]][keep], levels = c(0, 1), direction = "<", quiet = TRUE)
      else roc(y, wide[[m]][keep], levels = c(0, 1), direction = "<", quiet = TRUE,
               partial.auc = c(1, sp), partial.auc.focus = "specificity")
    }
    r1 <- mk(a); r2 <- mk(b)
    c1 <- coefficients(smooth(r1, method = "binormal")$model)
    c2 <- coefficients(smooth(r2, method = "binormal")$model)
    pars <- list(A1 = unname(c1[1]), B1 = unname(c1[2]), A2 = unname(c2[1]), B2 = unname(c2[2]),
                 rn = cor(r1$controls, r2$controls), ra = cor(r1$cases, r2$cases),
                 delta = as.numeric(r1$auc) - as.numeric(r2$auc))
    if (!is.na(sp)) pars <- c(pars, list(FPR11 = 0, FPR12 = 1 - sp, FPR21 = 0, FPR22 = 1 - sp))
    for (size in list(c(30, 200), c(120, 60))) {
      p <- power.roc.test(pars, ncases = size[1], ncontrols = size[2])$power
      s <- power.roc.test(pars, ncases = size[1], ncontrols = size[2], power = 0.9,
                          sig.level = NULL)$sig.level
      sized[[length(sized) + 1]] <- data.frame(a = a, b = b, sp = ifelse(is.na(sp), 0, sp),
        n_pos = size[1], n_neg = size[2], power = p, sig_level = s)
    }
  }
}
out("sized", do.call(rbind, sized))
"""


def _assert_level(ours: float | None, theirs: float) -> None:
    """pROC's level, except a two-sided "level" above 1 (none reaches the power): null."""
    if theirs > 1:
        assert ours is None
    else:
        assert ours == pytest.approx(theirs, abs=TIGHT, rel=0)


@pytest.fixture(scope="module")
def r(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pl.DataFrame]:
    pairs = pl.DataFrame(PAIRS, schema=["a", "b"], orient="row")
    inputs = {"wide": WIDE, "pairs": pairs}
    return run_r(tmp_path_factory.mktemp("power_plans"), R_CODE, inputs, ["pROC"])


def _long(a: str, b: str) -> pl.DataFrame:
    part = WIDE.filter(pl.col(a).is_not_null() & pl.col(b).is_not_null())
    models = pl.Enum([a, b])  # roc1 = model_a
    return part.unpivot(
        index=["case", "label"], on=[a, b], variable_name="model", value_name="score"
    ).with_columns(pl.col("model").cast(models))


CASES = [
    (a, b, sp, method, alternative)
    for a, b in PAIRS
    for sp in (0.0, 0.9, 0.8)
    for method in (("delong", "obuchowski") if sp == 0.0 else ("obuchowski",))
    for alternative in ("two.sided", "one.sided")
]


@pytest.mark.parametrize(("a", "b", "sp", "method", "alternative"), CASES)
def test_every_mode_as_proc(
    r: dict[str, pl.DataFrame], a: str, b: str, sp: float, method: str, alternative: str
) -> None:
    theirs = (
        r["plans"]
        .filter(a=a, b=b, sp=sp, method=method, alternative=alternative)
        .row(0, named=True)
    )
    kwargs: dict[str, object] = {"pos_label": 1, "case": "case", "power_method": method}
    kwargs["alternative"] = "two-sided" if alternative == "two.sided" else "greater"
    if sp:
        kwargs |= {"method": "bootstrap", "n_boot": 20, "fpr": dict(RANGES)[sp]}
    long = _long(a, b)
    power = long.roc.compare(plan="power", **kwargs)["power"].item()
    level = long.roc.compare(plan="alpha", power=0.9, **kwargs)["alpha"].item()
    sizes = long.roc.compare(power=0.9, **kwargs).select("n_pos_needed", "n_neg_needed").row(0)
    assert power == pytest.approx(theirs["power"], abs=TIGHT, rel=0)
    _assert_level(level, theirs["sig_level"])
    assert sizes == pytest.approx((theirs["ncases"], theirs["ncontrols"]), rel=TIGHT)


SIZED = [
    (a, b, sp, n_pos, n_neg)
    for a, b in PAIRS
    for sp in (0.0, 0.9)
    for n_pos, n_neg in ((30, 200), (120, 60))
]


@pytest.mark.parametrize(("a", "b", "sp", "n_pos", "n_neg"), SIZED)
def test_obuchowski_plan_at_a_given_size_as_the_list_form(
    r: dict[str, pl.DataFrame], a: str, b: str, sp: float, n_pos: int, n_neg: int
) -> None:
    theirs = r["sized"].filter(a=a, b=b, sp=sp, n_pos=n_pos, n_neg=n_neg).row(0, named=True)
    kwargs: dict[str, object] = {"pos_label": 1, "case": "case", "power_method": "obuchowski"}
    kwargs |= {"n_pos": n_pos, "n_neg": n_neg}
    if sp:
        kwargs |= {"method": "bootstrap", "n_boot": 20, "fpr": dict(RANGES)[sp]}
    long = _long(a, b)
    power = long.roc.compare(plan="power", **kwargs)["power"].item()
    level = long.roc.compare(plan="alpha", power=0.9, **kwargs)["alpha"].item()
    assert power == pytest.approx(theirs["power"], abs=TIGHT, rel=0)
    _assert_level(level, theirs["sig_level"])
