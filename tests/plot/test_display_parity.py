"""The Display classes against scikit-learn's (the oracle): same signatures and defaults, same
plotted data, attributes, legend and axis labels, warnings and errors, drawn on the given axes."""

from __future__ import annotations

import inspect
import re
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import example, given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure
from sklearn.datasets import make_classification
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import cross_validate
from sklearn.svm import SVC

import clfeval.plot as cp

NAMES = ["RocCurveDisplay", "PrecisionRecallDisplay", "ConfusionMatrixDisplay", "DetCurveDisplay"]
CURVES = ["RocCurveDisplay", "PrecisionRecallDisplay", "DetCurveDisplay"]
ATTRS = {
    "RocCurveDisplay": ("fpr", "tpr", "roc_auc", "name", "pos_label"),
    "PrecisionRecallDisplay": ("precision", "recall", "average_precision", "name", "pos_label", "prevalence_pos_label"),
    "DetCurveDisplay": ("fpr", "fnr", "estimator_name", "pos_label"),
}

X, Y = make_classification(n_samples=120, n_features=5, random_state=0)
YS = np.where(Y == 1, "spam", "ham")
W = np.random.default_rng(0).random(120)
LR = LogisticRegression().fit(X, YS)
SV = SVC().fit(X, YS)  # decision_function only
S = LR.predict_proba(X)[:, 1].round(2)  # ties


def texts(ax) -> list[str]:
    leg = ax.get_legend()
    return [] if leg is None else [t.get_text() for t in leg.get_texts()]


def both(cls_name: str, method: str, *args, **kwargs):
    """scikit-learn's and clfeval's display from the same call, each on its own fresh axes."""
    out = []
    for module in (skm, cp):
        ax = Figure().add_subplot()
        disp = getattr(getattr(module, cls_name), method)(*args, ax=ax, **kwargs)
        assert disp.ax_ is ax and disp.figure_ is ax.figure
        out.append(disp)
    return out


def same(a, b) -> None:
    if isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, (np.ndarray, float, np.floating)) and not isinstance(a, str):
        np.testing.assert_allclose(np.asarray(b, dtype=float), np.asarray(a, dtype=float), rtol=1e-12, atol=1e-15)
    else:
        assert a == b, (a, b)


def assert_label_differs_only_at_a_rounding_tie(sk, cf) -> None:
    """The legends' "(AP = 0.38)" / "(AP = 0.37)" may differ only where the area sits on a
    two-decimal rounding tie and the two libraries' sums differ in the last bit: clfeval's area is
    exact there (e.g. 3/8 = 0.375 for tied, weighted scores, where scikit-learn sums to
    0.37499999999999994), so the two round to different sides."""
    for attr in ("average_precision", "roc_auc"):
        a, b = getattr(sk, attr, None), getattr(cf, attr, None)
        if a is not None and b is not None:
            assert abs(a - b) <= 1e-12, (attr, a, b)
            tie = round(b * 100 - 0.5)
            assert abs(b * 100 - 0.5 - tie) <= 1e-9, f"labels differ away from a rounding tie: {a!r} vs {b!r}"
            return
    raise AssertionError("the legends differ and the displays hold no area to explain it")


def assert_same_drawing(sk, cf) -> None:
    lines_sk = sk.line_ if isinstance(sk.line_, list) else [sk.line_]
    lines_cf = cf.line_ if isinstance(cf.line_, list) else [cf.line_]
    assert len(lines_sk) == len(lines_cf)
    for a, b in zip(lines_sk, lines_cf):
        np.testing.assert_allclose(b.get_xydata(), a.get_xydata(), rtol=1e-12, atol=1e-12)
        for prop in ("label", "drawstyle", "linestyle", "color", "alpha"):
            if prop == "label" and b.get_label() != a.get_label():
                assert_label_differs_only_at_a_rounding_tie(sk, cf)
                continue
            assert getattr(b, f"get_{prop}")() == getattr(a, f"get_{prop}")(), prop
        assert b in cf.ax_.lines
    if texts(cf.ax_) != texts(sk.ax_):  # the legend repeats the line's label
        assert_label_differs_only_at_a_rounding_tie(sk, cf)
        masked = [re.sub(r"= \d\.\d\d\)", "= x)", t) for t in texts(cf.ax_)]
        assert masked == [re.sub(r"= \d\.\d\d\)", "= x)", t) for t in texts(sk.ax_)]
    for getter in ("get_xlabel", "get_ylabel", "get_xlim", "get_ylim", "get_aspect", "get_xticks"):
        same(getattr(sk.ax_, getter)(), getattr(cf.ax_, getter)())
    assert [t.get_text() for t in cf.ax_.get_xticklabels()] == [t.get_text() for t in sk.ax_.get_xticklabels()]
    assert [s.get_visible() for s in cf.ax_.spines.values()] == [s.get_visible() for s in sk.ax_.spines.values()]
    chance_sk, chance_cf = getattr(sk, "chance_level_", None), getattr(cf, "chance_level_", None)
    assert (chance_sk is None) == (chance_cf is None)
    for a, b in zip(chance_sk if isinstance(chance_sk, list) else [chance_sk] * (chance_sk is not None),
                    chance_cf if isinstance(chance_cf, list) else [chance_cf] * (chance_cf is not None)):
        np.testing.assert_allclose(b.get_xydata(), a.get_xydata(), rtol=1e-12)
        assert (b.get_label(), b.get_color(), b.get_linestyle()) == (a.get_label(), a.get_color(), a.get_linestyle())


def assert_same_curve(name: str, sk, cf) -> None:
    for attr in ATTRS[name]:
        same(getattr(sk, attr), getattr(cf, attr))
    assert_same_drawing(sk, cf)


# -- signatures ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("method", ["__init__", "from_estimator", "from_predictions", "plot", "from_cv_results"])
def test_signatures_take_sklearns_arguments(name, method):
    """Every scikit-learn parameter, in its order, kind and default; clfeval's extras come after
    them, with defaults."""
    sk_cls, cf_cls = getattr(skm, name), getattr(cp, name)
    if not hasattr(sk_cls, method):
        return
    sk = list(inspect.signature(getattr(sk_cls, method)).parameters.values())
    cf = list(inspect.signature(getattr(cf_cls, method)).parameters.values())
    ours = [p for p in cf if p.kind is not p.VAR_KEYWORD]
    theirs = [p for p in sk if p.kind is not p.VAR_KEYWORD]
    assert [(p.name, p.kind, p.default) for p in ours[: len(theirs)]] == [
        (p.name, p.kind, p.default) for p in theirs]
    assert all(p.default is not p.empty for p in ours[len(theirs):])
    assert any(p.kind is p.VAR_KEYWORD for p in cf) == any(p.kind is p.VAR_KEYWORD for p in sk)


# -- from_predictions ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("drop", [False, True])
def test_from_predictions_string_labels(name, weighted, drop):
    kw = dict(pos_label="spam", sample_weight=W if weighted else None, drop_intermediate=drop, name="lr")
    sk, cf = both(name, "from_predictions", YS, S, **kw)
    assert_same_curve(name, sk, cf)
    assert cf.ax_.get_xlabel().endswith("(Positive label: spam)")


@pytest.mark.parametrize("name", ["RocCurveDisplay", "PrecisionRecallDisplay"])
def test_from_predictions_options(name):
    kw = dict(plot_chance_level=True, chance_level_kw={"c": "r", "ls": ":"}, curve_kwargs={"lw": 3, "c": "g"},
              despine=True)
    sk, cf = both(name, "from_predictions", Y, S, **kw)
    assert_same_curve(name, sk, cf)
    assert cf.line_.get_linewidth() == sk.line_.get_linewidth() == 3
    sk, cf = both(name, "from_predictions", Y, S)  # no name: "Classifier"
    assert_same_curve(name, sk, cf)
    assert texts(cf.ax_)[0].startswith("Classifier (")


def test_from_predictions_negative_labels_default_pos_label():
    y = np.where(Y == 1, 1, -1)
    for name in CURVES:
        sk, cf = both(name, "from_predictions", y, -S)
        assert_same_curve(name, sk, cf)
        assert cf.pos_label == 1


@settings(max_examples=20)
@given(rows=st.lists(st.tuples(st.booleans(), st.integers(0, 5), st.sampled_from([0.0, 0.5, 1.0, 3.0])),
                     min_size=2, max_size=30).filter(lambda r: len({a for a, _, _ in r}) == 2
                                                     and sum(w for a, _, w in r if a) > 0
                                                     and sum(w for a, _, w in r if not a) > 0),
       drop=st.booleans())
@example(rows=[(False, 0, 1.0), (False, 0, 3.0), (False, 2, 0.5), (False, 2, 0.5), (False, 2, 0.5), (True, 0, 1.0),
               (True, 1, 1.0), (True, 2, 0.5)], drop=False)  # AP exactly 3/8: "0.38" here, sklearn's 0.37499... "0.37"
def test_curves_match_sklearn_on_ties_and_zero_weights(rows, drop):
    y = np.array([int(a) for a, _, _ in rows])
    s = np.array([b / 5 for _, b, _ in rows])
    w = np.array([c for _, _, c in rows])
    for name in CURVES:
        sk, cf = both(name, "from_predictions", y, s, sample_weight=w, drop_intermediate=drop)
        assert_same_curve(name, sk, cf)


# -- from_estimator ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CURVES)
@pytest.mark.parametrize("est, pos_label, response_method", [
    (LR, None, "auto"), (LR, "ham", "auto"), (SV, None, "auto"), (SV, "ham", "decision_function"),
    (LR, "spam", "decision_function"),
])
def test_from_estimator(name, est, pos_label, response_method):
    kw = dict(pos_label=pos_label, response_method=response_method, sample_weight=W)
    sk, cf = both(name, "from_estimator", est, X, YS, **kw)
    assert_same_curve(name, sk, cf)
    assert cf.ax_.get_xlabel().endswith(f"(Positive label: {pos_label or 'spam'})")
    assert texts(cf.ax_)[0].startswith(type(est).__name__)


@pytest.mark.parametrize("name", CURVES)
def test_from_estimator_errors(name):
    cls = getattr(cp, name)
    ax = Figure().add_subplot()
    with pytest.raises(ValueError, match="not fitted"):
        cls.from_estimator(LogisticRegression(), X, Y, ax=ax)
    with pytest.raises(AttributeError):
        cls.from_estimator(LogisticRegression(), X, Y, ax=ax)
    with pytest.raises(ValueError, match="binary classifier. Got LinearRegression"):
        cls.from_estimator(LinearRegression().fit(X, Y), X, Y, ax=ax)
    three = LogisticRegression().fit(X, Y + (X[:, 0] > 1))
    with pytest.raises(ValueError, match="Got 3 classes"):
        cls.from_estimator(three, X, Y, ax=ax)
    with pytest.raises(ValueError, match="pos_label=eel is not a valid label"):
        cls.from_estimator(LR, X, YS, pos_label="eel", ax=ax)
    with pytest.raises(AttributeError, match="none of the following attributes: predict_proba"):
        cls.from_estimator(SV, X, YS, response_method="predict_proba", ax=ax)


# -- from_cv_results -----------------------------------------------------------------------------


CV = cross_validate(LogisticRegression(), X, YS, cv=3, return_estimator=True, return_indices=True)


@pytest.mark.parametrize("name", ["RocCurveDisplay", "PrecisionRecallDisplay"])
@pytest.mark.parametrize("kw", [
    {},
    {"name": "lr", "plot_chance_level": True, "sample_weight": W},
    {"name": ["a", "b", "c"], "curve_kwargs": [{"color": "r"}, {"color": "g"}, {"color": "b"}],
     "pos_label": "ham", "drop_intermediate": False},
])
def test_from_cv_results(name, kw):
    sk, cf = both(name, "from_cv_results", CV, X, YS, **kw)
    assert_same_curve(name, sk, cf)
    assert len(cf.line_) == 3


def test_from_cv_results_errors():
    ax = Figure().add_subplot()
    with pytest.raises(ValueError, match="required keys"):
        cp.RocCurveDisplay.from_cv_results({"estimator": CV["estimator"]}, X, YS, ax=ax)
    with pytest.raises(ValueError, match="correct number of samples"):
        cp.RocCurveDisplay.from_cv_results(CV, X[:-1], YS[:-1], ax=ax)


# -- the constructor and plot ----------------------------------------------------------------------


def test_constructor_and_plot_on_given_axes():
    fpr, tpr, _ = skm.roc_curve(Y, S)
    p, r, _ = skm.precision_recall_curve(Y, S)
    fnr_fpr = skm.det_curve(Y, S)
    cases = [
        ("RocCurveDisplay", dict(fpr=fpr, tpr=tpr, roc_auc=0.9, name="m", pos_label=1), dict(name="other")),
        ("RocCurveDisplay", dict(fpr=fpr, tpr=tpr), dict(plot_chance_level=True)),
        ("PrecisionRecallDisplay", dict(precision=p, recall=r, average_precision=0.8, prevalence_pos_label=0.4),
         dict(plot_chance_level=True, name="n")),
        ("DetCurveDisplay", dict(fpr=fnr_fpr[0], fnr=fnr_fpr[1], estimator_name="d"), dict()),
        ("DetCurveDisplay", dict(fpr=fnr_fpr[0], fnr=fnr_fpr[1]), dict(name="given", color="r")),
    ]
    for name, init, plot in cases:
        ax_sk, ax_cf = Figure().add_subplot(), Figure().add_subplot()
        sk = getattr(skm, name)(**init).plot(ax=ax_sk, **plot)
        cf = getattr(cp, name)(**init).plot(ax=ax_cf, **plot)
        assert cf.ax_ is ax_cf and cf.figure_ is ax_cf.figure
        assert_same_curve(name, sk, cf)


def test_multi_curve_constructor():
    curves = [skm.roc_curve(Y[i::2], S[i::2]) for i in range(2)]
    init = dict(fpr=[c[0] for c in curves], tpr=[c[1] for c in curves], roc_auc=[0.8, 0.9], name="folds")
    sk = skm.RocCurveDisplay(**init).plot(ax=Figure().add_subplot())
    cf = cp.RocCurveDisplay(**init).plot(ax=Figure().add_subplot())
    assert_same_curve("RocCurveDisplay", sk, cf)
    assert texts(cf.ax_) == ["folds (AUC = 0.85 +/- 0.05)"]
    with pytest.raises(ValueError, match="should all be lists of the same length"):
        cp.RocCurveDisplay(fpr=init["fpr"], tpr=init["tpr"][:1]).plot(ax=Figure().add_subplot())
    with pytest.raises(ValueError, match="curve_kwargs` should be a list of 2"):
        cp.RocCurveDisplay(**init).plot(ax=Figure().add_subplot(), name=["a", "b"])


# -- warnings and errors -----------------------------------------------------------------------


def outcome(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            call()
            error = None
        except Exception as exc:  # noqa: BLE001 - compared below
            error = exc
    return [(w.category, str(w.message)) for w in caught if w.category is FutureWarning], error


@pytest.mark.parametrize("call", [
    lambda m: m.PrecisionRecallDisplay([1, 0.5], [0, 1], estimator_name="old"),
    lambda m: m.PrecisionRecallDisplay([1, 0.5], [0, 1], estimator_name="old", name="new"),
    lambda m: m.PrecisionRecallDisplay.from_predictions(Y, y_pred=S, ax=Figure().add_subplot()),
    lambda m: m.DetCurveDisplay.from_predictions(Y, y_pred=S, ax=Figure().add_subplot()),
    lambda m: m.DetCurveDisplay.from_predictions(Y, S, y_pred=S, ax=Figure().add_subplot()),
    lambda m: m.PrecisionRecallDisplay.from_predictions(Y, S, color="r", ax=Figure().add_subplot()),
    lambda m: m.PrecisionRecallDisplay.from_predictions(Y, S, color="r", curve_kwargs={"lw": 2},
                                                        ax=Figure().add_subplot()),
    lambda m: m.PrecisionRecallDisplay([1, 0.5], [0, 1]).plot(plot_chance_level=True, ax=Figure().add_subplot()),
    lambda m: m.RocCurveDisplay.from_predictions([0, 1, 2], [0.1, 0.5, 0.9], ax=Figure().add_subplot()),
    lambda m: m.RocCurveDisplay.from_predictions(YS, S, ax=Figure().add_subplot()),
    lambda m: m.RocCurveDisplay.from_predictions(Y, S[:-1], ax=Figure().add_subplot()),
    lambda m: m.RocCurveDisplay.from_predictions(Y, S, curve_kwargs={"c": "r", "color": "b"},
                                                 ax=Figure().add_subplot()),
    lambda m: m.ConfusionMatrixDisplay.from_estimator(LinearRegression().fit(X, Y), X, Y, ax=Figure().add_subplot()),
])
def test_same_warnings_and_errors(call):
    sk_warn, sk_err = outcome(lambda: call(skm))
    cf_warn, cf_err = outcome(lambda: call(cp))
    assert cf_warn == sk_warn
    assert type(cf_err) is type(sk_err), (cf_err, sk_err)


# -- confusion matrix --------------------------------------------------------------------------


def assert_same_matrix(sk, cf) -> None:
    np.testing.assert_allclose(cf.confusion_matrix, sk.confusion_matrix, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(cf.im_.get_array(), sk.im_.get_array(), rtol=1e-12, atol=1e-15)
    assert cf.im_.get_cmap().name == sk.im_.get_cmap().name
    assert list(cf.display_labels) == list(sk.display_labels)
    if sk.text_ is None:
        assert cf.text_ is None
    else:
        assert [[t.get_text() for t in row] for row in cf.text_] == [[t.get_text() for t in row] for row in sk.text_]
        assert [[t.get_color() for t in row] for row in cf.text_] == [[t.get_color() for t in row] for row in sk.text_]
    for getter in ("get_xlabel", "get_ylabel", "get_ylim", "get_xticks"):
        same(getattr(sk.ax_, getter)(), getattr(cf.ax_, getter)())
    for which in ("get_xticklabels", "get_yticklabels"):
        assert [(t.get_text(), t.get_rotation()) for t in getattr(cf.ax_, which)()] == [
            (t.get_text(), t.get_rotation()) for t in getattr(sk.ax_, which)()]
    assert len(cf.figure_.axes) == len(sk.figure_.axes)  # the colorbar


@settings(max_examples=20)
@given(
    codes=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from([0.0, 0.5, 1.0, 7.0])),
                   min_size=1, max_size=40),
    normalize=st.sampled_from([None, "true", "pred", "all"]),
    weighted=st.booleans(),
    options=st.sampled_from([{}, {"values_format": ".1f"}, {"include_values": False, "colorbar": False},
                             {"cmap": "Blues", "xticks_rotation": 45}]),
)
def test_confusion_from_predictions(codes, normalize, weighted, options):
    names = np.array(["ant", "bee", "cat", "dog"])
    yt, yp = names[[a for a, _, _ in codes]], names[[b for _, b, _ in codes]]
    w = np.array([c for _, _, c in codes]) if weighted else None
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # scikit-learn's 0/0 rows
        warnings.simplefilter("ignore", UserWarning)  # "A single label was found", from both
        sk, cf = both("ConfusionMatrixDisplay", "from_predictions", yt, yp, sample_weight=w, normalize=normalize,
                      **options)
    assert_same_matrix(sk, cf)


@pytest.mark.parametrize("kw", [{}, {"labels": ["dog", "ant", "bee"], "display_labels": ["D", "A", "B"]},
                                {"labels": ["dog", "ant"], "normalize": "true"}])
def test_confusion_from_estimator(kw):
    y = np.array(["ant", "bee", "dog"])[(X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)]
    est = LogisticRegression().fit(X, y)
    sk, cf = both("ConfusionMatrixDisplay", "from_estimator", est, X, y, **kw)
    assert_same_matrix(sk, cf)


def test_confusion_constructor_and_plot():
    for cm, labels in (([[3, 1], [0, 12]], None), ([[0.25, 0.75], [1.0, 0.0]], ["no", "yes"])):
        cm = np.array(cm)
        sk = skm.ConfusionMatrixDisplay(cm, display_labels=labels).plot(ax=Figure().add_subplot())
        cf = cp.ConfusionMatrixDisplay(cm, display_labels=labels).plot(ax=Figure().add_subplot())
        sk.display_labels = cf.display_labels = list(range(2)) if labels is None else labels
        assert_same_matrix(sk, cf)


# -- clfeval's view beside scikit-learn's --------------------------------------------------------


def test_from_evaluation_keeps_clfevals_view_and_redraws_as_sklearn():
    import clfeval
    from matplotlib import cbook

    ev = clfeval.evaluate(YS, y_score=S, pos_label="spam", sample_weight=W, name="lr")
    mine = cp.PrecisionRecallDisplay.from_evaluation(ev, ax=Figure().add_subplot())
    assert mine.style == "clfeval" and len(mine.iso_f1_lines_) == 4 and mine.break_even_ is not None
    assert mine.line_.get_label().startswith(f"lr (AP = {mine.average_precision:.3f}, break-even")
    sk = skm.PrecisionRecallDisplay.from_predictions(YS, S, pos_label="spam", sample_weight=W, name="lr",
                                                     ax=Figure().add_subplot())
    again = mine.plot(ax=Figure().add_subplot(), style="sklearn", show_break_even=False, show_operating_point=False)
    assert again.iso_f1_lines_ == [] and again.line_.get_label() == sk.line_.get_label()
    # clfeval's curve runs by increasing recall: drawn "steps-pre", the same staircase as scikit-learn's
    assert again.line_.get_drawstyle() == "steps-pre" and sk.line_.get_drawstyle() == "steps-post"
    ours = cbook.pts_to_prestep(*again.line_.get_xydata().T)
    theirs = cbook.pts_to_poststep(*sk.line_.get_xydata().T)
    np.testing.assert_allclose(np.unique(np.c_[ours].T, axis=0), np.unique(np.c_[theirs].T, axis=0), atol=1e-12)
    roc = cp.RocCurveDisplay.from_evaluation(ev, ax=Figure().add_subplot())
    assert roc.chance_level_ is not None and roc.operating_point_ is not None
    assert roc.ax_.get_xlabel() == "False positive rate (positive class: spam)"
