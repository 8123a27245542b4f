"""The measurement protocol (Milabench's, docs/benchmarks.md).

For one workload, every implementation (adjoint and each reference) runs in
its own subprocess, so that a crash, an exception or a timeout in one does
not stop the others and so that each one's peak memory is its own:

1. the problem (parameters and synthetic batches) is made up front, from
   the seed, and converted to the framework's arrays;
2. `warmup` steps, the first of which includes the compilation: its time is
   reported as the compile time (for eager PyTorch: its first step);
3. `steps` timed steps; step i uses batches[i % len(batches)]; each step's
   time covers the step and the wait for its results (`steps.sync`);
   rate = items / time;
4. after the timed steps, one more (untimed) step on batches[0]: its loss
   is the loss of the first batch under the trained parameters.

The parent then checks the results (`check_run`, `agreement`) and
summarizes the rates (`summarize`: Milabench drops the min and the max
when there are at least 5 samples, then reports the mean, std and sem).

A workload fails (score 0 in the suite) when adjoint's run fails (an
exception, a crash, a timeout), when its loss is not finite or does not
decrease (the loss of batches[0] after training must be lower than at step
0), or when the first 5 losses of adjoint and of a reference disagree
(relative 1e-4). The suite score is Milabench's weighted geometric mean
`exp(sum w log(score + 1) / sum w)` over the workloads (`suite_score`).

`python -m adjoint_bench.protocol SPEC.json` is the child's entry point.
"""

import json
import math
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import traceback

BENCHMARKS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

IMPLEMENTATIONS = ("adjoint", "torch", "torch.compile", "jax")
REFERENCES = IMPLEMENTATIONS[1:]

#: Milabench drops the min and the max of the rates from this many samples.
DROP_MIN_SAMPLES = 5
#: The losses compared between adjoint and each reference, and the tolerance.
AGREE_COUNT = 5
AGREE_RTOL = 1e-4
AGREE_ATOL = 1e-7


# --------------------------------------------------------------------------
# Statistics, checks and the score (pure functions; test_bench_protocol.py)
# --------------------------------------------------------------------------

def summarize(rates):
    """Milabench's summary of per-step rates: the min and the max are
    dropped when there are at least 5 samples; mean, population std, sem,
    and the number kept. None when there are no rates."""
    xs = sorted(float(r) for r in rates)
    if not xs:
        return None
    kept = xs[1:-1] if len(xs) >= DROP_MIN_SAMPLES else xs
    n = len(kept)
    mean = sum(kept) / n
    std = math.sqrt(sum((x - mean) ** 2 for x in kept) / n)
    return {"mean": mean, "std": std, "sem": std / math.sqrt(n), "n": n,
            "dropped": len(xs) - n, "min": xs[0], "max": xs[-1],
            "median": _median(xs)}


def _median(xs):
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def is_finite(values):
    return all(v is not None and math.isfinite(v) for v in values)


def check_run(run, train=True, decreases=True):
    """The problems with one implementation's run (a list of strings,
    empty when it passes): it must have finished, its recorded values must
    be finite and, for a training workload whose loss should fall, the loss
    of batches[0] after training must be below its loss at step 0."""
    if run.get("status") != "ok":
        return [run.get("error") or "did not run"]
    values = run.get("values") or []
    if not values:
        return ["no step ran"]
    if not is_finite(values):
        return ["non-finite values: %s" % _fmt_list(values)]
    if train and decreases:
        final = run.get("final_first_batch")
        if final is None or not math.isfinite(final):
            return ["non-finite final loss %r" % final]
        if not final < values[0]:
            return ["the loss did not decrease: %.7g at step 0, %.7g on the "
                    "same batch after %d steps" % (values[0], final,
                                                   len(values))]
    return []


def agreement(ours, ref, count=AGREE_COUNT, rtol=AGREE_RTOL, atol=AGREE_ATOL):
    """Whether the first `count` values of two runs agree:
    |a - r| <= rtol * max(|a|, |r|) + atol, elementwise. Returns a dict with
    ok, the values compared and the largest relative difference."""
    k = min(count, len(ours), len(ref))
    a, r = list(ours[:k]), list(ref[:k])
    if k == 0:
        return {"ok": False, "compared": 0, "max_rel_diff": None,
                "adjoint": a, "reference": r, "reason": "no values"}
    ok, worst = True, 0.0
    for x, y in zip(a, r):
        if x is None or y is None or not (math.isfinite(x) and
                                          math.isfinite(y)):
            ok, worst = False, math.inf
            continue
        scale = max(abs(x), abs(y))
        diff = abs(x - y)
        worst = max(worst, diff / scale if scale else 0.0)
        ok = ok and diff <= rtol * scale + atol
    return {"ok": ok, "compared": k, "max_rel_diff": worst,
            "adjoint": a, "reference": r}


def suite_score(scores, weights):
    """Milabench's suite score: exp(sum w log(s + 1) / sum w) over the
    workloads, s their score (the mean rate, 0 when failed). `scores` and
    `weights` are dicts by workload name; None when the weights sum to 0."""
    total = sum(weights[name] for name in scores)
    if total <= 0:
        return None
    acc = sum(weights[name] * math.log(max(s, 0.0) + 1.0)
              for name, s in scores.items())
    return math.exp(acc / total)


def ratio_score(ratios, weights):
    """The weighted geometric mean of ratios (ours / a reference's) over the
    workloads that have one (None for none)."""
    pairs = [(weights[n], r) for n, r in ratios.items()
             if r is not None and r > 0 and weights[n] > 0]
    total = sum(w for w, _ in pairs)
    if not total:
        return None
    return math.exp(sum(w * math.log(r) for w, r in pairs) / total)


def _fmt_list(values):
    return "[" + ", ".join("%.7g" % v if v is not None else "None"
                           for v in values) + "]"


# --------------------------------------------------------------------------
# One workload: an isolated run per implementation, then the checks
# --------------------------------------------------------------------------

def evaluate(workload, size_name, size, runs, weight=None):
    """The record of one workload from its runs (impl -> the child's
    result with `peak_rss_mb`): summaries, checks, loss agreement with each
    reference, ratios, status and score. Pure: used by the harness and to
    re-evaluate saved runs."""
    weight = workload.weight if weight is None else weight
    failures, ref_errors = [], []
    impls = {}
    for impl, run in runs.items():
        run = dict(run)
        if run.get("status") == "ok":
            run["summary"] = summarize(run.get("rates") or [])
        problems = [] if run.get("status") == "n/a" and impl != "adjoint" \
            else check_run(run, workload.train, workload.loss_decreases)
        run["problems"] = problems
        impls[impl] = run
        if problems:
            (failures if impl == "adjoint" else ref_errors).append(
                "%s: %s" % (impl, "; ".join(problems)))
    ours = impls.get("adjoint", {})
    agree, ratios = {}, {}
    for impl, run in impls.items():
        if impl == "adjoint":
            continue
        if run.get("status") == "n/a":
            agree[impl] = {"ok": None, "reason": run.get("error", "n/a")}
            continue
        if ours.get("status") != "ok" or run.get("status") != "ok":
            agree[impl] = {"ok": None, "reason": "not run"}
        else:
            agree[impl] = agreement(ours["values"], run["values"])
            if not agree[impl]["ok"]:
                failures.append(
                    "%s: the first %d %s disagree (rel %.2g > %g): adjoint "
                    "%s, %s %s" % (impl, agree[impl]["compared"],
                                   "losses" if workload.train else "values",
                                   agree[impl]["max_rel_diff"], AGREE_RTOL,
                                   _fmt_list(agree[impl]["adjoint"]), impl,
                                   _fmt_list(agree[impl]["reference"])))
        s, r = ours.get("summary"), run.get("summary")
        ratios[impl] = (s["mean"] / r["mean"] if s and r and r["mean"] > 0
                        else None)
    status = "failed" if failures else "ok"
    summary = ours.get("summary")
    return {
        "record": "workload",
        "workload": workload.name,
        "unit": workload.unit,
        "derived_from": workload.derived_from,
        "weight": weight,
        "train": workload.train,
        "size_name": size_name,
        "size": size,
        "status": status,
        "failures": failures,
        "reference_errors": ref_errors,
        "score": summary["mean"] if status == "ok" and summary else 0.0,
        "ratios": ratios,
        "agreement": agree,
        "implementations": impls,
    }


def child_environment(threads=None, adjoint_cache=None):
    """The environment of a child: benchmarks/ on PYTHONPATH, the thread
    counts when given, and the adjoint compile cache."""
    env = dict(os.environ)
    paths = [BENCHMARKS_DIR] + [p for p in env.get("PYTHONPATH", "").split(
        os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join(paths)
    if threads:
        for var in ("ADJOINT_NUM_THREADS", "OMP_NUM_THREADS",
                    "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
            env[var] = str(threads)
    if adjoint_cache:
        env["ADJOINT_CACHE_DIR"] = adjoint_cache
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    return env


def run_isolated(spec, env, timeout=None, on_progress=None):
    """Runs one (workload, implementation) in a subprocess
    (`python -m adjoint_bench.protocol`). Returns the child's result with
    `peak_rss_mb` (the child's peak resident set, from wait4) and `wall_s`;
    a crash, a timeout or a missing result is a failed run with the end of
    the child's output as its error."""
    with tempfile.TemporaryDirectory(prefix="adjoint-bench-") as tmp:
        spec = dict(spec, out=os.path.join(tmp, "result.json"))
        spec_path = os.path.join(tmp, "spec.json")
        read_fd, write_fd = os.pipe()
        spec["progress_fd"] = write_fd
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        log_path = os.path.join(tmp, "log.txt")
        start = time.perf_counter()
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "adjoint_bench.protocol", spec_path],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=env, pass_fds=(write_fd,), start_new_session=True)
        os.close(write_fd)
        _RUNNING.add(proc.pid)
        status, usage, timed_out, buf = None, None, False, b""
        try:
            while status is None:
                ready, _, _ = select.select([read_fd], [], [], 0.2)
                if ready:
                    chunk = os.read(read_fd, 4096)
                    buf = _progress(buf + chunk, on_progress)
                pid, st, ru = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    status, usage = st, ru
                    _kill(proc.pid)  # what it left behind (compile workers)
                elif timeout and time.perf_counter() - start > timeout:
                    timed_out = True
                    _kill(proc.pid)
        except BaseException:
            _kill(proc.pid)
            _, status, usage = os.wait4(proc.pid, 0)
            raise
        finally:
            _RUNNING.discard(proc.pid)
            proc.returncode = status if status is not None else -9
            os.close(read_fd)
        wall = time.perf_counter() - start
        code = os.waitstatus_to_exitcode(status)
        result = None
        if os.path.exists(spec["out"]):
            try:
                with open(spec["out"]) as f:
                    result = json.load(f)
            except ValueError:
                result = None
        with open(log_path, "rb") as f:
            log_text = f.read().decode(errors="replace")
    if timed_out:
        result = {"status": "failed",
                  "error": "timed out after %.0f s" % timeout}
    elif result is None:
        how = ("killed by signal %d (%s)" % (-code, signal.Signals(-code).name)
               if code < 0 else "exited with code %d" % code)
        result = {"status": "failed",
                  "error": "crashed: %s; output: %s" % (how,
                                                          _tail(log_text))}
    result["peak_rss_mb"] = usage.ru_maxrss / 1024.0 if usage else None
    result["wall_s"] = wall
    result["exit_code"] = code
    if result.get("status") == "failed" and "output" not in result:
        result["output"] = _tail(log_text, 4000)
    return result


_RUNNING = set()     # the process groups of the children now running


def kill_running():
    """Kills every child now running (on an interrupt)."""
    for pid in list(_RUNNING):
        _kill(pid)


def _kill(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(text, n=1500):
    text = text.strip()
    return text if len(text) <= n else "..." + text[-n:]


def _progress(buf, on_progress):
    *lines, rest = buf.split(b"\n")
    for line in lines:
        parts = line.decode(errors="replace").split()
        if on_progress and len(parts) == 3:
            on_progress(parts[0], int(parts[1]), int(parts[2]))
    return rest


# --------------------------------------------------------------------------
# The child
# --------------------------------------------------------------------------

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


def measure(workload, impl, size, steps_, warmup, seed=0, progress=None):
    """The protocol in this process (the child): returns the raw result."""
    import resource
    from . import steps
    framework = impl.split(".")[0]
    try:
        step = make_step(workload, impl, size)
    except Unavailable as e:
        return {"status": "n/a", "error": str(e)}
    problem = workload.problem(size, seed)
    params = steps.to_framework(problem.params, framework,
                                trainable=workload.train)
    batches = [steps.to_framework(b, framework) for b in problem.batches]
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    total = warmup + steps_
    times, values = [], []
    for i in range(total):
        batch = batches[i % len(batches)]
        start = time.perf_counter()
        out, params = step(params, batch, problem.lr)
        steps.sync((out, params), framework)
        times.append(time.perf_counter() - start)
        values.append(workload.value(out))
        if progress:
            progress(i + 1, total)
    final = None
    if workload.train and workload.loss_decreases:
        out, _ = step(params, batches[0], problem.lr)
        steps.sync(out, framework)
        final = workload.value(out)
    items = float(problem.items)
    timed = times[warmup:]
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
                         progress)
    except Exception as e:  # noqa: BLE001 - reported, never raised
        tb = traceback.format_exc()
        result = {"status": "failed",
                  "error": "%s: %s" % (type(e).__name__,
                                       _tail(str(e), 2000)),
                  "traceback": _tail(tb, 6000)}
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
