"""Evaluation by group: each group's numbers equal ``evaluate`` on its rows, the groups' statistics
merge to the overall's, the gaps' standard errors equal the delta method computed independently
(finite differences of scikit-learn's weighted metrics), and fairlearn agrees on the values it shares."""

from __future__ import annotations

import json

import numpy as np
import pytest
from evaluation_equality import assert_same
from group_oracles import draw_group_weights, finite_difference_influences
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import clfeval
from clfeval.evaluation.groups import GroupEvaluations
from clfeval.exceptions import ValuesError
from clfeval.inputs.group_keys import group_keys
from clfeval.statistics.ranking_merges import merge_rankings
from clfeval.uncertainty.multiplicity import holm_adjusted

pytestmark = pytest.mark.filterwarnings("ignore::clfeval.exceptions.UndefinedMetricWarning")


def _oracle(ev, rows, y, p, s, w, key):
    """evaluate() on one group's rows with the overall's label set, positive class and threshold."""
    sub = lambda a: None if a is None else np.asarray(a)[rows]  # noqa: E731
    return clfeval.evaluate(sub(y), sub(p), sub(s), sample_weight=sub(w), labels=ev.labels, pos_label=ev.pos_label,
                            threshold=None if p is not None else ev.threshold, name=key)


@st.composite
def grouped_data(draw):
    task = draw(st.sampled_from(["binary-scores", "binary-pred", "binary-both", "multiclass", "multilabel"]))
    n = draw(st.integers(6, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_groups = draw(st.integers(1, 4))
    g = rng.choice(np.array(["u", "v", "w", "x"])[:n_groups], n)
    w = draw_group_weights(draw, rng, g)
    if task == "multilabel":
        y = rng.integers(0, 2, (n, 3))
        s = np.round(rng.random((n, 3)), 1)
        return task, y, None, s, w, g
    k = 2 if task.startswith("binary") else draw(st.integers(3, 4))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)  # every class present overall
    if task == "multiclass":
        s = rng.dirichlet(np.ones(k), n).round(2)
        return task, y, None, s, w, g
    s = np.round(rng.random(n), 1)  # ties
    p = rng.integers(0, 2, n)
    if task == "binary-scores":
        return task, y, None, s, w, g
    if task == "binary-pred":
        return task, y, p, None, w, g
    return task, y, p, s, w, g


@settings(max_examples=60, deadline=None)
@given(grouped_data())
def test_each_group_equals_evaluate_on_its_rows(data):
    task, y, p, s, w, g = data
    ev = clfeval.evaluate(y, p, s, sample_weight=w, groups=g)
    assert sorted(ev.by_group) == sorted(set(g.tolist()))
    for key in ev.by_group:
        rows = np.flatnonzero(g == key)
        want = _oracle(ev, rows, y, p, s, w, key)
        assert_same(ev.by_group[key], want, exact=w is None or w.dtype.kind != "f")
    # the overall is the plain evaluation
    assert_same(ev.by_group.overall, clfeval.evaluate(y, p, s, sample_weight=w))


@settings(max_examples=40, deadline=None)
@given(grouped_data())
def test_groups_merge_to_the_overall_statistics(data):
    task, y, p, s, w, g = data
    ev = clfeval.evaluate(y, p, s, sample_weight=w, groups=g)
    groups = list(ev.by_group.values())
    table = (lambda e: e.confusion.sklearn_layout()) if task == "multilabel" else (lambda e: e.confusion.counts)  # noqa: E731
    merged = sum(np.asarray(table(e)) for e in groups)
    exact = w is None or w.dtype.kind != "f"
    if exact:
        assert np.array_equal(merged, np.asarray(table(ev)))
    else:
        np.testing.assert_allclose(merged, np.asarray(table(ev)), rtol=1e-12)
    if ev.rankings is None:
        return
    for name, overall in ev.rankings.items():
        m = merge_rankings([e.rankings[name] for e in groups])
        assert np.array_equal(m.scores, overall.scores)
        for a, b in ((m.pos, overall.pos), (m.negatives(), overall.negatives())):
            if exact:
                assert np.array_equal(a, b)
            else:
                np.testing.assert_allclose(a, b, rtol=1e-12)


def test_table_reads_each_groups_report_and_intervals():
    rng = np.random.default_rng(3)
    n = 400
    y = rng.integers(0, 2, n)
    s = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1)
    g = rng.choice(["a", "b", "c"], n, p=[0.5, 0.35, 0.15])
    ev = clfeval.evaluate(y, y_score=s, groups=g)
    t = ev.by_group.table(ci=0.9)
    assert t.groups == ["a", "b", "c"]
    for i, key in enumerate(t.keys):
        e = ev.by_group[key]
        assert t.n[i] == (g == key).sum()
        assert t.column("accuracy")[i] == e.report.overall["accuracy"]
        assert t.column("recall")[i] == e.report.rows[1]["recall"]
        assert t.column("roc_auc")[i] == e.report.overall["roc_auc"]
        assert t.column("selection_rate")[i] == ((s[g == key] >= 0.5).mean())
        ci = e.ci("mcc", level=0.9)
        j = t.metrics.index("mcc")
        assert (t.low[i, j], t.high[i, j]) == (ci.low, ci.high)
        assert t.support["1"][i] == (y[g == key] == 1).sum()
        assert bool(t.small[i]) == (min((y[g == key] == c).sum() for c in (0, 1)) < 20)
    # the JSON carries it
    d = json.loads(ev.to_json(ci_level=0.9))
    assert d["groups"]["table"]["rows"][0]["accuracy"] == pytest.approx(t.column("accuracy")[0], abs=0)
    assert set(d["groups"]) == {"columns", "n_groups", "table", "gaps", "fairness"}


def _finite_difference_influences(metric, y, p, s, w, g):
    """{group or "overall": each case's influence w_i * d metric / d w_i}, by central differences of
    scikit-learn's weighted metric: the delta method computed independently of clfeval."""
    n = y.size
    w = np.ones(n) if w is None else np.asarray(w, dtype=np.float64)

    def value(weights, rows):
        yy, ww = y[rows], weights[rows]
        if metric == "roc_auc":
            return skm.roc_auc_score(yy, s[rows], sample_weight=ww)
        if metric == "average_precision":
            return skm.average_precision_score(yy, s[rows], sample_weight=ww)
        f = {"accuracy": skm.accuracy_score, "recall": skm.recall_score, "precision": skm.precision_score,
             "f1": skm.f1_score, "mcc": skm.matthews_corrcoef}[metric]
        return f(yy, p[rows], sample_weight=ww)

    return finite_difference_influences(value, w, g, n)


@pytest.mark.parametrize("metric", ["accuracy", "recall", "precision", "f1", "mcc", "roc_auc", "average_precision"])
@pytest.mark.parametrize("weighted", [False, True])
def test_gap_standard_errors_are_the_delta_method(metric, weighted):
    rng = np.random.default_rng(11)
    n = 90
    y = rng.integers(0, 2, n)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 2)
    p = (s >= 0.5).astype(int)
    g = rng.choice(np.array(["a", "b", "c"]), n, p=[0.5, 0.3, 0.2])
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    ev = clfeval.evaluate(y, p, s, sample_weight=w, groups=g)
    codes = np.searchsorted(["a", "b", "c"], g)
    influence = _finite_difference_influences(metric, y, p, s, w, g)
    for reference in ("overall", "b"):
        for sampling in ("cross-sectional", "by-group"):
            gaps = ev.by_group.gaps(metric, reference=reference, sampling=sampling)
            for j, group in enumerate(["a", "b", "c"]):
                if group == reference:
                    assert np.isnan(gaps.difference[j]).all()
                    continue
                psi = influence[group] - influence[reference]
                if sampling == "cross-sectional":
                    var = psi @ psi - psi.sum() ** 2 / n
                else:
                    s1, s2, m = (np.bincount(codes, weights=x) for x in (psi, psi * psi, np.ones(n)))
                    var = float((s2 - s1 * s1 / m).sum())
                assert gaps.difference[j, 3] == pytest.approx(var ** 0.5, rel=2e-6)
                # the limits: MOVER from the two numbers' own intervals and their delta-method correlation
                u, v = influence[group], influence[reference]
                if sampling == "cross-sectional":
                    cov = u @ v - u.sum() * v.sum() / n
                    var_u, var_v = u @ u - u.sum() ** 2 / n, v @ v - v.sum() ** 2 / n
                else:
                    within = lambda a, b: float(sum(a[codes == c] @ b[codes == c] - a[codes == c].sum()  # noqa: E731
                                                    * b[codes == c].sum() / (codes == c).sum() for c in range(3)))
                    cov, var_u, var_v = within(u, v), within(u, u), within(v, v)
                r = cov / (var_u * var_v) ** 0.5
                own = ev.by_group[group].ci(metric)
                ref = (ev if reference == "overall" else ev.by_group[reference]).ci(metric)
                d = own.estimate - ref.estimate
                low = d - ((own.estimate - own.low) ** 2 + (ref.high - ref.estimate) ** 2
                           - 2 * r * (own.estimate - own.low) * (ref.high - ref.estimate)) ** 0.5
                high = d + ((own.high - own.estimate) ** 2 + (ref.estimate - ref.low) ** 2
                            - 2 * r * (own.high - own.estimate) * (ref.estimate - ref.low)) ** 0.5
                assert gaps.difference[j, 1:3] == pytest.approx([low, high], rel=1e-5, abs=1e-9)
                want = ev.by_group[group].report
                assert gaps.difference[j, 0] == pytest.approx(gaps.values[j] - gaps.reference_value, abs=0)
                assert gaps.values[j] == (want.overall.get(metric) if metric in want.overall
                                          else want.rows[1][metric])


def test_gap_pvalues_and_holm():
    rng = np.random.default_rng(5)
    n = 3000
    g = rng.choice(["a", "b", "c", "d"], n)
    y = rng.integers(0, 2, n)
    # group d's predictions are much worse
    p = np.where((g == "d") & (rng.random(n) < 0.4), 1 - y, np.where(rng.random(n) < 0.15, 1 - y, y))
    gaps = clfeval.evaluate(y, p, groups=g).by_group.gaps("accuracy")
    from scipy.stats import norm

    d, lo, hi = gaps.difference[:, 0], gaps.difference[:, 1], gaps.difference[:, 2]
    half = np.where(d >= 0, d - lo, hi - d)  # the limit on the side of no difference
    np.testing.assert_allclose(gaps.pvalue, 2 * norm.sf(np.abs(d) * 1.959963984540054 / half), rtol=1e-12)
    assert ((gaps.pvalue < 0.05) == ((lo > 0) | (hi < 0))).all()  # p and the interval agree
    np.testing.assert_allclose(gaps.pvalue_holm, clfeval.stats.holm(gaps.pvalue).adjusted, rtol=1e-15)
    assert gaps.pvalue_holm[3] < 1e-10 and gaps.difference[3, 2] < 0  # d is worse, and surely so
    assert (lo <= d).all() and (d <= hi).all()
    # with hundreds of cases per group, the limits are close to the Wald limits of the delta method
    np.testing.assert_allclose(hi - d, 1.959963984540054 * gaps.difference[:, 3], rtol=0.1)
    r = gaps.ratio
    np.testing.assert_allclose(r[:, 0], gaps.values / gaps.reference_value, rtol=1e-15)
    assert (r[:, 1] < r[:, 0]).all() and (r[:, 0] < r[:, 2]).all()


def test_best_reference_is_the_best_group_and_worst_is_the_worst():
    y = np.array([0, 1] * 30)
    p = y.copy()
    p[:4] = 1 - p[:4]  # group a: 4 errors in 20
    p[20:22] = 1 - p[20:22]  # group b: 2 errors
    g = np.repeat(["a", "b", "c"], 20)
    bg = clfeval.evaluate(y, p, groups=g).by_group
    gaps = bg.gaps("accuracy", reference="best")
    assert gaps.reference == "best (c)" and gaps.reference_value == 1.0
    np.testing.assert_allclose(gaps.difference[:2, 0], [-0.2, -0.1], rtol=1e-15)
    assert bg.worst("accuracy").group == "a" and bg.worst("error_rate").group == "a"
    assert bg.worst("accuracy").value == 0.8
    assert gaps.reference_group == "c" and bg.gaps("accuracy").reference_group is None
    row = [line for line in gaps.text().splitlines() if line.startswith("c ")][0]
    assert "(the reference)" in row and "nan" not in row  # not a row of NaN gaps


def test_holm_adjusted_matches_the_stats_holm_and_skips_nan():
    p = np.array([0.04, 0.001, np.nan, 0.03, 0.5])
    got = holm_adjusted(p)
    want = clfeval.stats.holm(p[~np.isnan(p)]).adjusted
    np.testing.assert_allclose(got[~np.isnan(p)], want, rtol=1e-15)
    assert np.isnan(got[2])
    np.testing.assert_allclose(want, [0.09, 0.004, 0.09, 0.5], rtol=1e-12)  # by hand: 3*.03, 4*.001, max(.09, 3*.03)... 2*.04=.08 -> .09


fairlearn = pytest.importorskip("fairlearn.metrics")


@pytest.mark.parametrize("two_columns", [False, True])
def test_fairlearn_metricframe_and_summaries_agree(two_columns):
    import pandas as pd

    rng = np.random.default_rng(2)
    n = 500
    y = rng.integers(0, 2, n)
    p = np.where(rng.random(n) < 0.25, 1 - y, y)
    sex = rng.choice(["F", "M"], n)
    age = rng.choice(["old", "young", "mid"], n)
    groups = pd.DataFrame({"sex": sex, "age": age}) if two_columns else pd.Series(sex, name="sex")
    ev = clfeval.evaluate(y, p, groups=groups)
    mf = fairlearn.MetricFrame(metrics={"accuracy": skm.accuracy_score, "recall": skm.recall_score,
                                        "precision": skm.precision_score, "selection_rate": fairlearn.selection_rate},
                               y_true=y, y_pred=p, sensitive_features=groups)
    t = ev.by_group.table(["accuracy", "recall", "precision", "selection_rate"])
    for i, key in enumerate(t.keys):
        row = mf.by_group.loc[key]
        for metric in ("accuracy", "recall", "precision", "selection_rate"):
            assert t.column(metric)[i] == pytest.approx(row[metric], rel=1e-15)
    fair = ev.by_group.fairness(n_resamples=200)
    for name in ("demographic_parity_difference", "demographic_parity_ratio", "equalized_odds_difference",
                 "equalized_odds_ratio", "equal_opportunity_difference", "equal_opportunity_ratio"):
        want = getattr(fairlearn, name)(y, p, sensitive_features=groups)
        assert fair[name] == pytest.approx(want, rel=1e-14, abs=1e-15), name
        assert fair.entries[name]["low"] <= fair.entries[name]["high"]


def test_fairness_bootstrap_is_over_cells_and_seeded():
    rng = np.random.default_rng(4)
    n = 2000
    y = rng.integers(0, 2, n)
    p = rng.integers(0, 2, n)
    g = rng.choice(["a", "b"], n)
    bg = clfeval.evaluate(y, p, groups=g).by_group
    a = bg.fairness(method="bootstrap", n_resamples=300, seed=1)
    b = bg.fairness(method="bootstrap", n_resamples=300, seed=1)
    c = bg.fairness(method="bootstrap", n_resamples=300, seed=2)
    assert a.entries == b.entries and a.entries != c.entries
    # independent random predictions: the true parity difference is 0; max - min is positive and
    # the bootstrap interval misses 0, the simultaneous limits do not
    dp = a.entries["demographic_parity_difference"]
    assert 0 < dp["low"] < dp["high"] < 0.1
    assert bg.fairness().entries["demographic_parity_difference"]["low"] == 0.0
    w = bg.overall  # weighted rows: no interval, said so
    ev_w = clfeval.evaluate(y, p, sample_weight=np.full(n, 0.5), groups=g)
    fw = ev_w.by_group.fairness()
    assert np.isnan(fw.entries["demographic_parity_difference"]["low"]) and "weights" in fw.notes[0]
    with pytest.raises(ValueError, match="method must be 'simultaneous' or 'bootstrap'"):
        bg.fairness(method="percentile")
    assert fw["demographic_parity_difference"] == pytest.approx(a["demographic_parity_difference"], rel=1e-15)
    assert w.task == "binary"
    assert "widened" not in a.method and not any("widened" in note for note in a.notes)


def test_fairness_bootstrap_is_widened_to_the_simultaneous_limits_for_small_groups():
    """A group with fewer than 20 cases of a class: the percentile limits of max - min covered 74-86% in
    benchmarks/group_coverage.py, so they reach at least as far as the simultaneous limits there."""
    rng = np.random.default_rng(5)
    g = np.repeat(["a", "b", "c"], [120, 60, 20])
    y = (rng.random(200) < 0.3).astype(int)
    p = np.where(rng.random(200) < 0.8, y, 1 - y)
    bg = clfeval.evaluate(y, p, groups=g).by_group
    boot, simultaneous = bg.fairness(method="bootstrap", n_resamples=400, seed=3), bg.fairness()
    assert "widened to the simultaneous Wilson limits" in boot.method
    assert any("fewer than 20 cases of a class" in note for note in boot.notes)
    for name, entry in boot.entries.items():
        assert entry["low"] <= simultaneous.entries[name]["low"], name
        assert entry["high"] >= simultaneous.entries[name]["high"], name
        assert entry["low"] <= entry["value"] <= entry["high"], name


def test_several_columns_are_intersections():
    y = np.array([0, 1, 1, 0, 1, 0, 1, 1])
    p = np.array([0, 1, 0, 0, 1, 1, 1, 0])
    groups = {"sex": ["F", "F", "M", "M", "F", "M", "F", "M"], "site": [1, 1, 1, 2, 2, 2, 1, 1]}
    bg = clfeval.evaluate(y, p, groups=groups).by_group
    assert list(bg) == [("F", 1), ("F", 2), ("M", 1), ("M", 2)]
    assert bg.names == ["F, 1", "F, 2", "M, 1", "M, 2"]
    assert bg[("F", 1)] is bg["F, 1"]
    assert bg[("F", 1)].n_samples == 3 and bg[("M", 1)].n_samples == 2  # rows 0, 1, 6 and 2, 7
    assert bg[("F", 1)].report.overall["accuracy"] == 1.0 and bg[("M", 1)].report.overall["accuracy"] == 0.0
    assert bg.keys.columns == ["sex", "site"]


def test_group_inputs_of_every_library():
    import pandas as pd
    import pyarrow as pa

    y = [0, 1, 1, 0]
    p = [0, 1, 0, 0]
    for groups in (["a", "a", "b", "b"], np.array(["a", "a", "b", "b"]), pd.Series(["a", "a", "b", "b"]),
                   pd.Series(["a", "a", "b", "b"], dtype="category"), pa.array(["a", "a", "b", "b"]),
                   pa.array(["a", "a", "b", "b"]).dictionary_encode()):
        bg = clfeval.evaluate(y, p, groups=groups).by_group
        assert list(bg) == ["a", "b"] and bg["b"].report.overall["accuracy"] == 0.5
    assert group_keys(pd.Series([1, 2], name="site")).columns == ["site"]


def test_missing_group_values_error_or_keep():
    y, p = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1]
    with pytest.raises(ValuesError, match=r"group column 'group' has 2 missing value\(s\); the first is at row 1") as e:
        clfeval.evaluate(y, p, groups=["a", None, "b", np.nan, "a"])
    assert (e.value.count, e.value.position, e.value.kind) == (2, 1, "missing")
    assert "group_missing='keep'" in str(e.value)  # the keyword evaluate() takes (it said missing='keep')
    bg = clfeval.evaluate(y, p, groups=["a", None, "b", np.nan, "a"], group_missing="keep").by_group
    assert list(bg) == ["a", "b", None] and bg.names == ["a", "b", "(missing)"]
    assert bg[None].n_samples == 2 and bg["(missing)"].report.overall["accuracy"] == 1.0
    with pytest.raises(ValueError, match="missing must be 'error' or 'keep'"):
        clfeval.evaluate(y, p, groups=["a"] * 5, group_missing="drop")


def test_bad_group_arguments():
    import pandas as pd

    with pytest.raises(ValuesError, match="group 'b' has sample weights that are all zero \\(2 rows\\)"):
        clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], sample_weight=[1, 2, 0, 0], groups=["a", "a", "b", "b"])
    with pytest.raises(ValueError, match="y_true has 3 samples but group column 'group' has 2"):
        clfeval.evaluate([0, 1, 1], [0, 1, 0], groups=["a", "b"])
    df = pd.DataFrame([["a", "b"], ["a", "c"]], columns=["g", "g"])
    with pytest.raises(ValueError, match="names the column 'g' twice"):
        clfeval.evaluate([0, 1], [0, 1], groups=df)
    with pytest.raises(TypeError, match="got a scalar"):
        clfeval.evaluate([0, 1], [0, 1], groups="a")
    ev = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], groups=["a", "a", "b", "b"])
    with pytest.raises(ValueError, match="unknown metric 'recal'"):
        ev.by_group.table(["recal"])
    with pytest.raises(KeyError, match="no group 'z'"):
        ev.by_group.gaps("accuracy", reference="z")
    with pytest.raises(ValueError, match="sampling must be one of"):
        ev.by_group.gaps("accuracy", sampling="stratified")


def test_a_group_at_the_edge_is_not_known_exactly():
    """Recall 9/9 in a small group: every case's influence is 0, and a Wald gap would call it
    certain (p = 0.01 against an overall of 0.91); the MOVER limits keep the group's own Wilson
    interval (0.70, 1): lower limit = d - sqrt((1 - 0.7008)^2 + (u_overall - p_overall)^2)."""
    y = np.array([1] * 9 + [0] * 41 + [1] * 60 + [0] * 40)
    p = y.copy()
    p[50:56] = 0  # 6 of the 60 positives of group b missed
    g = np.array(["a"] * 50 + ["b"] * 100)
    ev = clfeval.evaluate(y, p, groups=g)
    gap = ev.by_group.gaps("recall")
    own, overall = ev.by_group["a"].ci("recall"), ev.ci("recall")
    assert (own.low, own.high) == pytest.approx((0.7008, 1.0), abs=1e-4)  # Wilson 9/9
    d = 1 - 63 / 69
    assert gap.difference[0, 0] == pytest.approx(d, rel=1e-14)
    low = d - ((1 - own.low) ** 2 + (overall.high - overall.estimate) ** 2) ** 0.5  # r = 0: no influence
    high = d + (overall.estimate - overall.low)
    assert gap.difference[0, 1:3] == pytest.approx([low, high], rel=1e-12)
    assert gap.difference[0, 1] < 0 < gap.difference[0, 2] and gap.pvalue[0] > 0.2


def test_one_group_and_one_class_groups():
    y = np.array([0, 0, 0, 1, 1, 0])
    s = np.array([0.1, 0.6, 0.3, 0.8, 0.4, 0.2])
    ev = clfeval.evaluate(y, y_score=s, groups=["neg", "neg", "neg", "mix", "mix", "mix"])
    bg = ev.by_group
    t = bg.table(["accuracy", "recall", "roc_auc"], ci=0.95)
    row = t.rows()[t.groups.index("neg")]
    assert row["accuracy"] == 2 / 3 and row["recall"] is not None and np.isnan(row["recall"])
    assert np.isnan(row["roc_auc"]) and any("roc_auc: undefined" in n for n in row["notes"])
    assert any("recall: undefined (no true samples of class '1'" in n for n in row["notes"])
    gaps = bg.gaps("roc_auc")
    assert np.isnan(gaps.difference[gaps.groups.index("neg")]).all()
    single = clfeval.evaluate(y, y_score=s, groups=["x"] * 6).by_group
    gap = single.gaps("accuracy")
    assert gap.difference[0, 0] == 0 and gap.difference[0, 3] == 0 and gap.pvalue[0] == 1.0


def test_many_groups_warn_and_tables_keep_the_worst(monkeypatch):
    import clfeval.evaluation.groups as groups_module

    monkeypatch.setattr(groups_module, "MAX_GROUPS", 3)
    y = np.array([0, 1] * 10)
    p = y.copy()
    p[[0, 2, 4, 6]] = 1  # errors in groups 0, 1, 2, 3 (two rows each)
    p[[1]] = 0
    g = np.arange(20) // 2
    with pytest.warns(UserWarning, match="10 groups: every group is evaluated, but tables show the 3 worst"):
        ev = clfeval.evaluate(y, p, groups=g)
    t = ev.by_group.table(["accuracy"], max_groups=3)
    assert t.omitted == 7 and t.keys == [0, 1, 2] and t.column("accuracy").tolist() == [0.0, 0.5, 0.5]
    assert "... 7 more group(s) not shown" in t.text()


def test_order_of_rows_does_not_matter():
    rng = np.random.default_rng(8)
    n = 200
    y = rng.integers(0, 3, n)
    s = rng.dirichlet(np.ones(3), n)
    g = rng.choice(["a", "b", "c"], n)
    perm = rng.permutation(n)
    a = clfeval.evaluate(y, y_score=s, groups=g).by_group.table(ci=0.95)
    b = clfeval.evaluate(y[perm], y_score=s[perm], groups=g[perm]).by_group.table(ci=0.95)
    np.testing.assert_allclose(a.values, b.values, rtol=1e-13)
    np.testing.assert_allclose(a.low, b.low, rtol=1e-10)
    ga = clfeval.evaluate(y, y_score=s, groups=g).by_group.gaps("roc_auc")
    gb = clfeval.evaluate(y[perm], y_score=s[perm], groups=g[perm]).by_group.gaps("roc_auc")
    np.testing.assert_allclose(ga.difference, gb.difference, rtol=1e-10)


def test_group_evaluations_is_a_mapping():
    ev = clfeval.evaluate([0, 1, 1, 0], [0, 1, 0, 0], groups=["b", "a", "b", "a"], name="m")
    bg = ev.by_group
    assert isinstance(bg, GroupEvaluations) and len(bg) == 2 and "a" in bg and "z" not in bg
    assert bg["a"].name == "m: a" and repr(bg) == "GroupEvaluations(2 groups by group: a, b)"
    assert ev.by_group.overall.by_group is None  # the overall held inside has no groups of its own


def test_at_another_threshold_moves_every_group():
    rng = np.random.default_rng(6)
    n = 120
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n), 2)
    g = rng.choice(["a", "b"], n)
    ev = clfeval.evaluate(y, y_score=s, groups=g).at(0.3)
    assert ev.by_group.overall is ev.by_group.overall and ev.by_group.overall.threshold == 0.3
    for key in ("a", "b"):
        want = clfeval.evaluate(y[g == key], y_score=s[g == key], labels=[0, 1], pos_label=1, threshold=0.3)
        assert ev.by_group[key].confusion.counts.tolist() == want.confusion.counts.tolist()
        assert ev.by_group[key].ci("recall").high == want.ci("recall").high
    gaps = ev.by_group.gaps("recall")
    assert gaps.reference_value == ev.report.rows[1]["recall"]


def test_a_categorical_column_keeps_its_categories_order():
    import pandas as pd

    size = pd.Categorical(["large", "small", "medium", "small", None], categories=["small", "medium", "large", "huge"])
    keys = group_keys(pd.Series(size), missing="keep")
    assert keys.keys == ["small", "medium", "large", None] and keys.codes.tolist() == [2, 0, 1, 0, 3]
    assert keys.sizes.tolist() == [2, 1, 1, 1]
    bg = clfeval.evaluate([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], groups=pd.Series(size), group_missing="keep").by_group
    assert bg.names == ["small", "medium", "large", "(missing)"] and bg["small"].report.overall["accuracy"] == 1.0



def test_fairness_limits_from_simultaneous_wilson_intervals():
    """Two groups, selection rates 10/100 and 30/100: each group's Wilson interval at 1 - 0.05 / 2
    (Bonferroni over the groups); max - min lies in [l_b - u_a, u_b - l_a], min / max in [l_a / u_b, u_a / l_b]."""
    from clfeval.uncertainty import proportion_ci

    y = np.zeros(200, int)
    p = np.zeros(200, int)
    p[:10] = 1
    p[100:130] = 1
    g = np.repeat(["a", "b"], 100)
    f = clfeval.evaluate(y, p, labels=[0, 1], pos_label=1, groups=g).by_group.fairness()
    a, b = proportion_ci(10, 100, level=0.975), proportion_ci(30, 100, level=0.975)
    dp, ratio = f.entries["demographic_parity_difference"], f.entries["demographic_parity_ratio"]
    assert (dp["value"], dp["low"], dp["high"]) == pytest.approx((0.2, b.low - a.high, b.high - a.low), rel=1e-14)
    assert (ratio["low"], ratio["high"]) == pytest.approx((a.low / b.high, a.high / b.low), rel=1e-14)
    assert np.isnan(f.entries["equal_opportunity_difference"]["value"])  # no positives: no TPR
