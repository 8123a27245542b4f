"""f64 transcendentals on the CPU: adjoint vs torch and numpy.

tanh, exp, log, sigmoid and erf over an f64 array (default 1M elements),
each compiled by adjoint.jit, against torch (its default threads) and numpy
(one thread; erf from scipy.special where installed), timed interleaved in
the same process (the fastest of the repeats, which is the least disturbed by other load on the machine). Prints milliseconds, the ratios
torch/adjoint and numpy/adjoint (above 1: adjoint is faster) and adjoint's
largest difference from torch in ulp. A benchmark, not a test: accuracy is
asserted by test/unit/Codegen/F64MathTest.cpp.

    PYTHONPATH=build/python python3 benchmarks/cpu/f64_math.py [n] [repeats]
"""

import sys
import time

import numpy as np
import torch

import adjoint as adj

try:
    from scipy.special import erf as scipy_erf
except ImportError:  # numpy has no erf
    scipy_erf = None


def median_seconds(fn, repeats):
    fn()  # compile, warm caches
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.min(times))


def ulp_difference(a, b):
    spacing = np.spacing(np.abs(b))
    finite = np.isfinite(b) & (spacing > 0)
    return float(np.max(np.abs(a[finite] - b[finite]) / spacing[finite]))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    rng = np.random.default_rng(0)
    x = rng.uniform(-5, 5, n)
    positive = rng.uniform(1e-3, 100, n)
    cases = [
        ("tanh", adj.tanh, torch.tanh, np.tanh, x),
        ("exp", adj.exp, torch.exp, np.exp, x),
        ("log", adj.log, torch.log, np.log, positive),
        ("sigmoid", adj.sigmoid, torch.sigmoid,
         lambda v: 1.0 / (1.0 + np.exp(-v)), x),
        ("erf", adj.erf, torch.erf, scipy_erf, x),
    ]
    print("f64 elementwise over %d elements; adjoint on %s, torch on %d "
          "threads, numpy on 1" % (n, adj.__name__, torch.get_num_threads()))
    print("%-8s %10s %10s %10s %12s %12s %10s" %
          ("", "adjoint ms", "torch ms", "numpy ms", "torch/adj", "numpy/adj",
           "ulp vs torch"))
    for name, adj_fn, torch_fn, np_fn, data in cases:
        compiled = adj.jit(lambda v, f=adj_fn: f(v))
        tensor = torch.from_numpy(data)
        ours = np.asarray(compiled(data))
        t_adj = median_seconds(lambda: compiled(data), repeats)
        t_torch = median_seconds(lambda: torch_fn(tensor), repeats)
        t_np = (median_seconds(lambda: np_fn(data), repeats)
                if np_fn is not None else float("nan"))
        ulp = ulp_difference(ours, torch_fn(tensor).numpy())
        print("%-8s %10.2f %10.2f %10.2f %12.2f %12.2f %10.1f" %
              (name, t_adj * 1e3, t_torch * 1e3, t_np * 1e3, t_torch / t_adj,
               t_np / t_adj, ulp))


if __name__ == "__main__":
    main()
