"""CriticalDifferenceDisplay: Demšar's (2006) example drawn with the right ranks, CD and groups.

Reference: Demšar, J. (2006), JMLR 7:1-30, Table 6 and Fig. 1-2 (C4.5 variants on 14 data sets;
average ranks 3.143, 2.000, 2.893, 1.964; Nemenyi CD = 1.25 at alpha = 0.05, 1.12 at 0.10;
Bonferroni-Dunn CD = 1.168 around C4.5). The score table is shared with tests/stats/test_ranks.py.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from clfeval.plot.cd_diagram import CriticalDifferenceDisplay
from clfeval.stats.ranks import critical_difference

NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657], [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625], [0.775, 0.838, 0.866, 0.875],
    [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.9751, 0.975],  # voting: printed 0.975 / 0.975, ranked 2 / 3 in Table 6
    [0.957, 0.978, 0.946, 0.970],
])
RANKS = [3.143, 2.000, 2.893, 1.964]


def span(line) -> float:
    x = line.get_xdata()
    return abs(float(x[-1]) - float(x[0]))


def test_demsar_nemenyi_diagram(ax):
    d = CriticalDifferenceDisplay.from_scores(DEMSAR, NAMES, ax=ax)
    np.testing.assert_allclose(d.average_ranks, RANKS, atol=5e-4)
    # each classifier hangs from its average rank
    for i, line in enumerate(d.rank_lines_):
        assert line.get_xdata()[0] == pytest.approx(RANKS[i], abs=5e-4)
    assert [t.get_text() for t in d.name_texts_] == ["C4.5 (3.14)", "C4.5+m (2.00)", "C4.5+cf (2.89)",
                                                     "C4.5+m+cf (1.96)"]
    # CD bar is the critical difference long
    assert span(d.cd_bar_) == pytest.approx(critical_difference(4, 14), rel=1e-12)
    assert round(span(d.cd_bar_), 2) == 1.25
    assert d.cd_text_.get_text() == "CD = 1.25"
    # one group: nothing differs significantly at 0.05; its thick line runs from 1.964 to 3.143
    assert d.groups_ == [(3, 1, 2, 0)]
    assert len(d.group_lines_) == 1
    np.testing.assert_allclose(sorted(d.group_lines_[0].get_xdata()), [RANKS[3], RANKS[0]], atol=5e-4)
    assert d.group_lines_[0].get_linewidth() > 2 * d.axis_line_.get_linewidth()


def test_axis_is_turned_best_on_the_right(ax):
    d = CriticalDifferenceDisplay.from_scores(DEMSAR, NAMES, ax=ax)
    left, right = ax.get_xlim()
    assert left > 4 and right < 1  # rank 1 on the right
    xs = {n: t.get_position()[0] for n, t in zip(NAMES, d.name_texts_)}
    assert xs["C4.5+m"] < 1 and xs["C4.5+m+cf"] < 1  # better half: right of the axis
    assert xs["C4.5"] > 4 and xs["C4.5+cf"] > 4


def test_demsar_nemenyi_diagram_at_alpha_010(ax):
    d = CriticalDifferenceDisplay.from_scores(DEMSAR, NAMES, alpha=0.10, ax=ax)
    assert round(d.critical_difference, 2) == 1.12
    # C4.5 differs from C4.5+m and C4.5+m+cf, not from C4.5+cf: two overlapping groups
    assert d.groups_ == [(3, 1, 2), (2, 0)]
    spans = sorted(tuple(np.round(sorted(ln.get_xdata()), 3)) for ln in d.group_lines_)
    assert spans == [(1.964, 2.893), (2.893, 3.143)]


def test_demsar_bonferroni_dunn_diagram(ax):
    d = CriticalDifferenceDisplay.from_scores(DEMSAR, NAMES, test="bonferroni-dunn", control=0, ax=ax)
    cd = critical_difference(4, 14, test="bonferroni-dunn")
    assert span(d.cd_bar_) == pytest.approx(cd)
    lo, hi = sorted(d.group_lines_[0].get_xdata())
    assert (lo, hi) == pytest.approx((d.average_ranks[0] - cd, 4.0))  # clipped to the axis
    # C4.5+m+cf (1.964) lies outside the interval, C4.5+m (2.000) inside
    assert lo > d.average_ranks[3] and lo < d.average_ranks[1]
    assert d.name_texts_[0].get_fontweight() == "bold"


def test_from_ranks_matches_from_scores(ax):
    a = CriticalDifferenceDisplay.from_ranks(RANKS, 14, NAMES, ax=ax)
    assert a.critical_difference == pytest.approx(critical_difference(4, 14))
    assert a.groups_ == [(3, 1, 2, 0)]


def test_labels_stay_inside_the_figure_and_do_not_overlap():
    rng = np.random.default_rng(1)
    scores = rng.normal(size=(30, 9)) + np.linspace(0, 1.5, 9)
    names = [f"a fairly long classifier name {i}" for i in range(9)]
    d = CriticalDifferenceDisplay.from_scores(scores, names)
    FigureCanvasAgg(d.figure_)
    d.figure_.canvas.draw()
    renderer = d.figure_.canvas.get_renderer()
    fig_box = d.figure_.bbox
    boxes = [t.get_window_extent(renderer) for t in d.name_texts_]
    for b in boxes:
        assert b.x0 >= fig_box.x0 - 1 and b.x1 <= fig_box.x1 + 1 and b.y0 >= fig_box.y0 - 1
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            assert not boxes[i].overlaps(boxes[j]), (names[i], names[j])


def test_new_figure_and_png(tmp_path):
    d = CriticalDifferenceDisplay.from_scores(DEMSAR, NAMES)
    out = tmp_path / "cd.png"
    d.figure_.savefig(out)
    assert out.stat().st_size > 1000


def test_bad_input(ax):
    with pytest.raises(ValueError, match="names"):
        CriticalDifferenceDisplay.from_scores(DEMSAR, ["a", "b"], ax=ax)
    with pytest.raises(ValueError, match="test must be"):
        CriticalDifferenceDisplay.from_scores(DEMSAR, NAMES, test="tukey", ax=ax)
    with pytest.raises(ValueError, match="control"):
        CriticalDifferenceDisplay(RANKS, NAMES, 1.2, test="bonferroni-dunn")
    with pytest.raises(ValueError, match=r"n_datasets, n_classifiers"):
        CriticalDifferenceDisplay.from_scores(DEMSAR[:1], NAMES, ax=ax)


def test_import_does_not_load_matplotlib():
    code = "import sys, clfeval.plot.cd_diagram; assert 'matplotlib' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
