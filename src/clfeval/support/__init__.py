"""Small tools every layer uses and no number of evaluation depends on: read-only arrays, sorted
search, JSON cleaning, Ctrl-C handling, progress lines, atomic and staged file writes, and the map
of module paths that moved (:mod:`clfeval.support.moved_paths`).

Bottom layer: a module here imports nothing else from clfeval but :mod:`clfeval.exceptions`.
"""
