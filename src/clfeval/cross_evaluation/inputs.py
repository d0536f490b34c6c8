"""The input of a cross-evaluation, checked once: the estimator, X and y, the labels and positive
class, sample weights, the score method (``response``), and the protocol with its splits drawn
(:func:`prepare`, giving :class:`Prepared`), shared by every estimator run on them.

>>> import numpy as np
>>> from clfeval.protocols import HoldOut
>>> prep = prepare(np.zeros((10, 1)), ["a", "b"] * 5, HoldOut(0.2, random_state=0), None, None, None, "a", None)
>>> str(prep.pos_label), [te.size for _, te in prep.splits]
('a', [2])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from clfeval.inputs.evaluate_arguments import resolve_pos_label
from clfeval.inputs.labels import as_array, check_sample_weight, encode, unique_sorted
from clfeval.protocols import KFold, PredefinedSplits, Protocol, n_samples_of, require_sklearn

__all__ = ["check_estimator", "resolve_response", "protocol_name", "Prepared", "prepare", "check_fit_weight",
           "estimator_name"]


def check_estimator(estimator: Any) -> None:
    """Refuse what is not a fitted-to-be classifier instance (no fit / predict, or a class).

    >>> check_estimator(object())
    Traceback (most recent call last):
    ...
    TypeError: estimator must have fit and predict (a scikit-learn classifier); object has no fit().
    """
    for method in ("fit", "predict"):
        if not callable(getattr(estimator, method, None)):
            raise TypeError(f"estimator must have fit and predict (a scikit-learn classifier); "
                            f"{type(estimator).__name__} has no {method}().")
    if isinstance(estimator, type):
        raise TypeError(f"estimator must be an instance, got the class {estimator.__name__}; call it first.")


def _check_target(y: Any, n: int) -> np.ndarray:
    arr = as_array(y, "y")
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"y must be 1-D class labels (binary or multi-class), got shape {arr.shape}.")
    if arr.shape[0] != n:
        raise ValueError(f"X has {n} rows but y has {arr.shape[0]}; they must match.")
    if arr.dtype.kind == "f" and not np.array_equal(arr, np.floor(arr)):
        raise ValueError("y holds continuous values; cross_evaluate needs class labels.")
    return arr


def resolve_response(estimator: Any, response: str) -> str:
    """The score method to call: ``response`` checked, "auto" resolved to predict_proba, else
    decision_function, else "predict" (labels only).

    >>> class Margin:
    ...     def decision_function(self, X): ...
    >>> resolve_response(Margin(), "auto"), resolve_response(Margin(), "predict")
    ('decision_function', 'predict')
    """
    allowed = ("auto", "predict_proba", "decision_function", "predict")
    if response not in allowed:
        raise ValueError(f"response must be one of {allowed}, got {response!r}.")
    if response == "auto":
        for method in ("predict_proba", "decision_function"):
            if hasattr(estimator, method):
                return method
        return "predict"
    if response != "predict" and not hasattr(estimator, response):
        raise ValueError(f"response={response!r} but {type(estimator).__name__} has no {response}().")
    return response


def _binary_positive(labels: np.ndarray, pos_label: Any, notes: list[str]) -> Any:
    """The positive class of a binary task (None for more classes), by the rule of clfeval.evaluate."""
    if labels.size != 2:
        if pos_label is not None:
            raise ValueError(f"pos_label applies to binary tasks; y has {labels.size} classes.")
        return None
    return resolve_pos_label(labels, pos_label, False, notes)  # the rule of clfeval.evaluate


def _resolve_protocol(protocol: Any, random_state: Any) -> Any:
    if protocol is None or (isinstance(protocol, int) and not isinstance(protocol, bool)):
        k = 5 if protocol is None else protocol
        return KFold(k, stratify=True, shuffle=random_state is not None, random_state=random_state)
    if isinstance(protocol, Protocol):
        return protocol.with_random_state(random_state)
    if callable(getattr(protocol, "split", None)) and not isinstance(protocol, (str, bytes)):
        return protocol
    if isinstance(protocol, (list, tuple)):
        return PredefinedSplits(protocol)
    raise TypeError(f"protocol must be a clfeval protocol, an object with split() (a scikit-learn splitter), "
                    f"an int (k-fold) or a list of (train, test) pairs; got {type(protocol).__name__}.")


def protocol_name(protocol: Any) -> str:
    """The protocol's ``name``, else its repr (a scikit-learn splitter).

    >>> from clfeval.protocols import KFold
    >>> protocol_name(KFold(3)) == KFold(3).name, protocol_name([([0], [1])])
    (True, '[([0], [1])]')
    """
    return getattr(protocol, "name", None) or repr(protocol)


@dataclass
class Prepared:
    """Validated input shared by the runs of :func:`cross_evaluate` and :func:`compare`."""

    X: Any
    y: np.ndarray
    w: np.ndarray | None
    labels: np.ndarray
    pos_label: Any
    protocol: Any
    splits: list[tuple[np.ndarray, np.ndarray]]
    n_repeats: int
    notes: list[str]


def prepare(X: Any, y: Any, protocol: Any, groups: Any, sample_weight: Any, labels: Any, pos_label: Any,
            random_state: Any) -> Prepared:
    """Check X, y, labels, pos_label and sample_weight, resolve the protocol and draw its splits
    once (so that several estimators run on the same splits).

    >>> import numpy as np
    >>> prep = prepare(np.zeros((6, 2)), [0, 1, 0, 1, 0, 1], 3, None, None, None, None, None)
    >>> len(prep.splits), prep.labels.tolist(), int(prep.pos_label), prep.n_repeats
    (3, [0, 1], 1, 1)
    """
    require_sklearn("cross_evaluate")
    n = n_samples_of(X)
    y_arr = _check_target(y, n)
    present = unique_sorted(y_arr, "y")
    if labels is None:
        classes = present
    else:
        classes = as_array(labels, "labels").reshape(-1)
        missing = present[encode(present, classes) < 0]
        if missing.size:
            raise ValueError(f"y holds {missing.tolist()}, which labels= {classes.tolist()} does not list.")
    if classes.size < 2:
        raise ValueError(f"y has a single class ({classes.tolist()}); a classifier needs at least two.")
    notes: list[str] = []
    pos = _binary_positive(classes, pos_label, notes)
    w = check_sample_weight(sample_weight, n, allow_all_zero=False)
    proto = _resolve_protocol(protocol, random_state)
    splits = [(np.asarray(a, dtype=np.intp), np.asarray(b, dtype=np.intp)) for a, b in proto.split(X, y_arr, groups)]
    if not splits:
        raise ValueError(f"the protocol {protocol_name(proto)!r} gave no splits.")
    for i, (train, test) in enumerate(splits):
        if train.size == 0 or test.size == 0:
            raise ValueError(f"split {i} of {protocol_name(proto)!r} has an empty {'train' if train.size == 0 else 'test'} part.")
    n_repeats = getattr(proto, "n_repeats", 1)
    if not isinstance(n_repeats, int) or n_repeats < 1 or len(splits) % n_repeats:
        n_repeats = 1
    return Prepared(X, y_arr, w, classes, pos, proto, splits, n_repeats, notes)


def check_fit_weight(estimator: Any) -> None:
    """Refuse sample weights for an estimator whose fit takes none.

    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> check_fit_weight(GaussianNB())
    >>> try:
    ...     check_fit_weight(KNeighborsClassifier())
    ... except TypeError as exc:
    ...     print(str(exc).split(";")[0])
    sample_weight was given but KNeighborsClassifier.fit takes no sample_weight
    """
    from sklearn.utils.validation import has_fit_parameter

    if not has_fit_parameter(estimator, "sample_weight"):
        raise TypeError(
            f"sample_weight was given but {type(estimator).__name__}.fit takes no sample_weight; use an estimator "
            "that does, or route the weights yourself with fit_params (e.g. {'step__sample_weight': w} for a "
            "Pipeline) and leave sample_weight out."
        )


def estimator_name(estimator: Any) -> str:
    """A model's default name: its class, or for a pipeline (or any meta-estimator with ``steps``)
    the class of its last step, which is the model ("Pipeline" names none).

    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> from sklearn.linear_model import LogisticRegression
    >>> estimator_name(make_pipeline(StandardScaler(), LogisticRegression())), estimator_name(LogisticRegression())
    ('LogisticRegression (pipeline)', 'LogisticRegression')
    """
    steps = getattr(estimator, "steps", None)
    if isinstance(steps, list) and steps and isinstance(steps[-1], tuple) and len(steps[-1]) == 2:
        return f"{estimator_name(steps[-1][1])} (pipeline)"
    return type(estimator).__name__
