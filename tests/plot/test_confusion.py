"""ConfusionMatrixDisplay: the annotations are the counts / rates, readable up to 50 classes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox
from sklearn.metrics import confusion_matrix

import clfeval
from clfeval.plot import ConfusionMatrixDisplay
from clfeval.plot.confusion import MIN_FONT, figure_size

Y_TRUE = ["cat", "dog", "dog", "eel", "cat", "eel", "eel", "dog", "cat", "cat"]
Y_PRED = ["cat", "dog", "cat", "eel", "cat", "dog", "eel", "dog", "eel", "cat"]


def texts(disp) -> list[list[str]]:
    """The annotations; a hidden zero reads "0"."""
    return [["0" if t is None else t.get_text() for t in row] for row in disp.text_]


def as_numbers(disp) -> np.ndarray:
    return np.array([[np.nan if s == "–" else float(s) for s in row] for row in texts(disp)])


def assert_shown(disp, values, decimals: int = 2) -> None:
    """The annotations are the values, to the decimals shown (NaN shown as a dash)."""
    np.testing.assert_allclose(as_numbers(disp), values, rtol=0, atol=0.5 * 10**-decimals + 1e-12)


def test_counts_are_annotated(ax):
    ev = clfeval.evaluate(Y_TRUE, Y_PRED)
    disp = ConfusionMatrixDisplay.from_evaluation(ev, ax=ax)
    expected = confusion_matrix(Y_TRUE, Y_PRED, labels=["cat", "dog", "eel"])
    assert texts(disp) == [[str(v) if v else "0" for v in row] for row in expected.tolist()]
    np.testing.assert_array_equal(disp.im_.get_array(), expected)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["cat", "dog", "eel"]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["cat", "dog", "eel"]
    assert disp.ax_ is ax and disp.figure_ is ax.figure


@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_normalised_values_are_annotated(ax, normalize):
    ev = clfeval.evaluate(Y_TRUE, Y_PRED)
    disp = ConfusionMatrixDisplay.from_evaluation(ev, normalize=normalize, ax=ax)
    expected = confusion_matrix(Y_TRUE, Y_PRED, normalize=normalize)
    np.testing.assert_allclose(disp.confusion_matrix, expected, atol=1e-15)
    assert_shown(disp, expected)
    assert normalize in disp.ax_.get_title()


def test_text_colour_follows_cell_brightness(ax):
    disp = ConfusionMatrixDisplay([[100, 0], [3, 50]]).plot(ax=ax, style="clfeval", cmap="Blues")
    assert disp.text_[0, 0].get_color() == "white"  # darkest blue
    assert disp.text_[0, 1].get_color() == "black"  # near white


def test_empty_row_is_nan_and_shown_as_dash(ax):
    ev = clfeval.evaluate([0, 0, 1], [0, 2, 1], labels=[0, 1, 2])
    disp = ConfusionMatrixDisplay.from_evaluation(ev, normalize="true", ax=ax)
    assert texts(disp)[2] == ["–", "–", "–"]
    assert texts(disp)[0] == ["0.50", "0", "0.50"]


def test_from_predictions_matches_from_evaluation_and_sklearn(ax):
    rng = np.random.default_rng(1)
    yt, yp = rng.integers(0, 4, 60), rng.integers(0, 4, 60)
    w = rng.random(60)
    labels = [3, 2, 1, 0]
    a = ConfusionMatrixDisplay.from_predictions(
        yt, yp, labels=labels, sample_weight=w, normalize="pred", display_labels=list("dcba"), ax=ax
    )
    ev = clfeval.evaluate(yt, yp, labels=labels, sample_weight=w)
    b = ConfusionMatrixDisplay.from_evaluation(ev, normalize="pred", display_labels=list("dcba"),
                                               ax=Figure().add_subplot())
    np.testing.assert_array_equal(a.confusion_matrix, b.confusion_matrix)
    assert_shown(b, a.confusion_matrix)  # a's text is scikit-learn's (test_display_parity.py)
    np.testing.assert_allclose(
        a.confusion_matrix,
        confusion_matrix(yt, yp, labels=labels, sample_weight=w, normalize="pred"),
        rtol=1e-12, atol=1e-15,
    )
    assert [t.get_text() for t in ax.get_xticklabels()] == list("dcba")


def test_weighted_counts_use_general_format(ax):
    disp = ConfusionMatrixDisplay([[1.25, 0.0], [2.5, 10.0]]).plot(ax=ax, style="clfeval")
    assert texts(disp) == [["1.25", "0"], ["2.5", "10"]]


def test_values_format_and_no_values(ax):
    disp = ConfusionMatrixDisplay([[5, 1], [2, 7]]).plot(ax=ax, values_format="03d")
    assert texts(disp)[0] == ["005", "001"]
    assert ConfusionMatrixDisplay([[5, 1], [2, 7]]).plot(ax=Figure().add_subplot(), include_values=False).text_ is None


def test_multilabel_and_bad_input_are_refused(ax):
    ev = clfeval.evaluate(np.array([[1, 0], [0, 1]]), np.array([[1, 0], [1, 1]]))
    with pytest.raises(ValueError, match="multilabel"):
        ConfusionMatrixDisplay.from_evaluation(ev, ax=ax)
    with pytest.raises(ValueError, match="square"):
        ConfusionMatrixDisplay([[1, 2, 3]])
    with pytest.raises(ValueError, match="normalize"):
        ConfusionMatrixDisplay([[1]], normalize="rows")


def test_figure_grows_with_classes():
    sizes = [figure_size(k)[1] for k in (2, 10, 30, 50, 200)]
    assert sizes == sorted(sizes) and sizes[-1] <= 16


def _inside(inner, outer, tol=0.5) -> bool:
    return (inner.x0 >= outer.x0 - tol and inner.x1 <= outer.x1 + tol
            and inner.y0 >= outer.y0 - tol and inner.y1 <= outer.y1 + tol)


@pytest.mark.parametrize("normalize", ["true"])
def test_fifty_classes_fit_their_cells(normalize):
    rng = np.random.default_rng(0)
    k = 50
    yt = rng.integers(0, k, 4000)
    yp = np.where(rng.random(4000) < 0.7, yt, rng.integers(0, k, 4000))
    ev = clfeval.evaluate(yt, yp, target_names=[f"class_{i:02d}" for i in range(k)])
    disp = ConfusionMatrixDisplay.from_evaluation(ev, normalize=normalize)  # its own pyplot figure
    values = ev.confusion.counts if normalize is None else ev.confusion.normalized(normalize)
    fig = disp.figure_
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = disp.ax_
    assert disp.text_ is not None and disp.text_.shape == (k, k)
    font = disp.text_[0, 0].get_fontsize()  # the diagonal is never zero here
    assert MIN_FONT <= font <= 10
    to_px = ax.transData
    shown = [(i, j) for i in range(k) for j in range(k) if disp.text_[i, j] is not None]
    hidden = [(i, j) for i in range(k) for j in range(k) if disp.text_[i, j] is None]
    assert hidden and all(values[i, j] == 0 for i, j in hidden)  # zeros left blank above 20 classes
    for i, j in shown[::37] + [(i, i) for i in range(k)]:
        t = disp.text_[i, j]
        (x0, y0), (x1, y1) = to_px.transform([(j - 0.5, i + 0.5), (j + 0.5, i - 0.5)])
        cell = Bbox.from_extents(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        assert _inside(t.get_window_extent(renderer), cell), (i, j, t.get_text())
    # tick labels: rotated, every class named, neighbours do not overlap
    xt = [t for t in ax.get_xticklabels() if t.get_text()]
    assert len(xt) == k and xt[0].get_rotation() == 90
    boxes = [t.get_window_extent(renderer) for t in xt]
    assert all(a.x1 <= b.x0 + 0.5 for a, b in zip(boxes, boxes[1:]))
    yboxes = sorted((t.get_window_extent(renderer) for t in ax.get_yticklabels()), key=lambda b: b.y0)
    assert all(a.y1 <= b.y0 + 0.5 for a, b in zip(yboxes, yboxes[1:]))
    # annotated values are the normalised rates / counts
    assert_shown(disp, values)


def test_tiny_cells_drop_the_annotations():
    fig = Figure(figsize=(2, 2))
    disp = ConfusionMatrixDisplay(np.eye(60, dtype=int)).plot(ax=fig.add_subplot(), colorbar=False, style="clfeval")
    assert disp.text_ is None


@settings(max_examples=12)
@given(
    k=st.integers(2, 6),
    codes=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=40),
    normalize=st.sampled_from([None, "true", "pred", "all"]),
)
def test_annotations_equal_the_matrix(k, codes, normalize):
    yt = np.array([a % k for a, _ in codes])
    yp = np.array([b % k for _, b in codes])
    ev = clfeval.evaluate(yt, yp, labels=list(range(k)))
    disp = ConfusionMatrixDisplay.from_evaluation(ev, normalize=normalize, ax=Figure().add_subplot())
    values = ev.confusion.counts if normalize is None else ev.confusion.normalized(normalize)
    assert_shown(disp, values)
