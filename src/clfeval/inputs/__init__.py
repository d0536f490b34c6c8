"""Raw data to checked arrays, the first step of every evaluation: label coercion and target
kinds (:mod:`~clfeval.inputs.labels`), array and file checks (:mod:`~clfeval.inputs.checks`),
probability inputs, the kind of a score column and its default threshold
(:mod:`~clfeval.inputs.score_kind`), the positive-class rules
(:mod:`~clfeval.inputs.sklearn_pos_label`, :mod:`~clfeval.inputs.evaluate_arguments`), which
columns of a file hold a model's outputs (:mod:`~clfeval.inputs.column_roles`) and the built-in
example data (:mod:`~clfeval.inputs.examples`).

>>> from clfeval.inputs.score_kind import default_threshold
>>> default_threshold("probability"), default_threshold("decision")
(0.5, 0.0)
"""
