"""DeLong intervals and model comparison against slow references, scipy and pROC's values."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
import scipy.stats
from hypothesis import example, given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import polars_roc as pr
from polars_roc._core.distributions import student_t_cdf, student_t_quantile
from tests.conftest import asah_long, repeat_rows, scored_rows

# ---------------------------------------------------------------------------------------
# Slow references: structural components by definition, O(n_pos * n_neg)
# ---------------------------------------------------------------------------------------


def psi(x: float, y: float) -> float:
    return 1.0 if x > y else 0.5 if x == y else 0.0


def components(labels, scores) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's V10 (one per positive) and V01 (one per negative), by definition."""
    labels, scores = np.asarray(labels, dtype=bool), np.asarray(scores, dtype=float)
    pos, neg = scores[labels], scores[~labels]
    v10 = np.array([np.mean([psi(x, y) for y in neg]) for x in pos])
    v01 = np.array([np.mean([psi(x, y) for x in pos]) for y in neg])
    return v10, v01


def delong_reference(labels, scores) -> tuple[float | None, float | None]:
    """(AUC, DeLong variance); variance None when a class has fewer than 2 rows."""
    labels = np.asarray(labels, dtype=bool)
    m, n = int(labels.sum()), int((~labels).sum())
    if m == 0 or n == 0:
        return None, None
    v10, v01 = components(labels, scores)
    if m < 2 or n < 2:
        return float(v10.mean()), None
    return float(v10.mean()), float(np.var(v10, ddof=1) / m + np.var(v01, ddof=1) / n)


# ---------------------------------------------------------------------------------------
# DeLong variance and intervals
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
@given(frame=scored_rows(groups=3, max_size=40))
@example(frame=pl.DataFrame({"score": [0.5, 0.5], "label": [True, False], "group": [0, 0]}))
def test_delong_variance_matches_structural_components(frame: pl.DataFrame, *, lazy: bool) -> None:
    query = (frame.lazy() if lazy else frame).roc.auc(by="group", ci="delong")
    got = query.collect() if isinstance(query, pl.LazyFrame) else query
    assert got.columns == ["group", "auc", "n_pos", "n_neg", "auc_se", "auc_lower", "auc_upper"]
    z = scipy.stats.norm.ppf(0.975)
    for row in got.iter_rows(named=True):
        part = frame.filter(pl.col("group") == row["group"])
        auc, var = delong_reference(part["label"], part["score"])
        assert row["auc"] == (None if auc is None else pytest.approx(auc, abs=1e-12))
        if var is None:
            assert row["auc_se"] is None
            assert row["auc_lower"] is None
            assert row["auc_upper"] is None
            continue
        assert row["auc_se"] == pytest.approx(math.sqrt(var), rel=1e-9, abs=1e-12)
        se = math.sqrt(var)
        assert row["auc_lower"] == pytest.approx(min(1.0, max(0.0, auc - z * se)), abs=1e-12)
        assert row["auc_upper"] == pytest.approx(min(1.0, max(0.0, auc + z * se)), abs=1e-12)


@given(frame=scored_rows(groups=2, max_size=40))
def test_delong_point_estimate_is_plain_auc(frame: pl.DataFrame) -> None:
    plain = frame.roc.auc(by="group")
    with_ci = frame.roc.auc(by="group", ci="delong")
    assert with_ci.select(plain.columns).equals(plain)


def test_delong_keeps_the_rows_and_groups_of_plain_auc() -> None:
    frame = pl.DataFrame(
        {
            "group": ["a", "a", "a", "a", "b", "c", "c", "c", "c", "c"],
            "score": [0.1, 0.9, 0.5, 0.7, None, 0.2, 0.3, 0.4, 0.5, None],
            "label": [0, 1, None, 1, 1, 1, 0, 1, 0, 0],
            "weight": [1.0, 1.0, 1.0, 2.0, 1.0, 0.0, 1.0, 3.0, 2.0, 1.0],
        }
    )
    for weight in (None, "weight"):
        plain = frame.roc.auc(by="group", weight=weight)
        with_ci = frame.roc.auc(by="group", weight=weight, ci="delong")
        assert_frame_equal(with_ci.select(plain.columns), plain)
        assert with_ci["group"].to_list() == ["a", "b", "c"]
    kept = frame.filter(pl.col("group") == "c", pl.col("score").is_not_null())
    auc, var = delong_reference(kept["label"].cast(pl.Boolean), kept["score"])
    row = frame.roc.auc(by="group", ci="delong").row(2, named=True)
    assert (row["auc"], row["auc_se"] ** 2) == pytest.approx((auc, var))


@given(frame=scored_rows(weighted=True, max_size=25))
def test_weighted_delong_equals_repeated_rows(frame: pl.DataFrame) -> None:
    weighted = frame.roc.auc(weight="weight", ci="delong")
    repeated = repeat_rows(frame).roc.auc(ci="delong")
    for column in ("auc", "n_pos", "n_neg", "auc_se", "auc_lower", "auc_upper"):
        got, expected = weighted[column].item(), repeated[column].item()
        assert got == (None if expected is None else pytest.approx(expected, rel=1e-9, abs=1e-12))


def test_delong_nulls_for_small_classes_and_nan() -> None:
    frame = pl.DataFrame(
        {
            "group": ["one_pos", "one_pos", "one_pos", "nan", "nan", "nan", "nan"],
            "score": [0.1, 0.2, 0.9, 0.1, float("nan"), 0.3, 0.4],
            "label": [0, 0, 1, 0, 0, 1, 1],
        }
    )
    got = frame.roc.auc(by="group", ci="delong")
    assert got["auc"].to_list() == [None, 1.0]
    assert got["auc_se"].to_list() == [None, None]
    assert got["auc_lower"].to_list() == [None, None]


def test_delong_level_changes_width() -> None:
    frame = pr.datasets.simulate(500, models=["m"], seed=2)
    narrow = frame.roc.auc(ci="delong", level=0.5)
    wide = frame.roc.auc(ci="delong", level=0.99)
    se = wide["auc_se"].item()
    assert narrow["auc_se"].item() == se
    z50, z99 = scipy.stats.norm.ppf(0.75), scipy.stats.norm.ppf(0.995)
    assert narrow["auc_upper"].item() - narrow["auc_lower"].item() == pytest.approx(2 * z50 * se)
    assert wide["auc_upper"].item() - wide["auc_lower"].item() == pytest.approx(2 * z99 * se)


# Published values: pROC's test suite (tests/testthat/test-var.R, test-ci.auc.R).
PROC_VAR = {"wfns": 0.00146991470882363, "ndka": 0.0031908105493913, "s100b": 0.00266868245717244}


def test_asah_delong_matches_proc() -> None:
    got = asah_long().roc.auc(label="outcome", pos_label="Poor", by="model", ci="delong")
    rows = {row["model"]: row for row in got.iter_rows(named=True)}
    for model, var in PROC_VAR.items():
        assert rows[model]["auc_se"] ** 2 == pytest.approx(var, rel=1e-10)
        assert rows[model]["n_pos"] == 41
        assert rows[model]["n_neg"] == 72
    ndka = rows["ndka"]
    expected = (0.501244999271703, 0.611957994579946, 0.722670989888189)
    assert (ndka["auc_lower"], ndka["auc"], ndka["auc_upper"]) == pytest.approx(expected, rel=1e-10)
    s100b = rows["s100b"]  # pROC prints AUC 0.7314, 95% CI 0.6301-0.8326 (DeLong)
    assert round(s100b["auc"], 4) == 0.7314
    assert (round(s100b["auc_lower"], 4), round(s100b["auc_upper"], 4)) == (0.6301, 0.8326)


def test_asah_delong_subset_matches_proc() -> None:
    female = asah_long().filter((pl.col("gender") == "Female") & (pl.col("model") == "ndka"))
    got = female.roc.auc(label="outcome", pos_label="Poor", ci="delong")
    expected = (0.5261398281, 0.6671428571, 0.8081458862)
    assert got.select("auc_lower", "auc", "auc_upper").row(0) == pytest.approx(expected, abs=1e-9)


# ---------------------------------------------------------------------------------------
# compare: paired and unpaired DeLong tests
# ---------------------------------------------------------------------------------------


def long_frame(labels, score_a, score_b, *, cases_b=None) -> pl.DataFrame:
    n = len(labels)
    return pl.DataFrame(
        {
            "case": list(range(n)) + list(cases_b if cases_b is not None else range(n)),
            "model": ["a"] * n + ["b"] * n,
            "label": list(labels) * 2,
            "score": list(score_a) + list(score_b),
        },
        schema={"case": pl.Int64, "model": pl.String, "label": pl.Boolean, "score": pl.Float64},
    )


paired_data = st.integers(4, 30).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda y: 2 <= sum(y) <= len(y) - 2),
        st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=n, max_size=n),
        st.lists(st.integers(0, 6).map(float), min_size=n, max_size=n),
    )
)


@given(data=paired_data)
def test_paired_test_matches_covariance_of_components(data) -> None:
    labels, score_a, score_b = data
    got = long_frame(labels, score_a, score_b).roc.compare(case="case")
    row = got.row(0, named=True)
    labels = np.asarray(labels)
    m, n = labels.sum(), (~labels).sum()
    a10, a01 = components(labels, score_a)
    b10, b01 = components(labels, score_b)
    var_a = np.var(a10, ddof=1) / m + np.var(a01, ddof=1) / n
    var_b = np.var(b10, ddof=1) / m + np.var(b01, ddof=1) / n
    cov = np.cov(a10, b10, ddof=1)[0, 1] / m + np.cov(a01, b01, ddof=1)[0, 1] / n
    diff = a10.mean() - b10.mean()
    sd = math.sqrt(max(var_a + var_b - 2 * cov, 0.0))
    assert row["paired"] is True
    assert row["df"] is None
    assert row["auc_a"] == pytest.approx(a10.mean(), abs=1e-12)
    assert row["auc_b"] == pytest.approx(b10.mean(), abs=1e-12)
    assert row["diff"] == pytest.approx(diff, abs=1e-12)
    if sd < 1e-9:  # identical placements: only a zero difference is defined
        if abs(diff) < 1e-12:
            assert row["statistic"] == 0.0
            assert row["p_value"] == 1.0
        return
    z = diff / sd
    assert row["statistic"] == pytest.approx(z, rel=1e-7, abs=1e-9)
    assert row["p_value"] == pytest.approx(2 * scipy.stats.norm.sf(abs(z)), rel=1e-7, abs=1e-12)
    q = scipy.stats.norm.ppf(0.975)
    assert row["diff_lower"] == pytest.approx(max(-1.0, diff - q * sd), abs=1e-9)
    assert row["diff_upper"] == pytest.approx(min(1.0, diff + q * sd), abs=1e-9)


unpaired_data = st.tuples(
    st.lists(
        st.tuples(st.booleans(), st.sampled_from([0.0, 0.3, 0.6, 1.0])), min_size=4, max_size=25
    ),
    st.lists(st.tuples(st.booleans(), st.integers(0, 5).map(float)), min_size=4, max_size=25),
).filter(lambda d: all(2 <= sum(y for y, _ in rows) <= len(rows) - 2 for rows in d))


@given(data=unpaired_data)
def test_unpaired_test_uses_welch_df_by_hand(data) -> None:
    rows_a, rows_b = data
    frame = pl.DataFrame(
        {
            "model": ["a"] * len(rows_a) + ["b"] * len(rows_b),
            "label": [y for y, _ in rows_a + rows_b],
            "score": [s for _, s in rows_a + rows_b],
        }
    )
    row = frame.roc.compare().row(0, named=True)
    (auc_a, var_a), (auc_b, var_b) = (
        delong_reference([y for y, _ in r], [s for _, s in r]) for r in (rows_a, rows_b)
    )
    n_a, n_b = len(rows_a), len(rows_b)
    assert row["paired"] is False
    diff = auc_a - auc_b
    assert row["diff"] == pytest.approx(diff, abs=1e-12)
    if var_a + var_b == 0:
        return
    df = (var_a + var_b) ** 2 / (var_a**2 / (n_a - 1) + var_b**2 / (n_b - 1))
    d = diff / math.sqrt(var_a + var_b)
    assert row["df"] == pytest.approx(df, rel=1e-9)
    assert row["statistic"] == pytest.approx(d, rel=1e-9, abs=1e-12)
    assert row["p_value"] == pytest.approx(2 * scipy.stats.t.sf(abs(d), df), rel=1e-8, abs=1e-13)
    q = scipy.stats.t.ppf(0.975, df)
    half = q * math.sqrt(var_a + var_b)
    assert row["diff_lower"] == pytest.approx(max(-1.0, diff - half), abs=1e-9)
    assert row["diff_upper"] == pytest.approx(min(1.0, diff + half), abs=1e-9)


# Published values: pROC's tests/testthat/test-roc.test.R (r.wfns, r.s100b, r.ndka on aSAH).
# Our pairs are sorted (ndka < s100b < wfns), so roc.test(wfns, s100b) is pair (s100b, wfns)
# with the sign of the statistic and the interval flipped.
PROC_PAIRED = {
    ("s100b", "wfns"): (
        -2.20898359144091,
        0.0271757822291882,
        -0.174214419249478,
        -0.0104061769564846,
    ),
    ("ndka", "wfns"): (
        -2.79777591868904,
        0.00514557970691098,
        -0.3600405634833566,
        -0.0634011709339876,
    ),
    ("ndka", "s100b"): (
        -1.39077002573558,
        0.164295175223054,
        -0.2876917446341914,
        0.0488706064228094,
    ),
}
PROC_UNPAIRED = {
    ("s100b", "wfns"): (-1.43490640926908, 0.152825378808796),
    ("ndka", "wfns"): (-3.10125096778969, 0.00220950791756457),
    ("ndka", "s100b"): (-1.55995743389685, 0.120192832430845),
}


@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
def test_asah_paired_delong_matches_proc(*, lazy: bool) -> None:
    frame = asah_long()
    query = (frame.lazy() if lazy else frame).roc.compare(
        label="outcome", pos_label="Poor", case="case"
    )
    got = query.collect() if isinstance(query, pl.LazyFrame) else query
    assert got.columns == [
        "model_a",
        "model_b",
        "auc_a",
        "auc_b",
        "diff",
        "diff_lower",
        "diff_upper",
        "statistic",
        "p_value",
        "paired",
        "df",
        "var_a",
        "var_b",
        "cov",
    ]
    assert got.select("model_a", "model_b").rows() == sorted(PROC_PAIRED)
    for row in got.iter_rows(named=True):
        z, p, lower, upper = PROC_PAIRED[(row["model_a"], row["model_b"])]
        assert row["paired"] is True
        assert row["statistic"] == pytest.approx(z, rel=1e-10)
        assert row["p_value"] == pytest.approx(p, rel=1e-9)
        assert row["diff_lower"] == pytest.approx(lower, rel=1e-9)
        assert row["diff_upper"] == pytest.approx(upper, rel=1e-9)


def test_asah_unpaired_delong_matches_proc() -> None:
    got = asah_long().roc.compare(label="outcome", pos_label="Poor", case="case", paired=False)
    for row in got.iter_rows(named=True):
        d, p = PROC_UNPAIRED[(row["model_a"], row["model_b"])]
        assert row["paired"] is False
        assert row["statistic"] == pytest.approx(d, rel=1e-10)
        assert row["p_value"] == pytest.approx(p, rel=1e-8)


def test_asah_one_sided_matches_proc() -> None:
    # roc.test(r.wfns, r.s100b, alternative = "greater") tests wfns > s100b: our pair
    # (s100b, wfns) with alternative "less".
    frame = asah_long().filter(pl.col("model") != "ndka")
    kwargs = {"label": "outcome", "pos_label": "Poor", "case": "case"}
    less = frame.roc.compare(alternative="less", **kwargs).row(0, named=True)
    greater = frame.roc.compare(alternative="greater", **kwargs).row(0, named=True)
    assert less["p_value"] == pytest.approx(0.0135878911145941, rel=1e-9)
    assert greater["p_value"] == pytest.approx(0.986412108885406, rel=1e-10)
    assert less["diff_lower"] == -1.0
    assert greater["diff_upper"] == 1.0
    sd = less["diff"] / less["statistic"]
    q = scipy.stats.norm.ppf(0.95)
    assert less["diff_upper"] == pytest.approx(less["diff"] + q * sd, rel=1e-9)
    assert greater["diff_lower"] == pytest.approx(greater["diff"] - q * sd, rel=1e-9)
    unpaired = frame.roc.compare(alternative="less", paired=False, **kwargs).row(0, named=True)
    assert unpaired["p_value"] == pytest.approx(0.076412689404398, rel=1e-8)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_undefined_variance_gives_a_null_interval(alternative: str) -> None:
    # one positive per model: both AUCs are defined, their DeLong variances are not
    frame = long_frame(
        [True, False, False, False, False],
        [0.9, 0.1, 0.8, 0.3, 0.4],
        [0.2, 0.5, 0.1, 0.7, 0.3],
    )
    row = frame.roc.compare(case="case", alternative=alternative).row(0, named=True)
    assert row["diff"] == pytest.approx(0.75)
    for column in ("diff_lower", "diff_upper", "statistic", "p_value"):
        assert row[column] is None


def test_identical_curves_give_zero_and_one() -> None:
    frame = asah_long().filter(pl.col("model") == "wfns")
    twin = pl.concat([frame, frame.with_columns(model=pl.lit("copy"))])
    row = twin.roc.compare(label="outcome", pos_label="Poor", case="case").row(0, named=True)
    assert (row["statistic"], row["p_value"], row["diff"]) == (0.0, 1.0, 0.0)
    assert (row["diff_lower"], row["diff_upper"]) == (0.0, 0.0)


def test_paired_is_decided_from_the_cases() -> None:
    labels = [True, False, True, False, True, False]
    scores = [0.9, 0.1, 0.8, 0.3, 0.4, 0.5]
    same = long_frame(labels, scores, scores[::-1])
    assert same.roc.compare(case="case")["paired"].item() is True
    # no case column: the same rows in the same order with the same labels pair, as pROC
    assert same.roc.compare()["paired"].item() is True
    assert same.roc.compare(case="case", paired=False)["paired"].item() is False
    other = long_frame(labels, scores, scores[::-1], cases_b=range(10, 16))
    assert other.roc.compare(case="case")["paired"].item() is False
    with pytest.raises(Exception, match="do not hold the same cases"):
        other.roc.compare(case="case", paired=True)


def test_every_pair_per_group_equals_one_group_at_a_time() -> None:
    frame = pr.datasets.simulate(400, segments=["north", "south"], seed=5)
    got = frame.roc.compare(case="case", by="segment")
    assert got.height == 2 * 3
    for segment in ("north", "south"):
        alone = frame.filter(pl.col("segment") == segment).roc.compare(case="case")
        part = got.filter(pl.col("segment") == segment).drop("segment")
        assert part.select("model_a", "model_b").rows() == [
            ("baseline", "gbm"),
            ("baseline", "logit"),
            ("gbm", "logit"),
        ]
        assert_frame_equal(part, alone, rel_tol=1e-12)


# ---------------------------------------------------------------------------------------
# Student's t, against scipy
# ---------------------------------------------------------------------------------------


@given(
    t=st.floats(-60, 60, allow_nan=False),
    df=st.one_of(st.floats(0.5, 200), st.floats(200, 1e6), st.integers(1, 30).map(float)),
)
@example(t=0.0, df=3.0)
@example(t=-40.0, df=2.5)
def test_student_t_cdf_matches_scipy(t: float, df: float) -> None:
    expected = scipy.stats.t.cdf(t, df)
    got = float(student_t_cdf(t, df)[()])
    tail = min(expected, 1 - expected)
    assert got == pytest.approx(expected, abs=1e-13 + 1e-9 * tail, rel=1e-9)


def test_student_t_cdf_closed_forms() -> None:
    t = np.array([-1e6, -3.0, -1e-8, 0.0, 1e-8, 0.5, 2.0, 1e3])
    cauchy = 0.5 + np.arctan(t) / np.pi
    two = 0.5 + t / (2 * np.sqrt(2 + t * t))
    assert student_t_cdf(t, 1.0) == pytest.approx(cauchy, rel=1e-13)
    assert student_t_cdf(t, 2.0) == pytest.approx(two, rel=1e-13)
    assert student_t_cdf([np.inf, -np.inf], 5.0).tolist() == [1.0, 0.0]
    assert np.isnan(student_t_cdf(np.nan, 5.0)[()])


@given(
    p=st.floats(1e-10, 1 - 1e-10),
    df=st.one_of(st.floats(1.0, 200), st.floats(200, 1e6)),
)
@example(p=0.975, df=3.0)
@example(p=0.5, df=7.0)
def test_student_t_quantile_matches_scipy(p: float, df: float) -> None:
    expected = scipy.stats.t.ppf(p, df)
    got = float(student_t_quantile(p, df)[()])
    assert got == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_student_t_vectorized_over_mixed_degrees_of_freedom() -> None:
    # entries converge at different speeds: each must still get its own, accurate value
    rng = np.random.default_rng(0)
    df = np.exp(rng.uniform(0.0, np.log(5e6), 2000))
    t = rng.normal(size=2000) * 4
    p = rng.uniform(1e-6, 1 - 1e-6, 2000)
    assert student_t_cdf(t, df) == pytest.approx(scipy.stats.t.cdf(t, df), rel=1e-9, abs=1e-13)
    assert student_t_quantile(p, df) == pytest.approx(scipy.stats.t.ppf(p, df), rel=1e-9)
    assert student_t_quantile(0.975, df) == pytest.approx(scipy.stats.t.ppf(0.975, df), rel=1e-9)


# ---------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [0.0, 1.0, 1.5, -0.1, "0.9"])
def test_level_outside_unit_interval_is_refused(level: object) -> None:
    frame = pr.datasets.simulate(50, seed=1)
    with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
        frame.roc.auc(ci="delong", level=level)
    with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
        frame.roc.compare(case="case", level=level)


def test_unknown_ci_is_refused() -> None:
    frame = pr.datasets.simulate(50, seed=1)
    with pytest.raises(ValueError, match="ci must be 'delong' or 'logit' or 'bootstrap'"):
        frame.roc.auc(ci="wald")


def test_compare_needs_two_models() -> None:
    frame = pr.datasets.simulate(50, models=["only"], seed=1)
    with pytest.raises(
        Exception, match="at least two models in column 'model', found \\['only'\\]"
    ):
        frame.roc.compare(case="case")


def test_compare_refuses_duplicated_cases() -> None:
    frame = pr.datasets.simulate(50, seed=1)
    doubled = pl.concat([frame, frame.head(1)])
    with pytest.raises(Exception, match="appears more than once for model 'logit'"):
        doubled.roc.compare(case="case")


def test_compare_argument_errors() -> None:
    frame = pr.datasets.simulate(50, seed=1)
    with pytest.raises(ValueError, match="paired=True needs"):
        frame.roc.compare(paired=True)
    with pytest.raises(ValueError, match="alternative must be one of"):
        frame.roc.compare(alternative="bigger")
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="model column 'algo'"):
        frame.roc.compare(model="algo")
    with pytest.raises(pl.exceptions.ColumnNotFoundError, match="case column 'id'"):
        frame.roc.compare(case="id")
    with pytest.raises(ValueError, match="model column 'segment' is already the by column"):
        frame.roc.compare(model="segment", by="segment")


# ---------------------------------------------------------------------------------------
# The interval functions take direction and nan_policy, like the analyses they wrap
# ---------------------------------------------------------------------------------------

INTERVALS = {
    "auc_interval": lambda frame, **kw: pr.inference.auc_interval(frame, by="g", **kw),
    "auc_interval bootstrap": lambda frame, **kw: pr.inference.auc_interval(
        frame, by="g", ci="bootstrap", n_boot=50, **kw
    ),
    "partial_auc_interval": lambda frame, **kw: pr.inference.partial_auc_interval(
        frame, by="g", fpr=(0.0, 0.5), n_boot=50, **kw
    ),
    "tpr_at_fpr_interval": lambda frame, **kw: pr.inference.tpr_at_fpr_interval(
        frame, fpr=[0.25, 0.5], by="g", n_boot=50, **kw
    ),
    "fpr_at_tpr_interval": lambda frame, **kw: pr.inference.fpr_at_tpr_interval(
        frame, tpr=0.5, by="g", n_boot=50, **kw
    ),
}
SCORES = pl.DataFrame(
    {
        "g": [1] * 8 + [2] * 8,
        "score": [0.9, 0.8, 0.7, 0.3, 0.6, 0.2, 0.4, 0.1, 5, 3, 4, 1, 2, 6, 0, 7],
        "label": [1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0, 1],
    }
)


@pytest.mark.parametrize("name", sorted(INTERVALS))
def test_interval_direction_lower_is_the_negated_score(name: str) -> None:
    # Negating the score is what "lower" means; thresholds come back in score units.
    interval = INTERVALS[name]
    lower = interval(SCORES, direction="lower")
    negated = interval(SCORES.with_columns(-pl.col("score")))
    units = [c for c in ("threshold", "op_threshold") if c in negated.columns]
    negated = negated.with_columns(-pl.col(c) for c in units)
    assert_frame_equal(lower, negated)
    higher = interval(SCORES)
    assert not higher.equals(lower)  # the data are not symmetric: direction matters here


@pytest.mark.parametrize("name", sorted(INTERVALS))
def test_interval_nan_policy(name: str) -> None:
    interval = INTERVALS[name]
    with_nan = SCORES.with_columns(
        score=pl.when(pl.int_range(pl.len()) == 2).then(float("nan")).otherwise("score")
    )
    dropped = with_nan.filter(~pl.col("score").is_nan())
    assert_frame_equal(interval(with_nan, nan_policy="omit"), interval(dropped))
    propagated = interval(with_nan)  # group 1 holds the NaN: its numbers are null
    value = propagated.columns[-1]  # the interval's upper bound
    assert propagated.filter(pl.col("g") == 1)[value].is_null().all()
    assert propagated.filter(pl.col("g") == 2)[value].is_not_null().all()
    with pytest.raises(ValueError, match="NaN"):
        interval(with_nan, nan_policy="raise")


def test_paired_compare_gives_the_same_bits_on_every_run() -> None:
    # The paired variance summed the per-case gaps in the order a join left them, which
    # varied from run to run: the same call gave p-values differing in the last bits.
    rng = np.random.default_rng(3)
    n = 2_000
    y = rng.random(n) < 0.4
    frame = pl.DataFrame(
        {
            "case": np.tile(np.arange(n), 3),
            "model": np.repeat(["a", "b", "c"], n),
            "label": np.tile(y, 3),
            "score": np.r_[[rng.normal(size=n) + shift * y for shift in (1.0, 0.5, 0.7)]].ravel(),
        }
    )
    first = frame.roc.compare(case="case", adjust="holm")
    assert first["paired"].all()
    for _ in range(6):
        assert frame.roc.compare(case="case", adjust="holm").equals(first)
        lazy = frame.lazy().roc.compare(case="case", adjust="holm")
        assert lazy.collect(engine="streaming").equals(first)
