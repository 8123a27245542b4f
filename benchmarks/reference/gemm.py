"""gemm in PyTorch and JAX (adjoint_bench/workloads/gemm.py): the step
`(params, batch, lr) -> (A @ B, params)`."""


def torch_step(compile=False):
    import torch

    def mm(a, b):
        return a @ b

    f = torch.compile(mm) if compile else mm
    return lambda params, batch, lr: (f(batch["a"], batch["b"]), params)


def jax_step():
    import jax

    mm = jax.jit(lambda a, b: a @ b)
    return lambda params, batch, lr: (mm(batch["a"], batch["b"]), params)
