"""Gaps between groups of a multilabel evaluation: the standard errors equal the delta method computed
independently (central differences of scikit-learn's weighted multilabel metrics with respect to each
case's weight), the limits are MOVER's from the two numbers' own intervals with that correlation, and
on random data every gap is the group's value minus the reference's, inside its interval, NaN where
the number is undefined (a label absent from a group), never an exception."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from group_oracles import draw_group_weights, finite_difference_influences
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import clfeval
from clfeval.evaluation.group_metrics import group_metric
from clfeval.uncertainty.influence import influence_variance

pytestmark = pytest.mark.filterwarnings("ignore::clfeval.exceptions.UndefinedMetricWarning")

GROUPS = ("a", "b", "c")
#: the labels' names: not digits, which a key would read as an F-beta's beta ("f1.2" is F-1.2)
LABELS = ("x", "y", "z")


def _data(weighted: bool, n: int = 72, seed: int = 11):
    """(Y, P, S, w, g): 3 labels, predictions right 75% of the time, scores with ties, three groups in
    which every label has true and false cases and is predicted and not predicted (so scikit-learn's
    zero_division never stands in for an undefined number)."""
    rng = np.random.default_rng(seed)
    while True:
        y = (rng.random((n, 3)) < [0.5, 0.35, 0.6]).astype(int)
        p = np.where(rng.random((n, 3)) < 0.75, y, 1 - y)
        s = np.round(np.clip(0.35 * y + 0.65 * rng.random((n, 3)), 0, 1), 2)
        g = rng.choice(np.array(GROUPS), n, p=[0.45, 0.33, 0.22])
        ok = all(0 < a[g == key].sum(axis=0).min() and a[g == key].sum(axis=0).max() < (g == key).sum()
                 for key in GROUPS for a in (y, p))
        if ok:
            w = rng.uniform(0.5, 2.0, n) if weighted else None
            return y, p, s, w, g


def _counts(y, p, w):
    """(tp, fp, fn, tn) per label, weighted, read off scikit-learn's multilabel confusion matrix."""
    t = skm.multilabel_confusion_matrix(y, p, sample_weight=w).astype(np.float64)
    return t[:, 1, 1], t[:, 0, 1], t[:, 1, 0], t[:, 0, 0]


def _rates_by_hand(key, y, p, w):
    tp, fp, fn, tn = _counts(y, p, w)
    name, scope = key.split(".")
    v = {"specificity": tn / (tn + fp), "npv": tn / (tn + fn), "fallout": fp / (fp + tn),
         "youden_j": tp / (tp + fn) + tn / (tn + fp) - 1, "selection_rate": (tp + fp) / (tp + fp + fn + tn)}
    if scope == "micro":
        tp, fp, fn, tn = (a.sum() for a in (tp, fp, fn, tn))
        return {"specificity": tn / (tn + fp), "npv": tn / (tn + fn), "fallout": fp / (fp + tn)}[name]
    if scope == "macro":
        return v[name].mean()
    if scope == "weighted":
        return np.average(v[name], weights=tp + fn)
    return v[name][LABELS.index(scope)]


def _sklearn_value(key, y, p, s, w):
    """The metric ``key`` of multilabel rows, computed by scikit-learn (or by hand from its tables)."""
    name, _, scope = key.partition(".")
    average = scope or "macro"
    if key == "accuracy":
        return skm.accuracy_score(y, p, sample_weight=w)
    if key == "error_rate":
        return skm.zero_one_loss(y, p, sample_weight=w)
    if key == "hamming_loss":
        return skm.hamming_loss(y, p, sample_weight=w)
    if name in ("roc_auc", "average_precision"):
        f = skm.roc_auc_score if name == "roc_auc" else skm.average_precision_score
        if scope in LABELS:
            c = LABELS.index(scope)
            return f(y[:, c], s[:, c], sample_weight=w)
        return f(y, s, average=average, sample_weight=w)
    sk = {"precision": skm.precision_score, "recall": skm.recall_score, "f1": skm.f1_score,
          "f2": lambda *a, **k: skm.fbeta_score(*a, beta=2, **k)}.get(name)
    if sk is None:
        return _rates_by_hand(key, y, p, w)
    if scope in LABELS:
        return sk(y, p, average=None, sample_weight=w)[LABELS.index(scope)]
    return sk(y, p, average=average, sample_weight=w)


def _finite_difference_influences(key, y, p, s, w, g):
    """{group or "overall": each case's influence w_i * d metric / d w_i}, by central differences of
    scikit-learn's weighted metric: the delta method computed independently of clfeval."""
    return finite_difference_influences(
        lambda weights, r: _sklearn_value(key, y[r], p[r], s[r] if s is not None else None, weights[r]), w, g, y.shape[0])


ORACLE_METRICS = [
    "accuracy", "error_rate", "hamming_loss", "recall.y", "precision.x", "f1.z", "f1", "f1.macro", "f1.micro",
    "f1.weighted", "precision.macro", "precision.micro", "precision.weighted", "recall.macro", "recall.micro",
    "recall.weighted", "f2.weighted", "f2.x", "specificity.macro", "npv.micro", "fallout.z", "youden_j.x",
    "selection_rate.z", "roc_auc", "roc_auc.micro", "roc_auc.weighted", "roc_auc.y", "average_precision.macro",
    "average_precision.micro", "average_precision.x",
]


@pytest.mark.parametrize("metric", ORACLE_METRICS)
@pytest.mark.parametrize("weighted", [False, True])
def test_multilabel_gap_standard_errors_are_the_delta_method(metric, weighted):
    y, p, s, w, g = _data(weighted)
    n = y.shape[0]
    beta = 2 if metric.startswith("f2") else None  # the intervals have one F-beta: the evaluation's
    ev = clfeval.evaluate(y, p, s, sample_weight=w, groups=g, beta=beta, labels=LABELS)
    assert ev.task == "multilabel"
    codes = np.searchsorted(GROUPS, g)
    influence = _finite_difference_influences(metric, y, p, s, w, g)
    m = group_metric(ev, metric)
    for reference in ("overall", "b"):
        for sampling in ("cross-sectional", "by-group"):
            gaps = ev.by_group.gaps(metric, reference=reference, sampling=sampling)
            ref_rows = np.arange(n) if reference == "overall" else np.flatnonzero(g == reference)
            want_ref = _sklearn_value(metric, y[ref_rows], p[ref_rows], s[ref_rows], None if w is None else w[ref_rows])
            assert gaps.reference_value == pytest.approx(want_ref, rel=1e-12)
            for j, group in enumerate(GROUPS):
                rows = np.flatnonzero(g == group)
                want = _sklearn_value(metric, y[rows], p[rows], s[rows], None if w is None else w[rows])
                assert gaps.values[j] == pytest.approx(want, rel=1e-12)
                if group == reference:
                    assert np.isnan(gaps.difference[j]).all()
                    continue
                assert gaps.difference[j, 0] == gaps.values[j] - gaps.reference_value
                u, v = influence[group], influence[reference]
                psi = u - v
                if sampling == "cross-sectional":
                    def cov(a, b):
                        return a @ b - a.sum() * b.sum() / n
                else:
                    def cov(a, b):
                        return float(sum(a[codes == c] @ b[codes == c] - a[codes == c].sum() * b[codes == c].sum()
                                         / (codes == c).sum() for c in range(3)))
                assert gaps.difference[j, 3] == pytest.approx(cov(psi, psi) ** 0.5, rel=2e-6)
                # the limits: MOVER from the two numbers' own intervals and their delta-method correlation
                var_u, var_v = cov(u, u), cov(v, v)  # no spread (a rate of 0 or 1): no correlation
                r = float(np.clip(cov(u, v) / (var_u * var_v) ** 0.5, -1, 1)) if var_u > 0 and var_v > 0 else 0.0
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    own = m.interval(ev.by_group[group], 0.95)
                    ref = m.interval(ev if reference == "overall" else ev.by_group[reference], 0.95)
                d = own.estimate - ref.estimate
                low = d - ((own.estimate - own.low) ** 2 + (ref.high - ref.estimate) ** 2
                           - 2 * r * (own.estimate - own.low) * (ref.high - ref.estimate)) ** 0.5
                high = d + ((own.high - own.estimate) ** 2 + (ref.estimate - ref.low) ** 2
                            - 2 * r * (own.high - own.estimate) * (ref.estimate - ref.low)) ** 0.5
                span = m.bounds[1] - m.bounds[0]
                assert gaps.difference[j, 1:3] == pytest.approx([max(-span, low), min(span, high)], rel=1e-5, abs=1e-9)


@pytest.mark.parametrize("weighted", [False, True])
def test_the_influences_give_the_evaluations_own_delta_method_errors(weighted):
    """The whole evaluation's influences agree with its own intervals' standard errors (exact gradients
    of the averages over labels, the Hamming loss as a mean over cases)."""
    y, p, s, w, _ = _data(weighted)
    ev = clfeval.evaluate(y, p, s, sample_weight=w)
    for key, (name, kw) in {"f1.macro": ("f1", {"average": "macro"}), "recall.micro": ("recall", {"average": "micro"}),
                            "precision.weighted": ("precision", {"average": "weighted"}),
                            "npv.macro": ("npv", {"average": "macro"}), "hamming_loss": ("hamming_loss", {}),
                            "roc_auc.weighted": ("roc_auc", {"average": "weighted"})}.items():
        se = influence_variance(group_metric(ev, key).influences(ev)) ** 0.5
        assert se == pytest.approx(ev.ci(name, **kw).standard_error, rel=1e-7), key


@pytest.mark.parametrize("metric", ["mcc", "kappa", "balanced_accuracy"])
def test_numbers_a_multilabel_report_lacks_have_no_gaps_and_say_what_has(metric):
    y, p, _, _, g = _data(False)
    ev = clfeval.evaluate(y, p, groups=g)
    assert np.isnan(ev.by_group.table([metric]).values).all()  # the table shows them undefined
    with pytest.raises(ValueError, match=rf"'{metric}' is not defined for a multilabel evaluation") as err:
        ev.by_group.gaps(metric)
    for available in ("hamming_loss", "recall.<label>", "f1.macro", "selection_rate.<label>", "roc_auc"):
        assert available in str(err.value)


def test_a_label_absent_from_a_group_is_undefined_there_and_left_out_of_its_averages():
    y = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 0], [1, 0], [0, 0]] * 4)
    p = np.array([[1, 0], [0, 1], [1, 0], [0, 0], [0, 0], [1, 0], [1, 1], [0, 0]] * 4)
    g = np.array(["x"] * 4 + ["y"] * 4)[np.tile(np.arange(8), 4)]  # group y has no true label 1
    ev = clfeval.evaluate(y, p, groups=g)
    gap = ev.by_group.gaps("recall.1")
    assert np.isnan(gap.values[1]) and np.isnan(gap.difference[1]).all() and np.isnan(gap.pvalue[1])
    assert np.isfinite(gap.difference[0]).all()
    notes = ev.by_group.table(["recall.1"]).notes[1]
    assert any("recall.1: undefined (no true samples of class '1' in this group)" in n for n in notes)
    macro = ev.by_group.gaps("recall.macro")
    assert macro.values[1] == ev.by_group["y"].report.rows[0]["recall"]  # label 1 left out of the average
    assert np.isfinite(macro.difference[1]).all()


def test_youden_j_has_its_own_delta_method_interval():
    """Youden's J = recall + specificity - 1 of a label: with unit weights its delta-method variance is
    r (1 - r) / P + s (1 - s) / N (the two rates read disjoint cases)."""
    y, p, _, _, g = _data(False)
    ev = clfeval.evaluate(y, p, groups=g, labels=LABELS)
    tp, fp, fn, tn = _counts(y, p, None)
    r, sp = tp / (tp + fn), tn / (tn + fp)
    for c in range(3):
        ci = group_metric(ev, f"youden_j.{LABELS[c]}").interval(ev, 0.95)
        assert ci.estimate == pytest.approx(r[c] + sp[c] - 1, rel=1e-12)
        want = (r[c] * (1 - r[c]) / (tp[c] + fn[c]) + sp[c] * (1 - sp[c]) / (tn[c] + fp[c])) ** 0.5
        assert ci.standard_error == pytest.approx(want, rel=1e-7)
        assert ci.low < ci.estimate < ci.high
    binary = clfeval.evaluate(y[:, 0], p[:, 0])
    ci = group_metric(binary, "youden_j").interval(binary, 0.95)
    assert ci.standard_error == pytest.approx(
        (r[0] * (1 - r[0]) / (tp[0] + fn[0]) + sp[0] * (1 - sp[0]) / (tn[0] + fp[0])) ** 0.5, rel=1e-7)


# ------------------------------------------------------------------------------------------------
# properties on random data
# ------------------------------------------------------------------------------------------------
@st.composite
def multilabel_gap_cases(draw):
    n = draw(st.integers(4, 40))
    n_labels = draw(st.integers(2, 4))  # one column is a single-label task
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = (rng.random((n, n_labels)) < draw(st.sampled_from([0.1, 0.5, 0.9]))).astype(int)
    p = np.where(rng.random((n, n_labels)) < draw(st.sampled_from([0.0, 0.3, 0.7])), 1 - y, y)
    s = np.round(rng.random((n, n_labels)), 1) if draw(st.booleans()) else None
    n_groups = draw(st.integers(1, 3))
    g = rng.choice(np.array(["u", "v", "w"])[:n_groups], n)
    w = draw_group_weights(draw, rng, g)
    label = f"l{draw(st.integers(0, n_labels - 1))}"
    rates = ["precision", "recall", "f1", "fallout", "specificity", "npv"]
    keys = ["accuracy", "error_rate", "hamming_loss", "f1", "selection_rate." + label, "youden_j." + label]
    keys += [f"{r}.{scope}" for r in rates for scope in ("micro", "macro", "weighted", label)]
    if s is not None:
        keys += [f"{a}.{scope}" for a in ("roc_auc", "average_precision") for scope in ("micro", "macro", "weighted", label)]
    metric = draw(st.sampled_from(keys))
    reference = draw(st.sampled_from(["overall", "best", *sorted(set(g.tolist()))]))
    sampling = draw(st.sampled_from(["cross-sectional", "by-group"]))
    return y, p, s, w, g, metric, reference, sampling


@settings(max_examples=80, deadline=None)
@given(multilabel_gap_cases())
def test_multilabel_gaps_are_differences_inside_their_intervals(data):
    y, p, s, w, g, metric, reference, sampling = data
    ev = clfeval.evaluate(y, p, s, sample_weight=w, groups=g, labels=[f"l{c}" for c in range(y.shape[1])])
    bg = ev.by_group
    m = group_metric(ev, metric)
    values = np.array([m.value(e) for e in bg.values()])
    if reference == "best" and np.isnan(values).all():
        with pytest.raises(ValueError, match="undefined in every group"):
            bg.gaps(metric, reference=reference, sampling=sampling)
        return
    gaps = bg.gaps(metric, reference=reference, sampling=sampling)
    np.testing.assert_array_equal(gaps.values, values)
    ref_index = None if reference == "overall" else (
        int(np.flatnonzero(np.array(gaps.groups) == gaps.reference[6:-1])[0]) if reference == "best"
        else gaps.groups.index(reference))
    want_ref = m.value(ev) if ref_index is None else values[ref_index]
    np.testing.assert_array_equal(gaps.reference_value, want_ref)
    table_notes = bg.table([metric]).notes
    for j in range(len(gaps.groups)):
        d, r = gaps.difference[j], gaps.ratio[j]
        if j == ref_index:
            assert np.isnan(d).all() and np.isnan(gaps.pvalue[j])
            continue
        np.testing.assert_array_equal(d[0], values[j] - gaps.reference_value)  # exactly, NaN where undefined
        if np.isnan(values[j]):
            assert np.isnan(d).all()
            assert any(n.startswith(f"{metric}: undefined") for n in table_notes[j])
            continue
        if not np.isfinite(d[0]):
            continue
        if np.isnan(d[1:3]).any():  # a number's own interval is undefined: said in the notes
            assert gaps.notes and "no interval" in gaps.notes[0]
            continue
        assert d[1] <= d[0] <= d[2] and d[3] >= 0 and 0 <= gaps.pvalue[j] <= 1
        if np.isfinite(r[1:3]).all():
            assert r[1] <= r[0] * (1 + 1e-12) and r[0] <= r[2] * (1 + 1e-12)
