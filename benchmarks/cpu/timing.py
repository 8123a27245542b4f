"""Timing for the CPU benchmarks that compare adjoint.jit with a library
in the same process (linalg.py, fft.py)."""

import time

import numpy as np


def best_seconds(fns, repeats):
    """The fastest run of each of `fns`, timed in blocks of `repeats` runs,
    the blocks in turn twice (a change of the machine's load affects them
    alike). Not call by call: numpy's OpenBLAS and the one adjoint loads
    are two libraries with a thread pool each, and each pool's threads
    spin for a while after a call, taking the cores from the other's next
    call (1.3-1.7x slower calls when they alternate on two cores)."""
    best = [float("inf")] * len(fns)
    for _ in range(2):
        for i, fn in enumerate(fns):
            fn()  # compile (and plan), warm caches, wake the library
            for _ in range(repeats):
                start = time.perf_counter()
                fn()
                best[i] = min(best[i], time.perf_counter() - start)
    return best


def relative_difference(ours, theirs):
    """max |ours - theirs| relative to the largest entry of theirs."""
    ours, theirs = np.asarray(ours), np.asarray(theirs)
    return float(np.max(np.abs(ours - theirs)) /
                 max(np.max(np.abs(theirs)), 1e-300))
