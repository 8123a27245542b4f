"""The fixed cost of one call of compiled code from Python (docs/python.md,
"The cost of a call").

Trivial work (x + 1 on a 4-element f32 array; the same over a dict of 20
parameter arrays, the shape of a training step's arguments) called in a
loop, against the floors it is measured by: a ctypes call of a C function
(the cost of entering C from Python at all), numpy's own x + 1, and jax.jit
of the same function when JAX is installed. Every variant runs in the same
process, interleaved round by round; the best round counts (the machine
may be shared: the minimum is the least disturbed).

usage: PYTHONPATH=build/python python3 benchmarks/cpu/call_overhead.py
       [--rounds R] [--calls N]
"""

import argparse
import ctypes
import ctypes.util
import time

import numpy as np

import adjoint


def add_one(x):
    return x + 1.0


def add_one_tree(p):
    return {k: v + 1.0 for k, v in p.items()}


def variants(x, tree):
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    labs = libc.labs
    labs.argtypes, labs.restype = [ctypes.c_long], ctypes.c_long
    out = [("C call (ctypes labs)", lambda: labs(-3), lambda: labs(-3)),
           ("numpy x + 1", lambda: x + 1.0,
            lambda: {k: v + 1.0 for k, v in tree.items()})]
    one, many = adjoint.jit(add_one), adjoint.jit(add_one_tree)
    out.append(("adjoint.jit", lambda: one(x), lambda: many(tree)))
    try:
        import jax
        jax.config.update("jax_platforms", "cpu")
        jone, jmany = jax.jit(add_one), jax.jit(add_one_tree)
        jx = jax.device_put(x)
        jtree = {k: jax.device_put(v) for k, v in tree.items()}
        out.append(("jax.jit (device arrays)",
                    lambda: jone(jx).block_until_ready(),
                    lambda: jax.block_until_ready(jmany(jtree))))
    except ImportError:
        pass
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args()
    x = np.arange(4, dtype=np.float32)
    tree = {"p%02d" % i: np.full(4, i, np.float32) for i in range(20)}
    vs = variants(x, tree)
    best = {}
    for name, f1, f20 in vs:  # warm-up: builds, compiles, caches
        for _ in range(10):
            f1(), f20()
    for _ in range(args.rounds):
        for name, f1, f20 in vs:
            for which, f in (("1 array", f1), ("20 arrays", f20)):
                t0 = time.perf_counter()
                for _ in range(args.calls):
                    f()
                us = (time.perf_counter() - t0) / args.calls * 1e6
                key = (name, which)
                best[key] = min(best.get(key, us), us)
    print("%-26s %12s %12s" % ("us per call (best round)", "1 array",
                                "20 arrays"))
    for name, _, _ in vs:
        print("%-26s %12.2f %12.2f" % (name, best[(name, "1 array")],
                                       best[(name, "20 arrays")]))


if __name__ == "__main__":
    main()
