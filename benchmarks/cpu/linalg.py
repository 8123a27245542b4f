"""np.linalg on the CPU: adjoint.jit vs numpy at n = 512 (issue 26's goal:
within 1.2x of numpy's, the same class of library: both on OpenBLAS).

solve (LU and two triangular solves), eigh (syevd), svd (gesdd, reduced
and values only), cholesky, inv and eigvals (geev) of f64 (or f32, c64,
c128) n x n matrices, each compiled by
adjoint.jit, timed against numpy in the same process (the fastest of the
repeats, in blocks that alternate: the least disturbed by other load).
Prints milliseconds, the ratio adjoint/numpy (below 1.2 meets the goal)
and the largest difference from numpy relative to the result's norm. A benchmark, not a
test: correctness is asserted by test/python/test_np_linalg.py and
test/unit/Conformance/LinearAlgebraTest.cpp.

    PYTHONPATH=build/python python3 benchmarks/cpu/linalg.py [n] [repeats]
        [device] [batch] [dtype]

With a device (e.g. opencl:0; "" for the CPU) the compiled functions run
there (the generated GPU kernels, docs/gpu-kernels.md "Decompositions");
with a batch ("" for none), every operand is a stack of that many
matrices; dtype is f64 (the default), f32, c64 or c128 (Hermitian where
f64's are symmetric).
"""

import sys

import numpy as np

import adjoint as adj
from timing import best_seconds, relative_difference


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 512
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    device = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] else None
    batch = (int(sys.argv[4]),) if len(sys.argv) > 4 and sys.argv[4] else ()
    dtype = {"f64": np.float64, "f32": np.float32, "c64": np.complex64,
             "c128": np.complex128}[sys.argv[5] if len(sys.argv) > 5
                                    else "f64"]
    rng = np.random.default_rng(0)

    def sample():
        x = rng.standard_normal(batch + (n, n))
        if np.issubdtype(dtype, np.complexfloating):
            x = x + 1j * rng.standard_normal(batch + (n, n))
        return x

    a = sample()
    spd = (a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n)).astype(dtype)
    a, b = a.astype(dtype), sample().astype(dtype)
    # Sign-free quantities for the vectors: |eigenvectors|, |u|.
    cases = [
        ("solve", lambda m, r: np.linalg.solve(m, r), (a, b)),
        ("inv", lambda m: np.linalg.inv(m), (a,)),
        ("cholesky", lambda m: np.linalg.cholesky(m), (spd,)),
        ("eigh", lambda m: np.abs(np.linalg.eigh(m)[1]), (spd,)),
        ("eigvalsh", lambda m: np.linalg.eigvalsh(m), (spd,)),
        ("svd", lambda m: np.abs(np.linalg.svd(m, full_matrices=False)[0]),
         (a,)),
        ("svdvals", lambda m: np.linalg.svd(m, compute_uv=False), (a,)),
        # adjoint's are sorted; numpy's in geev's order.
        ("eigvals", lambda m: np.sort_complex(np.linalg.eigvals(m)), (a,)),
    ]
    print("%s %s%d x %d on %s; numpy %s on %s" %
          (np.dtype(dtype).name, "%d x " % batch[0] if batch else "", n, n,
           device or "cpu",
           np.__version__,
           np.show_config(mode="dicts")["Build Dependencies"]["lapack"]
           ["name"]))
    print("%-10s %10s %10s %10s %12s" %
          ("", "adjoint ms", "numpy ms", "adj/numpy", "rel. diff"))
    for name, fn, args in cases:
        jitted = adj.jit(fn, device=adj.device(device)) if device \
            else adj.jit(fn)
        # np.asarray: a device result is copied back, as numpy's is there.
        compiled = lambda *xs: np.asarray(jitted(*xs))
        diff = relative_difference(compiled(*args), fn(*args))
        t_adj, t_np = best_seconds(
            [lambda: compiled(*args), lambda: fn(*args)], repeats)
        print("%-10s %10.2f %10.2f %10.2f %12.1e" %
              (name, t_adj * 1e3, t_np * 1e3, t_adj / t_np, diff))


if __name__ == "__main__":
    main()
