"""The training step of every adjoint-bench workload (tiny size) on each
GPU of ADJOINT_TEST_GPUS (conftest.gpu_device: opencl:0 by default, cuda:0
in scripts/gpu-device-run.sh) agrees with the same step on the CPU for
several steps: losses and updated parameters, with the parameters kept on
the device between steps (device arrays)."""

import os
import sys

import numpy as np
import pytest

import adjoint as adj

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))

from adjoint_bench import protocol, steps  # noqa: E402

WORKLOADS = protocol.load_workloads()
STEPS = 3


def run(workload, device):
    size = protocol.resolve_size(workload, "tiny", None)
    problem = workload.problem(size, seed=0)
    step = protocol.make_step(workload, "adjoint", size)
    params = steps.to_framework(problem.params, "adjoint", device=device)
    batches = [steps.to_framework(b, "adjoint", device=device)
               for b in problem.batches]
    values = []
    for i in range(STEPS):
        out, params = step(params, batches[i % len(batches)], problem.lr)
        values.append(workload.value(steps.to_host(out, "adjoint")))
    return values, {k: adj.to_numpy(v) for k, v in params.items()}, params


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_training_step_on_gpu_agrees_with_cpu(name, gpu_device):
    device = gpu_device
    workload = WORKLOADS[name]
    cpu_values, cpu_params, _ = run(workload, "cpu")
    gpu_values, gpu_params, on_device = run(workload, device.id)
    np.testing.assert_allclose(gpu_values, cpu_values, rtol=2e-4, atol=1e-5)
    for k, v in on_device.items():
        assert isinstance(v, adj.Tensor) and v.device == device, k
    for k in cpu_params:
        np.testing.assert_allclose(gpu_params[k], cpu_params[k], rtol=2e-3,
                                   atol=2e-5, err_msg=k)
