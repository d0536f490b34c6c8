"""The order of the gallery: the path of classic model evaluation, as the user guide follows it.

sphinx-gallery sorts the examples of a folder with ``within_subsection_order`` (docs/conf.py names
this class); an example not listed here goes last, by file name, so a new one is never lost.
"""

ORDER = (
    "plot_first_evaluation.py",
    "plot_confusion_matrix.py",
    "plot_classification_report.py",
    "plot_roc_pr_curves.py",
    "plot_threshold_axis.py",
    "plot_multiclass_ovr.py",
    "plot_intervals_and_bands.py",
    "plot_compare_two_models.py",
    "plot_critical_difference.py",
    "plot_cross_validation.py",
    "plot_pooling_vs_averaging.py",
    "plot_bootstrap_632.py",
    "plot_costs_and_thresholds.py",
    "plot_calibration.py",
    "plot_deployment_prevalence_and_corp.py",
    "plot_groups.py",
    "plot_streaming.py",
    "plot_html_report.py",
    "plot_sklearn_dropin.py",
)


class GalleryOrder:
    """Sort key of sphinx-gallery: the position in :data:`ORDER`, then the file name."""

    def __init__(self, src_dir: str) -> None:
        self.src_dir = src_dir

    def __call__(self, filename: str) -> tuple[int, str]:
        return (ORDER.index(filename) if filename in ORDER else len(ORDER), filename)

    def __repr__(self) -> str:  # sphinx-gallery compares config values by their repr
        return "GalleryOrder"
