"""The command-line tool `adjoint-bench` (docs/benchmarks.md).

    benchmarks/adjoint-bench --size cpu --json results.jsonl --plot chart.png
    PYTHONPATH=benchmarks python3 -m adjoint_bench --size tiny mlp gemm

The options, the choice of workloads, and the two things the command does:
a run (each workload's isolated runs, their records written and printed as
they come) and `--report` (a saved run printed and scored again). What each
step needs lives in a module of its own, which this one only wires up:
protocol.py and isolation.py run, stats.py judges and scores, tables.py,
jsonl.py and chart.py write, progress.py and metadata.py describe the run.

Exit status: 0 when every workload passed and every reference ran, 1 when a
workload failed or a reference failed, 2 on a usage error or an unavailable
device, 77 when a requested reference framework is not installed (ctest's
skip code in the smoke test)."""

import argparse
import concurrent.futures
import importlib.util
import shutil
import sys
import tempfile

from .chart import plot
from .isolation import child_environment, kill_running, run_isolated
from .jsonl import read_records, write_json_line
from .metadata import metadata
from .profile import render_profiles
from .progress import Progress
from .protocol import REFERENCES, load_workloads, resolve_size
from .stats import evaluate, suite_record, summarize
from .steps import PRECISIONS, reference_device
from .tables import render

#: The issue's order: calibration first, then by model family.
ORDER = ("gemm", "mlp", "convnet", "bert", "llama", "lstm", "dlrm", "ppo",
         "gnn")

EXIT_FAILED, EXIT_USAGE, EXIT_SKIP = 1, 2, 77


def _csv(text):
    return [x.strip() for x in text.split(",") if x.strip()]


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="adjoint-bench",
        description="Milabench-derived training workloads compiled by "
        "Adjoint, measured against PyTorch and JAX (docs/benchmarks.md).")
    p.add_argument("workloads", nargs="*", metavar="WORKLOAD",
                   help="workloads to run (default: all; see --list)")
    p.add_argument("--select", action="append", default=[], metavar="A,B",
                   help="run only these workloads (repeatable)")
    p.add_argument("--exclude", action="append", default=[], metavar="A,B",
                   help="leave these workloads out (repeatable)")
    p.add_argument("--list", action="store_true",
                   help="list the workloads and their sizes, then exit")
    p.add_argument("--size", choices=("tiny", "cpu", "gpu"), default="cpu",
                   help="problem size (default: cpu)")
    p.add_argument("--device", default="cpu", metavar="ID",
                   help="where Adjoint runs: cpu (default) or a device id "
                   "such as opencl:0, cuda:0 or hip:0 (adjoint.devices() "
                   "lists them); with cuda or hip the references run on "
                   "the same GPU (torch's cuda:N, which ROCm builds of "
                   "torch use for AMD GPUs too; JAX's gpu backend), "
                   "otherwise on the CPU")
    p.add_argument("--precision", choices=PRECISIONS, default="highest",
                   help="f32 matmuls in every framework: highest (exact "
                   "f32, default) or tf32 (TF32 tensor cores: torch's "
                   "allow_tf32, JAX's default_matmul_precision, adjoint's "
                   "set_matmul_precision); recorded in the JSON")
    p.add_argument("--steps", type=int, default=20,
                   help="timed steps (default: 20)")
    p.add_argument("--warmup", type=int, default=3,
                   help="warm-up steps, the first one compiles (default: 3)")
    p.add_argument("--batch-size", type=int, metavar="N",
                   help="override the size's batch (workloads with one)")
    p.add_argument("--references", default="torch,jax", metavar="LIST",
                   help="comma-separated among torch, torch.compile, jax, or "
                   "none (default: torch,jax; torch.compile takes 20-40 s "
                   "per model to compile on a CPU)")
    p.add_argument("--threads", type=int, metavar="N",
                   help="cores for every implementation (CPU affinity and "
                   "thread counts; default: all)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="run N implementations at once: faster, but the "
                   "rates are then not measurements (the smoke test)")
    p.add_argument("--seed", type=int, default=0,
                   help="the seed of parameters and batches (default: 0)")
    p.add_argument("--timeout", type=float, default=1200, metavar="S",
                   help="seconds per implementation run (default: 1200)")
    p.add_argument("--adjoint-cache", metavar="DIR",
                   help="adjoint's compile cache (default: a new empty one "
                   "per run, so that compile times are cold)")
    p.add_argument("--json", metavar="PATH",
                   help="write JSON lines: one object per workload, then "
                   "the suite's")
    p.add_argument("--plot", metavar="PNG",
                   help="write a chart of the ratios (matplotlib)")
    p.add_argument("--report", metavar="JSONL",
                   help="print the table, score and plot of a saved "
                   "--json file instead of running")
    p.add_argument("--weight", action="append", default=[],
                   metavar="NAME=W", help="override a workload's weight in "
                   "the score (repeatable)")
    p.add_argument("--profile", action="store_true",
                   help="after Adjoint's timed steps: kernels, library "
                   "calls and host time per step, with and without GPU "
                   "graphs, and the ten most expensive kernels (GPU "
                   "devices; in the JSON as implementations.adjoint."
                   "profile)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress output")
    args = p.parse_args(argv)
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    if args.steps < 1 or args.warmup < 1:
        p.error("--steps and --warmup must be at least 1 (the first "
                "warm-up step compiles)")
    refs = [] if args.references.strip() == "none" else _csv(args.references)
    for r in refs:
        if r not in REFERENCES:
            p.error("unknown reference %r (choose among %s)"
                    % (r, ", ".join(REFERENCES)))
    args.references = list(dict.fromkeys(refs))
    try:
        args.weights = {k: float(v) for k, v in
                        (w.split("=", 1) for w in args.weight)}
    except ValueError:
        p.error("--weight takes NAME=NUMBER")
    return args


# --------------------------------------------------------------------------
# Workloads
# --------------------------------------------------------------------------

def registry():
    workloads = load_workloads()
    names = sorted(workloads, key=lambda n: (ORDER.index(n) if n in ORDER
                                             else len(ORDER), n))
    return {n: workloads[n] for n in names}


def select(all_names, args):
    chosen = list(args.workloads) + [n for s in args.select for n in _csv(s)]
    excluded = {n for s in args.exclude for n in _csv(s)}
    unknown = [n for n in chosen + sorted(excluded) if n not in all_names]
    if unknown:
        raise SystemExit("adjoint-bench: unknown workload(s) %s; known: %s"
                         % (", ".join(unknown), ", ".join(all_names)))
    names = [n for n in all_names if (not chosen or n in chosen)
             and n not in excluded]
    return names


# --------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------

def run(args):
    if args.device != "cpu":
        try:
            import adjoint
            adjoint.device(args.device)
        except Exception as e:  # noqa: BLE001 - reported
            print("adjoint-bench: device %r is unavailable: %s"
                  % (args.device, e), file=sys.stderr)
            return EXIT_USAGE
    workloads = registry()
    names = select(list(workloads), args)
    if args.list:
        for n in names:
            w = workloads[n]
            print("%-8s %-10s from %-7s %s" % (n, w.unit, w.derived_from,
                                                w.sizes.get(args.size)))
        return 0
    missing = [r for r in args.references
               if importlib.util.find_spec(r.split(".")[0]) is None]
    if missing:
        print("adjoint-bench: skipped: the reference(s) %s are not installed "
              "for %s (scripts/setup.sh installs torch and jax, or pass "
              "--references)" % (", ".join(missing), sys.executable),
              file=sys.stderr)
        return EXIT_SKIP
    if not names:
        print("adjoint-bench: no workload selected", file=sys.stderr)
        return EXIT_USAGE
    meta = metadata(args)
    impls = ["adjoint"] + args.references
    progress = Progress(len(names) * len(impls), args.quiet)
    records = []
    out = open(args.json, "w") if args.json else None
    interrupted = False
    sizes = {}
    for name in names:
        sizes[name] = resolve_size(workloads[name], args.size,
                                   args.batch_size)
        if (args.batch_size is not None and "batch" not in sizes[name]
                and not args.quiet):
            print("adjoint-bench: %s has no batch size: --batch-size "
                  "ignored" % name, file=sys.stderr)
    if args.jobs > 1 and not args.quiet:
        print("adjoint-bench: --jobs %d: the runs overlap, so the rates are "
              "not measurements" % args.jobs, file=sys.stderr)

    def task(name, impl):
        label = "%s/%s" % (name, impl)
        cache = args.adjoint_cache
        if impl == "adjoint" and not cache:
            cache = tempfile.mkdtemp(prefix="adjoint-bench-cache-")
        env = child_environment(args.threads, cache)
        spec = {"workload": name, "implementation": impl,
                "size_name": args.size, "batch_size": args.batch_size,
                "steps": args.steps, "warmup": args.warmup,
                "seed": args.seed, "threads": args.threads,
                "device": args.device if impl == "adjoint"
                else reference_device(args.device),
                "precision": args.precision,
                "profile": args.profile and impl == "adjoint"}
        progress.begin(label)
        try:
            run_ = run_isolated(spec, env, args.timeout,
                                progress.callback(label))
        finally:
            if cache != args.adjoint_cache:
                shutil.rmtree(cache, ignore_errors=True)
        run_["summary"] = summarize(run_.get("rates") or [])
        progress.end(label, run_, workloads[name].unit)
        return run_

    pool = (concurrent.futures.ThreadPoolExecutor(args.jobs)
            if args.jobs > 1 else None)
    try:
        futures = {}
        if pool:
            futures = {(n, i): pool.submit(task, n, i)
                       for n in names for i in impls}
        for name in names:
            runs = {impl: futures[name, impl].result() if pool
                    else task(name, impl) for impl in impls}
            rec = evaluate(workloads[name], args.size, sizes[name], runs,
                           args.weights.get(name))
            rec["device"] = args.device
            rec["reference_device"] = reference_device(args.device)
            rec["precision"] = args.precision
            rec["steps"], rec["warmup"] = args.steps, args.warmup
            rec["metadata"] = meta
            records.append(rec)
            if out:
                write_json_line(out, rec)
    except KeyboardInterrupt:
        interrupted = True
        kill_running()
    finally:
        if pool:
            pool.shutdown(wait=True, cancel_futures=True)
        progress.close()
    suite = suite_record(records, args.weights, meta)
    suite["precision"] = args.precision
    suite["reference_device"] = reference_device(args.device)
    if out:
        write_json_line(out, suite)
        out.close()
    print(render(records, suite, args.references))
    profiles = render_profiles(records)
    if profiles:
        print(profiles)
    if interrupted:
        print("adjoint-bench: interrupted", file=sys.stderr)
        return 130
    if args.plot:
        if plot(records, args.references, meta, args.plot):
            print("Plot: %s" % args.plot)
    if args.json:
        print("JSON lines: %s" % args.json)
    bad = any(rec["status"] != "ok" or rec["reference_errors"]
              for rec in records)
    return EXIT_FAILED if bad else 0


def report(args):
    """--report: the table, score and plot of a saved run, re-weighted."""
    records, meta = read_records(args.report)
    for rec in records:
        if rec["workload"] in args.weights:
            rec["weight"] = args.weights[rec["workload"]]
    refs = [r for r in REFERENCES
            if any(r in rec["implementations"] for rec in records)]
    suite = suite_record(records, args.weights, meta)
    print(render(records, suite, refs))
    if args.plot and plot(records, refs, meta, args.plot):
        print("Plot: %s" % args.plot)
    return 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.report:
        return report(args)
    return run(args)
