"""
The report's "Survival horizons" section: `time_to_event=`, `event=`, `horizons=`
and `--time-to-event T --event E --horizons 90,180,365`.

The AUC(t) values are checked against scikit-survival in tests/survival/test_survival.py; here the
section must show exactly what `df.roc.time_auc` gives on the same frame, with counts of
censored rows from a numpy count, bootstrap bounds from a one-replicate-at-a-time loop, and
errors that name the argument or flag.
"""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.exceptions import ColumnNotFoundError, SchemaError
from polars.testing import assert_frame_equal

import polars_roc as pr
from polars_roc.cli import main

HORIZONS = [90, 180, 365]
TIME_AUC = ["model", "horizon", "auc", "n_cases", "n_controls", "mean_auc"]


def churn(n: int, seed: int) -> pl.DataFrame:
    """Two models scoring the same customers; churn day censored by an uneven follow-up."""
    rng = np.random.default_rng(seed)
    risk = rng.normal(size=n)
    churn_day = rng.exponential(300 / np.exp(0.9 * risk))
    follow_up = rng.uniform(150, 500, n)
    days = np.minimum(churn_day, follow_up).round().astype(np.int64)
    churned = churn_day <= follow_up
    return pl.concat(
        pl.DataFrame(
            {
                "model": model,
                "score": risk + rng.normal(scale=noise, size=n),
                "days": days,
                "churned": churned,
                "label": (churned & (days <= 180)).astype(np.int64),
            }
        )
        for model, noise in (("gbm", 0.6), ("logit", 1.2))
    )


@pytest.fixture(scope="module")
def customers() -> pl.DataFrame:
    return churn(600, seed=1)


def table_rows(page: str, key: str) -> list[list[str]]:
    """The cells' texts of the table with id `key` (header excluded)."""
    body = re.search(rf'<table id="{key}">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body is not None, key
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    return [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)] for r in rows]


def test_the_section_shows_time_auc_and_the_censored_rows(customers: pl.DataFrame) -> None:
    lf = customers.lazy()
    data = pr.report.compute(
        lf, by="model", ci=None, time_to_event="days", event="churned", horizons=HORIZONS
    )
    table = data.survival.table
    want = customers.roc.time_auc(
        "score", time="days", event="churned", horizons=HORIZONS, by="model"
    )
    assert_frame_equal(table.select(TIME_AUC), want)
    # censored at or before t, counted in numpy; with the cases and controls, every row
    for row in table.iter_rows(named=True):
        rows = customers.filter(pl.col("model") == row["model"])
        days, churned = rows["days"].to_numpy(), rows["churned"].to_numpy()
        t = row["horizon"]
        assert row["n_censored"] == np.sum(~churned & (days <= t))
        assert row["n_cases"] == np.sum(churned & (days <= t))
        assert row["n_cases"] + row["n_controls"] + row["n_censored"] == rows.height
    page = pr.report.render(data, js="cdn")
    assert (
        page.index('id="survival"') < page.index('id="auc"') < page.index('id="roc"')
    )  # AUC(t) leads
    assert '<a href="#survival">Survival horizons</a>' in page
    assert 'id="chart-survival"' in page
    assert 'id="spec-survival"' in page
    shown = table_rows(page, "survival-table")
    expected = [
        [m, str(h), f"{a:.3f}", f"{c:,}", f"{k:,}", f"{z:,}"]
        for m, h, a, c, k, z in table.select(
            "model", "horizon", "auc", "n_cases", "n_controls", "n_censored"
        ).iter_rows()
    ]
    assert shown == expected
    means = want.group_by("model", maintain_order=True).agg(pl.col("mean_auc").first())
    assert table_rows(page, "survival-mean-table") == [
        [m, f"{v:.3f}"] for m, v in means.iter_rows()
    ]
    plain = pr.report.to_html(lf, by="model", ci=None, js="cdn")
    assert 'id="survival"' not in plain


def test_a_horizon_outside_the_data_is_null_with_its_reason(customers: pl.DataFrame) -> None:
    first = customers.filter("churned")["days"].min()
    last = customers["days"].max()
    page = pr.report.to_html(
        customers.lazy(), by="model", ci=None, js="cdn",
        time_to_event="days", event="churned", horizons=[first - 1, 90, last + 10],
    )  # fmt: skip
    rows = table_rows(page, "survival-table")
    assert rows[0][2] == "— (no event by t)"
    assert rows[0][3] == "0"
    assert rows[2][2] == "— (no one followed past t)"
    assert rows[2][4] == "0"
    assert rows[1][2] != "—"
    assert table_rows(page, "survival-mean-table")[0][1] == "— (an AUC(t) is null)"
    assert f"Survival horizon(s) {last + 10} lie at or past the last follow-up" in page


def test_default_horizons_are_the_quartiles_of_the_event_times() -> None:
    # nine distinct event times: every quantile definition gives the 3rd, 5th and 7th
    times = [12, 30, 41, 55, 60, 78, 90, 104, 130, 20, 70, 140]
    frame = pl.DataFrame(
        {
            "score": np.linspace(1, 0, len(times)),
            "t": times,
            "e": [1] * 9 + [0] * 3,
            "label": [1, 0] * 6,
        }
    )
    events = np.array(times[:9])
    want = np.quantile(events, [0.25, 0.5, 0.75]).tolist()
    assert want == [41.0, 60.0, 90.0]
    data = pr.report.compute(frame.lazy(), ci=None, time_to_event="t", event="e")
    assert data.survival.horizons == want
    assert data.survival.chosen == "quartiles"
    page = pr.report.render(data, js="cdn")
    assert "Horizons 41, 60, 90: the quartiles of the observed event times" in page
    given = pr.report.compute(frame.lazy(), ci=None, time_to_event="t", event="e", horizons=60)
    assert given.survival.table["horizon"].to_list() == [60]


def group_draws(seed: int, key: tuple[object, ...], n: int, n_boot: int) -> np.ndarray:
    """The documented stream: numpy's generator seeded by the seed and the group's key."""
    digest = hashlib.blake2b(repr(key).encode(), digest_size=8).digest()
    rng = np.random.default_rng([seed, int.from_bytes(digest, "little")])
    return rng.integers(0, n, size=(n_boot, n))


def test_bootstrap_intervals_are_percentiles_of_the_resampled_time_auc() -> None:
    frame = churn(120, seed=4)
    n_boot, seed, level = 25, 7, 0.9
    data = pr.report.compute(
        frame.lazy(), by="model", ci="bootstrap", n_boot=n_boot, seed=seed, level=level,
        time_to_event="days", event="churned", horizons=[60, 120],
    )  # fmt: skip
    table = data.survival.table
    for model in ("gbm", "logit"):
        # the documented canonical order: by score, time, event
        rows = frame.filter(pl.col("model") == model).sort("score", "days", "churned")
        draws = group_draws(seed, (model,), rows.height, n_boot)
        aucs = np.array(
            [
                rows[idx]
                .roc.time_auc("score", time="days", event="churned", horizons=[60, 120])["auc"]
                .to_numpy()
                for idx in draws
            ]
        )
        got = table.filter(pl.col("model") == model)
        for j in range(2):
            lower, upper = np.quantile(aucs[:, j], [0.05, 0.95])
            assert got["auc_lower"][j] == pytest.approx(lower, rel=1e-12)
            assert got["auc_upper"][j] == pytest.approx(upper, rel=1e-12)
    page = pr.report.render(data, js="cdn")
    assert "AUC(t) 90% CI" in page
    assert "percentile bootstrap intervals" in page
    spec = re.search(r'id="spec-survival">(.*?)</script>', page, re.S)
    assert spec is not None
    assert "auc_lower" in spec.group(1)


def test_group_and_weight_columns_with_internal_names(customers: pl.DataFrame) -> None:
    frame = customers.rename({"model": "nan_score"}).with_columns(_h=pl.lit(1.0))
    data = pr.report.compute(
        frame.lazy(), by="nan_score", ci=None, time_to_event="days", event="churned",
        horizons=HORIZONS, weight="_h",
    )  # fmt: skip
    said = "AUC(t) takes no weights (weight column '_h' is not used there)"
    assert any(said in note for note in data.notes)
    want = frame.roc.time_auc(
        "score", time="days", event="churned", horizons=HORIZONS, by="nan_score"
    )
    got = data.survival.table.select(want.columns)
    assert_frame_equal(got, want)


def test_bad_arguments_are_refused_before_reading(customers: pl.DataFrame) -> None:
    lf = customers.lazy()
    with pytest.raises(ValueError, match="horizons= needs time_to_event= and event="):
        pr.report.compute(lf, horizons=[90])
    with pytest.raises(ValueError, match="time_to_event= needs event= too"):
        pr.report.compute(lf, time_to_event="days")
    with pytest.raises(ValueError, match="event= needs time_to_event= too"):
        pr.report.compute(lf, event="churned")
    with pytest.raises(ColumnNotFoundError, match="time_to_event column 'day' not found"):
        pr.report.compute(lf, time_to_event="day", event="churned")
    with pytest.raises(ValueError, match="horizons must be one or more non-negative"):
        pr.report.compute(lf, time_to_event="days", event="churned", horizons=[-1])
    text = customers.with_columns(pl.col("churned").cast(pl.String)).lazy()
    with pytest.raises(SchemaError, match="event column 'churned' must be Boolean or 0/1"):
        pr.report.compute(text, time_to_event="days", event="churned")


@pytest.fixture(scope="module")
def scores_file(customers: pl.DataFrame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("survival") / "scores.parquet"
    customers.write_parquet(path)
    return path


ROLES = ["--score", "score", "--label", "label", "--by", "model", "--js", "cdn", "-q"]


def test_cli_flags_end_to_end(
    scores_file: Path,
    customers: pl.DataFrame,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "report.html"
    flags = ["--time-to-event", "days", "--event", "churned", "--horizons", "90, 180,365"]
    assert main(["report", str(scores_file), *ROLES, *flags, "-o", str(out)]) == 0
    page = out.read_text()
    assert page.count('<section id="survival">') == 1
    want = customers.roc.time_auc(
        "score", time="days", event="churned", horizons=HORIZONS, by="model"
    )
    rows = table_rows(page, "survival-table")
    assert [float(r[2]) for r in rows] == [round(a, 3) for a in want["auc"]]
    assert "AUC(t) at horizons of days" in capsys.readouterr().out
    # without --horizons: the quartiles, said on stdout and on the page
    assert main(["report", str(scores_file), *ROLES, *flags[:4], "-o", str(out)]) == 0
    said = capsys.readouterr().out
    events = customers.filter("churned")["days"]
    quartiles = [events.quantile(q, "nearest") for q in (0.25, 0.5, 0.75)]
    shown = ",".join(f"{q:g}" for q in quartiles)
    assert f"(the quartiles of the event times: --horizons {shown})" in said
    assert "the quartiles of the observed event times" in out.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--horizons", "90,abc"], "argument --horizons: 'abc' is not a number"),
        (["--horizons", ""], "argument --horizons: expected comma-separated numbers"),
        (["--horizons", "90,,365"], "argument --horizons: expected comma-separated numbers"),
        (["--horizons=-30,90"], "argument --horizons: horizons are times >= 0"),
        (["--horizons", "nan"], "argument --horizons: horizons are times >= 0"),
    ],
    ids=["non-numeric", "empty", "empty-item", "negative", "nan"],
)
def test_bad_horizons_name_the_flag(
    scores_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    message: str,
) -> None:
    roles = ["--time-to-event", "days", "--event", "churned"]
    with pytest.raises(SystemExit) as exit_:
        main(["report", str(scores_file), *ROLES, *roles, *flags, "-o", str(tmp_path / "x")])
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--horizons", "90"], "--horizons needs --time-to-event COL and --event COL"),
        (["--time-to-event", "days", "--horizons", "90"], "--horizons needs --time-to-event"),
        (["--time-to-event", "days"], "--time-to-event needs --event too"),
        (["--event", "churned"], "--event needs --time-to-event too"),
        (["--time-to-event", "day", "--event", "churned"], "--time-to-event column 'day'"),
    ],
    ids=["horizons-alone", "no-event", "time-alone", "event-alone", "missing-column"],
)
def test_flags_that_need_each_other(
    scores_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    message: str,
) -> None:
    out = tmp_path / "report.html"
    assert main(["report", str(scores_file), *ROLES, *flags, "-o", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_negative_times_in_the_file_are_an_error(
    customers: pl.DataFrame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "scores.parquet"
    customers.with_columns(pl.col("days") - 200).write_parquet(path)
    flags = ["--time-to-event", "days", "--event", "churned", "--horizons", "90"]
    assert main(["report", str(path), *ROLES, *flags, "-o", str(tmp_path / "r.html")]) == 2
    assert "time column 'days' holds" in capsys.readouterr().err


def test_survival_flags_need_score_rows(
    scores_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ["--time-to-event", "days", "--event", "churned", "-o", str(tmp_path / "r.html")]
    wide = ["--class-scores", "score", "--label", "label", "--js", "cdn", "-q"]
    assert main(["report", str(scores_file), *wide, *flags]) == 2
    assert "--time-to-event works with --score and --engine polars" in capsys.readouterr().err
