"""clfeval.protocols: the same indices as scikit-learn's splitters, the bootstrap and the three-way
split that scikit-learn lacks, and clear errors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import sklearn.model_selection as ms
from hypothesis import given
from hypothesis import strategies as st
from sklearn.datasets import load_iris

from clfeval.protocols import (
    Bootstrap,
    FiveByTwo,
    HoldOut,
    KFold,
    LeaveOneOut,
    PredefinedSplits,
    TrainValidationTest,
)

X, Y = load_iris(return_X_y=True)
GROUPS = np.repeat(np.arange(30), 5)


def same_splits(ours, theirs) -> None:
    ours, theirs = list(ours), list(theirs)
    assert len(ours) == len(theirs)
    for (a, b), (c, d) in zip(ours, theirs):
        assert np.array_equal(a, c) and np.array_equal(b, d)
        assert a.dtype == np.intp and b.dtype == np.intp


@pytest.mark.parametrize("seed", [0, 7])
def test_kfold_matches_sklearn(seed):
    same_splits(KFold(5, random_state=seed).split(X, Y),
                ms.StratifiedKFold(5, shuffle=True, random_state=seed).split(X, Y))
    same_splits(KFold(4, stratify=False, random_state=seed).split(X, Y),
                ms.KFold(4, shuffle=True, random_state=seed).split(X))
    same_splits(KFold(5, shuffle=False).split(X, Y), ms.StratifiedKFold(5).split(X, Y))
    same_splits(KFold(3, n_repeats=4, random_state=seed).split(X, Y),
                ms.RepeatedStratifiedKFold(n_splits=3, n_repeats=4, random_state=seed).split(X, Y))
    same_splits(KFold(3, stratify=False, n_repeats=2, random_state=seed).split(X, Y),
                ms.RepeatedKFold(n_splits=3, n_repeats=2, random_state=seed).split(X))
    same_splits(FiveByTwo(random_state=seed).split(X, Y),
                ms.RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=seed).split(X, Y))


def test_holdout_and_loo_match_sklearn():
    same_splits(HoldOut(0.3, random_state=1).split(X, Y),
                ms.StratifiedShuffleSplit(1, test_size=0.3, random_state=1).split(X, Y))
    same_splits(HoldOut(20, stratify=False, n_repeats=3, random_state=2).split(X, Y),
                ms.ShuffleSplit(3, test_size=20, random_state=2).split(X))
    same_splits(LeaveOneOut().split(X[:10]), ms.LeaveOneOut().split(X[:10]))


def test_grouped_splits_match_sklearn():
    same_splits(KFold(5, stratify=False, shuffle=False).split(X, Y, GROUPS), ms.GroupKFold(5).split(X, Y, GROUPS))
    same_splits(HoldOut(0.2, random_state=3).split(X, Y, GROUPS),
                ms.GroupShuffleSplit(1, test_size=0.2, random_state=3).split(X, Y, GROUPS))
    same_splits(LeaveOneOut().split(X, Y, GROUPS), ms.LeaveOneGroupOut().split(X, Y, GROUPS))
    for p in (KFold(5, random_state=0), KFold(3, n_repeats=2, random_state=0), Bootstrap(5, random_state=0)):
        for train, test in p.split(X, Y, GROUPS):
            assert not set(GROUPS[train]) & set(GROUPS[test]), p


def test_protocols_work_as_sklearn_cv():
    from sklearn.model_selection import cross_val_score
    from sklearn.naive_bayes import GaussianNB

    scores = cross_val_score(GaussianNB(), X, Y, cv=KFold(5, random_state=0))
    expected = cross_val_score(GaussianNB(), X, Y, cv=ms.StratifiedKFold(5, shuffle=True, random_state=0))
    assert np.array_equal(scores, expected)


def test_names_and_reprs():
    assert repr(HoldOut()) == "HoldOut(test_size=0.25, stratify=True, n_repeats=1, random_state=None)"
    assert KFold(10, n_repeats=10).name == "10x stratified 10-fold CV"
    assert repr(FiveByTwo(random_state=1)) == "FiveByTwo(stratify=True, random_state=1)"
    assert FiveByTwo().get_n_splits() == 10 and FiveByTwo().n_repeats == 5
    assert Bootstrap(50).n_repeats == 50 and "out-of-bag" in Bootstrap().name
    assert LeaveOneOut().get_n_splits(X) == 150
    assert "stratified 5-fold CV" in KFold(5).description
    assert KFold(5).with_random_state(3).random_state == 3
    assert KFold(5, random_state=1).with_random_state(3).random_state == 1


@given(st.integers(2, 6), st.integers(1, 3), st.integers(0, 2**16), st.booleans())
def test_kfold_tests_each_sample_once_per_repeat(k, repeats, seed, stratify):
    y = np.arange(40) % 3
    splits = list(KFold(k, stratify=stratify, n_repeats=repeats, random_state=seed).split(np.zeros(40), y))
    assert len(splits) == k * repeats
    for r in range(repeats):
        tests = np.concatenate([t for _, t in splits[r * k:(r + 1) * k]])
        assert np.array_equal(np.sort(tests), np.arange(40))
    for train, test in splits:
        assert np.intersect1d(train, test).size == 0 and train.size + test.size == 40


def test_bootstrap_out_of_bag():
    p = Bootstrap(20, random_state=0)
    splits = list(p.split(X, Y))
    assert len(splits) == 20
    for train, test in splits:
        assert train.size == 150 and np.unique(train).size < 150  # duplicates: that is the bootstrap
        assert np.array_equal(np.setdiff1d(np.arange(150), train), test)
    same_splits(splits, Bootstrap(20, random_state=0).split(X, Y))  # deterministic
    for train, _ in Bootstrap(5, stratify=True, random_state=0).split(X, Y):
        assert np.array_equal(np.bincount(Y[train]), np.bincount(Y))


def test_bootstrap_out_of_bag_share_tends_to_one_over_e():
    n = 1000
    shares = [test.size / n for _, test in Bootstrap(300, random_state=0).split(np.zeros(n))]
    assert abs(np.mean(shares) - np.exp(-1)) < 0.01  # P(a row is never drawn) = (1 - 1/n)^n -> 1/e = 0.3679


def test_train_validation_test():
    tvt = TrainValidationTest(0.2, 0.3, random_state=4)
    (train, val, test), = list(tvt.split3(X, Y))
    assert (train.size, val.size, test.size) == (75, 30, 45)
    assert np.array_equal(np.sort(np.concatenate([train, val, test])), np.arange(150))
    (tv, t2), = list(tvt.split(X, Y))
    assert np.array_equal(t2, test) and np.array_equal(tv, np.sort(np.concatenate([train, val])))
    (tr2, v2), = list(tvt.validation.split(X, Y))
    assert np.array_equal(tr2, train) and np.array_equal(v2, val)
    for part in (train, val, test):  # stratified: every class in every part
        assert np.unique(Y[part]).size == 3
    with pytest.raises(ValueError, match="leave rows to train"):
        TrainValidationTest(0.5, 0.5)


def test_predefined_splits():
    p = PredefinedSplits([([0, 1, 2], [3]), ([1, 2, 3], [0])], n_repeats=2)
    assert p.get_n_splits() == 2 and "2 splits" in repr(p)
    with pytest.raises(ValueError, match="index row 3"):
        list(p.split(np.zeros(3)))
    with pytest.raises(ValueError, match="equal repetitions"):
        PredefinedSplits([([0], [1])] * 3, n_repeats=2)


def test_clear_errors():
    with pytest.raises(ValueError, match=r"class 2 has only 3 member\(s\), fewer than n_splits=5"):
        list(KFold(5).split(np.zeros(23), np.r_[np.zeros(10), np.ones(10), 2 * np.ones(3)].astype(int)))
    with pytest.raises(ValueError, match="more than the 10 samples"):
        list(KFold(20, stratify=False).split(np.zeros(10)))
    with pytest.raises(ValueError, match="needs y"):
        list(KFold(3).split(np.zeros(10)))
    with pytest.raises(ValueError, match="n_splits must be an integer >= 2"):
        KFold(1)
    with pytest.raises(ValueError, match="shuffle=True"):
        KFold(5, n_repeats=3, shuffle=False)
    with pytest.raises(ValueError, match="between 0 and 1"):
        HoldOut(1.5)
    with pytest.raises(ValueError, match="groups must be 1-D"):
        list(KFold(3, stratify=False).split(X, Y, groups=[1, 2]))
    with pytest.raises(ValueError, match="stratified"):
        list(Bootstrap(3, stratify=True).split(X, Y, GROUPS))


def test_importing_protocols_does_not_import_sklearn():
    code = "import sys, clfeval, clfeval.protocols, clfeval.cross_evaluation; print('sklearn' in sys.modules, 'joblib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False False"
