"""Training steps from a workload's loss: the same SGD update in every
framework, `params - lr * grad`, so that their losses agree step by step.

Every step has the contract `step(params, batch, lr) -> (loss, params)`
on the framework's own arrays; `to_framework` converts the numpy problem
once, before timing."""

import numpy as np


def adjoint_step(loss):
    """One compiled function: value_and_grad of `loss` and the update."""
    import adjoint

    def step(params, batch, lr):
        value, grads = adjoint.value_and_grad(loss)(params, batch)
        return value, {k: params[k] - lr * grads[k] for k in params}

    return adjoint.jit(step)


def torch_step(loss, compile=False):
    """Eager PyTorch, or the loss through torch.compile (its backward is
    compiled by AOTAutograd too)."""
    import torch
    f = torch.compile(loss) if compile else loss

    def step(params, batch, lr):
        value = f(params, batch)
        keys = list(params)
        grads = torch.autograd.grad(value, [params[k] for k in keys])
        with torch.no_grad():
            new = {k: (params[k] - lr * g).requires_grad_()
                   for k, g in zip(keys, grads)}
        return value.detach(), new

    return step


def jax_step(loss):
    """jax.jit of value_and_grad and the update."""
    import jax

    @jax.jit
    def step(params, batch, lr):
        value, grads = jax.value_and_grad(loss)(params, batch)
        return value, jax.tree_util.tree_map(lambda p, g: p - lr * g,
                                             params, grads)

    return step


def to_framework(tree, framework, trainable=False):
    """numpy arrays (in dicts, lists, tuples) as the framework's arrays."""
    if isinstance(tree, dict):
        return {k: to_framework(v, framework, trainable)
                for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(to_framework(v, framework, trainable)
                          for v in tree)
    if framework == "adjoint":
        return np.ascontiguousarray(tree)
    if framework == "torch":
        import torch
        t = torch.from_numpy(np.array(tree))
        return t.requires_grad_() if trainable else t
    if framework == "jax":
        import jax.numpy as jnp
        return jnp.asarray(tree)
    raise ValueError("unknown framework %r" % framework)


def sync(x, framework):
    """Waits for the step's results (JAX dispatches asynchronously)."""
    if framework == "jax":
        import jax
        jax.block_until_ready(x)
    return x
