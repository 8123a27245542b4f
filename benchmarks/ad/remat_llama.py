"""Peak memory of the llama training step with and without checkpointing
its decoder blocks (adjoint.checkpoint, as jax.checkpoint).

    PYTHONPATH=build/python python3 benchmarks/ad/remat_llama.py [--size cpu]
        [--layers N] [--seq T] [--steps K]

Each variant runs in its own child process: it compiles the step
(value_and_grad of the loss and the SGD update, benchmarks/adjoint_bench
/steps.py) and runs it once, then resets the kernel's peak-RSS counter
(/proc/self/clear_refs) so that compilation does not count, and runs `steps`
more steps. The child reports the peak resident memory of those steps
(VmHWM), the median step time and the loss and gradient norm of the first
step. The parent prints both and their ratios, and fails when the two
variants disagree on the loss or the gradients: checkpointing changes where
the forward pass runs, not what it computes.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

# benchmarks/, where the adjoint_bench package lives.
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _peak_rss_bytes():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def _reset_peak_rss():
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def child(size, remat, steps):
    import numpy as np
    import adjoint
    from adjoint_bench.workloads.llama import Llama

    wl = Llama()
    problem = wl.problem(size)
    loss = wl.loss_adjoint(size, remat=remat)

    @adjoint.jit
    def step(params, batch, lr):
        value, grads = adjoint.value_and_grad(loss)(params, batch)
        new = {k: params[k] - lr * grads[k] for k in params}
        return value, new, grads

    params = {k: np.ascontiguousarray(v) for k, v in problem.params.items()}
    batch = problem.batches[0]
    value, _, grads = step(params, batch, np.float32(problem.lr))
    first = {"loss": float(np.asarray(value)),
             "grads": {k: adjoint.to_numpy(g).tolist()
                       if isinstance(g, adjoint.Tensor) else
                       np.asarray(g).tolist() for k, g in grads.items()}}
    _reset_peak_rss()
    times = []
    for i in range(steps):
        start = time.perf_counter()
        step(params, problem.batches[i % len(problem.batches)],
             np.float32(problem.lr))
        times.append(time.perf_counter() - start)
    return {"peak_rss": _peak_rss_bytes(),
            "step_s": statistics.median(times), **first}


def run_child(args, remat):
    cmd = [sys.executable, os.path.abspath(__file__), "--child",
           "--size-json", json.dumps(args.size_dict), "--steps",
           str(args.steps)] + (["--remat"] if remat else [])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [HERE] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep)
                  if p])
    out = subprocess.run(cmd, env=env, check=True, capture_output=True,
                         text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(plain, remat, rtol=1e-4):
    """Raises unless both variants computed the same loss and gradients."""
    import numpy as np
    np.testing.assert_allclose(remat["loss"], plain["loss"], rtol=rtol)
    for k, g in plain["grads"].items():
        np.testing.assert_allclose(np.asarray(remat["grads"][k]),
                                   np.asarray(g), rtol=rtol,
                                   atol=rtol * (np.abs(g).max() + 1e-30))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="cpu",
                        help="a size of the llama workload (tiny, cpu, gpu)")
    parser.add_argument("--layers", type=int)
    parser.add_argument("--seq", type=int)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--remat", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--size-json", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        print(json.dumps(child(json.loads(args.size_json), args.remat,
                               args.steps)))
        return

    sys.path.insert(0, HERE)
    from adjoint_bench.workloads.llama import Llama
    size = dict(Llama.sizes[args.size])
    if args.layers:
        size["layers"] = args.layers
    if args.seq:
        size["seq"] = args.seq
    args.size_dict = size
    plain = run_child(args, False)
    remat = run_child(args, True)
    compare(plain, remat)
    mib = 1 << 20
    print("llama %s: %s" % (args.size, ", ".join(
        "%s=%s" % kv for kv in sorted(size.items()))))
    print("  loss %.6f, same loss and gradients with checkpoint"
          % plain["loss"])
    print("  %-18s %12s %12s" % ("", "peak MiB", "step ms"))
    for name, r in (("plain", plain), ("checkpoint blocks", remat)):
        print("  %-18s %12.1f %12.1f" % (name, r["peak_rss"] / mib,
                                         r["step_s"] * 1e3))
    print("  peak memory ratio (checkpoint / plain): %.3f"
          % (remat["peak_rss"] / plain["peak_rss"]))
    print("  step time ratio   (checkpoint / plain): %.3f"
          % (remat["step_s"] / plain["step_s"]))


if __name__ == "__main__":
    main()
