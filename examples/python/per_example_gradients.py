"""Per-example gradients of an MLP with ``adjoint.vmap``.

``vmap(grad(loss), in_axes=(None, 0, 0))`` maps the gradient of a
one-example loss over a batch: the parameters (axis None) are shared by
every example and stay unbatched in the batched program, so each layer is
one matmul over the whole batch, as a hand-batched program would compute.
Per-example gradients are what differentially private SGD clips and what
gradient-noise and influence studies measure.

    PYTHONPATH=build/python python3 examples/python/per_example_gradients.py

It is also a test (ctest -R python-example-per-example-gradients): it
exits non-zero unless the vmapped gradients match a plain Python loop of
``grad(loss)`` over the examples, and their per-example norms clipped and
averaged match too.
"""

import sys

import numpy as np

import adjoint as adj

FEATURES, HIDDEN, CLASSES, BATCH = 8, 16, 3, 32


def loss(params, x, label):
    """Cross-entropy of one example (x: [FEATURES], label: one-hot)."""
    w1, b1, w2, b2 = params
    h = adj.numpy.tanh(x @ w1 + b1)
    logits = h @ w2 + b2
    top = adj.numpy.max(logits)
    log_z = adj.numpy.log(adj.numpy.sum(adj.numpy.exp(logits - top))) + top
    return log_z - adj.numpy.sum(logits * label)


per_example_grads = adj.vmap(adj.grad(loss), in_axes=(None, 0, 0))


@adj.jit
def clipped_mean_gradient(params, x, labels, clip):
    """DP-SGD's aggregate: each example's gradient scaled to norm <= clip,
    then averaged (one compiled program, vmap inside jit)."""
    grads = adj.vmap(adj.grad(loss), in_axes=(None, 0, 0))(params, x, labels)
    norms = adj.numpy.sqrt(sum(adj.numpy.sum(g * g, axis=tuple(
        range(1, len(g.shape)))) for g in grads))
    scale = adj.numpy.minimum(1.0, clip / (norms + 1e-12))
    out = []
    for g in grads:
        s = adj.numpy.reshape(scale, [BATCH] + [1] * (len(g.shape) - 1))
        out.append(adj.numpy.mean(g * s, axis=0))
    return tuple(out)


def main():
    rng = np.random.default_rng(0)
    params = (rng.standard_normal((FEATURES, HIDDEN)) * 0.3,
              np.zeros(HIDDEN),
              rng.standard_normal((HIDDEN, CLASSES)) * 0.3,
              np.zeros(CLASSES))
    x = rng.standard_normal((BATCH, FEATURES))
    labels = np.eye(CLASSES)[rng.integers(0, CLASSES, BATCH)]

    batched = per_example_grads(params, x, labels)
    one = adj.grad(loss)
    looped = [one(params, x[i], labels[i]) for i in range(BATCH)]
    ok = True
    for k, name in enumerate(("w1", "b1", "w2", "b2")):
        want = np.stack([np.asarray(g[k]) for g in looped])
        err = np.abs(np.asarray(batched[k]) - want).max()
        print("%s: per-example gradients %s, max |vmap - loop| = %.2e"
              % (name, want.shape, err))
        ok &= err < 1e-10

    clip = 0.5
    norms = np.sqrt(sum((np.asarray(g) ** 2).reshape(BATCH, -1).sum(1)
                        for g in batched))
    scale = np.minimum(1.0, clip / (norms + 1e-12))
    aggregate = clipped_mean_gradient(params, x, labels, np.float64(clip))
    for k in range(4):
        g = np.asarray(batched[k])
        want = (g * scale.reshape([BATCH] + [1] * (g.ndim - 1))).mean(0)
        err = np.abs(np.asarray(aggregate[k]) - want).max()
        ok &= err < 1e-10
    print("clipped mean gradient matches: %s" % ok)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
