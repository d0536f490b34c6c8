"""save_pngs: valid PNG files, written atomically, pyplot and the backend left alone; and the
lazy matplotlib import."""

from __future__ import annotations

import struct
import subprocess
import sys

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

import clfeval
from clfeval.plot import save_pngs
from clfeval.plot.save import slug

rng = np.random.default_rng(5)
Y = rng.integers(0, 2, 80)
S = np.clip(0.4 * Y + rng.normal(0.3, 0.2, 80), 0, 1)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_single_binary_model(tmp_path):
    target = tmp_path / "a" / "b"  # created
    backend = matplotlib.get_backend()
    figs = plt.get_fignums()
    paths = save_pngs(clfeval.evaluate(Y, y_score=S), target)
    assert [p.name for p in paths] == [
        "confusion_matrix.png", "confusion_matrix_normalized.png", "roc.png", "pr.png",
        "roc_3d.png", "pr_3d.png",
    ]
    assert sorted(p.name for p in target.iterdir()) == sorted(p.name for p in paths)  # no temp files
    for p in paths:
        w, h = png_size(p)
        assert w > 300 and h > 300
    assert plt.get_fignums() == figs and matplotlib.get_backend() == backend


def test_several_models_and_multiclass(tmp_path):
    k = 3
    y = rng.integers(0, k, 90)
    s = rng.random((90, k)) + np.eye(k)[y]
    s /= s.sum(1, keepdims=True)
    evs = [
        clfeval.evaluate(y, y_score=s, name="Random Forest"),
        clfeval.evaluate(y, y_score=s[:, ::-1].copy(), name="Random Forest"),  # same name
        clfeval.evaluate(y, y_pred=s.argmax(1)),  # no scores
    ]
    names = [p.name for p in save_pngs(evs, tmp_path)]
    assert names == [
        "confusion_matrix_random-forest.png", "confusion_matrix_normalized_random-forest.png",
        "confusion_matrix_random-forest-2.png", "confusion_matrix_normalized_random-forest-2.png",
        "confusion_matrix_model-3.png", "confusion_matrix_normalized_model-3.png",
        "roc.png", "roc_ovr_random-forest.png", "roc_ovr_random-forest-2.png",
        "pr.png", "pr_ovr_random-forest.png", "pr_ovr_random-forest-2.png",
        "roc_3d.png", "pr_3d.png",
    ]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names)
    single = [p.name for p in save_pngs(evs[0], tmp_path / "one")]
    assert single[2:4] == ["roc.png", "pr.png"]  # one-vs-rest curves of the one model


def test_without_scores_and_multilabel(tmp_path):
    assert [p.name for p in save_pngs([clfeval.evaluate(Y, Y)], tmp_path / "x")] == [
        "confusion_matrix.png", "confusion_matrix_normalized.png"
    ]
    yt = rng.integers(0, 2, (40, 3))
    names = [p.name for p in save_pngs(clfeval.evaluate(yt, y_score=rng.random((40, 3))), tmp_path / "ml")]
    assert names == ["roc.png", "pr.png", "roc_3d.png", "pr_3d.png"]


def test_a_failed_write_leaves_nothing(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    def broken(self, *args, **kwargs):
        args[0].write(b"partial")
        raise RuntimeError("disk full")

    monkeypatch.setattr(Figure, "savefig", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        save_pngs(clfeval.evaluate(Y, Y), tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_user_axes_leave_the_backend_alone():
    fig, ax = plt.subplots()
    backend = matplotlib.get_backend()
    from clfeval.plot import RocCurveDisplay

    RocCurveDisplay.from_predictions(Y, S, ax=ax)
    assert matplotlib.get_backend() == backend and plt.get_fignums() == [fig.number]


def test_slug():
    assert slug("Logistic Regression (C=1)") == "logistic-regression-c-1"
    assert slug("ÄÖ/..") == "model"


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_matplotlib_is_imported_lazily():
    r = _run("import sys, clfeval, clfeval.plot; print('matplotlib' in sys.modules)")
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr


def test_missing_matplotlib_names_the_extra():
    r = _run(
        "import sys; sys.modules['matplotlib'] = None\n"
        "import clfeval\nfrom clfeval.plot import RocCurveDisplay\n"
        "try:\n    RocCurveDisplay.from_predictions([0, 1], [0.2, 0.8])\n"
        "except ImportError as e:\n    print(e)\n"
    )
    assert "pip install 'clfeval[plot]'" in r.stdout, r.stderr
