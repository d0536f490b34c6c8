"""Immutable results read off the statistics, each with ``to_dict()``: the confusion matrix, the
report table and its text, operating points, threshold sweeps, cost and decision curves, and
intervals. Views (:mod:`clfeval.report`, :mod:`clfeval.plot`) render these and compute nothing.

>>> from clfeval.results.confusion import ConfusionMatrix
>>> ConfusionMatrix.from_matrix(["cat", "dog"], [[3, 1], [2, 4]]).normalized("true").tolist()
[[0.75, 0.25], [0.3333333333333333, 0.6666666666666666]]
"""
