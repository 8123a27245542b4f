"""What a run's records say about where it ran (the `metadata` of each
JSON line): the machine, the versions of the frameworks and of adjoint,
the git commit of the benchmarks, and the run's settings, so that numbers
saved long ago can still be compared (docs/benchmarks.md, Results).
"""

import datetime
import importlib.metadata
import importlib.util
import os
import platform
import subprocess
import sys

from .protocol import BENCHMARKS_DIR
from .steps import reference_device


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
            ["git", "-C", BENCHMARKS_DIR] + list(cmd),
            capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _device_name(device):
    """The name of Adjoint's device ("NVIDIA H100 80GB HBM3"), which the
    references share on a CUDA GPU."""
    if device == "cpu":
        return _cpu_model()
    try:
        import adjoint
        return adjoint.device(device).name
    except Exception:  # noqa: BLE001 - the run reports unusable devices
        return None


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
        "device_name": _device_name(args.device),
        "reference_device": reference_device(args.device),
        "precision": args.precision,
        "steps": args.steps,
        "warmup": args.warmup,
        "seed": args.seed,
        "jobs": args.jobs,
        "references": args.references,
        "argv": sys.argv[1:],
    }
