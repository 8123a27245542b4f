"""mlp: a 3-layer MLP classifier (784-512-512-10 at the cpu size), ReLU,
softmax cross-entropy on integer labels."""

import numpy as np

import adjoint as adj

from ..workload import Problem, Workload, glorot, normal


class MLP(Workload):
    name = "mlp"
    unit = "samples/s"
    derived_from = "-"
    sizes = {
        "tiny": dict(batch=8, inputs=16, hidden=32, classes=4),
        "cpu": dict(batch=256, inputs=784, hidden=512, classes=10),
        "gpu": dict(batch=2048, inputs=784, hidden=2048, classes=10),
    }

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        n, h, c = size["inputs"], size["hidden"], size["classes"]
        params = {"w1": glorot(rng, n, h), "b1": np.zeros(h, np.float32),
                  "w2": glorot(rng, h, h), "b2": np.zeros(h, np.float32),
                  "w3": glorot(rng, h, c), "b3": np.zeros(c, np.float32)}
        # A learnable problem: labels from a fixed random linear teacher.
        teacher = normal(rng, (n, c))
        batches = []
        for _ in range(4):
            x = normal(rng, (size["batch"], n))
            batches.append({"x": x, "y": np.argmax(x @ teacher, axis=1)})
        return Problem(params, batches, items=size["batch"], lr=0.05)

    def loss_adjoint(self, size):
        def loss(p, b):
            h = adj.relu(b["x"] @ p["w1"] + p["b1"])
            h = adj.relu(h @ p["w2"] + p["b2"])
            return adj.cross_entropy(h @ p["w3"] + p["b3"], b["y"])
        return loss

    def loss_torch(self, size):
        from reference import mlp
        return mlp.torch_loss

    def loss_jax(self, size):
        from reference import mlp
        return mlp.jax_loss
