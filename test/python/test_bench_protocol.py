"""adjoint-bench's protocol: the statistics, the checks and the suite score
(benchmarks/adjoint_bench/stats.py), and isolated runs (protocol.py,
isolation.py) that fail in every way while the others still run. The
workloads of the suite are smoke-tested by the ctest `adjoint-bench-smoke`."""

import ctypes
import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BENCHMARKS = os.path.join(ROOT, "benchmarks")
sys.path.insert(0, BENCHMARKS)

from adjoint_bench import stats  # noqa: E402
from adjoint_bench.workload import Problem, Workload  # noqa: E402


# Workloads that fail in every way, for the end-to-end run below (the
# children import them through $ADJOINT_BENCH_WORKLOADS). Their steps are
# numpy: loss = |w|^2 on a quadratic bowl, so SGD decreases it.

class _Fake(Workload):
    unit = "items/s"
    sizes = {"tiny": dict(batch=4), "cpu": dict(batch=4),
             "gpu": dict(batch=4)}

    def problem(self, size, seed=0):
        params = {"w": np.full(3, 2.0, np.float32)}
        return Problem(params, [{"x": np.zeros(1, np.float32)}],
                       items=size["batch"], lr=0.1)

    def loss_value(self, w):
        return np.sum(w * w)

    def step_adjoint(self, size):
        def step(params, batch, lr):
            w = params["w"]
            return self.loss_value(w), {"w": w - lr * 2 * w}
        return step


class Good(_Fake):
    name = "fake-good"

    def step_adjoint(self, size):
        inner = super().step_adjoint(size)
        big = []

        def step(params, batch, lr):
            if not big:  # 256 MB once: visible in the peak RSS
                big.append(np.ones(2 ** 26, np.float32))
            return inner(params, batch, lr)
        return step


class Raises(_Fake):
    name = "fake-raises"

    def step_adjoint(self, size):
        def step(params, batch, lr):
            raise ValueError("boom in the step")
        return step


class Crashes(_Fake):
    name = "fake-crashes"

    def step_adjoint(self, size):
        def step(params, batch, lr):
            os.abort()
        return step


class NaN(_Fake):
    name = "fake-nan"

    def loss_value(self, w):
        return np.float32("nan")


class Flat(_Fake):
    name = "fake-flat"

    def step_adjoint(self, size):
        return lambda params, batch, lr: (np.float32(1.0), params)


FAKES = [Good(), Raises(), Crashes(), NaN(), Flat()]


# -- statistics -------------------------------------------------------------

def test_summarize_drops_min_and_max_from_five_samples():
    s = stats.summarize([10.0, 1.0, 4.0, 6.0, 1000.0, 5.0])
    assert s["n"] == 4 and s["dropped"] == 2
    assert s["mean"] == pytest.approx(np.mean([4.0, 5.0, 6.0, 10.0]))
    assert s["std"] == pytest.approx(np.std([4.0, 5.0, 6.0, 10.0]))
    assert s["sem"] == pytest.approx(s["std"] / 2.0)
    assert (s["min"], s["max"]) == (1.0, 1000.0)
    assert s["median"] == pytest.approx(5.5)


def test_summarize_keeps_everything_below_five_samples():
    s = stats.summarize([3.0, 1.0, 2.0, 100.0])
    assert s["n"] == 4 and s["dropped"] == 0
    assert s["mean"] == pytest.approx(26.5)
    assert stats.summarize([7.0])["std"] == 0.0
    assert stats.summarize([]) is None


# -- the score ----------------------------------------------------------------

def test_suite_score_is_milabench_weighted_geometric_mean():
    scores = {"a": 99.0, "b": 9.0}
    weights = {"a": 1.0, "b": 3.0}
    expected = math.exp((math.log(100.0) + 3 * math.log(10.0)) / 4)
    assert stats.suite_score(scores, weights) == pytest.approx(expected)


def test_a_failed_workload_counts_as_zero_with_its_weight():
    # log(0 + 1) = 0 in the numerator, its weight still in the denominator.
    ok = stats.suite_score({"a": 99.0}, {"a": 1.0})
    with_fail = stats.suite_score({"a": 99.0, "b": 0.0},
                                  {"a": 1.0, "b": 1.0})
    assert ok == pytest.approx(100.0)
    assert with_fail == pytest.approx(10.0)
    # A weight-0 workload (gemm) changes nothing.
    assert stats.suite_score({"a": 99.0, "g": 5e9},
                             {"a": 1.0, "g": 0.0}) == pytest.approx(100.0)
    assert stats.suite_score({"g": 5.0}, {"g": 0.0}) is None


def test_ratio_score_is_a_geometric_mean_of_ratios():
    r = stats.ratio_score({"a": 4.0, "b": 0.25, "c": None, "d": 9.0},
                          {"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.0})
    assert r == pytest.approx(1.0)


# -- checks -----------------------------------------------------------------

def test_agreement_is_relative_on_the_first_five_values():
    a = [2.0, 1.5, 1.2, 1.1, 1.0, 123.0]
    close = [x * (1 + 5e-5) for x in a[:5]] + [7.0]   # the 6th is ignored
    res = stats.agreement(a, close)
    assert res["ok"] and res["compared"] == 5
    assert res["max_rel_diff"] == pytest.approx(5e-5, rel=1e-3)
    far = list(a)
    far[3] *= 1 + 3e-4
    res = stats.agreement(a, far)
    assert not res["ok"] and res["max_rel_diff"] == pytest.approx(3e-4,
                                                                  rel=1e-2)
    assert not stats.agreement([1.0, float("nan")], [1.0, 1.0])["ok"]


def test_check_run():
    ok = {"status": "ok", "values": [2.0, 1.0], "final_first_batch": 1.5}
    assert stats.check_run(ok) == []
    flat = dict(ok, final_first_batch=2.0)
    assert "did not decrease" in stats.check_run(flat)[0]
    assert stats.check_run(flat, decreases=False) == []
    assert stats.check_run(flat, train=False) == []
    nan = dict(ok, values=[2.0, float("nan")])
    assert "non-finite" in stats.check_run(nan)[0]
    assert stats.check_run({"status": "failed", "error": "x"}) == ["x"]


def _run(values, rates, final):
    return {"status": "ok", "values": values, "rates": rates,
            "final_first_batch": final, "compile_s": 0.1}


def test_evaluate_fails_on_disagreement_and_counts_zero():
    w = Good()
    ours = _run([4.0, 3.0, 2.0], [10.0, 10.0], 1.0)
    same = _run([4.0, 3.0, 2.0], [5.0, 5.0], 1.0)
    other = _run([4.0, 3.1, 2.0], [5.0, 5.0], 1.0)
    rec = stats.evaluate(w, "tiny", {}, {"adjoint": ours, "torch": same})
    assert rec["status"] == "ok" and rec["score"] == 10.0
    assert rec["ratios"]["torch"] == pytest.approx(2.0)
    rec = stats.evaluate(w, "tiny", {}, {"adjoint": ours, "jax": other})
    assert rec["status"] == "failed" and rec["score"] == 0.0
    assert "disagree" in rec["failures"][0] and "3.1" in rec["failures"][0]
    # A reference that failed is a reference error, not a failed workload.
    rec = stats.evaluate(w, "tiny", {}, {
        "adjoint": ours, "torch": {"status": "failed", "error": "oops"}})
    assert rec["status"] == "ok" and rec["reference_errors"]
    rec = stats.evaluate(w, "tiny", {}, {
        "adjoint": {"status": "failed", "error": "crashed"}, "torch": same})
    assert rec["status"] == "failed" and rec["score"] == 0.0


# -- isolated runs, end to end ------------------------------------------------

def test_failures_are_isolated_and_reported(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [HERE] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["ADJOINT_BENCH_WORKLOADS"] = "test_bench_protocol:FAKES"
    out = tmp_path / "results.jsonl"
    names = [w.name for w in FAKES]
    proc = subprocess.run(
        [sys.executable, os.path.join(BENCHMARKS, "adjoint-bench"),
         "--size", "tiny", "--steps", "6", "--warmup", "1",
         "--references", "none", "--json", str(out), "-q"] + names,
        env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = [json.loads(l) for l in out.read_text().splitlines()]
    recs = {r["workload"]: r for r in lines if r["record"] == "workload"}
    assert sorted(recs) == sorted(names)
    good = recs["fake-good"]
    assert good["status"] == "ok", good["failures"]
    run = good["implementations"]["adjoint"]
    assert len(run["rates"]) == 6 and run["summary"]["n"] == 4
    assert run["values"][0] == pytest.approx(12.0)
    assert run["peak_rss_mb"] > 256 > run["base_rss_mb"]
    assert good["score"] == pytest.approx(run["summary"]["mean"])
    errors = {n: " ".join(recs[n]["failures"]) for n in names[1:]}
    assert "boom in the step" in errors["fake-raises"]
    assert "SIGABRT" in errors["fake-crashes"]
    assert "non-finite" in errors["fake-nan"]
    assert "did not decrease" in errors["fake-flat"]
    for n in names[1:]:
        assert recs[n]["status"] == "failed" and recs[n]["score"] == 0.0
    suite = lines[-1]
    assert suite["record"] == "suite"
    assert sorted(suite["failed"]) == sorted(names[1:])
    assert suite["score"] == pytest.approx(
        math.exp(math.log(good["score"] + 1) / 5))
    meta = suite["metadata"]
    assert meta["cores"] >= 1 and meta["versions"]["numpy"] == np.__version__
    for n in names:
        assert n in proc.stdout
    assert "FAILED" in proc.stdout

    # The saved run, re-weighted: fake-good counts twice.
    rep = subprocess.run(
        [sys.executable, os.path.join(BENCHMARKS, "adjoint-bench"),
         "--report", str(out), "--weight", "fake-good=2"],
        env=env, capture_output=True, text=True, timeout=120)
    assert rep.returncode == 0, rep.stderr
    score = math.exp(2 * math.log(good["score"] + 1) / 6)
    assert "Score" in rep.stdout and "%.4g" % score in rep.stdout


def test_unavailable_device_is_reported(tmp_path):
    cases = [("level_zero:0", "libze_loader"), ("gpu", "unknown device kind")]
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        cases.append(("cuda:0", "libcuda.so.1 not found"))
    try:
        ctypes.CDLL("libamdhip64.so.6")
    except OSError:
        cases.append(("hip:0", "libamdhip64.so.6, libamdhip64.so.5 or "
                      "libamdhip64.so not found"))
    for device, reason in cases:
        proc = subprocess.run(
            [sys.executable, os.path.join(BENCHMARKS, "adjoint-bench"),
             "--device", device, "mlp"], capture_output=True, text=True,
            timeout=120)
        assert proc.returncode == 2
        assert "unavailable" in proc.stderr and reason in proc.stderr
