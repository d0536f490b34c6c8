"""Pure, batched functions of count arrays: the label measures and their registry
(:mod:`~clfeval.formulas.measures`, :mod:`~clfeval.formulas.measure_registry`), their exact
gradients, the curve formulas (ROC/PR/DET points, AUC, average precision, placements,
interpolation: :mod:`~clfeval.formulas.curves`), probability sums (log loss, Brier) and exact
sums at the ends of the number range. Each formula has one home here; every layer above calls it.

>>> import numpy as np
>>> from clfeval.formulas.measures import precision
>>> precision(tp=np.array([3.0]), fp=np.array([1.0]))
array([0.75])
"""
