"""Shared hypothesis settings, strategies and comparison helpers for the clfeval test suite.

Everything here is generic: strategies draw label arrays of every supported dtype, multilabel
indicator matrices, sample weights and ``labels=`` arguments; :func:`assert_same_outcome` runs a
clfeval function and its scikit-learn counterpart on the same input and checks that they agree on
the value (to 1e-12), on the warnings and on the error class.

Every call of :func:`assert_same_outcome` is tallied in :data:`ORACLE_CALLS` under the running
test, as a value comparison or as an exception-only comparison (scikit-learn raised);
:func:`oracle_share` makes a hypothesis oracle test fail when too few of its calls compared values,
so that a strategy drifting into invalid input cannot turn an oracle test into an error-class check.

Profiles: ``default`` (modest, used in CI) and ``thorough`` (for bug hunting), chosen with the
environment variable ``CLFEVAL_HYPOTHESIS_PROFILE``.
"""

from __future__ import annotations

import functools
import os
import warnings
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

os.environ.setdefault("MPLBACKEND", "Agg")  # plots draw off-screen, before any pyplot import
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

settings.register_profile(
    "default",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
    database=None,
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
    database=None,
)
settings.load_profile(os.environ.get("CLFEVAL_HYPOTHESIS_PROFILE", "default"))

ATOL = 1e-12
RTOL = 1e-12

#: Where the shared public data sets live (CI clones the repo with ``shared/`` beside it).
SHARED_DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"

# --------------------------------------------------------------------------------------------
# label pools
# --------------------------------------------------------------------------------------------
LABEL_DTYPES = ("int", "str", "bool", "float", "object_int", "object_str", "uint", "negint", "bigint")

_STR_POOL = ["ant", "bird", "cat", "dog", "eel", "fox", "gnu", "hen"]


def label_pool(dtype: str, k: int) -> np.ndarray:
    """``k`` distinct sorted labels of the given flavour (bool gives at most 2)."""
    if dtype == "int":
        return np.array([0, 1, 2, 5, 7, 10, 11, 40][:k], dtype=np.int64)
    if dtype == "bigint":  # too spread out for the dense integer fast path
        return np.array([-(2**40), -7, 0, 3, 2**33, 2**40, 2**41, 2**42][:k], dtype=np.int64)
    if dtype == "negint":
        return np.array([-3, -1, 0, 1, 2, 4, 8, 9][:k], dtype=np.int64)
    if dtype == "uint":
        return np.arange(1, k + 1, dtype=np.uint8)
    if dtype == "float":
        return np.array([-1.0, 0.0, 1.0, 2.0, 3.0, 5.0, 6.0, 9.0][:k], dtype=np.float64)
    if dtype == "str":
        return np.array(_STR_POOL[:k])
    if dtype == "object_str":
        return np.array(_STR_POOL[:k], dtype=object)
    if dtype == "object_int":
        return np.array(list(range(1, k + 1)), dtype=object)
    if dtype == "bool":
        return np.array([False, True][:k])
    raise ValueError(dtype)


def unseen_label(pool: np.ndarray) -> Any:
    """A label of the pool's type that is not in the pool."""
    if pool.dtype.kind in "US" or (pool.dtype.kind == "O" and isinstance(pool[0], str)):
        return "zzz"
    if pool.dtype.kind == "b":
        return None
    if pool.dtype.kind == "u":
        return pool.dtype.type(200)
    if pool.dtype.kind == "f":
        return 100.0
    return 100


@st.composite
def label_pairs(
    draw: st.DrawFn,
    dtypes: tuple[str, ...] = LABEL_DTYPES,
    min_classes: int = 1,
    max_classes: int = 5,
    min_size: int = 1,
    max_size: int = 30,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(y_true, y_pred, pool): 1-D label arrays drawn from a pool of distinct labels."""
    dtype = draw(st.sampled_from(dtypes))
    hi = 2 if dtype == "bool" else max_classes
    k = draw(st.integers(min(min_classes, hi), hi))
    pool = label_pool(dtype, k)
    n = draw(st.integers(min_size, max_size))
    codes = st.lists(st.integers(0, k - 1), min_size=n, max_size=n)
    yt = pool[np.array(draw(codes), dtype=np.intp)]
    yp = pool[np.array(draw(codes), dtype=np.intp)]
    return yt, yp, pool


@st.composite
def binary_pairs(draw: st.DrawFn, dtypes: tuple[str, ...] = LABEL_DTYPES, **kw: Any):
    """Label pairs whose union has at most two labels."""
    return draw(label_pairs(dtypes=dtypes, min_classes=1, max_classes=2, **kw))


@st.composite
def multilabel_pairs(
    draw: st.DrawFn, min_labels: int = 1, max_labels: int = 5, min_size: int = 1, max_size: int = 20
) -> tuple[np.ndarray, np.ndarray]:
    """(y_true, y_pred) 0/1 indicator matrices of the same shape (int or bool dtype)."""
    n = draw(st.integers(min_size, max_size))
    L = draw(st.integers(min_labels, max_labels))
    density = draw(st.sampled_from([0.1, 0.5, 0.9]))
    cells = st.lists(
        st.booleans() if density == 0.5 else st.floats(0, 1).map(lambda u: u < density),
        min_size=n * L,
        max_size=n * L,
    )
    yt = np.array(draw(cells), dtype=bool).reshape(n, L)
    yp = np.array(draw(cells), dtype=bool).reshape(n, L)
    as_int = draw(st.booleans())
    if as_int:
        yt, yp = yt.astype(np.int64), yp.astype(np.int64)
    return yt, yp


@st.composite
def sample_weights(
    draw: st.DrawFn, n: int, allow_none: bool = True, allow_float32: bool = False, allow_bool: bool = False
) -> np.ndarray | None:
    """None, or integer, float64 (optionally boolean or float32) weights, zeros included.

    float32 is off by default: scikit-learn computes in float32 then, clfeval in float64, so
    the two differ by float32 rounding. Boolean weights are off by default: the public functions
    count them as 0/1 (check_sample_weight), but internal constructors expect validated weights.
    """
    kinds = ["int", "float", "float_dyadic"] + (["none"] if allow_none else [])
    kinds += ["float32"] if allow_float32 else []
    kinds += ["bool"] if allow_bool else []
    kind = draw(st.sampled_from(kinds))
    if kind == "none":
        return None
    if kind == "bool":
        return np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    if kind == "float32":
        return np.array(draw(st.lists(st.sampled_from([0.0, 0.1, 1.0, 3.7]), min_size=n, max_size=n)), dtype=np.float32)
    if kind == "int":
        return np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), dtype=np.int64)
    if kind == "float_dyadic":  # exactly representable sums: no summation-order ulps
        return np.array(draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.25]), min_size=n, max_size=n)))
    vals = draw(
        st.lists(
            st.one_of(st.just(0.0), st.floats(0.01, 10.0, allow_nan=False, allow_infinity=False)),
            min_size=n,
            max_size=n,
        )
    )
    return np.array(vals, dtype=np.float64)


def rarely(draw: st.DrawFn, one_in: int = 10) -> bool:
    """True about once in ``one_in`` draws (False in hypothesis's simplest example): a gate that
    keeps an input class that scikit-learn refuses reachable without letting it crowd out the
    valid inputs whose values the oracle tests compare."""
    return draw(st.sampled_from([False] * (one_in - 1) + [True]))


@st.composite
def with_every_class(draw: st.DrawFn, y: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """``y`` with each label of ``pool`` at some drawn position (appended where ``y`` is shorter
    than the pool): scikit-learn infers the classes from y_true where no labels= names them."""
    k = len(pool)
    if len(y) < k:
        return np.concatenate([y, pool])
    at = np.array(draw(st.permutations(range(len(y))))[:k], dtype=np.intp)
    y = y.copy()
    y[at] = pool
    return y


@st.composite
def oracle_weights(draw: st.DrawFn, n: int, all_zero_one_in: int = 20, **kw: Any) -> np.ndarray | None:
    """:func:`sample_weights` (zeros and fractions included) that are all zero only about once in
    ``all_zero_one_in`` draws: both libraries refuse all-zero weights, so without this gate the
    simplest (all-zero) draws compare only the error class."""
    w = draw(sample_weights(n, **kw))
    if w is not None and not w.any() and not rarely(draw, all_zero_one_in):
        w = w.copy()
        w[draw(st.integers(0, n - 1))] = 1
    return w


@st.composite
def labels_argument(draw: st.DrawFn, pool: np.ndarray, present: np.ndarray) -> np.ndarray | None:
    """A ``labels=`` argument: None, a permutation of the present labels, a subset, or a superset
    that includes a label never seen in the data."""
    choice = draw(st.sampled_from(["none", "perm", "subset", "superset"]))
    if choice == "none":
        return None
    present = list(present)
    if choice == "perm":
        return np.array(draw(st.permutations(present)), dtype=pool.dtype)
    if choice == "subset":
        sub = draw(st.lists(st.sampled_from(list(pool)), min_size=1, max_size=len(pool), unique=True))
        return np.array(sub, dtype=pool.dtype)
    extra = unseen_label(pool)
    base = list(pool) + ([] if extra is None else [extra])
    perm = draw(st.permutations(base))
    return np.array(perm, dtype=object) if pool.dtype.kind == "O" else np.array(perm)


# --------------------------------------------------------------------------------------------
# oracle comparison
# --------------------------------------------------------------------------------------------
def _warning_kinds(records: list[warnings.WarningMessage]) -> set[str]:
    """Warning categories by name ('UndefinedMetricWarning', 'UserWarning', ...); noise excluded."""
    kinds = set()
    for r in records:
        cat = r.category
        if issubclass(cat, (DeprecationWarning, PendingDeprecationWarning, FutureWarning)):
            continue
        kinds.add(cat.__name__)
    return kinds


def call_recording(func: Callable, *args: Any, **kwargs: Any
                   ) -> tuple[Any, BaseException | None, list[warnings.WarningMessage]]:
    """Call ``func``; return (result, exception or None, every warning it emitted)."""
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("always")
        try:
            result, exc = func(*args, **kwargs), None
        except Exception as e:  # noqa: BLE001 - the comparison is the point
            result, exc = None, e
    return result, exc, list(records)


def run_capturing(func: Callable, *args: Any, **kwargs: Any) -> tuple[Any, BaseException | None, set[str]]:
    """Call ``func``; return (result, exception or None, warning category names)."""
    result, exc, records = call_recording(func, *args, **kwargs)
    return result, exc, _warning_kinds(records)


def assert_close(actual: Any, expected: Any, *, what: str = "", rtol: float = RTOL, atol: float = ATOL) -> None:
    """Recursive comparison of scalars, arrays, tuples and dicts; NaN equals NaN."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{what}: expected dict, got {type(actual)}"
        assert list(actual) == list(expected), f"{what}: keys {list(actual)} != {list(expected)}"
        for key in expected:
            assert_close(actual[key], expected[key], what=f"{what}[{key!r}]", rtol=rtol, atol=atol)
        return
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected), f"{what}: {actual!r} vs {expected!r}"
        for i, (a, e) in enumerate(zip(actual, expected)):
            assert_close(a, e, what=f"{what}[{i}]", rtol=rtol, atol=atol)
        return
    if expected is None:
        assert actual is None, f"{what}: expected None, got {actual!r}"
        return
    if isinstance(expected, str):
        assert actual == expected, f"{what}: {actual!r} != {expected!r}"
        return
    e = np.asarray(expected)
    a = np.asarray(actual)
    assert a.shape == e.shape, f"{what}: shape {a.shape} != {e.shape}"
    if isinstance(expected, np.ndarray):
        assert isinstance(actual, np.ndarray), f"{what}: expected ndarray, got {type(actual)}"
        assert a.dtype.kind == e.dtype.kind or (a.dtype.kind in "iu" and e.dtype.kind in "iu"), (
            f"{what}: dtype {a.dtype} != {e.dtype}"
        )
    else:
        assert not isinstance(actual, np.ndarray) or actual.ndim == 0, f"{what}: expected a scalar, got {actual!r}"
    np.testing.assert_allclose(
        a.astype(np.float64), e.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True, err_msg=what
    )


def for_oracle(x: Any, key: str | None = None) -> Any:
    """Input as scikit-learn can take it, where clfeval deliberately accepts more.

    - object arrays of numbers: sklearn calls them 'unknown' targets; clfeval reads the numbers.
    - boolean sample weights: sklearn's accuracy_score(normalize=False) sums them with a logical
      dot product (True + True = True); clfeval counts them as 0/1 integers.
    """
    if isinstance(x, np.ndarray) and x.dtype.kind == "O" and x.size and not isinstance(x.flat[0], str):
        return np.array(x.tolist())
    if key == "sample_weight" and isinstance(x, np.ndarray) and x.dtype.kind == "b":
        return x.astype(np.int64)
    return x


#: Per test (pytest node id): how many oracle calls compared a value ("value") and how many only
#: compared the exception class because scikit-learn raised ("error").
ORACLE_CALLS: defaultdict[str, Counter] = defaultdict(Counter)


def _current_test() -> str:
    return os.environ.get("PYTEST_CURRENT_TEST", "<no test>").rsplit(" (", 1)[0]


def oracle_share(min_share: float) -> Callable[[Callable], Callable]:
    """Decorator (above ``@given``): after the test's examples ran, at least ``min_share`` of its
    :func:`assert_same_outcome` calls must have compared values, not only an exception class."""

    def decorate(test: Callable) -> Callable:
        @functools.wraps(test)
        def wrapper(*args: Any, **kwargs: Any) -> None:
            key = _current_test()
            ORACLE_CALLS.pop(key, None)
            test(*args, **kwargs)
            tally = ORACLE_CALLS[key]
            total = tally["value"] + tally["error"]
            assert total > 0, f"{key}: no oracle call was made"
            assert tally["value"] >= min_share * total, (
                f"{key}: only {tally['value']} of {total} oracle calls compared values "
                f"(scikit-learn raised in {tally['error']}); at least {min_share:.0%} must: "
                "reshape the strategy so that most inputs are valid"
            )

        return wrapper

    return decorate


def assert_same_outcome(
    ours: Callable,
    theirs: Callable,
    *args: Any,
    compare: Callable[[Any, Any], None] | None = None,
    check_warnings: bool = True,
    **kwargs: Any,
) -> Any:
    """Run both functions on the same input: same value (1e-12) and warnings, or, where
    scikit-learn raises, the same error class. Tallied in :data:`ORACLE_CALLS`."""
    exp, exp_exc, exp_warn = run_capturing(
        theirs, *map(for_oracle, args), **{k: for_oracle(v, k) for k, v in kwargs.items()}
    )
    if "RuntimeWarning" in exp_warn:  # numpy's 0/0 noise in sklearn; clfeval says it in words
        exp_warn = (exp_warn - {"RuntimeWarning"}) | {"UndefinedMetricWarning"}
    got, got_exc, got_warn = run_capturing(ours, *args, **kwargs)
    call = f"{getattr(ours, '__name__', ours)}(args={args!r}, kwargs={kwargs!r})"
    if exp_exc is not None:
        assert got_exc is not None, f"{call}: sklearn raised {exp_exc!r}, clfeval returned {got!r}"
        expected_cls = type(exp_exc)
        if expected_cls.__name__ == "InvalidParameterError":  # sklearn's ValueError+TypeError subclass
            expected_cls = (ValueError, TypeError)
        assert isinstance(got_exc, expected_cls), (
            f"{call}: sklearn raised {exp_exc!r}, clfeval raised {got_exc!r}"
        )
        ORACLE_CALLS[_current_test()]["error"] += 1
        return None
    assert got_exc is None, f"{call}: clfeval raised {got_exc!r}, sklearn returned {exp!r}"
    (compare or (lambda a, e: assert_close(a, e, what=call)))(got, exp)
    if check_warnings:
        assert got_warn == exp_warn, f"{call}: warnings {got_warn} != sklearn's {exp_warn}"
    ORACLE_CALLS[_current_test()]["value"] += 1
    return got


@pytest.fixture
def shared_data() -> Path:
    """The shared data folder, or skip when the checkout has no ``shared/`` beside it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared data folder not found at {SHARED_DATA.resolve()} (clone shared/ beside the repo)")
    return SHARED_DATA


@pytest.fixture(scope="module")
def asah():
    """pROC's aSAH data set (shared/data/aSAH.csv) as a DataFrame, or skip saying where it was looked for."""
    path = SHARED_DATA / "aSAH.csv"
    if not path.exists():
        pytest.skip(f"the aSAH data set (pROC) is not at {path.resolve()}; the pROC reference tests need shared/data")
    pd = pytest.importorskip("pandas")
    return pd.read_csv(path)


# -- plots (tests/plot): matplotlib's Agg canvas, every pyplot figure closed after each test ----


@pytest.fixture(autouse=True)
def _close_pyplot_figures():
    yield
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def _agg_figure(**kwargs: Any) -> Any:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    return Figure(figsize=(6, 5), **kwargs)


@pytest.fixture
def ax():
    """Axes on a pyplot-free figure (fast; nothing to close)."""
    return _agg_figure(layout="constrained").add_subplot()


@pytest.fixture
def ax3d():
    return _agg_figure().add_subplot(projection="3d")


@pytest.fixture
def legend_texts():
    """legend_texts(ax) -> the texts of the axes' legend."""

    def texts(ax: Any) -> list[str]:
        leg = ax.get_legend()
        return [] if leg is None else [t.get_text() for t in leg.get_texts()]

    return texts
