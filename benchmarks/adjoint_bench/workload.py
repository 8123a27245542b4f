"""What a workload is.

A workload is one training step of a model (forward, loss, gradient,
SGD update), written once per framework over the same initial parameters
and the same synthetic batches (numpy, generated up front from a seed):

- `problem(size, seed)` makes the parameters and batches;
- `loss_adjoint(size)` returns the loss as a Python function of
  `(params, batch)` that `@adjoint.jit` translates (the front end,
  docs/python.md); the harness makes the step with `adjoint.value_and_grad`
  (steps.py), so the gradient comes from -adj-grad and the whole step is
  one compiled function;
- `loss_torch(size)` and `loss_jax(size)` are the same loss in PyTorch and
  JAX (benchmarks/reference), or None where a framework is not natural.

Optional hooks, for a workload whose step is not "SGD on a loss" (a rollout
loop before the update, another optimizer, gemm's bare product):
`step_adjoint(size)`, `step_torch(size, compile)` and `step_jax(size)` return
the framework's whole step with the contract of steps.py,
`step(params, batch, lr) -> (loss, params)`, on that framework's arrays (the
harness converts the problem with `steps.to_framework`, the parameters as
trainable when `train` is set). They return None by default, and the harness
then builds the step from the loss (`steps.adjoint_step`, `steps.torch_step`,
`steps.jax_step`). `value(out)` is the number the harness records from a
step's first result (the loss; gemm records the norm of its product); the
first 5 are compared across frameworks.

`params` is a dict of float32 arrays; a batch is a dict of arrays. Sizes are
plain dicts: "tiny" for the smoke test, "cpu" (a run of seconds on 2 cores)
and "gpu" (close to Milabench's sizes).
"""

import dataclasses

import numpy as np


@dataclasses.dataclass
class Problem:
    """One instance of a workload."""

    params: dict      # name -> np.ndarray: the initial parameters
    batches: list     # dicts of np.ndarray; step i uses batches[i % len]
    items: float      # what one step processes (the numerator of the rate)
    lr: float         # the SGD learning rate


class Workload:
    """The interface of a workload (see the module docstring)."""

    name = ""
    unit = "items/s"        # what the rate counts, e.g. "samples/s"
    derived_from = ""       # the Milabench benchmark it is derived from
    weight = 1.0            # its weight in the suite score
    train = True            # False: no loss (gemm), rates only
    loss_decreases = True   # False: the loss is only checked to be finite
                            # (an objective that need not fall, e.g. RL)
    sizes = {}              # "tiny" | "cpu" | "gpu" -> dict

    def problem(self, size, seed=0):
        raise NotImplementedError

    def loss_adjoint(self, size):
        raise NotImplementedError

    def loss_torch(self, size):
        return None

    def loss_jax(self, size):
        return None

    # Optional steps (see the module docstring): None = built from the loss.
    def step_adjoint(self, size):
        return None

    def step_torch(self, size, compile=False):
        return None

    def step_jax(self, size):
        return None

    def value(self, out):
        """The float recorded for a step's first result (the loss)."""
        return float(out)


def normal(rng, shape, scale=1.0):
    """float32 samples of N(0, scale^2)."""
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def glorot(rng, fan_in, fan_out):
    """A float32 weight matrix with Glorot-uniform entries."""
    limit = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-limit, limit, (fan_in, fan_out)).astype(np.float32)
