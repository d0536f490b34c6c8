"""
Streaming evaluation: batch by batch, the same numbers as in memory
===================================================================

Predictions often arrive in pieces: batches from a data loader, days of a log, files of a
directory, partitions on a cluster. :class:`clfeval.StreamingEvaluation` keeps small statistics
that *merge exactly*: after any number of ``update`` calls, ``result()`` is the evaluation of
everything seen so far, equal to what :func:`clfeval.evaluate` gives on all rows at once, down to
the last bit of the ROC AUC. This example streams a million scored transactions of a made-up fraud
detector in twenty batches, checks the equality, merges two streams, and bounds the memory with
binned scores.
"""

# %%
# A stream of batches
# -------------------
# Each batch holds 50,000 transactions, a fifth of them fraud, with a score rounded to six
# decimals as a model served behind an API might return it. We feed every batch to an exact
# stream and keep the batches only to compare with the in-memory evaluation afterwards.

import matplotlib.pyplot as plt
import numpy as np

import clfeval
from clfeval import StreamingEvaluation

rng = np.random.default_rng(0)


def next_batch(n=50_000):
    """One batch of labels and fraud scores (a stand-in for a data loader)."""
    fraud = rng.random(n) < 0.2
    score = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * fraud - 1.0)))
    return np.where(fraud, "fraud", "ok"), np.round(score, 6)


batches = [next_batch() for _ in range(20)]

stream = StreamingEvaluation(labels=["ok", "fraud"], pos_label="fraud", name="fraud model")
binned = StreamingEvaluation(labels=["ok", "fraud"], pos_label="fraud", mode="binned", bits=8)
rows, exact_bytes, binned_bytes = [], [], []
snapshots = {}
for i, (labels, scores) in enumerate(batches, start=1):
    stream.update(labels, y_score=scores)
    binned.update(labels, y_score=scores)
    rows.append(stream.n_samples)
    exact_bytes.append(stream.nbytes)
    binned_bytes.append(binned.nbytes)
    if i in (1, 2, 5, 10, 20):  # an evaluation of everything so far, at any moment
        snapshots[stream.n_samples] = stream.result().ci("roc_auc")
print(stream)

# %%
# Equal to the in-memory evaluation
# ---------------------------------
# ``result()`` returns an ordinary :class:`~clfeval.Evaluation`: report, curves, operating points,
# intervals. Its confusion counts, ROC AUC and average precision are those of the whole data
# evaluated at once, exactly, not within a tolerance.

ev_stream = stream.result()
all_labels = np.concatenate([b[0] for b in batches])
all_scores = np.concatenate([b[1] for b in batches])
ev_memory = clfeval.evaluate(all_labels, y_score=all_scores, labels=["ok", "fraud"], pos_label="fraud",
                             name="fraud model")
for key in ("accuracy", "mcc", "roc_auc", "average_precision"):
    a, b = ev_stream.report.overall[key], ev_memory.report.overall[key]
    print(f"{key:>17}: stream {a!r:<20} memory {b!r:<20} identical: {a == b}")
print("confusion counts identical:", (ev_stream.confusion.counts == ev_memory.confusion.counts).all())
print(ev_stream.report)

# %%
# Merging streams
# ---------------
# Two workers can each keep a stream of their share and merge them at the end; the merge is the
# stream of all their rows, so it does not matter who saw what.

worker_a = StreamingEvaluation(labels=["ok", "fraud"], pos_label="fraud")
worker_b = StreamingEvaluation(labels=["ok", "fraud"], pos_label="fraud")
for i, (labels, scores) in enumerate(batches):
    (worker_a if i % 2 == 0 else worker_b).update(labels, y_score=scores)
merged = worker_a.merge(worker_b).result()
print("merged ROC AUC equals the in-memory one:",
      merged.report.overall["roc_auc"] == ev_memory.report.overall["roc_auc"])

# %%
# The estimate as the rows arrive
# -------------------------------
# Because a result can be asked for at any time, a monitoring job can report the ROC AUC with its
# interval after every batch; the interval narrows as the rows accumulate.

n_seen = np.array(list(snapshots))
fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
est = np.array([c.estimate for c in snapshots.values()])
low = np.array([c.low for c in snapshots.values()])
high = np.array([c.high for c in snapshots.values()])
ax.errorbar(n_seen, est, yerr=[est - low, high - est], fmt="o-", capsize=4,
            label="stream: ROC AUC, 95% interval")
ax.axhline(ev_memory.report.overall["roc_auc"], color="k", linestyle=":", label="all rows in memory")
ax.set(xscale="log", xlabel="rows seen", ylabel="ROC AUC", title="An evaluation at any point of the stream")
ax.legend()
plt.show()

# %%
# Bounded memory with binned scores
# ---------------------------------
# An exact stream keeps one entry per distinct score, so its state grows with the data (here
# the million scores hold over half a million distinct values). ``mode="binned"`` rounds the
# scores onto a fixed grid (``bits`` mantissa bits) before counting: the state stops growing,
# every count-based number stays exact because predictions are made from the unrounded scores,
# and the areas come with exact lower and upper bounds that the unbinned values are guaranteed
# to lie within.

print(f"{np.unique(all_scores).size:,} distinct scores; state "
      f"{stream.nbytes / 2**20:.1f} MiB exact, {binned.nbytes / 2**10:.0f} KiB binned")
print(binned.result().binning["fraud"])
print(f"exact ROC AUC {ev_memory.report.overall['roc_auc']:.6f}")

fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
ax.plot(rows, np.array(exact_bytes) / 2**10, "o-", label="exact stream")
ax.plot(rows, np.array(binned_bytes) / 2**10, "s-", label="binned stream (8 bits)")
ax.set(xscale="log", yscale="log", xlabel="rows seen", ylabel="size of the state (KiB)",
       title="Memory of the stream")
ax.legend(loc="center right")
ax.grid(True, which="both", color="0.93")
plt.show()
