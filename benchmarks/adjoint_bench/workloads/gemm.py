"""gemm: matmul calibration in GFLOP/s (derived from Milabench's flops
benchmarks): C = A @ B in float32, A [M, K], B [K, N]; one step is one
product, 2*M*N*K floating-point operations. No loss and no training
(`train = False`): the harness records the Frobenius norm of C and compares
it across frameworks instead of losses. Like Milabench's flops benchmarks it
has weight 0 in the suite score (a calibration, reported apart)."""

import numpy as np

import adjoint as adj

from ..workload import Problem, Workload, normal


def _matmul(a, b):
    return a @ b


class GEMM(Workload):
    name = "gemm"
    unit = "GFLOP/s"
    derived_from = "flops"
    weight = 0.0
    train = False
    loss_decreases = False
    sizes = {
        "tiny": dict(m=64, n=64, k=64),
        "cpu": dict(m=1024, n=1024, k=1024),
        "gpu": dict(m=8192, n=8192, k=8192),
    }

    def problem(self, size, seed=0):
        rng = np.random.default_rng(seed)
        m, n, k = size["m"], size["n"], size["k"]
        # Entries of unit variance in C: its norm is about sqrt(M*N).
        batch = {"a": normal(rng, (m, k)), "b": normal(rng, (k, n), k ** -0.5)}
        return Problem({}, [batch], items=2.0 * m * n * k / 1e9, lr=0.0)

    def loss_adjoint(self, size):
        return None

    def step_adjoint(self, size):
        mm = adj.jit(_matmul)
        return lambda params, batch, lr: (mm(batch["a"], batch["b"]), params)

    def step_torch(self, size, compile=False):
        from reference import gemm
        return gemm.torch_step(compile)

    def step_jax(self, size):
        from reference import gemm
        return gemm.jax_step()

    def value(self, out):
        if hasattr(out, "detach"):      # a torch tensor
            out = out.detach().cpu().numpy()
        # Not np.linalg.norm: its BLAS dot wakes numpy's OpenBLAS threads,
        # which then spin on both cores through the next timed product
        # (perf: 7% of samples in blas_thread_server; every framework's
        # GEMM ran at about half speed).
        c = np.asarray(out, np.float64)
        return float(np.sqrt(np.sum(c * c)))
