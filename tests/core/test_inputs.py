"""Label codings and bad input: clear errors naming the column and the fix, or documented nulls."""

from __future__ import annotations

import polars as pl
import pytest
from polars.exceptions import ColumnNotFoundError, SchemaError
from sklearn.metrics import roc_auc_score

import polars_roc as pr
from tests.conftest import DATA

FRAME = pl.DataFrame(
    {
        "score": [0.9, 0.8, 0.3, 0.1, 0.5],
        "label": [1, 0, 1, 0, 0],
        "cls": ["yes", "no", "yes", "no", "no"],
        "w": [1.0, 2.0, 1.0, 1.0, 3.0],
    }
)
EXPECTED = roc_auc_score([1, 0, 1, 0, 0], [0.9, 0.8, 0.3, 0.1, 0.5])
METHODS = [
    lambda lf, **kw: lf.roc.auc(**kw),
    lambda lf, **kw: lf.roc.curve(**kw),
    lambda lf, **kw: lf.roc.partial_auc(fpr=(0, 0.5), **kw),
]


@pytest.mark.parametrize(
    ("labels", "pos_label"),
    [
        (pl.Series([True, False, True, False, False]), None),
        (pl.Series([False, True, False, True, True]), False),
        (pl.Series([1, 0, 1, 0, 0], dtype=pl.UInt8), None),
        (pl.Series([2, 1, 2, 1, 1]), 2),
        (pl.Series([1, -1, 1, -1, -1]), 1),
        (pl.Series(["yes", "no", "yes", "no", "no"]), "yes"),
        (pl.Series(["yes", "no", "yes", "no", "no"], dtype=pl.Categorical), "yes"),
        (pl.Series(["yes", "no", "yes", "no", "no"], dtype=pl.Enum(["no", "yes"])), "yes"),
        (pl.Series([1.0, 0.0, 1.0, 0.0, 0.0]), 1.0),
    ],
)
def test_every_label_coding_gives_the_same_auc(labels: pl.Series, pos_label: object) -> None:
    frame = FRAME.with_columns(y=labels)
    assert frame.roc.auc("score", "y", pos_label=pos_label)["auc"].item() == pytest.approx(EXPECTED)
    expression = frame.select(pr.auc("score", "y", pos_label=pos_label)).item()
    assert expression == pytest.approx(EXPECTED)


@pytest.mark.parametrize("method", METHODS)
def test_string_labels_without_pos_label_fail_at_collect_listing_values(method) -> None:  # type: ignore[no-untyped-def]
    query = method(FRAME.lazy(), label="cls")  # building the query reads no data
    with pytest.raises(ValueError, match=r"(?s)holds values like \['(no|yes)'.*pos_label="):
        query.collect()


def test_integer_labels_other_than_01_need_pos_label() -> None:
    frame = FRAME.with_columns(y=pl.Series([2, 1, 2, 1, 1]))
    with pytest.raises(ValueError, match=r"holds values like \[(1|2)"):
        frame.roc.auc(label="y")
    with pytest.raises(ValueError, match=r"holds values like \[(1|2)"):
        frame.select(pr.auc("score", "y"))
    with pytest.raises(ValueError, match="pos_label"):
        frame.lazy().group_by(pl.lit(1)).agg(pr.auc("score", "y")).collect(engine="streaming")


def test_enum_labels_without_pos_label_fail_at_call_time() -> None:
    frame = FRAME.with_columns(y=pl.col("cls").cast(pl.Enum(["no", "yes"])))
    with pytest.raises(ValueError, match=r"(?s)categories \['no', 'yes'\].*pos_label='yes'"):
        frame.lazy().roc.auc(label="y")
    with pytest.raises(ValueError, match="not a category"):
        frame.lazy().roc.auc(label="y", pos_label="maybe")


def test_pos_label_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(TypeError, match="does not fit label column 'label'"):
        FRAME.lazy().roc.auc(pos_label="1")
    with pytest.raises(TypeError, match="does not fit"):
        FRAME.lazy().roc.auc(label="cls", pos_label=1)


@pytest.mark.parametrize("method", METHODS)
def test_missing_columns_fail_at_call_time_naming_the_column(method) -> None:  # type: ignore[no-untyped-def]
    lazy = FRAME.lazy()
    with pytest.raises(ColumnNotFoundError, match=r"score column 'scor' not found.*'score'"):
        method(lazy, score="scor")
    with pytest.raises(ColumnNotFoundError, match="label column 'y' not found"):
        method(lazy, label="y")
    with pytest.raises(ColumnNotFoundError, match="by column 'model' not found"):
        method(lazy, by="model")
    with pytest.raises(ColumnNotFoundError, match="weight column 'weight' not found"):
        method(lazy, weight="weight")


@pytest.mark.parametrize("method", METHODS)
def test_swapped_score_and_label_fail_at_call_time(method) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SchemaError, match="did you swap score and label"):
        method(FRAME.lazy(), score="label", label="score")
    with pytest.raises(SchemaError, match="score column 'cls' has dtype String"):
        method(FRAME.lazy(), score="cls", label="label")


@pytest.mark.parametrize("score", ["cls", "flag", "cat"])
def test_non_numeric_score_in_an_expression_fails_at_collect(score: str) -> None:
    # a bare expression cannot see the schema: the query refuses it instead of ranking it,
    # with our message naming the column
    frame = FRAME.with_columns(flag=pl.col("label") == 1, cat=pl.col("cls").cast(pl.Categorical))
    with pytest.raises(SchemaError, match=f"score column {score!r} has dtype"):
        frame.select(pr.auc(score, "label"))


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_bad_weights_are_refused_with_the_fix(bad: float) -> None:
    frame = FRAME.with_columns(w=pl.Series([1.0, bad, 1.0, 1.0, 1.0]))
    for run in (
        lambda: frame.roc.auc(weight="w"),
        lambda: frame.roc.curve(weight="w"),
        lambda: frame.select(pr.auc("score", "label", weight="w")),
    ):
        with pytest.raises(ValueError, match=r"(?s)weight column 'w' holds .*non-negative.*Hint"):
            run()


def test_weight_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(SchemaError, match="weight column 'cls'"):
        FRAME.lazy().roc.auc(weight="cls")


def test_empty_frame_gives_null_auc_and_zero_counts() -> None:
    empty = FRAME.clear()
    assert empty.roc.auc().row(0) == (None, 0, 0)
    assert empty.roc.auc(by="cls").height == 0
    assert empty.select(pr.auc("score", "label")).item() is None
    curve = empty.roc.curve()
    assert curve.select("threshold", "tp", "fp").row(0) == (float("inf"), 0, 0)
    assert curve["tpr"].to_list() == [None]
    assert empty.roc.partial_auc(fpr=(0, 0.1)).row(0) == (None, None, 0, 0)


def test_one_class_group_is_null_with_counts_showing_why() -> None:
    frame = pl.DataFrame(
        {"g": ["a", "a", "b", "b"], "score": [0.1, 0.2, 0.3, 0.4], "label": [1, 1, 0, 1]}
    )
    got = frame.roc.auc(by="g")
    assert got.rows() == [("a", None, 2, 0), ("b", 1.0, 1, 1)]


def test_group_whose_rows_are_all_null_still_appears() -> None:
    frame = pl.DataFrame(
        {"g": ["a", "b", "b"], "score": [None, 0.3, 0.4], "label": [1, 0, 1]},
        schema={"g": pl.String, "score": pl.Float64, "label": pl.Int64},
    )
    assert frame.roc.auc(by="g").rows() == [("a", None, 0, 0), ("b", 1.0, 1, 1)]


def test_role_also_used_as_group_is_refused() -> None:
    with pytest.raises(ValueError, match="both a role and a `by` group"):
        FRAME.lazy().roc.auc(by="label")


def test_published_data_sets_agree_with_sklearn() -> None:
    asah = pl.read_csv(DATA / "aSAH.csv")
    y = asah["outcome"] == "Poor"
    for marker, pROC in [("s100b", 0.7314), ("ndka", 0.6120), ("wfns", 0.8237)]:
        got = asah.roc.auc(marker, "outcome", pos_label="Poor")["auc"].item()
        assert got == pytest.approx(roc_auc_score(y, asah[marker]), abs=1e-12)
        assert got == pytest.approx(pROC, abs=5e-5)  # pROC's published AUCs
    rocr = pl.read_csv(DATA / "ROCR_simple.csv")
    got = rocr.roc.auc("predictions", "labels")["auc"].item()
    assert got == pytest.approx(roc_auc_score(rocr["labels"], rocr["predictions"]), abs=1e-12)
    assert got == pytest.approx(0.8341875, abs=1e-7)  # ROCR's performance(pred, "auc")
    fawcett = pl.read_csv(DATA / "fawcett2006_fig3.csv")
    curve = fawcett.roc.curve("score", "class", pos_label="p")
    assert curve.height == 21  # 20 distinct scores plus the (0, 0) start
    got = fawcett.roc.auc("score", "class", pos_label="p")["auc"].item()
    assert got == pytest.approx(roc_auc_score(fawcett["label"], fawcett["score"]), abs=1e-12)


def test_a_nan_class_label_is_missing_like_a_null() -> None:
    # Float class codes with pos_label: a NaN label once counted as a negative (0.75 with
    # n_neg 2 here). It is a missing label, like null: the row is skipped on every route.
    frame = pl.DataFrame({"score": [0.1, 0.4, 0.35, 0.8], "label": [float("nan"), 0.0, 1.0, 1.0]})
    nulled = frame.with_columns(pl.col("label").fill_nan(None))
    expected = roc_auc_score([0, 1, 1], [0.4, 0.35, 0.8])  # the three labelled rows
    assert expected == 0.5
    assert frame.roc.auc(pos_label=1.0).row(0) == (expected, 2, 1)
    assert frame.select(pr.auc("score", "label", pos_label=1.0)).item() == expected
    grouped = frame.group_by(pl.lit(0)).agg(pr.auc("score", "label", pos_label=1.0))
    assert grouped["auc"].item() == expected
    assert frame.roc.curve(pos_label=1.0).equals(nulled.roc.curve(pos_label=1.0))
    counts = pr.tally(frame, pos_label=1.0).roc.auc(weight="weight").collect()
    assert counts.row(0) == (expected, 2.0, 1.0)
    assert pr.auc_table(frame, pos_label=1.0).row(0) == (expected, 2, 1)


def test_point_names_the_prediction_column_in_its_coding_error() -> None:
    frame = pl.DataFrame({"pred": [0, 1, 2, 1], "label": [1, 0, 1, 0]})
    with pytest.raises(ValueError, match=r"^prediction column 'pred' holds values"):
        frame.roc.point("pred")
    with pytest.raises(ValueError, match=r"^label column 'label' holds values"):
        frame.with_columns(pred=pl.Series([0, 1, 1, 1]), label=pl.Series([1, 0, 2, 0])).roc.point(
            "pred", "label"
        )
