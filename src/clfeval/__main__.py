"""``python -m clfeval``: evaluate the built-in example and print its classification report.

>>> callable(main)
True
"""

from __future__ import annotations

import sys

from .examples import load_iris_example
from .metrics import classification_report, confusion_matrix


def main(argv: list[str] | None = None) -> int:
    """Print the classification report and confusion matrix of the built-in iris example."""
    ex = load_iris_example()
    print(f"Example: {ex.name}, {ex.y_true.shape[0]} samples\n")
    print(classification_report(ex.y_true, ex.y_pred, digits=3))
    cm = confusion_matrix(ex.y_true, ex.y_pred, labels=ex.classes)
    width = max(len(c) for c in ex.classes)
    print("Confusion matrix (rows = true, columns = predicted):")
    print(" " * (width + 2) + " ".join(f"{c:>{width}}" for c in ex.classes))
    for label, row in zip(ex.classes, cm):
        print(f"{label:>{width}}  " + " ".join(f"{v:>{width}d}" for v in row))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
