"""Sphinx configuration of clfeval's documentation.

Build: ``pip install -e '.[docs]' && python -m sphinx -W --keep-going -b html docs docs/_build/html``
(what .ci/run does). The user guide's pages are MyST notebooks executed at build time (myst-nb),
the gallery's scripts are run by sphinx-gallery, and the API reference is written from each public
module's ``__all__`` (docs/api_modules.py), so a name cannot be left out.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

DOCS = Path(__file__).resolve().parent
ROOT = Path(os.environ.get("CLFEVAL_REPO", DOCS.parent)).resolve()
sys.path.insert(0, str(DOCS))

from api_modules import PUBLIC_MODULES  # noqa: E402

import clfeval  # noqa: E402

project = "clfeval"
author = "the clfeval developers"
copyright = "2026, the clfeval developers"
release = clfeval.__version__ if hasattr(clfeval, "__version__") else "0.1.0"
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",   # MathJax copied into the site: formulas render offline, no CDN
    "sphinx.ext.intersphinx",
    "numpydoc",
    "myst_nb",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "jupyter_execute", "**.ipynb_checkpoints", "api_modules.py", "gallery_order.py", "architecture.md",
                    "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip"]
templates_path = ["_templates"]

# --- API reference -----------------------------------------------------------------------------
autosummary_generate = True
autodoc_typehints = "none"          # the numpydoc Parameters sections say the types
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False


def _constant_doc(module, name: str) -> list[str]:
    """The ``#:`` comment above a public constant, read in the module that defines it."""
    from sphinx.pycode import ModuleAnalyzer

    value = getattr(module, name)
    for candidate in sorted(m for m in sys.modules if m == "clfeval" or m.startswith("clfeval.")):
        if getattr(sys.modules[candidate], name, None) is not value:
            continue
        try:
            docs = ModuleAnalyzer.for_module(candidate).find_attr_docs()
        except Exception:  # a module without source (never the case for clfeval's own)
            continue
        if ("", name) in docs:
            return [line for line in docs[("", name)] if line.strip()]
    raise RuntimeError(f"public constant {module.__name__}.{name} has no #: comment where it is defined")


def _write_api_pages() -> None:
    """One page per public module listing every name of its ``__all__``."""
    api = DOCS / "api"
    api.mkdir(exist_ok=True)
    entries = []
    documented: dict[int, str] = {}     # an object re-exported by several modules is documented once
    for module_name, title in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        functions, classes, other, elsewhere = [], [], [], []
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.ismodule(obj):
                continue
            if id(obj) in documented:
                elsewhere.append(documented[id(obj)])
                continue
            documented[id(obj)] = f"{module_name}.{name}"
            (classes if inspect.isclass(obj) else functions if callable(obj) else other).append(name)
        lines = [f"{module_name}", "=" * len(module_name), "", title + ".", "",
                 f".. automodule:: {module_name}", "   :no-members:", "",
                 f".. currentmodule:: {module_name}", ""]
        # each entry's page comes from _templates/autosummary/{function,class}.rst, chosen by its kind
        for heading, names in (("Functions", functions), ("Classes", classes)):
            if names:
                lines += [heading, "-" * len(heading), "", ".. autosummary::", "   :toctree: generated", "",
                          *[f"   {n}" for n in names], ""]
        if other:
            lines += ["Constants", "---------", ""]
            for name in other:
                lines += [f".. data:: {name}", "", *[f"   {line}" for line in _constant_doc(module, name)], ""]
        if elsewhere:
            lines += ["Also importable from here", "-------------------------", "",
                      *[f"* :obj:`{full}`" for full in elsewhere], ""]
        page = api / f"{module_name}.rst"
        text = "\n".join(lines)
        if not page.exists() or page.read_text() != text:
            page.write_text(text)
        entries.append(module_name)
    index = ["API reference", "=============", "",
             "Every public name of clfeval, module by module; each page is generated from the module's",
             "``__all__`` and each entry from the docstring (numpydoc format, with an example that runs as a",
             "doctest in the test suite).", "", ".. toctree::", "   :maxdepth: 1", "",
             *[f"   {name}" for name in entries], ""]
    text = "\n".join(index)
    if not (api / "index.rst").exists() or (api / "index.rst").read_text() != text:
        (api / "index.rst").write_text(text)


_write_api_pages()

# --- user guide: executed at build time ---------------------------------------------------------
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 300
nb_execution_show_tb = True
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3

# --- gallery -------------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples" / "gallery"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "within_subsection_order": "gallery_order.GalleryOrder",
}

# --- HTML ----------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = "clfeval"
html_static_path: list[str] = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "secondary_sidebar_items": ["page-toc"],
}
html_context = {"default_mode": "light"}

intersphinx_mapping: dict[str, tuple[str, None]] = {}   # the build needs no network
