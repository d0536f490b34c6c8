"""The ``browser`` fixture, imported by the browser tests of the HTML report (test_html_browser.py, test_html_layout.py).

``browser``: one headless Chromium (Debian's, driven by Playwright) per test module. Skipped when
Playwright or Chromium is missing, unless ``CLFEVAL_REQUIRE_BROWSER=1``, in which case that is a
failure. Never runs ``playwright install``: it uses the system's Chromium (``CLFEVAL_CHROMIUM``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("CLFEVAL_CHROMIUM", "/usr/bin/chromium")
REQUIRE = os.environ.get("CLFEVAL_REQUIRE_BROWSER") == "1"
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    # WebGL for the 3-D views, in software
    "--use-gl=angle",
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
]


def _unavailable(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"CLFEVAL_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the whole module."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install playwright; no browser download needed)")
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)) and not shutil.which(CHROMIUM):
        _unavailable(f"no Chromium at {CHROMIUM} (set CLFEVAL_CHROMIUM to its path)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        except Error as exc:
            _unavailable(f"Chromium at {CHROMIUM} did not start: {exc}")
        try:
            yield b
        finally:
            b.close()
