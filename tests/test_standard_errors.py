"""Exact standard errors (issue 17, section 5).

Every delta-method standard error takes a closed-form gradient (clfeval.formulas.measure_gradients). The
oracles: statsmodels' ``cohens_kappa(...).std_kappa`` (the large-sample variance of Fleiss, Cohen &
Everitt 1969) and, for every measure, the gradient of an independent re-implementation of its
definition in 50-digit mpmath arithmetic (central differences with a step of 1e-20: error ~1e-30).
"""

from __future__ import annotations

import functools
import math

import mpmath as mp
import numpy as np
from scipy.stats import t as student_t
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import logit, ndtri
from statsmodels.stats.inter_rater import cohens_kappa as sm_kappa

import clfeval
from clfeval.formulas import measures as m
from clfeval.formulas.measure_gradients import (
    confusion_variances,
    kappa_gradient,
    label_table_gradients,
    mcc_gradient,
    balanced_accuracy_gradient,
    table_variance,
)
from clfeval.uncertainty.area_intervals import delong_interval, delong_variance
from clfeval.uncertainty import confusion_intervals, delta_method_se, proportion_ci



@pytest.fixture(autouse=True)
def fifty_digits():
    """mpmath's precision is process-wide (another test module sets its own): 50 digits here."""
    with mp.workdps(50):
        yield


pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning:statsmodels")  # its kappa_max at 0/0
ISSUE_TABLE = np.array([[857606, 4], [645209, 4]])
FAST = settings(max_examples=40, deadline=None)


# ------------------------------------------------------------------------------------------
# the definitions, in mpmath (lists of lists of mpf; NaN as None)
# ------------------------------------------------------------------------------------------
def _div(a, b):
    return None if b == 0 else a / b


def _ovr(t):
    """(tp, fp, fn, tn) of each class as sums of their own cells (a 0 stays exactly 0)."""
    k = len(t)
    cells = [(i, j) for i in range(k) for j in range(k)]
    return [(t[c][c], sum(t[i][c] for i in range(k) if i != c), sum(t[c][j] for j in range(k) if j != c),
             sum(t[i][j] for i, j in cells if i != c and j != c)) for c in range(k)]


def _rates(tp, fp, fn, tn, beta):
    b2 = mp.mpf(beta) ** 2
    return {"precision": _div(tp, tp + fp), "recall": _div(tp, tp + fn),
            "fbeta": _div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp), "fallout": _div(fp, fp + tn),
            "specificity": _div(tn, tn + fp), "npv": _div(tn, tn + fn)}


def _averages(per, support):
    out = {}
    for name in per[0]:
        vals = [(r[name], s) for r, s in zip(per, support) if r[name] is not None]
        out["macro", name] = None if not vals else sum(v for v, _ in vals) / len(vals)
        tot = sum(s for _, s in vals)
        out["weighted", name] = (None if not vals else sum(v * s for v, s in vals) / tot if tot else
                                 sum(v for v, _ in vals) / len(vals))
    return out


def mp_measures(t, beta=1.0, weights=None):
    """Every delta-method number of the report, from its definition."""
    k = len(t)
    ovr = _ovr(t)
    per = [_rates(*c, beta) for c in ovr]
    out = {("per_class", name, c): per[c][name] for c in range(k) for name in per[0]}
    out.update(_averages(per, [tp + fn for tp, _, fn, _ in ovr]))
    n = sum(sum(r) for r in t)
    rows = [sum(r) for r in t]
    cols = [sum(t[i][j] for i in range(k)) for j in range(k)]
    recalls = [t[i][i] / rows[i] for i in range(k) if rows[i]]
    out["overall", "balanced_accuracy"] = sum(recalls) / len(recalls)
    cov = sum(t[i][i] for i in range(k)) * n - sum(rows[i] * cols[i] for i in range(k))
    den = (n * n - sum(c * c for c in cols)) * (n * n - sum(r * r for r in rows))
    out["overall", "mcc"] = cov / mp.sqrt(den) if den else None
    if weights is None:
        v = [[0 if i == j else 1 for j in range(k)] for i in range(k)]
    else:
        p = 1 if weights == "linear" else 2
        v = [[abs(i - j) ** p for j in range(k)] for i in range(k)]
    obs = sum(v[i][j] * t[i][j] for i in range(k) for j in range(k)) / n
    exp = sum(v[i][j] * rows[i] * cols[j] for i in range(k) for j in range(k)) / n / n
    out["overall", "kappa"] = None if exp == 0 else 1 - obs / exp
    return out


def mp_gradients(table, func, cell_ndim=2):
    """{key: gradient (*cell shape)} of func's defined values, central differences in mpmath."""
    flat = [mp.mpf(int(x)) if float(x).is_integer() else mp.mpf(float(x)) for x in np.ravel(table)]
    shape = np.shape(table)

    def nest(vals):
        if cell_ndim == 2:
            k = shape[-1]
            return [vals[i * k:(i + 1) * k] for i in range(k)]
        return [[vals[l * 4:l * 4 + 2], vals[l * 4 + 2:l * 4 + 4]] for l in range(shape[0])]

    base = func(nest(flat))
    grads = {key: [None] * len(flat) for key, v in base.items() if v is not None}
    h = mp.mpf("1e-20")
    for c, x in enumerate(flat):
        if x == 0:  # no case in the cell: it adds nothing (and the measure may not exist below 0)
            for key in grads:
                grads[key][c] = mp.mpf(0)
            continue
        up, down = flat.copy(), flat.copy()
        up[c], down[c] = x + h, x - h
        fu, fd = func(nest(up)), func(nest(down))
        for key in grads:
            grads[key][c] = (fu[key] - fd[key]) / (2 * h)
    return base, grads


def mp_variance(g, cells, squares, n):
    w = [mp.mpf(float(x)) for x in np.ravel(cells)]
    s = [mp.mpf(float(x)) for x in np.ravel(squares)]
    s1 = sum(gi * wi for gi, wi in zip(g, w))
    return sum(gi * gi * si for gi, si in zip(g, s)) - s1 * s1 / mp.mpf(float(n))


def fce_variance(table, weights=None):
    """Fleiss, Cohen & Everitt (1969), eq. for the large-sample variance of (weighted) kappa,
    written from the paper in agreement weights w = 1 - v / max v, in mpmath."""
    t = [[mp.mpf(int(x)) for x in r] for r in table]
    k = len(t)
    n = sum(sum(r) for r in t)
    p = [[x / n for x in r] for r in t]
    pr = [sum(p[i]) for i in range(k)]
    pc = [sum(p[i][j] for i in range(k)) for j in range(k)]
    if weights is None:
        w = [[mp.mpf(1 if i == j else 0) for j in range(k)] for i in range(k)]
    else:
        e = 1 if weights == "linear" else 2
        w = [[1 - mp.mpf(abs(i - j)) ** e / mp.mpf(k - 1) ** e for j in range(k)] for i in range(k)]
    po = sum(w[i][j] * p[i][j] for i in range(k) for j in range(k))
    pe = sum(w[i][j] * pr[i] * pc[j] for i in range(k) for j in range(k))
    kap = (po - pe) / (1 - pe)
    wi = [sum(pc[j] * w[i][j] for j in range(k)) for i in range(k)]
    wj = [sum(pr[i] * w[i][j] for i in range(k)) for j in range(k)]
    s = sum(p[i][j] * (w[i][j] - (wi[i] + wj[j]) * (1 - kap)) ** 2 for i in range(k) for j in range(k))
    return (s - (kap - pe * (1 - kap)) ** 2) / ((1 - pe) ** 2 * n)


# ------------------------------------------------------------------------------------------
# Cohen's kappa against statsmodels and the paper
# ------------------------------------------------------------------------------------------
def test_kappa_of_the_issue_table_is_exact():
    se = delta_method_se(m.cohen_kappa, ISSUE_TABLE)
    exact = float(mp.sqrt(fce_variance(ISSUE_TABLE)))
    assert se == pytest.approx(exact, rel=1e-14)
    assert f"{se:.6e}" == "4.427256e-06"  # the finite-difference gradient gave 4.427250e-06
    # statsmodels evaluates the same formula in float64 and loses ~11 digits to cancellation here
    # (terms of order 1 cancel to 3e-5); it agrees to the digits its own rounding leaves
    assert sm_kappa(ISSUE_TABLE).std_kappa == pytest.approx(se, rel=1e-10)
    ci = clfeval.evaluate(*_rows(ISSUE_TABLE)).intervals()["overall"]["kappa"]
    assert ci.standard_error == pytest.approx(exact, rel=1e-14)


def _rows(table):
    t = np.asarray(table)
    k = t.shape[0]
    true = np.repeat(np.repeat(np.arange(k), k), t.ravel())
    pred = np.repeat(np.tile(np.arange(k), k), t.ravel())
    return true, pred


def _sm_condition(table, weights=None):
    """How many times statsmodels' float64 terms exceed the variance they cancel down to."""
    t = np.asarray(table, dtype=np.float64)
    p = t / t.sum()
    pr, pc = p.sum(1), p.sum(0)
    k = t.shape[0]
    if weights is None:
        w = np.eye(k)
    else:
        d = np.abs(np.arange(k)[:, None] - np.arange(k)[None, :]) / (k - 1)
        w = 1 - (d if weights == "linear" else d**2)
    pe = (w * np.outer(pr, pc)).sum()
    kap = float(m.cohen_kappa(np.asarray(table), weights))
    wi, wj = w @ pc, pr @ w
    big = (p * (np.abs(w) + (wi[:, None] + wj[None, :]) * abs(1 - kap)) ** 2).sum() + (abs(kap) + pe) ** 2
    var = float(fce_variance(table, weights)) * (1 - pe) ** 2 * t.sum()
    return big / var if var > 0 else math.inf


@st.composite
def count_tables(draw, kmin=2, kmax=5, big=True):
    k = draw(st.integers(kmin, kmax))
    scale = draw(st.sampled_from([1, 1, 1, 10**6, 10**12] if big else [1]))
    cells = draw(st.lists(st.one_of(st.just(0), st.integers(0, 60)), min_size=k * k, max_size=k * k))
    t = np.array(cells, dtype=np.int64).reshape(k, k) * scale
    if t.sum() == 0:
        t[0, 0] = scale
    return t


@FAST
@given(count_tables(), st.sampled_from([None, "linear", "quadratic"]))
def test_kappa_se_is_fleiss_cohen_everitt_and_statsmodels(table, weights):
    kappa = float(m.cohen_kappa(table, weights))
    func = m.cohen_kappa if weights is None else functools.partial(m.cohen_kappa, weights=weights)
    se = float(delta_method_se(func, table))
    if math.isnan(kappa):  # all cases in one row and one column: no kappa, no standard error
        assert math.isnan(se)
        return
    var = fce_variance(table, weights)
    exact = float(mp.sqrt(max(var, 0)))
    assert se == pytest.approx(exact, rel=1e-12, abs=1e-20)  # mpmath leaves ~1e-50 of a variance of 0
    if exact > 1e-20 and (table > 0).sum() > 1:  # (a variance of 0 is ~1e-50 in mpmath: statsmodels gives NaN)
        ref = sm_kappa(table, wt=weights).std_kappa
        # 1e-12 wherever statsmodels' own float64 sum leaves 12 digits (nearly always)
        tol = max(1e-12, 4 * np.finfo(float).eps * _sm_condition(table, weights))
        assert se == pytest.approx(ref, rel=tol)


def test_kappa_se_matches_statsmodels_on_ordinary_tables():
    rng = np.random.default_rng(17)
    for k in (2, 3, 4, 6):
        for _ in range(5):
            t = rng.integers(0, 200, size=(k, k)) + np.diag(rng.integers(50, 400, size=k))
            for weights in (None, "linear", "quadratic"):
                func = m.cohen_kappa if weights is None else functools.partial(m.cohen_kappa, weights=weights)
                assert float(delta_method_se(func, t)) == pytest.approx(sm_kappa(t, wt=weights).std_kappa, rel=1e-12)
                assert float(m.cohen_kappa(t, weights)) == pytest.approx(sm_kappa(t, wt=weights).kappa, rel=1e-12)


def test_kappa_se_of_huge_counts_stays_exact():
    t = np.array([[3 * 10**15, 7 * 10**12], [5 * 10**12, 2 * 10**15]], dtype=np.int64)
    se = float(delta_method_se(m.cohen_kappa, t))
    assert se == pytest.approx(float(mp.sqrt(fce_variance(t))), rel=1e-12)


# ------------------------------------------------------------------------------------------
# every delta-method number: analytic gradient = the definition's gradient
# ------------------------------------------------------------------------------------------
@FAST
@given(count_tables(kmax=4, big=False), st.sampled_from([1.0, 0.5, 2.0]))
def test_confusion_variances_equal_the_definitions(table, beta):
    n = table.sum()
    base, grads = mp_gradients(table, lambda t: mp_measures(t, beta))
    var = confusion_variances(table, table, n, None if beta == 1.0 else beta)
    fname = "f1" if beta == 1.0 else f"f{beta:g}"
    for key, g in grads.items():
        if key[0] == "per_class":
            _, name, c = key
            if name != "fbeta":
                continue
            got = var["per_class", fname][c]
        else:
            name = fname if key[1] == "fbeta" else key[1]
            if key == ("overall", "mcc") and base[key] is None:
                continue
            got = var[key[0], name]
        want = float(mp_variance(g, table, table, n))
        assert float(got) == pytest.approx(want, rel=1e-10, abs=1e-15), key
    # undefined numbers have no variance
    for c in range(table.shape[0]):
        assert math.isnan(var["per_class", fname][c]) == (base["per_class", "fbeta", c] is None)


@FAST
@given(count_tables(kmax=4, big=False), st.data())
def test_weighted_case_variances_equal_the_definitions(table, data):
    # sums of squared weights: any positive numbers where a cell holds weight
    sq = np.array([data.draw(st.floats(0.1, 50)) if x else 0.0 for x in table.ravel()]).reshape(table.shape)
    n_cases = int(table.sum()) + 3
    _, grads = mp_gradients(table, mp_measures)
    var = confusion_variances(table.astype(float), sq, n_cases, None)
    for key in [("macro", "precision"), ("weighted", "recall"), ("weighted", "npv"), ("overall", "kappa"),
                ("overall", "balanced_accuracy")]:
        if key in grads:
            want = float(mp_variance(grads[key], table, sq, n_cases))
            assert float(var[key]) == pytest.approx(want, rel=1e-10, abs=1e-15), key


@FAST
@given(count_tables(kmax=4), st.sampled_from([None, "linear", "quadratic"]))
def test_overall_gradients_equal_the_definitions(table, weights):
    base, grads = mp_gradients(table, lambda t: mp_measures(t, 1.0, weights))
    mine = {"balanced_accuracy": balanced_accuracy_gradient(table), "mcc": mcc_gradient(table),
            "kappa": kappa_gradient(table, weights)}
    nz = table > 0
    for name, g in mine.items():
        if ("overall", name) not in grads:
            continue
        want = np.array([float(x) for x in grads["overall", name]]).reshape(table.shape)
        scale = max(np.abs(want).max(), 1.0 / table.sum())  # gradients of ratios are O(1 / n)
        np.testing.assert_allclose(np.where(nz, g, 0.0), want, rtol=0, atol=1e-11 * scale, err_msg=name)


def mp_label_measures(tables, beta=1.0):
    per, support = [], []
    for t in tables:  # [[tn, fp], [fn, tp]]
        (tn, fp), (fn, tp) = t
        per.append(_rates(tp, fp, fn, tn, beta))
        support.append(tp + fn)
    out = _averages(per, support)
    sums = [sum(t[i][j] for t in tables) for i, j in ((1, 1), (0, 1), (1, 0), (0, 0))]
    out.update({("micro", name): v for name, v in _rates(*sums, beta).items()})
    return out


@FAST
@given(st.integers(1, 4), st.data(), st.sampled_from([1.0, 2.0]))
def test_multilabel_gradients_equal_the_definitions(n_labels, data, beta):
    tables = np.array(data.draw(st.lists(st.integers(0, 30), min_size=4 * n_labels, max_size=4 * n_labels)))
    tables = tables.reshape(n_labels, 2, 2)
    if tables.sum() == 0:
        tables[0, 1, 1] = 1
    _, grads = mp_gradients(tables, lambda t: mp_label_measures(t, beta), cell_ndim=3)
    mine = label_table_gradients(tables, None if beta == 1.0 else beta)
    fname = "f1" if beta == 1.0 else "f2"
    for key, g in grads.items():
        name = fname if key[1] == "fbeta" else key[1]
        want = np.array([float(x) for x in g])
        got = np.where(tables.ravel() > 0, mine[key[0], name].ravel(), 0.0)
        scale = max(np.abs(want).max(), 1.0 / tables.sum())
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-11 * scale, err_msg=str(key))


def test_known_measures_take_exact_gradients_and_others_still_work():
    t = np.array([[30, 10, 2], [10, 50, 4], [1, 3, 20]])
    for func in (m.accuracy, m.error_rate, m.balanced_accuracy, m.matthews_corrcoef, m.cohen_kappa):
        _, grads = mp_gradients(t, lambda x, f=func: {"v": _mp_of(f, x)})
        want = math.sqrt(float(mp_variance(grads["v"], t, t, t.sum())))
        assert float(delta_method_se(func, t)) == pytest.approx(want, rel=1e-12), func.__name__
    # any other function: central differences, about 10 digits
    se = delta_method_se(lambda x: m.cohen_kappa(x), t)
    assert se == pytest.approx(float(delta_method_se(m.cohen_kappa, t)), rel=1e-8)


def _mp_of(func, t):
    k = len(t)
    n = sum(sum(r) for r in t)
    if func is m.accuracy:
        return sum(t[i][i] for i in range(k)) / n
    if func is m.error_rate:
        return 1 - sum(t[i][i] for i in range(k)) / n
    return mp_measures(t)["overall", {m.balanced_accuracy: "balanced_accuracy", m.matthews_corrcoef: "mcc",
                                      m.cohen_kappa: "kappa"}[func]]


# ------------------------------------------------------------------------------------------
# intervals carry their standard error
# ------------------------------------------------------------------------------------------
def _every(d):
    for section in ("overall", "per_class"):
        for name, ci in d[section].items():
            yield section, name, ci
    for avg, row in d["averages"].items():
        for name, ci in row.items():
            yield avg, name, ci


@pytest.mark.parametrize("weighted", [False, True])
def test_every_interval_made_of_a_standard_error_carries_it(weighted):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 400)
    score = np.eye(3)[y] * 0.5 + rng.random((400, 3))
    score /= score.sum(axis=1, keepdims=True)
    w = rng.random(400) + 0.5 if weighted else None
    ev = clfeval.evaluate(y, y_score=score, sample_weight=w)
    level = 0.9
    d = ev.intervals(level)
    z = float(ndtri(0.5 + level / 2))
    plain = ev.to_dict(ci_level=level)["intervals"]
    seen = set()
    counts = np.bincount(y, minlength=3).astype(float)  # cases per class (no weight is zero)
    for section, name, ci in _every(d):
        from_se = ci.method.startswith(("delta method", "DeLong", "case influence"))
        assert (ci.standard_error is not None) == from_se, (section, name, ci.method)
        entry = plain["overall" if section == "overall" else "per_class" if section == "per_class" else "averages"]
        entry = entry[name] if section in ("overall", "per_class") else entry[section][name]
        if not from_se:
            assert entry["standard_error"] is None
            continue
        seen.add(ci.method)
        np.testing.assert_allclose(entry["standard_error"], ci.standard_error, rtol=0, atol=0)
        est, low, high, se = (np.atleast_1d(np.asarray(x, dtype=float)) for x in
                              (ci.estimate, ci.low, ci.high, ci.standard_error))
        assert (se > 0).all() and (low <= est).all() and (est <= high).all()
        # the areas' intervals are made of the reported standard error on the logit scale, with a
        # t quantile whose degrees of freedom are the fewest cases of a class the area needs, less 1
        if ci.method.startswith("DeLong, logit scale") or "t(min(P, N) - 1)" in ci.method:  # per class
            df = np.minimum(counts, counts.sum() - counts) - 1
        elif ci.method.startswith("case influence, logit scale"):  # AP per class: min(P, N) - 1 too
            df = np.minimum(counts, counts.sum() - counts) - 1
        elif "quantile)" in ci.method:  # an average over classes: the df is in the name
            df = np.array([float(ci.method.split("t(")[1].split(")")[0])])
        else:  # the report's delta method: plain SE reported, interval from the smoothed table
            assert ci.method.startswith("delta method (") and "cells + 1/3" in ci.method
            continue
        q = student_t.ppf(0.5 + level / 2, df)
        np.testing.assert_allclose(logit(high) - logit(low), 2 * q * se / (est * (1 - est)), rtol=1e-9)
        np.testing.assert_allclose((logit(high) + logit(low)) / 2, logit(est), rtol=1e-9)
    assert len([s for s in seen if s.startswith("delta method")]) >= 2 and len(seen) >= 4


def test_wald_proportion_and_delong_carry_their_standard_errors():
    ci = proportion_ci(np.array([30, 0]), np.array([100, 10]), method="wald", level=0.95)
    np.testing.assert_allclose(ci.standard_error, [math.sqrt(0.3 * 0.7 / 100), 0.0], rtol=1e-15)
    assert ci.high[0] - ci.low[0] == pytest.approx(2 * 1.959963984540054 * ci.standard_error[0], rel=1e-12)
    assert proportion_ci(30, 100).standard_error is None  # Wilson is not estimate +/- z se
    ev = clfeval.evaluate([0, 0, 1, 1, 0, 1, 0, 1], y_score=[0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.5])
    ranking = ev.ranking(ev.names[1])
    d = delong_interval(ranking)
    assert d.standard_error == pytest.approx(math.sqrt(delong_variance(ranking)[1]), rel=1e-15)
    assert ev.intervals()["overall"]["roc_auc"].standard_error == pytest.approx(d.standard_error, rel=1e-15)
    from clfeval.stats.delong import delong_auc_ci

    ci = delong_auc_ci([0, 0, 1, 1, 0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.5])
    assert ci.standard_error == pytest.approx(d.standard_error, rel=1e-12)


def test_batched_confusion_intervals_carry_standard_errors():
    tables = np.array([[[40, 10], [5, 45]], [[857606, 4], [645209, 4]]])
    d = confusion_intervals(tables)
    se = d["overall"]["kappa"].standard_error
    assert se.shape == (2,)
    assert se[1] == pytest.approx(float(mp.sqrt(fce_variance(ISSUE_TABLE))), rel=1e-14)
    assert se[0] == pytest.approx(sm_kappa(tables[0]).std_kappa, rel=1e-12)


def test_tests_intervals_carry_their_standard_errors():
    from scipy import stats as sps

    from clfeval.stats.delong import delong
    from clfeval.stats.mcnemar import mcnemar_table
    from clfeval.stats.resampled import corrected_resampled_ttest

    y = [0, 0, 1, 1, 0, 1, 0, 1, 1, 0]
    r = delong(y, [0.1, 0.4, 0.35, 0.8, 0.2, 0.9, 0.6, 0.5, 0.7, 0.3], [0.2, 0.3, 0.5, 0.6, 0.4, 0.7, 0.1, 0.9, 0.8, 0.35])
    ci = r.confidence_interval(0.9)
    assert ci.standard_error == r.extra["se"] > 0
    assert ci.high - ci.low == pytest.approx(2 * ndtri(0.95) * ci.standard_error, rel=1e-12)
    w = mcnemar_table(7, 3, n=50).confidence_interval(0.95)  # Wald: ((b - c) / n) +/- z se
    se = math.sqrt(((7 + 3) / 50 - (4 / 50) ** 2) / 50)
    assert w.standard_error == pytest.approx(se, rel=1e-15)
    assert w.high - w.low == pytest.approx(2 * ndtri(0.975) * se, rel=1e-12)
    assert mcnemar_table([[20, 7], [3, 20]]).confidence_interval().standard_error is None  # Newcombe
    a = np.array([0.81, 0.79, 0.84, 0.80, 0.83, 0.82])
    t = corrected_resampled_ttest(a, a - [0.01, 0.02, 0.0, 0.03, 0.01, 0.02], n_train=90, n_test=10)
    ci = t.confidence_interval(0.95)
    assert ci.high - ci.low == pytest.approx(2 * sps.t.ppf(0.975, t.df) * ci.standard_error, rel=1e-12)
