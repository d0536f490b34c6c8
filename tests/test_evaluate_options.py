"""One EvaluateOptions, checked once, shared by evaluate(), a stream, Dask and the command line
(issue 19): the object gives exactly what the keywords give, everywhere."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
from clfeval.inputs.evaluate_options import DEFAULT_BITS, DEFAULT_MAX_DISTINCT, EvaluateOptions, StreamSettings
from clfeval.streaming import StreamingEvaluation
from evaluation_equality import assert_same, plain


@pytest.mark.parametrize(("keywords", "error", "message"), [
    ({"threshold": True}, TypeError, "threshold must be a number, got True."),
    ({"threshold": "0.5"}, TypeError, "threshold must be a number, got '0.5'."),
    ({"threshold": math.nan}, ValueError, "threshold must be finite, got nan."),
    ({"threshold": -math.inf}, ValueError, "threshold must be finite, got -inf."),
    ({"beta": 0}, ValueError, "beta must be a positive finite number, got 0."),
    ({"beta": -1.0}, ValueError, "beta must be a positive finite number, got -1.0."),
    ({"beta": math.inf}, ValueError, "beta must be a positive finite number, got inf."),
    ({"beta": True}, ValueError, "beta must be a positive finite number, got True."),
    ({"beta": "2"}, ValueError, "beta must be a positive finite number, got '2'."),
    ({"beta": math.nan}, ValueError, "beta must be a positive finite number, got nan."),
    ({"beta": np.bool_(True)}, ValueError, "beta must be a positive finite number, got np.True_."),
])
def test_bad_options_are_refused_when_made(keywords, error, message):
    with pytest.raises(error) as caught:
        EvaluateOptions(**keywords)
    assert str(caught.value) == message
    with pytest.raises(error) as caught:  # the keywords of evaluate() are the same check
        clfeval.evaluate([0, 1], y_score=[0.2, 0.7], **keywords)
    assert str(caught.value) == message
    with pytest.raises(error) as caught:  # and a stream refuses them before any batch
        StreamingEvaluation(**keywords)
    assert str(caught.value) == message


def test_numpy_numbers_are_options_like_python_numbers():
    ev = clfeval.evaluate([0, 1, 1], [0, 1, 0], beta=np.int64(2))
    assert ev.beta == 2 and ev.report.rows[1]["f2"] == pytest.approx(5 / 9, rel=1e-15)  # F2 = 5PR/(4P+R), P=1, R=1/2


def test_a_threshold_is_kept_as_a_float():
    assert EvaluateOptions(threshold=1).threshold == 1.0 and type(EvaluateOptions(threshold=1).threshold) is float
    assert type(EvaluateOptions(threshold=np.float32(0.25)).threshold) is float


@pytest.mark.parametrize(("keywords", "message"), [
    ({"mode": "fast"}, "mode must be one of 'auto', 'exact', 'binned', got 'fast'."),
    ({"max_distinct": 0}, "max_distinct must be a positive integer, got 0."),
    ({"max_distinct": True}, "max_distinct must be a positive integer, got True."),
    ({"bits": 53}, "bits must be an integer from 1 to 52 (the bin grid's mantissa bits), got 53."),
    ({"bits": 0}, "bits must be an integer from 1 to 52 (the bin grid's mantissa bits), got 0."),
])
def test_bad_stream_settings_are_refused(keywords, message):
    with pytest.raises(ValueError) as caught:
        StreamSettings(**keywords)
    assert str(caught.value) == message
    with pytest.raises(ValueError) as caught:
        StreamingEvaluation(**keywords)
    assert str(caught.value) == message


def test_options_or_keywords_not_both():
    with pytest.raises(TypeError, match=r"pass options= or pos_label=, not both"):
        clfeval.evaluate([0, 1], [0, 1], pos_label=1, options=EvaluateOptions())
    with pytest.raises(TypeError, match=r"options must be an EvaluateOptions, got dict"):
        clfeval.evaluate([0, 1], [0, 1], options={"pos_label": 1})
    with pytest.raises(TypeError, match=r"pass settings= or mode=, max_distinct=, bits=, not both"):
        StreamingEvaluation(mode="exact", settings=StreamSettings())
    assert StreamSettings.of(None, "auto", DEFAULT_MAX_DISTINCT, DEFAULT_BITS) == StreamSettings()


def test_equal_options_compare_their_values():
    a = EvaluateOptions(labels=["a", "b"], target_names=("A", "B"))
    assert a == EvaluateOptions(labels=("a", "b"), target_names=["A", "B"])
    assert a == EvaluateOptions(labels=np.array(["a", "b"]), target_names=["A", "B"])
    assert a != EvaluateOptions(labels=["b", "a"], target_names=["A", "B"])
    assert a != EvaluateOptions(labels=["a", "b"])
    assert EvaluateOptions() != EvaluateOptions(name="x")
    with pytest.raises(TypeError):
        hash(a)
    assert EvaluateOptions(threshold=0.3, name="m").given() == {"threshold": 0.3, "name": "m"}
    assert StreamSettings(mode="exact").given() == {"mode": "exact"}


def test_streams_with_different_options_do_not_merge():
    a = StreamingEvaluation(options=EvaluateOptions(labels=[0, 1], beta=2.0)).update([0, 1], [0, 1])
    b = StreamingEvaluation(labels=[0, 1], beta=2.0).update([1, 1], [0, 1])
    assert a.merge(b).n_samples == 4  # the same options, given as an object or as keywords
    c = StreamingEvaluation(labels=[0, 1], beta=3.0).update([1, 1], [0, 1])
    with pytest.raises(ValueError, match="cannot merge streams built with different settings"):
        a.merge(c)
    d = StreamingEvaluation(labels=[0, 1], beta=2.0, mode="exact").update([1, 1], [0, 1])
    with pytest.raises(ValueError, match="cannot merge streams built with different settings"):
        a.merge(d)


def _options(draw, classes):
    """Mostly valid options over ``classes``: a label order, a positive class, a threshold, beta."""
    labels = draw(st.one_of(st.none(), st.permutations(classes).map(list)))
    pos_label = draw(st.one_of(st.none(), st.sampled_from(classes))) if len(classes) == 2 else None
    threshold = draw(st.one_of(st.none(), st.floats(0.05, 0.95))) if len(classes) == 2 else None
    beta = draw(st.one_of(st.none(), st.sampled_from([0.5, 2.0])))
    names = draw(st.one_of(st.none(), st.just([f"class {c}" for c in (labels or sorted(classes))])))
    return EvaluateOptions(labels=labels, pos_label=pos_label, threshold=threshold, beta=beta, target_names=names,
                           name=draw(st.one_of(st.none(), st.just("model"))))


@settings(max_examples=25, deadline=None)
@given(data=st.data(), n=st.integers(6, 60), k=st.integers(2, 4))
def test_one_options_object_gives_what_the_keywords_give_in_every_engine(data, n, k):
    classes = list(range(k))
    y = np.array(data.draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n)))
    y[:k] = classes  # every class in the first batch: with scores, a stream's first batch fixes them
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    scores = rng.random((n, k))
    scores /= scores.sum(axis=1, keepdims=True)
    score = scores[:, 1] if k == 2 else scores
    options = _options(data.draw, classes)
    want = clfeval.evaluate(y, y_score=score, **options.as_keywords())
    assert plain(clfeval.evaluate(y, y_score=score, options=options)) == plain(want)
    stream = StreamingEvaluation(options=options, settings=StreamSettings(mode="exact"))
    cut = data.draw(st.integers(k, n - 1))
    stream.update(y[:cut], y_score=score[:cut]).update(y[cut:], y_score=score[cut:])
    assert_same(stream.result(), want)


def test_dask_takes_the_same_object():
    da = pytest.importorskip("dask.array")
    import dask

    import clfeval.dask as cdask

    y = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    s = np.array([0.1, 0.9, 0.4, 0.35, 0.8, 0.2, 0.6, 0.7])
    options = EvaluateOptions(labels=[1, 0], pos_label=1, threshold=0.5, beta=2.0, name="m")
    with dask.config.set(scheduler="synchronous"):
        got = cdask.evaluate(da.from_array(y, chunks=3), y_score=da.from_array(s, chunks=3), options=options,
                             settings=StreamSettings(mode="exact"))
    assert_same(got, clfeval.evaluate(y, y_score=s, options=options))
