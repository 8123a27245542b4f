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


#: --precision: f32 matmuls in f32 ("highest") or with TF32 tensor cores.
PRECISIONS = ("highest", "tf32")


def reference_device(device):
    """Where the references run when Adjoint runs on `device`: the same
    GPU for "cuda"/"cuda:N" and "hip"/"hip:N", named as torch names it
    ("cuda:N": ROCm builds of torch call AMD GPUs cuda too, and JAX's "gpu"
    backend is CUDA or ROCm, whichever jaxlib plugin is installed), else
    the CPU."""
    kind, _, index = device.partition(":")
    return "cuda:%s" % (index or "0") if kind in ("cuda", "hip") else "cpu"


def set_precision(framework, precision):
    """The f32 matmul precision, set the same way in every framework:
    torch's allow_tf32 switches (matmul and cuDNN), JAX's
    default_matmul_precision, adjoint's set_matmul_precision."""
    if precision not in PRECISIONS:
        raise ValueError("unknown precision %r" % precision)
    tf32 = precision == "tf32"
    if framework == "torch":
        import torch
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32
        torch.set_float32_matmul_precision("high" if tf32 else "highest")
    elif framework == "jax":
        import jax
        jax.config.update("jax_default_matmul_precision",
                          "tensorfloat32" if tf32 else "highest")
    elif framework == "adjoint":
        import adjoint
        setter = getattr(adjoint, "set_matmul_precision", None)
        if setter is not None:
            setter(precision)
        elif tf32:
            raise RuntimeError(
                "this adjoint has no adjoint.set_matmul_precision: it "
                "cannot run f32 matmuls in TF32 (use --precision highest)")
    else:
        raise ValueError("unknown framework %r" % framework)


def _jax_device(device):
    import jax
    if device == "cpu":
        return jax.devices("cpu")[0]
    return jax.devices("gpu")[int(device.partition(":")[2] or 0)]


def to_framework(tree, framework, trainable=False, device="cpu"):
    """numpy arrays (in dicts, lists, tuples) as the framework's arrays on
    `device`: Adjoint's device arrays ("opencl:0", "cuda:0") that stay
    there, torch tensors on "cuda:N", JAX arrays on that GPU (JAX's "gpu"
    backend); "cpu" pins every framework to the host."""
    if isinstance(tree, dict):
        return {k: to_framework(v, framework, trainable, device)
                for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(to_framework(v, framework, trainable, device)
                          for v in tree)
    if framework == "adjoint":
        if device != "cpu":
            import adjoint
            return adjoint.device_put(np.ascontiguousarray(tree), device)
        return np.ascontiguousarray(tree)
    if framework == "torch":
        import torch
        t = torch.from_numpy(np.array(tree))
        if device != "cpu":
            t = t.to(device)
        return t.requires_grad_() if trainable else t
    if framework == "jax":
        import jax
        return jax.device_put(np.asarray(tree), _jax_device(device))
    raise ValueError("unknown framework %r" % framework)


def _leaves(tree):
    if isinstance(tree, dict):
        tree = list(tree.values())
    if isinstance(tree, (list, tuple)):
        return [leaf for t in tree for leaf in _leaves(t)]
    return [tree]


def sync(x, framework):
    """Waits for the step's results (JAX, torch and Adjoint on a GPU
    dispatch asynchronously)."""
    if framework == "torch":
        import torch
        if any(isinstance(leaf, torch.Tensor) and leaf.is_cuda
               for leaf in _leaves(x)):
            torch.cuda.synchronize()
    if framework == "jax":
        import jax
        jax.block_until_ready(x)
    if framework == "adjoint":
        import adjoint
        devices = {leaf.device for leaf in _leaves(x)
                   if isinstance(leaf, adjoint.Tensor)}
        for d in devices:
            d.synchronize()
    return x


def to_host(x, framework):
    """A step's first result where workload.value can read it: Adjoint's
    device arrays copied to numpy."""
    if framework == "adjoint":
        import adjoint
        if isinstance(x, adjoint.Tensor):
            return adjoint.to_numpy(x)
    return x
