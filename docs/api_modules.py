"""The modules whose ``__all__`` is clfeval's documented API: one home for the list.

docs/conf.py writes one reference page per module from it, and tests/test_docstrings.py checks
every name on those pages. A module added here appears in both.
"""

PUBLIC_MODULES = (
    ("clfeval", "The main job: evaluate() and its results"),
    ("clfeval.metrics", "Drop-in replacements for sklearn.metrics"),
    ("clfeval.stats", "Hypothesis tests and model comparison"),
    ("clfeval.uncertainty", "Intervals for every number"),
    ("clfeval.protocols", "Evaluation protocols"),
    ("clfeval.cross_evaluation", "Results of evaluation protocols"),
    ("clfeval.costs", "Costs, cost curves and decision curves"),
    ("clfeval.calibration", "Calibration"),
    ("clfeval.plot", "Plots and scikit-learn style displays"),
    ("clfeval.report.html", "The self-contained HTML page"),
    ("clfeval.evaluation", "Building blocks of evaluate()"),
    ("clfeval.streaming", "Streaming evaluation"),
    ("clfeval.dask", "Evaluation with Dask"),
    ("clfeval.integrations.mlflow", "Logging to MLflow"),
    ("clfeval.exceptions", "Warnings and errors"),
)
