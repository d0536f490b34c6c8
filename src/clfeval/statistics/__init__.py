"""The sufficient statistics: small tables that merge, so that ``a.merge(b)`` is the table of the
concatenated data. Confusion counts (dense, sparse, multilabel) and their margins, score tables
sorted once (:mod:`~clfeval.statistics.scores`), per-class rankings
(:mod:`~clfeval.statistics.rankings`) and binned scores with exact bounds.

>>> from clfeval.statistics.counts import ConfusionCounts
>>> a = ConfusionCounts.from_labels([0, 1], [0, 0], labels=[0, 1])
>>> b = ConfusionCounts.from_labels([1], [1], labels=[0, 1])
>>> a.merge(b).matrix.tolist()
[[1, 0], [1, 1]]
"""
