"""The parent's side of the isolated runs: each (workload, implementation)
runs in its own subprocess (`python -m adjoint_bench.protocol SPEC`), so
that a crash, an exception or a timeout in one does not stop the others,
and so that each one's peak memory (wait4's ru_maxrss) is its own.

The child reports its progress on a pipe (`phase i n` lines) and writes its
result to a JSON file; anything else it prints goes to a log whose end
becomes the error of a run that left no result.
"""

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time

from .protocol import BENCHMARKS_DIR, tail


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
                  "error": "crashed: %s; output: %s" % (how, tail(log_text))}
    result["peak_rss_mb"] = usage.ru_maxrss / 1024.0 if usage else None
    result["wall_s"] = wall
    result["exit_code"] = code
    if result.get("status") == "failed" and "output" not in result:
        result["output"] = tail(log_text, 4000)
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


def _progress(buf, on_progress):
    *lines, rest = buf.split(b"\n")
    for line in lines:
        parts = line.decode(errors="replace").split()
        if on_progress and len(parts) == 3:
            on_progress(parts[0], int(parts[1]), int(parts[2]))
    return rest
