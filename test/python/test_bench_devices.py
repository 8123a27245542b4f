"""adjoint-bench's devices and precision: where the references run
(the same CUDA GPU as adjoint, else the CPU), the f32 matmul precision set
the same way in every framework, and both recorded in every JSON record.
The fake workloads are test_bench_protocol's."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BENCHMARKS = os.path.join(ROOT, "benchmarks")
sys.path.insert(0, BENCHMARKS)


def test_references_share_a_cuda_or_hip_gpu_and_stay_on_the_cpu_otherwise():
    from adjoint_bench.steps import reference_device
    assert reference_device("cuda") == "cuda:0"
    assert reference_device("cuda:1") == "cuda:1"
    # torch's ROCm builds name AMD GPUs cuda:N.
    assert reference_device("hip") == "cuda:0"
    assert reference_device("hip:1") == "cuda:1"
    assert reference_device("opencl:0") == "cpu"
    assert reference_device("level_zero:0") == "cpu"
    assert reference_device("cpu") == "cpu"


def test_precision_is_set_the_same_way_in_every_framework():
    from adjoint_bench import steps
    torch = pytest.importorskip("torch")
    jax = pytest.importorskip("jax")
    try:
        steps.set_precision("torch", "tf32")
        steps.set_precision("jax", "tf32")
        assert torch.backends.cuda.matmul.allow_tf32
        assert torch.backends.cudnn.allow_tf32
        assert torch.get_float32_matmul_precision() == "high"
        assert jax.config.jax_default_matmul_precision == "tensorfloat32"
    finally:
        steps.set_precision("torch", "highest")
        steps.set_precision("jax", "highest")
    assert not torch.backends.cuda.matmul.allow_tf32
    assert not torch.backends.cudnn.allow_tf32
    assert torch.get_float32_matmul_precision() == "highest"
    assert jax.config.jax_default_matmul_precision == "highest"
    with pytest.raises(ValueError, match="unknown precision"):
        steps.set_precision("torch", "bf16")


def test_arrays_of_cpu_runs_are_pinned_to_the_host():
    from adjoint_bench import steps
    torch = pytest.importorskip("torch")
    pytest.importorskip("jax")
    params = {"w": np.ones((2, 3), np.float32)}
    batch = {"i": [np.arange(3, dtype=np.int64)]}
    t = steps.to_framework(params, "torch", trainable=True, device="cpu")
    assert t["w"].device == torch.device("cpu") and t["w"].requires_grad
    assert steps.to_framework(batch, "torch")["i"][0].device.type == "cpu"
    for tree in (params, batch):
        j = steps.to_framework(tree, "jax", device="cpu")
        leaf = j["w"] if "w" in j else j["i"][0]
        assert {d.platform for d in leaf.devices()} == {"cpu"}
        np.testing.assert_array_equal(np.asarray(leaf),
                                      params["w"] if "w" in j else [0, 1, 2])


def _bench(args, tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [HERE] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["ADJOINT_BENCH_WORKLOADS"] = "test_bench_protocol:FAKES"
    out = tmp_path / "results.jsonl"
    proc = subprocess.run(
        [sys.executable, os.path.join(BENCHMARKS, "adjoint-bench"),
         "--size", "tiny", "--steps", "2", "--warmup", "1",
         "--references", "none", "--json", str(out), "-q", "fake-good"]
        + args, env=env, capture_output=True, text=True, timeout=300)
    lines = [json.loads(l) for l in out.read_text().splitlines()] \
        if out.exists() else []
    return proc, lines


def test_precision_and_devices_are_recorded_in_every_record(tmp_path):
    proc, lines = _bench(["--precision", "highest"], tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert [r["record"] for r in lines] == ["workload", "suite"]
    for r in lines:
        assert r["precision"] == "highest"
        assert r["reference_device"] == "cpu"
        assert r["metadata"]["precision"] == "highest"
        assert r["metadata"]["device_name"]
    assert "references on cpu, f32 matmul precision: highest" in proc.stdout


def test_tf32_needs_adjoints_precision_switch(tmp_path):
    import adjoint
    proc, lines = _bench(["--precision", "tf32"], tmp_path)
    rec = lines[0]
    assert rec["precision"] == "tf32" and lines[-1]["precision"] == "tf32"
    if hasattr(adjoint, "set_matmul_precision"):
        assert proc.returncode == 0, proc.stdout + proc.stderr
    else:
        assert proc.returncode == 1
        assert "no adjoint.set_matmul_precision" in " ".join(rec["failures"])


def test_unknown_precision_is_a_usage_error():
    proc = subprocess.run(
        [sys.executable, os.path.join(BENCHMARKS, "adjoint-bench"),
         "--precision", "fp8", "mlp"], capture_output=True, text=True,
        timeout=120)
    assert proc.returncode == 2 and "--precision" in proc.stderr
