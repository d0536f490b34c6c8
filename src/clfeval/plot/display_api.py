"""scikit-learn's display API, shared by the curve displays: the scores of a fitted estimator,
the checks of ``from_predictions``, the legend text and line keywords of one or several curves,
deprecated arguments, ``despine`` and the folds of ``cross_validate`` results.

scikit-learn is never imported: an estimator is only asked for its ``classes_`` and its
``predict_proba`` / ``decision_function`` / ``predict``.

>>> legend_label(0.8765, "LR", "AUC"), legend_label(None, "LR", "AUC"), legend_label(0.5, None, "AP")
('LR (AUC = 0.88)', 'LR', 'AP = 0.50')
>>> style_kwargs({"color": "k", "linestyle": "--"}, {"ls": ":"})
{'color': 'k', 'linestyle': ':'}
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from clfeval.inputs.sklearn_pos_label import has_conventional_labels
from clfeval.inputs.labels import as_array, check_consistent_length, target_kind
from clfeval.plot._style import require_matplotlib

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "NotFittedError", "not_fitted_error", "plain_axes", "style_kwargs", "despine", "as_list", "check_param_lengths",
    "legend_label", "curve_line_kwargs", "is_classifier", "estimator_name", "binary_response",
    "check_binary_predictions", "deprecated_y_pred", "deprecated_estimator_name", "cv_fold_scores", "Style",
    "curve_values", "positive_label_suffix",
]

#: how a display's ``plot`` draws: "sklearn" (as scikit-learn) or "clfeval" (``from_evaluation``)
Style = Literal["sklearn", "clfeval"]

#: matplotlib's short aliases and the names they stand for (both given: a TypeError, as sklearn)
ALIASES = {
    "ls": "linestyle", "c": "color", "ec": "edgecolor", "fc": "facecolor", "lw": "linewidth",
    "mec": "markeredgecolor", "mfcalt": "markerfacecoloralt", "ms": "markersize",
    "mew": "markeredgewidth", "mfc": "markerfacecolor", "aa": "antialiased", "ds": "drawstyle",
    "font": "fontproperties", "family": "fontfamily", "name": "fontname", "size": "fontsize",
    "stretch": "fontstretch", "style": "fontstyle", "variant": "fontvariant", "weight": "fontweight",
    "ha": "horizontalalignment", "va": "verticalalignment", "ma": "multialignment",
}


class NotFittedError(ValueError, AttributeError):
    """An estimator used before ``fit`` (a ValueError and an AttributeError, as scikit-learn's).

    Raised as ``sklearn.exceptions.NotFittedError`` instead when scikit-learn has loaded it (it
    has, for any scikit-learn estimator), so that ``except NotFittedError`` written for
    scikit-learn catches it; scikit-learn is never imported here.
    """


def not_fitted_error(message: str) -> Exception:
    """scikit-learn's NotFittedError if loaded, else clfeval's."""
    loaded = sys.modules.get("sklearn.exceptions")
    cls = getattr(loaded, "NotFittedError", None) if loaded is not None else None
    return (cls if isinstance(cls, type) and issubclass(cls, Exception) else NotFittedError)(message)


def plain_axes(ax: Axes | None) -> tuple[Axes, Figure]:
    """``ax`` and its figure, or new pyplot axes (``plt.subplots()``), as scikit-learn's displays."""
    require_matplotlib()
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots()
    return ax, ax.figure


def curve_values(values: Any) -> Any:
    """One curve's points as a float array, or several curves' (a list of arrays) as a list.

    >>> curve_values([0, 0.5, 1]).tolist(), len(curve_values([np.zeros(2), np.ones(3)]))
    ([0.0, 0.5, 1.0], 2)
    """
    if values is None:
        return None
    if isinstance(values, list) and values and not np.isscalar(values[0]):
        return [np.asarray(v) for v in values]
    return np.asarray(values)


def positive_label_suffix(pos_label: Any) -> str:
    """scikit-learn's axis-label suffix naming the positive class ("" when there is none)."""
    return "" if pos_label is None else f" (Positive label: {pos_label})"


def style_kwargs(defaults: Mapping[str, Any], user: Mapping[str, Any]) -> dict[str, Any]:
    """``defaults`` updated by ``user``, a short alias (``ls``) replacing its long name."""
    for short, long in ALIASES.items():
        if short in user and long in user:
            raise TypeError(f"Got both {short} and {long}, which are aliases of one another")
    out = dict(defaults)
    for key, value in user.items():
        out[ALIASES.get(key, key)] = value
    return out


def despine(ax: Axes) -> None:
    """Hide the top and right spines; the others span [0, 1]."""
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("bottom", "left"):
        ax.spines[side].set_bounds(0, 1)


def as_list(param: Any) -> list[Any] | None:
    """``param`` as a list of curves' values (one curve: a list of one); None stays None."""
    if param is None:
        return None
    return param if isinstance(param, list) else [param]


def check_param_lengths(required: dict[str, list], optional: dict[str, Any], class_name: str) -> None:
    """The per-curve lists of a multi-curve display all have the same length."""
    given = {**required, **{k: v for k, v in optional.items() if isinstance(v, list)}}
    if len({len(v) for v in given.values()}) > 1:
        keys = list(given)
        names = " and ".join([", ".join(keys[:-1]), keys[-1]])
        lengths = ", ".join(f"{k}: {len(v)}" for k, v in given.items())
        via_plot = " (or `plot`)" if "'name' (or self.name)" in keys else ""
        raise ValueError(f"{names} from `{class_name}` initialization{via_plot}, should all be lists "
                         f"of the same length. Got: {lengths}")


def legend_label(value: float | None, name: str | None, metric: str) -> str | None:
    """Legend text of a curve: ``name (metric = 0.87)``, the name or the value alone, or None."""
    if value is not None and name is not None:
        return f"{name} ({metric} = {value:0.2f})"
    if value is not None:
        return f"{metric} = {value:0.2f}"
    return name


def curve_line_kwargs(
    n_curves: int, name: Any, values: list | None, metric: str, curve_kwargs: Any, *,
    defaults: dict[str, Any] | None = None, multi_defaults: dict[str, Any] | None = None,
    legacy_kwargs: dict[str, Any] | None = None, removed_version: str = "1.9",
) -> list[dict[str, Any]]:
    """The ``ax.plot`` keywords of each of ``n_curves`` curves, with their legend labels.

    ``values``: the curves' areas (or None). One ``curve_kwargs`` dict for several curves gives one
    legend entry, "name (metric = mean +/- std)"; a list gives one entry per curve.
    ``legacy_kwargs``: the deprecated ``**kwargs`` of ``plot`` (a FutureWarning).

    >>> [k["label"] for k in curve_line_kwargs(2, "cv", [0.8, 0.9], "AUC", None)]
    ['cv (AUC = 0.85 +/- 0.05)', None]
    """
    if curve_kwargs and legacy_kwargs:
        raise ValueError(
            "Cannot provide both `curve_kwargs` and `kwargs`. `**kwargs` is deprecated and will be "
            f"removed in {removed_version}. Pass all matplotlib arguments to `curve_kwargs` as a dictionary."
        )
    if legacy_kwargs:
        warnings.warn(
            f"`**kwargs` is deprecated and will be removed in {removed_version}. Pass all matplotlib "
            "arguments to `curve_kwargs` as a dictionary instead.", FutureWarning, stacklevel=4,
        )
        curve_kwargs = legacy_kwargs
    if isinstance(curve_kwargs, list) and len(curve_kwargs) != n_curves:
        raise ValueError(f"`curve_kwargs` must be None, a dictionary or a list of length {n_curves}. "
                         f"Got: {curve_kwargs}.")
    if isinstance(name, list) and len(name) != 1 and not isinstance(curve_kwargs, list):
        raise ValueError(
            "To avoid labeling individual curves that have the same appearance, `curve_kwargs` should "
            f"be a list of {n_curves} dictionaries. Alternatively, set `name` to `None` or a single "
            "string to label a single legend entry for all curves."
        )
    names = [name] if isinstance(name, str) else name
    names = [None] * n_curves if names is None else (names * n_curves if len(names) == 1 else names)
    each = [curve_kwargs] * n_curves if isinstance(curve_kwargs, Mapping) else (
        [{}] * n_curves if curve_kwargs is None else curve_kwargs)
    base = dict(defaults or {})
    if n_curves > 1:
        base.update(multi_defaults or {})
    if not isinstance(curve_kwargs, list) and n_curves > 1:  # one legend entry for all curves
        label = None
        if values:
            mean, std = float(np.mean(values)), float(np.std(values))
            label = legend_label(mean, names[0], metric)
            label = f"{label[:-1]} +/- {std:0.2f})" if names[0] is not None else f"{label} +/- {std:0.2f}"
        elif names[0] is not None:
            label = names[0]
        labels = [label] + [None] * (n_curves - 1)
    else:
        vals = values if values is not None else [None] * n_curves
        labels = [legend_label(v, nm, metric) for v, nm in zip(vals, names)]
    return [style_kwargs({"label": lab, **base}, kw) for lab, kw in zip(labels, each)]


def is_classifier(estimator: Any) -> bool:
    """Whether ``estimator`` says it is a classifier (scikit-learn's tags, or ``_estimator_type``)."""
    tags = getattr(estimator, "__sklearn_tags__", None)
    if callable(tags):
        try:
            return getattr(tags(), "estimator_type", None) == "classifier"
        except Exception:  # noqa: BLE001 - a tags method that fails: fall back to the old attribute
            pass
    return getattr(estimator, "_estimator_type", None) == "classifier"


def estimator_name(estimator: Any, name: str | None) -> str:
    """``name``, else the estimator's class name."""
    return type(estimator).__name__ if name is None else name


def _check_fitted(estimator: Any) -> None:
    is_fitted = getattr(estimator, "__sklearn_is_fitted__", None)
    if callable(is_fitted):
        fitted = is_fitted()
    else:  # scikit-learn's rule: fit sets attributes whose names end with "_"
        fitted = any(k.endswith("_") and not k.startswith("__") for k in vars(estimator))
    if not fitted:
        raise not_fitted_error(
            f"This {type(estimator).__name__} instance is not fitted yet. Call 'fit' with appropriate "
            "arguments before using this estimator."
        )


def binary_response(estimator: Any, X: Any, response_method: Any = "auto", pos_label: Any = None) -> tuple[np.ndarray, Any]:
    """The positive class's scores of a fitted binary classifier on ``X``, and that class.

    ``response_method``: "predict_proba", "decision_function", a list tried in order, or "auto"
    (``predict_proba``, else ``decision_function``). Probabilities are the positive class's
    column; decision values are negated when the positive class is ``classes_[0]``. The positive
    class defaults to ``classes_[1]``.
    """
    _check_fitted(estimator)
    if not is_classifier(estimator):
        raise ValueError(f"Expected 'estimator' to be a binary classifier. Got {type(estimator).__name__} instead.")
    classes = np.asarray(estimator.classes_)
    if len(classes) != 2:
        raise ValueError(f"Expected 'estimator' to be a binary classifier. Got {len(classes)} classes instead.")
    methods = ["predict_proba", "decision_function"] if response_method == "auto" else (
        [response_method] if isinstance(response_method, str) else list(response_method))
    method = next((m for m in methods if getattr(estimator, m, None) is not None), None)
    if method is None:
        raise AttributeError(f"{type(estimator).__name__} has none of the following attributes: {', '.join(methods)}.")
    if pos_label is not None and pos_label not in classes.tolist():
        raise ValueError(f"pos_label={pos_label} is not a valid label: It should be one of {classes}")
    if pos_label is None:
        pos_label = classes[-1]
    scores = np.asarray(getattr(estimator, method)(X))
    if method in ("predict_proba", "predict_log_proba"):
        if scores.ndim != 2 or scores.shape[1] < 2:
            raise ValueError(f"Got predict_proba of shape {scores.shape}, but need classifier with two classes.")
        scores = scores[:, np.flatnonzero(classes == pos_label)[0]]
    elif method == "decision_function" and pos_label == classes[0]:
        scores = -1 * scores
    return scores, pos_label


def check_binary_predictions(
    y_true: Any, y_score: Any, sample_weight: Any, pos_label: Any, name: str | None
) -> tuple[Any, str]:
    """scikit-learn's checks of ``from_predictions``: binary targets, equal lengths, a positive
    class that is given or implied ({0, 1} or {-1, 1}: 1). Returns (positive class, name)."""
    y = as_array(y_true, "y_true")
    kind, classes = target_kind(y, "y_true")
    if kind != "binary":
        hint = "; for one curve per class use clfeval.plot.OneVsRestDisplay" if kind == "multiclass" else ""
        raise ValueError(f"this display needs a binary target, but y_true is {kind}{hint}.")
    check_consistent_length(y_true=y, y_score=y_score, sample_weight=sample_weight)
    if pos_label is None:
        if not has_conventional_labels(classes):
            shown = ", ".join(repr(c) for c in classes.tolist())
            raise ValueError(f"pos_label is needed: y_true's classes are {{{shown}}}, not {{0, 1}} or {{-1, 1}}, "
                             "so which one is positive is not known (pass pos_label=).")
        pos_label = 1
    return pos_label, ("Classifier" if name is None else name)


def _deprecation_text(since: str) -> str:
    major, minor = since.split(".")
    return f"deprecated in {since} and will be removed in {major}.{int(minor) + 2}"


def deprecated_y_pred(y_score: Any, y_pred: Any, since: str = "1.8") -> Any:
    """``y_score``, or the deprecated ``y_pred`` (a FutureWarning); both given: a ValueError."""
    given = not (isinstance(y_pred, str) and y_pred == "deprecated")
    if y_score is not None and given:
        raise ValueError("`y_pred` and `y_score` cannot be both specified. Please use `y_score` only as "
                         f"`y_pred` was {_deprecation_text(since)}.")
    if given:
        warnings.warn(f"y_pred was {_deprecation_text(since)}. Please use `y_score` instead.",
                      FutureWarning, stacklevel=3)
        return y_pred
    return y_score


def deprecated_estimator_name(estimator_name: Any, name: Any, since: str = "1.8") -> Any:
    """``name``, or the deprecated ``estimator_name`` (a FutureWarning); both given: a ValueError."""
    if isinstance(estimator_name, str) and estimator_name == "deprecated":
        return name
    if name:
        raise ValueError(f"Cannot provide both `estimator_name` and `name`. `estimator_name` is "
                         f"{_deprecation_text(since)}. Use `name` only.")
    warnings.warn(f"`estimator_name` is {_deprecation_text(since)}. Use `name` instead.",
                  FutureWarning, stacklevel=3)
    return estimator_name


def take_rows(a: Any, index: Any) -> Any:
    """Rows ``index`` of an array, list, DataFrame/Series or sparse matrix."""
    if a is None:
        return None
    if hasattr(a, "iloc"):
        return a.iloc[index]
    if isinstance(a, list):
        return [a[i] for i in np.asarray(index)]
    return a[index] if hasattr(a, "shape") else np.asarray(a)[index]


def cv_fold_scores(
    cv_results: Mapping[str, Any], X: Any, y: Any, sample_weight: Any, response_method: Any, pos_label: Any
) -> Iterator[tuple[Any, np.ndarray, Any, Any]]:
    """(y_test, scores, positive class, sample_weight_test) of each fold of ``cross_validate(...,
    return_estimator=True, return_indices=True)``: each fold's estimator scored on its test rows
    (as :func:`binary_response`), after scikit-learn's checks of the results, X and y."""
    if not all(key in cv_results for key in ("estimator", "indices")):
        raise ValueError(
            "`cv_results` does not contain one of the following required keys: {'estimator', 'indices'}. "
            "Set explicitly the parameters `return_estimator=True` and `return_indices=True` to the "
            "function`cross_validate`."
        )
    indices = cv_results["indices"]
    expected = len(indices["train"][0]) + len(indices["test"][0])
    n = X.shape[0] if hasattr(X, "shape") else len(X)
    if n != expected:
        raise ValueError(f"`X` does not contain the correct number of samples. Expected {expected}, got {n}.")
    kind, _ = target_kind(as_array(y, "y"), "y")
    if kind != "binary":
        raise ValueError(f"The target `y` is not binary. Got {kind} type of target.")
    check_consistent_length(X=range(n), y=y, sample_weight=sample_weight)
    for estimator, test in zip(cv_results["estimator"], indices["test"]):
        scores, positive = binary_response(estimator, take_rows(X, test), response_method, pos_label)
        yield take_rows(y, test), scores, positive, take_rows(sample_weight, test)
