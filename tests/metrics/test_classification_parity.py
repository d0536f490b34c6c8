"""Parity of clfeval's label-based metrics with scikit-learn 1.9.1 on hypothesis-generated input.

scikit-learn is the oracle: for every drawn input both libraries are called with the same
arguments, and must agree on the value (to 1e-12), the warning categories and the error class.
The strategies draw mostly input that scikit-learn accepts (all-zero weights, a one-column
indicator matrix, average='binary' on multi-class data, an unknown pos_label or labels= column
only now and then, through ``rarely``), and each test states (``oracle_share``) which share of its
oracle calls must have compared values rather than only the error class.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import assume, given
from hypothesis import strategies as st

from clfeval import metrics as cm
from conftest import (
    assert_close,
    assert_same_outcome,
    for_oracle,
    binary_pairs,
    label_pairs,
    labels_argument,
    multilabel_pairs,
    oracle_share,
    oracle_weights,
    rarely,
    run_capturing,
    sample_weights,
    with_every_class,
)

ZERO_DIVISIONS = ("warn", 0, 0.0, 1, 1.0, np.nan)
AVERAGES_1D = ("binary", "micro", "macro", "weighted", None)
AVERAGES_ML = ("micro", "macro", "weighted", "samples", None)
SETWISE = ("precision_score", "recall_score", "f1_score", "jaccard_score")


@st.composite
def one_d_case(draw: st.DrawFn, **kw):
    """(y_true, y_pred, pool, sample_weight, labels) for a 1-D task."""
    yt, yp, pool = draw(label_pairs(**kw))
    w = draw(oracle_weights(len(yt), allow_bool=True))
    present = np.unique(np.concatenate([yt, yp]))
    labels = draw(labels_argument(pool, present))
    return yt, yp, pool, w, labels


@st.composite
def pos_label_for(draw: st.DrawFn, pool: np.ndarray):
    """Default (1), a label of the pool, or (rarely) one outside it."""
    choice = "outside" if rarely(draw) else draw(st.sampled_from(["default", "pool", "pool"]))
    if choice == "default":
        return 1
    if choice == "pool":
        return draw(st.sampled_from(list(pool)))
    return "zzz" if pool.dtype.kind in "UO" and isinstance(pool[0], str) else 99


@st.composite
def multilabel_labels(draw: st.DrawFn, n_labels: int):
    """None, a subset/permutation of column indices, or (rarely) one that names a column out of range."""
    choice = "bad" if rarely(draw) else draw(st.sampled_from(["none", "subset", "perm"]))
    if choice == "none":
        return None
    if choice == "bad":
        return np.array([0, n_labels])
    cols = list(range(n_labels))
    if choice == "perm":
        return np.array(draw(st.permutations(cols)))
    return np.array(draw(st.lists(st.sampled_from(cols), min_size=1, max_size=n_labels, unique=True)))


@st.composite
def indicator_pairs(draw: st.DrawFn):
    """multilabel_pairs with at least two columns, but for a rare single column (scikit-learn reads
    an (n, 1) indicator as a binary 1-D target and refuses samplewise / average='samples' there)."""
    return draw(multilabel_pairs(min_labels=1 if rarely(draw) else 2))


def _present(*ys: np.ndarray) -> list:
    return np.unique(np.concatenate([np.asarray(for_oracle(y)) for y in ys])).tolist()


@st.composite
def usable_average(draw: st.DrawFn, average, others: tuple, yt, yp, pos_label, multilabel: bool = False):
    """(average, pos_label) that scikit-learn accepts for this data, but for a rare refused pair:
    average='binary' needs at most two classes with pos_label among them (a present label is
    drawn when it is not), average='samples' needs multilabel data (another average is drawn)."""
    if rarely(draw):
        return average, pos_label
    if average == "samples" and not multilabel:
        average = draw(st.sampled_from([a for a in others if a not in ("samples", "binary")]))
    if average == "binary":
        present = [] if multilabel else _present(yt, yp)
        if multilabel or len(present) > 2:
            average = draw(st.sampled_from([a for a in others if a not in ("samples", "binary")]))
        elif len(present) == 2 and not any(pos_label == p for p in present):
            pos_label = draw(st.sampled_from(np.unique(np.concatenate([yt, yp])).tolist()))
    return average, pos_label


@st.composite
def binary_case(draw: st.DrawFn):
    """(y_true, y_pred, sample_weight, labels) of a two-class task with both classes in y_true,
    labels= None or the two classes in either order; rarely one class, or a third label."""
    yt, yp, pool = draw(label_pairs(min_classes=2, max_classes=2, min_size=2))
    if not rarely(draw):
        yt = draw(with_every_class(yt, pool))
    w = draw(oracle_weights(len(yt), allow_bool=True))
    if rarely(draw):
        labels = draw(labels_argument(pool, np.unique(np.concatenate([yt, yp]))))
    else:
        labels = draw(st.sampled_from([None, pool, pool[::-1]]))
    return yt, yp, w, labels


# --------------------------------------------------------------------------------------------
# confusion matrices
# --------------------------------------------------------------------------------------------
@oracle_share(0.7)
@given(case=one_d_case(), normalize=st.sampled_from([None, "true", "pred", "all"]))
def test_confusion_matrix_parity(case, normalize):
    yt, yp, pool, w, labels = case
    assert_same_outcome(
        cm.confusion_matrix, skm.confusion_matrix, yt, yp, labels=labels, sample_weight=w, normalize=normalize
    )


@oracle_share(0.7)
@given(case=one_d_case())
def test_multilabel_confusion_matrix_parity_1d(case):
    yt, yp, pool, w, labels = case
    assert_same_outcome(
        cm.multilabel_confusion_matrix, skm.multilabel_confusion_matrix, yt, yp, labels=labels, sample_weight=w
    )


@oracle_share(0.6)  # one column (with samplewise) and an out-of-range column: two rare gates
@given(data=st.data(), pair=indicator_pairs(), samplewise=st.booleans())
def test_multilabel_confusion_matrix_parity_indicator(data, pair, samplewise):
    yt, yp = pair
    w = data.draw(oracle_weights(yt.shape[0], allow_bool=True))
    labels = data.draw(multilabel_labels(yt.shape[1]))
    assert_same_outcome(
        cm.multilabel_confusion_matrix,
        skm.multilabel_confusion_matrix,
        yt,
        yp,
        labels=labels,
        sample_weight=w,
        samplewise=samplewise,
    )


# --------------------------------------------------------------------------------------------
# accuracy family
# --------------------------------------------------------------------------------------------
def _draw_any_targets(data: st.DataObject):
    if data.draw(st.booleans(), label="multilabel"):
        yt, yp = data.draw(multilabel_pairs())
    else:
        yt, yp, _ = data.draw(label_pairs())
    return yt, yp, data.draw(oracle_weights(yt.shape[0], allow_bool=True))


@oracle_share(0.7)
@given(data=st.data(), normalize=st.booleans())
def test_accuracy_zero_one_parity(data, normalize):
    yt, yp, w = _draw_any_targets(data)
    assert_same_outcome(cm.accuracy_score, skm.accuracy_score, yt, yp, normalize=normalize, sample_weight=w)
    assert_same_outcome(cm.zero_one_loss, skm.zero_one_loss, yt, yp, normalize=normalize, sample_weight=w)


@oracle_share(0.7)
@given(data=st.data())
def test_hamming_and_error_rate_parity(data):
    yt, yp, w = _draw_any_targets(data)
    assert_same_outcome(cm.hamming_loss, skm.hamming_loss, yt, yp, sample_weight=w)

    def one_minus_accuracy(y_true, y_pred, sample_weight=None):
        return 1.0 - skm.accuracy_score(y_true, y_pred, sample_weight=sample_weight)

    assert_same_outcome(cm.error_rate, one_minus_accuracy, yt, yp, sample_weight=w, check_warnings=False)


@oracle_share(0.7)
@given(case=one_d_case(), adjusted=st.booleans())
def test_balanced_accuracy_parity(case, adjusted):
    yt, yp, _, w, _ = case
    assert_same_outcome(
        cm.balanced_accuracy_score, skm.balanced_accuracy_score, yt, yp, sample_weight=w, adjusted=adjusted
    )


def _one_class_margin(yt, yp, w) -> bool:
    """All the weight on one true class or on one predicted class: MCC's covariance is 0."""
    if len(yt) == 0:
        return False
    weight = np.ones(len(yt)) if w is None else np.asarray(w, dtype=float)
    weighted = weight > 0
    return any(np.unique(np.asarray(y, dtype=object)[weighted].astype(str)).size <= 1 for y in (yt, yp))


@oracle_share(0.7)
@given(case=one_d_case())
def test_matthews_parity(case):
    yt, yp, _, w, _ = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            theirs = skm.matthews_corrcoef(yt, yp, sample_weight=w)
        except (ValueError, TypeError):
            theirs = None
    if theirs is not None and np.isnan(theirs) and _one_class_margin(yt, yp, w):
        # a margin with one class: MCC is 0 by scikit-learn's own rule, but its float sums of
        # weights can cancel a few ulps below 0 and take the square root of that (NaN and a
        # RuntimeWarning); clfeval's 0 is the rule's value (see test_large_label_sets' example)
        assert cm.matthews_corrcoef(yt, yp, sample_weight=w) == 0.0
        return
    assert_same_outcome(cm.matthews_corrcoef, skm.matthews_corrcoef, yt, yp, sample_weight=w)


def test_matthews_of_one_true_class_with_cancelling_weights_is_zero():
    from test_large_label_sets import _ONE_TRUE_CLASS

    yt, yp, w = _ONE_TRUE_CLASS
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(skm.matthews_corrcoef(yt, yp, sample_weight=w))  # scikit-learn: sqrt of -ulps
    assert cm.matthews_corrcoef(yt, yp, sample_weight=w) == 0.0
    test_matthews_parity.hypothesis.inner_test((yt, yp, None, w, None))


@oracle_share(0.7)
@given(
    case=one_d_case(),
    weights=st.sampled_from([None, "linear", "quadratic"]),
    replace=st.sampled_from([np.nan, 0.0, -1.0, 1.0]),
)
def test_cohen_kappa_parity(case, weights, replace):
    yt, yp, _, w, labels = case
    assert_same_outcome(
        cm.cohen_kappa_score,
        skm.cohen_kappa_score,
        yt,
        yp,
        labels=labels,
        weights=weights,
        sample_weight=w,
        replace_undefined_by=replace,
    )


@oracle_share(0.6)  # one class, and a labels= other than the two classes: two rare gates
@given(
    case=binary_case(),
    replace=st.sampled_from(
        [np.nan, 1.0, {"LR+": 1.0, "LR-": 1.0}, {"LR+": np.nan, "LR-": 0.0}, {"LR+": 5.0, "LR-": 0.5}]
    ),
)
def test_class_likelihood_ratios_parity(case, replace):
    """Binary only (scikit-learn refuses more classes, and one class gives it a 1 x 1 matrix):
    both classes are in y_true but for rare draws; TP, FP, FN or TN zero are common, and with
    them every replace_undefined_by branch."""
    yt, yp, w, labels = case
    assert_same_outcome(
        cm.class_likelihood_ratios,
        skm.class_likelihood_ratios,
        yt,
        yp,
        labels=labels,
        sample_weight=w,
        replace_undefined_by=replace,
    )


# --------------------------------------------------------------------------------------------
# precision, recall, F, Jaccard
# --------------------------------------------------------------------------------------------
@oracle_share(0.7)
@given(
    data=st.data(),
    average=st.sampled_from(AVERAGES_1D + ("samples",)),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
    beta=st.sampled_from([1.0, 0.5, 2.0, 0.0, np.inf, 3]),
)
def test_prfs_parity_1d(data, average, zero_division, beta):
    yt, yp, pool, w, labels = data.draw(one_d_case())
    pos_label = data.draw(pos_label_for(pool))
    average, pos_label = data.draw(usable_average(average, AVERAGES_1D, yt, yp, pos_label))
    assert_same_outcome(
        cm.precision_recall_fscore_support,
        skm.precision_recall_fscore_support,
        yt,
        yp,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=w,
        zero_division=zero_division,
    )


@oracle_share(0.6)  # an outside pos_label and a kept refused average: rare, but hypothesis repeats them
@given(
    data=st.data(),
    average=st.sampled_from(AVERAGES_1D),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
    beta=st.sampled_from([1.0, 0.5, 2.0, 0.0, np.inf]),
)
def test_prfs_parity_binary_pos_label(data, average, zero_division, beta):
    """Two-class data with every pos_label choice (the 'binary' average's main use)."""
    yt, yp, pool = data.draw(binary_pairs())
    w = data.draw(oracle_weights(len(yt), allow_bool=True))
    pos_label = data.draw(pos_label_for(pool))
    average, pos_label = data.draw(usable_average(average, AVERAGES_1D, yt, yp, pos_label))
    assert_same_outcome(
        cm.precision_recall_fscore_support,
        skm.precision_recall_fscore_support,
        yt,
        yp,
        beta=beta,
        pos_label=pos_label,
        average=average,
        sample_weight=w,
        zero_division=zero_division,
    )


@oracle_share(0.6)  # one column, an out-of-range column, a refused average: three rare gates
@given(
    data=st.data(),
    average=st.sampled_from(AVERAGES_ML + ("binary",)),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
    beta=st.sampled_from([1.0, 0.5, 2.0, 0.0, np.inf]),
)
def test_prfs_parity_multilabel(data, average, zero_division, beta):
    yt, yp = data.draw(indicator_pairs())
    w = data.draw(oracle_weights(yt.shape[0], allow_bool=True))
    labels = data.draw(multilabel_labels(yt.shape[1]))
    average, _ = data.draw(usable_average(average, AVERAGES_ML, yt, yp, 1, multilabel=yt.shape[1] > 1))
    assert_same_outcome(
        cm.precision_recall_fscore_support,
        skm.precision_recall_fscore_support,
        yt,
        yp,
        beta=beta,
        labels=labels,
        average=average,
        sample_weight=w,
        zero_division=zero_division,
    )


@pytest.mark.parametrize("name", SETWISE)
@oracle_share(0.6)  # as test_prfs_parity_multilabel on the multilabel half
@given(data=st.data(), zero_division=st.sampled_from(ZERO_DIVISIONS))
def test_setwise_scores_parity(name, data, zero_division):
    multilabel = data.draw(st.booleans(), label="multilabel")
    if multilabel:
        yt, yp = data.draw(indicator_pairs())
        labels = data.draw(multilabel_labels(yt.shape[1]))
        pos_label = 1
        average = data.draw(st.sampled_from(AVERAGES_ML + ("binary",)))
        average, _ = data.draw(usable_average(average, AVERAGES_ML, yt, yp, 1, multilabel=yt.shape[1] > 1))
    else:
        yt, yp, pool = data.draw(label_pairs(max_classes=data.draw(st.sampled_from([2, 4]))))
        present = np.unique(np.concatenate([yt, yp]))
        labels = data.draw(labels_argument(pool, present))
        pos_label = data.draw(pos_label_for(pool))
        average = data.draw(st.sampled_from(AVERAGES_1D + ("samples",)))
        average, pos_label = data.draw(usable_average(average, AVERAGES_1D, yt, yp, pos_label))
    if name == "jaccard_score" and zero_division is np.nan and not rarely(data.draw):
        zero_division = data.draw(st.sampled_from([0, 1.0, "warn"]))  # jaccard_score refuses nan
    w = data.draw(oracle_weights(yt.shape[0], allow_bool=True))
    kwargs = dict(labels=labels, pos_label=pos_label, average=average, sample_weight=w, zero_division=zero_division)
    assert_same_outcome(getattr(cm, name), getattr(skm, name), yt, yp, **kwargs)


@oracle_share(0.7)
@given(
    data=st.data(),
    beta=st.sampled_from([0.5, 2.0, 1.0, 0.0]),
    average=st.sampled_from(AVERAGES_1D),
)
def test_fbeta_score_parity(data, beta, average):
    yt, yp, pool, w, labels = data.draw(one_d_case())
    pos_label = data.draw(pos_label_for(pool))
    average, pos_label = data.draw(usable_average(average, AVERAGES_1D, yt, yp, pos_label))
    assert_same_outcome(
        cm.fbeta_score, skm.fbeta_score, yt, yp, beta=beta, labels=labels, pos_label=pos_label,
        average=average, sample_weight=w,
    )


@pytest.mark.parametrize("warn_for", [("precision",), ("recall",), ("f-score",), (), ("precision", "recall")])
def test_prfs_warn_for(warn_for):
    yt = [0, 0, 1, 1]
    yp = [0, 0, 0, 0]
    assert_same_outcome(
        cm.precision_recall_fscore_support, skm.precision_recall_fscore_support, yt, yp, average=None,
        labels=[0, 1, 2], warn_for=warn_for,
    )


# --------------------------------------------------------------------------------------------
# classification report
# --------------------------------------------------------------------------------------------
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|nan")


def _report_numbers_close(got: str, expected: str) -> None:
    """Same layout word for word; numbers equal up to float-summation noise in weighted supports."""
    assert _NUMBER.sub("#", got) == _NUMBER.sub("#", expected), f"layout differs:\n{got}\n---\n{expected}"
    a = [float(x) for x in _NUMBER.findall(got)]
    e = [float(x) for x in _NUMBER.findall(expected)]
    np.testing.assert_allclose(a, e, rtol=1e-9, atol=0, equal_nan=True)


@oracle_share(0.7)
@given(
    data=st.data(),
    digits=st.sampled_from([2, 0, 1, 4, 7]),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
    output_dict=st.booleans(),
    names=st.sampled_from(["none", "match"]),
)
def test_classification_report_parity(data, digits, zero_division, output_dict, names):
    if rarely(data.draw):  # names of the wrong length, which scikit-learn refuses: rare, so that most
        names = "mismatch"  # examples compare values (it came up in a third of them with some seeds)
    if data.draw(st.booleans(), label="multilabel"):
        yt, yp = data.draw(indicator_pairs())
        labels = data.draw(multilabel_labels(yt.shape[1]))
        n_names = yt.shape[1] if labels is None else len(labels)
    else:
        yt, yp, pool, _, labels = data.draw(one_d_case())
        n_names = len(np.unique(np.concatenate([yt, yp]))) if labels is None else len(labels)
    w = data.draw(oracle_weights(yt.shape[0], allow_bool=True))
    target_names = None
    if names == "match":
        target_names = [f"class {i}" for i in range(n_names)]
    elif names == "mismatch":
        target_names = [f"c{i}" for i in range(n_names + 1)]
    kwargs = dict(
        labels=labels, target_names=target_names, sample_weight=w, digits=digits,
        output_dict=output_dict, zero_division=zero_division,
    )
    exact_supports = w is None or w.dtype.kind == "i"
    compare = None
    if not output_dict and not exact_supports:
        compare = _report_numbers_close
    elif output_dict and not exact_supports:
        compare = lambda a, e: assert_close(a, e, rtol=1e-9)  # noqa: E731
    assert_same_outcome(cm.classification_report, skm.classification_report, yt, yp, compare=compare, **kwargs)


# --------------------------------------------------------------------------------------------
# specificity, NPV and fall-out: no sklearn counterpart, checked through identities
# --------------------------------------------------------------------------------------------
def _not_c(y: np.ndarray, c) -> np.ndarray:
    """Relabel to 1 = "not c", 0 = "c"."""
    return (np.asarray(y) != c).astype(np.int64)


@given(case=one_d_case(min_classes=2))
def test_specificity_npv_fallout_identities(case):
    yt, yp, pool, w, _ = case
    assume(w is None or w.any())
    present = np.unique(np.concatenate([yt, yp]))
    spec = cm.specificity_score(yt, yp, average=None, sample_weight=w, labels=present, zero_division=np.nan)
    npv = cm.npv_score(yt, yp, average=None, sample_weight=w, labels=present, zero_division=np.nan)
    fall = cm.fallout_score(yt, yp, average=None, sample_weight=w, labels=present, zero_division=np.nan)
    for i, c in enumerate(present):
        t, p = _not_c(yt, c), _not_c(yp, c)
        exp_spec = skm.recall_score(t, p, pos_label=1, sample_weight=w, zero_division=np.nan)
        exp_npv = skm.precision_score(t, p, pos_label=1, sample_weight=w, zero_division=np.nan)
        assert_close(spec[i], exp_spec, what=f"specificity of {c!r}")
        assert_close(npv[i], exp_npv, what=f"npv of {c!r}")
        assert_close(fall[i], 1.0 - exp_spec, what=f"fall-out of {c!r}")


@given(
    case=one_d_case(min_classes=2, max_classes=4),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
    average=st.sampled_from(("macro", "weighted", "micro", None)),
)
def test_specificity_averages_match_recall_of_complement(case, zero_division, average):
    """Averaging rules and zero_division are precision_score's: same as sklearn recall on the
    one-vs-rest "not c" problems, averaged the way sklearn averages (support weights = class support)."""
    yt, yp, pool, w, _ = case
    assume(w is None or w.any())
    present = np.unique(np.concatenate([yt, yp]))
    got, _, warned = run_capturing(
        cm.specificity_score, yt, yp, average=average, sample_weight=w, zero_division=zero_division
    )
    mcm = skm.multilabel_confusion_matrix(for_oracle(yt), for_oracle(yp), sample_weight=w, labels=for_oracle(present)).astype(np.float64)
    tn, fp, support = mcm[:, 0, 0], mcm[:, 0, 1], mcm[:, 1, 0] + mcm[:, 1, 1]
    if average == "micro":
        tn, fp = np.array([tn.sum()]), np.array([fp.sum()])
    den = tn + fp
    undefined = den == 0
    zd = 0.0 if zero_division == "warn" else float(zero_division)
    per = np.where(undefined, zd, tn / np.where(undefined, 1, den))
    if average is None:
        exp = per
    else:
        keep = ~np.isnan(per)
        if average == "weighted" and support[keep].sum() > 0:
            exp = float(np.average(per[keep], weights=support[keep])) if keep.any() else np.nan
        else:
            exp = float(per[keep].mean()) if keep.any() else np.nan
    assert_close(got, exp, what="specificity")
    assert ("UndefinedMetricWarning" in warned) == (zero_division == "warn" and bool(undefined.any()))


@oracle_share(0.7)
@given(
    data=st.data(),
    average=st.sampled_from(("macro", "weighted", "micro", None)),
    zero_division=st.sampled_from(ZERO_DIVISIONS),
)
def test_many_classes_parity(data, average, zero_division):
    """Up to eight classes, labels drawn sparsely (many classes absent from one side)."""
    yt, yp, pool = data.draw(label_pairs(min_classes=5, max_classes=8, max_size=40))
    w = data.draw(oracle_weights(len(yt), allow_bool=True))
    present = np.unique(np.concatenate([yt, yp]))
    labels = data.draw(labels_argument(pool, present))
    kwargs = dict(labels=labels, average=average, sample_weight=w, zero_division=zero_division)
    assert_same_outcome(cm.precision_recall_fscore_support, skm.precision_recall_fscore_support, yt, yp, **kwargs)
    assert_same_outcome(cm.jaccard_score, skm.jaccard_score, yt, yp, **{**kwargs, "zero_division": 0})
    assert_same_outcome(cm.cohen_kappa_score, skm.cohen_kappa_score, yt, yp, labels=labels, sample_weight=w)
    assert_same_outcome(cm.matthews_corrcoef, skm.matthews_corrcoef, yt, yp, sample_weight=w)


@given(data=st.data())
def test_metrics_invariant_to_sample_order(data):
    yt, yp, pool = data.draw(label_pairs(min_size=2))
    w = data.draw(sample_weights(len(yt)))
    assume(w is None or w.any())
    perm = np.array(data.draw(st.permutations(range(len(yt)))), dtype=np.intp)
    wp = None if w is None else w[perm]
    calls = [
        (cm.precision_recall_fscore_support, {"average": None, "zero_division": np.nan}),
        (cm.classification_report, {"output_dict": True, "zero_division": 0}),
        (cm.cohen_kappa_score, {"weights": "linear"}),
        (cm.matthews_corrcoef, {}),
        (cm.balanced_accuracy_score, {}),
        (cm.specificity_score, {"average": "macro", "zero_division": 1}),
    ]
    for func, kwargs in calls:
        a, _, _ = run_capturing(func, yt, yp, sample_weight=w, **kwargs)
        b, _, _ = run_capturing(func, yt[perm], yp[perm], sample_weight=wp, **kwargs)
        assert_close(b, a, what=func.__name__)
