"""Large label sets (issue 16, section 4): pair-coded confusion counts instead of a k x k table.

* values at 2*10^4 classes equal scikit-learn's (which can still afford them);
* on small label sets, counts forced pair-coded (``sparse_counts.SPARSE_ABOVE = 0``) give every
  metric, warning and report number of the dense counts, and scikit-learn's values (hypothesis);
* the pair-coded counts are a monoid: merging the counts of two parts gives the counts of the whole;
* ``clfeval report`` on 10^5 labels in 2*10^5 rows: exit 0, a truncated table that says so, JSON
  numbers equal to scikit-learn's; ``evaluate()`` at 10^5 labels stays under 1.5 GiB of RSS.
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import clfeval
import clfeval.metrics as cm
from clfeval.statistics import sparse_counts
from clfeval.statistics.counts import ConfusionCounts
from clfeval.formulas.exact_sums import float_table_needs_exact
from clfeval.statistics.sparse_counts import PairCounts

SRC = str(Path(clfeval.__file__).resolve().parents[1])


def _data(k: int, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """n rows over about k classes, half of them predicted right."""
    rng = np.random.default_rng(seed)
    yt = rng.integers(0, k, n)
    yp = np.where(rng.random(n) < 0.5, yt, rng.integers(0, k, n))
    return yt, yp


@contextlib.contextmanager
def forced_pairs():
    """Every confusion table pair-coded, whatever its size."""
    old = sparse_counts.SPARSE_ABOVE
    sparse_counts.SPARSE_ABOVE = 0
    try:
        yield
    finally:
        sparse_counts.SPARSE_ABOVE = old


# ------------------------------------------------------------------------------------------
# 2 * 10^4 classes: scikit-learn as the oracle
# ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def big20k():
    return _data(20_000, 200_000, seed=1)


def test_counts_are_pair_coded_at_20000_classes(big20k):
    yt, yp = big20k
    counts = ConfusionCounts.from_labels(yt, yp)
    assert isinstance(counts, PairCounts)
    assert counts.k == np.unique(np.concatenate([yt, yp])).size
    assert counts.codes.size <= yt.size and int(counts.total) == yt.size
    np.testing.assert_array_equal(counts.row_sums, np.bincount(np.searchsorted(counts.labels, yt), minlength=counts.k))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.UndefinedMetricWarning")
@pytest.mark.filterwarnings("ignore::clfeval.exceptions.UndefinedMetricWarning")
def test_label_metrics_equal_sklearn_at_20000_classes(big20k):
    yt, yp = big20k
    assert cm.accuracy_score(yt, yp) == skm.accuracy_score(yt, yp)
    assert cm.accuracy_score(yt, yp, normalize=False) == skm.accuracy_score(yt, yp, normalize=False)
    for average in ("micro", "macro", "weighted"):
        for ours, theirs in ((cm.f1_score, skm.f1_score), (cm.precision_score, skm.precision_score),
                             (cm.recall_score, skm.recall_score), (cm.jaccard_score, skm.jaccard_score)):
            assert ours(yt, yp, average=average) == pytest.approx(theirs(yt, yp, average=average), rel=1e-12), (ours, average)
        assert cm.fbeta_score(yt, yp, beta=2, average=average) == pytest.approx(
            skm.fbeta_score(yt, yp, beta=2, average=average), rel=1e-12)
    for a, b in zip(cm.precision_recall_fscore_support(yt, yp), skm.precision_recall_fscore_support(yt, yp)):
        np.testing.assert_allclose(a, b, rtol=1e-12)
    np.testing.assert_array_equal(cm.multilabel_confusion_matrix(yt, yp), skm.multilabel_confusion_matrix(yt, yp))
    ours = cm.classification_report(yt, yp, output_dict=True)
    theirs = skm.classification_report(yt, yp, output_dict=True)
    assert ours.keys() == theirs.keys()
    for key in ("macro avg", "weighted avg", "0", "19999"):
        assert ours[key] == pytest.approx(theirs[key], rel=1e-12)
    # a labels= subset gives scikit-learn's (small) dense table
    labels = np.arange(0, 20_000, 250)
    np.testing.assert_array_equal(cm.confusion_matrix(yt, yp, labels=labels), skm.confusion_matrix(yt, yp, labels=labels))


def _margins_oracle(yt: np.ndarray, yp: np.ndarray) -> dict[str, float]:
    """MCC, kappa and balanced accuracy from their textbook definitions, written independently
    (scikit-learn builds a dense 2*10^4 x 2*10^4 table for these, 3.2 GB)."""
    labels = np.unique(np.concatenate([yt, yp]))
    t, p = np.searchsorted(labels, yt), np.searchsorted(labels, yp)
    k, n = labels.size, yt.size
    rows, cols = np.bincount(t, minlength=k).astype(float), np.bincount(p, minlength=k).astype(float)
    correct = float((t == p).sum())
    mcc = (correct * n - rows @ cols) / np.sqrt((n * n - cols @ cols) * (n * n - rows @ rows))
    p_o, p_e = correct / n, (rows @ cols) / (n * n)
    recall = np.bincount(t[t == p], minlength=k)[rows > 0] / rows[rows > 0]
    return {"mcc": mcc, "kappa": (p_o - p_e) / (1 - p_e), "balanced_accuracy": recall.mean()}


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_margin_metrics_at_20000_classes(big20k):
    yt, yp = big20k
    oracle = _margins_oracle(yt, yp)
    assert cm.matthews_corrcoef(yt, yp) == pytest.approx(oracle["mcc"], rel=1e-12)
    assert cm.cohen_kappa_score(yt, yp) == pytest.approx(oracle["kappa"], rel=1e-12)
    assert cm.balanced_accuracy_score(yt, yp) == pytest.approx(oracle["balanced_accuracy"], rel=1e-12)
    with pytest.warns(clfeval.UndefinedMetricWarning):
        ev = clfeval.evaluate(yt, yp)
        overall = ev.report.overall
    assert overall["accuracy"] == skm.accuracy_score(yt, yp)
    assert overall["mcc"] == pytest.approx(oracle["mcc"], rel=1e-12)
    assert overall["kappa"] == pytest.approx(oracle["kappa"], rel=1e-12)
    assert ev.report.averages["macro"]["f1"] == pytest.approx(skm.f1_score(yt, yp, average="macro"), rel=1e-12)
    assert ev.confusion.pairs is not None and len(ev.report.rows) == ev.labels.size


def test_dense_matrix_refused_with_its_size_at_100000_classes():
    yt, yp = _data(100_000, 200_000, seed=2)
    k = np.unique(np.concatenate([yt, yp])).size
    with pytest.raises(MemoryError, match=rf"over {k:,} classes needs [0-9.]+ GiB .*pair-coded counts") as info:
        cm.confusion_matrix(yt, yp)
    assert isinstance(info.value, ValueError)  # one line from the CLI, like other refusals
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = clfeval.evaluate(yt, yp)
    with pytest.raises(MemoryError, match="Evaluation.confusion.pairs"):
        ev.confusion.counts
    cells = ev.confusion.to_dict()["cells"]
    assert sum(cells["count"]) == 200_000 and ev.confusion.to_dict()["counts"] is None
    assert ev.confusion.total == 200_000 and "pair-coded" in repr(ev.confusion)


# ------------------------------------------------------------------------------------------
# pair-coded = dense = scikit-learn, on small label sets (hypothesis)
# ------------------------------------------------------------------------------------------
@st.composite
def labelled(draw):
    n = draw(st.integers(1, 30))
    k = draw(st.integers(1, 6))
    yt = np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))
    yp = np.array(draw(st.lists(st.integers(0, k), min_size=n, max_size=n)))  # k: a class never true
    kind = draw(st.sampled_from(["none", "int", "float"]))
    w = None
    if kind == "int":
        w = np.array(draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)))
    elif kind == "float":
        w = np.array(draw(st.lists(st.floats(0, 10, allow_subnormal=False), min_size=n, max_size=n)))
    if w is not None and not w.any():
        w[0] = 1
    if draw(st.booleans()):  # string labels take the general (encoded) path
        yt, yp = yt.astype(str), yp.astype(str)
    return yt, yp, w


def _all_metrics(yt, yp, w) -> dict[str, object]:
    """Every label metric, its value or its error, with the warnings it gave."""
    out: dict[str, object] = {}
    calls = {
        "accuracy": lambda: cm.accuracy_score(yt, yp, sample_weight=w),
        "accuracy_count": lambda: cm.accuracy_score(yt, yp, normalize=False, sample_weight=w),
        "zero_one": lambda: cm.zero_one_loss(yt, yp, sample_weight=w),
        "hamming": lambda: cm.hamming_loss(yt, yp, sample_weight=w),
        "balanced": lambda: cm.balanced_accuracy_score(yt, yp, sample_weight=w),
        "balanced_adj": lambda: cm.balanced_accuracy_score(yt, yp, sample_weight=w, adjusted=True),
        "mcc": lambda: cm.matthews_corrcoef(yt, yp, sample_weight=w),
        "kappa": lambda: cm.cohen_kappa_score(yt, yp, sample_weight=w),
        "kappa_linear": lambda: cm.cohen_kappa_score(yt, yp, weights="linear", sample_weight=w),
        "kappa_quadratic": lambda: cm.cohen_kappa_score(yt, yp, weights="quadratic", sample_weight=w),
        "confusion": lambda: cm.confusion_matrix(yt, yp, sample_weight=w),
        "confusion_true": lambda: cm.confusion_matrix(yt, yp, sample_weight=w, normalize="true"),
        "confusion_labels": lambda: cm.confusion_matrix(yt, yp, labels=yt[::-1][:3], sample_weight=w),
        "mcm": lambda: cm.multilabel_confusion_matrix(yt, yp, sample_weight=w),
        "prfs": lambda: cm.precision_recall_fscore_support(yt, yp, beta=0.5, sample_weight=w),
        "jaccard_none": lambda: cm.jaccard_score(yt, yp, average=None, sample_weight=w),
        "report": lambda: cm.classification_report(yt, yp, sample_weight=w, output_dict=True),
    }
    for average in ("micro", "macro", "weighted", None):
        calls[f"f1_{average}"] = lambda a=average: cm.f1_score(yt, yp, average=a, sample_weight=w)
        calls[f"jaccard_{average}"] = lambda a=average: cm.jaccard_score(yt, yp, average=a, sample_weight=w)
    calls["f1_labels"] = lambda: cm.f1_score(yt, yp, average="macro", labels=yt[:2], sample_weight=w)
    for name, call in calls.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                value = call()
            except (ValueError, ZeroDivisionError) as exc:
                value = f"{type(exc).__name__}: {exc}"
        out[name] = (value, sorted({f"{x.category.__name__}: {x.message}" for x in caught}))
    return out


def _same(a, b, rel: float = 1e-12) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], rel) for k in a)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y, rel) for x, y in zip(a, b))
    if isinstance(a, str) or a is None:
        return a == b
    if isinstance(a, list) and a and isinstance(a[0], str):
        return a == b
    if isinstance(a, list) and a and isinstance(a[0], dict):
        return len(a) == len(b) and all(_same(x, y, rel) for x, y in zip(a, b))
    x, y = np.asarray(a), np.asarray(b)
    return x.shape == y.shape and bool(np.allclose(x, y, rtol=rel, atol=1e-12, equal_nan=True))


# one true class: MCC undefined, and n**2 - sum(t**2) cancels to a few ulps below 0 with these weights
# (the pair-coded path took the square root of it: NaN and a RuntimeWarning; now 0, as the dense path)
_ONE_TRUE_CLASS = (np.zeros(23, dtype=np.int64), np.eye(1, 23, 21, dtype=np.int64)[0], np.array([float.fromhex(h) for h in (
    ["0x0.0p+0"] * 5 + ["0x1.f8449daf63120p+0", "0x1.193e6460ba850p+0", "0x1.f38ce08c48c50p+0", "0x1.127e79f4ddb08p+0",
     "0x1.0000000001198p+0", "0x1.65c88b96be6f8p+0", "0x1.c3af0e0cf7bc4p+0", "0x1.6f4d9bd8d4fccp+0",
     "0x1.fffc1fde52fbcp+0", "0x1.fcd7c204ecbeap+0", "0x1.199999999999ap+0", "0x1.023579cebbfacp+1",
     "0x1.2000004000000p+3", "0x1.3aba602c70270p+3", "0x1.22832309bfe18p+3", "0x1.2000000000233p+3",
     "0x1.312338fbaf14fp+3", "0x1.3655a2b305260p+3"])]))


@example(_ONE_TRUE_CLASS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labelled())
def test_pair_coded_counts_give_the_dense_results(case):
    yt, yp, w = case
    dense = _all_metrics(yt, yp, w)
    with forced_pairs():
        assert isinstance(ConfusionCounts.from_labels(yt, yp, sample_weight=w), PairCounts)
        pairs = _all_metrics(yt, yp, w)
    for name in dense:
        assert _same(dense[name], pairs[name], rel=1e-12 if w is None or w.dtype.kind != "f" else 1e-9), (
            name, dense[name], pairs[name])


@settings(max_examples=60, deadline=None)
@given(labelled())
def test_pair_coded_metrics_equal_sklearn(case):
    yt, yp, w = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with forced_pairs():
            ours = {
                "f1_macro": cm.f1_score(yt, yp, average="macro", sample_weight=w),
                "f1_weighted": cm.f1_score(yt, yp, average="weighted", sample_weight=w),
                "accuracy": cm.accuracy_score(yt, yp, sample_weight=w),
                "mcc": cm.matthews_corrcoef(yt, yp, sample_weight=w),
                "kappa_q": cm.cohen_kappa_score(yt, yp, weights="quadratic", sample_weight=w),
                "kappa_l": cm.cohen_kappa_score(yt, yp, weights="linear", sample_weight=w),
                "cm": cm.confusion_matrix(yt, yp, sample_weight=w),
            }
        theirs = {
            "f1_macro": skm.f1_score(yt, yp, average="macro", sample_weight=w),
            "f1_weighted": skm.f1_score(yt, yp, average="weighted", sample_weight=w),
            "accuracy": skm.accuracy_score(yt, yp, sample_weight=w),
            "mcc": skm.matthews_corrcoef(yt, yp, sample_weight=w),
            "kappa_q": skm.cohen_kappa_score(yt, yp, weights="quadratic", sample_weight=w),
            "kappa_l": skm.cohen_kappa_score(yt, yp, weights="linear", sample_weight=w),
            "cm": skm.confusion_matrix(yt, yp, sample_weight=w),
        }
    if w is not None and w.dtype.kind == "f" and float_table_needs_exact(np.asarray(theirs["cm"], float).ravel()):
        # weights so small (or large) that scikit-learn's float64 products underflow (MCC 0 for a
        # perfect prediction): the oracle is then the dense clfeval, whose exact sums
        # tests/test_exact_extremes.py checks against fractions
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs["mcc"] = cm.matthews_corrcoef(yt, yp, sample_weight=w)
            theirs["kappa_q"] = cm.cohen_kappa_score(yt, yp, weights="quadratic", sample_weight=w)
            theirs["kappa_l"] = cm.cohen_kappa_score(yt, yp, weights="linear", sample_weight=w)
    for name in ours:
        both_nan = np.all(np.isnan(np.asarray(ours[name], float))) and np.all(np.isnan(np.asarray(theirs[name], float)))
        assert both_nan or np.allclose(ours[name], theirs[name], rtol=1e-9, atol=1e-12), (name, ours[name], theirs[name])


@settings(max_examples=60, deadline=None)
@given(labelled())
def test_pair_coded_evaluation_reports_the_dense_numbers(case):
    yt, yp, w = case
    if np.unique(yt).size < 2 and np.unique(yp).size < 2:
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dense = clfeval.evaluate(yt, yp, sample_weight=w, labels=np.union1d(yt, yp))
        with forced_pairs():
            pairs = clfeval.evaluate(yt, yp, sample_weight=w, labels=np.union1d(yt, yp))
        assert pairs.confusion.pairs is not None and dense.confusion.pairs is None
        rd, rp = dense.report.to_dict(), pairs.report.to_dict()
    rel = 1e-12 if w is None or w.dtype.kind != "f" else 1e-9
    assert _same(rd["overall"], rp["overall"], rel) and _same(rd["rows"], rp["rows"], rel)
    assert _same(rd["averages"], rp["averages"], rel) and rd["notes"] == rp["notes"]
    np.testing.assert_allclose(pairs.confusion.counts, dense.confusion.counts, rtol=rel)


# ------------------------------------------------------------------------------------------
# the monoid
# ------------------------------------------------------------------------------------------
def _equal_counts(a: PairCounts, b: PairCounts) -> bool:
    return (np.array_equal(a.labels, b.labels) and np.array_equal(a.codes, b.codes)
            and np.allclose(a.values, b.values, rtol=1e-12) and a.values.dtype == b.values.dtype)


@settings(max_examples=80, deadline=None)
@given(labelled(), st.data())
def test_merge_of_parts_is_the_counts_of_the_whole(case, data):
    yt, yp, w = case
    cut = data.draw(st.integers(0, yt.size))
    cut2 = data.draw(st.integers(cut, yt.size))
    with forced_pairs():
        def counts(sl):
            return ConfusionCounts.from_labels(yt[sl], yp[sl], sample_weight=None if w is None else w[sl])

        whole = counts(slice(None))
        cuts = [(0, cut), (cut, cut2), (cut2, yt.size)]
        parts = [counts(slice(a, b)) for a, b in cuts if b > a]
        merged = parts[0]
        for p in parts[1:]:
            merged = merged.merge(p)
        assert _equal_counts(merged, whole)
        if len(parts) == 3:  # associative
            assert _equal_counts(parts[0].merge(parts[1].merge(parts[2])), whole)
        assert _equal_counts(parts[-1].merge(parts[0]), parts[0].merge(parts[-1]))  # commutative
    # a dense table merged with a pair-coded one (either side) gives the same counts
    dense_part = ConfusionCounts.from_labels(yt[:cut], yp[:cut]) if cut else None
    if dense_part is not None:
        with forced_pairs():
            rest = ConfusionCounts.from_labels(yt[cut:], yp[cut:]) if cut < yt.size else None
            whole_unweighted = ConfusionCounts.from_labels(yt, yp)
        if rest is not None:
            assert _equal_counts(dense_part.merge(rest), whole_unweighted)
            assert _equal_counts(rest.merge(dense_part), whole_unweighted)
            np.testing.assert_array_equal(dense_part.merge(rest).dense_matrix(),
                                          ConfusionCounts.from_labels(yt, yp).matrix)


def test_reindex_keeps_the_last_place_of_a_repeated_label():
    counts = PairCounts.from_codes(np.array([0, 1, 2, 2]), np.array([0, 2, 2, 1]), np.array(["a", "b", "c"]))
    got = counts.reindex(["c", "a", "c", "z"]).dense_matrix()
    np.testing.assert_array_equal(got, skm.confusion_matrix(["a", "b", "c", "c"], ["a", "c", "c", "b"],
                                                            labels=["c", "a", "c", "z"]))


def test_switch_is_by_class_count():
    small = ConfusionCounts.from_labels(*_data(50, 1000))
    large = ConfusionCounts.from_labels(*_data(5000, 20_000))
    assert isinstance(small, ConfusionCounts) and isinstance(large, PairCounts)
    assert sparse_counts.use_pairs(sparse_counts.SPARSE_ABOVE + 1) and not sparse_counts.use_pairs(sparse_counts.SPARSE_ABOVE)


# ------------------------------------------------------------------------------------------
# the command at 10^5 labels, and the memory guard
# ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def big_csv(tmp_path_factory):
    yt, yp = _data(100_000, 200_000, seed=3)
    path = tmp_path_factory.mktemp("big") / "preds.csv"
    path.write_text("y_true,y_pred\n" + "".join(f"c{a},c{b}\n" for a, b in zip(yt.tolist(), yp.tolist())))
    return path, np.char.add("c", yt.astype(str)), np.char.add("c", yp.astype(str))


def test_cli_report_at_100000_labels(big_csv, tmp_path):
    path, yt, yp = big_csv
    out = tmp_path / "out.json"
    html = tmp_path / "out.html"
    run = subprocess.run([sys.executable, "-m", "clfeval", "report", str(path), "--json", str(out), "--html", str(html)],
                         capture_output=True, text=True, env={"PYTHONPATH": SRC, "COLUMNS": "120", "PATH": ""},
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    k = np.unique(np.concatenate([yt, yp])).size
    hidden = k - 50
    text = " ".join(run.stdout.split())
    assert f"{hidden:,} more classes not shown: the table lists the 50 of {k:,} classes with the most support" in text
    assert "every class is in the JSON output (--json)" in text
    data = json.loads(out.read_text())
    cells = len(data["confusion"]["cells"]["count"])
    assert f"Confusion matrix: {k:,} classes, kept as its {cells:,} non-zero cells" in text
    assert data["report"]["overall"]["accuracy"] == skm.accuracy_score(yt, yp)
    assert data["report"]["averages"]["macro"]["f1"] == pytest.approx(skm.f1_score(yt, yp, average="macro"), rel=1e-12)
    assert len(data["report"]["rows"]) == k == len(data["confusion"]["per_class"]["tp"])
    assert sum(data["confusion"]["cells"]["count"]) == 200_000
    # the shown rows are the best-supported classes
    supports = sorted((r["support"] for r in data["report"]["rows"]), reverse=True)
    shown = [line.split() for line in run.stdout.splitlines() if line.strip().startswith("c")
             and line.split()[-1].isdigit()]
    assert sorted((int(r[-1]) for r in shown), reverse=True) == supports[:50]
    page = html.read_text()
    assert page.count('data-kind="class"') == 50 and f"{hidden:,} more classes not shown" in page


def test_cli_intervals_of_100000_labels_refused_in_one_line(big_csv, tmp_path):
    path, _, _ = big_csv
    out = tmp_path / "ci.json"
    run = subprocess.run([sys.executable, "-m", "clfeval", "report", str(path), "--ci", "--json", str(out)],
                         capture_output=True, text=True, env={"PYTHONPATH": SRC, "PATH": ""}, timeout=300)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "clfeval: error:" in run.stderr and "confidence intervals are not available for" in run.stderr
    assert not out.exists()


def test_evaluate_at_100000_labels_stays_small():
    code = textwrap.dedent("""
        import resource, warnings
        import numpy as np
        import clfeval
        from clfeval.metrics import accuracy_score, f1_score, matthews_corrcoef, cohen_kappa_score
        rng = np.random.default_rng(4)
        yt = rng.integers(0, 100_000, 200_000)
        yp = np.where(rng.random(200_000) < 0.5, yt, rng.integers(0, 100_000, 200_000))
        warnings.simplefilter("ignore")
        ev = clfeval.evaluate(yt, yp)
        ev.report.overall, ev.to_dict()
        accuracy_score(yt, yp), f1_score(yt, yp, average="macro"), matthews_corrcoef(yt, yp)
        cohen_kappa_score(yt, yp, weights="quadratic")
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={"PYTHONPATH": SRC},
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    peak_kib = int(run.stdout.split()[-1])
    assert peak_kib < 1.5 * 2**20, f"peak RSS {peak_kib / 2**20:.2f} GiB"


# ------------------------------------------------------------------------------------------
# streaming keeps the counts pair-coded too
# ------------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::clfeval.exceptions.UndefinedMetricWarning")
def test_stream_of_many_classes_equals_evaluate():
    from clfeval.streaming import StreamingEvaluation

    yt, yp = _data(5_000, 40_000, seed=5)
    w = np.random.default_rng(6).integers(0, 3, yt.size)
    whole = clfeval.evaluate(yt, yp, sample_weight=w)
    a, b = StreamingEvaluation(), StreamingEvaluation()
    for lo in range(0, 20_000, 5_000):  # the label set grows batch by batch
        a.update(yt[lo:lo + 5_000], yp[lo:lo + 5_000], sample_weight=w[lo:lo + 5_000])
    b.update(yt[20_000:], yp[20_000:], sample_weight=w[20_000:])
    streamed = a.merge(b).result()
    assert streamed.confusion.pairs is not None and a.nbytes < 20_000 * 16
    assert _equal_counts(streamed.confusion.pairs, whole.confusion.pairs)
    assert _same(streamed.report.to_dict(), whole.report.to_dict())


@settings(max_examples=40, deadline=None)
@given(labelled(), st.integers(1, 10))
def test_forced_pair_coded_stream_equals_dense_stream(case, size):
    from clfeval.streaming import StreamingEvaluation

    yt, yp, w = case

    def stream():
        s = StreamingEvaluation()
        for lo in range(0, yt.size, size):
            s.update(yt[lo:lo + size], yp[lo:lo + size], sample_weight=None if w is None else w[lo:lo + size])
        return s.result()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            dense = stream()
        except ValueError as exc:  # e.g. a first batch of zero weights: the same error either way
            with forced_pairs(), pytest.raises(ValueError, match=re.escape(str(exc))):
                stream()
            return
        with forced_pairs():
            pairs = stream()
        assert pairs.confusion.pairs is not None
        np.testing.assert_allclose(pairs.confusion.counts, dense.confusion.counts, rtol=1e-12)
        rel = 1e-12 if w is None or w.dtype.kind != "f" else 1e-9
        assert _same(pairs.report.to_dict()["overall"], dense.report.to_dict()["overall"], rel)


@pytest.mark.filterwarnings("ignore::clfeval.exceptions.UndefinedMetricWarning")
def test_many_named_labels_over_few_rows_stay_pair_coded():
    labels = np.arange(100_000)
    counts = ConfusionCounts.from_labels([3, 5, 5], [3, 5, 7], labels=labels)
    assert isinstance(counts, PairCounts) and counts.k == 100_000
    assert counts.codes.tolist() == [3 * 100_000 + 3, 5 * 100_000 + 5, 5 * 100_000 + 7]
    ev = clfeval.evaluate([3, 5, 5], [3, 5, 7], labels=labels)
    assert ev.confusion.pairs is not None and ev.report.overall["accuracy"] == 2 / 3
    assert cm.f1_score([3, 5, 5], [3, 5, 7], labels=labels, average=None, zero_division=0).sum() == pytest.approx(
        skm.f1_score([3, 5, 5], [3, 5, 7], labels=labels[:10], average=None, zero_division=0).sum())


EXTREME_WEIGHTS = [
    [2**53 + 1, 1, 1, 1, 1],  # integer sums float64 would round; MCC's products cancel in float64
    [2**62] * 5,  # sums past int64
    [1e308] * 5,  # float sums past the float range
    [1e-320] * 5,  # subnormal weights: products underflow
]


@pytest.mark.parametrize("weights", EXTREME_WEIGHTS, ids=["2**53+1", "2**62", "1e308", "1e-320"])
def test_pair_coded_counts_keep_the_exact_values_of_extreme_weights(monkeypatch, weights) -> None:
    """The issue's extreme weights give the same numbers pair-coded as dense (which are exact)."""
    yt, yp = [0, 1, 1, 0, 1], [0, 1, 0, 0, 1]
    w = np.array(weights)

    def numbers() -> list[float]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            o = clfeval.evaluate(yt, yp, sample_weight=w).report.overall
            return [cm.accuracy_score(yt, yp, sample_weight=w), cm.matthews_corrcoef(yt, yp, sample_weight=w),
                    cm.cohen_kappa_score(yt, yp, sample_weight=w), cm.balanced_accuracy_score(yt, yp, sample_weight=w),
                    *cm.f1_score(yt, yp, sample_weight=w, average=None).tolist(),
                    o["accuracy"], o["error_rate"], o["mcc"], o["kappa"], o["balanced_accuracy"]]

    dense = numbers()
    monkeypatch.setattr(sparse_counts, "SPARSE_ABOVE", 0)
    assert isinstance(ConfusionCounts.from_labels(yt, yp, sample_weight=w), PairCounts)
    assert numbers() == dense
    assert not any(np.isnan(dense))


def test_pair_coded_extreme_float_weights_merge_like_concatenation() -> None:
    yt, yp = np.array([0, 1, 1, 0, 1]), np.array([0, 1, 0, 0, 1])
    labels = np.array([0, 1])
    halves = [PairCounts.from_codes(yt[s], yp[s], labels, np.full(len(yt[s]), 1e308)) for s in (slice(0, 2), slice(2, 5))]
    merged = halves[0].merge(halves[1])
    whole = PairCounts.from_codes(yt, yp, labels, np.full(5, 1e308))
    assert merged.codes.tolist() == whole.codes.tolist()
    assert merged.for_formulas()[0].values.tolist() == whole.for_formulas()[0].values.tolist()
    from clfeval.statistics import margins

    assert margins.matthews_corrcoef(merged) == pytest.approx(2 / 3, rel=1e-15)


def test_pair_coded_tiny_weights_beside_ordinary_ones(monkeypatch) -> None:
    """Found by hypothesis: a weight of 2.9e-175 beside 1 (products underflow in float64); the
    pair-coded counts keep exact sums, so MCC is 1 for perfect predictions, as dense."""
    yt = yp = np.array([0, 1, 0, 0])
    w = np.array([0.0, 1.0, 0.0, 2.86475855e-175])
    dense = cm.matthews_corrcoef(yt, yp, sample_weight=w)
    dense_rows = clfeval.evaluate(yt, yp, sample_weight=w).report.rows
    monkeypatch.setattr(sparse_counts, "SPARSE_ABOVE", 0)
    assert cm.matthews_corrcoef(yt, yp, sample_weight=w) == dense == 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no class is undefined: every rate has its tiny denominator
        report = clfeval.evaluate(yt, yp, sample_weight=w).report
    assert report.overall["mcc"] == 1.0
    assert report.rows == dense_rows


def test_top_k_counts_stay_exact_past_2_to_the_24_classes():
    """The classes ranked ahead of the true one are counted by a matrix product: in float32 only
    below 2**24 classes, where every count is exact (float32 has no odd integer past 2**24). With
    2**24 + 5 classes and 2**24 + 3 of them ahead of the true class, k = 2**24 + 4 is a hit; in
    float32 the count rounds to 2**24 + 4 (or saturates, by the summation order), k = 2**24 + 4
    too, and the hit may be lost."""
    from clfeval.formulas.sums import TopKHits

    n_classes = (1 << 24) + 5
    scores = np.ones((2, n_classes))
    scores[0, :2] = [0.5, 0.0]  # row 0: class 0 ahead of class 1 only
    scores[1, 0] = 2.0  # row 1: class 0 above all others
    hits = TopKHits.from_encoded(np.array([0, 0]), scores, k=(1 << 24) + 4)
    assert hits.total == 2
    assert TopKHits.from_encoded(np.array([0, 0]), scores, k=(1 << 24) + 3).total == 1  # 2**24 + 3 ahead: a miss


def test_kappa_of_a_plain_matrix_is_scikit_learns():
    """margins.cohen_kappa reads a dense matrix as well as pair counts (the docstring's use)."""
    from clfeval.statistics import margins

    rng = np.random.default_rng(5)
    y, p = rng.integers(0, 4, 300), rng.integers(0, 4, 300)
    matrix = skm.confusion_matrix(y, p)
    for weights in (None, "linear", "quadratic"):
        assert margins.cohen_kappa(matrix, weights) == pytest.approx(
            skm.cohen_kappa_score(y, p, weights=weights), rel=1e-13, abs=1e-15)
