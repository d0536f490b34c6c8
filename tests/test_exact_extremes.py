"""Exact arithmetic at the extremes (issue 16, section 3).

Integer weights are counted exactly (never through float64, never wrapped past int64), extreme
float weights give the right value, non-finite labels and all-zero ranking weights get
scikit-learn's errors, and uint64 weights are not "negative". Oracles: scikit-learn where it is
right, and exact rational arithmetic (fractions.Fraction) on the same formulas.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import warnings
from fractions import Fraction

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import clfeval
import clfeval.metrics as cm
from clfeval.statistics.counts import ConfusionCounts
from clfeval.formulas.exact_sums import exact_mcc, float_bincount_exact, integer_bincount, to_float, UNIT_EXPONENT
from clfeval.streaming import StreamingEvaluation

Y_TRUE = [0, 1, 1, 0, 1]
Y_PRED = [0, 1, 0, 0, 1]


def sk(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(skm, fn)(*args, **kwargs)


def ulps(got: float, exact: Fraction | float) -> float:
    """Distance in units in the last place of the exact value (0 when equal)."""
    ref = float(exact)
    if got == ref:
        return 0.0
    return abs(got - ref) / math.ulp(ref) if ref != 0 else math.inf


# -- 1. integer weights are counted in integers ----------------------------------------------


def test_integer_weight_above_2_53_is_counted_exactly_as_scikit_learn():
    w = [2**53 + 1, 1, 1, 1, 1]
    got = cm.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=w)
    assert got.dtype == np.int64
    assert got.tolist() == [[9007199254740994, 0], [1, 2]]  # not ...992 (a float64 detour)
    assert got.tolist() == sk("confusion_matrix", Y_TRUE, Y_PRED, sample_weight=w).tolist()
    assert cm.multilabel_confusion_matrix(Y_TRUE, Y_PRED, sample_weight=w)[0, 1, 1] == 2**53 + 2
    assert ConfusionCounts.from_labels(Y_TRUE, Y_PRED, sample_weight=w).matrix[0, 0] == 2**53 + 2
    # string labels take the general (encode) path
    labels = np.array(["a", "b"])[Y_TRUE], np.array(["a", "b"])[Y_PRED]
    assert cm.confusion_matrix(*labels, sample_weight=w)[0, 0] == 2**53 + 2


def test_ratio_of_big_integer_counts_is_correctly_rounded():
    # precision of class 0: (2**53+2) / (2**53+3); recall of class 1 = 2/3 exactly rounded
    w = [2**53 + 1, 1, 1, 1, 1]
    p = cm.precision_score(Y_TRUE, Y_PRED, pos_label=0, sample_weight=w)
    assert p == (2**53 + 2) / (2**53 + 3)  # Python int / int: correctly rounded
    acc = cm.accuracy_score(Y_TRUE, Y_PRED, sample_weight=w)
    assert acc == (2**53 + 4) / (2**53 + 5)


def test_evaluate_streaming_integer_weights_exact():
    w = [2**53 + 1, 1, 1, 1, 1]
    assert clfeval.evaluate(Y_TRUE, Y_PRED, sample_weight=w).confusion.counts.tolist() == [[2**53 + 2, 0], [1, 2]]
    scores = [0.1, 0.9, 0.2, 0.3, 0.8]  # predictions from the scores at 0.5: the same table
    ev = clfeval.evaluate(Y_TRUE, None, scores, sample_weight=w)
    assert ev.confusion.counts.tolist() == [[2**53 + 2, 0], [1, 2]]
    stream = StreamingEvaluation()
    stream.update(Y_TRUE[:3], Y_PRED[:3], sample_weight=w[:3]).update(Y_TRUE[3:], Y_PRED[3:], sample_weight=w[3:])
    assert stream.result().confusion.counts.tolist() == [[2**53 + 2, 0], [1, 2]]


def _report_json(tmp_path, rows: list[tuple[int, int, int]], *extra: str) -> dict:
    src = tmp_path / "in.csv"
    src.write_text("label,pred,w\n" + "".join(f"{a},{b},{c}\n" for a, b, c in rows))
    out = tmp_path / "out.json"
    proc = subprocess.run(
        [sys.executable, "-m", "clfeval", "report", str(src), "--y-true", "label", "--y-pred", "pred",
         "--sample-weight", "w", "--json", str(out), *extra],
        capture_output=True, text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(out.read_text())


@pytest.mark.parametrize("extra", [(), ("--stream",)])
def test_cli_integer_weight_column_is_counted_exactly(tmp_path, extra):
    rows = list(zip(Y_TRUE, Y_PRED, [2**53 + 1, 1, 1, 1, 1]))
    out = _report_json(tmp_path, rows, *extra)
    assert out["confusion"]["counts"] == [[9007199254740994, 0], [1, 2]]


def test_cli_counts_past_int64_are_python_ints(tmp_path):
    rows = list(zip(Y_TRUE, Y_PRED, [2**62] * 5))
    out = _report_json(tmp_path, rows)
    assert out["confusion"]["counts"] == [[2**63, 0], [2**62, 2**63]]
    assert out["report"]["overall"]["accuracy"] == 0.8


# -- 2. counts past int64 are exact, never wrapped ---------------------------------------------


def test_counts_past_int64_are_not_wrapped():
    got = cm.confusion_matrix([0, 1, 1, 0], [0, 1, 0, 0], sample_weight=[2**62] * 4)
    # scikit-learn wraps this cell to -2**63; clfeval keeps the Python int
    assert got.tolist() == [[2**63, 0], [2**62, 2**62]]
    assert got[0, 0] > 0
    five = cm.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=[2**62] * 5)
    assert five.tolist() == [[2**63, 0], [2**62, 2**63]]


def test_measures_past_int64_match_scikit_learn_where_it_is_right():
    w = [2**62] * 5
    assert cm.f1_score(Y_TRUE, Y_PRED, sample_weight=w) == 0.8 == sk("f1_score", Y_TRUE, Y_PRED, sample_weight=w)
    assert cm.precision_score(Y_TRUE, Y_PRED, sample_weight=w) == 1.0
    assert cm.recall_score(Y_TRUE, Y_PRED, sample_weight=w) == 2 / 3
    assert cm.accuracy_score(Y_TRUE, Y_PRED, sample_weight=w) == 0.8
    assert cm.accuracy_score(Y_TRUE, Y_PRED, sample_weight=w, normalize=False) == float(4 * 2**62)
    assert cm.balanced_accuracy_score(Y_TRUE, Y_PRED, sample_weight=w) == (1 + 2 / 3) / 2
    # the same table with unit weights: every measure is scale-free
    for fn in ("matthews_corrcoef", "cohen_kappa_score", "jaccard_score", "hamming_loss", "zero_one_loss"):
        assert getattr(cm, fn)(Y_TRUE, Y_PRED, sample_weight=w) == pytest.approx(
            getattr(cm, fn)(Y_TRUE, Y_PRED), rel=1e-15), fn
    cm_ = cm.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=w, normalize="true")
    assert cm_.tolist() == [[1.0, 0.0], [1 / 3, 2 / 3]]


def test_evaluate_and_stream_past_int64():
    w = [2**62] * 5
    ev = clfeval.evaluate(Y_TRUE, Y_PRED, sample_weight=w)
    assert ev.confusion.counts.tolist() == [[2**63, 0], [2**62, 2**63]]
    assert ev.total_weight == float(5 * 2**62)  # not wrapped
    assert ev.report.overall["accuracy"] == 0.8
    stream = StreamingEvaluation()
    for _ in range(3):  # each batch fits int64; their sum does not
        stream.update(Y_TRUE, Y_PRED, sample_weight=w)
    merged = stream.merge(stream).result()
    assert merged.confusion.counts.tolist() == [[6 * 2**63, 0], [6 * 2**62, 6 * 2**63]]
    assert merged.report.overall["accuracy"] == 0.8


def test_mcc_of_large_integer_table_is_exact():
    # totals past 2**26: float64 products of margins would round and cancel
    w = [2**40, 3, 2**41, 5, 7]
    t = [[Fraction(2**40 + 5), 0], [Fraction(2**41), Fraction(10)]]
    tp, fn, fp, tn = t[1][1], t[1][0], t[0][1], t[0][0]
    num = tp * tn - fp * fn
    den2 = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    exact = math.sqrt(num * num / den2)  # the oracle, within an ulp
    assert ulps(cm.matthews_corrcoef(Y_TRUE, Y_PRED, sample_weight=w), exact) <= 1
    assert exact_mcc(np.array([[1, 1], [0, 2]], dtype=object)) == 0.5773502691896257  # 1/sqrt(3)


# -- 3. float weights at the ends of the range ---------------------------------------------------


def test_f1_with_weights_near_the_float_maximum():
    w = [1e308] * 5
    assert cm.f1_score(Y_TRUE, Y_PRED, sample_weight=w) == 0.8
    # A deliberate difference: scikit-learn's float64 sums overflow to inf and it returns NaN.
    assert np.isnan(sk("f1_score", Y_TRUE, Y_PRED, sample_weight=w))
    assert cm.accuracy_score(Y_TRUE, Y_PRED, sample_weight=w) == 0.8
    assert cm.matthews_corrcoef(Y_TRUE, Y_PRED, sample_weight=w) == cm.matthews_corrcoef(Y_TRUE, Y_PRED)
    assert cm.cohen_kappa_score(Y_TRUE, Y_PRED, sample_weight=w) == cm.cohen_kappa_score(Y_TRUE, Y_PRED)
    p, r, f, s = cm.precision_recall_fscore_support(Y_TRUE, Y_PRED, sample_weight=w)
    assert f.tolist() == [0.8, 0.8] and s.tolist() == [math.inf, math.inf]  # the supports' float64 sums
    assert cm.f1_score(Y_TRUE, Y_PRED, sample_weight=w, average="weighted") == pytest.approx(0.8, rel=1e-15)
    # the user-facing table is the float64 sum: inf where it overflows
    assert cm.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=w).tolist() == [[math.inf, 0.0], [1e308, math.inf]]


def test_roc_auc_with_subnormal_weights():
    y, s = [0, 0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4, 0.5]
    assert cm.roc_auc_score(y, s, sample_weight=[1e-320] * 5) == 1.0 == sk("roc_auc_score", y, s, sample_weight=[1e-320] * 5)
    assert cm.average_precision_score(y, s, sample_weight=[1e-320] * 5) == 1.0
    fpr, tpr, _ = cm.roc_curve(y, s, sample_weight=[1e-320] * 5)
    assert tpr.tolist() == [0.0, 1 / 3, 1.0, 1.0] and fpr.tolist() == [0.0, 0.0, 0.0, 1.0]
    assert cm.roc_auc_score(y, s, sample_weight=[1e308] * 5) == 1.0


@pytest.mark.parametrize("drop", [True, False])
def test_curves_with_weights_whose_sums_overflow_equal_the_unweighted_ones(drop):
    y, s = [0, 0, 1, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.8, 0.4, 0.2]
    for fn in ("roc_curve", "precision_recall_curve"):
        big = getattr(cm, fn)(y, s, sample_weight=[1e308] * 7, drop_intermediate=drop)
        plain = getattr(cm, fn)(y, s, drop_intermediate=drop)
        for a, b in zip(big, plain):
            np.testing.assert_array_equal(a, b)  # scikit-learn gives NaN rates here (inf / inf)
    assert cm.average_precision_score(y, s, sample_weight=[1e308] * 7) == cm.average_precision_score(y, s)


def test_roc_auc_with_a_smallest_subnormal_negative():
    y, s, w = [0, 1, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 0, 0.1], [5e-324, 1.5, 0, 0, 0, 0, 1]
    # positives 1 (score 0.1) and 1.5 (score 0, tied with the only negative): (1 + 0.75) / 2.5
    assert cm.roc_auc_score(y, s, sample_weight=w) == 0.7 == sk("roc_auc_score", y, s, sample_weight=w)
    ev = clfeval.evaluate(y, None, s, sample_weight=w)
    assert ev.rankings["1"].roc_auc == 0.7


def test_evaluate_report_with_tiny_weights_matches_unit_weights():
    y, s = [0, 0, 1, 1, 1], [0.1, 0.4, 0.35, 0.8, 0.9]
    plain = clfeval.evaluate(y, None, s).report.overall
    tiny = clfeval.evaluate(y, None, s, sample_weight=[1e-320] * 5).report.overall
    assert tiny == plain  # MCC and kappa were 0 and NaN: products of subnormal sums underflowed
    assert tiny["mcc"] == pytest.approx(2 / 3, rel=1e-15)


def test_evaluate_report_with_weights_whose_sums_overflow():
    ev = clfeval.evaluate(Y_TRUE, Y_PRED, sample_weight=[1e308] * 5)
    plain = clfeval.evaluate(Y_TRUE, Y_PRED).report
    assert ev.report.overall == plain.overall  # f1, MCC, kappa... as with unit weights
    assert [r["f1"] for r in ev.report.rows] == [0.8, 0.8]
    assert [r["support"] for r in ev.report.rows] == [math.inf, math.inf]  # the float64 sums
    assert ev.confusion.counts.tolist() == [[math.inf, 0.0], [1e308, math.inf]]


def test_exact_float_sums():
    t = float_bincount_exact(np.array([0, 0, 1, 1]), np.array([1e308, 1e308, 5e-324, 0.5]), 2)
    assert t[0] == 2 * Fraction(1e308) * 2**1074 and t[1] == (Fraction(5e-324) + Fraction(1, 2)) * 2**1074
    assert to_float(t, UNIT_EXPONENT).tolist() == [math.inf, 0.5]
    assert integer_bincount(np.zeros(3, dtype=np.intp), np.array([2**63 - 1] * 3), 1).tolist() == [3 * (2**63 - 1)]


def test_exact_tables_merge_and_select_labels():
    a = ConfusionCounts.from_labels([0, 1], [0, 1], sample_weight=[1e308, 1e308])
    b = ConfusionCounts.from_labels([0, 2], [0, 0], sample_weight=[1e308, 0.5])
    merged = a.merge(b)
    unit = 2**1074
    assert merged.exact[0, 0] == 2 * Fraction(1e308) * unit and merged.exact[2, 0] == unit // 2
    assert merged.matrix[0, 0] == math.inf and merged.matrix[2, 0] == 0.5  # float64 sums shown
    sub = ConfusionCounts.from_labels([0, 1, 1], [0, 1, 0], labels=[1, 0], sample_weight=[1e308] * 3)
    assert sub.exact.tolist() == [[int(Fraction(1e308) * unit)] * 2, [0, int(Fraction(1e308) * unit)]]


# -- 4. non-finite labels, all-zero ranking weights ----------------------------------------------


def _sk_message(fn, *args, **kwargs) -> str:
    with pytest.raises(ValueError) as info:
        sk(fn, *args, **kwargs)
    return str(info.value).rstrip(".")


@pytest.mark.parametrize(
    "fn, args",
    [
        ("accuracy_score", ([np.inf, 1, 1], [0, 1, 1])),
        ("confusion_matrix", ([np.inf, 1, 2], [1, 2, 3])),
        ("f1_score", ([0, 1, 1], [0, 1, -np.inf])),
        ("accuracy_score", ([np.nan, 1, 1], [0, 1, 1])),
    ],
)
def test_non_finite_labels_get_scikit_learns_error(fn, args):
    expected = _sk_message(fn, *args)  # "Input y_true contains infinity or ..." / "... contains NaN"
    with pytest.raises(ValueError, match="contains (infinity|NaN)") as info:
        getattr(cm, fn)(*args)
    assert expected in str(info.value)  # scikit-learn's sentence, then where


def test_evaluate_refuses_infinite_labels():
    with pytest.raises(ValueError, match=r"Input y_true contains infinity.*position 0"):
        clfeval.evaluate([np.inf, 1, 1], [0, 1, 1])
    with pytest.raises(ValueError, match=r"Input y_pred contains infinity.*position 2"):
        clfeval.evaluate([0, 1, 1], [0, 1, np.inf])


@pytest.mark.parametrize("fn", ["roc_auc_score", "average_precision_score", "roc_curve", "precision_recall_curve"])
def test_all_zero_weights_in_ranking_metrics_raise_as_scikit_learn(fn):
    args = ([0, 1, 1], [0.1, 0.2, 0.3])
    expected = _sk_message(fn, *args, sample_weight=[0.0, 0.0, 0.0])
    with pytest.raises(ValueError) as info:
        getattr(cm, fn)(*args, sample_weight=[0.0, 0.0, 0.0])
    assert str(info.value).startswith(expected)  # "Sample weights must contain at least one non-zero number"
    with pytest.raises(ValueError, match="at least one non-zero number"):
        clfeval.evaluate([0, 1, 1], None, [0.1, 0.2, 0.3], sample_weight=[0, 0, 0])


# -- 5. uint64 weights ---------------------------------------------------------------------------


def test_uint64_weights_are_not_negative():
    w = np.array([2**63 + 5, 2, 3, 1, 1], dtype=np.uint64)
    got = cm.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=w)
    assert got.tolist() == [[2**63 + 6, 0], [3, 3]]  # scikit-learn wraps this to a negative count
    assert cm.accuracy_score(Y_TRUE, Y_PRED, sample_weight=w) == (2**63 + 9) / (2**63 + 12)
    small = np.array([1, 2, 3, 4, 5], dtype=np.uint64)
    assert cm.confusion_matrix(Y_TRUE, Y_PRED, sample_weight=small).tolist() == \
        sk("confusion_matrix", Y_TRUE, Y_PRED, sample_weight=small).tolist()


# -- properties ----------------------------------------------------------------------------------


def _table(y_true, y_pred, weights):
    t = [[0, 0], [0, 0]]
    for a, b, w in zip(y_true, y_pred, weights):
        t[a][b] += w
    return t


big_ints = st.one_of(st.integers(0, 2**62), st.sampled_from([0, 1, 2**53 - 1, 2**53 + 1, 2**62]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), big_ints), min_size=1, max_size=12))
def test_integer_weights_count_exactly_and_ratios_are_correctly_rounded(rows):
    yt, yp, w = (list(c) for c in zip(*rows))
    t = _table(yt, yp, w)
    if not any(map(any, t)):
        return
    got = cm.confusion_matrix(yt, yp, sample_weight=w, labels=[0, 1])
    assert [[int(v) for v in r] for r in got.tolist()] == t
    (tn, fp), (fn, tp) = t
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if tp + fp:
            assert cm.precision_score(yt, yp, sample_weight=w, labels=[0, 1]) == tp / (tp + fp)
        if 2 * tp + fp + fn:
            assert cm.f1_score(yt, yp, sample_weight=w, labels=[0, 1]) == 2 * tp / (2 * tp + fp + fn)
        assert cm.accuracy_score(yt, yp, sample_weight=w) == (tp + tn) / (tp + tn + fp + fn)


extreme = st.one_of(
    st.just(0.0),
    st.floats(min_value=5e-324, max_value=1e308, allow_subnormal=True),
    st.sampled_from([5e-324, 1e-320, 2.0**-1022, 1e-300, 1.0, 1e300, 1e308]),
)


def _close(got: float, exact: Fraction, n_ulps: float = 4) -> bool:
    ref = float(exact)
    return got == ref or abs(got - ref) <= n_ulps * math.ulp(ref)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), extreme), min_size=1, max_size=10))
def test_float_weights_across_the_range_match_the_exact_oracle(rows):
    yt, yp, w = (list(c) for c in zip(*rows))
    t = _table(yt, yp, [Fraction(x) for x in w])
    if not any(map(any, t)):
        return
    (tn, fp), (fn, tp) = t
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if tp + fp:
            assert _close(cm.precision_score(yt, yp, sample_weight=w, labels=[0, 1]), tp / (tp + fp))
        if tp + fn:
            assert _close(cm.recall_score(yt, yp, sample_weight=w, labels=[0, 1]), tp / (tp + fn))
        if 2 * tp + fp + fn:
            assert _close(cm.f1_score(yt, yp, sample_weight=w, labels=[0, 1]), 2 * tp / (2 * tp + fp + fn))
        assert _close(cm.accuracy_score(yt, yp, sample_weight=w), (tp + tn) / (tp + tn + fp + fn))


def _auc_oracle(y, s, w) -> Fraction | None:
    pos = [(si, Fraction(wi)) for yi, si, wi in zip(y, s, w) if yi == 1]
    neg = [(si, Fraction(wi)) for yi, si, wi in zip(y, s, w) if yi == 0]
    p, n = sum(x for _, x in pos), sum(x for _, x in neg)
    if not p or not n:
        return None
    won = sum(a * b * (1 if sa > sb else Fraction(1, 2) if sa == sb else 0) for sa, a in pos for sb, b in neg)
    return won / (p * n)


def _ap_oracle(y, s, w) -> Fraction | None:
    p = sum(Fraction(wi) for yi, wi in zip(y, w) if yi == 1)
    if not p:
        return None
    ap, tps, fps = Fraction(0), Fraction(0), Fraction(0)
    for thr in sorted(set(si for si, wi in zip(s, w) if wi), reverse=True):
        step = sum(Fraction(wi) for yi, si, wi in zip(y, s, w) if si == thr and yi == 1)
        tps += step
        fps += sum(Fraction(wi) for yi, si, wi in zip(y, s, w) if si == thr and yi == 0)
        ap += step / p * (tps / (tps + fps))
    return ap


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from([0.0, 0.1, 0.5, 0.7, 1.0]), extreme),
                min_size=2, max_size=10))
def test_ranking_areas_with_float_weights_across_the_range(rows):
    y, s, w = (list(c) for c in zip(*rows))
    if not any(w) or len(set(y)) < 2:
        return
    exact = _auc_oracle(y, s, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = cm.roc_auc_score(y, s, sample_weight=w)
        ap = cm.average_precision_score(y, s, sample_weight=w)
    if exact is None:
        assert np.isnan(got)
    else:
        # 4 ulp, or (areas far below the smallest normal float) within 1e-300
        assert _close(got, exact, 4) or abs(got - float(exact)) < 1e-300, (got, float(exact))
    exact_ap = _ap_oracle(y, s, w)
    if exact_ap is not None:
        assert _close(ap, exact_ap, 4) or abs(ap - float(exact_ap)) < 1e-300, (ap, float(exact_ap))


def _cumulative_oracle(y, s, w):
    """Distinct scores with weight (decreasing) and the exact cumulative (tps, fps) there."""
    out, tps, fps = [], Fraction(0), Fraction(0)
    for thr in sorted(set(si for si, wi in zip(s, w) if wi), reverse=True):
        tps += sum(Fraction(wi) for yi, si, wi in zip(y, s, w) if si == thr and yi == 1)
        fps += sum(Fraction(wi) for yi, si, wi in zip(y, s, w) if si == thr and yi == 0)
        out.append((thr, tps, fps))
    return out


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.sampled_from([0.0, 0.1, 0.5, 0.7, 1.0]), extreme),
                min_size=2, max_size=10))
def test_curves_with_float_weights_across_the_range(rows):
    y, s, w = (list(c) for c in zip(*rows))
    if not any(w) or len(set(y)) < 2:
        return
    points = _cumulative_oracle(y, s, w)
    p_total, n_total = points[-1][1], points[-1][2]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fpr, tpr, thr = cm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
        precision, recall, pr_thr = cm.precision_recall_curve(y, s, sample_weight=w)
    assert thr[1:].tolist() == [t for t, _, _ in points]
    if p_total and n_total:
        for i, (_, tps, fps) in enumerate(points, start=1):
            assert _close(tpr[i], tps / p_total) and _close(fpr[i], fps / n_total), (i, tpr[i], fpr[i])
    assert pr_thr[::-1].tolist() == [t for t, _, _ in points]
    for i, (_, tps, fps) in enumerate(points):
        j = len(points) - 1 - i  # precision_recall_curve: thresholds increasing
        if tps + fps:
            assert _close(precision[j], tps / (tps + fps)) or abs(precision[j] - float(tps / (tps + fps))) < 1e-300
        if p_total:
            assert _close(recall[j], tps / p_total) or abs(recall[j] - float(tps / p_total)) < 1e-300


def test_the_report_reads_integer_weights_exactly_like_the_metrics() -> None:
    """evaluate()'s report (and so the CLI's) divides the exact integer counts: error rate
    1/(2**53 + 5), correctly rounded, and MCC/kappa/F1 equal to the metrics functions."""
    from fractions import Fraction

    import clfeval
    from clfeval import metrics

    yt, yp, w = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1], [2**53 + 1, 1, 1, 1, 1]
    overall = clfeval.evaluate(yt, yp, sample_weight=w).report.overall
    assert overall["error_rate"] == float(Fraction(1, 2**53 + 5))
    assert overall["accuracy"] == float(Fraction(2**53 + 4, 2**53 + 5))
    assert overall["mcc"] == metrics.matthews_corrcoef(yt, yp, sample_weight=w)
    assert overall["kappa"] == metrics.cohen_kappa_score(yt, yp, sample_weight=w)
    assert overall["balanced_accuracy"] == metrics.balanced_accuracy_score(yt, yp, sample_weight=w)
    rows = clfeval.evaluate(yt, yp, sample_weight=w).report.rows
    assert [r["f1"] for r in rows] == metrics.f1_score(yt, yp, sample_weight=w, average=None).tolist()


@pytest.mark.parametrize("weights", [[1e308] * 5, [1e-320] * 5, [5e-324, 1e308, 1.0, 1.0, 1.0]])
def test_streams_and_merges_keep_the_exact_sums_of_extreme_float_weights(weights) -> None:
    """Batches and merged streams give evaluate()'s numbers (not NaN) for weights at the ends of
    the float range: the stream keeps the batches' exact sums."""
    import clfeval

    yt, yp, w = np.array([0, 1, 1, 0, 1]), np.array([0, 1, 0, 0, 1]), np.array(weights)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        whole = clfeval.evaluate(yt, yp, sample_weight=w).report
        stream = clfeval.StreamingEvaluation()
        for part in (slice(0, 2), slice(2, 5)):
            stream.update(yt[part], yp[part], sample_weight=w[part])
        a = clfeval.StreamingEvaluation().update(yt[:3], yp[:3], sample_weight=w[:3])
        b = clfeval.StreamingEvaluation().update(yt[3:], yp[3:], sample_weight=w[3:])
        for result in (stream.result().report, a.merge(b).result().report):
            assert result.overall == whole.overall
            assert [r["f1"] for r in result.rows] == [r["f1"] for r in whole.rows]
    assert not np.isnan(whole.overall["mcc"])


def test_average_precision_when_the_negatives_running_sum_overflows():
    """Two negatives of weight 1e308 above one positive of weight 1e308: the negatives' running
    sum passes the float range (inf), so precision is formed from mantissas and exponents of a
    scaled-down copy. Precision at the positive: 1e308 / (1e308 + 2e308) = 1/3, the AP."""
    from clfeval.formulas.curves import average_precision

    neg = np.array([1e308, 1e308, 0.0])
    pos = np.array([0.0, 0.0, 1e308])
    assert average_precision(neg, pos) == pytest.approx(1 / 3, rel=1e-15)
    # positives on both sides, their own total within range: AP = (1 + 1/2) / 2 at precisions 1
    # and 2e307 / (2e307 + 2e308) ... computed from the same weights in fractions
    neg = np.array([0.0, 1e308, 1e308, 0.0])
    pos = np.array([1e307, 0.0, 0.0, 1e307])
    p1 = Fraction(1)
    p2 = Fraction(2e307) / (Fraction(2e307) + 2 * Fraction(1e308))
    assert average_precision(neg, pos) == pytest.approx(float((p1 + p2) / 2), rel=1e-15)


def test_float_tables_on_the_safe_bounds_take_the_float_formulas():
    """Cells of exactly 2**-240 or 2**240 are still safe (the bounds are inclusive); a hair outside is not."""
    from clfeval.formulas.exact_sums import float_table_needs_exact, normalized_float_table

    assert not float_table_needs_exact(np.array([2.0**-240, 1.0, 2.0**240]))
    assert float_table_needs_exact(np.array([np.nextafter(2.0**-240, 0), 1.0]))
    assert float_table_needs_exact(np.array([np.nextafter(2.0**240, np.inf), 1.0]))
    ordinary = np.array([[3.0, 1.5], [0.25, 2.0]])
    assert normalized_float_table(ordinary) is ordinary  # "other tables are returned as they are"


def test_scores_with_weights_whose_sums_overflow_are_refused_with_the_remedy():
    """Four weights of 1e308 (their sum is past float64) with scores: the drop-in metrics, whose
    sums are exact, give AP 0.75 as for any equal weights. evaluate() keeps float64 running sums
    in its rankings (thresholds, curves and operating points read them), which would overflow
    (it gave NaN AUC and a balanced accuracy of 0), so it refuses in one line and says how to
    rescale; the weights divided by 2**3 then give the unit-weight numbers. Predictions alone
    are still counted exactly (test_evaluate_report_with_weights_whose_sums_overflow)."""
    import clfeval.metrics as metrics
    from clfeval.exceptions import ValuesError

    y, s, w = [1, 0, 0, 1], [0.9, 0.8, 0.7, 0.6], [1e308] * 4
    assert metrics.average_precision_score(y, s, sample_weight=w) == 0.75
    with pytest.raises(ValuesError, match=r"^sample_weight sums past the float64 range \(1\.8e308\), which scores "
                       r"cannot be ranked with; divide every weight by the same number \(2\*\*3 is enough\): "
                       r"rates and areas do not change\.$") as caught:
        clfeval.evaluate(y, y_score=s, sample_weight=w)
    assert (caught.value.argument, caught.value.kind) == ("sample_weight", "sum-overflow")
    with pytest.raises(ValuesError, match="^sample_weight sums past"):
        clfeval.evaluate(y, y_pred=[1, 0, 1, 1], y_score=s, sample_weight=w)
    with pytest.raises(ValuesError, match="^sample_weight sums past"):  # the total alone, classes apart fit
        clfeval.evaluate(y, y_score=s, sample_weight=[0.9e308, 0.9e308, 0.0, 0.0])
    ev = clfeval.evaluate(y, y_score=s, sample_weight=[1e308 / 8] * 4)
    assert ev.report.overall == clfeval.evaluate(y, y_score=s).report.overall
    assert ev.report.overall["average_precision"] == 0.75 and ev.report.overall["accuracy"] == 0.5


def test_a_stream_whose_weight_total_passes_the_float_range_is_refused_at_its_result():
    """Each batch's weights fit float64, their total does not: the stream refuses as evaluate()
    does on the same rows, and the command says so in one line naming the column (exit 1)."""
    from clfeval.exceptions import ValuesError

    y, s = [1, 0, 0, 1], [0.9, 0.8, 0.7, 0.6]
    stream = StreamingEvaluation()
    stream.update(y[:2], y_score=s[:2], sample_weight=[0.6e308] * 2)
    stream.update(y[2:], y_score=s[2:], sample_weight=[0.6e308] * 2)
    with pytest.raises(ValuesError, match=r"^sample_weight sums past the float64 range .*\(2\*\*3 is enough\)"):
        stream.result()
    fine = StreamingEvaluation().update(y, y_score=s, sample_weight=[1e308 / 8] * 4).result()
    assert fine.report.overall == clfeval.evaluate(y, y_score=s).report.overall


@pytest.mark.parametrize("extra", [(), ("--stream", "--batch-rows", "2")])
def test_cli_refuses_score_weights_whose_total_overflows(tmp_path, extra):
    src = tmp_path / "in.csv"
    src.write_text("y,p,w\n1,0.9,6e307\n0,0.8,6e307\n0,0.7,6e307\n1,0.6,6e307\n")
    out = tmp_path / "out.json"
    proc = subprocess.run([sys.executable, "-m", "clfeval", "report", str(src), "--y-true", "y", "--y-score", "p",
                           "--sample-weight", "w", "--json", str(out), *extra], capture_output=True, text=True)
    assert proc.returncode == 1 and not out.exists() and proc.stdout == ""
    assert proc.stderr == (f"clfeval: error: {src}: column 'w' sums past the float64 range (1.8e308), which scores "
                           "cannot be ranked with; divide every weight by the same number (2**3 is enough): rates "
                           "and areas do not change.\n")


# -- float weights whose total is in range but whose sums of sums are not -----------------------------------


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.tuples(*(st.floats(0.0, 1e3, allow_subnormal=False) for _ in range(3))), min_size=1, max_size=5),
    beta=st.sampled_from([0.5, 1.0, 2.0, 3.0]),
    shift=st.integers(990, 1013),
)
def test_f_beta_and_jaccard_of_huge_float_counts_are_those_of_the_counts_scaled_down(counts, beta, shift):
    from clfeval.formulas.measures import fbeta, jaccard

    tp, fp, fn = (np.array(c) for c in zip(*counts))
    big = [np.ldexp(a, shift) for a in (tp, fp, fn)]  # exact: a power of two, no overflow (1e3 < 2**10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # and no overflow warning on the way
        np.testing.assert_array_equal(fbeta(*big, beta=beta), fbeta(tp, fp, fn, beta=beta))
        np.testing.assert_array_equal(jaccard(*big), jaccard(tp, fp, fn))


def test_report_of_float_weights_near_the_top_of_the_range(tmp_path):
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 2, 1000), rng.random(1000)
    w = np.full(1000, 1e305)  # total 1e308: in range; 2 tp + fp + fn of the micro average is not
    ev = clfeval.evaluate(y, y_score=p, sample_weight=w)
    micro = ev.report.averages["micro"]
    accuracy = float(np.mean(y == (p >= 0.5)))
    assert micro["f1"] == pytest.approx(accuracy, rel=1e-15)  # micro F1 of one label per sample
    for name in ("macro", "weighted"):
        want = skm.f1_score(y, (p >= 0.5).astype(int), average=name)  # weights all equal: as unweighted
        assert ev.report.averages[name]["f1"] == pytest.approx(want, rel=1e-13)
    src = tmp_path / "huge.csv"
    src.write_text("y,p,w\n" + "".join(f"{a},{float(b)!r},1e305\n" for a, b in zip(y, p)))
    proc = subprocess.run([sys.executable, "-m", "clfeval", "report", str(src), "--y-true", "y", "--y-score", "p",
                           "--sample-weight", "w"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "120"})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    support = {int(x): n for x, n in zip(*np.unique(y, return_counts=True))}
    row0 = next(line for line in lines if line.split()[:1] == ["0"])
    row1 = next(line for line in lines if line.split()[:1] == ["1"])
    # a float sum of weights: six significant digits, not 309 digits of which 293 are not the sum's
    assert f"{support[0] * 1e305:.6g}" in row0.split() and f"{support[1] * 1e305:.6g}" in row1.split()
    micro_row = next(line for line in lines if line.strip().startswith("micro avg"))
    assert micro_row.split()[2:5] == [f"{accuracy:.4f}"] * 3 and micro_row.split()[-1] == "1e+308"
    assert max(map(len, lines)) <= 120


def _differences(a, b, path=""):
    """Paths where two plain-data trees hold floats further apart than 1e-9 (relative)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in a.keys() & b.keys() for d in _differences(a[k], b[k], f"{path}/{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (u, v) in enumerate(zip(a, b)) for d in _differences(u, v, f"{path}[{i}]")]
    if isinstance(a, float) and isinstance(b, float):
        same = a == b or (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9 * max(abs(a), abs(b))
        return [] if same else [(path, a, b)]
    return []


def test_equal_weights_near_the_top_of_the_range_give_the_unweighted_numbers(tmp_path):
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 2, 1000), rng.random(1000)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # no overflow on the way either
        heavy = clfeval.evaluate(y, y_score=p, sample_weight=np.full(1000, 1e305))  # total 1e308
        heavy.to_html(tmp_path / "heavy.html")
    plain = clfeval.evaluate(y, y_score=p)
    diff = _differences(heavy.to_dict(), plain.to_dict())
    assert {d[0] for d in diff} == {"/total_weight", "/calibration/total_weight"}, diff  # the cost curve's
    # area and the Brier decomposition's within-bin variance were the ones that overflowed
