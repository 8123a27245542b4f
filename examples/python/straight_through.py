"""Straight-through estimators: a linear classifier with binary (+1/-1)
weights, trained through sign() whose derivative is zero almost everywhere.

The forward pass uses sign(w); the backward pass pretends sign is the
identity (Bengio et al., 2013), written two ways that must agree:

- with stop_gradient: ``w + stop_gradient(sign(w) - w)``, whose value is
  sign(w) and whose derivative is 1;
- with custom_vjp: sign with the backward rule ``ct -> ct``.

    PYTHONPATH=build/python python3 examples/python/straight_through.py

It is also a test (ctest -R python-example-straight-through): it exits
non-zero unless both estimators give the same gradients (and not the zero
gradient of sign itself), and unless training the latent weights through
the estimator recovers a binary teacher's labels on held-out data.
"""

import sys

import numpy as np

import adjoint as adj
import adjoint.numpy as anp

FEATURES, SAMPLES, STEPS, LEARNING_RATE = 32, 512, 60, 0.05


def ste_stop_gradient(w):
    return w + adj.stop_gradient(anp.sign(w) - w)


@adj.custom_vjp
def ste_custom(w):
    return anp.sign(w)


def _ste_fwd(w):
    return anp.sign(w), ()


def _ste_bwd(residuals, ct):
    return (ct,)


ste_custom.defvjp(_ste_fwd, _ste_bwd)


def make_loss(binarize):
    def loss(w, x, y):
        # Logistic loss of the binary-weight classifier (labels are +1/-1).
        margin = y * (x @ binarize(w)) / np.sqrt(FEATURES)
        return anp.mean(anp.log(1.0 + anp.exp(-margin)))
    return loss


def accuracy(w, x, y):
    return float(np.mean(np.sign(x @ np.sign(w)) == y))


def main():
    rng = np.random.default_rng(0)
    teacher = np.sign(rng.standard_normal(FEATURES))
    x = rng.standard_normal((2 * SAMPLES, FEATURES))
    y = np.sign(x @ teacher)
    x_train, y_train, x_test, y_test = x[:SAMPLES], y[:SAMPLES], \
        x[SAMPLES:], y[SAMPLES:]

    grad_sg = adj.jit(adj.grad(make_loss(ste_stop_gradient)))
    grad_custom = adj.jit(adj.grad(make_loss(ste_custom)))
    grad_sign = adj.jit(adj.grad(make_loss(anp.sign)))
    w = 0.1 * rng.standard_normal(FEATURES)

    g1, g2 = grad_sg(w, x_train, y_train), grad_custom(w, x_train, y_train)
    if not np.allclose(g1, g2, rtol=1e-12, atol=1e-15):
        print("FAIL: the two estimators disagree:", g1, g2)
        return 1
    if np.any(grad_sign(w, x_train, y_train) != 0) or np.all(g1 == 0):
        print("FAIL: sign itself must have a zero gradient and the "
              "estimator a nonzero one")
        return 1

    before = accuracy(w, x_test, y_test)
    for _ in range(STEPS):
        w = w - LEARNING_RATE * FEATURES * grad_custom(w, x_train, y_train)
    after = accuracy(w, x_test, y_test)
    agree = float(np.mean(np.sign(w) == teacher))
    print("test accuracy %.3f -> %.3f; %.0f%% of the binary weights match "
          "the teacher's" % (before, after, 100 * agree))
    if after < 0.95:
        print("FAIL: the straight-through estimator did not learn")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
