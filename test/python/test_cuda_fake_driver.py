"""The cuda device from Python on the fake libcuda.so.1
(test/unit/Runtime/GPU/FakeCuda.cpp: device memory is host memory, kernels
are recorded, not run). ctest's `python-cuda-fake` entry puts the fake on
the library path and sets ADJOINT_TEST_FAKE_CUDA; elsewhere these tests
skip (a real driver, or none)."""

import os

import numpy as np
import pytest

import adjoint as adj

pytestmark = pytest.mark.skipif(
    os.environ.get("ADJOINT_TEST_FAKE_CUDA") != "1",
    reason="needs the fake libcuda.so.1 (ctest entry python-cuda-fake)")


def test_cuda_device_is_listed_with_its_properties():
    d = adj.device("cuda")
    assert d.id == "cuda:0" and d.kind == "cuda" and d.index == 0
    assert adj.devices()[1] == d
    props = d.properties
    assert props["name"] == "Fake NVIDIA H100"
    assert props["vendor"] == "NVIDIA"
    assert props["chip"] == "sm_90"
    assert props["driver_version"] == "CUDA 13.0"
    assert list(props["subgroup_sizes"]) == [32]
    assert props["max_workgroup_size"] == 1024


def test_device_put_round_trips_through_cuda_memory():
    d = adj.device("cuda:0")
    host = np.arange(-5, 7, dtype=np.float32).reshape(3, 4) / 4
    x = adj.device_put(host, d)
    assert x.device == d
    np.testing.assert_array_equal(np.from_dlpack(x.to("cpu")), host)
    # Large enough for the pinned bounce buffers (1 MiB and more).
    big = np.random.default_rng(0).standard_normal(600_000)
    y = adj.device_put(big, d)
    np.testing.assert_array_equal(np.from_dlpack(y.to("cpu")), big)


def test_a_jitted_functions_calls_from_the_third_on_run_as_graphs():
    d = adj.device("cuda:0")
    f = adj.jit(lambda x: (adj.numpy.exp(x) * 2.0 + x).sum())
    x = adj.device_put(np.linspace(0, 1, 256, dtype=np.float32), d)
    before = d.counters()
    for _ in range(5):
        f(x)
    d.synchronize()
    after = d.counters()
    kernels = after["kernels"] - before["kernels"]
    # Every call runs the same kernels, whether launched or in a graph.
    assert kernels > 0 and kernels % 5 == 0
    assert after["calls"] - before["calls"] == 5
    assert after["graph_calls"] - before["graph_calls"] == 3
    assert after["graph_captures"] - before["graph_captures"] == 1
    # With graphs off, the same calls run plainly.
    os.environ["ADJOINT_GPU_GRAPHS"] = "0"
    try:
        f(x)
    finally:
        del os.environ["ADJOINT_GPU_GRAPHS"]
    last = d.counters()
    assert last["graph_calls"] == after["graph_calls"]
    assert last["kernels"] - after["kernels"] == kernels // 5
    assert adj.device("cpu").counters()["kernels"] == 0


def test_adjoint_bench_profile_reports_kernels_host_time_and_graphs(
        tmp_path):
    import json
    import subprocess
    import sys
    bench = os.path.join(os.path.dirname(__file__), "..", "..",
                         "benchmarks", "adjoint-bench")
    out = tmp_path / "bench.jsonl"
    # The fake runs no kernel: the losses are wrong and the run "fails";
    # the profile is what is checked.
    subprocess.run([sys.executable, bench, "mlp", "--device", "cuda:0",
                    "--size", "tiny", "--references", "none", "--steps",
                    "2", "--profile", "--json", str(out), "-q"],
                   check=False, timeout=600, capture_output=True)
    records = [json.loads(line) for line in out.read_text().splitlines()]
    prof = records[0]["implementations"]["adjoint"]["profile"]
    assert prof["device"] == "cuda:0"
    assert prof["kernels_per_step"] >= 10
    assert prof["calls_per_step"] >= 1
    # Every step call is past its first two: each runs as one graph.
    assert prof["graph_calls_per_step"] == prof["calls_per_step"]
    assert prof["graph_fallbacks"] == []
    for key in ("host_ms_per_step", "step_ms", "host_ms_per_step_no_graphs",
                "step_ms_no_graphs"):
        assert prof[key] > 0
    assert 1 <= len(prof["top_kernels"]) <= 10
    assert all(k["calls"] >= 1 for k in prof["top_kernels"])
    assert 0 < prof["compile_s"] <= records[0]["implementations"][
        "adjoint"]["compile_s"]
    # The device run's summary of saved runs (scripts/gpu-device-run.sh).
    summary = subprocess.run(
        [sys.executable, "-m", "adjoint_bench.profile", "summarize",
         str(out)], check=True, capture_output=True, text=True,
        cwd=os.path.dirname(bench)).stdout
    mlp = json.loads(summary)["mlp"]
    assert mlp["kernels_per_step"] == prof["kernels_per_step"]
    assert mlp["first_step_s"] > 0 and mlp["steady_step_ms"] > 0
    assert mlp["top_kernels"] == prof["top_kernels"]
    assert mlp["graph_captures"] == prof["graph_captures"]
    assert 0 <= prof["graph_captures"] <= (prof["graph_calls_per_step"] *
                                           prof["steps"])
