"""The static 3-D threshold views do not mislead: the view is orthographic, the curve's far end
(ROC: (1, 1) at the lowest threshold) sits on the far wall at the height of the rate axis's
"1.0" label, nothing of it is clipped, and the PNG has the exact 2-D companion panel.

The old view (perspective-free but low, elevation 16 and azimuth -120, the highest threshold at
the back) put the ROC curve's end at the front, where its TPR of 1 was drawn level with the
axis's 0.75.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import clfeval
from clfeval.plot import ThresholdCurve3DDisplay
from clfeval.plot.save import render_pngs
from clfeval.plot.threshold3d import AZIM, ELEV, far_walls

rng = np.random.default_rng(11)
Y = rng.integers(0, 2, 400)
S = 1 / (1 + np.exp(-(3 * (2 * Y - 1) + rng.normal(0, 2, Y.size))))


def drawn(kind: str = "roc") -> tuple[ThresholdCurve3DDisplay, Figure]:
    fig = Figure(figsize=(7, 6), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(projection="3d")
    ev = clfeval.evaluate(Y, y_score=S, name="m")
    disp = ThresholdCurve3DDisplay.from_evaluation(ev, kind, ax=ax)
    fig.canvas.draw()
    return disp, fig


def screen(ax, x: float, y: float, z: float) -> np.ndarray:
    """Display (pixel) coordinates of a data point of 3-D ``ax``."""
    from mpl_toolkits.mplot3d import proj3d

    sx, sy, _ = proj3d.proj_transform(x, y, z, ax.get_proj())
    return ax.transData.transform((sx, sy))


def test_view_is_orthographic_from_above_and_in_front() -> None:
    disp, _ = drawn()
    ax = disp.ax_
    assert (ax.elev, ax.azim) == (ELEV, AZIM) == (24.0, -60.0)
    # orthographic: the projection is affine (its homogeneous w does not depend on the point),
    # so a point's place on the page does not depend on its depth
    proj = ax.get_proj()
    np.testing.assert_array_equal(proj[3, :3], 0.0)
    lo_t, hi_t = sorted(ax.get_ylim())
    # the threshold falls away from the viewer: its far wall is the lowest threshold
    assert ax.get_ylim()[0] > ax.get_ylim()[1]
    assert far_walls(ax, ax.azim)[1] == pytest.approx(lo_t)


@pytest.mark.parametrize("kind", ["roc", "pr"])
def test_far_end_sits_on_the_far_wall_level_with_its_label(kind: str) -> None:
    disp, fig = drawn(kind)
    ax = disp.ax_
    i = int(np.argmin(disp.thresholds))
    end = (float(disp.x[i]), float(disp.thresholds[i]), float(disp.y[i]))
    if kind == "roc":
        assert end[0] == end[2] == 1.0  # the ROC curve ends at (1, 1)
    at = screen(ax, *end)
    # inside the axes and the figure: not clipped
    box = ax.bbox
    assert box.x0 <= at[0] <= box.x1 and box.y0 <= at[1] <= box.y1
    assert 0 <= at[0] <= fig.bbox.width and 0 <= at[1] <= fig.bbox.height
    # on the far wall, on the plain 2-D curve's end (drawn there) ...
    wall = disp.projection_.get_data_3d()
    assert wall[1][0] == pytest.approx(min(ax.get_ylim()))
    np.testing.assert_allclose(screen(ax, wall[0][i], wall[1][i], wall[2][i]), at, atol=0.5)
    # ... at the height a reader reads off the rate axis: its tick at the end's value
    ticks = {round(float(t), 6): screen(ax, 1.0, min(ax.get_ylim()), float(t)) for t in ax.get_zticks() if 0 <= t <= 1}
    want = screen(ax, 1.0, min(ax.get_ylim()), end[2])
    assert abs(at[1] - want[1]) < 1.0
    if kind == "roc":
        assert abs(at[1] - ticks[1.0][1]) < 1.0
    # the ends are marked, with a drop line to the floor
    assert len(disp.ends_) == 2
    assert [np.ravel(m.get_data_3d())[2] for m in disp.ends_] == [disp.y[0], disp.y[-1]]


def test_walls_carry_the_three_projections() -> None:
    disp, _ = drawn()
    ax = disp.ax_
    x_wall, t_wall = far_walls(ax, ax.azim)
    back, side, floor = disp.wall_projections_
    xs, ts, zs = back.get_data_3d()
    assert np.all(ts == t_wall) and np.array_equal(xs, disp.x) and np.array_equal(zs, disp.y)
    xs, ts, zs = side.get_data_3d()
    assert np.all(xs == x_wall) and np.array_equal(ts, disp.thresholds) and np.array_equal(zs, disp.y)
    xs, ts, zs = floor.get_data_3d()
    assert np.all(zs == 0) and np.array_equal(xs, disp.x) and np.array_equal(ts, disp.thresholds)


def test_png_has_the_2d_companion_panel() -> None:
    from matplotlib.image import imread

    ev_a = clfeval.evaluate(Y, y_score=S, name="a")
    ev_b = clfeval.evaluate(Y, y_score=S ** 2, name="b")
    pngs = dict(render_pngs([ev_a, ev_b], dpi=50))
    for kind in ("roc", "pr"):
        img = imread(io.BytesIO(pngs[f"{kind}_3d.png"]))
        assert img.shape[1] > 1.8 * img.shape[0]  # the 3-D view and the panel side by side
    fig = Figure()
    ax = fig.add_subplot()
    disp = ThresholdCurve3DDisplay.from_evaluation(ev_a, "roc", ax=Figure().add_subplot(projection="3d"))
    rate, other = disp.plot_rates(ax)
    # the staircase of TPR and FPR against the threshold, exactly the curve's values
    t, tpr = rate.get_data()
    assert set(np.asarray(t)) == set(disp.thresholds) and set(np.asarray(tpr)) == set(disp.y)
    assert set(np.asarray(other.get_ydata())) == set(disp.x)
    assert rate.get_color() == other.get_color() == disp.line_.get_color()
