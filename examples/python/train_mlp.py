"""Train an MLP classifier with adjoint's Python front end.

The loss is an ordinary Python function compiled by ``@adjoint.jit``;
``adjoint.value_and_grad`` compiles its gradient with respect to the
weights; the SGD update is plain numpy. The dataset is synthetic and
learnable by construction: noisy samples around one random centre per
class.

    PYTHONPATH=build/python python3 examples/python/train_mlp.py

It is also a test (ctest -R python-example-train-mlp): it exits non-zero
unless the loss drops to under a third of its first value and the test
accuracy exceeds 90%.
"""

import sys
import time

import numpy as np

import adjoint as adj

FEATURES, HIDDEN, CLASSES = 16, 64, 4
BATCH, STEPS, LEARNING_RATE = 64, 300, 0.1


def make_dataset(rng, n, centres):
    labels = rng.integers(0, CLASSES, n)
    x = centres[labels] + rng.standard_normal((n, FEATURES))
    return x.astype(np.float32), labels


def init_weights(rng):
    def layer(fan_in, fan_out):
        w = rng.standard_normal((fan_in, fan_out)) * np.sqrt(2.0 / fan_in)
        return w.astype(np.float32), np.zeros(fan_out, np.float32)
    return [*layer(FEATURES, HIDDEN), *layer(HIDDEN, CLASSES)]


@adj.jit
def logits(x, w1, b1, w2, b2):
    h = adj.relu(x @ w1 + b1)
    return h @ w2 + b2


@adj.jit
def loss(x, labels, w1, b1, w2, b2):
    # Calls of other jitted (or plain) Python functions are inlined.
    return adj.cross_entropy(logits(x, w1, b1, w2, b2), labels)


def accuracy(x, labels, weights):
    return float(np.mean(np.argmax(logits(x, *weights), axis=1) == labels))


def main():
    rng = np.random.default_rng(0)
    centres = rng.standard_normal((CLASSES, FEATURES))
    x_train, y_train = make_dataset(rng, 4096, centres)
    x_test, y_test = make_dataset(rng, 1024, centres)
    weights = init_weights(rng)

    # d loss / d (w1, b1, w2, b2): arguments 2 to 5.
    loss_and_grads = adj.value_and_grad(loss, argnums=(2, 3, 4, 5))

    start = time.perf_counter()
    losses = []
    for step in range(STEPS):
        batch = rng.integers(0, len(x_train), BATCH)
        value, grads = loss_and_grads(x_train[batch], y_train[batch],
                                      *weights)
        weights = [w - LEARNING_RATE * g for w, g in zip(weights, grads)]
        losses.append(float(value))
        if step % 50 == 0 or step == STEPS - 1:
            print("step %3d  loss %.4f" % (step, value))
    seconds = time.perf_counter() - start

    first = np.mean(losses[:10])
    last = np.mean(losses[-10:])
    acc = accuracy(x_test, y_test, weights)
    print("loss %.4f -> %.4f, test accuracy %.1f%%, %d steps in %.2f s "
          "(compiling included)" % (first, last, 100 * acc, STEPS, seconds))
    if not (last < first / 3 and acc > 0.9):
        print("FAILED: the MLP did not learn", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
