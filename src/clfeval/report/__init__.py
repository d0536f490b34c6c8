"""Renderings of an Evaluation: the report table and its text, Markdown, JSON, terminal and HTML
forms. Heavy dependencies (rich, plotly) are imported only by the modules that need them."""

import importlib as _importlib
import importlib.util as _importlib_util
from typing import Any as _Any


def __getattr__(name: str) -> _Any:
    """``clfeval.report.html`` (and the other renderings) are imported on first use, as
    ``import clfeval.report.html`` would: ``clfeval.report.html.write_html(...)`` works after ``import clfeval``."""
    if not name.startswith("_") and _importlib_util.find_spec(f"{__name__}.{name}") is not None:
        return _importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
