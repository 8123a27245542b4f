"""--profile: where an Adjoint step's time goes on its device, measured in
the child after the timed steps (protocol.measure).

- what one step runs, from the device's counters over `steps` steps:
  kernels (launched, or as nodes of graphs), vendor-library GEMMs, copies,
  fills, and how many of the step's compiled calls ran as one graph launch
  (with the reasons where they could not);
- host time per step: how long the step call takes to return, the queue
  drained before each, so that it is the time spent issuing the work;
- the same with graphs off (ADJOINT_GPU_GRAPHS=0), and the full step time
  both ways: what graphs save;
- the ten most expensive kernels, timed one by one in the device's
  profiling mode (a separate step: timing each kernel serializes them);
- the time the step's jits spent building and compiling (part of the
  first step's time).

`python3 -m adjoint_bench.profile summarize FILE.jsonl...` prints one JSON
object of every workload's answers from saved --profile runs
(scripts/gpu-device-run.sh's profile stage).
"""

import contextlib
import json
import os
import sys
import time

TOP_KERNELS = 10


def _devices(tree):
    import adjoint
    from .steps import _leaves
    return list({leaf.device for leaf in _leaves(tree)
                 if isinstance(leaf, adjoint.Tensor)})


def _timed_steps(step, params, batches, lr, steps, sync):
    """Runs `steps` steps; (params, host seconds, full seconds) per step."""
    host, full = [], []
    for i in range(steps):
        start = time.perf_counter()
        out, params = step(params, batches[i % len(batches)], lr)
        issued = time.perf_counter()
        sync((out, params))
        done = time.perf_counter()
        host.append(issued - start)
        full.append(done - start)
        del out  # not alive during the next step
    return params, host, full


@contextlib.contextmanager
def _graphs_off():
    """ADJOINT_GPU_GRAPHS=0 (read by the runtime at each call) meanwhile."""
    saved = os.environ.get("ADJOINT_GPU_GRAPHS")
    os.environ["ADJOINT_GPU_GRAPHS"] = "0"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["ADJOINT_GPU_GRAPHS"]
        else:
            os.environ["ADJOINT_GPU_GRAPHS"] = saved


def _mean_ms(values):
    return 1e3 * sum(values) / len(values) if values else None


def profile_adjoint(step, params, batches, lr, sync, steps=5):
    """The profile of Adjoint's `step` (see the module's docstring), or
    None where its arrays are on the CPU (no device counters there)."""
    import adjoint
    devices = [d for d in _devices((params, batches)) if d.kind != "cpu"]
    if not devices:
        return None
    device = devices[0]
    sync(params)
    with _graphs_off():
        params, plain_host, plain_full = _timed_steps(
            step, params, batches, lr, steps, sync)
    before = device.counters()
    params, host, full = _timed_steps(step, params, batches, lr, steps, sync)
    after = device.counters()

    def per_step(key):
        return (after[key] - before[key]) / steps

    device.set_profiling(True)
    try:
        params, _, _ = _timed_steps(step, params, batches, lr, 1, sync)
    finally:
        device.set_profiling(False)
    return {
        "device": device.id,
        "steps": steps,
        # This child compiles only this workload's step.
        "compile_s": adjoint.JitFunction.total_compile_seconds,
        "kernels_per_step": per_step("kernels"),
        "library_calls_per_step": per_step("library_calls"),
        "copies_per_step": per_step("copies"),
        "fills_per_step": per_step("fills"),
        "calls_per_step": per_step("calls"),
        "graph_calls_per_step": per_step("graph_calls"),
        "graph_captures": after["graph_captures"] - before["graph_captures"],
        "graph_fallbacks": after["graph_fallbacks"],
        "host_ms_per_step": _mean_ms(host),
        "step_ms": _mean_ms(full),
        "host_ms_per_step_no_graphs": _mean_ms(plain_host),
        "step_ms_no_graphs": _mean_ms(plain_full),
        "top_kernels": device.kernel_times()[:TOP_KERNELS],
    }


def render_profiles(records):
    """The --profile table and each workload's top kernels, as text; empty
    where no record has a profile."""
    lines = []
    for rec in records:
        prof = rec["implementations"].get("adjoint", {}).get("profile")
        if not prof:
            continue
        if not lines:
            lines.append("Profile (per step, on %s):" % prof["device"])
            lines.append("%-8s %8s %8s %7s %6s %9s %10s %10s %10s %10s" % (
                "workload", "kernels", "library", "copies", "fills",
                "as graph", "host ms", "step ms", "host ms*", "step ms*"))
        calls = prof["calls_per_step"] or 1
        lines.append("%-8s %8.0f %8.0f %7.0f %6.0f %8.0f%% %10.3f %10.3f "
                     "%10.3f %10.3f" % (
                         rec["workload"], prof["kernels_per_step"],
                         prof["library_calls_per_step"],
                         prof["copies_per_step"], prof["fills_per_step"],
                         100.0 * prof["graph_calls_per_step"] / calls,
                         prof["host_ms_per_step"], prof["step_ms"],
                         prof["host_ms_per_step_no_graphs"],
                         prof["step_ms_no_graphs"]))
    if not lines:
        return ""
    lines.append("*: with ADJOINT_GPU_GRAPHS=0. host ms: until the step "
                 "call returns (issuing its work); step ms: until its "
                 "results are ready.")
    for rec in records:
        prof = rec["implementations"].get("adjoint", {}).get("profile")
        if not prof:
            continue
        for why in prof["graph_fallbacks"]:
            lines.append("%s: without graphs: %s" % (rec["workload"], why))
        # A graph launched again costs one driver call; one captured anew
        # costs issuing all its work into the capture (and an update).
        captures = prof.get("graph_captures", 0)
        if captures:
            lines.append("%s: %d of %d graph calls in %d timed steps were "
                         "captured anew (their addresses changed), not "
                         "launched again" % (
                             rec["workload"], captures,
                             round(prof["graph_calls_per_step"] *
                                   prof["steps"]), prof["steps"]))
        if prof["top_kernels"]:
            lines.append("%s: top kernels (ms per call x calls):" %
                         rec["workload"])
            for k in prof["top_kernels"]:
                lines.append("  %10.4f x %-4d %s" % (
                    k["milliseconds"] / max(k["calls"], 1), k["calls"],
                    k["name"]))
    return "\n".join(lines)


#: The answers of summarize(), from the profile.
_SUMMARY_KEYS = ("compile_s", "kernels_per_step", "library_calls_per_step",
                 "copies_per_step", "fills_per_step", "calls_per_step",
                 "graph_calls_per_step", "graph_captures", "graph_fallbacks",
                 "host_ms_per_step", "step_ms", "host_ms_per_step_no_graphs",
                 "step_ms_no_graphs", "top_kernels")


def summarize(paths):
    """Per workload, from saved adjoint-bench --profile runs: the status,
    the compile, the first and second step (loading code, measuring GEMM
    routes), the steady step (mean of the timed steps) and the profile."""
    from .jsonl import read_records
    out = {}
    for path in paths:
        for rec in read_records(path)[0]:
            ours = rec["implementations"].get("adjoint", {})
            prof = ours.get("profile") or {}
            warmup = ours.get("warmup_s") or []
            timed = ours.get("step_s") or []
            entry = {
                "status": ours.get("status"),
                "error": ours.get("error"),
                "first_step_s": ours.get("compile_s"),
                "second_step_s": warmup[1] if len(warmup) > 1 else None,
                "steady_step_ms": 1e3 * sum(timed) / len(timed)
                if timed else None,
            }
            entry.update({k: prof.get(k) for k in _SUMMARY_KEYS})
            out[rec["workload"]] = entry
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "summarize":
        sys.exit("usage: python3 -m adjoint_bench.profile summarize "
                 "FILE.jsonl...")
    json.dump(summarize(sys.argv[2:]), sys.stdout, indent=1)
    print()
