#!/usr/bin/env python3
"""Per-example gradients of an MLP: vmap against the hand-batched program.

Builds the per-example gradients of a one-hidden-layer MLP's squared-error
loss two ways:
  - vmap:  ``vmap(grad(loss), in_axes=(None, 0, 0))`` on a one-example loss
           (the parameters shared, so they stay unbatched);
  - hand:  the gradient of the summed loss with respect to per-example
           copies of the parameters (batch matmuls), the usual way to write
           per-example gradients without vmap;
checks that they agree, and prints each program's FLOP count after
-adj-grad and -adj-optimize (ir-opt -adj-count-flops) and its median run
time (compiled for the CPU), with the ratios vmap / hand. The issue's
claim is a FLOP ratio of exactly 1 and a time ratio near 1; the FLOP
equality is also a lit test (test/AD/vmap-flops.mlir).

A benchmark, not a test: it always exits 0 unless the two disagree.

    PYTHONPATH=build/python python3 benchmarks/ad/vmap_per_example.py \
        [--batch 256] [--features 256] [--hidden 512] [--classes 10] \
        [--repeats 50] [--ir-opt build/bin/ir-opt]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

import adjoint as adj

anp = adj.numpy


def programs(B, F, H, C):
    def loss(params, x, y):
        w1, b1, w2, b2 = params
        h = anp.tanh(x @ w1 + b1)
        o = h @ w2 + b2
        return anp.sum((o - y) ** 2)

    def vmapped(params, X, Y):
        return adj.vmap(adj.grad(loss), (None, 0, 0))(params, X, Y)

    def hand(params, X, Y):
        def batched_loss(ps):
            w1s, b1s, w2s, b2s = ps
            h = anp.tanh(anp.reshape(X, (B, 1, F)) @ w1s +
                         anp.reshape(b1s, (B, 1, H)))
            o = h @ w2s + anp.reshape(b2s, (B, 1, C))
            return anp.sum((o - anp.reshape(Y, (B, 1, C))) ** 2)
        copies = tuple(anp.broadcast_to(p, (B,) + tuple(p.shape))
                       for p in params)
        return adj.grad(batched_loss)(copies)

    return vmapped, hand


def flops(ir_opt, ir, name):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir",
                                     delete=False) as f:
        f.write(ir)
    try:
        out = subprocess.run(
            [ir_opt, f.name, "-adj-grad", "-adj-optimize",
             "-adj-count-flops", "-o", os.devnull],
            check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    m = re.search(r"@%s: (\d+) flops" % name, out)
    return int(m.group(1)) if m else None


def median_time(fn, args, repeats):
    fn(*args)  # compile and warm up
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--features", type=int, default=256)
    p.add_argument("--hidden", type=int, default=512)
    p.add_argument("--classes", type=int, default=10)
    p.add_argument("--repeats", type=int, default=50)
    here = os.path.dirname(os.path.abspath(adj.__file__))
    p.add_argument("--ir-opt", default=os.path.join(here, "..", "..", "bin",
                                                    "ir-opt"))
    a = p.parse_args()
    B, F, H, C = a.batch, a.features, a.hidden, a.classes
    rng = np.random.default_rng(0)
    params = ((rng.standard_normal((F, H)) / np.sqrt(F)).astype(np.float32),
              np.zeros(H, np.float32),
              (rng.standard_normal((H, C)) / np.sqrt(H)).astype(np.float32),
              np.zeros(C, np.float32))
    X = rng.standard_normal((B, F)).astype(np.float32)
    Y = rng.standard_normal((B, C)).astype(np.float32)
    args = (params, X, Y)

    results, rows = {}, []
    for fn in programs(B, F, H, C):
        jf = adj.jit(fn)
        results[fn.__name__] = jf(*args)
        count = (flops(a.ir_opt, str(jf.lower(*args)), fn.__name__)
                 if os.path.exists(a.ir_opt) else None)
        rows.append((fn.__name__, count, median_time(jf, args, a.repeats)))

    err = max(float(np.abs(np.asarray(u) - np.asarray(v)).max())
              for u, v in zip(results["vmapped"], results["hand"]))
    print("per-example gradients, B=%d F=%d H=%d C=%d (f32, CPU)"
          % (B, F, H, C))
    for name, count, t in rows:
        print("  %-8s %14s flops  %9.3f ms" % (
            name, count if count is not None else "?", t * 1e3))
    (_, fv, tv), (_, fh, th) = rows
    if fv and fh:
        print("  flops vmap / hand = %.4f" % (fv / fh))
    print("  time  vmap / hand = %.3f" % (tv / th))
    print("  max |vmap - hand| = %.2e" % err)
    return 0 if err < 1e-3 else 1


if __name__ == "__main__":
    sys.exit(main())
