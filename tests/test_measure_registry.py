"""The registry-driven common test (in the manner of scikit-learn's ``tests/test_common.py``): every
measure of :data:`clfeval.formulas.measure_registry.MEASURES` with a formula of counts is checked for

* range: its finite values lie within [lower, upper];
* batch = one-by-one: the formula over a stack of count arrays equals it applied to each one;
* merge = concatenation: counts of two parts of the data, merged, give the value of the counts of
  the concatenated data;
* the symmetries the registry declares: scale invariance (every count times c > 0), the measure
  it becomes when the classes swap roles, and when truth and prediction swap roles;
* ``undefined_because`` set exactly when the formula can be undefined (NaN) on a table with data;

and every measure that the report, the intervals, the threshold sweep, operating points, the
HTML headline and the cross-evaluation names produce is registered.

Count tables are drawn to reach the edges (zeros, absent classes, ties, fractional weights,
integer counts past 2**53 where the formulas divide exactly) but are mostly plain counts.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clfeval.formulas import measures as m
from clfeval.formulas.measure_registry import MEASURES, Measure, label, measures_of_kind, resolve, title, undefined_because

# 25 examples per measure and property under the default profile (its 40 over ~20 measures is
# slow), the profile's own number under "thorough"
FEW = settings(max_examples=25 if settings.default.max_examples <= 40 else settings.default.max_examples)

#: every registered measure with a formula of counts, and two members of the F-beta family
FORMULA_MEASURES: list[Measure] = [mm for mm in MEASURES.values() if mm.formula is not None] + [
    resolve("f2"), resolve("f0.5")
]
IDS = [mm.name for mm in FORMULA_MEASURES]


# --------------------------------------------------------------------------------------------
# strategies
# --------------------------------------------------------------------------------------------
def _cell(regime: str) -> st.SearchStrategy:
    if regime == "small":  # plain counts, zeros often
        return st.one_of(st.just(0), st.integers(0, 3), st.integers(0, 40))
    if regime == "big":  # integer counts whose sums pass 2**53 (the exact paths)
        return st.one_of(st.just(0), st.integers(1, 5), st.integers(2**53, 2**58))
    # fractional weights, with exact zeros and ties
    return st.one_of(st.just(0.0), st.just(0.5), st.floats(1e-3, 1e3, allow_nan=False, allow_infinity=False))


@st.composite
def tables(draw: st.DrawFn, n_tables: int | None = None, min_k: int = 2, max_k: int = 4) -> np.ndarray:
    """A stack (B, k, k) of confusion tables (rows true, columns predicted), one regime for all
    (small counts mostly; sometimes fractional weights or counts past 2**53)."""
    regime = draw(st.sampled_from(["small"] * 6 + ["float"] * 3 + ["big"]))
    k = draw(st.integers(min_k, 3 if regime == "big" else max_k))
    b = n_tables if n_tables is not None else draw(st.integers(1, 5))
    cells = draw(st.lists(_cell(regime), min_size=b * k * k, max_size=b * k * k))
    dtype = np.float64 if regime == "float" else np.int64
    out = np.array(cells, dtype=dtype).reshape(b, k, k)
    if draw(st.integers(0, 4)) == 0:  # an absent class: its row (never true) or column (never predicted)
        c = draw(st.integers(0, k - 1))
        if draw(st.booleans()):
            out[:, c, :] = 0
        else:
            out[:, :, c] = 0
    return out


@st.composite
def quadruples(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One-vs-rest counts (tp, fp, fn, tn), each of shape (B,), one regime for all."""
    regime = draw(st.sampled_from(["small"] * 6 + ["float"] * 3 + ["big"]))
    b = draw(st.integers(1, 6))
    cells = draw(st.lists(_cell(regime), min_size=4 * b, max_size=4 * b))
    q = np.array(cells, dtype=np.float64 if regime == "float" else np.int64).reshape(4, b)
    return q[0], q[1], q[2], q[3]


def apply(measure: Measure, cm: np.ndarray) -> np.ndarray:
    """The measure of tables (..., k, k): per class (..., k) for a per-class rate, else (...)."""
    if measure.kind == "per_class":
        return np.asarray(measure.formula(*m.one_vs_rest(cm)), dtype=np.float64)
    return np.asarray(measure.formula(cm), dtype=np.float64)


def same(a: np.ndarray, b: np.ndarray) -> None:
    """Exactly equal, NaN where the other is NaN."""
    np.testing.assert_array_equal(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))


def close(a: np.ndarray, b: np.ndarray) -> None:
    """Equal up to the rounding of reordered float sums, to the suite's 1e-12 (sums of products
    that cancel, as in MCC and kappa near 0, leave absolute errors of many ulps)."""
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                               rtol=1e-12, atol=1e-12, equal_nan=True)


# --------------------------------------------------------------------------------------------
# the registry itself
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("measure", list(MEASURES.values()), ids=list(MEASURES))
def test_entries_are_complete_and_consistent(measure: Measure) -> None:
    assert measure.name and measure.title and measure.description and measure.label and measure.short
    assert measure.lower < measure.upper
    assert measure.kind in ("per_class", "overall", "area", "count", "ranking", "calibration")
    if measure.undefined_because is not None:
        assert measure.undefined_because.strip() == measure.undefined_because != ""
    for other in (measure.swap_classes, measure.swap_truth):
        assert other is None or other in MEASURES
    assert resolve(measure.name) is measure and title(measure.name) == measure.title
    assert label(measure.name) == measure.label and undefined_because(measure.name) == measure.undefined_because
    for alias in measure.aliases:
        assert alias not in MEASURES and resolve(alias) is measure


def test_symmetries_are_mutual() -> None:
    """A swap applied twice is the identity: A -> B implies B -> A (a stated, not a tested, fact)."""
    for measure in MEASURES.values():
        for attr in ("swap_classes", "swap_truth"):
            other = getattr(measure, attr)
            if other is not None:
                assert getattr(MEASURES[other], attr) == measure.name, (measure.name, attr)


def test_aliases_are_unique_and_fbeta_keys_resolve() -> None:
    aliases = [a for mm in MEASURES.values() for a in mm.aliases]
    assert len(aliases) == len(set(aliases))
    assert resolve("f2").title == "f2-score" and resolve("f0.5").label == "F0.5"
    assert resolve("fbeta").label == "F-beta" and label("fbeta", 3.0) == "F3"
    for name in ("fallout_macro", "fnan", "f-1", "f02", "foo", "precision_weighted"):
        assert resolve(name) is None


# --------------------------------------------------------------------------------------------
# (a) range
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("measure", FORMULA_MEASURES, ids=IDS)
@FEW
@given(cm=tables())
def test_range(measure: Measure, cm: np.ndarray) -> None:
    v = apply(measure, cm)
    finite = v[np.isfinite(v)]
    assert not np.isinf(v).any()
    # integer counts: within the bounds exactly; float weights: the suite's 1e-12, except MCC, a
    # correlation clipped to [-1, 1] (its float products could pass +-1 by some ulps)
    slack = 0.0 if cm.dtype.kind == "i" or measure.name == "mcc" else 1e-12
    assert (finite >= measure.lower - slack).all() and (finite <= measure.upper + slack).all(), (
        finite.min(), finite.max())


# --------------------------------------------------------------------------------------------
# (b) batch = one-by-one
# --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("measure", FORMULA_MEASURES, ids=IDS)
@FEW
@given(cm=tables())
def test_batch_equals_one_by_one(measure: Measure, cm: np.ndarray) -> None:
    batch = apply(measure, cm)
    for i in range(cm.shape[0]):
        same(batch[i], apply(measure, cm[i]))
    if measure.kind == "per_class":  # and each class's counts alone, as 0-d arrays
        tp, fp, fn, tn = m.one_vs_rest(cm)
        for i, j in np.ndindex(tp.shape):
            same(batch[i, j], measure.formula(tp[i, j], fp[i, j], fn[i, j], tn[i, j]))
    if cm.shape[0] > 1:  # a deeper batch shape (2, B/2...) reads the same
        half = cm.shape[0] // 2 * 2
        deep = cm[:half].reshape((2, half // 2) + cm.shape[1:])
        same(apply(measure, deep).reshape(batch[:half].shape), batch[:half])


# --------------------------------------------------------------------------------------------
# (c) merge = concatenation
# --------------------------------------------------------------------------------------------
@st.composite
def split_data(draw: st.DrawFn) -> tuple[int, np.ndarray, np.ndarray, np.ndarray | None, int]:
    """(k, y_true codes, y_pred codes, weights or None, split point) with ties and absent classes."""
    k = draw(st.integers(2, 4))
    n = draw(st.integers(1, 40))
    used = draw(st.integers(1, k))  # classes beyond ``used`` never appear
    codes = st.lists(st.integers(0, used - 1), min_size=n, max_size=n)
    yt, yp = np.array(draw(codes)), np.array(draw(codes))
    kind = draw(st.sampled_from(["none", "none", "int", "float"]))
    w = None
    if kind == "int":
        w = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), dtype=np.int64)
    elif kind == "float":
        w = np.array(draw(st.lists(st.one_of(st.just(0.0), st.floats(1e-3, 10.0)), min_size=n, max_size=n)))
    return k, yt, yp, w, draw(st.integers(0, n))


def _counts(k: int, yt: np.ndarray, yp: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    if w is None or w.dtype.kind == "i":
        ones = np.ones(yt.size, dtype=np.int64) if w is None else w
        return np.bincount(yt * k + yp, weights=None, minlength=k * k).reshape(k, k) if w is None else \
            np.array([ones[(yt == i) & (yp == j)].sum() for i in range(k) for j in range(k)],
                     dtype=np.int64).reshape(k, k)
    return np.bincount(yt * k + yp, weights=w, minlength=k * k).reshape(k, k)


@pytest.mark.parametrize("measure", FORMULA_MEASURES, ids=IDS)
@FEW
@given(data=split_data())
def test_merge_equals_concatenation(measure: Measure, data) -> None:
    k, yt, yp, w, cut = data
    wa, wb = (None, None) if w is None else (w[:cut], w[cut:])
    merged = _counts(k, yt[:cut], yp[:cut], wa) + _counts(k, yt[cut:], yp[cut:], wb)
    whole = _counts(k, yt, yp, w)
    if whole.dtype.kind == "i":  # integer counts add exactly: the very same value
        assert np.array_equal(merged, whole)
        same(apply(measure, merged), apply(measure, whole))
    else:  # float weights summed in another order
        close(apply(measure, merged), apply(measure, whole))


def test_merge_of_clfeval_counts_equals_concatenation() -> None:
    """The same through clfeval's own statistic, ConfusionCounts.merge, for every measure."""
    from clfeval.statistics.counts import ConfusionCounts

    rng = np.random.default_rng(7)
    for weighted in (False, True):
        yt, yp = rng.integers(0, 3, 200), rng.integers(0, 3, 200)
        yp[:30] = yt[:30]
        w = rng.uniform(0.1, 3.0, 200) if weighted else None
        labels = np.arange(3)
        parts = [ConfusionCounts.from_labels(yt[s], yp[s], labels=labels,
                                             sample_weight=None if w is None else w[s])
                 for s in (slice(0, 77), slice(77, 200))]
        merged = parts[0].merge(parts[1]).table
        whole = ConfusionCounts.from_labels(yt, yp, labels=labels, sample_weight=w).table
        for measure in FORMULA_MEASURES:
            (close if weighted else same)(apply(measure, merged), apply(measure, whole))


# --------------------------------------------------------------------------------------------
# (d) symmetries and invariances declared in the registry
# --------------------------------------------------------------------------------------------
SCALE_INVARIANT = [mm for mm in FORMULA_MEASURES if mm.scale_invariant]


@pytest.mark.parametrize("measure", SCALE_INVARIANT, ids=[mm.name for mm in SCALE_INVARIANT])
@FEW
@given(cm=tables(), q=quadruples(), power=st.integers(-8, 8), c=st.floats(1e-3, 1e3))
def test_scale_invariance(measure: Measure, cm: np.ndarray, q, power: int, c: float) -> None:
    """Every count times c > 0: the same value (exactly for integer multiples and powers of two)."""
    if measure.kind == "per_class":  # the formula of one-vs-rest counts
        base = measure.formula(*q)
        if q[0].dtype.kind == "i":
            room = 61 - int(sum(int(x.max()) for x in q)).bit_length()  # no int64 overflow
            same(measure.formula(*(x * (1 << min(abs(power), max(room, 0))) for x in q)), base)
        else:
            same(measure.formula(*(x * 2.0**power for x in q)), base)
        if q[0].dtype.kind == "f" or max(x.max() for x in q) < 2**40:
            close(measure.formula(*(np.asarray(x, dtype=np.float64) * c for x in q)), base)
    base = apply(measure, cm)
    if cm.dtype.kind == "i":  # integer multiples stay integer counts: the value exactly
        room = 61 - int(cm.sum()).bit_length()
        same(apply(measure, cm * (1 << min(abs(power), max(room, 0)))), base)
    # whole float tables: overall measures only (per class, one_vs_rest's tn = total - tp - fp - fn
    # rounds differently at every scale, and cancels where tn is small)
    if measure.kind == "overall" and cm.dtype.kind == "f":
        same(apply(measure, cm * 2.0**power), base)
    if measure.kind == "overall" and (cm.dtype.kind == "f" or cm.max() < 2**40):
        close(apply(measure, cm.astype(np.float64) * c), base)


def _class_swap(cm: np.ndarray) -> np.ndarray:
    return cm[..., ::-1, ::-1]  # two classes: positive <-> negative; k classes: a relabelling


SWAP_CLASSES = [mm for mm in FORMULA_MEASURES if mm.swap_classes]
SWAP_TRUTH = [mm for mm in FORMULA_MEASURES if mm.swap_truth]


@pytest.mark.parametrize("measure", SWAP_CLASSES, ids=[mm.name for mm in SWAP_CLASSES])
@FEW
@given(cm=tables(), q=quadruples(), data=st.data())
def test_swapping_classes(measure: Measure, cm: np.ndarray, q, data) -> None:
    other = MEASURES[measure.swap_classes]
    if measure.kind == "per_class":  # one-vs-rest counts of class and rest change roles
        tp, fp, fn, tn = q
        exact = measure.name != "youden_j"  # youden: rec - (1 - spec) = spec - (1 - rec), in floats
        (same if exact else close)(other.formula(tn, fn, fp, tp), measure.formula(tp, fp, fn, tn))
        if cm.dtype.kind == "i":  # a two-class table: class 0's measure is class 1's other measure
            two = cm[:, :2, :2]  # (float weights: one_vs_rest's tn = total - tp - fp - fn rounds)
            (same if exact else close)(apply(other, two)[..., 1], apply(measure, two)[..., 0])
    else:  # any relabelling of the classes: rows and columns permuted together
        perm = np.array(data.draw(st.permutations(range(cm.shape[-1]))))
        close(apply(other, cm[..., perm, :][..., :, perm]), apply(measure, cm))
        close(apply(other, _class_swap(cm)), apply(measure, cm))


@pytest.mark.parametrize("measure", SWAP_TRUTH, ids=[mm.name for mm in SWAP_TRUTH])
@FEW
@given(cm=tables(), q=quadruples())
def test_swapping_truth_and_prediction(measure: Measure, cm: np.ndarray, q) -> None:
    other = MEASURES[measure.swap_truth]
    transposed = np.swapaxes(cm, -1, -2)
    if measure.kind == "per_class":  # fp <-> fn: exactly the same arithmetic
        tp, fp, fn, tn = q
        same(other.formula(tp, fn, fp, tn), measure.formula(tp, fp, fn, tn))
        if cm.dtype.kind == "i":  # (float tables: one_vs_rest's tn sums rows, then columns)
            same(apply(other, transposed), apply(measure, cm))
    else:
        close(apply(other, transposed), apply(measure, cm))


# --------------------------------------------------------------------------------------------
# (e) undefined_because exactly where the formula can be 0/0
# --------------------------------------------------------------------------------------------
def _all_small_tables() -> list[np.ndarray]:
    """Every table with data of 2 and 3 classes whose cells are 0 or 1 (every pattern of empty
    cells, hence every way a ratio of counts can be 0/0)."""
    out = []
    for k in (2, 3):
        grid = np.array(list(itertools.product((0, 1), repeat=k * k)), dtype=np.int64)[1:]
        out.append(grid.reshape(-1, k, k))
    return out


@pytest.mark.parametrize("measure", FORMULA_MEASURES, ids=IDS)
def test_undefined_because_exactly_where_undefined(measure: Measure) -> None:
    can_be_nan = any(np.isnan(apply(measure, stack)).any() for stack in _all_small_tables())
    assert can_be_nan == (measure.undefined_because is not None), (
        f"{measure.name}: NaN on some table with data: {can_be_nan}; "
        f"undefined_because: {measure.undefined_because!r}"
    )


@pytest.mark.parametrize("measure", [mm for mm in FORMULA_MEASURES if mm.undefined_because is None],
                         ids=[mm.name for mm in FORMULA_MEASURES if mm.undefined_because is None])
@FEW
@given(cm=tables())
def test_never_undefined_with_data(measure: Measure, cm: np.ndarray) -> None:
    """A measure without an undefined_because text is a number on every table with data."""
    has_data = cm.sum(axis=(-2, -1)) > 0
    v = apply(measure, cm)
    assert not np.isnan(v[has_data]).any()


# --------------------------------------------------------------------------------------------
# (f) whatever the views produce is registered
# --------------------------------------------------------------------------------------------
def _assert_registered(names, where: str) -> None:
    missing = sorted({n for n in names if resolve(n) is None})
    assert not missing, f"{where} produces measures missing from MEASURES: {missing}"


@pytest.fixture(scope="module")
def evaluations():
    import clfeval

    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 60)
    scores = rng.dirichlet(np.ones(3), 60)
    multi = clfeval.evaluate(y, y_score=scores, beta=2.0)
    yb = rng.integers(0, 2, 60)
    binary = clfeval.evaluate(yb, y_score=rng.uniform(size=60), beta=0.5)
    ml = clfeval.evaluate(rng.integers(0, 2, (60, 3)), rng.integers(0, 2, (60, 3)))
    return [multi, binary, ml]


def test_report_numbers_are_registered(evaluations) -> None:
    for ev in evaluations:
        rep = ev.report
        _assert_registered(rep.columns, "the report's columns")
        _assert_registered(rep.overall, "the report's overall numbers")
        for row in rep.averages.values():
            _assert_registered([c for c in row if c != "label"], "the report's averages")


def test_interval_numbers_are_registered(evaluations) -> None:
    for ev in evaluations[:2]:
        iv = ev.intervals()
        _assert_registered(iv["per_class"], "intervals (per class)")
        _assert_registered(iv["overall"], "intervals (overall)")
        for row in iv["averages"].values():
            _assert_registered(row, "intervals (averages)")


def test_sweep_operating_point_and_view_names_are_registered() -> None:
    from clfeval.cross_evaluation.metric_names import METRICS, SCORE_METRICS
    from clfeval.results.operating_points import ThresholdPoint
    from clfeval.report.html_tables import HEADLINE
    from clfeval.results.threshold_sweep import SWEEP_METRICS

    _assert_registered(SWEEP_METRICS, "the threshold sweep")
    _assert_registered(ThresholdPoint._RATES, "operating points")
    _assert_registered([k for k, _, _ in HEADLINE], "the HTML headline")
    _assert_registered([k for k in METRICS if k not in ("f1_macro", "f1_of_macros", "<column>_<average>")],
                       "cross-evaluation")
    _assert_registered(SCORE_METRICS, "cross-evaluation scores")
    for key, text, higher in HEADLINE:  # the headline's titles and directions are the registry's
        assert text == MEASURES[key].title and higher == MEASURES[key].higher_is_better


def _with_formula(*kinds: str) -> list[str]:
    """The registered measures of these kinds that have a formula of counts, in registry order."""
    return [mm.name for kind in kinds for mm in measures_of_kind(kind) if mm.formula is not None]


def test_sweep_columns_are_the_registrys_measures() -> None:
    """The sweep's measure columns are exactly the registry's measures with a formula of one-vs-rest
    counts or of a whole table, each once ("fpr": fall-out's alias; "fbeta": the F-beta of the
    sweep's beta, a second F column beside "f1"), and every column is the registry's formula."""
    from clfeval.formulas.measure_registry import fbeta_measure
    from clfeval.statistics.rankings import BinaryRanking
    from clfeval.results.threshold_sweep import SWEEP_COLUMNS, SWEEP_METRICS, threshold_sweep_of

    assert SWEEP_COLUMNS == ("threshold", "tp", "fp", "fn", "tn", *SWEEP_METRICS)
    names = [resolve(n).name for n in SWEEP_METRICS if n != "fbeta"]
    assert sorted(names) == sorted(_with_formula("per_class", "overall"))  # each once, none missing
    assert "fbeta" in SWEEP_METRICS and resolve("fbeta").kind == "per_class"

    rng = np.random.default_rng(11)
    y, scores = rng.integers(0, 2, 80).astype(bool), np.round(rng.uniform(size=80), 1)  # ties
    for w in (None, rng.uniform(0.1, 5.0, 80)):
        ranking = BinaryRanking(scores, w, y)
        sweep = threshold_sweep_of(ranking, beta=2.0)
        assert sweep.names == list(SWEEP_COLUMNS)
        c = ranking.counts_at_thresholds(None)
        for name in SWEEP_METRICS:
            measure = fbeta_measure(2.0) if name == "fbeta" else resolve(name)
            want = measure.formula(c.matrices()) if measure.kind == "overall" else measure.formula(
                c.tp, c.fp, c.fn, c.tn)
            # the predicted positive rate divides by the tables' sums, in another order than the
            # registry's tp + fp + fn + tn: with float weights, equal to rounding
            (close if name == "predicted_positive_rate" and w is not None else same)(sweep.column(name), want)


def test_interval_measures_are_the_registrys(evaluations) -> None:
    """The intervals give exactly the registry's report rates of one-vs-rest counts per class and
    averaged (the F column named by beta), its measures of a whole table overall, and with scores
    its areas; the delta method's ranges are the registry's."""
    from clfeval.formulas.measure_gradients import f_column
    from clfeval.uncertainty.confusion_measures import MEASURE_RANGES, confusion_metrics

    areas = [mm.name for mm in measures_of_kind("area")]
    overall = _with_formula("overall")
    for ev, beta in zip(evaluations[:2], (2.0, 0.5)):
        rates = [f_column(beta) if mm.name == "f1" else mm.name
                 for mm in measures_of_kind("per_class") if mm.in_report]
        iv = ev.intervals()
        assert list(iv["per_class"]) == rates + areas
        # a multi-class task with scores adds Hand & Till's M (registry kind "ranking") overall
        ovo = [mm.name for mm in measures_of_kind("ranking") if mm.name.startswith("ovo_auc")]
        assert list(iv["overall"]) == overall + areas + (ovo if ev.task == "multiclass" else [])
        assert list(ev.report.overall)[len(overall) + len(areas):] == (ovo if ev.task == "multiclass" else [])
        for row in iv["averages"].values():  # micro areas only where they are defined
            assert list(row)[:len(rates)] == rates and set(list(row)[len(rates):]) <= set(areas)
        keys = confusion_metrics(np.array([[5, 1, 0], [2, 6, 1], [0, 3, 4]]), beta)
        assert sorted(keys) == sorted([(s, r) for s in ("per_class", "micro", "macro", "weighted") for r in rates]
                                      + [("overall", o) for o in overall])
    in_report = [mm.name for mm in measures_of_kind("per_class") if mm.in_report] + overall
    ranges = {n: (MEASURES[n].lower, MEASURES[n].upper) for n in in_report}
    assert MEASURE_RANGES == {n: r for n, r in ranges.items() if r != (0.0, 1.0)}
    assert MEASURE_RANGES == {"mcc": (-1.0, 1.0), "kappa": (-1.0, 1.0)}


def test_kinds_cover_the_report() -> None:
    per_class = [mm.name for mm in measures_of_kind("per_class") if mm.in_report]
    assert per_class == ["precision", "recall", "f1", "fallout", "specificity", "npv"]
    assert [mm.name for mm in measures_of_kind("area")] == ["roc_auc", "average_precision"]


# --------------------------------------------------------------------------------------------
# the formulas against their definitions (a consistent error keeps every property above)
# --------------------------------------------------------------------------------------------
def _q(a, b):
    return None if b == 0 else Fraction(a, b)


def _fb(beta: float):
    b2 = Fraction(beta) ** 2
    return lambda tp, fp, fn, tn: _q((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)


#: the textbook definitions, in exact rationals (None: 0/0), of one-vs-rest counts
DEFINITIONS = {
    "precision": lambda tp, fp, fn, tn: _q(tp, tp + fp),
    "recall": lambda tp, fp, fn, tn: _q(tp, tp + fn),
    "f1": _fb(1.0), "f2": _fb(2.0), "f0.5": _fb(0.5),
    "fallout": lambda tp, fp, fn, tn: _q(fp, fp + tn),
    "specificity": lambda tp, fp, fn, tn: _q(tn, tn + fp),
    "npv": lambda tp, fp, fn, tn: _q(tn, tn + fn),
    "predicted_positive_rate": lambda tp, fp, fn, tn: _q(tp + fp, tp + fp + fn + tn),
    "youden_j": lambda tp, fp, fn, tn: (None if tp + fn == 0 or fp + tn == 0
                                         else _q(tp, tp + fn) - _q(fp, fp + tn)),
}


def _overall_definition(name: str, t: list[list[int]]):
    k = len(t)
    n = sum(map(sum, t))
    rows = [sum(r) for r in t]
    cols = [sum(t[i][j] for i in range(k)) for j in range(k)]
    agree = sum(t[i][i] for i in range(k))
    if name == "accuracy":
        return _q(agree, n)
    if name == "error_rate":
        return _q(n - agree, n)
    if name == "balanced_accuracy":
        recalls = [_q(t[i][i], rows[i]) for i in range(k) if rows[i]]
        return sum(recalls) / len(recalls) if recalls else None
    if name == "kappa":
        chance = sum(Fraction(rows[i] * cols[i], n * n) for i in range(k)) if n else None
        return None if chance is None or chance == 1 else (Fraction(agree, n) - chance) / (1 - chance)
    if name == "mcc":
        cov = agree * n - sum(r * c for r, c in zip(rows, cols))
        den = (n * n - sum(c * c for c in cols)) * (n * n - sum(r * r for r in rows))
        return 0.0 if den == 0 else cov / math.sqrt(den)
    raise KeyError(name)


@pytest.mark.parametrize("measure", FORMULA_MEASURES, ids=IDS)
@FEW
@given(cm=tables())
def test_formula_matches_its_definition(measure: Measure, cm: np.ndarray) -> None:
    if cm.dtype.kind != "i" or cm.max() >= 2**40:  # exact rationals of plain counts
        cm = np.minimum(np.rint(np.abs(cm)), 1000).astype(np.int64)
    got = apply(measure, cm)
    for i in range(cm.shape[0]):
        t = cm[i].tolist()
        if measure.kind == "per_class":
            tp, fp, fn, tn = (np.asarray(x).tolist() for x in m.one_vs_rest(cm[i]))
            want = [DEFINITIONS[measure.name](*c) for c in zip(tp, fp, fn, tn)]
        else:
            want = [_overall_definition(measure.name, t)]
        want = np.array([np.nan if w is None else float(w) for w in want])
        np.testing.assert_allclose(np.atleast_1d(got[i]), want, rtol=1e-12, atol=1e-15, equal_nan=True)
