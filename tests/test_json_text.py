"""The fast JSON text of plain results equals the standard library's, character for character.

Oracle: ``json.dumps(json_safe(data), indent=indent, allow_nan=False)``, what the outputs wrote before.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import clfeval
from clfeval.evaluation import json_safe
from clfeval.evaluation.thresholds import plain_copy
from clfeval.results.json_text import json_text

INDENTS = [2, None, 0, 1, "\t"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6), st.sampled_from([np.float64(0.1), np.float32(0.5), np.int64(-3), np.bool_(True),
                                          np.float64("nan"), np.float64("-inf")]),
)
float_lists = st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=30)
values = st.recursive(
    st.one_of(scalars, float_lists),
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=4), st.integers(0, 3), st.booleans()), inner, max_size=5),
    ),
    max_leaves=40,
)


def oracle(data, indent):
    return json.dumps(json_safe(data), indent=indent, allow_nan=False)


@given(data=values, indent=st.sampled_from(INDENTS))
def test_equals_the_standard_library(data, indent):
    assert json_text(data, indent) == oracle(data, indent)


@pytest.mark.parametrize("indent", INDENTS)
def test_hand_cases(indent):
    cases = [
        {}, [], {"a": {}}, {"a": []}, [[]], 0.1, -0.0, 1e300, float("nan"), [float("inf"), 1.5, float("-inf")],
        [True, False, 1, 0, None], ["é", "\n", '"'], {1: "one", "1": "string one"}, {True: 1, "x": (1, 2.5)},
        np.arange(3), np.array([0.5, np.nan]), [np.float64(0.1), 0.2], [1, 2.0], {"k": np.int32(7)},
        [Named()], {"x": [np.float32(0.1)]}, [Text("sub")], {Text("k"): Text("v")},
    ]
    for data in cases:
        assert json_text(data, indent) == oracle(data, indent), data


class Named:
    """Any other object: written as its str."""

    def __str__(self) -> str:
        return "named"


class Text(str):
    """A str subclass: written as the string."""


def test_an_evaluation_writes_what_the_standard_library_wrote():
    rng = np.random.default_rng(2)
    n = 20_000
    y = rng.integers(0, 2, n)
    ev = clfeval.evaluate(y, y_score=1 / (1 + np.exp(-(rng.normal(size=n) + y))), prevalence=0.3)
    data = ev.to_dict(costs=[[0, 1], [5, 0]])
    assert ev.to_json(costs=[[0, 1], [5, 0]]) == oracle(data, 2)
    assert ev.to_json(indent=None) == oracle(ev.to_dict(), None)


def test_plain_copy_is_a_deep_copy():
    data = {"a": [1.0, {"b": [2, (3, [4])]}], "c": None, "d": np.array([1.0]), "e": "x"}
    copied = plain_copy(data)
    assert json_text(copied) == json_text(data)
    copied["a"][1]["b"][1][1].append(5)
    copied["d"][0] = 9.0
    assert data["a"][1]["b"][1][1] == [4] and data["d"][0] == 1.0


def test_thresholds_dict_hands_out_copies():
    ev = clfeval.evaluate([0, 0, 1, 1], y_score=[0.1, 0.4, 0.35, 0.8])
    first = ev.thresholds_dict()
    first["operating_points"]["1"]["youden"]["threshold"] = -1.0
    first["cost_curve"]["fpr"].append(7.0)
    again = ev.thresholds_dict()
    assert again["operating_points"]["1"]["youden"]["threshold"] == 0.8
    assert 7.0 not in again["cost_curve"]["fpr"]


def test_calibration_started_early_equals_the_calibration():
    rng = np.random.default_rng(4)
    n = 5000
    y = rng.integers(0, 2, n)
    s = rng.random(n)
    ev = clfeval.evaluate(y, y_score=s)
    ev.start_calibration(10)
    ev.start_calibration(10)  # once
    early = ev.calibration(10)
    assert ev.calibration(10) is early
    assert early.to_dict() == clfeval.evaluate(y, y_score=s).calibration(10).to_dict()
    bad = clfeval.evaluate(y, y_score=s * 3 - 1)  # decision values: refused, when read
    bad.start_calibration()
    with pytest.raises(ValueError, match="not probabilities"):
        bad.calibration()
