"""One API convention, read off every public signature (the docs' Conventions page says it).

Each rule below is checked over every public function the package exposes (``pr.__all__``,
the ``__all__`` of every public module, and the ``.roc`` namespaces), so a new function that
breaks a rule fails here with its name; an exception is named below with its reason.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import types
import typing
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

import polars_roc as pr
from polars_roc.namespace import EXPR_METHODS, FRAME_METHODS
from tests.conftest import ROOT

PAGE = ROOT / "docs" / "conventions.md"

#: The interval vocabulary: every `ci=` value anywhere is one of these names.
CI_VOCABULARY = {
    "delong",
    "logit",
    "obuchowski",
    "bootstrap",
    "wilson",
    "clopper_pearson",
    "agresti_coull",
}
#: One default per resampling knob.
KNOB_DEFAULTS = {"n_boot": 2000, "n_perm": 2000, "seed": 0, "level": 0.95, "progress": None}
#: Targets: always keywords, never the second or third positional argument.
TARGETS = {"fpr", "tpr", "recall", "precision", "depth"}
#: Column roles after `score, label`: keywords only, in this order where present.
ROLE_ORDER = ("by", "weight", "pos_label", "direction", "nan_policy")
#: Functions whose intervals are part of what they are (no choice of method to make), so
#: they take no `ci=`: the test of two AUCs reports its interval beside its `method=`; the
#: bootstrap of any metric is an interval; the roll-up's inverse-variance mean and the
#: disparity test carry their own normal intervals; the calibration fit its Wald intervals;
#: the fold average its normal band; the slices their DeLong test against the rest.
INTERVALS_WITHOUT_CI = {
    "compare",
    "bootstrap",
    "rollup",
    "disparity",
    "calibration_fit",
    "cv_auc",
    "average_curve",
    "slices",
}
#: Questions whose package keeps the name of one of its frame methods (documented).
PACKAGES_NAMED_LIKE_A_METHOD = {"thresholds", "calibration", "slices"}


def _public() -> dict[str, Callable[..., Any]]:
    found: dict[str, Callable[..., Any]] = {}
    for info in pkgutil.walk_packages(pr.__path__, "polars_roc."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj) and not name.startswith("_"):
                found[f"{obj.__module__}.{obj.__qualname__}"] = obj
    for function in [*FRAME_METHODS.values(), *EXPR_METHODS.values()]:
        found[f"{function.__module__}.{function.__qualname__}"] = function
    return found


PUBLIC = _public()


def _literals(annotation: Any) -> set[str]:
    """The string values a `Literal[...]` annotation (or a union holding some) admits."""
    if isinstance(annotation, str):
        return set()
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return {a for a in typing.get_args(annotation) if isinstance(a, str)}
    if origin in (typing.Union, types.UnionType):
        return set().union(*(_literals(a) for a in typing.get_args(annotation)))
    if isinstance(annotation, typing.TypeAliasType if hasattr(typing, "TypeAliasType") else ()):
        return _literals(annotation.__value__)
    return set()


def _hints(function: Callable[..., Any]) -> dict[str, Any]:
    try:
        return typing.get_type_hints(function)
    except (NameError, TypeError):
        return {}


def test_the_scan_sees_the_public_surface() -> None:
    # A guard on the guards: frame functions, expressions and helpers are all read.
    assert len(PUBLIC) > 100
    assert "polars_roc.thresholds.operating.tpr_at_fpr" in PUBLIC
    assert "polars_roc.thresholds.expression.tpr_at_fpr" in PUBLIC


@pytest.mark.parametrize("name", sorted(set(FRAME_METHODS) & set(EXPR_METHODS)))
def test_twins_share_their_arguments_in_one_order(name: str) -> None:
    frame = list(inspect.signature(FRAME_METHODS[name]).parameters.values())[1:]
    expr = list(inspect.signature(EXPR_METHODS[name]).parameters.values())
    shared = [p.name for p in frame if p.name in {q.name for q in expr}]
    assert shared == [p.name for p in expr if p.name in set(shared)], name
    kinds = {p.name: p.kind for p in expr}
    for p in frame:
        if p.name in kinds and p.name not in ("score", "label"):
            assert p.kind == kinds[p.name], f"{name}: {p.name} is {p.kind} here, not in its twin"


@pytest.mark.parametrize("key", sorted(PUBLIC))
def test_targets_are_keywords(key: str) -> None:
    for p in inspect.signature(PUBLIC[key]).parameters.values():
        if p.name in TARGETS and not isinstance(p.default, str):  # a str is a column's name
            assert p.kind is inspect.Parameter.KEYWORD_ONLY, f"{key}: {p.name} must be a keyword"


@pytest.mark.parametrize("key", sorted(PUBLIC))
def test_one_default_per_resampling_knob(key: str) -> None:
    for p in inspect.signature(PUBLIC[key]).parameters.values():
        if p.name in KNOB_DEFAULTS and p.default is not inspect.Parameter.empty:
            assert p.default == KNOB_DEFAULTS[p.name], f"{key}: {p.name}={p.default!r}"


@pytest.mark.parametrize("key", sorted(PUBLIC))
def test_roles_come_first_then_keywords_in_one_order(key: str) -> None:
    parameters = inspect.signature(PUBLIC[key]).parameters
    names = list(parameters)
    if "score" in names and "label" in names and names.index("label") < len(names):
        assert names.index("label") == names.index("score") + 1, f"{key}: score, label"
    present = [n for n in ROLE_ORDER if n in parameters]
    assert present == [n for n in names if n in ROLE_ORDER], f"{key}: roles out of order"
    for n in present:
        assert parameters[n].kind is inspect.Parameter.KEYWORD_ONLY, f"{key}: {n} keyword"


@pytest.mark.parametrize("key", sorted(k for k, f in PUBLIC.items() if "ci" in _hints(f)))
def test_interval_names_come_from_one_vocabulary(key: str) -> None:
    values = _literals(_hints(PUBLIC[key])["ci"])
    assert values, f"{key}: ci= should name its methods in a Literal"
    assert values <= CI_VOCABULARY, f"{key}: {values - CI_VOCABULARY} is not in the vocabulary"


def _frame() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "score": [0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.6],
            "label": [0, 0, 1, 1, 1, 0, 1, 0],
            "t": [1, 1, 2, 2, 3, 3, 4, 4],
            "e": [True, False, True, True, False, True, True, False],
        }
    )


#: The arguments a frame method needs beside `ci` to get as far as checking it.
REQUIRED: dict[str, dict[str, Any]] = {
    "partial_auc": {"fpr": (0.0, 0.5)},
    "tpr_at_fpr": {"fpr": 0.1},
    "fpr_at_tpr": {"tpr": 0.5},
    "multiclass_auc": {"scores": "score"},
    "time_auc": {"time": "t", "event": "e", "horizons": [2]},
    "over_time": {"time": "t", "every": "1i"},
}


@pytest.mark.parametrize(
    "name", sorted(n for n, f in FRAME_METHODS.items() if "ci" in inspect.signature(f).parameters)
)
def test_an_unknown_interval_is_refused_with_the_supported_names(name: str) -> None:
    supported = _literals(_hints(FRAME_METHODS[name])["ci"])
    with pytest.raises(ValueError, match="ci must be") as caught:
        getattr(_frame().roc, name)(ci="jackknife", **REQUIRED.get(name, {}))
    message = str(caught.value)
    assert all(repr(value) in message for value in supported), (name, message)


@pytest.mark.parametrize("name", sorted(FRAME_METHODS))
def test_every_interval_comes_from_ci_or_is_named_as_intrinsic(name: str) -> None:
    function = FRAME_METHODS[name]
    doc = inspect.getdoc(function) or ""
    makes_intervals = "_lower" in doc and "_upper" in doc
    takes_ci = "ci" in inspect.signature(function).parameters
    if makes_intervals and not takes_ci:
        assert name in INTERVALS_WITHOUT_CI, f"{name} makes intervals: take ci= or say why not"


def test_long_outputs_name_their_value_column_estimate() -> None:
    df = pr.datasets.simulate(400, seed=1)
    metrics = {"auc": pr.auc("score", "label")}
    boot = df.roc.bootstrap(metrics, by="model", n_boot=20)
    disparity = df.roc.disparity(segment="segment", by="model")
    assert "estimate" in boot.columns
    assert "estimate" in disparity.columns
    assert "value" not in disparity.columns
    from polars_roc.monitoring import OVER_TIME_COLUMNS

    assert "estimate" in OVER_TIME_COLUMNS


def test_no_top_level_module_shadows_a_method() -> None:
    for name in pr.__all__:
        obj = getattr(pr, name)
        if isinstance(obj, types.ModuleType) and name in FRAME_METHODS:
            assert name in PACKAGES_NAMED_LIKE_A_METHOD, f"pr.{name} is a module and a method"


def test_internals_are_off_the_public_surface() -> None:
    assert not hasattr(pr.inference, "normal_cdf")
    assert not hasattr(pr.inference, "normal_quantile")
    assert "one_line" not in pr.report.__all__
    assert "Chooser" not in pr.decisions.folds.__all__


def test_the_conventions_page_states_every_rule() -> None:
    page = PAGE.read_text()
    for phrase in ("keyword", "ci=", "n_boot=2000", "seed=0", "level=0.95", "estimate"):
        assert phrase in page, phrase
    for value in sorted(CI_VOCABULARY):
        assert f'"{value}"' in page, value
