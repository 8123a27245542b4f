"""np.fft on the CPU: adjoint.jit vs numpy (issue 26's goal: fft2 at
1024^2 within 1.2x of numpy's).

fft2, ifft2, rfft2 and irfft2 of 1024 x 1024 arrays (complex128 and
complex64, or their real counterparts), a batch of 1-D transforms, and a
prime length, each compiled by adjoint.jit (FFTW, planned by measurement
on the first call) and timed against numpy's pocketfft in the same
process: the fastest of the repeats, in blocks that alternate. Prints
milliseconds, the ratio adjoint/numpy (below 1.2 meets the goal) and the
largest difference from numpy relative to the result's largest entry. A
benchmark, not a test: correctness is asserted by
test/python/test_np_fft.py and test/unit/Conformance/FourierTest.cpp.

    PYTHONPATH=build/python python3 benchmarks/cpu/fft.py [n] [repeats]
        [device]

With a device (e.g. opencl:0) the compiled functions run there, on the
route the device measured faster or the one ADJOINT_GPU_LINALG=kernels|
library forces (the generated FFT, or the device's library: FFTW on the
host through copies on opencl; docs/gpu-kernels.md "FFT").
"""

import sys

import numpy as np

import adjoint as adj
from timing import best_seconds, relative_difference


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1024
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    device = sys.argv[3] if len(sys.argv) > 3 else None
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, n))
    z = x + 1j * rng.standard_normal((n, n))
    half = np.fft.rfft2(x)
    lines = rng.standard_normal((n, 1000)) + 0j
    prime = rng.standard_normal((64, 4099)) + 0j
    cases = [
        ("fft2 c128", lambda a: np.fft.fft2(a), z),
        ("ifft2 c128", lambda a: np.fft.ifft2(a), z),
        ("rfft2 f64", lambda a: np.fft.rfft2(a), x),
        ("irfft2 c128", lambda a: np.fft.irfft2(a, s=(n, n)), half),
        ("fft2 c64", lambda a: np.fft.fft2(a), z.astype(np.complex64)),
        ("rfft2 f32", lambda a: np.fft.rfft2(a), x.astype(np.float32)),
        ("fft %dx1000" % n, lambda a: np.fft.fft(a), lines),
        ("fft 64x4099", lambda a: np.fft.fft(a), prime),
    ]
    print("%d x %d on %s; numpy %s (pocketfft)" %
          (n, n, device or "cpu", np.__version__))
    print("%-14s %10s %10s %10s %12s" %
          ("", "adjoint ms", "numpy ms", "adj/numpy", "rel. diff"))
    for name, fn, arg in cases:
        jitted = adj.jit(fn, device=adj.device(device)) if device \
            else adj.jit(fn)
        compiled = lambda a: np.asarray(jitted(a))
        diff = relative_difference(compiled(arg), fn(arg))
        t_adj, t_np = best_seconds(
            [lambda: compiled(arg), lambda: fn(arg)], repeats)
        print("%-14s %10.2f %10.2f %10.2f %12.1e" %
              (name, t_adj * 1e3, t_np * 1e3, t_adj / t_np, diff))


if __name__ == "__main__":
    main()
