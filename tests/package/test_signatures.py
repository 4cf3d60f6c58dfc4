"""Every public function that takes a score takes `direction` and `nan_policy`, documented.

The list of functions is read from the package itself (``pr.__all__``, the ``__all__`` of
every public module, and the ``.roc`` namespaces), so a new public function cannot miss
either argument: it fails here unless it takes both, documents both, or is named below with
the reason it does not.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable
from typing import Any

import polars as pl
import pytest

import polars_roc as pr
from polars_roc.namespace import EXPR_METHODS, FRAME_METHODS

#: Functions of probabilities: negating a probability (``direction="lower"``) leaves [0, 1];
#: the other class's probability is asked for with `pos_label` instead.
NO_DIRECTION = {
    "polars_roc.calibration.frame.calibration",
    "polars_roc.exprs.probability.brier_score",
    "polars_roc.exprs.probability.expected_calibration_error",
    "polars_roc.exprs.probability.log_loss",
    # probabilities have a fixed scale
    "polars_roc.calibration.frame.calibration_fit",
    "polars_roc.calibration.expression.calibration_intercept",
    "polars_roc.calibration.expression.calibration_slope",
    "polars_roc.monitoring.expression.estimated_auc",  # over time
    "polars_roc.monitoring.frame.estimated_auc",
    # value and decisions: net benefit at threshold probabilities
    "polars_roc.decisions.decision_curve.decision_curve",
    "polars_roc.decisions.expression.net_benefit",
}
#: Not an analysis of a score: reshapes a counts table into weighted rows, wide class
#: scores into one-vs-rest rows for the report (which takes both arguments), or reads a
#: scored file into its tally for the command line (the report applies both on the tally).
NOT_AN_ANALYSIS = {
    "polars_roc.curves.from_counts",
    "polars_roc.engines.sources.tally_file",
    "polars_roc.report._multiclass.one_vs_rest",
    # the DeLong kernel of disparity and slices, over sides their public functions prepared
    "polars_roc.segments.disparity.delong_test",
}
#: Score-taking functions not yet given both arguments (none now: keep it empty).
PENDING: set[str] = set()
POLICY_ARGUMENTS = ("direction", "nan_policy")


def _key(function: Callable[..., Any]) -> str:
    return f"{function.__module__}.{function.__qualname__}"


def _public_functions() -> dict[str, Callable[..., Any]]:
    found: dict[str, Callable[..., Any]] = {}
    modules = [pr] + [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(pr.__path__, "polars_roc.")
        if not any(part.startswith("_") for part in info.name.split("."))
    ]
    for module in modules:
        for name in getattr(module, "__all__", []):
            value = getattr(module, name)
            if inspect.isfunction(value):
                found[_key(value)] = value
    for table in (FRAME_METHODS, EXPR_METHODS):
        for function in table.values():
            found[_key(function)] = function
    return found


def _takes_a_score(function: Callable[..., Any]) -> bool:
    parameters = inspect.signature(function).parameters
    return "score" in parameters or "scores" in parameters


SCORED = {k: f for k, f in sorted(_public_functions().items()) if _takes_a_score(f)}


def _documented(function: Callable[..., Any]) -> set[str]:
    """The names in a numpy docstring's Parameters section (``a, b`` lines count both)."""
    doc = inspect.getdoc(function) or ""
    if "Parameters\n----------\n" not in doc:
        return set()
    section = doc.split("Parameters\n----------\n", 1)[1].split("Returns\n-------")[0]
    names: set[str] = set()
    for line in section.splitlines():
        if re.fullmatch(r"[A-Za-z_][\w, ]*", line):
            names.update(part.strip() for part in line.split(","))
    return names


def test_the_scan_sees_the_score_functions() -> None:
    # A guard on the guard: the scan must reach frame methods and expressions alike.
    expected = ("areas.auc", "exprs.ranking.auc", "gains.ks", "inference.intervals.auc_interval")
    for name in expected:
        assert f"polars_roc.{name}" in SCORED
    assert len(SCORED) > 30


def _settings(function: Callable[..., Any]) -> tuple[dict[str, Any], set[str]]:
    """
    The function's settings with their defaults, and the names it documents.

    A function taking ``options=`` and ``**settings`` (the report) takes the fields of
    :class:`polars_roc.report.ReportOptions`, documented there.
    """
    parameters = inspect.signature(function).parameters
    defaults = {name: p.default for name, p in parameters.items()}
    documented = _documented(function)
    takes_settings = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    if "options" in parameters and takes_settings:
        fields = dataclasses.fields(pr.report.ReportOptions)
        defaults |= {field.name: field.default for field in fields}
        doc = inspect.getdoc(pr.report.ReportOptions) or ""
        attributes = doc.split("Attributes\n----------\n", 1)[1].split("Examples\n")[0]
        documented |= {
            part.strip()
            for line in attributes.splitlines()
            if re.fullmatch(r"[A-Za-z_][\w, ]*", line)
            for part in line.split(",")
        }
    return defaults, documented


@pytest.mark.parametrize("key", sorted(set(SCORED) - NOT_AN_ANALYSIS - PENDING))
def test_takes_and_documents_direction_and_nan_policy(key: str) -> None:
    function = SCORED[key]
    parameters, documented = _settings(function)
    wanted = ("nan_policy",) if key in NO_DIRECTION else POLICY_ARGUMENTS
    missing = [name for name in wanted if name not in parameters]
    assert not missing, f"{key} takes a score but not {missing}"
    assert parameters["nan_policy"] == "propagate"
    if "direction" in parameters:
        assert parameters["direction"] == "higher"
    undocumented = [name for name in wanted if name not in documented]
    assert not undocumented, f"{key} does not document {undocumented}"


def test_the_report_takes_its_settings_as_options() -> None:
    # A guard on the guard: the report's settings are read off ReportOptions.
    parameters, documented = _settings(pr.report.to_html)
    assert parameters["direction"] == "higher"
    assert {"direction", "nan_policy", "seed", "title"} <= documented


@pytest.mark.parametrize("key", sorted(NO_DIRECTION))
def test_probability_functions_say_why_there_is_no_direction(key: str) -> None:
    function = SCORED[key]
    assert "direction" not in inspect.signature(function).parameters
    assert "no `direction`" in (inspect.getdoc(function) or "")


def test_exemptions_name_real_functions() -> None:
    # A renamed or removed function must leave the exemption lists too.
    assert set(SCORED) >= NO_DIRECTION | NOT_AN_ANALYSIS
    assert set(_public_functions()) >= PENDING


FRAME = pl.DataFrame(
    {
        "g": [1, 1, 1, 1, 2, 2, 2, 2],
        "score": [0.9, 0.8, float("nan"), 0.3, 0.7, 0.6, 0.2, 0.1],
        "label": [1, 0, 1, 0, 1, 1, 0, 0],
    }
)
#: The business and calibration views, called on FRAME with default arguments.
BUSINESS_FRAMES = ["gain_curve", "gains_table", "ks", "calibration", "pr_auc"]
BUSINESS_EXPRS = {
    "gini": pr.gini,
    "pr_auc": pr.pr_auc,
    "expected_calibration_error": pr.expected_calibration_error,
    "brier_score": pr.brier_score,
    "log_loss": pr.log_loss,
}


@pytest.mark.parametrize("name", BUSINESS_FRAMES)
def test_frame_nan_policy_omit_equals_dropping_the_rows(name: str) -> None:
    method = getattr(FRAME.roc, name)
    dropped = getattr(FRAME.filter(~pl.col("score").is_nan()).roc, name)
    assert method(by="g", nan_policy="omit").equals(dropped(by="g"))
    with pytest.raises(ValueError, match=r"'score' holds 1 NaN"):
        method(by="g", nan_policy="raise")
    with pytest.raises(ValueError, match="nan_policy must be"):
        method(by="g", nan_policy="ignore")


@pytest.mark.parametrize("name", sorted(BUSINESS_EXPRS))
def test_expression_nan_policy(name: str) -> None:
    function = BUSINESS_EXPRS[name]
    grouped = FRAME.group_by("g", maintain_order=True)
    propagated = grouped.agg(function("score", "label"))[name].to_list()
    assert propagated[0] is None  # group 1 holds the NaN
    omitted = grouped.agg(function("score", "label", nan_policy="omit"))
    kept = FRAME.filter(~pl.col("score").is_nan()).group_by("g", maintain_order=True)
    assert omitted.equals(kept.agg(function("score", "label")))
    with pytest.raises((ValueError, pl.exceptions.ComputeError), match=r"holds at least 1 NaN"):
        FRAME.select(function("score", "label", nan_policy="raise"))
    with pytest.raises(ValueError, match="nan_policy must be"):
        function("score", "label", nan_policy="ignore")


# --- one vocabulary (issue 27, item 5) ---------------------------------------------------------

#: Frame methods whose function still carries the `_table` suffix of an expression's frame
#: twin: renamed by the exprs helper (then `df.roc.X is module.X` holds for them too).
RENAMED_LATER: dict[str, str] = {}  # the `_table` twins were renamed
#: Names no public function takes: the classifier column is `model`, hard labels are
#: `label, prediction` (the old names live on one release as warned aliases).
RETIRED = {"across", "name", "truth", "pred"}
#: `name` here is the name of the method being registered, not a column.
NOT_A_COLUMN = {"polars_roc.namespace.register", "polars_roc.namespace.register_expr"}
#: The role keywords' defaults where a function gives them one.
CONTRACT_DEFAULTS: dict[str, tuple[Any, ...]] = {
    "score": ("score",),
    "label": ("label",),
    "by": (None,),
    "weight": (None,),
    "pos_label": (None,),
    "model": ("model", None),
    "seed": (0,),
    "direction": ("higher",),
    "nan_policy": ("propagate",),
}
PUBLIC = _public_functions()


@pytest.mark.parametrize("name", sorted(FRAME_METHODS))
def test_a_frame_method_is_the_function_of_its_name(name: str) -> None:
    function = FRAME_METHODS[name]
    module = importlib.import_module(function.__module__)
    expected = RENAMED_LATER.get(name, name)
    assert function.__name__ == expected, f"df.roc.{name} is {_key(function)}"
    assert getattr(module, expected) is function
    public_module = module.__name__.rsplit("._", 1)[0]  # a private module's package
    assert getattr(importlib.import_module(public_module), expected) is function


def test_the_renamed_later_list_names_real_methods() -> None:
    assert set(RENAMED_LATER) <= set(FRAME_METHODS)


@pytest.mark.parametrize("key", sorted(PUBLIC))
def test_one_vocabulary(key: str) -> None:
    function = PUBLIC[key]
    parameters = inspect.signature(function).parameters
    if key not in NOT_A_COLUMN:
        retired = RETIRED & set(parameters)
        assert not retired, f"{key} takes {sorted(retired)}: use model= / label, prediction"
    for name, allowed in CONTRACT_DEFAULTS.items():
        parameter = parameters.get(name)
        if parameter is None or parameter.default is inspect.Parameter.empty:
            continue
        if name == "label" and "score" not in parameters:
            continue  # a chart's `label`: the column of row labels, not the classes
        if key == "polars_roc.monitoring.frame.estimated_auc" and name == "label":
            continue  # for windows whose labels have not arrived: label=None by default
        assert parameter.default in allowed, f"{key}: {name}={parameter.default!r}"
    aliases: dict[str, str] = getattr(function, "__deprecated_aliases__", {})
    for old, new in aliases.items():
        assert old in RETIRED, f"{key}: alias {old}= is not a retired name"
        assert new in parameters, f"{key}: alias {old}= points at {new}=, not a parameter"


def test_the_vocabulary_scan_sees_seeds_and_models() -> None:
    # A guard on the guard: the scan reaches functions with each role.
    seeded = [k for k, f in PUBLIC.items() if "seed" in inspect.signature(f).parameters]
    assert {
        "polars_roc.inference.comparison.compare",
        "polars_roc.thresholds.frame.thresholds",
    } <= (set(seeded))
    modelled = [k for k, f in PUBLIC.items() if "model" in inspect.signature(f).parameters]
    assert len(modelled) >= 12
    assert "polars_roc.charts._geometry.hull_chart" in modelled


POINTS = pl.DataFrame({"model": ["c1", "c2", "c3"], "fpr": [0.3, 0.5, 0.2], "tpr": [0.4, 0.8, 0.6]})
CLASSES = pl.DataFrame({"y": ["a", "b", "a"], "yhat": ["a", "a", "a"]})
OLD_CALLS: dict[str, tuple[Callable[[], Any], Callable[[], Any], str]] = {
    "hull_of_points": (
        lambda: pr.hull_of_points(POINTS, name="model"),  # type: ignore[call-arg]
        lambda: pr.hull_of_points(POINTS, model="model"),
        "name=",
    ),
    "df.roc.hull": (
        lambda: pr.datasets.simulate(200, seed=1).roc.hull(across="model"),
        lambda: pr.datasets.simulate(200, seed=1).roc.hull(model="model"),
        "across=",
    ),
    "crossings": (
        lambda: pr.datasets.simulate(200, seed=1).roc.crossings(across="model"),
        lambda: pr.datasets.simulate(200, seed=1).roc.crossings(),
        "across=",
    ),
    "confusion_matrix": (
        lambda: CLASSES.roc.confusion_matrix(truth="y", pred="yhat"),
        lambda: CLASSES.roc.confusion_matrix(label="y", prediction="yhat"),
        "truth=",
    ),
    "accuracy": (
        lambda: CLASSES.select(pr.accuracy(truth="y", pred="yhat")),  # type: ignore[call-arg]
        lambda: CLASSES.select(pr.accuracy("y", "yhat")),
        "truth=",
    ),
}


@pytest.mark.parametrize("call", sorted(OLD_CALLS))
def test_an_old_keyword_still_works_and_warns_naming_the_new_one(call: str) -> None:
    old, new, keyword = OLD_CALLS[call]
    new_name = {"name=": "model=", "across=": "model=", "truth=": "label="}[keyword]
    message = rf"{keyword}\.\.\.\) is deprecated: use {new_name}"
    with pytest.warns(DeprecationWarning, match="is deprecated: use") as caught:
        got = old()
    assert any(re.search(message, str(w.message)) for w in caught), [str(w.message) for w in caught]
    # attributed to the caller's line (not to polars_roc), so a script shows it by default
    assert {w.filename for w in caught} == {__file__}
    assert got.equals(new())


def test_an_old_and_a_new_keyword_together_are_refused() -> None:
    with pytest.raises(TypeError, match="both name= and model="):
        pr.hull_of_points(POINTS, name="model", model="model")  # type: ignore[call-arg]


def test_every_seed_defaults_to_the_same_fixed_value() -> None:
    # seed=0 everywhere: a re-run gives the same intervals; seed=None still draws afresh.
    df = pr.datasets.simulate(300, seed=3)
    first = df.roc.compare(method="bootstrap", n_boot=50)
    assert first.equals(df.roc.compare(method="bootstrap", n_boot=50))
    assert first.equals(df.roc.compare(method="bootstrap", n_boot=50, seed=0))
    metrics = {"auc": pr.auc("score", "label")}
    boot = df.roc.bootstrap(metrics, by="model", n_boot=50)
    assert boot.equals(df.roc.bootstrap(metrics, by="model", n_boot=50, seed=0))
