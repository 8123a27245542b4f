"""The command-line tool `adjoint-bench` (docs/benchmarks.md).

    benchmarks/adjoint-bench --size cpu --json results.jsonl --plot chart.png
    PYTHONPATH=benchmarks python3 -m adjoint_bench --size tiny mlp gemm

Exit status: 0 when every workload passed and every reference ran, 1 when a
workload failed or a reference failed, 2 on a usage error or an unavailable
device, 77 when a requested reference framework is not installed (ctest's
skip code in the smoke test)."""

import argparse
import concurrent.futures
import datetime
import importlib.metadata
import importlib.util
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from . import protocol

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
    p.add_argument("--device", choices=("cpu", "gpu"), default="cpu",
                   help="where to run (default: cpu; gpu is unavailable: "
                   "Adjoint has no GPU backend yet)")
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
        if r not in protocol.REFERENCES:
            p.error("unknown reference %r (choose among %s)"
                    % (r, ", ".join(protocol.REFERENCES)))
    args.references = list(dict.fromkeys(refs))
    try:
        args.weights = {k: float(v) for k, v in
                        (w.split("=", 1) for w in args.weight)}
    except ValueError:
        p.error("--weight takes NAME=NUMBER")
    return args


# --------------------------------------------------------------------------
# Workloads and the machine
# --------------------------------------------------------------------------

def registry():
    workloads = protocol.load_workloads()
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


def _version(dist):
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 2 ** 20, 1)
    except OSError:
        pass
    return None


def _git(*cmd):
    try:
        return subprocess.run(
            ["git", "-C", protocol.BENCHMARKS_DIR] + list(cmd),
            capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def metadata(args):
    """The machine, the software and the run's settings."""
    spec = importlib.util.find_spec("adjoint")
    usable = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
              else os.cpu_count())
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(
            timespec="seconds"),
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "cores_usable": usable,
        "threads": args.threads,
        "memory_gib": _memory_gib(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg")
        else None,
        "os": platform.platform(),
        "python": platform.python_version(),
        "versions": {d: _version(d) for d in
                     ("numpy", "torch", "jax", "jaxlib", "adjoint")},
        "adjoint_path": os.path.dirname(spec.origin) if spec and spec.origin
        else None,
        "git_commit": _git("rev-parse", "HEAD") or None,
        "git_dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "device": args.device,
        "steps": args.steps,
        "warmup": args.warmup,
        "seed": args.seed,
        "jobs": args.jobs,
        "references": args.references,
        "argv": sys.argv[1:],
    }


# --------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------

class Progress:
    """A one-line progress bar on a terminal (stdout a TTY); else one line
    per finished run on stderr (nothing with --quiet). Thread-safe (the
    runs of --jobs)."""

    def __init__(self, total, quiet):
        self.total, self.done, self.quiet = total, 0, quiet
        self.tty = sys.stdout.isatty() and not quiet
        self.active = {}      # label -> what it is doing
        self.start = time.perf_counter()
        self.lock = threading.Lock()
        self.width = shutil.get_terminal_size((80, 20)).columns

    def begin(self, label):
        with self.lock:
            self.active[label] = "starting"
            self._draw()

    def callback(self, label):
        def on_step(phase, i, n):
            with self.lock:
                self.active[label] = ("compiling" if phase == "setup" or i == 0
                                      else "step %d/%d" % (i, n))
                self._draw()
        return on_step

    def end(self, label, run, unit):
        with self.lock:
            self.done += 1
            self.active.pop(label, None)
            if self.tty:
                self._draw()
            elif not self.quiet:
                s = run.get("summary")
                what = (run["status"] if not s else "ok, %.4g %s"
                        % (s["mean"], unit))
                print("adjoint-bench: %-24s %s (%.1f s)"
                      % (label, what, run.get("wall_s", 0)), file=sys.stderr,
                      flush=True)

    def _draw(self):
        if not self.tty:
            return
        bar_w = 24
        filled = int(bar_w * self.done / max(self.total, 1))
        doing = ", ".join("%s %s" % kv for kv in self.active.items())
        line = "[%s%s] %d/%d %s %ds" % (
            "#" * filled, "." * (bar_w - filled), self.done, self.total,
            doing, time.perf_counter() - self.start)
        sys.stdout.write("\r" + line[:self.width - 1].ljust(self.width - 1))
        sys.stdout.flush()

    def close(self):
        if self.tty:
            sys.stdout.write("\r" + " " * (self.width - 1) + "\r")
            sys.stdout.flush()


# --------------------------------------------------------------------------
# Output: table, JSON, plot
# --------------------------------------------------------------------------

def _num(x):
    if x is None:
        return "-"
    ax = abs(x)
    if ax >= 1e5:
        return "%.3g" % x
    if ax >= 100:
        return "%.0f" % x
    if ax >= 10:
        return "%.1f" % x
    return "%.3g" % x


def _rate(run):
    s = run.get("summary") if run else None
    if not s:
        return "-"
    return "%s ± %s" % (_num(s["mean"]), _num(s["std"]))


def _mb(x):
    return "-" if x is None else "%.0f MB" % x


def _cell(rec, ref):
    run = rec["implementations"].get(ref)
    if run is None:
        return "-"
    if run.get("status") == "n/a":
        return "n/a"
    if run.get("status") != "ok" or run.get("problems"):
        return "error"
    ratio = rec["ratios"].get(ref)
    agree = rec["agreement"].get(ref, {}).get("ok")
    return "%s %s" % ("-" if ratio is None else "%.3gx" % ratio,
                      {True: "OK", False: "FAIL", None: "?"}[agree])


def _table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows)
              for i in range(len(header))]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    lines = [fmt % tuple(header), fmt % tuple("-" * w for w in widths)]
    lines += [fmt % tuple(r) for r in rows]
    return "\n".join(l.rstrip() for l in lines)


def render(records, suite, refs):
    """The tables and the score as text."""
    out = []
    head = ["workload", "status", "adjoint rate (mean ± std)", "unit",
            "compile", "peak RSS"] + ["vs %s" % r for r in refs]
    rows = []
    for rec in records:
        ours = rec["implementations"].get("adjoint", {})
        rows.append([rec["workload"], rec["status"].upper()
                     if rec["status"] != "ok" else "ok", _rate(ours),
                     rec["unit"],
                     "-" if ours.get("compile_s") is None
                     else "%.2f s" % ours["compile_s"],
                     _mb(ours.get("peak_rss_mb"))]
                    + [_cell(rec, r) for r in refs])
    out.append(_table(head, rows))
    out.append("")
    out.append("vs X: adjoint's mean rate / X's mean rate in this run; "
               "OK/FAIL: the first %d %s agree to rel %g."
               % (protocol.AGREE_COUNT, "losses", protocol.AGREE_RTOL))
    # Every implementation's numbers.
    impls = ["adjoint"] + list(refs)
    head = ["workload", "implementation", "rate (mean ± std)", "n",
            "first step", "peak RSS"]
    rows = []
    for rec in records:
        for impl in impls:
            run = rec["implementations"].get(impl)
            if run is None:
                continue
            s = run.get("summary")
            rows.append([rec["workload"], impl,
                         _rate(run) + " " + rec["unit"]
                         if s else run.get("status", "-"),
                         s["n"] if s else "-",
                         "-" if run.get("compile_s") is None
                         else "%.2f s" % run["compile_s"],
                         _mb(run.get("peak_rss_mb"))])
    out.append("")
    out.append(_table(head, rows))
    problems = [(rec["workload"], f) for rec in records
                for f in rec["failures"]] + \
               [(rec["workload"], "(reference) " + f) for rec in records
                for f in rec["reference_errors"]]
    if problems:
        out.append("")
        out.append("Failures:")
        for name, f in problems:
            out.append("  %s: %s" % (name, f))
    out.append("")
    failed = sum(rec["status"] != "ok" for rec in records)
    out.append("Score (Milabench: exp(sum w log(rate + 1) / sum w) over "
               "adjoint's rates): %s; %d workload(s), %d failed"
               % ("-" if suite["score"] is None else "%.4g" % suite["score"],
                  len(records), failed))
    for ref, value in suite["ratio_scores"].items():
        if value is not None:
            out.append("Geometric mean of adjoint / %s: %.3gx" % (ref, value))
    return "\n".join(out)


def suite_record(records, weights, meta):
    w = {rec["workload"]: weights.get(rec["workload"], rec["weight"])
         for rec in records}
    scores = {rec["workload"]: rec["score"] for rec in records}
    refs = sorted({r for rec in records for r in rec["ratios"]},
                  key=protocol.REFERENCES.index)
    return {
        "record": "suite",
        "score": protocol.suite_score(scores, w),
        "weights": w,
        "failed": [rec["workload"] for rec in records
                   if rec["status"] != "ok"],
        "ratio_scores": {r: protocol.ratio_score(
            {rec["workload"]: rec["ratios"].get(r) for rec in records
             if rec["status"] == "ok"}, w) for r in refs},
        "metadata": meta,
    }


def _clean(x):
    """Non-finite floats as null (JSON has no NaN)."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    return x


def write_json_line(f, obj):
    f.write(json.dumps(_clean(obj), sort_keys=False) + "\n")
    f.flush()


def plot(records, refs, meta, path):
    """Grouped bars: adjoint's rate over each reference's, per workload."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker
    except ImportError:
        print("adjoint-bench: --plot needs matplotlib (pip install "
              "matplotlib; scripts/setup.sh installs it)", file=sys.stderr)
        return False
    names = [rec["workload"] for rec in records]
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(names) + 2), 4.5))
    width = 0.8 / max(len(refs), 1)
    for j, ref in enumerate(refs):
        xs, ys = [], []
        for i, rec in enumerate(records):
            r = rec["ratios"].get(ref)
            if r:
                xs.append(i + (j - (len(refs) - 1) / 2) * width)
                ys.append(r)
        # From the line at 1: up when adjoint is faster, down when slower.
        bars = ax.bar(xs, [y - 1.0 for y in ys], width, bottom=1.0,
                      label="adjoint / " + ref)
        ax.bar_label(bars, labels=["%.3g" % y for y in ys], fontsize=7)
    for i, rec in enumerate(records):
        if rec["status"] != "ok":
            ax.text(i, 1.0, "FAIL", ha="center", va="bottom", color="red",
                    fontweight="bold")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    fmt = matplotlib.ticker.FormatStrFormatter("%g")
    ax.yaxis.set_major_formatter(fmt)
    ax.yaxis.set_minor_formatter(fmt)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names)
    ax.set_ylabel("rate ratio (higher: adjoint faster)")
    size = records[0]["size_name"] if records else ""
    ax.set_title("adjoint-bench, size %s: %s, %s cores%s" % (
        size, meta.get("cpu", "?"), meta.get("cores_usable", "?"),
        "" if not meta.get("threads") else
        " (--threads %s)" % meta["threads"]), fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


# --------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------

def run(args):
    if args.device != "cpu":
        print("adjoint-bench: device %r is unavailable: Adjoint has no GPU "
              "backend yet (only --device cpu runs; --size gpu runs the "
              "gpu sizes on the CPU)" % args.device, file=sys.stderr)
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
        sizes[name] = protocol.resolve_size(workloads[name], args.size,
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
        env = protocol.child_environment(args.threads, cache)
        spec = {"workload": name, "implementation": impl,
                "size_name": args.size, "batch_size": args.batch_size,
                "steps": args.steps, "warmup": args.warmup,
                "seed": args.seed, "threads": args.threads}
        progress.begin(label)
        try:
            run_ = protocol.run_isolated(spec, env, args.timeout,
                                         progress.callback(label))
        finally:
            if cache != args.adjoint_cache:
                shutil.rmtree(cache, ignore_errors=True)
        run_["summary"] = protocol.summarize(run_.get("rates") or [])
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
            rec = protocol.evaluate(workloads[name], args.size, sizes[name],
                                    runs, args.weights.get(name))
            rec["device"] = args.device
            rec["steps"], rec["warmup"] = args.steps, args.warmup
            rec["metadata"] = meta
            records.append(rec)
            if out:
                write_json_line(out, rec)
    except KeyboardInterrupt:
        interrupted = True
        protocol.kill_running()
    finally:
        if pool:
            pool.shutdown(wait=True, cancel_futures=True)
        progress.close()
    suite = suite_record(records, args.weights, meta)
    if out:
        write_json_line(out, suite)
        out.close()
    print(render(records, suite, args.references))
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
    records, meta = [], {}
    with open(args.report) as f:
        for line in f:
            if not line.strip():
                continue
            obj = json.loads(line)
            if obj.get("record") == "workload":
                records.append(obj)
                meta = obj.get("metadata", meta)
    for rec in records:
        if rec["workload"] in args.weights:
            rec["weight"] = args.weights[rec["workload"]]
    refs = [r for r in protocol.REFERENCES
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
