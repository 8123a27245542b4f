"""The per-run protocol (Milabench's, docs/benchmarks.md): what one child
process does for one (workload, implementation).

1. the problem (parameters and synthetic batches) is made up front, from
   the seed, and converted to the framework's arrays;
2. `warmup` steps, the first of which includes the compilation: its time is
   reported as the compile time (for eager PyTorch: its first step);
3. `steps` timed steps; step i uses batches[i % len(batches)]; each step's
   time covers the step and the wait for its results (`steps.sync`);
   rate = items / time;
4. after the timed steps, one more (untimed) step on batches[0]: its loss
   is the loss of the first batch under the trained parameters.

`python -m adjoint_bench.protocol SPEC.json` is the child's entry point;
the parent starts it through isolation.py and judges its raw result with
stats.py. The imports run one way: the parent's modules use this one's
constants, and this one imports the workloads and steps.py (hence the
frameworks) only inside a run, so that a child loads what its own run
needs and nothing of the parent's side.
"""

import json
import os
import sys
import time
import traceback

BENCHMARKS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

IMPLEMENTATIONS = ("adjoint", "torch", "torch.compile", "jax")
REFERENCES = IMPLEMENTATIONS[1:]


def tail(text, n=1500):
    """The end of a (long) output, as errors quote it."""
    text = text.strip()
    return text if len(text) <= n else "..." + text[-n:]


def load_workloads():
    """The registry (workloads/__init__.py), plus the workloads named by
    $ADJOINT_BENCH_WORKLOADS: `module:attr` entries separated by commas,
    each attr a Workload or an iterable of them (out-of-tree workloads, and
    the tests' failing ones). The children see the same variable."""
    import importlib
    from .workloads import WORKLOADS
    found = dict(WORKLOADS)
    for entry in os.environ.get("ADJOINT_BENCH_WORKLOADS", "").split(","):
        if not entry.strip():
            continue
        module, _, attr = entry.strip().partition(":")
        obj = getattr(importlib.import_module(module), attr)
        for w in (obj if isinstance(obj, (list, tuple)) else [obj]):
            found[w.name] = w
    return found


def resolve_size(workload, size_name, batch_size=None):
    """The size dict of a workload (a copy), `batch` overridden when given
    and the size has one."""
    size = dict(workload.sizes[size_name])
    if batch_size is not None and "batch" in size:
        size["batch"] = batch_size
    return size


class Unavailable(Exception):
    """The workload has no implementation in this framework."""


def make_step(workload, impl, size):
    """The step of `impl` for the workload: its own hook, else built from
    its loss by steps.py."""
    from . import steps
    if impl == "adjoint":
        step = workload.step_adjoint(size)
        if step is None:
            step = steps.adjoint_step(workload.loss_adjoint(size))
        return step
    if impl in ("torch", "torch.compile"):
        compile = impl == "torch.compile"
        step = workload.step_torch(size, compile=compile)
        if step is None:
            loss = workload.loss_torch(size)
            if loss is None:
                raise Unavailable("no PyTorch reference")
            step = steps.torch_step(loss, compile=compile)
        return step
    if impl == "jax":
        step = workload.step_jax(size)
        if step is None:
            loss = workload.loss_jax(size)
            if loss is None:
                raise Unavailable("no JAX reference")
            step = steps.jax_step(loss)
        return step
    raise ValueError("unknown implementation %r" % impl)


def measure(workload, impl, size, steps_, warmup, seed=0, progress=None,
            device="cpu", precision="highest", profile=False):
    """The protocol in this process (the child): returns the raw result.
    Every framework's arrays go to `device` once, before timing, and stay
    there (Adjoint's compiled steps run where their inputs are); the
    harness gives the references the same CUDA GPU as Adjoint and the CPU
    otherwise (steps.reference_device). `precision` is set in the
    framework before its step is made (steps.set_precision). `profile`:
    Adjoint's profile on its device after the timed steps (profile.py)."""
    import resource
    from . import steps
    framework = impl.split(".")[0]
    steps.set_precision(framework, precision)
    try:
        step = make_step(workload, impl, size)
    except Unavailable as e:
        return {"status": "n/a", "error": str(e)}
    problem = workload.problem(size, seed)
    where = device
    params = steps.to_framework(problem.params, framework,
                                trainable=workload.train, device=where)
    batches = [steps.to_framework(b, framework, device=where)
               for b in problem.batches]
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    total = warmup + steps_
    times, values = [], []
    for i in range(total):
        batch = batches[i % len(batches)]
        start = time.perf_counter()
        out, params = step(params, batch, problem.lr)
        steps.sync((out, params), framework)
        times.append(time.perf_counter() - start)
        values.append(workload.value(steps.to_host(out, framework)))
        if progress:
            progress(i + 1, total)
    final = None
    if workload.train and workload.loss_decreases:
        out, _ = step(params, batches[0], problem.lr)
        steps.sync(out, framework)
        final = workload.value(steps.to_host(out, framework))
    items = float(problem.items)
    timed = times[warmup:]
    profiled = None
    if profile and framework == "adjoint":
        from .profile import profile_adjoint
        profiled = profile_adjoint(step, params, batches, problem.lr,
                                   lambda x: steps.sync(x, framework))
    return {
        "status": "ok",
        "items": items,
        "lr": problem.lr,
        "batches": len(batches),
        "compile_s": times[0],
        "warmup_s": times[:warmup],
        "step_s": timed,
        "rates": [items / t for t in timed],
        "values": values,
        "final_first_batch": final,
        "base_rss_mb": base_rss,
        "profile": profiled,
    }


def child_main(spec_path):
    with open(spec_path) as f:
        spec = json.load(f)
    fd = spec.get("progress_fd")
    pipe = None
    if fd is not None:
        os.set_inheritable(fd, False)
        pipe = os.fdopen(fd, "w", buffering=1)

    def progress(i, n, phase="step"):
        if pipe:
            try:
                pipe.write("%s %d %d\n" % (phase, i, n))
            except OSError:
                pass

    threads = spec.get("threads")
    if threads and hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))[:threads]
        os.sched_setaffinity(0, cpus)
    try:
        progress(0, 1, "setup")
        workload = load_workloads()[spec["workload"]]
        size = resolve_size(workload, spec["size_name"],
                            spec.get("batch_size"))
        result = measure(workload, spec["implementation"], size,
                         spec["steps"], spec["warmup"], spec.get("seed", 0),
                         progress, spec.get("device", "cpu"),
                         spec.get("precision", "highest"),
                         spec.get("profile", False))
    except Exception as e:  # noqa: BLE001 - reported, never raised
        tb = traceback.format_exc()
        result = {"status": "failed",
                  "error": "%s: %s" % (type(e).__name__,
                                       tail(str(e), 2000)),
                  "traceback": tail(tb, 6000)}
    with open(spec["out"] + ".tmp", "w") as f:
        json.dump(result, f)
    os.replace(spec["out"] + ".tmp", spec["out"])
    if pipe:
        pipe.close()
    sys.stdout.flush()
    sys.stderr.flush()
    # Skip the interpreter's teardown: some runtimes hang or crash there,
    # and the result is already written.
    os._exit(0)


if __name__ == "__main__":
    child_main(sys.argv[1])
